/* table.insert, remove, move, concat, unpack and sort for lessons, with the
 * behaviour of Lua 5.4's table library and a deadline check inside every
 * loop.
 *
 * Why: the stock functions loop in C over a count the lesson chooses. With
 * a `__len` that says 2^63 - 2, or a range like table.move({}, 1,
 * math.maxinteger - 1, 1), they run for centuries without a Lua instruction
 * (so the count hook never fires) and without allocating (so the memory cap
 * never fires); a `__index` or `__newindex` written in C (`tostring`,
 * `rawequal`) keeps them in C too. Here every loop asks lx_check every
 * CHECK_EVERY rounds, so the deadline and the host's quit flag stop them as
 * they stop Lua code. table.pack is left as it is: its work is bounded by
 * its arguments, which are on the stack (at most a million values). */
#include "lx_state.h"

#include <lauxlib.h>
#include <limits.h>
#include <lualib.h>

#define CHECK_EVERY 256

/* What an argument must support (Lua 5.4's rule): a table, or a value whose
 * metatable has the metamethods the operation uses. */
enum { NEED_READ = 1, NEED_WRITE = 2, NEED_LEN = 4 };

static int has_field(lua_State *L, const char *name)
{
    lua_pushstring(L, name);
    return lua_rawget(L, -2) != LUA_TNIL;
}

static void check_tab(lua_State *L, int arg, int need)
{
    if (lua_type(L, arg) == LUA_TTABLE)
        return;
    int n = 1;
    if (lua_getmetatable(L, arg) && (!(need & NEED_READ) || (n++, has_field(L, "__index"))) &&
        (!(need & NEED_WRITE) || (n++, has_field(L, "__newindex"))) &&
        (!(need & NEED_LEN) || (n++, has_field(L, "__len")))) {
        lua_pop(L, n);
        return;
    }
    luaL_checktype(L, arg, LUA_TTABLE); /* raises the stock message */
}

static lua_Integer length(lua_State *L, int arg, int need)
{
    check_tab(L, arg, need | NEED_LEN);
    return luaL_len(L, arg);
}

/* How often a loop over the value at `arg` asks for the deadline: every
 * CHECK_EVERY rounds for a plain table, every round when it has a metatable,
 * since one lua_geti then may walk an `__index` chain of up to 2,000 tables
 * (Lua's MAXTAGLOOP) and 256 such rounds can outlast the deadline by far. */
static lua_Unsigned every(lua_State *L, int arg)
{
    if (!lua_getmetatable(L, arg))
        return CHECK_EVERY;
    lua_pop(L, 1);
    return 1;
}

/* One round of a loop: every `ev` rounds, stop at the deadline. */
static inline void tick(lua_State *L, lua_Unsigned round, lua_Unsigned ev)
{
    if ((round % ev) == 0)
        lx_check(L);
}

static int tab_insert(lua_State *L)
{
    lua_Integer end = length(L, 1, NEED_READ | NEED_WRITE), pos;
    lua_Unsigned ev = every(L, 1);

    end = (lua_Integer)((lua_Unsigned)end + 1u); /* the first empty slot */
    switch (lua_gettop(L)) {
    case 2:
        pos = end;
        break;
    case 3:
        pos = luaL_checkinteger(L, 2);
        luaL_argcheck(L, (lua_Unsigned)pos - 1u < (lua_Unsigned)end, 2, "position out of bounds");
        for (lua_Integer i = end; i > pos; i--) {
            tick(L, (lua_Unsigned)(end - i), ev);
            lua_geti(L, 1, i - 1);
            lua_seti(L, 1, i);
        }
        break;
    default:
        return luaL_error(L, "wrong number of arguments to 'insert'");
    }
    lua_seti(L, 1, pos);
    return 0;
}

static int tab_remove(lua_State *L)
{
    lua_Integer size = length(L, 1, NEED_READ | NEED_WRITE);
    lua_Integer pos = luaL_optinteger(L, 2, size);
    lua_Unsigned ev = every(L, 1);

    if (pos != size) /* stock Lua 5.4 names argument #1 here */
        luaL_argcheck(L, (lua_Unsigned)pos - 1u <= (lua_Unsigned)size, 1, "position out of bounds");
    lua_geti(L, 1, pos);
    for (lua_Unsigned round = 1; pos < size; pos++, round++) {
        tick(L, round, ev);
        lua_geti(L, 1, pos + 1);
        lua_seti(L, 1, pos);
    }
    lua_pushnil(L);
    lua_seti(L, 1, pos);
    return 1;
}

static int tab_move(lua_State *L)
{
    lua_Integer f = luaL_checkinteger(L, 2), e = luaL_checkinteger(L, 3);
    lua_Integer t = luaL_checkinteger(L, 4);
    int tt = !lua_isnoneornil(L, 5) ? 5 : 1;

    check_tab(L, 1, NEED_READ);
    check_tab(L, tt, NEED_WRITE);
    if (e >= f) {
        lua_Integer n;
        lua_Unsigned ev = every(L, 1) < every(L, tt) ? every(L, 1) : every(L, tt);
        luaL_argcheck(L, f > 0 || e < LUA_MAXINTEGER + f, 3, "too many elements to move");
        n = e - f + 1;
        luaL_argcheck(L, t <= LUA_MAXINTEGER - n + 1, 4, "destination wrap around");
        if (t > e || t <= f || (tt != 1 && !lua_compare(L, 1, tt, LUA_OPEQ))) {
            for (lua_Integer i = 0; i < n; i++) {
                tick(L, (lua_Unsigned)i + 1u, ev);
                lua_geti(L, 1, f + i);
                lua_seti(L, tt, t + i);
            }
        } else {
            for (lua_Integer i = n - 1; i >= 0; i--) {
                tick(L, (lua_Unsigned)(n - i), ev);
                lua_geti(L, 1, f + i);
                lua_seti(L, tt, t + i);
            }
        }
    }
    lua_pushvalue(L, tt);
    return 1;
}

static void add_field(lua_State *L, luaL_Buffer *b, lua_Integer i)
{
    lua_geti(L, 1, i);
    if (!lua_isstring(L, -1))
        luaL_error(L, "invalid value (%s) at index %I in table for 'concat'", luaL_typename(L, -1),
                   (LUAI_UACINT)i);
    luaL_addvalue(b);
}

static int tab_concat(lua_State *L)
{
    luaL_Buffer b;
    lua_Integer last = length(L, 1, NEED_READ);
    size_t lsep;
    const char *sep = luaL_optlstring(L, 2, "", &lsep);
    lua_Integer i = luaL_optinteger(L, 3, 1);
    lua_Unsigned round = 0, ev = every(L, 1);

    last = luaL_optinteger(L, 4, last);
    luaL_buffinit(L, &b);
    for (; i < last; i++) {
        tick(L, ++round, ev);
        add_field(L, &b, i);
        luaL_addlstring(&b, sep, lsep);
    }
    if (i == last)
        add_field(L, &b, i);
    luaL_pushresult(&b);
    return 1;
}

static int tab_unpack(lua_State *L)
{
    lua_Integer i = luaL_optinteger(L, 2, 1);
    lua_Integer e = luaL_opt(L, luaL_checkinteger, 3, luaL_len(L, 1));
    lua_Unsigned n, ev = every(L, 1);

    if (i > e)
        return 0;
    n = (lua_Unsigned)e - (lua_Unsigned)i;
    if (n >= (unsigned)INT_MAX || !lua_checkstack(L, (int)(++n)))
        return luaL_error(L, "too many results to unpack");
    for (lua_Unsigned round = 1; i < e; i++, round++) {
        tick(L, round, ev);
        lua_geti(L, 1, i);
    }
    lua_geti(L, 1, e);
    return (int)n;
}

/* sort: a heapsort on t[1..n] through lua_geti/lua_seti, so metamethods
 * apply as they do in the stock sort. Heapsort rather than the stock
 * quicksort because its worst case is n log n whatever the order function
 * says; the order of equal elements is unspecified in both. */
struct sorter {
    lua_State *L;
    bool has_fn; /* the order function is at index 2 */
    lua_Unsigned rounds, every;
};

/* t[a] < t[b] by the order function or by `<`. */
static bool less(struct sorter *s, lua_Integer a, lua_Integer b)
{
    lua_State *L = s->L;
    bool r;
    tick(L, ++s->rounds, s->every);
    if (s->has_fn) {
        lua_pushvalue(L, 2);
        lua_geti(L, 1, a);
        lua_geti(L, 1, b);
        lua_call(L, 2, 1);
        r = lua_toboolean(L, -1);
        lua_pop(L, 1);
    } else {
        lua_geti(L, 1, a);
        lua_geti(L, 1, b);
        r = lua_compare(L, -2, -1, LUA_OPLT);
        lua_pop(L, 2);
    }
    return r;
}

static void swap(lua_State *L, lua_Integer a, lua_Integer b)
{
    lua_geti(L, 1, a);
    lua_geti(L, 1, b);
    lua_seti(L, 1, a);
    lua_seti(L, 1, b);
}

/* Moves t[root] down the max-heap t[1..end]. */
static void sift_down(struct sorter *s, lua_Integer root, lua_Integer end)
{
    for (;;) {
        lua_Integer child = 2 * root;
        if (child > end)
            return;
        if (child < end && less(s, child, child + 1))
            child++;
        if (!less(s, root, child))
            return;
        swap(s->L, root, child);
        root = child;
    }
}

static int tab_sort(lua_State *L)
{
    lua_Integer n = length(L, 1, NEED_READ | NEED_WRITE);
    struct sorter s = {.L = L, .every = every(L, 1)};

    if (n > 1) {
        luaL_argcheck(L, n < INT_MAX, 1, "array too big");
        if (!lua_isnoneornil(L, 2))
            luaL_checktype(L, 2, LUA_TFUNCTION);
        s.has_fn = !lua_isnoneornil(L, 2);
        lua_settop(L, 2);
        luaL_checkstack(L, 4, "sort");
        for (lua_Integer root = n / 2; root >= 1; root--)
            sift_down(&s, root, n);
        for (lua_Integer end = n; end > 1; end--) {
            swap(L, 1, end);
            sift_down(&s, 1, end - 1);
        }
    }
    return 0;
}

int lx_open_tablib(lua_State *L)
{
    static const luaL_Reg fns[] = {
        {"insert", tab_insert}, {"remove", tab_remove}, {"move", tab_move}, {"concat", tab_concat},
        {"unpack", tab_unpack}, {"sort", tab_sort},     {NULL, NULL},
    };
    lua_getglobal(L, LUA_TABLIBNAME);
    luaL_setfuncs(L, fns, 0);
    return 1;
}
