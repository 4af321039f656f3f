/* The help screen, generated from the action table for the screen it was
 * opened from. */
#include "ui_app.h"
#include "ui_draw.h"
#include "ui_edit.h"

#include "tutor_sim.h"

#include <stdio.h>
#include <stdlib.h>

struct help {
    unsigned context;
    int first;
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

static void help_draw(void *self, struct ui *ui, int top, int rows, int cols)
{
    struct help *h = self;
    const char *label, *text;
    int y = top + 1;
    (void)ui;

    for (size_t i = (size_t)h->first; y < top + rows && ui_action_doc(h->context, i, &label, &text);
         i++, y++) {
        ui_put(y, 2, 12, label, A_BOLD);
        ui_put(y, 16, cols - 18, text, A_NORMAL);
    }
    /* the line editor's own keys: not actions, but they work; listed from
     * the table ui_edit_key handles them by */
    for (size_t i = 0; (h->context & UC_EDIT) && y < top + rows &&
                       ui_edit_doc(i, h->context & UC_HISTORY, &label, &text);
         i++, y++) {
        ui_put(y, 2, 12, label, A_BOLD);
        ui_put(y, 16, cols - 18, text, A_NORMAL);
    }
    /* the serving view's figures are a simulation: say whose, and how big */
    if ((h->context & (UC_CALC | UC_SERVE)) && y < top + rows - 2) {
        char line[200];
        snprintf(line, sizeof line,
                 "Serving view (s): kvtutor sim's simulator, %d requests a run and a point",
                 TUTOR_SIM_PROMPTS);
        ui_put(y + 1, 2, cols - 4, line, A_NORMAL);
        ui_put(y + 2, 2, cols - 4,
               "of the knee (fewer past 524 output tokens); the command it shows gives the "
               "same figures.",
               A_NORMAL);
        y += 3;
    }
    if (y < top + rows - 1)
        ui_put(y + 1, 2, cols - 4,
               "Anywhere: Ctrl-C quits, Ctrl-Z suspends; answers are saved as given.", A_NORMAL);
}

static void help_action(void *self, struct ui *ui, enum ui_action a)
{
    struct help *h = self;
    const char *label, *text;
    if (a == UI_BACK)
        ui_pop(ui);
    else if (a == UI_DOWN && ui_action_doc(h->context, (size_t)h->first + 1, &label, &text))
        h->first++; /* the last key stays on the screen */
    else if (a == UI_UP && h->first > 0)
        h->first--;
}

static const struct ui_screen_ops ops = {
    .name = "help",
    .context = help_context,
    .title = help_title,
    .draw = help_draw,
    .action = help_action,
    .destroy = free,
};

struct ui_screen ui_help_new(unsigned context)
{
    struct help *h = calloc(1, sizeof *h);
    if (h)
        h->context = context & ~(unsigned)UC_HELP ? context & ~(unsigned)UC_HELP : UC_MAP;
    return (struct ui_screen){&ops, h};
}
