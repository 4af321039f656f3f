#include "hf_config.h"
#include "kvt_text.h"

#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CONFIG_BYTES (16u << 20)

/* Where fields are looked up: the text model's own object first (Gemma 3
 * nests it under text_config), then the top level. */
struct src {
    json_t *text, *root;
    struct hf_config_error *err;
};

static enum kvt_err say(struct hf_config_error *err, enum kvt_err code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->what, sizeof err->what, fmt, ap);
    va_end(ap);
    return code;
}

static json_t *field(const struct src *s, const char *key)
{
    json_t *v = json_object_get(s->text, key);
    if ((!v || json_is_null(v)) && s->text != s->root)
        v = json_object_get(s->root, key);
    return (v && !json_is_null(v)) ? v : NULL;
}

/* A non-negative integer field no larger than `max`. Absent or null leaves
 * *out alone and reports *present = false. */
static enum kvt_err get_uint(const struct src *s, const char *key, uint64_t max, uint64_t *out,
                             bool *present)
{
    json_t *v = field(s, key);
    double d;

    if (present)
        *present = false;
    if (!v)
        return KVT_E_OK;
    if (json_is_integer(v)) {
        json_int_t i = json_integer_value(v);
        if (i < 0 || (uint64_t)i > max)
            return say(s->err, KVT_E_PARSE, "%s is %lld, outside 0..%llu", key, (long long)i,
                       (unsigned long long)max);
        *out = (uint64_t)i;
    } else if (json_is_real(v) && (d = json_real_value(v)) >= 0 && d <= (double)max &&
               d == (double)(uint64_t)d) {
        *out = (uint64_t)d;
    } else {
        return say(s->err, KVT_E_PARSE, "%s must be a non-negative integer", key);
    }
    if (present)
        *present = true;
    return KVT_E_OK;
}

static enum kvt_err get_u32(const struct src *s, const char *key, uint32_t *out, bool *present)
{
    uint64_t v = *out;
    enum kvt_err e = get_uint(s, key, KV_MAX_DIM, &v, present);
    *out = (uint32_t)v;
    return e;
}

static const char *get_str(const struct src *s, const char *key)
{
    json_t *v = field(s, key);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

static bool get_bool(const struct src *s, const char *key, bool fallback)
{
    json_t *v = field(s, key);
    return json_is_boolean(v) ? json_is_true(v) : fallback;
}

static void copy_str(char *dst, size_t cap, const char *src)
{
    snprintf(dst, cap, "%s", src ? src : "");
}

static enum kvt_err read_dtype(const struct src *s, struct kv_model *m)
{
    const char *names[] = {"torch_dtype", "dtype"};

    for (size_t i = 0; i < 2; i++) {
        json_t *v = field(s, names[i]);
        enum kv_dtype t;
        if (!v)
            continue;
        if (!json_is_string(v))
            return say(s->err, KVT_E_PARSE, "%s must be a string", names[i]);
        if (!kv_dtype_parse(json_string_value(v), &t) ||
            (t != KV_DTYPE_FP32 && t != KV_DTYPE_FP16 && t != KV_DTYPE_BF16))
            return say(s->err, KVT_E_PARSE, "%s \"%.40s\" is not float32, float16 or bfloat16",
                       names[i], json_string_value(v));
        m->dtype = t;
        return KVT_E_OK;
    }
    return KVT_E_OK;
}

/* quantization_config decides how the weights are stored; the KV cache keeps
 * the model dtype whatever it says (vLLM's kv_cache_dtype=auto). */
static void read_quant(const struct src *s, struct kv_model *m, struct hf_config_info *info)
{
    json_t *q = json_object_get(s->root, "quantization_config");
    const char *method;
    json_t *bits;

    if (!json_is_object(q))
        return;
    method = json_string_value(json_object_get(q, "quant_method"));
    copy_str(info->quant_method, sizeof info->quant_method, method ? method : "unnamed");
    bits = json_object_get(q, "bits");
    if (!json_is_integer(bits))
        bits = json_object_get(q, "w_bit");
    if (method && strcmp(method, "fp8") == 0)
        m->weights_dtype = KV_DTYPE_FP8;
    else if (method && strcmp(method, "mxfp4") == 0)
        m->weights_dtype = KV_DTYPE_MXFP4;
    else if (method && strcmp(method, "bitsandbytes") == 0 &&
             json_is_true(json_object_get(q, "load_in_4bit")))
        m->weights_dtype = KV_DTYPE_INT4;
    else if (method && strcmp(method, "bitsandbytes") == 0 &&
             json_is_true(json_object_get(q, "load_in_8bit")))
        m->weights_dtype = KV_DTYPE_INT8;
    else if (json_is_integer(bits) && json_integer_value(bits) == 4)
        m->weights_dtype = KV_DTYPE_INT4;
    else if (json_is_integer(bits) && json_integer_value(bits) == 8)
        m->weights_dtype = KV_DTYPE_INT8;
    else
        info->quant_unknown = true;
}

/* Layer i is full attention iff i % period == period - 1; 0 when the list
 * follows no such pattern. */
static uint32_t find_period(const bool *sliding, uint32_t n)
{
    for (uint32_t p = 2; p <= n; p++) {
        bool ok = true;
        for (uint32_t i = 0; i < n && ok; i++)
            ok = sliding[i] == (i % p != p - 1);
        if (ok)
            return p;
    }
    return 0;
}

/* One entry of layer_types: what the layer keeps. */
enum layer_kind { L_FULL, L_SLIDING, L_STATE, L_UNKNOWN };

static enum layer_kind layer_kind_of(const char *t, enum kv_state_kind *state)
{
    static const struct {
        const char *name;
        enum layer_kind kind;
        enum kv_state_kind state;
    } kinds[] = {
        {"full_attention", L_FULL, KV_STATE_NONE},
        {"attention", L_FULL, KV_STATE_NONE},
        {"sliding_attention", L_SLIDING, KV_STATE_NONE},
        {"linear_attention", L_STATE, KV_STATE_GDN}, /* Qwen3-Next, Qwen3.5: gated delta net */
        {"mamba", L_STATE, KV_STATE_MAMBA2},         /* Granite-4.0-H: Mamba2 */
    };
    for (size_t i = 0; t && i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(t, kinds[i].name) == 0) {
            if (kinds[i].kind == L_STATE)
                *state = kinds[i].state;
            return kinds[i].kind;
        }
    return L_UNKNOWN;
}

/* Reads layer_types; layers from `kv_layers` on reuse earlier layers' KV
 * (Gemma-3n's num_kv_shared_layers) and are not counted. */
static enum kvt_err read_layer_types(const struct src *s, json_t *types, struct kv_model *m,
                                     uint32_t kv_layers)
{
    size_t n = json_array_size(types);
    bool *sliding;
    uint32_t count = 0, states = 0, kept = 0;
    enum kv_state_kind state = KV_STATE_NONE;
    char safe[48];

    if (n != m->layers)
        return say(s->err, KVT_E_PARSE, "layer_types lists %zu layers, num_hidden_layers is %u", n,
                   m->layers);
    sliding = calloc(n ? n : 1, sizeof *sliding);
    if (!sliding)
        return say(s->err, KVT_E_IO, "out of memory");
    for (size_t i = 0; i < n; i++) {
        json_t *v = json_array_get(types, i);
        const char *t = json_string_value(v);
        enum layer_kind k = layer_kind_of(t, &state);
        if (k == L_UNKNOWN) {
            free(sliding);
            if (!t)
                return say(s->err, KVT_E_PARSE, "layer_types[%zu] is not a string", i);
            return say(s->err, KVT_E_PARSE,
                       "layer_types[%zu] is \"%.40s\": a layer kind kvtutor does not model", i,
                       kvt_safe(t, safe, sizeof safe));
        }
        if (i >= kv_layers)
            continue; /* shares an earlier layer's KV: holds none */
        kept++;
        if (k == L_SLIDING) {
            sliding[kept - 1] = true;
            count++;
        } else if (k == L_STATE) {
            states++;
        }
    }
    if (states > 0 && state != KV_STATE_NONE) {
        if (m->state_kind != KV_STATE_NONE && m->state_kind != state) {
            free(sliding);
            return say(s->err, KVT_E_PARSE, "layer_types mixes two kinds of recurrent layer");
        }
        m->state_kind = state;
    }
    m->state_layers = states;
    m->layers = kept;
    m->sliding_layers = count;
    m->sliding_period = count > 0 && count < kept && states == 0 ? find_period(sliding, kept) : 0;
    free(sliding);
    return KVT_E_OK;
}

static enum kvt_err read_window(const struct src *s, struct kv_model *m,
                                struct hf_config_info *info)
{
    json_t *types = field(s, "layer_types");
    uint64_t window = 0, pattern = 0, max_window_layers = 0;
    bool has_window, has_pattern, has_mwl;
    const char *type = info->model_type;
    enum kvt_err e;

    if ((e = get_uint(s, "sliding_window", KV_MAX_TOKENS, &window, &has_window)) != KVT_E_OK)
        return e;
    if (!has_window || window == 0)
        return KVT_E_OK;
    if (!get_bool(s, "use_sliding_window", true)) {
        info->inert_window = true; /* Qwen2.5 ships a window it never uses */
        return KVT_E_OK;
    }
    m->sliding_window = window;
    if (types)
        return KVT_E_OK; /* read with the other layer kinds */
    if ((e = get_uint(s, "sliding_window_pattern", KV_MAX_DIM, &pattern, &has_pattern)) != KVT_E_OK)
        return e;
    if ((e = get_uint(s, "max_window_layers", KV_MAX_DIM, &max_window_layers, &has_mwl)) !=
        KVT_E_OK)
        return e;
    if (has_pattern && pattern >= 2) {
        /* Gemma 3: every pattern-th layer is global */
        m->sliding_period = (uint32_t)pattern;
        m->sliding_layers = m->layers - m->layers / (uint32_t)pattern;
    } else if (strcmp(type, "gemma2") == 0) {
        /* Gemma 2 alternates, local first */
        m->sliding_period = 2;
        m->sliding_layers = m->layers - m->layers / 2;
    } else if (has_mwl && (strcmp(type, "qwen2") == 0 || strcmp(type, "qwen2_moe") == 0)) {
        /* Qwen2: layers from max_window_layers on use the window */
        m->sliding_layers =
            max_window_layers < m->layers ? m->layers - (uint32_t)max_window_layers : 0;
        if (m->sliding_layers == 0)
            m->sliding_window = 0;
    } else {
        m->sliding_layers = m->layers; /* Mistral v0.1, Phi-3: one window for all */
    }
    return KVT_E_OK;
}

/* One MLA layer's attention weights (vllm/model_executor/models/deepseek_v2.py,
 * DeepseekV2MLAAttention, and the Indexer of DeepSeek-V3.2): q through a
 * low-rank q_a (+ its norm) and q_b, or a plain q_proj; the latent's
 * kv_a_proj_with_mqa (+ its norm) and kv_b_proj; o_proj; the indexer's wq_b,
 * its fused wk + weights_proj and its LayerNorm (weight and bias). 0 when a
 * size is missing. */
static double mla_attention(const struct src *s, const struct kv_model *m, enum kvt_err *e)
{
    uint64_t qr = 0, nope = 0, v = 0, idx_heads = 0;
    bool has_nope, has_v, has_idx;
    double h = m->hidden, heads = m->heads, rank = m->mla_rank, rope = m->mla_rope_dim, q, total;

    if ((*e = get_uint(s, "q_lora_rank", KV_MAX_DIM, &qr, NULL)) ||
        (*e = get_uint(s, "qk_nope_head_dim", KV_MAX_DIM, &nope, &has_nope)) ||
        (*e = get_uint(s, "v_head_dim", KV_MAX_DIM, &v, &has_v)) ||
        (*e = get_uint(s, "index_n_heads", KV_MAX_DIM, &idx_heads, &has_idx)))
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
static enum kvt_err count_params(const struct src *s, struct kv_model *m,
                                 struct hf_config_info *info)
{
    uint64_t vocab = 0, inter = 0, moe_inter = 0, experts = 0, topk = 0, shared_inter = 0,
             n_shared = 0, first_dense = 0, moe_freq = 1;
    bool has_vocab, has_inter, has_moe_inter, has_experts = false, has_topk;
    const char *experts_keys[] = {"num_local_experts", "num_experts", "n_routed_experts"};
    const char *type = info->model_type, *topk_method = get_str(s, "topk_method");
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
    if (field(s, "moe_layer_freq") && !json_is_integer(field(s, "moe_layer_freq")))
        return KVT_E_OK;
    if ((e = get_uint(s, "vocab_size", KV_MAX_TOKENS, &vocab, &has_vocab)) ||
        (e = get_uint(s, "intermediate_size", KV_MAX_TOKENS, &inter, &has_inter)) ||
        (e = get_uint(s, "moe_intermediate_size", KV_MAX_TOKENS, &moe_inter, &has_moe_inter)) ||
        (e = get_uint(s, "num_experts_per_tok", KV_MAX_DIM, &topk, &has_topk)) ||
        (e = get_uint(s, "shared_expert_intermediate_size", KV_MAX_TOKENS, &shared_inter, NULL)) ||
        (e = get_uint(s, "n_shared_experts", KV_MAX_DIM, &n_shared, NULL)) ||
        (e = get_uint(s, "first_k_dense_replace", KV_MAX_DIM, &first_dense, NULL)) ||
        (e = get_uint(s, "moe_layer_freq", KV_MAX_DIM, &moe_freq, NULL)))
        return e;
    for (size_t i = 0; i < 3 && !has_experts; i++)
        if ((e = get_uint(s, experts_keys[i], KV_MAX_DIM, &experts, &has_experts)))
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
        if (gated && get_bool(s, "attn_output_gate", true))
            attn += h * q; /* the gate doubles q_proj's rows */
        if (strcmp(type, "qwen2") == 0 || strcmp(type, "qwen2_moe") == 0)
            attn += q + 2 * kv;
        else if (get_bool(s, "attention_bias", false))
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
    total += (double)vocab * h * (get_bool(s, "tie_word_embeddings", !deepseek) ? 1 : 2);
    active = total;
    if (per_expert > 0 && has_topk && topk < experts)
        active -= (double)moe_layers * (double)(experts - topk) * per_expert;
    m->params_b = total / 1e9;
    if (active < total)
        m->active_params_b = active / 1e9;
    info->params_counted = true;
    return KVT_E_OK;
}

/* A positive integer field; absent leaves *out alone. 0 or less is refused
 * naming the field (a head count of 0 is never "not given"). */
static enum kvt_err get_pos(const struct src *s, const char *key, uint32_t *out, bool *present)
{
    bool has = false;
    enum kvt_err e = get_u32(s, key, out, &has);
    if (e)
        return e;
    if (has && *out == 0)
        return say(s->err, KVT_E_PARSE, "%s is 0; it must be a positive integer", key);
    if (present)
        *present = has;
    return KVT_E_OK;
}

/* The first of several spellings of one field that is present. */
static enum kvt_err get_pos_any(const struct src *s, const char *const *keys, size_t n,
                                uint32_t *out)
{
    for (size_t i = 0; i < n; i++) {
        bool has = false;
        enum kvt_err e = get_pos(s, keys[i], out, &has);
        if (e || has)
            return e;
    }
    return KVT_E_OK;
}

#define ANY(s, out, ...)                                                                           \
    get_pos_any(s, (const char *const[]){__VA_ARGS__},                                             \
                sizeof((const char *const[]){__VA_ARGS__}) / sizeof(const char *), out)

/* Nemotron-H: one character a layer, M Mamba2, * attention, - MLP, E MoE. */
static enum kvt_err read_pattern(const struct src *s, const char *p, struct kv_model *m)
{
    uint32_t attn = 0, mamba = 0;
    size_t n = strlen(p);
    char safe[8];

    if (n != m->layers)
        return say(s->err, KVT_E_PARSE,
                   "hybrid_override_pattern has %zu layers, num_hidden_layers is %u", n, m->layers);
    for (size_t i = 0; i < n; i++) {
        if (p[i] == 'M')
            mamba++;
        else if (p[i] == '*')
            attn++;
        else if (p[i] != '-' && p[i] != 'E') {
            char c[2] = {p[i], '\0'};
            return say(s->err, KVT_E_PARSE,
                       "hybrid_override_pattern[%zu] is '%s': a layer kind kvtutor does not model",
                       i, kvt_safe(c, safe, sizeof safe));
        }
    }
    if (mamba > 0)
        m->state_kind = KV_STATE_MAMBA2;
    m->state_layers = mamba;
    m->layers = attn + mamba; /* MLP and MoE layers keep nothing */
    return KVT_E_OK;
}

/* Fields that say a config has layers kvtutor does not model, and what they are. */
static const struct {
    const char *key, *what;
} unmodelled[] = {
    {"is_encoder_decoder", "an encoder-decoder model (cross-attention is not modelled)"},
    {"linear_attn_config", "Kimi Delta Attention layers"},
    {"attn_type_list", "MiniMax lightning-attention layers"},
    {"attn_layer_period", "Jamba's Mamba-1 layers"},
    {"mamba_expand", "Mamba-1 layers"},
    {"rwkv_mode", "RWKV layers"},
    {"hybrid_layer_pattern",
     "MiMo-V2's sliding-window layers, whose KV heads and head sizes (swa_*) differ from the "
     "full-attention layers'"},
};

/* Hybrid models: which layers keep a recurrent state and its shape; refuses
 * a kind of layer the calculator does not model, naming it. */
static enum kvt_err read_hybrid(const struct src *s, struct kv_model *m,
                                struct hf_config_info *info)
{
    json_t *types = field(s, "layer_types");
    const char *pattern = get_str(s, "hybrid_override_pattern");
    uint32_t interval = 0, shared = 0, kv_layers = m->layers;
    bool has_interval = false;
    const char *dt;
    enum kv_dtype t;
    enum kvt_err e;

    for (size_t i = 0; i < sizeof unmodelled / sizeof unmodelled[0]; i++) {
        json_t *v = field(s, unmodelled[i].key);
        if (v && !json_is_false(v))
            return say(s->err, KVT_E_PARSE, "%s: %s, which kvtutor does not size",
                       unmodelled[i].key, unmodelled[i].what);
    }
    if ((e = get_u32(s, "num_kv_shared_layers", &shared, NULL)))
        return e;
    if (shared >= m->layers && shared > 0)
        return say(s->err, KVT_E_PARSE, "num_kv_shared_layers %u leaves no layer with KV", shared);
    kv_layers = m->layers - shared;
    info->kv_shared = shared > 0;
    if ((e = get_pos(s, "full_attention_interval", &interval, &has_interval)))
        return e;
    if (types) {
        if (!json_is_array(types))
            return say(s->err, KVT_E_PARSE, "layer_types must be a list");
        if ((e = read_layer_types(s, types, m, kv_layers)))
            return e;
    } else if (pattern) {
        if ((e = read_pattern(s, pattern, m)))
            return e;
    } else if (has_interval && field(s, "linear_num_value_heads")) {
        /* Qwen3-Next: every interval-th layer is full attention, the rest GDN */
        m->state_kind = KV_STATE_GDN;
        m->state_layers = m->layers - m->layers / interval;
    } else if (shared > 0) {
        return say(s->err, KVT_E_PARSE,
                   "num_kv_shared_layers needs layer_types to say which layers keep KV");
    }
    if (m->sliding_window == 0)
        m->sliding_layers = 0; /* layer_types named sliding layers, but no window is used */
    if (m->state_kind == KV_STATE_GDN) {
        if ((e = ANY(s, &m->ssm_heads, "linear_num_value_heads")) ||
            (e = ANY(s, &m->ssm_head_dim, "linear_value_head_dim")) ||
            (e = ANY(s, &m->ssm_groups, "linear_num_key_heads")) ||
            (e = ANY(s, &m->ssm_state_dim, "linear_key_head_dim")) ||
            (e = ANY(s, &m->conv_kernel, "linear_conv_kernel_dim")))
            return e;
    } else if (m->state_kind == KV_STATE_MAMBA2) {
        if ((e = ANY(s, &m->ssm_heads, "mamba_num_heads", "mamba_n_heads")) ||
            (e = ANY(s, &m->ssm_head_dim, "mamba_head_dim", "mamba_d_head")) ||
            (e = ANY(s, &m->ssm_groups, "n_groups", "mamba_n_groups")) ||
            (e = ANY(s, &m->ssm_state_dim, "ssm_state_size", "mamba_d_state")) ||
            (e = ANY(s, &m->conv_kernel, "conv_kernel", "mamba_d_conv")))
            return e;
    } else if (field(s, "linear_num_value_heads") || field(s, "mamba_num_heads") ||
               field(s, "mamba_n_heads") || field(s, "ssm_state_size")) {
        return say(s->err, KVT_E_PARSE,
                   "the config has Mamba or linear-attention fields but no layer_types, "
                   "hybrid_override_pattern or full_attention_interval saying which layers "
                   "use them");
    }
    if (m->state_layers > 0) {
        const char *need[] = {"ssm_heads", "ssm_head_dim", "ssm_groups", "ssm_state_dim",
                              "conv_kernel"};
        const uint32_t have[] = {m->ssm_heads, m->ssm_head_dim, m->ssm_groups, m->ssm_state_dim,
                                 m->conv_kernel};
        for (size_t i = 0; i < 5; i++)
            if (have[i] == 0)
                return say(s->err, KVT_E_MISSING, "the %s layers' %s is missing from the config",
                           m->state_kind == KV_STATE_GDN ? "linear-attention" : "Mamba", need[i]);
        info->hybrid = true;
    }
    dt = get_str(s, "mamba_ssm_dtype");
    if (dt) {
        if (!kv_dtype_parse(dt, &t) ||
            (t != KV_DTYPE_FP32 && t != KV_DTYPE_FP16 && t != KV_DTYPE_BF16))
            return say(s->err, KVT_E_PARSE, "mamba_ssm_dtype is not float32, float16 or bfloat16");
        m->ssm_dtype = t;
    }
    if ((e = ANY(s, &m->mtp_layers, "num_nextn_predict_layers", "mtp_num_hidden_layers")))
        return e;
    return KVT_E_OK;
}

static enum kvt_err read_model(struct src *s, struct kv_model *m, struct hf_config_info *info)
{
    uint64_t rank = 0, maxpos = 0;
    bool has_layers, has_heads, has_kv, has_dim, has_rank;
    enum kvt_err e;

    copy_str(info->model_type, sizeof info->model_type, get_str(s, "model_type"));
    if ((e = get_u32(s, "num_hidden_layers", &m->layers, &has_layers)))
        return e;
    if (!has_layers)
        return say(s->err, KVT_E_MISSING, "num_hidden_layers is missing");
    if (m->layers == 0)
        return say(s->err, KVT_E_PARSE, "num_hidden_layers is 0");
    if ((e = get_pos(s, "num_attention_heads", &m->heads, &has_heads)) ||
        (e = get_u32(s, "hidden_size", &m->hidden, NULL)) ||
        (e = get_uint(s, "max_position_embeddings", KV_MAX_TOKENS, &maxpos, NULL)) ||
        (e = get_uint(s, "kv_lora_rank", KV_MAX_DIM, &rank, &has_rank)))
        return e;
    m->max_position = maxpos;

    if (has_rank && rank > 0) {
        m->mla_rank = (uint32_t)rank;
        if ((e = get_u32(s, "qk_rope_head_dim", &m->mla_rope_dim, NULL)))
            return e;
        /* DeepSeek-V3.2's sparse attention: the indexer keeps its own keys */
        if (field(s, "index_topk") && (e = get_pos(s, "index_head_dim", &m->index_head_dim, NULL)))
            return e;
        if ((e = ANY(s, &m->mtp_layers, "num_nextn_predict_layers")))
            return e;
    } else {
        if ((e = get_pos(s, "num_key_value_heads", &m->kv_heads, &has_kv)) ||
            (e = get_pos(s, "head_dim", &m->head_dim, &has_dim)))
            return e;
        if (!has_heads)
            return say(s->err, KVT_E_MISSING, "num_attention_heads is missing");
        if (!has_kv)
            m->kv_heads = m->heads; /* no num_key_value_heads: multi-head attention */
        if (!has_dim || m->head_dim == 0) {
            if (m->hidden == 0)
                return say(s->err, KVT_E_MISSING,
                           "head_dim is missing and hidden_size is not there to derive it");
            if (m->hidden % m->heads != 0)
                return say(s->err, KVT_E_PARSE,
                           "hidden_size %u is not a multiple of num_attention_heads %u", m->hidden,
                           m->heads);
            m->head_dim = m->hidden / m->heads;
        }
        if ((e = read_window(s, m, info)))
            return e;
        if ((e = read_hybrid(s, m, info)))
            return e;
        /* vLLM sizes such a page with head_size + head_size_v (FullAttentionSpec,
         * vllm/v1/kv_cache_interface.py); the calculator has one head size for
         * K and V, so a different V head is refused rather than sized as K. */
        uint32_t v_dim = 0;
        if ((e = get_pos(s, "v_head_dim", &v_dim, NULL)))
            return e;
        if (v_dim != 0 && v_dim != m->head_dim)
            return say(s->err, KVT_E_PARSE,
                       "v_head_dim %u differs from the K head's %u: value heads of another size "
                       "are not modelled",
                       v_dim, m->head_dim);
    }
    if ((e = read_dtype(s, m)))
        return e;
    read_quant(s, m, info);
    return count_params(s, m, info);
}

enum kvt_err hf_config_parse(const char *text, size_t len, struct kv_model *out,
                             struct hf_config_info *info, struct hf_config_error *err)
{
    json_error_t jerr;
    json_t *root, *text_config;
    struct src s;
    enum kvt_err e;

    *out = (struct kv_model){0};
    *info = (struct hf_config_info){0};
    *err = (struct hf_config_error){0};
    root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!root) {
        err->line = jerr.line;
        err->column = jerr.column;
        return say(err, KVT_E_PARSE, "%s", jerr.text);
    }
    if (!json_is_object(root)) {
        json_decref(root);
        return say(err, KVT_E_PARSE, "the top level is not a JSON object");
    }
    text_config = json_object_get(root, "text_config");
    s = (struct src){json_is_object(text_config) ? text_config : root, root, err};
    e = read_model(&s, out, info);
    json_decref(root);
    return e;
}

enum kvt_err hf_config_load(const char *path, struct kv_model *out, struct hf_config_info *info,
                            struct hf_config_error *err)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    size_t n;
    enum kvt_err e;

    *err = (struct hf_config_error){0};
    if (!f)
        return say(err, KVT_E_IO, "%s", strerror(errno));
    buf = malloc(MAX_CONFIG_BYTES + 1);
    if (!buf) {
        fclose(f);
        return say(err, KVT_E_IO, "out of memory");
    }
    n = fread(buf, 1, MAX_CONFIG_BYTES + 1, f);
    if (ferror(f)) {
        e = say(err, KVT_E_IO, "%s", strerror(errno ? errno : EIO));
    } else if (n > MAX_CONFIG_BYTES) {
        e = say(err, KVT_E_PARSE, "larger than 16 MiB: not a config.json");
    } else {
        e = hf_config_parse(buf, n, out, info, err);
    }
    free(buf);
    fclose(f);
    return e;
}
