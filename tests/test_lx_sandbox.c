#define _POSIX_C_SOURCE 200809L
/* The sandbox from the inside: what a lesson can and cannot reach, the
 * budgeted pattern matcher against stock Lua 5.4 (the reference), the
 * deadline and memory cap, and the kv module's figures. */
#include <lauxlib.h>
#include <lualib.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include <cmocka.h>

#include "lx_state.h"

/* Runs `code` in a fresh sandbox; returns the first result as a string
 * (tostring'd by the sandbox itself) or "ERR: message". */
static const char *sandbox_eval(const char *code, unsigned ms)
{
    static char out[4096];
    lua_State *L = lx_sandbox_new(64u << 20);

    assert_non_null(L);
    if (luaL_loadbufferx(L, code, strlen(code), "=test", "t") != LUA_OK) {
        snprintf(out, sizeof out, "ERR: %s", lua_tostring(L, -1));
    } else if (lx_pcall(L, 0, 1, ms) != LUA_OK) {
        snprintf(out, sizeof out, "ERR: %s", lx_errmsg(L));
    } else {
        size_t n;
        const char *s = luaL_tolstring(L, -1, &n);
        snprintf(out, sizeof out, "%s", s);
    }
    lx_sandbox_close(L);
    return out;
}

/* The same expression through stock Lua 5.4's own string library. */
static const char *stock_eval(const char *code)
{
    static char out[4096];
    lua_State *L = luaL_newstate();

    luaL_openlibs(L);
    if (luaL_loadbufferx(L, code, strlen(code), "=test", "t") != LUA_OK ||
        lua_pcall(L, 0, 1, 0) != LUA_OK)
        snprintf(out, sizeof out, "ERR: %s", lua_tostring(L, -1));
    else
        snprintf(out, sizeof out, "%s", luaL_tolstring(L, -1, NULL));
    lua_close(L);
    return out;
}

static void test_patterns_match_stock_lua(void **state)
{
    (void)state;
    /* Each expression packs every result into one string, so results and
     * capture positions are compared, not just the first value. */
    static const char *const cases[] = {
        "return table.concat({string.find('hello world', 'o w')}, ',')",
        "return table.concat({string.find('hello world', 'l+')}, ',')",
        "return table.concat({string.find('hello', 'l', 1, true)}, ',')",
        "return table.concat({string.find('a.b.c', '.', 2, true)}, ',')",
        "return table.concat({string.find('hello', '')}, ',')",
        "return table.concat({string.find('hello', '', 10)}, ',')",
        "return tostring(string.find('hello', 'xyz'))",
        "return table.concat({string.find('key = value', '(%w+)%s*=%s*(%w+)')}, ',')",
        "return table.concat({string.find('  x', '^%s*()')}, ',')",
        "return table.concat({string.match('2024-11-29', '(%d+)-(%d+)-(%d+)')}, ',')",
        "return string.match('The 56 KiB cache', '%d+%s*%a+')",
        "return string.match('[[nested]]', '%[(%b[])%]')",
        "return string.match('THE (quick) fox', '%f[%a]%a+')",
        "return string.match('hello', '^(h)(e)') .. '|'",
        "return tostring(string.match('hello', '^ello'))",
        "return string.match('abc', '()b()')",
        "return string.match('x = 1, y = 2', 'y = (%d)')",
        "return string.match('aaa', 'a-b') or 'nil'",
        "return string.match('aaab', 'a-b')",
        "return string.match('abcabc', '(abc)%1')",
        "return string.match('1.5e3 GB', '^[%d%.eE+-]+')",
        "return string.match('fat cat', '[^%s]+$')",
        "return string.match('a]b', '[]]')",
        "return string.match('a-b', '[a%-]+')",
        "return string.match('price $5', '%$(%d)')",
        "return string.match('end$', 'd%$')",
        "return string.match('x$y', 'x$y')",
        "return select('#', string.match('abc', '((a)(b))'))",
        "return string.gsub('hello world', 'o', '0')",
        "return string.gsub('hello world', '(%w+)', '<%1>')",
        "return string.gsub('hello', '', '-')",
        "return string.gsub('abc', '%w', '%0%0')",
        "return string.gsub('abc', 'b', '%%')",
        "return string.gsub('$name is $age', '%$(%w+)', {name = 'ann', age = 30})",
        "return string.gsub('a b c', '%w', function(c) if c == 'b' then return nil end "
        "return c:upper() end)",
        "return string.gsub('one two three', '(%w+)', '%1!', 2)",
        "return string.gsub('abc', '^a', 'X')",
        "return string.gsub('  trim  ', '^%s*(.-)%s*$', '%1')",
        "local t = {} for k, v in string.gmatch('a=1, b=2, c=3', '(%w+)=(%w+)') do t[#t+1] = k..v "
        "end return table.concat(t, ';')",
        "local t = {} for w in string.gmatch('one two  three', '%a+') do t[#t+1] = w end "
        "return table.concat(t, ',')",
        "local t = {} for p in string.gmatch('abc', '()') do t[#t+1] = p end "
        "return table.concat(t, ',')",
        "local t = {} for w in string.gmatch('hello world', '%a+', 3) do t[#t+1] = w end "
        "return table.concat(t, ',')",
        "return ('%d KiB'):format(56) .. (' x'):rep(2)",
        "return string.match('f(a(b)c', '%b()') or 'nil'",
        "return string.match('x', '%f[%w]$') or 'nil'",
        "return string.match('THE END', '%f[%W]()')",
        "return string.match('a-z', '[a-]+')",
        "return string.match('q%d', '[%a%%]+')",
        "return string.match('', '.-$')",
        "return string.match('', 'a*$')",
        "return string.gsub('hello world', '%s*', '_')",
        "return string.gsub('x\0y', '%z', 'Z')",
        "return string.gsub('abc', '.', {a = 1, b = true})",
        "return table.concat({string.find('a+b', '+', 1, true)}, ',')",
        "return table.concat({string.find('hello', 'l', -2)}, ',')",
        "return table.concat({string.find('hello', 'h', -100)}, ',')",
        "return string.match('  56.0 KiB', '^%s*(%-?%d+%.?%d*)%s*(%a*)$')",
        "return string.match('key:value:more', '(.-):(.*)')",
        "return string.match('aXb', '%u')",
        "return string.match('a1_b2', '[%w_]+')",
        "return string.match('tab\there', '%c')=='\t' and 'tab' or 'no'",
        "return string.gsub('abc', '(a)(b)(c)', '%3%2%1')",
        "return select('#', string.gsub('abc', 'x', 'y'))",
        /* errors read the same as stock Lua's */
        "return string.find('a', '%')",
        "return string.find('a', '[a')",
        "return string.find('a', '(a')",
        "return string.find('a', 'a)')",
        "return string.gsub('a', 'a', '%2')",
        "return string.gsub('a', 'a', '%x')",
        "return string.match('a', '%f')",
        "return string.gsub('a', 'a', {a = {}})",
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char want[4096];
        const char *got;
        snprintf(want, sizeof want, "%s", stock_eval(cases[i]));
        got = sandbox_eval(cases[i], 1000);
        if (strcmp(got, want) != 0)
            fail_msg("%s\n  stock: %s\n  ours:  %s", cases[i], want, got);
    }
}

static void test_backtracking_stops_at_deadline(void **state)
{
    (void)state;
    struct timespec a, b;
    const char *r;
    double ms;

    /* exponential backtracking inside one C call: stock Lua spends ~40 s here */
    clock_gettime(CLOCK_MONOTONIC, &a);
    r = sandbox_eval("return string.find(('a'):rep(26), ('a?'):rep(26) .. ('a'):rep(26) .. 'b')",
                     200);
    clock_gettime(CLOCK_MONOTONIC, &b);
    ms = (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6;
    assert_non_null(strstr(r, "deadline"));
    assert_true(ms < 200 + 100);
}

static void test_nothing_dangerous_is_reachable(void **state)
{
    (void)state;
    static const char *const absent[] = {
        "os",      "io",        "package",     "debug",
        "require", "dofile",    "loadfile",    "collectgarbage",
        "warn",    "coroutine", "string.dump", "module",
    };
    for (size_t i = 0; i < sizeof absent / sizeof absent[0]; i++) {
        char code[128];
        snprintf(code, sizeof code, "return type(%s)", absent[i]);
        if (strcmp(sandbox_eval(code, 500), "nil") != 0)
            fail_msg("%s is reachable", absent[i]);
    }
    /* load: text only, and it sees the lesson's globals, never a real _G */
    assert_string_equal(sandbox_eval("return load('return os')()", 500), "nil");
    assert_string_equal(sandbox_eval("return tostring(load(string.char(27) .. 'Lua'))", 500),
                        "nil");
    assert_string_equal(sandbox_eval("x = 5 return load('return x')()", 500), "5");
    assert_string_equal(sandbox_eval("return load('return y', 'c', 't', {y = 7})()", 500), "7");
    /* print is silent */
    assert_string_equal(sandbox_eval("print(('A'):rep(100000)) return 'quiet'", 500), "quiet");
}

static void test_metatables_and_xpcall(void **state)
{
    (void)state;
    assert_non_null(strstr(sandbox_eval("setmetatable({}, {__gc = function() end})", 500),
                           "__gc metamethods are not allowed"));
    assert_string_equal(
        sandbox_eval("return getmetatable(setmetatable({}, {__index = {a = 1}})).__index.a", 500),
        "1");
    /* xpcall: false and the handler's value, as stock Lua */
    assert_string_equal(
        sandbox_eval("local ok, v = xpcall(error, function(e) return 'handled ' .. e end, 'x') "
                     "return tostring(ok) .. ' ' .. v",
                     500),
        "false handled x");
    assert_string_equal(
        sandbox_eval("local ok, a, b = xpcall(function(x) return x, x * 2 end, print, 21) "
                     "return tostring(ok) .. a .. b",
                     500),
        "true2142");
    /* a handler that never returns is bounded by the deadline like any code */
    assert_non_null(strstr(
        sandbox_eval("xpcall(function() error('e') end, function() while true do end end)", 200),
        "deadline"));
}

static void test_deadline_stays_armed(void **state)
{
    (void)state;
    /* catching the timeout error does not buy more time */
    assert_non_null(strstr(sandbox_eval("for i = 1, 5 do pcall(function() while true do end "
                                        "end) end return 'escaped'",
                                        200),
                           "deadline"));
    /* nor does catching it in an endless loop: the hook raises at the same
     * point of every round, inside the protected call (found by H34, H35) */
    assert_non_null(
        strstr(sandbox_eval("while true do pcall(function() while true do end end) end", 200),
               "deadline"));
    assert_non_null(strstr(sandbox_eval("while true do xpcall(function() while true do end end, "
                                        "function(e) return e end) end",
                                        200),
                           "deadline"));
    /* before the deadline pcall and xpcall catch errors as usual */
    assert_string_equal(
        sandbox_eval("local ok, e = pcall(error, 'x', 0) return tostring(ok) .. e", 200), "falsex");
    assert_string_equal(sandbox_eval("local ok, a, b = pcall(function() return 1, 2 end) "
                                     "return tostring(ok) .. a .. b",
                                     200),
                        "true12");
    /* error objects that are not strings never have their __tostring called */
    assert_string_equal(sandbox_eval("error(setmetatable({}, {__tostring = function() while "
                                     "true do end end}))",
                                     200),
                        "ERR: error object is a table value");
}

static volatile sig_atomic_t quitting;
static void on_alarm(int sig)
{
    (void)sig;
    quitting = 1;
}

/* The host's quit flag (Ctrl-C in the app) stops a lesson long before its
 * deadline: a plain loop, a loop that swallows the error, a backtracking
 * pattern. The deadline here is 5 s; the flag goes up after 100 ms. */
static void test_quit_flag_stops_running_code(void **state)
{
    static const char *const loops[] = {
        "while true do end",
        "while true do pcall(function() while true do end end) end",
        "return string.find(('a'):rep(30), ('a?'):rep(30) .. ('a'):rep(30) .. 'b')",
    };
    struct sigaction sa = {.sa_handler = on_alarm}, old;
    (void)state;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, &old); /* stays installed for every case */
    for (size_t i = 0; i < sizeof loops / sizeof loops[0]; i++) {
        lua_State *L = lx_sandbox_new(64u << 20);
        struct itimerval it = {.it_value = {.tv_usec = 100000}};
        struct timespec a, b;
        double ms;
        int rc;
        assert_non_null(L);
        quitting = 0;
        lx_ctx(L)->stop = &quitting;
        assert_int_equal(luaL_loadbufferx(L, loops[i], strlen(loops[i]), "=test", "t"), LUA_OK);
        clock_gettime(CLOCK_MONOTONIC, &a);
        setitimer(ITIMER_REAL, &it, NULL);
        rc = lx_pcall(L, 0, 0, 5000);
        clock_gettime(CLOCK_MONOTONIC, &b);
        ms = (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6;
        assert_int_not_equal(rc, LUA_OK);
        if (!strstr(lx_errmsg(L), "kvtutor is quitting") || ms > 2500)
            fail_msg("%s: \"%s\" after %.0f ms", loops[i], lx_errmsg(L), ms);
        lx_sandbox_close(L);
    }
    sigaction(SIGALRM, &old, NULL);
}

static void test_memory_cap(void **state)
{
    (void)state;
    assert_non_null(
        strstr(sandbox_eval("return #string.rep('x', 1e9)", 1000), "not enough memory"));
    assert_non_null(strstr(sandbox_eval("local t = {} for i = 1, 1e9 do t[i] = i end", 5000),
                           "not enough memory"));
    /* and the state is usable up to the cap: 8 MiB is fine */
    assert_string_equal(sandbox_eval("return #string.rep('x', 8 * 2^20)", 1000), "8388608");
}

static void test_states_are_isolated(void **state)
{
    (void)state;
    /* a lesson that patches the string metatable or globals changes only itself */
    sandbox_eval("getmetatable('').__index.upper = function() return 'pwned' end x = 1", 500);
    assert_string_equal(sandbox_eval("return ('x'):upper() .. tostring(x)", 500), "Xnil");
}

static void test_kv_module(void **state)
{
    (void)state;
    /* the seed figures from Lua: 57,344 B per token, 22 sequences of 8k in 10 GiB */
    assert_string_equal(
        sandbox_eval("return kv.calc{model = 'qwen2.5-7b'}.kv_bytes_per_token", 500), "57344");
    assert_string_equal(sandbox_eval("local r = kv.calc{model = 'qwen2.5-7b', seq = 8192, "
                                     "kv_budget_gib = 10} return r.max_concurrent_seqs",
                                     500),
                        "22");
    /* explicit fields override the preset: fp8 halves the cache */
    assert_string_equal(sandbox_eval("return kv.calc{model = 'qwen2.5-7b', kv_dtype = "
                                     "'fp8'}.kv_bytes_per_token",
                                     500),
                        "28672");
    /* figures whose inputs are missing are absent, not guessed */
    assert_string_equal(
        sandbox_eval("return tostring(kv.calc{model = 'qwen2.5-7b'}.num_gpu_blocks)", 500), "nil");
    assert_string_equal(sandbox_eval("return kv.model('llama-3.1-8b').kv_heads", 500), "8");
    assert_string_equal(sandbox_eval("return kv.gpu('h100').bandwidth_gbps", 500), "3352.0");
    assert_string_equal(sandbox_eval("return #kv.models()", 500), "25");
    /* an author's mistakes name the field */
    assert_non_null(
        strstr(sandbox_eval("return kv.calc{modle = 'x'}", 500), "unknown field 'modle'"));
    assert_non_null(strstr(sandbox_eval("return kv.calc{model = 'qwen2.5-7b', tp = 3}", 500),
                           "tp: tensor-parallel degree"));
    assert_non_null(strstr(sandbox_eval("return kv.calc{model = 'nope'}", 500), "no model preset"));
    assert_non_null(strstr(sandbox_eval("return kv.calc{layers = 'many'}", 500),
                           "layers must be a whole number"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_patterns_match_stock_lua),
        cmocka_unit_test(test_backtracking_stops_at_deadline),
        cmocka_unit_test(test_nothing_dangerous_is_reachable),
        cmocka_unit_test(test_metatables_and_xpcall),
        cmocka_unit_test(test_deadline_stays_armed),
        cmocka_unit_test(test_quit_flag_stops_running_code),
        cmocka_unit_test(test_memory_cap),
        cmocka_unit_test(test_states_are_isolated),
        cmocka_unit_test(test_kv_module),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
