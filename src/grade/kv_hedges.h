/* kv_hedges.h: what the claim grader (kv_claims.c) reads from a clause
 * besides the item's phrasings. Private to src/grade.
 *
 * A hedge ("it depends", "various factors", "no idea") covers no point; a
 * clause that supposes ("if", "whether") states no fact; a point worded as
 * a rule or a denial ("must divide", "no headroom") is not read as
 * contradicted by a case it rules out; a point's own content words, in any
 * order, state it (docs/answers.md, "Terse claims"). */
#ifndef KV_HEDGES_H
#define KV_HEDGES_H

#include <stdbool.h>
#include <stddef.h>

#include "kv_words.h"

/* A clause of an answer: tokens [a, b). */
struct clause {
    size_t a, b; /* tokens [a, b) */
    bool list;   /* a keyword list */
};

#define WORDS_MAX 24
struct words {
    char s[WORDS_MAX][KV_STEM_MAX];
    size_t n;
    bool neg; /* the point's text denies something ("is not counted") */
};

/* The point's text is a rule or a denial: "must", "only if", "not". */
bool kv_hedges_rule(const char *text);
/* The clause asserts: no supposition in it; with deny, no denial either
 * ("not", "instead of", "bypassing"). */
bool kv_hedges_asserts(const struct kv_tok *ans, const struct clause *cl, bool deny);
/* The content words of a point's text, and whether it denies something. */
void kv_hedges_words(const char *text, struct words *w);
/* The clause holds three in four of them (of four or more), with a denial
 * exactly where the text has one. */
bool kv_hedges_words_in(const struct kv_tok *ans, const struct clause *cl, const struct words *w);
/* Vague words ("depending on the setup", "maybe"): a hedge when the clause
 * said nothing else a point or misconception knows. SOFT words ("might",
 * "perhaps") may qualify a claim the rubric does not know; OPEN ones
 * ("it depends on the setup", "sometimes", "you'd have to measure it")
 * leave the question open. */
enum { KV_VAGUE_NONE, KV_VAGUE_SOFT, KV_VAGUE_OPEN };
int kv_hedges_vague(const struct kv_tok *ans, const struct clause *cl);
/* Every word of the clause is one a hedge's "depends on" may name ("the
 * model and the hardware"): the rest of a hedge, cut off by a comma. */
bool kv_hedges_generic(const struct kv_tok *ans, const struct clause *cl);
/* A hedge or a give-up: "it depends", "various factors", "no idea". */
bool kv_hedges_hedge(const struct kv_tok *ans, const struct clause *cl);
/* The clause says something does not move: "regardless of X", "no matter
 * X", "doesn't depend on X", "never changes", "stays the same",
 * "unchanged". *m is the marker's first token; [*o, *e) is X, what it says
 * nothing depends on (empty where the marker has none: "stays the same").
 * False for a qualified clause ("nearly unchanged", "until the ridge") or
 * one that supposes. */
bool kv_hedges_invariant(const struct kv_tok *ans, const struct clause *cl, size_t *m, size_t *o,
                         size_t *e);

/* ---- a quantity's unit ----
 * "448 MiB" asked, "448 GiB" answered: the number a point names, with a byte
 * unit 1,024 times off, is a wrong quantity, not the point. */
#define UNITS_MAX 4
struct units {
    char num[UNITS_MAX][KV_STEM_MAX]; /* the number as written ("57,344") */
    double scale[UNITS_MAX];          /* bytes in its unit */
    size_t n;
};
/* The byte quantities of a point's text ("448 MiB", "56 KiB"). */
void kv_hedges_units(const char *text, struct units *u);
/* The clause states one of them with a byte unit a prefix step off ("448
 * GiB" for "448 MiB"; MB for MiB or GB for GiB is the same size) and never
 * with its own. */
bool kv_hedges_wrong_unit(const struct kv_tok *ans, const struct clause *cl, const struct units *u);

#endif
