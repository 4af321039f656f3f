/* `kvtutor calc`, `models` and `gpus` as a user runs them: exit codes, the
 * figures a learner reads, the JSON a script parses, and a one-line error
 * naming the flag for every kind of bad input. */
#define _XOPEN_SOURCE 700
#include <jansson.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "run_cmd.h"

/* Runs kvtutor with a space-separated argument string (no quoting needed here). */
static struct run_result kvtutor(const char *args)
{
    struct run_result r;
    assert_int_equal(run_kvtutor_words(args, NULL, &r), 0);
    return r;
}

static json_t *calc_json(const char *args)
{
    char line[1024];
    struct run_result r;
    json_error_t err;
    json_t *j;

    snprintf(line, sizeof line, "calc --json %s", args);
    r = kvtutor(line);
    if (r.status != 0)
        fail_msg("kvtutor %s: exit %d: %s", line, r.status, r.err);
    j = json_loads(r.out, 0, &err);
    if (!j)
        fail_msg("kvtutor %s: not JSON (%s)", line, err.text);
    run_free(&r);
    return j;
}

static long long jint(json_t *j, const char *key)
{
    json_t *v = json_object_get(j, key);
    if (!json_is_integer(v))
        fail_msg("%s is not an integer", key);
    return json_integer_value(v);
}

static void test_seed_example_json(void **state)
{
    (void)state;
    /* The seed lesson: Qwen2.5-7B, BF16, 10 GiB left for KV, 8k tokens.
     * 2 x 28 x 4 x 128 x 2 = 57,344 B per token; 10 GiB / (16 x 57,344) = 11,702
     * blocks; 8,192 / 16 = 512 per sequence -> 22 whole sequences. */
    json_t *j = calc_json("--model qwen2.5-7b --kv-budget-gib 10 --seq 8192");

    assert_int_equal(jint(j, "kv_bytes_per_token"), 57344);
    assert_int_equal(jint(j, "kv_budget_bytes"), 10737418240ll);
    assert_int_equal(jint(j, "num_gpu_blocks"), 11702);
    assert_int_equal(jint(j, "kv_tokens"), 11702 * 16);
    assert_int_equal(jint(j, "max_concurrent_seqs"), 22);
    assert_int_equal(jint(j, "page_bytes"), 32768);
    assert_true(json_is_real(json_object_get(j, "max_concurrency")));
    /* no GPU, so no bandwidth: the ceiling is null, not a guess */
    assert_true(json_is_null(json_object_get(j, "decode_tokens_per_s")));
    assert_true(json_is_null(json_object_get(j, "decode_bound")));
    assert_true(json_is_null(json_object_get(j, "reason")));
    json_decref(j);
}

static void test_seed_example_human(void **state)
{
    (void)state;
    /* The README's first command: a 24 GB GPU used whole, as the seed card does */
    struct run_result r = kvtutor("calc --model qwen2.5-7b --gpu rtx4090 --util 1 --seq 8192");

    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "57,344 B (56 KiB)"));
    assert_non_null(strstr(r.out, "448 MiB (0.4375 GiB)"));
    assert_non_null(strstr(r.out, "22 whole sequences of 8,192 tokens fit at once"));
    assert_string_equal(r.err, "");
    run_free(&r);
}

/* The human output reads by the rules of kvt_format.h: three significant
 * digits by magnitude, vLLM's own precision where a line mirrors its log,
 * the GPU count where the weights are split. */
static void test_human_figures_read_well(void **state)
{
    (void)state;
    static const struct {
        const char *args, *want;
    } rows[] = {
        /* 7.8948 GiB given: vLLM logs "Available KV cache memory: 7.89 GiB" */
        {"calc --model qwen2.5-7b --kv-budget-gib 7.8948",
         "(--kv-budget-gib)                = 7.89 GiB"},
        {"calc --model qwen2.5-7b --kv-budget-gib 7.8948", "  7.89 GiB ÷ 896 KiB per block id"},
        /* 80 x 0.92 = 73.6 GiB; 7,615,616,512 x 2 B = 15,231,233,024 B = 14.185 GiB;
         * 73.6 - 14.185 = 59.415 GiB: the budget as vLLM writes it, the weights by size */
        {"calc --model qwen2.5-7b --gpu h100", "16 bits                    = 14.2 GiB"},
        {"calc --model qwen2.5-7b --gpu h100",
         "KV budget                                            = 59.41 GiB"},
        /* batch 1, context 0: 15,231,233,024 B = 15.23 GB read a step, three digits */
        {"calc --model qwen2.5-7b --gpu h100", "3,352 GB/s ÷ 15.2 GB "},
        /* Llama-3.1-70B on 4 H100s: 70,553,706,496 x 2 B / 4 = 35,276,853,248 B = 32.85 GiB */
        {"calc --model llama-3.1-70b --gpu h100 --tp 4",
         "70.55B params × 16 bits / 4 GPUs          = 32.9 GiB"},
        /* TP 4: the four GPUs decode each token together, so every decode
         * line takes all four, and says so: 4 x 989 TFLOP/s, 4 x 3,352 GB/s;
         * 3,956e12 / (2 x 70.55e9) = 28,035 tok/s */
        {"calc --model llama-3.1-70b --gpu h100 --tp 4",
         "TP 4: the 4 GPUs' bandwidth and FLOP/s together"},
        {"calc --model llama-3.1-70b --gpu h100 --tp 4",
         "compute: 4 × 989 TFLOP/s ÷ (2 × active parameters)   = 28,035 tok/s"},
        /* the batch where compute overtakes memory is named with the same figure */
        {"calc --model llama-3.1-70b --gpu h100 --tp 4", "at 0 tokens (4 × 989 TFLOP/s)\n"},
        /* 70.55 GB x 2 B = 141.11 GB read a step: "141 GB" */
        {"calc --model llama-3.1-70b --gpu h100 --tp 4", "4 × 3,352 GB/s ÷ 141 GB "},
        /* one GPU: its own figures, no "1 ×" */
        {"calc --model qwen2.5-7b --gpu h100", "compute: 989 TFLOP/s ÷ (2 × active parameters)"},
        {"calc --model llama-3.1-70b --gpu h100 --tp 4 --pp 2", "/ 8 GPUs"},
        /* 69,532 blocks / 2,048 a sequence = 33.951: vLLM prints "33.95x" */
        {"calc --model qwen2.5-7b --gpu h100 --max-model-len 32768", "= max concurrency 33.95x\n"},
        /* 9 blocks of 28 x 32 KiB = 8,064 KiB = 8,257,536 B; 32 tokens are 2
         * blocks: 9 / 2 = 4.5, which vLLM prints "4.50x", not "4.5" */
        {"calc --model qwen2.5-7b --kv-cache-memory-bytes 8257536 --max-model-len 32",
         "9 blocks ÷ 2 per sequence                            = max concurrency 4.50x\n"},
    };
    char *env[] = {"LC_ALL=C.UTF-8", NULL};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        struct run_result r;
        assert_int_equal(run_kvtutor_words(rows[i].args, env, &r), 0);
        assert_int_equal(r.status, 0);
        if (!strstr(r.out, rows[i].want))
            fail_msg("kvtutor %s: no \"%s\" in:\n%s", rows[i].args, rows[i].want, r.out);
        run_free(&r);
    }
}

/* The human output fits 80 columns: a long result goes on under itself,
 * the settings and notes wrap between words. */
static void test_human_output_fits_80_columns(void **state)
{
    (void)state;
    static const char *const cmds[] = {
        "calc --model qwen2.5-7b --gpu h100",
        "calc --model deepseek-v3 --gpu h200 --tp 8",
        "calc --model gemma-3-27b --gpu a100 --max-model-len 131072",
        "calc --model qwen3-30b-a3b --gpu rtx4090 --batch 64 --context 4096",
        "calc --model llama-3.1-405b --gpu a100-40gb --tp 4 --pp 2",
        "calc --model qwen3.6-35b-a3b --gpu h100 --kv-dtype fp8",
        "calc --model deepseek-v3.2 --gpu h200 --tp 8 --dcp 2",
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        struct run_result r = kvtutor(cmds[i]);
        size_t width = 0, line = 1;
        assert_int_equal(r.status, 0);
        for (const unsigned char *p = (const unsigned char *)r.out; *p; p++) {
            if (*p == '\n') {
                width = 0;
                line++;
            } else if ((*p & 0xC0) != 0x80 && ++width > 80) {
                fail_msg("kvtutor %s: line %zu is past 80 columns:\n%s", cmds[i], line, r.out);
            }
        }
        run_free(&r);
    }
    /* a result too long for its column goes on under it, whole:
     * 59.41 GiB / 896 KiB = 69,532 blocks x 16 = 1,112,512 tokens */
    struct run_result r = kvtutor("calc --model qwen2.5-7b --gpu h100");
    if (!strstr(r.out, "= 69,532 blocks\n" /* then the tokens under it */) ||
        !strstr(r.out, "  (1,112,512 tokens)\n"))
        fail_msg("%s", r.out);
    run_free(&r);
}

/* JSON reals are the shortest text that reads back as the same double:
 * jansson's default %.17g writes 0.92 as 0.92000000000000004. */
static void test_json_without_float_noise(void **state)
{
    (void)state;
    static const struct {
        const char *args, *want;
    } rows[] = {
        /* vLLM 0.26.0's default gpu_memory_utilization */
        {"calc --json --model qwen2.5-7b --gpu h100", "\"gpu_memory_utilization\": 0.92,"},
        /* 69,532 blocks / 2,048 a sequence = 33.951171875, exact in binary */
        {"calc --json --model qwen2.5-7b --gpu h100", "\"max_concurrency\": 33.951171875,"},
        /* a real that is whole keeps its point, so it still reads as a real */
        {"calc --json --model qwen2.5-7b --gpu h100", "\"bandwidth_gbps\": 3352.0,"},
        {"calc --json --model qwen2.5-7b --gpu h100 --util 0.8",
         "\"gpu_memory_utilization\": 0.8,"},
        /* 2% of 0.4375 GiB = 0.00875 */
        {"ask kv-cache per-sequence-8k 0.5GiB --json", "\"allowed\": 0.00875,"},
        /* the H200's 4,800 GB/s, not 4.8e+03 */
        {"gpus --json", "\"peak_gbps\": 4800.0,"},
        /* the logged 19.53 GiB of tests/fixtures/vllm-logs/v0.19.0-r030-gemma-3-27b.log */
        {"explain-log %s/vllm-logs/v0.19.0-r030-gemma-3-27b.log --json", "\"logged\": 19.53,"},
    };
    const char *dir = getenv("KVT_FIXTURES");
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char args[512];
        struct run_result r;
        snprintf(args, sizeof args, rows[i].args, dir ? dir : "fixtures");
        r = kvtutor(args);
        if (!strstr(r.out, rows[i].want))
            fail_msg("kvtutor %s: no '%s' in:\n%s", args, rows[i].want, r.out);
        /* no run of zeros or nines that %.17g leaves after a short decimal */
        assert_null(strstr(r.out, "0000000000"));
        assert_null(strstr(r.out, "9999999999"));
        run_free(&r);
    }
}

static void test_decode_ceiling_hand_arithmetic(void **state)
{
    (void)state;
    /* Llama-3.1-8B, 16.06 GB of BF16 weights, 4.8 TB/s, batch 1, empty context:
     * 4.8e12 / 16,060,522,496 = 298.87 tok/s */
    json_t *j = calc_json("--model llama-3.1-8b --bandwidth-gbps 4800");
    double tps = json_real_value(json_object_get(j, "decode_tokens_per_s"));

    assert_true(tps > 298.8 && tps < 298.9);
    assert_int_equal(jint(j, "weights_bytes"), 16060522496ll);
    json_decref(j);
    /* the H200 preset carries the same 4,800 GB/s and 989 TFLOP/s: memory-bound at batch 1 */
    j = calc_json("--model llama-3.1-8b --gpu h200");
    assert_string_equal(json_string_value(json_object_get(j, "decode_bound")), "memory");
    json_decref(j);
}

static void test_decode_ceiling_is_the_lower(void **state)
{
    (void)state;
    /* Qwen2.5-7B (7,615,616,512 BF16 parameters = 15,231,233,024 B) on the H100 SXM preset
     * (tests/fixtures/gpus.tsv: 3,352 GB/s, 989 TFLOP/s dense BF16), batch 1,000, context 0:
     * compute 989e12 / (2 x 7,615,616,512) = 64,932.37 tok/s;
     * memory 1,000 x 3,352e9 / 15,231,233,024 = 220,074.1 tok/s -> 64,932, compute-bound */
    json_t *j = calc_json("--model qwen2.5-7b --gpu h100 --batch 1000");
    double mem = json_real_value(json_object_get(j, "decode_tokens_per_s_memory"));
    double comp = json_real_value(json_object_get(j, "decode_tokens_per_s_compute"));
    double tps = json_real_value(json_object_get(j, "decode_tokens_per_s"));
    struct run_result r;

    assert_true(mem > 220074.0 && mem < 220074.2);
    assert_true(comp > 64932.3 && comp < 64932.4);
    assert_true(tps > 64932.3 && tps < 64932.4);
    assert_string_equal(json_string_value(json_object_get(j, "decode_bound")), "compute");
    assert_true(json_is_null(json_object_get(j, "reason")));
    json_decref(j);
    /* context 32,768: 1,000 x 32,769 x 57,344 B = 1.88 TB of KV does not fit in 80 GB */
    j = calc_json("--model qwen2.5-7b --gpu h100 --batch 1000 --context 32768");
    assert_true(json_is_null(json_object_get(j, "decode_tokens_per_s")));
    assert_true(json_is_real(json_object_get(j, "decode_tokens_per_s_memory")));
    assert_true(json_is_string(json_object_get(j, "reason")));
    json_decref(j);
    /* the human output shows both ceilings and the lower, or why there is none */
    r = kvtutor("calc --model qwen2.5-7b --gpu h100 --batch 1000");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "220,074 tok/s"));
    assert_non_null(strstr(r.out, "64,932 tok/s, compute-bound"));
    run_free(&r);
    r = kvtutor("calc --model qwen2.5-7b --gpu h100 --batch 1000 --context 32768");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "no ceiling at batch 1,000"));
    assert_non_null(strstr(r.out, "do not fit"));
    run_free(&r);
}

/* vLLM refuses a max_model_len past the model's positions at config
 * validation (vllm/config/model.py, _get_and_verify_max_len): Qwen2.5-7B-
 * Instruct ships max_position_embeddings 32,768, so --seq 131072 is refused,
 * naming both numbers; VLLM_ALLOW_LONG_MAX_MODEL_LEN=1's switch lets it
 * through with vLLM's warning as a note. */
static void test_max_model_len_past_the_positions(void **state)
{
    struct run_result r = kvtutor("calc --model qwen2.5-7b --gpu h100 --seq 131072");

    (void)state;
    assert_int_equal(r.status, 2);
    assert_string_equal(r.out, "");
    assert_non_null(strstr(r.err, "131072"));
    assert_non_null(strstr(r.err, "32768 positions"));
    assert_non_null(strstr(r.err, "--allow-long-max-model-len"));
    run_free(&r);
    r = kvtutor("calc --model qwen2.5-7b --gpu h100 --seq 131072 --allow-long-max-model-len");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "VLLM_ALLOW_LONG_MAX_MODEL_LEN"));
    run_free(&r);
    /* exactly the positions is fine */
    r = kvtutor("calc --model qwen2.5-7b --gpu h100 --seq 32768");
    assert_int_equal(r.status, 0);
    run_free(&r);
}

/* Without --context the headline is at empty caches (the contract's), and the
 * full-length sequences the learner sized stand beside it: Llama-3.1-70B at
 * TP 4, batch 16, 32,768 tokens: weights 70,553,706,496 x 2 B = 141.1 GB; KV
 * 80 layers x 8 heads x 128 x 2 x 2 B = 327,680 B a token x 32,768 = 10.74 GB
 * a sequence, x 16 = 171.8 GB; 16 x 4 x 3,352 / 312.9 = 686 tok/s. */
static void test_full_length_ceiling_beside_the_headline(void **state)
{
    struct run_result r = kvtutor("calc --model llama-3.1-70b --gpu h100 --tp 4 --seq 32768 "
                                  "--batch 16");

    (void)state;
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "at 32,768 tokens each (full-length sequences): 686 tok/s"));
    run_free(&r);
    /* with --context given, the headline is at that context and stands alone */
    r = kvtutor("calc --model llama-3.1-70b --gpu h100 --tp 4 --seq 32768 --batch 16 "
                "--context 32768");
    assert_non_null(strstr(r.out, "ceiling at batch 16 and 32,768 tokens: 686 tok/s"));
    assert_null(strstr(r.out, "full-length sequences"));
    run_free(&r);
}

static void test_weights_do_not_fit_is_a_result(void **state)
{
    (void)state;
    json_t *j = calc_json("--model llama-3.1-70b --gpu rtx4090");

    assert_int_equal(jint(j, "num_gpu_blocks"), 0);
    assert_int_equal(jint(j, "max_concurrent_seqs"), 0);
    assert_true(json_is_string(json_object_get(j, "reason")));
    json_decref(j);
}

/* The state's dtypes in --json and the header: Nemotron-3-Nano's config
 * names float32 for the SSM state (vLLM's NemotronH hook), the conv state
 * takes the model's bf16 (test_hf_families works its bytes by hand). */
static void test_state_dtypes_shown(void **state)
{
    (void)state;
    const char *fx = getenv("KVT_FIXTURES");
    char args[512];
    struct run_result r;
    json_t *j;

    snprintf(args, sizeof args,
             "--config %s/configs/nemotron-3-nano-30b-a3b.config.json --vllm 0.21.0 "
             "--kv-budget-gib 34.32 --mamba-cache-mode none",
             fx ? fx : "fixtures");
    j = calc_json(args);
    assert_string_equal(json_string_value(json_object_get(j, "mamba_dtype")), "bf16");
    assert_string_equal(json_string_value(json_object_get(j, "mamba_ssm_dtype")), "fp32");
    assert_int_equal(jint(j, "kv_tokens"), 5769184);
    json_decref(j);
    {
        char line[600];
        snprintf(line, sizeof line, "calc %s", args);
        r = kvtutor(line);
        assert_int_equal(r.status, 0);
        assert_non_null(strstr(r.out, "state conv bf16, SSM fp32"));
        run_free(&r);
    }
    j = calc_json("--model llama-3.1-8b");
    assert_true(json_is_null(json_object_get(j, "mamba_ssm_dtype")));
    json_decref(j);
}

static void test_flags_override_preset(void **state)
{
    (void)state;
    /* fp8 KV halves the per-token bytes: 28,672 */
    json_t *j = calc_json("--model qwen2.5-7b --kv-dtype fp8");
    assert_int_equal(jint(j, "kv_bytes_per_token"), 28672);
    json_decref(j);
    /* --weights-dtype int4 replaces the preset's measured gpt-oss size with an estimate:
     * 20,914,757,184 x 4.125 / 8 = 10,784,171,673 B */
    j = calc_json("--model gpt-oss-20b --weights-dtype int4");
    assert_int_equal(jint(j, "weights_bytes"), 10784171673ll);
    /* ... and every weight is then int4: no separate experts dtype */
    assert_true(json_is_null(json_object_get(j, "experts_dtype")));
    json_decref(j);
    /* gpt-oss stores its experts in MXFP4 and the rest in BF16 (model card;
     * modules_to_not_convert in its config.json): the label says both */
    j = calc_json("--model gpt-oss-120b");
    assert_string_equal(json_string_value(json_object_get(j, "experts_dtype")), "mxfp4");
    assert_string_equal(json_string_value(json_object_get(j, "weights_dtype")), "bf16");
    json_decref(j);
}

static void test_config_file(void **state)
{
    (void)state;
    char dir[] = "/tmp/kvt_cli_XXXXXX", path[256], args[512];
    FILE *f;
    json_t *j;

    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/config.json", dir);
    f = fopen(path, "w");
    assert_non_null(f);
    fputs("{\"num_hidden_layers\": 28, \"num_attention_heads\": 28, \"num_key_value_heads\": 4,"
          " \"hidden_size\": 3584, \"intermediate_size\": 18944, \"vocab_size\": 152064,"
          " \"model_type\": \"qwen2\", \"tie_word_embeddings\": false,"
          " \"max_position_embeddings\": 32768, \"torch_dtype\": \"bfloat16\"}",
          f);
    fclose(f);
    /* flags override the file: --layers 14 halves the per-token figure */
    snprintf(args, sizeof args, "--config %s --layers 14 --gpu-mem-gib 24 --util 1", path);
    j = calc_json(args);
    assert_int_equal(jint(j, "kv_bytes_per_token"), 28672);
    assert_int_equal(jint(j, "max_model_len"), 32768);
    assert_int_equal(jint(j, "weights_bytes"), 15231233024ll); /* 7,615,616,512 x 2 */
    json_decref(j);
    unlink(path);
    rmdir(dir);

    /* a note on how a key was read reaches the text and --json: Llama-4-Scout's
     * chunked layers sized as full attention, 2 x 48 x 8 x 128 x 2 B = 196,608 */
    {
        const char *fx = getenv("KVT_FIXTURES");
        struct run_result r;
        json_t *notes;
        int found = 0;
        snprintf(args, sizeof args, "--config %s/configs/llama-4-scout.config.json --params 109",
                 fx ? fx : "fixtures");
        j = calc_json(args);
        assert_int_equal(jint(j, "kv_bytes_per_token"), 196608);
        notes = json_object_get(j, "notes");
        for (size_t i = 0; i < json_array_size(notes); i++)
            found += strstr(json_string_value(json_array_get(notes, i)),
                            "attention_chunk_size 8192") != NULL;
        assert_int_equal(found, 1);
        json_decref(j);
        snprintf(args, sizeof args,
                 "calc --config %s/configs/llama-4-scout.config.json --params 109",
                 fx ? fx : "fixtures");
        r = kvtutor(args);
        assert_int_equal(r.status, 0);
        if (!strstr(r.out, "note: attention_chunk_size 8192"))
            fail_msg("%s", r.out);
        run_free(&r);

        /* a Qwen3.5 config under 0.11.0, older than the first release a log
         * shows serving one (0.19.0, fixtures/vllm-logs h06): noted; not at 0.19.0 */
        static const struct {
            const char *vllm;
            int notes;
        } rel[] = {{"0.11.0", 1}, {"0.19.0rc1", 1}, {"0.19.0", 0}, {"0.24.0", 0}};
        for (size_t k = 0; k < sizeof rel / sizeof rel[0]; k++) {
            snprintf(args, sizeof args,
                     "--config %s/configs/qwen3.5-27b.config.json --vllm %s --seq 32768",
                     fx ? fx : "fixtures", rel[k].vllm);
            j = calc_json(args);
            notes = json_object_get(j, "notes");
            found = 0;
            for (size_t i = 0; i < json_array_size(notes); i++)
                found += strstr(json_string_value(json_array_get(notes, i)),
                                "first vLLM release known here to serve them is 0.19.0") != NULL;
            if (found != rel[k].notes)
                fail_msg("--vllm %s: %d notes of the release, wanted %d", rel[k].vllm, found,
                         rel[k].notes);
            json_decref(j);
        }
    }
}

static void test_bad_input_one_line_exit_2(void **state)
{
    (void)state;
    static const struct {
        const char *args;
        const char *says[3]; /* every string must appear in the one line */
    } rows[] = {
        {"calc --model qwen2.5-8b", {"--model qwen2.5-8b", "qwen2.5-7b", NULL}},
        {"calc --model x --gpu h1000", {"--model x", NULL}},
        {"calc --model qwen2.5-7b --gpu h1000", {"--gpu h1000", "h100", NULL}},
        {"calc --layers 0 --kv-heads 8 --head-dim 128", {"--layers 0", "positive", NULL}},
        {"calc --layers -3 --kv-heads 8 --head-dim 128", {"--layers -3", NULL}},
        {"calc --layers abc --kv-heads 8 --head-dim 128", {"--layers abc", NULL}},
        {"calc --layers 1e3 --kv-heads 8 --head-dim 128", {"--layers 1e3", NULL}},
        {"calc --layers 99999999999999999999999 --kv-heads 8 --head-dim 128",
         {"--layers", "too large", NULL}},
        {"calc --model qwen2.5-7b --util 1.5", {"--util 1.5", NULL}},
        {"calc --model qwen2.5-7b --util 0", {"--util 0", NULL}},
        {"calc --model qwen2.5-7b --kv-budget-gib nan", {"--kv-budget-gib nan", NULL}},
        {"calc --model qwen2.5-7b --kv-budget-gib inf", {"--kv-budget-gib inf", NULL}},
        {"calc --model qwen2.5-7b --kv-budget-gib -1", {"--kv-budget-gib -1", NULL}},
        {"calc --model qwen2.5-7b --gpu-mem-gib 0x10", {"--gpu-mem-gib 0x10", NULL}},
        {"calc --model qwen2.5-7b --gpu-mem-gib 1,5", {"--gpu-mem-gib 1,5", NULL}},
        {"calc --model qwen2.5-7b --kv-dtype int4", {"--kv-dtype int4", NULL}},
        {"calc --model qwen2.5-7b --tp 3", {"--tp 3", "--kv-heads is 4 in the model", NULL}},
        {"calc --model phi-4 --tp 4", {"--tp 4", "--kv-heads is 10", NULL}},
        {"calc --model phi-4 --kv-heads 8 --tp 16", {"--tp 16", "query heads", "--heads is 40"}},
        {"calc --model qwen2.5-7b --config x.json", {"--model", "--config", NULL}},
        {"calc --model qwen2.5-7b --kv-budget-gib 10 --util 0.8", {"--kv-budget-gib", "--util"}},
        {"calc --layers 32 --kv-heads 8 --head-dim 128 --mla-rank 512",
         {"--mla-rank", "--kv-heads", NULL}},
        {"calc --layers 32 --kv-heads 8 --head-dim 128 --sliding-layers 40 --sliding-window 4096",
         {"--sliding-layers 40", "--layers 32", NULL}},
        {"calc --layers 32 --kv-heads 8 --head-dim 128 --sliding-layers 4",
         {"--sliding-layers 4", "--sliding-window not given", NULL}},
        {"calc --model qwen2.5-7b --seq 8192 --context 9000", {"--context 9000", "8192", NULL}},
        {"calc --model qwen2.5-7b --params 7 --active-params 9", {"--active-params 9", NULL}},
        {"calc --layers 1048576 --kv-heads 1048576 --head-dim 1048576 --kv-dtype fp32",
         {"--head-dim 1048576", "overflow", NULL}},
        {"calc --model qwen2.5-7b --pp 64", {"--pp 64", NULL}},
        {"calc --model deepseek-v3 --pp 4 --pp-partition 20,20,21",
         {"--pp-partition 20,20,21", "len(partitions)=3 does not match pp_size=4", NULL}},
        {"calc --model deepseek-v3 --pp 3 --pp-partition 20,20,20",
         {"--pp-partition 20,20,20", "sum(partitions)=60 does not match num_hidden_layers=61"}},
        /* each fault named by the item at fault */
        {"calc --model deepseek-v3 --pp 2 --pp-partition 30,a",
         {"--pp-partition 30,a", "\"a\" is not a whole number", "Invalid partition string"}},
        {"calc --model deepseek-v3 --pp 2 --pp-partition 30,,31",
         {"--pp-partition 30,,31", "stage 2 is empty", "Invalid partition string"}},
        /* a number past 2^20 layers (KV_MAX_DIM, 1,048,576) is named with the
         * limit, not called "not a list" */
        {"calc --model deepseek-v3 --pp 2 --pp-partition 30,4000000000",
         {"4000000000 layers in stage 2: at most 1,048,576", NULL}},
        {"calc --model deepseek-v3 --pp 2 --pp-partition 30,99999999999999999999999",
         {"99999999999999999999999 layers in stage 2: at most 1,048,576", NULL}},
        /* 65 stages, one past KV_MAX_PP_STAGES */
        {"calc --model deepseek-v3 --pp 2 --pp-partition "
         "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,"
         "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1",
         {"lists more than 64 stages", NULL}},
        {"calc --model gemma-3-27b --pp 2 --pp-partition 31,31",
         {"--pp-partition 31,31", "sliding-window layers", NULL}},
        {"calc --model qwen2.5-7b --foo", {"--foo", "unknown flag", NULL}},
        {"calc --model qwen2.5-7b --vllm latest", {"--vllm latest", "not a vLLM version", NULL}},
        {"calc --model qwen2.5-7b --vllm 0", {"--vllm 0", NULL}},
        {"calc --model qwen2.5-7b --spec-method medusa", {"--spec-method medusa", "eagle", NULL}},
        {"calc --model qwen2.5-7b --spec-tokens 3", {"--spec-method", NULL}},
        {"calc --model qwen2.5-7b --spec-method mtp --spec-tokens 1", {"--spec-layers", NULL}},
        {"calc --model qwen2.5-7b --mamba-cache-mode some", {"--mamba-cache-mode some", NULL}},
        {"calc --model qwen2.5-7b --attention-backend FOO", {"--attention-backend FOO", NULL}},
        {"calc --model qwen2.5-7b --attention-backend flashmla",
         {"--attention-backend flashmla", "--mla-rank", NULL}},
        /* FlashInfer-MLA's kernels take 32 and 64 (get_supported_kernel_block_sizes):
         * a given 48 is a multiple of neither, and vLLM refuses the backend */
        {"calc --model deepseek-v3 --gpu b200 --attention-backend FLASHINFER_MLA --block-size 48",
         {"--block-size 48", "32 for FlashInfer-MLA", NULL}},
        /* FlashMLA's kernels take 64 only: a given 32 is refused (since
         * vllm#35122; before it, cuda.py forced 64) */
        {"calc --model deepseek-v3 --attention-backend FLASHMLA --block-size 32",
         {"--block-size 32", "64 tokens for FlashMLA", NULL}},
        {"calc --model qwen2.5-7b --kv-cache-memory-bytes 1.5G",
         {"--kv-cache-memory-bytes 1.5G", "decimals", NULL}},
        {"calc --model qwen2.5-7b --kv-cache-memory-bytes 8GiB", {"--kv-cache-memory-bytes", NULL}},
        {"calc --model qwen2.5-7b --kv-cache-memory-bytes 0", {"greater than 0", NULL}},
        {"calc --model qwen2.5-7b --kv-cache-memory-bytes 8G --kv-budget-gib 8",
         {"--kv-cache-memory-bytes", "--kv-budget-gib", NULL}},
        {"calc --model qwen2.5-7b --tp 2 --dcp 4", {"--dcp 4", "--tp 2", NULL}},
        {"calc --model qwen2.5-7b --kv-dtype fp8_ds_mla", {"--kv-dtype", NULL}},
        {"calc --model deepseek-v3 --kv-dtype fp8_ds_mla", {"fp8_ds_mla", "dense MLA", NULL}},
        {"calc --model qwen2.5-7b --tp", {"--tp needs a value", NULL}},
        {"calc --model qwen2.5-7b --json=yes", {"--json", NULL}},
        {"calc --config /nonexistent/config.json", {"/nonexistent/config.json", "No such", NULL}},
        {"calc --config /tmp", {"--config /tmp", "directory", NULL}},
        {"calc", {"no model", NULL}},
        {"calc --kv-heads 8", {"no model", NULL}},
        {"calc --layers 32", {"--kv-heads", NULL}},
        {"frobnicate", {"frobnicate", "unknown command", NULL}},
        {"models --bogus", {"--bogus", NULL}},
        {"gpus extra", {"extra", NULL}},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        struct run_result r = kvtutor(rows[i].args);
        if (r.status != 2)
            fail_msg("kvtutor %s: exit %d, want 2 (stderr: %s)", rows[i].args, r.status, r.err);
        if (run_count_lines(r.err) != 1)
            fail_msg("kvtutor %s: %zu lines on stderr: %s", rows[i].args, run_count_lines(r.err),
                     r.err);
        if (r.out_len != 0)
            fail_msg("kvtutor %s: printed to stdout on error", rows[i].args);
        for (int k = 0; k < 3 && rows[i].says[k]; k++)
            if (!strstr(r.err, rows[i].says[k]))
                fail_msg("kvtutor %s: \"%s\" not in: %s", rows[i].args, rows[i].says[k], r.err);
        run_free(&r);
    }
}

static void test_malformed_config_names_file_and_place(void **state)
{
    (void)state;
    char dir[] = "/tmp/kvt_cli_XXXXXX", path[256], args[512];
    FILE *f;
    struct run_result r;

    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/config.json", dir);
    f = fopen(path, "w");
    assert_non_null(f);
    fputs("{\n  \"num_hidden_layers\": 28,\n  \"num_attention_heads\": 28\n  \"x\": 1\n}\n", f);
    fclose(f);
    snprintf(args, sizeof args, "calc --config %s", path);
    r = kvtutor(args);
    assert_int_equal(r.status, 2);
    assert_int_equal(run_count_lines(r.err), 1);
    assert_non_null(strstr(r.err, path));
    assert_non_null(strstr(r.err, ":4:")); /* the line the comma is missing before */
    run_free(&r);

    f = fopen(path, "w");
    fputs("{\"num_attention_heads\": 28, \"head_dim\": 128}", f);
    fclose(f);
    r = kvtutor(args);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "num_hidden_layers is missing"));
    run_free(&r);
    unlink(path);
    rmdir(dir);
}

/* No byte of a config reaches the terminal raw: model_type and the
 * quantization method are echoed in calc's header, its notes and its JSON.
 * Checks every C0 control but newline, DEL, and the C1 controls (U+0080 to
 * U+009F; U+009B is a CSI). */
static void no_raw_controls(const char *what, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if ((*p < 0x20 && *p != '\n') || *p == 0x7f ||
            (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f))
            fail_msg("%s: raw control at %zu", what, (size_t)(p - (const unsigned char *)s));
}

static void test_config_echoed_inert(void **state)
{
    char dir[] = "/tmp/kvt_cli_XXXXXX", path[256], args[512];
    FILE *f;
    struct run_result r;
    (void)state;

    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/config.json", dir);
    f = fopen(path, "w");
    assert_non_null(f);
    /* an OSC title, a clear-screen, BEL and a C1 CSI (written as JSON escapes) */
    fputs("{\"model_type\": \"qwen3\\u001b]0;owned\\u0007\\u001b[2J\\u009b31m\", "
          "\"num_hidden_layers\": 28, \"num_attention_heads\": 28, \"num_key_value_heads\": 4, "
          "\"hidden_size\": 3584, \"torch_dtype\": \"bfloat16\", \"quantization_config\": "
          "{\"quant_method\": \"odd\\u001b[2J\\u009b\"}}\n",
          f);
    fclose(f);
    const char *extra[] = {"", " --json"};
    for (int k = 0; k < 2; k++) {
        snprintf(args, sizeof args, "calc --config %s --params 7.6 --gpu h100%s", path, extra[k]);
        r = kvtutor(args);
        if (r.status != 0)
            fail_msg("%s: exit %d: %s", args, r.status, r.err);
        no_raw_controls("stdout", r.out);
        no_raw_controls("stderr", r.err);
        assert_non_null(strstr(r.out, k ? "qwen3\\\\x1b]0;owned" : "qwen3\\x1b]0;owned"));
        run_free(&r);
    }
    unlink(path);
    rmdir(dir);
}

static void test_vllm_release(void **state)
{
    (void)state;
    json_t *j;

    /* the default release and its util: 25,769,803,776 B x 0.92 = 23,708,219,473.92,
     * floored; less 15,231,233,024 B of weights = 8,476,986,449 B; / 917,504 B a
     * block = 9,239 blocks */
    j = calc_json("--model qwen2.5-7b --gpu rtx4090 --seq 8192");
    assert_string_equal(json_string_value(json_object_get(j, "vllm_version")), "0.26.0");
    assert_true(json_real_value(json_object_get(j, "gpu_memory_utilization")) == 0.92);
    assert_int_equal(jint(j, "kv_budget_bytes"), 23708219473ll - 15231233024ll);
    assert_int_equal(jint(j, "num_gpu_blocks"), 9239);
    assert_true(json_is_array(json_object_get(j, "notes")));
    json_decref(j);
    /* 0.19 takes 0.9: 23,192,823,398 - 15,231,233,024 = 7,961,590,374 B */
    j = calc_json("--model qwen2.5-7b --gpu rtx4090 --seq 8192 --vllm v0.19.0rc1");
    assert_string_equal(json_string_value(json_object_get(j, "vllm_version")), "0.19.0");
    assert_int_equal(jint(j, "kv_budget_bytes"), 23192823398ll - 15231233024ll);
    json_decref(j);
    /* a release between the evidence says so: 0.22 takes 0.9, with a note */
    j = calc_json("--model qwen2.5-7b --gpu rtx4090 --seq 8192 --vllm 0.22.0");
    assert_int_equal(jint(j, "kv_budget_bytes"), 23192823398ll - 15231233024ll);
    assert_true(json_array_size(json_object_get(j, "notes")) >= 1);
    json_decref(j);
    /* --gpu-memory-utilization, vLLM's own name, is --util */
    j = calc_json("--model qwen2.5-7b --gpu rtx4090 --seq 8192 --gpu-memory-utilization 1");
    assert_int_equal(jint(j, "kv_budget_bytes"), 24 * 1073741824ll - 15231233024ll);
    json_decref(j);
}

static void test_engine_flags(void **state)
{
    (void)state;
    json_t *j;

    /* --kv-cache-memory-bytes as vLLM's human_readable_int reads it:
     * upper-case binary, lower-case decimal, decimals with decimal suffixes */
    j = calc_json("--model qwen2.5-7b --seq 8192 --kv-cache-memory-bytes 8G");
    assert_int_equal(jint(j, "kv_budget_bytes"), 8589934592ll);
    /* 8,589,934,592 / 917,504 = 9,362 blocks */
    assert_int_equal(jint(j, "num_gpu_blocks"), 9362);
    json_decref(j);
    j = calc_json("--model qwen2.5-7b --seq 8192 --kv-cache-memory-bytes 8g");
    assert_int_equal(jint(j, "kv_budget_bytes"), 8000000000ll);
    json_decref(j);
    j = calc_json("--model qwen2.5-7b --seq 8192 --kv-cache-memory-bytes 25.6k");
    assert_int_equal(jint(j, "kv_budget_bytes"), 25600);
    json_decref(j);
    j = calc_json("--model qwen2.5-7b --seq 8192 --kv-cache-memory 1073741824");
    assert_int_equal(jint(j, "kv_budget_bytes"), 1073741824ll);
    json_decref(j);

    /* int8 is kept for teaching, and the output says vLLM has no such cache */
    j = calc_json("--model qwen2.5-7b --seq 8192 --kv-budget-gib 10 --kv-dtype int8");
    assert_true(json_array_size(json_object_get(j, "notes")) == 1);
    assert_non_null(strstr(json_string_value(json_array_get(json_object_get(j, "notes"), 0)),
                           "no such kv_cache_dtype"));
    json_decref(j);

    /* the override sets the blocks whatever the memory */
    j = calc_json("--model qwen2.5-7b --seq 8192 --num-gpu-blocks-override 1024");
    assert_int_equal(jint(j, "num_gpu_blocks"), 1024);
    /* 1,024 / 512 blocks a request = 2 */
    assert_int_equal(jint(j, "max_concurrent_seqs"), 2);
    json_decref(j);

    /* a hybrid from its config: Qwen3.5-27B at 0.19 on the block count row h06
     * implies (vllm-logs-2x-public.tsv): 290,864 tokens, 33.04x. A GDN layer:
     * conv (16 x 128 x 2 + 48 x 128 = 10,240) x 3 x 2 B = 61,440 B + SSM 48 x
     * 128 x 128 x 4 B = 3,145,728 B = 3,207,168 B; attention 2 x 4 x 256 x 2 =
     * 4,096 B a token: 16 x ceil(3,207,168 / 65,536) = 784 tokens; 16 + 48
     * layers: 1 + 3 groups; floor(1,487 / 4) x 784 = 290,864 */
    {
        char args[512];
        const char *dir = getenv("KVT_FIXTURES");
        snprintf(args, sizeof args,
                 "--config %s/configs/qwen3.5-27b.config.json --vllm 0.19.0 --seq 32768 "
                 "--num-gpu-blocks-override 1487",
                 dir ? dir : "fixtures");
        j = calc_json(args);
        assert_int_equal(jint(j, "kv_tokens"), 290864);
        assert_int_equal(jint(j, "kv_cache_groups"), 4);
        assert_int_equal(jint(j, "attention_block_size"), 784);
        assert_int_equal(jint(j, "state_bytes_per_request"), 48 * 3207168ll);
        assert_string_equal(json_string_value(json_object_get(j, "mamba_cache_mode")), "none");
        json_decref(j);
    }
    /* the block vLLM grows to is written as a count, grouped like the rest:
     * Qwen3.6-35B-A3B with an fp8 cache, row h01 (vllm-logs-2x-public.tsv),
     * whose log says "Setting attention block size to 2096 tokens" */
    {
        char args[512];
        const char *dir = getenv("KVT_FIXTURES");
        snprintf(args, sizeof args,
                 "calc --config %s/configs/qwen3.5-35b-a3b.config.json --kv-dtype fp8 "
                 "--seq 131072 --gpu-mem-gib 80",
                 dir ? dir : "fixtures");
        struct run_result r = kvtutor(args);
        assert_int_equal(r.status, 0);
        if (!strstr(r.out, "2,096 tokens to hold it") || !strstr(r.out, "vLLM page: 2,096 tokens"))
            fail_msg("%s", r.out);
        run_free(&r);
    }
}

static void test_help_and_version(void **state)
{
    (void)state;
    static const char *const helps[] = {"--help", "calc --help", "models --help", "gpus --help"};
    struct run_result r;

    for (size_t i = 0; i < sizeof helps / sizeof helps[0]; i++) {
        r = kvtutor(helps[i]);
        if (r.status != 0 || !strstr(r.out, "usage: kvtutor"))
            fail_msg("kvtutor %s: exit %d", helps[i], r.status);
        run_free(&r);
    }
    r = kvtutor("calc --help");
    /* every contract flag is documented */
    assert_non_null(strstr(r.out, "--max-model-len, --seq"));
    assert_non_null(strstr(r.out, "--kv-budget-gib"));
    assert_non_null(strstr(r.out, "--mla-rope-dim"));
    run_free(&r);
    r = kvtutor("--version");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "kvtutor 0."));
    assert_non_null(strstr(r.out, "GPU probes"));
    run_free(&r);
    r = kvtutor("");
    assert_int_equal(r.status, 2);
    run_free(&r);
}

/* The tables fit 80 columns, each column lined up under its heading: every
 * row of figures ends where the heading line ends (right-aligned last
 * column), and no line is wider than 80. */
static void check_table(const char *out)
{
    const char *line = out, *end;
    size_t head = strcspn(out, "\n");

    assert_true(head <= 80);
    for (; *line && *line != '\n'; line = end + 1) {
        end = strchr(line, '\n');
        assert_non_null(end);
        if ((size_t)(end - line) > 80)
            fail_msg("a line of %zu columns: %.*s", (size_t)(end - line), (int)(end - line), line);
        if (line[0] != ' ' && (size_t)(end - line) != head)
            fail_msg("not aligned with the heading: %.*s", (int)(end - line), line);
    }
    for (; *line; line = end + 1) { /* the notes under the table */
        end = strchr(line, '\n');
        if (!end)
            break;
        if ((size_t)(end - line) > 80)
            fail_msg("a note line of %zu columns", (size_t)(end - line));
    }
}

static void test_listings(void **state)
{
    (void)state;
    struct run_result r = kvtutor("models");
    json_error_t err;
    json_t *j;

    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "qwen2.5-7b"));
    assert_non_null(strstr(r.out, "Qwen/Qwen2.5-7B-Instruct"));
    check_table(r.out);
    /* MoE: total and active, three significant digits (30,532,122,624 and
     * 3,353,032,704 parameters; gpt-oss-120b 116,829,156,672 and 5,711,982,912) */
    assert_non_null(strstr(r.out, "   30.5B   3.35B "));
    assert_non_null(strstr(r.out, "    117B   5.71B "));
    /* dense: every parameter is active (7,615,616,512) */
    assert_non_null(strstr(r.out, "   7.62B   7.62B "));
    run_free(&r);
    r = kvtutor("gpus");
    assert_int_equal(r.status, 0);
    check_table(r.out);
    /* data-sheet figures as published, grouped: the B200's 8,000 GB/s and
     * 2,250 TFLOP/s, 126.5 MiB of L2 */
    assert_non_null(strstr(r.out, "8,000        2,250   126.5"));
    run_free(&r);
    r = kvtutor("models --json");
    j = json_loads(r.out, 0, &err);
    assert_non_null(j);
    /* every row of model-presets.tsv and the three presets from fixtures/configs */
    assert_int_equal(json_array_size(j), 25 + 3);
    json_decref(j);
    run_free(&r);
    r = kvtutor("gpus --json");
    j = json_loads(r.out, 0, &err);
    assert_non_null(j);
    assert_int_equal(json_array_size(j), 18); /* every row of gpus.tsv */
    json_decref(j);
    run_free(&r);
}

static void test_same_numbers_in_any_locale(void **state)
{
    (void)state;
    /* Flags are read and figures printed the same whatever the locale says
     * about decimal commas. */
    char *argv[] = {(char *)run_kvtutor_path(),
                    "calc",
                    "--json",
                    "--model",
                    "qwen2.5-7b",
                    "--gpu-mem-gib",
                    "23.58",
                    "--util",
                    "0.9",
                    NULL};
    char *c_env[] = {"LC_ALL=C", NULL}, *de_env[] = {"LC_ALL=de_DE.UTF-8", NULL};
    struct run_result a, b;

    assert_int_equal(run_cmd(argv, c_env, &a), 0);
    assert_int_equal(run_cmd(argv, de_env, &b), 0);
    assert_int_equal(a.status, 0);
    assert_int_equal(b.status, 0);
    assert_string_equal(a.out, b.out);
    assert_non_null(strstr(a.out, "."));
    run_free(&a);
    run_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_example_json),
        cmocka_unit_test(test_seed_example_human),
        cmocka_unit_test(test_decode_ceiling_hand_arithmetic),
        cmocka_unit_test(test_human_figures_read_well),
        cmocka_unit_test(test_human_output_fits_80_columns),
        cmocka_unit_test(test_json_without_float_noise),
        cmocka_unit_test(test_decode_ceiling_is_the_lower),
        cmocka_unit_test(test_weights_do_not_fit_is_a_result),
        cmocka_unit_test(test_state_dtypes_shown),
        cmocka_unit_test(test_flags_override_preset),
        cmocka_unit_test(test_max_model_len_past_the_positions),
        cmocka_unit_test(test_full_length_ceiling_beside_the_headline),
        cmocka_unit_test(test_config_file),
        cmocka_unit_test(test_bad_input_one_line_exit_2),
        cmocka_unit_test(test_malformed_config_names_file_and_place),
        cmocka_unit_test(test_config_echoed_inert),
        cmocka_unit_test(test_vllm_release),
        cmocka_unit_test(test_engine_flags),
        cmocka_unit_test(test_help_and_version),
        cmocka_unit_test(test_listings),
        cmocka_unit_test(test_same_numbers_in_any_locale),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
