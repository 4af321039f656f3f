/* The `kv` module: the calculator for lessons, with checked arguments.
 *
 *   kv.calc{model = "qwen2.5-7b", max_model_len = 8192, kv_budget_gib = 10}
 *     -> {kv_bytes_per_token = 57344, num_gpu_blocks = 11702, ...}
 *        the same names as `kvtutor calc --json`; a figure whose inputs were
 *        not given is absent (nil). vllm = "0.19.0" picks a release's rules
 *        (default KV_VLLM_DEFAULT); `notes` lists what was assumed.
 *   kv.model(name) -> the preset's fields; kv.gpu(name) -> the GPU's
 *   kv.models(), kv.gpus() -> lists of aliases
 *
 * An author's mistake (an unknown field, a wrong type, a contradiction)
 * raises an error naming the field, as Lua's own functions do. */
#include "lx_state.h"

#include <lauxlib.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "kv_figures.h"
#include "kv_presets.h"

enum target { MODEL, DEPLOY };
enum type { T_U32, T_U64, T_REAL, T_DTYPE, T_VERSION, T_BOOL, T_WORD, T_STAGES };

/* Fields whose values are words: the name, then the enum value, per field. */
struct word {
    const char *name;
    int value;
};
static const struct word spec_words[] = {{"eagle", KV_SPEC_EAGLE}, {"eagle3", KV_SPEC_EAGLE3},
                                         {"mtp", KV_SPEC_MTP},     {"draft", KV_SPEC_DRAFT},
                                         {"ngram", KV_SPEC_NGRAM}, {NULL, 0}};
static const struct word mamba_words[] = {
    {"none", KV_MAMBA_NONE}, {"align", KV_MAMBA_ALIGN}, {"all", KV_MAMBA_ALL}, {NULL, 0}};
static const struct word state_words[] = {
    {"gdn", KV_STATE_GDN}, {"mamba2", KV_STATE_MAMBA2}, {NULL, 0}};

/* kv.calc's fields: the calculator's own field names. */
static const struct input {
    const char *name;
    enum target target;
    enum type type;
    size_t offset;
    const struct word *words; /* T_WORD */
} inputs[] = {
#define MF(f, ty)                                                                                  \
    {                                                                                              \
#f, MODEL, ty, offsetof(struct kv_model, f), NULL                                          \
    }
#define DF(f, ty)                                                                                  \
    {                                                                                              \
#f, DEPLOY, ty, offsetof(struct kv_deploy, f), NULL                                        \
    }
    MF(layers, T_U32),
    MF(heads, T_U32),
    MF(kv_heads, T_U32),
    MF(head_dim, T_U32),
    MF(hidden, T_U32),
    MF(sliding_window, T_U64),
    MF(sliding_layers, T_U32),
    MF(mla_rank, T_U32),
    MF(mla_rope_dim, T_U32),
    {"params", MODEL, T_REAL, offsetof(struct kv_model, params_b), NULL},
    {"active_params", MODEL, T_REAL, offsetof(struct kv_model, active_params_b), NULL},
    MF(experts, T_U32),
    MF(experts_per_token, T_U32),
    MF(dtype, T_DTYPE),
    MF(weights_dtype, T_DTYPE),
    MF(weights_gib, T_REAL),
    DF(gpu_mem_gib, T_REAL),
    DF(util, T_REAL),
    DF(overhead_gib, T_REAL),
    DF(kv_budget_gib, T_REAL),
    DF(tp, T_U32),
    DF(pp, T_U32),
    DF(pp_partition, T_STAGES),
    DF(block_size, T_U32),
    DF(max_model_len, T_U64),
    {"seq", DEPLOY, T_U64, offsetof(struct kv_deploy, max_model_len), NULL},
    DF(max_num_batched_tokens, T_U64),
    DF(batch, T_U64),
    DF(context, T_U64),
    DF(kv_dtype, T_DTYPE),
    DF(bandwidth_gbps, T_REAL),
    DF(tflops, T_REAL),
    DF(vllm, T_VERSION),
    MF(state_layers, T_U32),
    MF(ssm_heads, T_U32),
    MF(ssm_head_dim, T_U32),
    MF(ssm_groups, T_U32),
    MF(ssm_state_dim, T_U32),
    MF(conv_kernel, T_U32),
    MF(ssm_dtype, T_DTYPE),
    MF(mtp_layers, T_U32),
    MF(index_head_dim, T_U32),
    {"state_kind", MODEL, T_WORD, offsetof(struct kv_model, state_kind), state_words},
    DF(spec_tokens, T_U32),
    DF(spec_layers, T_U32),
    DF(dcp, T_U32),
    DF(num_gpu_blocks_override, T_U64),
    DF(kv_cache_memory_bytes, T_U64),
    DF(no_prefix_caching, T_BOOL),
    DF(enable_prefix_caching, T_BOOL),
    DF(allow_long_max_model_len, T_BOOL),
    DF(sync_scheduling, T_BOOL),
    {"spec_method", DEPLOY, T_WORD, offsetof(struct kv_deploy, spec_method), spec_words},
    {"mamba_cache_mode", DEPLOY, T_WORD, offsetof(struct kv_deploy, mamba_mode), mamba_words},
#undef MF
#undef DF
};

static const struct input *find_input(const char *name)
{
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++)
        if (strcmp(inputs[i].name, name) == 0)
            return &inputs[i];
    return NULL;
}

/* Sets one field from the value on top of the stack. */
static void set_input(lua_State *L, const char *fn, const struct input *in, struct kv_model *m,
                      struct kv_deploy *d)
{
    char *base = in->target == MODEL ? (char *)m : (char *)d;
    void *dst = base + in->offset;

    if (in->type == T_BOOL) {
        if (lua_type(L, -1) != LUA_TBOOLEAN)
            luaL_error(L, "%s: %s must be true or false", fn, in->name);
        *(bool *)dst = lua_toboolean(L, -1);
    } else if (in->type == T_WORD) {
        const char *w = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
        const struct word *k = in->words;
        while (k->name && (!w || strcmp(w, k->name) != 0))
            k++;
        if (!k->name)
            luaL_error(L, "%s: %s must be one of its names, such as \"%s\"", fn, in->name,
                       in->words[0].name);
        *(int *)dst = k->value; /* the enums are int-sized */
    } else if (in->type == T_STAGES) {
        /* VLLM_PP_LAYER_PARTITION as a list: {20, 20, 21} */
        struct kv_deploy *dd = (struct kv_deploy *)base;
        lua_Integer n = lua_type(L, -1) == LUA_TTABLE ? (lua_Integer)lua_rawlen(L, -1) : 0;
        if (n < 1 || n > (lua_Integer)KV_MAX_PP_STAGES)
            luaL_error(L, "%s: %s must list the layers of 1 to %u stages", fn, in->name,
                       KV_MAX_PP_STAGES);
        for (lua_Integer i = 1; i <= n; i++) {
            int ok;
            lua_Integer v;
            lua_rawgeti(L, -1, i);
            v = lua_tointegerx(L, -1, &ok);
            if (!ok || v < 0 || v > (lua_Integer)KV_MAX_DIM)
                luaL_error(L, "%s: %s must list whole numbers of layers", fn, in->name);
            dd->pp_partition[i - 1] = (uint32_t)v;
            lua_pop(L, 1);
        }
        dd->pp_partition_n = (uint32_t)n;
    } else if (in->type == T_VERSION) {
        struct kv_vllm_version v = {0, 0, 0, 0, false};
        if (lua_type(L, -1) != LUA_TSTRING || !kv_vllm_parse(lua_tostring(L, -1), &v))
            luaL_error(L, "%s: vllm must be a vLLM release such as \"0.19.0\"", fn);
        *(struct kv_vllm_version *)dst = v;
    } else if (in->type == T_DTYPE) {
        enum kv_dtype t = KV_DTYPE_AUTO; /* luaL_error does not return; clang cannot tell */
        if (lua_type(L, -1) != LUA_TSTRING || !kv_dtype_parse(lua_tostring(L, -1), &t))
            luaL_error(L, "%s: %s must be a type name such as \"bf16\" or \"fp8\"", fn, in->name);
        *(enum kv_dtype *)dst = t;
    } else if (in->type == T_REAL) {
        double v = 0;
        if (lua_type(L, -1) != LUA_TNUMBER || !isfinite(v = lua_tonumber(L, -1)) || v < 0)
            luaL_error(L, "%s: %s must be a finite number >= 0", fn, in->name);
        *(double *)dst = v;
    } else {
        lua_Integer v;
        int ok;
        v = lua_tointegerx(L, -1, &ok);
        if (lua_type(L, -1) != LUA_TNUMBER || !ok || v < 0 ||
            (in->type == T_U32 && v > (lua_Integer)KV_MAX_DIM * 64))
            luaL_error(L, "%s: %s must be a whole number >= 0", fn, in->name);
        if (in->type == T_U32)
            *(uint32_t *)dst = (uint32_t)v;
        else
            *(uint64_t *)dst = (uint64_t)v;
    }
}

static void push_figures(lua_State *L, const struct kv_result *r)
{
    struct kv_figure f[KV_FIGURES_MAX];

    lx_push_figures(L, f, kv_figures(r, f, KV_FIGURES_MAX));
    /* the release's notes that bear on this result, as a list of strings */
    lua_createtable(L, (int)r->rules.n_notes, 0);
    for (size_t i = 0; i < r->rules.n_notes; i++) {
        lua_pushstring(L, r->rules.notes[i].text);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    lua_setfield(L, -2, "notes");
}

void lx_kv_read_setup(lua_State *L, int t, const char *fn, bool (*own)(const char *key),
                      struct lx_kv_setup *s)
{
    t = lua_absindex(L, t);
    luaL_checktype(L, t, LUA_TTABLE);
    memset(s, 0, sizeof *s);
    kv_deploy_defaults(&s->d);
    /* the preset and the GPU first, so explicit fields override them */
    if (lua_getfield(L, t, "model") != LUA_TNIL) {
        const struct kv_model_preset *p = kv_model_preset_find(luaL_checkstring(L, -1));
        if (!p)
            luaL_error(L, "%s: no model preset \"%s\"", fn, lua_tostring(L, -1));
        s->m = p->model;
    }
    if (lua_getfield(L, t, "gpu") != LUA_TNIL) {
        const struct kv_gpu_preset *g = kv_gpu_preset_find(luaL_checkstring(L, -1));
        if (!g)
            luaL_error(L, "%s: no GPU preset \"%s\"", fn, lua_tostring(L, -1));
        kv_gpu_preset_apply(g, &s->d);
        s->gpu = g;
    }
    lua_pop(L, 2);
    lua_pushnil(L);
    while (lua_next(L, t)) {
        const char *key = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
        const struct input *in = key ? find_input(key) : NULL;
        if (!key)
            luaL_error(L, "%s: fields are named, e.g. %s{model = ...}", fn, fn);
        if (!in && strcmp(key, "model") != 0 && strcmp(key, "gpu") != 0 && !(own && own(key)))
            luaL_error(L, "%s: unknown field '%s'", fn, key);
        if (in) {
            if (in->target == MODEL && in->type != T_DTYPE && strcmp(key, "weights_gib") != 0 &&
                strcmp(key, "params") != 0 && strcmp(key, "active_params") != 0 &&
                strcmp(key, "experts") != 0 && strcmp(key, "experts_per_token") != 0)
                s->m.sliding_period = 0; /* explicit shapes replace the preset's pattern */
            set_input(L, fn, in, &s->m, &s->d);
            if (strcmp(key, "weights_dtype") == 0)
                s->m.experts_dtype = KV_DTYPE_AUTO; /* every weight at that dtype */
            s->given_bandwidth |= strcmp(key, "bandwidth_gbps") == 0;
            s->given_tflops |= strcmp(key, "tflops") == 0;
            s->given_batched_tokens |= strcmp(key, "max_num_batched_tokens") == 0;
        }
        lua_pop(L, 1);
    }
}

void lx_kv_calc_error(lua_State *L, const char *fn, enum kvt_err e, enum kv_field bad,
                      enum kv_field other)
{
    if (other != KV_FIELD_NONE)
        luaL_error(L, "%s: %s: %s (%s)", fn, kv_field_name(bad), kvt_strerror(e),
                   kv_field_name(other));
    luaL_error(L, "%s: %s: %s", fn, kv_field_name(bad), kvt_strerror(e));
}

void lx_push_figures(lua_State *L, const struct kv_figure *f, size_t n)
{
    lua_createtable(L, 0, (int)n);
    for (size_t i = 0; i < n; i++) {
        switch (f[i].kind) {
        case KV_FIG_INT:
            lua_pushinteger(L, (lua_Integer)f[i].v.i);
            break;
        case KV_FIG_REAL:
            lua_pushnumber(L, f[i].v.r);
            break;
        case KV_FIG_BOOL:
            lua_pushboolean(L, f[i].v.b);
            break;
        case KV_FIG_TEXT:
            lua_pushstring(L, f[i].v.t);
            break;
        default:
            continue;
        }
        lua_setfield(L, -2, f[i].name);
    }
}

static int kv_calc_l(lua_State *L)
{
    struct lx_kv_setup s;
    struct kv_result r;
    enum kv_field bad, other;
    enum kvt_err e;

    lx_kv_read_setup(L, 1, "kv.calc", NULL, &s);
    e = kv_calc(&s.m, &s.d, &r, &bad, &other);
    if (e != KVT_E_OK)
        lx_kv_calc_error(L, "kv.calc", e, bad, other);
    push_figures(L, &r);
    return 1;
}

static int kv_model_l(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    const struct kv_model_preset *p = kv_model_preset_find(name);
    const struct kv_model *m;

    if (!p)
        return luaL_error(L, "kv.model: no model preset \"%s\"", name);
    m = &p->model;
    lua_createtable(L, 0, 16);
    lua_pushstring(L, p->id);
    lua_setfield(L, -2, "id");
    lua_pushlstring(L, p->alias, strcspn(p->alias, ","));
    lua_setfield(L, -2, "alias");
    lua_pushstring(L, p->arch);
    lua_setfield(L, -2, "attention");
#define SETI(f)                                                                                    \
    lua_pushinteger(L, (lua_Integer)m->f);                                                         \
    lua_setfield(L, -2, #f)
    SETI(layers);
    SETI(heads);
    SETI(kv_heads);
    SETI(head_dim);
    SETI(hidden);
    SETI(sliding_window);
    SETI(sliding_layers);
    SETI(mla_rank);
    SETI(mla_rope_dim);
    SETI(max_position);
#undef SETI
    lua_pushnumber(L, m->params_b);
    lua_setfield(L, -2, "params");
    lua_pushnumber(L, m->active_params_b > 0 ? m->active_params_b : m->params_b);
    lua_setfield(L, -2, "active_params");
    return 1;
}

static int kv_gpu_l(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    const struct kv_gpu_preset *g = kv_gpu_preset_find(name);

    if (!g)
        return luaL_error(L, "kv.gpu: no GPU preset \"%s\"", name);
    lua_createtable(L, 0, 8);
    lua_pushstring(L, g->name);
    lua_setfield(L, -2, "name");
    lua_pushnumber(L, g->memory_gib);
    lua_setfield(L, -2, "memory_gib");
    lua_pushnumber(L, g->peak_gbps);
    lua_setfield(L, -2, "bandwidth_gbps");
    lua_pushnumber(L, g->bf16_tflops);
    lua_setfield(L, -2, "tflops");
    lua_pushinteger(L, g->bus_bits);
    lua_setfield(L, -2, "bus_bits");
    lua_pushnumber(L, g->l2_mib);
    lua_setfield(L, -2, "l2_mib");
    return 1;
}

static int kv_models_l(lua_State *L)
{
    size_t n;
    const struct kv_model_preset *p = kv_model_presets(&n);
    lua_createtable(L, (int)n, 0);
    for (size_t i = 0; i < n; i++) {
        lua_pushlstring(L, p[i].alias, strcspn(p[i].alias, ","));
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    return 1;
}

static int kv_gpus_l(lua_State *L)
{
    size_t n;
    const struct kv_gpu_preset *g = kv_gpu_presets(&n);
    lua_createtable(L, (int)n, 0);
    for (size_t i = 0; i < n; i++) {
        lua_pushlstring(L, g[i].aliases, strcspn(g[i].aliases, ","));
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    return 1;
}

int lx_open_kv(lua_State *L)
{
    static const luaL_Reg fns[] = {
        {"calc", kv_calc_l},     {"sim", lx_kv_sim},  {"model", kv_model_l}, {"gpu", kv_gpu_l},
        {"models", kv_models_l}, {"gpus", kv_gpus_l}, {NULL, NULL},
    };
    luaL_newlib(L, fns);
    return 1;
}
