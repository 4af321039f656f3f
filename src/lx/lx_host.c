/* The `host` module: small checked primitives the lesson DSL (lua/kvtutor.lua)
 * builds on. Lessons may call them too; none reaches outside the state. */
#include "lx_state.h"

#include <lauxlib.h>
#include <string.h>

#include "kv_units.h"

/* Registry keys: weak-keyed tables from a DSL table to where it was written
 * and what it is. */
static const char LINES_KEY[] = "kvtutor.lines";
static const char KINDS_KEY[] = "kvtutor.kinds";

static void weak_table(lua_State *L, const char *key)
{
    if (lua_getfield(L, LUA_REGISTRYINDEX, key) == LUA_TTABLE)
        return;
    lua_pop(L, 1);
    lua_createtable(L, 0, 8);
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_pushvalue(L, -1);
    lua_setfield(L, LUA_REGISTRYINDEX, key);
}

/* host.mark(t, kind) -> t: remembers that t is a DSL `kind`, written at the
 * lesson line that is running now. */
static int host_mark(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checkstring(L, 2);
    weak_table(L, LINES_KEY);
    lua_pushvalue(L, 1);
    lua_pushinteger(L, lx_running_line(L));
    lua_rawset(L, -3);
    lua_pop(L, 1);
    weak_table(L, KINDS_KEY);
    lua_pushvalue(L, 1);
    lua_pushvalue(L, 2);
    lua_rawset(L, -3);
    lua_settop(L, 1);
    return 1;
}

/* host.kind(v) -> the DSL kind of v, or nil. */
static int host_kind(lua_State *L)
{
    const char *k = lua_type(L, 1) == LUA_TTABLE ? lx_kind_of(L, 1) : NULL;
    if (k)
        lua_pushstring(L, k);
    else
        lua_pushnil(L);
    return 1;
}

/* host.unit(name) -> true when kvtutor knows the unit. */
static int host_unit(lua_State *L)
{
    lua_pushboolean(L, kv_unit_find(luaL_checkstring(L, 1)) != NULL);
    return 1;
}

int lx_line_of(lua_State *L, int t)
{
    int line = 0;
    t = lua_absindex(L, t);
    if (lua_getfield(L, LUA_REGISTRYINDEX, LINES_KEY) == LUA_TTABLE) {
        lua_pushvalue(L, t);
        if (lua_rawget(L, -2) == LUA_TNUMBER)
            line = (int)lua_tointeger(L, -1);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return line;
}

const char *lx_kind_of(lua_State *L, int t)
{
    const char *kind = NULL;
    t = lua_absindex(L, t);
    if (lua_getfield(L, LUA_REGISTRYINDEX, KINDS_KEY) == LUA_TTABLE) {
        lua_pushvalue(L, t);
        if (lua_rawget(L, -2) == LUA_TSTRING)
            kind = lua_tostring(L, -1); /* interned, and the weak table keeps it */
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return kind;
}

int lx_open_host(lua_State *L)
{
    static const luaL_Reg fns[] = {
        {"mark", host_mark},
        {"kind", host_kind},
        {"unit", host_unit},
        {NULL, NULL},
    };
    luaL_newlib(L, fns);
    return 1;
}
