/* `kvtutor calc`: flags in, the calculator's figures out.
 *
 * Every flag is one row of the table below; the parser, the help text and the
 * error messages all come from it. A preset (--model) or a config.json
 * (--config) gives the starting model; explicit flags then override it. */
#include "cli.h"
#include "cli_args.h"
#include "cli_calc.h"

#include <stdio.h>
#include <string.h>

#include "kvt_format.h"
#include "kv_arch.h"
#include "tutor_config.h"

enum flag_id {
    F_MODEL,
    F_CONFIG,
    F_LAYERS,
    F_KV_HEADS,
    F_HEADS,
    F_HEAD_DIM,
    F_HIDDEN,
    F_SLIDING_WINDOW,
    F_SLIDING_LAYERS,
    F_MLA_RANK,
    F_MLA_ROPE_DIM,
    F_PARAMS,
    F_ACTIVE_PARAMS,
    F_EXPERTS,
    F_EXPERTS_PER_TOKEN,
    F_DTYPE,
    F_KV_DTYPE,
    F_WEIGHTS_DTYPE,
    F_WEIGHTS_GIB,
    F_GPU,
    F_GPU_MEM_GIB,
    F_UTIL,
    F_OVERHEAD_GIB,
    F_KV_BUDGET_GIB,
    F_TP,
    F_PP,
    F_PP_PARTITION,
    F_BLOCK_SIZE,
    F_MAX_MODEL_LEN,
    F_MAX_NUM_BATCHED_TOKENS,
    F_BATCH,
    F_CONTEXT,
    F_BANDWIDTH,
    F_TFLOPS,
    F_VLLM,
    F_NO_ASYNC,
    F_SPEC_METHOD,
    F_SPEC_TOKENS,
    F_SPEC_LAYERS,
    F_DCP,
    F_MAMBA_CACHE_MODE,
    F_NO_PREFIX_CACHING,
    F_ENABLE_PREFIX_CACHING,
    F_ALLOW_LONG,
    F_MAMBA_DTYPE,
    F_MAMBA_SSM_DTYPE,
    F_BACKEND,
    F_BLOCKS_OVERRIDE,
    F_KV_CACHE_MEMORY_BYTES,
    F_JSON,
    F_HELP,
    F__COUNT
};

/* Short names for the table's kinds. */
#define K_SWITCH CLI_SWITCH
#define K_STR    CLI_STR
#define K_UINT   CLI_UINT
#define K_REAL   CLI_REAL
#define K_DTYPE  CLI_DTYPE
#define K_TOKENS CLI_TOKENS /* a token count: 32k, 128K, as vLLM's human_readable_int */
enum section { S_MODEL, S_PRECISION, S_DEPLOY, S_ENGINE, S_OUTPUT };

static const struct cli_flag flags[F__COUNT] = {
    [F_MODEL] = {"--model", NULL, "NAME", K_STR, S_MODEL, KV_FIELD_NONE,
                 .help = "a preset by Hugging Face id or alias (kvtutor models)"},
    [F_CONFIG] = {"--config", NULL, "FILE", K_STR, S_MODEL, KV_FIELD_NONE,
                  .help = "a Hugging Face config.json"},
    [F_LAYERS] = {"--layers", NULL, "N", K_UINT, S_MODEL, KV_FIELD_LAYERS, .umax = KV_MAX_DIM,
                  .help = "decoder layers that hold attention KV"},
    [F_KV_HEADS] = {"--kv-heads", NULL, "N", K_UINT, S_MODEL, KV_FIELD_KV_HEADS, .umax = KV_MAX_DIM,
                    .help = "num_key_value_heads (default: --heads, plain MHA)"},
    [F_HEADS] = {"--heads", NULL, "N", K_UINT, S_MODEL, KV_FIELD_HEADS, .umax = KV_MAX_DIM,
                 .help = "query heads (num_attention_heads)"},
    [F_HEAD_DIM] = {"--head-dim", NULL, "N", K_UINT, S_MODEL, KV_FIELD_HEAD_DIM, .umax = KV_MAX_DIM,
                    .help = "head dimension (default: --hidden / --heads)"},
    [F_HIDDEN] = {"--hidden", NULL, "N", K_UINT, S_MODEL, KV_FIELD_HIDDEN, .umax = KV_MAX_DIM,
                  .help = "hidden size"},
    [F_SLIDING_WINDOW] = {"--sliding-window", NULL, "W", K_TOKENS, S_MODEL, KV_FIELD_SLIDING_WINDOW,
                          .umax = KV_MAX_TOKENS, .help = "window of the sliding layers, tokens"},
    [F_SLIDING_LAYERS] = {"--sliding-layers", NULL, "N", K_UINT, S_MODEL, KV_FIELD_SLIDING_LAYERS,
                          .umax = KV_MAX_DIM,
                          .help = "how many layers slide (default: all, given a window)"},
    [F_MLA_RANK] = {"--mla-rank", NULL, "R", K_UINT, S_MODEL, KV_FIELD_MLA_RANK, .umax = KV_MAX_DIM,
                    .help = "MLA kv_lora_rank: one latent per token per layer"},
    [F_MLA_ROPE_DIM] = {"--mla-rope-dim", NULL, "D", K_UINT, S_MODEL, KV_FIELD_MLA_ROPE_DIM,
                        .umax = KV_MAX_DIM, .help = "MLA qk_rope_head_dim"},
    [F_PARAMS] = {"--params", NULL, "B", K_REAL, S_MODEL, KV_FIELD_PARAMS, .rmin = 0,
                  .rmin_open = true, .rmax = KV_MAX_PARAMS_B, .help = "total parameters, billions"},
    [F_ACTIVE_PARAMS] = {"--active-params", NULL, "B", K_REAL, S_MODEL, KV_FIELD_ACTIVE_PARAMS,
                         .rmin = 0, .rmin_open = true, .rmax = KV_MAX_PARAMS_B,
                         .help = "parameters read per token, billions (MoE)"},
    [F_EXPERTS] = {"--experts", NULL, "E", K_UINT, S_MODEL, KV_FIELD_EXPERTS, .umax = KV_MAX_DIM,
                   .help = "MoE: routed experts a layer (a batch reads those its tokens touch)"},
    [F_EXPERTS_PER_TOKEN] = {"--experts-per-token", NULL, "K", K_UINT, S_MODEL,
                             KV_FIELD_EXPERTS_PER_TOKEN, .umax = KV_MAX_DIM,
                             .help = "MoE: experts each token is routed to (top-k)"},
    [F_DTYPE] = {"--dtype", NULL, "T", K_DTYPE, S_MODEL, KV_FIELD_DTYPE, .dtypes = "bf16|fp16|fp32",
                 .help = "the model's own dtype (default bf16)"},
    [F_KV_DTYPE] = {"--kv-dtype", "--kv-cache-dtype", "T", K_DTYPE, S_PRECISION, KV_FIELD_KV_DTYPE,
                    .dtypes = "auto|bf16|fp16|fp8|fp8_ds_mla|nvfp4|int8_per_token_head|"
                              "fp8_per_token_head|fp32|int8",
                    .help = "KV cache dtype by vLLM's names (fp8_e4m3, fp8_e5m2, bfloat16 too); "
                            "auto = the model's (fp32, int8: teaching only)"},
    [F_WEIGHTS_DTYPE] = {"--weights-dtype", NULL, "T", K_DTYPE, S_PRECISION, KV_FIELD_WEIGHTS_DTYPE,
                         .dtypes = "bf16|fp16|fp32|fp8|int8|int4|mxfp4",
                         .help = "weight storage; int4 adds an fp16 scale per 128"},
    [F_WEIGHTS_GIB] = {"--weights-gib", NULL, "X", K_REAL, S_PRECISION, KV_FIELD_WEIGHTS_GIB,
                       .rmin = 0, .rmin_open = true, .rmax = KV_MAX_GIB,
                       .help = "weights of the whole model, GiB"},
    [F_GPU] = {"--gpu", NULL, "NAME", K_STR, S_DEPLOY, KV_FIELD_NONE,
               .help = "a GPU preset (kvtutor gpus): memory, bandwidth, TFLOP/s"},
    [F_GPU_MEM_GIB] = {"--gpu-mem-gib", NULL, "X", K_REAL, S_DEPLOY, KV_FIELD_GPU_MEM_GIB,
                       .rmin = 0, .rmin_open = true, .rmax = KV_MAX_GIB,
                       .help = "total memory of one GPU, GiB"},
    [F_UTIL] = {"--util", "--gpu-memory-utilization", "F", K_REAL, S_DEPLOY, KV_FIELD_UTIL,
                .rmin = 0, .rmin_open = true, .rmax = 1.0,
                .help = "gpu_memory_utilization (default: the release's, 0.92 from 0.25)"},
    [F_OVERHEAD_GIB] = {"--overhead-gib", NULL, "X", K_REAL, S_DEPLOY, KV_FIELD_OVERHEAD_GIB,
                        .rmin = 0, .rmin_open = false, .rmax = KV_MAX_GIB,
                        .help = "activations + non-torch + CUDA graphs per GPU (default 0)"},
    [F_KV_BUDGET_GIB] = {"--kv-budget-gib", NULL, "X", K_REAL, S_DEPLOY, KV_FIELD_KV_BUDGET_GIB,
                         .rmin = 0, .rmin_open = true, .rmax = KV_MAX_GIB,
                         .help = "KV memory on one GPU, as vLLM logs it; skips the subtraction"},
    [F_TP] = {"--tp", "--tensor-parallel-size", "N", K_UINT, S_DEPLOY, KV_FIELD_TP,
              .umax = KV_MAX_PARALLEL, .help = "tensor-parallel degree (default 1)"},
    [F_PP] = {"--pp", "--pipeline-parallel-size", "N", K_UINT, S_DEPLOY, KV_FIELD_PP,
              .umax = KV_MAX_PARALLEL, .help = "pipeline-parallel degree (default 1)"},
    [F_PP_PARTITION] = {"--pp-partition", "--pp-layer-partition", "LIST", K_STR, S_DEPLOY,
                        KV_FIELD_PP_PARTITION,
                        .help = "layers per pipeline stage, as VLLM_PP_LAYER_PARTITION: 20,20,21"},
    [F_BLOCK_SIZE] = {"--block-size", NULL, "N", K_UINT, S_DEPLOY, KV_FIELD_BLOCK_SIZE,
                      .umax = KV_MAX_BLOCK_SIZE, .help = "tokens per KV block (default 16)"},
    [F_MAX_MODEL_LEN] = {"--max-model-len", "--seq", "N", K_TOKENS, S_DEPLOY,
                         KV_FIELD_MAX_MODEL_LEN, .umax = KV_MAX_TOKENS,
                         .help = "tokens per request (default: max_position_embeddings)"},
    [F_MAX_NUM_BATCHED_TOKENS] = {"--max-num-batched-tokens", NULL, "N", K_TOKENS, S_DEPLOY,
                                  KV_FIELD_MAX_NUM_BATCHED_TOKENS, .umax = KV_MAX_TOKENS,
                                  .help = "scheduler chunk, for sliding windows (default 8192)"},
    [F_BATCH] = {"--batch", NULL, "N", K_UINT, S_DEPLOY, KV_FIELD_BATCH, .umax = KV_MAX_BATCH,
                 .help = "concurrent sequences for the decode ceiling (default 1)"},
    [F_CONTEXT] = {"--context", NULL, "N", K_TOKENS, S_DEPLOY, KV_FIELD_CONTEXT,
                   .umax = KV_MAX_TOKENS, .zero_ok = true,
                   .help = "tokens already cached per sequence (default 0)"},
    [F_BANDWIDTH] = {"--bandwidth-gbps", NULL, "X", K_REAL, S_DEPLOY, KV_FIELD_BANDWIDTH, .rmin = 0,
                     .rmin_open = true, .rmax = KV_MAX_RATE,
                     .help = "memory bandwidth of one GPU, GB/s"},
    [F_TFLOPS] = {"--tflops", NULL, "X", K_REAL, S_DEPLOY, KV_FIELD_TFLOPS, .rmin = 0,
                  .rmin_open = true, .rmax = KV_MAX_RATE, .help = "dense bf16 TFLOP/s of one GPU"},
    [F_VLLM] = {"--vllm", NULL, "VERSION", K_STR, S_ENGINE, KV_FIELD_NONE,
                .help = "whose start-up rules: a vLLM release (default " KV_VLLM_DEFAULT ")"},
    [F_NO_ASYNC] = {"--no-async-scheduling", NULL, NULL, K_SWITCH, S_ENGINE, KV_FIELD_NONE,
                    .help = "one batch in flight per PP stage (vLLM schedules two by default)"},
    [F_SPEC_METHOD] = {"--spec-method", NULL, "M", K_STR, S_ENGINE, KV_FIELD_SPEC_METHOD,
                       .help = "speculative decoding: eagle|eagle3|mtp|draft|ngram"},
    [F_SPEC_TOKENS] = {"--spec-tokens", "--num-speculative-tokens", "K", K_UINT, S_ENGINE,
                       KV_FIELD_SPEC_TOKENS, .umax = 1024, .help = "lookahead tokens"},
    [F_SPEC_LAYERS] = {"--spec-layers", NULL, "N", K_UINT, S_ENGINE, KV_FIELD_SPEC_LAYERS,
                       .umax = KV_MAX_DIM,
                       .help = "draft attention layers (default: eagle 1, mtp the config's)"},
    [F_DCP] = {"--dcp", "--decode-context-parallel-size", "N", K_UINT, S_ENGINE, KV_FIELD_DCP,
               .umax = KV_MAX_PARALLEL, .help = "decode context parallel size (default 1)"},
    [F_MAMBA_CACHE_MODE] = {"--mamba-cache-mode", NULL, "M", K_STR, S_ENGINE,
                            KV_FIELD_MAMBA_CACHE_MODE,
                            .help = "none|align|all: Mamba blocks a request (default: align "
                                    "with prefix caching on, from 0.20.1)"},
    [F_NO_PREFIX_CACHING] = {"--no-prefix-caching", "--no-enable-prefix-caching", NULL, K_SWITCH,
                             S_ENGINE, KV_FIELD_NONE,
                             .help = "prefix caching off: Mamba groups keep one state (sim: a "
                                     "resumed request recomputes all)"},
    [F_ENABLE_PREFIX_CACHING] = {"--enable-prefix-caching", NULL, NULL, K_SWITCH, S_ENGINE,
                                 KV_FIELD_NONE,
                                 .help = "prefix caching on for a hybrid model too (its default "
                                         "is off up to 0.27): Mamba groups align"},
    [F_ALLOW_LONG] = {"--allow-long-max-model-len", NULL, NULL, K_SWITCH, S_ENGINE, KV_FIELD_NONE,
                      .help = "as VLLM_ALLOW_LONG_MAX_MODEL_LEN=1: a length past the model's"},
    [F_MAMBA_DTYPE] = {"--mamba-cache-dtype", NULL, "T", K_DTYPE, S_ENGINE, KV_FIELD_KV_DTYPE,
                       .dtypes = "auto|bf16|fp16|fp32", .help = "Mamba conv state dtype"},
    [F_MAMBA_SSM_DTYPE] = {"--mamba-ssm-cache-dtype", NULL, "T", K_DTYPE, S_ENGINE,
                           KV_FIELD_KV_DTYPE, .dtypes = "auto|bf16|fp16|fp32",
                           .help = "Mamba SSM state dtype (auto: the config's, as vLLM reads it)"},
    [F_BACKEND] = {"--attention-backend", NULL, "NAME", K_STR, S_ENGINE, KV_FIELD_ATTENTION_BACKEND,
                   .help = "FLASH_ATTN|FLASHINFER|TRITON_ATTN|FLASHMLA|FLASHMLA_SPARSE|"
                           "CUTLASS_MLA|FLASHINFER_MLA|TRITON_MLA"},
    [F_BLOCKS_OVERRIDE] = {"--num-gpu-blocks-override", NULL, "N", K_UINT, S_ENGINE,
                           KV_FIELD_NUM_GPU_BLOCKS_OVERRIDE, .umax = (uint64_t)1 << 40,
                           .help = "vLLM's override: N blocks, whatever the memory"},
    [F_KV_CACHE_MEMORY_BYTES] = {"--kv-cache-memory-bytes", "--kv-cache-memory", "X", K_STR,
                                 S_DEPLOY, KV_FIELD_KV_CACHE_MEMORY_BYTES,
                                 .help = "vLLM's exact KV budget per GPU: 8G = 8 GiB, 8g = 8e9 B"},
    [F_JSON] = {"--json", NULL, NULL, K_SWITCH, S_OUTPUT, KV_FIELD_NONE,
                .help = "one JSON object instead of the walk-through"},
    [F_HELP] = {"--help", "-h", NULL, K_SWITCH, S_OUTPUT, KV_FIELD_NONE, .help = "this text"},
};

_Static_assert(F__COUNT <= CLI_MAX_FLAGS, "calc's flags fit struct cli_args");

static const struct cli_spec spec = {.cmd = "calc", .flags = flags, .nflags = F__COUNT};

#define usage_error(...) cli_usage_error(cmd, __VA_ARGS__)

static void print_help(FILE *out)
{
    static const char *const titles[] = {"Model (flags override a preset or config)", "Precision",
                                         "Deployment", "Engine", "Output"};
    fputs("usage: kvtutor calc [--model NAME | --config FILE | --layers N ...] [options]\n\n"
          "Works out the KV cache of a model and how many sequences fit, the way vLLM's\n"
          "start-up does, then the memory-bound decode ceiling.\n",
          out);
    for (int s = S_MODEL; s <= S_OUTPUT; s++) {
        fprintf(out, "\n%s:\n", titles[s]);
        for (int i = 0; i < F__COUNT; i++) {
            const struct cli_flag *f = &flags[i];
            char left[64];
            if (f->section != s)
                continue;
            snprintf(left, sizeof left, "%s%s%s%s%s", f->name, f->alias ? ", " : "",
                     f->alias ? f->alias : "", f->metavar ? " " : "", f->metavar ? f->metavar : "");
            if (strlen(left) > 34) /* a long alias: the help on its own line */
                fprintf(out, "  %s\n  %-34s %s\n", left, "", f->help);
            else
                fprintf(out, "  %-34s %s\n", left, f->help);
            if (f->kind == K_DTYPE)
                fprintf(out, "  %-34s   one of %s\n", "", f->dtypes);
        }
    }
    fputs("\nExample (the seed lesson): kvtutor calc --model qwen2.5-7b --gpu rtx4090 --util 1 "
          "--seq 8192\n",
          out);
}

/* Pairs of flags that cannot both mean something. */
static int check_conflicts(const char *cmd, const struct cli_args *a)
{
    static const struct {
        enum flag_id a, b;
        const char *why;
    } pairs[] = {
        {F_MODEL, F_CONFIG, "both describe the model; give one"},
        {F_KV_BUDGET_GIB, F_GPU_MEM_GIB, "the budget is given, so GPU memory is not used"},
        {F_KV_BUDGET_GIB, F_UTIL, "the budget is given, so the utilization is not used"},
        {F_KV_BUDGET_GIB, F_OVERHEAD_GIB, "the budget is given, so nothing is subtracted"},
        {F_KV_CACHE_MEMORY_BYTES, F_KV_BUDGET_GIB, "both give the KV budget; give one"},
        {F_KV_CACHE_MEMORY_BYTES, F_GPU_MEM_GIB, "the budget is given, so GPU memory is not used"},
        {F_KV_CACHE_MEMORY_BYTES, F_UTIL, "the budget is given, so the utilization is not used"},
        {F_KV_CACHE_MEMORY_BYTES, F_OVERHEAD_GIB, "the budget is given, so nothing is subtracted"},
        {F_NO_PREFIX_CACHING, F_MAMBA_CACHE_MODE, "the mode is what prefix caching decides"},
        {F_NO_PREFIX_CACHING, F_ENABLE_PREFIX_CACHING, "prefix caching is either on or off"},
        {F_MLA_RANK, F_KV_HEADS, "an MLA cache has one latent, not KV heads"},
        {F_MLA_RANK, F_HEAD_DIM, "an MLA cache is sized by rank and rope dim, not head dim"},
        {F_WEIGHTS_GIB, F_WEIGHTS_DTYPE, "the weights' size is given, so their dtype is not used"},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        if (a->given[pairs[i].a] && a->given[pairs[i].b])
            return usage_error("%s and %s: %s", flags[pairs[i].a].name, flags[pairs[i].b].name,
                               pairs[i].why);
    return 0;
}

/* --pp-partition as vLLM reads VLLM_PP_LAYER_PARTITION (vllm/distributed/
 * utils.py, get_pp_indices): whole numbers separated by commas, blanks around
 * each allowed; the count and the sum are kv_calc's to check. NULL, or why
 * not in why (one fault, named with the item at fault). */
static const char *parse_partition(const char *text, struct kv_deploy *d, char *why, size_t cap)
{
    const char *p = text;
    char limit[32];

    d->pp_partition_n = 0;
    for (;;) {
        size_t n = strcspn(p, ",");
        const char *s = p, *e = p + n;
        uint64_t v = 0;
        bool digits = true;
        while (s < e && (*s == ' ' || *s == '\t'))
            s++;
        while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
            e--;
        if (e == s) {
            snprintf(why, cap, "stage %u is empty (vLLM: Invalid partition string)",
                     d->pp_partition_n + 1);
            return why;
        }
        for (const char *c = s; c < e; c++) {
            digits = digits && *c >= '0' && *c <= '9';
            if (digits && v <= KV_MAX_DIM)
                v = v * 10 + (uint64_t)(*c - '0');
        }
        if (!digits) {
            snprintf(why, cap,
                     "\"%.*s\" is not a whole number of layers (vLLM: Invalid partition string)",
                     (int)(e - s > 40 ? 40 : e - s), s);
            return why;
        }
        if (v > KV_MAX_DIM) {
            snprintf(why, cap, "%.*s%s layers in stage %u: at most %s",
                     (int)(e - s > 40 ? 40 : e - s), s, e - s > 40 ? "..." : "",
                     d->pp_partition_n + 1, kvt_fmt_int(KV_MAX_DIM, limit, sizeof limit));
            return why;
        }
        if (d->pp_partition_n == KV_MAX_PP_STAGES) {
            snprintf(why, cap, "lists more than %u stages, the most kvtutor takes",
                     KV_MAX_PP_STAGES);
            return why;
        }
        d->pp_partition[d->pp_partition_n++] = (uint32_t)v;
        if (p[n] == '\0')
            return NULL;
        p += n + 1;
    }
}

/* The engine flags whose values are words. */
static int parse_engine(const char *cmd, const struct cli_args *a, struct kv_deploy *d)
{
    static const struct {
        const char *name;
        enum kv_spec_method m;
    } methods[] = {{"eagle", KV_SPEC_EAGLE},       {"eagle3", KV_SPEC_EAGLE3},
                   {"mtp", KV_SPEC_MTP},           {"draft", KV_SPEC_DRAFT},
                   {"draft_model", KV_SPEC_DRAFT}, {"ngram", KV_SPEC_NGRAM}};
    static const struct {
        const char *name;
        enum kv_mamba_mode m;
    } modes[] = {{"none", KV_MAMBA_NONE}, {"align", KV_MAMBA_ALIGN}, {"all", KV_MAMBA_ALL}};
    const char *why;
    char reason[200];
    size_t i;

    if (a->given[F_SPEC_METHOD]) {
        for (i = 0; i < sizeof methods / sizeof methods[0]; i++)
            if (strcmp(a->text[F_SPEC_METHOD], methods[i].name) == 0)
                break;
        if (i == sizeof methods / sizeof methods[0])
            return usage_error("--spec-method %s: one of eagle, eagle3, mtp, draft, ngram",
                               a->text[F_SPEC_METHOD]);
        d->spec_method = methods[i].m;
    }
    if (a->given[F_MAMBA_CACHE_MODE]) {
        for (i = 0; i < sizeof modes / sizeof modes[0]; i++)
            if (strcmp(a->text[F_MAMBA_CACHE_MODE], modes[i].name) == 0)
                break;
        if (i == sizeof modes / sizeof modes[0])
            return usage_error("--mamba-cache-mode %s: one of none, align, all",
                               a->text[F_MAMBA_CACHE_MODE]);
        d->mamba_mode = modes[i].m;
    }
    if (a->given[F_PP_PARTITION] &&
        (why = parse_partition(a->text[F_PP_PARTITION], d, reason, sizeof reason)) != NULL)
        return usage_error("--pp-partition %s: %s", a->text[F_PP_PARTITION], why);
    if (a->given[F_BACKEND] && !kv_backend_parse(a->text[F_BACKEND], &d->backend))
        return usage_error("--attention-backend %s: not one kvtutor sizes (%s)", a->text[F_BACKEND],
                           flags[F_BACKEND].help);
    if (a->given[F_KV_CACHE_MEMORY_BYTES]) {
        /* read as vLLM reads it: cli_parse_human_int (human_readable_int) */
        why = cli_parse_human_int(a->text[F_KV_CACHE_MEMORY_BYTES], UINT64_MAX, true,
                                  &d->kv_cache_memory_bytes);
        if (!why && d->kv_cache_memory_bytes == 0)
            why = "must be greater than 0";
        if (why)
            return usage_error("--kv-cache-memory-bytes %s: %s", a->text[F_KV_CACHE_MEMORY_BYTES],
                               why);
    }
    return 0;
}

static int unknown_preset(const char *cmd, const char *flag, const char *name, bool gpu)
{
    const struct kv_model_preset *m[3];
    const struct kv_gpu_preset *g[3];
    size_t n = gpu ? kv_gpu_preset_suggest(name, g, 3) : kv_model_preset_suggest(name, m, 3);
    char list[160] = "";

    for (size_t i = 0; i < n; i++) {
        const char *s = gpu ? g[i]->aliases : m[i]->alias;
        size_t len = strlen(list), k = strcspn(s, ",");
        snprintf(list + len, sizeof list - len, "%s%.*s", i ? ", " : "", (int)k, s);
    }
    if (n == 0)
        return usage_error("%s %s: no such preset (kvtutor %s lists them)", flag, name,
                           gpu ? "gpus" : "models");
    return usage_error("%s %s: no such preset; closest: %s (kvtutor %s lists all)", flag, name,
                       list, gpu ? "gpus" : "models");
}

static int load_config(const char *cmd, const char *path, struct kv_model *m, struct calc_view *v)
{
    char why[400];

    if (tutor_config_load(path, m, &v->config, why, sizeof why) == KVT_E_OK)
        return 0;
    return usage_error("--config %s", why);
}

static void apply_u32(const struct cli_args *a, int id, uint32_t *dst)
{
    if (a->given[id])
        *dst = (uint32_t)a->u[id];
}

static void apply_u64(const struct cli_args *a, int id, uint64_t *dst)
{
    if (a->given[id])
        *dst = a->u[id];
}

static void apply_real(const struct cli_args *a, int id, double *dst)
{
    if (a->given[id])
        *dst = a->r[id];
}

static void apply_flags(const struct cli_args *a, struct kv_model *m, struct kv_deploy *d)
{
    apply_u32(a, F_LAYERS, &m->layers);
    apply_u32(a, F_KV_HEADS, &m->kv_heads);
    apply_u32(a, F_HEADS, &m->heads);
    apply_u32(a, F_HEAD_DIM, &m->head_dim);
    apply_u32(a, F_HIDDEN, &m->hidden);
    apply_u64(a, F_SLIDING_WINDOW, &m->sliding_window);
    apply_u32(a, F_SLIDING_LAYERS, &m->sliding_layers);
    if (a->given[F_SLIDING_WINDOW] || a->given[F_SLIDING_LAYERS])
        m->sliding_period = 0; /* the preset's pattern no longer describes the layers */
    if (a->given[F_MLA_RANK] || a->given[F_MLA_ROPE_DIM]) {
        m->kv_heads = 0; /* a latent cache replaces the preset's K/V heads */
        m->head_dim = 0;
    }
    if (a->given[F_KV_HEADS] || a->given[F_HEAD_DIM])
        m->mla_rank = m->mla_rope_dim = 0;
    apply_u32(a, F_MLA_RANK, &m->mla_rank);
    apply_u32(a, F_MLA_ROPE_DIM, &m->mla_rope_dim);
    apply_real(a, F_PARAMS, &m->params_b);
    apply_real(a, F_ACTIVE_PARAMS, &m->active_params_b);
    if (a->given[F_PARAMS] && !a->given[F_ACTIVE_PARAMS])
        m->active_params_b = 0; /* a new total without an active count: dense */
    if (a->given[F_PARAMS] && !a->given[F_ACTIVE_PARAMS] && !a->given[F_EXPERTS])
        m->experts = m->experts_per_token = 0;
    apply_u32(a, F_EXPERTS, &m->experts);
    apply_u32(a, F_EXPERTS_PER_TOKEN, &m->experts_per_token);
    if (a->given[F_DTYPE])
        m->dtype = a->t[F_DTYPE];
    if (a->given[F_WEIGHTS_DTYPE]) {
        m->weights_dtype = a->t[F_WEIGHTS_DTYPE];
        m->weights_gib = 0; /* estimate at the chosen dtype, not the preset's measured size */
        m->experts_dtype = KV_DTYPE_AUTO; /* every weight at that dtype */
    }
    apply_real(a, F_WEIGHTS_GIB, &m->weights_gib);

    apply_real(a, F_GPU_MEM_GIB, &d->gpu_mem_gib);
    apply_real(a, F_UTIL, &d->util);
    apply_real(a, F_OVERHEAD_GIB, &d->overhead_gib);
    apply_real(a, F_KV_BUDGET_GIB, &d->kv_budget_gib);
    apply_u32(a, F_TP, &d->tp);
    apply_u32(a, F_PP, &d->pp);
    apply_u32(a, F_BLOCK_SIZE, &d->block_size);
    apply_u64(a, F_MAX_MODEL_LEN, &d->max_model_len);
    apply_u64(a, F_MAX_NUM_BATCHED_TOKENS, &d->max_num_batched_tokens);
    apply_u64(a, F_BATCH, &d->batch);
    apply_u64(a, F_CONTEXT, &d->context);
    apply_real(a, F_BANDWIDTH, &d->bandwidth_gbps);
    apply_real(a, F_TFLOPS, &d->tflops);
    d->sync_scheduling = a->given[F_NO_ASYNC];
    d->no_prefix_caching = a->given[F_NO_PREFIX_CACHING];
    d->enable_prefix_caching = a->given[F_ENABLE_PREFIX_CACHING];
    d->allow_long_max_model_len = a->given[F_ALLOW_LONG];
    apply_u32(a, F_SPEC_TOKENS, &d->spec_tokens);
    apply_u32(a, F_SPEC_LAYERS, &d->spec_layers);
    apply_u32(a, F_DCP, &d->dcp);
    apply_u64(a, F_BLOCKS_OVERRIDE, &d->num_gpu_blocks_override);
    if (a->given[F_MAMBA_DTYPE])
        d->mamba_dtype = a->t[F_MAMBA_DTYPE];
    if (a->given[F_MAMBA_SSM_DTYPE])
        d->mamba_ssm_dtype = a->t[F_MAMBA_SSM_DTYPE];
    if (a->given[F_KV_DTYPE])
        d->kv_dtype = a->t[F_KV_DTYPE];
}

static int flag_for_field(enum kv_field f)
{
    for (int i = 0; i < F__COUNT; i++)
        if ((enum kv_field)flags[i].field == f && f != KV_FIELD_NONE)
            return i;
    return -1;
}

/* "--tp 3" when the user typed it, "--kv-heads is 8 in the model" when a
 * preset or config gave it, "--sliding-window not given" when nothing did. */
static const char *describe(const struct cli_args *a, enum kv_field f, const struct kv_result *r,
                            char *buf, size_t cap)
{
    int id = flag_for_field(f);
    const struct kv_model *m = &r->model;
    const struct kv_deploy *d = &r->deploy;
    unsigned long long v = 0;

    if (id >= 0 && a->given[id]) {
        snprintf(buf, cap, "%s %s", flags[id].name, a->text[id]);
        return buf;
    }
    switch (f) {
    case KV_FIELD_LAYERS:
        v = m->layers;
        break;
    case KV_FIELD_HEADS:
        v = m->heads;
        break;
    case KV_FIELD_KV_HEADS:
        v = m->kv_heads;
        break;
    case KV_FIELD_HEAD_DIM:
        v = m->head_dim;
        break;
    case KV_FIELD_HIDDEN:
        v = m->hidden;
        break;
    case KV_FIELD_SLIDING_WINDOW:
        v = m->sliding_window;
        break;
    case KV_FIELD_SLIDING_LAYERS:
        v = m->sliding_layers;
        break;
    case KV_FIELD_MLA_RANK:
        v = m->mla_rank;
        break;
    case KV_FIELD_TP:
        v = d->tp;
        break;
    case KV_FIELD_PP:
        v = d->pp;
        break;
    case KV_FIELD_MAX_MODEL_LEN:
        v = d->max_model_len;
        break;
    default:
        snprintf(buf, cap, "%s", id >= 0 ? flags[id].name : kv_field_name(f));
        return buf;
    }
    if (v == 0)
        snprintf(buf, cap, "%s not given", id >= 0 ? flags[id].name : kv_field_name(f));
    else
        snprintf(buf, cap, "%s is %llu in the model", id >= 0 ? flags[id].name : kv_field_name(f),
                 v);
    return buf;
}

int cli_calc_error(const char *cmd, const struct cli_args *a, enum kvt_err e, enum kv_field bad,
                   enum kv_field other, const struct kv_model *m, const struct kv_deploy *d)
{
    struct kv_result r = {.model = *m, .deploy = *d};
    char b1[96], b2[96];
    int id = flag_for_field(bad);

    if (e == KVT_E_PP_PARTITION_COUNT || e == KVT_E_PP_PARTITION_SUM) {
        /* vLLM's own words for the two checks get_pp_indices makes */
        uint64_t sum = 0;
        for (uint32_t k = 0; k < d->pp_partition_n; k++)
            sum += d->pp_partition[k];
        if (e == KVT_E_PP_PARTITION_COUNT)
            return usage_error("--pp-partition %s: %u stages listed for --pp %u (vLLM: "
                               "len(partitions)=%u does not match pp_size=%u)",
                               a->text[F_PP_PARTITION], d->pp_partition_n, d->pp, d->pp_partition_n,
                               d->pp);
        return usage_error("--pp-partition %s: %llu layers listed, the model has %u (vLLM: "
                           "sum(partitions)=%llu does not match num_hidden_layers=%u)",
                           a->text[F_PP_PARTITION], (unsigned long long)sum, m->layers,
                           (unsigned long long)sum, m->layers);
    }
    if (e == KVT_E_CONFLICT && other == KV_FIELD_INDEX_HEAD_DIM)
        return usage_error(
            "--kv-dtype fp8_ds_mla: the layout of the sparse MLA kernels "
            "(DeepSeek-V3.2's indexer); this model is dense MLA, whose backends take "
            "auto, fp8 or fp8_e4m3 (FlashMLABackend.supported_kv_cache_dtypes)");
    if (e == KVT_E_CONFLICT && bad == KV_FIELD_PP_PARTITION)
        return usage_error("--pp-partition %s: a hand-written split is modelled only when every "
                           "layer holds the same kind of KV, and this model has %s, whose "
                           "stages kvtutor does not place",
                           a->text[F_PP_PARTITION],
                           other == KV_FIELD_STATE_LAYERS ? "Mamba or linear-attention layers"
                           : other == KV_FIELD_SLIDING_LAYERS
                               ? "sliding-window layers beside full-attention ones"
                               : "a speculative draft's layers");
    if (e == KVT_E_MAX_LEN)
        return usage_error("--max-model-len %llu: past the model's %llu positions "
                           "(max_position_embeddings); vLLM refuses it "
                           "(vllm/config/model.py, _get_and_verify_max_len) unless "
                           "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1: --allow-long-max-model-len",
                           (unsigned long long)d->max_model_len,
                           (unsigned long long)m->max_position);
    if (e == KVT_E_MISSING && bad == KV_FIELD_LAYERS)
        return usage_error("no model: give --model NAME, --config FILE, or --layers with "
                           "--kv-heads and --head-dim");
    if (e == KVT_E_MISSING && other == KV_FIELD_NONE)
        return usage_error("%s is needed to size the cache", id >= 0 ? flags[id].name : "?");
    if (other != KV_FIELD_NONE)
        return usage_error("%s: %s (%s)", describe(a, bad, &r, b1, sizeof b1), kvt_strerror(e),
                           describe(a, other, &r, b2, sizeof b2));
    return usage_error("%s: %s", describe(a, bad, &r, b1, sizeof b1), kvt_strerror(e));
}

const struct cli_flag *cli_calc_setup_flags(void)
{
    return flags;
}

_Static_assert(F_JSON == CLI_CALC_SETUP_FLAGS, "the setup flags come before calc's own");

int cli_calc_setup(const char *cmd, const struct cli_args *a, struct kv_model *m,
                   struct kv_deploy *d, struct calc_view *v)
{
    int rc;

    if ((rc = check_conflicts(cmd, a)) != 0)
        return rc;
    kv_deploy_defaults(d);
    if (a->given[F_VLLM] && !kv_vllm_parse(a->text[F_VLLM], &d->vllm))
        return usage_error("--vllm %s: not a vLLM version (X.Y or X.Y.Z, e.g. 0.26.0)",
                           a->text[F_VLLM]);
    if ((rc = parse_engine(cmd, a, d)) != 0)
        return rc;
    if (a->given[F_MODEL]) {
        v->preset = kv_model_preset_find(a->text[F_MODEL]);
        if (!v->preset)
            return unknown_preset(cmd, "--model", a->text[F_MODEL], false);
        *m = v->preset->model;
    } else if (a->given[F_CONFIG]) {
        v->config_path = a->text[F_CONFIG];
        if ((rc = load_config(cmd, v->config_path, m, v)) != 0)
            return rc;
    }
    if (a->given[F_GPU]) {
        v->gpu = kv_gpu_preset_find(a->text[F_GPU]);
        if (!v->gpu)
            return unknown_preset(cmd, "--gpu", a->text[F_GPU], true);
        kv_gpu_preset_apply(v->gpu, d);
        {
            /* "9.0" -> 90: which attention backend the release picks */
            unsigned maj = 0, min = 0;
            if (sscanf(v->gpu->compute_cap, "%u.%u", &maj, &min) == 2)
                d->gpu_sm = maj * 10 + min;
        }
    }
    apply_flags(a, m, d);
    v->overhead_given = a->given[F_OVERHEAD_GIB];
    return 0;
}

int cli_calc(int argc, char **argv)
{
    static const char cmd[] = "calc";
    struct cli_args a;
    struct kv_model m = {0};
    struct kv_deploy d;
    struct calc_view v = {0};
    enum kv_field bad, other;
    enum kvt_err e;
    int rc;

    if ((rc = cli_parse(&spec, argc, argv, &a)) != 0)
        return rc;
    if (a.help) {
        print_help(stdout);
        return 0;
    }
    if ((rc = cli_calc_setup(cmd, &a, &m, &d, &v)) != 0)
        return rc;

    e = kv_calc(&m, &d, &v.r, &bad, &other);
    if (e != KVT_E_OK)
        return cli_calc_error(cmd, &a, e, bad, other, &m, &d);
    {
        /* a config of an architecture newer than the release asked for */
        const char *arch = kv_arch_release_note(v.config.model_type, &v.r.rules.version);
        if (arch)
            kv_rules_note(&v.r.rules, KV_NOTE_ALWAYS, arch);
    }
    if (d.context > 0 && v.r.deploy.max_model_len > 0 && d.context > v.r.deploy.max_model_len)
        return usage_error("--context %s: longer than --max-model-len %llu", a.text[F_CONTEXT],
                           (unsigned long long)v.r.deploy.max_model_len);

    if (a.given[F_JSON])
        return calc_print_json(stdout, &v);
    cli_print_resolved(stdout, &spec, &a);
    calc_print_human(stdout, &v);
    return 0;
}
