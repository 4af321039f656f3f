/* test_probe_cuda.c: the CUDA probe where there is no GPU. Every "no usable
 * GPU" case must exit 3 with its own line, and `kvtutor probe` must then
 * measure host memory instead.
 *
 * The cases come from a stand-in libcuda.so.1 (tests/probes/fake_libcuda.c,
 * found through LD_LIBRARY_PATH) that returns the driver's own error codes
 * to the real probe's static CUDA runtime; from the toolkit's stub
 * libcuda.so; from this machine's lack of any driver; and, for a GPU older
 * than compute 7.5, from a test build of the probe (KVT_PROBE_FAKE_CC). */
#define _POSIX_C_SOURCE 200809L
#include <jansson.h>
#include <setjmp.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "run_cmd.h"

#if !defined(CUDA_PROBE) || !defined(CUDA_PROBE_FAULTS) || !defined(FAKE_CUDA_DIR)
#error "CUDA_PROBE, CUDA_PROBE_FAULTS and FAKE_CUDA_DIR must be defined"
#endif

/* Runs `program` with args and env; checks the exit status and returns the
 * "message" of its one stdout line, whose no_gpu flag must be `no_gpu`. */
static char *probe_says(const char *program, char **args, char **env, int want_status, int no_gpu)
{
    char *argv[16];
    int n = 0;
    struct run_result r;
    static char msg[512];
    argv[n++] = (char *)program;
    for (int i = 0; args && args[i]; i++)
        argv[n++] = args[i];
    argv[n] = NULL;
    assert_int_equal(run_cmd(argv, env, &r), 0);
    if (r.status != want_status)
        fail_msg("%s: exit %d, want %d\nstdout: %s\nstderr: %s", program, r.status, want_status,
                 r.out, r.err);
    assert_int_equal(run_count_lines(r.out), 1);
    json_t *j = json_loads(r.out, 0, NULL);
    assert_non_null(j);
    assert_string_equal(json_string_value(json_object_get(j, "type")), "error");
    assert_int_equal(json_is_true(json_object_get(j, "no_gpu")), no_gpu);
    snprintf(msg, sizeof msg, "%s", json_string_value(json_object_get(j, "message")));
    json_decref(j);
    run_free(&r);
    return msg;
}

static void expect_no_gpu(const char *init, const char *driver, const char *want)
{
    char e1[64], e2[64], e3[300];
    snprintf(e1, sizeof e1, "FAKE_CU_INIT=%s", init);
    snprintf(e2, sizeof e2, "FAKE_CU_DRIVER=%s", driver);
    snprintf(e3, sizeof e3, "LD_LIBRARY_PATH=%s", FAKE_CUDA_DIR);
    char *env[] = {e1, e2, e3, NULL};
    const char *msg = probe_says(CUDA_PROBE, NULL, env, 3, 1);
    if (!strstr(msg, want))
        fail_msg("cuInit %s, driver %s: \"%s\" does not say \"%s\"", init, driver, msg, want);
}

/* Each driver error that means "no GPU to use here" has its own reason. */
static void test_driver_errors_exit_3(void **state)
{
    (void)state;
    expect_no_gpu("100", "13000", "the NVIDIA driver sees no CUDA device");
    expect_no_gpu("34", "13000", "only the CUDA toolkit's stub libcuda.so was found");
    expect_no_gpu("802", "13000", "Fabric Manager");
    expect_no_gpu("802", "13000", "error 802");
    expect_no_gpu("803", "13000", "error 803");
    expect_no_gpu("804", "13000", "error 804");
    expect_no_gpu("46", "13000", "error 46");
    /* CUDA_ERROR_UNKNOWN: a GPU off the bus or needing a reset */
    expect_no_gpu("999", "13000", "unknown error (999)");
}

/* A driver older than the runtime names both versions: 12040 is CUDA 12.4;
 * the probe's runtime is CUDA 13.0 or later. */
static void test_old_driver_names_both_versions(void **state)
{
    (void)state;
    expect_no_gpu("0", "12040",
                  "the NVIDIA driver supports CUDA 12.4, older than this probe's "
                  "CUDA 13.");
    expect_no_gpu("0", "12040", "upgrade the driver");
}

/* An error that is not about the absence of a GPU fails (exit 1), naming
 * the call, not a variable. */
static void test_other_errors_exit_1_naming_the_call(void **state)
{
    (void)state;
    char e1[] = "FAKE_CU_INIT=2", e3[300]; /* CUDA_ERROR_OUT_OF_MEMORY */
    snprintf(e3, sizeof e3, "LD_LIBRARY_PATH=%s", FAKE_CUDA_DIR);
    char *env[] = {e1, e3, NULL};
    const char *msg = probe_says(CUDA_PROBE, NULL, env, 1, 0);
    assert_non_null(strstr(msg, "cudaGetDeviceCount failed"));
}

/* The stub library from the CUDA toolkit itself, when this build has one. */
static void test_toolkit_stub_library(void **state)
{
    (void)state;
#ifdef CUDA_STUB_DIR
    char dir[600], link[700], e[700];
    snprintf(dir, sizeof dir, "/tmp/kvt-cuda-stub-%ld", (long)getpid());
    snprintf(link, sizeof link, "%s/libcuda.so.1", dir);
    char target[600];
    snprintf(target, sizeof target, "%s/libcuda.so", CUDA_STUB_DIR);
    if (access(target, R_OK) != 0)
        skip();
    if (mkdir(dir, 0700) != 0 && access(dir, W_OK) != 0)
        skip();
    unlink(link);
    assert_int_equal(symlink(target, link), 0);
    snprintf(e, sizeof e, "LD_LIBRARY_PATH=%s", dir);
    char *env[] = {e, NULL};
    const char *msg = probe_says(CUDA_PROBE, NULL, env, 3, 1);
    assert_non_null(strstr(msg, "stub libcuda.so"));
    unlink(link);
    rmdir(dir);
#else
    skip();
#endif
}

/* This machine as it is: without a driver the probe says so. */
static void test_no_driver_at_all(void **state)
{
    (void)state;
    if (access("/dev/nvidia0", F_OK) == 0 || access("/dev/nvidiactl", F_OK) == 0)
        skip();
    const char *msg = probe_says(CUDA_PROBE, NULL, NULL, 3, 1);
    /* no libcuda.so.1 at all, or one without a device behind it */
    assert_true(strstr(msg, "no NVIDIA driver is installed") ||
                strstr(msg, "sees no CUDA device") || strstr(msg, "stub"));
}

/* A GPU older than compute 7.5, which CUDA 13 cannot build for. */
static void test_old_gpu_exits_3(void **state)
{
    (void)state;
    char e1[] = "KVT_PROBE_FAKE_CC=7.0", e2[] = "KVT_PROBE_FAKE_CC=6.1";
    char *env1[] = {e1, NULL}, *env2[] = {e2, NULL};
    assert_string_equal(probe_says(CUDA_PROBE_FAULTS, NULL, env1, 3, 1),
                        "the GPU's compute capability 7.0 is below 7.5, the oldest CUDA 13 "
                        "builds for");
    assert_non_null(strstr(probe_says(CUDA_PROBE_FAULTS, NULL, env2, 3, 1), "6.1 is below 7.5"));
    /* the real probe has no such switch: it asks the runtime */
    assert_null(strstr(probe_says(CUDA_PROBE, NULL, env1, 3, 1), "compute capability"));
}

/* Flags are checked before any GPU is looked for. */
static void test_flag_errors(void **state)
{
    (void)state;
    char *zero[] = {"--size-mib", "0", NULL};
    assert_string_equal(probe_says(CUDA_PROBE, zero, NULL, 2, 0),
                        "--size-mib needs a whole number from 1 to 16777216");
    char *eb[] = {"--elem-bytes", "3x", NULL};
    assert_string_equal(probe_says(CUDA_PROBE, eb, NULL, 2, 0),
                        "--elem-bytes needs a whole number from 1 to 4");
    char *unknown[] = {"--weights-bytes", "1", NULL};
    assert_string_equal(probe_says(CUDA_PROBE, unknown, NULL, 2, 0), "unknown option (see --help)");
}

/* The GPU probe finds no GPU: it says why, host memory is measured, and the
 * command succeeds; only the host run is kept (a "cuda no-gpu" row measured
 * nothing, and was kept beside every host run before). The fallback is
 * checked on each reason the CUDA probe gives: the first reason's host run
 * goes to its end and is kept as ok; the other
 * four hand the host probe a size it refuses (8 MiB, below its 16), so the
 * fallback is seen (the reason, "Measuring host memory", a cpu row) without
 * four more full runs of the same host probe (2.5 s of CPU each). */
static void test_cli_falls_back_on_each_reason(void **state)
{
    (void)state;
    static const char *const inits[] = {"100", "34", "802", "803", "804"};
    static const char *const says[] = {"sees no CUDA device", "stub", "error 802", "error 803",
                                       "error 804"};
    for (size_t i = 0; i < sizeof inits / sizeof inits[0]; i++) {
        char db[256], e1[64], e3[300];
        const bool whole = i == 0;
        snprintf(db, sizeof db, "/tmp/kvt-probe-cuda-%ld-%zu.db", (long)getpid(), i);
        unlink(db);
        snprintf(e1, sizeof e1, "FAKE_CU_INIT=%s", inits[i]);
        snprintf(e3, sizeof e3, "LD_LIBRARY_PATH=%s", FAKE_CUDA_DIR);
        char *env[] = {e1, e3, NULL};
        char *argv[] = {(char *)run_kvtutor_path(), "probe", "--db", db, "--", "--size-mib",
                        whole ? "32" : "8",         NULL};
        struct run_result r;
        assert_int_equal(run_cmd(argv, env, &r), 0);
        if (r.status != (whole ? 0 : 1) || !strstr(r.err, says[i]) ||
            !strstr(r.err, "Measuring host memory"))
            fail_msg("cuInit %s: exit %d\nstderr: %s", inits[i], r.status, r.err);
        if (whole)
            assert_non_null(strstr(r.out, "CPU: "));
        else
            assert_non_null(strstr(r.err, "cpu probe failed: --size-mib needs a whole number"));
        run_free(&r);

        sqlite3 *h;
        sqlite3_stmt *s;
        assert_int_equal(sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
        assert_int_equal(
            sqlite3_prepare_v2(h, "SELECT probe, outcome FROM probe_run ORDER BY id", -1, &s, NULL),
            SQLITE_OK);
        assert_int_equal(sqlite3_step(s), SQLITE_ROW);
        assert_string_equal((const char *)sqlite3_column_text(s, 0), "cpu");
        assert_string_equal((const char *)sqlite3_column_text(s, 1), whole ? "ok" : "failed");
        assert_int_equal(sqlite3_step(s), SQLITE_DONE);
        sqlite3_finalize(s);
        sqlite3_close(h);
        unlink(db);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_driver_errors_exit_3),
        cmocka_unit_test(test_old_driver_names_both_versions),
        cmocka_unit_test(test_other_errors_exit_1_naming_the_call),
        cmocka_unit_test(test_toolkit_stub_library),
        cmocka_unit_test(test_no_driver_at_all),
        cmocka_unit_test(test_old_gpu_exits_3),
        cmocka_unit_test(test_flag_errors),
        cmocka_unit_test(test_cli_falls_back_on_each_reason),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
