/* Whole-clause shapes for kv_claims.c: a short phrasing that is the whole
 * clause ("Decode."), an answer that opens with yes or no, and the learner's
 * clause quoted beside a point. */
#include "kv_claims_priv.h"

#include <string.h>

/* The clause is the short phrasing, give or take "it is", "usually" and
 * "phase". */
bool kvc_short_in(const struct ctx *c, const struct kv_tok *ans, const struct clause *cl,
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
        if (q->n > b - a || !kvc_seq_eq_at(ans, b, a, c->pool + q->off, q->n, false))
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
bool kvc_opens_with(const struct kv_tok *ans, const struct clause *first, enum kv_polarity pol)
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

void kvc_quote(const char *typed, const struct kv_tok *ans, const struct clause *cl, char *out,
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
