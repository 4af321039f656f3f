/* Recomputing a vLLM log's capacity lines: the log's settings become a
 * kv_deploy, the logged KV memory the budget, and every line is checked at
 * both ends of that figure's rounding (vLLM prints GiB to two decimals, so
 * the true budget lies within +-0.005 GiB of it).
 *
 * The explanations are built from the same results as the numbers they
 * quote (vllm_explain_text.c), so the command and the playground say the
 * same thing; the log's settings are read in vllm_explain_setup.c. */
#include "vllm_explain.h"
#include "vllm_explain_priv.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "kvt_format.h"

void explain_addf(char *buf, size_t cap, const char *fmt, ...)
{
    size_t n = strlen(buf);
    va_list ap;
    if (n + 1 >= cap)
        return;
    va_start(ap, fmt);
    vsnprintf(buf + n, cap - n, fmt, ap);
    va_end(ap);
}

const char *explain_fint(uint64_t v, char *b, size_t cap)
{
    return kvt_fmt_int(v, b, cap);
}

bool explain_has_kind(const struct vllm_log *log, enum vllm_line_kind k)
{
    for (size_t i = 0; i < log->n_lines; i++)
        if (log->lines[i].kind == k)
            return true;
    return false;
}

enum kvt_err explain_run(const struct explain_ctx *c, double budget_gib, uint64_t len,
                         struct kv_result *r, enum kv_field *bad)
{
    struct kv_deploy d = c->d;
    d.kv_budget_gib = budget_gib;
    d.max_model_len = len;
    return kv_calc(&c->m, &d, r, bad, NULL);
}

/* The budget for line i: the nearest KV memory line before it, else the first after. */
static const struct vllm_line *budget_line(const struct vllm_log *log, size_t i)
{
    const struct vllm_line *found = NULL;
    for (size_t k = 0; k < log->n_lines; k++) {
        if (log->lines[k].kind != VLLM_LINE_KV_MEMORY)
            continue;
        if (k < i || !found)
            found = &log->lines[k];
        if (k > i)
            break;
    }
    return found;
}

/* The request length a line is about. */
static uint64_t line_len(const struct vllm_log *log, size_t i)
{
    const struct vllm_line *l = &log->lines[i];
    if (l->kind == VLLM_LINE_CONCURRENCY)
        return l->per_request;
    for (size_t k = i + 1; k < log->n_lines && k <= i + 2; k++)
        if (log->lines[k].kind == VLLM_LINE_CONCURRENCY)
            return log->lines[k].per_request;
    return log->args.max_model_len;
}

/* Which "GPU KV cache size" a line prints: int(concurrency x max_model_len)
 * from 0.20.1 (the release's rules say), and always when the size shares its
 * line with the concurrency (update_kv_cache_capacity, later still);
 * floor(blocks / groups) x block size before. Real 0.24.0 logs print the new
 * size on two lines (noonghunna/club-3090 issue 612), so the line's form
 * alone does not tell. */
bool explain_tokens_from_concurrency(const struct vllm_line *l, const struct kv_result *r)
{
    return l->one_line || r->rules.tokens_from_concurrency;
}

/* The figure a line prints, from a calculator result. */
bool explain_figure(const struct explain_ctx *c, const struct vllm_line *l,
                    const struct kv_result *r, uint64_t len, double *out)
{
    switch (l->kind) {
    case VLLM_LINE_KV_TOKENS:
        if (!r->has_blocks)
            return false;
        if (explain_tokens_from_concurrency(l, r) == r->rules.tokens_from_concurrency) {
            *out = (double)r->kv_tokens; /* the release's own form */
        } else {
            /* a size sharing its line with the concurrency, under rules that
             * still print the older form: the line's form wins */
            uint64_t n = len ? len : r->max_model_len;
            if (!r->has_concurrency || n == 0)
                return false;
            *out = floor(r->max_concurrency * (double)n);
        }
        return true;
    case VLLM_LINE_CONCURRENCY:
        if (c->v0) {
            if (!r->has_blocks || len == 0)
                return false;
            *out = (double)r->num_gpu_blocks * r->deploy.block_size / (double)len;
            return true;
        }
        if (!r->has_concurrency)
            return false;
        *out = r->max_concurrency;
        return true;
    case VLLM_LINE_GPU_BLOCKS:
        if (!r->has_blocks)
            return false;
        *out = (double)r->num_gpu_blocks;
        return true;
    default:
        return false;
    }
}

bool explain_in_range(const struct vllm_line *l, double lo, double hi)
{
    if (l->kind == VLLM_LINE_CONCURRENCY) {
        /* printed with %.2f: compare at two decimals */
        double a = floor(lo * 100 + 0.5) / 100, b = floor(hi * 100 + 0.5) / 100;
        return l->value >= a - 1e-9 && l->value <= b + 1e-9;
    }
    return l->value >= lo - 1e-9 && l->value <= hi + 1e-9;
}

/* The size a block count prints, under the log's rules. */
static bool tokens_at(const struct explain_ctx *c, const struct vllm_line *t, uint64_t len,
                      uint64_t blocks, uint64_t *out)
{
    struct explain_ctx k = *c;
    struct kv_result r;
    double f;

    k.d.num_gpu_blocks_override = blocks;
    if (explain_run(&k, 1.0, len, &r, NULL) != KVT_E_OK || !explain_figure(&k, t, &r, len, &f))
        return false;
    *out = (uint64_t)f;
    return true;
}

/* The block counts whose printed size is the logged one, [*lo, *hi]: what a
 * log without its KV memory line still says about the cache. False when no
 * block count prints that size. The size never falls as blocks grow. */
static bool implied_blocks(const struct explain_ctx *c, const struct vllm_line *t, uint64_t len,
                           uint64_t *lo, uint64_t *hi)
{
    uint64_t a = 1, b = (uint64_t)1 << 40, v;

    while (a < b) {
        uint64_t mid = a + (b - a) / 2;
        if (!tokens_at(c, t, len, mid, &v))
            return false;
        if (v >= t->count)
            b = mid;
        else
            a = mid + 1;
    }
    if (!tokens_at(c, t, len, a, &v) || v != t->count)
        return false;
    *lo = a;
    b = (uint64_t)1 << 40;
    while (a < b) {
        uint64_t mid = a + (b - a + 1) / 2;
        if (!tokens_at(c, t, len, mid, &v))
            return false;
        if (v <= t->count)
            a = mid;
        else
            b = mid - 1;
    }
    *hi = a;
    return true;
}

/* A log without "Available KV cache memory" (cut, or vLLM printed none): the
 * size line names the block count, within a group's rounding, and the other
 * lines are checked at that count. */
static void explain_without_budget(const struct explain_ctx *c, const struct vllm_log *log,
                                   size_t i, struct vllm_verdict *v)
{
    const struct vllm_line *l = &log->lines[i], *t = NULL;
    uint64_t len = line_len(log, i), lo, hi;
    struct explain_ctx k = *c;
    struct kv_result rl, rh;
    char a1[32], a2[32], a3[32];

    for (size_t j = 0; j < log->n_lines; j++)
        if (log->lines[j].kind == VLLM_LINE_KV_TOKENS && (!t || j <= i + 1))
            t = &log->lines[j];
    if (!t || (l->kind != VLLM_LINE_KV_TOKENS && l->kind != VLLM_LINE_CONCURRENCY) ||
        (len == 0 && l->kind == VLLM_LINE_CONCURRENCY)) {
        snprintf(v->how, sizeof v->how,
                 "Not recomputed: the log has no \"Available KV cache memory\" line, and the "
                 "budget is what every capacity figure follows from");
        return;
    }
    if (!implied_blocks(c, t, line_len(log, (size_t)(t - log->lines)), &lo, &hi)) {
        if (l == t) {
            v->match = VLLM_MATCH_NO;
            snprintf(v->how, sizeof v->how,
                     "no block count prints this size under the log's release's rule: the "
                     "model or a setting differs from what the calculator was given");
        } else {
            snprintf(v->how, sizeof v->how,
                     "Not recomputed: the size line, which stands in for the missing KV memory "
                     "line, matches no block count");
        }
        return;
    }
    if (l == t) {
        snprintf(v->how, sizeof v->how,
                 "the log has no \"Available KV cache memory\" line, so this size stands in for "
                 "it: under the release's rule it is printed for %s to %s blocks",
                 kvt_fmt_int(lo, a1, sizeof a1), kvt_fmt_int(hi, a2, sizeof a2));
        return;
    }
    k.d.num_gpu_blocks_override = lo;
    if (explain_run(&k, 1.0, len, &rl, NULL) != KVT_E_OK ||
        !explain_figure(&k, l, &rl, len, &v->computed_lo))
        return;
    k.d.num_gpu_blocks_override = hi;
    if (explain_run(&k, 1.0, len, &rh, NULL) != KVT_E_OK ||
        !explain_figure(&k, l, &rh, len, &v->computed_hi))
        return;
    v->has_computed = true;
    v->computed = v->computed_lo;
    v->match = explain_in_range(l, v->computed_lo, v->computed_hi) ? VLLM_MATCH_YES : VLLM_MATCH_NO;
    snprintf(v->how, sizeof v->how,
             "the log has no \"Available KV cache memory\" line; its size line means %s to %s "
             "blocks",
             kvt_fmt_int(lo, a1, sizeof a1), kvt_fmt_int(hi, a2, sizeof a2));
    explain_how_request(c, &rl, len, v->how, sizeof v->how);
    explain_addf(v->how, sizeof v->how, "; %s %s %s = %s", kvt_fmt_int(lo, a1, sizeof a1), c->div,
                 kvt_fmt_int(rl.blocks_per_request, a2, sizeof a2),
                 kvt_fmt_concurrency_vllm(rl.max_concurrency, a3, sizeof a3));
}

static void explain_line(const struct explain_ctx *c, const struct vllm_log *log, size_t i,
                         struct vllm_verdict *v, const char *why_blocked)
{
    const struct vllm_line *l = &log->lines[i];
    const struct vllm_line *b = budget_line(log, i);
    uint64_t len = line_len(log, i);
    struct kv_result lo, hi, mid;
    double gib;
    char a1[32], a2[32], a3[32];

    v->line = l;
    v->match = VLLM_MATCH_UNCHECKED;
    if (l->kind == VLLM_LINE_KV_MEMORY) {
        explain_memory(c, v);
        return;
    }
    if (why_blocked[0]) {
        snprintf(v->how, sizeof v->how, "Not recomputed: %s", why_blocked);
        return;
    }
    if (l->kind == VLLM_LINE_PAD_LAYERS) {
        explain_padding(c, l, v);
        return;
    }
    if (l->kind == VLLM_LINE_ATTN_BLOCK || l->kind == VLLM_LINE_MAMBA_PAD) {
        explain_state_line(c, l, v);
        return;
    }
    if (!b) {
        explain_without_budget(c, log, i, v);
        return;
    }
    if (len == 0 && l->kind != VLLM_LINE_GPU_BLOCKS && l->kind != VLLM_LINE_KV_TOKENS) {
        snprintf(v->how, sizeof v->how,
                 "Not recomputed: the log does not say the max_model_len this line is for");
        return;
    }
    if (l->kind == VLLM_LINE_KV_TOKENS && c->v0) {
        snprintf(v->how, sizeof v->how, "Not recomputed: a V0-engine log does not print this line");
        return;
    }
    gib = b->value;
    if (explain_run(c, gib, len, &mid, NULL) != KVT_E_OK ||
        explain_run(c, gib - GIB_HALF > 0 ? gib - GIB_HALF : gib, len, &lo, NULL) != KVT_E_OK ||
        explain_run(c, gib + GIB_HALF, len, &hi, NULL) != KVT_E_OK ||
        !explain_figure(c, l, &mid, len, &v->computed) ||
        !explain_figure(c, l, &lo, len, &v->computed_lo) ||
        !explain_figure(c, l, &hi, len, &v->computed_hi)) {
        snprintf(v->how, sizeof v->how, "Not recomputed: the calculator has no figure for it here");
        return;
    }
    v->has_computed = true;
    v->match = explain_in_range(l, v->computed_lo, v->computed_hi) ? VLLM_MATCH_YES : VLLM_MATCH_NO;

    explain_how_blocks(c, &mid, gib, v->how, sizeof v->how);
    switch (l->kind) {
    case VLLM_LINE_KV_TOKENS:
        if (explain_tokens_from_concurrency(l, &mid))
            explain_addf(
                v->how, sizeof v->how,
                "; printed as int(concurrency %s max_model_len) = int(%s / %s %s %s) (vLLM "
                "0.20.1 and later)",
                c->x, explain_fint(mid.num_gpu_blocks, a1, sizeof a1),
                explain_fint(mid.blocks_per_request, a3, sizeof a3), c->x,
                explain_fint(len, a2, sizeof a2));
        else
            explain_addf(
                v->how, sizeof v->how,
                "; printed as floor(blocks / %u group%s) %s %u tokens a block (up to vLLM 0.20.0)",
                mid.full_groups + mid.sliding_groups,
                mid.full_groups + mid.sliding_groups == 1 ? "" : "s", c->x, mid.deploy.block_size);
        explain_what_changes(c, l, &mid, gib, len, v->change, sizeof v->change);
        break;
    case VLLM_LINE_CONCURRENCY:
        if (c->v0) {
            explain_addf(v->how, sizeof v->how, "; V0 prints blocks %s %u %s %s", c->x,
                         mid.deploy.block_size, c->div, explain_fint(len, a1, sizeof a1));
        } else {
            explain_how_request(c, &mid, len, v->how, sizeof v->how);
            /* as vLLM prints it (%.2fx): the line's own figure, no raw quotient */
            explain_addf(v->how, sizeof v->how, "; %s %s %s = %s",
                         explain_fint(mid.num_gpu_blocks, a1, sizeof a1), c->div,
                         explain_fint(mid.blocks_per_request, a2, sizeof a2),
                         kvt_fmt_concurrency_vllm(mid.max_concurrency, a3, sizeof a3));
        }
        explain_what_changes(c, l, &mid, gib, len, v->change, sizeof v->change);
        break;
    default:
        break;
    }
    if (v->match == VLLM_MATCH_NO) {
        explain_addf(
            v->how, sizeof v->how,
            ". It does not match: the model, the block size or a setting the log does not show "
            "differs from what the calculator was given");
        explain_what_matches(c, l, &mid, gib, len, v->would_match, sizeof v->would_match);
    }
}

enum kvt_err vllm_explain(const struct vllm_log *log, const struct kv_model *m, bool utf8,
                          struct vllm_explain *out, enum kv_field *bad)
{
    struct explain_ctx c = {
        .log = log, .m = *m, .x = utf8 ? "\xc3\x97" : "x", .div = utf8 ? "\xc3\xb7" : "/"};
    struct kv_result probe;
    char why_blocked[sizeof out->blocked] = "";
    enum kvt_err e;

    memset(out, 0, sizeof *out);
    c.v0 = log->engine_v0 || (explain_has_kind(log, VLLM_LINE_GPU_BLOCKS) &&
                              !explain_has_kind(log, VLLM_LINE_KV_TOKENS));
    out->v0_rules = c.v0;
    explain_settings(&c, out->assumed, sizeof out->assumed);

    /* the model's shape under the log's settings, before any line */
    e = explain_run(&c, 1.0, log->args.max_model_len, &probe, bad);
    if (e != KVT_E_OK)
        return e;
    snprintf(out->rules_version, sizeof out->rules_version, "%s", probe.vllm_version);
    explain_blocked(&c, &probe, why_blocked, sizeof why_blocked);
    /* what the calculator's rules for this release assume or cannot date */
    for (size_t i = 0; i < probe.rules.n_notes; i++)
        explain_addf(out->assumed, sizeof out->assumed, "%s%s", out->assumed[0] ? "; " : "",
                     probe.rules.notes[i].text);
    memcpy(out->blocked, why_blocked, sizeof why_blocked);

    for (size_t i = 0; i < log->n_lines; i++) {
        struct vllm_verdict *v = &out->v[out->n++];
        explain_line(&c, log, i, v, why_blocked);
        if (v->match == VLLM_MATCH_YES)
            out->matched++;
        else if (v->match == VLLM_MATCH_NO)
            out->mismatched++;
        else
            out->unchecked++;
    }
    return KVT_E_OK;
}
