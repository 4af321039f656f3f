/* ui_app.h: what the app's files share: the app state, the screen
 * interface, drawing helpers and the line editor. */
#ifndef UI_APP_H
#define UI_APP_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fsrs.h"
#include "lx.h"
#include "lx_course.h"
#include "store.h"
#include "ui.h"
#include "ui_actions.h"

#define UI_MIN_COLS  80
#define UI_MIN_LINES 24
#define UI_MAX_DEPTH 16

struct ui;

/* A screen: a table of operations and its own state. The loop draws the
 * top screen into the rows between the title bar and the message line. */
struct ui_screen_ops {
    const char *name;
    unsigned (*context)(void *self);                 /* UC_* bits now */
    const char *(*title)(void *self, struct ui *ui); /* the title bar */
    void (*draw)(void *self, struct ui *ui, int top, int rows, int cols);
    void (*action)(void *self, struct ui *ui, enum ui_action a);
    void (*text)(void *self, struct ui *ui, uint32_t cp); /* a typed character */
    void (*edit_key)(void *self, struct ui *ui, int key); /* arrows etc. while typing */
    void (*leave)(void *self, struct ui *ui);             /* before it is popped */
    void (*destroy)(void *self);
    /* optional: called about every 50 ms while busy() says so, and at every
     * wake-up otherwise, for screens with work in the background */
    void (*tick)(void *self, struct ui *ui);
    bool (*busy)(void *self);
};

struct ui_screen {
    const struct ui_screen_ops *ops;
    void *self;
};

enum ui_say { UI_INFO, UI_GOOD, UI_BAD };

struct ui {
    struct ui_options opt;
    struct lx_course *course;   /* the catalogue: lookup, shadowing, numbers, prerequisites */
    struct lx_lesson **lessons; /* its slots (lx_course_lessons), in course order; NULL failed */
    size_t n_lessons;
    struct ui_screen stack[UI_MAX_DEPTH];
    int depth;
    char message[512];
    enum ui_say message_kind;
    bool quit;
    uint64_t draws;
    struct fsrs_params fsrs; /* with the learner's desired retention */
    unsigned new_per_day;
    int last_key;      /* the key behind the action being handled (m or M, ...) */
    char learner[128]; /* the current learner's name (opt.learner points here) */
};

/* The screen stack. push takes ownership; pop calls leave and destroy. */
void ui_push(struct ui *ui, struct ui_screen s);
void ui_pop(struct ui *ui);

/* A one-line message under the screen (sanitised when drawn). */
void ui_say(struct ui *ui, enum ui_say kind, const char *fmt, ...);

/* Screens. */
struct ui_screen ui_map_new(struct ui *ui);
struct ui_screen ui_reader_new(struct ui *ui, size_t lesson);
struct ui_screen ui_quiz_new(struct ui *ui, size_t lesson, bool followups_only);
struct ui_screen ui_review_new(struct ui *ui, bool cram);
struct ui_screen ui_interview_new(struct ui *ui, size_t lesson);
struct ui_screen ui_progress_new(struct ui *ui);
struct ui_screen ui_settings_new(struct ui *ui);
struct ui_screen ui_calc_new(struct ui *ui);
struct ui_screen ui_probe_new(struct ui *ui);
struct ui_screen ui_help_new(unsigned context);

/* Drawing. Text is sanitised and clipped to `width` columns; in a non-UTF-8
 * locale anything beyond ASCII is shown as '?'. Returns the columns used. */
int ui_put(int y, int x, int width, const char *text, attr_t attr);
attr_t ui_attr(int pair, attr_t fallback);

/* Wrapped text with light markup: *emphasis* and `code`. Adds the lines to
 * `lines` (see ui_lines) for a screen to scroll through. */
struct ui_line {
    char *text;           /* markup already removed */
    unsigned char *style; /* one byte a character: 0 plain, 1 emphasis, 2 code */
    attr_t attr;          /* the whole line's attribute (headings, code blocks) */
    int indent;
    int tag; /* the screen's own marker (a link's number, ...); -1 none */
};

struct ui_lines {
    struct ui_line *items;
    size_t n, cap;
};

void ui_lines_text(struct ui_lines *l, const char *text, int width, int indent, attr_t attr);
void ui_lines_verbatim(struct ui_lines *l, const char *text, int indent, attr_t attr);
void ui_lines_blank(struct ui_lines *l);
void ui_lines_free(struct ui_lines *l);
void ui_lines_draw(const struct ui_lines *l, size_t first, int top, int rows, int cols,
                   int selected_tag);

/* A one-line editor with history, for answers and searches. */
struct ui_edit {
    char buf[1024];
    size_t len, cursor; /* bytes */
    char history[16][1024];
    int n_history, browsing;
};

void ui_edit_clear(struct ui_edit *e);
void ui_edit_set(struct ui_edit *e, const char *text);
void ui_edit_insert(struct ui_edit *e, uint32_t cp);
/* Handles editing keys (arrows, Home/End, Backspace, Delete, Ctrl-U/A/E/W);
 * returns true when the key was one of them. */
bool ui_edit_key(struct ui_edit *e, int key);
void ui_edit_remember(struct ui_edit *e);
void ui_edit_draw(const struct ui_edit *e, int y, int x, int width);

#endif
