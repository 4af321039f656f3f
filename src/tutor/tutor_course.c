/* Opening and reloading the course. The sync comes after every file is
 * loaded, not file by file: whether a lesson is live (and so synced)
 * depends on the files after it. */
#include "tutor_course.h"

#include <stdio.h>
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
                                 char *why, size_t cap, struct tutor_course_result *r)
{
    struct lx_opts lx;
    struct lx_lesson *fresh = NULL;
    struct lx_report rep = {0};
    enum kvt_err e;

    memset(r, 0, sizeof *r);
    if (o->lx)
        lx = *o->lx;
    else
        lx_default_opts(&lx);
    if ((e = lx_load(lx_course_path(c, i), &lx, &fresh, &rep)) != KVT_E_OK) {
        if (rep.n && rep.items[0].line > 0)
            snprintf(why, cap, "line %d: %s", rep.items[0].line, rep.items[0].msg);
        else
            snprintf(why, cap, "%s", rep.n ? rep.items[0].msg : "cannot be loaded");
        lx_report_free(&rep);
        return e;
    }
    lx_report_free(&rep);
    lx_course_replace(c, i, fresh);
    return sync_one(c, i, o, r);
}

size_t tutor_course_size(const struct lx_course *c)
{
    return lx_course_size(c);
}

struct lx_lesson *tutor_course_at(const struct lx_course *c, size_t i)
{
    return lx_course_at(c, i);
}

bool tutor_course_live(const struct lx_course *c, size_t i)
{
    return lx_course_live(c, i);
}

size_t tutor_course_number(const struct lx_course *c, size_t i)
{
    return lx_course_number(c, i);
}

struct lx_lesson *tutor_course_find(struct lx_course *c, const char *id, size_t *index)
{
    return lx_course_find(c, id, index);
}

const char *tutor_course_module_title(struct lx_course *c, const char *module)
{
    return lx_course_module_title(c, module);
}

void tutor_course_requires_text(struct lx_course *c, const struct lx_lesson *l, const char *lead,
                                char *out, size_t cap)
{
    lx_course_requires_text(c, l, lead, out, cap);
}

void tutor_course_after_text(struct lx_course *c, const struct lx_lesson *l, char *out, size_t cap)
{
    lx_course_after_text(c, l, out, cap);
}

bool tutor_lesson_mentions(const struct lx_lesson *l, const char *needle)
{
    return lx_lesson_mentions(l, needle);
}

void tutor_course_close(struct lx_course *c)
{
    lx_course_free(c);
}
