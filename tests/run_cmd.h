/* run_cmd.h: runs a program with arguments and captures what a user would
 * see: stdout, stderr and the exit status. For tests that drive kvtutor
 * through its command line. */
#ifndef RUN_CMD_H
#define RUN_CMD_H

#include <stdarg.h>
#include <stddef.h>

struct run_result {
    int status; /* exit status; 128 + signal when killed by one */
    char *out;  /* stdout, NUL-terminated (free with run_free) */
    char *err;  /* stderr */
    size_t out_len, err_len;
};

/* Runs argv[0] (a path) with argv, NULL-terminated; env entries "K=V" are
 * added to the environment (envs may be NULL). Returns 0, or -1 if it could
 * not be started. */
int run_cmd(char *const argv[], char *const envs[], struct run_result *res);
/* The same, with `input` written to the program's stdin (NULL: empty stdin). */
int run_cmd_input(char *const argv[], char *const envs[], const char *input,
                  struct run_result *res);
void run_free(struct run_result *res);

/* The kvtutor binary under test, from the KVTUTOR environment variable. */
const char *run_kvtutor_path(void);

/* kvtutor with the arguments in `args` (const char *, NULL-terminated, at
 * most 22), `input` on its stdin. Returns as run_cmd_input. For tests whose
 * helper takes its arguments one by one. */
int run_kvtutor_va(const char *input, struct run_result *res, va_list args);

/* kvtutor with the arguments of `line` split at spaces (none a test passes
 * holds one; at most 62 of them, the line at most 4,095 bytes), in the
 * environment `envs` (NULL: this one). Returns as run_cmd. */
int run_kvtutor_words(const char *line, char *const envs[], struct run_result *res);

/* Lines in s (a final line without '\n' counts). */
size_t run_count_lines(const char *s);

/* CPU milliseconds (user and system) the children waited for so far have
 * used. A test bounds this, not the wall clock, where it checks that a
 * limit is enforced: a limit not enforced burns the CPU, while a busy
 * machine only stretches the wall clock. */
double run_children_cpu_ms(void);

#endif
