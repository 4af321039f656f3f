-- Part 1 · Serving systems and engines: many models on one fleet. Fine-tunes that are
-- LoRA adapters share one copy of the base weights and one batch; vLLM reserves GPU
-- slots for them out of the KV cache. Whole models that cannot share pay a load time
-- and, when their traffic fills one, a replica of their own.

local MODEL = "llama-3.1-8b"
local m = kv.model(MODEL)
local base = kv.calc{model = MODEL, gpu = "h100", max_model_len = 8192}

-- MLP width, which kv.model does not give: intermediate_size in each model's
-- config.json on Hugging Face (meta-llama/Llama-3.1-8B-Instruct 14336,
-- Qwen/Qwen2.5-7B-Instruct 18944, mistralai/Mistral-7B-Instruct-v0.3 14336).
local INTERMEDIATE = { ["llama-3.1-8b"] = 14336, ["qwen2.5-7b"] = 18944,
                       ["mistral-7b-v0.3"] = 14336 }
local BF16 = 2                                       -- lora_dtype "auto": the model's BF16
-- vocab_size from the same config.json (meta-llama/Llama-3.1-8B-Instruct 128256).
local VOCAB = 128256

-- LoRA on q, k, v, o, gate, up and down of every decoder layer. Each target W (out × in)
-- gets A (r × in) and B (out × r): r × (in + out) values. Per layer and per unit of rank:
--   q: h + H·d   k: h + Hkv·d   v: h + Hkv·d   o: H·d + h
--   gate: h + I  up: h + I      down: I + h
-- which sums to 7h + 2·H·d + 2·Hkv·d + 3I. vLLM's slot has exactly these shapes at
-- max_lora_rank for the seven projections (the stacked lora_a / lora_b buffers of each
-- wrapped layer); the embeddings and lm_head, when wrapped, add theirs (below).
local function per_rank(mm, inter)
  return 7 * mm.hidden + 2 * mm.heads * mm.head_dim + 2 * mm.kv_heads * mm.head_dim + 3 * inter
end
local function adapter_bytes(name, rank)
  local mm = kv.model(name)
  return rank * mm.layers * per_rank(mm, INTERMEDIATE[name]) * BF16
end
-- A model's shapes as a prompt gives them, from the same preset and table.
local function shapes(name)
  local mm = kv.model(name)
  return name .. ": " .. mm.layers .. " layers, hidden " .. grouped(mm.hidden) .. ", "
      .. mm.heads .. " heads and " .. mm.kv_heads .. " KV heads of " .. mm.head_dim
      .. ", intermediate_size " .. grouped(INTERMEDIATE[name])
end
-- A GiB figure written exactly when it has at most 5 decimals (these are binary
-- fractions: 0.3125, 2.40625), else rounded to 4 with ≈.
local function exact_gib(x)
  for places = 0, 5 do
    local scaled = x * 10 ^ places
    if math.abs(scaled - math.floor(scaled + 0.5)) < 1e-9 * math.max(1, math.abs(scaled)) then
      return "= " .. fixed(x, places)
    end
  end
  return "≈ " .. fixed(x, 4)
end
local RULE = "rule       each target W (out × in) adds r × (in + out) values:\n"
          .. "           q, o: h + H·d; k, v: h + Hkv·d; gate, up, down: h + I\n"

-- LlamaForCausalLM declares embedding_modules {embed_tokens, lm_head}, so with no
-- target_modules vLLM wraps those too: VocabParallelEmbeddingWithLoRA holds lora_a of
-- vocab × r and lora_b of hidden × r a slot, LogitsProcessorWithLoRA (lm_head) r × hidden
-- and vocab × r: 2 × (vocab + hidden) more values per slot and unit of rank.
local EMBED = 2 * (VOCAB + m.hidden)
local function slot_values(rank)                     -- one Llama-3.1-8B slot, all wrapped
  return rank * (m.layers * per_rank(m, INTERMEDIATE[MODEL]) + EMBED)
end

local PER = per_rank(m, INTERMEDIATE[MODEL])
local A16 = adapter_bytes(MODEL, 16)                 -- one rank-16 adapter
local A8 = adapter_bytes(MODEL, 8)
local share16 = A16 / base.weights_bytes             -- fraction of the base weights

-- A deployment: --max-loras 8 --max-lora-rank 64.
local SLOTS, RANK = 8, 64
local slot_bytes = SLOTS * slot_values(RANK) * BF16
local proj_bytes = SLOTS * adapter_bytes(MODEL, RANK)  -- the seven projections alone
local slot_gib = slot_bytes / 2^30
local lora = kv.calc{model = MODEL, gpu = "h100", max_model_len = 8192, overhead_gib = slot_gib}
local tokens_lost = slot_bytes / base.kv_bytes_per_token
local default_slot = 1 * slot_values(16) * BF16     -- the defaults: max_loras 1, rank 16
-- A decode step reads each distinct adapter's slot at max_lora_rank (the shrink and
-- expand kernels take the rank from the stacked buffers): 8 adapters of the seven
-- projections at rank 64 against the base weights read once a step.
local step_extra = proj_bytes / base.weights_bytes
local host300 = 300 * A16                             -- which-knob: 300 rank-16 adapters

-- Loading weights. Bandwidths are ceilings, not measurements:
--   PCIe 5.0 x16, host memory to GPU: 32 GT/s × 16 lanes × 128/130 ÷ 8 ≈ 63 GB/s a direction
--   (PCI-SIG PCIe 5.0 specification); a PCIe 4.0 x4 NVMe drive cannot pass
--   16 GT/s × 4 × 128/130 ÷ 8 ≈ 7.9 GB/s; a 100 Gb/s network link carries 12.5 GB/s at line rate.
local PCIE5 = 32e9 * 16 * 128 / 130 / 8
local NVME4 = 16e9 * 4 * 128 / 130 / 8
local NET100 = 100e9 / 8
local big = kv.calc{model = "llama-3.1-70b"}
local load_pcie = base.weights_bytes / PCIE5
local load_nvme = base.weights_bytes / NVME4
local load_net = base.weights_bytes / NET100
local big_net = big.weights_bytes / NET100
local big_nvme = big.weights_bytes / NVME4
local adapter_pcie_ms = A16 / PCIE5 * 1000
local adapter_nvme_ms = A16 / NVME4 * 1000

-- A dedicated replica for one low-traffic fine-tune, and the same replica saturated.
local quiet_setup = { model = MODEL, gpu = "h100", max_model_len = 8192, input_len = 1024,
                      output_len = 128, request_rate = 0.5, num_prompts = 500, seed = 0 }
local busy_setup = { model = MODEL, gpu = "h100", max_model_len = 8192, input_len = 1024,
                     output_len = 128, num_prompts = 500, seed = 0 }
local quiet = kv.sim(quiet_setup)
local busy = kv.sim(busy_setup)
local used = 0.5 / busy.request_throughput
-- E2E time that is not running time: a request that arrives during a step joins the
-- batch when that step ends (kvtutor sim's loop; the running batch is counted per step).
local quiet_wait_ms = quiet.mean_e2el_ms
                    - quiet.mean_running * quiet.duration_s / quiet.completed * 1000

local function f(x, p) return fixed(x, p or 1) end
local function mib(x, p) return fixed(x / 2^20, p or 1) end
local function gib(x, p) return fixed(x / 2^30, p or 2) end

return lesson {
  id = "many-models",
  title = "Many models on one fleet: multi-LoRA, cold starts, own replicas",
  module = "part1-serving",
  module_title = "Part 1 · Serving systems and engines",
  baseline = "vLLM 0.26: vllm/config/lora.py (LoRAConfig: max_lora_rank 16 from the set "
          .. "1, 8, 16, 32, 64, 128, 256, 320, 512; max_loras 1; max_cpu_loras None, set to "
          .. "max_loras by _validate_lora_config and refused below it; lora_dtype auto, the "
          .. "model's dtype, in verify_with_model_config); vllm/lora/model_manager.py "
          .. "(LoRAModelManager: lora_slots = max_loras, capacity = max_cpu_loras, an LRU of "
          .. "registered adapters and one of active ones; _create_lora_modules wraps every "
          .. "supported module, or those in target_modules, with lora_slots slots; "
          .. "activate_adapter copies an adapter into a free slot); vllm/lora/layers/"
          .. "base_linear.py and column_parallel_linear.py (create_lora_weights: per slice a "
          .. "zeroed lora_a of max_loras × max_lora_rank × input and lora_b of max_loras × "
          .. "output × max_lora_rank on the GPU; set_lora copies a smaller rank into the corner; "
          .. "MergedQKVParallelLinearWithLoRA keeps q, k, v as three slices, "
          .. "MergedColumnParallelLinearWithLoRA gate and up as two); vllm/v1/worker/"
          .. "gpu_model_runner.py (GPUModelRunner.load_model wraps the model with "
          .. "load_lora_model inside the DeviceMemoryProfiler that measures model memory); "
          .. "vllm/lora/worker_manager.py (LRUCacheWorkerLoRAManager.add_adapter: an adapter "
          .. "not registered is read from its path into CPU memory, the oldest evicted past "
          .. "capacity; _load_adapter refuses a rank above max_lora_rank); "
          .. "vllm/v1/core/sched/scheduler.py (Scheduler.schedule skips a waiting request "
          .. "whose adapter would be a distinct one past max_loras among the requests "
          .. "scheduled in the step, and puts it back on the queue). Undated, read at the "
          .. "commits named in the course sources: LlamaForCausalLM.embedding_modules "
          .. "embed_tokens and lm_head (llama.py @e06c9ba2), added to the supported modules "
          .. "by get_supported_lora_modules (lora/utils.py) and wrapped by "
          .. "VocabParallelEmbeddingWithLoRA and LogitsProcessorWithLoRA (lora/layers/"
          .. "vocab_parallel_embedding.py, logits_processor.py @65ead076), target_modules "
          .. "(--lora-target-modules, PR #34984, first release undated) restricting the "
          .. "wrapping (model_manager.py @01533aa8); "
          .. "the shrink kernel taking the rank from the stacked buffers (lora/ops "
          .. "lora_shrink_op.py); the adapter in every prefix-cache block hash "
          .. "(_gen_lora_extra_hash_keys, v1/core/kv_cache_utils.py: lora_name since "
          .. "v0.11.1, PR #27211, lora_int_id before); CompilationConfig.cudagraph_specialize_lora "
          .. "default True; asynchronous adapter loading (lora/async_loading.py, "
          .. "VLLM_LORA_REQUEST_ASYNC_LOADING_CUDA), not the default path. Sleep mode "
          .. "levels 1 and 2: vLLM docs, features/sleep_mode (v0.10.2 and latest). Papers: "
          .. "S-LoRA (Sheng et al., MLSys 2024, abstract), Punica (Chen et al., MLSys 2024, "
          .. "abstract). Shapes: kvtutor models plus intermediate_size from each config.json; link "
          .. "rates from the PCI-SIG PCIe 4.0/5.0 line rates and a 100 Gb/s line rate",
  concept = "multi-model-serving",
  concept_title = "Many models on one fleet",
  requires = {"shrinking-weights", "sizing-deployment"},
  links = {"kv-cache", "continuous-batching", "shrinking-weights", "sizing-deployment",
           "memory-bound-decode"},

  question = "You must serve two hundred fine-tuned variants of one 8B model on a few GPUs. "
          .. "How do you do it, and what does vLLM's multi-LoRA support cost you in memory?",

  answer = "Serve the variants as LoRA adapters on one copy of the base weights: every "
        .. "request in a batch goes through the same base matmuls, and a gathered kernel "
        .. "(Punica's SGMV; S-LoRA) adds each request's own low-rank update. In vLLM, "
        .. "--enable-lora reserves max_loras GPU slots, each shaped for an adapter of "
        .. "max_lora_rank on every wrapped layer (for Llama the embeddings and lm_head too), "
        .. "and that memory comes out of the KV cache; "
        .. "up to max_cpu_loras adapters wait in host memory, the rest are read from disk, "
        .. "and a step runs at most max_loras distinct adapters; a variant that is not a "
        .. "LoRA needs its own weights, seconds to minutes to load, and earns its own "
        .. "replicas when its traffic or its latency SLO justifies one.",

  points = {
    point { "one copy of the base weights is shared by all adapters", weight = 2,
            about = {"base model", "base weights", "one copy", "the base", "backbone", "trunk"},
            said = {"shared", "one copy", "single copy", "loaded once", "same base", "resident",
                    "kept once"},
            accept = {"single base", "one base", "shared base", "same base", "base weights once",
                      "base once", "one copy of the base", "base model once", "single 8b base",
                      "one 8b base", "one resident"} },
    point { "vLLM preallocates max_loras slots sized by max_lora_rank", weight = 3,
            about = {"max_loras", "slots", "vLLM", "enable-lora", "gpu memory", "buffers",
                     "reservation"},
            said = {"preallocat", "reserve", "max_lora_rank", "sized", "allocated up front",
                    "at startup", "at start-up", "up front"} },
    point { "that memory comes out of the KV cache", weight = 3,
            about = {"memory", "slots", "reservation", "it", "buffers", "adapters", "which"},
            said = {"KV cache", "KV budget", "KV pool", "less cache", "fewer tokens",
                    "fewer sequences", "smaller cache", "cached tokens", "KV capacity"},
            accept = {"out of the kv cache", "from the kv cache", "before the kv cache",
                      "reduces the kv cache", "shrinks the kv cache", "smaller kv cache",
                      "less kv cache", "out of the kv pool", "reduces kv capacity"} },
    point { "more adapters wait in host memory (max_cpu_loras, LRU)",
            accept = {"max_cpu_loras", "max-cpu-loras", "cpu memory", "host memory", "lru",
                      "cpu cache", "host ram", "cpu ram"} },
    point { "different adapters are batched together in one step",
            about = {"requests", "different adapters", "batch", "kernel", "sgmv", "punica", "mix"},
            said = {"same batch", "batched together", "one batch", "mixed", "gather",
                    "one step", "together", "shares a batch", "share a batch"} },
  },
  misconceptions = {
    misconception { about = {"vLLM", "each adapter", "the adapters"},
                    said = {"merges each into its own copy", "own copy of the base weights", "merged into the base weights", "merges the adapters into"},
                    unless = {"dedicated", "own replica", "separate replica", "offline", "for a hot", "export"},
                    why = "vLLM keeps one copy of the base weights and applies each request's LoRA delta unmerged, in the batch, with its LoRA kernels" },
    misconception { about = {"memory", "GPU memory"},
                    said = {"16 GB per variant", "grows by about 16 GB", "a full copy per variant"},
                    unless = {"full fine-tune", "full fine-tunes", "without LoRA", "instead of LoRA", "full copies would", "would cost", "if merged", "own replica"},
                    why = "a rank-8 adapter of an 8B model is tens of MB, not a copy of the model: memory grows by the adapters' slots only" },
    misconception { about = {"max_loras", "--max-loras"},
                    said = {"total number of adapters", "adapters you can serve",
                            "adapters you can register", "adapters on the server",
                            "adapters in cpu memory"},
                    why = "max_loras is the number of GPU slots, the distinct adapters one step can run; max_cpu_loras adapters are kept in host memory and any other is read from disk when requested" },
    misconception { about = {"each adapter", "every adapter", "each fine-tune", "each variant",
                             "every variant", "multi-lora", "lora support",
                             "each of the 200 variants", "each of the variants",
                             "all 200 variants"},
                    said = {"own copy of the base", "its own copy", "full copy", "own replica",
                            "own gpu"},
                    why = "LoRA variants share one copy of the base weights; only the small A and B matrices differ per adapter" },
    misconception { about = {"max_cpu_loras", "max-cpu-loras", "cpu loras"},
                    said = {"reserves gpu memory", "uses gpu memory", "takes gpu memory",
                            "in gpu memory", "kept on the gpu", "held on the gpu",
                            "out of the kv cache", "takes kv cache", "reduces the kv cache",
                            "shrinks the kv cache", "sizes the gpu slots"},
                    why = "max_cpu_loras is an LRU of adapters held in host memory; the GPU reservation is max_loras slots at max_lora_rank" },
    misconception { about = {"kv cache", "kv budget", "the cache"},
                    said = {"untouched", "unaffected", "not affected", "unchanged",
                            "not reduced", "stays the same", "does not shrink", "is not touched"},
                    why = "the slots are made inside the model-memory profile, so the KV cache is sized from what is left: every slot reserved is KV cache lost" },
    misconception { about = {"lora", "multi-lora", "adapters", "it", "vLLM", "lora support",
                             "adapter memory", "enable-lora"},
                    said = {"costs nothing", "no gpu memory", "no extra gpu memory",
                            "nothing extra", "only loaded when used", "allocated per adapter",
                            "allocated on demand", "as requests arrive", "host memory only",
                            "only in host memory", "only in cpu memory", "nothing up front",
                            "at its own rank as requests"},
                    why = "--enable-lora reserves max_loras GPU slots at max_lora_rank when the engine loads, before the KV cache is sized, whether or not an adapter is in use" },
    misconception { about = {"slots", "gpu slots", "buffers", "slot memory"},
                    said = {"allocated on demand", "allocated lazily", "allocated per request",
                            "allocated as requests arrive", "created on demand",
                            "allocated when an adapter is loaded"},
                    why = "the slots are allocated once, when the engine loads the model, at max_lora_rank, before the KV cache is sized" },
    misconception { about = {"nothing"},
                    said = {"preallocat", "reserved up front", "allocated up front"},
                    why = "--enable-lora preallocates max_loras slots at max_lora_rank on every wrapped layer" },
  },

  sections = {
    section {
      title = "An adapter is small, and the same shape for every variant",
      text = "LoRA freezes each target weight W (out × in) and learns W + B·A with A of "
          .. "r × in and B of out × r. With LoRA on q, k, v, o and the three MLP projections of "
          .. "Llama-3.1-8B (hidden " .. grouped(m.hidden) .. ", " .. m.heads .. " heads and "
          .. m.kv_heads .. " KV heads of " .. m.head_dim .. ", intermediate_size "
          .. grouped(INTERMEDIATE[MODEL]) .. " from its config.json), each layer holds "
          .. grouped(PER) .. " values per unit of rank. At rank 16, over " .. m.layers
          .. " layers in BF16, an adapter is " .. mib(A16) .. " MiB, " .. f(share16 * 100, 2)
          .. "% of the " .. f(base.weights_bytes / 1e9, 2) .. " GB base. Two hundred variants "
          .. "as full copies would be two hundred base models; as adapters they are one base "
          .. "and " .. gib(200 * A16, 1) .. " GiB of adapters. Since every token of every "
          .. "adapter multiplies the same base W, a batch can mix adapters: the base matmul "
          .. "runs once for all, and only the low-rank update differs per request.",
    },
    section {
      title = "Batching different adapters: SGMV and its kin",
      text = "The per-request update x·Aᵢ·Bᵢ is a gather: each token must use its own "
          .. "adapter's matrices. Punica (Chen et al., MLSys 2024) wrote a CUDA kernel for it, "
          .. "SGMV, segmented gather matrix-vector multiply, over a batch grouped by adapter; "
          .. "its abstract reports up to 12× the throughput of the serving systems it "
          .. "compared with, for about 2 ms more latency per token. S-LoRA (Sheng et al., "
          .. "MLSys 2024) keeps all adapters in host memory, moves those the running requests "
          .. "need to the GPU, and pages adapter weights and KV cache out of one pool "
          .. "(Unified Paging); its abstract reports thousands of adapters on one GPU and up "
          .. "to 4× the throughput of HuggingFace PEFT and of vLLM's naive LoRA support as they "
          .. "then were. vLLM's LoRA "
          .. "layers call a Punica-style wrapper (vllm/lora/punica_wrapper): the base layer "
          .. "runs, then one shrink by the A buffers and one expand by the B buffers, each "
          .. "token picking its slot by index. In FLOPs the update is small (at 2 FLOPs a "
          .. "parameter a rank-16 adapter adds about " .. f(share16 * 100, 1) .. "% to the "
          .. "base's arithmetic per token), but decode is memory-bound, so count bytes: "
          .. "each distinct adapter in a step has its slot read at max_lora_rank, zero "
          .. "padding included (the shrink kernel takes the rank from the stacked buffers). "
          .. "Eight rank-64 adapters in one step read " .. gib(proj_bytes) .. " GiB of "
          .. "decoder-projection slots beside the base's " .. gib(base.weights_bytes) .. " GiB, "
          .. "about " .. f(step_extra * 100, 0) .. "% more bytes a step, plus the extra kernel "
          .. "launches: the cost grows with the distinct adapters a step holds and with "
          .. "max_lora_rank, not with the adapters' own rank.",
    },
    section {
      title = "What --enable-lora reserves",
      text = "vLLM does not allocate per adapter. When the engine loads the model, "
          .. "LoRAModelManager wraps every supported linear layer (or those named by "
          .. "target_modules) and each wrapper allocates zeroed stacked buffers on the GPU: "
          .. "per slice, lora_a of max_loras × max_lora_rank × input and lora_b of max_loras × "
          .. "output × max_lora_rank, in the model's dtype. q, k and v are three slices of "
          .. "qkv_proj, gate and up two of gate_up_proj. An adapter of lower rank is copied "
          .. "into the corner of its slot, so every slot costs the full max_lora_rank. The "
          .. "wrapped layers of Llama-3.1-8B are not only the decoder projections: "
          .. "LlamaForCausalLM declares embedding_modules embed_tokens and lm_head, and with no "
          .. "target_modules (--lora-target-modules) vLLM wraps them too, embed_tokens with a "
          .. "lora_a of " .. grouped(VOCAB) .. " × r and a lora_b of " .. grouped(m.hidden)
          .. " × r a slot, lm_head (LogitsProcessorWithLoRA) with r × " .. grouped(m.hidden)
          .. " and " .. grouped(VOCAB) .. " × r: " .. grouped(EMBED) .. " more values per "
          .. "unit of rank beside the projections' " .. m.layers .. " × " .. grouped(PER) .. ". "
          .. "The defaults are max_loras 1 and max_lora_rank 16, " .. mib(default_slot) .. " MiB. "
          .. "With --max-loras " .. SLOTS .. " --max-lora-rank " .. RANK .. " it is "
          .. SLOTS .. " × " .. mib(slot_values(RANK) * BF16, 0) .. " MiB = " .. gib(slot_bytes)
          .. " GiB (" .. gib(proj_bytes) .. " GiB if target_modules names the seven "
          .. "projections only). These buffers are made inside load_model's memory profiler, so they count "
          .. "as model memory and the KV cache gets what is left: on an H100 at the default "
          .. "0.92, kvtutor calc's " .. gib(base.kv_budget_bytes) .. " GiB of cache becomes "
          .. gib(lora.kv_budget_bytes) .. " GiB, " .. grouped(tokens_lost) .. " tokens fewer, "
          .. base.max_concurrent_seqs .. " full 8,192-token sequences become "
          .. lora.max_concurrent_seqs .. ". You can see it: the \"Model loading took X GiB\" "
          .. "line grows by the slots. Start-up also captures separate CUDA graphs with and "
          .. "without LoRA (cudagraph_specialize_lora, default on): more start-up time and a "
          .. "little more memory. Under tensor parallelism the slots are not simply split: a "
          .. "column-parallel layer shards lora_b and keeps lora_a whole on every GPU, a "
          .. "row-parallel one the reverse, unless fully_sharded_loras is set. And the prefix "
          .. "cache is per adapter: every block hash carries the request's adapter (its "
          .. "lora_name since v0.11.1, its lora_int_id before), so a system prompt shared by 200 "
          .. "adapters is cached up to 200 times.",
    },
    section {
      title = "GPU slots, the CPU cache and the scheduler",
      text = "Three numbers bound the adapters. max_lora_rank: an adapter above it is refused "
          .. "when loaded. max_loras: the GPU slots, so the distinct adapters one step can "
          .. "run; Scheduler.schedule skips a waiting request whose adapter would be one more "
          .. "than that among the step's requests. Those counted are the adapters of the "
          .. "requests scheduled in this step, so a slot frees when no scheduled request of "
          .. "an adapter is left, finished, preempted or not scheduled; skipped requests go "
          .. "back to the queue while later ones for adapters already in the step go ahead, "
          .. "so under steady load on eight hot adapters a ninth can starve. max_cpu_loras "
          .. "(default: equal to max_loras, never below it): adapters kept registered in "
          .. "pinned host memory, an LRU, each at its own rank and held by every TP worker, "
          .. "so 200 rank-16 Llama-3.1-8B adapters hold " .. gib(200 * A16, 1) .. " GiB per "
          .. "worker. An adapter not registered is loaded inside the engine step that first "
          .. "schedules it (the model runner's set_active_adapters calls add_adapter, which "
          .. "reads the adapter into CPU memory, refuses a rank above max_lora_rank and pins "
          .. "it), so a miss "
          .. "stalls that step for every running request, not one TTFT; and a path that is "
          .. "not local is taken as a Hugging Face repo and downloaded (get_adapter_absolute_"
          .. "path), so \"from disk\" may be from the network. (Newer trees add asynchronous "
          .. "loading, VLLM_LORA_REQUEST_ASYNC_LOADING_CUDA and an overlap loader; undated, "
          .. "not the baseline's path.) An adapter already registered is copied into a free "
          .. "slot when it becomes active. From host memory over PCIe 5.0 x16 (about "
          .. f(PCIE5 / 1e9, 0) .. " GB/s a direction by the PCI-SIG line rate) a rank-16 "
          .. "adapter takes at least " .. f(adapter_pcie_ms, 1) .. " ms; from a PCIe 4.0 x4 "
          .. "NVMe drive (at most " .. f(NVME4 / 1e9, 1) .. " GB/s) at least "
          .. f(adapter_nvme_ms, 0) .. " ms. So size max_cpu_loras to the adapters that are "
          .. "often requested (host memory is cheap) and max_loras to the distinct adapters a "
          .. "batch really holds at once (GPU memory is not).",
    },
    section {
      title = "Whole models: multiplexing and cold starts",
      text = "A full fine-tune, a different base or a different size shares nothing: it "
          .. "needs its own weights on the GPU. Swapping it in on demand costs at least the "
          .. "weights over the slowest link on their way. Llama-3.1-8B's "
          .. f(base.weights_bytes / 1e9, 1) .. " GB take " .. f(load_pcie, 2) .. " s from host "
          .. "memory over PCIe 5.0 x16, " .. f(load_net, 1) .. " s over a 100 Gb/s link "
          .. "(12.5 GB/s at line rate) and " .. f(load_nvme, 1) .. " s from a PCIe 4.0 x4 "
          .. "NVMe drive; Llama-3.1-70B's " .. f(big.weights_bytes / 1e9, 0) .. " GB take "
          .. f(big_net, 0) .. " s and " .. f(big_nvme, 0) .. " s. These are floors from line "
          .. "rates, not measurements; a real engine start adds process start-up, the "
          .. "profile run and CUDA graph capture on top. Against a TTFT SLO of a second, "
          .. "even the floor for a large model is a cold start a user sees. What shortens it: "
          .. "vLLM's sleep mode (--enable-sleep-mode; sleep level 1 moves the weights to host "
          .. "memory and drops the KV cache, wake_up brings them back at PCIe speed without a "
          .. "new process, level 2 discards the weights), streaming loaders (the Run:ai Model "
          .. "Streamer, tensorizer), and a warm torch.compile cache. Across replicas, route by "
          .. "adapter: each replica has its own slots and its own CPU LRU, so sending an "
          .. "adapter's requests to the replicas that already hold it avoids the misses.",
    },
    section {
      title = "When a model earns its own replicas",
      text = "A dedicated replica pays for a GPU whatever the traffic. In kvtutor sim, Llama-3.1-8B "
          .. "on one H100 with 1,024-token prompts and 128-token replies serves "
          .. f(busy.request_throughput, 1) .. " requests/s when every request is queued at "
          .. "once; a fine-tune that gets 0.5 requests/s keeps " .. f(quiet.mean_running, 2)
          .. " requests running on average on its own replica, using "
          .. f(used * 100, 1) .. "% of its saturated throughput (a simulation of FCFS "
          .. "scheduling on a roofline, not a measurement). Give a model its own replicas "
          .. "when its traffic fills a good part of one, when its latency SLO cannot take "
          .. "the shared batch or the LoRA path's cost, when it needs memory the shared "
          .. "replicas would lose (long contexts, a large max_lora_rank), or when it is not "
          .. "a LoRA of the shared base at all. Otherwise let the long tail of variants "
          .. "share one base as adapters.",
    },
  },

  worked = code([[
adapter   per layer per rank: 7 × ]] .. grouped(m.hidden) .. " + 2 × " .. m.heads .. " × " .. m.head_dim
    .. " + 2 × " .. m.kv_heads .. " × " .. m.head_dim .. " + 3 × " .. grouped(INTERMEDIATE[MODEL])
    .. " = " .. grouped(PER) .. [[

          rank 16: 16 × ]] .. m.layers .. " layers × " .. grouped(PER) .. " × 2 B = "
    .. grouped(A16) .. " B = " .. mib(A16) .. " MiB (" .. f(share16 * 100, 2) .. [[% of the base)
slots     --max-loras ]] .. SLOTS .. " --max-lora-rank " .. RANK .. ": " .. SLOTS .. " × " .. RANK
    .. " × (" .. m.layers .. " × " .. grouped(PER) .. " + embed/lm_head 2 × (" .. grouped(VOCAB)
    .. " + " .. grouped(m.hidden) .. ")) × 2 B = " .. gib(slot_bytes) .. " GiB ("
    .. gib(proj_bytes) .. [[ GiB for the projections alone)
KV cache  H100, util 0.92: ]] .. gib(base.kv_budget_bytes) .. " GiB → " .. gib(lora.kv_budget_bytes)
    .. " GiB, " .. grouped(tokens_lost) .. " tokens fewer, " .. base.max_concurrent_seqs .. " → "
    .. lora.max_concurrent_seqs .. [[ sequences of 8,192
adapter   ]] .. mib(A16) .. " MiB ÷ " .. f(PCIE5 / 1e9, 0) .. " GB/s = " .. f(adapter_pcie_ms, 1)
    .. " ms (PCIe 5.0 x16);  ÷ " .. f(NVME4 / 1e9, 1) .. " GB/s = " .. f(adapter_nvme_ms, 0) .. [[ ms (NVMe)
weights   8B: ]] .. f(base.weights_bytes / 1e9, 2) .. " GB ÷ 12.5 GB/s = " .. f(load_net, 2)
    .. " s;  70B: " .. f(big.weights_bytes / 1e9, 1) .. " GB ÷ 12.5 GB/s = " .. f(big_net, 1) .. [[ s
decode    8 adapters × rank-64 projection slots read a step: ]] .. gib(proj_bytes) .. " GiB ÷ "
    .. gib(base.weights_bytes) .. " GiB of base weights = +" .. f(step_extra * 100, 0) .. [[% bytes
replica   0.5 req/s ÷ ]] .. f(busy.request_throughput, 1) .. " req/s saturated = " .. f(used * 100, 1)
    .. "% of saturated throughput; " .. f(quiet.mean_running, 2) .. " requests running on average"),

  followups = {
    followup {
      question = "Your adapters are all rank 8, but the deployment sets --max-lora-rank 64. "
              .. "What does that cost, and what would you change?",
      answer = "Every GPU slot is shaped for rank 64 whatever rank the adapter has: a rank-8 "
            .. "adapter is copied into the corner of a rank-64 slot. So the reservation is "
            .. "eight times what rank 8 needs, and it is taken from the KV cache at start-up, "
            .. "meaning fewer tokens and fewer concurrent sequences. It also costs every step: "
            .. "the shrink and expand kernels run over the whole rank-64 slot, zero padding "
            .. "included, so each adapter in a step reads and multiplies eight times the "
            .. "values it needs. Set max_lora_rank to the "
            .. "largest rank actually served (8 here), and max_loras to the distinct adapters "
            .. "a batch really holds.",
      points = {
        point { "slots are sized by max_lora_rank, not the adapter's rank", weight = 2,
                about = {"slots", "every slot", "buffers", "memory", "reservation", "vLLM",
                         "each slot"},
                said = {"max_lora_rank", "rank 64", "padded", "corner", "full rank",
                        "eight times", "8x", "8 times", "whatever rank"} },
        point { "the extra memory comes out of the KV cache", weight = 2,
                about = {"memory", "it", "reservation", "slots", "cost", "buffers"},
                said = {"KV cache", "KV budget", "fewer tokens", "fewer sequences",
                        "less cache", "concurrency", "KV pool", "KV blocks"},
                accept = {"out of the kv cache", "from the kv cache", "before the kv cache",
                          "shrinks the kv cache", "reduces the kv cache", "smaller kv cache",
                          "less kv cache", "out of the kv pool", "kv cache is sized"} },
        point { "every step's kernels also run over the padded rank",
                about = {"kernels", "shrink", "expand", "punica", "compute", "each step",
                         "every step", "lora kernels"},
                said = {"padded", "padding", "zero", "wasted", "full rank", "rank 64",
                        "more bytes", "bandwidth"} },
        point { "lower max_lora_rank to the largest rank served",
                about = {"max_lora_rank", "--max-lora-rank", "rank"},
                said = {"set to 8", "lower", "reduce", "largest rank", "match", "down to 8",
                        "to 8", "right-size"},
                accept = {"max-lora-rank 8", "max_lora_rank 8", "max_lora_rank=8",
                          "max-lora-rank=8", "max_lora_rank to 8"} },
      },
      misconceptions = {
        misconception { about = {"rank-8 adapter", "adapter", "each adapter", "memory", "it",
                                 "cost", "rank 64", "setting"},
                        said = {"only uses rank 8", "allocated at its own rank",
                                "allocated per adapter", "nothing extra", "no cost"},
                        why = "vLLM preallocates every slot at max_lora_rank; a rank-8 adapter still occupies a rank-64 slot" },
        misconception { about = {"max_lora_rank", "it"},
                        said = {"host memory", "cpu memory", "only a limit", "just a check",
                                "host ram", "cpu ram", "system memory", "comes from host"},
                        why = "besides refusing larger adapters, max_lora_rank sets the shape of every GPU slot, so it reserves GPU memory" },
        misconception { about = {"kv cache", "the cache"},
                        said = {"untouched", "unaffected", "not affected", "unchanged",
                                "nothing extra", "no extra", "costs nothing"},
                        why = "the slots are reserved before the KV cache is sized, so rank-64 slots take eight times the KV cache rank 8 would" },
        misconception { about = {"adapters", "rank-8 adapters", "outputs", "quality", "it"},
                        said = {"upsampled", "upscaled", "changes their outputs", "retrain",
                                "lower quality", "quality loss"},
                        why = "a rank-8 adapter is copied into the corner of a zeroed rank-64 slot: the padding adds zeros, so its output is the same; the cost is memory and per-step work" },
      },
    },
    followup {
      question = "max_loras is 8 and the running batch already holds requests for 8 different "
              .. "adapters. A request arrives for a ninth. What does vLLM do?",
      answer = "It does not fail the request or evict an adapter that running requests use. "
            .. "The scheduler skips it in each step while the step already has max_loras "
            .. "distinct adapters, and it waits in the queue; once no request of one adapter "
            .. "is scheduled in a step (they finished, were preempted or were not scheduled), "
            .. "a slot is free and it is admitted. Later requests for the eight adapters "
            .. "already in the step go ahead of it, so under steady load on those eight it can "
            .. "starve. If its adapter is not among the max_cpu_loras registered in host "
            .. "memory, it is loaded (from disk, or downloaded) inside the step that first "
            .. "schedules it, stalling that step for every running request, and the least "
            .. "recently used registered one is evicted.",
      points = {
        point { "the request waits: skipped while max_loras adapters are in the step", weight = 2,
                about = {"request", "it", "ninth", "scheduler", "vLLM"},
                said = {"waits", "skipped", "queued", "stays in the queue", "delayed",
                        "held back", "not scheduled"} },
        point { "it runs once an adapter's requests finish and a slot frees", weight = 2,
                about = {"slot", "it", "request", "adapter"},
                said = {"frees", "finish", "free slot", "admitted once", "admitted when",
                        "admitted later", "is admitted", "once", "when one", "slot can be reused",
                        "reused", "drain", "left the batch", "completes", "complete"} },
        point { "it is loaded from disk unless in the CPU cache (LRU)",
                accept = {"max_cpu_loras", "cpu cache", "host memory", "from disk", "lru"} },
      },
      misconceptions = {
        misconception { about = {"it", "vLLM", "the server"},
                        said = {"sends the client an error", "returns an error", "rejects the request", "error saying the LoRA limit"},
                        why = "the request waits: the scheduler skips it while the step already holds max_loras distinct adapters, and admits it once no request of one of them is scheduled (they finished or were preempted)" },
        misconception { about = {"max_loras"},
                        said = {"can ever serve", "hard cap on how many adapters the server can", "how many adapters it can serve in total"},
                        why = "max_loras caps the adapters in one batch; more are kept on the CPU (max_cpu_loras) or loaded on demand, so any number can be served over time" },
        misconception { about = {"vLLM", "it", "the request", "scheduler"},
                        said = {"fails the request", "rejects", "returns an error",
                                "evicts a running adapter", "preempts its running",
                                "preempts running", "preempts the running", "preempts a running",
                                "preempts one of", "least recently used running",
                                "least recently used of the", "runs the ninth immediately",
                                "runs it immediately", "loaded immediately", "runs it on the base",
                                "admitted immediately", "admitted at once", "is scheduled immediately",
                                "runs on the base", "uses the base model", "without the adapter",
                                "without its adapter"},
                        unless = {"not served without", "never served without", "not run without", "never runs without",
                                  "never without"},
                        why = "the scheduler leaves the request waiting until a slot is free; running adapters are not evicted and the request is not served without its adapter" },
      },
    },
    followup {
      question = "When would you give a fine-tuned model its own replicas instead of serving it "
              .. "as an adapter on the shared base?",
      answer = "When its traffic is large enough to keep a replica busy, so the GPU is not "
            .. "paid for idle; when its latency SLO cannot take the shared batch and the LoRA "
            .. "path's extra cost (or you merge the adapter into its own weights for it); when "
            .. "it needs memory the shared replicas would give up, such as long contexts or a "
            .. "large max_lora_rank for everyone; and always when it is not a LoRA of that "
            .. "base, since a full fine-tune shares no weights.",
      points = {
        point { "its traffic fills a good part of a replica", weight = 2,
                about = {"traffic", "load", "it", "requests", "demand", "volume", "tenant",
                         "share of traffic"},
                said = {"high", "large", "busy", "fill", "enough", "saturate", "keeps it busy",
                        "full", "heavy", "steady"} },
        point { "a strict latency SLO or isolation", weight = 2,
                about = {"latency", "SLO", "isolation", "tail", "it"},
                said = {"strict", "tight", "cannot", "needs", "isolat", "predictable",
                        "noisy neighbour", "guarantee"} },
        point { "a full fine-tune or other base shares no weights",
                about = {"full fine-tune", "different base", "not a lora", "merged", "it"},
                said = {"no weights", "own weights", "cannot share", "nothing to share",
                        "shares nothing", "needs its own"},
                accept = {"full fine-tune", "different base", "different architecture"} },
        point { "its memory needs would cost the shared replicas",
                about = {"memory", "long context", "max_lora_rank", "kv cache"},
                said = {"large", "long", "cost", "reserve", "everyone", "shared replicas"} },
      },
      misconceptions = {
        misconception { about = {"every adapter", "each adapter", "all adapters",
                                 "every fine-tune"},
                        said = {"needs its own replica", "own replica", "own gpu"},
                        why = "low-traffic adapters share a base replica; a dedicated replica for one would sit mostly idle" },
        misconception { about = {"full fine-tune", "full fine-tunes", "a full fine-tune"},
                        said = {"shares weights", "shares the base", "can share",
                                "shares its weights", "can be batched"},
                        why = "a full fine-tune changes every weight, so it shares nothing with the base replicas and needs its own" },
        misconception { about = {"vLLM", "it", "shared base", "multi-lora"},
                        said = {"only rank 8", "only batch rank-8", "rank above 8",
                                "only rank-8"},
                        why = "vLLM serves any rank in its set up to max_lora_rank on the shared base; a large rank costs every slot memory, which is a reason, not a limit" },
      },
    },
    followup {
      question = "Why not keep one replica per GPU and swap whole models in as requests "
              .. "arrive?",
      answer = "Because loading is slow next to a TTFT: the weights must cross a disk, a "
            .. "network or PCIe first. At line rate an 8B model's " .. f(base.weights_bytes / 1e9, 0)
            .. " GB take " .. f(load_net, 1) .. " s over a 100 Gb/s link and " .. f(load_nvme, 1)
            .. " s from a PCIe 4.0 x4 NVMe drive; a 70B model's " .. f(big.weights_bytes / 1e9, 0)
            .. " GB take " .. f(big_net, 0) .. " s over the link, all before process start-up, "
            .. "profiling and CUDA graph capture. "
            .. "Meanwhile the GPU serves nothing, the KV and prefix cache are lost, and a "
            .. "replica only batches the model it holds. Sleep mode and streaming loaders "
            .. "shorten a swap but do not remove it. An adapter of tens of MiB moves in "
            .. "milliseconds, which is why variants of one base are served as adapters and "
            .. "whole models get warm replicas.",
      points = {
        point { "the weights' load time is seconds or more", weight = 2,
                about = {"loading", "load time", "weights", "cold start", "swapping", "it"},
                said = {"seconds", "slow", "minutes", "too long", "bandwidth", "takes time",
                        "stall", "stop the world", "idle", "serves nothing"} },
        point { "the load time is size ÷ the link's bandwidth",
                about = {"load time", "time", "it"},
                said = {"bandwidth", "divided by", "network", "pcie", "disk", "nvme"},
                accept = {"across pcie", "over pcie", "gb/s"} },
        point { "meanwhile the GPU serves nothing and batches one model at a time",
                accept = {"one model at a time", "one tenant at a time", "one model per batch",
                          "single model it currently holds", "thrash", "kv cache is lost",
                          "emptied kv cache", "clears the kv cache", "kv cache are thrown away",
                          "serves nothing", "prefix cache are lost", "only batches the model"} },
        point { "an adapter loads in milliseconds",
                about = {"adapter", "lora", "adapters"},
                said = {"milliseconds", "ms", "small", "fast", "quick", "tiny"} },
      },
      misconceptions = {
        misconception { about = {"swapping", "swapping models", "loading a model", "model weights",
                                 "the weights",
                                 "loading the weights", "a model's load time", "model swap"},
                        said = {"instant", "free", "negligible", "cheap", "no time"},
                        why = "a whole model's weights are gigabytes: at the line rate of a 100 Gb/s link they take " .. f(load_net, 1) .. " s for an 8B model and " .. f(big_net, 0) .. " s for a 70B one, before engine start-up" },
      },
    },
  },

  exercises = {
    numeric {
      id = "adapter-mib",
      prompt = "A rank-16 LoRA adapter of Llama-3.1-8B targets q, k, v, o, gate, up and down "
            .. "in all 32 layers (hidden 4,096; 32 heads and 8 KV heads of 128; "
            .. "intermediate_size 14,336), stored in BF16. How many MiB is it?",
      expected = A16 / 2^20, unit = "MiB", tolerance = rel(0.02), diagnose = "units",
      worked = code(RULE .. "per layer  7 × " .. grouped(m.hidden) .. " + 2 × " .. m.heads .. " × "
          .. m.head_dim .. " + 2 × " .. m.kv_heads .. " × " .. m.head_dim .. " + 3 × "
          .. grouped(INTERMEDIATE[MODEL]) .. "\n"
          .. "           = " .. grouped(PER) .. " values per unit of rank\n"
          .. "adapter    16 × " .. m.layers .. " layers × " .. grouped(PER) .. " × 2 B = "
          .. grouped(A16) .. " B\n"
          .. "in MiB     " .. grouped(A16) .. " B ÷ 2^20 = " .. mib(A16) .. " MiB"),
      hints = { "Each target W (out × in) adds r × (in + out) values.",
                "Per layer per rank: 7h + 2·H·d + 2·Hkv·d + 3I; × 16 × 32 × 2 B." },
    },
    numeric {
      id = "slot-gib",
      prompt = "vLLM serves {model} with --enable-lora --max-loras {slots} --max-lora-rank "
            .. "{rank} and target_modules limited to q, k, v, o, gate, up and down of every layer "
            .. "(so no embedding or lm_head slots), in BF16. How many GiB of GPU memory do the "
            .. "slots reserve? (Shapes from config.json, " .. shapes("llama-3.1-8b") .. "; "
            .. shapes("mistral-7b-v0.3") .. "; " .. shapes("qwen2.5-7b") .. ".)",
      params = { model = {"llama-3.1-8b", "qwen2.5-7b", "mistral-7b-v0.3"},
                 slots = {2, 4, 8, 16}, rank = {16, 32, 64, 128} },
      expected = function(p)
        local mm = kv.model(p.model)
        local inter = INTERMEDIATE[p.model]
        local per = per_rank(mm, inter)
        local bytes = p.slots * adapter_bytes(p.model, p.rank)
        return bytes / 2^30,
          RULE
          .. "a layer    7 × " .. grouped(mm.hidden) .. " + 2 × " .. mm.heads .. " × "
          .. mm.head_dim .. " + 2 × " .. mm.kv_heads .. " × " .. mm.head_dim .. " + 3 × "
          .. grouped(inter) .. "\n           = " .. grouped(per) .. " values per unit of rank\n"
          .. "slots      " .. p.slots .. " × " .. p.rank .. " × " .. mm.layers
          .. " layers × " .. grouped(per) .. " × 2 B = " .. grouped(bytes) .. " B\n"
          .. "           " .. exact_gib(bytes / 2^30) .. " GiB"
      end,
      unit = "GiB", tolerance = rel(0.02), diagnose = "units",
      hints = { "Every slot is shaped for max_lora_rank, whatever the adapters' rank.",
                "max_loras × max_lora_rank × layers × (7h + 2·H·d + 2·Hkv·d + 3I) × 2 B." },
    },
    numeric {
      id = "kv-tokens-lost",
      prompt = "Llama-3.1-8B in BF16 keeps 128 KiB of KV cache per token. Enabling LoRA with "
            .. "--max-loras 8 --max-lora-rank 64 and no target_modules wraps q, k, v, o, gate, "
            .. "up and down of all 32 layers (81,920 values per layer per unit of rank) and "
            .. "also embed_tokens and lm_head (vocabulary 128,256, hidden 4,096), and reserves "
            .. "the slots before the KV cache is sized. How many tokens of KV cache does that "
            .. "cost?",
      expected = tokens_lost, unit = "tokens", tolerance = rel(0.02),
      worked = code("a slot     " .. m.layers .. " × " .. grouped(PER) .. " + 2 × ("
          .. grouped(VOCAB) .. " + " .. grouped(m.hidden) .. ") = "
          .. grouped(slot_values(1)) .. " values\n"
          .. "           per unit of rank (embed_tokens and lm_head each hold\n"
          .. "           vocab × r + hidden × r)\n"
          .. "slots      " .. SLOTS .. " × " .. RANK .. " × " .. grouped(slot_values(1))
          .. " × 2 B = " .. grouped(slot_bytes) .. " B\n"
          .. "KV lost    " .. grouped(slot_bytes) .. " B ÷ "
          .. grouped(base.kv_bytes_per_token) .. " B a token = " .. grouped(tokens_lost)
          .. " tokens"),
      hints = { "Per slot per unit of rank: 32 × 81,920 + 2 × (128,256 + 4,096); "
                .. "embed_tokens holds vocab × r and hidden × r, lm_head the same.",
                "8 × 64 × that × 2 B, divided by 131,072 B per token." },
    },
    numeric {
      id = "cold-start-s",
      prompt = "Llama-3.1-70B's BF16 weights are " .. f(big.weights_bytes / 1e9, 1) .. " GB. "
            .. "At the line rate of a 100 Gb/s network link, at least how many seconds does "
            .. "fetching them take?",
      expected = big_net, unit = "s", tolerance = rel(0.02),
      worked = code("line rate  100 Gb/s ÷ 8 bits a byte = 12.5 GB/s\n"
          .. "fetch      " .. f(big.weights_bytes / 1e9, 1) .. " GB ÷ 12.5 GB/s = "
          .. f(big_net, 2) .. " s at best"),
      hints = { "100 Gb/s is 12.5 GB/s.", "Bytes ÷ bytes per second." },
    },
    numeric {
      id = "idle-replica",
      prompt = "In kvtutor sim, Llama-3.1-8B on one H100 (max_model_len 8,192) serves a fine-tune "
            .. "that sends 0.5 requests/s of 1,024 prompt tokens and 128 output tokens. "
            .. "Its mean end-to-end latency is " .. grouped(quiet.mean_e2el_ms) .. " ms. How "
            .. "many requests are in the system (running or waiting) on average? (Little's "
            .. "law gives it; at this load nothing waits, so it is the running batch.)",
      expected = quiet.mean_running, unit = "requests", tolerance = rel(0.1),
      worked = code("Little's law  in system = arrival rate × time in the system\n"
          .. "              0.5 req/s × " .. f(quiet.mean_e2el_ms / 1000, 3) .. " s = "
          .. f(0.5 * quiet.mean_e2el_ms / 1000, 3) .. " requests\n"
          .. "kvtutor sim   time-averaged running batch " .. f(quiet.mean_running, 3)
          .. " ≈ " .. f(quiet.mean_running, 2) .. " requests\n"
          .. "why lower     the run's own rate: " .. grouped(quiet.completed) .. " ÷ "
          .. grouped(quiet.duration_s) .. " s = " .. f(quiet.request_throughput, 4) .. " req/s,\n"
          .. "              × " .. f(quiet.mean_e2el_ms / 1000, 3) .. " s = "
          .. f(quiet.request_throughput * quiet.mean_e2el_ms / 1000, 3) .. "; and "
          .. f(quiet_wait_ms, 2) .. " ms a request of waiting for a\n"
          .. "              step under way counts in E2E, not as running.\n"
          .. "              Either figure is within 10%"),
      serving = quiet_setup,
      hints = { "Little's law: in the system = arrival rate × time in the system.",
                "0.5 requests/s × the mean latency in seconds." },
    },
    choice {
      id = "which-knob",
      prompt = "A multi-LoRA deployment has 300 adapters, rank 16, of which about 6 are in "
            .. "use at any moment; TTFT spikes whenever a rarely used adapter is requested. "
            .. "Which change addresses it most cheaply?",
      options = {
        option { "Raise --max-cpu-loras so more adapters stay registered in host memory",
                 correct = true,
                 why = "an adapter not registered is loaded from disk (or downloaded) inside the engine step that schedules it, stalling every running request; host memory costs no KV cache, though the cache is pinned and held by every TP worker: all 300 rank-16 adapters are " .. gib(host300, 1) .. " GiB per worker" },
        option { "Raise --max-loras to 300",
                 why = "each GPU slot is reserved up front at max_lora_rank and taken from the KV cache; a batch only needs slots for the adapters it holds" },
        option { "Raise --max-lora-rank to 64",
                 why = "it enlarges every slot and takes more KV cache; the adapters are rank 16" },
        option { "Give every adapter its own replica",
                 why = "300 replicas that each serve a trickle of traffic would sit nearly idle" },
      },
    },
    freetext {
      id = "why-shared",
      prompt = "In two or three sentences: why can requests for different LoRA adapters run "
            .. "in one batch, when requests for two different full fine-tunes cannot?",
      answer = "LoRA adapters keep the base weights frozen and add a small low-rank update, so "
            .. "every request shares the same base matmuls and only the per-request update "
            .. "differs, which a gathered kernel (Punica's SGMV) computes for the whole batch. "
            .. "Two full fine-tunes have different weights in every layer, so each needs its "
            .. "own copy and its own forward pass.",
      points = {
        point { "adapters share the frozen base weights", weight = 2,
                accept = {"same base", "shared base", "base weights", "frozen", "one copy",
                          "share the base", "shared trunk", "shared backbone", "same backbone",
                          "shared weights", "same weights"} },
        point { "only a small low-rank update differs per request", weight = 2,
                accept = {"low-rank", "low rank", "small update", "a and b", "per-request update",
                          "delta", "adapter matrices"} },
        point { "full fine-tunes have different weights everywhere",
                accept = {"different weights", "own copy", "every layer", "separate weights",
                          "own weights", "weight sets", "no common", "nothing in common",
                          "nothing to share", "different models"} },
      },
      misconceptions = {
        misconception { about = {"lora adapters", "lora adapter", "adapters", "each adapter",
                                 "every adapter", "lora requests"},
                        said = {"own copy", "separate copy", "merged into the base",
                                "merged into the weights", "merged before", "time-slice",
                                "time slice", "separate forward pass", "own forward pass",
                                "one at a time", "take turns"},
                        why = "adapters are not merged or copied: every request runs the one shared base matmul, and a gathered kernel adds each request's own low-rank update in the same forward pass" },
        misconception { about = {"full fine-tunes", "full fine-tune", "fine-tunes"},
                        said = {"share their weights", "share weights", "share the base",
                                "share a base", "can be merged", "share the same weights",
                                "also share"},
                        why = "a full fine-tune changes every weight, so two of them share no matmul and need two copies of the weights" },
        misconception { about = {"scheduler", "gpu"},
                        said = {"time-slice", "time slice", "one adapter at a time",
                                "takes turns"},
                        why = "nothing is time-sliced: the whole batch runs the base matmul once and the per-request updates in the same step" },
      },
    },
  },
}
