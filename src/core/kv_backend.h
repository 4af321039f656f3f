/* kv_backend.h: the attention backends the calculator knows by name and the
 * block size each one forces.
 *
 * Internal to the calculator core (kv_calc.c); the public names and parser
 * (kv_backend_parse, kv_backend_name) are declared in kv_calc.h. */
#ifndef KV_BACKEND_H
#define KV_BACKEND_H

#include "kv_calc.h"

/* The block size a backend forces, 0 when it takes the configured one
 * (vllm/platforms/cuda.py, CudaPlatform.check_and_update_config). */
uint32_t kv_backend_block(enum kv_backend b);

#endif
