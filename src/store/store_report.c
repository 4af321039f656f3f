/* Statistics, export and import of the progress database. */
#include "store_report.h"
#include "store_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SECONDS_PER_DAY 86400

static void copy_col(char *dst, size_t cap, sqlite3_stmt *s, int col)
{
    const unsigned char *t = sqlite3_column_text(s, col);
    snprintf(dst, cap, "%s", t ? (const char *)t : "");
}

static enum kvt_err lessons(struct store *st, int64_t learner, struct store_stats *out,
                            struct store_error *err)
{
    sqlite3_stmt *s = store_stmt(st, STMT_STATS_LESSONS, err);
    size_t cap = 0;
    int rc;

    if (!s)
        return err->code;
    sqlite3_bind_int64(s, 1, learner);
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

static enum kvt_err due(struct store *st, int64_t learner, int64_t today, struct store_stats *out,
                        struct store_error *err)
{
    sqlite3_stmt *s = store_stmt(st, STMT_STATS_DUE, err);
    int rc;

    if (!s)
        return err->code;
    sqlite3_bind_int64(s, 1, learner);
    sqlite3_bind_int64(s, 2, today);
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        const char *lesson = (const char *)sqlite3_column_text(s, 0);
        int64_t now = sqlite3_column_int64(s, 1), week = sqlite3_column_int64(s, 2);
        out->due_now += now;
        out->due_week += week;
        for (size_t i = 0; i < out->n_lessons; i++) {
            if (lesson && strcmp(out->lessons[i].lesson_id, lesson) == 0) {
                out->lessons[i].due_now += now;
                out->lessons[i].due_week += week;
                break;
            }
        }
    }
    sqlite3_reset(s);
    return rc == SQLITE_DONE ? KVT_E_OK : store_fail(st, rc, err);
}

static enum kvt_err streak(struct store *st, int64_t learner, int64_t today,
                           struct store_stats *out, struct store_error *err)
{
    sqlite3_stmt *s = store_stmt(st, STMT_STATS_DAYS, err);
    int64_t expect = today;
    int rc;

    if (!s)
        return err->code;
    sqlite3_bind_int64(s, 1, learner);
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
    sqlite3_stmt *s = store_stmt(st, STMT_STATS_DIAGNOSES, err);
    int rc;

    if (!s)
        return err->code;
    sqlite3_bind_int64(s, 1, learner);
    sqlite3_bind_int(s, 2, STORE_WEAKEST);
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
        (e = due(st, learner_id, today, out, err)) == KVT_E_OK &&
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
    sqlite3_stmt *s = store_stmt(st, STMT_EXPORT_ATTEMPTS, err);
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
    sqlite3_stmt *s = store_stmt(st, STMT_EXPORT_REVIEWS, err);
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
    sqlite3_stmt *s;
    int rc;

    *updated = false;
    if (e != KVT_E_OK)
        return e;
    if (!(s = store_stmt(st, STMT_IMPORT_REVIEW, err)))
        return err->code;
    sqlite3_bind_int64(s, 1, id);
    store_bind_text(s, 2, lesson_id);
    store_bind_text(s, 3, exercise_id);
    sqlite3_bind_double(s, 4, r->card.stability);
    sqlite3_bind_double(s, 5, r->card.difficulty);
    sqlite3_bind_int64(s, 6, r->card.reps);
    sqlite3_bind_int64(s, 7, r->card.lapses);
    sqlite3_bind_int64(s, 8, r->last_review);
    sqlite3_bind_int64(s, 9, r->due_day);
    store_bind_text(s, 10, content_hash ? content_hash : "");
    store_bind_text(s, 11, answer_hash ? answer_hash : "");
    rc = sqlite3_step(s);
    sqlite3_reset(s);
    if (rc != SQLITE_DONE)
        return store_fail(st, rc, err);
    *updated = sqlite3_changes(st->db) > 0;
    return KVT_E_OK;
}

enum kvt_err store_each_due(struct store *st, int64_t learner_id, int64_t now, bool due_only,
                            store_due_fn fn, void *ctx, struct store_error *err)
{
    sqlite3_stmt *s = store_stmt(st, due_only ? STMT_DUE_LIST : STMT_SEEN_LIST, err);
    int rc;

    if (!s)
        return err->code;
    sqlite3_bind_int64(s, 1, learner_id);
    if (due_only)
        sqlite3_bind_int64(s, 2, now / SECONDS_PER_DAY);
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
    sqlite3_stmt *s = store_stmt(st, STMT_ACTIVITY, err);
    int64_t today = now / SECONDS_PER_DAY;
    int rc;

    for (int i = 0; i < days; i++)
        answers[i] = right[i] = 0;
    if (!s)
        return err->code;
    sqlite3_bind_int64(s, 1, learner_id);
    sqlite3_bind_int64(s, 2, (today - days + 1) * SECONDS_PER_DAY);
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
    sqlite3_stmt *s = store_stmt(st, STMT_CONCEPTS, err);
    int rc;

    if (!s)
        return err->code;
    sqlite3_bind_int64(s, 1, learner_id);
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
    sqlite3_stmt *s = store_begin_stmt(st, STMT_INTERVIEW_ADD, err);

    if (!s)
        return err->code;
    sqlite3_bind_int64(s, 1, learner_id);
    store_bind_text(s, 2, lesson_id);
    sqlite3_bind_int64(s, 3, started_at);
    sqlite3_bind_double(s, 4, seconds);
    sqlite3_bind_int(s, 5, answered);
    sqlite3_bind_double(s, 6, score);
    store_bind_text(s, 7, review ? review : "");
    return store_write_one(st, s, err);
}

enum kvt_err store_probe_add(struct store *st, const struct store_probe_run *run,
                             struct store_error *err)
{
    sqlite3_stmt *s = store_begin_stmt(st, STMT_PROBE_ADD, err);

    if (!s)
        return err->code;
    sqlite3_bind_int64(s, 1, run->learner_id);
    sqlite3_bind_int64(s, 2, run->started_at);
    sqlite3_bind_double(s, 3, run->seconds > 0 ? run->seconds : 0);
    store_bind_text(s, 4, run->probe);
    store_bind_text(s, 5, run->outcome);
    store_bind_text(s, 6, run->message ? run->message : "");
    store_bind_text(s, 7, run->device ? run->device : "");
    store_bind_text(s, 8, run->device_json ? run->device_json : "{}");
    store_bind_text(s, 9, run->results_json ? run->results_json : "[]");
    if (run->has_read)
        sqlite3_bind_double(s, 10, run->read_gbps);
    if (run->has_peak)
        sqlite3_bind_double(s, 11, run->peak_gbps);
    if (run->has_free)
        sqlite3_bind_int64(s, 12, run->free_bytes);
    return store_write_one(st, s, err);
}

enum kvt_err store_probe_last(struct store *st, int64_t learner_id, const char *probe,
                              struct store_probe_last *out, struct store_error *err)
{
    sqlite3_stmt *s = store_stmt(st, STMT_PROBE_LAST, err);
    int rc;

    if (!s)
        return err->code;
    memset(out, 0, sizeof *out);
    sqlite3_bind_int64(s, 1, learner_id);
    store_bind_text(s, 2, probe);
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
