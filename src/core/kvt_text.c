#include "kvt_text.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

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
