/* Gathering a probe run's lines and keeping the run: see probe_log.h. */
#include "probe_log.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kvt_format.h"
#include "store_report.h"

void probe_log_init(struct probe_log *g)
{
    g->device = NULL;
    g->results = json_array();
    g->refused[0] = '\0';
}

void probe_log_free(struct probe_log *g)
{
    json_decref(g->device);
    json_decref(g->results);
    g->device = g->results = NULL;
}

/* The event as the log keeps it: a copy without its "type". */
static json_t *kept(const json_t *event)
{
    json_t *c = json_deep_copy(event);
    json_object_del(c, "type");
    return c;
}

/* The figures of the protocol and the values a working probe can say:
 * wide enough for any machine there is (an H200 reads 4.8 TB/s; 1 PB/s is
 * the bound), narrow enough that every cast and sum downstream is defined. */
static const struct {
    const char *key;
    double lo, hi;
} ranges[] = {
    {"free_bytes", 0, 0x1p62},
    {"total_bytes", 0, 0x1p62},
    {"l2_bytes", 0, 0x1p62},
    {"llc_bytes", 0, 0x1p62},
    {"buffer_bytes", 0, 0x1p62},
    {"bytes", 0, 0x1p62},
    {"weights_bytes", 0, 0x1p62},
    {"kv_bytes", 0, 0x1p62},
    {"peak_gbps", 0, 1e6},
    {"gbps_best", 0, 1e6},
    {"gbps_median", 0, 1e6},
    {"contiguous_gbps_median", 0, 1e6},
    {"eager_gbps_median", 0, 1e6},
    {"graph_gbps_median", 0, 1e6},
    {"peak_percent", 0, 1e6},
    {"tax_percent", -1e6, 100}, /* negative when paging reads faster */
    {"step_us", 0, 1e12},
    {"eager_step_us", 0, 1e12},
    {"graph_step_us", 0, 1e12},
    {"sms", 0, 2147483647},
    {"threads", 0, 2147483647},
    {"iterations", 0, 2147483647},
    {"launches", 0, 2147483647},
    {"block_size", 0, 2147483647},
    {"bus_bits", 0, 2147483647},
    {"memory_clock_khz", 0, 1e9},
    {"scale", 0, 1e6},
};

/* A figure as people read it: grouped ("2,147,483,647", "-1", "870.5"),
 * or in powers of ten past what grouping makes readable ("1e+300"). */
static const char *figure(double v, char *buf, size_t cap)
{
    if (isfinite(v) && fabs(v) < 1e15)
        return kvt_fmt_number(v, 6, buf, cap);
    snprintf(buf, cap, "%.3g", v);
    return buf;
}

/* True when every figure the line has is a number in its range; else the
 * first offender is named in g->refused (once per run). */
static bool in_range(struct probe_log *g, const char *type, const json_t *event)
{
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++) {
        const json_t *v = json_object_get(event, ranges[i].key);
        double x = json_number_value(v);
        if (!v || (json_is_number(v) && isfinite(x) && x >= ranges[i].lo && x <= ranges[i].hi))
            continue;
        if (!g->refused[0]) {
            const char *kernel = json_string_value(json_object_get(event, "kernel"));
            char shown[48], lo[48], hi[48];
            if (json_is_number(v))
                figure(x, shown, sizeof shown);
            else
                snprintf(shown, sizeof shown, "not a number");
            snprintf(g->refused, sizeof g->refused, "its %s%s%s line says %s %s, outside %s to %s",
                     kernel ? kernel : "", kernel ? " " : "", type, ranges[i].key, shown,
                     figure(ranges[i].lo, lo, sizeof lo), figure(ranges[i].hi, hi, sizeof hi));
        }
        return false;
    }
    return true;
}

void probe_log_event(struct probe_log *g, const json_t *event)
{
    const char *type = json_string_value(json_object_get(event, "type"));

    if (!type)
        return;
    if (strcmp(type, "device") == 0 && !g->device) {
        if (in_range(g, type, event))
            g->device = kept(event);
    } else if (strcmp(type, "result") == 0 && g->results &&
               json_array_size(g->results) < PROBE_LOG_MAX_RESULTS) {
        if (in_range(g, type, event))
            json_array_append_new(g->results, kept(event));
    }
}

void probe_log_verdict(const struct probe_log *g, struct probe_outcome *out)
{
    if (out->end != PROBE_OK || !g->refused[0])
        return;
    out->end = PROBE_FAILED;
    snprintf(out->message, sizeof out->message, "%s", g->refused);
}

const json_t *probe_log_result(const struct probe_log *g, const char *kernel)
{
    size_t i;
    json_t *r;

    json_array_foreach(g->results, i, r)
    {
        const char *k = json_string_value(json_object_get(r, "kernel"));
        if (k && strcmp(k, kernel) == 0)
            return r;
    }
    return NULL;
}

double probe_log_num(const json_t *line, const char *key)
{
    return json_number_value(json_object_get(line, key));
}

enum kvt_err probe_log_save(const struct probe_log *g, struct store *st, int64_t learner_id,
                            int64_t started_at, const char *kind, const struct probe_outcome *out,
                            struct store_error *err)
{
    const json_t *rd = probe_log_result(g, "read");
    double peak = probe_log_num(g->device, "peak_gbps");
    double free_bytes = probe_log_num(g->device, "free_bytes");
    char *dev = g->device ? json_dumps(g->device, JSON_COMPACT) : NULL;
    char *res = g->results ? json_dumps(g->results, JSON_COMPACT) : NULL;
    struct store_probe_run rec = {
        .learner_id = learner_id,
        .started_at = started_at,
        .seconds = out->seconds,
        .probe = kind,
        .outcome = probe_end_name(out->end),
        .message = out->message,
        .device = json_string_value(json_object_get(g->device, "name")),
        .device_json = dev,
        .results_json = res,
        .has_read = rd && out->end == PROBE_OK,
        .read_gbps = probe_log_num(rd, "gbps_median"),
        .has_peak = peak > 0,
        .peak_gbps = peak,
        .has_free = free_bytes > 0,
        .free_bytes = (int64_t)free_bytes,
    };
    enum kvt_err e = store_probe_add(st, &rec, err);

    free(dev);
    free(res);
    return e;
}
