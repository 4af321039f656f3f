/* test_tutor_session.c: the quiz flow in-process, as the app's quiz screen
 * and `kvtutor ask` drive it: practice, review, cram, interview, the rating
 * rules, and a lesson whose expected answer changes restarting the item's
 * schedule on reload. The clocks are the test's own, so "quick", "today"
 * and "due" are exact. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "store_report.h"
#include "tutor_names.h"
#include "tutor_progress.h"
#include "tmp_dir.h"
#include "tutor_queue.h"
#include "tutor_session.h"
#include "tutor_sync.h"

#define DAY 86400

static double mono_now;
static int64_t wall_now;

static double fake_monotonic(void)
{
    return mono_now;
}

static int64_t fake_wall(void)
{
    return wall_now;
}

/* The lesson, with its per-token answer and prompt as parameters, so a test
 * can rewrite the file as an author would. 57,344 B is Qwen2.5-7B's KV per
 * token: 2 (K and V) x 28 layers x 4 KV heads x 128 head_dim x 2 bytes. */
static const char lesson_fmt[] =
    "return lesson {\n"
    "  id = \"tutor-test\", title = \"Session rules\", module = \"tests\",\n"
    "  baseline = \"hand arithmetic\", concept = \"kv-cache\",\n"
    "  question = \"Why does the KV cache cap concurrency?\",\n"
    "  answer = \"Each sequence keeps its keys and values in GPU memory.\",\n"
    "  points = { point { \"memory per sequence\", accept = {\"gpu memory\"} } },\n"
    "  sections = { section { title = \"T\", text = \"x\" } },\n"
    "  worked = \"2 * 28 * 4 * 128 * 2 = 57,344 B\",\n"
    "  followups = { followup { question = \"How would you halve it?\",\n"
    "    answer = \"Store the cache in fp8.\",\n"
    "    points = { point { \"fp8 cache\", accept = {\"fp8\"} } },\n"
    "    misconceptions = { misconception { about = {\"PagedAttention\"},\n"
    "      said = {\"compresses\"}, why = \"it stores the same bytes; it wastes less\" } } } },\n"
    "  exercises = {\n"
    "    numeric { id = \"per-token\", prompt = \"%s\", expected = %s, unit = \"B\",\n"
    "              hints = { \"2 x layers x KV heads x head_dim x bytes\" } },\n"
    "    choice { id = \"bound\", prompt = \"Decode is bound by?\",\n"
    "             options = { option { \"memory bandwidth\", correct = true }, \"compute\" } },\n"
    "  },\n"
    "}\n";

struct fx {
    char dir[256], lesson_path[320];
    struct store *st;
    int64_t learner;
    struct lx_opts opts;
    struct lx_course *course; /* the one lesson file */
    struct tutor_env env;
};

static void write_lesson(struct fx *f, const char *prompt, const char *expected)
{
    FILE *fp = fopen(f->lesson_path, "w");
    assert_non_null(fp);
    fprintf(fp, lesson_fmt, prompt, expected);
    fclose(fp);
}

/* Loads (or reloads) the lesson and syncs its schedules, as the app does at
 * start and the reader on `r`; returns how many schedules started over. */
static size_t load(struct fx *f)
{
    struct lx_report rep = {0};
    struct lx_lesson *l = NULL;
    struct store_error err;
    size_t restarted = 99;
    if (!lx_course_at(f->course, 0)) {
        assert_int_equal(lx_course_load(f->course, 0, NULL), KVT_E_OK);
    } else {
        if (lx_load(f->lesson_path, &f->opts, &l, &rep) != KVT_E_OK)
            fail_msg("%s", rep.n ? rep.items[0].msg : "cannot load");
        lx_report_free(&rep);
        lx_course_replace(f->course, 0, l);
    }
    l = lx_course_at(f->course, 0);
    assert_int_equal(tutor_sync_lesson(f->st, f->learner, l, &restarted, &err), KVT_E_OK);
    return restarted;
}

static int setup(void **state)
{
    struct fx *f = calloc(1, sizeof *f);
    char db[320];
    struct store_error err;
    if (!f || tmp_dir_make(f->dir, sizeof f->dir, "kvt_tutor_") != 0)
        return -1;
    snprintf(f->lesson_path, sizeof f->lesson_path, "%s/lesson.lua", f->dir);
    snprintf(db, sizeof db, "%s/progress.db", f->dir);
    if (store_open(db, false, &f->st, &err) != KVT_E_OK ||
        store_learner(f->st, "default", 1000, &f->learner, &err) != KVT_E_OK)
        return -1;
    lx_default_opts(&f->opts);
    f->opts.dsl = KVT_SOURCE_DIR "/lua/kvtutor.lua";
    write_lesson(f, "Bytes per token?", "57344");
    {
        char *paths[] = {f->lesson_path};
        if (!(f->course = lx_course_new(paths, 1, &f->opts)))
            return -1;
    }
    load(f);
    mono_now = 1000;
    wall_now = 20000 * (int64_t)DAY + 3600; /* 01:00 UTC */
    f->env = (struct tutor_env){
        .store = f->st,
        .learner_id = f->learner,
        .new_per_day = 20,
        .course = f->course,
        .fixed_seed = true,
        .seed = 1,
        .monotonic = fake_monotonic,
        .wall = fake_wall,
    };
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fx *f = *state;
    lx_course_free(f->course);
    store_close(f->st);
    tmp_dir_remove(f->dir);
    free(f);
    return 0;
}

/* Answers the current item after `seconds`; returns what the session said. */
static enum tutor_answered answer(struct tutor_session *s, const char *typed, double seconds)
{
    char why[256];
    struct store_error err;
    assert_int_equal(tutor_begin(s, why, sizeof why), KVT_E_OK);
    mono_now += seconds;
    return tutor_answer(s, typed, &err);
}

struct count {
    int n, rated;
    char last_verdict[16];
};

static int count_attempt(void *ctx, const char *learner, const struct store_attempt *a)
{
    struct count *c = ctx;
    (void)learner;
    c->n++;
    c->rated += a->rating != 0;
    snprintf(c->last_verdict, sizeof c->last_verdict, "%s", a->verdict);
    return 0;
}

static struct count attempts(struct fx *f)
{
    struct count c = {0};
    struct store_error err;
    assert_int_equal(store_each_attempt(f->st, count_attempt, &c, &err), KVT_E_OK);
    return c;
}

static bool review_of(struct fx *f, const char *item, struct store_review *r)
{
    struct store_error err;
    return store_review_get(f->st, f->learner, "tutor-test", item, r, &err) == KVT_E_OK;
}

static void test_practice_records_and_rates(void **state)
{
    struct fx *f = *state;
    struct store_error err;
    struct store_review r;
    bool done, found;
    char pos[32];
    struct tutor_session *s;

    /* the app opens the lesson (the reader keeps a position) before practice */
    assert_int_equal(store_lesson_seen(f->st, f->learner, "tutor-test", "line:0", wall_now, &err),
                     KVT_E_OK);
    s = tutor_session_practice(&f->env, 0, false, NULL);
    /* the exercises in lesson order, then the follow-up */
    assert_int_equal(tutor_count(s), 3);
    assert_int_equal(tutor_item_at(s, 2).part, TUTOR_FOLLOWUP);
    /* 56 KiB = 57,344 B, right within the quick time: Easy */
    assert_int_equal(answer(s, "56 KiB", 5), TUTOR_GRADED);
    assert_int_equal(tutor_attempt(s)->grade.verdict, KV_CORRECT);
    /* from an exercise, the follow-up is ahead to skip to */
    assert_true(tutor_followups_ahead(s));
    assert_int_equal(tutor_attempt(s)->rating, FSRS_EASY);
    assert_int_equal(attempts(f).n, 1); /* recorded the moment it was given */
    assert_false(review_of(f, "per-token", &r));
    assert_int_equal(tutor_next(s, &err), KVT_E_OK);
    assert_true(review_of(f, "per-token", &r));
    assert_int_equal(r.card.reps, 1);
    /* the choice, right but slow: Good */
    assert_int_equal(answer(s, "1", 45), TUTOR_GRADED);
    assert_int_equal(tutor_attempt(s)->rating, FSRS_GOOD);
    /* the learner may lower it */
    assert_null(tutor_choose(s, FSRS_AGAIN));
    assert_int_equal(tutor_next(s, &err), KVT_E_OK);
    /* the follow-up, named as the database keys it */
    assert_int_equal(answer(s, "I would keep the cache in fp8", 10), TUTOR_GRADED);
    assert_string_equal(tutor_attempt(s)->id, "followup-1");
    /* from a follow-up there is nothing to skip to: Enter goes on */
    assert_false(tutor_followups_ahead(s));
    {
        bool moved = true;
        assert_int_equal(tutor_to_followups(s, &moved, &err), KVT_E_OK);
        assert_false(moved);
    }
    assert_string_equal(tutor_attempt(s)->id, "followup-1");
    assert_int_equal(tutor_next(s, &err), KVT_E_OK);
    assert_true(tutor_finished(s));
    assert_int_equal(tutor_finish(s, &err), KVT_E_OK);
    assert_int_equal(
        store_lesson_get(f->st, f->learner, "tutor-test", pos, sizeof pos, &done, &found, &err),
        KVT_E_OK);
    assert_true(found && done);
    assert_int_equal(attempts(f).rated, 3);
    assert_true(review_of(f, "followup-1", &r));
    tutor_session_free(s);
}

/* A misconception in an answer in words is recorded as the attempt's
 * diagnosis, as a numeric slip is, and named by what it is about and its
 * correction up to the first clause. */
static void test_misconception_recorded(void **state)
{
    struct fx *f = *state;
    struct store_error err;
    struct store_stats st;
    char name[256];
    struct tutor_session *s = tutor_session_practice(&f->env, 0, true, NULL);

    assert_int_equal(answer(s, "PagedAttention compresses the cache", 10), TUTOR_GRADED);
    assert_true(tutor_attempt(s)->diagnosed);
    assert_int_equal(strncmp(tutor_attempt(s)->record.diagnosis, "misconception-", 14), 0);
    assert_int_equal(tutor_next(s, &err), KVT_E_OK);
    tutor_session_free(s);
    assert_int_equal(store_stats(f->st, f->learner, wall_now, &st, &err), KVT_E_OK);
    assert_int_equal(st.n_weakest, 1);
    assert_string_equal(tutor_diagnosis_name(f->course, st.weakest[0].diagnosis, name, sizeof name),
                        "misconception about PagedAttention: it stores the same bytes");
    store_stats_free(&st);
    /* a numeric slip still by its own id: 28,672 B is half of 57,344 */
    s = tutor_session_practice(&f->env, 0, false, NULL);
    assert_int_equal(answer(s, "28672 B", 10), TUTOR_GRADED);
    assert_string_equal(tutor_attempt(s)->record.diagnosis, "no-kv-pair");
    tutor_session_free(s);
}

static void test_unreadable_is_not_an_answer(void **state)
{
    struct fx *f = *state;
    struct store_error err;
    struct tutor_session *s = tutor_session_practice(&f->env, 0, false, NULL);

    /* "fast" is no number; a speed is not a size: neither is recorded */
    assert_int_equal(answer(s, "fast", 3), TUTOR_UNREAD);
    assert_true(tutor_attempt(s)->grade.why[0] != '\0');
    assert_int_equal(tutor_answer(s, "3 GB/s", &err), TUTOR_UNREAD);
    assert_int_equal(attempts(f).n, 0);
    assert_non_null(tutor_choose(s, FSRS_GOOD)); /* nothing to rate */
    /* the learner types again and that answer counts */
    assert_int_equal(tutor_answer(s, "57344 B", &err), TUTOR_GRADED);
    assert_int_equal(attempts(f).n, 1);
    tutor_skip(s);
    /* option 3 of two is not an answer either */
    assert_int_equal(answer(s, "3", 1), TUTOR_UNREAD);
    assert_int_equal(attempts(f).n, 1);
    tutor_session_free(s);
}

/* The database deleted mid-session: the next answer is saved all the same
 * (the file is written back with the first one), and the screens are given
 * a sentence to say so, once; with another file in its place, the answer is
 * not acknowledged as saved: TUTOR_UNSAVED with the reason. */
static void test_db_deleted_mid_session(void **state)
{
    struct fx *f = *state;
    struct store_error err;
    struct stat sb;
    char db[320], why[256];
    FILE *other;
    struct tutor_session *s = tutor_session_practice(&f->env, 0, false, NULL);

    snprintf(db, sizeof db, "%s/progress.db", f->dir);
    assert_int_equal(answer(s, "57344 B", 3), TUTOR_GRADED);
    assert_null(tutor_db_notice(f->st));
    assert_int_equal(unlink(db), 0);
    assert_int_equal(tutor_retry(s, &err), KVT_E_OK);
    assert_int_equal(answer(s, "57344 B", 3), TUTOR_GRADED);
    assert_non_null(strstr(tutor_db_notice(f->st), "deleted while kvtutor ran"));
    assert_null(tutor_db_notice(f->st));
    assert_int_equal(stat(db, &sb), 0);
    assert_int_equal(attempts(f).n, 2);

    /* a stranger's file where it was */
    assert_int_equal(unlink(db), 0);
    other = fopen(db, "w");
    assert_non_null(other);
    fputs("not a database\n", other);
    fclose(other);
    assert_int_equal(tutor_retry(s, &err), KVT_E_OK);
    assert_int_equal(tutor_begin(s, why, sizeof why), KVT_E_OK);
    assert_int_equal(tutor_answer(s, "57344 B", &err), TUTOR_UNSAVED);
    assert_int_equal(err.code, KVT_E_DB_GONE);
    assert_non_null(strstr(err.detail, "progress.db.recovered"));
    assert_true(tutor_unsaved(s));
    assert_null(tutor_db_notice(f->st));
    tutor_session_free(s);
}

static void test_hinted_right_is_at_most_hard(void **state)
{
    struct fx *f = *state;
    struct store_error err;
    struct store_review r;
    char why[256];
    struct tutor_session *s = tutor_session_practice(&f->env, 0, false, NULL);

    assert_int_equal(tutor_begin(s, why, sizeof why), KVT_E_OK);
    assert_int_equal(tutor_hints_total(s), 1);
    assert_true(tutor_hint(s));
    assert_false(tutor_hint(s)); /* only one */
    mono_now += 5;
    assert_int_equal(tutor_answer(s, "57344", &err), TUTOR_GRADED);
    assert_int_equal(tutor_attempt(s)->rating, FSRS_HARD);
    assert_non_null(tutor_choose(s, FSRS_GOOD));
    assert_non_null(tutor_choose(s, FSRS_EASY));
    assert_int_equal(tutor_attempt(s)->rating, FSRS_HARD);
    assert_null(tutor_choose(s, FSRS_AGAIN));
    assert_int_equal(tutor_next(s, &err), KVT_E_OK);
    assert_true(review_of(f, "per-token", &r));
    assert_true(tutor_attempt(s)->record.hinted);
    tutor_session_free(s);
}

static void test_retry_after_answer_is_practice(void **state)
{
    struct fx *f = *state;
    struct store_error err;
    struct store_review first, after;
    char why[256];
    struct tutor_session *s = tutor_session_practice(&f->env, 0, false, NULL);

    /* wrong: half the true figure (the x2 for K and V left out) */
    assert_int_equal(answer(s, "28672 B", 8), TUTOR_GRADED);
    assert_int_equal(tutor_attempt(s)->grade.verdict, KV_WRONG);
    assert_true(tutor_attempt(s)->diagnosed);
    assert_int_equal(tutor_attempt(s)->rating, FSRS_AGAIN);
    assert_int_equal(tutor_retry(s, &err), KVT_E_OK);
    assert_true(review_of(f, "per-token", &first));
    /* the retry, right now that the answer was shown: recorded, not rated */
    assert_int_equal(tutor_begin(s, why, sizeof why), KVT_E_OK);
    assert_true(tutor_attempt(s)->practice);
    mono_now += 3;
    assert_int_equal(tutor_answer(s, "57344 B", &err), TUTOR_GRADED);
    assert_int_equal(tutor_attempt(s)->rating, 0);
    assert_non_null(tutor_choose(s, FSRS_EASY));
    assert_int_equal(tutor_next(s, &err), KVT_E_OK);
    assert_true(review_of(f, "per-token", &after));
    assert_int_equal(after.card.reps, first.card.reps);
    assert_int_equal(after.due_day, first.due_day);
    assert_int_equal(attempts(f).n, 2);
    assert_int_equal(attempts(f).rated, 1);
    tutor_session_free(s);

    /* a new session the same day: still practice; the next day, a review
     * (per-token has an answer, so practice would resume past it: asked
     * for by name, as a search that found it opens it) */
    s = tutor_session_practice(&f->env, 0, false, NULL);
    assert_true(tutor_seek(s, TUTOR_EXERCISE, 0));
    assert_int_equal(tutor_begin(s, why, sizeof why), KVT_E_OK);
    assert_true(tutor_attempt(s)->practice);
    tutor_session_free(s);
    wall_now += DAY;
    s = tutor_session_practice(&f->env, 0, false, NULL);
    assert_true(tutor_seek(s, TUTOR_EXERCISE, 0));
    assert_int_equal(tutor_begin(s, why, sizeof why), KVT_E_OK);
    assert_false(tutor_attempt(s)->practice);
    tutor_session_free(s);
}

/* Rates the first exercise Good on the fixture's day. */
static void review_per_token(struct fx *f, int rating)
{
    struct store_error err;
    struct tutor_session *s = tutor_session_practice(&f->env, 0, false, NULL);
    assert_true(tutor_seek(s, TUTOR_EXERCISE, 0)); /* answered before: not where it resumes */
    assert_int_equal(answer(s, "57344 B", 30), TUTOR_GRADED);
    assert_null(tutor_choose(s, rating));
    assert_int_equal(tutor_next(s, &err), KVT_E_OK);
    tutor_session_free(s);
}

/* Practice resumes at the first item never answered (per-token answered,
 * bound skipped: it resumes at bound), and the lesson is done once every
 * item has an answer, per-token's from the earlier session included. A
 * skipped item records nothing. With every item answered it starts over. */
static void test_practice_resumes_where_left(void **state)
{
    struct fx *f = *state;
    struct store_error err;
    char why[256], pos[64];
    bool done, found;
    struct tutor_session *s = tutor_session_practice(&f->env, 0, false, NULL);

    assert_int_equal(store_lesson_seen(f->st, f->learner, "tutor-test", "line:0", wall_now, &err),
                     KVT_E_OK);
    assert_int_equal(tutor_resumed_at(s), 0);
    assert_int_equal(answer(s, "57344 B", 30), TUTOR_GRADED);
    assert_int_equal(tutor_next(s, &err), KVT_E_OK);
    assert_int_equal(tutor_begin(s, why, sizeof why), KVT_E_OK);
    assert_string_equal(tutor_attempt(s)->id, "bound");
    tutor_pass(s); /* C-n: on to the follow-up, bound left unanswered */
    assert_int_equal(attempts(f).n, 1);
    {
        struct tutor_summary sum;
        tutor_summary(s, &sum);
        assert_int_equal(sum.passed, 1); /* the summary says one was skipped */
        assert_int_equal(sum.answered, 1);
    }
    tutor_session_free(s);

    s = tutor_session_practice(&f->env, 0, false, NULL);
    assert_int_equal(tutor_resumed_at(s), 1);
    assert_int_equal(tutor_begin(s, why, sizeof why), KVT_E_OK);
    assert_string_equal(tutor_attempt(s)->id, "bound");
    assert_false(tutor_seek(s, TUTOR_EXERCISE, 0)); /* begun: the attempt in hand stays */
    mono_now += 5;
    assert_int_equal(tutor_answer(s, "1", &err), TUTOR_GRADED);
    assert_int_equal(tutor_next(s, &err), KVT_E_OK);
    assert_int_equal(answer(s, "store it in fp8", 10), TUTOR_GRADED);
    assert_int_equal(tutor_next(s, &err), KVT_E_OK);
    assert_true(tutor_finished(s));
    assert_int_equal(tutor_finish(s, &err), KVT_E_OK);
    tutor_session_free(s);
    assert_int_equal(
        store_lesson_get(f->st, f->learner, "tutor-test", pos, sizeof pos, &done, &found, &err),
        KVT_E_OK);
    assert_true(found && done);

    s = tutor_session_practice(&f->env, 0, false, NULL);
    assert_int_equal(tutor_resumed_at(s), 0);
    assert_false(tutor_seek(s, TUTOR_QUESTION, 0)); /* practice has no question item */
    tutor_session_free(s);
}

static void test_review_queue_and_new_per_day(void **state)
{
    struct fx *f = *state;
    struct store_review r;
    struct store_error err;
    struct tutor_session *s;

    /* nothing seen: new exercises only, new_per_day of them, in lesson order */
    f->env.new_per_day = 1;
    s = tutor_session_review(&f->env, false);
    assert_int_equal(tutor_count(s), 1);
    assert_int_equal(tutor_item_at(s, 0).index, 0);
    tutor_session_free(s);
    f->env.new_per_day = 0;
    s = tutor_session_review(&f->env, false);
    assert_true(tutor_finished(s)); /* nothing due, nothing new allowed */
    tutor_session_free(s);

    review_per_token(f, FSRS_GOOD);
    assert_true(review_of(f, "per-token", &r));
    /* new exercises a day, not a session: per-token, first answered today,
     * was today's one, so "bound" waits for tomorrow */
    f->env.new_per_day = 1;
    s = tutor_session_review(&f->env, false);
    assert_true(tutor_finished(s));
    tutor_session_free(s);
    /* not due the same day; on its due day it comes back, before new ones */
    f->env.new_per_day = 5;
    s = tutor_session_review(&f->env, false);
    assert_int_equal(tutor_count(s), 1); /* only "bound", new */
    assert_int_equal(tutor_item_at(s, 0).index, 1);
    tutor_session_free(s);
    wall_now = r.due_day * DAY + 3600;
    s = tutor_session_review(&f->env, false);
    assert_int_equal(tutor_count(s), 2);
    assert_int_equal(tutor_item_at(s, 0).index, 0);
    assert_int_equal(tutor_item_at(s, 1).index, 1);
    tutor_session_free(s);
    /* the counts say the same: per-token due (in slot 0), "bound" new */
    {
        struct tutor_review_counts total, due[1];
        assert_int_equal(tutor_review_counts(&f->env, &total, due, &err), KVT_E_OK);
        assert_int_equal(total.due_now, 1);
        assert_int_equal(total.new_today, 1);
        assert_int_equal(due[0].due_now, 1);
        assert_int_equal(due[0].new_today, 1);
    }
}

static void test_cram_asks_no_rating(void **state)
{
    struct fx *f = *state;
    struct store_error err;
    struct store_review before, after;
    struct tutor_session *s;

    review_per_token(f, FSRS_GOOD);
    assert_true(review_of(f, "per-token", &before));
    wall_now += 3 * DAY; /* cram is not held back by "reviewed today" */
    s = tutor_session_review(&f->env, true);
    assert_int_equal(tutor_mode(s), TUTOR_CRAM);
    assert_int_equal(tutor_count(s), 1); /* everything seen, due or not */
    assert_int_equal(answer(s, "57344 B", 2), TUTOR_GRADED);
    assert_int_equal(tutor_attempt(s)->rating, 0);
    assert_int_equal(tutor_attempt(s)->max_rating, 0);
    assert_non_null(tutor_choose(s, FSRS_EASY));
    assert_int_equal(tutor_next(s, &err), KVT_E_OK);
    assert_true(review_of(f, "per-token", &after));
    assert_int_equal(after.card.reps, before.card.reps);
    assert_int_equal(after.due_day, before.due_day);
    assert_int_equal(attempts(f).n, 2);
    assert_int_equal(attempts(f).rated, 1);
    tutor_session_free(s);
}

static void test_interview_summary(void **state)
{
    struct fx *f = *state;
    struct store_error err;
    struct tutor_summary sum;
    struct tutor_session *s = tutor_session_interview(&f->env, 0);

    /* the lesson's question (it has key points), then its follow-up */
    assert_int_equal(tutor_count(s), 2);
    assert_int_equal(tutor_item_at(s, 0).part, TUTOR_QUESTION);
    assert_int_equal(answer(s, "Every sequence holds its K and V in GPU memory", 40), TUTOR_GRADED);
    assert_string_equal(tutor_attempt(s)->id, "question");
    assert_int_equal(tutor_attempt(s)->grade.verdict, KV_CORRECT);
    assert_int_equal(tutor_next(s, &err), KVT_E_OK);
    /* nothing right and nothing against it: unsure, kept as such, no rating */
    assert_int_equal(answer(s, "Buy a bigger GPU", 20), TUTOR_GRADED);
    assert_int_equal(tutor_attempt(s)->grade.verdict, KV_UNSURE);
    assert_string_equal(tutor_attempt(s)->record.verdict, "unsure");
    assert_int_equal(tutor_attempt(s)->rating, 0);
    assert_true(tutor_attempt(s)->saved);
    assert_int_equal(tutor_next(s, &err), KVT_E_OK);
    assert_true(tutor_finished(s));
    assert_int_equal(tutor_finish(s, &err), KVT_E_OK);
    tutor_summary(s, &sum);
    /* one of two: score (1 + 0) / 2 = 0.5, under 0.7: the concept to review */
    assert_int_equal(sum.answered, 2);
    assert_int_equal(sum.right, 1);
    assert_float_equal(sum.score, 0.5, 1e-9);
    assert_int_equal(sum.n_times, 2);
    assert_float_equal(sum.times[0], 40, 1e-9);
    assert_float_equal(sum.times[1], 20, 1e-9);
    assert_float_equal(sum.seconds, 60, 1e-9);
    assert_non_null(sum.review);
    assert_string_equal(sum.review, "kv-cache");
    tutor_session_free(s);
}

struct hashes {
    int rows, empty;
};

static int count_hashes(void *ctx, const char *learner, const char *lesson_id,
                        const char *exercise_id, const struct store_review *r,
                        const char *content_hash, const char *answer_hash)
{
    struct hashes *h = ctx;
    (void)learner, (void)lesson_id, (void)exercise_id, (void)r;
    h->rows++;
    h->empty += !content_hash[0] || !answer_hash[0];
    return 0;
}

/* A timed mock interview: 60 s an answer, 2 min in all. The first answer's
 * time runs out with nothing typed: it is passed, nothing recorded; the
 * second (the last) is answered past the 2 minutes: the interview ends for
 * want of questions, not of time. In a second interview the 2 minutes run
 * out mid-answer, with words typed that are no answer: it ends there, said
 * in the summary. In a third the answer's time runs out on a typed answer:
 * it is graded as given and recorded. Practice is never timed, nor an
 * interview without limits. */
static void test_interview_limits(void **state)
{
    struct fx *f = *state;
    struct store_error err;
    struct tutor_summary sum;
    struct tutor_clock c;
    struct tutor_cutoff cut;
    char why[256];
    struct tutor_env env = f->env;
    struct tutor_session *s;

    env.interview_answer_seconds = 60;
    env.interview_minutes = 2;
    s = tutor_session_interview(&env, 0);
    assert_int_equal(tutor_begin(s, why, sizeof why), KVT_E_OK);
    tutor_interview_clock(s, &c);
    assert_true(c.answer_limited && c.session_limited);
    assert_true(c.answer_left == 60 && c.session_left == 120);
    mono_now += 59;
    assert_int_equal(tutor_time_up(s), TUTOR_TIME_OK);
    cut = tutor_cut_off(s, "the KV cache", &err); /* time left: nothing happens */
    assert_int_equal(cut.why, TUTOR_TIME_OK);
    assert_false(cut.taken || cut.unread || cut.ended);
    assert_int_equal(tutor_position(s), 0);
    mono_now += 1; /* 60 s: zero */
    assert_int_equal(tutor_time_up(s), TUTOR_TIME_ANSWER_UP);
    cut = tutor_cut_off(s, "", &err);
    assert_int_equal(cut.why, TUTOR_TIME_ANSWER_UP);
    assert_false(cut.taken || cut.unread || cut.ended);
    assert_int_equal(tutor_position(s), 1);
    assert_int_equal(attempts(f).n, 0);

    assert_int_equal(answer(s, "store it in fp8", 30), TUTOR_GRADED); /* 90 s in */
    assert_int_equal(tutor_time_up(s), TUTOR_TIME_OK); /* a graded answer is not cut off */
    mono_now += 31;                                    /* 121 s: past the 2 minutes */
    assert_int_equal(tutor_next(s, &err), KVT_E_OK);
    assert_true(tutor_finished(s));
    tutor_summary(s, &sum);
    assert_int_equal(sum.answered, 1);
    assert_int_equal(sum.passed, 1);
    assert_false(sum.out_of_time);
    assert_int_equal(attempts(f).n, 1);
    tutor_session_free(s);

    /* the whole interview's time, at zero, mid-answer */
    s = tutor_session_interview(&env, 0);
    assert_int_equal(tutor_begin(s, why, sizeof why), KVT_E_OK);
    mono_now += 50;
    assert_int_equal(tutor_answer(s, "the KV cache takes gpu memory per sequence", &err),
                     TUTOR_GRADED);
    assert_int_equal(tutor_next(s, &err), KVT_E_OK);
    assert_int_equal(tutor_begin(s, why, sizeof why), KVT_E_OK);
    mono_now += 70; /* 120 s in all, 70 s into this answer: the interview's limit first */
    assert_int_equal(tutor_time_up(s), TUTOR_TIME_SESSION_UP);
    cut = tutor_cut_off(s, "?!", &err); /* no words: not an answer */
    assert_int_equal(cut.why, TUTOR_TIME_SESSION_UP);
    assert_false(cut.taken);
    assert_true(cut.unread && cut.ended);
    assert_string_equal(cut.unread_why, "no answer: write what you would say");
    assert_true(tutor_finished(s));
    tutor_summary(s, &sum);
    assert_true(sum.out_of_time);
    assert_int_equal(sum.answered, 1);
    assert_int_equal(sum.passed, 1);
    assert_int_equal(sum.unread, 1);
    assert_int_equal(attempts(f).n, 2); /* one from each interview; "?!" recorded nothing */
    tutor_session_free(s);

    /* the answer's own limit on a typed answer: graded as given, recorded */
    s = tutor_session_interview(&env, 0);
    assert_int_equal(tutor_begin(s, why, sizeof why), KVT_E_OK);
    mono_now += 60;
    cut = tutor_cut_off(s, "each sequence keeps its KV cache in gpu memory", &err);
    assert_int_equal(cut.why, TUTOR_TIME_ANSWER_UP);
    assert_true(cut.taken);
    assert_int_equal(cut.graded, TUTOR_GRADED);
    assert_false(cut.unread || cut.ended);
    assert_true(tutor_attempt(s)->graded);
    assert_int_equal(tutor_time_up(s), TUTOR_TIME_OK); /* graded: not cut off again */
    assert_int_equal(attempts(f).n, 3);
    assert_int_equal(tutor_next(s, &err), KVT_E_OK);
    tutor_summary(s, &sum);
    assert_int_equal(sum.answered, 1);
    assert_int_equal(sum.passed, 0);
    tutor_session_free(s);

    s = tutor_session_practice(&env, 0, false, NULL);
    assert_int_equal(tutor_begin(s, why, sizeof why), KVT_E_OK);
    mono_now += 1000;
    tutor_interview_clock(s, &c);
    assert_false(c.answer_limited || c.session_limited);
    assert_int_equal(tutor_time_up(s), TUTOR_TIME_OK);
    tutor_session_free(s);
    s = tutor_session_interview(&f->env, 0); /* the fixture's env: no limits */
    assert_int_equal(tutor_begin(s, why, sizeof why), KVT_E_OK);
    mono_now += 100000;
    assert_int_equal(tutor_time_up(s), TUTOR_TIME_OK);
    tutor_session_free(s);
}

static void test_changed_answer_restarts_schedule(void **state)
{
    struct fx *f = *state;
    struct store_error err;
    struct store_review r;
    struct hashes h = {0};
    struct tutor_session *s;

    review_per_token(f, FSRS_GOOD);
    /* every schedule carries the fingerprints it was trained on */
    assert_int_equal(store_each_review(f->st, count_hashes, &h, &err), KVT_E_OK);
    assert_int_equal(h.rows, 1);
    assert_int_equal(h.empty, 0);
    /* reloaded unchanged: kept */
    assert_int_equal(load(f), 0);
    assert_true(review_of(f, "per-token", &r));
    /* new wording, same answer: kept */
    write_lesson(f, "How many bytes does one token keep?", "57344");
    assert_int_equal(load(f), 0);
    assert_true(review_of(f, "per-token", &r));
    assert_int_equal(r.card.reps, 1);
    /* a new expected answer (fp8: half the bytes): the schedule starts over */
    write_lesson(f, "How many bytes does one token keep?", "28672");
    assert_int_equal(load(f), 1);
    assert_false(review_of(f, "per-token", &r));
    assert_int_equal(attempts(f).n, 1); /* the history stays */
    /* the item is new again: the review queue offers it as new */
    f->env.new_per_day = 1;
    s = tutor_session_review(&f->env, false);
    assert_int_equal(tutor_count(s), 1);
    assert_int_equal(tutor_item_at(s, 0).index, 0);
    tutor_session_free(s);
}

/* The suggested rating, one row a case (quick time 10 s here). */
static void test_rating_rule(void **state)
{
    static const struct {
        bool correct, hinted;
        double seconds;
        enum fsrs_rating want;
    } rows[] = {
        {false, false, 3, FSRS_AGAIN}, {false, true, 3, FSRS_AGAIN}, {true, true, 3, FSRS_HARD},
        {true, true, 45, FSRS_HARD},   {true, false, 3, FSRS_EASY},  {true, false, 10, FSRS_EASY},
        {true, false, 45, FSRS_GOOD},
    };
    (void)state;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        assert_int_equal(tutor_rating_rule(rows[i].correct, rows[i].hinted, rows[i].seconds, 10),
                         rows[i].want);
}

static void test_fingerprints(void **state)
{
    struct fx *f = *state;
    struct tutor_fingerprint a, b;
    struct tutor_item it = {0, TUTOR_EXERCISE, 0};
    tutor_fingerprint(lx_course_at(f->course, 0), it, &a);
    assert_int_equal(strlen(a.content), 16);
    assert_int_equal(strlen(a.answer), 16);
    write_lesson(f, "Bytes per token?", "57345");
    load(f);
    tutor_fingerprint(lx_course_at(f->course, 0), it, &b);
    assert_string_equal(a.content, b.content);
    assert_string_not_equal(a.answer, b.answer);
    /* the choice's right option is its answer */
    it.index = 1;
    tutor_fingerprint(lx_course_at(f->course, 0), it, &a);
    it = (struct tutor_item){0, TUTOR_FOLLOWUP, 0};
    tutor_fingerprint(lx_course_at(f->course, 0), it, &b);
    assert_string_not_equal(a.answer, b.answer);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_practice_records_and_rates, setup, teardown),
        cmocka_unit_test_setup_teardown(test_misconception_recorded, setup, teardown),
        cmocka_unit_test_setup_teardown(test_db_deleted_mid_session, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unreadable_is_not_an_answer, setup, teardown),
        cmocka_unit_test_setup_teardown(test_hinted_right_is_at_most_hard, setup, teardown),
        cmocka_unit_test_setup_teardown(test_retry_after_answer_is_practice, setup, teardown),
        cmocka_unit_test_setup_teardown(test_practice_resumes_where_left, setup, teardown),
        cmocka_unit_test_setup_teardown(test_review_queue_and_new_per_day, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cram_asks_no_rating, setup, teardown),
        cmocka_unit_test_setup_teardown(test_interview_summary, setup, teardown),
        cmocka_unit_test_setup_teardown(test_interview_limits, setup, teardown),
        cmocka_unit_test_setup_teardown(test_changed_answer_restarts_schedule, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fingerprints, setup, teardown),
        cmocka_unit_test(test_rating_rule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
