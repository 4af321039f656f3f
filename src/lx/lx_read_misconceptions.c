/* lx_read_misconceptions.c: a question's misconceptions = { ... }, and the
 * course's (lua/misconceptions.lua) appended to every question after its
 * own (lx_read.h). */
#include "lx_read.h"

#include <lauxlib.h>
#include <string.h>

#include "lx_priv.h"
#include "lx_state.h"

struct lx_misconception *lx_read_misconceptions(struct lx_reader *c, int t, size_t *n,
                                                const char *what, int line, size_t max)
{
    struct lx_misconception *ms = NULL;
    int at, ty;

    t = lua_absindex(c->L, t);
    at = lx_key_line(c, t, "misconceptions", line);
    ty = lx_field(c, t, "misconceptions");
    *n = 0;
    if (ty == LUA_TTABLE) {
        size_t len = lua_rawlen(c->L, -1);
        lx_check_list(c, -1, what, "misconceptions", at);
        ms = lx_arena_alloc(&c->p->arena, (len ? len : 1) * sizeof *ms);
        for (size_t i = 1; ms && i <= len; i++) {
            struct lx_misconception *m = &ms[*n];
            const char *kind;
            int ml = lx_item_line(c, -1, i, at);
            memset(m, 0, sizeof *m);
            lx_item(c, -1, i);
            kind = lua_type(c->L, -1) == LUA_TTABLE ? lx_kind_of(c->L, -1) : NULL;
            if (!kind || strcmp(kind, "misconception") != 0) {
                lx_problem(c, ml, "%s: misconceptions[%zu] must be misconception { ... }", what, i);
                lua_pop(c->L, 1);
                continue;
            }
            ml = lx_read_line(c, -1, ml);
            lx_check_keys(c, -1, LX_SHAPE_MISCONCEPTION, "misconception", ml);
            m->about = lx_str_list(c, -1, "about", &m->n_about, "misconception", ml);
            m->said = lx_str_list(c, -1, "said", &m->n_said, "misconception", ml);
            m->why = lx_str_field(c, -1, "why", true, "misconception", ml);
            m->unless = lx_str_list(c, -1, "unless", &m->n_unless, "misconception", ml);
            if (m->n_about == 0 || m->n_said == 0)
                lx_problem(c, ml, "misconception: needs 'about' and 'said' phrasings");
            (*n)++;
            lua_pop(c->L, 1);
        }
    } else if (ty != LUA_TNIL) {
        lx_problem(c, at, "%s: 'misconceptions' must be a list of misconception { ... }", what);
    }
    lua_pop(c->L, 1);
    if (*n > max)
        lx_problem(c, at, "%s: %zu misconceptions; at most %zu are checked", what, *n, max);
    return ms;
}

/* own[0..*n) then course[0..n_course), in the lesson's arena. */
static struct lx_misconception *with_course(struct lx_reader *c, struct lx_misconception *own,
                                            size_t *n, const struct lx_misconception *course,
                                            size_t n_course)
{
    struct lx_misconception *all;
    if (n_course == 0)
        return own;
    all = lx_arena_alloc(&c->p->arena, (*n + n_course) * sizeof *all);
    if (!all)
        return own; /* the arena's failure is reported as out of memory */
    if (*n)
        memcpy(all, own, *n * sizeof *all);
    memcpy(all + *n, course, n_course * sizeof *all);
    *n += n_course;
    return all;
}

void lx_read_course_misconceptions(struct lx_reader *c, struct lx_misconception *course,
                                   size_t n_course)
{
    struct lx_lesson *l = c->l;
    if (!course || n_course > LX_MAX_COURSE_MISCONCEPTIONS)
        return; /* too many: reported by the read, checked by none */
    for (size_t i = 0; i < n_course; i++)
        course[i].course = true;
    l->mis = with_course(c, l->mis, &l->n_mis, course, n_course);
    for (size_t i = 0; i < l->n_followups; i++)
        l->followups[i].mis =
            with_course(c, l->followups[i].mis, &l->followups[i].n_mis, course, n_course);
    for (size_t i = 0; i < l->n_exercises; i++)
        if (l->exercises[i].kind == LX_FREETEXT)
            l->exercises[i].mis =
                with_course(c, l->exercises[i].mis, &l->exercises[i].n_mis, course, n_course);
}
