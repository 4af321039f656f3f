/* kv_calc.h: the KV-cache calculator.
 *
 * A model description and a deployment description in, every figure of
 * kvtutor's calculator contract out: KV bytes per token, vLLM's page size,
 * the KV budget, blocks, tokens, concurrency, weights per GPU and the
 * decode ceilings (memory, compute, the lower, and whether the batch fits). Pure and
 * allocation-free: no I/O, no globals, no clock.
 *
 * Bytes, blocks and tokens are exact 64-bit integers with overflow checks.
 * Floating point appears only where vLLM itself uses it (gpu_memory_utilization,
 * GiB figures, the concurrency ratio) and in the roofline estimates.
 *
 * The rules are vLLM's V1 start-up arithmetic, release by release
 * (kv_vllm.h picks the rule set; docs/calculator.md cites each rule):
 *   page     = block_size x 2 x kv_heads_per_gpu x head_dim x kv_bytes
 *              (MLA: block_size x (rank + rope_dim) x kv_bytes, never split by TP)
 *   kv_heads_per_gpu = max(1, kv_heads / tp)   heads replicate, never split below one
 *   dense:   blocks = floor(budget / (page x layers on this GPU))
 *   hybrid:  layers bucketed by type; group_size = smallest bucket (or the
 *            largest when within the release's ratio: 1.25x, later 1.5x); each
 *            bucket padded to whole groups; blocks = floor(budget / (page x group_size))
 *   a request needs ceil(L / bs) blocks per full group and
 *            ceil(min(W - 1 + T, L) / bs) + 1 per sliding group, T one batch's
 *            tokens (max_num_batched_tokens) or, from 0.26, every in-flight batch's
 *   max concurrency = blocks / blocks per request
 *   "GPU KV cache size": floor(blocks / groups) x bs up to 0.19, then
 *            int(max concurrency x max_model_len)
 *
 * Zero in an input field means "not given"; figures that need a missing input
 * come back with their has_* flag false rather than a guess. */
#ifndef KV_CALC_H
#define KV_CALC_H

#include <stdbool.h>
#include <stdint.h>

#include "kv_dtype.h"
#include "kv_vllm.h"
#include "kvt_error.h"

#define KV_GIB 1073741824.0

/* Upper bounds the calculator accepts for each input; the CLI checks flags
 * against them so that a typo cannot turn into a silent overflow. */
#define KV_MAX_DIM        1048576u            /* layers, heads, head_dim, hidden, ranks */
#define KV_MAX_TOKENS     ((uint64_t)1 << 40) /* max_model_len, context, window */
#define KV_MAX_BATCH      ((uint64_t)1 << 32) /* concurrent sequences */
#define KV_MAX_PARALLEL   65536u              /* tp, pp */
#define KV_MAX_BLOCK_SIZE 65536u              /* tokens per block */
#define KV_MAX_GIB        1048576.0           /* any memory figure, GiB (1 PiB) */
#define KV_MAX_PARAMS_B   1000000.0           /* parameters, billions */
#define KV_MAX_RATE       1.0e9               /* GB/s or TFLOP/s */
#define KV_MAX_PP_STAGES  64u                 /* stages a hand-written layer partition may list */

/* Every input field by name, so an error can say which one is at fault. */
#define KV_FIELDS(X)                                                                               \
    X(NONE, "none")                                                                                \
    X(LAYERS, "layers")                                                                            \
    X(HEADS, "heads")                                                                              \
    X(KV_HEADS, "kv_heads")                                                                        \
    X(HEAD_DIM, "head_dim")                                                                        \
    X(HIDDEN, "hidden")                                                                            \
    X(SLIDING_WINDOW, "sliding_window")                                                            \
    X(SLIDING_LAYERS, "sliding_layers")                                                            \
    X(MLA_RANK, "mla_rank")                                                                        \
    X(MLA_ROPE_DIM, "mla_rope_dim")                                                                \
    X(PARAMS, "params")                                                                            \
    X(ACTIVE_PARAMS, "active_params")                                                              \
    X(EXPERTS, "experts")                                                                          \
    X(EXPERTS_PER_TOKEN, "experts_per_token")                                                      \
    X(DTYPE, "dtype")                                                                              \
    X(KV_DTYPE, "kv_dtype")                                                                        \
    X(WEIGHTS_DTYPE, "weights_dtype")                                                              \
    X(WEIGHTS_GIB, "weights_gib")                                                                  \
    X(GPU_MEM_GIB, "gpu_mem_gib")                                                                  \
    X(UTIL, "util")                                                                                \
    X(OVERHEAD_GIB, "overhead_gib")                                                                \
    X(KV_BUDGET_GIB, "kv_budget_gib")                                                              \
    X(TP, "tp")                                                                                    \
    X(PP, "pp")                                                                                    \
    X(BLOCK_SIZE, "block_size")                                                                    \
    X(MAX_MODEL_LEN, "max_model_len")                                                              \
    X(MAX_NUM_BATCHED_TOKENS, "max_num_batched_tokens")                                            \
    X(BATCH, "batch")                                                                              \
    X(CONTEXT, "context")                                                                          \
    X(BANDWIDTH, "bandwidth_gbps")                                                                 \
    X(TFLOPS, "tflops")                                                                            \
    X(STATE_LAYERS, "state_layers")                                                                \
    X(SSM_HEADS, "ssm_heads")                                                                      \
    X(SSM_HEAD_DIM, "ssm_head_dim")                                                                \
    X(SSM_GROUPS, "ssm_groups")                                                                    \
    X(SSM_STATE_DIM, "ssm_state_dim")                                                              \
    X(CONV_KERNEL, "conv_kernel")                                                                  \
    X(SPEC_METHOD, "spec_method")                                                                  \
    X(SPEC_TOKENS, "spec_tokens")                                                                  \
    X(SPEC_LAYERS, "spec_layers")                                                                  \
    X(DCP, "dcp")                                                                                  \
    X(MAMBA_CACHE_MODE, "mamba_cache_mode")                                                        \
    X(NUM_GPU_BLOCKS_OVERRIDE, "num_gpu_blocks_override")                                          \
    X(KV_CACHE_MEMORY_BYTES, "kv_cache_memory_bytes")                                              \
    X(ATTENTION_BACKEND, "attention_backend")                                                      \
    X(PP_PARTITION, "pp_partition")                                                                \
    X(INDEX_HEAD_DIM, "index_head_dim")

enum kv_field {
#define KV_FIELD_ENUM(name, str) KV_FIELD_##name,
    KV_FIELDS(KV_FIELD_ENUM)
#undef KV_FIELD_ENUM
        KV_FIELD__COUNT
};

/* The field's snake_case name ("kv_heads"); "?" past the list. */
const char *kv_field_name(enum kv_field f);

/* Recurrent layers of hybrid models: a fixed state per request, not KV. */
enum kv_state_kind {
    KV_STATE_NONE = 0,
    KV_STATE_GDN,    /* gated delta net (Qwen3-Next, Qwen3.5/3.6 "linear_attention") */
    KV_STATE_MAMBA2, /* Mamba2 (Nemotron-H, Granite-4.0-H) */
};

/* Speculative decoding: what the draft adds to the cache. */
enum kv_spec_method {
    KV_SPEC_NONE = 0,
    KV_SPEC_EAGLE,  /* draft attention layers with the target's shape (default 1) */
    KV_SPEC_EAGLE3, /* likewise */
    KV_SPEC_MTP, /* the model's own MTP layers (num_nextn_predict_layers, mtp_num_hidden_layers) */
    KV_SPEC_DRAFT, /* a separate draft model: its cache is its own; spec_layers as given */
    KV_SPEC_NGRAM, /* no draft model: no layers */
};

/* How many blocks a Mamba / linear-attention group holds per request. */
enum kv_mamba_mode {
    KV_MAMBA_DEFAULT = 0, /* as the release does it with prefix caching on or off */
    KV_MAMBA_NONE,        /* one running state: 1 + k blocks */
    KV_MAMBA_ALIGN,       /* the running state and the last block-aligned one: 2 + k */
    KV_MAMBA_ALL,         /* a state per block: cdiv(len, block) + k (unverified) */
};

/* Attention backends whose block size vLLM fixes (kv_calc_backend_block). */
enum kv_backend {
    KV_BACKEND_DEFAULT = 0, /* the release's choice for the model and GPU */
    KV_BACKEND_FLASH_ATTN,
    KV_BACKEND_FLASHINFER,
    KV_BACKEND_TRITON_ATTN,
    KV_BACKEND_FLASHMLA,
    KV_BACKEND_FLASHMLA_SPARSE,
    KV_BACKEND_CUTLASS_MLA,
    KV_BACKEND_FLASHINFER_MLA,
    KV_BACKEND_TRITON_MLA,
    KV_BACKEND__COUNT
};

/* vLLM's spelling ("FLASHMLA", "cutlass_mla", case-insensitive) to the enum;
 * false for a name this calculator does not size. */
bool kv_backend_parse(const char *name, enum kv_backend *out);
const char *kv_backend_name(enum kv_backend b);

/* What the model is. All counts are whole-model figures. */
struct kv_model {
    uint32_t layers;         /* decoder layers (attention and state layers together) */
    uint32_t heads;          /* query heads (0 = unknown) */
    uint32_t kv_heads;       /* KV heads (0 = unknown; MLA models leave it 0) */
    uint32_t head_dim;       /* 0 = hidden / heads */
    uint32_t hidden;         /* hidden size (0 = unknown) */
    uint64_t sliding_window; /* tokens; 0 = no sliding-window layers */
    uint32_t sliding_layers; /* how many layers slide; 0 with a window = all */
    uint32_t
        sliding_period;    /* pattern: layer i is full iff i % period == period - 1 (0 = unknown) */
    uint32_t mla_rank;     /* MLA kv_lora_rank; non-zero makes the cache one latent */
    uint32_t mla_rope_dim; /* MLA qk_rope_head_dim */
    double params_b;       /* total parameters, billions (0 = unknown) */
    double active_params_b;      /* per-token parameters (MoE), billions (0 = params_b) */
    uint32_t experts;            /* MoE: routed experts a layer (0 = dense or unknown) */
    uint32_t experts_per_token;  /* MoE: experts each token is routed to (top-k) */
    enum kv_dtype experts_dtype; /* MoE: the experts' storage where it differs from the other
                                    weights' (gpt-oss: mxfp4); AUTO = weights_dtype */
    enum kv_dtype dtype;         /* the model's own dtype; AUTO = bf16 */
    enum kv_dtype weights_dtype; /* storage of the weights; AUTO = dtype */
    double weights_gib;          /* measured weights, whole model, GiB (0 = estimate) */
    uint64_t max_position;       /* max_position_embeddings (0 = unknown) */

    /* hybrids: how many of `layers` keep a recurrent state, and its shape
     * (vLLM's MambaStateShapeCalculator): GDN conv channels = 2 x groups x
     * state_dim + heads x head_dim, SSM = heads x state_dim x head_dim; Mamba2
     * conv channels = heads x head_dim + 2 x groups x state_dim, SSM = heads x
     * head_dim x state_dim */
    uint32_t state_layers;
    enum kv_state_kind state_kind;
    uint32_t ssm_heads;      /* GDN linear_num_value_heads; Mamba2 mamba_num_heads */
    uint32_t ssm_head_dim;   /* GDN linear_value_head_dim; Mamba2 mamba_head_dim */
    uint32_t ssm_groups;     /* GDN linear_num_key_heads; Mamba2 n_groups */
    uint32_t ssm_state_dim;  /* GDN linear_key_head_dim; Mamba2 ssm_state_size */
    uint32_t conv_kernel;    /* conv taps; the state keeps conv_kernel - 1 (+ k) */
    enum kv_dtype ssm_dtype; /* the config's mamba_ssm_dtype (AUTO = the conv state's) */
    /* NemotronH (architecture NemotronHForCausalLM or NemotronHPuzzleForCausalLM):
     * vLLM's per-architecture hook sets the SSM dtype from the config's
     * mamba_ssm_cache_dtype (ssm_cache_dtype; AUTO = not given), else from the
     * release's default (kv_rules.nemotron_ssm_*) */
    bool nemotron_h;
    enum kv_dtype ssm_cache_dtype;

    uint32_t mtp_layers; /* MTP draft layers the config carries (0 = none) */
    /* DeepSeek-V3.2's sparse MLA: the indexer's key (index_head_dim values,
     * fp8 with an fp32 scale per 128) sits beside each layer's latent; its
     * default cache dtype is fp8_ds_mla. 0 = dense MLA or none. */
    uint32_t index_head_dim;
};

/* Where and how it is served. Start from kv_deploy_defaults(). */
struct kv_deploy {
    struct kv_vllm_version vllm; /* whose rules (0.0.0.0 = KV_VLLM_DEFAULT) */
    double gpu_mem_gib;          /* total memory of one GPU (0 = unknown) */
    double util;                 /* gpu_memory_utilization, (0, 1]; 0 = the release's default */
    double overhead_gib;         /* activations + non-torch + CUDA graphs, per GPU */
    double kv_budget_gib;        /* vLLM's "Available KV cache memory" (0 = compute it) */
    uint32_t tp, pp;             /* tensor / pipeline parallel degree */
    /* VLLM_PP_LAYER_PARTITION: layers each pipeline stage holds, in order
     * (n = 0: vLLM's own split, kv_calc_pp_stage_layers) */
    uint32_t pp_partition[KV_MAX_PP_STAGES];
    uint32_t pp_partition_n;
    uint32_t block_size;    /* tokens per KV block; MLA backends fix theirs, hybrids grow it */
    uint64_t max_model_len; /* tokens per request (0 = the model's max_position) */
    uint64_t max_num_batched_tokens;
    bool sync_scheduling;   /* --no-async-scheduling: one batch in flight per PP stage */
    bool no_prefix_caching; /* --no-prefix-caching: Mamba groups keep one running state */
    /* --enable-prefix-caching: on for a hybrid model too, whose default is off
     * (vllm/engine/arg_utils.py, _set_default_chunked_prefill_and_prefix_caching_args:
     * "and not model_config.is_hybrid", PR #23716, until PR #50991 after 0.27) */
    bool enable_prefix_caching;
    bool allow_long_max_model_len; /* VLLM_ALLOW_LONG_MAX_MODEL_LEN=1: past max_position */
    enum kv_mamba_mode mamba_mode;
    enum kv_dtype mamba_dtype;     /* conv state; AUTO = the model dtype */
    enum kv_dtype mamba_ssm_dtype; /* SSM state; AUTO = the config's, else the conv state's */
    enum kv_spec_method spec_method;
    uint32_t spec_tokens;             /* k: lookahead tokens */
    uint32_t spec_layers;             /* draft attention layers (0 = the method's default) */
    uint32_t dcp;                     /* decode context parallel size (0 or 1 = none) */
    uint64_t num_gpu_blocks_override; /* 0 = none */
    uint64_t kv_cache_memory_bytes;   /* exact KV budget (0 = none) */
    enum kv_backend backend;          /* attention backend (DEFAULT = the release's choice) */
    uint32_t gpu_sm;        /* compute capability x 10 (90 Hopper, 100 B200; 0 = unknown) */
    uint64_t batch;         /* concurrent sequences for the decode ceiling */
    uint64_t context;       /* tokens already cached per sequence at that step */
    enum kv_dtype kv_dtype; /* AUTO = the model dtype */
    double bandwidth_gbps;  /* memory bandwidth of one GPU, GB/s (0 = unknown) */
    double tflops;          /* dense bf16 TFLOP/s of one GPU (0 = unknown) */
};

/* Why a deployment cannot serve, when it cannot. Not an error: a result. */
enum kv_reason {
    KV_REASON_NONE = 0,
    KV_REASON_WEIGHTS_DONT_FIT, /* weights + overhead exceed total x util */
    KV_REASON_SEQ_DOESNT_FIT,   /* blocks < one request at max_model_len */
};

/* Why a memory is known but there is no decode ceiling in it. */
enum kv_decode_reason {
    KV_DECODE_FITS = 0,
    KV_DECODE_WEIGHTS_DONT_FIT, /* no KV blocks left after the weights */
    KV_DECODE_KV_DOESNT_FIT,    /* batch x (context + 1) tokens > kv_tokens */
};

struct kv_result {
    /* the release's rules, and the notes that touch this model and deployment */
    struct kv_rules rules;
    char vllm_version[24]; /* rules.version as text: "0.26.0" */

    /* the inputs as resolved: head_dim, kv_heads, sliding_layers, dtypes and
     * max_model_len filled in from the rules above */
    struct kv_model model;
    struct kv_deploy deploy;

    /* the cache's shape */
    enum kv_dtype kv_dtype;      /* resolved (never AUTO) */
    enum kv_dtype weights_dtype; /* resolved */
    unsigned kv_elem_bytes;      /* bytes per KV element */
    bool mla;                    /* one latent per token per layer */
    uint32_t head_dim;           /* resolved */
    uint32_t kv_heads_per_gpu;   /* after TP split or replication (1 for MLA) */
    bool replicated;             /* tp > kv_heads: each GPU keeps a copy of a head */
    uint64_t kv_bytes_per_token; /* all layers, whole model, before any split */
    uint64_t layer_token_bytes;  /* one token, one layer, one GPU */
    uint64_t page_bytes;         /* one block of one layer on one GPU */
    uint32_t full_layers, sliding_layers;
    uint32_t draft_layers; /* speculative draft attention layers, among full_layers */

    /* hybrids with recurrent layers (all 0 otherwise) */
    uint32_t state_layers;
    uint64_t state_bytes_per_request; /* one request's state, all layers, whole model */
    uint64_t state_layer_bytes;       /* one layer's state on one GPU, before padding */
    uint32_t attention_block_size;    /* block the attention page grew to (0 = not grown) */
    uint32_t state_groups;
    uint64_t blocks_state_per_group;
    enum kv_mamba_mode mamba_mode; /* resolved */

    /* vLLM's grouping: one group for dense models */
    bool hybrid;
    uint32_t group_size; /* layers per group (tensors sharing a block id) */
    uint32_t full_groups, sliding_groups, padding_layers;
    uint32_t kv_cache_groups; /* full + sliding + state groups */
    uint32_t tensors_per_gpu; /* layers (or group slots) this GPU stores per block */
    uint64_t block_set_bytes; /* page_bytes x tensors_per_gpu: one block id's memory */

    /* per request at max_model_len */
    bool has_request;
    uint64_t max_model_len;
    uint64_t blocks_full_per_group, blocks_sliding_per_group;
    uint64_t blocks_per_request; /* summed over every group */
    uint64_t request_bytes;      /* blocks_per_request x page x tensors: its memory on one GPU */

    /* weights */
    bool has_weights;
    uint64_t weights_bytes_total; /* whole model */
    uint64_t weights_bytes;       /* per GPU */
    uint64_t active_weight_bytes; /* read once per decode step, whole model */

    /* budget and capacity */
    bool has_budget;
    bool budget_given;      /* from kv_budget_gib or kv_cache_memory_bytes, not subtracted */
    bool blocks_overridden; /* num_gpu_blocks_override */
    uint64_t usable_bytes;  /* total x util */
    uint64_t overhead_bytes;
    uint64_t kv_budget_bytes;
    bool has_blocks;
    uint64_t num_gpu_blocks;
    uint64_t kv_tokens; /* "GPU KV cache size" as the release prints it */
    bool has_concurrency;
    double max_concurrency;
    uint64_t max_concurrent_seqs;
    uint64_t max_model_len_fits; /* longest request one GPU's blocks can hold */
    enum kv_reason reason;

    /* decode roofline at deploy.batch and deploy.context (CALC-CONTRACT.md) */
    bool has_decode;                     /* the memory ceiling is known */
    uint64_t decode_kv_read_bytes;       /* KV read per sequence per step, all GPUs */
    double decode_weight_read_bytes;     /* weights a step of the batch reads, all GPUs
                                            (kv_moe.h: a MoE's touched experts) */
    double decode_experts_touched;       /* MoE: share of routed experts the batch touches */
    double decode_step_s;                /* memory time of one step */
    double decode_tokens_per_s_memory;   /* memory-bound ceiling, all sequences */
    bool has_compute;                    /* FLOP/s and active parameters known */
    double decode_tokens_per_s_compute;  /* tp x FLOP/s / (2 x active params) */
    bool has_ceiling;                    /* has_decode and the setup fits */
    enum kv_decode_reason decode_reason; /* why !has_ceiling when has_decode */
    double decode_tokens_per_s;          /* the lower of the two, all sequences */
    double decode_tokens_per_s_seq;      /* that ceiling for one sequence */
    bool has_bound;                      /* both ceilings known */
    bool compute_bound;                  /* the compute ceiling is the lower */
    double decode_compute_step_s;
    bool compute_bound_ever;      /* false: KV reads grow as fast as the FLOPs */
    uint64_t compute_bound_batch; /* smallest batch where compute time >= memory time */
};

/* Fills in the contract's defaults: the default vLLM release and its util,
 * tp 1, pp 1, block 16, max_num_batched_tokens 8192, async scheduling,
 * batch 1, context 0, kv dtype auto. */
void kv_deploy_defaults(struct kv_deploy *d);

/* Runs the whole calculation. Returns KVT_E_OK and fills *res, or an error
 * code with *bad (and *other, for a contradiction between two fields) naming
 * the fields at fault; *res is then unspecified. bad and other may be NULL. */
enum kvt_err kv_calc(const struct kv_model *m, const struct kv_deploy *d, struct kv_result *res,
                     enum kv_field *bad, enum kv_field *other);

/* Whether prefix caching is on for model m under d: V1's default, except
 * for a hybrid (state_layers > 0), which needs enable_prefix_caching in the
 * releases modelled; no_prefix_caching turns it off and wins over enable. */
bool kv_prefix_caching_on(const struct kv_model *m, const struct kv_deploy *d);

/* KV bytes one sequence reads per decode step at `context` tokens, summed
 * over all GPUs (replicated heads are read on every GPU that holds them);
 * sliding layers read at most their window. UINT64_MAX on overflow. */
uint64_t kv_calc_kv_read_bytes(const struct kv_result *res, uint64_t context);

/* Tokens that may be scheduled but not yet settled: concurrent batches x
 * max_num_batched_tokens (vllm/config/vllm.py, VllmConfig.max_in_flight_tokens;
 * 2 batches under async scheduling with one PP stage, else the PP size). */
uint64_t kv_calc_in_flight_tokens(const struct kv_deploy *d);

/* Layers pipeline stage `rank` of `pp` holds when `n` are split the way vLLM
 * splits them without VLLM_PP_LAYER_PARTITION (vllm/distributed/utils.py,
 * get_pp_indices): n / pp each, and the remainder one apiece to the stages
 * before the last, counting back from the second-to-last. 0 when rank >= pp
 * or pp is 0. With the variable set, kv_deploy's pp_partition lists the
 * stages instead, and kv_calc checks it as get_pp_indices does. */
uint32_t kv_calc_pp_stage_layers(uint32_t n, uint32_t pp, uint32_t rank);

/* Blocks one request of `len` tokens needs, summed over all groups.
 * UINT64_MAX on overflow. */
uint64_t kv_calc_blocks_per_request(const struct kv_result *res, uint64_t len);

/* Memory-bound decode ceiling, all `batch` sequences together, at `context`
 * tokens each: the weights the batch's tokens touch (kv_moe.h) and each
 * sequence's KV, read at the bandwidth of the tp GPUs. Returns false when
 * bandwidth or active weights are unknown. */
bool kv_calc_decode_at(const struct kv_result *res, uint64_t batch, uint64_t context,
                       double *tokens_per_s);

#endif
