/* A model checked and completed (kv_resolve.h). */
#include "kv_resolve.h"
#include "kv_moe.h"

enum kvt_err kv_resolve_model(struct kv_model *m, struct kv_check *c)
{
    enum kvt_err e;

    if (m->layers == 0)
        return kv_fail(c, KVT_E_MISSING, KV_FIELD_LAYERS, KV_FIELD_NONE);
    if (m->layers > KV_MAX_DIM)
        return kv_fail(c, KVT_E_RANGE, KV_FIELD_LAYERS, KV_FIELD_NONE);
    if (m->heads > KV_MAX_DIM)
        return kv_fail(c, KVT_E_RANGE, KV_FIELD_HEADS, KV_FIELD_NONE);
    if (m->kv_heads > KV_MAX_DIM)
        return kv_fail(c, KVT_E_RANGE, KV_FIELD_KV_HEADS, KV_FIELD_NONE);
    if (m->head_dim > KV_MAX_DIM)
        return kv_fail(c, KVT_E_RANGE, KV_FIELD_HEAD_DIM, KV_FIELD_NONE);
    if (m->hidden > KV_MAX_DIM)
        return kv_fail(c, KVT_E_RANGE, KV_FIELD_HIDDEN, KV_FIELD_NONE);
    if (m->mla_rank > KV_MAX_DIM)
        return kv_fail(c, KVT_E_RANGE, KV_FIELD_MLA_RANK, KV_FIELD_NONE);
    if (m->mla_rope_dim > KV_MAX_DIM)
        return kv_fail(c, KVT_E_RANGE, KV_FIELD_MLA_ROPE_DIM, KV_FIELD_NONE);
    if (m->sliding_window > KV_MAX_TOKENS)
        return kv_fail(c, KVT_E_RANGE, KV_FIELD_SLIDING_WINDOW, KV_FIELD_NONE);
    if (m->max_position > KV_MAX_TOKENS)
        return kv_fail(c, KVT_E_RANGE, KV_FIELD_MAX_MODEL_LEN, KV_FIELD_NONE);
    if (!(m->params_b >= 0.0 && m->params_b <= KV_MAX_PARAMS_B))
        return kv_fail(c, KVT_E_RANGE, KV_FIELD_PARAMS, KV_FIELD_NONE);
    if (!(m->active_params_b >= 0.0 && m->active_params_b <= KV_MAX_PARAMS_B))
        return kv_fail(c, KVT_E_RANGE, KV_FIELD_ACTIVE_PARAMS, KV_FIELD_NONE);
    if (kv_bad_gib(m->weights_gib))
        return kv_fail(c, KVT_E_RANGE, KV_FIELD_WEIGHTS_GIB, KV_FIELD_NONE);
    if (m->params_b > 0 && m->active_params_b > m->params_b)
        return kv_fail(c, KVT_E_CONFLICT, KV_FIELD_ACTIVE_PARAMS, KV_FIELD_PARAMS);
    if ((e = kv_moe_check(m, &c->bad, &c->other)) != KVT_E_OK)
        return e;

    if (m->dtype == KV_DTYPE_AUTO)
        m->dtype = KV_DTYPE_BF16;
    if (!kv_is_model_dtype(m->dtype))
        return kv_fail(c, KVT_E_RANGE, KV_FIELD_DTYPE, KV_FIELD_NONE);
    if (m->weights_dtype == KV_DTYPE_AUTO)
        m->weights_dtype = m->dtype;
    if ((unsigned)m->weights_dtype >= KV_DTYPE__COUNT)
        return kv_fail(c, KVT_E_RANGE, KV_FIELD_WEIGHTS_DTYPE, KV_FIELD_NONE);

    if (m->mla_rank > 0) {
        /* The latent replaces the K/V pair: a KV-head count would describe a
         * cache this model does not have. */
        if (m->kv_heads > 0)
            return kv_fail(c, KVT_E_CONFLICT, KV_FIELD_MLA_RANK, KV_FIELD_KV_HEADS);
        if (m->sliding_window > 0 || m->sliding_layers > 0)
            return kv_fail(c, KVT_E_CONFLICT, KV_FIELD_MLA_RANK, KV_FIELD_SLIDING_WINDOW);
    } else {
        if (m->mla_rope_dim > 0)
            return kv_fail(c, KVT_E_MISSING, KV_FIELD_MLA_RANK, KV_FIELD_MLA_ROPE_DIM);
        if (m->kv_heads == 0)
            m->kv_heads = m->heads; /* no KV-head count: plain multi-head attention */
        if (m->kv_heads == 0)
            return kv_fail(c, KVT_E_MISSING, KV_FIELD_KV_HEADS, KV_FIELD_NONE);
        if (m->heads > 0 && (m->kv_heads > m->heads || m->heads % m->kv_heads != 0))
            return kv_fail(c, KVT_E_GQA_RATIO, KV_FIELD_HEADS, KV_FIELD_KV_HEADS);
        if (m->head_dim == 0) {
            if (m->hidden == 0 || m->heads == 0)
                return kv_fail(c, KVT_E_MISSING, KV_FIELD_HEAD_DIM, KV_FIELD_NONE);
            if (m->hidden % m->heads != 0)
                return kv_fail(c, KVT_E_HEAD_DIM, KV_FIELD_HIDDEN, KV_FIELD_HEADS);
            m->head_dim = m->hidden / m->heads;
        }
    }

    if (m->state_layers > 0 || m->state_kind != KV_STATE_NONE) {
        const struct {
            uint32_t v;
            enum kv_field f;
        } need[] = {
            {m->ssm_heads, KV_FIELD_SSM_HEADS},     {m->ssm_head_dim, KV_FIELD_SSM_HEAD_DIM},
            {m->ssm_groups, KV_FIELD_SSM_GROUPS},   {m->ssm_state_dim, KV_FIELD_SSM_STATE_DIM},
            {m->conv_kernel, KV_FIELD_CONV_KERNEL}, {m->state_layers, KV_FIELD_STATE_LAYERS},
        };
        if (m->state_kind != KV_STATE_GDN && m->state_kind != KV_STATE_MAMBA2)
            return kv_fail(c, KVT_E_MISSING, KV_FIELD_STATE_LAYERS, KV_FIELD_NONE);
        for (size_t i = 0; i < sizeof need / sizeof need[0]; i++) {
            if (need[i].v == 0)
                return kv_fail(c, KVT_E_MISSING, need[i].f, KV_FIELD_NONE);
            if (need[i].v > KV_MAX_DIM)
                return kv_fail(c, KVT_E_RANGE, need[i].f, KV_FIELD_NONE);
        }
        /* an attention-free model has no KV cache to size */
        if (m->state_layers >= m->layers)
            return kv_fail(c, KVT_E_RANGE, KV_FIELD_STATE_LAYERS, KV_FIELD_LAYERS);
        if (m->ssm_dtype != KV_DTYPE_AUTO && !kv_is_model_dtype(m->ssm_dtype))
            return kv_fail(c, KVT_E_RANGE, KV_FIELD_DTYPE, KV_FIELD_NONE);
    }
    if (m->mtp_layers > KV_MAX_DIM || m->index_head_dim > KV_MAX_DIM)
        return kv_fail(c, KVT_E_RANGE, KV_FIELD_SPEC_LAYERS, KV_FIELD_NONE);
    if (m->index_head_dim > 0 && m->mla_rank == 0)
        return kv_fail(c, KVT_E_MISSING, KV_FIELD_MLA_RANK, KV_FIELD_NONE);

    if (m->sliding_layers > m->layers - m->state_layers)
        return kv_fail(c, KVT_E_SLIDING, KV_FIELD_SLIDING_LAYERS, KV_FIELD_LAYERS);
    if (m->sliding_layers > 0 && m->sliding_window == 0)
        return kv_fail(c, KVT_E_SLIDING, KV_FIELD_SLIDING_LAYERS, KV_FIELD_SLIDING_WINDOW);
    if (m->sliding_window > 0 && m->sliding_layers == 0)
        m->sliding_layers =
            m->layers - m->state_layers; /* a window, no split: all attention slides */
    return KVT_E_OK;
}
