/* kv_grade.h: grading answers, and saying which mistake a wrong number is.
 *
 * Numeric answers are converted to the exercise's unit (a bare number is
 * taken in that unit) and compared under its tolerance. A wrong one is
 * compared with the expected value under common mistakes: each mistake
 * multiplies the true figure by a known factor (leaving out the x2 for K and
 * V halves it; query heads instead of KV heads multiply it by the GQA group;
 * ...), so an answer that lands on one of those products, within the same
 * tolerance, is diagnosed as that mistake. A unit mistake is named only
 * when the unit written makes it possible (dividing by 10^9 but writing
 * GiB needs a binary unit at the G prefix), and no mistake is named for an
 * answer within the rounding of the digits typed ("7" for 7.46). */
#ifndef KV_GRADE_H
#define KV_GRADE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kv_answer.h"

/* unsure: free text the grader found neither right nor wrong on evidence
 * (kv_claims.h); the learner checks it. Numbers and choices are never
 * unsure. */
enum kv_verdict { KV_CORRECT, KV_WRONG, KV_INVALID, KV_UNSURE };

/* How the graded figure depends on the KV cache's size: bytes grow with it
 * (direct), how many tokens or sequences fit shrink with it (inverse), and
 * some figures do not follow it at all (none: only unit mistakes apply). */
enum kv_relation { KV_REL_DIRECT, KV_REL_INVERSE, KV_REL_NONE };

/* What the diagnosis knows of the model behind the exercise. */
struct kv_diag_model {
    bool known;
    uint32_t layers, heads, kv_heads;
    unsigned kv_bytes; /* bytes per KV element in the exercise */
    uint32_t tp;       /* the tensor-parallel degree of a per-GPU figure; 0 or 1 for none */
};

/* The slips a lesson can name, each the mistake of the same name below:
 * the lesson's key, then the enum. */
#define KV_SLIPS(X)                                                                                \
    X(TOTAL_PARAMS, "total_params")                                                                \
    X(ACTIVE_PARAMS, "active_params")                                                              \
    X(LATENT_SPLIT, "latent_split")                                                                \
    X(MLA_KV_PAIR, "kv_doubled")                                                                   \
    X(TOKENS_FOR_REQUESTS, "tokens_per_s")                                                         \
    X(DECODES_LEFT_OUT, "decodes_left_out")

enum kv_slip {
#define KV_SLIP_ENUM(name, key) KV_SLIP_##name,
    KV_SLIPS(KV_SLIP_ENUM)
#undef KV_SLIP_ENUM
        KV_SLIP__COUNT
};

/* "total_params" -> KV_SLIP_TOTAL_PARAMS; -1 for a key no slip has. */
int kv_slip_find(const char *key);
const char *kv_slip_key(enum kv_slip s);

struct kv_numeric {
    double expected;            /* in unit */
    const struct kv_unit *unit; /* the exercise's unit ("" = a plain number) */
    double tolerance;           /* a fraction when relative, else in unit */
    bool relative;
    enum kv_relation relation;
    struct kv_diag_model model;
    /* What the answer comes to when a part is left out, in unit; 0 when the
     * exercise does not say (lessons' left_out = { kv = ..., overhead = ... }). */
    double if_no_kv, if_no_overhead;
    /* What the size is per, "token" or "sequence", when the question says;
     * NULL when it does not (then "GiB/token" is read as GiB). */
    const char *per;
    /* What the answer comes to under a slip the lesson teaches, in unit; 0
     * when it does not say (lessons' slips = { total_params = ..., ... }, or
     * slips(p) for a drawn exercise), indexed by enum kv_slip. */
    double if_slip[KV_SLIP__COUNT];
};

#define KV_MISTAKES(X)                                                                             \
    X(NO_KV_PAIR, "no-kv-pair",                                                                    \
      "you left out the x2 for K and V: every token stores a key and a value")                     \
    X(QUERY_HEADS, "query-heads",                                                                  \
      "you used the query heads instead of the KV heads: grouped-query attention shares each KV "  \
      "head among several query heads")                                                            \
    X(DTYPE_WIDTH, "dtype-width",                                                                  \
      "you used the wrong bytes per element: fp32 is 4, bf16 and fp16 are 2, fp8 and int8 1")      \
    X(PER_LAYER, "per-layer", "you gave one layer's worth: every layer keeps its own K and V")     \
    X(GB_AS_GIB, "gb-as-gib",                                                                      \
      "you divided by 10^9 (GB) but wrote GiB: a GiB is 2^30 bytes, 7.4% more")                    \
    X(GIB_AS_GB, "gib-as-gb", "you divided by 2^30 (GiB) but wrote GB: a GB is 10^9 bytes")        \
    X(PREFIX_MIX, "decimal-binary-prefix",                                                         \
      "you mixed decimal and binary prefixes: a MiB is 1,048,576 bytes, a MB 1,000,000")           \
    X(PREFIX_MIX_K, "decimal-binary-prefix-k",                                                     \
      "you mixed decimal and binary prefixes: a KiB is 1,024 bytes, a KB 1,000")                   \
    X(BITS, "bits-for-bytes", "you counted bits where the question asks for bytes (x8)")           \
    X(BYTES_AS_BITS, "bytes-over-8", "you divided by 8 once too often: these are bytes already")   \
    X(LEFT_OUT_KV, "left-out-kv",                                                                  \
      "you left out the KV cache: each sequence's keys and values are stored and read along with " \
      "the weights")                                                                               \
    X(LEFT_OUT_OVERHEAD, "left-out-overhead",                                                      \
      "you left out the overhead: activations, CUDA graphs and memory outside PyTorch come off "   \
      "the budget before the cache")                                                               \
    X(NO_ROUND_DOWN, "no-round-down",                                                              \
      "you did not round down to whole sequences: a sequence runs only when all of its cache "     \
      "fits")                                                                                      \
    X(SPLIT_KV_HEADS, "split-kv-heads",                                                            \
      "you split the KV heads below one per GPU: under plain TP, past TP = KV heads, vLLM 0.26 "   \
      "gives each GPU a whole head, copied, not a fraction (max(1, KV heads // TP))")              \
    X(NO_TP_SPLIT, "not-split-by-tp",                                                              \
      "you did not divide by TP: each GPU caches only its own KV heads, KV heads // TP of them "   \
      "(at least one), not the whole model's")                                                     \
    X(BIT_UNIT, "bit-unit",                                                                        \
      "you wrote a bit unit for a figure in bytes: your number is the bytes, but 8 bits make a "   \
      "byte")                                                                                      \
    X(TOTAL_PARAMS, "moe-total-params",                                                            \
      "you used the total parameters: a decode step reads only the experts the tokens were "       \
      "routed to (the active parameters)")                                                         \
    X(ACTIVE_PARAMS, "moe-active-params",                                                          \
      "you used the active parameters: GPU memory holds every expert (the total)")                 \
    X(LATENT_SPLIT, "mla-latent-split",                                                            \
      "TP times the answer: that is the GPUs' caches added up, or the latent divided by TP. "      \
      "Under plain TP (vLLM 0.26) every GPU caches the whole latent of the same tokens, so the "   \
      "copies do not add up")                                                                      \
    X(MLA_KV_PAIR, "mla-kv-doubled",                                                               \
      "you doubled the latent for K and V: MLA caches one vector a token per layer (the latent "   \
      "plus the RoPE key), with no separate V")                                                    \
    X(TOKENS_FOR_REQUESTS, "tokens-for-requests",                                                  \
      "you gave tokens per second: a request finishes when its whole reply is out, so divide by "  \
      "the tokens per reply")                                                                      \
    X(DECODES_LEFT_OUT, "decodes-left-out",                                                        \
      "you left out the decodes: they take their tokens from the budget first, so the prompt "     \
      "gets the budget minus the decodes each step")                                               \
    X(FRACTION_FOR_PERCENT, "fraction-for-percent",                                                \
      "you gave a fraction where the question asks for a percentage: multiply by 100")             \
    X(BLOCKS_ROUND_UP, "blocks-round-up",                                                          \
      "you rounded the blocks up: only whole blocks fit in the budget, so vLLM rounds down")

enum kv_mistake {
#define KV_MISTAKE_ENUM(name, id, text) KV_MISTAKE_##name,
    KV_MISTAKES(KV_MISTAKE_ENUM)
#undef KV_MISTAKE_ENUM
        KV_MISTAKE__COUNT,
    KV_MISTAKE_NONE = -1
};

const char *kv_mistake_id(enum kv_mistake m);   /* "no-kv-pair" */
const char *kv_mistake_text(enum kv_mistake m); /* what the learner is told */

struct kv_numeric_result {
    enum kv_verdict verdict;
    struct kv_answer answer;
    double parsed;           /* the answer in the exercise's unit (NAN when invalid) */
    double allowed;          /* the tolerance applied, in the exercise's unit */
    enum kv_mistake mistake; /* KV_MISTAKE_NONE when none matched */
    double score;            /* 1 correct, 0 otherwise */
    char why[200];           /* for invalid answers: what could not be read */
};

/* What an answer may be off by at this expected value: the tolerance, or
 * its fraction of |expected| when relative. */
double kv_grade_allowed(bool relative, double tolerance, double expected);

/* Grades one typed answer against the exercise. Never fails: bad input is
 * an invalid verdict with a reason. */
void kv_grade_numeric(const struct kv_numeric *ex, const char *typed, struct kv_numeric_result *r);

/* What was read, for the learner to check: the number as typed in the unit
 * typed ("2 KiB", "0.00001 GiB"), then, when that differs from the
 * exercise's `unit`, the same in it ("28 KiB = 28,672 B"), a small figure
 * with its significant digits, never a bare "0"; without a unit typed, the
 * number in the exercise's unit. Written to buf; returns buf. */
const char *kv_numeric_read_as(const struct kv_numeric_result *r, const char *unit, char *buf,
                               size_t cap);

/* Free text is graded on claims: kv_claims.h. */

/* Multiple choice: "2", "b", "B)" or the option's text picks an option.
 * Returns the 0-based option, or -1 (invalid) with why filled in. */
int kv_choice_pick(const char *const *options, size_t n, const char *typed, char *why, size_t cap);

#endif
