-- Part 0 · Foundations: quantised weights. Fewer weight bytes free memory for
-- the cache and shorten every memory-bound decode step; the cache's own dtype
-- is a separate setting.

local MODEL = "qwen2.5-7b"
local GiB = 2^30
local function on_4090(wd)
  return kv.calc{model = MODEL, gpu = "rtx4090", util = 0.9, seq = 8192, weights_dtype = wd}
end
local bf16, fp8, int4 = on_4090("bf16"), on_4090("fp8"), on_4090("int4")
local budget = function(r) return r.kv_budget_bytes / GiB end

-- What a published AWQ checkpoint really holds. Qwen2.5-7B-Instruct's config.json: vocab_size
-- 152,064, hidden 3,584, untied embeddings, so the embedding and lm_head are 544,997,376
-- parameters each and stay 16-bit. AWQ's packed weights (vLLM's AWQLinearMethod: qweight,
-- qzeros, scales) add a 4-bit zero-point to each group's fp16 scale: 4 + (16 + 4) / 128 bits.
local PARAMS = bf16.weights_bytes / 2                     -- 7,615,616,512
local EMBED = 152064 * kv.model(MODEL).hidden             -- 544,997,376 per table
local BODY = PARAMS - 2 * EMBED                           -- 6,525,621,760 quantised
local AWQ_BITS = 4 + (16 + 4) / 128                       -- 4.15625
local awq_body = BODY * AWQ_BITS / 8                      -- 3,390,264,430 B
local awq_file = awq_body + 2 * EMBED * 2                 -- embedding and lm_head 16-bit (FP16 there)
-- A decode step at batch 1 reads one embedding row but all of lm_head.
local bf16_step = (PARAMS - EMBED) * 2                    -- 14,141,238,272 B
local awq_step = awq_body + EMBED * 2                     -- 4,480,259,182 B
local awq_ceiling = bf16_step / awq_step                  -- 3.16
-- The same RTX 4090 budget with the AWQ checkpoint's real weight bytes.
local awq = kv.calc{model = MODEL, gpu = "rtx4090", util = 0.9, seq = 8192,
                    weights_gib = awq_file / GiB}

local function f(x, places) return fixed(x, places or 2) end

-- Worked lines for the exercises, from the same results their expected values use.
local n = grouped
local q32 = kv.calc{model = "qwen2.5-32b", weights_dtype = "int4"}
local q32_params = kv.calc{model = "qwen2.5-32b"}.weights_bytes / 2   -- 32,763,876,352
local qm = kv.model(MODEL)
-- what the prompt calls quantised but AWQ keeps 16-bit: q/k/v biases and RMSNorm weights
local NORM_BIAS = qm.layers * (qm.heads + 2 * qm.kv_heads) * qm.head_dim
                + (2 * qm.layers + 1) * qm.hidden                     -- 333,312
local norm_bias_b = NORM_BIAS * (16 - AWQ_BITS) / 8                     -- 493,458 B
local awq_exact = bf16_step / (awq_step + norm_bias_b)                  -- 3.1560
local function fit_worked(r, weights_line, note)
  local requested = r.kv_budget_bytes + r.weights_bytes
  return code("weights   " .. weights_line .. "\n"
    .. (note or "")
    .. "requested ⌊0.9 × 24 × 2^30⌋ = " .. n(requested) .. " B\n"
    .. "          (the round 24 GiB given; vLLM sees ≈23.6 GiB on a real 4090)\n"
    .. "budget    " .. n(requested) .. " − " .. n(r.weights_bytes) .. " = " .. n(r.kv_budget_bytes)
    .. " B (" .. f(budget(r)) .. " GiB)\n"
    .. "block     " .. r.block_size .. " × 2 × " .. qm.layers .. " layers × " .. qm.kv_heads
    .. " KV heads × " .. qm.head_dim .. " × 2 B = " .. n(r.block_bytes) .. " B (BF16)\n"
    .. "blocks    ⌊" .. n(r.kv_budget_bytes) .. " ÷ " .. n(r.block_bytes) .. "⌋ = "
    .. n(r.num_gpu_blocks) .. "\n"
    .. "fit       ⌊" .. n(r.num_gpu_blocks) .. " ÷ " .. r.blocks_per_request .. " blocks (8,192 ÷ "
    .. r.block_size .. ")⌋ = ⌊" .. f(r.max_concurrency) .. "⌋ = " .. r.max_concurrent_seqs
    .. " sequences")
end

return lesson {
  id = "shrinking-weights",
  title = "Shrinking the weights: AWQ, GPTQ, fp8",
  module = "part0-foundations",
  baseline = "Lin et al., \"AWQ\" (MLSys 2024) and Frantar et al., \"GPTQ\" (ICLR 2023): 4-bit "
          .. "weights with an fp16 scale per group of 128 (4.125 bits a weight; the 4-bit zero-point "
          .. "a group that AWQ and GPTQ checkpoints both store, qzeros in vLLM's AWQLinearMethod "
          .. "and GPTQLinearMethod, makes it 4.16); gpu_memory_utilization 0.9, the default up to vLLM 0.24 (0.92 "
          .. "from 0.25: vllm/config/cache.py, CacheConfig); Qwen2.5-7B-Instruct's config.json "
          .. "(vocab 152,064, untied embeddings); RTX 4090 "
          .. "memory and bandwidth from NVIDIA's data sheet, as in kvtutor gpus",
  concept = "weight-quantisation",
  concept_title = "Weight quantisation",
  requires = {"kv-cache", "memory-bound-decode"},
  links = {"shrinking-kv", "memory-bound-decode", "sizing-deployment"},

  question = "You quantise a 7B model's weights from BF16 to 4 bits on a 24 GB GPU. What does "
          .. "that buy you in concurrency and in decode speed, and why does it not shrink the "
          .. "KV cache?",

  answer = "It frees memory and bytes per step. Qwen2.5-7B's weights go from "
        .. f(bf16.weights_bytes / GiB, 1) .. " GiB to about " .. f(awq_file / GiB, 1)
        .. " GiB in a published AWQ checkpoint (the body at about 4.16 bits a weight, counting "
        .. "the group scales and zero-points; the embedding and lm_head stay 16-bit), and "
        .. "everything freed goes to the KV budget: on an RTX 4090 at gpu_memory_utilization "
        .. "0.9, 8k-token sequences go from " .. bf16.max_concurrent_seqs .. " to "
        .. awq.max_concurrent_seqs .. ". Decode at small batch reads mostly weights, so each "
        .. "step reads fewer bytes, under a third as many, and runs up to ~"
        .. f(awq_ceiling, 1) .. " times faster. The cache is separate: "
        .. "keys and values are computed in the activation dtype and stored in kv_cache_dtype, "
        .. "still 16-bit unless you also ask for fp8 (BF16 for this model, FP16 for its published "
        .. "AWQ checkpoint, whose config.json says float16: 2 bytes either way).",

  points = {
    point { "the memory freed goes to the KV budget", weight = 2,
            about = {"memory freed", "freed memory", "it", "savings", "quantization", "everything freed",
                     "the freed memory", "freed", "GiB freed"},
            said = {"kv budget", "more sequences", "more room", "cache", "concurrency", "goes to KV", "to KV"} },
    point { "decode reads fewer bytes per step, so it is faster", weight = 2,
            about = {"decode", "each step", "it", "decode at small batch"},
            said = {"fewer bytes", "faster", "less to read", "quarter of the bytes", "reads less"} },
    point { "the KV dtype is a separate choice", weight = 2,
            about = {"cache", "KV cache", "keys and values", "kv_cache_dtype", "KV dtype", "KV"},
            said = {"separate", "independent", "still BF16", "still 16-bit", "activation dtype",
                    "not quantized", "unchanged", "stays"} },
    point { "about 4 bits plus group scales",
            accept = {"4.125", "scale", "group", "4 bits", "4-bit", "int4"} },
  },
  misconceptions = {
    misconception { about = {"KV cache", "cache", "keys and values"},
                    said = {"also 4-bit", "shrinks too", "quantized too", "quantised too", "becomes 4-bit",
                            "4 bits as well"},
                    why = "the cache is computed in the activation dtype and stored in kv_cache_dtype: BF16 unless you ask for fp8" },
  },

  sections = {
    section {
      title = "What 4 bits really costs",
      text = "AWQ and GPTQ choose their 4-bit values differently, from a small calibration "
          .. "set (128 samples in both papers). AWQ scales each input channel of a layer by a "
          .. "factor grown from its activations' size before rounding, so the ~1% of channels "
          .. "that meet the largest activations lose the least precision, and folds the "
          .. "inverse into the layer before. GPTQ rounds "
          .. "a layer's weights a column at a time and adjusts the columns not yet rounded to "
          .. "cancel the error, using second-order information from the calibration inputs "
          .. "(their Hessian); act-order (desc_act) rounds the columns with the largest "
          .. "activations first. Both store each weight in 4 bits and, for every group of 128 "
          .. "weights, an fp16 scale: 4 + 16/128 = 4.125 bits a weight. For Qwen2.5-7B's 7.6 billion "
          .. "parameters that is " .. f(int4.weights_bytes / GiB) .. " GiB, against "
          .. f(bf16.weights_bytes / GiB) .. " GiB in BF16 and " .. f(fp8.weights_bytes / GiB)
          .. " GiB in fp8. That is the simple model, every weight at 4.125 bits. Published "
          .. "checkpoints keep the embedding and the output layer (lm_head) in 16 bits, and AWQ "
          .. "stores a 4-bit zero-point beside each group's scale, 4 + 20/128 ≈ "
          .. f(AWQ_BITS) .. " bits: Qwen2.5-7B's AWQ weights come to about "
          .. f(awq_file / GiB) .. " GiB. GPTQ checkpoints quantised symmetrically (sym "
          .. "true, the usual case) need no zero-points on the GPU: vLLM's Marlin path keeps "
          .. "none for them. The bytes do not change shape, but their layout does: on Ampere "
          .. "and later vLLM loads AWQ and GPTQ with its awq_marlin and gptq_marlin methods, "
          .. "which repack the 4-bit weights into a kernel's own tile order at load. The kernel "
          .. "is the first that can run the layer (choose_mp_linear_kernel, in "
          .. "vllm/model_executor/kernels/linear): Marlin on Ampere and Ada, while on an H100 "
          .. "symmetric GPTQ goes to Machete, Hopper's mixed-input kernel, despite the name, "
          .. "unless it was quantised with act-order and tensor parallelism splits the layer's "
          .. "input, which Machete cannot take (MacheteLinearKernel.can_implement): Marlin "
          .. "runs it.",
    },
    section {
      title = "Every byte freed goes to the cache",
      text = "vLLM gives the cache whatever is left of gpu_memory_utilization × memory after "
          .. "the weights. On an RTX 4090 at 0.9 (with activations left out) that budget is "
          .. f(budget(bf16)) .. " GiB with BF16 weights, " .. f(budget(fp8)) .. " with fp8 and "
          .. f(budget(int4)) .. " with 4-bit: " .. bf16.max_concurrent_seqs .. ", "
          .. fp8.max_concurrent_seqs .. " and " .. int4.max_concurrent_seqs .. " sequences of "
          .. "8,192 tokens.",
    },
    section {
      title = "And every decode step gets shorter",
      text = "A memory-bound step at batch 1 reads the weights once. Reading "
          .. f(int4.weights_bytes / 1e9) .. " GB instead of " .. f(bf16.weights_bytes / 1e9)
          .. " GB, the 4090's 1,008 GB/s allows " .. f(int4.decode_tokens_per_s, 0)
          .. " tokens/s instead of " .. f(bf16.decode_tokens_per_s, 0) .. ", "
          .. f(int4.decode_tokens_per_s / bf16.decode_tokens_per_s) .. " times faster in the "
          .. "simple model. The exact ceiling is lower: a step reads one row of the embedding "
          .. "but all of lm_head, which stays 16-bit, so it reads " .. f(bf16_step / 1e9)
          .. " GB in BF16 against " .. f(awq_step / 1e9) .. " GB with AWQ, about "
          .. f(awq_ceiling, 1) .. " times. Real kernels "
          .. "spend some of that on unpacking 4-bit values, and as the batch grows the cache's "
          .. "bytes, which quantising the weights does not touch, take over.",
    },
    section {
      title = "The cache keeps its own dtype",
      text = "Weights are stored; keys and values are computed at run time by multiplying "
          .. "activations (16-bit: BF16 in the original model, FP16 in Qwen's AWQ checkpoint, "
          .. "whose config asks for it) with the dequantised weights, and then written in "
          .. "kv_cache_dtype. A 4-bit model therefore still caches 56 KiB a token unless you set "
          .. "kv_cache_dtype=fp8 as well. The two choices stack: 4-bit weights and an fp8 cache "
          .. "together give the most room.",
    },
  },

  worked = code [[
BF16    7,615,616,512 × 2 B                 = 15.23 GB = 14.19 GiB
fp8     7,615,616,512 × 1 B                 =  7.62 GB =  7.09 GiB
int4    7,615,616,512 × 4.125 ÷ 8 B         =  3.93 GB =  3.66 GiB
budget  24 GiB × 0.9 − weights              = 7.41 | 14.51 | 17.94 GiB
fit     budget ÷ 896 KiB ÷ 512 blocks       = 16 | 33 | 41 sequences of 8k
speed   1,008 GB/s ÷ 15.23 GB = 66 tok/s;  ÷ 3.93 GB = 257 tok/s (batch 1, no context)
exact   BF16 step: (7,615,616,512 − 544,997,376 embedding) × 2 B = 14.14 GB
        AWQ step:  6,525,621,760 × 4.156 ÷ 8 + 544,997,376 lm_head × 2 = 4.48 GB
        ceiling    14.14 ÷ 4.48 = 3.16×, not 16 ÷ 4.125 = 3.88×
        AWQ file:  3.39 GB body + 2 × 544,997,376 × 2 B = 5.57 GB = 5.187 GiB
        fit        (21.6 GiB − 5.187 GiB) ÷ 896 KiB = 19,207 blocks ÷ 512 = 37 sequences]],

  followups = {
    followup {
      question = "Does 4-bit quantisation make prefill faster too?",
      answer = "Much less than decode. Prefill is compute-bound: its time is the matrix "
            .. "multiplies, and weight-only 4-bit kernels still multiply in 16-bit after "
            .. "unpacking, so the arithmetic is the same and the unpacking adds work. Weights "
            .. "and activations both in 8 bits, on tensor cores that run them at twice the "
            .. "BF16 rate, is what speeds prefill up: fp8 W8A8 needs Ada or Hopper or later (on "
            .. "Ampere vLLM runs an fp8 checkpoint as weight-only W8A16 through Marlin), while "
            .. "INT8 W8A8 speeds prefill up on Ampere too, whose tensor cores run INT8 at twice "
            .. "the BF16 rate (an A100: 624 against 312 dense TOPS; vLLM's CUTLASS scaled_mm "
            .. "kernels). Blackwell goes further: NVFP4 checkpoints run 4-bit weights and "
            .. "activations on its FP4 tensor cores. Hopper has no 4-bit tensor cores: vLLM's "
            .. "CutlassW4A8LinearKernel (SM90 only) multiplies 4-bit weights with fp8 "
            .. "activations at the FP8 rate, so prefill gains what fp8 W8A8 gains while the "
            .. "4-bit weights cut decode's bytes. MXFP4 depends on the checkpoint: on NVIDIA GPUs "
            .. "vLLM's mxfp4 method (gpt-oss) quantises only the MoE experts, run against MXFP8 "
            .. "or BF16 activations (AMD's Quark MXFP4 checkpoints quantise dense layers too), while compressed-tensors MXFP4 checkpoints also quantise dense "
            .. "layers, run weight-only (W4A16) through Marlin (vllm#31926) or, on Blackwell, "
            .. "as W4A4 on its FP4 tensor cores (FlashInferMxFp4LinearKernel, vllm#41664, both "
            .. "before 0.26). What does not speed prefill up is "
            .. "4-bit weights multiplied in 16 bits.",
      points = {
        point { "much less than decode: hardly faster", weight = 2, polarity = "no",
                accept = {"much less than decode", "hardly faster", "not much faster", "barely faster",
                          "little faster", "only slightly faster"} },
        point { "prefill is compute-bound", weight = 2,
                about = {"prefill", "prompt processing"},
                said = {"compute-bound", "matrix multiplies", "arithmetic", "FLOPs", "matmul",
                        "matmul throughput", "tensor core throughput"} },
        point { "weight-only kernels still compute in 16 bits", weight = 2,
                about = {"kernels", "weight-only kernels", "4-bit kernels", "weights", "it", "arithmetic"},
                said = {"16-bit", "dequantize", "dequantise", "unpack", "same arithmetic", "BF16", "FP16",
                        "is the same"} },
        point { "8-bit compute (fp8, or INT8 W8A8) is what speeds it up",
                about = {"fp8", "W8A8", "fp8 compute", "weights and activations", "INT8 W8A8",
                         "int8 compute"},
                said = {"speeds", "faster", "twice", "tensor cores"},
                accept = {"w8a8"} },
      },
      misconceptions = {
        misconception { about = {"prefill", "prompt processing"}, said = {"memory-bound"},
                        why = "prefill is compute-bound: its time is the matrix multiplies, not reading the weights" },
        misconception { about = {"prefill", "it"},
                        said = {"four times faster", "4x faster", "much faster", "as much as decode"},
                        why = "weight-only 4-bit kernels multiply in 16-bit after unpacking: the arithmetic, which prefill waits on, is the same" },
      },
    },
    followup {
      question = "Why a scale per group of 128 rather than one scale per tensor?",
      answer = "Weight magnitudes vary a lot across a matrix; a single scale must cover the "
            .. "largest value, leaving most weights to share a few of the 16 levels. A scale "
            .. "per small group fits each neighbourhood's range, at a cost of 16 bits per 128 "
            .. "weights: 0.125 bits each.",
      points = {
        point { "magnitudes vary across the tensor", weight = 2,
                about = {"weight magnitudes", "magnitudes", "weights", "values", "one scale", "single scale",
                         "per-tensor scale", "tensor-wide scale", "local ranges", "ranges"},
                said = {"vary", "outliers", "largest", "different", "range", "cover the largest", "fit better",
                        "tighter", "dominated by"},
                short = {"outliers"} },
        point { "only 16 levels in 4 bits",
                accept = {"16 levels", "few levels", "resolution", "precision"} },
        point { "the cost is 0.125 bits a weight",
                accept = {"0.125", "4.125", "16 bits per 128", "small overhead"} },
      },
      misconceptions = {
        misconception { about = {"accuracy", "the accuracy"},
                        said = {"the same as with one scale per tensor", "same as one scale per tensor", "same as a single scale"},
                        unless = {"well-behaved", "without outliers", "no outliers", "narrow range", "uniform", "when the range"},
                        why = "the group exists for accuracy: an outlier stretches only its own group's range, so the other weights keep their precision" },
        misconception { about = {"tensor cores"},
                        said = {"only multiply tiles of exactly 128", "tiles of exactly 128"},
                        why = "tensor cores multiply the dequantised values; the group size is a choice of the quantiser, not a tile size of the hardware" },
        misconception { about = {"the kernel", "it"},
                        said = {"recompute the scale", "recomputes the scale", "recompute the scales"},
                        why = "scales are stored either way: per tensor it is one stored number, per group one for each 128 weights" },
        misconception { about = {"range", "range of the weights", "magnitudes", "weights"},
                        said = {"about the same everywhere", "the same everywhere", "uniform", "doesn't vary",
                                "does not vary"},
                        why = "weight magnitudes vary a lot across a tensor; one scale set by the largest leaves small weights few of the 16 levels" },
        misconception { about = {"group scales", "per-group scales", "scale per group", "scales"},
                        said = {"save memory", "need fewer bits", "fewer bits"},
                        why = "group scales cost memory (0.125 bits a weight); they buy precision, because each group's range is narrower" },
        misconception { about = {"group scales", "per-group scales", "scale per group", "scales"},
                        said = {"free", "no cost", "costs nothing"},
                        why = "a 16-bit scale per 128 weights costs 0.125 bits a weight: small, not free" },
      },
    },
  },

  exercises = {
    numeric {
      id = "fp8-weights",
      prompt = "How many GiB do Qwen2.5-7B's 7,615,616,512 parameters take as fp8 weights?",
      expected = fp8.weights_bytes / GiB, unit = "GiB", tolerance = rel(0.02),
      worked = code("fp8      " .. n(PARAMS) .. " parameters × 1 B = " .. n(fp8.weights_bytes) .. " B\n"
        .. "GiB      " .. n(fp8.weights_bytes) .. " B ÷ 2^30 = " .. f(fp8.weights_bytes / GiB) .. " GiB"),
      diagnose = "units",
      hints = { "One byte a parameter.", "A GiB is 2^30 bytes." },
    },
    numeric {
      id = "int4-model",
      prompt = "How many GiB do Qwen2.5-32B's 32,763,876,352 parameters take at 4.125 bits a "
            .. "weight (4-bit with a scale per 128)?",
      expected = kv.calc{model = "qwen2.5-32b", weights_dtype = "int4"}.weights_bytes / GiB,
      worked = code("bits     4 + 16 ÷ 128 (fp16 scale per 128) = 4.125 bits a weight\n"
        .. "bytes    " .. n(q32_params) .. " × 4.125 ÷ 8 = " .. n(q32.weights_bytes) .. " B\n"
        .. "GiB      " .. n(q32.weights_bytes) .. " B ÷ 2^30 = " .. f(q32.weights_bytes / GiB) .. " GiB"),
      unit = "GiB", tolerance = rel(0.02), diagnose = "units",
      hints = { "Parameters × 4.125 ÷ 8 bytes.", "A GiB is 2^30 bytes." },
    },
    numeric {
      id = "bf16-fit-4090",
      prompt = "On an RTX 4090, its total taken as the round 24 GiB, at gpu_memory_utilization "
            .. "0.9, with BF16 weights and activations ignored, how many 8,192-token Qwen2.5-7B "
            .. "sequences fit?",
      expected = bf16.max_concurrent_seqs, unit = "sequences", tolerance = abs(0.5), model = MODEL,
      worked = fit_worked(bf16, n(PARAMS) .. " × 2 B = " .. n(bf16.weights_bytes) .. " B"),
      diagnose = "capacity",
      hints = { "Budget: 24 × 0.9 − 14.19 GiB.", "Each sequence: 512 blocks of 896 KiB." },
    },
    numeric {
      id = "int4-fit-4090",
      prompt = "Same GPU (24 GiB) and setting, but with 4-bit weights (4.125 bits a weight, "
            .. "every weight). How many 8,192-token sequences fit now?",
      expected = int4.max_concurrent_seqs, unit = "sequences", tolerance = abs(0.5), model = MODEL,
      worked = fit_worked(int4, n(PARAMS) .. " × 4.125 bits ÷ 8 = " .. n(int4.weights_bytes) .. " B",
        "          (simple model: embedding and lm_head at 4.125 bits too; a real\n"
        .. "          AWQ file, " .. f(awq_file / GiB) .. " GiB, leaves room for " .. awq.max_concurrent_seqs
        .. " sequences)\n"),
      diagnose = "capacity",
      hints = { "Budget: 24 × 0.9 − 3.66 GiB.", "The cache is still BF16: 0.4375 GiB a sequence." },
    },
    numeric {
      id = "int4-speedup",
      prompt = "At batch 1 and negligible context, in the simple model where every weight is "
            .. "4.125 bits, how many times faster can a memory-bound decode step run than with "
            .. "BF16 weights?",
      expected = int4.decode_tokens_per_s / bf16.decode_tokens_per_s, unit = "x",
      worked = code("step     batch 1, no context: a step reads the weights once, so its\n"
        .. "         speed goes as 1 ÷ weight bytes, whatever the model and GPU\n"
        .. "BF16     Qwen2.5-7B, say: " .. n(PARAMS) .. " × 2 B = " .. n(bf16.weights_bytes) .. " B\n"
        .. "4-bit    " .. n(PARAMS) .. " × 4.125 bits ÷ 8 = " .. n(int4.weights_bytes) .. " B\n"
        .. "speedup  " .. n(bf16.weights_bytes) .. " ÷ " .. n(int4.weights_bytes) .. " = 16 ÷ 4.125 = "
        .. f(int4.decode_tokens_per_s / bf16.decode_tokens_per_s) .. "×\n"
        .. "RTX 4090 " .. n(bf16.bandwidth_gbps) .. " GB/s: " .. f(bf16.decode_tokens_per_s, 0) .. " → "
        .. f(int4.decode_tokens_per_s, 0) .. " tokens/s"),
      tolerance = rel(0.02),
      hints = { "The step reads the weights once.", "16 bits ÷ 4.125 bits." },
    },
    numeric {
      id = "awq-speedup-exact",
      prompt = "Now a real AWQ checkpoint of Qwen2.5-7B: 6,525,621,760 other parameters, counted "
            .. "as quantised at 4 + 20/128 bits (scale and zero-point per 128), while the "
            .. "embedding and lm_head (544,997,376 parameters each) stay 16-bit. A decode step at batch 1 reads one row "
            .. "of the embedding but all of lm_head. How many times faster than BF16 can it run?",
      expected = awq_ceiling, unit = "x", tolerance = rel(0.02),
      worked = code("BF16     (" .. n(PARAMS) .. " − " .. n(EMBED) .. " embedding) × 2 B = "
        .. n(bf16_step) .. " B\n"
        .. "body     " .. n(BODY) .. " × " .. fixed(AWQ_BITS, 5) .. " bits ÷ 8 = " .. n(awq_body) .. " B\n"
        .. "AWQ      " .. n(awq_body) .. " + " .. n(EMBED) .. " lm_head × 2 B = " .. n(awq_step) .. " B\n"
        .. "speedup  " .. n(bf16_step) .. " ÷ " .. n(awq_step) .. " = " .. f(awq_ceiling) .. "×\n"
        .. "         (the one embedding row, " .. n(kv.model(MODEL).hidden) .. " × 2 B, left out of both;\n"
        .. "         " .. n(NORM_BIAS) .. " norm and bias values of the body stay 16-bit in the\n"
        .. "         file: +" .. n(norm_bias_b) .. " B, " .. upto(awq_exact, 4) .. "× against "
        .. fixed(awq_ceiling, 4) .. "×)"),
      hints = { "BF16 step: every parameter but the embedding table, 2 bytes each.",
                "AWQ step: the quantised body at 4.156 bits plus lm_head at 2 bytes." },
    },
    choice {
      id = "cache-dtype",
      prompt = "You load an AWQ 4-bit Qwen2.5-7B and change nothing else. How many bytes does "
            .. "one token of its KV cache take?",
      options = {
        option { "57,344: the cache is still 16-bit (FP16 here, the checkpoint's dtype)", correct = true,
                 why = "keys and values are stored in kv_cache_dtype, which defaults to the model dtype" },
        option { "14,336: a quarter, like the weights",
                 why = "quantising the weights does not change how the cache is stored" },
        option { "28,672: half",
                 why = "that needs kv_cache_dtype=fp8" },
        option { "None: a quantised model needs no cache",
                 why = "every transformer decoder caches keys and values" },
      },
    },
  },
}
