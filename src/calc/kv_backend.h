/* kv_backend.h: the attention backends the calculator knows by name and the
 * block size each one forces.
 *
 * Internal to the calculator core (kv_calc.c); the public names and parser
 * (kv_backend_parse, kv_backend_name) are declared in kv_calc.h. */
#ifndef KV_BACKEND_H
#define KV_BACKEND_H

#include "kv_calc.h"

/* Whether the backend serves MLA models only. */
bool kv_backend_is_mla(enum kv_backend b);

/* The block size vLLM runs with under backend b when `configured` was asked
 * for (vllm/platforms/cuda.py, CudaPlatformBase.check_and_update_config):
 * a size some MLA backends force, else the configured one. */
uint32_t kv_backend_block(enum kv_backend b, uint32_t configured);

#endif
