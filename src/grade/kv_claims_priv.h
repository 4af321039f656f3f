/* kv_claims_priv.h: the parts of claim grading (kv_claims.h) that share its
 * state. kv_phrasings.c compiles an item's phrasings into token sequences
 * (with the glossary's rewrites and their reversals), kv_clauses.c cuts an
 * answer into clauses, kv_claims.c finds claims in them and grades,
 * kv_relations.c reads what an invariance clause says of a point, and
 * kv_shapes.c reads whole-clause shapes and quotes. Private to src/grade. */
#ifndef KV_CLAIMS_PRIV_H
#define KV_CLAIMS_PRIV_H

#include <stdbool.h>
#include <stddef.h>

#include "kv_claims.h"
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
    /* the glossary's terms by their first word, so that a phrasing is
     * rewritten only by groups that share a word with it (kv_phrasings.c) */
    struct kvc_gterm *gidx;
    size_t n_gidx;
    const struct set *gidx_of; /* the glossary gidx was built for, and its length */
    size_t gidx_groups;
};

/* ---- kv_phrasings.c ---- */

/* Does needle stand in hay at `at` (one slip of typing allowed in an
 * answer's word no phrasing uses; the last word a prefix when prefix)? */
bool kvc_seq_eq_at(const struct kv_tok *hay, size_t n_hay, size_t at, const struct kv_tok *needle,
                   size_t n, bool prefix);
/* Each phrasing of ph (and extra, when given), and each way the glossary
 * rewrites one term in it; prefix: a plain phrasing's last word may begin a
 * longer one. Out of memory sets c->oom. */
struct set kvc_compile(struct ctx *c, const struct kv_phrases *ph, const char *extra,
                       const struct set *gloss, size_t n_gloss, bool prefix);
/* The phrasings of s that hold no negation of their own. */
struct set kvc_positives(struct ctx *c, struct set s);
/* s with a direction ("rises"/"falls") or a bound ("memory"/"compute")
 * turned into its opposite. */
struct set kvc_said_reversed(struct ctx *c, struct set s);
/* s with its subject swapped ("prefill" for "decode", "TTFT" for "TPOT"). */
struct set kvc_subjects_swapped(struct ctx *c, struct set s);

/* ---- kv_clauses.c ---- */

/* The first place in [a, b) at or after `from` where one of s's phrasings
 * starts; its length in *len, the phrasing in *which (may be NULL).
 * SIZE_MAX when none. */
size_t kvc_find_in(const struct ctx *c, const struct kv_tok *ans, size_t a, size_t b, size_t from,
                   struct set s, size_t *len, const struct seq **which);
/* Does [a, b) hold one of the item's about phrasings? */
bool kvc_names_about(const struct ctx *c, const struct kv_tok *ans, size_t a, size_t b,
                     const struct set *abouts, size_t n_abouts);
/* Cuts the answer's n tokens into clauses (out holds at most n), each
 * marked when it is a keyword list; the count. */
size_t kvc_clauses(const struct ctx *c, const struct kv_tok *ans, size_t n, const struct set *about,
                   const struct set *said, size_t n_pairs, const struct set *abouts,
                   size_t n_abouts, struct clause *out);

/* ---- kv_relations.c ---- */

/* The point says something moves (grows, falls, caps, depends on, costs):
 * its text or a said phrasing; not one that itself says something stays put. */
bool kvc_point_moves(const struct ctx *c, const char *text, const struct words *pw,
                     struct set said);
/* One of about's phrasings stands in [seg, mk), before an invariance marker
 * at mk; near: only a measure of it and its verb between ("decode speed
 * stays the same"; a marker with no object speaks of the words right before
 * it). Its tokens into [*sa, *sb). */
bool kvc_subject_before(const struct ctx *c, const struct kv_tok *ans, size_t seg, size_t mk,
                        struct set about, bool near, size_t *sa, size_t *sb);
/* Tokens [o, e) share a content word with the point's text or said phrasings,
 * other than a word of the subject at [sa, sb). */
bool kvc_names_point(const struct ctx *c, const struct kv_tok *ans, size_t o, size_t e,
                     const struct words *pw, struct set said, size_t sa, size_t sb);

/* ---- kv_shapes.c ---- */

/* The clause is one of s's short phrasings, give or take "it is", "usually"
 * and "phase", or its head before a comma. */
bool kvc_short_in(const struct ctx *c, const struct kv_tok *ans, const struct clause *cl,
                  struct set s);
/* The answer's first clause opens with a word of the polarity ("No,", "Yes."). */
bool kvc_opens_with(const struct kv_tok *ans, const struct clause *first, enum kv_polarity pol);
/* The clause as the learner typed it, control bytes blanked, cut at cap with
 * "..." (never inside a UTF-8 character), without a leading conjunction. */
void kvc_quote(const char *typed, const struct kv_tok *ans, const struct clause *cl, char *out,
               size_t cap);

/* ---- kv_claims.c ---- */

/* An about and a said of the set in the clause, bound to each other; when
 * predicative, the said after the about ("decode memory-bound"). */
bool kvc_claim_at(const struct ctx *c, const struct kv_tok *ans, const struct clause *cl,
                  struct set about, struct set said, bool predicative);
/* The length of the longest phrasing of s that starts at token i of the
 * clause; 0 when none does. */
size_t kvc_len_at(const struct ctx *c, const struct kv_tok *ans, const struct clause *cl, size_t i,
                  struct set s);

#endif
