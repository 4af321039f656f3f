/* kv_ceiling.h: a measured (or peak) bandwidth turned into a decode
 * ceiling: tokens/s at batch 1, and at the batch that fills the free memory
 * with sequences of one length. What `kvtutor probe` and the app's probe
 * screen show after a run. */
#ifndef KV_CEILING_H
#define KV_CEILING_H

#include <stdbool.h>
#include <stdint.h>

#include "kv_calc.h"

struct kv_ceiling {
    bool ok;
    const char *why; /* when !ok: one line, for people */
    double batch1_tps;
    uint64_t fill_batch; /* 0: the weights and one sequence do not fit */
    double fill_tps;
};

/* The model's weights stay in `free_bytes` and the rest holds KV in vLLM's
 * blocks (the calculator's rules, util 1, no overhead); every step reads the
 * active weights once and each sequence's `seq` tokens of KV, at `gbps`. */
struct kv_ceiling kv_ceiling_at(const struct kv_model *m, uint64_t seq, double gbps,
                                double free_bytes);

#endif
