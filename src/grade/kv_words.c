/* Words for the claim grader: the tokenizer, the stemmer and the verb list
 * (kv_words.h). */
#include "kv_words.h"

#include <stdio.h>
#include <string.h>

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

bool kv_words_has_digit(const char *w)
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
void kv_words_stem(char *w)
{
    size_t n = strlen(w);
    bool cut = false;

    if (kv_words_has_digit(w))
        return;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)w[i] >= 0x80)
            return;
    /* an adverb is its adjective: "identically" "identical", "repeatedly"
     * "repeated" ("apply", "multiply" are no adverbs; "hardly" stays) */
    if (n >= 7 && ends_with(w, n, "ly") && !ends_with(w, n, "ply")) {
        n -= 2;
        w[n] = '\0';
    }
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
    "be",        "is",        "are",        "was",        "were",      "am",        "been",
    "being",     "has",       "have",       "had",        "do",        "does",      "did",
    "done",      "can",       "could",      "will",       "would",     "shall",     "should",
    "may",       "might",     "must",       "accept",     "add",       "allow",     "amortize",
    "apply",     "arrive",    "ask",        "avoid",      "become",    "became",    "begin",
    "began",     "bring",     "brought",    "build",      "built",     "call",      "cap",
    "carry",     "cause",     "change",     "check",      "choose",    "chose",     "come",
    "came",      "compute",   "copy",       "cost",       "count",     "cover",     "create",
    "cut",       "decide",    "decrease",   "depend",     "divide",    "double",    "drop",
    "eat",       "emit",      "end",        "evict",      "exceed",    "expand",    "fall",
    "fell",      "fetch",     "fill",       "find",       "found",     "finish",    "fit",
    "follow",    "force",     "free",       "gain",       "get",       "got",       "give",
    "gave",      "given",     "go",         "goes",       "went",      "gone",      "grow",
    "grew",      "grown",     "halve",      "happen",     "help",      "hide",      "hit",
    "hold",      "held",      "idle",       "increase",   "keep",      "kept",      "know",
    "knew",      "known",     "land",       "last",       "lead",      "led",       "leave",
    "left",      "let",       "lie",        "limit",      "load",      "lose",      "lost",
    "make",      "made",      "matter",     "mean",       "meant",     "meet",      "met",
    "miss",      "move",      "multiply",   "need",       "offer",     "overlap",   "own",
    "pay",       "paid",      "perform",    "pick",       "place",     "process",   "produce",
    "push",      "put",       "raise",      "reach",      "read",      "recompute", "reduce",
    "reject",    "release",   "remain",     "remove",     "repeat",    "replace",   "require",
    "reserve",   "reuse",     "run",        "ran",        "save",      "say",       "said",
    "scale",     "see",       "saw",        "seen",       "send",      "sent",      "serve",
    "set",       "share",     "shrink",     "shrank",     "sit",       "skip",      "slow",
    "sort",      "spend",     "spent",      "split",      "spill",     "stall",     "start",
    "stay",      "stop",      "store",      "stream",     "swap",      "take",      "took",
    "taken",     "tell",      "told",       "tend",       "think",     "thought",   "touch",
    "trade",     "transfer",  "turn",       "understand", "use",       "vary",      "wait",
    "want",      "waste",     "win",        "won",        "work",      "write",     "wrote",
    "written",   "yield",     "saturate",   "dominate",   "determine", "dictate",   "drive",
    "drove",     "outweigh",  "exist",      "contain",    "depend",    "shift",     "sum",
    "equal",     "multiply",  "lower",      "raise",      "rise",      "rose",      "speed",
    "win",       "overflow",  "hurt",       "hog",        "stall",     "wait",      "sit",
    "stay",      "join",      "admit",      "enter",      "exit",      "complete",  "let",
    "allocate",  "assign",    "attend",     "balance",    "benefit",   "borrow",    "break",
    "broke",     "broken",    "calculate",  "climb",      "collect",   "combine",   "communicate",
    "compare",   "compete",   "consume",    "continue",   "convert",   "crash",     "deliver",
    "describe",  "differ",    "discard",    "displace",   "duplicate", "earn",      "enable",
    "ensure",    "estimate",  "explain",    "fail",       "feed",      "fed",       "flush",
    "gather",    "generate",  "guarantee",  "handle",     "ignore",    "imply",     "improve",
    "include",   "involve",   "launch",     "look",       "match",     "measure",   "merge",
    "occupy",    "occur",     "pack",       "pass",       "predict",   "prevent",   "provide",
    "receive",   "recover",   "reflect",    "rely",       "remember",  "represent", "restart",
    "restore",   "return",    "rewrite",    "seem",       "select",    "show",      "shown",
    "solve",     "spread",    "stand",      "stood",      "steal",     "stole",     "submit",
    "suffer",    "supply",    "support",    "survive",    "throttle",  "track",     "translate",
    "treat",     "try",       "update",     "wake",       "watch",     "worsen",    "halt",
    "starve",    "serialize", "preempt",    "recycle",    "hop",       "sync",      "synchronize",
    "talk",      "stretch",   "cross",      "mix",        "fix",       "trim",      "drain",
    "pile",      "stack",     "buy",        "sell",       "ride",      "burn",      "mask",
    "amortise",  "outpace",   "beat",       "assume",     "charge",    "double",    "triple",
    "quadruple", "divide",    "pay",        "spare",      "underuse",  "idle",      "sum",
    "fold",      "compress",  "absorb",     "accumulate", "encode",    "squeeze",   "grab",
    "carve",     "ingest",    "pull",       "drag",       "guess",     "verify",    "propose",
    "quantize",  "quantise",  "dequantize", "dequantise", "unpack",    "calibrate", "clip",
    "shard",     "replicate", "interleave", "rebuild",    "rebuilt",   "redo",      "refill",
    "reclaim",   "resume",    "hand",       "reference",  "belong",    "kill"};

static const char *const negators[] = {"not", "no", "never", "without", "neither", "nor", NULL};
const char *const kv_words_conjunctions[] = {"but", "while", "whereas", "although",
                                             "and", "or",    NULL};

bool kv_words_in(const char *w, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(w, *list) == 0)
            return true;
    return false;
}

/* Is the stem w one of the listed words' stems? */
bool kv_words_in_stems(const char *w, const char *const *list)
{
    char s[KV_STEM_MAX];
    for (; *list; list++) {
        /* a stem keeps its word's first letter: most words differ there */
        if ((*list)[0] != w[0])
            continue;
        snprintf(s, sizeof s, "%s", *list);
        kv_words_stem(s);
        if (strcmp(w, s) == 0)
            return true;
    }
    return false;
}

/* ---- tokens ---- */

struct tokenizer {
    struct kv_tok *out;
    size_t n, cap;
    unsigned char pending; /* the break seen since the last token */
    bool continuation;     /* the next word follows a hyphen */
    bool joined;           /* the word being emitted follows a hyphen */
    bool op;               /* an =, + or * since the last token */
    bool asked;            /* a question mark since the last token */
};

static void push(struct tokenizer *t, const char *s, unsigned start, unsigned end, bool word)
{
    struct kv_tok *k;
    if (t->n >= t->cap)
        return;
    k = &t->out[t->n++];
    memset(k, 0, sizeof *k);
    snprintf(k->s, sizeof k->s, "%s", s);
    k->neg = kv_words_in(k->s, negators);
    if (!k->neg)
        kv_words_stem(k->s);
    k->start = start;
    k->end = end;
    k->brk = t->pending;
    k->asked = t->asked;
    k->rhetorical = false;
    t->asked = false;
    k->word = word;
    k->joined = t->joined;
    k->op = t->op;
    t->joined = false;
    t->op = false;
    t->pending = KV_BRK_NONE;
}

/* The course's shorthand, read as the words it stands for, in answers and
 * phrasings alike: "BW-bound" is "bandwidth-bound", "seqs" "sequences",
 * "Q" "query". Whole terms that differ (TTFT, GQA) are the glossary's
 * (lua/glossary.lua); this is one word for one word. */
static const char *const shorthand[][2] = {
    {"bw", "bandwidth"},     {"seq", "sequence"},       {"seqs", "sequences"},
    {"req", "request"},      {"reqs", "requests"},      {"tok", "token"},
    {"toks", "tokens"},      {"param", "parameter"},    {"params", "parameters"},
    {"mem", "memory"},       {"ctx", "context"},        {"attn", "attention"},
    {"dim", "dimension"},    {"dims", "dimensions"},    {"q", "query"},
    {"qs", "queries"},       {"vram", "memory"},        {"thru", "through"},
    {"tput", "throughput"},  {"thruput", "throughput"}, {"util", "utilization"},
    {"perf", "performance"}, {"bsz", "batch"},          {"w/o", "without"},
};

static const char *unshort(const char *w)
{
    for (size_t i = 0; i < sizeof shorthand / sizeof shorthand[0]; i++)
        if (strcmp(w, shorthand[i][0]) == 0)
            return shorthand[i][1];
    return w;
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
    /* articles, and "even", which only stresses ("won't even load") */
    if (strcmp(w, "a") == 0 || strcmp(w, "an") == 0 || strcmp(w, "the") == 0 ||
        strcmp(w, "even") == 0) {
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
        if (strcmp(suf, "s") == 0 && kv_words_in(w, pronouns))
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
    if (kv_words_in(w, bare_nt)) {
        w[n - 2] = '\0';
        push(t, w, start, end, word);
        push(t, "not", start, end, false);
        return;
    }
    push(t, unshort(w), start, end, word);
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
    return kv_words_in(w, abbrevs);
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
size_t kv_words_tokenize(const char *text, struct kv_tok *out, size_t cap)
{
    struct tokenizer t = {out, 0, cap, KV_BRK_NONE, false, false, false, false};
    const unsigned char *s = (const unsigned char *)text;
    char w[KV_STEM_MAX * 2];
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
                set_break(&t, KV_BRK_LABEL);
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
            set_break(&t, KV_BRK_HARD);
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
        if (c == '.' || c == ';' || c == '?' || c == '!') {
            set_break(&t, KV_BRK_HARD);
            t.asked = c == '?'; /* the next token follows a question */
        } else if (c == ':')
            set_break(&t, KV_BRK_LABEL);
        else if (c == ',')
            set_break(&t, KV_BRK_COMMA);
        else if (c == '=' || c == '+' || c == '*' || c == '<' || c == '>' || c == '~')
            t.op = true;
        i++;
    }
    FLUSH();
#undef FLUSH
    return t.n;
}

/* A formula's operators: "(weights + KV) × steps/s ÷ peak", "budget minus
 * weights, over per-token KV" say what equals what. ("times" would be
 * "time": "step time" is a topic.) */
/* x, ÷, and the signs of a comparison or a consequence (→, ⇒, ≈, ≤, ≥,
 * −): "0.99 → no headroom", "waste < 1 block" are claims, not topics */
static const char *const formula_ops[] = {"\xc3\x97",     "\xc3\xb7",
                                          "divided",      "plus",
                                          "minus",        "over",
                                          "equals",       "\xe2\x86\x92",
                                          "\xe2\x87\x92", "\xe2\x89\x88",
                                          "\xe2\x89\xa4", "\xe2\x89\xa5",
                                          "\xe2\x88\x92", NULL};

static bool is_verb_stem(const struct kv_verbs *c, const char *s)
{
    static const char *const prefixes[] = {"re", "over", "under", "out", NULL};
    for (size_t i = 0; i < c->n; i++)
        if (strcmp(c->stems[i], s) == 0)
            return true;
    /* "rereads", "overfills", "underuses" */
    for (size_t p = 0; prefixes[p]; p++) {
        size_t k = strlen(prefixes[p]);
        if (strncmp(s, prefixes[p], k) == 0 && strlen(s) > k + 2)
            for (size_t i = 0; i < c->n; i++)
                if (strcmp(c->stems[i], s + k) == 0)
                    return true;
    }
    return false;
}

/* Whatever the list misses, a word right after "to", a modal or a subject
 * pronoun is a verb: "to summarise", "can thrash", "they share". */
static bool verb_by_place(const struct kv_tok *ans, size_t a, size_t i)
{
    static const char *const before[] = {"to",  "can",   "could", "will", "would", "must", "should",
                                         "may", "might", "do",    "did",  "it",    "they", "we",
                                         "you", "i",     "which", "who",  NULL};
    return i > a && !ans[i].joined && !kv_words_has_digit(ans[i].s) &&
           kv_words_in_stems(ans[i - 1].s, before);
}

/* A keyword list: more than six words (figures aside), no verb, and hardly
 * a preposition or "and" (fewer than one word in five): "about 15.7 GB for Qwen2.5-7B at 8k context
 * in BF16, for roughly 15 GFLOP of arithmetic" is prose that left its verb
 * behind, "decode memory-bound prefill compute-bound KV cache" is not. A
 * formula is not a list either: "(weights + KV bytes) × steps/s ÷ peak"
 * says what equals what, its operators standing for the verbs. */
bool kv_words_keyword_list(const struct kv_verbs *c, const struct kv_tok *ans, size_t a, size_t b)
{
    static const char *const preps[] = {
        "of",      "for",    "at",    "in",      "per",   "with",   "by",
        "from",    "to",     "on",    "into",    "than",  "as",     "each",
        "every",   "and",    "or",    "through", "via",   "across", "within",
        "between", "during", "after", "before",  "under", "about",  NULL};
    /* "because", "if", "when" ... subordinate a clause: prose, however terse */
    static const char *const subordinators[] = {"because", "since", "if",      "unless",
                                                "when",    "until", "whether", NULL};
    size_t words = 0, glue = 0;
    bool comma = false;
    for (size_t i = a; i < b; i++) {
        if (kv_words_in_stems(ans[i].s, subordinators))
            return false;
        /* "refresh, bank conflicts and controller overhead": a written series */
        comma |= i > a && ans[i].brk == KV_BRK_COMMA;
        if (comma && (strcmp(ans[i].s, "and") == 0 || strcmp(ans[i].s, "or") == 0))
            return false;
        bool compound = ans[i].joined || (i + 1 < b && ans[i + 1].joined);
        if (((is_verb_stem(c, ans[i].s) || verb_by_place(ans, a, i)) && !compound) || ans[i].neg ||
            (i > a && ans[i].op) || kv_words_in_stems(ans[i].s, formula_ops))
            return false;
        /* "roughly 470 MB (448 MiB) in bf16": figures are what is said, not topics */
        words += ans[i].word && !kv_words_has_digit(ans[i].s);
        glue += kv_words_in_stems(ans[i].s, preps);
    }
    return words > 6 && glue * 5 < words;
}

/* "fp8, scales, calibration, outliers": three or more items of at most four
 * words, separated by commas alone, none of them a clause of its own (no
 * auxiliary, modal or subject pronoun) and none opening with a preposition
 * or with "and"/"or" (a written series, "A, B and C", names things in a
 * sentence). A word that could be a verb ("stall", "transfer", "shared
 * prompt") is a noun here: the learner wrote topics, not claims. */
#define COMMA_ITEM_WORDS 4
bool kv_words_comma_list(const struct kv_tok *ans, size_t a, size_t b, size_t *items, size_t cap)
{
    static const char *const clause_words[] = {
        "is", "are",  "was", "were",  "be",   "been",  "has",  "have",   "had", "does",
        "do", "did",  "can", "could", "will", "would", "must", "should", "may", "might",
        "it", "they", "we",  "you",   "i",    "this",  "that", "which",  "who", NULL};
    static const char *const openers[] = {
        "of",   "for", "at",  "in", "per", "with", "by",      "from",  "to", "on",   "into",
        "than", "as",  "and", "or", "but", "so",   "because", "since", "if", "when", NULL};
    size_t n = 0, words = 0;
    if (b <= a)
        return false;
    for (size_t i = a; i <= b; i++) {
        if (i == b || (i > a && ans[i].brk == KV_BRK_COMMA)) {
            if (words == 0 || words > COMMA_ITEM_WORDS)
                return false;
            if (n < cap)
                items[n] = i;
            n++;
            words = 0;
            if (i == b)
                break;
        }
        if (words == 0 && kv_words_in_stems(ans[i].s, openers))
            return false;
        /* an operator word, not a glued "+": "k+1 positions" is a topic */
        if (kv_words_in_stems(ans[i].s, clause_words) || kv_words_in_stems(ans[i].s, formula_ops))
            return false;
        words += ans[i].word;
    }
    return n >= 3 && n <= cap;
}

/* One edit apart: Damerau's four slips, on words whose length differs by
 * at most one. The first letter must agree: a word that differs there is
 * another word ("refill" for "prefill", "encode" for "decode", "unbound"
 * for "inbound"), and a slip of the first letter is rare. */
#define TYPO_MIN 6
bool kv_words_typo(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b), i = 0;
    if (na < TYPO_MIN || nb < TYPO_MIN || (na > nb ? na - nb : nb - na) > 1 ||
        kv_words_has_digit(a) || kv_words_has_digit(b) || a[0] != b[0] || strcmp(a, b) == 0)
        return false;
    for (size_t k = 0; k < na; k++)
        if (!(a[k] >= 'a' && a[k] <= 'z'))
            return false;
    for (size_t k = 0; k < nb; k++)
        if (!(b[k] >= 'a' && b[k] <= 'z'))
            return false;
    while (i < na && i < nb && a[i] == b[i])
        i++;
    if (na == nb) {
        /* one changed letter, or two neighbours swapped */
        if (strcmp(a + i + 1, b + i + 1) == 0)
            return true;
        return i + 1 < na && a[i] == b[i + 1] && a[i + 1] == b[i] &&
               strcmp(a + i + 2, b + i + 2) == 0;
    }
    /* one letter added or dropped */
    return na > nb ? strcmp(a + i + 1, b + i) == 0 : strcmp(a + i, b + i + 1) == 0;
}

void kv_words_verbs(struct kv_verbs *v)
{
    v->n = 0;
    for (size_t k = 0; k < sizeof verb_list / sizeof verb_list[0] && v->n < KV_VERBS_MAX; k++) {
        snprintf(v->stems[v->n], KV_STEM_MAX, "%s", verb_list[k]);
        kv_words_stem(v->stems[v->n++]);
    }
}

bool kv_words_is_verb(const struct kv_verbs *v, const char *stem)
{
    return is_verb_stem(v, stem);
}
