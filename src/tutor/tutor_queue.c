/* The review queue and the figures that count it: see tutor_queue.h.
 *
 * The schedules are read once into a set of the course's items (a flag per
 * item of each lesson, so "already scheduled?" costs nothing), sorted once
 * with qsort, and the new exercises are taken from the course in order
 * against that set. */
#include "tutor_queue.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store_report.h"

#define DAY       86400
#define WEEK_DAYS 7

/* A scheduled item of the course, with what orders it. */
struct entry {
    struct tutor_item it;
    int64_t due_day;
    double stability;
    const char *lesson_id; /* the lesson's own: it outlives the scan */
    char item_id[96];
};

/* The schedules read back, and which items of each slot they cover. */
struct scan {
    struct lx_course *course;
    uint8_t **seen; /* per slot, allocated when first needed: a flag per item */
    size_t slots;
    struct entry *e;
    size_t n, cap;
    bool oom;
};

static int64_t env_now(const struct tutor_env *env)
{
    return env->wall ? env->wall() : (int64_t)time(NULL);
}

/* An item's place among its lesson's flags: exercises, follow-ups, the
 * question. */
static size_t flag_of(const struct lx_lesson *l, struct tutor_item it)
{
    if (it.part == TUTOR_EXERCISE)
        return it.index;
    if (it.part == TUTOR_FOLLOWUP)
        return l->n_exercises + it.index;
    return l->n_exercises + l->n_followups;
}

static bool scheduled(const struct scan *sc, struct tutor_item it)
{
    /* a slot with flags holds a loaded lesson */
    return it.lesson < sc->slots && sc->seen[it.lesson] &&
           sc->seen[it.lesson][flag_of(lx_course_brief(sc->course, it.lesson), it)];
}

/* Marks the item scheduled; false when it already was (or out of memory,
 * with sc->oom set). */
static bool mark(struct scan *sc, const struct lx_lesson *l, struct tutor_item it)
{
    uint8_t **flags = &sc->seen[it.lesson];
    size_t f = flag_of(l, it);
    if (!*flags && !(*flags = calloc(l->n_exercises + l->n_followups + 1, 1))) {
        sc->oom = true;
        return false;
    }
    if ((*flags)[f])
        return false;
    (*flags)[f] = 1;
    return true;
}

/* One stored schedule: kept when it is an item of a live lesson (a lesson
 * no longer installed, or an item it no longer has, is passed). */
static int add_scheduled(void *ctx, const char *lesson_id, const char *item_id, int64_t due_day,
                         double stability)
{
    struct scan *sc = ctx;
    struct tutor_item it;
    size_t li;
    const struct lx_lesson *l = lx_course_find(sc->course, lesson_id, &li);

    if (!l || li >= sc->slots || !tutor_item_parse(l, item_id, &it))
        return 0;
    it.lesson = li;
    if (!mark(sc, l, it))
        return sc->oom ? 1 : 0;
    if (sc->n == sc->cap) {
        size_t ncap = sc->cap ? sc->cap * 2 : 64;
        void *p = realloc(sc->e, ncap * sizeof *sc->e);
        if (!p) {
            sc->oom = true;
            return 1;
        }
        sc->e = p;
        sc->cap = ncap;
    }
    sc->e[sc->n] =
        (struct entry){.it = it, .due_day = due_day, .stability = stability, .lesson_id = l->id};
    snprintf(sc->e[sc->n].item_id, sizeof sc->e[sc->n].item_id, "%s", item_id);
    sc->n++;
    return 0;
}

/* The review order, a total one: most overdue, least stable, lesson id,
 * item id, then the item's place (which no two entries share). */
static int by_review_order(const void *pa, const void *pb)
{
    const struct entry *a = pa, *b = pb;
    int c;
    if (a->due_day != b->due_day)
        return a->due_day < b->due_day ? -1 : 1;
    if (a->stability != b->stability)
        return a->stability < b->stability ? -1 : 1;
    if ((c = strcmp(a->lesson_id, b->lesson_id)) != 0 || (c = strcmp(a->item_id, b->item_id)) != 0)
        return c;
    if (a->it.lesson != b->it.lesson)
        return a->it.lesson < b->it.lesson ? -1 : 1;
    if (a->it.part != b->it.part)
        return a->it.part < b->it.part ? -1 : 1;
    return a->it.index < b->it.index ? -1 : a->it.index > b->it.index;
}

static void scan_free(struct scan *sc)
{
    for (size_t i = 0; sc->seen && i < sc->slots; i++)
        free(sc->seen[i]);
    free(sc->seen);
    free(sc->e);
    memset(sc, 0, sizeof *sc);
}

static enum kvt_err nomem(struct store_error *err)
{
    *err = (struct store_error){.code = KVT_E_NOMEM};
    snprintf(err->detail, sizeof err->detail, "out of memory");
    return KVT_E_NOMEM;
}

/* Reads every schedule of the learner once, sorted in review order. */
static enum kvt_err scan_schedules(const struct tutor_env *env, int64_t now, struct scan *sc,
                                   struct store_error *err)
{
    enum kvt_err e;
    memset(sc, 0, sizeof *sc);
    sc->course = env->course;
    sc->slots = lx_course_size(env->course);
    if (!(sc->seen = calloc(sc->slots + 1, sizeof *sc->seen)))
        return nomem(err);
    e = store_each_due(env->store, env->learner_id, now, false, add_scheduled, sc, err);
    if (sc->oom)
        e = nomem(err);
    if (e != KVT_E_OK) {
        scan_free(sc);
        return e;
    }
    if (sc->n > 1)
        qsort(sc->e, sc->n, sizeof *sc->e, by_review_order);
    return KVT_E_OK;
}

static bool push(struct tutor_queue *q, size_t *cap, struct tutor_item it)
{
    if (q->n == *cap) {
        size_t ncap = *cap ? *cap * 2 : 32;
        void *p = realloc(q->items, ncap * sizeof *q->items);
        if (!p)
            return false;
        q->items = p;
        *cap = ncap;
    }
    q->items[q->n++] = it;
    return true;
}

bool tutor_waits_for_probe(const struct lx_exercise *x, const struct lx_fact *facts, size_t n)
{
    if (!x->measured)
        return false;
    for (size_t i = 0; i < n; i++)
        if (strcmp(facts[i].name, x->measured) == 0)
            return false;
    return true;
}

/* Appends the new exercises a review today brings: a day's new_per_day,
 * less those first answered today (their one review so far is today's). */
static enum kvt_err add_new(const struct tutor_env *env, const struct scan *sc, int64_t today,
                            const struct lx_fact *facts, size_t n_facts, struct tutor_queue *q,
                            size_t *cap, struct store_error *err)
{
    unsigned added = 0;

    for (size_t i = 0; i < sc->n && added < env->new_per_day; i++) {
        const struct entry *x = &sc->e[i];
        struct store_review r;
        enum kvt_err e;
        if (x->it.part != TUTOR_EXERCISE)
            continue;
        e = store_review_get(env->store, env->learner_id, x->lesson_id, x->item_id, &r, err);
        if (e == KVT_E_DB_NOT_FOUND)
            continue;
        if (e != KVT_E_OK)
            return e;
        if (r.card.reps == 1 && r.last_review / DAY == today)
            added++;
    }
    for (size_t li = 0; li < sc->slots && added < env->new_per_day; li++) {
        /* the brief is enough: ids, kinds and measured figures */
        const struct lx_lesson *l = lx_course_brief(env->course, li);
        if (!lx_course_live(env->course, li))
            continue;
        for (size_t i = 0; i < l->n_exercises && added < env->new_per_day; i++) {
            struct tutor_item it = {li, TUTOR_EXERCISE, i};
            if (scheduled(sc, it) || tutor_waits_for_probe(&l->exercises[i], facts, n_facts))
                continue; /* a measured one waits for the learner's first probe run */
            if (!push(q, cap, it))
                return nomem(err);
            added++;
        }
    }
    return KVT_E_OK;
}

/* A review asks its lessons whole: each is loaded now (lx_course_at), and
 * an item its loaded lesson lacks (the file failed, or changed since its
 * brief) is left out, as it would have been had the file been read at
 * start. */
static void load_queued(struct lx_course *c, struct tutor_queue *q)
{
    size_t kept = 0, due = 0;
    for (size_t i = 0; i < q->n; i++) {
        struct tutor_item it = q->items[i];
        const struct lx_lesson *l = lx_course_at(c, it.lesson);
        bool ok = l && lx_course_live(c, it.lesson) &&
                  (it.part == TUTOR_EXERCISE   ? it.index < l->n_exercises
                   : it.part == TUTOR_FOLLOWUP ? it.index < l->n_followups
                                               : l->n_points > 0);
        if (!ok)
            continue;
        due += i < q->n_due;
        q->items[kept++] = it;
    }
    q->n = kept;
    q->n_due = due;
}

enum kvt_err tutor_queue_review(const struct tutor_env *env, bool cram, int64_t now,
                                const struct lx_fact *facts, size_t n_facts,
                                struct tutor_queue *out, struct store_error *err)
{
    struct scan sc;
    int64_t today = now / DAY;
    size_t cap = 0;
    enum kvt_err e;

    *out = (struct tutor_queue){0};
    err->code = KVT_E_OK;
    if (!env->store || !env->course)
        return KVT_E_OK;
    if ((e = scan_schedules(env, now, &sc, err)) != KVT_E_OK)
        return e;
    /* sorted by due day first: the due ones are the front */
    for (size_t i = 0; i < sc.n && (cram || sc.e[i].due_day <= today); i++) {
        if (!push(out, &cap, sc.e[i].it)) {
            e = nomem(err);
            break;
        }
    }
    out->n_due = out->n;
    if (e == KVT_E_OK && !cram && env->new_per_day > 0)
        e = add_new(env, &sc, today, facts, n_facts, out, &cap, err);
    scan_free(&sc);
    if (e == KVT_E_OK)
        load_queued(env->course, out);
    if (e != KVT_E_OK)
        tutor_queue_free(out);
    return e;
}

void tutor_queue_free(struct tutor_queue *q)
{
    free(q->items);
    *q = (struct tutor_queue){0};
}

enum kvt_err tutor_review_counts(const struct tutor_env *env, struct tutor_review_counts *total,
                                 struct tutor_review_counts *by_slot, struct store_error *err)
{
    struct lx_fact own[3];
    const struct lx_fact *facts = env->facts;
    size_t n_facts = env->n_facts, slots = env->course ? lx_course_size(env->course) : 0, cap = 0;
    int64_t now = env_now(env), today = now / DAY;
    struct tutor_queue fresh = {0};
    struct scan sc;
    enum kvt_err e;

    *total = (struct tutor_review_counts){0};
    if (by_slot)
        memset(by_slot, 0, slots * sizeof *by_slot);
    err->code = KVT_E_OK;
    if (!env->store || !env->course)
        return KVT_E_OK;
    if (!env->facts_given) {
        n_facts = tutor_measured_facts(env->store, env->learner_id, own);
        facts = own;
    } else if (n_facts > 3) {
        n_facts = 3; /* as a session takes them */
    }
    if ((e = scan_schedules(env, now, &sc, err)) != KVT_E_OK)
        return e;
    if (env->new_per_day > 0)
        e = add_new(env, &sc, today, facts, n_facts, &fresh, &cap, err);
    if (e == KVT_E_OK) {
        for (size_t i = 0; i < sc.n; i++) {
            const struct entry *x = &sc.e[i];
            bool now_due = x->due_day <= today, week = x->due_day <= today + WEEK_DAYS;
            total->due_now += now_due;
            total->due_week += week;
            if (by_slot) {
                by_slot[x->it.lesson].due_now += now_due;
                by_slot[x->it.lesson].due_week += week;
            }
        }
        total->new_today = fresh.n;
        for (size_t i = 0; by_slot && i < fresh.n; i++)
            by_slot[fresh.items[i].lesson].new_today++;
    }
    tutor_queue_free(&fresh);
    scan_free(&sc);
    if (e != KVT_E_OK && by_slot)
        memset(by_slot, 0, slots * sizeof *by_slot);
    if (e != KVT_E_OK)
        *total = (struct tutor_review_counts){0};
    return e;
}
