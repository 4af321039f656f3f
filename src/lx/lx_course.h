/* lx_course.h: the course catalogue. The lesson files in course order (the
 * bundled folder, then the learner's own, then --lessons), each loaded once,
 * with the rules every screen and command shares: a later file whose
 * lesson has the same id shadows the earlier one (an author's draft
 * replaces the bundled lesson); a lesson's number is its place among the
 * live lessons of its module; prerequisites are found by id and must come
 * earlier in their module.
 *
 * Files are loaded on demand: lx_course_load loads one, lx_course_find
 * looks from the end backward until it meets the id, loading only a file
 * whose text writes that id (lx_peek_id: the loader refuses any other, so
 * `kvtutor ask kv-cache` runs one lesson, not the course). A slot may instead hold the
 * lesson's brief (lx_brief.h: its catalogue entry, kept in the progress
 * database beside the file's hash): the queries below answer from it
 * without running the lesson, and lx_course_at loads the whole lesson the
 * first time it is asked for. The other queries see only what has been
 * loaded or briefed; the app briefs or loads every file at start. */
#ifndef LX_COURSE_H
#define LX_COURSE_H

#include <stdbool.h>
#include <stddef.h>

#include "lx.h"

struct lx_course;

/* A course over `paths` in course order, loaded with `opts` (both copied).
 * Loads nothing yet. NULL when out of memory. */
struct lx_course *lx_course_new(char *const *paths, size_t n, const struct lx_opts *opts);
void lx_course_free(struct lx_course *c);

/* Files in the course, failed and shadowed ones included. */
size_t lx_course_size(const struct lx_course *c);
const char *lx_course_path(const struct lx_course *c, size_t i);

/* Loads file i unless that was tried before. KVT_E_OK when it is loaded;
 * otherwise lx_load's code, with its problems in rep (may be NULL) the
 * first time. */
enum kvt_err lx_course_load(struct lx_course *c, size_t i, struct lx_report *rep);

/* Lesson i, whole: a brief is loaded now (the course's cache is filled,
 * hence const). NULL when it is not loaded, or failed. */
struct lx_lesson *lx_course_at(const struct lx_course *c, size_t i);

/* Lesson i as it is held, brief or whole, without loading: read only its
 * catalogue fields (lx_brief.h). NULL when the slot holds neither. */
struct lx_lesson *lx_course_brief(const struct lx_course *c, size_t i);

/* Slot i holds the whole lesson (not a brief, not empty). */
bool lx_course_loaded(const struct lx_course *c, size_t i);

/* Puts a brief (the caller's, now the course's) in slot i in place of what
 * it held: the file is loaded when the lesson is first needed whole. */
void lx_course_put_brief(struct lx_course *c, size_t i, struct lx_lesson *brief);

/* Called after a brief in slot i was replaced by loading the file (the
 * slot then holds the lesson, or NULL when it failed); `was` is the brief,
 * freed after the call. The tutor layer checks the schedules of a file that
 * changed since its brief was made. */
typedef void lx_course_loaded_fn(void *ctx, struct lx_course *c, size_t i,
                                 const struct lx_lesson *was);
void lx_course_on_load(struct lx_course *c, lx_course_loaded_fn *fn, void *ctx,
                       void (*free_ctx)(void *)); /* free_ctx(ctx) when the course is freed */

/* Hands lesson i to the caller (who frees it with lx_free) and empties
 * the slot; NULL when it holds none. */
struct lx_lesson *lx_course_take(struct lx_course *c, size_t i);

/* Puts a reloaded lesson in slot i, freeing the one it replaces. */
void lx_course_replace(struct lx_course *c, size_t i, struct lx_lesson *fresh);

/* The live lesson with this id (the last file that has it), its slot in
 * *index; NULL when no file has it. Loads, from the end, the files whose
 * text writes this id; the lesson found may be a brief (lx_course_at(*index)
 * for the whole). */
struct lx_lesson *lx_course_find(struct lx_course *c, const char *id, size_t *index);

/* Lesson i is live: loaded and not shadowed by a later lesson with its id. */
bool lx_course_live(const struct lx_course *c, size_t i);

/* The live lesson's number in its module, from 1 in course order; 0 when
 * lesson i is not live. */
size_t lx_course_number(const struct lx_course *c, size_t i);

/* Where prerequisite k of lesson i stands. */
enum lx_requirement {
    LX_REQ_MET,     /* a live lesson has the id (*at is its slot) */
    LX_REQ_MISSING, /* no lesson has it */
    LX_REQ_LATER,   /* it is in the same module but after lesson i: met second */
};
enum lx_requirement lx_course_requirement(struct lx_course *c, size_t i, size_t k, size_t *at);

/* `lead` and the titles of the lessons l requires, " · " between them (the
 * id where no lesson has it); "" when it requires none. */
void lx_course_requires_text(struct lx_course *c, const struct lx_lesson *l, const char *lead,
                             char *out, size_t cap);

/* "after 2,4": l's prerequisites by the numbers the map shows, those of l's
 * module first, then each other module's under its short name, its title up
 * to " · " ("after 2; Part 0: 3,5"); an id no lesson has as written; ""
 * when it requires none. */
void lx_course_after_text(struct lx_course *c, const struct lx_lesson *l, char *out, size_t cap);

/* The module's name for people: the module_title of the first live lesson
 * of `module` that gives one, else the module id itself. */
const char *lx_course_module_title(struct lx_course *c, const char *module);

/* The concept's name for people: the concept_title of the first live lesson
 * testing `concept` that gives one, else that first lesson's title; NULL
 * when no live lesson tests it (the caller has only the stored id). */
const char *lx_course_concept_title(struct lx_course *c, const char *concept);

/* The live lessons' ids in course order, ", " between them, cut to fit. */
void lx_course_ids_text(const struct lx_course *c, char *out, size_t cap);

#endif
