/* kvt_template.h: text with {name} placeholders, filled from a list of
 * values. Pure: no allocation, no globals; the lesson prompts use it. */
#ifndef KVT_TEMPLATE_H
#define KVT_TEMPLATE_H

#include <stdbool.h>
#include <stddef.h>

struct kvt_var {
    const char *name;  /* without braces */
    const char *value; /* the text that replaces {name} */
};

/* Writes tmpl into out (cap > 0) with each {name} that names one of vars
 * replaced by its value (the first var of that name wins); any other '{' is
 * copied as it stands. Returns false when out was too small and the text
 * was cut (out still ends in '\0'). */
bool kvt_template_fill(const char *tmpl, const struct kvt_var *vars, size_t n_vars, char *out,
                       size_t cap);

/* The next placeholder at or after s: a '{', 1 to max_len characters that
 * are not '}', then '}'. Returns the '{' and sets *name and *len, or NULL
 * when there is none. Scan on from the return value + 1. */
const char *kvt_template_next(const char *s, size_t max_len, const char **name, size_t *len);

#endif
