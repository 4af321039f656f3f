/* The playground's vLLM log view: a start-up log read, recomputed and
 * explained by the same code as `kvtutor explain-log`, laid out as lines the
 * playground scrolls in place of its chart. */
#include "ui_calc_priv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kv_presets.h"
#include "kvt_format.h"
#include "tutor_vllm_log.h"
#include "ui_term.h"

void calc_log_close(struct calc *c)
{
    ui_lines_free(&c->log_lines);
    free(c->ex);
    free(c->log);
    free(c->log_text);
    c->ex = NULL;
    c->log = NULL;
    c->log_text = NULL;
    c->log_width = 0;
    c->log_top = 0;
}

/* The explanation as lines of `width` columns: the same verdicts and words
 * as `kvtutor explain-log`. */
size_t calc_log_max_top(const struct calc *c)
{
    size_t rows = c->log_rows > 0 ? (size_t)c->log_rows : 1;
    return c->log_lines.n > rows ? c->log_lines.n - rows : 0;
}

void calc_log_layout(struct calc *c, int width)
{
    const struct vllm_explain *ex = c->ex;
    struct ui_lines *l = &c->log_lines;
    char buf[2 * VLLM_WHY_MAX], text[1024], a1[32], a2[32];
    bool utf8 = ui_term_utf8();

    ui_lines_free(l);
    c->log_width = width;
    /* lines from column 2, as the playground's own; the file named whole */
    snprintf(buf, sizeof buf, "File: %s", c->log_name);
    ui_lines_text(l, buf, width, 1, A_DIM);
    ui_lines_text(l, c->log_model, width, 1, c->model == SIZE_MAX ? ui_color(UI_C_WARN) : A_DIM);
    if (ex->assumed[0]) {
        snprintf(buf, sizeof buf, "Assumed: %s", ex->assumed);
        ui_lines_text(l, buf, width, 1, A_DIM);
    }
    if (ex->blocked[0]) {
        snprintf(buf, sizeof buf, "Not recomputed: %s", ex->blocked);
        ui_lines_text(l, buf, width, 1, ui_color(UI_C_WARN));
    }
    for (size_t i = 0; i < ex->n; i++) {
        const struct vllm_verdict *v = &ex->v[i];
        const struct vllm_line *ln = v->line;

        ui_lines_blank(l);
        kvt_sanitize(c->log_text + ln->msg, ln->msg_len, text, sizeof text, 0);
        /* the logged line whole, wrapped under its text (cut at the
         * screen's edge it read as a shorter line of vLLM's), verbatim:
         * a log's * and ` are its own characters, not markup */
        {
            int label = snprintf(buf, sizeof buf, "line %zu  ", ln->line_no);
            size_t len = strlen(text), pos = 0, next;
            while (pos < len) {
                int room = width - 1 - label;
                size_t take = kvt_wrap_line(text + pos, len - pos, room > 20 ? room : 20, &next);
                if (take == 0)
                    break;
                if (pos == 0) {
                    snprintf(buf + label, sizeof buf - (size_t)label, "%.*s", (int)take, text);
                    ui_lines_verbatim(l, buf, 1, A_BOLD);
                } else {
                    snprintf(buf, sizeof buf, "%.*s", (int)take, text + pos);
                    ui_lines_verbatim(l, buf, 1 + label, A_BOLD);
                }
                pos += next;
            }
        }
        if (v->has_computed) {
            bool whole = ln->kind == VLLM_LINE_KV_TOKENS || ln->kind == VLLM_LINE_GPU_BLOCKS ||
                         ln->kind == VLLM_LINE_ATTN_BLOCK || ln->kind == VLLM_LINE_PAD_LAYERS;
            /* as explain-log writes them: "58.11x", "476,016" */
            snprintf(
                buf, sizeof buf, "logged %s, computed %s  %s",
                vllm_explain_figure(ln->kind, whole ? (double)ln->count : ln->value, a1, sizeof a1),
                vllm_explain_figure(ln->kind, v->computed, a2, sizeof a2),
                v->match == VLLM_MATCH_YES ? (utf8 ? "\xe2\x9c\x93 match" : "ok match")
                                           : (utf8 ? "\xe2\x9c\x97 differs" : "x differs"));
            ui_lines_verbatim(l, buf, 3,
                              v->match == VLLM_MATCH_YES ? ui_color(UI_C_RIGHT)
                                                         : ui_color(UI_C_WRONG));
        }
        ui_lines_text(l, v->how, width, 3, A_NORMAL);
        if (v->would_match[0]) {
            snprintf(buf, sizeof buf, "What would make it match: %s", v->would_match);
            ui_lines_text(l, buf, width, 3, A_NORMAL);
        }
        if (v->change[0]) {
            snprintf(buf, sizeof buf, "What would change it: %s", v->change);
            ui_lines_text(l, buf, width, 3, A_DIM);
        }
    }
}

/* Opens a vLLM log as `kvtutor explain-log` does; on failure says why and
 * keeps what was shown. */
void calc_log_open(struct calc *c, struct ui *ui, const char *path)
{
    size_t n, len;
    const struct kv_model_preset *models = kv_model_presets(&n), *p = NULL;
    struct vllm_log *log = calloc(1, sizeof *log);
    struct vllm_explain *ex = calloc(1, sizeof *ex);
    char why[400], *text = NULL, name[KVT_SAFE_FIELD], ver[32], which[80] = "";
    struct vllm_run runs[VLLM_LOG_MAX_RUNS];
    size_t nr, run = 0;
    struct kv_model m;
    enum kv_field bad = KV_FIELD_NONE;
    enum kvt_err e;

    if (!log || !ex)
        goto fail;
    if (tutor_vllm_log_read(path, NULL, &text, &len, why, sizeof why) != 0) {
        ui_say(ui, UI_BAD, "%s", why);
        goto fail;
    }
    /* a log kept across restarts holds several start-ups: the last one that
     * set up a KV cache is the server as it runs now (explain-log shows all) */
    nr = vllm_log_runs(text, len, runs, VLLM_LOG_MAX_RUNS, NULL);
    for (size_t i = nr; i-- > 0;) {
        run = i;
        vllm_log_parse_run(text, &runs[i], log);
        if (log->n_lines || log->n_errors)
            break;
    }
    kvt_safe(path, name, sizeof name);
    for (size_t i = 0; i < log->n_problems; i++)
        if (log->problems[i].error) { /* refused as explain-log refuses it */
            ui_say(ui, UI_BAD, "%s:%zu: %s", name, log->problems[i].line_no, log->problems[i].what);
            goto fail;
        }
    if (log->n_lines == 0) {
        ui_say(ui, UI_BAD, "%s: no capacity line: is it a vLLM start-up log?", name);
        goto fail;
    }
    /* the config.json opened with o is the model given, as explain-log's --config */
    switch (tutor_log_model(log, c->model == SIZE_MAX ? &c->config : NULL, &m, &p)) {
    case TUTOR_LOG_MODEL_GIVEN:
    case TUTOR_LOG_MODEL_PRESET:
        break;
    case TUTOR_LOG_MODEL_UNNAMED:
    case TUTOR_LOG_MODEL_UNKNOWN:
        ui_say(ui, UI_BAD,
               "the log's model %s is not a preset: open its config.json (o), then the log",
               log->args.model[0] ? kvt_safe(log->args.model, why, KVT_SAFE_FIELD) : "(not named)");
        goto fail;
    }
    e = vllm_explain(log, &m, ui_term_utf8(), ex, &bad);
    if (e != KVT_E_OK) {
        ui_say(ui, UI_BAD, "the model under the log's settings: %s (%s)", kvt_strerror(e),
               kv_field_name(bad));
        goto fail;
    }
    calc_log_close(c);
    c->ex = ex;
    c->log = log;
    c->log_text = text;
    if (p)
        c->model = (size_t)(p - models);
    /* which model the figures are computed for: an opened config.json wins
     * over the model the log names (tutor_log_model), so say so, and how
     * to explain the log under its own */
    if (!p && log->args.model[0])
        snprintf(c->log_model, sizeof c->log_model,
                 "Model: %s, the config.json opened with o, not the log's %s: an opened "
                 "config wins (explain-log's --config). For the log's own model, pick a preset "
                 "with m and open the log again",
                 c->config_name, kvt_safe(log->args.model, why, KVT_SAFE_FIELD));
    else if (!p)
        snprintf(c->log_model, sizeof c->log_model,
                 "Model: %s, the config.json opened with o (the log names none)", c->config_name);
    else
        snprintf(c->log_model, sizeof c->log_model, "Model: %s (the preset %.*s), named by the log",
                 p->id, (int)strcspn(p->alias, ","), p->alias);
    {
        const char *base = strrchr(path, '/');
        if (nr > 1)
            snprintf(which, sizeof which, " (start-up %zu of %zu, lines %zu to %zu)", run + 1, nr,
                     runs[run].first_line, runs[run].last_line);
        snprintf(c->log_title, sizeof c->log_title,
                 "vLLM %s log%s: %zu match, %zu differ, %zu not recomputed",
                 log->version[0] ? kvt_safe(log->version, ver, sizeof ver) : "(version not stated)",
                 which, ex->matched, ex->mismatched, ex->unchecked);
        kvt_safe(base ? base + 1 : path, c->log_name, sizeof c->log_name);
    }
    /* the knobs the playground has follow the log, for when it is closed */
    if (log->args.max_model_len >= 1024 && log->args.max_model_len <= ((uint64_t)1 << 20))
        c->seq = log->args.max_model_len;
    if (log->args.tp >= 1 && log->args.tp <= 64)
        c->tp = log->args.tp;
    if (log->args.gpu_memory_utilization >= 0.5)
        c->util_pct = (int)lround(log->args.gpu_memory_utilization * 100);
    {
        enum kv_dtype t;
        if (log->args.kv_cache_dtype[0] && kv_dtype_parse(log->args.kv_cache_dtype, &t))
            for (unsigned k = 0; k < TUTOR_SIM_N_KV_TYPES; k++)
                if (tutor_sim_kv_types[k] == t)
                    c->kv = k;
    }
    ui_say(ui, UI_INFO, "q closes the log, j/k scroll it");
    return;
fail:
    free(text);
    free(log);
    free(ex);
}
