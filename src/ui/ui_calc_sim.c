/* The playground's serving view (key s): the playground's model, GPU and
 * knobs served a benchmark's load by the simulator `kvtutor sim` runs,
 * through tutor_sim.h. The learner changes the rate, the client's
 * concurrency, the lengths, fp8 KV and TP and sees
 *   - TTFT and TPOT (median, p99) and the throughput as vLLM's benchmark
 *     prints them (two decimals), and what capped the running batch;
 *   - the knee: p99 TTFT and TPOT against the request rate, a sweep of
 *     rates around the capacity, as bars;
 *   - KV usage and the running batch over the run, as sparklines;
 *   - the `kvtutor sim` command that gives the same figures.
 * Figures are in the course's format (kvt_format.h), the knee's and the
 * headline's alike. Where the terminal is too short for all of it, the view
 * scrolls (j/k, Space/b), the headline first, and says there is more below.
 * A run is tutor_sim_prompts requests, every point of the sweep too; the
 * results are kept until an input changes, so a redraw runs nothing. */
#include "ui_app.h"
#include "ui_calc_priv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kv_presets.h"
#include "kvt_format.h"
#include "tutor_sim.h"
#include "ui_draw.h"
#include "ui_term.h"

/* i and o stop doubling here: a prompt of 128k tokens; outputs of 4k, whose
 * sweep (100 requests a point, tutor_sim_prompts) takes about half a second */
#define MAX_INPUT       ((uint64_t)1 << 17)
#define MAX_OUTPUT      ((uint64_t)1 << 12)
#define MAX_CONCURRENCY 1024 /* n past this: no client limit */
#define LABEL_W         8    /* "  ▶ 12.5" and "KV used " */
#define SPARK_SUFFIX_W  24   /* " of 100% · 1,234 s", " mean 12.3 running" */
#define DEFAULT_RATE    2    /* req/s: below the knee of the first setting */
#define DEFAULT_INPUT   1024 /* kvtutor sim's defaults */
#define DEFAULT_OUTPUT  128

/* What a result was computed from: the view reruns when any of it changes. */
struct sim_key {
    size_t model, gpu;
    char config_name[1024];
    double params_b;
    uint64_t seq, input, output, concurrency;
    int util_pct;
    uint32_t tp;
    unsigned kv, weights;
    double rate; /* not in the sweep's key */
    size_t columns;
};

struct calc_sim {
    uint64_t input, output, concurrency;
    double rate;
    bool have_run, have_sweep;
    struct sim_key run_key, sweep_key;
    enum kvt_err run_err, sweep_err;
    char run_why[300], sweep_why[300];
    struct tutor_sim_result res;
    struct tutor_sim_timeline tl;
    struct tutor_sim_sweep sw;
    int first;       /* the view's first row shown, when it is taller than the screen */
    int view, total; /* rows shown and rows laid out, at the last draw */
};

bool calc_sim_open(struct calc *c)
{
    if (!c->sim) {
        c->sim = calloc(1, sizeof *c->sim);
        if (!c->sim)
            return false;
        c->sim->input = DEFAULT_INPUT;
        c->sim->output = DEFAULT_OUTPUT;
        c->sim->rate = DEFAULT_RATE;
    }
    c->serving = true;
    return true;
}

bool calc_sim_open_at(struct calc *c, uint64_t input, uint64_t output, double rate,
                      uint64_t concurrency)
{
    if (!calc_sim_open(c))
        return false;
    c->sim->input = input;
    c->sim->output = output;
    c->sim->rate = rate;
    c->sim->concurrency = concurrency;
    c->sim->have_run = c->sim->have_sweep = false;
    return true;
}

void calc_sim_free(struct calc *c)
{
    free(c->sim);
    c->sim = NULL;
    c->serving = false;
}

static const struct kv_model *the_model(const struct calc *c)
{
    size_t n;
    return c->model == SIZE_MAX ? &c->config : &kv_model_presets(&n)[c->model].model;
}

static void setup_of(const struct calc *c, struct tutor_sim_setup *s)
{
    size_t n;
    memset(s, 0, sizeof *s);
    s->model = the_model(c);
    s->gpu = &kv_gpu_presets(&n)[c->gpu];
    s->max_model_len = c->seq;
    s->util = c->util_pct / 100.0;
    s->tp = c->tp;
    s->kv_dtype = tutor_sim_kv_types[c->kv];
    s->weights_dtype = tutor_sim_weight_types[c->weights];
    s->input_len = c->sim->input;
    s->output_len = c->sim->output;
    s->request_rate = c->sim->rate;
    s->max_concurrency = c->sim->concurrency;
}

static void key_of(const struct calc *c, size_t columns, bool with_rate, struct sim_key *k)
{
    memset(k, 0, sizeof *k); /* the padding too: keys are compared whole */
    k->model = c->model;
    k->gpu = c->gpu;
    if (c->model == SIZE_MAX) {
        snprintf(k->config_name, sizeof k->config_name, "%s", c->config_name);
        k->params_b = c->config.params_b;
    }
    k->seq = c->seq;
    k->input = c->sim->input;
    k->output = c->sim->output;
    k->concurrency = c->sim->concurrency;
    k->util_pct = c->util_pct;
    k->tp = c->tp;
    k->kv = c->kv;
    k->weights = c->weights;
    k->rate = with_rate ? c->sim->rate : 0;
    k->columns = with_rate ? columns : 0;
}

/* Runs what changed since the last draw. */
static void recompute(struct calc *c, size_t columns)
{
    struct calc_sim *v = c->sim;
    struct tutor_sim_setup s;
    struct sim_key k;

    setup_of(c, &s);
    key_of(c, columns, true, &k);
    if (!v->have_run || memcmp(&k, &v->run_key, sizeof k) != 0) {
        v->run_err = tutor_sim_run(&s, &v->res, &v->tl, columns, v->run_why, sizeof v->run_why);
        v->run_key = k;
        v->have_run = true;
    }
    key_of(c, columns, false, &k);
    if (!v->have_sweep || memcmp(&k, &v->sweep_key, sizeof k) != 0) {
        v->sweep_err = tutor_sim_sweep(&s, &v->sw, v->sweep_why, sizeof v->sweep_why);
        v->sweep_key = k;
        v->have_sweep = true;
    }
}

static const char *rate_text(double rate, char *buf, size_t cap)
{
    char a[32];
    if (isinf(rate))
        snprintf(buf, cap, "inf (all at once)");
    else
        snprintf(buf, cap, "%s req/s", kvt_fmt_amount(rate, a, sizeof a));
    return buf;
}

/* A bar of `cells` whole cells and eighths, at least a sliver when v > 0. */
static void hbar(int y, int x, int width, double share, attr_t attr)
{
    static const char *const eighths[] = {"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"};
    bool utf8 = ui_term_utf8();
    double e = share * width * 8;
    int whole, part;

    y = ui_scroll_row(y);
    if (!(share > 0) || y < 0)
        return;
    if (e < 1)
        e = 1;
    whole = (int)(e / 8);
    part = (int)e % 8;
    attron(attr);
    for (int i = 0; i < whole && i < width; i++)
        mvaddstr(y, x + i, utf8 ? "█" : "#");
    if (part && whole < width)
        mvaddstr(y, x + whole, utf8 ? eighths[part] : "|");
    attroff(attr);
}

/* A sparkline: each column's value against `top`, in eight heights. */
static void spark(int y, int x, const double *v, size_t n, double top, attr_t attr)
{
    static const char *const utf8[] = {"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
    static const char ascii[] = "_.-~=+*#";
    bool u = ui_term_utf8();

    y = ui_scroll_row(y);
    if (y < 0)
        return;
    attron(attr);
    for (size_t i = 0; i < n; i++) {
        int level;
        if (!(v[i] > 0) || !(top > 0)) {
            mvaddstr(y, x + (int)i, " ");
            continue;
        }
        level = (int)ceil(v[i] / top * 8) - 1;
        level = level < 0 ? 0 : level > 7 ? 7 : level;
        if (u)
            mvaddstr(y, x + (int)i, utf8[level]);
        else
            mvaddch(y, x + (int)i, (chtype)(unsigned char)ascii[level]);
    }
    attroff(attr);
}

/* The knee: a row a rate, p99 TTFT's bar and figure, then p99 TPOT's. */
static int draw_sweep(const struct calc *c, int y, int width)
{
    const struct calc_sim *v = c->sim;
    const struct tutor_sim_sweep *sw = &v->sw;
    int panel = (width - LABEL_W) / 2, barw = panel - 10;
    double ttft_top = 0, tpot_top = 0;
    char a[48], label_n[32];
    int y0 = y;
    /* the rungs, and the rate shown as a row of its own where no rung is
     * it (past the ladder's top, or between rungs), so the ▶ is always
     * somewhere: its figures are the run the headline reports */
    struct tutor_sim_point pts[TUTOR_SIM_SWEEP + 1];
    size_t n = 0;
    bool on_rung = false, extra;

    if (v->sweep_err != KVT_E_OK)
        return 0;
    for (size_t i = 0; i < sw->n; i++)
        on_rung = on_rung || fabs(sw->p[i].rate - v->rate) <= 1e-9 * sw->p[i].rate;
    /* inf (all at once) goes last, past every rung */
    extra = !on_rung && v->run_err == KVT_E_OK && !isnan(v->rate);
    const struct tutor_sim_point shown = {.rate = v->rate,
                                          .ttft_ms = v->res.m.ttft_ms,
                                          .tpot_ms = v->res.m.tpot_ms,
                                          .request_throughput = v->res.m.request_throughput,
                                          .limit = v->res.m.limit};
    for (size_t i = 0; i < sw->n; i++) {
        if (extra && v->rate < sw->p[i].rate) {
            pts[n++] = shown;
            extra = false;
        }
        pts[n++] = sw->p[i];
    }
    if (extra)
        pts[n++] = shown;
    ui_put(y, 2, LABEL_W, " req/s", ui_color(UI_C_HEADING) | A_BOLD);
    snprintf(a, sizeof a, "p99 TTFT (%s requests each)",
             kvt_fmt_int(tutor_sim_prompts(v->output), label_n, sizeof label_n));
    ui_put(y, 2 + LABEL_W, panel, a, ui_color(UI_C_HEADING) | A_BOLD);
    ui_put(y, 2 + LABEL_W + panel, panel, "p99 TPOT", ui_color(UI_C_HEADING) | A_BOLD);
    y++;
    for (size_t i = 0; i < n; i++) {
        if (pts[i].ttft_ms.p99 > ttft_top)
            ttft_top = pts[i].ttft_ms.p99;
        if (pts[i].tpot_ms.p99 > tpot_top)
            tpot_top = pts[i].tpot_ms.p99;
    }
    for (size_t i = 0; i < n; i++, y++) {
        const struct tutor_sim_point *p = &pts[i];
        bool here = p->rate == v->rate || fabs(p->rate - v->rate) <= 1e-9 * p->rate;
        bool over = p->rate > sw->capacity;
        attr_t at = here ? ui_color(UI_C_RIGHT) | A_BOLD : A_NORMAL;
        attr_t bar_at = over ? ui_color(UI_C_WARN) : ui_color(UI_C_CHART);
        char label[32];
        snprintf(label, sizeof label, "%s%6s", here ? (ui_term_utf8() ? "▶" : ">") : " ",
                 kvt_fmt_amount(p->rate, a, sizeof a));
        ui_put(y, 2, LABEL_W, label, at);
        hbar(y, 2 + LABEL_W, barw, ttft_top > 0 ? p->ttft_ms.p99 / ttft_top : 0,
             here ? at : bar_at);
        ui_put(y, 2 + LABEL_W + barw + 1, 8, kvt_fmt_ms(p->ttft_ms.p99, a, sizeof a), at);
        hbar(y, 2 + LABEL_W + panel, barw, tpot_top > 0 ? p->tpot_ms.p99 / tpot_top : 0,
             here ? at : bar_at);
        ui_put(y, 2 + LABEL_W + panel + barw + 1, 8, kvt_fmt_ms(p->tpot_ms.p99, a, sizeof a), at);
    }
    return y - y0;
}

/* The view laid out from row 0 of its own (ui_scroll_begin places it),
 * most wanted first: the workload, the headline figures, the knee, the
 * timeline, then vLLM's defaults and the command. `roomy`: a blank row
 * between the parts. Returns the rows it takes. */
static int layout(struct calc *c, int width, int spark_w, bool roomy)
{
    struct calc_sim *v = c->sim;
    const struct sim_metrics *m = &v->res.m;
    char line[1400], a1[48], a2[48], a3[48], a4[48], a5[48];
    int y = 0;

    {
        char in[48], out[48], rate[64], conc[64];
        const char *items[4] = {in, out, rate, conc};
        snprintf(in, sizeof in, "input %s", kvt_fmt_int(v->input, a1, sizeof a1));
        snprintf(out, sizeof out, "output %s tokens", kvt_fmt_int(v->output, a1, sizeof a1));
        snprintf(rate, sizeof rate, "rate %s", rate_text(v->rate, a1, sizeof a1));
        if (v->concurrency)
            snprintf(conc, sizeof conc, "concurrency %s",
                     kvt_fmt_int(v->concurrency, a1, sizeof a1));
        else
            snprintf(conc, sizeof conc, "concurrency no limit");
        y += calc_put_items(y, 2, width, items, 4, " · ", A_BOLD);
    }
    if (v->run_err != KVT_E_OK) {
        snprintf(line, sizeof line,
                 "This load cannot be simulated: %s. Keys: i/I and o/O the lengths, c/C the "
                 "context, t/T TP, g/G the GPU.",
                 v->run_why);
        return y + 1 + calc_put_wrapped(y + 1, 2, width, 0, line, ui_color(UI_C_WRONG));
    }
    /* in the course's figures, as the knee below shows them (`kvtutor sim`
     * prints vllm bench serve's two decimals, for holding beside a run) */
    snprintf(
        line, sizeof line, "TTFT median %s, p99 %s · TPOT median %s, p99 %s",
        kvt_fmt_ms(m->ttft_ms.median, a1, sizeof a1), kvt_fmt_ms(m->ttft_ms.p99, a2, sizeof a2),
        kvt_fmt_ms(m->tpot_ms.median, a3, sizeof a3), kvt_fmt_ms(m->tpot_ms.p99, a4, sizeof a4));
    y += calc_put_wrapped(y, 2, width, 2, line, ui_color(UI_C_RIGHT) | A_BOLD);
    {
        char thr[96], tok[64], lim[96];
        const char *items[3] = {thr, tok, lim};
        kvt_fmt_amount(m->request_throughput, a1, sizeof a1);
        if (v->sweep_err == KVT_E_OK)
            /* the unit once: with it twice the line passes 80 columns at
             * two-decimal capacities and pushes the timeline off the screen */
            snprintf(thr, sizeof thr, "%s req/s (capacity %s)", a1,
                     kvt_fmt_amount(v->sw.capacity, a2, sizeof a2));
        else
            snprintf(thr, sizeof thr, "%s req/s", a1);
        snprintf(tok, sizeof tok, "%s tok/s out",
                 kvt_fmt_rate(m->output_throughput, a1, sizeof a1));
        snprintf(lim, sizeof lim, "capped by %s (%s)", tutor_sim_limit_text(m->limit),
                 kvt_fmt_percent(m->limit_share, a1, sizeof a1));
        y += calc_put_items(y, 2, width, items, 3, " · ", A_NORMAL);
    }
    {
        char kv[96], batch[96], pre[48];
        const char *items[3] = {kv, batch, pre};
        /* blocks, not a share: a cache one block short of full reads
         * "99.997%" as a share (the share never rounds to all), which says
         * less than the count does */
        if (m->peak_blocks == m->num_blocks)
            snprintf(kv, sizeof kv, "peak KV all %s blocks",
                     kvt_fmt_int(m->num_blocks, a2, sizeof a2));
        else
            snprintf(kv, sizeof kv, "peak KV %s of %s blocks",
                     kvt_fmt_int(m->peak_blocks, a1, sizeof a1),
                     kvt_fmt_int(m->num_blocks, a2, sizeof a2));
        snprintf(batch, sizeof batch, "largest batch %s of %s",
                 kvt_fmt_int(m->max_running, a3, sizeof a3),
                 kvt_fmt_int(v->res.max_num_seqs, a4, sizeof a4));
        snprintf(pre, sizeof pre, "%s",
                 kvt_fmt_count(m->preemptions, "preemption", "preemptions", a1, sizeof a1));
        y += calc_put_items(y, 2, width, items, 3, " · ", A_NORMAL);
    }
    y += roomy;
    y += draw_sweep(c, y, width);
    y += roomy;
    /* against the whole cache, so that a full one reads as full */
    snprintf(line, sizeof line, " of 100%% · %s", /* in the knee's units */
             kvt_fmt_ms(v->tl.duration_s * 1000, a2, sizeof a2));
    ui_put(y, 2, LABEL_W, "KV used", ui_color(UI_C_HEADING) | A_BOLD);
    spark(y, 2 + LABEL_W, v->tl.kv, v->tl.n, 1, ui_color(UI_C_CHART));
    ui_put(y++, 2 + LABEL_W + spark_w, SPARK_SUFFIX_W, line, A_NORMAL);
    snprintf(line, sizeof line, " mean %s running", kvt_fmt_amount(m->mean_running, a1, sizeof a1));
    ui_put(y, 2, LABEL_W, "batch", ui_color(UI_C_HEADING) | A_BOLD);
    spark(y, 2 + LABEL_W, v->tl.running, v->tl.n, v->tl.running_peak, ui_color(UI_C_CHART));
    ui_put(y++, 2 + LABEL_W + spark_w, SPARK_SUFFIX_W, line, A_NORMAL);
    y += roomy;
    snprintf(line, sizeof line,
             "max_num_seqs %s, max_num_batched_tokens %s: vLLM's defaults for vllm serve on this "
             "GPU",
             kvt_fmt_int(v->res.max_num_seqs, a4, sizeof a4),
             kvt_fmt_int(v->res.max_num_batched_tokens, a5, sizeof a5));
    y += calc_put_wrapped(y, 2, width, 2, line, A_DIM);
    {
        char model[1200];
        struct tutor_sim_setup s;
        size_t n;
        setup_of(c, &s);
        if (c->model == SIZE_MAX)
            snprintf(model, sizeof model, "--config %s --params %s", c->config_name,
                     kvt_fmt_shortest(c->config.params_b, a1, sizeof a1));
        else {
            /* the preset's first short name, as `kvtutor models` lists it */
            const struct kv_model_preset *p = &kv_model_presets(&n)[c->model];
            const char *name = p->alias && p->alias[0] ? p->alias : p->id;
            snprintf(model, sizeof model, "--model %.*s", (int)strcspn(name, ","), name);
        }
        tutor_sim_command(&s, model, line, sizeof line);
        {
            /* wrapped between flags, never between a flag and its value
             * ("--util" at a line's end, "0.92" on the next) */
            const char *items[32];
            size_t n_items = 0;
            char *p = line;
            items[n_items++] = p;
            while ((p = strstr(p, " --")) != NULL && n_items < sizeof items / sizeof items[0]) {
                *p = '\0';
                p += 1;
                items[n_items++] = p;
            }
            bool fits = true; /* a long --config PATH wraps within itself */
            for (size_t i = 0; i < n_items; i++)
                fits = fits && kvt_text_width(items[i], strlen(items[i])) <= (size_t)width - 2;
            if (fits) {
                y += calc_put_items(y, 2, width, items, n_items, " ", A_DIM);
            } else {
                tutor_sim_command(&s, model, line, sizeof line); /* whole again */
                y += calc_put_wrapped(y, 2, width, 2, line, A_DIM);
            }
        }
    }
    return y;
}

void calc_sim_draw(struct calc *c, int y, int top, int rows, int cols)
{
    struct calc_sim *v = c->sim;
    int width = cols - 4, end = top + rows, spark_w = width - LABEL_W - SPARK_SUFFIX_W;
    int total, view = end - y;
    bool roomy = true;

    if (spark_w < 8)
        spark_w = 8;
    if (spark_w > TUTOR_SIM_COLUMNS)
        spark_w = TUTOR_SIM_COLUMNS;
    if (view < 1)
        return;
    recompute(c, (size_t)spark_w);
    spark_w = (int)v->tl.n;
    /* measured first, with nothing shown: blank rows between the parts only
     * where the whole view then still fits */
    ui_scroll_begin(0, 0, 0);
    total = layout(c, width, spark_w, true);
    if (total > view) {
        roomy = false;
        total = layout(c, width, spark_w, false);
    }
    ui_scroll_end();
    if (total > view && view > 1)
        view--; /* the last row says there is more */
    if (v->first > total - view)
        v->first = total - view;
    if (v->first < 0)
        v->first = 0;
    v->view = view;
    v->total = total;
    ui_scroll_begin(v->first, y, y + view);
    layout(c, width, spark_w, roomy);
    ui_scroll_end();
    if (v->first + view < total)
        ui_put(end - 1, 2, width, "more below: Space or j", A_DIM);
}

bool calc_sim_action(struct calc *c, struct ui *ui, enum ui_action a)
{
    struct calc_sim *v = c->sim;
    (void)ui;

    switch (a) {
    case UI_DOWN:
        v->first++; /* drawn no further than the last page */
        return true;
    case UI_UP:
        if (v->first > 0)
            v->first--;
        return true;
    case UI_PAGE_DOWN:
        v->first += v->view > 1 ? v->view - 1 : 1;
        return true;
    case UI_PAGE_UP:
        v->first -= v->view > 1 ? v->view - 1 : 1;
        if (v->first < 0)
            v->first = 0;
        return true;
    case UI_SIM_RATE_UP:
    case UI_SIM_RATE_DOWN:
        v->rate = tutor_sim_rate_step(v->rate, a == UI_SIM_RATE_UP);
        return true;
    case UI_SIM_CONCURRENCY_UP:
        /* more in flight; past the top, the client sends without a limit */
        if (v->concurrency)
            v->concurrency = v->concurrency >= MAX_CONCURRENCY ? 0 : v->concurrency * 2;
        return true;
    case UI_SIM_CONCURRENCY_DOWN:
        if (v->concurrency == 0)
            v->concurrency = MAX_CONCURRENCY;
        else if (v->concurrency > 1)
            v->concurrency /= 2;
        return true;
    case UI_SIM_INPUT_UP:
        if (v->input < MAX_INPUT)
            v->input *= 2;
        return true;
    case UI_SIM_INPUT_DOWN:
        if (v->input > 1)
            v->input /= 2;
        return true;
    case UI_SIM_OUTPUT_UP:
        if (v->output < MAX_OUTPUT)
            v->output *= 2;
        return true;
    case UI_SIM_OUTPUT_DOWN:
        if (v->output > 1)
            v->output /= 2;
        return true;
    case UI_SIM_FP8:
        /* fp8 and back to the model's own: the one KV question a serving
         * interview asks */
        if (tutor_sim_kv_types[c->kv] == KV_DTYPE_FP8)
            c->kv = 0; /* auto */
        else
            for (unsigned i = 0; i < TUTOR_SIM_N_KV_TYPES; i++)
                if (tutor_sim_kv_types[i] == KV_DTYPE_FP8)
                    c->kv = i;
        return true;
    default:
        return false;
    }
}
