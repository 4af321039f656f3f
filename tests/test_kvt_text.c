/* Sanitising untrusted text: what a terminal would obey becomes visible
 * and inert; printable UTF-8 (×, ≈, subscripts, CJK) stays as it is. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "kvt_format.h"
#include "kvt_text.h"

static const char *clean(const char *in, size_t len, unsigned flags)
{
    static char out[512];
    kvt_sanitize(in, len, out, sizeof out, flags);
    return out;
}

static void test_controls_become_escapes(void **state)
{
    (void)state;
    static const struct {
        const char *in, *out;
    } rows[] = {
        {"plain text", "plain text"},
        {"2 × 28 ≈ 56 KiB, d\xe2\x82\x95", "2 × 28 ≈ 56 KiB, dₕ"},
        {"\x1b[2Jclear", "\\x1b[2Jclear"},
        {"bell\x07", "bell\\x07"},
        {"osc\x1b]0;title\x07", "osc\\x1b]0;title\\x07"},
        {"del\x7f", "del\\x7f"},
        {"c1 \xc2\x9b", "c1 \\x9b"},                  /* U+009B, the 8-bit CSI */
        {"rlo \xe2\x80\xae", "rlo \\u202e"},          /* right-to-left override */
        {"isolate \xe2\x81\xa6", "isolate \\u2066"},  /* left-to-right isolate */
        {"bad \xff\xfe", "bad \\xff\\xfe"},           /* not UTF-8 */
        {"overlong \xc0\xaf", "overlong \\xc0\\xaf"}, /* an overlong '/' */
        {"surrogate \xed\xa0\x80", "surrogate \\xed\\xa0\\x80"},
        {"cut \xe2\x82", "cut \\xe2\\x82"}, /* a sequence cut short */
        {"tab\there\nnext", "tab here next"},
        {"ok 日本", "ok 日本"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        assert_string_equal(clean(rows[i].in, strlen(rows[i].in), 0), rows[i].out);
    /* NUL inside the text is shown too */
    assert_string_equal(clean("a\0b", 3, 0), "a\\x00b");
    assert_true(kvt_text_is_safe("2 × 28", strlen("2 × 28"), 0));
    assert_false(kvt_text_is_safe("\x1b[m", 3, 0));
    assert_false(kvt_text_is_safe("a\nb", 3, 0));
    assert_true(kvt_text_is_safe("a\nb", 3, KVT_KEEP_NEWLINES));
}

static void test_multiline_keeps_newlines(void **state)
{
    (void)state;
    assert_string_equal(clean("one\ntwo\tthree\x1b", 14, KVT_KEEP_NEWLINES), "one\ntwo three\\x1b");
}

static void test_cut_at_a_character_boundary(void **state)
{
    (void)state;
    char out[12];
    /* "×" is 2 bytes: never cut in half */
    kvt_sanitize("×××××××××", strlen("×××××××××"), out, sizeof out, 0);
    assert_string_equal(out, "××××...");
    kvt_sanitize("\x1b\x1b\x1b\x1b", 4, out, sizeof out, 0);
    assert_string_equal(out, "\\x1b\\x1b...");
    /* one byte less: a whole escape goes, never half of one */
    kvt_sanitize("\x1b\x1b\x1b\x1b", 4, out, sizeof out - 1, 0);
    assert_string_equal(out, "\\x1b...");
    assert_int_equal(kvt_sanitize("abc", 3, out, 1, 0), 0);
    assert_string_equal(out, "");
}

/* Wraps the whole text, joining the lines with '|'. */
static const char *wrap_all(const char *text, int width)
{
    static char out[512];
    size_t pos = 0, len = strlen(text), o = 0;
    out[0] = '\0';
    while (pos < len) {
        size_t next, n = kvt_wrap_line(text + pos, len - pos, width, &next);
        if (o)
            out[o++] = '|';
        memcpy(out + o, text + pos, n);
        o += n;
        out[o] = '\0';
        pos += next;
    }
    return out;
}

/* Long text comes out whole when the buffer holds 4 bytes per byte (a
 * 3-byte "×", escapes, invalid bytes and bidi overrides mixed), and a field
 * quoted in a message is cut to fit. */
static void test_long_text_and_fields(void **state)
{
    (void)state;
    static char in[20000], got[80000];
    size_t n = 0;

    for (int i = 0; n + 8 < sizeof in; i++) {
        static const char *const bits[] = {"ab",   "\xc3\x97", "\x1b]0;x\x07",
                                           "\xff", "\n",       "\xe2\x80\xae"};
        size_t l = strlen(bits[i % 6]);
        memcpy(in + n, bits[i % 6], l);
        n += l;
    }
    kvt_sanitize(in, n, got, sizeof got, KVT_KEEP_NEWLINES);
    assert_true(strlen(got) > n); /* nothing was cut */
    assert_null(strstr(got, "..."));
    assert_null(strchr(got, 0x1b));
    assert_true(kvt_text_is_safe(got, strlen(got), KVT_KEEP_NEWLINES));
    /* a field in a message: cut, and NULL reads as empty */
    {
        char big[100000], out[KVT_SAFE_FIELD];
        memset(big, 'n', sizeof big - 1);
        big[sizeof big - 1] = '\0';
        assert_int_equal(strlen(kvt_safe(big, out, sizeof out)), KVT_SAFE_FIELD - 1);
        assert_string_equal(out + KVT_SAFE_FIELD - 4, "...");
        assert_string_equal(kvt_safe(NULL, out, sizeof out), "");
        assert_string_equal(kvt_safe("a\x1b[2Jb", out, sizeof out), "a\\x1b[2Jb");
    }
}

/* Rates side by side read alike: grouped whole numbers from 100 up, one
 * decimal below, the same in every locale (the suite also runs under
 * de_DE.UTF-8, whose decimal comma must not appear). */
static void test_rates_by_their_size(void **state)
{
    (void)state;
    static const struct {
        double v;
        const char *want;
    } rows[] = {
        {64932.37, "64,932"},   /* 989e12 / (2 x 7,615,616,512) */
        {220074.11, "220,074"}, /* 1,000 x 3,352e9 / 15,231,233,024 */
        {10846.1, "10,846"},    {1008, "1,008"}, {100, "100"},  {99.96, "100"},
        {66.24, "66.2"},        {7.14, "7.1"},   {0.05, "0.1"}, {0, "0"},
    };
    char buf[32];
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        assert_string_equal(kvt_fmt_rate(rows[i].v, buf, sizeof buf), rows[i].want);
}

static void test_widths_and_wrapping(void **state)
{
    (void)state;
    assert_int_equal(kvt_text_width("×≈ₖ", strlen("×≈ₖ")), 3);
    assert_int_equal(kvt_text_width("日本", strlen("日本")), 4);
    assert_int_equal(kvt_text_width("e\xcc\x81", 3), 1); /* e + combining acute */
    assert_int_equal(kvt_text_width("ok", 2), 2);
    assert_string_equal(wrap_all("the quick brown fox", 10), "the quick|brown fox");
    assert_string_equal(wrap_all("the quick brown fox", 9), "the quick|brown fox");
    assert_string_equal(wrap_all("the quick brown fox", 8), "the|quick|brown|fox");
    assert_string_equal(wrap_all("abcdefghijkl", 5), "abcde|fghij|kl");
    assert_string_equal(wrap_all("日本語日本語", 5), "日本|語日|本語");
    assert_string_equal(wrap_all("2 × 28 × 4", 6), "2 × 28|× 4");
    assert_string_equal(wrap_all("one\ntwo three", 20), "one|two three");
    assert_string_equal(wrap_all("a  b", 1), "a|b");
}

/* A table cell: whole when it fits, else whole words and a mark; counted
 * by hand, e.g. "Chunked prefill and preemption: one" is 35 columns, and
 * with "…" 36 fits a 38-column cell where "... one token…" (42) does not. */
static void test_fit_a_cell(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        int width;
        const char *mark, *want;
        size_t cols;
    } rows[] = {
        {"The KV cache caps concurrency", 38, "…", "The KV cache caps concurrency", 29},
        {"Chunked prefill and preemption: one token budget per step", 38, "…",
         "Chunked prefill and preemption: one…", 36},
        /* "Mixture of experts:" fills the 19 columns left: its colon goes */
        {"Mixture of experts: total for memory", 20, "…", "Mixture of experts…", 19},
        {"abcdefghijklmnop", 8, "…", "abcdefg…", 8},
        /* one short word then a long one: less than half the cell, so cut mid-word */
        {"a bcdefghijklmnop", 8, "…", "a bcdef…", 8},
        {"the quick brown fox", 12, "...", "the quick...", 12},
        {"日本語日本語", 5, "…", "日本…", 5},
        {"abcdef", 1, "…", "a", 1}, /* no room for the mark */
        {"abcdef", 0, "…", "", 0},
        {"exactly ten", 11, "…", "exactly ten", 11},
    };
    char out[128];
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        size_t cols = kvt_text_fit(rows[i].text, rows[i].width, rows[i].mark, out, sizeof out);
        assert_string_equal(out, rows[i].want);
        assert_int_equal(cols, rows[i].cols);
    }
    /* a small buffer: cut at a character boundary, never inside "×" */
    kvt_text_fit("a××", 10, "…", out, 5);
    assert_string_equal(out, "a×");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_controls_become_escapes),
        cmocka_unit_test(test_multiline_keeps_newlines),
        cmocka_unit_test(test_cut_at_a_character_boundary),
        cmocka_unit_test(test_long_text_and_fields),
        cmocka_unit_test(test_widths_and_wrapping),
        cmocka_unit_test(test_fit_a_cell),
        cmocka_unit_test(test_rates_by_their_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
