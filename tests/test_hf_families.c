/* Model families whose config.json says its attention in its own keys: each
 * read as vLLM's model code reads it, or refused by name. One fixture a
 * family in fixtures/configs (shapes from the published configs, the other
 * keys left out); the bytes per token are worked by hand in each test. */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hf_config.h"
#include "kv_calc.h"

struct loaded {
    enum kvt_err err;
    struct kv_model m;
    struct hf_config_info info;
    struct hf_config_error e;
};

static struct loaded load(const char *name)
{
    char path[512];
    const char *dir = getenv("KVT_FIXTURES");
    struct loaded l;

    snprintf(path, sizeof path, "%s/configs/%s", dir ? dir : "fixtures", name);
    l.err = hf_config_load(path, &l.m, &l.info, &l.e);
    return l;
}

static struct loaded load_ok(const char *name)
{
    struct loaded l = load(name);
    if (l.err != KVT_E_OK)
        fail_msg("%s: %s (%s)", name, kvt_strerror(l.err), l.e.what);
    return l;
}

/* KV bytes a token, whole model, as the calculator sizes the model read */
static uint64_t bytes_per_token(const struct kv_model *m)
{
    struct kv_deploy d;
    struct kv_result r;
    kv_deploy_defaults(&d);
    assert_int_equal(kv_calc(m, &d, &r, NULL, NULL), KVT_E_OK);
    return r.kv_bytes_per_token;
}

static void refused(const char *name, const char *says)
{
    struct loaded l = load(name);
    if (l.err == KVT_E_OK || !strstr(l.e.what, says))
        fail_msg("%s: got %s \"%s\", wanted \"%s\"", name, kvt_errname(l.err), l.e.what, says);
}

static void test_falcon_40b_new_decoder(void **state)
{
    (void)state;
    /* new_decoder_architecture: num_kv_heads 8 (falcon.py, FalconAttention),
     * head 8,192 / 128 = 64: 2 x 60 layers x 8 x 64 x 2 B = 122,880 B a
     * token (read as 128 heads it was 1,966,080, 16 times too many) */
    struct loaded l = load_ok("falcon-40b.config.json");
    assert_int_equal(l.m.kv_heads, 8);
    assert_int_equal(l.m.head_dim, 64);
    assert_int_equal(bytes_per_token(&l.m), 122880);
}

static void test_falcon_7b_multi_query(void **state)
{
    (void)state;
    /* multi_query without the new architecture: one KV head, head 4,544 / 71
     * = 64: 2 x 32 x 1 x 64 x 2 B = 8,192 B (71 heads would be 581,632) */
    struct loaded l = load_ok("falcon-7b.config.json");
    assert_int_equal(l.m.kv_heads, 1);
    assert_int_equal(l.m.head_dim, 64);
    assert_int_equal(bytes_per_token(&l.m), 8192);

    /* multi_query false: a KV head a query head, 2 x 2 x 4 x 16 x 2 B = 512 */
    const char *mha = "{\"model_type\": \"falcon\", \"num_hidden_layers\": 2, "
                      "\"num_attention_heads\": 4, \"hidden_size\": 64, \"multi_query\": false}";
    struct kv_model m;
    struct hf_config_info info;
    struct hf_config_error e;
    assert_int_equal(hf_config_parse(mha, strlen(mha), &m, &info, &e), KVT_E_OK);
    assert_int_equal(m.kv_heads, 4);
    assert_int_equal(bytes_per_token(&m), 512);
}

static void test_gpt_bigcode_multi_query(void **state)
{
    (void)state;
    /* StarCoder spells n_layer, n_head, n_embd (GPTBigCodeConfig's
     * attribute_map); multi_query keeps one KV head (gpt_bigcode.py,
     * GPTBigCodeAttention), head 6,144 / 48 = 128, fp16:
     * 2 x 40 x 1 x 128 x 2 B = 20,480 B a token */
    struct loaded l = load_ok("starcoder.config.json");
    assert_int_equal(l.m.layers, 40);
    assert_int_equal(l.m.kv_heads, 1);
    assert_int_equal(l.m.head_dim, 128);
    assert_int_equal(l.m.max_position, 8192);
    assert_int_equal(bytes_per_token(&l.m), 20480);
}

static void test_chatglm_query_groups(void **state)
{
    (void)state;
    /* GLM-4-9B-Chat gives num_layers and num_hidden_layers both (40):
     * multi_query_group_num 2 KV heads (chatglm.py, GLMAttention), head
     * 4,096 / 32 = 128: 2 x 40 x 2 x 128 x 2 B = 40,960 B a token (32 heads
     * would be 655,360); seq_length is the longest context */
    struct loaded l = load_ok("glm-4-9b-chat.config.json");
    assert_int_equal(l.m.layers, 40);
    assert_int_equal(l.m.kv_heads, 2);
    assert_int_equal(l.m.head_dim, 128);
    assert_int_equal(l.m.max_position, 131072);
    assert_int_equal(bytes_per_token(&l.m), 40960);

    /* num_layers alone is the layer count; two that differ are refused */
    const char *only = "{\"model_type\": \"chatglm\", \"num_layers\": 2, \"hidden_size\": 64, "
                       "\"num_attention_heads\": 4}";
    const char *both = "{\"model_type\": \"chatglm\", \"num_layers\": 2, \"num_hidden_layers\": 3, "
                       "\"hidden_size\": 64, \"num_attention_heads\": 4}";
    struct kv_model m;
    struct hf_config_info info;
    struct hf_config_error e;
    assert_int_equal(hf_config_parse(only, strlen(only), &m, &info, &e), KVT_E_OK);
    assert_int_equal(m.layers, 2);
    assert_int_equal(m.kv_heads, 4); /* multi_query_attention absent: false */
    assert_int_equal(hf_config_parse(both, strlen(both), &m, &info, &e), KVT_E_PARSE);
    assert_non_null(strstr(e.what, "num_hidden_layers and num_layers disagree"));
}

static void test_llama4_chunked_note(void **state)
{
    (void)state;
    /* Llama-4-Scout: 48 layers of 8 KV heads of 128, every layer sized in
     * full as vLLM does with its hybrid manager off for chunked attention:
     * 2 x 48 x 8 x 128 x 2 B = 196,608 B a token, and a note naming the
     * chunk and the 36 RoPE layers (no_rope_layers 1, 1, 1, 0 repeated) */
    struct loaded l = load_ok("llama-4-scout.config.json");
    assert_int_equal(l.m.layers, 48);
    assert_int_equal(l.m.sliding_layers, 0);
    assert_int_equal(bytes_per_token(&l.m), 196608);
    assert_non_null(strstr(l.info.note, "attention_chunk_size 8192"));
    assert_non_null(strstr(l.info.note, "36 of the 48 layers"));
    assert_non_null(strstr(l.info.note, "full attention"));
}

static void test_mla_without_rope_refused(void **state)
{
    (void)state;
    /* kv_lora_rank without qk_rope_head_dim: refused, never a 0-wide RoPE part */
    refused("mla-no-rope.config.json", "qk_rope_head_dim is missing");
}

static void test_sliding_pattern_of_one(void **state)
{
    (void)state;
    /* sliding_window_pattern 1: (i + 1) % 1 is 0 for every layer, so all 34
     * are full attention: 2 x 34 x 4 x 256 x 2 B = 139,264 B a token, the
     * window unused and said so */
    struct loaded l = load_ok("gemma3-pattern-1.config.json");
    assert_int_equal(l.m.sliding_layers, 0);
    assert_int_equal(l.m.sliding_window, 0);
    assert_int_equal(bytes_per_token(&l.m), 139264);
    assert_non_null(strstr(l.info.note, "sliding_window_pattern is 1"));

    const char *zero = "{\"num_hidden_layers\": 2, \"num_attention_heads\": 2, \"head_dim\": 8, "
                       "\"sliding_window\": 16, \"sliding_window_pattern\": 0}";
    struct kv_model m;
    struct hf_config_info info;
    struct hf_config_error e;
    assert_int_equal(hf_config_parse(zero, strlen(zero), &m, &info, &e), KVT_E_PARSE);
    assert_non_null(strstr(e.what, "sliding_window_pattern is 0"));
}

static void test_unmodelled_families_refused(void **state)
{
    (void)state;
    refused("zamba2-2.7b.config.json", "Zamba2's shared attention blocks");
    refused("hunyuan-large.config.json", "use_cla: Hunyuan's cross-layer attention");
    refused("llama-3.2-11b-vision.config.json", "cross_attention_layers: Llama 3.2 Vision");

    /* Zamba2's layer list without its model_type still names it */
    const char *ids = "{\"num_hidden_layers\": 2, \"num_attention_heads\": 2, \"head_dim\": 8, "
                      "\"hybrid_layer_ids\": [1]}";
    struct kv_model m;
    struct hf_config_info info;
    struct hf_config_error e;
    assert_int_equal(hf_config_parse(ids, strlen(ids), &m, &info, &e), KVT_E_PARSE);
    assert_non_null(strstr(e.what, "Zamba2"));
    /* use_cla false is an ordinary model */
    const char *off = "{\"model_type\": \"hunyuan_v1_dense\", \"num_hidden_layers\": 2, "
                      "\"num_attention_heads\": 4, \"num_key_value_heads\": 2, \"head_dim\": 8, "
                      "\"use_cla\": false, \"cla_share_factor\": 2}";
    assert_int_equal(hf_config_parse(off, strlen(off), &m, &info, &e), KVT_E_OK);
    assert_int_equal(m.kv_heads, 2);
}

/* NVIDIA-Nemotron-3-Nano-30B-A3B (NemotronHForCausalLM) under vLLM 0.21.0,
 * as a public start-up log on a GB10 ran it (--mamba-cache-mode none,
 * max_model_len 262,144): "Available KV cache memory: 34.32 GiB", "GPU KV
 * cache size: 5,769,184 tokens", "Maximum concurrency for 262,144 tokens per
 * request: 22.01x", "Add 1 padding layers". vLLM's NemotronH hook takes the
 * config's mamba_ssm_cache_dtype (float32) for the SSM state; read as the
 * conv state's bf16 the block was 1,072 tokens and the log missed (22.47x).
 * By hand, one Mamba2 layer's state:
 *   conv 3 × (64 × 64 + 2 × 8 × 128) × 2 B = 36,864 B
 *   SSM  64 × 64 × 128 × 4 B             = 2,097,152 B   → 2,134,016 B
 * attention, one token one layer: 2 × 2 heads × 128 × 2 B = 1,024 B, so the
 * block grows to 16 × ceil(2,134,016 / 16,384) = 16 × 131 = 2,096 tokens;
 * 6 attention + 23 Mamba layers group 6 at a time: 1 + 4 groups, 1 padding
 * layer; a block id = 6 × 2,096 × 1,024 = 12,877,824 B;
 * floor(34.32 × 2^30 / 12,877,824) = floor(2,861.57) = 2,861 blocks;
 * a request: ceil(262,144 / 2,096) + 4 × 1 = 126 + 4 = 130 blocks;
 * int(2,861 / 130 × 262,144) = 5,769,184 tokens, 22.01x. */
static void test_nemotron_h_ssm_dtype_from_config(void **state)
{
    (void)state;
    struct loaded l = load_ok("nemotron-3-nano-30b-a3b.config.json");
    struct kv_deploy d;
    struct kv_result r;

    assert_true(l.m.nemotron_h);
    assert_int_equal(l.m.ssm_cache_dtype, KV_DTYPE_FP32);
    kv_deploy_defaults(&d);
    assert_true(kv_vllm_parse("0.21.0", &d.vllm));
    d.kv_budget_gib = 34.32;
    d.max_model_len = 262144;
    d.mamba_mode = KV_MAMBA_NONE;
    assert_int_equal(kv_calc(&l.m, &d, &r, NULL, NULL), KVT_E_OK);
    assert_int_equal(r.deploy.mamba_ssm_dtype, KV_DTYPE_FP32);
    assert_int_equal(r.state_layer_bytes, 2134016);
    assert_int_equal(r.attention_block_size, 2096);
    assert_int_equal(r.padding_layers, 1);
    assert_int_equal(r.block_set_bytes, 12877824);
    assert_int_equal(r.num_gpu_blocks, 2861);
    assert_int_equal(r.blocks_per_request, 130);
    assert_int_equal(r.kv_tokens, 5769184);
    assert_true(r.max_concurrency > 22.005 && r.max_concurrency < 22.015);
}

/* True when the result carries a note that contains `says`. */
static bool noted(const struct kv_result *r, const char *says)
{
    for (size_t i = 0; i < r->rules.n_notes; i++)
        if (strstr(r->rules.notes[i].text, says))
            return true;
    return false;
}

/* The same model with no mamba_ssm_cache_dtype in its config (the fixture
 * is Nemotron-3-Nano's with the key taken out): vLLM's hook falls back to
 * float16 (PR #29978), float32 from PR #39032 (applied from 0.20.0); before
 * the hook (applied from 0.13.0) the key is not read at all and the SSM
 * state takes the conv state's dtype. An explicit --mamba-ssm-cache-dtype
 * always wins. SSM bytes a layer: 64 × 64 × 128 = 524,288 values, × 2 B =
 * 1,048,576 (16-bit) or × 4 B = 2,097,152. Where the default decides, a
 * note says the boundary is unverified; where the config names the dtype,
 * no note. A config that says "auto" leaves the flag's auto as it is. */
static void test_nemotron_h_ssm_default_by_release(void **state)
{
    (void)state;
    struct loaded l = load_ok("nemotron-h-no-ssm-cache-dtype.config.json");
    struct loaded keyed = load_ok("nemotron-3-nano-30b-a3b.config.json");
    struct loaded automatic = load_ok("nemotron-h-ssm-cache-auto.config.json");
    const struct {
        const char *version;
        enum kv_dtype asked, want;
    } rows[] = {
        {"0.12.0", KV_DTYPE_AUTO, KV_DTYPE_BF16}, {"0.13.0", KV_DTYPE_AUTO, KV_DTYPE_FP16},
        {"0.19.0", KV_DTYPE_AUTO, KV_DTYPE_FP16}, {"0.20.0", KV_DTYPE_AUTO, KV_DTYPE_FP32},
        {"0.26.0", KV_DTYPE_AUTO, KV_DTYPE_FP32}, {"0.26.0", KV_DTYPE_BF16, KV_DTYPE_BF16},
    };

    assert_true(l.m.nemotron_h);
    assert_int_equal(l.m.ssm_cache_dtype, KV_DTYPE_AUTO);
    assert_false(automatic.m.nemotron_h);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        struct kv_deploy d;
        struct kv_result r;
        kv_deploy_defaults(&d);
        assert_true(kv_vllm_parse(rows[i].version, &d.vllm));
        d.kv_budget_gib = 34.32;
        d.mamba_ssm_dtype = rows[i].asked;
        assert_int_equal(kv_calc(&l.m, &d, &r, NULL, NULL), KVT_E_OK);
        if (r.deploy.mamba_ssm_dtype != rows[i].want)
            fail_msg("%s: SSM %s, wanted %s", rows[i].version,
                     kv_dtype_name(r.deploy.mamba_ssm_dtype), kv_dtype_name(rows[i].want));
        assert_int_equal(r.state_layer_bytes,
                         36864 + (rows[i].want == KV_DTYPE_FP32 ? 2097152 : 1048576));
        if (strcmp(rows[i].version, "0.19.0") == 0)
            assert_true(noted(&r, "when the config gives none"));
    }
    {
        struct kv_deploy d;
        struct kv_result r;
        kv_deploy_defaults(&d);
        assert_true(kv_vllm_parse("0.19.0", &d.vllm));
        d.kv_budget_gib = 34.32;
        assert_int_equal(kv_calc(&keyed.m, &d, &r, NULL, NULL), KVT_E_OK);
        assert_int_equal(r.deploy.mamba_ssm_dtype, KV_DTYPE_FP32);
        assert_false(noted(&r, "when the config gives none"));
        assert_int_equal(kv_calc(&automatic.m, &d, &r, NULL, NULL), KVT_E_OK);
        assert_int_equal(r.deploy.mamba_ssm_dtype, KV_DTYPE_BF16);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_falcon_40b_new_decoder),
        cmocka_unit_test(test_falcon_7b_multi_query),
        cmocka_unit_test(test_gpt_bigcode_multi_query),
        cmocka_unit_test(test_chatglm_query_groups),
        cmocka_unit_test(test_llama4_chunked_note),
        cmocka_unit_test(test_mla_without_rope_refused),
        cmocka_unit_test(test_sliding_pattern_of_one),
        cmocka_unit_test(test_unmodelled_families_refused),
        cmocka_unit_test(test_nemotron_h_ssm_dtype_from_config),
        cmocka_unit_test(test_nemotron_h_ssm_default_by_release),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
