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

/* log2 of a block or group size: the CUDA kernel indexes with shifts and
 * masks, so sizes must be powers of two; -1 for any other value. */
PAGED_FN int paged_log2(uint32_t v)
{
    int k = 0;
    if (v == 0 || (v & (v - 1)) != 0)
        return -1;
    while ((1u << k) != v)
        k++;
    return k;
}

/* The CUDA kernel's gather, in 32-bit shifts and masks: the tables of all
 * sequences sit end to end and every sequence is a whole number of blocks
 * of 2^lg_block tokens, so token t of the whole batch (sequences
 * flattened) is in pool block table[t >> lg_block], slot t & (block - 1).
 * Group g is the 2^lg_group tokens from t = g << lg_group (lg_group <=
 * lg_block: a group never leaves its block); returns the pool token where
 * the group starts, its tokens contiguous from there. Needs fewer than 2^32
 * tokens in the pool and in the batch. */
PAGED_FN uint32_t paged_group_token(const uint32_t *table, uint32_t lg_block, uint32_t lg_group,
                                    uint32_t g)
{
    uint32_t t0 = g << lg_group;
    return (table[t0 >> lg_block] << lg_block) | (t0 & ((1u << lg_block) - 1));
}

/* The sum of the 32-bit words of pool token `token` when word i of the
 * pool holds i mod 2^32 (fill_kernel's pattern) and a token is
 * 2^lg_words words (at most 2^31): a token never straddles the wrap at
 * 2^32, so its words are base, base + 1, ... with base its first word's
 * index mod 2^32. */
PAGED_FN uint64_t paged_token_sum(uint64_t token, uint32_t lg_words)
{
    uint64_t n = 1ull << lg_words, base = (token << lg_words) & 0xffffffffull;
    return n * base + n * (n - 1) / 2;
}

/* The order-aware checksum of one pass of the CUDA paged kernel over
 * n_tokens tokens (sequences flattened) through `table` at blocks of
 * 2^lg_block: each token's word sum weighted by its logical position plus
 * one, modulo 2^64. A gather that ignored the table, or read blocks in
 * another order, sums the same words with other weights and fails the
 * check; with weights that grow with the position, the identity table gives
 * the largest sum and any other permutation a smaller one (before the
 * modulo, which a mismatch survives but for a 2^-64 chance). */
PAGED_FN uint64_t paged_weighted_sum(const uint32_t *table, uint32_t lg_block, uint32_t n_tokens,
                                     uint32_t lg_token_words)
{
    uint64_t s = 0;
    for (uint32_t t = 0; t < n_tokens; t++) {
        uint32_t pool_token = (table[t >> lg_block] << lg_block) | (t & ((1u << lg_block) - 1));
        s += ((uint64_t)t + 1) * paged_token_sum(pool_token, lg_token_words);
    }
    return s;
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
