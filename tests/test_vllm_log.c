/* The vLLM log reader and the explanation, in-process: what is found in logs
 * of each format (tests/fixtures/vllm-logs, built from the public fixture
 * rows), the Python reprs of the argument lines, and the verdicts the
 * calculator reaches on them. Expected figures come from the fixture rows
 * and the arithmetic in the comments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kv_presets.h"
#include "vllm_explain.h"
#include "vllm_log.h"

static char *slurp(const char *name, size_t *len)
{
    char path[1024];
    const char *dir = getenv("KVT_FIXTURES");
    FILE *f;
    char *buf;
    long n;

    snprintf(path, sizeof path, "%s/vllm-logs/%s", dir ? dir : "tests/fixtures", name);
    f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return buf;
}

static struct vllm_log *parse_file(const char *name)
{
    size_t len;
    char *text = slurp(name, &len);
    struct vllm_log *log = calloc(1, sizeof *log);
    assert_non_null(log);
    vllm_log_parse(text, len, log);
    free(text);
    return log;
}

static struct vllm_log *parse_text(const char *text)
{
    struct vllm_log *log = calloc(1, sizeof *log);
    assert_non_null(log);
    vllm_log_parse(text, strlen(text), log);
    return log;
}

static const struct vllm_line *line_of(const struct vllm_log *log, enum vllm_line_kind k)
{
    for (size_t i = 0; i < log->n_lines; i++)
        if (log->lines[i].kind == k)
            return &log->lines[i];
    fail_msg("no %s line", vllm_line_kind_name(k));
    return NULL;
}

/* ---- the parser ---- */

static void test_two_line_format(void **state)
{
    (void)state;
    /* r044: vLLM 0.19.0, Llama-3.1-8B, 58.11 GiB, 476,016 tokens, 58.11x at 8,192 */
    struct vllm_log *log = parse_file("v0.19.0-r044-llama-3.1-8b.log");
    const struct vllm_line *t = line_of(log, VLLM_LINE_KV_TOKENS);
    const struct vllm_line *c = line_of(log, VLLM_LINE_CONCURRENCY);

    assert_string_equal(log->version, "0.19.0");
    assert_true(log->engine_v1);
    assert_string_equal(log->args.model, "meta-llama/Llama-3.1-8B-Instruct");
    assert_int_equal(log->args.max_model_len, 8192);
    assert_int_equal(log->max_model_len_src, VLLM_SRC_ENGINE);
    assert_int_equal(log->args.tp, 1);
    assert_int_equal(log->args.prefix_caching, 1);
    assert_string_equal(log->args.kv_cache_dtype, "auto");
    assert_string_equal(log->args.dtype, "bfloat16");
    assert_int_equal(log->n_lines, 3);
    assert_float_equal(line_of(log, VLLM_LINE_KV_MEMORY)->value, 58.11, 1e-9);
    assert_int_equal(t->count, 476016);
    assert_false(t->one_line);
    assert_int_equal(c->per_request, 8192);
    assert_float_equal(c->value, 58.11, 1e-9);
    assert_int_equal(t->line_no, 8);
    assert_int_equal(c->line_no, 9);
    free(log);
}

static void test_one_line_format(void **state)
{
    (void)state;
    struct vllm_log *log = parse_file("one-line-r044-llama-3.1-8b.log");
    const struct vllm_line *t = line_of(log, VLLM_LINE_KV_TOKENS);
    const struct vllm_line *c = line_of(log, VLLM_LINE_CONCURRENCY);

    /* the version and model from the logo lines, the args and the engine line */
    assert_string_equal(log->version, "0.26.0");
    assert_string_equal(log->args.model, "meta-llama/Llama-3.1-8B-Instruct");
    assert_float_equal(log->args.gpu_memory_utilization, 0.9, 1e-12);
    assert_true(t->one_line && c->one_line);
    assert_int_equal(t->line_no, c->line_no);
    assert_int_equal(t->count, 476016);
    assert_int_equal(c->per_request, 8192);
    free(log);
}

/* The logo's version and model, where no other line states them, as 0.24's
 * banner prints them ("█  version 0.24.0", "█  model   NAME"); a real 0.24
 * log, whose engine line states the same version, has no note about two
 * versions (it read "vLLM n at line 2" from "version", past a 3-byte "█"). */
static void test_logo_lines(void **state)
{
    (void)state;
    struct vllm_log *log = parse_text(
        "INFO 07-06 10:00:01 [utils.py:299]  \xe2\x96\x84\xe2\x96\x84 \xe2\x96\x88  version "
        "0.24.0\n"
        "INFO 07-06 10:00:01 [utils.py:299]   \xe2\x96\x88  model   Qwen/Qwen3-8B\n"
        "INFO 07-06 10:00:52 [kv_cache_utils.py:2146] GPU KV cache size: 476,016 tokens\n");
    assert_string_equal(log->version, "0.24.0");
    assert_string_equal(log->args.model, "Qwen/Qwen3-8B");
    free(log);
    log = parse_file("v0.24.0-r044-llama-3.1-8b.log");
    assert_string_equal(log->version, "0.24.0");
    for (size_t i = 0; i < log->n_problems; i++)
        fail_msg("line %zu: %s", log->problems[i].line_no, log->problems[i].what);
    free(log);
}

static void test_hybrid_lines(void **state)
{
    (void)state;
    struct vllm_log *h01 = parse_file("v0.24.0-h01-qwen3.6-35b-a3b.log");
    struct vllm_log *h06 = parse_file("v0.19.0-h06-qwen3.5-27b.log");

    assert_int_equal(line_of(h01, VLLM_LINE_ATTN_BLOCK)->count, 2096);
    assert_string_equal(h01->args.mamba_cache_mode, "align");
    assert_string_equal(h01->args.kv_cache_dtype, "fp8");
    assert_int_equal(line_of(h01, VLLM_LINE_KV_TOKENS)->count, 567978);
    assert_int_equal(line_of(h01, VLLM_LINE_CONCURRENCY)->per_request, 131072);

    assert_int_equal(line_of(h06, VLLM_LINE_ATTN_BLOCK)->count, 784);
    assert_float_equal(line_of(h06, VLLM_LINE_MAMBA_PAD)->value, 0.13, 1e-12);
    assert_int_equal(line_of(h06, VLLM_LINE_KV_TOKENS)->count, 290864);
    assert_float_equal(line_of(h06, VLLM_LINE_CONCURRENCY)->value, 33.04, 1e-12);
    assert_int_equal(h06->args.prefix_caching, 0);
    free(h01);
    free(h06);
}

static void test_v0_format(void **state)
{
    (void)state;
    struct vllm_log *log = parse_file("v0.6.4-r001-llama-3.1-8b.log");

    assert_string_equal(log->version, "0.6.4.post1");
    assert_true(log->engine_v0);
    assert_int_equal(log->args.block_size, 16);
    assert_int_equal(log->args.prefix_caching, 0);
    assert_false(log->args.spec); /* speculative_model=None */
    assert_float_equal(line_of(log, VLLM_LINE_KV_MEMORY)->value, 3.81, 1e-12);
    assert_int_equal(line_of(log, VLLM_LINE_GPU_BLOCKS)->count, 1952);
    assert_int_equal(line_of(log, VLLM_LINE_CONCURRENCY)->per_request, 20000);
    free(log);
}

static void test_speculative_config(void **state)
{
    (void)state;
    struct vllm_log *log = parse_file("v0.9.1-h07-llama-3.1-8b-eagle.log");

    assert_true(log->args.spec);
    assert_string_equal(log->args.spec_method, "eagle");
    assert_string_equal(log->args.spec_model, "yuhuili/EAGLE-LLaMA3.1-Instruct-8B");
    assert_int_equal(log->args.spec_tokens, 3);
    free(log);
}

/* The argument dict is Python's repr: quotes of either kind, escapes,
 * nested containers holding the characters that end a value, True/False/None. */
static void test_python_repr(void **state)
{
    (void)state;
    struct vllm_log *log = parse_text(
        "INFO non-default args: {'served_model_name': ['a, b', 'c'], 'model': \"it's/m\\\\x\", "
        "'kv_transfer_config': {'x': '}', 'y': {'z': ')'}}, 'tool': <Enum.A: 3>, "
        "'max_model_len': 4096, 'enable_prefix_caching': False, 'block_size': 32, "
        "'speculative_config': {'method': 'mtp', 'num_speculative_tokens': 2}, "
        "'kv_cache_dtype': '\\x66p8', 'tensor_parallel_size': 4, 'gpu_memory_utilization': 0.85}\n"
        "INFO Available KV cache memory: 10.5 GiB\n");

    assert_string_equal(log->args.model, "it's/m\\x");
    assert_int_equal(log->args.max_model_len, 4096);
    assert_int_equal(log->max_model_len_src, VLLM_SRC_ARGS);
    assert_int_equal(log->args.prefix_caching, 0);
    assert_int_equal(log->args.block_size, 32);
    assert_true(log->args.spec);
    assert_string_equal(log->args.spec_method, "mtp");
    assert_int_equal(log->args.spec_tokens, 2);
    assert_string_equal(log->args.kv_cache_dtype, "fp8"); /* \x66 is 'f' */
    assert_int_equal(log->args.tp, 4);
    assert_float_equal(log->args.gpu_memory_utilization, 0.85, 1e-12);
    assert_int_equal(log->n_lines, 1);
    free(log);
}

/* A zero the log prints is a figure: the argument is given (its bit set),
 * and from a later source it replaces an earlier one's value. Before, 0.0
 * and 0 read as "not said", and the earlier source's figure stood. */
static void test_logged_zero_is_given(void **state)
{
    (void)state;
    struct vllm_log *log =
        parse_text("INFO non-default args: {'model': 'a', "
                   "'gpu_memory_utilization': 0.0, 'kv_cache_memory_bytes': 0}\n");
    assert_true(log->args.given & VLLM_GIVEN_GPU_MEMORY_UTILIZATION);
    assert_true(log->args.gpu_memory_utilization == 0.0);
    assert_true(log->args.given & VLLM_GIVEN_KV_CACHE_MEMORY_BYTES);
    assert_int_equal(log->args.kv_cache_memory_bytes, 0);
    /* what the log does not name stays not given */
    assert_false(log->args.given & VLLM_GIVEN_BLOCK_SIZE);
    assert_false(log->args.given & VLLM_GIVEN_NUM_GPU_BLOCKS_OVERRIDE);
    free(log);

    /* the engine's 0.0 over the arguments' 0.9 */
    log = parse_text("INFO non-default args: {'gpu_memory_utilization': 0.9}\n"
                     "INFO Initializing a V1 LLM engine (v0.10.0) with config: model='b', "
                     "gpu_memory_utilization=0.0, num_gpu_blocks_override=0\n");
    assert_true(log->args.given & VLLM_GIVEN_GPU_MEMORY_UTILIZATION);
    assert_true(log->args.gpu_memory_utilization == 0.0);
    assert_true(log->args.given & VLLM_GIVEN_NUM_GPU_BLOCKS_OVERRIDE);
    free(log);

    /* and a source that does not say leaves the earlier figure */
    log = parse_text("INFO non-default args: {'gpu_memory_utilization': 0.85}\n"
                     "INFO Initializing a V1 LLM engine (v0.10.0) with config: model='b'\n");
    assert_true(log->args.gpu_memory_utilization == 0.85);
    free(log);
}

/* Commas group thousands only: "58,11" is no 5,811 (a decimal comma), and a
 * figure that cannot be read is a problem of its line, not a missing line. */
static void test_figures_strict(void **state)
{
    (void)state;
    struct vllm_log *log = parse_text("INFO GPU KV cache size: 1,505,552 tokens\n"
                                      "INFO Available KV cache memory: 58,11 GiB\n"
                                      "INFO GPU KV cache size: 12,34 tokens\n"
                                      "INFO non-default args: {'tensor_parallel_size': 0, "
                                      "'block_size': None}\n");
    assert_int_equal(log->n_lines, 1);
    assert_int_equal(log->lines[0].count, 1505552);
    assert_int_equal(log->n_errors, 3);
    assert_int_equal(log->n_problems, 3);
    assert_int_equal(log->problems[0].line_no, 2);
    assert_non_null(strstr(log->problems[0].what, "'58,11'"));
    assert_int_equal(log->problems[1].line_no, 3);
    assert_non_null(strstr(log->problems[1].what, "'12,34'"));
    assert_string_equal(
        log->problems[2].what,
        "tensor_parallel_size 0: not a number of GPUs (a whole number, at least 1)");
    assert_int_equal(log->problems[2].line_no, 4);
    /* None is vLLM's "not set", not a bad value */
    assert_false(log->args.given & VLLM_GIVEN_BLOCK_SIZE);
    assert_false(log->args.given & VLLM_GIVEN_TP);
    free(log);
}

/* Start-ups told apart by order: a banner or arguments line after an engine
 * or capacity line starts a run; the same engine line again (a data-parallel
 * rank's) does not, another model's or version's does. */
static void test_runs_split(void **state)
{
    static const char dp[] =
        "INFO vLLM API server version 0.19.0\n"
        "(EngineCore_DP0) INFO Initializing a V1 LLM engine (v0.19.0) with config: model='a'\n"
        "(EngineCore_DP1) INFO Initializing a V1 LLM engine (v0.19.0) with config: model='a'\n"
        "(EngineCore_DP0) INFO GPU KV cache size: 100 tokens\n"
        "(EngineCore_DP1) INFO Initializing a V1 LLM engine (v0.19.0) with config: model='a'\n"
        "(EngineCore_DP1) INFO GPU KV cache size: 100 tokens\n";
    static const char two[] = "INFO Initializing a V1 LLM engine (v0.19.0) with config: model='a'\n"
                              "INFO GPU KV cache size: 100 tokens\n"
                              "INFO Initializing a V1 LLM engine (v0.24.0) with config: model='b'\n"
                              "INFO GPU KV cache size: 200 tokens\n"
                              "INFO non-default args: {'model': 'c'}\n"
                              "INFO GPU KV cache size: 300 tokens\n";
    struct vllm_run runs[4];
    struct vllm_log *log = calloc(1, sizeof *log);
    size_t merged;
    (void)state;

    assert_int_equal(vllm_log_runs(dp, strlen(dp), runs, 4, &merged), 1);
    assert_int_equal(runs[0].last_line, 6);
    assert_int_equal(vllm_log_runs(two, strlen(two), runs, 4, &merged), 3);
    assert_int_equal(runs[1].first_line, 3);
    assert_int_equal(runs[2].first_line, 5);
    assert_int_equal(runs[2].last_line, 6);
    vllm_log_parse_run(two, &runs[1], log);
    assert_string_equal(log->version, "0.24.0");
    assert_string_equal(log->args.model, "b");
    assert_int_equal(log->n_lines, 1);
    assert_int_equal(log->lines[0].line_no, 4);
    assert_int_equal(log->lines[0].count, 200);
    assert_int_equal(log->total_lines, 2);
    /* past the cap, the rest joins the last run */
    assert_int_equal(vllm_log_runs(two, strlen(two), runs, 2, &merged), 2);
    assert_int_equal(merged, 1);
    assert_int_equal(runs[1].last_line, 6);
    free(log);
}

/* The engine's resolved config wins over the arguments, which win over other lines. */
static void test_sources_priority(void **state)
{
    (void)state;
    struct vllm_log *log = parse_text(
        "INFO Using max model len 1000\n"
        "INFO non-default args: {'max_model_len': 2000, 'model': 'a'}\n"
        "INFO Initializing a V1 LLM engine (v0.10.0) with config: model='b', max_seq_len=3000\n");
    assert_int_equal(log->args.max_model_len, 3000);
    assert_int_equal(log->max_model_len_src, VLLM_SRC_ENGINE);
    assert_string_equal(log->args.model, "b");
    assert_string_equal(log->version, "0.10.0");
    free(log);

    log = parse_text("INFO Using max model len 1000\nINFO Available KV cache memory: 1 GiB\n");
    assert_int_equal(log->args.max_model_len, 1000);
    assert_int_equal(log->max_model_len_src, VLLM_SRC_LINE);
    free(log);
}

/* Broken or hostile text: nothing is read past the end, nothing crashes,
 * figures that do not parse are not kept. */
static void test_malformed(void **state)
{
    static const char *const cases[] = {
        "non-default args: {'model': 'x",
        "non-default args: {'model",
        "non-default args: {",
        "non-default args: {'a': {'b': {'c': [[[[(((",
        "non-default args: {'model': 'a\\",
        "with config: model=",
        "Initializing a V1 LLM engine (v",
        "GPU KV cache size: tokens",
        "GPU KV cache size: 99999999999999999999999 tokens",
        "Maximum concurrency for 8,192 tokens per request: x",
        "Maximum concurrency for ,8 tokens per request: 1.0x",
        "Available KV cache memory: GiB",
        "Setting attention block size to -4 tokens",
        "\xe2\x96\x88  version ",
        "",
    };
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t n = strlen(cases[i]);
        char *copy = malloc(n ? n : 1); /* exactly n bytes: ASan sees any read past them */
        struct vllm_log *log = calloc(1, sizeof *log);
        assert_non_null(copy);
        memcpy(copy, cases[i], n);
        vllm_log_parse(copy, n, log);
        assert_int_equal(log->n_lines, 0);
        free(copy);
        free(log);
    }
}

static void test_many_lines_are_counted(void **state)
{
    char *text = malloc(100 * 40 + 1);
    struct vllm_log *log = calloc(1, sizeof *log);
    (void)state;
    assert_non_null(text);
    text[0] = '\0';
    for (int i = 0; i < 100; i++)
        strcat(text, "GPU KV cache size: 1,000 tokens\n");
    vllm_log_parse(text, strlen(text), log);
    assert_int_equal(log->n_lines, VLLM_LOG_MAX_LINES);
    assert_int_equal(log->lines_dropped, 100 - VLLM_LOG_MAX_LINES);
    assert_int_equal(log->total_lines, 100);
    free(text);
    free(log);
}

static void test_check_text(void **state)
{
    static const char colour[] = "\x1b[32mINFO\x1b[0m GPU KV cache size: 1 tokens\r\n";
    static const char nul[] = "GPU KV cache size: 1 tokens\0 more";
    static const char noise[] = "\x01\x02\x03\x04\x05\x06\x07\x08"
                                "abcdefgh";
    size_t where = 0;
    (void)state;
    assert_int_equal(vllm_log_check_text(colour, sizeof colour - 1, NULL), VLLM_TEXT_OK);
    assert_int_equal(vllm_log_check_text(nul, sizeof nul - 1, &where), VLLM_TEXT_BINARY);
    assert_int_equal(where, 27);
    assert_int_equal(vllm_log_check_text(noise, sizeof noise - 1, NULL), VLLM_TEXT_BINARY);
    assert_int_equal(vllm_log_check_text("", VLLM_LOG_MAX_BYTES + 1, NULL), VLLM_TEXT_TOO_LARGE);
}

/* Every kind has its JSON name (a missing one once dropped the key). */
static void test_kind_names(void **state)
{
    (void)state;
    for (int k = 0; k < VLLM_LINE__COUNT; k++)
        assert_string_not_equal(vllm_line_kind_name((enum vllm_line_kind)k), "?");
    assert_string_equal(vllm_line_kind_name(VLLM_LINE_PAD_LAYERS), "padding_layers");
    assert_string_equal(vllm_line_kind_name(VLLM_LINE__COUNT), "?");
}

/* ---- the explanation ---- */

static struct vllm_explain *explain(const struct vllm_log *log, const char *preset)
{
    const struct kv_model_preset *p = kv_model_preset_find(preset);
    struct vllm_explain *ex = calloc(1, sizeof *ex);
    assert_non_null(p);
    assert_non_null(ex);
    assert_int_equal(vllm_explain(log, &p->model, false, ex, NULL), KVT_E_OK);
    return ex;
}

static const struct vllm_verdict *verdict(const struct vllm_explain *ex, enum vllm_line_kind k)
{
    for (size_t i = 0; i < ex->n; i++)
        if (ex->v[i].line->kind == k)
            return &ex->v[i];
    fail_msg("no %s verdict", vllm_line_kind_name(k));
    return NULL;
}

static void test_explain_two_line(void **state)
{
    (void)state;
    /* Llama-3.1-8B, bf16: 16 tokens x 2 x 8 heads x 128 x 2 B x 32 layers = 2 MiB a
     * block. 58.105 GiB = 29,749.76 blocks, 58.115 GiB = 29,754.88: 29,749 to
     * 29,754 blocks, x 16 = 475,984 to 476,064 tokens (476,016 logged); / 512
     * blocks a request (8,192 / 16) = 58.10 to 58.11 (58.11 logged). */
    struct vllm_log *log = parse_file("v0.19.0-r044-llama-3.1-8b.log");
    struct vllm_explain *ex = explain(log, "llama-3.1-8b");
    const struct vllm_verdict *t = verdict(ex, VLLM_LINE_KV_TOKENS);
    const struct vllm_verdict *c = verdict(ex, VLLM_LINE_CONCURRENCY);
    const struct vllm_verdict *m = verdict(ex, VLLM_LINE_KV_MEMORY);

    assert_string_equal(ex->blocked, "");
    assert_int_equal(t->match, VLLM_MATCH_YES);
    assert_float_equal(t->computed_lo, 475984, 0);
    assert_float_equal(t->computed_hi, 476064, 0);
    assert_int_equal(c->match, VLLM_MATCH_YES);
    assert_float_equal(c->computed_lo, 29749.0 / 512, 1e-12);
    assert_float_equal(c->computed_hi, 29754.0 / 512, 1e-12);
    assert_int_equal(m->match, VLLM_MATCH_UNCHECKED);
    assert_false(m->has_computed);
    assert_int_equal(ex->matched, 2);
    /* what would change it, each recomputed: fp8 halves the page (2 x 58.11 = 116.22),
     * and half the length needs half the blocks */
    assert_non_null(
        strstr(c->change, "--kv-cache-dtype fp8 (1 B an element instead of 2): 116.22x"));
    assert_non_null(strstr(c->change, "--max-model-len 4096: 116.22x"));
    assert_non_null(strstr(c->how, "29,752 blocks"));
    free(ex);
    free(log);
}

/* A figure that the calculator does not reach is reported as a mismatch. */
static void test_explain_mismatch(void **state)
{
    (void)state;
    struct vllm_log *log = parse_text(
        "INFO non-default args: {'model': 'meta-llama/Llama-3.1-8B-Instruct', 'max_model_len': "
        "8192}\nINFO Available KV cache memory: 58.11 GiB\n"
        "INFO GPU KV cache size: 400,000 tokens\n"
        "INFO Maximum concurrency for 8,192 tokens per request: 58.50x\n");
    struct vllm_explain *ex = explain(log, "llama-3.1-8b");

    assert_int_equal(verdict(ex, VLLM_LINE_KV_TOKENS)->match, VLLM_MATCH_NO);
    assert_int_equal(verdict(ex, VLLM_LINE_CONCURRENCY)->match, VLLM_MATCH_NO);
    assert_int_equal(ex->mismatched, 2);
    free(ex);
    free(log);
}

/* The two sizes vLLM has printed differ when max_model_len is not a whole
 * number of blocks. At 58.11 GiB (29,749 to 29,754 blocks, 29,752 at the
 * printed figure) and 20,001 tokens (ceil(20,001 / 16) = 1,251 blocks):
 *   from 0.20.1: int(29,752 / 1,251 x 20,001) = 475,675 (475,627 to 475,707)
 *   to 0.19:     29,752 x 16 = 476,032 (475,984 to 476,064)
 * The release decides, not whether the size shares a line with the
 * concurrency: 0.24.0 prints the new size on a line of its own. */
static void test_explain_token_rules(void **state)
{
    static const struct {
        const char *version; /* "" = not said: the default rules (0.26.0) */
        bool one_line;
        double computed;
        enum vllm_match match;
    } rows[] = {
        {"", true, 475675, VLLM_MATCH_YES},
        {"0.24.0", false, 475675, VLLM_MATCH_YES},
        {"0.19.0", false, 476032, VLLM_MATCH_NO},
    };
    (void)state;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char text[600] = "";
        struct vllm_log *log;
        struct vllm_explain *ex;
        const struct vllm_verdict *t;

        if (rows[i].version[0])
            snprintf(text, sizeof text, "INFO vLLM API server version %s\n", rows[i].version);
        strcat(text, "INFO non-default args: {'model': 'meta-llama/Llama-3.1-8B-Instruct'}\n"
                     "INFO Available KV cache memory: 58.11 GiB\n"
                     "INFO GPU KV cache size: 475,675 tokens");
        strcat(text, rows[i].one_line ? ", " : "\nINFO ");
        strcat(text, "Maximum concurrency for 20,001 tokens per request: 23.78x\n");
        log = parse_text(text);
        ex = explain(log, "llama-3.1-8b");
        t = verdict(ex, VLLM_LINE_KV_TOKENS);
        if (t->match != rows[i].match || t->computed != rows[i].computed)
            fail_msg("row %zu: computed %.0f, match %d", i, t->computed, t->match);
        if (rows[i].match == VLLM_MATCH_YES) {
            assert_float_equal(t->computed_lo, 475627, 0);
            assert_float_equal(t->computed_hi, 475707, 0);
        }
        assert_int_equal(verdict(ex, VLLM_LINE_CONCURRENCY)->match, VLLM_MATCH_YES);
        free(ex);
        free(log);
    }
}

/* A concurrency under 1: the explanation says so and names the longest request
 * that fits. Llama-3.1-8B at 3.00 GiB: 3 GiB / 2 MiB = 1,536 blocks (1,533 to
 * 1,538 over the rounding) = 24,576 tokens; 131,072 tokens need 8,192 blocks:
 * 1,536 / 8,192 = 0.1875 (0.19x). */
static void test_explain_below_one(void **state)
{
    struct vllm_log *log = parse_text(
        "INFO vLLM API server version 0.19.0\n"
        "INFO non-default args: {'model': 'meta-llama/Llama-3.1-8B-Instruct', 'max_model_len': "
        "131072}\n"
        "INFO Available KV cache memory: 3.00 GiB\n"
        "INFO Maximum concurrency for 131,072 tokens per request: 0.19x\n");
    struct vllm_explain *ex = explain(log, "llama-3.1-8b");
    const struct vllm_verdict *c = verdict(ex, VLLM_LINE_CONCURRENCY);
    (void)state;

    assert_int_equal(c->match, VLLM_MATCH_YES);
    assert_float_equal(c->computed, 0.1875, 1e-12);
    assert_non_null(strstr(c->change, "below 1, not one request of 131,072 tokens fits"));
    assert_non_null(strstr(c->change, "a single request can be at most 24,576 tokens"));
    assert_non_null(strstr(c->change, "--max-model-len 65536: 0.38x"));
    free(ex);
    free(log);
}

/* r030, gemma-3-27b (52 sliding + 10 full layers) at 0.19.0: groups of 10
 * (52 is not under 1.5 x 10), so the sliding layers take 6 groups = 60 slots:
 * 8 padding layers, 8 / 52 = 15.38%. */
static void test_padding_layers(void **state)
{
    struct vllm_log *log = parse_file("v0.19.0-r030-gemma-3-27b.log");
    struct vllm_log *wrong = parse_text(
        "INFO vLLM API server version 0.19.0\n"
        "INFO non-default args: {'model': 'google/gemma-3-27b-it', 'max_model_len': 8192}\n"
        "WARNING Add 3 padding layers, may waste at most 15.38% KV cache memory\n");
    const struct vllm_line *l = line_of(log, VLLM_LINE_PAD_LAYERS);
    struct vllm_explain *ex;
    (void)state;

    assert_int_equal(l->count, 8);
    assert_float_equal(l->value, 15.38, 1e-12);
    ex = explain(log, "gemma-3-27b");
    assert_int_equal(verdict(ex, VLLM_LINE_PAD_LAYERS)->match, VLLM_MATCH_YES);
    assert_float_equal(verdict(ex, VLLM_LINE_PAD_LAYERS)->computed, 8, 0);
    assert_int_equal(ex->matched, 3); /* the padding, the size and the concurrency */
    free(ex);
    ex = explain(wrong, "gemma-3-27b");
    assert_int_equal(verdict(ex, VLLM_LINE_PAD_LAYERS)->match, VLLM_MATCH_NO);
    free(ex);
    free(wrong);
    free(log);
}

static void test_explain_v0(void **state)
{
    (void)state;
    /* r001 (V0): 3.805 to 3.815 GiB / 2 MiB = 1,948 to 1,953 blocks (1,952 logged);
     * V0 prints 1,952 x 16 / 20,000 = 1.56 (1,948 x 16 / 20,000 = 1.5584 -> 1.56). */
    struct vllm_log *log = parse_file("v0.6.4-r001-llama-3.1-8b.log");
    struct vllm_explain *ex = explain(log, "llama-3.1-8b");

    assert_true(ex->v0_rules);
    assert_int_equal(verdict(ex, VLLM_LINE_GPU_BLOCKS)->match, VLLM_MATCH_YES);
    assert_float_equal(verdict(ex, VLLM_LINE_GPU_BLOCKS)->computed_lo, 1948, 0);
    assert_float_equal(verdict(ex, VLLM_LINE_GPU_BLOCKS)->computed_hi, 1953, 0);
    assert_int_equal(verdict(ex, VLLM_LINE_CONCURRENCY)->match, VLLM_MATCH_YES);
    free(ex);
    free(log);
}

/* The log's version picks the calculator's rules. gemma-2-27b (23 full + 23
 * sliding layers of window 4,096, 16 KV heads x 128, bf16) at 20.59 GiB:
 * 16 x 2 x 16 x 128 x 2 B = 128 KiB a layer page, x 23 = 2.875 MiB a block,
 * 20.585 to 20.595 GiB / 2.875 MiB = 7,331 to 7,335 blocks (r026). A request
 * of 32,768 tokens needs 2,048 blocks in the full group and, in the sliding
 * group, ceil(min(4,095 + T, 32,768) / 16) + 1:
 *   0.19 (T = one batch, 8,192):           ceil(12,287 / 16) + 1 = 769
 *     -> 7,331 / 2,817 = 2.6024 .. 7,335 / 2,817 = 2.6038: 2.60x
 *   0.26 (T = two batches in flight, 16,384): ceil(20,479 / 16) + 1 = 1,281
 *     -> 7,331 / 3,329 = 2.2022 .. 7,335 / 3,329 = 2.2034: 2.20x */
static void test_explain_sliding_by_version(void **state)
{
    static const struct {
        const char *version, *logged;
        enum vllm_match match;
    } rows[] = {
        {"0.19.0", "2.60", VLLM_MATCH_YES},
        {"0.19.0", "2.20", VLLM_MATCH_NO},
        {"0.26.0", "2.20", VLLM_MATCH_YES},
        {"0.26.0", "2.60", VLLM_MATCH_NO},
    };
    (void)state;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char text[600];
        struct vllm_log *log;
        struct vllm_explain *ex;

        snprintf(text, sizeof text,
                 "INFO vLLM API server version %s\n"
                 "INFO non-default args: {'model': 'google/gemma-2-27b-it', 'max_model_len': "
                 "32768, 'max_num_batched_tokens': 8192}\n"
                 "INFO Available KV cache memory: 20.59 GiB\n"
                 "INFO Maximum concurrency for 32,768 tokens per request: %sx\n",
                 rows[i].version, rows[i].logged);
        log = parse_text(text);
        ex = explain(log, "gemma-2-27b");
        assert_string_equal(ex->blocked, "");
        if (verdict(ex, VLLM_LINE_CONCURRENCY)->match != rows[i].match)
            fail_msg("vLLM %s, %sx: computed %.4f", rows[i].version, rows[i].logged,
                     verdict(ex, VLLM_LINE_CONCURRENCY)->computed);
        free(ex);
        free(log);
    }
}

/* EAGLE (row h07, vLLM 0.9.1): the draft's one attention layer joins the 32
 * of Llama-3.1-8B: 33 x 64 KiB = 2.0625 MiB a block; 51.625 to 51.635 GiB of
 * it = 25,630.06 to 25,635.03 blocks, x 16 = 410,096 to 410,160 tokens
 * (410,128 logged); / 8,192 blocks a request = 3.13 (3.13 logged). */
static void test_explain_eagle(void **state)
{
    struct vllm_log *log = parse_file("v0.9.1-h07-llama-3.1-8b-eagle.log");
    struct vllm_explain *ex = explain(log, "llama-3.1-8b");
    const struct vllm_verdict *t = verdict(ex, VLLM_LINE_KV_TOKENS);
    (void)state;

    assert_string_equal(ex->blocked, "");
    assert_int_equal(t->match, VLLM_MATCH_YES);
    assert_float_equal(t->computed_lo, 410096, 0);
    assert_float_equal(t->computed_hi, 410160, 0);
    assert_int_equal(verdict(ex, VLLM_LINE_CONCURRENCY)->match, VLLM_MATCH_YES);
    free(ex);
    free(log);
}

/* DCP and the block override, at vLLM 0.19.0 on Llama-3.1-8B:
 *   TP 2, DCP 2 at 10 GiB: 4 KV heads a GPU, 16 x 2 x 4 x 128 x 2 B x 32 layers
 *   = 1 MiB a block, 10,240 blocks; the size is floor(10,240 / 1) x 16 x 2 =
 *   327,680 tokens; a request of 8,192 tokens needs 512 / 2 = 256 blocks:
 *   10,240 / 256 = 40.00x
 *   an override of 512 blocks (2 MiB each): 512 x 16 = 8,192 tokens; 512 / 512
 *   = 1.00x */
static void test_explain_dcp_and_override(void **state)
{
    static const char *const logs[] = {
        "vLLM API server version 0.19.0\n"
        "non-default args: {'model': 'meta-llama/Llama-3.1-8B-Instruct', 'max_model_len': 8192, "
        "'tensor_parallel_size': 2, 'decode_context_parallel_size': 2}\n"
        "Available KV cache memory: 10.00 GiB\nGPU KV cache size: 327,680 tokens\n"
        "Maximum concurrency for 8,192 tokens per request: 40.00x\n",
        "vLLM API server version 0.19.0\n"
        "non-default args: {'model': 'meta-llama/Llama-3.1-8B-Instruct', 'max_model_len': 8192, "
        "'num_gpu_blocks_override': 512}\n"
        "Available KV cache memory: 10.00 GiB\nGPU KV cache size: 8,192 tokens\n"
        "Maximum concurrency for 8,192 tokens per request: 1.00x\n",
        /* int8_per_token_head: a page of 16 x 2 x 8 x (128 + 4) = 33,792 B, 32 layers
         * = 1,081,344 B a block; 10 GiB / 1,081,344 = 9,929 blocks x 16 = 158,864
         * tokens, 9,929 / 512 = 19.39x */
        "vLLM API server version 0.19.0\n"
        "non-default args: {'model': 'meta-llama/Llama-3.1-8B-Instruct', 'max_model_len': 8192, "
        "'kv_cache_dtype': 'int8_per_token_head'}\n"
        "Available KV cache memory: 10.00 GiB\nGPU KV cache size: 158,864 tokens\n"
        "Maximum concurrency for 8,192 tokens per request: 19.39x\n",
    };
    (void)state;
    for (size_t i = 0; i < 3; i++) {
        struct vllm_log *log = parse_text(logs[i]);
        struct vllm_explain *ex = explain(log, "llama-3.1-8b");
        if (ex->matched != 2)
            fail_msg("case %zu: %zu match; tokens: %s", i, ex->matched,
                     verdict(ex, VLLM_LINE_KV_TOKENS)->how);
        free(ex);
        free(log);
    }
}

/* What the calculator cannot model is explained, never compared. */
static void test_explain_blocked(void **state)
{
    static const struct {
        const char *log, *preset, *reason;
    } rows[] = {
        /* a Mamba hybrid's log with a model that has no recurrent layers */
        {"v0.24.0-h01-qwen3.6-35b-a3b.log", "qwen3-30b-a3b", "the model given has none"},
        {"non-default args: {'model': 'x', 'speculative_config': {'method': 'medusa'}}\n"
         "Available KV cache memory: 10 GiB\nGPU KV cache size: 1 tokens\n",
         "llama-3.1-8b", "method 'medusa'"},
        {"non-default args: {'model': 'x', 'speculative_config': {'method': 'draft_model', "
         "'model': 'meta-llama/Llama-3.2-1B'}}\n"
         "Available KV cache memory: 10 GiB\nGPU KV cache size: 1 tokens\n",
         "llama-3.1-8b", "separate draft model"},
        {"non-default args: {'model': 'x', 'kv_cache_dtype': 'int4_per_token_head'}\n"
         "Available KV cache memory: 10 GiB\nGPU KV cache size: 1 tokens\n",
         "llama-3.1-8b", "'int4_per_token_head'"},
        {"Initializing an LLM engine (v0.6.4) with config: model='google/gemma-2-27b-it'\n"
         "reserved for KV Cache is 3.81GiB.\n# GPU blocks: 100, # CPU blocks: 2\n",
         "gemma-2-27b", "V0-engine"},
    };
    (void)state;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        bool file = strchr(rows[i].log, '\n') == NULL;
        struct vllm_log *log = file ? parse_file(rows[i].log) : parse_text(rows[i].log);
        struct vllm_explain *ex = explain(log, rows[i].preset);
        if (!strstr(ex->blocked, rows[i].reason))
            fail_msg("case %zu: blocked says \"%s\"", i, ex->blocked);
        assert_int_equal(ex->matched + ex->mismatched, 0);
        free(ex);
        free(log);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_line_format),
        cmocka_unit_test(test_one_line_format),
        cmocka_unit_test(test_logo_lines),
        cmocka_unit_test(test_hybrid_lines),
        cmocka_unit_test(test_v0_format),
        cmocka_unit_test(test_padding_layers),
        cmocka_unit_test(test_speculative_config),
        cmocka_unit_test(test_python_repr),
        cmocka_unit_test(test_sources_priority),
        cmocka_unit_test(test_logged_zero_is_given),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_figures_strict),
        cmocka_unit_test(test_runs_split),
        cmocka_unit_test(test_many_lines_are_counted),
        cmocka_unit_test(test_check_text),
        cmocka_unit_test(test_kind_names),
        cmocka_unit_test(test_explain_two_line),
        cmocka_unit_test(test_explain_mismatch),
        cmocka_unit_test(test_explain_token_rules),
        cmocka_unit_test(test_explain_below_one),
        cmocka_unit_test(test_explain_v0),
        cmocka_unit_test(test_explain_sliding_by_version),
        cmocka_unit_test(test_explain_eagle),
        cmocka_unit_test(test_explain_dcp_and_override),
        cmocka_unit_test(test_explain_blocked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
