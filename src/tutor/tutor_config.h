/* tutor_config.h: a model's config.json read the one way `kvtutor calc`,
 * `explain-log --config` and the playground's `o` all read it, with one
 * form of message for a file that cannot be used. */
#ifndef TUTOR_CONFIG_H
#define TUTOR_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "hf_config.h"
#include "kv_calc.h"

/* Reads `path` into *m (and *info). Returns KVT_E_OK, or hf_config_load's
 * code with why = "PATH:LINE:COLUMN: what" where the JSON broke, else
 * "PATH: what" (the path sanitised, cut to fit). */
enum kvt_err tutor_config_load(const char *path, struct kv_model *m, struct hf_config_info *info,
                               char *why, size_t cap);

/* The config gave no parameter count, so the weights' size is unknown:
 * the playground asks for the count rather than guess (calc's own check
 * names the missing field, KV_FIELD_PARAMS). */
bool tutor_config_needs_params(const struct kv_model *m);

#endif
