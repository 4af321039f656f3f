/* sim_bench.h: one benchmark run, from a deployment to vLLM's figures: the
 * one way `kvtutor sim`, the playground's serving view and the lessons'
 * kv.sim set the simulator up, so the same inputs give the same numbers in
 * all three.
 *
 * sim_bench_prepare resolves a deployment once:
 *  - the batch defaults of the usage context (sim_batch_defaults: `vllm
 *    serve` for the API server, the LLM class for `vllm bench latency` and
 *    `throughput`) where max_num_seqs or max_num_batched_tokens are not
 *    given; calc sizes sliding windows by the same token budget;
 *  - calc's blocks (kv_calc), which must hold at least one block;
 *  - the step model's rates: a figure given is what the GPU achieves (a
 *    probe's); a preset's is its peak, times SIM_MEM_EFFICIENCY and
 *    SIM_COMPUTE_EFFICIENCY (sim_step.h); the link from sim_link_gbps, else
 *    PCIe 4.0 x16.
 * sim_bench_run draws the workload and runs it (sim_workload_make,
 * sim_sched_run, sim_report). Both name what stopped them in a fault, which
 * each caller words in its own terms (flags, knobs, Lua fields). Pure: no I/O,
 * no clock. */
#ifndef SIM_BENCH_H
#define SIM_BENCH_H

#include <stdbool.h>
#include <stdint.h>

#include "kv_calc.h"
#include "kv_presets.h"
#include "kvt_error.h"
#include "sim_report.h"
#include "sim_sched.h"
#include "sim_workload.h"

/* PCIe 4.0 x16, one way: the link of a GPU sim_link_gbps does not list. */
#define SIM_UNKNOWN_LINK_GBPS 32

struct sim_bench_setup {
    enum sim_usage usage;
    const struct kv_gpu_preset *gpu; /* its name picks the defaults and link; may be NULL */
    uint64_t max_num_seqs;           /* 0: the usage context's default */
    bool batched_tokens_given;       /* deploy's max_num_batched_tokens is the user's */
    bool no_chunked_prefill;
    bool no_full_isl_admission; /* --no-scheduler-reserve-full-isl: admit on the first chunk */
    uint64_t max_concurrency;   /* requests the client keeps in flight; 0: no limit */
    double bandwidth_gbps;      /* achieved, one GPU; 0: the deployment's peak x efficiency */
    double tflops;              /* achieved, one GPU; 0: likewise */
};

/* What stopped a setup or a run. */
enum sim_bench_fault {
    SIM_FAULT_NONE = 0,
    SIM_FAULT_CALC,          /* kv_calc refused the deployment: see bad, other, err */
    SIM_FAULT_WEIGHTS,       /* the weights leave no KV block */
    SIM_FAULT_NO_CACHE,      /* no memory figure: no KV cache size */
    SIM_FAULT_TOO_MUCH_WORK, /* prompts x (input + output) past SIM_MAX_WORK */
    SIM_FAULT_PAST_MAX_LEN,  /* the longest prompt + output past max_model_len */
    SIM_FAULT_NO_BANDWIDTH,
    SIM_FAULT_NO_TFLOPS,
    SIM_FAULT_NO_PARAMS,   /* the step time needs the parameter count */
    SIM_FAULT_WORKLOAD,    /* a workload field out of range (sim_workload.h) */
    SIM_FAULT_NEVER_FITS,  /* request bad_req can never run: its blocks, or its prompt
                              over the budget with chunked prefill off */
    SIM_FAULT_NO_PROGRESS, /* the scheduler stopped making progress */
    SIM_FAULT_NOMEM,
};

struct sim_bench_why {
    enum sim_bench_fault fault;
    enum kvt_err err;               /* kv_calc's, for SIM_FAULT_CALC */
    enum kv_field bad, other;       /* kv_calc's fields at fault */
    uint64_t bad_req;               /* SIM_FAULT_NEVER_FITS: the request */
    uint32_t bad_input, bad_output; /* its lengths */
    uint64_t blocks_needed;         /* its blocks */
};

/* A deployment resolved for the scheduler. Holds its calculator result, which
 * sc.calc points into: copy with care (sim_bench_prepare sets the pointer). */
struct sim_bench {
    struct kv_result r;
    struct sim_sched_config sc;
    double bandwidth_gbps, tflops, link_gbps; /* what the step model uses, one GPU */
    /* the release's admission rule is not dated (kv_vllm.h): what to tell the
     * user, static; NULL when it is */
    const char *admission_note;
};

/* Resolves model m on deployment *d (the caller's defaults, GPU preset and
 * flags applied; max_num_batched_tokens is set here unless given) for the
 * workload w (its lengths are checked against max_model_len). Returns
 * KVT_E_OK, or an error with *why filled. */
enum kvt_err sim_bench_prepare(const struct kv_model *m, struct kv_deploy *d,
                               const struct sim_bench_setup *s, const struct sim_workload_spec *w,
                               struct sim_bench *b, struct sim_bench_why *why);

/* Draws the workload w and runs it through b; m filled on success. run, when
 * not NULL, keeps the run for the caller (free it with sim_run_free); else it
 * is freed here. */
enum kvt_err sim_bench_run(struct sim_bench *b, const struct sim_workload_spec *w,
                           struct sim_metrics *m, struct sim_run *run, struct sim_bench_why *why);

#endif
