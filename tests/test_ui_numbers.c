/* Numbers on the app's screens, in-process (ui_harness.h): a sign against
 * its number ("7x", "93.9%"), a share just short of all never shown as
 * 100%, an expected value in the course's format to its tolerance (never a
 * raw decimal), and the playground's figures at 80 columns: vLLM's
 * concurrency, a settings row that breaks between items, weights that do
 * not fit said by how much; the serving view's figures and its scrolling at
 * 80x24. These were tmux checks (tests/cli/test_app_numbers.sh has the
 * progress screen over an import and the probe screen). */
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "screen_fx.h"

#define SCREENS KVT_SOURCE_DIR "/tests/fixtures/screens/"

static char *paths[1]; /* the one fixture lesson a test opens */

static int setup(void **state)
{
    struct screen_fx *f = screen_fx_new("kvt_ui_numbers_");
    if (!f)
        return -1;
    f->o.lesson_paths = paths;
    f->o.n_lessons = 1;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    screen_fx_free(*state);
    return 0;
}

static void open_on(struct screen_fx *f, const char *file, const char *lesson, int cols, int lines)
{
    paths[0] = (char *)file;
    f->o.open_lesson = lesson;
    screen_fx_open(f, cols, lines);
}

/* "x" and "%" against their numbers; 100 + 100 of 201 key points is 99.5%,
 * in the follow-up's result and in the interview's score. */
static void signs_and_shares(void **state)
{
    struct screen_fx *f = *state;
    open_on(f, SCREENS "fmt-check.lua", "fmt-check", 100, 30);
    on_screen(f, "Which letters?");
    ui_harness_type(f->h, "e");
    on_screen(f, "exercise 1 of 2");
    ui_harness_type(f->h, "7\r");
    on_screen(f, "Expected: 7x, within 1% (±0.07x)");
    on_screen(f, "Read as: 7x");
    ui_harness_type(f->h, "\r");
    on_screen(f, "exercise 2 of 2");
    ui_harness_type(f->h, "93.9\r");
    on_screen(f, "Expected: 93.9%, within ±0.5%");
    on_screen(f, "Read as: 93.9%");
    ui_harness_type(f->h, "\r");
    on_screen(f, "Which letters?");
    ui_harness_type(f->h, "alpha and beta\r");
    on_screen(f, "Key points covered: 99.5% (weight 200 of 201)");
    ui_harness_type(f->h, "\r");
    on_screen(f, "3 of 3 answers right");
    ui_harness_type(f->h, "q");
    on_screen(f, "Which letters?");
    ui_harness_type(f->h, "i");
    on_screen(f, "Which letters?");
    ui_harness_type(f->h, "alpha and beta\r");
    /* answered once today already: practice, not rated */
    on_screen(f, "Practice: recorded, not rated (one review a day).");
    ui_harness_type(f->h, "\r");
    on_screen(f, "Interview score: 99.5% of the key points");
}

/* 3% of 1,423.34 is 42.70: shown as ±42.7, and the value to the units such
 * a tolerance makes sense of: 1,423, grouped. */
static void expected_value_to_its_tolerance(void **state)
{
    struct screen_fx *f = *state;
    open_on(f, SCREENS "dec-check.lua", "dec-check", 100, 30);
    ui_harness_type(f->h, "e");
    on_screen(f, "How many tokens a second?");
    ui_harness_type(f->h, "9\r");
    on_screen(f, "Expected: 1,423 tokens/s, within 3% (±42.7 tokens/s)");
    not_on_screen(f, "1423.3");
}

/* The playground at 80x24. Qwen2.5-7B on an RTX 4090: 24 GiB × 0.92 =
 * 23,708,219,883 B usable, less 7,615,616,512 × 2 B of weights =
 * 8,476,986,859 B of KV; a block is 16 × 2 × 4 × 128 × 2 B × 28 layers =
 * 917,504 B: 9,239 blocks; 8,192 tokens are 512 blocks: 9,239 ÷ 512 =
 * 18.045, which vLLM prints "18.04x". */
static const char *line_with(struct screen_fx *f, const char *text, char *buf, size_t cap);

static void playground_at_80(void **state)
{
    struct screen_fx *f = *state;
    const char *s, *tp;
    char row[256];
    open_on(f, SCREENS "dec-check.lua", NULL, 80, 24);
    on_screen(f, "Course map");
    ui_harness_type(f->h, "=");
    on_screen(f, "Calculator playground");
    on_screen(f, "Max concurrency at 8,192 tokens: 18.04x  →  18 whole sequences");
    on_screen(f, "Qwen/Qwen2.5-7B-Instruct  (KV 56 KiB a token)");
    on_screen(f, "GPU    RTX 4090: 24 GiB, 1,008 GB/s");
    /* 24 GiB × (1 − 0.92) = 1.92 GiB held back, with the minus sign */
    on_screen(f, "░ reserve (1 − util) 1.92 GiB");
    on_screen(f, "128k");
    /* the chart's rows as vLLM logs its concurrency (the line above too):
     * 9,239 blocks of 16 tokens; 1,024 tokens take 64 blocks, 8,192 take 512:
     * 9,239 / 64 = 144.36x, 9,239 / 512 = 18.04x (it drew "144" and "18") */
    on_screen(f, "144.36x");
    s = line_with(f, "    8k ", row, sizeof row);
    assert_non_null(strstr(s, "18.04x"));
    /* Qwen2.5-7B's config.json: max_position_embeddings 32,768; a longer
     * row says vLLM refuses it rather than drawing a zero */
    s = line_with(f, "   64k ", row, sizeof row);
    assert_non_null(strstr(s, "past the model's 32,768 positions: vLLM refuses it"));
    /* four doublings of the context (131,072) and eight of the batch (256):
     * the row is 2 + 78 columns, so TP moves to a row of its own */
    ui_harness_type(f->h, "ccccbbbbbbbb");
    on_screen(f, "context 131,072 tokens · batch 256 · KV auto · weights auto · util 0.92");
    s = screen_fx_shown(f);
    tp = strstr(s, "\n    TP 1\n");
    assert_non_null(tp);
    ui_harness_type(f->h, "CCCCBBBBBBBB");
    /* Qwen2.5-14B: 14,770,033,664 × 2 B = 29,540,067,328 B (27.5 GiB)
     * against 23,708,219,883 B usable: 5,831,847,445 B = 5.43 GiB over */
    ui_harness_type(f->h, "m");
    on_screen(f, "The weights do not fit: 5.43 GiB over what one GPU may use");
    on_screen(f, "█ weights 27.5 GiB · usable 22.1 GiB (24 GiB × 0.92)");
    not_on_screen(f, "KV budget");
    not_on_screen(f, "Max concurrency");
    not_on_screen(f, "0.00");
    ui_harness_type(f->h, "a");
    on_screen(f, "budget     24 GiB × 0.92 − 27.5 GiB weights < 0: none");
    /* no "blocks ... →" line: there are no blocks without a budget */
    s = screen_fx_shown(f);
    for (const char *l = s; *l;) {
        size_t len = strcspn(l, "\n");
        const char *b = strstr(l, "blocks "), *arrow = strstr(l, "→");
        if (b && arrow && b < l + len && arrow > b && arrow < l + len)
            fail_msg("a blocks line without a budget:\n%s", s);
        l += len + (l[len] == '\n');
    }
}

/* The line of the screen that holds `text`, into buf; fails when none. */
static const char *line_with(struct screen_fx *f, const char *text, char *buf, size_t cap)
{
    const char *s = screen_fx_shown(f), *at = strstr(s, text), *b;
    size_t len;
    if (!at)
        fail_msg("no line with \"%s\"; the screen:\n%s", text, s);
    for (b = at; b > s && b[-1] != '\n'; b--)
        ;
    len = strcspn(b, "\n");
    snprintf(buf, cap, "%.*s", (int)len, b);
    return buf;
}

/* A rate past the knee's ladder (its top rung is 8 req/s here) is a row of
 * its own, marked, with the headline's p99: the ▶ never goes missing. */
static void rate_past_the_ladder(void **state)
{
    struct screen_fx *f = *state;
    char row[256], head[256], last[256], p99[32];
    const char *a, *e;
    open_on(f, SCREENS "dec-check.lua", NULL, 100, 30);
    ui_harness_type(f->h, "=s");
    on_screen(f, "rate 2 req/s");
    ui_harness_type(f->h, "rrrrrrr"); /* 2.5, 3, 4, 5, 6, 8, 10 */
    on_screen(f, "rate 10 req/s");
    line_with(f, "TTFT median", head, sizeof head);
    /* the headline's p99 TTFT, between "p99 " and " ·" ("51.8 s") */
    a = strstr(head, "p99 ");
    assert_non_null(a);
    e = strstr(a, " \xc2\xb7");
    assert_non_null(e);
    snprintf(p99, sizeof p99, " %.*s ", (int)(e - a - 4), a + 4);
    line_with(f, "\xe2\x96\xb6", row, sizeof row);
    if (!strstr(row, " 10 ") || !strstr(row, p99))
        fail_msg("the marked row \"%s\" is not 10 req/s with the headline's p99%s", row, p99);
    /* the last row: past the ladder's top, nothing below it */
    line_with(f, "     8 ", last, sizeof last);
    if (strstr(screen_fx_shown(f), row) < strstr(screen_fx_shown(f), last))
        fail_msg("the 10 req/s row is not below the 8 req/s rung");
}

/* The serving view at 80x24 (= then s): its figures in the course's format,
 * the headline's p99 TTFT the same text as the knee's marked row shows for
 * that rate (it was "p99 714.82 ms" beside "715"), and a view taller than
 * the screen that scrolls to vLLM's defaults and the `kvtutor sim` command
 * rather than leave them out, saying there is more until there is not. */
static void serving_view_at_80(void **state)
{
    struct screen_fx *f = *state;
    char head[256], row[256], p99[32];
    const char *a, *e;
    open_on(f, SCREENS "dec-check.lua", NULL, 80, 24);
    ui_harness_type(f->h, "=s");
    on_screen(f, "serving under load");
    on_screen(f, "rate 2 req/s");
    line_with(f, "TTFT median", head, sizeof head);
    /* the p99 TTFT as the headline writes it, with its unit: between
     * "p99 " and " ·" ("715 ms") */
    a = strstr(head, "p99 ");
    assert_non_null(a);
    e = strstr(a, " \xc2\xb7");
    assert_non_null(e);
    snprintf(p99, sizeof p99, " %.*s ", (int)(e - a - 4), a + 4);
    line_with(f, "\xe2\x96\xb6", row, sizeof row); /* ▶, the rate shown */
    if (!strstr(row, p99))
        fail_msg("the knee's row \"%s\" lacks the headline's p99%s", row, p99);
    /* no two-decimal figure of vllm bench's own ("195.58 ms", "252.66 tok/s") */
    for (const char *d = head; (d = strchr(d, '.')) != NULL; d++)
        if (d[1] >= '0' && d[1] <= '9' && d[2] >= '0' && d[2] <= '9' && d > head + 2 &&
            d[-3] >= '0' && d[-3] <= '9')
            fail_msg("a figure of 100 or more with decimals in \"%s\"", head);
    on_screen(f, "tok/s out");
    not_on_screen(f, ".66 tok/s");
    on_screen(f, "more below: Space or j");
    not_on_screen(f, "kvtutor sim --model");
    ui_harness_type(f->h, " ");
    /* the RTX 4090 preset's vLLM defaults (tests/tui/test_tui_sim.sh reads
     * the same from kvtutor sim --json) and the command, whole */
    on_screen(f, "max_num_seqs 256, max_num_batched_tokens 2,048");
    on_screen(f, "kvtutor sim --model qwen2.5-7b --gpu rtx4090 --max-model-len 8192");
    on_screen(f, "--request-rate 2");
    /* wrapped between flags: each flag on the line of its value */
    on_screen(f, "--util 0.92");
    not_on_screen(f, "more below");
    ui_harness_type(f->h, "b");
    on_screen(f, "input 1,024 · output 128 tokens");
    on_screen(f, "more below: Space or j");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(signs_and_shares, setup, teardown),
        cmocka_unit_test_setup_teardown(expected_value_to_its_tolerance, setup, teardown),
        cmocka_unit_test_setup_teardown(playground_at_80, setup, teardown),
        cmocka_unit_test_setup_teardown(serving_view_at_80, setup, teardown),
        cmocka_unit_test_setup_teardown(rate_past_the_ladder, setup, teardown),
    };
    if (!setlocale(LC_ALL, "C.UTF-8"))
        setlocale(LC_ALL, "");
    return cmocka_run_group_tests(tests, NULL, NULL);
}
