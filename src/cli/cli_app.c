#define _POSIX_C_SOURCE 200809L
/* `kvtutor [--db FILE] [--lessons DIR] [--learner NAME] [open LESSON_ID]`:
 * opens the database, gathers the lesson files and starts the terminal app. */
#include "cli.h"
#include "cli_args.h"
#include "cli_db.h"
#include "cli_lessons.h"
#include "cli_paths.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ui.h"
#include "ui_term.h"

static const struct cli_spec spec = {
    .cmd = NULL, .globals = CLI_G_DB | CLI_G_LESSONS | CLI_G_LEARNER, .max_pos = 2};

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
    struct cli_args a;
    struct cli_db db;
    struct cli_files files = {0};
    struct ui_options o = {0};
    char data[4096], dsl[CLI_DSL_CAP], probe_cuda[4096], probe_cpu[4096], build[128];
    struct timespec ts;
    int rc;

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
    if (cli_lx_opts("app", &o.lx, dsl, data, sizeof data) != 0)
        return 2;
    if ((rc = cli_db_open("app", a.db, a.learner, (int64_t)time(NULL), &db)) != 0)
        return rc;
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
    o.lesson_paths = files.paths;
    o.n_lessons = files.n;
    o.open_lesson = a.npos == 2 ? a.pos[1] : NULL;
    rc = ui_run(&o);
    cli_files_free(&files);
    cli_db_close(&db);
    /* a quit by SIGINT, SIGTERM or SIGHUP ends as that signal, now that
     * every answer is saved and the database closed */
    ui_term_exit_as_signalled();
    return rc;
}
