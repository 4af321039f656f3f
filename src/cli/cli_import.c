/* `kvtutor import`: a JSON export merged into this database, every field
 * checked before anything is written.
 *
 * An export is a file from another machine, and possibly from someone else:
 * each figure must be one kvtutor could have written (a time between
 * 2000-01-01 and a day from now, a schedule FSRS could produce), each text
 * a bounded, printable name (the stats print them), and the file small
 * enough to read whole. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "cli_args.h"
#include "cli_db.h"
#include "cli_import_file.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "kvt_format.h"
#include "kvt_text.h"
#include "store_report.h"
#include "tutor_item.h"

#define EXPORT_FORMAT  "kvtutor-export"
#define EXPORT_VERSION 2 /* the newest this kvtutor reads: the one cli_transfer.c writes */

/* An export of 64 MiB holds about 120,000 attempts; jansson needs about
 * six times the file's size to hold it parsed. */

#define TIME_MIN       946684800LL /* 2000-01-01T00:00:00Z */
#define DAY_SECONDS    86400LL
#define MAX_SECONDS    86400.0 /* one answer: at most a day */
#define MAX_COUNT      1000000 /* reviews or lapses of one exercise */
#define MAX_INTERVAL   36503   /* days: FSRS's cap, then Hard < Good < Easy (fsrs.c) */
#define STABILITY_MIN  0.001   /* FSRS's bounds (fsrs.h) */
#define STABILITY_MAX  36500.0
#define DIFFICULTY_MIN 1.0
#define DIFFICULTY_MAX 10.0

struct reader {
    const char *file;
    int64_t now;
    char where[64];
    char why[400];
};

static bool fail(struct reader *rd, const char *fmt, ...)
{
    char msg[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(rd->why, sizeof rd->why, "%s: %s", rd->where, msg);
    return false;
}

static bool need(struct reader *rd, json_t *o, const char *key, json_t **out, json_type type)
{
    json_t *v = json_object_get(o, key);
    bool ok = v && (type == JSON_REAL ? json_is_number(v) : json_typeof(v) == type);
    *out = v;
    return ok || fail(rd, "\"%s\" is missing or of the wrong type", key);
}

/* A text field: at most max bytes, printable (no control characters, no
 * bidirectional overrides). NULL or absent is allowed when optional. */
static bool text(struct reader *rd, json_t *o, const char *key, size_t max, bool optional,
                 const char **out)
{
    json_t *v = json_object_get(o, key);
    const char *s;
    size_t len;

    *out = NULL;
    if (!v || json_is_null(v)) {
        if (optional)
            return true;
        return fail(rd, "\"%s\" is missing", key);
    }
    if (!json_is_string(v))
        return fail(rd, "\"%s\" is not a string", key);
    s = json_string_value(v);
    len = json_string_length(v);
    if (strlen(s) != len || !kvt_text_is_safe(s, len, 0))
        return fail(rd, "\"%s\" holds control characters", key);
    if (len > max)
        return fail(rd, "\"%s\" is %zu bytes long; at most %zu", key, len, max);
    if (!optional && len == 0)
        return fail(rd, "\"%s\" is empty", key);
    *out = s;
    return true;
}

static bool learner_name(struct reader *rd, json_t *o, const char **out)
{
    const char *why;
    if (!text(rd, o, "learner", 64, false, out))
        return false;
    if ((why = store_setting_check("learner", *out)) != NULL)
        return fail(rd, "\"learner\": %s", why);
    return true;
}

/* A time kvtutor could have written: from 2000-01-01 to a day from now (a
 * clock a little ahead is fine; the year 3000 is not). As export writes it,
 * ISO 8601 in UTC ("2025-12-01T10:44:05Z"), or as exports of version 1 did,
 * seconds since 1970. */
static bool a_time(struct reader *rd, json_t *o, const char *key, int64_t *t)
{
    json_t *v = json_object_get(o, key);
    char shown[40];

    if (json_is_string(v)) {
        if (strlen(json_string_value(v)) != json_string_length(v) ||
            !kvt_parse_utc(json_string_value(v), t))
            return fail(rd, "\"%s\" is not a UTC time written as 2025-12-01T10:44:05Z", key);
        snprintf(shown, sizeof shown, "%s", json_string_value(v));
    } else if (json_is_integer(v)) {
        *t = json_integer_value(v);
        snprintf(shown, sizeof shown, "%lld", (long long)*t);
    } else {
        return fail(rd, "\"%s\" is missing or of the wrong type", key);
    }
    if (*t < TIME_MIN || *t > rd->now + DAY_SECONDS)
        return fail(rd, "\"%s\" %s is not a time between 2000-01-01 and tomorrow", key, shown);
    return true;
}

/* The day a schedule is due: "due_date" as export writes it
 * ("2025-12-08"), or "due_day", a day number, as exports of version 1 did. */
static bool a_due_day(struct reader *rd, json_t *o, int64_t *day)
{
    json_t *date = json_object_get(o, "due_date"), *num = json_object_get(o, "due_day");

    if (json_is_string(date)) {
        if (strlen(json_string_value(date)) != json_string_length(date) ||
            !kvt_parse_date(json_string_value(date), day))
            return fail(rd, "\"due_date\" is not a date written as 2025-12-08");
        return true;
    }
    if (date || !json_is_integer(num))
        return fail(rd, "\"due_date\" is missing or of the wrong type");
    *day = json_integer_value(num);
    return true;
}

static bool read_attempt(struct reader *rd, json_t *o, struct store_attempt *a,
                         const char **learner)
{
    json_t *uid, *score, *seconds, *v;

    memset(a, 0, sizeof *a);
    if (!json_is_object(o))
        return fail(rd, "not an object");
    if (!need(rd, o, "uid", &uid, JSON_STRING) || !need(rd, o, "score", &score, JSON_REAL) ||
        !need(rd, o, "seconds", &seconds, JSON_REAL))
        return false;
    if (json_string_length(uid) != 32 || strspn(json_string_value(uid), "0123456789abcdef") != 32)
        return fail(rd, "uid is not 32 hex digits");
    snprintf(a->uid, sizeof a->uid, "%s", json_string_value(uid));
    if (!learner_name(rd, o, learner) || !text(rd, o, "module", 63, true, &a->module) ||
        !text(rd, o, "lesson", 127, false, &a->lesson_id) ||
        !text(rd, o, "exercise", 127, false, &a->exercise_id) ||
        !text(rd, o, "concept", 127, true, &a->concept) ||
        !text(rd, o, "answer", 4096, false, &a->answer) ||
        !text(rd, o, "verdict", 16, false, &a->verdict) ||
        !text(rd, o, "unit", 32, true, &a->unit) ||
        !text(rd, o, "diagnosis", 127, true, &a->diagnosis))
        return false;
    enum kv_verdict kind;
    if (!tutor_verdict_parse(a->verdict, &kind))
        return fail(rd, "verdict must be correct, wrong or invalid");
    a->score = json_number_value(score);
    a->seconds = json_number_value(seconds);
    if (!(a->score >= 0 && a->score <= 1))
        return fail(rd, "score must be 0 to 1");
    if (!(a->seconds >= 0 && a->seconds <= MAX_SECONDS))
        return fail(rd, "seconds must be 0 to 86400 (a day)");
    if (!a_time(rd, o, "created_at", &a->created_at))
        return false;
    if ((v = json_object_get(o, "value")) && !json_is_null(v)) {
        if (!json_is_number(v) || !isfinite(json_number_value(v)))
            return fail(rd, "value must be a number or null");
        a->has_value = true;
        a->value = json_number_value(v);
    }
    if ((v = json_object_get(o, "seed")) && !json_is_null(v)) {
        if (!json_is_integer(v))
            return fail(rd, "seed must be an integer or null");
        a->has_seed = true;
        a->seed = json_integer_value(v);
    }
    if ((v = json_object_get(o, "hinted")) && !json_is_boolean(v))
        return fail(rd, "hinted must be true or false");
    a->hinted = json_is_true(v);
    if ((v = json_object_get(o, "rating")) && !json_is_null(v)) {
        if (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > 4)
            return fail(rd, "rating must be 1 to 4");
        a->rating = (int)json_integer_value(v);
    }
    return true;
}

struct review_in {
    const char *learner, *lesson, *exercise, *content_hash, *answer_hash;
    struct store_review r;
};

static bool a_count(struct reader *rd, const char *key, json_t *v, uint32_t *out)
{
    json_int_t n = json_integer_value(v);
    if (n < 0 || n > MAX_COUNT)
        return fail(rd, "\"%s\" %lld is not a count from 0 to %d", key, (long long)n, MAX_COUNT);
    *out = (uint32_t)n;
    return true;
}

static bool read_review(struct reader *rd, json_t *o, struct review_in *in)
{
    json_t *s, *d, *reps, *lapses;
    struct store_review *r = &in->r;
    int64_t last_day;

    memset(in, 0, sizeof *in);
    if (!json_is_object(o))
        return fail(rd, "not an object");
    if (!learner_name(rd, o, &in->learner) || !text(rd, o, "lesson", 127, false, &in->lesson) ||
        !text(rd, o, "exercise", 127, false, &in->exercise) ||
        !text(rd, o, "content_hash", 64, true, &in->content_hash) ||
        !text(rd, o, "answer_hash", 64, true, &in->answer_hash) ||
        !need(rd, o, "stability", &s, JSON_REAL) || !need(rd, o, "difficulty", &d, JSON_REAL) ||
        !need(rd, o, "reps", &reps, JSON_INTEGER) || !need(rd, o, "lapses", &lapses, JSON_INTEGER))
        return false;
    r->card.stability = json_number_value(s);
    r->card.difficulty = json_number_value(d);
    if (!(r->card.stability >= STABILITY_MIN && r->card.stability <= STABILITY_MAX))
        return fail(rd, "stability must be 0.001 to 36500 days");
    if (!(r->card.difficulty >= DIFFICULTY_MIN && r->card.difficulty <= DIFFICULTY_MAX))
        return fail(rd, "difficulty must be 1 to 10");
    if (!a_count(rd, "reps", reps, &r->card.reps) ||
        !a_count(rd, "lapses", lapses, &r->card.lapses))
        return false;
    if (r->card.lapses > r->card.reps)
        return fail(rd, "more lapses than reviews");
    if (!a_time(rd, o, "last_review", &r->last_review) || !a_due_day(rd, o, &r->due_day))
        return false;
    last_day = r->last_review / DAY_SECONDS;
    if (r->due_day < last_day || r->due_day > last_day + MAX_INTERVAL) {
        char a[40], b[40];
        /* a day number past the year 9999 is shown as a number */
        if (r->due_day > -719468 && r->due_day < 2932897)
            kvt_fmt_date(r->due_day, a, sizeof a);
        else
            snprintf(a, sizeof a, "day %lld", (long long)r->due_day);
        return fail(rd, "%s %s is not within %s days after last_review",
                    json_object_get(o, "due_date") ? "due_date" : "due_day", a,
                    kvt_fmt_int(MAX_INTERVAL, b, sizeof b));
    }
    r->interval = (uint32_t)(r->due_day - last_day);
    return true;
}

/* A first line with commas and no JSON punctuation: `export --format csv`'s
 * output, or a spreadsheet's, given to import, which reads JSON only. */
static bool looks_like_csv(const char *buf, size_t len)
{
    size_t i = 0, commas = 0;

    while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r' || buf[i] == '\n'))
        i++;
    for (; i < len && buf[i] != '\n'; i++) {
        if (buf[i] == '{' || buf[i] == '[' || buf[i] == ':')
            return false;
        commas += buf[i] == ',';
    }
    return commas > 0;
}

/* Reading the export one record at a time. jansson would hold the whole
 * file as a tree, about eight times its size (a 63 MiB export took 567 MB);
 * here the top-level object is walked by hand and each record parsed on its
 * own (JSON_DISABLE_EOF_CHECK reports where it ended), so memory is the
 * file's bytes and one record. The walk runs twice: once to check every
 * record before the database is touched, once to write them. */
struct scan {
    const char *buf;
    size_t len, pos;
    char why[300];
};

static void skip_ws(struct scan *sc)
{
    while (sc->pos < sc->len && strchr(" \t\r\n", sc->buf[sc->pos]) && sc->buf[sc->pos])
        sc->pos++;
}

static bool expect(struct scan *sc, char c)
{
    skip_ws(sc);
    if (sc->pos < sc->len && sc->buf[sc->pos] == c) {
        sc->pos++;
        return true;
    }
    return false;
}

static int line_at(const struct scan *sc, size_t pos)
{
    int line = 1;
    for (size_t i = 0; i < pos && i < sc->len; i++)
        line += sc->buf[i] == '\n';
    return line;
}

static bool syntax(struct scan *sc, const char *what)
{
    snprintf(sc->why, sizeof sc->why, "line %d: %s", line_at(sc, sc->pos), what);
    return false;
}

/* The JSON value at the current position, which is then past it. */
static json_t *value(struct scan *sc)
{
    json_error_t e;
    json_t *v;
    char safe[KVT_SAFE_FIELD];

    skip_ws(sc);
    v = json_loadb(sc->buf + sc->pos, sc->len - sc->pos,
                   JSON_DISABLE_EOF_CHECK | JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &e);
    if (!v) {
        snprintf(sc->why, sizeof sc->why, "line %d: %s",
                 line_at(sc, sc->pos) + (e.line > 0 ? e.line - 1 : 0),
                 kvt_safe(e.text, safe, sizeof safe));
        return NULL;
    }
    sc->pos += (size_t)e.position;
    return v;
}

typedef bool (*record_fn)(void *ctx, json_t *record, size_t index);

/* Each element of the array at the current position, in order. */
static bool each_record(struct scan *sc, record_fn fn, void *ctx)
{
    if (!expect(sc, '['))
        return syntax(sc, "expected an array");
    if (expect(sc, ']'))
        return true;
    for (size_t i = 0;; i++) {
        json_t *v = value(sc);
        bool ok;
        if (!v)
            return false;
        ok = fn(ctx, v, i);
        json_decref(v);
        if (!ok)
            return false;
        if (expect(sc, ']'))
            return true;
        if (!expect(sc, ','))
            return syntax(sc, "expected ',' or ']' after a record");
    }
}

struct layout {
    size_t attempts_at, reviews_at; /* offsets of the arrays; 0 when absent */
    bool format_ok;
    json_int_t version; /* "version"; 1 when absent (the first exports) */
};

/* Walks the top-level object: checks "format", notes where the two arrays
 * are, and hands each of their records to fn (NULL: skip them). */
static bool walk(struct scan *sc, struct layout *lay, record_fn attempt_fn, record_fn review_fn,
                 void *ctx)
{
    bool seen_format = false;

    memset(lay, 0, sizeof *lay);
    lay->version = 1;
    if (!expect(sc, '{'))
        return syntax(sc, "not a JSON object");
    if (expect(sc, '}'))
        return true;
    for (;;) {
        json_t *key = value(sc), *v;
        const char *k;
        if (!key)
            return false;
        if (!json_is_string(key)) {
            json_decref(key);
            return syntax(sc, "expected a key");
        }
        k = json_string_value(key);
        if (!expect(sc, ':')) {
            json_decref(key);
            return syntax(sc, "expected ':'");
        }
        skip_ws(sc);
        if (strcmp(k, "attempts") == 0 || strcmp(k, "reviews") == 0) {
            bool is_attempts = k[0] == 'a';
            size_t *at = is_attempts ? &lay->attempts_at : &lay->reviews_at;
            json_decref(key);
            if (*at)
                return syntax(sc, "a key given twice");
            *at = sc->pos;
            if (sc->pos < sc->len && sc->buf[sc->pos] != '[')
                return syntax(sc, is_attempts ? "\"attempts\" is not an array"
                                              : "\"reviews\" is not an array");
            if (!each_record(sc, is_attempts ? attempt_fn : review_fn, ctx))
                return false;
        } else {
            bool is_format = strcmp(k, "format") == 0, is_version = strcmp(k, "version") == 0;
            json_decref(key);
            if (is_format && seen_format)
                return syntax(sc, "a key given twice");
            if (!(v = value(sc)))
                return false;
            if (is_format) {
                seen_format = true;
                lay->format_ok =
                    json_is_string(v) && strcmp(json_string_value(v), EXPORT_FORMAT) == 0;
            }
            if (is_version) {
                /* read before any record: a newer export's records may mean
                 * something this kvtutor would read wrong */
                bool whole = json_is_integer(v);
                lay->version = whole ? json_integer_value(v) : 0;
                json_decref(v);
                if (!whole || lay->version < 1)
                    return syntax(sc, "\"version\" is not a format version (1, 2, ...)");
                if (lay->version > EXPORT_VERSION) {
                    snprintf(sc->why, sizeof sc->why,
                             "an export of format version %lld, newer than this kvtutor reads "
                             "(1 to %d): upgrade kvtutor to import it",
                             (long long)lay->version, EXPORT_VERSION);
                    return false;
                }
                v = NULL;
            }
            json_decref(v);
        }
        if (expect(sc, '}'))
            break;
        if (!expect(sc, ','))
            return syntax(sc, "expected ',' or '}'");
    }
    skip_ws(sc);
    if (sc->pos != sc->len)
        return syntax(sc, "text after the export");
    return true;
}

struct run {
    struct reader rd;
    struct store *st; /* NULL on the checking pass */
    struct store_error err;
    enum kvt_err e;
    size_t added, present, updated;
};

static bool on_attempt(void *vctx, json_t *o, size_t i)
{
    struct run *run = vctx;
    struct store_attempt a;
    const char *learner;
    bool was_added;

    snprintf(run->rd.where, sizeof run->rd.where, "attempts[%zu]", i);
    if (!read_attempt(&run->rd, o, &a, &learner)) {
        run->e = KVT_E_PARSE;
        return false;
    }
    if (!run->st)
        return true;
    run->e = store_import_attempt(run->st, learner, &a, &was_added, &run->err);
    run->added += was_added;
    run->present += !was_added;
    return run->e == KVT_E_OK;
}

static bool on_review(void *vctx, json_t *o, size_t i)
{
    struct run *run = vctx;
    struct review_in in;
    bool was_updated;

    snprintf(run->rd.where, sizeof run->rd.where, "reviews[%zu]", i);
    if (!read_review(&run->rd, o, &in)) {
        run->e = KVT_E_PARSE;
        return false;
    }
    if (!run->st)
        return true;
    run->e = store_import_review(run->st, in.learner, in.lesson, in.exercise, &in.r,
                                 in.content_hash, in.answer_hash, &was_updated, &run->err);
    run->updated += was_updated;
    return run->e == KVT_E_OK;
}

/* Writes every record: the arrays walked again from their offsets. */
static bool write_records(struct scan *sc, const struct layout *lay, struct run *run)
{
    sc->pos = lay->attempts_at;
    if (!each_record(sc, on_attempt, run))
        return false;
    if (lay->reviews_at) {
        sc->pos = lay->reviews_at;
        return each_record(sc, on_review, run);
    }
    return true;
}

static void usage(void)
{
    puts("usage: kvtutor import FILE|- [--db FILE]\n\n"
         "Merges a JSON export (kvtutor export) into this database; - reads standard\n"
         "input, as explain-log does. Attempts already here are skipped, a schedule\n"
         "replaces the local one only when it was reviewed later. All or nothing: a bad\n"
         "record leaves the database as it was, and a database that fails its check is\n"
         "not written to. Files over 64 MiB are refused, and so is an export of a newer\n"
         "format version than this kvtutor reads.");
}

static const struct cli_spec import_spec = {.cmd = "import", .globals = CLI_G_DB, .max_pos = 1};

int cli_import(int argc, char **argv)
{
    const char *file;
    struct cli_args args;
    struct run run = {0};
    struct scan sc = {0};
    struct layout lay;
    struct cli_db db;
    char fname[KVT_SAFE_FIELD * 2], why[400], *buf;
    int rc;

    if ((rc = cli_parse(&import_spec, argc, argv, &args)) != 0)
        return rc;
    if (args.help) {
        usage();
        return 0;
    }
    file = args.npos ? args.pos[0] : NULL;
    if (!file)
        return cli_usage_error("import", "name the export file to read");
    kvt_safe(strcmp(file, "-") == 0 ? "standard input" : file, fname, sizeof fname);
    run.rd.file = file;
    run.rd.now = (int64_t)time(NULL);
    if (!(buf = cli_import_load(file, &sc.len, why, sizeof why))) {
        fprintf(stderr, "kvtutor import: %s: %s; nothing imported\n", fname, why);
        return 1;
    }
    sc.buf = buf;
    /* a UTF-8 byte order mark, as some editors save: JSON allows a reader
     * to ignore it (RFC 8259, section 8.1), and this one does */
    if (sc.len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0) {
        sc.buf += 3;
        sc.len -= 3;
    }
    if (looks_like_csv(sc.buf, sc.len)) {
        fprintf(stderr,
                "kvtutor import: %s: a CSV file; import reads the JSON export "
                "(kvtutor export --format json); nothing imported\n",
                fname);
        free(buf);
        return 1;
    }
    /* first pass: the whole file checked, nothing written */
    if (!walk(&sc, &lay, on_attempt, on_review, &run)) {
        fprintf(stderr, "kvtutor import: %s: %s; nothing imported\n", fname,
                kvt_safe(run.e == KVT_E_PARSE ? run.rd.why : sc.why, why, sizeof why));
        free(buf);
        return 1;
    }
    if (!lay.format_ok || !lay.attempts_at) {
        fprintf(stderr, "kvtutor import: %s: not a kvtutor export (kvtutor export writes one)\n",
                fname);
        free(buf);
        return 1;
    }
    if ((rc = cli_db_open("import", args.db, NULL, run.rd.now, &db)) != 0) {
        free(buf);
        return rc;
    }
    /* never merge into a damaged file: the commit would spread the damage */
    if ((run.e = store_check(db.st, STORE_CHECK_QUICK, &run.err)) != KVT_E_OK) {
        cli_db_error("import", db.path, &run.err);
        cli_db_close(&db);
        free(buf);
        return 1;
    }
    run.st = db.st;
    /* the second pass writes what the first checked; the callbacks set run.e */
    if ((run.e = store_import_begin(db.st, &run.err)) == KVT_E_OK &&
        !write_records(&sc, &lay, &run) && run.e == KVT_E_OK)
        run.e = KVT_E_PARSE;
    if (run.e == KVT_E_OK) {
        run.e = store_import_end(db.st, true, &run.err);
        rc = run.e == KVT_E_OK ? 0 : cli_db_error("import", db.path, &run.err);
    } else {
        store_import_end(db.st, false, NULL);
        if (run.e == KVT_E_PARSE)
            fprintf(stderr, "kvtutor import: %s: %s; nothing imported\n", fname,
                    kvt_safe(run.rd.why[0] ? run.rd.why : sc.why, why, sizeof why));
        else
            cli_db_error("import", db.path, &run.err);
        rc = 1;
    }
    if (rc == 0)
        printf("Imported %zu attempt%s (%zu already here), %zu schedule%s updated.\n", run.added,
               run.added == 1 ? "" : "s", run.present, run.updated, run.updated == 1 ? "" : "s");
    cli_db_close(&db);
    free(buf);
    return rc;
}
