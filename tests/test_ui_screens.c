/* The app's screens in-process (ui_harness.h): keys scripted, the screen
 * read back as text, through the same steps a learner's keys take in the
 * terminal. No tmux, no child process, no sleeps. */
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lx.h"
#include "store.h"
#include "tmp_dir.h"
#include "ui_harness.h"

#define LESSON KVT_SOURCE_DIR "/tests/fixtures/lessons/own-arithmetic.lua"

struct fx {
    char dir[256], db[320];
    struct store *st;
    char *paths[1];
    struct ui_options o;
    char screen[16384];
    struct ui_harness *h; /* closed by teardown when a test fails half-way */
};

static int setup(void **state)
{
    struct fx *f = calloc(1, sizeof *f);
    struct store_error err;
    if (!f || tmp_dir_make(f->dir, sizeof f->dir, "kvt_ui_screens_") != 0)
        return -1;
    snprintf(f->db, sizeof f->db, "%s/progress.db", f->dir);
    if (store_open(f->db, false, &f->st, &err) != KVT_E_OK ||
        store_learner(f->st, "default", 1000, &f->o.learner_id, &err) != KVT_E_OK)
        return -1;
    f->paths[0] = (char *)LESSON;
    f->o.store = f->st;
    f->o.db_path = f->db;
    f->o.learner = "default";
    lx_default_opts(&f->o.lx);
    f->o.lx.dsl = KVT_SOURCE_DIR "/lua/kvtutor.lua";
    f->o.lesson_paths = f->paths;
    f->o.n_lessons = 1;
    f->o.open_lesson = "own-arithmetic";
    f->o.build = "test";
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fx *f = *state;
    ui_harness_close(f->h);
    store_close(f->st);
    tmp_dir_remove(f->dir);
    free(f);
    return 0;
}

static const char *shown(struct fx *f, struct ui_harness *h)
{
    return ui_harness_screen(h, f->screen, sizeof f->screen);
}

#define assert_on_screen(f, h, text)                                                               \
    do {                                                                                           \
        const char *s_ = shown(f, h);                                                              \
        if (!strstr(s_, text))                                                                     \
            fail_msg("not on the screen: \"%s\"; the screen:\n%s", text, s_);                      \
    } while (0)

/* After a wrong answer the quiz shows the exercise's own arithmetic with the
 * parameter drawn for this attempt, not the lesson's example. */
static void wrong_answer_shows_own_arithmetic(void **state)
{
    struct fx *f = *state;
    char why[256];
    struct ui_harness *h = f->h = ui_harness_open(&f->o, 80, 24, why, sizeof why);
    const char *expect = NULL;

    if (!h)
        fail_msg("harness: %s", why);
    assert_on_screen(f, h, "Where does the cache go?"); /* the reader, on the lesson asked for */
    ui_harness_type(h, "e");
    assert_on_screen(f, h, "Qwen3-8B in BF16, ");
    /* Qwen3-8B: 2 × 36 layers × 8 KV heads × 128 dims × 2 B = 147,456 B a
     * token; × 12,288 ÷ 2^30 = 1.6875 GiB, × 16,384 ÷ 2^30 = 2.25 GiB */
    if (strstr(shown(f, h), "12,288 tokens: how many GiB"))
        expect = "147,456 B × 12,288 tokens ÷ 2^30 = 1.6875 GiB";
    else if (strstr(shown(f, h), "16,384 tokens: how many GiB"))
        expect = "147,456 B × 16,384 tokens ÷ 2^30 = 2.2500 GiB";
    else
        fail_msg("neither drawn length is in the prompt:\n%s", f->screen);
    ui_harness_type(h, "9 GiB\r");
    assert_on_screen(f, h, expect);
    assert_null(strstr(shown(f, h), "the lesson's example"));
    assert_null(strstr(shown(f, h), "Right."));
    ui_harness_close(h);
    f->h = NULL;
}

/* A fixed exercise shows the arithmetic it carries in `worked`, not the
 * lesson's example. */
static void fixed_exercise_shows_its_worked_lines(void **state)
{
    struct fx *f = *state;
    char why[256];
    struct ui_harness *h = f->h = ui_harness_open(&f->o, 80, 24, why, sizeof why);

    if (!h)
        fail_msg("harness: %s", why);
    ui_harness_type(h, "e");
    ui_harness_type(h, "1 GiB\r"); /* the first exercise, wrong */
    ui_harness_type(h, "n");
    assert_on_screen(f, h, "16-token blocks: how many KiB is a block?");
    ui_harness_type(h, "9000 KiB\r");
    /* 147,456 B a token × 16 ÷ 1,024 = 2,304 KiB */
    assert_on_screen(f, h, "a block   147,456 B × 16 tokens ÷ 1,024 = 2,304 KiB");
    assert_null(strstr(shown(f, h), "the lesson's example"));
    ui_harness_close(h);
    f->h = NULL;
}

/* A worked line wider than the screen wraps between words, and its last
 * figure stays with its unit: 75 columns, where 80 leave 74 beside the
 * margin and indent, so "= 56 KiB" goes to the next row whole. */
static void wide_worked_line_wraps_whole(void **state)
{
    struct fx *f = *state;
    char why[256], err[64];
    const char *s;
    struct ui_harness *h = f->h = ui_harness_open(&f->o, 80, 24, why, sizeof why);

    if (!h)
        fail_msg("harness: %s", why);
    ui_harness_type(h, "e");
    assert_int_equal(ui_harness_step(h, "1 GiB<Enter>n1 KiB<Enter>n", err, sizeof err), 0);
    assert_on_screen(f, h, "how many KiB of KV cache a token?");
    ui_harness_type(h, "9 KiB\r");
    s = shown(f, h);
    /* the continuation 2 past the line's indent: column 5 */
    if (!strstr(s, "\n     = 56 KiB\n"))
        fail_msg("\"= 56 KiB\" is not a row of its own:\n%s", s);
    if (strstr(s, "= 56\n") || strstr(s, " =\n"))
        fail_msg("a row ends on \"=\" or a number without its unit:\n%s", s);
    ui_harness_close(h);
    f->h = NULL;
}

/* A right answer is credited as such, with the tolerance it was held to. */
static void right_answer_is_credited(void **state)
{
    struct fx *f = *state;
    char why[256];
    struct ui_harness *h = f->h = ui_harness_open(&f->o, 80, 24, why, sizeof why);
    const char *answer;

    if (!h)
        fail_msg("harness: %s", why);
    ui_harness_type(h, "e");
    answer = strstr(shown(f, h), "12,288 tokens: how many GiB") ? "1.6875 GiB\r" : "2.25 GiB\r";
    ui_harness_type(h, answer);
    assert_on_screen(f, h, "Right.");
    /* 1% of 1.6875 GiB is ±0.0169 GiB (of 2.25 GiB, ±0.0225 GiB) */
    assert_on_screen(
        f, h, strstr(answer, "1.6875") ? "within 1% (±0.0169 GiB)" : "within 1% (±0.0225 GiB)");
    ui_harness_close(h);
    f->h = NULL;
}

/* Below 80×24 the app says so and q still quits. */
static void too_small_says_so_and_quits(void **state)
{
    struct fx *f = *state;
    char why[256];
    struct ui_harness *h = f->h = ui_harness_open(&f->o, 60, 20, why, sizeof why);

    if (!h)
        fail_msg("harness: %s", why);
    assert_on_screen(f, h, "Terminal too small: 60×20. kvtutor needs 80×24.");
    assert_false(ui_harness_done(h));
    ui_harness_type(h, "q");
    assert_true(ui_harness_done(h));
    ui_harness_close(h);
    f->h = NULL;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(wrong_answer_shows_own_arithmetic, setup, teardown),
        cmocka_unit_test_setup_teardown(fixed_exercise_shows_its_worked_lines, setup, teardown),
        cmocka_unit_test_setup_teardown(wide_worked_line_wraps_whole, setup, teardown),
        cmocka_unit_test_setup_teardown(right_answer_is_credited, setup, teardown),
        cmocka_unit_test_setup_teardown(too_small_says_so_and_quits, setup, teardown),
    };
    if (!setlocale(LC_ALL, "C.UTF-8"))
        setlocale(LC_ALL, "");
    return cmocka_run_group_tests(tests, NULL, NULL);
}
