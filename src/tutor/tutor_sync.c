/* Lesson fingerprints and the schedule rule: see tutor_sync.h. */
#include "tutor_sync.h"

#include <stdio.h>
#include <string.h>

/* FNV-1a, 64 bits: stable across builds and machines, which is all a
 * fingerprint kept in the database needs (no adversary is involved: an
 * author changing their own lesson). */
struct hash {
    uint64_t h;
};

static void hash_bytes(struct hash *h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h->h ^= b[i];
        h->h *= 0x100000001b3ull;
    }
}

/* A field with its length in front, so "ab"+"c" and "a"+"bc" differ and a
 * missing field differs from an empty one. */
static void hash_text(struct hash *h, const char *s)
{
    uint64_t n = s ? (uint64_t)strlen(s) + 1 : 0;
    hash_bytes(h, &n, sizeof n);
    if (s)
        hash_bytes(h, s, (size_t)n - 1);
}

static void hash_num(struct hash *h, double x)
{
    char buf[40];
    snprintf(buf, sizeof buf, "%.17g", x);
    hash_text(h, buf);
}

static void hash_points(struct hash *h, const struct lx_point *p, size_t n)
{
    hash_num(h, (double)n);
    for (size_t i = 0; i < n; i++) {
        hash_text(h, p[i].text);
        hash_num(h, p[i].weight);
        hash_num(h, (double)p[i].n_accept);
        for (size_t k = 0; k < p[i].n_accept; k++)
            hash_text(h, p[i].accept[k]);
    }
}

static void hex(const struct hash *h, char out[17])
{
    snprintf(out, 17, "%016llx", (unsigned long long)h->h);
}

/* Stand-ins for the learner's measured figures: any fixed values do, as
 * long as they stay the same from one load to the next. */
static const struct lx_fact stand_ins[] = {
    {"read_gbps", 1000}, {"peak_gbps", 1200}, {"free_gib", 40}};

/* What is graded as right for a numeric exercise: its unit and either the
 * fixed value or the values drawn at three fixed seeds. */
static void hash_numeric_answer(struct hash *h, struct lx_lesson *l, size_t ex)
{
    const struct lx_exercise *e = &l->exercises[ex];
    hash_text(h, e->unit);
    if (e->has_value) {
        hash_num(h, e->value);
        return;
    }
    for (uint64_t seed = 1; seed <= 3; seed++) {
        struct lx_draw d;
        char err[200];
        if (lx_draw_measured(l, ex, seed, stand_ins, sizeof stand_ins / sizeof stand_ins[0], &d,
                             err, sizeof err) == KVT_E_OK) {
            hash_num(h, d.value);
            for (size_t i = 0; i < d.n_params; i++) {
                hash_text(h, d.params[i].name);
                hash_text(h, d.params[i].text);
            }
        } else {
            hash_text(h, "no value");
        }
    }
}

void tutor_fingerprint(struct lx_lesson *l, struct tutor_item it, struct tutor_fingerprint *out)
{
    struct hash c = {0xcbf29ce484222325ull}, a = {0xcbf29ce484222325ull};

    hash_text(&c, tutor_item_prompt(l, it));
    if (it.part == TUTOR_QUESTION) {
        hash_text(&c, l->answer);
        hash_points(&a, l->points, l->n_points);
    } else if (it.part == TUTOR_FOLLOWUP) {
        hash_text(&c, l->followups[it.index].answer);
        hash_points(&a, l->followups[it.index].points, l->followups[it.index].n_points);
    } else {
        const struct lx_exercise *e = &l->exercises[it.index];
        hash_num(&a, (double)e->kind);
        for (size_t i = 0; i < e->n_hints; i++)
            hash_text(&c, e->hints[i]);
        if (e->kind == LX_NUMERIC) {
            hash_num(&c, e->tolerance);
            hash_num(&c, e->relative);
            hash_numeric_answer(&a, l, it.index);
        } else if (e->kind == LX_CHOICE) {
            for (size_t i = 0; i < e->n_options; i++) {
                hash_text(&c, e->options[i].text);
                hash_text(&c, e->options[i].why);
                if (e->options[i].correct)
                    hash_text(&a, e->options[i].text);
            }
        } else {
            hash_text(&c, e->model_answer);
            hash_points(&a, e->points, e->n_points);
        }
    }
    hex(&c, out->content);
    hex(&a, out->answer);
}

enum kvt_err tutor_sync_item(struct store *st, int64_t learner_id, struct lx_lesson *l,
                             struct tutor_item it, enum store_sync *out, struct store_error *err)
{
    struct tutor_fingerprint fp;
    char id[128];
    tutor_fingerprint(l, it, &fp);
    return store_sync_exercise(st, learner_id, l->id, tutor_item_id(l, it, id, sizeof id),
                               fp.content, fp.answer, out, err);
}

enum kvt_err tutor_sync_lesson(struct store *st, int64_t learner_id, struct lx_lesson *l,
                               size_t *restarted, struct store_error *err)
{
    size_t n = l->n_exercises + l->n_followups + 1;
    if (restarted)
        *restarted = 0;
    if (store_readonly(st))
        return KVT_E_OK;
    for (size_t i = 0; i < n; i++) {
        struct tutor_item it = {0, TUTOR_EXERCISE, i};
        enum store_sync s;
        enum kvt_err e;
        if (i >= l->n_exercises + l->n_followups)
            it = (struct tutor_item){0, TUTOR_QUESTION, 0};
        else if (i >= l->n_exercises)
            it = (struct tutor_item){0, TUTOR_FOLLOWUP, i - l->n_exercises};
        if ((e = tutor_sync_item(st, learner_id, l, it, &s, err)) != KVT_E_OK)
            return e;
        if (restarted && s == STORE_SYNC_RESTARTED)
            (*restarted)++;
    }
    return KVT_E_OK;
}
