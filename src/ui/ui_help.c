/* The help screen, generated from the action table for the screen it was
 * opened from. */
#include "ui_app.h"
#include "ui_draw.h"
#include "ui_edit.h"

#include "tutor_sim.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kvt_text.h"

struct help {
    unsigned context;
    size_t first, view;
    struct ui_lines lines;
    int built_cols;
};

static unsigned help_context(void *self)
{
    (void)self;
    return UC_HELP;
}

static const char *help_title(void *self, struct ui *ui)
{
    (void)self, (void)ui;
    return "Help: the keys that work here";
}

/* One key and what it does: the words wrap under themselves, past the
 * key's column, so a long one is read whole at 80 columns. */
static void key_row(struct ui_lines *l, const char *label, const char *text, int width)
{
    char row[1200];
    const char *p = text;
    bool first = true;
    int room = width - 16 > 20 ? width - 16 : 20;

    while (*p) {
        size_t n = strlen(p), cut = n;
        if (kvt_text_width(p, n) > (size_t)room) {
            /* the last space that leaves the part within the room */
            cut = 0;
            for (size_t i = 0; i < n && kvt_text_width(p, i) <= (size_t)room; i++)
                if (p[i] == ' ')
                    cut = i;
            if (cut == 0)
                cut = n;
        }
        snprintf(row, sizeof row, "%-14s%.*s", first ? label : "", (int)cut, p);
        ui_lines_verbatim(l, row, 1, A_NORMAL);
        first = false;
        p += cut;
        while (*p == ' ')
            p++;
    }
}

static void build(struct help *h, int cols)
{
    const char *label, *text;
    char line[400];
    int width = cols - 4;

    ui_lines_free(&h->lines);
    h->built_cols = cols;
    for (size_t i = 0; ui_action_doc(h->context, i, &label, &text); i++)
        key_row(&h->lines, label, text, width);
    /* the line editor's own keys: not actions, but they work; listed from
     * the table ui_edit_key handles them by */
    for (size_t i = 0;
         (h->context & UC_EDIT) && ui_edit_doc(i, h->context & UC_HISTORY, &label, &text); i++)
        key_row(&h->lines, label, text, width);
    /* the serving view's figures are a simulation: say whose, and how big */
    if (h->context & (UC_CALC | UC_SERVE)) {
        ui_lines_blank(&h->lines);
        snprintf(line, sizeof line,
                 "Serving view (s): kvtutor sim's simulator, %d requests a run and a point of "
                 "the knee (fewer past 524 output tokens); the command it shows gives the same "
                 "figures.",
                 TUTOR_SIM_PROMPTS);
        ui_lines_text(&h->lines, line, width, 1, A_NORMAL);
    }
    ui_lines_blank(&h->lines);
    ui_lines_text(&h->lines, "Anywhere: Ctrl-C quits, Ctrl-Z suspends; answers are saved as given.",
                  width, 1, A_NORMAL);
}

static void help_draw(void *self, struct ui *ui, int top, int rows, int cols)
{
    struct help *h = self;
    (void)ui;

    if (h->built_cols != cols)
        build(h, cols);
    h->view = rows > 2 ? (size_t)(rows - 2) : 1;
    if (h->lines.n > h->view && h->first > h->lines.n - h->view)
        h->first = h->lines.n - h->view;
    if (h->lines.n <= h->view)
        h->first = 0;
    ui_lines_draw(&h->lines, h->first, top + 1, rows - 2, cols, -1);
    if (h->first + h->view < h->lines.n)
        ui_put(top + rows - 1, 2, cols - 4, "more below: Space or j", A_DIM);
}

static void help_action(void *self, struct ui *ui, enum ui_action a)
{
    struct help *h = self;
    size_t page = h->view > 1 ? h->view - 1 : 1;
    if (a == UI_BACK)
        ui_pop(ui);
    else if (a == UI_DOWN)
        h->first++; /* drawn no further than the last page */
    else if (a == UI_UP && h->first > 0)
        h->first--;
    else if (a == UI_PAGE_DOWN)
        h->first += page;
    else if (a == UI_PAGE_UP)
        h->first = h->first > page ? h->first - page : 0;
    else if (a == UI_TOP)
        h->first = 0;
    else if (a == UI_BOTTOM)
        h->first = h->lines.n;
}

static void help_destroy(void *self)
{
    struct help *h = self;
    if (h)
        ui_lines_free(&h->lines);
    free(h);
}

static const struct ui_screen_ops ops = {
    .name = "help",
    .context = help_context,
    .title = help_title,
    .draw = help_draw,
    .action = help_action,
    .destroy = help_destroy,
};

struct ui_screen ui_help_new(unsigned context)
{
    struct help *h = calloc(1, sizeof *h);
    if (h)
        h->context = context & ~(unsigned)UC_HELP ? context & ~(unsigned)UC_HELP : UC_MAP;
    return (struct ui_screen){&ops, h};
}
