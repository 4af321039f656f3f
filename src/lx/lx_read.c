/* Reading a lesson's own table and the parts every kind of table shares:
 * sections, follow-ups, key points, links and prerequisites, and the field
 * readers the exercise reader (lx_read_exercise.c) uses too. */
#include "lx_read.h"

#include <ctype.h>
#include <lauxlib.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
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

/* The constructor table t was written with, or -1: the one it was found
 * under (lx_field, lx_item), else the one its DSL mark names. */
static int node_of(struct lx_reader *c, int t)
{
    const void *p = lua_topointer(c->L, t);
    const char *kind;
    int node;

    if (!c->src || !p)
        return -1;
    if (c->last.table == p)
        return c->last.node;
    for (size_t i = c->n_bound; i-- > 0;)
        if (c->bound[i].table == p) {
            c->last = c->bound[i];
            return c->last.node;
        }
    kind = lua_type(c->L, t) == LUA_TTABLE ? lx_kind_of(c->L, t) : NULL;
    node = kind ? lx_source_find(c->src, kind, lx_line_of(c->L, t)) : -1;
    if (node < 0 && kind && strcmp(kind, "lesson") == 0)
        node = lx_source_find(c->src, kind, 0);
    if (node < 0 && kind && strcmp(kind, "lesson") == 0) /* `return my_lesson { ... }` */
        node = lx_source_find(c->src, NULL, 0);
    c->last = (struct lx_bound){p, node};
    return node;
}

/* Pairs the table on top of the stack with constructor `node`. */
static void bind(struct lx_reader *c, int node)
{
    const void *p;
    if (node < 0 || lua_type(c->L, -1) != LUA_TTABLE || !(p = lua_topointer(c->L, -1)))
        return;
    if (c->n_bound == c->cap_bound) {
        size_t cap = c->cap_bound ? c->cap_bound * 2 : 32;
        struct lx_bound *b = realloc(c->bound, cap * sizeof *b);
        if (!b)
            return; /* lines fall back to the tables' own */
        c->bound = b;
        c->cap_bound = cap;
    }
    c->bound[c->n_bound++] = (struct lx_bound){p, node};
    if (c->last.table == p) /* the newest pairing is the one that counts */
        c->last.node = node;
}

/* The line a table was written on, or the fallback. */
int lx_read_line(struct lx_reader *c, int t, int fallback)
{
    int line = lx_line_of(c->L, t);
    if (line <= 0)
        line = lx_source_line(c->src, node_of(c, t));
    return line > 0 ? line : fallback;
}

int lx_key_line(struct lx_reader *c, int t, const char *key, int fallback)
{
    int line = lx_source_key(c->src, node_of(c, t), key, NULL);
    return line > 0 ? line : fallback;
}

int lx_item_line(struct lx_reader *c, int t, size_t i, int fallback)
{
    int line = lx_source_item(c->src, node_of(c, t), i, NULL);
    return line > 0 ? line : fallback;
}

void lx_missing(struct lx_reader *c, int t, const char *key, int line, const char *what,
                const char *hint)
{
    const void *p = lua_topointer(c->L, t);
    for (size_t i = 0; i < c->n_misspelt; i++)
        if (c->misspelt[i].table == p && strcmp(c->misspelt[i].key, key) == 0)
            return;
    lx_problem(c, line, "%s: missing field '%s'%s%s", what, key, hint ? " " : "", hint ? hint : "");
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

/* Edits (insert, delete, replace a character, swap two; case aside) from
 * a to b, up to 3: enough to tell a misspelling from another word. */
static int edits(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    int d[32][32];
    if (la > 30 || lb > 30)
        return 3;
    for (size_t i = 0; i <= la; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int best = d[i - 1][j - 1] +
                       (tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]));
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[la][lb] < 3 ? d[la][lb] : 3;
}

/* The key of the shape that `k` misspells, absent from table t: one or two
 * edits away (one for keys of four letters or fewer), or holding it or held
 * in it ("keypoints", "hint"). NULL when none is that close. */
static const char *misspelling_of(lua_State *L, int t, enum lx_shape shape, const char *k)
{
    const struct lx_shape_info *info = lx_shape_info(shape);
    const char *best = NULL;
    int best_d = 3;
    for (size_t i = 0; info->keys[i]; i++) {
        const char *want = info->keys[i];
        size_t kl = strlen(k), wl = strlen(want);
        /* a word added or dropped ("keypoints", "hint") counts as one edit */
        bool part = (kl > wl ? wl : kl) >= 4 && (strstr(k, want) || strstr(want, k));
        int d = part ? 1 : edits(k, want);
        int limit = wl <= 4 ? 1 : 2;
        if (d > limit || d >= best_d)
            continue;
        lua_pushstring(L, want);
        if (lua_rawget(L, t) == LUA_TNIL)
            best = want, best_d = d;
        lua_pop(L, 1);
    }
    return best;
}

void lx_check_keys(struct lx_reader *c, int t, enum lx_shape shape, const char *what, int line)
{
    const struct lx_shape_info *info = lx_shape_info(shape);
    t = lua_absindex(c->L, t);
    lua_pushnil(c->L);
    while (lua_next(c->L, t)) {
        lua_pop(c->L, 1);
        lx_check(c->L);
        if (lua_type(c->L, -1) == LUA_TSTRING) {
            const char *k = lua_tostring(c->L, -1);
            const char *meant;
            int at = lx_key_line(c, t, k, line);
            if (lx_shape_allows(shape, k))
                continue;
            meant = misspelling_of(c->L, t, shape, k);
            if (meant) {
                lx_problem(c, at, "%s: unknown field '%s' (did you mean '%s'?)", what, k, meant);
                if (c->n_misspelt < sizeof c->misspelt / sizeof c->misspelt[0])
                    c->misspelt[c->n_misspelt++] =
                        (struct lx_misspelt){lua_topointer(c->L, t), meant};
            } else {
                lx_problem(c, at, "%s: unknown field '%s'", what, k);
            }
        } else if (!(lua_isinteger(c->L, -1) && info->list_ok)) {
            lx_problem(c, line, "%s: unexpected %s key", what, luaL_typename(c->L, -1));
        }
    }
}

/* A string field: NULL when absent (and a problem when required). */
/* A block of arithmetic: code [[ ... ]] (a table holding text) or plain
 * text; NULL when absent (said as missing when required) or of another
 * type (said). */
const char *lx_code_field(struct lx_reader *c, int t, const char *key, bool required,
                          const char *what, int line)
{
    lua_State *L = c->L;
    const char *s = NULL, *v = NULL;
    size_t len = 0;
    int at, ty;

    t = lua_absindex(L, t);
    at = lx_key_line(c, t, key, line);
    ty = lx_field(c, t, key);
    if (ty == LUA_TTABLE) {
        lua_pushliteral(L, "text");
        if (lua_rawget(L, -2) == LUA_TSTRING)
            v = lua_tolstring(L, -1, &len);
        lua_replace(L, -2); /* the text (or nil) in the table's place */
    } else if (ty == LUA_TSTRING) {
        v = lua_tolstring(L, -1, &len);
    }
    if (ty == LUA_TNIL) {
        if (required)
            lx_missing(c, t, key, line, what, "(a code [[ ... ]] block of arithmetic)");
    } else if (!v) {
        lx_problem(c, at, "%s: '%s' must be code [[ ... ]] or text", what, key);
    } else if (!kvt_text_is_safe(v, len, KVT_KEEP_NEWLINES) || memchr(v, '\0', len)) {
        /* the whole text, a NUL included: the app would show it cut there */
        lx_problem(c, at, "%s: '%s' holds control, escape or bidi characters a terminal would obey",
                   what, key);
    } else {
        s = lx_arena_str(&c->p->arena, v, len); /* NULL: the arena marks the lesson failed */
    }
    lua_pop(L, 1);
    return s;
}

const char *lx_str_field(struct lx_reader *c, int t, const char *key, bool required,
                         const char *what, int line)
{
    const char *s = NULL;
    size_t len;
    int ty, at;

    t = lua_absindex(c->L, t);
    at = lx_key_line(c, t, key, line);
    lua_pushstring(c->L, key);
    ty = lua_rawget(c->L, t);
    if (ty == LUA_TSTRING) {
        const char *v = lua_tolstring(c->L, -1, &len);
        if (len == 0 && required)
            lx_problem(c, at, "%s: '%s' is empty", what, key);
        else if (!(s = lx_arena_str(&c->p->arena, v, len)))
            return s; /* the arena marks the lesson failed */
        else if (!kvt_text_is_safe(v, len, KVT_KEEP_NEWLINES))
            lx_problem(c, at,
                       "%s: '%s' holds control, escape or bidi characters a terminal would obey: "
                       "%s",
                       what, key, v);
    } else if (ty == LUA_TNIL) {
        if (required)
            lx_missing(c, t, key, line, what, NULL);
    } else {
        lx_problem(c, at, "%s: '%s' must be text, not a %s", what, key, lua_typename(c->L, ty));
    }
    lua_pop(c->L, 1);
    return s;
}

void lx_check_list(struct lx_reader *c, int t, const char *what, const char *key, int line)
{
    t = lua_absindex(c->L, t);
    lua_pushnil(c->L);
    while (lua_next(c->L, t)) {
        lua_pop(c->L, 1);
        if (lua_type(c->L, -1) == LUA_TSTRING) {
            const char *k = lua_tostring(c->L, -1);
            lx_problem(c, lx_key_line(c, t, k, line),
                       "%s: '%s' is a list and takes no field '%s' (a '}' closed too early?)", what,
                       key, k);
        }
    }
}

/* Pushes t[key] and returns its type; a table is paired with the
 * constructor the source writes there. */
int lx_field(struct lx_reader *c, int t, const char *key)
{
    int child = -1, ty;
    t = lua_absindex(c->L, t);
    lua_pushstring(c->L, key);
    ty = lua_rawget(c->L, t);
    if (ty == LUA_TTABLE && c->src) {
        lx_source_key(c->src, node_of(c, t), key, &child);
        bind(c, child);
    }
    return ty;
}

int lx_item(struct lx_reader *c, int t, size_t i)
{
    int child = -1, ty;
    /* a list's length is the lesson's choice: its reading stays under the
     * load deadline too (this runs inside lx_pcall) */
    lx_check(c->L);
    t = lua_absindex(c->L, t);
    ty = lua_rawgeti(c->L, t, (lua_Integer)i);
    if (ty == LUA_TTABLE && c->src) {
        lx_source_item(c->src, node_of(c, t), i, &child);
        bind(c, child);
    }
    return ty;
}

/* A list of strings at t[key] (a single string counts as a list of one). */
const char **lx_str_list(struct lx_reader *c, int t, const char *key, size_t *n, const char *what,
                         int line)
{
    const char **out = NULL;
    int ty, at;

    t = lua_absindex(c->L, t);
    at = lx_key_line(c, t, key, line);
    ty = lx_field(c, t, key);
    *n = 0;
    if (ty == LUA_TSTRING) {
        out = lx_arena_alloc(&c->p->arena, sizeof *out);
        if (out) {
            out[0] = lx_arena_str(&c->p->arena, lua_tostring(c->L, -1), lua_rawlen(c->L, -1));
            *n = 1;
        }
    } else if (ty == LUA_TTABLE) {
        size_t len = lua_rawlen(c->L, -1);
        lx_check_list(c, -1, what, key, at);
        out = lx_arena_alloc(&c->p->arena, (len ? len : 1) * sizeof *out);
        for (size_t i = 1; out && i <= len; i++) {
            size_t sl;
            int il;
            lx_check(c->L); /* as lx_item: a list as long as the lesson likes */
            il = lx_item_line(c, -1, i, at);
            if (lua_rawgeti(c->L, -1, (lua_Integer)i) != LUA_TSTRING) {
                lx_problem(c, il, "%s: %s[%zu] must be text", what, key, i);
            } else {
                const char *s = lua_tolstring(c->L, -1, &sl);
                if (!kvt_text_is_safe(s, sl, KVT_KEEP_NEWLINES))
                    lx_problem(c, il,
                               "%s: %s[%zu] holds control, escape or bidi characters a terminal "
                               "would obey: %s",
                               what, key, i, s);
                out[(*n)++] = lx_arena_str(&c->p->arena, s, sl);
            }
            lua_pop(c->L, 1);
        }
    } else if (ty != LUA_TNIL) {
        lx_problem(c, at, "%s: '%s' must be a list of text", what, key);
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

/* A key point: "text", or point { "text", accept = {...}, weight = n }.
 * line is where the point is written. */
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
    {
        int al = lx_key_line(c, t, "accept", line);
        bool listed = lx_field(c, t, "accept") == LUA_TTABLE;
        for (size_t i = 0; pt->accept && i < pt->n_accept; i++)
            if (pt->accept[i] && too_loose(pt->accept[i]))
                lx_problem(c, listed ? lx_item_line(c, -1, i + 1, al) : al,
                           "%s: accept phrase \"%s\" is too short: it would match every word "
                           "that starts with it",
                           what, pt->accept[i]);
        lua_pop(c->L, 1);
    }
    pt->about = lx_str_list(c, t, "about", &pt->n_about, what, line);
    pt->said = lx_str_list(c, t, "said", &pt->n_said, what, line);
    pt->shorts = lx_str_list(c, t, "short", &pt->n_shorts, what, line);
    if ((pt->n_about == 0) != (pt->n_said == 0))
        lx_problem(c, line,
                   "%s: point \"%s\": a claim needs both 'about' (what it is about) and 'said' "
                   "(what is said of it)",
                   what, pt->text ? pt->text : "");
    else if (pt->n_shorts && !pt->n_about)
        lx_problem(c, lx_key_line(c, t, "short", line),
                   "%s: point \"%s\": 'short' phrasings belong to a claim (about, said)", what,
                   pt->text ? pt->text : "");
    {
        const char *pol = lx_str_field(c, t, "polarity", false, what, line);
        if (pol && strcmp(pol, "yes") == 0)
            pt->polarity = KV_POLARITY_YES;
        else if (pol && strcmp(pol, "no") == 0)
            pt->polarity = KV_POLARITY_NO;
        else if (pol)
            lx_problem(c, lx_key_line(c, t, "polarity", line),
                       "%s: point \"%s\": polarity is \"yes\" or \"no\", not \"%s\"", what,
                       pt->text ? pt->text : "", pol);
    }
    if (lx_field(c, t, "weight") != LUA_TNIL &&
        !(lx_finite_number(c->L, -1, &pt->weight) && pt->weight > 0 && pt->weight <= 100))
        lx_problem(c, lx_key_line(c, t, "weight", line),
                   "%s: a point's weight must be a number in (0, 100]", what);
    lua_pop(c->L, 1);
}

/* The glossary groups of table t (at its line); groups at their own lines. */
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
    lx_check_list(c, t, what, "glossary", line);
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
        int gl = lx_item_line(c, t, i, line);
        lx_item(c, t, i);
        /* lx_str_list reads a field: lend it the group under a key */
        lua_newtable(c->L);
        lua_pushvalue(c->L, -2);
        snprintf(key, sizeof key, "glossary[%zu]", i);
        lua_setfield(c->L, -2, key);
        terms = lx_str_list(c, -1, key, &n, what, gl);
        lua_pop(c->L, 2);
        if (n < 2) {
            lx_problem(c, gl, "%s: glossary[%zu] must list two or more equivalent terms", what, i);
            continue;
        }
        l->glossary[l->n_glossary++] = (struct kv_phrases){terms, n};
    }
}

struct lx_point *lx_read_points(struct lx_reader *c, int t, size_t *n, const char *what, int line)
{
    struct lx_point *pts = NULL;
    int at, ty;

    t = lua_absindex(c->L, t);
    at = lx_key_line(c, t, "points", line);
    ty = lx_field(c, t, "points");
    *n = 0;
    if (ty == LUA_TTABLE) {
        size_t len = lua_rawlen(c->L, -1);
        lx_check_list(c, -1, what, "points", at);
        pts = lx_arena_alloc(&c->p->arena, (len ? len : 1) * sizeof *pts);
        for (size_t i = 1; pts && i <= len; i++) {
            int pl = lx_item_line(c, -1, i, at);
            memset(&pts[*n], 0, sizeof *pts);
            lx_item(c, -1, i);
            read_point(c, -1, &pts[(*n)++], what, pl);
            lua_pop(c->L, 1);
        }
        if (*n == 0)
            lx_problem(c, at, "%s: 'points' is empty: list the key points answers are graded on",
                       what);
    } else if (ty != LUA_TNIL) {
        lx_problem(c, at, "%s: 'points' must be a list of key points", what);
    } else {
        lx_missing(c, t, "points", line, what, "(key points to grade answers against)");
    }
    lua_pop(c->L, 1);
    if (*n > LX_MAX_POINTS)
        lx_problem(c, at, "%s: %zu key points; at most %d are graded", what, *n, LX_MAX_POINTS);
    return pts;
}

static void read_sections(struct lx_reader *c, int t, int line)
{
    struct lx_lesson *l = c->l;
    int at = lx_key_line(c, t, "sections", line);
    int ty = lx_field(c, t, "sections");

    if (ty == LUA_TTABLE) {
        size_t len = lua_rawlen(c->L, -1);
        lx_check_list(c, -1, "lesson", "sections", at);
        l->sections = lx_arena_alloc(&c->p->arena, (len ? len : 1) * sizeof *l->sections);
        for (size_t i = 1; l->sections && i <= len; i++) {
            struct lx_section *s = &l->sections[l->n_sections++];
            int sl = lx_item_line(c, -1, i, at);
            memset(s, 0, sizeof *s);
            if (lx_item(c, -1, i) != LUA_TTABLE) {
                lx_problem(c, sl, "sections[%zu] must be section { title = ..., text = ... }", i);
                lua_pop(c->L, 1);
                continue;
            }
            sl = s->line = lx_read_line(c, -1, sl);
            lx_check_keys(c, -1, LX_SHAPE_SECTION, "section", sl);
            s->title = lx_str_field(c, -1, "title", true, "section", sl);
            s->text = lx_str_field(c, -1, "text", true, "section", sl);
            lua_pop(c->L, 1);
        }
        if (len == 0)
            lx_problem(c, at, "lesson: 'sections' is empty");
    } else if (ty == LUA_TNIL) {
        lx_missing(c, t < 0 ? t - 1 : t, "sections", line, "lesson", NULL);
    } else {
        lx_problem(c, at, "lesson: 'sections' must be a list of section { ... }");
    }
    lua_pop(c->L, 1);
}

static void read_followups(struct lx_reader *c, int t, int line)
{
    struct lx_lesson *l = c->l;
    int at = lx_key_line(c, t, "followups", line);
    int ty = lx_field(c, t, "followups");

    if (ty == LUA_TTABLE) {
        size_t len = lua_rawlen(c->L, -1);
        lx_check_list(c, -1, "lesson", "followups", at);
        l->followups = lx_arena_alloc(&c->p->arena, (len ? len : 1) * sizeof *l->followups);
        for (size_t i = 1; l->followups && i <= len; i++) {
            struct lx_followup *f = &l->followups[l->n_followups++];
            int fl = lx_item_line(c, -1, i, at);
            memset(f, 0, sizeof *f);
            if (lx_item(c, -1, i) != LUA_TTABLE) {
                lx_problem(c, fl, "followups[%zu] must be followup { ... }", i);
                lua_pop(c->L, 1);
                continue;
            }
            fl = f->line = lx_read_line(c, -1, fl);
            lx_check_keys(c, -1, LX_SHAPE_FOLLOWUP, "followup", fl);
            f->question = lx_str_field(c, -1, "question", true, "followup", fl);
            f->answer = lx_str_field(c, -1, "answer", true, "followup", fl);
            f->points = lx_read_points(c, -1, &f->n_points, "followup", fl);
            f->mis =
                lx_read_misconceptions(c, -1, &f->n_mis, "followup", fl, LX_MAX_MISCONCEPTIONS);
            lua_pop(c->L, 1);
        }
        if (len == 0)
            lx_problem(c, at, "lesson: 'followups' is empty: give interviewer follow-ups");
    } else if (ty != LUA_TNIL) {
        lx_problem(c, at, "lesson: 'followups' must be a list of followup { ... }");
    } else {
        lx_missing(c, t < 0 ? t - 1 : t, "followups", line, "lesson",
                   "(interviewer follow-ups: followups = { ... })");
    }
    lua_pop(c->L, 1);
}

/* links and requires: lists of lesson ids, checked for form here and for
 * existence across files by lint; *lines gets each id's line */
static const char **read_ids(struct lx_reader *c, int t, const char *key, int line, size_t *n,
                             int **lines)
{
    const char **ids = lx_str_list(c, t, key, n, "lesson", line);
    int at = lx_key_line(c, t, key, line);
    bool listed = lx_field(c, t, key) == LUA_TTABLE;

    *lines = lx_arena_alloc(&c->p->arena, (*n ? *n : 1) * sizeof **lines);
    for (size_t i = 0; *lines && i < *n; i++)
        (*lines)[i] = listed ? lx_item_line(c, -1, i + 1, at) : at;
    lua_pop(c->L, 1);
    for (size_t i = 0; ids && *lines && i < *n; i++) {
        if (!ids[i] || !lx_valid_id(ids[i]))
            lx_problem(c, (*lines)[i], "lesson: %s entry \"%s\" is not a lesson id", key,
                       ids[i] ? ids[i] : "");
        else if (c->l->id && strcmp(ids[i], c->l->id) == 0)
            lx_problem(c, (*lines)[i], "lesson: %s names the lesson itself", key);
    }
    return ids;
}

void lx_read_lesson(struct lx_reader *c, int t)
{
    struct lx_lesson *l = c->l;
    lua_State *L = c->L;
    int line;

    t = lua_absindex(L, t);
    line = lx_read_line(c, t, 0);
    lx_check_keys(c, t, LX_SHAPE_LESSON, "lesson", line);
    l->id = lx_str_field(c, t, "id", true, "lesson", line);
    l->id_line = lx_key_line(c, t, "id", line);
    if (l->id && !lx_valid_id(l->id))
        lx_problem(c, l->id_line,
                   "lesson: id \"%s\" must be 1 to %d lower-case letters, digits, '-', '_', '.'",
                   l->id, LX_MAX_ID);
    else if (l->id && c->src && !lx_source_lesson_id_is(c->src, l->id))
        lx_problem(c, l->id_line,
                   "lesson: write the id as one plain string, id = \"%s\", so the course can "
                   "find this lesson without running every file",
                   l->id);
    l->title = lx_str_field(c, t, "title", true, "lesson", line);
    l->module = lx_str_field(c, t, "module", true, "lesson", line);
    l->module_title = lx_str_field(c, t, "module_title", false, "lesson", line);
    l->module_title_line = lx_key_line(c, t, "module_title", line);
    if (l->module_title && !l->module_title[0])
        lx_problem(c, l->module_title_line,
                   "lesson: module_title is empty: give the module's name or leave it out");
    l->baseline = lx_str_field(c, t, "baseline", true, "lesson", line);
    l->concept = lx_str_field(c, t, "concept", true, "lesson", line);
    l->concept_title = lx_str_field(c, t, "concept_title", false, "lesson", line);
    if (l->concept_title && !l->concept_title[0])
        lx_problem(c, lx_key_line(c, t, "concept_title", line),
                   "lesson: concept_title is empty: give the concept's name or leave it out");
    l->question = lx_str_field(c, t, "question", true, "lesson", line);
    l->answer = lx_str_field(c, t, "answer", true, "lesson", line);
    l->worked = lx_code_field(c, t, "worked", true, "lesson", line);
    read_sections(c, t, line);
    if (lx_field(c, t, "points") != LUA_TNIL) {
        lua_pop(L, 1);
        l->points = lx_read_points(c, t, &l->n_points, "lesson", line);
    } else {
        lua_pop(L, 1);
    }
    l->mis = lx_read_misconceptions(c, t, &l->n_mis, "lesson", line, LX_MAX_MISCONCEPTIONS);
    if (lx_field(c, t, "glossary") != LUA_TNIL)
        lx_read_glossary(c, -1, "lesson", lx_key_line(c, t, "glossary", line));
    lua_pop(L, 1);
    read_followups(c, t, line);
    lx_read_exercises(c, t, line);
    l->links = read_ids(c, t, "links", line, &l->n_links, &l->link_lines);
    l->requires = read_ids(c, t, "requires", line, &l->n_requires, &l->require_lines);
}
