/* The probe screen: runs the bandwidth probe (the GPU's when there is a
 * usable one, else host memory's) while the app stays live, with a bar per
 * kernel and the GB/s of the paged gather by block size, then the learner's
 * own decode ceiling for a model, next to the same figures at the peak. The
 * run is kept in the progress database, as `kvtutor probe` keeps it. */
#include "ui_app.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kv_ceiling.h"
#include "kv_presets.h"
#include "kvt_format.h"
#include "kvt_text.h"
#include "tutor_probe.h"
#include "ui_term.h"
#include "ui_draw.h"

struct probe_screen {
    struct tutor_probe tp; /* the run: its lines, progress and ending */
    bool tried_gpu;
    char gpu_note[600]; /* why the GPU was not measured */
    size_t model;
    uint64_t seq;
};

static void start(struct probe_screen *p, struct ui *ui, const char *kind)
{
    const char *program = strcmp(kind, "cuda") == 0 ? ui->opt.probe_cuda : ui->opt.probe_cpu;
    /* a smaller read buffer measures sooner (KVTUTOR_PROBE_SIZE_MIB); the
     * probe itself checks the size and names the bound a wrong one breaks */
    char *argv[] = {(char *)program, ui->opt.probe_size_mib ? "--size-mib" : NULL,
                    (char *)ui->opt.probe_size_mib, NULL};

    tutor_probe_free(&p->tp);
    /* Ctrl-C, SIGTERM or SIGHUP to the app stop the probe's group at once,
     * even before the screen is closed */
    tutor_probe_start(&p->tp, kind, argv, 0, ui_term_quit_flag(), (int64_t)time(NULL), NULL, NULL);
}

static void record(struct probe_screen *p, struct ui *ui)
{
    struct store_error err;
    if (tutor_probe_save(&p->tp, ui->opt.store, ui->opt.learner_id, &err) != KVT_E_OK)
        ui_say(ui, UI_BAD, "The run could not be saved: %s", err.detail);
}

static void end_run(struct probe_screen *p, struct ui *ui)
{
    record(p, ui);
    if (!p->tried_gpu && tutor_probe_try_host(&p->tp)) {
        p->tried_gpu = true;
        snprintf(p->gpu_note, sizeof p->gpu_note, "No GPU measured: %s", p->tp.out.message);
        start(p, ui, "cpu");
    }
}

static void probe_tick(void *self, struct ui *ui)
{
    struct probe_screen *p = self;
    if (!p->tp.running)
        return;
    /* a short look: the loop goes back to the keyboard at once */
    if (!tutor_probe_step(&p->tp, 0))
        end_run(p, ui);
}

static bool probe_busy(void *self)
{
    return ((struct probe_screen *)self)->tp.running;
}

static unsigned probe_context(void *self)
{
    (void)self;
    return UC_PROBE;
}

static const char *probe_title(void *self, struct ui *ui)
{
    (void)self, (void)ui;
    return "kvtutor · Memory bandwidth probe";
}

/* A bar of `width` cells, `frac` of it filled. */
static void bar(int y, int x, int width, double frac, attr_t on)
{
    const char *full = ui_term_utf8() ? "█" : "#", *empty = ui_term_utf8() ? "░" : ".";
    int cells = (int)(frac * width + 0.5);
    if (frac > 0 && cells == 0)
        cells = 1;
    for (int k = 0; k < width; k++) {
        if (k < cells)
            attron(on);
        mvaddstr(y, x + k, k < cells ? full : empty);
        if (k < cells)
            attroff(on);
    }
}

static int draw_device(struct probe_screen *p, int y, int cols)
{
    char line[512], b1[32], b2[32];
    const struct probe_device *d = &p->tp.log.device;
    /* a device that did not say its name reads as "?" */
    const char *name = d->name[0] ? d->name : "?";

    if (p->gpu_note[0])
        ui_put(y++, 2, cols - 4, p->gpu_note, A_DIM);
    if (!p->tp.log.has_device) {
        ui_put(y++, 2, cols - 4,
               p->tp.running                    ? "Starting the probe..."
               : p->tp.out.end == PROBE_STOPPED ? "Stopped before the probe described the device."
                                                : "The probe did not describe the device.",
               A_NORMAL);
        return y;
    }
    if (strcmp(tutor_probe_ran(&p->tp), "cuda") == 0) {
        const char *cc = d->compute_capability[0] ? d->compute_capability : "?";
        double peak = d->peak_gbps;
        char peak_text[48] = "peak unknown (a MIG slice)";
        if (peak > 0)
            snprintf(peak_text, sizeof peak_text, "peak %s GB/s",
                     kvt_fmt_rate(peak, b2, sizeof b2));
        snprintf(line, sizeof line, "GPU %s · compute %s · %d SMs · %s free · %s", name, cc,
                 (int)d->sms, kvt_fmt_bytes(d->free_bytes, b1, sizeof b1),
                 peak > 0 || d->mig ? peak_text : "peak unknown");
    } else {
        snprintf(line, sizeof line, "Host memory · %s · %d threads · %s available", name,
                 (int)d->threads, kvt_fmt_bytes(d->free_bytes, b1, sizeof b1));
    }
    ui_put(y++, 2, cols - 4, line, A_BOLD);
    return y;
}

static int draw_kernels(struct probe_screen *p, int y, int cols)
{
    char line[160], num[32];
    int bw = cols - 40 > 40 ? 40 : cols - 40;
    for (int k = 0; k < 3; k++) {
        if (k == 1 && strcmp(tutor_probe_ran(&p->tp), "cuda") != 0)
            continue; /* the CPU probe has no decode-step kernel */
        const struct probe_result *r = probe_log_result(&p->tp.log, tutor_probe_kernel(k));
        /* the paged kernel reports once per block size: done when the run is */
        if (k == 2 && p->tp.running)
            r = NULL;
        ui_put(y, 2, 8, tutor_probe_kernel(k), A_BOLD);
        bar(y, 11, bw, r ? 1.0 : p->tp.pct[k] / 100.0, ui_color(UI_C_RIGHT));
        if (r && k == 2)
            snprintf(line, sizeof line, "%8s GB/s contiguous",
                     kvt_fmt_rate(r->contiguous_gbps_median, num, sizeof num));
        else if (r)
            snprintf(line, sizeof line, "%8s GB/s", kvt_fmt_rate(r->gbps_median, num, sizeof num));
        else /* a share that is not all never reads as 100% */
            snprintf(line, sizeof line, "%7s",
                     kvt_fmt_percent(p->tp.pct[k] / 100, num, sizeof num));
        ui_put(y++, 12 + bw, cols - 14 - bw, line, A_NORMAL);
    }
    return y;
}

/* GB/s of the paged gather by block size, against the contiguous control. */
static int draw_paged(struct probe_screen *p, int y, int rows_left, int cols)
{
    double most = 0, contig = 0;
    char line[160], n1[32], n2[32];
    /* the bar gives way to the note: "%8s  no measurable cost" is 28
     * columns, from column 12 + bw, with 2 left at the edge */
    int bw = cols - 42 > 40 ? 40 : cols - 42;

    for (size_t i = 0; i < p->tp.log.n_results; i++) {
        const struct probe_result *r = &p->tp.log.results[i];
        if (strcmp(r->kernel, tutor_probe_kernel(2)) != 0)
            continue;
        if (r->gbps_median > most)
            most = r->gbps_median;
        contig = r->contiguous_gbps_median;
    }
    if (most <= 0 || rows_left < 3)
        return y;
    if (contig > most)
        most = contig;
    snprintf(line, sizeof line, "Paged KV gather, GB/s by block size (contiguous: %s)",
             kvt_fmt_rate(contig, n1, sizeof n1));
    ui_put(y++, 2, cols - 4, line, ui_color(UI_C_HEADING) | A_BOLD);
    for (size_t i = 0; i < p->tp.log.n_results; i++) {
        const struct probe_result *r = &p->tp.log.results[i];
        if (strcmp(r->kernel, tutor_probe_kernel(2)) != 0)
            continue;
        double tax = r->tax_percent;
        snprintf(line, sizeof line, "%5d", (int)r->block_size);
        ui_put(y, 2, 6, line, A_NORMAL);
        bar(y, 11, bw, r->gbps_median / most, ui_color(UI_C_WARN));
        if (tax > 0)
            snprintf(line, sizeof line, "%8s  paging costs %s",
                     kvt_fmt_rate(r->gbps_median, n1, sizeof n1),
                     kvt_fmt_percent(tax / 100, n2, sizeof n2));
        else
            snprintf(line, sizeof line, "%8s  no measurable cost",
                     kvt_fmt_rate(r->gbps_median, n1, sizeof n1));
        ui_put(y++, 12 + bw, cols - 14 - bw, line, A_NORMAL);
    }
    return y;
}

/* tok/s and GB/s as calc and `kvtutor probe` write them */
static const char *tps(double v, char *buf, size_t cap)
{
    return kvt_fmt_rate(v, buf, cap);
}

static int draw_ceiling(struct probe_screen *p, int y, int cols)
{
    size_t n;
    const struct kv_model_preset *m = &kv_model_presets(&n)[p->model];
    const struct probe_result *rd = probe_log_result(&p->tp.log, "read");
    double measured = rd ? rd->gbps_median : 0, peak = p->tp.log.device.peak_gbps;
    double free_bytes = p->tp.log.device.free_bytes;
    char line[300], b1[32], b2[32], b3[32];

    if (!rd)
        return y;
    struct kv_ceiling cm = kv_ceiling_at(&m->model, p->seq, measured, free_bytes);
    struct kv_ceiling cp = kv_ceiling_at(&m->model, p->seq, peak, free_bytes);
    snprintf(line, sizeof line, "Your decode ceiling: %s, sequences of %s tokens", m->id,
             kvt_fmt_int(p->seq, b1, sizeof b1));
    if (kvt_text_width(line, strlen(line)) > (size_t)(cols - 4)) {
        /* a long model id: the sequence length on a line of its own, not
         * cut at the edge ("sequences of 8,192 to") */
        snprintf(line, sizeof line, "Your decode ceiling: %s,", m->id);
        ui_put(y++, 2, cols - 4, line, ui_color(UI_C_HEADING) | A_BOLD);
        snprintf(line, sizeof line, "sequences of %s tokens", b1);
        ui_put(y++, 4, cols - 6, line, ui_color(UI_C_HEADING) | A_BOLD);
    } else {
        ui_put(y++, 2, cols - 4, line, ui_color(UI_C_HEADING) | A_BOLD);
    }
    if (!cm.ok) {
        ui_put(y++, 4, cols - 6, cm.why, A_NORMAL);
        return y;
    }
    snprintf(line, sizeof line, "%-30s %10s GB/s", "measured bandwidth",
             tps(measured, b1, sizeof b1));
    if (peak > 0)
        snprintf(line + strlen(line), sizeof line - strlen(line), "    at peak %s GB/s",
                 tps(peak, b2, sizeof b2));
    ui_put(y++, 4, cols - 6, line, A_NORMAL);
    if (cm.fill_batch == 0) {
        /* it does not fit: say so first, and give batch 1's ceiling as
         * what a card with room would read, not as this one's */
        snprintf(line, sizeof line, "The weights and one sequence do not fit in %s free.",
                 kvt_fmt_bytes(free_bytes, b3, sizeof b3));
        ui_put(y++, 4, cols - 6, line, ui_color(UI_C_WRONG));
        snprintf(line, sizeof line, "%-30s %10s tok/s", "batch 1, given the room",
                 tps(cm.batch1_tps, b1, sizeof b1));
        if (cp.ok)
            snprintf(line + strlen(line), sizeof line - strlen(line), "   %s tok/s",
                     tps(cp.batch1_tps, b2, sizeof b2));
        ui_put(y++, 4, cols - 6, line, A_DIM);
        return y;
    }
    snprintf(line, sizeof line, "%-30s %10s tok/s", "batch 1", tps(cm.batch1_tps, b1, sizeof b1));
    if (cp.ok)
        snprintf(line + strlen(line), sizeof line - strlen(line), "   %s tok/s",
                 tps(cp.batch1_tps, b2, sizeof b2));
    ui_put(y++, 4, cols - 6, line, A_NORMAL);
    {
        char label[80];
        snprintf(label, sizeof label, "batch %s (fills %s free)",
                 kvt_fmt_int(cm.fill_batch, b1, sizeof b1),
                 kvt_fmt_bytes(free_bytes, b3, sizeof b3));
        snprintf(line, sizeof line, "%-30s %10s tok/s", label, tps(cm.fill_tps, b2, sizeof b2));
        if (cp.ok)
            snprintf(line + strlen(line), sizeof line - strlen(line), "   %s tok/s",
                     tps(cp.fill_tps, b1, sizeof b1));
        ui_put(y++, 4, cols - 6, line, ui_color(UI_C_RIGHT) | A_BOLD);
    }
    return y;
}

static void probe_draw(void *self, struct ui *ui, int top, int rows, int cols)
{
    struct probe_screen *p = self;
    int y = top + 1, end = top + rows;
    (void)ui;

    y = draw_device(p, y, cols) + 1;
    y = draw_kernels(p, y, cols) + 1;
    if (!p->tp.running && p->tp.out.end != PROBE_OK) {
        char line[700];
        if (p->tp.out.end == PROBE_STOPPED) /* asked for: not a failure */
            ui_put(y++, 2, cols - 4, "Stopped before the run finished; it is kept as stopped.",
                   A_BOLD);
        else {
            snprintf(line, sizeof line, "The probe %s: %s", tutor_probe_end_name(&p->tp),
                     p->tp.out.message[0] ? p->tp.out.message : "no reason given");
            ui_put(y++, 2, cols - 4, line, ui_color(UI_C_WRONG) | A_BOLD);
        }
        ui_put(y++, 2, cols - 4, "Press r to run it again, q to go back.", A_NORMAL);
        return;
    }
    y = draw_paged(p, y, end - y, cols);
    if (y < end - 5)
        draw_ceiling(p, y + 1, cols);
    if (p->tp.running)
        ui_put(end - 1, 2, cols - 4, "Measuring... keys still work; q or Esc stops the probe.",
               A_DIM);
}

static void probe_action(void *self, struct ui *ui, enum ui_action a)
{
    struct probe_screen *p = self;
    size_t n;

    switch (a) {
    case UI_BACK:
        /* q stops a running probe, as the screen says, and stays to show
         * what it measured; a second q goes back */
        if (p->tp.running) {
            tutor_probe_cancel(&p->tp); /* kept as stopped */
            record(p, ui);
            ui_say(ui, UI_INFO, "Probe stopped; r runs it again, q goes back");
            return;
        }
        ui_pop(ui);
        return;
    case UI_PROBE_MODEL_NEXT:
    case UI_PROBE_MODEL_PREV:
        kv_model_presets(&n);
        p->model = a == UI_PROBE_MODEL_NEXT ? (p->model + 1) % n : (p->model + n - 1) % n;
        return;
    case UI_PROBE_SEQ_UP:
        if (p->seq < ((uint64_t)1 << 20))
            p->seq *= 2;
        return;
    case UI_PROBE_SEQ_DOWN:
        if (p->seq > 1024)
            p->seq /= 2;
        return;
    case UI_PROBE_AGAIN:
        if (p->tp.running)
            return;
        p->tried_gpu = false;
        p->gpu_note[0] = '\0';
        start(p, ui, tutor_probe_first(ui->opt.probe_cuda));
        return;
    default:
        return;
    }
}

static void probe_leave(void *self, struct ui *ui)
{
    struct probe_screen *p = self;
    if (p->tp.running) {
        tutor_probe_cancel(&p->tp); /* kept as stopped */
        record(p, ui);
    }
}

static void probe_destroy(void *self)
{
    struct probe_screen *p = self;
    if (!p)
        return;
    tutor_probe_free(&p->tp);
    free(p);
}

static const char *probe_at_stake(void *self)
{
    return ((struct probe_screen *)self)->tp.running ? "the probe still running" : NULL;
}

static const struct ui_screen_ops ops = {
    .name = "probe",
    .context = probe_context,
    .title = probe_title,
    .draw = probe_draw,
    .action = probe_action,
    .leave = probe_leave,
    .destroy = probe_destroy,
    .tick = probe_tick,
    .busy = probe_busy,
    .at_stake = probe_at_stake,
};

struct ui_screen ui_probe_new(struct ui *ui)
{
    struct probe_screen *p = calloc(1, sizeof *p);
    size_t n;
    const struct kv_model_preset *all = kv_model_presets(&n);
    const struct kv_model_preset *q = kv_model_preset_find("qwen2.5-7b");

    if (!p)
        return (struct ui_screen){&ops, NULL};
    /* the first lesson's model at 8k, as the lesson asks about it */
    p->model = q ? (size_t)(q - all) : 0;
    p->seq = 8192;
    probe_log_init(&p->tp.log);
    start(p, ui, tutor_probe_first(ui->opt.probe_cuda));
    if (!p->tp.running && strcmp(p->tp.asked, "cuda") == 0)
        end_run(p, ui); /* could not even start: fall back now */
    return (struct ui_screen){&ops, p};
}
