/* tutor_sim.h: the playground's serving view, on the simulator that
 * `kvtutor sim` runs (src/sim, docs/simulator.md).
 *
 * The screens never call the simulator themselves: they hand a setup (the
 * playground's model, GPU and knobs, and a workload) to these functions,
 * which resolve it the way `kvtutor sim` resolves its flags (calc's blocks,
 * vLLM's batch defaults for `vllm serve` on that GPU, the achieved bandwidth
 * and FLOP/s as the preset's peak times the documented efficiencies), so the
 * same inputs give the same figures in the app and on the command line
 * (tests/test_tutor_sim.c compares them with `kvtutor sim --json`).
 *
 * Everything here is pure computation: no I/O, no clock. */
#ifndef TUTOR_SIM_H
#define TUTOR_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kv_calc.h"
#include "kv_presets.h"
#include "kvt_error.h"
#include "lx.h"
#include "sim_report.h"

/* Requests one run of the view sends (every point of the sweep too): enough
 * for a p99 (the 5th worst of 500), few enough to redraw at a key press.
 * Fewer for long outputs (tutor_sim_prompts). */
#define TUTOR_SIM_PROMPTS     500
#define TUTOR_SIM_PROMPTS_MIN 100
/* Steps a light load costs: about one a request and output token. The
 * sweep's slowest points are its lightest, so a run keeps to this many. */
#define TUTOR_SIM_STEPS ((uint64_t)1 << 18)
/* Points of the knee chart, and columns of the timeline at most. */
#define TUTOR_SIM_SWEEP   9
#define TUTOR_SIM_COLUMNS 160

/* One serving setup: the deployment, as the playground's knobs set it, and
 * the benchmark's workload (`vllm bench serve --dataset-name random`, every
 * request to its output length). */
struct tutor_sim_setup {
    const struct kv_model *model;    /* a preset's or a config.json's */
    const struct kv_gpu_preset *gpu; /* required */
    uint64_t max_model_len;          /* 0: the model's */
    double util;                     /* gpu_memory_utilization; 0: the release's default */
    uint32_t tp;                     /* 0 or 1: one GPU */
    enum kv_dtype kv_dtype;          /* AUTO: the model's */
    enum kv_dtype weights_dtype;     /* AUTO: the preset's stored weights */
    uint64_t input_len, output_len;  /* tokens per prompt, generated per request */
    double request_rate;             /* requests/s; INFINITY: all at t = 0 */
    uint64_t max_concurrency;        /* 0: no client limit */
    uint64_t num_prompts;            /* 0: tutor_sim_prompts(output_len) */
    uint64_t seed;
};

/* One run's figures and what the engine was given. */
struct tutor_sim_result {
    struct sim_metrics m;
    uint64_t max_num_seqs, max_num_batched_tokens, num_blocks;
    uint32_t block_size;
    double bandwidth_gbps, tflops; /* achieved, per GPU */
};

/* KV usage and the running batch over the run, in `n` equal slices of the
 * duration: each a time-weighted mean (idle time counts as 0). */
struct tutor_sim_timeline {
    size_t n;
    double duration_s;
    double kv[TUTOR_SIM_COLUMNS];      /* share of the KV blocks in use, 0 .. 1 */
    double running[TUTOR_SIM_COLUMNS]; /* requests running */
    double kv_peak, running_peak;      /* the largest slice of each */
};

/* p99 (and median) TTFT and TPOT against the request rate: every other
 * input as the setup. The rates are the ladder's (tutor_sim_rate_step)
 * around the capacity: 6 steps below it, 2 above. */
struct tutor_sim_point {
    double rate;
    struct sim_stat ttft_ms, tpot_ms;
    double request_throughput;
    enum sim_limit limit;
};
struct tutor_sim_sweep {
    double capacity; /* requests/s of the same workload sent all at once */
    size_t n;
    struct tutor_sim_point p[TUTOR_SIM_SWEEP];
};

/* The KV cache and weight types the playground steps through (its v and w
 * keys), the model's own (AUTO) first. */
#define TUTOR_SIM_N_KV_TYPES     5
#define TUTOR_SIM_N_WEIGHT_TYPES 5
extern const enum kv_dtype tutor_sim_kv_types[TUTOR_SIM_N_KV_TYPES];
extern const enum kv_dtype tutor_sim_weight_types[TUTOR_SIM_N_WEIGHT_TYPES];

/* The requests a run of the view sends for outputs of `output_len` tokens:
 * TUTOR_SIM_STEPS / output_len within [TUTOR_SIM_PROMPTS_MIN,
 * TUTOR_SIM_PROMPTS]: 500 up to 524 tokens, 256 at 1,024, 128 at 2,048,
 * 100 from 2,622. */
uint64_t tutor_sim_prompts(uint64_t output_len);

/* An exercise's `serving = {...}` (lx.h) as the view's setup, so the view
 * opened from the exercise shows the figures kv.sim gave the lesson on the
 * same table. A field not given takes kv.sim's default: the model's
 * length, the release's utilisation, one GPU, the model's types, 1,024
 * tokens in, 128 out, every request at once, seed 0. KVT_E_RANGE, with the
 * field at fault in why, where the view would show other figures: a type
 * it does not step through, a utilisation off its whole percents, a
 * request count other than the one it sends (tutor_sim_prompts: kv.sim's
 * default is 1,000), a seed other than 0. Runs nothing. */
enum kvt_err tutor_sim_of_serving(const struct lx_serving *sv, struct tutor_sim_setup *s, char *why,
                                  size_t cap);

/* Runs the setup once. With tl non-NULL, fills it in `columns` slices
 * (1 .. TUTOR_SIM_COLUMNS). On failure, a one-line reason in why (naming
 * the input at fault) and KVT_E_RANGE (inputs that cannot run: weights that
 * do not fit, a request over max_model_len or over the KV cache),
 * KVT_E_MISSING (no parameter count, a GPU without a published bandwidth or
 * TFLOP/s) or KVT_E_NOMEM; kv_calc's code when the deployment cannot be laid
 * out (sim_bench.h's faults, worded for the view). */
enum kvt_err tutor_sim_run(const struct tutor_sim_setup *s, struct tutor_sim_result *out,
                           struct tutor_sim_timeline *tl, size_t columns, char *why, size_t cap);

/* The knee: the setup at the capacity's rate inf, then at each rate of the
 * sweep. Fails as tutor_sim_run. */
enum kvt_err tutor_sim_sweep(const struct tutor_sim_setup *s, struct tutor_sim_sweep *out,
                             char *why, size_t cap);

/* The request rates the view steps through: 1, 1.25, 1.5, 2, 2.5, 3, 4, 5,
 * 6, 8 times a power of ten, from 0.1 to 1,000 requests/s, then INFINITY.
 * One step up or down from `rate` (a rate off the ladder goes to the next
 * one on it); the ends stay. */
double tutor_sim_rate_step(double rate, bool up);

/* Why TP cannot lay a model out, in the model's figures rather than a
 * field's name: "TP 8 cannot lay this model out: tensor-parallel degree
 * must divide the query heads; it has 28 query heads and 4 KV heads" (e
 * is KVT_E_TP_HEADS or KVT_E_TP_KV_HEADS). Returns out. */
const char *tutor_tp_refusal(unsigned tp, enum kvt_err e, unsigned heads, unsigned kv_heads,
                             char *out, size_t cap);

/* What capped the batch, for people: "KV blocks", "max_num_seqs", "the
 * token budget", "arrivals". */
const char *tutor_sim_limit_text(enum sim_limit l);
/* The key `kvtutor sim --json` gives it: "kv_blocks" ... */
const char *tutor_sim_limit_key(enum sim_limit l);

/* The `kvtutor sim` command line that gives the same figures, after the
 * model's own flags (`model_flags`: "--model qwen2.5-7b", or "--config
 * PATH --params 7.6"): "kvtutor sim --model ... --gpu ... --input-len ...". */
void tutor_sim_command(const struct tutor_sim_setup *s, const char *model_flags, char *buf,
                       size_t cap);

#endif
