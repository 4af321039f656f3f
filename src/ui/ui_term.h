/* ui_term.h: the one owner of the terminal.
 *
 * Starting checks that stdin and stdout are terminals and that TERM can
 * address the cursor, and says why not instead of letting ncurses abort.
 * Every way out (quit, Ctrl-C, SIGTERM, SIGHUP, Ctrl-\, any other signal
 * that ends a process, a crash, exit()) goes through ui_term_stop, which
 * restores the terminal and then prints the messages that came while
 * curses owned the screen; SIGXFSZ is ignored so that a write past the
 * file-size limit fails as a write. Ctrl-Z is left to
 * ncurses, which restores the terminal and takes it back on fg. */
#ifndef UI_TERM_H
#define UI_TERM_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

/* 0, or -1 with a one-line reason in why (not a terminal, unusable TERM). */
int ui_term_start(char *why, size_t cap);

/* A terminal of width × height that shows nothing, for the in-process screen
 * tests (ui_harness.h): curses draws into its buffers, output goes to
 * /dev/null, no key arrives but those the caller hands the app, no signal
 * is caught and colours are off. 0, or -1 with a reason in why. */
int ui_term_start_virtual(int width, int height, char *why, size_t cap);
/* True on the virtual terminal: its keys never come through curses. */
bool ui_term_is_virtual(void);

/* Restores the terminal (or frees the virtual one); safe to call twice and
 * from atexit. */
void ui_term_stop(void);

/* True once SIGINT, SIGTERM or SIGHUP arrived: the loop should wind down. */
bool ui_term_quit_requested(void);
/* The same wind-down asked for by a key (q while lessons load); safe in a
 * signal handler. The app then exits normally. */
void ui_term_quit_by_key(void);
/* After such a quit, once the caller has closed what it holds (the
 * database): restores the terminal and dies by that signal, so the parent
 * (a shell, a supervisor) sees the signal and not a clean exit. Returns
 * when no such signal came. */
void ui_term_exit_as_signalled(void);
/* The flag behind it, for code that must notice a quit on its own (the
 * lesson sandbox checks it while a lesson runs). */
const volatile sig_atomic_t *ui_term_quit_flag(void);

/* Colours are on unless NO_COLOR is set (https://no-color.org) or the
 * terminal has none; the text is UTF-8 when the locale says so. */
bool ui_term_color(void);
bool ui_term_utf8(void);

/* A line to print on stderr once the terminal is restored. */
void ui_term_later(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
