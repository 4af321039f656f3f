/* The config reader's checked readers of one field (hf_config_priv.h). */
#include "hf_config_priv.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum kvt_err hf_say(struct hf_config_error *err, enum kvt_err code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->what, sizeof err->what, fmt, ap);
    va_end(ap);
    return code;
}

static json_t *lookup(const struct hf_src *s, const char *key)
{
    json_t *v = json_object_get(s->text, key);
    if ((!v || json_is_null(v)) && s->text != s->root)
        v = json_object_get(s->root, key);
    return (v && !json_is_null(v)) ? v : NULL;
}

json_t *hf_field(const struct hf_src *s, const char *key)
{
    json_t *v = lookup(s, key);
    for (const struct hf_alias *a = s->aliases; !v && a && a->key; a++)
        if (strcmp(a->key, key) == 0)
            v = lookup(s, a->spelled);
    return v;
}

enum kvt_err hf_get_uint(const struct hf_src *s, const char *key, uint64_t max, uint64_t *out,
                         bool *present)
{
    json_t *v = hf_field(s, key);
    double d;

    if (present)
        *present = false;
    if (!v)
        return KVT_E_OK;
    if (json_is_integer(v)) {
        json_int_t i = json_integer_value(v);
        if (i < 0 || (uint64_t)i > max)
            return hf_say(s->err, KVT_E_PARSE, "%s is %lld, outside 0..%llu", key, (long long)i,
                          (unsigned long long)max);
        *out = (uint64_t)i;
    } else if (json_is_real(v) && (d = json_real_value(v)) >= 0 && d <= (double)max &&
               d == (double)(uint64_t)d) {
        *out = (uint64_t)d;
    } else {
        return hf_say(s->err, KVT_E_PARSE, "%s must be a non-negative integer", key);
    }
    if (present)
        *present = true;
    return KVT_E_OK;
}

enum kvt_err hf_get_u32(const struct hf_src *s, const char *key, uint32_t *out, bool *present)
{
    uint64_t v = *out;
    enum kvt_err e = hf_get_uint(s, key, KV_MAX_DIM, &v, present);
    *out = (uint32_t)v;
    return e;
}

const char *hf_get_str(const struct hf_src *s, const char *key)
{
    json_t *v = hf_field(s, key);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

bool hf_get_bool(const struct hf_src *s, const char *key, bool fallback)
{
    json_t *v = hf_field(s, key);
    return json_is_boolean(v) ? json_is_true(v) : fallback;
}
