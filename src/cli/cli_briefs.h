/* cli_briefs.h: the briefs file the build writes beside the bundled lessons
 * (share/kvtutor/briefs.json), so a first start opens them without running
 * them (tutor_course.h, `shipped`).
 *
 * `kvtutor lint --briefs FILE` writes it after checking the lessons: one
 * entry a lesson file, its content hash, brief and fingerprints, under the
 * engine (program build id and DSL hash) that made them. The app reads it
 * at start; a row holds only for a file of those bytes loaded by that same
 * program and DSL, so a stale, foreign or damaged file costs nothing but
 * the time of running the lessons. The format:
 *   {"kvtutor_briefs": 1, "engine": "elf:... dsl:...",
 *    "lessons": [{"file": "01-kv-cache.lua", "content_hash": "16 hex",
 *                 "brief": "...", "fingerprints": "..."}, ...]} */
#ifndef CLI_BRIEFS_H
#define CLI_BRIEFS_H

#include <stdbool.h>
#include <stddef.h>

#include "store_brief.h"
#include "tutor_course.h"

struct cli_shipped {
    char path[4200];              /* data/briefs.json */
    struct tutor_shipped source;  /* what tutor_course_open asks */
    struct store_brief_row *rows; /* path "", once read */
    size_t n;
    bool tried; /* read, or tried to be */
    void *json; /* the rows' texts live in it */
};

/* Sets s up to read data/briefs.json when the course first asks for it
 * (tutor_shipped: not at all on a start whose briefs are all kept); none
 * when it is missing, larger than a course's briefs could be, or not in
 * the format above. s->source is then what the course is opened with. */
void cli_briefs_init(struct cli_shipped *s, const char *data);
void cli_briefs_free(struct cli_shipped *s);

/* Writes rows (all of one engine) to path, through a temporary file beside
 * it renamed into place. 0, or -1 with why ("cannot write ...: reason"). */
int cli_briefs_write(const char *path, const struct store_brief_row *rows, size_t n, char *why,
                     size_t cap);

#endif
