#define _POSIX_C_SOURCE 200809L
#include "cli_lessons.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_briefs.h"
#include "cli_paths.h"
#include "kvt_text.h"
#include "sys.h"
#include "tutor_course.h"

#define MAX_DEPTH 16

int cli_files_add(struct cli_files *f, const char *path)
{
    if (f->n == f->cap) {
        size_t cap = f->cap ? f->cap * 2 : 16;
        void *p = realloc(f->paths, cap * sizeof *f->paths);
        if (!p)
            return -1;
        f->paths = p;
        f->cap = cap;
    }
    if (!(f->paths[f->n] = strdup(path)))
        return -1;
    f->n++;
    return 0;
}

static void walk(struct cli_files *f, const char *dir, int depth)
{
    struct dirent **ents;
    int n = depth < MAX_DEPTH ? scandir(dir, &ents, NULL, alphasort) : -1;

    for (int i = 0; i < n; i++) {
        const char *name = ents[i]->d_name;
        char path[4096];
        struct stat sb;
        size_t len = strlen(name);
        if (name[0] != '.' && snprintf(path, sizeof path, "%s/%s", dir, name) < (int)sizeof path &&
            lstat(path, &sb) == 0) {
            if (S_ISDIR(sb.st_mode))
                walk(f, path, depth + 1);
            else if (len > 4 && strcmp(name + len - 4, ".lua") == 0)
                cli_files_add(f, path);
        }
        free(ents[i]);
    }
    if (n >= 0)
        free(ents);
}

void cli_files_walk(struct cli_files *f, const char *dir)
{
    char clean[4096];
    size_t n = strlen(dir);
    /* "lessons/" and "lessons" list the same paths */
    while (n > 1 && dir[n - 1] == '/')
        n--;
    snprintf(clean, sizeof clean, "%.*s", (int)n, dir);
    walk(f, clean, 0);
}

void cli_files_free(struct cli_files *f)
{
    for (size_t i = 0; i < f->n; i++)
        free(f->paths[i]);
    free(f->paths);
    memset(f, 0, sizeof *f);
}

int cli_lx_opts(const char *cmd, struct lx_opts *opts, char dsl[CLI_DSL_CAP], char *data,
                size_t data_cap)
{
    char dir[4096];

    lx_default_opts(opts);
    if (cli_data_dir(dir, sizeof dir) != 0) {
        fprintf(stderr,
                "kvtutor %s: kvtutor's data folder (share/kvtutor) is not beside the program; "
                "reinstall it\n",
                cmd);
        return -1;
    }
    if (snprintf(dsl, CLI_DSL_CAP, "%s/lua/kvtutor.lua", dir) >= CLI_DSL_CAP) {
        fprintf(stderr, "kvtutor %s: the path of kvtutor's data folder is too long\n", cmd);
        return -1;
    }
    opts->dsl = dsl;
    if (data)
        snprintf(data, data_cap, "%s", dir);
    return 0;
}

static int is_dir(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

size_t cli_lesson_dirs(const char *extra, const char *data, char dirs[][4096])
{
    const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
    size_t n = 0;

    if (extra && is_dir(extra))
        snprintf(dirs[n++], 4096, "%s", extra);
    if (xdg && xdg[0] == '/')
        snprintf(dirs[n], 4096, "%s/kvtutor/lessons", xdg);
    else if (home && *home)
        snprintf(dirs[n], 4096, "%s/.local/share/kvtutor/lessons", home);
    else
        dirs[n][0] = '\0';
    if (dirs[n][0] && is_dir(dirs[n]))
        n++;
    if (data) {
        snprintf(dirs[n], 4096, "%s/lessons", data);
        if (is_dir(dirs[n]))
            n++;
    }
    return n;
}

void cli_course_files(const char *extra, const char *data, struct cli_files *f)
{
    char dirs[3][4096];
    size_t nd = cli_lesson_dirs(extra, data, dirs);
    struct stat sb;
    /* cli_lesson_dirs lists them in search order: the course runs the other way */
    for (size_t d = nd; d-- > 0;)
        cli_files_walk(f, dirs[d]);
    /* --lessons naming one lesson file: last, as a folder there would be */
    if (extra && stat(extra, &sb) == 0 && S_ISREG(sb.st_mode))
        cli_files_add(f, extra);
}

struct lx_course *cli_course(const char *extra, const char *data, const struct lx_opts *opts)
{
    struct cli_files f = {0};
    struct lx_course *c;
    cli_course_files(extra, data, &f);
    c = lx_course_new(f.paths, f.n, opts);
    cli_files_free(&f);
    return c;
}

const char *cli_build_id(char *buf, size_t cap)
{
    char exe[4096], id[130];
    struct stat sb;
    /* the linker's hash of the program: the same once installed or
     * stripped, so what the build tree made and shipped still holds */
    if (sys_build_id(id, sizeof id) == 0) {
        snprintf(buf, cap, "elf:%s", id);
        return buf;
    }
    if (sys_exe_path(exe, sizeof exe) != 0 || stat(exe, &sb) != 0)
        return NULL;
    snprintf(buf, cap, "exe:%lld:%lld.%09ld:%llu", (long long)sb.st_size,
             (long long)sb.st_mtim.tv_sec, (long)sb.st_mtim.tv_nsec, (unsigned long long)sb.st_ino);
    return buf;
}

struct lx_course *cli_course_open(const char *cmd, const char *extra, const char *data,
                                  const struct lx_opts *opts, struct store *st, int64_t learner_id)
{
    char build[160];
    struct tutor_course_open how = {.lx = opts,
                                    .store = st,
                                    .learner_id = learner_id,
                                    .build = cli_build_id(build, sizeof build)};
    struct tutor_course_result res;
    struct cli_files f = {0};
    struct cli_shipped shipped;
    struct lx_course *c;

    cli_briefs_init(&shipped, data);
    how.shipped = &shipped.source;
    cli_course_files(extra, data, &f);
    if (tutor_course_open(f.paths, f.n, &how, &c, &res) != KVT_E_OK && c) {
        char id[KVT_SAFE_FIELD], why[KVT_SAFE_FIELD];
        fprintf(stderr, "kvtutor %s: the schedules of %s were not checked: %s\n", cmd,
                kvt_safe(res.sync_stuck, id, sizeof id), kvt_safe(res.err.detail, why, sizeof why));
    }
    cli_briefs_free(&shipped);
    cli_files_free(&f);
    return c;
}

struct lx_lesson *cli_find_lesson(const char *id, const char *extra, const char *data,
                                  const struct lx_opts *opts, char *seen, size_t seen_cap)
{
    struct lx_course *c = cli_course(extra, data, opts);
    struct lx_lesson *found = NULL;
    size_t at;

    if (seen_cap)
        seen[0] = '\0';
    if (c && lx_course_find(c, id, &at)) {
        found = lx_course_take(c, at);
    } else if (c && seen_cap) {
        /* the lessons there are, to say which: every file is run for it */
        for (size_t i = 0; i < lx_course_size(c); i++)
            lx_course_load(c, i, NULL);
        lx_course_ids_text(c, seen, seen_cap);
    }
    lx_course_free(c);
    return found;
}
