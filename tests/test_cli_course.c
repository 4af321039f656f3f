/* The bundled course through `kvtutor ask`: every row of course-answers.tsv
 * (answers worked by hand in its header) graded as stated, and every
 * exercise of every bundled lesson covered there by a right and a wrong
 * answer, so a lesson cannot ship an exercise nobody has checked. The
 * lessons are listed in the order the course map shows them. */
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
#include "tsv.h"

#define ANSWERS "../course-answers.tsv"

/* The Part 0 module as the course issue orders it; the map lists a module in
 * this order (lessons/part0-foundations/NN-*.lua). */
static const char *const part0[] = {
    "kv-cache",          "memory-bound-decode", "prefill-decode",
    "paged-attention",   "continuous-batching", "prefix-caching",
    "shrinking-kv",      "shrinking-weights",   "tensor-parallel-kv",
    "sizing-deployment",
};

/* The comma-separated list after `marker` in an error message, split in place. */
static size_t split_list(char *msg, const char *marker, char **items, size_t cap)
{
    char *p = strstr(msg, marker), *end;
    size_t n = 0;
    if (!p)
        return 0;
    p += strlen(marker);
    if ((end = strchr(p, ')')))
        *end = '\0';
    for (char *tok = strtok(p, ", "); tok && n < cap; tok = strtok(NULL, ", "))
        items[n++] = tok;
    return n;
}

static bool has_param(json_t *params, const char *pair)
{
    const char *eq = strchr(pair, '=');
    char key[64];
    json_t *v;
    if (!eq || (size_t)(eq - pair) >= sizeof key)
        return false;
    memcpy(key, pair, (size_t)(eq - pair));
    key[eq - pair] = '\0';
    v = json_object_get(params, key);
    return json_is_string(v) && strcmp(json_string_value(v), eq + 1) == 0;
}

static void test_every_row(void **state)
{
    struct tsv t;
    (void)state;
    assert_int_equal(tsv_load(ANSWERS, &t), 0);
    assert_true(tsv_count(&t) >= 100);
    for (size_t i = 0; i < tsv_count(&t); i++) {
        const char *lesson = tsv_get(&t, i, "lesson"), *ex = tsv_get(&t, i, "exercise");
        const char *answer = tsv_get(&t, i, "answer"), *want = tsv_get(&t, i, "verdict");
        const char *diag_want = tsv_get(&t, i, "diagnosis"), *measured = tsv_get(&t, i, "measured");
        char params[256];
        char *argv[12] = {(char *)run_kvtutor_path(),
                          "ask",
                          (char *)lesson,
                          (char *)ex,
                          (char *)answer,
                          "--json",
                          "--seed",
                          (char *)tsv_get(&t, i, "seed")};
        int argc = 8, want_status = strcmp(want, "correct") == 0  ? 0
                                    : strcmp(want, "unsure") == 0 ? 3
                                                                  : 1;
        struct run_result r;
        json_error_t e;
        json_t *j, *diag;
        const char *verdict;

        if (measured[0]) {
            argv[argc++] = "--measured";
            argv[argc++] = (char *)measured;
        }
        argv[argc] = NULL;
        assert_int_equal(run_cmd(argv, NULL, &r), 0);
        if (r.status != want_status)
            fail_msg("%s %s \"%s\": exit %d, want %d (%s%s)", lesson, ex, answer, r.status,
                     want_status, r.out, r.err);
        if (!(j = json_loads(r.out, 0, &e)))
            fail_msg("%s %s: not JSON: %s", lesson, ex, r.out);
        verdict = json_string_value(json_object_get(j, "verdict"));
        if (!verdict || strcmp(verdict, want) != 0)
            fail_msg("%s %s \"%s\": %s, want %s (expected %g)", lesson, ex, answer,
                     verdict ? verdict : "?", want,
                     json_number_value(json_object_get(j, "expected")));
        diag = json_object_get(j, "diagnosis");
        if (strcmp(diag_want, "-") != 0 &&
            (strcmp(diag_want, "null") == 0
                 ? !json_is_null(diag)
                 : !json_is_string(diag) || strcmp(json_string_value(diag), diag_want) != 0))
            fail_msg("%s %s \"%s\": diagnosis %s, want %s", lesson, ex, answer,
                     json_is_string(diag) ? json_string_value(diag) : "null", diag_want);
        /* the hand arithmetic is for the values this seed draws */
        snprintf(params, sizeof params, "%s", tsv_get(&t, i, "params"));
        for (char *p = strtok(params, " "); p; p = strtok(NULL, " "))
            if (!has_param(json_object_get(j, "params"), p))
                fail_msg("%s %s seed %s: did not draw %s", lesson, ex, tsv_get(&t, i, "seed"), p);
        json_decref(j);
        run_free(&r);
    }
    tsv_free(&t);
}

static bool row_with(const struct tsv *t, const char *lesson, const char *ex, const char *verdict)
{
    for (size_t i = 0; i < tsv_count(t); i++)
        if (strcmp(tsv_get(t, i, "lesson"), lesson) == 0 &&
            strcmp(tsv_get(t, i, "exercise"), ex) == 0 &&
            strcmp(tsv_get(t, i, "verdict"), verdict) == 0)
            return true;
    return false;
}

static void test_every_exercise_covered(void **state)
{
    char *argv[] = {(char *)run_kvtutor_path(), "ask", "no-such-lesson", "x", "1", NULL};
    struct run_result lessons;
    char *ids[64];
    size_t n;
    struct tsv t;
    (void)state;

    assert_int_equal(tsv_load(ANSWERS, &t), 0);
    assert_int_equal(run_cmd(argv, NULL, &lessons), 0);
    assert_int_equal(lessons.status, 2);
    n = split_list(lessons.err, "(lessons: ", ids, 64);
    /* the bundled course, in course order */
    assert_true(n >= sizeof part0 / sizeof part0[0]);
    for (size_t i = 0; i < sizeof part0 / sizeof part0[0]; i++)
        if (strcmp(ids[i], part0[i]) != 0)
            fail_msg("lesson %zu of the course is %s, want %s", i + 1, ids[i], part0[i]);
    for (size_t i = 0; i < n; i++) {
        char *ask[] = {(char *)run_kvtutor_path(), "ask", ids[i], "no-such-exercise", "1", NULL};
        struct run_result r;
        char *exs[128];
        size_t m;
        assert_int_equal(run_cmd(ask, NULL, &r), 0);
        m = split_list(r.err, "(it has: ", exs, 128);
        if (m == 0)
            fail_msg("%s lists no exercises: %s", ids[i], r.err);
        for (size_t k = 0; k < m; k++) {
            /* the question and follow-ups are graded on key points, by
             * their own table; this one holds the exercises */
            if (strcmp(exs[k], "question") == 0 || strncmp(exs[k], "followup-", 9) == 0)
                continue;
            if (!row_with(&t, ids[i], exs[k], "correct"))
                fail_msg("%s %s: no right answer in " ANSWERS, ids[i], exs[k]);
            /* unsure: an answer in words with no evidence either way */
            if (!row_with(&t, ids[i], exs[k], "wrong") && !row_with(&t, ids[i], exs[k], "unsure"))
                fail_msg("%s %s: no wrong answer in " ANSWERS, ids[i], exs[k]);
        }
        run_free(&r);
    }
    run_free(&lessons);
    tsv_free(&t);
}

/* The bundled lessons pass lint, links and prerequisites included. */
static void test_course_lints_clean(void **state)
{
    char dir[4200];
    const char *fx = getenv("KVT_FIXTURES");
    char *argv[] = {(char *)run_kvtutor_path(), "lint", dir, NULL};
    struct run_result r;
    (void)state;
    snprintf(dir, sizeof dir, "%s/../../lessons", fx ? fx : "fixtures");
    assert_int_equal(run_cmd(argv, NULL, &r), 0);
    if (r.status != 0)
        fail_msg("kvtutor lint lessons/: %s", r.err);
    assert_non_null(strstr(r.out, "lesson files checked: no problems"));
    run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_row),
        cmocka_unit_test(test_every_exercise_covered),
        cmocka_unit_test(test_course_lints_clean),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
