/* tutor_course.h: opening the course, the one way the app and the commands
 * (`stats`, `ask --list`, `lint`) do it, and reloading one of its lessons.
 *
 * Opening loads every lesson file in course order (lx_course.h: a later file
 * shadows an earlier lesson with its id); then, where there is a progress
 * database, each live lesson's schedules are checked against its
 * fingerprints (tutor_sync.h), so a lesson whose expected answers changed
 * starts those schedules over before anything is counted, asked or shown
 * as due. A shadowed lesson is not synced: it would undo its draft's
 * fingerprints. Without a database (lint, ask) nothing is synced.
 *
 * Given o->build, a file whose bytes are those of its kept brief is not
 * run: its slot holds the brief (the map's figures) and its kept
 * fingerprints are checked against the schedules instead, with the same
 * effect; other files are loaded, briefed and kept for the next start, and
 * their sandboxes freed. A lesson is loaded whole when it is first needed
 * (lx_course_at: opened, practised, reviewed, linted); a file that changed
 * since start is synced then. */
#ifndef TUTOR_COURSE_H
#define TUTOR_COURSE_H

#include <stddef.h>
#include <stdint.h>

#include "lx.h"
#include "lx_course.h"
#include "lx_search.h"
#include "store.h"
#include "store_brief.h"

/* Where the shipped briefs (below) come from. rows is called at most once
 * an opening, and only when a file has no brief kept in the database:
 * reading them takes time a warm start need not spend. It gives the rows
 * and their number (0: none), the caller's until the opening returns. */
struct tutor_shipped {
    const struct store_brief_row *(*rows)(void *ctx, size_t *n);
    void *ctx;
};

struct tutor_course_open {
    const struct lx_opts *lx; /* copied; lx->stop, when set, ends the loading early */
    struct store *store;      /* NULL: nothing to sync */
    int64_t learner_id;
    /* The program's identity (cli_build_id: its GNU build id), with a store:
     * each file's brief and fingerprints are then kept in the database and,
     * while the file's bytes, this and the DSL are the same, read back at
     * the next start instead of running the lesson (lx_brief.h). NULL:
     * every file is loaded. */
    const char *build;
    /* Briefs made when the program was built, for the lessons it ships
     * (`kvtutor lint --briefs`; their paths are not read): with a store and
     * build, a file with none kept whose content hash and engine (build and
     * DSL, as kept rows have) are a row's is opened from that row, as from a
     * kept one, and the row is kept for the next start. So a first start
     * runs only the files that are not the shipped ones. May be NULL. */
    const struct tutor_shipped *shipped;
    /* each may be NULL: before file i of n is loaded (a progress line; not
     * for a file opened from its brief, which runs nothing), and
     * after it, with lx_load's code and report (the caller's to read, not
     * to keep) */
    void (*before)(void *ctx, size_t i, size_t n);
    void (*after)(void *ctx, size_t i, enum kvt_err e, const struct lx_report *rep);
    /* may be NULL: with build, the rows to keep for the next start (the
     * files run, and shipped ones now under a stamp), once every file is
     * opened; they are the caller's to read until it returns. A store
     * keeps them too; without one this is how they are had (`lint
     * --briefs`). */
    void (*keep)(void *ctx, const struct store_brief_row *rows, size_t n);
    void *ctx;
    /* files run at once (tutor_load.h): 0, one a core (at most 4); 1, one
     * after another on the caller's thread. The callbacks above run on the
     * caller's thread whatever this is: first `after` for each file opened
     * from its brief, then before and after for each file run, each group
     * in file order. */
    unsigned threads;
    /* Unix seconds, for which files have settled (lx_file_stamp); 0: the
     * clock's */
    int64_t now;
};

struct tutor_course_result {
    size_t failed;          /* files that could not be loaded */
    size_t run;             /* files run (the others opened from a kept or shipped brief) */
    size_t restarted;       /* schedules started over by the sync */
    const char *sync_stuck; /* the lesson id whose sync failed, or NULL */
    struct store_error err; /* why, when sync_stuck is set */
};

/* Opens the course over `paths` (copied) into *out; free it with
 * lx_course_free. Returns KVT_E_OK (files that failed to load are counted
 * in r->failed and passed to o->after; the course holds the others),
 * KVT_E_NOMEM with *out NULL, or the store's code when a sync failed (the
 * course is still opened; r->sync_stuck names the lesson, r->err says why;
 * a read-only database is not an error). */
enum kvt_err tutor_course_open(char *const *paths, size_t n, const struct tutor_course_open *o,
                               struct lx_course **out, struct tutor_course_result *r);

/* Reloads lesson i from its file and syncs it as opening does. Returns
 * KVT_E_OK; lx_load's code with the course unchanged and its first problem
 * in why ("line 12: ..." when it has a line); or the store's code after the
 * lesson was replaced (r->sync_stuck and r->err say which and why). */
enum kvt_err tutor_course_reload(struct lx_course *c, size_t i, const struct tutor_course_open *o,
                                 char *why, size_t cap, struct tutor_course_result *r);

/* The course as the screens read it: the catalogue's answers (lx_course.h
 * holds the rules: shadowing, numbers, prerequisites), so that a screen
 * reads lessons without loading, running or grading one. */
size_t tutor_course_size(const struct lx_course *c);
struct lx_lesson *tutor_course_at(const struct lx_course *c, size_t i); /* whole; NULL: failed */
/* its catalogue fields only (lx_brief.h), without loading: what the map reads */
struct lx_lesson *tutor_course_brief(const struct lx_course *c, size_t i);
bool tutor_course_live(const struct lx_course *c, size_t i);
size_t tutor_course_number(const struct lx_course *c, size_t i); /* in its module, from 1 */
struct lx_lesson *tutor_course_find(struct lx_course *c, const char *id, size_t *index);
const char *tutor_course_module_title(struct lx_course *c, const char *module);
void tutor_course_requires_text(struct lx_course *c, const struct lx_lesson *l, const char *lead,
                                char *out, size_t cap);
void tutor_course_after_text(struct lx_course *c, const struct lx_lesson *l, char *out, size_t cap);
/* The map's search (lx_search.h): where in the lesson the learner's words
 * first occur, and that place for people: "follow-up 2", "section "Why it
 * fills up"", "exercise 3" (empty for LX_HIT_NONE). */
bool tutor_lesson_find(const struct lx_lesson *l, const char *needle, struct lx_hit *hit);
const char *tutor_hit_place(const struct lx_lesson *l, const struct lx_hit *h, char *out,
                            size_t cap);
void tutor_course_close(struct lx_course *c);

#endif
