/* The calculator core against hand arithmetic. Every expected figure is
 * worked out in the comment beside it, from the model's config and vLLM's
 * start-up rules, never copied from the calculator's own output. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "kv_calc.h"

#define GIB 1073741824ull

/* Qwen2.5-7B: 28 layers, 28 query heads, 4 KV heads, head_dim 128, bf16. */
static struct kv_model qwen7b(void)
{
    return (struct kv_model){.layers = 28,
                             .heads = 28,
                             .kv_heads = 4,
                             .head_dim = 128,
                             .hidden = 3584,
                             .params_b = 7.615616512,
                             .max_position = 131072,
                             .dtype = KV_DTYPE_BF16};
}

/* Llama-3.1-8B: 32 layers, 32 heads, 8 KV heads, head_dim 128, 8,030,261,248 params. */
static struct kv_model llama8b(void)
{
    return (struct kv_model){.layers = 32,
                             .heads = 32,
                             .kv_heads = 8,
                             .head_dim = 128,
                             .hidden = 4096,
                             .params_b = 8.030261248,
                             .max_position = 131072,
                             .dtype = KV_DTYPE_BF16};
}

/* Points a deployment at one vLLM release's rules. */
static void at(struct kv_deploy *d, const char *version)
{
    assert_true(kv_vllm_parse(version, &d->vllm));
}

static struct kv_result run(const struct kv_model *m, const struct kv_deploy *d)
{
    struct kv_result r;
    enum kv_field bad, other;
    enum kvt_err e = kv_calc(m, d, &r, &bad, &other);
    if (e != KVT_E_OK)
        fail_msg("kv_calc failed: %s (field %s, other %s)", kvt_strerror(e), kv_field_name(bad),
                 kv_field_name(other));
    return r;
}

static void test_seed_figures(void **state)
{
    (void)state;
    struct kv_model m = qwen7b();
    struct kv_deploy d;
    struct kv_result r;

    kv_deploy_defaults(&d);
    d.kv_budget_gib = 10;
    d.max_model_len = 8192;
    r = run(&m, &d);
    /* 2 x 28 layers x 4 heads x 128 dims x 2 B = 57,344 B = 56 KiB */
    assert_int_equal(r.kv_bytes_per_token, 57344);
    assert_int_equal(r.kv_bytes_per_token / 1024, 56);
    /* 57,344 B x 8,192 tokens = 469,762,048 B = 0.4375 GiB; x 32,768 = 1.75 GiB */
    assert_int_equal(r.kv_bytes_per_token * 8192, 469762048ull);
    assert_true(r.kv_bytes_per_token * 8192 * 16 == 7 * GIB); /* 0.4375 = 7/16 */
    assert_true(r.kv_bytes_per_token * 32768 * 4 == 7 * GIB); /* 1.75 = 7/4 */
    /* page = 16 tokens x 2 x 4 x 128 x 2 B = 32,768 B; a block id = 28 pages = 917,504 B */
    assert_int_equal(r.page_bytes, 32768);
    assert_int_equal(r.block_set_bytes, 917504);
    /* 10 GiB / 917,504 B = 11,702.86 -> 11,702 blocks; 8,192 / 16 = 512 per sequence */
    assert_int_equal(r.num_gpu_blocks, 11702);
    assert_int_equal(r.blocks_per_request, 512);
    assert_int_equal(r.kv_tokens, 11702 * 16);
    assert_int_equal(r.max_concurrent_seqs, 22);
    assert_true(r.max_concurrency > 22.85 && r.max_concurrency < 22.86);
    assert_int_equal(r.reason, KV_REASON_NONE);
}

static void test_seed_whole_gpu(void **state)
{
    (void)state;
    struct kv_model m = qwen7b();
    struct kv_deploy d;
    struct kv_result r;

    /* The seed's 24 GiB GPU, whole memory, no reserve: 24 GiB - 15,231,233,024 B
     * of weights (7,615,616,512 x 2) = 10,538,570,752 B -> /917,504 = 11,486 blocks
     * -> /512 = 22.4 -> 22 sequences. */
    kv_deploy_defaults(&d);
    d.gpu_mem_gib = 24;
    d.util = 1.0;
    d.max_model_len = 8192;
    r = run(&m, &d);
    assert_int_equal(r.weights_bytes, 15231233024ull);
    assert_int_equal(r.kv_budget_bytes, 24 * GIB - 15231233024ull);
    assert_int_equal(r.num_gpu_blocks, 11486);
    assert_int_equal(r.max_concurrent_seqs, 22);
}

static void test_util_and_overhead(void **state)
{
    (void)state;
    struct kv_model m = llama8b();
    struct kv_deploy d;
    struct kv_result r;

    /* vLLM 0.19 (util 0.9): 80 GiB x 0.9 = 77,309,411,328 B; less 16,060,522,496 B
     * of weights and a 4 GiB overhead (4,294,967,296 B) = 56,953,921,536 B */
    kv_deploy_defaults(&d);
    at(&d, "0.19.0");
    d.gpu_mem_gib = 80;
    d.overhead_gib = 4;
    r = run(&m, &d);
    assert_true(r.deploy.util == 0.9);
    assert_int_equal(r.usable_bytes, 77309411328ull);
    assert_int_equal(r.kv_budget_bytes, 77309411328ull - 16060522496ull - 4294967296ull);
    /* the default release (0.26, util 0.92): 85,899,345,920 x 0.92 = 79,027,398,246.4,
     * floored to 79,027,398,246 B */
    kv_deploy_defaults(&d);
    d.gpu_mem_gib = 80;
    r = run(&m, &d);
    assert_true(r.deploy.util == 0.92);
    assert_int_equal(r.usable_bytes, 79027398246ull);
    /* an explicit util is kept whatever the release */
    d.util = 0.5;
    r = run(&m, &d);
    assert_int_equal(r.usable_bytes, 40 * GIB);
}

static void test_tp_splits_then_replicates(void **state)
{
    (void)state;
    struct kv_model m = qwen7b();
    struct kv_deploy d;
    struct kv_result r;

    kv_deploy_defaults(&d);
    d.tp = 2; /* 4 KV heads / 2 = 2 per GPU: page = 16 x 2 x 2 x 128 x 2 = 16,384 B */
    r = run(&m, &d);
    assert_int_equal(r.kv_heads_per_gpu, 2);
    assert_false(r.replicated);
    assert_int_equal(r.page_bytes, 16384);
    /* the whole-model figure is not split */
    assert_int_equal(r.kv_bytes_per_token, 57344);

    /* Qwen3-235B-A22B: 64 query heads, 4 KV heads. TP 8 > 4 heads: one head per
     * GPU, never fewer: page = 16 x 2 x 1 x 128 x 2 = 8,192 B */
    m = (struct kv_model){.layers = 94, .heads = 64, .kv_heads = 4, .head_dim = 128};
    d.tp = 8;
    r = run(&m, &d);
    assert_int_equal(r.kv_heads_per_gpu, 1);
    assert_true(r.replicated);
    assert_int_equal(r.page_bytes, 8192);
}

static void test_tp_must_fit_heads(void **state)
{
    (void)state;
    /* Phi-4: 40 heads, 10 KV heads. TP 4 divides neither 10 nor is a multiple. */
    struct kv_model m = {.layers = 40, .heads = 40, .kv_heads = 10, .head_dim = 128};
    struct kv_deploy d;
    struct kv_result r;
    enum kv_field bad, other;

    kv_deploy_defaults(&d);
    d.tp = 4;
    assert_int_equal(kv_calc(&m, &d, &r, &bad, &other), KVT_E_TP_KV_HEADS);
    assert_int_equal(bad, KV_FIELD_TP);
    assert_int_equal(other, KV_FIELD_KV_HEADS);
    /* TP 30 replicates the 10 KV heads but does not divide the 40 query heads */
    d.tp = 30;
    assert_int_equal(kv_calc(&m, &d, &r, &bad, &other), KVT_E_TP_HEADS);
    assert_int_equal(other, KV_FIELD_HEADS);
}

static void test_mla_not_split(void **state)
{
    (void)state;
    /* DeepSeek-V3: 61 layers, latent 512 + rope 64 = 576 values, bf16:
     * 61 x 576 x 2 = 70,272 B per token; page 16 x 576 x 2 = 18,432 B on every rank. */
    struct kv_model m = {.layers = 61, .heads = 128, .mla_rank = 512, .mla_rope_dim = 64};
    struct kv_deploy d;
    struct kv_result r;

    kv_deploy_defaults(&d);
    r = run(&m, &d);
    assert_true(r.mla);
    assert_int_equal(r.kv_bytes_per_token, 70272);
    assert_int_equal(r.page_bytes, 18432);
    d.tp = 8;
    r = run(&m, &d);
    assert_int_equal(r.page_bytes, 18432);
    assert_int_equal(r.kv_heads_per_gpu, 1);
    /* fp8 halves it: 61 x 576 x 1 = 35,136 B */
    d.kv_dtype = KV_DTYPE_FP8;
    r = run(&m, &d);
    assert_int_equal(r.kv_bytes_per_token, 35136);
}

static void test_kv_dtype_auto_and_explicit(void **state)
{
    (void)state;
    struct kv_model m = llama8b();
    struct kv_deploy d;
    struct kv_result r;

    kv_deploy_defaults(&d);
    /* int4 weights do not change the KV: auto follows the model dtype (bf16) */
    m.weights_dtype = KV_DTYPE_INT4;
    r = run(&m, &d);
    assert_int_equal(r.kv_dtype, KV_DTYPE_BF16);
    assert_int_equal(r.kv_bytes_per_token, 131072); /* 2 x 32 x 8 x 128 x 2 */
    m.dtype = KV_DTYPE_FP32;
    m.weights_dtype = KV_DTYPE_AUTO;
    r = run(&m, &d);
    assert_int_equal(r.kv_bytes_per_token, 262144); /* x 4 B */
    d.kv_dtype = KV_DTYPE_FP8;
    r = run(&m, &d);
    assert_int_equal(r.kv_bytes_per_token, 65536); /* x 1 B */
}

static void test_hybrid_gemma3(void **state)
{
    (void)state;
    /* Gemma-3-27B: 62 layers, 52 sliding (window 1024) + 10 full, 16 KV heads x 128.
     * group_size = min(52, 10) = 10 (52 is not within 25% of 10); full: 1 group,
     * sliding: ceil(52 / 10) = 6 groups, 6 x 10 - 52 = 8 padding layers.
     * At L = 8192, bs 16: full needs 512 blocks; sliding ceil(min(1023 + 8192, 8192) / 16)
     * + 1 = 513 each: 512 + 6 x 513 = 3,590 per request. */
    struct kv_model m = {.layers = 62,
                         .heads = 32,
                         .kv_heads = 16,
                         .head_dim = 128,
                         .sliding_window = 1024,
                         .sliding_layers = 52};
    struct kv_deploy d;
    struct kv_result r;

    kv_deploy_defaults(&d);
    at(&d, "0.19.0");
    d.max_model_len = 8192;
    d.kv_budget_gib = 10;
    r = run(&m, &d);
    assert_true(r.hybrid);
    assert_int_equal(r.group_size, 10);
    assert_int_equal(r.full_groups, 1);
    assert_int_equal(r.sliding_groups, 6);
    assert_int_equal(r.padding_layers, 8);
    assert_int_equal(r.blocks_per_request, 3590);
    /* page = 16 x 2 x 16 x 128 x 2 = 131,072 B; a block id spans the 10 slots:
     * 10 GiB / 1,310,720 B = 8,192 blocks; kv_tokens = floor(8192 / 7) x 16 = 18,720 */
    assert_int_equal(r.page_bytes, 131072);
    assert_int_equal(r.num_gpu_blocks, 8192);
    assert_int_equal(r.kv_tokens, 1170 * 16);
    /* 0.26 prints int(concurrency x max_model_len): 8192 / 3590 x 8192 =
     * 67,108,864 / 3,590 = 18,693.3 -> 18,693. Its windows keep W - 1 + 2 x 8192
     * in-flight tokens, still capped at 8,192: the blocks do not move. */
    at(&d, "0.26.0");
    r = run(&m, &d);
    assert_int_equal(r.blocks_per_request, 3590);
    assert_int_equal(r.num_gpu_blocks, 8192);
    assert_int_equal(r.kv_tokens, 18693);
}

static void test_hybrid_near_equal_buckets(void **state)
{
    (void)state;
    /* 12 sliding + 13 full: 13 < 1.25 x 12, so vLLM groups 13 at a time:
     * one group each, 1 padding layer (not 12 + 24 with 11 padding). */
    struct kv_model m = {
        .layers = 25, .kv_heads = 8, .head_dim = 64, .sliding_window = 128, .sliding_layers = 12};
    struct kv_deploy d;
    struct kv_result r;

    kv_deploy_defaults(&d);
    at(&d, "0.19.0");
    r = run(&m, &d);
    assert_int_equal(r.group_size, 13);
    assert_int_equal(r.full_groups, 1);
    assert_int_equal(r.sliding_groups, 1);
    assert_int_equal(r.padding_layers, 1);
    /* 10 sliding + 20 full: 20 >= 12.5, the smaller bucket wins: 10 a group, 1 + 2 groups */
    m.layers = 30;
    m.sliding_layers = 10;
    r = run(&m, &d);
    assert_int_equal(r.group_size, 10);
    assert_int_equal(r.full_groups, 2);
    assert_int_equal(r.sliding_groups, 1);
}

static bool has_note(const struct kv_rules *r, const char *says)
{
    for (size_t i = 0; i < r->n_notes; i++)
        if (strstr(r->notes[i].text, says))
            return true;
    return false;
}

/* The scheduler's admission gate by release (docs/simulator.md): whole-
 * sequence admission from 0.24.0, the first release with evidence; 0.18 to
 * 0.23 carry a note that says the boundary is not dated, for kvtutor sim to
 * show (calc keeps it to itself: it schedules nothing). */
static void test_admission_by_release(void **state)
{
    (void)state;
    struct kv_vllm_version v;
    struct kv_rules r;

    assert_true(kv_vllm_parse("0.26.0", &v));
    kv_vllm_rules(&v, &r);
    assert_true(r.full_isl_admission);
    assert_false(has_note(&r, "scheduler_reserve_full_isl"));
    assert_true(kv_vllm_parse("0.24.0", &v));
    kv_vllm_rules(&v, &r);
    assert_true(r.full_isl_admission);
    assert_true(kv_vllm_parse("0.23.0", &v));
    kv_vllm_rules(&v, &r);
    assert_false(r.full_isl_admission);
    assert_true(has_note(&r, "scheduler_reserve_full_isl"));
    assert_true(kv_vllm_parse("0.17.1", &v));
    kv_vllm_rules(&v, &r);
    assert_false(r.full_isl_admission);
    assert_false(has_note(&r, "scheduler_reserve_full_isl"));
}

static void test_vllm_versions(void **state)
{
    (void)state;
    struct kv_vllm_version v;
    struct kv_rules r;
    char buf[32];

    /* every form the contract names, suffixes ignored */
    assert_true(kv_vllm_parse("0.26.0", &v));
    assert_string_equal(kv_vllm_format(&v, buf, sizeof buf), "0.26.0");
    assert_true(kv_vllm_parse("v0.20.1rc1", &v));
    assert_string_equal(kv_vllm_format(&v, buf, sizeof buf), "0.20.1");
    assert_true(kv_vllm_parse("0.19.0.dev705+g01220ce89", &v));
    assert_string_equal(kv_vllm_format(&v, buf, sizeof buf), "0.19.0");
    assert_true(kv_vllm_parse("0.11", &v));
    assert_string_equal(kv_vllm_format(&v, buf, sizeof buf), "0.11.0");
    assert_true(kv_vllm_parse("0.10.1.post1", &v));
    assert_string_equal(kv_vllm_format(&v, buf, sizeof buf), "0.10.1");
    assert_true(kv_vllm_parse("0.6.3.1", &v));
    assert_string_equal(kv_vllm_format(&v, buf, sizeof buf), "0.6.3.1");
    /* refused: one number, nothing, words, spaces, a part past 65535, 0.0 */
    assert_false(kv_vllm_parse("0", &v));
    assert_false(kv_vllm_parse("", &v));
    assert_false(kv_vllm_parse("latest", &v));
    assert_false(kv_vllm_parse("x.1", &v));
    assert_false(kv_vllm_parse("0.26 .0", &v));
    assert_false(kv_vllm_parse("0.70000", &v));
    assert_false(kv_vllm_parse("0.0", &v));
    assert_false(kv_vllm_parse("0.26.0\x1b[2J", &v));

    /* the rules by release: 0.19 the old token line and util 0.9; 0.20.1 the new
     * line; 0.25 util 0.92; 0.26 the in-flight window */
    kv_vllm_rules(NULL, &r);
    assert_string_equal(kv_vllm_format(&r.version, buf, sizeof buf), "0.26.0");
    assert_true(r.util_default == 0.92 && r.tokens_from_concurrency && r.sliding_in_flight);
    assert_int_equal(r.group_rule, KV_GROUP_MAX_150);
    assert_true(kv_vllm_parse("0.19.0", &v));
    kv_vllm_rules(&v, &r);
    assert_true(r.util_default == 0.9 && !r.tokens_from_concurrency && !r.mamba_align_default);
    assert_true(kv_vllm_parse("0.20.1", &v));
    kv_vllm_rules(&v, &r);
    assert_true(r.util_default == 0.9 && r.tokens_from_concurrency && r.mamba_align_default);
    assert_true(kv_vllm_parse("0.25.0", &v));
    kv_vllm_rules(&v, &r);
    assert_true(r.util_default == 0.92 && !r.sliding_in_flight);
    /* 0.20.0 sits between the evidence: the old rules, with notes saying so */
    assert_true(kv_vllm_parse("0.20.0", &v));
    kv_vllm_rules(&v, &r);
    assert_false(r.tokens_from_concurrency);
    assert_true(r.n_notes >= 2);
    /* past either end: the nearest set, with a note */
    assert_true(kv_vllm_parse("0.5.4", &v));
    kv_vllm_rules(&v, &r);
    assert_int_equal(r.group_rule, KV_GROUP_MIN);
    assert_int_equal(r.n_notes, 1);
    assert_true(kv_vllm_parse("1.2.0", &v));
    kv_vllm_rules(&v, &r);
    assert_true(r.sliding_in_flight);
    assert_true(r.n_notes >= 1);

    /* a development build names the rule set its numbers chose: 0.23.1 lies
     * in the row that runs from 0.20.1 to 0.23 (0.24 starts the admission
     * gate's row) */
    assert_true(kv_vllm_parse("0.23.1rc1.dev531", &v));
    assert_true(v.pre);
    assert_string_equal(kv_vllm_format(&v, buf, sizeof buf), "0.23.1");
    kv_vllm_rules(&v, &r);
    assert_true(has_note(&r, "development build") && has_note(&r, "0.20.1 to 0.23"));
    assert_false(has_note(&r, "change at this very release"));
    /* a release candidate of the very release a rule changed at says so too */
    assert_true(kv_vllm_parse("v0.20.1rc1", &v));
    kv_vllm_rules(&v, &r);
    assert_true(has_note(&r, "0.20.1 to 0.23") && has_note(&r, "change at this very release"));
    /* the release itself has neither */
    assert_true(kv_vllm_parse("0.20.1", &v));
    kv_vllm_rules(&v, &r);
    assert_false(has_note(&r, "development build"));
    /* releases, post-releases and local builds are not pre-releases */
    static const char *const plain[] = {"0.23.1", "0.10.1.post1", "0.19.0+cu126", "0.6.3.1"};
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++) {
        assert_true(kv_vllm_parse(plain[i], &v));
        if (v.pre)
            fail_msg("%s read as a pre-release", plain[i]);
    }
    assert_true(kv_vllm_parse("0.19.0.dev705+g01220ce89", &v));
    assert_true(v.pre);
}

/* Qwen3.6-35B-A3B (qwen3_5_moe): 40 layers, 10 full attention (2 KV heads x
 * 256) and 30 gated-delta-net layers (16 key heads x 128, 32 value heads x
 * 128, conv kernel 4, SSM state fp32). */
static struct kv_model qwen36(void)
{
    return (struct kv_model){.layers = 40,
                             .heads = 16,
                             .kv_heads = 2,
                             .head_dim = 256,
                             .dtype = KV_DTYPE_BF16,
                             .max_position = 262144,
                             .state_layers = 30,
                             .state_kind = KV_STATE_GDN,
                             .ssm_heads = 32,
                             .ssm_head_dim = 128,
                             .ssm_groups = 16,
                             .ssm_state_dim = 128,
                             .conv_kernel = 4,
                             .ssm_dtype = KV_DTYPE_FP32};
}

static void test_gdn_hybrid(void **state)
{
    (void)state;
    struct kv_model m = qwen36();
    struct kv_deploy d;
    struct kv_result r;

    /* vllm-logs-2x-public.md's worked example (row h01, vLLM 0.24, fp8 KV):
     * attention 2 x 2 x 256 x 1 B = 1,024 B a token a layer; a GDN layer's
     * state: conv (128 x 16 x 2 + 128 x 32 = 8,192 channels) x 3 taps x 2 B =
     * 49,152 B, SSM 32 x 128 x 128 x 4 B = 2,097,152 B: 2,146,304 B. The block
     * grows to 16 x ceil(2,146,304 / (16 x 1,024)) = 16 x 131 = 2,096 tokens,
     * a page of 2,146,304 B. 10 + 30 layers: 30 >= 1.5 x 10, groups of 10,
     * 1 + 3 groups. 5.98 GiB = 6,420,976,107 B / (2,146,304 x 10) = 299 blocks.
     * A request: ceil(131,072 / 2,096) = 63 + 3 x 2 (align) = 69;
     * int(299 / 69 x 131,072) = 567,978 tokens. The log's non-default args
     * hold enable_prefix_caching True: a hybrid's default is off. */
    kv_deploy_defaults(&d);
    at(&d, "0.24.0");
    d.enable_prefix_caching = true;
    d.kv_dtype = KV_DTYPE_FP8;
    d.kv_budget_gib = 5.98;
    d.max_model_len = 131072;
    r = run(&m, &d);
    assert_int_equal(r.kv_bytes_per_token, 10 * 1024);
    assert_int_equal(r.state_layer_bytes, 2146304);
    assert_int_equal(r.state_bytes_per_request, 30 * 2146304ull);
    assert_int_equal(r.attention_block_size, 2096);
    assert_int_equal(r.page_bytes, 2146304);
    assert_int_equal(r.group_size, 10);
    assert_int_equal(r.kv_cache_groups, 4);
    assert_int_equal(r.state_groups, 3);
    assert_int_equal(r.padding_layers, 0);
    assert_int_equal(r.num_gpu_blocks, 299);
    assert_int_equal(r.blocks_per_request, 69);
    assert_int_equal(r.kv_tokens, 567978);
    /* without the flag a hybrid's prefix caching is off (up to 0.27): mode
     * none, one state block a group: 63 + 3 x 1 = 66 blocks a request */
    d.enable_prefix_caching = false;
    r = run(&m, &d);
    assert_int_equal(r.mamba_mode, KV_MAMBA_NONE);
    assert_int_equal(r.blocks_per_request, 66);
    /* a model with no recurrent state keeps V1's default, on */
    assert_true(kv_prefix_caching_on(&(struct kv_model){.layers = 28}, &d));
    assert_false(kv_prefix_caching_on(&m, &d));
    d.enable_prefix_caching = true;

    /* 0.19: one block per Mamba group: 63 + 3 = 66, and the token line
     * floor(299 / 4 groups) x 2,096 = 74 x 2,096 = 155,104 */
    at(&d, "0.19.0");
    r = run(&m, &d);
    assert_int_equal(r.blocks_per_request, 66);
    assert_int_equal(r.kv_tokens, 155104);
    /* 0.24 without prefix caching: one running state, 66 again */
    at(&d, "0.24.0");
    d.no_prefix_caching = true;
    r = run(&m, &d);
    assert_int_equal(r.blocks_per_request, 66);
    d.no_prefix_caching = false;
    /* "all" keeps a state a block: 63 + 3 x 63 = 252 */
    d.mamba_mode = KV_MAMBA_ALL;
    r = run(&m, &d);
    assert_int_equal(r.blocks_per_request, 252);
    d.mamba_mode = KV_MAMBA_DEFAULT;

    /* MTP with k = 2: the conv state keeps 3 + 2 taps: 8,192 x 5 x 2 = 81,920 B,
     * + 2,097,152 = 2,179,072 B = 16 x 1,024 x 133: a block of 2,128 tokens.
     * One MTP layer joins the full-attention bucket (11 layers; 30 >= 16.5, so
     * still groups of 11: 1 + ceil(30 / 11) = 3 state groups, 3 x 11 + 11 - 41 =
     * 3 padding). A Mamba group holds 2 + 2 blocks in align mode. */
    m.mtp_layers = 1;
    d.spec_method = KV_SPEC_MTP;
    d.spec_tokens = 2;
    r = run(&m, &d);
    assert_int_equal(r.draft_layers, 1);
    assert_int_equal(r.kv_bytes_per_token, 11 * 1024);
    assert_int_equal(r.state_layer_bytes, 2179072);
    assert_int_equal(r.attention_block_size, 2128);
    assert_int_equal(r.group_size, 11);
    assert_int_equal(r.state_groups, 3);
    assert_int_equal(r.padding_layers, 3);
    assert_int_equal(r.blocks_state_per_group, 4);
    /* ceil(131,072 / 2,128) = 62 (61.6) + 3 x 4 = 74 */
    assert_int_equal(r.blocks_per_request, 62 + 12);

    /* TP 2 halves every part: conv 4,096 x 3 x 2 = 24,576 B, SSM 16 x 128 x
     * 128 x 4 = 1,048,576 B: 1,073,152 B; one KV head, 512 B a token:
     * 16 x ceil(1,073,152 / 8,192) = 16 x 131 = 2,096 tokens again */
    m = qwen36();
    d.spec_method = KV_SPEC_NONE;
    d.spec_tokens = 0;
    d.tp = 2;
    r = run(&m, &d);
    assert_int_equal(r.state_layer_bytes, 1073152);
    assert_int_equal(r.attention_block_size, 2096);
    assert_int_equal(r.page_bytes, 1073152);
    /* TP 3 divides neither the 32 value heads nor the 2 KV heads */
    d.tp = 3;
    {
        enum kv_field bad, other;
        assert_int_not_equal(kv_calc(&m, &d, &r, &bad, &other), KVT_E_OK);
    }
}

static void test_mamba2_state(void **state)
{
    (void)state;
    /* A Mamba2 hybrid: 8 heads x 64, 1 group, state 128, conv 4, bf16
     * throughout; 4 attention layers (8 KV heads x 128) + 12 Mamba2 layers.
     * TP 1: conv (8 x 64 + 2 x 1 x 128 = 768 channels) x 3 x 2 B = 4,608 B,
     * SSM 8 x 64 x 128 x 2 B = 131,072 B: 135,680 B. Attention 2 x 8 x 128 x
     * 2 = 4,096 B a token: 16 x ceil(135,680 / 65,536) = 48 tokens. */
    struct kv_model m = {.layers = 16,
                         .heads = 32,
                         .kv_heads = 8,
                         .head_dim = 128,
                         .dtype = KV_DTYPE_BF16,
                         .state_layers = 12,
                         .state_kind = KV_STATE_MAMBA2,
                         .ssm_heads = 8,
                         .ssm_head_dim = 64,
                         .ssm_groups = 1,
                         .ssm_state_dim = 128,
                         .conv_kernel = 4};
    struct kv_deploy d;
    struct kv_result r;

    kv_deploy_defaults(&d);
    d.max_model_len = 4096;
    r = run(&m, &d);
    assert_int_equal(r.state_layer_bytes, 135680);
    assert_int_equal(r.attention_block_size, 48);
    /* 4 attention + 12 Mamba: groups of 4, 1 + 3 groups */
    assert_int_equal(r.group_size, 4);
    assert_int_equal(r.kv_cache_groups, 4);
    /* TP 2: the single group is replicated to 2, channels 512 + 2 x 2 x 128 =
     * 1,024, 512 a GPU: conv 3 x 512 x 2 = 3,072 B; SSM 4 x 64 x 128 x 2 =
     * 65,536 B: 68,608 B */
    d.tp = 2;
    r = run(&m, &d);
    assert_int_equal(r.state_layer_bytes, 68608);
    /* an SSM state kept in fp32 doubles that part: 3,072 + 131,072 */
    d.mamba_ssm_dtype = KV_DTYPE_FP32;
    r = run(&m, &d);
    assert_int_equal(r.state_layer_bytes, 3072 + 131072);
    /* with prefix caching on the mode falls to align, which vLLM gives only
     * to a Mamba2 model without Mamba prefix caching: said, and not said
     * once the mode is given, nor with prefix caching off (mode none) */
    d.enable_prefix_caching = true;
    r = run(&m, &d);
    assert_int_equal(r.mamba_mode, KV_MAMBA_ALIGN);
    assert_true(has_note(&r.rules, "mamba_cache_mode align assumed"));
    d.mamba_mode = KV_MAMBA_ALIGN;
    r = run(&m, &d);
    assert_false(has_note(&r.rules, "mamba_cache_mode align assumed"));
    d.mamba_mode = KV_MAMBA_DEFAULT;
    d.enable_prefix_caching = false;
    r = run(&m, &d);
    assert_int_equal(r.mamba_mode, KV_MAMBA_NONE);
    assert_false(has_note(&r.rules, "mamba_cache_mode align assumed"));
}

static void test_spec_dcp_overrides(void **state)
{
    (void)state;
    struct kv_model m = llama8b();
    struct kv_deploy d;
    struct kv_result r;
    enum kv_field bad, other;

    /* row h07 (vLLM 0.9.1): Llama-3.1-8B + a one-layer EAGLE draft: 33 layers
     * of 2 x 8 x 128 x 2 = 4,096 B a token; a block id 16 x 4,096 x 33 =
     * 2,162,688 B. 51.63 GiB = 55,437,290,373 B: 25,633 blocks; tokens
     * 25,633 x 16 = 410,128 (logged); 25,633 / 8,192 = 3.13x (logged). */
    kv_deploy_defaults(&d);
    at(&d, "0.9.1");
    d.spec_method = KV_SPEC_EAGLE;
    d.spec_tokens = 3;
    d.kv_budget_gib = 51.63;
    d.max_model_len = 131072;
    r = run(&m, &d);
    assert_int_equal(r.draft_layers, 1);
    assert_int_equal(r.block_set_bytes, 2162688);
    assert_int_equal(r.num_gpu_blocks, 25633);
    assert_int_equal(r.kv_tokens, 410128);
    /* ngram drafts hold no KV; spec tokens without a method are refused */
    d.spec_method = KV_SPEC_NGRAM;
    r = run(&m, &d);
    assert_int_equal(r.draft_layers, 0);
    d.spec_method = KV_SPEC_NONE;
    assert_int_equal(kv_calc(&m, &d, &r, &bad, &other), KVT_E_MISSING);
    assert_int_equal(bad, KV_FIELD_SPEC_METHOD);
    /* MTP on a model without MTP layers: the count is missing */
    d.spec_method = KV_SPEC_MTP;
    assert_int_equal(kv_calc(&m, &d, &r, &bad, &other), KVT_E_MISSING);
    assert_int_equal(bad, KV_FIELD_SPEC_LAYERS);

    /* DCP 2 at TP 2 (0.19 token line): a request of 8,192 tokens spreads over
     * 2 ranks: ceil(8,192 / (16 x 2)) = 256 blocks; tokens floor(blocks) x 16 x 2 */
    kv_deploy_defaults(&d);
    at(&d, "0.19.0");
    d.tp = 2;
    d.dcp = 2;
    d.max_model_len = 8192;
    d.num_gpu_blocks_override = 1000;
    r = run(&m, &d);
    assert_true(r.blocks_overridden);
    assert_int_equal(r.num_gpu_blocks, 1000);
    assert_int_equal(r.blocks_per_request, 256);
    assert_int_equal(r.kv_tokens, 1000 * 16 * 2);
    /* DCP must divide TP */
    d.dcp = 4;
    d.tp = 2;
    assert_int_equal(kv_calc(&m, &d, &r, &bad, &other), KVT_E_CONFLICT);
    assert_int_equal(bad, KV_FIELD_DCP);

    /* --kv-cache-memory-bytes 8G = 8,589,934,592 B, exact: Qwen2.5-7B's block
     * id is 16 x 2,048 x 28 = 917,504 B: 9,362 blocks */
    m = qwen7b();
    kv_deploy_defaults(&d);
    d.kv_cache_memory_bytes = 8589934592ull;
    d.max_model_len = 8192;
    r = run(&m, &d);
    assert_true(r.budget_given);
    assert_int_equal(r.kv_budget_bytes, 8589934592ull);
    assert_int_equal(r.num_gpu_blocks, 9362);
}

static void test_mla_dtypes_and_backends(void **state)
{
    (void)state;
    /* DeepSeek-V3.2: 61 layers, rank 512 + rope 64, an indexer of 128. */
    struct kv_model m = {.layers = 61,
                         .heads = 128,
                         .mla_rank = 512,
                         .mla_rope_dim = 64,
                         .index_head_dim = 128,
                         .dtype = KV_DTYPE_BF16};
    struct kv_deploy d;
    struct kv_result r;
    enum kv_field bad, other;

    /* auto = fp8_ds_mla: 512 fp8 + 4 x 4 B scales + 64 x 2 B rope = 656 B, and
     * the indexer's 128 fp8 keys + 128 / 128 x 4 B scale = 132 B: 788 B a token
     * a layer, 61 x 788 = 48,068 B; FlashMLA-sparse forces 64-token blocks:
     * a page of 64 x 788 = 50,432 B. Row h09: TP 8 PP 4, 18,976 blocks:
     * 18,976 x 64 = 1,214,464 tokens; 18,976 / ceil(163,840 / 64) = 7.41x */
    kv_deploy_defaults(&d);
    at(&d, "0.13.0");
    d.tp = 8;
    d.pp = 4;
    d.num_gpu_blocks_override = 18976;
    d.max_model_len = 163840;
    r = run(&m, &d);
    assert_int_equal(r.kv_dtype, KV_DTYPE_FP8_DS_MLA);
    assert_int_equal(r.layer_token_bytes, 788);
    assert_int_equal(r.kv_bytes_per_token, 48068);
    assert_int_equal(r.deploy.block_size, 64);
    assert_int_equal(r.page_bytes, 50432);
    assert_int_equal(r.kv_tokens, 1214464);
    assert_int_equal(r.blocks_per_request, 2560);
    /* fp8_ds_mla only fits a 512 + 64 latent */
    m.mla_rank = 256;
    assert_int_equal(kv_calc(&m, &d, &r, &bad, &other), KVT_E_CONFLICT);
    assert_int_equal(bad, KV_FIELD_KV_DTYPE);
    /* and only a sparse MLA model: dense MLA's backends (FlashMLABackend) take
     * auto, fp8 and fp8_e4m3, so no backend reads fp8_ds_mla for DeepSeek-V3 */
    m.mla_rank = 512;
    m.index_head_dim = 0;
    d.kv_dtype = KV_DTYPE_FP8_DS_MLA;
    assert_int_equal(kv_calc(&m, &d, &r, &bad, &other), KVT_E_CONFLICT);
    assert_int_equal(bad, KV_FIELD_KV_DTYPE);
    assert_int_equal(other, KV_FIELD_INDEX_HEAD_DIM);

    /* dense MLA (DeepSeek-V3): CUTLASS MLA's 128 on SM100, 16 kept on Hopper
     * (row r022, vLLM 0.19 on H100), FlashMLA's 64 when named */
    m.mla_rank = 512;
    m.index_head_dim = 0;
    kv_deploy_defaults(&d);
    d.gpu_sm = 100;
    r = run(&m, &d);
    assert_int_equal(r.deploy.block_size, 128);
    d.gpu_sm = 90;
    r = run(&m, &d);
    assert_int_equal(r.deploy.block_size, 16);
    d.backend = KV_BACKEND_FLASHMLA;
    r = run(&m, &d);
    assert_int_equal(r.deploy.block_size, 64);
    /* a size given is kept when FlashMLA's 64 divides it, refused otherwise
     * (AttentionBackend.supports_block_size) */
    d.block_size = 128;
    assert_int_equal(run(&m, &d).deploy.block_size, 128);
    d.block_size = 32;
    assert_int_equal(kv_calc(&m, &d, &r, &bad, &other), KVT_E_BLOCK_BACKEND);
    d.block_size = 16;
    /* the default dense-MLA block on Hopper is an assumption, and says so */
    d.backend = KV_BACKEND_DEFAULT;
    r = run(&m, &d);
    assert_int_equal(r.rules.n_notes, 1);
    assert_non_null(strstr(r.rules.notes[0].text, "FLASHMLA"));

    /* FlashInfer-MLA: its kernels take 32 and 64
     * (FlashInferMLABackend.get_supported_kernel_block_sizes); the default
     * 16 becomes the preferred size, the smallest of them
     * (AttentionBackend.get_preferred_block_size): 32, a page of
     * 32 x (512 + 64) x 2 B = 36,864 B, with a note that older sources made
     * it 64. A size given is kept when a multiple of 32 or 64 (32, 96, 128)
     * and refused otherwise (48: vLLM's supports_block_size rejects it) */
    d.gpu_sm = 100;
    d.backend = KV_BACKEND_FLASHINFER_MLA;
    r = run(&m, &d);
    assert_int_equal(r.deploy.block_size, 32);
    assert_int_equal(r.page_bytes, 36864);
    assert_int_equal(r.rules.n_notes, 1);
    assert_non_null(strstr(r.rules.notes[0].text, "preferred 32"));
    d.block_size = 32;
    r = run(&m, &d);
    assert_int_equal(r.deploy.block_size, 32);
    assert_int_equal(r.rules.n_notes, 0);
    d.block_size = 96;
    assert_int_equal(run(&m, &d).deploy.block_size, 96);
    d.block_size = 128;
    assert_int_equal(run(&m, &d).deploy.block_size, 128);
    d.block_size = 48;
    assert_int_equal(kv_calc(&m, &d, &r, &bad, &other), KVT_E_BLOCK_BACKEND);
    assert_int_equal(bad, KV_FIELD_BLOCK_SIZE);
    assert_int_equal(other, KV_FIELD_ATTENTION_BACKEND);
    d.block_size = 32;
    /* on Hopper vLLM refuses the backend: the result says so */
    d.gpu_sm = 90;
    r = run(&m, &d);
    assert_int_equal(r.rules.n_notes, 1);
    assert_non_null(strstr(r.rules.notes[0].text, "FlashInfer-MLA"));
    /* sparse MLA keeps 64-token blocks whichever backend is named */
    m.index_head_dim = 128;
    d.backend = KV_BACKEND_CUTLASS_MLA;
    d.block_size = 16;
    assert_int_equal(run(&m, &d).deploy.block_size, 64);
    m.index_head_dim = 0;
    d.block_size = 16;
    d.gpu_sm = 0;

    d.backend = KV_BACKEND_FLASHMLA;
    /* an MLA backend for a model without MLA is a contradiction */
    m = qwen7b();
    assert_int_equal(kv_calc(&m, &d, &r, &bad, &other), KVT_E_CONFLICT);
    assert_int_equal(bad, KV_FIELD_ATTENTION_BACKEND);

    /* nvfp4: each head's 128 values as 64 B of packed 4-bit values + 128 / 16 =
     * 8 B of fp8 scales = 72 B; K and V of 4 heads: 576 B a layer, x 28 =
     * 16,128 B a token */
    kv_deploy_defaults(&d);
    d.kv_dtype = KV_DTYPE_NVFP4;
    r = run(&m, &d);
    assert_int_equal(r.kv_bytes_per_token, 16128);
    /* a head of 72 values does not split into blocks of 16 */
    m.head_dim = 72;
    assert_int_equal(kv_calc(&m, &d, &r, &bad, &other), KVT_E_CONFLICT);
}

static void test_per_token_head_dtypes(void **state)
{
    (void)state;
    struct kv_model m = llama8b();
    struct kv_deploy d;
    struct kv_result r;
    enum kv_field bad, other;
    static const enum kv_dtype forms[] = {KV_DTYPE_INT8_PTH, KV_DTYPE_FP8_PTH};

    /* vllm/v1/kv_cache_interface.py at 001cabc, AttentionSpec.page_size_bytes:
     * the real page plus 2 x block x KV heads x 4 B of fp32 scales. Llama-3.1-8B,
     * block 16: 16 x 8 heads x (128 + 128) x 1 B = 32,768 B, + 2 x 16 x 8 x 4 B
     * = 1,024 B: 33,792 B. A token a layer: 2 x 8 x (128 + 4) = 2,112 B, x 32
     * layers = 67,584 B. 10 GiB = 10,737,418,240 B / (33,792 x 32 = 1,081,344 B)
     * = 9,929 blocks. */
    for (size_t i = 0; i < 2; i++) {
        kv_deploy_defaults(&d);
        d.kv_dtype = forms[i];
        d.kv_budget_gib = 10;
        r = run(&m, &d);
        assert_int_equal(r.page_bytes, 33792);
        assert_int_equal(r.kv_bytes_per_token, 67584);
        assert_int_equal(r.num_gpu_blocks, 9929);
        assert_int_equal(r.rules.n_notes, 1);
        assert_non_null(strstr(r.rules.notes[0].text, "per-token-head"));
    }
    /* vLLM's spellings */
    {
        enum kv_dtype t;
        assert_true(kv_dtype_parse("int8_per_token_head", &t));
        assert_int_equal(t, KV_DTYPE_INT8_PTH);
        assert_true(kv_dtype_parse("fp8_per_token_head", &t));
        assert_int_equal(t, KV_DTYPE_FP8_PTH);
        /* int4_per_token_head's page was not read in vLLM's own source */
        assert_false(kv_dtype_parse("int4_per_token_head", &t));
    }
    /* an MLA latent has no KV heads to scale */
    m = (struct kv_model){.layers = 61, .heads = 128, .mla_rank = 512, .mla_rope_dim = 64};
    d.kv_dtype = KV_DTYPE_FP8_PTH;
    assert_int_equal(kv_calc(&m, &d, &r, &bad, &other), KVT_E_CONFLICT);
    assert_int_equal(bad, KV_FIELD_KV_DTYPE);
    assert_int_equal(other, KV_FIELD_MLA_RANK);
}

static void test_group_rule_by_release(void **state)
{
    (void)state;
    /* 10 sliding + 14 full layers. 1.5 rule: 14 < 15, one group of 14 each,
     * 4 padding layers. 1.25 rule: 14 >= 12.5, groups of 10: 2 full + 1
     * sliding, 2 x 10 - 14 = 6 padding. The first V1 rule always takes the
     * smaller bucket, so 12 + 13 groups 12 at a time: 2 full + 1 sliding. */
    struct kv_model m = {
        .layers = 24, .kv_heads = 8, .head_dim = 64, .sliding_window = 128, .sliding_layers = 10};
    struct kv_deploy d;
    struct kv_result r;

    kv_deploy_defaults(&d);
    at(&d, "0.26.0");
    r = run(&m, &d);
    assert_int_equal(r.group_size, 14);
    assert_int_equal(r.padding_layers, 4);
    at(&d, "0.13.0");
    r = run(&m, &d);
    assert_int_equal(r.group_size, 10);
    assert_int_equal(r.full_groups, 2);
    assert_int_equal(r.padding_layers, 6);
    at(&d, "0.10.1");
    m.layers = 25;
    m.sliding_layers = 12;
    r = run(&m, &d);
    assert_int_equal(r.group_size, 12);
    assert_int_equal(r.full_groups, 2);
    assert_int_equal(r.sliding_groups, 1);
    assert_int_equal(r.padding_layers, 11);
}

static void test_sliding_window_rule(void **state)
{
    (void)state;
    /* gpt-oss-20b: 24 layers, 12 sliding with window 128, 8 KV heads x 64. */
    struct kv_model m = {.layers = 24,
                         .heads = 64,
                         .kv_heads = 8,
                         .head_dim = 64,
                         .sliding_window = 128,
                         .sliding_layers = 12};
    struct kv_deploy d;
    struct kv_result r;

    kv_deploy_defaults(&d);
    at(&d, "0.19.0");
    d.max_model_len = 8192;
    /* sliding: ceil(min(127 + 8192, 8192) / 16) + 1 = 513; full 512 */
    r = run(&m, &d);
    assert_int_equal(r.blocks_per_request, 512 + 513);
    /* a 2,048-token chunk: ceil(min(127 + 2048, 8192) / 16) + 1 = ceil(2175 / 16) + 1 = 137 */
    d.max_num_batched_tokens = 2048;
    r = run(&m, &d);
    assert_int_equal(r.blocks_per_request, 512 + 137);
    /* a request shorter than the window: ceil(100 / 16) = 7, sliding 7 + 1 = 8 */
    assert_int_equal(kv_calc_blocks_per_request(&r, 100), 7 + 8);
    /* 0.26 (PR #47728): W - 1 + max_in_flight_tokens, two batches under async
     * scheduling: ceil(min(127 + 2 x 2048, 8192) / 16) + 1 = ceil(4223 / 16) + 1 = 265 */
    at(&d, "0.26.0");
    r = run(&m, &d);
    assert_int_equal(r.blocks_per_request, 512 + 265);
    /* without async scheduling and one PP stage, one batch: 137 again */
    d.sync_scheduling = true;
    r = run(&m, &d);
    assert_int_equal(r.blocks_per_request, 512 + 137);
    /* PP 2 keeps two batches in flight either way: 265 */
    d.pp = 2;
    r = run(&m, &d);
    assert_int_equal(r.blocks_per_request, 512 + 265);
}

static void test_all_layers_slide(void **state)
{
    (void)state;
    /* Phi-3-mini-4k: every layer slides over 2,047 tokens; one sliding group.
     * At L = 4096: ceil(min(2046 + 8192, 4096) / 16) + 1 = 256 + 1 = 257 */
    struct kv_model m = {
        .layers = 32, .heads = 32, .kv_heads = 32, .head_dim = 96, .sliding_window = 2047};
    struct kv_deploy d;
    struct kv_result r;

    kv_deploy_defaults(&d);
    d.max_model_len = 4096;
    r = run(&m, &d);
    assert_false(r.hybrid);
    assert_int_equal(r.sliding_layers, 32);
    assert_int_equal(r.sliding_groups, 1);
    assert_int_equal(r.full_groups, 0);
    assert_int_equal(r.blocks_per_request, 257);
}

static void test_pipeline_stages(void **state)
{
    (void)state;
    struct kv_model m = llama8b();
    struct kv_deploy d;
    struct kv_result r;

    kv_deploy_defaults(&d);
    d.kv_budget_gib = 8;
    /* one GPU holds 32 layers: block id = 32 x 64 KiB = 2 MiB; 8 GiB -> 4,096 blocks */
    r = run(&m, &d);
    assert_int_equal(r.num_gpu_blocks, 4096);
    /* PP 2: 16 layers a stage: 1 MiB a block id -> 8,192 blocks */
    d.pp = 2;
    r = run(&m, &d);
    assert_int_equal(r.tensors_per_gpu, 16);
    assert_int_equal(r.num_gpu_blocks, 8192);
    /* PP 3: stages of 11, 11, 10 layers; the fullest decides: 8 GiB / (11 x 64 KiB) = 11,915 */
    d.pp = 3;
    r = run(&m, &d);
    assert_int_equal(r.tensors_per_gpu, 11);
    assert_int_equal(r.num_gpu_blocks, 8ull * GIB / (11 * 65536));
}

static void test_weights_estimates(void **state)
{
    (void)state;
    struct kv_model m = llama8b();
    struct kv_deploy d;
    struct kv_result r;

    kv_deploy_defaults(&d);
    r = run(&m, &d);
    assert_int_equal(r.weights_bytes, 16060522496ull); /* 8,030,261,248 x 2 */
    /* int4 with an fp16 scale per 128 weights: 4.125 bits = 0.515625 B a weight:
     * 8,030,261,248 x 0.515625 = 4,140,603,456 */
    m.weights_dtype = KV_DTYPE_INT4;
    r = run(&m, &d);
    assert_int_equal(r.weights_bytes, 4140603456ull);
    /* TP 2 halves the per-GPU share */
    d.tp = 2;
    r = run(&m, &d);
    assert_int_equal(r.weights_bytes, 4140603456ull / 2);
    assert_int_equal(r.weights_bytes_total, 4140603456ull);
}

static void test_moe_active_weights(void **state)
{
    (void)state;
    /* Mixtral-8x7B: 46,702,792,704 stored, 12,879,925,248 read per token */
    struct kv_model m = {.layers = 32,
                         .heads = 32,
                         .kv_heads = 8,
                         .head_dim = 128,
                         .params_b = 46.702792704,
                         .active_params_b = 12.879925248};
    struct kv_deploy d;
    struct kv_result r;

    kv_deploy_defaults(&d);
    d.bandwidth_gbps = 2000;
    r = run(&m, &d);
    assert_int_equal(r.weights_bytes, 93405585408ull);
    assert_int_equal(r.active_weight_bytes, 25759850496ull);
    /* 2,000 GB/s / 25.759850496 GB = 77.64 tok/s */
    assert_true(r.decode_tokens_per_s > 77.63 && r.decode_tokens_per_s < 77.65);
}

static void test_weights_do_not_fit(void **state)
{
    (void)state;
    /* Llama-3.1-70B in bf16 is 141 GB: it cannot sit on a 24 GiB GPU. A result, not an error. */
    struct kv_model m = {.layers = 80,
                         .heads = 64,
                         .kv_heads = 8,
                         .head_dim = 128,
                         .params_b = 70.553706496,
                         .max_position = 131072};
    struct kv_deploy d;
    struct kv_result r;

    kv_deploy_defaults(&d);
    d.gpu_mem_gib = 24;
    r = run(&m, &d);
    assert_true(r.has_blocks);
    assert_int_equal(r.num_gpu_blocks, 0);
    assert_int_equal(r.kv_budget_bytes, 0);
    assert_int_equal(r.max_concurrent_seqs, 0);
    assert_int_equal(r.reason, KV_REASON_WEIGHTS_DONT_FIT);
}

static void test_sequence_does_not_fit(void **state)
{
    (void)state;
    /* Llama-3.1-8B at its full 131,072 tokens on a 24 GiB GPU at util 0.9:
     * floor(24 GiB x 0.9) = 23,192,823,398 B; less 16,060,522,496 B of weights
     * = 7,132,300,902 B; / 2 MiB a block id = 3,400 blocks < 8,192 needed.
     * The longest request that fits: 3,400 x 16 = 54,400 tokens. */
    struct kv_model m = llama8b();
    struct kv_deploy d;
    struct kv_result r;

    kv_deploy_defaults(&d);
    at(&d, "0.19.0");
    d.gpu_mem_gib = 24;
    r = run(&m, &d);
    assert_int_equal(r.max_model_len, 131072);
    assert_int_equal(r.kv_budget_bytes, 7132300902ull);
    assert_int_equal(r.num_gpu_blocks, 3400);
    assert_int_equal(r.max_concurrent_seqs, 0);
    assert_int_equal(r.reason, KV_REASON_SEQ_DOESNT_FIT);
    assert_int_equal(r.max_model_len_fits, 54400);
}

static void test_decode_ceiling(void **state)
{
    (void)state;
    struct kv_model m = llama8b();
    struct kv_deploy d;
    struct kv_result r;
    double tps;

    /* 16.06 GB of weights on a 4.8 TB/s GPU, batch 1, empty context:
     * 4.8e12 / 16,060,522,496 = 298.87 tok/s */
    kv_deploy_defaults(&d);
    d.bandwidth_gbps = 4800;
    r = run(&m, &d);
    assert_true(r.has_decode);
    assert_true(r.decode_tokens_per_s > 298.8 && r.decode_tokens_per_s < 298.9);
    /* batch 8 at 8,192 tokens: 16,060,522,496 + 8 x 8,192 x 131,072 = 24,650,457,088 B
     * per step; 8 x 4.8e12 / 24,650,457,088 = 1,557.78 tok/s */
    assert_true(kv_calc_decode_at(&r, 8, 8192, &tps));
    assert_true(tps > 1557.7 && tps < 1557.9);
    /* no bandwidth: no ceiling, not a guess */
    d.bandwidth_gbps = 0;
    r = run(&m, &d);
    assert_false(r.has_decode);
}

static void test_compute_bound_batch(void **state)
{
    (void)state;
    struct kv_model m = llama8b();
    struct kv_deploy d;
    struct kv_result r;

    /* Empty context, bf16: memory time 2P/bw, compute 2PB/F, so B* = F / bw:
     * 989e12 / 3,352e9 = 295.05 -> from batch 296 on. */
    kv_deploy_defaults(&d);
    d.bandwidth_gbps = 3352;
    d.tflops = 989;
    r = run(&m, &d);
    assert_true(r.has_bound);
    assert_false(r.compute_bound);
    assert_true(r.compute_bound_ever);
    assert_int_equal(r.compute_bound_batch, 296);
    d.batch = 296;
    r = run(&m, &d);
    assert_true(r.compute_bound);
    /* At 32k tokens each sequence reads 32,768 x 131,072 B = 4.29 GB of KV per step,
     * more than the 16.06 GFLOP its FLOPs take at this ratio: never compute-bound. */
    d.batch = 1;
    d.context = 32768;
    r = run(&m, &d);
    assert_false(r.compute_bound_ever);
}

static void test_decode_lower_ceiling_and_fit(void **state)
{
    (void)state;
    /* Qwen2.5-7B (7,615,616,512 parameters, BF16) on an H100 SXM
     * (tests/fixtures/gpus.tsv: 80 GB, 3,352 GB/s, 989 dense BF16 TFLOP/s). */
    struct kv_model m = {.layers = 28,
                         .heads = 28,
                         .kv_heads = 4,
                         .head_dim = 128,
                         .hidden = 3584,
                         .params_b = 7.615616512,
                         .max_position = 32768,
                         .dtype = KV_DTYPE_BF16};
    struct kv_deploy d;
    struct kv_result r;

    kv_deploy_defaults(&d);
    d.gpu_mem_gib = 80;
    d.bandwidth_gbps = 3352;
    d.tflops = 989;
    d.batch = 1000;
    r = run(&m, &d);
    assert_int_equal(r.active_weight_bytes, 15231233024ull);
    /* compute: 989e12 / (2 x 7,615,616,512) = 64,932.37 tok/s
     * memory, context 0: 1,000 x 3,352e9 / 15,231,233,024 = 220,074.1 tok/s
     * -> the lower one, compute-bound */
    assert_true(r.has_compute && r.has_decode && r.has_ceiling);
    assert_true(r.decode_tokens_per_s_compute > 64932.3 && r.decode_tokens_per_s_compute < 64932.4);
    assert_true(r.decode_tokens_per_s_memory > 220074.0 && r.decode_tokens_per_s_memory < 220074.2);
    assert_true(r.decode_tokens_per_s == r.decode_tokens_per_s_compute);
    assert_true(r.compute_bound);
    assert_int_equal(r.decode_reason, KV_DECODE_FITS);
    /* context 32,768: 1,000 x 32,769 tokens x 57,344 B (2 x 28 x 4 x 128 x 2) = 1.88 TB of
     * KV, far beyond 80 GiB: no ceiling, and the reason says so */
    d.context = 32768;
    r = run(&m, &d);
    assert_true(r.has_decode);
    assert_false(r.has_ceiling);
    assert_int_equal(r.decode_reason, KV_DECODE_KV_DOESNT_FIT);
    /* no FLOP/s: the memory ceiling alone, bound unknown */
    d.context = 0;
    d.tflops = 0;
    r = run(&m, &d);
    assert_false(r.has_compute);
    assert_false(r.has_bound);
    assert_true(r.has_ceiling);
    assert_true(r.decode_tokens_per_s == r.decode_tokens_per_s_memory);
    /* the weights do not fit a 12 GiB GPU (15.23 GB > 12 x 1.0737 GB x 0.9) */
    d.gpu_mem_gib = 12;
    r = run(&m, &d);
    assert_false(r.has_ceiling);
    assert_int_equal(r.decode_reason, KV_DECODE_WEIGHTS_DONT_FIT);
}

static void test_hybrid_reads_window_only(void **state)
{
    (void)state;
    /* Gemma-3 at 8,192 tokens: 10 full layers read 8,192 tokens, 52 sliding ones
     * 1,024: (10 x 8,192 + 52 x 1,024) x 8,192 B per layer-token = 1,107,296,256 B */
    struct kv_model m = {.layers = 62,
                         .heads = 32,
                         .kv_heads = 16,
                         .head_dim = 128,
                         .sliding_window = 1024,
                         .sliding_layers = 52};
    struct kv_deploy d;
    struct kv_result r;

    kv_deploy_defaults(&d);
    r = run(&m, &d);
    assert_int_equal(kv_calc_kv_read_bytes(&r, 8192), 1107296256ull);
    /* under the window every layer reads the whole context: 62 x 500 x 8,192 */
    assert_int_equal(kv_calc_kv_read_bytes(&r, 500), 62ull * 500 * 8192);
}

static void test_bad_inputs(void **state)
{
    (void)state;
    static const struct {
        struct kv_model m;
        int tp;
        enum kvt_err err;
        enum kv_field bad;
    } rows[] = {
        {{.kv_heads = 8, .head_dim = 128}, 1, KVT_E_MISSING, KV_FIELD_LAYERS},
        {{.layers = 32, .head_dim = 128}, 1, KVT_E_MISSING, KV_FIELD_KV_HEADS},
        {{.layers = 32, .kv_heads = 8}, 1, KVT_E_MISSING, KV_FIELD_HEAD_DIM},
        {{.layers = 32, .heads = 12, .kv_heads = 8, .head_dim = 64},
         1,
         KVT_E_GQA_RATIO,
         KV_FIELD_HEADS},
        {{.layers = 32, .heads = 7, .hidden = 100}, 1, KVT_E_HEAD_DIM, KV_FIELD_HIDDEN},
        {{.layers = 32, .kv_heads = 8, .head_dim = 64, .sliding_layers = 40, .sliding_window = 10},
         1,
         KVT_E_SLIDING,
         KV_FIELD_SLIDING_LAYERS},
        {{.layers = 32, .kv_heads = 8, .head_dim = 64, .sliding_layers = 4},
         1,
         KVT_E_SLIDING,
         KV_FIELD_SLIDING_LAYERS},
        {{.layers = 32, .kv_heads = 8, .mla_rank = 512}, 1, KVT_E_CONFLICT, KV_FIELD_MLA_RANK},
        {{.layers = 32, .kv_heads = 8, .head_dim = 64, .params_b = 1, .active_params_b = 2},
         1,
         KVT_E_CONFLICT,
         KV_FIELD_ACTIVE_PARAMS},
        {{.layers = 2, .kv_heads = 8, .head_dim = 64}, 3, KVT_E_TP_KV_HEADS, KV_FIELD_TP},
        /* 2 x 2^20 heads x 2^20 dims x 4 B x 2^20 layers = 2^63: past 64 bits */
        {{.layers = KV_MAX_DIM,
          .kv_heads = KV_MAX_DIM,
          .head_dim = KV_MAX_DIM,
          .dtype = KV_DTYPE_FP32},
         1,
         KVT_E_OVERFLOW,
         KV_FIELD_HEAD_DIM},
        {{.layers = KV_MAX_DIM + 1, .kv_heads = 1, .head_dim = 1}, 1, KVT_E_RANGE, KV_FIELD_LAYERS},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        struct kv_deploy d;
        struct kv_result r;
        enum kv_field bad = KV_FIELD_NONE;
        enum kvt_err e;
        kv_deploy_defaults(&d);
        d.tp = (uint32_t)rows[i].tp;
        e = kv_calc(&rows[i].m, &d, &r, &bad, NULL);
        if (e != rows[i].err || bad != rows[i].bad)
            fail_msg("row %zu: got %s/%s, want %s/%s", i, kvt_errname(e), kv_field_name(bad),
                     kvt_errname(rows[i].err), kv_field_name(rows[i].bad));
    }
}

/* vllm/distributed/utils.py, get_pp_indices (without VLLM_PP_LAYER_PARTITION):
 * n // pp layers each, then partitions[-i] += 1 for i in 2 .. n % pp + 1.
 *   28 layers, PP 3: 28 // 3 = 9, remainder 1 -> partitions[-2] += 1: [9, 10, 9]
 *   61 layers, PP 4: 61 // 4 = 15, remainder 1 -> partitions[-2]: [15, 15, 16, 15]
 *   10 layers, PP 4: 10 // 4 = 2, remainder 2 -> partitions[-2], [-3]: [2, 3, 3, 2]
 *   32 layers, PP 3: 32 // 3 = 10, remainder 2 -> [11, 11, 10]
 * The last stage never takes a remainder layer. */
static void test_pp_stages_as_vllm_deals_them(void **state)
{
    static const uint32_t p28[] = {9, 10, 9}, p61[] = {15, 15, 16, 15}, p10[] = {2, 3, 3, 2};
    struct kv_model m = llama8b();
    struct kv_deploy d;
    struct kv_result r;
    enum kv_field bad, other;
    (void)state;

    for (uint32_t k = 0; k < 3; k++)
        assert_int_equal(kv_calc_pp_stage_layers(28, 3, k), p28[k]);
    for (uint32_t k = 0; k < 4; k++)
        assert_int_equal(kv_calc_pp_stage_layers(61, 4, k), p61[k]);
    for (uint32_t k = 0; k < 4; k++)
        assert_int_equal(kv_calc_pp_stage_layers(10, 4, k), p10[k]);
    assert_int_equal(kv_calc_pp_stage_layers(32, 4, 3), 8);
    assert_int_equal(kv_calc_pp_stage_layers(32, 3, 3), 0); /* no such stage */

    /* Llama-3.1-8B's 32 layers over PP 3: the fullest stages hold 11, so a
     * block set is 11 layers x 16 tokens x 2 x 8 heads x 128 x 2 B = 720,896 B */
    kv_deploy_defaults(&d);
    d.pp = 3;
    assert_int_equal(kv_calc(&m, &d, &r, NULL, NULL), KVT_E_OK);
    assert_int_equal(r.tensors_per_gpu, 11);
    assert_int_equal(r.block_set_bytes, 720896);

    /* VLLM_PP_LAYER_PARTITION=8,8,16 (get_pp_indices takes the list as given):
     * the last stage holds 16 layers, a block set of 16 x 65,536 B = 1,048,576 B;
     * a 10 GiB budget = 10,737,418,240 B holds 10,240 blocks (11 layers: 14,894) */
    d.pp_partition[0] = 8, d.pp_partition[1] = 8, d.pp_partition[2] = 16;
    d.pp_partition_n = 3;
    d.kv_budget_gib = 10;
    assert_int_equal(kv_calc(&m, &d, &r, NULL, NULL), KVT_E_OK);
    assert_int_equal(r.tensors_per_gpu, 16);
    assert_int_equal(r.block_set_bytes, 1048576);
    assert_int_equal(r.num_gpu_blocks, 10240);
    /* vLLM's two checks: len(partitions) == pp_size, sum == num_hidden_layers */
    d.pp_partition_n = 2;
    assert_int_equal(kv_calc(&m, &d, &r, &bad, &other), KVT_E_PP_PARTITION_COUNT);
    assert_int_equal(bad, KV_FIELD_PP_PARTITION);
    assert_int_equal(other, KV_FIELD_PP);
    d.pp_partition_n = 3;
    d.pp_partition[2] = 15;
    assert_int_equal(kv_calc(&m, &d, &r, &bad, &other), KVT_E_PP_PARTITION_SUM);
    assert_int_equal(other, KV_FIELD_LAYERS);
    /* an EAGLE draft's layers have no place in a hand-written split */
    d.pp_partition[2] = 16;
    d.spec_method = KV_SPEC_EAGLE;
    d.spec_tokens = 3;
    assert_int_equal(kv_calc(&m, &d, &r, &bad, &other), KVT_E_CONFLICT);
    assert_int_equal(other, KV_FIELD_SPEC_METHOD);
}

static void test_bad_deployments(void **state)
{
    (void)state;
    struct kv_model m = llama8b();
    struct kv_deploy d;
    struct kv_result r;
    enum kv_field bad;

    kv_deploy_defaults(&d);
    d.util = 1.5;
    assert_int_equal(kv_calc(&m, &d, &r, &bad, NULL), KVT_E_RANGE);
    assert_int_equal(bad, KV_FIELD_UTIL);
    kv_deploy_defaults(&d);
    d.block_size = 0;
    assert_int_equal(kv_calc(&m, &d, &r, &bad, NULL), KVT_E_RANGE);
    assert_int_equal(bad, KV_FIELD_BLOCK_SIZE);
    kv_deploy_defaults(&d);
    d.pp = 33;
    assert_int_equal(kv_calc(&m, &d, &r, &bad, NULL), KVT_E_PP_LAYERS);
    kv_deploy_defaults(&d);
    d.kv_dtype = KV_DTYPE_INT4; /* not a KV cache type */
    assert_int_equal(kv_calc(&m, &d, &r, &bad, NULL), KVT_E_RANGE);
    assert_int_equal(bad, KV_FIELD_KV_DTYPE);
    kv_deploy_defaults(&d);
    d.gpu_mem_gib = -1;
    assert_int_equal(kv_calc(&m, &d, &r, &bad, NULL), KVT_E_RANGE);
    assert_int_equal(bad, KV_FIELD_GPU_MEM_GIB);
}

static void test_unknown_inputs_stay_unknown(void **state)
{
    (void)state;
    /* shapes only: the per-token figure, nothing that needs a GPU or params */
    struct kv_model m = {.layers = 32, .kv_heads = 8, .head_dim = 128};
    struct kv_deploy d;
    struct kv_result r;

    kv_deploy_defaults(&d);
    r = run(&m, &d);
    assert_int_equal(r.kv_bytes_per_token, 131072);
    assert_false(r.has_weights);
    assert_false(r.has_budget);
    assert_false(r.has_blocks);
    assert_false(r.has_request);
    assert_false(r.has_concurrency);
    assert_false(r.has_decode);
    assert_false(r.has_bound);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_figures),
        cmocka_unit_test(test_seed_whole_gpu),
        cmocka_unit_test(test_util_and_overhead),
        cmocka_unit_test(test_tp_splits_then_replicates),
        cmocka_unit_test(test_tp_must_fit_heads),
        cmocka_unit_test(test_mla_not_split),
        cmocka_unit_test(test_kv_dtype_auto_and_explicit),
        cmocka_unit_test(test_hybrid_gemma3),
        cmocka_unit_test(test_hybrid_near_equal_buckets),
        cmocka_unit_test(test_group_rule_by_release),
        cmocka_unit_test(test_vllm_versions),
        cmocka_unit_test(test_admission_by_release),
        cmocka_unit_test(test_gdn_hybrid),
        cmocka_unit_test(test_mamba2_state),
        cmocka_unit_test(test_spec_dcp_overrides),
        cmocka_unit_test(test_mla_dtypes_and_backends),
        cmocka_unit_test(test_per_token_head_dtypes),
        cmocka_unit_test(test_sliding_window_rule),
        cmocka_unit_test(test_all_layers_slide),
        cmocka_unit_test(test_pipeline_stages),
        cmocka_unit_test(test_weights_estimates),
        cmocka_unit_test(test_moe_active_weights),
        cmocka_unit_test(test_weights_do_not_fit),
        cmocka_unit_test(test_sequence_does_not_fit),
        cmocka_unit_test(test_decode_ceiling),
        cmocka_unit_test(test_compute_bound_batch),
        cmocka_unit_test(test_decode_lower_ceiling_and_fit),
        cmocka_unit_test(test_hybrid_reads_window_only),
        cmocka_unit_test(test_bad_inputs),
        cmocka_unit_test(test_bad_deployments),
        cmocka_unit_test(test_pp_stages_as_vllm_deals_them),
        cmocka_unit_test(test_unknown_inputs_stay_unknown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
