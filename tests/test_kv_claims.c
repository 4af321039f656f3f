/* Free-text grading on claims (kv_claims.h). Each table row is an answer a
 * learner might type and what the grader must make of it; the sentences the
 * issue that asked for claims quotes are all here, verbatim. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kv_claims.h"

#define N(a)  (sizeof a / sizeof a[0])
#define PH(a) ((struct kv_phrases){a, N(a)})

/* The course glossary's first groups, as lua/glossary.lua gives them. */
static const char *const g_mem[] = {"memory-bound", "bandwidth-bound", "memory bandwidth-bound"};
static const char *const g_cb[] = {"continuous batching", "iteration-level scheduling",
                                   "in-flight batching"};
static const char *const g_ttft[] = {"time to first token", "TTFT"};
static const struct kv_phrases groups[] = {PH(g_mem), PH(g_cb), PH(g_ttft)};
static const struct kv_glossary glossary = {groups, N(groups)};

/* "Which phase is memory-bound, and why?" */
static const char *const dec_about[] = {"decode", "generation", "each new token"};
static const char *const dec_said[] = {
    "memory-bound",        "limited by memory bandwidth", "GEMV",
    "streams the weights", "reads all the weights",       "waits on memory"};
static const char *const dec_short[] = {"decode"};
static const char *const pre_about[] = {"prefill", "prompt processing", "the prompt"};
static const char *const pre_said[] = {"compute-bound", "matrix multiplies", "limited by compute",
                                       "waits on the tensor cores"};
static const char *const mis_pre_said[] = {"memory-bound"};
static const char *const mis_dec_said[] = {"compute-bound"};

static const struct kv_point phase_points[] = {
    {.text = "decode is memory-bound",
     .about = PH(dec_about),
     .said = PH(dec_said),
     .shorts = PH(dec_short),
     .weight = 2},
    {.text = "prefill is compute-bound", .about = PH(pre_about), .said = PH(pre_said), .weight = 1},
};
static const struct kv_misconception phase_mis[] = {
    {PH(pre_about),
     PH(mis_pre_said),
     "prefill reuses each weight for thousands of tokens",
     {0},
     false},
    {PH(dec_about),
     PH(mis_dec_said),
     "decode reads every weight for one token per sequence",
     {0},
     false},
};
static const struct kv_text_item phase = {phase_points, N(phase_points), phase_mis, N(phase_mis),
                                          &glossary};

struct row {
    const char *answer;
    enum kv_verdict verdict;
    bool covered[2];
    bool found[2];
    bool list;
};

static void run(const struct kv_text_item *item, const struct row *rows, size_t n)
{
    struct kv_text_result r;
    for (size_t i = 0; i < n; i++) {
        kv_claims_grade(item, rows[i].answer, &r);
        for (size_t p = 0; p < item->n_points && p < 2; p++)
            if (r.covered[p] != rows[i].covered[p])
                fail_msg("\"%s\": point %zu covered %d, want %d", rows[i].answer, p, r.covered[p],
                         rows[i].covered[p]);
        for (size_t m = 0; m < item->n_mis && m < 2; m++)
            if (r.found[m] != rows[i].found[m])
                fail_msg("\"%s\": misconception %zu found %d, want %d", rows[i].answer, m,
                         r.found[m], rows[i].found[m]);
        if (r.verdict != rows[i].verdict)
            fail_msg("\"%s\": verdict %d (score %.2f), want %d", rows[i].answer, r.verdict, r.score,
                     rows[i].verdict);
        if (r.list != rows[i].list)
            fail_msg("\"%s\": keyword list %d, want %d", rows[i].answer, r.list, rows[i].list);
        if (r.n_found && r.score >= KV_TEXT_PASS)
            fail_msg("\"%s\": a misconception, yet a passing score %.2f", rows[i].answer, r.score);
    }
}

/* Three verdicts: wrong only on evidence (a misconception, a point
 * contradicted, nothing but lists and hedges, a give-up and no point
 * stated), correct on a pass, unsure otherwise. Decode is memory-bound (weight 2), prefill
 * compute-bound (1). */
static void test_three_verdicts(void **state)
{
    static const struct {
        const char *answer;
        enum kv_verdict verdict;
        bool contradicted0, hedged, no_claim;
    } rows[] = {
        {"Decode is memory-bound, prefill is compute-bound.", KV_CORRECT, false, false, false},
        /* the point's own claim, negated: shown as the contradiction, not covered */
        {"Decode is not memory-bound.", KV_WRONG, true, false, false},
        {"Prefill is compute-bound, but decode isn't memory-bound at all.", KV_WRONG, true, false,
         false},
        /* hedges and giving up claim nothing */
        {"It depends.", KV_WRONG, false, true, true},
        {"It depends on various factors.", KV_WRONG, false, true, true},
        {"No idea.", KV_WRONG, false, true, true},
        /* a hedge covers nothing, the claim beside it a third of the weight */
        {"Decode depends on many factors; prefill is compute-bound.", KV_UNSURE, false, true,
         false},
        /* giving up on one clause and stating no point anywhere: the non-answer an
         * interviewer marks down, though the other clause claims something */
        {"Decode is a GPU thing; how fast it runs depends on various factors.", KV_WRONG, false,
         true, false},
        /* vague words alone are no give-up: "perhaps" and "might" are how a careful
         * candidate speaks */
        {"Decode reads every weight once a step; it might be slower, perhaps.", KV_UNSURE, false,
         true, false},
        /* leaving the question open and stating no point: a non-answer, in
         * whatever shape ("sometimes", an experiment left undescribed, the rest
         * of "it depends on" cut off by a comma) */
        {"Sometimes prefill is slower and sometimes not, so you'd have to measure it.", KV_WRONG,
         false, true, true},
        {"It depends on the workload, the model and the hardware.", KV_WRONG, false, true, true},
        {"Both phases have pros and cons; it's hard to say in general.", KV_WRONG, false, true,
         true},
        {"There are a lot of things involved, so just try it and see.", KV_WRONG, false, true,
         true},
        /* "might" before an open "depending on" does not soften it; a tuning left
         * undescribed and a named kind of cause with none named are non-answers too */
        {"It might be possible depending on the model and how the GPU is set up.", KV_WRONG, false,
         true, true},
        {"You'd need to tune the settings appropriately for the situation.", KV_WRONG, false, true,
         true},
        {"Decode loses time to various overheads.", KV_WRONG, false, true, true},
        /* what "depends" is the answer itself, on words no point uses; "there are
         * trade-offs": the question left open */
        {"The right choice depends on how the traffic is spread and your storage.", KV_WRONG, false,
         true, true},
        {"There are trade-offs either way.", KV_WRONG, false, true, true},
        /* a quantity's dependence is a claim, whatever it names */
        {"Its size depends on the layers, the heads and the head dimension.", KV_UNSURE, false,
         false, false},
        /* named, they are a claim */
        {"Decode loses time to various overheads such as kernel launches.", KV_UNSURE, false, false,
         false},
        /* a method with its object is not a deferral: nothing against it */
        {"Measure the step time of each phase with a profiler and compare it with the roofline.",
         KV_UNSURE, false, false, false},
        /* and a point stated beside an open clause still counts: two thirds of
         * the weight pass */
        {"Decode is memory-bound; prefill you'd have to measure.", KV_CORRECT, false, true, false},
        /* nothing against it, not enough for it */
        {"Decode is slow.", KV_UNSURE, false, false, false},
        {"prefill, decode, bandwidth, FLOPs, tensor cores, GEMV, batch", KV_WRONG, false, false,
         true},
    };
    (void)state;
    for (size_t i = 0; i < N(rows); i++) {
        struct kv_text_result r;
        kv_claims_grade(&phase, rows[i].answer, &r);
        if (r.verdict != rows[i].verdict || r.contradicted[0] != rows[i].contradicted0 ||
            r.hedged != rows[i].hedged || r.no_claim != rows[i].no_claim)
            fail_msg("\"%s\": verdict %d contradicted %d hedged %d no claim %d, want %d %d %d %d",
                     rows[i].answer, r.verdict, r.contradicted[0], r.hedged, r.no_claim,
                     rows[i].verdict, rows[i].contradicted0, rows[i].hedged, rows[i].no_claim);
        if (r.contradicted[0]) {
            assert_false(r.covered[0]);
            assert_true(r.contra_quote[0][0] != '\0');
            assert_true(r.score < KV_TEXT_PASS);
        }
    }
}

/* Reversed claims are contradictions, with no misconception written for
 * them: a direction turned round, memory-bound for compute-bound, a subject
 * swapped (prefill for decode). Shorthand reads as its words ("BW"), and a
 * comparison sign makes a claim, not a keyword list. */
static void test_reversals(void **state)
{
    static const char *const dec[] = {"decode"};
    static const char *const membound[] = {"memory-bound", "bandwidth-bound"};
    static const char *const ttft[] = {"TTFT"};
    static const char *const rises[] = {"rises"};
    static const struct kv_point pts[] = {
        {.text = "decode is memory-bound", .about = PH(dec), .said = PH(membound), .weight = 1},
        {.text = "TTFT rises", .about = PH(ttft), .said = PH(rises), .weight = 1},
    };
    static const struct kv_text_item item = {pts, N(pts), NULL, 0, NULL};
    static const struct {
        const char *answer;
        enum kv_verdict verdict;
        bool contradicted[2];
    } rows[] = {
        {"Decode is memory-bound and TTFT rises.", KV_CORRECT, {false, false}},
        {"Decode is BW-bound; TTFT rises a little.", KV_CORRECT, {false, false}},
        {"TTFT falls.", KV_WRONG, {false, true}},
        {"Decode is compute-bound.", KV_WRONG, {true, false}},
        {"Prefill is memory-bound.", KV_WRONG, {true, false}},
        /* a supposition states nothing */
        {"If decode were compute-bound, FLOPs would help.", KV_UNSURE, {false, false}},
        {"Decode memory-bound → FLOPs idle, TTFT rises with the prompt.",
         KV_CORRECT,
         {false, false}},
    };
    (void)state;
    for (size_t i = 0; i < N(rows); i++) {
        struct kv_text_result r;
        kv_claims_grade(&item, rows[i].answer, &r);
        if (r.verdict != rows[i].verdict || r.contradicted[0] != rows[i].contradicted[0] ||
            r.contradicted[1] != rows[i].contradicted[1])
            fail_msg("\"%s\": verdict %d, contradicted %d %d; want %d, %d %d", rows[i].answer,
                     r.verdict, r.contradicted[0], r.contradicted[1], rows[i].verdict,
                     rows[i].contradicted[0], rows[i].contradicted[1]);
    }
}

/* A point that says something moves is contradicted by a clause that says
 * its subject does not ("TPOT doesn't depend on batch size"), of what the
 * point names; a qualified clause ("nearly unchanged at small batch"), a
 * per-token figure, another subject in the marker's stretch, and a point that
 * itself says something stays put are not read as that. */
static void test_invariance(void **state)
{
    static const char *const tpot[] = {"TPOT", "the step"};
    static const char *const grows[] = {"grows with batch", "slows"};
    static const char *const kv[] = {"KV cache"};
    static const char *const kvgrows[] = {"grows with length", "grows with context"};
    static const char *const gdn[] = {"GDN state"};
    static const char *const fixed[] = {"fixed size", "same size"};
    static const struct kv_point pts[] = {
        {.text = "TPOT grows with the batch", .about = PH(tpot), .said = PH(grows), .weight = 1},
        {.text = "the KV cache grows with the context",
         .about = PH(kv),
         .said = PH(kvgrows),
         .weight = 1},
        {.text = "the GDN state has a fixed size",
         .about = PH(gdn),
         .said = PH(fixed),
         .weight = 1},
    };
    static const struct kv_text_item item = {pts, N(pts), NULL, 0, NULL};
    static const struct {
        const char *answer;
        enum kv_verdict verdict;
        bool contradicted[3];
    } rows[] = {
        {"TPOT doesn't depend on batch size.", KV_WRONG, {true, false, false}},
        {"TPOT stays the same.", KV_WRONG, {true, false, false}},
        {"The KV cache is a fixed few megabytes regardless of context length.",
         KV_WRONG,
         {false, true, false}},
        /* qualified, or of a token's share: true */
        {"TPOT is nearly unchanged at small batch.", KV_UNSURE, {false, false, false}},
        {"The KV cache per token is unchanged.", KV_UNSURE, {false, false, false}},
        /* the marker's stretch names the weights, not the step */
        {"The step is memory-bound, the weights are read once no matter how many tokens.",
         KV_UNSURE,
         {false, false, false}},
        /* the point itself says the state stays put */
        {"The GDN state stays the same size regardless of context.", /* a third of the weight */
         KV_UNSURE,
         {false, false, false}},
        /* what it says nothing depends on is not the point's */
        {"TPOT does not depend on the tokenizer.", KV_UNSURE, {false, false, false}},
    };
    (void)state;
    for (size_t i = 0; i < N(rows); i++) {
        struct kv_text_result r;
        kv_claims_grade(&item, rows[i].answer, &r);
        for (size_t p = 0; p < 3; p++)
            if (r.contradicted[p] != rows[i].contradicted[p])
                fail_msg("\"%s\": point %zu contradicted %d", rows[i].answer, p, r.contradicted[p]);
        if (r.verdict != rows[i].verdict)
            fail_msg("\"%s\": verdict %d, want %d", rows[i].answer, r.verdict, rows[i].verdict);
    }
}

/* The number a point asks for, with a byte unit 1,024 times off, is a wrong
 * quantity (prefill-decode follow-up 3: 57,344 B x 8,192 = 469,762,048 B =
 * 448 MiB, not 448 GiB); MB for MiB is the same size within 5%. */
static void test_wrong_unit(void **state)
{
    static const char *const size[] = {"448"};
    static const struct kv_point pts[] = {
        {.text = "448 MiB for 8,192 tokens", .accept = PH(size), .weight = 1},
    };
    static const struct kv_text_item item = {pts, N(pts), NULL, 0, NULL};
    static const struct {
        const char *answer;
        enum kv_verdict verdict;
    } rows[] = {
        {"57,344 B x 8,192 = 448 MiB.", KV_CORRECT},
        {"About 448 MB.", KV_CORRECT},
        {"57,344 B x 8,192 = 448 GiB.", KV_WRONG},
        {"It is 448GiB.", KV_WRONG},
        /* the right one said in the clause too */
        {"448 MiB, not 448 GiB.", KV_CORRECT},
    };
    (void)state;
    for (size_t i = 0; i < N(rows); i++) {
        struct kv_text_result r;
        kv_claims_grade(&item, rows[i].answer, &r);
        if (r.verdict != rows[i].verdict)
            fail_msg("\"%s\": verdict %d, want %d", rows[i].answer, r.verdict, rows[i].verdict);
    }
}

/* A denial contradicts a point only when it denies the point's own subject
 * of the point's own words: not the subject compared with ("prefill is not
 * memory-bound like decode"), not words the clause also says plainly ("a
 * quarter of every layer's cache, not a quarter of the layers"), and not a
 * change from the claim ("prefills no longer stall the decodes" says they
 * did). */
static void test_denials(void **state)
{
    static const char *const gpu[] = {"each GPU", "every GPU"};
    static const char *const quarter[] = {"a quarter"};
    static const char *const pre[] = {"prefills", "prefill chunks"};
    static const char *const stall[] = {"stall"};
    static const struct kv_point pts[] = {
        {.text = "each GPU keeps a quarter of the cache",
         .about = PH(gpu),
         .said = PH(quarter),
         .weight = 1},
        {.text = "prefills stall the decodes that share a step",
         .about = PH(pre),
         .said = PH(stall),
         .weight = 1},
    };
    static const struct kv_text_item item = {pts, N(pts), NULL, 0, NULL};
    static const struct {
        const char *answer;
        bool contradicted[2];
    } rows[] = {
        {"Each GPU does not keep a quarter of the cache.", {true, false}},
        {"Each GPU keeps a quarter of every layer's cache, not a quarter of the layers.",
         {false, false}},
        {"Prefills do not stall the decodes.", {false, true}},
        {"With disaggregation prefills no longer stall the decodes.", {false, false}},
        {"Prefill is not memory-bound like decode.", {false, false}},
    };
    (void)state;
    for (size_t i = 0; i < N(rows); i++) {
        struct kv_text_result r;
        kv_claims_grade(&item, rows[i].answer, &r);
        for (size_t p = 0; p < 2; p++)
            if (r.contradicted[p] != rows[i].contradicted[p])
                fail_msg("\"%s\": point %zu contradicted %d", rows[i].answer, p, r.contradicted[p]);
    }
    /* the compared subject: decode is memory-bound, and prefill is said not to be like it */
    struct kv_text_result r;
    kv_claims_grade(&phase, "Prefill is not memory-bound like decode.", &r);
    assert_false(r.contradicted[0]);
}

static void test_claims_prefill_decode(void **state)
{
    (void)state;
    static const struct row rows[] = {
        /* the wrong answer in the right words */
        {"Prefill is memory-bound and decode is compute-bound, because prefill reads the whole "
         "prompt.",
         KV_WRONG,
         {false, false},
         {true, true},
         false},
        /* the correct answers: a strong candidate's words, and a terse one */
        {"Decode: each step streams the weights and the cache to emit one token; prompt "
         "processing batches thousands of tokens into big matrix multiplies",
         KV_CORRECT,
         {true, true},
         {false, false},
         false},
        {"Decode; prefill is compute-bound.", KV_CORRECT, {true, true}, {false, false}, false},
        /* two clauses, no misconception */
        {"Prefill is compute-bound and decode is memory-bound",
         KV_CORRECT,
         {true, true},
         {false, false},
         false},
        /* "and" after nothing but a subject joins two subjects of one claim */
        {"Prefill and decode are both memory-bound.",
         KV_WRONG,
         {true, false},
         {true, false},
         false},
        {"Generation and decode wait on memory, prefill on the tensor cores: it is compute-bound",
         KV_CORRECT,
         {true, true},
         {false, false},
         false},
        /* a terse claim is not a list */
        {"Decode: memory-bound", KV_CORRECT, {true, false}, {false, false}, false},
        {"Decode.", KV_CORRECT, {true, false}, {false, false}, false},
        {"The decode phase.", KV_CORRECT, {true, false}, {false, false}, false},
        {"Usually decode.", KV_CORRECT, {true, false}, {false, false}, false},
        /* "so" starts another claim: the negation before it does not reach past */
        {"Decode: not FLOPs, so memory-bound.", KV_CORRECT, {true, false}, {false, false}, false},
        {"Decode: not FLOPs, nor memory-bound.", KV_WRONG, {false, false}, {false, false}, false},
        /* a short phrasing covers only as a whole clause */
        {"Decode is slow.", KV_UNSURE, {false, false}, {false, false}, false},
        /* a keyword list earns nothing */
        {"prefill decode memory-bound compute-bound KV cache bandwidth FLOPs",
         KV_WRONG,
         {false, false},
         {false, false},
         true},
        {"Decode, memory-bound, prefill, compute-bound, bandwidth, FLOPs, tensor cores",
         KV_WRONG,
         {false, false},
         {false, false},
         true},
        {"Decode is memory-bound and prefill compute-bound bandwidth FLOPs tensor cores matmuls",
         KV_CORRECT,
         {true, false},
         {false, false},
         true},
        /* "without" denies its own object, not the claim past it: "without batching" says
         * nothing against decode being memory-bound; "without being memory-bound" leaves the
         * point uncovered, and, being no plain denial (denied_at), unsure rather than wrong */
        {"Decode without big batches stays memory-bound.",
         KV_CORRECT,
         {true, false},
         {false, false},
         false},
        {"Decode runs without being memory-bound.",
         KV_UNSURE,
         {false, false},
         {false, false},
         false},
        /* negation, within its clause only */
        {"Decode is not at all memory-bound.", KV_WRONG, {false, false}, {false, false}, false},
        {"Decode isn't memory bound.", KV_WRONG, {false, false}, {false, false}, false},
        {"Decode is never memory-bound.", KV_WRONG, {false, false}, {false, false}, false},
        {"Prefill is not memory-bound, decode is memory-bound.",
         KV_CORRECT,
         {true, false},
         {false, false},
         false},
        {"Decode is not compute-bound but memory-bound.",
         KV_CORRECT,
         {true, false},
         {false, false},
         false},
        {"Neither prefill nor decode is compute-bound.",
         KV_WRONG,
         {false, false},
         {false, false},
         false},
        {"No, decode is memory-bound.", KV_CORRECT, {true, false}, {false, false}, false},
        /* "without" is not covered, nor a denial read as a contradiction: unsure */
        {"Decode runs without being memory-bound.",
         KV_UNSURE,
         {false, false},
         {false, false},
         false},
        /* curly apostrophes, Unicode hyphens and dashes, and a pronoun after the dash */
        {"Decode isn\u2019t compute\u2010bound \u2014 it\u2019s memory\u2011bound.",
         KV_CORRECT,
         {true, false},
         {false, false},
         false},
        {"Decode isn't compute-bound; it's memory-bound.",
         KV_CORRECT,
         {true, false},
         {false, false},
         false},
        {"Prefill \u2013 compute-bound; decode \u2013 memory-bound.",
         KV_CORRECT,
         {true, true},
         {false, false},
         false},
        /* the glossary: bandwidth-bound is memory-bound */
        {"Generation is bandwidth-bound; the prompt is limited by compute.",
         KV_CORRECT,
         {true, true},
         {false, false},
         false},
        /* word forms */
        {"Decoding streamed the weights.", KV_CORRECT, {true, false}, {false, false}, false},
        /* a misconception caps the score even when every point is covered */
        {"Decode is memory-bound. Prefill is compute-bound. Decode is also compute-bound.",
         KV_WRONG,
         {true, true},
         {false, true},
         false},
    };
    run(&phase, rows, N(rows));
    {
        /* each misconception quotes its own clause, without the joining "and" */
        struct kv_text_result r;
        kv_claims_grade(&phase, "Prefill is memory-bound and decode is compute-bound.", &r);
        assert_string_equal(r.mis_quote[0], "Prefill is memory-bound");
        assert_string_equal(r.mis_quote[1], "decode is compute-bound");
    }
}

/* "Why can't this model run with tensor parallelism 8?" */
static void test_said_with_its_own_negation(void **state)
{
    (void)state;
    static const char *const about[] = {"the heads", "head count", "the KV heads"};
    static const char *const said[] = {"not divisible by 8", "do not split evenly"};
    static const struct kv_point pts[] = {
        {.text = "the heads do not divide by 8", .about = PH(about), .said = PH(said), .weight = 1},
    };
    static const struct kv_text_item item = {pts, 1, NULL, 0, NULL};
    static const struct row rows[] = {
        {"The KV heads aren't divisible by 8.", KV_CORRECT, {true}, {false}, false},
        {"The KV heads aren\u2019t divisible by 8.", KV_CORRECT, {true}, {false}, false},
        {"Its head count is not divisible by 8.", KV_CORRECT, {true}, {false}, false},
        {"The heads are divisible by 8.", KV_WRONG, {false}, {false}, false},
        {"The heads don't split evenly.", KV_CORRECT, {true}, {false}, false},
    };
    run(&item, rows, N(rows));
}

/* The glossary makes terms equal inside longer phrasings too, both ways. */
static void test_glossary(void **state)
{
    (void)state;
    static const char *const about[] = {"continuous batching"};
    static const char *const said[] = {"join every step", "admits new requests"};
    static const char *const about2[] = {"TTFT"};
    static const char *const said2[] = {"rises", "grows"};
    static const struct kv_point pts[] = {
        {.text = "continuous batching admits at every step",
         .about = PH(about),
         .said = PH(said),
         .weight = 1},
        {.text = "the time to first token grows",
         .about = PH(about2),
         .said = PH(said2),
         .weight = 1},
    };
    static const struct kv_text_item item = {pts, 2, NULL, 0, &glossary};
    static const struct row rows[] = {
        {"With iteration-level scheduling, new requests join every step.",
         KV_CORRECT,
         {true, false},
         {false, false},
         false},
        {"Iteration-level scheduling never lets new requests join every step.",
         KV_WRONG,
         {false, false},
         {false, false},
         false},
        {"In-flight batching admits new requests; the time to first token rises.",
         KV_CORRECT,
         {true, true},
         {false, false},
         false},
    };
    run(&item, rows, N(rows));
}

/* Plain points (accept only) keep working: any phrasing, not negated in its
 * clause, at the start of a word. */
static void test_plain_points(void **state)
{
    (void)state;
    static const char *const fp8[] = {"fp8", "8-bit", "kv_cache_dtype"};
    static const char *const awq[] = {"awq", "gptq", "quantize", "4-bit"};
    static const char *const len[] = {"max_model_len", "shorter context", "cap the context"};
    static const char *const mem[] = {"memory-bound", "bandwidth"};
    static const char *const grow[] = {"do not grow", "fixed"};
    static const struct kv_point pts[] = {
        {.text = "shrink the KV cache", .accept = PH(fp8), .weight = 2},
        {.text = "shrink the weights", .accept = PH(awq), .weight = 1},
        {.text = "cap the context length", .accept = PH(len), .weight = 1},
    };
    static const struct kv_point pts2[] = {
        {.text = "decode is memory-bound", .accept = PH(mem), .weight = 1},
        {.text = "the weights do not grow", .accept = PH(grow), .weight = 1},
    };
    static const struct kv_text_item item = {pts, 3, NULL, 0, NULL};
    static const struct kv_text_item item2 = {pts2, 2, NULL, 0, NULL};
    static const struct row rows2[] = {
        {"Decode is memory-bound, not compute-bound.",
         KV_CORRECT,
         {true, false},
         {false, false},
         false},
        /* negated, a plain point is not covered; a plain point has no subject, so
         * nothing says what its negation denies: unsure, not wrong */
        {"Decode is not memory-bound.", KV_UNSURE, {false, false}, {false, false}, false},
        {"Decode is not really memory-bound.", KV_UNSURE, {false, false}, {false, false}, false},
        {"It is not compute: memory bandwidth limits it.",
         KV_CORRECT,
         {true, false},
         {false, false},
         false},
        {"The weights do not grow with load.", KV_CORRECT, {false, true}, {false, false}, false},
        {"The weights don't stay fixed.", KV_UNSURE, {false, false}, {false, false}, false},
    };
    struct kv_text_result r;

    kv_claims_grade(&item, "Quantize the weights with AWQ, and store KV in FP8.", &r);
    assert_true(r.covered[0] && r.covered[1] && !r.covered[2]);
    assert_true(fabs(r.score - 0.75) < 1e-12); /* (2 + 1) / (2 + 1 + 1) */
    assert_true(fabs(r.got - 3) < 1e-12 && fabs(r.total - 4) < 1e-12);
    assert_int_equal(r.verdict, KV_CORRECT);
    /* the covered point quotes the learner's own clause */
    assert_string_equal(r.quote[0], "Quantize the weights with AWQ, and store KV in FP8");
    /* a quarter of the weight and no evidence against it: the learner checks */
    kv_claims_grade(&item, "Cap the context length.", &r);
    assert_true(!r.covered[0] && !r.covered[1] && r.covered[2]);
    assert_int_equal(r.verdict, KV_UNSURE);
    kv_claims_grade(&item, "sawq", &r); /* a phrasing is whole words: "sawq" is not "awq" */
    assert_false(r.covered[1]);
    kv_claims_grade(&item, "   ", &r);
    assert_int_equal(r.verdict, KV_INVALID);
    kv_claims_grade(&item, "?!", &r);
    assert_int_equal(r.verdict, KV_INVALID);
    run(&item2, rows2, N(rows2));
}

/* An answer is graded whole up to 16 KiB and refused beyond, never cut. */
/* A yes/no question: "Does prefix caching speed up decode?". The point that is
 * the answer itself carries short = {"no"}: a lone "No" clause answers it, the
 * words after it are graded as usual, and a misconception after the "No" still
 * holds the verdict under a pass. */
static void test_yes_no_short(void **state)
{
    (void)state;
    static const char *const dec_about2[] = {"decode", "each decode step", "it"};
    static const char *const dec_said2[] = {"still reads", "no faster", "not faster"};
    static const char *const no[] = {"no"};
    static const char *const it_about[] = {"it", "prefix caching"};
    static const char *const it_said[] = {"prefill", "memory"};
    static const char *const mis_about[] = {"it", "decode"};
    static const char *const mis_said[] = {"faster", "reads less"};
    static const struct kv_point points[] = {
        {.text = "decode still reads the whole context",
         .about = PH(dec_about2),
         .said = PH(dec_said2),
         .shorts = PH(no),
         .weight = 2},
        {.text = "it saves prefill and memory",
         .about = PH(it_about),
         .said = PH(it_said),
         .weight = 1},
    };
    static const struct kv_misconception mis[] = {
        {PH(mis_about), PH(mis_said), "each step still reads the shared blocks", {0}, false},
    };
    static const struct kv_text_item item = {points, N(points), mis, N(mis), &glossary};
    static const struct row rows[] = {
        {"No.", KV_CORRECT, {true, false}, {false, false}, false},
        {"No \u2014 it spares the prefill work.", KV_CORRECT, {true, true}, {false, false}, false},
        {"no; it keeps the prompt's memory once", KV_CORRECT, {true, true}, {false, false}, false},
        /* the short phrasing must be the whole clause */
        {"No idea.", KV_WRONG, {false, false}, {false, false}, false},
        /* a "No" does not excuse a wrong claim after it */
        {"No, it makes decode faster.", KV_WRONG, {true, false}, {true, false}, false},
        {"Yes, it reads less each step.", KV_WRONG, {false, false}, {true, false}, false},
    };
    run(&item, rows, N(rows));
}

/* A point with a polarity is the answer to a yes/no question ("Does fp8 move
 * the ridge point?"): an answer opening with "No", "Nope", "Hardly" ...,
 * alone or before a comma, covers it; a "no" further on does not, nor does
 * the other polarity. */
static void test_polarity(void **state)
{
    (void)state;
    static const char *const why_about[] = {"intensity", "the ridge point"};
    static const char *const why_said[] = {"cancel", "doubles too", "both double"};
    static const struct kv_point points[] = {
        {.text = "no: the ridge point stays at the same batch",
         .weight = 1,
         .polarity = KV_POLARITY_NO},
        {.text = "the intensity and the peak both double",
         .about = PH(why_about),
         .said = PH(why_said),
         .weight = 1},
    };
    static const struct kv_text_item item = {points, N(points), NULL, 0, &glossary};
    static const char *const yes_text[] = {"two instances at 0.45"};
    static const struct kv_point yes_points[] = {
        {.text = "yes, with a fraction each",
         .accept = PH(yes_text),
         .weight = 1,
         .polarity = KV_POLARITY_YES},
    };
    static const struct kv_text_item yes_item = {yes_points, N(yes_points), NULL, 0, NULL};
    static const struct row rows[] = {
        {"No, both double and cancel.", KV_CORRECT, {true, false}, {false, false}, false},
        {"Nope.", KV_CORRECT, {true, false}, {false, false}, false},
        {"Hardly - the intensity doubles too.", KV_CORRECT, {true, true}, {false, false}, false},
        {"Not really: they cancel.", KV_CORRECT, {true, false}, {false, false}, false},
        {"Yes, it moves.", KV_WRONG, {false, false}, {false, false}, false},
        {"It moves; no doubt.", KV_UNSURE, {false, false}, {false, false}, false},
        {"No idea.", KV_WRONG, {false, false}, {false, false}, false},
    };
    static const struct row yes_rows[] = {
        {"Yes, about 0.45 each.", KV_CORRECT, {true}, {false}, false},
        {"Yep", KV_CORRECT, {true}, {false}, false},
        {"No.", KV_WRONG, {false}, {false}, false},
    };
    run(&item, rows, N(rows));
    run(&yes_item, yes_rows, N(yes_rows));
}

/* "and" inside a term of the item ("keys and values") does not cut the
 * clause, even when what follows names another about ("it"); figures and
 * "and" keep a noun phrase from reading as a keyword list. */
static void test_terms_with_and(void **state)
{
    (void)state;
    static const char *const kv_about[] = {"keys and values"};
    static const char *const kv_said[] = {"depend only"};
    static const char *const it_about[] = {"it"};
    static const char *const it_said[] = {"saves prefill"};
    static const char *const move_about[] = {"K and V", "the cache"};
    static const char *const move_said[] = {"whole prompt"};
    static const char *const size_accept[] = {"448 MiB"};
    static const struct kv_point points[] = {
        {.text = "keys and values depend only on earlier tokens",
         .about = PH(kv_about),
         .said = PH(kv_said),
         .weight = 1},
        {.text = "it saves prefill", .about = PH(it_about), .said = PH(it_said), .weight = 1},
    };
    static const struct kv_point move_points[] = {
        {.text = "the whole prompt's cache moves",
         .about = PH(move_about),
         .said = PH(move_said),
         .weight = 1},
        {.text = "448 MiB", .accept = PH(size_accept), .weight = 1},
    };
    static const struct kv_text_item item = {points, N(points), NULL, 0, NULL};
    static const struct kv_text_item move = {move_points, N(move_points), NULL, 0, NULL};
    static const struct row rows[] = {
        {"A token's keys and values depend only on what comes before it.",
         KV_CORRECT,
         {true, false},
         {false, false},
         false},
    };
    static const struct row move_rows[] = {
        {"Every layer's K and V for the whole prompt: roughly 470 MB (448 MiB) in bf16.",
         KV_CORRECT,
         {true, true},
         {false, false},
         false},
    };
    run(&item, rows, N(rows));
    run(&move, move_rows, N(move_rows));
}

static void test_size_limit(void **state)
{
    (void)state;
    static const char unit[] = "Decode is memory-bound. "; /* 24 bytes */
    char *big = malloc(KV_TEXT_MAX + 2);
    struct kv_text_result r;
    size_t n = 0;

    assert_non_null(big);
    memset(big, ' ', KV_TEXT_MAX);
    /* filler first, the claim in the last bytes: graded only if the whole is read */
    memcpy(big + KV_TEXT_MAX - 24, unit, 24);
    big[KV_TEXT_MAX] = '\0';
    for (size_t i = 0; i + 24 < KV_TEXT_MAX - 24; i += 24, n++)
        memcpy(big + i, "the cache holds keys... ", 24);
    kv_claims_grade(&phase, big, &r);
    assert_int_equal(r.verdict, KV_CORRECT);
    assert_true(r.covered[0]);
    big[KV_TEXT_MAX] = 'x';
    big[KV_TEXT_MAX + 1] = '\0';
    kv_claims_grade(&phase, big, &r);
    assert_int_equal(r.verdict, KV_INVALID);
    assert_non_null(strstr(r.why, "16 KiB"));
    free(big);
}

/* Topics separated by commas alone are a keyword list, even when a word in
 * them could be a verb ("streams", "stall") and even when there are six
 * words or fewer; a list of two terse claims or more is not. */
static void test_comma_lists(void **state)
{
    (void)state;
    static const struct row rows[] = {
        {"decode, memory-bound, prefill, compute-bound", KV_WRONG, {0}, {0}, true},
        {"decode, stall, streams, matrix multiplies", KV_WRONG, {0}, {0}, true},
        {"bandwidth, decode, GEMV", KV_WRONG, {0}, {0}, true},
        /* one noun phrase that pairs an about and a said is still a topic */
        {"decode memory-bound, FLOPs, roofline, HBM", KV_WRONG, {0}, {0}, true},
        /* terse claims, one per item */
        {"decode memory-bound, prefill compute-bound, batching helps",
         KV_CORRECT,
         {true, true},
         {false, false},
         false},
        /* a written series, a clause, or the tail of a sentence is not a list */
        {"Decode streams the weights, the cache, and the positions.",
         KV_CORRECT,
         {true, false},
         {false, false},
         false},
        /* an operator word makes a formula; "step time" and "k+1" are topics */
        {"weights plus cache, over bandwidth, per step", KV_UNSURE, {0}, {0}, false},
        {"chunked prefill, step time, k+1 positions", KV_WRONG, {0}, {0}, true},
        /* a word before its noun names a topic, it claims nothing */
        {"memory-bound decode, compute-bound prefill, GEMV, FLOPs", KV_WRONG, {0}, {0}, true},
        {"Decode is memory-bound, prefill, FLOPs",
         KV_CORRECT,
         {true, false},
         {false, false},
         false},
    };
    run(&phase, rows, N(rows));
}

/* A slip of typing in a long word is read as the word; never in a number,
 * a short word, or the first letter, where prefixes turn words round. */
static void test_typos(void **state)
{
    (void)state;
    static const char *const tok_accept[] = {"57344 bytes", "tokenizer"};
    static const struct kv_point tok_points[] = {
        {.text = "57,344 bytes a token", .accept = PH(tok_accept), .weight = 1},
    };
    static const struct kv_text_item tok = {tok_points, N(tok_points), NULL, 0, NULL};
    static const struct row rows[] = {
        {"Decode, it's memroy bound.", KV_CORRECT, {true, false}, {false, false}, false},
        {"Decode streams the wieghts.", KV_CORRECT, {true, false}, {false, false}, false},
        {"Decode streems the weights.", KV_CORRECT, {true, false}, {false, false}, false},
        {"Decode is memory-bond.", KV_UNSURE, {false, false}, {false, false}, false},
        {"Decode is nemory-bound.", KV_UNSURE, {false, false}, {false, false}, false},
        {"Decode is memoryy-bound.", KV_CORRECT, {true, false}, {false, false}, false},
    };
    static const struct row num_rows[] = {
        {"about 57434 bytes", KV_UNSURE, {false}, {false}, false},
        {"57344 bytes", KV_CORRECT, {true}, {false}, false},
        {"the tokeniser", KV_CORRECT, {true}, {false}, false},
    };
    run(&phase, rows, N(rows));
    run(&tok, num_rows, N(num_rows));
}

/* A said phrasing speaks of the subject it is bound to: a word that is not
 * a verb right before a subject describes that subject ("the memory-bound
 * decode"), and one after another subject and its verb says nothing of a
 * subject named later. The "and" of "keys and values" joins one term, so
 * the "and" before it may still end a clause. A clause that gives a reason
 * ("because", "since", "if" ...) is prose, "even" only stresses, and an
 * adverb is its adjective ("identically"). */
static void test_binding(void **state)
{
    (void)state;
    static const char *const kv_about[] = {"keys and values"};
    static const char *const kv_said[] = {"reread"};
    static const char *const kv_mis_said[] = {"used once"};
    static const struct kv_point kv_points[] = {
        {.text = "keys and values are reread",
         .about = PH(kv_about),
         .said = PH(kv_said),
         .weight = 1},
    };
    static const struct kv_misconception kv_mis[] = {
        {PH(kv_about), PH(kv_mis_said), "every later token reads them", {0}, false},
    };
    static const struct kv_text_item kv = {kv_points, N(kv_points), kv_mis, N(kv_mis), NULL};
    static const struct row rows[] = {
        /* "memory-bound" is said of decode, not of prefill */
        {"Prompt processing feeds the memory-bound decode.",
         KV_CORRECT,
         {true, false},
         {false, false},
         false},
        /* said of prefill after its verb: not of decode, named later */
        {"Prefill is memory-bound unlike decode.", KV_WRONG, {false, false}, {true, false}, false},
        /* "not because" denies the reason that follows */
        {"Not because decode is compute-bound.", KV_UNSURE, {false, false}, {false, false}, false},
        /* "even" stands between the words of a phrasing */
        {"Decode streams even the weights.", KV_CORRECT, {true, false}, {false, false}, false},
        /* a reason makes prose of what would read as keywords */
        {"Decode memory-bound since GEMV weight traffic HBM bandwidth tensor cores.",
         KV_CORRECT,
         {true, false},
         {false, false},
         false},
    };
    /* an adverb is its adjective */
    static const char *const out_about[] = {"the output"};
    static const char *const out_said[] = {"identical"};
    static const struct kv_point out_points[] = {
        {.text = "the output is the target's",
         .about = PH(out_about),
         .said = PH(out_said),
         .weight = 1},
    };
    static const struct kv_text_item out = {out_points, N(out_points), NULL, 0, NULL};
    static const struct row out_rows[] = {
        {"The outputs are distributed identically.", KV_CORRECT, {true}, {false}, false},
    };
    static const struct row kv_rows[] = {
        {"A query is used once and keys and values are reread.",
         KV_CORRECT,
         {true},
         {false},
         false},
    };
    run(&phase, rows, N(rows));
    run(&kv, kv_rows, N(kv_rows));
    run(&out, out_rows, N(out_rows));
}

static void test_verbs(void **state)
{
    (void)state;
    static const struct {
        const char *word;
        bool verb;
    } rows[] = {
        {"streams", true},   {"streamed", true},   {"streaming", true}, {"is", true},
        {"does", true},      {"shares", true},     {"sharing", true},   {"fits", true},
        {"cache", false},    {"decode", false},    {"memory", false},   {"tokens", false},
        {"batching", false}, {"folds", true},      {"releases", true},  {"verifies", true},
        {"point", false},    {"block", false},     {"hash", false},     {"references", true},
        {"multiply", true},  {"multiplies", true}, {"referenced", true}};
    for (size_t i = 0; i < N(rows); i++)
        if (kv_claims_is_verb(rows[i].word) != rows[i].verb)
            fail_msg("\"%s\": verb %d, want %d", rows[i].word, !rows[i].verb, rows[i].verb);
}

/* A misconception's `unless` names the case where its claim holds: "prefill of
 * a 20-token prompt is memory-bound" is true, so it is not the misconception
 * "prefill is memory-bound", which the bare claim still is. */
static void test_unless(void **state)
{
    (void)state;
    static const char *const short_prompt[] = {"short prompt", "token prompt"};
    static const struct kv_misconception mis[] = {
        {PH(pre_about), PH(mis_pre_said), "compute-bound past the ridge", PH(short_prompt), false},
    };
    static const struct kv_text_item item = {phase_points, N(phase_points), mis, N(mis), &glossary};
    static const struct row rows[] = {
        {"Decode is memory-bound; prefill of a 20-token prompt is memory-bound too.",
         KV_CORRECT,
         {true, false},
         {false, false},
         false},
        {"Decode is memory-bound; a short prompt's prefill is memory-bound too.",
         KV_CORRECT,
         {true, false},
         {false, false},
         false},
        {"Decode is memory-bound and prefill is memory-bound too.",
         KV_WRONG,
         {true, false},
         {true, false},
         false},
        /* nor is the case read as decode's claim given to prefill */
        {"Prefill of a 20-token prompt is memory-bound; decode is memory-bound.",
         KV_CORRECT,
         {true, false},
         {false, false},
         false},
    };
    run(&item, rows, N(rows));
}

/* A question the answer denies at once ("Prefill memory-bound? No: ...")
 * states nothing: its words are not read as the misconception they ask
 * about, nor as covering a point; a denial's own case still reads as one. */
static void test_rhetorical_question_and_negated_case(void **state)
{
    (void)state;
    static const char *const short_prompt[] = {"short prompt"};
    static const struct kv_misconception mis[] = {
        {PH(pre_about), PH(mis_pre_said), "compute-bound past the ridge", PH(short_prompt), false},
    };
    static const struct kv_text_item item = {phase_points, N(phase_points), mis, N(mis), &glossary};
    static const struct row rows[] = {
        {"Is prefill memory-bound? No: prefill is compute-bound, and decode is memory-bound.",
         KV_CORRECT,
         {true, true},
         {false, false},
         false},
        {"Decode is memory-bound; prefill is never memory-bound except for a short prompt.",
         KV_CORRECT,
         {true, false},
         {false, false},
         false},
    };
    run(&item, rows, N(rows));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rhetorical_question_and_negated_case),
        cmocka_unit_test(test_claims_prefill_decode),
        cmocka_unit_test(test_three_verdicts),
        cmocka_unit_test(test_reversals),
        cmocka_unit_test(test_said_with_its_own_negation),
        cmocka_unit_test(test_glossary),
        cmocka_unit_test(test_plain_points),
        cmocka_unit_test(test_yes_no_short),
        cmocka_unit_test(test_polarity),
        cmocka_unit_test(test_terms_with_and),
        cmocka_unit_test(test_size_limit),
        cmocka_unit_test(test_comma_lists),
        cmocka_unit_test(test_typos),
        cmocka_unit_test(test_verbs),
        cmocka_unit_test(test_invariance),
        cmocka_unit_test(test_wrong_unit),
        cmocka_unit_test(test_denials),
        cmocka_unit_test(test_binding),
        cmocka_unit_test(test_unless),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
