/* The arena behind a lesson's strings, and the problem list a load fills. */
#include "lx_priv.h"

#include <stdlib.h>
#include <string.h>

#include "kvt_text.h"

struct lx_chunk {
    struct lx_chunk *next;
    size_t used, cap;
    max_align_t data[];
};

void *lx_arena_alloc(struct lx_arena *a, size_t n)
{
    struct lx_chunk *c = a->chunks;
    n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
    if (!c || c->cap - c->used < n) {
        size_t cap = n > 65536 ? n : 65536;
        c = malloc(sizeof *c + cap);
        if (!c) {
            a->failed = true;
            return NULL;
        }
        c->next = a->chunks;
        c->used = 0;
        c->cap = cap;
        a->chunks = c;
    }
    c->used += n;
    return (char *)c->data + c->used - n;
}

const char *lx_arena_str(struct lx_arena *a, const char *s, size_t len)
{
    char *d = lx_arena_alloc(a, len + 1);
    if (d) {
        memcpy(d, s, len);
        d[len] = '\0';
    }
    return d;
}

void lx_arena_free(struct lx_arena *a)
{
    while (a->chunks) {
        struct lx_chunk *next = a->chunks->next;
        free(a->chunks);
        a->chunks = next;
    }
}

void lx_report_add(struct lx_report *rep, int line, const char *msg)
{
    struct lx_problem *pr;
    if (rep->n == rep->cap) {
        size_t cap = rep->cap ? rep->cap * 2 : 8;
        void *n = realloc(rep->items, cap * sizeof *rep->items);
        if (!n) {
            rep->dropped++; /* the load fails all the same: lx_load checks */
            return;
        }
        rep->items = n;
        rep->cap = cap;
    }
    pr = &rep->items[rep->n++];
    pr->line = line;
    kvt_sanitize(msg, strlen(msg), pr->msg, sizeof pr->msg, 0);
}

void lx_report_free(struct lx_report *r)
{
    free(r->items);
    memset(r, 0, sizeof *r);
}
