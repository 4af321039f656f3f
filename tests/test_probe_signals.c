/* test_probe_signals.c: a probe never outlives `kvtutor probe`.
 *
 * The probe runs in a process group of its own, which a Ctrl-C at the
 * terminal does not reach. Here `kvtutor probe` runs a fake probe that
 * sleeps (its child in the same group), gets SIGINT, SIGTERM or SIGHUP, and
 * must stop the whole group, keep the run as stopped, and die of that
 * signal itself. Also: the stop flag in the supervisor, and what a deadline
 * under a second is called. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "probe.h"
#include "run_cmd.h"

#ifndef PROBE_DIR
#error "PROBE_DIR must name tests/probes"
#endif

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Processes of group `pgid` that still run code (zombies, waiting for init
 * to reap them, run none), from /proc: "pid (comm) state ppid pgrp ...". */
static int group_running(pid_t pgid)
{
    DIR *d = opendir("/proc");
    struct dirent *e;
    int n = 0;
    assert_non_null(d);
    while ((e = readdir(d))) {
        char path[300], buf[512];
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        size_t len = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[len] = '\0';
        char *p = strrchr(buf, ')'), state;
        long ppid, pgrp;
        if (p && sscanf(p + 1, " %c %ld %ld", &state, &ppid, &pgrp) == 3 && pgrp == pgid &&
            state != 'Z')
            n++;
    }
    closedir(d);
    return n;
}

/* The pid a fake probe wrote into `path`, waiting up to 5 s for it. */
/* Processes of the group still running after up to 2 s. A SIGKILL the
 * supervisor sent is delivered asynchronously: a member can still show as
 * running for a moment after the call that sent it returned, more so on a
 * loaded machine, so the group gets a moment to go before it is counted. */
static int group_left(pid_t pgid)
{
    int n = group_running(pgid);
    for (int i = 0; i < 200 && n > 0; i++) {
        sleep_ms(10);
        n = group_running(pgid);
    }
    return n;
}

static pid_t read_pid(const char *path)
{
    for (int i = 0; i < 500; i++) {
        FILE *f = fopen(path, "r");
        long pid = 0;
        if (f) {
            int ok = fscanf(f, "%ld", &pid);
            fclose(f);
            if (ok == 1 && pid > 1)
                return (pid_t)pid;
        }
        sleep_ms(10);
    }
    fail_msg("the fake probe never wrote %s", path);
    return 0;
}

/* kvtutor probe with `script` as the probe, stopped by `sig` once the
 * probe's child is up: kvtutor dies of `sig`, the probe's group is gone
 * within the grace period, and the run is kept as stopped. */
static void stop_with(int sig, const char *script)
{
    char pidf[128], db[128], probe_script[512];
    snprintf(pidf, sizeof pidf, "/tmp/kvt-sig-%ld-%d.pid", (long)getpid(), sig);
    snprintf(db, sizeof db, "/tmp/kvt-sig-%ld-%d.db", (long)getpid(), sig);
    snprintf(probe_script, sizeof probe_script, "%s/%s.sh", PROBE_DIR, script);
    unlink(pidf);
    unlink(db);
    char *argv[] = {(char *)run_kvtutor_path(),
                    "probe",
                    "--db",
                    db,
                    "--program",
                    "/bin/sh",
                    "--",
                    probe_script,
                    pidf,
                    NULL};
    pid_t kv = fork();
    assert_true(kv >= 0);
    if (kv == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        dup2(null, 2);
        execv(argv[0], argv);
        _exit(127);
    }
    pid_t child = read_pid(pidf);
    pid_t pgid = getpgid(child);
    assert_true(pgid > 1);
    assert_true(pgid != getpgrp());        /* its own group, which a terminal's Ctrl-C misses */
    assert_true(group_running(pgid) >= 2); /* the shell and its sleeping child */

    assert_int_equal(kill(kv, sig), 0);
    int status = 0;
    pid_t got = 0;
    for (int i = 0; i < 1000 && got == 0; i++) { /* 10 s: the 2 s grace and more */
        got = waitpid(kv, &status, WNOHANG);
        if (got == 0)
            sleep_ms(10);
    }
    if (got != kv) {
        kill(kv, SIGKILL);
        waitpid(kv, &status, 0);
        kill(-pgid, SIGKILL);
        fail_msg("kvtutor probe did not end after signal %d", sig);
    }
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), sig);
    int left = group_left(pgid);
    if (left) {
        kill(-pgid, SIGKILL);
        fail_msg("signal %d: %d process(es) of the probe's group outlived kvtutor", sig, left);
    }

    sqlite3 *h;
    sqlite3_stmt *s;
    assert_int_equal(sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(h, "SELECT outcome, message FROM probe_run", -1, &s, NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_step(s), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(s, 0), "stopped");
    assert_string_equal((const char *)sqlite3_column_text(s, 1), "stopped");
    assert_int_equal(sqlite3_step(s), SQLITE_DONE); /* and no second run on the CPU */
    sqlite3_finalize(s);
    sqlite3_close(h);
    unlink(db);
    unlink(pidf);
}

static void test_sigint_stops_the_probe_group(void **state)
{
    (void)state;
    stop_with(SIGINT, "hang");
}

static void test_sigterm_stops_the_probe_group(void **state)
{
    (void)state;
    stop_with(SIGTERM, "hang");
}

static void test_sighup_stops_the_probe_group(void **state)
{
    (void)state;
    stop_with(SIGHUP, "hang");
}

/* A probe that ignores SIGTERM is killed after the grace period. */
static void test_a_probe_ignoring_sigterm_is_killed(void **state)
{
    (void)state;
    stop_with(SIGTERM, "ignore_term");
}

/* The supervisor alone: the flag turning non-zero stops the run. */
static void test_stop_flag(void **state)
{
    (void)state;
    static volatile sig_atomic_t stop;
    char script[512], pidf[128];
    snprintf(script, sizeof script, "%s/hang.sh", PROBE_DIR);
    snprintf(pidf, sizeof pidf, "/tmp/kvt-sig-%ld-flag.pid", (long)getpid());
    unlink(pidf);
    char *argv[] = {"/bin/sh", script, pidf, NULL};
    struct probe_limits lim = probe_default_limits();
    struct probe_run *r;
    struct probe_outcome o;
    stop = 0;
    lim.stop = &stop;
    lim.grace_s = 0.5;
    assert_int_equal(probe_start(argv, &lim, &r, &o), KVT_E_OK);
    pid_t pgid = getpgid(read_pid(pidf));
    for (int i = 0; i < 5; i++)
        assert_true(probe_step(r, 20, NULL, NULL)); /* still running: nothing asked */
    stop = SIGINT;
    probe_finish(r, NULL, NULL, &o);
    assert_int_equal(o.end, PROBE_STOPPED);
    assert_string_equal(o.message, "stopped");
    assert_true(o.seconds < 5.0); /* not the 600 s deadline */
    assert_int_equal(group_left(pgid), 0);
    unlink(pidf);
}

/* A deadline under a second is said as it was given, not rounded to 0. */
static void test_short_timeout_is_named(void **state)
{
    (void)state;
    char pidf[128], script[512];
    snprintf(pidf, sizeof pidf, "/tmp/kvt-sig-%ld-timeout.pid", (long)getpid());
    snprintf(script, sizeof script, "%s/hang.sh", PROBE_DIR);
    char *argv[] = {(char *)run_kvtutor_path(),
                    "probe",
                    "--no-record",
                    "--timeout",
                    "0.5",
                    "--program",
                    "/bin/sh",
                    "--",
                    script,
                    pidf,
                    NULL};
    struct run_result r;
    assert_int_equal(run_cmd(argv, NULL, &r), 0);
    assert_int_equal(r.status, 1);
    if (!strstr(r.err, "cpu probe timed-out: still running after 0.5 s; stopped"))
        fail_msg("stderr: %s", r.err);
    run_free(&r);
    unlink(pidf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sigint_stops_the_probe_group),
        cmocka_unit_test(test_sigterm_stops_the_probe_group),
        cmocka_unit_test(test_sighup_stops_the_probe_group),
        cmocka_unit_test(test_a_probe_ignoring_sigterm_is_killed),
        cmocka_unit_test(test_stop_flag),
        cmocka_unit_test(test_short_timeout_is_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
