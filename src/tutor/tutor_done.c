/* Counting answered items by kind: see tutor_done.h. */
#include "tutor_done.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_report.h"
#include "tutor_item.h"

struct walk {
    int64_t learner_id;
    struct lx_course *course;
    struct tutor_done *out;
    /* one flag per exercise and per follow-up of every slot, so an item
     * answered many times counts once: offsets into seen */
    size_t *first;
    bool *seen;
};

static int on_attempt(void *ctx, const char *learner, const struct store_attempt *a)
{
    struct walk *w = ctx;
    struct tutor_item it;
    struct lx_lesson *l;
    size_t slot, flag;
    (void)learner;

    if (a->learner_id != w->learner_id || !a->lesson_id || !a->exercise_id)
        return 0;
    if (!(l = lx_course_find(w->course, a->lesson_id, &slot)) ||
        !tutor_item_parse(l, a->exercise_id, &it))
        return 0;
    if (it.part == TUTOR_QUESTION) {
        w->out[slot].question = true;
        return 0;
    }
    flag = w->first[slot] + (it.part == TUTOR_FOLLOWUP ? l->n_exercises : 0) + it.index;
    if (w->seen[flag])
        return 0;
    w->seen[flag] = true;
    if (it.part == TUTOR_FOLLOWUP)
        w->out[slot].followups++;
    else
        w->out[slot].exercises++;
    return 0;
}

enum kvt_err tutor_done_counts(struct store *st, int64_t learner_id, struct lx_course *c,
                               struct tutor_done *out, struct store_error *err)
{
    size_t n = lx_course_size(c), flags = 0;
    struct walk w = {learner_id, c, out, calloc(n + 1, sizeof *w.first), NULL};
    enum kvt_err e;

    memset(out, 0, n * sizeof *out);
    for (size_t i = 0; w.first && i < n; i++) {
        const struct lx_lesson *l = lx_course_live(c, i) ? lx_course_brief(c, i) : NULL;
        w.first[i] = flags;
        if (l)
            flags += l->n_exercises + l->n_followups;
    }
    if (!w.first || !(w.seen = calloc(flags + 1, sizeof *w.seen))) {
        free(w.first);
        *err = (struct store_error){.code = KVT_E_NOMEM};
        snprintf(err->detail, sizeof err->detail, "out of memory");
        return KVT_E_NOMEM;
    }
    e = store_each_attempt(st, on_attempt, &w, err);
    free(w.first);
    free(w.seen);
    return e;
}

enum kvt_err tutor_done_total(struct store *st, int64_t learner_id, struct lx_course *c,
                              struct tutor_done_total *out, struct store_error *err)
{
    size_t n = lx_course_size(c);
    struct tutor_done *d = calloc(n + 1, sizeof *d);
    enum kvt_err e;

    *out = (struct tutor_done_total){0};
    if (!d) {
        *err = (struct store_error){.code = KVT_E_NOMEM};
        snprintf(err->detail, sizeof err->detail, "out of memory");
        return KVT_E_NOMEM;
    }
    e = tutor_done_counts(st, learner_id, c, d, err);
    for (size_t i = 0; e == KVT_E_OK && i < n; i++) {
        out->exercises += d[i].exercises;
        out->followups += d[i].followups;
        out->questions += d[i].question;
    }
    free(d);
    return e;
}
