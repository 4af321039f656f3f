/* Item names and verdict names: see tutor_item.h. */
#include "tutor_item.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kv_units.h"
#include "kvt_format.h"

#define FOLLOWUP_PREFIX "followup-"

static const char *const verdict_names[] = {
    [KV_CORRECT] = "correct",
    [KV_WRONG] = "wrong",
    [KV_INVALID] = "invalid",
    [KV_UNSURE] = "unsure",
};

const char *tutor_verdict_name(enum kv_verdict v)
{
    return (unsigned)v < sizeof verdict_names / sizeof verdict_names[0] ? verdict_names[v]
                                                                        : "invalid";
}

bool tutor_verdict_parse(const char *name, enum kv_verdict *out)
{
    for (size_t i = 0; i < sizeof verdict_names / sizeof verdict_names[0]; i++) {
        if (strcmp(name, verdict_names[i]) == 0) {
            *out = (enum kv_verdict)i;
            return true;
        }
    }
    return false;
}

bool tutor_item_spoken(struct tutor_item it)
{
    return it.part != TUTOR_EXERCISE;
}

const char *tutor_item_kind(const struct lx_lesson *l, struct tutor_item it)
{
    if (it.part == TUTOR_QUESTION)
        return "question";
    if (it.part == TUTOR_FOLLOWUP)
        return "followup";
    switch (l->exercises[it.index].kind) {
    case LX_NUMERIC:
        return "numeric";
    case LX_CHOICE:
        return "choice";
    case LX_FREETEXT:
        break;
    }
    return "freetext";
}

const char *tutor_item_id(const struct lx_lesson *l, struct tutor_item it, char *out, size_t cap)
{
    if (it.part == TUTOR_QUESTION)
        snprintf(out, cap, "question");
    else if (it.part == TUTOR_FOLLOWUP)
        snprintf(out, cap, FOLLOWUP_PREFIX "%zu", it.index + 1);
    else
        snprintf(out, cap, "%s", l->exercises[it.index].id);
    return out;
}

/* The N of "followup-N" (digits only, no sign or leading zero), or 0. */
static size_t followup_number(const char *id)
{
    const char *d = id + strlen(FOLLOWUP_PREFIX);
    size_t n = 0;
    if (strncmp(id, FOLLOWUP_PREFIX, strlen(FOLLOWUP_PREFIX)) != 0 || *d < '1' || *d > '9')
        return 0;
    for (; *d; d++) {
        if (*d < '0' || *d > '9' || n > 100000)
            return 0;
        n = n * 10 + (size_t)(*d - '0');
    }
    return n;
}

bool tutor_item_parse(const struct lx_lesson *l, const char *id, struct tutor_item *out)
{
    size_t n;
    *out = (struct tutor_item){0};
    if (strcmp(id, "question") == 0) {
        out->part = TUTOR_QUESTION;
        return l->n_points > 0;
    }
    if ((n = followup_number(id)) != 0) {
        out->part = TUTOR_FOLLOWUP;
        out->index = n - 1;
        return n <= l->n_followups;
    }
    for (size_t i = 0; i < l->n_exercises; i++) {
        if (strcmp(l->exercises[i].id, id) == 0) {
            out->part = TUTOR_EXERCISE;
            out->index = i;
            return true;
        }
    }
    return false;
}

bool tutor_item_parts(const struct lx_lesson *l, struct tutor_item it, struct tutor_parts *out)
{
    memset(out, 0, sizeof *out);
    if (it.part == TUTOR_QUESTION) {
        *out = (struct tutor_parts){l->points, l->n_points, l->mis, l->n_mis, l->answer};
    } else if (it.part == TUTOR_FOLLOWUP) {
        const struct lx_followup *f = &l->followups[it.index];
        *out = (struct tutor_parts){f->points, f->n_points, f->mis, f->n_mis, f->answer};
    } else {
        const struct lx_exercise *e = &l->exercises[it.index];
        if (e->kind != LX_FREETEXT)
            return false;
        *out = (struct tutor_parts){e->points, e->n_points, e->mis, e->n_mis, e->model_answer};
    }
    return true;
}

const char *tutor_item_prompt(const struct lx_lesson *l, struct tutor_item it)
{
    if (it.part == TUTOR_QUESTION)
        return l->question;
    if (it.part == TUTOR_FOLLOWUP)
        return l->followups[it.index].question;
    return l->exercises[it.index].prompt;
}

const char *tutor_item_expected(const struct lx_grade *g, const char *unit, const char *plusminus,
                                char *out, size_t cap)
{
    const struct kv_numeric *n = &g->spec;
    const char *sp;
    char v[64], tol[64], pct[32];
    /* the tolerance applied; the grade's own when it read the answer */
    double allowed = g->num.allowed > 0 ? g->num.allowed
                     : n->relative      ? n->tolerance * fabs(n->expected)
                                        : n->tolerance;

    unit = unit ? unit : "";
    sp = kv_unit_gap(unit);
    kvt_fmt_near(n->expected, allowed, v, sizeof v);
    kvt_fmt_amount(allowed, tol, sizeof tol);
    if (n->relative)
        snprintf(out, cap, "%s%s%s, within %s%% (%s%s%s%s)", v, sp, unit,
                 kvt_fmt_real(n->tolerance * 100, 3, pct, sizeof pct), plusminus, tol, sp, unit);
    else
        snprintf(out, cap, "%s%s%s, within %s%s%s%s", v, sp, unit, plusminus, tol, sp, unit);
    return out;
}
