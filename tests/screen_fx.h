/* screen_fx.h: what the in-process screen tests share (ui_harness.h): a
 * fresh folder with a new progress database and its learner, the app's
 * options pointing at them and at the course's DSL, and the checks on the
 * screen as text. The test sets the lessons (o.lesson_paths, o.n_lessons,
 * o.open_lesson) and opens the harness into h. */
#ifndef SCREEN_FX_H
#define SCREEN_FX_H

#include "store.h"
#include "ui_harness.h"

struct screen_fx {
    char dir[256], db[320];
    struct store *st;
    struct ui_options o;
    char screen[16384], line[1024];
    struct ui_harness *h; /* closed by screen_fx_free when a test fails half-way */
};

/* NULL when the folder or the database cannot be made. */
struct screen_fx *screen_fx_new(const char *prefix);
/* Closes the harness if open, the database, and removes the folder. */
void screen_fx_free(struct screen_fx *f);
/* Opens the app at cols × lines into f->h; fails the test when it cannot. */
void screen_fx_open(struct screen_fx *f, int cols, int lines);
/* Closes the harness (the database stays). */
void screen_fx_close(struct screen_fx *f);
/* The screen as text, and its last line with text, without its margins. */
const char *screen_fx_shown(struct screen_fx *f);
const char *screen_fx_status(struct screen_fx *f);

#define on_screen(f, text)                                                                         \
    do {                                                                                           \
        const char *s_ = screen_fx_shown(f);                                                       \
        if (!strstr(s_, text))                                                                     \
            fail_msg("not on the screen: \"%s\"; the screen:\n%s", text, s_);                      \
    } while (0)
#define not_on_screen(f, text)                                                                     \
    do {                                                                                           \
        const char *s_ = screen_fx_shown(f);                                                       \
        if (strstr(s_, text))                                                                      \
            fail_msg("on the screen, and should not be: \"%s\"; the screen:\n%s", text, s_);       \
    } while (0)
#define status_is(f, want)                                                                         \
    do {                                                                                           \
        if (strcmp(screen_fx_status(f), want) != 0)                                                \
            fail_msg("the status line is \"%s\", not \"%s\"", (f)->line, want);                    \
    } while (0)

#endif
