/* kv_decode.h: the decode-speed estimate of a sized deployment: the bytes a
 * step reads (weights and KV), the memory- and compute-bound tokens per
 * second, the lower of the two when the weights and the batch's KV fit
 * (CALC-CONTRACT.md, decode_tokens_per_s), and the batch where compute takes
 * over (roofline).
 *
 * Internal to the calculator core (kv_calc.c); kv_calc_kv_read_bytes and
 * kv_calc_decode_at are declared in kv_calc.h. */
#ifndef KV_DECODE_H
#define KV_DECODE_H

#include "kv_calc.h"

/* Fills res's decode figures from its shape, weights and deployment.
 * Returns KVT_E_OVERFLOW when the context's KV read does not fit 64 bits
 * (the caller names the context field), else KVT_E_OK. */
enum kvt_err kv_decode(struct kv_result *res);

#endif
