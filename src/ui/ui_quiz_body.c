/* What the quiz screen shows below an item's head: a graded answer's
 * result (the verdict, the points with the learner's words, the expected
 * value and its worked arithmetic, the model answer) and the summary at a
 * session's end, each as wrapped lines the screen scrolls through. */
#include "ui_quiz_body.h"

#include <stdio.h>
#include <string.h>

#include "kv_grade.h"
#include "kv_units.h"
#include "kvt_format.h"
#include "tutor_names.h"
#include "ui_draw.h"

/* Why the answer got its score: the points covered (with the learner's
 * words), the points missed, any misconception with its correction, and
 * the weights behind the score. */
static void add_points(struct ui_lines *b, const struct tutor_parts *t,
                       const struct kv_text_result *r, double score, int width)
{
    char line[800], share[32], got[32], total[32];
    /* as kvtutor ask writes it: a share that is not all never reads as 100% */
    snprintf(line, sizeof line, "Key points covered: %s (weight %s of %s%s)",
             kvt_fmt_percent(score, share, sizeof share),
             kvt_fmt_number(r->got, 3, got, sizeof got),
             kvt_fmt_number(r->total, 3, total, sizeof total),
             r->n_found ? "; a misconception holds it under a pass" : "");
    ui_lines_text(b, line, width, 2, A_NORMAL);
    for (size_t i = 0; i < t->n_points && i < KV_MAX_POINTS; i++) {
        /* wrapped lines hang under the text, not the mark */
        snprintf(line, sizeof line, "%s %s", r->covered[i] ? "✓" : "·", t->points[i].text);
        ui_lines_hanging(b, line, width, 4, 2, r->covered[i] ? ui_color(UI_C_RIGHT) : A_DIM);
        if (r->covered[i]) {
            /* one clause may cover several points: quoted once, then named */
            size_t same = i;
            for (size_t j = 0; j < i; j++)
                if (r->covered[j] && strcmp(r->quote[j], r->quote[i]) == 0) {
                    same = j;
                    break;
                }
            if (same == i)
                snprintf(line, sizeof line, "you said: \"%s\"", r->quote[i]);
            else
                snprintf(line, sizeof line, "you said it in the words quoted above");
            ui_lines_hanging(b, line, width, 6, same == i ? 10 : 0, A_DIM);
        } else if (r->contradicted[i]) {
            snprintf(line, sizeof line, "✗ contradicted: \"%s\"", r->contra_quote[i]);
            ui_lines_hanging(b, line, width, 6, 2, ui_color(UI_C_WRONG) | A_BOLD);
        }
    }
    for (size_t m = 0; m < t->n_mis && m < KV_MAX_MISCONCEPTIONS; m++) {
        if (!r->found[m])
            continue;
        snprintf(line, sizeof line, "✗ \"%s\": %s", r->mis_quote[m], t->mis[m].why);
        ui_lines_hanging(b, line, width, 4, 2, ui_color(UI_C_WRONG) | A_BOLD);
    }
    if (r->list)
        ui_lines_text(b, "A list of terms says nothing of anything: say what is true of what.",
                      width, 4, ui_color(UI_C_WARN));
}

static void build_numeric(struct ui_lines *b, const struct lx_lesson *l,
                          const struct lx_exercise *e, const struct lx_draw *d,
                          const struct lx_grade *g, int w)
{
    char line[1200], num[256];
    const char *unit = e->unit ? e->unit : "";
    snprintf(line, sizeof line, "Expected: %s", tutor_item_expected(g, unit, "±", num, sizeof num));
    ui_lines_text(b, line, w, 2, A_NORMAL);
    {
        char read[256];
        snprintf(line, sizeof line, "Read as: %s",
                 kv_numeric_read_as(&g->num, unit, read, sizeof read));
    }
    ui_lines_text(b, line, w, 2, A_DIM);
    if (g->num.mistake != KV_MISTAKE_NONE && g->verdict == KV_WRONG) {
        snprintf(line, sizeof line, "Diagnosis: %s", kv_mistake_text(g->num.mistake));
        ui_lines_text(b, line, w, 2, ui_color(UI_C_WARN) | A_BOLD);
    }
    ui_lines_blank(b);
    /* the exercise's own arithmetic with its drawn figures, else the lesson's example */
    ui_lines_code(b, d->worked[0] ? d->worked : l->worked, w, 2, ui_color(UI_C_WORKED));
}

/* The serving setup the attempt's exercise takes its figures from, or NULL. */
const struct lx_serving *ui_quiz_serving_of(const struct tutor_attempt *a)
{
    const struct lx_exercise *e;
    if (!a || !a->lesson || a->item.part != TUTOR_EXERCISE ||
        a->item.index >= a->lesson->n_exercises)
        return NULL;
    e = &a->lesson->exercises[a->item.index];
    return e->serving.given ? &e->serving : NULL;
}

void ui_quiz_build_result(struct ui_lines *body, const struct tutor_attempt *a, int cols)
{
    const struct lx_lesson *l = a->lesson;
    const struct lx_grade *g = &a->grade;
    size_t idx = a->item.index;
    int w = cols - 4;
    char line[1200];

    ui_lines_free(body);
    /* a long answer is graded whole; the screen shows its first 1,000 bytes */
    snprintf(line, sizeof line, "Your answer: %.1000s%s", a->answer,
             strlen(a->answer) > 1000 ? "..." : "");
    ui_lines_text(body, line, w, 2, A_NORMAL);
    if (g->verdict == KV_UNSURE)
        /* neither right nor wrong on the grader's evidence: never shown as wrong */
        ui_lines_text(body, "Not sure: check each point below against what you said.", w, 2,
                      ui_color(UI_C_WARN) | A_BOLD);
    else
        ui_lines_text(body, g->verdict == KV_CORRECT ? "Right." : "Not quite.", w, 2,
                      g->verdict == KV_CORRECT ? ui_color(UI_C_RIGHT) | A_BOLD
                                               : ui_color(UI_C_WRONG) | A_BOLD);
    if (tutor_item_spoken(a->item)) {
        struct tutor_parts t;
        tutor_item_parts(l, a->item, &t);
        add_points(body, &t, &g->text, g->score, w);
        ui_lines_blank(body);
        ui_lines_text(body, "What an interviewer wants to hear:", w, 2, A_BOLD);
        ui_lines_text(body, t.model, w, 4, A_NORMAL);
        return;
    }
    const struct lx_exercise *e = &l->exercises[idx];
    if (ui_quiz_serving_of(a)) {
        ui_lines_text(body,
                      "Its figures come from a simulated serving run: v opens the same setup "
                      "in the playground's serving view.",
                      w, 2, A_DIM);
    }
    if (e->kind == LX_NUMERIC) {
        build_numeric(body, l, e, &a->draw, g, w);
    } else if (e->kind == LX_CHOICE) {
        if (g->picked >= 0 && e->options[g->picked].why)
            ui_lines_text(body, e->options[g->picked].why, w, 4, A_NORMAL);
        if (g->verdict != KV_CORRECT && g->correct_option >= 0) {
            snprintf(line, sizeof line, "The answer: %s", e->options[g->correct_option].text);
            ui_lines_text(body, line, w, 2, A_BOLD);
            if (e->options[g->correct_option].why)
                ui_lines_text(body, e->options[g->correct_option].why, w, 4, A_NORMAL);
        }
    } else {
        struct tutor_parts t;
        tutor_item_parts(l, a->item, &t);
        add_points(body, &t, &g->text, g->score, w);
        ui_lines_blank(body);
        ui_lines_text(body, "A model answer:", w, 2, A_BOLD);
        ui_lines_text(body, e->model_answer, w, 4, A_NORMAL);
    }
}

/* The end of a session: what was answered and saved, what was skipped or
 * passed, an interview's score, time and the concept to review. */
void ui_quiz_build_summary(struct ui_lines *body, struct ui *ui, const struct tutor_session *s,
                           int cols)
{
    enum tutor_mode mode = tutor_mode(s);
    struct tutor_summary sum;
    char line[512];
    int w = cols - 4;

    ui_lines_free(body);
    if (tutor_count(s) == 0) {
        ui_lines_text(body,
                      mode == TUTOR_REVIEW
                          ? "Nothing is due today, and no new exercise is left for today."
                      : mode == TUTOR_CRAM
                          ? "Nothing to cram yet: cram goes over exercises you have answered."
                          : "Nothing to practise here yet.",
                      w, 2, A_BOLD);
        ui_lines_blank(body);
        ui_lines_text(body, "q goes back.", w, 2, A_NORMAL);
        return;
    }
    tutor_summary(s, &sum);
    snprintf(line, sizeof line, "%u of %u answer%s right. Every answer%s is saved.", sum.right,
             sum.answered, sum.answered == 1 ? "" : "s", mode == TUTOR_CRAM ? "" : " and rating");
    ui_lines_text(body, line, w, 2, A_BOLD);
    if (mode == TUTOR_PRACTICE && sum.passed) {
        snprintf(line, sizeof line, "%u skipped with C-n: practice begins at the first next time.",
                 sum.passed);
        ui_lines_blank(body);
        ui_lines_text(body, line, w, 2, ui_color(UI_C_WARN));
    }
    if (mode == TUTOR_INTERVIEW && sum.answered + sum.passed) {
        char share[32];
        ui_lines_blank(body);
        if (sum.answered) {
            /* the mean of the answers' scores, not the points pooled: said so */
            snprintf(line, sizeof line,
                     "Interview score: %s of the key points (each answer's share, averaged), "
                     "in %d:%02d",
                     kvt_fmt_percent(sum.score, share, sizeof share), (int)(sum.seconds + 0.5) / 60,
                     (int)(sum.seconds + 0.5) % 60);
            ui_lines_text(body, line, w, 2, A_BOLD);
        }
        if (sum.out_of_time) {
            snprintf(line, sizeof line, "The interview's time ran out after %u of %zu questions.",
                     sum.answered + sum.passed, tutor_count(s));
            ui_lines_text(body, line, w, 2, ui_color(UI_C_WARN));
        }
        if (sum.passed && sum.unread)
            snprintf(line, sizeof line,
                     "%u question%s passed: time ran out before an answer kvtutor could read "
                     "(%u with words typed).",
                     sum.passed, sum.passed == 1 ? "" : "s", sum.unread);
        else if (sum.passed)
            snprintf(line, sizeof line, "%u question%s passed: time ran out with nothing typed.",
                     sum.passed, sum.passed == 1 ? "" : "s");
        if (sum.passed)
            ui_lines_text(body, line, w, 2, ui_color(UI_C_WARN));
        for (size_t i = 0; i < sum.n_times; i++) {
            /* m:ss, rounded as the score line's total is */
            int t = (int)(sum.times[i] + 0.5);
            snprintf(line, sizeof line, "answer %zu: %d:%02d", i + 1, t / 60, t % 60);
            ui_lines_text(body, line, w - 2, 4, A_NORMAL);
        }
        if (sum.answered) {
            /* the concept by its name (its id only when no lesson names it),
             * and the lesson that teaches it, by the title the map shows */
            if (sum.review && sum.review_lesson && sum.review_lesson[0])
                snprintf(line, sizeof line, "To review: %s, in the lesson \"%s\"",
                         tutor_concept_name(ui->course, sum.review), sum.review_lesson);
            else
                snprintf(line, sizeof line, "To review: %s",
                         sum.review ? tutor_concept_name(ui->course, sum.review)
                                    : "nothing; this concept is in hand");
            ui_lines_blank(body);
            ui_lines_text(body, line, w, 2, sum.review ? ui_color(UI_C_WARN) : A_NORMAL);
        }
    }
    ui_lines_blank(body);
    ui_lines_text(body, "q goes back; the progress screen (p on the map) has the rest.", w, 2,
                  A_NORMAL);
}
