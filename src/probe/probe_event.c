/* probe_event.c: the protocol's lines into records (see probe_event.h). */
#include "probe_event.h"
#include "probe_lines.h" /* probe_one_line */

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kvt_format.h"

/* The figures of the protocol and the values a working probe can say:
 * wide enough for any machine there is (an H200 reads 4.8 TB/s; 1 PB/s is
 * the bound), narrow enough that every cast and sum downstream is defined.
 * Checked on device and result lines alike, in this order: the first
 * offender is the one named. */
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

/* Where each key lands in its record: every field named is a double. */
struct field {
    const char *key;
    size_t at;
};

/* The key and the offset of the record's field of that name. */
#define AT(record, f) #f, offsetof(struct record, f)

static const struct field device_numbers[] = {
    {AT(probe_device, free_bytes)},
    {AT(probe_device, total_bytes)},
    {AT(probe_device, l2_bytes)},
    {AT(probe_device, llc_bytes)},
    {AT(probe_device, buffer_bytes)},
    {AT(probe_device, sms)},
    {AT(probe_device, threads)},
    {AT(probe_device, bus_bits)},
    {AT(probe_device, memory_clock_khz)},
    {AT(probe_device, peak_gbps)},
    {AT(probe_device, driver_version)},
    {AT(probe_device, runtime_version)},
    {AT(probe_device, read_blocks_per_sm)},
    {AT(probe_device, read_registers)},
    {AT(probe_device, paged_blocks_per_sm)},
    {AT(probe_device, paged_registers)},
    {AT(probe_device, threads_per_block)},
    {AT(probe_device, waves)},
};

static const struct field result_numbers[] = {
    {AT(probe_result, bytes)},         {AT(probe_result, iterations)},
    {AT(probe_result, per_sample)},    {AT(probe_result, gbps_best)},
    {AT(probe_result, gbps_median)},   {AT(probe_result, peak_percent)},
    {AT(probe_result, block_size)},    {AT(probe_result, contiguous_gbps_median)},
    {AT(probe_result, tax_percent)},   {AT(probe_result, weights_bytes)},
    {AT(probe_result, kv_bytes)},      {AT(probe_result, layers)},
    {AT(probe_result, scale)},         {AT(probe_result, launches)},
    {AT(probe_result, step_us)},       {AT(probe_result, eager_gbps_median)},
    {AT(probe_result, eager_step_us)}, {AT(probe_result, graph_gbps_median)},
    {AT(probe_result, graph_step_us)},
};
#undef AT

static void numbers(const json_t *obj, void *rec, const struct field *f, size_t n)
{
    for (size_t i = 0; i < n; i++)
        *(double *)(void *)((char *)rec + f[i].at) =
            json_number_value(json_object_get(obj, f[i].key));
}

static void text(const json_t *obj, const char *key, char *dst, size_t cap)
{
    const char *s = json_string_value(json_object_get(obj, key));
    snprintf(dst, cap, "%s", s ? s : "");
}

/* A figure as people read it: grouped ("2,147,483,647", "-1", "870.5"),
 * or in powers of ten past what grouping makes readable ("1e+300"). */
static const char *figure(double v, char *buf, size_t cap)
{
    if (isfinite(v) && fabs(v) < 1e15)
        return kvt_fmt_number(v, 6, buf, cap);
    snprintf(buf, cap, "%.3g", v);
    return buf;
}

/* Names in ev->bad_figure the first figure of the line that is not a
 * number in its range; leaves it "" when there is none. */
static void check_ranges(struct probe_event *ev, const char *type, const json_t *obj)
{
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++) {
        const json_t *v = json_object_get(obj, ranges[i].key);
        double x = json_number_value(v);
        if (!v || (json_is_number(v) && isfinite(x) && x >= ranges[i].lo && x <= ranges[i].hi))
            continue;
        /* the kernel as the probe wrote it, not cut to the record's buffer */
        const char *kernel = json_string_value(json_object_get(obj, "kernel"));
        char shown[48], lo[48], hi[48];
        if (json_is_number(v))
            figure(x, shown, sizeof shown);
        else
            snprintf(shown, sizeof shown, "not a number");
        snprintf(ev->bad_figure, sizeof ev->bad_figure,
                 "its %s%s%s line says %s %s, outside %s to %s", kernel ? kernel : "",
                 kernel ? " " : "", type, ranges[i].key, shown, figure(ranges[i].lo, lo, sizeof lo),
                 figure(ranges[i].hi, hi, sizeof hi));
        return;
    }
}

/* The line less its "type", compact: the text the database has always kept. */
static char *kept_text(json_t *obj)
{
    json_object_del(obj, "type");
    return json_dumps(obj, JSON_COMPACT);
}

static void read_device(struct probe_device *d, json_t *obj)
{
    const json_t *ecc = json_object_get(obj, "ecc");
    text(obj, "kind", d->kind, sizeof d->kind);
    text(obj, "name", d->name, sizeof d->name);
    text(obj, "compute_capability", d->compute_capability, sizeof d->compute_capability);
    numbers(obj, d, device_numbers, sizeof device_numbers / sizeof device_numbers[0]);
    d->peak_known = json_is_true(json_object_get(obj, "peak_known"));
    d->mig = json_is_true(json_object_get(obj, "mig"));
    d->small = json_is_true(json_object_get(obj, "small"));
    d->ecc_said = json_is_boolean(ecc);
    d->ecc = json_is_true(ecc);
    d->json = kept_text(obj);
}

static void read_result(struct probe_result *r, json_t *obj)
{
    text(obj, "kernel", r->kernel, sizeof r->kernel);
    numbers(obj, r, result_numbers, sizeof result_numbers / sizeof result_numbers[0]);
    r->json = kept_text(obj);
}

int probe_event_parse(const char *line, size_t len, struct probe_event *ev)
{
    json_error_t jerr;
    json_t *obj = json_loadb(line, len, JSON_REJECT_DUPLICATES, &jerr);
    const char *type = json_string_value(json_object_get(obj, "type"));

    memset(ev, 0, sizeof *ev);
    if (!json_is_object(obj) || !type) {
        json_decref(obj);
        return -1;
    }
    if (strcmp(type, "device") == 0) {
        ev->type = PROBE_EVENT_DEVICE;
        check_ranges(ev, type, obj);
        read_device(&ev->device, obj);
    } else if (strcmp(type, "result") == 0) {
        ev->type = PROBE_EVENT_RESULT;
        check_ranges(ev, type, obj);
        read_result(&ev->result, obj);
    } else if (strcmp(type, "progress") == 0) {
        ev->type = PROBE_EVENT_PROGRESS;
        text(obj, "kernel", ev->progress.kernel, sizeof ev->progress.kernel);
        ev->progress.percent = json_number_value(json_object_get(obj, "percent"));
    } else if (strcmp(type, "error") == 0) {
        const char *m = json_string_value(json_object_get(obj, "message"));
        ev->type = PROBE_EVENT_ERROR;
        ev->error.said = m != NULL;
        if (m)
            probe_one_line(ev->error.message, sizeof ev->error.message, m, strlen(m));
        ev->error.no_gpu = json_is_true(json_object_get(obj, "no_gpu"));
    } else {
        ev->type = PROBE_EVENT_OTHER;
    }
    json_decref(obj);
    return 0;
}

void probe_event_clear(struct probe_event *ev)
{
    if (ev->type == PROBE_EVENT_DEVICE)
        free(ev->device.json);
    else if (ev->type == PROBE_EVENT_RESULT)
        free(ev->result.json);
    memset(ev, 0, sizeof *ev);
}
