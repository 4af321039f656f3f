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

/* The block sizes an MLA backend's kernels take
 * (get_supported_kernel_block_sizes): FlashMLA and FlashMLA-sparse 64,
 * CUTLASS MLA 128, FlashInfer-MLA 32 and 64 (flashinfer_mla.py at
 * 002d68ef00d4). Since vllm-project/vllm#35122 (February 2026) the backend
 * decides (vllm/v1/attention/backend.py at 0014ca6b): a block size left at
 * vLLM's default 16 becomes the backend's preferred one, the default when a
 * kernel size divides it, else the smallest kernel size
 * (AttentionBackend.get_preferred_block_size, applied by
 * Platform.update_block_size_for_backend only when no size was given); a
 * size given must be a multiple of a kernel size (supports_block_size),
 * else vLLM refuses the backend: 0 here. An explicit --block-size 16 is not
 * told apart from the default, so it gets the preferred size too
 * (docs/calculator.md). Before #35122, CudaPlatformBase.check_and_update_config
 * (vllm/platforms/cuda.py at 002db4951e0c, from #24692 of September 2025)
 * forced sizes instead: FlashInfer-MLA's 16 became 64, FlashMLA took 64 and
 * CUTLASS MLA 128 whatever was given. */
uint32_t kv_backend_block(enum kv_backend b, uint32_t configured)
{
    /* each list smallest first, so sizes[0] is the preferred size */
    static const uint32_t flashmla[] = {64, 0}, cutlass[] = {128, 0}, flashinfer[] = {32, 64, 0};
    const uint32_t *sizes;

    switch (b) {
    case KV_BACKEND_FLASHMLA:
    case KV_BACKEND_FLASHMLA_SPARSE:
        sizes = flashmla;
        break;
    case KV_BACKEND_CUTLASS_MLA:
        sizes = cutlass;
        break;
    case KV_BACKEND_FLASHINFER_MLA:
        sizes = flashinfer;
        break;
    default:
        return configured;
    }
    for (const uint32_t *s = sizes; *s; s++)
        if (configured % *s == 0)
            return configured;
    return configured == 16 ? sizes[0] : 0;
}
