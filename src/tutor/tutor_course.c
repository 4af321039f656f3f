/* Opening and reloading the course. The sync comes after every file is
 * loaded, not file by file: whether a lesson is live (and so synced)
 * depends on the files after it. */
#include "tutor_course.h"

#include <string.h>

#include "tutor_sync.h"

static bool stopped(const struct tutor_course_open *o)
{
    return o->lx && o->lx->stop && *o->lx->stop;
}

/* Syncs lesson i when it is live; stops the caller at the first failure. */
static enum kvt_err sync_one(struct lx_course *c, size_t i, const struct tutor_course_open *o,
                             struct tutor_course_result *r)
{
    size_t restarted = 0;
    enum kvt_err e;

    if (!o->store || !lx_course_live(c, i))
        return KVT_E_OK;
    e = tutor_sync_lesson(o->store, o->learner_id, lx_course_at(c, i), &restarted, &r->err);
    r->restarted += restarted;
    if (e != KVT_E_OK)
        r->sync_stuck = lx_course_at(c, i)->id;
    return e;
}

enum kvt_err tutor_course_open(char *const *paths, size_t n, const struct tutor_course_open *o,
                               struct lx_course **out, struct tutor_course_result *r)
{
    struct lx_opts lx;
    struct lx_course *c;
    enum kvt_err e = KVT_E_OK;

    memset(r, 0, sizeof *r);
    if (o->lx)
        lx = *o->lx;
    else
        lx_default_opts(&lx);
    *out = c = lx_course_new(paths, n, &lx);
    if (!c)
        return KVT_E_NOMEM;
    for (size_t i = 0; i < n && !stopped(o); i++) {
        struct lx_report rep = {0};
        enum kvt_err le;
        if (o->before)
            o->before(o->ctx, i, n);
        if ((le = lx_course_load(c, i, &rep)) != KVT_E_OK)
            r->failed++;
        if (o->after)
            o->after(o->ctx, i, le, &rep);
        lx_report_free(&rep);
    }
    for (size_t i = 0; i < lx_course_size(c) && e == KVT_E_OK && !stopped(o); i++)
        e = sync_one(c, i, o, r);
    return e;
}

enum kvt_err tutor_course_reload(struct lx_course *c, size_t i, const struct tutor_course_open *o,
                                 struct lx_report *rep, struct tutor_course_result *r)
{
    struct lx_opts lx;
    struct lx_lesson *fresh = NULL;
    enum kvt_err e;

    memset(r, 0, sizeof *r);
    if (o->lx)
        lx = *o->lx;
    else
        lx_default_opts(&lx);
    if ((e = lx_load(lx_course_path(c, i), &lx, &fresh, rep)) != KVT_E_OK)
        return e;
    lx_course_replace(c, i, fresh);
    return sync_one(c, i, o, r);
}
