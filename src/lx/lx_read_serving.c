/* Reading an exercise's `serving = {...}`: the setup its figures come from,
 * in kv.sim's names, limited to what the app's serving view can show (a
 * preset model and GPU, the knobs, the workload's lengths, rate and client
 * limit). Whether the view can show these exact values (its dtype lists,
 * its request count) is the tutor layer's rule, checked by `kvtutor lint`
 * (tutor_sim_of_serving); here the table's shape and names are. */
#include "lx_read.h"

#include <lauxlib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "kv_calc.h"
#include "kv_presets.h"

/* The fields, and what each holds. */
enum kind { TEXT, WHOLE, REAL, RATE };
static const struct field {
    const char *key;
    enum kind kind;
    uint64_t min, max; /* WHOLE */
} fields[] = {
    {"model", TEXT, 0, 0},
    {"gpu", TEXT, 0, 0},
    {"kv_dtype", TEXT, 0, 0},
    {"weights_dtype", TEXT, 0, 0},
    {"max_model_len", WHOLE, 1, (uint64_t)1 << 24},
    {"tp", WHOLE, 1, 64},
    {"input_len", WHOLE, 1, (uint64_t)1 << 24},
    {"output_len", WHOLE, 1, (uint64_t)1 << 24},
    {"max_concurrency", WHOLE, 1, (uint64_t)1 << 20},
    {"num_prompts", WHOLE, 1, (uint64_t)1 << 20},
    {"seed", WHOLE, 0, (uint64_t)1 << 53},
    {"util", REAL, 0, 0},
    {"request_rate", RATE, 0, 0},
};
#define N_FIELDS (sizeof fields / sizeof fields[0])

static const struct field *field_of(const char *key)
{
    for (size_t i = 0; i < N_FIELDS; i++)
        if (strcmp(fields[i].key, key) == 0)
            return &fields[i];
    return NULL;
}

static bool known_dtype(const char *v, bool kv)
{
    enum kv_dtype dt;
    if (!kv_dtype_parse(v, &dt))
        return false;
    return !kv || dt == KV_DTYPE_AUTO || kv_dtype_kv_bytes(dt) != 0;
}

/* The value on top of the stack, for field f, into s; false (a problem
 * reported at line) when it is not one. */
static bool read_value(struct lx_reader *c, const struct field *f, struct lx_serving *s,
                       const char *where, int line)
{
    lua_State *L = c->L;
    const char *key = f->key;
    double v = 0;

    if (f->kind == TEXT) {
        const char *t;
        if (lua_type(L, -1) != LUA_TSTRING) {
            lx_problem(c, line, "%s: serving.%s must be text", where, key);
            return false;
        }
        t = lx_arena_str(&c->p->arena, lua_tostring(L, -1), lua_rawlen(L, -1));
        if (!t)
            return false;
        if (strcmp(key, "model") == 0) {
            if (!kv_model_preset_find(t)) {
                lx_problem(c, line, "%s: serving.model \"%s\" is not a preset (kvtutor models)",
                           where, t);
                return false;
            }
            s->model = t;
        } else if (strcmp(key, "gpu") == 0) {
            if (!kv_gpu_preset_find(t)) {
                lx_problem(c, line, "%s: serving.gpu \"%s\" is not a preset (kvtutor gpus)", where,
                           t);
                return false;
            }
            s->gpu = t;
        } else {
            bool kv = strcmp(key, "kv_dtype") == 0;
            if (!known_dtype(t, kv)) {
                lx_problem(c, line, "%s: serving.%s \"%s\" is not a %s type kv.calc knows", where,
                           key, t, kv ? "cache" : "weight");
                return false;
            }
            *(kv ? &s->kv_dtype : &s->weights_dtype) = t;
        }
        return true;
    }
    if (f->kind == RATE && lua_type(L, -1) == LUA_TSTRING &&
        strcmp(lua_tostring(L, -1), "inf") == 0) {
        s->request_rate = INFINITY;
        return true;
    }
    if (lua_type(L, -1) != LUA_TNUMBER) {
        lx_problem(c, line, "%s: serving.%s must be a number", where, key);
        return false;
    }
    v = lua_tonumber(L, -1);
    switch (f->kind) {
    case WHOLE: {
        uint64_t u;
        if (!(v >= (double)f->min && v <= (double)f->max) || v != floor(v)) {
            lx_problem(c, line, "%s: serving.%s must be a whole number from %llu to %llu", where,
                       key, (unsigned long long)f->min, (unsigned long long)f->max);
            return false;
        }
        u = (uint64_t)v;
        if (strcmp(key, "max_model_len") == 0)
            s->max_model_len = u;
        else if (strcmp(key, "tp") == 0)
            s->tp = u;
        else if (strcmp(key, "input_len") == 0)
            s->input_len = u;
        else if (strcmp(key, "output_len") == 0)
            s->output_len = u;
        else if (strcmp(key, "max_concurrency") == 0)
            s->max_concurrency = u;
        else if (strcmp(key, "num_prompts") == 0)
            s->num_prompts = u;
        else
            s->seed = u, s->has_seed = true;
        return true;
    }
    case REAL:
        if (!(v > 0 && v <= 1)) {
            lx_problem(c, line, "%s: serving.util must be above 0 and at most 1", where);
            return false;
        }
        s->util = v;
        return true;
    default: /* RATE */
        if (!(v > 0)) {
            lx_problem(c, line, "%s: serving.request_rate must be above 0 (requests/s), or \"inf\"",
                       where);
            return false;
        }
        s->request_rate = v;
        return true;
    }
}

void lx_read_serving(struct lx_reader *c, int t, struct lx_exercise *e, const char *where)
{
    lua_State *L = c->L;
    struct lx_serving *s = &e->serving;
    int at, ty, st;
    bool ok = true;

    t = lua_absindex(L, t);
    at = lx_key_line(c, t, "serving", e->line);
    ty = lx_field(c, t, "serving");
    if (ty == LUA_TNIL) {
        lua_pop(L, 1);
        return;
    }
    if (ty != LUA_TTABLE) {
        lx_problem(c, at, "%s: 'serving' must be a table of kv.sim's fields", where);
        lua_pop(L, 1);
        return;
    }
    st = lua_gettop(L);
    s->line = lx_read_line(c, st, at);
    lua_pushnil(L);
    while (lua_next(L, st)) {
        const struct field *f = NULL;
        lua_pop(L, 1);
        if (lua_type(L, -1) != LUA_TSTRING || !(f = field_of(lua_tostring(L, -1)))) {
            int kl =
                lua_type(L, -1) == LUA_TSTRING ? lx_key_line(c, st, lua_tostring(L, -1), at) : at;
            lx_problem(c, kl,
                       "%s: serving.%.40s is not one of the kv.sim fields the serving view "
                       "shows (docs/lessons.md lists them)",
                       where, lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "?");
            ok = false;
            continue;
        }
        lx_field(c, st, f->key);
        ok &= read_value(c, f, s, where, lx_key_line(c, st, f->key, at));
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    if (!ok)
        return;
    if (!s->model || !s->gpu) {
        lx_problem(c, at, "%s: serving needs a model and a gpu (presets)", where);
        return;
    }
    s->given = true;
}
