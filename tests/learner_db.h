/* learner_db.h: a learner's progress database made the way a learner makes
 * one, by `kvtutor import` of an export, for the tests of the progress
 * commands (stats, export, import, reset). */
#ifndef LEARNER_DB_H
#define LEARNER_DB_H

#include "run_cmd.h"

/* Writes text to path, replacing what was there. 0, or -1 when it cannot. */
int learner_write_file(const char *path, const char *text);

/* Writes `export_json` (a kvtutor-export document) to `file` and runs
 * `kvtutor import FILE --db DB`; *res holds its exit status and what it
 * printed (run_free it). 0, or -1 when the file could not be written or
 * kvtutor not started (*res is then empty). */
int learner_db_import(const char *db, const char *file, const char *export_json,
                      struct run_result *res);

#endif
