/* kv_vllm.h: which vLLM release's start-up arithmetic the calculator follows.
 *
 * A version string ("0.26.0", "v0.20.1rc1", "0.19.0.dev705+g01220ce89",
 * "0.11.post1") is read into numbers; suffixes are ignored. A rule set is
 * then picked from a table keyed by the first release each rule held for
 * (docs/calculator.md lists every rule, the vLLM file and function it comes
 * from, and the evidence). Where the public sources cannot date a boundary,
 * the rule applies from the first release with evidence and the rule set
 * carries a note saying so. */
#ifndef KV_VLLM_H
#define KV_VLLM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* 0.0.0.0 means "not given": the default, KV_VLLM_DEFAULT. */
struct kv_vllm_version {
    uint16_t major, minor, patch, build;
    /* the numbers were followed by rcN, aN, bN or a .devN: a build from
     * before the release they name (never part of a comparison) */
    bool pre;
};

#define KV_VLLM_DEFAULT   "0.26.0"
#define KV_VLLM_NOTES_MAX 8

/* How the hybrid allocator sizes its groups of layers
 * (vllm/v1/core/kv_cache_utils.py, _get_kv_cache_groups_uniform_page_size). */
enum kv_group_rule {
    KV_GROUP_MIN,     /* the smallest bucket of same-kind layers */
    KV_GROUP_MAX_125, /* the largest when it is under 1.25 x the smallest */
    KV_GROUP_MAX_150, /* the largest when it is under 1.5 x the smallest */
};

/* What a note is about, so the calculator keeps only the ones that touch the
 * model and deployment at hand. */
enum kv_note_topic {
    KV_NOTE_ALWAYS,
    KV_NOTE_UTIL,             /* the gpu_memory_utilization default */
    KV_NOTE_TOKENS,           /* the "GPU KV cache size" line */
    KV_NOTE_GROUPS,           /* hybrid grouping */
    KV_NOTE_SLIDING,          /* sliding-window blocks per request */
    KV_NOTE_MAMBA,            /* Mamba / linear-attention blocks per request */
    KV_NOTE_ADMISSION,        /* the scheduler's admission gate: kvtutor sim's, never calc's */
    KV_NOTE_NEMOTRON_SSM,     /* NemotronH's SSM dtype: the config's key read at all */
    KV_NOTE_NEMOTRON_DEFAULT, /* NemotronH's SSM dtype when the config has none */
};

struct kv_note {
    enum kv_note_topic topic;
    const char *text; /* static */
};

struct kv_rules {
    struct kv_vllm_version version; /* the release asked for (the default when none) */
    double util_default;            /* CacheConfig.gpu_memory_utilization */
    bool tokens_from_concurrency;   /* "GPU KV cache size" = int(concurrency x max_model_len) */
    enum kv_group_rule group_rule;
    bool sliding_in_flight;   /* windows keep W - 1 + in-flight tokens, not + one batch */
    bool mamba_align_default; /* prefix caching on: Mamba groups hold 2 + k blocks ("align") */
    /* SchedulerConfig.scheduler_reserve_full_isl's default: a waiting request
     * is admitted only when its whole sequence so far finds free blocks, not
     * its first chunk alone (kvtutor sim's scheduler, sim_sched.h) */
    bool full_isl_admission;
    /* vllm/model_executor/models/config.py, NemotronHForCausalLMConfig: for
     * NemotronH with mamba_ssm_cache_dtype auto, the SSM state takes the
     * config's mamba_ssm_cache_dtype, else float16 (float32 when _fp32) */
    bool nemotron_ssm_hook, nemotron_ssm_fp32;
    size_t n_notes;
    struct kv_note notes[KV_VLLM_NOTES_MAX]; /* what was assumed or is unverified */
};

/* Reads "X.Y", "X.Y.Z" or "X.Y.Z.W", with a leading 'v' and a suffix such
 * as "rc1", ".dev705+g01220ce89" or ".post1" accepted; a pre-release or
 * development suffix sets out->pre, the rest is ignored. Returns false (and
 * leaves *out alone) for anything else, or a part above 65535. */
bool kv_vllm_parse(const char *s, struct kv_vllm_version *out);

/* "0.26.0" or "0.19.0.1" into buf; returns buf. */
const char *kv_vllm_format(const struct kv_vllm_version *v, char *buf, size_t cap);

/* -1, 0 or 1 as a is older than, the same as, or newer than b. */
int kv_vllm_compare(const struct kv_vllm_version *a, const struct kv_vllm_version *b);

/* The rules of release *v (NULL or 0.0.0.0: the default release). A
 * pre-release or development build (v->pre) gets a note naming the rule set
 * its numbers chose. */
void kv_vllm_rules(const struct kv_vllm_version *v, struct kv_rules *out);

/* Adds a note (a static string) to a rule set; keeps the first
 * KV_VLLM_NOTES_MAX and drops a repeat. */
void kv_rules_note(struct kv_rules *r, enum kv_note_topic topic, const char *text);

#endif
