/* `kvtutor probe`: the ceiling it draws from a probe's figures, what it keeps
 * in the progress database, the real CPU probe end to end, and usage errors.
 *
 * The ceiling for Qwen2.5-7B (bf16) at sequences of 8,192 tokens, by hand:
 *   weights     7,615,616,512 params x 2 B = 15,231,233,024 B
 *   KV / seq    8,192 x 57,344 B = 469,762,048 B
 *   batch 1     one step reads 15,700,995,072 B
 *               at 900 GB/s: 900e9 / 15,700,995,072 = 57.32 tokens/s
 *               at 1008 GB/s: 64.20 tokens/s
 *   24 GiB free 25,769,803,776 - 15,231,233,024 = 10,538,570,752 B for KV
 *               / (16 x 57,344 B) = 11,486 blocks / 512 per sequence = 22
 *   batch 22    one step reads 15,231,233,024 + 22 x 469,762,048 = 25,565,998,080 B
 *               at 900 GB/s: 22 x 900e9 / 25,565,998,080 = 774.47 tokens/s
 *               at 1008 GB/s: 867.40 tokens/s */
#include <jansson.h>
#include <math.h>
#include <setjmp.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "run_cmd.h"
#include "tsv.h"

#ifndef PROBE_DIR
#error "PROBE_DIR must name tests/probes"
#endif

static char db_path[256];

static int setup(void **state)
{
    (void)state;
    snprintf(db_path, sizeof db_path, "/tmp/kvt-cli-probe-%ld.db", (long)getpid());
    unlink(db_path);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    unlink(db_path);
    return 0;
}

/* kvtutor probe ARGS..., its JSON document (NULL when stdout is not JSON). */
static json_t *probe_json(char **args, int want_status, struct run_result *keep)
{
    char *argv[32];
    int n = 0;
    struct run_result r;
    argv[n++] = (char *)run_kvtutor_path();
    argv[n++] = "probe";
    for (int i = 0; args[i]; i++)
        argv[n++] = args[i];
    argv[n] = NULL;
    assert_int_equal(run_cmd(argv, NULL, &r), 0);
    if (r.status != want_status)
        fail_msg("probe: exit %d, want %d\nstdout: %s\nstderr: %s", r.status, want_status, r.out,
                 r.err);
    json_t *j = json_loads(r.out, 0, NULL);
    if (keep)
        *keep = r;
    else
        run_free(&r);
    return j;
}

static double dnum(const json_t *o, const char *path1, const char *path2)
{
    const json_t *v = json_object_get(o, path1);
    if (path2)
        v = json_object_get(v, path2);
    if (!json_is_number(v))
        fail_msg("%s.%s is not a number", path1, path2 ? path2 : "");
    return json_number_value(v);
}

static void test_ceiling_from_a_gpu_run(void **state)
{
    (void)state;
    char *args[] = {"--program", "/bin/sh", "--cuda", "--json",
                    "--db",      db_path,   "--",     PROBE_DIR "/gpu_24g.sh",
                    NULL};
    json_t *j = probe_json(args, 0, NULL);
    assert_non_null(j);
    assert_string_equal(json_string_value(json_object_get(j, "outcome")), "ok");
    assert_string_equal(json_string_value(json_object_get(j, "probe")), "cuda");
    assert_string_equal(json_string_value(json_object_get(j, "model")), "Qwen/Qwen2.5-7B-Instruct");
    assert_int_equal(json_array_size(json_object_get(j, "results")), 2);
    const json_t *c = json_object_get(j, "ceiling");
    assert_float_equal(dnum(c, "measured_gbps", NULL), 900.0, 1e-9);
    const json_t *m = json_object_get(c, "measured"), *p = json_object_get(c, "at_peak");
    assert_float_equal(dnum(m, "batch1_tokens_per_s", NULL), 57.32, 0.005);
    assert_int_equal((int)dnum(m, "fill_batch", NULL), 22);
    assert_float_equal(dnum(m, "fill_tokens_per_s", NULL), 774.47, 0.005);
    assert_float_equal(dnum(p, "batch1_tokens_per_s", NULL), 64.20, 0.005);
    assert_float_equal(dnum(p, "fill_tokens_per_s", NULL), 867.40, 0.005);
    json_decref(j);

    /* the run is kept with its device and figures */
    sqlite3 *db;
    sqlite3_stmt *s;
    assert_int_equal(sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db,
                                        "SELECT probe, outcome, device, read_gbps, peak_gbps, "
                                        "free_bytes, json_array_length(figures) FROM probe_run",
                                        -1, &s, NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_step(s), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(s, 0), "cuda");
    assert_string_equal((const char *)sqlite3_column_text(s, 1), "ok");
    assert_string_equal((const char *)sqlite3_column_text(s, 2), "Fake GPU 24G");
    assert_float_equal(sqlite3_column_double(s, 3), 900.0, 1e-9);
    assert_float_equal(sqlite3_column_double(s, 4), 1008.0, 1e-9);
    assert_int_equal(sqlite3_column_int64(s, 5), 25769803776);
    assert_int_equal(sqlite3_column_int(s, 6), 2);
    assert_int_equal(sqlite3_step(s), SQLITE_DONE);
    sqlite3_finalize(s);
    sqlite3_close(db);
}

static void test_human_output(void **state)
{
    (void)state;
    struct run_result r;
    char *args[] = {"--program", "/bin/sh", "--no-record", "--", PROBE_DIR "/gpu_24g.sh", NULL};
    json_t *j = probe_json(args, 0, &r);
    assert_null(j);
    assert_non_null(strstr(r.out, "GPU: Fake GPU 24G (compute 8.9, 128 SMs, 72 MiB L2)"));
    /* rates as calc writes them: whole from 100, one decimal below; shares
     * whole from 10%: 900 / 1,008 = 89.29% */
    assert_non_null(strstr(r.out, "900 GB/s median, 910 best"));
    assert_non_null(strstr(r.out, ": 89% of peak"));
    assert_non_null(strstr(r.out, "1,008 GB/s"));
    assert_non_null(strstr(r.out, "batch 22 (fills 24 GiB free)"));
    assert_non_null(strstr(r.out, "57.3 tok/s     64.2 tok/s")); /* 57.32 and 64.20 */
    assert_non_null(strstr(r.out, "774 tok/s      867 tok/s"));  /* 774.47 and 867.40 */
    /* the paged run: 870 GB/s against 890 contiguous, 2.2% (tests/probes/gpu_24g.sh) */
    assert_non_null(strstr(r.out, "870 GB/s at block 16, 890 contiguous: paging costs 2.2%"));
    run_free(&r);
}

static void test_failures_exit_1_with_the_reason(void **state)
{
    (void)state;
    struct run_result r;
    char *no_gpu[] = {
        "--program", "/bin/sh", "--cuda", "--db", db_path, "--", PROBE_DIR "/no_gpu.sh", NULL};
    json_t *j = probe_json(no_gpu, 1, &r);
    assert_null(j);
    assert_non_null(strstr(r.err, "no usable NVIDIA driver"));
    run_free(&r);

    char *crash[] = {"--program",          "/bin/sh", "--json", "--db", db_path, "--",
                     PROBE_DIR "/segv.sh", NULL};
    j = probe_json(crash, 1, NULL);
    assert_string_equal(json_string_value(json_object_get(j, "outcome")), "crashed");
    assert_null(json_object_get(j, "ceiling"));
    json_decref(j);

    char *missing[] = {"--program", "/nonexistent/probe", "--json", "--no-record", NULL};
    j = probe_json(missing, 1, NULL);
    assert_string_equal(json_string_value(json_object_get(j, "outcome")), "not-found");
    json_decref(j);

    /* exit 0, but a read of 1e300 GB/s: failed, the figure named, no ceiling
     * drawn from it and nothing for the lessons to predict from */
    char *absurd[] = {
        "--program", "/bin/sh", "--cuda", "--db", db_path, "--", PROBE_DIR "/out_of_range.sh",
        NULL};
    j = probe_json(absurd, 1, &r);
    assert_null(j);
    assert_non_null(strstr(r.err, "cuda probe failed: its read result line says "
                                  "gbps_best 1e+300, outside 0 to 1,000,000"));
    assert_null(strstr(r.out, "Decode ceiling"));
    run_free(&r);
    sqlite3 *db;
    sqlite3_stmt *s;
    assert_int_equal(sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db,
                                        "SELECT outcome, read_gbps IS NULL, "
                                        "json_array_length(figures) FROM probe_run "
                                        "ORDER BY id DESC LIMIT 1",
                                        -1, &s, NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_step(s), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(s, 0), "failed");
    assert_int_equal(sqlite3_column_int(s, 1), 1);
    assert_int_equal(sqlite3_column_int(s, 2), 1); /* the paged line, sound, is kept */
    sqlite3_finalize(s);
    sqlite3_close(db);
}

static void test_usage_errors(void **state)
{
    (void)state;
    struct run_result r;
    char *both[] = {"--cpu", "--cuda", NULL};
    probe_json(both, 2, &r);
    assert_non_null(strstr(r.err, "--cpu and --cuda"));
    run_free(&r);

    char *model[] = {"--model", "qwen2.5-7", NULL};
    probe_json(model, 2, &r);
    assert_non_null(strstr(r.err, "--model qwen2.5-7: no such preset; closest: qwen2.5-7b"));
    assert_int_equal(run_count_lines(r.err), 1);
    run_free(&r);

    char *seq[] = {"--seq", "0", NULL};
    probe_json(seq, 2, &r);
    assert_non_null(strstr(r.err, "--seq 0"));
    run_free(&r);
}

/* The real CPU probe, small: every kernel reports, the protocol holds. */
static void test_cpu_probe_end_to_end(void **state)
{
    (void)state;
    char *args[] = {"--cpu", "--json", "--db", db_path, "--", "--size-mib", "64", NULL};
    json_t *j = probe_json(args, 0, NULL);
    assert_non_null(j);
    assert_string_equal(json_string_value(json_object_get(j, "outcome")), "ok");
    const json_t *dev = json_object_get(j, "device");
    assert_string_equal(json_string_value(json_object_get(dev, "kind")), "cpu");
    assert_true(dnum(dev, "threads", NULL) >= 1);
    assert_int_equal((int64_t)dnum(dev, "buffer_bytes", NULL) % (64 * 2048), 0);

    const json_t *res = json_object_get(j, "results");
    static const int sizes[] = {1, 8, 16, 32, 64};
    assert_int_equal(json_array_size(res), 6);
    const json_t *rd = json_array_get(res, 0);
    assert_string_equal(json_string_value(json_object_get(rd, "kernel")), "read");
    assert_int_equal((int)dnum(rd, "iterations", NULL), 20);
    assert_true(dnum(rd, "gbps_median", NULL) > 0.1);
    assert_true(dnum(rd, "gbps_best", NULL) >= dnum(rd, "gbps_median", NULL));
    for (int i = 0; i < 5; i++) {
        const json_t *pg = json_array_get(res, (size_t)i + 1);
        assert_string_equal(json_string_value(json_object_get(pg, "kernel")), "paged");
        assert_int_equal((int)dnum(pg, "block_size", NULL), sizes[i]);
        assert_true(dnum(pg, "gbps_median", NULL) > 0.1);
        /* tax = 1 - paged / contiguous, as a percentage, worked out by the probe
         * from its unrounded figures, which it prints to two decimals (each
         * within 0.005 of the true one) and the tax to one (within 0.05). The
         * printed tax must lie in the range the printed figures allow: on a
         * loaded machine at 0.5 GB/s that range is a point wide, not 0.2. */
        double p = dnum(pg, "gbps_median", NULL), c = dnum(pg, "contiguous_gbps_median", NULL);
        double lo = 100.0 * (1.0 - (p + 0.005) / (c - 0.005));
        double hi = 100.0 * (1.0 - (p - 0.005) / (c + 0.005));
        double tax = dnum(pg, "tax_percent", NULL);
        if (tax < lo - 0.05 - 1e-9 || tax > hi + 0.05 + 1e-9)
            fail_msg("block %d: tax %.1f%% outside %.3f..%.3f%% (paged %.2f, contiguous %.2f)",
                     sizes[i], tax, lo, hi, p, c);
    }
    json_decref(j);
}

/* No --cpu or --cuda on a machine without a GPU: the GPU probe says why,
 * then host memory is measured, and only that run is kept. */
static void test_falls_back_to_the_cpu(void **state)
{
    (void)state;
    if (access("/dev/nvidia0", F_OK) == 0)
        skip();
    char path[300];
    snprintf(path, sizeof path, "%s.fallback", db_path);
    unlink(path);
    char *args[] = {"--json", "--db", path, "--", "--size-mib", "64", NULL};
    json_t *j = probe_json(args, 0, NULL);
    assert_string_equal(json_string_value(json_object_get(j, "probe")), "cpu");
    json_decref(j);

    sqlite3 *db;
    sqlite3_stmt *s;
    assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    assert_int_equal(
        sqlite3_prepare_v2(db, "SELECT probe, outcome FROM probe_run ORDER BY id", -1, &s, NULL),
        SQLITE_OK);
    /* the GPU attempt measured nothing and is not kept: the host run is the run */
    assert_int_equal(sqlite3_step(s), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(s, 0), "cpu");
    assert_string_equal((const char *)sqlite3_column_text(s, 1), "ok");
    assert_int_equal(sqlite3_step(s), SQLITE_DONE);
    sqlite3_finalize(s);
    sqlite3_close(db);
    unlink(path);
}

/* On a MIG slice the peak is unknown: said so, and no "% of peak" drawn;
 * the driver, ECC and occupancy the probe reports are shown. */
static void test_mig_slice_has_no_peak(void **state)
{
    (void)state;
    struct run_result r;
    char *args[] = {"--program", "/bin/sh", "--cuda", "--no-record", "--", PROBE_DIR "/gpu_mig.sh",
                    NULL};
    probe_json(args, 0, &r);
    assert_non_null(strstr(r.out, "GPU: NVIDIA H200 MIG 1g.18gb (compute 9.0, 16 SMs"));
    assert_non_null(strstr(r.out, "CUDA driver 13.0, runtime 13.0; ECC on; 8 blocks of 256 "
                                  "threads per SM, one wave"));
    assert_non_null(strstr(r.out, "A MIG slice: its memory clock and bus are the whole GPU's, so "
                                  "its peak is unknown"));
    assert_null(strstr(r.out, "Peak from"));
    assert_null(strstr(r.out, "of peak"));
    assert_non_null(strstr(r.out, "550 GB/s median"));
    assert_non_null(strstr(r.out, "(50% of the model's layers: as many as fit"));
    run_free(&r);
}

/* Text from a probe (device name, compute capability, kernel, error
 * message) holding a title change, a screen clear and an 8-bit CSI never
 * reaches the terminal as such: not in the report, not in the progress
 * bar, not in the failure line, not in --json. */
static bool has_raw_controls(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if ((*p < 0x20 && *p != '\n' && *p != '\r') || *p == 0x7f ||
            (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f))
            return true;
    return false;
}

static void test_probe_text_never_reaches_the_terminal_raw(void **state)
{
    (void)state;
    struct run_result r;
    char *ok[] = {"--program", "/bin/sh", "--cuda", "--no-record", "--", PROBE_DIR "/escapes.sh",
                  NULL};
    probe_json(ok, 0, &r);
    assert_non_null(strstr(r.out, "GPU: GPU")); /* the name is shown, made inert */
    assert_non_null(strstr(r.out, "pwned"));
    assert_false(has_raw_controls(r.out));
    assert_false(has_raw_controls(r.err));
    run_free(&r);

    char *failed[] = {"--program",   "/bin/sh", "--cuda",
                      "--no-record", "--",      PROBE_DIR "/escapes.sh",
                      "fail",        NULL};
    probe_json(failed, 1, &r);
    assert_non_null(strstr(r.err, "cuda probe failed: bad"));
    assert_false(has_raw_controls(r.err));
    run_free(&r);

    char *json[] = {
        "--program", "/bin/sh", "--cuda", "--no-record", "--json", "--", PROBE_DIR "/escapes.sh",
        "fail",      NULL};
    json_t *j = probe_json(json, 1, &r);
    assert_non_null(j); /* still the probe's words, escaped as JSON */
    assert_non_null(strstr(json_string_value(json_object_get(json_object_get(j, "device"), "name")),
                           "\x1b]0;pwned"));
    for (const unsigned char *p = (const unsigned char *)r.out; *p; p++)
        assert_true(*p == '\n' || (*p >= 0x20 && *p < 0x7f));
    json_decref(j);
    run_free(&r);
}

/* The flags `kvtutor probe --model M` hands the GPU probe, against every
 * model's config.json (tests/fixtures/model-presets.tsv): hidden, heads x
 * head_dim, KV heads x head_dim (MLA: the latent, kv_lora_rank +
 * qk_rope_head_dim), the MLP a token reads (intermediate_size; MoE:
 * (experts per token + shared) x moe_intermediate_size), vocabulary,
 * layers, and the sequence length as the context. */
static unsigned long long flag_value(const char *file, const char *flag, int *count)
{
    FILE *f = fopen(file, "r");
    char line[256];
    unsigned long long v = 0;
    bool next = false;
    *count = 0;
    assert_non_null(f);
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (next)
            v = strtoull(line, NULL, 10);
        next = strcmp(line, flag) == 0;
        *count += next;
    }
    fclose(f);
    return v;
}

static unsigned long long cell(const struct tsv *t, size_t row, const char *col)
{
    return strtoull(tsv_get(t, row, col), NULL, 10);
}

static void test_model_shapes_reach_the_gpu_probe(void **state)
{
    (void)state;
    struct tsv t;
    char file[256];
    snprintf(file, sizeof file, "/tmp/kvt-cli-probe-args-%ld", (long)getpid());
    assert_int_equal(tsv_load("model-presets.tsv", &t), 0);
    for (size_t i = 0; i < tsv_count(&t); i++) {
        const char *model = tsv_get(&t, i, "model");
        char *args[] = {"--program",   "/bin/sh", "--cuda", "--no-record", "--model",
                        (char *)model, "--seq",   "4096",   "--",          PROBE_DIR "/args.sh",
                        file,          NULL};
        struct run_result r;
        int n;
        unlink(file);
        probe_json(args, 0, &r);
        run_free(&r);
        bool mla = strcmp(tsv_get(&t, i, "kv_lora_rank"), "-") != 0;
        bool moe = strcmp(tsv_get(&t, i, "experts_per_token"), "-") != 0;
        unsigned long long head = cell(&t, i, "head_dim");
        unsigned long long kv = mla ? cell(&t, i, "kv_lora_rank") + cell(&t, i, "qk_rope_head_dim")
                                    : cell(&t, i, "num_key_value_heads") * head;
        unsigned long long mlp =
            moe ? (cell(&t, i, "experts_per_token") + cell(&t, i, "shared_experts")) *
                      cell(&t, i, "moe_intermediate_size")
                : cell(&t, i, "intermediate_size");
        /* gpt-oss: experts in MXFP4 (4.25 bits a weight), the rest in bf16:
         * measured as an MLP of the same bytes in 2-byte elements,
         * 4 x 2880 x 4.25 / 16 = 3060 */
        if (strncmp(model, "gpt-oss", 7) == 0)
            mlp = mlp * 425 / 1600;
        const struct {
            const char *flag;
            unsigned long long want;
        } f[] = {
            {"--hidden", cell(&t, i, "hidden_size")},
            {"--q-dim", cell(&t, i, "num_attention_heads") * head},
            {"--kv-dim", kv},
            {"--mlp-dim", mlp},
            {"--vocab", cell(&t, i, "vocab_size")},
            {"--layers", cell(&t, i, "num_hidden_layers")},
            {"--context", 4096},
        };
        for (size_t k = 0; k < sizeof f / sizeof f[0]; k++) {
            unsigned long long got = flag_value(file, f[k].flag, &n);
            if (n != 1 || got != f[k].want)
                fail_msg("%s: %s %llu (given %d times), want %llu", model, f[k].flag, got, n,
                         f[k].want);
        }
        /* DeepSeek-V3 ships FP8 weights; the others bf16 */
        assert_int_equal(flag_value(file, "--elem-bytes", &n), mla ? 1 : 2);
        /* full attention everywhere: the config's KV bytes per token in 16 bits */
        unsigned long long kv_token = flag_value(file, "--kv-token-bytes", &n);
        unsigned long long full = cell(&t, i, "kv_bytes_per_token_16bit_all_layers_full");
        if (strcmp(tsv_get(&t, i, "sliding_window"), "none") == 0 && kv_token != full)
            fail_msg("%s: --kv-token-bytes %llu, want %llu", model, kv_token, full);
        assert_true(kv_token > 0 && kv_token <= full);
    }
    tsv_free(&t);

    /* a flag given after -- is the learner's: not given twice */
    char *mine[] = {"--program",          "/bin/sh", "--cuda",   "--no-record", "--",
                    PROBE_DIR "/args.sh", file,      "--hidden", "100",         NULL};
    struct run_result r;
    int n;
    probe_json(mine, 0, &r);
    run_free(&r);
    assert_int_equal(flag_value(file, "--hidden", &n), 100);
    assert_int_equal(n, 1);
    assert_int_equal(flag_value(file, "--vocab", &n), 152064); /* qwen2.5-7b, the default */
    /* the CPU probe has no decode step: no shapes for it */
    char *cpu[] = {"--program", "/bin/sh", "--no-record", "--", PROBE_DIR "/args.sh", file, NULL};
    probe_json(cpu, 0, &r);
    run_free(&r);
    flag_value(file, "--hidden", &n);
    assert_int_equal(n, 0);
    unlink(file);
}

/* The CPU probe refuses --size-mib out of range naming the bound it broke. */
static void test_cpu_probe_size_refused_with_the_reason(void **state)
{
    (void)state;
    char cpu[4096];
    snprintf(cpu, sizeof cpu, "%s", run_kvtutor_path());
    char *slash = strrchr(cpu, '/');
    assert_non_null(slash);
    snprintf(slash + 1, sizeof cpu - (size_t)(slash + 1 - cpu),
             "libexec/kvtutor/kvtutor-probe-cpu");
    struct run_result r;
    /* 256 threads x one 64-token block of 2 KiB = 32 MiB at least */
    char *small[] = {cpu, "--size-mib", "16", "--threads", "256", NULL};
    assert_int_equal(run_cmd(small, NULL, &r), 0);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.out, "--size-mib 16 is below 32 MiB, one 64-token block of 2 KiB "
                                  "tokens for each of 256 threads"));
    run_free(&r);
    /* 1 TiB, the flag's ceiling: more than half of what any test machine has */
    char *big[] = {cpu, "--size-mib", "1048576", NULL};
    assert_int_equal(run_cmd(big, NULL, &r), 0);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.out, "--size-mib 1048576 is more than half of the available memory"));
    run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ceiling_from_a_gpu_run),
        cmocka_unit_test(test_human_output),
        cmocka_unit_test(test_failures_exit_1_with_the_reason),
        cmocka_unit_test(test_usage_errors),
        cmocka_unit_test(test_cpu_probe_end_to_end),
        cmocka_unit_test(test_falls_back_to_the_cpu),
        cmocka_unit_test(test_probe_text_never_reaches_the_terminal_raw),
        cmocka_unit_test(test_mig_slice_has_no_peak),
        cmocka_unit_test(test_model_shapes_reach_the_gpu_probe),
        cmocka_unit_test(test_cpu_probe_size_refused_with_the_reason),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
