/* A vLLM log's settings as the calculator's kv_deploy, and what in the log
 * the calculator does not model (then no line is compared). */
#include "vllm_explain_priv.h"

#include <stdio.h>
#include <string.h>

#include "kvt_format.h"
#include "kvt_text.h"

/* The log's KV cache dtype as the calculator knows it; false for a name it
 * does not model (int4_per_token_head, int8 ...). */
static bool kv_dtype_of(const char *name, enum kv_dtype *t)
{
    if (!name[0]) {
        *t = KV_DTYPE_AUTO;
        return true;
    }
    if (!kv_dtype_parse(name, t))
        return false;
    return *t == KV_DTYPE_AUTO || *t == KV_DTYPE_FP8 || *t == KV_DTYPE_FP16 ||
           *t == KV_DTYPE_BF16 || *t == KV_DTYPE_FP32 || *t == KV_DTYPE_FP8_DS_MLA ||
           *t == KV_DTYPE_NVFP4 || *t == KV_DTYPE_INT8_PTH || *t == KV_DTYPE_FP8_PTH;
}

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), k = strlen(tail);
    return n >= k && strcmp(s + n - k, tail) == 0;
}

/* speculative_config's method as the calculator models it. Methods without a
 * draft model (vllm/config/speculative.py, SpeculativeConfig.__repr__ names
 * none for them) add no layers; "deepseek_mtp", "qwen3_next_mtp" ... are MTP.
 * False for a method it does not know. */
static bool spec_of(const struct vllm_args *a, enum kv_spec_method *out)
{
    static const char *const draft_free[] = {"ngram", "ngram_gpu", "suffix", "suffix_remote"};
    const char *m = a->spec_method;

    for (size_t i = 0; i < sizeof draft_free / sizeof draft_free[0]; i++)
        if (strcmp(m, draft_free[i]) == 0)
            return (*out = KV_SPEC_NGRAM), true;
    if (strcmp(m, "eagle") == 0)
        *out = KV_SPEC_EAGLE;
    else if (strcmp(m, "eagle3") == 0)
        *out = KV_SPEC_EAGLE3;
    else if (strcmp(m, "mtp") == 0 || ends_with(m, "_mtp"))
        *out = KV_SPEC_MTP;
    else if (strcmp(m, "draft_model") == 0 || (!m[0] && a->spec_model[0]))
        *out = KV_SPEC_DRAFT;
    else
        return false;
    return true;
}

/* What the calculator cannot model, checked before any line is compared.
 * Each row names the evidence in the log. */
bool explain_blocked(const struct explain_ctx *c, const struct kv_result *r, char *why, size_t cap)
{
    const struct vllm_args *a = &c->log->args;
    enum kv_spec_method sm;
    enum kv_dtype t;
    /* the log's own words, made inert: a log is a file from elsewhere */
    char shown[KVT_SAFE_FIELD];

    if ((explain_has_kind(c->log, VLLM_LINE_ATTN_BLOCK) ||
         explain_has_kind(c->log, VLLM_LINE_MAMBA_PAD)) &&
        r->state_layers == 0)
        snprintf(why, cap,
                 "the log is from a hybrid model with Mamba or linear-attention layers (it sets "
                 "the attention block size), but the model given has none: give the model's "
                 "config.json with --config");
    else if (a->spec && !spec_of(a, &sm))
        snprintf(why, cap,
                 "speculative decoding with method '%s', which the calculator "
                 "does not model",
                 kvt_safe(a->spec_method, shown, sizeof shown));
    else if (a->spec && sm == KV_SPEC_DRAFT)
        snprintf(why, cap,
                 "speculative decoding with a separate draft model: its KV layers are its "
                 "own model's, which the log does not describe");
    else if (!kv_dtype_of(a->kv_cache_dtype, &t))
        snprintf(why, cap, "kv_cache_dtype '%s' is not one the calculator models",
                 kvt_safe(a->kv_cache_dtype, shown, sizeof shown));
    else if (c->v0 && (r->hybrid || r->state_layers))
        snprintf(why, cap,
                 "a V0-engine log of a hybrid model: V0 kept every layer at full length, which "
                 "the calculator does not model");
    else
        return false;
    return true;
}

/* kv_deploy from the log's settings; records what had to be assumed. */
void explain_settings(struct explain_ctx *c, char *assumed, size_t cap)
{
    const struct vllm_args *a = &c->log->args;
    enum kv_dtype t;
    enum kv_backend b;
    char tokens[32];

    kv_deploy_defaults(&c->d);
    /* the log is the evidence that vLLM took its max_model_len (rope scaling or
     * VLLM_ALLOW_LONG_MAX_MODEL_LEN=1), so the model's positions do not refuse it */
    c->d.allow_long_max_model_len = true;
    /* the log's release picks the calculator's rules (default util, grouping, windows) */
    if (!c->log->version[0])
        explain_addf(assumed, cap, "vLLM %s rules (the log does not say its version); ",
                     KV_VLLM_DEFAULT);
    else if (!kv_vllm_parse(c->log->version, &c->d.vllm))
        explain_addf(assumed, cap, "vLLM %s rules (the log's version is not one kvtutor reads); ",
                     KV_VLLM_DEFAULT);
    if (a->async_scheduling == 0)
        c->d.sync_scheduling = true; /* one batch in flight, not two */
    if (a->tp)
        c->d.tp = a->tp;
    if (a->pp)
        c->d.pp = a->pp;
    if (a->dcp)
        c->d.dcp = a->dcp;
    if (a->block_size)
        c->d.block_size = a->block_size;
    else if (!c->m.mla_rank && !c->m.state_layers)
        explain_addf(assumed, cap, "block size 16 (vLLM's default; the log does not set one); ");
    if (kv_dtype_of(a->kv_cache_dtype, &t))
        c->d.kv_dtype = t;
    if (a->dtype[0] && kv_dtype_parse(a->dtype, &t) &&
        (t == KV_DTYPE_BF16 || t == KV_DTYPE_FP16 || t == KV_DTYPE_FP32))
        c->m.dtype = t;
    if (a->max_num_batched_tokens)
        c->d.max_num_batched_tokens = a->max_num_batched_tokens;
    else if (c->m.sliding_window)
        explain_addf(assumed, cap, "max_num_batched_tokens %s (the log does not say); ",
                     kvt_fmt_int(c->d.max_num_batched_tokens, tokens, sizeof tokens));
    if (a->prefix_caching == 0)
        c->d.no_prefix_caching = true;
    else if (a->prefix_caching == 1)
        c->d.enable_prefix_caching = true; /* a hybrid's default is off */
    if (strcmp(a->mamba_cache_mode, "none") == 0)
        c->d.mamba_mode = KV_MAMBA_NONE;
    else if (strcmp(a->mamba_cache_mode, "align") == 0)
        c->d.mamba_mode = KV_MAMBA_ALIGN;
    else if (strcmp(a->mamba_cache_mode, "all") == 0)
        c->d.mamba_mode = KV_MAMBA_ALL;
    if (a->mamba_cache_dtype[0] && kv_dtype_parse(a->mamba_cache_dtype, &t))
        c->d.mamba_dtype = t;
    if (a->mamba_ssm_cache_dtype[0] && kv_dtype_parse(a->mamba_ssm_cache_dtype, &t))
        c->d.mamba_ssm_dtype = t;
    /* a separate draft model's layers are not in the log: left out, and blocked */
    if (a->spec && spec_of(a, &c->d.spec_method) && c->d.spec_method != KV_SPEC_DRAFT)
        c->d.spec_tokens = a->spec_tokens;
    else
        c->d.spec_method = KV_SPEC_NONE;
    if (a->attention_backend[0] && kv_backend_parse(a->attention_backend, &b))
        c->d.backend = b;
    c->d.num_gpu_blocks_override = a->num_gpu_blocks_override;
    c->d.kv_cache_memory_bytes = a->kv_cache_memory_bytes;
    if (!a->tp && !c->log->engine_v1 && !c->log->args_line)
        explain_addf(assumed, cap, "TP 1 (the log does not say); ");
    {
        size_t n = strlen(assumed);
        if (n >= 2)
            assumed[n - 2] = '\0'; /* the last "; " */
    }
}
