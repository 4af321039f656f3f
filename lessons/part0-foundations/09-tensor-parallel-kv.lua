-- Part 0 · Foundations: tensor parallelism and the KV cache. Heads are split
-- across GPUs, so each GPU caches only its heads' keys and values; past the
-- number of KV heads they are replicated; plain TP never splits an MLA latent.

local MODEL = "qwen2.5-7b"
local qwen = kv.model(MODEL)

-- Bytes of cache one GPU holds per token at a given TP degree.
local function per_gpu(model, tp)
  local m = kv.model(model)
  local r = kv.calc{model = model, tp = tp}
  return 2 * m.layers * r.kv_heads_per_gpu * m.head_dim * 2
end

-- Two public vLLM 0.19 start-up logs on H100s (llm-d-planner accuracy results):
-- Qwen2.5-7B at TP 4 reported 67.34 GiB available per GPU, 315,205 blocks and a
-- maximum concurrency of 615.63x for 8,192 tokens; DeepSeek-V2-Lite (MLA) at
-- TP 4 reported 63.73 GiB and 2,199,888 tokens.
-- Both logs ran at gpu_memory_utilization 0.95 (the sweep's non-default args); the logged GiB
-- is the budget here, and the 0.19 rules are the ones compared.
local tp4 = kv.calc{model = MODEL, tp = 4, seq = 8192, kv_budget_gib = 67.34, vllm = "0.19.0"}
local lite = kv.calc{vllm = "0.19.0", layers = 27, mla_rank = 512, mla_rope_dim = 64, tp = 4, seq = 8192,
                     kv_budget_gib = 63.73}

-- The same budget if the latent were divided over the 4 GPUs, as KV heads are
-- (about the 4 GPUs' copies added up: 4 x 2,200,016 = 8,800,064; this rounds
-- to whole blocks once, over the whole budget, so it is 8,800,096).
local lite_split = math.floor(63.73 * 2^30 / (16 * lite.kv_bytes_per_token / 4)) * 16
-- The same budget with the latent doubled for a K and a V it does not have:
-- 2 x 27 x 576 x 2 B = 62,208 B a token, 68,429,566,443 / (16 x 62,208) = 68,750.8
-- -> 68,750 blocks x 16 = 1,100,000 tokens.
local lite_doubled = math.floor(63.73 * 2^30 / (16 * 2 * lite.kv_bytes_per_token)) * 16

local n = grouped -- 57344 -> "57,344"

-- Worked lines for the log exercises, from the same results their expected values use.
local tp4_gpu = per_gpu(MODEL, 4)                         -- 14,336 B a token on each GPU
local tp4_blocks = "blocks   ⌊67.34 × 2^30 B ÷ (" .. tp4.block_size .. " × " .. n(tp4_gpu) .. " B)⌋ = ⌊"
  .. n(tp4.kv_budget_bytes) .. " ÷ " .. n(tp4.block_bytes) .. "⌋\n"
  .. "         = " .. n(tp4.num_gpu_blocks) .. " blocks on each GPU (log: 5,043,280 tokens ÷ 16\n"
  .. "         = 315,205: 67.34 GiB is itself rounded, ±0.005 GiB = ±"
  .. fixed(0.005 * 2^30 / tp4.block_bytes, 0) .. " blocks)"

return lesson {
  id = "tensor-parallel-kv",
  title = "Tensor parallelism and the KV cache",
  module = "part0-foundations",
  baseline = "Shoeybi et al., \"Megatron-LM\" (2019), attention heads split across GPUs; vLLM's "
          .. "KV-head partitioning and replication (vLLM 0.26, vllm/config/model.py: "
          .. "ModelConfig.get_num_kv_heads) and MLA's "
          .. "unsplit latent; two public vLLM 0.19 start-up logs on H100s (llm-d-planner "
          .. "accuracy results): Qwen2.5-7B TP 4 with 67.34 GiB, 5,043,280 tokens, 615.63x; "
          .. "DeepSeek-V2-Lite TP 4 with 63.73 GiB, 2,199,888 tokens",
  concept = "tensor-parallel",
  concept_title = "KV under tensor parallelism",
  requires = {"shrinking-kv"},
  links = {"shrinking-kv", "sizing-deployment"},

  question = "You serve a model with tensor parallelism across 4 GPUs. How is the KV cache "
          .. "divided between them, and when does adding GPUs stop shrinking each GPU's share?",

  answer = "Tensor parallelism gives each GPU a slice of every layer's attention heads, and "
        .. "each GPU caches keys and values only for its own KV heads. With 4 KV heads and TP 4, "
        .. "each GPU holds one head: a quarter of the per-token cache, on top of a quarter of "
        .. "the weights. Once TP exceeds the number of KV heads, under plain TP the heads cannot be "
        .. "split further and are replicated: each GPU still holds a whole head, so its share stops "
        .. "shrinking and the cluster stores copies. An MLA model's latent is read by every "
        .. "head, so under plain TP every GPU keeps all of it; decode context parallelism "
        .. "(splitting the cache by token across c GPUs of the TP group, c dividing the TP "
        .. "size) or data-parallel attention "
        .. "with expert parallelism is what avoids that copy.",

  points = {
    point { "each GPU caches only its own KV heads", weight = 2,
            about = {"each GPU", "every GPU", "GPU", "tensor parallelism", "TP"},
            said = {"its own KV heads", "its own heads", "its heads", "subset of heads", "slice",
                    "split the heads", "heads are split", "own heads"},
            short = {"by KV heads", "by head", "by heads", "split by KV heads", "split by head",
                     "divided by KV head", "divided by head"} },
    point { "the per-GPU cache shrinks by the TP degree", weight = 2,
            about = {"per-GPU cache", "each GPU", "cache per GPU", "share", "per-token cache"},
            said = {"quarter", "divided by", "÷ TP", "shrinks", "fraction", "TP times less", "one head"} },
    point { "past the KV head count, heads are replicated", weight = 2,
            about = {"heads", "KV heads", "TP exceeds", "more GPUs than KV heads", "share", "per-GPU KV",
                     "per-GPU cache"},
            said = {"replicated", "copies", "duplicated", "stops shrinking", "cannot be split",
                    "doesn't shrink any more", "does not shrink any more", "no longer shrinks"},
            accept = {"until tp exceeds", "once tp exceeds", "until tp is larger than", "past the kv head count",
                      "more gpus than kv heads"} },
    point { "under plain TP an MLA latent is not split by head",
            about = {"MLA", "latent", "MLA model"},
            said = {"not split", "every GPU", "all of it", "whole", "replicated", "read by every head"} },
  },
  misconceptions = {
    misconception { about = {"each GPU", "every GPU", "the sequence", "the tokens", "GPU 0", "each rank"},
                    said = {"quarter of the tokens", "first quarter", "sharded by tokens", "sharded by position", "token ranges",
                            "splits the tokens", "splits the sequence", "split by tokens", "a range of tokens", "part of the sequence",
                            "its own part of the sequence"},
                    unless = {"context parallel", "DCP", "decode context", "decode-context-parallel", "ring attention",
                              "sequence parallel", "context-parallel", "of the latent"},
                    why = "tensor parallelism splits the KV heads, not the tokens: every GPU holds every token's keys and values for its own heads (KV heads ÷ TP, replicated when there are fewer KV heads than GPUs)" },
    misconception { about = {"cache", "KV cache", "each GPU", "every GPU"},
                    said = {"full cache on every GPU", "whole cache on every GPU", "holds the whole cache",
                            "full cache for all heads", "whole cache for all heads", "full KV cache for all heads",
                            "whole KV cache for all heads"},
                    why = "each GPU caches only the KV heads it computes: a 1/TP share, until TP passes the KV head count (only an MLA latent, which every head reads, is held whole on every GPU)" },
    misconception { about = {"adding GPUs", "more GPUs", "TP"},
                    said = {"always shrinks", "keeps shrinking", "shrinks forever"},
                    why = "past the KV head count the heads are replicated: each GPU still holds a whole head" },
  },

  sections = {
    section {
      title = "Heads go to GPUs",
      text = "Megatron-style tensor parallelism splits each attention layer by heads: with TP "
          .. "4, Qwen2.5-7B's " .. qwen.heads .. " query heads become 7 per GPU and its "
          .. qwen.kv_heads .. " KV heads one per GPU. A GPU computes attention for its heads "
          .. "only, so it needs only their keys and values: " .. n(per_gpu(MODEL, 4))
          .. " bytes a token instead of " .. n(per_gpu(MODEL, 1)) .. ". The weights are split "
          .. "the same way, so each GPU frees memory twice over.",
    },
    section {
      title = "What a real start-up log shows",
      text = "A public vLLM 0.19 log of Qwen2.5-7B at TP 4 on H100s reports 67.34 GiB of KV "
          .. "memory available on each GPU and a GPU KV cache of 5,043,280 tokens (V1 logs "
          .. "tokens, not blocks): 315,205 blocks of 16. A block on one GPU holds 16 "
          .. "tokens × " .. n(per_gpu(MODEL, 4)) .. " bytes; the calculator gets "
          .. n(tp4.num_gpu_blocks) .. " blocks from the rounded GiB and a maximum concurrency "
          .. "of " .. string.format("%.2f", tp4.max_concurrency) .. " for 8,192 tokens; the log "
          .. "says 615.63. Every GPU holds the same block numbers for its own heads, so the "
          .. "blocks are not multiplied by four.",
    },
    section {
      title = "When TP outgrows the KV heads",
      text = "Llama-3.1-70B has 8 KV heads. At TP 8 each GPU holds one: "
          .. n(per_gpu("llama-3.1-70b", 8)) .. " bytes a token. At TP 16 there is half a head "
          .. "per GPU, which cannot be split, so vLLM gives each pair of GPUs a copy of one "
          .. "head: still " .. n(per_gpu("llama-3.1-70b", 16)) .. " bytes a token on each "
          .. "GPU. Doubling the GPUs halved the weights per GPU but left the cache per GPU "
          .. "where it was. That is plain TP (vLLM 0.26, ModelConfig.get_num_kv_heads: "
          .. "max(1, KV heads // TP)). vLLM's decode context parallelism was made for these "
          .. "copies: for a grouped-query model it needs TP above the KV heads and at most "
          .. "TP // KV heads ranks, and the query heads per KV head must divide by its size "
          .. "(vLLM 0.26, ModelConfig.verify_with_parallel_config in "
          .. "vllm/config/model.py; Llama-3.1-70B has 8, so 2 is fine), and then a head's "
          .. "copies hold different tokens. At TP 16 "
          .. "with --decode-context-parallel-size 2 each GPU averages "
          .. n(per_gpu("llama-3.1-70b", 16) / 2) .. " bytes a token, where the attention "
          .. "backend supports it (vLLM refuses one that cannot return the softmax statistics "
          .. "the ranks' partial results are merged with).",
    },
    section {
      title = "MLA is not split by head",
      text = "An MLA model caches one latent per token per layer that every head expands from. "
          .. "Splitting heads across GPUs does not split the latent: under plain TP each GPU "
          .. "keeps it whole (vLLM 0.26, ModelConfig.get_num_kv_heads gives an MLA model one "
          .. "head on every GPU). "
          .. "DeepSeek-V2-Lite (27 layers, 512 + 64 dimensions) holds "
          .. n(27 * 576 * 2) .. " bytes a token on every GPU at any TP; its TP 4 log reports "
          .. "2,199,888 tokens of cache from 63.73 GiB per GPU, and the calculator gets "
          .. n(lite.kv_tokens) .. " (with vLLM's configured 16-token blocks; a backend such as "
          .. "FlashMLA asks for 64, CUTLASS MLA for 128, which moves the rounding, not the bytes "
          .. "a token). Every GPU gets the same number of blocks: vLLM sizes all ranks to the "
          .. "one with the least free memory (get_kv_cache_configs). Under plain TP, more GPUs add room only through the "
          .. "weights they take off each GPU. vLLM's decode context parallelism "
          .. "(--decode-context-parallel-size c, dividing the TP size) splits by token instead: "
          .. "each GPU of the group keeps every c-th token, " .. n(27 * 576 * 2 / 4)
          .. " bytes a token per GPU at c = 4, and data-parallel attention with expert "
          .. "parallelism gives each GPU its own requests' latents instead of copies, at the "
          .. "price of a whole copy of the attention and other non-expert weights on every GPU "
          .. "(only the experts are split). Its prefill counterpart, prefill context "
          .. "parallelism (--prefill-context-parallel-size, ParallelConfig), splits a long "
          .. "prompt's tokens over GPUs to cut its prefill time, and it too stripes the cache "
          .. "by token over its ranks (get_cp_local_seq_lens gives each PCP and DCP rank its "
          .. "share of a request's tokens).",
    },
  },

  worked = code [[
TP 1     2 × 28 layers × 4 KV heads × 128 × 2 B    = 57,344 B a token on the one GPU
TP 4     4 KV heads ÷ 4 GPUs = 1 head each         = 14,336 B a token per GPU
log      67.34 GiB ÷ (16 × 14,336 B)               = 315,228 blocks (log: 315,205)
         315,228 × 16 ÷ 8,192                      = 615.7x (log: 615.63x)
TP 16    Llama-3.1-70B: 8 KV heads < 16 GPUs → replicated, 1 head each = 40,960 B per GPU
MLA      27 × (512 + 64) × 2 B = 31,104 B per GPU at any TP
         63.73 GiB ÷ 31,104 B                      = 2,200,016 tokens (log: 2,199,888)]],

  followups = {
    followup {
      question = "Why not just use pipeline parallelism instead, to avoid replication?",
      answer = "Pipeline parallelism splits by layers: each stage holds its layers' weights and "
            .. "its layers' cache, for all heads, so no head is ever copied and the cache per "
            .. "GPU falls with the number of stages. The price is that a token passes through "
            .. "the stages one after another, so a single sequence gets no faster, and keeping "
            .. "every stage busy needs several batches in flight; tensor parallelism instead "
            .. "speeds up each step but needs fast links for its all-reduces.",
      points = {
        point { "pipeline stages split the layers",
                about = {"pipeline parallelism", "pipeline parallel", "it", "PP"},
                said = {"layers", "by layer", "stages"} },
        point { "each stage caches only its layers, no copies",
                accept = {"its layers", "no replication", "no copies", "not copied", "avoids replication"} },
        point { "stages run one after another: latency and bubbles", weight = 3,
                about = {"token", "single sequence", "sequence", "it", "stages", "latency", "PP"},
                said = {"one after another", "no faster", "sequential", "in turn", "batches in flight",
                        "no speed-up", "no speedup", "doesn't cut per-token latency", "does not cut the latency",
                        "doesn't speed up", "does not speed up", "micro-batches in flight"},
                accept = {"bubble"} },
        point { "TP needs fast interconnect for all-reduce",
                accept = {"all-reduce", "allreduce", "nvlink", "interconnect", "communication"} },
      },
      misconceptions = {
        misconception { about = {"pipeline parallelism", "pipeline", "PP"},
                        said = {"faster per token", "lower latency", "speeds up each step", "makes a sequence faster",
                                "runs faster", "cuts per-token latency", "cuts the latency", "cuts latency",
                                "reduces latency", "reduces the latency"},
                        why = "stages run one after another: a single sequence gets no faster; tensor parallelism is what speeds up each step" },
      },
    },
    followup {
      question = "vLLM refuses TP 8 for Qwen2.5-7B. Why?",
      answer = "Tensor parallelism gives every GPU the same number of query heads, so the degree "
            .. "must divide the 28 query heads; 8 does not. The 4 KV heads must also share out "
            .. "evenly: either TP divides them (TP 2 or 4) or they divide TP, each head copied "
            .. "to the same number of GPUs. TP 7 divides the query heads but fails that second "
            .. "rule. Past the heads, every sharded matrix must divide too: TP 28 gives one "
            .. "query head per GPU and copies each KV head 7 times, but the MLP's intermediate "
            .. "size, 18,944, does not split 28 ways. So for this model TP 1, 2 and 4 work.",
      points = {
        point { "the TP degree must divide the attention heads", weight = 2,
                about = {"TP degree", "degree", "TP", "tensor parallelism", "query heads", "heads",
                         "attention heads", "28 attention heads", "28 heads"},
                said = {"divide", "divisible", "evenly", "not divisible by 8", "does not divide",
                        "isn't a whole number", "not a whole number", "doesn't split evenly", "don't split 8 ways"} },
        point { "the KV heads must split or replicate evenly",
                about = {"KV heads", "4 KV heads"},
                said = {"evenly", "divide", "replicate", "copied", "share out"} },
      },
      misconceptions = {
        misconception { about = {"TP 8", "8 GPUs", "it", "the model"},
                        said = {"out of memory", "not enough memory", "too big", "too small for 8"},
                        why = "tensor parallelism must divide the attention heads: 28 query heads do not split over 8 GPUs" },
        misconception { about = {"28 query heads", "query heads", "the query heads"},
                        said = {"don't matter", "do not matter", "are divisible by 8", "divisible by 8", "irrelevant"},
                        why = "28 query heads do not divide by 8: that is the check that fails; 4 KV heads could be replicated" },
        misconception { about = {"number of layers", "layers", "28 layers"},
                        said = {"must divide", "divide", "don't split", "do not split", "split 8 ways"},
                        why = "tensor parallelism splits each layer's heads, not the layers; pipeline parallelism is what splits layers" },
      },
    },
    followup {
      question = "An MoE model with MLA (DeepSeek-style) on 8 GPUs: why do deployments run "
              .. "data-parallel attention with expert parallelism rather than TP 8?",
      answer = "Under TP 8 every GPU holds the full MLA latent cache of every request, so eight "
            .. "GPUs' KV memory stores one cache eight times. With data-parallel attention each "
            .. "GPU runs attention for its own requests and keeps only their latents, so the "
            .. "cluster holds eight times as many tokens; the expert layers are shared out with "
            .. "expert parallelism (--enable-expert-parallel), each GPU holding some experts and "
            .. "tokens sent to them by all-to-all. The price: the DP ranks must step together, "
            .. "running dummy forward passes when one has no requests (vLLM's Data Parallel "
            .. "Deployment guide).",
      points = {
        point { "under TP the latent is duplicated on every GPU", weight = 2,
                about = {"TP 8", "tensor parallelism", "TP", "every GPU", "under TP", "MLA cache", "the MLA cache",
                         "latent cache", "the latent", "each of the eight GPUs", "all eight GPUs", "all 8 GPUs"},
                said = {"full MLA latent cache", "full latent", "duplicated", "one cache eight times", "copies",
                        "replicated", "whole latent"} },
        point { "DP attention: each GPU keeps only its own requests' cache", weight = 2,
                about = {"data-parallel attention", "DP attention", "data parallel attention", "each GPU"},
                said = {"its own requests", "only their latents", "own requests", "eight times as many tokens",
                        "no copies", "different requests", "each request's latent", "on one GPU"} },
        point { "the experts are shared out with expert parallelism",
                accept = {"expert parallel", "enable-expert-parallel", "all-to-all", "experts are split",
                          "some experts", "experts across", "shares the experts", "experts are shared",
                          "shards the experts"} },
        point { "the ranks must step together",
                accept = {"step together", "dummy", "synchron", "lockstep", "aligned"} },
      },
      misconceptions = {
        misconception { about = {"MLA", "DeepSeek's MLA", "the MLA cache", "MLA's cache", "the latent cache"},
                        said = {"has 128 KV heads", "caches 128 KV heads", "is split 16 per GPU", "splits 16 heads per GPU",
                                "caches many KV heads", "splits its cache 16 per GPU"},
                        unless = {"query heads", "in prefill", "expands", "up-project", "decompress"},
                        why = "MLA caches one latent vector per token and layer, shared by every head, so tensor parallelism cannot split it: each GPU holds the whole latent cache" },
        misconception { about = {"data-parallel attention", "DP attention", "data parallel attention"},
                        said = {"duplicates the cache", "copies the cache", "replicates the KV cache"},
                        why = "each DP rank holds only its own requests' cache; it is TP that copies an MLA latent to every GPU" },
        misconception { about = {"TP 8", "tensor parallelism", "TP"},
                        said = {"splits the latent", "shards the MLA cache", "divides the latent", "splits the MLA cache"},
                        why = "every head reads the one latent per token, so TP gives every GPU all of it" },
        misconception { about = {"MLA latent", "the latent", "latent", "MLA cache"},
                        said = {"split by head", "split eight ways by head", "sharded by head", "split across the heads",
                                "divided by head"},
                        why = "every head reads the one latent per token, so TP cannot split it by head: every GPU holds all of it" },
        misconception { about = {"expert parallelism", "expert parallel", "EP"},
                        said = {"copies all the experts", "copies the experts", "replicates the experts",
                                "every expert on every GPU", "all the experts to every GPU"},
                        why = "expert parallelism gives each GPU its share of the routed experts and sends tokens to them by all-to-all; only a shared expert, and any redundant copies of busy experts that EPLB is asked for, sit on more than one GPU" },
      },
    },
  },

  exercises = {
    numeric {
      id = "tp2-per-gpu",
      prompt = "Qwen2.5-7B (28 layers, 4 KV heads of 128 dims, BF16) runs at TP {tp}. How many "
            .. "KiB of cache does each GPU hold per token?",
      -- one value drawn, so the per-GPU diagnoses know the TP: 56 KiB is the cache not
      -- divided by TP (2 x 28 x 4 x 128 x 2 B = 57,344 B; 28,672 B = 28 KiB per GPU)
      params = { tp = {2} },
      expected = function(p)
        local b = per_gpu(MODEL, p.tp)
        return b / 1024, "heads    4 KV heads ÷ TP " .. p.tp .. " = " .. 4 // p.tp .. " a GPU\n"
          .. "per GPU  2 × 28 layers × " .. 4 // p.tp .. " × 128 dims × 2 B = " .. grouped(b)
          .. " B = " .. fixed(b / 1024, 0) .. " KiB"
      end,
      unit = "KiB", per = "token", tolerance = rel(0.01), model = MODEL,
      hints = { "Each GPU holds 2 of the 4 KV heads.", "2 × 28 × 2 × 128 × 2 B." },
    },
    numeric {
      id = "log-blocks",
      prompt = "vLLM 0.19 logged \"Available KV cache memory: 67.34 GiB\" on each GPU for "
            .. "Qwen2.5-7B (28 layers, 4 KV heads of 128 dims, BF16) at TP 4. How many 16-token "
            .. "blocks does each GPU hold?",
      expected = tp4.num_gpu_blocks, unit = "blocks", tolerance = rel(0.001),
      worked = code("heads    " .. qwen.kv_heads .. " KV heads ÷ TP 4 = " .. tp4.kv_heads_per_gpu
        .. " on each GPU\n"
        .. "per GPU  2 × " .. qwen.layers .. " layers × " .. tp4.kv_heads_per_gpu .. " head × " .. qwen.head_dim
        .. " dims × 2 B = " .. n(tp4_gpu) .. " B a token\n"
        .. tp4_blocks),
      hints = { "Each GPU holds one KV head: 14,336 B a token.", "67.34 × 2^30 ÷ (16 × 14,336)." },
    },
    numeric {
      id = "log-concurrency",
      prompt = "From those blocks, what maximum concurrency does vLLM report for requests of "
            .. "8,192 tokens?",
      expected = tp4.max_concurrency, unit = "x", tolerance = rel(0.002),
      worked = code(tp4_blocks .. "\n"
        .. "tokens   " .. n(tp4.num_gpu_blocks) .. " × " .. tp4.block_size .. " = "
        .. n(tp4.num_gpu_blocks * tp4.block_size) .. " tokens\n"
        .. "request  ⌈8,192 (max_model_len) ÷ " .. tp4.block_size .. "⌉ = " .. n(tp4.blocks_per_request)
        .. " blocks\n"
        .. "conc.    " .. n(tp4.num_gpu_blocks) .. " ÷ " .. n(tp4.blocks_per_request) .. " = "
        .. n(tp4.num_gpu_blocks * tp4.block_size) .. " ÷ 8,192 = "
        .. string.format("%.2f", tp4.max_concurrency) .. "x\n"
        .. "         (log: 615.63x, from its own 315,205 blocks)"),
      hints = { "Blocks × 16 tokens ÷ 8,192." },
    },
    numeric {
      id = "llama70b-tp",
      prompt = "Llama-3.1-70B (80 layers, 8 KV heads of 128 dims) runs at TP {tp}, without "
            .. "decode context parallelism. How many KiB of BF16 cache does each GPU hold per "
            .. "token?",
      params = { tp = {1, 2, 4, 8, 16} },
      expected = function(p)
        local m, r = kv.model("llama-3.1-70b"), kv.calc{model = "llama-3.1-70b", tp = p.tp}
        local b = per_gpu("llama-3.1-70b", p.tp)
        return b / 1024, "heads/GPU   max(1, ⌊" .. m.kv_heads .. " KV heads ÷ TP " .. p.tp .. "⌋) = max(1, "
          .. m.kv_heads // p.tp .. ") = " .. r.kv_heads_per_gpu .. "\n"
          .. (p.tp > m.kv_heads and ("            (each KV head copied to " .. p.tp .. " ÷ " .. m.kv_heads
            .. " = " .. p.tp // m.kv_heads .. " GPUs)\n") or "")
          .. "per token   2 × " .. m.layers .. " layers × " .. r.kv_heads_per_gpu
          .. (r.kv_heads_per_gpu == 1 and " KV head/GPU × " or " KV heads/GPU × ")
          .. m.head_dim .. " dims × 2 B\n            = " .. grouped(b) .. " B = " .. fixed(b / 1024, 0)
          .. " KiB"
      end,
      unit = "KiB", per = "token", tolerance = rel(0.01), model = "llama-3.1-70b",
      hints = { "KV heads per GPU: 8 ÷ TP, but never fewer than one.",
                "2 × 80 × heads per GPU × 128 × 2 B." },
    },
    numeric {
      id = "mla-tokens",
      prompt = "DeepSeek-V2-Lite (MLA: 27 layers, latent 512 + 64 dimensions, BF16) runs at TP "
            .. "4 with 63.73 GiB of KV memory on each GPU. How many tokens of cache does that hold?",
      expected = lite.kv_tokens, unit = "tokens", tolerance = rel(0.001),
      worked = code("latent   27 layers × (512 + 64) × 2 B = " .. n(lite.kv_bytes_per_token)
        .. " B a token: one latent,\n"
        .. "         no separate K and V, and whole on every GPU at TP 4\n"
        .. "block    " .. lite.block_size .. " × " .. n(lite.kv_bytes_per_token) .. " B = "
        .. n(lite.block_bytes) .. " B\n"
        .. "blocks   ⌊63.73 × 2^30 B ÷ " .. n(lite.block_bytes) .. " B⌋ = ⌊" .. n(lite.kv_budget_bytes)
        .. " ÷ " .. n(lite.block_bytes) .. "⌋ = " .. n(lite.num_gpu_blocks) .. "\n"
        .. "tokens   " .. n(lite.num_gpu_blocks) .. " × " .. lite.block_size .. " = "
        .. n(lite.kv_tokens) .. " tokens (log: 2,199,888)\n"
        .. "         (16-token blocks, as the log's count is a multiple of 16, not 64;\n"
        .. "         63.73 GiB is itself rounded, ±"
        .. fixed(0.005 * 2^30 / lite.block_bytes, 0) .. " blocks)"),
      slips = { latent_split = lite_split, kv_doubled = lite_doubled },
      hints = { "The latent is not split: every GPU holds 27 × 576 × 2 B a token.",
                "Whole 16-token blocks: ⌊63.73 × 2^30 ÷ (16 × 31,104)⌋ × 16." },
    },
    choice {
      id = "replicated",
      prompt = "Going from TP 8 to TP 16 for Llama-3.1-70B (8 KV heads) does what to each GPU's "
            .. "memory?",
      options = {
        option { "Halves its weights; its cache per token stays the same", correct = true,
                 why = "one KV head per GPU already; at 16 each head is copied to two GPUs" },
        option { "Halves both the weights and the cache per token",
                 why = "a KV head cannot be split across GPUs" },
        option { "Doubles the cache per token",
                 why = "each GPU still holds exactly one head" },
        option { "Nothing: TP only changes speed",
                 why = "TP splits the weights, so each GPU holds less of them" },
      },
    },
  },
}
