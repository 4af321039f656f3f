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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reading_position),
        cmocka_unit_test(test_learner_switch),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
