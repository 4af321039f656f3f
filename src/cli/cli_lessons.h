/* cli_lessons.h: finding lesson files and the lesson DSL for a command. */
#ifndef CLI_LESSONS_H
#define CLI_LESSONS_H

#include <stddef.h>

#include "lx.h"
#include "lx_course.h"
#include "store.h"

struct cli_files {
    char **paths;
    size_t n, cap;
};

/* Appends a path; -1 when out of memory. */
int cli_files_add(struct cli_files *f, const char *path);

/* Appends every *.lua below dir (hidden entries skipped), in name order. */
void cli_files_walk(struct cli_files *f, const char *dir);

void cli_files_free(struct cli_files *f);

/* lx options with the DSL found beside the program: its path is written to
 * the caller's dsl (CLI_DSL_CAP bytes), which opts->dsl then points at, so
 * it must live as long as the options (and any course made with them).
 * Returns 0, or -1 after printing "kvtutor CMD: ..." when the data folder is
 * missing or the path does not fit. data (may be NULL) receives the data
 * folder. */
#define CLI_DSL_CAP 4200
int cli_lx_opts(const char *cmd, struct lx_opts *opts, char dsl[CLI_DSL_CAP], char *data,
                size_t data_cap);

/* The lesson folders, in the order they are searched: --lessons, then
 * $XDG_DATA_HOME/kvtutor/lessons (or ~/.local/share/...), then the bundled
 * ones. Fills dirs[] (at most 3) and returns how many exist. */
size_t cli_lesson_dirs(const char *extra, const char *data, char dirs[][4096]);

/* The lesson files of those folders in course order: the bundled first,
 * then the learner's, then `extra` (--lessons: a folder, or one lesson
 * file), so that a later file shadows an earlier lesson with the same id. */
void cli_course_files(const char *extra, const char *data, struct cli_files *f);

/* The course catalogue over cli_course_files; NULL when out of memory. */
struct lx_course *cli_course(const char *extra, const char *data, const struct lx_opts *opts);

/* The course over cli_course_files, opened as the app opens it
 * (tutor_course_open): every file loaded and, given a store, each live
 * lesson's schedules synced, so a changed answer starts over before it is
 * counted. A sync that fails is said on stderr ("kvtutor CMD: the schedules
 * of ... were not checked: ...") and the course kept. NULL when out of
 * memory. */
struct lx_course *cli_course_open(const char *cmd, const char *extra, const char *data,
                                  const struct lx_opts *opts, struct store *st, int64_t learner_id);

/* The running program's identity for the lesson briefs (tutor_course.h):
 * "elf:" and its build id (sys_build_id), a hash of the program the linker
 * wrote, so a rebuilt or upgraded kvtutor, whose calculator may give other
 * answers, loads every lesson again, while the same program installed
 * elsewhere or stripped reads the briefs its build made. Without a build
 * id, its file's size, time and inode. Returns buf, or NULL (no briefs)
 * when neither can be found. */
const char *cli_build_id(char *buf, size_t cap);

/* The live lesson whose id is `id` (a --lessons draft before the learner's
 * before the bundled), loading no more files than it must. Returns the
 * lesson (the caller frees it with lx_free), or NULL with the course's
 * lesson ids written, comma-separated, into `seen`. */
struct lx_lesson *cli_find_lesson(const char *id, const char *extra, const char *data,
                                  const struct lx_opts *opts, char *seen, size_t seen_cap);

#endif
