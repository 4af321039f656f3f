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
#include <locale.h>

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

/* The formatting rules of kvt_format.h, one row per case, each expected
 * text from hand arithmetic. */
enum fmt_kind {
    F_BYTES,
    F_AMOUNT,
    F_VLLM_GIB,
    F_PERCENT,
    F_SHORTEST,
    F_RATE,
    F_FIXED2,
    F_VLLM_X,
    F_MS
};

static const struct {
    enum fmt_kind kind;
    double v;
    const char *want;
} fmt_rows[] = {
    /* bytes, three significant digits by magnitude */
    {F_BYTES, 57344, "56 KiB"},         /* 57,344 / 1,024 = 56 */
    {F_BYTES, 469762048, "448 MiB"},    /* 448 x 1,048,576 */
    {F_BYTES, 1879048192, "1.75 GiB"},  /* 1.75 x 1,073,741,824 */
    {F_BYTES, 8476921856, "7.89 GiB"},  /* 8,476,921,856 / 2^30 = 7.8947 */
    {F_BYTES, 15231233024, "14.2 GiB"}, /* 7,615,616,512 x 2 B / 2^30 = 14.185 */
    {F_BYTES, 63796165222, "59.4 GiB"}, /* 80 GiB x 0.92 - 14.185 GiB = 59.415 */
    {F_BYTES, 70272, "68.6 KiB"},       /* 61 x 1,152 B = 70,272 B / 1,024 = 68.625 */
    {F_BYTES, 1310720, "1.25 MiB"},     /* 10 x 128 KiB */
    {F_BYTES, 640, "640 B"},            /* under 1 KiB: whole bytes */
    {F_BYTES, 0, "0 B"},                /* */
    {F_BYTES, 1073217536, "1 GiB"},     /* 1,023.5 MiB rounds to 1,024 MiB = 1 GiB */
    {F_BYTES, 1125899906842624.0 * 2048, "2,048 PiB"}, /* past the last unit: grouped */
    /* amounts */
    {F_AMOUNT, 141.11, "141"},      /* whole from 100 */
    {F_AMOUNT, 3956, "3,956"},      /* 4 x 989 TFLOP/s, grouped */
    {F_AMOUNT, 15.23, "15.2"},      /* one decimal from 10 */
    {F_AMOUNT, 7.894, "7.89"},      /* two from 1 */
    {F_AMOUNT, 2.50, "2.5"},        /* trailing zero dropped */
    {F_AMOUNT, 0.00875, "0.00875"}, /* 2% of 0.4375: three significant */
    {F_AMOUNT, 0.5, "0.5"},         /* */
    {F_AMOUNT, -0.0001, "-0.0001"}, /* */
    {F_AMOUNT, 0, "0"},             /* */
    /* as vLLM prints "Available KV cache memory: %.2f GiB" */
    {F_VLLM_GIB, 8476921856, "7.89 GiB"},     /* 7.8947 */
    {F_VLLM_GIB, 42949672960.0, "40.00 GiB"}, /* 40 x 2^30: vLLM keeps the zeros */
    /* percentages */
    {F_PERCENT, 0.83, "83%"},            /* whole from 10% */
    {F_PERCENT, 0.045, "4.5%"},          /* one decimal below */
    {F_PERCENT, 299.0 / 300.0, "99.7%"}, /* 99.67%: not rounded to all */
    {F_PERCENT, 1.0, "100%"},            /* */
    {F_PERCENT, 0.0001, "0.01%"},        /* not rounded to nothing */
    {F_PERCENT, 0, "0%"},                /* */
    /* the shortest text that reads back as the same double */
    {F_SHORTEST, 0.8, "0.8"},                       /* %.17g: 0.80000000000000004 */
    {F_SHORTEST, 0.92, "0.92"},                     /* %.17g: 0.92000000000000004 */
    {F_SHORTEST, 0.1 + 0.2, "0.30000000000000004"}, /* not 0.3: 17 digits needed */
    {F_SHORTEST, 33.951171875, "33.951171875"},     /* 69,532 / 2,048, exact in binary */
    {F_SHORTEST, 3352, "3352"},                     /* */
    {F_SHORTEST, 1e-7, "1e-07"},                    /* 7 places below the point: an exponent */
    {F_SHORTEST, 4800, "4800"},                     /* %.2g would write 4.8e+03 */
    {F_SHORTEST, 50, "50"},
    {F_SHORTEST, 0.00875, "0.00875"},
    {F_SHORTEST, 1e20, "1e+20"},
    {F_SHORTEST, -2.5, "-2.5"}, /* */
    /* someone else's two decimals, zeros kept, the whole part grouped */
    {F_FIXED2, 8.0 / 52.0 * 100, "15.38"}, /* 8 padding of 52 sliding layers: 15.3846% */
    {F_FIXED2, 4.5, "4.50"},               /* */
    {F_FIXED2, 1234.567, "1,234.57"},      /* */
    {F_FIXED2, -0.001, "0.00"},            /* no "-0.00" */
    /* as vLLM prints "Maximum concurrency for N tokens per request: %.2fx" */
    {F_VLLM_X, 4.5, "4.50x"},               /* 4.5, not "4.5x" */
    {F_VLLM_X, 69532.0 / 2048.0, "33.95x"}, /* 33.951 */
    /* rates, as before: one decimal below 100 */
    {F_RATE, 66.24, "66.2"},        /* */
    {F_RATE, 220074.11, "220,074"}, /* */
    /* latencies in the unit that keeps them short */
    {F_MS, 714.6, "715 ms"},    /* whole from 100, as an amount */
    {F_MS, 52.61, "52.6 ms"},   /* */
    {F_MS, 999.6, "1 s"},       /* not "1,000 ms" */
    {F_MS, 1417, "1.42 s"},     /* 1.417 s */
    {F_MS, 39555, "39.6 s"},    /* a p99 past the knee */
    {F_MS, 250000, "4.17 min"}, /* 250 / 60 = 4.1667 */
};

static void run_fmt_rows(const char *locale)
{
    char buf[64];

    if (!setlocale(LC_ALL, locale)) {
        print_message("locale %s not installed: skipped\n", locale);
        return;
    }
    for (size_t i = 0; i < sizeof fmt_rows / sizeof fmt_rows[0]; i++) {
        double v = fmt_rows[i].v;
        const char *got = fmt_rows[i].kind == F_BYTES      ? kvt_fmt_bytes(v, buf, sizeof buf)
                          : fmt_rows[i].kind == F_AMOUNT   ? kvt_fmt_amount(v, buf, sizeof buf)
                          : fmt_rows[i].kind == F_VLLM_GIB ? kvt_fmt_gib_vllm(v, buf, sizeof buf)
                          : fmt_rows[i].kind == F_PERCENT  ? kvt_fmt_percent(v, buf, sizeof buf)
                          : fmt_rows[i].kind == F_SHORTEST ? kvt_fmt_shortest(v, buf, sizeof buf)
                          : fmt_rows[i].kind == F_FIXED2   ? kvt_fmt_fixed(v, 2, buf, sizeof buf)
                          : fmt_rows[i].kind == F_MS       ? kvt_fmt_ms(v, buf, sizeof buf)
                          : fmt_rows[i].kind == F_VLLM_X
                              ? kvt_fmt_concurrency_vllm(v, buf, sizeof buf)
                              : kvt_fmt_rate(v, buf, sizeof buf);
        if (strcmp(got, fmt_rows[i].want) != 0)
            print_error("row %zu under %s: want \"%s\", got \"%s\"\n", i, locale, fmt_rows[i].want,
                        got);
        assert_string_equal(got, fmt_rows[i].want);
    }
    setlocale(LC_ALL, "C");
}

/* The same text under a decimal-comma locale: the locale never reaches it. */
static void test_format_rules_in_every_locale(void **state)
{
    (void)state;
    run_fmt_rows("C");
    run_fmt_rows("C.UTF-8");
    run_fmt_rows("de_DE.UTF-8");
}

/* Counts with their nouns, dates and times as ISO 8601 in UTC. */
static void test_counts_and_dates(void **state)
{
    (void)state;
    char buf[64];
    assert_string_equal(kvt_fmt_count(1, "sequence", "sequences", buf, sizeof buf), "1 sequence");
    assert_string_equal(kvt_fmt_count(0, "sequence", "sequences", buf, sizeof buf), "0 sequences");
    assert_string_equal(kvt_fmt_count(2048, "block", "blocks", buf, sizeof buf), "2,048 blocks");
    /* 1970 to 2025: 55 years of 365 days + 14 leap days (1972..2024) = 20,089;
     * January to November 2025: 334 days; 20,089 + 334 = 20,423 */
    assert_string_equal(kvt_fmt_date(20423, buf, sizeof buf), "2025-12-01");
    assert_string_equal(kvt_fmt_date(0, buf, sizeof buf), "1970-01-01");
    /* 2000-03-01: 30 years = 10,950 + 7 leap days (1972..1996) = 10,957 days to
     * 2000-01-01, + 31 + 29 (2000 is a leap year) = 11,017 */
    assert_string_equal(kvt_fmt_date(11017, buf, sizeof buf), "2000-03-01");
    assert_string_equal(kvt_fmt_date(11016, buf, sizeof buf), "2000-02-29");
    /* 20,423 x 86,400 = 1,764,547,200; + 10 h 44 min 5 s = 38,645 s */
    assert_string_equal(kvt_fmt_utc(1764585845, buf, sizeof buf), "2025-12-01T10:44:05Z");
    assert_string_equal(kvt_fmt_utc(-1, buf, sizeof buf), "1969-12-31T23:59:59Z");
}

/* A value as precise as its tolerance: the decimals that show the
 * tolerance to two significant digits. */
static void test_near_its_tolerance(void **state)
{
    (void)state;
    char buf[64];
    /* 476,032 / 8,192 = 58.109375 within 0.01: 3 decimals */
    assert_string_equal(kvt_fmt_near(58.109375, 0.01, buf, sizeof buf), "58.109");
    /* 0.2% of 615.679688 = 1.2314: 1 decimal */
    assert_string_equal(kvt_fmt_near(615.679688, 1.231359, buf, sizeof buf), "615.7");
    /* 2% of 0.4375 = 0.00875: 4 decimals, the value is exact at them */
    assert_string_equal(kvt_fmt_near(0.4375, 0.00875, buf, sizeof buf), "0.4375");
    /* 1% of 57,344 = 573.44: none, grouped */
    assert_string_equal(kvt_fmt_near(57344, 573.44, buf, sizeof buf), "57,344");
    /* 0.05 asks for 3 decimals; the value ends at 4, one more: written whole */
    assert_string_equal(kvt_fmt_near(1234.5678, 0.05, buf, sizeof buf), "1,234.5678");
    assert_string_equal(kvt_fmt_near(1234.567891, 0.05, buf, sizeof buf), "1,234.568");
    /* (1 - 0.9^6) / (1 - 0.9) = 0.468559 / 0.1 = 4.68559 within 2% (0.0937)
     * ends two decimals past the 3 asked: rounded, as the worked "4.686" */
    assert_string_equal(kvt_fmt_near(4.68559, 0.0937, buf, sizeof buf), "4.686");
    /* 77 / 16 = 4.8125 GiB within 2% (0.09625): 3 decimals would round the
     * tie to even, "4.812", beside a worked "= 4.8125 GiB"; 9 / 16 = 0.5625
     * within 2% (0.01125) the same */
    assert_string_equal(kvt_fmt_near(4.8125, 0.09625, buf, sizeof buf), "4.8125");
    assert_string_equal(kvt_fmt_near(0.5625, 0.01125, buf, sizeof buf), "0.5625");
    /* 1.203125 ends at 6 decimals, three past the 3 asked: rounded */
    assert_string_equal(kvt_fmt_near(1.203125, 0.0240625, buf, sizeof buf), "1.203");
    assert_string_equal(kvt_fmt_near(7, 0.05, buf, sizeof buf), "7");
    assert_string_equal(kvt_fmt_near(0.123456789, 0, buf, sizeof buf), "0.123457");
}

/* Dates and times read back from the text above (the days as worked out
 * there); anything but that exact form, or a day that does not exist, is
 * refused. */
static void test_dates_read_back(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        bool utc, ok;
        int64_t want;
    } rows[] = {
        {"2025-12-01", false, true, 20423},
        {"1970-01-01", false, true, 0},
        {"2000-03-01", false, true, 11017},
        {"2000-02-29", false, true, 11016}, /* 2000 is a leap year */
        {"2025-02-29", false, false, 0},    /* 2025 is not */
        {"2025-04-31", false, false, 0},
        {"2025-13-01", false, false, 0},
        {"2025-1-01", false, false, 0},
        {"2025-12-01x", false, false, 0},
        {"", false, false, 0},
        {"2025-12-01T10:44:05Z", true, true, 1764585845},
        {"1970-01-01T00:00:00Z", true, true, 0},
        {"2025-12-01T24:00:00Z", true, false, 0},
        {"2025-12-01T10:60:05Z", true, false, 0},
        {"2025-12-01T10:44:05", true, false, 0},  /* no zone: not UTC for sure */
        {"2025-12-01 10:44:05Z", true, false, 0}, /* */
        {"2025-12-01T10:44:05+01:00", true, false, 0},
        {"2025-12-01", true, false, 0},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        int64_t got = -7;
        bool ok =
            rows[i].utc ? kvt_parse_utc(rows[i].text, &got) : kvt_parse_date(rows[i].text, &got);
        if (ok != rows[i].ok || (ok && got != rows[i].want) || (!ok && got != -7))
            fail_msg("\"%s\": %s, %lld", rows[i].text, ok ? "read" : "refused", (long long)got);
    }
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
    /* a path wider than the line breaks after a '/' in the line's second
     * half ("/srv/models/" ends at column 12 of 20), never inside a name;
     * a '/' before half the line (column 5 of 20) would leave a short row */
    assert_string_equal(wrap_all("/srv/models/qwen3-14b/config.json", 20),
                        "/srv/models/|qwen3-14b/|config.json");
    assert_string_equal(wrap_all("/srv/averyveryverylongname", 20), "/srv/averyveryverylo|ngname");
    /* a number keeps its unit: "one 24 GB GPU" at 7 columns breaks before
     * "24", not between "24" and "GB"; punctuation after the unit counts
     * with it; "x" is a product sign, not a unit; a word that is no unit
     * (cards) is free to go */
    assert_string_equal(wrap_all("one 24 GB GPU", 7), "one|24 GB|GPU");
    assert_string_equal(wrap_all("= 57,344 B, 56 KiB.", 10), "=|57,344 B,|56 KiB.");
    assert_string_equal(wrap_all("= 57,344 B, 56 KiB.", 12), "= 57,344 B,|56 KiB.");
    assert_string_equal(wrap_all("2 x 28 x 4", 5), "2 x|28 x|4");
    assert_string_equal(wrap_all("with 8 cards", 7), "with 8|cards");
    /* a sign of arithmetic goes with what it applies to: the line breaks
     * before "=" or "÷", never leaving one at its end; a sign before a word
     * (prose) and an ASCII "x" leave the space free */
    assert_string_equal(wrap_all("= 57,344 B = 56 KiB", 12), "= 57,344 B|= 56 KiB");
    assert_string_equal(wrap_all("blocks; ÷ 512 = 22", 10), "blocks;|÷ 512 = 22");
    assert_string_equal(wrap_all("61 × (192 + 128)", 8), "61|× (192|+ 128)");
    assert_string_equal(wrap_all("a = b and c", 3), "a =|b|and|c");
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
        cmocka_unit_test(test_format_rules_in_every_locale),
        cmocka_unit_test(test_counts_and_dates),
        cmocka_unit_test(test_dates_read_back),
        cmocka_unit_test(test_near_its_tolerance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
