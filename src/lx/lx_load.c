/* Loading a lesson: read the file, run it in a fresh sandbox with the DSL,
 * hand the table it returns to the reader (lx_read.c), and draw every
 * computed exercise a few times so a lesson that cannot give its answer is
 * refused at load, not in front of the learner. */
#define _POSIX_C_SOURCE 200809L
#include "lx.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <lauxlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kvt_format.h"
#include "kvt_text.h"
#include "lx_brief.h"
#include "lx_read.h"
#include "lx_source.h"

#define LINT_DRAWS 8 /* seeds tried per parametric exercise when loading */

void lx_default_opts(struct lx_opts *o)
{
    *o = (struct lx_opts){.load_ms = 2000, .call_ms = 250, .mem_cap = 64u << 20};
}

/* Lessons run as the chunk "=lesson", so Lua's messages about them start
 * "lesson:12: " whatever the file's path (a long path would be shortened). */
#define CHUNK "lesson"

/* "lesson:12: message" from Lua: the line, and *msg moved past it; 0 and
 * *msg as it was when the message does not start so. */
static int split_line(const char **msg)
{
    size_t n = strlen(CHUNK);
    const char *m = *msg;
    if (strncmp(m, CHUNK, n) == 0 && m[n] == ':') {
        char *end;
        long v = strtol(m + n + 1, &end, 10);
        if (end != m + n + 1 && *end == ':' && v > 0 && v < 100000000) {
            m = end + 1;
            while (*m == ' ')
                m++;
            *msg = m;
            return (int)v;
        }
    }
    return 0;
}

/* A failed call into the lesson: the line Lua's message names, else the
 * lesson line that was running when it failed (a deadline, error(nil), an
 * error raised inside the DSL). */
static void lua_problem(lua_State *L, struct lx_report *rep, const char *msg)
{
    int line = split_line(&msg);
    if (!line && L)
        line = lx_ctx(L)->error_line;
    lx_report_add(rep, line, msg);
}

/* Reads the file whole, refusing what is not a regular text file of sane size. */
static char *read_file(const char *path, size_t *len, struct lx_report *rep)
{
    struct stat sb;
    char *buf = NULL, msg[200];
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);

    if (fd < 0) {
        snprintf(msg, sizeof msg, "cannot read: %s", strerror(errno));
        lx_report_add(rep, 0, msg);
        return NULL;
    }
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        lx_report_add(rep, 0, S_ISDIR(sb.st_mode) ? "is a folder" : "is not a regular file");
    } else if (sb.st_size > (off_t)LX_MAX_FILE) {
        snprintf(msg, sizeof msg, "%lld bytes: lessons are limited to %u KiB",
                 (long long)sb.st_size, LX_MAX_FILE / 1024);
        lx_report_add(rep, 0, msg);
    } else if ((buf = malloc((size_t)sb.st_size + 1)) != NULL) {
        ssize_t n = read(fd, buf, (size_t)sb.st_size);
        if (n != sb.st_size) {
            snprintf(msg, sizeof msg, "cannot read: %s", n < 0 ? strerror(errno) : "short read");
            lx_report_add(rep, 0, msg);
            free(buf);
            buf = NULL;
        } else {
            buf[n] = '\0';
            *len = (size_t)n;
        }
    }
    close(fd);
    return buf;
}

bool lx_peek_id(const char *path, char *out, size_t cap)
{
    struct lx_report ignored = {0};
    size_t len = 0;
    char *src = read_file(path, &len, &ignored);
    struct lx_source *s = src ? lx_source_scan(src, len) : NULL;
    bool found = s && lx_source_lesson_id(s, out, cap);

    lx_source_free(s);
    free(src);
    lx_report_free(&ignored);
    if (!found && cap)
        out[0] = '\0';
    return found;
}

#define GLOSSARY_KEY       "kvtutor.glossary"
#define MISCONCEPTIONS_KEY "kvtutor.misconceptions"

/* Runs lua/NAME, beside the DSL, and keeps what it returns in the registry
 * under key for the reader: the course's equivalent terms (glossary.lua)
 * and its course-wide wrong claims (misconceptions.lua), which every
 * lesson shares. */
static bool load_course_file(lua_State *L, const struct lx_opts *o, const char *name,
                             const char *what, const char *key,
                             bool (*check)(lua_State *, char *, size_t), struct lx_report *rep)
{
    char path[4200], msg[600], chunk[64];
    const char *slash = strrchr(o->dsl, '/');
    struct lx_report sub = {0};
    size_t len = 0;
    char *src;

    snprintf(path, sizeof path, "%.*s%s", slash ? (int)(slash - o->dsl + 1) : 0, o->dsl, name);
    if (!(src = read_file(path, &len, &sub))) {
        snprintf(msg, sizeof msg, "%s (lua/%s): %s", what, name,
                 sub.n ? sub.items[0].msg : "cannot be read");
        lx_report_add(rep, 0, msg);
        lx_report_free(&sub);
        return false;
    }
    snprintf(chunk, sizeof chunk, "=lua/%s", name);
    if (lx_load_course_chunk(L, src, len, chunk) != LUA_OK ||
        lx_pcall(L, 0, 1, o->load_ms) != LUA_OK) {
        snprintf(msg, sizeof msg, "%s failed: %s", what, lx_errmsg(L));
        lx_report_add(rep, 0, msg);
        free(src);
        return false;
    }
    free(src);
    if (check && !check(L, msg, sizeof msg)) {
        lx_report_add(rep, 0, msg);
        lua_pop(L, 1);
        return false;
    }
    lua_setfield(L, LUA_REGISTRYINDEX, key);
    return true;
}

/* lua/misconceptions.lua's shape, checked once here rather than once a
 * lesson: a list of misconception { about, said, why }, each list a
 * non-empty list of text. The value is on the stack's top. */
static bool course_misconceptions_ok(lua_State *L, char *msg, size_t cap)
{
    static const char *const lists[] = {"about", "said", NULL};
    size_t n;
    if (!lua_istable(L, -1)) {
        snprintf(msg, cap, "lua/misconceptions.lua: must return a list of misconception { ... }");
        return false;
    }
    n = lua_rawlen(L, -1);
    if (n > LX_MAX_COURSE_MISCONCEPTIONS) {
        snprintf(msg, cap, "lua/misconceptions.lua: %zu misconceptions; at most %d are checked", n,
                 LX_MAX_COURSE_MISCONCEPTIONS);
        return false;
    }
    for (size_t i = 1; i <= n; i++) {
        const char *kind, *bad = NULL;
        lua_rawgeti(L, -1, (lua_Integer)i);
        kind = lua_istable(L, -1) ? lx_kind_of(L, -1) : NULL;
        if (!kind || strcmp(kind, "misconception") != 0)
            bad = "must be misconception { ... }";
        for (size_t k = 0; !bad && lists[k]; k++) {
            lua_getfield(L, -1, lists[k]);
            if (!lua_istable(L, -1) || lua_rawlen(L, -1) == 0)
                bad = k == 0 ? "needs 'about' phrasings" : "needs 'said' phrasings";
            for (size_t j = 1; !bad && j <= lua_rawlen(L, -1); j++) {
                lua_rawgeti(L, -1, (lua_Integer)j);
                if (lua_type(L, -1) != LUA_TSTRING)
                    bad = "a phrasing is not text";
                lua_pop(L, 1);
            }
            lua_pop(L, 1);
        }
        if (!bad) {
            lua_getfield(L, -1, "why");
            if (lua_type(L, -1) != LUA_TSTRING)
                bad = "needs a 'why'";
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
        if (bad) {
            snprintf(msg, cap, "lua/misconceptions.lua: misconception %zu %s", i, bad);
            return false;
        }
    }
    return true;
}

/* Runs lua/kvtutor.lua in the fresh state, then lua/glossary.lua and
 * lua/misconceptions.lua (which uses the DSL's misconception { ... }). */
static bool load_dsl(lua_State *L, const struct lx_opts *o, struct lx_report *rep)
{
    size_t len = 0;
    struct lx_report sub = {0};
    char *src = o->dsl ? read_file(o->dsl, &len, &sub) : NULL;
    char msg[600];

    if (!src) {
        snprintf(msg, sizeof msg, "the lesson DSL (lua/kvtutor.lua) cannot be read%s%s",
                 sub.n ? ": " : "", sub.n ? sub.items[0].msg : "");
        lx_report_add(rep, 0, msg);
        lx_report_free(&sub);
        return false;
    }
    if (lx_load_course_chunk(L, src, len, "=kvtutor.lua") != LUA_OK ||
        lx_pcall(L, 0, 0, o->load_ms) != LUA_OK) {
        snprintf(msg, sizeof msg, "the lesson DSL failed: %s", lx_errmsg(L));
        lx_report_add(rep, 0, msg);
        free(src);
        return false;
    }
    free(src);
    return load_course_file(L, o, "glossary.lua", "the course glossary", GLOSSARY_KEY, NULL, rep) &&
           load_course_file(L, o, "misconceptions.lua", "the course misconceptions",
                            MISCONCEPTIONS_KEY, course_misconceptions_ok, rep);
}

void lx_free(struct lx_lesson *l)
{
    struct lx_priv *p;
    if (!l)
        return;
    p = l->priv;
    lx_sandbox_close(p->L);
    lx_arena_free(&p->arena);
    free(p->brief_mem);
    free(p->fn_refs);
    free(p->slip_refs);
    free(p);
    free(l);
}

/* Lint draws measured exercises with figures a real machine could give: a
 * 24 GB card's 900 of 1008 GB/s with 22 GiB free. */
static const struct lx_fact sample_facts[] = {
    {"read_gbps", 900.0},
    {"peak_gbps", 1008.0},
    {"free_gib", 22.0},
};
#define N_SAMPLE_FACTS (sizeof sample_facts / sizeof sample_facts[0])

static void check_draws(struct lx_reader *c)
{
    struct lx_lesson *l = c->l;
    for (size_t i = 0; i < l->n_exercises; i++) {
        struct lx_exercise *e = &l->exercises[i];
        int draws = e->n_params ? LINT_DRAWS : 1;
        char where[96];
        if (e->kind != LX_NUMERIC || e->has_value || c->p->fn_refs[i] == LUA_NOREF)
            continue;
        snprintf(where, sizeof where, "exercise '%.60s'", e->id ? e->id : "?");
        for (int s = 1; s <= draws; s++) {
            struct lx_draw d;
            char err[200], drawn[400];
            if (lx_draw_measured(l, i, (uint64_t)s, sample_facts, N_SAMPLE_FACTS, &d, err,
                                 sizeof err) != KVT_E_OK) {
                /* "lesson:14: msg" from inside the function: the fault is on
                 * line 14; else on the line of `expected =` */
                const char *msg = err;
                int line = split_line(&msg);
                lx_draw_params_text(&d, drawn, sizeof drawn);
                lx_problem(c,
                           line               ? line
                           : e->expected_line ? e->expected_line
                                              : e->line,
                           "%s: expected value%s%s: %s", where, drawn[0] ? " at " : "", drawn, msg);
                break;
            }
            if (!lx_value_ok(c, e, d.value, where, "the expected value"))
                break;
            if (!kvt_text_is_safe(d.worked, strlen(d.worked), KVT_KEEP_NEWLINES)) {
                lx_problem(c, e->expected_line ? e->expected_line : e->line,
                           "%s: the worked arithmetic expected(p) returns holds control, escape "
                           "or bidi characters a terminal would obey",
                           where);
                break;
            }
            if (d.worked[0] && !lx_worked_reaches(d.worked, d.value, lx_allowed(e, d.value))) {
                char v[48];
                kvt_fmt_number(d.value, 6, v, sizeof v);
                lx_draw_params_text(&d, drawn, sizeof drawn);
                lx_problem(c, e->expected_line ? e->expected_line : e->line,
                           "%s: the worked arithmetic%s%s never reaches the expected value, "
                           "%s %s",
                           where, drawn[0] ? " at " : "", drawn, v, e->unit ? e->unit : "");
                break;
            }
        }
    }
}

/* Runs in a protected call: (ctx, lesson table). */
static int extract(lua_State *L)
{
    struct lx_reader *c = lua_touserdata(L, 1);
    const char *kind = lua_type(L, 2) == LUA_TTABLE ? lx_kind_of(L, 2) : NULL;
    struct lx_misconception *course;
    size_t n_course = 0;

    if (!kind || strcmp(kind, "lesson") != 0) {
        lx_report_add(c->rep, lx_source_return_line(c->src),
                      "the file must end with: return lesson { ... }");
        return 0;
    }
    lua_getfield(L, LUA_REGISTRYINDEX, GLOSSARY_KEY);
    lx_read_glossary(c, -1, "lua/glossary.lua", 0);
    lua_pop(L, 1);
    /* read as a lesson's misconceptions = { ... } are, with their checks */
    lua_createtable(L, 0, 1);
    lua_getfield(L, LUA_REGISTRYINDEX, MISCONCEPTIONS_KEY);
    lua_setfield(L, -2, "misconceptions");
    course = lx_read_misconceptions(c, -1, &n_course, "lua/misconceptions.lua", 0,
                                    LX_MAX_COURSE_MISCONCEPTIONS);
    lua_pop(L, 1);
    lx_read_lesson(c, 2);
    lx_read_course_misconceptions(c, course, n_course);
    return 0;
}

enum kvt_err lx_load(const char *path, const struct lx_opts *opts, struct lx_lesson **out,
                     struct lx_report *report)
{
    struct lx_lesson *l = calloc(1, sizeof *l);
    struct lx_priv *p = calloc(1, sizeof *p);
    struct lx_reader c = {.l = l, .p = p, .rep = report};
    struct lx_source *source = NULL;
    char chunk[4104];
    size_t len = 0;
    char *src;

    *out = NULL;
    if (!l || !p) {
        free(l);
        free(p);
        lx_report_add(report, 0, "out of memory");
        return KVT_E_NOMEM;
    }
    l->priv = p;
    p->opts = *opts;
    l->path = lx_arena_str(&p->arena, path, strlen(path));
    if (!(src = read_file(path, &len, report))) {
        lx_free(l);
        return KVT_E_IO;
    }
    lx_hash_bytes(src, len, l->hash); /* what a brief of it is checked against */
    p->L = c.L = lx_sandbox_new(opts->mem_cap);
    if (c.L)
        lx_ctx(c.L)->stop = opts->stop;
    if (!p->L) {
        lx_report_add(report, 0, "not enough memory for a lesson sandbox");
        free(src);
        lx_free(l);
        return KVT_E_NOMEM;
    }
    snprintf(chunk, sizeof chunk, "=%s", CHUNK);
    snprintf(lx_ctx(c.L)->chunkname, sizeof lx_ctx(c.L)->chunkname, "%s", chunk);
    if (!load_dsl(c.L, opts, report)) {
        free(src);
        lx_free(l);
        return KVT_E_IO;
    }
    /* text only: a compiled chunk is refused before it can run */
    if (luaL_loadbufferx(c.L, src, len, chunk, "t") != LUA_OK) {
        lua_problem(NULL, report, lx_errmsg(c.L));
        free(src);
        lx_free(l);
        return KVT_E_PARSE;
    }
    if (lx_pcall(c.L, 0, 1, opts->load_ms) != LUA_OK) {
        lua_problem(c.L, report, lx_errmsg(c.L));
        free(src);
        lx_free(l);
        return KVT_E_PARSE;
    }
    /* the source says where fields are; without memory for it, problems
     * point at their tables */
    source = lx_source_scan(src, len); /* points into src: both kept until read */
    c.src = source;
    /* reading the tables can run out of memory or meet a metamethod: do it
     * inside a protected call, under the load deadline too */
    lua_pushcfunction(c.L, extract);
    lua_pushlightuserdata(c.L, &c);
    lua_pushvalue(c.L, -3);
    if (lx_pcall(c.L, 2, 0, opts->load_ms) != LUA_OK)
        lua_problem(c.L, report, lx_errmsg(c.L));
    lua_settop(c.L, 0);
    lx_source_free(source);
    free(src);
    free(c.bound);
    c.src = NULL;
    c.bound = NULL;
    if (p->arena.failed || report->dropped) {
        lx_report_add(report, 0, "out of memory");
        lx_free(l);
        return KVT_E_NOMEM;
    }
    if (report->n == 0)
        check_draws(&c);
    if (report->n > 0 || report->dropped) {
        lx_free(l);
        if (report->dropped)
            return KVT_E_NOMEM;
        return KVT_E_PARSE;
    }
    *out = l;
    return KVT_E_OK;
}
