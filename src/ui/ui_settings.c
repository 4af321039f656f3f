/* The settings screen: desired retention, new exercises a day, and who is
 * learning. Each is checked by the store's own rule before it is saved. */
#include "ui_app.h"
#include "ui_draw.h"
#include "ui_edit.h"
#include "tutor_progress.h"
#include "kvt_text.h"
#include "ui_term.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const struct {
    const char *key, *label, *help;
} rows[] = {
    {"desired_retention", "Desired retention",
     "the chance of remembering an exercise when it comes back (0.7 to 0.97)"},
    {"new_per_day", "New exercises a day",
     "how many unseen exercises reviews bring in each day (0 to 500)"},
    {"interview_answer_seconds", "Interview: seconds an answer",
     "time for each interview answer; at zero, what is typed stands (0: none)"},
    {"interview_minutes", "Interview: minutes in all",
     "the whole interview; at zero it ends, the answer as typed (0: none)"},
    {"learner", "Learner", "progress is kept per name: switch to share this machine"},
};

#define N_ROWS (sizeof rows / sizeof rows[0])

struct settings {
    size_t selected;
    bool editing;
    struct ui_edit edit;
};

static void value_of(struct ui *ui, size_t i, char *buf, size_t cap)
{
    if (strcmp(rows[i].key, "learner") == 0)
        snprintf(buf, cap, "%s", ui->opt.learner);
    else /* what is in force: a hand-edited value the rule refuses is not */
        tutor_settings_text(ui->opt.store, rows[i].key, buf, cap);
}

static unsigned settings_context(void *self)
{
    struct settings *s = self;
    return s->editing ? UC_EDIT : UC_PAGE | UC_SETTINGS;
}

static const char *settings_title(void *self, struct ui *ui)
{
    (void)self, (void)ui;
    return "kvtutor · Settings";
}

/* Where the answers go: not a setting, but asked for here, and whole, as
 * it is what a learner copies to back up or move progress. On the label's
 * line when it fits; else on the lines below, broken after a '/' where one
 * falls in the second half of a line; an ellipsis only when the rows left
 * run out. */
static void draw_db_path(struct ui *ui, int y, int end, int cols)
{
    static const char label[] = "Progress database: ";
    char path[4200], fit[4200];
    const char *p = path;
    size_t len, next;
    int width = cols - 8;

    if (y >= end)
        return;
    kvt_sanitize(ui->opt.db_path ? ui->opt.db_path : "(none)",
                 ui->opt.db_path ? strlen(ui->opt.db_path) : 6, path, sizeof path, 0);
    len = strlen(path);
    if ((int)kvt_text_width(path, len) <= cols - 4 - (int)strlen(label)) {
        snprintf(fit, sizeof fit, "%s%s", label, path);
        ui_put(y, 2, cols - 4, fit, A_NORMAL);
        return;
    }
    ui_put(y, 2, cols - 4, "Progress database:", A_NORMAL);
    while (len && ++y < end && width > 0) {
        size_t n = 0;
        /* whole characters up to the width: a path's spaces are part of it,
         * so no break drops one */
        for (int used = 0; n < len;) {
            size_t c = 1;
            while (n + c < len && ((unsigned char)p[n + c] & 0xC0) == 0x80)
                c++;
            used += (int)kvt_text_width(p + n, c);
            if (used > width)
                break;
            n += c;
        }
        next = n;
        if (n < len) {
            for (size_t k = n; k > n / 2; k--)
                if (p[k - 1] == '/') {
                    n = next = k;
                    break;
                }
        }
        if (n < len && y + 1 == end) { /* the last row: say that more is cut */
            kvt_text_fit(p, width, ui_term_utf8() ? "\xe2\x80\xa6" : "...", fit, sizeof fit);
            ui_put(y, 4, width, fit, A_NORMAL);
            return;
        }
        snprintf(fit, sizeof fit, "%.*s", (int)n, p);
        ui_put(y, 4, width, fit, A_NORMAL);
        p += next, len -= next;
    }
}

static void settings_draw(void *self, struct ui *ui, int top, int rows_, int cols)
{
    struct settings *s = self;
    for (size_t i = 0; i < N_ROWS; i++) {
        char v[128];
        int y = top + 2 + (int)i * 3;
        attr_t a = i == s->selected ? A_REVERSE : A_NORMAL;
        value_of(ui, i, v, sizeof v);
        ui_put(y, 2, 30, rows[i].label, a | A_BOLD);
        if (s->editing && i == s->selected)
            ui_edit_draw(&s->edit, y, 34, cols - 36);
        else
            ui_put(y, 34, cols - 36, v, a);
        ui_put(y + 1, 4, cols - 6, rows[i].help, A_DIM);
    }
    draw_db_path(ui, top + 2 + (int)N_ROWS * 3, top + rows_, cols);
}

static void apply(struct settings *s, struct ui *ui)
{
    const char *key = rows[s->selected].key, *why = NULL;
    struct store_error err;
    enum kvt_err e;

    if (strcmp(key, "learner") == 0) {
        int64_t id;
        e = tutor_learner_switch(ui->opt.store, s->edit.buf, (int64_t)time(NULL), &id, &why, &err);
        if (e == KVT_E_OK) {
            ui->opt.learner_id = id;
            snprintf(ui->learner, sizeof ui->learner, "%.64s", s->edit.buf);
        }
    } else {
        e = tutor_settings_set(ui->opt.store, &ui->settings, key, s->edit.buf, &why, &err);
    }
    if (e != KVT_E_OK) {
        if (why)
            ui_say(ui, UI_BAD, "%s: %s", rows[s->selected].label, why);
        else
            ui_say(ui, UI_BAD, "not saved: %s", err.detail);
        return;
    }
    s->editing = false;
    ui_say(ui, UI_GOOD, "%s saved", rows[s->selected].label);
}

static void settings_action(void *self, struct ui *ui, enum ui_action a)
{
    struct settings *s = self;
    switch (a) {
    case UI_BACK:
        ui_pop(ui);
        return;
    case UI_UP:
        if (s->selected > 0)
            s->selected--;
        break;
    case UI_DOWN:
        if (s->selected + 1 < N_ROWS)
            s->selected++;
        break;
    /* the form is one page: its top and bottom are its first and last setting */
    case UI_TOP:
    case UI_PAGE_UP:
        s->selected = 0;
        break;
    case UI_BOTTOM:
    case UI_PAGE_DOWN:
        s->selected = N_ROWS - 1;
        break;
    case UI_CHANGE: {
        char v[128];
        value_of(ui, s->selected, v, sizeof v);
        ui_edit_offer(&s->edit, v); /* typing replaces it; an arrow edits it */
        s->editing = true;
        break;
    }
    case UI_SUBMIT:
        apply(s, ui);
        break;
    case UI_CANCEL:
        s->editing = false;
        break;
    default:
        break;
    }
}

static void settings_text(void *self, struct ui *ui, uint32_t cp)
{
    struct settings *s = self;
    (void)ui;
    ui_edit_insert(&s->edit, cp);
}

static void settings_edit_key(void *self, struct ui *ui, int key)
{
    struct settings *s = self;
    (void)ui;
    ui_edit_key(&s->edit, key);
}

static const struct ui_screen_ops ops = {
    .name = "settings",
    .context = settings_context,
    .title = settings_title,
    .draw = settings_draw,
    .action = settings_action,
    .text = settings_text,
    .edit_key = settings_edit_key,
    .destroy = free,
};

struct ui_screen ui_settings_new(struct ui *ui)
{
    (void)ui;
    return (struct ui_screen){&ops, calloc(1, sizeof(struct settings))};
}
