#include "kv_backend.h"

static const char *const backend_names[KV_BACKEND__COUNT] = {
    [KV_BACKEND_DEFAULT] = "auto",
    [KV_BACKEND_FLASH_ATTN] = "FLASH_ATTN",
    [KV_BACKEND_FLASHINFER] = "FLASHINFER",
    [KV_BACKEND_TRITON_ATTN] = "TRITON_ATTN",
    [KV_BACKEND_FLASHMLA] = "FLASHMLA",
    [KV_BACKEND_FLASHMLA_SPARSE] = "FLASHMLA_SPARSE",
    [KV_BACKEND_CUTLASS_MLA] = "CUTLASS_MLA",
    [KV_BACKEND_FLASHINFER_MLA] = "FLASHINFER_MLA",
    [KV_BACKEND_TRITON_MLA] = "TRITON_MLA",
};

bool kv_backend_parse(const char *name, enum kv_backend *out)
{
    for (int i = 0; i < KV_BACKEND__COUNT; i++) {
        const char *a = backend_names[i], *b = name;
        while (*a && *b && (*a == *b || (*b >= 'a' && *b <= 'z' && *b - 32 == *a)))
            a++, b++;
        if (!*a && !*b) {
            *out = (enum kv_backend)i;
            return true;
        }
    }
    return false;
}

const char *kv_backend_name(enum kv_backend b)
{
    return (unsigned)b < KV_BACKEND__COUNT ? backend_names[b] : "?";
}

bool kv_backend_is_mla(enum kv_backend b)
{
    return b == KV_BACKEND_FLASHMLA || b == KV_BACKEND_FLASHMLA_SPARSE ||
           b == KV_BACKEND_CUTLASS_MLA || b == KV_BACKEND_FLASHINFER_MLA ||
           b == KV_BACKEND_TRITON_MLA;
}

/* FlashMLA and FlashMLA-sparse 64, CUTLASS MLA 128 (each backend's one
 * kernel block size). FlashInfer-MLA's kernels take 32 and 64
 * (FlashInferMLABackend.get_supported_kernel_block_sizes, flashinfer_mla.py
 * at 002d68ef00d4): a block size left at vLLM's default 16 becomes the
 * backend's preferred one, the smallest it takes, 32
 * (AttentionBackend.get_preferred_block_size, vllm/v1/attention/backend.py at
 * 0014ca6b; Platform.update_block_size_for_backend applies it only when no
 * size was given); a size given must be a multiple of one of them
 * (supports_block_size), else vLLM refuses the backend: 0 here. An
 * explicit --block-size 16 is not told apart from the default, so it gets
 * 32 too (docs/calculator.md). Older sources forced sizes in
 * CudaPlatformBase.check_and_update_config (vllm/platforms/cuda.py at
 * 002db4951e0c: FlashInfer-MLA's 16 became 64); no release dates the change. */
uint32_t kv_backend_block(enum kv_backend b, uint32_t configured)
{
    switch (b) {
    case KV_BACKEND_FLASHMLA:
    case KV_BACKEND_FLASHMLA_SPARSE:
        return 64;
    case KV_BACKEND_CUTLASS_MLA:
        return 128;
    case KV_BACKEND_FLASHINFER_MLA:
        if (configured == 16)
            return 32;
        return configured % 32 == 0 ? configured : 0;
    default:
        return configured;
    }
}
