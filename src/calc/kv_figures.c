#include "kv_figures.h"

struct sink {
    struct kv_figure *out;
    size_t n, cap;
};

static void put(struct sink *s, struct kv_figure f)
{
    if (s->n < s->cap)
        s->out[s->n++] = f;
}

static void u(struct sink *s, const char *name, bool has, uint64_t v)
{
    put(s, (struct kv_figure){name, has ? KV_FIG_INT : KV_FIG_NULL, {.i = v}});
}

static void d(struct sink *s, const char *name, bool has, double v)
{
    put(s, (struct kv_figure){name, has ? KV_FIG_REAL : KV_FIG_NULL, {.r = v}});
}

static void t(struct sink *s, const char *name, const char *v)
{
    put(s, (struct kv_figure){name, v ? KV_FIG_TEXT : KV_FIG_NULL, {.t = v}});
}

/* the contract's reason for a null decode_tokens_per_s */
static const char *decode_reason(const struct kv_result *r)
{
    if (!r->has_decode)
        return NULL;
    switch (r->decode_reason) {
    case KV_DECODE_WEIGHTS_DONT_FIT:
        return "weights and overhead exceed gpu memory x utilization";
    case KV_DECODE_KV_DOESNT_FIT:
        return "batch x (context + 1) tokens of KV exceed the kv cache";
    default:
        return NULL;
    }
}

static const char *reason(enum kv_reason why)
{
    switch (why) {
    case KV_REASON_WEIGHTS_DONT_FIT:
        return "weights and overhead exceed gpu memory x utilization";
    case KV_REASON_SEQ_DOESNT_FIT:
        return "one request at max_model_len needs more blocks than fit";
    default:
        return NULL;
    }
}

size_t kv_figures(const struct kv_result *r, struct kv_figure *out, size_t cap)
{
    struct sink s = {out, 0, cap};
    const struct kv_deploy *dp = &r->deploy;
    t(&s, "vllm_version", r->vllm_version);

    t(&s, "kv_dtype", kv_dtype_name(r->kv_dtype));
    t(&s, "weights_dtype", kv_dtype_name(r->weights_dtype));
    t(&s, "experts_dtype",
      r->model.experts_dtype != KV_DTYPE_AUTO ? kv_dtype_name(r->model.experts_dtype) : NULL);
    u(&s, "kv_bytes_per_token", true, r->kv_bytes_per_token);
    u(&s, "kv_heads_per_gpu", true, r->kv_heads_per_gpu);
    put(&s, (struct kv_figure){"kv_heads_replicated", KV_FIG_BOOL, {.b = r->replicated}});
    u(&s, "page_bytes", true, r->page_bytes);
    u(&s, "block_bytes", true, r->block_set_bytes);
    u(&s, "kv_cache_groups", true, r->kv_cache_groups);
    u(&s, "group_size", true, r->group_size);
    u(&s, "padding_layers", true, r->padding_layers);
    u(&s, "block_size", true, dp->block_size);
    u(&s, "attention_block_size", r->attention_block_size > 0, r->attention_block_size);
    u(&s, "state_layers", true, r->state_layers);
    u(&s, "state_bytes_per_request", r->state_layers > 0, r->state_bytes_per_request);
    t(&s, "mamba_dtype", r->state_layers > 0 ? kv_dtype_name(dp->mamba_dtype) : NULL);
    t(&s, "mamba_ssm_dtype", r->state_layers > 0 ? kv_dtype_name(dp->mamba_ssm_dtype) : NULL);
    t(&s, "mamba_cache_mode",
      r->state_layers == 0              ? NULL
      : r->mamba_mode == KV_MAMBA_ALIGN ? "align"
      : r->mamba_mode == KV_MAMBA_ALL   ? "all"
                                        : "none");
    u(&s, "draft_layers", true, r->draft_layers);
    u(&s, "dcp", true, dp->dcp);
    t(&s, "attention_backend", kv_backend_name(dp->backend));
    put(&s,
        (struct kv_figure){"num_gpu_blocks_overridden", KV_FIG_BOOL, {.b = r->blocks_overridden}});
    d(&s, "gpu_memory_utilization", true, dp->util);
    u(&s, "max_num_batched_tokens", true, dp->max_num_batched_tokens);
    u(&s, "max_model_len", r->has_request, r->max_model_len);
    u(&s, "blocks_per_request", r->has_request, r->blocks_per_request);
    u(&s, "kv_budget_bytes", r->has_budget, r->kv_budget_bytes);
    u(&s, "num_gpu_blocks", r->has_blocks, r->num_gpu_blocks);
    u(&s, "kv_tokens", r->has_blocks, r->kv_tokens);
    d(&s, "max_concurrency", r->has_concurrency, r->max_concurrency);
    u(&s, "max_concurrent_seqs", r->has_concurrency, r->max_concurrent_seqs);
    u(&s, "max_model_len_fits", r->has_blocks, r->max_model_len_fits);
    u(&s, "weights_bytes", r->has_weights, r->weights_bytes);
    u(&s, "weights_bytes_total", r->has_weights, r->weights_bytes_total);
    u(&s, "active_weight_bytes", r->active_weight_bytes > 0, r->active_weight_bytes);
    u(&s, "experts", r->model.experts > 0, r->model.experts);
    u(&s, "experts_per_token", r->model.experts > 0, r->model.experts_per_token);
    u(&s, "batch", true, dp->batch);
    u(&s, "context", true, dp->context);
    d(&s, "bandwidth_gbps", dp->bandwidth_gbps > 0, dp->bandwidth_gbps);
    d(&s, "decode_weight_read_bytes", r->active_weight_bytes > 0, r->decode_weight_read_bytes);
    d(&s, "decode_experts_touched", r->decode_experts_touched > 0, r->decode_experts_touched);
    d(&s, "decode_tokens_per_s_memory", r->has_decode, r->decode_tokens_per_s_memory);
    d(&s, "decode_tokens_per_s_compute", r->has_compute, r->decode_tokens_per_s_compute);
    d(&s, "decode_tokens_per_s", r->has_ceiling, r->decode_tokens_per_s);
    d(&s, "decode_tokens_per_s_per_seq", r->has_ceiling, r->decode_tokens_per_s_seq);
    t(&s, "decode_bound", r->has_bound ? (r->compute_bound ? "compute" : "memory") : NULL);
    u(&s, "compute_bound_batch", r->has_bound && r->compute_bound_ever, r->compute_bound_batch);
    t(&s, "reason", r->reason != KV_REASON_NONE ? reason(r->reason) : decode_reason(r));
    return s.n;
}
