/* ui_harness.h: the app without a terminal, for screen tests in-process.
 *
 * It opens the course as the app does (ui_app.h: the same steps ui_run's
 * loop takes), on a virtual terminal of the size asked for, then takes
 * keys from the caller instead of the keyboard and gives back the screen
 * as text. A test scripts keys and reads what a learner would see, without
 * tmux, sleeps or a child process. One harness at a time (curses has one
 * screen); the caller sets a UTF-8 locale first (setlocale) for the
 * course's own characters. */
#ifndef UI_HARNESS_H
#define UI_HARNESS_H

#include <stdbool.h>
#include <stddef.h>

#include "ui.h"

struct ui_harness;

/* The app opened on o (its store, learner, lessons and the lesson to
 * open), cols × lines, first frame drawn. NULL with a reason in why when
 * the terminal or the course cannot be set up. */
struct ui_harness *ui_harness_open(const struct ui_options *o, int cols, int lines, char *why,
                                   size_t cap);

/* Each character of text (UTF-8) as a key typed, a frame drawn after each:
 * "\r" is Enter, "\t" Tab, "\033" Esc. */
void ui_harness_type(struct ui_harness *h, const char *text);
/* One curses key code (KEY_DOWN, KEY_F(1), ...), then a frame. */
void ui_harness_key(struct ui_harness *h, int key);

/* One step of a script: its text typed, with keys named in angle brackets
 * (<Enter>, <Esc>, <Tab>, <Space>, <BS>, <Del>, <Up>, <Down>, <Left>,
 * <Right>, <Home>, <End>, <PgUp>, <PgDn>, <S-Tab>, <F1>..<F12>, <C-a>..<C-z>,
 * <lt> for a '<'), a frame after each key; <Wait> is no key: it waits while
 * the screen works (a probe running: UI_HARNESS_WAIT_S at most), drawing
 * as it goes; <Wait 90s> or <Wait 2m> moves the sessions' clock on that far
 * (a timed interview's limits run out), a frame each second, at most
 * UI_HARNESS_CLOCK_MAX_S a step, and only where the options left the clock
 * to the harness (o->monotonic NULL). -1 with the reason in err for a
 * name it does not know (the keys before it were sent); 0 otherwise, also
 * when the app quit part-way. */
int ui_harness_step(struct ui_harness *h, const char *step, char *err, size_t cap);
enum { UI_HARNESS_WAIT_S = 300, UI_HARNESS_CLOCK_MAX_S = 3 * 3600 };

/* fn(ctx) each time a write waits for another kvtutor's lock, once the
 * app has said so on the screen (read it with ui_harness_screen): the
 * screen a learner sees during the wait, which the step's own screen,
 * drawn after the write, no longer shows. NULL: no call. */
void ui_harness_on_wait(struct ui_harness *h, void (*fn)(void *ctx), void *ctx);

/* The screen as drawn last, one line a row with trailing blanks dropped,
 * UTF-8, into out (cut at cap). Returns out. */
const char *ui_harness_screen(struct ui_harness *h, char *out, size_t cap);

/* True once the app has quit (q on the map, Q elsewhere). */
bool ui_harness_done(const struct ui_harness *h);

/* Closes every screen and the course, frees the terminal; the store stays
 * the caller's. NULL does nothing. */
void ui_harness_close(struct ui_harness *h);

#endif
