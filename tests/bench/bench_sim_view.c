/* What one key press costs in the playground's serving view: a run of
 * TUTOR_SIM_PROMPTS requests with its timeline, and the knee's sweep (the
 * run at rate inf, then TUTOR_SIM_SWEEP rates), for three settings from
 * light to heavy. Prints the milliseconds of each, best of 5.
 *   build/tests/bench_sim_view */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "tutor_sim.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(void)
{
    static const struct {
        const char *model, *gpu;
        uint64_t ctx, in, out;
        double rate;
    } cases[] = {
        {"qwen2.5-7b", "rtx4090", 8192, 1024, 128, 2},   /* the view's first setting */
        {"llama-3.1-8b", "h100", 16384, 2048, 1024, 20}, /* long outputs, a big batch */
        {"qwen3-30b-a3b", "h100", 32768, 8192, 1024, 4}, /* a MoE, long prompts */
        {"llama-3.1-8b", "h100", 16384, 1024, 4096, 4},  /* the longest output the view takes */
    };
    static struct tutor_sim_timeline tl;
    static struct tutor_sim_sweep sw;
    struct tutor_sim_result res;
    char why[300];

    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct tutor_sim_setup s = {0};
        double best_run = INFINITY, best_sweep = INFINITY;
        s.model = &kv_model_preset_find(cases[i].model)->model;
        s.gpu = kv_gpu_preset_find(cases[i].gpu);
        s.max_model_len = cases[i].ctx;
        s.input_len = cases[i].in;
        s.output_len = cases[i].out;
        s.request_rate = cases[i].rate;
        for (int k = 0; k < 5; k++) {
            double t0 = now(), t1, t2;
            if (tutor_sim_run(&s, &res, &tl, 60, why, sizeof why) != KVT_E_OK) {
                fprintf(stderr, "bench_sim_view: %s: %s\n", cases[i].model, why);
                return 1;
            }
            t1 = now();
            if (tutor_sim_sweep(&s, &sw, why, sizeof why) != KVT_E_OK) {
                fprintf(stderr, "bench_sim_view: %s: %s\n", cases[i].model, why);
                return 1;
            }
            t2 = now();
            best_run = fmin(best_run, t1 - t0);
            best_sweep = fmin(best_sweep, t2 - t1);
        }
        printf(
            "%-14s %-8s %5llu in %5llu out at %4g req/s: %llu requests: run %6.1f ms (%llu steps), "
            "sweep of %d rates %6.1f ms\n",
            cases[i].model, cases[i].gpu, (unsigned long long)cases[i].in,
            (unsigned long long)cases[i].out, cases[i].rate,
            (unsigned long long)tutor_sim_prompts(cases[i].out), 1e3 * best_run,
            (unsigned long long)res.m.steps, TUTOR_SIM_SWEEP, 1e3 * best_sweep);
    }
    return 0;
}
