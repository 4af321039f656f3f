/* test_tutor_progress.c: where the learner stands, as the reader, the map
 * and the settings screen keep it: the reading position per lesson, the
 * lesson to resume, and switching learners by the store's name rule. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "tmp_dir.h"
#include "tutor_progress.h"
#include "tutor_settings.h"

static char dir[128], db[256];
static struct store *st;
static int64_t ann;

static int setup(void **state)
{
    struct store_error err;
    (void)state;
    if (tmp_dir_make(dir, sizeof dir, "kvt_progress_") != 0)
        return -1;
    snprintf(db, sizeof db, "%s/p.db", dir);
    if (store_open(db, false, &st, &err) != KVT_E_OK)
        return -1;
    return store_learner(st, "ann", 1000, &ann, &err) == KVT_E_OK ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    store_close(st);
    return tmp_dir_remove(dir);
}

static void test_reading_position(void **state)
{
    struct store_error err;
    size_t line = 99;
    char last[64];
    (void)state;

    assert_false(tutor_reading_get(st, ann, "kv-cache", &line));
    assert_false(tutor_reading_last(st, ann, last, sizeof last));
    assert_int_equal(tutor_reading_save(st, ann, "kv-cache", 42, 2000, &err), KVT_E_OK);
    assert_int_equal(tutor_reading_save(st, ann, "decode", 0, 3000, &err), KVT_E_OK);
    assert_true(tutor_reading_get(st, ann, "kv-cache", &line));
    assert_int_equal(line, 42);
    assert_true(tutor_reading_get(st, ann, "decode", &line));
    assert_int_equal(line, 0);
    /* the one opened last (at 3000) is the one to resume */
    assert_true(tutor_reading_last(st, ann, last, sizeof last));
    assert_string_equal(last, "decode");
    assert_true(tutor_progress_saved(st));
}

static void test_learner_switch(void **state)
{
    struct store_error err;
    const char *why = NULL;
    int64_t id = 0, again = 0;
    char name[80];
    (void)state;

    assert_int_equal(tutor_learner_switch(st, "", 4000, &id, &why, &err), KVT_E_RANGE);
    assert_non_null(why);
    assert_int_equal(tutor_learner_switch(st, "bo\x1b[2Jb", 4000, &id, &why, &err), KVT_E_RANGE);
    assert_int_equal(tutor_learner_switch(st, "bob", 4000, &id, &why, &err), KVT_E_OK);
    assert_true(id > 0 && id != ann);
    /* kept: the next start is bob's, and switching back finds the same id */
    tutor_settings_text(st, "learner", name, sizeof name);
    assert_string_equal(name, "bob");
    assert_int_equal(tutor_learner_switch(st, "bob", 5000, &again, &why, &err), KVT_E_OK);
    assert_int_equal(again, id);
}

/* The activity chart labels a day with its count, never clamped (a day of
 * 117 answers used to read 99): whole to 999, then thousands and millions in
 * at most four characters, so fourteen columns of five fit 80 columns. */
static void test_activity_labels(void **state)
{
    static const struct {
        int64_t n;
        const char *label;
    } rows[] = {
        {0, "0"},       {7, "7"},         {99, "99"},     {117, "117"},      {191, "191"},
        {999, "999"},   {1000, "1k"},     {1500, "1.5k"}, {9949, "9.9k"},    {9950, "10k"},
        {15400, "15k"}, {999499, "999k"}, {999500, "1M"}, {1260000, "1.3M"}, {25000000, "25M"},
    };
    struct tutor_progress p;
    char buf[32];
    (void)state;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        assert_string_equal(tutor_activity_label(rows[i].n, buf, sizeof buf), rows[i].label);
    memset(&p, 0, sizeof p);
    p.answers[3] = 42;
    assert_int_equal(tutor_activity_width(&p), 3); /* "42 " */
    p.answers[13] = 117;
    assert_int_equal(tutor_activity_width(&p), 4); /* "117 " */
    p.answers[0] = 1500;
    assert_int_equal(tutor_activity_width(&p), 5); /* "1.5k " */
    /* the widest: 14 x 5 columns and the indent of 2, within 80 */
    assert_true(2 + TUTOR_PROGRESS_DAYS * tutor_activity_width(&p) <= 80);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reading_position),
        cmocka_unit_test(test_learner_switch),
        cmocka_unit_test(test_activity_labels),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
