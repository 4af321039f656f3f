/* probe_event.h: one line of the probe protocol (docs/probes.md), read once
 * into C. A probe's stdout is JSON, one object a line with a "type"; this is
 * the only place that knows its keys. The supervisor parses each line as it
 * comes and hands the record on, so the probe screen, `kvtutor probe` and the
 * probe log read fields, never JSON.
 *
 *     struct probe_event ev;
 *     if (probe_event_parse(line, len, &ev) != 0) ... not a protocol line
 *     if (ev.type == PROBE_EVENT_RESULT) ... ev.result.gbps_median
 *     probe_event_clear(&ev);
 *
 * Every figure is a double as the probe said it: 0 when the line does not
 * have it, or has something other than a number there (which `bad_figure`
 * then names). Text fields are "" when not said, cut to their buffer. */
#ifndef PROBE_EVENT_H
#define PROBE_EVENT_H

#include <stdbool.h>
#include <stddef.h>

enum probe_event_type {
    PROBE_EVENT_DEVICE,
    PROBE_EVENT_PROGRESS,
    PROBE_EVENT_RESULT,
    PROBE_EVENT_ERROR,
    PROBE_EVENT_OTHER, /* a type this reader does not know: readers skip it */
};

/* What the probe measures on: its "device" line. */
struct probe_device {
    char kind[16]; /* "cuda" or "cpu" */
    char name[256];
    char compute_capability[16]; /* "9.0"; CUDA only */
    double free_bytes, total_bytes, l2_bytes, llc_bytes, buffer_bytes;
    double sms, threads, bus_bits, memory_clock_khz;
    double peak_gbps; /* 0 when not said (a MIG slice, a CPU) */
    bool peak_known, mig, small;
    bool ecc_said, ecc; /* ecc: on, when ecc_said */
    /* said by the CUDA probe, not range-checked: cast with care */
    double driver_version, runtime_version; /* 13000 is CUDA 13.0 */
    double read_blocks_per_sm, read_registers, paged_blocks_per_sm, paged_registers;
    double threads_per_block, waves;
    /* the line as it came, less its "type", compact JSON (what the progress
     * database and `--json` keep, unknown fields included); NULL when there
     * was no memory for it */
    char *json;
};

/* How far the run is: a "progress" line. */
struct probe_progress {
    char kernel[32];
    double percent; /* 0 to 100 over the whole run, as said: not clamped */
};

/* One kernel's figures: a "result" line. */
struct probe_result {
    char kernel[32]; /* "read", "decode", "paged" */
    double bytes, iterations, per_sample, gbps_best, gbps_median;
    double peak_percent;                           /* read on CUDA, peak known */
    double block_size, contiguous_gbps_median;     /* paged */
    double tax_percent;                            /* paged: negative when faster */
    double weights_bytes, kv_bytes, layers, scale; /* decode */
    double launches, step_us, eager_gbps_median;   /* decode */
    double eager_step_us, graph_gbps_median, graph_step_us;
    char *json; /* as in probe_device */
};

/* Why the probe gives up: an "error" line. */
struct probe_error {
    bool said;         /* the line had a string "message" */
    char message[256]; /* on one line: controls as spaces, no trailing spaces */
    bool no_gpu;       /* the reason is the absence of a GPU */
};

struct probe_event {
    enum probe_event_type type;
    /* A device or result line with a figure of the protocol that is not a
     * number in its range (negative bytes, 1e300 GB/s, a block size past
     * 2^31) names the first such figure here, as people read it: "its
     * paged result line says block_size 1e+30, outside 0 to 2,147,483,647".
     * "" when every figure is sound, and for the other types. */
    char bad_figure[200];
    union {
        struct probe_device device;     /* PROBE_EVENT_DEVICE */
        struct probe_progress progress; /* PROBE_EVENT_PROGRESS */
        struct probe_result result;     /* PROBE_EVENT_RESULT */
        struct probe_error error;       /* PROBE_EVENT_ERROR */
    };
};

/* Reads one line (len bytes, no newline) into *ev. 0 when it is a JSON
 * object with a string "type" (duplicate keys refused), whatever its
 * figures say; -1 otherwise, *ev then owning nothing. Either way
 * probe_event_clear may follow. */
int probe_event_parse(const char *line, size_t len, struct probe_event *ev);

/* Frees what *ev owns (the json text) and zeroes it. */
void probe_event_clear(struct probe_event *ev);

#endif
