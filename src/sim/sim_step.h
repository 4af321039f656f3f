/* sim_step.h: how long one engine step takes, from first principles.
 *
 * A step runs every scheduled token through the model once. Its time is
 *   max(memory, compute) + communication + overhead
 * memory  = (weight bytes the step touches + KV read + KV written
 *            + recurrent state read and written) / achieved bandwidth
 * compute = (2 x active parameters x tokens + attention FLOPs) / achieved FLOP/s
 * communication (TP > 1) = 2 all-reduces per layer over tokens x hidden
 *            activations: ring time 2(tp-1)/tp x bytes / link + a latency each
 * overhead = SIM_STEP_OVERHEAD_S, the engine's own time per step
 * all per GPU of one tensor-parallel group. Pipeline stages are taken to run
 * one after another (no overlap between micro-batches): the whole model's
 * layers divided by TP. For a MoE, a step of T tokens reads the weights
 * every token uses and the routed experts its tokens touch, E x (1 - (1 -
 * k/E)^T) a layer under even routing: the calculator's rule (kv_moe.h), so
 * `calc`, `sim` and the lessons read the same bytes.
 *
 * The efficiency constants are set once over the public runs in
 * tests/fixtures/serving-benchmarks-public.tsv (docs/simulator.md). */
#ifndef SIM_STEP_H
#define SIM_STEP_H

#include <stdbool.h>
#include <stdint.h>

#include "kv_calc.h"
#include "kv_moe.h"
#include "kv_presets.h"

/* Share of the GPU's peak memory bandwidth a decode step achieves. */
#define SIM_MEM_EFFICIENCY 0.65
/* Share of the GPU's dense bf16 peak a prefill achieves. */
#define SIM_COMPUTE_EFFICIENCY 0.55
/* The engine's time per step besides the GPU's work: scheduling, input
 * preparation, sampling, the launch of the step's graph. */
#define SIM_STEP_OVERHEAD_S 0.0007
/* One all-reduce's fixed cost (launch and synchronisation), any link. */
#define SIM_ALLREDUCE_LATENCY_S 0.000020

/* The step model's inputs for one deployment, per GPU. */
struct sim_hw {
    struct kv_moe_split weights; /* the weights on one TP rank, split as kv_moe.h does */
    double active_params;        /* parameters one token uses, on one TP rank */
    double kv_full_token_bytes;  /* KV of one token over the full-attention layers, one rank */
    double kv_slide_token_bytes; /* likewise over the sliding-window layers */
    uint64_t window;             /* sliding window, tokens (0: none) */
    double state_bytes;          /* one request's recurrent state, one rank */
    double attn_flops_pair;      /* FLOPs per (query token, context token) pair, one rank */
    double bandwidth;            /* achieved, bytes/s */
    double flops;                /* achieved, FLOP/s */
    uint32_t tp, layers;
    double act_token_bytes; /* hidden x 2: one token's activations (bf16) */
    double link_bandwidth;  /* bytes/s each way between two GPUs of the group */
    double allreduce_latency_s;
    double overhead_s;
};

/* What one step runs: sums over its scheduled requests. */
struct sim_step_load {
    uint64_t tokens;      /* tokens scheduled */
    uint64_t seqs;        /* requests scheduled */
    double kv_read_full;  /* context tokens read by full-attention layers */
    double kv_read_slide; /* by sliding layers (each request at most the window) */
    double attn_pairs;    /* query x context pairs, causal within the chunk */
};

struct sim_step_time {
    double memory_s, compute_s, comm_s, overhead_s, total_s;
};

/* The link between GPUs of one TP group for a GPU preset (NVLink, Infinity
 * Fabric or PCIe), GB/s each way; 0 when the preset is unknown (NULL). */
double sim_link_gbps(const struct kv_gpu_preset *g);

/* Fills *hw from a calculation (which must have its weights) and the achieved
 * figures; bandwidth_gbps and tflops must be > 0, link_gbps > 0 when tp > 1.
 * KVT_E_MISSING when the weights, parameters or rates are unknown. */
enum kvt_err sim_hw_from_calc(const struct kv_result *r, double bandwidth_gbps, double tflops,
                              double link_gbps, struct sim_hw *hw);

/* The time of one step under the model above. */
void sim_step_time(const struct sim_hw *hw, const struct sim_step_load *l, struct sim_step_time *t);

#endif
