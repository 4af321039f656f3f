/* `kvtutor sim`: a vLLM benchmark run, simulated (docs/simulator.md).
 *
 * The model, GPU and deployment flags are calc's own rows (cli_calc.h), read
 * by calc's code, so that sim's KV blocks are calc's; the workload and
 * scheduler flags follow them in one table. */
#include "cli.h"
#include "cli_args.h"
#include "cli_calc.h"
#include "cli_json.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kvt_format.h"

#include "kvt_text.h"
#include "sim_bench.h"
#include "sim_figures.h"
#include "sim_report.h"
#include "sim_sched.h"
#include "sim_step.h"
#include "sim_workload.h"

#define usage_error(...) cli_usage_error("sim", __VA_ARGS__)

/* sim's own rows, after calc's CLI_CALC_SETUP_FLAGS */
enum {
    F_MAX_NUM_SEQS = CLI_CALC_SETUP_FLAGS,
    F_NO_CHUNKED,
    F_NO_FULL_ISL,
    F_INPUT_LEN,
    F_OUTPUT_LEN,
    F_RANGE_RATIO,
    F_NUM_PROMPTS,
    F_REQUEST_RATE,
    F_BURSTINESS,
    F_MAX_CONCURRENCY,
    F_SEED,
    F_MODE,
    F_BATCH_SIZE,
    F_JSON,
    F_HELP,
    F__COUNT
};
_Static_assert(F__COUNT <= CLI_MAX_FLAGS, "sim's flags fit struct cli_args");

/* calc's sections are 0..3 (model, precision, deployment, engine) */
enum { S_SCHED = 10, S_WORKLOAD, S_OUTPUT };

static const struct cli_flag own[F__COUNT - CLI_CALC_SETUP_FLAGS] = {
    {"--max-num-seqs", NULL, "N", CLI_UINT, S_SCHED, 0, .umax = KV_MAX_BATCH,
     .help = "requests running at once (default: vLLM's for the GPU and mode)"},
    {"--no-chunked-prefill", NULL, NULL, CLI_SWITCH, S_SCHED, 0,
     .help = "a prompt is scheduled whole or not at all"},
    {"--no-scheduler-reserve-full-isl", NULL, NULL, CLI_SWITCH, S_SCHED, 0,
     .help = "admit a request when its first chunk fits, not its whole sequence (vLLM's rule "
             "before 0.24)"},
    {"--input-len", NULL, "N", CLI_TOKENS, S_WORKLOAD, 0, .umax = SIM_MAX_LEN,
     .help = "prompt tokens (default 1024)"},
    {"--output-len", NULL, "N", CLI_TOKENS, S_WORKLOAD, 0, .umax = SIM_MAX_LEN,
     .help = "tokens generated per request, all of them (default 128)"},
    {"--range-ratio", NULL, "R", CLI_REAL, S_WORKLOAD, 0, .rmin = 0, .rmax = 1,
     .help = "lengths uniform in [L(1-R), L(1+R)], R < 1 (default 0)"},
    {"--num-prompts", NULL, "N", CLI_UINT, S_WORKLOAD, 0, .umax = SIM_MAX_PROMPTS,
     .help = "requests sent (default 1000)"},
    {"--request-rate", NULL, "R", CLI_STR, S_WORKLOAD, 0,
     .help = "Poisson arrivals, requests/s, or inf: all at t = 0 (default inf)"},
    {"--burstiness", NULL, "B", CLI_REAL, S_WORKLOAD, 0, .rmin = 0, .rmin_open = true, .rmax = 1e6,
     .help = "gamma shape of the gaps: 1 Poisson, < 1 burstier (default 1)"},
    {"--max-concurrency", NULL, "N", CLI_UINT, S_WORKLOAD, 0, .umax = SIM_MAX_PROMPTS,
     .help = "the client keeps at most N requests in flight"},
    {"--seed", NULL, "N", CLI_UINT, S_WORKLOAD, 0, .umax = UINT64_MAX, .zero_ok = true,
     .help = "the workload's random draws (default 0)"},
    {"--mode", NULL, "M", CLI_STR, S_WORKLOAD, 0,
     .help = "serve (vllm bench serve), latency or throughput (default serve)"},
    {"--batch-size", NULL, "B", CLI_UINT, S_WORKLOAD, 0, .umax = SIM_MAX_PROMPTS,
     .help = "--mode latency: prompts in the one batch (default 8)"},
    {"--json", NULL, NULL, CLI_SWITCH, S_OUTPUT, 0,
     .help = "one JSON object instead of the report"},
    {"--help", "-h", NULL, CLI_SWITCH, S_OUTPUT, 0, .help = "this text"},
};

static struct cli_flag table[F__COUNT];

/* calc's rows whose meaning sim sharpens, found by the field they set */
static int row_of(enum kv_field f)
{
    for (int i = 0; i < CLI_CALC_SETUP_FLAGS; i++)
        if ((enum kv_field)table[i].field == f)
            return i;
    return -1;
}

static void build_table(void)
{
    memcpy(table, cli_calc_setup_flags(), CLI_CALC_SETUP_FLAGS * sizeof *table);
    memcpy(table + CLI_CALC_SETUP_FLAGS, own, sizeof own);
    table[row_of(KV_FIELD_MAX_NUM_BATCHED_TOKENS)].section = S_SCHED;
    table[row_of(KV_FIELD_MAX_NUM_BATCHED_TOKENS)].help =
        "the step's token budget (default: vLLM's for the GPU and mode)";
    table[row_of(KV_FIELD_BANDWIDTH)].help =
        "achieved bandwidth of one GPU, GB/s (default: peak x 0.65)";
    table[row_of(KV_FIELD_TFLOPS)].help =
        "achieved dense TFLOP/s of one GPU (default: peak x 0.55)";
}

/* calc's decode-ceiling rows, which sim does not use */
static bool unused_row(int i)
{
    return table[i].field == KV_FIELD_BATCH || table[i].field == KV_FIELD_CONTEXT;
}

static void print_help(FILE *out)
{
    static const struct {
        int section;
        const char *title;
    } sections[] = {{0, "Model (flags override a preset or config), as calc"},
                    {1, "Precision"},
                    {2, "Deployment"},
                    {3, "Engine"},
                    {S_SCHED, "Scheduler"},
                    {S_WORKLOAD, "Workload (vllm bench serve --dataset-name random)"},
                    {S_OUTPUT, "Output"}};

    fputs("usage: kvtutor sim --model NAME --gpu NAME [options]\n\n"
          "Runs vLLM V1's scheduler over a benchmark's requests, with a roofline step\n"
          "time, and prints what vllm bench serve would print, then why the batch stopped\n"
          "growing. The KV blocks are calc's.\n",
          out);
    for (size_t s = 0; s < sizeof sections / sizeof sections[0]; s++) {
        fprintf(out, "\n%s:\n", sections[s].title);
        for (int i = 0; i < F__COUNT; i++) {
            const struct cli_flag *f = &table[i];
            char left[64];
            if (f->section != sections[s].section || unused_row(i))
                continue;
            snprintf(left, sizeof left, "%s%s%s%s%s", f->name, f->alias ? ", " : "",
                     f->alias ? f->alias : "", f->metavar ? " " : "", f->metavar ? f->metavar : "");
            if (strlen(left) > 34)
                fprintf(out, "  %s\n  %-34s %s\n", left, "", f->help);
            else
                fprintf(out, "  %-34s %s\n", left, f->help);
            if (f->kind == CLI_DTYPE)
                fprintf(out, "  %-34s   one of %s\n", "", f->dtypes);
        }
    }
    fputs("\nExample: kvtutor sim --model llama-3.1-8b --gpu h100 --input-len 2048 "
          "--output-len 256 --request-rate 5\n",
          out);
}

enum mode { MODE_SERVE, MODE_LATENCY, MODE_THROUGHPUT };

struct sim_view {
    enum mode mode;
    struct calc_view cv;
    struct sim_bench_setup setup;
    struct sim_bench b; /* the deployment resolved: its blocks, budget and rates */
    struct sim_workload_spec w;
    struct sim_metrics m;
};

static int resolve_workload(const struct cli_args *a, struct sim_view *s)
{
    struct sim_workload_spec *w = &s->w;

    w->input_len = a->given[F_INPUT_LEN] ? a->u[F_INPUT_LEN] : 1024;
    w->output_len = a->given[F_OUTPUT_LEN] ? a->u[F_OUTPUT_LEN] : 128;
    w->range_ratio = a->given[F_RANGE_RATIO] ? a->r[F_RANGE_RATIO] : 0;
    if (w->range_ratio >= 1)
        return usage_error("--range-ratio %s: must be below 1 (vLLM: range_ratio must be in "
                           "[0, 1))",
                           a->text[F_RANGE_RATIO]);
    w->num_prompts = a->given[F_NUM_PROMPTS] ? a->u[F_NUM_PROMPTS] : 1000;
    w->burstiness = a->given[F_BURSTINESS] ? a->r[F_BURSTINESS] : 1;
    w->seed = a->given[F_SEED] ? a->u[F_SEED] : 0;
    w->request_rate = INFINITY;
    if (a->given[F_REQUEST_RATE] && strcmp(a->text[F_REQUEST_RATE], "inf") != 0) {
        const char *why = cli_parse_real(a->text[F_REQUEST_RATE], 0, true, 1e9, &w->request_rate);
        if (why)
            return usage_error("--request-rate %s: %s, or inf", a->text[F_REQUEST_RATE], why);
    }
    s->setup.max_concurrency = a->given[F_MAX_CONCURRENCY] ? a->u[F_MAX_CONCURRENCY] : 0;
    if (s->mode != MODE_SERVE) {
        /* vllm bench latency and throughput hand every prompt to the LLM class at once */
        static const int serve_only[] = {F_REQUEST_RATE, F_BURSTINESS, F_MAX_CONCURRENCY};
        for (size_t i = 0; i < sizeof serve_only / sizeof serve_only[0]; i++)
            if (a->given[serve_only[i]])
                return usage_error("%s: --mode %s sends every prompt at t = 0",
                                   table[serve_only[i]].name,
                                   s->mode == MODE_LATENCY ? "latency" : "throughput");
        w->request_rate = INFINITY;
    }
    if (s->mode == MODE_LATENCY) {
        if (a->given[F_NUM_PROMPTS])
            return usage_error("--num-prompts: --mode latency runs one batch of --batch-size");
        w->num_prompts = a->given[F_BATCH_SIZE] ? a->u[F_BATCH_SIZE] : 8;
    } else if (a->given[F_BATCH_SIZE]) {
        return usage_error("--batch-size: only --mode latency runs one batch");
    }
    return 0;
}

/* What stopped sim_bench_prepare or sim_bench_run, in sim's flags. */
static int bench_error(const char *cmd, const struct cli_args *a, const struct sim_view *s,
                       const struct sim_bench_why *why, const struct kv_model *m,
                       const struct kv_deploy *d)
{
    const struct kv_result *r = &s->b.r;
    uint64_t in_max = sim_workload_max_input(&s->w), out_max = sim_workload_max_output(&s->w);
    bool out_flag = a->given[F_OUTPUT_LEN] && !a->given[F_INPUT_LEN];

    switch (why->fault) {
    case SIM_FAULT_CALC:
        return cli_calc_error(cmd, a, why->err, why->bad, why->other, m, d);
    case SIM_FAULT_WEIGHTS:
        return usage_error("the weights do not fit the GPU: no KV blocks (see kvtutor calc)");
    case SIM_FAULT_NO_CACHE:
        return usage_error("no KV cache size: give --gpu NAME, --gpu-mem-gib X or "
                           "--kv-budget-gib X");
    case SIM_FAULT_TOO_MUCH_WORK:
        return usage_error("--num-prompts %llu: %llu x %llu tokens is more than kvtutor simulates "
                           "(%llu tokens)",
                           (unsigned long long)s->w.num_prompts,
                           (unsigned long long)s->w.num_prompts,
                           (unsigned long long)(s->w.input_len + s->w.output_len),
                           (unsigned long long)SIM_MAX_WORK);
    case SIM_FAULT_PAST_MAX_LEN:
        return usage_error("%s %s: %llu prompt + %llu output tokens exceed max_model_len %llu",
                           out_flag ? "--output-len" : "--input-len",
                           out_flag ? a->text[F_OUTPUT_LEN]
                                    : (a->given[F_INPUT_LEN] ? a->text[F_INPUT_LEN] : "1024"),
                           (unsigned long long)in_max, (unsigned long long)out_max,
                           (unsigned long long)r->max_model_len);
    case SIM_FAULT_NO_BANDWIDTH:
        return usage_error("no memory bandwidth: give --gpu NAME or --bandwidth-gbps X");
    case SIM_FAULT_NO_TFLOPS:
        return usage_error("no TFLOP/s: give --gpu NAME (with a published figure) or --tflops X");
    case SIM_FAULT_NO_PARAMS:
        return usage_error("the model's parameters are needed for the step time: give --params");
    case SIM_FAULT_NOMEM:
        return usage_error("out of memory for %llu requests (--num-prompts)",
                           (unsigned long long)s->w.num_prompts);
    case SIM_FAULT_NO_PROGRESS:
        return usage_error("the scheduler stopped making progress (--no-chunked-prefill: a "
                           "preempted request's recompute is over the token budget)");
    case SIM_FAULT_NEVER_FITS:
        if (s->b.sc.no_chunked_prefill && why->bad_input > s->b.sc.max_num_batched_tokens)
            return usage_error("--input-len %llu: a prompt over --max-num-batched-tokens %llu "
                               "cannot run with --no-chunked-prefill",
                               (unsigned long long)why->bad_input,
                               (unsigned long long)s->b.sc.max_num_batched_tokens);
        return usage_error("--input-len %llu --output-len %llu: one request needs %llu KV blocks, "
                           "the cache has %llu",
                           (unsigned long long)why->bad_input, (unsigned long long)why->bad_output,
                           (unsigned long long)why->blocks_needed,
                           (unsigned long long)s->b.sc.num_blocks);
    default:
        return usage_error("the simulation's inputs are out of range");
    }
}

static void print_stat(FILE *out, const char *key, const struct sim_stat *st)
{
    char label[48];
    snprintf(label, sizeof label, "Mean %s (ms):", key);
    fprintf(out, "%-40s %-10.2f\n", label, st->mean);
    snprintf(label, sizeof label, "Median %s (ms):", key);
    fprintf(out, "%-40s %-10.2f\n", label, st->median);
    snprintf(label, sizeof label, "P99 %s (ms):", key);
    fprintf(out, "%-40s %-10.2f\n", label, st->p99);
}

/* vLLM centres a title in 50 columns (serve.py: str.center(50, "-")); Python
 * puts an odd margin's extra character on the right for an even width */
static void rule(FILE *out, const char *title, char fill)
{
    size_t n = strlen(title), left = (50 - n) / 2, right = 50 - n - left;
    for (size_t i = 0; i < left; i++)
        fputc(fill, out);
    fputs(title, out);
    for (size_t i = 0; i < right; i++)
        fputc(fill, out);
    fputc('\n', out);
}

static void print_human(FILE *out, const struct sim_view *s)
{
    const struct sim_metrics *m = &s->m;

    if (s->mode == MODE_LATENCY) {
        fprintf(out, "Avg latency: %.4f seconds (one batch of %llu, %llu in / %llu out)\n",
                m->duration_s, (unsigned long long)s->w.num_prompts,
                (unsigned long long)s->w.input_len, (unsigned long long)s->w.output_len);
    } else if (s->mode == MODE_THROUGHPUT) {
        fprintf(out, "Throughput: %.2f requests/s, %.2f total tokens/s, %.2f output tokens/s\n",
                m->request_throughput, m->total_token_throughput, m->output_throughput);
    } else {
        rule(out, " Serving Benchmark Result ", '=');
        fprintf(out, "%-40s %-10llu\n", "Successful requests:", (unsigned long long)m->completed);
        fprintf(out, "%-40s %-10.2f\n", "Benchmark duration (s):", m->duration_s);
        fprintf(out, "%-40s %-10llu\n", "Total input tokens:", (unsigned long long)m->total_input);
        fprintf(out, "%-40s %-10llu\n",
                "Total generated tokens:", (unsigned long long)m->total_output);
        fprintf(out, "%-40s %-10.2f\n", "Request throughput (req/s):", m->request_throughput);
        fprintf(out, "%-40s %-10.2f\n", "Output token throughput (tok/s):", m->output_throughput);
        fprintf(out, "%-40s %-10.2f\n",
                "Total Token throughput (tok/s):", m->total_token_throughput);
        rule(out, "Time to First Token", '-');
        print_stat(out, "TTFT", &m->ttft_ms);
        rule(out, "Time per Output Token (excl. 1st token)", '-');
        print_stat(out, "TPOT", &m->tpot_ms);
        rule(out, "Inter-token Latency", '-');
        print_stat(out, "ITL", &m->itl_ms);
        rule(out, "End-to-end Latency", '-');
        print_stat(out, "E2EL", &m->e2el_ms);
        rule(out, "", '=');
    }
    char g1[32], g2[32], g3[32];
    fprintf(out, "\nWhat vLLM does not print (simulated, %s steps):\n",
            kvt_fmt_int(m->steps, g1, sizeof g1));
    /* means add up: the step's mean is the mean of max(memory, compute) plus
     * the means of the rest; the mean of a max is not the max of the means,
     * so memory and compute are shown beside it, not inside it */
    fprintf(out, "  step time, mean     %.2f ms = roofline %.2f + communication %.2f\n", m->step_ms,
            m->step_ms - m->comm_ms - m->overhead_ms, m->comm_ms);
    fprintf(out, "                      + overhead %.2f ms; roofline = max(memory, compute)\n",
            m->overhead_ms);
    fprintf(out, "  memory, compute     %.2f ms, %.2f ms a step on average\n", m->memory_ms,
            m->compute_ms);
    /* shares as the app writes them (kvt_fmt_percent: never "100%" short of
     * all), the peak as blocks, as the serving view shows it */
    fprintf(out, "  memory-bound steps  %s  (at %.0f GB/s and %.0f TFLOP/s per GPU)\n",
            kvt_fmt_percent(m->memory_bound_share, g1, sizeof g1), s->b.bandwidth_gbps,
            s->b.tflops);
    fprintf(out, "  peak KV usage       %s of %s blocks of %u tokens (%s)\n",
            kvt_fmt_int(m->peak_blocks, g1, sizeof g1), kvt_fmt_int(m->num_blocks, g2, sizeof g2),
            s->b.sc.block_size, kvt_fmt_percent(m->peak_kv_usage, g3, sizeof g3));
    fprintf(out, "  largest batch       %s running (max_num_seqs %s, budget %s tokens)\n",
            kvt_fmt_int(m->max_running, g1, sizeof g1),
            kvt_fmt_int(s->b.sc.max_num_seqs, g2, sizeof g2),
            kvt_fmt_int(s->b.sc.max_num_batched_tokens, g3, sizeof g3));
    fprintf(out, "  preemptions         %llu\n", (unsigned long long)m->preemptions);
    /* what a resumed request recomputes: all of it, or less its own blocks
     * still cached (the prefix cache, on by default) */
    if (m->prefix_caching)
        fprintf(out, "  prefix cache        on: resumed requests found %s tokens of their own\n",
                kvt_fmt_int(m->resume_hit_tokens, g1, sizeof g1));
    else if (s->b.sc.prefix_caching)
        fputs("  prefix cache        not modelled for this model's KV groups: a resumed\n"
              "                      request recomputes all its tokens\n",
              out);
    else
        fputs("  prefix cache        off: a resumed request recomputes all its tokens\n", out);
    fprintf(out, "  admission           %s\n",
            s->b.sc.full_isl_admission ? "whole sequence must fit (scheduler_reserve_full_isl)"
                                       : "on the first chunk (before 0.24, or the flag)");
    if (s->b.admission_note) {
        /* a static note, wrapped under its label */
        const char *t = s->b.admission_note, *label = "  note                ";
        size_t len = strlen(t), next;
        while (len > 0) {
            size_t n = kvt_wrap_line(t, len, 80 - 22, &next);
            fprintf(out, "%s%.*s\n", label, (int)n, t);
            label = "                      ";
            t += next;
            len -= next;
        }
    }
    fprintf(out, "  batch capped by     %s (%s of the busy time)\n", sim_limit_name(m->limit),
            kvt_fmt_percent(m->limit_share, g1, sizeof g1));
    fputs("Not modelled: async scheduling overlap, speculative decoding acceptance,\n"
          "detokenisation, the network, prompts sharing a prefix.\n",
          out);
}

static int print_json(FILE *out, const struct sim_view *s)
{
    static const char *const modes[] = {"serve", "latency", "throughput"};
    struct kv_figure f[SIM_FIGURES_MAX];
    size_t n = sim_figures(&s->b, &s->m, modes[s->mode], f, SIM_FIGURES_MAX);
    json_t *o = json_object();
    int rc;

    for (size_t i = 0; i < n; i++)
        json_object_set_new(o, f[i].name,
                            f[i].kind == KV_FIG_INT    ? json_integer((json_int_t)f[i].v.i)
                            : f[i].kind == KV_FIG_REAL ? json_real(f[i].v.r)
                                                       : json_string(f[i].v.t));
    rc = cli_json_dumpf(o, out, JSON_INDENT(2));
    json_decref(o);
    if (rc != 0 || fputc('\n', out) == EOF)
        return 1;
    return 0;
}

int cli_sim(int argc, char **argv)
{
    static const char cmd[] = "sim";
    static const struct cli_spec spec = {.cmd = "sim", .flags = table, .nflags = F__COUNT};
    static struct sim_view s; /* large: kept off the stack */
    struct cli_args a;
    struct kv_model model = {0};
    struct kv_deploy d;
    struct sim_bench_why why;
    int rc, bw, fl;

    build_table();
    bw = row_of(KV_FIELD_BANDWIDTH);
    fl = row_of(KV_FIELD_TFLOPS);
    memset(&s, 0, sizeof s);
    if ((rc = cli_parse(&spec, argc, argv, &a)) != 0)
        return rc;
    if (a.help) {
        print_help(stdout);
        return 0;
    }
    for (int i = 0; i < CLI_CALC_SETUP_FLAGS; i++)
        if (a.given[i] && unused_row(i))
            return usage_error("%s: calc's decode-ceiling flag; sim sizes its batches itself "
                               "(--max-num-seqs, --batch-size)",
                               table[i].name);
    if (a.given[F_MODE]) {
        if (strcmp(a.text[F_MODE], "serve") == 0)
            s.mode = MODE_SERVE;
        else if (strcmp(a.text[F_MODE], "latency") == 0)
            s.mode = MODE_LATENCY;
        else if (strcmp(a.text[F_MODE], "throughput") == 0)
            s.mode = MODE_THROUGHPUT;
        else
            return usage_error("--mode %s: one of serve, latency, throughput", a.text[F_MODE]);
    }
    if ((rc = resolve_workload(&a, &s)) != 0)
        return rc;
    if ((rc = cli_calc_setup(cmd, &a, &model, &d, &s.cv)) != 0)
        return rc;
    s.setup.usage = s.mode == MODE_SERVE ? SIM_USAGE_API_SERVER : SIM_USAGE_LLM_CLASS;
    s.setup.gpu = s.cv.gpu;
    s.setup.max_num_seqs = a.given[F_MAX_NUM_SEQS] ? a.u[F_MAX_NUM_SEQS] : 0;
    s.setup.batched_tokens_given = a.given[row_of(KV_FIELD_MAX_NUM_BATCHED_TOKENS)];
    s.setup.no_chunked_prefill = a.given[F_NO_CHUNKED];
    s.setup.no_full_isl_admission = a.given[F_NO_FULL_ISL];
    /* a given figure is what the GPU achieves (the probe's); a preset's is its peak */
    s.setup.bandwidth_gbps = a.given[bw] ? a.r[bw] : 0;
    s.setup.tflops = a.given[fl] ? a.r[fl] : 0;
    if (sim_bench_prepare(&model, &d, &s.setup, &s.w, &s.b, &why) != KVT_E_OK ||
        sim_bench_run(&s.b, &s.w, &s.m, NULL, &why) != KVT_E_OK)
        return bench_error(cmd, &a, &s, &why, &model, &d);
    if (a.given[F_JSON])
        return print_json(stdout, &s);
    cli_print_resolved(stdout, &spec, &a);
    print_human(stdout, &s);
    return 0;
}
