#include "kv_notes.h"

#include <stddef.h>

/* What this model and deployment lean on that no log has confirmed. */
static void model_notes(struct kv_result *r, const struct kv_deploy *asked)
{
    struct kv_rules *n = &r->rules;

    if (r->model.max_position > 0 && r->deploy.max_model_len > r->model.max_position)
        kv_rules_note(
            n, KV_NOTE_ALWAYS,
            "max_model_len past max_position_embeddings, as VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 "
            "allows: with RoPE, positions past the model's lead to nan (vLLM's warning)");

    if (r->has_weights && r->active_weight_bytes > 0 &&
        r->active_weight_bytes < r->weights_bytes_total) {
        if (r->model.experts == 0)
            kv_rules_note(n, KV_NOTE_ALWAYS,
                          "MoE without its expert counts: a batch's weight read takes each "
                          "token's active share as drawn from the whole model; give experts and "
                          "experts_per_token for the expert rule");
        else if (r->deploy.batch > 1)
            kv_rules_note(n, KV_NOTE_ALWAYS,
                          "MoE decode reads the experts the batch's tokens are routed to, "
                          "E x (1 - (1 - k/E)^batch) a layer, assuming even, independent "
                          "routing (real routers are skewed: somewhat fewer)");
    }

    if (r->state_layers > 0 && r->mamba_mode == KV_MAMBA_ALL)
        kv_rules_note(n, KV_NOTE_MAMBA,
                      "mamba_cache_mode all: cdiv(max_model_len, block) + k blocks a Mamba group "
                      "a request; unverified against a log");
    /* vLLM resolves the mode by model: "all" where the model class
     * supports Mamba prefix caching, "align" otherwise
     * (MambaModelConfig.verify_and_update_config). The calculator does not
     * know which Mamba2 classes do, so it says which it assumed. */
    if (r->state_layers > 0 && r->model.state_kind == KV_STATE_MAMBA2 &&
        asked->mamba_mode == KV_MAMBA_DEFAULT && r->mamba_mode == KV_MAMBA_ALIGN)
        kv_rules_note(n, KV_NOTE_MAMBA,
                      "mamba_cache_mode align assumed: vLLM gives mode all to a model that "
                      "supports Mamba prefix caching (MambaModelConfig.verify_and_update_config, "
                      "as read in 0.26-era sources, first release not identified); "
                      "for one that does, set the mode to all");
    if (r->state_layers > 0 && r->model.state_kind == KV_STATE_MAMBA2)
        kv_rules_note(n, KV_NOTE_MAMBA,
                      "Mamba2 state shapes follow vLLM's MambaStateShapeCalculator; one public "
                      "log checks them (Nemotron-3-Nano-30B-A3B, vLLM 0.21.0)");
    if (asked->kv_dtype == KV_DTYPE_INT8 ||
        (asked->kv_dtype == KV_DTYPE_FP32 && r->model.dtype != KV_DTYPE_FP32))
        kv_rules_note(n, KV_NOTE_ALWAYS,
                      "vLLM has no such kv_cache_dtype (int8, or fp32 for a 16-bit model): "
                      "kept for teaching");
    if (r->deploy.backend == KV_BACKEND_FLASHINFER_MLA && r->deploy.gpu_sm > 0 &&
        (r->deploy.gpu_sm < 100 || r->deploy.gpu_sm >= 110))
        kv_rules_note(n, KV_NOTE_ALWAYS,
                      "FlashInfer-MLA runs only on compute capability 10.x GPUs "
                      "(FlashInferMLABackend.supports_compute_capability): vLLM refuses it on "
                      "this one");
    /* docs/calculator.md: the preferred-size rule came with vllm#35122
     * (February 2026); before it cuda.py forced 64, and the first release
     * with the change is not identified */
    if (r->deploy.backend == KV_BACKEND_FLASHINFER_MLA && asked->block_size == 16)
        kv_rules_note(n, KV_NOTE_ALWAYS,
                      "FlashInfer-MLA: the default block size 16 becomes the backend's preferred "
                      "32 (AttentionBackend.get_preferred_block_size, since "
                      "vllm-project/vllm#35122 of February 2026); an explicit --block-size 16 "
                      "would be refused, and before that change vllm/platforms/cuda.py made it "
                      "64: the first release with it is unverified");
    if (r->kv_dtype == KV_DTYPE_INT8_PTH || r->kv_dtype == KV_DTYPE_FP8_PTH)
        kv_rules_note(n, KV_NOTE_ALWAYS,
                      "per-token-head KV dtype: 4 B of fp32 scale a head a token beside the "
                      "values, as vLLM's AttentionSpec.page_size_bytes budgets them; the first "
                      "release with it is unverified (vllm-project/vllm#34281, said to be 0.17)");
    if (asked->spec_method == KV_SPEC_DRAFT)
        kv_rules_note(n, KV_NOTE_ALWAYS,
                      "a separate draft model's layers are counted with the target's attention "
                      "shape; size the draft itself for its own");
    if (r->mla && asked->backend == KV_BACKEND_DEFAULT && r->model.index_head_dim == 0) {
        if (r->deploy.backend == KV_BACKEND_CUTLASS_MLA)
            kv_rules_note(n, KV_NOTE_ALWAYS,
                          "MLA on SM100: CUTLASS MLA's 128-token blocks assumed (the default; "
                          "the first release that chose it is unverified)");
        else
            kv_rules_note(n, KV_NOTE_ALWAYS,
                          "MLA on a Hopper-class GPU: the configured block size is kept, as "
                          "0.19 logs show; a release that picks FlashMLA uses 64 "
                          "(--attention-backend FLASHMLA)");
    }
}

/* Keeps the release's notes that bear on this result. */
static void keep_notes(struct kv_result *r, const struct kv_deploy *asked, bool util_defaulted)
{
    struct kv_rules *rules = &r->rules;
    const bool nemotron_auto =
        r->state_layers > 0 && r->model.nemotron_h && asked->mamba_ssm_dtype == KV_DTYPE_AUTO;
    size_t n = 0;

    for (size_t i = 0; i < rules->n_notes; i++) {
        bool keep;
        switch (rules->notes[i].topic) {
        case KV_NOTE_UTIL:
            keep = util_defaulted && r->has_budget && !r->budget_given;
            break;
        case KV_NOTE_TOKENS:
            keep = r->has_blocks;
            break;
        case KV_NOTE_GROUPS:
            keep = r->hybrid;
            break;
        case KV_NOTE_SLIDING:
            keep = r->sliding_groups > 0;
            break;
        case KV_NOTE_MAMBA:
            keep = r->state_layers > 0;
            break;
        case KV_NOTE_NEMOTRON_SSM:
            keep = nemotron_auto;
            break;
        case KV_NOTE_NEMOTRON_DEFAULT:
            keep = nemotron_auto && r->model.ssm_cache_dtype == KV_DTYPE_AUTO;
            break;
        case KV_NOTE_ADMISSION:
            keep = false; /* the scheduler's, said by kvtutor sim (sim_bench.h) */
            break;
        default:
            keep = true;
        }
        if (keep)
            rules->notes[n++] = rules->notes[i];
    }
    rules->n_notes = n;
}

void kv_notes(struct kv_result *r, const struct kv_deploy *asked, bool util_defaulted)
{
    keep_notes(r, asked, util_defaulted);
    model_notes(r, asked);
}
