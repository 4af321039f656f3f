/* sim_figures.h: a run's figures as named values, the one list behind
 * `kvtutor sim --json` and the Lua kv.sim table, so both speak with the same
 * names (vLLM's benchmark keys, then the scheduler's and the setup's). */
#ifndef SIM_FIGURES_H
#define SIM_FIGURES_H

#include <stdbool.h>
#include <stddef.h>

#include "kv_figures.h"
#include "sim_bench.h"

/* Fills out[] with every figure, in a fixed order; returns how many (at most
 * SIM_FIGURES_MAX). mode is "serve", "latency" or "throughput"; a latency run
 * adds avg_latency_s, as `vllm bench latency` reports it. Text figures are
 * static strings or mode. */
#define SIM_FIGURES_MAX 48
size_t sim_figures(const struct sim_bench *b, const struct sim_metrics *m, const char *mode,
                   struct kv_figure *out, size_t cap);

#endif
