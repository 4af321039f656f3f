/* The progress screen: the figures of `kvtutor stats`, answers per day for
 * the last two weeks, accuracy per concept, and the mistakes made most. */
#include "ui_app.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kvt_format.h"
#include "kvt_text.h"
#include "tutor_done.h"
#include "tutor_names.h"
#include "tutor_progress.h"
#include "tutor_queue.h"
#include "ui_term.h"
#include "ui_draw.h"

struct progress {
    struct ui_lines lines;
    int built_cols;
    size_t first;
    size_t view; /* rows of lines the last draw had */
};

/* A concept by its name; the stored id only when no lesson of the course
 * tests it any more. */
static void add_concept(struct ui_lines *l, struct lx_course *course,
                        const struct tutor_concept_score *c, int width)
{
    char line[300], cell[200], share[32], n[32];
    int used = (int)kvt_text_fit(tutor_concept_name(course, c->concept), 28,
                                 ui_term_utf8() ? "…" : "...", cell, sizeof cell);
    snprintf(line, sizeof line, "%s%*s %6s of %s", cell, 28 - used, "",
             kvt_fmt_percent(c->answers ? (double)c->right / (double)c->answers : 0.0, share,
                             sizeof share),
             kvt_fmt_int((uint64_t)c->answers, n, sizeof n));
    ui_lines_text(l, line, width, 2, A_NORMAL);
}

static void build(struct progress *p, struct ui *ui, int cols)
{
    static const char *const bars_utf8[] = {" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
    static const char *const bars_ascii[] = {" ", ".", ".", ":", ":", "|", "|", "#", "#"};
    const char *const *bars = ui_term_utf8() ? bars_utf8 : bars_ascii;
    int64_t most = 1;
    struct tutor_progress pr;
    const struct store_stats *s = &pr.stats;
    struct store_error err;
    char line[512], n1[32], n2[32], n3[32], share[32];
    int w = cols - 4;
    /* the figures of `kvtutor stats`, due as review counts it, as the map does */
    struct tutor_env env = ui_tutor_env(ui);

    ui_lines_free(&p->lines);
    p->built_cols = cols;
    if (tutor_progress_read(&env, &pr, &err) != KVT_E_OK) {
        snprintf(line, sizeof line, "The progress cannot be read: %s", err.detail);
        ui_lines_text(&p->lines, line, w, 0, ui_color(UI_C_WRONG));
        return;
    }
    snprintf(line, sizeof line, "%s answer%s, %s right · streak %s day%s",
             kvt_fmt_int((uint64_t)s->attempts, n1, sizeof n1), s->attempts == 1 ? "" : "s",
             kvt_fmt_percent(s->attempts ? (double)s->correct / (double)s->attempts : 0.0, share,
                             sizeof share),
             kvt_fmt_int((uint64_t)s->streak_days, n3, sizeof n3), s->streak_days == 1 ? "" : "s");
    ui_lines_text(&p->lines, line, w, 0, A_BOLD);
    /* seen, by kind, as the course map counts it: a follow-up is no exercise */
    if (pr.seen_ok) {
        const struct tutor_done_total *seen = &pr.seen;
        snprintf(
            line, sizeof line, "Seen: %s exercise%s, %s follow-up%s, %s lesson question%s",
            kvt_fmt_int((uint64_t)seen->exercises, n1, sizeof n1), seen->exercises == 1 ? "" : "s",
            kvt_fmt_int((uint64_t)seen->followups, n2, sizeof n2), seen->followups == 1 ? "" : "s",
            kvt_fmt_int((uint64_t)seen->questions, n3, sizeof n3), seen->questions == 1 ? "" : "s");
        ui_lines_text(&p->lines, line, w, 0, A_NORMAL);
    }
    if (pr.due_ok) {
        char n4[32];
        snprintf(line, sizeof line,
                 "Due now: %s · within a week: %s · new today: %s · time answering: %s min",
                 kvt_fmt_int((uint64_t)pr.due.due_now, n1, sizeof n1),
                 kvt_fmt_int((uint64_t)pr.due.due_week, n2, sizeof n2),
                 kvt_fmt_int((uint64_t)pr.due.new_today, n4, sizeof n4),
                 kvt_fmt_int((uint64_t)(s->seconds / 60.0 + 0.5), n3, sizeof n3));
        ui_lines_text(&p->lines, line, w, 0, A_NORMAL);
    } else {
        snprintf(line, sizeof line, "What is due cannot be read (%s) · time answering: %s min",
                 pr.due_err.detail,
                 kvt_fmt_int((uint64_t)(s->seconds / 60.0 + 0.5), n3, sizeof n3));
        ui_lines_text(&p->lines, line, w, 0, ui_color(UI_C_WRONG));
    }
    if (s->attempts == 0) {
        /* headings over nothing say less than this */
        ui_lines_blank(&p->lines);
        ui_lines_text(&p->lines,
                      "No answers yet. Open a lesson from the course map (Enter) and answer its "
                      "exercises: the answers a day, accuracy by concept, mistakes and lessons "
                      "appear here.",
                      w, 0, A_NORMAL);
        tutor_progress_free(&pr);
        return;
    }

    ui_lines_blank(&p->lines);
    ui_lines_verbatim(&p->lines, "Answers a day, the last two weeks (today on the right)", 0,
                      ui_color(UI_C_HEADING) | A_BOLD);
    if (pr.activity_ok) {
        /* a day's column is as wide as its count needs (117, 1.5k): never clamped */
        char chart[TUTOR_PROGRESS_DAYS * 24 + 8] = "", counts[TUTOR_PROGRESS_DAYS * 8 + 8] = "";
        int col = tutor_activity_width(&pr);
        for (int i = 0; i < TUTOR_PROGRESS_DAYS; i++)
            if (pr.answers[i] > most)
                most = pr.answers[i];
        for (int i = 0; i < TUTOR_PROGRESS_DAYS; i++) {
            int level = pr.answers[i] ? 1 + (int)((pr.answers[i] * 7) / most) : 0;
            char n[24], label[16];
            for (int k = 0; k < col - 1; k++)
                strcat(chart, bars[level > 8 ? 8 : level]);
            strcat(chart, " ");
            snprintf(n, sizeof n, "%-*s", col,
                     tutor_activity_label(pr.answers[i], label, sizeof label));
            strcat(counts, n);
        }
        ui_lines_verbatim(&p->lines, chart, 2, ui_color(UI_C_CHART));
        ui_lines_verbatim(&p->lines, counts, 2, A_DIM);
    }
    ui_lines_blank(&p->lines);
    ui_lines_verbatim(&p->lines, "Accuracy by concept, weakest first", 0,
                      ui_color(UI_C_HEADING) | A_BOLD);
    for (size_t i = 0; i < pr.n_concepts; i++)
        add_concept(&p->lines, ui->course, &pr.concepts[i], w);
    ui_lines_blank(&p->lines);
    ui_lines_verbatim(&p->lines, "Mistakes made most", 0, ui_color(UI_C_HEADING) | A_BOLD);
    if (s->n_weakest == 0)
        ui_lines_text(&p->lines, "none diagnosed yet", w, 2, A_DIM);
    for (size_t i = 0; i < s->n_weakest; i++) {
        char name[200];
        snprintf(line, sizeof line, "%3s× %s", /* "1× left out ...": the sign on its count */
                 kvt_fmt_int((uint64_t)s->weakest[i].count, n1, sizeof n1),
                 tutor_diagnosis_name(ui->course, s->weakest[i].diagnosis, name, sizeof name));
        ui_lines_text(&p->lines, line, w, 2, A_NORMAL);
    }
    ui_lines_blank(&p->lines);
    ui_lines_verbatim(&p->lines, "By lesson", 0, ui_color(UI_C_HEADING) | A_BOLD);
    for (size_t i = 0; i < s->n_lessons; i++) {
        const struct store_lesson_stats *l = &s->lessons[i];
        size_t slot = SIZE_MAX;
        char n[32];
        tutor_course_find(ui->course, l->lesson_id, &slot);
        /* the lesson by its title; its id only when the course no longer has it */
        snprintf(
            line, sizeof line, "%s: %s answer%s, %s right, %s due",
            tutor_lesson_name(ui->course, l->lesson_id),
            kvt_fmt_int((uint64_t)l->attempts, n, sizeof n), l->attempts == 1 ? "" : "s",
            kvt_fmt_percent((double)l->correct / (double)l->attempts, share, sizeof share),
            kvt_fmt_int(pr.due_ok && pr.by_slot && slot != SIZE_MAX ? pr.by_slot[slot].due_now : 0,
                        n1, sizeof n1));
        ui_lines_text(&p->lines, line, w, 2, A_NORMAL);
    }
    tutor_progress_free(&pr);
}

static unsigned progress_context(void *self)
{
    const struct progress *p = self;
    /* as last drawn: a page that fits has nothing to move through */
    return UC_PAGE | (p->built_cols && p->lines.n <= p->view ? UC_STILL : 0);
}

static const char *progress_title(void *self, struct ui *ui)
{
    static char t[256];
    (void)self;
    snprintf(t, sizeof t, "kvtutor · Progress of %s", ui->opt.learner);
    return t;
}

static void progress_draw(void *self, struct ui *ui, int top, int rows, int cols)
{
    struct progress *p = self;
    if (p->built_cols != cols)
        build(p, ui, cols);
    p->view = rows > 2 ? (size_t)(rows - 2) : 1;
    /* never past the last page: the bottom row is the last line */
    if (p->lines.n > p->view && p->first > p->lines.n - p->view)
        p->first = p->lines.n - p->view;
    if (p->lines.n <= p->view)
        p->first = 0;
    ui_lines_draw(&p->lines, p->first, top + 1, rows - 2, cols, -1);
    if (p->first + p->view < p->lines.n) /* what is left, and the key to it */
        ui_put(top + rows - 1, 2, cols - 4, "more below: Space or j", A_DIM);
}

static void progress_action(void *self, struct ui *ui, enum ui_action a)
{
    struct progress *p = self;
    size_t page = p->view > 1 ? p->view - 1 : 1;
    if (a == UI_BACK)
        ui_pop(ui);
    else if (a == UI_DOWN && p->first + 1 < p->lines.n)
        p->first++;
    else if (a == UI_UP && p->first > 0)
        p->first--;
    else if (a == UI_PAGE_DOWN)
        p->first += page; /* drawn no further than the last page */
    else if (a == UI_PAGE_UP)
        p->first = p->first > page ? p->first - page : 0;
    else if (a == UI_TOP)
        p->first = 0;
    else if (a == UI_BOTTOM)
        p->first = p->lines.n;
}

static void progress_destroy(void *self)
{
    struct progress *p = self;
    ui_lines_free(&p->lines);
    free(p);
}

static const struct ui_screen_ops ops = {
    .name = "progress",
    .context = progress_context,
    .title = progress_title,
    .draw = progress_draw,
    .action = progress_action,
    .destroy = progress_destroy,
};

struct ui_screen ui_progress_new(struct ui *ui)
{
    (void)ui;
    return (struct ui_screen){&ops, calloc(1, sizeof(struct progress))};
}
