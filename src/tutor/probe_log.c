/* Gathering a probe run's lines and keeping the run: see probe_log.h. */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include "probe_log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kvt_format.h"
#include "store_report.h"

void probe_log_init(struct probe_log *g)
{
    memset(g, 0, sizeof *g);
}

void probe_log_free(struct probe_log *g)
{
    free(g->device.json);
    for (size_t i = 0; i < g->n_results; i++)
        free(g->results[i].json);
    memset(g, 0, sizeof *g);
}

/* A copy of the line's text for a record the log keeps; NULL stays NULL. */
static char *own(const char *json)
{
    return json ? strdup(json) : NULL;
}

/* False when the record has a figure out of its range; the first such
 * figure of the run is the one `refused` names. */
static bool sound(struct probe_log *g, const struct probe_event *ev)
{
    if (!ev->bad_figure[0])
        return true;
    if (!g->refused[0])
        snprintf(g->refused, sizeof g->refused, "%s", ev->bad_figure);
    return false;
}

/* False when a result claims more GB/s than the device's peak (when the
 * device line gave one): no memory reads faster than its clock and bus
 * allow, so such a figure is a timing or peak error and must not be drawn
 * or stored. The first such figure of the run is the one `refused` names. */
static bool below_peak(struct probe_log *g, const struct probe_result *r)
{
    static const struct {
        const char *key;
        size_t at;
    } rates[] = {
        {"gbps_best", offsetof(struct probe_result, gbps_best)},
        {"gbps_median", offsetof(struct probe_result, gbps_median)},
        {"contiguous_gbps_median", offsetof(struct probe_result, contiguous_gbps_median)},
        {"eager_gbps_median", offsetof(struct probe_result, eager_gbps_median)},
        {"graph_gbps_median", offsetof(struct probe_result, graph_gbps_median)},
    };
    double peak = g->has_device ? g->device.peak_gbps : 0;
    if (peak <= 0)
        return true;
    for (size_t i = 0; i < sizeof rates / sizeof rates[0]; i++) {
        double v = *(const double *)((const char *)r + rates[i].at);
        char a[48], b[48];
        if (v <= peak)
            continue;
        if (!g->refused[0])
            snprintf(g->refused, sizeof g->refused,
                     "its %s result line says %s %s GB/s, above the device's peak of %s GB/s",
                     r->kernel, rates[i].key, kvt_fmt_number(v, 1, a, sizeof a),
                     kvt_fmt_number(peak, 1, b, sizeof b));
        return false;
    }
    return true;
}

void probe_log_event(struct probe_log *g, const struct probe_event *ev)
{
    if (ev->type == PROBE_EVENT_DEVICE && !g->has_device) {
        if (sound(g, ev)) {
            g->device = ev->device;
            g->device.json = own(ev->device.json);
            g->has_device = true;
        }
    } else if (ev->type == PROBE_EVENT_RESULT && g->n_results < PROBE_LOG_MAX_RESULTS) {
        if (sound(g, ev) && below_peak(g, &ev->result)) {
            struct probe_result *r = &g->results[g->n_results++];
            *r = ev->result;
            r->json = own(ev->result.json);
        }
    }
}

void probe_log_verdict(const struct probe_log *g, struct probe_outcome *out)
{
    if (out->end != PROBE_OK || !g->refused[0])
        return;
    out->end = PROBE_FAILED;
    snprintf(out->message, sizeof out->message, "%s", g->refused);
}

const struct probe_result *probe_log_result(const struct probe_log *g, const char *kernel)
{
    for (size_t i = 0; i < g->n_results; i++)
        if (strcmp(g->results[i].kernel, kernel) == 0)
            return &g->results[i];
    return NULL;
}

char *probe_log_results_json(const struct probe_log *g)
{
    /* "[a,b]": how a compact JSON array of the lines has always read */
    size_t cap = 3, at = 0;
    char *s;
    for (size_t i = 0; i < g->n_results; i++)
        cap += (g->results[i].json ? strlen(g->results[i].json) : 4) + 1;
    s = malloc(cap);
    if (!s)
        return NULL;
    s[at++] = '[';
    for (size_t i = 0; i < g->n_results; i++) {
        const char *one = g->results[i].json ? g->results[i].json : "null";
        if (i > 0)
            s[at++] = ',';
        memcpy(s + at, one, strlen(one));
        at += strlen(one);
    }
    s[at++] = ']';
    s[at] = '\0';
    return s;
}

enum kvt_err probe_log_save(const struct probe_log *g, struct store *st, int64_t learner_id,
                            int64_t started_at, const char *kind, const struct probe_outcome *out,
                            struct store_error *err)
{
    const struct probe_result *rd = probe_log_result(g, "read");
    double peak = g->device.peak_gbps, free_bytes = g->device.free_bytes;
    char *res = probe_log_results_json(g);
    struct store_probe_run rec = {
        .learner_id = learner_id,
        .started_at = started_at,
        .seconds = out->seconds,
        .probe = kind,
        .outcome = probe_end_name(out->end),
        .message = out->message,
        .device = g->device.name,
        .device_json = g->has_device ? g->device.json : NULL,
        .results_json = res,
        .has_read = rd && out->end == PROBE_OK,
        .read_gbps = rd ? rd->gbps_median : 0,
        .has_peak = peak > 0,
        .peak_gbps = peak,
        .has_free = free_bytes > 0,
        .free_bytes = (int64_t)free_bytes,
    };
    enum kvt_err e = store_probe_add(st, &rec, err);

    free(res);
    return e;
}
