-- Part 0 · Foundations: the KV cache, and why it caps concurrency.
-- Every figure below comes from kv.calc (kvtutor's calculator), so the text,
-- the exercises and the grader agree by construction.

local MODEL = "qwen2.5-7b"
local qwen = kv.model(MODEL)
local per_token = kv.calc{model = MODEL}.kv_bytes_per_token           -- 57,344 B
local GiB = 2^30
local at_8k = per_token * 8192 / GiB                                   -- 0.4375 GiB
local at_32k = per_token * 32768 / GiB                                 -- 1.75 GiB
local bf16_weights = kv.calc{model = MODEL}.weights_bytes / GiB        -- 14.19 GiB
local int4_weights = kv.calc{model = MODEL, weights_dtype = "int4"}.weights_bytes / GiB
local seed = kv.calc{model = MODEL, seq = 8192, kv_budget_gib = 10}   -- the card's example

local function f(x, places) return fixed(x, places or 2) end
local n = grouped -- 57344 -> "57,344"

-- figures for the exercises' worked lines (the same kv.calc calls as their expected values)
local shape = qwen.layers .. " layers × " .. qwen.kv_heads .. " KV heads × " .. qwen.head_dim .. " dims"
local fp8_per_token = kv.calc{model = MODEL, kv_dtype = "fp8"}.kv_bytes_per_token
local int4_fit = kv.calc{model = MODEL, weights_dtype = "int4", gpu_mem_gib = 24, util = 1, seq = 8192}
local mha_per_token = per_token * qwen.heads / qwen.kv_heads

return lesson {
  id = "kv-cache",
  title = "The KV cache caps concurrency",
  module = "part0-foundations",
  module_title = "Part 0 · Foundations",
  baseline = "vLLM V1 start-up arithmetic (vllm/v1/core/kv_cache_utils.py, 0.9 and later), "
          .. "its block arithmetic checked against the figures of public start-up logs (V0's "
          .. "0.6.4, and V1 from 0.9 to 0.24.0), rendered as the project's fixtures "
          .. "(tests/fixtures/vllm-logs); 0.26's defaults (gpu_memory_utilization "
          .. "0.92, Model Runner V2's CUDA-graph estimate of 0) read from its source, no 0.26 "
          .. "log being among them; Qwen2.5-7B shapes from its config.json",
  concept = "kv-cache",
  concept_title = "The KV cache budget",
  links = {"memory-bound-decode", "paged-attention", "shrinking-kv", "shrinking-weights"},

  question = "You serve a 7B model on one 24 GB GPU. Why is the KV cache, rather than the "
          .. "weights or the GPU's compute, what usually limits how many requests run at once?",

  answer = "The weights cost the same whatever the load: you load them once. The KV cache is "
        .. "paid per request and grows with every token of context, so once the weights are in, "
        .. "the memory left is a fixed budget that each concurrent sequence draws down. "
        .. "Concurrency is how many sequences' caches fit in that budget. Compute is not the "
        .. "wall either: each decode step rereads the weights and the whole cache for a handful "
        .. "of arithmetic, so decode runs out of memory bandwidth and capacity long before FLOPs.",

  -- what an answer to the question must say, for interview practice
  points = {
    point { "the weights are a fixed, one-time cost", weight = 2,
            about = {"weights", "model weights", "parameters"},
            said = {"one-time", "once", "fixed", "don't grow", "do not grow", "constant",
                    "cost the same", "same whatever the load", "same regardless", "shared by every request",
                    "one-off", "paid once", "no matter how many"} },
    point { "the KV cache grows with every sequence and its length", weight = 2,
            about = {"KV cache", "cache", "each request", "each sequence", "every request",
                     "every active request", "each active request", "every live request", "every sequence"},
            said = {"per request", "per sequence", "per token", "grows", "context length",
                    "linear in", "with its length", "with the context", "its own keys and values",
                    "for every token", "every token it has seen"} },
    point { "concurrency is how many caches fit in what is left", weight = 2,
            about = {"concurrency", "how many requests", "how many sequences", "requests at once",
                     "number of requests", "batch size", "memory left", "leftover memory"},
            said = {"fit", "left", "leftover", "remaining", "budget", "free memory", "draws down"},
            accept = {"left after the weights", "eats what's left", "eats what is left", "eats the rest",
                      "one sequence at a time"} },
    point { "decode is memory-bound, not compute-bound",
            about = {"decode", "each decode step", "generation", "compute", "each step", "the GPU"},
            said = {"memory-bound", "memory bandwidth", "not the wall", "not the limit",
                    "not the bottleneck", "waits on memory", "rereads the weights"} },
  },
  misconceptions = {
    misconception { about = {"weights", "model weights"},
                    said = {"grow with", "per request", "copied per request", "scale with the number of requests",
                            "grows with each request"},
                    why = "the weights are loaded once and shared by every request; only the KV cache grows per request" },
    misconception { about = {"compute", "FLOPs", "the GPU's compute"},
                    said = {"is the limit", "limits concurrency", "is the bottleneck", "runs out first"},
                    why = "decode does about 2 FLOPs per weight per sequence: it runs out of memory bandwidth and capacity long before arithmetic" },
    misconception { about = {"decode"}, said = {"compute-bound"},
                    why = "decode reads every weight and the whole cache for one token per sequence: it is memory-bound" },
    misconception { about = {"each request", "every request", "a request", "each admitted request"},
                    said = {"reserves max_model_len", "reserves the full context", "reserves its maximum length",
                            "reserves memory up front", "reserves its full length", "preallocates its full length"},
                    unless = {"whole pool", "the pool once", "pool at start-up", "pool at startup", "allocates the pool",
                              "gpu_memory_utilization", "start-up check", "startup check", "checks that the prompt fits",
                              "whole prompt fits", "prompt must fit"},
                    why = "vLLM V1 allocates blocks as tokens are scheduled (KVCacheManager.allocate_slots); max_model_len reserves nothing, it bounds the longest request and the start-up check" },
    misconception { about = {"vLLM", "max_model_len"},
                    said = {"reserves max_model_len", "reserves each request's", "preallocates each request",
                            "preallocates per request", "preallocates the whole context", "reserves the full context for",
                            "reserves memory up front for each request", "reserves memory up front for every request"},
                    unless = {"whole pool", "the pool once", "pool at start-up", "pool at startup", "allocates the pool",
                              "gpu_memory_utilization", "start-up check", "startup check", "checks that the prompt fits",
                              "whole prompt fits", "prompt must fit"},
                    why = "vLLM V1 allocates the pool once at start-up and hands each request blocks as its tokens are scheduled (KVCacheManager.allocate_slots); max_model_len reserves nothing, it bounds the longest request and the start-up check" },
    misconception { about = {"KV cache", "the cache", "decode", "it"},
                    said = {"host memory", "CPU memory", "CPU RAM", "over PCIe", "on the host", "system memory"},
                    unless = {"kv_offloading", "OffloadingConnector", "offloading connector", "KV offloading", "CPU offloading", "LMCache", "cpu_offload_gb", "none of", "nothing", "stays in GPU", "stay in GPU", "stays on the GPU", "in HBM", "from HBM"},
                    why = "the KV cache lives in the GPU's own memory (HBM on H100-, A100- and H200-class parts, GDDR6 on an L4 or L40S, GDDR6X on an RTX 4090) next to the weights; decode is memory-bound on that memory's bandwidth, not on PCIe" },
  },

  sections = {
    section {
      title = "What one token costs",
      text = "For every token it has seen, each attention layer keeps a key vector and a value "
          .. "vector for each KV head. So one token costs 2 (K and V) × layers × KV heads × "
          .. "head dimension × bytes per element. Qwen2.5-7B has " .. qwen.layers .. " layers, "
          .. qwen.kv_heads .. " KV heads and a head dimension of " .. qwen.head_dim .. "; in BF16 "
          .. "(2 bytes) that is " .. n(per_token) .. " bytes, " .. per_token // 1024 .. " KiB, per token.",
    },
    section {
      title = "What one request costs",
      text = "A request holds its whole context: " .. f(at_8k, 4) .. " GiB for 8,192 tokens, "
          .. f(at_32k) .. " GiB at the full 32k context the instruct model is configured for. "
          .. "Twice the context, twice the cache: the cost of a request is linear in its length.",
    },
    section {
      title = "Why not the weights",
      text = "In BF16 the weights take about " .. f(bf16_weights, 1) .. " GiB (7.6 billion "
          .. "parameters × 2 bytes), and about 5 to 6 GiB as an AWQ 4-bit checkpoint, which keeps "
          .. "the embedding and output layers in 16 bits (" .. f(int4_weights, 1) .. " GiB if every "
          .. "weight were 4-bit). Either way it is a one-time cost: serving one request or fifty, "
          .. "the weights do not grow.",
    },
    section {
      title = "Why not compute",
      text = "Generating a token means reading every weight and every cached key and value once, "
          .. "and doing roughly two floating-point operations per weight per sequence. With few "
          .. "sequences in the batch, that is far too little arithmetic per byte read: the GPU "
          .. "waits on memory, not on its arithmetic units. More FLOPs would not help; more room "
          .. "for KV, or more bandwidth, would.",
    },
    section {
      title = "The budget on a 24 GB card",
      text = "24 GiB less ~14 GiB of weights leaves ~10 GiB. vLLM keeps one KV tensor per layer "
          .. "and cuts each into pages of 16 tokens; a block id names one "
          .. 16 * per_token // 1024 // qwen.layers .. " KiB page in each of the " .. qwen.layers
          .. " layers, " .. 16 * per_token // 1024 .. " KiB in all, so the budget holds " .. n(seed.num_gpu_blocks)
          .. " blocks, " .. seed.max_concurrent_seqs .. " whole sequences of 8,192 tokens. A real "
          .. "deployment gets fewer: gpu_memory_utilization (0.92 by default from vLLM 0.25, 0.9 "
          .. "before) holds some memory back, and the profiled activation peak takes its share "
          .. "before the cache is sized. So may the CUDA graphs, depending on the model runner: "
          .. "Model Runner V2, which vLLM picks from 0.25.0 for a dense model like this one "
          .. "(vllm-project/vllm#44443, which followed Qwen3 dense models, #39337, and an "
          .. "allow-list of MoE models, #42667; other MoE and hybrid models keep the V1 runner "
          .. "in 0.26, and VLLM_USE_V2_MODEL_RUNNER=0 or 1 overrides the choice), estimates 0 for them in "
          .. "0.25.0 to 0.27 (a placeholder until vllm-project/vllm#53306), so they come out of "
          .. "the headroom and their capture can run out of memory at start-up "
          .. "(vllm-project/vllm#49224); the V1 runner subtracts its estimate, on by default from "
          .. "0.21 (VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS; =0 turns it off), and that estimate "
          .. "can overshoot, as vllm-project/vllm#45178 and #53013 report. "
          .. "The round 24 is itself an upper bound: "
          .. "a card is sold by its memory chips, and the driver reports a little less as "
          .. "usable (an H100 80GB shows 79.19 GiB).",
    },
    section {
      title = "What follows",
      text = "Everything that raises serving throughput makes more KV fit or wastes less of it: "
          .. "quantising the weights frees memory for cache; an fp8 cache halves every token "
          .. "(FlashAttention reads it on Hopper, through FA3, and since vllm#42569, merged in "
          .. "July 2026 with its first release not pinned down here, on data-centre Blackwell "
          .. "(SM100) through FA4; on other GPUs, older or consumer Blackwell, vLLM needs a "
          .. "backend that can, such as FlashInfer or Triton attention); "
          .. "grouped-query attention already stores " .. qwen.heads // qwen.kv_heads .. " times "
          .. "less than one KV head per query head would; PagedAttention stops contiguous "
          .. "allocation from wasting memory; continuous batching keeps the budget full; prefix "
          .. "caching stores a shared prompt once.",
    },
  },

  worked = code [[
per token   2 × 28 layers × 4 KV heads × 128 dims × 2 B = 57,344 B = 56 KiB
8k tokens   56 KiB × 8,192 = 448 MiB = 0.4375 GiB
32k tokens  56 KiB × 32,768 = 1.75 GiB
budget      24 GiB − ~14 GiB of BF16 weights ≈ 10 GiB
fit         10 GiB ÷ 0.4375 GiB = 22.9 → 22 whole sequences of 8k
            (vLLM: 10 GiB ÷ 896 KiB per 16-token block = 11,702 blocks; ÷ 512 = 22)]],

  followups = {
    followup {
      question = "How would you triple that concurrency on the same GPU?",
      answer = "Attack the cache and what surrounds it: quantise the weights (a 4-bit AWQ or "
            .. "GPTQ checkpoint of 5 to 6 GiB frees about 8 to 9 GiB for KV) and store the cache in fp8 (half the bytes per token). "
            .. "Lowering max_model_len does not free memory by itself: vLLM allocates blocks as "
            .. "tokens are scheduled, so a request holds only what it has used. A lower "
            .. "max_model_len bounds the longest request, the start-up fit check and the logged "
            .. "worst-case concurrency; real concurrency depends on the real lengths, so it helps "
            .. "only if the workload's requests really are shorter. Grouped-query attention is "
            .. "already saving 7×.",
      points = {
        point { "quantise the weights to free memory", weight = 2,
                about = {"weights", "model", "checkpoint"},
                said = {"quantize", "quantise", "4-bit", "int4", "smaller", "compress"},
                accept = {"awq", "gptq"} },
        point { "shrink the cache itself with an 8-bit KV dtype", weight = 2,
                about = {"cache", "KV cache", "KV", "keys and values"},
                said = {"fp8", "8-bit", "int8", "quantize", "quantise", "half the bytes", "halve"},
                accept = {"kv_cache_dtype"} },
        point { "blocks are allocated as tokens are scheduled: real lengths set real concurrency",
                about = {"blocks", "vLLM", "memory", "cache", "a request", "real concurrency"},
                said = {"as tokens are scheduled", "allocates as it goes", "on demand", "only what it has used",
                        "only what it uses", "real lengths", "actual lengths", "grows as", "as tokens are generated"},
                accept = {"reserves nothing", "does not reserve", "doesn't reserve"} },
      },
      misconceptions = {
        misconception { about = {"max_num_seqs", "max num seqs", "the batch limit"},
                        said = {"raise", "increase", "set higher", "triple", "three times", "more request slots",
                                "multiplies the slots", "splits the cache", "divides the cache"},
                        unless = {"only a cap", "just a cap", "only adds", "only gives", "does nothing", "nothing by itself",
                                  "does nothing by itself", "frees no memory", "no memory", "still have to fit", "caches must fit",
                                  "won't help", "doesn't help", "does not help"},
                        why = "max_num_seqs is only a cap: more sequences run only if their caches fit in memory" },
        misconception { about = {"PagedAttention", "paged attention"},
                        said = {"shrinks the cache", "fewer bytes per token", "compresses", "halves the bytes",
                                "halves the cache", "bytes per token again", "smaller per token", "fewer bytes a token",
                                "stores each token in fewer bytes"},
                        unless = {"wastes fewer", "fewer bytes idle", "fewer bytes on", "fewer bytes sit", "fewer bytes reserved", "fewer bytes than"},
                        why = "PagedAttention wastes less memory but stores the same bytes per token" },
        misconception { about = {"request", "each request", "a request", "max_model_len", "halving max_model_len"},
                        said = {"reserves for its full length", "reserves the full context", "reserves max_model_len",
                                "memory vLLM reserves for each request", "reserves for each request", "reserves per request",
                                "reserves its maximum length", "preallocates its full length", "reserves memory up front"},
                        unless = {"changes nothing", "there is none", "none", "zero"},
                        why = "vLLM V1 allocates blocks as tokens are scheduled (KVCacheManager.allocate_slots); max_model_len reserves nothing, it bounds the longest request and the start-up check" },
        misconception { about = {"FP8 compute", "tensor-core compute", "tensor cores", "TFLOP rate", "FLOP rate",
                                 "FLOPs", "more compute", "faster compute"},
                        said = {"triples the number of decode streams", "more decode streams", "triples concurrency",
                                "more concurrent requests", "more requests in parallel", "triples the number of requests",
                                "raises concurrency"},
                        why = "decode at this size waits on memory, not arithmetic, and concurrency is capped by how many sequences' KV fits; more FLOPs free no memory (fp8 KV or 4-bit weights do)" },
      },
    },
    followup {
      question = "Where does PagedAttention fit into this?",
      answer = "It does not change the bytes per token. It stores the cache in fixed-size blocks "
            .. "instead of one contiguous region per request, so memory reserved but never used "
            .. "(fragmentation, over-reservation for the maximum length) almost all goes away "
            .. "(at most one partial block a request stays in each KV cache group, lesson 4): "
            .. "more of the "
            .. "leftover memory holds real cache, raising effective capacity, not the formula.",
      points = {
        point { "the cache lives in fixed-size blocks",
                about = {"cache", "KV cache", "it", "PagedAttention", "memory", "paging", "Paging"},
                said = {"blocks", "pages", "paging", "fixed-size", "non-contiguous", "virtual memory"},
                accept = {"fixed 16-token blocks", "hands out fixed", "blocks on demand", "fixed-size blocks",
                          "blocks are handed out"} },
        point { "it removes fragmentation and over-reservation", weight = 2,
                about = {"fragmentation", "over-reservation", "waste", "wasted memory", "reserved memory",
                         "memory reserved but never used", "PagedAttention", "it"},
                said = {"goes away", "removes", "eliminates", "avoids", "reduces", "no longer",
                        "wastes less", "less fragmentation", "no fragmentation", "disappears", "vanishes"},
                accept = {"no holes", "nothing is set aside", "nothing set aside", "stop over-reserving",
                          "stops vLLM from reserving", "nothing sits reserved", "almost nothing sits reserved",
                          "stops over-reserving", "no over-reservation", "without over-reserving",
                          "fixes waste", "what it fixes is waste", "less waste", "almost no waste",
                          "almost no fragmentation", "little fragmentation", "hardly any fragmentation",
                          "near-zero fragmentation", "not contiguous per-request", "no contiguous",
                          "fragmentation disappears", "no memory is reserved", "nothing is reserved"} },
        point { "capacity rises, the bytes per token do not",
                about = {"capacity", "effective capacity", "how many sequences fit", "concurrency"},
                said = {"rises", "raising", "increases", "goes up", "more", "improves"},
                accept = {"same formula", "not the formula", "does not change the bytes",
                          "doesn't change the bytes", "same bytes per token", "same size per token",
                          "doesn't touch the per-token size", "does not touch the per-token size",
                          "doesn't change the per-token size", "holds real tokens", "more live sequences",
                          "holds more sequences", "more of it holds", "keeps the bytes per token the same",
                          "bytes per token the same", "more sequences fit"} },
      },
      misconceptions = {
        misconception { about = {"PagedAttention", "paged attention", "it"},
                        said = {"fewer bytes per token", "shrinks the cache", "compresses", "smaller cache per token",
                                "reduces the bytes per token", "quantizes", "in fewer bytes", "fewer bytes a token",
                                "halves the bytes", "less memory per token", "smaller per token"},
                        unless = {"wastes fewer", "fewer bytes idle", "fewer bytes on", "fewer bytes sit", "fewer bytes reserved", "fewer bytes than"},
                        why = "PagedAttention changes where the cache lives, not its size: a token still costs 2 × layers × KV heads × head_dim × bytes" },
        misconception { about = {"PagedAttention", "paged attention", "it"},
                        said = {"reserves one contiguous", "reserves a contiguous", "allocates one contiguous",
                                "allocates a contiguous", "sized for the maximum length"},
                        unless = {"replaces", "replaced", "instead of", "what paging avoids", "stops", "no longer",
                                  "without reserving", "avoids"},
                        why = "a contiguous region sized for the maximum length is what PagedAttention replaces: it hands out fixed-size blocks as the sequence grows" },
        misconception { about = {"PagedAttention", "paged attention", "it", "the cache", "the KV cache"},
                        said = {"host memory", "on the host", "to the host", "CPU memory", "to the CPU",
                                "swaps", "offloads", "paged out", "pages out", "CPU RAM", "system memory",
                                "to disk", "to RAM"},
                        unless = {"kv_offloading", "OffloadingConnector", "LMCache", "connector", "KV offloading", "CPU offloading", "none of", "nothing", "stays in GPU", "stay in GPU", "stays on the GPU", "in HBM", "from HBM"},
                        why = "the virtual-memory likeness is the block table: the blocks stay in GPU memory, and paging here is how they are handed out, not a move to the host" },
      },
    },
    followup {
      question = "Why is setting gpu_memory_utilization to 0.99 risky?",
      answer = "Not because activations outgrow the profile: vLLM's profile run already "
            .. "pushes a max_num_batched_tokens batch through the model, though it skips "
            .. "attention (with no attention metadata FlashAttentionImpl.forward returns at once, "
            .. "so an attention backend's workspace is not measured). What it does not see "
            .. "either is memory the snapshot or the pass never counts: NCCL's start-up buffers "
            .. "under tensor parallelism (made before the snapshot, so they sit in the headroom), "
            .. "the sampler's logprob buffers (V1's GPUModelRunner._dummy_sampler_run profiles "
            .. "top-k and top-p but not logprobs; Model Runner V2's may skip all three), MoE load "
            .. "imbalance, fragmentation, and the CUDA graph pools wherever they are not "
            .. "estimated (before 0.21, and under Model Runner V2, the 0.26 default for dense "
            .. "models). With 1% left, any of those "
            .. "can run the server out of memory in production. And at 0.99 vLLM often refuses to "
            .. "start at all: the fraction is of the whole card, and the free memory at start-up "
            .. "is already below it once the CUDA context and any other process hold theirs.",
      points = {
        point { "memory outside the profiled pass is not counted", weight = 2,
                about = {"NCCL", "NCCL buffers", "sampler", "logprobs", "fragmentation", "encoder cache",
                         "MoE imbalance", "CUDA graphs", "memory outside the profile"},
                said = {"not counted", "not profiled", "not seen", "misses", "outside", "not measured",
                        "on top", "not in the profile", "allocated later"},
                accept = {"nccl", "fragment", "logprob", "sampler buffer"} },
        point { "no headroom: out-of-memory errors in production", weight = 3,
                accept = {"oom", "out of memory", "headroom", "margin", "crash", "no headroom",
                          "little headroom", "no margin", "no slack", "no room left", "no room for"} },
        point { "vLLM may refuse to start when free memory is below the request",
                about = {"vLLM", "server", "it", "start-up", "free memory"},
                said = {"refuses to start", "fails to start", "won't start", "will not start", "below the request",
                        "less than requested", "not enough free memory"},
                accept = {"refuse to start", "fail at start", "cuda context", "other process"} },
      },
      misconceptions = {
        misconception { about = {"gpu_memory_utilization", "the fraction", "utilization", "the setting", "vLLM"},
                        said = {"fraction of the free memory", "fraction of free memory", "share of the free memory",
                                "takes a fraction of the free memory", "takes a fraction of free memory",
                                "percentage of the free memory", "percent of free memory", "fraction of what is free",
                                "fraction of the remaining memory", "is of the free memory", "is of free memory"},
                        unless = {"headroom"},
                        why = "the fraction is of the card's total memory (CacheConfig.gpu_memory_utilization; Worker.init_device compares the free memory with it), which is why 0.99 can fail to start when other memory is already held" },
        misconception { about = {"vLLM", "server", "it", "0.99"},
                        said = {"cannot run out of memory", "can't OOM", "never runs out of memory", "will not OOM",
                                "is safe", "no risk"},
                        why = "vLLM sizes the cache from one profiled pass; memory allocated outside it (NCCL, the sampler's logprob buffers and, under Model Runner V2, its top-k work, fragmentation) still needs room" },
        misconception { about = {"activations", "activation tensors", "decode activations"},
                        said = {"outgrow the profile", "grow past", "grow beyond", "exceed what the profile",
                                "larger than profiled", "more than the profile measured", "overflow", "not profiled",
                                "aren't profiled", "unprofiled"},
                        unless = {"attention", "workspace"},
                        why = "the profile run pushes a max_num_batched_tokens batch through the model, so the linear layers' activation peak is in it (its attention is skipped, see the answer); what it misses is memory allocated outside that pass" },
        misconception { about = {"profile", "profile run", "profiling", "vLLM"},
                        said = {"one small batch", "a single request", "a single short request", "one short request",
                                "a short dummy request", "misses the activation peak", "underestimates activations",
                                "does not include activations"},
                        why = "the profile run pushes a max_num_batched_tokens batch through the model (gpu_model_runner.py, profile_run), so the linear layers' activation peak is in it; what it skips is attention's own workspace and memory allocated outside the pass" },
      },
    },
    followup {
      question = "Prefill or decode: which one is memory-bound?",
      answer = "Decode is memory-bound. It produces one token per sequence per step, so it reads all the weights "
            .. "and the cache for very little arithmetic, until the batch nears the GPU's ridge "
            .. "(about " .. kv.calc{model = "qwen2.5-7b", gpu = "h100"}.compute_bound_batch
            .. " short sequences on an H100). Prefill pushes the whole prompt through "
            .. "at once, reusing each weight for every prompt token, which makes it compute-bound "
            .. "past a few hundred tokens; a prompt shorter than that waits on memory too.",
      points = {
        point { "decode is memory-bound", weight = 2,
                about = {"decode", "generation", "each new token", "decoding"},
                said = {"memory-bound", "memory bandwidth", "waits on memory", "GEMV"},
                short = {"decode"} },
        point { "decode rereads weights and cache for one token per sequence",
                about = {"decode", "each step", "every step", "generation", "it"},
                said = {"one token", "reads all the weights", "rereads", "reads the weights", "reads every weight",
                        "little arithmetic"} },
        point { "prefill processes many tokens at once and is compute-bound",
                about = {"prefill", "the prompt", "prompt processing"},
                said = {"compute-bound", "many tokens", "whole prompt", "in parallel", "reuses each weight",
                        "at once", "matrix multiplies"} },
      },
      misconceptions = {
        misconception { about = {"prefill", "prompt processing"}, said = {"memory-bound"},
                        unless = {"short prompt", "token prompt", "small prompt", "tiny prompt", "token prefill", "short prefill",
                                   "token chunk", "short chunk", "few tokens", "dozen tokens", "handful of tokens",
                                   "below the ridge", "tokens at batch 1", "fewer than", "shorter than", "tokens or fewer",
                                   "under about", "chunk under", "prompt under", "prefill under", "below about", "small chunk",
                                   "short chunks"},
                        why = "prefill reuses each weight for every prompt token, about as many FLOPs a byte as the prompt has tokens: compute-bound past a few hundred tokens (the H100's ridge, about 295 FLOPs a byte); only a short prompt's prefill waits on memory" },
        misconception { about = {"decode", "generation"},
                        said = {"is compute-bound", "are compute-bound", "always compute-bound", "compute-bound at batch 1",
                                "compute-bound even at batch 1", "compute-bound at any batch", "compute-bound at small batch",
                                "stays compute-bound"},
                        unless = {"past the ridge", "near the ridge", "reaches the ridge", "only past", "only above", "only beyond",
                                  "large batch", "big batch", "huge batch", "batch 512", "batch of 512", "short context", "short contexts",
                                  "hundreds of sequences", "very large batches", "296 sequences", "sequences on an H100"},
                        why = "decode reads every weight for one token per sequence: about as many FLOPs a byte as the batch has sequences, memory-bound until the batch nears the ridge (about 296 short sequences on an H100)" },
      },
    },
    followup {
      question = "Why cache the keys and values, but not the queries?",
      answer = "A token's query is used only at its own step: it attends over every earlier "
            .. "token's key and value once, and no later token ever reads it, because attention "
            .. "is causal and each new token brings its own query. The keys and values of past "
            .. "tokens are read again at every later step, so caching them saves recomputing "
            .. "the whole prefix for each new token; a cached query would be data nothing reads.",
      points = {
        point { "a query is used only at its own step", weight = 2,
                about = {"query", "queries", "Q", "token's query", "the new token's query"},
                said = {"used only at its own step", "used once", "only at its own step", "never read again",
                        "no later token ever reads", "not reused", "only needed once", "only for the current token",
                        "only needed for", "needed only for", "only for the token being generated",
                        "only used for the current token", "only used by its own token"} },
        point { "past keys and values are read at every later step", weight = 2,
                about = {"keys and values", "K and V", "past keys", "keys and values of past tokens", "KV"},
                said = {"read again", "every later step", "every step", "reused", "needed again", "at each step",
                        "every future token", "every later token", "read by every", "future tokens"} },
        point { "caching them saves recomputing the prefix",
                accept = {"recomput", "recalculat", "reprocess", "computing the whole prefix", "compute them again"} },
      },
      misconceptions = {
        misconception { about = {"queries", "query", "Q", "past queries"},
                        said = {"are reused", "reused at every step", "read at every step", "needed at later steps",
                                "should be cached", "are cached too"},
                        why = "a query is used only at its own step; later tokens attend with their own queries to earlier keys and values" },
        misconception { about = {"query", "queries", "Q"},
                        said = {"cheap to recompute", "cheap to recalculate", "recomputed cheaply"},
                        why = "queries are not cached because nothing reads them again, not because they are cheap: each is used only at its own step and never recomputed" },
        misconception { about = {"vLLM", "prefix caching", "the cache", "it"},
                        said = {"caches queries", "caches the queries", "stores queries", "stores the queries",
                                "keeps the queries", "caches queries too", "queries as well"},
                        why = "vLLM's cache holds only keys and values, prefix caching included: a query is used at its own step and then dropped" },
        misconception { about = {"keys and values", "K and V", "the KV cache"},
                        said = {"used only once", "used once", "never reused", "not reused"},
                        why = "every later token attends over all earlier keys and values, so they are reread at every step" },
      },
    },
    followup {
      question = "Why is the KV cache called a trade of memory for compute? What would a decode "
              .. "step cost without it?",
      answer = "Without it, each step would recompute the keys and values of every earlier token "
            .. "in every layer, and since a layer's keys come from the layer below, that means "
            .. "running the whole model over the context again: a step at context n would cost "
            .. "about n tokens' worth of weight arithmetic instead of one (and attention over n "
            .. "tokens each, n² a step), so a reply's weight FLOPs would grow with the square of "
            .. "its length and its attention FLOPs with the cube, where the cache keeps them "
            .. "linear and quadratic. The cache keeps them instead, "
            .. n(per_token) .. " B a token for Qwen2.5-7B, so a step computes only the new "
            .. "token. The price is memory that grows with every token, the budget that caps "
            .. "concurrency in this lesson, and the bandwidth to read all of it at every step.",
      points = {
        point { "without it each step recomputes every earlier token's keys and values", weight = 2,
                about = {"without it", "without the cache", "without a cache", "each step", "every step",
                         "the model", "decode"},
                said = {"recompute", "recomputes", "recomputing", "recalculate", "redo", "reprocess",
                        "rerun", "re-run", "reruns", "re-runs", "re-running", "compute again",
                        "run the whole model over", "full forward", "forward pass over"},
                accept = {"recompute the keys and values", "recompute k and v", "recompute all previous",
                          "reprocess the whole context", "reprocess the prefix", "recompute the whole prefix",
                          "recompute the prefix", "recomputing the prefix", "recomputing the context",
                          "full forward over the context", "forward pass over the whole context",
                          "re-runs the whole prefix", "reruns the whole prefix"} },
        point { "that work grows with the context: quadratic (attention cubic) over a reply",
                about = {"the cost", "the work", "the compute", "the arithmetic", "it", "each step", "FLOPs",
                         "a reply", "the total"},
                said = {"grows with the context", "quadratic", "quadratically", "square", "n squared",
                        "grows with the length", "proportional to the context", "linear in the context",
                        "n times", "n tokens of compute", "o(n)", "cubic", "n^3", "n³"},
                accept = {"quadratic", "o(n^2)", "o(n²)", "cubic", "o(n^3)", "o(n³)"} },
        point { "the price is memory for every token, the budget that caps concurrency",
                about = {"the cache", "the KV cache", "it", "memory", "the price", "the cost", "the trade"},
                said = {"memory", "grows with every token", "per token", "caps concurrency",
                        "limits concurrency", "bytes per token", "fills the GPU", "costs memory",
                        "uses memory", "spends memory", "takes memory"},
                accept = {"57,344", "56 kib", "costs memory", "uses memory", "memory per token",
                          "spends memory", "trades memory", "per-token memory"} },
      },
      misconceptions = {
        misconception { about = {"the KV cache", "the cache", "it", "caching"},
                        said = {"saves memory", "reduces memory", "less memory", "frees memory", "saves gpu memory"},
                        why = "the cache spends memory to save arithmetic: it grows by " .. n(per_token)
                            .. " B a token; what it saves is the recomputation" },
        misconception { about = {"without the cache", "without it", "without a cache", "the model"},
                        said = {"cannot generate", "can't generate", "could not generate", "impossible",
                                "would not work", "different output", "different tokens"},
                        why = "decoding without a cache still works and gives the same tokens; each step only recomputes the context's keys and values" },
        misconception { about = {"a decode step", "the step", "each step", "without the cache", "without it", "you"},
                        said = {"only the first layer", "first layer", "about the same", "cost the same",
                                "small overhead", "one token's compute", "still cost one token", "saves the softmax"},
                        why = "every layer's keys come from the layer below, so without a cache a step reruns the whole model over the context: about n tokens' work, not one" },
        misconception { about = {"the KV cache", "the cache", "its memory", "it"},
                        said = {"allocated once at the maximum", "does not grow", "doesn't grow", "fixed size",
                                "never grows"},
                        why = "the cache grows by a token's keys and values every step; vLLM allocates its blocks as tokens are scheduled" },
      },
    },
  },

  exercises = {
    numeric {
      id = "per-token",
      prompt = "How many bytes of KV cache does one token take in Qwen2.5-7B (28 layers, "
            .. "28 query heads, 4 KV heads, head dimension 128, BF16)?",
      expected = per_token, unit = "B", per = "token", tolerance = rel(0.01), model = MODEL,
      worked = code("K and V     per layer, per KV head: " .. qwen.kv_heads .. " heads, not the "
        .. qwen.heads .. " query heads\n"
        .. "per token   2 × " .. shape .. " × 2 B (BF16) = " .. n(per_token) .. " B"),
      hints = { "Each layer stores a key and a value for every KV head.",
                "Use the 4 KV heads, not the 28 query heads; BF16 is 2 bytes." },
    },
    numeric {
      id = "per-sequence-8k",
      prompt = "How much KV cache does one 8,192-token Qwen2.5-7B sequence hold, in GiB?",
      expected = at_8k, unit = "GiB", per = "sequence", tolerance = rel(0.02), model = MODEL,
      worked = code("per token   2 × " .. shape .. " × 2 B = " .. n(per_token) .. " B\n"
        .. "8k tokens   " .. n(per_token) .. " B × 8,192 = " .. n(per_token * 8192) .. " B\n"
        .. "in GiB      " .. n(per_token * 8192) .. " B ÷ 2^30 = " .. f(at_8k, 4) .. " GiB"),
      hints = { "Multiply the per-token bytes by 8,192.", "A GiB is 2^30 bytes." },
    },
    numeric {
      id = "per-sequence-32k",
      prompt = "And at the full 32,768-token context, in GiB?",
      expected = at_32k, unit = "GiB", per = "sequence", tolerance = rel(0.02), model = MODEL,
      worked = code("per token   " .. n(per_token) .. " B\n"
        .. "32k tokens  " .. n(per_token) .. " B × 32,768 = " .. n(per_token * 32768) .. " B\n"
        .. "in GiB      " .. n(per_token * 32768) .. " B ÷ 2^30 = " .. f(at_32k) .. " GiB\n"
        .. "check       4 × " .. f(at_8k, 4) .. " GiB (the 8k figure) = " .. f(at_32k) .. " GiB"),
      hints = { "Four times the 8k figure." },
    },
    numeric {
      id = "concurrency-24gb",
      prompt = "On a 24 GB GPU, ~14 GiB of BF16 weights leave ~10 GiB for the cache. How many "
            .. "whole 8,192-token Qwen2.5-7B sequences fit, with vLLM's 16-token blocks?",
      expected = seed.max_concurrent_seqs, unit = "sequences", tolerance = abs(0.5), model = MODEL,
      worked = code("a block     16 tokens × " .. n(per_token) .. " B = " .. n(seed.block_bytes)
        .. " B (" .. n(seed.block_bytes / 1024) .. " KiB), all " .. qwen.layers .. " layers\n"
        .. "budget      " .. f(seed.kv_budget_bytes / GiB, 0) .. " GiB = " .. n(seed.kv_budget_bytes) .. " B\n"
        .. "blocks      ⌊" .. n(seed.kv_budget_bytes) .. " B ÷ " .. n(seed.block_bytes) .. " B⌋ = "
        .. n(seed.num_gpu_blocks) .. "\n"
        .. "sequence    8,192 tokens ÷ 16 = " .. n(seed.blocks_per_request) .. " blocks ("
        .. f(at_8k, 4) .. " GiB)\n"
        .. "fit         ⌊" .. n(seed.num_gpu_blocks) .. " ÷ " .. n(seed.blocks_per_request) .. "⌋ = ⌊"
        .. f(seed.max_concurrency) .. "⌋ = " .. seed.max_concurrent_seqs .. " whole sequences"),
      diagnose = "capacity",
      hints = { "One sequence needs 0.4375 GiB.", "Round down: half a sequence cannot run." },
    },
    numeric {
      id = "gqa-saving",
      prompt = "Qwen2.5-7B shares each KV head among several query heads. How many times larger "
            .. "would its cache be with one KV head per query head?",
      expected = qwen.heads / qwen.kv_heads, unit = "x", tolerance = abs(0.05), diagnose = "units",
      worked = code("GQA (now)   2 × " .. shape .. " × 2 B = " .. n(per_token) .. " B\n"
        .. "MHA         2 × " .. qwen.layers .. " layers × " .. qwen.heads .. " KV heads × "
        .. qwen.head_dim .. " dims × 2 B = " .. n(mha_per_token) .. " B\n"
        .. "ratio       " .. n(mha_per_token) .. " B ÷ " .. n(per_token) .. " B = " .. qwen.heads
        .. " ÷ " .. qwen.kv_heads .. " = " .. n(qwen.heads / qwen.kv_heads) .. "×"),
      hints = { "Compare the query heads with the KV heads." },
    },
    numeric {
      id = "fp8-per-token",
      prompt = "With kv_cache_dtype=fp8, how many KiB does one Qwen2.5-7B token take?",
      expected = kv.calc{model = MODEL, kv_dtype = "fp8"}.kv_bytes_per_token / 1024,
      unit = "KiB", per = "token", tolerance = rel(0.01), model = MODEL, kv_dtype = "fp8",
      worked = code("BF16        " .. n(per_token) .. " B = " .. n(per_token / 1024)
        .. " KiB a token, 2 B an element\n"
        .. "fp8         2 × " .. shape .. " × 1 B = " .. n(fp8_per_token) .. " B\n"
        .. "in KiB      " .. n(fp8_per_token) .. " B ÷ 1,024 = " .. n(fp8_per_token / 1024)
        .. " KiB, half the BF16 figure"),
      hints = { "fp8 stores each value in one byte instead of two." },
    },
    numeric {
      id = "int4-weights",
      prompt = "If every Qwen2.5-7B weight were stored in 4 bits with an fp16 scale per group of "
            .. "128 (4.125 bits a weight), how many GiB would the weights take?",
      expected = int4_weights, unit = "GiB", tolerance = rel(0.02), diagnose = "units",
      worked = code("bits        4 + 16 ÷ 128 (one fp16 scale a group) = 4.125 bits a weight\n"
        .. "params      " .. n(qwen.params * 1e9) .. " (the 7.6 billion), every one 4-bit\n"
        .. "bytes       " .. n(qwen.params * 1e9) .. " × 4.125 ÷ 8 = " .. n(int4_weights * GiB) .. " B\n"
        .. "in GiB      " .. n(int4_weights * GiB) .. " B ÷ 2^30 = " .. f(int4_weights, 3) .. " GiB"),
      hints = { "7.6 billion parameters × 4.125 bits ÷ 8 bits per byte." },
    },
    numeric {
      id = "int4-concurrency",
      prompt = "With those 4-bit weights, using the whole 24 GiB with no reserve, how many whole "
            .. "8,192-token sequences fit?",
      expected = kv.calc{model = MODEL, weights_dtype = "int4", gpu_mem_gib = 24, util = 1,
                         seq = 8192}.max_concurrent_seqs,
      unit = "sequences", tolerance = abs(0.5), model = MODEL, diagnose = "capacity",
      worked = code("memory      24 GiB = 24 × 2^30 = " .. n(24 * GiB) .. " B, no reserve\n"
        .. "budget      " .. n(24 * GiB) .. " B − " .. n(int4_fit.weights_bytes) .. " B of weights\n"
        .. "            = " .. n(int4_fit.kv_budget_bytes) .. " B (" .. f(int4_fit.kv_budget_bytes / GiB, 3)
        .. " GiB)\n"
        .. "blocks      ⌊" .. n(int4_fit.kv_budget_bytes) .. " B ÷ " .. n(int4_fit.block_bytes) .. " B⌋ = "
        .. n(int4_fit.num_gpu_blocks) .. "\n"
        .. "sequence    8,192 tokens ÷ 16 = " .. n(int4_fit.blocks_per_request) .. " blocks\n"
        .. "fit         ⌊" .. n(int4_fit.num_gpu_blocks) .. " ÷ " .. n(int4_fit.blocks_per_request) .. "⌋ = ⌊"
        .. f(int4_fit.max_concurrency, 3) .. "⌋ = " .. int4_fit.max_concurrent_seqs .. " whole sequences"),
      hints = { "The budget is 24 GiB minus the 4-bit weights.", "Each sequence still needs 0.4375 GiB." },
    },
    numeric {
      id = "per-sequence-other",
      prompt = "How much KV cache does one Qwen3-8B sequence (36 layers, 8 KV heads of 128 dims) "
            .. "of {seq} tokens hold, in BF16, in GiB?",
      params = { seq = {4096, 8192, 16384, 32768} },
      expected = function(p)
        local m, r = kv.model("qwen3-8b"), kv.calc{model = "qwen3-8b"}
        local gib = r.kv_bytes_per_token * p.seq / GiB
        return gib, "per token   2 × " .. m.layers .. " layers × " .. m.kv_heads .. " KV heads × "
          .. m.head_dim .. " dims × 2 B = " .. grouped(r.kv_bytes_per_token) .. " B\n"
          .. "sequence    " .. grouped(r.kv_bytes_per_token) .. " B × " .. grouped(p.seq)
          .. " tokens ÷ 2^30 = " .. (fixed(gib, 4):gsub("0+$", ""):gsub("%.$", "")) .. " GiB"
      end,
      unit = "GiB", per = "sequence", tolerance = rel(0.02), model = "qwen3-8b",
      hints = { "Per token: 2 (K and V) × layers × KV heads × head dim × 2 bytes.",
                "Times the tokens; a GiB is 2^30 bytes." },
    },
    numeric {
      id = "concurrency-other",
      prompt = "Mistral-7B-v0.3 (32 layers, 8 KV heads of 128 dims) has {budget} GiB left for "
            .. "its BF16 cache. How many whole {seq}-token sequences fit, with 16-token blocks?",
      params = { seq = {4096, 8192, 16384}, budget = range(9, 41, 4) },
      expected = function(p)
        local mm = kv.model("mistral-7b-v0.3")
        local r = kv.calc{model = "mistral-7b-v0.3", seq = p.seq, kv_budget_gib = p.budget}
        local per_seq = math.ceil(p.seq / 16)
        return r.max_concurrent_seqs, "per token  2 × " .. mm.layers .. " layers × " .. mm.kv_heads
          .. " KV heads × " .. mm.head_dim .. " dims × 2 B = " .. n(r.kv_bytes_per_token) .. " B\n"
          .. "a block    16 tokens × " .. n(r.kv_bytes_per_token) .. " B = " .. n(16 * r.kv_bytes_per_token)
          .. " B: one block id, all " .. mm.layers .. " layers\n"
          .. "budget     " .. p.budget .. " GiB = " .. n(p.budget * 2^30) .. " B\n"
          .. "blocks     ⌊" .. n(p.budget * 2^30) .. " B ÷ " .. n(16 * r.kv_bytes_per_token) .. " B⌋ = "
          .. n(r.num_gpu_blocks) .. "\n"
          .. "sequence   ⌈" .. n(p.seq) .. " tokens ÷ 16⌉ = " .. n(per_seq) .. " blocks\n"
          .. "fit        ⌊" .. n(r.num_gpu_blocks) .. " ÷ " .. n(per_seq) .. "⌋ = "
          .. r.max_concurrent_seqs .. " whole sequences"
      end,
      unit = "sequences", tolerance = abs(0.5), diagnose = "capacity", model = "mistral-7b-v0.3",
      hints = { "Per-sequence cache first, then divide the budget and round down." },
    },
    choice {
      id = "what-caps",
      prompt = "A 7B model on one 24 GB GPU: what runs out first as you add concurrent requests?",
      options = {
        option { "The memory for the KV cache", correct = true,
                 why = "every sequence adds its own cache; the budget left after the weights is fixed" },
        option { "The memory for the weights",
                 why = "the weights are loaded once; they do not grow with load" },
        option { "The GPU's FLOP/s",
                 why = "decode does little arithmetic per byte it reads: it is memory-bound" },
        option { "PCIe bandwidth to the host",
                 why = "the weights and the cache stay on the GPU while serving" },
      },
    },
    freetext {
      id = "why-not-compute",
      prompt = "Why does adding FLOPs not let one GPU serve more concurrent decode requests?",
      answer = "Decode is memory-bound: each step reads every weight and the whole KV cache for "
            .. "the one token it produces, and does only about two operations per weight per "
            .. "sequence, little arithmetic per byte. The GPU spends its time "
            .. "waiting on memory; the limit is memory capacity (how many caches fit) and "
            .. "bandwidth, not arithmetic.",
      points = {
        point { "decode is memory-bound", weight = 2,
                accept = {"memory-bound", "memory bound", "bandwidth-bound", "bandwidth bound", "bandwidth",
                          "waiting on memory", "waits on memory", "bottleneck is memory", "starved for memory",
                          "memory, not arithmetic", "sits idle", "idle"} },
        point { "each step rereads the weights and the KV cache",
                accept = {"reread", "re-read", "reads the weights", "reads all", "every step", "each step",
                          "streams all the weights", "out of hbm", "from hbm", "pulls from hbm"} },
        point { "little arithmetic per byte read",
                accept = {"arithmetic intensity", "few flops", "little compute", "per byte", "low intensity",
                          "per weight", "couple of operations", "couple of flops", "two operations"} },
        point { "the cache must fit in memory", accept = {"capacity", "fit", "room"} },
      },
      misconceptions = {
        misconception { about = {"decode", "decoding", "generation", "each decode step"},
                        said = {"compute-bound", "limited by FLOPs", "limited by compute"},
                        why = "decode does about two operations per weight per sequence for every byte it streams: the FLOPs wait on memory, so more of them change nothing" },
      },
    },
  },
}
