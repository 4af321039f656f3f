/* store_private.h: what the store's own files share; not for other layers. */
#ifndef STORE_PRIVATE_H
#define STORE_PRIVATE_H

#include <sqlite3.h>

#include "store.h"
#include "store_sql.h"

struct store {
    sqlite3 *db;
    bool readonly;
    int version;
    sqlite3_stmt *stmt[STMT__COUNT];
};

/* The prepared statement, reset and with its bindings cleared; NULL (and
 * *err filled) when it cannot be prepared. */
sqlite3_stmt *store_stmt(struct store *st, enum store_stmt id, struct store_error *err);

/* Maps a SQLite result code to a kvt_err and fills *err with SQLite's words. */
enum kvt_err store_fail(struct store *st, int rc, struct store_error *err);

/* BEGIN IMMEDIATE / COMMIT / ROLLBACK. Writers take the lock up front, so
 * two kvtutors queue on the busy timeout instead of deadlocking. */
enum kvt_err store_begin(struct store *st, struct store_error *err);
enum kvt_err store_commit(struct store *st, struct store_error *err);
void store_rollback(struct store *st);

/* A one-statement write: store_begin_stmt takes the write lock and gives the
 * statement to bind (NULL, rolled back and *err filled, when either fails);
 * store_write_one runs it and commits, or rolls back and says why. */
sqlite3_stmt *store_begin_stmt(struct store *st, enum store_stmt id, struct store_error *err);
enum kvt_err store_write_one(struct store *st, sqlite3_stmt *s, struct store_error *err);

/* Inside a transaction: the learner's id, created on first use. */
enum kvt_err store_learner_locked(struct store *st, const char *name, int64_t now, int64_t *id,
                                  struct store_error *err);

/* Inside a transaction: inserts the attempt unless its uid is there;
 * *added says which. The schedule is not touched. */
enum kvt_err store_insert_attempt(struct store *st, const struct store_attempt *a, bool *added,
                                  struct store_error *err);

/* Binds NULL for a NULL string. */
int store_bind_text(sqlite3_stmt *s, int i, const char *text);

#endif
