/* test_probe_log.c: a probe run's lines gathered and kept as the probe
 * screen and `kvtutor probe` keep them: the first device line, the result
 * lines up to the cap, and the database columns the "measure, then
 * predict" questions read (a read figure only from a run that ended ok). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "probe_log.h"
#include "tmp_dir.h"

static char dir[64];

#ifndef PROBE_DIR
#error "PROBE_DIR must name tests/probes"
#endif

/* One protocol line, parsed as the supervisor parses it, into the log. */
static void feed(struct probe_log *g, const char *line)
{
    struct probe_event ev;
    if (probe_event_parse(line, strlen(line), &ev) != 0)
        fail_msg("bad test line %s", line);
    probe_log_event(g, &ev);
    probe_event_clear(&ev);
}

static void gather(void *ctx, const struct probe_event *ev)
{
    probe_log_event(ctx, ev);
}

/* Runs tests/probes/NAME.sh to its end, its lines gathered into g, the
 * outcome judged as the probe screen and `kvtutor probe` judge it. */
static struct probe_outcome run_fake(const char *name, struct probe_log *g)
{
    char script[1024];
    char *argv[] = {"/bin/sh", script, NULL};
    struct probe_limits lim = probe_default_limits();
    struct probe_run *r;
    struct probe_outcome o;

    snprintf(script, sizeof script, "%s/%s.sh", PROBE_DIR, name);
    probe_log_init(g);
    assert_int_equal(probe_start(argv, &lim, &r, &o), KVT_E_OK);
    probe_finish(r, gather, g, &o);
    probe_log_verdict(g, &o);
    return o;
}

static void test_keeps_first_device_and_results(void **state)
{
    (void)state;
    struct probe_log g;
    probe_log_init(&g);
    feed(&g, "{\"type\":\"device\",\"name\":\"First\",\"peak_gbps\":1008}");
    feed(&g, "{\"type\":\"progress\",\"kernel\":\"read\",\"percent\":10}");
    feed(&g, "{\"type\":\"device\",\"name\":\"Second\"}");
    feed(&g, "{\"type\":\"result\",\"kernel\":\"read\",\"gbps_median\":900}");
    feed(&g, "{\"type\":\"result\",\"kernel\":\"paged\",\"block_size\":16,\"gbps_median\":700}");
    feed(&g, "{\"type\":\"result\",\"kernel\":\"read\",\"gbps_median\":1}");
    feed(&g, "{\"type\":\"error\",\"message\":\"x\"}");

    assert_true(g.has_device);
    assert_string_equal(g.device.name, "First");
    assert_float_equal(g.device.peak_gbps, 1008, 0);
    /* the kind of line is not kept in its text */
    assert_string_equal(g.device.json, "{\"name\":\"First\",\"peak_gbps\":1008}");
    assert_int_equal(g.n_results, 3);
    /* the first read line is the one that counts */
    assert_float_equal(probe_log_result(&g, "read")->gbps_median, 900, 0);
    assert_float_equal(probe_log_result(&g, "paged")->block_size, 16, 0);
    assert_null(probe_log_result(&g, "decode"));
    probe_log_free(&g);
    assert_false(g.has_device);
    assert_null(g.device.json);
    assert_int_equal(g.n_results, 0);
}

/* Figures a working probe cannot say are not kept, and turn an ok run into
 * a failed one; figures at the edges of their ranges are kept. */
static void test_figures_out_of_range(void **state)
{
    (void)state;
    struct probe_log g;
    struct probe_outcome ok = {.end = PROBE_OK}, crashed = {.end = PROBE_CRASHED};
    probe_log_init(&g);
    feed(&g, "{\"type\":\"device\",\"name\":\"G\",\"free_bytes\":4611686018427387904,"
             "\"sms\":2147483647,\"peak_gbps\":1e6}"); /* 2^62, INT_MAX, 1 PB/s: the edges */
    feed(&g, "{\"type\":\"result\",\"kernel\":\"paged\",\"gbps_median\":900,"
             "\"tax_percent\":-3.5}"); /* paging can read faster */
    assert_true(g.has_device);
    assert_float_equal(g.device.free_bytes, 4611686018427387904.0, 0);
    assert_float_equal(g.device.sms, 2147483647, 0);
    assert_int_equal(g.n_results, 1);
    assert_float_equal(g.results[0].tax_percent, -3.5, 0);
    assert_string_equal(g.refused, "");
    probe_log_verdict(&g, &ok);
    assert_int_equal(ok.end, PROBE_OK);

    feed(&g, "{\"type\":\"result\",\"kernel\":\"paged\",\"block_size\":1e30}");
    feed(&g, "{\"type\":\"result\",\"kernel\":\"read\",\"gbps_median\":-1}");
    feed(&g, "{\"type\":\"result\",\"kernel\":\"read\",\"bytes\":\"lots\"}");
    assert_int_equal(g.n_results, 1);
    assert_null(probe_log_result(&g, "read"));
    /* the first offender is the one named */
    assert_string_equal(g.refused,
                        "its paged result line says block_size 1e+30, outside 0 to 2,147,483,647");
    probe_log_verdict(&g, &ok);
    assert_int_equal(ok.end, PROBE_FAILED);
    assert_string_equal(ok.message, g.refused);
    /* a run that ended otherwise keeps its own reason */
    probe_log_verdict(&g, &crashed);
    assert_int_equal(crashed.end, PROBE_CRASHED);
    assert_string_equal(crashed.message, "");
    probe_log_free(&g);

    probe_log_init(&g);
    feed(&g, "{\"type\":\"device\",\"name\":\"G\",\"free_bytes\":-1}");
    assert_false(g.has_device);
    assert_string_equal(g.device.name, "");
    assert_string_equal(g.refused, "its device line says free_bytes -1, outside 0 to 4.61e+18");
    feed(&g, "{\"type\":\"result\",\"kernel\":\"read\",\"bytes\":\"lots\"}");
    probe_log_free(&g);
}

static void test_results_are_capped(void **state)
{
    (void)state;
    struct probe_log g;
    probe_log_init(&g);
    for (int i = 0; i < PROBE_LOG_MAX_RESULTS + 10; i++)
        feed(&g, "{\"type\":\"result\",\"kernel\":\"paged\",\"gbps_median\":5}");
    assert_int_equal(g.n_results, PROBE_LOG_MAX_RESULTS);
    probe_log_free(&g);
}

/* One row of probe_run as text, NULL columns as "NULL". */
static void row(const char *db_path, int64_t id, char *out, size_t cap)
{
    sqlite3 *db;
    sqlite3_stmt *s;
    char q[512];
    snprintf(q, sizeof q,
             "SELECT probe || '|' || outcome || '|' || message || '|' || ifnull(device, 'NULL') "
             "|| '|' || ifnull(read_gbps, 'NULL') || '|' || ifnull(peak_gbps, 'NULL') || '|' || "
             "ifnull(free_bytes, 'NULL') || '|' || json_array_length(figures) || '|' || "
             "created_at FROM probe_run WHERE id = %lld",
             (long long)id);
    assert_int_equal(sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, q, -1, &s, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(s), SQLITE_ROW);
    snprintf(out, cap, "%s", (const char *)sqlite3_column_text(s, 0));
    sqlite3_finalize(s);
    sqlite3_close(db);
}

static void test_saved_run(void **state)
{
    (void)state;
    char path[128], got[512];
    struct store *st;
    struct store_error err;
    int64_t learner;
    struct probe_log g;
    struct probe_outcome ok = {.end = PROBE_OK, .seconds = 2.5};
    struct probe_outcome failed = {.end = PROBE_FAILED, .message = "read kernel failed"};

    snprintf(path, sizeof path, "%s/p.db", dir);
    assert_int_equal(store_open(path, false, &st, &err), KVT_E_OK);
    assert_int_equal(store_learner(st, "default", 1000, &learner, &err), KVT_E_OK);
    probe_log_init(&g);
    feed(&g, "{\"type\":\"device\",\"name\":\"Fake GPU\",\"peak_gbps\":1008,"
             "\"free_bytes\":25769803776}");
    feed(&g, "{\"type\":\"result\",\"kernel\":\"read\",\"gbps_median\":900.5}");
    feed(&g, "{\"type\":\"result\",\"kernel\":\"paged\",\"gbps_median\":700}");
    assert_int_equal(probe_log_save(&g, st, learner, 1234, "cuda", &ok, &err), KVT_E_OK);
    /* the same lines from a run that then failed: no read figure to predict from */
    assert_int_equal(probe_log_save(&g, st, learner, 1240, "cuda", &failed, &err), KVT_E_OK);
    probe_log_free(&g);

    /* a CPU run says no peak and no free memory */
    probe_log_init(&g);
    feed(&g, "{\"type\":\"device\",\"name\":\"Host\",\"threads\":2}");
    assert_int_equal(probe_log_save(&g, st, learner, 1250, "cpu", &ok, &err), KVT_E_OK);
    probe_log_free(&g);

    /* nothing said at all: no device name, an empty list of figures */
    probe_log_init(&g);
    struct probe_outcome gone = {.end = PROBE_NOT_FOUND, .message = "no such program"};
    assert_int_equal(probe_log_save(&g, st, learner, 1260, "cuda", &gone, &err), KVT_E_OK);
    probe_log_free(&g);
    store_close(st);

    row(path, 1, got, sizeof got);
    assert_string_equal(got, "cuda|ok||Fake GPU|900.5|1008.0|25769803776|2|1234");
    row(path, 2, got, sizeof got);
    assert_string_equal(got,
                        "cuda|failed|read kernel failed|Fake GPU|NULL|1008.0|25769803776|2|1240");
    row(path, 3, got, sizeof got);
    assert_string_equal(got, "cpu|ok||Host|NULL|NULL|NULL|0|1250");
    row(path, 4, got, sizeof got);
    /* (the device column is NOT NULL: no name is kept as an empty one) */
    assert_string_equal(got, "cuda|not-found|no such program||NULL|NULL|NULL|0|1260");
}

/* The text of one column of one probe_run row. */
static void column(const char *db_path, int64_t id, const char *col, char *out, size_t cap)
{
    sqlite3 *db;
    sqlite3_stmt *s;
    char q[1024];
    if ((size_t)snprintf(q, sizeof q, "SELECT %s FROM probe_run WHERE id = %lld", col,
                         (long long)id) >= sizeof q)
        fail_msg("query too long");
    assert_int_equal(sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, q, -1, &s, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(s), SQLITE_ROW);
    snprintf(out, cap, "%s", (const char *)sqlite3_column_text(s, 0));
    sqlite3_finalize(s);
    sqlite3_close(db);
}

/* tests/probes/gpu_24g.sh through the supervisor: the records hold its
 * figures, and the database keeps its lines as they were printed, less
 * "type" (the text older rows have, which the store reads back). */
static void test_fake_gpu_run_kept(void **state)
{
    (void)state;
    char path[128], got[1024];
    struct store *st;
    struct store_error err;
    int64_t learner;
    struct probe_log g;
    struct probe_outcome o = run_fake("gpu_24g", &g);

    assert_int_equal(o.end, PROBE_OK);
    assert_true(g.has_device);
    assert_string_equal(g.device.kind, "cuda");
    assert_string_equal(g.device.name, "Fake GPU 24G");
    assert_string_equal(g.device.compute_capability, "8.9");
    assert_float_equal(g.device.sms, 128, 0);
    assert_float_equal(g.device.l2_bytes, 75497472, 0);        /* 72 MiB */
    assert_float_equal(g.device.free_bytes, 25769803776.0, 0); /* 24 GiB */
    assert_float_equal(g.device.peak_gbps, 1008, 0);
    assert_false(g.device.mig);
    assert_false(g.device.ecc_said);
    assert_int_equal(g.n_results, 2);
    const struct probe_result *rd = probe_log_result(&g, "read");
    assert_non_null(rd);
    assert_float_equal(rd->bytes, 1073741824, 0);
    assert_float_equal(rd->iterations, 20, 0);
    assert_float_equal(rd->gbps_best, 910, 0);
    assert_float_equal(rd->gbps_median, 900, 0);
    assert_float_equal(rd->peak_percent, 89.3, 0);
    const struct probe_result *pg = probe_log_result(&g, "paged");
    assert_ptr_equal(pg, &g.results[1]);
    assert_float_equal(pg->block_size, 16, 0);
    assert_float_equal(pg->contiguous_gbps_median, 890, 0);
    assert_float_equal(pg->tax_percent, 2.2, 0);
    assert_float_equal(pg->step_us, 0, 0); /* not said: 0 */

    snprintf(path, sizeof path, "%s/fake.db", dir);
    assert_int_equal(store_open(path, false, &st, &err), KVT_E_OK);
    assert_int_equal(store_learner(st, "default", 1000, &learner, &err), KVT_E_OK);
    assert_int_equal(probe_log_save(&g, st, learner, 1300, "cuda", &o, &err), KVT_E_OK);
    probe_log_free(&g);
    store_close(st);

    column(path, 1, "device_json", got, sizeof got);
    assert_string_equal(got, "{\"kind\":\"cuda\",\"name\":\"Fake GPU 24G\",\"compute_capability\":"
                             "\"8.9\",\"sms\":128,\"l2_bytes\":75497472,\"total_bytes\":"
                             "25769803776,\"free_bytes\":25769803776,\"peak_gbps\":1008.0}");
    /* the lines' own order and keys, less "type"; their reals as jansson
     * writes a double, so compared as numbers (89.3 has no exact binary form) */
    column(path, 1, "figures", got, sizeof got);
    assert_memory_equal(got,
                        "[{\"kernel\":\"read\",\"bytes\":1073741824,\"iterations\":20,"
                        "\"gbps_best\":910.0,\"gbps_median\":900.0,\"peak_percent\":89.",
                        109);
    column(path, 1,
           "json_array_length(figures) || '|' || json_extract(figures, '$[1].kernel') || '|' || "
           "(json_extract(figures, '$[0].peak_percent') = 89.3) || '|' || "
           "(json_extract(figures, '$[1].tax_percent') = 2.2) || '|' || "
           "json_extract(figures, '$[1].contiguous_gbps_median') || '|' || "
           "ifnull(json_extract(figures, '$[0].type'), 'no type')",
           got, sizeof got);
    assert_string_equal(got, "2|paged|1|1|890.0|no type");
    column(path, 1, "device || '|' || read_gbps || '|' || peak_gbps", got, sizeof got);
    assert_string_equal(got, "Fake GPU 24G|900.0|1008.0");
}

/* A result faster than the device's peak is refused like a figure out of
 * range: an H200's 4,917 GB/s peak (2 x 3.2 GHz x 768 B) and a read of
 * 5,100 GB/s, 103.7% of it, is not kept and fails the run; a paged line at
 * 4,080 and one exactly at the peak are kept. A device with no peak (a CPU,
 * a MIG slice) has nothing to compare with. */
static void test_above_peak_refused(void **state)
{
    (void)state;
    struct probe_log g;
    struct probe_outcome ok = {.end = PROBE_OK};
    probe_log_init(&g);
    feed(&g, "{\"type\":\"device\",\"kind\":\"cuda\",\"name\":\"H\",\"peak_gbps\":4917}");
    feed(&g, "{\"type\":\"result\",\"kernel\":\"read\",\"gbps_best\":4300,"
             "\"gbps_median\":5100}");
    feed(&g, "{\"type\":\"result\",\"kernel\":\"paged\",\"gbps_median\":4080}");
    feed(&g, "{\"type\":\"result\",\"kernel\":\"paged\",\"gbps_best\":4917}");
    feed(&g, "{\"type\":\"result\",\"kernel\":\"decode\",\"graph_gbps_median\":6000}");
    assert_null(probe_log_result(&g, "read"));
    assert_null(probe_log_result(&g, "decode"));
    assert_int_equal(g.n_results, 2);
    assert_string_equal(g.refused, "its read result line says gbps_median 5,100 GB/s, above "
                                   "the device's peak of 4,917 GB/s");
    probe_log_verdict(&g, &ok);
    assert_int_equal(ok.end, PROBE_FAILED);
    assert_string_equal(ok.message, g.refused);
    probe_log_free(&g);

    probe_log_init(&g);
    feed(&g, "{\"type\":\"device\",\"kind\":\"cpu\",\"name\":\"C\"}");
    feed(&g, "{\"type\":\"result\",\"kernel\":\"read\",\"gbps_median\":5100}");
    assert_float_equal(probe_log_result(&g, "read")->gbps_median, 5100, 0);
    assert_string_equal(g.refused, "");
    probe_log_free(&g);
}

/* tests/probes/out_of_range.sh exits 0 but claims 1e300 GB/s for its read:
 * that line is not kept, the paged line after it is, and the run failed
 * with the figure named as docs/probes.md shows it. */
static void test_fake_out_of_range_run(void **state)
{
    (void)state;
    struct probe_log g;
    struct probe_outcome o = run_fake("out_of_range", &g);

    assert_int_equal(o.end, PROBE_FAILED);
    assert_string_equal(o.message,
                        "its read result line says gbps_best 1e+300, outside 0 to 1,000,000");
    assert_true(g.has_device);
    assert_string_equal(g.device.name, "Fake GPU 24G");
    assert_float_equal(g.device.free_bytes, 25769803776.0, 0);
    assert_null(probe_log_result(&g, "read"));
    assert_int_equal(g.n_results, 1);
    assert_string_equal(g.results[0].kernel, "paged");
    assert_float_equal(g.results[0].gbps_median, 870, 0);
    probe_log_free(&g);
}

/* tests/probes/invalid.sh: its device line is kept, its lines that are not
 * protocol lines reach no one, and the run failed on the first of them. */
static void test_fake_invalid_run(void **state)
{
    (void)state;
    struct probe_log g;
    struct probe_outcome o = run_fake("invalid", &g);
    char *res = probe_log_results_json(&g);

    assert_int_equal(o.end, PROBE_FAILED);
    assert_string_equal(o.message, "line 2 of its output is not a JSON object with a \"type\"");
    assert_int_equal(o.lines, 1);
    assert_int_equal(o.bad_lines, 2);
    assert_string_equal(g.device.kind, "cpu");
    assert_string_equal(g.device.name, "Fake CPU");
    assert_float_equal(g.device.threads, 0, 0);
    assert_string_equal(g.device.json, "{\"kind\":\"cpu\",\"name\":\"Fake CPU\"}");
    assert_int_equal(g.n_results, 0);
    assert_string_equal(res, "[]");
    free(res);
    probe_log_free(&g);
}

static int setup(void **state)
{
    (void)state;
    return tmp_dir_make(dir, sizeof dir, "kvt_probe_log_");
}

static int teardown(void **state)
{
    (void)state;
    return tmp_dir_remove(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_keeps_first_device_and_results),
        cmocka_unit_test(test_figures_out_of_range),
        cmocka_unit_test(test_results_are_capped),
        cmocka_unit_test(test_saved_run),
        cmocka_unit_test(test_fake_gpu_run_kept),
        cmocka_unit_test(test_above_peak_refused),
        cmocka_unit_test(test_fake_out_of_range_run),
        cmocka_unit_test(test_fake_invalid_run),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
