/* The words of an explanation: how a block count and a request's blocks
 * arise, and what would change a figure (each change worked out by the
 * calculator at the same budget). */
#include "vllm_explain_priv.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "kvt_format.h"

/* "16 tokens x 2 (K, V) x 8 KV heads x 128 dims x 2 B = 64 KiB a layer" and on. */
void explain_how_blocks(const struct explain_ctx *c, const struct kv_result *r, double gib,
                        char *how, size_t cap)
{
    char a1[32], a2[32], a3[32], bs[32];
    const char *x = c->x;

    /* a count like any other: "2,096 tokens" (the log's own line says 2096) */
    kvt_fmt_int(r->deploy.block_size, bs, sizeof bs);

    if (r->mla)
        explain_addf(how, cap, "a page is %s tokens %s (%u + %u) latent %s %u B = %s a layer", bs,
                     x, r->model.mla_rank, r->model.mla_rope_dim, x, r->kv_elem_bytes,
                     kvt_fmt_bytes((double)r->page_bytes, a1, sizeof a1));
    else if (r->kv_elem_bytes == 0) /* nvfp4, per-token-head: a head's bytes, not dims x B */
        explain_addf(how, cap,
                     "a page is %s tokens %s 2 (K, V) %s %u KV head%s %s %llu B a head of %u "
                     "dims (%s) = %s a layer",
                     bs, x, x, r->kv_heads_per_gpu, r->kv_heads_per_gpu == 1 ? "" : "s", x,
                     (unsigned long long)kv_dtype_head_bytes(r->kv_dtype, r->head_dim), r->head_dim,
                     kv_dtype_name(r->kv_dtype),
                     kvt_fmt_bytes((double)r->page_bytes, a1, sizeof a1));
    else
        explain_addf(
            how, cap,
            "a page is %s tokens %s 2 (K, V) %s %u KV head%s %s %u dims %s %u B = %s a layer", bs,
            x, x, r->kv_heads_per_gpu, r->kv_heads_per_gpu == 1 ? "" : "s", x, r->head_dim, x,
            r->kv_elem_bytes, kvt_fmt_bytes((double)r->page_bytes, a1, sizeof a1));
    if (r->deploy.tp > 1 && !r->mla)
        explain_addf(how, cap,
                     r->replicated ? " (TP %u: each GPU keeps a copy of one head)"
                                   : " (TP %u splits the heads)",
                     r->deploy.tp);
    if (r->state_layers > 0)
        explain_addf(
            how, cap,
            "; vLLM groups the %u attention and %u recurrent layers %u at a time (%u attention "
            "+ %u state group%s), so a block holds %u layer pages (a state page is padded to an "
            "attention page)",
            r->full_layers + r->sliding_layers, r->state_layers, r->group_size,
            r->full_groups + r->sliding_groups, r->state_groups, r->state_groups == 1 ? "" : "s",
            r->tensors_per_gpu);
    else if (r->hybrid)
        explain_addf(
            how, cap,
            "; vLLM groups the %u sliding and %u full layers %u at a time (%u full + %u sliding "
            "group%s), so a block holds %u layer pages",
            r->sliding_layers, r->full_layers, r->group_size, r->full_groups, r->sliding_groups,
            r->sliding_groups == 1 ? "" : "s", r->tensors_per_gpu);
    else
        explain_addf(how, cap, "; %s %u layer%s%s = %s a block", x, r->tensors_per_gpu,
                     r->tensors_per_gpu == 1 ? "" : "s",
                     r->deploy.pp > 1 ? " on this pipeline stage" : "",
                     kvt_fmt_bytes((double)r->block_set_bytes, a2, sizeof a2));
    explain_addf(how, cap, "; %s GiB %s %s = %s blocks", kvt_fmt_real(gib, 2, a3, sizeof a3),
                 c->div, kvt_fmt_bytes((double)r->block_set_bytes, a1, sizeof a1),
                 explain_fint(r->num_gpu_blocks, a2, sizeof a2));
}

void explain_how_request(const struct explain_ctx *c, const struct kv_result *r, uint64_t len,
                         char *how, size_t cap)
{
    char a1[32], a2[32], a3[32], a4[32], bs[32];

    explain_fint(len, a1, sizeof a1);
    explain_fint(r->deploy.block_size, bs, sizeof bs); /* "/ 2,096", grouped as a count */
    explain_addf(how, cap, "; a request of %s tokens needs %s blocks: ", a1,
                 explain_fint(r->blocks_per_request, a2, sizeof a2));
    if (r->full_groups > 0)
        explain_addf(how, cap, "%u full group%s %s ceil(%s / %s) = %s", r->full_groups,
                     r->full_groups == 1 ? "" : "s", c->x, a1, bs,
                     explain_fint(r->blocks_full_per_group, a3, sizeof a3));
    if (r->sliding_groups > 0)
        explain_addf(
            how, cap,
            "%s%u sliding group%s %s (ceil(min(%s - 1 + %s scheduled tokens, %s) / %s) + 1) = %s",
            r->full_groups > 0 ? ", and " : "", r->sliding_groups,
            r->sliding_groups == 1 ? "" : "s", c->x,
            explain_fint(r->model.sliding_window, a3, sizeof a3),
            explain_fint(r->deploy.max_num_batched_tokens, a4, sizeof a4), a1, bs,
            explain_fint(r->blocks_sliding_per_group, a2, sizeof a2));
    if (r->state_groups > 0)
        explain_addf(how, cap, "%s%u state group%s %s %s (the recurrent state: %s%s)",
                     r->full_groups + r->sliding_groups > 0 ? ", and " : "", r->state_groups,
                     r->state_groups == 1 ? "" : "s", c->x,
                     explain_fint(r->blocks_state_per_group, a2, sizeof a2),
                     r->mamba_mode == KV_MAMBA_ALIGN ? "the running state and the last aligned one"
                     : r->mamba_mode == KV_MAMBA_ALL ? "one a block"
                                                     : "the running state",
                     r->deploy.spec_tokens ? ", plus the speculative tokens" : "");
}

/* One alternative, worked out by the calculator and written as the line
 * prints its figure: "--kv-cache-dtype fp8 (...): 116.22x; ". */
static void alternative(const struct explain_ctx *k, const struct vllm_line *l, double gib,
                        uint64_t len, const char *what, char *out, size_t cap)
{
    struct kv_result alt;
    double v;
    char a[32];

    if (explain_run(k, gib, len, &alt, NULL) != KVT_E_OK || !explain_figure(k, l, &alt, len, &v))
        return;
    if (l->kind == VLLM_LINE_CONCURRENCY)
        explain_addf(out, cap, "%s: %s; ", what, kvt_fmt_concurrency_vllm(v, a, sizeof a));
    else
        explain_addf(out, cap, "%s: %s; ", what, explain_fint((uint64_t)v, a, sizeof a));
}

/* What would move the figure of line l: each change recomputed by the
 * calculator at the same budget, one changed setting at a time. */
void explain_what_changes(const struct explain_ctx *c, const struct vllm_line *l,
                          const struct kv_result *r, double gib, uint64_t len, char *out,
                          size_t cap)
{
    struct explain_ctx k = *c;
    char what[200], a1[32];
    size_t n;

    if (l->kind == VLLM_LINE_CONCURRENCY && r->has_concurrency && r->max_concurrency < 1)
        explain_addf(out, cap, "below 1, not one request of %s tokens fits in the cache at once; ",
                     explain_fint(len, a1, sizeof a1));
    if (l->kind == VLLM_LINE_CONCURRENCY && r->max_model_len_fits > 0 &&
        r->max_model_len_fits < len)
        explain_addf(out, cap, "at this KV memory a single request can be at most %s tokens; ",
                     explain_fint(r->max_model_len_fits, a1, sizeof a1));
    /* the size printed up to 0.20.0 does not depend on the request length */
    if (len >= 2 && (l->kind == VLLM_LINE_CONCURRENCY || explain_tokens_from_concurrency(l, r))) {
        /* a flag as it is typed: vLLM's parser takes no thousands separator */
        snprintf(what, sizeof what, "--max-model-len %llu", (unsigned long long)(len / 2));
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

void explain_memory(const struct explain_ctx *c, struct vllm_verdict *v)
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
 * (full, sliding, recurrent state) whose count is not a whole number of
 * groups. The calculator's grouping gives each kind's padding; the line
 * matches the kind with its N and X. */
void explain_padding(const struct explain_ctx *c, const struct vllm_line *l, struct vllm_verdict *v)
{
    struct kv_result r;
    uint32_t pad[3] = {0, 0, 0}, layers[3], groups[3];
    const char *names[3] = {"full", "sliding", "recurrent"};
    int hit = -1;

    if (explain_run(c, 1.0, c->log->args.max_model_len, &r, NULL) != KVT_E_OK) {
        snprintf(v->how, sizeof v->how, "Not recomputed: the calculator has no figure for it here");
        return;
    }
    layers[0] = r.full_layers, layers[1] = r.sliding_layers, layers[2] = r.state_layers;
    groups[0] = r.full_groups, groups[1] = r.sliding_groups, groups[2] = r.state_groups;
    for (int k = 0; k < 3 && r.hybrid; k++) {
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
    if (layers[2] > 0)
        explain_addf(v->how, sizeof v->how, ", the %u recurrent layers %u group%s (%u padding)",
                     layers[2], groups[2], groups[2] == 1 ? "" : "s", pad[2]);
    if (hit >= 0) {
        char share[64];
        /* vLLM's own "%.2f%%" */
        explain_addf(v->how, sizeof v->how, "; %u / %u %s layers = %s%% more memory for them",
                     pad[hit], layers[hit], names[hit],
                     kvt_fmt_fixed(100.0 * pad[hit] / layers[hit], 2, share, sizeof share));
    }
    snprintf(v->change, sizeof v->change,
             "the model's layer pattern sets it, not a flag: a kind whose count is a multiple of "
             "the group size needs none");
}

/* The hybrid Mamba lines: the attention block vLLM grew so that one page
 * holds a layer's recurrent state, and the padding of the state to that page,
 * 100 x (attention page - state) / state
 * (vllm/model_executor/models/config.py, HybridAttentionMambaModelConfig). */
void explain_state_line(const struct explain_ctx *c, const struct vllm_line *l,
                        struct vllm_verdict *v)
{
    struct kv_result r;
    char a1[32], a2[32], a3[32], a4[64];

    if (explain_run(c, 1.0, c->log->args.max_model_len, &r, NULL) != KVT_E_OK ||
        r.state_layers == 0 || r.state_layer_bytes == 0) {
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
                 "tokens whose page holds the state: %s tokens (%s B a page)",
                 r.model.state_kind == KV_STATE_GDN ? "gated-delta-net" : "Mamba2",
                 kvt_fmt_int(r.state_layer_bytes, a1, sizeof a1),
                 kvt_fmt_int(r.layer_token_bytes, a2, sizeof a2),
                 kvt_fmt_int(r.attention_block_size, a4, sizeof a4),
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
                 "100 %s (%s - %s) %s %s = %s%% of padding",
                 kvt_fmt_int(r.page_bytes, a1, sizeof a1),
                 kvt_fmt_int(r.state_layer_bytes, a2, sizeof a2), c->x, a1, a2, c->div, a2,
                 kvt_fmt_fixed(pct, 2, a4, sizeof a4)); /* vLLM's own "%.2f%%" */
    }
}

const char *vllm_explain_figure(enum vllm_line_kind k, double v, char *buf, size_t cap)
{
    char num[64];

    switch (k) {
    case VLLM_LINE_KV_TOKENS:
    case VLLM_LINE_GPU_BLOCKS:
    case VLLM_LINE_ATTN_BLOCK:
    case VLLM_LINE_PAD_LAYERS:
        return kvt_fmt_int(v > 0 ? (uint64_t)v : 0, buf, cap);
    case VLLM_LINE_CONCURRENCY:
        return kvt_fmt_concurrency_vllm(v, buf, cap);
    case VLLM_LINE_KV_MEMORY:
        return kvt_fmt_gib_vllm(v * 1024.0 * 1024.0 * 1024.0, buf, cap);
    default: /* "%.2f%%" */
        snprintf(buf, cap, "%s%%", kvt_fmt_fixed(v, 2, num, sizeof num));
        return buf;
    }
}

/* Whether these settings print line l's logged figure at this budget,
 * within the budget's printed rounding. */
static bool reproduces(const struct explain_ctx *k, const struct vllm_line *l, double gib,
                       uint64_t len)
{
    struct kv_result lo, hi;
    double a, b;

    return explain_run(k, gib - GIB_HALF > 0 ? gib - GIB_HALF : gib, len, &lo, NULL) == KVT_E_OK &&
           explain_run(k, gib + GIB_HALF, len, &hi, NULL) == KVT_E_OK &&
           explain_figure(k, l, &lo, len, &a) && explain_figure(k, l, &hi, len, &b) &&
           explain_in_range(l, a, b);
}

/* The KV memory, at vLLM's two printed decimals, that prints the logged
 * figure under these settings: the figures grow with the memory, so the
 * smallest budget reaching it is found by halving [0.01, 16384] GiB.
 * 0 when none does. */
static double budget_for(const struct explain_ctx *k, const struct vllm_line *l, uint64_t len)
{
    double lo = 0.01, hi = 16384;
    struct kv_result r;
    double f;

    for (int i = 0; i < 60 && hi - lo > 0.001; i++) {
        double mid = (lo + hi) / 2;
        if (explain_run(k, mid, len, &r, NULL) == KVT_E_OK && explain_figure(k, l, &r, len, &f) &&
            f >= l->value - 1e-9)
            hi = mid;
        else
            lo = mid;
    }
    for (double g = floor(hi * 100) / 100; g <= hi + 0.02; g += 0.01)
        if (reproduces(k, l, g, len))
            return g;
    return 0;
}

/* Appends one item whole, or not at all where it would not fit: a list
 * never ends halfway through a change. */
static void add_item(char *out, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void add_item(char *out, size_t cap, const char *fmt, ...)
{
    char item[512];
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(item, sizeof item, fmt, ap);
    va_end(ap);
    if (n > 0 && (size_t)n < sizeof item && strlen(out) + (size_t)n < cap)
        strcat(out, item);
}

void explain_what_matches(const struct explain_ctx *c, const struct vllm_line *l,
                          const struct kv_result *r, double gib, uint64_t len, char *out,
                          size_t cap)
{
    static const char *const releases[] = {"0.11.0", "0.19.0", "0.20.1", "0.24.0", "0.26.0"};
    static const uint32_t blocks[] = {16, 32, 64, 128};
    struct explain_ctx k = *c;
    double g = budget_for(c, l, len);
    char a1[32], a2[32];

    out[0] = '\0';
    if (g > 0 && fabs(g - gib) >= 0.01)
        add_item(out, cap,
                 "%s GiB of KV memory instead of the logged %s (the KV memory line may "
                 "come from another start-up); ",
                 kvt_fmt_fixed(g, 2, a1, sizeof a1), kvt_fmt_fixed(gib, 2, a2, sizeof a2));
    k.d.kv_dtype = r->kv_elem_bytes > 1 ? KV_DTYPE_FP8 : KV_DTYPE_AUTO;
    if (reproduces(&k, l, gib, len))
        add_item(out, cap, "--kv-cache-dtype %s; ", r->kv_elem_bytes > 1 ? "fp8" : "auto");
    k.d.kv_dtype = c->d.kv_dtype;
    for (size_t i = 0; !r->hybrid && !r->mla && i < sizeof blocks / sizeof blocks[0]; i++) {
        if (blocks[i] == r->deploy.block_size)
            continue;
        k.d.block_size = blocks[i];
        if (reproduces(&k, l, gib, len))
            add_item(out, cap, "--block-size %u; ", blocks[i]);
    }
    k.d.block_size = c->d.block_size;
    for (uint32_t tp = 1; tp <= 8; tp *= 2) {
        if (tp == c->d.tp)
            continue;
        k.d.tp = tp;
        if (reproduces(&k, l, gib, len))
            add_item(out, cap, "--tensor-parallel-size %u; ", tp);
    }
    k.d.tp = c->d.tp;
    for (size_t i = 0; i < sizeof releases / sizeof releases[0]; i++) {
        struct kv_vllm_version v;
        struct kv_rules now, then;
        if (!kv_vllm_parse(releases[i], &v))
            continue;
        kv_vllm_rules(&c->d.vllm, &now);
        kv_vllm_rules(&v, &then);
        /* only a release whose rules for this line differ */
        if (then.tokens_from_concurrency == now.tokens_from_concurrency &&
            then.group_rule == now.group_rule && then.sliding_in_flight == now.sliding_in_flight &&
            then.mamba_align_default == now.mamba_align_default &&
            then.nemotron_ssm_hook == now.nemotron_ssm_hook &&
            then.nemotron_ssm_fp32 == now.nemotron_ssm_fp32)
            continue;
        k.d.vllm = v;
        if (reproduces(&k, l, gib, len))
            add_item(out, cap,
                     "vLLM %s's rules (the log's version may not be the one that "
                     "ran); ",
                     releases[i]);
    }
    {
        size_t n = strlen(out);
        if (n >= 2 && out[n - 2] == ';')
            out[n - 2] = '\0';
    }
    if (!out[0])
        snprintf(out, cap,
                 "no single change tried makes it match (the KV memory, kv_cache_dtype, the "
                 "block size, TP, another release's rules): the model likely differs (give its "
                 "config.json with --config)");
}
