/* Hedges, suppositions, rules and a point's own words: what kv_claims.c
 * reads from a clause besides its phrasings (kv_hedges.h). */
#include "kv_hedges.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define PHRASE_TOKS 96

/* Is the point a rule ("the TP degree must divide the heads")? Then an
 * answer that denies it of one case ("28 heads are not divisible by 8")
 * explains a failure by the rule: no contradiction is read from it. Nor
 * from a point worded as a denial ("no headroom"), which an answer agrees
 * with by denying too. */
bool kv_hedges_rule(const char *text)
{
    static const char *const modal[] = {"must", "need", "needs",   "should", "unless",
                                        "only", "if",   "require", NULL};
    struct kv_tok t[PHRASE_TOKS];
    size_t n;
    if (!text || strlen(text) + 4 > PHRASE_TOKS)
        return true;
    n = kv_words_tokenize(text, t, PHRASE_TOKS);
    for (size_t i = 0; i < n; i++)
        if (t[i].neg || kv_words_in_stems(t[i].s, modal) ||
            (i + 1 < n && strcmp(t[i + 1].s, "to") == 0 &&
             (strcmp(t[i].s, "ha") == 0 || strcmp(t[i].s, "have") == 0 ||
              strcmp(t[i].s, "has") == 0)))
            return true;
    return false;
}

/* A clause that supposes ("if", "whether", "unless", "suppose") states
 * no fact, so it contradicts nothing; with deny, one that holds any denial
 * ("not", "instead of") does not assert a reversed point either. */
bool kv_hedges_asserts(const struct kv_tok *ans, const struct clause *cl, bool deny)
{
    static const char *const suppose[] = {"if", "whether", "unless", "suppose", "assuming", NULL};
    /* words that deny without "not": "bypassing the profile", "instead of" */
    static const char *const other[] = {"instead", "rather", "bypass",  "bypassing", "skip",
                                        "skips",   "ignore", "ignores", "replace",   "replaces",
                                        "avoid",   "avoids", NULL};
    for (size_t i = cl->a; i < cl->b; i++)
        if (kv_words_in(ans[i].s, suppose) ||
            (deny && (ans[i].neg || kv_words_in_stems(ans[i].s, other))))
            return false;
    return true;
}

/* ---- the point's own words, in any order ----
 *
 * A terse answer often is the point's claim with its words reordered or
 * reshaped ("k more slots per sequence" for "slots for k draft tokens per
 * request"). A point's content words are those of its text that carry
 * meaning (not "the", "is", "of", ...); a clause that holds three in four
 * of them, of four or more, with a denial exactly where the point's text
 * has one, states the point. */

void kv_hedges_words(const char *text, struct words *w)
{
    static const char *const stop[] = {
        "is",   "are",  "be",   "been",  "was",  "were",  "of",  "for",   "to",    "in",   "on",
        "at",   "by",   "with", "and",   "or",   "it",    "its", "their", "they",  "that", "this",
        "as",   "from", "so",   "than",  "each", "every", "one", "what",  "which", "into", "per",
        "do",   "does", "can",  "there", "how",  "when",  "all", "much",  "more",  "less", "only",
        "same", "both", "once", "own",   "up",   "out",   "has", "have",  "about", NULL};
    struct kv_tok t[PHRASE_TOKS];
    size_t n;
    w->n = 0;
    w->neg = false;
    if (!text || strlen(text) + 4 > PHRASE_TOKS)
        return;
    n = kv_words_tokenize(text, t, PHRASE_TOKS);
    for (size_t i = 0; i < n && w->n < WORDS_MAX; i++) {
        bool dup = false;
        if (t[i].neg) {
            w->neg = true;
            continue;
        }
        if (kv_words_in_stems(t[i].s, stop) || (strlen(t[i].s) < 2 && !kv_words_has_digit(t[i].s)))
            continue;
        for (size_t k = 0; k < w->n && !dup; k++)
            dup = strcmp(w->s[k], t[i].s) == 0;
        if (!dup)
            snprintf(w->s[w->n++], KV_STEM_MAX, "%s", t[i].s);
    }
}

bool kv_hedges_words_in(const struct kv_tok *ans, const struct clause *cl, const struct words *w)
{
    size_t hits = 0;
    bool neg = false;
    if (w->n < 4) /* "decode is memory-bound" is three: its order binds it */
        return false;
    for (size_t i = cl->a; i < cl->b; i++)
        neg |= ans[i].neg;
    if (neg != w->neg)
        return false;
    for (size_t k = 0; k < w->n; k++) {
        bool hit = false;
        for (size_t i = cl->a; i < cl->b && !hit; i++)
            hit = strcmp(ans[i].s, w->s[k]) == 0 ||
                  (ans[i].typo_ok && kv_words_typo(ans[i].s, w->s[k]));
        hits += hit;
    }
    return hits >= 3 && hits * 4 >= w->n * 3;
}

/* What "it depends on" may name and still say nothing. */
static const char *const generic[] = {"on",          "the",         "and",
                                      "or",          "of",          "your",
                                      "workload",    "model",       "hardware",
                                      "setup",       "setups",      "gpu",
                                      "task",        "kernel",      "situation",
                                      "case",        "use",         "configuration",
                                      "config",      "load",        "traffic",
                                      "system",      "details",     "scenario",
                                      "application", "environment", "interconnect",
                                      "batch",       "context",     "length",
                                      "number",      "users",       "rate",
                                      "hit",         "engine",      "size",
                                      "many",        "various",     "factors",
                                      "things",      "other",       "lot",
                                      "lots",        "several",     "a",
                                      "exact",       "specific",    "particular",
                                      "really",      "version",     "versions",
                                      "settings",    "deployment",  "deployed",
                                      "network",     "cluster",     "framework",
                                      "pattern",     "mix",         "implementation",
                                      "business",    "variants",    "cache",
                                      "how",         "it",          "is",
                                      "you",         "configure",   "set",
                                      "client",      "metrics",     "all",
                                      "together",    "router",      "routers",
                                      "driver",      "drivers",     "up",
                                      "models",      "s",           NULL};

/* A clause whose every word is one "it depends on" may name: the rest of a
 * hedge's list cut off by a comma ("it depends on the workload, the model
 * and the hardware"). */
bool kv_hedges_generic(const struct kv_tok *ans, const struct clause *cl)
{
    if (cl->b <= cl->a)
        return false;
    for (size_t i = cl->a; i < cl->b; i++)
        if (ans[i].neg || kv_words_has_digit(ans[i].s) || !kv_words_in_stems(ans[i].s, generic))
            return false;
    return true;
}

/* Leaving the answer to an experiment not described: "you'd have to
 * measure it", "so you should benchmark them", "just try it and see",
 * "I'd look at the logs". A method with its object ("sweep the rate and
 * keep the p99 under 20 ms") is not this: the verb must end the clause but
 * for pronouns and words that name no method. */
static bool defers(const struct kv_tok *ans, const struct clause *cl)
{
    static const char *const verb[] = {"benchmark", "measure", "profile",    "test",
                                       "evaluate",  "try",     "tune",       "check",
                                       "look",      "see",     "experiment", NULL};
    static const char *const frame[] = {"would", "should", "need", "have", "must",
                                        "just",  "could",  "can",  "to",   NULL};
    static const char *const tail[] = {
        "it",   "them",      "this",     "that",          "both",        "to",       "know",
        "see",  "and",       "at",       "the",           "docs",        "logs",     "log",
        "some", "tuning",    "first",    "out",           "yourself",    "case",     "each",
        "by",   "real",      "results",  "appropriately", "accordingly", "properly", "carefully",
        "for",  "situation", "settings", "parameters",    "knobs",       "right",    "correctly",
        NULL};
    for (size_t i = cl->a; i < cl->b; i++)
        if (ans[i].neg)
            return false; /* "there's no timetable to tune" */
    for (size_t i = cl->a; i < cl->b; i++) {
        bool framed = false, bare = true;
        if (!kv_words_in_stems(ans[i].s, verb))
            continue;
        for (size_t j = i > cl->a + 3 ? i - 3 : cl->a; j < i; j++)
            framed = framed || kv_words_in_stems(ans[j].s, frame);
        for (size_t j = i + 1; j < cl->b && bare; j++)
            bare = !ans[j].neg &&
                   (kv_words_in_stems(ans[j].s, tail) || kv_words_in_stems(ans[j].s, generic) ||
                    kv_words_in_stems(ans[j].s, verb));
        if (framed && bare)
            return true;
    }
    return false;
}

/* Words that leave a claim open: "depends", "depending", "varies", "maybe",
 * "might", "perhaps", "somewhat", "possibly", "sometimes", "in some cases",
 * "hard to say", "pros and cons", "it comes down to", "many knobs", "a lot
 * of things", "a few mechanisms", an experiment left undescribed, and a
 * manner instead of a mechanism: "somehow", "gracefully", "vLLM handles it"
 * (not "handles it by ..."), "it should be fine", "some kind of". */
int kv_hedges_vague(const struct kv_tok *ans, const struct clause *cl)
{
    /* a soft word qualifies a claim a learner may still be making ("it
     * might come later"); the others leave the question open */
    static const char *const soft[] = {"maybe", "might", "perhaps", "somewhat", "possibly", NULL};
    /* "handled gracefully", "processed somehow": a manner named instead of
     * a mechanism ("appropriately" is not here: its stem is "appropriate"'s,
     * which a claim may use) */
    static const char *const open[] = {"depend",  "depending",  "vary",
                                       "varies",  "sometimes",  "complicated",
                                       "somehow", "gracefully", NULL};
    static const char *const many[] = {"many", "lot", "lots", "various", "several", "few", NULL};
    static const char *const things[] = {"knobs",         "things",     "factors", "options",
                                         "ways",          "mechanisms", "tweaks",  "components",
                                         "possibilities", "reasons",    NULL};
    bool soft_ = false; /* a soft word seen: OPEN ones later in the clause still win */
    /* what "depends" when the answer is left open: the answer itself ("it
     * depends", "the right choice depends"), not a quantity ("its size
     * depends on layers and heads") */
    static const char *const answer_subj[] = {
        "it",         "that", "this",       "which",    "choice", "answer",   "best", "one",
        "everything", "all",  "noticeable", "approach", "option", "decision", NULL};
    for (size_t i = cl->a; i < cl->b; i++) {
        const char *prev = i > cl->a ? ans[i - 1].s : "";
        const char *prev2 = i > cl->a + 1 ? ans[i - 2].s : "";
        /* "it depends on how the traffic is spread", "the right choice depends
         * on the model": what it depends on names at most two words the item's
         * phrasings use (others are words they do not use, or ones "it depends
         * on" may name); "its size depends on layers, KV heads and head dim"
         * names terms points are about, and stays a claim */
        if (strcmp(ans[i].s, "depend") == 0) {
            /* "depending on" (the stem is "depend"'s) opens its clause or
             * follows a comma; "it depends" has its subject before it */
            bool participle = i == cl->a || ans[i].brk >= KV_BRK_COMMA;
            size_t known = 0;
            bool all = true;
            for (size_t j = i + 1; j < cl->b; j++) {
                bool gen = kv_words_in_stems(ans[j].s, generic);
                all = all && gen;
                if (kv_words_has_digit(ans[j].s) || ans[j].neg)
                    known += 3; /* a number, or a denial ("not on the weights"), is a claim */
                else if (!gen && !ans[j].typo_ok)
                    known++;
            }
            if (all || (known <= 2 && (participle || kv_words_in_stems(prev, answer_subj))))
                return KV_VAGUE_OPEN;
            continue; /* a quantity's dependence ("its size depends on") is a claim */
        }
        /* "there are trade-offs either way", "a combination of factors" */
        if ((strcmp(ans[i].s, "off") == 0 &&
             kv_words_in_stems(prev, (const char *const[]){"trade", NULL})) ||
            kv_words_in_stems(ans[i].s, (const char *const[]){"tradeoff", "tradeoffs", NULL}) ||
            (strcmp(prev, "combination") == 0 && strcmp(ans[i].s, "of") == 0))
            return KV_VAGUE_OPEN;
        if (kv_words_in_stems(ans[i].s, soft)) {
            soft_ = true;
            continue;
        }
        if (kv_words_in_stems(ans[i].s, open) ||
            (kv_words_in_stems(ans[i].s, things) &&
             (kv_words_in_stems(prev, many) ||
              (strcmp(prev, "of") == 0 && kv_words_in_stems(prev2, many)))))
            return KV_VAGUE_OPEN;
        /* "vLLM handles it", "it deals with it", "takes care of this": the
         * work named, not how it is done */
        if (kv_words_in_stems(ans[i].s, (const char *const[]){"it", "this", "that", NULL}) &&
            !(i + 1 < cl->b &&
              kv_words_in_stems(ans[i + 1].s, (const char *const[]){"by", "with", "through", "via",
                                                                    "using", NULL})) &&
            (kv_words_in_stems(prev, (const char *const[]){"handles", "handle", "handled", NULL}) ||
             (strcmp(prev, "with") == 0 &&
              kv_words_in_stems(prev2, (const char *const[]){"deals", "deal", "dealt", NULL})) ||
             (strcmp(prev, "of") == 0 &&
              kv_words_in_stems(prev2, (const char *const[]){"care", NULL}))))
            return KV_VAGUE_OPEN;
        /* "it should be fine", "the client is mostly fine" */
        if (kv_words_in_stems(ans[i].s, (const char *const[]){"fine", NULL}) &&
            kv_words_in_stems(prev, (const char *const[]){"be", "mostly", "probably", NULL}) &&
            (i + 1 == cl->b || (!ans[i + 1].joined && ans[i + 1].brk >= KV_BRK_COMMA)))
            return KV_VAGUE_OPEN;
        /* "some kind of protection", "some sort of limit", "some trade-offs" */
        if (strcmp(prev, "some") == 0 &&
            kv_words_in_stems(ans[i].s,
                              (const char *const[]){"kind", "sort", "trade", "tradeoffs", NULL}))
            return KV_VAGUE_OPEN;
        /* "in some cases", "hard to say", "pros and cons", "comes down to" */
        if ((kv_words_in_stems(ans[i].s, (const char *const[]){"case", "cases", NULL}) &&
             strcmp(prev, "some") == 0) ||
            (kv_words_in_stems(ans[i].s, (const char *const[]){"say", NULL}) &&
             strcmp(prev, "to") == 0 &&
             kv_words_in_stems(prev2, (const char *const[]){"hard", "difficult", NULL})) ||
            (kv_words_in_stems(ans[i].s, (const char *const[]){"con", "cons", NULL}) &&
             strcmp(prev, "and") == 0 &&
             kv_words_in_stems(prev2, (const char *const[]){"pro", "pros", NULL})) ||
            (kv_words_in_stems(ans[i].s, (const char *const[]){"down", NULL}) &&
             kv_words_in_stems(prev, (const char *const[]){"comes", "come", NULL})))
            return KV_VAGUE_OPEN;
    }
    return defers(ans, cl) ? KV_VAGUE_OPEN : soft_ ? KV_VAGUE_SOFT : KV_VAGUE_NONE;
}

/* A hedge says nothing of anything: "it depends", "that depends" at the
 * end of its clause or before a comma, "various factors", "many things",
 * "it varies". */
bool kv_hedges_hedge(const struct kv_tok *ans, const struct clause *cl)
{
    static const char *const vague[] = {"various",  "many",      "several", "multiple",
                                        "numerous", "different", "lot",     NULL};
    static const char *const stuff[] = {"factors", "things", "aspects", "variables", NULL};
    static const char *const kinds[] = {"overheads", "issues",         "effects",
                                        "losses",    "inefficiencies", NULL};
    static const char *const examples[] = {"like", "including", "e", "eg", "from", "namely", NULL};
    static const char *const subj[] = {"it", "that", "this", "everything", "all", NULL};
    /* what names nothing an answer could be checked against */
    static const char *const nothing[] = {"the",
                                          "and",
                                          "or",
                                          "of",
                                          "your",
                                          "a",
                                          "workload",
                                          "model",
                                          "hardware",
                                          "setup",
                                          "situation",
                                          "case",
                                          "use",
                                          "configuration",
                                          "config",
                                          "system",
                                          "details",
                                          "scenario",
                                          "application",
                                          "environment",
                                          "implementation",
                                          "version",
                                          "settings",
                                          "deployment",
                                          "factors",
                                          "things",
                                          "many",
                                          "various",
                                          "several",
                                          "lot",
                                          "lots",
                                          "other",
                                          "exact",
                                          "specific",
                                          "particular",
                                          "really",
                                          "kernel",
                                          "load",
                                          "traffic",
                                          "business",
                                          "how",
                                          "it",
                                          "is",
                                          "you",
                                          "configure",
                                          "set",
                                          "on",
                                          NULL};
    /* "No idea", "I don't know", "not sure", "dunno": giving up claims nothing */
    static const char *const give_up[] = {"idea", "know", "sure", "clue", "dunno", "idk", NULL};
    if (cl->b - cl->a <= 4)
        for (size_t i = cl->a; i < cl->b; i++)
            if (kv_words_in_stems(ans[i].s, give_up) &&
                (strcmp(ans[i].s, "dunno") == 0 || strcmp(ans[i].s, "idk") == 0 ||
                 (i > cl->a && (ans[i - 1].neg || strcmp(ans[i - 1].s, "no") == 0))))
                return true;
    for (size_t i = cl->a; i < cl->b; i++) {
        bool end = i + 1 == cl->b || ans[i + 1].brk >= KV_BRK_COMMA;
        if (i > cl->a && kv_words_in_stems(ans[i - 1].s, subj) &&
            (strcmp(ans[i].s, "depend") == 0 || strcmp(ans[i].s, "vari") == 0) &&
            (end || (i + 2 < cl->b && strcmp(ans[i + 1].s, "on") == 0 &&
                     kv_words_in_stems(ans[i + 2].s, vague))))
            return true;
        if (i > cl->a && kv_words_in_stems(ans[i].s, stuff) &&
            kv_words_in_stems(ans[i - 1].s, vague))
            return true;
        /* "lost to various overheads": a kind of cause, none named; "various
         * overheads such as DRAM refresh" names them */
        if (i > cl->a && kv_words_in_stems(ans[i].s, kinds) &&
            kv_words_in_stems(ans[i - 1].s, vague)) {
            /* "DRAM refresh, bank conflicts and various overheads": the list
             * before it names them */
            bool named =
                i >= cl->a + 2 &&
                kv_words_in_stems(ans[i - 2].s, (const char *const[]){"and", "or", "plus", NULL});
            for (size_t j = i + 1; j < cl->b && !named; j++)
                named = kv_words_in_stems(ans[j].s, examples) ||
                        (j + 1 < cl->b && strcmp(ans[j].s, "such") == 0 &&
                         strcmp(ans[j + 1].s, "as") == 0);
            if (!named)
                return true;
        }
        /* "it depends on the workload and the hardware": what it depends on
         * names nothing the question is about */
        if (i > cl->a && kv_words_in_stems(ans[i - 1].s, subj) && strcmp(ans[i].s, "depend") == 0 &&
            i + 2 < cl->b && strcmp(ans[i + 1].s, "on") == 0) {
            bool empty = true;
            for (size_t j = i + 2; j < cl->b && empty; j++)
                empty = kv_words_in_stems(ans[j].s, nothing);
            if (empty)
                return true;
        }
    }
    return false;
}

/* ---- invariance: "regardless of", "doesn't depend on", "stays the same" ----
 *
 * A false mechanism often states that something does not move where the
 * point says it does ("TPOT doesn't depend on batch size", "neither TTFT
 * nor ITL changes", "a fixed few megabytes regardless of context length").
 * Qualified, the same words are often right ("nearly unchanged at small
 * batch", "flat until the ridge"), so a qualified clause is never read as
 * one. */

static bool tok_is(const struct kv_tok *t, const char *w)
{
    const char *const one[] = {w, NULL};
    return kv_words_in_stems(t->s, one);
}

bool kv_hedges_invariant(const struct kv_tok *ans, const struct clause *cl, size_t *m, size_t *o,
                         size_t *e)
{
    static const char *const qualify[] = {
        "nearly",      "almost",      "roughly",       "barely",    "hardly",  "largely", "mostly",
        "practically", "essentially", "approximately", "until",     "below",   "small",   "much",
        "little",      "short",       "low",           "typically", "usually", "only",    NULL};
    static const char *const moves[] = {"depend", "depends", "change", "changes",
                                        "affect", "affects", "matter", "matters",
                                        "vary",   "varies",  NULL};
    static const char *const object[] = {"regardless", "irrespective", "independent",
                                         "independently", NULL};
    static const char *const stay[] = {"stay", "stays", "remain", "remains", "is", "are", NULL};
    bool found = false;
    /* "regardless of whether": the "whether" belongs to the marker, no supposition */
    for (size_t i = cl->a; i < cl->b; i++)
        if (kv_words_in(ans[i].s,
                        (const char *const[]){"if", "unless", "suppose", "assuming", NULL}) ||
            (strcmp(ans[i].s, "whether") == 0 &&
             !(i > cl->a &&
               kv_words_in_stems(ans[i - 1].s, (const char *const[]){"of", "matter", NULL}))))
            return false;
    for (size_t i = cl->a; i < cl->b; i++)
        /* "no matter how much": the marker's own "much" qualifies nothing */
        if ((kv_words_in_stems(ans[i].s, qualify) &&
             !(i > cl->a && strcmp(ans[i - 1].s, "how") == 0)) ||
            /* "bytes per token are unchanged": a token's share stays put while the whole grows */
            (i + 1 < cl->b &&
             kv_words_in_stems(ans[i].s, (const char *const[]){"per", "each", NULL}) &&
             tok_is(&ans[i + 1], "token")))
            return false;
    for (size_t i = cl->a; i < cl->b; i++) {
        size_t at = SIZE_MAX, from = SIZE_MAX;
        if (kv_words_in_stems(ans[i].s, object) && i + 1 < cl->b && tok_is(&ans[i + 1], "of"))
            at = i, from = i + 2; /* "regardless of the batch" */
        else if (strcmp(ans[i].s, "no") == 0 && i + 1 < cl->b && tok_is(&ans[i + 1], "matter"))
            at = i, from = i + 2; /* "no matter how many tokens" */
        else if (ans[i].neg && strcmp(ans[i].s, "without") != 0) {
            /* "doesn't depend on", "never changes", "nor ITL changes" */
            for (size_t j = i + 1; j < cl->b && j <= i + 3 && at == SIZE_MAX; j++)
                if (kv_words_in_stems(ans[j].s, moves)) {
                    at = i;
                    from = j + 1 < cl->b && tok_is(&ans[j + 1], "on") ? j + 2 : cl->b;
                    if (!tok_is(&ans[j], "depend") && !tok_is(&ans[j], "depends"))
                        from = cl->b; /* "doesn't change the bytes": its object moves */
                }
        } else if (tok_is(&ans[i], "unchanged") || tok_is(&ans[i], "unaffected") ||
                   tok_is(&ans[i], "constant") ||
                   (i > cl->a && kv_words_in_stems(ans[i - 1].s, stay) && tok_is(&ans[i], "same")))
            at = i, from = cl->b;
        if (at == SIZE_MAX || (found && from >= cl->b))
            continue; /* a marker that names what nothing depends on wins over one that does not */
        *m = at;
        *o = from;
        *e = from;
        while (*e < cl->b && ans[*e].brk < KV_BRK_COMMA)
            (*e)++;
        if (from < cl->b)
            return true;
        found = true;
    }
    return found;
}

/* ---- a quantity's unit ---- */

/* Bytes in the byte unit u ("gib", "mb", "bytes"); 0 when u is none. */
static double byte_scale(const char *u)
{
    static const struct {
        const char *u;
        double s;
    } units[] = {/* not a bare "b": "47B parameters" is billions */
                 {"byte", 1},  {"bytes", 1},
                 {"kb", 1e3},  {"kib", 1024.0},
                 {"mb", 1e6},  {"mib", 1048576.0},
                 {"gb", 1e9},  {"gib", 1073741824.0},
                 {"tb", 1e12}, {"tib", 1099511627776.0}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(u, units[i].u) == 0)
            return units[i].s;
    return 0;
}

/* Token i is a number with a byte unit, in it ("1.75gib") or after it
 * ("448 GiB"): its digits into num, the unit's size returned (0: none). */
static double quantity_at(const struct kv_tok *t, size_t i, size_t b, char *num, size_t cap)
{
    size_t k = 0;
    const char *s = t[i].s;
    if (!(s[0] >= '0' && s[0] <= '9'))
        return 0;
    while (s[k] && ((s[k] >= '0' && s[k] <= '9') || s[k] == ',' || s[k] == '.') && k + 1 < cap)
        k++;
    memcpy(num, s, k);
    num[k] = '\0';
    if (s[k])
        return byte_scale(s + k);
    return i + 1 < b && t[i + 1].brk == KV_BRK_NONE ? byte_scale(t[i + 1].s) : 0;
}

void kv_hedges_units(const char *text, struct units *u)
{
    struct kv_tok t[PHRASE_TOKS];
    size_t n;
    u->n = 0;
    if (!text || strlen(text) + 4 > PHRASE_TOKS)
        return;
    n = kv_words_tokenize(text, t, PHRASE_TOKS);
    for (size_t i = 0; i < n && u->n < UNITS_MAX; i++) {
        double sc = quantity_at(t, i, n, u->num[u->n], KV_STEM_MAX);
        if (sc > 0)
            u->scale[u->n++] = sc;
    }
}

bool kv_hedges_wrong_unit(const struct kv_tok *ans, const struct clause *cl, const struct units *u)
{
    bool wrong = false;
    for (size_t i = cl->a; i < cl->b; i++) {
        char num[KV_STEM_MAX];
        double sc = quantity_at(ans, i, cl->b, num, sizeof num);
        if (sc <= 0)
            continue;
        for (size_t k = 0; k < u->n; k++) {
            if (strcmp(num, u->num[k]) != 0)
                continue;
            double r = sc > u->scale[k] ? sc / u->scale[k] : u->scale[k] / sc;
            if (r < 100)
                return false; /* its own unit, or MB for MiB (4.9% apart), GB for GiB (7.4%) */
            wrong = true;     /* a prefix step off: MiB for GiB, 1,024 times */
        }
    }
    return wrong;
}
