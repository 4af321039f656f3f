/* The config.json reader, one small config per feature. Shapes come from the
 * models' published configs; parameter counts from tests/fixtures/
 * model-presets.tsv (computed_total_params, computed_active_params). */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "hf_config.h"

struct parsed {
    enum kvt_err err;
    struct kv_model m;
    struct hf_config_info info;
    struct hf_config_error e;
};

static struct parsed parse(const char *json)
{
    struct parsed p;
    p.err = hf_config_parse(json, strlen(json), &p.m, &p.info, &p.e);
    return p;
}

static struct parsed parse_ok(const char *json)
{
    struct parsed p = parse(json);
    if (p.err != KVT_E_OK)
        fail_msg("parse failed: %s (%s)", kvt_strerror(p.err), p.e.what);
    return p;
}

/* Qwen2.5-7B-Instruct's config: no head_dim, an inert sliding window. */
static const char qwen25_7b[] =
    "{\"architectures\": [\"Qwen2ForCausalLM\"], \"model_type\": \"qwen2\",\n"
    " \"hidden_size\": 3584, \"intermediate_size\": 18944, \"num_attention_heads\": 28,\n"
    " \"num_hidden_layers\": 28, \"num_key_value_heads\": 4, \"vocab_size\": 152064,\n"
    " \"max_position_embeddings\": 32768, \"max_window_layers\": 28,\n"
    " \"sliding_window\": 131072, \"use_sliding_window\": false,\n"
    " \"tie_word_embeddings\": false, \"torch_dtype\": \"bfloat16\", \"rms_norm_eps\": 1e-06}";

static void test_qwen25_head_dim_and_inert_window(void **state)
{
    (void)state;
    struct parsed p = parse_ok(qwen25_7b);

    assert_int_equal(p.m.layers, 28);
    assert_int_equal(p.m.kv_heads, 4);
    assert_int_equal(p.m.head_dim, 128); /* 3584 / 28 */
    assert_int_equal(p.m.sliding_window, 0);
    assert_int_equal(p.m.sliding_layers, 0);
    assert_true(p.info.inert_window);
    assert_int_equal(p.m.dtype, KV_DTYPE_BF16);
    assert_int_equal(p.m.max_position, 32768);
    assert_string_equal(p.info.model_type, "qwen2");
    /* the fixture's count for these shapes: 7,615,616,512 */
    assert_true(p.info.params_counted);
    assert_int_equal(llround(p.m.params_b * 1e9), 7615616512ll);
}

static void test_llama_params(void **state)
{
    (void)state;
    struct parsed p = parse_ok(
        "{\"model_type\": \"llama\", \"hidden_size\": 4096, \"intermediate_size\": 14336,"
        " \"num_attention_heads\": 32, \"num_hidden_layers\": 32, \"num_key_value_heads\": 8,"
        " \"vocab_size\": 128256, \"tie_word_embeddings\": false, \"attention_bias\": false,"
        " \"max_position_embeddings\": 131072, \"torch_dtype\": \"bfloat16\"}");

    assert_int_equal(llround(p.m.params_b * 1e9), 8030261248ll);
    assert_true(p.m.active_params_b == 0); /* dense: active = total */
}

static void test_moe_params(void **state)
{
    (void)state;
    /* Mixtral-8x7B: experts are the intermediate_size, 8 of them, top 2 */
    struct parsed p = parse_ok(
        "{\"model_type\": \"mixtral\", \"hidden_size\": 4096, \"intermediate_size\": 14336,"
        " \"num_attention_heads\": 32, \"num_hidden_layers\": 32, \"num_key_value_heads\": 8,"
        " \"num_local_experts\": 8, \"num_experts_per_tok\": 2, \"vocab_size\": 32000,"
        " \"tie_word_embeddings\": false, \"max_position_embeddings\": 32768}");

    assert_int_equal(llround(p.m.params_b * 1e9), 46702792704ll);
    assert_int_equal(llround(p.m.active_params_b * 1e9), 12879925248ll);
    /* the expert rule needs the counts the config gives (kv_moe.h) */
    assert_int_equal(p.m.experts, 8);
    assert_int_equal(p.m.experts_per_token, 2);

    /* Qwen3-30B-A3B: moe_intermediate_size 768, 128 experts, top 8, explicit head_dim */
    p = parse_ok(
        "{\"model_type\": \"qwen3_moe\", \"hidden_size\": 2048, \"intermediate_size\": 6144,"
        " \"moe_intermediate_size\": 768, \"num_experts\": 128, \"num_experts_per_tok\": 8,"
        " \"num_attention_heads\": 32, \"num_hidden_layers\": 48, \"num_key_value_heads\": 4,"
        " \"head_dim\": 128, \"vocab_size\": 151936, \"tie_word_embeddings\": false}");
    assert_int_equal(p.m.head_dim, 128); /* not 2048 / 32 = 64 */
    assert_int_equal(llround(p.m.params_b * 1e9), 30532122624ll);
    assert_int_equal(llround(p.m.active_params_b * 1e9), 3353032704ll);
}

static void test_mha_when_kv_heads_absent(void **state)
{
    (void)state;
    /* phi-2 style: no num_key_value_heads means every query head has its own K/V */
    struct parsed p = parse_ok("{\"num_hidden_layers\": 32, \"num_attention_heads\": 32,"
                               " \"hidden_size\": 2560, \"torch_dtype\": \"float16\"}");
    assert_int_equal(p.m.kv_heads, 32);
    assert_int_equal(p.m.head_dim, 80);
    assert_int_equal(p.m.dtype, KV_DTYPE_FP16);
    /* null counts as absent too */
    p = parse_ok("{\"num_hidden_layers\": 2, \"num_attention_heads\": 4,"
                 " \"num_key_value_heads\": null, \"head_dim\": null, \"hidden_size\": 256}");
    assert_int_equal(p.m.kv_heads, 4);
    assert_int_equal(p.m.head_dim, 64);
}

static void test_gemma3_text_config(void **state)
{
    (void)state;
    /* Gemma 3 nests the language model; dtype sits at the top level */
    struct parsed p = parse_ok(
        "{\"model_type\": \"gemma3\", \"torch_dtype\": \"bfloat16\",\n"
        " \"text_config\": {\"model_type\": \"gemma3_text\", \"hidden_size\": 5376,\n"
        "   \"num_attention_heads\": 32, \"num_hidden_layers\": 62, \"num_key_value_heads\": 16,\n"
        "   \"head_dim\": 128, \"sliding_window\": 1024, \"sliding_window_pattern\": 6,\n"
        "   \"max_position_embeddings\": 131072},\n"
        " \"vision_config\": {\"hidden_size\": 1152, \"num_hidden_layers\": 27}}");

    assert_int_equal(p.m.layers, 62);
    assert_int_equal(p.m.head_dim, 128);
    assert_int_equal(p.m.sliding_window, 1024);
    /* every 6th layer global: 62 / 6 = 10 global, 52 sliding */
    assert_int_equal(p.m.sliding_layers, 52);
    assert_int_equal(p.m.sliding_period, 6);
    assert_string_equal(p.info.model_type, "gemma3_text");
}

static void test_layer_types_list(void **state)
{
    (void)state;
    /* gpt-oss lists its layers; 8 here for brevity: sliding, full, sliding, full... */
    struct parsed p = parse_ok(
        "{\"model_type\": \"gpt_oss\", \"num_hidden_layers\": 8, \"num_attention_heads\": 64,"
        " \"num_key_value_heads\": 8, \"head_dim\": 64, \"hidden_size\": 2880,"
        " \"sliding_window\": 128, \"layer_types\": [\"sliding_attention\", \"full_attention\","
        " \"sliding_attention\", \"full_attention\", \"sliding_attention\", \"full_attention\","
        " \"sliding_attention\", \"full_attention\"],"
        " \"quantization_config\": {\"quant_method\": \"mxfp4\"}}");

    assert_int_equal(p.m.sliding_layers, 4);
    assert_int_equal(p.m.sliding_period, 2);
    assert_int_equal(p.m.sliding_window, 128);
    assert_int_equal(p.m.weights_dtype, KV_DTYPE_MXFP4);

    /* a list that does not match the layer count is an error, not a guess */
    p = parse("{\"num_hidden_layers\": 3, \"num_attention_heads\": 2, \"head_dim\": 8,"
              " \"sliding_window\": 16, \"layer_types\": [\"full_attention\"]}");
    assert_int_equal(p.err, KVT_E_PARSE);
    assert_non_null(strstr(p.e.what, "layer_types"));
    p = parse("{\"num_hidden_layers\": 1, \"num_attention_heads\": 2, \"head_dim\": 8,"
              " \"sliding_window\": 16, \"layer_types\": [\"chunky\"]}");
    assert_int_equal(p.err, KVT_E_PARSE);
    assert_non_null(strstr(p.e.what, "layer_types[0]"));
}

static void test_gemma2_and_uniform_windows(void **state)
{
    (void)state;
    /* Gemma 2 has no pattern field: local and global alternate */
    struct parsed p = parse_ok(
        "{\"model_type\": \"gemma2\", \"num_hidden_layers\": 42, \"num_attention_heads\": 16,"
        " \"num_key_value_heads\": 8, \"head_dim\": 256, \"hidden_size\": 3584,"
        " \"sliding_window\": 4096}");
    assert_int_equal(p.m.sliding_layers, 21);
    assert_int_equal(p.m.sliding_period, 2);
    /* Mistral v0.1 / Phi-3: one window for every layer */
    p = parse_ok("{\"model_type\": \"mistral\", \"num_hidden_layers\": 32,"
                 " \"num_attention_heads\": 32, \"num_key_value_heads\": 8,"
                 " \"hidden_size\": 4096, \"sliding_window\": 4096}");
    assert_int_equal(p.m.sliding_layers, 32);
    /* Qwen2 with the window switched on: layers from max_window_layers slide */
    p = parse_ok("{\"model_type\": \"qwen2\", \"num_hidden_layers\": 28,"
                 " \"num_attention_heads\": 28, \"num_key_value_heads\": 4,"
                 " \"hidden_size\": 3584, \"sliding_window\": 4096,"
                 " \"use_sliding_window\": true, \"max_window_layers\": 21}");
    assert_int_equal(p.m.sliding_layers, 7);
    assert_int_equal(p.m.sliding_window, 4096);
}

static void test_mla_fields(void **state)
{
    (void)state;
    /* DeepSeek-V3: num_key_value_heads 128 is in the config but the cache is the latent */
    struct parsed p = parse_ok(
        "{\"model_type\": \"deepseek_v3\", \"num_hidden_layers\": 61, \"hidden_size\": 7168,"
        " \"num_attention_heads\": 128, \"num_key_value_heads\": 128, \"kv_lora_rank\": 512,"
        " \"qk_rope_head_dim\": 64, \"qk_nope_head_dim\": 128, \"v_head_dim\": 128,"
        " \"max_position_embeddings\": 163840, \"torch_dtype\": \"bfloat16\","
        " \"quantization_config\": {\"quant_method\": \"fp8\", \"fmt\": \"e4m3\"}}");
    assert_int_equal(p.m.mla_rank, 512);
    assert_int_equal(p.m.mla_rope_dim, 64);
    assert_int_equal(p.m.kv_heads, 0);
    assert_int_equal(p.m.weights_dtype, KV_DTYPE_FP8);
    assert_false(p.info.params_counted); /* no vocab_size or MLP sizes: nothing to count */
}

static void test_dtype_and_quantization(void **state)
{
    (void)state;
    /* newer configs say "dtype" */
    struct parsed p = parse_ok("{\"num_hidden_layers\": 2, \"num_attention_heads\": 2,"
                               " \"head_dim\": 8, \"dtype\": \"float32\"}");
    assert_int_equal(p.m.dtype, KV_DTYPE_FP32);
    p = parse_ok("{\"num_hidden_layers\": 2, \"num_attention_heads\": 2, \"head_dim\": 8,"
                 " \"quantization_config\": {\"quant_method\": \"awq\", \"bits\": 4,"
                 " \"group_size\": 128}}");
    assert_int_equal(p.m.weights_dtype, KV_DTYPE_INT4);
    assert_string_equal(p.info.quant_method, "awq");
    p = parse_ok("{\"num_hidden_layers\": 2, \"num_attention_heads\": 2, \"head_dim\": 8,"
                 " \"quantization_config\": {\"quant_method\": \"bitsandbytes\","
                 " \"load_in_8bit\": true}}");
    assert_int_equal(p.m.weights_dtype, KV_DTYPE_INT8);
    /* a method kvtutor does not model is said, not guessed */
    p = parse_ok("{\"num_hidden_layers\": 2, \"num_attention_heads\": 2, \"head_dim\": 8,"
                 " \"quantization_config\": {\"quant_method\": \"hqq\"}}");
    assert_true(p.info.quant_unknown);
    assert_int_equal(p.m.weights_dtype, KV_DTYPE_AUTO);
    p = parse("{\"num_hidden_layers\": 2, \"num_attention_heads\": 2, \"head_dim\": 8,"
              " \"torch_dtype\": \"int8\"}");
    assert_int_equal(p.err, KVT_E_PARSE);
    assert_non_null(strstr(p.e.what, "torch_dtype"));
}

static void test_malformed_and_incomplete(void **state)
{
    (void)state;
    static const struct {
        const char *json;
        enum kvt_err err;
        const char *says;
    } rows[] = {
        {"{\"num_hidden_layers\": 28,\n \"num_attention_heads\": 28\n \"x\": 1}", KVT_E_PARSE, ""},
        {"", KVT_E_PARSE, ""},
        {"[1, 2]", KVT_E_PARSE, "not a JSON object"},
        {"{\"num_attention_heads\": 28, \"head_dim\": 128}", KVT_E_MISSING, "num_hidden_layers"},
        {"{\"num_hidden_layers\": 28, \"head_dim\": 128}", KVT_E_MISSING, "num_attention_heads"},
        {"{\"num_hidden_layers\": 28, \"num_attention_heads\": 28}", KVT_E_MISSING, "head_dim"},
        {"{\"num_hidden_layers\": \"28\", \"num_attention_heads\": 2}", KVT_E_PARSE,
         "num_hidden_layers"},
        {"{\"num_hidden_layers\": -4, \"num_attention_heads\": 2}", KVT_E_PARSE,
         "num_hidden_layers"},
        {"{\"num_hidden_layers\": 2.5, \"num_attention_heads\": 2}", KVT_E_PARSE,
         "num_hidden_layers"},
        {"{\"num_hidden_layers\": 0, \"num_attention_heads\": 2}", KVT_E_PARSE,
         "num_hidden_layers"},
        {"{\"num_hidden_layers\": 99999999999999999999, \"num_attention_heads\": 2}", KVT_E_PARSE,
         ""},
        {"{\"num_hidden_layers\": 2, \"num_attention_heads\": 3, \"hidden_size\": 100}",
         KVT_E_PARSE, "hidden_size"},
        {"{\"num_hidden_layers\": 2, \"num_hidden_layers\": 3}", KVT_E_PARSE, "duplicate"},
        /* a head count of 0 is named, never read as "absent" (MHA) or "missing" */
        {"{\"num_hidden_layers\": 2, \"num_attention_heads\": 8, \"num_key_value_heads\": 0, "
         "\"head_dim\": 64}",
         KVT_E_PARSE, "num_key_value_heads is 0"},
        {"{\"num_hidden_layers\": 2, \"num_attention_heads\": 0, \"head_dim\": 64}", KVT_E_PARSE,
         "num_attention_heads is 0"},
        {"{\"num_hidden_layers\": 2, \"num_attention_heads\": -8, \"head_dim\": 64}", KVT_E_PARSE,
         "num_attention_heads"},
        {"{\"num_hidden_layers\": 2, \"num_attention_heads\": 8, \"head_dim\": 0}", KVT_E_PARSE,
         "head_dim is 0"},
        /* layer kinds the calculator does not model are refused, named */
        {"{\"num_hidden_layers\": 2, \"num_attention_heads\": 8, \"head_dim\": 64, "
         "\"layer_types\": [\"full_attention\", \"kda_attention\"]}",
         KVT_E_PARSE, "layer_types[1] is \"kda_attention\""},
        {"{\"num_hidden_layers\": 2, \"num_attention_heads\": 8, \"head_dim\": 64, "
         "\"layer_types\": [\"full_attention\", \"x\\u001b[2J\"]}",
         KVT_E_PARSE, "\\x1b"},
        {"{\"num_hidden_layers\": 2, \"num_attention_heads\": 8, \"head_dim\": 64, "
         "\"is_encoder_decoder\": true}",
         KVT_E_PARSE, "encoder-decoder"},
        /* MiMo-V2-Flash: two attention shapes, K 192 / V 128 in both */
        {"{\"num_hidden_layers\": 2, \"num_attention_heads\": 8, \"head_dim\": 192, "
         "\"v_head_dim\": 128, \"hybrid_layer_pattern\": [0, 1], \"swa_head_dim\": 192}",
         KVT_E_PARSE, "MiMo-V2's sliding-window layers"},
        {"{\"num_hidden_layers\": 2, \"num_attention_heads\": 8, \"head_dim\": 64, "
         "\"linear_attn_config\": {}}",
         KVT_E_PARSE, "Kimi Delta Attention"},
        {"{\"num_hidden_layers\": 4, \"num_attention_heads\": 8, \"head_dim\": 64, "
         "\"attn_layer_period\": 8, \"mamba_d_state\": 16}",
         KVT_E_PARSE, "Mamba-1"},
        {"{\"num_hidden_layers\": 3, \"num_attention_heads\": 8, \"head_dim\": 64, "
         "\"hybrid_override_pattern\": \"M*X\"}",
         KVT_E_PARSE, "hybrid_override_pattern[2] is 'X'"},
        {"{\"num_hidden_layers\": 2, \"num_attention_heads\": 8, \"head_dim\": 64, "
         "\"mamba_num_heads\": 8}",
         KVT_E_PARSE, "no layer_types"},
        {"{\"num_hidden_layers\": 2, \"num_attention_heads\": 8, \"head_dim\": 64, "
         "\"layer_types\": [\"full_attention\", \"linear_attention\"]}",
         KVT_E_MISSING, "ssm_heads"},
        /* a V head of another size than K (vLLM pages it as head_size + head_size_v)
         * is refused, not sized as two K heads; an equal one is just K's */
        {"{\"num_hidden_layers\": 2, \"num_attention_heads\": 8, \"head_dim\": 192, "
         "\"v_head_dim\": 128}",
         KVT_E_PARSE, "v_head_dim 128 differs from the K head's 192"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        struct parsed p = parse(rows[i].json);
        if (p.err != rows[i].err || !strstr(p.e.what, rows[i].says))
            fail_msg("row %zu: got %s \"%s\"", i, kvt_errname(p.err), p.e.what);
    }
    /* malformed JSON says where: the missing comma is on line 3 */
    {
        struct parsed p = parse(rows[0].json);
        assert_int_equal(p.e.line, 3);
    }
}

static void test_hybrid_configs(void **state)
{
    (void)state;
    char path[512];
    const char *dir = getenv("KVT_FIXTURES");
    struct kv_model m;
    struct hf_config_info info;
    struct hf_config_error e;
    struct parsed p;

    /* Qwen3.5-27B (fixtures/configs): 64 layers under text_config, every 4th
     * full attention: 16 attention + 48 gated-delta-net, value heads 48 x 128,
     * key heads 16 x 128, conv 4, SSM fp32, one MTP layer */
    snprintf(path, sizeof path, "%s/configs/qwen3.5-27b.config.json", dir ? dir : "fixtures");
    assert_int_equal(hf_config_load(path, &m, &info, &e), KVT_E_OK);
    assert_int_equal(m.layers, 64);
    assert_int_equal(m.state_layers, 48);
    assert_int_equal(m.state_kind, KV_STATE_GDN);
    assert_int_equal(m.ssm_heads, 48);
    assert_int_equal(m.ssm_head_dim, 128);
    assert_int_equal(m.ssm_groups, 16);
    assert_int_equal(m.ssm_state_dim, 128);
    assert_int_equal(m.conv_kernel, 4);
    assert_int_equal(m.ssm_dtype, KV_DTYPE_FP32);
    assert_int_equal(m.mtp_layers, 1);
    assert_int_equal(m.kv_heads, 4);
    assert_int_equal(m.head_dim, 256);
    assert_int_equal(m.sliding_layers, 0);
    assert_true(info.hybrid);
    /* Its parameters, the language model without the MTP layer and the vision
     * tower (h 5,120, vocab 248,320, untied):
     *   gated attention: q_proj h x 24 x 256 x 2 = 62,914,560, k and v h x 4 x 256
     *     = 5,242,880 each, o_proj 6,144 x h = 31,457,280, q/k norms 512:
     *     104,858,112; x 16 layers
     *   gated delta net: key width 16 x 128 = 2,048, value width 48 x 128 = 6,144;
     *     in_proj_qkvz h x (2 x 2,048 + 2 x 6,144) = 83,886,080, in_proj_ba h x 96
     *     = 491,520, conv 10,240 x 4 = 40,960, dt_bias + A_log 96, norm 128,
     *     out_proj 6,144 x h = 31,457,280: 115,876,064; x 48 layers
     *   MLP 3 x h x 17,408 = 267,386,880 and norms 2 x h a layer, x 64; final norm h;
     *     embeddings and lm_head 2 x 248,320 x h = 2,542,796,800
     *   = 16 x 104,858,112 + 48 x 115,876,064 + 64 x (267,386,880 + 10,240) + 5,120
     *     + 2,542,796,800 = 26,895,998,464: 0.4% under the model card's 27B */
    assert_true(info.params_counted);
    assert_int_equal(llround(m.params_b * 1e9), 26895998464ll);
    assert_true(m.active_params_b == 0);
    assert_true(fabs(m.params_b - 27.0) / 27.0 < 0.02);

    /* Qwen3.5-35B-A3B / Qwen3.6-35B-A3B: h 2,048, 10 gated-attention layers
     * (16 heads, 2 KV heads of 256: 16,777,216 + 2 x 1,048,576 + 8,388,608 + 512
     * = 27,263,488), 30 gated-delta-net layers (key 2,048, value 4,096 wide:
     * 25,165,824 + 131,072 + 32,768 + 64 + 128 + 8,388,608 = 33,718,464), and in
     * all 40 an MoE of 256 experts of 3 x h x 512 = 3,145,728 (805,306,368), a
     * router h x 256 = 524,288, a shared expert 3,145,728 and its gate 2,048:
     * 808,978,432; norms 4,096 a layer, final 2,048, embeddings 2 x 248,320 x h
     * = 1,017,118,720. Total 34,660,610,688 (1.0% under 35B); a token skips
     * 248 experts in 40 layers: 34,660,610,688 - 40 x 248 x 3,145,728
     * = 3,454,988,928 active ("A3B": 3B rounded) */
    snprintf(path, sizeof path, "%s/configs/qwen3.5-35b-a3b.config.json", dir ? dir : "fixtures");
    assert_int_equal(hf_config_load(path, &m, &info, &e), KVT_E_OK);
    assert_true(info.params_counted);
    assert_int_equal(llround(m.params_b * 1e9), 34660610688ll);
    assert_int_equal(llround(m.active_params_b * 1e9), 3454988928ll);
    assert_int_equal(m.experts, 256);         /* num_experts */
    assert_int_equal(m.experts_per_token, 8); /* num_experts_per_tok */
    assert_true(fabs(m.params_b - 35.0) / 35.0 < 0.02);
    assert_true(m.active_params_b >= 2.5 && m.active_params_b < 3.5);

    /* DeepSeek-V3.2: MLA with the indexer's 128-value keys */
    snprintf(path, sizeof path, "%s/configs/deepseek-v3.2.config.json", dir ? dir : "fixtures");
    assert_int_equal(hf_config_load(path, &m, &info, &e), KVT_E_OK);
    assert_int_equal(m.mla_rank, 512);
    assert_int_equal(m.mla_rope_dim, 64);
    assert_int_equal(m.index_head_dim, 128);
    /* Its parameters (h 7,168, 128 heads, q rank 1,536, latent 512 + 64, nope and
     * v 128; DeepSeek's own count leaves out the MTP layer, and so does this):
     *   MLA: q_a h x 1,536 = 11,010,048 + norm 1,536, q_b 1,536 x 128 x 192
     *     = 37,748,736, kv_a h x 576 = 4,128,768 + norm 512, kv_b 512 x 128 x 256
     *     = 16,777,216, o 128 x 128 x h = 117,440,512: 187,107,328
     *   indexer: wq_b 1,536 x 64 x 128 = 12,582,912, wk + weights_proj h x (128 + 64)
     *     = 1,376,256, LayerNorm 256: 13,959,424
     *   3 dense MLPs 3 x h x 18,432 = 396,361,728; 58 MoE layers of 256 + 1 shared
     *     experts of 3 x h x 2,048 = 44,040,192, router h x 256 = 1,835,008 and
     *     bias 256: 11,320,164,608; norms 2 x h a layer, final h; embeddings and
     *     lm_head 2 x 129,280 x h = 1,853,358,080
     *   = 61 x (187,107,328 + 13,959,424 + 14,336) + 3 x 396,361,728
     *     + 58 x 11,320,164,608 + 7,168 + 1,853,358,080 = 671,877,944,064 (DeepSeek-V3's
     *     671,026,419,200 and 61 indexers): 0.13% over the published 671B;
     *   active: less 58 x 248 x 44,040,192 = 38,403,822,336, 3.8% over 37B (the
     *     published figure is V3's; the indexer runs for every token) */
    assert_true(info.params_counted);
    assert_int_equal(llround(m.params_b * 1e9), 671877944064ll);
    assert_int_equal(llround(m.active_params_b * 1e9), 38403822336ll);
    assert_true(fabs(m.params_b - 671.0) / 671.0 < 0.02);
    assert_true(fabs(m.active_params_b - 37.0) / 37.0 < 0.05);

    /* Qwen3-Next: no layer_types, full_attention_interval 4: 48 layers, 12 full */
    p = parse_ok("{\"model_type\": \"qwen3_next\", \"num_hidden_layers\": 48, "
                 "\"num_attention_heads\": 16, \"num_key_value_heads\": 2, \"head_dim\": 256, "
                 "\"full_attention_interval\": 4, \"linear_num_value_heads\": 32, "
                 "\"linear_value_head_dim\": 128, \"linear_num_key_heads\": 16, "
                 "\"linear_key_head_dim\": 128, \"linear_conv_kernel_dim\": 4}");
    assert_int_equal(p.m.state_layers, 36);
    assert_int_equal(p.m.state_kind, KV_STATE_GDN);

    /* Nemotron-H: M Mamba2, * attention, - MLP (no cache): "M-M*M-" is 3 Mamba2
     * + 1 attention layers that keep something */
    p = parse_ok("{\"num_hidden_layers\": 6, \"num_attention_heads\": 32, "
                 "\"num_key_value_heads\": 8, \"head_dim\": 128, "
                 "\"hybrid_override_pattern\": \"M-M*M-\", \"mamba_num_heads\": 128, "
                 "\"mamba_head_dim\": 64, \"n_groups\": 8, \"ssm_state_size\": 128, "
                 "\"conv_kernel\": 4}");
    assert_int_equal(p.m.layers, 4);
    assert_int_equal(p.m.state_layers, 3);
    assert_int_equal(p.m.state_kind, KV_STATE_MAMBA2);
    assert_int_equal(p.m.ssm_heads, 128);
    assert_int_equal(p.m.ssm_groups, 8);

    /* Granite-4.0-H spells them mamba_n_heads, mamba_d_head, ... with layer_types */
    p = parse_ok("{\"num_hidden_layers\": 4, \"num_attention_heads\": 32, "
                 "\"num_key_value_heads\": 8, \"head_dim\": 128, \"layer_types\": "
                 "[\"mamba\", \"mamba\", \"mamba\", \"attention\"], \"mamba_n_heads\": 64, "
                 "\"mamba_d_head\": 64, \"mamba_n_groups\": 1, \"mamba_d_state\": 128, "
                 "\"mamba_d_conv\": 4}");
    assert_int_equal(p.m.state_layers, 3);
    assert_int_equal(p.m.ssm_state_dim, 128);
    assert_int_equal(p.m.conv_kernel, 4);

    /* Gemma-3n: the last num_kv_shared_layers reuse earlier layers' KV and hold
     * none: of 6 layers (sliding, sliding, full, x3), 2 shared leave 4, 1 full */
    p = parse_ok("{\"num_hidden_layers\": 6, \"num_attention_heads\": 8, "
                 "\"num_key_value_heads\": 2, \"head_dim\": 256, \"sliding_window\": 512, "
                 "\"num_kv_shared_layers\": 2, \"layer_types\": [\"sliding_attention\", "
                 "\"sliding_attention\", \"full_attention\", \"sliding_attention\", "
                 "\"sliding_attention\", \"full_attention\"]}");
    assert_int_equal(p.m.layers, 4);
    assert_int_equal(p.m.sliding_layers, 3);
}

static void test_files(void **state)
{
    (void)state;
    char dir[] = "/tmp/kvt_hfcfg_XXXXXX", path[256];
    struct kv_model m;
    struct hf_config_info info;
    struct hf_config_error e;
    FILE *f;

    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/config.json", dir);
    f = fopen(path, "w");
    assert_non_null(f);
    fputs(qwen25_7b, f);
    fclose(f);
    assert_int_equal(hf_config_load(path, &m, &info, &e), KVT_E_OK);
    assert_int_equal(m.layers, 28);
    unlink(path);
    /* missing file, a folder in its place */
    assert_int_equal(hf_config_load(path, &m, &info, &e), KVT_E_IO);
    assert_non_null(strstr(e.what, "No such file"));
    assert_int_equal(hf_config_load(dir, &m, &info, &e), KVT_E_IO);
    assert_non_null(strstr(e.what, "directory"));
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_qwen25_head_dim_and_inert_window),
        cmocka_unit_test(test_llama_params),
        cmocka_unit_test(test_moe_params),
        cmocka_unit_test(test_mha_when_kv_heads_absent),
        cmocka_unit_test(test_gemma3_text_config),
        cmocka_unit_test(test_layer_types_list),
        cmocka_unit_test(test_gemma2_and_uniform_windows),
        cmocka_unit_test(test_mla_fields),
        cmocka_unit_test(test_dtype_and_quantization),
        cmocka_unit_test(test_malformed_and_incomplete),
        cmocka_unit_test(test_hybrid_configs),
        cmocka_unit_test(test_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
