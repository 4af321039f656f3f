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
 * for (16 standing for vLLM's default): a size some MLA backends fix, the
 * backend's preferred size for the default, else the configured one; 0 when
 * the backend cannot run blocks of that size (vLLM refuses it). */
uint32_t kv_backend_block(enum kv_backend b, uint32_t configured);

#endif
