/* The model families whose attention reads its own keys rather than
 * num_key_value_heads, each as vLLM's model code reads it
 * (hf_config_priv.h). The families whose layers kvtutor does not size at
 * all are refused in hf_config.c's table of unmodelled fields. */
#include "hf_config_priv.h"

#include <stdio.h>
#include <string.h>

/* Hugging Face's attribute_map of each config class: the file's spelling of
 * a field the code asks for under the common name. */
static const struct hf_alias gpt_bigcode_aliases[] = {
    /* transformers' GPTBigCodeConfig.attribute_map */
    {"num_hidden_layers", "n_layer"},
    {"num_attention_heads", "n_head"},
    {"hidden_size", "n_embd"},
    {"max_position_embeddings", "n_positions"},
    {NULL, NULL},
};
static const struct hf_alias refinedweb_aliases[] = {
    /* vllm/transformers_utils/configs/falcon.py, RWConfig.attribute_map and
     * its n_embed keyword */
    {"num_hidden_layers", "n_layer"},
    {"num_attention_heads", "n_head"},
    {"num_kv_heads", "n_head_kv"},
    {"hidden_size", "n_embed"},
    {NULL, NULL},
};
static const struct hf_alias falcon_aliases[] = {
    /* transformers' FalconConfig takes n_embed for hidden_size */
    {"hidden_size", "n_embed"},
    {NULL, NULL},
};
static const struct hf_alias chatglm_aliases[] = {
    /* vllm/transformers_utils/configs/chatglm.py, ChatGLMConfig: attribute_map
     * maps num_hidden_layers to num_layers; max_position_embeddings is set to
     * seq_length */
    {"num_hidden_layers", "num_layers"},
    {"max_position_embeddings", "seq_length"},
    {NULL, NULL},
};

static bool is_refinedweb(const char *type)
{
    return strcmp(type, "RefinedWeb") == 0 || strcmp(type, "RefinedWebModel") == 0;
}

const struct hf_alias *hf_family_aliases(const char *type)
{
    if (strcmp(type, "gpt_bigcode") == 0)
        return gpt_bigcode_aliases;
    if (is_refinedweb(type))
        return refinedweb_aliases;
    if (strcmp(type, "falcon") == 0)
        return falcon_aliases;
    if (strcmp(type, "chatglm") == 0)
        return chatglm_aliases;
    return NULL;
}

/* One field, looked up as hf_field does but without the aliases. */
static json_t *plain(const struct hf_src *s, const char *key)
{
    struct hf_src bare = *s;
    bare.aliases = NULL;
    return hf_field(&bare, key);
}

enum kvt_err hf_family_check_aliases(const struct hf_src *s)
{
    for (const struct hf_alias *a = s->aliases; a && a->key; a++) {
        json_t *x = plain(s, a->key), *y = plain(s, a->spelled);
        if (x && y && !json_equal(x, y))
            return hf_say(s->err, KVT_E_PARSE,
                          "%s and %s disagree: this family's config class reads them as one "
                          "field, and which one wins is not something to guess",
                          a->key, a->spelled);
    }
    return KVT_E_OK;
}

/* A positive count, `fallback` when absent; 0 is refused naming the field. */
static enum kvt_err count_or(const struct hf_src *s, const char *key, uint32_t fallback,
                             uint32_t *out)
{
    bool has = false;
    uint32_t v = 0;
    enum kvt_err e = hf_get_u32(s, key, &v, &has);
    if (e)
        return e;
    if (has && v == 0)
        return hf_say(s->err, KVT_E_PARSE, "%s is 0; it must be a positive integer", key);
    *out = has ? v : fallback;
    return KVT_E_OK;
}

enum kvt_err hf_family_kv_heads(const struct hf_src *s, const char *type, uint32_t heads,
                                uint32_t *kv_heads, bool *ruled)
{
    *ruled = true;
    if (strcmp(type, "falcon") == 0 || is_refinedweb(type)) {
        /* vllm/model_executor/models/falcon.py, FalconAttention.__init__:
         * new_decoder_architecture takes num_kv_heads, else multi_query means
         * one KV head, else every head has its own. transformers'
         * FalconConfig defaults multi_query to true and num_kv_heads to the
         * heads; vLLM's RWConfig defaults n_head_kv to 1 and turns the new
         * architecture on for a hidden size of 8192 (Falcon-40B). */
        bool rw = is_refinedweb(type);
        uint32_t hidden = 0;
        enum kvt_err e = hf_get_u32(s, "hidden_size", &hidden, NULL);
        if (e)
            return e;
        if (hf_get_bool(s, "new_decoder_architecture", false) || (rw && hidden == 8192))
            return count_or(s, "num_kv_heads", rw ? 1 : heads, kv_heads);
        *kv_heads = hf_get_bool(s, "multi_query", true) ? 1 : heads;
        return KVT_E_OK;
    }
    if (strcmp(type, "gpt_bigcode") == 0) {
        /* vllm/model_executor/models/gpt_bigcode.py, GPTBigCodeAttention.__init__:
         * multi_query (transformers' default true) keeps one KV head */
        *kv_heads = hf_get_bool(s, "multi_query", true) ? 1 : heads;
        return KVT_E_OK;
    }
    if (strcmp(type, "chatglm") == 0) {
        /* vllm/model_executor/models/chatglm.py, GLMAttention.__init__:
         * multi_query_group_num KV heads when multi_query_attention (the
         * config class defaults: false, 1), else one a head */
        if (!hf_get_bool(s, "multi_query_attention", false)) {
            *kv_heads = heads;
            return KVT_E_OK;
        }
        return count_or(s, "multi_query_group_num", 1, kv_heads);
    }
    *ruled = false;
    return KVT_E_OK;
}

void hf_family_note(const struct hf_src *s, uint32_t layers, struct hf_config_info *info)
{
    json_t *chunk = hf_field(s, "attention_chunk_size"), *rope = hf_field(s, "no_rope_layers");
    char where[64] = "its RoPE layers";
    size_t n = 0;

    if (!json_is_integer(chunk) || json_integer_value(chunk) <= 0)
        return;
    /* vllm/model_executor/models/llama4.py, Llama4Attention.__init__: a layer
     * whose no_rope_layers entry is not 0 runs ChunkedLocalAttention; an
     * empty or absent list is, in transformers' Llama4TextConfig, every
     * layer but each no_rope_layer_interval-th (default 4) */
    if (json_is_array(rope) && json_array_size(rope) == layers) {
        for (size_t i = 0; i < layers; i++)
            n += json_is_integer(json_array_get(rope, i)) &&
                 json_integer_value(json_array_get(rope, i)) != 0;
        snprintf(where, sizeof where, "%zu of the %u layers", n, layers);
    } else if (strncmp(info->model_type, "llama4", 6) == 0 && json_array_size(rope) == 0) {
        json_t *iv = hf_field(s, "no_rope_layer_interval");
        json_int_t every = json_is_integer(iv) ? json_integer_value(iv) : 4;
        if (every > 0) {
            for (uint32_t i = 0; i < layers; i++)
                n += (i + 1) % every != 0;
            snprintf(where, sizeof where, "%zu of the %u layers", n, layers);
        }
    }
    /* vllm/config/vllm.py, VllmConfig.__post_init__: any attention_chunk_size
     * turns the hybrid KV cache manager off ("There is a latency regression
     * when using chunked local attention with the hybrid KV cache manager")
     * unless VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE=1, and
     * vllm/v1/core/kv_cache_utils.py, unify_hybrid_kv_cache_specs, then sizes
     * the chunked layers as full attention */
    snprintf(info->note, sizeof info->note,
             "attention_chunk_size %lld: chunked local attention on %s; vLLM turns its hybrid KV "
             "cache manager off for it by default and sizes those layers as full attention, and "
             "so does this (with VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE=1 they would "
             "keep only a chunk, which is not modelled)",
             (long long)json_integer_value(chunk), where);
}
