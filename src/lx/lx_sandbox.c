/* The Lua sandbox: a fresh state per lesson, built by allow-list.
 *
 * Isolation comes from the state itself: each lesson gets its own
 * lua_State, so its globals, its library tables and the string metatable
 * are its own, and a lesson linted after another starts clean. Inside it:
 *   - libraries: base, string, table, math, utf8, and nothing else (no io,
 *     os, package, debug, coroutine);
 *   - base without dofile, loadfile, collectgarbage, warn and print; load is
 *     text-only and sees the lesson's globals;
 *   - string without dump, with budgeted find/match/gmatch/gsub and a
 *     string.rep that checks the deadline (lx_strlib.c);
 *   - table with insert/remove/move/concat/unpack/sort that check the
 *     deadline inside their loops (lx_tablib.c): their work is set by a
 *     count the lesson chooses, not by memory or Lua code, so neither the
 *     count hook nor the memory cap would stop them;
 *   - setmetatable refuses __gc (finalizers run outside every deadline);
 *   - xpcall calls its handler after unwinding, as an ordinary call, so the
 *     deadline bounds the handler too;
 *   - once the deadline has passed, pcall and xpcall let the error through:
 *     a lesson cannot catch its own timeout and go round again;
 *   - an allocator that refuses memory past the cap, and a count hook that
 *     checks the wall clock every 1000 instructions and, once the deadline
 *     has passed, raises an error every time it runs. */
#define _POSIX_C_SOURCE 200809L
#include "lx_state.h"

#include <lauxlib.h>
#include <lualib.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define HOOK_EVERY 1000

struct lx_ctx *lx_ctx(lua_State *L)
{
    return *(struct lx_ctx **)lua_getextraspace(L);
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

bool lx_over(void *vL)
{
    struct lx_ctx *c = lx_ctx(vL);
    if (c->deadline_ns && now_ns() >= c->deadline_ns)
        c->fired = true;
    if (c->deadline_ns && c->stop && *c->stop)
        c->fired = c->stopped = true;
    return c->fired;
}

/* The message for a call that was cut short, pushed on L. */
static void push_cut_short(lua_State *L, const struct lx_ctx *c)
{
    if (c->stopped)
        lua_pushliteral(L, "the lesson was stopped: kvtutor is quitting");
    else
        lua_pushfstring(L, "the lesson ran past its %d ms deadline", (int)c->limit_ms);
}

void lx_check(lua_State *L)
{
    if (lx_over(L)) {
        push_cut_short(L, lx_ctx(L));
        lua_error(L);
    }
}

int lx_running_line(lua_State *L)
{
    const char *chunk = lx_ctx(L)->chunkname;
    lua_Debug ar;
    for (int level = 0; lua_getstack(L, level, &ar); level++)
        if (lua_getinfo(L, "Sl", &ar) && ar.currentline > 0 && strcmp(ar.source, chunk) == 0)
            return ar.currentline;
    return 0;
}

static void hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    lx_check(L);
}

/* lx_pcall's message handler: notes where the lesson was when the error
 * was raised and leaves the error as it is. It allocates nothing, so it
 * cannot fail itself. */
static int note_line(lua_State *L)
{
    lx_ctx(L)->error_line = lx_running_line(L);
    return 1;
}

static void *alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    struct lx_ctx *c = ud;
    size_t old = ptr ? osize : 0;

    if (nsize == 0) {
        free(ptr);
        c->mem_used -= old;
        return NULL;
    }
    if (nsize > old && nsize - old > c->mem_cap - c->mem_used)
        return NULL; /* over the cap: Lua raises "not enough memory" */
    ptr = realloc(ptr, nsize);
    if (ptr)
        c->mem_used = c->mem_used - old + nsize;
    return ptr;
}

static void no_warnings(void *ud, const char *msg, int tocont)
{
    (void)ud, (void)msg, (void)tocont; /* a lesson never writes to the terminal */
}

static int sb_print(lua_State *L)
{
    (void)L; /* accepted and dropped: lesson text goes through the DSL */
    return 0;
}

static int sb_load(lua_State *L)
{
    size_t len;
    const char *chunk = luaL_checklstring(L, 1, &len);
    const char *name = luaL_optstring(L, 2, "=(load)");
    bool has_env = !lua_isnone(L, 4);

    if (lua_type(L, 1) != LUA_TSTRING)
        return luaL_argerror(L, 1, "load takes source text only");
    if (luaL_loadbufferx(L, chunk, len, name, "t") != LUA_OK) {
        luaL_pushfail(L);
        lua_insert(L, -2);
        return 2;
    }
    if (has_env) {
        lua_pushvalue(L, 4);
        if (!lua_setupvalue(L, -2, 1))
            lua_pop(L, 1);
    }
    return 1;
}

static int sb_setmetatable(lua_State *L)
{
    int t = lua_type(L, 2);
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_argexpected(L, t == LUA_TNIL || t == LUA_TTABLE, 2, "nil or table");
    if (t == LUA_TTABLE) {
        lua_pushliteral(L, "__gc");
        if (lua_rawget(L, 2) != LUA_TNIL)
            return luaL_error(L, "__gc metamethods are not allowed in lessons");
        lua_pop(L, 1);
    }
    if (luaL_getmetafield(L, 1, "__metatable") != LUA_TNIL)
        return luaL_error(L, "cannot change a protected metatable");
    lua_settop(L, 2);
    lua_setmetatable(L, 1);
    return 1;
}

/* pcall(f, ...): stock pcall, except that a call cut short by the deadline
 * (or by the host's quit flag) is not caught. The hook raises every 1000
 * instructions once the deadline has passed, but in
 *   while true do pcall(function() while true do end end) end
 * the count puts every raise inside the inner loop, where a stock pcall
 * catches it, and the lesson never ends. */
static int sb_pcall(lua_State *L)
{
    int n = lua_gettop(L);
    luaL_checkany(L, 1);
    if (lua_pcall(L, n - 1, LUA_MULTRET, 0) == LUA_OK) {
        lua_pushboolean(L, 1);
        lua_insert(L, 1);
        return lua_gettop(L);
    }
    if (lx_over(L))
        return lua_error(L);
    lua_pushboolean(L, 0);
    lua_insert(L, -2);
    return 2;
}

/* xpcall(f, handler, ...): stock xpcall runs the handler at the point of
 * the error, which may be inside the deadline hook with hooks off. Here the
 * handler runs after the stack has unwound, as a plain protected call. */
static int sb_xpcall(lua_State *L)
{
    int n = lua_gettop(L);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_pushvalue(L, 1); /* f */
    for (int i = 3; i <= n; i++)
        lua_pushvalue(L, i);
    if (lua_pcall(L, n - 2, LUA_MULTRET, 0) == LUA_OK) {
        lua_pushboolean(L, 1);
        lua_replace(L, n); /* true, results... after the arguments */
        return lua_gettop(L) - n + 1;
    }
    if (lx_over(L))
        return lua_error(L); /* cut short: no handler, no catching */
    lua_pushvalue(L, 2);     /* handler(err) */
    lua_insert(L, -2);
    if (lua_pcall(L, 1, 1, 0) != LUA_OK)
        return lua_error(L);
    lua_pushboolean(L, 0);
    lua_insert(L, -2);
    return 2;
}

static void remove_field(lua_State *L, int t, const char *name)
{
    t = lua_absindex(L, t);
    lua_pushnil(L);
    lua_setfield(L, t, name);
}

static int setup(lua_State *L)
{
    static const luaL_Reg libs[] = {
        {LUA_GNAME, luaopen_base},       {LUA_STRLIBNAME, luaopen_string},
        {LUA_TABLIBNAME, luaopen_table}, {LUA_MATHLIBNAME, luaopen_math},
        {LUA_UTF8LIBNAME, luaopen_utf8}, {NULL, NULL},
    };
    static const char *const banned[] = {"dofile", "loadfile", "collectgarbage", "warn", NULL};

    for (const luaL_Reg *lib = libs; lib->func; lib++) {
        luaL_requiref(L, lib->name, lib->func, 1);
        lua_pop(L, 1);
    }
    lua_pushglobaltable(L);
    for (int i = 0; banned[i]; i++)
        remove_field(L, -1, banned[i]);
    lua_pushcfunction(L, sb_print);
    lua_setfield(L, -2, "print");
    lua_pushcfunction(L, sb_load);
    lua_setfield(L, -2, "load");
    lua_pushcfunction(L, sb_setmetatable);
    lua_setfield(L, -2, "setmetatable");
    lua_pushcfunction(L, sb_pcall);
    lua_setfield(L, -2, "pcall");
    lua_pushcfunction(L, sb_xpcall);
    lua_setfield(L, -2, "xpcall");
    lua_getfield(L, -1, LUA_STRLIBNAME);
    remove_field(L, -1, "dump");
    lua_pop(L, 2);
    luaL_requiref(L, "__strlib", lx_open_strlib, 0);
    luaL_requiref(L, "__tablib", lx_open_tablib, 0);
    luaL_requiref(L, "kv", lx_open_kv, 1);
    luaL_requiref(L, "host", lx_open_host, 1);
    lua_pop(L, 4);
    return 0;
}

lua_State *lx_sandbox_new(size_t mem_cap)
{
    struct lx_ctx *c = calloc(1, sizeof *c);
    lua_State *L;

    if (!c)
        return NULL;
    c->mem_cap = mem_cap;
    L = lua_newstate(alloc, c);
    if (!L) {
        free(c);
        return NULL;
    }
    *(struct lx_ctx **)lua_getextraspace(L) = c;
    lua_setwarnf(L, no_warnings, NULL);
    /* opening libraries allocates: do it protected, so a tiny cap fails cleanly */
    lua_pushcfunction(L, setup);
    if (lua_pcall(L, 0, 0, 0) != LUA_OK) {
        lx_sandbox_close(L);
        return NULL;
    }
    lua_sethook(L, hook, LUA_MASKCOUNT, HOOK_EVERY);
    return L;
}

void lx_sandbox_close(lua_State *L)
{
    struct lx_ctx *c;
    if (!L)
        return;
    c = lx_ctx(L);
    lua_close(L);
    free(c);
}

const char *lx_errmsg(lua_State *L)
{
    const char *m = lua_tostring(L, -1);
    return m ? m : "error";
}

int lx_pcall(lua_State *L, int nargs, int nresults, unsigned limit_ms)
{
    struct lx_ctx *c = lx_ctx(L);
    int base = lua_gettop(L) - nargs - 1, rc;

    c->fired = c->stopped = false;
    c->limit_ms = limit_ms;
    c->error_line = 0;
    c->deadline_ns = now_ns() + (uint64_t)limit_ms * 1000000u;
    if (lua_checkstack(L, 1)) {
        int fn = base + 1;
        lua_pushcfunction(L, note_line);
        lua_insert(L, fn);
        rc = lua_pcall(L, nargs, nresults, fn);
        lua_remove(L, fn);
    } else {
        rc = lua_pcall(L, nargs, nresults, 0);
    }
    if (rc == LUA_OK && c->fired) {
        /* the lesson caught the timeout and carried on: still a failure */
        lua_settop(L, base);
        push_cut_short(L, c);
        rc = LUA_ERRRUN;
    } else if (rc != LUA_OK) {
        int t = lua_type(L, -1);
        if (c->fired && rc != LUA_ERRMEM) {
            lua_pop(L, 1);
            push_cut_short(L, c);
        } else if (rc == LUA_ERRMEM) {
            lua_pop(L, 1);
            lua_pushfstring(L, "not enough memory (the lesson may use %d MiB)",
                            (int)(c->mem_cap >> 20));
        } else if (t != LUA_TSTRING && t != LUA_TNUMBER) {
            /* never call a lesson's __tostring: it could run forever */
            lua_pop(L, 1);
            lua_pushfstring(L, "error object is a %s value", lua_typename(L, t));
        } else {
            lua_tostring(L, -1);
        }
    }
    c->deadline_ns = 0;
    return rc;
}
