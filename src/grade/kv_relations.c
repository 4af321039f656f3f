/* What a clause says of a point's movement, for kv_claims.c: whether a
 * point says its subject moves, and whether an invariance clause ("TPOT
 * doesn't depend on batch size", kv_hedges_invariant) speaks of that subject
 * and of what the point names (docs/answers.md, "Invariance"). */
#include "kv_claims_priv.h"

#include <string.h>

/* Does the point say that something moves: grows, falls, caps, depends on,
 * costs (its text or a said phrasing)? An answer that says its subject
 * does not move contradicts it. A point that itself says something stays
 * put ("a fixed-size state", "the same bytes") does not move. */
bool kvc_point_moves(const struct ctx *c, const char *text, const struct words *pw, struct set said)
{
    struct kv_tok t[128];
    static const char *const moves[] = {
        "rises",   "grows",  "increases", "falls",    "shrinks",      "decreases", "scales",
        "depends", "drops",  "climbs",    "doubles",  "halves",       "slows",     "slower",
        "faster",  "longer", "shorter",   "higher",   "lower",        "larger",    "bigger",
        "smaller", "fewer",  "less",      "adds",     "raises",       "cuts",      "costs",
        "caps",    "limits", "linear",    "linearly", "proportional", "lengthens", NULL};
    static const char *const still[] = {"fixed",     "same",       "constant",
                                        "unchanged", "regardless", "independent",
                                        "whatever",  "flat",       NULL};
    bool moves_ = false;
    if (pw->neg || !text || strlen(text) + 4 > sizeof t / sizeof t[0])
        return false;
    /* the text's own words, stop words too: "the same bytes" says "same",
     * which the content words leave out */
    for (size_t i = 0, n = kv_words_tokenize(text, t, sizeof t / sizeof t[0]); i < n; i++)
        if (kv_words_in_stems(t[i].s, still))
            return false;
    for (size_t k = 0; k < pw->n; k++) /* the text's still words were looked for above */
        moves_ |= kv_words_in_stems(pw->s[k], moves);
    for (size_t k = 0; k < said.n; k++) {
        const struct seq *q = &c->seqs[said.first + k];
        for (size_t j = 0; j < q->n; j++) {
            if (kv_words_in_stems(c->pool[q->off + j].s, still))
                return false;
            moves_ |= kv_words_in_stems(c->pool[q->off + j].s, moves);
        }
    }
    return moves_;
}

/* Does one of the about phrasings stand in [seg, mk), before an invariance
 * marker at mk? Without an object ("stays the same", "is constant") the
 * marker speaks of the words right before it, so the about must end at most
 * three words before it: "decode speed stays the same", not "in decode the
 * weights read per step is constant". */
bool kvc_subject_before(const struct ctx *c, const struct kv_tok *ans, size_t seg, size_t mk,
                        struct set about, bool near, size_t *sa, size_t *sb)
{
    /* what may stand between a subject and its "stays the same": a measure of
     * it and the verb */
    static const char *const between[] = {
        "speed",  "time",    "times", "latency", "throughput", "rate", "is", "are", "stays", "stay",
        "remain", "remains", "still", "will",    "would",      "does", "do", "did", NULL};
    size_t len;
    for (size_t from = seg;;) {
        size_t at = kvc_find_in(c, ans, seg, mk, from, about, &len, NULL);
        if (at == SIZE_MAX)
            return false;
        bool close = true; /* "decode speed stays the same", not "decode's crossover stays" */
        for (size_t i = at + len; i < mk && close; i++)
            close = kv_words_in_stems(ans[i].s, between);
        if (!near || close) {
            *sa = at;
            *sb = at + len;
            return true;
        }
        from = at + 1;
    }
}

/* Do tokens [o, e) share a content word with the point's text or said
 * phrasings ("regardless of batch size" and "the SLO caps the batch"), other
 * than a word of the subject the clause named at [sa, sb) ("the KV cache grows
 * regardless of how the cache is laid out" says nothing of what it grows
 * with)? */
bool kvc_names_point(const struct ctx *c, const struct kv_tok *ans, size_t o, size_t e,
                     const struct words *pw, struct set said, size_t sa, size_t sb)
{
    static const char *const stop[] = {
        "the", "a",     "of",   "how",    "many", "much", "long", "what",  "is",      "are", "it",
        "its", "their", "size", "number", "with", "on",   "in",   "per",   "to",      "for", "from",
        "by",  "at",    "as",   "and",    "or",   "you",  "your", "start", "whether", NULL};
    for (size_t i = o; i < e; i++) {
        bool subject = false;
        if (kv_words_in_stems(ans[i].s, stop) || strlen(ans[i].s) < 2)
            continue;
        for (size_t k = sa; k < sb && !subject; k++)
            subject = strcmp(ans[i].s, ans[k].s) == 0;
        if (subject)
            continue;
        for (size_t k = 0; k < pw->n; k++)
            if (strcmp(ans[i].s, pw->s[k]) == 0)
                return true;
        for (size_t k = 0; k < said.n; k++) {
            const struct seq *q = &c->seqs[said.first + k];
            for (size_t j = 0; j < q->n; j++)
                if (strcmp(ans[i].s, c->pool[q->off + j].s) == 0)
                    return true;
        }
    }
    return false;
}
