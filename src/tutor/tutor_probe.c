/* One probe run, from start to the database. The progress bars fill kernel
 * by kernel: a probe's "percent" runs over the whole probe, so every kernel
 * before the one reporting is full. */
#define _POSIX_C_SOURCE 200809L
#include "tutor_probe.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *const kernels[TUTOR_PROBE_KERNELS] = {"read", "decode", "paged"};

const char *tutor_probe_first(const char *cuda_program)
{
    return cuda_program && access(cuda_program, X_OK) == 0 ? "cuda" : "cpu";
}

const char *tutor_probe_kernel(int k)
{
    return k >= 0 && k < TUTOR_PROBE_KERNELS ? kernels[k] : NULL;
}

static void on_event(void *ctx, const struct probe_event *ev)
{
    struct tutor_probe *tp = ctx;

    probe_log_event(&tp->log, ev);
    if (ev->type == PROBE_EVENT_PROGRESS)
        for (int k = 0; k < TUTOR_PROBE_KERNELS; k++)
            if (strcmp(ev->progress.kernel, kernels[k]) == 0) {
                double pct = ev->progress.percent;
                for (int i = 0; i < k; i++)
                    tp->pct[i] = 100;
                tp->pct[k] = pct < 0 ? 0 : pct > 100 ? 100 : pct;
                break;
            }
    if (tp->watch)
        tp->watch(tp->watch_ctx, ev);
}

enum kvt_err tutor_probe_start(struct tutor_probe *tp, const char *kind, char *const argv[],
                               double deadline_s, const volatile sig_atomic_t *stop, int64_t now,
                               probe_event_fn watch, void *watch_ctx)
{
    struct probe_limits lim = probe_default_limits();
    enum kvt_err e;

    memset(tp, 0, sizeof *tp);
    probe_log_init(&tp->log);
    tp->asked = kind;
    tp->started_at = now;
    tp->watch = watch;
    tp->watch_ctx = watch_ctx;
    if (!argv || !argv[0]) {
        tp->out.end = PROBE_NOT_FOUND;
        snprintf(tp->out.message, sizeof tp->out.message, "this build has no %s probe", kind);
        return KVT_E_MISSING;
    }
    if (deadline_s > 0)
        lim.deadline_s = deadline_s;
    lim.stop = stop;
    if ((e = probe_start(argv, &lim, &tp->run, &tp->out)) != KVT_E_OK) {
        tp->run = NULL;
        return e;
    }
    tp->running = true;
    return KVT_E_OK;
}

bool tutor_probe_step(struct tutor_probe *tp, int wait_ms)
{
    if (!tp->run)
        return false;
    if (wait_ms >= 0 && probe_step(tp->run, wait_ms, on_event, tp))
        return true;
    probe_finish(tp->run, on_event, tp, &tp->out);
    probe_log_verdict(&tp->log, &tp->out);
    tp->run = NULL;
    tp->running = false;
    return false;
}

void tutor_probe_cancel(struct tutor_probe *tp)
{
    if (!tp->run)
        return;
    probe_cancel(tp->run);
    probe_finish(tp->run, NULL, NULL, &tp->out);
    tp->run = NULL;
    tp->running = false;
}

const char *tutor_probe_ran(const struct tutor_probe *tp)
{
    const char *dk = tp->log.has_device ? tp->log.device.kind : "";
    if (strcmp(dk, "cpu") == 0)
        return "cpu";
    if (strcmp(dk, "cuda") == 0)
        return "cuda";
    return tp->asked;
}

bool tutor_probe_try_host(const struct tutor_probe *tp)
{
    return !tp->running && strcmp(tp->asked, "cuda") == 0 &&
           (tp->out.end == PROBE_NO_GPU || tp->out.end == PROBE_NOT_FOUND);
}

const char *tutor_probe_end_name(const struct tutor_probe *tp)
{
    return probe_end_name(tp->out.end);
}

enum kvt_err tutor_probe_save(const struct tutor_probe *tp, struct store *st, int64_t learner_id,
                              struct store_error *err)
{
    /* a GPU run that found no GPU measured nothing: the host run that
     * follows it is the run, and a "cuda no-gpu" row beside every one of
     * them (each probe the app starts on a machine without a GPU) was noise */
    if (tutor_probe_try_host(tp))
        return KVT_E_OK;
    return probe_log_save(&tp->log, st, learner_id, tp->started_at, tutor_probe_ran(tp), &tp->out,
                          err);
}

void tutor_probe_free(struct tutor_probe *tp)
{
    tutor_probe_cancel(tp);
    probe_log_free(&tp->log);
}
