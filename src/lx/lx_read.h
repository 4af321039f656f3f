/* lx_read.h: reading the table a lesson file returns into struct lx_lesson,
 * checked against the schema (lx_schema.h), every problem reported with its
 * line. The host reads the lesson's tables with raw access only, so no
 * metamethod of the lesson runs outside a deadline. Private to lx. */
#ifndef LX_READ_H
#define LX_READ_H

#include <stdbool.h>

#include "lx_priv.h"
#include "lx_schema.h"
#include "lx_source.h"

/* A table read so far, paired with its constructor in the source. */
struct lx_bound {
    const void *table;
    int node;
};

/* A field refused as unknown that stands for a required one misspelt: the
 * required one is then not also reported missing. */
struct lx_misspelt {
    const void *table;
    const char *key; /* the schema's spelling */
};

struct lx_reader {
    struct lx_lesson *l;
    struct lx_priv *p;
    lua_State *L;
    struct lx_report *rep;
    const struct lx_source *src; /* where things are written; NULL: lines of tables only */
    struct lx_bound *bound;
    size_t n_bound, cap_bound;
    struct lx_bound last; /* node_of's last answer: a list's items ask for it in turn */
    struct lx_misspelt misspelt[16];
    size_t n_misspelt;
};

/* Reads the lesson table at stack index t into c->l. Runs inside a
 * protected call: it may raise on running out of memory. */
void lx_read_lesson(struct lx_reader *c, int t);

/* Reads t.exercises (lx_read_exercise.c). */
void lx_read_exercises(struct lx_reader *c, int t, int line);

/* Reads t.serving into e->serving (lx_read_serving.c). */
void lx_read_serving(struct lx_reader *c, int t, struct lx_exercise *e, const char *where);

/* True when v can be graded as exercise e's answer; else a problem naming
 * `source` ("the expected value") is reported. */
bool lx_value_ok(struct lx_reader *c, const struct lx_exercise *e, double v, const char *where,
                 const char *source);

/* The helpers both readers use. */
void lx_problem(struct lx_reader *c, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int lx_read_line(struct lx_reader *c, int t, int fallback); /* a table's own line */
/* The line where table t writes field `key` (or its i-th listed value);
 * the fallback when the source does not say (a table built by code). */
int lx_key_line(struct lx_reader *c, int t, const char *key, int fallback);
int lx_item_line(struct lx_reader *c, int t, size_t i, int fallback);
/* Reports "WHAT: missing field 'KEY'" (or the message given) at the
 * table's line, unless an unknown field of t was a misspelling of key,
 * already reported. */
void lx_missing(struct lx_reader *c, int t, const char *key, int line, const char *what,
                const char *hint);
bool lx_valid_id(const char *s);
bool lx_finite_number(lua_State *L, int i, double *v);
/* Every key of table t must be one the schema lists for shape s. */
void lx_check_keys(struct lx_reader *c, int t, enum lx_shape s, const char *what, int line);
/* Pushes t[key] (raw) and returns its type. */
int lx_field(struct lx_reader *c, int t, const char *key);
/* A list at stack index t (the value of `key`) must hold values only: a
 * named field in it is one a '}' closed too early left where nothing
 * reads it, and is reported at its line. */
void lx_check_list(struct lx_reader *c, int t, const char *what, const char *key, int line);
/* Pushes t[i] (raw) and returns its type. */
int lx_item(struct lx_reader *c, int t, size_t i);
/* code [[ ... ]] or text under key, kept in the arena; NULL when absent or
 * wrong (said, and said missing when required). */
const char *lx_code_field(struct lx_reader *c, int t, const char *key, bool required,
                          const char *what, int line);
/* A text field: NULL when absent (and a problem when required). */
const char *lx_str_field(struct lx_reader *c, int t, const char *key, bool required,
                         const char *what, int line);
/* A list of text at t[key] (one text counts as a list of one). */
const char **lx_str_list(struct lx_reader *c, int t, const char *key, size_t *n, const char *what,
                         int line);
/* t.points: key points, at least one and at most LX_MAX_POINTS. */
struct lx_point *lx_read_points(struct lx_reader *c, int t, size_t *n, const char *what, int line);
/* t.misconceptions: misconception { about, said, why }, at most max (a question's
 * LX_MAX_MISCONCEPTIONS, the course file's LX_MAX_COURSE_MISCONCEPTIONS). */
struct lx_misconception *lx_read_misconceptions(struct lx_reader *c, int t, size_t *n,
                                                const char *what, int line, size_t max);
/* The course-wide misconceptions (lua/misconceptions.lua, read with
 * lx_read_misconceptions) appended to every question's own: the lesson's
 * question, each follow-up and each free-text exercise. A wrong claim the
 * whole course knows is then found whichever item it is written under. */
void lx_read_course_misconceptions(struct lx_reader *c, struct lx_misconception *course,
                                   size_t n_course);
/* The glossary groups at stack index t, appended to the lesson's. */
void lx_read_glossary(struct lx_reader *c, int t, const char *what, int line);

#endif
