/* store.h: the learner's progress, in one SQLite file.
 *
 * Opening runs the pending migrations (db/NNNN-*.sql, embedded) in one
 * transaction; a database written by a newer kvtutor is refused, a
 * read-only one is opened for reading and never upgraded. Every write is a
 * BEGIN IMMEDIATE transaction, so a second kvtutor waits its turn instead of
 * failing. Functions return a kvt_err code and fill *err with SQLite's own
 * words; nothing here prints. Time comes in as a value (Unix seconds). */
#ifndef STORE_H
#define STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fsrs.h"
#include "kvt_error.h"

struct store;

struct store_error {
    enum kvt_err code;
    int sqlite_code;  /* extended result code, 0 when the error is not SQLite's */
    char detail[256]; /* SQLite's message or the system's, for "what happened" */
};

/* The default file: $XDG_DATA_HOME/kvtutor/progress.db, else
 * $HOME/.local/share/kvtutor/progress.db. Returns KVT_E_MISSING when neither
 * variable is set, KVT_E_RANGE when the path does not fit. */
enum kvt_err store_default_path(const char *xdg_data_home, const char *home, char *buf, size_t cap);

/* Opens (creating when missing) and migrates. create_folder: make the
 * file's folder (and parents) when missing, as for the default path. */
enum kvt_err store_open(const char *path, bool create_folder, struct store **out,
                        struct store_error *err);
void store_close(struct store *st);

/* How long a write waits for another connection's write lock before it
 * gives up with KVT_E_DB_LOCKED. */
#define STORE_BUSY_TIMEOUT_S  10
#define STORE_BUSY_TIMEOUT_MS (STORE_BUSY_TIMEOUT_S * 1000)

/* fn(ctx) is called once in each wait for the database, about a quarter of
 * a second in: another kvtutor (an import, a second app) holds the write
 * lock, and this one waits up to STORE_BUSY_TIMEOUT_MS for it. fn says so
 * to the learner; NULL says nothing. Kept when the store reopens its file
 * (store_recreated). */
void store_on_wait(struct store *st, void (*fn)(void *ctx), void *ctx);

bool store_readonly(const struct store *st);

/* True once after a write found the file deleted while open (the learner
 * removed it, a clean-up script did) and wrote the whole database, every
 * answer so far, back to its path before writing on. A file put in its place
 * is never written over: that write and every later one fail with
 * KVT_E_DB_GONE, the answers so far copied to PATH.recovered (err->detail
 * names it), from which the store reads on. */
bool store_recreated(struct store *st);
int store_schema_version(const struct store *st);
/* The schema this program writes: the number of the last migration. */
int store_latest_version(void);

/* The learner with this name, created on first use. */
enum kvt_err store_learner(struct store *st, const char *name, int64_t now, int64_t *id,
                           struct store_error *err);

/* The settings kvtutor keeps: learner, desired_retention (0.7 to 0.97),
 * new_per_day (0 to 500), interview_answer_seconds (0 to 1800) and
 * interview_minutes (0 to 120; 0 for either: no limit). check: NULL when `value` is acceptable for
 * `key`, else why not; `fallback` is the value in force while unset. */
const char *store_setting_check(const char *key, const char *value);
const char *store_setting_fallback(const char *key); /* NULL: no such setting */

/* Settings. get: *found false (and buf "") when unset. */
enum kvt_err store_setting_get(struct store *st, const char *key, char *buf, size_t cap,
                               bool *found, struct store_error *err);
enum kvt_err store_setting_set(struct store *st, const char *key, const char *value,
                               struct store_error *err);

/* One answer. The caller fills it; the store never frees or changes it, so
 * an attempt whose recording failed can be recorded again as it is. */
struct store_attempt {
    char uid[33]; /* 32 hex digits; store_new_uid fills one */
    int64_t learner_id;
    const char *module, *lesson_id, *exercise_id, *concept;
    const char *answer; /* as typed */
    bool has_value;
    double value;          /* parsed, in unit */
    const char *unit;      /* NULL when none */
    const char *verdict;   /* "correct", "wrong" or "invalid" */
    double score;          /* 0..1 */
    const char *diagnosis; /* NULL when none */
    bool has_seed;
    int64_t seed; /* parametric exercises: the draw */
    bool hinted;
    int rating;     /* 1..4 updates the schedule; 0 = cram, schedule untouched */
    double seconds; /* time taken */
    int64_t created_at;
};

/* The schedule of one exercise after a review. */
struct store_review {
    struct fsrs_card card;
    int64_t last_review; /* Unix seconds */
    int64_t due_day;     /* UTC day number */
    uint32_t interval;   /* days */
};

/* A fresh random uid (from the system's secure generator, sys_random). */
enum kvt_err store_new_uid(char uid[33]);

/* Records the attempt and, when it carries a rating, moves the exercise's
 * FSRS state, in one transaction: both land or neither does. p NULL means
 * the default FSRS parameters; *review (may be NULL) receives the new
 * schedule. An attempt whose uid is already there
 * is not written twice (KVT_E_OK, nothing changes). */
enum kvt_err store_record_attempt(struct store *st, const struct store_attempt *a,
                                  const struct fsrs_params *p, struct store_review *review,
                                  struct store_error *err);

/* Rates an attempt recorded without a rating (rating 0) and moves the
 * exercise's schedule, in one transaction: the app saves the answer the
 * moment it is given and the rating once the learner has confirmed or
 * changed it. KVT_E_CONFLICT when the attempt already has a rating,
 * KVT_E_DB_NOT_FOUND when there is no such attempt. */
enum kvt_err store_rate_attempt(struct store *st, const char *uid, int rating,
                                const struct fsrs_params *p, struct store_review *review,
                                struct store_error *err);

/* Lesson progress: opened (with a reading position the UI chooses), done
 * (whether or not its reader was ever opened: practice from the map
 * finishes a lesson too; the first time done is kept), where it stood, and
 * the lesson worked on most recently (to resume). */
enum kvt_err store_lesson_seen(struct store *st, int64_t learner_id, const char *lesson_id,
                               const char *position, int64_t now, struct store_error *err);
enum kvt_err store_lesson_done(struct store *st, int64_t learner_id, const char *lesson_id,
                               int64_t now, struct store_error *err);
enum kvt_err store_lesson_get(struct store *st, int64_t learner_id, const char *lesson_id,
                              char *position, size_t cap, bool *done, bool *found,
                              struct store_error *err);
enum kvt_err store_lesson_last(struct store *st, int64_t learner_id, char *lesson_id, size_t cap,
                               bool *found, struct store_error *err);

/* The schedule of one exercise; KVT_E_DB_NOT_FOUND when never reviewed. */
enum kvt_err store_review_get(struct store *st, int64_t learner_id, const char *lesson_id,
                              const char *exercise_id, struct store_review *out,
                              struct store_error *err);

/* What the lesson's current definition of an exercise means for its
 * schedule (see store_sync_exercise). */
enum store_sync {
    STORE_SYNC_NEW,       /* no schedule yet: nothing to keep */
    STORE_SYNC_SAME,      /* unchanged */
    STORE_SYNC_WORDING,   /* the text changed, the answer did not: schedule kept */
    STORE_SYNC_RESTARTED, /* the answer changed: schedule restarted, history kept */
};

/* Compares the stored fingerprints with the exercise's current ones and
 * applies the rule: same answer, same schedule; a new answer starts the
 * schedule again (the old reviews trained a different fact). Attempts are
 * never touched. */
enum kvt_err store_sync_exercise(struct store *st, int64_t learner_id, const char *lesson_id,
                                 const char *exercise_id, const char *content_hash,
                                 const char *answer_hash, enum store_sync *out,
                                 struct store_error *err);

/* Deletes one lesson's attempts, schedules and progress for the learner;
 * *removed counts the attempts. */
enum kvt_err store_reset_lesson(struct store *st, int64_t learner_id, const char *lesson_id,
                                int64_t *removed, struct store_error *err);

/* How far store_check looks. */
enum store_check_depth {
    /* PRAGMA integrity_check: everything quick does, plus the cross-checks
     * (each index against its table, UNIQUE and NOT NULL), which cost more */
    STORE_CHECK_FULL,
    /* PRAGMA quick_check: every page and index entry readable and well
     * formed. Run before an import writes and before stats or an export
     * read, so a damaged file fails clearly. */
    STORE_CHECK_QUICK,
};

/* Runs SQLite's check at that depth; KVT_E_DB_CORRUPT with its first line
 * in err->detail when it finds damage, else the error of running it. */
enum kvt_err store_check(struct store *st, enum store_check_depth depth, struct store_error *err);

#endif
