/* store_report.h: reading progress back out: statistics, export, and the
 * import that merges another machine's export. */
#ifndef STORE_REPORT_H
#define STORE_REPORT_H

#include "store.h"

struct store_lesson_stats {
    char module[64], lesson_id[128];
    int64_t exercises; /* distinct exercises answered */
    int64_t attempts, correct;
    double seconds; /* time spent answering */
};

#define STORE_WEAKEST 5

/* What is due is not here: it is counted over the course's items, by the
 * rule that queues a review (tutor_review_counts). */
struct store_stats {
    int64_t attempts, correct, exercises;
    int64_t streak_days; /* consecutive days with an answer, ending today or yesterday */
    double seconds;
    struct store_lesson_stats *lessons; /* by module, then lesson */
    size_t n_lessons;
    struct {
        char diagnosis[128];
        int64_t count;
    } weakest[STORE_WEAKEST]; /* the most frequent diagnoses of wrong answers */
    size_t n_weakest;
};

/* Statistics of one learner as of `now`. Free with store_stats_free. */
enum kvt_err store_stats(struct store *st, int64_t learner_id, int64_t now, struct store_stats *out,
                         struct store_error *err);
void store_stats_free(struct store_stats *s);

/* Exercises to review: due ones (due_only) or every one with a schedule,
 * most overdue first, then the least stable. */
typedef int (*store_due_fn)(void *ctx, const char *lesson_id, const char *exercise_id,
                            int64_t due_day, double stability);
enum kvt_err store_each_due(struct store *st, int64_t learner_id, int64_t now, bool due_only,
                            store_due_fn fn, void *ctx, struct store_error *err);

/* Answers per day for the last `days` days (index 0 is `days - 1` days ago,
 * the last is today), and how many were right. */
enum kvt_err store_activity(struct store *st, int64_t learner_id, int64_t now, int days,
                            int64_t *answers, int64_t *right, struct store_error *err);

/* Accuracy per concept, weakest first. */
typedef int (*store_concept_fn)(void *ctx, const char *concept, int64_t answers, int64_t right);
enum kvt_err store_each_concept(struct store *st, int64_t learner_id, store_concept_fn fn,
                                void *ctx, struct store_error *err);

/* A finished mock interview. `review` lists the concepts to review. */
enum kvt_err store_interview(struct store *st, int64_t learner_id, const char *lesson_id,
                             int64_t started_at, double seconds, int answered, double score,
                             const char *review, struct store_error *err);

/* Every attempt of every learner, oldest first. The callback returns 0 to
 * go on; any other value stops the walk (and is no error). */
typedef int (*store_attempt_fn)(void *ctx, const char *learner, const struct store_attempt *a);
enum kvt_err store_each_attempt(struct store *st, store_attempt_fn fn, void *ctx,
                                struct store_error *err);

/* Every exercise's schedule, with the fingerprints it was last seen with. */
typedef int (*store_review_fn)(void *ctx, const char *learner, const char *lesson_id,
                               const char *exercise_id, const struct store_review *r,
                               const char *content_hash, const char *answer_hash);
enum kvt_err store_each_review(struct store *st, store_review_fn fn, void *ctx,
                               struct store_error *err);

/* Import: begin, add attempts and schedules, end (commit or roll back). An
 * attempt whose uid is already there is skipped; a schedule replaces the
 * local one only when its last review is later. */
enum kvt_err store_import_begin(struct store *st, struct store_error *err);
enum kvt_err store_import_attempt(struct store *st, const char *learner,
                                  const struct store_attempt *a, bool *added,
                                  struct store_error *err);
enum kvt_err store_import_review(struct store *st, const char *learner, const char *lesson_id,
                                 const char *exercise_id, const struct store_review *r,
                                 const char *content_hash, const char *answer_hash, bool *updated,
                                 struct store_error *err);
enum kvt_err store_import_end(struct store *st, bool commit, struct store_error *err);

/* One probe run, as the CLI or the UI saw it end. Strings may be NULL
 * (stored as ""); the JSON texts are stored as given. */
struct store_probe_run {
    int64_t learner_id;
    int64_t started_at;
    double seconds;
    const char *probe;   /* "cpu" or "cuda" */
    const char *outcome; /* probe_end_name(): "ok", "failed", ... */
    const char *message;
    const char *device;       /* the device's name */
    const char *device_json;  /* the probe's "device" line */
    const char *results_json; /* an array of its "result" lines */
    bool has_read;
    double read_gbps; /* median GB/s of the streaming read */
    bool has_peak;
    double peak_gbps;
    bool has_free;
    int64_t free_bytes;
};
enum kvt_err store_probe_add(struct store *st, const struct store_probe_run *run,
                             struct store_error *err);

/* The learner's latest successful run with a read figure, of one probe
 * ("cpu", "cuda") or either (NULL). KVT_E_DB_NOT_FOUND when none. */
struct store_probe_last {
    char probe[8];
    int64_t started_at;
    char device[128];
    double read_gbps;
    bool has_peak;
    double peak_gbps;
    bool has_free;
    int64_t free_bytes;
};
enum kvt_err store_probe_last(struct store *st, int64_t learner_id, const char *probe,
                              struct store_probe_last *out, struct store_error *err);

#endif
