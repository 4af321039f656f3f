/* kv_notes.h: the caveats a result carries: which of the release's notes
 * bear on it, and what this model and deployment lean on that no vLLM log
 * has confirmed.
 *
 * Internal to the calculator core (kv_calc.c). */
#ifndef KV_NOTES_H
#define KV_NOTES_H

#include "kv_calc.h"

/* Keeps the release's notes that apply to res, then adds the model's own.
 * asked is the deployment as given (before defaults were resolved);
 * util_defaulted says the memory fraction was the release's default. */
void kv_notes(struct kv_result *res, const struct kv_deploy *asked, bool util_defaulted);

#endif
