/* The random dataset and the request timings of vLLM's serving benchmark. */
#include "sim_workload.h"

#include <math.h>

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

void sim_rng_seed(struct sim_rng *r, uint64_t seed)
{
    /* splitmix64 never yields four zero words in a row: xoshiro's one bad state */
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t sim_rng_next(struct sim_rng *r)
{
    uint64_t *s = r->s;
    uint64_t out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return out;
}

double sim_rng_uniform(struct sim_rng *r)
{
    return (double)(sim_rng_next(r) >> 11) * 0x1.0p-53;
}

uint64_t sim_rng_between(struct sim_rng *r, uint64_t lo, uint64_t hi)
{
    uint64_t span = hi - lo, x, limit;

    if (span == UINT64_MAX)
        return sim_rng_next(r);
    span++;
    /* reject the top partial copy of [0, span) so every value is equally likely */
    limit = UINT64_MAX - UINT64_MAX % span;
    do
        x = sim_rng_next(r);
    while (x >= limit);
    return lo + x % span;
}

/* Standard normal by Marsaglia's polar method (the second value dropped:
 * simpler, and the stream stays a function of the seed alone). */
static double normal(struct sim_rng *r)
{
    double u, v, s;
    do {
        u = 2 * sim_rng_uniform(r) - 1;
        v = 2 * sim_rng_uniform(r) - 1;
        s = u * u + v * v;
    } while (s >= 1 || s == 0);
    return u * sqrt(-2 * log(s) / s);
}

double sim_rng_gamma(struct sim_rng *r, double shape, double scale)
{
    double d, c, x, v, u;

    if (shape < 1) {
        /* Gamma(a) = Gamma(a + 1) x U^(1/a) */
        double g = sim_rng_gamma(r, shape + 1, 1);
        do
            u = sim_rng_uniform(r);
        while (u == 0);
        return g * pow(u, 1 / shape) * scale;
    }
    d = shape - 1.0 / 3;
    c = 1 / sqrt(9 * d);
    for (;;) {
        do {
            x = normal(r);
            v = 1 + c * x;
        } while (v <= 0);
        v = v * v * v;
        u = sim_rng_uniform(r);
        if (u < 1 - 0.0331 * x * x * x * x)
            return d * v * scale;
        if (u > 0 && log(u) < 0.5 * x * x + d * (1 - v + log(v)))
            return d * v * scale;
    }
}

static uint64_t low_of(uint64_t len, double ratio)
{
    return (uint64_t)floor((double)len * (1 - ratio));
}

static uint64_t high_of(uint64_t len, double ratio)
{
    return (uint64_t)ceil((double)len * (1 + ratio));
}

uint64_t sim_workload_max_input(const struct sim_workload_spec *w)
{
    return high_of(w->input_len, w->range_ratio);
}

uint64_t sim_workload_max_output(const struct sim_workload_spec *w)
{
    return high_of(w->output_len, w->range_ratio);
}

static bool is_inf_rate(double rate)
{
    return rate == 0 || isinf(rate);
}

enum kvt_err sim_workload_make(const struct sim_workload_spec *w, struct sim_request *out)
{
    struct sim_rng rng;
    uint64_t in_lo, in_hi, out_lo, out_hi, n = w->num_prompts;
    double shape = w->burstiness == 0 ? 1 : w->burstiness, t = 0;

    if (n == 0 || n > SIM_MAX_PROMPTS || w->input_len == 0 || w->output_len == 0 ||
        !(w->range_ratio >= 0 && w->range_ratio < 1) || !(shape > 0) || isnan(w->request_rate) ||
        w->request_rate < 0 || !isfinite(shape))
        return KVT_E_RANGE;
    in_lo = low_of(w->input_len, w->range_ratio);
    in_hi = high_of(w->input_len, w->range_ratio);
    out_lo = low_of(w->output_len, w->range_ratio);
    out_hi = high_of(w->output_len, w->range_ratio);
    if (in_lo == 0)
        in_lo = 1; /* a prompt of no tokens is not a request */
    if (out_lo == 0)
        out_lo = 1; /* datasets.py: "at least 1 to prevent sampling 0 tokens" */
    if (in_hi > SIM_MAX_LEN || out_hi > SIM_MAX_LEN)
        return KVT_E_RANGE;

    sim_rng_seed(&rng, w->seed);
    /* lengths first, then gaps, as the dataset is drawn before the client runs */
    for (uint64_t i = 0; i < n; i++) {
        out[i].input_len = (uint32_t)sim_rng_between(&rng, in_lo, in_hi);
        out[i].output_len = (uint32_t)sim_rng_between(&rng, out_lo, out_hi);
    }
    for (uint64_t i = 0; i < n; i++) {
        if (!is_inf_rate(w->request_rate))
            t += sim_rng_gamma(&rng, shape, 1 / (w->request_rate * shape));
        out[i].arrival = t;
    }
    if (!is_inf_rate(w->request_rate) && t > 0) {
        double k = ((double)n / w->request_rate) / t;
        for (uint64_t i = 0; i < n; i++)
            out[i].arrival *= k;
    }
    return KVT_E_OK;
}
