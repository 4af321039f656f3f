/* Writing and reading a learner's progress: learners, settings, attempts,
 * review schedules, lesson positions, a changed lesson's sync and a reset.
 * Opening and migrating are in store_open.c; the SQL in store_sql.h. */
#define _POSIX_C_SOURCE 200809L
#include "store_private.h"
#include "sys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define set_err store_set_err

enum kvt_err store_new_uid(char uid[33])
{
    static const char hex[] = "0123456789abcdef";
    unsigned char raw[16];

    if (sys_random(raw, sizeof raw) != 0)
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
    sqlite3_stmt *s = store_prepare(st, STMT_LEARNER_GET, err, name);
    int rc;

    if (!s)
        return err->code;
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
    bool found;

    if (learner_find(st, name, id, &found, err) != KVT_E_OK)
        return err->code;
    if (found)
        return KVT_E_OK;
    if (store_run(st, STMT_LEARNER_ADD, err, name, now) != KVT_E_OK)
        return err->code;
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
    if ((e = store_learner_locked(st, name, now, id, err)) != KVT_E_OK)
        goto fail;
    return store_commit(st, err);
fail:
    store_rollback(st);
    return e;
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
    sqlite3_stmt *s = store_prepare(st, STMT_SETTING_GET, err, key);

    *found = false;
    if (cap)
        buf[0] = '\0';
    if (!s)
        return err->code;
    return lookup_row(st, s, buf, cap, found, NULL, err);
}

enum kvt_err store_setting_set(struct store *st, const char *key, const char *value,
                               struct store_error *err)
{
    return store_write_one(st, STMT_SETTING_SET, err, key, value);
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
    sqlite3_stmt *s = store_prepare(st, STMT_REVIEW_GET, err, learner, lesson, exercise);
    int rc;

    if (!s)
        return SQLITE_ERROR;
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
    return store_run(st, STMT_REVIEW_PUT, err, a->learner_id, a->lesson_id, a->exercise_id,
                     r->card.stability, r->card.difficulty, (int64_t)r->card.reps,
                     (int64_t)r->card.lapses, r->last_review, r->due_day);
}

static enum kvt_err insert_attempt(struct store *st, const struct store_attempt *a,
                                   struct store_error *err)
{
    int64_t rating = a->rating;

    return store_run(st, STMT_ATTEMPT_ADD, err, a->uid, a->learner_id, a->module ? a->module : "",
                     a->lesson_id, a->exercise_id, a->concept ? a->concept : "", a->answer,
                     a->has_value ? &a->value : NULL, a->unit, a->verdict, a->score, a->diagnosis,
                     a->has_seed ? &a->seed : NULL, (int64_t)a->hinted,
                     a->rating > 0 ? &rating : NULL, a->seconds, a->created_at);
}

enum kvt_err store_insert_attempt(struct store *st, const struct store_attempt *a, bool *added,
                                  struct store_error *err)
{
    sqlite3_stmt *s;
    int rc;

    *added = false;
    if (!valid_attempt(a))
        return set_err(err, KVT_E_RANGE, 0, "incomplete attempt");
    if (!(s = store_prepare(st, STMT_ATTEMPT_EXISTS, err, a->uid)))
        return err->code;
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
    int64_t learner = 0, when = 0;
    bool rated = false;
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
    if (!(s = store_prepare(st, STMT_ATTEMPT_GET, err, uid))) {
        e = err->code;
        goto fail;
    }
    rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
        learner = sqlite3_column_int64(s, 0);
        snprintf(lesson, sizeof lesson, "%s", (const char *)sqlite3_column_text(s, 1));
        snprintf(exercise, sizeof exercise, "%s", (const char *)sqlite3_column_text(s, 2));
        when = sqlite3_column_int64(s, 3);
        rated = sqlite3_column_type(s, 4) != SQLITE_NULL;
    }
    sqlite3_reset(s);
    if (rc != SQLITE_ROW) {
        e = rc == SQLITE_DONE ? set_err(err, KVT_E_DB_NOT_FOUND, 0, "no such attempt")
                              : store_fail(st, rc, err);
        goto fail;
    }
    if (rated) {
        e = set_err(err, KVT_E_CONFLICT, 0, "the attempt is already rated");
        goto fail;
    }
    if ((e = store_run(st, STMT_ATTEMPT_RATE, err, uid, (int64_t)rating)) != KVT_E_OK ||
        (e = schedule(st, learner, lesson, exercise, when, rating, p, &r, err)) != KVT_E_OK)
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

enum kvt_err store_lesson_seen(struct store *st, int64_t learner_id, const char *lesson_id,
                               const char *position, int64_t now, struct store_error *err)
{
    return store_write_one(st, STMT_LESSON_SEEN, err, learner_id, lesson_id, now,
                           position ? position : "");
}

enum kvt_err store_lesson_done(struct store *st, int64_t learner_id, const char *lesson_id,
                               int64_t now, struct store_error *err)
{
    return store_write_one(st, STMT_LESSON_DONE, err, learner_id, lesson_id, now);
}

enum kvt_err store_lesson_get(struct store *st, int64_t learner_id, const char *lesson_id,
                              char *position, size_t cap, bool *done, bool *found,
                              struct store_error *err)
{
    sqlite3_stmt *s = store_prepare(st, STMT_LESSON_GET, err, learner_id, lesson_id);

    *found = *done = false;
    if (cap)
        position[0] = '\0';
    if (!s)
        return err->code;
    return lookup_row(st, s, position, cap, found, done, err);
}

enum kvt_err store_lesson_last(struct store *st, int64_t learner_id, char *lesson_id, size_t cap,
                               bool *found, struct store_error *err)
{
    sqlite3_stmt *s = store_prepare(st, STMT_LESSON_LAST, err, learner_id);

    *found = false;
    if (cap)
        lesson_id[0] = '\0';
    if (!s)
        return err->code;
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
    if (!added)
        goto fail; /* already recorded: nothing to write, e is OK */
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
    enum kvt_err e;
    int rc;

    if ((e = store_begin(st, err)) != KVT_E_OK)
        return e;
    rc = read_review(st, learner_id, lesson_id, exercise_id, &r, hashes, err);
    if (rc == SQLITE_DONE) {
        *out = STORE_SYNC_NEW;
        goto fail; /* nothing to write, e is OK */
    }
    if (rc != SQLITE_ROW) {
        e = store_fail(st, rc, err);
        goto fail;
    }
    /* A schedule recorded before fingerprints were known adopts the current ones. */
    if (hashes[1][0] != '\0' && strcmp(hashes[1], answer_hash) != 0)
        *out = STORE_SYNC_RESTARTED;
    else if (hashes[0][0] != '\0' && strcmp(hashes[0], content_hash) != 0)
        *out = STORE_SYNC_WORDING;
    else
        *out = STORE_SYNC_SAME;
    if (*out == STORE_SYNC_SAME && hashes[0][0] != '\0')
        goto fail; /* nothing to write, e is OK */
    if (*out == STORE_SYNC_RESTARTED)
        e = store_run(st, STMT_REVIEW_DELETE_ONE, err, learner_id, lesson_id, exercise_id);
    else
        e = store_run(st, STMT_REVIEW_HASHES, err, learner_id, lesson_id, exercise_id, content_hash,
                      answer_hash);
    if (e != KVT_E_OK)
        goto fail;
    return store_commit(st, err);
fail:
    store_rollback(st);
    return e;
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
        if ((e = store_run(st, steps[i], err, learner_id, lesson_id)) != KVT_E_OK)
            goto fail;
        if (i == 0)
            *removed = sqlite3_changes64(st->db);
    }
    return store_commit(st, err);
fail:
    store_rollback(st);
    return e;
}

/* Every setting, its default and, for the numbers, the range the rule
 * takes and the words that say it. A limit of 0 seconds or minutes is
 * "none". */
static const struct {
    const char *key, *fallback;
    bool whole;
    double lo, hi;
    const char *rule;
} known_settings[] = {
    {"learner", "default", false, 0, 0, NULL},
    {"desired_retention", "0.9", false, 0.7, 0.97, "a number from 0.7 to 0.97"},
    {"new_per_day", "20", true, 0, 500, "a whole number from 0 to 500"},
    {"interview_answer_seconds", "120", true, 0, 1800,
     "a whole number of seconds from 0 (no limit) to 1800"},
    {"interview_minutes", "15", true, 0, 120, "a whole number of minutes from 0 (no limit) to 120"},
};

#define N_SETTINGS (sizeof known_settings / sizeof known_settings[0])

const char *store_setting_fallback(const char *key)
{
    for (size_t i = 0; i < N_SETTINGS; i++)
        if (strcmp(known_settings[i].key, key) == 0)
            return known_settings[i].fallback;
    return NULL;
}

const char *store_setting_check(const char *key, const char *value)
{
    char *end;
    double v;
    size_t k = 0;

    while (k < N_SETTINGS && strcmp(known_settings[k].key, key) != 0)
        k++;
    if (k == N_SETTINGS)
        return "unknown setting (learner, desired_retention, new_per_day, "
               "interview_answer_seconds, interview_minutes)";
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
        return known_settings[k].rule;
    v = strtod(value, &end);
    /* "0.91.5" and "0.8.8": strtod stops at the second point; the rest must not be dropped */
    if (*end != '\0' || strchr(value, '.') != strrchr(value, '.'))
        return known_settings[k].rule;
    if (known_settings[k].whole && strchr(value, '.'))
        return known_settings[k].rule;
    return v >= known_settings[k].lo && v <= known_settings[k].hi ? NULL : known_settings[k].rule;
}
