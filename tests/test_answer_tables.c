/* The course's answer tables through `kvtutor lint --answers --json`, as an
 * instructor runs them, with their rates held to the grading issue's goal:
 *
 *   wrong or salad credited (graded correct)   at most 5%
 *   correct refused (graded wrong)             at most 10%
 *   correct sent to unsure                     at most 25%
 *   wrong or salad sent to unsure              at most 40%
 *
 * tests/answers/table-1-terse.tsv (64 terse correct answers),
 * table-2-natural.tsv (64 natural and non-native correct answers) and
 * table-3-wrong.tsv (128 wrong answers in the right words, and keyword
 * salad) were written from the items' prompts alone (docs/answers.md has
 * their first-run and current figures). Not every row gets its verdict (an
 * unsure one is the learner's to check), so `lint --answers` exits 1 on
 * them and the rates are what is checked here.
 *
 * Two rates are not yet at the goal: terse correct answers sent to unsure
 * and wrong ones sent to unsure. For those the limit is the figure measured
 * when this test was added (27 of 64, 59 of 128), so that no change makes
 * them worse; lower it as the grader improves, down to the goal. */
#include <jansson.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "run_cmd.h"

struct limits {
    const char *file;
    size_t rows;              /* the table's rows: fewer means rows were lost */
    double credited, refused; /* percent of wrong credited, of correct refused */
    double correct_unsure;    /* percent of correct answers sent to unsure */
    double wrong_unsure;      /* percent of wrong answers sent to unsure */
};

static const struct limits tables[] = {
    /* correct unsure: 27 of 64 (42.2%) measured, over the 25% goal */
    {"table-1-terse.tsv", 64, 5, 10, 42.2, 40},
    {"table-2-natural.tsv", 64, 5, 10, 25, 40},
    /* wrong unsure: 48 of 128 (37.5%) since round 6's misconceptions (57 before them, 59
     * before a give-up covering no point was called wrong); credited 5 (3.9%) */
    {"table-3-wrong.tsv", 128, 5, 10, 25, 40},
    /* the final table (docs/answers.md): correct refused 6 of 128 (4.7%), unsure 26 (20.3%);
     * wrong credited 1 (0.8%), wrong unsure 70 of 128 (54.7%, over the 40% goal; 76 before
     * round 6's misconceptions, 85 before a give-up covering no point was called wrong) */
    /* since round 11 (the invariance and unit rules, its audit's misconceptions): wrong unsure
     * 65 of 128 (50.8%), correct refused 5 */
    {"table-final.tsv", 256, 5, 10, 25, 50.8},
    /* round 4 (docs/answers.md), written from the prompts alone and graded once on the grader
     * with the give-up rule: correct refused 4 of 80 (5.0%), unsure 19 (23.8%; 20 since);
     * wrong credited 1 (1.3%), wrong unsure 58 of 80 (72.5%), 43 (53.8%) since round 6's
     * misconceptions, still over the 40% goal */
    /* round 7's course-wide misconceptions: wrong unsure 39 (48.75%), correct refused 2 */
    /* since round 11: wrong unsure 37 (46.25%) */
    {"table-round4.tsv", 160, 5, 10, 25, 46.25},
    /* round 5 (docs/answers.md), written from 40 items' prompts alone and graded once:
     * correct refused 2 of 80 (2.5%), unsure 11 (13.8%); wrong credited 5 (6.25%), wrong
     * unsure 42 (52.5%). Round 6 wrote misconceptions against it, so it is a development
     * table now: wrong credited 3 (3.75%), unsure 12 (15%), within the goals */
    {"table-round5.tsv", 160, 5, 10, 25, 40},
    /* round 6 (docs/answers.md), written from 40 other items' prompts alone, graded once after
     * every lesson change and never tuned on: correct refused 3 of 80 (3.75%), unsure 16 (20%);
     * wrong credited 6 (7.5%, over the 5% goal), wrong unsure 44 of 80 (55%, over the 40%) */
    /* since round 7's course-wide misconceptions (a development table now): wrong credited 5
     * (6.25%), wrong unsure 38 (47.5%), correct refused 3 */
    /* since round 11: wrong unsure 37 (46.25%) */
    {"table-round6.tsv", 160, 6.25, 10, 25, 46.25},
    /* round 7 (docs/answers.md), written from 40 items' prompts alone (seed 20261214), graded
     * once after every change of the round and never tuned on: correct refused 1 of 80
     * (1.25%), unsure 13 (16.25%); wrong credited 5 (6.25%, over the 5% goal), wrong unsure 39
     * of 80 (48.75%, over the 40% goal) */
    /* since round 11: wrong credited 4 (5%), wrong unsure 38 (47.5%) */
    {"table-round7.tsv", 160, 5, 10, 25, 47.5},
    /* round 8 (docs/answers.md), written from 40 items' prompts alone (seed 20261215) after
     * round 7's grader had landed, graded once and never tuned on: correct refused 5 of 80
     * (6.25%), unsure 15 (18.75%); wrong credited 4 (5.0%), wrong unsure 43 of 80 (53.75%,
     * over the 40% goal) */
    /* since round 11 (a development table now): wrong credited 3 (3.75%), wrong unsure 35
     * (43.75%), correct refused 5 */
    {"table-round8.tsv", 160, 5, 10, 25, 43.75},
    /* round 9 (docs/answers.md), written from 40 items' prompts alone (seed 20261216) and graded
     * once on the grader at 8c7ae52: correct refused 4 of 80 (5%), unsure 10 (12.5%); wrong
     * credited 5 (6.25%, over the 5% goal), wrong unsure 38 (47.5%, over the 40% goal). Then
     * tuned on: credited 0, refused 3, wrong unsure 35 (43.75%) */
    {"table-round9.tsv", 160, 5, 10, 25, 43.75},
    /* round 10, the final unseen table of round 11's grading work (docs/answers.md), written from
     * 40 items' prompts alone (seed 20261217) and graded once on the grader at 7462b64: correct
     * refused 3 of 80 (3.75%), unsure 8 (10%); wrong credited 2 (2.5%); wrong unsure 40 of 80
     * (50%, over the 40% goal) */
    {"table-round10.tsv", 160, 5, 10, 25, 50},
    /* Part 1 (docs/answers.md, "Part 1's tables"): each lesson's table a was written from its
     * prompts alone and the rubric tuned on it; table b, from the same writer, was held out and
     * graded once at the end. Where b is over the goal its measured figure is the limit. */
    {"part1-routing-a.tsv", 49, 5, 10, 25, 40},
    /* graded once: 1 of 21 wrong credited, 1 correct refused, 8 correct unsure (38.1%, over the
     * 25% goal), 14 wrong unsure; the credit and the refusal were then fixed (no bare "load"
     * for the load point; "prefix-aware" said of a router in front is not the balancer's), so
     * the table is no longer unseen; wrong unsure 15 of 21 (71.4%) since */
    {"part1-routing-b.tsv", 42, 5, 10, 38.1, 71.5},
    {"part1-request-path-a.tsv", 35, 5, 10, 25, 40},
    {"part1-batching-service-a.tsv", 42, 5, 10, 25, 40},
    /* graded once: 2 of 18 correct refused (11.1%, over the 10% goal), 1 unsure; wrong unsure
     * 10 of 18 (55.6%). Both refusals were then fixed (a bare "oldest" read in "so the oldest
     * requests keep making progress"; "keeps decoding" in a hypothetical), so the table is no
     * longer unseen */
    {"part1-batching-service-b.tsv", 36, 5, 10, 25, 55.6},
    /* graded once: 1 of 15 correct refused (6.7%), 3 unsure (20%); wrong unsure 10 of 15 (66.7%) */
    {"part1-request-path-b.tsv", 30, 5, 10, 25, 66.7},
    {"part1-scheduling-policy-a.tsv", 42, 5, 10, 25, 40},
    /* graded once: wrong credited 2 of 18 (11.1%), over the 5% goal; both were then fixed
     * (a loose accept, a misconception for "a higher number is higher priority"), so the
     * table is no longer unseen; wrong unsure 12 of 18 (66.7%) since */
    {"part1-scheduling-policy-b.tsv", 36, 5, 10, 25, 66.7},
    {"part1-disaggregated-serving-a.tsv", 42, 5, 10, 25, 40},
    /* graded once: 1 of 18 correct refused ("no prefill-decode interference", a benefit, read as
     * denying the interference point), wrong unsure 15 of 18 (83.3%) */
    {"part1-disaggregated-serving-b.tsv", 36, 5, 10, 25, 83.4},
    {"part1-many-models-a.tsv", 42, 5, 10, 25, 40},
    /* graded once: 1 of 18 correct refused (a step-qualified "not admitted this step" read as
     * contradicting "admitted once a slot frees"), then fixed; wrong unsure 13 of 18 (72.2%) */
    {"part1-many-models-b.tsv", 36, 5, 10, 25, 72.3},
};

static json_int_t count(json_t *j, const char *group, const char *key)
{
    return json_integer_value(json_object_get(json_object_get(j, group), key));
}

static double pct(json_int_t n, json_int_t of)
{
    return of ? 100.0 * (double)n / (double)of : 0;
}

static void test_rates_within_goal(void **state)
{
    const char *f = getenv("KVT_FIXTURES");
    (void)state;
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++) {
        const struct limits *t = &tables[i];
        char path[1024];
        char *argv[] = {(char *)run_kvtutor_path(), "lint", "--answers", path, "--json", NULL};
        struct run_result r;
        json_error_t e;
        json_t *j = NULL;
        json_int_t nc, nw;
        double credited, refused, c_unsure, w_unsure;

        snprintf(path, sizeof path, "%s/../answers/%s", f ? f : "fixtures", t->file);
        assert_int_equal(run_cmd(argv, NULL, &r), 0);
        if (r.status > 1 || !(j = json_loads(r.out, 0, &e)))
            fail_msg("%s: exit %d: %s%s", t->file, r.status, r.out, r.err);
        if ((size_t)json_integer_value(json_object_get(j, "rows")) != t->rows)
            fail_msg("%s: %lld rows, want %zu", t->file,
                     (long long)json_integer_value(json_object_get(j, "rows")), t->rows);
        nc = count(j, "expected_correct", "rows");
        nw = count(j, "expected_wrong", "rows");
        credited = pct(count(j, "expected_wrong", "correct"), nw);
        w_unsure = pct(count(j, "expected_wrong", "unsure"), nw);
        refused = pct(count(j, "expected_correct", "wrong"), nc);
        c_unsure = pct(count(j, "expected_correct", "unsure"), nc);
        print_message("%s: wrong credited %.1f%%, correct refused %.1f%%, correct unsure "
                      "%.1f%%, wrong unsure %.1f%%\n",
                      t->file, credited, refused, c_unsure, w_unsure);
        if (credited > t->credited || refused > t->refused || c_unsure > t->correct_unsure ||
            w_unsure > t->wrong_unsure)
            fail_msg("%s: past its limits (%.1f%% credited, %.1f%% refused, %.1f%% / %.1f%% "
                     "unsure):\n%s",
                     t->file, t->credited, t->refused, t->correct_unsure, t->wrong_unsure, r.out);
        assert_int_equal(
            count(j, "expected_correct", "invalid") + count(j, "expected_wrong", "invalid"), 0);
        json_decref(j);
        run_free(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rates_within_goal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
