/* test_probe.c: the probe supervisor against fake probes (the scripts in tests/probes),
 * one per way a real probe can behave or misbehave, and the paged-cache
 * address arithmetic the CUDA and CPU probes share. */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "../probes/common/paged_index.h"
#include "probe.h"
#include "valgrind_env.h"

#ifndef PROBE_DIR
#error "PROBE_DIR must name tests/probes"
#endif

struct seen {
    unsigned device, progress, result, error, other;
    double last_median;
};

static void count(void *ctx, const struct probe_event *ev)
{
    struct seen *s = ctx;
    switch (ev->type) {
    case PROBE_EVENT_DEVICE:
        s->device++;
        break;
    case PROBE_EVENT_PROGRESS:
        s->progress++;
        break;
    case PROBE_EVENT_RESULT:
        s->result++;
        s->last_median = ev->result.gbps_median;
        break;
    case PROBE_EVENT_ERROR:
        s->error++;
        break;
    case PROBE_EVENT_OTHER:
        s->other++;
        break;
    }
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Runs tests/probes/NAME.sh through /bin/sh (so the scripts need no exec
 * bit) with `arg` as its one argument, to the end. */
static struct probe_outcome run_fake(const char *name, const char *arg,
                                     const struct probe_limits *lim, struct seen *seen)
{
    char script[1024];
    char *argv[] = {"/bin/sh", script, (char *)arg, NULL};
    struct probe_run *r;
    struct probe_outcome o;

    snprintf(script, sizeof script, "%s/%s.sh", PROBE_DIR, name);
    memset(seen, 0, sizeof *seen);
    assert_int_equal(probe_start(argv, lim, &r, &o), KVT_E_OK);
    probe_finish(r, count, seen, &o);
    return o;
}

static struct probe_limits fast_limits(void)
{
    struct probe_limits l = probe_default_limits();
    l.deadline_s = 1.0;
    l.grace_s = 0.5;
    return l;
}

/* A temporary file for a fake probe to write a pid into. */
static void pid_file(char *path, size_t cap)
{
    snprintf(path, cap, "/tmp/kvt-probe-test-%ld-XXXXXX", (long)getpid());
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
}

/* The process in the file is gone: no such pid, or only a zombie waiting
 * for init to reap it (it runs no code). Waits up to 2 s for that. */
static void assert_gone(const char *path)
{
    FILE *f = fopen(path, "r");
    long pid = 0;
    assert_non_null(f);
    assert_int_equal(fscanf(f, "%ld", &pid), 1);
    fclose(f);
    unlink(path);
    assert_true(pid > 1);
    for (int i = 0; i < 200; i++) {
        char stat_path[64], buf[512];
        if (kill((pid_t)pid, 0) != 0 && errno == ESRCH)
            return;
        snprintf(stat_path, sizeof stat_path, "/proc/%ld/stat", pid);
        FILE *s = fopen(stat_path, "r");
        if (s) {
            size_t n = fread(buf, 1, sizeof buf - 1, s);
            fclose(s);
            buf[n] = '\0';
            char *close_paren = strrchr(buf, ')');
            if (close_paren && close_paren[1] == ' ' && close_paren[2] == 'Z')
                return;
        }
        struct timespec ts = {0, 10 * 1000000L};
        nanosleep(&ts, NULL);
    }
    fail_msg("process %ld is still running", pid);
}

/* A fake probe that writes the pid of what it leaves behind into a fresh
 * file (its one argument), run to the end and timed. */
struct pid_run {
    struct probe_outcome o;
    double took;
    char pidf[128];
};

static struct pid_run run_pid_fake(const char *name, const struct probe_limits *lim,
                                   struct seen *seen)
{
    struct pid_run r;
    pid_file(r.pidf, sizeof r.pidf);
    double t0 = now_s();
    r.o = run_fake(name, r.pidf, lim, seen);
    r.took = now_s() - t0;
    return r;
}

/* Under AddressSanitizer freed blocks wait in a quarantine (256 MiB by
 * default) before reuse, which would count as growth: keep it small here so
 * the memory bound below still means something in the sanitizer build. */
#if defined(__SANITIZE_ADDRESS__)
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "quarantine_size_mb=4";
}
#define RSS_SLACK_KIB (16 * 1024 + 16 * 1024)
#else
#define RSS_SLACK_KIB (16 * 1024)
#endif

/* Under valgrind (valgrind_env.h) peak RSS measures valgrind, and a 100 MB
 * parse takes minutes. */

static long max_rss_kib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* ---- the protocol's lines as records (probe_event.h) ---- */

/* Copies of the records a run handed on, for a test to look at after. */
struct kept {
    struct probe_event ev[8];
    unsigned n;
};

static void keep(void *ctx, const struct probe_event *ev)
{
    struct kept *k = ctx;
    if (k->n >= sizeof k->ev / sizeof k->ev[0])
        return;
    struct probe_event *c = &k->ev[k->n++];
    *c = *ev;
    if (ev->type == PROBE_EVENT_DEVICE)
        c->device.json = ev->device.json ? strdup(ev->device.json) : NULL;
    if (ev->type == PROBE_EVENT_RESULT)
        c->result.json = ev->result.json ? strdup(ev->result.json) : NULL;
}

static void kept_free(struct kept *k)
{
    for (unsigned i = 0; i < k->n; i++)
        probe_event_clear(&k->ev[i]);
    k->n = 0;
}

static struct probe_outcome run_kept(const char *name, const char *arg, struct kept *k)
{
    char script[1024];
    char *argv[] = {"/bin/sh", script, (char *)arg, NULL};
    struct probe_limits lim = probe_default_limits();
    struct probe_run *r;
    struct probe_outcome o;

    snprintf(script, sizeof script, "%s/%s.sh", PROBE_DIR, name);
    memset(k, 0, sizeof *k);
    assert_int_equal(probe_start(argv, &lim, &r, &o), KVT_E_OK);
    probe_finish(r, keep, k, &o);
    return o;
}

/* tests/probes/clean.sh, line by line. */
static void test_records_of_a_cpu_run(void **state)
{
    (void)state;
    struct kept k;
    struct probe_outcome o = run_kept("clean", "", &k);

    assert_int_equal(o.end, PROBE_OK);
    assert_int_equal(k.n, 5);
    const struct probe_event *d = &k.ev[0];
    assert_int_equal(d->type, PROBE_EVENT_DEVICE);
    assert_string_equal(d->bad_figure, "");
    assert_string_equal(d->device.kind, "cpu");
    assert_string_equal(d->device.name, "Fake CPU");
    assert_string_equal(d->device.compute_capability, "");
    assert_float_equal(d->device.threads, 2, 0);
    assert_float_equal(d->device.free_bytes, 8589934592.0, 0); /* 8 GiB */
    assert_float_equal(d->device.peak_gbps, 0, 0);
    assert_string_equal(d->device.json, "{\"kind\":\"cpu\",\"name\":\"Fake CPU\",\"threads\":2,"
                                        "\"free_bytes\":8589934592}");
    assert_int_equal(k.ev[1].type, PROBE_EVENT_PROGRESS);
    assert_string_equal(k.ev[1].progress.kernel, "read");
    assert_float_equal(k.ev[1].progress.percent, 50, 0);
    assert_float_equal(k.ev[2].progress.percent, 100, 0);
    const struct probe_result *rd = &k.ev[3].result;
    assert_int_equal(k.ev[3].type, PROBE_EVENT_RESULT);
    assert_string_equal(rd->kernel, "read");
    assert_float_equal(rd->bytes, 1073741824, 0);
    assert_float_equal(rd->gbps_best, 21.5, 0);
    assert_float_equal(rd->gbps_median, 20, 0);
    assert_float_equal(rd->block_size, 0, 0);
    assert_string_equal(rd->json, "{\"kernel\":\"read\",\"bytes\":1073741824,"
                                  "\"gbps_best\":21.5,\"gbps_median\":20.0}");
    const struct probe_result *pg = &k.ev[4].result;
    assert_string_equal(pg->kernel, "paged");
    assert_float_equal(pg->block_size, 16, 0);
    assert_float_equal(pg->gbps_best, 19, 0);
    assert_float_equal(pg->gbps_median, 18, 0);
    kept_free(&k);
}

/* tests/probes/gpu_mig.sh: the CUDA probe's own fields, the decode step. */
static void test_records_of_a_mig_run(void **state)
{
    (void)state;
    struct kept k;
    struct probe_outcome o = run_kept("gpu_mig", "", &k);

    assert_int_equal(o.end, PROBE_OK);
    assert_int_equal(k.n, 3);
    const struct probe_device *d = &k.ev[0].device;
    assert_string_equal(d->kind, "cuda");
    assert_string_equal(d->name, "NVIDIA H200 MIG 1g.18gb");
    assert_string_equal(d->compute_capability, "9.0");
    assert_float_equal(d->sms, 16, 0);
    assert_float_equal(d->memory_clock_khz, 3201000, 0);
    assert_float_equal(d->bus_bits, 6144, 0);
    assert_float_equal(d->peak_gbps, 0, 0); /* a MIG slice says none */
    assert_false(d->peak_known);
    assert_true(d->ecc_said);
    assert_true(d->ecc);
    assert_true(d->mig);
    assert_false(d->small);
    assert_float_equal(d->driver_version, 13000, 0);
    assert_float_equal(d->runtime_version, 13000, 0);
    assert_float_equal(d->read_blocks_per_sm, 8, 0);
    assert_float_equal(d->paged_registers, 29, 0);
    assert_float_equal(d->threads_per_block, 256, 0);
    assert_float_equal(d->waves, 1, 0);
    assert_float_equal(k.ev[1].result.per_sample, 9, 0);
    const struct probe_result *dec = &k.ev[2].result;
    assert_string_equal(dec->kernel, "decode");
    assert_float_equal(dec->bytes, 9e9, 0);
    assert_float_equal(dec->weights_bytes, 7e9, 0);
    assert_float_equal(dec->kv_bytes, 2e9, 0);
    assert_float_equal(dec->layers, 14, 0);
    assert_float_equal(dec->scale, 0.5, 0);
    assert_float_equal(dec->launches, 113, 0);
    assert_float_equal(dec->step_us, 16666.7, 0);
    assert_float_equal(dec->eager_gbps_median, 520, 0);
    assert_float_equal(dec->eager_step_us, 17307.7, 0);
    assert_float_equal(dec->graph_gbps_median, 535, 0);
    assert_float_equal(dec->graph_step_us, 16822.4, 0);
    kept_free(&k);
}

/* Error lines: tests/probes/fails.sh, no_gpu.sh and escapes.sh's, whose
 * controls read as spaces (the terminal's sanitising is the screens'). */
static void test_records_of_errors(void **state)
{
    (void)state;
    struct kept k;
    struct probe_outcome o = run_kept("fails", "", &k);
    assert_int_equal(o.end, PROBE_FAILED);
    assert_int_equal(k.n, 1);
    assert_int_equal(k.ev[0].type, PROBE_EVENT_ERROR);
    assert_true(k.ev[0].error.said);
    assert_false(k.ev[0].error.no_gpu);
    assert_string_equal(k.ev[0].error.message, "cudaMalloc(&buf, want) failed: out of memory");
    kept_free(&k);

    o = run_kept("no_gpu", "", &k);
    assert_int_equal(o.end, PROBE_NO_GPU);
    assert_true(k.ev[0].error.no_gpu);
    assert_string_equal(k.ev[0].error.message, "no usable NVIDIA driver");
    assert_string_equal(o.message, "no usable NVIDIA driver");
    kept_free(&k);

    o = run_kept("escapes", "fail", &k);
    assert_int_equal(k.n, 4);
    /* the device name as the probe wrote it: ESC, BEL and U+009B kept */
    assert_string_equal(k.ev[0].device.name, "GPU\033]0;pwned\007 \033[2J\302\23331m");
    assert_string_equal(k.ev[3].error.message, "bad  ]0;title  \302\2332J end");
    assert_string_equal(o.message, k.ev[3].error.message);
    kept_free(&k);
}

/* tests/probes/out_of_range.sh: a sound device line, a read line claiming
 * 1e300 GB/s; the records say which figure, the supervisor keeps going. */
static void test_records_out_of_range(void **state)
{
    (void)state;
    struct kept k;
    struct probe_outcome o = run_kept("out_of_range", "", &k);

    assert_int_equal(o.end, PROBE_OK); /* the verdict is the log's, above */
    assert_int_equal(k.n, 3);
    assert_string_equal(k.ev[0].bad_figure, "");
    /* gbps_best comes before gbps_median in the protocol's list */
    assert_string_equal(k.ev[1].bad_figure,
                        "its read result line says gbps_best 1e+300, outside 0 to 1,000,000");
    assert_float_equal(k.ev[1].result.gbps_median, 1e300, 0);
    assert_string_equal(k.ev[2].bad_figure, "");
    kept_free(&k);
}

static int parse(const char *line, struct probe_event *ev)
{
    return probe_event_parse(line, strlen(line), ev);
}

/* Lines that are not protocol lines, figures that are not numbers or out
 * of range, types the reader does not know. */
static void test_parse_bad_lines(void **state)
{
    (void)state;
    struct probe_event ev;
    static const char *const not_lines[] = {
        "GB/s: 20",                                  /* invalid.sh */
        "[1, 2, 3]",                                 /* invalid.sh */
        "{\"type\":\"result\",\"kernel\":\"re",      /* cut.sh, cut short */
        "{\"kind\":\"cpu\"}",                        /* no type */
        "{\"type\":7}",                              /* a type that is not a string */
        "{\"type\":\"result\",\"type\":\"device\"}", /* a key twice */
        "",
    };
    for (size_t i = 0; i < sizeof not_lines / sizeof not_lines[0]; i++) {
        assert_int_equal(parse(not_lines[i], &ev), -1);
        probe_event_clear(&ev);
    }

    assert_int_equal(parse("{\"type\":\"warmup\",\"bytes\":-5}", &ev), 0);
    assert_int_equal(ev.type, PROBE_EVENT_OTHER);
    assert_string_equal(ev.bad_figure, ""); /* only device and result lines are judged */
    probe_event_clear(&ev);

    /* 2^62 = 4,611,686,018,427,387,904, past grouping: 4.61e+18 */
    assert_int_equal(parse("{\"type\":\"result\",\"kernel\":\"read\",\"bytes\":\"lots\"}", &ev), 0);
    assert_string_equal(ev.bad_figure,
                        "its read result line says bytes not a number, outside 0 to 4.61e+18");
    assert_float_equal(ev.result.bytes, 0, 0);
    probe_event_clear(&ev);

    assert_int_equal(parse("{\"type\":\"result\",\"kernel\":\"paged\",\"block_size\":1e30}", &ev),
                     0);
    assert_string_equal(ev.bad_figure,
                        "its paged result line says block_size 1e+30, outside 0 to 2,147,483,647");
    probe_event_clear(&ev);

    /* no kernel: none named; tax_percent's floor is -10^6 */
    assert_int_equal(parse("{\"type\":\"result\",\"tax_percent\":-2000000}", &ev), 0);
    assert_string_equal(ev.result.kernel, "");
    assert_string_equal(ev.bad_figure,
                        "its result line says tax_percent -2,000,000, outside -1,000,000 to 100");
    probe_event_clear(&ev);

    /* a kernel longer than the record's buffer: cut there, named whole */
    assert_int_equal(parse("{\"type\":\"result\",\"kernel\":\"read_read_read_read_read_read_"
                           "read_read\",\"sms\":-1}",
                           &ev),
                     0);
    assert_string_equal(ev.result.kernel, "read_read_read_read_read_read_r");
    assert_string_equal(ev.bad_figure, "its read_read_read_read_read_read_read_read result line "
                                       "says sms -1, outside 0 to 2,147,483,647");
    probe_event_clear(&ev);

    /* an error line without a message says none */
    assert_int_equal(parse("{\"type\":\"error\",\"no_gpu\":true}", &ev), 0);
    assert_false(ev.error.said);
    assert_true(ev.error.no_gpu);
    probe_event_clear(&ev);
}

static void test_clean_run(void **state)
{
    (void)state;
    struct seen s;
    struct probe_limits lim = probe_default_limits();
    struct probe_outcome o = run_fake("clean", "", &lim, &s);
    assert_int_equal(o.end, PROBE_OK);
    assert_string_equal(probe_end_name(o.end), "ok");
    assert_int_equal(o.exit_code, 0);
    assert_int_equal(s.device, 1);
    assert_int_equal(s.progress, 2);
    assert_int_equal(s.result, 2);
    assert_int_equal(o.lines, 5);
    assert_int_equal(o.bad_lines, 0);
    assert_false(o.truncated);
    assert_string_equal(o.message, "");
}

static void test_hang_times_out(void **state)
{
    (void)state;
    struct seen s;
    struct probe_limits lim = fast_limits();
    struct pid_run r = run_pid_fake("hang", &lim, &s);
    assert_int_equal(r.o.end, PROBE_TIMED_OUT);
    assert_string_equal(probe_end_name(r.o.end), "timed-out");
    assert_non_null(strstr(r.o.message, "still running after 1 s"));
    assert_int_equal(s.progress, 1); /* what it said before the deadline counts */
    assert_true(r.took >= 1.0);
    assert_true(r.took < 5.0); /* SIGTERM ended it: no waiting out the grace */
    assert_gone(r.pidf);
}

static void test_ignores_sigterm(void **state)
{
    (void)state;
    struct seen s;
    struct probe_limits lim = fast_limits();
    struct pid_run r = run_pid_fake("ignore_term", &lim, &s);
    assert_int_equal(r.o.end, PROBE_TIMED_OUT);
    assert_int_equal(r.o.signal, SIGKILL);
    /* deadline 1 s + grace 0.5 s before SIGKILL */
    assert_true(r.took >= 1.5);
    assert_true(r.took < 6.0);
    assert_gone(r.pidf);
}

static void test_grandchild_holding_pipe(void **state)
{
    (void)state;
    struct seen s;
    struct probe_limits lim = probe_default_limits();
    struct pid_run r = run_pid_fake("grandchild", &lim, &s);
    /* the probe itself exited 0 at once: the leftover is killed, not waited for */
    assert_int_equal(r.o.end, PROBE_OK);
    assert_int_equal(s.result, 1);
    assert_true(r.took < 5.0);
    assert_gone(r.pidf);
}

static void test_flood_is_capped(void **state)
{
    (void)state;
    struct seen s;
    struct probe_limits lim = probe_default_limits(); /* 4 MiB of output */
    long before = max_rss_kib();
    struct probe_outcome o = run_fake("flood", "", &lim, &s);
    assert_int_equal(o.end, PROBE_FAILED);
    assert_non_null(strstr(o.message, "more than 4194304 bytes of output"));
    assert_true(o.stdout_bytes <= lim.max_output);
    if (!under_valgrind())
        assert_true(max_rss_kib() - before < RSS_SLACK_KIB);
}

static void test_flood_read_to_the_end_stays_bounded(void **state)
{
    (void)state;
    struct seen s;
    struct probe_limits lim = probe_default_limits();
    lim.max_output = 128u << 20;
    lim.deadline_s = 120;
    long before = max_rss_kib();

    /* 100,000,000 bytes on one line: read through, kept to 64 KiB */
    struct probe_outcome o = run_fake("flood", "", &lim, &s);
    assert_int_equal(o.stdout_bytes, 100000000);
    assert_int_equal(o.end, PROBE_FAILED);
    assert_true(o.truncated);
    assert_int_equal(o.bad_lines, 1);

    if (under_valgrind()) {
        print_message("  under valgrind: the 2-million-line flood and the memory bound are "
                      "left to the other builds\n");
        return;
    }
    /* 2,000,000 lines of 50 bytes = 100,000,000 bytes, every one parsed */
    o = run_fake("flood_lines", "", &lim, &s);
    assert_int_equal(o.end, PROBE_OK);
    assert_int_equal(o.stdout_bytes, 100000000);
    assert_int_equal(s.progress, 2000000);
    assert_true(max_rss_kib() - before < RSS_SLACK_KIB);
}

static void test_partial_last_line(void **state)
{
    (void)state;
    struct seen s;
    struct probe_limits lim = probe_default_limits();
    struct probe_outcome o = run_fake("partial", "", &lim, &s);
    /* a whole object without its newline is still the probe's word */
    assert_int_equal(o.end, PROBE_OK);
    assert_true(o.truncated);
    assert_int_equal(s.result, 1);
    assert_true(s.last_median == 2.0);

    o = run_fake("cut", "", &lim, &s);
    assert_int_equal(o.end, PROBE_FAILED);
    assert_string_equal(o.message, "output ended in the middle of line 2");
    assert_int_equal(s.device, 1);
    assert_int_equal(s.result, 0);
}

static void test_invalid_json(void **state)
{
    (void)state;
    struct seen s;
    struct probe_limits lim = probe_default_limits();
    struct probe_outcome o = run_fake("invalid", "", &lim, &s);
    assert_int_equal(o.end, PROBE_FAILED);
    assert_int_equal(o.exit_code, 0);
    assert_int_equal(o.bad_lines, 2);
    assert_int_equal(o.first_bad, 2);
    assert_string_equal(o.message, "line 2 of its output is not a JSON object with a \"type\"");
    assert_int_equal(s.device, 1);
}

static void test_crash_by_signal(void **state)
{
    (void)state;
    struct seen s;
    struct probe_limits lim = probe_default_limits();
    struct probe_outcome o = run_fake("segv", "", &lim, &s);
    assert_int_equal(o.end, PROBE_CRASHED);
    assert_int_equal(o.signal, SIGSEGV);
    assert_non_null(strstr(o.message, "killed by signal 11"));
    assert_int_equal(s.progress, 1);
}

static void test_exit_codes(void **state)
{
    (void)state;
    struct seen s;
    struct probe_limits lim = probe_default_limits();
    struct probe_outcome o = run_fake("no_gpu", "", &lim, &s);
    assert_int_equal(o.end, PROBE_NO_GPU);
    assert_string_equal(probe_end_name(o.end), "no-gpu");
    assert_string_equal(o.message, "no usable NVIDIA driver");

    o = run_fake("fails", "", &lim, &s);
    assert_int_equal(o.end, PROBE_FAILED);
    assert_int_equal(o.exit_code, 1);
    /* the probe's own error line wins over its stderr */
    assert_string_equal(o.message, "cudaMalloc(&buf, want) failed: out of memory");

    o = run_fake("fails_quietly", "", &lim, &s);
    assert_int_equal(o.end, PROBE_FAILED);
    assert_string_equal(o.message, "cannot open /dev/fake0");
}

static void test_not_found(void **state)
{
    (void)state;
    char *missing[] = {"/nonexistent/kvtutor-probe-cuda", NULL};
    char *not_exec[] = {PROBE_DIR "/../CMakeLists.txt", NULL};
    struct probe_run *r;
    struct probe_outcome o;

    /* glibc's posix_spawn reports a failed exec at once; where it cannot
     * (under valgrind), the child's exit status 127 says the same */
    if (probe_start(missing, NULL, &r, &o) == KVT_E_OK) {
        probe_finish(r, NULL, NULL, &o);
    } else {
        assert_null(r);
        assert_non_null(strstr(o.message, "/nonexistent/kvtutor-probe-cuda"));
    }
    assert_int_equal(o.end, PROBE_NOT_FOUND);
    assert_string_equal(probe_end_name(o.end), "not-found");

    if (probe_start(not_exec, NULL, &r, &o) == KVT_E_OK)
        probe_finish(r, NULL, NULL, &o);
    assert_int_equal(o.end, PROBE_NOT_FOUND);

    /* a probe that itself exits 127 having said nothing: the same verdict */
    struct seen s;
    struct probe_limits lim = probe_default_limits();
    o = run_fake("exit127", "", &lim, &s);
    assert_int_equal(o.end, PROBE_NOT_FOUND);
}

static void test_cancel(void **state)
{
    (void)state;
    char pidf[128], script[1024];
    struct seen s = {0};
    struct probe_limits lim = probe_default_limits();
    struct probe_run *r;
    struct probe_outcome o;
    snprintf(script, sizeof script, "%s/hang.sh", PROBE_DIR);
    pid_file(pidf, sizeof pidf);
    char *argv[] = {"/bin/sh", script, pidf, NULL};

    assert_int_equal(probe_start(argv, &lim, &r, &o), KVT_E_OK);
    /* steps never block longer than asked: the UI stays live. Step until the
     * probe has spoken and written its child's pid. */
    struct stat st = {0};
    for (int i = 0; i < 200 && (s.progress == 0 || st.st_size == 0); i++) {
        double t0 = now_s();
        assert_true(probe_step(r, 20, count, &s));
        assert_true(now_s() - t0 < 0.5);
        stat(pidf, &st);
    }
    assert_int_equal(s.progress, 1);
    probe_cancel(r);
    probe_finish(r, count, &s, &o);
    /* asked to stop, not out of time: "stopped" (it was "timed-out") */
    assert_int_equal(o.end, PROBE_STOPPED);
    assert_string_equal(probe_end_name(o.end), "stopped");
    assert_string_equal(o.message, "stopped");
    assert_gone(pidf);
}

/* ---- paged_index.h ---- */

static void test_paged_offset(void **state)
{
    (void)state;
    /* block size 16, tokens 4 elements wide; the sequence's blocks are pool
     * blocks 7, 2, 5. Token 0 -> block 7 slot 0: (7*16 + 0)*4 = 448.
     * Token 17 -> table[1] = 2, slot 1: (2*16 + 1)*4 = 132; element 3: 135.
     * Token 47 -> table[2] = 5, slot 15: (5*16 + 15)*4 = 380. */
    const uint32_t table[] = {7, 2, 5};
    assert_int_equal(paged_offset(table, 16, 4, 0, 0), 448);
    assert_int_equal(paged_offset(table, 16, 4, 17, 0), 132);
    assert_int_equal(paged_offset(table, 16, 4, 17, 3), 135);
    assert_int_equal(paged_offset(table, 16, 4, 47, 0), 380);
    /* block size 1 is one token per block */
    assert_int_equal(paged_offset(table, 1, 128, 2, 5), 5 * 128 + 5);
    /* offsets past 4 GiB elements do not wrap: block 3,000,000 of 64 tokens
     * of 128 elements = 3e6 * 64 * 128 = 24,576,000,000 */
    const uint32_t big[] = {3000000};
    assert_true(paged_offset(big, 64, 128, 0, 0) == 24576000000ull);

    assert_int_equal(paged_blocks(2048, 16), 128);
    assert_int_equal(paged_blocks(2049, 16), 129);
    assert_int_equal(paged_blocks(1, 64), 1);
    assert_int_equal(paged_blocks(0, 8), 0);
}

static void test_paged_shuffle_is_a_fixed_permutation(void **state)
{
    (void)state;
    enum { N = 4096 };
    static uint32_t a[N], b[N], c[N];
    static unsigned char hit[N];
    paged_shuffle(a, N, 42);
    paged_shuffle(b, N, 42);
    paged_shuffle(c, N, 43);
    assert_memory_equal(a, b, sizeof a); /* same seed, same layout */
    assert_memory_not_equal(a, c, sizeof a);
    unsigned in_place = 0;
    for (uint32_t i = 0; i < N; i++) {
        assert_true(a[i] < N);
        assert_int_equal(hit[a[i]], 0); /* each block exactly once */
        hit[a[i]] = 1;
        in_place += a[i] == i;
    }
    /* a shuffle, not the identity: a random permutation fixes ~1 point */
    assert_true(in_place < 16);
}

/* Every token of every sequence lands in a distinct pool slot and the pool
 * is covered exactly: the gather reads each byte once. */
static void test_paged_gather_covers_the_pool(void **state)
{
    (void)state;
    enum { SEQS = 8, TOKENS = 96, BS = 16, W = 2 };
    const uint32_t per_seq = (uint32_t)paged_blocks(TOKENS, BS);
    static uint32_t tables[SEQS * 6];
    static unsigned char seen[SEQS * TOKENS * W];
    paged_shuffle(tables, SEQS * per_seq, 7);
    for (uint32_t s = 0; s < SEQS; s++)
        for (uint64_t t = 0; t < TOKENS; t++)
            for (uint64_t e = 0; e < W; e++) {
                uint64_t off = paged_offset(tables + s * per_seq, BS, W, t, e);
                assert_true(off < sizeof seen);
                assert_int_equal(seen[off], 0);
                seen[off] = 1;
            }
    for (size_t i = 0; i < sizeof seen; i++)
        assert_int_equal(seen[i], 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clean_run),
        cmocka_unit_test(test_hang_times_out),
        cmocka_unit_test(test_ignores_sigterm),
        cmocka_unit_test(test_grandchild_holding_pipe),
        cmocka_unit_test(test_flood_is_capped),
        cmocka_unit_test(test_flood_read_to_the_end_stays_bounded),
        cmocka_unit_test(test_partial_last_line),
        cmocka_unit_test(test_invalid_json),
        cmocka_unit_test(test_records_of_a_cpu_run),
        cmocka_unit_test(test_records_of_a_mig_run),
        cmocka_unit_test(test_records_of_errors),
        cmocka_unit_test(test_records_out_of_range),
        cmocka_unit_test(test_parse_bad_lines),
        cmocka_unit_test(test_crash_by_signal),
        cmocka_unit_test(test_exit_codes),
        cmocka_unit_test(test_not_found),
        cmocka_unit_test(test_cancel),
        cmocka_unit_test(test_paged_offset),
        cmocka_unit_test(test_paged_shuffle_is_a_fixed_permutation),
        cmocka_unit_test(test_paged_gather_covers_the_pool),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
