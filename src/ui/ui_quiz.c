/* A session of questions, one at a time: a lesson's exercises then its
 * follow-ups (practice), what is due across lessons (review), the same
 * without touching the schedule (cram), or a timed mock interview (the
 * lesson's question and its follow-ups). An answer is graded and saved the
 * moment it is given; its rating (suggested from the grade, changeable with
 * 1-4) is saved when the learner goes on, and applied on the way out if they
 * leave first. */
#include "ui_app.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fsrs.h"
#include "store_report.h"
#include "kv_grade.h"
#include "kvt_format.h"

#define QUICK_SECONDS 20.0

enum phase { TYPING, RESULT, SUMMARY };

/* An item: exercise i of a lesson, its follow-up (i - n_exercises), or the
 * lesson's own question (QUESTION). */
#define QUESTION ((size_t)-1)

struct qitem {
    size_t lesson, item;
};

struct quiz {
    enum ui_session mode;
    struct qitem *items;
    size_t n_items, pos;
    size_t lesson, item; /* items[pos], unpacked */
    enum phase phase;
    double session_started;
    int64_t started_at;
    double times[64];
    double score_sum;
    struct ui_edit edit;
    struct lx_draw draw;
    uint64_t seed;
    double started;
    unsigned hints; /* shown for this item */
    struct lx_grade grade;
    struct ui_lines body;
    int body_cols;
    size_t scroll;
    /* the saved attempt and its rating */
    struct store_attempt attempt;
    char answer[1024], diagnosis[64], exercise_id[96];
    bool saved, rated;
    bool leave_armed; /* q pressed once over an unsaved answer */
    int rating;
    unsigned right, answered;
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static const struct lx_lesson *lesson_of(struct quiz *q, struct ui *ui)
{
    return ui->lessons[q->lesson];
}

static bool is_question(const struct quiz *q)
{
    return q->item == QUESTION;
}

static bool is_followup(const struct quiz *q, const struct lx_lesson *l)
{
    return !is_question(q) && q->item >= l->n_exercises;
}

/* Anything answered in words (no exercise of its own kind). */
static bool is_spoken(const struct quiz *q, const struct lx_lesson *l)
{
    return is_question(q) || is_followup(q, l);
}

static const char *const rating_names[] = {"", "again", "hard", "good", "easy"};

static void finish(struct quiz *q, struct ui *ui);

/* The learner's last probe figures, for "measure, then predict" exercises
 * (the store and the lessons do not know each other: the app carries them). */
static size_t measured_facts(struct ui *ui, struct lx_fact facts[3])
{
    struct store_probe_last last;
    struct store_error err;
    size_t n = 0;
    if (store_probe_last(ui->opt.store, ui->opt.learner_id, NULL, &last, &err) != KVT_E_OK)
        return 0;
    facts[n++] = (struct lx_fact){"read_gbps", last.read_gbps};
    if (last.has_peak)
        facts[n++] = (struct lx_fact){"peak_gbps", last.peak_gbps};
    if (last.has_free)
        facts[n++] = (struct lx_fact){"free_gib", (double)last.free_bytes / 1073741824.0};
    return n;
}

/* Begins the current item: a fresh draw of its numbers, an empty answer. */
static void begin(struct quiz *q, struct ui *ui)
{
    const struct lx_lesson *l;
    char err[256];

again:
    q->phase = q->pos < q->n_items ? TYPING : SUMMARY;
    if (q->phase == TYPING) {
        q->lesson = q->items[q->pos].lesson;
        q->item = q->items[q->pos].item;
    }
    l = lesson_of(q, ui);
    q->hints = 0;
    q->scroll = 0;
    q->body_cols = 0;
    q->saved = q->rated = q->leave_armed = false;
    q->attempt.uid[0] = '\0';
    ui_edit_clear(&q->edit);
    q->started = now_s();
    if (q->phase == TYPING && !is_spoken(q, l) && l->exercises[q->item].kind == LX_NUMERIC) {
        /* each attempt its own numbers; the seed is saved to replay them */
        q->seed = (uint64_t)time(NULL) * 2654435761u ^ (uint64_t)(q->item + 1) * 40503u ^
                  (uint64_t)(now_s() * 1e6);
        q->seed &= 0x7fffffffffffffffull;
        struct lx_fact facts[3];
        size_t n = measured_facts(ui, facts);
        if (lx_draw_measured(ui->lessons[q->lesson], q->item, q->seed, facts, n, &q->draw, err,
                             sizeof err) != KVT_E_OK) {
            /* without an expected value there is nothing to grade against:
             * skip it rather than record a verdict against a made-up 0 */
            ui_say(ui, UI_BAD, "skipped \"%s\": its answer cannot be computed (%s)",
                   l->exercises[q->item].id, err);
            q->pos++;
            goto again;
        }
    }
    if (q->phase == SUMMARY)
        finish(q, ui);
}

/* Applies the chosen rating to the saved attempt, once. */
static void rate(struct quiz *q, struct ui *ui)
{
    struct store_error err;
    if (!q->saved || q->rated || q->mode == UI_S_CRAM)
        return; /* cram leaves the schedule as it was */
    if (store_rate_attempt(ui->opt.store, q->attempt.uid, q->rating, &ui->fsrs, NULL, &err) ==
        KVT_E_OK)
        q->rated = true;
    else if (err.code != KVT_E_DB_READONLY)
        ui_say(ui, UI_BAD, "the rating was not saved: %s", err.detail);
}

static void save(struct quiz *q, struct ui *ui)
{
    struct store_error err;
    if (q->saved)
        return;
    if (store_record_attempt(ui->opt.store, &q->attempt, NULL, NULL, &err) == KVT_E_OK) {
        q->saved = true;
        return;
    }
    /* the answer stays in memory; 's' tries again */
    ui_say(ui, UI_BAD, "your answer was not saved (%s: %s); s tries again", kvt_strerror(err.code),
           err.detail);
}

static void submit(struct quiz *q, struct ui *ui)
{
    const struct lx_lesson *l = lesson_of(q, ui);
    bool fu = is_spoken(q, l);
    size_t idx = is_question(q) ? 0 : is_followup(q, l) ? q->item - l->n_exercises : q->item;
    double seconds = now_s() - q->started;
    bool diagnosed;

    if (q->edit.len == 0)
        return;
    ui_edit_remember(&q->edit);
    snprintf(q->answer, sizeof q->answer, "%s", q->edit.buf);
    if (is_question(q))
        lx_grade_question(l, q->answer, &q->grade);
    else if (fu)
        lx_grade_followup(l, idx, q->answer, &q->grade);
    else
        lx_grade(l, idx, &q->draw, q->answer, &q->grade);
    if (q->answered < 64)
        q->times[q->answered] = seconds;
    q->score_sum += q->grade.score;
    diagnosed = q->grade.num.mistake != KV_MISTAKE_NONE && q->grade.verdict != KV_INVALID && !fu &&
                l->exercises[idx].kind == LX_NUMERIC;
    q->rating = (int)fsrs_rating_for(q->grade.verdict == KV_CORRECT, q->hints > 0, false, seconds,
                                     QUICK_SECONDS);
    q->phase = RESULT;
    q->body_cols = 0;
    q->scroll = 0;
    q->answered++;
    q->right += q->grade.verdict == KV_CORRECT;
    /* save now: the answer exists even if the app stops before the rating */
    if (is_question(q))
        snprintf(q->exercise_id, sizeof q->exercise_id, "question");
    else if (fu)
        snprintf(q->exercise_id, sizeof q->exercise_id, "followup-%zu", idx + 1);
    else
        snprintf(q->exercise_id, sizeof q->exercise_id, "%s", l->exercises[idx].id);
    snprintf(q->diagnosis, sizeof q->diagnosis, "%s",
             diagnosed ? kv_mistake_id(q->grade.num.mistake) : "");
    q->attempt = (struct store_attempt){
        .learner_id = ui->opt.learner_id,
        .module = l->module,
        .lesson_id = l->id,
        .exercise_id = q->exercise_id,
        .concept = l->concept,
        .answer = q->answer,
        .verdict = q->grade.verdict == KV_CORRECT ? "correct"
                   : q->grade.verdict == KV_WRONG ? "wrong"
                                                  : "invalid",
        .score = q->grade.score,
        .diagnosis = q->diagnosis[0] ? q->diagnosis : NULL,
        .hinted = q->hints > 0,
        .rating = 0,
        .seconds = seconds,
        .created_at = (int64_t)time(NULL),
    };
    if (!fu && l->exercises[idx].kind == LX_NUMERIC) {
        q->attempt.has_value = !isnan(q->grade.num.parsed);
        q->attempt.value = q->grade.num.parsed;
        q->attempt.unit = l->exercises[idx].unit;
        q->attempt.has_seed = l->exercises[idx].n_params > 0;
        q->attempt.seed = (int64_t)q->seed;
    }
    if (store_new_uid(q->attempt.uid) != KVT_E_OK) {
        ui_say(ui, UI_BAD, "no randomness for an attempt id; the answer was not saved");
        return;
    }
    save(q, ui);
    if (q->grade.verdict == KV_INVALID)
        q->rating = FSRS_AGAIN;
}

static void add_points(struct ui_lines *b, const struct lx_point *p, size_t n,
                       const struct kv_text_result *t, int width)
{
    for (size_t i = 0; i < n && i < KV_MAX_POINTS; i++) {
        char line[600];
        snprintf(line, sizeof line, "%s %s", t->covered[i] ? "✓" : "·", p[i].text);
        ui_lines_text(b, line, width, 4, t->covered[i] ? ui_attr(2, A_BOLD) : A_DIM);
    }
}

/* The graded view: verdict, what was expected, the diagnosis, the model. */
static void build_result(struct quiz *q, struct ui *ui, int cols)
{
    const struct lx_lesson *l = lesson_of(q, ui);
    const struct lx_grade *g = &q->grade;
    bool fu = is_spoken(q, l);
    size_t idx = is_followup(q, l) ? q->item - l->n_exercises : q->item;
    int w = cols - 4;
    char line[1200];

    ui_lines_free(&q->body);
    q->body_cols = cols;
    snprintf(line, sizeof line, "Your answer: %s", q->answer);
    ui_lines_text(&q->body, line, w, 2, A_NORMAL);
    snprintf(line, sizeof line, "%s",
             g->verdict == KV_CORRECT ? "Right."
             : g->verdict == KV_WRONG ? "Not quite."
                                      : "Not an answer kvtutor can read.");
    ui_lines_text(&q->body, line, w, 2,
                  g->verdict == KV_CORRECT ? ui_attr(2, A_BOLD) | A_BOLD
                                           : ui_attr(3, A_BOLD) | A_BOLD);
    if (g->verdict == KV_INVALID && g->why[0])
        ui_lines_text(&q->body, g->why, w, 4, A_NORMAL);
    if (fu) {
        const struct lx_point *pts = is_question(q) ? l->points : l->followups[idx].points;
        size_t np = is_question(q) ? l->n_points : l->followups[idx].n_points;
        snprintf(line, sizeof line, "Key points covered: %.0f%%", g->score * 100);
        ui_lines_text(&q->body, line, w, 2, A_NORMAL);
        add_points(&q->body, pts, np, &g->text, w);
        ui_lines_blank(&q->body);
        ui_lines_text(&q->body, "What an interviewer wants to hear:", w, 2, A_BOLD);
        ui_lines_text(&q->body, is_question(q) ? l->answer : l->followups[idx].answer, w, 4,
                      A_NORMAL);
    } else {
        const struct lx_exercise *e = &l->exercises[idx];
        if (e->kind == LX_NUMERIC) {
            char tol[64];
            if (e->relative)
                snprintf(tol, sizeof tol, "within %g%%", e->tolerance * 100);
            else
                snprintf(tol, sizeof tol, "within ± %g %s", e->tolerance, e->unit);
            char num[48];
            snprintf(line, sizeof line, "Expected: %s %s (%s)",
                     kvt_fmt_number(g->spec.expected, 4, num, sizeof num), e->unit, tol);
            ui_lines_text(&q->body, line, w, 2, A_NORMAL);
            if (g->verdict != KV_INVALID) {
                snprintf(line, sizeof line, "Read as: %s %s",
                         kvt_fmt_number(g->num.parsed, 4, num, sizeof num), e->unit);
                ui_lines_text(&q->body, line, w, 2, A_DIM);
            }
            if (g->num.mistake != KV_MISTAKE_NONE && g->verdict == KV_WRONG) {
                snprintf(line, sizeof line, "Diagnosis: %s", kv_mistake_text(g->num.mistake));
                ui_lines_text(&q->body, line, w, 2, ui_attr(4, A_BOLD) | A_BOLD);
            }
            ui_lines_blank(&q->body);
            ui_lines_verbatim(&q->body, l->worked, 2, ui_attr(1, A_BOLD));
        } else if (e->kind == LX_CHOICE) {
            if (g->picked >= 0 && e->options[g->picked].why)
                ui_lines_text(&q->body, e->options[g->picked].why, w, 4, A_NORMAL);
            if (g->verdict != KV_CORRECT && g->correct_option >= 0) {
                snprintf(line, sizeof line, "The answer: %s", e->options[g->correct_option].text);
                ui_lines_text(&q->body, line, w, 2, A_BOLD);
                if (e->options[g->correct_option].why)
                    ui_lines_text(&q->body, e->options[g->correct_option].why, w, 4, A_NORMAL);
            }
        } else {
            snprintf(line, sizeof line, "Key points covered: %.0f%%", g->score * 100);
            ui_lines_text(&q->body, line, w, 2, A_NORMAL);
            add_points(&q->body, e->points, e->n_points, &g->text, w);
            ui_lines_blank(&q->body);
            ui_lines_text(&q->body, "A model answer:", w, 2, A_BOLD);
            ui_lines_text(&q->body, e->model_answer, w, 4, A_NORMAL);
        }
    }
}

static unsigned quiz_context(void *self)
{
    struct quiz *q = self;
    return q->phase == TYPING ? UC_EDIT : UC_RESULT;
}

static const char *quiz_title(void *self, struct ui *ui)
{
    static char t[512];
    static const char *const names[] = {"practice", "review", "cram (schedule untouched)",
                                        "mock interview"};
    struct quiz *q = self;
    char clock[32] = "";

    if (q->mode == UI_S_INTERVIEW) {
        int secs = (int)(now_s() - q->session_started);
        snprintf(clock, sizeof clock, " · ⏱ %02d:%02d", secs / 60, secs % 60);
    }
    if (q->phase == SUMMARY || q->n_items == 0)
        snprintf(t, sizeof t, "kvtutor · %s · done%s", names[q->mode], clock);
    else
        snprintf(t, sizeof t, "kvtutor · %s · %zu of %zu · %s%s", names[q->mode], q->pos + 1,
                 q->n_items, lesson_of(q, ui)->title, clock);
    return t;
}

/* The end of a session: the lesson done, an interview kept. */
static void finish(struct quiz *q, struct ui *ui)
{
    struct store_error e;
    size_t answered = q->answered < 64 ? q->answered : 64;

    if (q->mode == UI_S_PRACTICE && q->n_items && q->answered >= q->n_items)
        store_lesson_done(ui->opt.store, ui->opt.learner_id, ui->lessons[q->lesson]->id,
                          (int64_t)time(NULL), &e);
    if (q->mode == UI_S_INTERVIEW && answered > 0) {
        const struct lx_lesson *l = ui->lessons[q->lesson];
        double score = q->score_sum / (double)q->answered;
        if (store_interview(ui->opt.store, ui->opt.learner_id, l->id, q->started_at,
                            now_s() - q->session_started, (int)q->answered, score,
                            score < 0.7 ? l->concept : "", &e) != KVT_E_OK &&
            e.code != KVT_E_DB_READONLY)
            ui_say(ui, UI_BAD, "the interview was not saved: %s", e.detail);
    }
}

static void draw_summary(struct quiz *q, struct ui *ui, int top, int rows, int cols)
{
    char line[512];
    int y = top + 1;

    if (q->n_items == 0) {
        ui_put(y, 2, cols - 4,
               q->mode == UI_S_REVIEW ? "Nothing is due today, and no new exercise is waiting."
                                      : "Nothing to practise here yet.",
               A_BOLD);
        ui_put(y + 2, 2, cols - 4, "q goes back.", A_NORMAL);
        return;
    }
    snprintf(line, sizeof line, "%u of %u answers right. Every answer%s is saved.", q->right,
             q->answered, q->mode == UI_S_CRAM ? "" : " and rating");
    ui_put(y++, 2, cols - 4, line, A_BOLD);
    if (q->mode == UI_S_INTERVIEW && q->answered) {
        const struct lx_lesson *l = ui->lessons[q->lesson];
        double total = now_s() - q->session_started, score = q->score_sum / q->answered;
        snprintf(line, sizeof line, "Interview score: %.0f%% of the key points, in %d:%02d",
                 score * 100, (int)total / 60, (int)total % 60);
        ui_put(++y, 2, cols - 4, line, A_BOLD);
        for (unsigned i = 0; i < q->answered && i < 64 && y < top + rows - 3; i++) {
            snprintf(line, sizeof line, "answer %u: %.0f s", i + 1, q->times[i]);
            ui_put(++y, 4, cols - 6, line, A_NORMAL);
        }
        snprintf(line, sizeof line, "To review: %s",
                 score < 0.7 ? l->concept : "nothing; this concept is in hand");
        ui_put(y + 2, 2, cols - 4, line, score < 0.7 ? ui_attr(4, A_BOLD) : A_NORMAL);
        y += 2;
    }
    ui_put(y + 2, 2, cols - 4, "q goes back; the progress screen (p on the map) has the rest.",
           A_NORMAL);
}

static void quiz_draw(void *self, struct ui *ui, int top, int rows, int cols)
{
    struct quiz *q = self;
    const struct lx_lesson *l = lesson_of(q, ui);
    struct ui_lines head = {0};
    bool fu;
    size_t idx;
    int y;

    if (q->phase == SUMMARY || q->n_items == 0) {
        draw_summary(q, ui, top, rows, cols);
        return;
    }
    fu = is_spoken(q, l);
    idx = is_followup(q, l) ? q->item - l->n_exercises : q->item;
    if (is_question(q)) {
        ui_lines_text(&head, "The interviewer asks:", cols - 4, 0, A_DIM);
        ui_lines_text(&head, l->question, cols - 4, 2, A_BOLD);
    } else if (fu) {
        ui_lines_text(&head, "The interviewer follows up:", cols - 4, 0, A_DIM);
        ui_lines_text(&head, l->followups[idx].question, cols - 4, 2, A_BOLD);
    } else {
        const struct lx_exercise *e = &l->exercises[idx];
        ui_lines_text(&head, e->kind == LX_NUMERIC ? q->draw.prompt : e->prompt, cols - 4, 2,
                      A_BOLD);
        if (e->kind == LX_CHOICE) {
            for (size_t i = 0; i < e->n_options; i++) {
                char opt[600];
                snprintf(opt, sizeof opt, "%zu. %s", i + 1, e->options[i].text);
                ui_lines_text(&head, opt, cols - 4, 4, A_NORMAL);
            }
        }
        for (unsigned i = 0; i < q->hints && i < e->n_hints; i++) {
            char hint[600];
            snprintf(hint, sizeof hint, "Hint %u: %s", i + 1, e->hints[i]);
            ui_lines_text(&head, hint, cols - 4, 2, ui_attr(4, A_NORMAL));
        }
    }
    ui_lines_draw(&head, 0, top + 1, (int)head.n, cols, -1);
    y = top + 2 + (int)head.n;
    ui_lines_free(&head);
    if (q->phase == TYPING) {
        ui_put(y, 2, 10, fu ? "Answer in your words:" : "Answer:", A_NORMAL);
        ui_edit_draw(&q->edit, y + (fu ? 1 : 0), fu ? 2 : 10, cols - 12);
        return;
    }
    if (q->body_cols != cols)
        build_result(q, ui, cols);
    {
        int room = top + rows - 2 - y;
        char rate_line[256];
        if (room > 0) {
            if (q->body.n > (size_t)room && q->scroll > q->body.n - (size_t)room)
                q->scroll = q->body.n - (size_t)room;
            ui_lines_draw(&q->body, q->scroll, y, room, cols, -1);
        }
        snprintf(rate_line, sizeof rate_line,
                 "Rating: %d %s%s  (1 again  2 hard  3 good  4 easy)  "
                 "Enter saves it and goes on",
                 q->rating, rating_names[q->rating], q->rated ? ", saved" : "");
        ui_put(top + rows - 1, 2, cols - 4, rate_line, A_BOLD);
    }
}

/* An answer shown as graded but not in the database yet (the disk was
 * full, the database busy for too long): moving on would drop it, so try
 * once more first. True while it is still unsaved; save() said why. */
static bool unsaved(struct quiz *q, struct ui *ui)
{
    if (q->phase != RESULT || q->saved || !q->attempt.uid[0] || store_readonly(ui->opt.store))
        return false; /* a read-only database was announced at start: go on */
    save(q, ui);
    return !q->saved;
}

static void next(struct quiz *q, struct ui *ui)
{
    rate(q, ui);
    if (q->pos < q->n_items)
        q->pos++;
    begin(q, ui);
}

static void quiz_action(void *self, struct ui *ui, enum ui_action a)
{
    struct quiz *q = self;
    const struct lx_lesson *l = q->n_items ? lesson_of(q, ui) : NULL;
    size_t nh = l && q->phase != SUMMARY && !is_spoken(q, l) ? l->exercises[q->item].n_hints : 0;

    switch (a) {
    case UI_SUBMIT:
        submit(q, ui);
        break;
    case UI_CANCEL:
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
        if (q->hints < nh)
            q->hints++, q->body_cols = 0;
        else
            ui_say(ui, UI_INFO, nh ? "no more hints" : "this one has no hints");
        break;
    case UI_NEXT:
        if (q->phase == SUMMARY || q->n_items == 0)
            ui_pop(ui);
        else if (!unsaved(q, ui))
            next(q, ui);
        return;
    case UI_RETRY:
        if (unsaved(q, ui))
            break;
        rate(q, ui);
        begin(q, ui);
        break;
    case UI_FOLLOWUPS:
        /* on to this lesson's first follow-up, if the session has it ahead */
        for (size_t i = q->pos + 1; l && i < q->n_items && !unsaved(q, ui); i++) {
            if (q->items[i].lesson == q->lesson && q->items[i].item != QUESTION &&
                q->items[i].item >= l->n_exercises) {
                rate(q, ui);
                q->pos = i;
                begin(q, ui);
                break;
            }
        }
        break;
    case UI_RATE_AGAIN:
    case UI_RATE_HARD:
    case UI_RATE_GOOD:
    case UI_RATE_EASY:
        if (q->rated)
            ui_say(ui, UI_INFO, "the rating is already saved");
        else
            q->rating = 1 + (int)(a - UI_RATE_AGAIN);
        break;
    case UI_SAVE_AGAIN:
        save(q, ui);
        if (q->saved)
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

static void quiz_text(void *self, struct ui *ui, uint32_t cp)
{
    struct quiz *q = self;
    (void)ui;
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
    if (q->phase == RESULT)
        rate(q, ui); /* leaving is going on: the suggested or chosen rating stands */
}

static void quiz_destroy(void *self)
{
    struct quiz *q = self;
    ui_lines_free(&q->body);
    free(q->items);
    free(q);
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
};

static bool add(struct quiz *q, size_t lesson, size_t item, size_t *cap)
{
    for (size_t i = 0; i < q->n_items; i++)
        if (q->items[i].lesson == lesson && q->items[i].item == item)
            return true; /* each item once */
    if (q->n_items == *cap) {
        size_t ncap = *cap ? *cap * 2 : 32;
        void *p = realloc(q->items, ncap * sizeof *q->items);
        if (!p)
            return false;
        q->items = p;
        *cap = ncap;
    }
    q->items[q->n_items++] = (struct qitem){lesson, item};
    return true;
}

static struct ui_screen start(struct quiz *q, struct ui *ui, enum ui_session mode)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    q->mode = mode;
    q->session_started = now_s();
    q->started_at = (int64_t)ts.tv_sec;
    if (q->n_items)
        begin(q, ui);
    else
        q->phase = SUMMARY;
    return (struct ui_screen){&ops, q};
}

struct ui_screen ui_quiz_new(struct ui *ui, size_t lesson, bool followups_only)
{
    struct quiz *q = calloc(1, sizeof *q);
    const struct lx_lesson *l = ui->lessons[lesson];
    size_t cap = 0;

    struct lx_fact facts[3];
    bool measured = measured_facts(ui, facts) > 0;
    size_t waiting = 0;

    if (!q)
        return (struct ui_screen){&ops, NULL};
    q->lesson = lesson;
    for (size_t i = followups_only ? l->n_exercises : 0; i < l->n_exercises + l->n_followups; i++) {
        /* "measure, then predict" needs a measurement first */
        if (i < l->n_exercises && l->exercises[i].measured && !measured)
            waiting++;
        else
            add(q, lesson, i, &cap);
    }
    if (waiting)
        ui_say(ui, UI_INFO,
               "%zu exercise%s here use%s your own measurement: press P on the course map to "
               "take it.",
               waiting, waiting == 1 ? "" : "s", waiting == 1 ? "s" : "");
    return start(q, ui, UI_S_PRACTICE);
}

struct ui_screen ui_interview_new(struct ui *ui, size_t lesson)
{
    struct quiz *q = calloc(1, sizeof *q);
    const struct lx_lesson *l = ui->lessons[lesson];
    size_t cap = 0;

    if (!q)
        return (struct ui_screen){&ops, NULL};
    q->lesson = lesson;
    if (l->n_points)
        add(q, lesson, QUESTION, &cap);
    for (size_t i = 0; i < l->n_followups; i++)
        add(q, lesson, l->n_exercises + i, &cap);
    return start(q, ui, UI_S_INTERVIEW);
}

struct due_ctx {
    struct quiz *q;
    struct ui *ui;
    size_t cap;
};

/* A scheduled item back to its place in a loaded lesson. */
static int add_due(void *vctx, const char *lesson_id, const char *exercise_id, int64_t due_day,
                   double stability)
{
    struct due_ctx *c = vctx;
    size_t li;
    const struct lx_lesson *l = lx_course_find(c->ui->course, lesson_id, &li);
    (void)due_day, (void)stability;
    if (!l)
        return 0; /* a lesson no longer installed */
    if (strncmp(exercise_id, "followup-", 9) == 0) {
        size_t n = (size_t)strtoul(exercise_id + 9, NULL, 10);
        if (n >= 1 && n <= l->n_followups)
            add(c->q, li, l->n_exercises + n - 1, &c->cap);
        return 0;
    }
    for (size_t i = 0; i < l->n_exercises; i++)
        if (strcmp(l->exercises[i].id, exercise_id) == 0)
            add(c->q, li, i, &c->cap);
    return 0;
}

static int mark_seen(void *vctx, const char *lesson_id, const char *exercise_id, int64_t due_day,
                     double stability)
{
    struct due_ctx *c = vctx;
    (void)due_day, (void)stability;
    /* remember every scheduled exercise as "lesson\nexercise" in the items' shadow list */
    size_t li;
    const struct lx_lesson *l = lx_course_find(c->ui->course, lesson_id, &li);
    for (size_t i = 0; l && i < l->n_exercises; i++)
        if (strcmp(l->exercises[i].id, exercise_id) == 0)
            add(c->q, li, i, &c->cap);
    return 0;
}

struct ui_screen ui_review_new(struct ui *ui, bool cram)
{
    struct quiz *q = calloc(1, sizeof *q);
    struct due_ctx c = {q, ui, 0};
    struct store_error err;
    int64_t now = (int64_t)time(NULL);

    if (!q)
        return (struct ui_screen){&ops, NULL};
    store_each_due(ui->opt.store, ui->opt.learner_id, now, !cram, add_due, &c, &err);
    if (!cram && ui->new_per_day > 0) {
        /* then up to new_per_day exercises never seen, in course order */
        struct quiz seen = {0};
        struct due_ctx sc = {&seen, ui, 0};
        unsigned added = 0;
        struct lx_fact facts[3];
        bool measured = measured_facts(ui, facts) > 0;
        store_each_due(ui->opt.store, ui->opt.learner_id, now, false, mark_seen, &sc, &err);
        for (size_t li = 0; li < ui->n_lessons && added < ui->new_per_day; li++) {
            const struct lx_lesson *l = ui->lessons[li];
            if (!lx_course_live(ui->course, li))
                continue;
            for (size_t i = 0; i < l->n_exercises && added < ui->new_per_day; i++) {
                bool known = false;
                for (size_t k = 0; k < seen.n_items && !known; k++)
                    known = seen.items[k].lesson == li && seen.items[k].item == i;
                if (l->exercises[i].measured && !measured)
                    continue; /* it waits for the learner's first probe run */
                if (!known && add(q, li, i, &c.cap))
                    added++;
            }
        }
        free(seen.items);
    }
    return start(q, ui, cram ? UI_S_CRAM : UI_S_REVIEW);
}
