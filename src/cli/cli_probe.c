/* `kvtutor probe`: measures the learner's own memory bandwidth with a probe
 * program (docs/probes.md), shows it live, turns it into a decode ceiling
 * for a model, and records the run in the progress database. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "cli_args.h"
#include "cli_db.h"
#include "cli_paths.h"

#include <jansson.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kv_calc.h"
#include "kv_ceiling.h"
#include "kv_presets.h"
#include "kvt_text.h"
#include "store_report.h"
#include "tutor_probe.h"

#define MAX_PASS      16
#define DEFAULT_SEQ   8192
#define DEFAULT_MODEL "qwen2.5-7b"

struct probe_opts {
    const char *kind; /* "cpu", "cuda" or NULL: CUDA when it can, else CPU */
    const char *program;
    const char *db, *learner;
    const struct kv_model_preset *model;
    uint64_t seq;
    double timeout_s;
    bool json, record;
    char *pass[MAX_PASS]; /* after "--": handed to the probe */
    int npass;
};

/* What one run said, gathered from its lines. */
struct run_view {
    bool bars; /* progress bars on stderr (a terminal, not --json) */
    char kernel[32];
};

#define usage_error(...) cli_usage_error("probe", __VA_ARGS__)

/* Text a probe said (a device name, a kernel, a message) as it may reach a
 * terminal: escapes, controls and broken UTF-8 made visible and inert. */
static const char *safe(const char *text, char *buf, size_t cap)
{
    if (!text)
        text = "?";
    kvt_sanitize(text, strlen(text), buf, cap, 0);
    return buf;
}

/* ---- signals ----
 * The probe runs in a process group of its own (so that stopping it stops
 * what it started), which also means a Ctrl-C at the terminal does not
 * reach it. SIGINT, SIGTERM and SIGHUP therefore only set this flag; the
 * supervisor sees it, stops the probe's group (SIGTERM, SIGKILL after the
 * grace period), the run is kept as stopped, and kvtutor then dies of the
 * same signal. */
static volatile sig_atomic_t quit_signal;

static void on_quit_signal(int sig)
{
    quit_signal = sig;
}

static const int quit_signals[] = {SIGINT, SIGTERM, SIGHUP};

static void catch_quit_signals(struct sigaction old[3])
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_quit_signal; /* no SA_RESTART: the wait for output ends at once */
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < 3; i++)
        sigaction(quit_signals[i], &sa, &old[i]);
}

static void release_quit_signals(const struct sigaction old[3])
{
    for (int i = 0; i < 3; i++)
        sigaction(quit_signals[i], &old[i], NULL);
    if (quit_signal) {
        signal(quit_signal, SIG_DFL);
        raise(quit_signal);
    }
}

/* ---- the model's decode step, for the GPU probe ----
 * The presets carry the attention shapes; the MLP width a token reads and
 * the vocabulary come from each model's config.json (the same table as
 * tests/fixtures/model-presets.tsv): intermediate_size for a dense model,
 * (experts per token + shared experts) x moe_intermediate_size for a MoE.
 * experts_bits: the experts' storage when it differs from the preset's
 * weights (gpt-oss keeps its experts in MXFP4, the rest in bf16). */
static const struct probe_shape {
    const char *id;
    uint32_t vocab, mlp_dim;
    uint32_t q_head_dim; /* MLA: qk_nope + qk_rope head dim; 0 = the preset's */
    double experts_bits; /* 0 = as the other weights */
} shapes[] = {
    {"Qwen/Qwen2.5-0.5B-Instruct", 151936, 4864, 0, 0},
    {"Qwen/Qwen2.5-1.5B-Instruct", 151936, 8960, 0, 0},
    {"Qwen/Qwen2.5-7B-Instruct", 152064, 18944, 0, 0},
    {"Qwen/Qwen2.5-14B-Instruct", 152064, 13824, 0, 0},
    {"Qwen/Qwen2.5-32B-Instruct", 152064, 27648, 0, 0},
    {"Qwen/Qwen2.5-72B-Instruct", 152064, 29568, 0, 0},
    {"Qwen/Qwen3-8B", 151936, 12288, 0, 0},
    {"Qwen/Qwen3-32B", 151936, 25600, 0, 0},
    {"Qwen/Qwen3-30B-A3B", 151936, 8 * 768, 0, 0},
    {"Qwen/Qwen3-235B-A22B", 151936, 8 * 1536, 0, 0},
    {"meta-llama/Llama-3.1-8B-Instruct", 128256, 14336, 0, 0},
    {"meta-llama/Llama-3.1-70B-Instruct", 128256, 28672, 0, 0},
    {"meta-llama/Llama-3.1-405B-Instruct", 128256, 53248, 0, 0},
    {"meta-llama/Llama-3.2-1B-Instruct", 128256, 8192, 0, 0},
    {"meta-llama/Llama-3.2-3B-Instruct", 128256, 8192, 0, 0},
    {"mistralai/Mistral-7B-Instruct-v0.3", 32768, 14336, 0, 0},
    {"mistralai/Mixtral-8x7B-Instruct-v0.1", 32000, 2 * 14336, 0, 0},
    {"google/gemma-2-9b-it", 256000, 14336, 0, 0},
    {"google/gemma-2-27b-it", 256000, 36864, 0, 0},
    {"google/gemma-3-27b-it", 262144, 21504, 0, 0},
    {"microsoft/Phi-3-mini-4k-instruct", 32064, 8192, 0, 0},
    {"microsoft/phi-4", 100352, 17920, 0, 0},
    {"deepseek-ai/DeepSeek-V3", 129280, (8 + 1) * 2048, 192, 0},
    {"openai/gpt-oss-20b", 201088, 4 * 2880, 0, 4.25},
    {"openai/gpt-oss-120b", 201088, 4 * 2880, 0, 4.25},
};

/* Appends the decode step's flags for the model to argv (from *n on) and
 * returns how many; a flag the learner passed after "--" is left to them. */
static int shape_args(const struct probe_opts *o, char **argv, int n, char store[][24])
{
    const struct kv_model *m = &o->model->model;
    const struct probe_shape *sh = NULL;
    struct kv_deploy d;
    struct kv_result res;
    int k = 0;

    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        if (strcmp(shapes[i].id, o->model->id) == 0)
            sh = &shapes[i];
    kv_deploy_defaults(&d);
    if (!sh || kv_calc(m, &d, &res, NULL, NULL) != KVT_E_OK)
        return 0; /* the probe's own model, Qwen2.5-7B */
    uint32_t head_dim = sh->q_head_dim ? sh->q_head_dim : res.head_dim;
    uint64_t kv_dim =
        res.mla ? (uint64_t)m->mla_rank + m->mla_rope_dim : (uint64_t)m->kv_heads * res.head_dim;
    double bits = kv_dtype_weight_bits(res.weights_dtype);
    unsigned elem = bits <= 8 ? 1 : bits <= 16 ? 2 : 4;
    /* matrices are measured by their bytes: experts stored in fewer bits
     * than `elem` bytes are measured as a narrower MLP of the same bytes */
    uint64_t mlp = sh->experts_bits > 0
                       ? (uint64_t)llround(sh->mlp_dim * sh->experts_bits / (8.0 * elem))
                       : sh->mlp_dim;
    uint64_t kv_read = kv_calc_kv_read_bytes(&res, o->seq);
    uint64_t kv_token = kv_read == UINT64_MAX ? 0 : (kv_read + o->seq - 1) / o->seq;
    const struct {
        const char *flag;
        uint64_t v;
    } f[] = {
        {"--hidden", m->hidden}, {"--q-dim", (uint64_t)m->heads * head_dim},
        {"--kv-dim", kv_dim},    {"--mlp-dim", mlp},
        {"--vocab", sh->vocab},  {"--layers", m->layers},
        {"--elem-bytes", elem},  {"--kv-token-bytes", kv_token},
        {"--context", o->seq},
    };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        bool given = false;
        for (int j = 0; j < o->npass; j++)
            given = given || strcmp(o->pass[j], f[i].flag) == 0;
        if (given || f[i].v == 0)
            continue;
        snprintf(store[k], sizeof store[k], "%llu", (unsigned long long)f[i].v);
        argv[n + 2 * k] = (char *)f[i].flag;
        argv[n + 2 * k + 1] = store[k];
        k++;
    }
    return 2 * k;
}

static void help(void)
{
    puts("usage: kvtutor probe [--cpu|--cuda] [--model NAME] [--seq N] [--json]\n"
         "                     [--db FILE] [--learner NAME] [--no-record] [--timeout S]\n"
         "                     [--program PATH] [-- PROBE_ARGS...]\n"
         "\n"
         "Measures how fast this machine reads memory, the figure that caps decode\n"
         "speed, then turns it into tokens/s for a model: at batch 1 and at the batch\n"
         "that fills the free memory with sequences of --seq tokens, beside the same\n"
         "figures at the device's peak. Without --cpu or --cuda it measures the GPU\n"
         "when there is a usable one, else host memory.\n"
         "\n"
         "  --model NAME    a preset (kvtutor models); default qwen2.5-7b; the GPU\n"
         "                  probe's decode step reads matrices of its shapes\n"
         "  --seq N         tokens per sequence for the ceiling; default 8192\n"
         "  --json          one JSON document: device, results, ceiling\n"
         "  --no-record     do not keep the run in the progress database\n"
         "  --timeout S     stop the probe after S seconds; default 600\n"
         "  --program PATH  run this probe program instead of the one beside kvtutor\n"
         "  -- ARGS         passed to the probe (e.g. -- --size-mib 256)\n"
         "\n"
         "Exit status: 0 measured, 1 the probe failed or found no usable GPU, 2 usage.\n"
         "Ctrl-C, SIGTERM or SIGHUP stop the probe and all it started, keep the run as\n"
         "stopped, and end kvtutor by that signal.");
}

enum { P_CPU, P_CUDA, P_JSON, P_NO_RECORD, P_MODEL, P_SEQ, P_TIMEOUT, P_PROGRAM };
static const struct cli_flag flags[] = {
    [P_CPU] = {"--cpu", NULL, NULL, .kind = CLI_SWITCH},
    [P_CUDA] = {"--cuda", NULL, NULL, .kind = CLI_SWITCH},
    [P_JSON] = {"--json", NULL, NULL, .kind = CLI_SWITCH},
    [P_NO_RECORD] = {"--no-record", NULL, NULL, .kind = CLI_SWITCH},
    [P_MODEL] = {"--model", NULL, "NAME", .kind = CLI_STR},
    [P_SEQ] = {"--seq", NULL, "N", .kind = CLI_TOKENS, .umax = KV_MAX_TOKENS},
    [P_TIMEOUT] = {"--timeout", NULL, "S", .kind = CLI_REAL, .rmin = 0, .rmin_open = true,
                   .rmax = 86400},
    [P_PROGRAM] = {"--program", NULL, "PATH", .kind = CLI_STR},
};
static const struct cli_spec spec = {.cmd = "probe",
                                     .flags = flags,
                                     .nflags = 8,
                                     .globals = CLI_G_DB | CLI_G_LEARNER,
                                     .pass_rest = true};

static int parse(int argc, char **argv, struct probe_opts *o, bool *help_asked)
{
    struct cli_args a;
    const char *model;
    int rc = cli_parse(&spec, argc, argv, &a);

    memset(o, 0, sizeof *o);
    *help_asked = a.help;
    if (rc != 0)
        return rc;
    if (a.nrest > MAX_PASS)
        return usage_error("more than %d probe arguments after --", MAX_PASS);
    if (a.given[P_CPU] && a.given[P_CUDA])
        return usage_error("--cpu and --cuda: choose one");
    o->kind = a.given[P_CPU] ? "cpu" : a.given[P_CUDA] ? "cuda" : NULL;
    o->json = a.given[P_JSON];
    o->record = !a.given[P_NO_RECORD];
    model = a.given[P_MODEL] ? a.text[P_MODEL] : DEFAULT_MODEL;
    o->seq = a.given[P_SEQ] ? a.u[P_SEQ] : DEFAULT_SEQ;
    o->timeout_s = a.given[P_TIMEOUT] ? a.r[P_TIMEOUT] : 600;
    o->program = a.text[P_PROGRAM];
    o->db = a.db;
    o->learner = a.learner;
    for (int i = 0; i < a.nrest; i++)
        o->pass[o->npass++] = a.rest[i];
    if (*help_asked)
        return -1;
    if (!(o->model = kv_model_preset_find(model))) {
        const struct kv_model_preset *near[3];
        size_t n = kv_model_preset_suggest(model, near, 3);
        char list[160] = "";
        for (size_t i = 0; i < n; i++) {
            size_t len = strlen(list), k = strcspn(near[i]->alias, ",");
            snprintf(list + len, sizeof list - len, "%s%.*s", i ? ", " : "", (int)k,
                     near[i]->alias);
        }
        if (n == 0)
            return usage_error("--model %s: no such preset (kvtutor models lists them)", model);
        return usage_error("--model %s: no such preset; closest: %s", model, list);
    }
    if (!o->json) /* "--seq 32k = 32,000 tokens": the count the ceiling is for */
        cli_print_resolved(stdout, &spec, &a);
    return -1;
}

/* ---- live view ---- */

/* One bar for the whole run (the probe's percent is over all its kernels),
 * redrawn in place, with the kernel measuring now. */
static void draw_bar(struct run_view *v, double pct)
{
    enum { W = 30 };
    int fill = (int)(pct / 100.0 * W + 0.5);
    char bar[W + 1];
    if (fill > W)
        fill = W;
    for (int i = 0; i < W; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[W] = '\0';
    fprintf(stderr, "\r  [%s] %3d%%  %-8s", bar, (int)pct, v->kernel);
    fflush(stderr);
}

static void on_event(void *ctx, const struct probe_event *ev)
{
    struct run_view *v = ctx;

    if (ev->type == PROBE_EVENT_PROGRESS && v->bars && ev->progress.kernel[0]) {
        const char *kernel = ev->progress.kernel;
        double pct = ev->progress.percent;
        if (pct < 0)
            pct = 0;
        if (pct > 100)
            pct = 100;
        char buf[sizeof v->kernel];
        snprintf(v->kernel, sizeof v->kernel, "%s", safe(kernel, buf, sizeof buf));
        draw_bar(v, pct);
    }
}

/* ---- figures from the lines ---- */

static json_t *ceiling_json(const struct kv_ceiling *c)
{
    if (!c->ok)
        return json_pack("{s:s}", "unavailable", c->why);
    return json_pack("{s:f,s:I,s:f}", "batch1_tokens_per_s", c->batch1_tps, "fill_batch",
                     (json_int_t)c->fill_batch, "fill_tokens_per_s", c->fill_tps);
}

/* The lines the probe said, as it said them (unknown fields too), for the
 * report: null when the text is missing or there was no memory for it. */
static json_t *lines_json(const char *text)
{
    json_t *j = text ? json_loads(text, JSON_DECODE_ANY, NULL) : NULL;
    return j ? j : json_null();
}

static json_t *results_json(const struct probe_log *g)
{
    char *text = probe_log_results_json(g);
    json_t *j = lines_json(text);
    free(text);
    return j;
}

/* tokens/s: one decimal below 10, where whole numbers would hide the figure */
/* tok/s and GB/s read as calc and the app write them (kvt_fmt_rate). */
static const char *tps(double v, char *buf, size_t cap)
{
    return kvt_fmt_rate(v, buf, cap);
}

static void print_ceiling(const struct probe_opts *o, double measured, double peak,
                          double free_bytes)
{
    struct kv_ceiling cm = kv_ceiling_at(&o->model->model, o->seq, measured, free_bytes);
    struct kv_ceiling cp = kv_ceiling_at(&o->model->model, o->seq, peak, free_bytes);
    char b1[32], b2[32], b3[32];

    printf("\nDecode ceiling for %s, sequences of %s tokens:\n", o->model->id,
           kvt_fmt_int(o->seq, b1, sizeof b1));
    if (!cm.ok) {
        printf("  not available: %s\n", cm.why);
        return;
    }
    printf("  %-34s %14s", "", "measured");
    if (peak > 0)
        printf(" %14s", "at peak");
    printf("\n  %-34s %9s GB/s", "bandwidth", tps(measured, b1, sizeof b1));
    if (peak > 0)
        printf(" %9s GB/s", tps(peak, b2, sizeof b2));
    printf("\n  %-34s %8s tok/s", "batch 1", tps(cm.batch1_tps, b1, sizeof b1));
    if (cp.ok)
        printf(" %8s tok/s", tps(cp.batch1_tps, b2, sizeof b2));
    putchar('\n');
    if (cm.fill_batch > 0) {
        char label[64];
        snprintf(label, sizeof label, "batch %s (fills %s free)",
                 kvt_fmt_int(cm.fill_batch, b1, sizeof b1),
                 kvt_fmt_bytes(free_bytes, b3, sizeof b3));
        printf("  %-34s %8s tok/s", label, tps(cm.fill_tps, b2, sizeof b2));
        if (cp.ok)
            printf(" %8s tok/s", tps(cp.fill_tps, b2, sizeof b2));
        putchar('\n');
    } else {
        printf("  the weights and one sequence of this length do not fit in %s free\n",
               kvt_fmt_bytes(free_bytes, b3, sizeof b3));
    }
}

/* A whole number from a field the log does not range-check (versions,
 * blocks per SM): -1 unless it is one a machine can say, so the cast below
 * is always defined. */
static long count_of(double v)
{
    return v >= 0 && v <= 1e9 ? (long)v : -1;
}

/* The GPU's driver, ECC and occupancy, when the probe said them. */
static void print_gpu_details(const struct probe_device *dev)
{
    long drv = count_of(dev->driver_version), rt = count_of(dev->runtime_version);
    long bps = count_of(dev->read_blocks_per_sm), tpb = count_of(dev->threads_per_block);
    char line[200] = "";
    size_t n = 0;
    /* 13000 is how CUDA writes 13.0 */
    if (drv > 0 && rt > 0)
        n += (size_t)snprintf(line + n, sizeof line - n, "; CUDA driver %ld.%ld, runtime %ld.%ld",
                              drv / 1000, drv % 1000 / 10, rt / 1000, rt % 1000 / 10);
    if (dev->ecc_said && n < sizeof line)
        n += (size_t)snprintf(line + n, sizeof line - n, "; ECC %s", dev->ecc ? "on" : "off");
    if (bps > 0 && tpb > 0 && n < sizeof line)
        snprintf(line + n, sizeof line - n, "; %ld blocks of %ld threads per SM, one wave", bps,
                 tpb);
    if (line[0])
        printf("%s\n", line + 2);
    if (dev->mig)
        printf("A MIG slice: its memory clock and bus are the whole GPU's, so its peak is "
               "unknown\n");
}

static void print_human(const struct probe_opts *o, const char *kind, const struct probe_log *g)
{
    const struct probe_device *dev = &g->device;
    char b1[32], b2[32], b3[32], name[256], cc[32];
    /* a name or capability not said reads as "?" */
    safe(dev->name[0] ? dev->name : NULL, name, sizeof name);
    safe(dev->compute_capability[0] ? dev->compute_capability : NULL, cc, sizeof cc);
    double peak = dev->peak_gbps, free_bytes = dev->free_bytes;

    if (strcmp(kind, "cuda") == 0)
        printf("GPU: %s (compute %s, %d SMs, %s L2), %s free of %s\n", name, cc, (int)dev->sms,
               kvt_fmt_bytes(dev->l2_bytes, b1, sizeof b1),
               kvt_fmt_bytes(free_bytes, b2, sizeof b2),
               kvt_fmt_bytes(dev->total_bytes, b3, sizeof b3));
    else
        printf("CPU: %s, %d threads, %s last-level cache, %s memory available\n", name,
               (int)dev->threads, kvt_fmt_bytes(dev->llc_bytes, b1, sizeof b1),
               kvt_fmt_bytes(free_bytes, b2, sizeof b2));
    if (strcmp(kind, "cuda") == 0)
        print_gpu_details(dev);
    if (peak > 0)
        printf("Peak from the memory clock and bus width: %s GB/s\n", tps(peak, b1, sizeof b1));
    putchar('\n');
    for (size_t i = 0; i < g->n_results; i++) {
        const struct probe_result *r = &g->results[i];
        const char *k = r->kernel;
        if (strcmp(k, "read") == 0) {
            printf("  read     %8s GB/s median, %s best, over %s",
                   tps(r->gbps_median, b2, sizeof b2), tps(r->gbps_best, b3, sizeof b3),
                   kvt_fmt_bytes(r->bytes, b1, sizeof b1));
            if (peak > 0)
                printf(": %s of peak", kvt_fmt_percent(r->gbps_median / peak, b1, sizeof b1));
            putchar('\n');
        } else if (strcmp(k, "decode") == 0) {
            char s1[32], s2[32], s3[32];
            printf("  decode   %8s GB/s as one read of %s (%s us a step);\n"
                   "           %d launches: %s GB/s (%s us), in a CUDA graph %s GB/s "
                   "(%s us)\n",
                   tps(r->gbps_median, b2, sizeof b2), kvt_fmt_bytes(r->bytes, b1, sizeof b1),
                   kvt_fmt_number(round(r->step_us), 0, b3, sizeof b3), (int)r->launches,
                   tps(r->eager_gbps_median, s1, sizeof s1),
                   kvt_fmt_number(round(r->eager_step_us), 0, s2, sizeof s2),
                   tps(r->graph_gbps_median, s3, sizeof s3),
                   kvt_fmt_number(round(r->graph_step_us), 0, b1, sizeof b1));
            if (r->scale > 0 && r->scale < 1)
                printf("           (%s of the model's layers: as many as fit in half the "
                       "free memory)\n",
                       kvt_fmt_percent(r->scale, b1, sizeof b1));
        } else if (strcmp(k, "paged") == 0) {
            double tax = r->tax_percent;
            printf("  paged    %8s GB/s at block %2d, %s contiguous: ",
                   tps(r->gbps_median, b1, sizeof b1), (int)r->block_size,
                   tps(r->contiguous_gbps_median, b2, sizeof b2));
            /* a paged run faster than the control is noise, not a gain */
            if (tax < 0)
                printf("no measurable cost\n");
            else
                printf("paging costs %s\n", kvt_fmt_percent(tax / 100, b1, sizeof b1));
        }
    }
    const struct probe_result *rd = probe_log_result(g, "read");
    if (rd)
        print_ceiling(o, rd->gbps_median, peak, free_bytes);
}

/* ---- one run ---- */

static int run_one(const struct probe_opts *o, const char *kind, const char *program,
                   struct cli_db *db, json_t **report)
{
    struct run_view v = {0};
    struct tutor_probe tp;
    char *argv[MAX_PASS + 2 + 2 * 9], shape[9][24];
    int64_t started = (int64_t)time(NULL);
    int n = o->npass + 1;

    argv[0] = (char *)program;
    for (int i = 0; i < o->npass; i++)
        argv[i + 1] = o->pass[i];
    if (strcmp(kind, "cuda") == 0)
        n += shape_args(o, argv, n, shape);
    argv[n] = NULL;
    v.bars = !o->json && isatty(STDERR_FILENO);
    if (!o->json)
        fprintf(stderr, "Measuring %s memory with %s\n", strcmp(kind, "cuda") ? "host" : "GPU",
                program);
    if (tutor_probe_start(&tp, kind, argv, o->timeout_s, &quit_signal, started, on_event, &v) ==
        KVT_E_OK)
        tutor_probe_step(&tp, -1);
    if (v.kernel[0])
        fputc('\n', stderr);

    /* the device line can say what ran, whatever was asked */
    kind = tutor_probe_ran(&tp);
    const struct probe_outcome out = tp.out;
    const struct probe_result *rd = probe_log_result(&tp.log, "read");
    double measured = rd ? rd->gbps_median : 0;
    double peak = tp.log.device.peak_gbps, free_bytes = tp.log.device.free_bytes;

    if (db && db->st) {
        struct store_error err;
        if (tutor_probe_save(&tp, db->st, db->learner_id, &err) != KVT_E_OK)
            cli_db_error("probe", db->path, &err);
    }

    if (o->json) {
        json_t *doc = json_pack(
            "{s:s,s:s,s:s,s:f,s:o,s:o,s:s,s:I}", "probe", kind, "outcome",
            tutor_probe_end_name(&tp), "message", out.message, "seconds", out.seconds, "device",
            lines_json(tp.log.has_device ? tp.log.device.json : NULL), "results",
            results_json(&tp.log), "model", o->model->id, "seq", (json_int_t)o->seq);
        if (rd && out.end == PROBE_OK) {
            struct kv_ceiling cm = kv_ceiling_at(&o->model->model, o->seq, measured, free_bytes);
            struct kv_ceiling cp = kv_ceiling_at(&o->model->model, o->seq, peak, free_bytes);
            json_object_set_new(doc, "ceiling",
                                json_pack("{s:f,s:o,s:o}", "measured_gbps", measured, "measured",
                                          ceiling_json(&cm), "at_peak",
                                          peak > 0 ? ceiling_json(&cp) : json_null()));
        }
        json_decref(*report);
        *report = doc;
    } else if (out.end == PROBE_OK) {
        print_human(o, kind, &tp.log);
    }
    char msg[sizeof out.message];
    safe(out.message, msg, sizeof msg);
    if (out.end == PROBE_NO_GPU && !o->json)
        fprintf(stderr, "kvtutor probe: no usable GPU: %s\n", msg);
    else if (out.end != PROBE_OK && !o->json)
        fprintf(stderr, "kvtutor probe: %s probe %s: %s\n", kind, tutor_probe_end_name(&tp),
                quit_signal ? "kvtutor was interrupted" : msg);
    tutor_probe_free(&tp);
    return (int)out.end;
}

int cli_probe(int argc, char **argv)
{
    struct probe_opts o;
    struct cli_db db = {0};
    bool help_asked;
    int rc = parse(argc, argv, &o, &help_asked), end;
    char cuda[4096], cpu[4096];
    json_t *report = NULL;

    if (help_asked) {
        help();
        return 0;
    }
    if (rc != -1)
        return rc;
    if (cli_helper_program("kvtutor-probe-cuda", cuda, sizeof cuda) != 0 ||
        cli_helper_program("kvtutor-probe-cpu", cpu, sizeof cpu) != 0) {
        fprintf(stderr, "kvtutor probe: cannot find the folder kvtutor runs from\n");
        return 1;
    }
    if (o.record && (rc = cli_db_open("probe", o.db, o.learner, (int64_t)time(NULL), &db)) != 0)
        return rc;
    struct sigaction old[3];
    catch_quit_signals(old);

    if (o.program) {
        end = run_one(&o, o.kind ? o.kind : "cpu", o.program, &db, &report);
    } else if (o.kind && strcmp(o.kind, "cpu") == 0) {
        end = run_one(&o, "cpu", cpu, &db, &report);
    } else if (o.kind || strcmp(tutor_probe_first(cuda), "cuda") == 0) {
        end = run_one(&o, "cuda", cuda, &db, &report);
        /* no GPU here: host memory is still worth measuring */
        if (!o.kind && !quit_signal && (end == PROBE_NO_GPU || end == PROBE_NOT_FOUND)) {
            if (!o.json)
                fprintf(stderr, "Measuring host memory instead.\n");
            end = run_one(&o, "cpu", cpu, &db, &report);
        }
    } else {
        end = run_one(&o, "cpu", cpu, &db, &report);
    }
    if (report) {
        /* ASCII only: a C1 control in a device name is \u-escaped, not sent */
        char *s = json_dumps(report, JSON_INDENT(2) | JSON_REAL_PRECISION(6) | JSON_ENSURE_ASCII);
        if (s)
            puts(s);
        free(s);
        json_decref(report);
    }
    if (db.st)
        cli_db_close(&db);
    release_quit_signals(old); /* dies of the signal that stopped the run, if one did */
    return end == PROBE_OK ? 0 : 1;
}
