/* Loading a lesson: read the file, run it in a fresh sandbox, and turn the
 * table it returns into C structs, reporting every problem with its line.
 * The host reads the lesson's tables with raw access only, so no metamethod
 * of the lesson runs outside a deadline. */
#define _POSIX_C_SOURCE 200809L
#include "lx.h"
#include "lx_state.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <lauxlib.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kv_presets.h"
#include "kv_units.h"
#include "kvt_text.h"

#define LINT_DRAWS 8 /* seeds tried per parametric exercise when loading */

struct chunk {
    struct chunk *next;
    size_t used, cap;
    max_align_t data[];
};

struct lx_priv {
    lua_State *L;
    struct lx_opts opts;
    struct chunk *chunks;
    int *fn_refs; /* per exercise: the expected-value function, or LUA_NOREF */
};

void lx_default_opts(struct lx_opts *o)
{
    *o = (struct lx_opts){.load_ms = 2000, .call_ms = 250, .mem_cap = 64u << 20};
}

void lx_report_free(struct lx_report *r)
{
    free(r->items);
    memset(r, 0, sizeof *r);
}

/* Memory for the lesson's strings and arrays, freed all at once. */
static void *arena(struct lx_priv *p, size_t n)
{
    struct chunk *c = p->chunks;
    n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
    if (!c || c->cap - c->used < n) {
        size_t cap = n > 65536 ? n : 65536;
        c = malloc(sizeof *c + cap);
        if (!c)
            return NULL;
        c->next = p->chunks;
        c->used = 0;
        c->cap = cap;
        p->chunks = c;
    }
    c->used += n;
    return (char *)c->data + c->used - n;
}

static const char *arena_str(struct lx_priv *p, const char *s, size_t len)
{
    char *d = arena(p, len + 1);
    if (d) {
        memcpy(d, s, len);
        d[len] = '\0';
    }
    return d;
}

struct ctx {
    struct lx_lesson *l;
    struct lx_priv *p;
    lua_State *L;
    struct lx_report *rep;
    bool oom;
    int lesson_line;   /* where `lesson {` starts in the source */
    int links_line;    /* where `links =` is */
    int requires_line; /* where `requires =` is */
};

static void add_problem(struct lx_report *rep, int line, const char *msg)
{
    struct lx_problem *pr;
    if (rep->n == rep->cap) {
        size_t cap = rep->cap ? rep->cap * 2 : 8;
        void *n = realloc(rep->items, cap * sizeof *rep->items);
        if (!n)
            return;
        rep->items = n;
        rep->cap = cap;
    }
    pr = &rep->items[rep->n++];
    pr->line = line;
    kvt_sanitize(msg, strlen(msg), pr->msg, sizeof pr->msg, 0);
}

static void problem(struct ctx *c, int line, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    add_problem(c->rep, line, msg);
}

/* Lessons run as the chunk "=lesson", so Lua's messages about them start
 * "lesson:12: " whatever the file's path (a long path would be shortened). */
#define CHUNK "lesson"

/* "lesson:12: message" from Lua: split off the line. */
static void lua_problem(struct lx_report *rep, const char *msg)
{
    size_t n = strlen(CHUNK);
    int line = 0;
    if (strncmp(msg, CHUNK, n) == 0 && msg[n] == ':') {
        char *end;
        long v = strtol(msg + n + 1, &end, 10);
        if (end != msg + n + 1 && *end == ':' && v > 0 && v < 100000000) {
            line = (int)v;
            msg = end + 1;
            while (*msg == ' ')
                msg++;
        }
    }
    add_problem(rep, line, msg);
}

/* The line a DSL table was written on, or the fallback. */
static int line_of(struct ctx *c, int t, int fallback)
{
    int line = lx_line_of(c->L, t);
    return line > 0 ? line : fallback;
}

static bool valid_id(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 64 || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= '0' && s[0] <= '9')))
        return false;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '-' ||
              s[i] == '_' || s[i] == '.'))
            return false;
    return true;
}

/* Every key of table t must be one of `allowed` (NULL-terminated); integer
 * keys are allowed only when array_ok. */
static void check_keys(struct ctx *c, int t, const char *const *allowed, bool array_ok,
                       const char *what, int line)
{
    t = lua_absindex(c->L, t);
    lua_pushnil(c->L);
    while (lua_next(c->L, t)) {
        bool ok = false;
        lua_pop(c->L, 1);
        if (lua_type(c->L, -1) == LUA_TSTRING) {
            const char *k = lua_tostring(c->L, -1);
            for (int i = 0; allowed[i] && !ok; i++)
                ok = strcmp(k, allowed[i]) == 0;
            if (!ok)
                problem(c, line, "%s: unknown field '%s'", what, k);
        } else if (lua_isinteger(c->L, -1) && array_ok) {
            ok = true;
        } else if (!ok) {
            problem(c, line, "%s: unexpected %s key", what, luaL_typename(c->L, -1));
        }
    }
}

/* A string field: NULL when absent (and a problem when required). */
static const char *str_field(struct ctx *c, int t, const char *key, bool required, const char *what,
                             int line)
{
    const char *s = NULL;
    size_t len;
    int ty;

    lua_pushstring(c->L, key);
    ty = lua_rawget(c->L, t < 0 ? t - 1 : t);
    if (ty == LUA_TSTRING) {
        const char *v = lua_tolstring(c->L, -1, &len);
        if (len == 0 && required)
            problem(c, line, "%s: '%s' is empty", what, key);
        else if (!(s = arena_str(c->p, v, len)))
            c->oom = true;
        else if (!kvt_text_is_safe(v, len, KVT_KEEP_NEWLINES))
            problem(c, line,
                    "%s: '%s' holds control, escape or bidi characters a terminal would obey: "
                    "%s",
                    what, key, v);
    } else if (ty == LUA_TNIL) {
        if (required)
            problem(c, line, "%s: missing field '%s'", what, key);
    } else {
        problem(c, line, "%s: '%s' must be text, not a %s", what, key, lua_typename(c->L, ty));
    }
    lua_pop(c->L, 1);
    return s;
}

/* Pushes t[key] and returns its type. */
static int field(struct ctx *c, int t, const char *key)
{
    lua_pushstring(c->L, key);
    return lua_rawget(c->L, t < 0 ? t - 1 : t);
}

/* A list of strings at t[key] (a single string counts as a list of one). */
static const char **str_list(struct ctx *c, int t, const char *key, size_t *n, const char *what,
                             int line)
{
    const char **out = NULL;
    int ty = field(c, t, key);

    *n = 0;
    if (ty == LUA_TSTRING) {
        out = arena(c->p, sizeof *out);
        if (out) {
            out[0] = arena_str(c->p, lua_tostring(c->L, -1), lua_rawlen(c->L, -1));
            *n = 1;
        }
    } else if (ty == LUA_TTABLE) {
        size_t len = lua_rawlen(c->L, -1);
        out = arena(c->p, (len ? len : 1) * sizeof *out);
        for (size_t i = 1; out && i <= len; i++) {
            size_t sl;
            if (lua_rawgeti(c->L, -1, (lua_Integer)i) != LUA_TSTRING) {
                problem(c, line, "%s: %s[%zu] must be text", what, key, i);
            } else {
                const char *s = lua_tolstring(c->L, -1, &sl);
                if (!kvt_text_is_safe(s, sl, KVT_KEEP_NEWLINES))
                    problem(c, line,
                            "%s: %s[%zu] holds control, escape or bidi characters a terminal "
                            "would obey: %s",
                            what, key, i, s);
                out[(*n)++] = arena_str(c->p, s, sl);
            }
            lua_pop(c->L, 1);
        }
    } else if (ty != LUA_TNIL) {
        problem(c, line, "%s: '%s' must be a list of text", what, key);
    }
    lua_pop(c->L, 1);
    return out;
}

static bool finite_number(lua_State *L, int i, double *v)
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
static void read_point(struct ctx *c, int t, struct lx_point *pt, const char *what, int line)
{
    static const char *const keys[] = {"text", "accept", "weight", NULL};
    t = lua_absindex(c->L, t);
    pt->weight = 1;
    if (lua_type(c->L, t) == LUA_TSTRING) {
        pt->text = arena_str(c->p, lua_tostring(c->L, t), lua_rawlen(c->L, t));
        return;
    }
    if (lua_type(c->L, t) != LUA_TTABLE) {
        problem(c, line, "%s: a key point is text or point { ... }", what);
        return;
    }
    line = line_of(c, t, line);
    check_keys(c, t, keys, true, what, line);
    if (lua_rawgeti(c->L, t, 1) == LUA_TSTRING)
        pt->text = arena_str(c->p, lua_tostring(c->L, -1), lua_rawlen(c->L, -1));
    lua_pop(c->L, 1);
    if (!pt->text)
        pt->text = str_field(c, t, "text", true, what, line);
    pt->accept = str_list(c, t, "accept", &pt->n_accept, what, line);
    for (size_t i = 0; pt->accept && i < pt->n_accept; i++)
        if (pt->accept[i] && too_loose(pt->accept[i]))
            problem(c, line,
                    "%s: accept phrase \"%s\" is too short: it would match every word that "
                    "starts with it",
                    what, pt->accept[i]);
    if (field(c, t, "weight") != LUA_TNIL &&
        !(finite_number(c->L, -1, &pt->weight) && pt->weight > 0 && pt->weight <= 100))
        problem(c, line, "%s: a point's weight must be a number in (0, 100]", what);
    lua_pop(c->L, 1);
}

static struct lx_point *read_points(struct ctx *c, int t, size_t *n, const char *what, int line)
{
    struct lx_point *pts = NULL;
    int ty = field(c, t, "points");

    *n = 0;
    if (ty == LUA_TTABLE) {
        size_t len = lua_rawlen(c->L, -1);
        pts = arena(c->p, (len ? len : 1) * sizeof *pts);
        for (size_t i = 1; pts && i <= len; i++) {
            memset(&pts[*n], 0, sizeof *pts);
            lua_rawgeti(c->L, -1, (lua_Integer)i);
            read_point(c, -1, &pts[(*n)++], what, line);
            lua_pop(c->L, 1);
        }
    } else if (ty != LUA_TNIL) {
        problem(c, line, "%s: 'points' must be a list of key points", what);
    }
    lua_pop(c->L, 1);
    if (*n == 0)
        problem(c, line, "%s: needs key points (points = { ... }) to grade answers against", what);
    return pts;
}

static void read_sections(struct ctx *c, int t, int line)
{
    static const char *const keys[] = {"title", "text", NULL};
    struct lx_lesson *l = c->l;
    int ty = field(c, t, "sections");

    if (ty == LUA_TTABLE) {
        size_t len = lua_rawlen(c->L, -1);
        l->sections = arena(c->p, (len ? len : 1) * sizeof *l->sections);
        for (size_t i = 1; l->sections && i <= len; i++) {
            struct lx_section *s = &l->sections[l->n_sections++];
            int sl;
            memset(s, 0, sizeof *s);
            if (lua_rawgeti(c->L, -1, (lua_Integer)i) != LUA_TTABLE) {
                problem(c, line, "sections[%zu] must be section { title = ..., text = ... }", i);
                lua_pop(c->L, 1);
                continue;
            }
            sl = s->line = line_of(c, -1, line);
            check_keys(c, -1, keys, false, "section", sl);
            s->title = str_field(c, -1, "title", true, "section", sl);
            s->text = str_field(c, -1, "text", true, "section", sl);
            lua_pop(c->L, 1);
        }
    } else {
        problem(c, line,
                ty == LUA_TNIL ? "lesson: missing field 'sections'"
                               : "lesson: 'sections' must be a list of section { ... }");
    }
    lua_pop(c->L, 1);
    if (ty == LUA_TTABLE && l->n_sections == 0)
        problem(c, line, "lesson: 'sections' is empty");
}

static void read_followups(struct ctx *c, int t, int line)
{
    static const char *const keys[] = {"question", "answer", "points", NULL};
    struct lx_lesson *l = c->l;
    int ty = field(c, t, "followups");

    if (ty == LUA_TTABLE) {
        size_t len = lua_rawlen(c->L, -1);
        l->followups = arena(c->p, (len ? len : 1) * sizeof *l->followups);
        for (size_t i = 1; l->followups && i <= len; i++) {
            struct lx_followup *f = &l->followups[l->n_followups++];
            int fl;
            memset(f, 0, sizeof *f);
            if (lua_rawgeti(c->L, -1, (lua_Integer)i) != LUA_TTABLE) {
                problem(c, line, "followups[%zu] must be followup { ... }", i);
                lua_pop(c->L, 1);
                continue;
            }
            fl = f->line = line_of(c, -1, line);
            check_keys(c, -1, keys, false, "followup", fl);
            f->question = str_field(c, -1, "question", true, "followup", fl);
            f->answer = str_field(c, -1, "answer", true, "followup", fl);
            f->points = read_points(c, -1, &f->n_points, "followup", fl);
            lua_pop(c->L, 1);
        }
    } else if (ty != LUA_TNIL) {
        problem(c, line, "lesson: 'followups' must be a list of followup { ... }");
    }
    lua_pop(c->L, 1);
    if (l->n_followups == 0)
        problem(c, line, "lesson: needs interviewer follow-ups (followups = { ... })");
}

static bool valid_name(const char *s)
{
    if (!((s[0] >= 'a' && s[0] <= 'z') || s[0] == '_'))
        return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
            return false;
    return true;
}

static void read_param(struct ctx *c, struct lx_param *pm, const char *where, int line)
{
    lua_State *L = c->L;
    const char *kind = lx_kind_of(L, -1);

    if (lua_type(L, -1) != LUA_TTABLE) {
        problem(c, line, "%s: parameter '%s' must be a list or range(lo, hi, step)", where,
                pm->name);
        return;
    }
    if (kind && strcmp(kind, "range") == 0) {
        bool ok = true;
        pm->is_range = true;
        lua_getfield(L, -1, "lo");
        ok &= finite_number(L, -1, &pm->lo);
        lua_getfield(L, -2, "hi");
        ok &= finite_number(L, -1, &pm->hi);
        lua_getfield(L, -3, "step");
        ok &= finite_number(L, -1, &pm->step);
        lua_pop(L, 3);
        if (!ok || pm->lo > pm->hi || !(pm->step > 0) || (pm->hi - pm->lo) / pm->step > 1e6)
            problem(c, line,
                    "%s: parameter '%s': range(lo, hi, step) needs lo <= hi, step > 0 "
                    "and at most a million values",
                    where, pm->name);
        return;
    }
    pm->n_values = lua_rawlen(L, -1);
    if (pm->n_values == 0) {
        problem(c, line, "%s: parameter '%s' has no values to draw from", where, pm->name);
        return;
    }
    pm->values = arena(c->p, pm->n_values * sizeof *pm->values);
    pm->nums = arena(c->p, pm->n_values * sizeof *pm->nums);
    for (size_t i = 0; pm->values && pm->nums && i < pm->n_values; i++) {
        int ty = lua_rawgeti(L, -1, (lua_Integer)i + 1);
        char buf[64];
        pm->nums[i] = NAN;
        if (ty == LUA_TNUMBER && finite_number(L, -1, &pm->nums[i])) {
            if (lua_isinteger(L, -1))
                snprintf(buf, sizeof buf, "%lld", (long long)lua_tointeger(L, -1));
            else
                snprintf(buf, sizeof buf, "%.17g", pm->nums[i]);
            pm->values[i] = arena_str(c->p, buf, strlen(buf));
        } else if (ty == LUA_TSTRING) {
            pm->values[i] = arena_str(c->p, lua_tostring(L, -1), lua_rawlen(L, -1));
        } else {
            problem(c, line, "%s: parameter '%s': values must be numbers or text", where, pm->name);
            pm->values[i] = "";
        }
        lua_pop(L, 1);
    }
}

static int cmp_param(const void *a, const void *b)
{
    return strcmp(((const struct lx_param *)a)->name, ((const struct lx_param *)b)->name);
}

static void read_params(struct ctx *c, int t, struct lx_exercise *e, const char *where)
{
    lua_State *L = c->L;
    int ty = field(c, t, "params");
    size_t cap = 0;

    if (ty == LUA_TTABLE) {
        int pt = lua_gettop(L);
        lua_pushnil(L);
        while (lua_next(L, pt))
            cap++, lua_pop(L, 1);
        e->params = arena(c->p, (cap ? cap : 1) * sizeof *e->params);
        lua_pushnil(L);
        while (e->params && lua_next(L, pt)) {
            struct lx_param *pm = &e->params[e->n_params];
            memset(pm, 0, sizeof *pm);
            if (lua_type(L, -2) != LUA_TSTRING || !valid_name(lua_tostring(L, -2))) {
                problem(c, e->line, "%s: parameter names are lower-case words", where);
            } else {
                pm->name = arena_str(c->p, lua_tostring(L, -2), lua_rawlen(L, -2));
                read_param(c, pm, where, e->line);
                e->n_params++;
            }
            lua_pop(L, 1);
        }
        /* draws follow the names' order, never the table's iteration order */
        qsort(e->params, e->n_params, sizeof *e->params, cmp_param);
    } else if (ty != LUA_TNIL) {
        problem(c, e->line, "%s: 'params' must be a table of name = values", where);
    }
    lua_pop(L, 1);
}

/* Every {name} in the prompt must be a parameter. */
static void check_placeholders(struct ctx *c, const struct lx_exercise *e, const char *where)
{
    for (const char *p = e->prompt ? strchr(e->prompt, '{') : NULL; p; p = strchr(p + 1, '{')) {
        size_t n = strcspn(p + 1, "}");
        bool found = false;
        if (p[1 + n] != '}' || n == 0 || n > 40)
            continue;
        for (size_t i = 0; i < e->n_params && !found; i++)
            found = strlen(e->params[i].name) == n && strncmp(e->params[i].name, p + 1, n) == 0;
        if (e->measured && strlen(e->measured) == n && strncmp(e->measured, p + 1, n) == 0)
            found = true;
        if (!found)
            problem(c, e->line, "%s: the prompt's {%.*s} is not a parameter", where, (int)n, p + 1);
    }
}

static bool value_ok(struct ctx *c, const struct lx_exercise *e, double v, const char *where,
                     const char *source)
{
    const struct kv_unit *u = kv_unit_find(e->unit ? e->unit : "");
    if (!isfinite(v)) {
        problem(c, e->line, "%s: %s is %s, not a finite number", where, source,
                isnan(v) ? "NaN" : "infinite");
        return false;
    }
    if (v == 0 && signbit(v)) {
        problem(c, e->line, "%s: %s is -0", where, source);
        return false;
    }
    if (u && !(fabs(v * u->scale) <= 1e30)) {
        problem(c, e->line, "%s: %s (%g %s) is too large to grade", where, source, v, e->unit);
        return false;
    }
    return true;
}

static void read_tolerance(struct ctx *c, int t, struct lx_exercise *e, const char *where)
{
    lua_State *L = c->L;
    int ty = field(c, t, "tolerance");
    double v = 0;

    e->tolerance = 0.01; /* 1% unless the author says otherwise */
    e->relative = true;
    if (ty == LUA_TNUMBER) {
        if (finite_number(L, -1, &v))
            e->tolerance = v;
        else
            e->tolerance = NAN;
    } else if (ty == LUA_TTABLE) {
        if (lua_getfield(L, -1, "relative") != LUA_TNIL) {
            e->tolerance = finite_number(L, -1, &v) ? v : NAN;
        } else if (lua_getfield(L, -2, "absolute") != LUA_TNIL) {
            e->relative = false;
            e->tolerance = finite_number(L, -1, &v) ? v : NAN;
            lua_pop(L, 1);
        } else {
            e->tolerance = NAN;
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    } else if (ty != LUA_TNIL) {
        e->tolerance = NAN;
    }
    lua_pop(L, 1);
    if (!(e->tolerance > 0) || (e->relative && e->tolerance >= 1))
        problem(c, e->line, "%s: tolerance must be rel(f) with 0 < f < 1, or abs(x) with x > 0",
                where);
}

static void read_numeric(struct ctx *c, int t, struct lx_exercise *e, size_t idx, const char *where)
{
    lua_State *L = c->L;
    int ty;

    e->unit = str_field(c, t, "unit", false, where, e->line);
    if (!e->unit)
        problem(c, e->line, "%s: missing field 'unit' (\"\" for a plain number)", where);
    else if (!kv_unit_find(e->unit))
        problem(c, e->line, "%s: unknown unit \"%s\"", where, e->unit);
    read_tolerance(c, t, e, where);
    read_params(c, t, e, where);
    e->model = str_field(c, t, "model", false, where, e->line);
    if (e->model && !kv_model_preset_find(e->model))
        problem(c, e->line, "%s: model \"%s\" is not a preset (kvtutor models lists them)", where,
                e->model);
    e->kv_dtype = str_field(c, t, "kv_dtype", false, where, e->line);
    if (e->kv_dtype) {
        enum kv_dtype dt;
        if (!kv_dtype_parse(e->kv_dtype, &dt) || kv_dtype_kv_bytes(dt) == 0)
            problem(c, e->line,
                    "%s: kv_dtype \"%s\" is not a cache type (fp32, bf16, fp16, fp8, "
                    "int8)",
                    where, e->kv_dtype);
    }
    e->measured = str_field(c, t, "measured", false, where, e->line);
    if (e->measured && !lx_fact_known(e->measured))
        problem(c, e->line,
                "%s: measured \"%s\" is not a probe figure (read_gbps, peak_gbps, free_gib)", where,
                e->measured);
    e->diagnose = str_field(c, t, "diagnose", false, where, e->line);
    if (e->diagnose && strcmp(e->diagnose, "kv-size") != 0 &&
        strcmp(e->diagnose, "capacity") != 0 && strcmp(e->diagnose, "units") != 0)
        problem(c, e->line, "%s: diagnose is \"kv-size\", \"capacity\" or \"units\"", where);
    check_placeholders(c, e, where);
    ty = field(c, t, "expected");
    if (ty == LUA_TNUMBER) {
        e->has_value = true;
        if (e->measured)
            problem(c, e->line, "%s: a measured exercise computes 'expected' from p.%s", where,
                    e->measured);
        e->value = lua_tonumber(L, -1);
        value_ok(c, e, e->value, where, "the expected value");
        if (e->n_params)
            problem(c, e->line, "%s: with params, 'expected' must be a function of them", where);
        lua_pop(L, 1);
    } else if (ty == LUA_TFUNCTION) {
        c->p->fn_refs[idx] = luaL_ref(L, LUA_REGISTRYINDEX);
    } else {
        problem(c, e->line,
                ty == LUA_TNIL ? "%s: missing field 'expected' (a number or a function)"
                               : "%s: 'expected' must be a number or a function",
                where);
        lua_pop(L, 1);
    }
}

static void read_choice(struct ctx *c, int t, struct lx_exercise *e, const char *where)
{
    static const char *const keys[] = {"text", "correct", "why", NULL};
    lua_State *L = c->L;
    size_t correct = 0;

    if (field(c, t, "options") == LUA_TTABLE) {
        size_t len = lua_rawlen(L, -1);
        e->options = arena(c->p, (len ? len : 1) * sizeof *e->options);
        for (size_t i = 1; e->options && i <= len; i++) {
            struct lx_option *o = &e->options[e->n_options++];
            int ty = lua_rawgeti(L, -1, (lua_Integer)i);
            memset(o, 0, sizeof *o);
            if (ty == LUA_TSTRING) {
                o->text = arena_str(c->p, lua_tostring(L, -1), lua_rawlen(L, -1));
            } else if (ty == LUA_TTABLE) {
                int ol = line_of(c, -1, e->line);
                check_keys(c, -1, keys, true, "option", ol);
                if (lua_rawgeti(L, -1, 1) == LUA_TSTRING)
                    o->text = arena_str(c->p, lua_tostring(L, -1), lua_rawlen(L, -1));
                lua_pop(L, 1);
                if (!o->text)
                    o->text = str_field(c, -1, "text", true, "option", ol);
                o->why = str_field(c, -1, "why", false, "option", ol);
                lua_getfield(L, -1, "correct");
                o->correct = lua_toboolean(L, -1);
                lua_pop(L, 1);
            } else {
                problem(c, e->line, "%s: options[%zu] must be text or option { ... }", where, i);
            }
            correct += o->correct;
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 1);
    if (e->n_options < 2)
        problem(c, e->line, "%s: a choice needs at least two options", where);
    else if (correct == 0)
        problem(c, e->line, "%s: no option is marked correct = true", where);
}

static void read_exercises(struct ctx *c, int t, int line)
{
    static const char *const common[] = {
        "id",     "prompt", "hints", "unit",     "expected", "tolerance", "params", "options",
        "points", "answer", "model", "kv_dtype", "diagnose", "measured",  NULL};
    struct lx_lesson *l = c->l;
    lua_State *L = c->L;
    int ty = field(c, t, "exercises");

    if (ty != LUA_TTABLE) {
        problem(c, line,
                ty == LUA_TNIL ? "lesson: needs exercises (exercises = { ... })"
                               : "lesson: 'exercises' must be a list");
        lua_pop(L, 1);
        return;
    }
    {
        size_t len = lua_rawlen(L, -1);
        l->exercises = arena(c->p, (len ? len : 1) * sizeof *l->exercises);
        c->p->fn_refs = calloc(len ? len : 1, sizeof *c->p->fn_refs);
        if (!l->exercises || !c->p->fn_refs) {
            c->oom = true;
            lua_pop(L, 1);
            return;
        }
        for (size_t i = 0; i < len; i++)
            c->p->fn_refs[i] = LUA_NOREF;
        for (size_t i = 1; i <= len; i++) {
            struct lx_exercise *e = &l->exercises[l->n_exercises];
            const char *kind;
            char where[96];
            memset(e, 0, sizeof *e);
            if (lua_rawgeti(L, -1, (lua_Integer)i) != LUA_TTABLE || !(kind = lx_kind_of(L, -1))) {
                problem(c, line,
                        "exercises[%zu] must be numeric { ... }, choice { ... } or "
                        "freetext { ... }",
                        i);
                lua_pop(L, 1);
                continue;
            }
            e->line = line_of(c, -1, line);
            e->id = str_field(c, -1, "id", true, "exercise", e->line);
            snprintf(where, sizeof where, "exercise '%.60s'", e->id ? e->id : "?");
            if (e->id && !valid_id(e->id))
                problem(c, e->line, "%s: ids are lower-case letters, digits, '-', '_' and '.'",
                        where);
            for (size_t k = 0; e->id && k < l->n_exercises; k++)
                if (l->exercises[k].id && strcmp(l->exercises[k].id, e->id) == 0)
                    problem(c, e->line, "%s: the id is used twice (also line %d)", where,
                            l->exercises[k].line);
            check_keys(c, -1, common, false, where, e->line);
            e->prompt = str_field(c, -1, "prompt", true, where, e->line);
            e->hints = str_list(c, -1, "hints", &e->n_hints, where, e->line);
            if (strcmp(kind, "numeric") == 0) {
                e->kind = LX_NUMERIC;
                read_numeric(c, -1, e, l->n_exercises, where);
            } else if (strcmp(kind, "choice") == 0) {
                e->kind = LX_CHOICE;
                read_choice(c, -1, e, where);
            } else if (strcmp(kind, "freetext") == 0) {
                e->kind = LX_FREETEXT;
                e->points = read_points(c, -1, &e->n_points, where, e->line);
                e->model_answer = str_field(c, -1, "answer", true, where, e->line);
            } else {
                problem(c, e->line, "exercises[%zu] is a %s, not an exercise", i, kind);
            }
            l->n_exercises++;
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 1);
    if (l->n_exercises == 0)
        problem(c, line, "lesson: 'exercises' is empty");
}

/* links and requires: lists of lesson ids, checked for form here and for
 * existence across files by lint */
static const char **read_ids(struct ctx *c, int t, const char *key, int line, size_t *n)
{
    const char **ids = str_list(c, t, key, n, "lesson", line);
    for (size_t i = 0; ids && i < *n; i++) {
        if (!ids[i] || !valid_id(ids[i]))
            problem(c, line, "lesson: %s entry \"%s\" is not a lesson id", key,
                    ids[i] ? ids[i] : "");
        else if (c->l->id && strcmp(ids[i], c->l->id) == 0)
            problem(c, line, "lesson: %s names the lesson itself", key);
    }
    return ids;
}

static void read_links(struct ctx *c, int t, int line)
{
    struct lx_lesson *l = c->l;
    int links_at = c->links_line > 0 ? c->links_line : line;
    l->links = read_ids(c, t, "links", links_at, &l->n_links);
    l->link_lines = arena(c->p, (l->n_links ? l->n_links : 1) * sizeof *l->link_lines);
    for (size_t i = 0; l->link_lines && i < l->n_links; i++)
        l->link_lines[i] = links_at;
    l->requires_line = c->requires_line > 0 ? c->requires_line : line;
    l->requires = read_ids(c, t, "requires", l->requires_line, &l->n_requires);
}

static void read_lesson(struct ctx *c, int t)
{
    static const char *const keys[] = {"id",        "title",  "module",   "baseline", "concept",
                                       "question",  "answer", "sections", "worked",   "followups",
                                       "exercises", "links",  "points",   "requires", NULL};
    struct lx_lesson *l = c->l;
    lua_State *L = c->L;
    int line = line_of(c, t, c->lesson_line), ty;

    check_keys(c, t, keys, false, "lesson", line);
    l->id = str_field(c, t, "id", true, "lesson", line);
    if (l->id && !valid_id(l->id))
        problem(c, line, "lesson: id \"%s\" must be lower-case letters, digits, '-', '_', '.'",
                l->id);
    l->title = str_field(c, t, "title", true, "lesson", line);
    l->module = str_field(c, t, "module", true, "lesson", line);
    l->baseline = str_field(c, t, "baseline", true, "lesson", line);
    l->concept = str_field(c, t, "concept", true, "lesson", line);
    l->question = str_field(c, t, "question", true, "lesson", line);
    l->answer = str_field(c, t, "answer", true, "lesson", line);
    ty = field(c, t, "worked");
    if (ty == LUA_TTABLE) {
        lua_getfield(L, -1, "text");
        if (lua_type(L, -1) == LUA_TSTRING)
            l->worked = arena_str(c->p, lua_tostring(L, -1), lua_rawlen(L, -1));
        lua_pop(L, 1);
    } else if (ty == LUA_TSTRING) {
        l->worked = arena_str(c->p, lua_tostring(L, -1), lua_rawlen(L, -1));
    }
    lua_pop(L, 1);
    if (!l->worked)
        problem(c, line, "lesson: missing field 'worked' (a code [[ ... ]] block of arithmetic)");
    read_sections(c, t, line);
    if (field(c, t, "points") != LUA_TNIL) {
        lua_pop(L, 1);
        l->points = read_points(c, t, &l->n_points, "lesson", line);
    } else {
        lua_pop(L, 1);
    }
    read_followups(c, t, line);
    read_exercises(c, t, line);
    read_links(c, t, line);
}

/* Reads the file whole, refusing what is not a regular text file of sane size. */
static char *read_file(const char *path, size_t *len, struct lx_report *rep)
{
    struct stat sb;
    char *buf = NULL, msg[200];
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);

    if (fd < 0) {
        snprintf(msg, sizeof msg, "cannot read: %s", strerror(errno));
        add_problem(rep, 0, msg);
        return NULL;
    }
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        add_problem(rep, 0, S_ISDIR(sb.st_mode) ? "is a folder" : "is not a regular file");
    } else if (sb.st_size > (off_t)LX_MAX_FILE) {
        snprintf(msg, sizeof msg, "%lld bytes: lessons are limited to %u KiB",
                 (long long)sb.st_size, LX_MAX_FILE / 1024);
        add_problem(rep, 0, msg);
    } else if ((buf = malloc((size_t)sb.st_size + 1)) != NULL) {
        ssize_t n = read(fd, buf, (size_t)sb.st_size);
        if (n != sb.st_size) {
            snprintf(msg, sizeof msg, "cannot read: %s", n < 0 ? strerror(errno) : "short read");
            add_problem(rep, 0, msg);
            free(buf);
            buf = NULL;
        } else {
            buf[n] = '\0';
            *len = (size_t)n;
        }
    }
    close(fd);
    return buf;
}

/* Runs lua/kvtutor.lua in the fresh state. */
static bool load_dsl(lua_State *L, const struct lx_opts *o, struct lx_report *rep)
{
    size_t len = 0;
    struct lx_report sub = {0};
    char *src = o->dsl ? read_file(o->dsl, &len, &sub) : NULL;
    char msg[600];

    if (!src) {
        snprintf(msg, sizeof msg, "the lesson DSL (lua/kvtutor.lua) cannot be read%s%s",
                 sub.n ? ": " : "", sub.n ? sub.items[0].msg : "");
        add_problem(rep, 0, msg);
        lx_report_free(&sub);
        return false;
    }
    if (luaL_loadbufferx(L, src, len, "=kvtutor.lua", "t") != LUA_OK ||
        lx_pcall(L, 0, 0, o->load_ms) != LUA_OK) {
        snprintf(msg, sizeof msg, "the lesson DSL failed: %s", lx_errmsg(L));
        add_problem(rep, 0, msg);
        free(src);
        return false;
    }
    free(src);
    return true;
}

void lx_free(struct lx_lesson *l)
{
    struct lx_priv *p;
    if (!l)
        return;
    p = l->priv;
    lx_sandbox_close(p->L);
    while (p->chunks) {
        struct chunk *next = p->chunks->next;
        free(p->chunks);
        p->chunks = next;
    }
    free(p->fn_refs);
    free(p);
    free(l);
}

/* Lint draws measured exercises with figures a real machine could give: a
 * 24 GB card's 900 of 1008 GB/s with 22 GiB free. */
static const struct lx_fact sample_facts[] = {
    {"read_gbps", 900.0},
    {"peak_gbps", 1008.0},
    {"free_gib", 22.0},
};
#define N_SAMPLE_FACTS (sizeof sample_facts / sizeof sample_facts[0])

bool lx_fact_known(const char *name)
{
#define LX_FACT_IS(n, what)                                                                        \
    if (name && strcmp(name, #n) == 0)                                                             \
        return true;
    LX_FACTS(LX_FACT_IS)
#undef LX_FACT_IS
    return false;
}

static void check_draws(struct ctx *c)
{
    struct lx_lesson *l = c->l;
    for (size_t i = 0; i < l->n_exercises; i++) {
        struct lx_exercise *e = &l->exercises[i];
        int draws = e->n_params ? LINT_DRAWS : 1;
        char where[96];
        if (e->kind != LX_NUMERIC || e->has_value || c->p->fn_refs[i] == LUA_NOREF)
            continue;
        snprintf(where, sizeof where, "exercise '%.60s'", e->id ? e->id : "?");
        for (int s = 1; s <= draws; s++) {
            struct lx_draw d;
            char err[200];
            if (lx_draw_measured(l, i, (uint64_t)s, sample_facts, N_SAMPLE_FACTS, &d, err,
                                 sizeof err) != KVT_E_OK) {
                /* "lesson:14: msg" from inside the lesson reads "line 14: msg" here */
                size_t pl = strlen(CHUNK);
                const char *msg = err;
                char shorter[200];
                if (strncmp(err, CHUNK, pl) == 0 && err[pl] == ':') {
                    snprintf(shorter, sizeof shorter, "line %s", err + pl + 1);
                    msg = shorter;
                }
                problem(c, e->line, "%s: expected value%s%s: %s", where, d.params[0] ? " at " : "",
                        d.params, msg);
                break;
            }
            if (!value_ok(c, e, d.value, where, "the expected value"))
                break;
        }
    }
}

/* The first line of the source where `word` stands as a whole word and is
 * followed by one of `next` (comments skipped); 0 when there is none.
 * `return lesson { ... }` is a tail call, so no stack frame remembers its
 * line, and a plain list like links = { ... } is never marked: the source
 * says where they are. */
static int source_line(const char *src, const char *word, const char *next)
{
    size_t wl = strlen(word);
    int line = 1;
    for (const char *p = src; *p; p++) {
        if (p[0] == '-' && p[1] == '-') { /* comments: skip to their end */
            const char *end = strncmp(p + 2, "[[", 2) == 0 ? strstr(p, "]]") : strchr(p, '\n');
            if (!end)
                break;
            for (; p < end; p++)
                line += *p == '\n';
            p = end[0] == '\n' ? end - 1 : end + 1;
            continue;
        }
        if (*p == '\n') {
            line++;
        } else if (strncmp(p, word, wl) == 0 &&
                   (p == src || !(isalnum((unsigned char)p[-1]) || p[-1] == '_'))) {
            const char *q = p + wl;
            while (*q == ' ' || *q == '\t')
                q++;
            if (*q && strchr(next, *q))
                return line;
        }
    }
    return 0;
}

/* Runs in a protected call: (ctx, lesson table). */
static int extract(lua_State *L)
{
    struct ctx *c = lua_touserdata(L, 1);
    const char *kind = lua_type(L, 2) == LUA_TTABLE ? lx_kind_of(L, 2) : NULL;

    if (!kind || strcmp(kind, "lesson") != 0) {
        add_problem(c->rep, 0, "the file must end with: return lesson { ... }");
        return 0;
    }
    read_lesson(c, 2);
    return 0;
}

enum kvt_err lx_load(const char *path, const struct lx_opts *opts, struct lx_lesson **out,
                     struct lx_report *report)
{
    struct lx_lesson *l = calloc(1, sizeof *l);
    struct lx_priv *p = calloc(1, sizeof *p);
    struct ctx c = {.l = l, .p = p, .rep = report};
    char chunk[4104];
    size_t len = 0;
    char *src;

    *out = NULL;
    if (!l || !p) {
        free(l);
        free(p);
        add_problem(report, 0, "out of memory");
        return KVT_E_IO;
    }
    l->priv = p;
    p->opts = *opts;
    l->path = arena_str(p, path, strlen(path));
    if (!(src = read_file(path, &len, report))) {
        lx_free(l);
        return KVT_E_IO;
    }
    p->L = c.L = lx_sandbox_new(opts->mem_cap);
    if (c.L)
        lx_ctx(c.L)->stop = opts->stop;
    if (!p->L) {
        add_problem(report, 0, "not enough memory for a lesson sandbox");
        free(src);
        lx_free(l);
        return KVT_E_IO;
    }
    snprintf(chunk, sizeof chunk, "=%s", CHUNK);
    snprintf(lx_ctx(c.L)->chunkname, sizeof lx_ctx(c.L)->chunkname, "%s", chunk);
    if (!load_dsl(c.L, opts, report)) {
        free(src);
        lx_free(l);
        return KVT_E_IO;
    }
    /* text only: a compiled chunk is refused before it can run */
    if (luaL_loadbufferx(c.L, src, len, chunk, "t") != LUA_OK ||
        lx_pcall(c.L, 0, 1, opts->load_ms) != LUA_OK) {
        lua_problem(report, lx_errmsg(c.L));
        free(src);
        lx_free(l);
        return KVT_E_PARSE;
    }
    c.lesson_line = source_line(src, "lesson", "{(");
    c.links_line = source_line(src, "links", "=");
    c.requires_line = source_line(src, "requires", "=");
    free(src);
    /* reading the tables can run out of memory or meet a metamethod: do it
     * inside a protected call, under the load deadline too */
    lua_pushcfunction(c.L, extract);
    lua_pushlightuserdata(c.L, &c);
    lua_pushvalue(c.L, -3);
    if (lx_pcall(c.L, 2, 0, opts->load_ms) != LUA_OK)
        lua_problem(report, lx_errmsg(c.L));
    lua_settop(c.L, 0);
    if (c.oom)
        add_problem(report, 0, "out of memory");
    if (report->n == 0)
        check_draws(&c);
    if (report->n > 0) {
        lx_free(l);
        return KVT_E_PARSE;
    }
    *out = l;
    return KVT_E_OK;
}

/* splitmix64: a documented generator, so a seed draws the same parameters
 * on every machine and in every version. */
static uint64_t mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

static void append(char *buf, size_t cap, const char *s, size_t n)
{
    size_t len = strlen(buf);
    if (len + n >= cap)
        n = cap - len - 1;
    memcpy(buf + len, s, n);
    buf[len + n] = '\0';
}

struct draw_args {
    struct lx_lesson *l;
    size_t ex;
    uint64_t seed;
    const struct lx_fact *facts;
    size_t n_facts;
    char measured[48]; /* the measured figure, as the prompt shows it */
    struct lx_draw *out;
    char values[64][48];
};

/* Runs in a protected call: draws the parameters, fills the prompt, and
 * calls the exercise's expected(p). */
static int draw_cb(lua_State *L)
{
    struct draw_args *a = lua_touserdata(L, 1);
    const struct lx_exercise *e = &a->l->exercises[a->ex];
    struct lx_draw *out = a->out;
    size_t np = e->n_params < 64 ? e->n_params : 64;

    if (e->model)
        snprintf(out->model, sizeof out->model, "%s", e->model);
    if (e->kv_dtype)
        snprintf(out->kv_dtype, sizeof out->kv_dtype, "%s", e->kv_dtype);
    if (!e->has_value)
        lua_rawgeti(L, LUA_REGISTRYINDEX, a->l->priv->fn_refs[a->ex]);
    lua_createtable(L, 0, (int)np);
    for (size_t i = 0; i < np; i++) {
        const struct lx_param *pm = &e->params[i];
        uint64_t r = mix(a->seed * 0x100000001B3ull + i + 1);
        double x;
        if (pm->is_range) {
            uint64_t count = (uint64_t)floor((pm->hi - pm->lo) / pm->step) + 1;
            x = pm->lo + (double)(r % count) * pm->step;
        } else {
            size_t k = (size_t)(r % pm->n_values);
            x = pm->nums[k];
            if (isnan(x)) {
                lua_pushstring(L, pm->values[k]);
                snprintf(a->values[i], sizeof a->values[i], "%s", pm->values[k]);
            }
        }
        if (!isnan(x) && x == floor(x) && fabs(x) < 9e15) {
            lua_pushinteger(L, (lua_Integer)x);
            snprintf(a->values[i], sizeof a->values[i], "%lld", (long long)x);
        } else if (!isnan(x)) {
            lua_pushnumber(L, x);
            snprintf(a->values[i], sizeof a->values[i], "%g", x);
        }
        lua_setfield(L, -2, pm->name);
        if (strcmp(pm->name, "model") == 0)
            snprintf(out->model, sizeof out->model, "%s", a->values[i]);
        if (strcmp(pm->name, "kv_dtype") == 0)
            snprintf(out->kv_dtype, sizeof out->kv_dtype, "%s", a->values[i]);
        if (i)
            append(out->params, sizeof out->params, ", ", 2);
        append(out->params, sizeof out->params, pm->name, strlen(pm->name));
        append(out->params, sizeof out->params, "=", 1);
        append(out->params, sizeof out->params, a->values[i], strlen(a->values[i]));
    }
    if (e->measured) {
        const struct lx_fact *f = NULL;
        for (size_t i = 0; i < a->n_facts && !f; i++)
            if (strcmp(a->facts[i].name, e->measured) == 0 && isfinite(a->facts[i].value))
                f = &a->facts[i];
        if (!f)
            return luaL_error(L,
                              "it needs your own %s: run the probe first (P on the course "
                              "map, or kvtutor probe)",
                              e->measured);
        lua_pushnumber(L, f->value);
        lua_setfield(L, -2, e->measured);
        /* shown as the probe screen shows it: one decimal */
        snprintf(a->measured, sizeof a->measured, "%.1f", f->value);
    }
    /* the prompt with {name} filled in */
    for (const char *s = e->prompt ? e->prompt : ""; *s;) {
        const char *open = strchr(s, '{');
        size_t n;
        bool done = false;
        if (!open) {
            append(out->prompt, sizeof out->prompt, s, strlen(s));
            break;
        }
        append(out->prompt, sizeof out->prompt, s, (size_t)(open - s));
        n = strcspn(open + 1, "}");
        for (size_t i = 0; i < np && open[1 + n] == '}' && !done; i++) {
            if (strlen(e->params[i].name) == n && strncmp(e->params[i].name, open + 1, n) == 0) {
                append(out->prompt, sizeof out->prompt, a->values[i], strlen(a->values[i]));
                s = open + n + 2;
                done = true;
            }
        }
        if (!done && e->measured && open[1 + n] == '}' && strlen(e->measured) == n &&
            strncmp(e->measured, open + 1, n) == 0) {
            append(out->prompt, sizeof out->prompt, a->measured, strlen(a->measured));
            s = open + n + 2;
            done = true;
        }
        if (!done) {
            append(out->prompt, sizeof out->prompt, "{", 1);
            s = open + 1;
        }
    }
    if (e->has_value) {
        out->value = e->value;
        return 0;
    }
    lua_call(L, 1, 1);
    if (lua_type(L, -1) != LUA_TNUMBER)
        return luaL_error(L, "expected(p) returned %s, not a number", luaL_typename(L, -1));
    out->value = lua_tonumber(L, -1);
    if (!isfinite(out->value))
        return luaL_error(L, "expected(p) returned %s", isnan(out->value) ? "NaN" : "an infinity");
    return 0;
}

enum kvt_err lx_draw(struct lx_lesson *l, size_t ex, uint64_t seed, struct lx_draw *out, char *err,
                     size_t err_cap)
{
    return lx_draw_measured(l, ex, seed, NULL, 0, out, err, err_cap);
}

enum kvt_err lx_draw_measured(struct lx_lesson *l, size_t ex, uint64_t seed,
                              const struct lx_fact *facts, size_t n_facts, struct lx_draw *out,
                              char *err, size_t err_cap)
{
    lua_State *L = l->priv->L;
    struct draw_args *a;
    enum kvt_err e = KVT_E_OK;

    memset(out, 0, sizeof *out);
    if (ex >= l->n_exercises || l->exercises[ex].kind != LX_NUMERIC) {
        snprintf(err, err_cap, "not a numeric exercise");
        return KVT_E_RANGE;
    }
    a = calloc(1, sizeof *a);
    if (!a) {
        snprintf(err, err_cap, "out of memory");
        return KVT_E_RANGE;
    }
    *a = (struct draw_args){
        .l = l, .ex = ex, .seed = seed, .facts = facts, .n_facts = n_facts, .out = out};
    lua_settop(L, 0);
    lua_pushcfunction(L, draw_cb);
    lua_pushlightuserdata(L, a);
    if (lx_pcall(L, 1, 0, l->priv->opts.call_ms) != LUA_OK) {
        snprintf(err, err_cap, "%s", lx_errmsg(L));
        e = KVT_E_RANGE;
    }
    lua_settop(L, 0);
    free(a);
    return e;
}

static struct kv_diag_model diag_model(const struct lx_draw *d)
{
    struct kv_diag_model m = {0};
    const struct kv_model_preset *p = d->model[0] ? kv_model_preset_find(d->model) : NULL;
    enum kv_dtype dt = KV_DTYPE_BF16;

    if (!p || p->model.mla_rank > 0)
        return m; /* the head arithmetic is for K/V caches */
    m.known = true;
    m.layers = p->model.layers;
    m.heads = p->model.heads;
    m.kv_heads = p->model.kv_heads;
    if (d->kv_dtype[0])
        kv_dtype_parse(d->kv_dtype, &dt);
    else if (p->model.dtype != KV_DTYPE_AUTO)
        dt = p->model.dtype;
    m.kv_bytes = kv_dtype_kv_bytes(dt);
    return m;
}

static enum kv_relation relation(const struct lx_exercise *e, const struct kv_unit *u)
{
    if (e->diagnose)
        return strcmp(e->diagnose, "kv-size") == 0    ? KV_REL_DIRECT
               : strcmp(e->diagnose, "capacity") == 0 ? KV_REL_INVERSE
                                                      : KV_REL_NONE;
    return u && u->dim == KV_DIM_BYTES ? KV_REL_DIRECT : KV_REL_NONE;
}

static void grade_points(const struct lx_point *p, size_t n, const char *typed,
                         struct lx_grade *out)
{
    struct kv_keypoint pts[KV_MAX_POINTS];
    if (n > KV_MAX_POINTS)
        n = KV_MAX_POINTS;
    for (size_t i = 0; i < n; i++)
        pts[i] = (struct kv_keypoint){p[i].text, p[i].accept, p[i].n_accept, p[i].weight};
    kv_grade_text(pts, n, typed, &out->text);
    out->verdict = out->text.verdict;
    out->score = out->text.score;
    if (out->verdict == KV_INVALID)
        snprintf(out->why, sizeof out->why, "no answer");
}

void lx_grade(const struct lx_lesson *l, size_t ex, const struct lx_draw *draw, const char *typed,
              struct lx_grade *out)
{
    const struct lx_exercise *e = &l->exercises[ex];

    memset(out, 0, sizeof *out);
    out->picked = out->correct_option = -1;
    if (e->kind == LX_NUMERIC) {
        out->spec = (struct kv_numeric){draw->value,  kv_unit_find(e->unit ? e->unit : ""),
                                        e->tolerance, e->relative,
                                        KV_REL_NONE,  diag_model(draw)};
        out->spec.relation = relation(e, out->spec.unit);
        kv_grade_numeric(&out->spec, typed, &out->num);
        out->verdict = out->num.verdict;
        out->score = out->num.score;
        snprintf(out->why, sizeof out->why, "%s", out->num.why);
    } else if (e->kind == LX_CHOICE) {
        const char *texts[64];
        size_t n = e->n_options < 64 ? e->n_options : 64;
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
        grade_points(e->points, e->n_points, typed, out);
    }
}

void lx_grade_question(const struct lx_lesson *l, const char *typed, struct lx_grade *out)
{
    memset(out, 0, sizeof *out);
    out->picked = out->correct_option = -1;
    grade_points(l->points, l->n_points, typed, out);
}

void lx_grade_followup(const struct lx_lesson *l, size_t i, const char *typed, struct lx_grade *out)
{
    memset(out, 0, sizeof *out);
    out->picked = out->correct_option = -1;
    grade_points(l->followups[i].points, l->followups[i].n_points, typed, out);
}
