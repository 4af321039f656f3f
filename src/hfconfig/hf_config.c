#include "hf_config.h"

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

static enum kvt_err read_layer_types(const struct src *s, json_t *types, struct kv_model *m)
{
    size_t n = json_array_size(types);
    bool *sliding;
    uint32_t count = 0;

    if (n != m->layers)
        return say(s->err, KVT_E_PARSE, "layer_types lists %zu layers, num_hidden_layers is %u", n,
                   m->layers);
    sliding = calloc(n ? n : 1, sizeof *sliding);
    if (!sliding)
        return say(s->err, KVT_E_IO, "out of memory");
    for (size_t i = 0; i < n; i++) {
        const char *t = json_string_value(json_array_get(types, i));
        if (t && strcmp(t, "sliding_attention") == 0) {
            sliding[i] = true;
            count++;
        } else if (!t || strcmp(t, "full_attention") != 0) {
            free(sliding);
            return say(s->err, KVT_E_PARSE,
                       "layer_types[%zu] is not \"sliding_attention\" or \"full_attention\"", i);
        }
    }
    m->sliding_layers = count;
    m->sliding_period = count > 0 && count < n ? find_period(sliding, (uint32_t)n) : 0;
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
    if (types) {
        if (!json_is_array(types))
            return say(s->err, KVT_E_PARSE, "layer_types must be a list");
        return read_layer_types(s, types, m);
    }
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

/* Parameter count from the shapes: embeddings (twice when untied), attention
 * projections (+ Qwen2's QKV bias, Qwen3's q/k norms), the MLP or the experts
 * and their router,
 * two norms per layer and a final one. MoE active = total less the experts a
 * token skips. */
static enum kvt_err count_params(const struct src *s, struct kv_model *m,
                                 struct hf_config_info *info)
{
    uint64_t vocab = 0, inter = 0, moe_inter = 0, experts = 0, topk = 0, shared_inter = 0;
    bool has_vocab, has_inter, has_moe_inter, has_experts = false, has_topk;
    const char *experts_keys[] = {"num_local_experts", "num_experts", "n_routed_experts"};
    const char *type = info->model_type;
    double h = m->hidden, q = (double)m->heads * m->head_dim,
           kv = (double)m->kv_heads * m->head_dim;
    double attn, mlp, dense_mlp, per_expert, total, active;
    enum kvt_err e;

    if (m->mla_rank > 0 || m->hidden == 0 || m->heads == 0)
        return KVT_E_OK;
    if ((e = get_uint(s, "vocab_size", KV_MAX_TOKENS, &vocab, &has_vocab)) ||
        (e = get_uint(s, "intermediate_size", KV_MAX_TOKENS, &inter, &has_inter)) ||
        (e = get_uint(s, "moe_intermediate_size", KV_MAX_TOKENS, &moe_inter, &has_moe_inter)) ||
        (e = get_uint(s, "num_experts_per_tok", KV_MAX_DIM, &topk, &has_topk)) ||
        (e = get_uint(s, "shared_expert_intermediate_size", KV_MAX_TOKENS, &shared_inter, NULL)))
        return e;
    for (size_t i = 0; i < 3 && !has_experts; i++)
        if ((e = get_uint(s, experts_keys[i], KV_MAX_DIM, &experts, &has_experts)))
            return e;
    if (!has_vocab || !has_inter)
        return KVT_E_OK;

    attn = h * q + 2 * h * kv + q * h;
    if (strcmp(type, "qwen2") == 0 || strcmp(type, "qwen2_moe") == 0)
        attn += q + 2 * kv;
    else if (get_bool(s, "attention_bias", false))
        attn += q + 2 * kv + h;
    dense_mlp = 3 * h * (double)inter;
    if (has_experts && experts > 1) {
        per_expert = 3 * h * (double)(has_moe_inter ? moe_inter : inter);
        mlp = (double)experts * per_expert + h * (double)experts + 3 * h * (double)shared_inter;
    } else {
        per_expert = 0;
        mlp = dense_mlp;
    }
    if (strncmp(type, "qwen3", 5) == 0)
        attn += 2.0 * m->head_dim; /* q_norm and k_norm */
    total = (double)m->layers * (attn + mlp + 2 * h) + h;
    total += (double)vocab * h * (get_bool(s, "tie_word_embeddings", true) ? 1 : 2);
    active = total;
    if (per_expert > 0 && has_topk && topk < experts)
        active -= (double)m->layers * (double)(experts - topk) * per_expert;
    m->params_b = total / 1e9;
    if (active < total)
        m->active_params_b = active / 1e9;
    info->params_counted = true;
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
    if ((e = get_u32(s, "num_attention_heads", &m->heads, &has_heads)) ||
        (e = get_u32(s, "hidden_size", &m->hidden, NULL)) ||
        (e = get_uint(s, "max_position_embeddings", KV_MAX_TOKENS, &maxpos, NULL)) ||
        (e = get_uint(s, "kv_lora_rank", KV_MAX_DIM, &rank, &has_rank)))
        return e;
    m->max_position = maxpos;

    if (has_rank && rank > 0) {
        m->mla_rank = (uint32_t)rank;
        if ((e = get_u32(s, "qk_rope_head_dim", &m->mla_rope_dim, NULL)))
            return e;
    } else {
        if ((e = get_u32(s, "num_key_value_heads", &m->kv_heads, &has_kv)) ||
            (e = get_u32(s, "head_dim", &m->head_dim, &has_dim)))
            return e;
        if (!has_heads || m->heads == 0)
            return say(s->err, KVT_E_MISSING, "num_attention_heads is missing");
        if (!has_kv || m->kv_heads == 0)
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
