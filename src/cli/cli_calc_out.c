/* The two faces of `kvtutor calc`: a walk through the arithmetic a learner
 * can redo by hand, and one JSON object for scripts and tests. */
#include "cli.h"
#include "cli_json.h"
#include "cli_args.h"
#include "cli_calc.h"
#include "kv_figures.h"
#include "kv_moe.h"
#include "kvt_text.h"

#include <jansson.h>
#include <string.h>

#define COL   52 /* where the "= result" column starts */
#define WIDTH 80 /* the terminal the output is laid out for */

static size_t text_width(const char *s, size_t len)
{
    size_t width = 0;
    for (size_t i = 0; i < len; i++)
        width += ((unsigned char)s[i] & 0xC0) != 0x80; /* count UTF-8 lead bytes only */
    return width;
}

/* One line of arithmetic: "  left ... = right", left padded by display width.
 * A result too long for the row goes on under itself, broken after a comma
 * or before a parenthesis: "= 2,048 blocks," / "1.75 GiB on this GPU". */
static void line(FILE *out, const char *left, const char *right)
{
    size_t width = text_width(left, strlen(left)), room = WIDTH - (2 + COL + 3), cut = 0;

    fprintf(out, "  %s", left);
    if (width > COL && 2 + width + 3 + text_width(right, strlen(right)) > WIDTH) {
        /* a long left side: the result goes on the next line, in its column */
        fputs("\n  ", out);
        width = 0;
    }
    for (; width < COL; width++)
        fputc(' ', out);
    if (text_width(right, strlen(right)) > room)
        for (const char *p = right + 1; *p; p++) {
            /* after ", " or before " (": never inside a grouped number */
            size_t at = (size_t)(p - right) + (*p == ',');
            if (((p[0] == ',' && p[1] == ' ') || (p[0] == ' ' && p[1] == '(')) &&
                text_width(right, at) <= room)
                cut = at;
        }
    if (cut == 0) {
        fprintf(out, " = %s\n", right);
        return;
    }
    fprintf(out, " = %.*s\n%*s%s\n", (int)cut, right, 2 + COL + 3, "",
            right + cut + (right[cut] == ' '));
}

/* Text wrapped to WIDTH after `indent` spaces and a label; later lines hang
 * under the text, past the label. */
static void wrapped(FILE *out, int indent, const char *label, const char *text)
{
    size_t len = strlen(text), pos = 0, next;
    int hang = indent + (int)text_width(label, strlen(label));
    bool first = true;

    while (pos < len) {
        size_t n = kvt_wrap_line(text + pos, len - pos, WIDTH - 2 - hang, &next);
        if (n == 0)
            break;
        fprintf(out, "%*s%s%.*s\n", first ? indent : hang, "", first ? label : "", (int)n,
                text + pos);
        first = false;
        pos += next;
    }
}

static const char *model_name(const struct calc_view *v, char *buf, size_t cap)
{
    if (v->preset)
        snprintf(buf, cap, "%s (%.*s)", v->preset->id, (int)strcspn(v->preset->alias, ","),
                 v->preset->alias);
    else if (v->config_path)
        snprintf(buf, cap, "%s%s%s%s", v->config_path, v->config.model_type[0] ? " (" : "",
                 v->config.model_type, v->config.model_type[0] ? ")" : "");
    else
        snprintf(buf, cap, "a model described by flags");
    return buf;
}

static void header(FILE *out, const struct calc_view *v)
{
    const struct kv_result *r = &v->r;
    char name[200], text[600], items[6][160];
    size_t n = 0, used = 0;

    fprintf(out, "%s\n", model_name(v, name, sizeof name));
    /* the settings, broken between items where they pass the row */
    snprintf(items[n++], sizeof items[0], "weights %s", kv_dtype_name(r->weights_dtype));
    if (r->model.experts_dtype != KV_DTYPE_AUTO && r->model.experts_dtype != r->weights_dtype)
        snprintf(items[n - 1], sizeof items[0], "weights %s, experts %s",
                 kv_dtype_name(r->weights_dtype), kv_dtype_name(r->model.experts_dtype));
    snprintf(items[n++], sizeof items[0], "KV cache %s%s", kv_dtype_name(r->kv_dtype),
             r->model.dtype == r->kv_dtype ? " (auto: the model's dtype)" : "");
    if (r->state_layers > 0)
        snprintf(items[n++], sizeof items[0], "state conv %s, SSM %s",
                 kv_dtype_name(r->deploy.mamba_dtype), kv_dtype_name(r->deploy.mamba_ssm_dtype));
    if (v->gpu)
        snprintf(items[n++], sizeof items[0], "on %s", v->gpu->name);
    snprintf(items[n++], sizeof items[0], "TP %u, PP %u", r->deploy.tp, r->deploy.pp);
    snprintf(items[n++], sizeof items[0], "vLLM %s rules", r->vllm_version);
    for (size_t i = 0; i < n; i++) {
        const char *sep = i == 0 ? "  " : i == n - 1 ? "; " : ", ";
        size_t w = text_width(items[i], strlen(items[i]));
        if (i > 0 && used + 1 + w > WIDTH - 2) {
            fprintf(out, "%c\n  ", sep[0]);
            used = 2;
        } else {
            fputs(sep, out);
            used += 2;
        }
        fputs(items[i], out);
        used += w;
    }
    fputc('\n', out);
    for (size_t i = 0; i < r->rules.n_notes; i++)
        wrapped(out, 2, "note: ", r->rules.notes[i].text);
    if (v->config.note[0])
        wrapped(out, 2, "note: ", v->config.note);
    if (v->config.inert_window)
        wrapped(out, 2, "note: ",
                "sliding_window is set but use_sliding_window is false: every layer is full "
                "attention");
    if (v->config.quant_unknown) {
        snprintf(text, sizeof text, "quantization \"%s\" is not modelled; weights counted at %s",
                 v->config.quant_method, kv_dtype_name(r->weights_dtype));
        wrapped(out, 2, "note: ", text);
    }
}

static void per_token(FILE *out, const struct kv_result *r)
{
    const struct cli_glyphs *g = cli_glyphs();
    char left[160], right[96], n1[32], b1[32];
    const struct kv_model *m = &r->model;

    fputs("\nKV cache per token, whole model\n", out);
    uint32_t attn = r->full_layers + r->sliding_layers;
    if (r->mla && m->index_head_dim > 0)
        snprintf(left, sizeof left, "%u layers %s %s B a token (%s + the indexer's keys)", attn,
                 g->times, kvt_fmt_int(r->layer_token_bytes, n1, sizeof n1),
                 kv_dtype_name(r->kv_dtype));
    else if (r->mla && r->kv_dtype != KV_DTYPE_FP8_DS_MLA)
        snprintf(left, sizeof left, "(%u + %u) latent %s %u layers %s %u B", m->mla_rank,
                 m->mla_rope_dim, g->times, attn, g->times, r->kv_elem_bytes);
    else if (r->mla || r->kv_elem_bytes == 0)
        snprintf(left, sizeof left, "%u layers %s %s B a token (%s)", attn, g->times,
                 kvt_fmt_int(r->layer_token_bytes, n1, sizeof n1), kv_dtype_name(r->kv_dtype));
    else
        snprintf(left, sizeof left, "2 (K, V) %s %u layers %s %u KV heads %s %u dims %s %u B",
                 g->times, attn, g->times, m->kv_heads, g->times, m->head_dim, g->times,
                 r->kv_elem_bytes);
    snprintf(right, sizeof right, "%s B (%s)", kvt_fmt_int(r->kv_bytes_per_token, n1, sizeof n1),
             kvt_fmt_bytes((double)r->kv_bytes_per_token, b1, sizeof b1));
    line(out, left, right);
    if (r->draft_layers > 0)
        fprintf(out, "  (%u of the layers are the speculative draft's)\n", r->draft_layers);
    if (r->state_layers > 0) {
        snprintf(left, sizeof left, "%u %s layers' state, one request", r->state_layers,
                 m->state_kind == KV_STATE_GDN ? "gated-delta-net" : "Mamba2");
        snprintf(right, sizeof right, "%s B (%s)",
                 kvt_fmt_int(r->state_bytes_per_request, n1, sizeof n1),
                 kvt_fmt_bytes((double)r->state_bytes_per_request, b1, sizeof b1));
        line(out, left, right);
    }
    if (r->mla && r->deploy.tp > 1)
        fprintf(out, "  the latent is not split by TP: every GPU keeps all of it\n");
    else if (r->replicated)
        fprintf(out, "  TP %u > %u KV heads: each GPU keeps 1 head, copies of the others' share\n",
                r->deploy.tp, m->kv_heads);
    else if (r->deploy.tp > 1)
        fprintf(out, "  TP %u splits the heads: %u KV head%s per GPU\n", r->deploy.tp,
                r->kv_heads_per_gpu, r->kv_heads_per_gpu == 1 ? "" : "s");
}

static void grouping(FILE *out, const struct kv_result *r)
{
    char w[32], b1[32], b2[32];

    if (r->state_layers > 0) {
        if (r->attention_block_size > 0) {
            char text[160];
            snprintf(text, sizeof text,
                     "one layer's state is %s on this GPU: the attention block grows to %s "
                     "tokens to hold it",
                     kvt_fmt_bytes((double)r->state_layer_bytes, b1, sizeof b1),
                     kvt_fmt_int(r->attention_block_size, b2, sizeof b2));
            wrapped(out, 2, "", text);
        }
        fprintf(out,
                "  hybrid: %u attention + %u recurrent layers; vLLM groups them %u at a time:\n"
                "  %u attention group%s + %u state group%s",
                r->full_layers + r->sliding_layers, r->state_layers, r->group_size,
                r->full_groups + r->sliding_groups,
                r->full_groups + r->sliding_groups == 1 ? "" : "s", r->state_groups,
                r->state_groups == 1 ? "" : "s");
        if (r->padding_layers)
            fprintf(out, " (%u padding layer%s)", r->padding_layers,
                    r->padding_layers == 1 ? "" : "s");
        fputc('\n', out);
        return;
    }

    if (!r->hybrid) {
        if (r->sliding_layers > 0)
            fprintf(out, "  every layer slides over %s tokens\n",
                    kvt_fmt_int(r->model.sliding_window, w, sizeof w));
        return;
    }
    {
        char text[400], pad[64] = "";
        if (r->padding_layers)
            snprintf(pad, sizeof pad, " (%u padding layer%s)", r->padding_layers,
                     r->padding_layers == 1 ? "" : "s");
        snprintf(text, sizeof text,
                 "hybrid: %u sliding layers (window %s) + %u full; vLLM groups them %u at a "
                 "time: %u full group%s + %u sliding group%s%s",
                 r->sliding_layers, kvt_fmt_int(r->model.sliding_window, w, sizeof w),
                 r->full_layers, r->group_size, r->full_groups, r->full_groups == 1 ? "" : "s",
                 r->sliding_groups, r->sliding_groups == 1 ? "" : "s", pad);
        wrapped(out, 2, "", text);
    }
}

static void per_request(FILE *out, const struct kv_result *r)
{
    const struct cli_glyphs *g = cli_glyphs();
    char left[200], right[96], n1[32], n2[32], n3[32], b1[32], b2[32];
    const struct kv_deploy *d = &r->deploy;

    if (!r->has_request) {
        fputs("\nNo --max-model-len and no max_position_embeddings: per-sequence figures "
              "need one\n",
              out);
        return;
    }
    fprintf(out, "\nOne sequence of %s tokens\n", kvt_fmt_int(r->max_model_len, n1, sizeof n1));
    if (!r->hybrid && r->sliding_layers == 0) {
        snprintf(left, sizeof left, "%s %s %s tokens",
                 kvt_fmt_bytes((double)r->kv_bytes_per_token, b1, sizeof b1), g->times, n1);
        double seq = (double)r->kv_bytes_per_token * (double)r->max_model_len;
        char gib[32];
        kvt_fmt_bytes(seq, b2, sizeof b2);
        if (strstr(b2, "GiB") || seq >= 1024.0 * KV_GIB)
            snprintf(right, sizeof right, "%s", b2);
        else /* the seed card speaks in GiB: 448 MiB is 0.4375 GiB */
            snprintf(right, sizeof right, "%s (%s GiB)", b2,
                     kvt_fmt_real(seq / KV_GIB, 4, gib, sizeof gib));
        line(out, left, right);
    }
    grouping(out, r);
    char bs[32]; /* a count, grouped: "2,096 tokens" */
    kvt_fmt_int(d->block_size, bs, sizeof bs);
    snprintf(left, sizeof left, "vLLM page: %s tokens %s %s", bs, g->times,
             kvt_fmt_bytes((double)r->layer_token_bytes, b1, sizeof b1));
    line(out, left, kvt_fmt_bytes((double)r->page_bytes, b2, sizeof b2));
    snprintf(left, sizeof left, "one block id: %s %s %u %s", b2, g->times, r->tensors_per_gpu,
             r->hybrid ? "layer slots" : (d->pp > 1 ? "layers on this stage" : "layers"));
    line(out, left, kvt_fmt_bytes((double)r->block_set_bytes, b1, sizeof b1));
    if (!r->hybrid && r->sliding_groups > 0)
        snprintf(left, sizeof left, "blocks per sequence: ceil(min(W-1+%s, %s) / %s) + 1",
                 kvt_fmt_int(d->max_num_batched_tokens, n2, sizeof n2), n1, bs);
    else if (!r->hybrid)
        snprintf(left, sizeof left, "blocks per sequence: ceil(%s / %s)", n1, bs);
    else if (r->state_groups > 0)
        snprintf(left, sizeof left, "blocks per sequence: %u %s %s + %u %s %s (%s)",
                 r->full_groups + r->sliding_groups, g->times,
                 kvt_fmt_int(r->blocks_full_per_group, n2, sizeof n2), r->state_groups, g->times,
                 kvt_fmt_int(r->blocks_state_per_group, n3, sizeof n3),
                 r->mamba_mode == KV_MAMBA_ALIGN ? "align"
                 : r->mamba_mode == KV_MAMBA_ALL ? "all"
                                                 : "none");
    else
        snprintf(left, sizeof left, "blocks per sequence: %u %s %s + %u %s %s", r->full_groups,
                 g->times, kvt_fmt_int(r->blocks_full_per_group, n2, sizeof n2), r->sliding_groups,
                 g->times, kvt_fmt_int(r->blocks_sliding_per_group, n3, sizeof n3));
    snprintf(right, sizeof right, "%s blocks, %s on this GPU",
             kvt_fmt_int(r->blocks_per_request, n2, sizeof n2),
             kvt_fmt_bytes((double)r->request_bytes, b1, sizeof b1));
    line(out, left, right);
}

static void budget(FILE *out, const struct calc_view *v)
{
    const struct cli_glyphs *g = cli_glyphs();
    const struct kv_result *r = &v->r;
    const struct kv_deploy *d = &r->deploy;
    char left[200], num[32], b1[32], b2[32], gpus[32] = "";

    fputs("\nMemory on one GPU\n", out);
    /* the budget is vLLM's "Available KV cache memory": written as vLLM
     * writes it (two decimals of GiB) so the two can be held side by side */
    if (r->budget_given) {
        line(out, "KV budget, as given (--kv-budget-gib)",
             kvt_fmt_gib_vllm((double)r->kv_budget_bytes, b1, sizeof b1));
        return;
    }
    if (!r->has_budget) {
        fprintf(out, "  %s\n",
                d->gpu_mem_gib <= 0 ? "no GPU: give --gpu, --gpu-mem-gib or --kv-budget-gib"
                                    : "weights unknown: give --params or --weights-gib");
        return;
    }
    snprintf(left, sizeof left, "%s GiB %s gpu_memory_utilization %s",
             kvt_fmt_real(d->gpu_mem_gib, 2, b1, sizeof b1), g->times,
             kvt_fmt_real(d->util, 3, num, sizeof num));
    line(out, left, kvt_fmt_bytes((double)r->usable_bytes, b2, sizeof b2));
    if (d->tp * d->pp > 1)
        snprintf(gpus, sizeof gpus, " / %u GPUs", d->tp * d->pp);
    if (r->model.weights_gib > 0)
        snprintf(left, sizeof left, "%s weights: %s GiB measured%s", g->minus,
                 kvt_fmt_real(r->model.weights_gib, 2, num, sizeof num), gpus);
    else
        snprintf(left, sizeof left, "%s weights: %sB params %s %s bits%s", g->minus,
                 kvt_fmt_real(r->model.params_b, 2, num, sizeof num), g->times,
                 kvt_fmt_real(kv_dtype_weight_bits(r->weights_dtype), 3, b1, sizeof b1), gpus);
    line(out, left, kvt_fmt_bytes((double)r->weights_bytes, b2, sizeof b2));
    snprintf(left, sizeof left, "%s overhead: activations, CUDA graphs%s", g->minus,
             v->overhead_given ? "" : " (not given)");
    line(out, left, kvt_fmt_bytes((double)r->overhead_bytes, b2, sizeof b2));
    line(out, "KV budget", kvt_fmt_gib_vllm((double)r->kv_budget_bytes, b2, sizeof b2));
}

static void capacity(FILE *out, const struct kv_result *r)
{
    const struct cli_glyphs *g = cli_glyphs();
    char left[200], right[96], n1[32], n2[32], n3[32], b1[32], b2[32];

    if (!r->has_blocks)
        return;
    fputs("\nCapacity\n", out);
    if (r->blocks_overridden)
        snprintf(left, sizeof left, "--num-gpu-blocks-override, whatever the memory");
    else
        snprintf(left, sizeof left, "%s %s %s per block id",
                 kvt_fmt_gib_vllm((double)r->kv_budget_bytes, b1, sizeof b1), g->divide,
                 kvt_fmt_bytes((double)r->block_set_bytes, b2, sizeof b2));
    snprintf(right, sizeof right, "%s blocks (%s tokens)",
             kvt_fmt_int(r->num_gpu_blocks, n1, sizeof n1),
             kvt_fmt_int(r->kv_tokens, n2, sizeof n2));
    line(out, left, right);
    if (r->has_concurrency) {
        snprintf(left, sizeof left, "%s blocks %s %s per sequence", n1, g->divide,
                 kvt_fmt_int(r->blocks_per_request, n3, sizeof n3));
        /* vLLM's "Maximum concurrency for N tokens per request: 33.95x",
         * its two decimals kept (4.50x, not 4.5) */
        snprintf(right, sizeof right, "max concurrency %s",
                 kvt_fmt_concurrency_vllm(r->max_concurrency, b1, sizeof b1));
        line(out, left, right);
    }
    if (r->reason == KV_REASON_WEIGHTS_DONT_FIT) {
        fprintf(out,
                "  %s the weights and overhead do not fit in this GPU's share: no KV at all.\n"
                "    Try a smaller --weights-dtype, a larger --tp, or a larger GPU.\n",
                g->cross);
    } else if (r->reason == KV_REASON_SEQ_DOESNT_FIT && r->max_model_len_fits == 0) {
        fprintf(out,
                "  %s not even one sequence of %s tokens fits: vLLM refuses to start.\n"
                "    %s, so no --max-model-len would help: give the cache more memory.\n",
                g->cross, kvt_fmt_int(r->max_model_len, n1, sizeof n1),
                r->num_gpu_blocks == 0 ? "Not one block fits in this budget"
                                       : "Even a one-token request needs more blocks than fit");
    } else if (r->reason == KV_REASON_SEQ_DOESNT_FIT) {
        fprintf(out,
                "  %s not even one sequence of %s tokens fits: vLLM refuses to start.\n"
                "    The longest that fits: --max-model-len %s\n",
                g->cross, kvt_fmt_int(r->max_model_len, n1, sizeof n1),
                kvt_fmt_int(r->max_model_len_fits, n2, sizeof n2));
    } else if (r->has_concurrency) {
        fprintf(out, "  %s %s whole sequence%s of %s tokens fit at once\n", g->arrow,
                kvt_fmt_int(r->max_concurrent_seqs, n1, sizeof n1),
                r->max_concurrent_seqs == 1 ? "" : "s",
                kvt_fmt_int(r->max_model_len, n2, sizeof n2));
    }
}

/* A per-GPU figure for the whole tensor-parallel group, which decodes each
 * token together: "3,352" on one GPU, "4 × 3,352" on four (TP 4). */
static const char *per_group(const struct kv_result *r, const char *one_gpu, char *buf, size_t cap)
{
    if (r->deploy.tp > 1)
        snprintf(buf, cap, "%u %s %s", r->deploy.tp, cli_glyphs()->times, one_gpu);
    else
        snprintf(buf, cap, "%s", one_gpu);
    return buf;
}

static void decode_line(FILE *out, const struct kv_result *r, uint64_t batch, uint64_t context)
{
    const struct cli_glyphs *g = cli_glyphs();
    char left[200], right[64], n_batch[32], n_ctx[32], n_bw[32], n_gb[32], n_tps[32], bw[64];
    double tps, bytes = kv_calc_weight_read_bytes(r, (double)batch) +
                        (double)batch * (double)kv_calc_kv_read_bytes(r, context);

    if (!kv_calc_decode_at(r, batch, context, &tps))
        return;
    snprintf(left, sizeof left, "batch %s at %s tokens: %s GB/s %s %s GB",
             kvt_fmt_int(batch, n_batch, sizeof n_batch), kvt_fmt_int(context, n_ctx, sizeof n_ctx),
             per_group(r, kvt_fmt_rate(r->deploy.bandwidth_gbps, n_bw, sizeof n_bw), bw, sizeof bw),
             g->divide, kvt_fmt_amount(bytes / 1e9, n_gb, sizeof n_gb));
    snprintf(right, sizeof right, "%s tok/s", kvt_fmt_rate(tps, n_tps, sizeof n_tps));
    line(out, left, right);
}

/* What a MoE step reads at the batch: the experts its tokens are routed to. */
static void moe_line(FILE *out, const struct kv_result *r)
{
    struct kv_moe_split s;
    char n1[32], n2[32], n3[32];

    kv_moe_split(r, &s);
    if (!s.moe)
        return;
    if (!s.experts_known) {
        fputs("  MoE without its expert counts (--experts, --experts-per-token): each token's\n"
              "  active share is taken as drawn from the whole model\n",
              out);
        return;
    }
    fprintf(out,
            "  MoE: batch %s touches %.1f%% of the %u experts a layer, %u a token each\n"
            "  (even routing assumed): %s of %s GB of weights a step\n",
            kvt_fmt_int(r->deploy.batch, n1, sizeof n1), 100.0 * r->decode_experts_touched,
            r->model.experts, r->model.experts_per_token,
            kvt_fmt_amount(r->decode_weight_read_bytes / 1e9, n2, sizeof n2),
            kvt_fmt_amount((double)r->weights_bytes_total / 1e9, n3, sizeof n3));
}

/* With no --context the headline is the contract's, at empty caches; the
 * sequences the learner sized hold max_model_len tokens, so their ceiling
 * stands beside it, with the same fit check and the lower of the two bounds. */
static void full_length_line(FILE *out, const struct kv_result *r)
{
    const struct kv_deploy *d = &r->deploy;
    uint64_t len = r->max_model_len, need;
    double tps;
    char n1[32], n2[32];

    if (d->context != 0 || !r->has_request || len == 0 ||
        !kv_calc_decode_at(r, d->batch, len, &tps))
        return;
    kvt_fmt_int(len, n1, sizeof n1);
    if (r->has_blocks && (__builtin_add_overflow(len, 1, &need) ||
                          __builtin_mul_overflow(need, d->batch, &need) || need > r->kv_tokens)) {
        fprintf(out, "  %s at %s tokens each: %s sequences do not fit in %s KV tokens\n",
                cli_glyphs()->cross, n1, kvt_fmt_int(d->batch, n2, sizeof n2),
                kvt_fmt_int(r->kv_tokens, n2, sizeof n2));
        return;
    }
    if (r->has_compute && r->decode_tokens_per_s_compute < tps)
        tps = r->decode_tokens_per_s_compute;
    fprintf(out, "  %s at %s tokens each (full-length sequences): %s tok/s\n", cli_glyphs()->arrow,
            n1, kvt_fmt_rate(tps, n2, sizeof n2));
}

static void decode(FILE *out, const struct kv_result *r)
{
    const struct cli_glyphs *g = cli_glyphs();
    const struct kv_deploy *d = &r->deploy;
    char n1[32], n2[32], n3[32], flops[64];

    fputs("\nDecode ceiling (memory: every step reads the weights its tokens touch and\n"
          "  the KV; compute: 2 FLOPs per active parameter per token; the lower one holds)\n",
          out);
    if (d->tp > 1)
        fprintf(out,
                "  TP %u: the %u GPUs' bandwidth and FLOP/s together, as they decode each token\n",
                d->tp, d->tp);
    per_group(r, kvt_fmt_amount(d->tflops, n3, sizeof n3), flops, sizeof flops);
    if (!r->has_decode) {
        /* name only what is missing: a preset has its parameters */
        bool no_params = r->active_weight_bytes == 0;
        fprintf(out, "  needs %s\n",
                !no_params              ? "a bandwidth (--gpu or --bandwidth-gbps)"
                : d->bandwidth_gbps > 0 ? "the parameters (--params)"
                                        : "a bandwidth (--gpu or --bandwidth-gbps) and the "
                                          "parameters (--params)");
        return;
    }
    decode_line(out, r, d->batch, d->context);
    if (r->has_request && r->max_model_len != d->context)
        decode_line(out, r, d->batch, r->max_model_len);
    moe_line(out, r);
    if (r->has_compute) {
        char left[200], right[64];
        snprintf(left, sizeof left, "compute: %s TFLOP/s %s (2 %s active parameters)", flops,
                 g->divide, g->times);
        snprintf(right, sizeof right, "%s tok/s",
                 kvt_fmt_rate(r->decode_tokens_per_s_compute, n2, sizeof n2));
        line(out, left, right);
    } else {
        fputs("  compute: unknown (no --tflops and no GPU figure); the memory one alone\n", out);
    }
    if (r->decode_reason == KV_DECODE_WEIGHTS_DONT_FIT) {
        fprintf(out, "  %s no ceiling at batch %s: the weights do not fit\n", g->cross,
                kvt_fmt_int(d->batch, n1, sizeof n1));
        return;
    }
    if (r->decode_reason == KV_DECODE_KV_DOESNT_FIT) {
        fprintf(out,
                "  %s no ceiling at batch %s: %s × (%s + 1) tokens of KV do not fit in %s KV "
                "tokens\n",
                g->cross, kvt_fmt_int(d->batch, n1, sizeof n1), n1,
                kvt_fmt_int(d->context, n2, sizeof n2), kvt_fmt_int(r->kv_tokens, n3, sizeof n3));
        return;
    }
    fprintf(out, "  %s ceiling at batch %s and %s tokens: %s tok/s, %s-bound", g->arrow,
            kvt_fmt_int(d->batch, n1, sizeof n1), kvt_fmt_int(d->context, n2, sizeof n2),
            kvt_fmt_rate(r->decode_tokens_per_s, n3, sizeof n3),
            r->compute_bound ? "compute" : "memory");
    if (d->batch > 1)
        fprintf(out, " (%s tok/s per sequence)",
                kvt_fmt_rate(r->decode_tokens_per_s_seq, n1, sizeof n1));
    fputc('\n', out);
    full_length_line(out, r);
    if (!r->has_bound)
        return;
    if (r->compute_bound_ever)
        fprintf(out, "  it turns compute-bound from batch %s at %s tokens (%s TFLOP/s)\n",
                kvt_fmt_int(r->compute_bound_batch, n1, sizeof n1),
                kvt_fmt_int(d->context, n2, sizeof n2), flops);
    else
        fputs("  KV reads grow as fast as the FLOPs, so it never turns compute-bound\n", out);
}

void calc_print_human(FILE *out, const struct calc_view *v)
{
    header(out, v);
    per_token(out, &v->r);
    per_request(out, &v->r);
    budget(out, v);
    capacity(out, &v->r);
    decode(out, &v->r);
}

int calc_print_json(FILE *out, const struct calc_view *v)
{
    struct kv_figure figs[KV_FIGURES_MAX];
    size_t n = kv_figures(&v->r, figs, KV_FIGURES_MAX);
    json_t *o = json_object();
    char name[200];
    int rc;

    json_object_set_new(o, "model", json_string(model_name(v, name, sizeof name)));
    json_object_set_new(o, "gpu", v->gpu ? json_string(v->gpu->name) : json_null());
    for (size_t i = 0; i < n; i++) {
        const struct kv_figure *f = &figs[i];
        json_t *j = f->kind == KV_FIG_INT    ? json_integer((json_int_t)f->v.i)
                    : f->kind == KV_FIG_REAL ? json_real(f->v.r)
                    : f->kind == KV_FIG_BOOL ? json_boolean(f->v.b)
                    : f->kind == KV_FIG_TEXT ? json_string(f->v.t)
                                             : json_null();
        json_object_set_new(o, f->name, j);
    }
    {
        json_t *notes = json_array();
        for (size_t i = 0; i < v->r.rules.n_notes; i++)
            json_array_append_new(notes, json_string(v->r.rules.notes[i].text));
        if (v->config.note[0])
            json_array_append_new(notes, json_string(v->config.note));
        json_object_set_new(o, "notes", notes);
    }
    rc = cli_json_dumpf(o, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    fputc('\n', out);
    json_decref(o);
    return rc == 0 && !ferror(out) ? 0 : 1;
}
