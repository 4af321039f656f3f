/* lx_schema.h: what a lesson file may say, declared once. The loader
 * refuses any key a table of that kind does not list here, and anything
 * past a limit, so `kvtutor lint` and the app agree on what a lesson is;
 * lint's help prints the limits from the same table. To add a field, add
 * its key to the kind's list in lx_schema.c and read it in lx_read*.c. */
#ifndef LX_SCHEMA_H
#define LX_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>

/* The kinds of table a lesson is built from. */
enum lx_shape {
    LX_SHAPE_LESSON,
    LX_SHAPE_SECTION,
    LX_SHAPE_FOLLOWUP,
    LX_SHAPE_NUMERIC,
    LX_SHAPE_CHOICE,
    LX_SHAPE_FREETEXT,
    LX_SHAPE_OPTION,
    LX_SHAPE_POINT,
    LX_SHAPE_MISCONCEPTION,
    LX_SHAPE__COUNT
};

struct lx_shape_info {
    const char *name;        /* as the DSL writes it: "numeric" */
    const char *const *keys; /* the keys it takes, NULL-terminated */
    bool list_ok;            /* also takes t[1] (option { "text" }, point { "text" }) */
};

/* The shape's entry; NULL past the list. */
const struct lx_shape_info *lx_shape_info(enum lx_shape s);

/* The shape the DSL calls `name` ("choice"), or LX_SHAPE__COUNT. */
enum lx_shape lx_shape_find(const char *name);

/* True when a table of shape s may have the key. */
bool lx_shape_allows(enum lx_shape s, const char *key);

/* Limits: a lesson past one is refused with the limit named, never cut
 * short in silence. name, the most allowed, of what */
#define LX_LIMITS(X)                                                                               \
    X(POINTS, 32, "key points in one question") /* kv_claims grades this many */                   \
    X(MISCONCEPTIONS, 16, "misconceptions in one question")                                        \
    X(COURSE_MISCONCEPTIONS, 24, "course-wide misconceptions (lua/misconceptions.lua)")            \
    X(GLOSSARY, 256, "glossary groups, the course's and the lesson's")                             \
    X(OPTIONS, 64, "options in one choice")                                                        \
    X(PARAMS, 16, "parameters in one exercise")                                                    \
    X(PARAM_NAME, 31, "characters in a parameter's name")                                          \
    X(PARAM_TEXT, 47, "characters in a parameter's value")                                         \
    X(ID, 64, "characters in an id")                                                               \
    X(PROMPT, 2047, "bytes in a numeric prompt, placeholders filled in")

enum {
#define LX_LIMIT_ENUM(name, max, what) LX_MAX_##name = max,
    LX_LIMITS(LX_LIMIT_ENUM)
#undef LX_LIMIT_ENUM
};

struct lx_limit {
    const char *name; /* "POINTS" */
    size_t max;
    const char *what; /* "key points in one question" */
};

/* The limits in the order above; *n receives how many. */
const struct lx_limit *lx_limits(size_t *n);

/* True for the ids that name a lesson's own question and follow-ups where
 * attempts and schedules are kept and `kvtutor ask` takes an item
 * ("question", "followup-" then digits): no exercise may take one. */
bool lx_reserved_id(const char *id);

#endif
