/* The bundled course's screens at 80x24, the smallest terminal the app
 * takes, in-process (ui_harness.h): help lists the keys of the screen it
 * came from, settings edit as a form, a graded exercise's lines wrap and
 * its status line is whole, counts in the singular, a result taller than
 * the screen scrolls, an interview's summary, the playground's keys and a
 * log's lines, one new exercise a day, and refusals that wrap rather than
 * lose their instruction. These were tmux checks (test_tui_80.sh keeps
 * what needs a real terminal: resizes, the welcome back, the probe). */
#define _POSIX_C_SOURCE 200809L
#include <glob.h>
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "screen_fx.h"

static glob_t lessons; /* the bundled course, one test at a time */

/* The bundled course in its order (Part 0, then Part 1), a new database. */
static int setup(void **state)
{
    struct screen_fx *f = screen_fx_new("kvt_ui_80_");
    if (!f || glob(KVT_SOURCE_DIR "/lessons/part0-foundations/*.lua", 0, NULL, &lessons) != 0 ||
        glob(KVT_SOURCE_DIR "/lessons/part1-serving/*.lua", GLOB_APPEND, NULL, &lessons) != 0)
        return -1;
    f->o.lesson_paths = lessons.gl_pathv;
    f->o.n_lessons = lessons.gl_pathc;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    screen_fx_free(*state);
    globfree(&lessons);
    return 0;
}

static void open80(struct screen_fx *f)
{
    screen_fx_open(f, 80, 24);
    on_screen(f, "Course map");
}

/* Help lists the keys of the screen it came from, even asked twice. */
static void help_is_the_screens_own(void **state)
{
    struct screen_fx *f = *state;
    open80(f);
    ui_harness_type(f->h, "g\r");
    on_screen(f, "Direct answer");
    ui_harness_type(f->h, "?");
    on_screen(f, "follow: open the selected link");
    ui_harness_type(f->h, "?");
    /* the help from a lesson is still shown: not the course map's keys */
    on_screen(f, "follow: open the selected link");
    not_on_screen(f, "review: today's due");
    on_screen(f, "default │ q back");
    {
        const char *any = strstr(screen_fx_shown(f), "Anywhere:");
        assert_non_null(any);
        assert_non_null(strstr(any, "saved as given."));
    }
    ui_harness_type(f->h, "q");
    on_screen(f, "Direct answer");
    status_is(f, "default │ ? help  e exercises  f follow-ups  i interview  Tab link");
    screen_fx_close(f);
}

/* Settings: Enter changes a setting; the first key typed replaces the
 * value, an editing key first edits it. */
static void settings_edit_as_a_form(void **state)
{
    struct screen_fx *f = *state;
    open80(f);
    ui_harness_type(f->h, "S");
    on_screen(f, "Desired retention");
    on_screen(f, "default │ ? help  Enter change");
    ui_harness_type(f->h, "\r");
    on_screen(f, "default │ F1 help");
    ui_harness_type(f->h, "0.85\r");
    on_screen(f, "Desired retention saved");
    {
        const char *r = strstr(screen_fx_shown(f), "Desired retention");
        assert_non_null(r);
        r += strlen("Desired retention");
        r += strspn(r, " ");
        if (strncmp(r, "0.85", 4) != 0)
            fail_msg("the retention does not read 0.85:\n%s", f->screen);
    }
    /* 20, Backspace, 5 is 25 */
    ui_harness_type(f->h, "j\r");
    on_screen(f, "default │ F1 help");
    assert_int_equal(ui_harness_step(f->h, "<BS>5<Enter>", f->line, sizeof f->line), 0);
    on_screen(f, "New exercises a day saved");
    {
        const char *r = strstr(screen_fx_shown(f), "New exercises a day ");
        assert_non_null(r);
        r += strlen("New exercises a day");
        r += strspn(r, " ");
        if (strncmp(r, "25", 2) != 0)
            fail_msg("new exercises a day does not read 25:\n%s", f->screen);
    }
    screen_fx_close(f);
}

/* A graded exercise, a follow-up typed across the line, help while typing,
 * then progress in the singular. */
static void graded_exercise_and_progress(void **state)
{
    struct screen_fx *f = *state;
    const char *words = "quantise the weights with AWQ and keep the KV cache in fp8 to fit more";
    char typed[128];
    open80(f);
    ui_harness_type(f->h, "ge");
    on_screen(f, "Answer:");
    ui_harness_type(f->h, "28 KiB\r");
    on_screen(f, "Not quite.");
    /* the exercise's own lines (01-kv-cache.lua, per-token):
     * 2 × 28 × 4 × 128 × 2 B = 57,344 B */
    on_screen(f, "= 57,344 B");
    on_screen(f, "Enter saves, goes on");
    status_is(f, "default │ ? help  Enter/n next  a again  h hint  1-4 rate  f follow-ups");
    ui_harness_type(f->h, "f");
    on_screen(f, "Answer in your words:");
    /* 70 characters, more than the numeric field's 68 columns */
    ui_harness_type(f->h, words);
    on_screen(f, words);
    assert_int_equal(ui_harness_step(f->h, "<C-u><F1>", typed, sizeof typed), 0);
    on_screen(f, "Ctrl-U/W");
    ui_harness_type(f->h, "q");
    on_screen(f, "Answer in your words:");
    ui_harness_type(f->h, "\033");
    on_screen(f, "Course map");
    ui_harness_type(f->h, "p");
    on_screen(f, "1 answer, 0% right · streak 1 day");
    on_screen(f, "Seen: 1 exercise, 0 follow-ups, 0 lesson questions");
    screen_fx_close(f);
}

/* A follow-up with no hints offers no hint key, and no f. */
static void followup_offers_no_hint(void **state)
{
    struct screen_fx *f = *state;
    open80(f);
    ui_harness_type(f->h, "gf");
    on_screen(f, "Answer in your words:");
    ui_harness_type(f->h, "No idea.\r");
    on_screen(f, "Rating:");
    status_is(f, "default │ ? help  Enter/n next  a again  1-4 rate");
    screen_fx_close(f);
}

/* A graded answer taller than the screen says there is more below, until
 * its end is reached. */
static void tall_result_scrolls(void **state)
{
    struct screen_fx *f = *state;
    open80(f);
    ui_harness_type(f->h, "gi");
    on_screen(f, "The interviewer asks:");
    ui_harness_type(f->h, "The KV cache grows with every token of each request, while the "
                          "weights are loaded once; decode is memory-bound\r");
    on_screen(f, "Rating:");
    on_screen(f, "more below: Space");
    ui_harness_type(f->h, "   ");
    not_on_screen(f, "more below");
    screen_fx_close(f);
}

/* An interview's summary offers no answer keys, and its lines wrap: the
 * score's line (82 columns with its indent) keeps its time. */
static void interview_summary_keys(void **state)
{
    struct screen_fx *f = *state;
    open80(f);
    ui_harness_type(f->h, "gi");
    on_screen(f, "The interviewer asks:");
    for (int i = 0; i < 7; i++) { /* the question and the lesson's six follow-ups */
        ui_harness_type(f->h, "No idea.\r");
        on_screen(f, "Rating:");
        ui_harness_type(f->h, "\r");
    }
    on_screen(f, "Interview score");
    on_screen(f, "(each answer's share, averaged), in");
    on_screen(f, "   0:0"); /* the time, wrapped to the next line */
    on_screen(f, "answer 6: ");
    on_screen(f, "q goes back; the progress screen (p on the map) has the rest.");
    status_is(f, "default │ ? help");
    screen_fx_close(f);
}

/* Enter with nothing typed says what it waits for, in an interview and in
 * practice (where Ctrl-N skips), and leaves the question where it was; the
 * note goes once the learner types (it said "nothing typed" above a typed
 * answer). */
static void empty_enter_says_why(void **state)
{
    struct screen_fx *f = *state;
    open80(f);
    ui_harness_type(f->h, "gi");
    on_screen(f, "The interviewer asks:");
    ui_harness_type(f->h, "\r");
    on_screen(f, "Nothing typed yet: write an answer, then Enter (Esc leaves)");
    on_screen(f, "The interviewer asks:");
    ui_harness_type(f->h, "d");
    not_on_screen(f, "Nothing typed yet");
    ui_harness_type(f->h, "\x7f"); /* the field empty again, for Esc below */
    ui_harness_type(f->h, "\x1b\x1bge");
    on_screen(f, "How many bytes of KV cache does one token take");
    ui_harness_type(f->h, "\r");
    on_screen(f, "Nothing typed yet: write an answer, then Enter (Ctrl-N skips this one)");
    screen_fx_close(f);
}

/* A lesson reopened part-way down says so, and how to get to its top; a
 * lesson opened at its start says nothing. */
static void reader_says_it_resumed(void **state)
{
    struct screen_fx *f = *state;
    open80(f);
    ui_harness_type(f->h, "g\r");
    on_screen(f, "The KV cache caps concurrency");
    not_on_screen(f, "Back where you left off");
    ui_harness_type(f->h, "  q");
    on_screen(f, "Course map");
    ui_harness_type(f->h, "\r");
    on_screen(f, "Back where you left off; g goes to the top");
    screen_fx_close(f);
}

/* Wrapped lines keep their columns at 80x24: a numbered follow-up hangs
 * under its text (a wrapped "64." at the margin read as item 64), "Builds
 * on" under its first title, and a worked line's tail under its value. The
 * title bar holds the title, so the page does not repeat it. */
static void reader_hangs_wrapped_lines(void **state)
{
    struct screen_fx *f = *state;
    open80(f);
    /* Part 1's lesson 6, the last on the map: its follow-ups at its end */
    ui_harness_type(f->h, "G\rG");
    on_screen(f, "   1. Your adapters are all rank 8, but the deployment sets --max-lora-rank\n"
                 "      64. What does that cost, and what would you change?\n");
    ui_harness_type(f->h, "q");
    on_screen(f, "Course map");
    /* Part 0's lesson 10 builds on three lessons */
    ui_harness_type(f->h, "g"
                          "jjjjjjjjj"
                          "\r");
    on_screen(f, "kvtutor · Sizing a deployment, as vLLM logs it\n\n Question\n");
    ui_harness_type(f->h, " ");
    /* under "Continuous", 3 + 11 columns in ("   Builds on: ") */
    on_screen(f, "\n              weights: AWQ, GPTQ, fp8 · Tensor parallelism and the KV cache\n");
    ui_harness_type(f->h, "q");
    /* lesson 7's worked GQA line is 79 columns: "(7×)" goes under 57,344 */
    ui_harness_type(f->h, "g"
                          "jjjjjj"
                          "\r"
                          "      ");
    on_screen(f, "   GQA    2 × 28 × 4 × 128 × 2 B                       =  57,344 B =  56 KiB\n"
                 "                                                          (7×)\n");
    screen_fx_close(f);
}

/* A TP the model's heads refuse says so with the model's own figures
 * (Qwen2.5-7B: 28 query heads, 4 KV heads; TP 8 is a multiple of 4, so the
 * KV heads could be copied, but 28 / 8 = 3.5 query heads a GPU is the
 * fault), not the calculator's field name "(tp)". */
static void playground_tp_refusal_names_heads(void **state)
{
    struct screen_fx *f = *state;
    open80(f);
    ui_harness_type(f->h, "=ttt");
    on_screen(f, "TP 8 cannot lay this model out: tensor-parallel degree must divide the query\n"
                 "  heads; it has 28 query heads and 4 KV heads. t/T change TP.");
    not_on_screen(f, "(tp)");
    screen_fx_close(f);
}

/* A free-text result at 80x24: one clause that covers three points is
 * quoted once, not three times (the model answer was pushed off the
 * screen), and a wrapped quote hangs under its first word. */
static void result_quotes_a_clause_once(void **state)
{
    struct screen_fx *f = *state;
    open80(f);
    ui_harness_type(f->h, "ge");
    for (int i = 0; i < 11; i++) /* to the 12th exercise, why-not-compute */
        ui_harness_key(f->h, 14);
    ui_harness_type(f->h, "decode rereads the weights and whole cache each step so it is memory "
                          "bandwidth bound, and the cache memory caps how many sequences fit; "
                          "flops sit idle\r");
    on_screen(f, "       you said: \"decode rereads the weights and whole cache each step so it\n"
                 "                 is memory bandwidth bound,");
    on_screen(f, "     ✓ each step rereads the weights and the KV cache\n"
                 "       you said it in the words quoted above\n");
    screen_fx_close(f);
}

/* The playground's o and l named by what they open; a log with a long
 * name: its tally, the name whole, its own GPU, the lines in column 2. */
static void playground_keys_and_log(void **state)
{
    struct screen_fx *f = *state;
    const char *s;
    open80(f);
    ui_harness_type(f->h, "=");
    on_screen(f, "Calculator playground");
    ui_harness_type(f->h, "?");
    on_screen(f, "config.json: open one for the model");
    on_screen(f, "log: open a vLLM start-up log");
    ui_harness_type(f->h, "q");
    on_screen(f, "Calculator playground");
    ui_harness_type(f->h, "l");
    on_screen(f, "vLLM log path:");
    ui_harness_type(f->h,
                    KVT_SOURCE_DIR "/tests/fixtures/vllm-logs/v0.19.0-r030-gemma-3-27b.log\r");
    on_screen(f, "vLLM 0.19.0 log: 3 match, 0 differ, 1 not recomputed");
    on_screen(f, "File: v0.19.0-r030-gemma-3-27b.log");
    /* measured on its own GPU: no preset's 24 GiB over its 19.53 GiB */
    on_screen(f, "GPU    the log's own");
    not_on_screen(f, "RTX 4090");
    s = screen_fx_shown(f);
    assert_true(strstr(s, "\n  Assumed: ") != NULL);
    assert_true(strstr(s, "\n  line 4  Available KV cache memory") != NULL);
    screen_fx_close(f);
}

/* Help names the keys that move through a page only where there is more
 * than fits: not on an empty progress page, yet on a graded follow-up (its
 * key points and model answer) taller than 80x24. */
static void help_moves_only_where_it_scrolls(void **state)
{
    struct screen_fx *f = *state;
    open80(f);
    ui_harness_type(f->h, "p");
    on_screen(f, "Progress of");
    not_on_screen(f, "more below");
    ui_harness_type(f->h, "?");
    on_screen(f, "Help: the keys that work here");
    not_on_screen(f, "j/k");
    not_on_screen(f, "Space/b");
    ui_harness_type(f->h, "qqf");
    on_screen(f, "follow-up 1 of");
    ui_harness_type(f->h, "decode is memory bound\r");
    on_screen(f, "more below: Space");
    ui_harness_type(f->h, "?");
    on_screen(f, "j/k");
    screen_fx_close(f);
}

/* A logged line wider than the screen is wrapped under its text, not cut at
 * the edge (where "Maximum concurrency for 8,192 to" read as vLLM's line);
 * the worked lines divide with ÷, as the course writes it. */
static void long_log_line_wraps(void **state)
{
    struct screen_fx *f = *state;
    const char *s;
    open80(f);
    ui_harness_type(f->h, "=l");
    on_screen(f, "vLLM log path:");
    ui_harness_type(f->h,
                    KVT_SOURCE_DIR "/tests/fixtures/vllm-logs/one-line-r044-llama-3.1-8b.log\r");
    on_screen(f, "File: one-line-r044-llama-3.1-8b.log");
    ui_harness_type(f->h, " ");
    s = screen_fx_shown(f);
    assert_true(strstr(s, "line 8  GPU KV cache size: 476,016 tokens, Maximum concurrency for\n"
                          "          8,192 tokens per request: 58.11x") != NULL);
    on_screen(f, "58.11 GiB \xc3\xb7 2 MiB = 29,752 blocks");
    screen_fx_close(f);
    /* the same log, its line 8 ending "(*x* `y`)": a log's * and ` are its
     * own characters, shown as logged, not read as the lessons' markup */
    open80(f);
    ui_harness_type(f->h, "=l");
    on_screen(f, "vLLM log path:");
    ui_harness_type(f->h, KVT_SOURCE_DIR "/tests/fixtures/screens/markup-chars.log\r");
    on_screen(f, "File: markup-chars.log");
    ui_harness_type(f->h, " ");
    on_screen(f, "58.11x (*x* `y`)");
    screen_fx_close(f);
}

/* A config.json opened in the playground wins over the preset a log names
 * (explain-log's --config): the log says which model explains it and why,
 * and a model changed while the log is shown closes it, rather than leave
 * its figures under a model they are not for. r044 is Llama-3.1-8B's log;
 * Qwen3-14B's config gives other figures (0 match). Wide, so the note
 * stays on one line whatever the checkout's path. */
static void playground_log_names_its_model(void **state)
{
    struct screen_fx *f = *state;
    screen_fx_open(f, 220, 40);
    on_screen(f, "Course map");
    ui_harness_type(f->h, "=o" KVT_SOURCE_DIR "/tests/fixtures/configs/qwen3-14b.config.json\r");
    on_screen(f, "qwen3-14b.config.json loaded");
    ui_harness_type(f->h,
                    "l" KVT_SOURCE_DIR "/tests/fixtures/vllm-logs/v0.19.0-r044-llama-3.1-8b.log\r");
    on_screen(f, "vLLM 0.19.0 log: 0 match");
    on_screen(f, "qwen3-14b.config.json, the config.json opened with o, not the log's "
                 "meta-llama/Llama-3.1-8B-Instruct: an opened config wins");
    ui_harness_type(f->h, "m");
    on_screen(f, "the log closed: it was explained against the model before");
    not_on_screen(f, "vLLM 0.19.0 log:");
    /* a preset chosen: the log is explained under the model it names */
    ui_harness_type(f->h,
                    "l" KVT_SOURCE_DIR "/tests/fixtures/vllm-logs/v0.19.0-r044-llama-3.1-8b.log\r");
    on_screen(
        f, "Model: meta-llama/Llama-3.1-8B-Instruct (the preset llama-3.1-8b), named by the log");
    on_screen(f, "vLLM 0.19.0 log: 2 match, 0 differ");
    screen_fx_close(f);
}

/* One new exercise a day (a fresh database): before any answer, progress
 * says how to start; the review summary in the singular; then nothing left
 * for today. A 64-character learner name leaves the map's keys room. */
static void one_new_a_day(void **state)
{
    struct screen_fx *f = *state;
    const char *name = "a-learner-name-of-sixty-four-characters-the-longest-allowed-xyzw";
    char line[160];
    open80(f);
    ui_harness_type(f->h, "p");
    on_screen(f, "No answers yet. Open a lesson");
    not_on_screen(f, "Accuracy by concept");
    ui_harness_type(f->h, "q");
    on_screen(f, "Course map");
    ui_harness_type(f->h, "S");
    on_screen(f, "New exercises a day");
    ui_harness_type(f->h, "j\r1\r");
    on_screen(f, "New exercises a day saved");
    ui_harness_type(f->h, "q");
    on_screen(f, "0 due today · 1 new");
    ui_harness_type(f->h, "r");
    on_screen(f, "review · 1 of 1");
    ui_harness_type(f->h, "56 KiB\r"); /* 57,344 B = 56 KiB a token */
    on_screen(f, "Right.");
    ui_harness_type(f->h, "\r");
    on_screen(f, "1 of 1 answer right.");
    ui_harness_type(f->h, "q");
    on_screen(f, "Course map");
    ui_harness_type(f->h, "r");
    on_screen(f, "Nothing is due today, and no new exercise is left for today.");
    ui_harness_type(f->h, "qS");
    on_screen(f, "Learner");
    ui_harness_type(f->h, "jjjj\r"); /* the last row, after the interview's two limits */
    snprintf(line, sizeof line, "%s\r", name);
    ui_harness_type(f->h, line);
    on_screen(f, "Learner saved");
    ui_harness_type(f->h, "q");
    on_screen(f, "Course map");
    if (!strstr(screen_fx_status(f), "Enter/l open"))
        fail_msg("a long learner name crowds out the map's keys: \"%s\"", f->line);
    screen_fx_close(f);
}

/* Refusals longer than the line wrap under the screen, so the instruction
 * is read whole; a shorter one replaces it. */
static void refusals_wrap(void **state)
{
    struct screen_fx *f = *state;
    char nolog[600], line[700];
    FILE *fp;
    open80(f);
    ui_harness_type(f->h, "ge");
    on_screen(f, "Answer:");
    /* "Not an answer kvtutor can read: bits or bytes? ..." is 117 columns */
    ui_harness_type(f->h, "5 kb\r");
    on_screen(f, "Not an answer kvtutor can read: bits or bytes? \"kb\" could be either");
    on_screen(f, "or bytes for bytes, bit or bits for bits");
    on_screen(f, "│ F1 help  Enter submit");
    assert_int_equal(ui_harness_step(f->h, "<C-u>five<Enter>", line, sizeof line), 0);
    on_screen(f, "Not an answer kvtutor can read: an answer starts with a number");
    not_on_screen(f, "or bits for bits");
    assert_int_equal(ui_harness_step(f->h, "<C-u><Esc>", line, sizeof line), 0);
    on_screen(f, "Course map");
    /* a file that is not a vLLM log, by a path of more than 70 characters */
    snprintf(nolog, sizeof nolog, "%s/a-long-folder-name-to-push-the-message-past-80-columns",
             f->dir);
    snprintf(line, sizeof line, "mkdir -p '%s'", nolog);
    assert_int_equal(system(line), 0);
    strcat(nolog, "/not-a-log.txt");
    fp = fopen(nolog, "w");
    assert_non_null(fp);
    fputs("hello\n", fp);
    fclose(fp);
    ui_harness_type(f->h, "=");
    on_screen(f, "Calculator playground");
    ui_harness_type(f->h, "l");
    on_screen(f, "vLLM log path:");
    snprintf(line, sizeof line, "%s\r", nolog);
    ui_harness_type(f->h, line);
    /* the path named (where it wraps depends on the folder's length) */
    on_screen(f, "/a-long-folder-name-to-push-the-message-past-80-columns/");
    on_screen(f, "no capacity line: is it a vLLM start-up log?");
    screen_fx_close(f);
}

/* The map's prerequisites: another module's by its short name and the
 * numbers its rows show, whole at 120 columns (they were cut to a title,
 * "after Prefill…"); at 80 the foot line names them. request-path requires
 * prefill-decode, continuous-batching and latency: Part 0's 3, 5 and 11;
 * disaggregated-serving names them 3, 13, 11 and reads smallest first. */
static void map_names_other_modules(void **state)
{
    struct screen_fx *f = *state;
    screen_fx_open(f, 120, 40);
    on_screen(f, "Course map");
    on_screen(f, "after Part 0: 3,5,11 ");
    on_screen(f, "after Part 0: 3,11,13 ");
    not_on_screen(f, "after Prefill");
    not_on_screen(f, "\xe2\x80\xa6"); /* nothing on the map is cut at 120 columns */
    screen_fx_close(f);
    open80(f);
    ui_harness_type(f->h, "jjjjjjjjjjjjjjj"); /* the 16th lesson: Part 1's first */
    /* all three of its prerequisites, each shortened to a share of the
     * line (the row's "after Part 0…" numbers none of them at 80 columns) */
    on_screen(f, "Take first: Prefill and decode… · Continuous… · Latency: TTFT…\n");
    on_screen(f, "request-path · done: 0/6 exercises, 0/3 follow-ups, 0/1 question\n");
    screen_fx_close(f);
}

/* Settings show the progress database's path whole, as it is what a
 * learner copies to back up progress (it was cut at the screen's edge with
 * no mark): under its label, broken after a '/', a space in it kept. A
 * path of 8 lines' worth at 80x24 is cut on the last row left, marked. */
static void settings_show_the_whole_path(void **state)
{
    struct screen_fx *f = *state;
    const char *longp = "/srv/course data/cohort-2026/learners/with a long name/and/folders/"
                        "nested/several/levels/deep/progress.db";
    char huge[1200];
    f->o.db_path = longp;
    open80(f);
    ui_harness_type(f->h, "S");
    on_screen(f, "Progress database:\n");
    /* 80 columns less 4 of indent and 4 of margin: 72 a line; 72 columns
     * of the path end inside "nested/", so the line ends after the last '/'
     * before them, "folders/", the path's 68th column */
    on_screen(f, "    /srv/course data/cohort-2026/learners/with a long name/and/folders/\n"
                 "    nested/several/levels/deep/progress.db\n");
    screen_fx_close(f);
    memset(huge, 'x', sizeof huge - 1);
    huge[0] = '/';
    huge[sizeof huge - 1] = '\0';
    f->o.db_path = huge;
    open80(f);
    ui_harness_type(f->h, "S");
    on_screen(f, "xxx\xe2\x80\xa6");
    screen_fx_close(f);
}

/* The screen's words with every run of spaces and line breaks made one
 * space: a wrapped paragraph reads as one line. */
static int in_flow(struct screen_fx *f, const char *text)
{
    static char flat[sizeof f->screen];
    const char *s = screen_fx_shown(f);
    size_t n = 0;

    for (; *s && n + 1 < sizeof flat; s++) {
        int space = *s == ' ' || *s == '\n';
        if (space && (n == 0 || flat[n - 1] == ' '))
            continue;
        flat[n++] = space ? ' ' : *s;
    }
    flat[n] = '\0';
    return strstr(flat, text) != NULL;
}

/* A lesson's baseline runs to 2,764 bytes (many-models): the reader shows it
 * whole, to its last words, where a 1,024-byte line buffer cut it. */
static void reader_shows_long_baseline_whole(void **state)
{
    struct screen_fx *f = *state;
    f->o.open_lesson = "many-models";
    screen_fx_open(f, 80, 24);
    on_screen(f, "Checked against");
    for (int i = 0; i < 12 && !in_flow(f, "and a 100 Gb/s line rate"); i++)
        ui_harness_type(f->h, " ");
    if (!in_flow(f, "and a 100 Gb/s line rate"))
        fail_msg("the baseline's end is not shown:\n%s", f->screen);
    screen_fx_close(f);
}

/* The concurrency chart at 80x24 when the model's name takes two rows (a
 * config.json in a deep folder, on an H100 PCIe): seven of its eight rows
 * fit, so six show with "more below", and j brings the 128k row in. */
static void playground_chart_scrolls(void **state)
{
    struct screen_fx *f = *state;
    char dir[512], path[600], keys[800];
    FILE *in = fopen(KVT_SOURCE_DIR "/tests/fixtures/configs/qwen3.5-27b.config.json", "rb");
    FILE *out;
    int ch;

    snprintf(dir, sizeof dir, "%s/configs-kept-in-a-folder-whose-name-is-long", f->dir);
    assert_int_equal(mkdir(dir, 0700), 0);
    snprintf(path, sizeof path, "%s/qwen3.5-27b.config.json", dir);
    out = fopen(path, "wb");
    assert_non_null(in);
    assert_non_null(out);
    while ((ch = fgetc(in)) != EOF)
        fputc(ch, out);
    fclose(in);
    assert_int_equal(fclose(out), 0);

    open80(f);
    snprintf(keys, sizeof keys, "=o%s\r", path);
    ui_harness_type(f->h, keys);
    ui_harness_type(f->h, "gggggggg"); /* RTX 4090 to H100 PCIe: the weights fit */
    on_screen(f, "H100 PCIe");
    on_screen(f, "Max concurrency against context length");
    on_screen(f, "more below: j");
    not_on_screen(f, "128k");
    ui_harness_type(f->h, "jj");
    on_screen(f, "128k");
    on_screen(f, "more above: k");
    not_on_screen(f, "more below");
    ui_harness_type(f->h, "j"); /* at the end: nothing moves */
    on_screen(f, "128k");
    ui_harness_type(f->h, "kk");
    not_on_screen(f, "128k");
    on_screen(f, "  1k ");
    screen_fx_close(f);
}

/* An explained log taller than the screen pages with Space, ends at its
 * last line (End, or j held down, never scrolls into blank rows) and goes
 * back with Home. */
static void playground_log_pages(void **state)
{
    struct screen_fx *f = *state;
    char end[16384];
    open80(f);
    ui_harness_type(f->h,
                    "=l" KVT_SOURCE_DIR "/tests/fixtures/vllm-logs/v0.19.0-r030-gemma-3-27b.log\r");
    on_screen(f, "File: v0.19.0-r030-gemma-3-27b.log");
    on_screen(f, "more below: Space or j");
    ui_harness_type(f->h, " ");
    not_on_screen(f, "File: v0.19.0-r030-gemma-3-27b.log");
    assert_int_equal(ui_harness_step(f->h, "<End>", f->line, sizeof f->line), 0);
    on_screen(f, "the log's end: k, PgUp or Home go back up");
    snprintf(end, sizeof end, "%s", screen_fx_shown(f));
    ui_harness_type(f->h, "jjjjj");
    assert_string_equal(screen_fx_shown(f), end);
    assert_int_equal(ui_harness_step(f->h, "<Home>", f->line, sizeof f->line), 0);
    on_screen(f, "File: v0.19.0-r030-gemma-3-27b.log");
    screen_fx_close(f);
}

/* A search's snippet line keeps the matched word in view: "preempt" first
 * matches deep in a section with a long name, and the line, cut at 80
 * columns, ended before the word. */
static void search_snippet_shows_the_match(void **state)
{
    struct screen_fx *f = *state;
    const char *in, *eol;
    open80(f);
    ui_harness_type(f->h, "/preempt");
    on_screen(f, "/ preempt");
    in = strstr(screen_fx_shown(f), "\n  in ");
    if (!in)
        fail_msg("no snippet line:\n%s", f->screen);
    eol = strchr(in + 1, '\n');
    assert_non_null(eol);
    {
        char row[512];
        snprintf(row, sizeof row, "%.*s", (int)(eol - in - 1), in + 1);
        if (!strstr(row, "preempt"))
            fail_msg("the snippet line has no \"preempt\": %s", row);
    }
    screen_fx_close(f);
}

/* The settings form answers the keys its help lists: G, End and Space go
 * to its last setting (Learner), g, Home and b back to its first. Enter
 * then edits the one selected, so the field that opens tells which it is. */
static void settings_top_and_bottom(void **state)
{
    struct screen_fx *f = *state;
    static const char *const down[] = {"G", "<End>", "<Space>"}, *const up[] = {"g", "<Home>", "b"};
    open80(f);
    ui_harness_type(f->h, "S");
    on_screen(f, "Desired retention");
    for (size_t i = 0; i < 3; i++) {
        char step[32];
        snprintf(step, sizeof step, "%s<Enter>", down[i]);
        assert_int_equal(ui_harness_step(f->h, step, f->line, sizeof f->line), 0);
        /* a learner's name: only that row takes it */
        snprintf(step, sizeof step, "learner%zu<Enter>", i);
        assert_int_equal(ui_harness_step(f->h, step, f->line, sizeof f->line), 0);
        on_screen(f, "Learner saved");
        snprintf(step, sizeof step, "%s<Enter>", up[i]);
        assert_int_equal(ui_harness_step(f->h, step, f->line, sizeof f->line), 0);
        ui_harness_type(f->h, "0.8\r");
        on_screen(f, "Desired retention saved");
    }
    screen_fx_close(f);
}

/* A config.json refused at a long path: the message breaks the path after a
 * folder (its file's name whole on the next row), is read to its end, and
 * the path stays in the field to be corrected. The folder is sized so the
 * path's last '/' falls at column 60 of the 78 the message has. */
static void config_refusal_wraps_at_a_folder(void **state)
{
    struct screen_fx *f = *state;
    char dir[512], path[600], keys[800];
    size_t pad = strlen(f->dir) + 12 < 58 ? 58 - strlen(f->dir) : 10;
    FILE *in = fopen(KVT_SOURCE_DIR "/tests/fixtures/configs/zamba2-2.7b.config.json", "rb");
    FILE *out;
    int ch;

    snprintf(dir, sizeof dir, "%s/%.*s", f->dir, (int)pad,
             "configs-kept-for-the-course-in-a-folder-of-their-own-here-and-there");
    assert_int_equal(mkdir(dir, 0700), 0);
    snprintf(path, sizeof path, "%s/zamba2-2.7b.config.json", dir);
    out = fopen(path, "wb");
    assert_non_null(in);
    assert_non_null(out);
    while ((ch = fgetc(in)) != EOF)
        fputc(ch, out);
    fclose(in);
    assert_int_equal(fclose(out), 0);

    open80(f);
    snprintf(keys, sizeof keys, "=o%s\r", path);
    ui_harness_type(f->h, keys);
    on_screen(f, "zamba2-2.7b.config.json: model_type zamba2");
    on_screen(f, "which kvtutor does not size");
    /* still typing, the rejected path in the field */
    on_screen(f, "config.json path:");
    on_screen(f, "zamba2-2.7b.config.json\n");
    screen_fx_close(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(help_is_the_screens_own, setup, teardown),
        cmocka_unit_test_setup_teardown(settings_edit_as_a_form, setup, teardown),
        cmocka_unit_test_setup_teardown(graded_exercise_and_progress, setup, teardown),
        cmocka_unit_test_setup_teardown(followup_offers_no_hint, setup, teardown),
        cmocka_unit_test_setup_teardown(tall_result_scrolls, setup, teardown),
        cmocka_unit_test_setup_teardown(interview_summary_keys, setup, teardown),
        cmocka_unit_test_setup_teardown(empty_enter_says_why, setup, teardown),
        cmocka_unit_test_setup_teardown(reader_says_it_resumed, setup, teardown),
        cmocka_unit_test_setup_teardown(reader_hangs_wrapped_lines, setup, teardown),
        cmocka_unit_test_setup_teardown(playground_tp_refusal_names_heads, setup, teardown),
        cmocka_unit_test_setup_teardown(result_quotes_a_clause_once, setup, teardown),
        cmocka_unit_test_setup_teardown(long_log_line_wraps, setup, teardown),
        cmocka_unit_test_setup_teardown(help_moves_only_where_it_scrolls, setup, teardown),
        cmocka_unit_test_setup_teardown(playground_keys_and_log, setup, teardown),
        cmocka_unit_test_setup_teardown(playground_log_names_its_model, setup, teardown),
        cmocka_unit_test_setup_teardown(one_new_a_day, setup, teardown),
        cmocka_unit_test_setup_teardown(refusals_wrap, setup, teardown),
        cmocka_unit_test_setup_teardown(map_names_other_modules, setup, teardown),
        cmocka_unit_test_setup_teardown(settings_show_the_whole_path, setup, teardown),
        cmocka_unit_test_setup_teardown(reader_shows_long_baseline_whole, setup, teardown),
        cmocka_unit_test_setup_teardown(playground_chart_scrolls, setup, teardown),
        cmocka_unit_test_setup_teardown(playground_log_pages, setup, teardown),
        cmocka_unit_test_setup_teardown(search_snippet_shows_the_match, setup, teardown),
        cmocka_unit_test_setup_teardown(settings_top_and_bottom, setup, teardown),
        cmocka_unit_test_setup_teardown(config_refusal_wraps_at_a_folder, setup, teardown),
    };
    if (!setlocale(LC_ALL, "C.UTF-8"))
        setlocale(LC_ALL, "");
    return cmocka_run_group_tests(tests, NULL, NULL);
}
