/* The calculator playground's state, shared by its screen (ui_calc.c) and
 * its vLLM log view (ui_calc_log.c). Private to those two files. */
#ifndef KVT_UI_CALC_PRIV_H
#define KVT_UI_CALC_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kv_calc.h"
#include "kvt_text.h"
#include "tutor_sim.h"
#include "ui_app.h"
#include "ui_draw.h"
#include "ui_edit.h"
#include "vllm_explain.h"
#include "vllm_log.h"

/* The KV cache and weight types the playground cycles through (v, w) are
 * tutor_sim_kv_types and tutor_sim_weight_types: a lesson's serving setup
 * is held to the same lists. */

struct calc {
    size_t model, gpu; /* preset indices; model SIZE_MAX: the loaded config */
    struct kv_model config;
    char config_name[1024];
    uint64_t seq, batch;
    unsigned kv, weights; /* indices into the type lists */
    int util_pct;         /* gpu_memory_utilization x 100 */
    uint32_t tp;
    bool arithmetic, typing;
    bool typing_log; /* the path typed is a vLLM log, not a config.json */
    /* a config.json that gives no parameter count waits here while its
     * count is asked for: the weights are never drawn as 0 B */
    bool typing_params;
    struct kv_model pending;
    char pending_name[1024];
    struct ui_edit path;

    /* an explained vLLM log; NULL when none is shown */
    struct vllm_explain *ex;
    struct ui_lines log_lines; /* laid out for log_width columns */
    int log_width;
    size_t log_top; /* first line shown */
    int log_rows;   /* the rows the log had when last drawn: how far it pages */
    /* the concurrency chart's first row when the screen is too short for all
     * eight (j/k scroll it); chart_max_top: the last drawn limit */
    int chart_top, chart_max_top;
    char log_title[600];
    char log_name[KVT_SAFE_FIELD]; /* the log's file name, whole on a line of its own */
    char log_model[1400];          /* which model explains it, and why that one */
    char *log_text;                /* the lines the verdicts quote live in it */
    struct vllm_log *log;

    /* the serving view (ui_calc_sim.c): open while `serving` */
    bool serving;
    bool from_lesson; /* opened on an exercise's setup: q goes back to the exercise */
    struct calc_sim *sim;
};

/* Text wrapped to `width` columns from row y, later rows indented by
 * `hang`; returns the rows used. */
int calc_put_wrapped(int y, int x, int width, int hang, const char *text, attr_t attr);

/* Items joined by `sep`, as many to a row as fit in `width`, the rows after
 * the first indented by 2: a row breaks between items, never inside one.
 * Returns the rows used. */
int calc_put_items(int y, int x, int width, const char *const *items, size_t n, const char *sep,
                   attr_t attr);

/* Opens the serving view on the playground's settings (its workload kept
 * from the last time); false when out of memory. */
bool calc_sim_open(struct calc *c);
/* The same, at a workload of its own (a lesson's setup). */
bool calc_sim_open_at(struct calc *c, uint64_t input, uint64_t output, double rate,
                      uint64_t concurrency);
void calc_sim_free(struct calc *c);

/* Draws the serving view from row y (the model and knob rows above it). */
void calc_sim_draw(struct calc *c, int y, int top, int rows, int cols);

/* The view's own keys (rate, concurrency, lengths, fp8); false for a key
 * that is not one of them. */
bool calc_sim_action(struct calc *c, struct ui *ui, enum ui_action a);

/* Drops the log shown, if any: the chart comes back. */
void calc_log_close(struct calc *c);

/* Lays the explanation out as lines of `width` columns: the same verdicts
 * and words as `kvtutor explain-log`. */
void calc_log_layout(struct calc *c, int width);

/* The log's last first line: the one that puts its end on the last row
 * drawn (0 when it fits). */
size_t calc_log_max_top(const struct calc *c);

/* Opens a vLLM start-up log as `kvtutor explain-log` does and points the
 * playground's knobs at its settings; on failure says why on the message
 * line and keeps what was shown. */
void calc_log_open(struct calc *c, struct ui *ui, const char *path);

#endif
