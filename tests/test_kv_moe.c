/* The weight bytes a decode step reads: a mixture of experts reads the
 * experts its batch is routed to (kv_moe.h), a dense model every weight.
 * Expected figures are worked by hand in the comments, from the models'
 * config.json (tests/fixtures/model-presets.tsv: Qwen3-30B-A3B has 128 experts,
 * 8 a token, 30,532,122,624 parameters of which 3,353,032,704 active;
 * Mixtral-8x7B 8 experts, 2 a token) and the H100 SXM's datasheet (3,352 GB/s,
 * 989 dense bf16 TFLOP/s). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "kv_calc.h"
#include "kv_moe.h"
#include "kv_presets.h"

#define assert_near(a, b, tol)                                                                     \
    do {                                                                                           \
        double a_ = (a), b_ = (b);                                                                 \
        if (!(fabs(a_ - b_) <= (tol)))                                                             \
            fail_msg("%s = %.9g, expected %.9g (+- %g)", #a, a_, b_, (double)(tol));               \
    } while (0)

static struct kv_result calc_preset(const char *model, uint64_t batch, uint64_t context)
{
    const struct kv_model_preset *p = kv_model_preset_find(model);
    struct kv_deploy d;
    struct kv_result r;

    assert_non_null(p);
    kv_deploy_defaults(&d);
    kv_gpu_preset_apply(kv_gpu_preset_find("h100"), &d);
    d.batch = batch;
    d.context = context;
    assert_int_equal(kv_calc(&p->model, &d, &r, NULL, NULL), KVT_E_OK);
    return r;
}

/* 1 - (1 - k/E)^B: an expert escapes all B tokens with probability (1 - k/E)^B. */
static void touched_share_by_hand(void **state)
{
    (void)state;
    /* one token: exactly its k of E */
    assert_near(kv_moe_touched_share(128, 8, 1), 8.0 / 128, 1e-12);
    /* (15/16)^64 = e^(64 ln 0.9375) = e^-4.13047 = 0.016075: 98.39% touched */
    assert_near(kv_moe_touched_share(128, 8, 64), 0.983925, 1e-6);
    /* Mixtral, 2 of 8 at batch 16: (3/4)^16 = 0.010023, so 98.998% */
    assert_near(kv_moe_touched_share(8, 2, 16), 0.989977, 1e-6);
    /* dense, or every expert a token: all of it */
    assert_near(kv_moe_touched_share(0, 0, 5), 1.0, 0);
    assert_near(kv_moe_touched_share(4, 4, 1), 1.0, 0);
}

/* Qwen3-30B-A3B in BF16: total 30,532,122,624 x 2 = 61,064,245,248 B, active
 * 3,353,032,704 x 2 = 6,706,065,408 B. Experts = (total - active) / (1 -
 * 8/128) = 54,358,179,840 x 16/15 = 57,982,058,496 B; shared = 3,082,186,752 B. */
static void qwen3_moe_split_and_reads(void **state)
{
    struct kv_result r = calc_preset("qwen3-30b-a3b", 1, 8192);
    struct kv_moe_split s;

    (void)state;
    kv_moe_split(&r, &s);
    assert_true(s.moe);
    assert_true(s.experts_known);
    assert_near(s.experts_bytes, 57982058496.0, 1.0);
    assert_near(s.shared_bytes, 3082186752.0, 1.0);
    /* batch 1 reads the active weights, as before the rule */
    assert_near(kv_calc_weight_read_bytes(&r, 1), 6706065408.0, 1.0);
    /* batch 64: 3,082,186,752 + 57,982,058,496 x 0.983925 = 60,132,2xx,xxx B */
    assert_near(kv_calc_weight_read_bytes(&r, 64), 60.1322e9, 0.0001e9);
    /* never more than every weight */
    assert_true(kv_calc_weight_read_bytes(&r, 1e6) <= 61064245248.0 + 1);
}

/* The decode ceiling at batch 64 and 8,192 tokens of context (lesson 12's
 * worked arithmetic): KV a sequence reads = 98,304 B x 8,192 = 805,306,368 B;
 * 64 x 3,352e9 / (60.1322e9 + 64 x 0.805306e9) = 214,528e9 / 111.672e9 =
 * 1,921 tokens/s. Reading only the active weights would claim 64 x 3,352e9 /
 * (6.706e9 + 51.540e9) = 3,683 tokens/s. */
static void qwen3_decode_at_batch_64(void **state)
{
    struct kv_result r = calc_preset("qwen3-30b-a3b", 64, 8192);

    (void)state;
    assert_true(r.has_decode);
    assert_near(r.decode_tokens_per_s_memory, 1921.06, 0.5);
    assert_near(r.decode_experts_touched, 0.983925, 1e-6);
    assert_near(r.decode_weight_read_bytes, 60.1322e9, 0.0001e9);
    /* batch 1: 3,352e9 / (6.706065e9 + 0.805306e9) = 446.3 tokens/s */
    r = calc_preset("qwen3-30b-a3b", 1, 8192);
    assert_near(r.decode_tokens_per_s_memory, 446.26, 0.05);
}

/* Where compute takes over, at context 0 (no KV read): 2 x 3.353032704e9 /
 * 989e12 = 6.78065e-6 s of compute a token; the memory side approaches every
 * weight, 61.064245e9 / 3,352e9 = 18.2172 ms, so B* = 18.2172e-3 / 6.78065e-6
 * = 2,686.65: batch 2,687 (touched then 1 - (15/16)^2687 = 1 - 1e-75). The
 * active weights alone would have put it at 6.706e9 / 3,352e9 / 6.78e-6 = 295. */
static void qwen3_turns_compute_bound_late(void **state)
{
    struct kv_result r = calc_preset("qwen3-30b-a3b", 1, 0);

    (void)state;
    assert_true(r.has_bound);
    assert_true(r.compute_bound_ever);
    assert_int_equal(r.compute_bound_batch, 2687);
}

/* A dense model reads every weight at any batch: Qwen2.5-7B's
 * 7,615,616,512 x 2 = 15,231,233,024 B at 1 and at 256. */
static void dense_reads_everything(void **state)
{
    struct kv_result r = calc_preset("qwen2.5-7b", 1, 1024);
    struct kv_moe_split s;

    (void)state;
    kv_moe_split(&r, &s);
    assert_false(s.moe);
    assert_near(kv_calc_weight_read_bytes(&r, 1), 15231233024.0, 1.0);
    assert_near(kv_calc_weight_read_bytes(&r, 256), 15231233024.0, 1.0);
    assert_near(r.decode_experts_touched, 0, 0);
}

/* A MoE given without expert counts falls back to each token drawing its
 * active share from the whole model, and says so in a note. */
static void unknown_experts_fall_back_with_a_note(void **state)
{
    struct kv_model m = kv_model_preset_find("qwen3-30b-a3b")->model;
    struct kv_deploy d;
    struct kv_result r;
    bool noted = false;

    (void)state;
    m.experts = m.experts_per_token = 0;
    kv_deploy_defaults(&d);
    kv_gpu_preset_apply(kv_gpu_preset_find("h100"), &d);
    d.batch = 2;
    assert_int_equal(kv_calc(&m, &d, &r, NULL, NULL), KVT_E_OK);
    /* a = 6,706,065,408 / 61,064,245,248 = 0.109820; two tokens:
     * 61,064,245,248 x (1 - 0.890180^2) = 61,064,245,248 x 0.207580 */
    assert_near(kv_calc_weight_read_bytes(&r, 2), 61064245248.0 * 0.2075799, 1e5);
    for (size_t i = 0; i < r.rules.n_notes; i++)
        noted |= strstr(r.rules.notes[i].text, "without its expert counts") != NULL;
    assert_true(noted);
}

/* Expert counts that cannot be: both or neither, 1 <= k < E. */
static void bad_expert_counts_refused_by_name(void **state)
{
    struct kv_model m = kv_model_preset_find("qwen3-30b-a3b")->model;
    struct kv_deploy d;
    struct kv_result r;
    enum kv_field bad, other;

    (void)state;
    kv_deploy_defaults(&d);
    m.experts_per_token = 0;
    assert_int_equal(kv_calc(&m, &d, &r, &bad, &other), KVT_E_MISSING);
    assert_int_equal(bad, KV_FIELD_EXPERTS_PER_TOKEN);
    m.experts_per_token = 128;
    assert_int_equal(kv_calc(&m, &d, &r, &bad, &other), KVT_E_CONFLICT);
    assert_int_equal(bad, KV_FIELD_EXPERTS_PER_TOKEN);
    assert_int_equal(other, KV_FIELD_EXPERTS);
    m.experts_per_token = 8;
    m.active_params_b = m.params_b; /* experts, yet every parameter active */
    assert_int_equal(kv_calc(&m, &d, &r, &bad, &other), KVT_E_CONFLICT);
    assert_int_equal(bad, KV_FIELD_ACTIVE_PARAMS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(touched_share_by_hand),
        cmocka_unit_test(qwen3_moe_split_and_reads),
        cmocka_unit_test(qwen3_decode_at_batch_64),
        cmocka_unit_test(qwen3_turns_compute_bound_late),
        cmocka_unit_test(dense_reads_everything),
        cmocka_unit_test(unknown_experts_fall_back_with_a_note),
        cmocka_unit_test(bad_expert_counts_refused_by_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
