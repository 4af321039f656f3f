/* Statistics, export and import of the progress database. */
#include "store_report.h"
#include "store_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void copy_col(char *dst, size_t cap, sqlite3_stmt *s, int col)
{
    const unsigned char *t = sqlite3_column_text(s, col);
    snprintf(dst, cap, "%s", t ? (const char *)t : "");
}

static enum kvt_err lessons(struct store *st, int64_t learner, struct store_stats *out,
                            struct store_error *err)
{
    sqlite3_stmt *s = store_prepare(st, STMT_STATS_LESSONS, err, learner);
    size_t cap = 0;
    int rc;

    if (!s)
        return err->code;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        struct store_lesson_stats *l;
        if (out->n_lessons == cap) {
            size_t ncap = cap ? cap * 2 : 16;
            void *p = realloc(out->lessons, ncap * sizeof *out->lessons);
            if (!p) {
                sqlite3_reset(s);
                return store_fail(st, SQLITE_NOMEM, err);
            }
            out->lessons = p;
            cap = ncap;
        }
        l = &out->lessons[out->n_lessons++];
        memset(l, 0, sizeof *l);
        copy_col(l->module, sizeof l->module, s, 0);
        copy_col(l->lesson_id, sizeof l->lesson_id, s, 1);
        l->exercises = sqlite3_column_int64(s, 2);
        l->attempts = sqlite3_column_int64(s, 3);
        l->correct = sqlite3_column_int64(s, 4);
        l->seconds = sqlite3_column_double(s, 5);
        out->exercises += l->exercises;
        out->attempts += l->attempts;
        out->correct += l->correct;
        out->seconds += l->seconds;
    }
    sqlite3_reset(s);
    return rc == SQLITE_DONE ? KVT_E_OK : store_fail(st, rc, err);
}

static enum kvt_err streak(struct store *st, int64_t learner, int64_t today,
                           struct store_stats *out, struct store_error *err)
{
    sqlite3_stmt *s = store_prepare(st, STMT_STATS_DAYS, err, learner);
    int64_t expect = today;
    int rc;

    if (!s)
        return err->code;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        int64_t day = sqlite3_column_int64(s, 0);
        if (day > today)
            continue; /* answers from a clock ahead of ours */
        if (out->streak_days == 0 && day == today - 1)
            expect = today - 1; /* not yet today: yesterday's streak still stands */
        if (day != expect)
            break;
        out->streak_days++;
        expect--;
    }
    sqlite3_reset(s);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? KVT_E_OK : store_fail(st, rc, err);
}

static enum kvt_err weakest(struct store *st, int64_t learner, struct store_stats *out,
                            struct store_error *err)
{
    sqlite3_stmt *s = store_prepare(st, STMT_STATS_DIAGNOSES, err, learner, (int64_t)STORE_WEAKEST);
    int rc;

    if (!s)
        return err->code;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW && out->n_weakest < STORE_WEAKEST) {
        copy_col(out->weakest[out->n_weakest].diagnosis, sizeof out->weakest[0].diagnosis, s, 0);
        out->weakest[out->n_weakest++].count = sqlite3_column_int64(s, 1);
    }
    sqlite3_reset(s);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? KVT_E_OK : store_fail(st, rc, err);
}

enum kvt_err store_stats(struct store *st, int64_t learner_id, int64_t now, struct store_stats *out,
                         struct store_error *err)
{
    int64_t today = now / SECONDS_PER_DAY;
    enum kvt_err e;

    memset(out, 0, sizeof *out);
    if ((e = lessons(st, learner_id, out, err)) == KVT_E_OK &&
        (e = streak(st, learner_id, today, out, err)) == KVT_E_OK)
        e = weakest(st, learner_id, out, err);
    if (e != KVT_E_OK)
        store_stats_free(out);
    return e;
}

void store_stats_free(struct store_stats *s)
{
    free(s->lessons);
    s->lessons = NULL;
    s->n_lessons = 0;
}

static const char *text(sqlite3_stmt *s, int col)
{
    return (const char *)sqlite3_column_text(s, col);
}

enum kvt_err store_each_attempt(struct store *st, store_attempt_fn fn, void *ctx,
                                struct store_error *err)
{
    sqlite3_stmt *s = store_prepare(st, STMT_EXPORT_ATTEMPTS, err);
    int rc;

    if (!s)
        return err->code;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        struct store_attempt a = {
            .module = text(s, 2),
            .lesson_id = text(s, 3),
            .exercise_id = text(s, 4),
            .concept = text(s, 5),
            .answer = text(s, 6),
            .has_value = sqlite3_column_type(s, 7) != SQLITE_NULL,
            .value = sqlite3_column_double(s, 7),
            .unit = text(s, 8),
            .verdict = text(s, 9),
            .score = sqlite3_column_double(s, 10),
            .diagnosis = text(s, 11),
            .has_seed = sqlite3_column_type(s, 12) != SQLITE_NULL,
            .seed = sqlite3_column_int64(s, 12),
            .hinted = sqlite3_column_int(s, 13) != 0,
            .rating = sqlite3_column_int(s, 14),
            .seconds = sqlite3_column_double(s, 15),
            .created_at = sqlite3_column_int64(s, 16),
            .learner_id = sqlite3_column_int64(s, 17),
        };
        snprintf(a.uid, sizeof a.uid, "%s", text(s, 0));
        if (fn(ctx, text(s, 1), &a) != 0)
            break;
    }
    sqlite3_reset(s);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? KVT_E_OK : store_fail(st, rc, err);
}

enum kvt_err store_each_review(struct store *st, store_review_fn fn, void *ctx,
                               struct store_error *err)
{
    sqlite3_stmt *s = store_prepare(st, STMT_EXPORT_REVIEWS, err);
    int rc;

    if (!s)
        return err->code;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        struct store_review r = {
            .card = {.stability = sqlite3_column_double(s, 3),
                     .difficulty = sqlite3_column_double(s, 4),
                     .reps = (uint32_t)sqlite3_column_int64(s, 5),
                     .lapses = (uint32_t)sqlite3_column_int64(s, 6)},
            .last_review = sqlite3_column_int64(s, 7),
            .due_day = sqlite3_column_int64(s, 8),
        };
        r.interval = (uint32_t)(r.due_day - r.last_review / SECONDS_PER_DAY);
        if (fn(ctx, text(s, 0), text(s, 1), text(s, 2), &r, text(s, 9), text(s, 10)) != 0)
            break;
    }
    sqlite3_reset(s);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? KVT_E_OK : store_fail(st, rc, err);
}

enum kvt_err store_import_begin(struct store *st, struct store_error *err)
{
    return store_begin(st, err);
}

enum kvt_err store_import_end(struct store *st, bool commit, struct store_error *err)
{
    if (!commit) {
        store_rollback(st);
        return KVT_E_OK;
    }
    return store_commit(st, err);
}

enum kvt_err store_import_attempt(struct store *st, const char *learner,
                                  const struct store_attempt *a, bool *added,
                                  struct store_error *err)
{
    struct store_attempt copy = *a;
    enum kvt_err e = store_learner_locked(st, learner, a->created_at, &copy.learner_id, err);

    *added = false;
    if (e != KVT_E_OK)
        return e;
    /* the rating is kept as history; schedules travel separately, so it is
     * not replayed through the scheduler */
    return store_insert_attempt(st, &copy, added, err);
}

enum kvt_err store_import_review(struct store *st, const char *learner, const char *lesson_id,
                                 const char *exercise_id, const struct store_review *r,
                                 const char *content_hash, const char *answer_hash, bool *updated,
                                 struct store_error *err)
{
    int64_t id;
    enum kvt_err e = store_learner_locked(st, learner, r->last_review, &id, err);

    *updated = false;
    if (e != KVT_E_OK)
        return e;
    if ((e = store_run(st, STMT_IMPORT_REVIEW, err, id, lesson_id, exercise_id, r->card.stability,
                       r->card.difficulty, (int64_t)r->card.reps, (int64_t)r->card.lapses,
                       r->last_review, r->due_day, content_hash ? content_hash : "",
                       answer_hash ? answer_hash : "")) != KVT_E_OK)
        return e;
    *updated = sqlite3_changes(st->db) > 0;
    return KVT_E_OK;
}

enum kvt_err store_each_due(struct store *st, int64_t learner_id, int64_t now, bool due_only,
                            store_due_fn fn, void *ctx, struct store_error *err)
{
    /* the seen list binds only the learner: the day is not read */
    sqlite3_stmt *s = store_prepare(st, due_only ? STMT_DUE_LIST : STMT_SEEN_LIST, err, learner_id,
                                    now / SECONDS_PER_DAY);
    int rc;

    if (!s)
        return err->code;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW)
        if (fn(ctx, text(s, 0), text(s, 1), sqlite3_column_int64(s, 2),
               sqlite3_column_double(s, 3)) != 0)
            break;
    sqlite3_reset(s);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? KVT_E_OK : store_fail(st, rc, err);
}

enum kvt_err store_activity(struct store *st, int64_t learner_id, int64_t now, int days,
                            int64_t *answers, int64_t *right, struct store_error *err)
{
    int64_t today = now / SECONDS_PER_DAY;
    sqlite3_stmt *s =
        store_prepare(st, STMT_ACTIVITY, err, learner_id, (today - days + 1) * SECONDS_PER_DAY);
    int rc;

    for (int i = 0; i < days; i++)
        answers[i] = right[i] = 0;
    if (!s)
        return err->code;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        int64_t i = sqlite3_column_int64(s, 0) - (today - days + 1);
        if (i >= 0 && i < days) {
            answers[i] = sqlite3_column_int64(s, 1);
            right[i] = sqlite3_column_int64(s, 2);
        }
    }
    sqlite3_reset(s);
    return rc == SQLITE_DONE ? KVT_E_OK : store_fail(st, rc, err);
}

enum kvt_err store_each_concept(struct store *st, int64_t learner_id, store_concept_fn fn,
                                void *ctx, struct store_error *err)
{
    sqlite3_stmt *s = store_prepare(st, STMT_CONCEPTS, err, learner_id);
    int rc;

    if (!s)
        return err->code;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW)
        if (fn(ctx, text(s, 0), sqlite3_column_int64(s, 1), sqlite3_column_int64(s, 2)) != 0)
            break;
    sqlite3_reset(s);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? KVT_E_OK : store_fail(st, rc, err);
}

enum kvt_err store_interview(struct store *st, int64_t learner_id, const char *lesson_id,
                             int64_t started_at, double seconds, int answered, double score,
                             const char *review, struct store_error *err)
{
    return store_write_one(st, STMT_INTERVIEW_ADD, err, learner_id, lesson_id, started_at, seconds,
                           (int64_t)answered, score, review ? review : "");
}

enum kvt_err store_probe_add(struct store *st, const struct store_probe_run *run,
                             struct store_error *err)
{
    return store_write_one(
        st, STMT_PROBE_ADD, err, run->learner_id, run->started_at,
        run->seconds > 0 ? run->seconds : 0, run->probe, run->outcome,
        run->message ? run->message : "", run->device ? run->device : "",
        run->device_json ? run->device_json : "{}", run->results_json ? run->results_json : "[]",
        run->has_read ? &run->read_gbps : NULL, run->has_peak ? &run->peak_gbps : NULL,
        run->has_free ? &run->free_bytes : NULL);
}

enum kvt_err store_probe_last(struct store *st, int64_t learner_id, const char *probe,
                              struct store_probe_last *out, struct store_error *err)
{
    sqlite3_stmt *s = store_prepare(st, STMT_PROBE_LAST, err, learner_id, probe);
    int rc;

    if (!s)
        return err->code;
    memset(out, 0, sizeof *out);
    rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
        snprintf(out->probe, sizeof out->probe, "%s", text(s, 0));
        out->started_at = sqlite3_column_int64(s, 1);
        snprintf(out->device, sizeof out->device, "%s", text(s, 2));
        out->read_gbps = sqlite3_column_double(s, 3);
        out->has_peak = sqlite3_column_type(s, 4) != SQLITE_NULL;
        out->peak_gbps = sqlite3_column_double(s, 4);
        out->has_free = sqlite3_column_type(s, 5) != SQLITE_NULL;
        out->free_bytes = sqlite3_column_int64(s, 5);
    }
    sqlite3_reset(s);
    if (rc == SQLITE_ROW)
        return KVT_E_OK;
    if (rc == SQLITE_DONE) {
        err->code = KVT_E_DB_NOT_FOUND;
        snprintf(err->detail, sizeof err->detail, "no probe run yet");
        return KVT_E_DB_NOT_FOUND;
    }
    return store_fail(st, rc, err);
}
