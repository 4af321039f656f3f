/* test_tutor_vllm_log.c: the one order in which `kvtutor explain-log` and
 * the playground pick the model a vLLM log is explained against. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "tutor_vllm_log.h"

static void test_model_order(void **state)
{
    /* a model of our own, with a layer count no preset has */
    const struct kv_model mine = {.layers = 7, .kv_heads = 2, .head_dim = 64};
    static const struct {
        const char *log_model;
        int given;
        enum tutor_log_model want;
        uint32_t layers; /* of the model chosen; 0 when none is */
    } rows[] = {
        /* given wins even when the log names a preset (Llama-3.1-8B: 32 layers) */
        {"meta-llama/Llama-3.1-8B-Instruct", 1, TUTOR_LOG_MODEL_GIVEN, 7},
        {"", 1, TUTOR_LOG_MODEL_GIVEN, 7},
        {"org/not-a-preset", 1, TUTOR_LOG_MODEL_GIVEN, 7},
        /* nothing given: the preset the log names, by id or alias */
        {"meta-llama/Llama-3.1-8B-Instruct", 0, TUTOR_LOG_MODEL_PRESET, 32},
        {"llama-3.1-8b", 0, TUTOR_LOG_MODEL_PRESET, 32},
        {"", 0, TUTOR_LOG_MODEL_UNNAMED, 0},
        {"org/not-a-preset", 0, TUTOR_LOG_MODEL_UNKNOWN, 0},
    };
    (void)state;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        static struct vllm_log log;
        struct kv_model out = {0};
        const struct kv_model_preset *p = (const void *)&log; /* must be overwritten */
        enum tutor_log_model got;

        memset(&log, 0, sizeof log);
        snprintf(log.args.model, sizeof log.args.model, "%s", rows[i].log_model);
        got = tutor_log_model(&log, rows[i].given ? &mine : NULL, &out, &p);
        if (got != rows[i].want || out.layers != rows[i].layers)
            fail_msg("row %zu (%s, given %d): got %d with %u layers", i, rows[i].log_model,
                     rows[i].given, (int)got, out.layers);
        assert_true((got == TUTOR_LOG_MODEL_PRESET) == (p != NULL));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_model_order)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
