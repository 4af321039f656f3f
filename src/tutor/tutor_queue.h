/* tutor_queue.h: what a review asks, in what order, and the figures that
 * count it.
 *
 * One rule queues a review and counts what is due, so the course map's
 * "1 due today · 20 new", the progress screen and `kvtutor stats` say what
 * review will ask. The definitions, all as of `now` (env->wall, else the
 * system's clock); schedules are kept by UTC day, so "now" means today:
 *
 *   - counted items: items (exercises, follow-ups, the question) of the
 *     course's live lessons with a schedule. A schedule kept for a lesson no
 *     longer installed, or for an item its lesson no longer has, is never
 *     asked, so it is not counted;
 *   - due now: counted items whose due day is today or earlier;
 *   - due within a week: counted items whose due day is at most 7 days after
 *     today, those due now included (due now <= due within a week);
 *   - new today: the exercises never seen that a review started now brings
 *     after the due ones: new_per_day less the exercises first answered
 *     today, taken in course order, leaving out those that wait for the
 *     learner's first probe run (and none when new_per_day is 0).
 *
 * The order of a review: the most overdue first, then the least stable,
 * then by lesson id and item id (the ties broken so the order never
 * depends on how the database returned the rows); the new ones after, in
 * course order.
 */
#ifndef TUTOR_QUEUE_H
#define TUTOR_QUEUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"
#include "tutor_item.h"
#include "tutor_session.h"

/* Items to ask, each once: the first n_due are due (cram: every item with a
 * schedule, due or not), the rest new. Item lessons are course slots. */
struct tutor_queue {
    struct tutor_item *items;
    size_t n, n_due;
};

/* The queue of a review (cram: every scheduled item, nothing new) as of
 * `now`, with `facts` the learner's probe figures (for the exercises that
 * wait for one). Without a store or a course it is empty. KVT_E_OK, or the
 * store's error in err (KVT_E_NOMEM when out of memory); *out is empty
 * then. Free with tutor_queue_free. */
enum kvt_err tutor_queue_review(const struct tutor_env *env, bool cram, int64_t now,
                                const struct lx_fact *facts, size_t n_facts,
                                struct tutor_queue *out, struct store_error *err);
void tutor_queue_free(struct tutor_queue *q);

/* True when exercise x needs a measurement (a "measure, then predict"
 * figure) that `facts` lacks: practice leaves it out and review brings it
 * as new only once the learner has a probe run. */
bool tutor_waits_for_probe(const struct lx_exercise *x, const struct lx_fact *facts, size_t n);

/* The figures, by the definitions above. */
struct tutor_review_counts {
    size_t due_now, due_week, new_today;
};

/* Counts what a review started now would bring: *total for the course and,
 * when by_slot is not NULL (lx_course_size entries), each course slot's own
 * (a slot that is not live gets zeros). The probe figures are env's when
 * facts_given, else the learner's last run. KVT_E_OK, or the error in err
 * with every count 0. */
enum kvt_err tutor_review_counts(const struct tutor_env *env, struct tutor_review_counts *total,
                                 struct tutor_review_counts *by_slot, struct store_error *err);

#endif
