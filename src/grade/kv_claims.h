/* kv_claims.h: grading a written answer on the claims it makes.
 *
 * An answer is cut into clauses (docs/answers.md defines them): a clause
 * ends at . ; : ? ! or a dash, and before "but", "while", "whereas",
 * "although", "and", "or" or a comma when the words after it name what a
 * point or misconception is about. A claim point is covered when one of its
 * `about` phrasings and one of its `said` phrasings stand in the same clause
 * and nothing in that clause negates the `said` one before it ("not", "no",
 * "never", "n't", "without", "neither", "nor"); a `short` phrasing covers it
 * when it makes a whole clause ("Decode."). An `accept` phrasing covers any
 * point on its own, in a clause that does not negate it; a plain point has
 * only those (and its text).
 * A misconception matches as a claim point does; one found makes the answer
 * wrong, its score held just under a pass. A claim point whose said
 * phrasing stands negated of its about ("decode is not memory-bound") is
 * contradicted: that too makes the answer wrong, and the point is never
 * shown covered. A hedge ("it depends", "various factors") covers nothing.
 *
 * Three verdicts: correct when the covered weight passes and nothing was
 * contradicted or misconceived; wrong only on evidence (a misconception, a
 * contradiction, or an answer that is nothing but keyword lists and
 * hedges); a point worded as a rule ("must", "only if") is not read as
 * contradicted by a case it rules out ("28 is not divisible by 8"); unsure
 * otherwise: the learner is asked which points they made.
 *
 * Words are compared by their stems ("shares", "sharing" and "shared" are
 * one word), ignoring case, articles, hyphens and dash or quote variants;
 * the glossary makes whole terms equivalent ("bandwidth-bound" is
 * "memory-bound"); a word no phrasing uses may be read as a phrasing's
 * word one slip of typing away ("memroy"). A clause of more than six words
 * without a verb, or a sentence of three or more short items separated by
 * commas alone ("fp8, scales, calibration"), is a keyword list: it covers
 * nothing, and the result says so. */
#ifndef KV_CLAIMS_H
#define KV_CLAIMS_H

#include <stdbool.h>
#include <stddef.h>

#include "kv_grade.h"

/* A yes/no question's point that is the answer itself: an answer opening
 * with a word of that polarity ("No,", "Nope.", "Hardly:", "Yes, ...")
 * covers it. */
enum kv_polarity { KV_POLARITY_NONE, KV_POLARITY_YES, KV_POLARITY_NO };

struct kv_phrases {
    const char *const *v;
    size_t n;
};

struct kv_point {
    const char *text;         /* the idea, as the learner is shown it */
    struct kv_phrases accept; /* plain phrasings: any of them, not negated */
    struct kv_phrases about;  /* what the claim is about ... */
    struct kv_phrases said;   /* ... and what is said of it, in one clause */
    struct kv_phrases shorts; /* a whole clause on its own covers it */
    double weight;
    enum kv_polarity polarity; /* the point is the answer "yes" or "no" to the question */
};

struct kv_misconception {
    struct kv_phrases about, said;
    const char *why; /* the correction shown when it is found */
    /* conditions under which the claim is true ("a short prompt" for
     * "prefill is memory-bound"): a clause that states one is not matched */
    struct kv_phrases unless;
    /* course-wide (lua/misconceptions.lua), listed after the question's
     * own: looked for in the clauses the question's phrasings make, never
     * shaping them, so a course-wide claim cannot move another's words */
    bool course;
};

/* Groups of equivalent terms, each group a list of phrasings. */
struct kv_glossary {
    const struct kv_phrases *groups;
    size_t n;
};

struct kv_text_item {
    const struct kv_point *points;
    size_t n_points;
    const struct kv_misconception *mis;
    size_t n_mis;
    const struct kv_glossary *glossary; /* NULL: none */
};

#define KV_MAX_POINTS         32
#define KV_MAX_MISCONCEPTIONS 40    /* a question's own 16 and the course's 24 */
#define KV_TEXT_MAX           16384 /* bytes: a longer answer is refused, never cut */
#define KV_TEXT_PASS          0.5   /* the score that passes */
#define KV_QUOTE_MAX          160

struct kv_text_result {
    enum kv_verdict verdict;
    double score;      /* covered weight / total, capped under a pass by a misconception */
    double got, total; /* covered weight and total weight */
    bool covered[KV_MAX_POINTS];
    char quote[KV_MAX_POINTS][KV_QUOTE_MAX]; /* the learner's clause that covered it */
    bool found[KV_MAX_MISCONCEPTIONS];
    char mis_quote[KV_MAX_MISCONCEPTIONS][KV_QUOTE_MAX];
    size_t n_found;
    bool contradicted[KV_MAX_POINTS]; /* a clause says the point's claim is not so */
    char contra_quote[KV_MAX_POINTS][KV_QUOTE_MAX];
    size_t n_contra;
    bool list;      /* some clause was a keyword list: say what is true of what */
    bool no_claim;  /* every clause was a keyword list or a hedge: no claim at all */
    bool hedged;    /* some clause was a hedge ("it depends"): it covered nothing */
    bool gave_up;   /* some clause was a hedge or a give-up outright ("it depends on several
                       factors", "no idea"), not only vague words ("about", "maybe") */
    bool left_open; /* some clause that said nothing else left the question open ("sometimes
                     * it helps", "you'd have to measure it") */
    char why[200];  /* invalid: why the answer was not graded */
};

/* Grades `typed` against the item. Never fails: an empty answer, or one
 * over KV_TEXT_MAX bytes, is an invalid verdict with why filled in. Points
 * and misconceptions past the maxima are ignored (lint refuses them). */
void kv_claims_grade(const struct kv_text_item *item, const char *typed, struct kv_text_result *r);

/* True when `word` (one word, any case, any form) is in the verb list that
 * tells a sentence from a keyword list. */
bool kv_claims_is_verb(const char *word);

#endif
