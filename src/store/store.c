/* Opening, migrating and writing the progress database. */
#define _POSIX_C_SOURCE 200809L
#include "store_private.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store_migrations.h"

/* "kvtu" in ASCII: marks the file as ours for file(1) and for this check. */
#define KVT_APPLICATION_ID 0x6b767475
#define BUSY_TIMEOUT_MS    10000
#define SECONDS_PER_DAY    86400

static enum kvt_err set_err(struct store_error *err, enum kvt_err code, int sqlite_code,
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

static enum kvt_err code_for(int rc)
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
        return set_err(err, KVT_E_DB_FULL, rc, msg);
    return set_err(err, code_for(rc), rc, msg);
}

sqlite3_stmt *store_stmt(struct store *st, enum store_stmt id, struct store_error *err)
{
    if (!st->stmt[id]) {
        int rc = sqlite3_prepare_v3(st->db, store_sql[id], -1, SQLITE_PREPARE_PERSISTENT,
                                    &st->stmt[id], NULL);
        if (rc != SQLITE_OK) {
            store_fail(st, rc, err);
            return NULL;
        }
    }
    sqlite3_reset(st->stmt[id]);
    sqlite3_clear_bindings(st->stmt[id]);
    return st->stmt[id];
}

int store_bind_text(sqlite3_stmt *s, int i, const char *text)
{
    return text ? sqlite3_bind_text(s, i, text, -1, SQLITE_TRANSIENT) : sqlite3_bind_null(s, i);
}

static int exec(struct store *st, const char *sql)
{
    return sqlite3_exec(st->db, sql, NULL, NULL, NULL);
}

enum kvt_err store_begin(struct store *st, struct store_error *err)
{
    int rc;
    if (st->readonly)
        return set_err(err, KVT_E_DB_READONLY, SQLITE_READONLY,
                       "opened read-only: the file or its folder cannot be written");
    rc = exec(st, "BEGIN IMMEDIATE");
    return rc == SQLITE_OK ? KVT_E_OK : store_fail(st, rc, err);
}

enum kvt_err store_commit(struct store *st, struct store_error *err)
{
    int rc = exec(st, "COMMIT");
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
        exec(st, "ROLLBACK");
}

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
            return set_err(err, KVT_E_DB_IS_DIR, 0, path);
        if (access(path, W_OK) != 0)
            *readonly = true;
        return KVT_E_OK;
    }
    if (errno != ENOENT)
        return set_err(err, KVT_E_DB_IO, 0, strerror(errno));
    if (create_folder) {
        int e = make_parents(path);
        if (e)
            return set_err(err, e == EROFS || e == EACCES ? KVT_E_DB_READONLY : KVT_E_DB_IO, 0,
                           strerror(e));
    }
    if (slash && (size_t)(slash - path) < sizeof dir) {
        memcpy(dir, path, (size_t)(slash - path));
        dir[slash - path] = '\0';
        if (slash != path && stat(dir, &sb) != 0)
            return set_err(err, KVT_E_DB_NO_FOLDER, 0, dir);
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
        return set_err(err, KVT_E_DB_NOT_KVTUTOR, 0, "another program's SQLite database");
    if (app == 0 && tables > 0)
        return set_err(err, KVT_E_DB_NOT_KVTUTOR, 0, "a SQLite database with other tables");
    if (st->version > store_migration_count) {
        char msg[96];
        snprintf(msg, sizeof msg, "schema %d; this kvtutor knows up to %d", st->version,
                 store_migration_count);
        return set_err(err, KVT_E_DB_NEWER, 0, msg);
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
    if ((e = identify(st, err)) != KVT_E_OK) {
        store_rollback(st);
        return e;
    }
    for (int i = st->version; i < store_migration_count; i++) {
        char *msg = NULL;
        rc = sqlite3_exec(st->db, store_migrations[i].sql, NULL, NULL, &msg);
        if (rc != SQLITE_OK) {
            set_err(err, code_for(rc), rc, msg ? msg : sqlite3_errstr(rc));
            sqlite3_free(msg);
            store_rollback(st);
            return err ? err->code : code_for(rc);
        }
    }
    snprintf(stamp, sizeof stamp, "PRAGMA application_id = %d; PRAGMA user_version = %d",
             KVT_APPLICATION_ID, store_migration_count);
    if ((rc = exec(st, stamp)) != SQLITE_OK) {
        e = store_fail(st, rc, err);
        store_rollback(st);
        return e;
    }
    if ((e = store_commit(st, err)) != KVT_E_OK)
        return e;
    st->version = store_migration_count;
    return KVT_E_OK;
}

static enum kvt_err configure(struct store *st, struct store_error *err)
{
    int rc;

    sqlite3_busy_timeout(st->db, BUSY_TIMEOUT_MS);
    sqlite3_extended_result_codes(st->db, 1);
    if ((rc = exec(st, "PRAGMA foreign_keys = ON")) != SQLITE_OK)
        return store_fail(st, rc, err);
    if (st->readonly)
        return KVT_E_OK;
    /* WAL: readers never block the writer and a crash cannot tear a commit.
     * synchronous = FULL: each recorded answer is on disk before it is
     * acknowledged, power loss included; answers come at human pace, so the
     * fsync per commit is cheap next to losing a learner's work. */
    if ((rc = exec(st, "PRAGMA journal_mode = WAL")) != SQLITE_OK ||
        (rc = exec(st, "PRAGMA synchronous = FULL")) != SQLITE_OK)
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
    set_err(err, KVT_E_OK, 0, "");
    if ((e = precheck(path, create_folder, &readonly, err)) != KVT_E_OK)
        return e;
    st = calloc(1, sizeof *st);
    if (!st)
        return set_err(err, KVT_E_DB_IO, SQLITE_NOMEM, "out of memory");
    st->readonly = readonly;
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
    free(st);
}

enum kvt_err store_check(struct store *st, struct store_error *err)
{
    sqlite3_stmt *s;
    int rc = sqlite3_prepare_v2(st->db, "PRAGMA integrity_check", -1, &s, NULL);
    enum kvt_err e = KVT_E_OK;

    if (rc != SQLITE_OK)
        return store_fail(st, rc, err);
    rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
        const char *first = (const char *)sqlite3_column_text(s, 0);
        if (!first || strcmp(first, "ok") != 0)
            e = set_err(err, KVT_E_DB_CORRUPT, SQLITE_CORRUPT, first ? first : "damaged");
    } else {
        e = store_fail(st, rc, err);
    }
    sqlite3_finalize(s);
    return e;
}

enum kvt_err store_new_uid(char uid[33])
{
    static const char hex[] = "0123456789abcdef";
    unsigned char raw[16];
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    ssize_t n = fd >= 0 ? read(fd, raw, sizeof raw) : -1;

    if (fd >= 0)
        close(fd);
    if (n != (ssize_t)sizeof raw)
        return KVT_E_IO;
    for (int i = 0; i < 16; i++) {
        uid[2 * i] = hex[raw[i] >> 4];
        uid[2 * i + 1] = hex[raw[i] & 15];
    }
    uid[32] = '\0';
    return KVT_E_OK;
}

/* The learner's id when the name is known: *found says whether it was. */
static enum kvt_err learner_find(struct store *st, const char *name, int64_t *id, bool *found,
                                 struct store_error *err)
{
    sqlite3_stmt *s = store_stmt(st, STMT_LEARNER_GET, err);
    int rc;

    if (!s)
        return err->code;
    store_bind_text(s, 1, name);
    rc = sqlite3_step(s);
    if (rc == SQLITE_ROW)
        *id = sqlite3_column_int64(s, 0);
    sqlite3_reset(s);
    *found = rc == SQLITE_ROW;
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? KVT_E_OK : store_fail(st, rc, err);
}

enum kvt_err store_learner_locked(struct store *st, const char *name, int64_t now, int64_t *id,
                                  struct store_error *err)
{
    sqlite3_stmt *s;
    bool found;
    int rc;

    if (learner_find(st, name, id, &found, err) != KVT_E_OK)
        return err->code;
    if (found)
        return KVT_E_OK;
    if (!(s = store_stmt(st, STMT_LEARNER_ADD, err)))
        return err->code;
    store_bind_text(s, 1, name);
    sqlite3_bind_int64(s, 2, now);
    rc = sqlite3_step(s);
    sqlite3_reset(s);
    if (rc != SQLITE_DONE)
        return store_fail(st, rc, err);
    *id = sqlite3_last_insert_rowid(st->db);
    return KVT_E_OK;
}

enum kvt_err store_learner(struct store *st, const char *name, int64_t now, int64_t *id,
                           struct store_error *err)
{
    enum kvt_err e;
    bool found;

    /* the common case, and the only one a read-only database allows: a read */
    if (learner_find(st, name, id, &found, err) != KVT_E_OK)
        return err->code;
    if (found)
        return KVT_E_OK;
    if ((e = store_begin(st, err)) != KVT_E_OK)
        return e;
    if ((e = store_learner_locked(st, name, now, id, err)) != KVT_E_OK) {
        store_rollback(st);
        return e;
    }
    return store_commit(st, err);
}

/* Runs a bound one-row lookup: when a row comes back, *found, its first
 * column (text) copied into buf and, when flag is not NULL, its second
 * column as a boolean. The statement is reset either way. */
static enum kvt_err lookup_row(struct store *st, sqlite3_stmt *s, char *buf, size_t cap,
                               bool *found, bool *flag, struct store_error *err)
{
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
        const char *text = (const char *)sqlite3_column_text(s, 0);
        *found = true;
        snprintf(buf, cap, "%s", text ? text : "");
        if (flag)
            *flag = sqlite3_column_int(s, 1) != 0;
    }
    sqlite3_reset(s);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? KVT_E_OK : store_fail(st, rc, err);
}

enum kvt_err store_setting_get(struct store *st, const char *key, char *buf, size_t cap,
                               bool *found, struct store_error *err)
{
    sqlite3_stmt *s = store_stmt(st, STMT_SETTING_GET, err);

    *found = false;
    if (cap)
        buf[0] = '\0';
    if (!s)
        return err->code;
    store_bind_text(s, 1, key);
    return lookup_row(st, s, buf, cap, found, NULL, err);
}

/* One write statement in a transaction of its own: see store_private.h. */
sqlite3_stmt *store_begin_stmt(struct store *st, enum store_stmt id, struct store_error *err)
{
    sqlite3_stmt *s;
    if (store_begin(st, err) != KVT_E_OK)
        return NULL;
    if (!(s = store_stmt(st, id, err)))
        store_rollback(st);
    return s;
}

enum kvt_err store_write_one(struct store *st, sqlite3_stmt *s, struct store_error *err)
{
    int rc = sqlite3_step(s);
    sqlite3_reset(s);
    if (rc != SQLITE_DONE) {
        enum kvt_err e = store_fail(st, rc, err);
        store_rollback(st);
        return e;
    }
    return store_commit(st, err);
}

enum kvt_err store_setting_set(struct store *st, const char *key, const char *value,
                               struct store_error *err)
{
    sqlite3_stmt *s = store_begin_stmt(st, STMT_SETTING_SET, err);

    if (!s)
        return err->code;
    store_bind_text(s, 1, key);
    store_bind_text(s, 2, value);
    return store_write_one(st, s, err);
}

static int64_t day_of(int64_t unix_seconds)
{
    /* floor division: days before 1970 stay ordered */
    return unix_seconds >= 0 ? unix_seconds / SECONDS_PER_DAY
                             : -((-unix_seconds + SECONDS_PER_DAY - 1) / SECONDS_PER_DAY);
}

/* Reads one review row; SQLITE_DONE when there is none. */
static int read_review(struct store *st, int64_t learner, const char *lesson, const char *exercise,
                       struct store_review *r, char hashes[2][80], struct store_error *err)
{
    sqlite3_stmt *s = store_stmt(st, STMT_REVIEW_GET, err);
    int rc;

    if (!s)
        return SQLITE_ERROR;
    sqlite3_bind_int64(s, 1, learner);
    store_bind_text(s, 2, lesson);
    store_bind_text(s, 3, exercise);
    rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
        r->card.stability = sqlite3_column_double(s, 0);
        r->card.difficulty = sqlite3_column_double(s, 1);
        r->card.reps = (uint32_t)sqlite3_column_int64(s, 2);
        r->card.lapses = (uint32_t)sqlite3_column_int64(s, 3);
        r->last_review = sqlite3_column_int64(s, 4);
        r->due_day = sqlite3_column_int64(s, 5);
        r->interval = (uint32_t)(r->due_day - day_of(r->last_review));
        if (hashes) {
            snprintf(hashes[0], 80, "%s", (const char *)sqlite3_column_text(s, 6));
            snprintf(hashes[1], 80, "%s", (const char *)sqlite3_column_text(s, 7));
        }
    }
    sqlite3_reset(s);
    return rc;
}

enum kvt_err store_review_get(struct store *st, int64_t learner_id, const char *lesson_id,
                              const char *exercise_id, struct store_review *out,
                              struct store_error *err)
{
    int rc = read_review(st, learner_id, lesson_id, exercise_id, out, NULL, err);
    if (rc == SQLITE_ROW)
        return KVT_E_OK;
    if (rc == SQLITE_DONE)
        return set_err(err, KVT_E_DB_NOT_FOUND, 0, "never reviewed");
    return err->code != KVT_E_OK ? err->code : store_fail(st, rc, err);
}

static bool valid_attempt(const struct store_attempt *a)
{
    return a->lesson_id && a->exercise_id && a->answer && a->verdict && a->rating >= 0 &&
           a->rating <= 4 && a->score >= 0 && a->score <= 1 && a->seconds >= 0 &&
           strlen(a->uid) == 32;
}

static enum kvt_err put_review(struct store *st, const struct store_attempt *a,
                               const struct store_review *r, struct store_error *err)
{
    sqlite3_stmt *s = store_stmt(st, STMT_REVIEW_PUT, err);
    int rc;

    if (!s)
        return err->code;
    sqlite3_bind_int64(s, 1, a->learner_id);
    store_bind_text(s, 2, a->lesson_id);
    store_bind_text(s, 3, a->exercise_id);
    sqlite3_bind_double(s, 4, r->card.stability);
    sqlite3_bind_double(s, 5, r->card.difficulty);
    sqlite3_bind_int64(s, 6, r->card.reps);
    sqlite3_bind_int64(s, 7, r->card.lapses);
    sqlite3_bind_int64(s, 8, r->last_review);
    sqlite3_bind_int64(s, 9, r->due_day);
    rc = sqlite3_step(s);
    sqlite3_reset(s);
    return rc == SQLITE_DONE ? KVT_E_OK : store_fail(st, rc, err);
}

static enum kvt_err insert_attempt(struct store *st, const struct store_attempt *a,
                                   struct store_error *err)
{
    sqlite3_stmt *s = store_stmt(st, STMT_ATTEMPT_ADD, err);
    int rc;

    if (!s)
        return err->code;
    store_bind_text(s, 1, a->uid);
    sqlite3_bind_int64(s, 2, a->learner_id);
    store_bind_text(s, 3, a->module ? a->module : "");
    store_bind_text(s, 4, a->lesson_id);
    store_bind_text(s, 5, a->exercise_id);
    store_bind_text(s, 6, a->concept ? a->concept : "");
    store_bind_text(s, 7, a->answer);
    if (a->has_value)
        sqlite3_bind_double(s, 8, a->value);
    store_bind_text(s, 9, a->unit);
    store_bind_text(s, 10, a->verdict);
    sqlite3_bind_double(s, 11, a->score);
    store_bind_text(s, 12, a->diagnosis);
    if (a->has_seed)
        sqlite3_bind_int64(s, 13, a->seed);
    sqlite3_bind_int(s, 14, a->hinted);
    if (a->rating > 0)
        sqlite3_bind_int(s, 15, a->rating);
    sqlite3_bind_double(s, 16, a->seconds);
    sqlite3_bind_int64(s, 17, a->created_at);
    rc = sqlite3_step(s);
    sqlite3_reset(s);
    return rc == SQLITE_DONE ? KVT_E_OK : store_fail(st, rc, err);
}

enum kvt_err store_insert_attempt(struct store *st, const struct store_attempt *a, bool *added,
                                  struct store_error *err)
{
    sqlite3_stmt *s = store_stmt(st, STMT_ATTEMPT_EXISTS, err);
    int rc;

    *added = false;
    if (!s)
        return err->code;
    if (!valid_attempt(a))
        return set_err(err, KVT_E_RANGE, 0, "incomplete attempt");
    store_bind_text(s, 1, a->uid);
    rc = sqlite3_step(s);
    sqlite3_reset(s);
    if (rc == SQLITE_ROW)
        return KVT_E_OK; /* already recorded: an import, or a retry after a crash */
    if (rc != SQLITE_DONE)
        return store_fail(st, rc, err);
    *added = true;
    return insert_attempt(st, a, err);
}

/* Inside a transaction: one review of an exercise at `when`, through FSRS,
 * written back as its schedule. */
static enum kvt_err schedule(struct store *st, int64_t learner, const char *lesson,
                             const char *exercise, int64_t when, int rating,
                             const struct fsrs_params *p, struct store_review *r,
                             struct store_error *err)
{
    struct store_attempt key = {
        .learner_id = learner, .lesson_id = lesson, .exercise_id = exercise};
    struct fsrs_review rev;
    double elapsed = 0;
    int rc = read_review(st, learner, lesson, exercise, r, NULL, err);

    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return store_fail(st, rc, err);
    if (rc == SQLITE_DONE)
        *r = (struct store_review){0};
    else
        elapsed = (double)(day_of(when) - day_of(r->last_review));
    if (elapsed < 0)
        elapsed = 0; /* a clock set back: treat as the same day */
    if (fsrs_apply(p, &r->card, elapsed, (enum fsrs_rating)rating, &rev) != KVT_E_OK)
        return set_err(err, KVT_E_RANGE, 0, "the review cannot be scheduled");
    r->last_review = when;
    r->interval = rev.interval;
    r->due_day = day_of(when) + rev.interval;
    return put_review(st, &key, r, err);
}

enum kvt_err store_rate_attempt(struct store *st, const char *uid, int rating,
                                const struct fsrs_params *p, struct store_review *review,
                                struct store_error *err)
{
    struct fsrs_params defaults;
    struct store_review r = {0};
    sqlite3_stmt *s;
    char lesson[256], exercise[256];
    int64_t learner, when;
    enum kvt_err e;
    int rc;

    if (!p) {
        fsrs_default_params(&defaults);
        p = &defaults;
    }
    if (rating < 1 || rating > 4)
        return set_err(err, KVT_E_RANGE, 0, "a rating is 1 (Again) to 4 (Easy)");
    if ((e = store_begin(st, err)) != KVT_E_OK)
        return e;
    if (!(s = store_stmt(st, STMT_ATTEMPT_GET, err))) {
        store_rollback(st);
        return err->code;
    }
    store_bind_text(s, 1, uid);
    rc = sqlite3_step(s);
    if (rc != SQLITE_ROW) {
        sqlite3_reset(s);
        store_rollback(st);
        return rc == SQLITE_DONE ? set_err(err, KVT_E_DB_NOT_FOUND, 0, "no such attempt")
                                 : store_fail(st, rc, err);
    }
    learner = sqlite3_column_int64(s, 0);
    snprintf(lesson, sizeof lesson, "%s", (const char *)sqlite3_column_text(s, 1));
    snprintf(exercise, sizeof exercise, "%s", (const char *)sqlite3_column_text(s, 2));
    when = sqlite3_column_int64(s, 3);
    if (sqlite3_column_type(s, 4) != SQLITE_NULL) {
        sqlite3_reset(s);
        store_rollback(st);
        return set_err(err, KVT_E_CONFLICT, 0, "the attempt is already rated");
    }
    sqlite3_reset(s);
    if (!(s = store_stmt(st, STMT_ATTEMPT_RATE, err))) {
        store_rollback(st);
        return err->code;
    }
    store_bind_text(s, 1, uid);
    sqlite3_bind_int(s, 2, rating);
    rc = sqlite3_step(s);
    sqlite3_reset(s);
    if (rc != SQLITE_DONE) {
        e = store_fail(st, rc, err);
        store_rollback(st);
        return e;
    }
    if ((e = schedule(st, learner, lesson, exercise, when, rating, p, &r, err)) != KVT_E_OK) {
        store_rollback(st);
        return e;
    }
    if ((e = store_commit(st, err)) != KVT_E_OK)
        return e;
    if (review)
        *review = r;
    return KVT_E_OK;
}

static enum kvt_err lesson_write(struct store *st, enum store_stmt id, int64_t learner,
                                 const char *lesson, const char *position, int64_t now,
                                 struct store_error *err)
{
    sqlite3_stmt *s = store_begin_stmt(st, id, err);

    if (!s)
        return err->code;
    sqlite3_bind_int64(s, 1, learner);
    store_bind_text(s, 2, lesson);
    sqlite3_bind_int64(s, 3, now);
    if (id == STMT_LESSON_SEEN)
        store_bind_text(s, 4, position ? position : "");
    return store_write_one(st, s, err);
}

enum kvt_err store_lesson_seen(struct store *st, int64_t learner_id, const char *lesson_id,
                               const char *position, int64_t now, struct store_error *err)
{
    return lesson_write(st, STMT_LESSON_SEEN, learner_id, lesson_id, position, now, err);
}

enum kvt_err store_lesson_done(struct store *st, int64_t learner_id, const char *lesson_id,
                               int64_t now, struct store_error *err)
{
    return lesson_write(st, STMT_LESSON_DONE, learner_id, lesson_id, NULL, now, err);
}

enum kvt_err store_lesson_get(struct store *st, int64_t learner_id, const char *lesson_id,
                              char *position, size_t cap, bool *done, bool *found,
                              struct store_error *err)
{
    sqlite3_stmt *s = store_stmt(st, STMT_LESSON_GET, err);

    *found = *done = false;
    if (cap)
        position[0] = '\0';
    if (!s)
        return err->code;
    sqlite3_bind_int64(s, 1, learner_id);
    store_bind_text(s, 2, lesson_id);
    return lookup_row(st, s, position, cap, found, done, err);
}

enum kvt_err store_lesson_last(struct store *st, int64_t learner_id, char *lesson_id, size_t cap,
                               bool *found, struct store_error *err)
{
    sqlite3_stmt *s = store_stmt(st, STMT_LESSON_LAST, err);

    *found = false;
    if (cap)
        lesson_id[0] = '\0';
    if (!s)
        return err->code;
    sqlite3_bind_int64(s, 1, learner_id);
    return lookup_row(st, s, lesson_id, cap, found, NULL, err);
}

enum kvt_err store_record_attempt(struct store *st, const struct store_attempt *a,
                                  const struct fsrs_params *p, struct store_review *review,
                                  struct store_error *err)
{
    struct store_review r = {0};
    struct fsrs_params defaults;
    enum kvt_err e;
    bool added;

    if (!p) {
        fsrs_default_params(&defaults);
        p = &defaults;
    }
    if (!valid_attempt(a))
        return set_err(err, KVT_E_RANGE, 0, "incomplete attempt");
    if ((e = store_begin(st, err)) != KVT_E_OK)
        return e;
    if ((e = store_insert_attempt(st, a, &added, err)) != KVT_E_OK)
        goto fail;
    if (!added) {
        store_rollback(st);
        return KVT_E_OK;
    }
    if (a->rating > 0 && (e = schedule(st, a->learner_id, a->lesson_id, a->exercise_id,
                                       a->created_at, a->rating, p, &r, err)) != KVT_E_OK)
        goto fail;
    if ((e = store_commit(st, err)) != KVT_E_OK)
        return e;
    if (review)
        *review = r;
    return KVT_E_OK;
fail:
    store_rollback(st);
    return e;
}

enum kvt_err store_sync_exercise(struct store *st, int64_t learner_id, const char *lesson_id,
                                 const char *exercise_id, const char *content_hash,
                                 const char *answer_hash, enum store_sync *out,
                                 struct store_error *err)
{
    struct store_review r;
    char hashes[2][80];
    sqlite3_stmt *s;
    enum kvt_err e;
    int rc;

    if ((e = store_begin(st, err)) != KVT_E_OK)
        return e;
    rc = read_review(st, learner_id, lesson_id, exercise_id, &r, hashes, err);
    if (rc == SQLITE_DONE) {
        *out = STORE_SYNC_NEW;
        store_rollback(st);
        return KVT_E_OK;
    }
    if (rc != SQLITE_ROW) {
        e = store_fail(st, rc, err);
        store_rollback(st);
        return e;
    }
    /* A schedule recorded before fingerprints were known adopts the current ones. */
    if (hashes[1][0] != '\0' && strcmp(hashes[1], answer_hash) != 0)
        *out = STORE_SYNC_RESTARTED;
    else if (hashes[0][0] != '\0' && strcmp(hashes[0], content_hash) != 0)
        *out = STORE_SYNC_WORDING;
    else
        *out = STORE_SYNC_SAME;
    if (*out == STORE_SYNC_SAME && hashes[0][0] != '\0') {
        store_rollback(st);
        return KVT_E_OK;
    }
    s = store_stmt(st, *out == STORE_SYNC_RESTARTED ? STMT_REVIEW_DELETE_ONE : STMT_REVIEW_HASHES,
                   err);
    if (!s) {
        store_rollback(st);
        return err->code;
    }
    sqlite3_bind_int64(s, 1, learner_id);
    store_bind_text(s, 2, lesson_id);
    store_bind_text(s, 3, exercise_id);
    if (*out != STORE_SYNC_RESTARTED) {
        store_bind_text(s, 4, content_hash);
        store_bind_text(s, 5, answer_hash);
    }
    return store_write_one(st, s, err);
}

enum kvt_err store_reset_lesson(struct store *st, int64_t learner_id, const char *lesson_id,
                                int64_t *removed, struct store_error *err)
{
    static const enum store_stmt steps[] = {STMT_RESET_ATTEMPTS, STMT_RESET_REVIEWS,
                                            STMT_RESET_PROGRESS};
    enum kvt_err e = store_begin(st, err);

    if (e != KVT_E_OK)
        return e;
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        sqlite3_stmt *s = store_stmt(st, steps[i], err);
        int rc;
        if (!s) {
            store_rollback(st);
            return err->code;
        }
        sqlite3_bind_int64(s, 1, learner_id);
        store_bind_text(s, 2, lesson_id);
        rc = sqlite3_step(s);
        sqlite3_reset(s);
        if (rc != SQLITE_DONE) {
            e = store_fail(st, rc, err);
            store_rollback(st);
            return e;
        }
        if (i == 0)
            *removed = sqlite3_changes64(st->db);
    }
    return store_commit(st, err);
}

static const struct {
    const char *key, *fallback;
} known_settings[] = {{"learner", "default"}, {"desired_retention", "0.9"}, {"new_per_day", "20"}};

const char *store_setting_fallback(const char *key)
{
    for (size_t i = 0; i < sizeof known_settings / sizeof known_settings[0]; i++)
        if (strcmp(known_settings[i].key, key) == 0)
            return known_settings[i].fallback;
    return NULL;
}

const char *store_setting_check(const char *key, const char *value)
{
    char *end;
    double v;

    if (!store_setting_fallback(key))
        return "unknown setting (learner, desired_retention, new_per_day)";
    if (strcmp(key, "learner") == 0) {
        size_t n = strlen(value);
        if (n == 0 || n > 64)
            return "a name of 1 to 64 characters";
        for (const unsigned char *p = (const unsigned char *)value; *p; p++)
            if (*p < 0x20 || *p == 0x7f)
                return "no control characters in a name";
        return NULL;
    }
    /* plain decimals only: strtod would also take "nan", "inf" and hex */
    if (!*value || strspn(value, "0123456789.") != strlen(value))
        return strcmp(key, "new_per_day") == 0 ? "a whole number from 0 to 500"
                                               : "a number from 0.7 to 0.97";
    v = strtod(value, &end);
    if (strcmp(key, "new_per_day") == 0)
        return strchr(value, '.') || v > 500 ? "a whole number from 0 to 500" : NULL;
    return v >= 0.7 && v <= 0.97 ? NULL : "a number from 0.7 to 0.97";
}
