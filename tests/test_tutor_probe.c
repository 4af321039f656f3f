/* test_tutor_probe.c: one probe run as the probe screen and `kvtutor
 * probe` carry it, over the fake probes in tests/probes: what ran, the
 * fall-back to host memory, the progress bars and the run kept. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "store_report.h"
#include "tmp_dir.h"
#include "tutor_probe.h"

static void run(struct tutor_probe *tp, const char *kind, const char *script)
{
    char path[512];
    char *argv[] = {path, NULL};
    snprintf(path, sizeof path, "%s/%s", PROBE_DIR, script);
    assert_int_equal(tutor_probe_start(tp, kind, argv, 20, NULL, 1000, NULL, NULL), KVT_E_OK);
    while (tutor_probe_step(tp, 100))
        ;
}

/* clean.sh: a CPU device line, read at 50 then 100 percent, two results. */
static void test_clean_run(void **state)
{
    struct tutor_probe tp;
    (void)state;
    run(&tp, "cuda", "clean.sh");
    assert_false(tp.running);
    assert_int_equal(tp.out.end, PROBE_OK);
    /* asked for the GPU, the device line says a CPU ran: kept as "cpu" */
    assert_string_equal(tutor_probe_ran(&tp), "cpu");
    assert_false(tutor_probe_try_host(&tp));
    assert_true(tp.pct[0] == 100.0);
    assert_true(tp.pct[1] == 0.0 && tp.pct[2] == 0.0); /* no progress said of them */
    assert_non_null(probe_log_result(&tp.log, "read"));
    assert_true(probe_log_result(&tp.log, "read")->gbps_median == 20.0);
    assert_string_equal(tutor_probe_end_name(&tp), "ok");
    tutor_probe_free(&tp);
}

/* no_gpu.sh: no usable driver; host memory is measured instead, and only
 * after a GPU run. */
static void test_no_gpu_falls_back(void **state)
{
    struct tutor_probe tp;
    char *none[] = {NULL};
    (void)state;
    run(&tp, "cuda", "no_gpu.sh");
    assert_int_equal(tp.out.end, PROBE_NO_GPU);
    assert_true(tutor_probe_try_host(&tp));
    tutor_probe_free(&tp);
    run(&tp, "cpu", "no_gpu.sh");
    assert_false(tutor_probe_try_host(&tp));
    tutor_probe_free(&tp);
    /* a build without the GPU probe: ended at once, as not found */
    assert_int_not_equal(tutor_probe_start(&tp, "cuda", none, 0, NULL, 1000, NULL, NULL), KVT_E_OK);
    assert_false(tp.running);
    assert_int_equal(tp.out.end, PROBE_NOT_FOUND);
    assert_true(tutor_probe_try_host(&tp));
    tutor_probe_free(&tp);
    assert_string_equal(tutor_probe_first(NULL), "cpu");
    assert_string_equal(tutor_probe_first(PROBE_DIR "/no-such-probe"), "cpu");
    assert_string_equal(tutor_probe_first(PROBE_DIR "/clean.sh"), "cuda");
}

/* hang.sh never ends: cancelling stops it, classified as stopped. */
static void test_cancel(void **state)
{
    struct tutor_probe tp;
    char path[512];
    char *argv[] = {path, NULL};
    (void)state;
    snprintf(path, sizeof path, "%s/hang.sh", PROBE_DIR);
    assert_int_equal(tutor_probe_start(&tp, "cpu", argv, 20, NULL, 1000, NULL, NULL), KVT_E_OK);
    assert_true(tp.running);
    tutor_probe_cancel(&tp);
    assert_false(tp.running);
    assert_int_equal(tp.out.end, PROBE_STOPPED);
    assert_string_equal(tp.out.message, "stopped");
    tutor_probe_free(&tp);
}

/* The run is kept under what ran. */
static void test_saved_as_ran(void **state)
{
    struct tutor_probe tp;
    struct store *st;
    struct store_error err;
    char dir[128], db[256];
    int64_t id;
    (void)state;
    assert_int_equal(tmp_dir_make(dir, sizeof dir, "kvt_tprobe_"), 0);
    snprintf(db, sizeof db, "%s/p.db", dir);
    assert_int_equal(store_open(db, false, &st, &err), KVT_E_OK);
    assert_int_equal(store_learner(st, "ann", 1000, &id, &err), KVT_E_OK);
    run(&tp, "cuda", "clean.sh");
    assert_int_equal(tutor_probe_save(&tp, st, id, &err), KVT_E_OK);
    tutor_probe_free(&tp);
    {
        /* found as a CPU run, and no GPU run is kept */
        struct store_probe_last last;
        assert_int_equal(store_probe_last(st, id, "cpu", &last, &err), KVT_E_OK);
        assert_string_equal(last.probe, "cpu");
        assert_true(last.read_gbps == 20.0);
        assert_int_equal(store_probe_last(st, id, "cuda", &last, &err), KVT_E_DB_NOT_FOUND);
    }
    store_close(st);
    tmp_dir_remove(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clean_run),
        cmocka_unit_test(test_no_gpu_falls_back),
        cmocka_unit_test(test_cancel),
        cmocka_unit_test(test_saved_as_ran),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
