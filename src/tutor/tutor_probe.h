/* tutor_probe.h: one probe run carried from start to the progress
 * database, the same way for the probe screen and `kvtutor probe`: the
 * supervisor (src/probe) runs the program, the lines are kept in a
 * probe_log, and the rules about a run live here once: what ran (the
 * device line's kind when it names one, else what was asked), when to
 * measure host memory instead (a GPU run that found no usable GPU or no
 * GPU probe), and how far each kernel has got.
 *
 *     struct tutor_probe tp;
 *     tutor_probe_start(&tp, "cuda", argv, 0, stop, now, NULL, NULL);
 *     while (tutor_probe_step(&tp, 0)) ... draw tp.pct, tp.log ...
 *     tutor_probe_save(&tp, store, learner, &err);
 *     if (tutor_probe_try_host(&tp)) ... start again with "cpu" ...
 *     tutor_probe_free(&tp);
 */
#ifndef TUTOR_PROBE_H
#define TUTOR_PROBE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "probe.h"
#include "probe_log.h"

enum { TUTOR_PROBE_KERNELS = 3 }; /* read, decode, paged: the order a probe runs them */

struct tutor_probe {
    const char *asked;        /* "cuda" or "cpu", as started */
    int64_t started_at;       /* Unix seconds */
    struct probe_log log;     /* the device and result lines */
    struct probe_outcome out; /* how it ended; set once it has */
    bool running;
    double pct[TUTOR_PROBE_KERNELS]; /* each kernel's progress, 0 to 100 */
    /* called with every line as it comes (may be NULL): a progress bar */
    probe_event_fn watch;
    void *watch_ctx;
    struct probe_run *run; /* the supervisor's; NULL once ended */
};

/* The probe to try first: "cuda" when the GPU probe `cuda_program` (may
 * be NULL) is there to run, else "cpu". */
const char *tutor_probe_first(const char *cuda_program);

/* The kernel names, in the order of pct[]. */
const char *tutor_probe_kernel(int k);

/* Starts `argv` (argv[0] the program; NULL for a probe this build lacks:
 * the run ends at once as not found) with a deadline (0: the supervisor's
 * default) and a stop flag (may be NULL) that ends it as a cancel does.
 * Returns KVT_E_OK; otherwise the run has already ended and tp->out says
 * why. Free with tutor_probe_free either way. */
enum kvt_err tutor_probe_start(struct tutor_probe *tp, const char *kind, char *const argv[],
                               double deadline_s, const volatile sig_atomic_t *stop, int64_t now,
                               probe_event_fn watch, void *watch_ctx);

/* Reads what the probe said for up to `wait_ms` (-1: until it ends).
 * Returns true while it runs; false once it has ended, with tp->out
 * classified (a run that ended ok but said a figure out of range has
 * failed, probe_log_verdict). */
bool tutor_probe_step(struct tutor_probe *tp, int wait_ms);

/* Stops the run (the learner left) and waits for it to end. */
void tutor_probe_cancel(struct tutor_probe *tp);

/* What ran: the device line's kind ("cpu" or "cuda") when it names one,
 * else what was asked. */
const char *tutor_probe_ran(const struct tutor_probe *tp);

/* A GPU run that found no usable GPU, or no GPU probe: host memory is
 * still worth measuring. */
bool tutor_probe_try_host(const struct tutor_probe *tp);

/* How the run ended, as a word ("ok", "no-gpu", "timed-out"). */
const char *tutor_probe_end_name(const struct tutor_probe *tp);

/* Keeps the ended run in the progress database, under tutor_probe_ran;
 * a GPU run that found no usable GPU or no GPU probe (tutor_probe_try_host)
 * measured nothing and is not kept (KVT_E_OK): the host run is. */
enum kvt_err tutor_probe_save(const struct tutor_probe *tp, struct store *st, int64_t learner_id,
                              struct store_error *err);

void tutor_probe_free(struct tutor_probe *tp);

#endif
