/* The course catalogue: lessons in course order, shadowing by id, lookup,
 * numbering within a module and prerequisites. */
#define _POSIX_C_SOURCE 200809L
#include "lx_course.h"

#include "lx_brief.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>

struct course_module {
    const char *name, *title; /* title: the first live module_title given, else name */
    size_t lessons;           /* live lessons met so far: the next one's number - 1 */
};

struct lx_course {
    struct lx_opts opts;
    char **paths;
    /* NULL: not loaded yet, or failed; else the lesson, or its brief
     * (lx_brief.h) until it is loaded */
    struct lx_lesson **lessons;
    bool *tried;
    /* per slot, the id its file's text writes (lx_peek_id): "" when it
     * writes none, NULL until peeked */
    char **peeked;
    /* The index, worked out once for all slots when first asked after a
     * change (the map asks for every row, often, and a row asks for its
     * prerequisites' numbers and modules: without it a draw of 100 lessons
     * is quadratic). live[n] says whether the rest is known. */
    bool *live;     /* per slot: loaded and not shadowed */
    size_t *number; /* per slot: its number in its module, 0 when not live */
    size_t *by_id;  /* open addressing over lesson ids: the last slot with
                     * each id, SIZE_MAX where empty; by_id_cap entries */
    size_t by_id_cap;
    struct course_module *mods; /* the live lessons' modules, in course order */
    size_t nmods;
    bool settled; /* every slot is loaded, briefed or tried: lookup by id
                   * needs no file read, and by_id answers it */
    size_t n;
    lx_course_loaded_fn *on_load;
    void *on_load_ctx;
    void (*on_load_free)(void *);
};

struct lx_course *lx_course_new(char *const *paths, size_t n, const struct lx_opts *opts)
{
    struct lx_course *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->opts = *opts;
    c->paths = calloc(n ? n : 1, sizeof *c->paths);
    c->lessons = calloc(n ? n : 1, sizeof *c->lessons);
    c->tried = calloc(n ? n : 1, sizeof *c->tried);
    c->peeked = calloc(n ? n : 1, sizeof *c->peeked);
    c->live = calloc(n + 1, sizeof *c->live);
    c->number = calloc(n ? n : 1, sizeof *c->number);
    c->mods = calloc(n ? n : 1, sizeof *c->mods);
    for (c->by_id_cap = 8; c->by_id_cap < 2 * n; c->by_id_cap *= 2)
        ;
    c->by_id = malloc(c->by_id_cap * sizeof *c->by_id);
    if (!c->paths || !c->lessons || !c->tried || !c->peeked || !c->live || !c->number || !c->mods ||
        !c->by_id) {
        lx_course_free(c);
        return NULL;
    }
    for (; c->n < n; c->n++) {
        if (!(c->paths[c->n] = strdup(paths[c->n]))) {
            lx_course_free(c);
            return NULL;
        }
    }
    return c;
}

void lx_course_free(struct lx_course *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n; i++) {
        free(c->paths[i]);
        free(c->peeked[i]);
        lx_free(c->lessons[i]);
    }
    free(c->peeked);
    free(c->paths);
    free(c->lessons);
    free(c->tried);
    free(c->live);
    free(c->number);
    free(c->mods);
    free(c->by_id);
    if (c->on_load_free)
        c->on_load_free(c->on_load_ctx);
    free(c);
}

size_t lx_course_size(const struct lx_course *c)
{
    return c->n;
}

const char *lx_course_path(const struct lx_course *c, size_t i)
{
    return i < c->n ? c->paths[i] : NULL;
}

/* Loads slot i (const: the slot arrays are the course's cache, and a
 * query that needs the whole lesson fills them on first need). */
static enum kvt_err load_slot(const struct lx_course *c, size_t i, struct lx_report *rep)
{
    struct lx_report own = {0};
    struct lx_lesson *brief, *full = NULL;
    enum kvt_err rc;

    if (i >= c->n)
        return KVT_E_RANGE;
    if (c->tried[i])
        return c->lessons[i] ? KVT_E_OK : KVT_E_PARSE;
    c->tried[i] = true;
    c->live[c->n] = false;
    brief = c->lessons[i];
    rc = lx_load(c->paths[i], &c->opts, &full, rep ? rep : &own);
    lx_report_free(&own);
    /* a brief's file that no longer loads leaves the course, as it would
     * have at start */
    c->lessons[i] = full;
    if (brief && c->on_load)
        c->on_load(c->on_load_ctx, (struct lx_course *)c, i, brief);
    lx_free(brief);
    return rc;
}

enum kvt_err lx_course_load(struct lx_course *c, size_t i, struct lx_report *rep)
{
    return load_slot(c, i, rep);
}

void lx_course_put_brief(struct lx_course *c, size_t i, struct lx_lesson *brief)
{
    if (i >= c->n) {
        lx_free(brief);
        return;
    }
    lx_free(c->lessons[i]);
    c->lessons[i] = brief;
    c->tried[i] = false;
    c->live[c->n] = false;
}

void lx_course_on_load(struct lx_course *c, lx_course_loaded_fn *fn, void *ctx,
                       void (*free_ctx)(void *))
{
    if (c->on_load_free)
        c->on_load_free(c->on_load_ctx);
    c->on_load = fn;
    c->on_load_ctx = ctx;
    c->on_load_free = free_ctx;
}

struct lx_lesson *lx_course_at(const struct lx_course *c, size_t i)
{
    if (i >= c->n)
        return NULL;
    if (lx_is_brief(c->lessons[i]))
        load_slot(c, i, NULL);
    return c->lessons[i];
}

struct lx_lesson *lx_course_brief(const struct lx_course *c, size_t i)
{
    return i < c->n ? c->lessons[i] : NULL;
}

bool lx_course_loaded(const struct lx_course *c, size_t i)
{
    return i < c->n && c->lessons[i] && !lx_is_brief(c->lessons[i]);
}

struct lx_lesson *lx_course_take(struct lx_course *c, size_t i)
{
    struct lx_lesson *l = lx_course_at(c, i);
    if (l) {
        c->lessons[i] = NULL;
        c->live[c->n] = false;
    }
    return l;
}

void lx_course_replace(struct lx_course *c, size_t i, struct lx_lesson *fresh)
{
    if (i >= c->n)
        return;
    lx_free(c->lessons[i]);
    c->lessons[i] = fresh;
    c->tried[i] = true;
    c->live[c->n] = false;
}

static size_t hash_id(const char *id) /* FNV-1a */
{
    uint64_t h = 14695981039346656037u;
    for (; *id; id++)
        h = (h ^ (unsigned char)*id) * 1099511628211u;
    return (size_t)h;
}

/* by_id's entry for id: the slot holding it, or the empty entry where it
 * would go. */
static size_t *id_entry(const struct lx_course *c, const char *id)
{
    size_t mask = c->by_id_cap - 1;
    for (size_t h = hash_id(id) & mask;; h = (h + 1) & mask)
        if (c->by_id[h] == SIZE_MAX || strcmp(c->lessons[c->by_id[h]]->id, id) == 0)
            return &c->by_id[h];
}

/* Works out the index (struct lx_course) unless it is known. The ids
 * fill by_id from the end, so the first slot an id is met at is the last
 * file with it: the live one (later files shadow earlier). by_id_cap is at
 * least twice the slots, so the probe always ends. */
static void index_course(const struct lx_course *c)
{
    struct lx_course *m = (struct lx_course *)c; /* the index is a cache */

    if (c->live[c->n])
        return;
    m->settled = true;
    for (size_t h = 0; h < c->by_id_cap; h++)
        c->by_id[h] = SIZE_MAX;
    for (size_t i = c->n; i-- > 0;) {
        size_t *e;
        c->live[i] = false;
        if (!c->lessons[i]) {
            m->settled = m->settled && c->tried[i];
            continue;
        }
        if (*(e = id_entry(c, c->lessons[i]->id)) == SIZE_MAX)
            *e = i, c->live[i] = true;
    }
    m->nmods = 0;
    for (size_t i = 0; i < c->n; i++) {
        const struct lx_lesson *l = c->lessons[i];
        size_t k = 0;
        c->number[i] = 0;
        if (!c->live[i])
            continue;
        while (k < c->nmods && strcmp(c->mods[k].name, l->module) != 0)
            k++;
        if (k == c->nmods)
            c->mods[m->nmods++] = (struct course_module){l->module, l->module, 0};
        if (c->mods[k].title == c->mods[k].name && l->module_title)
            c->mods[k].title = l->module_title;
        c->number[i] = ++c->mods[k].lessons; /* from 1 in course order */
    }
    c->live[c->n] = true;
}

/* Whether slot i's file may hold lesson `id`: its text writes that id, or
 * it could not be peeked for want of memory (then it is loaded to see). */
static bool may_hold(struct lx_course *c, size_t i, const char *id)
{
    if (!c->peeked[i]) {
        char buf[256];
        bool found = lx_peek_id(c->paths[i], buf, sizeof buf);
        if (!(c->peeked[i] = strdup(found ? buf : "")))
            return true;
    }
    return strcmp(c->peeked[i], id) == 0;
}

struct lx_lesson *lx_course_find(struct lx_course *c, const char *id, size_t *index)
{
    index_course(c);
    if (c->settled) {
        size_t at = *id_entry(c, id);
        if (at == SIZE_MAX)
            return NULL;
        if (index)
            *index = at;
        return c->lessons[at];
    }
    /* later files shadow earlier ones: search from the end (a brief already
     * knows its id), loading only a file whose text writes this id */
    for (size_t i = c->n; i-- > 0;) {
        if (!c->lessons[i] && !c->tried[i] && may_hold(c, i, id))
            lx_course_load(c, i, NULL);
        if (c->lessons[i] && strcmp(c->lessons[i]->id, id) == 0) {
            if (index)
                *index = i;
            return c->lessons[i];
        }
    }
    return NULL;
}

bool lx_course_live(const struct lx_course *c, size_t i)
{
    if (i >= c->n)
        return false;
    index_course(c);
    return c->live[i];
}

size_t lx_course_number(const struct lx_course *c, size_t i)
{
    if (i >= c->n)
        return 0;
    index_course(c);
    return c->number[i];
}

enum lx_requirement lx_course_requirement(struct lx_course *c, size_t i, size_t k, size_t *at)
{
    const struct lx_lesson *l = lx_course_brief(c, i), *req;
    size_t where = SIZE_MAX;

    if (!l || k >= l->n_requires || !(req = lx_course_find(c, l->requires[k], &where)))
        return LX_REQ_MISSING;
    if (at)
        *at = where;
    /* the map lists a module in course order: a prerequisite placed after
     * its lesson would be met second */
    return where > i && strcmp(req->module, l->module) == 0 ? LX_REQ_LATER : LX_REQ_MET;
}

void lx_course_requires_text(struct lx_course *c, const struct lx_lesson *l, const char *lead,
                             char *out, size_t cap)
{
    size_t used = 0;
    if (cap)
        out[0] = '\0';
    for (size_t k = 0; k < l->n_requires && used < cap; k++) {
        const struct lx_lesson *req = lx_course_find(c, l->requires[k], NULL);
        int w = snprintf(out + used, cap - used, "%s%s", k ? " · " : lead,
                         req ? req->title : l->requires[k]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

/* snprintf onto out at *used, keeping *used within cap */
static void after_add(char *out, size_t cap, size_t *used, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void after_add(char *out, size_t cap, size_t *used, const char *fmt, ...)
{
    va_list ap;
    int w;
    if (*used >= cap)
        return;
    va_start(ap, fmt);
    w = vsnprintf(out + *used, cap - *used, fmt, ap);
    va_end(ap);
    if (w > 0)
        *used = *used + (size_t)w < cap ? *used + (size_t)w : cap;
}

/* The part of a module's title before " · " ("Part 0" of "Part 0 ·
 * Foundations"), else the whole title. */
static void short_title(struct lx_course *c, const char *module, char *out, size_t cap)
{
    const char *t = lx_course_module_title(c, module), *dot = strstr(t, " \xc2\xb7 ");
    snprintf(out, cap, "%.*s", dot ? (int)(dot - t) : (int)strlen(t), t);
}

/* A module's name on a row: its short title, or its whole title when
 * another module's short title reads the same (an instructor's "Part 1 ·
 * Beyond" beside the bundled "Part 1 · Serving ..."). */
static void module_label(struct lx_course *c, const char *module, char *out, size_t cap)
{
    char other[128];
    short_title(c, module, out, cap);
    index_course(c);
    for (size_t k = 0; k < c->nmods; k++) {
        if (strcmp(c->mods[k].name, module) == 0)
            continue;
        short_title(c, c->mods[k].name, other, sizeof other);
        if (strcmp(other, out) == 0) {
            snprintf(out, cap, "%s", lx_course_module_title(c, module));
            return;
        }
    }
}

/* The module of l's k-th prerequisite and its number there (*num); NULL
 * when no lesson has that id. */
static const char *req_module(struct lx_course *c, const struct lx_lesson *l, size_t k, size_t *num)
{
    size_t at = SIZE_MAX;
    const struct lx_lesson *r = lx_course_find(c, l->requires[k], &at);
    if (num)
        *num = r ? lx_course_number(c, at) : 0;
    return r ? r->module : NULL;
}

/* The numbers of l's prerequisites in `module`, smallest first ("3,5,11"). */
static void after_numbers(struct lx_course *c, const struct lx_lesson *l, const char *module,
                          char *out, size_t cap, size_t *used)
{
    const char *sep = "";
    for (size_t last = 0;;) {
        size_t best = SIZE_MAX, num;
        for (size_t k = 0; k < l->n_requires; k++) {
            const char *m = req_module(c, l, k, &num);
            if (m && strcmp(m, module) == 0 && num > last && num < best)
                best = num;
        }
        if (best == SIZE_MAX)
            return;
        after_add(out, cap, used, "%s%zu", sep, best);
        sep = ",", last = best;
    }
}

void lx_course_after_text(struct lx_course *c, const struct lx_lesson *l, char *out, size_t cap)
{
    size_t used = 0;
    const char *mod;

    if (cap)
        out[0] = '\0';
    /* the lesson's own module first, by number ("after 2,4") */
    for (size_t k = 0; k < l->n_requires; k++)
        if ((mod = req_module(c, l, k, NULL)) && strcmp(mod, l->module) == 0) {
            after_add(out, cap, &used, "after ");
            after_numbers(c, l, l->module, out, cap, &used);
            break;
        }
    /* then each other module, in the order the lesson first names it, by
     * its short name and the numbers its rows show ("Part 0: 3,5,11") */
    for (size_t k = 0; k < l->n_requires; k++) {
        char label[128];
        bool seen = false;
        if (!(mod = req_module(c, l, k, NULL)) || strcmp(mod, l->module) == 0)
            continue;
        for (size_t j = 0; j < k && !seen; j++) {
            const char *mj = req_module(c, l, j, NULL);
            seen = mj && strcmp(mj, mod) == 0;
        }
        if (seen)
            continue;
        module_label(c, mod, label, sizeof label);
        after_add(out, cap, &used, "%s%s: ", used ? "; " : "after ", label);
        after_numbers(c, l, mod, out, cap, &used);
    }
    /* an id no lesson has (lint refuses it), as it is written */
    for (size_t k = 0; k < l->n_requires; k++)
        if (!req_module(c, l, k, NULL))
            after_add(out, cap, &used, "%s%s", used ? "; " : "after ", l->requires[k]);
}

void lx_course_ids_text(const struct lx_course *c, char *out, size_t cap)
{
    size_t used = 0;
    if (cap)
        out[0] = '\0';
    for (size_t i = 0; i < c->n && used < cap; i++) {
        int w;
        if (!lx_course_live(c, i))
            continue;
        w = snprintf(out + used, cap - used, "%s%s", used ? ", " : "", c->lessons[i]->id);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

const char *lx_course_module_title(struct lx_course *c, const char *module)
{
    index_course(c);
    for (size_t k = 0; k < c->nmods; k++)
        if (strcmp(c->mods[k].name, module) == 0)
            return c->mods[k].title;
    return module;
}

const char *lx_course_concept_title(struct lx_course *c, const char *concept)
{
    const char *first = NULL;
    for (size_t i = 0; concept && i < lx_course_size(c); i++) {
        const struct lx_lesson *l = lx_course_live(c, i) ? lx_course_brief(c, i) : NULL;
        if (!l || strcmp(l->concept, concept) != 0)
            continue;
        if (l->concept_title)
            return l->concept_title;
        if (!first)
            first = l->title;
    }
    return first;
}
