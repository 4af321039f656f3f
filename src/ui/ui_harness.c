/* The app driven in-process (ui_harness.h): ui_app.h's steps on
 * ui_term's virtual terminal. */
#include "ui_harness.h"

#include <curses.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "ui_app.h"
#include "ui_term.h"

struct ui_harness {
    struct ui ui;
    bool done;
};

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
    ui_app_init(&h->ui, o);
    if (ui_term_start_virtual(cols, lines, why, cap) != 0) {
        free(h);
        return NULL;
    }
    if (ui_app_open(&h->ui) != 0) {
        snprintf(why, cap, "out of memory");
        ui_term_stop();
        free(h);
        return NULL;
    }
    frame(h);
    return h;
}

void ui_harness_type(struct ui_harness *h, const char *text)
{
    mbstate_t st;
    size_t len = strlen(text);

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
        frame(h);
        text += n;
        len -= n;
    }
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

bool ui_harness_done(const struct ui_harness *h)
{
    return h->done || h->ui.quit;
}

void ui_harness_close(struct ui_harness *h)
{
    if (!h)
        return;
    ui_app_close(&h->ui);
    ui_term_stop();
    free(h);
}
