#include "kv_units.h"

#include <string.h>

#define KI 1024.0
static const struct kv_unit units[] = {
    {"", KV_DIM_COUNT, 1, false, NULL},
    {"x", KV_DIM_COUNT, 1, false, NULL},
    {"sequences", KV_DIM_COUNT, 1, false, "sequences"},
    {"seqs", KV_DIM_COUNT, 1, false, "sequences"},
    {"requests", KV_DIM_COUNT, 1, false, "sequences"},
    {"blocks", KV_DIM_COUNT, 1, false, "blocks"},
    {"GPUs", KV_DIM_COUNT, 1, false, "GPUs"},
    {"steps", KV_DIM_COUNT, 1, false, "steps"},
    {"B", KV_DIM_BYTES, 1, false, NULL},
    {"bytes", KV_DIM_BYTES, 1, false, NULL},
    {"bit", KV_DIM_BYTES, 0.125, false, NULL},
    {"bits", KV_DIM_BYTES, 0.125, false, NULL},
    {"kbit", KV_DIM_BYTES, 125, false, NULL},
    {"Mbit", KV_DIM_BYTES, 1.25e5, false, NULL},
    {"Gbit", KV_DIM_BYTES, 1.25e8, false, NULL},
    {"Kibit", KV_DIM_BYTES, KI / 8, true, NULL},
    {"Mibit", KV_DIM_BYTES, KI *KI / 8, true, NULL},
    {"Gibit", KV_DIM_BYTES, KI *KI *KI / 8, true, NULL},
    {"KB", KV_DIM_BYTES, 1e3, false, NULL},
    {"kB", KV_DIM_BYTES, 1e3, false, NULL},
    {"MB", KV_DIM_BYTES, 1e6, false, NULL},
    {"GB", KV_DIM_BYTES, 1e9, false, NULL},
    {"TB", KV_DIM_BYTES, 1e12, false, NULL},
    {"KiB", KV_DIM_BYTES, KI, true, NULL},
    {"MiB", KV_DIM_BYTES, KI *KI, true, NULL},
    {"GiB", KV_DIM_BYTES, KI *KI *KI, true, NULL},
    {"TiB", KV_DIM_BYTES, KI *KI *KI *KI, true, NULL},
    {"B/s", KV_DIM_BANDWIDTH, 1, false, NULL},
    {"MB/s", KV_DIM_BANDWIDTH, 1e6, false, NULL},
    {"GB/s", KV_DIM_BANDWIDTH, 1e9, false, NULL},
    {"TB/s", KV_DIM_BANDWIDTH, 1e12, false, NULL},
    {"GiB/s", KV_DIM_BANDWIDTH, KI *KI *KI, true, NULL},
    {"TiB/s", KV_DIM_BANDWIDTH, KI *KI *KI *KI, true, NULL},
    {"tok", KV_DIM_TOKENS, 1, false, NULL},
    {"tokens", KV_DIM_TOKENS, 1, false, NULL},
    {"tok/s", KV_DIM_THROUGHPUT, 1, false, NULL},
    {"tokens/s", KV_DIM_THROUGHPUT, 1, false, NULL},
    {"s", KV_DIM_TIME, 1, false, NULL},
    {"ms", KV_DIM_TIME, 1e-3, false, NULL},
    {"us", KV_DIM_TIME, 1e-6, false, NULL},
    {"FLOP/s", KV_DIM_FLOPS, 1, false, NULL},
    {"GFLOP/s", KV_DIM_FLOPS, 1e9, false, NULL},
    {"TFLOP/s", KV_DIM_FLOPS, 1e12, false, NULL},
    {"TFLOPS", KV_DIM_FLOPS, 1e12, false, NULL},
    {"%", KV_DIM_RATIO, 0.01, false, NULL},
    {"FLOP/B", KV_DIM_INTENSITY, 1, false, NULL},
    {"requests/s", KV_DIM_RATE, 1, false, NULL},
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

const char *kv_unit_gap(const char *unit)
{
    if (!unit || !unit[0] || strcmp(unit, "%") == 0 || strcmp(unit, "x") == 0 ||
        strcmp(unit, "×") == 0)
        return "";
    return " ";
}

const struct kv_unit *kv_units(size_t *count)
{
    *count = sizeof units / sizeof units[0];
    return units;
}

const char *kv_dim_name(enum kv_dim d)
{
    static const char *const names[] = {"count",       "bytes",      "bandwidth",
                                        "tokens",      "throughput", "time",
                                        "FLOP rate",   "ratio",      "arithmetic intensity",
                                        "request rate"};
    return (unsigned)d < sizeof names / sizeof names[0] ? names[d] : "?";
}
