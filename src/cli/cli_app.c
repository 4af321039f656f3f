#define _POSIX_C_SOURCE 200809L
/* `kvtutor [--db FILE] [--lessons PATH] [--learner NAME] [open LESSON_ID]`:
 * opens the database, gathers the lesson files and starts the terminal app;
 * with --keys FILE, the same app on a virtual terminal, driven by a script
 * of keys, its screen printed after each step (ui_harness.h). */
#include "cli.h"
#include "cli_args.h"
#include "cli_briefs.h"
#include "cli_db.h"
#include "cli_lessons.h"
#include "cli_paths.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kvt_text.h"
#include "ui.h"
#include "ui_harness.h"
#include "ui_term.h"

enum { F_KEYS, F_SIZE };
static const struct cli_flag flags[] = {
    [F_KEYS] = {"--keys", NULL, "FILE", .kind = CLI_STR},
    [F_SIZE] = {"--size", NULL, "COLSxLINES", .kind = CLI_STR},
};
static const struct cli_spec spec = {.cmd = NULL,
                                     .flags = flags,
                                     .nflags = 2,
                                     .globals = CLI_G_DB | CLI_G_LESSONS | CLI_G_LEARNER,
                                     .max_pos = 2};

#define SCRIPT_MAX (1u << 20) /* a script's bytes */

/* "80x24": digits, 'x', digits, from 20x5 to 500x200 (below the app's
 * 80 × 24 it shows its too-small notice, which a test may want). */
static bool parse_size(const char *v, int *cols, int *lines)
{
    char *end;
    long c, l;
    if (!isdigit((unsigned char)v[0]))
        return false;
    c = strtol(v, &end, 10);
    if (*end != 'x' || !isdigit((unsigned char)end[1]))
        return false;
    v = end + 1;
    l = strtol(v, &end, 10);
    if (*end || c < 20 || c > 500 || l < 5 || l > 200)
        return false;
    *cols = (int)c;
    *lines = (int)l;
    return true;
}

/* Reads a script file whole (standard input, "-", is read as it arrives:
 * run_stream). NULL with a message said when it cannot be read or is too
 * large. */
static char *read_script(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf, safe[256];
    size_t n;

    if (!f) {
        fprintf(stderr, "kvtutor: --keys %s: cannot read it\n", kvt_safe(path, safe, sizeof safe));
        return NULL;
    }
    buf = malloc(SCRIPT_MAX + 1);
    n = buf ? fread(buf, 1, SCRIPT_MAX + 1, f) : 0;
    if (buf && ferror(f)) { /* a folder, a read error */
        fprintf(stderr, "kvtutor: --keys %s: cannot read it\n", kvt_safe(path, safe, sizeof safe));
        fclose(f);
        free(buf);
        return NULL;
    }
    fclose(f);
    if (!buf || n > SCRIPT_MAX) {
        fprintf(stderr, "kvtutor: --keys %s: %s\n", kvt_safe(path, safe, sizeof safe),
                buf ? "larger than 1 MiB" : "out of memory");
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    if (memchr(buf, '\0', n)) {
        fprintf(stderr, "kvtutor: --keys %s: holds a NUL byte, not a script of keys\n",
                kvt_safe(path, safe, sizeof safe));
        free(buf);
        return NULL;
    }
    return buf;
}

/* The app on a virtual terminal: each line of the script a step (blank
 * lines and lines starting with '#' skipped), the screen printed after each
 * as "── line N: LINE" and its rows (N counts every line of the script).
 * Ends at the script's end, or where the app quits; every answer is saved
 * as in the app. The script is read (and checked) by the caller. */
/* One line of a script: typed as a step and the screen printed after it,
 * or skipped (blank, #); 0, or 2 with the line named (an unknown key). */
static int script_step(struct ui_harness *h, const char *path, int step, char *line, char *screen,
                       size_t cap)
{
    char err[128], shown[256], why[256];
    size_t len = strlen(line);
    if (len && line[len - 1] == '\r')
        line[--len] = '\0';
    if (!len || line[0] == '#')
        return 0;
    if (ui_harness_step(h, line, err, sizeof err) != 0) {
        fprintf(stderr, "kvtutor: --keys %s:%d: %s\n", kvt_safe(path, shown, sizeof shown), step,
                kvt_safe(err, why, sizeof why));
        return 2;
    }
    printf("── line %d: %s\n%s", step, kvt_safe(line, shown, sizeof shown),
           ui_harness_screen(h, screen, cap));
    return 0;
}

/* What a wait on another kvtutor's lock prints: the screen that says so,
 * under "── waiting during line N", flushed at once (a test holding the
 * lock reads it, then lets go). */
static struct script_wait {
    struct ui_harness *h;
    const int *step;
    char *screen;
    size_t cap;
} script_wait;

static void print_waiting(void *ctx)
{
    struct script_wait *w = ctx;
    printf("── waiting during line %d\n%s", *w->step, ui_harness_screen(w->h, w->screen, w->cap));
    fflush(stdout);
}

/* The harness for --size, its screen buffer, and the start screen; waits
 * on the lock printed as they happen, numbered by *step. */
static struct ui_harness *script_open(const struct ui_options *o, int cols, int lines,
                                      char **screen, size_t *cap, const int *step)
{
    char why[256];
    struct ui_harness *h;
    *cap = (size_t)cols * (size_t)lines * 4 + (size_t)lines + 1; /* 4: UTF-8's most */
    if (!(*screen = malloc(*cap))) {
        fprintf(stderr, "kvtutor: --keys: out of memory\n");
        return NULL;
    }
    if (!(h = ui_harness_open(o, cols, lines, why, sizeof why))) {
        fprintf(stderr, "kvtutor: --keys: %s\n", why);
        free(*screen);
        return NULL;
    }
    script_wait = (struct script_wait){h, step, *screen, *cap};
    ui_harness_on_wait(h, print_waiting, &script_wait);
    printf("── start\n%s", ui_harness_screen(h, *screen, *cap));
    return h;
}

static int script_close(struct ui_harness *h, char *screen, int rc)
{
    if (rc == 0 && ui_harness_done(h))
        printf("── the app quit\n");
    ui_harness_close(h);
    free(screen);
    return fflush(stdout) == 0 ? rc : 1;
}

static int run_script(const struct ui_options *o, const char *path, char *script, int cols,
                      int lines)
{
    char *screen, *line, *next;
    size_t cap;
    int rc = 0, step = 0;
    struct ui_harness *h = script_open(o, cols, lines, &screen, &cap, &step);

    if (!h)
        return 1;
    for (line = script; line && *line && !ui_harness_done(h) && rc == 0; line = next) {
        size_t len = strcspn(line, "\n");
        next = line[len] ? line + len + 1 : NULL;
        line[len] = '\0';
        rc = script_step(h, path, ++step, line, screen, cap);
    }
    return script_close(h, screen, rc);
}

/* --keys -: each line typed as it arrives on standard input, its screen
 * printed and flushed before the next is read, so that a test can act
 * between keys (remove the database, run a second process) and go on. A
 * line is checked as a file's are, when it arrives. */
static int run_stream(const struct ui_options *o, int cols, int lines)
{
    char *screen, *line = NULL;
    size_t cap, lcap = 0, total = 0;
    ssize_t got;
    int rc = 0, step = 0;
    struct ui_harness *h = script_open(o, cols, lines, &screen, &cap, &step);

    if (!h)
        return 1;
    fflush(stdout);
    while (rc == 0 && !ui_harness_done(h) && (got = getline(&line, &lcap, stdin)) >= 0) {
        size_t len = (size_t)got;
        step++;
        total += len;
        if (len && line[len - 1] == '\n')
            line[--len] = '\0';
        if (total > SCRIPT_MAX) {
            fprintf(stderr, "kvtutor: --keys -: larger than 1 MiB\n");
            rc = 1;
        } else if (!kvt_text_is_safe(line, len && line[len - 1] == '\r' ? len - 1 : len, 0)) {
            fprintf(stderr,
                    "kvtutor: --keys -:%d: a control, escape or bidi character, or bytes that "
                    "are not UTF-8: name keys as <Esc>, <Tab>, <C-u>\n",
                    step);
            rc = 2;
        } else {
            rc = script_step(h, "-", step, line, screen, cap);
            fflush(stdout);
        }
    }
    if (rc == 0 && ferror(stdin)) {
        fprintf(stderr, "kvtutor: --keys -: cannot read it\n");
        rc = 1;
    }
    free(line);
    return script_close(h, screen, rc);
}

/* Every line of a script is text a learner could type: UTF-8 without
 * control, escape or bidi characters (keys that need them are named, as
 * <Esc>); a line may end in CR. 0, or 2 with the line named. */
static int check_script(const char *path, const char *script)
{
    int n = 0;
    for (const char *line = script; *line;) {
        size_t len = strcspn(line, "\n"), body = len;
        char safe[256];
        n++;
        if (body && line[body - 1] == '\r')
            body--;
        if (!kvt_text_is_safe(line, body, 0)) {
            fprintf(stderr,
                    "kvtutor: --keys %s:%d: a control, escape or bidi character, or bytes that "
                    "are not UTF-8: name keys as <Esc>, <Tab>, <C-u>\n",
                    kvt_safe(path, safe, sizeof safe), n);
            return 2;
        }
        line += len + (line[len] == '\n');
    }
    return 0;
}

static int app_usage(FILE *out)
{
    fputs("usage: kvtutor [--db FILE] [--lessons PATH] [--learner NAME] [open LESSON_ID]\n"
          "               [--keys FILE [--size COLSxLINES]]\n\n"
          "Opens the tutor: the course map, lessons, exercises and the interviewer's\n"
          "follow-ups. Lessons come from the bundled folder, then\n"
          "$XDG_DATA_HOME/kvtutor/lessons, then --lessons, a folder or one .lua file (a\n"
          "later lesson with the same id replaces an earlier one). Press ? in the app for\n"
          "its keys.\n\n"
          "--keys FILE (- for standard input, read as it arrives) runs the app without a\n"
          "terminal, on a virtual one of --size (default 80x24), typing each line of FILE\n"
          "as one step and printing the screen after it as text; <Enter>, <Esc>, <Tab>,\n"
          "<Up>, <C-x>, <F1> and the like name keys (man kvtutor lists them), <lt> is a\n"
          "'<', <Wait 90s> moves the app's clock on (a timed interview runs out), and\n"
          "lines starting with # are skipped. Answers are saved as in the app.\n",
          out);
    return out == stdout ? 0 : 2;
}

/* KVTUTOR_PROBE_SIZE_MIB: the read buffer the probe screen's runs use, in
 * MiB, handed to the probe as --size-mib (its range is the probe's to say).
 * Anything but a whole number is refused here, before the app starts. */
static int probe_size(const char **out)
{
    const char *v = getenv("KVTUTOR_PROBE_SIZE_MIB");
    char safe[64];
    size_t n;

    *out = NULL;
    if (!v || !*v)
        return 0;
    n = strspn(v, "0123456789");
    if (v[n] != '\0' || n > 9)
        return cli_usage_error(NULL,
                               "KVTUTOR_PROBE_SIZE_MIB: \"%s\" is not a whole number of MiB "
                               "(e.g. 256; unset, the probe's own size)",
                               kvt_safe(v, safe, sizeof safe));
    *out = v;
    return 0;
}

int cli_app(int argc, char **argv)
{
    struct cli_args a;
    struct cli_db db;
    struct cli_files files = {0};
    struct cli_shipped shipped;
    struct ui_options o = {0};
    char data[4096], dsl[CLI_DSL_CAP], probe_cuda[4096], probe_cpu[4096], build[128];
    struct timespec ts;
    int rc, cols = 80, lines = 24;
    char *script = NULL;
    bool stream;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    o.started_us = (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
    if ((rc = cli_parse(&spec, argc, argv, &a)) != 0)
        return rc;
    if (a.help)
        return app_usage(stdout);
    if (a.npos > 0 && strcmp(a.pos[0], "open") != 0)
        return cli_usage_error(NULL, "%s: unknown command", a.pos[0]);
    if (a.npos == 1)
        return cli_usage_error(NULL, "open needs a LESSON_ID");
    if (a.given[F_SIZE] && !a.given[F_KEYS])
        return cli_usage_error(NULL, "--size is for --keys: a real terminal has its own size");
    if (a.given[F_SIZE] && !parse_size(a.text[F_SIZE], &cols, &lines))
        return cli_usage_error(NULL, "--size %s: write COLSxLINES, 20x5 to 500x200 (80x24)",
                               a.text[F_SIZE]);
    if ((rc = probe_size(&o.probe_size_mib)) != 0)
        return rc;
    /* the script first: a bad one is said before any database is made */
    stream = a.given[F_KEYS] && strcmp(a.text[F_KEYS], "-") == 0;
    if (a.given[F_KEYS] && !stream) {
        if (!(script = read_script(a.text[F_KEYS])))
            return 1;
        if ((rc = check_script(a.text[F_KEYS], script)) != 0) {
            free(script);
            return rc;
        }
    }
    if (cli_lx_opts("app", &o.lx, dsl, data, sizeof data) != 0) {
        free(script);
        return 2;
    }
    if ((rc = cli_db_open("app", a.db, a.learner, (int64_t)time(NULL), &db)) != 0) {
        free(script);
        return rc;
    }
    /* course order: bundled, then the learner's own, then --lessons */
    cli_course_files(a.lessons, data, &files);
    o.store = db.st;
    o.db_path = db.path;
    if (cli_helper_program("kvtutor-probe-cuda", probe_cuda, sizeof probe_cuda) == 0)
        o.probe_cuda = probe_cuda;
    if (cli_helper_program("kvtutor-probe-cpu", probe_cpu, sizeof probe_cpu) == 0)
        o.probe_cpu = probe_cpu;
    o.learner = db.learner;
    o.learner_id = db.learner_id;
    o.build = cli_build_id(build, sizeof build);
    cli_briefs_init(&shipped, data);
    o.shipped = &shipped.source;
    o.lesson_paths = files.paths;
    o.n_lessons = files.n;
    o.open_lesson = a.npos == 2 ? a.pos[1] : NULL;
    rc = stream   ? run_stream(&o, cols, lines)
         : script ? run_script(&o, a.text[F_KEYS], script, cols, lines)
                  : ui_run(&o);
    free(script);
    cli_briefs_free(&shipped);
    cli_files_free(&files);
    cli_db_close(&db);
    /* a quit by SIGINT, SIGTERM or SIGHUP ends as that signal, now that
     * every answer is saved and the database closed */
    ui_term_exit_as_signalled();
    return rc;
}
