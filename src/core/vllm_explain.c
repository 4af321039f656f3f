/* Recomputing a vLLM log's capacity lines: the log's settings become a
 * kv_deploy, the logged KV memory the budget, and every line is checked at
 * both ends of that figure's rounding (vLLM prints GiB to two decimals, so
 * the true budget lies within +-0.005 GiB of it).
 *
 * The explanations are built here, beside the numbers they quote, so the
 * command and the playground say the same thing. */
#include "vllm_explain.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "kvt_format.h"

#define GIB_HALF 0.005 /* half of the last printed digit of a GiB figure */

struct ctx {
    const struct vllm_log *log;
    struct kv_model m;
    struct kv_deploy d; /* budget and max_model_len are set per line */
    const char *x;      /* the multiplication sign */
    bool v0;            /* V0 rules for concurrency */
};

static void addf(char *buf, size_t cap, const char *fmt, ...)
{
    size_t n = strlen(buf);
    va_list ap;
    if (n + 1 >= cap)
        return;
    va_start(ap, fmt);
    vsnprintf(buf + n, cap - n, fmt, ap);
    va_end(ap);
}

static const char *fint(uint64_t v, char *b, size_t cap)
{
    return kvt_fmt_int(v, b, cap);
}

static bool has_kind(const struct vllm_log *log, enum vllm_line_kind k)
{
    for (size_t i = 0; i < log->n_lines; i++)
        if (log->lines[i].kind == k)
            return true;
    return false;
}

/* The log's KV cache dtype as the calculator knows it; false for a name it
 * does not model (the per-token-head forms, int8 ...). */
static bool kv_dtype_of(const char *name, enum kv_dtype *t)
{
    if (!name[0]) {
        *t = KV_DTYPE_AUTO;
        return true;
    }
    if (!kv_dtype_parse(name, t))
        return false;
    return *t == KV_DTYPE_AUTO || *t == KV_DTYPE_FP8 || *t == KV_DTYPE_FP16 ||
           *t == KV_DTYPE_BF16 || *t == KV_DTYPE_FP32 || *t == KV_DTYPE_FP8_DS_MLA ||
           *t == KV_DTYPE_NVFP4;
}

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), k = strlen(tail);
    return n >= k && strcmp(s + n - k, tail) == 0;
}

/* speculative_config's method as the calculator models it. Methods without a
 * draft model (vllm/config/speculative.py, SpeculativeConfig.__repr__ names
 * none for them) add no layers; "deepseek_mtp", "qwen3_next_mtp" ... are MTP.
 * False for a method it does not know. */
static bool spec_of(const struct vllm_args *a, enum kv_spec_method *out)
{
    static const char *const draft_free[] = {"ngram", "ngram_gpu", "suffix", "suffix_remote"};
    const char *m = a->spec_method;

    for (size_t i = 0; i < sizeof draft_free / sizeof draft_free[0]; i++)
        if (strcmp(m, draft_free[i]) == 0)
            return (*out = KV_SPEC_NGRAM), true;
    if (strcmp(m, "eagle") == 0)
        *out = KV_SPEC_EAGLE;
    else if (strcmp(m, "eagle3") == 0)
        *out = KV_SPEC_EAGLE3;
    else if (strcmp(m, "mtp") == 0 || ends_with(m, "_mtp"))
        *out = KV_SPEC_MTP;
    else if (strcmp(m, "draft_model") == 0 || (!m[0] && a->spec_model[0]))
        *out = KV_SPEC_DRAFT;
    else
        return false;
    return true;
}

/* What the calculator cannot model, checked before any line is compared.
 * Each row names the evidence in the log. */
static bool blocked(const struct ctx *c, const struct kv_result *r, char *why, size_t cap)
{
    const struct vllm_args *a = &c->log->args;
    enum kv_spec_method sm;
    enum kv_dtype t;

    if ((has_kind(c->log, VLLM_LINE_ATTN_BLOCK) || has_kind(c->log, VLLM_LINE_MAMBA_PAD)) &&
        r->state_layers == 0)
        snprintf(why, cap,
                 "the log is from a hybrid model with Mamba or linear-attention layers (it sets "
                 "the attention block size), but the model given has none: give the model's "
                 "config.json with --config");
    else if (a->spec && !spec_of(a, &sm))
        snprintf(why, cap,
                 "speculative decoding with method '%.31s', which the calculator "
                 "does not model",
                 a->spec_method);
    else if (a->spec && sm == KV_SPEC_DRAFT)
        snprintf(why, cap,
                 "speculative decoding with a separate draft model: its KV layers are its "
                 "own model's, which the log does not describe");
    else if (!kv_dtype_of(a->kv_cache_dtype, &t))
        snprintf(why, cap, "kv_cache_dtype '%.40s' is not one the calculator models",
                 a->kv_cache_dtype);
    else if (c->v0 && (r->hybrid || r->state_layers))
        snprintf(why, cap,
                 "a V0-engine log of a hybrid model: V0 kept every layer at full length, which "
                 "the calculator does not model");
    else
        return false;
    return true;
}

/* kv_deploy from the log's settings; records what had to be assumed. */
static void settings(struct ctx *c, char *assumed, size_t cap)
{
    const struct vllm_args *a = &c->log->args;
    enum kv_dtype t;
    enum kv_backend b;

    kv_deploy_defaults(&c->d);
    /* the log's release picks the calculator's rules (default util, grouping, windows) */
    if (!c->log->version[0])
        addf(assumed, cap, "vLLM %s rules (the log does not say its version); ", KV_VLLM_DEFAULT);
    else if (!kv_vllm_parse(c->log->version, &c->d.vllm))
        addf(assumed, cap, "vLLM %s rules (the log's version is not one kvtutor reads); ",
             KV_VLLM_DEFAULT);
    if (a->async_scheduling == 0)
        c->d.sync_scheduling = true; /* one batch in flight, not two */
    if (a->tp)
        c->d.tp = a->tp;
    if (a->pp)
        c->d.pp = a->pp;
    if (a->dcp)
        c->d.dcp = a->dcp;
    if (a->block_size)
        c->d.block_size = a->block_size;
    else if (!c->m.mla_rank && !c->m.state_layers)
        addf(assumed, cap, "block size 16 (vLLM's default; the log does not set one); ");
    if (kv_dtype_of(a->kv_cache_dtype, &t))
        c->d.kv_dtype = t;
    if (a->dtype[0] && kv_dtype_parse(a->dtype, &t) &&
        (t == KV_DTYPE_BF16 || t == KV_DTYPE_FP16 || t == KV_DTYPE_FP32))
        c->m.dtype = t;
    if (a->max_num_batched_tokens)
        c->d.max_num_batched_tokens = a->max_num_batched_tokens;
    else if (c->m.sliding_window)
        addf(assumed, cap, "max_num_batched_tokens 8192 (the log does not say); ");
    if (a->prefix_caching == 0)
        c->d.no_prefix_caching = true;
    if (strcmp(a->mamba_cache_mode, "none") == 0)
        c->d.mamba_mode = KV_MAMBA_NONE;
    else if (strcmp(a->mamba_cache_mode, "align") == 0)
        c->d.mamba_mode = KV_MAMBA_ALIGN;
    else if (strcmp(a->mamba_cache_mode, "all") == 0)
        c->d.mamba_mode = KV_MAMBA_ALL;
    if (a->mamba_cache_dtype[0] && kv_dtype_parse(a->mamba_cache_dtype, &t))
        c->d.mamba_dtype = t;
    if (a->mamba_ssm_cache_dtype[0] && kv_dtype_parse(a->mamba_ssm_cache_dtype, &t))
        c->d.mamba_ssm_dtype = t;
    /* a separate draft model's layers are not in the log: left out, and blocked */
    if (a->spec && spec_of(a, &c->d.spec_method) && c->d.spec_method != KV_SPEC_DRAFT)
        c->d.spec_tokens = a->spec_tokens;
    else
        c->d.spec_method = KV_SPEC_NONE;
    if (a->attention_backend[0] && kv_backend_parse(a->attention_backend, &b))
        c->d.backend = b;
    c->d.num_gpu_blocks_override = a->num_gpu_blocks_override;
    c->d.kv_cache_memory_bytes = a->kv_cache_memory_bytes;
    if (!a->tp && !c->log->engine_v1 && !c->log->args_line)
        addf(assumed, cap, "TP 1 (the log does not say); ");
    {
        size_t n = strlen(assumed);
        if (n >= 2)
            assumed[n - 2] = '\0'; /* the last "; " */
    }
}

static enum kvt_err run(const struct ctx *c, double budget_gib, uint64_t len, struct kv_result *r,
                        enum kv_field *bad)
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
static bool tokens_from_concurrency(const struct vllm_line *l, const struct kv_result *r)
{
    return l->one_line || r->rules.tokens_from_concurrency;
}

/* The figure a line prints, from a calculator result. */
static bool figure(const struct ctx *c, const struct vllm_line *l, const struct kv_result *r,
                   uint64_t len, double *out)
{
    switch (l->kind) {
    case VLLM_LINE_KV_TOKENS:
        if (!r->has_blocks)
            return false;
        if (tokens_from_concurrency(l, r) == r->rules.tokens_from_concurrency) {
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

static bool in_range(const struct vllm_line *l, double lo, double hi)
{
    if (l->kind == VLLM_LINE_CONCURRENCY) {
        /* printed with %.2f: compare at two decimals */
        double a = floor(lo * 100 + 0.5) / 100, b = floor(hi * 100 + 0.5) / 100;
        return l->value >= a - 1e-9 && l->value <= b + 1e-9;
    }
    return l->value >= lo - 1e-9 && l->value <= hi + 1e-9;
}

/* "16 tokens x 2 (K, V) x 8 KV heads x 128 dims x 2 B = 64 KiB a layer" and on. */
static void how_blocks(const struct ctx *c, const struct kv_result *r, double gib, char *how,
                       size_t cap)
{
    char a1[32], a2[32], a3[32];
    const char *x = c->x;

    if (r->mla)
        addf(how, cap, "a page is %u tokens %s (%u + %u) latent %s %u B = %s a layer",
             r->deploy.block_size, x, r->model.mla_rank, r->model.mla_rope_dim, x, r->kv_elem_bytes,
             kvt_fmt_bytes((double)r->page_bytes, a1, sizeof a1));
    else
        addf(how, cap,
             "a page is %u tokens %s 2 (K, V) %s %u KV head%s %s %u dims %s %u B = %s a layer",
             r->deploy.block_size, x, x, r->kv_heads_per_gpu, r->kv_heads_per_gpu == 1 ? "" : "s",
             x, r->head_dim, x, r->kv_elem_bytes,
             kvt_fmt_bytes((double)r->page_bytes, a1, sizeof a1));
    if (r->deploy.tp > 1 && !r->mla)
        addf(how, cap,
             r->replicated ? " (TP %u: each GPU keeps a copy of one head)"
                           : " (TP %u splits the heads)",
             r->deploy.tp);
    if (r->state_layers > 0)
        addf(how, cap,
             "; vLLM groups the %u attention and %u recurrent layers %u at a time (%u attention "
             "+ %u state group%s), so a block holds %u layer pages (a state page is padded to an "
             "attention page)",
             r->full_layers + r->sliding_layers, r->state_layers, r->group_size,
             r->full_groups + r->sliding_groups, r->state_groups, r->state_groups == 1 ? "" : "s",
             r->tensors_per_gpu);
    else if (r->hybrid)
        addf(how, cap,
             "; vLLM groups the %u sliding and %u full layers %u at a time (%u full + %u sliding "
             "group%s), so a block holds %u layer pages",
             r->sliding_layers, r->full_layers, r->group_size, r->full_groups, r->sliding_groups,
             r->sliding_groups == 1 ? "" : "s", r->tensors_per_gpu);
    else
        addf(how, cap, "; %s %u layer%s%s = %s a block", x, r->tensors_per_gpu,
             r->tensors_per_gpu == 1 ? "" : "s", r->deploy.pp > 1 ? " on this pipeline stage" : "",
             kvt_fmt_bytes((double)r->block_set_bytes, a2, sizeof a2));
    addf(how, cap, "; %s GiB / %s = %s blocks", kvt_fmt_real(gib, 2, a3, sizeof a3),
         kvt_fmt_bytes((double)r->block_set_bytes, a1, sizeof a1),
         fint(r->num_gpu_blocks, a2, sizeof a2));
}

static void how_request(const struct ctx *c, const struct kv_result *r, uint64_t len, char *how,
                        size_t cap)
{
    char a1[32], a2[32], a3[32], a4[32];
    uint32_t bs = r->deploy.block_size;

    fint(len, a1, sizeof a1);
    addf(how, cap, "; a request of %s tokens needs %s blocks: ", a1,
         fint(r->blocks_per_request, a2, sizeof a2));
    if (r->full_groups > 0)
        addf(how, cap, "%u full group%s %s ceil(%s / %u) = %s", r->full_groups,
             r->full_groups == 1 ? "" : "s", c->x, a1, bs,
             fint(r->blocks_full_per_group, a3, sizeof a3));
    if (r->sliding_groups > 0)
        addf(how, cap,
             "%s%u sliding group%s %s (ceil(min(%s - 1 + %s scheduled tokens, %s) / %u) + 1) = %s",
             r->full_groups > 0 ? ", and " : "", r->sliding_groups,
             r->sliding_groups == 1 ? "" : "s", c->x, fint(r->model.sliding_window, a3, sizeof a3),
             fint(r->deploy.max_num_batched_tokens, a4, sizeof a4), a1, bs,
             fint(r->blocks_sliding_per_group, a2, sizeof a2));
    if (r->state_groups > 0)
        addf(how, cap, "%s%u state group%s %s %s (the recurrent state: %s%s)",
             r->full_groups + r->sliding_groups > 0 ? ", and " : "", r->state_groups,
             r->state_groups == 1 ? "" : "s", c->x, fint(r->blocks_state_per_group, a2, sizeof a2),
             r->mamba_mode == KV_MAMBA_ALIGN ? "the running state and the last aligned one"
             : r->mamba_mode == KV_MAMBA_ALL ? "one a block"
                                             : "the running state",
             r->deploy.spec_tokens ? ", plus the speculative tokens" : "");
}

/* One alternative, worked out by the calculator and written as the line
 * prints its figure: "--kv-cache-dtype fp8 (...): 116.22x; ". */
static void alternative(const struct ctx *k, const struct vllm_line *l, double gib, uint64_t len,
                        const char *what, char *out, size_t cap)
{
    struct kv_result alt;
    double v;
    char a[32];

    if (run(k, gib, len, &alt, NULL) != KVT_E_OK || !figure(k, l, &alt, len, &v))
        return;
    if (l->kind == VLLM_LINE_CONCURRENCY)
        addf(out, cap, "%s: %.2fx; ", what, v);
    else
        addf(out, cap, "%s: %s; ", what, fint((uint64_t)v, a, sizeof a));
}

/* What would move the figure of line l: each change recomputed by the
 * calculator at the same budget, one changed setting at a time. */
static void what_changes(const struct ctx *c, const struct vllm_line *l, const struct kv_result *r,
                         double gib, uint64_t len, char *out, size_t cap)
{
    struct ctx k = *c;
    char what[200], a1[32];
    size_t n;

    if (l->kind == VLLM_LINE_CONCURRENCY && r->has_concurrency && r->max_concurrency < 1)
        addf(out, cap, "below 1, not one request of %s tokens fits in the cache at once; ",
             fint(len, a1, sizeof a1));
    if (l->kind == VLLM_LINE_CONCURRENCY && r->max_model_len_fits > 0 &&
        r->max_model_len_fits < len)
        addf(out, cap, "at this KV memory a single request can be at most %s tokens; ",
             fint(r->max_model_len_fits, a1, sizeof a1));
    /* the size printed up to 0.20.0 does not depend on the request length */
    if (len >= 2 && (l->kind == VLLM_LINE_CONCURRENCY || tokens_from_concurrency(l, r))) {
        snprintf(what, sizeof what, "--max-model-len %s", fint(len / 2, a1, sizeof a1));
        alternative(c, l, gib, len / 2, what, out, cap);
    }
    if (r->kv_elem_bytes > 1) {
        k.d.kv_dtype = KV_DTYPE_FP8;
        snprintf(what, sizeof what, "--kv-cache-dtype fp8 (1 B an element instead of %u)",
                 r->kv_elem_bytes);
        alternative(&k, l, gib, len, what, out, cap);
        k.d.kv_dtype = c->d.kv_dtype;
    }
    if (!r->mla && !r->replicated && r->kv_heads_per_gpu >= 2) {
        k.d.tp = c->d.tp * 2;
        snprintf(what, sizeof what,
                 "--tensor-parallel-size %u, at the same KV memory per GPU (there will be more, "
                 "as each GPU then holds half as much of the weights)",
                 k.d.tp);
        alternative(&k, l, gib, len, what, out, cap);
    }
    alternative(c, l, gib + 1, len,
                "1 GiB more KV memory (a higher --gpu-memory-utilization, smaller weights, or a "
                "smaller max_num_batched_tokens, which lowers the activation peak)",
                out, cap);
    n = strlen(out);
    if (n >= 2 && out[n - 2] == ';')
        out[n - 2] = '\0';
}

static void explain_memory(const struct ctx *c, struct vllm_verdict *v)
{
    const struct vllm_args *a = &c->log->args;
    char u[32];

    snprintf(v->how, sizeof v->how,
             "vLLM measured this at start-up: gpu_memory_utilization (%s) %s the GPU's memory, "
             "less the weights on this GPU, the activation peak of a profiling run, memory "
             "outside PyTorch and, from 0.21, the CUDA graphs. kvtutor cannot measure these; "
             "it takes this figure as the KV budget of the lines that follow, within 0.005 GiB "
             "either side for its rounding",
             a->gpu_memory_utilization > 0 ? kvt_fmt_real(a->gpu_memory_utilization, 4, u, sizeof u)
                                           : "the version's default",
             c->x);
    snprintf(v->change, sizeof v->change,
             "a higher --gpu-memory-utilization; smaller weights per GPU (a quantized "
             "checkpoint, or TP); a smaller max_num_batched_tokens or max_num_seqs (a smaller "
             "activation peak); --enforce-eager (no CUDA graphs)");
}

/* "Add N padding layers, may waste at most X%": one line per kind of layer
 * whose count is not a whole number of groups. The calculator's grouping
 * gives each kind's padding; the line matches the kind with its N and X. */
static void explain_padding(const struct ctx *c, const struct vllm_line *l, struct vllm_verdict *v)
{
    struct kv_result r;
    uint32_t pad[2] = {0, 0}, layers[2], groups[2];
    const char *names[2] = {"full", "sliding"};
    int hit = -1;

    if (run(c, 1.0, c->log->args.max_model_len, &r, NULL) != KVT_E_OK) {
        snprintf(v->how, sizeof v->how, "Not recomputed: the calculator has no figure for it here");
        return;
    }
    layers[0] = r.full_layers, layers[1] = r.sliding_layers;
    groups[0] = r.full_groups, groups[1] = r.sliding_groups;
    for (int k = 0; k < 2 && r.hybrid; k++) {
        pad[k] = groups[k] * r.group_size - layers[k];
        if (pad[k] == l->count && pad[k] > 0 &&
            fabs(floor(100.0 * pad[k] / layers[k] * 100 + 0.5) / 100 - l->value) < 1e-9)
            hit = k;
    }
    v->has_computed = true;
    v->computed = v->computed_lo = v->computed_hi = hit >= 0 ? pad[hit] : (double)r.padding_layers;
    v->match = hit >= 0 ? VLLM_MATCH_YES : VLLM_MATCH_NO;
    if (!r.hybrid) {
        snprintf(v->how, sizeof v->how,
                 "vLLM pads a kind of layer to whole groups when a model mixes kinds; the "
                 "calculator sees one kind of layer in this model, so no padding");
        return;
    }
    snprintf(v->how, sizeof v->how,
             "vLLM groups the layers %u at a time (the smaller kind's count, or the larger when "
             "within the release's ratio of it): the %u full layers take %u group%s (%u padding), "
             "the %u sliding layers %u group%s (%u padding)",
             r.group_size, layers[0], groups[0], groups[0] == 1 ? "" : "s", pad[0], layers[1],
             groups[1], groups[1] == 1 ? "" : "s", pad[1]);
    if (hit >= 0)
        addf(v->how, sizeof v->how, "; %u / %u %s layers = %.2f%% more memory for them", pad[hit],
             layers[hit], names[hit], 100.0 * pad[hit] / layers[hit]);
    snprintf(v->change, sizeof v->change,
             "the model's layer pattern sets it, not a flag: a kind whose count is a multiple of "
             "the group size needs none");
}

/* The hybrid Mamba lines: the attention block vLLM grew so that one page
 * holds a layer's recurrent state, and the padding of the state to that page,
 * 100 x (attention page - state) / state
 * (vllm/model_executor/models/config.py, HybridAttentionMambaModelConfig). */
static void explain_state_line(const struct ctx *c, const struct vllm_line *l,
                               struct vllm_verdict *v)
{
    struct kv_result r;
    char a1[32], a2[32], a3[32];

    if (run(c, 1.0, c->log->args.max_model_len, &r, NULL) != KVT_E_OK || r.state_layers == 0 ||
        r.state_layer_bytes == 0) {
        snprintf(v->how, sizeof v->how,
                 "Not recomputed: the model given has no Mamba or linear-attention layers");
        return;
    }
    v->has_computed = true;
    if (l->kind == VLLM_LINE_ATTN_BLOCK) {
        v->computed = v->computed_lo = v->computed_hi = r.attention_block_size;
        v->match = r.attention_block_size == l->count ? VLLM_MATCH_YES : VLLM_MATCH_NO;
        snprintf(v->how, sizeof v->how,
                 "one %s layer's state on this GPU (conv + SSM) is %s B; an attention page "
                 "holds %s B a token, so vLLM grows the block to the smallest multiple of 16 "
                 "tokens whose page holds the state: %u tokens (%s B a page)",
                 r.model.state_kind == KV_STATE_GDN ? "gated-delta-net" : "Mamba2",
                 kvt_fmt_int(r.state_layer_bytes, a1, sizeof a1),
                 kvt_fmt_int(r.layer_token_bytes, a2, sizeof a2), r.attention_block_size,
                 kvt_fmt_int(r.page_bytes, a3, sizeof a3));
        snprintf(v->change, sizeof v->change,
                 "a smaller KV cache dtype makes the attention page smaller, so the block grows "
                 "(fp8 about doubles it); a larger --block-size is kept when it is already big "
                 "enough; TP splits the state and the heads alike");
    } else {
        double pct =
            100.0 * (double)(r.page_bytes - r.state_layer_bytes) / (double)r.state_layer_bytes;
        v->computed = v->computed_lo = v->computed_hi = pct;
        v->match =
            fabs(floor(pct * 100 + 0.5) / 100 - l->value) < 1e-9 ? VLLM_MATCH_YES : VLLM_MATCH_NO;
        snprintf(v->how, sizeof v->how,
                 "the page is %s B and one layer's state %s B, so each state page carries "
                 "100 %s (%s - %s) / %s = %.2f%% of padding",
                 kvt_fmt_int(r.page_bytes, a1, sizeof a1),
                 kvt_fmt_int(r.state_layer_bytes, a2, sizeof a2), c->x, a1, a2, a2, pct);
    }
}

/* The size a block count prints, under the log's rules. */
static bool tokens_at(const struct ctx *c, const struct vllm_line *t, uint64_t len, uint64_t blocks,
                      uint64_t *out)
{
    struct ctx k = *c;
    struct kv_result r;
    double f;

    k.d.num_gpu_blocks_override = blocks;
    if (run(&k, 1.0, len, &r, NULL) != KVT_E_OK || !figure(&k, t, &r, len, &f))
        return false;
    *out = (uint64_t)f;
    return true;
}

/* The block counts whose printed size is the logged one, [*lo, *hi]: what a
 * log without its KV memory line still says about the cache. False when no
 * block count prints that size. The size never falls as blocks grow. */
static bool implied_blocks(const struct ctx *c, const struct vllm_line *t, uint64_t len,
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
static void explain_without_budget(const struct ctx *c, const struct vllm_log *log, size_t i,
                                   struct vllm_verdict *v)
{
    const struct vllm_line *l = &log->lines[i], *t = NULL;
    uint64_t len = line_len(log, i), lo, hi;
    struct ctx k = *c;
    struct kv_result rl, rh;
    char a1[32], a2[32];

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
    if (run(&k, 1.0, len, &rl, NULL) != KVT_E_OK || !figure(&k, l, &rl, len, &v->computed_lo))
        return;
    k.d.num_gpu_blocks_override = hi;
    if (run(&k, 1.0, len, &rh, NULL) != KVT_E_OK || !figure(&k, l, &rh, len, &v->computed_hi))
        return;
    v->has_computed = true;
    v->computed = v->computed_lo;
    v->match = in_range(l, v->computed_lo, v->computed_hi) ? VLLM_MATCH_YES : VLLM_MATCH_NO;
    snprintf(v->how, sizeof v->how,
             "the log has no \"Available KV cache memory\" line; its size line means %s to %s "
             "blocks",
             kvt_fmt_int(lo, a1, sizeof a1), kvt_fmt_int(hi, a2, sizeof a2));
    how_request(c, &rl, len, v->how, sizeof v->how);
    addf(v->how, sizeof v->how, "; %s / %s = %.4f", kvt_fmt_int(lo, a1, sizeof a1),
         kvt_fmt_int(rl.blocks_per_request, a2, sizeof a2), rl.max_concurrency);
}

static void explain_line(const struct ctx *c, const struct vllm_log *log, size_t i,
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
    if (run(c, gib, len, &mid, NULL) != KVT_E_OK ||
        run(c, gib - GIB_HALF > 0 ? gib - GIB_HALF : gib, len, &lo, NULL) != KVT_E_OK ||
        run(c, gib + GIB_HALF, len, &hi, NULL) != KVT_E_OK ||
        !figure(c, l, &mid, len, &v->computed) || !figure(c, l, &lo, len, &v->computed_lo) ||
        !figure(c, l, &hi, len, &v->computed_hi)) {
        snprintf(v->how, sizeof v->how, "Not recomputed: the calculator has no figure for it here");
        return;
    }
    v->has_computed = true;
    v->match = in_range(l, v->computed_lo, v->computed_hi) ? VLLM_MATCH_YES : VLLM_MATCH_NO;

    how_blocks(c, &mid, gib, v->how, sizeof v->how);
    switch (l->kind) {
    case VLLM_LINE_KV_TOKENS:
        if (tokens_from_concurrency(l, &mid))
            addf(v->how, sizeof v->how,
                 "; printed as int(concurrency %s max_model_len) = int(%s %s %s) (vLLM 0.20.1 "
                 "and later)",
                 c->x, kvt_fmt_real(mid.max_concurrency, 4, a1, sizeof a1), c->x,
                 fint(len, a2, sizeof a2));
        else
            addf(v->how, sizeof v->how,
                 "; printed as floor(blocks / %u group%s) %s %u tokens a block (up to vLLM 0.20.0)",
                 mid.full_groups + mid.sliding_groups,
                 mid.full_groups + mid.sliding_groups == 1 ? "" : "s", c->x, mid.deploy.block_size);
        what_changes(c, l, &mid, gib, len, v->change, sizeof v->change);
        break;
    case VLLM_LINE_CONCURRENCY:
        if (c->v0) {
            addf(v->how, sizeof v->how, "; V0 prints blocks %s %u / %s", c->x,
                 mid.deploy.block_size, fint(len, a1, sizeof a1));
        } else {
            how_request(c, &mid, len, v->how, sizeof v->how);
            addf(v->how, sizeof v->how, "; %s / %s = %s", fint(mid.num_gpu_blocks, a1, sizeof a1),
                 fint(mid.blocks_per_request, a2, sizeof a2),
                 kvt_fmt_real(mid.max_concurrency, 4, a3, sizeof a3));
        }
        what_changes(c, l, &mid, gib, len, v->change, sizeof v->change);
        break;
    default:
        break;
    }
    if (v->match == VLLM_MATCH_NO)
        addf(v->how, sizeof v->how,
             ". It does not match: the model, the block size or a setting the log does not show "
             "differs from what the calculator was given");
}

enum kvt_err vllm_explain(const struct vllm_log *log, const struct kv_model *m, bool utf8,
                          struct vllm_explain *out, enum kv_field *bad)
{
    struct ctx c = {.log = log, .m = *m, .x = utf8 ? "\xc3\x97" : "x"};
    struct kv_result probe;
    char why_blocked[sizeof out->blocked] = "";
    enum kvt_err e;

    memset(out, 0, sizeof *out);
    c.v0 = log->engine_v0 ||
           (has_kind(log, VLLM_LINE_GPU_BLOCKS) && !has_kind(log, VLLM_LINE_KV_TOKENS));
    out->v0_rules = c.v0;
    settings(&c, out->assumed, sizeof out->assumed);

    /* the model's shape under the log's settings, before any line */
    e = run(&c, 1.0, log->args.max_model_len, &probe, bad);
    if (e != KVT_E_OK)
        return e;
    snprintf(out->rules_version, sizeof out->rules_version, "%s", probe.vllm_version);
    blocked(&c, &probe, why_blocked, sizeof why_blocked);
    /* what the calculator's rules for this release assume or cannot date */
    for (size_t i = 0; i < probe.rules.n_notes; i++)
        addf(out->assumed, sizeof out->assumed, "%s%s", out->assumed[0] ? "; " : "",
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
