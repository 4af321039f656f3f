/* kv_words.h: the words of a written answer, as the claim grader
 * (kv_claims.c) compares them. Private to src/grade.
 *
 * An answer becomes tokens: lower-case stems ("shares", "sharing" and
 * "shared" are all "shar"), without articles, with "isn't" read as "is
 * not" and "it's" as "it is"; each token records the break before it (a
 * comma, a full stop, a colon or dash) and whether it follows a hyphen. */
#ifndef KV_WORDS_H
#define KV_WORDS_H

#include <stdbool.h>
#include <stddef.h>

/* Breaks between words, weakest first. A label break (":" or a dash) ends a
 * clause like a full stop, except after a bare subject ("Decode: ...").
 * A comma is only a candidate: it ends a clause when the words after it name
 * what some point or misconception is about. */
enum kv_brk { KV_BRK_NONE, KV_BRK_COMMA, KV_BRK_HARD, KV_BRK_LABEL };

#define KV_STEM_MAX 32

struct kv_tok {
    char s[KV_STEM_MAX]; /* the stem */
    unsigned start, end; /* the word's bytes in the answer */
    unsigned char brk;   /* the break before this token */
    bool neg;            /* not, no, never, n't, without, neither, nor */
    bool word;           /* starts a written word (a hyphen's second half does not) */
    bool joined;         /* follows a hyphen: part of a compound ("compute-bound") */
    bool op;             /* follows an =, + or * : a formula's operator */
    bool typo_ok;        /* an answer's word the grader may read as a slip of typing */
    bool asked;          /* the break before it ends a question ("TP splits tokens? No: ...") */
    bool rhetorical;     /* in a question the answer goes on to deny (set by kv_claims) */
};

#define KV_VERBS_MAX 512

/* The verb list, stemmed once per grading. */
struct kv_verbs {
    char stems[KV_VERBS_MAX][KV_STEM_MAX];
    size_t n;
};

/* Cuts text into tokens; cap must be at least strlen(text) + 4. Returns
 * how many. Never fails; words past KV_STEM_MAX - 1 bytes are cut. */
size_t kv_words_tokenize(const char *text, struct kv_tok *out, size_t cap);

/* The stem of one lower-case word, in place. Words with digits or non-ASCII
 * letters stay as they are. */
void kv_words_stem(char *w);

/* w is one of the NULL-terminated list (exactly; a negator or a mark). */
bool kv_words_in(const char *w, const char *const *list);
/* the stem w is the stem of one of the listed words */
bool kv_words_in_stems(const char *w, const char *const *list);
bool kv_words_has_digit(const char *w);

/* "but", "while", "whereas", "although", "and", "or": where a clause may end. */
extern const char *const kv_words_conjunctions[];

void kv_words_verbs(struct kv_verbs *v);
/* The stem is a verb of the list, or one with re-, over-, under-, out-. */
bool kv_words_is_verb(const struct kv_verbs *v, const char *stem);

/* Tokens [a, b) are a keyword list: more than six words, no verb, no
 * negation, and fewer than one word in five a preposition. */
bool kv_words_keyword_list(const struct kv_verbs *v, const struct kv_tok *t, size_t a, size_t b);

/* Tokens [a, b) are a comma list: three or more items of at most four words
 * separated by commas alone, none a clause or the tail of a sentence. The
 * end of each item (a token index) goes into items; cap bounds them, and a
 * list of more than cap items is not one. */
bool kv_words_comma_list(const struct kv_tok *t, size_t a, size_t b, size_t *items, size_t cap);

/* a and b are the same word but for one slip of typing: both stems of six
 * letters or more, the first letter alike, one letter added, dropped,
 * changed or two swapped ("memroy", "memory"); never a number. */
bool kv_words_typo(const char *a, const char *b);

#endif
