/* The learner's progress, read for the progress screen and stats, and the
 * reading position. The position is kept as "line:N" so that a later
 * reader may keep another kind of place beside it. */
#define _POSIX_C_SOURCE 200809L
#include "tutor_progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tutor_settings.h"

static int keep_concept(void *ctx, const char *concept, int64_t answers, int64_t right)
{
    struct tutor_progress *p = ctx;
    struct tutor_concept_score *grown;
    char *id = strdup(concept);

    if (!id || !(grown = realloc(p->concepts, (p->n_concepts + 1) * sizeof *grown))) {
        free(id);
        return -1; /* stops the walk: the list is what fitted */
    }
    p->concepts = grown;
    p->concepts[p->n_concepts++] = (struct tutor_concept_score){id, answers, right};
    return 0;
}

enum kvt_err tutor_progress_read(const struct tutor_env *env, struct tutor_progress *out,
                                 struct store_error *err)
{
    int64_t now = env->wall ? env->wall() : (int64_t)time(NULL);
    size_t slots = env->course ? lx_course_size(env->course) : 0;
    struct store_error part;
    enum kvt_err e;

    memset(out, 0, sizeof *out);
    if ((e = store_stats(env->store, env->learner_id, now, &out->stats, err)) != KVT_E_OK)
        return e;
    out->seen_ok = env->course && tutor_done_total(env->store, env->learner_id, env->course,
                                                   &out->seen, &part) == KVT_E_OK;
    out->by_slot = slots ? calloc(slots, sizeof *out->by_slot) : NULL;
    if (slots && !out->by_slot) {
        out->due_err = (struct store_error){.code = KVT_E_NOMEM};
        snprintf(out->due_err.detail, sizeof out->due_err.detail, "out of memory");
    } else {
        out->due_ok = tutor_review_counts(env, &out->due, out->by_slot, &out->due_err) == KVT_E_OK;
    }
    out->activity_ok = store_activity(env->store, env->learner_id, now, TUTOR_PROGRESS_DAYS,
                                      out->answers, out->right, &part) == KVT_E_OK;
    store_each_concept(env->store, env->learner_id, keep_concept, out, &part);
    return KVT_E_OK;
}

void tutor_progress_free(struct tutor_progress *p)
{
    store_stats_free(&p->stats);
    for (size_t i = 0; i < p->n_concepts; i++)
        free(p->concepts[i].concept);
    free(p->concepts);
    free(p->by_slot);
    memset(p, 0, sizeof *p);
}

enum kvt_err tutor_reading_save(struct store *st, int64_t learner_id, const char *lesson_id,
                                size_t line, int64_t now, struct store_error *err)
{
    char pos[32];
    enum kvt_err e;

    snprintf(pos, sizeof pos, "line:%zu", line);
    e = store_lesson_seen(st, learner_id, lesson_id, pos, now, err);
    return e == KVT_E_DB_READONLY ? KVT_E_OK : e;
}

bool tutor_reading_get(struct store *st, int64_t learner_id, const char *lesson_id, size_t *line)
{
    char pos[64], *end;
    bool done = false, found = false;
    struct store_error err;
    unsigned long long v;

    if (store_lesson_get(st, learner_id, lesson_id, pos, sizeof pos, &done, &found, &err) !=
            KVT_E_OK ||
        !found || strncmp(pos, "line:", 5) != 0 || pos[5] < '0' || pos[5] > '9')
        return false;
    v = strtoull(pos + 5, &end, 10);
    if (*end || v > SIZE_MAX)
        return false;
    *line = (size_t)v;
    return true;
}

bool tutor_reading_last(struct store *st, int64_t learner_id, char *lesson_id, size_t cap)
{
    bool found = false;
    struct store_error err;
    return store_lesson_last(st, learner_id, lesson_id, cap, &found, &err) == KVT_E_OK && found;
}

const char *tutor_db_notice(struct store *st)
{
    return st && store_recreated(st)
               ? "the progress database was deleted while kvtutor ran: it is written again where "
                 "it was, with every answer so far"
               : NULL;
}

void tutor_db_on_wait(struct store *st, void (*fn)(void *ctx), void *ctx)
{
    if (st)
        store_on_wait(st, fn, ctx);
}

#define TEXT_OF(x)     #x
#define NUMBER_TEXT(x) TEXT_OF(x)

const char *tutor_db_wait_text(void)
{
    return "waiting for the database: another kvtutor is writing to it (up to " NUMBER_TEXT(
        STORE_BUSY_TIMEOUT_S) " s)";
}

bool tutor_progress_saved(const struct store *st)
{
    return !store_readonly(st);
}

enum kvt_err tutor_learner_switch(struct store *st, const char *name, int64_t now, int64_t *id,
                                  const char **why, struct store_error *err)
{
    enum kvt_err e;

    if ((*why = store_setting_check("learner", name)) != NULL)
        return KVT_E_RANGE;
    if ((e = store_setting_set(st, "learner", name, err)) != KVT_E_OK)
        return e;
    return store_learner(st, name, now, id, err);
}

const char *tutor_activity_label(int64_t answers, char *out, size_t cap)
{
    double v = (double)answers;
    int n;

    if (answers < 1000)
        n = snprintf(out, cap, "%lld", (long long)(answers < 0 ? 0 : answers));
    else if (v < 9950)
        n = snprintf(out, cap, "%.1fk", v / 1e3);
    else if (v < 999500)
        n = snprintf(out, cap, "%.0fk", v / 1e3);
    else if (v < 9.95e6)
        n = snprintf(out, cap, "%.1fM", v / 1e6);
    else
        n = snprintf(out, cap, "%.0fM", v / 1e6);
    /* "2.0k" says no more than "2k" */
    if (n > 3 && (size_t)n < cap && out[n - 2] == '0' && out[n - 3] == '.')
        memmove(out + n - 3, out + n - 1, 2);
    return out;
}

int tutor_activity_width(const struct tutor_progress *p)
{
    int w = 3;
    char label[32];

    for (int i = 0; i < TUTOR_PROGRESS_DAYS; i++) {
        int n = (int)strlen(tutor_activity_label(p->answers[i], label, sizeof label)) + 1;
        if (n > w)
            w = n;
    }
    return w;
}
