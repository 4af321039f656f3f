#include "kv_decode.h"
#include "kv_moe.h"

#include <math.h>

/* Checked arithmetic, as in kv_calc.c: an absurd context becomes UINT64_MAX. */
static bool mul(uint64_t a, uint64_t b, uint64_t *r)
{
    return !__builtin_mul_overflow(a, b, r);
}

static bool add(uint64_t a, uint64_t b, uint64_t *r)
{
    return !__builtin_add_overflow(a, b, r);
}

uint64_t kv_calc_kv_read_bytes(const struct kv_result *r, uint64_t context)
{
    uint64_t window = r->model.sliding_window;
    uint64_t seen = (r->sliding_layers > 0 && window < context) ? window : context;
    uint64_t a, b, tokens_layers, per_gpu, total;

    /* a recurrent layer reads its whole state each step, whatever the context */
    if (!mul(r->full_layers, context, &a) || !mul(r->sliding_layers, seen, &b) ||
        !add(a, b, &tokens_layers) || !mul(tokens_layers, r->layer_token_bytes, &per_gpu) ||
        !mul(per_gpu, r->deploy.tp, &total) || !add(total, r->state_bytes_per_request, &total))
        return UINT64_MAX;
    return total;
}

bool kv_calc_decode_at(const struct kv_result *r, uint64_t batch, uint64_t context,
                       double *tokens_per_s)
{
    uint64_t kv = kv_calc_kv_read_bytes(r, context);
    double bytes, step;

    if (r->deploy.bandwidth_gbps <= 0 || r->active_weight_bytes == 0 || kv == UINT64_MAX)
        return false;
    /* Each GPU reads its share of the weights the batch touches and the KV
     * it holds, all at once. */
    bytes = kv_calc_weight_read_bytes(r, (double)batch) + (double)batch * (double)kv;
    step = bytes / ((double)r->deploy.tp * r->deploy.bandwidth_gbps * 1e9);
    *tokens_per_s = (double)batch / step;
    return true;
}

/* The contract's fit check: when the memory is known, the weights must leave
 * KV blocks, and those must hold batch x (context + 1) tokens (the next token
 * of each sequence too). */
static enum kv_decode_reason fits(const struct kv_result *r)
{
    uint64_t need;

    if (r->reason == KV_REASON_WEIGHTS_DONT_FIT)
        return KV_DECODE_WEIGHTS_DONT_FIT;
    if (!r->has_blocks)
        return KV_DECODE_FITS; /* memory unknown: no check */
    if (!add(r->deploy.context, 1, &need) || !mul(need, r->deploy.batch, &need) ||
        need > r->kv_tokens)
        return KV_DECODE_KV_DOESNT_FIT;
    return KV_DECODE_FITS;
}

/* Compute time minus memory time of one step of `batch`, per GPU x tp. */
static double gap(const struct kv_result *r, double per_token_s, double bw, uint64_t batch)
{
    double b = (double)batch;
    return per_token_s * b -
           (kv_calc_weight_read_bytes(r, b) + b * (double)r->decode_kv_read_bytes) / bw;
}

/* A MoE's weight read grows with the batch (kv_moe.h), so the closed form
 * below does not hold. The gap is convex in the batch (the weight read is
 * concave) and negative at 0, so it crosses zero once if ever: doubling,
 * then bisection, finds the first whole batch past it. */
static void moe_crossover(struct kv_result *r, double per_token_s, double bw)
{
    uint64_t lo = 0, hi = 1;

    /* the weight read stops growing, so the slopes decide: never */
    if (!(per_token_s - (double)r->decode_kv_read_bytes / bw > 0))
        return;
    while (gap(r, per_token_s, bw, hi) < 0) {
        if (hi > (uint64_t)4.5e15)
            return;
        lo = hi;
        hi *= 2;
    }
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (gap(r, per_token_s, bw, mid) < 0)
            lo = mid;
        else
            hi = mid;
    }
    r->compute_bound_ever = true;
    r->compute_bound_batch = hi;
}

enum kvt_err kv_decode(struct kv_result *r)
{
    const struct kv_model *m = &r->model;
    const struct kv_deploy *d = &r->deploy;
    double active_b = m->active_params_b > 0 ? m->active_params_b : m->params_b;
    double bw, flop_s;
    struct kv_moe_split moe;

    kv_moe_split(r, &moe);
    r->decode_weight_read_bytes = kv_calc_weight_read_bytes(r, (double)d->batch);
    r->decode_experts_touched =
        moe.experts_known ? kv_moe_touched_share(m->experts, m->experts_per_token, (double)d->batch)
                          : 0;
    r->decode_kv_read_bytes = kv_calc_kv_read_bytes(r, d->context);
    if (r->decode_kv_read_bytes == UINT64_MAX)
        return KVT_E_OVERFLOW;
    if (d->tflops > 0 && active_b > 0) {
        /* 2 FLOPs per active parameter per token; tp GPUs share the work */
        r->has_compute = true;
        r->decode_tokens_per_s_compute = (double)d->tp * d->tflops * 1e12 / (2.0 * active_b * 1e9);
        r->decode_compute_step_s = (double)d->batch / r->decode_tokens_per_s_compute;
    }
    if (!kv_calc_decode_at(r, d->batch, d->context, &r->decode_tokens_per_s_memory))
        return KVT_E_OK;
    r->has_decode = true;
    r->decode_step_s = (double)d->batch / r->decode_tokens_per_s_memory;
    r->has_bound = r->has_compute;
    r->compute_bound =
        r->has_bound && r->decode_tokens_per_s_compute < r->decode_tokens_per_s_memory;
    r->decode_reason = fits(r);
    if (r->decode_reason == KV_DECODE_FITS) {
        r->has_ceiling = true;
        r->decode_tokens_per_s =
            r->compute_bound ? r->decode_tokens_per_s_compute : r->decode_tokens_per_s_memory;
        r->decode_tokens_per_s_seq = r->decode_tokens_per_s / (double)d->batch;
    }
    if (!r->has_bound)
        return KVT_E_OK;
    /* Roofline: both sides divide by tp, so the crossover batch B* solves
     * 2 P B / F = (W + B k) / bw  =>  B* = (W / bw) / (2 P / F - k / bw). */
    bw = d->bandwidth_gbps * 1e9;
    flop_s = d->tflops * 1e12;
    if (moe.moe) {
        moe_crossover(r, 2.0 * active_b * 1e9 / flop_s, bw);
        return KVT_E_OK;
    }
    {
        double per_batch = 2.0 * active_b * 1e9 / flop_s - (double)r->decode_kv_read_bytes / bw;
        if (per_batch > 0) {
            double star = ((double)r->active_weight_bytes / bw) / per_batch;
            if (star < 9.0e15) {
                r->compute_bound_ever = true;
                r->compute_bound_batch = star < 1.0 ? 1 : (uint64_t)ceil(star);
            }
        }
    }
    return KVT_E_OK;
}
