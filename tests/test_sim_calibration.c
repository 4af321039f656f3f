/* The simulator against 36 public vLLM benchmark figures
 * (fixtures/serving-benchmarks-public.tsv): every row the simulator can set
 * up is run with the constants of src/sim/sim_step.h, set once for all of
 * them, and its figure compared with the published one. Prints the table
 * docs/simulator.md shows, and fails when the median error or the share
 * within 25% falls behind the figures documented there.
 *
 * Left out: the nine B200 Nemotron-Nano-30B rows (a hybrid Mamba-MoE whose
 * exact checkpoint the source does not name; no preset). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kv_calc.h"
#include "kv_presets.h"
#include "sim_report.h"
#include "sim_sched.h"
#include "sim_step.h"
#include "sim_workload.h"
#include "tsv.h"

/* What docs/simulator.md reports; the test fails if a change does worse. */
#define DOC_MEDIAN_ERROR 0.058
#define DOC_WITHIN_25    (33.0 / 36)

/* databricks/dbrx-instruct's config.json: d_model 6144, n_layers 40,
 * n_heads 48, kv_n_heads 8, ffn_hidden_size 10752, 16 experts, top 4, vocab
 * 100352. Parameters from those: attention 40 x (2 x 6144^2 + 2 x 6144 x
 * 1024) = 3.52B, experts 40 x 16 x 3 x 6144 x 10752 = 126.8B, embeddings and
 * head 2 x 100352 x 6144 = 1.23B: 131.6B in all; 4 experts a token: 36.4B. */
static const struct kv_model dbrx = {.layers = 40,
                                     .hidden = 6144,
                                     .heads = 48,
                                     .kv_heads = 8,
                                     .head_dim = 128,
                                     .max_position = 32768,
                                     .params_b = 131.6,
                                     .active_params_b = 36.4,
                                     .experts = 16,
                                     .experts_per_token = 4};

enum mode { SERVE, LATENCY };

/* How each run is set up; the published figure comes from the fixture. */
static const struct row {
    const char *id;
    const char *model; /* a preset, or NULL: dbrx above */
    const char *gpu;
    uint32_t tp;
    enum mode mode;
    uint32_t in, out, prompts, concurrency, batch;
    double kv_budget_gib; /* 0: from the GPU's memory */
} rows[] = {
    {"bk-h100-lat-llama70B_tp4", "llama-3.1-70b", "h100", 4, LATENCY, 32, 128, 0, 0, 8, 0},
    {"bk-h100-lat-llama8B_tp1", "llama-3.1-8b", "h100", 1, LATENCY, 32, 128, 0, 0, 8, 0},
    {"bk-h100-lat-mixtral8x7B_tp2", "mixtral-8x7b", "h100", 2, LATENCY, 32, 128, 0, 0, 8, 0},
    {"4090-mistral7b-c4", "mistral-7b-v0.3", "rtx4090", 1, SERVE, 256, 128, 300, 4, 0, 0},
    {"4090-mistral7b-c8", "mistral-7b-v0.3", "rtx4090", 1, SERVE, 256, 128, 300, 8, 0, 0},
    {"4090-mistral7b-c16", "mistral-7b-v0.3", "rtx4090", 1, SERVE, 256, 128, 300, 16, 0, 0},
    {"4090-mistral7b-c32", "mistral-7b-v0.3", "rtx4090", 1, SERVE, 256, 128, 300, 32, 0, 0},
    {"4090-mistral7b-c48", "mistral-7b-v0.3", "rtx4090", 1, SERVE, 256, 128, 300, 48, 0, 0},
    /* benchmark_latency.py's defaults of the time: --input-len 32 --output-len 128 */
    {"h100-dbrx-lat-tp4-bs8", NULL, "h100", 4, LATENCY, 32, 128, 0, 0, 8, 0},
    {"h100-dbrx-lat-tp4-bs16", NULL, "h100", 4, LATENCY, 32, 128, 0, 0, 16, 0},
    {"h100-dbrx-lat-tp4-bs32", NULL, "h100", 4, LATENCY, 32, 128, 0, 0, 32, 0},
    {"h100-dbrx-lat-tp4-bs64", NULL, "h100", 4, LATENCY, 32, 128, 0, 0, 64, 0},
    {"h100-dbrx-lat-tp8-bs8", NULL, "h100", 8, LATENCY, 32, 128, 0, 0, 8, 0},
    {"h100-dbrx-lat-tp8-bs16", NULL, "h100", 8, LATENCY, 32, 128, 0, 0, 16, 0},
    {"h100-dbrx-lat-tp8-bs32", NULL, "h100", 8, LATENCY, 32, 128, 0, 0, 32, 0},
    {"h100-dbrx-lat-tp8-bs64", NULL, "h100", 8, LATENCY, 32, 128, 0, 0, 64, 0},
    /* Qwen2-7B-Instruct has Qwen2.5-7B's config figures (28 layers, hidden
     * 3584, 28 heads, 4 KV heads, intermediate 18944, vocab 152064) */
    {"a100-80g-qwen2-7b-kv5g-n1", "qwen2.5-7b", "a100", 1, SERVE, 1024, 1024, 1, 0, 0, 5.01},
    {"a100-80g-qwen2-7b-kv5g-n10", "qwen2.5-7b", "a100", 1, SERVE, 1024, 1024, 10, 0, 0, 5.01},
    {"a100-80g-qwen2-7b-kv5g-n20", "qwen2.5-7b", "a100", 1, SERVE, 1024, 1024, 20, 0, 0, 5.01},
    {"a100-80g-qwen2-7b-kv5g-n30", "qwen2.5-7b", "a100", 1, SERVE, 1024, 1024, 30, 0, 0, 5.01},
    {"a100-80g-qwen2-7b-kv5g-n50", "qwen2.5-7b", "a100", 1, SERVE, 1024, 1024, 50, 0, 0, 5.01},
    {"a100-80g-qwen2-7b-kv5g-n75", "qwen2.5-7b", "a100", 1, SERVE, 1024, 1024, 75, 0, 0, 5.01},
    {"a100-80g-qwen2-7b-kv5g-n100", "qwen2.5-7b", "a100", 1, SERVE, 1024, 1024, 100, 0, 0, 5.01},
    {"a100-80g-qwen2-7b-kv5g-n200", "qwen2.5-7b", "a100", 1, SERVE, 1024, 1024, 200, 0, 0, 5.01},
    {"a100-80g-qwen2-7b-kv5g-n500", "qwen2.5-7b", "a100", 1, SERVE, 1024, 1024, 500, 0, 0, 5.01},
    {"a100-80g-qwen2-7b-kv5g-n1000", "qwen2.5-7b", "a100", 1, SERVE, 1024, 1024, 1000, 0, 0, 5.01},
};

/* The figures the goal is set over, and where the fixture keeps each. */
static const struct figure {
    const char *name, *column;
    double scale; /* fixture value x scale = the figure */
    enum mode mode;
} figures[] = {
    {"output_throughput", "output_tok_per_s", 1, SERVE},
    {"median_tpot_ms", "median_tpot_ms", 1, SERVE},
    /* benchmark_latency's mean over iterations; the CI report keeps it in ms */
    {"avg_latency_s", "avg_latency_s", 1, LATENCY},
    {"avg_latency_s", "mean_e2e_ms", 0.001, LATENCY},
};

/* The public runs by source: each a different GPU, model family, engine
 * release and benchmark, so holding one back tests what the constants do
 * on a setup they were not fitted to. */
static const char *const sources[] = {"h100 nightly latency", "rtx4090 mistral serve",
                                      "h100 dbrx latency", "a100 qwen2 serve"};
enum { N_SOURCES = 4 };

static int source_of(const char *id)
{
    static const char *const prefix[N_SOURCES] = {"bk-h100", "4090", "h100-dbrx", "a100"};
    for (int g = 0; g < N_SOURCES; g++)
        if (strncmp(id, prefix[g], strlen(prefix[g])) == 0)
            return g;
    fail_msg("%s: no source for this run: add it to sources[]", id);
    return -1;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The four constants of sim_step.h, as one point of a search. */
struct consts {
    double mem, compute, overhead_s, latency_s;
};

static const struct consts shipped = {SIM_MEM_EFFICIENCY, SIM_COMPUTE_EFFICIENCY,
                                      SIM_STEP_OVERHEAD_S, SIM_ALLREDUCE_LATENCY_S};

static void simulate(const struct row *w, const struct consts *k, struct sim_metrics *m)
{
    const struct kv_gpu_preset *g = kv_gpu_preset_find(w->gpu);
    struct kv_model model = dbrx;
    struct kv_deploy d;
    struct kv_result *r = malloc(sizeof *r);
    struct sim_sched_config c = {0};
    struct sim_workload_spec spec = {0};
    struct sim_request *reqs;
    struct sim_run run;
    uint64_t seqs, tokens;

    assert_non_null(r);
    assert_non_null(g);
    if (w->model) {
        const struct kv_model_preset *p = kv_model_preset_find(w->model);
        assert_non_null(p);
        model = p->model;
    }
    kv_deploy_defaults(&d);
    kv_gpu_preset_apply(g, &d);
    d.tp = w->tp;
    d.max_model_len = 4096;
    d.kv_budget_gib = w->kv_budget_gib;
    sim_batch_defaults(d.gpu_mem_gib, g->name,
                       w->mode == SERVE ? SIM_USAGE_API_SERVER : SIM_USAGE_LLM_CLASS, &seqs,
                       &tokens);
    d.max_num_batched_tokens = tokens;
    if (kv_calc(&model, &d, r, NULL, NULL) != KVT_E_OK || !r->has_blocks)
        fail_msg("%s: the calculator has no KV blocks", w->id);
    c.num_blocks = r->num_gpu_blocks;
    c.block_size = r->deploy.block_size;
    c.calc = r;
    c.max_num_seqs = seqs;
    c.max_num_batched_tokens = tokens;
    c.max_concurrency = w->concurrency;
    /* V1's default, as `kvtutor sim` runs it; it matters only where requests
     * are preempted (the A100 sweep at 5 GiB of KV, whose logs show it on) */
    c.prefix_caching = true;
    assert_int_equal(sim_hw_from_calc(r, g->peak_gbps * k->mem, g->bf16_tflops * k->compute,
                                      sim_link_gbps(g), &c.hw),
                     KVT_E_OK);
    c.hw.overhead_s = k->overhead_s;
    c.hw.allreduce_latency_s = k->latency_s;
    spec.input_len = w->in;
    spec.output_len = w->out;
    spec.num_prompts = w->mode == LATENCY ? w->batch : w->prompts;
    spec.request_rate = INFINITY;
    reqs = malloc(spec.num_prompts * sizeof *reqs);
    assert_non_null(reqs);
    assert_int_equal(sim_workload_make(&spec, reqs), KVT_E_OK);
    assert_int_equal(sim_sched_run(&c, reqs, spec.num_prompts, &run, NULL), KVT_E_OK);
    assert_int_equal(sim_report(&run, m), KVT_E_OK);
    sim_run_free(&run);
    free(reqs);
    free(r);
}

static double figure_of(const struct sim_metrics *m, const char *name)
{
    if (strcmp(name, "output_throughput") == 0)
        return m->output_throughput;
    if (strcmp(name, "median_tpot_ms") == 0)
        return m->tpot_ms.median;
    return m->duration_s; /* avg_latency_s: one batch's end-to-end time */
}

static void calibration(void **state)
{
    struct tsv t;
    double errs[64];
    size_t nerr = 0, within = 0;
    double median;

    (void)state;
    assert_int_equal(tsv_load("serving-benchmarks-public.tsv", &t), 0);
    printf("%-30s %-18s %10s %10s %8s\n", "run", "figure", "real", "sim", "error");
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        struct sim_metrics m;
        size_t k;
        for (k = 0; k < tsv_count(&t); k++)
            if (strcmp(tsv_get(&t, k, "id"), rows[i].id) == 0)
                break;
        if (k == tsv_count(&t))
            fail_msg("%s is not in the fixture", rows[i].id);
        simulate(&rows[i], &shipped, &m);
        for (size_t f = 0; f < sizeof figures / sizeof figures[0]; f++) {
            const char *cell = tsv_get(&t, k, figures[f].column);
            double real, sim, err;
            if (figures[f].mode != rows[i].mode || !cell || !*cell)
                continue;
            real = strtod(cell, NULL) * figures[f].scale;
            sim = figure_of(&m, figures[f].name);
            err = (sim - real) / real;
            printf("%-30s %-18s %10.4g %10.4g %+7.1f%%\n", rows[i].id, figures[f].name, real, sim,
                   100 * err);
            errs[nerr++] = fabs(err);
            within += fabs(err) <= 0.25;
        }
    }
    tsv_free(&t);
    qsort(errs, nerr, sizeof errs[0], cmp_double);
    median = sim_percentile(errs, nerr, 50);
    printf("%zu figures: median |error| %.1f%%, %zu within 25%% (%.0f%%)\n", nerr, 100 * median,
           within, 100.0 * (double)within / (double)nerr);
    assert_int_equal(nerr, 36);
    if (median > DOC_MEDIAN_ERROR || (double)within / (double)nerr < DOC_WITHIN_25)
        fail_msg("worse than documented: median %.3f (at most %.2f), within 25%% %.2f (at least "
                 "%.2f)",
                 median, DOC_MEDIAN_ERROR, (double)within / (double)nerr, DOC_WITHIN_25);
}

/* Every figure of every row with constants k, in rows order: err[j] is
 * figure j's signed error, grp[j] the source it comes from. */
static size_t all_errors(const struct tsv *t, const struct consts *k, double *err, int *grp)
{
    size_t n = 0;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        struct sim_metrics m;
        size_t r;
        for (r = 0; r < tsv_count(t); r++)
            if (strcmp(tsv_get(t, r, "id"), rows[i].id) == 0)
                break;
        assert_true(r < tsv_count(t));
        simulate(&rows[i], k, &m);
        for (size_t f = 0; f < sizeof figures / sizeof figures[0]; f++) {
            const char *cell = tsv_get(t, r, figures[f].column);
            double real;
            if (figures[f].mode != rows[i].mode || !cell || !*cell)
                continue;
            real = strtod(cell, NULL) * figures[f].scale;
            assert_true(n < 64); /* the arrays the search keeps */
            err[n] = (figure_of(&m, figures[f].name) - real) / real;
            grp[n++] = source_of(rows[i].id);
        }
    }
    return n;
}

static double median_abs(const double *err, const int *grp, size_t n, int keep, bool in)
{
    double a[64];
    size_t m = 0;
    for (size_t j = 0; j < n; j++)
        if ((grp[j] == keep) == in)
            a[m++] = fabs(err[j]);
    qsort(a, m, sizeof a[0], cmp_double);
    return sim_percentile(a, m, 50);
}

/* The constants on runs they were not set on. For each of the four
 * sources in turn, the constants are searched again over the other three
 * alone (81 points around the shipped one; the least median error there
 * wins), and the held-back source's figures are predicted with them. The
 * held-back errors, pooled over the four turns, are what the method does on
 * runs it never saw. The goal is a median of at most 10% and 90%
 * within 25%; the first run gave 12.3% and 33 of 36 (docs/simulator.md), and
 * 13.0% and 32 once resumed requests hit their own cached blocks (a rule
 * vLLM has, not a fit); the figures are held there until a change earns
 * better. */
#define HELD_BACK_MEDIAN 0.131
#define HELD_BACK_WITHIN (32.0 / 36)

static void held_back_sources(void **state)
{
    static const double mem[] = {0.60, 0.65, 0.75}, comp[] = {0.45, 0.55, 0.65},
                        over[] = {0.0004, 0.0007, 0.0012}, lat[] = {10e-6, 20e-6, 30e-6};
    enum { POINTS = 81 };
    double(*err)[64] = calloc(POINTS, sizeof *err), held[64], pooled[64];
    int grp[64];
    size_t n = 0, npool = 0, within = 0;
    struct consts pts[POINTS];
    struct tsv t;

    (void)state;
    assert_non_null(err);
    assert_int_equal(tsv_load("serving-benchmarks-public.tsv", &t), 0);
    for (size_t p = 0; p < POINTS; p++) {
        pts[p] = (struct consts){mem[p / 27], comp[p / 9 % 3], over[p / 3 % 3], lat[p % 3]};
        n = all_errors(&t, &pts[p], err[p], grp);
    }
    tsv_free(&t);
    printf("%-22s %-28s %12s %8s\n", "held back", "set on the rest", "figures", "median");
    for (int g = 0; g < N_SOURCES; g++) {
        size_t best = 0, m = 0;
        for (size_t p = 1; p < POINTS; p++)
            if (median_abs(err[p], grp, n, g, false) < median_abs(err[best], grp, n, g, false))
                best = p;
        for (size_t j = 0; j < n; j++)
            if (grp[j] == g) {
                held[m++] = fabs(err[best][j]);
                pooled[npool++] = fabs(err[best][j]);
                within += fabs(err[best][j]) <= 0.25;
            }
        qsort(held, m, sizeof held[0], cmp_double);
        printf("%-22s mem %.2f comp %.2f %.1f ms %2.0f us %5zu %7.1f%%\n", sources[g],
               pts[best].mem, pts[best].compute, pts[best].overhead_s * 1000,
               pts[best].latency_s * 1e6, m, 100 * sim_percentile(held, m, 50));
    }
    qsort(pooled, npool, sizeof pooled[0], cmp_double);
    printf("held back, pooled: %zu figures, median |error| %.1f%%, %zu within 25%% (%.0f%%)\n",
           npool, 100 * sim_percentile(pooled, npool, 50), within,
           100.0 * (double)within / (double)npool);
    assert_int_equal(npool, 36);
    printf("goal (median <= 10%%, >= 90%% within 25%%): %s\n",
           sim_percentile(pooled, npool, 50) <= 0.10 && within >= 0.9 * (double)npool ? "met"
                                                                                      : "NOT met");
    if (sim_percentile(pooled, npool, 50) > HELD_BACK_MEDIAN ||
        (double)within / (double)npool < HELD_BACK_WITHIN)
        fail_msg("held back: median %.3f (at most %.3f), within 25%% %.2f (at least %.2f)",
                 sim_percentile(pooled, npool, 50), HELD_BACK_MEDIAN,
                 (double)within / (double)npool, HELD_BACK_WITHIN);
    free(err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(calibration),
                                       cmocka_unit_test(held_back_sources)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
