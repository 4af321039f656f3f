/* tutor_item.h: the things a learner answers, and their names.
 *
 * A lesson has three kinds of item: its exercises (named by their own ids),
 * its follow-ups ("followup-1", "followup-2", ...) and its own question
 * ("question"). These names are what the progress database keys attempts
 * and schedules by and what `kvtutor ask` takes, so they are made and read
 * here only; the lesson schema keeps exercise ids off the reserved ones
 * (lx_reserved_id). */
#ifndef TUTOR_ITEM_H
#define TUTOR_ITEM_H

#include <stdbool.h>
#include <stddef.h>

#include "kv_grade.h"
#include "lx.h"

enum tutor_part { TUTOR_EXERCISE, TUTOR_FOLLOWUP, TUTOR_QUESTION };

/* One item of one lesson: exercise `index`, follow-up `index`, or the
 * lesson's question (index 0). */
struct tutor_item {
    size_t lesson; /* the lesson's place in the session's list */
    enum tutor_part part;
    size_t index;
};

/* The kinds `kvtutor ask --list` names: numeric, choice, freetext,
 * question, followup. */
const char *tutor_item_kind(const struct lx_lesson *l, struct tutor_item it);

/* True for items answered in words and graded on key points (the question,
 * follow-ups); free-text exercises are graded the same way but have their
 * own id and model answer. */
bool tutor_item_spoken(struct tutor_item it);

/* The item's id: the exercise's own, "followup-N" (1-based) or
 * "question". Returns out. */
const char *tutor_item_id(const struct lx_lesson *l, struct tutor_item it, char *out, size_t cap);

/* Finds the item of lesson `l` named `id` (lesson left 0). False when the
 * lesson has no such item: "followup-0", "followup-7" of a lesson with
 * three, "question" of a lesson whose question has no key points (nothing
 * to grade it on), an unknown exercise. */
bool tutor_item_parse(const struct lx_lesson *l, const char *id, struct tutor_item *out);

/* The prompt as the lesson states it (an exercise's prompt may still hold
 * {name} placeholders; a drawn attempt fills them in). */
const char *tutor_item_prompt(const struct lx_lesson *l, struct tutor_item it);

/* What an answer in words is graded on and shown after: the key points,
 * the misconceptions and the model answer of the question, a follow-up or
 * a free-text exercise. False (and *out zeroed) for numeric and choice. */
struct tutor_parts {
    const struct lx_point *points;
    size_t n_points;
    const struct lx_misconception *mis;
    size_t n_mis;
    const char *model;
};
bool tutor_item_parts(const struct lx_lesson *l, struct tutor_item it, struct tutor_parts *out);

/* What a numeric exercise expected, as every screen and `kvtutor ask` show
 * it: the value as precise as its tolerance makes sense of, grouped
 * (kvt_fmt_near: "1,423", not "1423.3399"), the unit written as the course
 * writes it (against "%" and "x"), then the tolerance: "1,423 tokens/s,
 * within 3% (±42.7 tokens/s)" or "93.9%, within ±0.5%". `plusminus` is the
 * sign the caller can show ("±", or "+/-" on a plain terminal). Returns out. */
const char *tutor_item_expected(const struct lx_grade *g, const char *unit, const char *plusminus,
                                char *out, size_t cap);

/* The verdict's name in the database, exports and `ask --json`: "correct",
 * "wrong", "invalid". */
const char *tutor_verdict_name(enum kv_verdict v);

/* The verdict with that name; false for any other text. */
bool tutor_verdict_parse(const char *name, enum kv_verdict *out);

#endif
