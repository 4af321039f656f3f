/* The course map: modules and their lessons in order, numbered within the
 * module, with the lessons each one asks to take first ("after 2,4"), how
 * far the learner got and what is due; '/' narrows it to lessons that
 * mention the words, in their title or anywhere in their text. */
#include "ui_app.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tutor_done.h"
#include "tutor_progress.h"
#include "tutor_queue.h"
#include "ui_draw.h"
#include "ui_edit.h"
#include "ui_term.h"
#include "kvt_text.h"

struct row {
    size_t lesson; /* slot in the course (lx_course_at), or SIZE_MAX for a module heading */
    const char *module;
    struct lx_hit hit; /* while searching: where the search found its words */
};

struct map {
    struct row *rows;
    size_t n_rows, selected, first;
    /* what review would bring (tutor_review_counts), for the course and
     * per course slot, and what was answered per slot: read together */
    struct tutor_review_counts counts;
    struct tutor_review_counts *due;
    struct tutor_done *done;
    bool have_stats, have_done, searching;
    struct ui_edit search;
};

/* Rows for the lessons that match the search, a heading before each module. */
static void build(struct map *m, struct ui *ui)
{
    const char *module = NULL;
    /* the lesson selected stays selected wherever the rows put it (a search
     * typed or cleared), as long as it is among them */
    size_t was = m->rows && m->selected < m->n_rows ? m->rows[m->selected].lesson : SIZE_MAX;
    free(m->rows);
    m->rows = calloc(tutor_course_size(ui->course) * 2 + 1, sizeof *m->rows);
    m->n_rows = 0;
    for (size_t i = 0; m->rows && i < tutor_course_size(ui->course); i++) {
        const struct lx_lesson *l = tutor_course_brief(ui->course, i), *whole;
        struct lx_hit hit = {LX_HIT_NONE, 0, "", 0};
        /* a later lesson with the same id replaces this one */
        if (!tutor_course_live(ui->course, i))
            continue;
        /* a search reads the whole text: the lesson is loaded for it */
        if (m->search.buf[0] &&
            (!(whole = tutor_course_at(ui->course, i)) || !tutor_course_live(ui->course, i) ||
             !tutor_lesson_find(whole, m->search.buf, &hit)))
            continue;
        l = tutor_course_brief(ui->course, i);
        if (!module || strcmp(module, l->module) != 0) {
            module = l->module;
            m->rows[m->n_rows++] = (struct row){SIZE_MAX, module, {LX_HIT_NONE, 0, "", 0}};
        }
        if (i == was)
            m->selected = m->n_rows;
        m->rows[m->n_rows++] = (struct row){i, l->module, hit};
    }
    if (m->selected >= m->n_rows || (m->n_rows && m->rows[m->selected].lesson == SIZE_MAX))
        m->selected = m->n_rows > 1 ? 1 : 0;
}

/* The counts change while another screen is open: drop them so the next
 * draw reads them again. */
static void forget_stats(struct map *m)
{
    m->have_stats = false;
    m->have_done = false;
}

static void refresh_stats(struct map *m, struct ui *ui)
{
    struct store_error err;
    struct tutor_env env = ui_tutor_env(ui);
    forget_stats(m);
    /* a lesson loaded meanwhile may have left the course (its file no
     * longer loads): the rows are made again with the counts */
    build(m, ui);
    free(m->due);
    /* due as review counts it: the same rule, so "1 due today" here is
     * the one item review asks first */
    m->due = calloc(tutor_course_size(ui->course) + 1, sizeof *m->due);
    m->have_stats = m->due && tutor_review_counts(&env, &m->counts, m->due, &err) == KVT_E_OK;
    free(m->done);
    m->done = calloc(tutor_course_size(ui->course) + 1, sizeof *m->done);
    m->have_done = m->done && tutor_done_counts(ui->opt.store, ui->opt.learner_id, ui->course,
                                                m->done, &err) == KVT_E_OK;
}

/* What the learner answered of the lesson in a slot: exercises, follow-ups
 * and the question, each counted once. */
static struct tutor_done done_of(const struct map *m, size_t slot)
{
    return m->have_done ? m->done[slot] : (struct tutor_done){0};
}

static unsigned map_context(void *self)
{
    struct map *m = self;
    if (m->searching)
        return UC_EDIT | UC_SEARCH;
    /* the keys for a lesson only while one is selected: a search may find none */
    return UC_MAP | (m->n_rows && m->rows[m->selected].lesson != SIZE_MAX ? UC_MAP_LESSON : 0);
}

static const char *map_title(void *self, struct ui *ui)
{
    static char t[1200];
    struct map *m = self;
    char fresh[48] = "";
    /* the title is drawn before the list: counts read now are its counts */
    if (!m->have_stats)
        refresh_stats(m, ui);
    /* what r brings: the due ones, then the new ones */
    if (m->have_stats && m->counts.new_today)
        snprintf(fresh, sizeof fresh, " · %zu new", m->counts.new_today);
    snprintf(t, sizeof t, "kvtutor · Course map · %zu due today%s%s%s",
             m->have_stats ? m->counts.due_now : 0, fresh, m->search.len ? " · matching " : "",
             m->search.buf);
    return t;
}

/* A lesson row's cells: its number, prerequisites, exercises done and due. */
struct cells {
    char num[24], after[512], done[48], due[32];
};

static void cells_of(struct map *m, struct ui *ui, size_t slot, struct cells *c)
{
    const struct lx_lesson *l = tutor_course_brief(ui->course, slot);
    /* numbered among every lesson of the module, whatever the search
     * shows, so the numbers stay put while searching */
    snprintf(c->num, sizeof c->num, "%zu", tutor_course_number(ui->course, slot));
    tutor_course_after_text(ui->course, l, c->after, sizeof c->after);
    /* exercises only: follow-ups and the question are counted on the
     * line at the foot */
    snprintf(c->done, sizeof c->done, "%zu/%zu done", done_of(m, slot).exercises, l->n_exercises);
    snprintf(c->due, sizeof c->due, "%zu due", m->have_stats ? m->due[slot].due_now : 0);
}

/* Column widths, from the widest cell of any row (search or not, so the
 * columns stay put while typing): the title takes what is left, no more
 * than the longest title needs, so on a wide terminal the counts sit
 * beside the titles. */
struct layout {
    int num, title, after, done, due;
};

/* the prerequisites' column when the titles need the room ("after
 * 4,7,13,14"); wider where the longest title still fits, and the foot line
 * names them all */
#define AFTER_MAX 16

static int width_of(const char *s)
{
    return (int)kvt_text_width(s, strlen(s));
}

static struct layout layout_of(struct map *m, struct ui *ui, int cols)
{
    struct layout w = {2, 0, 0, 0, 0};
    int longest = 0, room;
    for (size_t i = 0; i < tutor_course_size(ui->course); i++) {
        struct cells c;
        if (!tutor_course_live(ui->course, i))
            continue;
        cells_of(m, ui, i, &c);
#define WIDEST(field, text) w.field = w.field > width_of(text) ? w.field : width_of(text)
        WIDEST(num, c.num);
        WIDEST(after, c.after);
        WIDEST(done, c.done);
        WIDEST(due, c.due);
#undef WIDEST
        if (width_of(tutor_course_brief(ui->course, i)->title) > longest)
            longest = width_of(tutor_course_brief(ui->course, i)->title);
    }
    /* 3 columns of margin and number, 2 between cells, 2 of margin right */
    room = cols - 2 - (3 + w.num + 2) - (w.after ? w.after + 2 : 0) - (w.done + 2) - (w.due + 2);
    if (room < longest && w.after > AFTER_MAX) {
        int give = longest - room < w.after - AFTER_MAX ? longest - room : w.after - AFTER_MAX;
        w.after -= give;
        room += give;
    }
    w.title = room < longest ? room : longest;
    if (w.title < 8)
        w.title = 8;
    return w;
}

/* Text in a cell of `width` columns, right-aligned when asked; cut with an
 * ellipsis only when it does not fit. */
static void put_cell(int y, int x, int width, const char *text, bool right, attr_t a)
{
    char fit[512];
    int used = (int)kvt_text_fit(text, width, ui_term_utf8() ? "…" : "...", fit, sizeof fit);
    ui_put(y, right ? x + width - used : x, width, fit, a);
}

/* The snippet from where its match stays in `width` columns with the
 * match's own `needle` bytes: when the match would end past the line, the
 * front is dropped at a space, about a third of the line before the match,
 * and "..." marks the cut. Returns the start within snippet; *dots is set
 * when the front was cut. */
static size_t snippet_start(const struct lx_hit *hit, size_t needle, int width, bool *dots)
{
    const char *s = hit->snippet;
    size_t at = hit->match_at, len = strlen(s), from;
    int before = width / 3;

    *dots = false;
    if (at > len)
        at = len;
    if (needle > len - at)
        needle = len - at;
    if ((int)kvt_text_width(s, at + needle) <= width)
        return 0;
    from = at;
    /* back from the match while the words before it take a third of the line */
    while (from > 0 && (int)kvt_text_width(s + from - 1, at - from + 1) <= before)
        from--;
    while (from < at && s[from] != ' ')
        from++; /* to a space: no word cut */
    while (from < at && s[from] == ' ')
        from++;
    *dots = true;
    return from;
}

/* "Take first: A · B · C" in `width` columns: when the titles are too long
 * together, each is cut to a fair share (a short one leaves its spare to
 * the others), so that none is dropped: a row in another module only says
 * "after Part 0…" at 80 columns. */
static void take_first(struct ui *ui, const struct lx_lesson *l, int width, char *out, size_t cap)
{
    static const char lead[] = "Take first: ", sep[] = " · ";
    const char *ell = ui_term_utf8() ? "…" : "...";
    const char *titles[64];
    size_t n = l->n_requires < 64 ? l->n_requires : 64, used = 0;
    int room, share, widest_short = 0, n_long = 0;

    out[0] = '\0';
    if (n == 0)
        return;
    for (size_t k = 0; k < n; k++) {
        const struct lx_lesson *req = tutor_course_find(ui->course, l->requires[k], NULL);
        titles[k] = req ? req->title : l->requires[k];
    }
    room = width - width_of(lead) - (int)(n - 1) * width_of(sep);
    share = room / (int)n;
    /* titles within the share keep their width; the rest split what is left */
    for (size_t k = 0; k < n; k++) {
        if (width_of(titles[k]) <= share)
            widest_short += width_of(titles[k]);
        else
            n_long++;
    }
    if (n_long)
        share = (room - widest_short) / n_long;
    if (share < 4)
        share = 4;
    for (size_t k = 0; k < n && used < cap; k++) {
        char fit[512];
        int w;
        kvt_text_fit(titles[k], share, ell, fit, sizeof fit);
        w = snprintf(out + used, cap - used, "%s%s", k ? sep : lead, fit);
        if (w < 0)
            break;
        used += (size_t)w < cap - used ? (size_t)w : cap - used - 1;
    }
}

static void map_draw(void *self, struct ui *ui, int top, int rows, int cols)
{
    struct map *m = self;
    int list = rows - 3; /* the last two lines: prerequisites, then the lesson's id */
    struct layout w;

    if (!m->have_stats)
        refresh_stats(m, ui);
    w = layout_of(m, ui, cols);
    if (m->n_rows == 0)
        ui_put(top + 1, 2, cols - 4,
               m->search.len ? "No lesson matches; Esc clears the search."
                             : "No lessons found. Bundled lessons live in share/kvtutor/lessons.",
               A_NORMAL);
    if (m->selected < m->first)
        m->first = m->selected;
    if (list > 0 && m->selected >= m->first + (size_t)list)
        m->first = m->selected - (size_t)list + 1;
    for (int r = 0; r < list && m->first + (size_t)r < m->n_rows; r++) {
        const struct row *row = &m->rows[m->first + (size_t)r];
        int y = top + 1 + r, x;
        if (row->lesson == SIZE_MAX) {
            ui_put(y, 2, cols - 4, tutor_course_module_title(ui->course, row->module),
                   ui_color(UI_C_HEADING) | A_BOLD);
        } else {
            const struct lx_lesson *l = tutor_course_brief(ui->course, row->lesson);
            bool sel = m->first + (size_t)r == m->selected;
            attr_t a = sel ? A_REVERSE : A_NORMAL;
            struct cells c;
            cells_of(m, ui, row->lesson, &c);
            if (sel)
                mvhline(y, 2, ' ', cols - 4), mvchgat(y, 2, cols - 4, A_REVERSE, 0, NULL);
            x = 3;
            put_cell(y, x, w.num, c.num, true, a);
            x += w.num + 2;
            put_cell(y, x, w.title, l->title, false, a | (sel ? A_BOLD : 0));
            x += w.title + 2;
            if (w.after) {
                put_cell(y, x, w.after, c.after, false, a | A_DIM);
                x += w.after + 2;
            }
            put_cell(y, x, w.done, c.done, true, a);
            x += w.done + 2;
            put_cell(y, x, w.due, c.due, true, a);
        }
    }
    if (m->search.len && m->n_rows && m->rows[m->selected].lesson != SIZE_MAX &&
        m->rows[m->selected].hit.where != LX_HIT_NONE) {
        /* where the words are, and them in their sentence: Enter opens there */
        const struct row *row = &m->rows[m->selected];
        char place[256], line[512], head[300];
        bool dots;
        size_t from;
        tutor_hit_place(tutor_course_at(ui->course, row->lesson), &row->hit, place, sizeof place);
        snprintf(head, sizeof head, "in %s: ", place);
        /* the matched words stay on the line, however long the place's name */
        from = snippet_start(&row->hit, m->search.len,
                             cols - 4 - (int)kvt_text_width(head, strlen(head)) - 3, &dots);
        snprintf(line, sizeof line, "%s%s%s", head,
                 dots && strncmp(row->hit.snippet + from, "...", 3) != 0 ? "..." : "",
                 row->hit.snippet + from);
        put_cell(top + rows - 2, 2, cols - 4, line, false, A_DIM);
    }
    if (m->searching) {
        ui_put(top + rows - 1, 2, 2, "/", A_BOLD);
        ui_edit_draw(&m->search, top + rows - 1, 4, cols - 6);
    } else if (m->n_rows && m->rows[m->selected].lesson != SIZE_MAX) {
        const struct lx_lesson *l = tutor_course_brief(ui->course, m->rows[m->selected].lesson);
        char line[1024];
        /* name the prerequisites the row only numbers: every one of them,
         * each title shortened to its share of the line if need be */
        take_first(ui, l, cols - 4, line, sizeof line);
        if (line[0] && !m->search.len)
            put_cell(top + rows - 2, 2, cols - 4, line, false, A_DIM);
        struct tutor_done d = done_of(m, m->rows[m->selected].lesson);
        /* the id is what `kvtutor open` and `reset` take; the concept id is
         * left out (internal, and it pushed the counts past 80 columns) */
        snprintf(line, sizeof line, "%s · done: %zu/%zu exercises, %zu/%zu follow-ups%s", l->id,
                 d.exercises, l->n_exercises, d.followups, l->n_followups,
                 l->n_points ? (d.question ? ", 1/1 question" : ", 0/1 question") : "");
        put_cell(top + rows - 1, 2, cols - 4, line, false, A_DIM);
    }
}

static void move_sel(struct map *m, long by)
{
    long s = (long)m->selected;
    if (m->n_rows == 0)
        return;
    do {
        s += by > 0 ? 1 : -1;
        if (s < 0 || s >= (long)m->n_rows)
            return;
        if (m->rows[s].lesson != SIZE_MAX)
            by += by > 0 ? -1 : 1;
    } while (by != 0);
    m->selected = (size_t)s;
}

/* The lesson in the slot, loaded whole before a screen opens on it; false,
 * said and the rows made again, when its file no longer loads. */
static bool loads(struct map *m, struct ui *ui, size_t slot)
{
    char id[128];
    snprintf(id, sizeof id, "%s", tutor_course_brief(ui->course, slot)->id);
    if (tutor_course_at(ui->course, slot) && tutor_course_live(ui->course, slot))
        return true;
    ui_say(ui, UI_BAD, "lesson \"%s\" cannot be loaded (kvtutor lint says why)", id);
    forget_stats(m);
    build(m, ui);
    return false;
}

static void map_action(void *self, struct ui *ui, enum ui_action a)
{
    struct map *m = self;
    size_t lesson = m->n_rows ? m->rows[m->selected].lesson : SIZE_MAX;

    switch (a) {
    case UI_BACK:
        ui->quit = true;
        break;
    case UI_ESCAPE:
        if (m->search.len) {
            ui_edit_clear(&m->search);
            build(m, ui);
        } else {
            ui_say(ui, UI_INFO, "q or Q quits kvtutor; Esc clears a search");
        }
        break;
    case UI_UP:
    case UI_MATCH_PREV: /* while searching: through the lessons found */
        move_sel(m, -1);
        break;
    case UI_DOWN:
    case UI_MATCH_NEXT:
        move_sel(m, 1);
        break;
    case UI_PAGE_UP:
        move_sel(m, -10);
        break;
    case UI_PAGE_DOWN:
        move_sel(m, 10);
        break;
    case UI_TOP:
        m->selected = 0;
        move_sel(m, 1);
        break;
    case UI_BOTTOM:
        m->selected = m->n_rows ? m->n_rows - 1 : 0;
        break;
    case UI_SEARCH:
        m->searching = true;
        break;
    case UI_KEEP_SEARCH:
        m->searching = false;
        break;
    case UI_CLEAR_SEARCH:
        m->searching = false;
        ui_edit_clear(&m->search);
        build(m, ui);
        break;
    case UI_REVIEW:
    case UI_CRAM:
        forget_stats(m);
        ui_push(ui, ui_review_new(ui, a == UI_CRAM));
        break;
    case UI_PLAYGROUND:
        ui_push(ui, ui_calc_new(ui));
        break;
    case UI_PROGRESS:
        forget_stats(m);
        ui_push(ui, ui_progress_new(ui));
        break;
    case UI_SETTINGS:
        forget_stats(m);
        ui_push(ui, ui_settings_new(ui));
        break;
    case UI_PROBE:
        ui_push(ui, ui_probe_new(ui));
        break;
    case UI_INTERVIEW:
        if (lesson == SIZE_MAX || !loads(m, ui, lesson))
            break;
        forget_stats(m);
        ui_push(ui, ui_interview_new(ui, lesson));
        break;
    case UI_OPEN:
    case UI_PRACTISE:
    case UI_FOLLOWUPS:
        if (lesson == SIZE_MAX || !loads(m, ui, lesson))
            break;
        forget_stats(m);
        if (a == UI_OPEN && m->search.len) {
            /* opened at what the search found: an exercise in practice,
             * anything else in the reader */
            struct lx_hit hit = m->rows[m->selected].hit;
            ui_push(ui, hit.where == LX_HIT_EXERCISE ? ui_quiz_new_at(ui, lesson, hit.index)
                                                     : ui_reader_new_at(ui, lesson, &hit));
        } else {
            ui_push(ui, a == UI_OPEN ? ui_reader_new(ui, lesson)
                                     : ui_quiz_new(ui, lesson, a == UI_FOLLOWUPS));
        }
        break;
    default:
        break;
    }
}

static void map_text(void *self, struct ui *ui, uint32_t cp)
{
    struct map *m = self;
    ui_edit_insert(&m->search, cp);
    build(m, ui);
}

static void map_edit_key(void *self, struct ui *ui, int key)
{
    struct map *m = self;
    if (ui_edit_key(&m->search, key))
        build(m, ui);
}

static void map_destroy(void *self)
{
    struct map *m = self;
    free(m->rows);
    free(m->due);
    free(m->done);
    free(m);
}

static const struct ui_screen_ops ops = {
    .name = "map",
    .context = map_context,
    .title = map_title,
    .draw = map_draw,
    .action = map_action,
    .text = map_text,
    .edit_key = map_edit_key,
    .destroy = map_destroy,
};

struct ui_screen ui_map_new(struct ui *ui)
{
    struct map *m = calloc(1, sizeof *m);
    char last[128];

    if (!m)
        return (struct ui_screen){&ops, NULL};
    ui_edit_clear(&m->search);
    build(m, ui);
    /* resume: select the lesson open most recently */
    if (tutor_reading_last(ui->opt.store, ui->opt.learner_id, last, sizeof last)) {
        for (size_t i = 0; i < m->n_rows; i++) {
            size_t l = m->rows[i].lesson;
            if (l != SIZE_MAX && strcmp(tutor_course_brief(ui->course, l)->id, last) == 0) {
                /* the title cut so "Enter resumes" stays on an 80-column line */
                char title[512];
                m->selected = i;
                kvt_text_fit(tutor_course_brief(ui->course, l)->title, COLS - 2 - 50,
                             ui_term_utf8() ? "…" : "...", title, sizeof title);
                ui_say(ui, UI_INFO, "Welcome back. You were reading \"%s\": Enter resumes.", title);
            }
        }
    }
    return (struct ui_screen){&ops, m};
}
