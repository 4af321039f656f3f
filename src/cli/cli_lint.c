/* `kvtutor lint FILE|DIR...`: loads and validates lessons, one line per
 * problem on stderr: "FILE:LINE: error: MESSAGE" (or "FILE: error: MESSAGE"
 * for a problem with no line), in line order, sanitised, at most 200
 * characters. Exit 1 when any file has a problem, 0
 * when all pass, 2 for a usage error. Each file is checked in a fresh
 * sandbox, as if no other had been loaded. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "cli_args.h"
#include "cli_briefs.h"
#include "cli_lessons.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kvt_text.h"
#include "lx.h"
#include "tutor_course.h"
#include "tutor_sim.h"

#define LINE_MAX_CHARS 200

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorts a file's problems by line, as a compiler lists them; problems on
 * one line keep the order they were found in (field by field). An
 * insertion sort: stable, and a file has few problems. */
static void sort_by_line(struct lx_problem *p, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        struct lx_problem cur = p[i];
        size_t k = i;
        for (; k > 0 && p[k - 1].line > cur.line; k--)
            p[k] = p[k - 1];
        p[k] = cur;
    }
}

/* How a message about `path` names `other`: by its file name alone when
 * both are in one folder (the line stays short), else in full. */
static const char *other_name(const char *path, const char *other)
{
    const char *ps = strrchr(path, '/'), *os = strrchr(other, '/');
    size_t pd = ps ? (size_t)(ps - path) : 0, od = os ? (size_t)(os - other) : 0;
    if (pd == od && strncmp(path, other, pd) == 0)
        return os ? os + 1 : other;
    return other;
}

/* One problem line, sanitised and cut to LINE_MAX_CHARS. */
static void report(const char *file, int line, const char *msg)
{
    char raw[1024], safe[LINE_MAX_CHARS + 8];
    if (line > 0)
        snprintf(raw, sizeof raw, "%s:%d: error: %s", file, line, msg);
    else
        snprintf(raw, sizeof raw, "%s: error: %s", file, msg);
    kvt_sanitize(raw, strlen(raw), safe, LINE_MAX_CHARS + 1, 0);
    fprintf(stderr, "%s\n", safe);
}

/* A file that did not load: each of its problems, in line order. */
static void report_load(void *ctx, size_t i, enum kvt_err e, const struct lx_report *rep)
{
    const struct cli_files *files = ctx;
    struct lx_problem *items = rep->items;
    if (e == KVT_E_OK)
        return;
    sort_by_line(items, rep->n);
    for (size_t k = 0; k < rep->n; k++)
        report(files->paths[i], items[k].line, items[k].msg);
    if (rep->n == 0)
        report(files->paths[i], 0, "cannot be loaded");
}

/* Is there a lesson with this id among the files checked or, failing
 * that, the bundled course (loaded on demand: only when a link needs it)? */
static bool known_id(struct lx_course *checked, struct lx_course **bundled, const char *data,
                     const struct lx_opts *opts, const char *id)
{
    if (lx_course_find(checked, id, NULL))
        return true;
    if (!*bundled) {
        struct cli_files f = {0};
        char dir[4200];
        snprintf(dir, sizeof dir, "%s/lessons", data);
        cli_files_walk(&f, dir);
        *bundled = lx_course_new(f.paths, f.n, opts);
        cli_files_free(&f);
    }
    return *bundled && lx_course_find(*bundled, id, NULL);
}

/* --briefs: where the rows go, and whether they got there */
struct briefs_out {
    const char *path;
    bool called;
    int rc;
    char why[600];
};

static void write_briefs(void *ctx, const struct store_brief_row *rows, size_t n)
{
    struct briefs_out *b = ctx;
    b->called = true;
    b->rc = cli_briefs_write(b->path, rows, n, b->why, sizeof b->why);
}

/* The briefs the app opens these files from on a first start, made by this
 * program (cli_briefs.h): a second opening, as the app's but with no
 * database, that hands its rows to write_briefs. */
static int make_briefs(const struct cli_files *files, const struct lx_opts *opts, const char *path)
{
    char build[160], safe[KVT_SAFE_FIELD], why[KVT_SAFE_FIELD];
    struct briefs_out b = {.path = path, .rc = -1};
    struct tutor_course_open how = {.lx = opts, .keep = write_briefs, .ctx = &b};
    struct tutor_course_result res;
    struct lx_course *c;

    if (!(how.build = cli_build_id(build, sizeof build))) {
        fprintf(stderr, "kvtutor lint: --briefs: this program's build cannot be named "
                        "(no build id, and its file cannot be read)\n");
        return 1;
    }
    if (tutor_course_open(files->paths, files->n, &how, &c, &res) != KVT_E_OK || !c || res.failed ||
        !b.called) {
        /* the rows are handed out before the opening ends: a file written
         * for a course that then failed is not left for the build to ship */
        if (b.called && b.rc == 0)
            unlink(path);
        snprintf(b.why, sizeof b.why, "%s",
                 res.failed ? "a lesson did not load the second time" : "out of memory");
        b.rc = -1;
    }
    lx_course_free(c);
    if (b.rc != 0) {
        fprintf(stderr, "kvtutor lint: --briefs %s: %s\n", kvt_safe(path, safe, sizeof safe),
                kvt_safe(b.why, why, sizeof why));
        return 1;
    }
    printf("%zu brief%s written to %s\n", files->n, files->n == 1 ? "" : "s",
           kvt_safe(path, safe, sizeof safe));
    return 0;
}

static int lint_usage(FILE *out)
{
    fputs("usage: kvtutor lint [--deadline-ms N] [--briefs OUT.json] FILE|DIR...\n"
          "       kvtutor lint --answers FILE.tsv [--json] [--lessons PATH]\n\n"
          "Loads each lesson in its own sandbox and checks it: required fields, unique ids,\n"
          "every expected value computable and finite, units known, links and requires\n"
          "that resolve, prerequisites placed before the lessons that need them,\n"
          "follow-ups with key points, one module_title per module. Problems go to\n"
          "stderr, one a line, in line order, LINE being the line of the field at\n"
          "fault:\n"
          "  FILE:LINE: error: MESSAGE\n"
          "Exit 0 when every file passes, 1 when any has a problem, 2 for a usage error.\n"
          "--deadline-ms sets the time one lesson may take to load (default 2000).\n"
          "--briefs writes, once every file passes, the briefs a first start opens them\n"
          "from without running them (the build writes share/kvtutor/briefs.json so for\n"
          "the bundled lessons); they hold for this program and these bytes only.\n"
          "--answers grades a table of answers against the rubrics (see lint --answers\n"
          "--help).\n\n"
          "Limits (a lesson past one is refused):\n",
          out);
    {
        size_t n;
        const struct lx_limit *lim = lx_limits(&n);
        for (size_t i = 0; i < n; i++)
            fprintf(out, "  at most %zu %s\n", lim[i].max, lim[i].what);
    }
    return out == stdout ? 0 : 2;
}

int cli_lint(int argc, char **argv)
{
    static const struct cli_flag flags[] = {
        {"--deadline-ms", NULL, "N", .kind = CLI_UINT, .umax = 600000},
        {"--briefs", NULL, "OUT.json", .kind = CLI_STR},
    };
    static const struct cli_spec spec = {
        .cmd = "lint", .flags = flags, .nflags = 2, .max_pos = CLI_MANY};
    struct cli_args a;
    struct lx_opts opts;
    struct cli_files files = {0};
    struct lx_course *course, *bundled = NULL;
    char data[4096], dsl[CLI_DSL_CAP];
    size_t bad_files = 0;
    int rc = 0;

    /* a table of answers to grade, not lessons to check */
    for (int i = 0; i < argc; i++)
        if (strcmp(argv[i], "--answers") == 0 || strncmp(argv[i], "--answers=", 10) == 0)
            return cli_lint_answers(argc, argv);
    lx_default_opts(&opts);
    if ((rc = cli_parse(&spec, argc, argv, &a)) != 0)
        return rc;
    if (a.help)
        return lint_usage(stdout);
    if (a.given[0])
        opts.load_ms = (unsigned)a.u[0];
    for (int i = 0; i < a.npos; i++) {
        struct stat sb;
        if (stat(a.pos[i], &sb) == 0 && S_ISDIR(sb.st_mode)) {
            size_t before = files.n;
            cli_files_walk(&files, a.pos[i]);
            qsort(files.paths + before, files.n - before, sizeof *files.paths, cmp_str);
        } else {
            cli_files_add(&files, a.pos[i]); /* a missing file is reported as a problem */
        }
    }
    if (files.n == 0) {
        free(files.paths);
        return cli_usage_error("lint", "name lesson files or folders to check");
    }
    {
        unsigned load_ms = opts.load_ms;
        if (cli_lx_opts("lint", &opts, dsl, data, sizeof data) != 0) {
            cli_files_free(&files);
            return 2;
        }
        opts.load_ms = load_ms;
    }

    {
        /* opened as the app opens a course; lint reads no progress database */
        const struct tutor_course_open how = {.lx = &opts, .after = report_load, .ctx = &files};
        struct tutor_course_result res;
        tutor_course_open(files.paths, files.n, &how, &course, &res);
        bad_files = res.failed;
    }
    /* across files: one id per lesson, links that lead somewhere, and
     * prerequisites that exist and come first */
    for (size_t i = 0; course && i < files.n; i++) {
        const struct lx_lesson *l = lx_course_at(course, i);
        bool bad = false;
        if (!l)
            continue;
        for (size_t k = 0; k < i; k++) {
            const struct lx_lesson *other = lx_course_at(course, k);
            if (other && strcmp(other->id, l->id) == 0) {
                char msg[400];
                snprintf(msg, sizeof msg, "lesson id \"%s\" is also used by %s:%d", l->id,
                         other_name(files.paths[i], files.paths[k]), other->id_line);
                report(files.paths[i], l->id_line, msg);
                bad = true;
                break;
            }
        }
        /* a module has one title: the first lesson that gives one names
         * it on the course map, so another that differs is a mistake */
        for (size_t k = 0; l->module_title && l->module_title[0] && k < i; k++) {
            const struct lx_lesson *other = lx_course_at(course, k);
            if (other && other->module_title && other->module_title[0] &&
                strcmp(other->module, l->module) == 0) {
                if (strcmp(other->module_title, l->module_title) != 0) {
                    char msg[600];
                    snprintf(msg, sizeof msg,
                             "module_title \"%s\" differs from \"%s\" in %s:%d; a module "
                             "has one title",
                             l->module_title, other->module_title,
                             other_name(files.paths[i], files.paths[k]), other->module_title_line);
                    report(files.paths[i], l->module_title_line, msg);
                    bad = true;
                }
                break;
            }
        }
        /* an exercise's serving setup must be one the app's view shows and runs */
        for (size_t k = 0; k < l->n_exercises; k++) {
            const struct lx_exercise *e = &l->exercises[k];
            struct tutor_sim_setup setup;
            struct tutor_sim_result run;
            char why[300], msg[400];
            if (!e->serving.given)
                continue;
            if (tutor_sim_of_serving(&e->serving, &setup, why, sizeof why) != KVT_E_OK ||
                tutor_sim_run(&setup, &run, NULL, 0, why, sizeof why) != KVT_E_OK) {
                snprintf(msg, sizeof msg, "exercise '%s': %s", e->id, why);
                report(files.paths[i], e->serving.line, msg);
                bad = true;
            }
        }
        for (size_t k = 0; k < l->n_links; k++) {
            if (!known_id(course, &bundled, data, &opts, l->links[k])) {
                char msg[300];
                snprintf(msg, sizeof msg, "link to \"%s\": no lesson has that id", l->links[k]);
                report(files.paths[i], l->link_lines[k], msg);
                bad = true;
            }
        }
        for (size_t k = 0; k < l->n_requires; k++) {
            const char *want = l->requires[k];
            size_t at = SIZE_MAX;
            enum lx_requirement req = lx_course_requirement(course, i, k, &at);
            char msg[400];
            if (req == LX_REQ_MISSING && !known_id(course, &bundled, data, &opts, want)) {
                snprintf(msg, sizeof msg, "requires \"%s\": no lesson has that id", want);
            } else if (req == LX_REQ_LATER) {
                snprintf(msg, sizeof msg,
                         "requires \"%s\", which comes later in the course (%s); "
                         "name the files so it sorts first",
                         want, files.paths[at]);
            } else {
                continue;
            }
            report(files.paths[i], l->require_lines[k], msg);
            bad = true;
        }
        bad_files += bad;
    }
    if (course && bad_files == 0)
        printf("%zu lesson file%s checked: no problems\n", files.n, files.n == 1 ? "" : "s");
    rc = !course ? 2 : bad_files ? 1 : 0;
    if (rc == 0 && a.given[1])
        rc = make_briefs(&files, &opts, a.text[1]);
    lx_course_free(course);
    lx_course_free(bundled);
    cli_files_free(&files);
    return rc;
}
