#include "kv_claims_priv.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Is the phrasing found at `at` negated in its clause: a negator at most
 * NEG_REACH tokens before it ("is not at all memory-bound", "neither prefill
 * nor decode is"), with no "but", "so" or "because" between ("not
 * compute-bound but memory-bound")? Further back, a negator is about something else ("with
 * no margin a server can run out of memory"). "Without" is a preposition: it
 * denies its own object ("without recomputing", "without any waste"), not the
 * verb after that object ("without it every step reruns the prefix" says the
 * step reruns it), so it reaches one word at most. */
#define NEG_REACH     4
#define WITHOUT_REACH 2
#define CONTRAST_BACK 6

/* Does token i open a contrast: "instead of", "rather than", "unlike", "as
 * opposed to"? What follows it in the clause is the thing set aside, not
 * claimed ("chained block hashes rather than SGLang's radix tree"). */
static bool word_is(const struct kv_tok *t, const char *w)
{
    const char *const one[] = {w, NULL};
    return kv_words_in_stems(t->s, one);
}

static bool contrast_at(const struct kv_tok *ans, size_t i, size_t at)
{
    if (word_is(&ans[i], "unlike"))
        return true;
    if (i + 1 >= at)
        return false;
    return (word_is(&ans[i], "instead") && word_is(&ans[i + 1], "of")) ||
           (word_is(&ans[i], "rather") && word_is(&ans[i + 1], "than")) ||
           (word_is(&ans[i], "opposed") && i > 0 && word_is(&ans[i - 1], "as"));
}

/* Is the phrasing at `at` set aside by a contrast before it in its clause
 * ("instead of", "rather than", "unlike"), with no turn ("but", "so") in
 * between? It reaches into a relative clause on what was set aside
 * ("unlike typical acceptance, which keeps a token above a threshold"). Read
 * for what a clause says of its subject (claims, misconceptions), not for a
 * plain point's phrasing, which may name what is avoided ("instead of idling
 * until the longest request ends" covers "no waiting for the longest"). */
static bool contrasted_at(const struct kv_tok *ans, size_t a, size_t at)
{
    static const char *const turns[] = {"but",   "rather",    "so",    "because",
                                        "since", "therefore", "hence", NULL};
    bool contrast = false;
    size_t from = a;
    if (a > 0 && word_is(&ans[a], "which")) /* not "that": "That removes ..." opens a sentence */
        from = a > CONTRAST_BACK ? a - CONTRAST_BACK : 0;
    for (size_t i = from; i < at; i++) {
        if (contrast_at(ans, i, at + 1))
            contrast = true;
        else if (kv_words_in_stems(ans[i].s, turns))
            contrast = false;
    }
    return contrast;
}

static bool negated_at(const struct kv_tok *ans, size_t a, size_t at)
{
    /* "but", "rather" turn the claim round; "so", "because", "since",
     * "hence", "therefore" start another ("it isn't counted, so you OOM") */
    static const char *const unneg[] = {"but",   "rather",    "so",    "because",
                                        "since", "therefore", "hence", NULL};
    bool neg = false;
    for (size_t i = at > a + NEG_REACH ? at - NEG_REACH : a; i < at; i++) {
        if (ans[i].neg)
            neg = neg || strcmp(ans[i].s, "without") != 0 || at - i <= WITHOUT_REACH;
        else if (kv_words_in_stems(ans[i].s, unneg) && !(i > a && ans[i - 1].neg) &&
                 !contrast_at(ans, i, at + 1))
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
            if (i + q->n > cl->b ||
                !kvc_seq_eq_at(ans, cl->b, i, c->pool + q->off, q->n, q->prefix))
                continue;
            if (q->neg || !negated_at(ans, cl->a, i))
                return true;
        }
    return false;
}

/* One of s's phrasings in the clause, unless a negator stands right before
 * it: a case an `unless` names is still named under the claim's own
 * negation ("never OOMs from KV growth", "does not cut TPOT the way TP
 * does"), not where it is itself denied ("without a short prompt"). */
static bool phrase_in(const struct ctx *c, const struct kv_tok *ans, const struct clause *cl,
                      struct set s)
{
    for (size_t i = cl->a; i < cl->b; i++) {
        bool denied = false;
        if (!kvc_len_at(c, ans, cl, i, s))
            continue;
        for (size_t j = i > cl->a + 2 ? i - 2 : cl->a; j < i; j++)
            denied = denied || ans[j].neg;
        if (!denied)
            return true;
    }
    return false;
}

/* A misconception's `unless` case named in clause k, or in a clause before
 * it in the same sentence: a condition set first ("if the blocks are
 * evicted, the prefill still runs"; "when prompts differ it does not help:
 * the whole prefill still runs") holds for the words after it. A later
 * sentence starts afresh. */
static bool unless_case(const struct ctx *c, const struct kv_tok *ans, const struct clause *cl,
                        size_t k, struct set unless)
{
    if (!unless.n)
        return false;
    for (size_t j = k + 1; j-- > 0;) {
        if (phrase_in(c, ans, &cl[j], unless)) /* a fragment names a case too */
            return true;
        if (cl[j].a >= cl[j].b || cl[j].a == 0 || ans[cl[j].a].brk == KV_BRK_HARD)
            break; /* the sentence's first clause */
    }
    return false;
}

/* The length of the longest phrasing of one's set that starts at token i of
 * the clause; 0 when none does. */
size_t kvc_len_at(const struct ctx *c, const struct kv_tok *ans, const struct clause *cl, size_t i,
                  struct set s)
{
    size_t best = 0;
    for (size_t k = 0; k < s.n; k++) {
        const struct seq *q = &c->seqs[s.first + k];
        if (q->n > best && i + q->n <= cl->b &&
            kvc_seq_eq_at(ans, cl->b, i, c->pool + q->off, q->n, q->prefix))
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
    if (i >= cl->b || kvc_len_at(c, ans, cl, i, own))
        return 0;
    for (size_t k = 0; k < c->n_abouts; k++) {
        size_t n = kvc_len_at(c, ans, cl, i, c->abouts[k]);
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
bool kvc_claim_at(const struct ctx *c, const struct kv_tok *ans, const struct clause *cl,
                  struct set about, struct set said, bool predicative)
{
    size_t len;
    for (size_t from = cl->a;;) {
        size_t at = kvc_find_in(c, ans, cl->a, cl->b, from, about, &len, NULL);
        if (at == SIZE_MAX)
            return false;
        for (size_t i = cl->a; i < cl->b; i++)
            for (size_t k = 0; k < said.n; k++) {
                const struct seq *q = &c->seqs[said.first + k];
                if (i + q->n > cl->b ||
                    !kvc_seq_eq_at(ans, cl->b, i, c->pool + q->off, q->n, q->prefix))
                    continue;
                if (i < at + len && i + q->n > at)
                    continue; /* the same words cannot be both the subject and the claim */
                if (predicative && i < at + len)
                    continue;
                if (!q->neg && (negated_at(ans, cl->a, i) || contrasted_at(ans, cl->a, i)))
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
    return kvc_claim_at(c, ans, cl, about, said, false);
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

/* "Prefills no longer stall the decodes": a change from the claim, which
 * says it held before (a point that the split removes the stall agrees);
 * no denial of it. */
static bool no_longer(const struct kv_tok *ans, const struct clause *cl, size_t at)
{
    for (size_t j = at > cl->a + NEG_REACH ? at - NEG_REACH : cl->a; j + 1 < at; j++)
        if (strcmp(ans[j].s, "no") == 0 && strcmp(ans[j + 1].s, "longer") == 0)
            return true;
    return false;
}

/* The point's claim, negated: an about and a said bound to each other with
 * a negator before the said ("decode is not memory-bound"). A said that
 * holds its own negation is never read as negated. */
static bool claim_negated(const struct ctx *c, const struct kv_tok *ans, const struct clause *cl,
                          struct set about, struct set said)
{
    static const char *const compare[] = {"like", "unlike", "than", NULL};
    size_t len;
    for (size_t from = cl->a;;) {
        size_t at = kvc_find_in(c, ans, cl->a, cl->b, from, about, &len, NULL);
        if (at == SIZE_MAX)
            return false;
        /* "TP cannot divide the latent like GQA heads": the subject compared
         * with is not the one denied */
        if (at > cl->a && kv_words_in_stems(ans[at - 1].s, compare)) {
            from = at + 1;
            continue;
        }
        for (size_t i = cl->a; i < cl->b; i++)
            for (size_t k = 0; k < said.n; k++) {
                const struct seq *q = &c->seqs[said.first + k];
                if (q->neg || i + q->n > cl->b ||
                    !kvc_seq_eq_at(ans, cl->b, i, c->pool + q->off, q->n, q->prefix))
                    continue;
                if (i < at + len && i + q->n > at)
                    continue;
                if (!denied_at(ans, cl->a, i) ||
                    bound_elsewhere(c, ans, cl, i, i + q->n, at, about) || no_longer(ans, cl, i))
                    continue;
                /* the negator must not sit inside the about ("no-copy sharing") */
                bool neg_in_about = false, also = false;
                for (size_t j = at; j < at + len; j++)
                    neg_in_about |= ans[j].neg;
                /* "a quarter of every layer's cache, not a quarter of the
                 * layers": the same words said plainly in the clause, and a
                 * wrong reading of them set aside */
                for (size_t j = cl->a; j + q->n <= cl->b && !also; j++)
                    also = j != i &&
                           kvc_seq_eq_at(ans, cl->b, j, c->pool + q->off, q->n, q->prefix) &&
                           !negated_at(ans, cl->a, j);
                if (!neg_in_about && !also)
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
    if (!prev || a >= cl->b || !kv_words_in_stems(ans[a].s, pronouns))
        return false;
    if (strcmp(ans[a].s, "which") == 0) {
        /* a relative "which" speaks of the noun before it, whatever its
         * clause names after the claim ("PagedAttention, which halves the
         * bytes per token of the cache"); one that names a subject first
         * speaks of that ("prefill is compute-bound, which leaves decode as
         * the memory-bound phase") */
        size_t at = kvc_find_in(c, ans, cl->a, cl->b, cl->a, said, &len, NULL);
        if (at == SIZE_MAX || kvc_names_about(c, ans, a + 1, at, abouts, n_abouts))
            return false;
    } else if (kvc_names_about(c, ans, cl->a, cl->b, abouts, n_abouts))
        return false;
    return kvc_find_in(c, ans, prev->a, prev->b, prev->a, about, &len, NULL) != SIZE_MAX &&
           said_in(c, ans, cl, said);
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
    size_t len = typed ? strlen(typed) : 0, n_ans, n_cl, n_gloss = 0, n_abouts = 0, n_own;
    struct set *gloss = NULL, *abouts = NULL, *accept = NULL, *about = NULL, *said = NULL,
               *shorts = NULL, *unless = NULL;
    struct kv_tok *ans = NULL;
    struct clause *cl = NULL;
    struct kv_verbs verbs;
    bool rule[KV_MAX_POINTS], moves[KV_MAX_POINTS];
    struct set said_pos[KV_MAX_POINTS], said_rev[KV_MAX_POINTS], about_rev[KV_MAX_POINTS];
    struct words pw[KV_MAX_POINTS];
    struct units pu[KV_MAX_POINTS];

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
    unless = calloc(n_mis + 1, sizeof *unless);
    if (!ans || !cl || !abouts || !accept || !about || !said || !shorts || !unless ||
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
    /* "TP splits by tokens? No, by heads": a question the answer denies at
     * once states nothing; its words are neither claimed nor contradicted */
    for (size_t i = 1; i < n_ans; i++)
        if (ans[i].asked &&
            kv_words_in_stems(ans[i].s, (const char *const[]){"no", "not", "nope", NULL}))
            for (size_t j = i; j-- > 0;) { /* back to the clause's start only */
                ans[j].rhetorical = true;
                if (ans[j].brk >= KV_BRK_COMMA)
                    break;
            }

    for (size_t g = 0; item->glossary && g < item->glossary->n; g++)
        gloss[n_gloss++] = kvc_compile(&c, &item->glossary->groups[g], NULL, NULL, 0, false);
    for (size_t i = 0; i < n_pts; i++) {
        const struct kv_point *p = &item->points[i];
        bool claim = p->about.n && p->said.n;
        accept[i] = kvc_compile(&c, &p->accept, claim ? NULL : p->text, gloss, n_gloss, true);
        about[i] = kvc_compile(&c, &p->about, NULL, gloss, n_gloss, false);
        said[i] = kvc_compile(&c, &p->said, NULL, gloss, n_gloss, false);
        shorts[i] = kvc_compile(&c, &p->shorts, NULL, gloss, n_gloss, false);
        said_pos[i] = kvc_positives(&c, said[i]);
        said_rev[i] = kvc_said_reversed(&c, said[i]);
        about_rev[i] = kvc_subjects_swapped(&c, about[i]);
        if (about[i].n)
            abouts[n_abouts++] = about[i];
    }
    for (size_t m = 0; m < n_mis; m++) {
        about[n_pts + m] = kvc_compile(&c, &item->mis[m].about, NULL, gloss, n_gloss, false);
        said[n_pts + m] = kvc_compile(&c, &item->mis[m].said, NULL, gloss, n_gloss, false);
        unless[m] = kvc_compile(&c, &item->mis[m].unless, NULL, gloss, n_gloss, false);
        if (about[n_pts + m].n && !item->mis[m].course)
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
    n_own = 0; /* the question's own misconceptions, before the course's */
    while (n_own < n_mis && !item->mis[n_own].course)
        n_own++;
    n_cl = kvc_clauses(&c, ans, n_ans, about, said, n_pts + n_own, abouts, n_abouts, cl);

    for (size_t i = 0; i < n_pts; i++) {
        rule[i] = kv_hedges_rule(item->points[i].text);
        kv_hedges_words(item->points[i].text, &pw[i]);
        moves[i] = kvc_point_moves(&c, item->points[i].text, &pw[i], said[i]);
        kv_hedges_units(item->points[i].text, &pu[i]);
    }
    r->no_claim = n_cl > 0;
    bool prev_hedge = false; /* the clause before was a hedge */
    for (size_t k = 0; k < n_cl; k++) {
        const struct clause *prev = k > 0 && !cl[k - 1].list ? &cl[k - 1] : NULL;
        bool hedge;
        if (cl[k].list) {
            r->list = true;
            continue; /* a list says nothing of anything */
        }
        if (cl[k].a < cl[k].b && ans[cl[k].a].rhetorical) {
            r->no_claim = false; /* a question put and denied: the denial is the claim */
            continue;
        }
        hedge = kv_hedges_hedge(ans, &cl[k]);
        r->hedged |= hedge;
        r->gave_up |= hedge;
        size_t before = r->n_found + r->n_contra, covered_before = 0;
        bool had[KV_MAX_POINTS]; /* covered by an earlier clause */
        for (size_t i = 0; i < n_pts; i++) {
            covered_before += r->covered[i];
            had[i] = r->covered[i];
        }
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
                 kvc_opens_with(ans, &cl[k],
                                p->polarity == KV_POLARITY_YES ? KV_POLARITY_NO
                                                               : KV_POLARITY_YES))) {
                r->contradicted[i] = true;
                r->n_contra++;
                kvc_quote(typed, ans, &cl[k], r->contra_quote[i], sizeof r->contra_quote[i]);
                continue;
            }
            if (hedge)
                continue; /* "it depends" covers nothing */
            if (p->about.n && p->said.n)
                hit = claim_in(&c, ans, &cl[k], about[i], said[i]) ||
                      (accept[i].n && said_in(&c, ans, &cl[k], accept[i])) ||
                      pronoun_claim(&c, ans, prev, &cl[k], about[i], said[i], abouts, n_abouts) ||
                      (shorts[i].n && kvc_short_in(&c, ans, &cl[k], shorts[i]));
            else
                hit = said_in(&c, ans, &cl[k], accept[i]) ||
                      (shorts[i].n && kvc_short_in(&c, ans, &cl[k], shorts[i]));
            hit = hit || (k == 0 && p->polarity != KV_POLARITY_NONE &&
                          kvc_opens_with(ans, &cl[k], p->polarity));
            hit = hit || kv_hedges_words_in(ans, &cl[k], &pw[i]);
            if (hit && kv_hedges_wrong_unit(ans, &cl[k], &pu[i])) {
                /* "448 GiB" for "448 MiB": the number asked, a wrong quantity */
                r->contradicted[i] = true;
                r->n_contra++;
                kvc_quote(typed, ans, &cl[k], r->contra_quote[i], sizeof r->contra_quote[i]);
            } else if (hit) {
                r->covered[i] = true;
                kvc_quote(typed, ans, &cl[k], r->quote[i], sizeof r->quote[i]);
            }
        }
        for (size_t m = 0; m < n_mis; m++) {
            if (r->found[m] || !about[n_pts + m].n || !said[n_pts + m].n)
                continue;
            /* the clause names the case where the claim holds: "prefill of a
             * 20-token prompt is memory-bound" is true, "prefill is" is not
             * (looked for only once the claim is found: the cases are many) */
            if ((claim_in(&c, ans, &cl[k], about[n_pts + m], said[n_pts + m]) ||
                 pronoun_claim(&c, ans, prev, &cl[k], about[n_pts + m], said[n_pts + m], abouts,
                               n_abouts)) &&
                !unless_case(&c, ans, cl, k, unless[m])) {
                r->found[m] = true;
                r->n_found++;
                kvc_quote(typed, ans, &cl[k], r->mis_quote[m], sizeof r->mis_quote[m]);
            }
        }
        /* a clause that names a misconception's `unless` case speaks of that
         * case ("prefill of a 20-token prompt is memory-bound"): no point's
         * claim turned round is read into it */
        bool special = false; /* the question's own cases: the course's are not this question's */
        for (size_t m = 0; m < n_own && !special; m++)
            special = unless_case(&c, ans, cl, k, unless[m]);
        if (!special) {
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
                    kvc_quote(typed, ans, &cl[k], r->contra_quote[i], sizeof r->contra_quote[i]);
                }
            /* "TPOT doesn't depend on batch size", "decode speed stays the
             * same": a clause that says a point's subject does not move, where
             * the point says it moves (of what the marker names, when it names
             * something), contradicts it, even where its words also covered
             * the point ("the KV cache is a fixed few megabytes per request
             * regardless of context length"): said and unsaid, it is not
             * covered. A point an earlier clause covered stays covered. */
            size_t mk, ob, oe, seg, sa, sb;
            if (kv_hedges_invariant(ans, &cl[k], &mk, &ob, &oe)) {
                /* the subject stands in the marker's own stretch of the clause:
                 * in "the step is memory-bound, the weights are read once no
                 * matter how many positions", what stays put is the weights' read */
                for (seg = mk; seg > cl[k].a && ans[seg].brk < KV_BRK_COMMA; seg--)
                    ;
                for (size_t i = 0; i < n_pts; i++)
                    if (!had[i] && !r->contradicted[i] && !rule[i] && about[i].n && moves[i] &&
                        kvc_subject_before(&c, ans, seg, mk, about[i], ob >= oe, &sa, &sb) &&
                        (ob >= oe || kvc_names_point(&c, ans, ob, oe, &pw[i], said[i], sa, sb))) {
                        r->contradicted[i] = true;
                        r->n_contra++;
                        kvc_quote(typed, ans, &cl[k], r->contra_quote[i],
                                  sizeof r->contra_quote[i]);
                    }
            }
        }
        {
            /* "depending on the setup", "maybe": vague words in a clause that
             * said nothing a point or misconception knows are a hedge too */
            size_t after = r->n_found + r->n_contra;
            for (size_t i = 0; i < n_pts; i++)
                after += r->covered[i];
            if (!hedge && after == before) {
                int vague = kv_hedges_vague(ans, &cl[k]);
                if (vague != KV_VAGUE_NONE || (prev_hedge && kv_hedges_generic(ans, &cl[k]))) {
                    hedge = true;
                    r->hedged = true;
                    r->left_open |= vague == KV_VAGUE_OPEN;
                }
            }
            prev_hedge = hedge;
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
     * learner checks. An answer that gives up on a clause ("it depends on
     * several factors") or leaves the question open ("sometimes it helps,
     * you'd have to measure it") and states none of the points is the
     * non-answer an interviewer marks down, whatever else it says in
     * passing */
    if (r->n_found || r->n_contra || (r->no_claim && r->got == 0) ||
        ((r->gave_up || r->left_open) && r->got == 0))
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
    free(unless);
    free(c.pool);
    free(c.gidx);
    free(c.seqs);
}
