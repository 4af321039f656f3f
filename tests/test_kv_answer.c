/* The answer grammar's golden table (tests/answers-golden.tsv) is the spec:
 * every row read the same under the C, C.UTF-8 and de_DE.UTF-8 locales
 * (where printf and strtod would want a decimal comma). */
#include <locale.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kv_answer.h"
#include "tsv.h"

/* "\t" in the table stands for a tab. */
static void unescape(const char *in, char *out, size_t cap)
{
    size_t o = 0;
    for (; *in && o + 1 < cap; in++) {
        if (in[0] == '\\' && in[1] == 't') {
            out[o++] = '\t';
            in++;
        } else {
            out[o++] = *in;
        }
    }
    out[o] = '\0';
}

static void run_table(const char *locale)
{
    struct tsv t;
    size_t ok = 0, err = 0;
    double *values;

    /* the table's own numbers are read in the C locale, before switching */
    setlocale(LC_ALL, "C");
    assert_int_equal(tsv_load("../answers-golden.tsv", &t), 0);
    values = calloc(tsv_count(&t), sizeof *values);
    assert_non_null(values);
    for (size_t i = 0; i < tsv_count(&t); i++)
        values[i] = strtod(tsv_get(&t, i, "value_or_reason"), NULL);
    if (!setlocale(LC_ALL, locale))
        fail_msg("the %s locale is not installed (./setup.sh generates it)", locale);
    for (size_t i = 0; i < tsv_count(&t); i++) {
        char input[512], why[200] = "";
        struct kv_answer a;
        const char *want = tsv_get(&t, i, "result");
        enum kvt_err e;

        unescape(tsv_get(&t, i, "input"), input, sizeof input);
        e = kv_answer_parse(input, &a, why, sizeof why);
        if (strcmp(want, "ok") == 0) {
            double v = values[i];
            const char *unit = tsv_get(&t, i, "unit");
            if (e != KVT_E_OK)
                fail_msg("[%s] \"%s\": refused (%s)", locale, input, why);
            if (!(a.value == v || fabs(a.value - v) <= 1e-15 * fabs(v)))
                fail_msg("[%s] \"%s\": %.17g, want %.17g", locale, input, a.value, v);
            if (strcmp(unit, "-") == 0 ? a.unit != NULL : !a.unit || strcmp(a.unit->name, unit))
                fail_msg("[%s] \"%s\": unit %s, want %s", locale, input,
                         a.unit ? a.unit->name : "-", unit);
            if (a.approx != (atoi(tsv_get(&t, i, "approx")) == 1))
                fail_msg("[%s] \"%s\": approx flag", locale, input);
            ok++;
        } else {
            const char *word = tsv_get(&t, i, "value_or_reason");
            if (e == KVT_E_OK)
                fail_msg("[%s] \"%s\": accepted as %g, should be refused", locale, input, a.value);
            if (*word && !strstr(why, word))
                fail_msg("[%s] \"%s\": reason \"%s\" lacks \"%s\"", locale, input, why, word);
            err++;
        }
    }
    tsv_free(&t);
    free(values);
    assert_true(ok + err >= 150);
    assert_true(err >= 40);
    setlocale(LC_ALL, "C");
}

static void test_golden_c(void **state)
{
    (void)state;
    run_table("C");
}

static void test_golden_c_utf8(void **state)
{
    (void)state;
    run_table("C.UTF-8");
}

static void test_golden_de(void **state)
{
    (void)state;
    run_table("de_DE.UTF-8");
}

/* Found by fuzz_answer: a lone "i" or "n" made the inf/nan check read two
 * bytes past the end. Each text sits in a heap block of exactly its size,
 * so AddressSanitizer sees any read beyond it. */
static void test_short_words_read_within_the_text(void **state)
{
    (void)state;
    static const char *const texts[] = {"I", "n", "in", "na", "~i", "-n", "i "};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        size_t n = strlen(texts[i]) + 1;
        char *t = malloc(n), why[200];
        struct kv_answer a;
        assert_non_null(t);
        memcpy(t, texts[i], n);
        assert_int_equal(kv_answer_parse(t, &a, why, sizeof why), KVT_E_PARSE);
        free(t);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_short_words_read_within_the_text),
        cmocka_unit_test(test_golden_c),
        cmocka_unit_test(test_golden_c_utf8),
        cmocka_unit_test(test_golden_de),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
