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

/* Another spelling of a field that a family's config class maps to it
 * (Hugging Face's attribute_map): `spelled` is read when `key` is absent. */
struct hf_alias {
    const char *key, *spelled;
};

/* Where fields are looked up: the text model's own object first (Gemma 3
 * nests it under text_config), then the top level; then the family's other
 * spelling of the field, if it has one (a list ending in {NULL, NULL}). */
struct hf_src {
    json_t *text, *root;
    struct hf_config_error *err;
    const struct hf_alias *aliases;
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

/* hf_family.c: the families whose attention reads its own keys, as vLLM's
 * model code reads them. */

/* The other spellings of fields in the family `model_type` (gpt_bigcode's
 * n_layer, ChatGLM's num_layers); NULL when none. */
const struct hf_alias *hf_family_aliases(const char *model_type);

/* KVT_E_PARSE, naming both, when a field and its other spelling are both
 * given with different values: the config class takes them as one field. */
enum kvt_err hf_family_check_aliases(const struct hf_src *s);

/* KV heads of a family whose attention decides them from its own keys
 * (Falcon, GPTBigCode, ChatGLM): sets *kv_heads and *ruled = true, with
 * head_dim then hidden_size / heads as those attention classes compute it.
 * *ruled = false for any other family. KVT_E_PARSE for a malformed key. */
enum kvt_err hf_family_kv_heads(const struct hf_src *s, const char *model_type, uint32_t heads,
                                uint32_t *kv_heads, bool *ruled);

/* A note on a key that changes nothing in the sizing but a reader should
 * know of (Llama 4's attention_chunk_size), into info->note; empty when
 * none. */
void hf_family_note(const struct hf_src *s, uint32_t layers, struct hf_config_info *info);

/* m's parameters counted from the config's shapes into params_b and
 * active_params_b, setting info->params_counted; a layout it does not
 * count (Mamba2, layers that share KV, a per-layer MoE list, a missing
 * size) leaves them alone and is not an error. KVT_E_PARSE for a malformed
 * size field. */
enum kvt_err hf_params_count(const struct hf_src *s, struct kv_model *m,
                             struct hf_config_info *info);

#endif
