/* lx_state.h: the sandbox's per-state bookkeeping, shared by the lx files.
 * Not for other layers: they see lx.h. */
#ifndef LX_STATE_H
#define LX_STATE_H

#include <signal.h>
#include <lua.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kv_calc.h"
#include "kv_figures.h"
#include "kv_presets.h"

struct lx_ctx {
    size_t mem_used, mem_cap; /* bytes the state holds; the allocator refuses past the cap */
    uint64_t deadline_ns;     /* CLOCK_MONOTONIC; 0 = no call running */
    unsigned limit_ms;        /* the running call's budget, for the message */
    bool fired;               /* the deadline passed during the running call */
    bool stopped;             /* ... or the host asked to stop (*stop set) */
    const volatile sig_atomic_t *stop; /* the host's quit flag, or NULL */
    char chunkname[4104];              /* "@path" of the lesson, to find its lines */
    /* The lesson line that was running when the last lx_pcall failed, for
     * messages that name none; 0 when unknown (running out of memory
     * unwinds without a message handler, so it has no line). */
    int error_line;
};

/* A fresh state with the sandbox's libraries, allocator and hook, or NULL
 * when even that does not fit in mem_cap. */
lua_State *lx_sandbox_new(size_t mem_cap);
void lx_sandbox_close(lua_State *L);

struct lx_ctx *lx_ctx(lua_State *L);

/* Has the running call's deadline passed? Sets ctx->fired when it has.
 * Takes the lua_State as void* to serve as the pattern matcher's check. */
bool lx_over(void *L);

/* Raises the cut-short error ("ran past its deadline", or "stopped") when
 * lx_over says so; for C loops whose length a lesson chooses. */
void lx_check(lua_State *L);

/* The one protected call: calls the function below nargs arguments with a
 * deadline of limit_ms, converts any error to a plain message (never
 * calling a __tostring), and leaves either nresults values (LUA_OK) or one
 * string. A call that ran past its deadline fails even if the lesson
 * caught the timeout. On failure, ctx->error_line is the lesson line that
 * was running (0 when unknown). */
int lx_pcall(lua_State *L, int nargs, int nresults, unsigned limit_ms);

/* The line of the innermost running function written in the lesson file
 * (the chunk or a function it defines), or 0 when none is running. */
int lx_running_line(lua_State *L);

/* The message of the error on top of the stack, for a report. */
const char *lx_errmsg(lua_State *L);

/* luaopen functions of the modules the sandbox offers. */
int lx_open_strlib(lua_State *L); /* replaces string.find/match/gmatch/gsub/rep */
int lx_open_tablib(lua_State *L); /* replaces table.insert/remove/move/concat/unpack/sort */
int lx_open_kv(lua_State *L);     /* the calculator */
int lx_open_host(lua_State *L);   /* primitives the DSL builds on */

/* A calculator setup read from a Lua table of kv.calc's fields: the preset
 * (model =), the GPU (gpu =), then every other field over them. */
struct lx_kv_setup {
    struct kv_model m;
    struct kv_deploy d;
    const struct kv_gpu_preset *gpu; /* NULL: none given */
    bool given_bandwidth, given_tflops, given_batched_tokens;
};

/* Reads the table at index t into *s. fn names the function in errors
 * ("kv.calc"); own(key), when not NULL, says which other keys the caller
 * reads itself. Raises a Lua error naming the field at fault. */
void lx_kv_read_setup(lua_State *L, int t, const char *fn, bool (*own)(const char *key),
                      struct lx_kv_setup *s);

/* Raises kv_calc's refusal as a Lua error naming the fields. */
void lx_kv_calc_error(lua_State *L, const char *fn, enum kvt_err e, enum kv_field bad,
                      enum kv_field other);

/* Pushes a table of the named figures (kv_figures.h's form). */
void lx_push_figures(lua_State *L, const struct kv_figure *f, size_t n);

/* kv.sim{...}: the serving simulator (lx_sim.c). */
int lx_kv_sim(lua_State *L);

/* The line in the lesson file where table t (a DSL value) was written; 0
 * when unknown. t is a stack index. */
int lx_line_of(lua_State *L, int t);

/* The DSL kind recorded for table t ("lesson", "numeric"...), or NULL. */
const char *lx_kind_of(lua_State *L, int t);

#endif
