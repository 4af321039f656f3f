-- Part 0 · Foundations: four ways to make each token's cache smaller, each
-- with the calculator's figures: GQA/MQA, MLA, fp8, sliding windows.

local MODEL = "qwen2.5-7b"
local GiB = 2^30
local qwen = kv.model(MODEL)
local function per_token(t) t.model = t.model or MODEL; return kv.calc(t).kv_bytes_per_token end
local gqa = per_token{}                                   -- 57,344 B, 4 KV heads
local mha = per_token{kv_heads = qwen.heads}              -- 401,408 B, 28 KV heads
local mqa = per_token{kv_heads = 1}                       -- 14,336 B, 1 KV head

-- DeepSeek-V3 caches one latent of kv_lora_rank + qk_rope_head_dim per token
-- per layer. Its config.json also gives what full per-head keys and values
-- would be: 128 heads, keys of 128 + 64 dims, values of 128.
local ds = kv.model("deepseek-v3")
local mla = per_token{model = "deepseek-v3", kv_dtype = "bf16"}           -- 70,272 B
local ds_full = ds.layers * ds.heads * ((128 + ds.mla_rope_dim) + 128) * 2  -- 4,997,120 B
-- MLA in fp8: plain fp8 is one byte a dimension (576 B a layer); fp8_ds_mla keeps the 512
-- latent dims in fp8 with 4 FP32 scales and the 64 rope dims in BF16: 512 + 16 + 128 = 656 B.
local mla_fp8 = per_token{model = "deepseek-v3", kv_dtype = "fp8"}         -- 35,136 B
-- nvfp4: head_dim / 2 B of 4-bit values + head_dim / 16 fp8 scales for each of K and V:
-- 2 x 28 layers x 4 heads x (64 + 8) = 16,128 B for Qwen2.5-7B, 57,344 / 16,128 = 3.56x.
local nvfp4 = per_token{kv_dtype = "nvfp4"}
-- per-token-head fp8 (vllm#38378): 1 B a value + a 4 B fp32 scale a head a token, for K and V:
-- 2 x 28 x 4 x (128 + 4) = 29,568 B for Qwen2.5-7B
local fp8_pth = per_token{kv_dtype = "fp8_per_token_head"}
-- fp8_ds_mla is the sparse MLA kernels' layout, so DeepSeek-V3.2's (dense V3 has no
-- backend for it): 61 x (656 + the indexer's 128 fp8 keys + one fp32 scale) = 48,068 B,
-- against 61 x (1,152 + 132) = 78,324 B with the latent in BF16 (the indexer stays fp8).
local mla_ds = per_token{model = "deepseek-v3.2", kv_dtype = "fp8_ds_mla"}   -- 48,068 B
local mla_ds_bf16 = per_token{model = "deepseek-v3.2", kv_dtype = "bf16"}    -- 78,324 B

-- Gemma-3-27B: 52 of 62 layers attend over a 1,024-token window.
local g3 = kv.model("gemma-3-27b")
local SEQ = 32768
-- Two figures for one request, both vLLM 0.26's (the calculator's default rules):
-- admission reserves, per sliding group, W - 1 tokens plus every in-flight batch
-- (SlidingWindowSpec.max_admission_blocks_per_request: two batches of
-- max_num_batched_tokens under async scheduling, the default); while the request
-- decodes, SlidingWindowManager.remove_skipped_blocks frees the blocks that left
-- the window, so it holds W - 1 tokens plus its one-token steps (two in flight):
-- the same rule with steps of one token.
local gemma = kv.calc{model = "gemma-3-27b", seq = SEQ}
local gemma_cap = gemma.blocks_per_request * gemma.block_bytes     -- admission: 8,582 blocks
local gemma_one = kv.calc{model = "gemma-3-27b", seq = SEQ, sync_scheduling = true}
local gemma_one_cap = gemma_one.blocks_per_request * gemma_one.block_bytes  -- one batch: 5,510
local gemma_dec = kv.calc{model = "gemma-3-27b", seq = SEQ, max_num_batched_tokens = 1}
local gemma_held = gemma_dec.blocks_per_request * gemma_dec.block_bytes   -- decoding: 2,444
local gemma_full = gemma.kv_bytes_per_token * SEQ                  -- every layer full
local gemma_in_flight = 2 * gemma.max_num_batched_tokens          -- async: two batches
local sw_groups = gemma.kv_cache_groups - 1                        -- 6 (one full group)
-- One line of the worked block: full blocks + sliding groups × (ceil((W - 1 + T) / bs) + 1).
local function swa_line(ahead, r)
  return "1 × " .. grouped(SEQ // r.block_size) .. " + " .. sw_groups .. " × (ceil(("
      .. grouped(g3.sliding_window - 1) .. " + " .. grouped(ahead) .. ") ÷ " .. r.block_size
      .. ") + 1) = " .. grouped(r.blocks_per_request) .. " blocks"
end

-- A real start-up log: Qwen2.5-7B, kv_cache_dtype=fp8, one H100, vLLM 0.19.
-- Compared with a public vLLM 0.19 log (run at gpu_memory_utilization 0.95): the 0.19 rules.
local fp8_log = kv.calc{model = MODEL, kv_dtype = "fp8", seq = 8192, kv_budget_gib = 58.53,
                        vllm = "0.19.0"}

local function f(x, places) return fixed(x, places or 1) end
local n = grouped -- 57344 -> "57,344"

-- For the exercises' worked lines.
local q72 = kv.model("qwen2.5-72b")
local fp8_72 = per_token{model = "qwen2.5-72b", kv_dtype = "fp8"}
local fp8_7b = fp8_log.kv_bytes_per_token
local fp8_raw = 58.53 * GiB / fp8_log.block_bytes                  -- 136,993.6 before the floor

return lesson {
  id = "shrinking-kv",
  title = "Smaller KV: GQA, MLA, fp8 and windows",
  module = "part0-foundations",
  baseline = "model shapes from each config.json (Qwen2.5-7B, DeepSeek-V3, Gemma-3-27B); "
          .. "Ainslie et al., \"GQA\" (2023); DeepSeek-V2 technical report (2024) for MLA; "
          .. "vLLM V1 hybrid KV cache groups and sliding-window block counts "
          .. "(vllm/v1/core/kv_cache_utils.py, single_type_kv_cache_manager.py); a public vLLM "
          .. "0.19 start-up log of Qwen2.5-7B with an fp8 cache on one H100 (llm-d-planner "
          .. "accuracy results): 58.53 GiB available, 137,000 blocks",
  concept = "kv-compression",
  concept_title = "Shrinking the KV cache",
  requires = {"kv-cache"},
  links = {"kv-cache", "shrinking-weights", "tensor-parallel-kv"},

  question = "Name the ways modern models and engines shrink the KV cache per token, and say "
          .. "roughly what each saves on a real model.",

  answer = "Four, and most of them multiply (MLA takes the place of GQA rather than "
        .. "multiplying with it). Grouped-query attention stores fewer KV heads than query "
        .. "heads: Qwen2.5-7B keeps " .. qwen.kv_heads .. " for " .. qwen.heads .. ", "
        .. mha // gqa .. " times less than full multi-head attention, and multi-query attention "
        .. "goes to one. Multi-head latent attention (DeepSeek) caches one compressed latent per "
        .. "token per layer instead of per-head keys and values, about " .. f(ds_full / mla, 0)
        .. " times less for DeepSeek-V3. An fp8 cache halves the bytes of whatever is stored. "
        .. "Sliding-window layers keep only a window of recent tokens (1,024 in Gemma-3, 128 "
        .. "in gpt-oss), so their share stops growing with the context.",

  points = {
    point { "GQA/MQA: fewer KV heads than query heads", weight = 2,
            about = {"GQA", "grouped-query attention", "grouped query", "MQA", "multi-query attention"},
            said = {"fewer KV heads", "KV heads", "shares", "one KV head", "times less", "group",
                    mha // gqa .. "x", mha // gqa .. "×", mha // gqa .. " times"},
            accept = {"fewer kv heads"} },
    point { "MLA caches a compressed latent", weight = 2,
            about = {"MLA", "multi-head latent attention", "latent attention", "DeepSeek"},
            said = {"latent", "compressed", "low-rank", "low rank", "times less",
                    f(ds_full / mla, 0) .. "x", f(ds_full / mla, 0) .. "×", f(ds_full / mla, 0) .. " times"} },
    point { "an fp8 cache halves the bytes", weight = 2,
            about = {"fp8", "fp8 cache", "8-bit", "int8", "quantizing the cache", "quantising the cache"},
            said = {"halves", "half", "2x", "twice"},
            accept = {"kv_cache_dtype"} },
    point { "sliding windows cap what some layers keep", weight = 2,
            about = {"sliding window", "sliding-window layers", "window", "local attention", "SWA"},
            said = {"only a window", "recent tokens", "stops growing", "caps", "fixed", "last", "bounded"} },
  },
  misconceptions = {
    misconception { about = {"all four", "the four", "all four savings", "all four ways"},
                    said = {"multiply together", "multiply", "all multiply", "stack", "compound"},
                    unless = {"instead of", "rather than", "replaces", "takes the place", "in place of", "except"},
                    why = "MLA replaces GQA's per-head keys and values with one latent per token: a model uses one or the other, so only three of the four can multiply" },
    misconception { about = {"MLA", "all four", "the four", "they", "the savings"},
                    said = {"multiply with GQA", "multiplies with GQA", "including MLA with GQA", "MLA with GQA",
                            "on top of GQA", "stacks with GQA", "combines with GQA"},
                    unless = {"instead of", "rather than", "replaces", "takes the place", "in place of"},
                    why = "MLA replaces GQA's per-head keys and values with one latent per token: a model uses one or the other, so the two savings never multiply" },
    misconception { about = {"PagedAttention", "paged attention", "prefix caching"},
                    said = {"shrinks each token", "fewer bytes per token", "smaller per token"},
                    why = "PagedAttention wastes less memory and prefix caching shares blocks; neither changes what a token costs" },
    misconception { about = {"GQA", "grouped-query attention"},
                    said = {"fewer query heads", "fewer layers", "smaller head dimension", "cuts the number of query heads",
                            "reduces the number of query heads", "cuts the query heads", "removes query heads"},
                    why = "GQA keeps every query head; it shares each KV head among a group of them" },
  },

  sections = {
    section {
      title = "Fewer KV heads: GQA and MQA",
      text = "Multi-head attention gives every query head its own key and value head. "
          .. "Grouped-query attention lets a group of query heads share one: Qwen2.5-7B has "
          .. qwen.heads .. " query heads and " .. qwen.kv_heads .. " KV heads, so a token costs "
          .. gqa // 1024 .. " KiB instead of " .. mha // 1024 .. " KiB. Multi-query attention, "
          .. "one KV head for all, would make it " .. mqa // 1024 .. " KiB. The GQA paper's quality "
          .. "result is for checkpoints uptrained from multi-head ones with about 5% of the "
          .. "original pre-training compute: eight groups came close to full attention where "
          .. "one head lost more. Models trained with GQA from the start, as most are now, "
          .. "were not what it measured.",
    },
    section {
      title = "A latent instead of heads: MLA",
      text = "DeepSeek's multi-head latent attention stores, per token and layer, one vector of "
          .. ds.mla_rank .. " dimensions plus a " .. ds.mla_rope_dim .. "-dimension positional "
          .. "key. Prefill up-projects it to every head's keys and values inside attention; "
          .. "decode does not: it folds the key up-projection into the query and attends over "
          .. "the latent itself, then applies the value up-projection to the result (vLLM's "
          .. "mla_attention.py: forward_mha for prefill, the absorbed path for decode). "
          .. "DeepSeek-V3 caches " .. n(mla) .. " bytes a token in BF16. Its " .. ds.heads
          .. " heads with full keys (192 dims) and values (128) would need " .. n(ds_full)
          .. " bytes: " .. f(ds_full / mla, 0) .. " times more. Because the latent is shared by "
          .. "all heads, plain tensor parallelism cannot split it by head: every GPU of the TP "
          .. "group holds all of it. Two things avoid that copy: decode context parallelism "
          .. "(--decode-context-parallel-size c, which divides the TP size) stripes the cache "
          .. "by token across c GPUs of the TP group, each keeping every c-th token's latent "
          .. "(with c below TP, each stripe is still copied TP ÷ c times), and data-parallel attention with expert "
          .. "parallelism gives each GPU its own requests' latents while the experts are shared "
          .. "out. MLA replaces GQA rather than multiplying with it: there are no KV heads left "
          .. "to group.",
    },
    section {
      title = "Fewer bits: an fp8 cache",
      text = "kv_cache_dtype=fp8, with per-tensor scales, stores each key and value in one byte, halving any model's "
          .. "cache: Qwen2.5-7B goes to " .. gqa // 2048 .. " KiB a token. A public vLLM 0.19 "
          .. "log of exactly that setup on one H100 (at gpu_memory_utilization 0.95, its "
          .. "non-default args) reports 58.53 GiB available and a GPU KV cache of 2,192,000 "
          .. "tokens (vLLM V1 logs tokens, not blocks): 137,000 blocks of 16; the calculator "
          .. "gives " .. n(fp8_log.num_gpu_blocks) .. " blocks (the log rounds "
          .. "the GiB). It is independent of the weights' dtype. Attention reads the fp8 values "
          .. "with per-tensor scales to keep the error small: some kernels dequantise as they "
          .. "read, and FlashAttention 3 on Hopper computes in fp8 with the query quantised too, "
          .. "by the attention layer before the kernel (Attention's query_quant, where the "
          .. "backend's supports_quant_query_input allows it; FlashAttentionImpl.forward reads "
          .. "the fp8 cache with its descales). MLA "
          .. "halves too in plain fp8, " .. n(mla_fp8) .. " B a token for DeepSeek-V3, but "
          .. "DeepSeek-V3.2's sparse MLA kernels use their own layout, fp8_ds_mla, which "
          .. "keeps the positional key in BF16 and a scale for each 128 latent dims (656 B a "
          .. "layer instead of 576), beside the fp8 keys of V3.2's indexer: " .. n(mla_ds)
          .. " B a token, " .. f(mla_ds / mla_ds_bf16 * 100, 0) .. "% of the "
          .. n(mla_ds_bf16) .. " B with a BF16 latent, not half "
          .. "(vllm/v1/kv_cache_interface.py, MLAAttentionSpec.page_size_bytes; "
          .. "DeepseekV32IndexerCache.get_kv_cache_spec), and it is V3.2's default: "
          .. "CacheConfig.cache_dtype gives DeepSeek-V3.2 an fp8 cache unless bfloat16 is "
          .. "asked for, so the BF16 figure is the opt-out's. Dense V3 cannot take it: its "
          .. "MLA backends accept auto, fp8 and fp8_e4m3 (FlashMLABackend). 2026 brought 4-bit "
          .. "caches too; one, kv_cache_dtype=nvfp4, added for Blackwell (SM100) through "
          .. "FlashInfer's trtllm-gen kernels (vllm#40177, April 2026; the first release that "
          .. "carries it is not pinned down here), stores 4-bit values with an fp8 scale for "
          .. "each 16, head_dim ÷ 2 + head_dim ÷ 16 bytes a head for keys and again for "
          .. "values: " .. n(nvfp4) .. " B a token for Qwen2.5-7B, "
          .. f(gqa / nvfp4, 2) .. "× smaller than BF16, not 4×, because of the scales. "
          .. "kv_cache_dtype=fp8_per_token_head and int8_per_token_head (vllm#38378, March "
          .. "2026, the Triton attention backend; first release not pinned down) need no "
          .. "calibration: each head of each token carries its own fp32 scale, 4 B beside its "
          .. "head_dim bytes, so Qwen2.5-7B's cache is " .. n(fp8_pth) .. " B a token, "
          .. f(fp8_pth / gqa * 100, 0) .. "% of BF16 rather than half "
          .. "(AttentionSpec.page_size_bytes, KVQuantMode).",
    },
    section {
      title = "Shorter memories: sliding windows",
      text = "In Gemma-3-27B, " .. g3.sliding_layers .. " of " .. g3.layers .. " layers attend "
          .. "only to the last " .. n(g3.sliding_window) .. " tokens, and vLLM sizes such a "
          .. "layer's blocks in two ways. To admit a request (and at start-up, for the maximum "
          .. "concurrency it logs) vLLM counts per sliding layer the window less one "
          .. "token plus every token in flight: two scheduling steps of max_num_batched_tokens "
          .. "under async scheduling, the default, so " .. n(gemma_in_flight) .. " here with "
          .. "the 8,192 of the public logs (SlidingWindowSpec.max_admission_blocks_per_request: "
          .. "the method from vllm#40946, the in-flight term from #47728, in 0.26.0; the "
          .. "calculator applies it from 0.26.0). It is a check that the request would fit, "
          .. "not a reservation: blocks are still allocated chunk by chunk. "
          .. "At " .. n(SEQ) .. " tokens that caps the request at " .. f(gemma_cap / GiB, 2)
          .. " GiB instead of the " .. f(gemma_full / GiB, 2) .. " GiB of keeping every "
          .. "layer whole; with one batch in flight (async scheduling off with one pipeline "
          .. "stage, or releases before the in-flight rule: "
          .. "window plus one step; with pipeline parallelism, a batch a stage) it is " .. f(gemma_one_cap / GiB, 2) .. " GiB. While "
          .. "the request runs, the sliding layers' manager frees every block that has left "
          .. "the window (SlidingWindowManager.remove_skipped_blocks), so a request decoding "
          .. "one token a step has its sliding layers hold only the window: "
          .. f(gemma_held / GiB, 2) .. " GiB in all, almost all of it the 10 full layers' whole "
          .. "context. The longer the context, the bigger the "
          .. "saving, since the sliding share stops growing.",
    },
    section {
      title = "Beyond the four",
      text = "Two designs cut the cache in the architecture itself. Hybrid models replace most "
          .. "attention layers with linear-attention or Mamba layers, each keeping a state of "
          .. "fixed size however long the context (lesson 15). Cross-layer KV sharing lets "
          .. "several layers attend over one layer's keys and values, so only that layer "
          .. "stores them (Brandon et al., \"Reducing Transformer Key-Value Cache Size with "
          .. "Cross-Layer Attention\", 2024; Gemma 3n shares this way, and vLLM maps such a "
          .. "layer to the one it reads through kv_sharing_target_layer_name, allocating it no "
          .. "cache of its own).",
    },
  },

  worked = code([[
MHA    2 × 28 layers × 28 heads × 128 × 2 B        = 401,408 B = 392 KiB
GQA    2 × 28 × 4 × 128 × 2 B                       =  57,344 B =  56 KiB (7×)
MQA    2 × 28 × 1 × 128 × 2 B                       =  14,336 B =  14 KiB
MLA    61 layers × (512 + 64) × 2 B                 =  70,272 B (DeepSeek-V3)
  full 61 × 128 heads × (192 + 128) × 2 B           = 4,997,120 B → 71× more
fp8    56 KiB ÷ 2                                   =  28 KiB
       58.53 GiB ÷ (16 × 28 KiB)                    = 136,993 blocks (log: 137,000)
SWA    Gemma-3-27B at 32,768 tokens, vLLM 0.26: 1 full group + ]] .. sw_groups
    .. " sliding groups\n       of " .. gemma.group_size .. " layers (52 sliding layers: the last group padded), blocks of "
    .. f(gemma.block_bytes / 2^20, 2) .. " MiB"
    .. "\n  admission  " .. swa_line(gemma_in_flight, gemma) .. " = " .. f(gemma_cap / GiB, 2)
    .. " GiB" .. "\n  one batch  " .. swa_line(gemma.max_num_batched_tokens, gemma_one) .. " = "
    .. f(gemma_one_cap / GiB, 2) .. " GiB"
    .. "\n  decoding   " .. swa_line(2, gemma_dec) .. " = " .. f(gemma_held / GiB, 2) .. " GiB held"
    .. "\n  all full   " .. f(gemma_full / GiB, 2) .. " GiB"),

  followups = {
    followup {
      question = "Why can tensor parallelism split a GQA cache across GPUs but not an MLA cache?",
      answer = "GQA's cache is per KV head, and tensor parallelism gives each GPU a subset of "
            .. "heads, so each GPU stores its heads' keys and values. MLA's latent is one vector "
            .. "per token that every head reads, so under plain TP every GPU needs all of it: each "
            .. "GPU holds the full latent cache, and adding GPUs does not shrink it per GPU. "
            .. "vLLM's decode context parallelism (--decode-context-parallel-size) is the way "
            .. "out: it stripes the latent cache by token across c GPUs of the TP group (c "
            .. "divides TP and may be smaller), and data-parallel "
            .. "attention with expert parallelism avoids the copies by giving each GPU its own "
            .. "requests.",
      points = {
        point { "GQA's cache is per head, split with the heads", weight = 2,
                about = {"GQA", "GQA's cache", "grouped-query attention", "GQA cache"},
                said = {"per head", "per KV head", "split with the heads", "subset of heads", "splits by head",
                        "divides"} },
        point { "MLA's latent is shared by all heads", weight = 2,
                about = {"MLA", "MLA's latent", "latent"},
                said = {"shared by all", "every head", "all heads", "one vector per token", "whole latent",
                        "not per head"} },
        point { "so every GPU holds the full latent",
                about = {"every GPU", "each GPU", "GPUs", "every TP rank", "each TP rank", "every rank", "each rank"},
                said = {"full latent", "whole latent", "all of it", "replicated", "does not shrink", "copy"} },
      },
      misconceptions = {
        misconception { about = {"MLA", "latent", "MLA cache"},
                        said = {"split by head", "split across the heads", "divided by head"},
                        why = "every head reads the one latent per token, so TP cannot split it by head; only splitting by token (decode context parallelism) divides it" },
        misconception { about = {"MLA cache", "latent cache", "MLA"},
                        said = {"can never be divided", "can never shrink per GPU", "no way to split"},
                        why = "decode context parallelism stripes the latent by token across the TP group, and DP attention with EP avoids the copies" },
      },
    },
    followup {
      question = "Does an fp8 KV cache hurt accuracy, and what would you check before turning "
              .. "it on?",
      answer = "Usually a little: keys and values are rounded to 8 bits, so attention scores "
            .. "move slightly, and models with large outlier activations suffer more. Check the "
            .. "scales (calibrated per-tensor scales beat the default of 1.0), run the task's "
            .. "own evaluation with and without, and watch long-context tasks, where small "
            .. "errors in many keys add up.",
      points = {
        point { "rounding to 8 bits perturbs attention", weight = 2,
                about = {"fp8", "it", "accuracy", "keys and values", "rounding", "attention scores"},
                said = {"a little", "slightly", "small loss", "rounded", "perturb", "error", "small"},
                short = {"slightly", "a little", "only slightly", "a bit", "marginally", "usually a little",
                         "yes, slightly", "a little, usually"} },
        point { "calibrated scales matter", accept = {"scale", "calibrat"} },
        point { "evaluate on the task, especially long context", weight = 2,
                about = {"evaluation", "eval", "task", "long-context tasks", "long context", "benchmark",
                         "accuracy"},
                said = {"run", "check", "evaluate", "measure", "compare", "watch", "test"},
                accept = {"evaluat", "benchmark", "evals", "eval suite"} },
      },
      misconceptions = {
        misconception { about = {"the attention kernel", "attention kernel", "it", "the kernel", "an fp8 KV cache", "fp8 KV"},
                        said = {"needs fp8 weights", "requires fp8 weights", "only works with fp8 weights",
                                "only works if the weights are fp8", "the weights must be fp8", "the weights must also be fp8",
                                "needs the weights in fp8", "needs matching dtypes", "unless the weights are also fp8"},
                        unless = {"independent", "whether", "query", "FlashAttention 3", "FA3"},
                        why = "an fp8 KV cache does not depend on the weights' dtype: the attention backend reads the fp8 keys and values with their scales whatever dtype the weights are in" },
        misconception { about = {"fp8", "fp8 cache", "it"},
                        said = {"no accuracy loss", "lossless", "exactly the same", "no effect on accuracy",
                                "never hurts"},
                        why = "rounding keys and values to 8 bits moves attention scores: usually a little, more with outliers and long context" },
      },
    },
    followup {
      question = "kv_cache_dtype=fp8_e4m3 or fp8_e5m2: which would you pick, and what are the "
              .. "scales for?",
      answer = "E4M3 has 3 mantissa bits and a small range (±448 in OCP's E4M3FN); E5M2 has 2 "
            .. "mantissa bits and a range to ±57,344. Keys and values need precision more than "
            .. "range, so E4M3 is the usual pick, and plain fp8 means E4M3 in vLLM "
            .. "(vllm/config/cache.py, CacheConfig.cache_dtype). Its small range needs a scale: "
            .. "a per-tensor k_scale and v_scale (per head only where a checkpoint ships per-head "
            .. "scales; FlashAttention otherwise expands the one scale over the heads) maps the values "
            .. "into range: in vLLM 0.26 they come from the checkpoint when it ships calibrated "
            .. "scales (llm-compressor, Quark) and are 1.0 otherwise; the runtime estimate "
            .. "--calculate-kv-scales was deprecated in vllm-project/vllm#37201 (March 2026) and "
            .. "removed in #49389 (July 2026). With FlashAttention 3 the query is quantised to "
            .. "fp8 too, so its q_scale matters as well. E5M2 can go without a scale but loses precision. Both "
            .. "are one byte, so the capacity is the same.",
      points = {
        point { "E4M3: more precision, less range", weight = 2,
                about = {"E4M3", "e4m3", "fp8_e4m3"},
                said = {"more precision", "3 mantissa bits", "higher precision", "small range", "smaller range",
                        "less range", "usual pick", "extra precision", "better precision"},
                short = {"E4M3", "fp8_e4m3", "E4M3 usually"} },
        point { "E5M2: more range, less precision",
                about = {"E5M2", "e5m2", "fp8_e5m2"},
                said = {"more range", "2 mantissa bits", "wider range", "less precision", "loses precision",
                        "larger range", "57,344"} },
        point { "scales map values into range; 1.0 unless calibrated", weight = 2,
                accept = {"scale", "k_scale", "v_scale", "calibrat"} },
        point { "both are one byte: same capacity",
                accept = {"both are one byte", "one byte", "1 byte", "same capacity", "same size", "same memory"} },
      },
      misconceptions = {
        misconception { about = {"E4M3", "e4m3", "fp8_e4m3", "it", "this format", "that format"},
                        said = {"wider range than E5M2", "more range than E5M2", "larger range than E5M2",
                                "has a wider range", "has more range", "has the wider range", "has the larger range"},
                        unless = {"E5M2 has", "e5m2 has", "E5M2 keeps", "less range", "smaller range", "small range"},
                        why = "E4M3 has the smaller range (±448 in OCP's E4M3FN, against E5M2's ±57,344) and the extra mantissa bit: precision is why it is the usual pick" },
        misconception { about = {"E5M2", "e5m2", "fp8_e5m2"},
                        said = {"more precision", "more precise", "higher precision"},
                        why = "E5M2 trades a mantissa bit for range: it is the less precise of the two" },
        misconception { about = {"E4M3", "E5M2", "one of them", "e4m3"},
                        said = {"saves more memory", "fewer bytes", "smaller cache"},
                        why = "both formats are one byte a value; they differ in range and precision, not size" },
        misconception { about = {"scales", "scaling factors", "the scale"},
                        said = {"are not needed", "don't matter", "do not matter", "unnecessary"},
                        why = "E4M3's small range needs a scale; the default 1.0 clips or wastes range unless calibrated" },
      },
    },
  },

  exercises = {
    numeric {
      id = "mha-per-token",
      prompt = "If Qwen2.5-7B gave each of its 28 query heads its own KV head (plain multi-head "
            .. "attention), how many KiB would one token take in BF16?",
      expected = mha / 1024, unit = "KiB", per = "token", tolerance = rel(0.01), model = MODEL,
      worked = code("per token  2 (K, V) × " .. qwen.layers .. " layers × " .. qwen.heads
          .. " KV heads × " .. qwen.head_dim .. " dims × 2 B\n"
          .. "           = " .. n(mha) .. " B\n"
          .. "in KiB     " .. n(mha) .. " B ÷ 1,024 = " .. n(mha // 1024) .. " KiB ("
          .. mha // gqa .. "× GQA's " .. n(gqa // 1024) .. " KiB)"),
      hints = { "2 × layers × heads × head dim × bytes, with 28 heads." },
    },
    numeric {
      id = "mqa-per-token",
      prompt = "If Qwen2.5-7B (" .. qwen.layers .. " layers, " .. qwen.head_dim .. "-dim heads) had a "
            .. "single KV head shared by all " .. qwen.heads .. " query heads (multi-query "
            .. "attention), how many KiB would one token take in BF16?",
      expected = mqa / 1024, unit = "KiB", per = "token", tolerance = rel(0.01),
      worked = code("per token  2 (K, V) × " .. qwen.layers .. " layers × 1 KV head × "
          .. qwen.head_dim .. " dims × 2 B = " .. n(mqa) .. " B\n"
          .. "in KiB     " .. n(mqa) .. " B ÷ 1,024 = " .. n(mqa // 1024) .. " KiB"),
      hints = { "One KV head: 2 × 28 × 1 × 128 × 2 B." },
    },
    numeric {
      id = "mla-ratio",
      prompt = "DeepSeek-V3 caches a 512 + 64 dimension latent per token per layer (61 layers). "
            .. "Its 128 heads have 192-dimension keys and 128-dimension values. How many times "
            .. "smaller is the latent cache than full per-head keys and values?",
      expected = ds_full / mla, unit = "x", tolerance = rel(0.02),
      worked = code("latent  " .. ds.layers .. " layers × (" .. ds.mla_rank .. " + " .. ds.mla_rope_dim
          .. ") dims × 2 B = " .. n(mla) .. " B a token (BF16)\n"
          .. "full    " .. ds.layers .. " × " .. ds.heads .. " heads × (" .. 128 + ds.mla_rope_dim
          .. " + 128) dims × 2 B = " .. n(ds_full) .. " B a token\n"
          .. "ratio   " .. n(ds_full) .. " ÷ " .. n(mla) .. " ≈ " .. f(ds_full / mla, 1)
          .. "× (the 2 B cancels)"),
      hints = { "Latent: 61 × 576 × 2 B per token.",
                "Full: 61 × 128 × (192 + 128) × 2 B per token." },
    },
    numeric {
      id = "fp8-model",
      prompt = "With kv_cache_dtype=fp8, how many KiB does one token of Qwen2.5-72B (80 layers, "
            .. "8 KV heads of 128 dims) take?",
      expected = per_token{model = "qwen2.5-72b", kv_dtype = "fp8"} / 1024,
      unit = "KiB", per = "token", tolerance = rel(0.01), model = "qwen2.5-72b", kv_dtype = "fp8",
      worked = code("per token  2 (K, V) × " .. q72.layers .. " layers × " .. q72.kv_heads
          .. " KV heads × " .. q72.head_dim .. " dims × 1 B (fp8)\n"
          .. "           = " .. n(fp8_72) .. " B\n"
          .. "in KiB     " .. n(fp8_72) .. " B ÷ 1,024 = " .. n(fp8_72 // 1024) .. " KiB"),
      hints = { "2 (K and V) × layers × KV heads × head dim × 1 byte.", "A KiB is 1,024 bytes." },
    },
    numeric {
      id = "fp8-log-blocks",
      prompt = "vLLM 0.19 logged \"Available KV cache memory: 58.53 GiB\" for Qwen2.5-7B (28 "
            .. "layers, 4 KV heads of 128 dims) with kv_cache_dtype=fp8. How many 16-token "
            .. "blocks does that make?",
      expected = fp8_log.num_gpu_blocks, unit = "blocks", tolerance = rel(0.001), model = MODEL,
      diagnose = "capacity", kv_dtype = "fp8",
      worked = code("per token  2 (K, V) × " .. qwen.layers .. " layers × " .. qwen.kv_heads
          .. " KV heads × " .. qwen.head_dim .. " dims × 1 B = " .. n(fp8_7b) .. " B\n"
          .. "a block    16 tokens × " .. n(fp8_7b) .. " B = " .. n(fp8_log.block_bytes) .. " B\n"
          .. "blocks     ⌊58.53 × 2^30 B ÷ " .. n(fp8_log.block_bytes) .. " B⌋ = ⌊"
          .. n(math.floor(fp8_raw)) .. "." .. math.floor(fp8_raw * 10) % 10 .. "⌋\n"
          .. "           = " .. n(fp8_log.num_gpu_blocks) .. " blocks (whole blocks only)"),
      hints = { "A block: 16 tokens × 28 KiB.", "58.53 × 2^30 ÷ 458,752." },
    },
    numeric {
      id = "gemma-window",
      prompt = "Gemma-3-27B (" .. g3.layers .. " layers, " .. g3.kv_heads .. " KV heads of "
            .. g3.head_dim .. " dims) keeps " .. g3.sliding_layers .. " of its layers on a "
            .. n(g3.sliding_window) .. "-token window. How many GiB would one " .. n(SEQ)
            .. "-token request hold in BF16 if every layer kept the whole context?",
      expected = gemma_full / GiB, unit = "GiB", per = "sequence", tolerance = rel(0.02), model = "gemma-3-27b",
      worked = code("per token  2 (K, V) × " .. g3.layers .. " layers × " .. g3.kv_heads
          .. " KV heads × " .. g3.head_dim .. " dims × 2 B\n"
          .. "           = " .. n(gemma.kv_bytes_per_token) .. " B (every layer whole: no window)\n"
          .. "request    " .. n(gemma.kv_bytes_per_token) .. " B × " .. n(SEQ) .. " ÷ 2^30 = "
          .. f(gemma_full / GiB, 2) .. " GiB"),
      hints = { "2 × 62 layers × 16 KV heads × 128 × 2 B per token.", "Times 32,768, in GiB." },
    },
    choice {
      id = "which-multiplies",
      prompt = "A model already uses GQA. Which further change halves its cache per token "
            .. "without retraining?",
      options = {
        option { "kv_cache_dtype=fp8", correct = true,
                 why = "an engine setting: one byte per value instead of two" },
        option { "Switching to MLA",
                 why = "MLA is an architecture: the model must be trained (or converted) for it" },
        option { "AWQ 4-bit weights",
                 why = "that shrinks the weights; the cache stays in the KV dtype" },
        option { "Prefix caching",
                 why = "it shares identical blocks between requests; each token costs the same" },
      },
    },
  },
}
