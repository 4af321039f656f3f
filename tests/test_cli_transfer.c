/* `kvtutor import` and `kvtutor export` against files made to hurt: every
 * field out of its range refused with a line naming it, text that would
 * drive a terminal refused at import and made inert in stats, files too
 * big or not files at all, damaged pages, and `export --out` onto links,
 * FIFOs and devices. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <setjmp.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "learner_db.h"
#include "run_cmd.h"
#include "tmp_dir.h"

static char dir[64];

static int setup(void **state)
{
    (void)state;
    return tmp_dir_make(dir, sizeof dir, "kvt_xfer_");
}

static int teardown(void **state)
{
    (void)state;
    return tmp_dir_remove(dir);
}

static struct run_result kvt(const char *input, ...)
{
    struct run_result r;
    va_list ap;
    va_start(ap, input);
    int rc = run_kvtutor_va(input, &r, ap);
    va_end(ap);
    assert_int_equal(rc, 0);
    return r;
}

static bool has_controls(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (((unsigned char)s[i] < 0x20 && s[i] != '\n') || s[i] == 0x7f)
            return true;
    return false;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* A valid export of one attempt and one schedule, made `now`. */
static json_t *valid_export(long now)
{
    char text[2048];
    long day = now / 86400;
    json_error_t e;
    json_t *j;
    snprintf(text, sizeof text,
             "{\"format\": \"kvtutor-export\", \"version\": 1, \"attempts\": ["
             "{\"uid\": \"00000000000000000000000000000001\", \"learner\": \"ann\", "
             "\"module\": \"part0\", \"lesson\": \"kv-cache\", \"exercise\": \"per-token\", "
             "\"concept\": \"kv-size\", \"answer\": \"56 KiB\", \"value\": 56, \"unit\": \"KiB\", "
             "\"verdict\": \"wrong\", \"score\": 0, \"diagnosis\": \"forgot K and V\", "
             "\"seed\": 1, \"hinted\": false, \"rating\": 1, \"seconds\": 30, "
             "\"created_at\": %ld}],"
             "\"reviews\": [{\"learner\": \"ann\", \"lesson\": \"kv-cache\", \"exercise\": "
             "\"per-token\", \"stability\": 0.212, \"difficulty\": 6.4133, \"reps\": 1, "
             "\"lapses\": 1, \"last_review\": %ld, \"due_day\": %ld, \"content_hash\": \"ab\", "
             "\"answer_hash\": \"cd\"}]}",
             now - 60, now - 60, day + 1);
    j = json_loads(text, 0, &e);
    assert_non_null(j);
    return j;
}

/* Imports the export j into db through `file`, as a learner would, and
 * frees j. */
static struct run_result import(const char *db, const char *file, json_t *j)
{
    struct run_result r;
    char *text = json_dumps(j, 0);
    assert_non_null(text);
    json_decref(j);
    assert_int_equal(learner_db_import(db, file, text, &r), 0);
    free(text);
    return r;
}

static long long count_rows(const char *db, const char *table)
{
    sqlite3 *d;
    sqlite3_stmt *s;
    char sql[128];
    long long n = -1;
    assert_int_equal(sqlite3_open_v2(db, &d, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    snprintf(sql, sizeof sql, "SELECT count(*) FROM %s", table);
    if (sqlite3_prepare_v2(d, sql, -1, &s, NULL) == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW)
        n = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    sqlite3_close(d);
    return n;
}

/* Each row: where, the field, the value put there, what the message names.
 * Every value is one kvtutor never writes; the import must refuse the
 * whole file with one line naming the record and the field. */
static void test_import_checks_every_field(void **state)
{
    (void)state;
    static const char *const rows[][4] = {
        {"attempts", "created_at", "9223372036854775807", "created_at"},
        {"attempts", "created_at", "-9223372036854775808", "created_at"},
        {"attempts", "created_at", "32503680000", "created_at"}, /* 3000-01-01 */
        {"attempts", "created_at", "946684799", "created_at"},   /* 1999-12-31T23:59:59 */
        {"attempts", "seconds", "1e308", "seconds"},
        {"attempts", "seconds", "-1", "seconds"},
        {"attempts", "seconds", "86401", "seconds"},
        {"attempts", "score", "1.5", "score"},
        {"attempts", "learner", "\"\"", "learner"},
        {"attempts", "learner", "\"a\\u001b]0;owned\\u0007\"", "learner"},
        {"attempts", "learner", "\"x\\u0085y\"", "learner"}, /* C1 NEL */
        {"attempts", "learner", "\"\\u202eevil\"", "learner"},
        {"attempts", "module", "\"\\u001b[2J\"", "module"},
        {"attempts", "diagnosis", "\"\\u001b]0;x\\u0007\"", "diagnosis"},
        {"attempts", "answer", "\"1\\n2\"", "answer"},
        {"attempts", "exercise", "\"\"", "exercise"},
        {"attempts", "unit", "[]", "unit"},
        {"attempts", "hinted", "\"yes\"", "hinted"},
        {"attempts", "rating", "5", "rating"},
        {"attempts", "seed", "1.5", "seed"},
        {"attempts", "verdict", "\"maybe\"", "verdict"},
        {"attempts", "uid", "\"0000000000000000000000000000000G\"", "uid"},
        {"reviews", "reps", "4294967296", "reps"},
        {"reviews", "reps", "-1", "reps"},
        {"reviews", "lapses", "2", "lapses"}, /* more than reps */
        {"reviews", "last_review", "9223372036854775807", "last_review"},
        {"reviews", "last_review", "32503680000", "last_review"},
        {"reviews", "stability", "0", "stability"},
        {"reviews", "stability", "1e9", "stability"},
        {"reviews", "difficulty", "0.5", "difficulty"},
        {"reviews", "difficulty", "11", "difficulty"},
        {"reviews", "due_day", "9223372036854775807", "due_day"},
        /* the ISO forms export writes now: a day that does not exist, a
         * time with no zone, the year 3000, a due date before the review */
        {"attempts", "created_at", "\"2025-02-30T10:44:05Z\"", "created_at"},
        {"attempts", "created_at", "\"2025-12-01T10:44:05\"", "created_at"},
        {"attempts", "created_at", "\"3000-01-01T00:00:00Z\"", "created_at"},
        {"reviews", "last_review", "\"yesterday\"", "last_review"},
        {"reviews", "due_date", "\"2025-02-30\"", "due_date"},
        {"reviews", "due_date", "\"2001-01-01\"", "due_date"},
        {"reviews", "due_date", "20430", "due_date"},
        {"reviews", "learner", "\"\\u001b[31mred\"", "learner"},
        {"reviews", "content_hash", "\"\\u0007\"", "content_hash"},
    };
    char file[160], db[160];
    long now = (long)time(NULL);

    snprintf(file, sizeof file, "%s/bad.json", dir);
    snprintf(db, sizeof db, "%s/fields.db", dir);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        json_t *j = valid_export(now), *v;
        json_error_t e;
        struct run_result r;
        assert_non_null(v = json_loads(rows[i][2], JSON_DECODE_ANY | JSON_ALLOW_NUL, &e));
        json_object_set_new(json_array_get(json_object_get(j, rows[i][0]), 0), rows[i][1], v);
        r = import(db, file, j);
        if (r.status != 1 || run_count_lines(r.err) != 1 || !strstr(r.err, rows[i][3]) ||
            !strstr(r.err, "nothing imported") || !strstr(r.err, rows[i][0]) ||
            has_controls(r.err, r.err_len))
            fail_msg("%s.%s = %s: exit %d: %s", rows[i][0], rows[i][1], rows[i][2], r.status,
                     r.err);
        run_free(&r);
    }
    /* every record is checked before the database is opened: not even
     * an empty one was made */
    assert_int_equal(access(db, F_OK), -1);
    /* and the valid file goes in */
    {
        json_t *j = valid_export(now);
        struct run_result r;
        r = import(db, file, j);
        if (r.status != 0)
            fail_msg("the valid export: %s", r.err);
        run_free(&r);
        assert_int_equal(count_rows(db, "attempt"), 1);
    }
}

/* A 100 KB learner name is refused, and not echoed whole. */
static void test_long_names_are_cut_in_messages(void **state)
{
    (void)state;
    static char name[100001];
    char file[160], db[160];
    struct run_result r;
    json_t *j = valid_export((long)time(NULL));

    memset(name, 'n', sizeof name - 1);
    snprintf(file, sizeof file, "%s/long.json", dir);
    snprintf(db, sizeof db, "%s/long.db", dir);
    json_object_set_new(json_array_get(json_object_get(j, "attempts"), 0), "learner",
                        json_string(name));
    r = import(db, file, j);
    assert_int_equal(r.status, 1);
    if (r.err_len > 400 || !strstr(r.err, "learner"))
        fail_msg("%zu bytes: %.300s", r.err_len, r.err);
    run_free(&r);
    r = kvt(NULL, "config", "set", "learner", name, "--db", db, NULL);
    assert_int_equal(r.status, 2);
    if (r.err_len > 400 || !strstr(r.err, "1 to 64"))
        fail_msg("config set learner: %zu bytes: %.300s", r.err_len, r.err);
    run_free(&r);
    r = kvt(NULL, "stats", "--learner", "a\x1b]0;t\x07", "--db", db, NULL);
    assert_int_equal(r.status, 2);
    assert_false(has_controls(r.err, r.err_len));
    run_free(&r);
}

/* Text with escapes that got into a database some other way (an older
 * kvtutor, a hand edit) is shown inert by stats. */
static void test_stats_never_prints_escapes(void **state)
{
    (void)state;
    char file[160], db[160], sql[512];
    struct run_result r;
    sqlite3 *d;
    json_t *j = valid_export((long)time(NULL));

    snprintf(file, sizeof file, "%s/ok.json", dir);
    snprintf(db, sizeof db, "%s/esc.db", dir);
    r = import(db, file, j);
    assert_int_equal(r.status, 0);
    run_free(&r);
    assert_int_equal(sqlite3_open(db, &d), SQLITE_OK);
    snprintf(sql, sizeof sql,
             "UPDATE attempt SET module = 'm' || char(27) || ']0;title' || char(7), "
             "lesson_id = 'l' || char(27) || '[2J', diagnosis = 'd' || char(155) || 'x' || "
             "char(27) || '[5m'");
    assert_int_equal(sqlite3_exec(d, sql, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(d);
    r = kvt(NULL, "stats", "--db", db, "--learner", "ann", NULL);
    assert_int_equal(r.status, 0);
    if (has_controls(r.out, r.out_len) || !strstr(r.out, "m\\x1b]0;title\\x07") ||
        !strstr(r.out, "l\\x1b[2J") || !strstr(r.out, "d\\x9bx\\x1b[5m"))
        fail_msg("stats printed: %s", r.out);
    run_free(&r);
}

static void test_import_refuses_big_files_and_non_files(void **state)
{
    (void)state;
    char big[160], fifo[160], db[160];
    struct run_result r;
    double t0, cpu;
    int fd;

    snprintf(big, sizeof big, "%s/big.json", dir);
    snprintf(fifo, sizeof fifo, "%s/fifo.json", dir);
    snprintf(db, sizeof db, "%s/big.db", dir);
    /* 64 MiB and one byte, sparse: refused before a byte is read */
    assert_true((fd = open(big, O_WRONLY | O_CREAT | O_TRUNC, 0600)) >= 0);
    assert_int_equal(ftruncate(fd, ((off_t)64 << 20) + 1), 0);
    close(fd);
    t0 = now_ms();
    cpu = run_children_cpu_ms();
    r = kvt(NULL, "import", big, "--db", db, NULL);
    cpu = run_children_cpu_ms() - cpu;
    /* the message says it was refused by its size; CPU time bounds a
     * read of it, and the wall clock a hang, however busy the machine */
    if (r.status != 1 || run_count_lines(r.err) != 1 || !strstr(r.err, "at most 64 MiB") ||
        cpu > 2000 || now_ms() - t0 > 20000)
        fail_msg("exit %d after %.0f ms (%.0f ms of CPU): %s", r.status, now_ms() - t0, cpu, r.err);
    run_free(&r);
    /* a FIFO nobody writes to: refused, not waited on */
    assert_int_equal(mkfifo(fifo, 0600), 0);
    r = kvt(NULL, "import", fifo, "--db", db, NULL);
    if (r.status != 1 || !strstr(r.err, "not a regular file"))
        fail_msg("FIFO: exit %d: %s", r.status, r.err);
    run_free(&r);
    r = kvt(NULL, "import", "/dev/zero", "--db", db, NULL);
    if (r.status != 1 || !strstr(r.err, "not a regular file"))
        fail_msg("/dev/zero: exit %d: %s", r.status, r.err);
    run_free(&r);
}

/* Overwrites the first page of a table's b-tree with garbage. */
static void damage_table(const char *db, const char *table)
{
    sqlite3 *d;
    sqlite3_stmt *s;
    long long root = 0, page_size = 0;
    char garbage[65536];
    int fd;

    assert_int_equal(sqlite3_open_v2(db, &d, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    assert_int_equal(
        sqlite3_prepare_v2(d, "SELECT rootpage FROM sqlite_schema WHERE name = ?", -1, &s, NULL),
        SQLITE_OK);
    sqlite3_bind_text(s, 1, table, -1, SQLITE_STATIC);
    assert_int_equal(sqlite3_step(s), SQLITE_ROW);
    root = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    assert_int_equal(sqlite3_prepare_v2(d, "PRAGMA page_size", -1, &s, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(s), SQLITE_ROW);
    page_size = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    sqlite3_close(d);
    assert_true(root > 1 && page_size > 0 && page_size <= (long long)sizeof garbage);
    for (size_t i = 0; i < sizeof garbage; i++)
        garbage[i] = (char)(0xA5 ^ (i * 31));
    assert_true((fd = open(db, O_WRONLY)) >= 0);
    assert_int_equal(pwrite(fd, garbage, (size_t)page_size, (off_t)((root - 1) * page_size)),
                     page_size);
    close(fd);
}

static bool same_bytes(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    int ca, cb;
    bool same = fa && fb;
    while (same && (ca = fgetc(fa)) == (cb = fgetc(fb)) && ca != EOF)
        ;
    same = same && ca == cb;
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return same;
}

static void copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    char buf[8192];
    size_t n;
    assert_non_null(in);
    assert_non_null(out);
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        assert_int_equal(fwrite(buf, 1, n, out), n);
    fclose(in);
    assert_int_equal(fclose(out), 0);
}

/* Garbage over a page of one table: stats, export and import each fail
 * with the database named as damaged, and import writes nothing. */
static void test_damaged_pages_fail_clearly(void **state)
{
    (void)state;
    static const char *const tables[] = {"attempt", "review_state", "attempt_by_time"};
    char file[160], db[160], before[160];
    struct run_result r;

    snprintf(file, sizeof file, "%s/dmg.json", dir);
    snprintf(before, sizeof before, "%s/dmg-before.db", dir);
    for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++) {
        snprintf(db, sizeof db, "%s/dmg%zu.db", dir, t);
        r = import(db, file, valid_export((long)time(NULL)));
        assert_int_equal(r.status, 0);
        run_free(&r);
        damage_table(db, tables[t]);
        copy_file(db, before);
        static const char *const cmds[] = {"stats", "export", "import"};
        for (size_t c = 0; c < 3; c++) {
            r = c == 2 ? kvt(NULL, "import", file, "--db", db, NULL)
                       : kvt(NULL, cmds[c], "--db", db, NULL);
            if (r.status != 1 || run_count_lines(r.err) != 1 || !strstr(r.err, "is damaged"))
                fail_msg("%s after damage to %s: exit %d: %s%s", cmds[c], tables[t], r.status,
                         r.out, r.err);
            run_free(&r);
        }
        if (!same_bytes(db, before))
            fail_msg("import wrote into a damaged file (%s)", tables[t]);
    }
}

/* A database holding one attempt, whose text fields are then set by SQL
 * (bypassing import's checks, as an older kvtutor or a hand edit could). */
static void make_db(const char *db, const char *sql)
{
    char file[160];
    struct run_result r;
    sqlite3 *d;
    json_t *j = valid_export((long)time(NULL));

    snprintf(file, sizeof file, "%s/seed.json", dir);
    r = import(db, file, j);
    assert_int_equal(r.status, 0);
    run_free(&r);
    if (sql) {
        assert_int_equal(sqlite3_open(db, &d), SQLITE_OK);
        assert_int_equal(sqlite3_exec(d, sql, NULL, NULL, NULL), SQLITE_OK);
        sqlite3_close(d);
    }
}

/* A whole file's bytes, NUL-terminated. */
static char *file_text(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = calloc(1, 1 << 20);
    assert_non_null(f);
    assert_non_null(buf);
    *len = fread(buf, 1, (1 << 20) - 1, f);
    fclose(f);
    return buf;
}

/* The edges of export and import a learner meets: exported_at is ISO 8601
 * in UTC as the README says (it was Unix seconds); a read-only file at --out
 * is kept unless --force (it was replaced and made 0600); an export saved
 * with a byte order mark imports (it was "not a JSON object"); "-" reads
 * standard input as explain-log's does (it was "no such file"); an export
 * of a newer format version is refused by its number (version 99 was
 * imported as if it were ours). */
static void test_export_import_edges(void **state)
{
    (void)state;
    char db[160], db2[160], file[160], bom[160];
    struct run_result r;
    struct stat sb;
    json_t *j, *v;
    char *text, *with_bom;
    size_t len;
    int y, mo, d, h, mi, sec;
    char z;

    snprintf(db, sizeof db, "%s/edges.db", dir);
    snprintf(db2, sizeof db2, "%s/edges2.db", dir);
    snprintf(file, sizeof file, "%s/edges.json", dir);
    snprintf(bom, sizeof bom, "%s/bom.json", dir);
    make_db(db, NULL);
    r = kvt(NULL, "export", "--db", db, "--out", file, NULL);
    assert_int_equal(r.status, 0);
    run_free(&r);
    j = json_load_file(file, 0, NULL);
    assert_non_null(j);
    v = json_object_get(j, "exported_at");
    assert_true(json_is_string(v));
    if (sscanf(json_string_value(v), "%4d-%2d-%2dT%2d:%2d:%2d%c", &y, &mo, &d, &h, &mi, &sec, &z) !=
            7 ||
        z != 'Z' || strlen(json_string_value(v)) != 20 || y < 2025)
        fail_msg("exported_at %s", json_string_value(v));
    json_decref(j);

    /* read-only: kept, bytes and mode, unless --force */
    text = file_text(file, &len);
    assert_int_equal(chmod(file, 0444), 0);
    r = kvt(NULL, "export", "--db", db, "--out", file, NULL);
    if (r.status != 1 || !strstr(r.err, "is read-only; --force replaces it") ||
        run_count_lines(r.err) != 1)
        fail_msg("exit %d: %s", r.status, r.err);
    run_free(&r);
    assert_int_equal(stat(file, &sb), 0);
    assert_int_equal(sb.st_mode & 0777, 0444);
    {
        size_t n2;
        char *again = file_text(file, &n2);
        assert_int_equal(n2, len);
        assert_memory_equal(again, text, len);
        free(again);
    }
    r = kvt(NULL, "export", "--db", db, "--out", file, "--force", NULL);
    assert_int_equal(r.status, 0);
    run_free(&r);

    /* a byte order mark before the export */
    with_bom = malloc(len + 4);
    assert_non_null(with_bom);
    memcpy(with_bom, "\xef\xbb\xbf", 3);
    memcpy(with_bom + 3, text, len + 1);
    {
        FILE *f = fopen(bom, "wb");
        assert_non_null(f);
        fwrite(with_bom, 1, len + 3, f);
        fclose(f);
    }
    r = kvt(NULL, "import", bom, "--db", db2, NULL);
    if (r.status != 0 || !strstr(r.out, "Imported 1 attempt (0 already here)"))
        fail_msg("exit %d: %s%s", r.status, r.out, r.err);
    run_free(&r);

    /* standard input, the same export again: all already here */
    r = kvt(text, "import", "-", "--db", db2, NULL);
    if (r.status != 0 || !strstr(r.out, "Imported 0 attempts (1 already here)"))
        fail_msg("exit %d: %s%s", r.status, r.out, r.err);
    run_free(&r);

    /* a newer format version, refused by its number, nothing written */
    j = valid_export((long)time(NULL));
    json_object_set_new(j, "version", json_integer(99));
    {
        char *newer = json_dumps(j, 0);
        json_decref(j);
        r = kvt(newer, "import", "-", "--db", db2, NULL);
        free(newer);
    }
    if (r.status != 1 ||
        !strstr(r.err, "standard input: an export of format version 99, newer than this "
                       "kvtutor reads (1 to 2): upgrade kvtutor") ||
        run_count_lines(r.err) != 1)
        fail_msg("exit %d: %s", r.status, r.err);
    run_free(&r);
    assert_int_equal(count_rows(db2, "attempt"), 1);
    free(text);
    free(with_bom);
}

/* Text a spreadsheet would run: every leading = + - @ tab and CR is made
 * inert (quoted, with an apostrophe), in every text column; numbers, even
 * negative ones, stay numbers. */
static void test_csv_guards_every_formula_start(void **state)
{
    (void)state;
    char db[160];
    struct run_result r;

    snprintf(db, sizeof db, "%s/csv.db", dir);
    make_db(db, "UPDATE attempt SET answer = '-2+3+cmd|'' /C calc''!A0', module = '=1+1', "
                "concept = '+SUM(A1)', diagnosis = '@cmd', parsed_unit = char(9) || '=x', "
                "lesson_id = char(13) || '=y', parsed_value = -3, param_seed = -7");
    r = kvt(NULL, "export", "--format", "csv", "--db", db, NULL);
    assert_int_equal(r.status, 0);
    static const char *const want[] = {
        ",\"'-2+3+cmd|' /C calc'!A0\",",
        ",\"'=1+1\",",
        ",\"'+SUM(A1)\",",
        ",\"'@cmd\",",
        ",\"'\t=x\",",
        ",\"'\r=y\",",
        ",-3,",
        ",-7,",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (!strstr(r.out, want[i]))
            fail_msg("no %s in %s", want[i], r.out);
    run_free(&r);
}

/* CSV and JSON times as ISO 8601 in UTC, reals as their shortest text; what
 * the JSON carries imports back unchanged, and so does an export of the
 * older form, with seconds and day numbers. */
static void test_csv_dates_and_round_trip(void **state)
{
    (void)state;
    char db[160], db2[160], file[160];
    struct run_result r, r2;

    snprintf(db, sizeof db, "%s/dates.db", dir);
    snprintf(db2, sizeof db2, "%s/dates2.db", dir);
    snprintf(file, sizeof file, "%s/dates.json", dir);
    /* 1,764,585,845 s = 20,423 days x 86,400 + 38,645 s: 2025-12-01 at 10:44:05;
     * day 20,430 = 20,423 + 7: 2025-12-08 */
    make_db(db, "UPDATE attempt SET created_at = 1764585845, score = 0.8; "
                "UPDATE review_state SET due_day = 20430, last_review = 1764585845");
    r = kvt(NULL, "export", "--format", "csv", "--db", db, NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, ",created_at,stability,difficulty,due_date\n"));
    if (!strstr(r.out, ",0.8,") ||
        !strstr(r.out, ",2025-12-01T10:44:05Z,0.212,6.4133,2025-12-08\n"))
        fail_msg("no ISO dates or short reals in %s", r.out);
    /* the JSON export, read back whole */
    r2 = kvt(NULL, "export", "--db", db, "--out", file, NULL);
    assert_int_equal(r2.status, 0);
    run_free(&r2);
    r2 = kvt(NULL, "import", file, "--db", db2, NULL);
    assert_int_equal(r2.status, 0);
    run_free(&r2);
    r2 = kvt(NULL, "export", "--format", "csv", "--db", db2, NULL);
    assert_int_equal(r2.status, 0);
    assert_string_equal(r2.out, r.out);
    run_free(&r2);
    run_free(&r);
    {
        json_error_t e;
        json_t *j = json_load_file(file, 0, &e);
        json_t *a = json_array_get(json_object_get(j, "attempts"), 0);
        json_t *v = json_array_get(json_object_get(j, "reviews"), 0);
        assert_non_null(j);
        assert_int_equal(json_integer_value(json_object_get(j, "version")), 2);
        assert_string_equal(json_string_value(json_object_get(a, "created_at")),
                            "2025-12-01T10:44:05Z");
        assert_string_equal(json_string_value(json_object_get(v, "last_review")),
                            "2025-12-01T10:44:05Z");
        assert_string_equal(json_string_value(json_object_get(v, "due_date")), "2025-12-08");
        assert_null(json_object_get(v, "due_day"));
        /* the same export as version 1 wrote it: seconds and a day number */
        json_object_set_new(j, "version", json_integer(1));
        json_object_set_new(a, "created_at", json_integer(1764585845));
        json_object_set_new(v, "last_review", json_integer(1764585845));
        json_object_del(v, "due_date");
        json_object_set_new(v, "due_day", json_integer(20430));
        assert_int_equal(json_dump_file(j, file, 0), 0);
        json_decref(j);
    }
    snprintf(db2, sizeof db2, "%s/dates3.db", dir);
    r2 = kvt(NULL, "import", file, "--db", db2, NULL);
    assert_int_equal(r2.status, 0);
    run_free(&r2);
    r2 = kvt(NULL, "export", "--format", "csv", "--db", db2, NULL);
    assert_int_equal(r2.status, 0);
    if (!strstr(r2.out, ",2025-12-01T10:44:05Z,0.212,6.4133,2025-12-08\n"))
        fail_msg("the version 1 file read back as %s", r2.out);
    run_free(&r2);
}

static bool is_link(const char *p)
{
    struct stat st;
    return lstat(p, &st) == 0 && S_ISLNK(st.st_mode);
}

static int count_entries(const char *d)
{
    char cmd[256];
    FILE *p;
    int n = -1;
    snprintf(cmd, sizeof cmd, "ls -A '%s' | wc -l", d);
    if ((p = popen(cmd, "r"))) {
        if (fscanf(p, "%d", &n) != 1)
            n = -1;
        pclose(p);
    }
    return n;
}

/* export --out never writes through a link someone left, never turns a
 * FIFO or a device into a file, and leaves no temporary file behind. */
static void test_export_out_never_writes_through_links(void **state)
{
    (void)state;
    char db[160], out[128], victim[160], link[160], tmp_link[200], fifo[160], file[160];
    struct run_result r;
    struct stat st;
    int before;

    snprintf(db, sizeof db, "%s/out.db", dir);
    make_db(db, NULL);
    snprintf(out, sizeof out, "%s/o", dir);
    assert_int_equal(mkdir(out, 0700), 0);
    snprintf(victim, sizeof victim, "%s/victim", out);
    snprintf(link, sizeof link, "%s/link.json", out);
    snprintf(fifo, sizeof fifo, "%s/fifo.json", out);
    snprintf(file, sizeof file, "%s/export.json", out);
    {
        FILE *v = fopen(victim, "w");
        assert_non_null(v);
        fputs("precious\n", v);
        fclose(v);
    }
    /* the old attack: a link at FILE.tmp, where export used to write */
    snprintf(tmp_link, sizeof tmp_link, "%s.tmp", file);
    assert_int_equal(symlink(victim, tmp_link), 0);
    assert_int_equal(symlink(victim, link), 0);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    before = count_entries(out);

    r = kvt(NULL, "export", "--db", db, "--out", file, NULL);
    assert_int_equal(r.status, 0);
    run_free(&r);
    assert_int_equal(lstat(file, &st), 0);
    assert_true(S_ISREG(st.st_mode));
    assert_int_equal(st.st_mode & 0777, 0600);
    /* again, over the regular file it wrote: replaced whole */
    r = kvt(NULL, "export", "--db", db, "--out", file, "--format", "csv", NULL);
    assert_int_equal(r.status, 0);
    run_free(&r);

    static const struct {
        const char *path, *says;
    } refused[] = {
        {NULL, "is a symbolic link"},
        {NULL, "is a FIFO"},
        {"/dev/null", "is a device"},
        {NULL, "is a folder"},
    };
    const char *paths[] = {link, fifo, "/dev/null", out};
    for (size_t i = 0; i < 4; i++) {
        r = kvt(NULL, "export", "--db", db, "--out", paths[i], NULL);
        if (r.status != 1 || run_count_lines(r.err) != 1 || !strstr(r.err, refused[i].says))
            fail_msg("--out %s: exit %d: %s", paths[i], r.status, r.err);
        run_free(&r);
    }
    assert_true(is_link(link) && is_link(tmp_link));
    assert_int_equal(lstat(fifo, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    {
        char buf[32] = "";
        FILE *v = fopen(victim, "r");
        assert_non_null(v);
        assert_non_null(fgets(buf, sizeof buf, v));
        fclose(v);
        assert_string_equal(buf, "precious\n");
    }
    /* only export.json was added: no temporary file is left */
    assert_int_equal(count_entries(out), before + 1);
}

/* A schema version kvtutor never writes (set by another program or a hand
 * edit) is named as such, not reported as the migration's own failure
 * ("table learner already exists"), and nothing is changed. */
static void test_foreign_schema_versions_are_named(void **state)
{
    (void)state;
    static const struct {
        const char *sql, *says;
    } rows[] = {
        {"PRAGMA user_version = -1", "schema version is -1"},
        {"PRAGMA user_version = -2147483648", "schema version is -2147483648"},
        {"PRAGMA user_version = 0", "schema version is 0"},
    };
    char db[160], before[160];
    struct run_result r;

    snprintf(db, sizeof db, "%s/schema.db", dir);
    snprintf(before, sizeof before, "%s/schema-before.db", dir);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        sqlite3 *d;
        unlink(db);
        make_db(db, rows[i].sql);
        assert_int_equal(sqlite3_open(db, &d), SQLITE_OK);
        sqlite3_close(d);
        copy_file(db, before);
        r = kvt(NULL, "stats", "--db", db, NULL);
        if (r.status != 1 || run_count_lines(r.err) != 1 || !strstr(r.err, rows[i].says) ||
            strstr(r.err, "already exists"))
            fail_msg("%s: exit %d: %s", rows[i].sql, r.status, r.err);
        run_free(&r);
        assert_true(same_bytes(db, before));
    }
    /* an empty file stamped with a version is not taken for a kvtutor file */
    {
        sqlite3 *d;
        unlink(db);
        assert_int_equal(sqlite3_open(db, &d), SQLITE_OK);
        assert_int_equal(sqlite3_exec(d, "PRAGMA user_version = 3", NULL, NULL, NULL), SQLITE_OK);
        sqlite3_close(d);
        r = kvt(NULL, "stats", "--db", db, NULL);
        if (r.status != 1 || !strstr(r.err, "stamped with schema version 3"))
            fail_msg("empty, version 3: exit %d: %s", r.status, r.err);
        run_free(&r);
    }
}

/* A 16 MiB export (about 41,000 attempts) imports in a bounded amount of
 * memory: the file's bytes and one record at a time. Holding it as one
 * jansson tree took about eight times the file (a 63 MiB export, 567 MB). */
static void test_big_import_memory(void **state)
{
    (void)state;
    char file[160], db[160];
    long now = (long)time(NULL);
    struct run_result r;
    struct rusage ru;
    FILE *f;
    size_t n = 0;

    snprintf(file, sizeof file, "%s/big-ok.json", dir);
    snprintf(db, sizeof db, "%s/big-ok.db", dir);
    assert_non_null(f = fopen(file, "w"));
    fputs("{\"format\": \"kvtutor-export\", \"version\": 1, \"attempts\": [\n", f);
    while (ftell(f) < (16L << 20)) {
        fprintf(f,
                "%s{\"uid\": \"%032zx\", \"learner\": \"ann\", \"module\": \"part0\", "
                "\"lesson\": \"kv-cache\", \"exercise\": \"per-token-%zu\", \"concept\": "
                "\"kv-size\", \"answer\": \"56 KiB, and a few words more\", \"value\": 56, "
                "\"unit\": \"KiB\", \"verdict\": \"wrong\", \"score\": 0, \"diagnosis\": "
                "\"forgot K and V\", \"seed\": %zu, \"hinted\": false, \"rating\": 1, "
                "\"seconds\": 30, \"created_at\": %ld}",
                n ? ",\n" : "", n + 1, n % 50, n, now - 86400 + (long)(n % 80000));
        n++;
    }
    fputs("], \"reviews\": []}\n", f);
    assert_int_equal(fclose(f), 0);
    {
        /* under AddressSanitizer freed blocks wait in a 256 MiB quarantine,
         * which would be counted: kept small so the bound still means
         * something there (47 MB measured) */
        char *argv[] = {(char *)run_kvtutor_path(), "import", file, "--db", db, NULL};
        char *env[] = {"ASAN_OPTIONS=quarantine_size_mb=4", NULL};
        assert_int_equal(run_cmd(argv, env, &r), 0);
    }
    if (r.status != 0)
        fail_msg("exit %d: %s", r.status, r.err);
    run_free(&r);
    assert_int_equal(count_rows(db, "attempt"), (long long)n);
    assert_int_equal(getrusage(RUSAGE_CHILDREN, &ru), 0);
    /* the largest child so far; the file is 16 MiB, a tree would be ~130 MB */
    if (ru.ru_maxrss > 100 * 1024)
        fail_msg("peak RSS %ld KiB for a 16 MiB import", ru.ru_maxrss);
}

/* An export printed to a terminal (through script(1)'s pseudo-terminal)
 * shows stored escapes inert, in CSV and in JSON; written to a pipe or a
 * file it keeps the bytes as stored (JSON escapes controls itself). */
static void test_export_to_a_terminal_is_inert(void **state)
{
    (void)state;
    char db[160], cmd[512];
    static const char *const formats[] = {"csv", "json"};
    struct run_result r;

    if (access("/usr/bin/script", X_OK) != 0)
        skip();
    snprintf(db, sizeof db, "%s/tty.db", dir);
    make_db(db, "UPDATE attempt SET answer = 'a' || char(27) || ']0;owned' || char(7) || "
                "char(155) || 'b' || char(8238)");
    for (size_t i = 0; i < 2; i++) {
        char *argv[] = {"/usr/bin/script", "-qec", cmd, "/dev/null", NULL};
        snprintf(cmd, sizeof cmd, "%s export --format %s --db %s", run_kvtutor_path(), formats[i],
                 db);
        assert_int_equal(run_cmd(argv, NULL, &r), 0);
        if (r.status != 0 || memchr(r.out, 0x1b, r.out_len) || memchr(r.out, 0x07, r.out_len) ||
            strstr(r.out, "\xc2\x9b") || strstr(r.out, "\xe2\x80\xae") ||
            !strstr(r.out, "]0;owned"))
            fail_msg("%s on a terminal: exit %d: %s", formats[i], r.status, r.out);
        run_free(&r);
    }
    /* to a pipe, CSV keeps the stored bytes */
    r = kvt(NULL, "export", "--format", "csv", "--db", db, NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(memchr(r.out, 0x1b, r.out_len));
    run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_import_checks_every_field),
        cmocka_unit_test(test_long_names_are_cut_in_messages),
        cmocka_unit_test(test_stats_never_prints_escapes),
        cmocka_unit_test(test_import_refuses_big_files_and_non_files),
        cmocka_unit_test(test_damaged_pages_fail_clearly),
        cmocka_unit_test(test_csv_guards_every_formula_start),
        cmocka_unit_test(test_csv_dates_and_round_trip),
        cmocka_unit_test(test_export_out_never_writes_through_links),
        cmocka_unit_test(test_foreign_schema_versions_are_named),
        cmocka_unit_test(test_big_import_memory),
        cmocka_unit_test(test_export_to_a_terminal_is_inert),
        cmocka_unit_test(test_export_import_edges),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
