/* vllm_explain_priv.h: what the explanation's files share behind
 * vllm_explain.h: the log and settings a recomputation runs under, and the
 * helpers the lines' explanations are written with. Private to
 * vllm_explain.c (lines and matching), vllm_explain_setup.c (the log's
 * settings as a kv_deploy, and what blocks a comparison) and
 * vllm_explain_text.c (how a figure arises, what would change it). */
#ifndef VLLM_EXPLAIN_PRIV_H
#define VLLM_EXPLAIN_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kv_calc.h"
#include "vllm_explain.h"
#include "vllm_log.h"

struct explain_ctx {
    const struct vllm_log *log;
    struct kv_model m;
    struct kv_deploy d; /* budget and max_model_len are set per line */
    const char *x;      /* the multiplication sign */
    const char *div;    /* the division sign, as the course writes it (÷; "/" in ASCII) */
    bool v0;            /* V0 rules for concurrency */
};

#define GIB_HALF 0.005 /* half of the last printed digit of a GiB figure */

/* Whether line l's logged figure lies in [lo, hi] as the line prints it. */
bool explain_in_range(const struct vllm_line *l, double lo, double hi);

/* Appends printf-formatted text to buf, cut to fit cap. */
void explain_addf(char *buf, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* v grouped by thousands ("1,214,464"); returns b. */
const char *explain_fint(uint64_t v, char *b, size_t cap);

/* Whether the log has a line of kind k. */
bool explain_has_kind(const struct vllm_log *log, enum vllm_line_kind k);

/* The calculator under the log's settings at this budget and request length. */
enum kvt_err explain_run(const struct explain_ctx *c, double budget_gib, uint64_t len,
                         struct kv_result *r, enum kv_field *bad);

/* The figure line l prints, from a result; false when it has none. */
bool explain_figure(const struct explain_ctx *c, const struct vllm_line *l,
                    const struct kv_result *r, uint64_t len, double *out);

/* Whether a "GPU KV cache size" line prints int(concurrency x max_model_len). */
bool explain_tokens_from_concurrency(const struct vllm_line *l, const struct kv_result *r);

/* c->d from the log's settings; what had to be assumed goes to `assumed`. */
void explain_settings(struct explain_ctx *c, char *assumed, size_t cap);

/* True, with the reason in why, when the log shows something the calculator
 * does not model: then no line is compared. */
bool explain_blocked(const struct explain_ctx *c, const struct kv_result *r, char *why, size_t cap);

/* How the block count arises, appended to how. */
void explain_how_blocks(const struct explain_ctx *c, const struct kv_result *r, double gib,
                        char *how, size_t cap);

/* How a request's blocks arise, appended to how. */
void explain_how_request(const struct explain_ctx *c, const struct kv_result *r, uint64_t len,
                         char *how, size_t cap);

/* What would move line l's figure, each change recomputed, into out. */
void explain_what_changes(const struct explain_ctx *c, const struct vllm_line *l,
                          const struct kv_result *r, double gib, uint64_t len, char *out,
                          size_t cap);

/* For a line that does not match: the single changes that would make the
 * calculator print the logged figure (the KV memory that gives it, a
 * kv_cache_dtype, a block size or a TP degree the log may not show, another
 * release's rules), each recomputed, into out; or why none was found. */
void explain_what_matches(const struct explain_ctx *c, const struct vllm_line *l,
                          const struct kv_result *r, double gib, uint64_t len, char *out,
                          size_t cap);

/* The KV memory line: the input, explained, never compared. */
void explain_memory(const struct explain_ctx *c, struct vllm_verdict *v);

/* "Add N padding layers, may waste at most X%". */
void explain_padding(const struct explain_ctx *c, const struct vllm_line *l,
                     struct vllm_verdict *v);

/* The hybrid lines: the attention block size and the state page's padding. */
void explain_state_line(const struct explain_ctx *c, const struct vllm_line *l,
                        struct vllm_verdict *v);

#endif
