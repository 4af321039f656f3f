/* probe.c: the probe supervisor (see probe.h). */
#define _POSIX_C_SOURCE 200809L
#include "probe.h"
#include "probe_lines.h"
#include "sys.h"

#include "../../probes/common/probe_io.h" /* the exit statuses */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define CHUNK 65536

struct probe_run {
    pid_t pid;
    struct probe_limits lim;
    int out_fd, err_fd;
    struct probe_lines pl; /* stdout, line by line */
    char err_cur[256], err_last[256];
    size_t err_len;
    double started, deadline, kill_at, drain_until;
    bool term_sent, kill_sent, timed_out, cancelled, over_cap;
    bool exited, reaped;
    int wait_status;
    struct probe_outcome o;
};

static const char *const end_names[] = {
#define PROBE_END_NAME(name, str) str,
    PROBE_ENDS(PROBE_END_NAME)
#undef PROBE_END_NAME
};

const char *probe_end_name(enum probe_end e)
{
    return (unsigned)e < sizeof end_names / sizeof end_names[0] ? end_names[e] : "?";
}

struct probe_limits probe_default_limits(void)
{
    struct probe_limits l = {600.0, 2.0, 4u << 20, 64u << 10, NULL};
    return l;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

enum kvt_err probe_start(char *const argv[], const struct probe_limits *lim, struct probe_run **out,
                         struct probe_outcome *o)
{
    int out_pipe[2] = {-1, -1}, err_pipe[2] = {-1, -1};
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t attr;
    sigset_t all, none;
    struct probe_run *r;
    int rc;

    memset(o, 0, sizeof *o);
    *out = NULL;
    if (!argv || !argv[0]) {
        o->end = PROBE_NOT_FOUND;
        snprintf(o->message, sizeof o->message, "no probe program given");
        return KVT_E_MISSING;
    }
    r = calloc(1, sizeof *r);
    if (!r || probe_lines_init(&r->pl, lim ? lim->max_line : probe_default_limits().max_line)) {
        free(r);
        o->end = PROBE_FAILED;
        snprintf(o->message, sizeof o->message, "out of memory");
        return KVT_E_IO;
    }
    r->lim = lim ? *lim : probe_default_limits();
    if (sys_pipe_cloexec(out_pipe) != 0 || sys_pipe_cloexec(err_pipe) != 0) {
        o->end = PROBE_FAILED;
        snprintf(o->message, sizeof o->message, "cannot make a pipe: %s", strerror(errno));
        goto fail;
    }

    /* The child: its own process group, default signal handling, nothing
     * blocked (the UI may block some), stdin from /dev/null. */
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, out_pipe[1], 1);
    posix_spawn_file_actions_adddup2(&fa, err_pipe[1], 2);
    posix_spawnattr_init(&attr);
    sigfillset(&all);
    sigemptyset(&none);
    posix_spawnattr_setsigdefault(&attr, &all);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF |
                                        POSIX_SPAWN_SETSIGMASK);
    rc = posix_spawn(&r->pid, argv[0], &fa, &attr, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    if (rc != 0) {
        o->end = rc == ENOENT || rc == EACCES || rc == ENOEXEC || rc == ENOTDIR ? PROBE_NOT_FOUND
                                                                                : PROBE_FAILED;
        snprintf(o->message, sizeof o->message, "cannot run %s: %s", argv[0], strerror(rc));
        goto fail;
    }
    close(out_pipe[1]);
    close(err_pipe[1]);
    r->out_fd = out_pipe[0];
    r->err_fd = err_pipe[0];
    fcntl(r->out_fd, F_SETFL, O_NONBLOCK);
    fcntl(r->err_fd, F_SETFL, O_NONBLOCK);
    r->started = now_s();
    r->deadline = r->started + r->lim.deadline_s;
    *out = r;
    return KVT_E_OK;

fail:
    for (int i = 0; i < 2; i++) {
        if (out_pipe[i] >= 0)
            close(out_pipe[i]);
        if (err_pipe[i] >= 0)
            close(err_pipe[i]);
    }
    probe_lines_free(&r->pl);
    free(r);
    return o->end == PROBE_NOT_FOUND ? KVT_E_NOT_FOUND : KVT_E_IO;
}

/* Stops the whole group: SIGTERM now, SIGKILL once the grace has passed. */
static void stop_group(struct probe_run *r, double now)
{
    if (!r->term_sent && !r->reaped) {
        kill(-r->pid, SIGTERM);
        r->term_sent = true;
        r->kill_at = now + r->lim.grace_s;
    }
}

static void take_stdout(struct probe_run *r, const char *p, size_t n, probe_event_fn fn, void *ctx)
{
    if (r->over_cap)
        return;
    if (r->o.stdout_bytes + n > r->lim.max_output) {
        r->over_cap = true;
        stop_group(r, now_s());
        return;
    }
    r->o.stdout_bytes += n;
    probe_lines_feed(&r->pl, p, n, fn, ctx);
}

/* Keeps the last non-empty stderr line. */
static void take_stderr(struct probe_run *r, const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '\n') {
            if (r->err_len > 0)
                probe_one_line(r->err_last, sizeof r->err_last, r->err_cur, r->err_len);
            r->err_len = 0;
        } else if (r->err_len < sizeof r->err_cur - 1) {
            r->err_cur[r->err_len++] = p[i];
        }
    }
}

/* Reads what is there on one descriptor; closes it at end of file. */
static void drain(struct probe_run *r, int *fd, bool is_stdout, probe_event_fn fn, void *ctx)
{
    char buf[CHUNK];
    /* a bounded number of reads per step keeps the caller responsive */
    for (int k = 0; k < 64 && *fd >= 0; k++) {
        ssize_t n = read(*fd, buf, sizeof buf);
        if (n > 0) {
            if (is_stdout)
                take_stdout(r, buf, (size_t)n, fn, ctx);
            else
                take_stderr(r, buf, (size_t)n);
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        /* end of file (or an error we cannot recover from) */
        if (is_stdout && !r->over_cap)
            probe_lines_finish(&r->pl, fn, ctx);
        if (!is_stdout && r->err_len > 0) {
            probe_one_line(r->err_last, sizeof r->err_last, r->err_cur, r->err_len);
            r->err_len = 0;
        }
        close(*fd);
        *fd = -1;
    }
}

/* Notices the probe's exit without reaping it, so that its pid (and so its
 * group id) cannot be reused while the rest of the group is killed. */
static void check_exit(struct probe_run *r, double now)
{
    siginfo_t si;
    if (r->reaped)
        return;
    memset(&si, 0, sizeof si);
    if (!r->exited) {
        if (waitid(P_PID, (id_t)r->pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0 || si.si_pid == 0)
            return;
        r->exited = true;
        /* whatever it left behind (a grandchild holding the pipe) goes too */
        kill(-r->pid, SIGKILL);
        r->drain_until = now + r->lim.grace_s;
    }
    if (waitpid(r->pid, &r->wait_status, 0) == r->pid)
        r->reaped = true;
}

bool probe_step(struct probe_run *r, int timeout_ms, probe_event_fn fn, void *ctx)
{
    struct pollfd pf[2];
    nfds_t n = 0;
    double now = now_s();
    int wait_ms = timeout_ms < 0 ? 0 : timeout_ms;

    if (!r)
        return false;
    check_exit(r, now);
    if (r->reaped && r->out_fd < 0 && r->err_fd < 0)
        return false;

    if (!r->exited && !r->term_sent && r->lim.stop && *r->lim.stop) {
        r->cancelled = true;
        stop_group(r, now);
    }
    /* wake for the deadline and the SIGKILL after the grace period */
    if (!r->exited) {
        double next = !r->term_sent ? r->deadline : !r->kill_sent ? r->kill_at : now + 0.05;
        int until = (int)((next - now) * 1000.0) + 1;
        if (until < wait_ms)
            wait_ms = until < 0 ? 0 : until;
    }
    /* exit is not a poll event: look again at least every 50 ms */
    if (wait_ms > 50)
        wait_ms = 50;
    if (r->out_fd >= 0)
        pf[n++] = (struct pollfd){.fd = r->out_fd, .events = POLLIN};
    if (r->err_fd >= 0)
        pf[n++] = (struct pollfd){.fd = r->err_fd, .events = POLLIN};
    if (n > 0) {
        if (poll(pf, n, wait_ms) > 0) {
            for (nfds_t i = 0; i < n; i++) {
                if (!pf[i].revents)
                    continue;
                if (pf[i].fd == r->out_fd)
                    drain(r, &r->out_fd, true, fn, ctx);
                else
                    drain(r, &r->err_fd, false, fn, ctx);
            }
        }
    } else if (wait_ms > 0) {
        struct timespec ts = {0, (long)wait_ms * 1000000L};
        nanosleep(&ts, NULL);
    }

    now = now_s();
    if (!r->exited && !r->term_sent && r->lim.stop && *r->lim.stop) {
        r->cancelled = true;
        stop_group(r, now);
    }
    if (!r->exited && !r->term_sent && now >= r->deadline) {
        r->timed_out = true;
        stop_group(r, now);
    }
    if (!r->exited && r->term_sent && !r->kill_sent && now >= r->kill_at) {
        kill(-r->pid, SIGKILL);
        r->kill_sent = true;
    }
    check_exit(r, now);
    /* a descendant that left the group may still hold a pipe: give up on
     * it after the grace period rather than wait for ever */
    if (r->reaped && now >= r->drain_until) {
        if (r->out_fd >= 0)
            drain(r, &r->out_fd, true, fn, ctx);
        if (r->err_fd >= 0)
            drain(r, &r->err_fd, false, fn, ctx);
        if (r->out_fd >= 0)
            close(r->out_fd), r->out_fd = -1;
        if (r->err_fd >= 0)
            close(r->err_fd), r->err_fd = -1;
    }
    return !(r->reaped && r->out_fd < 0 && r->err_fd < 0);
}

void probe_cancel(struct probe_run *r)
{
    if (!r || r->exited)
        return;
    r->cancelled = true;
    stop_group(r, now_s());
}

static void classify(struct probe_run *r, struct probe_outcome *o)
{
    int st = r->wait_status;
    const char *said = r->pl.error[0] ? r->pl.error : r->err_last;

    *o = r->o;
    o->lines = r->pl.lines;
    o->bad_lines = r->pl.bad_lines;
    o->first_bad = r->pl.first_bad;
    o->truncated = r->pl.truncated;
    o->seconds = now_s() - r->started;
    o->message[0] = '\0';
    if (WIFEXITED(st))
        o->exit_code = WEXITSTATUS(st);
    if (WIFSIGNALED(st))
        o->signal = WTERMSIG(st);

    if (r->cancelled) {
        /* asked to stop is not the deadline: a learner who left the screen
         * is not told the probe hung */
        o->end = PROBE_STOPPED;
        snprintf(o->message, sizeof o->message, "stopped");
    } else if (r->timed_out) {
        o->end = PROBE_TIMED_OUT;
        /* %g: a deadline of 0.5 s is said as 0.5, not rounded to 0 */
        snprintf(o->message, sizeof o->message, "still running after %g s; stopped",
                 r->lim.deadline_s);
    } else if (r->over_cap) {
        o->end = PROBE_FAILED;
        snprintf(o->message, sizeof o->message, "more than %llu bytes of output; stopped",
                 (unsigned long long)r->lim.max_output);
    } else if (WIFSIGNALED(st)) {
        o->end = PROBE_CRASHED;
        snprintf(o->message, sizeof o->message, "killed by signal %d (%s)", o->signal,
                 strsignal(o->signal));
    } else if (o->exit_code == 127 && o->stdout_bytes == 0) {
        /* the shells' "cannot run it": where the spawn itself cannot report a
         * failed exec (valgrind's stand-in for vfork), the child says it so */
        o->end = PROBE_NOT_FOUND;
        snprintf(o->message, sizeof o->message, "cannot run it (exit status 127)");
    } else if (o->exit_code == PROBE_EXIT_NO_GPU) {
        o->end = PROBE_NO_GPU;
        snprintf(o->message, sizeof o->message, "%s", said[0] ? said : "no usable GPU");
    } else if (o->exit_code != PROBE_EXIT_OK) {
        o->end = PROBE_FAILED;
        if (said[0])
            snprintf(o->message, sizeof o->message, "%s", said);
        else
            snprintf(o->message, sizeof o->message, "exited with status %d", o->exit_code);
    } else if (o->bad_lines > 0) {
        o->end = PROBE_FAILED;
        snprintf(o->message, sizeof o->message,
                 o->truncated && o->first_bad == o->lines + o->bad_lines
                     ? "output ended in the middle of line %u"
                     : "line %u of its output is not a JSON object with a \"type\"",
                 o->first_bad);
    } else {
        o->end = PROBE_OK;
    }
}

void probe_finish(struct probe_run *r, probe_event_fn fn, void *ctx, struct probe_outcome *o)
{
    if (!r)
        return;
    while (probe_step(r, 50, fn, ctx))
        ;
    classify(r, o);
    probe_lines_free(&r->pl);
    free(r);
}
