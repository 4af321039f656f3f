/* fuzz_probe_lines: a probe's stdout, any bytes, arriving in pieces of
 * varying size (the first byte picks the piece size) as a pipe would give
 * them. Every record handed on must have a known kind, and what the probe
 * log keeps of them must be sound: each figure the screens
 * cast to an integer in range, a GB/s figure no more than 10^6. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probe_lines.h"
#include "probe_log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct seen {
    unsigned events;
    struct probe_log log;
};

static void check(void *ctx, const struct probe_event *ev)
{
    struct seen *s = ctx;
    if ((unsigned)ev->type > PROBE_EVENT_OTHER || strlen(ev->bad_figure) >= sizeof ev->bad_figure)
        abort();
    ++s->events;
    probe_log_event(&s->log, ev);
}

/* The kept record's figure is within [lo, hi] (0 when it was absent). */
static void sound(double x, double lo, double hi)
{
    if (!(x >= lo && x <= hi))
        abort();
}

static void sound_log(const struct probe_log *g)
{
    sound(g->device.free_bytes, 0, 0x1p62);
    sound(g->device.sms, 0, 2147483647);
    sound(g->device.threads, 0, 2147483647);
    sound(g->device.peak_gbps, 0, 1e6);
    if (strlen(g->device.name) >= sizeof g->device.name)
        abort();
    for (size_t i = 0; i < g->n_results; i++) {
        const struct probe_result *r = &g->results[i];
        sound(r->gbps_median, 0, 1e6);
        sound(r->block_size, 0, 2147483647);
        sound(r->launches, 0, 2147483647);
        sound(r->bytes, 0, 0x1p62);
        if (strlen(r->kernel) >= sizeof r->kernel)
            abort();
    }
    if (g->n_results > PROBE_LOG_MAX_RESULTS || strlen(g->refused) >= sizeof g->refused)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct probe_lines pl;
    struct seen s = {0};
    size_t piece;
    if (size == 0 || probe_lines_init(&pl, 256) != 0)
        return 0;
    probe_log_init(&s.log);
    piece = (size_t)data[0] % 17 + 1;
    for (size_t at = 1; at < size; at += piece) {
        size_t n = size - at < piece ? size - at : piece;
        probe_lines_feed(&pl, (const char *)data + at, n, check, &s);
    }
    probe_lines_finish(&pl, check, &s);
    if (s.events != pl.lines || strlen(pl.error) >= sizeof pl.error)
        abort();
    sound_log(&s.log);
    probe_log_free(&s.log);
    probe_lines_free(&pl);
    return 0;
}
