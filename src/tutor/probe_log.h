/* probe_log.h: what one probe run said, gathered from its lines, and how the
 * run is kept in the progress database. The probe screen and `kvtutor probe`
 * both carry a run from the supervisor to the store through it, so the two
 * record the same figures the same way.
 *
 *     struct probe_log g;
 *     probe_log_init(&g);
 *     ... probe_step(run, ms, fn, ctx) where fn calls probe_log_event(&g, ev)
 *     probe_log_save(&g, store, learner, started, "cpu", &outcome, &err);
 *     probe_log_free(&g);
 */
#ifndef PROBE_LOG_H
#define PROBE_LOG_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "kvt_error.h"
#include "probe.h"
#include "store.h"

/* A probe prints a few result lines (read, decode, one per paged block
 * size); more than this is not a probe we know, and is not kept. */
#define PROBE_LOG_MAX_RESULTS 64

struct probe_log {
    json_t *device;    /* its "device" line without "type"; NULL until one comes */
    json_t *results;   /* its "result" lines without "type", in order */
    char refused[200]; /* the first line not kept for a figure out of range */
};

void probe_log_init(struct probe_log *g);
void probe_log_free(struct probe_log *g); /* and ready for probe_log_init */

/* Keeps the first "device" line and the "result" lines; ignores the rest.
 * A line with a figure of the protocol (docs/probes.md) that is not a
 * number in its range (negative bytes, 1e300 GB/s, a block size past
 * 2^31) is not kept, and `refused` says which figure it was: everything
 * the log holds can be drawn, cast and stored as it is. */
void probe_log_event(struct probe_log *g, const json_t *event);

/* After the run: one that ended ok but said a figure out of range has
 * failed, with `refused` as its message. */
void probe_log_verdict(const struct probe_log *g, struct probe_outcome *out);

/* The result line of one kernel ("read", "decode", "paged"): the first
 * one, or NULL. */
const json_t *probe_log_result(const struct probe_log *g, const char *kernel);

/* A number field of a line; 0 when the line or the field is missing. */
double probe_log_num(const json_t *line, const char *key);

/* Records the run: its outcome, the device and result lines as JSON, and
 * the read median, peak and free memory as columns when they are there
 * (the read only for a run that ended ok). */
enum kvt_err probe_log_save(const struct probe_log *g, struct store *st, int64_t learner_id,
                            int64_t started_at, const char *kind, const struct probe_outcome *out,
                            struct store_error *err);

#endif
