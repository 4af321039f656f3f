/* The weight bytes a step reads (kv_moe.h states the rule). */
#include "kv_moe.h"

#include <math.h>

double kv_moe_touched_share(uint32_t experts, uint32_t per_token, double tokens)
{
    if (experts == 0 || per_token >= experts)
        return 1.0;
    if (tokens < 1)
        tokens = 1;
    return 1.0 - pow(1.0 - (double)per_token / experts, tokens);
}

void kv_moe_split(const struct kv_result *r, struct kv_moe_split *s)
{
    const struct kv_model *m = &r->model;
    double total = (double)r->weights_bytes_total, active = (double)r->active_weight_bytes;

    s->moe = r->has_weights && active > 0 && active < total;
    s->experts_known =
        s->moe && m->experts >= 2 && m->experts_per_token >= 1 && m->experts_per_token < m->experts;
    s->experts = s->experts_known ? m->experts : 0;
    s->per_token = s->experts_known ? m->experts_per_token : 0;
    s->active_share = s->moe ? active / total : 1;
    if (!s->moe) {
        s->shared_bytes = active;
        s->experts_bytes = 0;
    } else if (s->experts_known) {
        double k_share = (double)m->experts_per_token / m->experts;
        s->experts_bytes = (total - active) / (1.0 - k_share);
        /* a total and an active count that no split reproduces (the experts
         * would outweigh the model): every weight counts as routed */
        if (s->experts_bytes > total)
            s->experts_bytes = total;
        s->shared_bytes = total - s->experts_bytes;
    } else {
        s->shared_bytes = 0;
        s->experts_bytes = total;
    }
}

double kv_moe_read_bytes(const struct kv_moe_split *s, double tokens)
{
    if (!s->moe)
        return s->shared_bytes;
    if (tokens < 1)
        tokens = 1;
    if (s->experts_known)
        return s->shared_bytes +
               s->experts_bytes * kv_moe_touched_share(s->experts, s->per_token, tokens);
    /* unknown experts: each token's active share drawn from the whole model */
    return s->experts_bytes * (1.0 - pow(1.0 - s->active_share, tokens));
}

double kv_calc_weight_read_bytes(const struct kv_result *r, double tokens)
{
    struct kv_moe_split s;

    kv_moe_split(r, &s);
    return kv_moe_read_bytes(&s, tokens);
}

enum kvt_err kv_moe_check(const struct kv_model *m, enum kv_field *bad, enum kv_field *other)
{
    *other = KV_FIELD_NONE;
    if (m->experts == 0 && m->experts_per_token == 0)
        return KVT_E_OK;
    if (m->experts == 0 || m->experts_per_token == 0) {
        *bad = m->experts == 0 ? KV_FIELD_EXPERTS : KV_FIELD_EXPERTS_PER_TOKEN;
        *other = m->experts == 0 ? KV_FIELD_EXPERTS_PER_TOKEN : KV_FIELD_EXPERTS;
        return KVT_E_MISSING;
    }
    if (m->experts < 2 || m->experts > KV_MAX_DIM) {
        *bad = KV_FIELD_EXPERTS;
        return KVT_E_RANGE;
    }
    if (m->experts_per_token >= m->experts) {
        *bad = KV_FIELD_EXPERTS_PER_TOKEN;
        *other = KV_FIELD_EXPERTS;
        return KVT_E_CONFLICT;
    }
    /* experts given: the active parameters must be fewer than the total */
    if (m->params_b > 0 && m->active_params_b > 0 && !(m->active_params_b < m->params_b)) {
        *bad = KV_FIELD_ACTIVE_PARAMS;
        *other = KV_FIELD_EXPERTS;
        return KVT_E_CONFLICT;
    }
    return KVT_E_OK;
}
