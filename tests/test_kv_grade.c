/* Grading and diagnosis against hand arithmetic on the seed lesson's model,
 * Qwen2.5-7B: 28 layers, 28 query heads, 4 KV heads, head_dim 128, BF16.
 * Per token: 2 x 28 x 4 x 128 x 2 = 57,344 B = 56 KiB. */
#include <locale.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kv_grade.h"
#include "tsv.h"

static const struct kv_diag_model qwen = {true, 28, 28, 4, 2, 0};

static struct kv_numeric per_token(void)
{
    return (struct kv_numeric){57344, kv_unit_find("B"), 0.01, true, KV_REL_DIRECT, qwen, 0, 0,
                               NULL,  {0, 0, 0}};
}

static void check(const struct kv_numeric *ex, const char *typed, enum kv_verdict v,
                  enum kv_mistake m)
{
    struct kv_numeric_result r;
    kv_grade_numeric(ex, typed, &r);
    if (r.verdict != v || r.mistake != m)
        fail_msg("\"%s\": verdict %d mistake %s (parsed %g), want %d %s", typed, r.verdict,
                 kv_mistake_id(r.mistake), r.parsed, v, kv_mistake_id(m));
}

/* The mistakes the lessons teach beyond the head and unit arithmetic, each
 * on an exercise's own figures worked by hand. */
static void test_taught_diagnoses(void **state)
{
    (void)state;
    /* Llama-3.1-70B at TP 16: 80 layers, 64 query heads, 8 KV heads of 128.
     * 8 KV heads over 16 GPUs: each keeps one whole head (replicated), so per
     * GPU a token is 2 x 80 x 1 x 128 x 2 B = 40,960 B = 40 KiB. Half a head
     * gives 20 KiB, which a missing x2 would give too: the split is named.
     * Query heads per GPU are 64 / 16 = 4 over its 1 KV head: 160 KiB. */
    static const struct kv_diag_model llama70 = {true, 80, 64, 8, 2, 16};
    struct kv_numeric tp16 = {
        40, kv_unit_find("KiB"), 0.01, true, KV_REL_DIRECT, llama70, 0, 0, "token", {0, 0, 0}};
    check(&tp16, "40 KiB", KV_CORRECT, KV_MISTAKE_NONE);
    check(&tp16, "20 KiB", KV_WRONG, KV_MISTAKE_SPLIT_KV_HEADS);
    check(&tp16, "160 KiB", KV_WRONG, KV_MISTAKE_QUERY_HEADS);
    /* at TP 8 each GPU has exactly one head: half of it is a missing x2 */
    struct kv_numeric tp8 = tp16;
    tp8.model.tp = 8;
    check(&tp8, "20 KiB", KV_WRONG, KV_MISTAKE_NO_KV_PAIR);
    /* The single-GPU figure, 2 x 80 x 8 x 128 x 2 B = 327,680 B = 320 KiB,
     * is the cache not divided by TP: the 8 heads over the 1 a GPU keeps,
     * x8 at TP 16 and TP 8 (where bits for bytes, and at TP 8 the 64 / 8
     * query heads, are x8 too); at TP 2 a GPU keeps 4, so x2, which fp32
     * for bf16 also is. The lesson's misconception is named first. */
    check(&tp16, "320 KiB", KV_WRONG, KV_MISTAKE_NO_TP_SPLIT);
    check(&tp8, "320 KiB", KV_WRONG, KV_MISTAKE_NO_TP_SPLIT);
    struct kv_numeric tp2 = tp16;
    tp2.model.tp = 2;
    tp2.expected = 160; /* 2 x 80 x 4 x 128 x 2 B = 163,840 B */
    check(&tp2, "320 KiB", KV_WRONG, KV_MISTAKE_NO_TP_SPLIT);
    check(&tp2, "160 KiB", KV_CORRECT, KV_MISTAKE_NONE);

    /* Qwen2.5-7B per token, 57,344 B = 56 KiB. "56 Kibit" is the right
     * number under a bit unit: 56 x 1024 / 8 = 7,168 B, an eighth. The unit
     * written says bits, so that is named before "divided by 8". */
    struct kv_numeric ex = per_token();
    check(&ex, "56 Kibit", KV_WRONG, KV_MISTAKE_BIT_UNIT);
    check(&ex, "7 KiB", KV_WRONG, KV_MISTAKE_BYTES_AS_BITS);
    /* a model of 8 layers: one layer is also an eighth, but "10 Mibit" for
     * 10 MiB (10 x 2^20 / 8 B = 1.25 MiB) says bits, so bits come first */
    static const struct kv_diag_model eight = {true, 8, 64, 8, 2, 0};
    struct kv_numeric mib = {
        10, kv_unit_find("MiB"), 0.02, true, KV_REL_DIRECT, eight, 0, 0, NULL, {0, 0, 0}};
    check(&mib, "10 Mibit", KV_WRONG, KV_MISTAKE_BIT_UNIT);
    check(&mib, "1.25 MiB", KV_WRONG, KV_MISTAKE_PER_LAYER);

    /* Qwen3-30B-A3B in BF16: 30.53e9 parameters x 2 B / 2^30 = 56.87 GiB in
     * memory; the 3.35e9 active ones would be 6.24 GiB. Batch-1 decode on
     * 3,352 GB/s with 0.805 GB of cache: 3,352 / (6.71 + 0.805) = 446 tok/s;
     * reading all 61.06 GB: 3,352 / (61.06 + 0.805) = 54.18 tok/s. */
    struct kv_numeric moe_mem = {56.87, kv_unit_find("GiB"), 0.02, true, KV_REL_NONE, {0}, 0, 0,
                                 NULL,  {0, 6.24, 0}};
    check(&moe_mem, "6.2 GiB", KV_WRONG, KV_MISTAKE_ACTIVE_PARAMS);
    check(&moe_mem, "57 GiB", KV_CORRECT, KV_MISTAKE_NONE);
    struct kv_numeric moe_tps = {446,  kv_unit_find("tok/s"), 0.03, true, KV_REL_NONE, {0}, 0, 0,
                                 NULL, {54.18, 0, 0}};
    check(&moe_tps, "54 tok/s", KV_WRONG, KV_MISTAKE_TOTAL_PARAMS);
    check(&moe_tps, "100 tok/s", KV_WRONG, KV_MISTAKE_NONE);

    /* DeepSeek-V2-Lite at TP 4: 27 layers x 576 latent dims x 2 B = 31,104
     * B a token on every GPU; 63.73 GiB = 68,429,566,443 B holds
     * floor(68,429,566,443 / (16 x 31,104)) x 16 = 2,200,016 tokens. The
     * latent divided by 4 (7,776 B) gives 8,800,096. */
    struct kv_numeric mla = {2200016, kv_unit_find("tokens"), 0.001, true, KV_REL_NONE, {0}, 0, 0,
                             NULL,    {0, 0, 8800096}};
    check(&mla, "8,800,000 tokens", KV_WRONG, KV_MISTAKE_LATENT_SPLIT);
    check(&mla, "2,200,000 tokens", KV_CORRECT, KV_MISTAKE_NONE);
    /* K and V both counted for the latent: 2 x 27 x 576 x 2 B = 62,208 B a
     * token; 16 x 62,208 = 995,328 B a block, 68,429,566,443 / 995,328 =
     * 68,750.8 -> 68,750 blocks x 16 = 1,100,000 tokens */
    mla.if_slip[KV_SLIP_MLA_KV_PAIR] = 1100000;
    check(&mla, "1,100,008 tokens", KV_WRONG, KV_MISTAKE_MLA_KV_PAIR);
    check(&mla, "8,800,000 tokens", KV_WRONG, KV_MISTAKE_LATENT_SPLIT);

    /* 47.8% asked; 0.478 is the fraction, 47.8 / 100 */
    struct kv_numeric pct = {47.8, kv_unit_find("%"), 0.5, false, KV_REL_NONE, {0}, 0, 0,
                             NULL, {0, 0, 0}};
    check(&pct, "0.478", KV_WRONG, KV_MISTAKE_FRACTION_FOR_PERCENT);
    check(&pct, "47.8%", KV_CORRECT, KV_MISTAKE_NONE);
    check(&pct, "4.78%", KV_WRONG, KV_MISTAKE_NONE);

    /* blocks that fit: 10 GiB / 896 KiB = 11,702.86 -> 11,702 whole blocks;
     * 11,703 counts the partial one */
    struct kv_numeric fit = {
        11702, kv_unit_find("blocks"), 0.5, false, KV_REL_INVERSE, qwen, 0, 0, NULL, {0, 0, 0}};
    check(&fit, "11703 blocks", KV_WRONG, KV_MISTAKE_BLOCKS_ROUND_UP);
    check(&fit, "11,702", KV_CORRECT, KV_MISTAKE_NONE);
    /* the blocks one request holds round up, rightly: ceil(8,398 / 128) = 66 */
    struct kv_numeric held = {
        66, kv_unit_find("blocks"), 0.5, false, KV_REL_NONE, {0}, 0, 0, NULL, {0, 0, 0}};
    check(&held, "67 blocks", KV_WRONG, KV_MISTAKE_NONE);
}

/* A count says what it counts and a size per what: another kind is refused,
 * not graded, and a natural form of the right one passes. */
static void test_unit_kinds(void **state)
{
    (void)state;
    struct kv_numeric seqs = {
        22, kv_unit_find("sequences"), 0.5, false, KV_REL_INVERSE, qwen, 0, 0, NULL, {0, 0, 0}};
    check(&seqs, "22 sequences", KV_CORRECT, KV_MISTAKE_NONE);
    check(&seqs, "22 seqs", KV_CORRECT, KV_MISTAKE_NONE);
    check(&seqs, "22", KV_CORRECT, KV_MISTAKE_NONE);
    check(&seqs, "22 blocks", KV_INVALID, KV_MISTAKE_NONE);
    check(&seqs, "22 GPUs", KV_INVALID, KV_MISTAKE_NONE);
    struct kv_numeric_result r;
    kv_grade_numeric(&seqs, "22 blocks", &r);
    assert_non_null(strstr(r.why, "answer in sequences"));
    /* 0.4375 GiB a sequence (57,344 B x 8,192 / 2^30) */
    struct kv_numeric per_seq = {
        0.4375, kv_unit_find("GiB"), 0.02, true, KV_REL_DIRECT, qwen, 0, 0, "sequence", {0, 0, 0}};
    check(&per_seq, "0.44 GiB", KV_CORRECT, KV_MISTAKE_NONE);
    check(&per_seq, "0.44 GiB/sequence", KV_CORRECT, KV_MISTAKE_NONE);
    check(&per_seq, "0.44 GiB/token", KV_INVALID, KV_MISTAKE_NONE);
    kv_grade_numeric(&per_seq, "0.44 GiB per token", &r);
    assert_non_null(strstr(r.why, "answer per sequence"));
    /* ceil(65,536 / (2,048 - 64)) = ceil(33.03) = 34 steps */
    struct kv_numeric steps = {
        34, kv_unit_find("steps"), 0.5, false, KV_REL_NONE, {0}, 0, 0, NULL, {0, 0, 0}};
    check(&steps, "34 steps", KV_CORRECT, KV_MISTAKE_NONE);
    check(&steps, "34", KV_CORRECT, KV_MISTAKE_NONE);
    check(&steps, "34 blocks", KV_INVALID, KV_MISTAKE_NONE);
    /* 989e12 / 3,352e9 = 295.05 FLOP/B; 22 x 1,008 / (15.23 + 22 x 0.47) / 500 */
    struct kv_numeric ridge = {
        295.05, kv_unit_find("FLOP/B"), 0.02, true, KV_REL_NONE, {0}, 0, 0, NULL, {0, 0, 0}};
    check(&ridge, "295 FLOP/B", KV_CORRECT, KV_MISTAKE_NONE);
    check(&ridge, "295 FLOP/byte", KV_CORRECT, KV_MISTAKE_NONE);
    check(&ridge, "295 tok/s", KV_INVALID, KV_MISTAKE_NONE);
    struct kv_numeric rate = {
        1.735, kv_unit_find("requests/s"), 0.03, true, KV_REL_NONE, {0}, 0, 0, NULL, {0, 0, 0}};
    check(&rate, "1.73 req/s", KV_CORRECT, KV_MISTAKE_NONE);
    check(&rate, "1.73 tok/s", KV_INVALID, KV_MISTAKE_NONE);
    /* a request rate as people write it: the bare "/s" takes the exercise's unit */
    check(&rate, "1.73/s", KV_CORRECT, KV_MISTAKE_NONE);
    check(&rate, "1.73 per second", KV_CORRECT, KV_MISTAKE_NONE);
    check(&rate, "1.73 rps", KV_CORRECT, KV_MISTAKE_NONE);
    check(&rate, "1.73 reqs/s", KV_CORRECT, KV_MISTAKE_NONE);
    check(&rate, "1.73 sequences/s", KV_CORRECT, KV_MISTAKE_NONE);
    /* 867.4 tok/s not divided by the 500-token reply */
    rate.if_slip[KV_SLIP_TOKENS_FOR_REQUESTS] = 867.4;
    check(&rate, "867", KV_WRONG, KV_MISTAKE_TOKENS_FOR_REQUESTS);
    /* "/s" on a size is no rate of it */
    struct kv_numeric size = per_token();
    check(&size, "57344/s", KV_INVALID, KV_MISTAKE_NONE);
    /* a step is an iteration, one forward pass, carrying one chunk of the prompt */
    check(&steps, "34 iterations", KV_CORRECT, KV_MISTAKE_NONE);
    check(&steps, "34 chunks", KV_CORRECT, KV_MISTAKE_NONE);
    check(&steps, "34 forward passes", KV_CORRECT, KV_MISTAKE_NONE);
    /* the decodes forgotten: ceil(65,536 / 2,048) = 32 */
    steps.if_slip[KV_SLIP_DECODES_LEFT_OUT] = 32;
    check(&steps, "32", KV_WRONG, KV_MISTAKE_DECODES_LEFT_OUT);
    /* Gib, like Gb, may be gibibits: kvtutor asks */
    check(&size, "56 Kib", KV_INVALID, KV_MISTAKE_NONE);
    check(&size, "56 kib", KV_CORRECT, KV_MISTAKE_NONE);
    check(&size, "56 Kibit", KV_WRONG, KV_MISTAKE_BIT_UNIT);
}

static void test_per_token_diagnoses(void **state)
{
    (void)state;
    struct kv_numeric ex = per_token();
    static const struct {
        const char *typed;
        enum kv_verdict v;
        enum kv_mistake m;
    } rows[] = {
        {"56 KiB", KV_CORRECT, KV_MISTAKE_NONE},
        {"57,344 bytes", KV_CORRECT, KV_MISTAKE_NONE},
        {"57344", KV_CORRECT, KV_MISTAKE_NONE},            /* bare: the exercise's unit */
        {"57.3 KB", KV_CORRECT, KV_MISTAKE_NONE},          /* 57,300 B: within 1% */
        {"0.0546875 MiB", KV_CORRECT, KV_MISTAKE_NONE},    /* 56 / 1024 */
        {"28 KiB", KV_WRONG, KV_MISTAKE_NO_KV_PAIR},       /* no x2: 28,672 B */
        {"392 KiB", KV_WRONG, KV_MISTAKE_QUERY_HEADS},     /* 28 heads, not 4: x7 */
        {"112 KiB", KV_WRONG, KV_MISTAKE_DTYPE_WIDTH},     /* 4 B per value: x2 */
        {"2 KiB", KV_WRONG, KV_MISTAKE_PER_LAYER},         /* one layer: / 28 */
        {"458752", KV_WRONG, KV_MISTAKE_BITS},             /* bits: x8 */
        {"7 KiB", KV_WRONG, KV_MISTAKE_BYTES_AS_BITS},     /* / 8 */
        {"57.344 KiB", KV_WRONG, KV_MISTAKE_PREFIX_MIX_K}, /* 57,344 / 1000 read as KiB */
        {"0.057344 MiB", KV_WRONG,
         KV_MISTAKE_PREFIX_MIX},                        /* 57,344 / 10^6 read as MiB: x1.048576 */
        {"0.0547 MB", KV_WRONG, KV_MISTAKE_PREFIX_MIX}, /* 57,344 / 2^20 = 0.0547 read as MB */
        {"1 GiB", KV_WRONG, KV_MISTAKE_NONE},           /* just wrong */
        {"56 tok/s", KV_INVALID, KV_MISTAKE_NONE},      /* another dimension */
        {"fifty-six", KV_INVALID, KV_MISTAKE_NONE},
        {"nan", KV_INVALID, KV_MISTAKE_NONE},
        {"inf KiB", KV_INVALID, KV_MISTAKE_NONE},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        check(&ex, rows[i].typed, rows[i].v, rows[i].m);
}

static void test_gib_and_gb(void **state)
{
    (void)state;
    /* one 8k sequence: 57,344 x 8,192 = 469,762,048 B = 0.4375 GiB (= 0.4698 GB) */
    struct kv_numeric ex = {
        0.4375, kv_unit_find("GiB"), 0.02, true, KV_REL_DIRECT, qwen, 0, 0, NULL, {0, 0, 0}};
    check(&ex, "0.4375 GiB", KV_CORRECT, KV_MISTAKE_NONE);
    check(&ex, "0.44 GiB", KV_CORRECT, KV_MISTAKE_NONE);
    check(&ex, "448 MiB", KV_CORRECT, KV_MISTAKE_NONE);
    check(&ex, "0.47 GB", KV_CORRECT, KV_MISTAKE_NONE);      /* the same bytes, decimal */
    check(&ex, "0.47 GiB", KV_WRONG, KV_MISTAKE_GB_AS_GIB);  /* 469,762,048 / 1e9, called GiB */
    check(&ex, "0.44 GB", KV_WRONG, KV_MISTAKE_GIB_AS_GB);   /* the GiB figure, called GB */
    check(&ex, "0.22 GiB", KV_WRONG, KV_MISTAKE_NO_KV_PAIR); /* half */
}

/* What was read, as the learner can check it: in the unit typed, then in
 * the exercise's; a small figure never reads as "0". */
static void test_read_as(void **state)
{
    (void)state;
    struct kv_numeric ex = {
        0.4375, kv_unit_find("GiB"), 0.02, true, KV_REL_DIRECT, qwen, 0, 0, NULL, {0, 0, 0}};
    struct kv_numeric count = {22,   kv_unit_find(""), 0.5, false, KV_REL_INVERSE, qwen, 0, 0,
                               NULL, {0, 0, 0}};
    struct kv_numeric pct = {93.9, kv_unit_find("%"), 0.5, false, KV_REL_NONE, {0}, 0, 0,
                             NULL, {0, 0, 0}};
    struct kv_numeric ratio = {7,    kv_unit_find("x"), 0.01, true, KV_REL_NONE, {0}, 0, 0,
                               NULL, {0, 0, 0}};
    const struct {
        const struct kv_numeric *ex;
        const char *unit, *typed, *want;
    } rows[] = {
        /* 2 KiB = 2,048 B = 2,048 / 2^30 GiB = 0.0000019073 GiB: three digits */
        {&ex, "GiB", "2 KiB", "2 KiB = 0.00000191 GiB"},
        /* 448 MiB = 448 / 1,024 GiB = 0.4375 GiB exactly */
        {&ex, "GiB", "448 MiB", "448 MiB = 0.4375 GiB"},
        /* 1 GB = 1e9 / 2^30 GiB = 0.93132 GiB */
        {&ex, "GiB", "1 GB", "1 GB = 0.9313 GiB"},
        /* in the exercise's unit, with the digits typed */
        {&ex, "GiB", "0.00001", "0.00001 GiB"},
        {&ex, "GiB", "0.44 GiB", "0.44 GiB"},
        {&ex, "GiB", "7/16", "0.4375 GiB"},
        {&count, "", "21", "21"},
        {&count, "", "1024", "1,024"},
        /* "%" and "x" are written against their number, as "93.9%", "7x" */
        {&pct, "%", "93.9", "93.9%"},
        {&pct, "%", "93.9 %", "93.9%"},
        {&ratio, "x", "7", "7x"},
        {&ratio, "x", "7 x", "7x"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        struct kv_numeric_result r;
        char buf[128];
        kv_grade_numeric(rows[i].ex, rows[i].typed, &r);
        assert_string_equal(kv_numeric_read_as(&r, rows[i].unit, buf, sizeof buf), rows[i].want);
    }
}

static void test_inverse_figures(void **state)
{
    (void)state;
    /* 22 whole 8k sequences in 10 GiB; a figure that shrinks as the cache grows */
    struct kv_numeric ex = {22,   kv_unit_find(""), 0.5, false, KV_REL_INVERSE, qwen, 0, 0,
                            NULL, {0, 0, 0}};
    struct kv_numeric_result r;
    check(&ex, "22", KV_CORRECT, KV_MISTAKE_NONE);
    check(&ex, "~22 sequences", KV_CORRECT, KV_MISTAKE_NONE);
    check(&ex, "45", KV_WRONG, KV_MISTAKE_NO_KV_PAIR); /* the cache halved: twice as many */
    check(&ex, "3", KV_WRONG, KV_MISTAKE_QUERY_HEADS); /* seven times the cache: 22 / 7 */
    check(&ex, "21", KV_WRONG, KV_MISTAKE_NONE);
    /* the tolerance applied is reported: absolute 0.5 */
    kv_grade_numeric(&ex, "22.4", &r);
    assert_int_equal(r.verdict, KV_CORRECT);
    assert_true(r.allowed == 0.5);
    /* a count answered with a unit of another dimension is refused */
    kv_grade_numeric(&ex, "22 GiB", &r);
    assert_int_equal(r.verdict, KV_INVALID);
    assert_non_null(strstr(r.why, "bytes"));
}

static void test_no_model_unit_mistakes_only(void **state)
{
    (void)state;
    /* without a model, only unit slips can be named */
    struct kv_numeric ex = {10,       kv_unit_find("GiB"), 0.01, true, KV_REL_NONE, {0}, 0, 0, NULL,
                            {0, 0, 0}};
    check(&ex, "10.737 GiB", KV_WRONG, KV_MISTAKE_GB_AS_GIB);
    check(&ex, "5 GiB", KV_WRONG, KV_MISTAKE_NONE);
    check(&ex, "20 GiB", KV_WRONG, KV_MISTAKE_NONE);
}

static enum kv_relation relation_named(const char *s)
{
    return strcmp(s, "direct") == 0    ? KV_REL_DIRECT
           : strcmp(s, "inverse") == 0 ? KV_REL_INVERSE
                                       : KV_REL_NONE;
}

/* tests/grades-golden.tsv, every row, in one locale. */
static void run_grades(const char *locale)
{
    struct tsv t;
    double *nums;
    setlocale(LC_ALL, "C"); /* the table's own numbers */
    assert_int_equal(tsv_load("../grades-golden.tsv", &t), 0);
    nums = calloc(3 * tsv_count(&t) + 1, sizeof *nums);
    assert_non_null(nums);
    for (size_t i = 0; i < tsv_count(&t); i++) {
        const char *lo = strchr(tsv_get(&t, i, "left_out"), '=');
        nums[3 * i] = strtod(tsv_get(&t, i, "expected"), NULL);
        nums[3 * i + 1] = strtod(tsv_get(&t, i, "tolerance"), NULL);
        nums[3 * i + 2] = lo ? strtod(lo + 1, NULL) : 0;
    }
    if (!setlocale(LC_ALL, locale))
        fail_msg("the %s locale is not installed (./setup.sh generates it)", locale);
    for (size_t i = 0; i < tsv_count(&t); i++) {
        const char *input = tsv_get(&t, i, "input"), *want = tsv_get(&t, i, "verdict");
        const char *mistake = tsv_get(&t, i, "mistake"), *reason = tsv_get(&t, i, "reason");
        struct kv_numeric ex = {nums[3 * i],
                                kv_unit_find(tsv_get(&t, i, "unit")),
                                nums[3 * i + 1],
                                true,
                                relation_named(tsv_get(&t, i, "relation")),
                                {0},
                                0,
                                0,
                                NULL,
                                {0, 0, 0}};
        struct kv_numeric_result r;
        static const char *const names[] = {"correct", "wrong", "invalid"};
        if (strcmp(tsv_get(&t, i, "model"), "qwen") == 0)
            ex.model = qwen;
        /* left_out: "kv=1059" or "overhead=56.31", the answer without that part */
        if (strncmp(tsv_get(&t, i, "left_out"), "kv=", 3) == 0)
            ex.if_no_kv = nums[3 * i + 2];
        else if (strncmp(tsv_get(&t, i, "left_out"), "overhead=", 9) == 0)
            ex.if_no_overhead = nums[3 * i + 2];
        assert_non_null(ex.unit);
        kv_grade_numeric(&ex, input, &r);
        if (strcmp(names[r.verdict], want) != 0 ||
            strcmp(r.mistake == KV_MISTAKE_NONE ? "-" : kv_mistake_id(r.mistake), mistake) != 0)
            fail_msg("[%s] \"%s\": %s %s (read %g, %s), want %s %s", locale, input,
                     names[r.verdict], kv_mistake_id(r.mistake), r.parsed, r.why, want, mistake);
        if (*reason && !strstr(r.why, reason))
            fail_msg("[%s] \"%s\": reason \"%s\" lacks \"%s\"", locale, input, r.why, reason);
    }
    tsv_free(&t);
    free(nums);
    setlocale(LC_ALL, "C");
}

static void test_grades_golden(void **state)
{
    (void)state;
    run_grades("C");
    run_grades("C.UTF-8");
    run_grades("de_DE.UTF-8");
}

/* The prefix slip names the prefixes the answer mixed: K with KiB and KB,
 * M with MiB and MB. */
static void test_prefix_mix_names_its_units(void **state)
{
    (void)state;
    const char *k = kv_mistake_text(KV_MISTAKE_PREFIX_MIX_K),
               *m = kv_mistake_text(KV_MISTAKE_PREFIX_MIX);
    assert_non_null(strstr(k, "KiB"));
    assert_non_null(strstr(k, "KB"));
    assert_null(strstr(k, "MiB"));
    assert_non_null(strstr(m, "MiB"));
    assert_null(strstr(m, "KiB"));
}

static void test_choice(void **state)
{
    (void)state;
    const char *const opts[] = {"the KV cache", "the weights", "the FLOPs"};
    char why[100];
    assert_int_equal(kv_choice_pick(opts, 3, "1", why, sizeof why), 0);
    assert_int_equal(kv_choice_pick(opts, 3, "b", why, sizeof why), 1);
    assert_int_equal(kv_choice_pick(opts, 3, "C)", why, sizeof why), 2);
    assert_int_equal(kv_choice_pick(opts, 3, "The KV Cache", why, sizeof why), 0);
    assert_int_equal(kv_choice_pick(opts, 3, "4", why, sizeof why), -1);
    assert_non_null(strstr(why, "3 options"));
    assert_int_equal(kv_choice_pick(opts, 3, "z", why, sizeof why), -1);
    assert_int_equal(kv_choice_pick(opts, 3, "", why, sizeof why), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_per_token_diagnoses),
        cmocka_unit_test(test_taught_diagnoses),
        cmocka_unit_test(test_unit_kinds),
        cmocka_unit_test(test_gib_and_gb),
        cmocka_unit_test(test_read_as),
        cmocka_unit_test(test_inverse_figures),
        cmocka_unit_test(test_no_model_unit_mistakes_only),
        cmocka_unit_test(test_grades_golden),
        cmocka_unit_test(test_prefix_mix_names_its_units),
        cmocka_unit_test(test_choice),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
