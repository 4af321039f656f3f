/* The course map's search in one lesson (lx_search.h): where the words are
 * found, in the order the reader shows the lesson; the snippet around them;
 * ASCII letters in either case and nothing else folded; never in what the
 * learner has not answered yet (a follow-up's model answer, a hint). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <cmocka.h>

#include "lx_search.h"

static struct lx_section sections[] = {
    {"Why it fills up", "Every running sequence keeps its keys and values.", 1},
    {"Blocks",
     "vLLM hands out memory in blocks of [16] tokens, so a request wastes at most one "
     "partial block of the cache, which is why PagedAttention helps under a long tail "
     "of request lengths and many concurrent sequences sharing one GPU, the pool "
     "being carved up as the scheduler admits each new request.",
     2},
};
static const char *hints[] = {"multiply by the secret factor"};
static struct lx_followup followups[] = {
    {"How would you halve it?", "Store the cache in fp8 instead.", NULL, 0, NULL, 0, 3},
    {"Why is 0.99 risky?", "No headroom is left.", NULL, 0, NULL, 0, 4},
};
static struct lx_exercise exercises[2];

static struct lx_lesson lesson(void)
{
    struct lx_lesson l = {0};
    l.id = "kv-cache";
    l.title = "The KV cache caps concurrency";
    l.concept = "kv-memory";
    l.question = "Why does the KV cache cap concurrency?";
    l.answer = "Each sequence keeps its keys and values in GPU memory.";
    l.worked = "2 x 28 x 4 x 128 x 2 = 57,344 B";
    l.sections = sections;
    l.n_sections = 2;
    l.followups = followups;
    l.n_followups = 2;
    exercises[0].id = "per-token";
    exercises[0].prompt = "How many bytes does one token take?";
    exercises[0].hints = hints;
    exercises[0].n_hints = 1;
    exercises[1].id = "fit";
    exercises[1].prompt = "How many whole {context}-token sequences fit?";
    l.exercises = exercises;
    l.n_exercises = 2;
    return l;
}

static void found(const char *needle, enum lx_hit_where where, size_t index, const char *snippet)
{
    struct lx_lesson l = lesson();
    struct lx_hit h;
    if (!lx_lesson_find(&l, needle, &h))
        fail_msg("\"%s\" not found", needle);
    if (h.where != where || h.index != index)
        fail_msg("\"%s\": found at %d/%zu, wanted %d/%zu", needle, h.where, h.index, where, index);
    if (snippet && strcmp(h.snippet, snippet) != 0)
        fail_msg("\"%s\": snippet \"%s\", wanted \"%s\"", needle, h.snippet, snippet);
    /* match_at points at the words found (the screen keeps them in view);
     * a needle of single spaces reads the same in the folded snippet */
    if (!strpbrk(needle, "\t\n") && !strstr(needle, "  ") &&
        strncasecmp(h.snippet + h.match_at, needle, strlen(needle)) != 0)
        fail_msg("\"%s\": match_at %zu points at \"%s\"", needle, h.match_at,
                 h.snippet + h.match_at);
}

static void not_found(const char *needle)
{
    struct lx_lesson l = lesson();
    struct lx_hit h;
    if (lx_lesson_find(&l, needle, &h))
        fail_msg("\"%s\" found at %d/%zu (%s)", needle, h.where, h.index, h.snippet);
}

static void test_places_in_reading_order(void **state)
{
    (void)state;
    found("caps", LX_HIT_TITLE, 0, "The KV cache caps concurrency");
    /* "keeps its keys" is in the answer and the first section: the answer
     * comes first, as the reader shows it */
    found("keeps its KEYS", LX_HIT_ANSWER, 0, NULL);
    found("fills up", LX_HIT_SECTION, 0, "Why it fills up");
    found("57,344", LX_HIT_WORKED, 0, NULL);
    found("0.99", LX_HIT_FOLLOWUP, 1, "Why is 0.99 risky?");
    found("whole {context}", LX_HIT_EXERCISE, 1, NULL);
    found("kv-memory", LX_HIT_NAME, 0, NULL);
    {
        struct lx_lesson l = lesson();
        struct lx_hit h;
        assert_true(lx_lesson_find(&l, "", &h));
        assert_int_equal(h.where, LX_HIT_NONE);
        assert_true(lx_lesson_find(&l, "halve", NULL));
    }
}

static void test_no_spoilers(void **state)
{
    (void)state;
    not_found("fp8 instead");   /* a follow-up's model answer */
    not_found("secret factor"); /* a hint */
    not_found("headroom");
}

/* Only ASCII letters fold: "[16]" is not found as "{16}" ('[' | 0x20 is '{') */
static void test_case_folding(void **state)
{
    (void)state;
    found("[16]", LX_HIT_SECTION, 1, NULL);
    not_found("{16}");
    found("PAGEDattention", LX_HIT_SECTION, 1, NULL);
}

/* The snippet: words around the match, cut at spaces, "..." on each cut
 * side, white space made single spaces. */
static void test_snippet_cut_at_words(void **state)
{
    (void)state;
    struct lx_lesson l = lesson();
    struct lx_hit h;
    assert_true(lx_lesson_find(&l, "PagedAttention", &h));
    assert_int_equal(h.where, LX_HIT_SECTION);
    assert_non_null(strstr(h.snippet, "PagedAttention helps"));
    assert_int_equal(strncmp(h.snippet, "...", 3), 0);
    assert_int_equal(strcmp(h.snippet + strlen(h.snippet) - 3, "..."), 0);
    assert_true(h.snippet[3] != ' ');
    /* the first word after "..." is whole: it follows a space in the text */
    {
        const char *word = h.snippet + 3;
        size_t n = strcspn(word, " ");
        char w[64];
        memcpy(w, word, n);
        w[n] = '\0';
        char spaced[72];
        snprintf(spaced, sizeof spaced, " %s ", w);
        assert_non_null(strstr(sections[1].text, spaced));
    }
    assert_null(strstr(h.snippet, "  "));
}

/* A search longer than the snippet's room: the snippet is cut at a whole
 * character, never inside one (é is two bytes), and says so with "...". */
static void test_snippet_whole_characters(void **state)
{
    static char text[600], needle[300];
    static struct lx_section one[1];
    struct lx_lesson l = lesson();
    struct lx_hit h;
    (void)state;
    for (size_t i = 0; i < 280; i += 2)
        memcpy(text + i, "\xc3\xa9", 2); /* é x 140 */
    memcpy(needle, text, 280);
    one[0] = (struct lx_section){"S", text, 1};
    l.sections = one;
    l.n_sections = 1;
    assert_true(lx_lesson_find(&l, needle, &h));
    assert_int_equal(strcmp(h.snippet + strlen(h.snippet) - 3, "..."), 0);
    for (size_t i = 0; i + 3 < strlen(h.snippet); i += 2)
        assert_int_equal(memcmp(h.snippet + i, "\xc3\xa9", 2), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_places_in_reading_order),
        cmocka_unit_test(test_no_spoilers),
        cmocka_unit_test(test_case_folding),
        cmocka_unit_test(test_snippet_cut_at_words),
        cmocka_unit_test(test_snippet_whole_characters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
