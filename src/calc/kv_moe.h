/* kv_moe.h: the weight bytes one forward step reads, for dense models and for
 * mixtures of experts.
 *
 * A dense step reads every weight once, whatever its batch. A MoE step reads
 * the layers every token uses (attention, embeddings, norms, the router, shared
 * experts, dense layers) and, of each MoE layer's E routed experts, only those
 * at least one of its tokens was routed to. With top-k routing spread evenly and
 * independently over the experts, an expert escapes all B tokens with
 * probability (1 - k/E)^B, so a step touches on average
 *
 *     E x (1 - (1 - k/E)^B)   experts a layer,
 *
 * k at B = 1 (the active parameters) and nearly E past a few dozen tokens. It
 * is an assumption, stated wherever the figure is shown: real routers are
 * skewed, so a real batch touches somewhat fewer.
 *
 * The split into always-read and routed bytes comes from the result's own
 * figures: total = shared + experts and active = shared + experts x k/E, so
 * experts = (total - active) / (1 - k/E). It holds for any weight storage
 * whose bytes follow the parameter counts. */
#ifndef KV_MOE_H
#define KV_MOE_H

#include <stdbool.h>
#include <stdint.h>

#include "kv_calc.h"

/* Share of a layer's `experts` that at least one of `tokens` tokens, each
 * routed to `per_token` of them, touches: 1 - (1 - per_token/experts)^tokens.
 * 1 when experts is 0 (dense) or per_token >= experts. */
double kv_moe_touched_share(uint32_t experts, uint32_t per_token, double tokens);

struct kv_moe_split {
    bool moe;             /* active weights below the total */
    bool experts_known;   /* E and k given: the expert rule applies */
    double shared_bytes;  /* read by every step, whole model */
    double experts_bytes; /* the routed experts, whole model */
    uint32_t experts, per_token;
    double active_share; /* active / total weight bytes (the fallback's draw) */
};

/* The result's weights split as above. For a dense model (or unknown
 * weights) shared_bytes is the active weight bytes and experts_bytes 0. A MoE
 * without its expert counts falls back to treating each token's active share
 * as drawn from the whole model: total x (1 - (1 - active/total)^B), which
 * also gives the active weights at B = 1; kv_calc notes that case. */
void kv_moe_split(const struct kv_result *res, struct kv_moe_split *out);

/* Weight bytes one step of `tokens` tokens reads, whole model (each of tp
 * GPUs reads 1/tp of them). tokens < 1 counts as 1. The simulator keeps the
 * split and asks it at every step. */
double kv_moe_read_bytes(const struct kv_moe_split *s, double tokens);

/* The same for a calculator result: kv_moe_read_bytes of its split. */
double kv_calc_weight_read_bytes(const struct kv_result *res, double tokens);

/* Checks the expert counts of a model: both given or neither, at least 2
 * experts, 1 <= per_token < experts, and active parameters below the total
 * when both are known. Returns KVT_E_OK, or an error with *bad (and *other)
 * naming the fields. */
enum kvt_err kv_moe_check(const struct kv_model *m, enum kv_field *bad, enum kv_field *other);

#endif
