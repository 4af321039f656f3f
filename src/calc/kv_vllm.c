#include "kv_vllm.h"

#include <stdio.h>
#include <string.h>

/* One row per release where a modelled rule changed; a release takes the
 * last row not newer than it. docs/calculator.md gives each rule's source
 * (vLLM file and function) and evidence. */
#define V(minor, patch)                                                                            \
    {                                                                                              \
        0, minor, patch, 0, false                                                                  \
    }

/* What a pre-release or development build is told: which rule set its
 * numbers chose (one string a row, the notes being static). */
#define PRE_NOTE(span)                                                                             \
    "a pre-release or development build (rcN, .devN): read as the release its numbers name, "      \
    "so the rule set of " span " is used; a build from between releases may already carry a "      \
    "change of the next one"

static const struct rule_set {
    struct kv_vllm_version from;
    double util_default;
    bool tokens_from_concurrency;
    enum kv_group_rule group_rule;
    bool sliding_in_flight;
    bool mamba_align_default;
    bool full_isl_admission;
    bool nemotron_ssm_hook, nemotron_ssm_fp32;
    const char *pre_note;
} sets[] = {
    /* V1's first modelled release: the floor of every older log too */
    {V(6, 0), 0.9, false, KV_GROUP_MIN, false, false, false, false, false,
     PRE_NOTE("0.6.0 to 0.11")},
    /* PR #29303 (merged 2025-11-24): the largest bucket within 1.25 x */
    {V(12, 0), 0.9, false, KV_GROUP_MAX_125, false, false, false, false, false, PRE_NOTE("0.12")},
    /* PR #29978 (opened 2025-12-03): NemotronH's SSM state takes the config's
     * mamba_ssm_cache_dtype, else float16 */
    {V(13, 0), 0.9, false, KV_GROUP_MAX_125, false, false, false, true, false,
     PRE_NOTE("0.13.0 to 0.17")},
    /* PR #36684 (merged 2026-03-10): 1.25 -> 1.5 */
    {V(18, 0), 0.9, false, KV_GROUP_MAX_150, false, false, false, true, false,
     PRE_NOTE("0.18.0 to 0.19")},
    /* PR #39032 (opened 2026-04-05): NemotronH's default float16 -> float32 */
    {V(20, 0), 0.9, false, KV_GROUP_MAX_150, false, false, false, true, true, PRE_NOTE("0.20.0")},
    /* 0.20.1 logs: one line "GPU KV cache size: N tokens, Maximum
     * concurrency ..." with N = int(concurrency x max_model_len); Mamba
     * groups hold 2 + k blocks with prefix caching on (align mode) */
    {V(20, 1), 0.9, true, KV_GROUP_MAX_150, false, true, false, true, true,
     PRE_NOTE("0.20.1 to 0.23")},
    /* PR #37307 (opened 2026-03-17): SchedulerConfig.scheduler_reserve_full_isl,
     * True; a patch written for 0.24.0 finds its admission call in
     * scheduler.py, the first release with evidence */
    {V(24, 0), 0.9, true, KV_GROUP_MAX_150, false, true, true, true, true, PRE_NOTE("0.24")},
    /* 0.25.0's CacheConfig: gpu_memory_utilization = 0.92 */
    {V(25, 0), 0.92, true, KV_GROUP_MAX_150, false, true, true, true, true, PRE_NOTE("0.25")},
    /* PR #47728 (merged 2026-07): windows keep W - 1 + max_in_flight_tokens */
    {V(26, 0), 0.92, true, KV_GROUP_MAX_150, true, true, true, true, true,
     PRE_NOTE("0.26 and later")},
};

/* Boundaries the public sources cannot date: a release inside [lo, hi)
 * gets the note. */
static const struct window {
    struct kv_vllm_version lo, hi;
    enum kv_note_topic topic;
    const char *text;
} windows[] = {
    {V(10, 0), V(13, 0), KV_NOTE_GROUPS,
     "hybrid group size: the 1.25x rule came with PR #29303 (merged 2025-11-24); the first "
     "release carrying it is unverified, so it is applied from 0.12.0"},
    {V(17, 0), V(19, 0), KV_NOTE_GROUPS,
     "hybrid group size: the 1.5x rule came with PR #36684 (merged 2026-03-10); the first "
     "release carrying it is unverified, so it is applied from 0.18.0"},
    {V(20, 0), V(20, 1), KV_NOTE_TOKENS,
     "0.20.0 is unverified: 0.19.0 logs print floor(blocks / groups) x block size, 0.20.1 logs "
     "int(concurrency x max_model_len); the 0.19 line is used"},
    {V(20, 0), V(20, 1), KV_NOTE_MAMBA,
     "0.20.0 is unverified: 0.19.0 logs give a Mamba group 1 block per request, 0.20.1 logs "
     "2 + k (align mode); 1 is used"},
    {V(20, 0), V(25, 0), KV_NOTE_UTIL,
     "gpu_memory_utilization default: 0.9 up to 0.19, 0.92 in 0.25.0's CacheConfig; the first "
     "0.92 release is unverified, so 0.92 is applied from 0.25.0"},
    {V(18, 0), V(24, 0), KV_NOTE_ADMISSION,
     "admission: scheduler_reserve_full_isl (a waiting request's whole sequence must find free "
     "blocks; PR #37307, opened 2026-03-17) has no dated first release; kvtutor sim applies it "
     "from 0.24.0 and admits on the first chunk before"},
    {V(12, 0), V(14, 0), KV_NOTE_NEMOTRON_SSM,
     "NemotronH's SSM state dtype: the config's mamba_ssm_cache_dtype (else float16) is read "
     "since PR #29978 (opened 2025-12-03); before it, the config's mamba_ssm_dtype or else the "
     "conv state's dtype; the first release carrying "
     "it is unverified, so it is applied from 0.13.0"},
    {V(19, 0), V(21, 0), KV_NOTE_NEMOTRON_DEFAULT,
     "NemotronH's SSM state dtype when the config gives none: float16, then float32 since PR "
     "#39032 (opened 2026-04-05); the first release carrying it is unverified, so float32 is "
     "applied from 0.20.0"},
    {V(25, 0), V(27, 0), KV_NOTE_SLIDING,
     "sliding-window blocks per request: W - 1 + max_in_flight_tokens (PR #47728, merged "
     "2026-07) instead of W - 1 + max_num_batched_tokens; the first release carrying it is "
     "unverified, so it is applied from 0.26.0"},
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static bool parse_part(const char **p, uint16_t *out)
{
    unsigned long v = 0;
    const char *s = *p;

    if (*s < '0' || *s > '9')
        return false;
    while (*s >= '0' && *s <= '9') {
        v = v * 10 + (unsigned long)(*s - '0');
        if (v > 65535)
            return false;
        s++;
    }
    *out = (uint16_t)v;
    *p = s;
    return true;
}

/* A suffix PEP 440 orders before its release: "rc1", "a1", "b2", "c1",
 * ".dev531", "rc1.dev531" (a local "+g01220ce89" or ".post1" is not). */
static bool pre_suffix(const char *s)
{
    if (*s == '.' || *s == '-' || *s == '_')
        s++;
    if (strncmp(s, "dev", 3) == 0 || strncmp(s, "rc", 2) == 0 || strncmp(s, "pre", 3) == 0)
        return true;
    return (*s == 'a' || *s == 'b' || *s == 'c') && s[1] >= '0' && s[1] <= '9';
}

/* What may follow the numbers: "rc1", "a1", "b2", ".devN", ".postN", "+local",
 * "-..." and the like; nothing with spaces or control characters. */
static bool good_suffix(const char *s)
{
    if (*s == '\0')
        return true;
    if (!(*s == '.' || *s == '+' || *s == '-' || (*s >= 'a' && *s <= 'z')))
        return false;
    for (; *s; s++)
        if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
              *s == '.' || *s == '+' || *s == '-' || *s == '_'))
            return false;
    return true;
}

bool kv_vllm_parse(const char *s, struct kv_vllm_version *out)
{
    struct kv_vllm_version v = {0, 0, 0, 0, false};
    uint16_t *parts[4] = {&v.major, &v.minor, &v.patch, &v.build};
    int n = 0;

    if (!s)
        return false;
    if (*s == 'v' || *s == 'V')
        s++;
    while (n < 4 && parse_part(&s, parts[n])) {
        n++;
        /* a dot followed by a digit continues the number; ".dev" ends it */
        if (*s == '.' && s[1] >= '0' && s[1] <= '9' && n < 4)
            s++;
        else
            break;
    }
    if (n < 2 || !good_suffix(s))
        return false;
    if (v.major == 0 && v.minor == 0 && v.patch == 0 && v.build == 0)
        return false;
    v.pre = pre_suffix(s);
    *out = v;
    return true;
}

const char *kv_vllm_format(const struct kv_vllm_version *v, char *buf, size_t cap)
{
    if (v->build)
        snprintf(buf, cap, "%u.%u.%u.%u", v->major, v->minor, v->patch, v->build);
    else
        snprintf(buf, cap, "%u.%u.%u", v->major, v->minor, v->patch);
    return buf;
}

int kv_vllm_compare(const struct kv_vllm_version *a, const struct kv_vllm_version *b)
{
    const uint16_t x[4] = {a->major, a->minor, a->patch, a->build};
    const uint16_t y[4] = {b->major, b->minor, b->patch, b->build};

    for (int i = 0; i < 4; i++)
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    return 0;
}

void kv_rules_note(struct kv_rules *r, enum kv_note_topic topic, const char *text)
{
    for (size_t i = 0; i < r->n_notes; i++)
        if (r->notes[i].text == text)
            return;
    if (r->n_notes < KV_VLLM_NOTES_MAX)
        r->notes[r->n_notes++] = (struct kv_note){topic, text};
}

void kv_vllm_rules(const struct kv_vllm_version *want, struct kv_rules *out)
{
    struct kv_vllm_version v;
    const struct rule_set *set = &sets[0];
    const struct kv_vllm_version last_minor = V(27, 0);

    if (!want || (want->major | want->minor | want->patch | want->build) == 0)
        kv_vllm_parse(KV_VLLM_DEFAULT, &v);
    else
        v = *want;
    for (size_t i = 0; i < COUNT(sets); i++)
        if (kv_vllm_compare(&sets[i].from, &v) <= 0)
            set = &sets[i];
    *out = (struct kv_rules){
        .version = v,
        .util_default = set->util_default,
        .tokens_from_concurrency = set->tokens_from_concurrency,
        .group_rule = set->group_rule,
        .sliding_in_flight = set->sliding_in_flight,
        .mamba_align_default = set->mamba_align_default,
        .full_isl_admission = set->full_isl_admission,
        .nemotron_ssm_hook = set->nemotron_ssm_hook,
        .nemotron_ssm_fp32 = set->nemotron_ssm_fp32,
    };
    if (kv_vllm_compare(&v, &sets[0].from) < 0)
        kv_rules_note(out, KV_NOTE_ALWAYS,
                      "older than the first rule set modelled (0.6.0): its rules are used");
    if (kv_vllm_compare(&v, &last_minor) >= 0)
        kv_rules_note(out, KV_NOTE_ALWAYS,
                      "newer than the last rule set modelled (0.26): its rules are used");
    if (v.pre) {
        kv_rules_note(out, KV_NOTE_ALWAYS, set->pre_note);
        if (set != &sets[0] && kv_vllm_compare(&v, &set->from) == 0)
            kv_rules_note(out, KV_NOTE_ALWAYS,
                          "the rules change at this very release: a build from before it may "
                          "still follow the rule set before");
    }
    for (size_t i = 0; i < COUNT(windows); i++)
        if (kv_vllm_compare(&windows[i].lo, &v) <= 0 && kv_vllm_compare(&v, &windows[i].hi) < 0)
            kv_rules_note(out, windows[i].topic, windows[i].text);
}
