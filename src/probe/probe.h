/* probe.h: runs a probe program and reads what it says, without blocking.
 *
 * A probe (docs/probes.md) prints one JSON object per line on stdout and
 * ends with one of the exit statuses of probes/common/probe_io.h. The supervisor
 * starts it in a process group of its own, so that everything it spawns can
 * be stopped together; reads stdout and stderr with poll(); keeps a bounded
 * amount of either; stops the whole group at the deadline (SIGTERM, then
 * SIGKILL after a grace period) or when its output passes the cap; and says
 * how the run ended.
 *
 *     struct probe_run *r;
 *     if (probe_start(argv, &limits, &r, &o) != KVT_E_OK) ... o says why
 *     while (probe_step(r, 100, on_event, ctx)) ... keep the UI alive
 *     probe_finish(r, on_event, ctx, &o);
 *
 * After probe_finish nothing the probe started is left running. */
#ifndef PROBE_H
#define PROBE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "kvt_error.h"
#include "probe_event.h"

/* How a run ended. */
#define PROBE_ENDS(X)                                                                              \
    X(OK, "ok")               /* exit 0, every line a JSON object */                               \
    X(FAILED, "failed")       /* exit FAILED or USAGE, bad output, output over the cap */          \
    X(NO_GPU, "no-gpu")       /* exit NO_GPU: no driver, stub library, no device, ... */           \
    X(CRASHED, "crashed")     /* killed by a signal it did not get from us */                      \
    X(TIMED_OUT, "timed-out") /* still running at the deadline */                                  \
    X(STOPPED, "stopped")     /* stopped on request: the learner left, or kvtutor was signalled */ \
    X(NOT_FOUND, "not-found") /* the program is missing or cannot be run */

enum probe_end {
#define PROBE_END_ENUM(name, str) PROBE_##name,
    PROBE_ENDS(PROBE_END_ENUM)
#undef PROBE_END_ENUM
};

/* "ok", "failed", "no-gpu", "crashed", "timed-out", "stopped", "not-found". */
const char *probe_end_name(enum probe_end e);

struct probe_limits {
    double deadline_s;   /* wall-clock seconds before the group is stopped */
    double grace_s;      /* between SIGTERM and SIGKILL */
    uint64_t max_output; /* stdout bytes; past this the group is stopped */
    uint32_t max_line;   /* longest line kept; a longer one is bad output */
    /* When non-NULL and it turns non-zero (a signal handler's flag: the
     * caller was told to quit), the run is stopped as by probe_cancel at
     * the next step: the probe's group must not outlive its caller. */
    const volatile sig_atomic_t *stop;
};

/* 600 s, 2 s grace, 4 MiB of output, 64 KiB lines, no stop flag. */
struct probe_limits probe_default_limits(void);

struct probe_outcome {
    enum probe_end end;
    int exit_code;     /* when it exited */
    int signal;        /* when a signal ended it */
    char message[512]; /* one line: the probe's error, stderr's last line, or ours */
    uint64_t stdout_bytes;
    uint32_t lines;     /* JSON objects read */
    uint32_t bad_lines; /* lines that were not JSON objects (or too long) */
    uint32_t first_bad; /* the first such line's number, 1-based; 0 when none */
    bool truncated;     /* output ended mid-line */
    double seconds;
};

/* Called for every line that is a JSON object with a string "type", read
 * into its record. The record is the supervisor's, gone when fn returns:
 * copy what you keep (the json text too). */
typedef void (*probe_event_fn)(void *ctx, const struct probe_event *event);

struct probe_run;

/* Starts argv[0] (a path) with argv. KVT_E_OK and *out set, or an error
 * with `o` saying why (o->end is PROBE_NOT_FOUND when the program is
 * missing or not executable). */
enum kvt_err probe_start(char *const argv[], const struct probe_limits *lim, struct probe_run **out,
                         struct probe_outcome *o);

/* Waits up to timeout_ms for output, hands each complete line to fn, and
 * enforces the deadline, the output cap and the stop flag (a signal cuts
 * the wait short). True while the run goes on;
 * false once the probe and everything in its group have ended. */
bool probe_step(struct probe_run *r, int timeout_ms, probe_event_fn fn, void *ctx);

/* Waits for the end (enforcing the deadline), classifies it, frees the run.
 * Safe to call before probe_step has returned false: it stops nothing
 * early, it just keeps stepping. */
void probe_finish(struct probe_run *r, probe_event_fn fn, void *ctx, struct probe_outcome *o);

/* Stops the run now (the whole group, SIGTERM then SIGKILL), for a learner
 * who leaves the screen. Classified as timed out, message "stopped". */
void probe_cancel(struct probe_run *r);

#endif
