/* Completing a typed path as a shell's Tab does (tutor_path.h), in a fresh
 * folder: one match whole ('/' after a folder), several to their common
 * beginning with their names listed, dot entries only when asked for, a
 * common beginning never ending inside a UTF-8 character, nothing for an
 * unknown folder or prefix. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "tmp_dir.h"
#include "tutor_path.h"

static char dir[256];

static void touch(const char *name)
{
    char p[512];
    FILE *f;
    snprintf(p, sizeof p, "%s/%s", dir, name);
    assert_non_null(f = fopen(p, "w"));
    fclose(f);
}

static int setup(void **state)
{
    char p[512];
    (void)state;
    if (tmp_dir_make(dir, sizeof dir, "kvt_path_") != 0)
        return -1;
    touch("serve-a.log");
    touch("serve-b.log");
    touch("config.json");
    touch(".hidden.log");
    touch("caf\xc3\xa9-1.log"); /* café-1.log and café-2.log share "caf", then é */
    touch("caf\xc3\xa8-2.log"); /* è: the same first byte as é */
    snprintf(p, sizeof p, "%s/logs", dir);
    return mkdir(p, 0700);
}

static int teardown(void **state)
{
    (void)state;
    return tmp_dir_remove(dir);
}

static size_t complete(const char *rest, char *out, size_t cap, char *list, size_t lcap)
{
    char typed[512];
    snprintf(typed, sizeof typed, "%s/%s", dir, rest);
    return tutor_path_complete(typed, out, cap, list, lcap);
}

static void ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);
    if (n < t || strcmp(s + n - t, tail) != 0)
        fail_msg("\"%s\" does not end in \"%s\"", s, tail);
}

static void test_completes(void **state)
{
    char out[1024], list[256];
    (void)state;

    assert_int_equal(complete("con", out, sizeof out, list, sizeof list), 1);
    ends_with(out, "/config.json");
    assert_int_equal(complete("lo", out, sizeof out, list, sizeof list), 1);
    ends_with(out, "/logs/"); /* a folder: '/' after it, to go on typing */
    assert_int_equal(complete("ser", out, sizeof out, list, sizeof list), 2);
    ends_with(out, "/serve-");
    assert_string_equal(list, "serve-a.log  serve-b.log");
    /* dot entries only when the name typed begins with '.' */
    assert_int_equal(complete("", out, sizeof out, list, sizeof list), 6);
    assert_null(strstr(list, ".hidden"));
    assert_int_equal(complete(".h", out, sizeof out, list, sizeof list), 1);
    ends_with(out, "/.hidden.log");
    /* "caf\xc3" is where é and è part: the common beginning stops at "caf" */
    assert_int_equal(complete("caf", out, sizeof out, list, sizeof list), 2);
    ends_with(out, "/caf");
}

static void test_nothing_to_complete(void **state)
{
    char out[1024], list[256], typed[512];
    (void)state;

    assert_int_equal(complete("zzz", out, sizeof out, list, sizeof list), 0);
    ends_with(out, "/zzz"); /* left as typed */
    snprintf(typed, sizeof typed, "%s/no-such-folder/x", dir);
    assert_int_equal(tutor_path_complete(typed, out, sizeof out, list, sizeof list), 0);
    assert_string_equal(out, typed);
    /* a list too long for its room is cut with "..." */
    assert_int_equal(complete("", out, sizeof out, list, 20), 6);
    ends_with(list, "...");
    assert_true(strlen(list) < 20);
}

/* More matches than the list keeps (600 "abc" files, then "abd" ones): every
 * one is counted and narrows the common beginning to "ab", as a shell
 * would, not only those kept */
static void test_many_matches(void **state)
{
    char sub[512], name[600], out[1024], list[256], typed[600];
    (void)state;
    snprintf(sub, sizeof sub, "%s/many", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    for (int i = 0; i < 600; i++) {
        FILE *f;
        snprintf(name, sizeof name, "%s/abc%03d", sub, i);
        assert_non_null(f = fopen(name, "w"));
        fclose(f);
    }
    for (int i = 0; i < 7; i++) {
        FILE *f;
        snprintf(name, sizeof name, "%s/abd%d", sub, i);
        assert_non_null(f = fopen(name, "w"));
        fclose(f);
    }
    snprintf(typed, sizeof typed, "%s/a", sub);
    assert_int_equal(tutor_path_complete(typed, out, sizeof out, list, sizeof list), 607);
    ends_with(out, "/many/ab");
    ends_with(list, "...");
    /* a name with a control character is never offered */
    snprintf(name, sizeof name, "%s/zz\x1b[2J", sub);
    {
        FILE *f = fopen(name, "w");
        assert_non_null(f);
        fclose(f);
    }
    snprintf(typed, sizeof typed, "%s/zz", sub);
    assert_int_equal(tutor_path_complete(typed, out, sizeof out, list, sizeof list), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_completes),
        cmocka_unit_test(test_nothing_to_complete),
        cmocka_unit_test(test_many_matches),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
