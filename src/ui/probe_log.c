/* Gathering a probe run's lines and keeping the run: see probe_log.h. */
#include "probe_log.h"

#include <stdlib.h>
#include <string.h>

#include "store_report.h"

void probe_log_init(struct probe_log *g)
{
    g->device = NULL;
    g->results = json_array();
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

void probe_log_event(struct probe_log *g, const json_t *event)
{
    const char *type = json_string_value(json_object_get(event, "type"));

    if (!type)
        return;
    if (strcmp(type, "device") == 0 && !g->device)
        g->device = kept(event);
    else if (strcmp(type, "result") == 0 && g->results &&
             json_array_size(g->results) < PROBE_LOG_MAX_RESULTS)
        json_array_append_new(g->results, kept(event));
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
