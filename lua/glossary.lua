-- The course glossary: terms an answer may use for one another. Every
-- lesson shares it; a lesson adds its own groups with glossary = { ... }.
-- When a key point or misconception names one term of a group, any other
-- term of the group in an answer counts as that term, also inside a longer
-- phrasing ("streams the weights" ~ "reads the weights").
-- Each group is two or more phrasings; word forms (shares, shared) and
-- hyphens (memory-bound, memory bound) are already alike without a group.
return {
  {"memory-bound", "bandwidth-bound", "memory bandwidth-bound", "bound by memory bandwidth",
   "limited by memory bandwidth", "limited by bandwidth", "bandwidth-limited"},
  {"compute-bound", "FLOP-bound", "compute-limited", "limited by compute",
   "bound by compute", "math-bound", "arithmetic-bound"},
  {"continuous batching", "iteration-level scheduling", "in-flight batching",
   "dynamic batching at each step"},
  {"time to first token", "TTFT"},
  {"time per output token", "TPOT", "inter-token latency", "ITL"},
  {"KV cache", "key-value cache", "KV-cache", "cache of keys and values"},
  {"prefill", "prompt processing", "the prefill phase", "processing the prompt"},
  {"decode", "generation", "token generation", "the decode phase"},
  {"grouped-query attention", "GQA"},
  {"multi-query attention", "MQA"},
  {"multi-head latent attention", "MLA"},
  {"multi-head attention", "MHA"},
  {"tensor parallelism", "tensor parallel", "TP"},
  {"pipeline parallelism", "pipeline parallel"},
  {"PagedAttention", "paged attention"},
  {"arithmetic intensity", "FLOPs per byte", "FLOP per byte", "operational intensity"},
  {"out of memory", "OOM"},
  {"gpu_memory_utilization", "GPU memory utilization", "memory utilization"},
  {"max_model_len", "max model length", "maximum context length", "context limit"},
  {"reads", "streams", "loads", "fetches"},
  {"weights", "parameters", "model weights"},
  {"fp8", "8-bit float", "8-bit floating point"},
  {"weight-only kernels", "W4A16 kernels", "W4A16", "weight-only 4-bit kernels"},
  {"16-bit", "BF16", "FP16", "half precision"},
  {"fragmentation", "fragmented"},
}
