/* The lesson reader: the question, the direct answer, the deep dive, the
 * worked arithmetic, the follow-ups to expect and the linked lessons, wrapped
 * to the window and scrolled. The author can reload the file with 'r'. */
#include "ui_app.h"
#include "ui_draw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kvt_text.h"
#include "tutor_course.h"
#include "tutor_progress.h"

struct reader {
    size_t lesson;
    struct ui_lines lines;
    int built_cols;
    size_t first;
    int link; /* the selected link, -1 none */
    /* opened from a search: scrolled to that place once the lines are
     * laid out (seek), the line it starts on (anchor) */
    struct lx_hit at;
    bool seek;
    size_t anchor;
};

/* Where a search's place begins: the line about to be added. */
static void mark(struct reader *r, enum lx_hit_where where, size_t index)
{
    if (r->seek && r->at.where == where && r->at.index == index)
        r->anchor = r->lines.n;
}

static void heading(struct ui_lines *l, const char *text)
{
    ui_lines_blank(l);
    ui_lines_verbatim(l, text, 0, ui_color(UI_C_HEADING) | A_BOLD);
}

/* label and text as one wrapped paragraph, as long as the text is: a
 * lesson's baseline or follow-up may run to thousands of bytes. With
 * `hang`, the lines after the first start under the text, not the label
 * (a numbered item: a wrapped "64." must not read as item 64). */
static void labelled(struct ui_lines *l, const char *label, const char *text, int width, bool hang,
                     attr_t attr)
{
    size_t n = strlen(label) + strlen(text) + 1;
    int h = hang ? (int)kvt_text_width(label, strlen(label)) : 0;
    char *s = malloc(n);

    if (!s) { /* the text still shows, without its label */
        ui_lines_text(l, text, width, 2, attr);
        return;
    }
    snprintf(s, n, "%s%s", label, text);
    ui_lines_hanging(l, s, width, 2, h, attr);
    free(s);
}

static void build(struct reader *r, struct ui *ui, int cols)
{
    const struct lx_lesson *l = tutor_course_at(ui->course, r->lesson);
    char meta[1024];
    int width = cols - 4;

    ui_lines_free(&r->lines);
    r->built_cols = cols;
    /* the title bar shows the title; the page repeats it only where the bar
     * has to cut it ("kvtutor · " and a column either side) */
    if ((int)kvt_text_width(l->title, strlen(l->title)) + 12 > cols)
        ui_lines_text(&r->lines, l->title, width, 0, A_BOLD);
    /* the question first: it is what the lesson answers; what it was
     * checked against and builds on come after it (the module and concept
     * ids are for commands, not for reading) */
    mark(r, LX_HIT_QUESTION, 0);
    heading(&r->lines, "Question");
    ui_lines_text(&r->lines, l->question, width, 2, A_NORMAL);
    labelled(&r->lines, "Checked against ", l->baseline, width, false, A_DIM);
    tutor_course_requires_text(ui->course, l, "", meta, sizeof meta);
    if (meta[0])
        labelled(&r->lines, "Builds on: ", meta, width, true, A_DIM);
    mark(r, LX_HIT_ANSWER, 0);
    heading(&r->lines, "Direct answer");
    ui_lines_text(&r->lines, l->answer, width, 2, A_NORMAL);
    for (size_t i = 0; i < l->n_sections; i++) {
        mark(r, LX_HIT_SECTION, i);
        heading(&r->lines, l->sections[i].title);
        ui_lines_text(&r->lines, l->sections[i].text, width, 2, A_NORMAL);
    }
    mark(r, LX_HIT_WORKED, 0);
    heading(&r->lines, "Worked");
    ui_lines_code(&r->lines, l->worked, width, 2, ui_color(UI_C_WORKED));
    heading(&r->lines, "What an interviewer asks next");
    for (size_t i = 0; i < l->n_followups; i++) {
        char num[24];
        snprintf(num, sizeof num, "%zu. ", i + 1);
        mark(r, LX_HIT_FOLLOWUP, i);
        labelled(&r->lines, num, l->followups[i].question, width, true, A_NORMAL);
    }
    ui_lines_text(&r->lines, "Press e to practise the exercises, f for these follow-ups.", width, 2,
                  A_DIM);
    if (l->n_links) {
        heading(&r->lines, "Linked lessons (Tab selects, Enter opens)");
        for (size_t i = 0; i < l->n_links; i++) {
            const struct lx_lesson *to = tutor_course_find(ui->course, l->links[i], NULL);
            char line[512];
            snprintf(line, sizeof line, "→ %s", to ? to->title : l->links[i]);
            ui_lines_text(&r->lines, line, width, 2, ui_color(UI_C_LINK));
            r->lines.items[r->lines.n - 1].tag = (int)i;
        }
    }
}

static unsigned reader_context(void *self)
{
    (void)self;
    return UC_READ;
}

static const char *reader_title(void *self, struct ui *ui)
{
    static char t[512];
    struct reader *r = self;
    snprintf(t, sizeof t, "kvtutor · %s", tutor_course_at(ui->course, r->lesson)->title);
    return t;
}

static void reader_draw(void *self, struct ui *ui, int top, int rows, int cols)
{
    struct reader *r = self;
    int view = rows - 1;
    char where[64];

    if (r->built_cols != cols) {
        build(r, ui, cols);
        if (r->seek) { /* once: a resize later keeps the learner's place */
            r->first = r->anchor;
            r->seek = false;
        }
    }
    if (r->lines.n > (size_t)view && r->first > r->lines.n - (size_t)view)
        r->first = r->lines.n - (size_t)view;
    ui_lines_draw(&r->lines, r->first, top, view, cols, r->link);
    snprintf(where, sizeof where, "%zu%%",
             r->lines.n <= (size_t)view ? (size_t)100
                                        : (r->first + (size_t)view) * 100 / r->lines.n);
    ui_put(top + rows - 1, cols - 8, 6, where, A_DIM);
}

static void scroll_by(struct reader *r, long by)
{
    long f = (long)r->first + by;
    r->first = f < 0 ? 0 : (size_t)f;
}

static void save_position(struct reader *r, struct ui *ui)
{
    struct store_error err;
    if (tutor_reading_save(ui->opt.store, ui->opt.learner_id,
                           tutor_course_at(ui->course, r->lesson)->id, r->first,
                           (int64_t)time(NULL), &err) != KVT_E_OK)
        ui_say(ui, UI_BAD, "the reading position was not saved: %s", err.detail);
}

static void reload(struct reader *r, struct ui *ui)
{
    const struct tutor_course_open how = {
        .lx = &ui->opt.lx, .store = ui->opt.store, .learner_id = ui->opt.learner_id};
    struct tutor_course_result res;
    char why[400];
    enum kvt_err e = tutor_course_reload(ui->course, r->lesson, &how, why, sizeof why, &res);
    const struct lx_lesson *fresh = tutor_course_at(ui->course, r->lesson);

    if (e != KVT_E_OK && !res.sync_stuck) {
        ui_say(ui, UI_BAD, "not reloaded: %s", why);
        return;
    }
    r->built_cols = 0;
    r->link = -1;
    /* a changed expected answer starts its schedule over */
    if (res.sync_stuck)
        ui_say(ui, UI_BAD, "reloaded %s; its schedules were not checked: %s", fresh->path,
               res.err.detail);
    else if (res.restarted)
        ui_say(ui, UI_GOOD, "reloaded %s; %zu changed answer%s start%s over", fresh->path,
               res.restarted, res.restarted == 1 ? "" : "s", res.restarted == 1 ? "s" : "");
    else
        ui_say(ui, UI_GOOD, "reloaded %s", fresh->path);
}

static void reader_action(void *self, struct ui *ui, enum ui_action a)
{
    struct reader *r = self;
    const struct lx_lesson *l = tutor_course_at(ui->course, r->lesson);
    long page = LINES - 6;

    switch (a) {
    case UI_BACK:
        ui_pop(ui);
        return;
    case UI_UP:
        scroll_by(r, -1);
        break;
    case UI_DOWN:
        scroll_by(r, 1);
        break;
    case UI_PAGE_UP:
        scroll_by(r, -page);
        break;
    case UI_PAGE_DOWN:
        scroll_by(r, page);
        break;
    case UI_TOP:
        r->first = 0;
        break;
    case UI_BOTTOM:
        r->first = r->lines.n;
        break;
    case UI_NEXT_LINK:
        if (l->n_links) {
            r->link = (r->link + 1) % (int)l->n_links;
            for (size_t i = 0; i < r->lines.n; i++)
                if (r->lines.items[i].tag == r->link && (i < r->first || i > r->first + 10))
                    r->first = i > 5 ? i - 5 : 0;
        } else {
            ui_say(ui, UI_INFO, "this lesson links to no other");
        }
        break;
    case UI_FOLLOW_LINK:
        if (r->link >= 0) {
            size_t to;
            if (tutor_course_find(ui->course, l->links[r->link], &to) &&
                tutor_course_at(ui->course, to))
                ui_push(ui, ui_reader_new(ui, to));
            else if (tutor_course_find(ui->course, l->links[r->link], NULL))
                ui_say(ui, UI_BAD, "lesson \"%s\" cannot be loaded (kvtutor lint says why)",
                       l->links[r->link]);
            else
                ui_say(ui, UI_BAD, "lesson \"%s\" is not installed", l->links[r->link]);
        } else {
            ui_say(ui, UI_INFO, "Tab selects a linked lesson; e practises this one");
        }
        break;
    case UI_PRACTISE:
    case UI_FOLLOWUPS:
        save_position(r, ui);
        ui_push(ui, ui_quiz_new(ui, r->lesson, a == UI_FOLLOWUPS));
        break;
    case UI_RELOAD:
        reload(r, ui);
        break;
    case UI_INTERVIEW:
        save_position(r, ui);
        ui_push(ui, ui_interview_new(ui, r->lesson));
        break;
    default:
        break;
    }
}

static void reader_leave(void *self, struct ui *ui)
{
    save_position(self, ui);
}

static void reader_destroy(void *self)
{
    struct reader *r = self;
    ui_lines_free(&r->lines);
    free(r);
}

static const struct ui_screen_ops ops = {
    .name = "reader",
    .context = reader_context,
    .title = reader_title,
    .draw = reader_draw,
    .action = reader_action,
    .leave = reader_leave,
    .destroy = reader_destroy,
};

static struct ui_screen open_reader(struct ui *ui, size_t lesson)
{
    struct reader *r = calloc(1, sizeof *r);

    if (!r)
        return (struct ui_screen){&ops, NULL};
    r->lesson = lesson;
    r->link = -1;
    tutor_reading_get(ui->opt.store, ui->opt.learner_id, tutor_course_at(ui->course, lesson)->id,
                      &r->first);
    save_position(r, ui);
    return (struct ui_screen){&ops, r};
}

struct ui_screen ui_reader_new(struct ui *ui, size_t lesson)
{
    struct ui_screen s = open_reader(ui, lesson);
    struct reader *r = s.self;

    /* a lesson opened part-way down reads as a different lesson: say why */
    if (r && r->first > 0)
        ui_say(ui, UI_INFO, "Back where you left off; g goes to the top");
    return s;
}

struct ui_screen ui_reader_new_at(struct ui *ui, size_t lesson, const struct lx_hit *hit)
{
    struct ui_screen s = open_reader(ui, lesson);
    struct reader *r = s.self;

    if (r && hit->where != LX_HIT_NONE) {
        r->at = *hit;
        r->seek = true;
    }
    return s;
}
