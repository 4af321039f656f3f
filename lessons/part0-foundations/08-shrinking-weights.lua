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

local function f(x, places) return fixed(x, places or 2) end

return lesson {
  id = "shrinking-weights",
  title = "Shrinking the weights: AWQ, GPTQ, fp8",
  module = "part0-foundations",
  baseline = "Lin et al., \"AWQ\" (MLSys 2024) and Frantar et al., \"GPTQ\" (ICLR 2023): 4-bit "
          .. "weights with an fp16 scale per group of 128 (4.125 bits a weight); vLLM's "
          .. "gpu_memory_utilization default of 0.9 (vllm/engine/arg_utils.py); RTX 4090 "
          .. "memory and bandwidth from NVIDIA's data sheet, as in kvtutor gpus",
  concept = "weight-quantisation",
  requires = {"kv-cache", "memory-bound-decode"},
  links = {"shrinking-kv", "memory-bound-decode", "sizing-deployment"},

  question = "You quantise a 7B model's weights from BF16 to 4 bits on a 24 GB GPU. What does "
          .. "that buy you in concurrency and in decode speed, and why does it not shrink the "
          .. "KV cache?",

  answer = "It frees memory and bytes per step. Qwen2.5-7B's weights go from "
        .. f(bf16.weights_bytes / GiB, 1) .. " GiB to about " .. f(int4.weights_bytes / GiB, 1)
        .. " GiB (4.125 bits a weight, counting the group scales), and everything freed goes "
        .. "to the KV budget: on an RTX 4090 at the default 0.9 utilisation, 8k-token sequences "
        .. "go from " .. bf16.max_concurrent_seqs .. " to " .. int4.max_concurrent_seqs
        .. ". Decode at small batch reads mostly weights, so each step reads about a quarter "
        .. "of the bytes and runs up to ~"
        .. f(int4.decode_tokens_per_s / bf16.decode_tokens_per_s, 1) .. " times faster. The cache is separate: "
        .. "keys and values are computed in the activation dtype and stored in kv_cache_dtype, "
        .. "still BF16 unless you also ask for fp8.",

  points = {
    point { "the memory freed goes to the KV budget", weight = 2,
            about = {"memory freed", "freed memory", "it", "savings", "quantization", "everything freed",
                     "the freed memory"},
            said = {"kv budget", "more sequences", "more room", "cache", "concurrency"} },
    point { "decode reads fewer bytes per step, so it is faster", weight = 2,
            about = {"decode", "each step", "it", "decode at small batch"},
            said = {"fewer bytes", "faster", "less to read", "quarter of the bytes", "reads less"} },
    point { "the KV dtype is a separate choice", weight = 2,
            about = {"cache", "KV cache", "keys and values", "kv_cache_dtype", "KV dtype"},
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
      text = "AWQ and GPTQ store each weight in 4 bits and, for every group of 128 weights, an "
          .. "fp16 scale: 4 + 16/128 = 4.125 bits a weight. For Qwen2.5-7B's 7.6 billion "
          .. "parameters that is " .. f(int4.weights_bytes / GiB) .. " GiB, against "
          .. f(bf16.weights_bytes / GiB) .. " GiB in BF16 and " .. f(fp8.weights_bytes / GiB)
          .. " GiB in fp8. Published checkpoints keep the embeddings and output layer in 16 "
          .. "bits, so real files are somewhat larger.",
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
          .. " tokens/s instead of " .. f(bf16.decode_tokens_per_s, 0) .. ". Real kernels "
          .. "spend some of that on unpacking 4-bit values, and as the batch grows the cache's "
          .. "bytes, which quantising the weights does not touch, take over.",
    },
    section {
      title = "The cache keeps its own dtype",
      text = "Weights are stored; keys and values are computed at run time by multiplying "
          .. "activations (BF16) with the dequantised weights, and then written in "
          .. "kv_cache_dtype. A 4-bit model therefore still caches 56 KiB a token unless you set "
          .. "kv_cache_dtype=fp8 as well. The two choices stack: 4-bit weights and an fp8 cache "
          .. "together give the most room.",
    },
  },

  worked = code [[
BF16    7,615,616,512 × 2 B                 = 15.23 GB = 14.18 GiB
fp8     7,615,616,512 × 1 B                 =  7.62 GB =  7.09 GiB
int4    7,615,616,512 × 4.125 ÷ 8 B         =  3.93 GB =  3.66 GiB
budget  24 GiB × 0.9 − weights              = 7.42 | 14.51 | 17.94 GiB
fit     budget ÷ 896 KiB ÷ 512 blocks       = 16 | 33 | 41 sequences of 8k
speed   1,008 GB/s ÷ 15.23 GB = 66 tok/s;  ÷ 3.93 GB = 257 tok/s (batch 1, no context)]],

  followups = {
    followup {
      question = "Does 4-bit quantisation make prefill faster too?",
      answer = "Much less than decode. Prefill is compute-bound: its time is the matrix "
            .. "multiplies, and weight-only 4-bit kernels still multiply in 16-bit after "
            .. "unpacking, so the arithmetic is the same and the unpacking adds work. Weights "
            .. "and activations both in fp8, on tensor cores that run fp8 at twice the BF16 "
            .. "rate, is what speeds prefill up.",
      points = {
        point { "prefill is compute-bound", weight = 2,
                about = {"prefill", "prompt processing"},
                said = {"compute-bound", "matrix multiplies", "arithmetic", "FLOPs"} },
        point { "weight-only kernels still compute in 16 bits", weight = 2,
                about = {"kernels", "weight-only kernels", "4-bit kernels", "weights", "it", "arithmetic"},
                said = {"16-bit", "dequantize", "dequantise", "unpack", "same arithmetic", "BF16", "FP16",
                        "is the same"} },
        point { "fp8 compute is what speeds it up",
                about = {"fp8", "W8A8", "fp8 compute", "weights and activations"},
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
                about = {"weight magnitudes", "magnitudes", "weights", "values", "one scale", "single scale"},
                said = {"vary", "outliers", "largest", "different", "range", "cover the largest"} },
        point { "only 16 levels in 4 bits",
                accept = {"16 levels", "few levels", "resolution", "precision"} },
        point { "the cost is 0.125 bits a weight",
                accept = {"0.125", "4.125", "16 bits per 128", "small overhead"} },
      },
      misconceptions = {
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
      diagnose = "units",
      hints = { "One byte a parameter.", "A GiB is 2^30 bytes." },
    },
    numeric {
      id = "int4-model",
      prompt = "How many GiB do {model}'s weights take at 4.125 bits a weight (4-bit with a "
            .. "scale per 128)?",
      params = { model = {"llama-3.1-8b", "llama-3.1-70b", "qwen2.5-14b", "qwen2.5-32b",
                          "qwen2.5-72b", "mistral-7b-v0.3"} },
      expected = function(p)
        return kv.calc{model = p.model, weights_dtype = "int4"}.weights_bytes / GiB
      end,
      unit = "GiB", tolerance = rel(0.02), diagnose = "units",
      hints = { "kvtutor models lists the parameters.", "Parameters × 4.125 ÷ 8 bytes." },
    },
    numeric {
      id = "bf16-fit-4090",
      prompt = "On an RTX 4090 (24 GiB) at gpu_memory_utilization 0.9, with BF16 weights and "
            .. "activations ignored, how many 8,192-token Qwen2.5-7B sequences fit?",
      expected = bf16.max_concurrent_seqs, unit = "", tolerance = abs(0.5), model = MODEL,
      diagnose = "capacity",
      hints = { "Budget: 24 × 0.9 − 14.18 GiB.", "Each sequence: 512 blocks of 896 KiB." },
    },
    numeric {
      id = "int4-fit-4090",
      prompt = "Same GPU and setting, but with 4-bit weights (4.125 bits a weight). How many "
            .. "8,192-token sequences fit now?",
      expected = int4.max_concurrent_seqs, unit = "", tolerance = abs(0.5), model = MODEL,
      diagnose = "capacity",
      hints = { "Budget: 24 × 0.9 − 3.66 GiB.", "The cache is still BF16: 0.4375 GiB a sequence." },
    },
    numeric {
      id = "int4-speedup",
      prompt = "At batch 1 and negligible context, how many times faster can a memory-bound "
            .. "decode step run with 4.125-bit weights than with BF16 weights?",
      expected = int4.decode_tokens_per_s / bf16.decode_tokens_per_s, unit = "x",
      tolerance = rel(0.02),
      hints = { "The step reads the weights once.", "16 bits ÷ 4.125 bits." },
    },
    choice {
      id = "cache-dtype",
      prompt = "You load an AWQ 4-bit Qwen2.5-7B and change nothing else. How many bytes does "
            .. "one token of its KV cache take?",
      options = {
        option { "57,344: the cache is still BF16", correct = true,
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
