/* The playground's serving view on the simulator (tutor_sim.h). The
 * deployment is built as `kvtutor sim`'s cli_calc_setup builds it from
 * --model/--gpu/--tp/--util/--kv-dtype/--weights-dtype/--max-model-len; from
 * there sim_bench.h sets the run up and runs it, as it does for the command
 * and for kv.sim: `vllm serve`'s batch defaults, calc's blocks, the capacity
 * checks, the achieved rates and the link. */
#include "tutor_sim.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kvt_format.h"
#include "sim_bench.h"
#include "sim_sched.h"
#include "sim_workload.h"

static enum kvt_err fail(char *why, size_t cap, enum kvt_err e, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static enum kvt_err fail(char *why, size_t cap, enum kvt_err e, const char *fmt, ...)
{
    va_list ap;
    if (why && cap) {
        va_start(ap, fmt);
        vsnprintf(why, cap, fmt, ap);
        va_end(ap);
    }
    return e;
}

const enum kv_dtype tutor_sim_kv_types[TUTOR_SIM_N_KV_TYPES] = {
    KV_DTYPE_AUTO, KV_DTYPE_FP8, KV_DTYPE_FP16, KV_DTYPE_BF16, KV_DTYPE_FP32};
const enum kv_dtype tutor_sim_weight_types[TUTOR_SIM_N_WEIGHT_TYPES] = {
    KV_DTYPE_AUTO, KV_DTYPE_INT4, KV_DTYPE_FP8, KV_DTYPE_BF16, KV_DTYPE_FP32};

/* A type named by a lesson, as one of the view's list; false when the list
 * lacks it. "auto" is the model's own. */
static bool view_type(const char *name, const enum kv_dtype *list, size_t n, enum kv_dtype *out)
{
    enum kv_dtype dt = KV_DTYPE_AUTO;
    if (name && !kv_dtype_parse(name, &dt))
        return false;
    for (size_t i = 0; i < n; i++)
        if (list[i] == dt) {
            *out = dt;
            return true;
        }
    return false;
}

enum kvt_err tutor_sim_of_serving(const struct lx_serving *sv, struct tutor_sim_setup *s, char *why,
                                  size_t cap)
{
    const struct kv_model_preset *m = sv->given ? kv_model_preset_find(sv->model) : NULL;
    const struct kv_gpu_preset *g = sv->given ? kv_gpu_preset_find(sv->gpu) : NULL;

    memset(s, 0, sizeof *s);
    if (!m || !g)
        return fail(why, cap, KVT_E_RANGE, "the serving setup names no preset model and GPU");
    s->model = &m->model;
    s->gpu = g;
    s->max_model_len = sv->max_model_len;
    s->util = sv->util;
    s->tp = sv->tp ? (uint32_t)sv->tp : 1;
    if (!view_type(sv->kv_dtype, tutor_sim_kv_types, TUTOR_SIM_N_KV_TYPES, &s->kv_dtype))
        return fail(why, cap, KVT_E_RANGE,
                    "serving.kv_dtype \"%s\": the serving view steps through auto, fp8, fp16, "
                    "bf16 and fp32",
                    sv->kv_dtype);
    if (!view_type(sv->weights_dtype, tutor_sim_weight_types, TUTOR_SIM_N_WEIGHT_TYPES,
                   &s->weights_dtype))
        return fail(why, cap, KVT_E_RANGE,
                    "serving.weights_dtype \"%s\": the serving view steps through auto, int4, "
                    "fp8, bf16 and fp32",
                    sv->weights_dtype);
    if (sv->util > 0 && fabs(sv->util * 100.0 - round(sv->util * 100.0)) > 1e-9)
        return fail(why, cap, KVT_E_RANGE,
                    "serving.util %g: the serving view sets gpu_memory_utilization in whole "
                    "percents",
                    sv->util);
    s->input_len = sv->input_len ? sv->input_len : 1024;
    s->output_len = sv->output_len ? sv->output_len : 128;
    s->request_rate = sv->request_rate > 0 ? sv->request_rate : INFINITY;
    s->max_concurrency = sv->max_concurrency;
    if (sv->num_prompts != tutor_sim_prompts(s->output_len))
        return fail(why, cap, KVT_E_RANGE,
                    "serving.num_prompts %llu is not the %llu requests the serving view sends for "
                    "%llu-token outputs",
                    (unsigned long long)(sv->num_prompts ? sv->num_prompts : 1000),
                    (unsigned long long)tutor_sim_prompts(s->output_len),
                    (unsigned long long)s->output_len);
    if (sv->seed != 0)
        return fail(why, cap, KVT_E_RANGE,
                    "serving.seed %llu: the serving view draws its arrivals with seed 0",
                    (unsigned long long)sv->seed);
    s->num_prompts = sv->num_prompts;
    return KVT_E_OK;
}

uint64_t tutor_sim_prompts(uint64_t output_len)
{
    uint64_t n = output_len ? TUTOR_SIM_STEPS / output_len : TUTOR_SIM_PROMPTS;
    return n > TUTOR_SIM_PROMPTS       ? TUTOR_SIM_PROMPTS
           : n < TUTOR_SIM_PROMPTS_MIN ? TUTOR_SIM_PROMPTS_MIN
                                       : n;
}

static uint64_t prompts(const struct tutor_sim_setup *s)
{
    return s->num_prompts ? s->num_prompts : tutor_sim_prompts(s->output_len);
}

/* The setup's workload at `rate`: `vllm bench serve --dataset-name random`
 * with fixed lengths and Poisson arrivals, as kvtutor sim's defaults. */
static void workload(const struct tutor_sim_setup *s, double rate, struct sim_workload_spec *w)
{
    memset(w, 0, sizeof *w);
    w->input_len = s->input_len;
    w->output_len = s->output_len;
    w->num_prompts = prompts(s);
    w->request_rate = rate;
    w->burstiness = 1;
    w->seed = s->seed;
}

const char *tutor_tp_refusal(unsigned tp, enum kvt_err e, unsigned heads, unsigned kv_heads,
                             char *out, size_t cap)
{
    snprintf(out, cap, "TP %u cannot lay this model out: %s; it has %u query heads and %u KV heads",
             tp, kvt_strerror(e), heads, kv_heads);
    return out;
}

/* What stopped sim_bench, in the view's words: each names the input at fault. */
static enum kvt_err say(const struct tutor_sim_setup *s, const struct sim_bench *b,
                        const struct sim_bench_why *bw, enum kvt_err e, char *why, size_t cap)
{
    char a1[32], a2[32], a3[32], a4[32];

    switch (bw->fault) {
    case SIM_FAULT_CALC:
        if (bw->err == KVT_E_TP_HEADS || bw->err == KVT_E_TP_KV_HEADS) {
            char tp[200];
            return fail(why, cap, e, "%s",
                        tutor_tp_refusal(s->tp ? s->tp : 1, bw->err, s->model->heads,
                                         s->model->kv_heads, tp, sizeof tp));
        }
        return fail(why, cap, e, "this deployment cannot be laid out: %s (%s)",
                    kvt_strerror(bw->err), kv_field_name(bw->bad));
    case SIM_FAULT_WEIGHTS:
        return fail(why, cap, e, "the weights do not fit the GPU: no KV blocks to serve from");
    case SIM_FAULT_NO_CACHE:
        return fail(why, cap, e, "no KV cache size for this GPU");
    case SIM_FAULT_TOO_MUCH_WORK:
        return fail(why, cap, e, "%s requests of %s tokens are more than kvtutor simulates",
                    kvt_fmt_int(prompts(s), a1, sizeof a1),
                    kvt_fmt_int(s->input_len + s->output_len, a2, sizeof a2));
    case SIM_FAULT_PAST_MAX_LEN:
        return fail(
            why, cap, e, "input %s + output %s tokens exceed max_model_len %s (the context)",
            kvt_fmt_int(s->input_len, a1, sizeof a1), kvt_fmt_int(s->output_len, a2, sizeof a2),
            kvt_fmt_int(b->r.max_model_len, a3, sizeof a3));
    case SIM_FAULT_NO_BANDWIDTH:
    case SIM_FAULT_NO_TFLOPS: {
        bool bw_missing = bw->fault == SIM_FAULT_NO_BANDWIDTH;
        return fail(why, cap, e,
                    "%s has no published %s: the step time needs it (kvtutor sim --%s X)",
                    s->gpu->name, bw_missing ? "bandwidth" : "TFLOP/s",
                    bw_missing ? "bandwidth-gbps" : "tflops");
    }
    case SIM_FAULT_NO_PARAMS:
        return fail(why, cap, e, "the model's parameter count is unknown: the step time needs it");
    case SIM_FAULT_WORKLOAD:
        return fail(why, cap, e, "input and output lengths must be 1 to %s tokens",
                    kvt_fmt_int(SIM_MAX_LEN, a1, sizeof a1));
    case SIM_FAULT_NEVER_FITS:
        return fail(
            why, cap, e, "one request of %s + %s tokens needs %s KV blocks, the cache has %s",
            kvt_fmt_int(bw->bad_input, a1, sizeof a1), kvt_fmt_int(bw->bad_output, a2, sizeof a2),
            kvt_fmt_int(bw->blocks_needed, a3, sizeof a3),
            kvt_fmt_int(b->sc.num_blocks, a4, sizeof a4));
    case SIM_FAULT_NO_PROGRESS:
        return fail(why, cap, e, "the scheduler stopped making progress");
    case SIM_FAULT_NOMEM:
        return fail(why, cap, e, "out of memory for %s requests",
                    kvt_fmt_int(prompts(s), a1, sizeof a1));
    default:
        return fail(why, cap, e, "the simulation's inputs are out of range");
    }
}

static enum kvt_err prepare(const struct tutor_sim_setup *s, struct sim_bench *b, char *why,
                            size_t cap)
{
    struct kv_model m = *s->model;
    struct kv_deploy d;
    struct sim_bench_setup bs = {
        .usage = SIM_USAGE_API_SERVER, .gpu = s->gpu, .max_concurrency = s->max_concurrency};
    struct sim_workload_spec w;
    struct sim_bench_why bw;
    unsigned maj = 0, min = 0;
    enum kvt_err e;

    /* cli_calc_setup: the defaults, the GPU preset, then the flags */
    kv_deploy_defaults(&d);
    kv_gpu_preset_apply(s->gpu, &d);
    if (sscanf(s->gpu->compute_cap, "%u.%u", &maj, &min) == 2)
        d.gpu_sm = maj * 10 + min;
    if (s->weights_dtype != KV_DTYPE_AUTO) {
        m.weights_dtype = s->weights_dtype;
        m.weights_gib = 0; /* estimated at the dtype, as --weights-dtype does */
    }
    if (s->util > 0)
        d.util = s->util;
    if (s->tp > 0)
        d.tp = s->tp;
    d.max_model_len = s->max_model_len;
    d.kv_dtype = s->kv_dtype;
    workload(s, s->request_rate, &w);
    if ((e = sim_bench_prepare(&m, &d, &bs, &w, b, &bw)) != KVT_E_OK)
        return say(s, b, &bw, e, why, cap);
    return KVT_E_OK;
}

/* Slices the trace into tl's columns: each step's running count and blocks
 * spread over the time it took. */
static void slice(const struct sim_run *run, uint64_t num_blocks, size_t columns,
                  struct tutor_sim_timeline *tl)
{
    double w;

    memset(tl, 0, sizeof *tl);
    tl->n = columns;
    tl->duration_s = run->duration_s;
    if (!(run->duration_s > 0))
        return;
    w = run->duration_s / (double)columns;
    for (size_t i = 0; i < run->ntrace; i++) {
        const struct sim_sample *s = &run->trace[i];
        double a = s->t, b = s->t + s->dt, kv = (double)s->blocks / (double)num_blocks;
        size_t col = (size_t)(a / w);
        for (; col < columns && a < b; col++) {
            double end = (double)(col + 1) * w, part = (b < end ? b : end) - a;
            if (col == columns - 1)
                part = b - a; /* rounding leaves the last step's tail here */
            else if (part < 0)
                part = 0; /* a/w rounded down past a slice's end: the next one */
            tl->kv[col] += kv * part;
            tl->running[col] += (double)s->running * part;
            a += part;
        }
    }
    for (size_t c = 0; c < columns; c++) {
        tl->kv[c] /= w;
        tl->running[c] /= w;
        if (tl->kv[c] > tl->kv_peak)
            tl->kv_peak = tl->kv[c];
        if (tl->running[c] > tl->running_peak)
            tl->running_peak = tl->running[c];
    }
}

static enum kvt_err run_at(const struct tutor_sim_setup *s, struct sim_bench *b, double rate,
                           struct sim_metrics *m, struct tutor_sim_timeline *tl, size_t columns,
                           char *why, size_t cap)
{
    struct sim_workload_spec w;
    struct sim_bench_why bw;
    struct sim_run run;
    enum kvt_err e;

    if (!(rate > 0))
        return fail(why, cap, KVT_E_RANGE, "the request rate must be above 0");
    workload(s, rate, &w);
    b->sc.trace = tl != NULL;
    if ((e = sim_bench_run(b, &w, m, tl ? &run : NULL, &bw)) != KVT_E_OK)
        return say(s, b, &bw, e, why, cap);
    if (tl) {
        slice(&run, b->sc.num_blocks, columns, tl);
        sim_run_free(&run);
    }
    return KVT_E_OK;
}

enum kvt_err tutor_sim_run(const struct tutor_sim_setup *s, struct tutor_sim_result *out,
                           struct tutor_sim_timeline *tl, size_t columns, char *why, size_t cap)
{
    struct sim_bench *p = malloc(sizeof *p); /* a kv_result is large: off the stack */
    enum kvt_err e;

    memset(out, 0, sizeof *out);
    if (!p)
        return fail(why, cap, KVT_E_NOMEM, "out of memory");
    if (tl && (columns == 0 || columns > TUTOR_SIM_COLUMNS))
        columns = columns ? TUTOR_SIM_COLUMNS : 1;
    e = prepare(s, p, why, cap);
    if (e == KVT_E_OK)
        e = run_at(s, p, s->request_rate, &out->m, tl, columns, why, cap);
    if (e == KVT_E_OK) {
        out->max_num_seqs = p->sc.max_num_seqs;
        out->max_num_batched_tokens = p->sc.max_num_batched_tokens;
        out->num_blocks = p->sc.num_blocks;
        out->block_size = p->sc.block_size;
        out->bandwidth_gbps = p->bandwidth_gbps;
        out->tflops = p->tflops;
    }
    free(p);
    return e;
}

/* The ladder: mantissas of a decade, the decades 0.1 .. 1,000. */
static const double mantissa[] = {1, 1.25, 1.5, 2, 2.5, 3, 4, 5, 6, 8};
#define N_MANT   (sizeof mantissa / sizeof mantissa[0])
#define LADDER_0 (-1)                    /* 10^-1 */
#define LADDER_N ((int)(4 * N_MANT + 1)) /* 0.1 .. 800, then 1,000 */

static double ladder(int i)
{
    return mantissa[i % (int)N_MANT] * pow(10, LADDER_0 + i / (int)N_MANT);
}

double tutor_sim_rate_step(double rate, bool up)
{
    int i;

    if (isinf(rate))
        return up ? rate : ladder(LADDER_N - 1);
    /* the first rung at or above the rate (a rounding's breadth of slack) */
    for (i = 0; i < LADDER_N && ladder(i) < rate * (1 - 1e-9); i++)
        ;
    if (up) {
        if (i < LADDER_N && ladder(i) <= rate * (1 + 1e-9))
            i++; /* on a rung: the next one */
        return i < LADDER_N ? ladder(i) : INFINITY;
    }
    return i > 0 ? ladder(i - 1) : ladder(0);
}

enum kvt_err tutor_sim_sweep(const struct tutor_sim_setup *s, struct tutor_sim_sweep *out,
                             char *why, size_t cap)
{
    struct sim_bench *p = malloc(sizeof *p);
    struct sim_metrics m;
    enum kvt_err e;
    int near = 0, first;

    memset(out, 0, sizeof *out);
    if (!p)
        return fail(why, cap, KVT_E_NOMEM, "out of memory");
    if ((e = prepare(s, p, why, cap)) != KVT_E_OK ||
        (e = run_at(s, p, INFINITY, &m, NULL, 0, why, cap)) != KVT_E_OK) {
        free(p);
        return e;
    }
    out->capacity = m.request_throughput;
    /* the rung nearest the capacity (in ratio), then 6 below and 2 above it */
    for (int i = 1; i < LADDER_N; i++)
        if (fabs(log(ladder(i) / out->capacity)) < fabs(log(ladder(near) / out->capacity)))
            near = i;
    first = near - (TUTOR_SIM_SWEEP - 3);
    if (first < 0)
        first = 0;
    if (first + TUTOR_SIM_SWEEP > LADDER_N)
        first = LADDER_N - TUTOR_SIM_SWEEP;
    for (int i = 0; i < TUTOR_SIM_SWEEP; i++) {
        struct tutor_sim_point *pt = &out->p[i];
        pt->rate = ladder(first + i);
        if ((e = run_at(s, p, pt->rate, &m, NULL, 0, why, cap)) != KVT_E_OK)
            break;
        pt->ttft_ms = m.ttft_ms;
        pt->tpot_ms = m.tpot_ms;
        pt->request_throughput = m.request_throughput;
        pt->limit = m.limit;
        out->n++;
    }
    free(p);
    return e;
}

const char *tutor_sim_limit_text(enum sim_limit l)
{
    switch (l) {
    case SIM_LIMIT_ARRIVALS:
        return "arrivals";
    case SIM_LIMIT_KV_BLOCKS:
        return "KV blocks";
    case SIM_LIMIT_MAX_NUM_SEQS:
        return "max_num_seqs";
    case SIM_LIMIT_TOKEN_BUDGET:
        return "the token budget";
    default:
        return "?";
    }
}

const char *tutor_sim_limit_key(enum sim_limit l)
{
    return sim_limit_name(l);
}

/* appends to buf, cut at cap */
static void add(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add(char *buf, size_t cap, const char *fmt, ...)
{
    size_t len = strlen(buf);
    va_list ap;
    if (len + 1 >= cap)
        return;
    va_start(ap, fmt);
    vsnprintf(buf + len, cap - len, fmt, ap);
    va_end(ap);
}

void tutor_sim_command(const struct tutor_sim_setup *s, const char *model_flags, char *buf,
                       size_t cap)
{
    const char *alias = s->gpu->aliases ? s->gpu->aliases : s->gpu->name;
    size_t alen = strcspn(alias, ",");
    char n[40];

    if (!cap)
        return;
    buf[0] = '\0';
    add(buf, cap, "kvtutor sim %s --gpu %.*s", model_flags, (int)alen, alias);
    if (s->max_model_len)
        add(buf, cap, " --max-model-len %llu", (unsigned long long)s->max_model_len);
    if (s->util > 0)
        add(buf, cap, " --util %s", kvt_fmt_shortest(s->util, n, sizeof n));
    if (s->tp > 1)
        add(buf, cap, " --tp %u", s->tp);
    if (s->kv_dtype != KV_DTYPE_AUTO)
        add(buf, cap, " --kv-dtype %s", kv_dtype_name(s->kv_dtype));
    if (s->weights_dtype != KV_DTYPE_AUTO)
        add(buf, cap, " --weights-dtype %s", kv_dtype_name(s->weights_dtype));
    add(buf, cap, " --input-len %llu --output-len %llu --num-prompts %llu",
        (unsigned long long)s->input_len, (unsigned long long)s->output_len,
        (unsigned long long)prompts(s));
    if (isinf(s->request_rate))
        add(buf, cap, " --request-rate inf");
    else
        add(buf, cap, " --request-rate %s", kvt_fmt_shortest(s->request_rate, n, sizeof n));
    if (s->max_concurrency)
        add(buf, cap, " --max-concurrency %llu", (unsigned long long)s->max_concurrency);
    if (s->seed)
        add(buf, cap, " --seed %llu", (unsigned long long)s->seed);
}
