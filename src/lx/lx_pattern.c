#include "lx_pattern.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define ESC         '%'
#define SPECIALS    "^$*+?.([%-"
#define MAX_DEPTH   200  /* as Lua's MAXCCALLS: deeper is "pattern too complex" */
#define CHECK_EVERY 4096 /* steps between deadline checks */

static const char *fail(struct lxp_state *ms, const char *msg)
{
    if (!ms->error)
        ms->error = msg;
    return NULL;
}

/* "invalid capture index %N", N 1-based, as Lua words it. */
static const char *bad_index(struct lxp_state *ms, int l)
{
    snprintf(ms->errbuf, sizeof ms->errbuf, "invalid capture index %%%d", l + 1);
    return fail(ms, ms->errbuf);
}

/* One unit of work; false when matching must stop. */
static bool tick(struct lxp_state *ms)
{
    if (ms->error)
        return false;
    if (++ms->steps % CHECK_EVERY == 0 && ms->over && ms->over(ms->ctx)) {
        fail(ms, "pattern matching ran past the deadline");
        return false;
    }
    return true;
}

void lxp_init(struct lxp_state *ms, const char *s, size_t ls, const char *p, size_t lp,
              bool (*over)(void *ctx), void *ctx)
{
    memset(ms, 0, sizeof *ms);
    ms->src_init = s;
    ms->src_end = s + ls;
    ms->p_end = p + lp;
    ms->over = over;
    ms->ctx = ctx;
    lxp_reset(ms);
}

void lxp_reset(struct lxp_state *ms)
{
    ms->level = 0;
    ms->depth = MAX_DEPTH;
}

bool lxp_no_specials(const char *p, size_t lp)
{
    for (size_t i = 0; i < lp; i++)
        if (strchr(SPECIALS, p[i]) && p[i] != '\0')
            return false;
    return true;
}

/* Where the single-character class starting at p ends. */
static const char *class_end(struct lxp_state *ms, const char *p)
{
    if (*p++ == ESC) {
        if (p >= ms->p_end)
            return fail(ms, "malformed pattern (ends with '%')");
        return p + 1;
    }
    if (p[-1] == '[') {
        if (*p == '^')
            p++;
        do { /* a ']' right after '[' or '[^' is a member, not the end */
            if (p >= ms->p_end)
                return fail(ms, "malformed pattern (missing ']')");
            if (*(p++) == ESC && p < ms->p_end)
                p++;
        } while (*p != ']');
        return p + 1;
    }
    return p;
}

/* Does character c belong to class %cl? */
static bool class_has(int c, int cl)
{
    bool res;
    switch (tolower(cl)) {
    case 'a':
        res = isalpha(c);
        break;
    case 'c':
        res = iscntrl(c);
        break;
    case 'd':
        res = isdigit(c);
        break;
    case 'g':
        res = isgraph(c);
        break;
    case 'l':
        res = islower(c);
        break;
    case 'p':
        res = ispunct(c);
        break;
    case 's':
        res = isspace(c);
        break;
    case 'u':
        res = isupper(c);
        break;
    case 'w':
        res = isalnum(c);
        break;
    case 'x':
        res = isxdigit(c);
        break;
    default:
        return cl == c; /* %. %% %[ ...: the character itself */
    }
    return isupper(cl) ? !res : res;
}

/* Does c belong to the set [p .. ec], p at '[' and ec at its ']'? */
static bool set_has(int c, const char *p, const char *ec)
{
    bool want = true;
    if (*(p + 1) == '^') {
        want = false;
        p++;
    }
    while (++p < ec) {
        if (*p == ESC) {
            p++;
            if (class_has(c, (unsigned char)*p))
                return want;
        } else if (*(p + 1) == '-' && p + 2 < ec) {
            p += 2;
            if ((unsigned char)*(p - 2) <= c && c <= (unsigned char)*p)
                return want;
        } else if ((unsigned char)*p == c) {
            return want;
        }
    }
    return !want;
}

static bool single_match(struct lxp_state *ms, const char *s, const char *p, const char *ep)
{
    int c;
    if (s >= ms->src_end)
        return false;
    c = (unsigned char)*s;
    switch (*p) {
    case '.':
        return true;
    case ESC:
        return class_has(c, (unsigned char)*(p + 1));
    case '[':
        return set_has(c, p, ep - 1);
    default:
        return (unsigned char)*p == c;
    }
}

static const char *do_match(struct lxp_state *ms, const char *s, const char *p);

/* %bxy: a balanced run from x to its matching y. */
static const char *match_balance(struct lxp_state *ms, const char *s, const char *p)
{
    int open, close, cont = 1;
    if (p + 1 >= ms->p_end)
        return fail(ms, "malformed pattern (missing arguments to '%b')");
    if (s >= ms->src_end || *s != *p)
        return NULL;
    open = *p;
    close = *(p + 1);
    while (++s < ms->src_end) {
        if (!tick(ms))
            return NULL;
        if (*s == close) {
            if (--cont == 0)
                return s + 1;
        } else if (*s == open) {
            cont++;
        }
    }
    return NULL;
}

/* Greedy: take as many as match, then give back one at a time. */
static const char *max_expand(struct lxp_state *ms, const char *s, const char *p, const char *ep)
{
    ptrdiff_t i = 0;
    while (single_match(ms, s + i, p, ep)) {
        if (!tick(ms))
            return NULL;
        i++;
    }
    while (i >= 0) {
        const char *res = do_match(ms, s + i, ep + 1);
        if (res || ms->error)
            return res;
        i--;
    }
    return NULL;
}

/* Lazy: take as few as possible, one more each time the rest fails. */
static const char *min_expand(struct lxp_state *ms, const char *s, const char *p, const char *ep)
{
    for (;;) {
        const char *res = do_match(ms, s, ep + 1);
        if (res || ms->error)
            return res;
        if (!single_match(ms, s, p, ep) || !tick(ms))
            return NULL;
        s++;
    }
}

static const char *start_capture(struct lxp_state *ms, const char *s, const char *p, ptrdiff_t what)
{
    const char *res;
    int level = ms->level;
    if (level >= LXP_MAXCAPTURES)
        return fail(ms, "too many captures");
    ms->capture[level].init = s;
    ms->capture[level].len = what;
    ms->level = level + 1;
    if ((res = do_match(ms, s, p)) == NULL)
        ms->level--; /* undo the capture */
    return res;
}

static const char *end_capture(struct lxp_state *ms, const char *s, const char *p)
{
    int l = -1;
    const char *res;
    for (int level = ms->level - 1; level >= 0; level--) {
        if (ms->capture[level].len == LXP_UNFINISHED) {
            l = level;
            break;
        }
    }
    if (l < 0)
        return fail(ms, "invalid pattern capture");
    ms->capture[l].len = s - ms->capture[l].init;
    if ((res = do_match(ms, s, p)) == NULL)
        ms->capture[l].len = LXP_UNFINISHED;
    return res;
}

/* %1 .. %9: the text of an earlier capture again. */
static const char *match_capture(struct lxp_state *ms, const char *s, int l)
{
    size_t len;
    l -= '1';
    if (l < 0 || l >= ms->level || ms->capture[l].len == LXP_UNFINISHED)
        return bad_index(ms, l);
    len = (size_t)ms->capture[l].len;
    if ((size_t)(ms->src_end - s) >= len && memcmp(ms->capture[l].init, s, len) == 0)
        return s + len;
    return NULL;
}

static const char *do_match(struct lxp_state *ms, const char *s, const char *p)
{
    const char *res;
    if (!tick(ms))
        return NULL;
    if (ms->depth-- == 0)
        return fail(ms, "pattern too complex");
    for (;;) {
        const char *ep;
        if (p == ms->p_end) {
            res = s;
            break;
        }
        switch (*p) {
        case '(':
            res = *(p + 1) == ')' ? start_capture(ms, s, p + 2, LXP_POSITION)
                                  : start_capture(ms, s, p + 1, LXP_UNFINISHED);
            goto done;
        case ')':
            res = end_capture(ms, s, p + 1);
            goto done;
        case '$':
            if (p + 1 != ms->p_end)
                goto plain; /* '$' not at the end is an ordinary character */
            res = s == ms->src_end ? s : NULL;
            goto done;
        case ESC:
            switch (*(p + 1)) {
            case 'b':
                s = match_balance(ms, s, p + 2);
                if (s) {
                    p += 4;
                    continue;
                }
                res = NULL;
                goto done;
            case 'f': {
                const char *set_end;
                int prev, cur;
                p += 2;
                if (*p != '[')
                    return fail(ms, "missing '[' after '%f' in pattern");
                if (!(set_end = class_end(ms, p)))
                    return NULL;
                prev = s == ms->src_init ? 0 : (unsigned char)*(s - 1);
                cur = s < ms->src_end ? (unsigned char)*s : 0;
                if (!set_has(prev, p, set_end - 1) && set_has(cur, p, set_end - 1)) {
                    p = set_end;
                    continue;
                }
                res = NULL;
                goto done;
            }
            case '0':
            case '1':
            case '2':
            case '3':
            case '4':
            case '5':
            case '6':
            case '7':
            case '8':
            case '9':
                s = match_capture(ms, s, (unsigned char)*(p + 1));
                if (s) {
                    p += 2;
                    continue;
                }
                res = NULL;
                goto done;
            default:
                goto plain;
            }
        default:
        plain:
            if (!(ep = class_end(ms, p)))
                return NULL;
            if (!single_match(ms, s, p, ep)) {
                if (*ep == '*' || *ep == '?' || *ep == '-') {
                    p = ep + 1; /* zero repetitions are fine */
                    continue;
                }
                res = NULL;
            } else {
                switch (*ep) {
                case '?':
                    res = do_match(ms, s + 1, ep + 1);
                    if (res || ms->error)
                        goto done;
                    p = ep + 1;
                    continue;
                case '+':
                    res = max_expand(ms, s + 1, p, ep);
                    break;
                case '*':
                    res = max_expand(ms, s, p, ep);
                    break;
                case '-':
                    res = min_expand(ms, s, p, ep);
                    break;
                default:
                    s++;
                    p = ep;
                    continue;
                }
            }
            goto done;
        }
    }
done:
    ms->depth++;
    return ms->error ? NULL : res;
}

const char *lxp_match(struct lxp_state *ms, const char *s, const char *p)
{
    return do_match(ms, s, p);
}

bool lxp_capture(struct lxp_state *ms, int i, const char *s, const char *e, const char **start,
                 ptrdiff_t *len)
{
    if (i >= ms->level) {
        if (i != 0) {
            bad_index(ms, i);
            return false;
        }
        *start = s; /* no explicit captures: the whole match */
        *len = e - s;
        return true;
    }
    if (ms->capture[i].len == LXP_UNFINISHED) {
        fail(ms, "unfinished capture");
        return false;
    }
    *start = ms->capture[i].init;
    *len = ms->capture[i].len;
    return true;
}
