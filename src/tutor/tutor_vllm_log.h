/* tutor_vllm_log.h: a vLLM start-up log read from a file, bounded, and the
 * model it is explained against, for `kvtutor explain-log` and the
 * calculator playground alike.
 *
 * The parsing and the explanation are pure and live in src/vllmlog
 * (vllm_log.h, vllm_explain.h); this is the file side: the whole log read
 * into memory, refused at once when it is a folder, larger than
 * VLLM_LOG_MAX_BYTES, or binary (a NUL byte stops the read, so /dev/zero
 * costs one buffer). */
#ifndef TUTOR_VLLM_LOG_H
#define TUTOR_VLLM_LOG_H

#include <stddef.h>
#include <stdio.h>

#include "kv_presets.h"
#include "vllm_log.h"

/* Reads all of `path` (or of `in` when path is NULL, named "standard input"
 * in messages) into *text, NUL-terminated, *len bytes; free it with free().
 * Returns 0, or -1 with a one-line reason in why ("serve.log: binary data (a
 * NUL byte): not a text log"; the name sanitised). */
int tutor_vllm_log_read(const char *path, FILE *in, char **text, size_t *len, char *why,
                        size_t cap);

/* Which model a log is explained against. One order for every caller: a
 * model the learner gave (explain-log's --config, the config.json the
 * playground opened with `o`) wins, because they said what the log is of
 * (a fine-tune or a local copy can carry a preset's name); otherwise the
 * preset the log's own model names; otherwise none, and the caller asks for
 * a config.json in its own words. */
enum tutor_log_model {
    TUTOR_LOG_MODEL_GIVEN,   /* the model given */
    TUTOR_LOG_MODEL_PRESET,  /* the preset the log names */
    TUTOR_LOG_MODEL_UNNAMED, /* nothing given, and the log names no model */
    TUTOR_LOG_MODEL_UNKNOWN, /* nothing given, and the log's model is no preset */
};

/* Sets *out to the model `log` is explained against, `given` (NULL when the
 * learner gave none) first; *preset to the preset used, or NULL. */
enum tutor_log_model tutor_log_model(const struct vllm_log *log, const struct kv_model *given,
                                     struct kv_model *out, const struct kv_model_preset **preset);

#endif
