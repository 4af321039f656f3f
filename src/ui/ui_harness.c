/* The app driven in-process (ui_harness.h): ui_app.h's steps on
 * ui_term's virtual terminal. */
#include "ui_harness.h"

#include <curses.h>
#include <limits.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wchar.h>

#include "tutor_progress.h"
#include "ui_app.h"
#include "ui_term.h"

struct ui_harness {
    struct ui ui;
    bool done;
    void (*on_wait)(void *ctx);
    void *on_wait_ctx;
};

/* The app's words for a wait on the lock, then the caller's look at them. */
static void waiting(void *ctx)
{
    struct ui_harness *h = ctx;
    ui_app_say_waiting();
    if (h->on_wait)
        h->on_wait(h->on_wait_ctx);
}

void ui_harness_on_wait(struct ui_harness *h, void (*fn)(void *ctx), void *ctx)
{
    h->on_wait = fn;
    h->on_wait_ctx = ctx;
}

/* The sessions' clock under a script: the system's, plus what <Wait 90s>
 * steps have moved it on (one harness at a time, so one offset). A script's
 * keys arrive at once, so without it a timed interview's clock would never
 * reach zero. */
static double clock_ahead;

static double script_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9 + clock_ahead;
}

static void frame(struct ui_harness *h)
{
    if (h->done || h->ui.quit || h->ui.depth == 0 || !ui_app_frame(&h->ui)) {
        h->done = true;
        return;
    }
    h->ui.draws++;
    refresh();
}

struct ui_harness *ui_harness_open(const struct ui_options *o, int cols, int lines, char *why,
                                   size_t cap)
{
    struct ui_harness *h = calloc(1, sizeof *h);

    if (!h) {
        snprintf(why, cap, "out of memory");
        return NULL;
    }
    {
        struct ui_options own = *o;
        if (!own.monotonic) {
            clock_ahead = 0;
            own.monotonic = script_clock;
        }
        ui_app_init(&h->ui, &own);
    }
    if (ui_term_start_virtual(cols, lines, why, cap) != 0) {
        free(h);
        return NULL;
    }
    tutor_db_on_wait(o->store, waiting, h);
    if (ui_app_open(&h->ui) != 0) {
        tutor_db_on_wait(o->store, NULL, NULL);
        snprintf(why, cap, "out of memory");
        ui_term_stop();
        free(h);
        return NULL;
    }
    frame(h);
    return h;
}

/* len bytes of text typed, a character at a time. */
static void type_n(struct ui_harness *h, const char *text, size_t len)
{
    mbstate_t st;

    memset(&st, 0, sizeof st);
    while (len > 0 && !h->done) {
        wchar_t wc;
        size_t n = mbrtowc(&wc, text, len, &st);
        if (n == (size_t)-1 || n == (size_t)-2) {
            /* not UTF-8 in this locale: the byte as it is */
            wc = (unsigned char)*text;
            n = 1;
            memset(&st, 0, sizeof st);
        } else if (n == 0) {
            break;
        }
        ui_app_key(&h->ui, OK, (wint_t)wc);
        text += n;
        len -= n;
        /* as the app does with a paste: a field drawn once the text is in */
        if (h->ui.quit || h->ui.depth == 0)
            h->done = true;
        else if (len == 0 || !ui_app_editing(&h->ui))
            frame(h);
    }
}

void ui_harness_type(struct ui_harness *h, const char *text)
{
    type_n(h, text, strlen(text));
}

void ui_harness_key(struct ui_harness *h, int key)
{
    if (h->done)
        return;
    ui_app_key(&h->ui, KEY_CODE_YES, (wint_t)key);
    frame(h);
}

const char *ui_harness_screen(struct ui_harness *h, char *out, size_t cap)
{
    size_t at = 0;

    (void)h;
    if (cap == 0)
        return out;
    out[0] = '\0';
    for (int y = 0; y < LINES; y++) {
        wchar_t row[512];
        int n = mvwinnwstr(stdscr, y, 0, row, COLS < 511 ? COLS : 511);
        mbstate_t st;
        if (n == ERR)
            n = 0;
        row[n] = L'\0';
        while (n > 0 && row[n - 1] == L' ')
            row[--n] = L'\0';
        memset(&st, 0, sizeof st);
        for (int i = 0; i < n; i++) {
            char mb[MB_LEN_MAX];
            size_t k = wcrtomb(mb, row[i], &st);
            if (k == (size_t)-1) {
                mb[0] = '?';
                k = 1;
            }
            if (at + k + 2 > cap)
                return out;
            memcpy(out + at, mb, k);
            at += k;
        }
        if (at + 2 > cap)
            return out;
        out[at++] = '\n';
        out[at] = '\0';
    }
    return out;
}

/* The keys a script names (ui_harness.h, and the man page, list them). */
static const struct {
    const char *name;
    int key;   /* a curses key code, or 0 */
    wint_t ch; /* else a character */
} named[] = {
    {"Enter", 0, L'\r'},    {"Esc", 0, 27},          {"Tab", 0, L'\t'},
    {"Space", 0, L' '},     {"lt", 0, L'<'},         {"BS", KEY_BACKSPACE, 0},
    {"Del", KEY_DC, 0},     {"Up", KEY_UP, 0},       {"Down", KEY_DOWN, 0},
    {"Left", KEY_LEFT, 0},  {"Right", KEY_RIGHT, 0}, {"Home", KEY_HOME, 0},
    {"End", KEY_END, 0},    {"PgUp", KEY_PPAGE, 0},  {"PgDn", KEY_NPAGE, 0},
    {"S-Tab", KEY_BTAB, 0},
};

/* <Wait>: frames, 50 ms apart, while the screen on top is busy (a probe
 * running), for at most UI_HARNESS_WAIT_S; a script cannot otherwise see a
 * run's end, since its keys arrive at once. Returns at once when idle. */
static void wait_idle(struct ui_harness *h)
{
    const struct timespec pause = {0, 50 * 1000 * 1000};
    for (int i = 0; i < UI_HARNESS_WAIT_S * 20 && !h->done && h->ui.depth > 0; i++) {
        const struct ui_screen *top = &h->ui.stack[h->ui.depth - 1];
        if (!top->ops->busy || !top->ops->busy(top->self))
            break;
        nanosleep(&pause, NULL);
        frame(h);
    }
}

/* <Wait 90s>, <Wait 2m>: the script's clock moved on that far, a second at
 * a time, each second a frame (as the app draws its clock), so a timed
 * interview's limits run out as they would. Reads the step at p (just past
 * "<Wait "); returns what it consumed up to and past the '>', 0 when it is
 * no such step. Under a caller's own clock (tests set one) the time cannot
 * move, and the step is refused. */
static size_t wait_for_time(struct ui_harness *h, const char *p, char *err, size_t cap)
{
    char *end;
    long n;

    if (*p < '0' || *p > '9')
        return 0;
    n = strtol(p, &end, 10);
    if ((*end != 's' && *end != 'm') || end[1] != '>')
        return 0;
    if (*end == 'm')
        n = n > LONG_MAX / 60 ? LONG_MAX : n * 60;
    if (n > UI_HARNESS_CLOCK_MAX_S) {
        snprintf(err, cap, "<Wait %.*s>: at most %d s of clock a step", (int)(end + 1 - p), p,
                 UI_HARNESS_CLOCK_MAX_S);
        return SIZE_MAX;
    }
    if (h->ui.opt.monotonic != script_clock) {
        snprintf(err, cap, "<Wait %.*s>: this harness runs on its caller's clock",
                 (int)(end + 1 - p), p);
        return SIZE_MAX;
    }
    for (long i = 0; i < n && !h->done; i++) {
        clock_ahead += 1.0;
        frame(h);
    }
    return (size_t)(end + 2 - p);
}

/* Sends the key named by name[0..n); false when it names none. */
static bool named_key(struct ui_harness *h, const char *name, size_t n)
{
    if (n == 4 && strncmp(name, "Wait", 4) == 0) {
        wait_idle(h);
        return true;
    }
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
        if (strlen(named[i].name) == n && strncmp(named[i].name, name, n) == 0) {
            if (named[i].key) {
                ui_harness_key(h, named[i].key);
            } else {
                ui_app_key(&h->ui, OK, named[i].ch);
                frame(h);
            }
            return true;
        }
    /* <C-x>: the control character */
    if (n == 3 && name[0] == 'C' && name[1] == '-' && name[2] >= 'a' && name[2] <= 'z') {
        ui_app_key(&h->ui, OK, (wint_t)(name[2] - 'a' + 1));
        frame(h);
        return true;
    }
    /* <F1> to <F12> */
    if ((n == 2 || n == 3) && name[0] == 'F' && name[1] >= '1' && name[1] <= '9') {
        int f = n == 2                                               ? name[1] - '0'
                : name[1] == '1' && name[2] >= '0' && name[2] <= '2' ? 10 + (name[2] - '0')
                                                                     : 0;
        if (f >= 1) {
            ui_harness_key(h, KEY_F(f));
            return true;
        }
    }
    return false;
}

int ui_harness_step(struct ui_harness *h, const char *step, char *err, size_t cap)
{
    const char *p = step;

    while (*p && !h->done) {
        if (strncmp(p, "<Wait ", 6) == 0) {
            size_t used = wait_for_time(h, p + 6, err, cap);
            if (used == SIZE_MAX)
                return -1;
            if (used > 0) {
                p += 6 + used;
                continue;
            }
            snprintf(err, cap, "<Wait %.20s: write a time as <Wait 90s> or <Wait 2m>", p + 6);
            return -1;
        }
        /* a name is <letters, digits, '-'>; any other '<' is typed as it is */
        size_t n = *p == '<' ? strspn(p + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                             "0123456789-")
                             : 0;
        if (*p == '<' && n > 0 && p[1 + n] == '>') {
            if (!named_key(h, p + 1, n)) {
                snprintf(err, cap, "unknown key <%.*s> (write <lt> for a '<')",
                         (int)(n < 40 ? n : 40), p + 1);
                return -1;
            }
            p += n + 2;
        } else {
            size_t run = 1 + strcspn(p + 1, "<"); /* up to the next '<' */
            type_n(h, p, run);
            p += run;
        }
    }
    return 0;
}

bool ui_harness_done(const struct ui_harness *h)
{
    return h->done || h->ui.quit;
}

void ui_harness_close(struct ui_harness *h)
{
    if (!h)
        return;
    ui_app_close(&h->ui);
    tutor_db_on_wait(h->ui.opt.store, NULL, NULL);
    ui_term_stop();
    free(h);
}
