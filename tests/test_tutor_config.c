/* test_tutor_config.c: a config.json read as calc, explain-log and the
 * playground read it, and the one form of its messages. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "tmp_dir.h"
#include "tutor_config.h"

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_messages(void **state)
{
    char dir[128], bad[256], none[256], noparams[256], why[400];
    struct kv_model m;
    struct hf_config_info info;
    (void)state;

    assert_int_equal(tmp_dir_make(dir, sizeof dir, "kvt_config_"), 0);
    snprintf(bad, sizeof bad, "%s/bad.json", dir);
    snprintf(none, sizeof none, "%s/none.json", dir);
    snprintf(noparams, sizeof noparams, "%s/small.json", dir);
    /* the JSON breaks on line 2, where the second key lacks its value */
    write_text(bad, "{\"num_hidden_layers\": 2,\n \"hidden_size\": }\n");
    write_text(noparams, "{\"num_hidden_layers\": 2, \"hidden_size\": 256, "
                         "\"num_attention_heads\": 4, \"num_key_value_heads\": 2}\n");

    assert_int_equal(tutor_config_load(bad, &m, &info, why, sizeof why), KVT_E_PARSE);
    assert_true(strncmp(why, bad, strlen(bad)) == 0);
    assert_true(strncmp(why + strlen(bad), ":2:", 3) == 0);

    assert_int_equal(tutor_config_load(none, &m, &info, why, sizeof why), KVT_E_IO);
    assert_true(strncmp(why, none, strlen(none)) == 0);
    assert_true(strncmp(why + strlen(none), ": ", 2) == 0);

    /* layers and heads but no parameter count: the weights are unknown */
    assert_int_equal(tutor_config_load(noparams, &m, &info, why, sizeof why), KVT_E_OK);
    assert_int_equal(m.layers, 2);
    assert_true(tutor_config_needs_params(&m));
    m.params_b = 0.01;
    assert_false(tutor_config_needs_params(&m));
    tmp_dir_remove(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_messages)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
