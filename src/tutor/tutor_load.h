/* tutor_load.h: lesson files loaded on several threads, handed back in
 * file order. Private to tutor (tutor_course.c opens the course with it).
 *
 * A course opened with no briefs kept (a new database, a new program, a
 * changed file) runs every such file: its sandbox, its kv.calc and kv.sim
 * figures, its draws. Lessons share nothing while they load (each has its
 * own Lua state, and the layers under lx keep no mutable statics), so the
 * files are run side by side, one a core, and the caller takes them back
 * one by one in its own order: what it reports, keeps and syncs does not
 * depend on which thread ran what. Worker threads block every signal, so a
 * quit key or SIGWINCH reaches the thread that handles it; the stop flag of
 * the lx options stops loads in flight and leaves the rest unrun. */
#ifndef TUTOR_LOAD_H
#define TUTOR_LOAD_H

#include <stdbool.h>
#include <stddef.h>

#include "lx.h"

/* One file to load, and what its load gave. */
struct tutor_load_job {
    const char *path; /* in */
    size_t slot;      /* in: the caller's own index, untouched */
    /* out, once tutor_load_wait says so */
    enum kvt_err e;
    struct lx_report rep;
    struct lx_lesson *lesson; /* on success, unless `finish` took it */
    void *made;               /* what `finish` made of it, or NULL */
};

/* Run on the loading thread after each successful load: may turn
 * job->lesson into something smaller (a brief) and free it. */
typedef void tutor_load_finish_fn(struct tutor_load_job *job, void *ctx);

struct tutor_loader;

/* Starts loading jobs[0 .. n) with lx (both must outlive the loader) on up
 * to `threads` threads, the caller's among them (0: one a core, at most 4;
 * 1: only on the caller's thread, inside tutor_load_wait). Where a thread
 * cannot be started the others, or the caller, load its share. NULL when
 * out of memory. */
struct tutor_loader *tutor_load_start(struct tutor_load_job *jobs, size_t n,
                                      const struct lx_opts *lx, unsigned threads,
                                      tutor_load_finish_fn *finish, void *ctx);

/* Waits until job k is loaded, loading others on this thread meanwhile;
 * false when the stop flag left it unrun (its fields are then unset). */
bool tutor_load_wait(struct tutor_loader *ld, size_t k);

/* Stops: jobs not yet started are left unrun; waits for the threads and
 * frees the loader, not the jobs (the caller frees what each holds). */
void tutor_load_end(struct tutor_loader *ld);

#endif
