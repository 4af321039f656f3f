/* probe_log.h: what one probe run said, gathered from its lines, and how the
 * run is kept in the progress database. The probe screen and `kvtutor probe`
 * both carry a run from the supervisor to the store through it, so the two
 * record the same figures the same way.
 *
 *     struct probe_log g;
 *     probe_log_init(&g);
 *     ... probe_step(run, ms, fn, ctx) where fn calls probe_log_event(&g, ev)
 *     ... g.device.name, probe_log_result(&g, "read")->gbps_median
 *     probe_log_save(&g, store, learner, started, "cpu", &outcome, &err);
 *     probe_log_free(&g);
 */
#ifndef PROBE_LOG_H
#define PROBE_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kvt_error.h"
#include "probe.h"
#include "store.h"

/* A probe prints a few result lines (read, decode, one per paged block
 * size); more than this is not a probe we know, and is not kept. */
#define PROBE_LOG_MAX_RESULTS 64

/* The records are the log's own (their json text too). A log with no
 * device reads as a zeroed device: every figure 0, every text "". */
struct probe_log {
    bool has_device;            /* a "device" line came and was kept */
    struct probe_device device; /* the first one */
    size_t n_results;
    struct probe_result results[PROBE_LOG_MAX_RESULTS]; /* the "result" lines, in order */
    char refused[200]; /* the first line not kept: a figure out of range or above the peak */
};

void probe_log_init(struct probe_log *g);
void probe_log_free(struct probe_log *g); /* and ready for probe_log_init */

/* Keeps the first "device" record and the "result" records; ignores the
 * rest. A record with a figure out of its range (its bad_figure, see
 * probe_event.h) is not kept, nor a result claiming more GB/s than the
 * device line's peak_gbps, and `refused` says which figure it was:
 * everything the log holds can be drawn, cast and stored as it is. Out of
 * memory for a record's json text, the record is kept without it. */
void probe_log_event(struct probe_log *g, const struct probe_event *event);

/* After the run: one that ended ok but said a figure out of range or above
 * the peak has failed, with `refused` as its message. */
void probe_log_verdict(const struct probe_log *g, struct probe_outcome *out);

/* The result of one kernel ("read", "decode", "paged"): the first one, or
 * NULL. */
const struct probe_result *probe_log_result(const struct probe_log *g, const char *kernel);

/* The result lines as one JSON array, each line as it came less its
 * "type" (what the database keeps and `kvtutor probe --json` prints):
 * "[]" when there are none. Malloc'd, for the caller to free; NULL when
 * there is no memory. */
char *probe_log_results_json(const struct probe_log *g);

/* Records the run: its outcome, the device and result lines as JSON, and
 * the read median, peak and free memory as columns when they are there
 * (the read only for a run that ended ok). */
enum kvt_err probe_log_save(const struct probe_log *g, struct store *st, int64_t learner_id,
                            int64_t started_at, const char *kind, const struct probe_outcome *out,
                            struct store_error *err);

#endif
