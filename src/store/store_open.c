/* Opening the progress database: why a file cannot be opened, whose file it
 * is, the connection's settings, and the migrations up to this kvtutor's
 * schema, in one transaction. */
#define _POSIX_C_SOURCE 200809L
#include "store_private.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store_migrations.h"

/* "kvtu" in ASCII: marks the file as ours for file(1) and for this check. */
#define KVT_APPLICATION_ID 0x6b767475
#define WAIT_SAY_MS        250

int store_latest_version(void)
{
    return store_migration_count;
}

bool store_readonly(const struct store *st)
{
    return st->readonly;
}

int store_schema_version(const struct store *st)
{
    return st->version;
}

enum kvt_err store_default_path(const char *xdg_data_home, const char *home, char *buf, size_t cap)
{
    int n;
    /* the XDG spec: a relative XDG_DATA_HOME is invalid and ignored */
    if (xdg_data_home && xdg_data_home[0] == '/')
        n = snprintf(buf, cap, "%s/kvtutor/progress.db", xdg_data_home);
    else if (home && *home)
        n = snprintf(buf, cap, "%s/.local/share/kvtutor/progress.db", home);
    else
        return KVT_E_MISSING;
    return n > 0 && (size_t)n < cap ? KVT_E_OK : KVT_E_RANGE;
}

/* mkdir -p of the folder that holds `path`. */
static int make_parents(const char *path)
{
    char dir[4096];
    size_t n = strlen(path);

    if (n >= sizeof dir)
        return ENAMETOOLONG;
    memcpy(dir, path, n + 1);
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(dir, 0700) != 0 && errno != EEXIST)
            return errno;
        *p = '/';
    }
    return 0;
}

/* Says why a file cannot be opened, before SQLite gives its vaguer
 * "unable to open database file". */
static enum kvt_err precheck(const char *path, bool create_folder, bool *readonly,
                             struct store_error *err)
{
    struct stat sb;
    char dir[4096];
    const char *slash = strrchr(path, '/');

    *readonly = false;
    if (stat(path, &sb) == 0) {
        if (S_ISDIR(sb.st_mode))
            return store_set_err(err, KVT_E_DB_IS_DIR, 0, path);
        if (access(path, W_OK) != 0)
            *readonly = true;
        return KVT_E_OK;
    }
    if (errno != ENOENT)
        return store_set_err(err, KVT_E_DB_IO, 0, strerror(errno));
    if (create_folder) {
        int e = make_parents(path);
        if (e)
            return store_set_err(err, e == EROFS || e == EACCES ? KVT_E_DB_READONLY : KVT_E_DB_IO,
                                 0, strerror(e));
    }
    if (slash && (size_t)(slash - path) < sizeof dir) {
        memcpy(dir, path, (size_t)(slash - path));
        dir[slash - path] = '\0';
        if (slash != path && stat(dir, &sb) != 0)
            return store_set_err(err, KVT_E_DB_NO_FOLDER, 0, dir);
    }
    return KVT_E_OK;
}

static int pragma_int(struct store *st, const char *sql, int *out)
{
    sqlite3_stmt *s;
    int rc = sqlite3_prepare_v2(st->db, sql, -1, &s, NULL);
    if (rc != SQLITE_OK)
        return rc;
    rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
        *out = sqlite3_column_int(s, 0);
        rc = SQLITE_OK;
    }
    sqlite3_finalize(s);
    return rc;
}

/* Is this file ours, someone else's, or empty? */
static enum kvt_err identify(struct store *st, struct store_error *err)
{
    int app = 0, tables = 0, rc;

    if ((rc = pragma_int(st, "PRAGMA application_id", &app)) != SQLITE_OK ||
        (rc = pragma_int(st, "PRAGMA user_version", &st->version)) != SQLITE_OK ||
        (rc = pragma_int(st, "SELECT count(*) FROM sqlite_schema", &tables)) != SQLITE_OK)
        return store_fail(st, rc, err);
    if (app != 0 && app != KVT_APPLICATION_ID)
        return store_set_err(err, KVT_E_DB_NOT_KVTUTOR, 0, "another program's SQLite database");
    if (app == 0 && tables > 0)
        return store_set_err(err, KVT_E_DB_NOT_KVTUTOR, 0, "a SQLite database with other tables");
    /* kvtutor stamps the id and the version in the transaction that makes
     * the tables: a stamped file below version 1, or a negative version,
     * was changed by something else, and running the migrations from there
     * would fail half-way ("table learner already exists") or worse */
    if (st->version < 0 || (app == KVT_APPLICATION_ID && st->version < 1)) {
        char msg[96];
        snprintf(msg, sizeof msg, "its schema version is %d, which kvtutor never writes",
                 st->version);
        return store_set_err(err, KVT_E_DB_CORRUPT, 0, msg);
    }
    if (app == 0 && st->version != 0) {
        char msg[96];
        snprintf(msg, sizeof msg, "an empty SQLite database stamped with schema version %d",
                 st->version);
        return store_set_err(err, KVT_E_DB_NOT_KVTUTOR, 0, msg);
    }
    if (st->version > store_migration_count) {
        char msg[96];
        snprintf(msg, sizeof msg, "schema %d; this kvtutor knows up to %d", st->version,
                 store_migration_count);
        return store_set_err(err, KVT_E_DB_NEWER, 0, msg);
    }
    return KVT_E_OK;
}

/* Runs every pending migration and stamps the file, all in one
 * transaction: a crash leaves the old schema or the new, never a mix. */
static enum kvt_err migrate(struct store *st, struct store_error *err)
{
    enum kvt_err e;
    int rc;
    char stamp[96];

    if (st->version == store_migration_count)
        return KVT_E_OK;
    if (st->readonly)
        return KVT_E_OK; /* read what is there; never upgrade a file we cannot write */
    if ((e = store_begin(st, err)) != KVT_E_OK)
        return e;
    /* another kvtutor may have migrated while we waited for the lock */
    if ((e = identify(st, err)) != KVT_E_OK)
        goto fail;
    for (int i = st->version; i < store_migration_count; i++) {
        char *msg = NULL;
        rc = sqlite3_exec(st->db, store_migrations[i].sql, NULL, NULL, &msg);
        if (rc != SQLITE_OK) {
            e = store_set_err(err, store_code_for(rc), rc, msg ? msg : sqlite3_errstr(rc));
            sqlite3_free(msg);
            goto fail;
        }
    }
    snprintf(stamp, sizeof stamp, "PRAGMA application_id = %d; PRAGMA user_version = %d",
             KVT_APPLICATION_ID, store_migration_count);
    if ((rc = store_exec(st, stamp)) != SQLITE_OK) {
        e = store_fail(st, rc, err);
        goto fail;
    }
    if ((e = store_commit(st, err)) != KVT_E_OK)
        return e;
    st->version = store_migration_count;
    return KVT_E_OK;
fail:
    store_rollback(st);
    return e;
}

static const int busy_steps[] = {1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100};
#define BUSY_STEPS ((int)(sizeof busy_steps / sizeof busy_steps[0]))

/* Milliseconds slept in the first `count` steps, the last step repeated. */
static int slept_before(int count)
{
    int ms = 0;
    for (int i = 0; i < count && i < BUSY_STEPS; i++)
        ms += busy_steps[i];
    if (count > BUSY_STEPS)
        ms += (count - BUSY_STEPS) * busy_steps[BUSY_STEPS - 1];
    return ms;
}

/* SQLite's own busy wait (sqliteDefaultBusyCallback's steps, growing to 100
 * ms, STORE_BUSY_TIMEOUT_MS in all), which also says once a wait, about a
 * quarter of a second in (before the sleep that passes WAIT_SAY_MS, 228 ms
 * into it), that the database is held: an answer given while another
 * kvtutor imports would otherwise sit for seconds with no word. `count` is
 * how many times this one wait has called back already. */
static int busy_wait(void *arg, int count)
{
    struct store *st = arg;
    int slept = slept_before(count);
    int step = busy_steps[count < BUSY_STEPS ? count : BUSY_STEPS - 1];

    if (slept >= STORE_BUSY_TIMEOUT_MS)
        return 0;
    /* before the sleep that takes this wait past WAIT_SAY_MS: said once */
    if (st->on_wait && slept < WAIT_SAY_MS && slept + step >= WAIT_SAY_MS)
        st->on_wait(st->wait_ctx);
    sqlite3_sleep(step < STORE_BUSY_TIMEOUT_MS - slept ? step : STORE_BUSY_TIMEOUT_MS - slept);
    return 1;
}

void store_watch_busy(struct store *st)
{
    sqlite3_busy_handler(st->db, busy_wait, st);
}

void store_on_wait(struct store *st, void (*fn)(void *ctx), void *ctx)
{
    st->on_wait = fn;
    st->wait_ctx = ctx;
}

static enum kvt_err configure(struct store *st, struct store_error *err)
{
    int rc;

    store_watch_busy(st);
    sqlite3_extended_result_codes(st->db, 1);
    if ((rc = store_exec(st, "PRAGMA foreign_keys = ON")) != SQLITE_OK)
        return store_fail(st, rc, err);
    if (st->readonly)
        return KVT_E_OK;
    /* WAL: readers never block the writer and a crash cannot tear a commit.
     * synchronous = FULL: each recorded answer is on disk before it is
     * acknowledged, power loss included; answers come at human pace, so the
     * fsync per commit is cheap next to losing a learner's work. */
    if ((rc = store_exec(st, "PRAGMA journal_mode = WAL")) != SQLITE_OK ||
        (rc = store_exec(st, "PRAGMA synchronous = FULL")) != SQLITE_OK)
        return store_fail(st, rc, err);
    return KVT_E_OK;
}

/* A WAL database in a folder we cannot write: SQLite cannot create the
 * shared-memory file it reads through. When no WAL content is pending (the
 * last writer closed cleanly), the file alone is the whole database, and
 * SQLite may read it as immutable. */
static int reopen_immutable(struct store *st, const char *path)
{
    char wal[4200], uri[12600];
    struct stat sb;
    size_t o = 0;

    snprintf(wal, sizeof wal, "%s-wal", path);
    if (stat(wal, &sb) == 0 && sb.st_size > 0)
        return SQLITE_READONLY;
    o += (size_t)snprintf(uri, sizeof uri, "file:");
    for (const unsigned char *p = (const unsigned char *)path; *p && o + 4 < sizeof uri; p++) {
        if (*p == '%' || *p == '?' || *p == '#' || *p < 0x21 || *p > 0x7e)
            o += (size_t)snprintf(uri + o, sizeof uri - o, "%%%02X", *p);
        else
            uri[o++] = (char)*p;
    }
    snprintf(uri + o, sizeof uri - o, "?immutable=1");
    sqlite3_close(st->db);
    st->db = NULL;
    return sqlite3_open_v2(uri, &st->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
}

enum kvt_err store_open(const char *path, bool create_folder, struct store **out,
                        struct store_error *err)
{
    struct store *st;
    bool readonly;
    enum kvt_err e;
    int rc;

    *out = NULL;
    store_set_err(err, KVT_E_OK, 0, "");
    if ((e = precheck(path, create_folder, &readonly, err)) != KVT_E_OK)
        return e;
    st = calloc(1, sizeof *st);
    if (!st)
        return store_set_err(err, KVT_E_DB_IO, SQLITE_NOMEM, "out of memory");
    st->readonly = readonly;
    if (!(st->path = strdup(path))) {
        free(st);
        return store_set_err(err, KVT_E_DB_IO, SQLITE_NOMEM, "out of memory");
    }
    rc = sqlite3_open_v2(
        path, &st->db, readonly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
        NULL);
    if (rc != SQLITE_OK && !readonly && (errno == EROFS || errno == EACCES)) {
        /* a read-only mount: fall back to reading */
        sqlite3_close(st->db);
        st->db = NULL;
        st->readonly = true;
        rc = sqlite3_open_v2(path, &st->db, SQLITE_OPEN_READONLY, NULL);
    }
    if (rc == SQLITE_OK)
        e = configure(st, err);
    else
        e = store_fail(st, rc, err);
    if (e == KVT_E_OK)
        e = identify(st, err);
    /* SQLite says READONLY when the folder is not writable, CANTOPEN (an I/O
     * error here) when the whole file system is mounted read-only */
    if ((e == KVT_E_DB_READONLY || e == KVT_E_DB_IO) && st->readonly &&
        reopen_immutable(st, path) == SQLITE_OK) {
        e = configure(st, err);
        if (e == KVT_E_OK)
            e = identify(st, err);
    }
    if (e == KVT_E_OK)
        e = migrate(st, err);
    if (e != KVT_E_OK) {
        store_close(st);
        return e;
    }
    *out = st;
    return KVT_E_OK;
}

void store_close(struct store *st)
{
    if (!st)
        return;
    for (int i = 0; i < STMT__COUNT; i++)
        sqlite3_finalize(st->stmt[i]);
    sqlite3_close(st->db);
    free(st->path);
    free(st);
}

enum kvt_err store_check(struct store *st, enum store_check_depth depth, struct store_error *err)
{
    const char *sql = depth == STORE_CHECK_QUICK ? "PRAGMA quick_check" : "PRAGMA integrity_check";
    sqlite3_stmt *s;
    int rc = sqlite3_prepare_v2(st->db, sql, -1, &s, NULL);
    enum kvt_err e = KVT_E_OK;

    if (rc != SQLITE_OK)
        return store_fail(st, rc, err);
    rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
        const char *first = (const char *)sqlite3_column_text(s, 0);
        if (!first || strcmp(first, "ok") != 0)
            e = store_set_err(err, KVT_E_DB_CORRUPT, SQLITE_CORRUPT, first ? first : "damaged");
    } else {
        e = store_fail(st, rc, err);
    }
    sqlite3_finalize(s);
    return e;
}
