/* Grading adapters: a lesson's exercise, question or follow-up handed to
 * the core graders (kv_grade.h) with what the lesson says about it. */
#include "lx.h"

#include <stdio.h>
#include <string.h>

#include "kv_units.h"

static enum kv_relation relation(const struct lx_exercise *e, const struct kv_unit *u)
{
    if (e->diagnose)
        return strcmp(e->diagnose, "kv-size") == 0    ? KV_REL_DIRECT
               : strcmp(e->diagnose, "capacity") == 0 ? KV_REL_INVERSE
                                                      : KV_REL_NONE;
    return u && u->dim == KV_DIM_BYTES ? KV_REL_DIRECT : KV_REL_NONE;
}

/* The lesson's points and misconceptions as kv_claims reads them; the
 * phrase lists are the lesson's own, borrowed for the call. */
static void grade_points(const struct lx_lesson *l, const struct lx_point *p, size_t n,
                         const struct lx_misconception *m, size_t n_mis, const char *typed,
                         struct lx_grade *out)
{
    struct kv_point pts[KV_MAX_POINTS];
    struct kv_misconception mis[KV_MAX_MISCONCEPTIONS];
    struct kv_glossary gl = {l->glossary, l->n_glossary};
    struct kv_text_item item = {pts, 0, mis, 0, &gl};
#define PH(v, n) ((struct kv_phrases){(const char *const *)(v), (n)})
    if (n > KV_MAX_POINTS)
        n = KV_MAX_POINTS;
    if (n_mis > KV_MAX_MISCONCEPTIONS)
        n_mis = KV_MAX_MISCONCEPTIONS;
    for (size_t i = 0; i < n; i++)
        pts[i] = (struct kv_point){p[i].text,
                                   PH(p[i].accept, p[i].n_accept),
                                   PH(p[i].about, p[i].n_about),
                                   PH(p[i].said, p[i].n_said),
                                   PH(p[i].shorts, p[i].n_shorts),
                                   p[i].weight,
                                   p[i].polarity};
    for (size_t i = 0; i < n_mis; i++)
        mis[i] = (struct kv_misconception){PH(m[i].about, m[i].n_about), PH(m[i].said, m[i].n_said),
                                           m[i].why, PH(m[i].unless, m[i].n_unless), m[i].course};
#undef PH
    item.n_points = n;
    item.n_mis = n_mis;
    kv_claims_grade(&item, typed, &out->text);
    out->verdict = out->text.verdict;
    out->score = out->text.score;
    if (out->verdict == KV_INVALID)
        snprintf(out->why, sizeof out->why, "%s", out->text.why);
}

void lx_grade(const struct lx_lesson *l, size_t ex, const struct lx_draw *draw, const char *typed,
              struct lx_grade *out)
{
    const struct lx_exercise *e = &l->exercises[ex];

    memset(out, 0, sizeof *out);
    out->picked = out->correct_option = -1;
    if (e->kind == LX_NUMERIC) {
        out->spec = (struct kv_numeric){.expected = draw->value,
                                        .unit = kv_unit_find(e->unit ? e->unit : ""),
                                        .tolerance = e->tolerance,
                                        .relative = e->relative,
                                        .model = draw->diag,
                                        .if_no_kv = e->left_out_kv,
                                        .if_no_overhead = e->left_out_overhead,
                                        .per = e->per};
        for (int s = 0; s < KV_SLIP__COUNT; s++)
            out->spec.if_slip[s] = draw->slips[s] != 0 ? draw->slips[s] : e->slips[s];
        out->spec.relation = relation(e, out->spec.unit);
        kv_grade_numeric(&out->spec, typed, &out->num);
        out->verdict = out->num.verdict;
        out->score = out->num.score;
        snprintf(out->why, sizeof out->why, "%s", out->num.why);
    } else if (e->kind == LX_CHOICE) {
        const char *texts[LX_MAX_OPTIONS];
        size_t n =
            e->n_options < LX_MAX_OPTIONS ? e->n_options : LX_MAX_OPTIONS; /* lint refuses more */
        for (size_t i = 0; i < n; i++) {
            texts[i] = e->options[i].text;
            if (e->options[i].correct && out->correct_option < 0)
                out->correct_option = (int)i;
        }
        out->picked = kv_choice_pick(texts, n, typed, out->why, sizeof out->why);
        out->verdict = out->picked < 0                   ? KV_INVALID
                       : e->options[out->picked].correct ? KV_CORRECT
                                                         : KV_WRONG;
        out->score = out->verdict == KV_CORRECT;
    } else {
        grade_points(l, e->points, e->n_points, e->mis, e->n_mis, typed, out);
    }
}

void lx_grade_question(const struct lx_lesson *l, const char *typed, struct lx_grade *out)
{
    memset(out, 0, sizeof *out);
    out->picked = out->correct_option = -1;
    grade_points(l, l->points, l->n_points, l->mis, l->n_mis, typed, out);
}

void lx_grade_followup(const struct lx_lesson *l, size_t i, const char *typed, struct lx_grade *out)
{
    memset(out, 0, sizeof *out);
    out->picked = out->correct_option = -1;
    grade_points(l, l->followups[i].points, l->followups[i].n_points, l->followups[i].mis,
                 l->followups[i].n_mis, typed, out);
}
