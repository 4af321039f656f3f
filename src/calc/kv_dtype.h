/* kv_dtype.h: element types for weights and the KV cache.
 *
 * KV elements are whole bytes (vLLM stores fp8 and int8 caches as one byte).
 * Weight storage can be fractional: int4 carries one fp16 scale per group of
 * 128 weights (4 + 16/128 = 4.125 bits), mxfp4 one 8-bit scale per 32
 * (4 + 8/32 = 4.25 bits). */
#ifndef KV_DTYPE_H
#define KV_DTYPE_H

#include <stdbool.h>
#include <stdint.h>

enum kv_dtype {
    KV_DTYPE_AUTO = 0, /* KV: follow the model dtype; weights: follow the model dtype */
    KV_DTYPE_FP32,
    KV_DTYPE_FP16,
    KV_DTYPE_BF16,
    KV_DTYPE_FP8,
    KV_DTYPE_INT8,
    KV_DTYPE_INT4,
    KV_DTYPE_MXFP4,
    KV_DTYPE_FP8_DS_MLA, /* DeepSeek-V3.2's MLA cache: 656 B a token a layer */
    KV_DTYPE_NVFP4,      /* 4-bit values, one fp8 scale per 16: D/2 + D/16 B a head */
    KV_DTYPE_INT8_PTH,   /* int8_per_token_head: D B + one fp32 scale a head a token */
    KV_DTYPE_FP8_PTH,    /* fp8_per_token_head: likewise */
    KV_DTYPE__COUNT
};

/* Parses "bf16", "bfloat16", "fp8_e4m3", "float16"... (case-insensitive).
 * Returns false for an unknown name and leaves *out untouched. */
bool kv_dtype_parse(const char *name, enum kv_dtype *out);

/* Short canonical name: "auto", "fp32", "bf16", "fp8", "int4"... */
const char *kv_dtype_name(enum kv_dtype t);

/* Bytes per KV element; 0 for types that cannot hold a KV cache (auto, int4,
 * mxfp4) and for those not sized per element (fp8_ds_mla, nvfp4, the
 * per-token-head forms). */
unsigned kv_dtype_kv_bytes(enum kv_dtype t);

/* Bytes of one head's K (or V) vector of `dim` values: dim x element bytes;
 * nvfp4 dim / 2 + dim / 16 (vLLM's packed values and fp8 block scales); the
 * per-token-head forms dim + 4 (one byte a value and an fp32 scale,
 * AttentionSpec.page_size_bytes); 0 when the type cannot hold one (or dim
 * does not split into its blocks). */
uint64_t kv_dtype_head_bytes(enum kv_dtype t, uint32_t dim);

/* Bits per stored weight, scale overhead included; 0 for auto. */
double kv_dtype_weight_bits(enum kv_dtype t);

#endif
