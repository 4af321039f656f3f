-- Part 0 · Foundations: hybrid models. Linear-attention (gated delta net) and Mamba
-- layers keep a fixed state per request instead of a cache per token; vLLM pages that
-- state beside the attention KV, which makes its blocks hundreds or thousands of tokens.

local MODEL = "qwen3.5-27b"
local BUDGET = 40                                    -- GiB of cache
local GiB, MiB = 2^30, 2^20

-- With prefix caching on, which a hybrid needs --enable-prefix-caching for up to 0.27
-- (EngineArgs' default_prefix_caching is "supported and not is_hybrid"): the lesson's
-- figures are for align mode, the mode that makes prefix caching work; off, the default,
-- each group keeps one state block (hy_off).
local function hy(seq, dtype)
  return kv.calc{model = MODEL, seq = seq, kv_budget_gib = BUDGET, kv_dtype = dtype,
                 enable_prefix_caching = true}
end
local function hy_off(seq)
  return kv.calc{model = MODEL, seq = seq, kv_budget_gib = BUDGET}
end
-- The same attention shape in all 64 layers: what a plain transformer would cache.
local function dense(seq)
  return kv.calc{layers = 64, heads = 24, kv_heads = 4, head_dim = 256, seq = seq,
                 kv_budget_gib = BUDGET}
end

local h32 = hy(32768)
local h4 = hy(4096)
-- With 3 MTP draft tokens (calc: vLLM 0.26 rules): align mode keeps 2 + k state blocks a
-- group instead of 2, the MTP layer adds an attention layer, and the conv state holds the
-- k draft tokens too, so 21 blocks of a larger page a request.
local h4_mtp = kv.calc{model = MODEL, seq = 4096, kv_budget_gib = BUDGET,
                       spec_method = "mtp", spec_tokens = 3, enable_prefix_caching = true}
local h128 = hy(131072)
local f8 = hy(32768, "fp8")
local state_layer = h32.state_bytes_per_request / h32.state_layers
local attn_layers = 16
-- What one gated-delta-net layer's state holds, from the config.json: 48 value heads of
-- 128 x 128 recurrent state in FP32 (mamba_ssm_dtype "float32"), and the short convolution's
-- last 3 inputs (linear_conv_kernel_dim 4, minus 1) over 2 x 16 x 128 key + 48 x 128 value
-- channels in BF16. --kv-cache-dtype touches neither.
local SSM = 48 * 128 * 128 * 4                                    -- 3,145,728 B
local CONV = (4 - 1) * (2 * 16 * 128 + 48 * 128) * 2              -- 61,440 B
assert(SSM + CONV == state_layer, "the state's parts do not add up to the calculator's")
local token_layer = h32.kv_bytes_per_token / attn_layers          -- one attention layer, one token
local state_blocks = h4.blocks_per_request - math.ceil(4096 / h4.block_size)

local function f(x, places) return fixed(x, places or 1) end
local page16 = 16 * token_layer                     -- one attention layer's 16-token page, B
local padded = h32.attention_block_size * token_layer -- a state page padded to the attention page
local pages = state_blocks // (h32.kv_cache_groups - 1) -- state pages a layer, align mode
-- Blackwell (SM100) with FlashInfer at head dim 256 aligns the block to 32 tokens, not 16
-- (HybridAttentionMambaModelConfig.verify_and_update_config, kernel_block_alignment_size).
local block32 = 32 * math.ceil(state_layer / (32 * token_layer))

return lesson {
  id = "hybrid-models",
  title = "Hybrid models: a fixed state beside the KV cache",
  module = "part0-foundations",
  baseline = "Qwen/Qwen3.5-27B's config.json (64 layers: 16 full attention with 4 KV heads of 256 "
          .. "dims, 48 gated-delta-net linear-attention layers) in the calculator's preset; vLLM "
          .. "0.26 start-up arithmetic as docs/calculator.md dates it: the attention block grown "
          .. "to 16 × ⌈state page ÷ (16 × attention bytes per token)⌉ tokens and the state page "
          .. "padded to match (vllm/model_executor/models/config.py, "
          .. "HybridAttentionMambaModelConfig.verify_and_update_config, logged as \"Setting "
          .. "attention block size to %d tokens\"; later sources move the rule to "
          .. "Platform._align_hybrid_block_size, vllm-project/vllm#52895), layers grouped so every group has the same "
          .. "page (vllm/v1/core/kv_cache_utils.py, _get_kv_cache_groups_uniform_page_size), two "
          .. "state blocks per group and request in mamba_cache_mode align, the mode chosen "
          .. "when prefix caching is on (vllm/v1/kv_cache_interface.py, "
          .. "MambaSpec.max_memory_usage_bytes), one in mode none; prefix caching off by "
          .. "default for hybrid models up to 0.27 (vllm/engine/arg_utils.py, "
          .. "_set_default_chunked_prefill_and_prefix_caching_args: \"supported and not "
          .. "is_hybrid\", vllm-project/vllm#23716; on by default from #50991, after 0.27); "
          .. "vLLM 0.19.0's log of Qwen3.5-27B at max_model_len 32,768 printing \"Setting "
          .. "attention block size to 784 tokens\" (vllm-project/vllm issue 40691, row h06 of "
          .. "tests/fixtures/vllm-logs-2x-public.tsv)",
  concept = "hybrid-models",
  concept_title = "Hybrid model state",
  requires = {"paged-attention", "shrinking-kv", "mixture-of-experts"},
  links = {"kv-cache", "paged-attention", "prefix-caching", "sizing-deployment"},

  question = "Qwen3.5-27B mixes 16 attention layers with 48 gated-delta-net layers. What does "
          .. "each kind of layer keep per request, how does vLLM page it, and what does that do "
          .. "to how many requests fit?",

  answer = "An attention layer caches a key and a value for every token, so its cache grows with "
        .. "the context. A gated-delta-net or Mamba layer keeps a fixed recurrent state per "
        .. "request, the same size at 100 tokens or 100,000. vLLM pages both in one pool with "
        .. "one page size: it grows the attention block until one block of an attention layer "
        .. "is as large as one layer's state, 784 tokens here instead of 16, and pads the state "
        .. "to match. Concurrency then follows mostly the 16 attention layers at long context, "
        .. "so far more long requests fit than in a plain 64-layer transformer; at short "
        .. "context the fixed state and the big blocks dominate, so the gain is smaller.",

  points = {
    point { "attention caches K and V for every token: grows with context", weight = 2,
            about = {"attention layer", "attention", "attention layers", "its cache"},
            said = {"every token", "grows", "per token", "with the context"} },
    point { "a gated-delta-net or Mamba layer keeps a fixed state", weight = 2,
            about = {"gated-delta-net", "Mamba", "recurrent layer", "linear-attention", "state"},
            said = {"fixed", "same size", "does not grow", "constant", "recurrent state"} },
    point { "vLLM grows the attention block to the state's page size", weight = 2,
            about = {"vLLM", "attention block", "block", "block size", "page"},
            said = {"grows", "784 tokens", "hundreds", "thousands", "as large as", "same page size",
                    "one page size"} },
    point { "far more long requests fit; less gain at short context", weight = 2,
            about = {"concurrency", "long requests", "requests", "short context", "long context", "gain"},
            said = {"far more", "more", "smaller", "fixed state", "dominate"} },
  },
  misconceptions = {
    misconception { about = {"state", "Mamba", "gated-delta-net", "recurrent state"},
                    said = {"grows with context", "grows with the context", "per token",
                            "grows linearly"},
                    why = "a recurrent layer folds every token into a state of fixed size; only the attention layers keep a cache per token" },
    misconception { about = {"vLLM", "block", "block size", "blocks"},
                    said = {"stays 16", "16 tokens", "keeps 16-token blocks"},
                    unless = {"from 16", "from the default 16", "784", "instead of 16",
                              "larger than 16", "beyond 16", "above 16", "more than 16",
                              "grows the attention block", "raises the attention block", "attention block grows",
                              "grows the block size", "raises the block size", "raises the block to",
                              "grows the block to"},
                    why = "vLLM uses one page size for the whole pool: the attention block grows until it is as large as one layer's state, 784 tokens for Qwen3.5-27B in BF16" },
  },

  sections = {
    section {
      title = "Two kinds of memory",
      text = "An attention layer keeps K and V for every token: Qwen3.5-27B's 16 attention layers "
          .. "cache " .. grouped(h32.kv_bytes_per_token) .. " B a token in BF16. A "
          .. "gated-delta-net layer instead folds each token into a recurrent state of fixed "
          .. "size, here " .. f(state_layer / MiB, 2) .. " MiB a layer ("
          .. grouped(SSM) .. " B of recurrent state, 48 heads of 128 × 128 kept in FP32 "
          .. "as the config's mamba_ssm_dtype asks, and " .. grouped(CONV) .. " B of BF16 "
          .. "convolution state; an fp8 KV cache leaves both as they are), "
          .. f(h32.state_bytes_per_request / MiB, 1) .. " MiB for all 48, the same at 100 "
          .. "tokens or 100,000. The state costs as much as "
          .. grouped(h32.state_bytes_per_request / h32.kv_bytes_per_token) .. " tokens of the "
          .. "attention cache. It saves time as well as memory: such a layer does the same "
          .. "work for each token, so its share of a prefill grows linearly with the prompt "
          .. "rather than quadratically, and a decode step reads and updates the same state at "
          .. "token 100 or 100,000; only the 16 attention layers read a cache that grows with "
          .. "the context.",
    },
    section {
      title = "Why the blocks grow",
      text = "vLLM keeps one pool of equal pages. One attention layer's 16-token page would be "
          .. f(16 * token_layer / 1024, 0) .. " KiB, one state " .. f(state_layer / MiB, 2)
          .. " MiB, so vLLM grows the attention block to a multiple of 16 tokens whose page holds "
          .. "a state: 16 × ⌈" .. grouped(state_layer) .. " ÷ (16 × " .. grouped(token_layer)
          .. ")⌉ = " .. grouped(h32.attention_block_size) .. " tokens, and pads the state page "
          .. "to match. Layers are grouped " .. h32.group_size .. " at a time into "
          .. h32.kv_cache_groups .. " groups (1 attention, 3 state), so one block id takes "
          .. f(h32.block_bytes / MiB, 0) .. " MiB. With an fp8 cache the attention bytes halve "
          .. "and the block doubles to " .. grouped(f8.attention_block_size) .. " tokens: the "
          .. "bigger the state beside a thin attention layer, the longer the block.",
    },
    section {
      title = "What it does to concurrency",
      text = "A request needs ⌈length ÷ " .. grouped(h32.attention_block_size) .. "⌉ attention "
          .. "blocks plus " .. state_blocks .. " state blocks (two per state group in align "
          .. "mode: the state this step writes and the previous step's, which it is copied "
          .. "from and which is freed a step later; vLLM counts both against every request. A "
          .. "checkpoint kept for prefix caching is a freed block that keeps its hash, in the "
          .. "evictable pool, not held by the request). "
          .. "In " .. BUDGET .. " GiB (" .. grouped(h32.num_gpu_blocks) .. " blocks), that "
          .. "fits " .. h4.max_concurrent_seqs .. " requests of 4,096 tokens, "
          .. h32.max_concurrent_seqs .. " of 32,768 and " .. h128.max_concurrent_seqs
          .. " of 131,072. A transformer with attention in all 64 layers would fit "
          .. dense(4096).max_concurrent_seqs .. ", " .. dense(32768).max_concurrent_seqs
          .. " and " .. dense(131072).max_concurrent_seqs .. ". In fp8, "
          .. f8.max_concurrent_seqs .. " requests of 32,768 tokens fit. These figures are "
          .. "for prefix caching on, which a hybrid model must ask for in vLLM 0.26 "
          .. "(--enable-prefix-caching: its default is off for hybrids up to 0.27, and "
          .. "mamba_cache_mode then resolves to none). Off, each state group keeps one block, "
          .. "the running state (1 + k with k draft tokens), and " .. hy_off(4096).max_concurrent_seqs .. " requests of "
          .. "4,096 tokens fit, " .. hy_off(32768).max_concurrent_seqs .. " of 32,768; no "
          .. "prefix is then reused. Align is Qwen3.5's mode because its gated-delta-net "
          .. "layers do not support the other one: with prefix caching on, a Mamba2 hybrid "
          .. "whose model supports Mamba prefix caching gets mamba_cache_mode all "
          .. "(MambaModelConfig.verify_and_update_config; later sources choose align instead "
                    .. "when the Mamba prefill backend is FlashInfer, not checked for 0.26), a state "
                    .. "checkpoint at every block "
          .. "boundary, so its state memory grows with the context and the fixed-state saving "
          .. "shrinks (kvtutor calc --mamba-cache-mode all counts it).",
    },
    section {
      title = "The price of big blocks",
      text = "Every request rounds its attention cache up to whole " .. grouped(h32.attention_block_size)
          .. "-token blocks and pays its state blocks even when short, so short requests gain "
          .. "least. Prefix caching is coarser still. In align mode the state is cached only "
          .. "where a step ends on a block boundary: vLLM ends a step at the prompt's last block "
          .. "boundary (the tail runs in the next step), so one checkpoint sits there (a longer prompt leaves one where each of "
          .. "its chunks ends, since align mode cuts prefill chunks to whole blocks, and decode "
          .. "one at each boundary it crosses), and a hit must cover every group: a later "
          .. "request reuses anything, even the attention blocks that match, only if such a "
          .. "boundary falls inside the prefix the two share. On "
          .. "Qwen3.5-4B (528-token blocks, prompts of about 2,200 tokens) a 1,600-token shared "
          .. "prefix gave 52 of 64 requests a hit and a 1,500-token one gave none "
          .. "(vllm-project/vllm#45238, June 2026); by default a shared prefix shorter than one "
          .. "block is recomputed. 0.26.0 adds an opt-in: --prefix-match-unit (#46384, merged "
          .. "in July 2026) matches in a finer unit that must divide the block, so the kept "
          .. "checkpoint sits nearer the prompt's end: that helps a conversation's next turn, "
          .. "which continues the whole earlier prompt, more than requests that share only a "
          .. "system prompt. --enable-mamba-fine-grained-prefix-cache (#53945, September 2026, "
          .. "after 0.26) also keeps a checkpoint where a shared prefix ends, but it is off by "
          .. "default and works only in align mode with an EAGLE or MTP drafter on the Mamba "
          .. "group and a match unit smaller than the block. The recurrent layers' state "
          .. "is also read and written in full at every decode step, whatever the context.",
    },
  },

  worked = code [[
attention KV  2 × 16 layers × 4 KV heads × 256 dims × 2 B       = 65,536 B per token
state         153,944,064 B ÷ 48 layers                        = 3,207,168 B (3.06 MiB) a layer
block         16 × ⌈3,207,168 ÷ (16 × 4,096)⌉ = 16 × 49          = 784 tokens
block id      784 × 4,096 B × 16 layers per group               = 49 MiB
40 GiB        40 × 1,024 ÷ 49                                   = 835 blocks
32,768 tok    ⌈32,768 ÷ 784⌉ + 3 groups × 2 = 42 + 6            = 48 blocks → 835 ÷ 48 = 17
4,096 tok     ⌈4,096 ÷ 784⌉ + 6 = 12 blocks                     → 69
all-attention 262,144 B × 32,768 = 8 GiB a request               → 5 in 40 GiB]],

  followups = {
    followup {
      question = "Why does vLLM log \"Setting attention block size to 784 tokens\" for "
              .. "Qwen3.5-27B, and what does it change for prefix caching?",
      answer = "vLLM keeps one pool with one page size for every layer. One gated-delta-net "
            .. "layer's state is about 3 MiB, while an attention layer stores only 4 KiB per "
            .. "token, so vLLM grows the attention block to the smallest multiple of 16 tokens "
            .. "whose page holds a state, 784 tokens, and pads the state page to match. Prefix "
            .. "caching then works in 784-token blocks: only whole blocks are reused, and the "
            .. "recurrent state is kept only where a step ends on a block boundary (vLLM ends a "
            .. "step at the prompt's last boundary, so one sits there), so by default a shared "
            .. "prefix shorter than a block is "
            .. "recomputed, and a later request hits only if such a boundary lies inside the "
            .. "prefix it shares.",
      points = {
        point { "one page size for every layer in the pool", weight = 2,
                about = {"vLLM", "pool", "page", "page size", "it", "allocator", "hybrid allocator"},
                said = {"one page size", "same page size", "equal pages", "one pool", "to be one size",
                        "the same size", "same size", "one size", "single page size", "unification",
                        "unified page size", "unifies the page size", "unifies page sizes"} },
        point { "the attention block grows until its page holds a state", weight = 2,
                about = {"attention block", "block", "vLLM", "block size", "attention cache",
                         "tokens of attention cache", "it"},
                said = {"grows", "enlarges", "stretched", "holds a state", "hold one state", "as large as",
                        "784 tokens", "pads", "fill the same space", "same space", "rounded up", "padded"} },
        point { "prefix caching works in whole 784-token blocks",
                about = {"prefix caching", "shared prefix", "reuse", "cache hits"},
                said = {"whole blocks", "784-token blocks", "784-token units", "block boundaries", "block edges",
                        "recomputed", "shorter than a block"} },
      },
      misconceptions = {
        misconception { about = {"prefix caching", "every token boundary", "the recurrent state", "the state", "it"},
                        said = {"every token boundary", "saved after each token", "saved after every token", "any token boundary",
                                "cached after each token", "checkpointed every token", "at any token"},
                        unless = {"only at block", "only where", "rather than", "instead of", "prefix-match-unit", "match unit",
                                                  "multiple of the unit"},
                                        why = "the state is kept only at block boundaries (align mode: where a step ends on one; all mode: every block), so by default a hit can land only on a 784-token boundary (0.26's --prefix-match-unit lets a hybrid set a finer unit that divides the block)" },
        misconception { about = {"784", "block size", "it", "the block"},
                        said = {"longer context", "max_model_len", "speeds up attention",
                                "a performance tuning"},
                        why = "the block grows so that one attention page is as large as one layer's recurrent state: vLLM pages every layer with one page size" },
      },
    },
    followup {
      question = "Qwen3.5-27B caches 4 times less per token than a 64-layer attention model of "
              .. "the same shape. With prefix caching on (--enable-prefix-caching), why does it fit "
              .. "only 69 requests of 4,096 tokens in 40 GiB, not 4 × 40 = 160?",
      answer = "Because the fixed state costs as much as thousands of tokens of its attention "
            .. "cache: each request pays its state blocks, two per state group in align mode, "
            .. "however short it is. Its attention cache is also rounded up to whole 784-token "
            .. "blocks, six for 4,096 tokens. At short context these fixed costs dominate; the "
            .. "fourfold saving shows only at long context, where the attention cache does. "
            .. "Speculative decoding makes it worse: each state group keeps one more state block "
            .. "for every draft token, so with 3 MTP tokens a 4,096-token request holds "
            .. h4_mtp.blocks_per_request .. " blocks, of a larger page since the MTP layer is "
            .. "cached too, and " .. h4_mtp.max_concurrent_seqs
            .. " fit, not " .. h4.max_concurrent_seqs .. ".",
      points = {
        point { "the fixed state is paid by every request, however short", weight = 2,
                about = {"fixed state", "state", "each request", "state blocks"},
                said = {"fixed", "however short", "every request", "pays", "thousands of tokens"} },
        point { "attention is rounded up to whole 784-token blocks",
                about = {"attention cache", "attention", "blocks"},
                said = {"rounded up", "rounding", "whole", "784-token", "six"} },
        point { "the saving shows only at long context", weight = 2,
                about = {"saving", "fourfold saving", "long context", "gain", "the 4x", "4x", "4×"},
                said = {"long context", "only", "dominate", "shows"} },
      },
      misconceptions = {
        misconception { about = {"the saving", "saving", "the fourfold saving", "the gain"},
                        said = {"at short context", "mostly at short", "short contexts", "short prompts"},
                        unless = {"long context", "long contexts", "longer", "hides", "little", "smaller", "less", "small at", "is small",
                                                  "nearly gone", "gone", "tiny", "minor"},
                        why = "at short context the fixed state blocks dominate each request's memory; the attention layers' growing KV, and so the saving, shows only at long context" },
        misconception { about = {"state", "recurrent state", "gated-delta-net"},
                        said = {"grows with the context", "grows per token", "grows with each token",
                                "stored per token", "is free"},
                        why = "the state is fixed in size but not free: about 147 MiB a request, paid even by short requests" },
      },
    },
  },

  exercises = {
    numeric {
      id = "attention-block",
      prompt = "An attention layer of Qwen3.5-27B stores 4,096 B per token (4 KV heads × 256 "
            .. "dims, K and V, BF16); one gated-delta-net layer's state is 3,207,168 B. vLLM "
            .. "grows the attention block to the smallest multiple of 16 tokens whose page "
            .. "holds one state. How many tokens is a block?",
      expected = h32.attention_block_size, unit = "tokens", tolerance = abs(0.5),
      worked = code("16 tokens  16 × " .. grouped(token_layer) .. " B = " .. grouped(page16)
          .. " B of one layer\n"
          .. "state      " .. grouped(state_layer) .. " B ÷ " .. grouped(page16) .. " B = "
          .. f(state_layer / page16, 4) .. " → ⌈" .. f(state_layer / page16, 4) .. "⌉ = "
          .. h32.attention_block_size // 16 .. "\n"
          .. "block      16 × " .. h32.attention_block_size // 16 .. " = "
          .. grouped(h32.attention_block_size) .. " tokens: " .. grouped(h32.attention_block_size)
          .. " × " .. grouped(token_layer) .. " B\n"
          .. "           = " .. grouped(h32.attention_block_size * token_layer) .. " B ≥ "
          .. grouped(state_layer) .. " B state\n"
          .. "why 16     the attention kernel's alignment; on Blackwell (SM100) with\n"
          .. "           FlashInfer at head dim 256 it is 32: 32 × ⌈"
          .. f(state_layer / (32 * token_layer), 2) .. "⌉ = " .. grouped(block32) .. " tokens"),
      hints = { "The page of one layer is block tokens × 4,096 B.",
                "16 × ⌈3,207,168 ÷ (16 × 4,096)⌉." },
    },
    numeric {
      id = "state-per-request",
      prompt = "Each of Qwen3.5-27B's 48 gated-delta-net layers keeps 3,207,168 B of state per "
            .. "request. How many MiB is the model's recurrent state for one request at 100,000 "
            .. "tokens of context (one unpadded state per layer, not the pages vLLM holds for it)?",
      expected = h32.state_bytes_per_request / MiB, unit = "MiB", tolerance = rel(0.01),
      diagnose = "units",
      worked = code("state    " .. h32.state_layers .. " layers × " .. grouped(state_layer) .. " B = "
          .. grouped(h32.state_bytes_per_request) .. " B at any context\n"
          .. "in MiB   " .. grouped(h32.state_bytes_per_request) .. " B ÷ 2^20 = "
          .. f(h32.state_bytes_per_request / MiB, 4) .. " MiB\n"
          .. "vLLM     pages more: each state padded to " .. grouped(padded) .. " B, "
          .. pages .. " a layer in\n"
          .. "         align mode: " .. state_blocks .. " blocks × " .. f(h32.block_bytes / MiB, 0)
          .. " MiB = " .. f(state_blocks * h32.block_bytes / MiB, 0) .. " MiB of state pages"),
      hints = { "The state does not depend on the context.", "48 × 3,207,168 B, in MiB." },
    },
    numeric {
      id = "hybrid-fit",
      prompt = "vLLM has 835 blocks of 784 tokens for Qwen3.5-27B. Each request needs one "
            .. "block per 784 tokens of context (rounded up) plus 6 state blocks. How many "
            .. "requests of {len} tokens fit at once?",
      params = { len = {2048, 4096, 8192, 16384, 32768, 65536, 131072} },
      expected = function(p)
        local r = hy(p.len)
        local per = math.ceil(p.len / 784) + 6
        return r.max_concurrent_seqs, "a request ⌈" .. grouped(p.len) .. " ÷ 784⌉ + 6 = "
          .. math.ceil(p.len / 784) .. " + 6 = " .. per .. " blocks\n"
          .. "fit       ⌊835 ÷ " .. per .. "⌋ = " .. r.max_concurrent_seqs
      end,
      unit = "sequences", tolerance = abs(0.5), diagnose = "capacity",
      hints = { "Blocks per request: ⌈len ÷ 784⌉ + 6.", "⌊835 ÷ blocks per request⌋." },
    },
    choice {
      id = "double-context",
      prompt = "A Qwen3.5-27B request's context doubles from 32,768 to 65,536 tokens. What "
            .. "happens to its memory?",
      options = {
        option { "Its 16 attention layers' cache doubles; the 48 layers' state stays the same",
                 correct = true,
                 why = "only attention keeps a cache per token; the recurrent state has a fixed size" },
        option { "All 64 layers' memory doubles",
                 why = "the gated-delta-net layers keep a fixed state, not a cache per token" },
        option { "Nothing changes: hybrid models have no KV cache",
                 why = "the 16 attention layers still cache K and V for every token" },
        option { "The state doubles and the attention cache stays the same",
                 why = "it is the other way round" },
      },
    },
    freetext {
      id = "why-state-fixed",
      prompt = "In two or three sentences: why does a Mamba or gated-delta-net layer's memory per "
            .. "request not grow with the context, when an attention layer's does?",
      answer = "An attention layer attends over every earlier token, so it must keep each "
            .. "token's key and value. A Mamba or gated-delta-net layer is recurrent: each new "
            .. "token updates a state of fixed size, and the past is kept only through that "
            .. "state, so its memory per request is constant.",
      points = {
        point { "attention keeps each token's K and V", weight = 2,
                accept = {"every earlier token", "each token's key", "every token", "per token",
                          "key and value", "k and v", "every past token", "all past tokens"} },
        point { "a recurrent layer updates a fixed-size state", weight = 2,
                accept = {"fixed size", "fixed-size", "constant", "recurrent", "updates a state"} },
      },
      misconceptions = {
        misconception { about = {"a Mamba layer", "Mamba layer", "the state", "its state", "the recurrent state", "it", "Mamba",
                                 "a GDN layer", "GDN"},
                        said = {"grows slowly", "grows more slowly", "appends a compressed summary", "grows with each token",
                                "grows a little", "grows sublinearly", "grows logarithmically", "appends each token"},
                        unless = {"attention", "KV cache", "instead of", "rather than"},
                        why = "a recurrent layer's state has a fixed size: each token updates it in place, and its memory never grows with the context" },
        misconception { about = {"vLLM", "the Mamba state", "the state"},
                        said = {"caps the Mamba state at max_model_len", "caps the state at max_model_len",
                                "compresses older tokens into fp8", "quantises old tokens to fp8", "quantizes old tokens to fp8",
                                "evicts older tokens from the state", "evicts old tokens from the state", "drops the oldest tokens"},
                        unless = {"fixed summary", "summary of", "attention KV", "attention layers", "the KV cache"},
                        why = "the state is not a store of tokens to cap or compress: it has a fixed size by construction, each token updating it in place" },
        misconception { about = {"state", "its state", "the state", "fixed-size state", "Mamba layer", "recurrent state",
                                 "its fixed-size state"},
                        said = {"keys and values of the last", "window of recent tokens", "last 4,096 tokens",
                                "a sliding window", "the recent tokens", "recent tokens' keys"},
                        unless = {"unlike", "instead of", "rather than", "not a window"},
                        why = "a recurrent state keeps no tokens: each token updates a fixed-size summary in place; a sliding window, which keeps the last W tokens' keys and values, is attention" },
        misconception { about = {"attention KV", "the KV cache", "attention keys and values"},
                        said = {"can't be quantized", "cannot be quantised", "can't be quantised", "cannot be quantized"},
                        why = "attention KV can be stored in fp8 (kv_cache_dtype); it grows with the context because each token's keys and values are kept" },
        misconception { about = {"recurrent state", "state", "the state"},
                        said = {"quantised", "quantized", "compressed more", "more aggressively", "shrinks as the context",
                                "shrinks over time", "shrinks with the context"},
                        why = "the state has a fixed size by construction: each token updates it in place, whatever the context length" },
        misconception { about = {"Mamba", "Mamba layers", "gated delta net", "recurrent layers", "linear attention",
                                 "they", "these layers"},
                        said = {"sliding window", "recent tokens", "most recent", "last few thousand tokens",
                                "drop older"},
                        why = "a recurrent layer keeps no per-token keys and values: each token updates a fixed-size state that summarises the whole past (beside it only a short convolution state of the last few inputs, also fixed); keeping a window of recent tokens is sliding-window attention, a kind of attention" },
      },
    },
  },
}
