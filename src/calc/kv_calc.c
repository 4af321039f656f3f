#include "kv_calc.h"
#include "kv_backend.h"
#include "kv_decode.h"
#include "kv_moe.h"
#include "kv_resolve.h"
#include "kv_notes.h"
#include "kv_state.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

bool kv_prefix_caching_on(const struct kv_model *m, const struct kv_deploy *d)
{
    /* on by default in V1, except for hybrid models, which opt in */
    return !d->no_prefix_caching && (m->state_layers == 0 || d->enable_prefix_caching);
}

static const char *const field_names[] = {
#define KV_FIELD_STR(name, str) str,
    KV_FIELDS(KV_FIELD_STR)
#undef KV_FIELD_STR
};

const char *kv_field_name(enum kv_field f)
{
    if ((unsigned)f >= KV_FIELD__COUNT)
        return "?";
    return field_names[f];
}

void kv_deploy_defaults(struct kv_deploy *d)
{
    *d = (struct kv_deploy){
        .util = 0.0, /* the release's default, resolved in kv_calc */
        .tp = 1,
        .pp = 1,
        .block_size = 16,
        .max_num_batched_tokens = 8192,
        .batch = 1,
        .context = 0,
        .kv_dtype = KV_DTYPE_AUTO,
    };
}

/* Checked arithmetic: every byte, block and token count goes through these,
 * so an absurd input becomes KVT_E_OVERFLOW instead of a wrapped number. */
static bool mul(uint64_t a, uint64_t b, uint64_t *r)
{
    return !__builtin_mul_overflow(a, b, r);
}

static bool add(uint64_t a, uint64_t b, uint64_t *r)
{
    return !__builtin_add_overflow(a, b, r);
}

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
    return a / b + (a % b != 0);
}

/* A GiB figure to bytes, rounded down as vLLM's int() does. Callers have
 * already bounded x by KV_MAX_GIB, so the product fits in 64 bits. */
static uint64_t gib_to_bytes(double x)
{
    return (uint64_t)floor(x * KV_GIB);
}

/* Parameters (billions) at `bits` per weight, in bytes. */
static uint64_t param_bytes(double params_b, double bits)
{
    return (uint64_t)llround(params_b * 1e9 * bits / 8.0);
}

static enum kvt_err resolve_deploy(const struct kv_model *m, struct kv_deploy *d,
                                   const struct kv_rules *rules, struct kv_check *c)
{
    if (d->util == 0.0)
        d->util = rules->util_default;
    if (!(d->util > 0.0 && d->util <= 1.0))
        return kv_fail(c, KVT_E_RANGE, KV_FIELD_UTIL, KV_FIELD_NONE);
    if (kv_bad_gib(d->gpu_mem_gib))
        return kv_fail(c, KVT_E_RANGE, KV_FIELD_GPU_MEM_GIB, KV_FIELD_NONE);
    if (kv_bad_gib(d->overhead_gib))
        return kv_fail(c, KVT_E_RANGE, KV_FIELD_OVERHEAD_GIB, KV_FIELD_NONE);
    if (kv_bad_gib(d->kv_budget_gib))
        return kv_fail(c, KVT_E_RANGE, KV_FIELD_KV_BUDGET_GIB, KV_FIELD_NONE);
    if (kv_bad_rate(d->bandwidth_gbps))
        return kv_fail(c, KVT_E_RANGE, KV_FIELD_BANDWIDTH, KV_FIELD_NONE);
    if (kv_bad_rate(d->tflops))
        return kv_fail(c, KVT_E_RANGE, KV_FIELD_TFLOPS, KV_FIELD_NONE);
    if (d->tp == 0 || d->tp > KV_MAX_PARALLEL)
        return kv_fail(c, KVT_E_RANGE, KV_FIELD_TP, KV_FIELD_NONE);
    if (d->pp == 0 || d->pp > KV_MAX_PARALLEL)
        return kv_fail(c, KVT_E_RANGE, KV_FIELD_PP, KV_FIELD_NONE);
    if (d->block_size == 0 || d->block_size > KV_MAX_BLOCK_SIZE)
        return kv_fail(c, KVT_E_RANGE, KV_FIELD_BLOCK_SIZE, KV_FIELD_NONE);
    if (d->max_model_len > KV_MAX_TOKENS)
        return kv_fail(c, KVT_E_RANGE, KV_FIELD_MAX_MODEL_LEN, KV_FIELD_NONE);
    if (d->max_num_batched_tokens == 0 || d->max_num_batched_tokens > KV_MAX_TOKENS)
        return kv_fail(c, KVT_E_RANGE, KV_FIELD_MAX_NUM_BATCHED_TOKENS, KV_FIELD_NONE);
    if (d->batch == 0 || d->batch > KV_MAX_BATCH)
        return kv_fail(c, KVT_E_RANGE, KV_FIELD_BATCH, KV_FIELD_NONE);
    if (d->context > KV_MAX_TOKENS)
        return kv_fail(c, KVT_E_RANGE, KV_FIELD_CONTEXT, KV_FIELD_NONE);
    if (d->pp > m->layers)
        return kv_fail(c, KVT_E_PP_LAYERS, KV_FIELD_PP, KV_FIELD_LAYERS);
    if (d->dcp == 0)
        d->dcp = 1;
    if (d->dcp > KV_MAX_PARALLEL)
        return kv_fail(c, KVT_E_RANGE, KV_FIELD_DCP, KV_FIELD_NONE);
    /* DCP reuses the TP group: vLLM asserts tp % dcp == 0 */
    if (d->tp % d->dcp != 0)
        return kv_fail(c, KVT_E_CONFLICT, KV_FIELD_DCP, KV_FIELD_TP);
    if (d->spec_tokens > 1024)
        return kv_fail(c, KVT_E_RANGE, KV_FIELD_SPEC_TOKENS, KV_FIELD_NONE);
    if (d->spec_layers > KV_MAX_DIM)
        return kv_fail(c, KVT_E_RANGE, KV_FIELD_SPEC_LAYERS, KV_FIELD_NONE);
    if ((unsigned)d->spec_method > KV_SPEC_NGRAM)
        return kv_fail(c, KVT_E_RANGE, KV_FIELD_SPEC_METHOD, KV_FIELD_NONE);
    if (d->spec_method == KV_SPEC_NONE && (d->spec_tokens > 0 || d->spec_layers > 0))
        return kv_fail(c, KVT_E_MISSING, KV_FIELD_SPEC_METHOD, KV_FIELD_NONE);
    if (d->spec_method != KV_SPEC_NONE && d->spec_tokens == 0)
        return kv_fail(c, KVT_E_MISSING, KV_FIELD_SPEC_TOKENS, KV_FIELD_NONE);
    if (d->spec_method == KV_SPEC_NGRAM && d->spec_layers > 0)
        return kv_fail(c, KVT_E_CONFLICT, KV_FIELD_SPEC_LAYERS, KV_FIELD_SPEC_METHOD);
    if (d->spec_layers == 0) {
        /* EAGLE and EAGLE-3 drafts are one decoder layer unless told; MTP has
         * the config's own; a separate draft model must say how many */
        if (d->spec_method == KV_SPEC_EAGLE || d->spec_method == KV_SPEC_EAGLE3)
            d->spec_layers = 1;
        else if (d->spec_method == KV_SPEC_MTP)
            d->spec_layers = m->mtp_layers;
        if (d->spec_layers == 0 &&
            (d->spec_method == KV_SPEC_MTP || d->spec_method == KV_SPEC_DRAFT))
            return kv_fail(c, KVT_E_MISSING, KV_FIELD_SPEC_LAYERS, KV_FIELD_NONE);
    }
    if (d->pp_partition_n > 0) {
        /* vllm/distributed/utils.py, get_pp_indices with VLLM_PP_LAYER_PARTITION:
         * one count a stage, adding up to num_hidden_layers */
        uint64_t sum = 0;
        if (d->pp_partition_n > KV_MAX_PP_STAGES)
            return kv_fail(c, KVT_E_RANGE, KV_FIELD_PP_PARTITION, KV_FIELD_NONE);
        /* the split is by decoder layer; which of them hold KV of which kind
         * (recurrent, sliding, a draft's) depends on a layer pattern not modelled */
        if (m->state_layers > 0)
            return kv_fail(c, KVT_E_CONFLICT, KV_FIELD_PP_PARTITION, KV_FIELD_STATE_LAYERS);
        if (m->sliding_layers > 0 && m->sliding_layers < m->layers)
            return kv_fail(c, KVT_E_CONFLICT, KV_FIELD_PP_PARTITION, KV_FIELD_SLIDING_LAYERS);
        if (d->spec_method != KV_SPEC_NONE && d->spec_method != KV_SPEC_NGRAM)
            return kv_fail(c, KVT_E_CONFLICT, KV_FIELD_PP_PARTITION, KV_FIELD_SPEC_METHOD);
        if (d->pp_partition_n != d->pp)
            return kv_fail(c, KVT_E_PP_PARTITION_COUNT, KV_FIELD_PP_PARTITION, KV_FIELD_PP);
        for (uint32_t k = 0; k < d->pp_partition_n; k++)
            sum += d->pp_partition[k];
        if (sum != m->layers)
            return kv_fail(c, KVT_E_PP_PARTITION_SUM, KV_FIELD_PP_PARTITION, KV_FIELD_LAYERS);
    }
    if ((unsigned)d->mamba_mode > KV_MAMBA_ALL)
        return kv_fail(c, KVT_E_RANGE, KV_FIELD_MAMBA_CACHE_MODE, KV_FIELD_NONE);
    /* align and all checkpoint states for prefix caching, which they need */
    if (d->no_prefix_caching && (d->mamba_mode == KV_MAMBA_ALIGN || d->mamba_mode == KV_MAMBA_ALL))
        return kv_fail(c, KVT_E_CONFLICT, KV_FIELD_MAMBA_CACHE_MODE, KV_FIELD_NONE);
    if ((unsigned)d->backend >= KV_BACKEND__COUNT)
        return kv_fail(c, KVT_E_RANGE, KV_FIELD_ATTENTION_BACKEND, KV_FIELD_NONE);
    if (m->mla_rank == 0 && kv_backend_is_mla(d->backend))
        return kv_fail(c, KVT_E_CONFLICT, KV_FIELD_ATTENTION_BACKEND, KV_FIELD_MLA_RANK);
    if (d->backend == KV_BACKEND_DEFAULT && m->mla_rank > 0) {
        /* sparse MLA runs on FlashMLA-sparse; dense MLA defaults to CUTLASS MLA
         * on SM100; on Hopper 0.19 kept the configured 16 (row r022) */
        if (m->index_head_dim > 0)
            d->backend = KV_BACKEND_FLASHMLA_SPARSE;
        else if (d->gpu_sm >= 100 && d->gpu_sm < 110)
            d->backend = KV_BACKEND_CUTLASS_MLA;
    }
    {
        uint32_t block = kv_backend_block(d->backend, d->block_size);
        if (block == 0)
            return kv_fail(c, KVT_E_BLOCK_BACKEND, KV_FIELD_BLOCK_SIZE, KV_FIELD_ATTENTION_BACKEND);
        d->block_size = block;
    }
    /* sparse MLA runs on 64-token blocks whichever backend was named */
    if (m->index_head_dim > 0)
        d->block_size = 64;
    if (d->num_gpu_blocks_override > ((uint64_t)1 << 40))
        return kv_fail(c, KVT_E_RANGE, KV_FIELD_NUM_GPU_BLOCKS_OVERRIDE, KV_FIELD_NONE);
    if (d->kv_cache_memory_bytes > (uint64_t)(KV_MAX_GIB * KV_GIB))
        return kv_fail(c, KVT_E_RANGE, KV_FIELD_KV_CACHE_MEMORY_BYTES, KV_FIELD_NONE);

    if (m->mla_rank == 0) {
        /* vLLM shards KV heads when TP divides them and replicates them when
         * TP is a multiple of them; anything else cannot be laid out. */
        bool shards = m->kv_heads % d->tp == 0;
        bool replicates = d->tp % m->kv_heads == 0;
        if (!shards && !replicates)
            return kv_fail(c, KVT_E_TP_KV_HEADS, KV_FIELD_TP, KV_FIELD_KV_HEADS);
    }
    if (m->heads > 0 && m->heads % d->tp != 0)
        return kv_fail(c, KVT_E_TP_HEADS, KV_FIELD_TP, KV_FIELD_HEADS);

    if (d->kv_dtype == KV_DTYPE_AUTO)
        /* vLLM's kv_cache_dtype=auto: the model's dtype (quantized weights do not
         * change it), or the model's own cache dtype where it has one */
        d->kv_dtype = m->index_head_dim > 0 ? KV_DTYPE_FP8_DS_MLA : m->dtype;
    if (d->kv_dtype == KV_DTYPE_FP8_DS_MLA) {
        /* 512 fp8 latent values, 4 fp32 scales, 64 bf16 rope values */
        if (m->mla_rank != 512 || m->mla_rope_dim != 64)
            return kv_fail(c, KVT_E_CONFLICT, KV_FIELD_KV_DTYPE, KV_FIELD_MLA_RANK);
        /* the layout of the sparse MLA kernels (DeepSeek-V3.2's indexer): a dense
         * MLA model's backends take auto, fp8 or fp8_e4m3 only
         * (vllm/v1/attention/backends/mla/flashmla.py, FlashMLABackend
         * .supported_kv_cache_dtypes), so vLLM finds no backend for it */
        if (m->index_head_dim == 0)
            return kv_fail(c, KVT_E_CONFLICT, KV_FIELD_KV_DTYPE, KV_FIELD_INDEX_HEAD_DIM);
    } else if (d->kv_dtype == KV_DTYPE_NVFP4) {
        if (m->mla_rank > 0)
            return kv_fail(c, KVT_E_CONFLICT, KV_FIELD_KV_DTYPE, KV_FIELD_MLA_RANK);
        if (m->head_dim % 16 != 0)
            return kv_fail(c, KVT_E_CONFLICT, KV_FIELD_KV_DTYPE, KV_FIELD_HEAD_DIM);
    } else if (d->kv_dtype == KV_DTYPE_INT8_PTH || d->kv_dtype == KV_DTYPE_FP8_PTH) {
        /* scales a KV head a token: an MLA latent has no heads to scale */
        if (m->mla_rank > 0)
            return kv_fail(c, KVT_E_CONFLICT, KV_FIELD_KV_DTYPE, KV_FIELD_MLA_RANK);
    } else if (kv_dtype_kv_bytes(d->kv_dtype) == 0) {
        return kv_fail(c, KVT_E_RANGE, KV_FIELD_KV_DTYPE, KV_FIELD_NONE);
    }
    if (d->mamba_dtype == KV_DTYPE_AUTO)
        d->mamba_dtype = m->dtype; /* mamba_cache_dtype=auto: the model dtype */
    if (d->mamba_ssm_dtype == KV_DTYPE_AUTO && m->nemotron_h && rules->nemotron_ssm_hook)
        /* vllm/model_executor/models/config.py, NemotronHForCausalLMConfig:
         * auto becomes the config's mamba_ssm_cache_dtype, else the release's default */
        d->mamba_ssm_dtype = m->ssm_cache_dtype != KV_DTYPE_AUTO ? m->ssm_cache_dtype
                             : rules->nemotron_ssm_fp32          ? KV_DTYPE_FP32
                                                                 : KV_DTYPE_FP16;
    if (d->mamba_ssm_dtype == KV_DTYPE_AUTO)
        /* mamba_ssm_cache_dtype=auto: the config's mamba_ssm_dtype, else the conv state's */
        d->mamba_ssm_dtype = m->ssm_dtype != KV_DTYPE_AUTO ? m->ssm_dtype : d->mamba_dtype;
    if (!kv_is_model_dtype(d->mamba_dtype))
        return kv_fail(c, KVT_E_RANGE, KV_FIELD_KV_DTYPE, KV_FIELD_NONE);
    if (!kv_is_model_dtype(d->mamba_ssm_dtype))
        return kv_fail(c, KVT_E_RANGE, KV_FIELD_KV_DTYPE, KV_FIELD_NONE);
    if (d->max_model_len == 0)
        d->max_model_len = m->max_position;
    /* vllm/config/model.py, _get_and_verify_max_len: a max_model_len past the
     * derived one (max_position_embeddings, stretched by rope scaling where the
     * config has it) is refused unless VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 */
    if (m->max_position > 0 && d->max_model_len > m->max_position && !d->allow_long_max_model_len)
        return kv_fail(c, KVT_E_MAX_LEN, KV_FIELD_MAX_MODEL_LEN, KV_FIELD_NONE);
    return KVT_E_OK;
}

/* One token of one attention layer: whole model (*total) and on one GPU. */
static void token_bytes(struct kv_result *r, uint64_t *total)
{
    const struct kv_model *m = &r->model;
    const struct kv_deploy *d = &r->deploy;

    if (r->mla) {
        /* One latent of rank + rope values per token per layer, whole on every
         * rank; fp8_ds_mla packs it as 512 fp8 + 4 fp32 scales + 64 bf16 = 656 B */
        r->kv_heads_per_gpu = 1;
        *total = d->kv_dtype == KV_DTYPE_FP8_DS_MLA
                     ? 656
                     : ((uint64_t)m->mla_rank + m->mla_rope_dim) * r->kv_elem_bytes;
        /* DeepSeek-V3.2's indexer keeps fp8 keys with an fp32 scale per 128 values
         * in the same group: index_head_dim + index_head_dim / 128 x 4 B */
        if (m->index_head_dim > 0)
            *total += (uint64_t)m->index_head_dim + (uint64_t)m->index_head_dim / 128 * 4;
        r->layer_token_bytes = *total;
        return;
    }
    r->replicated = d->tp > m->kv_heads;
    r->kv_heads_per_gpu = r->replicated ? 1 : m->kv_heads / d->tp;
    /* 2 (K and V) x heads x one head's bytes: at most 2^1 x 2^20 x 2^22 */
    *total = 2ull * m->kv_heads * kv_dtype_head_bytes(d->kv_dtype, m->head_dim);
    r->layer_token_bytes =
        2ull * r->kv_heads_per_gpu * kv_dtype_head_bytes(d->kv_dtype, m->head_dim);
}

/* The recurrent layers' state and the block size that unifies the pages:
 * vLLM grows the attention block to the smallest multiple of 16 tokens whose
 * page holds one state, then pads the state to that page
 * (vllm/model_executor/models/config.py,
 * HybridAttentionMambaModelConfig.verify_and_update_config). */
static enum kvt_err state_and_block(struct kv_result *r, struct kv_check *c)
{
    const struct kv_model *m = &r->model;
    struct kv_deploy *d = &r->deploy;
    struct kv_state_shape st;
    enum kv_field bad = KV_FIELD_NONE;
    enum kvt_err e;
    uint64_t align = 16, per_request, grown;

    if (m->state_layers == 0)
        return KVT_E_OK;
    e = kv_state_shape(m, d->tp, d->spec_tokens, kv_dtype_kv_bytes(d->mamba_dtype),
                       kv_dtype_kv_bytes(d->mamba_ssm_dtype), &st, &bad);
    if (e != KVT_E_OK)
        return kv_fail(c, e, e == KVT_E_OVERFLOW ? bad : KV_FIELD_TP,
                       e == KVT_E_OVERFLOW ? KV_FIELD_NONE : bad);
    r->state_layers = m->state_layers;
    r->state_layer_bytes = st.layer_bytes;
    if (!mul(st.layer_bytes, (uint64_t)d->tp * m->state_layers, &per_request))
        return kv_fail(c, KVT_E_OVERFLOW, KV_FIELD_SSM_STATE_DIM, KV_FIELD_STATE_LAYERS);
    r->state_bytes_per_request = per_request;
    grown = align * ceil_div(st.layer_bytes, align * r->layer_token_bytes);
    if (grown > KV_MAX_BLOCK_SIZE)
        return kv_fail(c, KVT_E_OVERFLOW, KV_FIELD_BLOCK_SIZE, KV_FIELD_SSM_STATE_DIM);
    if (d->block_size < grown) {
        d->block_size = (uint32_t)grown;
        r->attention_block_size = (uint32_t)grown;
    }
    return KVT_E_OK;
}

static enum kvt_err shape(struct kv_result *r, struct kv_check *c)
{
    const struct kv_model *m = &r->model;
    const struct kv_deploy *d = &r->deploy;
    uint64_t per_layer_total; /* one token, one layer, whole model */
    uint32_t attention, buckets[3], groups;
    enum kvt_err e;

    r->kv_elem_bytes = kv_dtype_kv_bytes(d->kv_dtype);
    r->kv_dtype = d->kv_dtype;
    r->weights_dtype = m->weights_dtype;
    r->mla = m->mla_rank > 0;
    r->head_dim = m->head_dim;
    token_bytes(r, &per_layer_total);
    /* speculative drafts add full-attention layers of the target's shape */
    r->draft_layers = d->spec_method == KV_SPEC_NGRAM ? 0 : d->spec_layers;
    attention = m->layers - m->state_layers + r->draft_layers;
    if (!mul(per_layer_total, attention, &r->kv_bytes_per_token))
        return kv_fail(c, KVT_E_OVERFLOW, r->mla ? KV_FIELD_MLA_RANK : KV_FIELD_HEAD_DIM,
                       KV_FIELD_LAYERS);
    if ((e = state_and_block(r, c)) != KVT_E_OK)
        return e;
    if (!mul(r->layer_token_bytes, d->block_size, &r->page_bytes))
        return kv_fail(c, KVT_E_OVERFLOW, KV_FIELD_BLOCK_SIZE, KV_FIELD_NONE);

    r->sliding_layers = m->sliding_layers;
    r->full_layers = attention - m->sliding_layers;
    buckets[0] = r->full_layers;
    buckets[1] = r->sliding_layers;
    buckets[2] = r->state_layers;
    r->hybrid = (buckets[0] > 0) + (buckets[1] > 0) + (buckets[2] > 0) > 1;
    if (!r->hybrid) {
        r->group_size = attention;
        r->full_groups = r->full_layers > 0;
        r->sliding_groups = r->sliding_layers > 0;
        r->padding_layers = 0;
    } else {
        /* vLLM groups layers n:1 by the smallest bucket; later releases take the
         * largest when it is within 1.25x (then 1.5x) of it */
        r->group_size = kv_state_group_size(r->rules.group_rule, buckets, 3);
        r->full_groups = (uint32_t)ceil_div(r->full_layers, r->group_size);
        r->sliding_groups = (uint32_t)ceil_div(r->sliding_layers, r->group_size);
        r->state_groups = (uint32_t)ceil_div(r->state_layers, r->group_size);
        groups = r->full_groups + r->sliding_groups + r->state_groups;
        r->padding_layers =
            (uint32_t)((uint64_t)r->group_size * groups - attention - r->state_layers);
    }
    r->kv_cache_groups = r->full_groups + r->sliding_groups + r->state_groups;
    /* Pipeline stages split the layers (or group slots) and every stage gets
     * the same number of blocks, so the fullest stage sets the block's bytes. */
    r->tensors_per_gpu = 0;
    for (uint32_t k = 0; k < d->pp; k++) {
        uint32_t held = d->pp_partition_n > 0 ? d->pp_partition[k]
                                              : kv_calc_pp_stage_layers(r->group_size, d->pp, k);
        if (held > r->tensors_per_gpu)
            r->tensors_per_gpu = held;
    }
    if (!mul(r->page_bytes, r->tensors_per_gpu, &r->block_set_bytes))
        return kv_fail(c, KVT_E_OVERFLOW, r->mla ? KV_FIELD_MLA_RANK : KV_FIELD_HEAD_DIM,
                       KV_FIELD_LAYERS);
    return KVT_E_OK;
}

uint64_t kv_calc_in_flight_tokens(const struct kv_deploy *d)
{
    uint64_t batches = d->pp;

    if (!d->sync_scheduling && d->pp <= 1)
        batches = 2;
    return batches * d->max_num_batched_tokens; /* <= 2^16 x 2^40: no overflow */
}

uint32_t kv_calc_pp_stage_layers(uint32_t n, uint32_t pp, uint32_t rank)
{
    uint32_t rest;

    if (pp == 0 || rank >= pp)
        return 0;
    rest = n % pp;
    /* partitions[-i] += 1 for i in 2 .. rest + 1: ranks pp - 1 - rest .. pp - 2 */
    return n / pp + (rank + 1 < pp && rank + 1 + rest >= pp);
}

uint64_t kv_calc_blocks_per_request(const struct kv_result *r, uint64_t len)
{
    const struct kv_deploy *d = &r->deploy;
    /* DCP spreads a request's tokens over dcp ranks: each holds 1 / dcp of them */
    uint64_t full = ceil_div(len, (uint64_t)d->block_size * d->dcp);
    uint64_t sliding = 0, state = 0, a, b, s, total;

    if (r->sliding_groups > 0) {
        /* A sliding group keeps W - 1 tokens behind the newest plus what is
         * scheduled (one chunk; from 0.26 every in-flight batch), never more
         * than the request, and one spare block. */
        uint64_t ahead =
            r->rules.sliding_in_flight ? kv_calc_in_flight_tokens(d) : d->max_num_batched_tokens;
        uint64_t span = r->model.sliding_window - 1 + ahead;
        sliding = ceil_div(span < len ? span : len, d->block_size) + 1;
    }
    if (r->state_groups > 0) {
        /* vllm/v1/kv_cache_interface.py, MambaSpec.max_memory_usage_bytes: one
         * running state (+ k speculative), or in align mode also the last
         * block-aligned one kept for prefix caching */
        uint64_t k = d->spec_tokens;
        if (r->mamba_mode == KV_MAMBA_ALIGN)
            state = 2 + k;
        else if (r->mamba_mode == KV_MAMBA_ALL)
            state = ceil_div(len, d->block_size) + k;
        else
            state = 1 + k;
    }
    if (!mul(full, r->full_groups, &a) || !mul(sliding, r->sliding_groups, &b) ||
        !mul(state, r->state_groups, &s) || !add(a, b, &total) || !add(total, s, &total))
        return UINT64_MAX;
    return total;
}

static void weights(struct kv_result *r)
{
    const struct kv_model *m = &r->model;
    const struct kv_deploy *d = &r->deploy;
    double bits = kv_dtype_weight_bits(m->weights_dtype);
    double active_b = m->active_params_b > 0 ? m->active_params_b : m->params_b;

    if (m->weights_gib > 0) {
        r->weights_bytes_total = gib_to_bytes(m->weights_gib);
        r->has_weights = true;
    } else if (m->params_b > 0) {
        r->weights_bytes_total = param_bytes(m->params_b, bits);
        r->has_weights = true;
    }
    if (r->has_weights)
        r->weights_bytes = ceil_div(r->weights_bytes_total, (uint64_t)d->tp * d->pp);

    if (m->weights_gib > 0 && m->params_b > 0)
        r->active_weight_bytes =
            (uint64_t)llround((double)r->weights_bytes_total * (active_b / m->params_b));
    else if (active_b > 0)
        r->active_weight_bytes = param_bytes(active_b, bits);
    else if (r->has_weights)
        r->active_weight_bytes = r->weights_bytes_total;
}

static void budget(struct kv_result *r)
{
    const struct kv_deploy *d = &r->deploy;

    if (d->kv_cache_memory_bytes > 0) {
        /* --kv-cache-memory-bytes: vLLM skips profiling and takes it as is */
        r->kv_budget_bytes = d->kv_cache_memory_bytes;
        r->budget_given = true;
        r->has_budget = true;
        return;
    }
    if (d->kv_budget_gib > 0) {
        r->kv_budget_bytes = gib_to_bytes(d->kv_budget_gib);
        r->budget_given = true;
        r->has_budget = true;
        return;
    }
    if (d->gpu_mem_gib <= 0 || !r->has_weights)
        return;
    /* vLLM: requested = total x util; KV gets what weights and the profiled
     * peak (activations, non-torch memory, CUDA graphs) leave of it. */
    r->usable_bytes = (uint64_t)floor(d->gpu_mem_gib * KV_GIB * d->util);
    r->overhead_bytes = gib_to_bytes(d->overhead_gib);
    r->has_budget = true;
    if (r->weights_bytes >= r->usable_bytes ||
        r->overhead_bytes >= r->usable_bytes - r->weights_bytes) {
        r->kv_budget_bytes = 0;
        r->reason = KV_REASON_WEIGHTS_DONT_FIT;
        return;
    }
    r->kv_budget_bytes = r->usable_bytes - r->weights_bytes - r->overhead_bytes;
}

/* The longest request whose blocks fit in `blocks`, by bisection (requests
 * only grow with length). */
static uint64_t longest_fit(const struct kv_result *r, uint64_t blocks)
{
    uint64_t lo = 0, hi = KV_MAX_TOKENS;

    while (lo < hi) {
        uint64_t mid = lo + (hi - lo + 1) / 2;
        if (kv_calc_blocks_per_request(r, mid) <= blocks)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

static enum kvt_err capacity(struct kv_result *r, struct kv_check *c)
{
    const struct kv_deploy *d = &r->deploy;
    uint32_t groups = r->kv_cache_groups;

    if (d->max_model_len > 0) {
        r->has_request = true;
        r->max_model_len = d->max_model_len;
        r->blocks_full_per_group = ceil_div(d->max_model_len, (uint64_t)d->block_size * d->dcp);
        r->blocks_per_request = kv_calc_blocks_per_request(r, d->max_model_len);
        if (r->blocks_per_request == UINT64_MAX)
            return kv_fail(c, KVT_E_OVERFLOW, KV_FIELD_MAX_MODEL_LEN, KV_FIELD_NONE);
        if (r->state_groups > 0) {
            struct kv_result one = *r;
            one.full_groups = one.sliding_groups = 0;
            one.state_groups = 1;
            r->blocks_state_per_group = kv_calc_blocks_per_request(&one, d->max_model_len);
        }
        if (r->sliding_groups > 0)
            r->blocks_sliding_per_group =
                (r->blocks_per_request - r->blocks_full_per_group * r->full_groups -
                 r->blocks_state_per_group * r->state_groups) /
                r->sliding_groups;
        if (!mul(r->blocks_per_request, r->block_set_bytes, &r->request_bytes))
            return kv_fail(c, KVT_E_OVERFLOW, KV_FIELD_MAX_MODEL_LEN, KV_FIELD_NONE);
    }
    if (d->num_gpu_blocks_override > 0) {
        /* vllm/v1/core/kv_cache_utils.py, may_override_num_blocks: whatever the memory */
        r->has_blocks = true;
        r->blocks_overridden = true;
        r->num_gpu_blocks = d->num_gpu_blocks_override;
    } else if (!r->has_budget) {
        return KVT_E_OK;
    } else {
        r->has_blocks = true;
        r->num_gpu_blocks = r->kv_budget_bytes / r->block_set_bytes;
    }
    /* up to 0.19 (vllm/v1/core/kv_cache_utils.py, _report_kv_cache_config):
     * floor(blocks / groups) x block size, x DCP */
    if (!mul(r->num_gpu_blocks / groups, d->block_size, &r->kv_tokens) ||
        !mul(r->kv_tokens, d->dcp, &r->kv_tokens))
        return kv_fail(c, KVT_E_OVERFLOW, KV_FIELD_BLOCK_SIZE, KV_FIELD_NONE);
    r->max_model_len_fits = longest_fit(r, r->num_gpu_blocks);
    if (!r->has_request)
        return KVT_E_OK;

    r->has_concurrency = true;
    r->max_concurrency = (double)r->num_gpu_blocks / (double)r->blocks_per_request;
    r->max_concurrent_seqs = r->num_gpu_blocks / r->blocks_per_request;
    if (r->rules.tokens_from_concurrency) {
        /* later: int(max_concurrency x max_model_len), in Python's doubles */
        double t = r->max_concurrency * (double)r->max_model_len;
        if (!(t < 18446744073709551616.0))
            return kv_fail(c, KVT_E_OVERFLOW, KV_FIELD_MAX_MODEL_LEN, KV_FIELD_NONE);
        r->kv_tokens = (uint64_t)t;
    }
    if (r->reason == KV_REASON_NONE && r->max_concurrent_seqs == 0)
        r->reason = KV_REASON_SEQ_DOESNT_FIT;
    return KVT_E_OK;
}

enum kvt_err kv_calc(const struct kv_model *m, const struct kv_deploy *d, struct kv_result *res,
                     enum kv_field *bad, enum kv_field *other)
{
    struct kv_check c = {KV_FIELD_NONE, KV_FIELD_NONE};
    enum kvt_err e;

    *res = (struct kv_result){.model = *m, .deploy = *d};
    kv_vllm_rules(&d->vllm, &res->rules);
    res->deploy.vllm = res->rules.version;
    kv_vllm_format(&res->rules.version, res->vllm_version, sizeof res->vllm_version);
    e = kv_resolve_model(&res->model, &c);
    if (e == KVT_E_OK)
        e = resolve_deploy(&res->model, &res->deploy, &res->rules, &c);
    if (e == KVT_E_OK) {
        res->mamba_mode = d->mamba_mode;
        if (res->mamba_mode == KV_MAMBA_DEFAULT)
            res->mamba_mode = kv_prefix_caching_on(&res->model, d) && res->rules.mamba_align_default
                                  ? KV_MAMBA_ALIGN
                                  : KV_MAMBA_NONE;
    }
    if (e == KVT_E_OK)
        e = shape(res, &c);
    if (e == KVT_E_OK) {
        weights(res);
        budget(res);
        e = capacity(res, &c);
    }
    if (e == KVT_E_OK && (e = kv_decode(res)) != KVT_E_OK)
        kv_fail(&c, e, KV_FIELD_CONTEXT, KV_FIELD_NONE);
    if (e == KVT_E_OK) {
        kv_notes(res, d, d->util == 0.0);
    }
    if (bad)
        *bad = c.bad;
    if (other)
        *other = c.other;
    return e;
}
