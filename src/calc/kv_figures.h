/* kv_figures.h: a calculator result as named figures, the one list behind
 * `kvtutor calc --json` and the Lua kv.calc table, so both speak with the
 * same names. */
#ifndef KV_FIGURES_H
#define KV_FIGURES_H

#include <stddef.h>

#include "kv_calc.h"

enum kv_figure_kind { KV_FIG_NULL, KV_FIG_INT, KV_FIG_REAL, KV_FIG_BOOL, KV_FIG_TEXT };

struct kv_figure {
    const char *name;
    enum kv_figure_kind kind; /* KV_FIG_NULL when its inputs were not given */
    union {
        uint64_t i;
        double r;
        int b;
        const char *t;
    } v;
};

/* Fills out[] with every figure of the result, in a fixed order; returns how
 * many (at most KV_FIGURES_MAX). Text figures point into *r (and static
 * strings), so r must outlive out[]. The notes (r->rules.notes) are a list
 * and not among the figures. */
#define KV_FIGURES_MAX 64
size_t kv_figures(const struct kv_result *r, struct kv_figure *out, size_t cap);

#endif
