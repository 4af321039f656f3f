/* Requests simulated per second: 1k, 10k and 100k requests of 1,024 in /
 * 1,024 out, all at t = 0, Llama-3.1-8B on one H100 with vLLM's API-server
 * defaults (1,024 seqs, 8,192 tokens): the KV blocks cap the batch, so the
 * run preempts and queues as a heavy benchmark would.
 *   build/tests/bench_sim [MAX_REQUESTS] */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "kv_calc.h"
#include "kv_presets.h"
#include "sim_report.h"
#include "sim_sched.h"
#include "sim_step.h"
#include "sim_workload.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    static struct kv_result r;
    const struct kv_gpu_preset *g = kv_gpu_preset_find("h100");
    const struct kv_model_preset *p = kv_model_preset_find("llama-3.1-8b");
    unsigned long max = argc > 1 ? strtoul(argv[1], NULL, 10) : 100000;
    struct sim_sched_config c = {0};
    struct kv_deploy d;

    kv_deploy_defaults(&d);
    kv_gpu_preset_apply(g, &d);
    d.max_model_len = 4096;
    sim_batch_defaults(d.gpu_mem_gib, g->name, SIM_USAGE_API_SERVER, &c.max_num_seqs,
                       &c.max_num_batched_tokens);
    d.max_num_batched_tokens = c.max_num_batched_tokens;
    if (kv_calc(&p->model, &d, &r, NULL, NULL) != KVT_E_OK ||
        sim_hw_from_calc(&r, g->peak_gbps * SIM_MEM_EFFICIENCY,
                         g->bf16_tflops * SIM_COMPUTE_EFFICIENCY, sim_link_gbps(g),
                         &c.hw) != KVT_E_OK) {
        fputs("bench_sim: the deployment does not compute\n", stderr);
        return 1;
    }
    c.num_blocks = r.num_gpu_blocks;
    c.block_size = r.deploy.block_size;
    c.calc = &r;
    printf("%10s %10s %12s %12s %12s\n", "requests", "steps", "seconds", "requests/s",
           "sim duration");
    for (unsigned long n = 1000; n <= max; n *= 10) {
        struct sim_workload_spec w = {
            .input_len = 1024, .output_len = 1024, .num_prompts = n, .request_rate = INFINITY};
        struct sim_request *reqs = malloc(n * sizeof *reqs);
        struct sim_run run;
        struct sim_metrics m;
        double t0, t1;

        if (!reqs || sim_workload_make(&w, reqs) != KVT_E_OK)
            return 1;
        t0 = now();
        if (sim_sched_run(&c, reqs, n, &run, NULL) != KVT_E_OK || sim_report(&run, &m) != KVT_E_OK)
            return 1;
        t1 = now();
        printf("%10lu %10llu %12.3f %12.0f %10.0f s\n", n, (unsigned long long)m.steps, t1 - t0,
               (double)n / (t1 - t0), m.duration_s);
        sim_run_free(&run);
        free(reqs);
    }
    return 0;
}
