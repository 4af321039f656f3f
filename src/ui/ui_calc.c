/* The calculator playground: a model and a GPU from the presets (or a
 * config.json), and the deployment knobs on keys. Every key recomputes the
 * memory breakdown, the concurrency and the decode ceiling with the same
 * calculator as `kvtutor calc`, draws the memory as a bar and the maximum
 * concurrency against context length as a chart (j/k scroll it when the
 * screen is too short for its eight rows).
 *
 * `l` opens a vLLM start-up log the way `kvtutor explain-log` does (the same
 * reader, parser and explanation): its capacity lines, recomputed and
 * explained, replace the chart until `q`; j/k, Space/PgDn/PgUp and Home/End
 * move through them, never past the last line. A log whose model is not a
 * preset is explained with the config.json opened with `o`. */
#include "ui_app.h"
#include "ui_calc_priv.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tutor_config.h"
#include "kv_presets.h"
#include "kvt_format.h"
#include "kvt_text.h"
#include "ui_term.h"
#include "ui_draw.h"
#include "ui_edit.h"
#include "tutor_path.h"
#include "tutor_sim.h"
#include "vllm_explain.h"
#include "vllm_log.h"

static size_t index_of(const char *name, bool gpu)
{
    size_t n;
    if (gpu) {
        const struct kv_gpu_preset *g = kv_gpu_presets(&n), *p = kv_gpu_preset_find(name);
        return p ? (size_t)(p - g) : 0;
    } else {
        const struct kv_model_preset *m = kv_model_presets(&n), *p = kv_model_preset_find(name);
        return p ? (size_t)(p - m) : 0;
    }
}

/* The calculator on the playground's settings, at context `seq`. */
static enum kvt_err run(const struct calc *c, uint64_t seq, struct kv_result *r, enum kv_field *bad)
{
    size_t n;
    const struct kv_model_preset *models = kv_model_presets(&n);
    const struct kv_gpu_preset *gpus = kv_gpu_presets(&n);
    struct kv_model m = c->model == SIZE_MAX ? c->config : models[c->model].model;
    struct kv_deploy d;

    kv_deploy_defaults(&d);
    kv_gpu_preset_apply(&gpus[c->gpu], &d);
    d.max_model_len = seq;
    d.batch = c->batch;
    d.context = seq; /* the ceiling of full-length sequences, the context shown */
    d.util = c->util_pct / 100.0;
    d.tp = c->tp;
    d.kv_dtype = tutor_sim_kv_types[c->kv];
    if (tutor_sim_weight_types[c->weights] != KV_DTYPE_AUTO) {
        m.weights_dtype = tutor_sim_weight_types[c->weights];
        m.weights_gib = 0;
        m.experts_dtype = KV_DTYPE_AUTO; /* every weight at that dtype */
    }
    return kv_calc(&m, &d, r, bad, NULL);
}

/* A parameter count in billions as typed: "7.6" or "7.6B", above 0 and at
 * most 100,000 (100 T); nothing else on the line. */
static bool parse_billions(const char *s, double *out)
{
    char *end;
    double v;
    errno = 0;
    v = strtod(s, &end);
    if (end == s || errno)
        return false;
    if (*end == 'B' || *end == 'b')
        end++;
    if (*end != '\0' || !(v > 0) || v > 1e5)
        return false;
    *out = v;
    return true;
}

static const char *model_name(const struct calc *c)
{
    size_t n;
    return c->model == SIZE_MAX ? c->config_name : kv_model_presets(&n)[c->model].id;
}

static unsigned calc_context(void *self)
{
    struct calc *c = self;
    return c->typing ? UC_EDIT | (c->typing_params ? 0 : UC_PATH) : c->serving ? UC_SERVE : UC_CALC;
}

static const char *calc_title(void *self, struct ui *ui)
{
    struct calc *c = self;
    (void)ui;
    return c->serving ? "kvtutor · Calculator playground · serving under load"
                      : "kvtutor · Calculator playground";
}

/* A bar of `width` cells split into parts (fractions of the whole), each
 * part its own glyph as well as its own colour, so it reads without colour. */
static void bar(int y, int x, int width, const double *parts, const attr_t *attrs, int n)
{
    static const char *const utf8[] = {"█", "░", "▓", "·"}, *const ascii[] = {"#", "-", "=", "."};
    const char *const *glyph = ui_term_utf8() ? utf8 : ascii;
    int col = 0;
    for (int i = 0; i < n; i++) {
        int cells = (int)lround(parts[i] * width);
        if (i == n - 1 && n > 1)
            cells = width - col;
        attron(attrs[i]);
        for (int k = 0; k < cells && col < width; k++, col++)
            mvaddstr(y, x + col, glyph[n == 1 ? 2 : i % 4]);
        attroff(attrs[i]);
    }
}

int calc_put_wrapped(int y, int x, int width, int hang, const char *text, attr_t attr)
{
    char part[1200];
    size_t len = strlen(text), pos = 0, next;
    int n = 0;

    while (pos < len) {
        int w = n ? width - hang : width;
        size_t take = kvt_wrap_line(text + pos, len - pos, w, &next);
        if (take == 0)
            break;
        snprintf(part, sizeof part, "%.*s", (int)take, text + pos);
        ui_put(y + n, n ? x + hang : x, w, part, attr);
        n++;
        pos += next;
    }
    return n;
}

int calc_put_items(int y, int x, int width, const char *const *items, size_t n, const char *sep,
                   attr_t attr)
{
    char row[1200] = "";
    int rows = 0, sep_w = (int)kvt_text_width(sep, strlen(sep));

    for (size_t i = 0; i < n; i++) {
        int used = (int)kvt_text_width(row, strlen(row));
        int w = (int)kvt_text_width(items[i], strlen(items[i]));
        int room = rows ? width - 2 : width;
        if (row[0] && used + sep_w + w > room) {
            ui_put(y + rows, rows ? x + 2 : x, room, row, attr);
            rows++;
            row[0] = '\0';
        }
        if (row[0])
            strncat(row, sep, sizeof row - strlen(row) - 1);
        strncat(row, items[i], sizeof row - strlen(row) - 1);
    }
    if (row[0]) {
        ui_put(y + rows, rows ? x + 2 : x, rows ? width - 2 : width, row, attr);
        rows++;
    }
    return rows;
}

static void calc_draw(void *self, struct ui *ui, int top, int rows, int cols)
{
    struct calc *c = self;
    size_t n;
    const struct kv_gpu_preset *g = &kv_gpu_presets(&n)[c->gpu];
    struct kv_result r;
    enum kv_field bad;
    enum kvt_err e;
    char line[1200], a1[32], a2[32], a3[32], a4[32], a5[32], util[32];
    int y = top + 1;
    (void)ui;

    snprintf(line, sizeof line, "Model  %s", model_name(c));
    /* the model's KV a token beside its name, where the row has room for it */
    if (run(c, c->seq, &r, &bad) == KVT_E_OK) {
        const char *items[2] = {line, a5};
        snprintf(a5, sizeof a5, "(KV %s a token)",
                 kvt_fmt_bytes((double)r.kv_bytes_per_token, a3, sizeof a3));
        y += calc_put_items(y, 2, cols - 4, items, 2, "  ", A_BOLD);
    } else {
        ui_put(y++, 2, cols - 4, line, A_BOLD);
    }
    if (c->ex) /* the log's figures were measured on its own GPU, not this preset */
        snprintf(line, sizeof line, "GPU    the log's own: its KV memory is what vLLM measured");
    else
        snprintf(line, sizeof line, "GPU    %s: %s GiB, %s GB/s", g->name,
                 kvt_fmt_number(g->memory_gib, 1, a1, sizeof a1),
                 kvt_fmt_number(g->peak_gbps, 1, a2, sizeof a2));
    ui_put(y++, 2, cols - 4, line, A_BOLD);
    {
        char ctx[48], batch[48], kv[48], wt[48], ut[48], tp[24];
        const char *items[6] = {ctx, batch, kv, wt, ut, tp};
        /* the serving view sizes its batches itself: no batch knob there */
        const char *serve_items[5] = {ctx, kv, wt, ut, tp};
        kvt_fmt_fixed(c->util_pct / 100.0, 2, util, sizeof util); /* as vLLM's flag: 0.92 */
        snprintf(ut, sizeof ut, "util %s", util);
        snprintf(ctx, sizeof ctx, "context %s tokens", kvt_fmt_int(c->seq, a1, sizeof a1));
        snprintf(batch, sizeof batch, "batch %s", kvt_fmt_int(c->batch, a4, sizeof a4));
        snprintf(kv, sizeof kv, "KV %s", kv_dtype_name(tutor_sim_kv_types[c->kv]));
        snprintf(wt, sizeof wt, "weights %s", kv_dtype_name(tutor_sim_weight_types[c->weights]));
        snprintf(tp, sizeof tp, "TP %u", c->tp);
        if (c->serving)
            y += calc_put_items(y, 2, cols - 4, serve_items, 5, " · ", A_NORMAL);
        else
            y += calc_put_items(y, 2, cols - 4, items, 6, " · ", A_NORMAL);
    }
    y++;
    if (c->serving && !c->typing) {
        calc_sim_draw(c, y, top, rows, cols);
        return;
    }
    if (c->typing) {
        ui_put(y, 2, 20,
               c->typing_params ? "parameters (B):"
               : c->typing_log  ? "vLLM log path:"
                                : "config.json path:",
               A_BOLD);
        ui_edit_draw(&c->path, y, 21, cols - 23);
        return;
    }
    /* a log replaces the memory bar and the chart: its own figures are the subject */
    if (c->ex) {
        if (c->log_width != cols - 4)
            calc_log_layout(c, cols - 4);
        ui_put(y++, 2, cols - 4, c->log_title, ui_color(UI_C_HEADING) | A_BOLD);
        {
            int room = top + rows - y;
            /* taller than the room: its last row says where the rest is */
            bool more = room > 1 && c->log_lines.n > (size_t)room;
            c->log_rows = room > 0 ? room - (more ? 1 : 0) : 0;
            /* the last page ends at the last line, never on blank rows */
            if (c->log_top > calc_log_max_top(c))
                c->log_top = calc_log_max_top(c);
            if (c->log_rows > 0)
                ui_lines_draw(&c->log_lines, c->log_top, y, c->log_rows, cols - 2, -1);
            if (more)
                ui_put(y + c->log_rows, 2, cols - 4,
                       c->log_top < calc_log_max_top(c)
                           ? "more below: Space or j"
                           : "the log's end: k, PgUp or Home go back up",
                       A_DIM);
        }
        return;
    }
    if ((e = run(c, c->seq, &r, &bad)) != KVT_E_OK) {
        /* the calculator's own reason, as kvtutor calc gives it: a context past
         * the model's positions is not a TP fault */
        if (e == KVT_E_MAX_LEN)
            snprintf(line, sizeof line,
                     "A context of %s tokens is past the model's %s positions "
                     "(max_position_embeddings): vLLM refuses it. C halves the context.",
                     kvt_fmt_int(c->seq, a1, sizeof a1),
                     kvt_fmt_int(r.model.max_position, a2, sizeof a2));
        else if (e == KVT_E_TP_HEADS || e == KVT_E_TP_KV_HEADS) {
            char tp[200];
            snprintf(line, sizeof line, "%s. t/T change TP.",
                     tutor_tp_refusal(c->tp, e, r.model.heads, r.model.kv_heads, tp, sizeof tp));
        } else
            snprintf(line, sizeof line, "This combination cannot be laid out: %s (%s).",
                     kvt_strerror(e), kv_field_name(bad));
        calc_put_wrapped(y, 2, cols - 4, 0, line, ui_color(UI_C_WRONG));
        return;
    }
    {
        double total = g->memory_gib * KV_GIB, w = (double)r.weights_bytes,
               reserve = total - (double)r.usable_bytes, kv = (double)r.kv_budget_bytes;
        double parts[4] = {w / total, reserve / total, kv / total, 0};
        attr_t attrs[4] = {ui_color(UI_C_WARN), A_DIM, ui_color(UI_C_RIGHT), A_DIM};
        if (parts[0] > 1)
            parts[0] = 1;
        ui_put(y++, 2, cols - 4, "Memory on one GPU", ui_color(UI_C_HEADING) | A_BOLD);
        bar(y++, 2, cols - 4, parts, attrs, 4);
        if (r.reason == KV_REASON_WEIGHTS_DONT_FIT)
            /* no budget to show: what one GPU may use, and the weights past it */
            snprintf(line, sizeof line, "█ weights %s%s · usable %s (%s GiB × %s)",
                     kvt_fmt_bytes(w, a1, sizeof a1), r.overhead_bytes ? " and overhead" : "",
                     kvt_fmt_bytes((double)r.usable_bytes, a2, sizeof a2),
                     kvt_fmt_number(g->memory_gib, 2, a3, sizeof a3), util);
        else
            /* the KV budget as vLLM logs "Available KV cache memory" */
            snprintf(line, sizeof line, "█ weights %s · ░ reserve (1 − util) %s · ▓ KV budget %s",
                     kvt_fmt_bytes(w, a1, sizeof a1), kvt_fmt_bytes(reserve, a2, sizeof a2),
                     kvt_fmt_gib_vllm(kv, a3, sizeof a3));
        y += calc_put_wrapped(y, 2, cols - 4, 2, line, A_NORMAL);
    }
    y++;
    if (r.reason == KV_REASON_WEIGHTS_DONT_FIT) {
        double over = (double)r.weights_bytes + (double)r.overhead_bytes - (double)r.usable_bytes;
        snprintf(line, sizeof line,
                 "The weights do not fit: %s over what one GPU may use, so no KV cache and no "
                 "concurrency. Try w (smaller weights), t (TP) or g (a larger GPU).",
                 kvt_fmt_bytes(over, a1, sizeof a1));
        y += calc_put_wrapped(y, 2, cols - 4, 0, line, ui_color(UI_C_WRONG) | A_BOLD);
    } else {
        kvt_fmt_int(c->seq, a1, sizeof a1);
        /* vLLM's figure as it logs it: "4.50x" */
        snprintf(line, sizeof line, "Max concurrency at %s tokens: %s  →  %s", a1,
                 kvt_fmt_concurrency_vllm(r.max_concurrency, a4, sizeof a4),
                 kvt_fmt_count(r.max_concurrent_seqs, "whole sequence", "whole sequences", a2,
                               sizeof a2));
        y += calc_put_wrapped(y, 2, cols - 4, 2, line, ui_color(UI_C_RIGHT) | A_BOLD);
    }
    if (r.has_decode) {
        /* core's ceiling: the lower of the memory and the compute one, none
         * when the weights or the batch's KV do not fit (CALC-CONTRACT.md) */
        char b[80], nb[32], ctx[32];
        snprintf(b, sizeof b, "%s at %s tokens", kvt_fmt_int(c->batch, nb, sizeof nb),
                 kvt_fmt_int(c->seq, ctx, sizeof ctx));
        if (r.decode_reason == KV_DECODE_WEIGHTS_DONT_FIT) {
            snprintf(line, sizeof line, "Decode: batch %s: none, the weights do not fit", b);
        } else if (r.decode_reason == KV_DECODE_KV_DOESNT_FIT) {
            snprintf(line, sizeof line,
                     "Decode: batch %s: none, %s sequences do not fit in %s KV tokens", b, nb,
                     kvt_fmt_int(r.kv_tokens, a2, sizeof a2));
        } else {
            snprintf(line, sizeof line, "Decode: batch %s, %s tok/s (%s each), %s-bound", b,
                     kvt_fmt_rate(r.decode_tokens_per_s, a1, sizeof a1),
                     kvt_fmt_rate(r.decode_tokens_per_s_seq, a3, sizeof a3),
                     r.compute_bound ? "compute" : "memory");
        }
        y += calc_put_wrapped(y, 2, cols - 4, 2, line, A_NORMAL);
    }
    y++;
    if (c->arithmetic) {
        snprintf(line, sizeof line, "per token  %s B over every layer (%s B a layer on one GPU)",
                 kvt_fmt_int(r.kv_bytes_per_token, a1, sizeof a1),
                 kvt_fmt_int(r.layer_token_bytes, a2, sizeof a2));
        ui_put(y++, 2, cols - 4, line, A_NORMAL);
        snprintf(line, sizeof line, "block      %u tokens × %s B × %u layer slots = %s",
                 r.deploy.block_size, kvt_fmt_int(r.layer_token_bytes, a1, sizeof a1),
                 r.tensors_per_gpu, kvt_fmt_bytes((double)r.block_set_bytes, a2, sizeof a2));
        ui_put(y++, 2, cols - 4, line, A_NORMAL);
        if (r.reason == KV_REASON_WEIGHTS_DONT_FIT) {
            snprintf(line, sizeof line, "budget     %s GiB × %s − %s weights < 0: none",
                     kvt_fmt_real(g->memory_gib, 2, a1, sizeof a1), util,
                     kvt_fmt_bytes((double)r.weights_bytes, a2, sizeof a2));
            ui_put(y++, 2, cols - 4, line, A_NORMAL);
            return;
        }
        snprintf(line, sizeof line, "budget     %s GiB × %s − %s weights = %s",
                 kvt_fmt_real(g->memory_gib, 2, a1, sizeof a1), util,
                 kvt_fmt_bytes((double)r.weights_bytes, a2, sizeof a2),
                 kvt_fmt_gib_vllm((double)r.kv_budget_bytes, a3, sizeof a3));
        ui_put(y++, 2, cols - 4, line, A_NORMAL);
        snprintf(line, sizeof line, "blocks     %s ÷ %s = %s; a sequence needs %s → %s", a3,
                 kvt_fmt_bytes((double)r.block_set_bytes, a4, sizeof a4),
                 kvt_fmt_int(r.num_gpu_blocks, a1, sizeof a1),
                 kvt_fmt_int(r.blocks_per_request, a2, sizeof a2),
                 kvt_fmt_concurrency_vllm(r.max_concurrency, a5, sizeof a5));
        ui_put(y++, 2, cols - 4, line, A_NORMAL);
        return;
    }
    if (r.reason == KV_REASON_WEIGHTS_DONT_FIT)
        return; /* no concurrency at any length: no chart of zeros */
    /* the chart: concurrency against context length, 1k to 128k */
    ui_put(y++, 2, cols - 4, "Max concurrency against context length",
           ui_color(UI_C_HEADING) | A_BOLD);
    {
        /* a row a length, its figure as vLLM logs "Maximum concurrency for
         * N tokens per request" (the line above too); a length vLLM refuses
         * for this model says why instead of drawing a zero */
        double most = 0, conc[8];
        bool past[8];
        const struct kv_model *m =
            c->model == SIZE_MAX ? &c->config : &kv_model_presets(&n)[c->model].model;
        for (int i = 0; i < 8; i++) {
            struct kv_result rr;
            enum kv_field why = KV_FIELD__COUNT;
            bool ok = run(c, (uint64_t)1024 << i, &rr, &why) == KVT_E_OK;
            conc[i] = ok ? rr.max_concurrency : 0;
            past[i] = !ok && why == KV_FIELD_MAX_MODEL_LEN && m->max_position &&
                      ((uint64_t)1024 << i) > m->max_position;
            if (conc[i] > most)
                most = conc[i];
        }
        /* too short for all eight rows: a window of them, j/k move it, and
         * the last row says what is past it */
        int room = top + rows - y, first = 0, last = 8;
        if (room < 8) {
            int shown = room > 2 ? room - 1 : 1;
            c->chart_max_top = 8 - shown;
            if (c->chart_top > c->chart_max_top)
                c->chart_top = c->chart_max_top;
            first = c->chart_top;
            last = first + shown;
        } else {
            c->chart_top = c->chart_max_top = 0;
        }
        for (int i = first; i < last && y < top + rows; i++, y++) {
            double part = most > 0 ? conc[i] / most : 0;
            attr_t at = ((uint64_t)1024 << i) == c->seq ? ui_color(UI_C_RIGHT) | A_BOLD : A_NORMAL;
            snprintf(line, sizeof line, "%4uk", 1u << i);
            ui_put(y, 2, 6, line, at);
            if (past[i]) {
                snprintf(line, sizeof line, "past the model's %s positions: vLLM refuses it",
                         kvt_fmt_int(m->max_position, a1, sizeof a1));
                ui_put(y, 8, cols - 10, line, A_DIM);
                continue;
            }
            bar(y, 8, (int)lround(part * (cols - 24)), (double[]){1}, (attr_t[]){at}, 1);
            kvt_fmt_concurrency_vllm(conc[i], line, sizeof line);
            ui_put(y, cols - 14, 12, line, at);
        }
        if (first > 0 || last < 8)
            ui_put(y, 2, cols - 4,
                   first > 0 && last < 8 ? "more above: k · more below: j"
                   : last < 8            ? "more below: j"
                                         : "more above: k",
                   A_DIM);
    }
}

static void cycle(size_t *i, size_t n, bool back)
{
    *i = back ? (*i + n - 1) % n : (*i + 1) % n;
}

/* A log shown was explained against the model before: its figures would
 * sit under a model they are not for, so it closes and says how to see it
 * again (the model the log is explained against: ui_calc_log.c). */
static void model_changed(struct calc *c, struct ui *ui)
{
    if (!c->ex)
        return;
    calc_log_close(c);
    ui_say(ui, UI_INFO,
           "the log closed: it was explained against the model before; l opens it again%s",
           c->model == SIZE_MAX ? " against this config.json" : " against the model it names");
}

static void calc_action(void *self, struct ui *ui, enum ui_action a)
{
    struct calc *c = self;
    size_t n;

    if (c->serving && calc_sim_action(c, ui, a))
        return;
    switch (a) {
    case UI_CALC_SERVE:
        if (c->serving)
            c->serving = false;
        else if (!calc_sim_open(c))
            ui_say(ui, UI_BAD, "out of memory for the serving view");
        else if (c->ex)
            calc_log_close(c); /* the log's settings stay on the knobs */
        return;
    case UI_BACK:
        /* opened from an exercise, q goes back to it, as it came */
        if (c->serving && !c->from_lesson) {
            c->serving = false;
            return;
        }
        if (c->ex) {
            calc_log_close(c);
            return;
        }
        ui_pop(ui);
        return;
    case UI_UP:
        if (c->ex && c->log_top > 0)
            c->log_top--;
        else if (!c->ex && c->chart_top > 0)
            c->chart_top--;
        return;
    case UI_DOWN:
        if (c->ex && c->log_top < calc_log_max_top(c))
            c->log_top++;
        else if (!c->ex && c->chart_top < c->chart_max_top)
            c->chart_top++;
        return;
    case UI_CALC_PAGE_DOWN:
        if (c->ex) {
            size_t page = c->log_rows > 1 ? (size_t)c->log_rows - 1 : 1;
            c->log_top =
                c->log_top + page < calc_log_max_top(c) ? c->log_top + page : calc_log_max_top(c);
        }
        return;
    case UI_CALC_PAGE_UP:
        if (c->ex) {
            size_t page = c->log_rows > 1 ? (size_t)c->log_rows - 1 : 1;
            c->log_top = c->log_top > page ? c->log_top - page : 0;
        }
        return;
    case UI_CALC_TOP:
        c->log_top = 0;
        return;
    case UI_CALC_BOTTOM:
        c->log_top = calc_log_max_top(c);
        return;
    case UI_CALC_MODEL_NEXT:
    case UI_CALC_MODEL_PREV:
        kv_model_presets(&n);
        if (c->model == SIZE_MAX)
            c->model = 0;
        else
            cycle(&c->model, n, a == UI_CALC_MODEL_PREV);
        model_changed(c, ui);
        break;
    case UI_CALC_GPU_NEXT:
    case UI_CALC_GPU_PREV:
        kv_gpu_presets(&n);
        cycle(&c->gpu, n, a == UI_CALC_GPU_PREV);
        break;
    case UI_CALC_CONTEXT_UP:
        if (c->seq < ((uint64_t)1 << 20))
            c->seq *= 2;
        break;
    case UI_CALC_CONTEXT_DOWN:
        if (c->seq > 1024)
            c->seq /= 2;
        break;
    case UI_CALC_BATCH_UP:
        if (c->batch < 4096)
            c->batch *= 2;
        break;
    case UI_CALC_BATCH_DOWN:
        if (c->batch > 1)
            c->batch /= 2;
        break;
    case UI_CALC_KV:
        c->kv = (c->kv + 1) % TUTOR_SIM_N_KV_TYPES;
        break;
    case UI_CALC_WEIGHTS:
        c->weights = (c->weights + 1) % TUTOR_SIM_N_WEIGHT_TYPES;
        break;
    case UI_CALC_UTIL_UP:
        /* steps of 5 within [50, 100]; the default (92) is off the grid */
        if (c->util_pct < 100)
            c->util_pct = c->util_pct + 5 > 100 ? 100 : c->util_pct + 5;
        break;
    case UI_CALC_UTIL_DOWN:
        if (c->util_pct > 50)
            c->util_pct = c->util_pct - 5 < 50 ? 50 : c->util_pct - 5;
        break;
    case UI_CALC_TP_UP:
        if (c->tp < 64)
            c->tp *= 2;
        break;
    case UI_CALC_TP_DOWN:
        if (c->tp > 1)
            c->tp /= 2;
        break;
    case UI_CALC_SHOW:
        c->arithmetic = !c->arithmetic;
        break;
    case UI_CALC_CONFIG:
        ui_edit_clear(&c->path); /* as a log: never the last path typed */
        c->typing = true;
        c->typing_log = false;
        c->typing_params = false;
        break;
    case UI_CALC_LOG:
        ui_edit_clear(&c->path); /* a log is asked for afresh each time */
        c->typing = true;
        c->typing_log = true;
        c->typing_params = false;
        break;
    case UI_COMPLETE_PATH: {
        char done[1024], names[512];
        size_t found = tutor_path_complete(c->path.buf, done, sizeof done, names, sizeof names);
        if (found == 0)
            ui_say(ui, UI_INFO, "no file or folder begins with that");
        else if (found > 1)
            ui_say(ui, UI_INFO, "%zu matches: %s", found, names);
        ui_edit_set(&c->path, done);
        break;
    }
    case UI_CANCEL:
        if (c->typing_params) {
            ui_say(ui, UI_INFO, "%s not loaded: its weights are unknown without a parameter count",
                   c->pending_name);
            c->typing_params = false;
            ui_edit_clear(&c->path);
        }
        c->typing = false;
        break;
    case UI_SUBMIT: {
        struct hf_config_info info;
        struct kv_model m;
        char why[400];
        if (c->typing_log) {
            c->typing = false;
            calc_log_open(c, ui, c->path.buf);
            break;
        }
        if (c->typing_params) {
            double b;
            char a1[32];
            if (!parse_billions(c->path.buf, &b)) {
                ui_say(ui, UI_BAD,
                       "parameters: a count in billions, like 7.6 (or 7.6B); Esc leaves the file");
                break;
            }
            c->pending.params_b = b;
            c->config = c->pending;
            snprintf(c->config_name, sizeof c->config_name, "%s", c->pending_name);
            c->model = SIZE_MAX;
            c->typing = c->typing_params = false;
            ui_edit_clear(&c->path);
            ui_say(ui, UI_GOOD, "%s loaded, with %sB parameters", c->config_name,
                   kvt_fmt_amount(b, a1, sizeof a1));
            model_changed(c, ui);
            break;
        }
        if (tutor_config_load(c->path.buf, &m, &info, why, sizeof why) != KVT_E_OK) {
            ui_say(ui, UI_BAD, "%s", why);
            break;
        }
        if (tutor_config_needs_params(&m)) {
            /* as calc does: without a count the weights are unknown, so ask */
            c->pending = m;
            snprintf(c->pending_name, sizeof c->pending_name, "%s", c->path.buf);
            c->typing_params = true;
            ui_edit_clear(&c->path);
            ui_say(ui, UI_INFO,
                   "%s gives no parameter count, so its weights are unknown: type the count in "
                   "billions",
                   c->pending_name);
            break;
        }
        c->config = m;
        snprintf(c->config_name, sizeof c->config_name, "%s", c->path.buf);
        c->model = SIZE_MAX;
        c->typing = false;
        /* the error line of an earlier try is stale now */
        ui_say(ui, UI_GOOD, "%s loaded", c->config_name);
        model_changed(c, ui);
        break;
    }
    default:
        break;
    }
}

static void calc_text(void *self, struct ui *ui, uint32_t cp)
{
    struct calc *c = self;
    (void)ui;
    ui_edit_insert(&c->path, cp);
}

static void calc_edit_key(void *self, struct ui *ui, int key)
{
    struct calc *c = self;
    (void)ui;
    ui_edit_key(&c->path, key);
}

static void calc_destroy(void *self)
{
    struct calc *c = self;
    if (c) {
        calc_log_close(c);
        calc_sim_free(c);
    }
    free(c);
}

static const struct ui_screen_ops ops = {
    .name = "calc",
    .context = calc_context,
    .title = calc_title,
    .draw = calc_draw,
    .action = calc_action,
    .text = calc_text,
    .edit_key = calc_edit_key,
    .destroy = calc_destroy,
};

struct ui_screen ui_calc_new(struct ui *ui)
{
    struct calc *c = calloc(1, sizeof *c);
    (void)ui;
    if (!c)
        return (struct ui_screen){&ops, NULL};
    /* the first lesson's example: Qwen2.5-7B on a 24 GB card at 8k */
    c->model = index_of("qwen2.5-7b", false);
    c->gpu = index_of("rtx4090", true);
    c->seq = 8192;
    c->batch = 1;
    {
        /* the default release's gpu_memory_utilization, as `kvtutor calc` takes it */
        struct kv_rules rules;
        kv_vllm_rules(NULL, &rules);
        c->util_pct = (int)lround(rules.util_default * 100.0);
    }
    c->tp = 1;
    ui_edit_clear(&c->path);
    return (struct ui_screen){&ops, c};
}

struct ui_screen ui_calc_serving_new(struct ui *ui, const struct tutor_sim_setup *s)
{
    struct ui_screen scr = ui_calc_new(ui);
    struct calc *c = scr.self;
    size_t n;
    const struct kv_model_preset *models = kv_model_presets(&n);
    const struct kv_gpu_preset *gpus;

    if (!c)
        return scr;
    for (size_t i = 0; i < n; i++)
        if (&models[i].model == s->model)
            c->model = i;
    gpus = kv_gpu_presets(&n);
    for (size_t i = 0; i < n; i++)
        if (&gpus[i] == s->gpu)
            c->gpu = i;
    /* the length kv.sim takes when none is given: the model's */
    c->seq = s->max_model_len         ? s->max_model_len
             : s->model->max_position ? s->model->max_position
                                      : c->seq;
    if (s->util > 0)
        c->util_pct = (int)lround(s->util * 100.0);
    c->tp = s->tp ? s->tp : 1;
    for (unsigned i = 0; i < TUTOR_SIM_N_KV_TYPES; i++)
        if (tutor_sim_kv_types[i] == s->kv_dtype)
            c->kv = i;
    for (unsigned i = 0; i < TUTOR_SIM_N_WEIGHT_TYPES; i++)
        if (tutor_sim_weight_types[i] == s->weights_dtype)
            c->weights = i;
    c->from_lesson = true;
    if (!calc_sim_open_at(c, s->input_len, s->output_len, s->request_rate, s->max_concurrency)) {
        calc_destroy(c);
        return (struct ui_screen){&ops, NULL};
    }
    return scr;
}
