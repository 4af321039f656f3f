/* test_tutor_settings.c: the settings a session runs with, read and saved
 * by the one parser the app, its settings screen and the commands share. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "tmp_dir.h"
#include "tutor_settings.h"

static char dir[128], db[256];
static struct store *st;

static int setup(void **state)
{
    struct store_error err;
    (void)state;
    if (tmp_dir_make(dir, sizeof dir, "kvt_settings_") != 0)
        return -1;
    snprintf(db, sizeof db, "%s/p.db", dir);
    return store_open(db, false, &st, &err) == KVT_E_OK ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    store_close(st);
    return tmp_dir_remove(dir);
}

/* The defaults the README and `kvtutor config` state: 0.9 retention, 20
 * new exercises a day, a mock interview of 2 minutes an answer and 15 in
 * all; with no database and with an empty one alike. */
static void test_defaults(void **state)
{
    struct tutor_settings a, b;
    (void)state;
    tutor_settings_load(NULL, &a);
    tutor_settings_load(st, &b);
    assert_true(a.fsrs.desired_retention == 0.9 && b.fsrs.desired_retention == 0.9);
    assert_int_equal(a.new_per_day, 20);
    assert_int_equal(b.new_per_day, 20);
    assert_int_equal(a.interview_answer_seconds, 120);
    assert_int_equal(b.interview_minutes, 15);
}

/* Saved values are read back; refused ones change neither the session nor
 * the store, with the store's reason. */
static void test_set_and_load(void **state)
{
    static const struct {
        const char *key, *value;
        bool ok;
    } rows[] = {
        {"desired_retention", "0.85", true},
        {"new_per_day", "5", true},
        {"interview_answer_seconds", "45", true},
        {"interview_minutes", "0", true},
        {"interview_minutes", "121", false},
        {"interview_answer_seconds", "-1", false},
        {"desired_retention", "0.99", false},
        {"desired_retention", "0.91.5", false},
        {"new_per_day", "501", false},
        {"new_per_day", "-1", false},
        {"learner", "ann", false}, /* who learns is not a session's setting */
    };
    struct tutor_settings s, again;
    struct store_error err;
    (void)state;

    tutor_settings_load(st, &s);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const char *why = NULL;
        struct tutor_settings before = s;
        enum kvt_err e = tutor_settings_set(st, &s, rows[i].key, rows[i].value, &why, &err);
        if ((e == KVT_E_OK) != rows[i].ok)
            fail_msg("%s = %s: %s", rows[i].key, rows[i].value, why ? why : kvt_strerror(e));
        if (!rows[i].ok) {
            assert_non_null(why);
            /* field by field: the struct's padding is no value */
            assert_true(before.fsrs.desired_retention == s.fsrs.desired_retention);
            assert_int_equal(before.new_per_day, s.new_per_day);
            assert_int_equal(before.interview_minutes, s.interview_minutes);
            assert_int_equal(before.interview_answer_seconds, s.interview_answer_seconds);
        }
    }
    assert_true(s.fsrs.desired_retention == 0.85);
    assert_int_equal(s.new_per_day, 5);
    assert_int_equal(s.interview_answer_seconds, 45);
    assert_int_equal(s.interview_minutes, 0);
    tutor_settings_load(st, &again);
    assert_true(again.fsrs.desired_retention == 0.85);
    assert_int_equal(again.new_per_day, 5);
    assert_int_equal(again.interview_answer_seconds, 45);
    assert_int_equal(again.interview_minutes, 0);
}

/* A value the rule refuses, written past it (a hand edit, an older
 * kvtutor), is not used: the session runs on the default. */
static void test_hand_edited_value_falls_back(void **state)
{
    struct tutor_settings s;
    struct store_error err;
    (void)state;
    assert_int_equal(store_setting_set(st, "new_per_day", "lots", &err), KVT_E_OK);
    assert_int_equal(store_setting_set(st, "desired_retention", "nan", &err), KVT_E_OK);
    tutor_settings_load(st, &s);
    assert_int_equal(s.new_per_day, 20);
    assert_true(s.fsrs.desired_retention == 0.9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_set_and_load),
        cmocka_unit_test(test_hand_edited_value_falls_back),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
