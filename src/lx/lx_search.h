/* lx_search.h: finding the learner's words in a lesson, for the course
 * map's search.
 *
 * A search looks where the learner reads: the title, the question, the
 * direct answer, each section, the worked arithmetic, the follow-ups'
 * questions and the exercises' prompts (never an answer the learner has not
 * given yet: a follow-up's model answer, a hint), then the lesson's id and
 * concept. ASCII letters match either case; everything else as written. */
#ifndef LX_SEARCH_H
#define LX_SEARCH_H

#include <stdbool.h>
#include <stddef.h>

#include "lx.h"

/* Where the first match lies, in that order. */
enum lx_hit_where {
    LX_HIT_NONE, /* an empty search: every lesson, nowhere in particular */
    LX_HIT_TITLE,
    LX_HIT_QUESTION,
    LX_HIT_ANSWER,
    LX_HIT_SECTION, /* sections[index], its title or text */
    LX_HIT_WORKED,
    LX_HIT_FOLLOWUP, /* followups[index].question */
    LX_HIT_EXERCISE, /* exercises[index].prompt */
    LX_HIT_NAME,     /* the lesson's id or concept */
};

#define LX_HIT_SNIPPET 200

struct lx_hit {
    enum lx_hit_where where;
    size_t index;
    /* the words around the match on one line (runs of white space made
     * one space), cut at spaces, "..." where cut; UTF-8 kept whole */
    char snippet[LX_HIT_SNIPPET];
    size_t match_at; /* the match's first byte in snippet, so a short line can keep it in view */
};

/* True when `needle` occurs in the lesson, with the first place in *hit
 * (hit may be NULL). An empty needle matches every lesson (LX_HIT_NONE). */
bool lx_lesson_find(const struct lx_lesson *l, const char *needle, struct lx_hit *hit);

#endif
