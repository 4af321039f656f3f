/* test_sys.c: the platform layer (src/sys) on the system the suite runs on:
 * the program's own path, a close-on-exec pipe, random bytes, cores, the
 * program's build id. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "sys.h"

static const char *argv0;

static void test_exe_path_is_this_program(void **state)
{
    (void)state;
    char got[4096], want[PATH_MAX];
    assert_non_null(realpath(argv0, want));
    assert_int_equal(sys_exe_path(got, sizeof got), 0);
    assert_string_equal(got, want);
}

static void test_exe_path_too_small(void **state)
{
    (void)state;
    char got[4];
    errno = 0;
    assert_int_equal(sys_exe_path(got, sizeof got), -1);
    assert_int_equal(errno, ENAMETOOLONG);
}

static void test_pipe_ends_close_on_exec(void **state)
{
    (void)state;
    int fds[2] = {-1, -1};
    char c = 0;
    assert_int_equal(sys_pipe_cloexec(fds), 0);
    for (int i = 0; i < 2; i++) {
        int flags = fcntl(fds[i], F_GETFD);
        assert_true(flags >= 0);
        assert_true(flags & FD_CLOEXEC);
    }
    /* and it is a pipe: what goes in one end comes out of the other */
    assert_int_equal(write(fds[1], "k", 1), 1);
    assert_int_equal(read(fds[0], &c, 1), 1);
    assert_int_equal(c, 'k');
    close(fds[0]);
    close(fds[1]);
}

static void test_random_fills_and_differs(void **state)
{
    (void)state;
    unsigned char a[32], b[32], zero[32] = {0};
    memset(a, 0, sizeof a);
    memset(b, 0, sizeof b);
    assert_int_equal(sys_random(a, sizeof a), 0);
    assert_int_equal(sys_random(b, sizeof b), 0);
    /* two 256-bit draws alike, or all zero, is a broken generator, not luck */
    assert_memory_not_equal(a, b, sizeof a);
    assert_memory_not_equal(a, zero, sizeof a);
}

static void test_random_large(void **state)
{
    (void)state;
    /* past getrandom's 256-byte promise of a full answer */
    static unsigned char big[1 << 16];
    size_t zeros = 0;
    assert_int_equal(sys_random(big, sizeof big), 0);
    assert_int_equal(sys_random(big, 0), 0);
    for (size_t i = 0; i < sizeof big; i++)
        zeros += big[i] == 0;
    /* 256 expected; all of a tail left unfilled would show here */
    assert_true(zeros < 1024);
}

static void test_core_count(void **state)
{
    (void)state;
    assert_true(sys_core_count() >= 1);
}

/* The id readelf reads from this program's file is the one the program
 * finds in its own memory: hex, the note's bytes in order. */
static void test_build_id_is_the_notes(void **state)
{
    char got[130], exe[4096], cmd[4200], line[512], want[130] = "";
    FILE *p;
    (void)state;
    assert_int_equal(sys_exe_path(exe, sizeof exe), 0);
    assert_int_equal(sys_build_id(got, sizeof got), 0);
    assert_true(strlen(got) >= 16 && strlen(got) % 2 == 0);
    assert_int_equal(strspn(got, "0123456789abcdef"), strlen(got));
    snprintf(cmd, sizeof cmd, "readelf -n '%s' 2>/dev/null", exe);
    p = popen(cmd, "r");
    assert_non_null(p);
    while (fgets(line, sizeof line, p))
        if (sscanf(line, " Build ID: %129s", want) == 1)
            break;
    pclose(p);
    if (!want[0])
        skip(); /* no readelf here: the format above is all that is checked */
    assert_string_equal(got, want);
    /* too small for every digit and the '\0' */
    errno = 0;
    assert_int_equal(sys_build_id(got, strlen(want)), -1);
    assert_int_equal(errno, ENAMETOOLONG);
}

int main(int argc, char **argv)
{
    (void)argc;
    argv0 = argv[0];
    sys_set_argv0(argv[0]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exe_path_is_this_program),
        cmocka_unit_test(test_exe_path_too_small),
        cmocka_unit_test(test_pipe_ends_close_on_exec),
        cmocka_unit_test(test_random_fills_and_differs),
        cmocka_unit_test(test_random_large),
        cmocka_unit_test(test_core_count),
        cmocka_unit_test(test_build_id_is_the_notes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
