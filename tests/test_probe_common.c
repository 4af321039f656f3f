/* test_probe_common.c: the plain-C parts the probes share (probes/common):
 * the decision that there is no usable GPU, the self-check's expected sum,
 * the CUDA paged kernel's shift arithmetic, all without a GPU, and what the
 * CPU probe reads about the machine. */
#define _POSIX_C_SOURCE 200809L /* as the CPU probe: probe_platform.h's sysconf */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../probes/common/gpu_gate.h"
#include "../probes/common/paged_index.h"
#include "../probes/common/probe_io.h"
#include "../probes/common/probe_platform.h"

static int gate(int err, int count, int major, int minor, int driver, char *why)
{
    struct gpu_gate g = {err, count, major, minor, driver, 13000};
    return gpu_gate_check(&g, why, 256);
}

static void test_gate_reasons(void **state)
{
    (void)state;
    char why[256];
    assert_int_equal(gate(0, 1, 9, 0, 13000, why), PROBE_EXIT_OK);
    assert_string_equal(why, "");
    assert_int_equal(gate(0, 2, 7, 5, 13000, why), PROBE_EXIT_OK); /* Turing: the oldest */

    assert_int_equal(gate(35, 0, 0, 0, 0, why), PROBE_EXIT_NO_GPU);
    assert_string_equal(why, "no NVIDIA driver is installed (libcuda.so.1 was not found)");
    /* 12080 is how cudaDriverGetVersion says CUDA 12.8 */
    assert_int_equal(gate(35, 0, 0, 0, 12080, why), PROBE_EXIT_NO_GPU);
    assert_string_equal(why, "the NVIDIA driver supports CUDA 12.8, older than this probe's CUDA "
                             "13.0 runtime: upgrade the driver");
    assert_int_equal(gate(34, 0, 0, 0, 13000, why), PROBE_EXIT_NO_GPU);
    assert_non_null(strstr(why, "stub libcuda.so"));
    assert_int_equal(gate(100, 0, 0, 0, 13000, why), PROBE_EXIT_NO_GPU);
    assert_string_equal(why, "the NVIDIA driver sees no CUDA device");
    assert_int_equal(gate(0, 0, 0, 0, 13000, why), PROBE_EXIT_NO_GPU); /* no error, no device */
    assert_string_equal(why, "the NVIDIA driver sees no CUDA device");
    assert_int_equal(gate(802, 0, 0, 0, 13000, why), PROBE_EXIT_NO_GPU);
    assert_non_null(strstr(why, "Fabric Manager"));
    assert_int_equal(gate(803, 0, 0, 0, 13000, why), PROBE_EXIT_NO_GPU);
    assert_non_null(strstr(why, "(error 803)"));
    assert_int_equal(gate(804, 0, 0, 0, 13000, why), PROBE_EXIT_NO_GPU);
    assert_non_null(strstr(why, "forward-compatibility"));
    assert_int_equal(gate(46, 0, 0, 0, 13000, why), PROBE_EXIT_NO_GPU);
    assert_non_null(strstr(why, "busy"));
    /* cudaErrorUnknown: a GPU off the bus or in need of a reset */
    assert_int_equal(gate(999, 0, 0, 0, 13000, why), PROBE_EXIT_NO_GPU);
    assert_non_null(strstr(why, "unknown error (999)"));

    /* Volta (7.0), Jetson Xavier (7.2), Pascal (6.1): below 7.5 */
    assert_int_equal(gate(0, 1, 7, 2, 13000, why), PROBE_EXIT_NO_GPU);
    assert_string_equal(why, "the GPU's compute capability 7.2 is below 7.5, the oldest CUDA 13 "
                             "builds for");
    assert_int_equal(gate(0, 1, 6, 1, 13000, why), PROBE_EXIT_NO_GPU);
    assert_int_equal(gate(0, 1, 12, 0, 13000, why), PROBE_EXIT_OK);

    /* out of memory (2) is a failure, not an absence: the caller names it */
    assert_int_equal(gate(2, 0, 0, 0, 13000, why), PROBE_EXIT_FAILED);
    assert_string_equal(why, "");
}

/* The self-check's expected sums, against adding the words one by one, and
 * by hand past one cycle of 2^32 words. */
static void test_index_sum(void **state)
{
    (void)state;
    static const unsigned long long ns[] = {0, 1, 2, 3, 4, 5, 255, 256, 1000, 65537};
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
        unsigned long long want = 0;
        for (unsigned long long i = 0; i < ns[k]; i++)
            want += (uint32_t)i;
        assert_true(probe_index_sum(ns[k]) == want);
    }
    /* 1 GiB of words: 2^28 words, 0 + ... + (2^28 - 1) = 2^27 (2^28 - 1) */
    assert_true(probe_index_sum(1ull << 28) == (1ull << 27) * ((1ull << 28) - 1));
    /* 16 GiB: 2^32 words, exactly one cycle: 2^31 (2^32 - 1) = 9223372034707292160 */
    assert_true(probe_index_sum(1ull << 32) == 9223372034707292160ull);
    /* one cycle and three words more: the cycle plus 0 + 1 + 2 */
    assert_true(probe_index_sum((1ull << 32) + 3) == 9223372034707292160ull + 3);
    /* 64 GiB: four cycles, 4 x 2^31 (2^32 - 1) = 2^33 (2^32 - 1) = 36893488138829168640,
     * which is past 2^64 = 18446744073709551616 once: 36893488138829168640 - 2^64 */
    assert_true(probe_index_sum(1ull << 34) == 18446744065119617024ull);
}

static void test_log2_refuses_other_sizes(void **state)
{
    (void)state;
    assert_int_equal(paged_log2(1), 0);
    assert_int_equal(paged_log2(16), 4);
    assert_int_equal(paged_log2(2048), 11);
    assert_int_equal(paged_log2(0), -1);
    assert_int_equal(paged_log2(12), -1);
    assert_int_equal(paged_log2(48), -1);
}

/* The kernel's gather, group by group over a shuffled pool: every token is
 * read exactly once, from where paged_offset (the CPU probe's arithmetic)
 * says it lives, for every block and group size the probe uses. */
static void test_group_gather_matches_paged_offset(void **state)
{
    (void)state;
    enum { SEQS = 6, TOKENS = 2048, POOL = SEQS * TOKENS };
    static uint32_t table[POOL];
    static unsigned char seen[POOL];
    static const uint32_t sizes[] = {1, 8, 16, 32, 64};
    for (size_t k = 0; k < 5; k++) {
        uint32_t bs = sizes[k], per_seq = TOKENS / bs;
        uint32_t lg_block = (uint32_t)paged_log2(bs);
        uint32_t lg_group = bs < 8 ? lg_block : 3;
        memset(seen, 0, sizeof seen);
        paged_shuffle(table, SEQS * per_seq, 42 + bs);
        for (uint32_t g = 0; g < (uint32_t)POOL >> lg_group; g++) {
            uint32_t first = paged_group_token(table, lg_block, lg_group, g);
            for (uint32_t i = 0; i < (1u << lg_group); i++) {
                uint32_t t = (g << lg_group) + i; /* of the batch */
                uint32_t seq = t / TOKENS, in_seq = t % TOKENS;
                /* paged_offset with one element per token is the pool token */
                uint64_t want = paged_offset(table + seq * per_seq, bs, 1, in_seq, 0);
                assert_true(first + i == want);
                seen[first + i]++;
            }
        }
        for (uint32_t t = 0; t < (uint32_t)POOL; t++)
            assert_int_equal(seen[t], 1);
    }
}

/* The order-aware checksum: a token's word sum by hand and across the wrap
 * at 2^32; the kernel's weighting (token t of the batch weighs t + 1),
 * emulated over a real pool, equals paged_weighted_sum for every block
 * size; and a gather that ignored its table (read the pool in order) sums
 * the same words to something else, so the self-check fails it. */
static void test_weighted_sum(void **state)
{
    (void)state;
    enum { TOKENS = 4096, LG_WORDS = 9, WORDS = 1 << LG_WORDS }; /* 2 KiB tokens */
    static uint32_t pool[TOKENS * WORDS], table[TOKENS];
    static const uint32_t sizes[] = {1, 8, 16, 32, 64};
    /* token 3: words 1536..2047, 512 x 1536 + 511 x 512 / 2 = 786,432 + 130,816 */
    assert_true(paged_token_sum(3, LG_WORDS) == 917248ull);
    /* token 2^23 starts at word 2^32, which the pattern holds as 0 */
    assert_true(paged_token_sum(1ull << 23, LG_WORDS) == paged_token_sum(0, LG_WORDS));
    for (uint32_t i = 0; i < TOKENS * WORDS; i++)
        pool[i] = i;
    for (size_t k = 0; k < 5; k++) {
        uint32_t lg_block = (uint32_t)paged_log2(sizes[k]);
        uint32_t lg_group = sizes[k] < 8 ? lg_block : 3;
        uint64_t kernel = 0, ignored = 0, plain = 0, plain_ignored = 0;
        paged_shuffle(table, TOKENS >> lg_block, 42 + sizes[k]);
        for (uint32_t g = 0; g < (uint32_t)TOKENS >> lg_group; g++) {
            uint32_t first = paged_group_token(table, lg_block, lg_group, g);
            for (uint32_t i = 0; i < (1u << lg_group); i++) {
                uint64_t t = ((uint64_t)g << lg_group) + i, own = 0, in_order = 0;
                for (uint32_t w = 0; w < WORDS; w++) {
                    own += pool[(size_t)(first + i) * WORDS + w];
                    in_order += pool[t * WORDS + w];
                }
                kernel += (t + 1) * own;
                ignored += (t + 1) * in_order;
                plain += own;
                plain_ignored += in_order;
            }
        }
        uint64_t want = paged_weighted_sum(table, lg_block, TOKENS, LG_WORDS);
        assert_true(kernel == want);
        assert_true(ignored != want);
        /* the same words either way: a plain sum could not tell */
        assert_true(plain == plain_ignored);
    }
}

/* Whatever the machine, the probe gets figures it can size a run with. */
static void test_platform_figures(void **state)
{
    (void)state;
    char name[256];
    probe_cpu_name(name, sizeof name);
    assert_true(name[0] != '\0');
#if defined(__linux__)
    assert_true(probe_core_count() >= 1);
    assert_true(probe_mem_available() > 0);
#endif
    assert_true(probe_llc_bytes() > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gate_reasons),
        cmocka_unit_test(test_index_sum),
        cmocka_unit_test(test_log2_refuses_other_sizes),
        cmocka_unit_test(test_group_gather_matches_paged_offset),
        cmocka_unit_test(test_weighted_sum),
        cmocka_unit_test(test_platform_figures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
