/* sim_sched.h: vLLM V1's scheduler, step by step, over a workload.
 *
 * The rules (vllm/v1/core/sched/scheduler.py, Scheduler.schedule), each step:
 *  1. One token budget, max_num_batched_tokens.
 *  2. Running requests first, in the order they were admitted: each asks for
 *     what it lacks (a decode 1 token, a chunked prefill the rest of its
 *     prompt), cut to the budget left. If its blocks cannot be allocated, the
 *     LAST running request is preempted (self.running.pop()): its blocks are
 *     freed, its computed tokens forgotten (recompute), and it goes to the
 *     FRONT of the waiting queue (prepend_request); this repeats until the
 *     allocation succeeds or the request preempted itself.
 *  3. Then, only if nothing was preempted this step, waiting requests in
 *     order while the budget lasts and fewer than max_num_seqs run: each gets
 *     a prefill chunk of up to the budget left and its blocks, or the loop
 *     stops (the first that does not fit waits; first come, first served).
 *     With full_isl_admission (vLLM's default from 0.24, kv_vllm.h) the
 *     request must also find free blocks for its whole sequence so far, its
 *     prompt and any output of a preempted run (KVCacheManager.allocate_slots
 *     with full_sequence_must_fit), not just for its first chunk.
 *     With chunked prefill off, a prompt that does not fit the budget whole
 *     stops the loop.
 *  4. A request samples a token when its computed tokens reach prompt +
 *     output so far; it leaves after its last output token and frees its blocks.
 * Blocks: a request holding T tokens holds ceil(T / block_size) blocks per
 * full-attention group (kv_calc_blocks_per_request for sliding-window and
 * hybrid models).
 * Prefix caching (on by default in V1): random prompts share nothing, but a
 * preempted request's own blocks stay cached after they are freed. The free
 * blocks form one queue (block_pool.py, FreeKVCacheBlockQueue): freed blocks
 * join its back, a request's tail first (SingleTypeKVCacheManager.free), and
 * new blocks come from its front, evicting what they held. A preempted
 * request's computed full blocks that are still in the queue when it is
 * scheduled again are its cache hit (KVCacheManager.get_computed_blocks: whole
 * blocks, at most num_tokens - 1 tokens): it takes them back and recomputes
 * only the rest. Modelled for models with one KV group; for sliding-window
 * and hybrid models a resumed request recomputes everything (sim_run says
 * which applied).
 *
 * The client (vllm/benchmarks/serve.py, benchmark): request i is sent at its
 * arrival, or, with max_concurrency, when one of the requests in flight
 * finishes, whichever is later; the engine sees it at the next step. Time
 * advances a step at a time (sim_step.h); with nothing to run it jumps to the
 * next send. Pure: no I/O and no clock; the same inputs give the same run. */
#ifndef SIM_SCHED_H
#define SIM_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kv_calc.h"
#include "kvt_error.h"
#include "sim_step.h"
#include "sim_workload.h"

/* What kept the running batch from growing, step by step. */
#define SIM_LIMITS(X)                                                                              \
    X(ARRIVALS, "arrivals") /* nothing else was waiting */                                         \
    X(KV_BLOCKS,                                                                                   \
      "kv_blocks") /* no free block for a request (or its whole prompt), a preemption */           \
    X(MAX_NUM_SEQS, "max_num_seqs") /* max_num_seqs requests were running */                       \
    X(TOKEN_BUDGET, "token_budget") /* the step's tokens were spent, blocks to spare */

enum sim_limit {
#define SIM_LIMIT_ENUM(name, str) SIM_LIMIT_##name,
    SIM_LIMITS(SIM_LIMIT_ENUM)
#undef SIM_LIMIT_ENUM
        SIM_LIMIT__COUNT
};

/* "kv_blocks"; "?" past the list. */
const char *sim_limit_name(enum sim_limit l);

/* vLLM's usage contexts, which pick the batch defaults. */
enum sim_usage {
    SIM_USAGE_API_SERVER, /* `vllm serve` (vllm bench serve) */
    SIM_USAGE_LLM_CLASS,  /* the offline LLM class (vllm bench latency, throughput) */
};

/* max_num_seqs and max_num_batched_tokens when not given
 * (vllm/engine/arg_utils.py, EngineArgs.get_batch_defaults): on a GPU of at
 * least 70 GiB whose name does not contain "a100", 8,192 tokens (API server)
 * or 16,384 (LLM class) and 1,024 sequences; otherwise 2,048 or 8,192 and 256.
 * gpu_mem_gib 0 (unknown) takes the second row, as vLLM does when it cannot
 * ask the device; gpu_name may be NULL. */
void sim_batch_defaults(double gpu_mem_gib, const char *gpu_name, enum sim_usage usage,
                        uint64_t *max_num_seqs, uint64_t *max_num_batched_tokens);

struct sim_sched_config {
    uint64_t num_blocks;          /* the KV cache's blocks (kv_result.num_gpu_blocks) */
    uint32_t block_size;          /* tokens per block */
    const struct kv_result *calc; /* for models with more than one KV group; NULL: dense */
    uint64_t max_num_seqs, max_num_batched_tokens; /* >= 1 */
    bool no_chunked_prefill;
    /* SchedulerConfig.scheduler_reserve_full_isl: a waiting (or preempted)
     * request is admitted only if blocks for its whole sequence so far,
     * prompt and output, are free; false: its first chunk's suffice */
    bool full_isl_admission;
    /* CacheConfig.enable_prefix_caching: a resumed request hits its own
     * cached blocks (one KV group only; see above) */
    bool prefix_caching;
    uint64_t max_concurrency; /* requests the client keeps in flight; 0: no limit */
    struct sim_hw hw;         /* the step-time model */
    bool trace;               /* keep every step's batch and blocks (sim_run.trace) */
};

/* One step as it ran, for a chart over time: it started at t and took dt
 * seconds with `running` requests holding `blocks` KV blocks. */
struct sim_sample {
    double t, dt;
    uint64_t running, blocks;
};

/* One request as the client saw it. */
struct sim_outcome {
    double send, first_token, finish; /* s after the benchmark starts */
    uint32_t input_len, output_len;
    uint32_t preemptions;
};

/* Inter-token gaps, weighted: `count` gaps of `gap` seconds. */
struct sim_gap {
    double gap;
    uint64_t count;
};

struct sim_run {
    struct sim_outcome *req; /* n of them, in the workload's order */
    uint64_t n;
    struct sim_gap *gaps; /* every inter-token gap of every request */
    size_t ngaps;
    uint64_t steps, preemptions, max_running, peak_blocks, num_blocks;
    double duration_s;                                      /* the last request's finish */
    double busy_s, memory_s, compute_s, comm_s, overhead_s; /* summed over steps */
    uint64_t memory_bound_steps;
    bool prefix_caching;              /* resumed requests hit their own blocks (config and model) */
    uint64_t resume_hit_tokens;       /* tokens resumed requests found cached, summed */
    double limit_s[SIM_LIMIT__COUNT]; /* step time by what capped the batch */
    double running_s;                 /* integral of the running count over time */
    struct sim_sample *trace;         /* with sim_sched_config.trace: every step, in order */
    size_t ntrace;
};

/* Blocks one request holding `tokens` tokens needs under c. UINT64_MAX on overflow. */
uint64_t sim_sched_blocks(const struct sim_sched_config *c, uint64_t tokens);

/* Runs the workload reqs[0 .. n) (arrival order) through the scheduler and
 * the step model. KVT_E_RANGE for a config out of range or a request that
 * can never fit (its prompt + output - 1 tokens need more than num_blocks
 * blocks; with chunked prefill off, a prompt over the budget) with *bad_req
 * its index; KVT_E_NOMEM; KVT_E_CONFLICT if the scheduler stops making
 * progress. On success *out owns memory: free it with sim_run_free. */
enum kvt_err sim_sched_run(const struct sim_sched_config *c, const struct sim_request *reqs,
                           uint64_t n, struct sim_run *out, uint64_t *bad_req);

void sim_run_free(struct sim_run *r);

#endif
