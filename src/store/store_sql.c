/* The statements' table, and how the store runs them: prepared once, bound
 * from their signatures by one binder, inside transactions that take the
 * write lock up front. */
#include "store_private.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

const struct store_statement store_statements[STMT__COUNT] = {
#define STORE_STMT_ROW(name, sig, sql) {#name, sig, sql},
    STORE_STATEMENTS(STORE_STMT_ROW)
#undef STORE_STMT_ROW
};

enum kvt_err store_set_err(struct store_error *err, enum kvt_err code, int sqlite_code,
                           const char *detail)
{
    if (err) {
        size_t n = detail ? strlen(detail) : 0;
        if (n >= sizeof err->detail)
            n = sizeof err->detail - 1; /* a long path is cut, not overflowed */
        err->code = code;
        err->sqlite_code = sqlite_code;
        memcpy(err->detail, detail ? detail : "", n);
        err->detail[n] = '\0';
    }
    return code;
}

enum kvt_err store_code_for(int rc)
{
    switch (rc & 0xff) {
    case SQLITE_OK:
    case SQLITE_DONE:
    case SQLITE_ROW:
        return KVT_E_OK;
    case SQLITE_NOTADB:
        return KVT_E_DB_NOT_KVTUTOR;
    case SQLITE_CORRUPT:
        return KVT_E_DB_CORRUPT;
    case SQLITE_READONLY:
        return KVT_E_DB_READONLY;
    case SQLITE_FULL:
        return KVT_E_DB_FULL;
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return KVT_E_DB_LOCKED;
    case SQLITE_CANTOPEN:
    case SQLITE_IOERR:
    case SQLITE_PERM:
        return KVT_E_DB_IO;
    case SQLITE_CONSTRAINT:
    case SQLITE_MISMATCH:
    case SQLITE_RANGE:
        return KVT_E_RANGE;
    default:
        return KVT_E_DB_IO;
    }
}

enum kvt_err store_fail(struct store *st, int rc, struct store_error *err)
{
    const char *msg = st && st->db ? sqlite3_errmsg(st->db) : sqlite3_errstr(rc);
    /* SQLite reports a full disk inside an I/O error on some paths */
    if ((rc & 0xff) == SQLITE_IOERR && errno == ENOSPC)
        return store_set_err(err, KVT_E_DB_FULL, rc, msg);
    return store_set_err(err, store_code_for(rc), rc, msg);
}

/* The one binder: each signature character takes the next argument. */
static int bind_args(sqlite3_stmt *s, const char *sig, va_list ap)
{
    int rc = SQLITE_OK;

    for (int i = 0; sig[i] && rc == SQLITE_OK; i++) {
        int at = i + 1;
        switch (sig[i]) {
        case 'T': {
            const char *t = va_arg(ap, const char *);
            rc = t ? sqlite3_bind_text(s, at, t, -1, SQLITE_TRANSIENT) : sqlite3_bind_null(s, at);
            break;
        }
        case 'I':
            rc = sqlite3_bind_int64(s, at, va_arg(ap, int64_t));
            break;
        case 'D':
            rc = sqlite3_bind_double(s, at, va_arg(ap, double));
            break;
        case 'i': {
            const int64_t *v = va_arg(ap, const int64_t *);
            rc = v ? sqlite3_bind_int64(s, at, *v) : sqlite3_bind_null(s, at);
            break;
        }
        case 'd': {
            const double *v = va_arg(ap, const double *);
            rc = v ? sqlite3_bind_double(s, at, *v) : sqlite3_bind_null(s, at);
            break;
        }
        default:
            rc = SQLITE_MISUSE;
        }
    }
    return rc;
}

/* Prepared on first use; a signature that does not count the SQL's
 * parameters is refused then, before anything is bound by position. */
static sqlite3_stmt *statement(struct store *st, enum store_stmt id, struct store_error *err)
{
    const struct store_statement *t = &store_statements[id];

    if (!st->stmt[id]) {
        int rc =
            sqlite3_prepare_v3(st->db, t->sql, -1, SQLITE_PREPARE_PERSISTENT, &st->stmt[id], NULL);
        if (rc != SQLITE_OK) {
            store_fail(st, rc, err);
            return NULL;
        }
        if ((size_t)sqlite3_bind_parameter_count(st->stmt[id]) != strlen(t->sig)) {
            sqlite3_finalize(st->stmt[id]);
            st->stmt[id] = NULL;
            store_set_err(err, KVT_E_RANGE, SQLITE_MISUSE, t->name);
            return NULL;
        }
    }
    sqlite3_reset(st->stmt[id]);
    sqlite3_clear_bindings(st->stmt[id]);
    return st->stmt[id];
}

static sqlite3_stmt *prepare(struct store *st, enum store_stmt id, struct store_error *err,
                             va_list ap)
{
    sqlite3_stmt *s = statement(st, id, err);
    int rc;

    if (!s)
        return NULL;
    if ((rc = bind_args(s, store_statements[id].sig, ap)) != SQLITE_OK) {
        store_fail(st, rc, err);
        return NULL;
    }
    return s;
}

sqlite3_stmt *store_prepare(struct store *st, enum store_stmt id, struct store_error *err, ...)
{
    sqlite3_stmt *s;
    va_list ap;

    va_start(ap, err);
    s = prepare(st, id, err, ap);
    va_end(ap);
    return s;
}

enum kvt_err store_run(struct store *st, enum store_stmt id, struct store_error *err, ...)
{
    sqlite3_stmt *s;
    va_list ap;
    int rc;

    va_start(ap, err);
    s = prepare(st, id, err, ap);
    va_end(ap);
    if (!s)
        return err->code;
    rc = sqlite3_step(s);
    sqlite3_reset(s);
    return rc == SQLITE_DONE ? KVT_E_OK : store_fail(st, rc, err);
}

int store_exec(struct store *st, const char *sql)
{
    return sqlite3_exec(st->db, sql, NULL, NULL, NULL);
}

enum kvt_err store_begin(struct store *st, struct store_error *err)
{
    int rc;
    if (st->readonly)
        return store_set_err(err, KVT_E_DB_READONLY, SQLITE_READONLY,
                             "opened read-only: the file or its folder cannot be written");
    {
        enum kvt_err e = store_check_moved(st, err);
        if (e != KVT_E_OK)
            return e;
    }
    rc = store_exec(st, "BEGIN IMMEDIATE");
    return rc == SQLITE_OK ? KVT_E_OK : store_fail(st, rc, err);
}

enum kvt_err store_commit(struct store *st, struct store_error *err)
{
    int rc = store_exec(st, "COMMIT");
    if (rc != SQLITE_OK) {
        enum kvt_err e = store_fail(st, rc, err);
        store_rollback(st);
        return e;
    }
    return KVT_E_OK;
}

void store_rollback(struct store *st)
{
    if (!sqlite3_get_autocommit(st->db))
        store_exec(st, "ROLLBACK");
}

enum kvt_err store_write_one(struct store *st, enum store_stmt id, struct store_error *err, ...)
{
    enum kvt_err e = store_begin(st, err);
    sqlite3_stmt *s;
    va_list ap;
    int rc;

    if (e != KVT_E_OK)
        return e;
    va_start(ap, err);
    s = prepare(st, id, err, ap);
    va_end(ap);
    if (!s)
        goto fail;
    rc = sqlite3_step(s);
    sqlite3_reset(s);
    if (rc != SQLITE_DONE) {
        store_fail(st, rc, err);
        goto fail;
    }
    return store_commit(st, err);
fail:
    store_rollback(st);
    return err->code;
}
