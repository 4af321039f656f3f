#include "kv_claims.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kv_hedges.h"
#include "kv_words.h"

struct seq {
    size_t off, n; /* tokens in the pool */
    bool neg;      /* the phrasing holds its own negation: matched as written */
    bool prefix;   /* a plain phrasing: its last word may begin a longer one ("quantiz") */
};

struct set {
    size_t first, n; /* seqs */
};

struct ctx {
    struct kv_tok *pool;
    size_t n_pool, cap_pool;
    struct seq *seqs;
    size_t n_seqs, cap_seqs;
    bool oom;
    const struct kv_verbs *verbs;
    const struct set *abouts; /* every about set of the item */
    size_t n_abouts;
};

/* ---- phrasings ---- */

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
static bool seq_eq_at(const struct kv_tok *hay, size_t n_hay, size_t at,
                      const struct kv_tok *needle, size_t n, bool prefix)
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

/* Each phrasing, and each way the glossary rewrites one term in it. */
static struct set compile(struct ctx *c, const struct kv_phrases *ph, const char *extra,
                          const struct set *gloss, size_t n_gloss, bool prefix)
{
    struct set out = {c->n_seqs, 0};
    struct kv_tok t[PHRASE_TOKS], v[PHRASE_TOKS * 2];
    size_t total = (ph ? ph->n : 0) + (extra != NULL);

    for (size_t i = 0; i < total; i++) {
        const char *p = i < (ph ? ph->n : 0) ? ph->v[i] : extra;
        size_t n, variants = 0;
        if (!p || strlen(p) + 4 > PHRASE_TOKS)
            continue;
        n = kv_words_tokenize(p, t, PHRASE_TOKS);
        if (n == 0)
            continue;
        seq_add(c, t, n);
        for (size_t g = 0; g < n_gloss && variants < MAX_VARIANTS; g++) {
            for (size_t a = 0; a < gloss[g].n; a++) {
                /* seq_add may move the seqs and the pool: keep numbers, not pointers */
                size_t at = SIZE_MAX, tn = c->seqs[gloss[g].first + a].n;
                size_t toff = c->seqs[gloss[g].first + a].off;
                for (size_t k = 0; k + tn <= n && at == SIZE_MAX; k++)
                    if (seq_eq_at(t, n, k, c->pool + toff, tn, false))
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
static struct set positives(struct ctx *c, struct set s)
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
static struct set said_reversed(struct ctx *c, struct set s)
{
    struct set out = reversals(c, s, &directions);
    struct set more = reversals(c, s, &bounds);
    /* consecutive: the second set starts where the first ends */
    out.n += more.n;
    return out;
}

/* ---- clauses ---- */

/* The first place in [a, b) at or after `from` where one of the set's
 * phrasings starts; its length in *len. SIZE_MAX when none. */
static size_t find_in(const struct ctx *c, const struct kv_tok *ans, size_t a, size_t b,
                      size_t from, struct set s, size_t *len, const struct seq **which)
{
    for (size_t i = from < a ? a : from; i < b; i++)
        for (size_t k = 0; k < s.n; k++) {
            const struct seq *q = &c->seqs[s.first + k];
            if (i + q->n <= b && seq_eq_at(ans, b, i, c->pool + q->off, q->n, q->prefix)) {
                *len = q->n;
                if (which)
                    *which = q;
                return i;
            }
        }
    return SIZE_MAX;
}

static bool names_about(const struct ctx *c, const struct kv_tok *ans, size_t a, size_t b,
                        const struct set *abouts, size_t n_abouts)
{
    size_t len;
    for (size_t k = 0; k < n_abouts; k++)
        if (find_in(c, ans, a, b, a, abouts[k], &len, NULL) != SIZE_MAX)
            return true;
    return false;
}

/* Does an about phrasing run across token `at` ("keys and values", "prefill
 * and decode phases"): then "and" there joins words of one term, not two
 * clauses. */
static bool spans(const struct ctx *c, const struct kv_tok *ans, size_t a, size_t b, size_t at,
                  const struct set *abouts, size_t n_abouts)
{
    for (size_t k = 0; k < n_abouts; k++)
        for (size_t i = a; i < at; i++)
            for (size_t q = 0; q < abouts[k].n; q++) {
                const struct seq *s = &c->seqs[abouts[k].first + q];
                if (i + s->n > at && i + s->n <= b &&
                    seq_eq_at(ans, b, i, c->pool + s->off, s->n, s->prefix))
                    return true;
            }
    return false;
}

/* Is [a, b) only what the item is about, with a preposition or two: a label
 * like "Decode:" that the words after it complete? */
static bool only_about(const struct ctx *c, const struct kv_tok *ans, size_t a, size_t b,
                       const struct set *abouts, size_t n_abouts)
{
    static const char *const glue[] = {"for", "in", "during", "on", "with", "at", NULL};
    size_t i = a;
    bool any = false;
    while (i < b) {
        size_t best = 0, len;
        if (kv_words_in_stems(ans[i].s, glue)) {
            i++;
            continue;
        }
        for (size_t k = 0; k < n_abouts; k++)
            if (find_in(c, ans, i, b, i, abouts[k], &len, NULL) == i && len > best)
                best = len;
        if (best == 0)
            return false;
        any = true;
        i += best;
    }
    return any;
}

static bool claim_at(const struct ctx *c, const struct kv_tok *ans, const struct clause *cl,
                     struct set about, struct set said, bool predicative);

/* "fp8, scales, calibration, outliers": a comma list is a keyword list
 * unless it is a list of terse claims ("decode memory-bound, prefill
 * compute-bound, weights shared"): two of its items or more each hold an
 * about and then a said of one point or misconception. One such item among
 * topics ("TPOT average") is a noun phrase, not a claim, and so is an item
 * whose said comes before its about ("fixed state", "784-token blocks"): a
 * word before its noun describes it, it does not claim. */
#define LIST_ITEMS 64
static bool topic_list(const struct ctx *c, const struct kv_tok *ans, size_t a, size_t b,
                       const struct set *about, const struct set *said, size_t n_pairs)
{
    size_t ends[LIST_ITEMS], from = a, n = 0, claims = 0;
    if (!kv_words_comma_list(ans, a, b, ends, LIST_ITEMS))
        return false;
    while (n < LIST_ITEMS && from < b) {
        struct clause item = {from, ends[n], false};
        for (size_t k = 0; k < n_pairs; k++)
            if (about[k].n && said[k].n && claim_at(c, ans, &item, about[k], said[k], true)) {
                claims++;
                break;
            }
        from = ends[n++];
    }
    return claims < 2;
}

static size_t len_at(const struct ctx *c, const struct kv_tok *ans, const struct clause *cl,
                     size_t i, struct set s);

/* Does [a, b) pair an about with its said, predicatively, for some point or
 * misconception? */
static bool pairs_in(const struct ctx *c, const struct kv_tok *ans, size_t a, size_t b,
                     const struct set *about, const struct set *said, size_t n_pairs)
{
    struct clause whole = {a, b, false};
    size_t subjects = 0;
    /* "prefill decode memory-bound KV cache": a run of several subjects is
     * a list of topics, whatever pairs it happens to hold */
    for (size_t i = a; i < b;) {
        size_t best = 0, len;
        for (size_t k = 0; k < c->n_abouts; k++)
            if (find_in(c, ans, i, b, i, c->abouts[k], &len, NULL) == i && len > best)
                best = len;
        subjects += best > 0;
        i += best ? best : 1;
    }
    if (subjects != 1)
        return false;
    for (size_t k = 0; k < n_pairs; k++) {
        size_t end = 0, tail = 0;
        if (!about[k].n || !said[k].n || !claim_at(c, ans, &whole, about[k], said[k], true))
            continue;
        /* the claim ends at its said: a run of nouns after it ("compute-bound
         * bandwidth FLOPs tensor cores") is topics again */
        for (size_t i = a; i < b; i++) {
            size_t len = len_at(c, ans, &whole, i, said[k]);
            if (len && i + len > end)
                end = i + len;
        }
        for (size_t i = end; i < b; i++)
            tail += ans[i].word && !kv_words_has_digit(ans[i].s);
        if (tail <= 3)
            return true;
    }
    return false;
}

static size_t clauses(const struct ctx *c, const struct kv_tok *ans, size_t n,
                      const struct set *about, const struct set *said, size_t n_pairs,
                      const struct set *abouts, size_t n_abouts, struct clause *out)
{
    size_t n_out = 0, a = 0;

    while (a < n) {
        size_t b = a + 1;
        while (b < n && ans[b].brk < KV_BRK_HARD)
            b++;
        /* "Decode: memory-bound": the label joins what follows it */
        while (b < n && ans[b].brk == KV_BRK_LABEL && only_about(c, ans, a, b, abouts, n_abouts)) {
            b++;
            while (b < n && ans[b].brk < KV_BRK_HARD)
                b++;
        }
        /* soft breaks: before a conjunction or at a comma, when what follows names an about;
         * a sentence that is a keyword list makes lists of all its clauses */
        {
            size_t start = a, cut = a, first = n_out;
            /* a sentence without a verb that pairs what a point or misconception
             * is about with what it says ("weights fixed, KV per token") is a
             * terse claim, not a list */
            bool list = (kv_words_keyword_list(c->verbs, ans, a, b) &&
                         !pairs_in(c, ans, a, b, about, said, n_pairs)) ||
                        topic_list(c, ans, a, b, about, said, n_pairs);
            for (size_t i = a + 1; i <= b; i++) {
                /* the "and" of "keys and values" joins one term: no place to cut, and
                 * the stretch before it runs on to the next place */
                bool cand = i < b && (ans[i].brk == KV_BRK_COMMA ||
                                      (kv_words_in_stems(ans[i].s, kv_words_conjunctions) &&
                                       !spans(c, ans, a, b, i, abouts, n_abouts)));
                if (!cand && i < b)
                    continue;
                /* [cut, i) is the stretch after the last candidate */
                /* "prefill and decode are both memory-bound": an "and"/"or" after
                 * nothing but a subject joins two subjects of one claim */
                bool subjects = (strcmp(ans[cut].s, "and") == 0 || strcmp(ans[cut].s, "or") == 0) &&
                                ans[cut].brk != KV_BRK_COMMA &&
                                only_about(c, ans, start, cut, abouts, n_abouts);
                if (cut > start && !subjects && !spans(c, ans, start, b, cut, abouts, n_abouts) &&
                    names_about(c, ans, cut, i, abouts, n_abouts)) {
                    out[n_out++] = (struct clause){start, cut, false};
                    start = cut;
                }
                cut = i;
            }
            out[n_out++] = (struct clause){start, b, false};
            for (size_t i = first; i < n_out; i++)
                out[i].list = list || (kv_words_keyword_list(c->verbs, ans, out[i].a, out[i].b) &&
                                       !pairs_in(c, ans, out[i].a, out[i].b, about, said, n_pairs));
        }
        a = b;
    }
    return n_out;
}

/* Is the phrasing found at `at` negated in its clause: a negator at most
 * NEG_REACH tokens before it ("is not at all memory-bound", "neither prefill
 * nor decode is"), with no "but", "so" or "because" between ("not
 * compute-bound but memory-bound")? Further back, a negator is about something else ("with
 * no margin a server can run out of memory"). */
#define NEG_REACH 4
static bool negated_at(const struct kv_tok *ans, size_t a, size_t at)
{
    /* "but", "rather" turn the claim round; "so", "because", "since",
     * "hence", "therefore" start another ("it isn't counted, so you OOM") */
    static const char *const unneg[] = {"but",   "rather",    "so",    "because",
                                        "since", "therefore", "hence", NULL};
    bool neg = false;
    for (size_t i = at > a + NEG_REACH ? at - NEG_REACH : a; i < at; i++) {
        if (ans[i].neg)
            neg = true;
        else if (kv_words_in_stems(ans[i].s, unneg) && !(i > a && ans[i - 1].neg))
            neg = false; /* "not because ..." denies the reason */
    }
    return neg;
}

static bool denied_at(const struct kv_tok *ans, size_t a, size_t at);

/* A phrasing of the set stands in the clause and is not negated there. */
static bool said_in(const struct ctx *c, const struct kv_tok *ans, const struct clause *cl,
                    struct set s)
{
    for (size_t i = cl->a; i < cl->b; i++)
        for (size_t k = 0; k < s.n; k++) {
            const struct seq *q = &c->seqs[s.first + k];
            if (i + q->n > cl->b || !seq_eq_at(ans, cl->b, i, c->pool + q->off, q->n, q->prefix))
                continue;
            if (q->neg || !negated_at(ans, cl->a, i))
                return true;
        }
    return false;
}

/* The length of the longest phrasing of one's set that starts at token i of
 * the clause; 0 when none does. */
static size_t len_at(const struct ctx *c, const struct kv_tok *ans, const struct clause *cl,
                     size_t i, struct set s)
{
    size_t best = 0;
    for (size_t k = 0; k < s.n; k++) {
        const struct seq *q = &c->seqs[s.first + k];
        if (q->n > best && i + q->n <= cl->b &&
            seq_eq_at(ans, cl->b, i, c->pool + q->off, q->n, q->prefix))
            best = q->n;
    }
    return best;
}

/* Does another subject than `own` start at token i: a phrasing of what some
 * point or misconception is about that `own` does not name there? Its
 * length, 0 when none. */
static size_t other_subject_at(const struct ctx *c, const struct kv_tok *ans,
                               const struct clause *cl, size_t i, struct set own)
{
    size_t best = 0;
    if (i >= cl->b || len_at(c, ans, cl, i, own))
        return 0;
    for (size_t k = 0; k < c->n_abouts; k++) {
        size_t n = len_at(c, ans, cl, i, c->abouts[k]);
        best = n > best ? n : best;
    }
    return best;
}

/* Is the said phrasing at [s, e) bound to another subject than the about at
 * `at`? "the bandwidth-bound decodes": a word that is not a verb, right
 * before another subject, describes that subject (unless the subject holds
 * the about: "fp8 KV cache" is said of "cache"). "A query is used once
 * ... over the earlier keys and values": a said phrasing after another
 * subject and its verb speaks of that subject, not of a subject
 * named later (one right after it is its noun: "4-bit weights plus an fp8
 * KV cache"). */
static bool bound_elsewhere(const struct ctx *c, const struct kv_tok *ans, const struct clause *cl,
                            size_t s, size_t e, size_t at, struct set own)
{
    if (!kv_words_is_verb(c->verbs, ans[e - 1].s)) {
        size_t n = other_subject_at(c, ans, cl, e, own);
        if (n && !(at >= e && at < e + n))
            return true;
    }
    if (at > e)
        for (size_t j = cl->a; j < s; j++) {
            size_t n = other_subject_at(c, ans, cl, j, own);
            for (size_t v = j + n; n && v < s; v++)
                if (kv_words_is_verb(c->verbs, ans[v].s))
                    return true;
        }
    return false;
}

/* An about and a said of the set in the clause, bound to each other; when
 * predicative, the said after the about ("decode memory-bound"). */
static bool claim_at(const struct ctx *c, const struct kv_tok *ans, const struct clause *cl,
                     struct set about, struct set said, bool predicative)
{
    size_t len;
    for (size_t from = cl->a;;) {
        size_t at = find_in(c, ans, cl->a, cl->b, from, about, &len, NULL);
        if (at == SIZE_MAX)
            return false;
        for (size_t i = cl->a; i < cl->b; i++)
            for (size_t k = 0; k < said.n; k++) {
                const struct seq *q = &c->seqs[said.first + k];
                if (i + q->n > cl->b ||
                    !seq_eq_at(ans, cl->b, i, c->pool + q->off, q->n, q->prefix))
                    continue;
                if (i < at + len && i + q->n > at)
                    continue; /* the same words cannot be both the subject and the claim */
                if (predicative && i < at + len)
                    continue;
                if (!q->neg && negated_at(ans, cl->a, i))
                    continue;
                if (bound_elsewhere(c, ans, cl, i, i + q->n, at, about))
                    continue;
                return true;
            }
        from = at + 1;
    }
}

static bool claim_in(const struct ctx *c, const struct kv_tok *ans, const struct clause *cl,
                     struct set about, struct set said)
{
    return claim_at(c, ans, cl, about, said, false);
}

/* A contradiction needs a plain denial: "not", "no", "never", "neither" or
 * "nor" at most four words before the phrasing, with no "but", "so" or "because" between.
 * "Without chunking, ..." describes the other case; it denies nothing. */
static bool denied_at(const struct kv_tok *ans, size_t a, size_t at)
{
    static const char *const deny[] = {"not", "no", "never", "neither", "nor", NULL};
    if (!negated_at(ans, a, at))
        return false;
    for (size_t i = at > a + NEG_REACH ? at - NEG_REACH : a; i < at; i++)
        if (ans[i].neg && kv_words_in(ans[i].s, deny))
            return true;
    return false;
}

/* The point's claim, negated: an about and a said bound to each other with
 * a negator before the said ("decode is not memory-bound"). A said that
 * holds its own negation is never read as negated. */
static bool claim_negated(const struct ctx *c, const struct kv_tok *ans, const struct clause *cl,
                          struct set about, struct set said)
{
    size_t len;
    for (size_t from = cl->a;;) {
        size_t at = find_in(c, ans, cl->a, cl->b, from, about, &len, NULL);
        if (at == SIZE_MAX)
            return false;
        for (size_t i = cl->a; i < cl->b; i++)
            for (size_t k = 0; k < said.n; k++) {
                const struct seq *q = &c->seqs[said.first + k];
                if (q->neg || i + q->n > cl->b ||
                    !seq_eq_at(ans, cl->b, i, c->pool + q->off, q->n, q->prefix))
                    continue;
                if (i < at + len && i + q->n > at)
                    continue;
                if (!denied_at(ans, cl->a, i) ||
                    bound_elsewhere(c, ans, cl, i, i + q->n, at, about))
                    continue;
                /* the negator must not sit inside the about ("no-copy sharing") */
                bool neg_in_about = false;
                for (size_t j = at; j < at + len; j++)
                    neg_in_about |= ans[j].neg;
                if (!neg_in_about)
                    return true;
            }
        from = at + 1;
    }
}

/* Does the clause say what another point than `own` says ("the step is
 * memory-bound" is one point's claim at batch 1 and the reversal of
 * another's at batch 256)? Then a reversal read in it is ambiguous. */
static bool other_said(const struct ctx *c, const struct kv_tok *ans, const struct clause *cl,
                       const struct set *said, size_t n_pts, size_t own)
{
    for (size_t j = 0; j < n_pts; j++)
        if (j != own && said[j].n && said_in(c, ans, cl, said[j]))
            return true;
    return false;
}

/* "Decode isn't compute-bound; it's memory-bound": a clause that opens with
 * a pronoun and names no subject of its own speaks of the one before. */
static bool pronoun_claim(const struct ctx *c, const struct kv_tok *ans, const struct clause *prev,
                          const struct clause *cl, struct set about, struct set said,
                          const struct set *abouts, size_t n_abouts)
{
    static const char *const pronouns[] = {"it", "they", "this", "that", "which", NULL};
    size_t len, a = cl->a;
    while (a < cl->b && kv_words_in_stems(ans[a].s, kv_words_conjunctions))
        a++;
    if (!prev || a >= cl->b || !kv_words_in_stems(ans[a].s, pronouns) ||
        names_about(c, ans, cl->a, cl->b, abouts, n_abouts))
        return false;
    return find_in(c, ans, prev->a, prev->b, prev->a, about, &len, NULL) != SIZE_MAX &&
           said_in(c, ans, cl, said);
}

/* The clause is the short phrasing, give or take "it is", "usually" and
 * "phase". */
static bool short_in(const struct ctx *c, const struct kv_tok *ans, const struct clause *cl,
                     struct set s)
{
    static const char *const lead[] = {
        "it",      "is",        "that",       "this",        "its",    "answer",
        "only",    "just",      "definitely", "clearly",     "mostly", "well",
        "usually", "probably",  "basically",  "essentially", "simply", "largely",
        "mainly",  "primarily", "typically",  "generally",   NULL};
    static const char *const trail[] = {"phase", "stage", "step", "side", "one", NULL};
    size_t a = cl->a, b = cl->b;

    while (a < b && kv_words_in_stems(ans[a].s, lead))
        a++;
    while (b > a && kv_words_in_stems(ans[b - 1].s, trail))
        b--;
    for (size_t k = 0; k < s.n; k++) {
        const struct seq *q = &c->seqs[s.first + k];
        if (q->n > b - a || !seq_eq_at(ans, b, a, c->pool + q->off, q->n, false))
            continue;
        /* the whole clause, or its head before a comma: "Both, when the cache
         * dominates"; "No, both double" (the words after are graded as usual) */
        if (q->n == b - a || (cl->a == a && ans[a + q->n].brk == KV_BRK_COMMA))
            return true;
    }
    return false;
}

/* Does the answer open with a word of the polarity, alone or before a comma
 * or the end of its clause: "No, both double", "Hardly - prefill is
 * compute-bound", "Yes." The first clause only: a "no" later on answers
 * something else. */
static bool opens_with(const struct kv_tok *ans, const struct clause *first, enum kv_polarity pol)
{
    static const char *const yes[] = {"yes",        "yep",     "yeah",    "indeed", "definitely",
                                      "absolutely", "sure",    "it does", "it can", "they can",
                                      "you can",    "correct", NULL};
    static const char *const no[] = {"no",         "nope",      "not really", "hardly",
                                     "barely",     "not much",  "not at all", "it does not",
                                     "it doesn't", "not quite", "little",     NULL};
    struct kv_tok t[8];
    for (const char *const *w = pol == KV_POLARITY_YES ? yes : no; *w; w++) {
        size_t n = kv_words_tokenize(*w, t, sizeof t / sizeof t[0]), at = first->a + n;
        bool same = n > 0 && at <= first->b;
        for (size_t k = 0; same && k < n; k++)
            same = strcmp(ans[first->a + k].s, t[k].s) == 0;
        if (same && (at == first->b || ans[at].brk == KV_BRK_COMMA))
            return true;
    }
    return false;
}

static void quote(const char *typed, const struct kv_tok *ans, const struct clause *cl, char *out,
                  size_t cap)
{
    /* "and decode is compute-bound" is quoted as "decode is compute-bound" */
    size_t first = cl->a + 1 < cl->b && kv_words_in_stems(ans[cl->a].s, kv_words_conjunctions)
                       ? cl->a + 1
                       : cl->a;
    size_t from = ans[first].start, to = ans[cl->b - 1].end, o = 0;
    bool cut = false;
    if (to - from > cap - 4) {
        to = from + cap - 4;
        while (to > from && ((unsigned char)typed[to] & 0xC0) == 0x80)
            to--; /* not inside a UTF-8 character */
        cut = true;
    }
    for (size_t i = from; i < to; i++) {
        unsigned char ch = (unsigned char)typed[i];
        out[o++] = ch < 0x20 || ch == 0x7F ? ' ' : (char)ch;
    }
    if (cut) {
        memcpy(out + o, "...", 3);
        o += 3;
    }
    out[o] = '\0';
}

bool kv_claims_is_verb(const char *word)
{
    struct kv_verbs v;
    char w[KV_STEM_MAX];
    size_t i;
    for (i = 0; word[i] && i + 1 < sizeof w; i++)
        w[i] = (char)(word[i] >= 'A' && word[i] <= 'Z' ? word[i] - 'A' + 'a' : word[i]);
    w[i] = '\0';
    kv_words_stem(w);
    kv_words_verbs(&v);
    return kv_words_is_verb(&v, w);
}

void kv_claims_grade(const struct kv_text_item *item, const char *typed, struct kv_text_result *r)
{
    struct ctx c = {0};
    size_t n_pts = item->n_points < KV_MAX_POINTS ? item->n_points : KV_MAX_POINTS;
    size_t n_mis = item->n_mis < KV_MAX_MISCONCEPTIONS ? item->n_mis : KV_MAX_MISCONCEPTIONS;
    size_t len = typed ? strlen(typed) : 0, n_ans, n_cl, n_gloss = 0, n_abouts = 0;
    struct set *gloss = NULL, *abouts = NULL, *accept = NULL, *about = NULL, *said = NULL,
               *shorts = NULL;
    struct kv_tok *ans = NULL;
    struct clause *cl = NULL;
    struct kv_verbs verbs;
    bool rule[KV_MAX_POINTS];
    struct set said_pos[KV_MAX_POINTS], said_rev[KV_MAX_POINTS], about_rev[KV_MAX_POINTS];
    struct words pw[KV_MAX_POINTS];

    memset(r, 0, sizeof *r);
    r->verdict = KV_INVALID;
    if (len > KV_TEXT_MAX) {
        snprintf(r->why, sizeof r->why,
                 "the answer is %zu bytes; answers are graded whole up to %d KiB: shorten it", len,
                 KV_TEXT_MAX / 1024);
        return;
    }
    kv_words_verbs(&verbs);
    c.verbs = &verbs;

    ans = malloc((len + 4) * sizeof *ans);
    cl = malloc((len + 4) * sizeof *cl);
    if (item->glossary && item->glossary->n)
        gloss = calloc(item->glossary->n, sizeof *gloss);
    abouts = calloc(n_pts + n_mis + 1, sizeof *abouts);
    accept = calloc(n_pts + 1, sizeof *accept);
    about = calloc(n_pts + n_mis + 1, sizeof *about);
    said = calloc(n_pts + n_mis + 1, sizeof *said);
    shorts = calloc(n_pts + 1, sizeof *shorts);
    if (!ans || !cl || !abouts || !accept || !about || !said || !shorts ||
        (item->glossary && item->glossary->n && !gloss)) {
        snprintf(r->why, sizeof r->why, "out of memory grading the answer");
        goto done;
    }
    n_ans = kv_words_tokenize(typed ? typed : "", ans, len + 4);
    /* "No, decode is..." and "Yes." answer the question: they negate nothing */
    for (size_t i = 0; i < n_ans; i++)
        if ((strcmp(ans[i].s, "no") == 0 || strcmp(ans[i].s, "yes") == 0) &&
            (i == 0 || ans[i].brk >= KV_BRK_COMMA) &&
            (i + 1 == n_ans || ans[i + 1].brk >= KV_BRK_COMMA))
            ans[i].neg = false;
    if (n_ans == 0) {
        snprintf(r->why, sizeof r->why, "no answer: write what you would say");
        goto done;
    }

    for (size_t g = 0; item->glossary && g < item->glossary->n; g++)
        gloss[n_gloss++] = compile(&c, &item->glossary->groups[g], NULL, NULL, 0, false);
    for (size_t i = 0; i < n_pts; i++) {
        const struct kv_point *p = &item->points[i];
        bool claim = p->about.n && p->said.n;
        accept[i] = compile(&c, &p->accept, claim ? NULL : p->text, gloss, n_gloss, true);
        about[i] = compile(&c, &p->about, NULL, gloss, n_gloss, false);
        said[i] = compile(&c, &p->said, NULL, gloss, n_gloss, false);
        shorts[i] = compile(&c, &p->shorts, NULL, gloss, n_gloss, false);
        said_pos[i] = positives(&c, said[i]);
        said_rev[i] = said_reversed(&c, said[i]);
        about_rev[i] = reversals(&c, about[i], &swaps);
        if (about[i].n)
            abouts[n_abouts++] = about[i];
    }
    for (size_t m = 0; m < n_mis; m++) {
        about[n_pts + m] = compile(&c, &item->mis[m].about, NULL, gloss, n_gloss, false);
        said[n_pts + m] = compile(&c, &item->mis[m].said, NULL, gloss, n_gloss, false);
        if (about[n_pts + m].n)
            abouts[n_abouts++] = about[n_pts + m];
    }
    if (c.oom) {
        snprintf(r->why, sizeof r->why, "out of memory grading the answer");
        goto done;
    }
    /* a word of the phrasings is meant as written: only others may be slips */
    for (size_t i = 0; i < n_ans; i++) {
        bool known = ans[i].neg;
        for (size_t k = 0; k < c.n_pool && !known; k++)
            known = strcmp(ans[i].s, c.pool[k].s) == 0;
        ans[i].typo_ok = !known;
    }
    c.abouts = abouts;
    c.n_abouts = n_abouts;
    n_cl = clauses(&c, ans, n_ans, about, said, n_pts + n_mis, abouts, n_abouts, cl);

    for (size_t i = 0; i < n_pts; i++) {
        rule[i] = kv_hedges_rule(item->points[i].text);
        kv_hedges_words(item->points[i].text, &pw[i]);
    }
    r->no_claim = n_cl > 0;
    for (size_t k = 0; k < n_cl; k++) {
        const struct clause *prev = k > 0 && !cl[k - 1].list ? &cl[k - 1] : NULL;
        bool hedge;
        if (cl[k].list) {
            r->list = true;
            continue; /* a list says nothing of anything */
        }
        hedge = kv_hedges_hedge(ans, &cl[k]);
        r->hedged |= hedge;
        size_t before = r->n_found + r->n_contra, covered_before = 0;
        for (size_t i = 0; i < n_pts; i++)
            covered_before += r->covered[i];
        before += covered_before;
        for (size_t i = 0; i < n_pts; i++) {
            const struct kv_point *p = &item->points[i];
            bool hit;
            if (r->covered[i] || r->contradicted[i])
                continue;
            if ((p->about.n && p->said.n && !rule[i] && kv_hedges_asserts(ans, &cl[k], false) &&
                 claim_negated(&c, ans, &cl[k], about[i], said[i])) ||
                (said_pos[i].n && kv_hedges_asserts(ans, &cl[k], true) &&
                 claim_in(&c, ans, &cl[k], about[i], said_pos[i])) ||

                (k == 0 && p->polarity != KV_POLARITY_NONE &&
                 opens_with(ans, &cl[k],
                            p->polarity == KV_POLARITY_YES ? KV_POLARITY_NO : KV_POLARITY_YES))) {
                r->contradicted[i] = true;
                r->n_contra++;
                quote(typed, ans, &cl[k], r->contra_quote[i], sizeof r->contra_quote[i]);
                continue;
            }
            if (hedge)
                continue; /* "it depends" covers nothing */
            if (p->about.n && p->said.n)
                hit = claim_in(&c, ans, &cl[k], about[i], said[i]) ||
                      (accept[i].n && said_in(&c, ans, &cl[k], accept[i])) ||
                      pronoun_claim(&c, ans, prev, &cl[k], about[i], said[i], abouts, n_abouts) ||
                      (shorts[i].n && short_in(&c, ans, &cl[k], shorts[i]));
            else
                hit = said_in(&c, ans, &cl[k], accept[i]) ||
                      (shorts[i].n && short_in(&c, ans, &cl[k], shorts[i]));
            hit = hit || (k == 0 && p->polarity != KV_POLARITY_NONE &&
                          opens_with(ans, &cl[k], p->polarity));
            hit = hit || kv_hedges_words_in(ans, &cl[k], &pw[i]);
            if (hit) {
                r->covered[i] = true;
                quote(typed, ans, &cl[k], r->quote[i], sizeof r->quote[i]);
            }
        }
        for (size_t m = 0; m < n_mis; m++) {
            if (r->found[m] || !about[n_pts + m].n || !said[n_pts + m].n)
                continue;
            if (claim_in(&c, ans, &cl[k], about[n_pts + m], said[n_pts + m]) ||
                pronoun_claim(&c, ans, prev, &cl[k], about[n_pts + m], said[n_pts + m], abouts,
                              n_abouts)) {
                r->found[m] = true;
                r->n_found++;
                quote(typed, ans, &cl[k], r->mis_quote[m], sizeof r->mis_quote[m]);
            }
        }
        {
            /* a clause that covered nothing and turns a point's direction round
             * ("TTFT goes down" where TTFT rises) contradicts it */
            size_t now = 0;
            for (size_t i = 0; i < n_pts; i++)
                now += r->covered[i];
            for (size_t i = 0;
                 i < n_pts && now == covered_before && kv_hedges_asserts(ans, &cl[k], false); i++)
                if (!r->covered[i] && !r->contradicted[i] && !rule[i] &&
                    !other_said(&c, ans, &cl[k], said, n_pts, i) &&
                    ((said_rev[i].n && claim_in(&c, ans, &cl[k], about[i], said_rev[i])) ||
                     (about_rev[i].n && claim_in(&c, ans, &cl[k], about_rev[i], said[i]) &&
                      !claim_in(&c, ans, &cl[k], about[i], said[i])))) {
                    r->contradicted[i] = true;
                    r->n_contra++;
                    quote(typed, ans, &cl[k], r->contra_quote[i], sizeof r->contra_quote[i]);
                }
        }
        {
            /* "depending on the setup", "maybe": vague words in a clause that
             * said nothing a point or misconception knows are a hedge too */
            size_t after = r->n_found + r->n_contra;
            for (size_t i = 0; i < n_pts; i++)
                after += r->covered[i];
            if (!hedge && after == before && kv_hedges_vague(ans, &cl[k])) {
                hedge = true;
                r->hedged = true;
            }
            r->no_claim &= hedge;
        }
    }
    for (size_t i = 0; i < n_pts; i++) {
        if (r->contradicted[i] && r->covered[i]) {
            r->covered[i] = false; /* a point said and unsaid is not covered */
            r->quote[i][0] = '\0';
        }
        r->total += item->points[i].weight;
        r->got += r->covered[i] ? item->points[i].weight : 0;
    }
    r->score = r->total > 0 ? r->got / r->total : 0;
    if ((r->n_found || r->n_contra) && r->score >= KV_TEXT_PASS)
        r->score = KV_TEXT_PASS - 0.01;
    /* wrong only on evidence; a pass with none is correct; the rest the
     * learner checks */
    if (r->n_found || r->n_contra || (r->no_claim && r->got == 0))
        r->verdict = KV_WRONG;
    else if (r->score >= KV_TEXT_PASS)
        r->verdict = KV_CORRECT;
    else
        r->verdict = KV_UNSURE;
done:
    free(ans);
    free(cl);
    free(gloss);
    free(abouts);
    free(accept);
    free(about);
    free(said);
    free(shorts);
    free(c.pool);
    free(c.seqs);
}
