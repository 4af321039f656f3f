/* Lesson briefs and the schedules' fingerprints: see store_brief.h. The
 * statements are prepared per call (a few a start), which keeps them out of
 * the shared statement table. */
#include "store_brief.h"

#include "store_private.h"

static const char *text(sqlite3_stmt *s, int col)
{
    const unsigned char *t = sqlite3_column_text(s, col);
    return t ? (const char *)t : "";
}

static enum kvt_err prepare(struct store *st, const char *sql, sqlite3_stmt **s,
                            struct store_error *err)
{
    int rc = sqlite3_prepare_v2(st->db, sql, -1, s, NULL);
    return rc == SQLITE_OK ? KVT_E_OK : store_fail(st, rc, err);
}

enum kvt_err store_brief_each(struct store *st, store_brief_fn *fn, void *ctx,
                              struct store_error *err)
{
    sqlite3_stmt *s;
    enum kvt_err e = prepare(
        st, "SELECT path, content_hash, engine, brief, fingerprints, file_stamp FROM lesson_brief",
        &s, err);
    int rc;

    if (e != KVT_E_OK)
        return e;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        struct store_brief_row r = {text(s, 0), text(s, 1), text(s, 2),
                                    text(s, 3), text(s, 4), text(s, 5)};
        if (fn(ctx, &r) != 0)
            break;
    }
    e = rc == SQLITE_DONE || rc == SQLITE_ROW ? KVT_E_OK : store_fail(st, rc, err);
    sqlite3_finalize(s);
    return e;
}

enum kvt_err store_brief_put(struct store *st, const struct store_brief_row *rows, size_t n,
                             struct store_error *err)
{
    sqlite3_stmt *s = NULL;
    enum kvt_err e;

    if (n == 0 || store_readonly(st))
        return KVT_E_OK;
    if ((e = store_begin(st, err)) != KVT_E_OK)
        return e;
    if ((e = prepare(st,
                     "INSERT OR REPLACE INTO lesson_brief (path, content_hash, engine, brief, "
                     "fingerprints, file_stamp) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                     &s, err)) != KVT_E_OK)
        goto fail;
    for (size_t i = 0; i < n; i++) {
        const char *v[] = {rows[i].path,         rows[i].content_hash,
                           rows[i].engine,       rows[i].brief,
                           rows[i].fingerprints, rows[i].file_stamp ? rows[i].file_stamp : ""};
        int rc = SQLITE_OK;
        sqlite3_reset(s);
        for (int k = 0; k < 6 && rc == SQLITE_OK; k++)
            rc = sqlite3_bind_text(s, k + 1, v[k], -1, SQLITE_STATIC);
        if (rc == SQLITE_OK)
            rc = sqlite3_step(s);
        if (rc != SQLITE_DONE) {
            e = store_fail(st, rc, err);
            goto fail;
        }
    }
    sqlite3_finalize(s);
    return store_commit(st, err);
fail:
    sqlite3_finalize(s);
    store_rollback(st);
    return e;
}

enum kvt_err store_each_fingerprint(struct store *st, int64_t learner_id, store_fingerprint_fn *fn,
                                    void *ctx, struct store_error *err)
{
    sqlite3_stmt *s;
    enum kvt_err e = prepare(st,
                             "SELECT lesson_id, exercise_id, content_hash, answer_hash FROM "
                             "review_state WHERE learner_id = ?1",
                             &s, err);
    int rc;

    if (e != KVT_E_OK)
        return e;
    sqlite3_bind_int64(s, 1, learner_id);
    while ((rc = sqlite3_step(s)) == SQLITE_ROW)
        if (fn(ctx, text(s, 0), text(s, 1), text(s, 2), text(s, 3)) != 0)
            break;
    e = rc == SQLITE_DONE || rc == SQLITE_ROW ? KVT_E_OK : store_fail(st, rc, err);
    sqlite3_finalize(s);
    return e;
}
