/* The line editor's rules (ui_edit.h), without a terminal: a value offered
 * for change is replaced by the first character typed and edited after an
 * editing key, as form fields do; a line set for editing is added to. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <curses.h>

#include "ui_edit.h"

/* Keys as the screen forwards them: a typed character, or an editing key. */
struct key {
    int code; /* 0 ends the list */
    bool typed;
};

static const char *run(const char *start, bool offered, const struct key *keys)
{
    static struct ui_edit e;
    ui_edit_clear(&e);
    if (offered)
        ui_edit_offer(&e, start);
    else
        ui_edit_set(&e, start);
    for (const struct key *k = keys; k->code; k++) {
        if (k->typed)
            ui_edit_insert(&e, (uint32_t)k->code);
        else
            ui_edit_key(&e, k->code);
    }
    return e.buf;
}

#define T(c)                                                                                       \
    {                                                                                              \
        c, true                                                                                    \
    }
#define K(c)                                                                                       \
    {                                                                                              \
        c, false                                                                                   \
    }

static void test_offered_value(void **state)
{
    (void)state;
    static const struct {
        const char *start;
        bool offered;
        struct key keys[6];
        const char *want;
    } rows[] = {
        /* the first key typed replaces the pre-filled 0.9 */
        {"0.9", true, {T('0'), T('.'), T('8'), T('5')}, "0.85"},
        {"20", true, {T('5')}, "5"},
        /* Backspace first: the value is edited, one character gone */
        {"0.9", true, {K(KEY_BACKSPACE), T('5')}, "0.5"},
        /* an arrow first: the cursor moves into the value */
        {"0.9", true, {K(KEY_LEFT), T('5')}, "0.59"},
        {"20", true, {K(KEY_HOME), T('1')}, "120"},
        /* a key that edits nothing leaves the offer standing */
        {"0.9", true, {K(KEY_F(5)), T('7')}, "7"},
        /* a line set, not offered (an answer, a search): typing adds */
        {"0.9", false, {T('5')}, "0.95"},
        /* a control character is never typed, and does not take the offer */
        {"0.9", true, {T(0x1b), T('4')}, "4"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        assert_string_equal(run(rows[i].start, rows[i].offered, rows[i].keys), rows[i].want);
}

/* Up and Down recall earlier lines only where the line keeps a history
 * (an answer); elsewhere (a search, a path, a setting) they are no editing
 * keys, and help lists them only where they work, from the same table. */
static void test_history_keys(void **state)
{
    (void)state;
    static struct ui_edit e;
    const char *label, *help;
    size_t rows_plain = 0, rows_history = 0;
    bool listed = false;

    ui_edit_clear(&e);
    e.keeps_history = true;
    ui_edit_set(&e, "56 KiB");
    ui_edit_remember(&e);
    ui_edit_clear(&e);
    assert_true(ui_edit_key(&e, KEY_UP));
    assert_string_equal(e.buf, "56 KiB");
    assert_true(ui_edit_key(&e, KEY_DOWN));
    assert_string_equal(e.buf, "");

    ui_edit_clear(&e);
    e.keeps_history = false;
    ui_edit_set(&e, "roofline");
    assert_false(ui_edit_key(&e, KEY_UP));
    assert_false(ui_edit_key(&e, KEY_DOWN));
    assert_string_equal(e.buf, "roofline");

    for (; ui_edit_doc(rows_plain, false, &label, &help); rows_plain++)
        listed = listed || strcmp(label, "Up/Down") == 0;
    while (ui_edit_doc(rows_history, true, &label, &help))
        rows_history++;
    assert_false(listed);
    assert_int_equal(rows_history, rows_plain + 1);
    assert_true(ui_edit_doc(rows_plain, true, &label, &help));
    assert_string_equal(label, "Up/Down");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_offered_value),
        cmocka_unit_test(test_history_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
