/* ui.h: the terminal app. The command line opens the database and finds the
 * lesson files; the app loads the lessons, owns the terminal and runs until
 * the learner quits. */
#ifndef UI_H
#define UI_H

#include <stddef.h>
#include <stdint.h>

#include "lx.h"
#include "store.h"

struct ui_options {
    struct store *store;
    const char *db_path;
    const char *learner;
    int64_t learner_id;
    struct lx_opts lx;
    char **lesson_paths; /* in course order */
    size_t n_lessons;
    const char *open_lesson; /* open this lesson at start (NULL: the course map) */
    uint64_t started_us;     /* CLOCK_MONOTONIC when the command began, for the startup figure */
    const char *probe_cuda;  /* the probe programs (docs/probes.md); NULL: none */
    const char *probe_cpu;
    const char *probe_size_mib; /* the probes' --size-mib (KVTUTOR_PROBE_SIZE_MIB); NULL: theirs */
    const char *build;          /* the program's identity, for the lesson briefs (tutor_course.h) */
    const struct tutor_shipped *shipped; /* the build's briefs (tutor_course.h); may be NULL */
    double (*monotonic)(void); /* sessions' clock in seconds; NULL: the system's (tests set it) */
};

/* Runs the app. Returns the exit status: 0, or 2 when there is no usable
 * terminal (the reason already printed). */
int ui_run(const struct ui_options *o);

#endif
