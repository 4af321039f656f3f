#include "kvt_text.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kv_units.h"

/* Length of the valid UTF-8 sequence at s (1..4) and its code point, or 0
 * when the bytes are not valid UTF-8 (overlong, surrogate, past U+10FFFF). */
static size_t utf8_decode(const unsigned char *s, size_t len, uint32_t *cp)
{
    size_t n;
    uint32_t c = s[0], min;

    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2, c &= 0x1F, min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3, c &= 0x0F, min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4, c &= 0x07, min = 0x10000;
    } else {
        return 0;
    }
    if (len < n)
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        c = (c << 6) | (s[i] & 0x3F);
    }
    if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
        return 0;
    *cp = c;
    return n;
}

/* Code points that change how a terminal shows what follows. */
static bool dangerous(uint32_t cp)
{
    return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F) ||
           (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200E ||
           cp == 0x200F || cp == 0x061C;
}

bool kvt_text_is_safe(const char *in, size_t len, unsigned flags)
{
    const unsigned char *s = (const unsigned char *)in;
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        size_t n = utf8_decode(s + i, len - i, &cp);
        if (n == 0)
            return false;
        if (dangerous(cp) && !(cp == '\n' && (flags & KVT_KEEP_NEWLINES)))
            return false;
        i += n;
    }
    return true;
}

size_t kvt_sanitize(const char *in, size_t len, char *out, size_t cap, unsigned flags)
{
    const unsigned char *s = (const unsigned char *)in;
    size_t o = 0, marks[4] = {0}; /* a ring of where the last pieces began */
    unsigned head = 0, count = 0;

    if (cap == 0)
        return 0;
    for (size_t i = 0; i < len;) {
        char piece[16];
        size_t k, n;
        uint32_t cp;

        n = utf8_decode(s + i, len - i, &cp);
        if (n == 0) {
            snprintf(piece, sizeof piece, "\\x%02x", s[i]);
            n = 1;
        } else if ((cp == '\n' || cp == '\t') && (flags & KVT_KEEP_NEWLINES)) {
            snprintf(piece, sizeof piece, "%c", cp == '\n' ? '\n' : ' ');
        } else if (cp == '\n' || cp == '\t' || cp == '\r') {
            snprintf(piece, sizeof piece, " ");
        } else if (dangerous(cp)) {
            if (cp < 0x100)
                snprintf(piece, sizeof piece, "\\x%02x", (unsigned)cp);
            else
                snprintf(piece, sizeof piece, "\\u%04x", (unsigned)cp);
        } else {
            memcpy(piece, s + i, n);
            piece[n] = '\0';
        }
        k = strlen(piece);
        if (o + k + 1 > cap) {
            /* drop whole pieces until "..." fits: never half a character or escape */
            while (o + 4 > cap && count > 0) {
                head = (head + 3) % 4;
                count--;
                o = marks[head];
            }
            if (o + 4 <= cap) {
                memcpy(out + o, "...", 3);
                o += 3;
            }
            break;
        }
        marks[head] = o;
        head = (head + 1) % 4;
        if (count < 4)
            count++;
        memcpy(out + o, piece, k);
        o += k;
        i += n;
    }
    out[o] = '\0';
    return o;
}

const char *kvt_safe(const char *s, char *out, size_t cap)
{
    if (cap == 0)
        return "";
    kvt_sanitize(s ? s : "", s ? strlen(s) : 0, out, cap, 0);
    return out;
}

int kvt_char_width(uint32_t cp)
{
    static const struct {
        uint32_t lo, hi;
    } zero[] = {{0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05BD}, {0x0610, 0x061A},
                {0x064B, 0x065F}, {0x1AB0, 0x1AFF}, {0x1DC0, 0x1DFF}, {0x200B, 0x200F},
                {0x20D0, 0x20FF}, {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F}, {0xFEFF, 0xFEFF}},
      wide[] = {{0x1100, 0x115F},   {0x231A, 0x231B},  {0x2329, 0x232A},   {0x23E9, 0x23EC},
                {0x2E80, 0x303E},   {0x3041, 0x33FF},  {0x3400, 0x4DBF},   {0x4E00, 0x9FFF},
                {0xA000, 0xA4CF},   {0xAC00, 0xD7A3},  {0xF900, 0xFAFF},   {0xFE30, 0xFE4F},
                {0xFF00, 0xFF60},   {0xFFE0, 0xFFE6},  {0x1F300, 0x1F64F}, {0x1F900, 0x1F9FF},
                {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD}};

    if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0))
        return 0;
    if (cp < 0x300) /* the text the course is mostly written in: no table holds it */
        return 1;
    for (size_t i = 0; i < sizeof zero / sizeof zero[0]; i++)
        if (cp >= zero[i].lo && cp <= zero[i].hi)
            return 0;
    for (size_t i = 0; i < sizeof wide / sizeof wide[0]; i++)
        if (cp >= wide[i].lo && cp <= wide[i].hi)
            return 2;
    return 1;
}

size_t kvt_text_width(const char *text, size_t len)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t w = 0;
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        size_t n = utf8_decode(s + i, len - i, &cp);
        if (n == 0) {
            w += 1;
            i += 1;
        } else {
            w += (size_t)kvt_char_width(cp);
            i += n;
        }
    }
    return w;
}

/* The space at s[i] joins a number to its unit ("24 GB", "57,344 B",
 * "1.75 GiB."): a digit before it, one space, and a word of kv_units.h
 * after it (punctuation after the word aside). A line does not break there. */
static bool joins_unit(const unsigned char *s, size_t i, size_t len)
{
    char word[16];
    size_t n = 0, at = i + 1;
    const struct kv_unit *u;

    if (i == 0 || s[i - 1] < '0' || s[i - 1] > '9')
        return false;
    while (at < len && s[at] != ' ' && s[at] != '\n' && n + 1 < sizeof word)
        word[n++] = (char)s[at++];
    while (n > 0 && strchr(",.;:)!?", word[n - 1]))
        n--;
    word[n] = '\0';
    /* "2 x 28" is a product, not a count of x */
    return n > 0 && (u = kv_unit_find(word)) != NULL && strcmp(u->name, "x") != 0;
}

/* The space at s[i] follows a sign of arithmetic standing alone and comes
 * before the number it applies to ("= 56 KiB", "÷ 512", "× (192 + 128)"):
 * a line breaks before the sign, as arithmetic is set, never leaving "=" or
 * "÷" at its end. */
static bool joins_operator(const unsigned char *s, size_t i, size_t len)
{
    static const char *const signs[] = {"=", "+", "×", "÷", "−", "≈", "→", "≤", "≥"};
    unsigned char after = i + 1 < len ? s[i + 1] : 0;

    if (!((after >= '0' && after <= '9') || after == '(' ||
          (i + 3 < len && (memcmp(s + i + 1, "⌈", 3) == 0 || memcmp(s + i + 1, "⌊", 3) == 0))))
        return false;
    for (size_t k = 0; k < sizeof signs / sizeof signs[0]; k++) {
        size_t n = strlen(signs[k]);
        if (i >= n && memcmp(s + i - n, signs[k], n) == 0 && (i == n || s[i - n - 1] == ' '))
            return true;
    }
    return false;
}

size_t kvt_wrap_line(const char *text, size_t len, int width, size_t *next)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0, cols = 0, last_space = 0, after_space = 0;
    /* where a line too narrow for a joined run breaks it after all: after a
     * sign first (join 0), else between a number and its unit (join 1) */
    size_t last_join[2] = {0, 0};
    /* a word wider than the line (a file's path) breaks after its last '/'
     * that fits, so each line ends on a folder, not inside a name */
    size_t after_slash = 0, slash_cols = 0; /* used only past half the line: no short rows */
    bool seen_space = false, seen_join[2] = {false, false};

    if (width < 1)
        width = 1;
    while (i < len && s[i] != '\n') {
        uint32_t cp;
        size_t n = utf8_decode(s + i, len - i, &cp);
        int w = n ? kvt_char_width(cp) : 1;
        int join = -1;
        if (n == 0)
            n = 1;
        if (cp == ' ' && n == 1)
            join = joins_operator(s, i, len) ? 0 : joins_unit(s, i, len) ? 1 : -1;
        if (join >= 0 && i > 0 && s[i - 1] != ' ') {
            last_join[join] = i;
            seen_join[join] = true;
        }
        if (cp == ' ' && n == 1 && join < 0) {
            if (i == 0 || s[i - 1] != ' ')
                last_space = i; /* the first space of a run: the line ends before it */
            after_space = i + 1;
            seen_space = true;
        } else if (cols + (size_t)w > (size_t)width) {
            if (!seen_space && (seen_join[0] || seen_join[1])) {
                last_space = last_join[seen_join[0] ? 0 : 1];
                after_space = last_space + 1;
                seen_space = true;
            }
            if (seen_space) { /* break at the last space */
                while (after_space < len && s[after_space] == ' ')
                    after_space++;
                *next = after_space;
                return last_space;
            }
            if (after_slash > 0 && after_slash < i && 2 * slash_cols >= (size_t)width) {
                *next = after_slash;
                return after_slash;
            }
            *next = i > 0 ? i : n; /* one word wider than the line: cut it */
            return i > 0 ? i : n;
        }
        if (cp == '/') {
            after_slash = i + 1;
            slash_cols = cols + (size_t)w;
        }
        cols += (size_t)w;
        i += n;
    }
    *next = i < len ? i + 1 : i; /* past the newline */
    while (i > 0 && s[i - 1] == ' ')
        i--;
    return i;
}

/* Copies text[0..n) and then tail into out (cap bytes), cutting n back to a
 * character boundary when both would not fit. */
static void join(const char *text, size_t n, const char *tail, char *out, size_t cap)
{
    size_t t = strlen(tail);
    if (t >= cap)
        t = 0, tail = "";
    if (n + t >= cap) {
        n = cap - 1 - t;
        while (n > 0 && ((unsigned char)text[n] & 0xC0) == 0x80)
            n--;
    }
    memcpy(out, text, n);
    memcpy(out + n, tail, t);
    out[n + t] = '\0';
}

size_t kvt_text_fit(const char *text, int width, const char *ellipsis, char *out, size_t cap)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t len = strlen(text), ew = kvt_text_width(ellipsis, strlen(ellipsis));
    size_t i = 0, cols = 0, word = 0, word_cols = 0, room;

    if (cap == 0)
        return 0;
    out[0] = '\0';
    if (width <= 0)
        return 0;
    if (kvt_text_width(text, len) <= (size_t)width) {
        join(text, len, "", out, cap);
        return kvt_text_width(out, strlen(out));
    }
    if (ew >= (size_t)width)
        ellipsis = "", ew = 0; /* no room for the mark: cut bare */
    room = (size_t)width - ew;
    while (i < len) {
        uint32_t cp;
        size_t n = utf8_decode(s + i, len - i, &cp);
        size_t w = n ? (size_t)kvt_char_width(cp) : 1;
        if (n == 0)
            n = 1;
        if (cp == ' ' && n == 1)
            word = i, word_cols = cols; /* the words before this space fit */
        if (cols + w > room)
            break;
        cols += w;
        i += n;
    }
    if (word > 0 && word_cols * 2 >= room)
        i = word;
    while (i > 0 && strchr(" ,;:", text[i - 1]))
        i--;
    join(text, i, ellipsis, out, cap);
    return kvt_text_width(out, strlen(out));
}
