/* `kvtutor models` and `kvtutor gpus`: the preset tables, as a person or a
 * script wants them. */
#include "cli.h"
#include "cli_json.h"
#include "cli_args.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "kv_presets.h"
#include "kvt_format.h"

static int list_usage(const char *cmd, int argc, char **argv, bool *json)
{
    static const struct cli_flag flags[] = {{"--json", NULL, NULL, .kind = CLI_SWITCH}};
    const struct cli_spec spec = {.cmd = cmd, .flags = flags, .nflags = 1};
    struct cli_args a;
    int rc = cli_parse(&spec, argc, argv, &a);

    if (rc != 0)
        return rc;
    if (a.help) {
        printf("usage: kvtutor %s [--json]\n\nLists the %s presets kvtutor calc accepts "
               "with %s NAME.\n",
               cmd, strcmp(cmd, "models") == 0 ? "model" : "GPU",
               strcmp(cmd, "models") == 0 ? "--model" : "--gpu");
        return 0;
    }
    *json = a.given[0];
    return -1;
}

/* KV bytes per token at the model's own dtype, every layer. */
static uint64_t kv_per_token(const struct kv_model *m)
{
    struct kv_deploy d;
    struct kv_result r;

    kv_deploy_defaults(&d);
    return kv_calc(m, &d, &r, NULL, NULL) == KVT_E_OK ? r.kv_bytes_per_token : 0;
}

/* The listings' rows, 80 columns wide at most. */
#define MODEL_NAME_WIDTH 16
#define MODEL_ROW        "%-16s %-14s %6s %9s %7s %7s %8s\n"
#define GPU_ROW          "%-14s %-15s %4s %7s %-6s %6s %12s %7s\n"

/* Parameters in billions, by kvt_fmt_amount's rule: 7.62B, 235B, 0.494B. */
static const char *params_text(double b, char *buf, size_t cap)
{
    char num[32];
    snprintf(buf, cap, "%sB", kvt_fmt_amount(b, num, sizeof num));
    return buf;
}

static int dump(json_t *a)
{
    int rc = cli_json_dumpf(a, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    putchar('\n');
    json_decref(a);
    return rc == 0 ? 0 : 1;
}

int cli_models(int argc, char **argv)
{
    size_t n;
    const struct kv_model_preset *p = kv_model_presets(&n);
    char kv[32], ctx[32];
    bool json;
    int rc = list_usage("models", argc, argv, &json);

    if (rc >= 0)
        return rc;
    if (json) {
        json_t *a = json_array();
        for (size_t i = 0; i < n; i++) {
            const struct kv_model *m = &p[i].model;
            json_t *o = json_object();
            json_object_set_new(o, "id", json_string(p[i].id));
            json_object_set_new(o, "alias", json_stringn(p[i].alias, strcspn(p[i].alias, ",")));
            json_object_set_new(o, "attention", json_string(p[i].arch));
            json_object_set_new(o, "layers", json_integer(m->layers));
            json_object_set_new(o, "heads", json_integer(m->heads));
            json_object_set_new(o, "kv_heads", json_integer(m->kv_heads));
            json_object_set_new(o, "head_dim", json_integer(m->head_dim));
            json_object_set_new(o, "sliding_window", json_integer((json_int_t)m->sliding_window));
            json_object_set_new(o, "sliding_layers", json_integer(m->sliding_layers));
            json_object_set_new(o, "mla_rank", json_integer(m->mla_rank));
            json_object_set_new(o, "mla_rope_dim", json_integer(m->mla_rope_dim));
            json_object_set_new(o, "params_b", json_real(m->params_b));
            json_object_set_new(
                o, "active_params_b",
                json_real(m->active_params_b > 0 ? m->active_params_b : m->params_b));
            json_object_set_new(o, "max_position", json_integer((json_int_t)m->max_position));
            json_object_set_new(o, "kv_bytes_per_token", json_integer((json_int_t)kv_per_token(m)));
            json_array_append_new(a, o);
        }
        return dump(a);
    }
    /* 80 columns: the figures on the alias's line, the Hugging Face id
     * (up to 36 characters) on its own line beneath */
    printf(MODEL_ROW, "ALIAS", "ATTENTION", "LAYERS", "KV/TOKEN", "PARAMS", "ACTIVE", "CONTEXT");
    for (size_t i = 0; i < n; i++) {
        const struct kv_model *m = &p[i].model;
        char alias[64], layers[16], total[32] = "-", active[32] = "-";
        snprintf(alias, sizeof alias, "%.*s", (int)strcspn(p[i].alias, ","), p[i].alias);
        snprintf(layers, sizeof layers, "%u", m->layers);
        if (m->params_b > 0) { /* else not derived: pass --params */
            params_text(m->params_b, total, sizeof total);
            params_text(m->active_params_b > 0 ? m->active_params_b : m->params_b, active,
                        sizeof active);
        }
        if (strlen(alias) > MODEL_NAME_WIDTH) { /* a long alias on a line of its own */
            printf("%s\n", alias);
            alias[0] = '\0';
        }
        printf(MODEL_ROW, alias, p[i].arch, layers,
               kvt_fmt_bytes((double)kv_per_token(m), kv, sizeof kv), total, active,
               kvt_fmt_int(m->max_position, ctx, sizeof ctx));
        printf("  %s\n", p[i].id);
    }
    puts("\nKV/TOKEN at the model's own dtype, every layer. PARAMS: stored; ACTIVE: read\n"
         "for each token (fewer for MoE). Use with: kvtutor calc --model ALIAS");
    return 0;
}

int cli_gpus(int argc, char **argv)
{
    size_t n;
    const struct kv_gpu_preset *g = kv_gpu_presets(&n);
    bool json;
    int rc = list_usage("gpus", argc, argv, &json);

    if (rc >= 0)
        return rc;
    if (json) {
        json_t *a = json_array();
        for (size_t i = 0; i < n; i++) {
            json_t *o = json_object();
            json_object_set_new(o, "name", json_string(g[i].name));
            json_object_set_new(o, "aliases", json_string(g[i].aliases));
            json_object_set_new(o, "compute_capability", json_string(g[i].compute_cap));
            json_object_set_new(o, "memory_gib", json_real(g[i].memory_gib));
            json_object_set_new(o, "memory_type", json_string(g[i].memory_type));
            json_object_set_new(o, "bus_bits", json_integer(g[i].bus_bits));
            json_object_set_new(o, "peak_gbps", json_real(g[i].peak_gbps));
            json_object_set_new(o, "mem_clock_khz",
                                g[i].mem_clock_khz ? json_integer((json_int_t)g[i].mem_clock_khz)
                                                   : json_null());
            json_object_set_new(o, "bf16_tflops",
                                g[i].bf16_tflops > 0 ? json_real(g[i].bf16_tflops) : json_null());
            json_object_set_new(o, "l2_mib", json_real(g[i].l2_mib));
            json_array_append_new(a, o);
        }
        return dump(a);
    }
    printf(GPU_ROW, "NAME", "ALIASES", "CC", "MEM GiB", "TYPE", "GB/s", "BF16 TFLOP/s", "L2 MiB");
    for (size_t i = 0; i < n; i++) {
        char mem[32], bw[32], tf[40] = "-", l2[40], num[32];
        /* data-sheet figures as published (716.8 GB/s, 126.5 MiB), grouped */
        kvt_fmt_number(g[i].memory_gib, 1, mem, sizeof mem);
        kvt_fmt_number(g[i].peak_gbps, 1, bw, sizeof bw);
        if (g[i].bf16_tflops > 0)
            snprintf(tf, sizeof tf, "%s%s", g[i].approx & KV_GPU_APPROX_TFLOPS ? "~" : "",
                     kvt_fmt_number(g[i].bf16_tflops, 1, num, sizeof num));
        snprintf(l2, sizeof l2, "%s%s", g[i].approx & KV_GPU_APPROX_L2 ? "~" : "",
                 kvt_fmt_number(g[i].l2_mib, 2, num, sizeof num));
        printf(GPU_ROW, g[i].name, g[i].aliases, g[i].compute_cap, mem, g[i].memory_type, bw, tf,
               l2);
    }
    puts("\nMEM is the marketed size taken as GiB; CUDA reports a little less (an H100\n"
         "80GB: 79.19 GiB from torch.cuda.mem_get_info, which vLLM sizes from;\n"
         "nvidia-smi's MiB total is a little higher): pass --gpu-mem-gib with CUDA's\n"
         "figure for exact budgets. BF16 is dense, without sparsity. ~ marks unconfirmed\n"
         "figures.");
    return 0;
}
