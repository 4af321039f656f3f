/* lx_pattern.h: Lua 5.4 string patterns, with a budget.
 *
 * Why our own matcher: Lua's matcher runs inside one C call where no hook
 * can interrupt it, so a lesson could spend minutes in exponential
 * backtracking ("a?"x26 .. "a"x26 against 26 a's). Running lessons in a
 * child process would also contain that, but it would put a process
 * boundary between the host and every grading callback and value the UI
 * reads. This matcher follows Lua 5.4's pattern language exactly (classes,
 * sets, quantifiers * + - ?, anchors, captures, position captures, %b, %f,
 * back-references) and counts its steps: every 4096 steps it asks `over`
 * whether the lesson's deadline has passed, and stops with an error when it
 * has. Pure C: no Lua, no allocation. */
#ifndef LX_PATTERN_H
#define LX_PATTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LXP_MAXCAPTURES 32
#define LXP_UNFINISHED  (-1)
#define LXP_POSITION    (-2)

struct lxp_state {
    const char *src_init, *src_end; /* the subject */
    const char *p_end;              /* end of the pattern */
    int level;                      /* captures so far */
    int depth;                      /* recursion left before "pattern too complex" */
    struct {
        const char *init;
        ptrdiff_t len; /* bytes, or LXP_UNFINISHED / LXP_POSITION */
    } capture[LXP_MAXCAPTURES];
    uint64_t steps;          /* work done, across calls with this state */
    bool (*over)(void *ctx); /* true: stop (the deadline passed) */
    void *ctx;
    const char *error; /* set when matching stopped with an error */
    char errbuf[96];
};

/* Prepares a match of pattern p[0..lp) against s[0..ls). */
void lxp_init(struct lxp_state *ms, const char *s, size_t ls, const char *p, size_t lp,
              bool (*over)(void *ctx), void *ctx);

/* Resets the captures before another attempt at a new start position. */
void lxp_reset(struct lxp_state *ms);

/* Tries to match pattern p (inside the prepared pattern) at s. Returns the
 * end of the match, or NULL when it does not match or when ms->error is set
 * (a malformed pattern, too complex, or out of time). */
const char *lxp_match(struct lxp_state *ms, const char *s, const char *p);

/* Capture i of a successful match: *start and *len (len LXP_POSITION for a
 * position capture, whose 1-based position is start - src_init + 1). With
 * no explicit captures, capture 0 is the whole match [s, e). Returns false
 * and sets ms->error for an invalid or unfinished capture. */
bool lxp_capture(struct lxp_state *ms, int i, const char *s, const char *e, const char **start,
                 ptrdiff_t *len);

/* True when the pattern has none of the special characters, so a plain
 * substring search gives the same answer. */
bool lxp_no_specials(const char *p, size_t lp);

#endif
