/* Finding text in a lesson: see lx_search.h. */
#include "lx_search.h"

#include <stdio.h>
#include <string.h>

static char fold(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* The first place `needle` (n bytes) occurs in `hay`, ASCII letters
 * folded; NULL when nowhere. */
static const char *find(const char *hay, const char *needle, size_t n)
{
    for (; hay && *hay; hay++) {
        size_t i = 0;
        while (i < n && hay[i] && fold(hay[i]) == fold(needle[i]))
            i++;
        if (i == n)
            return hay;
    }
    return NULL;
}

static bool space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The snippet: from a space about 60 bytes before the match to one about
 * 120 after it, white space folded to single spaces. Cutting only at
 * spaces keeps every UTF-8 sequence whole. */
static void snippet(const char *text, const char *at, size_t n, char *out, size_t cap,
                    size_t *match_at)
{
    const char *from = at, *to = at + n, *end = text + strlen(text);
    size_t o = 0;
    bool cut_front, cut_back, was_space = false;
    const char *p;

    while (from > text && (size_t)(at - from) < 60)
        from--;
    while (from > text && from < at && !space(*from))
        from++; /* forward to a space, so no word is cut */
    if (from > at)
        from = at;
    while (to < end && (size_t)(to - at) < 120)
        to++;
    while (to < end && to > at + n && !space(*to))
        to--;
    while (from < at && space(*from))
        from++;
    cut_front = from > text;
    cut_back = to < end;
    if (cut_front && o + 4 < cap)
        o += (size_t)snprintf(out + o, cap - o, "...");
    *match_at = o;
    for (p = from; p < to && o + 4 < cap; p++) {
        if (p == at)
            *match_at = o;
        /* a whole UTF-8 character or none: its bytes, and "..." after it, fit */
        if (((unsigned char)*p & 0xC0) == 0xC0) {
            size_t len = ((unsigned char)*p & 0xF0) == 0xF0   ? 4
                         : ((unsigned char)*p & 0xE0) == 0xE0 ? 3
                                                              : 2;
            if (o + len + 4 >= cap) {
                cut_back = true;
                break;
            }
        }
        if (space(*p)) {
            if (!was_space && o > 0)
                out[o++] = ' ';
            was_space = true;
            continue;
        }
        was_space = false;
        out[o++] = *p;
    }
    if (p < to)
        cut_back = true; /* the room ran out before the text */
    while (o > 0 && out[o - 1] == ' ')
        o--;
    if (cut_back && o + 4 < cap)
        o += (size_t)snprintf(out + o, cap - o, "...");
    out[o < cap ? o : cap - 1] = '\0';
}

static bool look(const char *text, const char *needle, size_t n, enum lx_hit_where where,
                 size_t index, struct lx_hit *hit)
{
    const char *at = find(text, needle, n);
    if (!at)
        return false;
    if (hit) {
        hit->where = where;
        hit->index = index;
        snippet(text, at, n, hit->snippet, sizeof hit->snippet, &hit->match_at);
    }
    return true;
}

bool lx_lesson_find(const struct lx_lesson *l, const char *needle, struct lx_hit *hit)
{
    size_t n = strlen(needle);

    if (hit)
        *hit = (struct lx_hit){LX_HIT_NONE, 0, "", 0};
    if (n == 0)
        return true;
    if (look(l->title, needle, n, LX_HIT_TITLE, 0, hit) ||
        look(l->question, needle, n, LX_HIT_QUESTION, 0, hit) ||
        look(l->answer, needle, n, LX_HIT_ANSWER, 0, hit))
        return true;
    for (size_t i = 0; i < l->n_sections; i++)
        if (look(l->sections[i].title, needle, n, LX_HIT_SECTION, i, hit) ||
            look(l->sections[i].text, needle, n, LX_HIT_SECTION, i, hit))
            return true;
    if (look(l->worked, needle, n, LX_HIT_WORKED, 0, hit))
        return true;
    for (size_t i = 0; i < l->n_followups; i++)
        if (look(l->followups[i].question, needle, n, LX_HIT_FOLLOWUP, i, hit))
            return true;
    for (size_t i = 0; i < l->n_exercises; i++)
        if (look(l->exercises[i].prompt, needle, n, LX_HIT_EXERCISE, i, hit))
            return true;
    return look(l->id, needle, n, LX_HIT_NAME, 0, hit) ||
           look(l->concept, needle, n, LX_HIT_NAME, 0, hit);
}
