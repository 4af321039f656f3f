-- Part 0 · Foundations: sizing a deployment. Predict the three lines vLLM
-- prints at start-up, and know what gpu_memory_utilization really controls.

local GiB = 2^30
-- A public vLLM 0.19 start-up log (llm-d-planner accuracy results):
-- Llama-3.1-8B-Instruct, one H100 80GB (79.19 GiB seen), BF16, max_model_len 8,192,
-- run at gpu_memory_utilization 0.95 (the sweep's non-default args; its 16,384-token
-- sibling log prints "worker requested memory: 75.23GiB" = 0.95 × 79.19):
--   Available KV cache memory: 58.11 GiB
--   GPU KV cache size: 476,016 tokens
--   Maximum concurrency for 8,192 tokens per request: 58.11x
local AVAILABLE = 58.11
local llama = kv.calc{model = "llama-3.1-8b", seq = 8192, kv_budget_gib = AVAILABLE,
                      vllm = "0.19.0"}
local block_bytes = llama.block_bytes                               -- 2,097,152 B: 2 MiB

-- Predicting the first line from the configuration.
local H100_SEEN = 79.19
local LOG_UTIL = 0.95                 -- what the public log ran at, not the default
local OVERHEAD = 1.5                  -- GiB: activations and non-torch memory (a first guess)
local predicted = kv.calc{model = "llama-3.1-8b", gpu_mem_gib = H100_SEEN, util = LOG_UTIL,
                          overhead_gib = OVERHEAD, seq = 8192, vllm = "0.19.0"}
local llama_weights = predicted.weights_bytes / GiB                -- 14.96 GiB

-- The seed card's GPU: what max_model_len the KV memory check would accept.
local rtx = kv.calc{model = "qwen2.5-7b", gpu = "rtx4090", util = 0.9, overhead_gib = 1,
                   seq = 8192, vllm = "0.26.0"}

local function f(x, places) return fixed(x, places or 2) end
local n = grouped -- 57344 -> "57,344"

return lesson {
  id = "sizing-deployment",
  title = "Sizing a deployment, as vLLM logs it",
  module = "part0-foundations",
  baseline = "vLLM V1 memory profiling (vllm/v1/worker/gpu_worker.py, Worker.init_device: "
          .. "the start-up snapshot, taken after the distributed environment starts, and the "
          .. "free-memory check; Worker.determine_available_memory with memory_profiling in "
          .. "vllm/utils/mem_utils.py: requested memory = gpu_memory_utilization × total, "
          .. "less the weights, peak activations and non-torch memory grown since the "
          .. "snapshot, and, under the V1 model runner from 0.21, the CUDA graph estimate) and block sizing "
          .. "(vllm/v1/core/kv_cache_utils.py); "
          .. "max_model_len checked against the config's positions (vllm/config/model.py, "
          .. "_get_and_verify_max_len); a public vLLM 0.19 start-up log of "
          .. "Llama-3.1-8B-Instruct on one H100 80GB at gpu_memory_utilization 0.95 "
          .. "(llm-d-planner accuracy results): 58.11 GiB, 476,016 tokens, 58.11x for 8,192 tokens",
  concept = "deployment-sizing",
  concept_title = "Sizing a deployment",
  requires = {"continuous-batching", "shrinking-weights", "tensor-parallel-kv"},
  links = {"kv-cache", "shrinking-weights", "tensor-parallel-kv", "continuous-batching"},

  question = "Before you start vLLM with a model on a GPU, predict the \"Available KV cache "
          .. "memory\", \"GPU KV cache size\" and \"Maximum concurrency\" lines it will print, "
          .. "and explain why setting gpu_memory_utilization to 0.99 is risky.",

  answer = "vLLM takes gpu_memory_utilization of the GPU's total memory and subtracts what "
        .. "grew after its start-up memory snapshot: the weights, the peak activation memory "
        .. "of a profiling pass, memory outside PyTorch allocated since (kernels loaded "
        .. "lazily on first use, library handles) and, under the V1 model runner from 0.21 (MoE "
        .. "models outside V2's allow-list and hybrid models in 0.26, or "
        .. "VLLM_USE_V2_MODEL_RUNNER=0), the CUDA graphs' "
        .. "estimate; Model Runner V2, the default for dense models from 0.25.0, estimates 0 "
        .. "for them in 0.25.0 to 0.27. What is left it logs as available KV cache "
        .. "memory. The CUDA context and NCCL's start-up buffers are not subtracted: they "
        .. "exist before the snapshot, so they must fit in the other (1 − utilisation) share, "
        .. "and start-up checks that free memory covers the fraction requested. It cuts the "
        .. "budget into blocks of block_size tokens across all layers; the blocks divided by "
        .. "the blocks one request of max_model_len needs (summed over the cache's groups) is "
        .. "the maximum concurrency, and from 0.20.1 the KV cache size it logs in tokens is "
        .. "that concurrency × max_model_len (up to 0.19, the blocks ÷ the number of groups × "
        .. "the smallest block size; 0.20.0 unverified; the two agree for a model with one "
        .. "group and a max_model_len that is a multiple of the block). At "
        .. "0.99 the 1% left "
        .. "must hold the context, NCCL's buffers and all the profile did not see: the "
        .. "sampler's logprob buffers (and under Model Runner V2 perhaps its top-k and top-p "
        .. "work, which V1's profiled pass runs), allocator fragmentation, other processes. "
        .. "Either it refuses to start because the free memory is already below 99% of the "
        .. "card, or the server fails with out-of-memory under load.",

  points = {
    point { "utilisation × total, minus weights, activations and other memory", weight = 2,
            about = {"vLLM", "available KV cache memory", "available memory", "it", "what is left"},
            said = {"minus the weights", "subtract", "less the weights", "left after", "gpu_memory_utilization",
                    "× total", "times total"},
            accept = {"minus the weights", "subtract", "less the weights", "left after", "utilization ×",
                      "utilisation ×"} },
    point { "the budget cut into blocks of block_size tokens", weight = 2,
            accept = {"blocks ×", "blocks x ", "blocks times", "× block", "times block", "times the block",
                      "block size", "block_size", "cache size in tokens"} },
    point { "concurrency = blocks ÷ a max_model_len request's blocks (tokens ÷ max_model_len)", weight = 2,
            about = {"concurrency", "maximum concurrency", "max concurrency"},
            said = {"max_model_len", "divided by", "÷", "per request"} },
    point { "0.99 leaves no headroom: OOM under load", weight = 2,
            about = {"0.99", "server", "it", "at 0.99"},
            said = {"oom", "out of memory", "out-of-memory", "no headroom", "no margin", "nothing is left",
                    "fails", "no room", "leaves no headroom", "too little headroom"} },
  },
  misconceptions = {
    misconception { about = {"available", "available memory", "the available memory", "the KV budget", "KV memory",
                             "the cache budget", "what is left"},
                    said = {"and the CUDA context", "and NCCL buffers", "and the NCCL buffers", "minus the CUDA context",
                            "minus NCCL"},
                    unless = {"headroom", "outside", "not subtracted", "never subtracted", "1 - ", "1 −"},
                    why = "the CUDA context and NCCL's start-up buffers exist before the memory snapshot vLLM measures from (Worker.init_device), so they are never subtracted: they must fit in the (1 − utilisation) share" },
    misconception { about = {"vLLM", "it", "the budget"},
                    said = {"subtracts the CUDA context", "and the CUDA context", "and NCCL buffers",
                            "and the NCCL buffers"},
                    why = "the CUDA context and NCCL's start-up buffers exist before the memory snapshot vLLM measures from (Worker.init_device), so they are never subtracted: they must fit in the (1 − utilisation) share" },
    misconception { about = {"CUDA context", "NCCL", "NCCL buffers", "NCCL's buffers", "the context"},
                    said = {"subtracted", "subtracts", "is counted", "are counted", "taken out of the budget",
                            "accounted for by vLLM"},
                    why = "the CUDA context and NCCL's start-up buffers exist before the memory snapshot vLLM measures from (Worker.init_device), so they are never subtracted: they must fit in the (1 − utilisation) share" },
    misconception { about = {"gpu_memory_utilization", "utilization", "utilisation"},
                    said = {"caps compute", "limits compute", "compute utilization", "how busy"},
                    why = "gpu_memory_utilization is the fraction of the card's memory vLLM may use; it has nothing to do with compute" },
    misconception { about = {"0.99", "the GPU", "it"},
                    said = {"throttles", "overheats", "runs hot", "starves the compute", "starves compute",
                            "starves the SMs", "leaves no compute"},
                    why = "gpu_memory_utilization is a share of memory: it does not heat, throttle or starve the compute; the risk is that 1% of the card leaves no room for what the profile did not see" },
    misconception { about = {"concurrency", "maximum concurrency", "max concurrency"},
                    said = {"divided by block_size", "divided by the block size", "÷ block_size"},
                    why = "concurrency is the cache's blocks divided by the blocks one request of max_model_len needs (for one group, its tokens divided by max_model_len)" },
    misconception { about = {"0.99", "higher utilization", "it"},
                    said = {"is safe", "no risk", "always better", "free throughput"},
                    why = "vLLM sizes the cache from one profiling pass; at 0.99 nothing is left for what the profile missed" },
  },

  sections = {
    section {
      title = "What vLLM subtracts",
      text = "At start-up each worker creates its CUDA context and starts the distributed "
          .. "environment (NCCL's communicators and their buffers) first, and only then takes "
          .. "a memory snapshot (Worker.init_device; the order since vllm-project/vllm#25359, "
          .. "merged 2025-09-22, so from 0.11 on: before it the snapshot came first and NCCL's "
          .. "start-up buffers were subtracted as memory outside PyTorch). It asks for "
          .. "gpu_memory_utilization × total memory and refuses to start when the snapshot's "
          .. "free memory is less (\"Free memory on device ... on startup is less than "
          .. "desired GPU memory utilization\"). Then it loads the weights and runs one "
          .. "forward pass on a dummy batch of max_num_batched_tokens, and the KV budget is "
          .. "the requested memory less what grew since the snapshot: the weights, the "
          .. "activation peak and memory outside PyTorch allocated since (memory_profiling, "
          .. "vllm/utils/mem_utils.py: non_torch_increase). What the snapshot already held, "
          .. "the CUDA context, NCCL's start-up buffers, other processes, is not subtracted: it "
          .. "sits in the (1 − utilisation) share. CUDA graphs depend on "
          .. "a switch and the release: with VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS on (the default "
          .. "from 0.21, as vllm/envs.py says; =0 turns it off) vLLM estimates "
          .. "their memory and subtracts it before the KV budget "
          .. "(Worker.determine_available_memory, cudagraph_memory_estimate); in the 0.19 "
          .. "logs this course calibrates against they were captured after the cache was sized "
          .. "and came out of the (1 − utilisation) headroom: the Llama-3.1-8B log prints "
          .. "\"Estimated CUDA graph memory: 0.84 GiB total\" and then sizes the cache without "
          .. "it. Which model runner runs decides it too: the estimate is V1's "
          .. "(GPUModelRunner); Model Runner V2, which vLLM picks for dense models from 0.25.0 "
          .. "(vllm-project/vllm#44443, after Qwen3 dense models, #39337, and an allow-list of "
          .. "MoE models, #42667; in 0.26 other MoE, hybrid and attention-free models keep V1, as does a "
          .. "setup V2 does not support yet, and VLLM_USE_V2_MODEL_RUNNER=0 or 1 overrides the "
          .. "choice), estimates 0 in 0.25.0 to 0.27, a placeholder until vllm-project/vllm#53306 "
          .. "(profile_cudagraph_memory in vllm/v1/worker/gpu/model_runner.py), so there the "
          .. "graphs come out of the headroom again, and their capture can run out of memory at "
          .. "start-up (vllm-project/vllm#49224). The total is what the driver "
          .. "reports: an H100 80GB shows " .. H100_SEEN .. " GiB, not 80. The default "
          .. "utilisation is 0.92 from vLLM 0.25 (vllm/config/cache.py, CacheConfig), 0.9 before.",
    },
    section {
      title = "Predicting the first line",
      text = "Llama-3.1-8B in BF16 weighs " .. f(llama_weights) .. " GiB. The public log "
          .. "below was taken at gpu_memory_utilization " .. LOG_UTIL .. ", not the default (it "
          .. "is in the log's non-default args), so predict at " .. LOG_UTIL .. ": " .. LOG_UTIL
          .. " × " .. H100_SEEN .. " = " .. f(LOG_UTIL * H100_SEEN) .. " GiB; with, say, "
          .. OVERHEAD .. " GiB of activation peak and other growth, the log would read about "
          .. f(predicted.kv_budget_bytes / GiB) .. " GiB; it reads " .. AVAILABLE .. ", so this "
          .. "setup's overhead was " .. f(LOG_UTIL * H100_SEEN - llama_weights - AVAILABLE)
          .. " GiB. Its 16,384-token sibling log (also 58.11 GiB) has a profiling line that "
          .. "splits 17.12 GiB of non-KV memory into 14.99 GiB of weights (" .. f(llama_weights, 2)
          .. " from the parameters at 2 B each; the loaded model also holds buffers such as the "
          .. "rotary tables), 1.89 GiB of torch "
          .. "peak and 0.25 GiB of memory outside PyTorch grown since the snapshot; the CUDA "
          .. "context is not in it. The overhead is the "
          .. "one figure you cannot compute from the configuration: it depends on "
          .. "max_num_batched_tokens, the graph sizes and the versions of the libraries. "
          .. "Measure it once per setup and keep it.",
    },
    section {
      title = "From GiB to tokens to concurrency",
      text = "The public log of this model on an H100 says \"Available KV cache memory: 58.11 "
          .. "GiB\". A 16-token block across 32 layers with 8 KV heads of 128 dims is "
          .. n(block_bytes) .. " bytes, exactly 2 MiB, so that is " .. n(llama.num_gpu_blocks)
          .. " blocks and " .. n(llama.kv_tokens) .. " tokens; the log prints 476,016, one "
          .. "block fewer, because 58.11 is itself rounded. Divided by 8,192 tokens a request: "
          .. f(llama.max_concurrency) .. "x, as logged.",
    },
    section {
      title = "When the model does not fit its own context",
      text = "Two checks stand before a long max_model_len. First the config: Qwen2.5-7B-"
          .. "Instruct's config.json ships max_position_embeddings 32,768, and vLLM refuses 131,072 while it validates the configuration, before it "
          .. "touches GPU memory (vllm/config/model.py, _get_and_verify_max_len: \"User-specified "
          .. "max_model_len (131072) is greater than the derived max_model_len "
          .. "(max_position_embeddings=32768 ...)\"), unless YaRN rope scaling is configured "
          .. "(the model card's rope_scaling {type yarn, factor 4}) or "
          .. "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 forces it. Then the memory: vLLM refuses to start "
          .. "if one request of max_model_len cannot fit in the KV cache. With YaRN on, "
          .. "Qwen2.5-7B on an RTX 4090 at 0.9 with 1 GiB of overhead has "
          .. f(rtx.kv_budget_bytes / GiB) .. " GiB of cache: " .. n(rtx.max_model_len_fits)
          .. " tokens, short of 131,072, and start-up fails with an error naming both numbers; "
          .. "lower max_model_len, quantise, or add memory, or pass --max-model-len auto (-1; "
          .. "vllm#29431, November 2025), which searches for the longest length that fits "
          .. "(kv_cache_utils, _auto_fit_max_model_len) and logs the one it picks.",
    },
    section {
      title = "Why 0.99 is risky",
      text = "Not mainly because activations outgrow the profile: the profile run already "
          .. "pushes a batch of max_num_batched_tokens tokens through the model. It does skip "
          .. "attention, though: with no attention metadata the attention layers return at once "
          .. "(FlashAttentionImpl.forward, under the V1 runner; Model Runner V2's profile_run "
          .. "skips attention outright), so a backend's attention workspace is not measured. "
          .. "The (1 − utilisation) share must hold "
          .. "two things vLLM never subtracts. First what was there at its start-up snapshot: "
          .. "the CUDA context and NCCL's start-up buffers (under tensor parallelism they can "
          .. "reach several GiB a GPU: vllm-project/vllm#25359 saw 78.59 GiB free before NCCL "
          .. "started and 74.07 after), and any other process. Then what is allocated after "
          .. "the profiling pass: the sampler's logprob buffers (V1's profiled pass runs top-k "
          .. "and top-p but not logprobs; Model Runner V2's may skip all three), MoE load "
          .. "imbalance, allocator fragmentation, and the CUDA graph pools wherever they are not "
          .. "estimated (before 0.21, and under Model Runner V2). The default (0.92 from 0.25, "
          .. "0.9 before) keeps 8 to 10% of the card for all that; at 0.99 an 80 GB card keeps "
          .. "under 1 GiB. Often it does not get that far: the fraction is of the whole card, "
          .. "and when the context, NCCL and other processes already hold more than 1%, vLLM "
          .. "refuses to start because free memory is below what was requested. If it starts, "
          .. "an unusual moment ends in an out-of-memory error in production. Raise it in "
          .. "small steps and watch the peak.",
    },
  },

  worked = code [[
log (Llama-3.1-8B, H100, BF16, max_model_len 8,192)
  Available KV cache memory: 58.11 GiB
  block      16 tokens × 2 × 32 layers × 8 heads × 128 × 2 B = 2,097,152 B = 2 MiB
  blocks     58.11 GiB ÷ 2 MiB                  = 29,752 (log: 476,016 ÷ 16 = 29,751)
  tokens     29,752 × 16                        = 476,032
  max conc.  476,032 ÷ 8,192                    = 58.11x
predict      0.95 × 79.19 GiB − 14.96 GiB weights − 1.5 GiB overhead = 58.77 GiB
             (the log ran at 0.95; 58.11 logged: the overhead was 2.16 GiB)]],

  followups = {
    followup {
      question = "The log says \"Maximum concurrency for 8,192 tokens per request: 3.2x\" but "
              .. "you set max_num_seqs to 64. How many requests will really run at once?",
      answer = "Usually many more than 3. The reported figure assumes every request uses the "
            .. "full max_model_len; real requests are shorter and hold only the blocks they use, "
            .. "so the scheduler admits up to max_num_seqs while free blocks last. If requests "
            .. "do run long, it stops admitting and preempts, and concurrency falls toward 3.",
      points = {
        point { "the log assumes full-length requests", weight = 2,
                about = {"log", "figure", "reported figure", "3.2x", "it", "the number", "3.2", "3.2×", "three"},
                said = {"full length", "max_model_len", "worst case", "every request uses", "full context",
                        "fills all", "uses all", "at full length", "max-length", "maximum length"} },
        point { "shorter requests hold fewer blocks, so more run", weight = 3,
                about = {"real requests", "shorter requests", "requests", "they", "short requests", "concurrency", "real concurrency"},
                said = {"shorter", "fewer blocks", "only the blocks", "more than", "short", "take little", "far more", "many more"},
                short = {"up to 64", "many more than 3", "far more than three", "far more", "many more",
                         "usually many more than 3", "usually far more than three"},
                accept = {"up to 64", "up to max_num_seqs", "all 64"} },
        point { "long requests lead to preemption",
                about = {"long requests", "requests", "it", "scheduler", "concurrency"},
                said = {"preempt", "preemption", "preempted", "stops admitting", "queue", "wait", "falls toward 3"} },
      },
      misconceptions = {
        misconception { about = {"requests", "concurrency", "vLLM", "it"},
                        said = {"only 3", "at most 3", "3 at most", "caps at 3"},
                        why = "3.2x assumes every request is max_model_len long; shorter requests hold fewer blocks and up to max_num_seqs run" },
      },
    },
    followup {
      question = "Your prediction of the available KV memory is 1.5 GiB higher than the log. "
              .. "Where would you look?",
      answer = "First at the inputs: the utilisation the server really ran at (the "
            .. "non-default args; the default is 0.92 from vLLM 0.25, 0.9 before). Then at the "
            .. "subtractions you could not compute: peak activations grow with "
            .. "max_num_batched_tokens, and the logits with max_num_seqs (the profiling pass "
            .. "samples one row of the vocabulary for each of max_num_seqs requests, "
            .. "V1's GPUModelRunner.profile_run), CUDA graph "
            .. "capture takes memory per captured batch size (subtracted from 0.21 on under the "
            .. "V1 runner), and "
            .. "non-torch memory allocated after the start-up snapshot (kernels loaded lazily "
            .. "on first use, library handles, NCCL buffers made at the first collectives) "
            .. "counts too. The CUDA context and "
            .. "NCCL's start-up buffers do not: they were there at the snapshot vLLM measures "
            .. "from, so they cannot explain the gap. Also check what the driver reports as "
            .. "total memory, and whether another process on the GPU allocated memory while vLLM "
            .. "profiled (that counts as vLLM's own growth).",
      points = {
        point { "activations grow with max_num_batched_tokens", weight = 2,
                about = {"activations", "peak activations", "activation memory", "profiling"},
                said = {"grow", "max_num_batched_tokens", "logits", "vocabulary", "larger", "max_num_seqs"},
                accept = {"max_num_batched_tokens", "activation peak", "peak activations", "activation memory",
                          "activations"} },
        point { "CUDA graphs and non-torch memory",
                accept = {"cuda graph", "non-torch", "during the pass", "lazy", "cublas", "workspace"} },
        point { "the real total and other processes",
                accept = {"other process", "driver", "nvidia-smi", "total memory", "reports"} },
      },
      misconceptions = {
        misconception { about = {"bytes per token", "formula", "per-token size", "KV formula"},
                        said = {"is wrong", "is off", "miscomputed"},
                        why = "the per-token formula is exact; the gap is in the subtractions: activations, CUDA graphs, memory outside PyTorch" },
        misconception { about = {"CUDA context", "NCCL", "NCCL buffers", "NCCL's buffers", "the context"},
                        said = {"subtracted", "subtracts", "is counted", "are counted", "taken out of the budget",
                                "accounted for by vLLM"},
                        why = "the CUDA context and NCCL's start-up buffers exist before the memory snapshot vLLM measures from (Worker.init_device), so they are never subtracted: they must fit in the (1 − utilisation) share" },
      },
    },
    followup {
      question = "What does --kv-cache-memory-bytes change in how vLLM sizes the cache?",
      answer = "It sets the KV cache per GPU directly: vLLM uses the bytes as given instead of "
            .. "deriving the cache from gpu_memory_utilization less what profiling measured "
            .. "(vllm/config/cache.py, CacheConfig.kv_cache_memory_bytes; "
            .. "Worker.determine_available_memory still runs the profile pass, which compiles "
            .. "the model for max_num_batched_tokens, but skips the memory profiling and returns "
            .. "the bytes). The capacity is "
            .. "then the same on every card and every run, and two servers can share a GPU by "
            .. "bytes. The headroom becomes your job: if the weights, activations, graphs and "
            .. "your figure do not fit the card, the server runs out of memory.",
      points = {
        point { "it sets the cache size per GPU directly", weight = 2,
                about = {"it", "kv-cache-memory-bytes", "kv_cache_memory_bytes", "the flag", "the option", "vLLM", "you"},
                said = {"sets the KV cache", "sets the cache", "directly", "bytes as given", "fixed size", "exact size",
                        "per GPU", "how many bytes", "each GPU gets", "exactly"},
                accept = {"sets the kv size", "sets the cache size", "sets the kv cache size", "kv size directly",
                          "cache size directly"} },
        point { "gpu_memory_utilization and profiling no longer size it", weight = 2,
                about = {"gpu_memory_utilization", "profiling", "vLLM", "utilization"},
                said = {"no longer", "instead of", "ignored", "not used", "without profiling", "skips", "stops",
                        "rather than", "bypassed"},
                accept = {"instead of deriving", "without profiling", "ignores gpu_memory_utilization"} },
        point { "the headroom becomes yours: too large runs out of memory",
                accept = {"headroom", "out of memory", "oom", "do not fit", "too large"} },
      },
      misconceptions = {
        misconception { about = {"gpu_memory_utilization", "the utilization", "the utilisation"},
                        said = {"on top of", "in addition to", "added to"},
                        unless = {"instead of", "ignores", "ignored", "replaces", "rather than", "not on top", "CUDA context",
                                                  "NCCL", "headroom"},
                        why = "kv_cache_memory_bytes sets the cache's size in place of the utilisation-based fit: gpu_memory_utilization is then ignored for the cache (CacheConfig.kv_cache_memory_bytes)" },
        misconception { about = {"kv_cache_memory_bytes", "--kv-cache-memory-bytes", "kv-cache-memory-bytes", "it", "the flag"},
                        said = {"on top of gpu_memory_utilization", "on top of the utilization", "on top of the utilisation",
                                "in addition to gpu_memory_utilization", "added to gpu_memory_utilization", "plus gpu_memory_utilization"},
                        unless = {"instead of", "ignores", "replaces", "rather than", "not on top"},
                        why = "kv_cache_memory_bytes sets the cache's size in place of the utilisation-based fit: gpu_memory_utilization is then ignored for the cache (CacheConfig.kv_cache_memory_bytes)" },
        misconception { about = {"it", "kv-cache-memory-bytes", "kv_cache_memory_bytes", "the flag"},
                        said = {"on top of gpu_memory_utilization", "adds to gpu_memory_utilization",
                                "total for all GPUs", "across all GPUs", "for the whole cluster"},
                        why = "it is the cache size per GPU, and it replaces the utilisation-based sizing rather than adding to it" },
      },
    },
    followup {
      question = "Can two vLLM servers share one 80 GB GPU, and how would you set them?",
      answer = "Yes. gpu_memory_utilization is a per-instance fraction of the whole card "
            .. "(vllm/config/cache.py: with two instances on one GPU each can be given 0.5), so "
            .. "give each a share and keep the sum under 1 with headroom, 0.45 each for "
            .. "example, or give each --kv-cache-memory-bytes, and then lower "
            .. "gpu_memory_utilization too: the start-up check still compares the free memory "
            .. "with utilisation × total, so the second server at the default 0.92 refuses to "
            .. "start. Start them one after another: each checks at start-up that the free "
            .. "memory covers its request. Each loads its "
            .. "own copy of the weights out of its share, so each has much less KV than one "
            .. "server on the whole card would.",
      points = {
        point { "the fraction is per instance, of the whole card", weight = 2,
                about = {"gpu_memory_utilization", "the fraction", "utilization", "utilisation"},
                said = {"per instance", "per-instance", "of the whole card", "of the total", "each instance"},
                accept = {"fraction of the full card", "fractions of the full card", "of the whole card",
                          "of the full card"} },
        point { "yes: each server gets its own share", weight = 2, polarity = "yes",
                accept = {"each gets its own share", "give each a share", "each its own fraction"} },
        point { "the shares must sum under 1", weight = 2,
                accept = {"sum under", "sum below", "add up", "0.45 each", "0.5 each", "half each", "sum to less"} },
        point { "each loads its own weights, leaving less KV each",
                accept = {"own copy of the weights", "own weights", "two copies", "weights twice", "duplicate weights"} },
      },
      misconceptions = {
        misconception { about = {"gpu_memory_utilization", "it", "the fraction", "utilization", "utilisation"},
                        said = {"fraction of the memory that is free", "fraction of the memory that's free", "fraction of what the first left",
                                "share of what is left over", "of the memory free when the instance starts", "of what the first instance left"},
                        unless = {"check", "compare", "against", "less KV", "own copy of the weights", "weights of its own"},
                        why = "it is a fraction of the card's total memory, per instance; the second server's start-up compares what is free with utilisation × total and refuses to start at the default 0.92 (0.9 before vLLM 0.25)" },
        misconception { about = {"gpu_memory_utilization", "the fraction", "utilization", "utilisation"},
                        said = {"of the free memory", "of what is left", "fraction of free memory", "of the remaining memory"},
                        why = "it is a fraction of the card's total memory, per instance; the second server's start-up checks it against what is free" },
        misconception { about = {"the two servers", "two instances", "they", "the servers"},
                        said = {"share the weights", "share one copy of the weights", "share the KV cache"},
                        why = "separate processes load their own weights and size their own caches" },
      },
    },
  },

  exercises = {
    numeric {
      id = "log-blocks",
      prompt = "vLLM printed \"Available KV cache memory: 58.11 GiB\" for Llama-3.1-8B (32 "
            .. "layers, 8 KV heads of 128 dims, BF16) with 16-token blocks. How many blocks is "
            .. "that?",
      expected = llama.num_gpu_blocks, unit = "blocks", tolerance = abs(2),
      worked = code("block    16 tokens × 2 (K, V) × 32 layers × 8 KV heads × 128 dims × 2 B\n"
        .. "         = " .. n(block_bytes) .. " B = " .. f(block_bytes / 2^20, 0) .. " MiB\n"
        .. "blocks   ⌊" .. AVAILABLE .. " GiB ÷ 2 MiB⌋ = ⌊" .. AVAILABLE .. " × " .. n(GiB / block_bytes)
        .. "⌋ = ⌊" .. n(math.floor(AVAILABLE * GiB / block_bytes))
        .. fixed(AVAILABLE * GiB / block_bytes % 1, 2):sub(2) .. "⌋ = "
        .. n(llama.num_gpu_blocks) .. " blocks"),
      model = "llama-3.1-8b", diagnose = "capacity",
      hints = { "One block: 16 × 2 × 32 × 8 × 128 × 2 bytes.", "That is exactly 2 MiB." },
    },
    numeric {
      id = "log-tokens",
      prompt = "What will the next line, \"GPU KV cache size: N tokens\", say? (vLLM 0.19 to "
            .. "0.24 print it on its own line; later sources print the same figure at the start "
            .. "of one line with the maximum concurrency.)",
      expected = llama.kv_tokens, unit = "tokens", tolerance = abs(32),
      worked = code("blocks   ⌊" .. AVAILABLE .. " GiB ÷ " .. f(block_bytes / 2^20, 0) .. " MiB a block⌋ = "
        .. n(llama.num_gpu_blocks) .. "\n"
        .. "tokens   " .. n(llama.num_gpu_blocks) .. " blocks × 16 tokens = " .. n(llama.kv_tokens)
        .. " tokens\n"
        .. "         (from 0.20.1 vLLM logs concurrency × max_model_len, up to 0.19\n"
        .. "         blocks ÷ groups × block size: one group here; 0.20.0 unverified;\n"
        .. "         " .. n(llama.num_gpu_blocks) .. " ÷ " .. n(llama.blocks_per_request)
        .. " × 8,192, the same here:\n"
        .. "         one group, and 8,192 a multiple of 16)\n"
        .. "         (the real log says 476,016, one block fewer: its " .. AVAILABLE
        .. " GiB is\n"
        .. "         itself rounded)"),
      model = "llama-3.1-8b", diagnose = "capacity",
      hints = { "Blocks × 16." },
    },
    numeric {
      id = "log-concurrency",
      prompt = "And \"Maximum concurrency for 8,192 tokens per request\"?",
      expected = llama.max_concurrency, unit = "x", tolerance = abs(0.01),
      worked = code("cache     " .. n(llama.num_gpu_blocks) .. " blocks × 16 = " .. n(llama.kv_tokens)
        .. " tokens\n"
        .. "request   ⌈8,192 tokens ÷ 16⌉ = " .. n(llama.blocks_per_request) .. " blocks\n"
        .. "conc.     " .. n(llama.num_gpu_blocks) .. " ÷ " .. n(llama.blocks_per_request) .. " = "
        .. n(llama.kv_tokens) .. " ÷ 8,192 = " .. fixed(llama.max_concurrency, 4) .. " → "
        .. f(llama.max_concurrency) .. "x"),
      model = "llama-3.1-8b", diagnose = "capacity",
      hints = { "Tokens ÷ 8,192.", "For this model, 8,192 tokens are exactly 1 GiB." },
    },
    numeric {
      id = "predict-available",
      prompt = "An H100 reports 79.19 GiB. The public vLLM 0.19 log ran at "
            .. "gpu_memory_utilization 0.95; with Llama-3.1-8B's BF16 weights (8,030,261,248 "
            .. "parameters) and 1.5 GiB of activation peak and other memory grown during "
            .. "profiling, what \"Available KV cache "
            .. "memory\" do you expect?",
      expected = predicted.kv_budget_bytes / GiB, unit = "GiB", tolerance = rel(0.01),
      worked = code("requested  " .. LOG_UTIL .. " × " .. H100_SEEN .. " GiB = "
        .. fixed(LOG_UTIL * H100_SEEN, 4) .. " GiB\n"
        .. "weights    " .. n(predicted.weights_bytes / 2) .. " params × 2 B = "
        .. n(predicted.weights_bytes) .. " B\n"
        .. "           = " .. f(predicted.weights_bytes / 1e9) .. " GB = "
        .. fixed(llama_weights, 4) .. " GiB\n"
        .. "available  " .. fixed(LOG_UTIL * H100_SEEN, 4) .. " − " .. fixed(llama_weights, 4)
        .. " − " .. OVERHEAD .. " GiB = " .. f(predicted.kv_budget_bytes / GiB) .. " GiB\n"
        .. "           (the log itself reads " .. AVAILABLE .. ": that setup's overhead was "
        .. f(LOG_UTIL * H100_SEEN - llama_weights - AVAILABLE) .. " GiB)"),
      diagnose = "units", left_out = { overhead = predicted.kv_budget_bytes / GiB + OVERHEAD },
      hints = { "0.95 × 79.19 GiB first.", "Then subtract 16.06 GB (14.96 GiB) and 1.5 GiB." },
    },
    numeric {
      id = "util-sweep",
      prompt = "Qwen2.5-7B (28 layers, 4 KV heads of 128 dims, 14.19 GiB of weights) in BF16 on "
            .. "an RTX 4090, its total taken as the round 24 GiB, with 1 GiB of overhead, "
            .. "gpu_memory_utilization {util} and "
            .. "--max-model-len 8192. vLLM 0.26 logs its maximum concurrency for 8,192 tokens per "
            .. "request at start-up: how many whole 8,192-token sequences is that?",
      params = { util = {0.8, 0.85, 0.9, 0.95} },
      expected = function(p)
        local r = kv.calc{model = "qwen2.5-7b", gpu = "rtx4090", util = p.util, overhead_gib = 1,
                          seq = 8192, vllm = "0.26.0"}
        return r.max_concurrent_seqs, "budget    " .. p.util .. " × 24 GiB − " .. f(r.weights_bytes / GiB, 3)
          .. " GiB of weights − 1 GiB = " .. n(r.kv_budget_bytes) .. " B\n"
          .. "          = " .. f(r.kv_budget_bytes / GiB, 2) .. " GiB (the 1 GiB stands for the profiled\n"
          .. "          activation peak, the memory outside PyTorch and, under the\n"
          .. "          V1 model runner, the CUDA-graph estimate)\n"
          .. "blocks    ⌊" .. n(r.kv_budget_bytes) .. " B ÷ " .. n(r.block_bytes) .. " B a block⌋ = "
          .. n(r.num_gpu_blocks) .. " (" .. n(r.num_gpu_blocks * 16) .. " tokens)\n"
          .. "sequence  ⌈8,192 tokens ÷ 16⌉ = " .. r.blocks_per_request .. " blocks\n"
          .. "logged    " .. n(r.num_gpu_blocks) .. " ÷ " .. r.blocks_per_request .. " = "
          .. f(r.num_gpu_blocks / r.blocks_per_request, 2) .. ", as vLLM logs it at start-up:\n"
          .. "          \"GPU KV cache size: " .. n(r.num_gpu_blocks * 16) .. " tokens, Maximum concurrency for\n"
          .. "          8,192 tokens per request: " .. f(r.num_gpu_blocks / r.blocks_per_request, 2) .. "x\"\n"
          .. "whole     ⌊" .. f(r.num_gpu_blocks / r.blocks_per_request, 2) .. "⌋ = "
          .. r.max_concurrent_seqs .. " sequences, the worst case: every request at the full\n"
          .. "          8,192 tokens; blocks are allocated as tokens are scheduled, so\n"
          .. "          shorter requests fit more"
      end,
      unit = "sequences", tolerance = abs(0.5), model = "qwen2.5-7b", diagnose = "capacity",
      hints = { "Budget: util × 24 GiB − 14.19 GiB − 1 GiB.",
                "Each sequence: 0.4375 GiB; round down." },
    },
    numeric {
      id = "max-len-fits",
      prompt = "Qwen2.5-7B (28 layers, 4 KV heads of 128 dims, 14.19 GiB of weights) in BF16 on "
            .. "an RTX 4090, its total taken as the round 24 GiB, at gpu_memory_utilization 0.9 "
            .. "with 1 GiB of overhead, YaRN "
            .. "rope scaling on so the config allows long contexts: what is the largest "
            .. "max_model_len vLLM 0.26's KV memory check will accept, in tokens?",
      expected = rtx.max_model_len_fits, unit = "tokens", tolerance = rel(0.01),
      worked = code("weights  " .. n(rtx.weights_bytes) .. " B = " .. fixed(rtx.weights_bytes / GiB, 3)
        .. " GiB (the prompt's 14.19, unrounded)\n"
        .. "budget   0.9 × 24 GiB − " .. fixed(rtx.weights_bytes / GiB, 3)
        .. " GiB − 1 GiB = " .. fixed(rtx.kv_budget_bytes / GiB, 3) .. " GiB = "
        .. n(rtx.kv_budget_bytes) .. " B\n"
        .. "         (24 GiB as given: vLLM sees ≈23.6 GiB on a real 4090; the 1 GiB\n"
        .. "         stands for the profiled activation peak, the memory outside\n"
        .. "         PyTorch and, under the V1 model runner, the CUDA-graph estimate)\n"
        .. "block    16 tokens × 2 × 28 layers × 4 KV heads × 128 dims × 2 B = "
        .. n(rtx.block_bytes) .. " B\n"
        .. "blocks   ⌊" .. n(rtx.kv_budget_bytes) .. " B ÷ " .. n(rtx.block_bytes) .. " B⌋ = "
        .. n(rtx.num_gpu_blocks) .. "\n"
        .. "longest  ⌈len ÷ 16⌉ ≤ " .. n(rtx.num_gpu_blocks) .. " blocks → len ≤ "
        .. n(rtx.num_gpu_blocks) .. " × 16 = " .. n(rtx.max_model_len_fits) .. " tokens"),
      model = "qwen2.5-7b", diagnose = "capacity",
      hints = { "Budget: 0.9 × 24 − 14.19 − 1 GiB.",
                "Whole 16-token blocks of 896 KiB, times 16." },
    },
    freetext {
      id = "why-not-099",
      prompt = "A colleague sets gpu_memory_utilization=0.99 to get more KV cache. What do you "
            .. "tell them?",
      answer = "It leaves almost no headroom. vLLM's profile run already pushes a "
            .. "max_num_batched_tokens batch through the model (attention skipped), but the CUDA context and NCCL's start-up buffers "
            .. "(never subtracted: they predate vLLM's memory snapshot), the sampler's logprob "
            .. "buffers (and its top-k work under Model Runner V2), allocator fragmentation and any other process on the GPU need "
            .. "memory the profile did not count; with 1% spare, the server either refuses to start (free "
            .. "memory already below the request) or starts and later dies with out-of-memory "
            .. "errors under load. Raise it in small steps, watch peak memory, or get the room "
            .. "from fp8 KV or quantised weights instead.",
      points = {
        point { "no headroom: OOM under load", weight = 2,
                accept = {"oom", "out of memory", "out-of-memory", "headroom", "margin", "crash", "no headroom",
                          "too little headroom", "little headroom", "no margin", "dies under load"} },
        point { "memory vLLM never subtracts: NCCL's start-up buffers, the sampler's logprob buffers, fragmentation", weight = 2,
                accept = {"profil", "nccl", "sampler", "logprob", "fragment", "peak", "unprofiled",
                          "outside the profile", "never profiles", "not profiled", "doesn't profile",
                          "does not profile"} },
        point { "other processes share the GPU",
                accept = {"other process", "another process", "fail to start",
                          "refuse to start", "won't start"} },
        point { "safer ways to get room",
                accept = {"fp8", "quantis", "quantiz", "small steps", "max_model_len"} },
      },
      misconceptions = {
        misconception { about = {"the KV cache", "KV cache size", "the KV cache size", "the cache size"},
                        said = {"is max_num_seqs times max_model_len", "equals max_num_seqs times max_model_len",
                                "is max_num_seqs × max_model_len", "equals max_num_seqs × max_model_len",
                                "is sized as max_num_seqs × max_model_len", "is sized as max_num_seqs times max_model_len",
                                "is max_num_seqs multiplied by max_model_len", "is reserved for max_num_seqs",
                                "fixed by max_num_seqs", "set by max_num_seqs"},
                        unless = {"smaller than", "larger than", "fewer", "more than", "less than"},
                        why = "V1 sizes the KV cache from the memory left under utilisation × total after the profile run (Worker.determine_available_memory); max_num_seqs and max_model_len reserve no KV cache: the cache is what is left, and max_model_len must only fit in it (check_enough_kv_cache_memory)" },
        misconception { about = {"the setting", "gpu_memory_utilization", "it", "utilization"},
                        said = {"only limits the weights", "limits only the weights", "only caps the weights", "only applies to the weights"},
                        why = "gpu_memory_utilization caps what vLLM budgets after its start-up snapshot (weights, activations, CUDA graphs where estimated, KV cache): what the others leave of it becomes KV cache; the CUDA context and NCCL's start-up buffers sit outside it" },
        misconception { about = {"profiling run", "the profile", "profiling", "the profile run"},
                        said = {"accounts for NCCL", "covers NCCL", "counts NCCL", "includes NCCL",
                                "accounts for everything"},
                        why = "NCCL's start-up buffers predate vLLM's memory snapshot and are never subtracted; logprob buffers and fragmentation come after the profiling pass: all must fit in the 1% left" },
        misconception { about = {"activations", "activation tensors", "decode activations", "activation memory"},
                        said = {"outgrow the profile", "grow past", "grow beyond", "exceed what the profile",
                                "larger than profiled", "not profiled", "aren't profiled", "unprofiled"},
                        why = "the profile run takes the worst max_num_batched_tokens batch, so the activation peak is in it; what 1% leaves no room for is memory vLLM never subtracts: NCCL's start-up buffers, logprob buffers, fragmentation, other processes" },
        misconception { about = {"CUDA context", "NCCL", "NCCL buffers", "NCCL's buffers", "the context"},
                        said = {"subtracted", "subtracts", "is counted", "are counted", "taken out of the budget",
                                "accounted for by vLLM"},
                        why = "the CUDA context and NCCL's start-up buffers exist before the memory snapshot vLLM measures from (Worker.init_device), so they are never subtracted: they must fit in the (1 − utilisation) share" },

        misconception { about = {"0.99", "it", "that"},
                        said = {"is fine", "only risks the activations", "is safe", "no risk"},
                        why = "1% of the card leaves no room for memory the profile did not see; the server can run out of memory under load or refuse to start" },
      },
    },
  },
}
