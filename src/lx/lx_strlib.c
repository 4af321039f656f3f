/* string.find, string.match, string.gmatch and string.gsub for lessons, on
 * the budgeted matcher (lx_pattern.h), with Lua 5.4's own behaviour:
 * init positions, plain finds, anchors, captures, and gsub's string, table
 * and function replacements; string.rep, whose stock loop runs once per
 * repetition even when there is nothing to copy; and string.format, whose
 * %q quoting is bounded by size. */
#include "lx_pattern.h"
#include "lx_state.h"

#include <lauxlib.h>
#include <lualib.h>
#include <string.h>

/* Lua's rule for a start position: negative counts from the end. */
static size_t start_pos(lua_Integer pos, size_t len)
{
    if (pos > 0)
        return (size_t)pos;
    if (pos == 0)
        return 1;
    if (pos < -(lua_Integer)len)
        return 1;
    return len + (size_t)pos + 1;
}

static const char *find_plain(const char *s, size_t ls, const char *p, size_t lp)
{
    if (lp == 0)
        return s;
    while (lp <= ls) {
        const char *hit = memchr(s, *p, ls - lp + 1);
        if (!hit)
            return NULL;
        if (memcmp(hit + 1, p + 1, lp - 1) == 0)
            return hit;
        ls -= (size_t)(hit + 1 - s);
        s = hit + 1;
    }
    return NULL;
}

static int pattern_raise(lua_State *L, struct lxp_state *ms)
{
    return luaL_error(L, "%s", ms->error);
}

static void push_one(lua_State *L, struct lxp_state *ms, int i, const char *s, const char *e)
{
    const char *start;
    ptrdiff_t len;
    if (!lxp_capture(ms, i, s, e, &start, &len)) {
        pattern_raise(L, ms);
        return;
    }
    if (len == LXP_POSITION)
        lua_pushinteger(L, (lua_Integer)(start - ms->src_init) + 1);
    else
        lua_pushlstring(L, start, (size_t)len);
}

/* Pushes the captures (or the whole match when there are none). */
static int push_captures(lua_State *L, struct lxp_state *ms, const char *s, const char *e,
                         bool whole_if_none)
{
    int n = (ms->level == 0 && whole_if_none) ? 1 : ms->level;
    luaL_checkstack(L, n, "too many captures");
    for (int i = 0; i < n; i++)
        push_one(L, ms, i, s, e);
    return n;
}

static int find_aux(lua_State *L, bool find)
{
    size_t ls, lp;
    const char *s = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    size_t init = start_pos(luaL_optinteger(L, 3, 1), ls);
    struct lxp_state ms;
    bool anchor;
    const char *s1;

    if (init > ls + 1) {
        luaL_pushfail(L);
        return 1;
    }
    if (find && (lua_toboolean(L, 4) || lxp_no_specials(p, lp))) {
        const char *hit = find_plain(s + init - 1, ls - init + 1, p, lp);
        if (!hit) {
            luaL_pushfail(L);
            return 1;
        }
        lua_pushinteger(L, (lua_Integer)(hit - s) + 1);
        lua_pushinteger(L, (lua_Integer)(hit - s) + (lua_Integer)lp);
        return 2;
    }
    anchor = *p == '^';
    if (anchor) {
        p++;
        lp--;
    }
    lxp_init(&ms, s, ls, p, lp, lx_over, L);
    s1 = s + init - 1;
    do {
        const char *e;
        lxp_reset(&ms);
        e = lxp_match(&ms, s1, p);
        if (ms.error)
            return pattern_raise(L, &ms);
        if (e) {
            if (find) {
                lua_pushinteger(L, (lua_Integer)(s1 - s) + 1);
                lua_pushinteger(L, (lua_Integer)(e - s));
                return push_captures(L, &ms, NULL, NULL, false) + 2;
            }
            return push_captures(L, &ms, s1, e, true);
        }
    } while (s1++ < ms.src_end && !anchor);
    luaL_pushfail(L);
    return 1;
}

static int str_find(lua_State *L)
{
    return find_aux(L, true);
}

static int str_match(lua_State *L)
{
    return find_aux(L, false);
}

/* gmatch's iterator state, a full userdata so the subject and pattern it
 * points into stay alive as upvalues beside it. */
struct gm_state {
    const char *src, *p, *lastmatch;
    struct lxp_state ms;
};

static int gmatch_step(lua_State *L)
{
    struct gm_state *gm = lua_touserdata(L, lua_upvalueindex(3));
    for (const char *src = gm->src; src <= gm->ms.src_end; src++) {
        const char *e;
        lxp_reset(&gm->ms);
        e = lxp_match(&gm->ms, src, gm->p);
        if (gm->ms.error)
            return pattern_raise(L, &gm->ms);
        if (e && e != gm->lastmatch) {
            gm->src = gm->lastmatch = e;
            return push_captures(L, &gm->ms, src, e, true);
        }
    }
    return 0;
}

static int str_gmatch(lua_State *L)
{
    size_t ls, lp;
    const char *s = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    size_t init = start_pos(luaL_optinteger(L, 3, 1), ls);
    struct gm_state *gm;

    lua_settop(L, 2);
    gm = lua_newuserdatauv(L, sizeof *gm, 0);
    if (init > ls + 1)
        init = ls + 1; /* start past the end: nothing to match */
    lxp_init(&gm->ms, s, ls, p, lp, lx_over, L);
    gm->src = s + init - 1;
    gm->p = p;
    gm->lastmatch = NULL;
    lua_pushcclosure(L, gmatch_step, 3);
    return 1;
}

/* gsub's replacement string: %0..%9 are captures, %% a percent sign. */
static void add_string(lua_State *L, luaL_Buffer *b, struct lxp_state *ms, const char *s,
                       const char *e)
{
    size_t l;
    const char *news = lua_tolstring(L, 3, &l), *p;

    while ((p = memchr(news, '%', l)) != NULL) {
        luaL_addlstring(b, news, (size_t)(p - news));
        p++;
        if (*p == '%') {
            luaL_addchar(b, *p);
        } else if (*p >= '0' && *p <= '9') {
            if (*p == '0') {
                luaL_addlstring(b, s, (size_t)(e - s));
            } else {
                push_one(L, ms, *p - '1', s, e);
                luaL_tolstring(L, -1, NULL);
                lua_remove(L, -2);
                luaL_addvalue(b);
            }
        } else {
            luaL_error(L, "invalid use of '%%' in replacement string");
        }
        l -= (size_t)(p + 1 - news);
        news = p + 1;
    }
    luaL_addlstring(b, news, l);
}

static void add_value(lua_State *L, luaL_Buffer *b, struct lxp_state *ms, const char *s,
                      const char *e, int tr)
{
    if (tr == LUA_TFUNCTION) {
        int n;
        lua_pushvalue(L, 3);
        n = push_captures(L, ms, s, e, true);
        lua_call(L, n, 1);
    } else if (tr == LUA_TTABLE) {
        push_one(L, ms, 0, s, e);
        lua_gettable(L, 3);
    } else {
        add_string(L, b, ms, s, e);
        return;
    }
    if (!lua_toboolean(L, -1)) {
        lua_pop(L, 1);
        luaL_addlstring(b, s, (size_t)(e - s)); /* nil or false: keep the original */
    } else if (!lua_isstring(L, -1)) {
        luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
    } else {
        luaL_addvalue(b);
    }
}

static int str_gsub(lua_State *L)
{
    size_t srcl, lp;
    const char *src = luaL_checklstring(L, 1, &srcl);
    const char *p = luaL_checklstring(L, 2, &lp);
    const char *lastmatch = NULL;
    int tr = lua_type(L, 3);
    lua_Integer max_s = luaL_optinteger(L, 4, (lua_Integer)srcl + 1), n = 0;
    bool anchor = *p == '^';
    struct lxp_state ms;
    luaL_Buffer b;

    luaL_argexpected(
        L, tr == LUA_TNUMBER || tr == LUA_TSTRING || tr == LUA_TFUNCTION || tr == LUA_TTABLE, 3,
        "string/function/table");
    luaL_buffinit(L, &b);
    if (anchor) {
        p++;
        lp--;
    }
    lxp_init(&ms, src, srcl, p, lp, lx_over, L);
    while (n < max_s) {
        const char *e;
        lxp_reset(&ms);
        e = lxp_match(&ms, src, p);
        if (ms.error)
            return pattern_raise(L, &ms);
        if (e && e != lastmatch) {
            n++;
            add_value(L, &b, &ms, src, e, tr);
            src = lastmatch = e;
        } else if (src < ms.src_end) {
            luaL_addchar(&b, *src++);
        } else {
            break;
        }
        if (anchor)
            break;
    }
    luaL_addlstring(&b, src, (size_t)(ms.src_end - src));
    luaL_pushresult(&b);
    lua_pushinteger(L, n);
    return 2;
}

/* string.rep(s, n [, sep]). The stock loop copies s and sep n times: with
 * s and sep empty it turns math.maxinteger times, allocating nothing and
 * running no Lua instruction. Here an empty result returns at once, and the
 * rest is built by doubling (one copy of "s..sep", then the filled prefix
 * copied onto itself), about log2 of the length in copies, with a deadline
 * check between them; the size is bounded by the memory cap, since the
 * buffer is allocated first. */
static int str_rep(lua_State *L)
{
    size_t l, lsep, unit, total, filled;
    const char *s = luaL_checklstring(L, 1, &l);
    lua_Integer n = luaL_checkinteger(L, 2);
    const char *sep = luaL_optlstring(L, 3, "", &lsep);
    luaL_Buffer b;
    char *out;

    if (n <= 0 || (l == 0 && (lsep == 0 || n == 1))) {
        lua_pushliteral(L, "");
        return 1;
    }
    unit = l + lsep;
    if (unit < l || unit > ((size_t)-1 >> 1) / (lua_Unsigned)n)
        return luaL_error(L, "resulting string too large");
    total = (size_t)n * unit - lsep;
    out = luaL_buffinitsize(L, &b, total);
    memcpy(out, s, l);
    filled = l;
    if (n > 1) {
        memcpy(out + l, sep, lsep);
        filled = unit;
    }
    while (filled < total) {
        size_t chunk = total - filled < filled ? total - filled : filled;
        lx_check(L);
        memcpy(out + filled, out, chunk);
        filled += chunk;
    }
    luaL_pushresultsize(&b, total);
    return 1;
}

/* The longest string string.format quotes with %q. Lua's quoting is one C
 * loop over the string with no hook in it, so a string near the memory cap
 * would run past the lesson's deadline (about 1 s for 60 MB); no lesson
 * needs a megabyte quoted. */
#define LX_FORMAT_Q_MAX ((size_t)1 << 20)

/* string.format, Lua's own (upvalue 1), once no %q would quote a string
 * past LX_FORMAT_Q_MAX. Walks the format as Lua does: "%%" takes no
 * argument, every other conversion takes the next one. */
static int str_format(lua_State *L)
{
    size_t lf;
    const char *f = luaL_checklstring(L, 1, &lf), *end = f + lf;
    int arg = 1, top = lua_gettop(L);

    while (f < end) {
        if (*f++ != '%')
            continue;
        if (f < end && *f == '%') {
            f++;
            continue;
        }
        while (f < end && strchr("-+ #0123456789.", *f))
            f++;
        if (f >= end)
            break; /* Lua's own format names the bad conversion */
        arg++;
        if (*f == 'q' && arg <= top && lua_type(L, arg) == LUA_TSTRING) {
            size_t n = lua_rawlen(L, arg);
            if (n > LX_FORMAT_Q_MAX)
                return luaL_error(L,
                                  "bad argument #%d to 'format' (a %I-byte string for %%q; "
                                  "at most %I)",
                                  arg, (lua_Integer)n, (lua_Integer)LX_FORMAT_Q_MAX);
        }
        f++;
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, top, LUA_MULTRET);
    return lua_gettop(L);
}

int lx_open_strlib(lua_State *L)
{
    static const luaL_Reg fns[] = {
        {"find", str_find}, {"match", str_match}, {"gmatch", str_gmatch},
        {"gsub", str_gsub}, {"rep", str_rep},     {NULL, NULL},
    };
    lua_getglobal(L, LUA_STRLIBNAME);
    luaL_setfuncs(L, fns, 0);
    lua_getfield(L, -1, "format");
    /* Lua names a C function in its errors by where package.loaded holds
     * it; the original, called from str_format, would be "?". Kept under a
     * loaded name no lesson reaches (the sandbox has no require), it reads
     * "bad argument #2 to 'string.format'". */
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    lua_createtable(L, 0, 1);
    lua_pushvalue(L, -3);
    lua_setfield(L, -2, "format");
    lua_setfield(L, -2, LUA_GNAME "." LUA_STRLIBNAME);
    lua_pop(L, 1);
    lua_pushcclosure(L, str_format, 1);
    lua_setfield(L, -2, "format");
    return 1;
}
