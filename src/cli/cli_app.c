#define _POSIX_C_SOURCE 200809L
/* `kvtutor [--db FILE] [--lessons DIR] [--learner NAME] [open LESSON_ID]`:
 * opens the database, gathers the lesson files and starts the terminal app. */
#include "cli.h"
#include "cli_db.h"
#include "cli_lessons.h"
#include "cli_paths.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ui.h"

static int app_usage(FILE *out)
{
    fputs("usage: kvtutor [--db FILE] [--lessons DIR] [--learner NAME] [open LESSON_ID]\n\n"
          "Opens the tutor: the course map, lessons, exercises and the interviewer's\n"
          "follow-ups. Lessons come from the bundled folder, then\n"
          "$XDG_DATA_HOME/kvtutor/lessons, then --lessons (a later lesson with the same id\n"
          "replaces an earlier one). Press ? in the app for its keys.\n",
          out);
    return out == stdout ? 0 : 2;
}

int cli_app(int argc, char **argv)
{
    const char *db_path = NULL, *lessons = NULL, *learner = NULL, *open = NULL;
    struct cli_db db;
    struct cli_files files = {0};
    struct ui_options o = {0};
    char data[4096], dirs[3][4096], probe_cuda[4096], probe_cpu[4096];
    struct timespec ts;
    size_t nd;
    int rc;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    o.started_us = (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
    for (int i = 0; i < argc; i++) {
        const char **dst = strcmp(argv[i], "--db") == 0        ? &db_path
                           : strcmp(argv[i], "--lessons") == 0 ? &lessons
                           : strcmp(argv[i], "--learner") == 0 ? &learner
                           : strcmp(argv[i], "open") == 0      ? &open
                                                               : NULL;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return app_usage(stdout);
        if (!dst) {
            fprintf(stderr, "kvtutor: %s: unknown command or flag (see kvtutor --help)\n", argv[i]);
            return 2;
        }
        if (i + 1 >= argc || !*argv[i + 1]) {
            fprintf(stderr, "kvtutor: %s needs a value\n", argv[i]);
            return 2;
        }
        *dst = argv[++i];
    }
    if (cli_lx_opts("app", &o.lx, data, sizeof data) != 0)
        return 2;
    if ((rc = cli_db_open("app", db_path, (int64_t)time(NULL), &db)) != 0)
        return rc;
    if (learner) {
        struct store_error err;
        if (strlen(learner) == 0 || strlen(learner) > 64) {
            fputs("kvtutor: --learner takes a name of 1 to 64 characters\n", stderr);
            cli_db_close(&db);
            return 2;
        }
        snprintf(db.learner, sizeof db.learner, "%s", learner);
        if (store_learner(db.st, learner, (int64_t)time(NULL), &db.learner_id, &err) != KVT_E_OK) {
            rc = cli_db_error("app", db.path, &err);
            cli_db_close(&db);
            return rc;
        }
    }
    /* course order: bundled, then the learner's own, then --lessons */
    nd = cli_lesson_dirs(lessons, data, dirs);
    for (size_t d = nd; d-- > 0;)
        cli_files_walk(&files, dirs[d]);
    o.store = db.st;
    o.db_path = db.path;
    if (cli_sibling_program("kvtutor-probe-cuda", probe_cuda, sizeof probe_cuda) == 0)
        o.probe_cuda = probe_cuda;
    if (cli_sibling_program("kvtutor-probe-cpu", probe_cpu, sizeof probe_cpu) == 0)
        o.probe_cpu = probe_cpu;
    o.learner = db.learner;
    o.learner_id = db.learner_id;
    o.lesson_paths = files.paths;
    o.n_lessons = files.n;
    o.open_lesson = open;
    rc = ui_run(&o);
    cli_files_free(&files);
    cli_db_close(&db);
    return rc;
}
