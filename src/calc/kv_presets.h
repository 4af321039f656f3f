/* kv_presets.h: the model and GPU presets, one data table each.
 *
 * Models are found by their Hugging Face id ("Qwen/Qwen2.5-7B-Instruct") or
 * by alias: the lower-case name without the organisation and without an
 * "-Instruct" or "-it" suffix ("qwen2.5-7b"). GPUs by name ("H100 SXM") or
 * alias ("h100"). Lookups ignore case. */
#ifndef KV_PRESETS_H
#define KV_PRESETS_H

#include <stddef.h>

#include "kv_calc.h"

struct kv_model_preset {
    const char *id;    /* Hugging Face repository */
    const char *alias; /* short names, comma-separated; the first is the one listed */
    const char *arch;  /* attention kind, for listings: "GQA", "MLA", "GQA+SWA" */
    struct kv_model model;
    const char *note; /* one line: what makes this model instructive */
};

/* Bits of kv_gpu_preset.approx: figures the sources could not confirm. */
enum { KV_GPU_APPROX_CLOCK = 1, KV_GPU_APPROX_TFLOPS = 2, KV_GPU_APPROX_L2 = 4 };

struct kv_gpu_preset {
    const char *name;            /* "H100 SXM" */
    const char *aliases;         /* comma-separated: "h100,h100-sxm" */
    const char *compute_cap;     /* "9.0"; "-" for non-NVIDIA parts */
    double memory_gib;           /* marketed size; the driver reports a little less */
    const char *memory_type;     /* "HBM3" */
    unsigned bus_bits;           /* memory bus width */
    double peak_gbps;            /* vendor peak bandwidth, decimal GB/s */
    unsigned long mem_clock_khz; /* as CUDA reports it; 0 = not confirmed */
    double bf16_tflops;          /* dense, no sparsity; 0 = not published */
    double l2_mib;
    unsigned approx; /* KV_GPU_APPROX_* bits */
};

/* The tables, in listing order. */
const struct kv_model_preset *kv_model_presets(size_t *count);
const struct kv_gpu_preset *kv_gpu_presets(size_t *count);

/* Finds a preset by id, alias or name; NULL when none matches. */
const struct kv_model_preset *kv_model_preset_find(const char *name);
const struct kv_gpu_preset *kv_gpu_preset_find(const char *name);

/* Fills out[0..max) with the presets whose names are closest to `name`
 * (edit distance on the normalised names; a name `name` begins counts as
 * distance 0), best first; returns how many, 0 when none is within two
 * edits or a third of the name's length, whichever is more. */
size_t kv_model_preset_suggest(const char *name, const struct kv_model_preset **out, size_t max);
size_t kv_gpu_preset_suggest(const char *name, const struct kv_gpu_preset **out, size_t max);

/* Points a deployment at a GPU: its memory, bandwidth and bf16 TFLOP/s. */
void kv_gpu_preset_apply(const struct kv_gpu_preset *g, struct kv_deploy *d);

#endif
