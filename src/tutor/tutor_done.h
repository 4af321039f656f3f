/* tutor_done.h: how much of each lesson a learner has answered, each item
 * counted once and by kind, so a lesson never reads "16/12 done": its
 * exercises, its follow-ups and its question are counted apart. */
#ifndef TUTOR_DONE_H
#define TUTOR_DONE_H

#include <stddef.h>
#include <stdint.h>

#include "lx_course.h"
#include "store.h"

struct tutor_done {
    size_t exercises; /* of lesson->n_exercises */
    size_t followups; /* of lesson->n_followups */
    bool question;    /* the lesson's question answered */
};

/* For every slot of the course (lx_course_size entries in out, zeroed
 * first): the items of that lesson the learner has an answer for. An
 * answer to an item the lesson no longer has is not counted. Only live
 * lessons are counted. */
enum kvt_err tutor_done_counts(struct store *st, int64_t learner_id, struct lx_course *c,
                               struct tutor_done *out, struct store_error *err);

/* The same counts summed over the course, for the progress screen and
 * `kvtutor stats`: so they agree with the map's. */
struct tutor_done_total {
    size_t exercises, followups;
    size_t questions; /* lessons whose question was answered */
};
enum kvt_err tutor_done_total(struct store *st, int64_t learner_id, struct lx_course *c,
                              struct tutor_done_total *out, struct store_error *err);

#endif
