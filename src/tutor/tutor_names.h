/* tutor_names.h: what the progress database keeps by id, named for people.
 *
 * Attempts are stored with the ids of their module, lesson, concept and
 * diagnosis, which the JSON output and the commands that take an id keep;
 * the screens and the text of `kvtutor stats` show these names instead.
 * Each falls back to the stored id only when no lesson of the course names
 * it any more, or when there is no course (c is NULL). */
#ifndef TUTOR_NAMES_H
#define TUTOR_NAMES_H

#include <stddef.h>

#include "lx.h"
#include "lx_course.h"

/* The concept's concept_title (lx_course_concept_title), else the stored
 * id; "(none)" for an empty one. Never NULL. */
const char *tutor_concept_name(struct lx_course *c, const char *concept);

/* The live lesson's title, else the stored id. Never NULL. */
const char *tutor_lesson_name(struct lx_course *c, const char *lesson_id);

/* The module's module_title, else its id; "(no module)" for an empty one. */
const char *tutor_module_name(struct lx_course *c, const char *module);

/* The diagnosis a misconception is recorded under: "misconception-" and a
 * hash of its about and said phrasings, so that it is the same wherever
 * the lesson is installed and changes only when the claim does. */
#define TUTOR_MISCONCEPTION_ID_MAX 24
const char *tutor_misconception_id(const struct lx_misconception *m, char *buf, size_t cap);

/* A diagnosis as the learner reads it: a numeric slip by what was done
 * ("left out the x2 for K and V"), a misconception by what it is about and
 * the start of its correction ("misconception about max_num_seqs:
 * max_num_seqs is only a cap"); else as stored. Written to buf; returns
 * buf. */
const char *tutor_diagnosis_name(struct lx_course *c, const char *diagnosis, char *buf, size_t cap);

#endif
