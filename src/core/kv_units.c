#include "kv_units.h"

#include <string.h>

#define KI 1024.0
static const struct kv_unit units[] = {
    {"", KV_DIM_COUNT, 1, false},
    {"x", KV_DIM_COUNT, 1, false},
    {"sequences", KV_DIM_COUNT, 1, false},
    {"seqs", KV_DIM_COUNT, 1, false},
    {"requests", KV_DIM_COUNT, 1, false},
    {"blocks", KV_DIM_COUNT, 1, false},
    {"GPUs", KV_DIM_COUNT, 1, false},
    {"B", KV_DIM_BYTES, 1, false},
    {"bytes", KV_DIM_BYTES, 1, false},
    {"bit", KV_DIM_BYTES, 0.125, false},
    {"bits", KV_DIM_BYTES, 0.125, false},
    {"KB", KV_DIM_BYTES, 1e3, false},
    {"kB", KV_DIM_BYTES, 1e3, false},
    {"MB", KV_DIM_BYTES, 1e6, false},
    {"GB", KV_DIM_BYTES, 1e9, false},
    {"TB", KV_DIM_BYTES, 1e12, false},
    {"KiB", KV_DIM_BYTES, KI, true},
    {"MiB", KV_DIM_BYTES, KI *KI, true},
    {"GiB", KV_DIM_BYTES, KI *KI *KI, true},
    {"TiB", KV_DIM_BYTES, KI *KI *KI *KI, true},
    {"B/s", KV_DIM_BANDWIDTH, 1, false},
    {"MB/s", KV_DIM_BANDWIDTH, 1e6, false},
    {"GB/s", KV_DIM_BANDWIDTH, 1e9, false},
    {"TB/s", KV_DIM_BANDWIDTH, 1e12, false},
    {"GiB/s", KV_DIM_BANDWIDTH, KI *KI *KI, true},
    {"TiB/s", KV_DIM_BANDWIDTH, KI *KI *KI *KI, true},
    {"tok", KV_DIM_TOKENS, 1, false},
    {"tokens", KV_DIM_TOKENS, 1, false},
    {"tok/s", KV_DIM_THROUGHPUT, 1, false},
    {"tokens/s", KV_DIM_THROUGHPUT, 1, false},
    {"s", KV_DIM_TIME, 1, false},
    {"ms", KV_DIM_TIME, 1e-3, false},
    {"us", KV_DIM_TIME, 1e-6, false},
    {"FLOP/s", KV_DIM_FLOPS, 1, false},
    {"GFLOP/s", KV_DIM_FLOPS, 1e9, false},
    {"TFLOP/s", KV_DIM_FLOPS, 1e12, false},
    {"TFLOPS", KV_DIM_FLOPS, 1e12, false},
    {"%", KV_DIM_RATIO, 0.01, false},
};

const struct kv_unit *kv_unit_find(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(units[i].name, name) == 0)
            return &units[i];
    return NULL;
}

const struct kv_unit *kv_units(size_t *count)
{
    *count = sizeof units / sizeof units[0];
    return units;
}

const char *kv_dim_name(enum kv_dim d)
{
    static const char *const names[] = {"count",      "bytes", "bandwidth", "tokens",
                                        "throughput", "time",  "FLOP rate", "ratio"};
    return (unsigned)d < sizeof names / sizeof names[0] ? names[d] : "?";
}
