/* Reading exercises: numeric ones with their unit, tolerance, parameters
 * and expected value; choices with their options; free text with its key
 * points. */
#include "lx_read.h"

#include <lauxlib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kv_presets.h"
#include "kv_units.h"
#include "kvt_format.h"
#include "kvt_template.h"

static bool valid_name(const char *s)
{
    if (strlen(s) > LX_MAX_PARAM_NAME)
        return false;
    if (!((s[0] >= 'a' && s[0] <= 'z') || s[0] == '_'))
        return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
            return false;
    return true;
}

/* The parameter on top of the stack; line is where it is written. */
static void read_param(struct lx_reader *c, struct lx_param *pm, const char *where, int line)
{
    lua_State *L = c->L;
    const char *kind = lx_kind_of(L, -1);

    if (lua_type(L, -1) != LUA_TTABLE) {
        lx_problem(c, line, "%s: parameter '%s' must be a list or range(lo, hi, step)", where,
                   pm->name);
        return;
    }
    if (kind && strcmp(kind, "range") == 0) {
        bool ok = true;
        pm->is_range = true;
        lua_getfield(L, -1, "lo");
        ok &= lx_finite_number(L, -1, &pm->lo);
        lua_getfield(L, -2, "hi");
        ok &= lx_finite_number(L, -1, &pm->hi);
        lua_getfield(L, -3, "step");
        ok &= lx_finite_number(L, -1, &pm->step);
        lua_pop(L, 3);
        if (!ok || pm->lo > pm->hi || !(pm->step > 0) || (pm->hi - pm->lo) / pm->step > 1e6)
            lx_problem(c, line,
                       "%s: parameter '%s': range(lo, hi, step) needs lo <= hi, step > 0 "
                       "and at most a million values",
                       where, pm->name);
        return;
    }
    pm->n_values = lua_rawlen(L, -1);
    if (pm->n_values == 0) {
        lx_problem(c, line, "%s: parameter '%s' has no values to draw from", where, pm->name);
        return;
    }
    pm->values = lx_arena_alloc(&c->p->arena, pm->n_values * sizeof *pm->values);
    pm->nums = lx_arena_alloc(&c->p->arena, pm->n_values * sizeof *pm->nums);
    for (size_t i = 0; pm->values && pm->nums && i < pm->n_values; i++) {
        int vl = lx_item_line(c, -1, i + 1, line);
        int ty = lua_rawgeti(L, -1, (lua_Integer)i + 1);
        char buf[64];
        pm->nums[i] = NAN;
        if (ty == LUA_TNUMBER && lx_finite_number(L, -1, &pm->nums[i])) {
            if (lua_isinteger(L, -1))
                snprintf(buf, sizeof buf, "%lld", (long long)lua_tointeger(L, -1));
            else
                snprintf(buf, sizeof buf, "%.17g", pm->nums[i]);
            pm->values[i] = lx_arena_str(&c->p->arena, buf, strlen(buf));
        } else if (ty == LUA_TSTRING) {
            pm->values[i] = lx_arena_str(&c->p->arena, lua_tostring(L, -1), lua_rawlen(L, -1));
            if (lua_rawlen(L, -1) > LX_MAX_PARAM_TEXT)
                lx_problem(c, vl,
                           "%s: parameter '%s': the value \"%.20s...\" is longer than %d "
                           "characters",
                           where, pm->name, lua_tostring(L, -1), LX_MAX_PARAM_TEXT);
        } else {
            lx_problem(c, vl, "%s: parameter '%s': values must be finite numbers or text", where,
                       pm->name);
            pm->values[i] = "";
        }
        lua_pop(L, 1);
    }
}

static int cmp_param(const void *a, const void *b)
{
    return strcmp(((const struct lx_param *)a)->name, ((const struct lx_param *)b)->name);
}

/* Reads t.params; false when a name could not be read (then the prompt's
 * placeholders are not checked against the names: they would be refused
 * for the same fault). */
static bool read_params(struct lx_reader *c, int t, struct lx_exercise *e, const char *where)
{
    lua_State *L = c->L;
    int at = lx_key_line(c, t, "params", e->line);
    int ty = lx_field(c, t, "params");
    size_t cap = 0;
    bool names_ok = true;

    if (ty == LUA_TTABLE) {
        int pt = lua_gettop(L);
        lua_pushnil(L);
        while (lua_next(L, pt))
            cap++, lua_pop(L, 1);
        e->params = lx_arena_alloc(&c->p->arena, (cap ? cap : 1) * sizeof *e->params);
        lua_pushnil(L);
        while (e->params && lua_next(L, pt)) {
            struct lx_param *pm = &e->params[e->n_params];
            memset(pm, 0, sizeof *pm);
            if (lua_type(L, -2) != LUA_TSTRING || !valid_name(lua_tostring(L, -2))) {
                int kl = lua_type(L, -2) == LUA_TSTRING
                             ? lx_key_line(c, pt, lua_tostring(L, -2), at)
                             : at;
                lx_problem(c, kl,
                           "%s: parameter names are lower-case words of at most %d characters",
                           where, LX_MAX_PARAM_NAME);
                names_ok = false;
            } else if ((pm->name = lx_arena_str(&c->p->arena, lua_tostring(L, -2),
                                                lua_rawlen(L, -2))) != NULL) {
                int pl = lx_key_line(c, pt, pm->name, at);
                lua_pop(L, 1); /* the value again, through lx_field: paired with its source */
                lx_field(c, pt, pm->name);
                read_param(c, pm, where, pl);
                e->n_params++;
            }
            lua_pop(L, 1);
        }
        if (e->n_params > LX_MAX_PARAMS)
            lx_problem(c, at, "%s: %zu parameters; at most %d", where, e->n_params, LX_MAX_PARAMS);
        /* draws follow the names' order, never the table's iteration order */
        qsort(e->params, e->n_params, sizeof *e->params, cmp_param);
    } else if (ty != LUA_TNIL) {
        lx_problem(c, at, "%s: 'params' must be a table of name = values", where);
        names_ok = false;
    }
    lua_pop(L, 1);
    return names_ok;
}

/* Every {name} in the prompt must be a parameter or the measured figure. */
static void check_placeholders(struct lx_reader *c, const struct lx_exercise *e, const char *where,
                               int line)
{
    const char *name;
    size_t n;
    for (const char *p = e->prompt ? kvt_template_next(e->prompt, 40, &name, &n) : NULL; p;
         p = kvt_template_next(p + 1, 40, &name, &n)) {
        bool found = e->measured && strlen(e->measured) == n && strncmp(e->measured, name, n) == 0;
        for (size_t i = 0; i < e->n_params && !found; i++)
            found = strlen(e->params[i].name) == n && strncmp(e->params[i].name, name, n) == 0;
        if (!found)
            lx_problem(c, line, "%s: the prompt's {%.*s} is not a parameter", where, (int)n, name);
    }
}

bool lx_value_ok(struct lx_reader *c, const struct lx_exercise *e, double v, const char *where,
                 const char *source)
{
    const struct kv_unit *u = kv_unit_find(e->unit ? e->unit : "");
    int line = e->expected_line ? e->expected_line : e->line;
    if (!isfinite(v)) {
        lx_problem(c, line, "%s: %s is %s, not a finite number", where, source,
                   isnan(v) ? "NaN" : "infinite");
        return false;
    }
    if (v == 0 && signbit(v)) {
        lx_problem(c, line, "%s: %s is -0", where, source);
        return false;
    }
    if (u && !(fabs(v * u->scale) <= 1e30)) {
        lx_problem(c, line, "%s: %s (%g %s) is too large to grade", where, source, v, e->unit);
        return false;
    }
    return true;
}

static void read_tolerance(struct lx_reader *c, int t, struct lx_exercise *e, const char *where)
{
    lua_State *L = c->L;
    int at = lx_key_line(c, t, "tolerance", e->line);
    int ty = lx_field(c, t, "tolerance");
    double v = 0;

    e->tolerance = 0.01; /* 1% unless the author says otherwise */
    e->relative = true;
    if (ty == LUA_TNUMBER) {
        if (lx_finite_number(L, -1, &v))
            e->tolerance = v;
        else
            e->tolerance = NAN;
    } else if (ty == LUA_TTABLE) {
        if (lua_getfield(L, -1, "relative") != LUA_TNIL) {
            e->tolerance = lx_finite_number(L, -1, &v) ? v : NAN;
        } else if (lua_getfield(L, -2, "absolute") != LUA_TNIL) {
            e->relative = false;
            e->tolerance = lx_finite_number(L, -1, &v) ? v : NAN;
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
        lx_problem(c, at, "%s: tolerance must be rel(f) with 0 < f < 1, or abs(x) with x > 0",
                   where);
}

/* left_out = { kv = n, overhead = n }: what the answer comes to when the
 * learner leaves that part out, so the verdict can name the slip. */
static void read_left_out(struct lx_reader *c, int t, struct lx_exercise *e, const char *where)
{
    lua_State *L = c->L;
    int at = lx_key_line(c, t, "left_out", e->line);
    int ty = lx_field(c, t, "left_out");
    if (ty == LUA_TTABLE) {
        static const char *const parts[] = {"kv", "overhead"};
        double *slots[] = {&e->left_out_kv, &e->left_out_overhead};
        int lt = lua_gettop(L);
        lua_pushnil(L);
        while (lua_next(L, lt)) {
            const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
            int kl = k ? lx_key_line(c, lt, k, at) : at;
            size_t i = 0;
            while (i < 2 && (!k || strcmp(k, parts[i]) != 0))
                i++;
            if (i == 2)
                lx_problem(c, kl, "%s: left_out takes kv and overhead", where);
            else if (!lx_finite_number(L, -1, slots[i]) || *slots[i] == 0)
                lx_problem(c, kl, "%s: left_out.%s must be a finite, non-zero number", where,
                           parts[i]);
            lua_pop(L, 1);
        }
    } else if (ty != LUA_TNIL) {
        lx_problem(c, at, "%s: left_out must be a table: { kv = ..., overhead = ... }", where);
    }
    lua_pop(L, 1);
}

/* slips = { total_params = n, ... } (the keys of KV_SLIPS): what the answer
 * comes to under a slip the lesson teaches, computed by the lesson from the
 * exercise's own figures; or slips = function(p) return { ... } end for an
 * exercise with params, called with each draw (lx_draw). */
static void read_slips(struct lx_reader *c, int t, struct lx_exercise *e, size_t idx,
                       const char *where)
{
    lua_State *L = c->L;
    int at = lx_key_line(c, t, "slips", e->line);
    int ty = lx_field(c, t, "slips");
    if (ty == LUA_TTABLE) {
        int lt = lua_gettop(L);
        lua_pushnil(L);
        while (lua_next(L, lt)) {
            const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
            int kl = k ? lx_key_line(c, lt, k, at) : at;
            int s = kv_slip_find(k);
            if (s < 0)
                lx_problem(c, kl,
                           "%s: slips takes total_params, active_params, latent_split, "
                           "kv_doubled, tokens_per_s and decodes_left_out",
                           where);
            else if (!lx_finite_number(L, -1, &e->slips[s]) || e->slips[s] == 0)
                lx_problem(c, kl, "%s: slips.%s must be a finite, non-zero number", where,
                           kv_slip_key((enum kv_slip)s));
            lua_pop(L, 1);
        }
    } else if (ty == LUA_TFUNCTION) {
        if (!e->n_params) {
            lx_problem(c, at, "%s: slips(p) needs params; without them give a table", where);
        } else {
            c->p->slip_refs[idx] = luaL_ref(L, LUA_REGISTRYINDEX); /* pops it */
            return;
        }
    } else if (ty != LUA_TNIL) {
        lx_problem(c, at,
                   "%s: slips must be a table, { total_params = ..., ... }, or a function of p",
                   where);
    }
    lua_pop(L, 1);
}

static bool known_per(const char *v)
{
    return strcmp(v, "token") == 0 || strcmp(v, "sequence") == 0;
}

/* An optional text field that must be one of a few values: NULL when
 * absent, not text or refused (each reported once, at the field's line, so
 * what depends on the field is not refused for it again). */
static const char *choice_field(struct lx_reader *c, int t, const char *key, const char *where,
                                int line, bool (*check)(const char *), const char *refusal)
{
    const char *v = lx_str_field(c, t, key, false, where, line);
    if (v && !check(v)) {
        lx_problem(c, lx_key_line(c, t, key, line), "%s: %s \"%s\" %s", where, key, v, refusal);
        return NULL;
    }
    return v;
}

static bool known_model(const char *v)
{
    return kv_model_preset_find(v) != NULL;
}

static bool known_kv_dtype(const char *v)
{
    enum kv_dtype dt;
    return kv_dtype_parse(v, &dt) && kv_dtype_kv_bytes(dt) != 0;
}

static bool known_diagnose(const char *v)
{
    return strcmp(v, "kv-size") == 0 || strcmp(v, "capacity") == 0 || strcmp(v, "units") == 0;
}

static void read_numeric(struct lx_reader *c, int t, struct lx_exercise *e, size_t idx,
                         const char *where)
{
    lua_State *L = c->L;
    int ty, at;
    bool params_ok;

    t = lua_absindex(L, t);
    ty = lx_field(c, t, "unit");
    lua_pop(L, 1);
    if (ty == LUA_TNIL)
        lx_missing(c, t, "unit", e->line, where,
                   "(what the answer counts: \"sequences\", \"GiB\", ...)");
    e->unit = lx_str_field(c, t, "unit", false, where, e->line);
    if (e->unit && !kv_unit_find(e->unit))
        lx_problem(c, lx_key_line(c, t, "unit", e->line), "%s: unknown unit \"%s\"", where,
                   e->unit);
    /* a bare number is read in the exercise's unit, and "22 blocks" is refused
     * for sequences only when the exercise says it counts sequences */
    else if (e->unit && !e->unit[0])
        lx_problem(c, lx_key_line(c, t, "unit", e->line),
                   "%s: unit is empty: say what the answer counts (\"sequences\", \"steps\", "
                   "\"FLOP/B\", \"x\", ...)",
                   where);
    e->per =
        choice_field(c, t, "per", where, e->line, known_per, "is not \"token\" or \"sequence\"");
    read_tolerance(c, t, e, where);
    params_ok = read_params(c, t, e, where);
    e->model = choice_field(c, t, "model", where, e->line, known_model,
                            "is not a preset (kvtutor models lists them)");
    e->kv_dtype = choice_field(c, t, "kv_dtype", where, e->line, known_kv_dtype,
                               "is not a cache type (fp32, bf16, fp16, fp8, int8)");
    e->measured = choice_field(c, t, "measured", where, e->line, lx_fact_known,
                               "is not a probe figure (read_gbps, peak_gbps, free_gib)");
    e->diagnose = choice_field(c, t, "diagnose", where, e->line, known_diagnose,
                               "is not one of \"kv-size\", \"capacity\", \"units\"");
    read_left_out(c, t, e, where);
    read_slips(c, t, e, idx, where);
    at = lx_key_line(c, t, "prompt", e->line);
    if (params_ok)
        check_placeholders(c, e, where, at);
    if (e->prompt && strlen(e->prompt) > LX_MAX_PROMPT)
        lx_problem(c, at, "%s: the prompt is longer than %d bytes", where, LX_MAX_PROMPT);
    e->expected_line = at = lx_key_line(c, t, "expected", e->line);
    ty = lx_field(c, t, "expected");
    if (ty == LUA_TNUMBER) {
        e->has_value = true;
        e->value = lua_tonumber(L, -1);
        if (e->measured)
            lx_problem(c, at, "%s: a measured exercise computes 'expected' from p.%s", where,
                       e->measured);
        else if (e->n_params)
            lx_problem(c, at, "%s: with params, 'expected' must be a function of them", where);
        else
            lx_value_ok(c, e, e->value, where, "the expected value");
        lua_pop(L, 1);
    } else if (ty == LUA_TFUNCTION) {
        c->p->fn_refs[idx] = luaL_ref(L, LUA_REGISTRYINDEX);
    } else {
        if (ty == LUA_TNIL)
            lx_missing(c, t, "expected", e->line, where, "(a number or a function)");
        else
            lx_problem(c, at, "%s: 'expected' must be a number or a function", where);
        lua_pop(L, 1);
    }
    /* a fixed exercise's own arithmetic; one with an expected function
     * returns its own beside the number, and both at once would leave two
     * texts for one figure: refused */
    at = lx_key_line(c, t, "worked", e->line);
    e->worked = lx_code_field(c, t, "worked", false, where, e->line);
    if (e->worked && ty == LUA_TFUNCTION)
        lx_problem(c, at,
                   "%s: 'worked' is for a fixed value; expected(p) returns its own as its "
                   "second value",
                   where);
    else if (e->worked && strlen(e->worked) >= sizeof((struct lx_draw *)0)->worked)
        lx_problem(c, at, "%s: 'worked' is longer than %zu bytes", where,
                   sizeof((struct lx_draw *)0)->worked - 1);
    else if (e->worked && ty == LUA_TNUMBER &&
             !lx_worked_reaches(e->worked, e->value, lx_allowed(e, e->value))) {
        char v[48];
        kvt_fmt_number(e->value, 6, v, sizeof v);
        lx_problem(c, at, "%s: 'worked' never reaches the expected value, %s %s", where, v,
                   e->unit ? e->unit : "");
    }
}

static void read_choice(struct lx_reader *c, int t, struct lx_exercise *e, const char *where)
{
    lua_State *L = c->L;
    size_t correct = 0, bad = 0;
    int at = lx_key_line(c, t, "options", e->line);
    int ty = lx_field(c, t, "options");

    if (ty == LUA_TTABLE) {
        size_t len = lua_rawlen(L, -1);
        lx_check_list(c, -1, where, "options", at);
        e->options = lx_arena_alloc(&c->p->arena, (len ? len : 1) * sizeof *e->options);
        for (size_t i = 1; e->options && i <= len; i++) {
            struct lx_option *o = &e->options[e->n_options++];
            int ol = lx_item_line(c, -1, i, at);
            memset(o, 0, sizeof *o);
            ty = lx_item(c, -1, i);
            if (ty == LUA_TSTRING) {
                o->text = lx_arena_str(&c->p->arena, lua_tostring(L, -1), lua_rawlen(L, -1));
            } else if (ty == LUA_TTABLE) {
                ol = lx_read_line(c, -1, ol);
                lx_check_keys(c, -1, LX_SHAPE_OPTION, "option", ol);
                if (lua_rawgeti(L, -1, 1) == LUA_TSTRING)
                    o->text = lx_arena_str(&c->p->arena, lua_tostring(L, -1), lua_rawlen(L, -1));
                lua_pop(L, 1);
                if (!o->text)
                    o->text = lx_str_field(c, -1, "text", true, "option", ol);
                o->why = lx_str_field(c, -1, "why", false, "option", ol);
                lua_pushliteral(L, "correct");
                lua_rawget(L, -2);
                o->correct = lua_toboolean(L, -1);
                lua_pop(L, 1);
            } else {
                lx_problem(c, ol, "%s: options[%zu] must be text or option { ... }", where, i);
                bad++;
            }
            correct += o->correct;
            lua_pop(L, 1);
        }
    } else if (ty != LUA_TNIL) {
        lx_problem(c, at, "%s: 'options' must be a list of option { ... }", where);
        bad++;
    }
    lua_pop(L, 1);
    if (bad)
        return; /* what the options say is not known: nothing more to tell */
    if (ty == LUA_TNIL)
        lx_missing(c, t, "options", e->line, where, "(two or more option { ... })");
    else if (e->n_options < 2)
        lx_problem(c, at, "%s: a choice needs at least two options", where);
    else if (e->n_options > LX_MAX_OPTIONS)
        lx_problem(c, at, "%s: %zu options; at most %d", where, e->n_options, LX_MAX_OPTIONS);
    else if (correct == 0)
        lx_problem(c, at, "%s: no option is marked correct = true", where);
}

void lx_read_exercises(struct lx_reader *c, int t, int line)
{
    struct lx_lesson *l = c->l;
    lua_State *L = c->L;
    int at, ty;

    t = lua_absindex(L, t);
    at = lx_key_line(c, t, "exercises", line);
    ty = lx_field(c, t, "exercises");
    if (ty != LUA_TTABLE) {
        if (ty == LUA_TNIL)
            lx_missing(c, t, "exercises", line, "lesson", "(exercises = { ... })");
        else
            lx_problem(c, at, "lesson: 'exercises' must be a list");
        lua_pop(L, 1);
        return;
    }
    {
        size_t len = lua_rawlen(L, -1);
        lx_check_list(c, -1, "lesson", "exercises", at);
        l->exercises = lx_arena_alloc(&c->p->arena, (len ? len : 1) * sizeof *l->exercises);
        c->p->fn_refs = calloc(len ? len : 1, sizeof *c->p->fn_refs);
        c->p->slip_refs = calloc(len ? len : 1, sizeof *c->p->slip_refs);
        if (!l->exercises || !c->p->fn_refs || !c->p->slip_refs) {
            c->p->arena.failed = true;
            lua_pop(L, 1);
            return;
        }
        for (size_t i = 0; i < len; i++)
            c->p->fn_refs[i] = c->p->slip_refs[i] = LUA_NOREF;
        for (size_t i = 1; i <= len; i++) {
            struct lx_exercise *e = &l->exercises[l->n_exercises];
            const char *kind = NULL;
            enum lx_shape shape;
            char where[96];
            int il = lx_item_line(c, -1, i, at), idl;
            memset(e, 0, sizeof *e);
            if (lx_item(c, -1, i) == LUA_TTABLE)
                kind = lx_kind_of(L, -1);
            shape = lx_shape_find(kind);
            if (shape != LX_SHAPE_NUMERIC && shape != LX_SHAPE_CHOICE &&
                shape != LX_SHAPE_FREETEXT) {
                if (kind)
                    lx_problem(c, lx_read_line(c, -1, il),
                               "exercises[%zu] is a %s, not an exercise", i, kind);
                else
                    lx_problem(c, il,
                               "exercises[%zu] must be numeric { ... }, choice { ... } or "
                               "freetext { ... }",
                               i);
                lua_pop(L, 1);
                continue;
            }
            e->line = lx_read_line(c, -1, il);
            /* the fields first, so a misspelt id is not also missing */
            lua_pushliteral(L, "id");
            snprintf(where, sizeof where, "exercise '%.60s'",
                     lua_rawget(L, -2) == LUA_TSTRING ? lua_tostring(L, -1) : "?");
            lua_pop(L, 1);
            lx_check_keys(c, -1, shape, where, e->line);
            e->id = lx_str_field(c, -1, "id", true, "exercise", e->line);
            idl = lx_key_line(c, -1, "id", e->line);
            if (e->id && !lx_valid_id(e->id))
                lx_problem(c, idl,
                           "%s: ids are 1 to %d lower-case letters, digits, '-', '_' and '.'",
                           where, LX_MAX_ID);
            else if (e->id && lx_reserved_id(e->id))
                lx_problem(c, idl,
                           "%s: \"question\" and \"followup-N\" name the lesson's question and "
                           "follow-ups; give the exercise another id",
                           where);
            for (size_t k = 0; e->id && k < l->n_exercises; k++)
                if (l->exercises[k].id && strcmp(l->exercises[k].id, e->id) == 0) {
                    lx_problem(c, idl, "%s: the id is used twice (also line %d)", where,
                               l->exercises[k].line);
                    break;
                }
            e->prompt = lx_str_field(c, -1, "prompt", true, where, e->line);
            e->hints = lx_str_list(c, -1, "hints", &e->n_hints, where, e->line);
            if (shape == LX_SHAPE_NUMERIC) {
                e->kind = LX_NUMERIC;
                read_numeric(c, -1, e, l->n_exercises, where);
                lx_read_serving(c, -1, e, where);
            } else if (shape == LX_SHAPE_CHOICE) {
                e->kind = LX_CHOICE;
                read_choice(c, -1, e, where);
                lx_read_serving(c, -1, e, where);
            } else {
                e->kind = LX_FREETEXT;
                e->points = lx_read_points(c, -1, &e->n_points, where, e->line);
                e->mis =
                    lx_read_misconceptions(c, -1, &e->n_mis, where, e->line, LX_MAX_MISCONCEPTIONS);
                e->model_answer = lx_str_field(c, -1, "answer", true, where, e->line);
            }
            l->n_exercises++;
            lua_pop(L, 1);
        }
        if (len == 0)
            lx_problem(c, at, "lesson: 'exercises' is empty");
    }
    lua_pop(L, 1);
}
