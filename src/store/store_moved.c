/* A database file deleted or replaced while the app runs. SQLite keeps
 * writing to the open (unlinked) file and every answer is acknowledged, then
 * lost when the app ends; so each write first asks SQLite whether the file
 * is still the one at the path (SQLITE_FCNTL_HAS_MOVED: the unix VFS
 * compares the open file's inode with a fresh stat of its name). */
#define _POSIX_C_SOURCE 200809L
#include "store_private.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A whole copy of what the connection holds, the WAL's pages included, into
 * a new file at `target` (created exclusively: nothing is written over),
 * through SQLite's online backup, so the copy is made by a connection of
 * its own that is closed when it is done. */
static int copy_into(struct store *st, const char *target)
{
    sqlite3 *dst = NULL;
    sqlite3_backup *b;
    int rc, fd = open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

    if (fd < 0)
        return SQLITE_CANTOPEN;
    close(fd);
    rc = sqlite3_open_v2(target, &dst, SQLITE_OPEN_READWRITE, NULL);
    if (rc == SQLITE_OK) {
        if ((b = sqlite3_backup_init(dst, "main", st->db, "main")) != NULL) {
            rc = sqlite3_backup_step(b, -1);
            rc = sqlite3_backup_finish(b) == SQLITE_OK && rc == SQLITE_DONE ? SQLITE_OK
                                                                            : SQLITE_IOERR;
        } else {
            rc = sqlite3_errcode(dst);
        }
    }
    if (sqlite3_close(dst) != SQLITE_OK && rc == SQLITE_OK)
        rc = SQLITE_IOERR;
    if (rc != SQLITE_OK)
        unlink(target);
    return rc;
}

enum kvt_err store_check_moved(struct store *st, struct store_error *err)
{
    int moved = 0, rc;
    struct stat sb;
    struct store *fresh;
    char msg[sizeof err->detail], saved[4096];
    enum kvt_err e;

    if (st->gone[0])
        return store_set_err(err, KVT_E_DB_GONE, 0, st->gone);
    if (st->readonly || !st->path ||
        sqlite3_file_control(st->db, "main", SQLITE_FCNTL_HAS_MOVED, &moved) != SQLITE_OK || !moved)
        return KVT_E_OK;
    if (stat(st->path, &sb) == 0) {
        /* Someone else's file now: left alone, ours copied beside it. Then
         * this connection lets go of the path's -wal and -shm (emptied
         * first), which a file in WAL mode at that path would read as its
         * own, and reads on from the copy; every write is refused. */
        snprintf(saved, sizeof saved, "%s.recovered", st->path);
        rc = stat(saved, &sb) == 0 ? SQLITE_CANTOPEN : copy_into(st, saved);
        if (rc == SQLITE_OK)
            snprintf(st->gone, sizeof st->gone,
                     "another file stands at its path now and is not written over; the answers "
                     "up to now are in %s, and nothing more is saved until kvtutor starts again",
                     saved);
        else
            snprintf(st->gone, sizeof st->gone,
                     "another file stands at its path now and is not written over, and %s "
                     "could not be written (%s): quit without removing anything",
                     saved, rc == SQLITE_CANTOPEN ? "it exists" : sqlite3_errstr(rc));
        if (rc == SQLITE_OK) {
            store_exec(st, "PRAGMA wal_checkpoint(TRUNCATE)");
            for (int i = 0; i < STMT__COUNT; i++) {
                sqlite3_finalize(st->stmt[i]);
                st->stmt[i] = NULL;
            }
            sqlite3_close(st->db);
            st->db = NULL;
            if (sqlite3_open_v2(saved, &st->db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
                sqlite3_close(st->db);
                sqlite3_open(":memory:", &st->db);
            }
        }
        return store_set_err(err, KVT_E_DB_GONE, 0, st->gone);
    }
    if (errno != ENOENT)
        return store_set_err(err, KVT_E_DB_IO, 0, strerror(errno));
    /* Everything into the open file first, so the copy is whole and the WAL
     * empty. (Leaving WAL is not an option: SQLite refuses that change on a
     * moved file, SQLITE_READONLY_DBMOVED.) */
    store_exec(st, "PRAGMA wal_checkpoint(TRUNCATE)");
    if ((rc = copy_into(st, st->path)) != SQLITE_OK) {
        snprintf(msg, sizeof msg, "it was deleted, and writing it again failed: %s",
                 sqlite3_errstr(rc));
        return store_set_err(err, KVT_E_DB_GONE, rc, msg);
    }
    /* The old connection is closed before a new one opens at the path: the
     * -wal and -shm there (a learner who removed only the .db) are the old
     * file's, found by name; a new connection beside them would read the old
     * wal-index, and the old one closing later would delete the new -wal. */
    for (int i = 0; i < STMT__COUNT; i++) {
        sqlite3_finalize(st->stmt[i]);
        st->stmt[i] = NULL;
    }
    sqlite3_close(st->db);
    st->db = NULL;
    for (int k = 0; k < 2; k++) {
        snprintf(saved, sizeof saved, "%s%s", st->path, k ? "-shm" : "-wal");
        unlink(saved); /* the closed file's: no connection has them now */
    }
    if ((e = store_open(st->path, false, &fresh, err)) != KVT_E_OK) {
        /* the copy is on disk, but it will not open: refuse every write from
         * here on, against an empty connection rather than none */
        sqlite3_open(":memory:", &st->db);
        st->readonly = true;
        return e;
    }
    /* the new connection takes the old one's place; callers hold the same
     * pointer, and the busy wait, registered with `fresh`, is given st
     * (fresh is freed) and the caller's wait notice */
    free(st->path);
    fresh->on_wait = st->on_wait;
    fresh->wait_ctx = st->wait_ctx;
    *st = *fresh;
    free(fresh);
    store_watch_busy(st);
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
