/* The progress store: migrations, refusals, recording with its schedule,
 * lesson changes, statistics, and the two promises that matter most:
 * nothing acknowledged is lost when the process is killed, and two
 * kvtutors writing at once both succeed. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "store.h"
#include "store_migrations.h"
#include "store_report.h"
#include "store_sql.h"
#include "tmp_dir.h"
#include "tsv.h"
#include "valgrind_env.h"

#define DAY 86400
/* 2026-11-29 00:00 UTC, a fixed "now" so day arithmetic is exact */
#define T0 ((int64_t)1795910400)

static char dir[64];

static int setup(void **state)
{
    (void)state;
    return tmp_dir_make(dir, sizeof dir, "kvt_store_");
}

static int teardown(void **state)
{
    (void)state;
    return tmp_dir_remove(dir);
}

static const char *path_of(const char *name)
{
    static char buf[4][256];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
    return buf[k];
}

static struct store *open_ok(const char *path)
{
    struct store *st;
    struct store_error err;
    if (store_open(path, false, &st, &err) != KVT_E_OK)
        fail_msg("open %s: %s (%s)", path, kvt_strerror(err.code), err.detail);
    return st;
}

static void sql(const char *path, const char *stmt)
{
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    if (sqlite3_exec(db, stmt, NULL, NULL, NULL) != SQLITE_OK)
        fail_msg("%s: %s", stmt, sqlite3_errmsg(db));
    sqlite3_close(db);
}

static int sql_int(const char *path, const char *query)
{
    sqlite3 *db;
    sqlite3_stmt *s;
    int v = -1;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    if (sqlite3_prepare_v2(db, query, -1, &s, NULL) != SQLITE_OK)
        fail_msg("%s on %s: %s", query, path, sqlite3_errmsg(db));
    if (sqlite3_step(s) == SQLITE_ROW)
        v = sqlite3_column_int(s, 0);
    sqlite3_finalize(s);
    sqlite3_close(db);
    return v;
}

static struct store_attempt attempt(int64_t learner, const char *lesson, const char *exercise,
                                    int rating, int64_t when)
{
    struct store_attempt a = {
        .learner_id = learner,
        .module = "part0",
        .lesson_id = lesson,
        .exercise_id = exercise,
        .concept = "kv-cache",
        .answer = "56 KiB",
        .has_value = true,
        .value = 56,
        .unit = "KiB",
        .verdict = rating == 1 ? "wrong" : "correct",
        .score = rating == 1 ? 0 : 1,
        .rating = rating,
        .seconds = 12.5,
        .created_at = when,
    };
    assert_int_equal(store_new_uid(a.uid), KVT_E_OK);
    return a;
}

static void test_fresh_database(void **state)
{
    (void)state;
    const char *p = path_of("fresh.db");
    struct store *st = open_ok(p);

    assert_int_equal(store_schema_version(st), store_latest_version());
    assert_false(store_readonly(st));
    store_close(st);
    assert_int_equal(sql_int(p, "PRAGMA user_version"), store_latest_version());
    assert_int_equal(sql_int(p, "PRAGMA application_id"), 0x6b767475);
    /* WAL, so a reader never blocks the writer */
    assert_int_equal(sql_int(p, "SELECT journal_mode = 'wal' FROM pragma_journal_mode"), 1);
    /* an empty file (as `touch` leaves it) is a database with no schema yet */
    close(open(path_of("empty.db"), O_CREAT | O_WRONLY, 0600));
    st = open_ok(path_of("empty.db"));
    assert_int_equal(store_schema_version(st), store_latest_version());
    store_close(st);
}

/* Every statement's bind signature names each of its SQL's parameters once,
 * with a type the binder knows: the binder reads arguments by it. */
static void test_bind_signatures_match_the_sql(void **state)
{
    (void)state;
    const char *p = path_of("signatures.db");
    sqlite3 *db;

    store_close(open_ok(p)); /* the newest schema, for every table the SQL names */
    assert_int_equal(sqlite3_open(p, &db), SQLITE_OK);
    for (int i = 0; i < STMT__COUNT; i++) {
        const struct store_statement *t = &store_statements[i];
        sqlite3_stmt *s;
        if (sqlite3_prepare_v2(db, t->sql, -1, &s, NULL) != SQLITE_OK)
            fail_msg("%s: %s", t->name, sqlite3_errmsg(db));
        if ((size_t)sqlite3_bind_parameter_count(s) != strlen(t->sig))
            fail_msg("%s: %d parameters, signature \"%s\"", t->name,
                     sqlite3_bind_parameter_count(s), t->sig);
        if (strspn(t->sig, "TIDid") != strlen(t->sig))
            fail_msg("%s: signature \"%s\" has a type the binder does not know", t->name, t->sig);
        sqlite3_finalize(s);
    }
    sqlite3_close(db);
}

static void test_upgrade_from_every_earlier_version(void **state)
{
    (void)state;
    /* A database left at each earlier schema, with a learner's answer in it
     * whenever the schema has the tables, opens and lands on the latest. */
    for (int v = 0; v < store_latest_version(); v++) {
        char name[32], stamp[64];
        const char *p;
        struct store *st;
        snprintf(name, sizeof name, "v%d.db", v);
        p = path_of(name);
        for (int i = 0; i < v; i++)
            sql(p, store_migrations[i].sql);
        snprintf(stamp, sizeof stamp, "PRAGMA user_version = %d", v);
        sql(p, stamp);
        if (v > 0) {
            snprintf(stamp, sizeof stamp, "PRAGMA application_id = %d", 0x6b767475);
            sql(p, stamp);
        }
        st = open_ok(p);
        assert_int_equal(store_schema_version(st), store_latest_version());
        store_close(st);
    }
}

/* Schema 5: a schema-4 database's probe runs come through the rebuilt
 * table whole, the ones a learner stopped (kept then as 'timed-out' with
 * the message 'stopped') now 'stopped', a run that really ran out of time
 * still 'timed-out'; and the new word is accepted. */
static void test_upgrade_moves_stopped_probe_runs(void **state)
{
    (void)state;
    const char *p = path_of("probe-v4.db");
    struct store *st;

    for (int i = 0; i < 4; i++)
        sql(p, store_migrations[i].sql);
    sql(p, "PRAGMA user_version = 4; PRAGMA application_id = 1802925173;"
           "INSERT INTO learner (id, name, created_at) VALUES (1, 'ann', 1000);"
           "INSERT INTO probe_run (learner_id, probe, device, figures, created_at, seconds, "
           "outcome, message, read_gbps) VALUES "
           "(1, 'cpu', 'host', '[]', 2000, 1.5, 'timed-out', 'stopped', NULL),"
           "(1, 'cpu', 'host', '[]', 3000, 600, 'timed-out', 'still running after 600 s; "
           "stopped', NULL),"
           "(1, 'cuda', 'H100', '[]', 4000, 9, 'ok', '', 3012.5)");
    st = open_ok(p);
    assert_int_equal(store_schema_version(st), store_latest_version());
    store_close(st);
    assert_int_equal(sql_int(p, "SELECT count(*) FROM probe_run"), 3);
    assert_int_equal(sql_int(p, "SELECT count(*) FROM probe_run WHERE outcome = 'stopped' AND "
                                "created_at = 2000"),
                     1);
    assert_int_equal(sql_int(p, "SELECT count(*) FROM probe_run WHERE outcome = 'timed-out' AND "
                                "created_at = 3000"),
                     1);
    assert_int_equal(sql_int(p, "SELECT CAST(read_gbps * 10 AS INTEGER) FROM probe_run WHERE "
                                "outcome = 'ok'"),
                     30125);
    sql(p, "INSERT INTO probe_run (learner_id, probe, device, figures, created_at, outcome) "
           "VALUES (1, 'cpu', 'host', '[]', 5000, 'stopped')");
    assert_int_equal(sql_int(p, "SELECT count(*) FROM sqlite_schema WHERE name = "
                                "'probe_run_by_learner'"),
                     1);
}

/* A database a real kvtutor of schema 1 wrote (tests/fixtures/progress-v1.db,
 * one of ann's answers and its schedule) upgrades with its data intact. */
static void test_upgrade_kept_fixture(void **state)
{
    (void)state;
    char cmd[512];
    const char *p = path_of("fixture-v1.db");
    struct store *st;
    struct store_error err;
    struct store_review r;
    int64_t ann;
    const char *fix = getenv("KVT_FIXTURES");

    snprintf(cmd, sizeof cmd, "cp %s/progress-v1.db %s", fix ? fix : "fixtures", p);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(sql_int(p, "PRAGMA user_version"), 1);
    st = open_ok(p);
    assert_int_equal(store_schema_version(st), store_latest_version());
    assert_int_equal(store_learner(st, "ann", T0, &ann, &err), KVT_E_OK);
    assert_int_equal(store_review_get(st, ann, "kv-cache", "per-token", &r, &err), KVT_E_OK);
    assert_int_equal(r.card.reps, 1);
    store_close(st);
    assert_int_equal(sql_int(p, "SELECT count(*) FROM attempt WHERE uid = "
                                "'0123456789abcdef0123456789abcdef'"),
                     1);
    assert_int_equal(sql_int(p, "SELECT count(*) FROM pragma_table_info('lesson_progress') "
                                "WHERE name = 'updated_at'"),
                     1);
}

/* SIGKILL while a schema-1 database with 200,000 lesson rows is being
 * upgraded (migration 2 rewrites every row, so the upgrade takes a while):
 * afterwards the file is either the old schema or the newest, never a mix,
 * passes its integrity check, and has every row it had. */
static void test_sigkill_during_migration(void **state)
{
    (void)state;
    const char *fix = getenv("KVT_FIXTURES");
    char base[256], p[256], cmd[1200];
    int old_kept = 0, upgraded = 0;
    unsigned seed = (unsigned)time(NULL);

    snprintf(base, sizeof base, "%s", path_of("mig-base.db"));
    snprintf(p, sizeof p, "%s", path_of("mig.db"));
    snprintf(cmd, sizeof cmd, "cp %s/progress-v1.db %s", fix ? fix : "fixtures", base);
    assert_int_equal(system(cmd), 0);
    sql(base, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200000) "
              "INSERT INTO lesson_progress (learner_id, lesson_id, started_at, position) "
              "SELECT 2, 'lesson-' || i, 1700000000 + i, 'section ' || (i % 7) FROM n");
    assert_int_equal(sql_int(base, "PRAGMA user_version"), 1);
    /* Under valgrind every round (the upgrade of 200,000 rows, then an
     * integrity check) runs some 30 times slower: fewer rounds, and the kill
     * window widened to match, so the kills still land before, during and
     * after the upgrade. */
    const int rounds = under_valgrind() ? 3 : 12;
    const long window_ms = under_valgrind() ? 4000 : 400;
    srand(seed);
    for (int round = 0; round < rounds; round++) {
        snprintf(cmd, sizeof cmd, "cp %s %s && rm -f %s-wal %s-shm", base, p, p, p);
        assert_int_equal(system(cmd), 0);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            struct store *st;
            struct store_error err;
            _exit(store_open(p, false, &st, &err) == KVT_E_OK ? 0 : 3);
        }
        /* 0 to 400 ms in: before, during or after the upgrade */
        long ms = rand() % window_ms;
        struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
        nanosleep(&ts, NULL);
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);

        int v = sql_int(p, "PRAGMA user_version");
        int has_new_column = sql_int(p, "SELECT count(*) FROM pragma_table_info('lesson_progress') "
                                        "WHERE name = 'updated_at'");
        int has_probe_columns = sql_int(p, "SELECT count(*) FROM pragma_table_info('probe_run') "
                                           "WHERE name = 'read_gbps'");
        if (v == 1) {
            old_kept++;
            if (has_new_column || has_probe_columns)
                fail_msg("round %d: schema 1 with a later migration's columns (seed %u)", round,
                         seed);
        } else if (v == store_latest_version()) {
            upgraded++;
            if (!has_new_column || !has_probe_columns)
                fail_msg("round %d: newest schema without its columns (seed %u)", round, seed);
        } else {
            fail_msg("round %d: schema %d, neither the old nor the newest (seed %u)", round, v,
                     seed);
        }
        assert_int_equal(sql_int(p, "SELECT count(*) FROM lesson_progress WHERE learner_id = 2"),
                         200000);
        /* the file is sound, and opening it now finishes the upgrade */
        struct store *st = open_ok(p);
        struct store_error err;
        assert_int_equal(store_check(st, STORE_CHECK_FULL, &err), KVT_E_OK);
        assert_int_equal(store_schema_version(st), store_latest_version());
        store_close(st);
    }
    print_message("  %d kills during an upgrade: %d left schema 1, %d finished it\n", rounds,
                  old_kept, upgraded);
}

/* The app saves an answer at once and its rating when confirmed. */
static void test_rate_later_and_resume(void **state)
{
    (void)state;
    struct store *st = open_ok(path_of("rate.db"));
    struct store_error err;
    struct store_review r;
    struct store_attempt a;
    char last[64], pos[64];
    bool found, done;
    int64_t ann;

    assert_int_equal(store_learner(st, "ann", T0, &ann, &err), KVT_E_OK);
    a = attempt(ann, "kv-cache", "per-token", 0, T0);
    assert_int_equal(store_record_attempt(st, &a, NULL, NULL, &err), KVT_E_OK);
    assert_int_equal(store_review_get(st, ann, "kv-cache", "per-token", &r, &err),
                     KVT_E_DB_NOT_FOUND);
    /* confirmed as Good: the first review of a card, due in 3 days (ts-fsrs) */
    assert_int_equal(store_rate_attempt(st, a.uid, 3, NULL, &r, &err), KVT_E_OK);
    assert_int_equal(r.interval, 3);
    assert_int_equal(r.due_day, T0 / DAY + 3);
    assert_int_equal(store_rate_attempt(st, a.uid, 4, NULL, &r, &err), KVT_E_CONFLICT);
    assert_int_equal(store_rate_attempt(st, "ffffffffffffffffffffffffffffffff", 3, NULL, &r, &err),
                     KVT_E_DB_NOT_FOUND);
    assert_int_equal(store_rate_attempt(st, a.uid, 7, NULL, &r, &err), KVT_E_RANGE);

    assert_int_equal(store_lesson_seen(st, ann, "kv-cache", "section:2", T0, &err), KVT_E_OK);
    assert_int_equal(store_lesson_seen(st, ann, "decode", "", T0 + 60, &err), KVT_E_OK);
    assert_int_equal(store_lesson_last(st, ann, last, sizeof last, &found, &err), KVT_E_OK);
    assert_true(found);
    assert_string_equal(last, "decode");
    assert_int_equal(store_lesson_seen(st, ann, "kv-cache", "section:4", T0 + 120, &err), KVT_E_OK);
    assert_int_equal(store_lesson_done(st, ann, "kv-cache", T0 + 130, &err), KVT_E_OK);
    assert_int_equal(store_lesson_last(st, ann, last, sizeof last, &found, &err), KVT_E_OK);
    assert_string_equal(last, "kv-cache");
    assert_int_equal(store_lesson_get(st, ann, "kv-cache", pos, sizeof pos, &done, &found, &err),
                     KVT_E_OK);
    assert_true(found && done);
    assert_string_equal(pos, "section:4");
    /* practised to the end from the map, its reader never opened: done all
     * the same, with no reading position; done again keeps the first time */
    assert_int_equal(store_lesson_done(st, ann, "prefill", T0 + 140, &err), KVT_E_OK);
    assert_int_equal(store_lesson_done(st, ann, "prefill", T0 + 150, &err), KVT_E_OK);
    done = found = false;
    assert_int_equal(store_lesson_get(st, ann, "prefill", pos, sizeof pos, &done, &found, &err),
                     KVT_E_OK);
    assert_true(found && done);
    assert_string_equal(pos, "");
    assert_int_equal(store_lesson_last(st, ann, last, sizeof last, &found, &err), KVT_E_OK);
    assert_string_equal(last, "prefill");
    store_close(st);
    assert_int_equal(sql_int(path_of("rate.db"), "SELECT completed_at - started_at FROM "
                                                 "lesson_progress WHERE lesson_id = 'prefill'"),
                     0); /* the first time: T0 + 140 both */
}

static void test_refusals(void **state)
{
    (void)state;
    struct store *st;
    struct store_error err;
    FILE *f;

    /* written by a newer kvtutor */
    st = open_ok(path_of("newer.db"));
    store_close(st);
    sql(path_of("newer.db"), "PRAGMA user_version = 999");
    assert_int_equal(store_open(path_of("newer.db"), false, &st, &err), KVT_E_DB_NEWER);
    assert_null(st);
    assert_non_null(strstr(err.detail, "999"));
    /* someone else's SQLite file */
    sql(path_of("other.db"), "CREATE TABLE t (x); INSERT INTO t VALUES (1)");
    assert_int_equal(store_open(path_of("other.db"), false, &st, &err), KVT_E_DB_NOT_KVTUTOR);
    /* not SQLite at all */
    f = fopen(path_of("text.db"), "w");
    fputs("these are my notes, not a database; there are enough bytes here to be a header\n", f);
    fclose(f);
    assert_int_equal(store_open(path_of("text.db"), false, &st, &err), KVT_E_DB_NOT_KVTUTOR);
    /* a folder where the file should be, a folder that does not exist */
    assert_int_equal(store_open(dir, false, &st, &err), KVT_E_DB_IS_DIR);
    assert_int_equal(store_open(path_of("no/such/folder/p.db"), false, &st, &err),
                     KVT_E_DB_NO_FOLDER);
    /* ... unless asked to make it, as for the default path */
    assert_int_equal(store_open(path_of("made/for/you/p.db"), true, &st, &err), KVT_E_OK);
    store_close(st);
}

static void test_corrupt_page(void **state)
{
    (void)state;
    const char *p = path_of("corrupt.db");
    struct store *st = open_ok(p);
    struct store_error err;
    int64_t learner;
    char junk[4096];
    int fd;

    assert_int_equal(store_learner(st, "ann", T0, &learner, &err), KVT_E_OK);
    for (int i = 0; i < 40; i++) {
        struct store_attempt a = attempt(learner, "kv-cache", "per-token", 1 + i % 4, T0 + i);
        assert_int_equal(store_record_attempt(st, &a, NULL, NULL, &err), KVT_E_OK);
    }
    store_close(st);
    /* scribble over the second page: a table's b-tree */
    memset(junk, 0xA5, sizeof junk);
    fd = open(p, O_WRONLY);
    assert_true(fd >= 0);
    assert_int_equal(pwrite(fd, junk, sizeof junk, 4096), (ssize_t)sizeof junk);
    close(fd);
    if (store_open(p, false, &st, &err) == KVT_E_OK) {
        assert_int_equal(store_check(st, STORE_CHECK_FULL, &err), KVT_E_DB_CORRUPT);
        /* both depths report the damage one way: the code and SQLite's line */
        memset(&err, 0, sizeof err);
        assert_int_equal(store_check(st, STORE_CHECK_QUICK, &err), KVT_E_DB_CORRUPT);
        assert_int_equal(err.code, KVT_E_DB_CORRUPT);
        assert_true(err.detail[0] != '\0');
        store_close(st);
    } else {
        assert_true(err.code == KVT_E_DB_CORRUPT || err.code == KVT_E_DB_NOT_KVTUTOR);
    }
}

/* The store's schedule after each answer against ts-fsrs's, for the
 * reference cases: the store's own day arithmetic included. */
static void test_schedule_matches_reference(void **state)
{
    (void)state;
    struct store *st = open_ok(path_of("schedule.db"));
    struct store_error err;
    struct fsrs_params p;
    struct tsv t;
    int64_t learner, when = T0;
    const char *prev = "";

    fsrs_default_params(&p);
    assert_int_equal(store_learner(st, "ann", T0, &learner, &err), KVT_E_OK);
    assert_int_equal(tsv_load("ts-fsrs-5.4.2-longterm.tsv", &t), 0);
    for (size_t i = 0; i < tsv_count(&t); i++) {
        const char *c = tsv_get(&t, i, "case");
        struct store_attempt a;
        struct store_review r, again;
        if (strcmp(c, prev) != 0)
            when = T0 + 12 * 3600; /* each case: a new exercise, starting at noon */
        else
            when += (int64_t)atoi(tsv_get(&t, i, "elapsed_days")) * DAY;
        prev = c;
        a = attempt(learner, "kv-cache", c, atoi(tsv_get(&t, i, "rating")), when);
        assert_int_equal(store_record_attempt(st, &a, &p, &r, &err), KVT_E_OK);
        if (fabs(r.card.stability - atof(tsv_get(&t, i, "stability"))) > 1e-4 ||
            fabs(r.card.difficulty - atof(tsv_get(&t, i, "difficulty"))) > 1e-4 ||
            r.interval != (uint32_t)atoi(tsv_get(&t, i, "scheduled_days")) ||
            r.due_day != when / DAY + r.interval)
            fail_msg("case %s step %s: S %.6f D %.6f ivl %u", c, tsv_get(&t, i, "step"),
                     r.card.stability, r.card.difficulty, r.interval);
        /* what was stored is what was returned */
        assert_int_equal(store_review_get(st, learner, "kv-cache", c, &again, &err), KVT_E_OK);
        assert_true(again.card.stability == r.card.stability);
        assert_int_equal(again.due_day, r.due_day);
    }
    tsv_free(&t);
    store_close(st);
}

static void test_cram_and_duplicates(void **state)
{
    (void)state;
    struct store *st = open_ok(path_of("cram.db"));
    struct store_error err;
    struct store_review r;
    struct fsrs_params p;
    struct store_attempt a;
    int64_t learner;

    fsrs_default_params(&p);
    assert_int_equal(store_learner(st, "ann", T0, &learner, &err), KVT_E_OK);
    /* cram: recorded, schedule untouched */
    a = attempt(learner, "kv-cache", "per-token", 0, T0);
    assert_int_equal(store_record_attempt(st, &a, &p, NULL, &err), KVT_E_OK);
    assert_int_equal(store_review_get(st, learner, "kv-cache", "per-token", &r, &err),
                     KVT_E_DB_NOT_FOUND);
    /* a Good review; then the same attempt again (a retry) changes nothing */
    a = attempt(learner, "kv-cache", "per-token", 3, T0);
    assert_int_equal(store_record_attempt(st, &a, &p, NULL, &err), KVT_E_OK);
    assert_int_equal(store_record_attempt(st, &a, &p, NULL, &err), KVT_E_OK);
    assert_int_equal(store_review_get(st, learner, "kv-cache", "per-token", &r, &err), KVT_E_OK);
    assert_int_equal(r.card.reps, 1);
    store_close(st);
    assert_int_equal(sql_int(path_of("cram.db"), "SELECT count(*) FROM attempt"), 2);
}

static void test_lesson_changes(void **state)
{
    (void)state;
    struct store *st = open_ok(path_of("sync.db"));
    struct store_error err;
    struct store_review r;
    struct fsrs_params p;
    struct store_attempt a;
    enum store_sync sync;
    int64_t learner;

    fsrs_default_params(&p);
    assert_int_equal(store_learner(st, "ann", T0, &learner, &err), KVT_E_OK);
    assert_int_equal(store_sync_exercise(st, learner, "l", "e", "c1", "a1", &sync, &err), KVT_E_OK);
    assert_int_equal(sync, STORE_SYNC_NEW);
    a = attempt(learner, "l", "e", 4, T0);
    assert_int_equal(store_record_attempt(st, &a, &p, NULL, &err), KVT_E_OK);
    /* first sight of the fingerprints: adopted */
    assert_int_equal(store_sync_exercise(st, learner, "l", "e", "c1", "a1", &sync, &err), KVT_E_OK);
    assert_int_equal(sync, STORE_SYNC_SAME);
    /* the wording changed: the schedule stays */
    assert_int_equal(store_sync_exercise(st, learner, "l", "e", "c2", "a1", &sync, &err), KVT_E_OK);
    assert_int_equal(sync, STORE_SYNC_WORDING);
    assert_int_equal(store_review_get(st, learner, "l", "e", &r, &err), KVT_E_OK);
    assert_int_equal(r.card.reps, 1);
    assert_int_equal(store_sync_exercise(st, learner, "l", "e", "c2", "a1", &sync, &err), KVT_E_OK);
    assert_int_equal(sync, STORE_SYNC_SAME);
    /* the answer changed: the schedule starts over, the history stays */
    assert_int_equal(store_sync_exercise(st, learner, "l", "e", "c2", "a2", &sync, &err), KVT_E_OK);
    assert_int_equal(sync, STORE_SYNC_RESTARTED);
    assert_int_equal(store_review_get(st, learner, "l", "e", &r, &err), KVT_E_DB_NOT_FOUND);
    store_close(st);
    assert_int_equal(sql_int(path_of("sync.db"), "SELECT count(*) FROM attempt"), 1);
}

/* A misconception found in an answer in words is kept as a diagnosis, as a
 * numeric slip is, and counted among the mistakes made most by its own id:
 * two follow-up answers with the same misconception, one numeric slip. */
static void test_misconception_diagnoses(void **state)
{
    (void)state;
    struct store *st = open_ok(path_of("mis.db"));
    struct store_error err;
    struct fsrs_params p;
    struct store_stats s;
    int64_t learner;

    fsrs_default_params(&p);
    assert_int_equal(store_learner(st, "ann", T0, &learner, &err), KVT_E_OK);
    for (int i = 0; i < 3; i++) {
        struct store_attempt a =
            attempt(learner, "kv-cache", i < 2 ? "followup-1" : "per-token", 1, T0 + 3600 + i);
        if (i < 2)
            a.has_value = false, a.unit = NULL, a.answer = "Raise max_num_seqs";
        a.diagnosis = i < 2 ? "misconception-ba9fb442" : "no-kv-pair";
        assert_int_equal(store_record_attempt(st, &a, &p, NULL, &err), KVT_E_OK);
    }
    assert_int_equal(store_stats(st, learner, T0 + 9000, &s, &err), KVT_E_OK);
    assert_int_equal(s.n_weakest, 2);
    assert_string_equal(s.weakest[0].diagnosis, "misconception-ba9fb442");
    assert_int_equal(s.weakest[0].count, 2);
    assert_string_equal(s.weakest[1].diagnosis, "no-kv-pair");
    assert_int_equal(s.weakest[1].count, 1);
    store_stats_free(&s);
    store_close(st);
}

static void test_reset_and_stats(void **state)
{
    (void)state;
    struct store *st = open_ok(path_of("stats.db"));
    struct store_error err;
    struct fsrs_params p;
    struct store_stats s;
    int64_t learner, other, removed;
    /* answers today, yesterday, the day before, and five days ago: a 3-day streak */
    static const int days_ago[] = {0, 1, 2, 5};

    fsrs_default_params(&p);
    assert_int_equal(store_learner(st, "ann", T0, &learner, &err), KVT_E_OK);
    assert_int_equal(store_learner(st, "bob", T0, &other, &err), KVT_E_OK);
    for (int i = 0; i < 4; i++) {
        struct store_attempt a = attempt(learner, "kv-cache", i < 2 ? "a" : "b", i == 3 ? 1 : 3,
                                         T0 + 3600 - days_ago[3 - i] * DAY);
        if (i == 3)
            a.diagnosis = "forgot the x2 for K and V";
        assert_int_equal(store_record_attempt(st, &a, &p, NULL, &err), KVT_E_OK);
    }
    {
        struct store_attempt a = attempt(learner, "decode", "c", 1, T0 + 7200);
        a.module = "part0";
        a.diagnosis = "forgot the x2 for K and V";
        assert_int_equal(store_record_attempt(st, &a, &p, NULL, &err), KVT_E_OK);
        a = attempt(other, "decode", "c", 3, T0 + 7200); /* another learner's: not counted */
        assert_int_equal(store_record_attempt(st, &a, &p, NULL, &err), KVT_E_OK);
    }
    assert_int_equal(store_stats(st, learner, T0 + 9000, &s, &err), KVT_E_OK);
    assert_int_equal(s.attempts, 5);
    assert_int_equal(s.correct, 3);
    assert_int_equal(s.exercises, 3);
    assert_int_equal(s.streak_days, 3);
    assert_int_equal(s.n_lessons, 2);
    assert_string_equal(s.lessons[0].lesson_id, "decode");
    assert_int_equal(s.n_weakest, 1);
    assert_int_equal(s.weakest[0].count, 2);
    /* what is due is counted by the tutor over the course (test_tutor_queue) */
    assert_true(s.seconds == 5 * 12.5);
    store_stats_free(&s);

    assert_int_equal(store_reset_lesson(st, learner, "kv-cache", &removed, &err), KVT_E_OK);
    assert_int_equal(removed, 4);
    assert_int_equal(store_stats(st, learner, T0 + 9000, &s, &err), KVT_E_OK);
    assert_int_equal(s.attempts, 1);
    assert_int_equal(s.n_lessons, 1);
    store_stats_free(&s);
    store_close(st);
}

/* Records attempts one after another, writing each uid to `fd` once the
 * store has acknowledged it. Runs until killed or `n` are done. */
static void writer(const char *path, int fd, int n, const char *who)
{
    struct store *st;
    struct store_error err;
    struct fsrs_params p;
    int64_t learner;

    fsrs_default_params(&p);
    if (store_open(path, false, &st, &err) != KVT_E_OK ||
        store_learner(st, who, T0, &learner, &err) != KVT_E_OK) {
        fprintf(stderr, "writer: %s (%s)\n", kvt_strerror(err.code), err.detail);
        _exit(3);
    }
    for (int i = 0; i < n; i++) {
        char ex[16];
        struct store_attempt a;
        snprintf(ex, sizeof ex, "e%d", i % 7);
        a = attempt(learner, "kv-cache", ex, 1 + i % 4, T0 + i * 600);
        if (store_record_attempt(st, &a, &p, NULL, &err) != KVT_E_OK) {
            fprintf(stderr, "writer %s: %s (%s)\n", who, kvt_strerror(err.code), err.detail);
            _exit(4);
        }
        a.uid[32] = '\n';
        if (fd >= 0 && write(fd, a.uid, 33) != 33)
            _exit(5);
    }
    store_close(st);
    _exit(0);
}

static void test_sigkill_loses_nothing_acknowledged(void **state)
{
    (void)state;
    const char *p = path_of("crash.db");
    char *acked = malloc(33 * 200000);
    size_t n_acked = 0;
    unsigned seed = (unsigned)time(NULL);
    struct store *st;
    struct store_error err;
    sqlite3 *db;

    assert_non_null(acked);
    store_close(open_ok(p));
    srand(seed);
    for (int round = 0; round < 30; round++) {
        int fds[2];
        pid_t pid;
        ssize_t got;
        assert_int_equal(pipe(fds), 0);
        pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            close(fds[0]);
            free(acked); /* the parent's; the writer only appends to the pipe */
            writer(p, fds[1], 1000000, "ann");
        }
        close(fds[1]);
        /* the first acknowledgement: the writer is running, however loaded the
         * machine is, so every round kills it mid-stream */
        if (read(fds[0], acked + n_acked * 33, 33) == 33)
            n_acked++;
        {
            /* then kill at a random moment, 2 to 42 ms on (under valgrind, which
             * runs the writer some 50 times slower, 100 to 500 ms) */
            bool slow = under_valgrind();
            long us = slow ? 100000L + (long)(rand() % 400000) : 2000L + (long)(rand() % 40000);
            struct timespec ts = {us / 1000000L, (us % 1000000L) * 1000L};
            nanosleep(&ts, NULL);
        }
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        while ((got = read(fds[0], acked + n_acked * 33, 33)) == 33 && n_acked < 199999)
            n_acked++;
        close(fds[0]);
    }
    /* every acknowledged attempt is there, and the file is sound */
    st = open_ok(p);
    assert_int_equal(store_check(st, STORE_CHECK_FULL, &err), KVT_E_OK);
    store_close(st);
    assert_int_equal(sqlite3_open(p, &db), SQLITE_OK);
    for (size_t i = 0; i < n_acked; i++) {
        sqlite3_stmt *s;
        sqlite3_prepare_v2(db, "SELECT 1 FROM attempt WHERE uid = ?1", -1, &s, NULL);
        sqlite3_bind_text(s, 1, acked + i * 33, 32, SQLITE_STATIC);
        if (sqlite3_step(s) != SQLITE_ROW)
            fail_msg("acknowledged attempt %.32s lost (seed %u)", acked + i * 33, seed);
        sqlite3_finalize(s);
    }
    sqlite3_close(db);
    print_message("  %zu acknowledged attempts over 30 kills, all present\n", n_acked);
    assert_true(n_acked >= 30); /* at least the one each round waited for */
    free(acked);
}

static void test_two_writers(void **state)
{
    (void)state;
    const char *p = path_of("two.db");
    pid_t a, b;
    int sa, sb;

    store_close(open_ok(p));
    a = fork();
    if (a == 0)
        writer(p, -1, 300, "ann");
    b = fork();
    if (b == 0)
        writer(p, -1, 300, "bob");
    waitpid(a, &sa, 0);
    waitpid(b, &sb, 0);
    /* neither saw "database is locked": each exits 0 only if all 300 landed */
    assert_true(WIFEXITED(sa) && WEXITSTATUS(sa) == 0);
    assert_true(WIFEXITED(sb) && WEXITSTATUS(sb) == 0);
    assert_int_equal(sql_int(p, "SELECT count(*) FROM attempt"), 600);
}

static void count_wait(void *ctx)
{
    ++*(int *)ctx;
}

/* Another process takes the write lock of `path` and keeps it 600 ms;
 * returns once it is held. */
static pid_t hold_lock(const char *path)
{
    int ready[2];
    char byte;
    pid_t holder;

    assert_int_equal(pipe(ready), 0);
    holder = fork();
    if (holder == 0) {
        sqlite3 *db;
        close(ready[0]);
        if (sqlite3_open(path, &db) != SQLITE_OK ||
            sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
            _exit(3);
        if (write(ready[1], "x", 1) != 1)
            _exit(4);
        sqlite3_sleep(600);
        _exit(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK ? 0 : 5);
    }
    close(ready[1]);
    assert_int_equal(read(ready[0], &byte, 1), 1); /* the lock is held from here */
    close(ready[0]);
    return holder;
}

static void holder_done(pid_t holder)
{
    int status;
    waitpid(holder, &status, 0);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* Another process holds the write lock for 600 ms: the answer waits for
 * it and lands, and the wait is said once (about a quarter of a second
 * in), not at every retry; a write that finds the database free says
 * nothing. After the file is deleted and written again (store_recreated)
 * the wait is still said, by the same hook, on the new connection. */
static void test_wait_is_said(void **state)
{
    (void)state;
    const char *p = path_of("wait.db");
    struct store *st = open_ok(p);
    struct store_error err;
    struct store_attempt a;
    int waits = 0;
    int64_t ann;
    pid_t holder;

    store_on_wait(st, count_wait, &waits);
    assert_int_equal(store_learner(st, "ann", T0, &ann, &err), KVT_E_OK);
    a = attempt(ann, "kv-cache", "per-token", 0, T0);
    assert_int_equal(store_record_attempt(st, &a, NULL, NULL, &err), KVT_E_OK);
    assert_int_equal(waits, 0);

    holder = hold_lock(p);
    a = attempt(ann, "kv-cache", "per-token", 0, T0 + 60);
    assert_int_equal(store_record_attempt(st, &a, NULL, NULL, &err), KVT_E_OK);
    assert_int_equal(waits, 1);
    holder_done(holder);
    assert_int_equal(sql_int(p, "SELECT count(*) FROM attempt"), 2);

    assert_int_equal(unlink(p), 0);
    a = attempt(ann, "kv-cache", "per-token", 0, T0 + 120);
    assert_int_equal(store_record_attempt(st, &a, NULL, NULL, &err), KVT_E_OK);
    assert_true(store_recreated(st));
    holder = hold_lock(p);
    a = attempt(ann, "kv-cache", "per-token", 0, T0 + 180);
    assert_int_equal(store_record_attempt(st, &a, NULL, NULL, &err), KVT_E_OK);
    assert_int_equal(waits, 2);
    holder_done(holder);
    assert_int_equal(sql_int(p, "SELECT count(*) FROM attempt"), 4);
    store_close(st);
}

static void test_read_only_file(void **state)
{
    (void)state;
    const char *p = path_of("ro/p.db");
    struct store *st;
    struct store_error err;
    int64_t learner;
    pid_t pid;
    int status;

    chmod(dir, 0755); /* the ordinary user must reach the folder */
    mkdir(path_of("ro"), 0755);
    st = open_ok(p);
    assert_int_equal(store_learner(st, "ann", T0, &learner, &err), KVT_E_OK);
    {
        struct store_attempt a = attempt(learner, "kv-cache", "e", 3, T0);
        assert_int_equal(store_record_attempt(st, &a, NULL, NULL, &err), KVT_E_OK);
    }
    store_close(st);
    chmod(p, 0444);
    chmod(path_of("ro"), 0555);
    /* root ignores file modes, so the check runs as an ordinary user */
    pid = fork();
    if (pid == 0) {
        struct store_stats s;
        struct store_attempt a;
        if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
            _exit(10);
        if (store_open(p, false, &st, &err) != KVT_E_OK) {
            fprintf(stderr, "read-only open: %s (%s)\n", kvt_strerror(err.code), err.detail);
            _exit(11);
        }
        if (!store_readonly(st) || store_schema_version(st) != store_latest_version())
            _exit(12);
        if (store_stats(st, learner, T0, &s, &err) != KVT_E_OK || s.attempts != 1)
            _exit(13);
        store_stats_free(&s);
        /* writing says why and leaves the attempt as it was, to retry */
        a = attempt(learner, "kv-cache", "e", 0, T0 + 60);
        if (store_record_attempt(st, &a, NULL, NULL, &err) != KVT_E_DB_READONLY ||
            strcmp(a.answer, "56 KiB") != 0)
            _exit(14);
        store_close(st);
        _exit(0);
    }
    waitpid(pid, &status, 0);
    chmod(path_of("ro"), 0755);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail_msg("read-only check failed with status %d", WEXITSTATUS(status));
}

/* The file deleted while the app runs (rm progress.db, a clean-up script):
 * before, every later answer went into the unlinked file, was acknowledged,
 * and was lost at exit. Now the next write puts the whole database back at
 * its path first and says so once; a file put in its place is never written
 * over: the write is refused and the answers so far are copied beside it. */
static void test_deleted_while_open(void **state)
{
    (void)state;
    const char *p = path_of("gone.db");
    char side[300];
    struct store *st = open_ok(p), *other;
    struct store_error err;
    struct store_review rv;
    struct store_attempt a;
    int64_t ann;

    assert_int_equal(store_learner(st, "ann", T0, &ann, &err), KVT_E_OK);
    a = attempt(ann, "kv-cache", "e1", 3, T0);
    assert_int_equal(store_record_attempt(st, &a, NULL, NULL, &err), KVT_E_OK);
    assert_false(store_recreated(st));

    /* only the .db removed: its -wal and -shm stay, and are the open file's */
    assert_int_equal(unlink(p), 0);
    a = attempt(ann, "kv-cache", "e2", 3, T0 + 60);
    assert_int_equal(store_record_attempt(st, &a, NULL, NULL, &err), KVT_E_OK);
    assert_true(store_recreated(st));
    fprintf(stderr, "DBG after e2 ok\n");
    {
        char cmd[600];
        snprintf(cmd, sizeof cmd,
                 "python3 -c \"import sqlite3; d=sqlite3.connect('%s'); print(d.execute('pragma "
                 "integrity_check').fetchall()[:3], d.execute('select count(*) from "
                 "attempt').fetchone())\"",
                 p);
        system(cmd);
    }
    assert_false(store_recreated(st)); /* said once */
    assert_int_equal(sql_int(p, "SELECT count(*) FROM attempt"), 2);
    assert_int_equal(sql_int(p, "SELECT count(*) FROM review_state"), 2);

    /* all three removed (rm progress.db*) */
    unlink(p);
    snprintf(side, sizeof side, "%s-wal", p);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", p);
    unlink(side);
    a = attempt(ann, "kv-cache", "e3", 0, T0 + 120);
    assert_int_equal(store_record_attempt(st, &a, NULL, NULL, &err), KVT_E_OK);
    assert_true(store_recreated(st));
    assert_int_equal(sql_int(p, "SELECT count(*) FROM attempt"), 3);

    /* another kvtutor database moved into its place: left as it is */
    other = open_ok(path_of("stranger.db"));
    store_close(other);
    assert_int_equal(rename(path_of("stranger.db"), p), 0);
    a = attempt(ann, "kv-cache", "e4", 0, T0 + 180);
    assert_int_equal(store_record_attempt(st, &a, NULL, NULL, &err), KVT_E_DB_GONE);
    assert_non_null(strstr(err.detail, "gone.db.recovered"));
    assert_false(store_recreated(st));
    assert_int_equal(sql_int(p, "SELECT count(*) FROM attempt"), 0);
    snprintf(side, sizeof side, "%s.recovered", p);
    assert_int_equal(sql_int(side, "SELECT count(*) FROM attempt"), 3);
    /* the next write is refused too, and says where the answers are; reads
     * go on, from the copy */
    assert_int_equal(store_record_attempt(st, &a, NULL, NULL, &err), KVT_E_DB_GONE);
    assert_non_null(strstr(err.detail, "the answers up to now are in"));
    assert_int_equal(store_review_get(st, ann, "kv-cache", "e1", &rv, &err), KVT_E_OK);
    assert_int_equal(sql_int(p, "SELECT count(*) FROM attempt"), 0);
    store_close(st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fresh_database),
        cmocka_unit_test(test_bind_signatures_match_the_sql),
        cmocka_unit_test(test_upgrade_from_every_earlier_version),
        cmocka_unit_test(test_upgrade_kept_fixture),
        cmocka_unit_test(test_upgrade_moves_stopped_probe_runs),
        cmocka_unit_test(test_rate_later_and_resume),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_sigkill_during_migration),
        cmocka_unit_test(test_corrupt_page),
        cmocka_unit_test(test_schedule_matches_reference),
        cmocka_unit_test(test_cram_and_duplicates),
        cmocka_unit_test(test_lesson_changes),
        cmocka_unit_test(test_reset_and_stats),
        cmocka_unit_test(test_misconception_diagnoses),
        cmocka_unit_test(test_sigkill_loses_nothing_acknowledged),
        cmocka_unit_test(test_two_writers),
        cmocka_unit_test(test_wait_is_said),
        cmocka_unit_test(test_read_only_file),
        cmocka_unit_test(test_deleted_while_open),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
