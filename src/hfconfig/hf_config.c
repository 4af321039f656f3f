#include "hf_config.h"
#include "hf_config_priv.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kvt_text.h"

#define MAX_CONFIG_BYTES (16u << 20)

static enum kvt_err read_dtype(const struct hf_src *s, struct kv_model *m)
{
    const char *names[] = {"torch_dtype", "dtype"};

    for (size_t i = 0; i < 2; i++) {
        json_t *v = hf_field(s, names[i]);
        enum kv_dtype t;
        if (!v)
            continue;
        if (!json_is_string(v))
            return hf_say(s->err, KVT_E_PARSE, "%s must be a string", names[i]);
        if (!kv_dtype_parse(json_string_value(v), &t) ||
            (t != KV_DTYPE_FP32 && t != KV_DTYPE_FP16 && t != KV_DTYPE_BF16))
            return hf_say(s->err, KVT_E_PARSE, "%s \"%.40s\" is not float32, float16 or bfloat16",
                          names[i], json_string_value(v));
        m->dtype = t;
        return KVT_E_OK;
    }
    return KVT_E_OK;
}

/* quantization_config decides how the weights are stored; the KV cache keeps
 * the model dtype whatever it says (vLLM's kv_cache_dtype=auto). */
static void read_quant(const struct hf_src *s, struct kv_model *m, struct hf_config_info *info)
{
    json_t *q = json_object_get(s->root, "quantization_config");
    const char *method;
    json_t *bits;

    if (!json_is_object(q))
        return;
    method = json_string_value(json_object_get(q, "quant_method"));
    /* made inert here: every reader echoes it (calc's notes, JSON) */
    kvt_safe(method ? method : "unnamed", info->quant_method, sizeof info->quant_method);
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
static enum kvt_err read_layer_types(const struct hf_src *s, json_t *types, struct kv_model *m,
                                     uint32_t kv_layers)
{
    size_t n = json_array_size(types);
    bool *sliding;
    uint32_t count = 0, states = 0, kept = 0;
    enum kv_state_kind state = KV_STATE_NONE;
    char safe[48];

    if (n != m->layers)
        return hf_say(s->err, KVT_E_PARSE, "layer_types lists %zu layers, num_hidden_layers is %u",
                      n, m->layers);
    sliding = calloc(n ? n : 1, sizeof *sliding);
    if (!sliding)
        return hf_say(s->err, KVT_E_IO, "out of memory");
    for (size_t i = 0; i < n; i++) {
        json_t *v = json_array_get(types, i);
        const char *t = json_string_value(v);
        enum layer_kind k = layer_kind_of(t, &state);
        if (k == L_UNKNOWN) {
            free(sliding);
            if (!t)
                return hf_say(s->err, KVT_E_PARSE, "layer_types[%zu] is not a string", i);
            return hf_say(s->err, KVT_E_PARSE,
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
            return hf_say(s->err, KVT_E_PARSE, "layer_types mixes two kinds of recurrent layer");
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

static enum kvt_err read_window(const struct hf_src *s, struct kv_model *m,
                                struct hf_config_info *info)
{
    json_t *types = hf_field(s, "layer_types");
    uint64_t window = 0, pattern = 0, max_window_layers = 0;
    bool has_window, has_pattern, has_mwl;
    const char *type = info->model_type;
    enum kvt_err e;

    if ((e = hf_get_uint(s, "sliding_window", KV_MAX_TOKENS, &window, &has_window)) != KVT_E_OK)
        return e;
    if (!has_window || window == 0)
        return KVT_E_OK;
    if (!hf_get_bool(s, "use_sliding_window", true)) {
        info->inert_window = true; /* Qwen2.5 ships a window it never uses */
        return KVT_E_OK;
    }
    m->sliding_window = window;
    if (types)
        return KVT_E_OK; /* read with the other layer kinds */
    if ((e = hf_get_uint(s, "sliding_window_pattern", KV_MAX_DIM, &pattern, &has_pattern)) !=
        KVT_E_OK)
        return e;
    if ((e = hf_get_uint(s, "max_window_layers", KV_MAX_DIM, &max_window_layers, &has_mwl)) !=
        KVT_E_OK)
        return e;
    if (has_pattern && pattern == 0)
        return hf_say(s->err, KVT_E_PARSE,
                      "sliding_window_pattern is 0: every pattern-th layer is full attention, so "
                      "it must be 1 or more");
    if (has_pattern && pattern == 1) {
        /* transformers' Gemma3TextConfig and Cohere2Config: layer i slides iff
         * (i + 1) % pattern != 0, never with a pattern of 1; vLLM's gemma3.py
         * and cohere2.py read those layer_types */
        m->sliding_window = 0;
        snprintf(info->note, sizeof info->note,
                 "sliding_window_pattern is 1: every layer is full attention, the window of %llu "
                 "tokens is not used",
                 (unsigned long long)window);
    } else if (has_pattern && pattern >= 2) {
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

/* A positive integer field; absent leaves *out alone. 0 or less is refused
 * naming the field (a head count of 0 is never "not given"). */
static enum kvt_err get_pos(const struct hf_src *s, const char *key, uint32_t *out, bool *present)
{
    bool has = false;
    enum kvt_err e = hf_get_u32(s, key, out, &has);
    if (e)
        return e;
    if (has && *out == 0)
        return hf_say(s->err, KVT_E_PARSE, "%s is 0; it must be a positive integer", key);
    if (present)
        *present = has;
    return KVT_E_OK;
}

/* The first of several spellings of one field that is present. */
static enum kvt_err get_pos_any(const struct hf_src *s, const char *const *keys, size_t n,
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
static enum kvt_err read_pattern(const struct hf_src *s, const char *p, struct kv_model *m)
{
    uint32_t attn = 0, mamba = 0;
    size_t n = strlen(p);
    char safe[8];

    if (n != m->layers)
        return hf_say(s->err, KVT_E_PARSE,
                      "hybrid_override_pattern has %zu layers, num_hidden_layers is %u", n,
                      m->layers);
    for (size_t i = 0; i < n; i++) {
        if (p[i] == 'M')
            mamba++;
        else if (p[i] == '*')
            attn++;
        else if (p[i] != '-' && p[i] != 'E') {
            char c[2] = {p[i], '\0'};
            return hf_say(
                s->err, KVT_E_PARSE,
                "hybrid_override_pattern[%zu] is '%s': a layer kind kvtutor does not model", i,
                kvt_safe(c, safe, sizeof safe));
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
    /* vllm/model_executor/models/zamba2.py: Mamba2 in every layer, and a
     * shared attention block beside it on the hybrid_layer_ids layers */
    {"hybrid_layer_ids", "Zamba2's shared attention blocks beside Mamba2 layers"},
    /* vllm/model_executor/models/hunyuan_v1.py: with use_cla, layers reuse
     * the KV of the layer before them (cla_share_factor) */
    {"use_cla", "Hunyuan's cross-layer attention (layers that reuse another layer's KV)"},
    /* vllm/model_executor/models/mllama.py: those layers attend to the
     * image's encoder states, whose KV the text does not size */
    {"cross_attention_layers", "Llama 3.2 Vision's cross-attention layers"},
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

/* vllm/model_executor/models/config.py, NemotronHForCausalLMConfig: MODELS_CONFIG_MAP
 * keys the hook by architecture; with --mamba-ssm-cache-dtype auto it takes the
 * config's mamba_ssm_cache_dtype (Nemotron-3-Nano's says float32), else the
 * release's default (kv_vllm.h). */
static enum kvt_err read_nemotron_h_ssm(const struct hf_src *s, struct kv_model *m)
{
    json_t *arch = json_array_get(json_object_get(s->root, "architectures"), 0);
    const char *name = json_is_string(arch) ? json_string_value(arch) : "";
    const char *dt;
    enum kv_dtype t;

    if (strcmp(name, "NemotronHForCausalLM") != 0 &&
        strcmp(name, "NemotronHPuzzleForCausalLM") != 0)
        return KVT_E_OK;
    dt = hf_get_str(s, "mamba_ssm_cache_dtype");
    /* "auto" in the config leaves the flag's auto as it is: the hook
     * changes nothing and the SSM state follows the general rule */
    if (dt && strcmp(dt, "auto") == 0)
        return KVT_E_OK;
    m->nemotron_h = true;
    if (!dt)
        return KVT_E_OK;
    if (!kv_dtype_parse(dt, &t) || (t != KV_DTYPE_FP32 && t != KV_DTYPE_FP16 && t != KV_DTYPE_BF16))
        return hf_say(s->err, KVT_E_PARSE,
                      "mamba_ssm_cache_dtype is not float32, float16 or bfloat16");
    m->ssm_cache_dtype = t;
    return KVT_E_OK;
}

static enum kvt_err read_hybrid(const struct hf_src *s, struct kv_model *m,
                                struct hf_config_info *info)
{
    json_t *types = hf_field(s, "layer_types");
    const char *pattern = hf_get_str(s, "hybrid_override_pattern");
    uint32_t interval = 0, shared = 0, kv_layers = m->layers;
    bool has_interval = false;
    const char *dt;
    enum kv_dtype t;
    enum kvt_err e;

    if (strcmp(info->model_type, "zamba2") == 0)
        return hf_say(s->err, KVT_E_PARSE,
                      "model_type zamba2: Zamba2's shared attention blocks beside Mamba2 layers "
                      "(layers_block_type), which kvtutor does not size");
    for (size_t i = 0; i < sizeof unmodelled / sizeof unmodelled[0]; i++) {
        json_t *v = hf_field(s, unmodelled[i].key);
        if (v && !json_is_false(v))
            return hf_say(s->err, KVT_E_PARSE, "%s: %s, which kvtutor does not size",
                          unmodelled[i].key, unmodelled[i].what);
    }
    if ((e = hf_get_u32(s, "num_kv_shared_layers", &shared, NULL)))
        return e;
    if (shared >= m->layers && shared > 0)
        return hf_say(s->err, KVT_E_PARSE, "num_kv_shared_layers %u leaves no layer with KV",
                      shared);
    kv_layers = m->layers - shared;
    info->kv_shared = shared > 0;
    if ((e = get_pos(s, "full_attention_interval", &interval, &has_interval)))
        return e;
    if (types) {
        if (!json_is_array(types))
            return hf_say(s->err, KVT_E_PARSE, "layer_types must be a list");
        if ((e = read_layer_types(s, types, m, kv_layers)))
            return e;
    } else if (pattern) {
        if ((e = read_pattern(s, pattern, m)))
            return e;
    } else if (has_interval && hf_field(s, "linear_num_value_heads")) {
        /* Qwen3-Next: every interval-th layer is full attention, the rest GDN */
        m->state_kind = KV_STATE_GDN;
        m->state_layers = m->layers - m->layers / interval;
    } else if (shared > 0) {
        return hf_say(s->err, KVT_E_PARSE,
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
    } else if (hf_field(s, "linear_num_value_heads") || hf_field(s, "mamba_num_heads") ||
               hf_field(s, "mamba_n_heads") || hf_field(s, "ssm_state_size")) {
        return hf_say(s->err, KVT_E_PARSE,
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
                return hf_say(s->err, KVT_E_MISSING, "the %s layers' %s is missing from the config",
                              m->state_kind == KV_STATE_GDN ? "linear-attention" : "Mamba",
                              need[i]);
        info->hybrid = true;
    }
    dt = hf_get_str(s, "mamba_ssm_dtype");
    if (dt) {
        if (!kv_dtype_parse(dt, &t) ||
            (t != KV_DTYPE_FP32 && t != KV_DTYPE_FP16 && t != KV_DTYPE_BF16))
            return hf_say(s->err, KVT_E_PARSE,
                          "mamba_ssm_dtype is not float32, float16 or bfloat16");
        m->ssm_dtype = t;
    }
    if ((e = read_nemotron_h_ssm(s, m)))
        return e;
    if ((e = ANY(s, &m->mtp_layers, "num_nextn_predict_layers", "mtp_num_hidden_layers")))
        return e;
    return KVT_E_OK;
}

static enum kvt_err read_model(struct hf_src *s, struct kv_model *m, struct hf_config_info *info)
{
    uint64_t rank = 0, maxpos = 0;
    bool has_layers, has_heads, has_kv, has_dim, has_rank;
    enum kvt_err e;

    /* made inert here: calc's header and explain-log echo it */
    {
        const char *type = hf_get_str(s, "model_type");
        kvt_safe(type ? type : "", info->model_type, sizeof info->model_type);
        /* the family's own spellings (n_layer, num_layers), by the raw name */
        s->aliases = hf_family_aliases(type ? type : "");
    }
    if ((e = hf_family_check_aliases(s)))
        return e;
    if ((e = hf_get_u32(s, "num_hidden_layers", &m->layers, &has_layers)))
        return e;
    if (!has_layers)
        return hf_say(s->err, KVT_E_MISSING, "num_hidden_layers is missing");
    if (m->layers == 0)
        return hf_say(s->err, KVT_E_PARSE, "num_hidden_layers is 0");
    if ((e = get_pos(s, "num_attention_heads", &m->heads, &has_heads)) ||
        (e = hf_get_u32(s, "hidden_size", &m->hidden, NULL)) ||
        (e = hf_get_uint(s, "max_position_embeddings", KV_MAX_TOKENS, &maxpos, NULL)) ||
        (e = hf_get_uint(s, "kv_lora_rank", KV_MAX_DIM, &rank, &has_rank)))
        return e;
    m->max_position = hf_derived_max_len(s, maxpos);

    if (has_rank && rank > 0) {
        bool has_rope = false;
        m->mla_rank = (uint32_t)rank;
        /* the latent's RoPE part is never absent in an MLA model: read as 0 it
         * would shrink every page (vllm/model_executor/models/deepseek_v2.py,
         * DeepseekV2MLAAttention, pages kv_lora_rank + qk_rope_head_dim) */
        if ((e = get_pos(s, "qk_rope_head_dim", &m->mla_rope_dim, &has_rope)))
            return e;
        if (!has_rope)
            return hf_say(s->err, KVT_E_MISSING,
                          "qk_rope_head_dim is missing: an MLA config (kv_lora_rank %u) needs "
                          "the size of its latent's RoPE part",
                          m->mla_rank);
        /* DeepSeek-V3.2's sparse attention: the indexer keeps its own keys */
        if (hf_field(s, "index_topk") &&
            (e = get_pos(s, "index_head_dim", &m->index_head_dim, NULL)))
            return e;
        if ((e = ANY(s, &m->mtp_layers, "num_nextn_predict_layers")))
            return e;
    } else {
        bool ruled = false;
        if ((e = get_pos(s, "num_key_value_heads", &m->kv_heads, &has_kv)) ||
            (e = get_pos(s, "head_dim", &m->head_dim, &has_dim)))
            return e;
        if (!has_heads)
            return hf_say(s->err, KVT_E_MISSING, "num_attention_heads is missing");
        if ((e = hf_family_kv_heads(s, info->model_type, m->heads, &m->kv_heads, &ruled)))
            return e;
        if (ruled) {
            has_kv = true;
            has_dim = false; /* those attention classes take hidden_size / heads */
        }
        if (!has_kv)
            m->kv_heads = m->heads; /* no num_key_value_heads: multi-head attention */
        if (!has_dim || m->head_dim == 0) {
            if (m->hidden == 0)
                return hf_say(s->err, KVT_E_MISSING,
                              "head_dim is missing and hidden_size is not there to derive it");
            if (m->hidden % m->heads != 0)
                return hf_say(s->err, KVT_E_PARSE,
                              "hidden_size %u is not a multiple of num_attention_heads %u",
                              m->hidden, m->heads);
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
            return hf_say(s->err, KVT_E_PARSE,
                          "v_head_dim %u differs from the K head's %u: value heads of another size "
                          "are not modelled",
                          v_dim, m->head_dim);
    }
    if ((e = read_dtype(s, m)))
        return e;
    read_quant(s, m, info);
    hf_family_note(s, m->layers, info);
    return hf_params_count(s, m, info);
}

enum kvt_err hf_config_parse(const char *text, size_t len, struct kv_model *out,
                             struct hf_config_info *info, struct hf_config_error *err)
{
    json_error_t jerr;
    json_t *root, *text_config;
    struct hf_src s;
    enum kvt_err e;

    *out = (struct kv_model){0};
    *info = (struct hf_config_info){0};
    *err = (struct hf_config_error){0};
    root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!root) {
        err->line = jerr.line;
        err->column = jerr.column;
        return hf_say(err, KVT_E_PARSE, "%s", jerr.text);
    }
    if (!json_is_object(root)) {
        json_decref(root);
        return hf_say(err, KVT_E_PARSE, "the top level is not a JSON object");
    }
    text_config = json_object_get(root, "text_config");
    s = (struct hf_src){json_is_object(text_config) ? text_config : root, root, err, NULL};
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
        return hf_say(err, KVT_E_IO, "%s", strerror(errno));
    buf = malloc(MAX_CONFIG_BYTES + 1);
    if (!buf) {
        fclose(f);
        return hf_say(err, KVT_E_IO, "out of memory");
    }
    n = fread(buf, 1, MAX_CONFIG_BYTES + 1, f);
    if (ferror(f)) {
        e = hf_say(err, KVT_E_IO, "%s", strerror(errno ? errno : EIO));
    } else if (n > MAX_CONFIG_BYTES) {
        e = hf_say(err, KVT_E_PARSE, "larger than 16 MiB: not a config.json");
    } else {
        e = hf_config_parse(buf, n, out, info, err);
    }
    free(buf);
    fclose(f);
    return e;
}
