/* cli_db.h: opening the progress database for a command: --db or the
 * default path, the current learner, and errors in words with what to do. */
#ifndef CLI_DB_H
#define CLI_DB_H

#include <stdint.h>

#include "store.h"

struct cli_db {
    struct store *st;
    char path[4096];
    char learner[128];
    int64_t learner_id;
};

/* Opens `db_path` (NULL: the default, its folder created when missing) and
 * finds the learner: `learner` (--learner; NULL: the setting "learner", else
 * "default"), added when new. Returns 0; 1 after printing "kvtutor CMD: PATH:
 * what happened; what to do"; 2 after a usage error for a bad name. */
int cli_db_open(const char *cmd, const char *db_path, const char *learner, int64_t now,
                struct cli_db *db);
void cli_db_close(struct cli_db *db);

/* Prints a store error for `cmd` in the same words; returns 1. */
int cli_db_error(const char *cmd, const char *path, const struct store_error *err);

#endif
