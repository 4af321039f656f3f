/* Drawing one attempt at a numeric exercise: parameters from a seed, the
 * learner's measured figures, the prompt filled in (kvt_template), the
 * expected value from the lesson's expected(p), and the model the
 * diagnosis reasons about. Only the call of expected(p) runs Lua. */
#include "lx.h"

#include <ctype.h>
#include <lauxlib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kv_grade.h"
#include "kv_presets.h"
#include "kvt_format.h"
#include "kvt_template.h"
#include "lx_priv.h"

bool lx_fact_known(const char *name)
{
#define LX_FACT_IS(n, what)                                                                        \
    if (name && strcmp(name, #n) == 0)                                                             \
        return true;
    LX_FACTS(LX_FACT_IS)
#undef LX_FACT_IS
    return false;
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

/* Parameter i of exercise e for this seed. */
static void draw_param(const struct lx_param *pm, size_t i, uint64_t seed, struct lx_drawn *d)
{
    uint64_t r = mix(seed * 0x100000001B3ull + i + 1);
    double x;

    snprintf(d->name, sizeof d->name, "%s", pm->name);
    if (pm->is_range) {
        uint64_t count = (uint64_t)floor((pm->hi - pm->lo) / pm->step) + 1;
        x = pm->lo + (double)(r % count) * pm->step;
    } else {
        size_t k = (size_t)(r % pm->n_values);
        x = pm->nums[k];
        if (isnan(x))
            snprintf(d->text, sizeof d->text, "%s", pm->values[k]);
    }
    d->num = x;
    if (!isnan(x) && x == floor(x) && fabs(x) < 9e15)
        snprintf(d->text, sizeof d->text, "%lld", (long long)x);
    else if (!isnan(x))
        snprintf(d->text, sizeof d->text, "%g", x);
}

/* A whole number goes to Lua as an integer, so p.seq // 2 stays one. */
static void push_value(lua_State *L, double x, const char *text)
{
    if (isnan(x))
        lua_pushstring(L, text);
    else if (x == floor(x) && fabs(x) < 9e15)
        lua_pushinteger(L, (lua_Integer)x);
    else
        lua_pushnumber(L, x);
}

struct call_args {
    int fn_ref;
    const struct lx_draw *draw;
    const struct lx_fact *fact; /* the measured figure, or NULL */
    double value;
    char *worked; /* the draw's, sizeof worked bytes */
    int slip_ref;
    double *slips; /* the draw's, KV_SLIP__COUNT of them */
};

/* p: the drawn values, and the measured figure when there is one. */
static void push_p(lua_State *L, const struct call_args *a)
{
    const struct lx_draw *d = a->draw;
    lua_createtable(L, 0, (int)d->n_params + 1);
    for (size_t i = 0; i < d->n_params; i++) {
        push_value(L, d->params[i].num, d->params[i].text);
        lua_setfield(L, -2, d->params[i].name);
    }
    if (a->fact) {
        lua_pushnumber(L, a->fact->value);
        lua_setfield(L, -2, a->fact->name);
    }
}

/* Runs in a protected call: slips(p), a table of the slips' figures for
 * this draw ({ decodes_left_out = 24 }); a key it leaves out, or 0, is none. */
static int call_slips(lua_State *L)
{
    struct call_args *a = lua_touserdata(L, 1);
    int t;

    lua_rawgeti(L, LUA_REGISTRYINDEX, a->slip_ref);
    push_p(L, a);
    lua_call(L, 1, 1);
    if (lua_type(L, -1) != LUA_TTABLE)
        return luaL_error(L, "slips(p) returned %s, not a table", luaL_typename(L, -1));
    t = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, t)) {
        const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
        int s = kv_slip_find(k);
        double v;
        if (s < 0)
            return luaL_error(L, "slips(p) gave \"%s\", which is no slip (see docs/lessons.md)",
                              k ? k : "?");
        if (lua_type(L, -1) != LUA_TNUMBER || !isfinite(v = lua_tonumber(L, -1)))
            return luaL_error(L, "slips(p).%s is %s, not a finite number", k, luaL_typename(L, -1));
        a->slips[s] = v;
        lua_pop(L, 1);
    }
    return 0;
}

/* Runs in a protected call: expected(p) with p holding the drawn values. */
static int call_expected(lua_State *L)
{
    struct call_args *a = lua_touserdata(L, 1);

    lua_rawgeti(L, LUA_REGISTRYINDEX, a->fn_ref);
    push_p(L, a);
    lua_call(L, 1, 2);
    /* the worked arithmetic comes from the same call as the number, so the
     * two cannot disagree */
    if (lua_type(L, -1) == LUA_TSTRING) {
        size_t n;
        const char *w = lua_tolstring(L, -1, &n);
        if (n >= sizeof((struct lx_draw *)0)->worked)
            return luaL_error(L, "expected(p)'s worked arithmetic is longer than %d bytes",
                              (int)sizeof((struct lx_draw *)0)->worked - 1);
        memcpy(a->worked, w, n);
        a->worked[n] = '\0';
    } else if (!lua_isnil(L, -1)) {
        return luaL_error(L, "expected(p)'s second value is %s, not text", luaL_typename(L, -1));
    }
    lua_pop(L, 1);
    if (lua_type(L, -1) != LUA_TNUMBER)
        return luaL_error(L, "expected(p) returned %s, not a number", luaL_typename(L, -1));
    a->value = lua_tonumber(L, -1);
    if (!isfinite(a->value))
        return luaL_error(L, "expected(p) returned %s", isnan(a->value) ? "NaN" : "an infinity");
    return 0;
}

/* The model the diagnosis reasons about, from the model and cache type the
 * exercise names or draws; .known false for none or an MLA model. */
static struct kv_diag_model diag_model(const char *model, const char *kv_dtype)
{
    struct kv_diag_model m = {0};
    const struct kv_model_preset *p = model[0] ? kv_model_preset_find(model) : NULL;
    enum kv_dtype dt = KV_DTYPE_BF16;

    if (!p || p->model.mla_rank > 0)
        return m; /* the head arithmetic is for K/V caches */
    m.known = true;
    m.layers = p->model.layers;
    m.heads = p->model.heads;
    m.kv_heads = p->model.kv_heads;
    if (kv_dtype[0])
        kv_dtype_parse(kv_dtype, &dt);
    else if (p->model.dtype != KV_DTYPE_AUTO)
        dt = p->model.dtype;
    m.kv_bytes = kv_dtype_kv_bytes(dt);
    return m;
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
    const struct lx_exercise *e;
    struct kvt_var vars[LX_MAX_PARAMS + 1];
    struct call_args a = {.draw = out, .worked = out->worked, .slips = out->slips};
    char measured[48] = "";                           /* as the probe screen shows it */
    char shown[LX_MAX_PARAMS][LX_MAX_PARAM_TEXT + 1]; /* a drawn number as people read it */
    size_t nv = 0;
    lua_State *L = l->priv->L;

    memset(out, 0, sizeof *out);
    if (ex >= l->n_exercises || l->exercises[ex].kind != LX_NUMERIC) {
        snprintf(err, err_cap, "not a numeric exercise");
        return KVT_E_RANGE;
    }
    e = &l->exercises[ex];
    if (e->n_params > LX_MAX_PARAMS) { /* the loader refuses these */
        snprintf(err, err_cap, "more than %d parameters", LX_MAX_PARAMS);
        return KVT_E_RANGE;
    }
    for (size_t i = 0; e->measured && i < n_facts && !a.fact; i++)
        if (strcmp(facts[i].name, e->measured) == 0 && isfinite(facts[i].value))
            a.fact = &facts[i];
    if (e->measured && !a.fact) {
        snprintf(err, err_cap,
                 "it needs your own %s: run the probe first (P on the course map, or kvtutor "
                 "probe)",
                 e->measured);
        return KVT_E_MISSING;
    }

    if (e->model)
        snprintf(out->model, sizeof out->model, "%s", e->model);
    if (e->kv_dtype)
        snprintf(out->kv_dtype, sizeof out->kv_dtype, "%s", e->kv_dtype);
    for (size_t i = 0; i < e->n_params; i++) {
        struct lx_drawn *d = &out->params[out->n_params++];
        draw_param(&e->params[i], i, seed, d);
        /* the prompt groups a drawn count ("32,768 tokens"); d->text stays
         * as drawn, for the fingerprints and the JSON */
        if (isnan(d->num))
            snprintf(shown[i], sizeof shown[i], "%s", d->text);
        else
            kvt_fmt_number(d->num, 6, shown[i], sizeof shown[i]);
        vars[nv++] = (struct kvt_var){d->name, shown[i]};
        if (strcmp(d->name, "model") == 0)
            snprintf(out->model, sizeof out->model, "%s", d->text);
        if (strcmp(d->name, "kv_dtype") == 0)
            snprintf(out->kv_dtype, sizeof out->kv_dtype, "%.*s", (int)sizeof out->kv_dtype - 1,
                     d->text);
    }
    out->diag = diag_model(out->model, out->kv_dtype);
    /* a drawn tp makes the figure per GPU: the heads each GPU keeps */
    for (size_t i = 0; i < out->n_params; i++)
        if (strcmp(out->params[i].name, "tp") == 0 && out->params[i].num >= 1 &&
            out->params[i].num <= 4096)
            out->diag.tp = (uint32_t)out->params[i].num;
    if (a.fact) {
        kvt_fmt_rate(a.fact->value, measured, sizeof measured); /* "8.3", "1,008" */
        vars[nv++] = (struct kvt_var){e->measured, measured};
    }
    if (!kvt_template_fill(e->prompt, vars, nv, out->prompt, sizeof out->prompt)) {
        snprintf(err, err_cap, "the prompt is longer than %d bytes once filled in", LX_MAX_PROMPT);
        return KVT_E_RANGE;
    }

    if (e->has_value) {
        out->value = e->value;
        if (e->worked) /* the loader keeps it under sizeof out->worked */
            snprintf(out->worked, sizeof out->worked, "%s", e->worked);
        return KVT_E_OK;
    }
    a.fn_ref = l->priv->fn_refs[ex];
    lua_settop(L, 0);
    lua_pushcfunction(L, call_expected);
    lua_pushlightuserdata(L, &a);
    if (lx_pcall(L, 1, 0, l->priv->opts.call_ms) != LUA_OK) {
        snprintf(err, err_cap, "%s", lx_errmsg(L));
        lua_settop(L, 0);
        return KVT_E_RANGE;
    }
    lua_settop(L, 0);
    out->value = a.value;
    a.slip_ref = l->priv->slip_refs[ex];
    if (a.slip_ref != LUA_NOREF) {
        lua_pushcfunction(L, call_slips);
        lua_pushlightuserdata(L, &a);
        if (lx_pcall(L, 1, 0, l->priv->opts.call_ms) != LUA_OK) {
            snprintf(err, err_cap, "%s", lx_errmsg(L));
            lua_settop(L, 0);
            return KVT_E_RANGE;
        }
        lua_settop(L, 0);
    }
    return KVT_E_OK;
}

size_t lx_draw_params_text(const struct lx_draw *d, char *buf, size_t cap)
{
    size_t len = 0;
    if (cap)
        buf[0] = '\0';
    for (size_t i = 0; i < d->n_params && len < cap; i++) {
        int n = snprintf(buf + len, cap - len, "%s%s=%s", i ? ", " : "", d->params[i].name,
                         d->params[i].text);
        if (n < 0)
            break;
        len += (size_t)n;
    }
    return len < cap ? len : (cap ? cap - 1 : 0);
}

double lx_allowed(const struct lx_exercise *e, double value)
{
    return kv_grade_allowed(e->relative, e->tolerance, value); /* the grader's own rule */
}

/* One figure as the course writes them: digits with ',' between thousands
 * and at most one '.'; *end past it. A ',' counts only before three digits
 * that end the group, so "28, 4" and "1,0" stop at the comma. */
static double read_figure(const char *s, const char **end)
{
    char digits[64];
    size_t n = 0;
    bool point = false;

    while (n + 1 < sizeof digits) {
        if (isdigit((unsigned char)*s)) {
            digits[n++] = *s++;
        } else if (*s == ',' && !point && n > 0 && isdigit((unsigned char)s[1]) &&
                   isdigit((unsigned char)s[2]) && isdigit((unsigned char)s[3]) &&
                   !isdigit((unsigned char)s[4])) { /* "57,344" and "1,234,567" */
            s++;
        } else if (*s == '.' && !point && isdigit((unsigned char)s[1])) {
            point = true;
            digits[n++] = *s++;
        } else {
            break;
        }
    }
    digits[n] = '\0';
    *end = s;
    return strtod(digits, NULL);
}

bool lx_worked_reaches(const char *worked, double value, double allowed)
{
    const char *s = worked;
    double want = fabs(value);

    while (s && *s) {
        if (isdigit((unsigned char)*s) || (*s == '.' && isdigit((unsigned char)s[1]) &&
                                           (s == worked || !isdigit((unsigned char)s[-1])))) {
            const char *end;
            double x = read_figure(s, &end);
            /* within the answer's tolerance, as a learner's rounded
             * answer would be: "0.44 GiB" reaches 0.4375 at 2% */
            if (fabs(x - want) <= allowed * (1 + 1e-9))
                return true;
            s = end;
        } else {
            s++;
        }
    }
    return false;
}
