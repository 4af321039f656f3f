/* Opening and reloading the course. The sync comes after every file is
 * loaded, not file by file: whether a lesson is live (and so synced)
 * depends on the files after it. */
#include "tutor_course.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lx_brief.h"
#include "store_brief.h"
#include "tutor_load.h"
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

/* The briefs kept in the database, read once: the rows of this engine. */
struct kept {
    struct store_brief_row *rows;
    size_t n, cap;
    const char *engine;
    bool oom;
};

static char *dup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

static int keep_row(void *ctx, const struct store_brief_row *r)
{
    struct kept *k = ctx;
    struct store_brief_row *to;
    if (strcmp(r->engine, k->engine) != 0)
        return 0; /* another program or DSL made it: it proves nothing here */
    if (k->n == k->cap) {
        size_t cap = k->cap ? k->cap * 2 : 64;
        void *p = realloc(k->rows, cap * sizeof *k->rows);
        if (!p) {
            k->oom = true;
            return 1;
        }
        k->rows = p;
        k->cap = cap;
    }
    to = &k->rows[k->n];
    *to = (struct store_brief_row){dup(r->path),  dup(r->content_hash), k->engine,
                                   dup(r->brief), dup(r->fingerprints), dup(r->file_stamp)};
    if (!to->path || !to->content_hash || !to->brief || !to->fingerprints || !to->file_stamp) {
        free((char *)to->path), free((char *)to->content_hash), free((char *)to->brief);
        free((char *)to->fingerprints), free((char *)to->file_stamp);
        k->oom = true;
        return 1;
    }
    k->n++;
    return 0;
}

static void kept_free(struct kept *k)
{
    for (size_t i = 0; i < k->n; i++) {
        free((char *)k->rows[i].path);
        free((char *)k->rows[i].content_hash);
        free((char *)k->rows[i].brief);
        free((char *)k->rows[i].fingerprints);
        free((char *)k->rows[i].file_stamp);
    }
    free(k->rows);
}

/* The row of path whose file stamp is this one (a stamp kept only for a
 * settled file: lx_file_stamp), so its hash holds without reading. */
static const struct store_brief_row *kept_stamped(const struct kept *k, const char *path,
                                                  const char *stamp)
{
    for (size_t i = 0; i < k->n; i++)
        if (k->rows[i].file_stamp[0] && strcmp(k->rows[i].path, path) == 0 &&
            strcmp(k->rows[i].file_stamp, stamp) == 0)
            return &k->rows[i];
    return NULL;
}

static const struct store_brief_row *kept_find(const struct kept *k, const char *path,
                                               const char *hash)
{
    for (size_t i = 0; i < k->n; i++)
        if (strcmp(k->rows[i].path, path) == 0 && strcmp(k->rows[i].content_hash, hash) == 0)
            return &k->rows[i];
    return NULL;
}

/* The shipped rows, asked for once an opening and only when needed. */
struct shipped_rows {
    bool asked;
    const struct store_brief_row *rows;
    size_t n;
};

/* A shipped row for these bytes, made by this program and DSL: wherever
 * the file now lies, the same bytes load to the same brief. */
static const struct store_brief_row *shipped_find(const struct tutor_course_open *o,
                                                  struct shipped_rows *sh, const char *engine,
                                                  const char *hash)
{
    if (!o->shipped || !o->shipped->rows)
        return NULL;
    if (!sh->asked) {
        sh->asked = true;
        sh->rows = o->shipped->rows(o->shipped->ctx, &sh->n);
        if (!sh->rows)
            sh->n = 0;
    }
    for (size_t i = 0; i < sh->n; i++) {
        const struct store_brief_row *r = &sh->rows[i];
        if (r->content_hash && r->engine && r->brief && r->fingerprints &&
            strcmp(r->content_hash, hash) == 0 && strcmp(r->engine, engine) == 0)
            return r;
    }
    return NULL;
}

/* The items of a lesson in sync order: exercises, follow-ups, the question. */
static size_t n_items(const struct lx_lesson *l)
{
    return l->n_exercises + l->n_followups + 1;
}

static struct tutor_item item_at(const struct lx_lesson *l, size_t i)
{
    if (i < l->n_exercises)
        return (struct tutor_item){0, TUTOR_EXERCISE, i};
    if (i < l->n_exercises + l->n_followups)
        return (struct tutor_item){0, TUTOR_FOLLOWUP, i - l->n_exercises};
    return (struct tutor_item){0, TUTOR_QUESTION, 0};
}

#define FP_LINE 34 /* "content answer\n": 16 + 1 + 16 + 1 */

/* The fingerprints of a loaded lesson as kept: one line an item. */
static char *fingerprints_text(struct lx_lesson *l)
{
    size_t n = n_items(l);
    char *t = malloc(n * FP_LINE + 1), *w = t;
    for (size_t i = 0; t && i < n; i++) {
        struct tutor_fingerprint fp;
        tutor_fingerprint(l, item_at(l, i), &fp);
        w += snprintf(w, FP_LINE + 1, "%s %s\n", fp.content, fp.answer);
    }
    return t;
}

/* A kept text fits the brief: one well-formed line for each of its items. */
static bool fingerprints_fit(const struct lx_lesson *brief, const char *t)
{
    size_t n = n_items(brief);
    if (strlen(t) != n * FP_LINE)
        return false;
    for (const char *line = t; line < t + n * FP_LINE; line += FP_LINE) {
        if (line[16] != ' ' || line[33] != '\n')
            return false;
        for (size_t at = 0; at < 33; at += at == 15 ? 2 : 1)
            if (!((line[at] >= '0' && line[at] <= '9') || (line[at] >= 'a' && line[at] <= 'f')))
                return false;
    }
    return true;
}

/* A schedule's stored fingerprints, read once for the whole course. */
struct stored {
    char *lesson_id, *item_id;
    char content[17], answer[17];
};

struct stored_set {
    struct stored *e;
    size_t n, cap;
    bool oom;
};

static int keep_stored(void *ctx, const char *lesson_id, const char *item_id, const char *content,
                       const char *answer)
{
    struct stored_set *s = ctx;
    struct stored *to;
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 128;
        void *p = realloc(s->e, cap * sizeof *s->e);
        if (!p) {
            s->oom = true;
            return 1;
        }
        s->e = p;
        s->cap = cap;
    }
    to = &s->e[s->n];
    to->lesson_id = dup(lesson_id);
    to->item_id = dup(item_id);
    snprintf(to->content, sizeof to->content, "%s", content);
    snprintf(to->answer, sizeof to->answer, "%s", answer);
    if (!to->lesson_id || !to->item_id) {
        free(to->lesson_id);
        free(to->item_id);
        s->oom = true;
        return 1;
    }
    s->n++;
    return 0;
}

static void stored_free(struct stored_set *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->e[i].lesson_id);
        free(s->e[i].item_id);
    }
    free(s->e);
}

static int by_ids(const void *pa, const void *pb)
{
    const struct stored *a = pa, *b = pb;
    int c = strcmp(a->lesson_id, b->lesson_id);
    return c ? c : strcmp(a->item_id, b->item_id);
}

/* by lesson alone: the set is sorted by_ids, so its lessons are in order */
static int by_lesson(const void *pa, const void *pb)
{
    return strcmp(((const struct stored *)pa)->lesson_id, ((const struct stored *)pb)->lesson_id);
}

static const struct stored *stored_find(const struct stored_set *s, const char *lesson_id,
                                        const char *item_id)
{
    struct stored key = {.lesson_id = (char *)lesson_id, .item_id = (char *)item_id};
    return s->n ? bsearch(&key, s->e, s->n, sizeof *s->e, by_ids) : NULL;
}

/* Syncs lesson i from its kept fingerprints, as tutor_sync_lesson would
 * from the loaded lesson: store_sync_exercise is called for every item
 * whose stored fingerprints it would change (a schedule with none, or
 * other ones); an item without a schedule, or with these same ones, it
 * leaves as it is, so neither is asked. */
static enum kvt_err sync_kept(struct lx_course *c, size_t i, const char *fps,
                              const struct stored_set *have, const struct tutor_course_open *o,
                              struct tutor_course_result *r)
{
    const struct lx_lesson *l = lx_course_brief(c, i);
    struct stored key = {.lesson_id = (char *)l->id};
    /* most lessons of a course have no schedule yet: ask once a lesson */
    if (!have->n || !bsearch(&key, have->e, have->n, sizeof *have->e, by_lesson))
        return KVT_E_OK;
    for (size_t k = 0; k < n_items(l); k++) {
        char id[128], content[17], answer[17];
        const struct stored *st;
        enum store_sync s;
        enum kvt_err e;
        tutor_item_id(l, item_at(l, k), id, sizeof id);
        if (!(st = stored_find(have, l->id, id)))
            continue;
        memcpy(content, fps + k * FP_LINE, 16);
        memcpy(answer, fps + k * FP_LINE + 17, 16);
        content[16] = answer[16] = '\0';
        if (st->content[0] && strcmp(st->content, content) == 0 &&
            (!st->answer[0] || strcmp(st->answer, answer) == 0))
            continue;
        e = store_sync_exercise(o->store, o->learner_id, l->id, id, content, answer, &s, &r->err);
        if (e != KVT_E_OK) {
            r->sync_stuck = l->id;
            return e;
        }
        r->restarted += s == STORE_SYNC_RESTARTED;
    }
    return KVT_E_OK;
}

/* What a lesson loaded on first need is checked for: the schedules of a
 * file that changed after its brief was made (the sync at start used the
 * old fingerprints). */
struct watch {
    struct store *store;
    int64_t learner_id;
};

static void loaded_late(void *ctx, struct lx_course *c, size_t i, const struct lx_lesson *was)
{
    struct watch *w = ctx;
    struct lx_lesson *l = lx_course_brief(c, i);
    if (l && strcmp(l->hash, was->hash) != 0 && lx_course_live(c, i) && !store_readonly(w->store)) {
        struct store_error err;
        tutor_sync_lesson(w->store, w->learner_id, l, NULL, &err);
    }
}

/* The program and DSL that load the lessons, as one text. */
static bool engine_of(const struct tutor_course_open *o, const struct lx_opts *lx, char *out,
                      size_t cap)
{
    char dsl[17];
    if ((!o->store && !o->keep) || !o->build || !lx_dsl_hash(lx, dsl))
        return false;
    return snprintf(out, cap, "%s dsl:%s", o->build, dsl) < (int)cap;
}

/* What a load on a worker thread makes of a lesson that is kept as a
 * brief: the brief's text, the brief, its fingerprints; the lesson itself
 * is freed there (its sandbox's memory given back). Where memory runs out
 * the whole lesson stays, as the course then holds it. */
struct made {
    char *text, *fps, *hash;
    struct lx_lesson *brief;
};

static void make_brief(struct tutor_load_job *job, void *ctx)
{
    struct made *m = calloc(1, sizeof *m);
    (void)ctx;
    if (!m)
        return;
    m->text = lx_brief_encode(job->lesson);
    m->brief = m->text ? lx_brief_decode(job->path, job->lesson->hash, m->text) : NULL;
    m->fps = fingerprints_text(job->lesson);
    m->hash = dup(job->lesson->hash);
    if (!m->brief || !m->fps || !m->hash) {
        lx_free(m->brief);
        free(m->text), free(m->fps), free(m->hash);
        free(m);
        return;
    }
    lx_free(job->lesson);
    job->lesson = NULL;
    job->made = m;
}

static void job_free(struct tutor_load_job *job)
{
    struct made *m = job->made;
    lx_report_free(&job->rep);
    lx_free(job->lesson);
    if (m) {
        lx_free(m->brief);
        free(m->text), free(m->fps), free(m->hash);
        free(m);
    }
}

enum kvt_err tutor_course_open(char *const *paths, size_t n, const struct tutor_course_open *o,
                               struct lx_course **out, struct tutor_course_result *r)
{
    struct lx_opts lx;
    struct lx_course *c;
    enum kvt_err e = KVT_E_OK;
    char engine[600];
    struct kept kept = {0};
    struct shipped_rows sh = {0};
    struct stored_set have = {0};
    struct store_brief_row *fresh = NULL;
    struct tutor_load_job *jobs = NULL;
    struct tutor_loader *ld = NULL;
    char **fps = NULL;
    char(*stamps)[LX_STAMP_CAP] = NULL;
    int64_t now = o->now ? o->now : (int64_t)time(NULL);
    size_t n_fresh = 0, n_jobs = 0;
    bool briefs;

    memset(r, 0, sizeof *r);
    if (o->lx)
        lx = *o->lx;
    else
        lx_default_opts(&lx);
    *out = c = lx_course_new(paths, n, &lx);
    if (!c)
        return KVT_E_NOMEM;
    if (!(jobs = calloc(n + 1, sizeof *jobs))) {
        lx_course_free(c);
        *out = NULL;
        return KVT_E_NOMEM;
    }
    briefs = engine_of(o, &lx, engine, sizeof engine) &&
             (fps = calloc(n + 1, sizeof *fps)) != NULL &&
             (fresh = calloc(n + 1, sizeof *fresh)) != NULL &&
             (stamps = calloc(n + 1, sizeof *stamps)) != NULL;
    if (briefs) {
        struct store_error ignored;
        kept.engine = engine;
        /* a database that cannot give its briefs is opened the long way */
        if (o->store &&
            (store_brief_each(o->store, keep_row, &kept, &ignored) != KVT_E_OK || kept.oom))
            kept.n = 0;
    }
    /* the files whose briefs are kept take no time; the others are run,
     * several at once, and taken back in course order */
    for (size_t i = 0; briefs && i < n; i++) {
        char hash[17];
        const struct store_brief_row *row = NULL;
        struct lx_lesson *l;
        bool settled = false, by_stamp = false, from_shipped = false;

        /* the stamp first: a file whose stamp is kept is not read */
        if (lx_file_stamp(paths[i], now, stamps[i], &settled) && settled &&
            (row = kept_stamped(&kept, paths[i], stamps[i])) != NULL)
            by_stamp = true;
        else if (lx_file_hash(paths[i], hash) && !(row = kept_find(&kept, paths[i], hash)))
            from_shipped = (row = shipped_find(o, &sh, engine, hash)) != NULL;
        if (!settled)
            stamps[i][0] = '\0'; /* proves nothing: the next start hashes it again */
        if (row && (l = lx_brief_decode(paths[i], row->content_hash, row->brief)) != NULL) {
            if (fingerprints_fit(l, row->fingerprints) && (fps[i] = dup(row->fingerprints))) {
                struct lx_report rep = {0};
                lx_course_put_brief(c, i, l);
                if (o->after)
                    o->after(o->ctx, i, KVT_E_OK, &rep);
                /* the same bytes under a new stamp (a checkout, a copy):
                 * the row is kept again with it, so the next start reads
                 * nothing; a shipped row is kept for its path even without */
                if (!by_stamp && (stamps[i][0] || from_shipped)) {
                    char *h = dup(row->content_hash), *t = dup(row->brief);
                    if (h && t)
                        fresh[n_fresh++] =
                            (struct store_brief_row){paths[i], h, engine, t, fps[i], stamps[i]};
                    else
                        free(h), free(t);
                }
                continue;
            }
            lx_free(l);
        }
        jobs[n_jobs++] = (struct tutor_load_job){.path = paths[i], .slot = i};
    }
    for (size_t i = 0; !briefs && i < n; i++)
        jobs[n_jobs++] = (struct tutor_load_job){.path = paths[i], .slot = i};
    if (n_jobs &&
        !(ld = tutor_load_start(jobs, n_jobs, &lx, o->threads, briefs ? make_brief : NULL, NULL)))
        e = KVT_E_NOMEM;
    for (size_t k = 0; ld && k < n_jobs && !stopped(o); k++) {
        struct tutor_load_job *job = &jobs[k];
        struct made *m;
        size_t i = job->slot;

        /* the progress line counts the files run: a brief takes no time */
        if (o->before)
            o->before(o->ctx, i, n);
        if (!tutor_load_wait(ld, k))
            break;
        r->run++;
        if (job->e != KVT_E_OK)
            r->failed++;
        if (o->after)
            o->after(o->ctx, i, job->e, &job->rep);
        if (job->e != KVT_E_OK) {
            lx_course_replace(c, i, NULL); /* tried, and failed: said once */
            continue;
        }
        if (!(m = job->made)) {
            /* no brief kept (no database, or out of memory): the whole lesson */
            lx_course_replace(c, i, job->lesson);
            job->lesson = NULL;
            continue;
        }
        /* kept for the next start; the lesson waits, as a brief, until it
         * is needed */
        fps[i] = m->fps;
        fresh[n_fresh++] =
            (struct store_brief_row){paths[i], m->hash, engine, m->text, m->fps, stamps[i]};
        lx_course_put_brief(c, i, m->brief);
        m->fps = m->hash = m->text = NULL;
        m->brief = NULL;
    }
    tutor_load_end(ld);
    for (size_t k = 0; k < n_jobs; k++)
        job_free(&jobs[k]);
    free(jobs);
    if (e != KVT_E_OK) {
        for (size_t i = 0; i < n_fresh; i++) {
            free((char *)fresh[i].content_hash);
            free((char *)fresh[i].brief);
        }
        for (size_t i = 0; fps && i < n; i++)
            free(fps[i]);
        free(fps);
        free(fresh);
        free(stamps);
        kept_free(&kept);
        lx_course_free(c);
        *out = NULL;
        return e;
    }
    if (briefs && o->keep && !stopped(o))
        o->keep(o->ctx, fresh, n_fresh);
    if (briefs && o->store && !stopped(o) && !store_readonly(o->store)) {
        struct store_error ignored;
        if (store_each_fingerprint(o->store, o->learner_id, keep_stored, &have, &r->err) !=
                KVT_E_OK ||
            have.oom)
            briefs = false; /* the long way below says what failed */
        else if (have.n > 1)
            qsort(have.e, have.n, sizeof *have.e, by_ids);
        /* a database that cannot keep briefs still opens: next start loads again */
        store_brief_put(o->store, fresh, n_fresh, &ignored);
    }
    for (size_t i = 0; i < lx_course_size(c) && e == KVT_E_OK && !stopped(o); i++) {
        if (!o->store || !lx_course_live(c, i) || store_readonly(o->store))
            continue;
        if (briefs && fps[i])
            e = sync_kept(c, i, fps[i], &have, o, r);
        else
            e = sync_one(c, i, o, r);
    }
    if (o->store && o->build) {
        struct watch *w = malloc(sizeof *w);
        if (w) {
            *w = (struct watch){o->store, o->learner_id};
            lx_course_on_load(c, loaded_late, w, free);
        }
    }
    for (size_t i = 0; i < n_fresh; i++) {
        free((char *)fresh[i].content_hash);
        free((char *)fresh[i].brief);
    }
    for (size_t i = 0; fps && i < n; i++)
        free(fps[i]);
    free(fps);
    free(fresh);
    free(stamps);
    kept_free(&kept);
    stored_free(&have);
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

struct lx_lesson *tutor_course_brief(const struct lx_course *c, size_t i)
{
    return lx_course_brief(c, i);
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

bool tutor_lesson_find(const struct lx_lesson *l, const char *needle, struct lx_hit *hit)
{
    return lx_lesson_find(l, needle, hit);
}

const char *tutor_hit_place(const struct lx_lesson *l, const struct lx_hit *h, char *out,
                            size_t cap)
{
    switch (h->where) {
    case LX_HIT_TITLE:
        snprintf(out, cap, "the title");
        break;
    case LX_HIT_QUESTION:
        snprintf(out, cap, "the question");
        break;
    case LX_HIT_ANSWER:
        snprintf(out, cap, "the direct answer");
        break;
    case LX_HIT_SECTION:
        snprintf(out, cap, "section \"%s\"",
                 h->index < l->n_sections ? l->sections[h->index].title : "?");
        break;
    case LX_HIT_WORKED:
        snprintf(out, cap, "the worked arithmetic");
        break;
    case LX_HIT_FOLLOWUP:
        snprintf(out, cap, "follow-up %zu", h->index + 1);
        break;
    case LX_HIT_EXERCISE:
        snprintf(out, cap, "exercise %zu", h->index + 1);
        break;
    case LX_HIT_NAME:
        snprintf(out, cap, "its id or concept");
        break;
    default:
        snprintf(out, cap, "%s", "");
    }
    return out;
}

void tutor_course_close(struct lx_course *c)
{
    lx_course_free(c);
}
