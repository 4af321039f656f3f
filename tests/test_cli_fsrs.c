/* `kvtutor fsrs replay` reproduces the ts-fsrs 5.4.2 reference file byte for
 * byte from its first four columns, and refuses bad rows with the line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "run_cmd.h"
#include "tsv.h"

static struct run_result replay(const char *input)
{
    char *argv[] = {(char *)run_kvtutor_path(), "fsrs", "replay", NULL};
    struct run_result r;
    assert_int_equal(run_cmd_input(argv, NULL, input, &r), 0);
    return r;
}

static void test_reproduces_reference_file(void **state)
{
    (void)state;
    char *want = fixture_read("ts-fsrs-5.4.2-longterm.tsv");
    struct run_result r;

    assert_non_null(want);
    /* feeding the whole file works: the extra columns are ignored */
    r = replay(want);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, want);
    run_free(&r);
    free(want);
}

/* and the cards at the 36,500-day cap, where Good and Easy go past it */
static void test_reproduces_cap_file(void **state)
{
    (void)state;
    char *want = fixture_read("ts-fsrs-5.4.2-cap.tsv");
    struct run_result r;

    assert_non_null(want);
    r = replay(want);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, want);
    run_free(&r);
    free(want);
}

static void test_only_four_columns_needed(void **state)
{
    (void)state;
    /* the fixture's case 3, first two reviews: Easy on day 0, Easy 16 days later */
    struct run_result r = replay("case\tstep\telapsed_days\trating\n3\t0\t0\t4\n3\t1\t16\t4\n");

    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "case\tstep\telapsed_days\trating\tstability\tdifficulty\t"
                               "scheduled_days\tretrievability_before\n"
                               "3\t0\t0\t4\t8.295600\t1.000000\t8\t\n"
                               "3\t1\t16\t4\t98.994914\t1.000000\t99\t0.849005\n");
    run_free(&r);
}

static void test_bad_rows(void **state)
{
    (void)state;
    static const struct {
        const char *input, *says;
    } rows[] = {
        {"case\tstep\telapsed_days\trating\n0\t0\t0\t5\n", "stdin:2: rating"},
        {"case\tstep\telapsed_days\trating\n0\t0\t0\t0\n", "stdin:2: rating"},
        {"case\tstep\telapsed_days\trating\n0\t0\t-3\t3\n", "stdin:2: elapsed_days"},
        {"case\tstep\telapsed_days\trating\n0\t0\tsoon\t3\n", "stdin:2: elapsed_days"},
        {"case\tstep\telapsed_days\trating\n0\t0\t1\n", "stdin:2: needs four"},
        {"0\t0\t0\t3\n", "stdin:1: the header"},
        {"", "no header"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        struct run_result r = replay(rows[i].input);
        if (r.status != 2 || run_count_lines(r.err) != 1 || !strstr(r.err, rows[i].says))
            fail_msg("row %zu: exit %d, stderr: %s", i, r.status, r.err);
        run_free(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reproduces_reference_file),
        cmocka_unit_test(test_reproduces_cap_file),
        cmocka_unit_test(test_only_four_columns_needed),
        cmocka_unit_test(test_bad_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
