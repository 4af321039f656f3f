-- Course-wide misconceptions: false claims about vLLM (0.26, the V1 engine)
-- that are false whichever question they are written under. Every question,
-- follow-up and free-text exercise of every lesson is checked for them after
-- its own (docs/lessons.md, "Course-wide misconceptions"); a lesson never
-- needs to repeat one. Each is written as narrowly as the false claim, with
-- the true cases it must not catch in `unless` (an older engine, an opt-in
-- connector, a denial), since a course-wide wrong verdict on a right answer
-- would reach every lesson. At most 24.
return {
  -- V1 preempts by recompute; swapping to CPU was V0's
  misconception { about = {"preempted request", "preemption", "preempting", "preempts", "preempted", "preempt",
                           "its blocks", "their blocks", "the victim's blocks"},
                  said = {"swaps its KV", "swaps the KV", "swaps their KV", "swapped out to CPU", "swaps it to CPU",
                          "swaps them to CPU", "swaps its cache", "copies its KV blocks to CPU", "copies the KV to CPU",
                          "copies its KV to CPU", "copies the blocks to CPU", "copies its blocks to CPU",
                          "swaps its KV cache to CPU",
                          "moves its KV cache to host memory", "KV cache to host memory", "to host RAM",
                          "KV blocks to CPU", "KV cache to CPU", "to CPU swap space", "swaps them back", "swap them back",
                          "swapped back in", "parked in host RAM", "parked in CPU memory", "parked on the CPU",
                          "restored from host memory", "swaps the preempted request", "swapped to CPU"},
                  unless = {"V0", "before V1", "vLLM before", "used to", "older", "removed", "dropped", "no longer", "than",
                            "instead of", "rather than", "connector", "offload", "LMCache", "NIXL", "kv_buffer_device",
                            "transfer", "disaggregat", "legacy", "could", "in vLLM 0", "vLLM 0.2", "vLLM 0.3", "vLLM 0.4",
                            "vLLM 0.5", "vLLM 0.6"},
                  why = "V1 preempts by recompute: the request's blocks are freed, it goes back to the waiting queue and is prefilled again when it is rescheduled (prefix-cache hits make that cheaper); swapping KV to CPU was V0's (Scheduler._preempt_request, vllm/v1/core/sched/scheduler.py)" },
  misconception { about = {"vLLM", "V1", "the scheduler"},
                  said = {"swaps its KV", "swaps the KV", "swaps their KV", "swaps the extra sequences' KV",
                          "swaps them to CPU", "swaps it to CPU", "swapped out to CPU", "swaps them back",
                          "to CPU swap space", "into swap space", "to swap space", "swaps its KV cache to CPU",
                          "swaps the preempted request", "swaps the request to CPU", "swapped to CPU"},
                  unless = {"V0", "before V1", "vLLM before", "used to", "older", "removed", "dropped", "no longer", "than",
                            "instead of", "rather than", "legacy", "could", "in vLLM 0", "vLLM 0.2", "vLLM 0.3", "vLLM 0.4",
                            "vLLM 0.5", "vLLM 0.6"},
                  why = "V1 never swaps a request's KV to CPU: a request that cannot get blocks is preempted by recompute, its blocks freed and its prefill run again later; swap space was V0's (Scheduler._preempt_request, vllm/v1/core/sched/scheduler.py)" },

  -- the KV cache is in GPU memory; a host copy is an opt-in second tier
  misconception { about = {"KV cache", "keys and values", "cached KV"},
                  said = {"lives in CPU memory", "stored in CPU memory", "kept in CPU memory", "sits in CPU memory",
                          "lives on the CPU", "stored on the CPU", "held in host RAM", "in host RAM", "in CPU RAM",
                          "in system memory", "pulled over PCIe", "over PCIe every step", "read over PCIe",
                          "in CPU memory"},
                  unless = {"offload", "connector", "LMCache", "tier", "evicted", "V0", "swap", "index", "events", "router",
                            "CPU backend", "VLLM_CPU_KVCACHE_SPACE", "prefill instance", "decode instance", "NIC", "RDMA",
                            "adapter", "LoRA", "myth", "misconception", "it does not"},
                  why = "on a GPU vLLM allocates the KV cache in GPU memory at start-up (GPUModelRunner.initialize_kv_cache) and each step's attention reads it from HBM; a copy in host memory exists only with a KV offloading connector, as a second tier (vLLM's CPU backend is the exception: there it is host memory, sized by VLLM_CPU_KVCACHE_SPACE)" },

  -- experts stay resident; host offload only when asked for
  misconception { about = {"experts", "inactive experts", "the other experts", "unused experts", "expert weights",
                           "idle experts", "the rest of the experts"},
                  said = {"offloaded to CPU", "offloaded to the CPU", "paged in from CPU", "loaded from CPU",
                          "reloaded from CPU", "reload the inactive experts", "fetched from CPU", "in CPU memory",
                          "kept on the CPU", "from CPU for every token", "from host RAM", "in system memory", "in from CPU",
                          "in host memory", "stay in host"},
                  unless = {"cpu-offload", "cpu offload", "if you", "expert offloading", "offload flag", "would", "llama.cpp",
                            "n-cpu-moe", "ktransformers", "cpu-offload-params", "offload-group-size", "keeping", "keep them",
                            "systems like", "MoE-Infinity", "Fiddler", "DeepSpeed", "vLLM does not"},
                  why = "vLLM keeps every expert's weights resident in GPU memory (sharded by TP or EP), since any token may be routed to any expert; weights leave the GPU only when asked (--cpu-offload-gb, --cpu-offload-params, the prefetching --offload-group-size), and then steps pay the PCIe transfer" },

  -- attention, and so the KV cache, is shared by the experts
  misconception { about = {"each expert", "every expert", "an expert", "per expert", "experts"},
                  said = {"its own KV", "own keys and values", "own KV cache", "a KV cache per expert", "per-expert KV",
                          "KV per expert", "KV for each expert", "cached in each of", "separate keys and values",
                          "grows with the number of experts", "store keys and values"},
                  unless = {"replica", "rank", "DP", "instance", "layer", "draft", "EAGLE", "shared by"},
                  why = "experts replace the MLP only: attention, and so the KV cache, is one per layer for every token whatever experts it routes to, so a MoE's KV per token is set by its attention layers alone" },

  -- the utilisation is a share of the whole GPU
  misconception { about = {"gpu_memory_utilization", "gpu-memory-utilization", "--gpu-memory-utilization"},
                  said = {"fraction reserved for the weights", "is the fraction of free memory", "is a fraction of free memory",
                          "is a share of free memory", "of the free memory", "percentage of free", "times the free memory",
                          "times free memory", "multiplied by the free memory", "still unused at start-up",
                          "memory that remains available", "whatever memory is available"},
                  unless = {"must stay below", "refuses", "assume", "total memory"},
                  why = "it is the share of the GPU's total memory this vLLM instance may use, for weights, activations, CUDA graphs and KV cache together; the KV cache gets what is left of that share after the profile (CacheConfig.gpu_memory_utilization, Worker.determine_available_memory)" },

  -- TP splits heads, not tokens
  misconception { about = {"tensor parallelism", "tensor parallel", "TP"},
                  said = {"splits the sequence dimension", "splits along the sequence", "along the sequence dimension", "shards by tokens", "splits by tokens",
                          "token ranges", "range of tokens", "splits the tokens", "half the tokens", "by token position",
                          "quarter of the context", "by sequence length", "slice of the tokens", "splits the cache by sequence",
                          "splits the cache by tokens", "cache by tokens", "by token ranges", "split by layers", "splits by layers",
                                                    "split by layer", "splits the cache by layers", "a quarter of the layers' cache",
                                                                              "cache for a quarter of the layers", "cache for half of the layers"},
                                            unless = {"context parallel", "context parallelism", "decode context", "prefill context", "DCP", "PCP",
                            "sequence parallel", "ring attention", "instead of", "rather than", "unlike", "whole", "full",
                            "untouched", "all tokens"},
                  why = "tensor parallelism splits each layer's KV heads across the GPUs: every GPU holds every token's keys and values for its own heads (an MLA latent, which has no heads to split, is replicated); splitting the cache by tokens is context parallelism (vLLM's decode and prefill context parallel), a separate option, and splitting it by layers is pipeline parallelism" },

  -- a prefix-cache hit depends on tokens, not on how they are sampled
  misconception { about = {"prefix caching", "prefix cache", "cache hits", "a hit", "cached KV", "cached blocks",
                           "block hash", "the block hashes", "sampling parameters", "sampling settings", "the temperature",
                           "temperature", "the seed"},
                  said = {"needs temperature 0", "only at temperature 0", "only with temperature 0", "requires temperature 0",
                          "only hits when temperature", "only with greedy", "needs greedy", "requires greedy",
                          "under a different random seed", "under a different seed", "needs the same seed",
                          "sampling parameters are part of the block hash", "sampling parameters are hashed",
                          "temperature is part of the hash", "depends on the temperature", "hash includes the temperature",
                          "are part of the block hash", "is part of the block hash", "part of the block hash"},
                  unless = {"regardless", "any temperature", "whatever", "independent", "not matter", "same at",
                            "prompt_logprobs", "skip_reading_prefix_cache", "LoRA", "salt", "image", "multimodal",
                            "extra keys"},
                  why = "cached blocks hold the prompt's keys and values, which depend on its tokens (and on a LoRA, multimodal inputs, prompt embeddings or a cache salt), never on temperature, top-p or the seed (hash_block_tokens, vllm/v1/core/kv_cache_utils.py); only asking for prompt_logprobs makes vLLM skip the lookup" },

  -- weight quantisation leaves the cache's dtype alone
  misconception { about = {"KV cache", "its KV cache"},
                  said = {"4-bit too", "also 4-bit", "becomes 4-bit", "4-bit as well", "quantised with the weights",
                          "quantized with the weights", "shrinks with the weights", "same precision as the weights",
                          "follows the weights", "shrinks the KV cache to 4 bits"},
                  unless = {"kv_cache_dtype", "kv-cache-dtype", "fp8 KV", "if you also", "checkpoint", "ModelOpt",
                            "kv_cache_quant_algo", "kv_cache_scheme", "can be", "BF16 model", "plain", "unquantised",
                            "unquantized", "auto"},
                  why = "weight quantisation (AWQ, GPTQ, int4) leaves the KV cache in the activation dtype (BF16 or FP16) unless --kv-cache-dtype sets one; with 'auto' the cache goes fp8 only when the checkpoint itself declares a KV scheme (ModelOpt's kv_cache_quant_algo, llm-compressor's kv_cache_scheme), which AWQ and GPTQ checkpoints do not" },

  -- a pipeline stage hands the token on; it does not split its work
  misconception { about = {"pipeline parallelism", "pipeline parallel", "PP"},
                  said = {"cuts per-token latency", "reduces per-token latency", "lowers per-token latency", "cuts TPOT",
                          "lowers TPOT", "reduces TPOT", "cuts latency per token", "lower latency per token",
                          "faster per token", "quarter of the time", "half as long", "each token quicker", "times faster"},
                  unless = {"bubble", "offload", "versus", "compared with", "than", "preemption", "the way TP", "unlike"},
                  why = "each token still passes every layer, stage after stage, plus the hand-off between them, so pipeline parallelism does not cut per-token latency (it adds a little); it adds memory and, with other micro-batches in flight, throughput. Tensor parallelism is what splits each layer's work" },

  -- a new turn extends the prefix it hits
  misconception { about = {"each turn", "every turn", "a new turn", "each new turn", "new message", "each new message",
                           "a new message", "the next turn"},
                  said = {"invalidates the cache", "invalidates the previous", "clears the cache", "resets the cache",
                          "flushes the cache", "invalidates the prefix", "evicts the previous turn", "no longer match",
                          "whole conversation is prefilled again", "thrown away", "none of the old blocks"},
                  unless = {"template", "timestamp", "date", "reasoning", "thinking", "rewrite", "edit", "strip", "earlier",
                            "traffic", "pressure", "load", "replica", "router", "evict", "only the new", "nothing"},
                  why = "a new turn appends to the conversation: its prompt starts with the earlier turns' tokens, whose full blocks stay in the prefix cache unless evicted, so they hit; only a change earlier in the prompt (a template that rewrites history, a timestamp) breaks the chain from that block on" },

  -- blocks on demand, nothing reserved for the longest request
  misconception { about = {"vLLM", "V1", "each request", "every request", "the scheduler"},
                  said = {"reserves max_model_len", "reserves the full context", "reserves the maximum length",
                          "allocates max_model_len", "allocates the full context up front",
                          "reserves each request's max_model_len", "reserves a contiguous region per request",
                          "allocates a contiguous region", "reserves each request a contiguous", "sized for max_model_len",
                          "set aside room for", "preallocates max_model_len", "pre-allocates max_model_len",
                          "pre-allocates its full length", "preallocates its full length"},
                  unless = {"before", "previously", "earlier", "used to", "old", "servers", "without paging", "static",
                            "FasterTransformer", "Orca", "Hugging Face", "HF", "instead of", "rather than", "unlike", "pool",
                            "start-up", "startup", "tensor", "no reserving", "not reserving", "nothing is reserved",
                            "vAttention", "virtual", "reserve_full_isl", "state", "draft", "lookahead"},
                  why = "vLLM hands out KV in fixed blocks (16 tokens by default) as a request's tokens are scheduled (KVCacheManager.allocate_slots); nothing is reserved for max_model_len, which need only fit the pool at start-up; from 0.24 a request is admitted only when its whole sequence could fit, but its blocks are still allocated chunk by chunk" },

  -- V1 serves the running requests first
  misconception { about = {"the scheduler", "vLLM", "V1", "vLLM's scheduler", "V1's scheduler"},
                  said = {"all waiting prefills first", "prioritizes prefill", "prioritises prefill", "prefill-first",
                          "prefills before decodes", "ahead of the running", "new prompts before",
                          "before it schedules decodes", "schedules prefills before decodes", "runs prefills first",
                          "waiting requests first", "priority over running"},
                  unless = {"V0", "older", "used to", "instead of", "rather than", "unlike", "SGLang", "request's", "instance",
                            "TTFT", "in vLLM 0", "legacy", "before V1", "vLLM before", "vLLM 0.2", "vLLM 0.3", "vLLM 0.4", "vLLM 0.5",
                            "vLLM 0.6"},
                  why = "V1's Scheduler.schedule serves the running requests first (decodes and unfinished prefill chunks), then admits waiting requests with the token budget left; prefill first was V0's default (vllm/v1/core/sched/scheduler.py)" },

  -- under FCFS the newest running request, under priority the lowest priority
  misconception { about = {"vLLM", "V1", "it", "the scheduler"},
                  said = {"preempts the oldest", "preempts the longest", "preempts the largest",
                          "preempts the request with the most", "preempts the requests with the most",
                          "preempts the one with the most", "preempts whichever has the most", "preempts the earliest",
                          "preempts the request that has used the most", "preempts the biggest", "holding the most"},
                  unless = {"V0", "instead of", "rather than", "unlike", "most recent", "most recently", "newest", "latest"},
                  why = "V1 preempts the most recently admitted running request under the default FCFS policy (self.running.pop()), and the lowest-priority one, latest arrival among equals, under --scheduling-policy priority: not the oldest, longest or largest (Scheduler.schedule, vllm/v1/core/sched/scheduler.py)" },

  -- block hashes are chained: a block matches only with everything before it
  misconception { about = {"hash", "block hash", "each block", "a block", "the blocks", "blocks", "prefix caching", "vLLM"},
                  said = {"independently of the blocks before", "independent of the blocks before", "independent of the prefix",
                          "matches anywhere", "anywhere in the prompt", "regardless of position",
                          "independent of earlier blocks", "independently of the previous", "regardless of what comes before",
                          "independently of the blocks", "independent of the blocks"},
                  unless = {"chained", "instead of", "rather than", "unlike", "SGLang", "CacheBlend", "LMCache",
                            "only a shared prefix"},
                  why = "each block's hash covers its tokens and the hash of the block before (hash_block_tokens in vllm/v1/core/kv_cache_utils.py), so a block is reused only as part of a shared prefix from the first token: the same 16 tokens later in another prompt do not hit" },

  -- vLLM caps its own memory; the process can still run out
  misconception { about = {"it", "vLLM", "the server", "the engine", "this", "out-of-memory errors", "OOM errors"},
                  said = {"never run out of memory", "never runs out of memory", "can never OOM", "never OOMs",
                          "cannot run out of memory", "can't run out of memory", "never hit OOM", "cannot OOM",
                          "errors are impossible"},
                  unless = {"if", "unless", "as long as", "KV growth", "from the KV cache", "preempts", "myth"},
                  why = "vLLM sizes its KV pool to a budget, but memory it does not count (fragmentation, the sampler's buffers, CUDA graph pools it did not estimate, other processes) can still run the GPU out of memory at run time" },

  -- prefill of a real prompt reuses each weight for every token: compute-bound
  misconception { about = {"prefill", "the prefill", "prefilling", "prompt processing", "TTFT"},
                  said = {"memory-bound", "waits on reading the weights"},
                  unless = {"that short", "like decode", "k+1", "k + 1", "short prompt", "token prompt", "token prefill", "short prefill", "small prefill", "tiny prefill",
                            "few tokens", "small prompt", "tiny prompt", "short prompts",
                            "a few tokens", "single token", "one token", "below", "fewer than", "less than", "under about", "unlike", "instead of",
                            "rather than", "whereas", "while decode"},
                  why = "a prefill of hundreds of tokens or more reads each weight once for all of its tokens, a few hundred FLOPs a byte and more, past the GPU's ridge point: it is compute-bound; only a prompt of a few dozen tokens stays memory-bound" },

  -- one weight read a step, shared by the whole batch
  misconception { about = {"each step", "every step", "decode", "each sequence", "every sequence", "the batch"},
                  said = {"own copy of the weights", "weights again for every sequence", "weights again for each sequence",
                          "reads the weights once per sequence", "rereads the weights for each sequence",
                          "weights separately for each sequence", "copy the weights again", "once per request"},
                  unless = {"instead of", "rather than", "unlike", "separate", "naive", "without batching", "one at a time"},
                  why = "a decode step reads each weight once and applies it to every sequence in the batch; what each sequence adds is its own KV cache, not another pass over the weights" },

  -- every head reads the one MLA latent: TP cannot split it by head
  misconception { about = {"splits the MLA latent", "divides the MLA latent", "splits the latent", "divides the latent",
                           "shards the latent", "MLA latent", "the MLA latent", "an MLA latent", "MLA's latent", "the latent"},
                  said = {"by head across", "just like GQA", "like GQA heads", "like the heads", "each holds a quarter",
                          "is split across GPUs", "is split across the GPUs", "split across GPUs by TP", "split by TP",
                          "sharded by TP", "divided by TP", "is divided across", "is sharded across", "split like the heads",
                          "across GPUs so each holds"},
                  unless = {"DCP", "decode context parallel", "context parallel", "by token", "by tokens", "replicated",
                            "full latent", "whole latent", "V0", "myth", "misconception", "data-parallel", "data parallel",
                            "DP attention", "by request", "per request", "own requests", "by layer", "pipeline",
                                                        "mistake", "wrong", "context parallelism"},
                  why = "every query head reads the one latent a token stores, so tensor parallelism cannot split it by head: each GPU of a TP group holds the whole latent (ModelConfig.get_num_kv_heads gives MLA one KV head); within the group only splitting by token, decode context parallelism, divides it (pipeline parallelism splits it by layer, data-parallel attention by request)" },

  -- a bigger batch lengthens every step: TPOT grows with it
  misconception { about = {"TPOT", "time per output token", "inter-token latency", "ITL", "the step time", "step time"},
                  said = {"gets shorter as the batch grows", "shorter as the batch grows", "falls as the batch grows",
                          "drops as the batch grows", "decreases as the batch grows", "shrinks as the batch grows",
                          "gets faster as the batch grows", "falls with batch size", "drops with batch size",
                          "decreases with batch size", "shorter with a bigger batch", "shorter at larger batch",
                          "falls with a bigger batch", "lower with a bigger batch", "lower at a larger batch"},
                  unless = {"per request", "throughput", "cost per token", "amortiz", "amortis", "queue", "queueing", "TTFT",
                            "prefill", "tokens per second", "mistake", "myth", "wrong", "misconception", "naive",
                                                        "GPU time per", "divided by the batch", "÷ batch", "÷ the batch", "aggregate", "grows smaller",
                                                                                    "people expect", "people think", "might expect", "you'd expect", "one would expect",
                                                                                    "step time per sequence"},
                  why = "every sequence added to a decode step adds its KV read, and past the ridge its FLOPs: the step, and so each sequence's TPOT, grows with the batch; what the batch improves is throughput" },

  -- the KV cache holds keys and values, not scores, probabilities or logits
  misconception { about = {"KV cache", "the KV cache", "the cache", "KV caching"},
                  said = {"stores the logits", "stores logits", "holds the logits", "caches the logits", "keeps the logits",
                          "stores the attention scores", "stores attention scores", "holds the attention scores",
                          "caches the attention scores", "keeps the attention scores", "stores the softmax",
                          "caches the softmax", "stores the attention weights", "stores the attention matrix",
                          "stores the scores", "stores the probabilities", "caches the attention matrix"},
                  unless = {"myth", "misconception", "mistake", "wrong"},
                                    why = "the KV cache holds each earlier token's key and value vectors, per layer and KV head (one latent a token under MLA); the scores and their softmax are computed afresh every step from the new query against those keys, and logits are never cached" },

  -- with a KV cache a decode step computes only the new token's keys and values
  misconception { about = {"each new token", "decode", "each decode step", "every decode step", "each step", "every step",
                           "each token", "every new token"},
                  said = {"recompute the keys of all previous tokens", "recomputes the keys of all previous tokens",
                          "recompute the keys", "recomputes the keys", "recompute the keys and values",
                          "recomputes the keys and values", "recompute all previous keys", "recomputes all earlier keys",
                          "recompute K and V for all", "recomputes K and V for every"},
                  unless = {"without a KV cache", "without the KV cache", "without the cache", "without caching",
                                              "no KV cache", "no cache", "if", "would", "without it", "preempt", "resumed", "rescheduled",
                                              "drop it", "drop the cache", "use_cache", "latent", "chunked prefill", "its whole prompt",
                                                                          "prefill again", "its prompt and output"},
                  why = "the KV cache exists so that a decode step computes keys and values only for the new token and reads the earlier ones from memory; recomputing them is what a model without the cache (or a preempted request) does" },

  -- a recurrent layer's state sits in GPU memory beside the KV cache
  misconception { about = {"the layer's state", "the recurrent state", "Mamba state", "the Mamba state", "the SSM state",
                           "the GDN state"},
                  said = {"lives on the CPU", "lives in CPU memory", "stored in CPU memory", "kept in CPU memory",
                          "sits in CPU memory", "stored on the CPU", "kept on the CPU", "in host RAM"},
                  unless = {"if", "would", "connector", "LMCache", "CPU backend"},
                  why = "vLLM keeps a recurrent layer's state in GPU memory, in the same pool as the attention layers' KV cache (its tensors are views on the KV cache tensors, GPUModelRunner._reshape_kv_cache_tensors), and updates it in place every step" },
}
