/* sim_report.h: a run's figures as `vllm bench serve` computes them
 * (vllm/benchmarks/serve.py, calculate_metrics), plus the scheduler's own.
 *
 *   TTFT  = first token - send
 *   E2EL  = last token - send
 *   TPOT  = (E2EL - TTFT) / (output_len - 1), per request with output_len > 1
 *   ITL   = every gap between two tokens of one request, all requests pooled
 *   throughputs = totals / duration (the last request's finish)
 * Percentiles as numpy.percentile's default (linear between the two nearest
 * ranks); an empty list gives 0, as serve.py's `or 0`. Times in ms. */
#ifndef SIM_REPORT_H
#define SIM_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "sim_sched.h"

struct sim_stat {
    double mean, median, p99;
};

struct sim_metrics {
    double duration_s;
    uint64_t completed, total_input, total_output;
    double request_throughput, output_throughput, total_token_throughput;
    struct sim_stat ttft_ms, tpot_ms, itl_ms, e2el_ms;
    /* the scheduler */
    uint64_t preemptions, max_running, steps;
    bool prefix_caching;              /* resumed requests hit their own blocks (sim_run) */
    uint64_t resume_hit_tokens;       /* tokens they found cached, summed */
    uint64_t peak_blocks, num_blocks; /* the most blocks in use at once, of these */
    double peak_kv_usage;             /* peak_blocks / num_blocks */
    double mean_running;              /* time-weighted over the duration */
    enum sim_limit limit;             /* what capped the batch for the most step time */
    double limit_share;               /* that share of the busy time */
    /* the step-time split: mean ms per step, and the memory-bound share */
    double step_ms, memory_ms, compute_ms, comm_ms, overhead_ms, memory_bound_share;
};

/* numpy.percentile(a, p) of sorted a[0 .. n), p in [0, 100]; 0 when n is 0. */
double sim_percentile(const double *sorted, size_t n, double p);

/* The metrics of a finished run. KVT_E_NOMEM when the sorting buffers cannot
 * be had (*m then unspecified). */
enum kvt_err sim_report(const struct sim_run *r, struct sim_metrics *m);

#endif
