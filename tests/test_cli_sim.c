/* `kvtutor sim` as a user runs it: the report's labels, the JSON keys the
 * contract promises, the KV blocks agreeing with calc's, and a one-line
 * error naming the flag (exit 2) for every kind of bad input. */
#define _XOPEN_SOURCE 700
#include <jansson.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "run_cmd.h"

static struct run_result kvtutor(const char *args)
{
    struct run_result r;
    assert_int_equal(run_kvtutor_words(args, NULL, &r), 0);
    return r;
}

static json_t *json_of(const char *args)
{
    char line[2048];
    struct run_result r;
    json_error_t err;
    json_t *j;

    snprintf(line, sizeof line, "%s --json", args);
    r = kvtutor(line);
    if (r.status != 0)
        fail_msg("kvtutor %s: exit %d: %s", line, r.status, r.err);
    j = json_loads(r.out, 0, &err);
    if (!j)
        fail_msg("kvtutor %s: not JSON (%s)", line, err.text);
    run_free(&r);
    return j;
}

static double num(json_t *j, const char *key)
{
    json_t *v = json_object_get(j, key);
    if (!json_is_number(v))
        fail_msg("%s is not a number", key);
    return json_number_value(v);
}

#define SMALL "sim --model llama-3.1-8b --gpu h100 --num-prompts 50 --input-len 512 --output-len 64"

static void report_has_vllms_labels(void **state)
{
    static const char *const labels[] = {
        "============ Serving Benchmark Result ============",
        "Successful requests:                     50",
        "Benchmark duration (s):",
        "Total input tokens:                      25600",
        "Total generated tokens:                  3200",
        "Request throughput (req/s):",
        "Output token throughput (tok/s):",
        "Total Token throughput (tok/s):",
        "---------------Time to First Token----------------",
        "Mean TTFT (ms):",
        "Median TTFT (ms):",
        "P99 TTFT (ms):",
        "-----Time per Output Token (excl. 1st token)------",
        "---------------Inter-token Latency----------------",
        "P99 ITL (ms):",
        "peak KV usage",
        "preemptions",
        "batch capped by",
        "Not modelled: async scheduling overlap",
    };
    struct run_result r = kvtutor(SMALL);

    (void)state;
    assert_int_equal(r.status, 0);
    for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++)
        if (!strstr(r.out, labels[i]))
            fail_msg("no \"%s\" in:\n%s", labels[i], r.out);
    /* every line fits 80 columns */
    for (const char *p = r.out; *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n > 80)
            fail_msg("a line of %zu columns: %.*s", n, (int)n, p);
        p += n + (e != NULL);
    }
    run_free(&r);
}

/* The report's own lines agree with --json and with the serving view: the
 * peak as blocks in use of the blocks there are (the share times the
 * blocks), and shares never rounded up to all: Qwen2.5-7B on an RTX 4090, 2
 * req/s, is capped by arrivals for most but not all of its busy time, which
 * "%.0f" printed as 100% while the view said 99.7%. */
static void report_lines_agree_with_json(void **state)
{
#define VIEW                                                                                       \
    "sim --model qwen2.5-7b --gpu rtx4090 --max-model-len 8192 --util 0.92 --input-len 1024 "      \
    "--output-len 128 --num-prompts 500 --request-rate 2"
    struct run_result r = kvtutor(VIEW);
    json_t *j = json_of(VIEW);
    char want[160];
    double share = num(j, "limit_share");

    (void)state;
    assert_int_equal(r.status, 0);
    snprintf(want, sizeof want, "peak KV usage       %.0f of ",
             num(j, "peak_kv_usage") * num(j, "num_gpu_blocks"));
    /* grouped when past 999: the test's own grouping of a plain count */
    if (num(j, "peak_kv_usage") * num(j, "num_gpu_blocks") >= 999.5) {
        long v = lround(num(j, "peak_kv_usage") * num(j, "num_gpu_blocks"));
        snprintf(want, sizeof want, "peak KV usage       %ld,%03ld of ", v / 1000, v % 1000);
    }
    if (!strstr(r.out, want))
        fail_msg("no \"%s\" in:\n%s", want, r.out);
    assert_true(share > 0.99 && share < 1);
    if (strstr(r.out, "(100% of the busy time)") || !strstr(r.out, "% of the busy time)"))
        fail_msg("a share short of all read as 100%%:\n%s", r.out);
    json_decref(j);
    run_free(&r);
#undef VIEW
}

static void json_has_the_contracts_keys(void **state)
{
    static const char *const keys[] = {"duration_s",
                                       "completed",
                                       "request_throughput",
                                       "output_throughput",
                                       "total_token_throughput",
                                       "mean_ttft_ms",
                                       "median_ttft_ms",
                                       "p99_ttft_ms",
                                       "mean_tpot_ms",
                                       "median_tpot_ms",
                                       "p99_tpot_ms",
                                       "mean_itl_ms",
                                       "median_itl_ms",
                                       "p99_itl_ms",
                                       "mean_e2el_ms",
                                       "median_e2el_ms",
                                       "p99_e2el_ms",
                                       "preemptions",
                                       "peak_kv_usage",
                                       "max_running",
                                       "steps"};
    json_t *j = json_of(SMALL);
    double total;

    (void)state;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        num(j, keys[i]);
    assert_true(json_is_string(json_object_get(j, "limit")));
    assert_int_equal((long long)num(j, "completed"), 50);
    /* throughputs are the totals over the duration: 50 x (512 + 64) tokens */
    total = num(j, "total_token_throughput") * num(j, "duration_s");
    assert_true(total > 28799.9 && total < 28800.1);
    /* an H100 serves with vLLM's API-server defaults: 1,024 seqs, 8,192 tokens */
    assert_int_equal((long long)num(j, "max_num_seqs"), 1024);
    assert_int_equal((long long)num(j, "max_num_batched_tokens"), 8192);
    json_decref(j);
    /* an A100 is held to 256 and 2,048 (get_batch_defaults' "a100" check) */
    j = json_of("sim --model llama-3.1-8b --gpu a100 --num-prompts 5 --output-len 8");
    assert_int_equal((long long)num(j, "max_num_seqs"), 256);
    assert_int_equal((long long)num(j, "max_num_batched_tokens"), 2048);
    json_decref(j);
    /* the latency mode's key */
    j = json_of("sim --model llama-3.1-8b --gpu h100 --mode latency --batch-size 8 "
                "--input-len 32 --output-len 128");
    assert_true(num(j, "avg_latency_s") > 0);
    assert_int_equal((long long)num(j, "max_num_batched_tokens"), 16384);
    json_decref(j);
}

/* sim's blocks are calc's under the same flags and token budget. */
static void blocks_agree_with_calc(void **state)
{
    json_t *s = json_of("sim --model qwen2.5-7b --gpu rtx4090 --util 0.9 --max-model-len 4096 "
                        "--num-prompts 4 --output-len 4 --max-num-batched-tokens 8192");
    json_t *c = json_of("calc --model qwen2.5-7b --gpu rtx4090 --util 0.9 --max-model-len 4096");

    (void)state;
    assert_int_equal((long long)num(s, "num_gpu_blocks"), (long long)num(c, "num_gpu_blocks"));
    json_decref(s);
    json_decref(c);
}

/* A measured bandwidth and FLOP/s are what the GPU achieves: taken as given,
 * not scaled by the efficiencies a preset's peaks are. One Qwen2.5-7B request
 * of 1,024 + 2 tokens alone, at 1,000 GB/s and 100 TFLOP/s (sim_step.h):
 *   prefill: compute 2 x 7,615,616,512 x 1,024 / 1e14 = 155.968 ms, plus
 *     attention 28 heads x 4 x 128 x 28 layers = 401,408 FLOPs a pair x
 *     1,024 x 512 pairs / 1e14 = 2.105 ms; memory (15,231,233,024 B of
 *     weights + 1,024 x 57,344 B written) / 1e12 = 15.29 ms; so 158.07 ms of
 *     compute + 0.7 ms overhead = TTFT 158.77 ms;
 *   one decode step: memory (15,231,233,024 + 1,025 x 57,344) / 1e12 =
 *     15.290 ms + 0.7 ms = TPOT 15.99 ms. */
static void measured_rates_taken_as_given(void **state)
{
    json_t *j = json_of("sim --model qwen2.5-7b --gpu h100 --mode latency --batch-size 1 "
                        "--input-len 1024 --output-len 2 --bandwidth-gbps 1000 --tflops 100");

    (void)state;
    assert_true(fabs(num(j, "mean_ttft_ms") - 158.77) < 0.01);
    assert_true(fabs(num(j, "mean_tpot_ms") - 15.99) < 0.01);
    assert_true(num(j, "bandwidth_gbps") == 1000);
    assert_true(num(j, "tflops") == 100);
    json_decref(j);
}

/* A lesson's kv.sim is the command's simulator: lesson 5's Little's-law
 * exercise expects throughput x mean latency of the run `kvtutor sim` gives
 * for the same setup. */
static void lesson_figures_are_the_commands(void **state)
{
    json_t *s = json_of("sim --model qwen2.5-7b --gpu a100-80gb --kv-budget-gib 5 --input-len 1024 "
                        "--output-len 128 --num-prompts 200 --request-rate 4");
    struct run_result r = kvtutor("ask continuous-batching littles-law 1 --json");
    json_t *a = json_loads(r.out, 0, NULL);
    double little = num(s, "request_throughput") * num(s, "mean_e2el_ms") / 1000;

    (void)state;
    assert_int_equal(r.status, 1); /* 1 request is wrong: the figures come back all the same */
    assert_non_null(a);
    run_free(&r);
    assert_true(fabs(num(a, "expected") - little) < 1e-9 * little);
    /* steady state: the time-weighted running count agrees within 2% */
    assert_true(fabs(num(s, "mean_running") - little) < 0.02 * little);
    json_decref(s);
    json_decref(a);
}

static void same_seed_same_output(void **state)
{
    const char *args = "sim --model llama-3.1-8b --gpu h100 --num-prompts 200 --request-rate 20 "
                       "--range-ratio 0.5 --seed 9 --json";
    struct run_result a = kvtutor(args), b = kvtutor(args);

    (void)state;
    assert_int_equal(a.status, 0);
    assert_string_equal(a.out, b.out);
    run_free(&a);
    run_free(&b);
}

/* Bad input: one line on stderr naming the flag, exit 2, nothing on stdout. */
/* The admission gate is said, and by release: 0.26 admits a request only
 * when its whole sequence fits; the flag, or 0.17, on the first chunk; a
 * release between 0.18 and 0.23 says its boundary is not dated. A burst
 * that fills the cache (Qwen2.5-7B on an RTX 4090, 200 requests of 1,024
 * + 1,024 tokens at once: tests/test_sim.c works the rule by hand) is
 * preempted less under the gate. */
static void admission_by_release(void **state)
{
    const char *base = "sim --model qwen2.5-7b --gpu rtx4090 --max-model-len 4096 --input-len "
                       "1024 --output-len 1024 --num-prompts 200";
    char args[400];
    struct run_result r;
    json_t *gate, *chunk;

    (void)state;
    r = kvtutor(base);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "admission           whole sequence must fit"));
    assert_null(strstr(r.out, "no dated first release"));
    run_free(&r);
    snprintf(args, sizeof args, "%s --vllm 0.21.0", base);
    r = kvtutor(args);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "admission           on the first chunk"));
    assert_non_null(strstr(r.out, "no dated first release"));
    run_free(&r);
    snprintf(args, sizeof args, "%s --vllm 0.17.0", base);
    r = kvtutor(args);
    assert_non_null(strstr(r.out, "admission           on the first chunk"));
    assert_null(strstr(r.out, "no dated first release"));
    run_free(&r);
    gate = json_of(base);
    snprintf(args, sizeof args, "%s --no-scheduler-reserve-full-isl", base);
    chunk = json_of(args);
    assert_true(json_integer_value(json_object_get(gate, "preemptions")) <
                json_integer_value(json_object_get(chunk, "preemptions")));
    json_decref(gate);
    json_decref(chunk);
}

/* Prefix caching as vLLM 0.26 sets it (arg_utils.py,
 * _set_default_chunked_prefill_and_prefix_caching_args): on for a dense
 * model, where a preempted request resumes from its own cached blocks (the
 * 200-request burst above preempts); off for a hybrid unless asked for, and
 * then named as not modelled for its groups; off with --no-prefix-caching. */
static void prefix_cache_by_model(void **state)
{
    const char *dense = "sim --model qwen2.5-7b --gpu rtx4090 --max-model-len 4096 --input-len "
                        "1024 --output-len 1024 --num-prompts 200";
    const char *hybrid = "sim --model qwen3.5-27b --gpu h100 --num-prompts 20";
    char args[400];
    struct run_result r;
    json_t *j;

    (void)state;
    j = json_of(dense);
    assert_string_equal(json_string_value(json_object_get(j, "prefix_caching")), "on");
    assert_true(json_integer_value(json_object_get(j, "preemptions")) > 0);
    assert_true(json_integer_value(json_object_get(j, "resume_hit_tokens")) > 0);
    json_decref(j);
    r = kvtutor(dense);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "prefix cache        on: resumed requests found "));
    run_free(&r);
    snprintf(args, sizeof args, "%s --no-prefix-caching", dense);
    j = json_of(args);
    assert_string_equal(json_string_value(json_object_get(j, "prefix_caching")), "off");
    assert_int_equal(json_integer_value(json_object_get(j, "resume_hit_tokens")), 0);
    json_decref(j);
    j = json_of(hybrid);
    assert_string_equal(json_string_value(json_object_get(j, "prefix_caching")), "off");
    json_decref(j);
    snprintf(args, sizeof args, "%s --enable-prefix-caching", hybrid);
    j = json_of(args);
    assert_string_equal(json_string_value(json_object_get(j, "prefix_caching")), "unmodelled");
    json_decref(j);
    r = kvtutor(args);
    assert_non_null(strstr(r.out, "not modelled for this model's KV groups"));
    run_free(&r);
}

static void bad_input(void **state)
{
    static const struct {
        const char *args, *says;
    } rows[] = {
        {"sim --model llama-3.1-8b --gpu h100 --request-rate 0", "--request-rate"},
        {"sim --model llama-3.1-8b --gpu h100 --no-prefix-caching --enable-prefix-caching",
         "--enable-prefix-caching"},
        {"sim --model llama-3.1-8b --gpu h100 --request-rate fast", "--request-rate"},
        {"sim --model llama-3.1-8b --gpu h100 --input-len 200000", "--input-len"},
        {"sim --model llama-3.1-8b --gpu h100 --max-model-len 2048 --output-len 2048",
         "--output-len"},
        {"sim --model llama-3.1-8b --gpu h100 --num-gpu-blocks-override 10 --input-len 1024",
         "KV blocks"},
        {"sim --model llama-3.1-8b --gpu h100 --frobnicate", "--frobnicate"},
        {"sim --model llama-3.1-8b --gpu h100 --mode fast", "--mode"},
        {"sim --model llama-3.1-8b --gpu h100 --range-ratio 1", "--range-ratio"},
        {"sim --model llama-3.1-8b --gpu h100 --num-prompts 0", "--num-prompts"},
        {"sim --model llama-3.1-8b --gpu h100 --batch 4", "--batch"},
        {"sim --model llama-3.1-8b --gpu h100 --batch-size 4", "--batch-size"},
        {"sim --model llama-3.1-8b --gpu h100 --mode latency --request-rate 3", "--request-rate"},
        {"sim --model llama-3.1-8b --gpu h100 --no-chunked-prefill --input-len 9000 "
         "--max-model-len 16384",
         "--no-chunked-prefill"},
        {"sim --model nosuchmodel --gpu h100", "--model"},
        {"sim --model llama-3.1-8b", "--gpu"},
        {"sim --gpu h100", "--model"},
    };

    (void)state;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        struct run_result r = kvtutor(rows[i].args);
        if (r.status != 2 || !strstr(r.err, rows[i].says) || run_count_lines(r.err) != 1 ||
            r.out_len != 0)
            fail_msg("kvtutor %s: exit %d, stderr: %s", rows[i].args, r.status, r.err);
        run_free(&r);
    }
}

static void help(void **state)
{
    struct run_result r = kvtutor("sim --help");

    (void)state;
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "usage: kvtutor sim"));
    assert_non_null(strstr(r.out, "--max-num-seqs"));
    assert_non_null(strstr(r.out, "--request-rate"));
    assert_null(strstr(r.out, "--context")); /* calc's decode-ceiling flags are not sim's */
    run_free(&r);
    r = kvtutor("--help");
    assert_non_null(strstr(r.out, "  sim "));
    run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(report_has_vllms_labels),
        cmocka_unit_test(report_lines_agree_with_json),
        cmocka_unit_test(json_has_the_contracts_keys),
        cmocka_unit_test(blocks_agree_with_calc),
        cmocka_unit_test(measured_rates_taken_as_given),
        cmocka_unit_test(lesson_figures_are_the_commands),
        cmocka_unit_test(same_seed_same_output),
        cmocka_unit_test(admission_by_release),
        cmocka_unit_test(prefix_cache_by_model),
        cmocka_unit_test(bad_input),
        cmocka_unit_test(help),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
