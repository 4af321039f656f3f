/* The quiz screen: draws a study session (tutor_session.h) one item at a
 * time and forwards the learner's keys to it. What is recorded, rated and
 * scheduled is the session's to decide; this file says it in words. */
#include "ui_app.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kv_grade.h"
#include "kv_units.h"
#include "kvt_format.h"
#include "kvt_text.h"
#include "tutor_names.h"
#include "tutor_session.h"
#include "tutor_sim.h"
#include "ui_draw.h"
#include "ui_edit.h"
#include "ui_quiz_body.h"
#include "ui_term.h"

enum phase { TYPING, RESULT, SUMMARY };

struct quiz {
    struct tutor_session *s;
    enum phase phase;
    struct ui_edit edit;
    struct ui_lines body;
    int body_cols;
    size_t scroll;
    size_t body_room; /* the body's rows at the last draw */
    bool leave_armed; /* q pressed once over an unsaved answer */
    bool skip_armed;  /* C-n pressed once over a typed answer */
};

static const char *const rating_names[] = {"", "again", "hard", "good", "easy"};

static void say_store(struct ui *ui, const char *what, const struct store_error *err)
{
    if (err->code != KVT_E_DB_READONLY)
        ui_say(ui, UI_BAD, "%s: %s", what, err->detail[0] ? err->detail : kvt_strerror(err->code));
}

/* Begins the item at the session's position, passing over any whose
 * expected value cannot be computed; at the end, the session is closed. */
static void begin(struct quiz *q, struct ui *ui)
{
    char why[256];
    struct store_error err;

    q->scroll = 0;
    q->body_cols = 0;
    q->leave_armed = false;
    q->skip_armed = false;
    ui_edit_clear(&q->edit);
    while (!tutor_finished(q->s) && tutor_begin(q->s, why, sizeof why) != KVT_E_OK) {
        ui_say(ui, UI_BAD, "skipped \"%s\": its answer cannot be computed (%s)",
               tutor_attempt(q->s)->id, why);
        tutor_skip(q->s);
    }
    q->phase = tutor_finished(q->s) ? SUMMARY : TYPING;
    if (q->phase == SUMMARY && tutor_finish(q->s, &err) != KVT_E_OK)
        say_store(ui, "the session was not saved", &err);
    else if (q->phase == TYPING && tutor_attempt(q->s)->practice && tutor_mode(q->s) != TUTOR_CRAM)
        ui_say(ui, UI_INFO, "already reviewed today: this answer is practice, not rated");
}

/* A graded answer: its result is shown from the top. */
static void show_result(struct quiz *q)
{
    ui_edit_remember(&q->edit);
    q->phase = RESULT;
    q->body_cols = 0;
    q->scroll = 0;
}

/* Where practice is, counted by kind as the map counts: "exercise 3 of 12"
 * agrees with "3/12 done", follow-ups are numbered apart. */
static const char *practice_place(struct quiz *q, char *out, size_t cap)
{
    size_t pos = tutor_position(q->s), at = 0, of = 0;
    enum tutor_part part = tutor_item_at(q->s, pos).part;
    for (size_t i = 0; i < tutor_count(q->s); i++)
        if (tutor_item_at(q->s, i).part == part) {
            at += i < pos;
            of++;
        }
    snprintf(out, cap, "%s %zu of %zu", part == TUTOR_FOLLOWUP ? "follow-up" : "exercise", at + 1,
             of);
    return out;
}

static void say_unsaved(struct ui *ui, const char *head, const struct store_error *err)
{
    ui_say(ui, UI_BAD, "%syour answer was not saved (%s: %s); s tries again", head,
           kvt_strerror(err->code), err->detail);
}

static void submit(struct quiz *q, struct ui *ui)
{
    struct store_error err;
    const struct tutor_attempt *a = tutor_attempt(q->s);

    if (q->edit.len == 0) {
        /* Enter on an empty field did nothing, silently: say what it waits for */
        ui_say(ui, UI_INFO, "Nothing typed yet: write an answer, then Enter%s",
               tutor_mode(q->s) == TUTOR_PRACTICE ? " (Ctrl-N skips this one)" : " (Esc leaves)");
        ui->message_until_typed = true;
        return;
    }
    switch (tutor_answer(q->s, q->edit.buf, &err)) {
    case TUTOR_UNREAD:
        /* not an answer: nothing was recorded; the learner types again */
        ui_edit_remember(&q->edit);
        ui_say(ui, UI_BAD, "Not an answer kvtutor can read: %s",
               a->grade.why[0] ? a->grade.why : "try again");
        return;
    case TUTOR_UNSAVED:
        say_unsaved(ui, "", &err);
        break;
    case TUTOR_GRADED:
        break;
    }
    show_result(q);
}

static unsigned quiz_context(void *self)
{
    struct quiz *q = self;
    /* Tab is offered only while a hint is left to show */
    if (q->phase == TYPING)
        return UC_EDIT | UC_ANSWER | UC_HISTORY |
               (!tutor_finished(q->s) && tutor_attempt(q->s)->hints < tutor_hints_total(q->s)
                    ? UC_HINTS
                    : 0) |
               (tutor_mode(q->s) == TUTOR_PRACTICE ? UC_SKIP : 0);
    /* the summary (or nothing to do) is a page to read: no answer keys */
    if (q->phase == SUMMARY || tutor_count(q->s) == 0)
        return UC_PAGE | (q->body_room && q->body.n <= q->body_room ? UC_STILL : 0);
    /* f skips the rest of the exercises: offered only where it differs from
     * Enter; 1-4 only where a rating is asked (not in cram, nor for practice),
     * s only while a database error keeps the answer unsaved */
    const struct tutor_attempt *at = tutor_attempt(q->s);
    return UC_RESULT | (at->hints < tutor_hints_total(q->s) ? UC_RESULT_HINTS : 0) |
           (tutor_followups_ahead(q->s) ? UC_RESULT_FOLLOWUPS : 0) |
           (at->graded && at->max_rating > 0 && !at->rated ? UC_RESULT_RATED : 0) |
           (tutor_unsaved(q->s) ? UC_RESULT_UNSAVED : 0) |
           (ui_quiz_serving_of(at) ? UC_RESULT_SERVING : 0) |
           (q->body_room && q->body.n <= q->body_room ? UC_STILL : 0);
}

/* head, the lesson's title and the clock, the title cut (after a whole
 * word) so that the clock stays on an 80-column title bar */
static void title_with_clock(char *t, size_t cap, const char *head, const char *title,
                             const char *clock)
{
    char fit[512];
    int room = COLS - 2 - (int)kvt_text_width(head, strlen(head)) -
               (int)kvt_text_width(clock, strlen(clock));
    kvt_text_fit(title, room, ui_term_utf8() ? "…" : "...", fit, sizeof fit);
    snprintf(t, cap, "%s%s%s", head, fit, clock);
}

/* m:ss of a count of seconds, never below 0:00 */
static void min_sec(double seconds, char *out, size_t cap)
{
    int s = seconds > 0 ? (int)ceil(seconds) : 0;
    snprintf(out, cap, "%d:%02d", s / 60, s % 60);
}

/* The interview's clock for the title: what is left of the answer's time
 * and of the whole interview where they are limited, else the time taken. */
static void interview_clock(const struct quiz *q, char *out, size_t cap)
{
    struct tutor_clock c;
    char a[16], s[16];

    tutor_interview_clock(q->s, &c);
    min_sec(c.answer_left, a, sizeof a);
    min_sec(c.session_left, s, sizeof s);
    if (q->phase == TYPING && c.answer_limited && c.session_limited)
        snprintf(out, cap, " · ⏱ answer %s · all %s", a, s);
    else if (q->phase == TYPING && c.answer_limited)
        snprintf(out, cap, " · ⏱ answer %s", a);
    else if (c.session_limited && q->phase != SUMMARY)
        snprintf(out, cap, " · ⏱ all %s", s);
    else {
        /* the time taken, in the m:ss the limits are written in */
        int secs = c.elapsed > 0 ? (int)c.elapsed : 0;
        snprintf(out, cap, " · ⏱ %d:%02d", secs / 60, secs % 60);
    }
}

static const char *quiz_title(void *self, struct ui *ui)
{
    static char t[1024];
    static const char *const names[] = {"practice", "review", "cram (schedule untouched)",
                                        "mock interview"};
    struct quiz *q = self;
    enum tutor_mode mode = tutor_mode(q->s);
    char clock[64] = "", head[128];
    (void)ui;

    if (mode == TUTOR_INTERVIEW)
        interview_clock(q, clock, sizeof clock);
    if (q->phase == SUMMARY || tutor_count(q->s) == 0) {
        snprintf(t, sizeof t, "kvtutor · %s · done%s", names[mode], clock);
    } else if (mode == TUTOR_PRACTICE) {
        char place[64];
        size_t pos = tutor_position(q->s);
        snprintf(head, sizeof head, "kvtutor · %s · %s · ", names[mode],
                 practice_place(q, place, sizeof place));
        title_with_clock(t, sizeof t, head, tutor_lesson_at(q->s, pos)->title, clock);
    } else {
        snprintf(head, sizeof head, "kvtutor · %s · %zu of %zu · ", names[mode],
                 tutor_position(q->s) + 1, tutor_count(q->s));
        title_with_clock(t, sizeof t, head, tutor_lesson_at(q->s, tutor_position(q->s))->title,
                         clock);
    }
    return t;
}

/* The body in rows y .. y + rows - 1, its last row kept for "more below"
 * when it is taller (a model answer below the key points at 80x24, an
 * interview's answer times). */
static void draw_body(struct quiz *q, int y, int rows, int cols)
{
    int room = rows - 1;
    q->body_room = room > 0 ? (size_t)room : 0;
    if (room <= 0)
        return;
    if (q->body.n > (size_t)room && q->scroll > q->body.n - (size_t)room)
        q->scroll = q->body.n - (size_t)room;
    if (q->body.n <= (size_t)room)
        q->scroll = 0;
    ui_lines_draw(&q->body, q->scroll, y, room, cols, -1);
    if (q->scroll + (size_t)room < q->body.n)
        ui_put(y + room, cols - 20, 18, "more below: Space", A_DIM);
}

/* The bottom line of a graded item: the rating, or why none is asked. */
static void draw_rating(const struct tutor_attempt *a, enum tutor_mode mode, int y, int cols)
{
    char line[256];
    if (a->max_rating == 0)
        snprintf(line, sizeof line, "%s  Enter goes on",
                 mode == TUTOR_CRAM ? "Cram: no rating, the schedule stays as it was."
                 : a->grade.verdict == KV_UNSURE
                     ? "Not sure: recorded as unsure, not rated."
                     : "Practice: recorded, not rated (one review a day).");
    else
        /* 72 columns at most, so it fits an 80-column screen */
        snprintf(line, sizeof line, "Rating: %d %s%s  (1 again  2 hard%s)  Enter %s", a->rating,
                 rating_names[a->rating], a->rated ? ", saved" : "",
                 a->max_rating == FSRS_HARD ? ": a hint caps it" : "  3 good  4 easy",
                 a->rated ? "goes on" : "saves, goes on");
    ui_put(y, 2, cols - 4, line, A_BOLD);
}

static void draw_head(const struct tutor_attempt *a, struct ui_lines *head, int cols)
{
    const struct lx_lesson *l = a->lesson;
    if (a->item.part == TUTOR_QUESTION) {
        ui_lines_text(head, "The interviewer asks:", cols - 4, 0, A_DIM);
        ui_lines_text(head, l->question, cols - 4, 2, A_BOLD);
        return;
    }
    if (a->item.part == TUTOR_FOLLOWUP) {
        ui_lines_text(head, "The interviewer follows up:", cols - 4, 0, A_DIM);
        ui_lines_text(head, l->followups[a->item.index].question, cols - 4, 2, A_BOLD);
        return;
    }
    const struct lx_exercise *e = &l->exercises[a->item.index];
    ui_lines_text(head, e->kind == LX_NUMERIC ? a->draw.prompt : e->prompt, cols - 4, 2, A_BOLD);
    if (e->kind == LX_CHOICE) {
        for (size_t i = 0; i < e->n_options; i++) {
            char opt[600];
            snprintf(opt, sizeof opt, "%zu. %s", i + 1, e->options[i].text);
            ui_lines_text(head, opt, cols - 4, 4, A_NORMAL);
        }
    }
    for (unsigned i = 0; i < a->hints && i < e->n_hints; i++) {
        char hint[600];
        snprintf(hint, sizeof hint, "Hint %u: %s", i + 1, e->hints[i]);
        ui_lines_text(head, hint, cols - 4, 2, ui_color(UI_C_HINT));
    }
}

static void quiz_draw(void *self, struct ui *ui, int top, int rows, int cols)
{
    struct quiz *q = self;
    const struct tutor_attempt *a = tutor_attempt(q->s);
    struct ui_lines head = {0};
    bool spoken;
    int y;

    if (q->phase == SUMMARY || tutor_count(q->s) == 0) {
        if (q->body_cols != cols) {
            ui_quiz_build_summary(&q->body, ui, q->s, cols);
            q->body_cols = cols;
        }
        draw_body(q, top + 1, rows - 1, cols);
        return;
    }
    spoken = tutor_item_spoken(a->item);
    draw_head(a, &head, cols);
    ui_lines_draw(&head, 0, top + 1, (int)head.n, cols, -1);
    y = top + 2 + (int)head.n;
    ui_lines_free(&head);
    if (q->phase == TYPING) {
        ui_put(y, 2, spoken ? cols - 4 : 8, spoken ? "Answer in your words:" : "Answer:", A_NORMAL);
        ui_edit_draw(&q->edit, y + (spoken ? 1 : 0), spoken ? 2 : 10,
                     spoken ? cols - 4 : cols - 12);
        return;
    }
    if (q->body_cols != cols) {
        ui_quiz_build_result(&q->body, a, cols);
        q->body_cols = cols;
    }
    draw_body(q, y, top + rows - 1 - y, cols);
    draw_rating(a, tutor_mode(q->s), top + rows - 1, cols);
}

/* An answer shown as graded but not in the database yet (the disk was
 * full, the database busy for too long): moving on would drop it, so try
 * once more first. True while it is still unsaved. */
static bool unsaved(struct quiz *q, struct ui *ui)
{
    struct store_error err;
    if (q->phase != RESULT || !tutor_unsaved(q->s))
        return false; /* a read-only database was announced at start: go on */
    if (tutor_save(q->s, &err) != KVT_E_OK)
        ui_say(ui, UI_BAD, "your answer was not saved (%s: %s); s tries again",
               kvt_strerror(err.code), err.detail);
    return tutor_unsaved(q->s);
}

static void rated_or_say(struct ui *ui, enum kvt_err e, const struct store_error *err)
{
    if (e != KVT_E_OK)
        say_store(ui, "the rating was not saved", err);
}

static void quiz_action(void *self, struct ui *ui, enum ui_action a)
{
    struct quiz *q = self;
    struct store_error err;
    const char *why;

    switch (a) {
    case UI_SUBMIT:
        submit(q, ui);
        break;
    case UI_LEAVE_ANSWER:
        /* a typed answer is not thrown away by one stray Esc */
        if (!q->leave_armed && q->phase == TYPING && q->edit.len > 0) {
            q->leave_armed = true;
            ui_say(ui, UI_BAD,
                   "your answer is not submitted: Enter submits it, Esc again drops it");
            break;
        }
        ui_pop(ui);
        return;
    case UI_BACK:
        if (!q->leave_armed && unsaved(q, ui)) {
            q->leave_armed = true;
            ui_say(ui, UI_BAD,
                   "your answer is not saved: s tries again, q again leaves without it");
            break;
        }
        ui_pop(ui);
        return;
    case UI_EDIT_HINT:
    case UI_HINT:
        if (q->phase != SUMMARY && tutor_hint(q->s))
            q->body_cols = 0;
        else
            ui_say(ui, UI_INFO,
                   q->phase != SUMMARY && tutor_hints_total(q->s) ? "no more hints"
                                                                  : "this one has no hints");
        break;
    case UI_NEXT:
        if (q->phase == SUMMARY || tutor_count(q->s) == 0) {
            ui_pop(ui);
        } else if (!unsaved(q, ui)) {
            rated_or_say(ui, tutor_next(q->s, &err), &err);
            begin(q, ui);
        }
        return;
    case UI_SKIP:
        /* nothing recorded: practice resumes at the first item left
         * unanswered (tutor_resumed_at) */
        if (q->phase != TYPING || tutor_finished(q->s))
            break;
        /* a typed answer is not thrown away by one stray C-n, as by Esc */
        if (q->edit.len > 0 && !q->skip_armed) {
            q->skip_armed = true;
            ui_say(ui, UI_BAD, "your answer is not submitted: Enter submits it, C-n again skips");
            break;
        }
        q->skip_armed = false;
        {
            char place[64];
            ui_say(ui, UI_INFO, "skipped %s: left unanswered, practice comes back to it",
                   practice_place(q, place, sizeof place));
        }
        tutor_pass(q->s); /* counted: the summary says how many were left */
        begin(q, ui);
        break;
    case UI_RETRY:
        if (q->phase != RESULT || unsaved(q, ui))
            break;
        rated_or_say(ui, tutor_retry(q->s, &err), &err);
        begin(q, ui);
        break;
    case UI_FOLLOWUPS:
        /* on to this lesson's first follow-up, if the session has it ahead */
        if (q->phase == SUMMARY || unsaved(q, ui))
            break;
        {
            bool moved;
            enum kvt_err e = tutor_to_followups(q->s, &moved, &err);
            if (moved) {
                rated_or_say(ui, e, &err);
                begin(q, ui);
            }
        }
        break;
    case UI_RATE_AGAIN:
    case UI_RATE_HARD:
    case UI_RATE_GOOD:
    case UI_RATE_EASY:
        if (q->phase == RESULT && (why = tutor_choose(q->s, 1 + (int)(a - UI_RATE_AGAIN))))
            ui_say(ui, UI_INFO, "%s", why);
        break;
    case UI_SERVING_VIEW: {
        /* the same setup in the playground: the view runs it as kv.sim did */
        const struct lx_serving *sv =
            q->phase == RESULT ? ui_quiz_serving_of(tutor_attempt(q->s)) : NULL;
        struct tutor_sim_setup setup;
        char reason[300];
        if (!sv)
            break;
        if (tutor_sim_of_serving(sv, &setup, reason, sizeof reason) != KVT_E_OK)
            ui_say(ui, UI_BAD, "the serving view cannot show this setup: %s", reason);
        else
            ui_push(ui, ui_calc_serving_new(ui, &setup));
        return;
    }
    case UI_SAVE_AGAIN:
        if (tutor_save(q->s, &err) != KVT_E_OK)
            ui_say(ui, UI_BAD, "your answer was not saved (%s: %s)", kvt_strerror(err.code),
                   err.detail);
        else
            ui_say(ui, UI_GOOD, "saved");
        break;
    case UI_UP:
        if (q->scroll > 0)
            q->scroll--;
        break;
    case UI_DOWN:
        q->scroll++;
        break;
    case UI_PAGE_UP:
        q->scroll = q->scroll > 10 ? q->scroll - 10 : 0;
        break;
    case UI_PAGE_DOWN:
        q->scroll += 10;
        break;
    default:
        break;
    }
}

/* A mock interview at zero: tutor_cut_off decides; the screen says what
 * happened, and never lets a later message hide an answer not saved. */
static void quiz_tick(void *self, struct ui *ui)
{
    struct quiz *q = self;
    struct store_error err;
    struct tutor_cutoff c;

    if (q->phase != TYPING)
        return;
    c = tutor_cut_off(q->s, q->edit.buf, &err);
    if (c.why == TUTOR_TIME_OK)
        return;
    if (c.taken) {
        show_result(q);
        if (c.graded == TUTOR_UNSAVED)
            say_unsaved(ui, "time's up: your answer was taken as typed, but ", &err);
        else
            ui_say(ui, UI_INFO, "time's up: your answer was taken as typed");
        return;
    }
    begin(q, ui);
    if (c.unread)
        ui_say(ui, UI_BAD, "time's up: what you typed is not an answer kvtutor can read%s%s%s; %s",
               c.unread_why[0] ? " (" : "", c.unread_why, c.unread_why[0] ? ")" : "",
               c.ended ? "the interview is over" : "the question was passed");
    else
        ui_say(ui, UI_BAD, "%s",
               c.ended ? "time's up: the interview is over"
                       : "time's up: the question was passed with no answer");
}

static void quiz_text(void *self, struct ui *ui, uint32_t cp)
{
    struct quiz *q = self;
    (void)ui;
    q->skip_armed = false; /* typing on: a C-n asked for is off */
    ui_edit_insert(&q->edit, cp);
}

static void quiz_edit_key(void *self, struct ui *ui, int key)
{
    struct quiz *q = self;
    (void)ui;
    ui_edit_key(&q->edit, key);
}

static void quiz_leave(void *self, struct ui *ui)
{
    struct quiz *q = self;
    struct store_error err;
    /* leaving is going on: the suggested or chosen rating stands */
    if (q->phase == RESULT)
        rated_or_say(ui, tutor_rate(q->s, &err), &err);
}

static void quiz_destroy(void *self)
{
    struct quiz *q = self;
    ui_lines_free(&q->body);
    tutor_session_free(q->s);
    free(q);
}

static const char *quiz_at_stake(void *self)
{
    struct quiz *q = self;
    if (q->phase == TYPING && q->edit.len > 0)
        return "the answer you typed";
    if (q->phase == RESULT && tutor_unsaved(q->s))
        return "an answer not saved";
    return NULL;
}

static const struct ui_screen_ops ops = {
    .name = "quiz",
    .context = quiz_context,
    .title = quiz_title,
    .draw = quiz_draw,
    .action = quiz_action,
    .text = quiz_text,
    .edit_key = quiz_edit_key,
    .leave = quiz_leave,
    .destroy = quiz_destroy,
    .at_stake = quiz_at_stake,
    .tick = quiz_tick,
};

struct tutor_env ui_tutor_env(struct ui *ui)
{
    return (struct tutor_env){
        .store = ui->opt.store,
        .learner_id = ui->opt.learner_id,
        .fsrs = &ui->settings.fsrs,
        .new_per_day = ui->settings.new_per_day,
        .course = ui->course,
        .monotonic = ui->opt.monotonic,
        .interview_answer_seconds = ui->settings.interview_answer_seconds,
        .interview_minutes = ui->settings.interview_minutes,
    };
}

static struct ui_screen start(struct ui *ui, struct tutor_session *s)
{
    struct quiz *q = s ? calloc(1, sizeof *q) : NULL;
    if (!q) {
        tutor_session_free(s);
        return (struct ui_screen){&ops, NULL};
    }
    q->s = s;
    q->edit.keeps_history = true; /* Up and Down recall the answers typed in this session */
    begin(q, ui);
    return (struct ui_screen){&ops, q};
}

struct ui_screen ui_quiz_new(struct ui *ui, size_t lesson, bool followups_only)
{
    struct tutor_env env = ui_tutor_env(ui);
    size_t waiting = 0;
    struct tutor_session *s = tutor_session_practice(&env, lesson, followups_only, &waiting);

    if (waiting)
        ui_say(ui, UI_INFO,
               "%zu exercise%s here use%s your own measurement: press P on the course map to "
               "take it.",
               waiting, waiting == 1 ? "" : "s", waiting == 1 ? "s" : "");
    if (s && tutor_resumed_at(s) > 0) { /* said after the measurement's note, not instead */
        char before[sizeof ui->message];
        snprintf(before, sizeof before, "%s", waiting ? ui->message : "");
        ui_say(ui, UI_INFO, "%s%sresumed at the first one you have not answered: %zu before it %s",
               before, before[0] ? " " : "", tutor_resumed_at(s),
               tutor_resumed_at(s) == 1 ? "has your answer" : "have your answers");
    }
    return start(ui, s);
}

struct ui_screen ui_quiz_new_at(struct ui *ui, size_t lesson, size_t exercise)
{
    struct tutor_env env = ui_tutor_env(ui);
    struct tutor_session *s = tutor_session_practice(&env, lesson, false, NULL);

    if (s && !tutor_seek(s, TUTOR_EXERCISE, exercise))
        ui_say(ui, UI_INFO,
               "that exercise is not in this practice: it needs your own measurement (P on the "
               "map), or the lesson changed since the search");
    return start(ui, s);
}

struct ui_screen ui_interview_new(struct ui *ui, size_t lesson)
{
    struct tutor_env env = ui_tutor_env(ui);
    struct ui_screen s = start(ui, tutor_session_interview(&env, lesson));
    char a[16] = "", m[32] = "";

    /* what the clock in the title counts down, and what happens at zero */
    if (env.interview_answer_seconds)
        min_sec(env.interview_answer_seconds, a, sizeof a);
    if (env.interview_minutes) /* m:ss, as the title's clock counts it */
        min_sec(env.interview_minutes * 60.0, m, sizeof m);
    if (a[0] || m[0])
        ui_say(ui, UI_INFO,
               "Timed: %s%s%s%s%s. At 0:00 what you typed is your answer; S on the map "
               "sets the limits.",
               a[0] ? a : "", a[0] ? " an answer" : "", a[0] && m[0] ? ", " : "", m[0] ? m : "",
               m[0] ? " in all" : "");
    ui->message_until_typed = true;
    return s;
}

struct ui_screen ui_review_new(struct ui *ui, bool cram)
{
    struct tutor_env env = ui_tutor_env(ui);
    return start(ui, tutor_session_review(&env, cram));
}
