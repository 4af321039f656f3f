/* kv_resolve.h: the checks on a model and the helpers the calculator's
 * checks share: which field was at fault, the dtypes a model may have, the
 * ranges of GiB and rate figures.
 *
 * Internal to the calculator core (kv_calc.c, kv_resolve.c). */
#ifndef KV_RESOLVE_H
#define KV_RESOLVE_H

#include <stdbool.h>

#include "kv_calc.h"

/* The fields a refusal names (kv_calc's *bad and *other). */
struct kv_check {
    enum kv_field bad, other;
};

static inline enum kvt_err kv_fail(struct kv_check *c, enum kvt_err e, enum kv_field bad,
                                   enum kv_field other)
{
    c->bad = bad;
    c->other = other;
    return e;
}

static inline bool kv_is_model_dtype(enum kv_dtype t)
{
    return t == KV_DTYPE_FP32 || t == KV_DTYPE_FP16 || t == KV_DTYPE_BF16;
}

static inline bool kv_bad_gib(double x)
{
    return !(x >= 0.0 && x <= KV_MAX_GIB);
}

static inline bool kv_bad_rate(double x)
{
    return !(x >= 0.0 && x <= KV_MAX_RATE);
}

/* Checks every field of *m against its range and the others, and fills in
 * what the rules derive (dtypes, head_dim, sliding layers). KVT_E_OK, or
 * the error with c naming the fields. */
enum kvt_err kv_resolve_model(struct kv_model *m, struct kv_check *c);

#endif
