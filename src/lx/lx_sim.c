/* kv.sim: the serving simulator for lessons, on the same setup `kvtutor sim`
 * uses (sim_bench.h), so a lesson's figure is the command's.
 *
 *   kv.sim{model = "qwen2.5-7b", gpu = "a100-80gb", kv_budget_gib = 5,
 *          input_len = 1024, output_len = 128, num_prompts = 200, request_rate = 4}
 *     -> {output_throughput = ..., median_tpot_ms = ..., p99_ttft_ms = ...,
 *         limit = "kv_blocks", ...}  (the names of `kvtutor sim --json`)
 *
 * Every kv.calc field sets up the deployment; a given bandwidth_gbps or
 * tflops is what the GPU achieves, as with the command's flags. The
 * workload's fields and defaults are the command's: mode ("serve", "latency",
 * "throughput"), input_len 1024, output_len 128, range_ratio 0, num_prompts
 * 1000 (latency: batch_size 8), request_rate (requests/s; math.huge or "inf",
 * the default, sends all at t = 0), burstiness 1, seed 0, max_concurrency,
 * max_num_seqs, no_chunked_prefill. A run is one C loop the deadline hook
 * cannot interrupt, so a lesson's runs are held to LX_SIM_MAX_PROMPTS
 * requests and LX_SIM_MAX_WORK tokens (a few tens of ms each). */
#include "lx_state.h"

#include <lauxlib.h>
#include <math.h>
#include <string.h>

#include "sim_bench.h"
#include "sim_figures.h"

#define LX_SIM_MAX_PROMPTS 4000
#define LX_SIM_MAX_WORK    ((uint64_t)1 << 23)

static const char FN[] = "kv.sim";

static const char *const own_keys[] = {
    "mode",
    "input_len",
    "output_len",
    "range_ratio",
    "num_prompts",
    "request_rate",
    "burstiness",
    "seed",
    "batch_size",
    "max_concurrency",
    "max_num_seqs",
    "no_chunked_prefill",
    "scheduler_reserve_full_isl",
};

static bool own(const char *key)
{
    for (size_t i = 0; i < sizeof own_keys / sizeof own_keys[0]; i++)
        if (strcmp(key, own_keys[i]) == 0)
            return true;
    return false;
}

/* A whole number field of the table at t, or def when absent. */
static uint64_t whole(lua_State *L, int t, const char *key, uint64_t def, uint64_t min,
                      uint64_t max, bool *given)
{
    lua_Integer v;
    int ok;

    *given = lua_getfield(L, t, key) != LUA_TNIL;
    if (!*given) {
        lua_pop(L, 1);
        return def;
    }
    v = lua_tointegerx(L, -1, &ok);
    if (lua_type(L, -1) != LUA_TNUMBER || !ok || v < (lua_Integer)min || (uint64_t)v > max)
        luaL_error(L, "%s: %s must be a whole number from %d to %d", FN, key, (int)min, (int)max);
    lua_pop(L, 1);
    return (uint64_t)v;
}

/* A real field of the table at t in [min, max), or def when absent. */
static double real(lua_State *L, int t, const char *key, double def, double min, double max,
                   bool *given)
{
    double v = 0; /* luaL_error does not return; gcc cannot tell */

    *given = lua_getfield(L, t, key) != LUA_TNIL;
    if (!*given) {
        lua_pop(L, 1);
        return def;
    }
    if (lua_type(L, -1) != LUA_TNUMBER || !isfinite(v = lua_tonumber(L, -1)) || v < min || v >= max)
        luaL_error(L, "%s: %s must be a number from %g, below %g", FN, key, min, max);
    lua_pop(L, 1);
    return v;
}

static const char *mode_of(lua_State *L, int t)
{
    static const char *const modes[] = {"serve", "latency", "throughput"};
    const char *m;

    if (lua_getfield(L, t, "mode") == LUA_TNIL) {
        lua_pop(L, 1);
        return modes[0];
    }
    m = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
    for (size_t i = 0; i < 3; i++)
        if (strcmp(m, modes[i]) == 0) {
            lua_pop(L, 1);
            return modes[i];
        }
    luaL_error(L, "%s: mode must be \"serve\", \"latency\" or \"throughput\"", FN);
    return NULL;
}

static double rate_of(lua_State *L, int t, bool *given)
{
    double v = 0; /* luaL_error does not return; gcc cannot tell */

    *given = lua_getfield(L, t, "request_rate") != LUA_TNIL;
    if (!*given) {
        lua_pop(L, 1);
        return INFINITY;
    }
    if (lua_type(L, -1) == LUA_TSTRING && strcmp(lua_tostring(L, -1), "inf") == 0)
        v = INFINITY;
    else if (lua_type(L, -1) != LUA_TNUMBER || !((v = lua_tonumber(L, -1)) > 0) ||
             (isfinite(v) && v > 1e9))
        luaL_error(L, "%s: request_rate must be requests/s above 0, or math.huge (all at once)",
                   FN);
    lua_pop(L, 1);
    return v;
}

/* What stopped the setup or the run, in the lesson's field names. */
static void refuse(lua_State *L, const struct sim_bench *b, const struct sim_workload_spec *w,
                   const struct sim_bench_why *why)
{
    switch (why->fault) {
    case SIM_FAULT_CALC:
        lx_kv_calc_error(L, FN, why->err, why->bad, why->other);
        break;
    case SIM_FAULT_WEIGHTS:
        luaL_error(L, "%s: the weights do not fit the GPU: no KV blocks", FN);
        break;
    case SIM_FAULT_NO_CACHE:
        luaL_error(L, "%s: no KV cache size: give gpu, gpu_mem_gib or kv_budget_gib", FN);
        break;
    case SIM_FAULT_PAST_MAX_LEN:
        luaL_error(L, "%s: input_len + output_len (%d + %d) exceed max_model_len %d", FN,
                   (int)sim_workload_max_input(w), (int)sim_workload_max_output(w),
                   (int)b->r.max_model_len);
        break;
    case SIM_FAULT_NO_BANDWIDTH:
        luaL_error(L, "%s: no memory bandwidth: give gpu or bandwidth_gbps", FN);
        break;
    case SIM_FAULT_NO_TFLOPS:
        luaL_error(L, "%s: no TFLOP/s: give gpu or tflops", FN);
        break;
    case SIM_FAULT_NO_PARAMS:
        luaL_error(L, "%s: the step time needs the model's parameters (params)", FN);
        break;
    case SIM_FAULT_NEVER_FITS:
        luaL_error(L, "%s: a request of %d + %d tokens needs %d KV blocks, the cache has %d", FN,
                   (int)why->bad_input, (int)why->bad_output, (int)why->blocks_needed,
                   (int)b->sc.num_blocks);
        break;
    case SIM_FAULT_NO_PROGRESS:
        luaL_error(L, "%s: the scheduler stopped making progress (no_chunked_prefill)", FN);
        break;
    case SIM_FAULT_NOMEM:
        luaL_error(L, "%s: out of memory", FN);
        break;
    default:
        luaL_error(L, "%s: the workload is out of range", FN);
    }
}

int lx_kv_sim(lua_State *L)
{
    struct lx_kv_setup s;
    struct sim_bench_setup setup = {0};
    struct sim_workload_spec w = {0};
    struct sim_bench_why why;
    struct sim_metrics m;
    struct kv_figure f[SIM_FIGURES_MAX];
    struct sim_bench *b;
    const char *mode;
    bool given, rate_given, burst_given, conc_given, prompts_given, batch_given;

    lx_kv_read_setup(L, 1, FN, own, &s);
    mode = mode_of(L, 1);
    w.input_len = whole(L, 1, "input_len", 1024, 1, SIM_MAX_LEN, &given);
    w.output_len = whole(L, 1, "output_len", 128, 1, SIM_MAX_LEN, &given);
    w.range_ratio = real(L, 1, "range_ratio", 0, 0, 1, &given);
    w.num_prompts = whole(L, 1, "num_prompts", 1000, 1, LX_SIM_MAX_PROMPTS, &prompts_given);
    w.request_rate = rate_of(L, 1, &rate_given);
    w.burstiness = real(L, 1, "burstiness", 1, 1e-3, 1e3, &burst_given);
    w.seed = whole(L, 1, "seed", 0, 0, (uint64_t)INT32_MAX, &given);
    setup.max_concurrency = whole(L, 1, "max_concurrency", 0, 1, LX_SIM_MAX_PROMPTS, &conc_given);
    setup.max_num_seqs = whole(L, 1, "max_num_seqs", 0, 1, 1u << 20, &given);
    w.num_prompts = strcmp(mode, "latency") == 0
                        ? whole(L, 1, "batch_size", 8, 1, LX_SIM_MAX_PROMPTS, &batch_given)
                        : w.num_prompts;
    if (strcmp(mode, "latency") != 0 && lua_getfield(L, 1, "batch_size") != LUA_TNIL)
        luaL_error(L, "%s: batch_size: only mode \"latency\" runs one batch", FN);
    lua_settop(L, 1);
    if (strcmp(mode, "latency") == 0 && prompts_given)
        luaL_error(L, "%s: num_prompts: mode \"latency\" runs one batch of batch_size", FN);
    if (strcmp(mode, "serve") != 0 && (rate_given || burst_given || conc_given))
        luaL_error(L,
                   "%s: request_rate, burstiness and max_concurrency are for mode \"serve\"; "
                   "mode \"%s\" sends every prompt at t = 0",
                   FN, mode);
    if (lua_getfield(L, 1, "scheduler_reserve_full_isl") != LUA_TNIL) {
        if (lua_type(L, -1) != LUA_TBOOLEAN)
            luaL_error(L, "%s: scheduler_reserve_full_isl must be true or false", FN);
        setup.no_full_isl_admission = !lua_toboolean(L, -1);
    }
    lua_pop(L, 1);
    if (lua_getfield(L, 1, "no_chunked_prefill") != LUA_TNIL) {
        if (lua_type(L, -1) != LUA_TBOOLEAN)
            luaL_error(L, "%s: no_chunked_prefill must be true or false", FN);
        setup.no_chunked_prefill = lua_toboolean(L, -1);
    }
    lua_settop(L, 1);
    if (w.num_prompts * (w.input_len + w.output_len) > LX_SIM_MAX_WORK)
        luaL_error(L, "%s: %d requests of %d tokens are past a lesson's %d tokens a run", FN,
                   (int)w.num_prompts, (int)(w.input_len + w.output_len), (int)LX_SIM_MAX_WORK);

    setup.usage = strcmp(mode, "serve") == 0 ? SIM_USAGE_API_SERVER : SIM_USAGE_LLM_CLASS;
    setup.gpu = s.gpu;
    setup.batched_tokens_given = s.given_batched_tokens;
    setup.bandwidth_gbps = s.given_bandwidth ? s.d.bandwidth_gbps : 0;
    setup.tflops = s.given_tflops ? s.d.tflops : 0;
    /* sim_bench holds a whole calculator result: off the C stack, in Lua's memory */
    b = lua_newuserdatauv(L, sizeof *b, 0);
    lx_check(L);
    if (sim_bench_prepare(&s.m, &s.d, &setup, &w, b, &why) != KVT_E_OK ||
        sim_bench_run(b, &w, &m, NULL, &why) != KVT_E_OK)
        refuse(L, b, &w, &why);
    lx_push_figures(L, f, sim_figures(b, &m, mode, f, SIM_FIGURES_MAX));
    return 1;
}
