#include "kv_dtype.h"

#include <stddef.h>

struct dtype_name {
    const char *name;
    enum kv_dtype type;
};

/* Every spelling a user or a config.json may use; the first per type is canonical. */
static const struct dtype_name spellings[] = {
    {"auto", KV_DTYPE_AUTO},
    {"fp32", KV_DTYPE_FP32},
    {"float32", KV_DTYPE_FP32},
    {"float", KV_DTYPE_FP32},
    {"fp16", KV_DTYPE_FP16},
    {"float16", KV_DTYPE_FP16},
    {"half", KV_DTYPE_FP16},
    {"bf16", KV_DTYPE_BF16},
    {"bfloat16", KV_DTYPE_BF16},
    {"fp8", KV_DTYPE_FP8},
    {"fp8_e4m3", KV_DTYPE_FP8},
    {"fp8_e5m2", KV_DTYPE_FP8},
    {"float8", KV_DTYPE_FP8},
    {"int8", KV_DTYPE_INT8},
    {"int4", KV_DTYPE_INT4},
    {"mxfp4", KV_DTYPE_MXFP4},
    {"fp8_ds_mla", KV_DTYPE_FP8_DS_MLA},
    {"nvfp4", KV_DTYPE_NVFP4},
    {"int8_per_token_head", KV_DTYPE_INT8_PTH},
    {"fp8_per_token_head", KV_DTYPE_FP8_PTH},
};

static int lower(int c)
{
    return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c;
}

static bool same_nocase(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (lower((unsigned char)*a) != lower((unsigned char)*b))
            return false;
    return *a == *b;
}

bool kv_dtype_parse(const char *name, enum kv_dtype *out)
{
    if (!name)
        return false;
    for (size_t i = 0; i < sizeof spellings / sizeof spellings[0]; i++) {
        if (same_nocase(name, spellings[i].name)) {
            *out = spellings[i].type;
            return true;
        }
    }
    return false;
}

const char *kv_dtype_name(enum kv_dtype t)
{
    for (size_t i = 0; i < sizeof spellings / sizeof spellings[0]; i++)
        if (spellings[i].type == t)
            return spellings[i].name;
    return "?";
}

unsigned kv_dtype_kv_bytes(enum kv_dtype t)
{
    switch (t) {
    case KV_DTYPE_FP32:
        return 4;
    case KV_DTYPE_FP16:
    case KV_DTYPE_BF16:
        return 2;
    case KV_DTYPE_FP8:
    case KV_DTYPE_INT8:
        return 1;
    default:
        return 0;
    }
}

uint64_t kv_dtype_head_bytes(enum kv_dtype t, uint32_t dim)
{
    if (t == KV_DTYPE_NVFP4)
        return dim % 16 == 0 ? (uint64_t)dim / 2 + dim / 16 : 0;
    if (t == KV_DTYPE_INT8_PTH || t == KV_DTYPE_FP8_PTH)
        return (uint64_t)dim + 4; /* the scale sits beside the values, 4 B a head */
    return (uint64_t)dim * kv_dtype_kv_bytes(t);
}

double kv_dtype_weight_bits(enum kv_dtype t)
{
    switch (t) {
    case KV_DTYPE_FP32:
        return 32.0;
    case KV_DTYPE_FP16:
    case KV_DTYPE_BF16:
        return 16.0;
    case KV_DTYPE_FP8:
    case KV_DTYPE_INT8:
        return 8.0;
    case KV_DTYPE_INT4:
        return 4.0 + 16.0 / 128.0;
    case KV_DTYPE_MXFP4:
        return 4.0 + 8.0 / 32.0;
    default:
        return 0.0;
    }
}
