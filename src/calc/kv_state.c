#include "kv_state.h"

static bool mul(uint64_t a, uint64_t b, uint64_t *r)
{
    return !__builtin_mul_overflow(a, b, r);
}

enum kvt_err kv_state_shape(const struct kv_model *m, uint32_t tp, uint32_t spec_tokens,
                            unsigned conv_elem_bytes, unsigned ssm_elem_bytes,
                            struct kv_state_shape *out, enum kv_field *bad)
{
    uint64_t groups = m->ssm_groups, heads = m->ssm_heads, channels, taps, a, b;

    *out = (struct kv_state_shape){0, 0, 0};
    if (heads % tp != 0) {
        *bad = KV_FIELD_SSM_HEADS;
        return KVT_E_TP_HEADS;
    }
    /* all factors are at most 2^20, so the sums and two-factor products fit */
    if (m->state_kind == KV_STATE_GDN) {
        if (groups % tp != 0) {
            *bad = KV_FIELD_SSM_GROUPS;
            return KVT_E_TP_HEADS;
        }
        channels = 2 * groups * m->ssm_state_dim + heads * m->ssm_head_dim;
    } else {
        /* vLLM's extra_groups_for_head_shards: groups TP cannot split are
         * replicated so every rank holds one */
        if (groups % tp != 0)
            groups = tp;
        channels = heads * m->ssm_head_dim + 2 * groups * m->ssm_state_dim;
    }
    if (channels % tp != 0) {
        *bad = KV_FIELD_SSM_HEAD_DIM;
        return KVT_E_TP_HEADS;
    }
    taps = (uint64_t)m->conv_kernel - 1 + spec_tokens;
    if (!mul(taps, channels / tp, &a) || !mul(a, conv_elem_bytes, &out->conv_bytes) ||
        !mul(heads / tp, (uint64_t)m->ssm_state_dim * m->ssm_head_dim, &b) ||
        !mul(b, ssm_elem_bytes, &out->ssm_bytes) ||
        __builtin_add_overflow(out->conv_bytes, out->ssm_bytes, &out->layer_bytes)) {
        *bad = KV_FIELD_SSM_STATE_DIM;
        return KVT_E_OVERFLOW;
    }
    return KVT_E_OK;
}

uint32_t kv_state_group_size(enum kv_group_rule rule, const uint32_t *buckets, size_t n)
{
    uint32_t lo = 0, hi = 0;
    bool take_hi = false;

    for (size_t i = 0; i < n; i++) {
        if (buckets[i] == 0)
            continue;
        if (lo == 0 || buckets[i] < lo)
            lo = buckets[i];
        if (buckets[i] > hi)
            hi = buckets[i];
    }
    /* hi < 1.25 lo and hi < 1.5 lo, kept in integers */
    if (rule == KV_GROUP_MAX_125)
        take_hi = (uint64_t)hi * 4 < (uint64_t)lo * 5;
    else if (rule == KV_GROUP_MAX_150)
        take_hi = (uint64_t)hi * 2 < (uint64_t)lo * 3;
    return take_hi ? hi : lo;
}
