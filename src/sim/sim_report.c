/* vLLM's benchmark metrics over a simulated run (sim_report.h). */
#include "sim_report.h"

#include <math.h>
#include <stdlib.h>

double sim_percentile(const double *sorted, size_t n, double p)
{
    double pos, frac;
    size_t lo;

    if (n == 0)
        return 0;
    pos = (double)(n - 1) * p / 100;
    lo = (size_t)floor(pos);
    if (lo >= n - 1)
        return sorted[n - 1];
    frac = pos - (double)lo;
    return sorted[lo] + (sorted[lo + 1] - sorted[lo]) * frac;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int cmp_gap(const void *a, const void *b)
{
    return cmp_double(&((const struct sim_gap *)a)->gap, &((const struct sim_gap *)b)->gap);
}

static struct sim_stat stat_of(double *v, size_t n)
{
    struct sim_stat s = {0, 0, 0};
    double sum = 0;

    if (n == 0)
        return s;
    for (size_t i = 0; i < n; i++)
        sum += v[i];
    qsort(v, n, sizeof *v, cmp_double);
    s.mean = sum / (double)n;
    s.median = sim_percentile(v, n, 50);
    s.p99 = sim_percentile(v, n, 99);
    return s;
}

static void swap_gap(struct sim_gap *a, struct sim_gap *b)
{
    struct sim_gap t = *a;
    *a = *b;
    *b = t;
}

static double median3(double a, double b, double c)
{
    if (a > b) {
        double t = a;
        a = b;
        b = t;
    }
    return c < a ? a : c > b ? b : c;
}

/* The smallest gap in g[from .. n). */
static double gap_min(const struct sim_gap *g, size_t from, size_t n)
{
    double m = g[from].gap;
    for (size_t i = from + 1; i < n; i++)
        if (g[i].gap < m)
            m = g[i].gap;
    return m;
}

/* The k-th and (k+1)-th smallest (from 0) of the gaps expanded by their
 * counts, k + 1 < the total, found by selection in place (g is reordered,
 * not sorted): a run of one request at a time gives a gap a step, and
 * sorting a few hundred thousand of them was most of what a lesson's
 * simulations cost. Three-way partitions around a median of three, so runs
 * of equal or ordered gaps stay linear; past a bound on passes (an input
 * that defeats the pivot) the rest of the range is sorted instead. Every
 * entry at or past `hi` is larger than all of g[lo .. hi), so the
 * (k+1)-th is the least of them once g[lo .. hi) runs out. */
static void gap_ranks(struct sim_gap *g, size_t n, uint64_t k, double *at, double *next)
{
    size_t lo = 0, hi = n;
    int passes = 0;

    while (hi - lo > 1) {
        double pivot;
        size_t lt = lo, i = lo, gt = hi;
        uint64_t below = 0, equal = 0;

        if (++passes > 128) {
            qsort(g + lo, hi - lo, sizeof *g, cmp_gap);
            for (i = lo; i + 1 < hi && k >= g[i].count; i++)
                k -= g[i].count;
            *at = g[i].gap;
            *next = k + 1 < g[i].count ? *at : gap_min(g, i + 1, n);
            return;
        }
        pivot = median3(g[lo].gap, g[lo + (hi - lo) / 2].gap, g[hi - 1].gap);
        while (i < gt) {
            if (g[i].gap < pivot) {
                below += g[i].count;
                swap_gap(&g[lt++], &g[i++]);
            } else if (g[i].gap > pivot) {
                swap_gap(&g[i], &g[--gt]);
            } else {
                equal += g[i++].count;
            }
        }
        if (k < below) {
            hi = lt;
        } else if (k < below + equal) {
            *at = pivot;
            *next = k + 1 < below + equal ? pivot : gap_min(g, gt, n);
            return;
        } else {
            k -= below + equal;
            lo = gt;
        }
    }
    *at = g[lo].gap;
    *next = k + 1 < g[lo].count ? *at : gap_min(g, lo + 1, n);
}

/* numpy.percentile over the expanded gaps (total of them). */
static double gap_percentile(struct sim_gap *g, size_t n, uint64_t total, double p)
{
    double pos = (double)(total - 1) * p / 100, a, b;
    uint64_t lo = (uint64_t)floor(pos);

    if (lo >= total - 1) { /* the largest */
        double m = g[0].gap;
        for (size_t i = 1; i < n; i++)
            if (g[i].gap > m)
                m = g[i].gap;
        return m;
    }
    gap_ranks(g, n, lo, &a, &b);
    return a + (b - a) * (pos - (double)lo);
}

static enum kvt_err itl_stat(const struct sim_run *r, struct sim_stat *s)
{
    struct sim_gap *g;
    uint64_t total = 0;
    double sum = 0;

    s->mean = s->median = s->p99 = 0;
    if (r->ngaps == 0)
        return KVT_E_OK;
    if (!(g = malloc(r->ngaps * sizeof *g)))
        return KVT_E_NOMEM;
    for (size_t i = 0; i < r->ngaps; i++) {
        g[i] = r->gaps[i];
        total += g[i].count;
        sum += g[i].gap * (double)g[i].count;
    }
    s->mean = sum / (double)total * 1000;
    s->median = gap_percentile(g, r->ngaps, total, 50) * 1000;
    s->p99 = gap_percentile(g, r->ngaps, total, 99) * 1000;
    free(g);
    return KVT_E_OK;
}

enum kvt_err sim_report(const struct sim_run *r, struct sim_metrics *m)
{
    double *ttft = malloc((r->n ? r->n : 1) * sizeof *ttft);
    double *tpot = malloc((r->n ? r->n : 1) * sizeof *tpot);
    double *e2el = malloc((r->n ? r->n : 1) * sizeof *e2el);
    size_t ntpot = 0;
    enum kvt_err err = KVT_E_NOMEM;

    *m = (struct sim_metrics){0};
    if (!ttft || !tpot || !e2el)
        goto out;
    for (uint64_t i = 0; i < r->n; i++) {
        const struct sim_outcome *o = &r->req[i];
        double first = o->first_token - o->send, all = o->finish - o->send;
        ttft[i] = first * 1000;
        e2el[i] = all * 1000;
        if (o->output_len > 1)
            tpot[ntpot++] = (all - first) / (o->output_len - 1) * 1000;
        m->total_input += o->input_len;
        m->total_output += o->output_len;
    }
    m->completed = r->n;
    m->duration_s = r->duration_s;
    if (r->duration_s > 0) {
        m->request_throughput = (double)r->n / r->duration_s;
        m->output_throughput = (double)m->total_output / r->duration_s;
        m->total_token_throughput = (double)(m->total_input + m->total_output) / r->duration_s;
        m->mean_running = r->running_s / r->duration_s;
    }
    m->ttft_ms = stat_of(ttft, r->n);
    m->tpot_ms = stat_of(tpot, ntpot);
    m->e2el_ms = stat_of(e2el, r->n);
    if ((err = itl_stat(r, &m->itl_ms)) != KVT_E_OK)
        goto out;

    m->preemptions = r->preemptions;
    m->prefix_caching = r->prefix_caching;
    m->resume_hit_tokens = r->resume_hit_tokens;
    m->max_running = r->max_running;
    m->steps = r->steps;
    m->peak_blocks = r->peak_blocks;
    m->num_blocks = r->num_blocks;
    m->peak_kv_usage = r->num_blocks ? (double)r->peak_blocks / (double)r->num_blocks : 0;
    m->limit = SIM_LIMIT_ARRIVALS;
    for (int l = 0; l < SIM_LIMIT__COUNT; l++)
        if (r->limit_s[l] > r->limit_s[m->limit])
            m->limit = (enum sim_limit)l;
    m->limit_share = r->busy_s > 0 ? r->limit_s[m->limit] / r->busy_s : 0;
    if (r->steps) {
        double k = 1000.0 / (double)r->steps;
        m->step_ms = r->busy_s * k;
        m->memory_ms = r->memory_s * k;
        m->compute_ms = r->compute_s * k;
        m->comm_ms = r->comm_s * k;
        m->overhead_ms = r->overhead_s * k;
        m->memory_bound_share = (double)r->memory_bound_steps / (double)r->steps;
    }
    err = KVT_E_OK;
out:
    free(ttft);
    free(tpot);
    free(e2el);
    return err;
}
