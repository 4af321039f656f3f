/* A database file deleted or replaced while the app runs. SQLite keeps
 * writing to the open (unlinked) file and every answer is acknowledged, then
 * lost when the app ends; so each write first asks SQLite whether the file
 * is still the one at the path (SQLITE_FCNTL_HAS_MOVED: the unix VFS
 * compares the open file's inode with a fresh stat of its name). */
#define _POSIX_C_SOURCE 200809L
#include "store_private.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* VACUUM INTO: a consistent copy of everything the connection holds, the
 * WAL's pages included, into a new file; SQLite refuses a target that
 * exists, so nothing is written over. */
static int copy_into(struct store *st, const char *target)
{
    sqlite3_stmt *s;
    int rc = sqlite3_prepare_v2(st->db, "VACUUM INTO ?1", -1, &s, NULL);
    if (rc != SQLITE_OK)
        return rc;
    sqlite3_bind_text(s, 1, target, -1, SQLITE_TRANSIENT);
    rc = sqlite3_step(s);
    sqlite3_finalize(s);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

enum kvt_err store_check_moved(struct store *st, struct store_error *err)
{
    int moved = 0, rc;
    struct stat sb;
    struct store *fresh;
    char msg[sizeof err->detail], saved[4096];
    enum kvt_err e;

    if (st->readonly || !st->path ||
        sqlite3_file_control(st->db, "main", SQLITE_FCNTL_HAS_MOVED, &moved) != SQLITE_OK || !moved)
        return KVT_E_OK;
    if (stat(st->path, &sb) == 0) {
        /* someone else's file now: leave it, keep ours beside it */
        bool before;
        snprintf(saved, sizeof saved, "%s.recovered", st->path);
        before = stat(saved, &sb) == 0; /* an earlier refused write made it */
        rc = before ? SQLITE_OK : copy_into(st, saved);
        snprintf(msg, sizeof msg,
                 rc != SQLITE_OK ? "another file stands at its path now and is not written over; "
                                   "%s could not be written either"
                 : before        ? "another file stands at its path now and is not written over; "
                                   "the answers up to the first one refused are in %s"
                                 : "another file stands at its path now and is not written over; "
                                   "the answers so far are in %s",
                 saved);
        return store_set_err(err, KVT_E_DB_GONE, 0, msg);
    }
    if (errno != ENOENT)
        return store_set_err(err, KVT_E_DB_IO, 0, strerror(errno));
    /* Out of WAL first: the -wal and -shm still at the path (a learner who
     * removed only the .db) are this connection's own, and a new file beside
     * them would read the old file's pages from them. Leaving WAL checkpoints
     * into the open file and removes both. */
    store_exec(st, "PRAGMA wal_checkpoint(TRUNCATE)");
    store_exec(st, "PRAGMA journal_mode = DELETE");
    if ((rc = copy_into(st, st->path)) != SQLITE_OK) {
        snprintf(msg, sizeof msg, "it was deleted, and writing it again failed: %s",
                 sqlite3_errmsg(st->db));
        return store_set_err(err, KVT_E_DB_GONE, rc, msg);
    }
    if ((e = store_open(st->path, false, &fresh, err)) != KVT_E_OK)
        return e;
    /* the new connection takes the old one's place; callers hold the same pointer */
    for (int i = 0; i < STMT__COUNT; i++)
        sqlite3_finalize(st->stmt[i]);
    sqlite3_close(st->db);
    free(st->path);
    *st = *fresh;
    free(fresh);
    st->recreated = true;
    return KVT_E_OK;
}

bool store_recreated(struct store *st)
{
    bool r = st && st->recreated;
    if (st)
        st->recreated = false;
    return r;
}
