/* Reading a lesson's own table and the parts every kind of table shares:
 * sections, follow-ups, key points, links and prerequisites, and the field
 * readers the exercise reader (lx_read_exercise.c) uses too. */
#include "lx_read.h"

#include <ctype.h>
#include <lauxlib.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "kvt_text.h"

void lx_problem(struct lx_reader *c, int line, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    lx_report_add(c->rep, line, msg);
}

/* The line a DSL table was written on, or the fallback. */
int lx_read_line(struct lx_reader *c, int t, int fallback)
{
    int line = lx_line_of(c->L, t);
    return line > 0 ? line : fallback;
}

bool lx_valid_id(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > LX_MAX_ID || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= '0' && s[0] <= '9')))
        return false;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '-' ||
              s[i] == '_' || s[i] == '.'))
            return false;
    return true;
}

void lx_check_keys(struct lx_reader *c, int t, enum lx_shape shape, const char *what, int line)
{
    const struct lx_shape_info *info = lx_shape_info(shape);
    t = lua_absindex(c->L, t);
    lua_pushnil(c->L);
    while (lua_next(c->L, t)) {
        lua_pop(c->L, 1);
        if (lua_type(c->L, -1) == LUA_TSTRING) {
            const char *k = lua_tostring(c->L, -1);
            if (!lx_shape_allows(shape, k))
                lx_problem(c, line, "%s: unknown field '%s'", what, k);
        } else if (!(lua_isinteger(c->L, -1) && info->list_ok)) {
            lx_problem(c, line, "%s: unexpected %s key", what, luaL_typename(c->L, -1));
        }
    }
}

/* A string field: NULL when absent (and a problem when required). */
const char *lx_str_field(struct lx_reader *c, int t, const char *key, bool required,
                         const char *what, int line)
{
    const char *s = NULL;
    size_t len;
    int ty;

    lua_pushstring(c->L, key);
    ty = lua_rawget(c->L, t < 0 ? t - 1 : t);
    if (ty == LUA_TSTRING) {
        const char *v = lua_tolstring(c->L, -1, &len);
        if (len == 0 && required)
            lx_problem(c, line, "%s: '%s' is empty", what, key);
        else if (!(s = lx_arena_str(&c->p->arena, v, len)))
            return s; /* the arena marks the lesson failed */
        else if (!kvt_text_is_safe(v, len, KVT_KEEP_NEWLINES))
            lx_problem(c, line,
                       "%s: '%s' holds control, escape or bidi characters a terminal would obey: "
                       "%s",
                       what, key, v);
    } else if (ty == LUA_TNIL) {
        if (required)
            lx_problem(c, line, "%s: missing field '%s'", what, key);
    } else {
        lx_problem(c, line, "%s: '%s' must be text, not a %s", what, key, lua_typename(c->L, ty));
    }
    lua_pop(c->L, 1);
    return s;
}

/* Pushes t[key] and returns its type. */
int lx_field(struct lx_reader *c, int t, const char *key)
{
    lua_pushstring(c->L, key);
    return lua_rawget(c->L, t < 0 ? t - 1 : t);
}

/* A list of strings at t[key] (a single string counts as a list of one). */
const char **lx_str_list(struct lx_reader *c, int t, const char *key, size_t *n, const char *what,
                         int line)
{
    const char **out = NULL;
    int ty = lx_field(c, t, key);

    *n = 0;
    if (ty == LUA_TSTRING) {
        out = lx_arena_alloc(&c->p->arena, sizeof *out);
        if (out) {
            out[0] = lx_arena_str(&c->p->arena, lua_tostring(c->L, -1), lua_rawlen(c->L, -1));
            *n = 1;
        }
    } else if (ty == LUA_TTABLE) {
        size_t len = lua_rawlen(c->L, -1);
        out = lx_arena_alloc(&c->p->arena, (len ? len : 1) * sizeof *out);
        for (size_t i = 1; out && i <= len; i++) {
            size_t sl;
            if (lua_rawgeti(c->L, -1, (lua_Integer)i) != LUA_TSTRING) {
                lx_problem(c, line, "%s: %s[%zu] must be text", what, key, i);
            } else {
                const char *s = lua_tolstring(c->L, -1, &sl);
                if (!kvt_text_is_safe(s, sl, KVT_KEEP_NEWLINES))
                    lx_problem(c, line,
                               "%s: %s[%zu] holds control, escape or bidi characters a terminal "
                               "would obey: %s",
                               what, key, i, s);
                out[(*n)++] = lx_arena_str(&c->p->arena, s, sl);
            }
            lua_pop(c->L, 1);
        }
    } else if (ty != LUA_TNIL) {
        lx_problem(c, line, "%s: '%s' must be a list of text", what, key);
    }
    lua_pop(c->L, 1);
    return out;
}

bool lx_finite_number(lua_State *L, int i, double *v)
{
    if (lua_type(L, i) != LUA_TNUMBER)
        return false;
    *v = lua_tonumber(L, i);
    return isfinite(*v);
}

/* An accept phrase matches at the start of any word of the answer ("no"
 * would match "not" and "node"): one of fewer than three ASCII letters or
 * digits says nothing. Symbols such as "÷" are left alone. */
static bool too_loose(const char *phrase)
{
    size_t letters = 0;
    for (const unsigned char *p = (const unsigned char *)phrase; *p; p++) {
        if (*p >= 0x80)
            return false;
        letters += isalnum(*p) != 0;
    }
    return letters < 3;
}

/* A key point: "text", or point { "text", accept = {...}, weight = n }. */
static void read_point(struct lx_reader *c, int t, struct lx_point *pt, const char *what, int line)
{
    t = lua_absindex(c->L, t);
    pt->weight = 1;
    if (lua_type(c->L, t) == LUA_TSTRING) {
        pt->text = lx_arena_str(&c->p->arena, lua_tostring(c->L, t), lua_rawlen(c->L, t));
        return;
    }
    if (lua_type(c->L, t) != LUA_TTABLE) {
        lx_problem(c, line, "%s: a key point is text or point { ... }", what);
        return;
    }
    line = lx_read_line(c, t, line);
    lx_check_keys(c, t, LX_SHAPE_POINT, what, line);
    if (lua_rawgeti(c->L, t, 1) == LUA_TSTRING)
        pt->text = lx_arena_str(&c->p->arena, lua_tostring(c->L, -1), lua_rawlen(c->L, -1));
    lua_pop(c->L, 1);
    if (!pt->text)
        pt->text = lx_str_field(c, t, "text", true, what, line);
    pt->accept = lx_str_list(c, t, "accept", &pt->n_accept, what, line);
    for (size_t i = 0; pt->accept && i < pt->n_accept; i++)
        if (pt->accept[i] && too_loose(pt->accept[i]))
            lx_problem(c, line,
                       "%s: accept phrase \"%s\" is too short: it would match every word that "
                       "starts with it",
                       what, pt->accept[i]);
    pt->about = lx_str_list(c, t, "about", &pt->n_about, what, line);
    pt->said = lx_str_list(c, t, "said", &pt->n_said, what, line);
    pt->shorts = lx_str_list(c, t, "short", &pt->n_shorts, what, line);
    if ((pt->n_about == 0) != (pt->n_said == 0))
        lx_problem(c, line,
                   "%s: point \"%s\": a claim needs both 'about' (what it is about) and 'said' "
                   "(what is said of it)",
                   what, pt->text ? pt->text : "");
    if (pt->n_shorts && !pt->n_about)
        lx_problem(c, line, "%s: point \"%s\": 'short' phrasings belong to a claim (about, said)",
                   what, pt->text ? pt->text : "");
    {
        const char *pol = lx_str_field(c, t, "polarity", false, what, line);
        if (pol && strcmp(pol, "yes") == 0)
            pt->polarity = KV_POLARITY_YES;
        else if (pol && strcmp(pol, "no") == 0)
            pt->polarity = KV_POLARITY_NO;
        else if (pol)
            lx_problem(c, line, "%s: point \"%s\": polarity is \"yes\" or \"no\", not \"%s\"", what,
                       pt->text ? pt->text : "", pol);
    }
    if (lx_field(c, t, "weight") != LUA_TNIL &&
        !(lx_finite_number(c->L, -1, &pt->weight) && pt->weight > 0 && pt->weight <= 100))
        lx_problem(c, line, "%s: a point's weight must be a number in (0, 100]", what);
    lua_pop(c->L, 1);
}

struct lx_misconception *lx_read_misconceptions(struct lx_reader *c, int t, size_t *n,
                                                const char *what, int line)
{
    struct lx_misconception *ms = NULL;
    int ty = lx_field(c, t, "misconceptions");

    *n = 0;
    if (ty == LUA_TTABLE) {
        size_t len = lua_rawlen(c->L, -1);
        ms = lx_arena_alloc(&c->p->arena, (len ? len : 1) * sizeof *ms);
        for (size_t i = 1; ms && i <= len; i++) {
            struct lx_misconception *m = &ms[*n];
            const char *kind;
            int ml;
            memset(m, 0, sizeof *m);
            lua_rawgeti(c->L, -1, (lua_Integer)i);
            kind = lua_type(c->L, -1) == LUA_TTABLE ? lx_kind_of(c->L, -1) : NULL;
            if (!kind || strcmp(kind, "misconception") != 0) {
                lx_problem(c, line, "%s: misconceptions[%zu] must be misconception { ... }", what,
                           i);
                lua_pop(c->L, 1);
                continue;
            }
            ml = lx_read_line(c, -1, line);
            lx_check_keys(c, -1, LX_SHAPE_MISCONCEPTION, "misconception", ml);
            m->about = lx_str_list(c, -1, "about", &m->n_about, "misconception", ml);
            m->said = lx_str_list(c, -1, "said", &m->n_said, "misconception", ml);
            m->why = lx_str_field(c, -1, "why", true, "misconception", ml);
            if (m->n_about == 0 || m->n_said == 0)
                lx_problem(c, ml, "misconception: needs 'about' and 'said' phrasings");
            (*n)++;
            lua_pop(c->L, 1);
        }
    } else if (ty != LUA_TNIL) {
        lx_problem(c, line, "%s: 'misconceptions' must be a list of misconception { ... }", what);
    }
    lua_pop(c->L, 1);
    if (*n > LX_MAX_MISCONCEPTIONS)
        lx_problem(c, line, "%s: %zu misconceptions; at most %d are checked", what, *n,
                   LX_MAX_MISCONCEPTIONS);
    return ms;
}

void lx_read_glossary(struct lx_reader *c, int t, const char *what, int line)
{
    struct lx_lesson *l = c->l;
    size_t len;

    t = lua_absindex(c->L, t);
    if (lua_type(c->L, t) != LUA_TTABLE) {
        lx_problem(c, line,
                   "%s: a glossary is a list of groups: { {\"TTFT\", \"time to first "
                   "token\"}, ... }",
                   what);
        return;
    }
    len = lua_rawlen(c->L, t);
    if (l->n_glossary + len > LX_MAX_GLOSSARY) {
        lx_problem(c, line, "%s: %zu glossary groups in all; at most %d", what, l->n_glossary + len,
                   LX_MAX_GLOSSARY);
        return;
    }
    {
        struct kv_phrases *g = lx_arena_alloc(&c->p->arena, (l->n_glossary + len + 1) * sizeof *g);
        if (!g)
            return;
        if (l->n_glossary)
            memcpy(g, l->glossary, l->n_glossary * sizeof *g);
        l->glossary = g;
    }
    for (size_t i = 1; i <= len; i++) {
        size_t n = 0;
        const char **terms;
        char key[32];
        lua_rawgeti(c->L, t, (lua_Integer)i);
        /* lx_str_list reads a field: lend it the group under a key */
        lua_newtable(c->L);
        lua_pushvalue(c->L, -2);
        snprintf(key, sizeof key, "glossary[%zu]", i);
        lua_setfield(c->L, -2, key);
        terms = lx_str_list(c, -1, key, &n, what, line);
        lua_pop(c->L, 2);
        if (n < 2) {
            lx_problem(c, line, "%s: glossary[%zu] must list two or more equivalent terms", what,
                       i);
            continue;
        }
        l->glossary[l->n_glossary++] = (struct kv_phrases){terms, n};
    }
}

struct lx_point *lx_read_points(struct lx_reader *c, int t, size_t *n, const char *what, int line)
{
    struct lx_point *pts = NULL;
    int ty = lx_field(c, t, "points");

    *n = 0;
    if (ty == LUA_TTABLE) {
        size_t len = lua_rawlen(c->L, -1);
        pts = lx_arena_alloc(&c->p->arena, (len ? len : 1) * sizeof *pts);
        for (size_t i = 1; pts && i <= len; i++) {
            memset(&pts[*n], 0, sizeof *pts);
            lua_rawgeti(c->L, -1, (lua_Integer)i);
            read_point(c, -1, &pts[(*n)++], what, line);
            lua_pop(c->L, 1);
        }
    } else if (ty != LUA_TNIL) {
        lx_problem(c, line, "%s: 'points' must be a list of key points", what);
    }
    lua_pop(c->L, 1);
    if (*n == 0)
        lx_problem(c, line, "%s: needs key points (points = { ... }) to grade answers against",
                   what);
    else if (*n > LX_MAX_POINTS)
        lx_problem(c, line, "%s: %zu key points; at most %d are graded", what, *n, LX_MAX_POINTS);
    return pts;
}

static void read_sections(struct lx_reader *c, int t, int line)
{
    struct lx_lesson *l = c->l;
    int ty = lx_field(c, t, "sections");

    if (ty == LUA_TTABLE) {
        size_t len = lua_rawlen(c->L, -1);
        l->sections = lx_arena_alloc(&c->p->arena, (len ? len : 1) * sizeof *l->sections);
        for (size_t i = 1; l->sections && i <= len; i++) {
            struct lx_section *s = &l->sections[l->n_sections++];
            int sl;
            memset(s, 0, sizeof *s);
            if (lua_rawgeti(c->L, -1, (lua_Integer)i) != LUA_TTABLE) {
                lx_problem(c, line, "sections[%zu] must be section { title = ..., text = ... }", i);
                lua_pop(c->L, 1);
                continue;
            }
            sl = s->line = lx_read_line(c, -1, line);
            lx_check_keys(c, -1, LX_SHAPE_SECTION, "section", sl);
            s->title = lx_str_field(c, -1, "title", true, "section", sl);
            s->text = lx_str_field(c, -1, "text", true, "section", sl);
            lua_pop(c->L, 1);
        }
    } else {
        lx_problem(c, line,
                   ty == LUA_TNIL ? "lesson: missing field 'sections'"
                                  : "lesson: 'sections' must be a list of section { ... }");
    }
    lua_pop(c->L, 1);
    if (ty == LUA_TTABLE && l->n_sections == 0)
        lx_problem(c, line, "lesson: 'sections' is empty");
}

static void read_followups(struct lx_reader *c, int t, int line)
{
    struct lx_lesson *l = c->l;
    int ty = lx_field(c, t, "followups");

    if (ty == LUA_TTABLE) {
        size_t len = lua_rawlen(c->L, -1);
        l->followups = lx_arena_alloc(&c->p->arena, (len ? len : 1) * sizeof *l->followups);
        for (size_t i = 1; l->followups && i <= len; i++) {
            struct lx_followup *f = &l->followups[l->n_followups++];
            int fl;
            memset(f, 0, sizeof *f);
            if (lua_rawgeti(c->L, -1, (lua_Integer)i) != LUA_TTABLE) {
                lx_problem(c, line, "followups[%zu] must be followup { ... }", i);
                lua_pop(c->L, 1);
                continue;
            }
            fl = f->line = lx_read_line(c, -1, line);
            lx_check_keys(c, -1, LX_SHAPE_FOLLOWUP, "followup", fl);
            f->question = lx_str_field(c, -1, "question", true, "followup", fl);
            f->answer = lx_str_field(c, -1, "answer", true, "followup", fl);
            f->points = lx_read_points(c, -1, &f->n_points, "followup", fl);
            f->mis = lx_read_misconceptions(c, -1, &f->n_mis, "followup", fl);
            lua_pop(c->L, 1);
        }
    } else if (ty != LUA_TNIL) {
        lx_problem(c, line, "lesson: 'followups' must be a list of followup { ... }");
    }
    lua_pop(c->L, 1);
    if (l->n_followups == 0)
        lx_problem(c, line, "lesson: needs interviewer follow-ups (followups = { ... })");
}

/* links and requires: lists of lesson ids, checked for form here and for
 * existence across files by lint */
static const char **read_ids(struct lx_reader *c, int t, const char *key, int line, size_t *n)
{
    const char **ids = lx_str_list(c, t, key, n, "lesson", line);
    for (size_t i = 0; ids && i < *n; i++) {
        if (!ids[i] || !lx_valid_id(ids[i]))
            lx_problem(c, line, "lesson: %s entry \"%s\" is not a lesson id", key,
                       ids[i] ? ids[i] : "");
        else if (c->l->id && strcmp(ids[i], c->l->id) == 0)
            lx_problem(c, line, "lesson: %s names the lesson itself", key);
    }
    return ids;
}

static void read_links(struct lx_reader *c, int t, int line)
{
    struct lx_lesson *l = c->l;
    int links_at = c->links_line > 0 ? c->links_line : line;
    l->links = read_ids(c, t, "links", links_at, &l->n_links);
    l->link_lines =
        lx_arena_alloc(&c->p->arena, (l->n_links ? l->n_links : 1) * sizeof *l->link_lines);
    for (size_t i = 0; l->link_lines && i < l->n_links; i++)
        l->link_lines[i] = links_at;
    l->requires_line = c->requires_line > 0 ? c->requires_line : line;
    l->requires = read_ids(c, t, "requires", l->requires_line, &l->n_requires);
}

void lx_read_lesson(struct lx_reader *c, int t)
{
    struct lx_lesson *l = c->l;
    lua_State *L = c->L;
    int line = lx_read_line(c, t, c->lesson_line), ty;

    lx_check_keys(c, t, LX_SHAPE_LESSON, "lesson", line);
    l->id = lx_str_field(c, t, "id", true, "lesson", line);
    if (l->id && !lx_valid_id(l->id))
        lx_problem(c, line,
                   "lesson: id \"%s\" must be 1 to %d lower-case letters, digits, '-', '_', '.'",
                   l->id, LX_MAX_ID);
    l->title = lx_str_field(c, t, "title", true, "lesson", line);
    l->module = lx_str_field(c, t, "module", true, "lesson", line);
    l->module_title = lx_str_field(c, t, "module_title", false, "lesson", line);
    if (l->module_title && !l->module_title[0])
        lx_problem(c, line,
                   "lesson: module_title is empty: give the module's name or leave it out");
    l->baseline = lx_str_field(c, t, "baseline", true, "lesson", line);
    l->concept = lx_str_field(c, t, "concept", true, "lesson", line);
    l->concept_title = lx_str_field(c, t, "concept_title", false, "lesson", line);
    if (l->concept_title && !l->concept_title[0])
        lx_problem(c, line,
                   "lesson: concept_title is empty: give the concept's name or leave it out");
    l->question = lx_str_field(c, t, "question", true, "lesson", line);
    l->answer = lx_str_field(c, t, "answer", true, "lesson", line);
    ty = lx_field(c, t, "worked");
    if (ty == LUA_TTABLE) {
        lua_getfield(L, -1, "text");
        if (lua_type(L, -1) == LUA_TSTRING)
            l->worked = lx_arena_str(&c->p->arena, lua_tostring(L, -1), lua_rawlen(L, -1));
        lua_pop(L, 1);
    } else if (ty == LUA_TSTRING) {
        l->worked = lx_arena_str(&c->p->arena, lua_tostring(L, -1), lua_rawlen(L, -1));
    }
    lua_pop(L, 1);
    if (!l->worked)
        lx_problem(c, line,
                   "lesson: missing field 'worked' (a code [[ ... ]] block of arithmetic)");
    read_sections(c, t, line);
    if (lx_field(c, t, "points") != LUA_TNIL) {
        lua_pop(L, 1);
        l->points = lx_read_points(c, t, &l->n_points, "lesson", line);
    } else {
        lua_pop(L, 1);
    }
    l->mis = lx_read_misconceptions(c, t, &l->n_mis, "lesson", line);
    if (lx_field(c, t, "glossary") != LUA_TNIL)
        lx_read_glossary(c, -1, "lesson", line);
    lua_pop(L, 1);
    read_followups(c, t, line);
    lx_read_exercises(c, t, line);
    read_links(c, t, line);
}
