/* The course files every lesson's sandbox runs first (lua/kvtutor.lua,
 * glossary.lua, misconceptions.lua), compiled once a process.
 *
 * Each lesson gets a fresh Lua state, so opening a course of a hundred
 * files used to parse those ~30 KB of shared text a hundred times: about a
 * fifth of a cold start's CPU. The first state to load a file keeps its
 * compiled form (lua_dump, debug information kept, so messages still name
 * lines); a later state given the same bytes under the same chunk name
 * loads that instead, which the same Lua release reads back exactly. The
 * text is still read each time and compared by its hash and length, so an
 * edited DSL is compiled afresh. Loader threads share the cache under one
 * lock. Lesson files never come here: a lesson is text only, and compiled
 * chunks from outside are refused. */
#include <lauxlib.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lx_brief.h"
#include "lx_priv.h"

#define SLOTS 8 /* three files today; an edited one takes a new slot */

static struct compiled {
    char name[64];
    char hash[17];
    size_t len;
    char *code;
    size_t code_len;
} slots[SLOTS];
static size_t next_slot; /* round robin once full */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

struct dump {
    char *p;
    size_t n, cap;
    bool failed;
};

static int dump_write(lua_State *L, const void *p, size_t n, void *ud)
{
    struct dump *d = ud;
    (void)L;
    if (d->n + n > d->cap) {
        size_t cap = d->cap ? d->cap : 4096;
        char *q;
        while (cap < d->n + n)
            cap *= 2;
        if (!(q = realloc(d->p, cap))) {
            d->failed = true;
            return 1;
        }
        d->p = q;
        d->cap = cap;
    }
    memcpy(d->p + d->n, p, n);
    d->n += n;
    return 0;
}

static struct compiled *find(const char *name, const char *hash, size_t len)
{
    for (size_t i = 0; i < SLOTS; i++)
        if (slots[i].code && slots[i].len == len && strcmp(slots[i].name, name) == 0 &&
            strcmp(slots[i].hash, hash) == 0)
            return &slots[i];
    return NULL;
}

int lx_load_course_chunk(lua_State *L, const char *src, size_t len, const char *name)
{
    char hash[17];
    struct compiled *c;
    struct dump d = {0};
    int rc;

    lx_hash_bytes(src, len, hash);
    pthread_mutex_lock(&lock);
    c = strlen(name) < sizeof c->name ? find(name, hash, len) : NULL;
    if (c) {
        rc = luaL_loadbufferx(L, c->code, c->code_len, name, "b");
        pthread_mutex_unlock(&lock);
        return rc;
    }
    pthread_mutex_unlock(&lock);

    if ((rc = luaL_loadbufferx(L, src, len, name, "t")) != LUA_OK || strlen(name) >= sizeof c->name)
        return rc;
    /* keep it for the next state; without memory for that, only this one compiled it */
    if (lua_dump(L, dump_write, &d, 0) != 0 || d.failed) {
        free(d.p);
        return LUA_OK;
    }
    pthread_mutex_lock(&lock);
    if (find(name, hash, len)) { /* another thread got there first */
        free(d.p);
    } else {
        c = &slots[next_slot];
        next_slot = (next_slot + 1) % SLOTS;
        free(c->code);
        snprintf(c->name, sizeof c->name, "%s", name);
        memcpy(c->hash, hash, sizeof c->hash);
        c->len = len;
        c->code = d.p;
        c->code_len = d.n;
    }
    pthread_mutex_unlock(&lock);
    return LUA_OK;
}
