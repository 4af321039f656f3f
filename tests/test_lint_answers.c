/* `kvtutor lint --answers FILE.tsv` as an instructor uses it: a table whose
 * every row gets its verdict passes (exit 0) with its totals; a row whose
 * expected verdict the grader does not give is named by its line with what
 * it was graded (exit 1) and counted against its item; a malformed row is a
 * one-line error naming the file and the line, and nothing is graded.
 *
 * tests/answers/lint-sample.tsv is written by hand: its answers are right
 * or wrong on the lesson's facts (see its header), not on what the grader
 * says. Three are right, two wrong, over two items. */
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
#include "tmp_dir.h"

static char dir[64], sample[1024];

static int setup(void **state)
{
    const char *f = getenv("KVT_FIXTURES");
    (void)state;
    snprintf(sample, sizeof sample, "%s/../answers/lint-sample.tsv", f ? f : "fixtures");
    return tmp_dir_make(dir, sizeof dir, "kvt_lint_answers_");
}

static int teardown(void **state)
{
    (void)state;
    return tmp_dir_remove(dir);
}

static void lint(const char *table, bool json, struct run_result *r)
{
    char *argv[] = {(char *)run_kvtutor_path(), "lint", "--answers", (char *)table,
                    json ? "--json" : NULL,     NULL};
    assert_int_equal(run_cmd(argv, NULL, r), 0);
}

/* Writes a table into the test's folder; returns its path. */
static const char *table(const char *name, const char *text)
{
    static char path[256];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static json_int_t get(json_t *j, const char *group, const char *key)
{
    json_t *g = group ? json_object_get(j, group) : j;
    return json_integer_value(json_object_get(g, key));
}

static void test_clean_table_passes(void **state)
{
    struct run_result r;
    (void)state;
    lint(sample, false, &r);
    if (r.status != 0)
        fail_msg("exit %d: %s%s", r.status, r.out, r.err);
    assert_non_null(strstr(r.out, "5 rows, 2 items"));
    assert_non_null(strstr(r.out, "kv-cache/followup-4"));
    assert_non_null(strstr(r.out, "Expected correct: 3 rows: graded correct 3, wrong 0"));
    assert_non_null(strstr(r.out, "Expected wrong: 2 rows: graded correct 0, wrong 2"));
    assert_string_equal(r.err, "");
    run_free(&r);
}

static void test_json_counts(void **state)
{
    struct run_result r;
    json_error_t e;
    json_t *j;
    (void)state;
    lint(sample, true, &r);
    assert_int_equal(r.status, 0);
    j = json_loads(r.out, 0, &e);
    if (!j)
        fail_msg("not JSON: %s", r.out);
    assert_int_equal(get(j, NULL, "rows"), 5);
    assert_int_equal(get(j, "expected_correct", "rows"), 3);
    assert_int_equal(get(j, "expected_correct", "correct"), 3);
    assert_int_equal(get(j, "expected_wrong", "rows"), 2);
    assert_int_equal(get(j, "expected_wrong", "wrong"), 2);
    assert_int_equal(json_array_size(json_object_get(j, "items")), 2);
    assert_int_equal(json_array_size(json_object_get(j, "missed")), 0);
    json_decref(j);
    run_free(&r);
}

/* The table claims a right answer is wrong and a wrong one right: both rows
 * are named by line, each counted as what it is against its item. */
static void test_mismatches_named_by_line(void **state)
{
    struct run_result r;
    const char *t = table("mislabelled.tsv",
                          "# two rows labelled the other way round\n"
                          "lesson\titem\texpected\tanswer\n"
                          "kv-cache\tfollowup-4\twrong\tDecode.\n"
                          "kv-cache\tfollowup-4\tcorrect\tDecode.\n"
                          "kv-cache\tfollowup-5\tcorrect\tQueries are cached too, along with "
                          "keys and values.\n");
    char want[400];
    (void)state;
    lint(t, false, &r);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "3 rows, 2 items"));
    snprintf(want, sizeof want, "%s:3: false credit (expected wrong, graded correct)", t);
    if (!strstr(r.out, want))
        fail_msg("no \"%s\" in:\n%s", want, r.out);
    snprintf(want, sizeof want, "%s:5: false refusal (expected correct, graded wrong)", t);
    if (!strstr(r.out, want))
        fail_msg("no \"%s\" in:\n%s", want, r.out);
    assert_null(strstr(r.out, ":4:")); /* the row that got its verdict is not listed */
    assert_non_null(strstr(r.out, "2 rows: 1 false credit, 0 false refusals"));
    assert_non_null(strstr(r.out, "1 row: 0 false credits, 1 false refusal"));
    run_free(&r);
}

static void test_malformed_rows(void **state)
{
    static const struct {
        const char *text, *want;
    } cases[] = {
        {"lesson\titem\texpected\tanswer\nkv-cache\tfollowup-4\tmaybe\tDecode.\n",
         ":2: error: expected verdict \"maybe\": write correct or wrong"},
        {"# c\nlesson\titem\texpected\tanswer\nno-such\tfollowup-4\tcorrect\tDecode.\n",
         ":3: error: no lesson \"no-such\" in the course"},
        {"lesson\titem\texpected\tanswer\nkv-cache\tfollowup-99\tcorrect\tDecode.\n",
         ":2: error: kv-cache has no item \"followup-99\""},
        {"lesson\titem\texpected\tanswer\nkv-cache\tfollowup-4 correct Decode.\n",
         ":2: error: 2 cells where the header has more or fewer"},
        {"lesson\titem\tverdict\tanswer\nkv-cache\tfollowup-4\tcorrect\tDecode.\n",
         ":1: error: the header names no \"expected\" column"},
        {"lesson\titem\texpected\tanswer\nkv-cache\tfollowup-4\tcorrect\t\n",
         ":2: error: the answer is empty"},
        {"# only comments\n", ": error: no header line"},
    };
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char name[32], want[400];
        struct run_result r;
        const char *t;
        snprintf(name, sizeof name, "bad%zu.tsv", i);
        t = table(name, cases[i].text);
        lint(t, false, &r);
        snprintf(want, sizeof want, "%s%s", t, cases[i].want);
        if (r.status != 1 || !strstr(r.err, want))
            fail_msg("case %zu: exit %d, want 1 and \"%s\" in: %s", i, r.status, want, r.err);
        assert_int_equal(run_count_lines(r.err), 1);
        assert_string_equal(r.out, ""); /* nothing graded */
        run_free(&r);
    }
}

static void test_missing_file_and_usage(void **state)
{
    struct run_result r;
    char *argv[] = {(char *)run_kvtutor_path(), "lint", "--answers", NULL};
    char path[128], want[300];
    (void)state;
    snprintf(path, sizeof path, "%s/none.tsv", dir);
    snprintf(want, sizeof want, "%s: error: cannot be read", path);
    lint(path, false, &r);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, want));
    run_free(&r);
    assert_int_equal(run_cmd(argv, NULL, &r), 0);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "kvtutor lint: "));
    run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clean_table_passes),       cmocka_unit_test(test_json_counts),
        cmocka_unit_test(test_mismatches_named_by_line), cmocka_unit_test(test_malformed_rows),
        cmocka_unit_test(test_missing_file_and_usage),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
