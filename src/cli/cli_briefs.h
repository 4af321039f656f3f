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

#include <stddef.h>

#include "store_brief.h"

struct cli_shipped {
    struct store_brief_row *rows; /* path "" */
    size_t n;
    void *json; /* the rows' texts live in it */
};

/* The rows of data/briefs.json; none (n 0) when it is missing, larger than
 * a course's briefs could be, or not in the format above. */
void cli_briefs_read(const char *data, struct cli_shipped *s);
void cli_briefs_free(struct cli_shipped *s);

/* Writes rows (all of one engine) to path, through a temporary file beside
 * it renamed into place. 0, or -1 with why ("cannot write ...: reason"). */
int cli_briefs_write(const char *path, const struct store_brief_row *rows, size_t n, char *why,
                     size_t cap);

#endif
