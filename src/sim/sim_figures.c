/* A run's figures by name (sim_figures.h). */
#include "sim_figures.h"

#include <string.h>

struct sink {
    struct kv_figure *out;
    size_t n, cap;
};

static void put(struct sink *s, const char *name, enum kv_figure_kind kind, double r, uint64_t i,
                const char *t)
{
    struct kv_figure f = {.name = name, .kind = kind};

    if (s->n >= s->cap)
        return;
    if (kind == KV_FIG_INT)
        f.v.i = i;
    else if (kind == KV_FIG_REAL)
        f.v.r = r;
    else
        f.v.t = t;
    s->out[s->n++] = f;
}

#define REAL(s, name, x) put(s, name, KV_FIG_REAL, (x), 0, NULL)
#define INT(s, name, x)  put(s, name, KV_FIG_INT, 0, (uint64_t)(x), NULL)
#define TEXT(s, name, x) put(s, name, KV_FIG_TEXT, 0, 0, (x))

/* mean_, median_ and p99_<key>_ms: serve.py's names */
static void stat(struct sink *s, const char *const names[3], const struct sim_stat *st)
{
    REAL(s, names[0], st->mean);
    REAL(s, names[1], st->median);
    REAL(s, names[2], st->p99);
}

size_t sim_figures(const struct sim_bench *b, const struct sim_metrics *m, const char *mode,
                   struct kv_figure *out, size_t cap)
{
    static const char *const ttft[] = {"mean_ttft_ms", "median_ttft_ms", "p99_ttft_ms"};
    static const char *const tpot[] = {"mean_tpot_ms", "median_tpot_ms", "p99_tpot_ms"};
    static const char *const itl[] = {"mean_itl_ms", "median_itl_ms", "p99_itl_ms"};
    static const char *const e2el[] = {"mean_e2el_ms", "median_e2el_ms", "p99_e2el_ms"};
    struct sink s = {out, 0, cap};

    TEXT(&s, "mode", mode);
    REAL(&s, "duration_s", m->duration_s);
    INT(&s, "completed", m->completed);
    INT(&s, "total_input_tokens", m->total_input);
    INT(&s, "total_output_tokens", m->total_output);
    REAL(&s, "request_throughput", m->request_throughput);
    REAL(&s, "output_throughput", m->output_throughput);
    REAL(&s, "total_token_throughput", m->total_token_throughput);
    stat(&s, ttft, &m->ttft_ms);
    stat(&s, tpot, &m->tpot_ms);
    stat(&s, itl, &m->itl_ms);
    stat(&s, e2el, &m->e2el_ms);
    if (strcmp(mode, "latency") == 0)
        REAL(&s, "avg_latency_s", m->duration_s);
    INT(&s, "preemptions", m->preemptions);
    /* "on": modelled; "off": turned off; "unmodelled": on in vLLM, but this
     * model's KV groups are not modelled, so a resumed request recomputes all */
    TEXT(&s, "prefix_caching",
         m->prefix_caching      ? "on"
         : b->sc.prefix_caching ? "unmodelled"
                                : "off");
    INT(&s, "resume_hit_tokens", m->resume_hit_tokens);
    REAL(&s, "peak_kv_usage", m->peak_kv_usage);
    INT(&s, "max_running", m->max_running);
    REAL(&s, "mean_running", m->mean_running);
    INT(&s, "steps", m->steps);
    TEXT(&s, "limit", sim_limit_name(m->limit));
    REAL(&s, "limit_share", m->limit_share);
    REAL(&s, "step_ms", m->step_ms);
    REAL(&s, "memory_ms", m->memory_ms);
    REAL(&s, "compute_ms", m->compute_ms);
    REAL(&s, "comm_ms", m->comm_ms);
    REAL(&s, "overhead_ms", m->overhead_ms);
    INT(&s, "max_num_seqs", b->sc.max_num_seqs);
    INT(&s, "max_num_batched_tokens", b->sc.max_num_batched_tokens);
    INT(&s, "num_gpu_blocks", b->sc.num_blocks);
    INT(&s, "block_size", b->sc.block_size);
    REAL(&s, "bandwidth_gbps", b->bandwidth_gbps);
    REAL(&s, "tflops", b->tflops);
    return s.n;
}
