/* kv_state.h: the recurrent state of hybrid models' Mamba and gated-delta-net
 * layers, and how vLLM groups layers of several kinds.
 *
 * Internal to the calculator core (kv_calc.c); split out to keep each file
 * one subject. Shapes follow vLLM's MambaStateShapeCalculator
 * (vllm/model_executor/layers/mamba/mamba_utils.py):
 *   GDN:    conv (conv_kernel - 1 + k) x (2 x groups x state_dim + heads x head_dim) / tp
 *           SSM  heads / tp x state_dim x head_dim
 *   Mamba2: groups replicated up to tp when tp does not divide them;
 *           conv (conv_kernel - 1 + k) x (heads x head_dim + 2 x groups x state_dim) / tp
 *           SSM  heads / tp x head_dim x state_dim
 * with k the speculative tokens. */
#ifndef KV_STATE_H
#define KV_STATE_H

#include "kv_calc.h"

struct kv_state_shape {
    uint64_t conv_bytes, ssm_bytes; /* one layer, one GPU */
    uint64_t layer_bytes;           /* conv + ssm */
};

/* One recurrent layer's state on one GPU. Returns KVT_E_OK, or an error with
 * *bad naming the field TP cannot split (or that overflows). */
enum kvt_err kv_state_shape(const struct kv_model *m, uint32_t tp, uint32_t spec_tokens,
                            unsigned conv_elem_bytes, unsigned ssm_elem_bytes,
                            struct kv_state_shape *out, enum kv_field *bad);

/* vLLM's group size for buckets of same-kind layers (zeros ignored):
 * the smallest bucket, or the largest when the release's rule allows. */
uint32_t kv_state_group_size(enum kv_group_rule rule, const uint32_t *buckets, size_t n);

#endif
