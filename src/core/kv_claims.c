#include "kv_claims.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Breaks between words, weakest first. A label break (":" or a dash) ends a
 * clause like a full stop, except after a bare subject ("Decode: ...").
 * A comma is only a candidate: it ends a clause when the words after it name
 * what some point or misconception is about. */
enum brk { BRK_NONE, BRK_COMMA, BRK_HARD, BRK_LABEL };

#define STEM_MAX 32

struct tok {
    char s[STEM_MAX];    /* the stem */
    unsigned start, end; /* the word's bytes in the answer */
    unsigned char brk;   /* the break before this token */
    bool neg;            /* not, no, never, n't, without, neither, nor */
    bool word;           /* starts a written word (a hyphen's second half does not) */
    bool joined;         /* follows a hyphen: part of a compound ("compute-bound") */
};

struct seq {
    size_t off, n; /* tokens in the pool */
    bool neg;      /* the phrasing holds its own negation: matched as written */
    bool prefix;   /* a plain phrasing: its last word may begin a longer one ("quantiz") */
};

struct set {
    size_t first, n; /* seqs */
};

struct ctx {
    struct tok *pool;
    size_t n_pool, cap_pool;
    struct seq *seqs;
    size_t n_seqs, cap_seqs;
    bool oom;
    char (*verbs)[STEM_MAX];
    size_t n_verbs;
};

/* ---- words ---- */

static bool is_word_byte(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c >= 0x80;
}

static bool ends_with(const char *w, size_t n, const char *suf)
{
    size_t k = strlen(suf);
    return n >= k && memcmp(w + n - k, suf, k) == 0;
}

static bool has_digit(const char *w)
{
    for (; *w; w++)
        if (*w >= '0' && *w <= '9')
            return true;
    return false;
}

/* One stem for a word's forms: "share", "shares", "sharing", "shared" are
 * all "shar"; "batches" and "batching" "batch"; "copies" "copy". Both the
 * answer and the phrasings go through it, so it need only be consistent,
 * not linguistically right. Words with digits or non-ASCII letters stay. */
static void stem(char *w)
{
    size_t n = strlen(w);
    bool cut = false;

    if (has_digit(w))
        return;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)w[i] >= 0x80)
            return;
    if (n > 4 && (ends_with(w, n, "ies") || ends_with(w, n, "ied"))) {
        w[n - 3] = 'y';
        w[n - 2] = '\0';
        return;
    } else if (n > 5 && ends_with(w, n, "ing")) {
        n -= 3;
        cut = true;
    } else if (n > 4 && ends_with(w, n, "ed") && !ends_with(w, n, "eed")) {
        n -= 2;
        cut = true;
    } else if (n > 4 && (ends_with(w, n, "ches") || ends_with(w, n, "shes") ||
                         ends_with(w, n, "sses") || ends_with(w, n, "xes"))) {
        n -= 2;
    } else if (n > 3 && w[n - 1] == 's' && !ends_with(w, n, "ss") && !ends_with(w, n, "is") &&
               !ends_with(w, n, "ous")) {
        n -= 1;
    }
    w[n] = '\0';
    /* "running" -> "run", "stopped" -> "stop" */
    if (cut && n >= 4 && w[n - 1] == w[n - 2] && strchr("bdgmnprt", w[n - 1]))
        w[--n] = '\0';
    if (n > 3 && w[n - 1] == 'e')
        w[--n] = '\0';
}

/* Verbs tell a sentence from a keyword list. Nouns of the course that are
 * also verbs (cache, batch, page, schedule, token) are left out: in a list
 * they are nouns. */
static const char *const verb_list[] = {
    "be",        "is",        "are",       "was",        "were",      "am",        "been",
    "being",     "has",       "have",      "had",        "do",        "does",      "did",
    "done",      "can",       "could",     "will",       "would",     "shall",     "should",
    "may",       "might",     "must",      "accept",     "add",       "allow",     "amortize",
    "apply",     "arrive",    "ask",       "avoid",      "become",    "became",    "begin",
    "began",     "bring",     "brought",   "build",      "built",     "call",      "cap",
    "carry",     "cause",     "change",    "check",      "choose",    "chose",     "come",
    "came",      "compute",   "copy",      "cost",       "count",     "cover",     "create",
    "cut",       "decide",    "decrease",  "depend",     "divide",    "double",    "drop",
    "eat",       "emit",      "end",       "evict",      "exceed",    "expand",    "fall",
    "fell",      "fetch",     "fill",      "find",       "found",     "finish",    "fit",
    "follow",    "force",     "free",      "gain",       "get",       "got",       "give",
    "gave",      "given",     "go",        "goes",       "went",      "gone",      "grow",
    "grew",      "grown",     "halve",     "happen",     "help",      "hide",      "hit",
    "hold",      "held",      "idle",      "increase",   "keep",      "kept",      "know",
    "knew",      "known",     "land",      "last",       "lead",      "led",       "leave",
    "left",      "let",       "lie",       "limit",      "load",      "lose",      "lost",
    "make",      "made",      "matter",    "mean",       "meant",     "meet",      "met",
    "miss",      "move",      "multiply",  "need",       "offer",     "overlap",   "own",
    "pay",       "paid",      "perform",   "pick",       "place",     "process",   "produce",
    "push",      "put",       "raise",     "reach",      "read",      "recompute", "reduce",
    "reject",    "release",   "remain",    "remove",     "repeat",    "replace",   "require",
    "reserve",   "reuse",     "run",       "ran",        "save",      "say",       "said",
    "scale",     "see",       "saw",       "seen",       "send",      "sent",      "serve",
    "set",       "share",     "shrink",    "shrank",     "sit",       "skip",      "slow",
    "sort",      "spend",     "spent",     "split",      "spill",     "stall",     "start",
    "stay",      "stop",      "store",     "stream",     "swap",      "take",      "took",
    "taken",     "tell",      "told",      "tend",       "think",     "thought",   "touch",
    "trade",     "transfer",  "turn",      "understand", "use",       "vary",      "wait",
    "want",      "waste",     "win",       "won",        "work",      "write",     "wrote",
    "written",   "yield",     "saturate",  "dominate",   "determine", "dictate",   "drive",
    "drove",     "outweigh",  "exist",     "contain",    "depend",    "shift",     "sum",
    "equal",     "multiply",  "lower",     "raise",      "rise",      "rose",      "speed",
    "win",       "overflow",  "hurt",      "hog",        "stall",     "wait",      "sit",
    "stay",      "join",      "admit",     "enter",      "exit",      "complete",  "let",
    "allocate",  "assign",    "attend",    "balance",    "benefit",   "borrow",    "break",
    "broke",     "broken",    "calculate", "climb",      "collect",   "combine",   "communicate",
    "compare",   "compete",   "consume",   "continue",   "convert",   "crash",     "deliver",
    "describe",  "differ",    "discard",   "displace",   "duplicate", "earn",      "enable",
    "ensure",    "estimate",  "explain",   "fail",       "feed",      "fed",       "flush",
    "gather",    "generate",  "guarantee", "handle",     "ignore",    "imply",     "improve",
    "include",   "involve",   "launch",    "look",       "match",     "measure",   "merge",
    "occupy",    "occur",     "pack",      "pass",       "predict",   "prevent",   "provide",
    "receive",   "recover",   "reflect",   "rely",       "remember",  "represent", "restart",
    "restore",   "return",    "rewrite",   "seem",       "select",    "show",      "shown",
    "solve",     "spread",    "stand",     "stood",      "steal",     "stole",     "submit",
    "suffer",    "supply",    "support",   "survive",    "throttle",  "track",     "translate",
    "treat",     "try",       "update",    "wake",       "watch",     "worsen",    "halt",
    "starve",    "serialize", "preempt",   "recycle",    "hop",       "sync",      "synchronize",
    "talk",      "stretch",   "cross",     "mix",        "fix",       "trim",      "drain",
    "pile",      "stack",     "buy",       "sell",       "ride",      "burn",      "mask",
    "amortise",  "outpace",   "beat",      "assume",     "charge",    "double",    "triple",
    "quadruple", "divide",    "pay",       "spare",      "underuse",  "idle",      "sum"};

static const char *const negators[] = {"not", "no", "never", "without", "neither", "nor", NULL};
static const char *const conjunctions[] = {"but", "while", "whereas", "although",
                                           "and", "or",    NULL};

static bool in_list(const char *w, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(w, *list) == 0)
            return true;
    return false;
}

static void stem(char *w);

/* Is the stem w one of the listed words' stems? */
static bool in_stems(const char *w, const char *const *list)
{
    char s[STEM_MAX];
    for (; *list; list++) {
        snprintf(s, sizeof s, "%s", *list);
        stem(s);
        if (strcmp(w, s) == 0)
            return true;
    }
    return false;
}

/* ---- tokens ---- */

struct tokenizer {
    struct tok *out;
    size_t n, cap;
    unsigned char pending; /* the break seen since the last token */
    bool continuation;     /* the next word follows a hyphen */
    bool joined;           /* the word being emitted follows a hyphen */
};

static void push(struct tokenizer *t, const char *s, unsigned start, unsigned end, bool word)
{
    struct tok *k;
    if (t->n >= t->cap)
        return;
    k = &t->out[t->n++];
    memset(k, 0, sizeof *k);
    snprintf(k->s, sizeof k->s, "%s", s);
    k->neg = in_list(k->s, negators);
    if (!k->neg)
        stem(k->s);
    k->start = start;
    k->end = end;
    k->brk = t->pending;
    k->word = word;
    k->joined = t->joined;
    t->joined = false;
    t->pending = BRK_NONE;
}

/* One written word (lower case, apostrophes kept) becomes one or two tokens:
 * "isn't" is "is not", "it's" "it is", "decode's" "decode"; articles go. */
static void emit_word(struct tokenizer *t, char *w, unsigned start, unsigned end)
{
    static const char *const bare_nt[] = {
        "isnt",   "arent", "doesnt", "dont",  "didnt",    "wont",    "cant",    "wasnt",
        "werent", "hasnt", "havent", "hadnt", "shouldnt", "couldnt", "wouldnt", NULL};
    static const char *const pronouns[] = {"it",  "that", "what",  "there", "here", "he",
                                           "she", "who",  "where", "how",   "this", NULL};
    bool word = !t->continuation;
    char *apo;
    size_t n;

    t->joined = t->continuation;
    t->continuation = false;
    while (*w == '\'')
        w++;
    n = strlen(w);
    while (n > 0 && w[n - 1] == '\'')
        w[--n] = '\0';
    if (n == 0)
        return;
    if (strcmp(w, "a") == 0 || strcmp(w, "an") == 0 || strcmp(w, "the") == 0) {
        return;
    }
    apo = strrchr(w, '\'');
    if (apo) {
        const char *suf = apo + 1;
        *apo = '\0';
        if (strcmp(suf, "t") == 0 && apo > w && apo[-1] == 'n') {
            apo[-1] = '\0';
            if (strcmp(w, "ca") == 0)
                strcpy(w, "can");
            else if (strcmp(w, "wo") == 0)
                strcpy(w, "will");
            if (*w)
                push(t, w, start, end, word);
            push(t, "not", start, end, false);
            return;
        }
        push(t, w, start, end, word);
        if (strcmp(suf, "s") == 0 && in_list(w, pronouns))
            push(t, "is", start, end, false);
        else if (strcmp(suf, "re") == 0)
            push(t, "are", start, end, false);
        else if (strcmp(suf, "ve") == 0)
            push(t, "have", start, end, false);
        else if (strcmp(suf, "ll") == 0)
            push(t, "will", start, end, false);
        else if (strcmp(suf, "d") == 0)
            push(t, "would", start, end, false);
        else if (strcmp(suf, "m") == 0)
            push(t, "am", start, end, false);
        return;
    }
    if (strcmp(w, "cannot") == 0) {
        push(t, "can", start, end, word);
        push(t, "not", start, end, false);
        return;
    }
    if (in_list(w, bare_nt)) {
        w[n - 2] = '\0';
        push(t, w, start, end, word);
        push(t, "not", start, end, false);
        return;
    }
    push(t, w, start, end, word);
}

static void set_break(struct tokenizer *t, unsigned char b)
{
    if (b > t->pending)
        t->pending = b;
    t->continuation = false;
}

static bool is_abbrev(const char *w)
{
    static const char *const abbrevs[] = {"e.g", "i.e", "vs", "etc", "approx",
                                          "cf",  "eg",  "ie", NULL};
    return in_list(w, abbrevs);
}

/* The length of a UTF-8 character of punctuation we read specially, and
 * what it is: 'h' hyphen, 'd' dash, '\'' apostrophe, ' ' a space or double
 * quote, '.' an ellipsis; 0 for anything else. */
static int special(const unsigned char *p, size_t *len)
{
    if (p[0] == 0xC2 && p[1] == 0xA0) {
        *len = 2;
        return ' ';
    }
    if (p[0] != 0xE2 || p[1] != 0x80)
        return 0;
    *len = 3;
    switch (p[2]) {
    case 0x90:
    case 0x91:
        return 'h';
    case 0x92:
    case 0x93:
    case 0x94:
    case 0x95:
        return 'd';
    case 0x98:
    case 0x99:
        return '\'';
    case 0x9C:
    case 0x9D:
    case 0x89:
    case 0xAF:
        return ' ';
    case 0xA6:
        return '.';
    default:
        return 0;
    }
}

/* Cuts text into tokens; cap must be at least strlen(text) + 4. */
static size_t tokenize(const char *text, struct tok *out, size_t cap)
{
    struct tokenizer t = {out, 0, cap, BRK_NONE, false, false};
    const unsigned char *s = (const unsigned char *)text;
    char w[STEM_MAX * 2];
    size_t wn = 0, i = 0;
    unsigned wstart = 0;
    bool in_word = false;

#define FLUSH()                                                                                    \
    do {                                                                                           \
        if (in_word) {                                                                             \
            w[wn] = '\0';                                                                          \
            emit_word(&t, w, wstart, (unsigned)i);                                                 \
            in_word = false;                                                                       \
            wn = 0;                                                                                \
        }                                                                                          \
    } while (0)

    while (s[i]) {
        size_t len = 1;
        int sp = special(s + i, &len);
        unsigned char c = s[i];
        bool prev_word = i > 0 && in_word;

        if (sp == 'h' || sp == 'd' || (sp == 0 && c == '-')) {
            /* between two word characters a hyphen or an en dash joins them; an em dash,
             * or a dash between spaces, ends a clause */
            bool next_word = is_word_byte(s[i + len]) && special(s + i + len, &(size_t){0}) == 0;
            bool em = sp == 'd' && (s[i + 2] == 0x94 || s[i + 2] == 0x95);
            if (prev_word && next_word && !em) {
                FLUSH();
                t.continuation = true;
            } else if (sp == 'h' || (c == '-' && s[i + 1] != '-' && !(i > 0 && s[i - 1] == '-') &&
                                     !(i > 0 && s[i - 1] == ' ' && s[i + 1] == ' '))) {
                FLUSH(); /* a stray hyphen: a space */
            } else {
                FLUSH();
                set_break(&t, BRK_LABEL);
            }
            i += len;
            continue;
        }
        if (sp == '\'' || (sp == 0 && c == '\'')) {
            if (in_word && wn + 1 < sizeof w)
                w[wn++] = '\'';
            i += len;
            continue;
        }
        if (sp == ' ') {
            FLUSH();
            i += len;
            continue;
        }
        if (sp == '.') {
            FLUSH();
            set_break(&t, BRK_HARD);
            i += len;
            continue;
        }
        if (sp == 0 && is_word_byte(c)) {
            if (!in_word) {
                in_word = true;
                wstart = (unsigned)i;
            }
            if (wn + 1 < sizeof w)
                w[wn++] = (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
            i++;
            continue;
        }
        /* ASCII punctuation */
        if ((c == '.' || c == ':' || c == ',') && in_word && s[i + 1] >= '0' && s[i + 1] <= '9' &&
            wn > 0 && w[wn - 1] >= '0' && w[wn - 1] <= '9') {
            if (wn + 1 < sizeof w)
                w[wn++] = (char)c; /* 1.5, 1:8, 57,344 */
            i++;
            continue;
        }
        if (c == '.' && in_word && wn <= 1 && is_word_byte(s[i + 1]) && s[i + 1] < 0x80) {
            if (wn + 1 < sizeof w)
                w[wn++] = '.'; /* e.g */
            i++;
            continue;
        }
        if (c == '.' && in_word) {
            w[wn] = '\0';
            if (is_abbrev(w)) {
                FLUSH();
                i++;
                continue;
            }
        }
        FLUSH();
        if (c == '.' || c == ';' || c == '?' || c == '!')
            set_break(&t, BRK_HARD);
        else if (c == ':')
            set_break(&t, BRK_LABEL);
        else if (c == ',')
            set_break(&t, BRK_COMMA);
        i++;
    }
    FLUSH();
#undef FLUSH
    return t.n;
}

/* ---- phrasings ---- */

static size_t pool_add(struct ctx *c, const struct tok *t, size_t n)
{
    size_t off = c->n_pool;
    if (c->n_pool + n > c->cap_pool) {
        size_t cap = (c->cap_pool ? c->cap_pool * 2 : 256) + n;
        struct tok *p = realloc(c->pool, cap * sizeof *p);
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

static void seq_add(struct ctx *c, const struct tok *t, size_t n)
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

static bool seq_eq_at(const struct tok *hay, size_t n_hay, size_t at, const struct tok *needle,
                      size_t n, bool prefix)
{
    if (at + n > n_hay)
        return false;
    for (size_t k = 0; k < n; k++) {
        if (prefix && k + 1 == n) {
            if (strncmp(hay[at + k].s, needle[k].s, strlen(needle[k].s)) != 0)
                return false;
        } else if (strcmp(hay[at + k].s, needle[k].s) != 0) {
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
    struct tok t[PHRASE_TOKS], v[PHRASE_TOKS * 2];
    size_t total = (ph ? ph->n : 0) + (extra != NULL);

    for (size_t i = 0; i < total; i++) {
        const char *p = i < (ph ? ph->n : 0) ? ph->v[i] : extra;
        size_t n, variants = 0;
        if (!p || strlen(p) + 4 > PHRASE_TOKS)
            continue;
        n = tokenize(p, t, PHRASE_TOKS);
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

/* ---- clauses ---- */

struct clause {
    size_t a, b; /* tokens [a, b) */
    bool list;   /* a keyword list */
};

/* The first place in [a, b) at or after `from` where one of the set's
 * phrasings starts; its length in *len. SIZE_MAX when none. */
static size_t find_in(const struct ctx *c, const struct tok *ans, size_t a, size_t b, size_t from,
                      struct set s, size_t *len, const struct seq **which)
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

static bool names_about(const struct ctx *c, const struct tok *ans, size_t a, size_t b,
                        const struct set *abouts, size_t n_abouts)
{
    size_t len;
    for (size_t k = 0; k < n_abouts; k++)
        if (find_in(c, ans, a, b, a, abouts[k], &len, NULL) != SIZE_MAX)
            return true;
    return false;
}

/* Is [a, b) only what the item is about, with a preposition or two: a label
 * like "Decode:" that the words after it complete? */
static bool only_about(const struct ctx *c, const struct tok *ans, size_t a, size_t b,
                       const struct set *abouts, size_t n_abouts)
{
    static const char *const glue[] = {"for", "in", "during", "on", "with", "at", NULL};
    size_t i = a;
    bool any = false;
    while (i < b) {
        size_t best = 0, len;
        if (in_stems(ans[i].s, glue)) {
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

static bool is_verb_stem(const struct ctx *c, const char *s)
{
    static const char *const prefixes[] = {"re", "over", "under", "out", NULL};
    for (size_t i = 0; i < c->n_verbs; i++)
        if (strcmp(c->verbs[i], s) == 0)
            return true;
    /* "rereads", "overfills", "underuses" */
    for (size_t p = 0; prefixes[p]; p++) {
        size_t k = strlen(prefixes[p]);
        if (strncmp(s, prefixes[p], k) == 0 && strlen(s) > k + 2)
            for (size_t i = 0; i < c->n_verbs; i++)
                if (strcmp(c->verbs[i], s + k) == 0)
                    return true;
    }
    return false;
}

/* Whatever the list misses, a word right after "to", a modal or a subject
 * pronoun is a verb: "to summarise", "can thrash", "they share". */
static bool verb_by_place(const struct tok *ans, size_t a, size_t i)
{
    static const char *const before[] = {"to",  "can",   "could", "will", "would", "must", "should",
                                         "may", "might", "do",    "did",  "it",    "they", "we",
                                         "you", "i",     "which", "who",  NULL};
    return i > a && !ans[i].joined && !has_digit(ans[i].s) && in_stems(ans[i - 1].s, before);
}

/* A keyword list: more than six words, no verb, and hardly a preposition
 * (fewer than one word in five): "about 15.7 GB for Qwen2.5-7B at 8k context
 * in BF16, for roughly 15 GFLOP of arithmetic" is prose that left its verb
 * behind, "decode memory-bound prefill compute-bound KV cache" is not. */
static bool keyword_list(const struct ctx *c, const struct tok *ans, size_t a, size_t b)
{
    static const char *const preps[] = {"of", "for", "at",   "in",   "per", "with", "by",    "from",
                                        "to", "on",  "into", "than", "as",  "each", "every", NULL};
    size_t words = 0, glue = 0;
    for (size_t i = a; i < b; i++) {
        bool compound = ans[i].joined || (i + 1 < b && ans[i + 1].joined);
        if (((is_verb_stem(c, ans[i].s) || verb_by_place(ans, a, i)) && !compound) || ans[i].neg)
            return false;
        words += ans[i].word;
        glue += in_list(ans[i].s, preps);
    }
    return words > 6 && glue * 5 < words;
}

static size_t clauses(const struct ctx *c, const struct tok *ans, size_t n,
                      const struct set *abouts, size_t n_abouts, struct clause *out)
{
    size_t n_out = 0, a = 0;

    while (a < n) {
        size_t b = a + 1;
        while (b < n && ans[b].brk < BRK_HARD)
            b++;
        /* "Decode: memory-bound": the label joins what follows it */
        while (b < n && ans[b].brk == BRK_LABEL && only_about(c, ans, a, b, abouts, n_abouts)) {
            b++;
            while (b < n && ans[b].brk < BRK_HARD)
                b++;
        }
        /* soft breaks: before a conjunction or at a comma, when what follows names an about;
         * a sentence that is a keyword list makes lists of all its clauses */
        {
            size_t start = a, cut = a, first = n_out;
            bool list = keyword_list(c, ans, a, b);
            for (size_t i = a + 1; i <= b; i++) {
                bool cand = i < b && (ans[i].brk == BRK_COMMA || in_stems(ans[i].s, conjunctions));
                if (!cand && i < b)
                    continue;
                /* [cut, i) is the stretch after the last candidate */
                if (cut > start && names_about(c, ans, cut, i, abouts, n_abouts)) {
                    out[n_out++] = (struct clause){start, cut, false};
                    start = cut;
                }
                cut = i;
            }
            out[n_out++] = (struct clause){start, b, false};
            for (size_t i = first; i < n_out; i++)
                out[i].list = list || keyword_list(c, ans, out[i].a, out[i].b);
        }
        a = b;
    }
    return n_out;
}

/* Is the phrasing found at `at` negated in its clause: a negator at most
 * NEG_REACH tokens before it ("is not at all memory-bound", "neither prefill
 * nor decode is"), with no "but" between ("not compute-bound but
 * memory-bound")? Further back, a negator is about something else ("with
 * no margin a server can run out of memory"). */
#define NEG_REACH 4
static bool negated_at(const struct tok *ans, size_t a, size_t at)
{
    bool neg = false;
    for (size_t i = at > a + NEG_REACH ? at - NEG_REACH : a; i < at; i++) {
        if (ans[i].neg)
            neg = true;
        else if (strcmp(ans[i].s, "but") == 0 || strcmp(ans[i].s, "rather") == 0)
            neg = false;
    }
    return neg;
}

/* A phrasing of the set stands in the clause and is not negated there. */
static bool said_in(const struct ctx *c, const struct tok *ans, const struct clause *cl,
                    struct set s, size_t avoid_a, size_t avoid_b, bool check_avoid)
{
    for (size_t i = cl->a; i < cl->b; i++)
        for (size_t k = 0; k < s.n; k++) {
            const struct seq *q = &c->seqs[s.first + k];
            if (i + q->n > cl->b || !seq_eq_at(ans, cl->b, i, c->pool + q->off, q->n, q->prefix))
                continue;
            if (check_avoid && i < avoid_b && i + q->n > avoid_a)
                continue; /* the same words cannot be both the subject and the claim */
            if (q->neg || !negated_at(ans, cl->a, i))
                return true;
        }
    return false;
}

static bool claim_in(const struct ctx *c, const struct tok *ans, const struct clause *cl,
                     struct set about, struct set said)
{
    size_t len;
    for (size_t from = cl->a;;) {
        size_t at = find_in(c, ans, cl->a, cl->b, from, about, &len, NULL);
        if (at == SIZE_MAX)
            return false;
        if (said_in(c, ans, cl, said, at, at + len, true))
            return true;
        from = at + 1;
    }
}

/* "Decode isn't compute-bound; it's memory-bound": a clause that opens with
 * a pronoun and names no subject of its own speaks of the one before. */
static bool pronoun_claim(const struct ctx *c, const struct tok *ans, const struct clause *prev,
                          const struct clause *cl, struct set about, struct set said,
                          const struct set *abouts, size_t n_abouts)
{
    static const char *const pronouns[] = {"it", "they", "this", "that", "which", NULL};
    size_t len, a = cl->a;
    while (a < cl->b && in_stems(ans[a].s, conjunctions))
        a++;
    if (!prev || a >= cl->b || !in_stems(ans[a].s, pronouns) ||
        names_about(c, ans, cl->a, cl->b, abouts, n_abouts))
        return false;
    return find_in(c, ans, prev->a, prev->b, prev->a, about, &len, NULL) != SIZE_MAX &&
           said_in(c, ans, cl, said, 0, 0, false);
}

/* The clause is the short phrasing, give or take "it is" and "phase". */
static bool short_in(const struct ctx *c, const struct tok *ans, const struct clause *cl,
                     struct set s)
{
    static const char *const lead[] = {"it",     "is",   "that", "this",       "its",
                                       "answer", "only", "just", "definitely", "clearly",
                                       "mostly", "well", NULL};
    static const char *const trail[] = {"phase", "stage", "step", "side", "one", NULL};
    size_t a = cl->a, b = cl->b;

    while (a < b && in_stems(ans[a].s, lead))
        a++;
    while (b > a && in_stems(ans[b - 1].s, trail))
        b--;
    for (size_t k = 0; k < s.n; k++) {
        const struct seq *q = &c->seqs[s.first + k];
        if (q->n == b - a && seq_eq_at(ans, b, a, c->pool + q->off, q->n, false))
            return true;
    }
    return false;
}

static void quote(const char *typed, const struct tok *ans, const struct clause *cl, char *out,
                  size_t cap)
{
    /* "and decode is compute-bound" is quoted as "decode is compute-bound" */
    size_t first = cl->a + 1 < cl->b && in_stems(ans[cl->a].s, conjunctions) ? cl->a + 1 : cl->a;
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
    char w[STEM_MAX], v[STEM_MAX];
    size_t i;
    for (i = 0; word[i] && i + 1 < sizeof w; i++)
        w[i] = (char)(word[i] >= 'A' && word[i] <= 'Z' ? word[i] - 'A' + 'a' : word[i]);
    w[i] = '\0';
    stem(w);
    for (size_t k = 0; k < sizeof verb_list / sizeof verb_list[0]; k++) {
        snprintf(v, sizeof v, "%s", verb_list[k]);
        stem(v);
        if (strcmp(v, w) == 0)
            return true;
    }
    return false;
}

void kv_claims_grade(const struct kv_text_item *item, const char *typed, struct kv_text_result *r)
{
    struct ctx c = {0};
    size_t n_pts = item->n_points < KV_MAX_POINTS ? item->n_points : KV_MAX_POINTS;
    size_t n_mis = item->n_mis < KV_MAX_MISCONCEPTIONS ? item->n_mis : KV_MAX_MISCONCEPTIONS;
    size_t len = typed ? strlen(typed) : 0, n_ans, n_cl, n_gloss = 0, n_abouts = 0;
    struct set *gloss = NULL, *abouts = NULL, *accept = NULL, *about = NULL, *said = NULL,
               *shorts = NULL;
    struct tok *ans = NULL;
    struct clause *cl = NULL;
    char verbs[sizeof verb_list / sizeof verb_list[0]][STEM_MAX];

    memset(r, 0, sizeof *r);
    r->verdict = KV_INVALID;
    if (len > KV_TEXT_MAX) {
        snprintf(r->why, sizeof r->why,
                 "the answer is %zu bytes; answers are graded whole up to %d KiB: shorten it", len,
                 KV_TEXT_MAX / 1024);
        return;
    }
    for (size_t k = 0; k < sizeof verb_list / sizeof verb_list[0]; k++) {
        snprintf(verbs[k], STEM_MAX, "%s", verb_list[k]);
        stem(verbs[k]);
    }
    c.verbs = verbs;
    c.n_verbs = sizeof verb_list / sizeof verb_list[0];

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
    n_ans = tokenize(typed ? typed : "", ans, len + 4);
    /* "No, decode is..." and "Yes." answer the question: they negate nothing */
    for (size_t i = 0; i < n_ans; i++)
        if ((strcmp(ans[i].s, "no") == 0 || strcmp(ans[i].s, "yes") == 0) &&
            (i == 0 || ans[i].brk >= BRK_COMMA) && (i + 1 == n_ans || ans[i + 1].brk >= BRK_COMMA))
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
    n_cl = clauses(&c, ans, n_ans, abouts, n_abouts, cl);

    for (size_t k = 0; k < n_cl; k++) {
        const struct clause *prev = k > 0 && !cl[k - 1].list ? &cl[k - 1] : NULL;
        if (cl[k].list) {
            r->list = true;
            continue; /* a list says nothing of anything */
        }
        for (size_t i = 0; i < n_pts; i++) {
            const struct kv_point *p = &item->points[i];
            bool hit;
            if (r->covered[i])
                continue;
            if (p->about.n && p->said.n)
                hit = claim_in(&c, ans, &cl[k], about[i], said[i]) ||
                      (accept[i].n && said_in(&c, ans, &cl[k], accept[i], 0, 0, false)) ||
                      pronoun_claim(&c, ans, prev, &cl[k], about[i], said[i], abouts, n_abouts) ||
                      (shorts[i].n && short_in(&c, ans, &cl[k], shorts[i]));
            else
                hit = said_in(&c, ans, &cl[k], accept[i], 0, 0, false) ||
                      (shorts[i].n && short_in(&c, ans, &cl[k], shorts[i]));
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
    }
    for (size_t i = 0; i < n_pts; i++) {
        r->total += item->points[i].weight;
        r->got += r->covered[i] ? item->points[i].weight : 0;
    }
    r->score = r->total > 0 ? r->got / r->total : 0;
    if (r->n_found && r->score >= KV_TEXT_PASS)
        r->score = KV_TEXT_PASS - 0.01;
    r->verdict = r->n_found == 0 && r->score >= KV_TEXT_PASS ? KV_CORRECT : KV_WRONG;
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
