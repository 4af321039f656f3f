/* `kvtutor lint FILE|DIR...`: loads and validates lessons, one line per
 * problem on stderr: "FILE:LINE: error: MESSAGE" (or "FILE: error: MESSAGE"),
 * sanitised, at most 200 characters. Exit 1 when any file has a problem, 0
 * when all pass, 2 for a usage error. Each file is checked in a fresh
 * sandbox, as if no other had been loaded. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "cli_args.h"
#include "cli_lessons.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kvt_text.h"
#include "lx.h"

#define LINE_MAX_CHARS 200

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
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

struct loaded {
    const char *file;
    struct lx_lesson *lesson;
};

static size_t index_of(const struct loaded *ls, size_t n, const char *id)
{
    for (size_t i = 0; i < n; i++)
        if (ls[i].lesson && strcmp(ls[i].lesson->id, id) == 0)
            return i;
    return SIZE_MAX;
}

static bool known_id(const struct loaded *ls, size_t n, const char *id)
{
    return index_of(ls, n, id) != SIZE_MAX;
}

/* The ids of the bundled lessons, loaded once when a link needs them. */
struct bundled {
    bool tried;
    char **ids;
    size_t n;
};

static bool bundled_has(struct bundled *b, const char *data, const struct lx_opts *opts,
                        const char *id)
{
    if (!b->tried) {
        struct cli_files f = {0};
        char dir[4200];
        b->tried = true;
        snprintf(dir, sizeof dir, "%s/lessons", data);
        cli_files_walk(&f, dir);
        b->ids = calloc(f.n ? f.n : 1, sizeof *b->ids);
        for (size_t i = 0; b->ids && i < f.n; i++) {
            struct lx_lesson *l = NULL;
            struct lx_report rep = {0};
            if (lx_load(f.paths[i], opts, &l, &rep) == KVT_E_OK)
                b->ids[b->n++] = strdup(l->id);
            lx_free(l);
            lx_report_free(&rep);
            free(f.paths[i]);
        }
        free(f.paths);
    }
    for (size_t i = 0; i < b->n; i++)
        if (b->ids[i] && strcmp(b->ids[i], id) == 0)
            return true;
    return false;
}

static int lint_usage(FILE *out)
{
    fputs("usage: kvtutor lint [--deadline-ms N] FILE|DIR...\n\n"
          "Loads each lesson in its own sandbox and checks it: required fields, unique ids,\n"
          "every expected value computable and finite, units known, links and requires\n"
          "that resolve, prerequisites placed before the lessons that need them,\n"
          "follow-ups with key points. Problems go to stderr, one a line:\n"
          "  FILE:LINE: error: MESSAGE\n"
          "Exit 0 when every file passes, 1 when any has a problem, 2 for a usage error.\n"
          "--deadline-ms sets the time one lesson may take to load (default 2000).\n\n"
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
    };
    static const struct cli_spec spec = {
        .cmd = "lint", .flags = flags, .nflags = 1, .max_pos = CLI_MANY};
    struct cli_args a;
    struct lx_opts opts;
    struct cli_files files = {0};
    struct loaded *loaded;
    char data[4096];
    size_t bad_files = 0;
    struct bundled bundled = {0};
    int rc = 0;

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
        if (cli_lx_opts("lint", &opts, data, sizeof data) != 0) {
            cli_files_free(&files);
            return 2;
        }
        opts.load_ms = load_ms;
    }

    loaded = calloc(files.n, sizeof *loaded);
    for (size_t i = 0; loaded && i < files.n; i++) {
        struct lx_report rep = {0};
        loaded[i].file = files.paths[i];
        if (lx_load(files.paths[i], &opts, &loaded[i].lesson, &rep) != KVT_E_OK) {
            for (size_t k = 0; k < rep.n; k++)
                report(files.paths[i], rep.items[k].line, rep.items[k].msg);
            if (rep.n == 0)
                report(files.paths[i], 0, "cannot be loaded");
            bad_files++;
        }
        lx_report_free(&rep);
    }
    /* across files: one id per lesson, links that lead somewhere, and
     * prerequisites that exist and come first */
    for (size_t i = 0; loaded && i < files.n; i++) {
        struct lx_lesson *l = loaded[i].lesson;
        bool bad = false;
        if (!l)
            continue;
        for (size_t k = 0; k < i; k++) {
            if (loaded[k].lesson && strcmp(loaded[k].lesson->id, l->id) == 0) {
                char msg[400];
                snprintf(msg, sizeof msg, "lesson id \"%s\" is also used by %s", l->id,
                         loaded[k].file);
                report(loaded[i].file, 0, msg);
                bad = true;
            }
        }
        for (size_t k = 0; k < l->n_links; k++) {
            if (!known_id(loaded, files.n, l->links[k]) &&
                !bundled_has(&bundled, data, &opts, l->links[k])) {
                char msg[300];
                snprintf(msg, sizeof msg, "link to \"%s\": no lesson has that id", l->links[k]);
                report(loaded[i].file, l->link_lines[k], msg);
                bad = true;
            }
        }
        for (size_t k = 0; k < l->n_requires; k++) {
            const char *want = l->requires[k];
            size_t at = index_of(loaded, files.n, want);
            char msg[400];
            if (at == SIZE_MAX && !bundled_has(&bundled, data, &opts, want)) {
                snprintf(msg, sizeof msg, "requires \"%s\": no lesson has that id", want);
            } else if (at != SIZE_MAX && at > i &&
                       strcmp(loaded[at].lesson->module, l->module) == 0) {
                /* the course map lists a module in file order: a prerequisite
                 * placed after its lesson would be met second */
                snprintf(msg, sizeof msg,
                         "requires \"%s\", which comes later in the course (%s); "
                         "name the files so it sorts first",
                         want, loaded[at].file);
            } else {
                continue;
            }
            report(loaded[i].file, l->requires_line, msg);
            bad = true;
        }
        bad_files += bad;
    }
    if (loaded && bad_files == 0)
        printf("%zu lesson file%s checked: no problems\n", files.n, files.n == 1 ? "" : "s");
    rc = !loaded ? 2 : bad_files ? 1 : 0;
    for (size_t i = 0; i < files.n; i++) {
        if (loaded)
            lx_free(loaded[i].lesson);
        free(files.paths[i]);
    }
    free(loaded);
    free(files.paths);
    for (size_t i = 0; i < bundled.n; i++)
        free(bundled.ids[i]);
    free(bundled.ids);
    return rc;
}
