/* `kvtutor export`: every attempt and schedule out as JSON or CSV (the JSON
 * is what `kvtutor import`, in cli_import.c, reads back). */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "cli_json.h"
#include "cli_args.h"
#include "cli_db.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kvt_format.h"
#include "kvt_text.h"
#include "store_report.h"
#include "sys.h"
#include "tutor_item.h"

#define EXPORT_FORMAT "kvtutor-export"
/* 2: times as ISO 8601 in UTC ("created_at": "2025-12-01T10:44:05Z") and the
 * due day as a date ("due_date": "2025-12-08"); 1 wrote seconds and a day
 * number ("due_day"). import reads both. */
#define EXPORT_VERSION 2

struct review_row {
    char *learner, *lesson, *exercise, *content_hash, *answer_hash;
    struct store_review r;
};

struct export_ctx {
    json_t *attempts, *reviews;
    struct review_row *rows;
    size_t n_rows, cap_rows;
    FILE *csv;
    bool failed;
};

static json_t *str_or_null(const char *s)
{
    return s ? json_string(s) : json_null();
}

static int collect_review(void *vctx, const char *learner, const char *lesson, const char *exercise,
                          const struct store_review *r, const char *content_hash,
                          const char *answer_hash)
{
    struct export_ctx *ctx = vctx;
    struct review_row *row;
    char when[40];

    if (ctx->reviews) {
        json_t *o = json_object();
        json_object_set_new(o, "learner", json_string(learner));
        json_object_set_new(o, "lesson", json_string(lesson));
        json_object_set_new(o, "exercise", json_string(exercise));
        json_object_set_new(o, "stability", json_real(r->card.stability));
        json_object_set_new(o, "difficulty", json_real(r->card.difficulty));
        json_object_set_new(o, "reps", json_integer(r->card.reps));
        json_object_set_new(o, "lapses", json_integer(r->card.lapses));
        json_object_set_new(o, "last_review",
                            json_string(kvt_fmt_utc(r->last_review, when, sizeof when)));
        json_object_set_new(o, "due_date",
                            json_string(kvt_fmt_date(r->due_day, when, sizeof when)));
        json_object_set_new(o, "content_hash", json_string(content_hash ? content_hash : ""));
        json_object_set_new(o, "answer_hash", json_string(answer_hash ? answer_hash : ""));
        json_array_append_new(ctx->reviews, o);
        return 0;
    }
    if (ctx->n_rows == ctx->cap_rows) {
        size_t cap = ctx->cap_rows ? ctx->cap_rows * 2 : 64;
        void *p = realloc(ctx->rows, cap * sizeof *ctx->rows);
        if (!p) {
            ctx->failed = true;
            return 1;
        }
        ctx->rows = p;
        ctx->cap_rows = cap;
    }
    row = &ctx->rows[ctx->n_rows++];
    row->learner = strdup(learner);
    row->lesson = strdup(lesson);
    row->exercise = strdup(exercise);
    row->content_hash = row->answer_hash = NULL;
    row->r = *r;
    if (!row->learner || !row->lesson || !row->exercise)
        ctx->failed = true;
    return ctx->failed;
}

static const struct review_row *find_review(const struct export_ctx *ctx, const char *learner,
                                            const char *lesson, const char *exercise)
{
    for (size_t i = 0; i < ctx->n_rows; i++) {
        const struct review_row *r = &ctx->rows[i];
        if (strcmp(r->learner, learner) == 0 && strcmp(r->lesson, lesson) == 0 &&
            strcmp(r->exercise, exercise) == 0)
            return r;
    }
    return NULL;
}

/* Text a spreadsheet would run as a formula: a leading = + - @ starts one,
 * and a leading tab or CR can hide one behind it. */
static bool formula_like(const char *s)
{
    return s[0] == '=' || s[0] == '+' || s[0] == '-' || s[0] == '@' || s[0] == '\t' || s[0] == '\r';
}

/* One field, RFC 4180 quoted when it needs to be. A text field (not a
 * number: "-3" must stay a number) that looks like a formula is made inert
 * with a leading apostrophe, inside quotes. */
/* Set when the export goes to a terminal rather than a file: text that
 * would act on the terminal (an escape in an answer some older kvtutor
 * kept) is then shown inert. A file gets the bytes as stored. */
static bool to_terminal;

static void csv_put(FILE *f, const char *s, bool text, bool last)
{
    bool guard, quote;
    char *shown = NULL;

    if (!s)
        s = "";
    if (text && to_terminal && !kvt_text_is_safe(s, strlen(s), KVT_KEEP_NEWLINES)) {
        size_t cap = strlen(s) * 4 + 8;
        if ((shown = malloc(cap)) != NULL) {
            kvt_sanitize(s, strlen(s), shown, cap, KVT_KEEP_NEWLINES);
            s = shown;
        } else {
            s = "(not shown)";
        }
    }
    guard = text && formula_like(s);
    quote = guard || strpbrk(s, ",\"\n\r") != NULL;
    if (quote) {
        fputc('"', f);
        if (guard)
            fputc('\'', f);
        for (; *s; s++) {
            if (*s == '"')
                fputc('"', f);
            fputc(*s, f);
        }
        fputc('"', f);
    } else {
        fputs(s, f);
    }
    fputc(last ? '\n' : ',', f);
    free(shown);
}

static void csv_field(FILE *f, const char *s, bool last)
{
    csv_put(f, s, true, last);
}

static void csv_number(FILE *f, bool has, double v, bool last)
{
    char buf[64] = "";
    if (has)
        kvt_fmt_shortest(v, buf, sizeof buf); /* 0.8, not 0.80000000000000004 */
    csv_put(f, buf, false, last);
}

/* A time (seconds since the epoch) as ISO 8601 in UTC, which spreadsheets
 * read as a date and time: 2025-12-01T10:44:05Z. */
static void csv_time(FILE *f, int64_t t, bool last)
{
    char buf[40];
    csv_put(f, kvt_fmt_utc(t, buf, sizeof buf), false, last);
}

/* A UTC day number as an ISO 8601 date, or empty. */
static void csv_date(FILE *f, bool has, int64_t day, bool last)
{
    char buf[40] = "";
    if (has)
        kvt_fmt_date(day, buf, sizeof buf);
    csv_put(f, buf, false, last);
}

/* An integer column (seed, rating), or empty. */
static void csv_int(FILE *f, bool has, long long v, bool last)
{
    char buf[32] = "";
    if (has)
        snprintf(buf, sizeof buf, "%lld", v);
    csv_put(f, buf, false, last);
}

static int emit_attempt(void *vctx, const char *learner, const struct store_attempt *a)
{
    struct export_ctx *ctx = vctx;
    char when[40];

    if (ctx->attempts) {
        json_t *o = json_object();
        json_object_set_new(o, "uid", json_string(a->uid));
        json_object_set_new(o, "learner", json_string(learner));
        json_object_set_new(o, "module", json_string(a->module ? a->module : ""));
        json_object_set_new(o, "lesson", json_string(a->lesson_id));
        json_object_set_new(o, "exercise", json_string(a->exercise_id));
        json_object_set_new(o, "concept", json_string(a->concept ? a->concept : ""));
        json_object_set_new(o, "answer", json_string(a->answer));
        json_object_set_new(o, "value", a->has_value ? json_real(a->value) : json_null());
        json_object_set_new(o, "unit", str_or_null(a->unit));
        json_object_set_new(o, "verdict", json_string(a->verdict));
        json_object_set_new(o, "score", json_real(a->score));
        json_object_set_new(o, "diagnosis", str_or_null(a->diagnosis));
        json_object_set_new(o, "seed", a->has_seed ? json_integer(a->seed) : json_null());
        json_object_set_new(o, "hinted", json_boolean(a->hinted));
        json_object_set_new(o, "rating", a->rating ? json_integer(a->rating) : json_null());
        json_object_set_new(o, "seconds", json_real(a->seconds));
        json_object_set_new(o, "created_at",
                            json_string(kvt_fmt_utc(a->created_at, when, sizeof when)));
        json_array_append_new(ctx->attempts, o);
    } else {
        const struct review_row *r = find_review(ctx, learner, a->lesson_id, a->exercise_id);
        FILE *f = ctx->csv;
        csv_field(f, a->uid, false);
        csv_field(f, learner, false);
        csv_field(f, a->module, false);
        csv_field(f, a->lesson_id, false);
        csv_field(f, a->exercise_id, false);
        csv_field(f, a->concept, false);
        csv_field(f, a->answer, false);
        csv_number(f, a->has_value, a->value, false);
        csv_field(f, a->unit, false);
        csv_field(f, a->verdict, false);
        csv_number(f, true, a->score, false);
        csv_field(f, a->diagnosis, false);
        csv_int(f, a->has_seed, (long long)a->seed, false);
        csv_int(f, true, a->hinted, false);
        csv_int(f, a->rating != 0, a->rating, false);
        csv_number(f, true, a->seconds, false);
        csv_time(f, a->created_at, false);
        csv_number(f, r != NULL, r ? r->r.card.stability : 0, false);
        csv_number(f, r != NULL, r ? r->r.card.difficulty : 0, false);
        csv_date(f, r != NULL, r ? r->r.due_day : 0, true);
    }
    return 0;
}

static void free_rows(struct export_ctx *ctx)
{
    for (size_t i = 0; i < ctx->n_rows; i++) {
        free(ctx->rows[i].learner);
        free(ctx->rows[i].lesson);
        free(ctx->rows[i].exercise);
    }
    free(ctx->rows);
}

enum { E_FORMAT, E_OUT, E_FORCE };
static const struct cli_flag export_flags[] = {
    [E_FORMAT] = {"--format", NULL, "json|csv", .kind = CLI_STR},
    [E_OUT] = {"--out", NULL, "FILE", .kind = CLI_STR},
    [E_FORCE] = {"--force", NULL, NULL, .kind = CLI_SWITCH},
};
static const struct cli_spec export_spec = {
    .cmd = "export", .flags = export_flags, .nflags = 3, .globals = CLI_G_DB};

static int export_usage(FILE *out)
{
    fputs("usage: kvtutor export [--format json|csv] [--out FILE] [--force] [--db FILE]\n\n"
          "Every attempt of every learner, and every exercise's review schedule.\n"
          "json (the default) is what kvtutor import reads; csv has one row per attempt\n"
          "with the exercise's current stability, difficulty and due date, for\n"
          "spreadsheets; its times are ISO 8601 in UTC (2025-12-01T10:44:05Z, due\n"
          "2025-12-08). --out writes the file whole or not at all; a read-only file\n"
          "there (chmod 444) is kept unless --force.\n",
          out);
    return out == stdout ? 0 : 2;
}

/* What is at the target now: fine when nothing is there or a regular file
 * is (it will be replaced whole); otherwise the reason to refuse. lstat, so
 * a symbolic link is seen as the link: replacing it would leave its target
 * alone, but writing through it is what an attacker who left it wants. */
static const char *target_refused(const char *path, bool force)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return errno == ENOENT ? NULL : strerror(errno);
    /* a file nobody may write was made so to keep it: rename() would replace
     * it all the same (only the folder's permissions count), so ask first */
    if (S_ISREG(st.st_mode) && !force && !(st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)))
        return "is read-only; --force replaces it";
    if (S_ISREG(st.st_mode))
        return NULL;
    return S_ISLNK(st.st_mode)                          ? "is a symbolic link"
           : S_ISDIR(st.st_mode)                        ? "is a folder"
           : S_ISFIFO(st.st_mode)                       ? "is a FIFO"
           : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "is a device"
                                                        : "is not a regular file";
}

/* A new file beside `path`, created exclusively under a random name
 * (O_EXCL and O_NOFOLLOW: never through a link, never over a file someone
 * put there), readable by the owner only: the export holds their answers.
 * The export is written there, synced and renamed over `path`, so a
 * failed export never leaves half a file and never writes through a link. */
static FILE *open_out(const char *path, bool force, char *tmp, size_t cap, char *why,
                      size_t why_cap)
{
    const char *slash, *refused;
    int dir_len;

    if (!path)
        return stdout;
    slash = strrchr(path, '/');
    dir_len = slash ? (int)(slash - path + 1) : 0;
    if ((refused = target_refused(path, force)) != NULL) {
        snprintf(why, why_cap, "%s%s", refused,
                 strstr(refused, "--force")
                     ? ""
                     : "; export writes a new file or replaces a regular one");
        return NULL;
    }
    for (int attempt = 0; attempt < 16; attempt++) {
        unsigned char r[8];
        int fd;
        if (sys_random(r, sizeof r) != 0) {
            snprintf(why, why_cap, "no random name for a temporary file: %s", strerror(errno));
            return NULL;
        }
        if (snprintf(tmp, cap, "%.*s.kvtutor-export-%02x%02x%02x%02x%02x%02x%02x%02x.tmp", dir_len,
                     path, r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]) >= (int)cap) {
            snprintf(why, why_cap, "the path is too long");
            return NULL;
        }
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd >= 0) {
            FILE *f = fdopen(fd, "w");
            if (!f) {
                snprintf(why, why_cap, "%s", strerror(errno));
                close(fd);
                unlink(tmp);
            }
            return f;
        }
        if (errno != EEXIST) {
            snprintf(why, why_cap, "cannot create a file in its folder: %s", strerror(errno));
            return NULL;
        }
    }
    snprintf(why, why_cap, "no free temporary name in its folder");
    return NULL;
}

/* Syncs the folder, so the rename itself survives a crash. */
static void sync_folder(const char *path)
{
    char dir[4200];
    const char *slash = strrchr(path, '/');
    int fd;
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path + (slash == path)) : 1,
             slash ? path : ".");
    if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0) {
        fsync(fd);
        close(fd);
    }
}

static int close_out(FILE *f, const char *path, bool force, const char *tmp)
{
    bool ok = fflush(f) == 0 && !ferror(f);
    const char *refused = NULL;
    char safe[KVT_SAFE_FIELD * 2];

    if (f == stdout)
        return ok ? 0 : 1;
    ok = ok && fsync(fileno(f)) == 0;
    ok = fclose(f) == 0 && ok;
    /* checked again: something may have been put there while we wrote */
    if (ok && !(refused = target_refused(path, force)) && rename(tmp, path) == 0) {
        sync_folder(path);
        return 0;
    }
    fprintf(stderr, "kvtutor export: %s: %s\n", kvt_safe(path, safe, sizeof safe),
            refused ? refused : strerror(errno));
    unlink(tmp);
    return 1;
}

int cli_export(int argc, char **argv)
{
    const char *format, *out_path;
    struct cli_args a;
    struct export_ctx ctx = {0};
    struct cli_db db;
    struct store_error err;
    char tmp[4200], why[300], safe[KVT_SAFE_FIELD * 2];
    FILE *f;
    int rc = 0;

    if ((rc = cli_parse(&export_spec, argc, argv, &a)) != 0)
        return rc;
    if (a.help)
        return export_usage(stdout);
    format = a.given[E_FORMAT] ? a.text[E_FORMAT] : "json";
    out_path = a.text[E_OUT];
    if (strcmp(format, "json") != 0 && strcmp(format, "csv") != 0) {
        return cli_usage_error("export", "--format %s: json or csv", format);
    }
    if ((rc = cli_db_open("export", a.db, NULL, (int64_t)time(NULL), &db)) != 0)
        return rc;
    /* a damaged page would otherwise end the walk early, or be skipped,
     * and the export would look whole */
    if (store_check(db.st, STORE_CHECK_QUICK, &err) != KVT_E_OK) {
        rc = cli_db_error("export", db.path, &err);
        goto done;
    }
    if (strcmp(format, "json") == 0) {
        ctx.attempts = json_array();
        ctx.reviews = json_array();
    }
    if (store_each_review(db.st, collect_review, &ctx, &err) != KVT_E_OK) {
        rc = cli_db_error("export", db.path, &err);
        goto done;
    }
    if (ctx.failed) {
        fputs("kvtutor export: out of memory\n", stderr);
        rc = 1;
        goto done;
    }
    if (!(f = open_out(out_path, a.given[E_FORCE], tmp, sizeof tmp, why, sizeof why))) {
        fprintf(stderr, "kvtutor export: %s: %s\n", kvt_safe(out_path, safe, sizeof safe), why);
        rc = 1;
        goto done;
    }
    to_terminal = f == stdout && isatty(STDOUT_FILENO);
    if (!ctx.attempts) {
        ctx.csv = f;
        fputs("uid,learner,module,lesson,exercise,concept,answer,value,unit,verdict,score,"
              "diagnosis,seed,hinted,rating,seconds,created_at,stability,difficulty,due_date\n",
              f);
    }
    if (store_each_attempt(db.st, emit_attempt, &ctx, &err) != KVT_E_OK) {
        rc = cli_db_error("export", db.path, &err);
        if (f != stdout) {
            fclose(f);
            unlink(tmp);
        }
        goto done;
    }
    if (ctx.attempts) {
        json_t *o = json_object();
        json_object_set_new(o, "format", json_string(EXPORT_FORMAT));
        json_object_set_new(o, "version", json_integer(EXPORT_VERSION));
        {
            char when[32]; /* ISO 8601 in UTC, as the README promises and the CSV writes */
            json_object_set_new(o, "exported_at",
                                json_string(kvt_fmt_utc((int64_t)time(NULL), when, sizeof when)));
        }
        json_object_set_new(o, "attempts", ctx.attempts);
        json_object_set_new(o, "reviews", ctx.reviews);
        ctx.attempts = ctx.reviews = NULL;
        /* on a terminal, every character past ASCII as \\uXXXX: C1 controls
         * and bidirectional overrides would otherwise go out raw */
        cli_json_dumpf(
            o, f, JSON_INDENT(1) | JSON_PRESERVE_ORDER | (to_terminal ? JSON_ENSURE_ASCII : 0));
        fputc('\n', f);
        json_decref(o);
    }
    rc = close_out(f, out_path, a.given[E_FORCE], tmp);
done:
    json_decref(ctx.attempts);
    json_decref(ctx.reviews);
    free_rows(&ctx);
    cli_db_close(&db);
    return rc;
}
