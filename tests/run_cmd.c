#define _XOPEN_SOURCE 700
#include "run_cmd.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

struct buf {
    char *data;
    size_t len, cap;
};

static int append(struct buf *b, const char *src, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 4096;
        char *p;
        while (cap < b->len + n + 1)
            cap *= 2;
        p = realloc(b->data, cap);
        if (!p)
            return -1;
        b->data = p;
        b->cap = cap;
    }
    memcpy(b->data + b->len, src, n);
    b->len += n;
    b->data[b->len] = '\0';
    return 0;
}

int run_cmd(char *const argv[], char *const envs[], struct run_result *res)
{
    return run_cmd_input(argv, envs, NULL, res);
}

int run_cmd_input(char *const argv[], char *const envs[], const char *input, struct run_result *res)
{
    int out[2], err[2], in[2], status;
    size_t in_len = input ? strlen(input) : 0, in_off = 0;
    struct buf bo = {0}, be = {0};
    pid_t pid;

    memset(res, 0, sizeof *res);
    signal(SIGPIPE, SIG_IGN); /* a program that stops reading early must not kill the test */
    if (pipe(out) != 0 || pipe(err) != 0 || pipe(in) != 0)
        return -1;
    pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        dup2(err[1], 2);
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(err[0]);
        close(out[1]);
        close(err[1]);
        for (size_t i = 0; envs && envs[i]; i++)
            putenv(envs[i]);
        execv(argv[0], argv);
        _exit(127);
    }
    close(out[1]);
    close(err[1]);
    close(in[0]);
    if (in_len == 0) {
        close(in[1]);
        in[1] = -1;
    }
    {
        struct pollfd fds[3] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}, {in[1], POLLOUT, 0}};
        int open_fds = 2;
        while (open_fds > 0) {
            if (poll(fds, 3, -1) < 0 && errno != EINTR)
                break;
            if (fds[2].fd >= 0 && (fds[2].revents & (POLLOUT | POLLERR | POLLHUP))) {
                ssize_t n = write(fds[2].fd, input + in_off, in_len - in_off);
                if (n > 0)
                    in_off += (size_t)n;
                if (n <= 0 || in_off == in_len) {
                    close(fds[2].fd);
                    fds[2].fd = -1;
                }
            }
            for (int i = 0; i < 2; i++) {
                char chunk[4096];
                ssize_t n;
                if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP)))
                    continue;
                n = read(fds[i].fd, chunk, sizeof chunk);
                if (n > 0) {
                    append(i == 0 ? &bo : &be, chunk, (size_t)n);
                } else {
                    close(fds[i].fd);
                    fds[i].fd = -1;
                    open_fds--;
                }
            }
        }
    }
    waitpid(pid, &status, 0);
    res->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    if (!bo.data)
        append(&bo, "", 0);
    if (!be.data)
        append(&be, "", 0);
    res->out = bo.data;
    res->out_len = bo.len;
    res->err = be.data;
    res->err_len = be.len;
    return 0;
}

void run_free(struct run_result *res)
{
    free(res->out);
    free(res->err);
    memset(res, 0, sizeof *res);
}

const char *run_kvtutor_path(void)
{
    const char *p = getenv("KVTUTOR");
    return p ? p : "./kvtutor";
}

int run_kvtutor_words(const char *line, char *const envs[], struct run_result *res)
{
    char buf[4096], *argv[64] = {(char *)run_kvtutor_path()};
    int argc = 1;

    snprintf(buf, sizeof buf, "%s", line);
    for (char *tok = strtok(buf, " "); tok && argc < 63; tok = strtok(NULL, " "))
        argv[argc++] = tok;
    argv[argc] = NULL;
    return run_cmd(argv, envs, res);
}

int run_kvtutor_va(const char *input, struct run_result *res, va_list args)
{
    char *argv[24] = {(char *)run_kvtutor_path()};
    int argc = 1;
    for (const char *a; (a = va_arg(args, const char *)) && argc < 23;)
        argv[argc++] = (char *)a;
    argv[argc] = NULL;
    return run_cmd_input(argv, NULL, input, res);
}

size_t run_count_lines(const char *s)
{
    size_t n = 0, len = strlen(s);
    for (size_t i = 0; i < len; i++)
        n += s[i] == '\n';
    return n + (len > 0 && s[len - 1] != '\n');
}

double run_children_cpu_ms(void)
{
    struct rusage ru;
    getrusage(RUSAGE_CHILDREN, &ru);
    return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
           (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
}
