#include "kvt_template.h"

#include <string.h>

/* Appends n bytes of s; false when they did not all fit. */
static bool append(char *out, size_t cap, size_t *len, const char *s, size_t n)
{
    bool fits = *len + n < cap;
    if (!fits)
        n = cap - *len - 1;
    memcpy(out + *len, s, n);
    *len += n;
    out[*len] = '\0';
    return fits;
}

static const struct kvt_var *find(const struct kvt_var *vars, size_t n_vars, const char *name,
                                  size_t len)
{
    for (size_t i = 0; i < n_vars; i++)
        if (strlen(vars[i].name) == len && strncmp(vars[i].name, name, len) == 0)
            return &vars[i];
    return NULL;
}

bool kvt_template_fill(const char *tmpl, const struct kvt_var *vars, size_t n_vars, char *out,
                       size_t cap)
{
    size_t len = 0;
    bool fits = true;

    out[0] = '\0';
    for (const char *s = tmpl ? tmpl : ""; *s && fits;) {
        const char *open = strchr(s, '{');
        const struct kvt_var *v;
        size_t n;
        if (!open)
            return append(out, cap, &len, s, strlen(s));
        fits = append(out, cap, &len, s, (size_t)(open - s));
        n = strcspn(open + 1, "}");
        v = open[1 + n] == '}' ? find(vars, n_vars, open + 1, n) : NULL;
        if (v) {
            fits = fits && append(out, cap, &len, v->value, strlen(v->value));
            s = open + n + 2;
        } else {
            fits = fits && append(out, cap, &len, "{", 1);
            s = open + 1;
        }
    }
    return fits;
}

const char *kvt_template_next(const char *s, size_t max_len, const char **name, size_t *len)
{
    for (const char *p = strchr(s, '{'); p; p = strchr(p + 1, '{')) {
        size_t n = strcspn(p + 1, "}");
        if (p[1 + n] == '}' && n > 0 && n <= max_len) {
            *name = p + 1;
            *len = n;
            return p;
        }
    }
    return NULL;
}
