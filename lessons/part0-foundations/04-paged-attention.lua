-- Part 0 · Foundations: PagedAttention. The bytes per token do not change;
-- what changes is how much memory a request holds that it never uses.

local MODEL = "qwen2.5-7b"
local GiB = 2^30
local per_token = kv.calc{model = MODEL}.kv_bytes_per_token           -- 57,344 B
local BUDGET = 10                                                      -- GiB, as in the first lesson
local MAX_LEN = 32768
local USED = 2000                                                      -- tokens a request really holds
local contiguous = kv.calc{model = MODEL, seq = MAX_LEN, kv_budget_gib = BUDGET}
local paged = kv.calc{model = MODEL, seq = USED, kv_budget_gib = BUDGET}
local wasted = 1 - USED / MAX_LEN                                      -- share of a reservation unused

local function f(x, places) return fixed(x, places or 1) end
local n = grouped -- 57344 -> "57,344"

-- The exercises' worked lines start from the bytes of one token, from the model's shape.
local qwen = kv.model(MODEL)
local token_line = "token     2 (K, V) × " .. qwen.layers .. " layers × " .. qwen.kv_heads
  .. " KV heads × " .. qwen.head_dim .. " dims × 2 B = " .. n(per_token) .. " B\n"
-- vLLM V1's BlockPool takes one block off the free queue as its null block.
local usable = paged.num_gpu_blocks - 1
local usable_fit = usable // paged.blocks_per_request

return lesson {
  id = "paged-attention",
  title = "PagedAttention: blocks, not reservations",
  module = "part0-foundations",
  baseline = "Kwon et al., \"Efficient Memory Management for Large Language Model Serving with "
          .. "PagedAttention\" (SOSP 2023); vLLM V1's block pool and block tables "
          .. "(vllm/v1/core/block_pool.py, kv_cache_manager.py), 16-token blocks by default",
  concept = "paged-attention",
  concept_title = "PagedAttention blocks",
  requires = {"kv-cache"},
  links = {"kv-cache", "continuous-batching", "prefix-caching"},

  question = "What problem does PagedAttention solve, and why does it raise the number of "
          .. "requests a GPU can serve without changing how many bytes a token takes?",

  answer = "Before it, servers gave each request one contiguous region sized for the longest "
        .. "output it might produce, because the final length is unknown up front. Most of that "
        .. "region was never filled, and the gaps between regions could not be reused. "
        .. "PagedAttention stores the cache in fixed-size blocks (16 tokens by default in vLLM) allocated "
        .. "as a request grows, with a per-request block table mapping logical positions to "
        .. "physical blocks, the way an operating system pages memory. A request then wastes at "
        .. "most one partly filled block, so the same memory holds many more real tokens; the "
        .. "bytes per token are unchanged.",

  points = {
    point { "contiguous allocation reserves for the maximum length", weight = 2,
            about = {"contiguous allocation", "each request", "servers", "before it", "contiguous region",
                     "contiguous reservation", "the old way", "without it"},
            said = {"reserve", "maximum length", "max length", "max_model_len", "worst case",
                    "sized for the longest", "up front", "never filled"},
            accept = {"over-reservation", "over-reserve", "stops reserving", "stop reserving", "no longer reserves",
                      "instead of reserving", "instead of one contiguous", "replaces contiguous"} },
    point { "the cache is split into fixed-size blocks allocated on demand", weight = 2,
            about = {"cache", "KV cache", "PagedAttention", "it", "memory"},
            said = {"blocks", "pages", "on demand", "as it grows", "as a request grows", "fixed-size"},
            accept = {"blocks on demand", "allocated on demand", "blocks as it grows", "blocks as the sequence grows",
                      "fixed-size blocks as"} },
    point { "a block table maps logical to physical blocks",
            accept = {"block table", "page table", "mapping", "maps", "indirection", "logical"} },
    point { "waste drops to at most one partial block", weight = 2,
            about = {"waste", "a request", "each request", "request", "fragmentation"},
            said = {"at most one", "one block", "last block", "partial block", "partly filled block",
                    "less than a block", "under one block", "drops"},
            accept = {"almost no memory is wasted", "almost no waste", "little waste", "less waste", "nearly no waste",
                      "waste less", "wastes less", "stop wasting", "stops wasting", "no longer wastes"} },
  },
  misconceptions = {
    misconception { about = {"each token's KV", "a token's KV", "the KV per token", "per-token KV", "each token's cache",
                             "every token's KV"},
                    said = {"half the bytes", "halves the bytes", "fewer bytes", "takes less memory", "is smaller"},
                                    unless = {"wastes fewer", "fewer bytes idle", "fewer bytes reserved", "fp8", "kv_cache_dtype", "8-bit", "GQA", "MLA",
                                              "MQA", "nvfp4", "int4", "4-bit", "quantized cache", "quantised cache", "a quantized", "a quantised",
                                                                        "smaller KV dtype", "KV dtype"},
                    why = "PagedAttention changes how the cache is allocated, not what a token costs: the bytes per token are unchanged" },
    misconception { about = {"PagedAttention", "paging", "it"},
                    said = {"fewer bytes per token", "shrinks each token", "compresses", "quantizes",
                            "reduces the bytes per token", "smaller KV per token", "half the bytes", "halves the bytes",
                            "in fewer bytes", "fewer bytes a token"},
                    unless = {"wastes fewer", "fewer bytes idle", "fewer bytes on", "fewer bytes sit", "fewer bytes reserved", "fewer bytes than"},
                    why = "PagedAttention changes how the cache is allocated, not what a token costs: the bytes per token are unchanged" },
    misconception { about = {"PagedAttention", "paging", "it"},
                    said = {"swaps to the CPU", "offloads to the CPU", "swaps cold blocks", "swaps blocks to the CPU", "moves the cache to the CPU", "to CPU memory",
                            "to host memory", "to the host", "paged out", "pages out", "CPU RAM", "paging cold blocks"},
                    unless = {"kv_offloading", "OffloadingConnector", "offloading connector", "LMCache", "connector",
                              "separate feature", "a separate", "optional", "none of", "stays in GPU", "stay in GPU",
                              "stays on the GPU", "in HBM", "from HBM"},
                    why = "the blocks live in GPU memory; paging here is about allocation, not swapping to the host" },
  },

  sections = {
    section {
      title = "What contiguous allocation wastes",
      text = "A server that stores each request's cache in one contiguous tensor must size it "
          .. "when the request arrives, and the only safe size is the maximum: max_model_len. "
          .. "The PagedAttention paper (Kwon et al., SOSP 2023, §3) names three kinds of waste: "
          .. "reserved slots, held now for tokens the request will generate later; internal "
          .. "fragmentation, slots for tokens it never generates because it ends before the "
          .. "maximum; and external fragmentation between regions of different sizes. It measured earlier "
          .. "systems keeping real tokens in only 20 to 38% of their KV memory.",
    },
    section {
      title = "Blocks and block tables",
      text = "vLLM allocates the whole KV pool once, at start-up: one tensor per layer, sized "
          .. "by the memory budget (GPUModelRunner.initialize_kv_cache). Each tensor is cut into "
          .. "pages of 16 tokens, and a block id names the same page in every layer: "
          .. 16 * per_token // 1024 // qwen.layers .. " KiB in each of Qwen2.5-7B's " .. qwen.layers
          .. " layers, " .. n(16 * per_token) .. " bytes (" .. 16 * per_token // 1024 .. " KiB) "
          .. "in all. Giving a request a block means taking a free id off the block pool's queue "
          .. "(BlockPool), never asking CUDA for memory. Sixteen is the default for standard attention (--block-size sets it); "
          .. "in 0.26 the attention backend chosen states its own when it needs one "
          .. "(get_preferred_block_size, asked by Platform.update_block_size_for_backend): for "
          .. "DeepSeek-style MLA models 64 tokens with FlashMLA, 128 with CUTLASS MLA, and 32 "
          .. "with FlashInfer MLA (the smaller of the 32 and 64 its kernels take, "
          .. "get_supported_kernel_block_sizes; a --block-size the backend cannot run is refused, "
          .. "not changed: the rule of vllm-project/vllm#35122, February 2026; before it "
          .. "vllm/platforms/cuda.py set each size itself, 64 for FlashInfer MLA too); and hybrid models take blocks "
          .. "of hundreds of tokens so that an attention block's page is at least a recurrent state's "
          .. "page (lesson 15). A decoding request takes a new block only when its last one is full (a prefill "
          .. "chunk takes all the blocks it fills at once, and speculative decoding adds room for "
          .. "its draft tokens), and its "
          .. "block table lists which physical blocks hold its tokens in order. The attention "
          .. "kernel follows the table, so the blocks can sit anywhere in memory; any free block "
          .. "fits any request, and external fragmentation disappears.",
    },
    section {
      title = "The same formula, more of the budget used",
      text = "Take the first lesson's " .. BUDGET .. " GiB budget with max_model_len "
          .. n(MAX_LEN) .. ". Reserving contiguously, each request takes "
          .. f(per_token * MAX_LEN / GiB, 2) .. " GiB and " .. contiguous.max_concurrent_seqs
          .. " requests fit. If requests really hold " .. n(USED) .. " tokens, "
          .. f(wasted * 100) .. "% of each reservation is empty. Paged, each takes "
          .. paged.blocks_per_request .. " blocks and " .. paged.max_concurrent_seqs .. " fit. "
          .. "The bytes per token never moved; the waste did.",
    },
    section {
      title = "What the block size trades",
      text = "A request wastes at most block size − 1 token slots, in its last block: 15 tokens, "
          .. f(15 * per_token / 1024, 0) .. " KiB for Qwen2.5-7B at 16, but 127 tokens at 128. "
          .. "Smaller blocks waste less but make the block table longer and the kernel's reads "
          .. "smaller and more scattered. The cost is metadata and kernel layout, not the bus "
          .. "as such: SGLang's FlashInfer path runs pages of 1 token (its pool was token-"
          .. "granular from the start, and --page-size, sgl-project/sglang#4356 of March 2025, "
          .. "defaulted to 1; later sources leave it unset for the attention backend to "
          .. "choose), its kernels built for that layout. For a model like this on NVIDIA GPUs "
          .. "vLLM 0.26 refuses it: its attention backends take only multiples of 16 "
          .. "(FlashAttention's get_supported_kernel_block_sizes; FlashInfer 16, 32 or 64), so "
          .. "--block-size 1 is rejected (ROCm's AITER MLA backend is the exception, with "
          .. "1-token kernel pages). For a model with one KV cache group, as this one, prefix "
          .. "caching shares whole blocks only, so the block size is also the grain at which "
          .. "prompts can be shared; 0.26's --prefix-match-unit (vllm#46384) hits inside a "
          .. "block only for hybrid models, with several groups.",
    },
    section {
      title = "What paging does not do",
      text = "vLLM's start-up still sizes the budget and still reports concurrency for "
          .. "requests of the full max_model_len, because that is the worst case it must "
          .. "admit. Paging changes what a request holds while it runs; it cannot make a token "
          .. "smaller. For that, see the lesson on shrinking the cache.",
    },
  },

  worked = code [[
contiguous   57,344 B × 32,768 tokens            = 1.75 GiB reserved per request
             10 GiB ÷ 1.75 GiB                   = 5.7 → 5 requests
used         2,000 of 32,768 tokens              = 93.9% of each reservation empty
paged        ⌈2,000 ÷ 16⌉                        = 125 blocks of 896 KiB
             10 GiB ÷ 896 KiB                    = 11,702 blocks
             11,702 ÷ 125                        = 93.6 → 93 requests
worst waste  15 tokens × 57,344 B                = 840 KiB per request at block size 16]],

  followups = {
    followup {
      question = "Why not use a block size of 1 token and waste nothing?",
      answer = "For a model like this on NVIDIA GPUs vLLM 0.26 refuses it: its attention "
            .. "backends take only multiples of 16 (FlashAttention's "
            .. "get_supported_kernel_block_sizes). Were it allowed, the block table would grow to one entry per token, the "
            .. "kernel would gather every key and value from a different place in tiny pieces, "
            .. "and the allocator would do a bookkeeping step for every token. The cost is "
            .. "metadata and kernel layout, not the memory bus itself: SGLang with FlashInfer "
            .. "has run 1-token pages by default (a token-granular pool, then --page-size 1 "
            .. "from March 2025), with "
            .. "kernels built for them. The waste of a "
            .. "16-token block is already under one block per request, small next to the cache.",
      points = {
        point { "the block table and bookkeeping grow", weight = 1,
                accept = {"block table", "metadata", "bookkeeping", "overhead", "allocator"} },
        point { "the kernel must gather tiny scattered pieces", weight = 2,
                about = {"reads", "kernel", "gather", "memory access", "each key and value", "tiny pieces",
                         "memory bus"},
                said = {"scattered", "tiny", "small", "uncoalesced", "poorly", "bandwidth", "different place"} },
        point { "the waste at 16 is already small",
                about = {"waste", "16-token block", "block of 16", "16 tokens"},
                said = {"already small", "small", "under one block", "negligible", "less than a block"} },
      },
      misconceptions = {
        misconception { about = {"block size of 1", "1-token blocks", "one-token blocks", "smaller blocks"},
                        said = {"faster", "no downside", "free", "costs nothing", "more KV per token", "more GPU memory per token",
                                "more memory per token", "more bytes per token",
                                "more bytes of KV per token", "more cache per token", "bigger KV per token"},
                        unless = {"block table", "metadata", "bookkeeping", "table entry"},
                        why = "one-token blocks cost a table entry and a scattered read per token unless the kernel is built for that layout (SGLang's FlashInfer pages were 1 token by default through 2025)" },
      },
    },
    followup {
      question = "Parallel sampling asks for four completions of one prompt. What does the "
              .. "block table make cheap?",
      answer = "The prompt's cache is stored once. vLLM V1 splits n = 4 into four child "
            .. "requests (vllm/v1/engine/parallel_sampling.py, ParentRequest), and prefix "
            .. "caching lets them share the prompt's full blocks: their block tables point at "
            .. "the same physical blocks, with a reference count on each. Each child then writes "
            .. "its own partial last block and its own generated tokens; for a dense model "
            .. "there is no copy-on-write in V1 (that was vLLM V0 and the PagedAttention paper; "
            .. "from 0.26 the one copy path for attention blocks is for hybrid models with "
            .. "--prefix-match-unit (their Mamba state blocks are copied in align mode anyway, "
            .. "lesson 15), where "
            .. "a request continuing from a shared partial block gets a copy of it, vllm#46384). "
            .. "The sharing "
            .. "is prefix caching's, on by default in V1: with --no-enable-prefix-caching each "
            .. "child prefills and stores the prompt itself.",
      points = {
        point { "the sequences share the prompt's blocks", weight = 3,
                about = {"sequences", "four sequences", "completions", "block tables", "the prompt",
                         "prompt's blocks", "prompt blocks", "child requests", "children"},
                said = {"share", "same physical blocks", "stored once", "point at the same", "exist once",
                        "map to the same", "only once"} },
        point { "V1 runs them as child requests that share through prefix caching", weight = 2,
                about = {"child requests", "children", "n > 1", "parallel sampling", "vLLM", "V1"},
                said = {"prefix caching", "prefix cache", "cache hit", "separate requests", "child requests"},
                accept = {"prefix caching", "prefix cache", "child request"} },
        point { "reference counts track the sharing",
                accept = {"reference count", "ref count", "refcount", "counted"} },
      },
      misconceptions = {
        misconception { about = {"prefix caching", "automatic prefix caching", "APC"},
                        said = {"off by default", "disabled by default", "not on by default", "opt-in", "has to be enabled",
                                "must be enabled", "needs to be enabled", "needs --enable-prefix-caching"},
                        unless = {"V0", "before V1", "older", "used to", "pooling", "embedding", "hybrid", "hybrids", "Mamba",
                                                  "attention-free", "vLLM 0.", "was off", "on by default", "0.5", "0.4", "0.3"},
                                        why = "in V1 prefix caching is on by default for a decoder model like this one, so the four children share the prompt's full blocks without any flag (CacheConfig.enable_prefix_caching; in 0.26 hybrid and attention-free models are the exception, lesson 15)" },
        misconception { about = {"prompt", "the prompt's cache", "each completion", "each sequence"},
                        said = {"copied four times", "stored four times", "its own copy", "four copies"},
                        why = "their block tables point at the same physical blocks; only the full prompt blocks are shared, each child writes its own" },
        misconception { about = {"vLLM", "V1", "vLLM V1", "the partial block", "the last block", "block table",
                                 "samples", "four samples"},
                        said = {"copy-on-write", "copies on write", "copy on write", "copy a block whenever",
                                "copies a block when", "copy a block when", "copies it first", "copies it before",
                                "copies the partial block", "copies the shared block", "copies the block first",
                                "duplicates the block", "copied before it is written", "copies that block",
                                "duplicates it", "duplicates that block"},
                        unless = {"V0", "vLLM V0", "the paper describes", "the paper copies", "PagedAttention paper copies", "used to", "older vLLM", "no copy-on-write", "rather than", "recomputes",
                                  "has no copy-on-write", "V1 has no"},
                        why = "vLLM V1 has no copy-on-write: the children share full prompt blocks through prefix caching and each allocates its own partial block (copy-on-write was V0 and the paper)" },
      },
    },
    followup {
      question = "PagedAttention or FlashAttention: which does vLLM use, and what does each "
              .. "solve?",
      answer = "Both, for different problems. PagedAttention is memory management: the cache "
            .. "lives in fixed-size blocks found through a block table, so a request holds only "
            .. "the blocks it has filled and blocks can be shared. FlashAttention is a kernel: it "
            .. "tiles attention so the score matrix never goes to HBM, which cuts memory traffic "
            .. "without changing the result. vLLM V1 runs FlashAttention kernels (FlashInfer or "
            .. "others on some GPUs and models) that read the keys and values through the block "
            .. "table (FlashAttentionImpl.forward passes it to flash_attn_varlen_func), so the "
            .. "two work together. Paging has a price: the PagedAttention paper (2023, §7.1) "
            .. "measured its own kernel of the time 20–26% slower in attention than "
            .. "FasterTransformer's contiguous one, for the indirection (today's paged "
            .. "FlashAttention kernels were not what it measured); vAttention (Prabhu et al., 2024) keeps each request's cache "
            .. "virtually contiguous with CUDA's virtual memory API instead, so unmodified "
            .. "kernels can run. The paper's headline is the net of both: 2–4 times the "
            .. "throughput of FasterTransformer and Orca at the same latency (its abstract; §6 "
            .. "gives the figures by workload, against its authors' own Orca), from the larger "
            .. "batches the saved memory holds.",
      points = {
        point { "PagedAttention manages the cache's memory in blocks", weight = 2,
                about = {"PagedAttention", "paged attention", "paging", "the first", "vLLM's blocks"},
                said = {"memory management", "manages memory", "manages the cache", "blocks", "block table",
                        "allocation", "allocates", "fragmentation", "pages", "where the cache lives",
                        "how the cache is stored", "virtual memory"} },
        point { "FlashAttention is a kernel that cuts attention's memory traffic", weight = 2,
                about = {"FlashAttention", "flash attention", "the kernel", "FA2", "FA3", "the second"},
                said = {"kernel", "tiles", "tiling", "fused", "memory traffic", "io-aware", "on-chip",
                        "sram", "faster kernel", "fewer hbm reads", "computes attention", "score matrix",
                        "never materializes", "never materialises", "compute"} },
        point { "they work together: V1's kernels read paged KV through the block table", weight = 2,
                about = {"vLLM", "V1", "they", "the two", "FlashAttention kernels", "the kernels",
                         "FlashAttention"},
                said = {"together", "block table", "reads paged", "over paged kv", "paged kv",
                        "complementary", "not alternatives", "combines", "uses both", "on top of"},
                accept = {"complementary", "block_table", "block table", "paged kv", "uses both"} },
        point { "paging costs kernel speed (20–26% in the paper); vAttention avoids it",
                accept = {"20-26", "20–26", "20 to 26", "vattention", "indirection", "overhead",
                          "slower kernel", "kernel overhead"} },
      },
      misconceptions = {
        misconception { about = {"PagedAttention", "paged attention"},
                        said = {"faster attention", "speeds up attention", "faster kernel", "reduces flops",
                                "fewer flops", "computes attention faster", "faster math", "is faster",
                                "tiles the score matrix", "fused kernel", "keeps the score matrix", "sram",
                                "makes attention faster", "attention faster"},
                        why = "PagedAttention is about where the cache lives; its own kernel was slower than a contiguous one (20–26% in the paper): the throughput gain comes from fitting more requests" },
        misconception { about = {"FlashAttention", "flash attention"},
                        said = {"pages the cache", "manages the cache", "reduces fragmentation", "allocates blocks",
                                "stores the cache in blocks", "frees memory", "memory manager", "into pages",
                                "splits the kv cache", "cannot use",
                                "can't use"},
                        why = "FlashAttention is a kernel: it saves the score matrix's memory traffic, but it does not decide where a request's cache lives" },
        misconception { about = {"they", "the two", "PagedAttention and FlashAttention", "vLLM"},
                        said = {"competing", "competitors", "compete", "approximates", "approximate attention"},
                        why = "the two do different jobs and vLLM runs both: paged memory, read by FlashAttention-style kernels that compute exact attention" },
        misconception { about = {"FlashAttention", "flash attention"},
                        said = {"approximation", "approximates", "approximate attention", "inexact"},
                        unless = {"up to rounding", "bit-identical", "bitwise", "summation order", "exact attention"},
                        why = "FlashAttention computes exact attention: it tiles the computation so the score matrix never goes to HBM, and the result is the same up to rounding (Dao et al., 2022)" },
      },
    },
  },

  exercises = {
    numeric {
      id = "contiguous-fit",
      prompt = "A server reserves each Qwen2.5-7B request's BF16 cache contiguously for "
            .. "max_model_len = 32,768 tokens. How many requests fit in a 10 GiB budget?",
      expected = contiguous.max_concurrent_seqs, unit = "requests", tolerance = abs(0.5),
      model = MODEL, diagnose = "capacity",
      worked = code(token_line .. "reserve   " .. n(per_token) .. " B × " .. n(MAX_LEN) .. " tokens = "
        .. n(per_token * MAX_LEN) .. " B = " .. f(per_token * MAX_LEN / GiB, 2) .. " GiB\n"
        .. "fit       ⌊" .. BUDGET .. " GiB ÷ " .. f(per_token * MAX_LEN / GiB, 2) .. " GiB⌋ = ⌊"
        .. f(BUDGET * GiB / (per_token * MAX_LEN), 2) .. "⌋ = "
        .. contiguous.max_concurrent_seqs .. " requests"),
      hints = { "One reservation: 57,344 B × 32,768 tokens.", "Round down." },
    },
    numeric {
      id = "paged-fit",
      prompt = "With 16-token blocks allocated on demand, how many requests that really hold "
            .. "2,000 tokens each fit in the same 10 GiB?",
      expected = paged.max_concurrent_seqs, unit = "requests", tolerance = abs(0.5),
      model = MODEL, diagnose = "capacity",
      worked = code(token_line .. "block     16 tokens × " .. n(per_token) .. " B = " .. n(paged.block_bytes)
        .. " B (" .. paged.block_bytes // 1024 .. " KiB)\n"
        .. "budget    ⌊" .. BUDGET .. " GiB ÷ " .. n(paged.block_bytes) .. " B⌋ = "
        .. n(paged.num_gpu_blocks) .. " blocks\n"
        .. "request   ⌈" .. n(USED) .. " ÷ 16⌉ = " .. paged.blocks_per_request .. " blocks\n"
        .. "fit       ⌊" .. n(paged.num_gpu_blocks) .. " ÷ " .. paged.blocks_per_request .. "⌋ = ⌊"
        .. f(paged.num_gpu_blocks / paged.blocks_per_request, 2) .. "⌋ = "
        .. paged.max_concurrent_seqs .. " requests\n"
        .. "          vLLM keeps 1 block as its null block: ⌊" .. n(usable) .. " ÷ "
        .. paged.blocks_per_request .. "⌋ = " .. usable_fit
        .. (usable_fit == paged.max_concurrent_seqs and " too" or "")),
      hints = { "Blocks per request: 2,000 ÷ 16, rounded up.",
                "Blocks in the budget: 10 GiB ÷ (16 × 57,344 B)." },
    },
    numeric {
      id = "empty-share",
      prompt = "In the contiguous case, what percentage of each 32,768-token reservation is "
            .. "empty when a request holds 2,000 tokens?",
      expected = wasted * 100, unit = "%", tolerance = abs(0.5),
      worked = code("held      " .. n(USED) .. " ÷ " .. n(MAX_LEN) .. " = "
        .. f(USED / MAX_LEN * 100, 2) .. "% of the reservation\n"
        .. "empty     100% − " .. f(USED / MAX_LEN * 100, 2) .. "% = " .. f(wasted * 100, 2) .. "%"),
      hints = { "1 − 2,000 ÷ 32,768." },
    },
    numeric {
      id = "blocks-held",
      prompt = "A request holds {tokens} tokens of context. How many KV blocks does it hold "
            .. "with a block size of {block}?",
      params = { tokens = range(1000, 9000, 137), block = {16, 32, 64, 128} },
      expected = function(p)
        local n = kv.calc{model = MODEL, seq = p.tokens, block_size = p.block}.blocks_per_request
        return n, "blocks   ⌈" .. grouped(p.tokens) .. " ÷ " .. p.block .. "⌉ = ⌈"
          .. fixed(p.tokens / p.block, 2) .. "⌉ = " .. n
      end,
      unit = "blocks", tolerance = abs(0.5),
      hints = { "Tokens ÷ block size.", "A partly filled block is still a whole block: round up." },
    },
    numeric {
      id = "worst-waste",
      prompt = "At most how many KiB of Qwen2.5-7B BF16 cache does one request leave empty in "
            .. "its last 16-token block?",
      expected = 15 * per_token / 1024, unit = "KiB", per = "sequence", tolerance = rel(0.01), model = MODEL,
      worked = code(token_line .. "worst     the last block holds 1 token: 16 − 1 = 15 slots empty\n"
        .. "bytes     15 × " .. n(per_token) .. " B = " .. n(15 * per_token) .. " B\n"
        .. "KiB       " .. n(15 * per_token) .. " B ÷ 1,024 = " .. f(15 * per_token / 1024, 0)
        .. " KiB per request"),
      hints = { "At worst the last block holds one token.", "15 empty slots × 56 KiB." },
    },
    choice {
      id = "what-changes",
      prompt = "Paging the KV cache changes which of these?",
      options = {
        option { "How much memory a running request holds beyond its real tokens", correct = true,
                 why = "at most one partly filled block instead of a reservation for max_model_len" },
        option { "The bytes one token takes in the cache",
                 why = "that is layers × KV heads × head dim × 2 × dtype, unchanged" },
        option { "The concurrency vLLM logs at start-up for max_model_len requests",
                 why = "start-up reports the worst case, requests of the full length" },
        option { "How many times the weights are read per decode step",
                 why = "still once per step; paging only concerns the cache" },
      },
    },
  },
}
