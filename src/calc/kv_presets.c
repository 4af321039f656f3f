#include "kv_presets.h"

#include <string.h>

/* The -Instruct Qwen2.5 repositories ship max_position_embeddings 32,768
 * (131,072 is the base models' figure, reached with YaRN). Architectures from
 * each model's config.json; parameter counts computed from
 * its shapes (they agree with keras-hub's published counts); max_position is
 * the config's max_position_embeddings. A MoE's experts and experts_per_token
 * are the config's routed experts a layer (num_experts, num_local_experts or
 * n_routed_experts) and num_experts_per_tok; shared experts count among the
 * weights every token reads. Sliding-window models carry their
 * pattern: layer i is full attention iff i % period == period - 1. */
#define M(...)                                                                                     \
    {                                                                                              \
        __VA_ARGS__, .dtype = KV_DTYPE_BF16                                                        \
    }

static const struct kv_model_preset models[] = {
    {"Qwen/Qwen2.5-0.5B-Instruct", "qwen2.5-0.5b", "GQA",
     M(.layers = 24, .hidden = 896, .heads = 14, .kv_heads = 2, .head_dim = 64,
       .max_position = 32768, .params_b = 0.494032768),
     "2 KV heads: TP above 2 replicates them"},
    {"Qwen/Qwen2.5-1.5B-Instruct", "qwen2.5-1.5b", "GQA",
     M(.layers = 28, .hidden = 1536, .heads = 12, .kv_heads = 2, .head_dim = 128,
       .max_position = 32768, .params_b = 1.543714304),
     "6:1 grouped-query attention"},
    {"Qwen/Qwen2.5-7B-Instruct", "qwen2.5-7b", "GQA",
     M(.layers = 28, .hidden = 3584, .heads = 28, .kv_heads = 4, .head_dim = 128,
       .max_position = 32768, .params_b = 7.615616512),
     "the seed lesson's model: 56 KiB of KV per token in BF16"},
    {"Qwen/Qwen2.5-14B-Instruct", "qwen2.5-14b", "GQA",
     M(.layers = 48, .hidden = 5120, .heads = 40, .kv_heads = 8, .head_dim = 128,
       .max_position = 32768, .params_b = 14.770033664),
     "5:1 grouped-query attention"},
    {"Qwen/Qwen2.5-32B-Instruct", "qwen2.5-32b", "GQA",
     M(.layers = 64, .hidden = 5120, .heads = 40, .kv_heads = 8, .head_dim = 128,
       .max_position = 32768, .params_b = 32.763876352),
     "64 layers of 8 KV heads"},
    {"Qwen/Qwen2.5-72B-Instruct", "qwen2.5-72b", "GQA",
     M(.layers = 80, .hidden = 8192, .heads = 64, .kv_heads = 8, .head_dim = 128,
       .max_position = 32768, .params_b = 72.706203648),
     "needs TP even in BF16 on 80 GB parts"},
    {"Qwen/Qwen3-8B", "qwen3-8b", "GQA",
     M(.layers = 36, .hidden = 4096, .heads = 32, .kv_heads = 8, .head_dim = 128,
       .max_position = 40960, .params_b = 8.19073536),
     "144 KiB per token: 2.6x the KV of Qwen2.5-7B"},
    {"Qwen/Qwen3-32B", "qwen3-32b", "GQA",
     M(.layers = 64, .hidden = 5120, .heads = 64, .kv_heads = 8, .head_dim = 128,
       .max_position = 40960, .params_b = 32.762123264),
     "head_dim 128 is not hidden/heads (80): derive it and the KV comes out 37.5% low"},
    {"Qwen/Qwen3-30B-A3B", "qwen3-30b-a3b", "GQA MoE",
     M(.layers = 48, .hidden = 2048, .heads = 32, .kv_heads = 4, .head_dim = 128,
       .max_position = 40960, .params_b = 30.532122624, .active_params_b = 3.353032704,
       .experts = 128, .experts_per_token = 8),
     "MoE: 30.5B stored, 3.4B read per token"},
    {"Qwen/Qwen3-235B-A22B", "qwen3-235b-a22b", "GQA MoE",
     M(.layers = 94, .hidden = 4096, .heads = 64, .kv_heads = 4, .head_dim = 128,
       .max_position = 40960, .params_b = 235.09363456, .active_params_b = 22.19076352,
       .experts = 128, .experts_per_token = 8),
     "4 KV heads: TP 8 replicates, so per-GPU KV stops shrinking at TP 4"},
    {"meta-llama/Llama-3.1-8B-Instruct", "llama-3.1-8b", "GQA",
     M(.layers = 32, .hidden = 4096, .heads = 32, .kv_heads = 8, .head_dim = 128,
       .max_position = 131072, .params_b = 8.030261248),
     "128 KiB per token in BF16"},
    {"meta-llama/Llama-3.1-70B-Instruct", "llama-3.1-70b", "GQA",
     M(.layers = 80, .hidden = 8192, .heads = 64, .kv_heads = 8, .head_dim = 128,
       .max_position = 131072, .params_b = 70.553706496),
     "320 KiB per token in BF16"},
    {"meta-llama/Llama-3.1-405B-Instruct", "llama-3.1-405b", "GQA",
     M(.layers = 126, .hidden = 16384, .heads = 128, .kv_heads = 8, .head_dim = 128,
       .max_position = 131072, .params_b = 405.8533888),
     "TP 16 would replicate its 8 KV heads"},
    {"meta-llama/Llama-3.2-1B-Instruct", "llama-3.2-1b", "GQA",
     M(.layers = 16, .hidden = 2048, .heads = 32, .kv_heads = 8, .head_dim = 64,
       .max_position = 131072, .params_b = 1.2358144),
     "tied embeddings, still read every step for the logits"},
    {"meta-llama/Llama-3.2-3B-Instruct", "llama-3.2-3b", "GQA",
     M(.layers = 28, .hidden = 3072, .heads = 24, .kv_heads = 8, .head_dim = 128,
       .max_position = 131072, .params_b = 3.212749824),
     "24 query heads: TP must divide 24 and 8"},
    {"mistralai/Mistral-7B-Instruct-v0.3", "mistral-7b-v0.3", "GQA",
     M(.layers = 32, .hidden = 4096, .heads = 32, .kv_heads = 8, .head_dim = 128,
       .max_position = 32768, .params_b = 7.248023552),
     "no sliding window since v0.2"},
    {"mistralai/Mixtral-8x7B-Instruct-v0.1", "mixtral-8x7b,mixtral-8x7b-v0.1", "GQA MoE",
     M(.layers = 32, .hidden = 4096, .heads = 32, .kv_heads = 8, .head_dim = 128,
       .max_position = 32768, .params_b = 46.702792704, .active_params_b = 12.879925248,
       .experts = 8, .experts_per_token = 2),
     "8 experts, top 2: 46.7B stored, 12.9B read per token"},
    {"google/gemma-2-9b-it", "gemma-2-9b", "GQA+SWA",
     M(.layers = 42, .hidden = 3584, .heads = 16, .kv_heads = 8, .head_dim = 256,
       .sliding_window = 4096, .sliding_layers = 21, .sliding_period = 2, .max_position = 8192,
       .params_b = 9.241705984),
     "local and global layers alternate; window 4096"},
    {"google/gemma-2-27b-it", "gemma-2-27b", "GQA+SWA",
     M(.layers = 46, .hidden = 4608, .heads = 32, .kv_heads = 16, .head_dim = 128,
       .sliding_window = 4096, .sliding_layers = 23, .sliding_period = 2, .max_position = 8192,
       .params_b = 27.22712832),
     "head_dim 128, not hidden/heads 144"},
    {"google/gemma-3-27b-it", "gemma-3-27b", "GQA+SWA",
     M(.layers = 62, .hidden = 5376, .heads = 32, .kv_heads = 16, .head_dim = 128,
       .sliding_window = 1024, .sliding_layers = 52, .sliding_period = 6, .max_position = 131072,
       .params_b = 27.00900224),
     "5 local layers per global one; window 1024"},
    {"microsoft/Phi-3-mini-4k-instruct", "phi-3-mini-4k", "MHA+SWA",
     M(.layers = 32, .hidden = 3072, .heads = 32, .kv_heads = 32, .head_dim = 96,
       .sliding_window = 2047, .sliding_layers = 32, .max_position = 4096, .params_b = 3.821079552),
     "plain multi-head attention: 32 KV heads"},
    {"microsoft/phi-4", "phi-4", "GQA",
     M(.layers = 40, .hidden = 5120, .heads = 40, .kv_heads = 10, .head_dim = 128,
       .max_position = 16384, .params_b = 14.6595072),
     "10 KV heads: TP 4 does not divide them"},
    {"deepseek-ai/DeepSeek-V3", "deepseek-v3", "MLA MoE",
     M(.layers = 61, .hidden = 7168, .heads = 128, .mla_rank = 512, .mla_rope_dim = 64,
       .max_position = 163840, .params_b = 671.0264192, .active_params_b = 37.552297472,
       .experts = 256, .experts_per_token = 8, .weights_dtype = KV_DTYPE_FP8),
     "MLA: one 576-value latent per token per layer, whole on every TP rank"},
    /* From tests/fixtures/configs (public copies of the models' config.json):
     * hybrids of full attention and gated-delta-net layers, and DeepSeek-V3.2's
     * sparse MLA. Their parameter counts are the config reader's (hf_params.c,
     * hf_params_count): the language model without its MTP layer or vision tower. */
    {"Qwen/Qwen3.5-27B", "qwen3.5-27b", "GQA+GDN",
     M(.layers = 64, .hidden = 5120, .heads = 24, .kv_heads = 4, .head_dim = 256,
       .max_position = 262144, .state_layers = 48, .state_kind = KV_STATE_GDN, .ssm_heads = 48,
       .ssm_head_dim = 128, .ssm_groups = 16, .ssm_state_dim = 128, .conv_kernel = 4,
       .ssm_dtype = KV_DTYPE_FP32, .mtp_layers = 1, .params_b = 26.895998464),
     "16 attention layers keep KV; 48 gated-delta-net layers keep a 3 MiB state each"},
    {"Qwen/Qwen3.6-35B-A3B", "qwen3.6-35b-a3b,qwen3.5-35b-a3b", "GQA+GDN MoE",
     M(.layers = 40, .hidden = 2048, .heads = 16, .kv_heads = 2, .head_dim = 256,
       .max_position = 262144, .state_layers = 30, .state_kind = KV_STATE_GDN, .ssm_heads = 32,
       .ssm_head_dim = 128, .ssm_groups = 16, .ssm_state_dim = 128, .conv_kernel = 4,
       .ssm_dtype = KV_DTYPE_FP32, .params_b = 34.660610688, .active_params_b = 3.454988928,
       .experts = 256, .experts_per_token = 8),
     "10 of 40 layers keep KV: the block grows to 2,096 tokens to hold a layer's state"},
    {"deepseek-ai/DeepSeek-V3.2", "deepseek-v3.2", "MLA sparse MoE",
     M(.layers = 61, .hidden = 7168, .heads = 128, .mla_rank = 512, .mla_rope_dim = 64,
       .index_head_dim = 128, .max_position = 163840, .params_b = 671.877944064,
       .active_params_b = 38.403822336, .experts = 256, .experts_per_token = 8,
       .weights_dtype = KV_DTYPE_FP8),
     "fp8_ds_mla by default: 656 B of latent + 132 B of indexer keys a token a layer"},
    /* gpt-oss stores its experts in MXFP4 and the rest in BF16; weights_gib
     * is what vLLM logged loading it ("Model loading took ... GiB"). */
    {"openai/gpt-oss-20b", "gpt-oss-20b", "GQA+SWA MoE",
     M(.layers = 24, .hidden = 2880, .heads = 64, .kv_heads = 8, .head_dim = 64,
       .sliding_window = 128, .sliding_layers = 12, .sliding_period = 2, .max_position = 131072,
       .params_b = 20.914757184, .active_params_b = 4.187440704, .weights_gib = 13.47,
       .experts = 32, .experts_per_token = 4, .experts_dtype = KV_DTYPE_MXFP4),
     "sliding layers keep 128 tokens; only half the cache grows with context"},
    {"openai/gpt-oss-120b", "gpt-oss-120b", "GQA+SWA MoE",
     M(.layers = 36, .hidden = 2880, .heads = 64, .kv_heads = 8, .head_dim = 64,
       .sliding_window = 128, .sliding_layers = 18, .sliding_period = 2, .max_position = 131072,
       .params_b = 116.829156672, .active_params_b = 5.711982912, .weights_gib = 64.38,
       .experts = 128, .experts_per_token = 4, .experts_dtype = KV_DTYPE_MXFP4),
     "64 GiB of weights leave little KV on one 80 GB GPU"},
};

/* Vendor datasheets for memory, bandwidth and TFLOP/s; public deviceQuery
 * logs for memory clocks. */
static const struct kv_gpu_preset gpus[] = {
    {"H200 SXM", "h200", "9.0", 141, "HBM3e", 6144, 4800, 0, 989, 50, KV_GPU_APPROX_L2},
    {"H100 SXM", "h100,h100-sxm", "9.0", 80, "HBM3", 5120, 3352, 2619000, 989, 50, 0},
    {"H100 PCIe", "h100-pcie", "9.0", 80, "HBM2e", 5120, 2000, 1593000, 756, 50,
     KV_GPU_APPROX_CLOCK},
    {"GH200", "gh200", "9.0", 96, "HBM3", 6144, 4023, 2619000, 989, 60, 0},
    {"A100 80GB SXM", "a100,a100-80gb", "8.0", 80, "HBM2e", 5120, 2039, 1593000, 312, 40, 0},
    {"A100 80GB PCIe", "a100-pcie", "8.0", 80, "HBM2e", 5120, 1935, 0, 312, 40, 0},
    {"A100 40GB SXM", "a100-40gb", "8.0", 40, "HBM2", 5120, 1555, 1215000, 312, 40, 0},
    {"L40S", "l40s", "8.9", 48, "GDDR6", 384, 864, 9001000, 362, 96, 0},
    {"L4", "l4", "8.9", 24, "GDDR6", 192, 300, 6251000, 121, 48, 0},
    {"A10G", "a10g", "8.6", 24, "GDDR6", 384, 600, 0, 125, 6, KV_GPU_APPROX_TFLOPS},
    {"T4", "t4", "7.5", 16, "GDDR6", 256, 320, 5001000, 0, 4, KV_GPU_APPROX_CLOCK},
    {"RTX 5090", "rtx5090,5090", "12.0", 32, "GDDR7", 512, 1792, 14001000, 209.5, 96,
     KV_GPU_APPROX_TFLOPS},
    {"RTX 4090", "rtx4090,4090", "8.9", 24, "GDDR6X", 384, 1008, 10501000, 165.2, 72, 0},
    {"RTX 4080", "rtx4080,4080", "8.9", 16, "GDDR6X", 256, 716.8, 0, 97.5, 64,
     KV_GPU_APPROX_TFLOPS},
    {"RTX 3090", "rtx3090,3090", "8.6", 24, "GDDR6X", 384, 936, 0, 71, 6, KV_GPU_APPROX_TFLOPS},
    {"RTX 3060 12GB", "rtx3060,3060", "8.6", 12, "GDDR6", 192, 360, 7501000, 25.5, 2.25,
     KV_GPU_APPROX_TFLOPS},
    {"B200", "b200", "10.0", 180, "HBM3e", 7680, 8000, 3996000, 2250, 126.5, 0},
    {"MI300X", "mi300x", "-", 192, "HBM3", 8192, 5300, 0, 1307, 256, 0},
};

#define COUNT(a)     (sizeof(a) / sizeof((a)[0]))
#define NAME_MAX_LEN 63

const struct kv_model_preset *kv_model_presets(size_t *count)
{
    *count = COUNT(models);
    return models;
}

const struct kv_gpu_preset *kv_gpu_presets(size_t *count)
{
    *count = COUNT(gpus);
    return gpus;
}

static int lower(int c)
{
    return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c;
}

static bool ends_with(const char *s, size_t n, const char *suffix)
{
    size_t k = strlen(suffix);
    return n > k && memcmp(s + n - k, suffix, k) == 0;
}

/* Lower-cases, drops an "org/" prefix, an "-instruct" and an "-it" suffix, turns
 * spaces into dashes; truncates at NAME_MAX_LEN. Returns the length. */
static size_t normalise(const char *in, char out[NAME_MAX_LEN + 1])
{
    const char *slash = strrchr(in, '/');
    size_t n = 0;

    if (slash)
        in = slash + 1;
    for (; *in && n < NAME_MAX_LEN; in++)
        out[n++] = (char)(*in == ' ' ? '-' : lower((unsigned char)*in));
    out[n] = '\0';
    {
        /* "Mixtral-8x7B-Instruct-v0.1": the suffix can sit before a version */
        char *mid = strstr(out, "-instruct");
        if (mid) {
            memmove(mid, mid + 9, strlen(mid + 9) + 1);
            n -= 9;
        }
    }
    if (ends_with(out, n, "-it"))
        n -= strlen("-it");
    out[n] = '\0';
    return n;
}

static bool same_name(const char *a, const char *b)
{
    char na[NAME_MAX_LEN + 1], nb[NAME_MAX_LEN + 1];
    normalise(a, na);
    normalise(b, nb);
    return strcmp(na, nb) == 0;
}

/* Does `name` equal one of the comma-separated entries of `list`? */
static bool in_list(const char *name, const char *list)
{
    char item[NAME_MAX_LEN + 1];

    while (*list) {
        size_t n = strcspn(list, ",");
        if (n <= NAME_MAX_LEN) {
            memcpy(item, list, n);
            item[n] = '\0';
            if (same_name(name, item))
                return true;
        }
        list += n + (list[n] == ',');
    }
    return false;
}

const struct kv_model_preset *kv_model_preset_find(const char *name)
{
    for (size_t i = 0; i < COUNT(models); i++)
        if (in_list(name, models[i].alias) || same_name(name, models[i].id))
            return &models[i];
    return NULL;
}

const struct kv_gpu_preset *kv_gpu_preset_find(const char *name)
{
    for (size_t i = 0; i < COUNT(gpus); i++)
        if (same_name(name, gpus[i].name) || in_list(name, gpus[i].aliases))
            return &gpus[i];
    return NULL;
}

/* Levenshtein distance between two normalised names, two rows on the stack. */
static size_t distance(const char *a, const char *b)
{
    size_t rows[2][NAME_MAX_LEN + 2];
    size_t la = strlen(a), lb = strlen(b);

    for (size_t j = 0; j <= lb; j++)
        rows[0][j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t *prev = rows[(i - 1) & 1], *cur = rows[i & 1];
        cur[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
            size_t del = prev[j] + 1, ins = cur[j - 1] + 1;
            cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
    }
    return rows[la & 1][lb];
}

/* Keeps the `max` smallest (distance, index) pairs in insertion order. */
static size_t rank(size_t *best_d, size_t *best_i, size_t have, size_t max, size_t d, size_t i)
{
    size_t pos = have < max ? have : max;

    while (pos > 0 && best_d[pos - 1] > d)
        pos--;
    if (pos >= max)
        return have;
    for (size_t k = (have < max ? have : max - 1); k > pos; k--) {
        best_d[k] = best_d[k - 1];
        best_i[k] = best_i[k - 1];
    }
    best_d[pos] = d;
    best_i[pos] = i;
    return have < max ? have + 1 : have;
}

/* Smallest distance from `want` to any comma-separated entry of `list`. */
static size_t list_distance(const char *want, const char *list)
{
    char item[NAME_MAX_LEN + 1], norm[NAME_MAX_LEN + 1];
    size_t best = (size_t)-1;

    while (*list) {
        size_t n = strcspn(list, ",");
        size_t k = n > NAME_MAX_LEN ? NAME_MAX_LEN : n;
        size_t d;
        memcpy(item, list, k);
        item[k] = '\0';
        normalise(item, norm);
        /* what was typed is the start of this name ("qwen3", "rtx40"): as close as can be */
        d = strlen(want) >= 3 && strncmp(norm, want, strlen(want)) == 0 ? 0 : distance(want, norm);
        if (d < best)
            best = d;
        list += n + (list[n] == ',');
    }
    return best;
}

static size_t model_distance(const char *want, size_t i)
{
    size_t a = list_distance(want, models[i].alias), b = list_distance(want, models[i].id);
    return a < b ? a : b;
}

static size_t gpu_distance(const char *want, size_t i)
{
    size_t a = list_distance(want, gpus[i].aliases), b = list_distance(want, gpus[i].name);
    return a < b ? a : b;
}

#define SUGGEST_MAX 8

/* Indices of the `max` entries closest to `name`, best first, ties in table order. */
static size_t suggest(const char *name, size_t count, size_t (*dist)(const char *, size_t),
                      size_t *best_i, size_t max)
{
    size_t best_d[SUGGEST_MAX], have = 0;
    char want[NAME_MAX_LEN + 1];

    if (max > SUGGEST_MAX)
        max = SUGGEST_MAX;
    normalise(name, want);
    /* a suggestion must be close: a slip of a key or two, or a third of the
     * name, not merely the least far of names that share nothing ("foo") */
    size_t limit = strlen(want) / 3 > 2 ? strlen(want) / 3 : 2;
    for (size_t i = 0; i < count && max > 0; i++) {
        size_t d = dist(want, i);
        if (d <= limit)
            have = rank(best_d, best_i, have, max, d, i);
    }
    return have;
}

size_t kv_model_preset_suggest(const char *name, const struct kv_model_preset **out, size_t max)
{
    size_t idx[SUGGEST_MAX], n = suggest(name, COUNT(models), model_distance, idx, max);
    for (size_t k = 0; k < n; k++)
        out[k] = &models[idx[k]];
    return n;
}

size_t kv_gpu_preset_suggest(const char *name, const struct kv_gpu_preset **out, size_t max)
{
    size_t idx[SUGGEST_MAX], n = suggest(name, COUNT(gpus), gpu_distance, idx, max);
    for (size_t k = 0; k < n; k++)
        out[k] = &gpus[idx[k]];
    return n;
}

void kv_gpu_preset_apply(const struct kv_gpu_preset *g, struct kv_deploy *d)
{
    d->gpu_mem_gib = g->memory_gib;
    d->bandwidth_gbps = g->peak_gbps;
    d->tflops = g->bf16_tflops;
}
