/* probe_kernels.cuh: the CUDA probe's kernels (included once, by
 * cuda_probe.cu).
 *
 * Every kernel adds up the 32-bit words it reads (64-bit sums, one atomic
 * per block), so that the host can check that a pass read every byte it
 * claims exactly once (probe_index_sum in probe_io.h); the paged gather
 * weighs each token's words by the token's logical position, so that it
 * must also have read them in the order its block table gives
 * (paged_weighted_sum in paged_index.h). The sum also keeps the compiler
 * from dropping any load.
 *
 * Grids are sized on the host from cudaOccupancyMaxActiveBlocksPerMultiprocessor
 * times the SM count: one wave of resident blocks, whatever register count
 * a compiler or the driver's JIT gives. __launch_bounds__ tells ptxas the
 * block size and the blocks per SM to keep registers low enough for
 * (docs/probes.md has ptxas -v's counts for each architecture). */
#ifndef PROBE_KERNELS_CUH
#define PROBE_KERNELS_CUH

#include <stdint.h>

#include "../common/paged_index.h"

#define THREADS 256 /* every kernel's block size */
#define WARPS   (THREADS / 32)
#define UNROLL  4 /* independent 16-byte loads in flight per thread */
/* Blocks of THREADS an SM holds at full occupancy, for __launch_bounds__:
 * the resident-thread limit over 256 (CUDA C++ Programming Guide,
 * "Technical Specifications per Compute Capability": 1,024 threads on 7.5;
 * 2,048 on 8.0, 9.0, 10.x; 1,536 on 8.6, 8.7 (Jetson Orin: 48 warps), 8.9,
 * 12.x). A bound set too high only costs registers; too low, occupancy. With a 65,536
 * register file that caps a thread at 64, 32 and 42 (40 as allocated)
 * registers. The PTX for 7.5, JIT-compiled on a later GPU, keeps 7.5's
 * bound; the host's occupancy query then sizes the grid for what it got. */
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ == 800 || __CUDA_ARCH__ == 900 ||                     \
    __CUDA_ARCH__ == 1000 || __CUDA_ARCH__ == 1030
#define MIN_BLOCKS_PER_SM 8
#elif __CUDA_ARCH__ < 800
#define MIN_BLOCKS_PER_SM 4
#else
#define MIN_BLOCKS_PER_SM 6
#endif
/* A token of KV, in uint4: 8 KV heads x 128 dims x 2 bytes = 2 KiB = 128 x
 * 16 B, which is 32 lanes x UNROLL loads: a group of tokens is always a
 * whole number of a warp's unrolled loads. */
#define LG_TOKEN_VEC 7
#define TOKEN_VEC    (1u << LG_TOKEN_VEC)
static_assert(TOKEN_VEC % (32 * UNROLL) == 0, "a token is whole unrolled warp loads");

__device__ __forceinline__ uint64_t sum4(uint4 v)
{
    return (uint64_t)v.x + v.y + v.z + v.w;
}

/* The block's total into *sum with one atomic: a warp shuffle, then the
 * warps' sums through shared memory. */
__device__ __forceinline__ void block_sum(uint64_t acc, unsigned long long *sum)
{
    __shared__ uint64_t warp_sum[WARPS];
    for (int o = 16; o > 0; o >>= 1)
        acc += __shfl_down_sync(0xffffffffu, acc, o);
    if ((threadIdx.x & 31) == 0)
        warp_sum[threadIdx.x >> 5] = acc;
    __syncthreads();
    if (threadIdx.x == 0) {
        uint64_t s = 0;
        for (int w = 0; w < WARPS; w++)
            s += warp_sum[w];
        atomicAdd(sum, (unsigned long long)s);
    }
}

/* The streaming read: a grid-stride loop over n uint4, UNROLL loads issued
 * before any is used. */
__global__ void __launch_bounds__(THREADS, MIN_BLOCKS_PER_SM)
    read_kernel(const uint4 *__restrict__ p, size_t n, unsigned long long *sum)
{
    size_t stride = (size_t)gridDim.x * THREADS;
    size_t i = (size_t)blockIdx.x * THREADS + threadIdx.x;
    uint64_t acc = 0;
    for (; i + (UNROLL - 1) * stride < n; i += UNROLL * stride) {
        uint4 v[UNROLL];
#pragma unroll
        for (int u = 0; u < UNROLL; u++)
            v[u] = p[i + u * stride];
#pragma unroll
        for (int u = 0; u < UNROLL; u++)
            acc += sum4(v[u]);
    }
    for (; i < n; i += stride)
        acc += sum4(p[i]);
    block_sum(acc, sum);
}

/* The paged gather, as vLLM lays out a layer's KV: the pool is blocks of
 * 2^lg_block tokens, a sequence's block table lists its pool blocks
 * (paged_group_token in paged_index.h has the arithmetic).
 *
 * A warp takes a group of 2^lg_group tokens (at most a block, so a group
 * never leaves its block): one table read for the group, then one
 * contiguous run of group x TOKEN_VEC uint4, UNROLL loads per lane at a
 * time. Index arithmetic is 32-bit shifts and masks (tokens < 2^32). The
 * contiguous control is this kernel with an identity table. */
__global__ void __launch_bounds__(THREADS, MIN_BLOCKS_PER_SM)
    paged_kernel(const uint4 *__restrict__ pool, const uint32_t *__restrict__ table,
                 uint32_t lg_block, uint32_t lg_group, uint32_t n_groups, unsigned long long *sum)
{
    const uint32_t lane = threadIdx.x & 31;
    const uint32_t warps = gridDim.x * WARPS;
    const uint32_t run = TOKEN_VEC << lg_group;
    uint64_t acc = 0;
    for (uint32_t g = blockIdx.x * WARPS + (threadIdx.x >> 5); g < n_groups; g += warps) {
        uint32_t token = paged_group_token(table, lg_block, lg_group, g);
        const uint4 *src = pool + ((size_t)token << LG_TOKEN_VEC);
        /* one pass of j is one token (TOKEN_VEC = 32 lanes x UNROLL): its
         * words weigh its logical position + 1 (paged_weighted_sum) */
        uint64_t weight = ((uint64_t)g << lg_group) + 1;
        for (uint32_t j = lane; j < run; j += 32 * UNROLL, weight++) {
            uint4 v[UNROLL];
#pragma unroll
            for (int u = 0; u < UNROLL; u++)
                v[u] = src[j + u * 32];
            uint64_t t = 0;
#pragma unroll
            for (int u = 0; u < UNROLL; u++)
                t += sum4(v[u]);
            acc += t * weight;
        }
    }
    block_sum(acc, sum);
}

/* The index pattern the self-check counts on: word i holds i mod 2^32. */
__global__ void __launch_bounds__(THREADS) fill_kernel(uint32_t *p, size_t words)
{
    size_t stride = (size_t)gridDim.x * THREADS;
    for (size_t i = (size_t)blockIdx.x * THREADS + threadIdx.x; i < words; i += stride)
        p[i] = (uint32_t)i;
}

#endif
