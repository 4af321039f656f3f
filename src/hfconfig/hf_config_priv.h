/* hf_config_priv.h: what the config reader's files share behind
 * hf_config.h: where a field is looked up, the checked readers of one
 * field, and the parameter count. Private to hf_config.c (the model's
 * shape and its layer kinds), hf_src.c (the field readers) and
 * hf_params.c (parameters counted from the shapes). */
#ifndef HF_CONFIG_PRIV_H
#define HF_CONFIG_PRIV_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "hf_config.h"

/* Where fields are looked up: the text model's own object first (Gemma 3
 * nests it under text_config), then the top level. */
struct hf_src {
    json_t *text, *root;
    struct hf_config_error *err;
};

/* Writes the printf-formatted message into err->what; returns code. */
enum kvt_err hf_say(struct hf_config_error *err, enum kvt_err code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The field `key`, from the text model's object or else the top level;
 * NULL when absent or null. */
json_t *hf_field(const struct hf_src *s, const char *key);

/* A non-negative integer field no larger than `max`. Absent or null leaves
 * *out alone and reports *present = false (present may be NULL); anything
 * else is KVT_E_PARSE, naming the field in s->err. */
enum kvt_err hf_get_uint(const struct hf_src *s, const char *key, uint64_t max, uint64_t *out,
                         bool *present);

/* The same, at most KV_MAX_DIM, into a uint32_t. */
enum kvt_err hf_get_u32(const struct hf_src *s, const char *key, uint32_t *out, bool *present);

/* A string field, or NULL when absent or not a string. */
const char *hf_get_str(const struct hf_src *s, const char *key);

/* A boolean field, or the fallback when absent or not a boolean. */
bool hf_get_bool(const struct hf_src *s, const char *key, bool fallback);

/* m's parameters counted from the config's shapes into params_b and
 * active_params_b, setting info->params_counted; a layout it does not
 * count (Mamba2, layers that share KV, a per-layer MoE list, a missing
 * size) leaves them alone and is not an error. KVT_E_PARSE for a malformed
 * size field. */
enum kvt_err hf_params_count(const struct hf_src *s, struct kv_model *m,
                             struct hf_config_info *info);

#endif
