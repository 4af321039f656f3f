/* paged_index.h: where a token's KV lives in a paged cache, as vLLM lays it
 * out, for both the CUDA and the CPU probe (and their C unit test).
 *
 * The pool holds n_blocks blocks of block_size tokens, each token
 * token_elems elements wide. A sequence's block table lists which pool
 * block holds its tokens [0, block_size), [block_size, 2 block_size), ...
 * Token t of a sequence therefore sits in pool block table[t / block_size],
 * slot t % block_size. Everything here is plain integer arithmetic, so the
 * same header compiles under nvcc and a C compiler. */
#ifndef PAGED_INDEX_H
#define PAGED_INDEX_H

#include <stdint.h>

#ifdef __CUDACC__
#define PAGED_FN __host__ __device__ static inline
#else
#define PAGED_FN static inline
#endif

/* Element offset in the pool of element e of token t, given the sequence's
 * block table. */
PAGED_FN uint64_t paged_offset(const uint32_t *table, uint32_t block_size, uint64_t token_elems,
                               uint64_t t, uint64_t e)
{
    uint64_t block = table[t / block_size];
    uint64_t slot = t % block_size;
    return (block * block_size + slot) * token_elems + e;
}

/* Blocks a sequence of `tokens` needs. */
PAGED_FN uint64_t paged_blocks(uint64_t tokens, uint32_t block_size)
{
    return (tokens + block_size - 1) / block_size;
}

/* A deterministic shuffle of the pool's blocks for the block tables (the
 * same seed gives the same layout on every run): an LCG-driven
 * Fisher-Yates over [0, n). `perm` holds n entries. */
PAGED_FN void paged_shuffle(uint32_t *perm, uint32_t n, uint64_t seed)
{
    uint64_t x = seed ? seed : 0x9E3779B97F4A7C15ull;
    for (uint32_t i = 0; i < n; i++)
        perm[i] = i;
    for (uint32_t i = n; i > 1; i--) {
        uint32_t j;
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        j = (uint32_t)((x >> 33) % i);
        uint32_t tmp = perm[i - 1];
        perm[i - 1] = perm[j];
        perm[j] = tmp;
    }
}

#endif
