/* `kvtutor models` and `kvtutor gpus`: the preset tables, as a person or a
 * script wants them. */
#include "cli.h"
#include "cli_json.h"
#include "cli_args.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "kv_presets.h"

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
    printf("%-16s %-36s %-11s %6s %12s %9s %8s\n", "ALIAS", "HUGGING FACE ID", "ATTENTION",
           "LAYERS", "KV/TOKEN", "PARAMS", "CONTEXT");
    for (size_t i = 0; i < n; i++) {
        const struct kv_model *m = &p[i].model;
        char params[40];
        if (m->params_b <= 0)
            snprintf(params, sizeof params, "-"); /* not derived: pass --params */
        else if (m->active_params_b > 0)
            snprintf(params, sizeof params, "%.1fB/%.1fB", m->params_b, m->active_params_b);
        else
            snprintf(params, sizeof params, "%.1fB", m->params_b);
        printf("%-16.*s %-36s %-11s %6u %12s %9s %8s\n", (int)strcspn(p[i].alias, ","), p[i].alias,
               p[i].id, p[i].arch, m->layers, kvt_fmt_bytes((double)kv_per_token(m), kv, sizeof kv),
               params, kvt_fmt_int(m->max_position, ctx, sizeof ctx));
    }
    puts("\nKV/TOKEN at the model's own dtype; PARAMS total/active for MoE. "
         "Use with: kvtutor calc --model ALIAS");
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
    printf("%-14s %-16s %4s %7s %-7s %9s %10s %6s\n", "NAME", "ALIASES", "CC", "MEMORY", "TYPE",
           "BANDWIDTH", "BF16", "L2");
    for (size_t i = 0; i < n; i++) {
        char mem[32], bw[32], tf[32], l2[32];
        snprintf(mem, sizeof mem, "%g GiB", g[i].memory_gib);
        snprintf(bw, sizeof bw, "%g GB/s", g[i].peak_gbps);
        if (g[i].bf16_tflops > 0)
            snprintf(tf, sizeof tf, "%s%g TF/s", g[i].approx & KV_GPU_APPROX_TFLOPS ? "~" : "",
                     g[i].bf16_tflops);
        else
            snprintf(tf, sizeof tf, "-");
        snprintf(l2, sizeof l2, "%s%g MiB", g[i].approx & KV_GPU_APPROX_L2 ? "~" : "", g[i].l2_mib);
        printf("%-14s %-16s %4s %7s %-7s %9s %10s %6s\n", g[i].name, g[i].aliases, g[i].compute_cap,
               mem, g[i].memory_type, bw, tf, l2);
    }
    puts("\nMEMORY is the marketed size taken as GiB; the driver reports a little less (an H100 "
         "80GB shows 79.19 GiB):\npass --gpu-mem-gib with what nvidia-smi shows for exact budgets. "
         "~ marks unconfirmed figures.");
    return 0;
}
