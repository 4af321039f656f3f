/* Parameters counted from a config.json's shapes, layer by layer as vLLM
 * builds the model (docs/calculator.md, "Parameter counts from a
 * config.json"). */
#include "hf_config_priv.h"

#include <string.h>

/* One MLA layer's attention weights (vllm/model_executor/models/deepseek_v2.py,
 * DeepseekV2MLAAttention, and the Indexer of DeepSeek-V3.2): q through a
 * low-rank q_a (+ its norm) and q_b, or a plain q_proj; the latent's
 * kv_a_proj_with_mqa (+ its norm) and kv_b_proj; o_proj; the indexer's wq_b,
 * its fused wk + weights_proj and its LayerNorm (weight and bias). 0 when a
 * size is missing. */
static double mla_attention(const struct hf_src *s, const struct kv_model *m, enum kvt_err *e)
{
    uint64_t qr = 0, nope = 0, v = 0, idx_heads = 0;
    bool has_nope, has_v, has_idx;
    double h = m->hidden, heads = m->heads, rank = m->mla_rank, rope = m->mla_rope_dim, q, total;

    if ((*e = hf_get_uint(s, "q_lora_rank", KV_MAX_DIM, &qr, NULL)) ||
        (*e = hf_get_uint(s, "qk_nope_head_dim", KV_MAX_DIM, &nope, &has_nope)) ||
        (*e = hf_get_uint(s, "v_head_dim", KV_MAX_DIM, &v, &has_v)) ||
        (*e = hf_get_uint(s, "index_n_heads", KV_MAX_DIM, &idx_heads, &has_idx)))
        return 0;
    if (!has_nope || !has_v)
        return 0;
    q = heads * (double)(nope + m->mla_rope_dim);
    total = qr > 0 ? h * (double)qr + (double)qr + (double)qr * q : h * q;
    total += h * (rank + rope) + rank + rank * heads * (double)(nope + v) + heads * (double)v * h;
    if (m->index_head_dim > 0) {
        double d = m->index_head_dim;
        if (!has_idx || qr == 0)
            return 0;
        total += (double)qr * (double)idx_heads * d + h * (d + (double)idx_heads) + 2 * d;
    }
    return total;
}

/* One gated-delta-net layer's weights (vllm/model_executor/layers/mamba/gdn/
 * qwen_gdn_linear_attn.py, QwenGatedDeltaNetAttention): in_proj_qkvz (q, k of
 * the key width, v, z of the value width), in_proj_ba (one b and one a a value
 * head), the depthwise conv over q, k and v (conv_kernel taps, no bias),
 * dt_bias and A_log a value head, the gated norm of one value head, out_proj. */
static double gdn_layer(const struct kv_model *m)
{
    double h = m->hidden, kd = (double)m->ssm_groups * m->ssm_state_dim,
           vd = (double)m->ssm_heads * m->ssm_head_dim, nv = m->ssm_heads;
    return h * (2 * kd + 2 * vd) + h * 2 * nv + (2 * kd + vd) * m->conv_kernel + 2 * nv +
           m->ssm_head_dim + vd * h;
}

/* Parameter count from the shapes: embeddings (twice when untied), attention
 * projections (+ Qwen2's QKV bias, Qwen3's q/k norms, Qwen3-Next's and
 * Qwen3.5's output gate; MLA's low-rank projections and DeepSeek-V3.2's
 * indexer), gated-delta-net layers in place of attention where the config
 * says, the MLP or the experts with their router (and DeepSeek's first dense
 * layers, shared experts and routing bias; Qwen's shared expert and its
 * gate), two norms per layer and a final one. MTP layers and vision towers
 * are not counted (vLLM loads an MTP layer only as a draft). MoE active =
 * total less the experts a token skips. Mamba2 layers are not counted. */
enum kvt_err hf_params_count(const struct hf_src *s, struct kv_model *m,
                             struct hf_config_info *info)
{
    uint64_t vocab = 0, inter = 0, moe_inter = 0, experts = 0, topk = 0, shared_inter = 0,
             n_shared = 0, first_dense = 0, moe_freq = 1;
    bool has_vocab, has_inter, has_moe_inter, has_experts = false, has_topk;
    const char *experts_keys[] = {"num_local_experts", "num_experts", "n_routed_experts"};
    const char *type = info->model_type, *topk_method = hf_get_str(s, "topk_method");
    bool deepseek = strncmp(type, "deepseek", 8) == 0;
    bool gated = strncmp(type, "qwen3_next", 10) == 0 || strncmp(type, "qwen3_5", 7) == 0;
    double h = m->hidden, q = (double)m->heads * m->head_dim,
           kv = (double)m->kv_heads * m->head_dim;
    double attn, dense_mlp, moe_mlp = 0, per_expert = 0, total, active;
    uint32_t attn_layers = m->layers - m->state_layers, moe_layers = 0;
    enum kvt_err e = KVT_E_OK;

    /* Mamba2 layouts are not counted; nor a model whose layers share KV */
    if (m->hidden == 0 || m->heads == 0 || info->kv_shared || m->state_kind == KV_STATE_MAMBA2)
        return KVT_E_OK;
    /* a per-layer list (MiMo's moe_layer_freq) is a layout not counted here */
    if (hf_field(s, "moe_layer_freq") && !json_is_integer(hf_field(s, "moe_layer_freq")))
        return KVT_E_OK;
    if ((e = hf_get_uint(s, "vocab_size", KV_MAX_TOKENS, &vocab, &has_vocab)) ||
        (e = hf_get_uint(s, "intermediate_size", KV_MAX_TOKENS, &inter, &has_inter)) ||
        (e = hf_get_uint(s, "moe_intermediate_size", KV_MAX_TOKENS, &moe_inter, &has_moe_inter)) ||
        (e = hf_get_uint(s, "num_experts_per_tok", KV_MAX_DIM, &topk, &has_topk)) ||
        (e = hf_get_uint(s, "shared_expert_intermediate_size", KV_MAX_TOKENS, &shared_inter,
                         NULL)) ||
        (e = hf_get_uint(s, "n_shared_experts", KV_MAX_DIM, &n_shared, NULL)) ||
        (e = hf_get_uint(s, "first_k_dense_replace", KV_MAX_DIM, &first_dense, NULL)) ||
        (e = hf_get_uint(s, "moe_layer_freq", KV_MAX_DIM, &moe_freq, NULL)))
        return e;
    for (size_t i = 0; i < 3 && !has_experts; i++)
        if ((e = hf_get_uint(s, experts_keys[i], KV_MAX_DIM, &experts, &has_experts)))
            return e;
    /* a MoE model may give only the experts' width */
    if (!has_vocab || (!has_inter && !(has_experts && experts > 1 && has_moe_inter)))
        return KVT_E_OK;

    if (m->mla_rank > 0) {
        attn = mla_attention(s, m, &e);
        if (e || attn == 0)
            return e;
    } else {
        attn = h * q + 2 * h * kv + q * h;
        if (gated && hf_get_bool(s, "attn_output_gate", true))
            attn += h * q; /* the gate doubles q_proj's rows */
        if (strcmp(type, "qwen2") == 0 || strcmp(type, "qwen2_moe") == 0)
            attn += q + 2 * kv;
        else if (hf_get_bool(s, "attention_bias", false))
            attn += q + 2 * kv + h;
        if (strncmp(type, "qwen3", 5) == 0)
            attn += 2.0 * m->head_dim; /* q_norm and k_norm */
    }
    dense_mlp = 3 * h * (double)inter;
    if (has_experts && experts > 1) {
        per_expert = 3 * h * (double)(has_moe_inter ? moe_inter : inter);
        moe_mlp = (double)experts * per_expert + h * (double)experts;
        moe_mlp += 3 * h * (double)shared_inter + (double)n_shared * per_expert;
        if (shared_inter > 0 && gated)
            moe_mlp += h; /* shared_expert_gate */
        if (topk_method ? strcmp(topk_method, "noaux_tc") == 0
                        : strcmp(type, "deepseek_v3") == 0 || strcmp(type, "deepseek_v32") == 0)
            moe_mlp += (double)experts; /* e_score_correction_bias */
        for (uint32_t i = 0; i < m->layers; i++)
            moe_layers += i >= first_dense && (moe_freq <= 1 || i % moe_freq == 0);
    }
    total = (double)attn_layers * attn + (double)m->state_layers * gdn_layer(m);
    total += (double)(m->layers - moe_layers) * dense_mlp + (double)moe_layers * moe_mlp;
    total += (double)m->layers * 2 * h + h;
    total += (double)vocab * h * (hf_get_bool(s, "tie_word_embeddings", !deepseek) ? 1 : 2);
    active = total;
    if (per_expert > 0 && has_topk && topk < experts)
        active -= (double)moe_layers * (double)(experts - topk) * per_expert;
    m->params_b = total / 1e9;
    if (active < total) {
        m->active_params_b = active / 1e9;
        /* a batch reads the experts its tokens touch (kv_moe.h) */
        if (topk >= 1) {
            m->experts = (uint32_t)experts;
            m->experts_per_token = (uint32_t)topk;
        }
    }
    info->params_counted = true;
    return KVT_E_OK;
}
