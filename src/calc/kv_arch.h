/* kv_arch.h: the first vLLM release known to serve a model architecture.
 *
 * A config.json sized under the rules of a release that may not load it
 * gets an answer all the same; this says so. Only what is shown is listed:
 * vLLM's model registry (vllm/model_executor/models/registry.py) could not
 * be read release by release, so a row is a release seen serving the
 * architecture in a fixture log, and an older release is "not known to",
 * never "cannot". */
#ifndef KV_ARCH_H
#define KV_ARCH_H

#include "kv_vllm.h"

/* A static note when release *v (or a pre-release of it) is older than
 * the first release seen serving the config's model_type ("qwen3_5", "qwen3_5_moe_text"), else
 * NULL; NULL for a NULL or unlisted model_type. */
const char *kv_arch_release_note(const char *model_type, const struct kv_vllm_version *v);

#endif
