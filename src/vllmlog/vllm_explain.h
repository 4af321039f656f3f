/* vllm_explain.h: a vLLM log's capacity lines, recomputed and explained.
 *
 * Given a parsed log (vllm_log.h) and the model it served (a preset or a
 * config.json, resolved by the caller), runs the calculator under the log's
 * arguments with the logged "Available KV cache memory" as the budget, at
 * both ends of its 0.01 GiB rounding, and for every capacity line says what
 * was logged, what the calculator gets, whether they match, how the number
 * arises and what would change it (each change worked out by the calculator).
 *
 * Where the log shows something the calculator does not model (a hybrid Mamba
 * model, a speculative draft, DCP, a cache dtype it lacks, a rule that changed
 * after the versions it has), no line is compared: `blocked` says why, so a
 * line is never reported as matching by accident. Pure: no I/O. */
#ifndef VLLM_EXPLAIN_H
#define VLLM_EXPLAIN_H

#include <stdbool.h>

#include "kv_calc.h"
#include "vllm_log.h"

enum vllm_match { VLLM_MATCH_UNCHECKED = -1, VLLM_MATCH_NO = 0, VLLM_MATCH_YES = 1 };

#define VLLM_WHY_MAX 1024

struct vllm_verdict {
    const struct vllm_line *line;
    enum vllm_match match;
    bool has_computed;
    double computed;                 /* at the logged budget */
    double computed_lo, computed_hi; /* at the two ends of the budget's rounding */
    char how[VLLM_WHY_MAX];          /* how the number arises */
    char change[VLLM_WHY_MAX];       /* what would change it; may be empty */
    /* a line that does not match: what would make it ("; " between
     * items), or why nothing tried would; empty otherwise */
    char would_match[VLLM_WHY_MAX / 2];
};

struct vllm_explain {
    char blocked[400];      /* why no line can be recomputed; "" when they can */
    char assumed[1024];     /* what was assumed where the log is silent, and the notes of
                             * the calculator's rules for the log's release; may be empty */
    bool v0_rules;          /* concurrency as V0 printed it: blocks x block size / max_model_len */
    char rules_version[24]; /* the calculator's rule set used: "0.19.0" */
    size_t n;
    struct vllm_verdict v[VLLM_LOG_MAX_LINES];
    size_t matched, mismatched, unchecked;
};

/* Explains every capacity line of `log` for model `m`. utf8 picks the
 * arithmetic glyphs (x or U+00D7). Returns KVT_E_OK, or the calculator's
 * error when the model and the log's settings cannot be laid out (*bad names
 * the field; bad may be NULL). The result is large: allocate it. */
enum kvt_err vllm_explain(const struct vllm_log *log, const struct kv_model *m, bool utf8,
                          struct vllm_explain *out, enum kv_field *bad);

/* A figure of a line of kind k as vLLM prints it, so that logged and
 * computed read alike: counts grouped ("476,016"), a concurrency with two
 * decimals and an x ("4.50x"), GiB and percentages with two decimals
 * ("58.11 GiB", "15.38%"). Returns buf. */
const char *vllm_explain_figure(enum vllm_line_kind k, double v, char *buf, size_t cap);

#endif
