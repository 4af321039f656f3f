-- Part 0 · Foundations: prefix caching. Requests that start with the same
-- tokens can point at the same KV blocks; only whole blocks are shared.

local MODEL = "qwen2.5-7b"
local GiB = 2^30
local SHARED = 2000      -- tokens of system prompt every request starts with
local OWN = 500          -- tokens each request adds (its question and its answer)
local N = 20             -- requests in flight
local BLOCK = 16

local block_bytes = kv.calc{model = MODEL, seq = BLOCK}.block_bytes  -- 917,504 B
local function blocks(tokens)
  return kv.calc{model = MODEL, seq = tokens}.blocks_per_request
end
-- Without sharing every request holds its whole context; with it, the full
-- blocks of the prefix are held once and each request keeps the rest.
local shared_full = SHARED // BLOCK
local without = N * blocks(SHARED + OWN) * block_bytes
local with = (shared_full + N * blocks(SHARED + OWN - shared_full * BLOCK)) * block_bytes

local function f(x, places) return fixed(x, places or 2) end
local n = grouped -- 57344 -> "57,344"

-- for the exercises' worked lines
local per_token = block_bytes // BLOCK                                -- 57,344 B
local own_tokens = SHARED + OWN - shared_full * BLOCK                 -- 500

return lesson {
  id = "prefix-caching",
  title = "Prefix caching: store a shared prompt once",
  module = "part0-foundations",
  baseline = "vLLM V1 automatic prefix caching (vllm/v1/core/kv_cache_utils.py: a block's hash "
          .. "chains its parent's hash with its tokens; only full blocks are cached); "
          .. "Zheng et al., \"SGLang: Efficient Execution of Structured Language Model Programs\" "
          .. "(2023), RadixAttention",
  concept = "prefix-caching",
  concept_title = "Prefix caching",
  requires = {"paged-attention"},
  links = {"paged-attention", "continuous-batching", "shrinking-kv"},

  question = "Your chat service puts the same 2,000-token system prompt in front of every "
          .. "request. What does prefix caching save, how does vLLM find the shared part, and "
          .. "when does it not help?",

  answer = "Keys and values depend only on the tokens before them, so requests that start with "
        .. "the same tokens have identical caches for that prefix. vLLM hashes each full "
        .. "16-token block together with the hash of the block before it; a new request whose "
        .. "blocks hash the same reuses those physical blocks instead of computing and storing "
        .. "them again. That saves memory (the prefix is held once, not once per request) and "
        .. "prefill time (the cached tokens are not recomputed). It does not help when prompts "
        .. "differ early, even by one token at the start, when the shared part is shorter than a "
        .. "block, or when memory pressure evicts the cached blocks before the next request.",

  points = {
    point { "a shared prefix has an identical cache", weight = 2,
            about = {"shared prefix", "same prefix", "same tokens", "keys and values", "prefix"},
            said = {"identical", "same cache", "depends only", "depend only", "same keys"},
            accept = {"identical kv", "identical cache", "same kv", "computed once"} },
    point { "blocks are found by hashing their tokens and their parent", weight = 2,
            about = {"vLLM", "blocks", "each block", "it", "lookup"},
            said = {"hash", "lookup"},
            accept = {"hash"} },
    point { "it saves memory and prefill compute", weight = 2,
            about = {"it", "prefix caching", "that", "cached tokens", "reuse"},
            said = {"saves memory", "prefill", "time to first token", "held once", "stored once",
                    "not recomputed", "memory"},
            accept = {"saves prefill", "saves the prefix's prefill", "skips recomputing", "skip recomputing",
                      "saves memory and prefill", "stored once", "prefill and memory"} },
    point { "no help when prompts differ early or blocks are evicted",
            about = {"it", "prefix caching", "prompts", "blocks", "cached blocks"},
            said = {"does not help", "differ", "evict", "unique", "timestamp", "shorter than a block"} },
  },
  misconceptions = {
    misconception { about = {"vLLM", "it", "the hash", "the block hash", "each block's hash"},
                    said = {"together with the sampling parameters", "with the sampling parameters", "and the sampling parameters",
                            "sampling parameters into the hash", "hashes the temperature", "together with the temperature"},
                    why = "a block's hash covers its tokens, the parent block's hash and extra keys such as the LoRA adapter, multimodal inputs or a cache salt, never the sampling parameters (hash_block_tokens, generate_block_hash_extra_keys)" },
    misconception { about = {"different temperatures", "different sampling parameters", "another temperature", "different top-p"},
                    said = {"does not help", "doesn't help", "breaks the hit", "no hit", "misses the cache"},
                    why = "sampling happens after the prefill: requests with different temperatures hit the same cached blocks" },
    misconception { about = {"the prefill", "the full prefill", "the whole prefill"},
                    said = {"still runs in full", "still runs anyway", "is still computed for every request", "still computed for every request", "still runs for every request anyway", "still runs for every request", "still runs for every request with a hit", "still runs for every request on a hit", "still runs in full on a hit", "still runs even on a hit",
                            "is recomputed even when cached", "still runs even when cached", "still runs even when the prefix is cached"},
                    unless = {"differ", "miss", "no hit", "own tokens", "the rest", "uncached", "suffix", "last token",
                              "unique", "evicted", "disabled", "turned off", "is off", "caching off",
                              "different", "changes", "changed"},
                    why = "a hit skips the cached prefix's prefill: the scheduler starts the request after its cached tokens (KVCacheManager.get_computed_blocks gives num_computed_tokens), so only the rest is computed" },
    misconception { about = {"identical blocks", "duplicate blocks", "the blocks", "blocks"},
                    said = {"deduplicated afterwards", "deduplicated after the prefill", "deduplicated after prefill", "deduplicated after it runs"},
                    why = "nothing is merged after the fact: a request's block hashes are looked up before its prefill is scheduled, and a block enters the cache when it is allocated for the step that computes it, so a second identical prompt admitted later in the same step already shares the full blocks the first one's scheduled chunk fills (KVCacheManager.allocate_slots, cache_blocks; a hybrid model's Mamba group defers it to the next step); blocks computed apart are never merged afterwards" },
    misconception { about = {"it", "prefix caching", "the cache", "the hash", "the block hash"},
                    said = {"does not help when requests use different temperatures",
                            "doesn't help when requests use different temperatures", "doesn't work with different temperatures",
                            "does not work with different temperatures", "breaks with different temperatures",
                            "fails when requests use different temperatures", "fails when the temperatures differ",
                            "needs the same temperature", "needs the same sampling parameters", "must match the sampling parameters",
                            "temperature is part of the hash", "sampling parameters are hashed", "hashes the sampling parameters",
                            "includes the temperature", "includes the sampling parameters",
                            "stops helping when requests use different", "stops helping with different temperatures",
                            "stops working when requests use different", "doesn't help with different temperatures",
                            "can't share blocks across different", "cannot share blocks across different", "can't share across different",
                            "only works if requests share the same temperature", "only works with the same temperature",
                            "covers the tokens and the sampling parameters", "covers the sampling parameters", "hashes the temperature"},
                    why = "sampling parameters are not in a block's hash: it covers the tokens and extra keys for LoRA, multimodal inputs, prompt embeddings and cache_salt (kv_cache_utils.hash_block_tokens, generate_block_hash_extra_keys), so requests with different temperatures share a prefix" },
    misconception { about = {"prefix caching", "it"},
                    said = {"makes decode faster", "speeds up decode", "faster decode", "fewer decode reads"},
                    why = "decode still reads every sequence's whole context, shared blocks included; the saving is prefill and memory" },
    misconception { about = {"prompts", "requests"},
                    said = {"only need to be similar", "similar enough", "roughly the same", "semantically similar"},
                    why = "only identical tokens from the first one on share a cache: each block's hash includes the block before it" },
    misconception { about = {"vLLM", "it", "prefix caching", "prefixes", "the lookup", "the cache"},
                    said = {"radix tree", "RadixAttention"},
                    why = "vLLM keeps no tree: a table maps each full block's hash, which chains its parent's hash, to the cached block (BlockPool.cached_block_hash_to_block), and a lookup walks the prompt's block hashes until the first miss; the radix tree is SGLang's RadixAttention" },
  },

  sections = {
    section {
      title = "Why a prefix's cache can be shared",
      text = "A token's key and value at a layer are computed from that token and, through "
          .. "attention, from the tokens before it, never from tokens after it. So two "
          .. "requests that begin with the same " .. n(SHARED) .. " tokens hold byte-for-byte the "
          .. "same cache for those tokens, whatever follows. Storing it twice is pure waste.",
    },
    section {
      title = "How vLLM finds it",
      text = "When a block of 16 tokens fills, vLLM computes its hash from the parent block's "
          .. "hash and the block's own tokens (plus extra keys such as a LoRA adapter or image "
          .. "inputs). The chain makes a block's hash stand for the whole prefix up to it. A new "
          .. "request hashes its prompt's full blocks and walks the table until the first miss; "
          .. "everything before the miss is reused, except that the last prompt token is always "
          .. "computed again so the step has logits to sample from "
          .. "(KVCacheManager.get_computed_blocks caps a hit at the prompt's length − 1): a "
          .. "prompt cached whole, block-aligned, gives up its last block. Freed blocks stay cached until memory is "
          .. "needed and are evicted roughly least recently used first: the free queue hands "
          .. "out the block freed longest ago, and a finished request frees its blocks tail "
          .. "first (SingleTypeKVCacheManager.free, reached through KVCacheManager.free), so its own last blocks go before the prefix it "
          .. "shares. In vLLM V1 prefix caching is on by default, the hash is sha256 (the default "
          .. "since v0.10.2; Python's built-in hash before) unless "
          .. "--prefix-caching-hash-algo says otherwise, and a request's cache_salt keeps its "
          .. "blocks apart from other tenants'.",
    },
    section {
      title = "What it saves",
      text = N .. " requests each hold the " .. n(SHARED) .. "-token system prompt and " .. OWN
          .. " tokens of their own. Unshared, each needs " .. blocks(SHARED + OWN) .. " blocks: "
          .. f(without / GiB) .. " GiB of Qwen2.5-7B cache in all. Shared, the prompt's "
          .. shared_full .. " blocks are held once and each request adds "
          .. blocks(SHARED + OWN - shared_full * BLOCK) .. ": " .. f(with / GiB) .. " GiB, "
          .. f((1 - with / without) * 100, 0) .. "% less. The same tokens also skip prefill, "
          .. "which shortens the time to the first token.",
    },
    section {
      title = "When it does not help",
      text = "Only full blocks are shared (in 0.26 a hybrid model may set --prefix-match-unit "
          .. "finer than its physical block, vllm#46384, lesson 15), and the chain breaks at "
          .. "the first differing token: "
          .. "a timestamp or user name at the top of the system prompt makes every request's "
          .. "first block different and nothing is reused. Unique prompts (one-off documents, "
          .. "random benchmarks) share nothing. A request that asks for prompt_logprobs skips "
          .. "the lookup, since its logprobs need every prompt position computed "
          .. "(SamplingParams sets skip_reading_prefix_cache for it). Under memory pressure the cached blocks are the "
          .. "first evicted; in 0.26 --kv-offloading-size (GiB of host memory, summed over the "
          .. "TP ranks; off by default) keeps copies of blocks in CPU memory through a KV "
          .. "connector, so an evicted prefix can be loaded back instead of computed again. "
          .. "How often the cache hits is in the server's metrics: vllm:prefix_cache_queries "
          .. "and vllm:prefix_cache_hits count prompt tokens looked up and found (scraped as "
          .. "..._total; the hit rate is the rate of hits over the rate of queries). And decode speed is unchanged by default: every sequence still "
          .. "reads its whole context at every step, shared blocks included. The exception is "
          .. "cascade attention: when every running request shares a long prefix (the common "
          .. "prefix counts only blocks all of them hold, "
          .. "KVCacheManager.get_num_common_prefix_blocks), vLLM V1's FlashAttention backend "
          .. "(the only V1 backend that does: FlashInfer's use_cascade_attention has returned False "
          .. "since October 2025, vllm-project/vllm#26130, after wrong results) can attend over the shared blocks once for the whole batch "
          .. "and read them once. It has been opt-in since March 2026 (vllm-project/vllm#36318, "
          .. "for numerical safety; earlier V1 releases used it when the heuristic said so): "
          .. "vllm/config/model.py's ModelConfig.disable_cascade_attn defaults to True, and "
          .. "--no-disable-cascade-attn turns it on, "
          .. "and even then a heuristic decides per step whether to use it.",
    },
  },

  worked = code [[
unshared     ⌈(2,000 + 500) ÷ 16⌉          = 157 blocks per request
             20 × 157 × 917,504 B          = 2.68 GiB
shared       2,000 ÷ 16                    = 125 blocks, held once
             20 × ⌈500 ÷ 16⌉ = 20 × 32     = 640 blocks of their own
             (125 + 640) × 917,504 B       = 0.65 GiB, 76% less
partial      a 2,010-token prefix shares ⌊2,010 ÷ 16⌋ = 125 blocks; 10 tokens are redone]],

  followups = {
    followup {
      question = "Prefix caching is on, but the hit rate is near zero although every request "
              .. "uses the same system prompt. What would you check?",
      answer = "Whether the prompts really are identical from the first token: templates often "
            .. "put a date, a request id or the user's name at the top, which changes the first "
            .. "block and therefore every hash after it. Then whether the cached blocks survive "
            .. "between requests: with the cache full, they are evicted before they are reused "
            .. "(--kv-offloading-size, or LMCache through a KV connector, keeps evicted blocks in "
            .. "CPU memory to load back). A different LoRA adapter, or different images in a multimodal prompt, also change "
            .. "the hash. And read the figure per engine: every replica, and every data-parallel "
            .. "rank, keeps its own prefix cache, so a prompt cached on one is a miss on the "
            .. "others until each has computed it once, and a user's earlier turns hit only on "
            .. "the replica that served them: a router that scatters turns over N replicas finds "
            .. "that history on about 1 in N (the shared system prompt still hits everywhere).",
      points = {
        point { "something variable at the start of the prompt", weight = 2,
                about = {"prompt", "prompts", "template", "start", "first block", "first token",
                         "system prompt", "anything", "something", "per-request"},
                said = {"timestamp", "date", "user name", "request id", "changes", "differ", "not identical",
                        "variable", "varying", "before the shared", "at the very start", "at the start"},
                accept = {"byte-identical", "identical from token one", "identical from the first token"} },
        point { "the blocks are evicted under memory pressure",
                about = {"blocks", "cached blocks", "they", "cache"},
                said = {"evicted", "memory pressure", "cache full", "lru", "do not survive"},
                accept = {"eviction", "evicted"} },
        point { "other keys in the hash, such as a LoRA adapter",
                accept = {"lora", "adapter", "extra key", "salt", "multimodal", "image"} },
      },
      misconceptions = {
        misconception { about = {"the hash", "hash", "the block hash", "prefix caching", "vLLM", "it", "the prefix cache"},
                        said = {"matches the suffix", "the suffix of the prompt", "from the end of the prompt", "matches suffixes",
                                "suffix match"},
                        unless = {"not the suffix", "rather than the suffix", "not from the end"},
                        why = "block hashes are chained from the first token: a block matches only when everything before it matches, so it is the prompt's start that must stay fixed (hash_block_tokens)" },
        misconception { about = {"prompts", "requests"},
                        said = {"only need to be similar", "similar enough", "roughly the same"},
                        why = "the hash chains every block to the one before it: one differing token at the start changes every hash after it" },
        misconception { about = {"vLLM", "prefix caching", "it", "the lookup", "matching"},
                        said = {"from the end of the prompt", "starting from the end of the prompt", "matches the end",
                                "matches the suffix", "matches suffixes", "shared suffix", "common suffix"},
                        why = "a block is a hit only when every token before it matches too: its hash chains to the one before it, so the shared part must open the prompt" },
      },
    },
    followup {
      question = "Does prefix caching make decode faster?",
      answer = "Not by default. It saves the prefill of the shared tokens and the memory to "
            .. "hold them, but each decode step still reads every sequence's whole context, "
            .. "shared blocks included. The indirect gain is capacity: the memory saved lets "
            .. "more sequences run at once, which raises total throughput. The exception is "
            .. "cascade attention, opt-in since March 2026 (vllm#36318): with many requests on one "
            .. "long shared prefix it reads the shared blocks once for the batch.",
      points = {
        point { "decode still reads the whole context", weight = 2, polarity = "no",
                about = {"decode", "each decode step", "decode step", "it", "each step", "every decode step"},
                said = {"still reads", "whole context", "no faster", "not faster", "same reads", "reads every",
                        "does not make decode faster", "isn't faster", "still attends", "full context"},
                short = {"not by default", "not per step"} },
        point { "it saves prefill and memory",
                about = {"it", "prefix caching"},
                said = {"prefill", "memory", "time to first token", "recomputing", "storing it twice"} },
        point { "more room means more concurrency",
                about = {"memory saved", "more room", "it", "capacity", "saved memory", "freed memory"},
                said = {"concurrency", "more sequences", "capacity", "throughput"} },
      },
      misconceptions = {
        misconception { about = {"it", "prefix caching"},
                        said = {"doesn't save prefill", "does not save prefill", "only saves memory",
                                "saves only memory"},
                        why = "prefix caching skips the shared prefix's prefill as well as storing it once" },
        misconception { about = {"decode", "prefix caching", "it"},
                        said = {"makes decode faster", "decode faster", "reads less", "skips the shared blocks",
                                "fewer bytes per step"},
                        why = "each decode step still reads every sequence's whole context, shared blocks included, unless cascade attention is turned on" },
      },
    },
  },

  exercises = {
    numeric {
      id = "without-sharing",
      prompt = "20 Qwen2.5-7B requests each hold a 2,000-token system prompt plus 500 tokens of "
            .. "their own, in 16-token BF16 blocks. How many GiB of KV do they hold without "
            .. "prefix caching?",
      expected = without / GiB, unit = "GiB", tolerance = rel(0.02), model = MODEL,
      worked = code("a block     " .. BLOCK .. " tokens × " .. n(per_token) .. " B = " .. n(block_bytes) .. " B\n"
        .. "a request   ⌈(" .. n(SHARED) .. " + " .. OWN .. ") ÷ " .. BLOCK .. "⌉ = ⌈"
        .. f((SHARED + OWN) / BLOCK) .. "⌉ = " .. blocks(SHARED + OWN) .. " blocks\n"
        .. "requests    " .. N .. " × " .. blocks(SHARED + OWN) .. " × " .. n(block_bytes) .. " B = "
        .. n(without) .. " B\n"
        .. "in GiB      " .. n(without) .. " B ÷ 2^30 = " .. f(without / GiB, 3) .. " GiB"),
      hints = { "Each request: ⌈2,500 ÷ 16⌉ blocks of 16 × 57,344 B.", "Times 20." },
    },
    numeric {
      id = "with-sharing",
      prompt = "With prefix caching, the system prompt's blocks are held once. How many GiB do "
            .. "the same 20 requests hold?",
      expected = with / GiB, unit = "GiB", tolerance = rel(0.02), model = MODEL,
      worked = code("prompt      " .. n(SHARED) .. " ÷ " .. BLOCK .. " = " .. shared_full
        .. (SHARED % BLOCK == 0 and " exactly: all full, held once\n" or " full blocks, held once\n")
        .. "own         each starts a new block: " .. N .. " × ⌈" .. own_tokens .. " ÷ " .. BLOCK .. "⌉ = " .. N .. " × "
        .. blocks(own_tokens) .. " = " .. N * blocks(own_tokens) .. " blocks\n"
        .. "total       (" .. shared_full .. " + " .. N * blocks(own_tokens) .. ") × " .. n(block_bytes)
        .. " B = " .. n(with) .. " B\n"
        .. "in GiB      " .. n(with) .. " B ÷ 2^30 = " .. f(with / GiB, 3) .. " GiB"),
      hints = { "The prompt: 2,000 ÷ 16 = 125 blocks, once.",
                "Each request's own 500 tokens: ⌈500 ÷ 16⌉ blocks." },
    },
    numeric {
      id = "shared-tokens",
      prompt = "Every request starts with the same {prefix}-token system prompt, followed by "
            .. "its own question. With {block}-token blocks, how many of those shared tokens "
            .. "can prefix caching reuse?",
      params = { prefix = range(100, 5000, 73), block = {16, 32} },
      expected = function(p)
        local n = (p.prefix // p.block) * p.block
        return n, "full     ⌊" .. grouped(p.prefix) .. " ÷ " .. p.block .. "⌋ = " .. p.prefix // p.block
          .. " blocks\n"
          .. "shared   " .. p.prefix // p.block .. " × " .. p.block .. " = " .. grouped(n)
          .. " tokens (the last " .. p.prefix - n .. " are recomputed)"
      end,
      unit = "tokens", tolerance = abs(0.5),
      hints = { "Only full blocks are cached and shared.", "⌊prefix ÷ block⌋ × block." },
    },
    numeric {
      id = "saving-share",
      prompt = "{n} requests share a {shared}-token prefix (a multiple of 16) and each adds "
            .. "{own} tokens of its own. What percentage of the KV blocks does prefix caching "
            .. "save?",
      params = { n = {4, 8, 16, 32, 64}, shared = range(512, 4096, 512),
                 own = range(160, 1600, 160) },
      expected = function(p)
        local unshared = p.n * blocks(p.shared + p.own)
        local shared = p.shared // BLOCK + p.n * blocks(p.own)
        local pct = (1 - shared / unshared) * 100
        return pct, "alone    " .. p.n .. " × ⌈" .. grouped(p.shared + p.own) .. " ÷ 16⌉ = " .. p.n
          .. " × " .. blocks(p.shared + p.own) .. " = " .. grouped(unshared) .. " blocks\n"
          .. "shared   " .. grouped(p.shared) .. " ÷ 16 + " .. p.n .. " × ⌈" .. grouped(p.own) .. " ÷ 16⌉ = "
          .. grouped(p.shared // BLOCK) .. " + " .. grouped(p.n * blocks(p.own)) .. " = " .. grouped(shared) .. "\n"
          .. "saved    1 − " .. grouped(shared) .. " ÷ " .. grouped(unshared) .. " = "
          .. fixed(pct, 1) .. "%"
      end,
      unit = "%", tolerance = abs(1),
      hints = { "Unshared: n × ⌈(shared + own) ÷ 16⌉ blocks.",
                "Shared: shared ÷ 16 once, plus n × ⌈own ÷ 16⌉." },
    },
    choice {
      id = "hit-killer",
      prompt = "Which change to a system prompt stops prefix caching from reusing it?",
      options = {
        option { "Putting the current time on its first line", correct = true,
                 why = "the first block differs per request, and every later hash chains from it" },
        option { "Appending the user's question after it",
                 why = "what comes after the prefix does not change the prefix's blocks" },
        option { "Making it 3,000 tokens instead of 2,000",
                 why = "a longer identical prefix shares more blocks, not fewer" },
        option { "Raising max_num_seqs",
                 why = "the scheduler's cap does not change any block's hash" },
      },
    },
    freetext {
      id = "when-not",
      prompt = "Name two workloads where prefix caching saves almost nothing, and say why.",
      answer = "Workloads whose prompts share no prefix: one-off documents to summarise, or "
            .. "benchmarks with random prompts. And workloads where the shared part is tiny "
            .. "next to each request's own tokens, like a 20-token instruction before a "
            .. "50,000-token document, or where memory pressure evicts the cached blocks before "
            .. "they are reused.",
      points = {
        point { "unique prompts share nothing", weight = 2,
                accept = {"unique", "random", "no shared", "nothing in common", "different prompts",
                          "one-off"} },
        point { "the shared part is small next to the rest",
                accept = {"small", "tiny", "short prefix", "shorter than a block", "long document"} },
        point { "eviction before reuse",
                accept = {"evict", "memory pressure", "cache full"} },
      },
      misconceptions = {
        misconception { about = {"the conversation history", "conversation history", "the history", "each turn",
                                 "every turn", "a new turn", "each new turn", "multi-turn chat"},
                        said = {"a new turn invalidates", "each new turn invalidates", "appending a turn invalidates", "each new message invalidates",
                                "each turn invalidates", "every turn invalidates", "multi-turn chat gets no hits",
                                "multi-turn chat saves nothing"},
                        unless = {"summar", "truncat", "rewrit", "edit", "timestamp", "time at the top", "sliding", "drop",
                                  "stamps", "reorder"},
                        why = "a new turn appends tokens and never changes an earlier block's hash (each hash covers the tokens up to its block), so multi-turn chat and a fixed system prompt are where prefix caching saves most" },
        misconception { about = {"chat with a shared system prompt", "a shared system prompt", "a shared prompt",
                                 "RAG with a shared document", "a shared document", "a shared prefix",
                                 "shared system prompts", "shared documents"},
                        said = {"saves almost nothing", "save almost nothing", "saves nothing", "save nothing",
                                "gains nothing", "gain nothing", "no benefit", "does not help", "doesn't help"},
                        unless = {"shorter than a block", "tiny", "evicted", "evict", "changes", "differs", "timestamp"},
                        why = "a prefix every request shares is exactly what prefix caching stores once: its blocks hash the same, so later requests skip its prefill and share its memory" },
      },
    },
  },
}
