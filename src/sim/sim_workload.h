/* sim_workload.h: the requests a benchmark client sends, as `vllm bench
 * serve --dataset-name random` draws them.
 *
 * Lengths (vllm/benchmarks/datasets.py, RandomDataset.get_sampling_params):
 * with range ratio R in [0, 1), a prompt has an integer length uniform in
 * [floor(L(1-R)), ceil(L(1+R))], and an output likewise (at least 1). The
 * tokenizer's special tokens are not subtracted: kvtutor has no tokenizer.
 *
 * Arrivals (vllm/benchmarks/serve.py, get_request): rate inf sends every
 * request at t = 0; else gaps are gamma(shape = burstiness, scale =
 * 1 / (rate x burstiness)) (burstiness 1: Poisson), accumulated, then scaled
 * so that the last one falls at num_prompts / rate, as serve.py does to
 * steady the throughput across seeds.
 *
 * The random numbers are our own (xoshiro256** seeded by splitmix64), so the
 * draws are not numpy's; the same seed gives the same workload everywhere. */
#ifndef SIM_WORKLOAD_H
#define SIM_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "kvt_error.h"

#define SIM_MAX_PROMPTS ((uint64_t)1000000) /* requests one run may send */
#define SIM_MAX_LEN     ((uint64_t)1 << 24) /* tokens in one prompt or output */
/* prompts x (prompt + output) tokens one run may simulate: about 10 s */
#define SIM_MAX_WORK ((uint64_t)1 << 31)

/* xoshiro256**: four words of state; sim_rng_seed fills them. */
struct sim_rng {
    uint64_t s[4];
};

/* Seeds the generator through splitmix64 (any seed, 0 included). */
void sim_rng_seed(struct sim_rng *r, uint64_t seed);
/* The next 64 random bits. */
uint64_t sim_rng_next(struct sim_rng *r);
/* Uniform in [0, 1), 53 bits. */
double sim_rng_uniform(struct sim_rng *r);
/* Uniform integer in [lo, hi] (lo <= hi), without modulo bias. */
uint64_t sim_rng_between(struct sim_rng *r, uint64_t lo, uint64_t hi);
/* Gamma(shape, scale) by Marsaglia and Tsang (shape < 1 boosted by U^(1/shape)). */
double sim_rng_gamma(struct sim_rng *r, double shape, double scale);

struct sim_workload_spec {
    uint64_t input_len, output_len; /* L for prompts and outputs, >= 1 */
    double range_ratio;             /* R in [0, 1) */
    uint64_t num_prompts;           /* 1 .. SIM_MAX_PROMPTS */
    double request_rate;            /* requests/s; 0 or infinity = all at t = 0 */
    double burstiness;              /* gamma shape, > 0; 0 = 1 (Poisson) */
    uint64_t seed;
};

struct sim_request {
    double arrival;      /* s after the benchmark starts */
    uint32_t input_len;  /* prompt tokens */
    uint32_t output_len; /* tokens generated, every one (as with --ignore-eos) */
};

/* The longest prompt and output the spec can draw: ceil(L(1+R)). */
uint64_t sim_workload_max_input(const struct sim_workload_spec *w);
uint64_t sim_workload_max_output(const struct sim_workload_spec *w);

/* Fills out[0 .. num_prompts) in arrival order. KVT_E_RANGE when a field is
 * outside the ranges above (nothing written). */
enum kvt_err sim_workload_make(const struct sim_workload_spec *w, struct sim_request *out);

#endif
