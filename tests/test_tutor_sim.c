/* The playground's serving view (tutor_sim.h): its figures are those of
 * `kvtutor sim --json` for the same inputs, the command it shows gives them,
 * the rate keys walk the ladder the header states, the knee chart's p99
 * TTFT climbs past the capacity, the timeline adds up to the run's mean
 * batch, and inputs that cannot run get one line naming what is at fault. */
#define _XOPEN_SOURCE 700
#include <jansson.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lx.h"
#include "run_cmd.h"
#include "tutor_sim.h"

static json_t *cli_json(const char *line)
{
    char args[2048];
    struct run_result r;
    json_error_t err;
    json_t *j;

    /* the command as shown starts with the program's name */
    assert_int_equal(strncmp(line, "kvtutor ", 8), 0);
    snprintf(args, sizeof args, "%s --json", line + 8);
    assert_int_equal(run_kvtutor_words(args, NULL, &r), 0);
    if (r.status != 0)
        fail_msg("kvtutor %s: exit %d: %s", args, r.status, r.err);
    j = json_loads(r.out, 0, &err);
    if (!j)
        fail_msg("kvtutor %s: not JSON (%s)", args, err.text);
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

/* jansson writes a real with 17 significant digits: it reads back as the
 * same double, so the figures must be equal, not merely close */
static void same(json_t *j, const char *key, double v)
{
    double cli = num(j, key);
    if (cli != v)
        fail_msg("%s: kvtutor sim says %.17g, the view %.17g", key, cli, v);
}

static struct tutor_sim_setup setup(const char *model, const char *gpu)
{
    struct tutor_sim_setup s = {0};
    const struct kv_model_preset *m = kv_model_preset_find(model);
    assert_non_null(m);
    s.model = &m->model;
    s.gpu = kv_gpu_preset_find(gpu);
    assert_non_null(s.gpu);
    return s;
}

static void compare(const struct tutor_sim_setup *s, const char *model_flags,
                    const char *expected_line)
{
    struct tutor_sim_result res;
    char line[1024], why[300];
    json_t *j;

    tutor_sim_command(s, model_flags, line, sizeof line);
    assert_string_equal(line, expected_line);
    if (tutor_sim_run(s, &res, NULL, 0, why, sizeof why) != KVT_E_OK)
        fail_msg("the view cannot run it: %s", why);
    j = cli_json(line);
    same(j, "completed", (double)res.m.completed);
    same(j, "duration_s", res.m.duration_s);
    same(j, "request_throughput", res.m.request_throughput);
    same(j, "output_throughput", res.m.output_throughput);
    same(j, "median_ttft_ms", res.m.ttft_ms.median);
    same(j, "p99_ttft_ms", res.m.ttft_ms.p99);
    same(j, "median_tpot_ms", res.m.tpot_ms.median);
    same(j, "p99_tpot_ms", res.m.tpot_ms.p99);
    same(j, "peak_kv_usage", res.m.peak_kv_usage);
    same(j, "max_running", (double)res.m.max_running);
    same(j, "preemptions", (double)res.m.preemptions);
    same(j, "max_num_seqs", (double)res.max_num_seqs);
    same(j, "max_num_batched_tokens", (double)res.max_num_batched_tokens);
    same(j, "num_gpu_blocks", (double)res.num_blocks);
    assert_string_equal(json_string_value(json_object_get(j, "limit")),
                        tutor_sim_limit_key(res.m.limit));
    json_decref(j);
}

/* The playground's first setting (Qwen2.5-7B on an RTX 4090 at 8k), fp8 KV,
 * 4 requests/s of 1,024 in and 128 out; and an H100 pair under TP 2 with a
 * client limit of 32 and the weights in fp8. */
static void same_figures_as_the_command(void **state)
{
    struct tutor_sim_setup s = setup("qwen2.5-7b", "rtx4090");
    (void)state;
    s.max_model_len = 8192;
    s.kv_dtype = KV_DTYPE_FP8;
    s.input_len = 1024;
    s.output_len = 128;
    s.request_rate = 4;
    compare(&s, "--model qwen2.5-7b",
            "kvtutor sim --model qwen2.5-7b --gpu rtx4090 --max-model-len 8192 --kv-dtype fp8 "
            "--input-len 1024 --output-len 128 --num-prompts 500 --request-rate 4");

    s = setup("llama-3.1-8b", "h100");
    s.max_model_len = 16384;
    s.tp = 2;
    s.util = 0.85;
    s.weights_dtype = KV_DTYPE_FP8;
    s.input_len = 4096;
    s.output_len = 256;
    s.request_rate = 12.5;
    s.max_concurrency = 32;
    compare(&s, "--model llama-3.1-8b",
            "kvtutor sim --model llama-3.1-8b --gpu h100 --max-model-len 16384 --util 0.85 --tp 2 "
            "--weights-dtype fp8 --input-len 4096 --output-len 256 --num-prompts 500 "
            "--request-rate 12.5 --max-concurrency 32");
}

/* A lesson's exercise takes its figure from kv.sim on a table it also gives
 * as `serving = ...` (tests/fixtures/lessons/serving-good.lua: Llama-3.1-8B
 * on an H100, 500 requests of 1,024 in and 128 out at 4 a second): the
 * view opened from the exercise runs that setup and shows the same p99
 * TTFT the exercise grades against, to the last bit. */
static void a_lessons_setup_opens_with_its_figures(void **state)
{
    struct lx_opts o;
    struct lx_lesson *l = NULL;
    struct lx_report rep = {0};
    struct lx_draw d;
    struct tutor_sim_setup s;
    struct tutor_sim_result res;
    char why[300];
    size_t at = SIZE_MAX;
    (void)state;

    lx_default_opts(&o);
    o.dsl = KVT_SOURCE_DIR "/lua/kvtutor.lua";
    if (lx_load(KVT_SOURCE_DIR "/tests/fixtures/lessons/serving-good.lua", &o, &l, &rep) !=
        KVT_E_OK)
        fail_msg("serving-good.lua: %s", rep.n ? rep.items[0].msg : "does not load");
    for (size_t i = 0; i < l->n_exercises; i++)
        if (strcmp(l->exercises[i].id, "p99") == 0)
            at = i;
    assert_true(at != SIZE_MAX);
    assert_true(l->exercises[at].serving.given);
    assert_int_equal(lx_draw(l, at, 0, &d, why, sizeof why), KVT_E_OK);
    if (tutor_sim_of_serving(&l->exercises[at].serving, &s, why, sizeof why) != KVT_E_OK)
        fail_msg("the view refuses the setup: %s", why);
    assert_true(s.gpu == kv_gpu_preset_find("h100"));
    assert_true(s.model == &kv_model_preset_find("llama-3.1-8b")->model);
    assert_int_equal(s.input_len, 1024);
    assert_int_equal(s.output_len, 128);
    assert_true(s.request_rate == 4);
    if (tutor_sim_run(&s, &res, NULL, 0, why, sizeof why) != KVT_E_OK)
        fail_msg("the view cannot run it: %s", why);
    if (res.m.ttft_ms.p99 != d.value)
        fail_msg("the exercise grades on %.17g ms, the view shows %.17g", d.value,
                 res.m.ttft_ms.p99);
    lx_free(l);
}

/* 1, 1.25, 1.5, 2, 2.5, 3, 4, 5, 6, 8 a decade, 0.1 to 1,000, then inf */
static void the_rate_ladder(void **state)
{
    (void)state;
    assert_true(tutor_sim_rate_step(4, true) == 5);
    assert_true(tutor_sim_rate_step(4, false) == 3);
    assert_true(tutor_sim_rate_step(8, true) == 10);
    assert_true(fabs(tutor_sim_rate_step(1, false) - 0.8) < 1e-12);
    assert_true(tutor_sim_rate_step(3.3, true) == 4); /* off the ladder: the next rung */
    assert_true(tutor_sim_rate_step(3.3, false) == 3);
    assert_true(fabs(tutor_sim_rate_step(0.1, false) - 0.1) < 1e-12); /* the bottom stays */
    assert_true(isinf(tutor_sim_rate_step(1000, true)));
    assert_true(tutor_sim_rate_step(INFINITY, false) == 1000);
    assert_true(isinf(tutor_sim_rate_step(INFINITY, true)));
}

/* The knee: past the capacity requests queue, so p99 TTFT at the sweep's top
 * rate is many times its lowest rate's, while below the capacity TPOT stays
 * within a few steps' time. The capacity is the rate-inf run's throughput,
 * as `kvtutor sim --request-rate inf` gives it. */
static void the_knee(void **state)
{
    struct tutor_sim_setup s = setup("qwen2.5-7b", "rtx4090");
    struct tutor_sim_sweep sw;
    char line[1024], why[300];
    json_t *j;
    (void)state;
    s.max_model_len = 8192;
    s.input_len = 1024;
    s.output_len = 128;
    s.request_rate = INFINITY;
    assert_int_equal(tutor_sim_sweep(&s, &sw, why, sizeof why), KVT_E_OK);
    tutor_sim_command(&s, "--model qwen2.5-7b", line, sizeof line);
    j = cli_json(line);
    same(j, "request_throughput", sw.capacity);
    json_decref(j);
    assert_int_equal(sw.n, TUTOR_SIM_SWEEP);
    for (size_t i = 1; i < sw.n; i++) {
        assert_true(sw.p[i].rate > sw.p[i - 1].rate);
        assert_true(tutor_sim_rate_step(sw.p[i - 1].rate, true) == sw.p[i].rate);
    }
    /* 6 rungs below the one nearest the capacity, 2 above: about 0.25x to 1.6x */
    assert_true(sw.p[0].rate < 0.4 * sw.capacity);
    assert_true(sw.p[sw.n - 1].rate > 1.2 * sw.capacity);
    assert_true(sw.p[sw.n - 1].ttft_ms.p99 > 10 * sw.p[0].ttft_ms.p99);
    /* served below the capacity, the throughput is the rate sent (within 10%) */
    assert_true(fabs(sw.p[0].request_throughput / sw.p[0].rate - 1) < 0.1);
}

/* The slices partition the run's duration, so their mean is the run's
 * time-weighted mean batch; a slice's KV is a mean, at most the peak. */
static void the_timeline_adds_up(void **state)
{
    struct tutor_sim_setup s = setup("qwen2.5-7b", "rtx4090");
    struct tutor_sim_result res;
    static struct tutor_sim_timeline tl;
    char why[300];
    double sum = 0;
    (void)state;
    s.max_model_len = 8192;
    s.input_len = 2048;
    s.output_len = 512;
    s.request_rate = 3;
    assert_int_equal(tutor_sim_run(&s, &res, &tl, 60, why, sizeof why), KVT_E_OK);
    assert_int_equal(tl.n, 60);
    assert_true(tl.duration_s == res.m.duration_s);
    for (size_t c = 0; c < tl.n; c++)
        sum += tl.running[c];
    assert_true(fabs(sum / 60 - res.m.mean_running) < 1e-6 * res.m.mean_running);
    assert_true(tl.running_peak <= (double)res.m.max_running + 1e-9);
    assert_true(tl.kv_peak <= res.m.peak_kv_usage + 1e-9);
    assert_true(tl.kv_peak > 0);
}

static void fails_with(struct tutor_sim_setup *s, enum kvt_err code, const char *words)
{
    struct tutor_sim_result res;
    char why[300] = "";
    assert_int_equal(tutor_sim_run(s, &res, NULL, 0, why, sizeof why), code);
    if (!strstr(why, words))
        fail_msg("\"%s\" does not name \"%s\"", why, words);
    assert_null(strchr(why, '\n'));
}

static void bad_inputs_say_why(void **state)
{
    struct tutor_sim_setup s = setup("qwen2.5-7b", "rtx4090");
    (void)state;
    s.max_model_len = 8192;
    s.input_len = 8192;
    s.output_len = 128;
    s.request_rate = 1;
    fails_with(&s, KVT_E_RANGE, "exceed max_model_len 8,192");
    /* 70.6B parameters in bf16 are 141 GB: more than 24 GB */
    s = setup("llama-3.1-70b", "rtx4090");
    s.max_model_len = 8192;
    s.input_len = 1024;
    s.output_len = 128;
    s.request_rate = 1;
    fails_with(&s, KVT_E_RANGE, "the weights do not fit");
    /* a T4's bf16 rate is not published: the step time has no compute side */
    s = setup("qwen2.5-0.5b", "t4");
    s.max_model_len = 8192;
    s.input_len = 1024;
    s.output_len = 128;
    s.request_rate = 1;
    fails_with(&s, KVT_E_MISSING, "no published TFLOP/s");
}

/* 2^18 steps a light run: 2^18 / 128 = 2,048, so 500; / 1,024 = 256; / 2,048
 * = 128; / 4,096 = 64, so 100. The command says how many were sent. */
static void fewer_requests_for_long_outputs(void **state)
{
    struct tutor_sim_setup s = setup("qwen2.5-7b", "rtx4090");
    char line[1024];
    (void)state;
    assert_int_equal(tutor_sim_prompts(128), 500);
    assert_int_equal(tutor_sim_prompts(1024), 256);
    assert_int_equal(tutor_sim_prompts(2048), 128);
    assert_int_equal(tutor_sim_prompts(4096), 100);
    s.input_len = 1024;
    s.output_len = 1024;
    s.request_rate = 2;
    tutor_sim_command(&s, "--model qwen2.5-7b", line, sizeof line);
    assert_non_null(strstr(line, " --num-prompts 256 "));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_figures_as_the_command),
        cmocka_unit_test(the_rate_ladder),
        cmocka_unit_test(a_lessons_setup_opens_with_its_figures),
        cmocka_unit_test(the_knee),
        cmocka_unit_test(the_timeline_adds_up),
        cmocka_unit_test(bad_inputs_say_why),
        cmocka_unit_test(fewer_requests_for_long_outputs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
