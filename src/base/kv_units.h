/* kv_units.h: the units lessons and answers speak in.
 *
 * Each unit belongs to a dimension and converts to that dimension's base
 * (bytes, bytes/s, tokens, seconds, ...). Decimal and binary prefixes stay
 * distinct: GB is 1e9 B, GiB is 2^30 B. kv_unit_find matches names exactly;
 * answers are read more leniently (kv_answer.h). */
#ifndef KV_UNITS_H
#define KV_UNITS_H

#include <stdbool.h>
#include <stddef.h>

enum kv_dim {
    KV_DIM_COUNT, /* plain numbers, "x" multipliers, sequences, blocks */
    KV_DIM_BYTES,
    KV_DIM_BANDWIDTH, /* bytes per second */
    KV_DIM_TOKENS,
    KV_DIM_THROUGHPUT, /* tokens per second */
    KV_DIM_TIME,       /* seconds */
    KV_DIM_FLOPS,      /* floating-point operations per second */
    KV_DIM_RATIO,      /* fractions: 90% is 0.9 */
    KV_DIM_INTENSITY,  /* floating-point operations per byte */
    KV_DIM_RATE,       /* requests per second */
};

struct kv_unit {
    const char *name; /* as written: "GiB", "tok/s", "%" */
    enum kv_dim dim;
    double scale;       /* base units per one of these */
    bool binary;        /* a power-of-two prefix */
    const char *counts; /* what a count counts ("sequences", "blocks", "GPUs", "steps"); NULL:
                           anything */
};

/* The unit called `name` (aliases included: "tokens/s" is "tok/s"); NULL
 * when there is none. "" is the plain number. */
const struct kv_unit *kv_unit_find(const char *name);

/* All units, in listing order. */
const struct kv_unit *kv_units(size_t *count);

/* What goes between a number and its unit when written: nothing for no
 * unit and for the signs written against the number ("93.9%", "7x", as
 * vLLM writes "4.50x"), else one space ("56 KiB", "12 tokens"). */
const char *kv_unit_gap(const char *unit);

/* The dimension's name: "bytes", "bandwidth"... */
const char *kv_dim_name(enum kv_dim d);

#endif
