/* test_tutor_queue.c: what is due, counted once. One progress database with
 * known due days, read by tutor_review_counts in-process (the figures the
 * course map and the progress screen draw) and by `kvtutor stats`, text
 * and --json: all say the same. Also the review queue's order and its
 * ties. */
#define _POSIX_C_SOURCE 200809L
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

#include <cmocka.h>

#include "run_cmd.h"
#include "store_report.h"
#include "tmp_dir.h"
#include "tutor_queue.h"

#define DAY 86400

static char dir[64], db[128];
static int64_t now;

/* the bundled lesson the schedules belong to */
static const char lesson_path[] = KVT_SOURCE_DIR "/lessons/part0-foundations/01-kv-cache.lua";

static int64_t fixed_wall(void)
{
    return now;
}

/* A schedule as an import writes it: due on `due` (days from today), last
 * reviewed at `last`, `reps` reviews so far. */
static void schedule(struct store *st, const char *lesson, const char *item, int64_t due,
                     int64_t last, uint32_t reps)
{
    struct store_review r = {.card = {.stability = 5.0, .difficulty = 5.0, .reps = reps},
                             .last_review = last,
                             .due_day = now / DAY + due};
    struct store_error err;
    bool updated;
    assert_int_equal(store_import_review(st, "default", lesson, item, &r, "", "", &updated, &err),
                     KVT_E_OK);
}

/* The database, by hand:
 *
 *   kv-cache per-token         due 2 days ago      due now, this week
 *   kv-cache per-sequence-8k   due today           due now, this week
 *   kv-cache followup-1        due 5 days ago      due now, this week (a follow-up counts)
 *   kv-cache per-sequence-32k  due in 3 days       this week
 *   kv-cache concurrency-24gb  due in 3 days       this week
 *   kv-cache fp8-per-token     first answered today, due in 2 days: this week
 *   kv-cache gqa-saving        due in 10 days      neither
 *   kv-cache gone              due yesterday       not counted: the lesson has no such item
 *   retired  per-token         due yesterday       not counted: no such lesson
 *
 * due now 3, within a week 3 + 3 = 6. new_per_day is 5, one exercise
 * (fp8-per-token) was first answered today: 4 new today, taken from the
 * lesson's 7 exercises never seen (the course's first lesson is kv-cache,
 * so the whole course gives the same 4). The old count of `stats`, every
 * stored schedule, said 5 due now and 8 within a week. */
static int setup(void **state)
{
    struct store *st;
    struct store_error err;
    int64_t old, learner;
    (void)state;
    if (tmp_dir_make(dir, sizeof dir, "kvt_queue_") != 0)
        return -1;
    snprintf(db, sizeof db, "%s/progress.db", dir);
    now = (int64_t)time(NULL);
    old = (now / DAY - 20) * DAY + 3600;
    if (store_open(db, false, &st, &err) != KVT_E_OK ||
        store_learner(st, "default", old, &learner, &err) != KVT_E_OK ||
        store_setting_set(st, "new_per_day", "5", &err) != KVT_E_OK ||
        store_import_begin(st, &err) != KVT_E_OK)
        return -1;
    schedule(st, "kv-cache", "per-token", -2, old, 3);
    schedule(st, "kv-cache", "per-sequence-8k", 0, old, 3);
    schedule(st, "kv-cache", "followup-1", -5, old, 3);
    schedule(st, "kv-cache", "per-sequence-32k", 3, old, 3);
    schedule(st, "kv-cache", "concurrency-24gb", 3, old, 3);
    schedule(st, "kv-cache", "fp8-per-token", 2, now / DAY * DAY, 1);
    schedule(st, "kv-cache", "gqa-saving", 10, old, 3);
    schedule(st, "kv-cache", "gone", -1, old, 3);
    schedule(st, "retired", "per-token", -1, old, 3);
    if (store_import_end(st, true, &err) != KVT_E_OK)
        return -1;
    store_close(st);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    return tmp_dir_remove(dir);
}

struct course {
    struct store *st;
    struct lx_opts opts;
    struct lx_course *course;
    struct tutor_env env;
};

static void open_course(struct course *c)
{
    char *paths[] = {(char *)lesson_path};
    struct store_error err;
    int64_t learner;
    assert_int_equal(store_open(db, false, &c->st, &err), KVT_E_OK);
    assert_int_equal(store_learner(c->st, "default", now, &learner, &err), KVT_E_OK);
    lx_default_opts(&c->opts);
    c->opts.dsl = KVT_SOURCE_DIR "/lua/kvtutor.lua";
    assert_non_null(c->course = lx_course_new(paths, 1, &c->opts));
    assert_int_equal(lx_course_load(c->course, 0, NULL), KVT_E_OK);
    c->env = (struct tutor_env){.store = c->st,
                                .learner_id = learner,
                                .new_per_day = 5,
                                .course = c->course,
                                .facts_given = true, /* no probe run: none */
                                .wall = fixed_wall};
}

static void close_course(struct course *c)
{
    lx_course_free(c->course);
    store_close(c->st);
}

static void test_counts_in_process(void **state)
{
    struct course c;
    struct tutor_review_counts total, slot[1];
    struct store_error err;
    (void)state;
    open_course(&c);
    assert_int_equal(tutor_review_counts(&c.env, &total, slot, &err), KVT_E_OK);
    assert_int_equal(total.due_now, 3);
    assert_int_equal(total.due_week, 6);
    assert_int_equal(total.new_today, 4);
    assert_memory_equal(&slot[0], &total, sizeof total);
    close_course(&c);
}

/* The queue asks what the counts say, in order: the most overdue first. */
static void test_queue_order(void **state)
{
    struct course c;
    struct tutor_queue q;
    struct store_error err;
    const struct lx_lesson *l;
    char id[96];
    static const char *const want[] = {"followup-1",       "per-token",        "per-sequence-8k",
                                       "int4-weights",     "int4-concurrency", "per-sequence-other",
                                       "concurrency-other"};
    (void)state;
    open_course(&c);
    l = lx_course_at(c.course, 0);
    assert_int_equal(tutor_queue_review(&c.env, false, now, NULL, 0, &q, &err), KVT_E_OK);
    assert_int_equal(q.n_due, 3);
    assert_int_equal(q.n, 7);
    for (size_t i = 0; i < q.n; i++)
        assert_string_equal(tutor_item_id(l, q.items[i], id, sizeof id), want[i]);
    tutor_queue_free(&q);
    /* cram: every schedule of the course, due or not, nothing new; the two
     * due in 3 days with one stability tie on their ids */
    assert_int_equal(tutor_queue_review(&c.env, true, now, NULL, 0, &q, &err), KVT_E_OK);
    assert_int_equal(q.n, 7);
    assert_string_equal(tutor_item_id(l, q.items[3], id, sizeof id), "fp8-per-token");
    assert_string_equal(tutor_item_id(l, q.items[4], id, sizeof id), "concurrency-24gb");
    assert_string_equal(tutor_item_id(l, q.items[5], id, sizeof id), "per-sequence-32k");
    assert_string_equal(tutor_item_id(l, q.items[6], id, sizeof id), "gqa-saving");
    tutor_queue_free(&q);
    close_course(&c);
}

/* kvtutor stats over the same database, away from any lessons of the
 * learner's own. */
static struct run_result stats(bool json)
{
    char xdg[96];
    char *argv[] = {(char *)run_kvtutor_path(), "stats", "--db", db, "--learner", "default",
                    json ? "--json" : NULL,     NULL};
    char *envs[] = {xdg, NULL};
    struct run_result r;
    snprintf(xdg, sizeof xdg, "XDG_DATA_HOME=%s", dir);
    assert_int_equal(run_cmd(argv, envs, &r), 0);
    assert_int_equal(r.status, 0);
    return r;
}

static void test_stats_says_the_same(void **state)
{
    struct run_result r = stats(true);
    json_error_t e;
    json_t *j = json_loads(r.out, 0, &e), *lessons;
    (void)state;
    assert_non_null(j);
    assert_int_equal(json_integer_value(json_object_get(j, "due_now")), 3);
    assert_int_equal(json_integer_value(json_object_get(j, "due_week")), 6);
    assert_int_equal(json_integer_value(json_object_get(j, "new_today")), 4);
    /* no answers, so no lesson rows: the figures are the course's */
    lessons = json_object_get(j, "lessons");
    assert_int_equal(json_array_size(lessons), 0);
    json_decref(j);
    run_free(&r);
}

static void test_stats_text_says_the_same(void **state)
{
    struct run_result r;
    struct store *st;
    struct store_error err;
    int64_t learner;
    struct store_attempt a = {.module = "part0",
                              .lesson_id = "kv-cache",
                              .exercise_id = "per-token",
                              .concept = "kv-cache",
                              .answer = "56 KiB",
                              .verdict = "correct",
                              .score = 1,
                              .created_at = (now / DAY - 20) * DAY + 3600};
    (void)state;
    /* one old answer (no rating: the schedule stays), so the text has its
     * figures and a lesson row */
    assert_int_equal(store_open(db, false, &st, &err), KVT_E_OK);
    assert_int_equal(store_learner(st, "default", now, &learner, &err), KVT_E_OK);
    a.learner_id = learner;
    assert_int_equal(store_new_uid(a.uid), KVT_E_OK);
    assert_int_equal(store_record_attempt(st, &a, NULL, NULL, &err), KVT_E_OK);
    store_close(st);
    r = stats(false);
    assert_non_null(strstr(r.out, "  due         3 now, 6 within a week\n"));
    assert_non_null(strstr(r.out, "  new today   4\n"));
    /* the lesson's row: DUE 3, WEEK 6 */
    assert_non_null(strstr(r.out, "        3        6\n"));
    run_free(&r);
    r = stats(true);
    {
        json_error_t e;
        json_t *j = json_loads(r.out, 0, &e);
        json_t *l = json_array_get(json_object_get(j, "lessons"), 0);
        assert_non_null(l);
        assert_int_equal(json_integer_value(json_object_get(j, "due_now")), 3);
        assert_int_equal(json_integer_value(json_object_get(l, "due_now")), 3);
        assert_int_equal(json_integer_value(json_object_get(l, "due_week")), 6);
        json_decref(j);
    }
    run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts_in_process),
        cmocka_unit_test(test_queue_order),
        cmocka_unit_test(test_stats_says_the_same),
        cmocka_unit_test(test_stats_text_says_the_same),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
