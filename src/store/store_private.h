/* store_private.h: what the store's own files share; not for other layers. */
#ifndef STORE_PRIVATE_H
#define STORE_PRIVATE_H

#include <sqlite3.h>

#include "store.h"
#include "store_sql.h"

#define SECONDS_PER_DAY 86400

struct store {
    sqlite3 *db;
    bool readonly;
    int version;
    sqlite3_stmt *stmt[STMT__COUNT];
    char *path;      /* as opened: where the file is looked for again at each write */
    bool recreated;  /* written again at path since store_recreated last said so */
    char gone[4400]; /* why every write is refused: another file took the path (and its copy) */
    void (*on_wait)(void *ctx); /* store_on_wait */
    void *wait_ctx;
};

/* Fills *err (when not NULL) and returns code; a long detail is cut. */
enum kvt_err store_set_err(struct store_error *err, enum kvt_err code, int sqlite_code,
                           const char *detail);

/* The kvt_err for a SQLite result code. */
enum kvt_err store_code_for(int rc);

/* Maps a SQLite result code to a kvt_err and fills *err with SQLite's words. */
enum kvt_err store_fail(struct store *st, int rc, struct store_error *err);

/* Statement `id` (store_sql.h), reset, its parameters bound from the
 * arguments that follow, one per character of its signature: T const char *,
 * I int64_t, D double, i const int64_t *, d const double * (cast integers to
 * int64_t: variadic arguments are not converted). NULL, *err filled, when it
 * cannot be prepared or bound. */
sqlite3_stmt *store_prepare(struct store *st, enum store_stmt id, struct store_error *err, ...);

/* store_prepare, then one step that must finish (a write, in the caller's
 * transaction); the statement is reset either way. */
enum kvt_err store_run(struct store *st, enum store_stmt id, struct store_error *err, ...);

/* A write in a transaction of its own: begins (taking the write lock),
 * binds as store_prepare, steps, commits; rolls back and says why on failure. */
enum kvt_err store_write_one(struct store *st, enum store_stmt id, struct store_error *err, ...);

/* sqlite3_exec without callbacks; the SQLite result code. */
int store_exec(struct store *st, const char *sql);

/* BEGIN IMMEDIATE / COMMIT / ROLLBACK. Writers take the lock up front, so
 * two kvtutors queue on the busy timeout instead of deadlocking. A failed
 * commit is rolled back. */
enum kvt_err store_begin(struct store *st, struct store_error *err);
enum kvt_err store_commit(struct store *st, struct store_error *err);
void store_rollback(struct store *st);

/* Registers the busy wait (store_open.c) on st->db, its argument st: again
 * after st->db or st itself is replaced. */
void store_watch_busy(struct store *st);

/* Before a write: when the open file has been unlinked or replaced at its
 * path (SQLITE_FCNTL_HAS_MOVED), writes what the connection still holds
 * back to the path and reopens it there (st->recreated set), or, where
 * another file now stands at the path, copies it to PATH.recovered and
 * returns KVT_E_DB_GONE: a write to a deleted file is lost when the app
 * ends, and one over a file put in its place would destroy that file. */
enum kvt_err store_check_moved(struct store *st, struct store_error *err);

/* Inside a transaction: the learner's id, created on first use. */
enum kvt_err store_learner_locked(struct store *st, const char *name, int64_t now, int64_t *id,
                                  struct store_error *err);

/* Inside a transaction: inserts the attempt unless its uid is there;
 * *added says which. The schedule is not touched. */
enum kvt_err store_insert_attempt(struct store *st, const struct store_attempt *a, bool *added,
                                  struct store_error *err);

#endif
