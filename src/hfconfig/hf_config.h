/* hf_config.h: reads a Hugging Face config.json into a kv_model.
 *
 * Understands the fields serving engines read: num_hidden_layers,
 * num_attention_heads, num_key_value_heads (absent = multi-head attention),
 * head_dim (absent = hidden_size / heads), a nested text_config (Gemma 3 and
 * other multimodal configs), layer_types lists, sliding_window with
 * sliding_window_pattern, use_sliding_window: false (Qwen2.5's inert window)
 * and max_window_layers, MLA's kv_lora_rank and qk_rope_head_dim,
 * torch_dtype or dtype, quantization_config, and max_position_embeddings.
 * When the shapes are all there it also counts the parameters (dense and
 * MoE, MLA excepted), the way the model's weights are laid out.
 *
 * Hybrids: layer_types entries "linear_attention" (gated delta net) and
 * "mamba" (Mamba2), Qwen3-Next's full_attention_interval, Nemotron-H's
 * hybrid_override_pattern, with the linear_* / mamba_* / ssm_state_size /
 * n_groups / conv_kernel dimensions and mamba_ssm_dtype; MTP layers
 * (num_nextn_predict_layers, mtp_num_hidden_layers); DeepSeek-V3.2's
 * index_head_dim; Gemma-3n's num_kv_shared_layers. Falcon, GPTBigCode and
 * ChatGLM's KV heads from their own keys (multi_query, num_kv_heads,
 * multi_query_group_num) and spellings (n_layer, num_layers). A layer kind
 * it does not model (an unknown layer_types entry, Kimi Delta Attention,
 * Jamba's Mamba-1, encoder-decoder cross-attention, Zamba2's shared blocks,
 * Hunyuan's cross-layer attention, mllama's cross-attention layers) is
 * refused, named. Head counts of 0, and an MLA config without
 * qk_rope_head_dim, are refused naming the field. */
#ifndef HF_CONFIG_H
#define HF_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "kv_calc.h"
#include "kvt_error.h"

struct hf_config_info {
    char model_type[48];   /* "qwen2", "gemma3_text"; empty when absent */
    char quant_method[32]; /* quantization_config.quant_method; empty when none */
    bool quant_unknown;    /* a quantization kvtutor does not model: weights left at dtype */
    bool inert_window;     /* sliding_window given but switched off */
    bool params_counted;   /* params_b / active_params_b were counted from the shapes */
    bool hybrid;           /* Mamba or linear-attention layers beside attention */
    bool kv_shared;        /* num_kv_shared_layers: some layers reuse another's KV */
    char note[400];        /* how a key was read that a reader should know of; "" when none */
};

struct hf_config_error {
    int line, column; /* where the JSON broke; 0 when the problem is a field */
    char what[200];   /* "num_hidden_layers is missing", "expected ',' or '}'" */
};

/* Parses config.json text. Returns KVT_E_OK, or KVT_E_PARSE for malformed
 * JSON or a field of the wrong type, KVT_E_MISSING for a required field that
 * is absent; *err says which. *out starts from zero: fields the config does
 * not give stay 0 (unknown). */
enum kvt_err hf_config_parse(const char *text, size_t len, struct kv_model *out,
                             struct hf_config_info *info, struct hf_config_error *err);

/* Reads and parses a file; KVT_E_IO when it cannot be read (err->what holds
 * strerror). Files over 16 MiB are refused: no config.json is that large. */
enum kvt_err hf_config_load(const char *path, struct kv_model *out, struct hf_config_info *info,
                            struct hf_config_error *err);

#endif
