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
#include <curses.h>

#include "screen_fx.h"

#define LESSON KVT_SOURCE_DIR "/tests/fixtures/lessons/own-arithmetic.lua"

static char *paths[1] = {(char *)LESSON};

static int setup(void **state)
{
    struct screen_fx *f = screen_fx_new("kvt_ui_screens_");
    if (!f)
        return -1;
    f->o.lesson_paths = paths;
    f->o.n_lessons = 1;
    f->o.open_lesson = "own-arithmetic";
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    screen_fx_free(*state);
    return 0;
}

/* After a wrong answer the quiz shows the exercise's own arithmetic with the
 * parameter drawn for this attempt, not the lesson's example. */
static void wrong_answer_shows_own_arithmetic(void **state)
{
    struct screen_fx *f = *state;
    char why[256];
    struct ui_harness *h = f->h = ui_harness_open(&f->o, 80, 24, why, sizeof why);
    const char *expect = NULL;

    if (!h)
        fail_msg("harness: %s", why);
    on_screen(f, "Where does the cache go?"); /* the reader, on the lesson asked for */
    ui_harness_type(h, "e");
    on_screen(f, "Qwen3-8B in BF16, ");
    /* Qwen3-8B: 2 × 36 layers × 8 KV heads × 128 dims × 2 B = 147,456 B a
     * token; × 12,288 ÷ 2^30 = 1.6875 GiB, × 16,384 ÷ 2^30 = 2.25 GiB */
    if (strstr(screen_fx_shown(f), "12,288 tokens: how many GiB"))
        expect = "147,456 B × 12,288 tokens ÷ 2^30 = 1.6875 GiB";
    else if (strstr(screen_fx_shown(f), "16,384 tokens: how many GiB"))
        expect = "147,456 B × 16,384 tokens ÷ 2^30 = 2.2500 GiB";
    else
        fail_msg("neither drawn length is in the prompt:\n%s", f->screen);
    ui_harness_type(h, "9 GiB\r");
    on_screen(f, expect);
    assert_null(strstr(screen_fx_shown(f), "the lesson's example"));
    assert_null(strstr(screen_fx_shown(f), "Right."));
    ui_harness_close(h);
    f->h = NULL;
}

/* A fixed exercise shows the arithmetic it carries in `worked`, not the
 * lesson's example. */
static void fixed_exercise_shows_its_worked_lines(void **state)
{
    struct screen_fx *f = *state;
    char why[256];
    struct ui_harness *h = f->h = ui_harness_open(&f->o, 80, 24, why, sizeof why);

    if (!h)
        fail_msg("harness: %s", why);
    ui_harness_type(h, "e");
    ui_harness_type(h, "1 GiB\r"); /* the first exercise, wrong */
    ui_harness_type(h, "n");
    on_screen(f, "16-token blocks: how many KiB is a block?");
    ui_harness_type(h, "9000 KiB\r");
    /* 147,456 B a token × 16 ÷ 1,024 = 2,304 KiB */
    on_screen(f, "a block   147,456 B × 16 tokens ÷ 1,024 = 2,304 KiB");
    assert_null(strstr(screen_fx_shown(f), "the lesson's example"));
    ui_harness_close(h);
    f->h = NULL;
}

/* A worked line wider than the screen wraps between words, and its last
 * figure stays with its unit: 75 columns, where 80 leave 74 beside the
 * margin and indent, so "= 56 KiB" goes to the next row whole, under the
 * line's value (57,344 B, after its first " = "). */
static void wide_worked_line_wraps_whole(void **state)
{
    struct screen_fx *f = *state;
    char why[256], err[64];
    const char *s;
    struct ui_harness *h = f->h = ui_harness_open(&f->o, 80, 24, why, sizeof why);

    if (!h)
        fail_msg("harness: %s", why);
    ui_harness_type(h, "e");
    assert_int_equal(ui_harness_step(h, "1 GiB<Enter>n1 KiB<Enter>n", err, sizeof err), 0);
    on_screen(f, "how many KiB of KV cache a token?");
    ui_harness_type(h, "9 KiB\r");
    s = screen_fx_shown(f);
    {
        const char *v = strstr(s, "= 57,344 B\n"), *row, *cont;
        size_t lead, cols_before = 0;
        if (!v)
            fail_msg("no \"= 57,344 B\" at a row's end:\n%s", s);
        for (row = v; row > s && row[-1] != '\n'; row--)
            ;
        cont = strchr(v, '\n') + 1;
        lead = strspn(cont, " ");
        /* the continuation's "=" in the column of the value's first digit:
         * the columns (not bytes: "×" takes two) up to "= " and past it */
        for (const char *c = row; c < v + 2; c++)
            cols_before += ((unsigned char)*c & 0xC0) != 0x80;
        if (strncmp(cont + lead, "= 56 KiB\n", 9) != 0 || lead != cols_before)
            fail_msg("\"= 56 KiB\" is not a row of its own under the value:\n%s", s);
    }
    if (strstr(s, "= 56\n") || strstr(s, " =\n"))
        fail_msg("a row ends on \"=\" or a number without its unit:\n%s", s);
    ui_harness_close(h);
    f->h = NULL;
}

/* A right answer is credited as such, with the tolerance it was held to. */
static void right_answer_is_credited(void **state)
{
    struct screen_fx *f = *state;
    char why[256];
    struct ui_harness *h = f->h = ui_harness_open(&f->o, 80, 24, why, sizeof why);
    const char *answer;

    if (!h)
        fail_msg("harness: %s", why);
    ui_harness_type(h, "e");
    answer =
        strstr(screen_fx_shown(f), "12,288 tokens: how many GiB") ? "1.6875 GiB\r" : "2.25 GiB\r";
    ui_harness_type(h, answer);
    on_screen(f, "Right.");
    /* 1% of 1.6875 GiB is ±0.0169 GiB (of 2.25 GiB, ±0.0225 GiB) */
    on_screen(f, strstr(answer, "1.6875") ? "within 1% (±0.0169 GiB)" : "within 1% (±0.0225 GiB)");
    ui_harness_close(h);
    f->h = NULL;
}

/* Below 80×24 the app says so and q still quits. */
static void too_small_says_so_and_quits(void **state)
{
    struct screen_fx *f = *state;
    char why[256];
    struct ui_harness *h = f->h = ui_harness_open(&f->o, 60, 20, why, sizeof why);

    if (!h)
        fail_msg("harness: %s", why);
    on_screen(f, "Terminal too small: 60×20. kvtutor needs 80×24.");
    assert_false(ui_harness_done(h));
    ui_harness_type(h, "q");
    assert_true(ui_harness_done(h));
    ui_harness_close(h);
    f->h = NULL;
}

static double ui_clock;
static double fake_clock(void)
{
    return ui_clock;
}

static char *kv_cache[1] = {(char *)KVT_SOURCE_DIR "/lessons/part0-foundations/01-kv-cache.lua"};

/* A timed mock interview, 30 s an answer (the settings), on a clock the
 * test moves: the title counts down and the first screen says what happens
 * at zero; at zero what was typed is graded as the answer; with nothing
 * typed the question is passed and the next one asked. */
static void interview_time_runs_out(void **state)
{
    struct screen_fx *f = *state;
    struct store_error err;
    char why[256];
    struct ui_harness *h;

    f->o.lesson_paths = kv_cache;
    f->o.open_lesson = "kv-cache";
    f->o.monotonic = fake_clock;
    ui_clock = 1000;
    assert_int_equal(store_setting_set(f->st, "interview_answer_seconds", "30", &err), KVT_E_OK);
    assert_int_equal(store_setting_set(f->st, "interview_minutes", "0", &err), KVT_E_OK);
    if (!(h = f->h = ui_harness_open(&f->o, 80, 24, why, sizeof why)))
        fail_msg("harness: %s", why);
    ui_harness_type(h, "i");
    on_screen(f, "mock interview · 1 of");
    on_screen(f, "⏱ answer 0:30");
    {
        /* a script cannot move a clock its caller keeps: <Wait 5s> is
         * refused by name and the clock stays where the caller has it */
        char step_err[160];
        assert_int_equal(ui_harness_step(h, "<Wait 5s>", step_err, sizeof step_err), -1);
        assert_non_null(strstr(step_err, "<Wait 5s>: this harness runs on its caller's clock"));
        on_screen(f, "⏱ answer 0:30");
    }
    on_screen(f, "Timed: 0:30 an answer. At 0:00 what you typed is your answer");
    ui_clock += 10;
    ui_harness_type(h, "Each sequence keeps its keys and values in GPU memory");
    on_screen(f, "⏱ answer 0:20");
    ui_clock += 20; /* zero */
    ui_harness_key(h, KEY_RESIZE);
    on_screen(f, "time's up: your answer was taken as typed");
    on_screen(f, "What an interviewer wants to hear:");
    ui_harness_type(h, "\r");
    on_screen(f, "mock interview · 2 of");
    ui_clock += 31;
    ui_harness_key(h, KEY_RESIZE);
    on_screen(f, "time's up: the question was passed with no answer");
    on_screen(f, "mock interview · 3 of");
    /* words that are no answer are not "nothing typed": the reason is said */
    ui_harness_type(h, "?!");
    ui_clock += 30;
    ui_harness_key(h, KEY_RESIZE);
    on_screen(f, "time's up: what you typed is not an answer kvtutor can read (no answer: write");
    on_screen(f, "what you would say); the question was passed");
    on_screen(f, "mock interview · 4 of");
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
        cmocka_unit_test_setup_teardown(interview_time_runs_out, setup, teardown),
    };
    if (!setlocale(LC_ALL, "C.UTF-8"))
        setlocale(LC_ALL, "");
    return cmocka_run_group_tests(tests, NULL, NULL);
}
