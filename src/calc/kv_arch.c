#include "kv_arch.h"

#include <string.h>

/* model_type prefixes (a multimodal config's text model is "<type>_text");
 * the logs are in tests/fixtures/vllm-logs */
static const struct {
    const char *prefix;
    struct kv_vllm_version seen; /* the first release a log shows serving it */
    const char *note;
} known[] = {
    /* v0.24.0-h01-qwen3.6-35b-a3b.log (Qwen3_5MoeForConditionalGeneration);
     * listed before its dense sibling, whose prefix it shares. Third parties
     * report 0.15.0 and 0.16.0 answering "Model architectures
     * ['Qwen3_5MoeForConditionalGeneration'] are not supported for now"
     * (verl-project/verl#5381, runpod-workers/worker-vllm#279), which is
     * not vLLM's source. */
    {"qwen3_5_moe",
     {0, 24, 0, 0, false},
     "Qwen3.5 MoE (qwen3_5_moe) configs: the first vLLM release known here to serve them is "
     "0.24.0 (a log of it); whether this older release can load one is not established, and "
     "the figures apply its rules all the same"},
    /* v0.19.0-h06-qwen3.5-27b.log (Qwen3_5ForConditionalGeneration) */
    {"qwen3_5",
     {0, 19, 0, 0, false},
     "Qwen3.5 (qwen3_5) configs: the first vLLM release known here to serve them is 0.19.0 (a "
     "log of it); whether this older release can load one is not established, and the figures "
     "apply its rules all the same"},
    /* v0.13.0-h09-deepseek-v3.2.log (deepseek-ai/DeepSeek-V3.2) */
    {"deepseek_v32",
     {0, 13, 0, 0, false},
     "DeepSeek-V3.2 (deepseek_v32) configs: the first vLLM release known here to serve them is "
     "0.13.0 (a log of it); whether this older release can load one is not established, and the "
     "figures apply its rules all the same"},
};

const char *kv_arch_release_note(const char *model_type, const struct kv_vllm_version *v)
{
    if (!model_type || !v)
        return NULL;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        int c = kv_vllm_compare(v, &known[i].seen);
        if (strncmp(model_type, known[i].prefix, strlen(known[i].prefix)) != 0)
            continue;
        /* a pre-release of that release comes before it too */
        return c < 0 || (c == 0 && v->pre) ? known[i].note : NULL;
    }
    return NULL;
}
