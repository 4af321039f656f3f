/* The progress commands as a learner or instructor runs them: import an
 * export, read the statistics, export again as JSON and CSV, merge without
 * duplicates, settings, a confirmed reset, and clear one-line errors. */
#define _XOPEN_SOURCE 700
#include <jansson.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "learner_db.h"
#include "run_cmd.h"
#include "tmp_dir.h"

static char dir[64], db[128], db2[128], db_sync[128], exp_json[128];

static int setup(void **state)
{
    (void)state;
    if (tmp_dir_make(dir, sizeof dir, "kvt_prog_") != 0)
        return -1;
    snprintf(db, sizeof db, "%s/a.db", dir);
    snprintf(db2, sizeof db2, "%s/b.db", dir);
    snprintf(db_sync, sizeof db_sync, "%s/sync.db", dir);
    snprintf(exp_json, sizeof exp_json, "%s/export.json", dir);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    return tmp_dir_remove(dir);
}

/* kvtutor with arguments given one by one, NULL-terminated; stdin from `input`. */
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

static void write_file(const char *path, const char *text)
{
    assert_int_equal(learner_write_file(path, text), 0);
}

/* Three answers by ann, today and yesterday; one by bob. Ann's current
 * learner is "default", so the test switches to her first. */
static void make_export(char *text, size_t cap, long now)
{
    long day = now / 86400 * 86400;
    snprintf(
        text, cap,
        "{\"format\": \"kvtutor-export\", \"version\": 1, \"attempts\": [\n"
        " {\"uid\": \"00000000000000000000000000000001\", \"learner\": \"ann\", \"module\": "
        "\"part0\", \"lesson\": \"kv-cache\", \"exercise\": \"per-token\", \"answer\": \"56 "
        "KiB\", \"value\": 56, \"unit\": \"KiB\", \"verdict\": \"correct\", \"score\": 1, "
        "\"rating\": 3, \"seconds\": 30, \"created_at\": %ld},\n"
        " {\"uid\": \"00000000000000000000000000000002\", \"learner\": \"ann\", \"module\": "
        "\"part0\", \"lesson\": \"kv-cache\", \"exercise\": \"per-sequence-8k\", \"answer\": "
        "\"=1+1, "
        "\\\"quoted\\\"\", \"verdict\": \"wrong\", \"score\": 0, \"diagnosis\": \"forgot the "
        "layers\", \"rating\": 1, \"seconds\": 90, \"created_at\": %ld},\n"
        " {\"uid\": \"00000000000000000000000000000003\", \"learner\": \"ann\", \"module\": "
        "\"part0\", \"lesson\": \"decode\", \"exercise\": \"ceiling\", \"answer\": \"299\", "
        "\"verdict\": \"correct\", \"score\": 1, \"seconds\": 20, \"created_at\": %ld},\n"
        " {\"uid\": \"00000000000000000000000000000004\", \"learner\": \"bob\", \"lesson\": "
        "\"decode\", \"exercise\": \"ceiling\", \"answer\": \"300\", \"verdict\": \"correct\", "
        "\"score\": 1, \"seconds\": 5, \"created_at\": %ld}],\n"
        " \"reviews\": [{\"learner\": \"ann\", \"lesson\": \"kv-cache\", \"exercise\": "
        "\"per-sequence-8k\", \"stability\": 0.212, \"difficulty\": 6.4133, \"reps\": 1, "
        "\"lapses\": 0, "
        "\"last_review\": %ld, \"due_day\": %ld}]}\n",
        day + 3600 - 86400, day + 3700, day + 3800, day + 3900, day + 3700, day / 86400);
}

static void test_import_then_stats(void **state)
{
    (void)state;
    char in[160], text[4096];
    struct run_result r;
    json_t *j;
    json_error_t e;

    snprintf(in, sizeof in, "%s/in.json", dir);
    make_export(text, sizeof text, (long)time(NULL));
    assert_int_equal(learner_db_import(db, in, text, &r), 0);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "Imported 4 attempts (0 already here), 1 schedule updated"));
    run_free(&r);
    /* again: nothing is duplicated */
    r = kvt(NULL, "import", in, "--db", db, NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "Imported 0 attempts (4 already here)"));
    run_free(&r);

    r = kvt(NULL, "config", "set", "learner", "ann", "--db", db, NULL);
    assert_int_equal(r.status, 0);
    run_free(&r);
    r = kvt(NULL, "stats", "--json", "--db", db, NULL);
    assert_int_equal(r.status, 0);
    j = json_loads(r.out, 0, &e);
    assert_non_null(j);
    /* ann: 3 answers, 2 right, 3 exercises, yesterday and today: a 2-day streak,
     * 140 s; the per-sequence-8k schedule was due today */
    assert_string_equal(json_string_value(json_object_get(j, "learner")), "ann");
    assert_int_equal(json_integer_value(json_object_get(j, "attempts")), 3);
    assert_int_equal(json_integer_value(json_object_get(j, "correct")), 2);
    assert_int_equal(json_integer_value(json_object_get(j, "exercises_seen")), 3);
    assert_int_equal(json_integer_value(json_object_get(j, "streak_days")), 2);
    assert_int_equal(json_integer_value(json_object_get(j, "due_now")), 1);
    assert_true(json_real_value(json_object_get(j, "seconds")) == 140.0);
    assert_int_equal(json_array_size(json_object_get(j, "lessons")), 2);
    assert_string_equal(json_string_value(json_object_get(
                            json_array_get(json_object_get(j, "weakest"), 0), "diagnosis")),
                        "forgot the layers");
    json_decref(j);
    run_free(&r);
    r = kvt(NULL, "stats", "--db", db, NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "Progress of ann"));
    /* kv-cache is lessons/part0-foundations/01-kv-cache.lua: named by its
     * title, "The KV cache caps concurrency", 29 columns in a 28-column
     * cell: cut after a word; "decode" is no lesson of the course, so its id
     * is all there is */
    assert_non_null(strstr(r.out, "    The KV cache caps...  "));
    assert_null(strstr(r.out, "kv-cache"));
    assert_non_null(strstr(r.out, "    decode  "));
    assert_non_null(strstr(r.out, "forgot the layers"));
    run_free(&r);
}

/* `stats` opens the course as the app does: a schedule trained on an
 * answer the lesson no longer has starts over before it is counted. The
 * schedule imported is due today (due_now 1); once its
 * stored answer fingerprint is not the lesson's, stats counts it as new
 * again (due_now 0) and the schedule is gone, as at the app's start. */
static void test_stats_restarts_changed_answers(void **state)
{
    (void)state;
    char in[160], text[4096];
    struct run_result r;
    json_t *j;
    json_error_t e;
    sqlite3 *h;
    sqlite3_stmt *q;

    long day = (long)time(NULL) / 86400;

    /* a schedule of lessons/part0-foundations/01-kv-cache.lua's
     * per-sequence-8k, last reviewed an hour into today and due today */
    snprintf(in, sizeof in, "%s/in-sync.json", dir);
    snprintf(text, sizeof text,
             "{\"format\": \"kvtutor-export\", \"version\": 1, \"attempts\": [], "
             "\"reviews\": [{\"learner\": \"ann\", \"lesson\": \"kv-cache\", \"exercise\": "
             "\"per-sequence-8k\", \"stability\": 0.212, \"difficulty\": 6.4133, \"reps\": 1, "
             "\"lapses\": 0, \"last_review\": %ld, \"due_day\": %ld}]}\n",
             day * 86400 + 3600, day);
    assert_int_equal(learner_db_import(db_sync, in, text, &r), 0);
    assert_int_equal(r.status, 0);
    run_free(&r);
    r = kvt(NULL, "stats", "--json", "--db", db_sync, "--learner", "ann", NULL);
    assert_int_equal(r.status, 0);
    j = json_loads(r.out, 0, &e);
    assert_non_null(j);
    assert_int_equal(json_integer_value(json_object_get(j, "due_now")), 1);
    json_decref(j);
    run_free(&r);

    /* the schedule adopted the lesson's fingerprints; make its answer one stale */
    assert_int_equal(sqlite3_open(db_sync, &h), SQLITE_OK);
    assert_int_equal(sqlite3_exec(h,
                                  "UPDATE review_state SET answer_hash = '0123456789abcdef' "
                                  "WHERE lesson_id = 'kv-cache' AND exercise_id = "
                                  "'per-sequence-8k' "
                                  "AND answer_hash <> ''",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_changes(h), 1);
    sqlite3_close(h);

    r = kvt(NULL, "stats", "--json", "--db", db_sync, "--learner", "ann", NULL);
    assert_int_equal(r.status, 0);
    j = json_loads(r.out, 0, &e);
    assert_non_null(j);
    assert_int_equal(json_integer_value(json_object_get(j, "due_now")), 0);
    json_decref(j);
    run_free(&r);
    assert_int_equal(sqlite3_open(db_sync, &h), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(h,
                                        "SELECT count(*) FROM review_state WHERE lesson_id = "
                                        "'kv-cache' AND exercise_id = 'per-sequence-8k'",
                                        -1, &q, NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_step(q), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int(q, 0), 0);
    sqlite3_finalize(q);
    sqlite3_close(h);
}

/* Many answers, nearly all right or nearly all wrong: counts are grouped
 * and a share never reads as all or nothing. cal answers kv-cache 1,200
 * times (1,199 right) and decode 300 times (1 right), 60 s each. */
static void test_stats_shares_and_counts(void **state)
{
    (void)state;
    char in[160], db3[160];
    size_t cap = 1500 * 300 + 200, o = 0;
    char *text = malloc(cap);
    long now = (long)time(NULL);
    struct run_result r;

    assert_non_null(text);
    snprintf(in, sizeof in, "%s/many.json", dir);
    snprintf(db3, sizeof db3, "%s/c.db", dir);
    o += (size_t)snprintf(text + o, cap - o,
                          "{\"format\": \"kvtutor-export\", \"version\": 1, \"attempts\": [");
    for (int i = 0; i < 1500; i++) {
        bool kv = i < 1200, right = kv ? i != 0 : i == 1200;
        o += (size_t)snprintf(text + o, cap - o,
                              "%s{\"uid\": \"%032x\", \"learner\": \"cal\", \"module\": "
                              "\"part0\", \"lesson\": \"%s\", \"exercise\": \"e\", "
                              "\"answer\": \"1\", \"verdict\": \"%s\", \"score\": %d, "
                              "\"seconds\": 60, \"created_at\": %ld}\n",
                              i ? "," : "", i + 1, kv ? "kv-cache" : "decode",
                              right ? "correct" : "wrong", right ? 1 : 0, now - 60 - i);
    }
    snprintf(text + o, cap - o, "], \"reviews\": []}\n");
    assert_int_equal(learner_db_import(db3, in, text, &r), 0);
    free(text);
    assert_int_equal(r.status, 0);
    run_free(&r);

    r = kvt(NULL, "stats", "--db", db3, "--learner", "cal", NULL);
    assert_int_equal(r.status, 0);
    /* 1,199 + 1 = 1,200 right of 1,500: 80%; 1,500 x 60 s = 1,500 min */
    assert_non_null(strstr(r.out, "answers     1,500, 80% right\n"));
    assert_non_null(strstr(r.out, "time spent  1,500 min\n"));
    /* the columns: lesson 28 wide (kv-cache by its title, cut after a
     * word), exercises 9, answers 8, right 8.
     * kv-cache: 1,199 / 1,200 = 99.92%, shown 99.9% (not 100%); decode:
     * 1 / 300 = 0.33%, shown 0.3% (not 0%) */
    /* "e" is no exercise of kv-cache: none of its 12 counted */
    if (!strstr(r.out, "    The KV cache caps...              0/12    1,200    99.9%") ||
        !strstr(r.out, "    decode                               1      300     0.3%"))
        fail_msg("%s", r.out);
    run_free(&r);
}

/* The text of stats names what the JSON keeps by id: the module by its
 * module_title, the lesson by its title, a numeric slip by what was done. */
static void test_stats_names(void **state)
{
    (void)state;
    char in[160], text[2048], file[160];
    long day = (long)time(NULL) / 86400 * 86400;
    struct run_result r;

    snprintf(in, sizeof in, "%s/names.json", dir);
    snprintf(file, sizeof file, "%s/names.db", dir);
    snprintf(text, sizeof text,
             "{\"format\": \"kvtutor-export\", \"version\": 1, \"attempts\": [\n"
             " {\"uid\": \"00000000000000000000000000000011\", \"learner\": \"default\", "
             "\"module\": \"part0-foundations\", \"lesson\": \"kv-cache\", \"exercise\": "
             "\"per-token\", \"concept\": \"kv-cache\", \"answer\": \"28 KiB\", "
             "\"verdict\": \"wrong\", \"score\": 0, \"diagnosis\": \"no-kv-pair\", "
             "\"seconds\": 30, \"created_at\": %ld}]}\n",
             day + 3600);
    assert_int_equal(learner_db_import(file, in, text, &r), 0);
    assert_int_equal(r.status, 0);
    run_free(&r);
    r = kvt(NULL, "stats", "--db", file, NULL);
    assert_int_equal(r.status, 0);
    /* lessons/part0-foundations/01-kv-cache.lua: module_title "Part 0 ·
     * Foundations"; kv_grade.c: no-kv-pair is "you left out the x2 for K
     * and V: ..." */
    assert_non_null(strstr(r.out, "\n  Part 0 · Foundations\n"));
    /* what was seen, by kind, as the course map counts it: per-token is
     * one of the lesson's exercises */
    if (!strstr(r.out, "  seen        1 exercise, 0 follow-ups, 0 lesson questions\n"))
        fail_msg("seen, by kind:\n%s", r.out);
    /* and the lesson's row: one of the lesson's 12 exercises, as the map
     * writes it (lessons/part0-foundations/01-kv-cache.lua has 12) */
    if (!strstr(r.out, "    The KV cache caps...              1/12        1"))
        fail_msg("the lesson's exercises, as the map counts them:\n%s", r.out);
    assert_non_null(strstr(r.out, "    The KV cache caps...  "));
    /* the count and its sign together ("1×", "1x" where the terminal is
     * not UTF-8), no space between */
    assert_true(strstr(r.out, "    1×  left out the x2 for K and V\n") ||
                strstr(r.out, "    1x  left out the x2 for K and V\n"));
    if (strstr(r.out, "part0-foundations") || strstr(r.out, "kv-cache") ||
        strstr(r.out, "no-kv-pair"))
        fail_msg("an id in the text of stats:\n%s", r.out);
    run_free(&r);
    /* the JSON keeps the ids */
    r = kvt(NULL, "stats", "--json", "--db", file, NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\"lesson\": \"kv-cache\""));
    assert_non_null(strstr(r.out, "\"diagnosis\": \"no-kv-pair\""));
    run_free(&r);
}

static void test_export_round_trip(void **state)
{
    (void)state;
    struct run_result r =
        kvt(NULL, "export", "--format", "json", "--out", exp_json, "--db", db, NULL);
    json_t *j;
    json_error_t e;

    assert_int_equal(r.status, 0);
    run_free(&r);
    j = json_load_file(exp_json, 0, &e);
    assert_non_null(j);
    assert_int_equal(json_array_size(json_object_get(j, "attempts")), 4);
    assert_int_equal(json_array_size(json_object_get(j, "reviews")), 1);
    json_decref(j);
    /* into another machine's database, whole */
    r = kvt(NULL, "import", exp_json, "--db", db2, NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "Imported 4 attempts"));
    run_free(&r);
}

static void test_csv_export(void **state)
{
    (void)state;
    struct run_result r = kvt(NULL, "export", "--format", "csv", "--db", db, NULL);

    assert_int_equal(r.status, 0);
    assert_true(strncmp(r.out, "uid,learner,module,lesson,exercise,", 35) == 0);
    /* 4 attempts + the header */
    assert_int_equal(run_count_lines(r.out), 5);
    /* a comma and quotes are quoted; a leading '=' cannot become a formula */
    assert_non_null(strstr(r.out, "\"'=1+1, \"\"quoted\"\"\""));
    /* the schedule columns of the exercise that has one, as they were
     * imported (stability 0.212, difficulty 6.4133), not as %.17g writes them */
    assert_non_null(strstr(r.out, ",0.212,6.4133,"));
    run_free(&r);
}

static void test_bad_import_changes_nothing(void **state)
{
    (void)state;
    char bad[160];
    struct run_result r;

    snprintf(bad, sizeof bad, "%s/bad.json", dir);
    write_file(bad, "{\"format\": \"kvtutor-export\", \"attempts\": [\n"
                    " {\"uid\": \"0000000000000000000000000000000a\", \"learner\": \"cy\", "
                    "\"lesson\": \"l\", \"exercise\": \"e\", \"answer\": \"1\", \"verdict\": "
                    "\"correct\", \"score\": 1, \"seconds\": 1, \"created_at\": 1700000000},\n"
                    " {\"uid\": \"0000000000000000000000000000000b\", \"learner\": \"cy\", "
                    "\"lesson\": \"l\", \"exercise\": \"e\", \"answer\": \"1\", \"verdict\": "
                    "\"maybe\", \"score\": 1, \"seconds\": 1, \"created_at\": 1700000001}]}\n");
    r = kvt(NULL, "import", bad, "--db", db2, NULL);
    assert_int_equal(r.status, 1);
    assert_int_equal(run_count_lines(r.err), 1);
    assert_non_null(strstr(r.err, "attempts[1]"));
    assert_non_null(strstr(r.err, "nothing imported"));
    run_free(&r);
    /* the first, valid record was rolled back with the rest */
    r = kvt(NULL, "export", "--db", db2, NULL);
    assert_null(strstr(r.out, "0000000000000000000000000000000a"));
    run_free(&r);
    /* not JSON, not an export */
    write_file(bad, "{\"attempts\": [}");
    r = kvt(NULL, "import", bad, "--db", db2, NULL);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, bad));
    run_free(&r);
    write_file(bad, "{\"attempts\": []}");
    r = kvt(NULL, "import", bad, "--db", db2, NULL);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "not a kvtutor export"));
    run_free(&r);
}

static void test_config(void **state)
{
    (void)state;
    struct run_result r =
        kvt(NULL, "config", "set", "desired_retention", "0.85", "--db", db2, NULL);
    assert_int_equal(r.status, 0);
    run_free(&r);
    r = kvt(NULL, "config", "get", "desired_retention", "--db", db2, NULL);
    assert_string_equal(r.out, "0.85\n");
    run_free(&r);
    r = kvt(NULL, "config", "get", "new_per_day", "--db", db2, NULL);
    assert_string_equal(r.out, "20\n"); /* the default until set */
    run_free(&r);
    static const char *const bad[][3] = {
        {"desired_retention", "1.5", "desired_retention 1.5"},
        {"desired_retention", "nan", "desired_retention nan"},
        {"new_per_day", "-1", "new_per_day -1"},
        {"colour", "red", "colour"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        r = kvt(NULL, "config", "set", bad[i][0], bad[i][1], "--db", db2, NULL);
        if (r.status != 2 || run_count_lines(r.err) != 1 || !strstr(r.err, bad[i][2]))
            fail_msg("config set %s %s: exit %d: %s", bad[i][0], bad[i][1], r.status, r.err);
        run_free(&r);
    }
}

static void test_reset_asks_first(void **state)
{
    (void)state;
    struct run_result r = kvt("n\n", "reset", "kv-cache", "--db", db, NULL);

    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "nothing deleted"));
    run_free(&r);
    r = kvt("", "reset", "kv-cache", "--db", db, NULL); /* no answer at all: no */
    assert_int_equal(r.status, 1);
    run_free(&r);
    r = kvt("y\n", "reset", "kv-cache", "--db", db, NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "2 answers deleted"));
    run_free(&r);
    r = kvt(NULL, "stats", "--json", "--db", db, NULL);
    assert_non_null(strstr(r.out, "\"attempts\": 1,"));
    run_free(&r);
}

static void test_database_errors(void **state)
{
    (void)state;
    char file[160];
    static const char *const cmds[] = {"stats", "export", "config"};
    struct run_result r;

    snprintf(file, sizeof file, "%s/notes.db", dir);
    write_file(file, "not a database, just some notes about the KV cache and its blocks\n");
    for (size_t i = 0; i < 3; i++) {
        const char *targets[][2] = {{dir, "folder"},
                                    {"/nonexistent/dir/p.db", "does not exist"},
                                    {file, "not a kvtutor progress database"}};
        for (size_t k = 0; k < 3; k++) {
            r = strcmp(cmds[i], "config") == 0
                    ? kvt(NULL, cmds[i], "list", "--db", targets[k][0], NULL)
                    : kvt(NULL, cmds[i], "--db", targets[k][0], NULL);
            if (r.status != 1 || run_count_lines(r.err) != 1 || !strstr(r.err, targets[k][1]) ||
                !strstr(r.err, targets[k][0]))
                fail_msg("%s --db %s: exit %d: %s", cmds[i], targets[k][0], r.status, r.err);
            run_free(&r);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_import_then_stats),
        cmocka_unit_test(test_stats_restarts_changed_answers),
        cmocka_unit_test(test_stats_shares_and_counts),
        cmocka_unit_test(test_stats_names),
        cmocka_unit_test(test_export_round_trip),
        cmocka_unit_test(test_csv_export),
        cmocka_unit_test(test_bad_import_changes_nothing),
        cmocka_unit_test(test_config),
        cmocka_unit_test(test_reset_asks_first),
        cmocka_unit_test(test_database_errors),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
