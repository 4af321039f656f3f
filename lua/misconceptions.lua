-- Course-wide misconceptions: false claims about vLLM (0.26, the V1 engine)
-- that are false whichever question they are written under. Every question,
-- follow-up and free-text exercise of every lesson is checked for them after
-- its own (docs/lessons.md, "Course-wide misconceptions"); a lesson never
-- needs to repeat one. Each is written as narrowly as the false claim, with
-- the true cases it must not catch in `unless` (an older engine, an opt-in
-- connector, a denial), since a course-wide wrong verdict on a right answer
-- would reach every lesson. At most 16.
return {
  -- V1 preempts by recompute; swapping to CPU was V0's
  misconception { about = {"preempted request", "preemption", "preempting", "preempts", "preempted",
                           "the scheduler", "vLLM", "V1"},
                  said = {"swaps its KV", "swaps the KV", "swaps their KV", "swapped out to CPU",
                          "swaps it to CPU", "swaps them to CPU", "swap space", "swaps its cache",
                          "copies its KV blocks to CPU", "copies the KV to CPU", "copies its KV to CPU",
                          "KV blocks to CPU", "KV cache to CPU"},
                  unless = {"V0", "before V1", "used to", "older", "connector", "offload", "LMCache",
                            "instead of", "rather than"},
                  why = "V1 preempts by recompute: the request's blocks are freed, it goes back to the waiting queue and is prefilled again when it is rescheduled (prefix-cache hits make that cheaper); swapping KV to CPU was V0's (Scheduler._preempt_request, vllm/v1/core/sched/scheduler.py)" },

  -- the KV cache is in GPU memory; a host copy is an opt-in second tier
  misconception { about = {"KV cache", "the cache", "keys and values", "cached KV"},
                  said = {"lives in CPU memory", "stored in CPU memory", "kept in CPU memory",
                          "sits in CPU memory", "lives on the CPU", "stored on the CPU",
                          "pulled over PCIe", "over PCIe every step", "read over PCIe", "comes over PCIe"},
                  unless = {"offload", "connector", "LMCache", "tier", "evicted", "V0", "swap"},
                  why = "vLLM allocates the KV cache in GPU memory at start-up and each step's attention reads it from HBM; a copy in host memory exists only with a KV offloading connector, as a second tier (Worker.determine_available_memory, KVCacheManager)" },

  -- experts stay resident; host offload only when asked for
  misconception { about = {"experts", "inactive experts", "the other experts", "unused experts",
                           "expert weights", "the router"},
                  said = {"offloaded to CPU", "offloaded to the CPU", "paged in from CPU", "loaded from CPU",
                          "reloaded from CPU", "reload the inactive experts", "fetched from CPU",
                          "in CPU memory", "kept on the CPU", "from CPU for every token"},
                  unless = {"cpu-offload", "cpu offload", "if you", "expert offloading", "offload flag"},
                  why = "vLLM keeps every expert's weights resident in GPU memory (sharded by TP or EP), since any token may be routed to any expert; weights leave the GPU only when asked (--cpu-offload-gb), and then every step pays the PCIe transfer" },

  -- attention, and so the KV cache, is shared by the experts
  misconception { about = {"each expert", "every expert", "the experts", "experts", "MoE", "the KV cache"},
                  said = {"its own KV", "own keys and values", "own KV cache", "a KV cache per expert",
                          "per-expert KV", "KV per expert", "KV for each expert"},
                  why = "experts replace the MLP only: attention, and so the KV cache, is one per layer for every token whatever experts it routes to, so a MoE's KV per token is set by its attention layers alone" },

  -- the utilisation is a share of the whole GPU
  misconception { about = {"gpu_memory_utilization", "gpu-memory-utilization", "memory utilization",
                           "memory utilisation", "the utilization", "the utilisation"},
                  said = {"fraction reserved for the weights", "reserved for the weights", "share for the weights",
                          "of free memory", "of the free memory", "fraction of free", "percentage of free"},
                  unless = {"older", "V0"},
                  why = "it is the share of the GPU's total memory this vLLM instance may use, for weights, activations, CUDA graphs and KV cache together; the KV cache gets what is left of that share after the profile (CacheConfig.gpu_memory_utilization, Worker.determine_available_memory)" },

  -- TP splits heads, not tokens
  misconception { about = {"tensor parallelism", "tensor parallel", "TP"},
                  said = {"sequence dimension", "along the sequence", "token ranges", "range of tokens",
                          "splits the tokens", "by tokens", "half the tokens", "by token position"},
                  unless = {"context parallel", "context parallelism", "decode context", "DCP", "sequence parallel", "ring attention", "instead of",
                            "rather than", "unlike"},
                  why = "tensor parallelism splits each layer's KV heads across the GPUs: every GPU holds every token's keys and values for its own heads; splitting the cache by tokens is context parallelism (vLLM's decode context parallel), a separate option" },

  -- a prefix-cache hit depends on tokens, never on sampling
  misconception { about = {"prefix caching", "prefix cache", "cache hits", "a hit", "cached KV", "cached blocks"},
                  said = {"temperature 0", "temperature zero", "greedy sampling", "greedy decoding",
                          "random seed", "different seed", "sampling temperature", "same temperature",
                          "sampling parameters", "same seed"},
                  unless = {"regardless", "any temperature", "whatever"},
                  why = "cached blocks hold the prompt's keys and values, which depend on its tokens (and on a LoRA, multimodal inputs or a cache salt), never on sampling: a hit needs the same token prefix at any temperature or seed (hash_block_tokens, vllm/v1/core/kv_cache_utils.py)" },

  -- weight quantisation leaves the cache's dtype alone
  misconception { about = {"KV cache", "the cache", "KV"},
                  said = {"4-bit too", "also 4-bit", "becomes 4-bit", "quantised too", "quantized too",
                          "quantised with the weights", "quantized with the weights", "shrinks with the weights",
                          "same precision as the weights", "follows the weights"},
                  unless = {"kv_cache_dtype", "kv-cache-dtype", "fp8 KV", "if you also"},
                  why = "weight quantisation (AWQ, GPTQ, fp8 weights) leaves the KV cache in the activation dtype (BF16 or FP16) unless --kv-cache-dtype sets one: CacheConfig.cache_dtype 'auto' follows the model's dtype, not how its weights are stored" },

  -- a pipeline stage hands the token on; it does not split its work
  misconception { about = {"pipeline parallelism", "pipeline parallel", "PP"},
                  said = {"cuts per-token latency", "reduces per-token latency", "lowers per-token latency",
                          "cuts TPOT", "lowers TPOT", "reduces TPOT", "cuts latency per token",
                          "lower latency per token", "faster per token"},
                  unless = {"bubble"},
                  why = "each token still passes every layer, stage after stage, plus the hand-off between them, so pipeline parallelism does not cut per-token latency (it adds a little); it adds memory and, with other micro-batches in flight, throughput. Tensor parallelism is what splits each layer's work" },

  -- a new turn extends the prefix it hits
  misconception { about = {"each turn", "every turn", "a new turn", "each new turn", "new message",
                           "each new message", "a new message", "the next turn"},
                  said = {"invalidates the cache", "invalidates the previous", "clears the cache", "resets the cache",
                          "flushes the cache", "invalidates the prefix", "evicts the previous turn"},
                  unless = {"template", "timestamp", "date", "reasoning", "thinking", "rewrite", "edit", "strip",
                            "earlier"},
                  why = "a new turn appends to the conversation: its prompt starts with the earlier turns' tokens, whose full blocks stay in the prefix cache unless evicted, so they hit; only a change earlier in the prompt (a template that rewrites history, a timestamp) breaks the chain from that block on" },

  -- blocks on demand, nothing reserved for the longest request
  misconception { about = {"vLLM", "V1", "each request", "every request", "the scheduler"},
                  said = {"reserves max_model_len", "reserves the full context", "reserves the maximum length",
                          "allocates max_model_len", "allocates the full context up front",
                          "reserves each request's max_model_len", "contiguously", "contiguous region",
                          "contiguous chunk"},
                  unless = {"before", "previously", "earlier", "used to", "old", "servers", "without paging",
                            "static", "FasterTransformer", "Orca", "Hugging Face", "HF", "instead of", "rather than",
                            "unlike", "pool", "start-up", "startup", "tensor", "non-contiguous", "noncontiguous",
                            "no reserving", "not reserving", "nothing is reserved", "vAttention", "virtual"},
                  why = "vLLM hands out KV in fixed blocks (16 tokens by default) as a request's tokens arrive (KVCacheManager.allocate_slots); nothing is reserved for max_model_len, which need only fit the pool at start-up" },

  -- V1 serves the running requests first
  misconception { about = {"the scheduler", "vLLM", "V1", "it"},
                  said = {"prefills first", "all waiting prefills first", "prefill before decode", "prioritizes prefill",
                          "prioritises prefill", "prefill-first", "prefills before decodes"},
                  unless = {"V0", "older", "used to", "instead of", "rather than", "unlike"},
                  why = "V1's Scheduler.schedule serves the running requests first (decodes and unfinished prefill chunks), then admits waiting requests with the token budget left; prefill first was V0's default (vllm/v1/core/sched/scheduler.py)" },
}
