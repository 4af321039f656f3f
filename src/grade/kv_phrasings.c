/* kv_phrasings.c: an item's phrasings as token sequences, with the
 * glossary's rewrites and the reversals a wrong answer in the right words
 * makes (kv_claims_priv.h). */
#include "kv_claims_priv.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t pool_add(struct ctx *c, const struct kv_tok *t, size_t n)
{
    size_t off = c->n_pool;
    if (c->n_pool + n > c->cap_pool) {
        size_t cap = (c->cap_pool ? c->cap_pool * 2 : 256) + n;
        struct kv_tok *p = realloc(c->pool, cap * sizeof *p);
        if (!p) {
            c->oom = true;
            return SIZE_MAX;
        }
        c->pool = p;
        c->cap_pool = cap;
    }
    memcpy(c->pool + c->n_pool, t, n * sizeof *t);
    c->n_pool += n;
    return off;
}

static void seq_add(struct ctx *c, const struct kv_tok *t, size_t n)
{
    size_t off;
    bool neg = false;
    if (n == 0 || c->oom)
        return;
    if (c->n_seqs == c->cap_seqs) {
        size_t cap = c->cap_seqs ? c->cap_seqs * 2 : 64;
        struct seq *s = realloc(c->seqs, cap * sizeof *s);
        if (!s) {
            c->oom = true;
            return;
        }
        c->seqs = s;
        c->cap_seqs = cap;
    }
    off = pool_add(c, t, n);
    if (off == SIZE_MAX)
        return;
    for (size_t i = 0; i < n; i++)
        neg |= t[i].neg;
    c->seqs[c->n_seqs++] = (struct seq){off, n, neg, false};
}

/* Does needle stand in hay at `at`? An answer's word that is no word of the
 * item's phrasings may differ from the phrasing's by one slip of typing
 * ("memroy bound"); phrasings among themselves compare exactly. */
bool kvc_seq_eq_at(const struct kv_tok *hay, size_t n_hay, size_t at, const struct kv_tok *needle,
                   size_t n, bool prefix)
{
    if (at + n > n_hay)
        return false;
    for (size_t k = 0; k < n; k++) {
        const struct kv_tok *h = &hay[at + k];
        if (prefix && k + 1 == n) {
            if (strncmp(h->s, needle[k].s, strlen(needle[k].s)) != 0 &&
                !(h->typo_ok && kv_words_typo(h->s, needle[k].s)))
                return false;
        } else if (strcmp(h->s, needle[k].s) != 0 &&
                   !(h->typo_ok && !needle[k].neg && kv_words_typo(h->s, needle[k].s))) {
            return false;
        }
    }
    return true;
}

#define PHRASE_TOKS  96
#define MAX_VARIANTS 48
#define MAX_GROUPS   512 /* the glossary groups the index marks; more: every group is tried */

/* Phrasings tokenized once a process. The course's phrasings are the same
 * text at every grading (a question's own and the course-wide ones), and
 * tokenizing them was most of an answer's cost. Keyed by content, not
 * address: a hit compares the whole text, so a lesson reloaded with other
 * text at the same address is read afresh. Kept for
 * the process's life (still reachable at exit), and locked: graders may run
 * on any thread. */
#define TOK_CACHE 8192 /* entries, a power of two */
#define TOK_PROBE 8
static struct tok_entry {
    char *text;
    struct kv_tok *toks;
    size_t n;
} tok_cache[TOK_CACHE];
static pthread_mutex_t tok_lock = PTHREAD_MUTEX_INITIALIZER;

static size_t tokenize_cached(const char *p, struct kv_tok *t, size_t cap)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    struct tok_entry *slot = NULL;
    size_t n;
    for (const unsigned char *q = (const unsigned char *)p; *q; q++)
        h = (h ^ *q) * 1099511628211ull;
    pthread_mutex_lock(&tok_lock);
    for (size_t k = 0; k < TOK_PROBE; k++) {
        struct tok_entry *e = &tok_cache[(h + k) & (TOK_CACHE - 1)];
        if (!e->text) {
            slot = e;
            break;
        }
        if (strcmp(e->text, p) == 0 && e->n <= cap) {
            memcpy(t, e->toks, e->n * sizeof *t);
            n = e->n;
            pthread_mutex_unlock(&tok_lock);
            return n;
        }
    }
    n = kv_words_tokenize(p, t, cap);
    if (slot && n > 0 && n < cap) { /* a result cut short at cap is not kept */
        size_t len = strlen(p) + 1;
        char *text = malloc(len);
        struct kv_tok *toks = malloc(n * sizeof *toks);
        if (text && toks) {
            memcpy(text, p, len);
            memcpy(toks, t, n * sizeof *toks);
            *slot = (struct tok_entry){text, toks, n};
        } else {
            free(text);
            free(toks);
        }
    }
    pthread_mutex_unlock(&tok_lock);
    return n;
}

struct kvc_gterm {
    char s[KV_STEM_MAX]; /* the term's first word */
    size_t g;            /* its group */
};

static int cmp_gterm(const void *x, const void *y)
{
    const struct kvc_gterm *a = x, *b = y;
    int d = strcmp(a->s, b->s);
    return d ? d : (a->g > b->g) - (a->g < b->g);
}

/* Builds c->gidx for the glossary: one entry a term, by its first word. */
static void build_gidx(struct ctx *c, const struct set *gloss, size_t n_gloss)
{
    size_t n = 0;
    free(c->gidx);
    c->gidx = NULL;
    c->n_gidx = 0;
    c->gidx_of = gloss;
    c->gidx_groups = n_gloss;
    for (size_t g = 0; g < n_gloss; g++)
        n += gloss[g].n;
    if (n == 0 || !(c->gidx = malloc(n * sizeof *c->gidx))) {
        c->oom |= n != 0;
        return;
    }
    for (size_t g = 0; g < n_gloss; g++)
        for (size_t a = 0; a < gloss[g].n; a++) {
            const struct seq *q = &c->seqs[gloss[g].first + a];
            if (q->n == 0)
                continue;
            snprintf(c->gidx[c->n_gidx].s, sizeof c->gidx[c->n_gidx].s, "%s", c->pool[q->off].s);
            c->gidx[c->n_gidx++].g = g;
        }
    qsort(c->gidx, c->n_gidx, sizeof *c->gidx, cmp_gterm);
}

/* Marks in mark[] each group with a term whose first word is one of t's. */
static void groups_sharing_a_word(const struct ctx *c, const struct kv_tok *t, size_t n, bool *mark)
{
    for (size_t k = 0; k < n; k++) {
        size_t lo = 0, hi = c->n_gidx;
        while (lo < hi) { /* the first entry not below t[k]'s word */
            size_t mid = lo + (hi - lo) / 2;
            if (strcmp(c->gidx[mid].s, t[k].s) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        for (; lo < c->n_gidx && strcmp(c->gidx[lo].s, t[k].s) == 0; lo++)
            mark[c->gidx[lo].g] = true;
    }
}

/* Each phrasing, and each way the glossary rewrites one term in it. */
struct set kvc_compile(struct ctx *c, const struct kv_phrases *ph, const char *extra,
                       const struct set *gloss, size_t n_gloss, bool prefix)
{
    struct set out = {c->n_seqs, 0};
    struct kv_tok t[PHRASE_TOKS], v[PHRASE_TOKS * 2];
    size_t total = (ph ? ph->n : 0) + (extra != NULL);
    bool mark[MAX_GROUPS], indexed;

    for (size_t i = 0; i < total; i++) {
        const char *p = i < (ph ? ph->n : 0) ? ph->v[i] : extra;
        size_t n, variants = 0;
        if (!p || strlen(p) + 4 > PHRASE_TOKS)
            continue;
        n = tokenize_cached(p, t, PHRASE_TOKS);
        if (n == 0)
            continue;
        seq_add(c, t, n);
        indexed = n_gloss > 0 && n_gloss <= MAX_GROUPS;
        if (indexed) {
            if (c->gidx_of != gloss || c->gidx_groups != n_gloss)
                build_gidx(c, gloss, n_gloss);
            memset(mark, 0, n_gloss * sizeof *mark);
            groups_sharing_a_word(c, t, n, mark);
        }
        for (size_t g = 0; g < n_gloss && variants < MAX_VARIANTS; g++) {
            if (indexed && !mark[g])
                continue; /* no term of it can stand in t: none starts with t's words */
            for (size_t a = 0; a < gloss[g].n; a++) {
                /* seq_add may move the seqs and the pool: keep numbers, not pointers */
                size_t at = SIZE_MAX, tn = c->seqs[gloss[g].first + a].n;
                size_t toff = c->seqs[gloss[g].first + a].off;
                for (size_t k = 0; k + tn <= n && at == SIZE_MAX; k++)
                    if (kvc_seq_eq_at(t, n, k, c->pool + toff, tn, false))
                        at = k;
                if (at == SIZE_MAX)
                    continue;
                for (size_t b = 0; b < gloss[g].n && variants < MAX_VARIANTS; b++) {
                    const struct seq *alt = &c->seqs[gloss[g].first + b];
                    size_t m = 0;
                    if (b == a || n - tn + alt->n > PHRASE_TOKS * 2)
                        continue;
                    memcpy(v, t, at * sizeof *t);
                    m = at;
                    memcpy(v + m, c->pool + alt->off, alt->n * sizeof *v);
                    m += alt->n;
                    memcpy(v + m, t + at + tn, (n - at - tn) * sizeof *t);
                    m += n - at - tn;
                    seq_add(c, v, m);
                    variants++;
                }
                break; /* one term of a group per phrasing */
            }
        }
    }
    out.n = c->n_seqs - out.first;
    for (size_t i = out.first; i < c->n_seqs; i++)
        c->seqs[i].prefix = prefix;
    return out;
}

/* The phrasings of s that hold their own negation ("not divisible by 8"),
 * each without its negators ("divisible by 8"): what an answer that
 * reverses the point says. */
struct set kvc_positives(struct ctx *c, struct set s)
{
    struct set out = {c->n_seqs, 0};
    struct kv_tok t[PHRASE_TOKS];
    for (size_t k = 0; k < s.n && !c->oom; k++) {
        const struct seq q = c->seqs[s.first + k]; /* a copy: seq_add may move them */
        size_t m = 0;
        if (!q.neg || q.n > PHRASE_TOKS)
            continue;
        for (size_t i = 0; i < q.n; i++)
            if (!c->pool[q.off + i].neg)
                t[m++] = c->pool[q.off + i];
        /* "not the cap" leaves "cap": too little to be a claim of its own */
        if (m >= 2)
            seq_add(c, t, m);
    }
    out.n = c->n_seqs - out.first;
    return out;
}

/* Opposites, one word each: a point that says "falls" is reversed by an
 * answer that says "rises" of the same subject, "memory-bound" by
 * "compute-bound"; and subjects swapped ("prefill" for "decode", "TTFT"
 * for "TPOT"), the classic wrong answer in the right words. a[i] and b[i]
 * are opposites; with bound, only before a joined "bound". */
struct opposites {
    const char *const *a, *const *b;
    bool bound;
};
static const char *const ups[] = {"rises",  "grows",   "increases", "up",     "higher",
                                  "larger", "longer",  "faster",    "bigger", "more",
                                  "fewer",  "cheaper", NULL};
static const char *const downs[] = {"falls",   "shrinks",  "decreases", "down",    "lower",
                                    "smaller", "shorter",  "slower",    "smaller", "fewer",
                                    "more",    "costlier", NULL};
static const char *const mem[] = {"memory", "compute", NULL};
static const char *const cmp[] = {"compute", "memory", NULL};
static const char *const subj_a[] = {"prefill", "decode", "ttft", "tpot", NULL};
static const char *const subj_b[] = {"decode", "prefill", "tpot", "ttft", NULL};
static const struct opposites directions = {ups, downs, false};
static const struct opposites bounds = {mem, cmp, true};
static const struct opposites swaps = {subj_a, subj_b, false};

/* The phrasings of s with one word turned into its opposite ("ITL falls"
 * -> "ITL rises"). */
static struct set reversals(struct ctx *c, struct set s, const struct opposites *op)
{
    struct set out = {c->n_seqs, 0};
    struct kv_tok t[PHRASE_TOKS], w[4];
    char a[16][KV_STEM_MAX], b[16][KV_STEM_MAX];
    size_t n = 0;
    for (; op->a[n] && n < 16; n++) {
        kv_words_tokenize(op->a[n], w, 4);
        snprintf(a[n], KV_STEM_MAX, "%s", w[0].s);
        kv_words_tokenize(op->b[n], w, 4);
        snprintf(b[n], KV_STEM_MAX, "%s", w[0].s);
    }
    for (size_t k = 0; k < s.n && !c->oom; k++) {
        const struct seq q = c->seqs[s.first + k];
        if (q.n > PHRASE_TOKS || out.n >= 32)
            continue;
        for (size_t i = 0; i < q.n; i++) {
            const char *from = c->pool[q.off + i].s, *to = NULL;
            if (op->bound && !(i + 1 < q.n && c->pool[q.off + i + 1].joined &&
                               strcmp(c->pool[q.off + i + 1].s, "bound") == 0))
                continue;
            for (size_t d = 0; d < n && !to; d++)
                if (strcmp(from, a[d]) == 0)
                    to = b[d];
            if (!to)
                continue;
            memcpy(t, c->pool + q.off, q.n * sizeof *t);
            snprintf(t[i].s, KV_STEM_MAX, "%s", to);
            seq_add(c, t, q.n);
            out.n = c->n_seqs - out.first;
            break;
        }
    }
    out.n = c->n_seqs - out.first;
    return out;
}

/* The said phrasings turned round, direction and bound both, in one set. */
struct set kvc_said_reversed(struct ctx *c, struct set s)
{
    struct set out = reversals(c, s, &directions);
    struct set more = reversals(c, s, &bounds);
    /* consecutive: the second set starts where the first ends */
    out.n += more.n;
    return out;
}

struct set kvc_subjects_swapped(struct ctx *c, struct set s)
{
    return reversals(c, s, &swaps);
}
