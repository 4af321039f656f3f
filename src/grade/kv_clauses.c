/* kv_clauses.c: an answer cut into clauses, the unit a claim is looked for
 * in (kv_claims.h says where a clause ends; kv_claims_priv.h). */
#include "kv_claims_priv.h"

#include <stdint.h>
#include <string.h>

/* The first place in [a, b) at or after `from` where one of the set's
 * phrasings starts; its length in *len. SIZE_MAX when none. */
size_t kvc_find_in(const struct ctx *c, const struct kv_tok *ans, size_t a, size_t b, size_t from,
                   struct set s, size_t *len, const struct seq **which)
{
    for (size_t i = from < a ? a : from; i < b; i++)
        for (size_t k = 0; k < s.n; k++) {
            const struct seq *q = &c->seqs[s.first + k];
            if (i + q->n <= b && kvc_seq_eq_at(ans, b, i, c->pool + q->off, q->n, q->prefix)) {
                *len = q->n;
                if (which)
                    *which = q;
                return i;
            }
        }
    return SIZE_MAX;
}

bool kvc_names_about(const struct ctx *c, const struct kv_tok *ans, size_t a, size_t b,
                     const struct set *abouts, size_t n_abouts)
{
    size_t len;
    for (size_t k = 0; k < n_abouts; k++)
        if (kvc_find_in(c, ans, a, b, a, abouts[k], &len, NULL) != SIZE_MAX)
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
                    kvc_seq_eq_at(ans, b, i, c->pool + s->off, s->n, s->prefix))
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
            if (kvc_find_in(c, ans, i, b, i, abouts[k], &len, NULL) == i && len > best)
                best = len;
        if (best == 0)
            return false;
        any = true;
        i += best;
    }
    return any;
}

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
            if (about[k].n && said[k].n && kvc_claim_at(c, ans, &item, about[k], said[k], true)) {
                claims++;
                break;
            }
        from = ends[n++];
    }
    return claims < 2;
}

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
            if (kvc_find_in(c, ans, i, b, i, c->abouts[k], &len, NULL) == i && len > best)
                best = len;
        subjects += best > 0;
        i += best ? best : 1;
    }
    if (subjects != 1)
        return false;
    for (size_t k = 0; k < n_pairs; k++) {
        size_t end = 0, tail = 0;
        if (!about[k].n || !said[k].n || !kvc_claim_at(c, ans, &whole, about[k], said[k], true))
            continue;
        /* the claim ends at its said: a run of nouns after it ("compute-bound
         * bandwidth FLOPs tensor cores") is topics again */
        for (size_t i = a; i < b; i++) {
            size_t len = kvc_len_at(c, ans, &whole, i, said[k]);
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

size_t kvc_clauses(const struct ctx *c, const struct kv_tok *ans, size_t n, const struct set *about,
                   const struct set *said, size_t n_pairs, const struct set *abouts,
                   size_t n_abouts, struct clause *out)
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
                    kvc_names_about(c, ans, cut, i, abouts, n_abouts)) {
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
