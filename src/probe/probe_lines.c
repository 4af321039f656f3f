/* probe_lines.c: see probe_lines.h. */
#include "probe_lines.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int probe_lines_init(struct probe_lines *pl, uint32_t max_line)
{
    memset(pl, 0, sizeof *pl);
    pl->max = max_line;
    pl->buf = malloc((size_t)max_line + 1u);
    return pl->buf ? 0 : -1;
}

void probe_lines_free(struct probe_lines *pl)
{
    free(pl->buf);
    pl->buf = NULL;
}

void probe_one_line(char *dst, size_t cap, const char *src, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n && src[i] && k + 1 < cap; i++)
        dst[k++] = (unsigned char)src[i] < 0x20 ? ' ' : src[i];
    while (k > 0 && dst[k - 1] == ' ')
        k--;
    dst[k] = '\0';
}

static void bad_line(struct probe_lines *pl, uint32_t number)
{
    if (pl->bad_lines++ == 0)
        pl->first_bad = number;
}

/* One complete line, without its newline. */
static void take_line(struct probe_lines *pl, probe_event_fn fn, void *ctx)
{
    uint32_t number = pl->lines + pl->bad_lines + 1;
    struct probe_event ev;
    size_t len = pl->len;

    if (len > 0 && pl->buf[len - 1] == '\r')
        len--;
    if (pl->overlong) {
        bad_line(pl, number);
        return;
    }
    if (len == 0)
        return;
    if (probe_event_parse(pl->buf, len, &ev) != 0) {
        bad_line(pl, number);
        return;
    }
    pl->lines++;
    if (ev.type == PROBE_EVENT_ERROR && ev.error.said)
        snprintf(pl->error, sizeof pl->error, "%s", ev.error.message);
    if (fn)
        fn(ctx, &ev);
    probe_event_clear(&ev);
}

void probe_lines_feed(struct probe_lines *pl, const char *p, size_t n, probe_event_fn fn, void *ctx)
{
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '\n') {
            take_line(pl, fn, ctx);
            pl->len = 0;
            pl->overlong = false;
        } else if (pl->len < pl->max) {
            pl->buf[pl->len++] = p[i];
        } else {
            pl->overlong = true;
        }
    }
}

void probe_lines_finish(struct probe_lines *pl, probe_event_fn fn, void *ctx)
{
    if (pl->len > 0 || pl->overlong) {
        pl->truncated = true;
        take_line(pl, fn, ctx);
        pl->len = 0;
        pl->overlong = false;
    }
}
