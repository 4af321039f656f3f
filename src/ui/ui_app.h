/* ui_app.h: what the screens and the loop share: the app's state, the
 * screen interface, the screen stack and the screens' constructors. Drawing
 * is in ui_draw.h, the line editor in ui_edit.h. */
#ifndef UI_APP_H
#define UI_APP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

#include "fsrs.h"
#include "lx.h"
#include "lx_course.h"
#include "store.h"
#include "tutor_course.h"
#include "tutor_session.h"
#include "tutor_settings.h"
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
    /* optional: what quitting now would lose ("the answer you typed", "the
     * probe still running"), or NULL: a quit with something at stake asks
     * first (the same key again quits) */
    const char *(*at_stake)(void *self);
};

struct ui_screen {
    const struct ui_screen_ops *ops;
    void *self;
};

enum ui_say { UI_INFO, UI_GOOD, UI_BAD };

struct ui {
    struct ui_options opt;
    struct lx_course *course; /* the catalogue: lookup, shadowing, numbers, prerequisites */
    struct ui_screen stack[UI_MAX_DEPTH];
    int depth;
    char message[512];
    enum ui_say message_kind;
    bool message_until_typed; /* the note goes once the learner types (ui_say clears it) */
    bool quit;
    bool quit_armed; /* a quit was asked for with something at stake: the same key again quits */
    uint64_t draws;
    size_t files_run; /* lesson files the opening ran, not opened from a brief (the report) */
    struct tutor_settings settings; /* desired retention, new a day (tutor_settings.h) */
    char learner[128];              /* the current learner's name (opt.learner points here) */
};

/* The screen stack. push takes ownership; pop calls leave and destroy. */
void ui_push(struct ui *ui, struct ui_screen s);
void ui_pop(struct ui *ui);

/* A one-line message under the screen (sanitised when drawn). */
void ui_say(struct ui *ui, enum ui_say kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The app's own steps, which ui_run's loop takes with a terminal and the
 * in-process harness (ui_harness.h) takes without one, so that a screen
 * test goes through the same code as a learner's keys:
 * - init: the state from the options, the learner's settings read;
 * - open: the course loaded and synced, the map pushed, and the lesson
 *   asked for opened (-1: out of memory, nothing pushed);
 * - frame: the top screen's background work, then the frame drawn into
 *   curses' buffer (not refreshed); false once the app is done;
 * - key: one key as get_wch gave it (OK, a character; KEY_CODE_YES, a key
 *   code; ERR and KEY_RESIZE change nothing);
 * - close: every screen popped, the course closed. */
void ui_app_init(struct ui *ui, const struct ui_options *o);
int ui_app_open(struct ui *ui);
bool ui_app_frame(struct ui *ui);
void ui_app_key(struct ui *ui, int kind, wint_t ch);
/* Whether the top screen takes typed text (an answer, a search): text that
 * is still arriving there is drawn once it is all in, so a paste costs one
 * draw, not one a character. */
bool ui_app_editing(const struct ui *ui);
void ui_app_close(struct ui *ui);
/* A write that waits for another kvtutor's lock, said on the message row
 * over the last frame (tutor_db_on_wait's hook, with the terminal and in
 * the harness alike). */
void ui_app_say_waiting(void);

/* Screens. */
struct ui_screen ui_map_new(struct ui *ui);
struct ui_screen ui_reader_new(struct ui *ui, size_t lesson);
/* the reader scrolled to where a search found its words */
struct ui_screen ui_reader_new_at(struct ui *ui, size_t lesson, const struct lx_hit *hit);
struct ui_screen ui_quiz_new(struct ui *ui, size_t lesson, bool followups_only);
/* practice from exercise `exercise` (a search found its words there) */
struct ui_screen ui_quiz_new_at(struct ui *ui, size_t lesson, size_t exercise);
struct ui_screen ui_review_new(struct ui *ui, bool cram);
/* What the app's sessions work with: its store, learner, settings, course. */
struct tutor_env ui_tutor_env(struct ui *ui);
struct ui_screen ui_interview_new(struct ui *ui, size_t lesson);
struct ui_screen ui_progress_new(struct ui *ui);
struct ui_screen ui_settings_new(struct ui *ui);
struct ui_screen ui_calc_new(struct ui *ui);
/* The playground opened on its serving view at a setup (a lesson's). */
struct tutor_sim_setup;
struct ui_screen ui_calc_serving_new(struct ui *ui, const struct tutor_sim_setup *s);
struct ui_screen ui_probe_new(struct ui *ui);
struct ui_screen ui_help_new(unsigned context);

#endif
