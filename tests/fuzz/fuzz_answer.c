/* fuzz_answer: a typed answer, any bytes. Parsed as the grader reads it, then
 * graded against the first lesson's per-token figure (57,344 B) with the
 * mistake diagnosis on, as the app does for every answer. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kv_answer.h"
#include "kv_grade.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    struct kv_answer a;
    char why[200];
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    kv_answer_parse(text, &a, why, sizeof why);

    struct kv_numeric ex = {
        .expected = 57344,
        .unit = kv_unit_find("B"),
        .tolerance = 0.01,
        .relative = true,
        .relation = KV_REL_DIRECT,
        .model = {.known = true, .layers = 28, .heads = 28, .kv_heads = 4, .kv_bytes = 2},
    };
    struct kv_numeric_result r;
    kv_grade_numeric(&ex, text, &r);
    free(text);
    return 0;
}
