/* tutor_progress.h: the learner's progress as the progress screen and
 * `kvtutor stats` read it, and where the learner stands in the course:
 * the reading position kept per lesson, the lesson to resume, whether
 * anything can be saved, and who is learning.
 *
 * One read gathers every figure the screen draws (answers and accuracy,
 * what was seen by kind, what is due by the review rule, answers a day,
 * accuracy by concept), so the screen and the command count alike. */
#ifndef TUTOR_PROGRESS_H
#define TUTOR_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store_report.h"
#include "tutor_done.h"
#include "tutor_queue.h"
#include "tutor_session.h"

#define TUTOR_PROGRESS_DAYS 14 /* answers a day: the last two weeks */

struct tutor_concept_score {
    char *concept; /* the stored id; tutor_concept_name names it */
    int64_t answers, right;
};

struct tutor_progress {
    struct store_stats stats; /* answers, streak, time, by lesson, weakest */
    bool seen_ok;
    struct tutor_done_total seen; /* exercises, follow-ups, questions seen */
    bool due_ok;                  /* else due_err says why */
    struct store_error due_err;
    struct tutor_review_counts due;      /* over the course */
    struct tutor_review_counts *by_slot; /* per course slot; NULL without a course */
    bool activity_ok;
    int64_t answers[TUTOR_PROGRESS_DAYS], right[TUTOR_PROGRESS_DAYS]; /* today last */
    struct tutor_concept_score *concepts;                             /* weakest first */
    size_t n_concepts;
};

/* Reads the learner's progress over env's course, at env's clock (the
 * system's unless env->wall is set). Returns KVT_E_OK,
 * or the store's code when the answers themselves cannot be read (nothing
 * to free then); a part that fails alone is marked (seen_ok, due_ok,
 * activity_ok) and the rest is read. Free with tutor_progress_free. */
enum kvt_err tutor_progress_read(const struct tutor_env *env, struct tutor_progress *out,
                                 struct store_error *err);
void tutor_progress_free(struct tutor_progress *p);

/* The label under one day's bar of the activity chart: the count whole up
 * to 999 ("117"), then in thousands to one decimal ("1.5k"), whole
 * thousands ("15k") and millions ("1.2M"): at most four characters, so the
 * fourteen days fit 80 columns whatever the counts and no day is clamped.
 * Returns out. */
const char *tutor_activity_label(int64_t answers, char *out, size_t cap);

/* The columns one day takes in the chart: its widest label and a space,
 * at least 3 (a two-wide bar and a space). */
int tutor_activity_width(const struct tutor_progress *p);

/* The reading position in a lesson (the first line shown), kept when the
 * reader leaves it. A read-only database keeps nothing and is no error. */
enum kvt_err tutor_reading_save(struct store *st, int64_t learner_id, const char *lesson_id,
                                size_t line, int64_t now, struct store_error *err);
/* The kept position; false when there is none (or it cannot be read). */
bool tutor_reading_get(struct store *st, int64_t learner_id, const char *lesson_id, size_t *line);
/* The lesson open most recently, to resume; false when none. */
bool tutor_reading_last(struct store *st, int64_t learner_id, char *lesson_id, size_t cap);

/* Whether answers and schedules will be kept (false for a read-only file). */
bool tutor_progress_saved(const struct store *st);

/* The sentence to show, once, after a write found the database file deleted
 * while the app ran and wrote it back with every answer (store_recreated);
 * NULL otherwise. The screens show it whatever they were doing: the answer
 * just acknowledged was saved, but only because the file was put back. */
const char *tutor_db_notice(struct store *st);

/* fn(ctx) is called once in each wait for the database that passes a
 * quarter of a second (another kvtutor, an import or a second app, holds
 * its write lock; a write waits up to 10 s, then fails as locked): the
 * caller shows tutor_db_wait_text() at once, or the wait looks like a hang.
 * NULL stops it. */
void tutor_db_on_wait(struct store *st, void (*fn)(void *ctx), void *ctx);
const char *tutor_db_wait_text(void);

/* Switches to learner `name`, created when new, and keeps the choice.
 * Returns KVT_E_OK with *id; KVT_E_RANGE with the rule's reason in *why; or
 * the store's code. */
enum kvt_err tutor_learner_switch(struct store *st, const char *name, int64_t now, int64_t *id,
                                  const char **why, struct store_error *err);

#endif
