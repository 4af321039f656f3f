/* lx_priv.h: what a loaded lesson keeps behind lx.h: its Lua state, the
 * options it was loaded with, and the arena its strings and arrays live in.
 * Private to the lx files. */
#ifndef LX_PRIV_H
#define LX_PRIV_H

#include <stdbool.h>
#include <stddef.h>

#include "lx.h"
#include "lx_state.h"

struct lx_chunk;

/* Memory freed all at once: the lesson's strings and arrays. */
struct lx_arena {
    struct lx_chunk *chunks;
    bool failed; /* an allocation was refused: the lesson is incomplete */
};

struct lx_priv {
    lua_State *L;
    struct lx_opts opts;
    struct lx_arena arena;
    int *fn_refs;    /* per exercise: the expected-value function, or LUA_NOREF */
    int *slip_refs;  /* per exercise: slips(p), or LUA_NOREF */
    bool brief;      /* a catalogue entry only (lx_brief.h): no state, no functions */
    void *brief_mem; /* a brief's arrays and strings, in one block */
};

/* n bytes aligned for any type, or NULL (and a->failed set). */
void *lx_arena_alloc(struct lx_arena *a, size_t n);

/* A copy of s[0..len) ending in '\0', or NULL (and a->failed set). */
const char *lx_arena_str(struct lx_arena *a, const char *s, size_t len);

void lx_arena_free(struct lx_arena *a);

/* luaL_loadbufferx(L, src, len, name, "t") for the course's own files
 * (lua/kvtutor.lua and the files beside it), compiled once a process and
 * shared by every state that loads the same bytes (lx_compiled.c). */
int lx_load_course_chunk(lua_State *L, const char *src, size_t len, const char *name);

/* Appends a problem, its message sanitised to one line. */
void lx_report_add(struct lx_report *r, int line, const char *msg);

#endif
