-- Part 0 · Foundations: prefill and decode on the roofline. The ridge point
-- (FLOP/s ÷ bytes/s) says which phase waits on memory and which on arithmetic,
-- and at what batch decode stops being memory-bound.

local MODEL = "qwen2.5-7b"
local qwen = kv.model(MODEL)
local h100 = kv.gpu("h100")
local params = kv.calc{model = MODEL}.weights_bytes / 2          -- 7,615,616,512 parameters
local ridge = h100.tflops * 1e12 / (h100.bandwidth_gbps * 1e9)   -- 295.05 FLOP per byte
local PROMPT = 2048
local per_token = kv.calc{model = MODEL}.kv_bytes_per_token              -- 57,344 B
local KV_8K = per_token * 8192    -- 469,762,048 B = 448 MiB
local GROUP = qwen.heads // qwen.kv_heads                        -- 7 query heads per KV head
-- Qwen2.5-7B-Instruct's config.json: vocab_size 152,064, untied embedding and lm_head
local VOCAB = 152064
local embed_params = VOCAB * qwen.hidden                         -- 544,997,376, each of the two

-- Time of a pass limited by arithmetic: 2 FLOP per parameter per token.
local function prefill_ms(tokens, gpu)
  return 2 * params * tokens / (gpu.tflops * 1e12) * 1e3
end
-- Time of a decode step limited by reading the weights once.
local function weights_read_ms(gpu)
  return 2 * params / (gpu.bandwidth_gbps * 1e9) * 1e3
end

-- The context past which no batch reaches the ridge: a sequence adds 2 FLOPs a parameter
-- and, per cached token, 4 x layers x heads x head_dim attention FLOPs (QK^T and PV) against
-- that token's KV bytes read. Only while a sequence's FLOP time exceeds its KV read time can a
-- big enough batch turn the step compute-bound: (2P/F) / (kv/B - attn/F) tokens.
local FLOPS, BW = h100.tflops * 1e12, h100.bandwidth_gbps * 1e9
local attn_per_ctx = 4 * qwen.layers * qwen.heads * qwen.head_dim       -- 401,408 FLOPs
local ctx_edge = (2 * params / FLOPS) / (per_token / BW - attn_per_ctx / FLOPS)   -- about 922
local ctx_edge_weights = (2 * params / FLOPS) / (per_token / BW)                  -- about 900

local function f(x, places) return fixed(x, places or 1) end
local n = grouped -- 57344 -> "57,344"

-- for prefill-ms's worked lines: the convention's FLOPs against what vLLM runs, where the
-- embedding is a lookup, lm_head runs on the last prompt token only (gpu_model_runner's
-- logits_indices) and causal attention does QK^T and PV, 2 FLOP a multiply-add, for
-- P(P+1)/2 query-key pairs a layer
local attn_flops = 4 * qwen.heads * qwen.head_dim * qwen.layers * PROMPT * (PROMPT + 1) / 2
local vllm_prefill_flops = 2 * (params - 2 * embed_params) * PROMPT + 2 * embed_params + attn_flops
-- follow-up 4: attention's FLOPs for an N-token prompt, 2 × layers × heads × head_dim × N(N + 1),
-- against the weights' 2 × params × N: a share of (N + 1) × width ÷ params, the two equal at
-- N + 1 = params ÷ width (7,615,616,512 ÷ 100,352 = 75,888.9)
local attn_width = qwen.layers * qwen.heads * qwen.head_dim                  -- 100,352
local attn_even = params / attn_width
local function attn_share(tokens) return (tokens + 1) * attn_width / params end
-- the same against the body alone (embedding a lookup, lm_head on the last token only, as
-- prefill-ms counts it): 7,615,616,512 − 2 × 544,997,376 = 6,525,621,760 parameters,
-- 12.6% at 8,192, 50.4% at 32,768, equal at N + 1 = 65,027.5
local body_params = params - 2 * embed_params
local function body_share(tokens) return (tokens + 1) * attn_width / body_params end

return lesson {
  id = "prefill-decode",
  title = "Prefill and decode on the roofline",
  module = "part0-foundations",
  baseline = "the roofline model (Williams, Waterman and Patterson, \"Roofline: an insightful "
          .. "visual performance model\", CACM 2009); dense BF16 tensor-core peak and memory "
          .. "bandwidth from NVIDIA's H100 SXM data sheet, as in kvtutor gpus; 2 FLOP per "
          .. "parameter per token for the matrix multiplies, attention's own FLOPs left out",
  concept = "roofline",
  concept_title = "Prefill and decode roofline",
  requires = {"memory-bound-decode"},
  links = {"memory-bound-decode", "continuous-batching", "sizing-deployment"},

  question = "Prefill and decode run the same weights through the same GPU. Why is one "
          .. "compute-bound and the other memory-bound, and at what batch size does decode "
          .. "stop being memory-bound?",

  answer = "What decides it is arithmetic intensity: floating-point operations per byte read "
        .. "from memory. Prefill pushes the whole prompt through each weight it reads, about as "
        .. "many FLOPs per byte as the prompt has tokens, so a prompt of thousands of tokens "
        .. "waits on the tensor cores (a prompt, or a chunk, shorter than the ridge below waits "
        .. "on memory like decode). Decode pushes "
        .. "one token per sequence through each weight, about one FLOP per byte in BF16 at "
        .. "batch 1, and waits on memory. The GPU's ridge point, peak FLOP/s ÷ bandwidth, is "
        .. "the intensity where the two limits meet: 295 FLOP per byte on an H100, so decode "
        .. "turns compute-bound only at a batch of about 296 sequences by the data sheet's "
        .. "peaks (what kernels achieve moves it), ignoring the KV reads that push it further "
        .. "still.",

  points = {
    point { "arithmetic intensity: FLOPs per byte read decides it", weight = 2,
            accept = {"arithmetic intensity", "flops per byte", "flop per byte", "flop/byte",
                      "operations per byte", "intensity"} },
    point { "prefill reuses each weight for many tokens", weight = 2,
            about = {"prefill", "prompt processing", "the prompt"},
            said = {"many tokens", "whole prompt", "thousands of tokens", "reuses", "in parallel",
                    "thousands of FLOPs per byte", "compute-bound", "tensor cores", "matrix multiplies"} },
    point { "decode does one token per sequence per weight read",
            about = {"decode", "generation", "it"},
            said = {"one token", "single token", "per sequence", "batch 1", "one FLOP per byte",
                    "memory-bound", "turns compute-bound", "becomes compute-bound", "compute-bound only",
                    "only at a batch", "near a batch"} },
    point { "the ridge point is peak FLOP/s divided by bandwidth", weight = 2,
            about = {"ridge", "ridge point", "crossover", "compute-bound batch", "batch size"},
            said = {"divided by bandwidth", "÷ bandwidth", "FLOP/s divided by", "over bandwidth", "295", "296",
                    "300", "peak FLOP/s"},
            accept = {"roofline"} },
  },
  misconceptions = {
    misconception { about = {"prefill", "prompt processing"}, said = {"memory-bound"},
                    unless = {"short prompt", "token prompt", "small prompt", "tiny prompt", "token prefill", "short prefill",
                               "token chunk", "short chunk", "few tokens", "dozen tokens", "handful of tokens",
                               "below the ridge", "tokens at batch 1", "fewer than", "shorter than", "tokens or fewer",
                               "under about", "chunk under", "prompt under", "prefill under", "below about", "small chunk",
                               "short chunks"},
                    why = "prefill does about as many FLOPs a byte of weights as the prompt has tokens: compute-bound past the ridge, about 295 tokens on an H100; only a prompt shorter than that waits on memory" },
    misconception { about = {"decode", "generation"},
                    said = {"compute-bound at batch 1", "always compute-bound", "compute-bound even at batch 1"},
                    why = "at batch 1 decode does about one FLOP per byte; it turns compute-bound only near the ridge, ~296 sequences on an H100" },
    misconception { about = {"ridge", "ridge point", "crossover"},
                    said = {"bandwidth divided by", "bandwidth over peak", "bandwidth over FLOP",
                            "bytes per second divided by"},
                    why = "the ridge is peak FLOP/s ÷ bandwidth, 989e12 ÷ 3,352e9 = 295 FLOP a byte on an H100; the inverse, 0.0034, is bytes per FLOP" },
    misconception { about = {"KV cache", "the cache", "cache", "caches"},
                    said = {"shared by every sequence", "shared across the batch", "shared by the batch",
                            "shared among sequences", "shared by all sequences", "shared across sequences",
                            "shared by the sequences", "shared between sequences"},
                    unless = {"prefix", "common prompt", "same prompt", "system prompt", "shared blocks", "prefix caching"},
                    why = "each sequence reads its own cache, so the cache's part of a step does not gain from the batch; long contexts push the compute-bound batch out, and past about 922 tokens of context no batch on an H100 reaches the ridge at all" },
  },

  sections = {
    section {
      title = "Arithmetic intensity",
      text = "A matrix multiply of a weight matrix by N token vectors does 2 × N operations per "
          .. "weight (a multiply and an add) and reads each weight once. In BF16 a weight is 2 "
          .. "bytes, so the intensity is about N FLOP per byte: N is the number of tokens that "
          .. "share the read. That single number places any phase of inference on the roofline.",
    },
    section {
      title = "The ridge point",
      text = "A GPU can sustain its peak FLOP/s only if memory feeds it fast enough. The "
          .. "roofline's ridge is where the two limits cross: peak FLOP/s ÷ bytes/s. An H100 "
          .. "SXM does " .. f(h100.tflops, 0) .. " dense BF16 TFLOP/s and reads "
          .. n(h100.bandwidth_gbps) .. " GB/s, a ridge of " .. f(ridge, 0) .. " FLOP per byte. "
          .. "Below it the kernel waits on memory; above it, on arithmetic. These are the data "
          .. "sheet's peaks; real kernels reach a fraction of each, and the crossover a GPU shows "
          .. "is the ratio of what they reach: a GEMM at 70% of peak FLOP/s reading at 90% of "
          .. "peak bandwidth crosses at about " .. f(ridge * 0.7 / 0.9, 0) .. " FLOP per byte. "
          .. "So the batch-" .. f(ridge + 1, 0) .. " crossover below is the roofline's figure, "
          .. "not a measured one.",
    },
    section {
      title = "Prefill sits far to the right",
      text = "A " .. n(PROMPT) .. "-token prompt goes through each weight as one batch of "
          .. n(PROMPT) .. " vectors: about " .. n(PROMPT) .. " FLOP per byte, " .. f(PROMPT / ridge, 0)
          .. " times the H100's ridge. Its time is the arithmetic: 2 × " .. f(params / 1e9, 2) .. " billion "
          .. "parameters × " .. n(PROMPT) .. " tokens ÷ " .. f(h100.tflops, 0) .. " TFLOP/s ≈ "
          .. f(prefill_ms(PROMPT, h100)) .. " ms for Qwen2.5-7B at full tensor-core speed. "
          .. "Real kernels fall short of the peak, so a measured prefill takes longer; it never "
          .. "gets shorter by adding bandwidth. The same rule puts short prompts on the other "
          .. "side: a prompt or a prefill chunk of fewer than about " .. f(ridge, 0) .. " tokens "
          .. "does fewer FLOPs per byte than the H100's ridge and waits on memory.",
    },
    section {
      title = "Decode sits far to the left",
      text = "A decode step for B sequences does about B FLOP per byte of weights, and adds the "
          .. "attention over each sequence's cache. With grouped-query attention each cached K "
          .. "and V value serves heads ÷ kv_heads query heads: per token of context, attention "
          .. "does about 4 × H × d FLOPs on 4 × Hkv × d bytes (BF16), so its intensity is about "
          .. "the group size, " .. GROUP .. " FLOP per byte for Qwen2.5-7B (hundreds for MLA "
          .. "on the weight-absorbed path vLLM's MLA backends take for decode, where every head "
          .. "reads one shared latent; expanding the latent into per-head keys and values first "
          .. "would lose that; per GPU it is heads ÷ TP, so about 240 for DeepSeek-V3's 128 heads "
          .. "on one GPU or under data-parallel attention and about 30 at TP 8). At batch 1 a long context therefore "
          .. "raises the step's overall intensity, from 1 toward " .. GROUP .. "; what stays true "
          .. "is that the cache's part does not grow with the batch, because each sequence's "
          .. "cache is its own. At batch 1 the step takes as long as the weights take to "
          .. "read, " .. f(weights_read_ms(h100), 2) .. " ms on an H100, during which the "
          .. "tensor cores could have done " .. f(ridge, 0) .. " times the work. Decode becomes "
          .. "compute-bound only when the batch reaches the ridge: "
          .. kv.calc{model = MODEL, gpu = "h100"}.compute_bound_batch .. " sequences with "
          .. "empty caches. Their caches push that out, and past about " .. n(ctx_edge, 0)
          .. " tokens of context (" .. n(ctx_edge_weights, 0) .. " counting the weights' FLOPs "
          .. "alone) no batch gets there: each sequence's cache then takes longer to read than "
          .. "its FLOPs take to do.",
    },
    section {
      title = "What engines do with this",
      text = "Because the two phases want different things, engines mix them: vLLM's chunked "
          .. "prefill puts a slice of a prompt into the same step as the running decodes, so "
          .. "the decode step's idle arithmetic does prefill work; disaggregated serving puts "
          .. "prefill and decode on different GPUs. Both follow from where each phase sits on "
          .. "the roofline.",
    },
  },

  worked = code [[
ridge, H100       989 TFLOP/s ÷ 3,352 GB/s           = 295.05 FLOP/B
intensity         2 FLOP × N tokens ÷ 2 B per weight = N FLOP/B
prefill 2,048     2 × 7,615,616,512 × 2,048 ÷ 989e12 = 31.5 ms (compute-bound)
decode, batch 1   2 B × 7,615,616,512 ÷ 3,352e9      = 4.54 ms (memory-bound)
compute-bound     batch ≥ 295.05 → ⌈295.05⌉ = 296 sequences
                  (weights alone; the KV reads add bytes)]],

  followups = {
    followup {
      question = "With fp8 weights and fp8 tensor cores, does decode turn compute-bound at a "
              .. "smaller batch?",
      answer = "Not much. An fp8 weight is one byte, so the intensity doubles to about 2 FLOP "
            .. "per byte per sequence, but fp8 tensor cores also run twice as fast as BF16 (1,979 "
            .. "against 989 dense TFLOP/s on the H100 data sheet), which doubles the ridge. The two cancel, and the compute-bound batch stays "
            .. "near where it was; what fp8 does buy is half the bytes per step, so each step is "
            .. "faster while decode is memory-bound.",
      points = {
        point { "the intensity doubles: one byte per weight", weight = 2,
                about = {"intensity", "arithmetic intensity", "FLOPs per byte", "fp8 weight", "fp8 weights", "both"},
                said = {"doubles", "twice", "one byte", "1 byte", "2 FLOP per byte"} },
        point { "the fp8 peak FLOP/s doubles too, so the ridge moves", weight = 2,
                about = {"fp8 tensor cores", "tensor cores", "peak", "ridge", "fp8 peak", "peak FLOP/s", "both"},
                said = {"doubles", "twice as fast", "moves", "cancel", "also doubles"} },
        point { "no: the compute-bound batch stays near where it was", weight = 2, polarity = "no",
                about = {"compute-bound batch", "crossover", "crossover batch", "the batch", "batch size"},
                said = {"stays near where it was", "stays where it was", "stays the same", "doesn't move",
                        "does not move", "unchanged", "barely moves", "about the same"} },
        point { "each memory-bound step still gets faster",
                about = {"each step", "step", "decode", "it", "fp8"},
                said = {"faster", "fewer bytes", "less to read", "half the bytes"} },
      },
      misconceptions = {
        misconception { about = {"ridge", "ridge point", "the ridge"},
                        said = {"stays the same", "unchanged", "doesn't move", "does not move", "stays put"},
                        why = "fp8 tensor cores double the peak FLOP/s, so the ridge point doubles too" },
        misconception { about = {"intensity", "arithmetic intensity", "FLOPs per byte"},
                        said = {"unchanged", "stays the same", "doesn't change", "does not change"},
                        why = "an fp8 weight is one byte, so each sequence does twice the FLOPs per byte read" },
        misconception { about = {"decode", "it", "compute-bound batch", "crossover"},
                        said = {"much smaller batch", "half the batch", "at half the batch", "twice the batch",
                                "needs a bigger batch"},
                        why = "fp8 doubles both the intensity and the peak FLOP/s: the ridge doubles too, so the crossover batch stays where it was" },
      },
    },
    followup {
      question = "Why does a long prompt arriving make every running decode stall, and what "
              .. "does chunked prefill do about it?",
      answer = "A step that includes a whole long prefill takes as long as that prefill's "
            .. "arithmetic, tens or hundreds of milliseconds, and every decode in the batch waits "
            .. "for the step to end: the inter-token latency spikes. Chunked prefill caps the "
            .. "tokens per step (max_num_batched_tokens), splitting a prompt longer than the cap "
            .. "over several steps, and it fills the compute that memory-bound decode leaves "
            .. "idle. It bounds the stall rather than removing it: a step that carries a "
            .. n(PROMPT) .. "-token chunk still adds about " .. f(prefill_ms(PROMPT, h100)) .. " ms "
            .. "of arithmetic to every decode in it, and a smaller cap trades the long prompt's "
            .. "TTFT for the others' inter-token latency. The cap matters: vLLM 0.26's `vllm "
            .. "serve` defaults to 8,192 tokens a step on an H100 (2,048 on an A100 or a card under "
            .. "70 GiB), shared with the step's decodes "
            .. "(one token each), so a prompt up to 8k less those still goes in one step of about " .. f(prefill_ms(8192, h100), 0) .. " ms at peak; "
            .. "bounding the stall means lowering max_num_batched_tokens (or setting "
            .. "--long-prefill-token-threshold).",
      points = {
        point { "decodes in the same step wait for the prefill", weight = 2,
                about = {"decodes", "decode", "running decodes", "every decode", "batch", "inter-token latency",
                         "ITL", "step", "everyone", "everyone's next token", "next token", "every sequence",
                         "all sequences", "prefill"},
                said = {"wait", "stall", "same step", "latency spike", "spikes", "blocked", "takes as long",
                        "makes the step long", "step long", "longer step", "long step", "slow for everyone",
                        "slows everyone", "slows every decode"} },
        point { "chunking splits the prompt across steps", weight = 2,
                about = {"chunked prefill", "chunking", "it", "the prompt", "prefill"},
                said = {"split", "chunks", "several steps", "pieces", "caps the tokens per step",
                        "max_num_batched_tokens"} },
        point { "it uses the compute decode leaves idle",
                about = {"chunked prefill", "it", "chunks", "prefill chunks"},
                said = {"idle", "fills the compute", "spare compute", "unused compute", "piggyback"} },
      },
      misconceptions = {
        misconception { about = {"chunked prefill", "chunking", "it"},
                        said = {"block size larger", "larger blocks", "bigger blocks", "raises max_num_batched_tokens",
                                "finishes in one step", "in one step", "aren't evicted"},
                        why = "chunked prefill caps the prompt tokens per step, so the prompt is spread over several steps and no step grows long" },
        misconception { about = {"prompt's KV cache", "the prompt", "prefill", "the prompt's cache"},
                        said = {"evicts", "memory-bound", "hogs bandwidth", "hogs memory bandwidth"},
                        why = "prefill is compute-bound: the decodes wait because the step that carries the prompt takes as long as its matrix multiplies" },
        misconception { about = {"chunked prefill", "chunking", "it"},
                        said = {"reduces the FLOPs", "less compute", "fewer FLOPs", "skips"},
                        why = "chunking does the same arithmetic spread over more steps; what it bounds is how long any one step takes" },
      },
    },
    followup {
      question = "With prefill and decode on separate GPUs (disaggregated serving), what has to "
              .. "move for each 8,192-token Qwen2.5-7B request, and how big is it?",
      answer = "The prompt's whole KV cache moves: every layer's keys and values for every "
            .. "prompt token. That is 57,344 B × 8,192 = " .. n(KV_8K) .. " B = "
            .. f(KV_8K / 2^20, 0) .. " MiB in BF16, half that with an fp8 cache. Over a 400 "
            .. "Gb/s (50 GB/s) RDMA link that is about " .. f(KV_8K / 50e9 * 1e3, 1) .. " ms, "
            .. "small next to the " .. f(prefill_ms(8192, h100), 0) .. " ms the prefill itself "
            .. "takes on an H100, but it must overlap with compute and the link must keep up "
            .. "with the request rate.",
      points = {
        point { "the prompt's whole KV cache moves", weight = 2,
                about = {"the prompt's KV cache", "KV cache", "keys and values", "what moves", "the cache",
                         "K and V", "every layer's K and V"},
                short = {"the prompt's KV cache", "KV cache", "its KV cache", "the prompt's keys and values",
                         "every layer's K and V", "all of its KV cache"},
                said = {"whole KV cache", "every layer", "moves", "transferred", "sent", "has to move",
                        "for the whole prompt", "whole prompt"},
                accept = {"kv transfer", "transfer the kv"} },
        point { "448 MiB for 8,192 tokens in BF16", weight = 2,
                accept = {"448", "470 MB", "469,762,048", "0.4375", "0.44 GiB", "0.47 GB"} },
        point { "the link's bandwidth decides the cost",
                accept = {"rdma", "nvlink", "bandwidth", "link", "interconnect", "nixl", "overlap"} },
      },
      misconceptions = {
        misconception { about = {"what moves", "the transfer", "it", "the prefill GPU"},
                        said = {"only the token ids", "just the tokens", "only the text", "only the last token",
                                "only the prompt tokens"},
                        why = "decode needs every layer's keys and values for every prompt token: 56 KiB a token, not the token ids" },
        misconception { about = {"the decode GPU", "decode GPU", "the decode side", "decode side", "the decode node",
                                 "the decode instance"},
                        said = {"rebuilds", "recomputes", "re-prefills", "reprefills", "computes the KV again",
                                "prefills again", "redoes the prefill"},
                        unless = {"fails", "failed", "failure", "lost", "falls back", "fallback", "times out", "timeout",
                                  "kv_load_failure_policy", "otherwise", "would", "if only", "defeat", "defeats",
                                  "what disaggregation avoids", "which disaggregation avoids"},
                        why = "rebuilding the cache on the decode GPU would be the prefill again, which is what disaggregation moves away: the decode side receives the prompt's keys and values, 56 KiB a token" },
        misconception { about = {"weights", "the model weights"},
                        said = {"move per request", "are transferred", "are sent per request", "sent with each request",
                                "with each request", "sent with every request", "also sent", "move with each request"},
                        why = "each side loads the weights once; per request only the KV cache moves" },
      },
    },
    followup {
      question = "Is a prefill's cost linear in the prompt's length? Where does that stop being "
              .. "true, and what grows with the context in decode?",
      answer = "The weights' matrix multiplies are linear: 2 FLOP per parameter per token, "
            .. "2 × " .. f(params / 1e9, 2) .. " billion × N for Qwen2.5-7B. Attention's own FLOPs "
            .. "are not: each token's query meets the key of every token before it, QKᵀ and PV "
            .. "at 2 FLOP a multiply-add, 2 × layers × heads × head_dim × N(N + 1) in all, "
            .. "which grows with the square of the prompt. Against the weights that is (N + 1) ÷ "
            .. n(math.floor(attn_even + 0.5)) .. " of their FLOPs for Qwen2.5-7B (" .. qwen.layers
            .. " layers × " .. qwen.heads .. " heads × " .. qwen.head_dim .. " dims = "
            .. n(attn_width) .. " against " .. n(params) .. " parameters): about "
            .. f(100 * attn_share(8192), 0) .. "% at 8,192 tokens, " .. f(100 * attn_share(32768), 0)
            .. "% at 32,768, and past about " .. n(math.floor(attn_even / 1000 + 0.5)) .. ",000 tokens "
            .. "the larger part, counted against all the parameters; against the body alone "
            .. "(the embedding a lookup, the output head run for the last token only) it is "
            .. f(100 * body_share(8192), 0) .. "% and " .. f(100 * body_share(32768), 0)
            .. "%, equal near " .. n(math.floor(body_params / attn_width / 1000 + 0.5))
            .. ",000 (Qwen2.5-7B's config allows 32,768 positions; beyond that takes YaRN "
            .. "rope scaling). FlashAttention does not change that count: it keeps the score "
            .. "matrix out of HBM, which saves memory traffic, not FLOPs. In decode the matching "
            .. "cost is bytes: each step reads every earlier token's keys and values ("
            .. n(per_token) .. " B a token), so a step's KV read grows with the context and a "
            .. "whole reply's with context × length.",
      points = {
        point { "the weights' matrix multiplies are linear in the prompt",
                about = {"the weights", "the matrix multiplies", "the linear layers", "the MLP",
                         "the projections", "the weight FLOPs", "2 FLOP per parameter", "the GEMMs"},
                said = {"linear", "linearly", "proportional", "per token", "grow linearly", "scale linearly"},
                accept = {"2 × params × n", "2pn", "2 flop per parameter per token"} },
        point { "attention's own FLOPs grow with the square of the prompt", weight = 3,
                about = {"attention", "attention's FLOPs", "attention FLOPs", "QK^T", "QKᵀ", "the scores",
                         "the score matrix", "each token", "self-attention"},
                said = {"quadratic", "quadratically", "square", "n^2", "n²", "every earlier token",
                        "every token before it", "all previous tokens", "all earlier tokens"},
                accept = {"quadratic", "o(n^2)", "o(n²)"} },
        point { "it matters at long prompts: as large as the weights' near 76k tokens here",
                about = {"it", "attention", "the quadratic term", "the quadratic part", "attention's share"},
                said = {"dominates", "matters", "takes over", "overtakes", "at long prompts", "long context",
                        "long contexts", "long prompts", "the larger part", "the bigger part"},
                accept = {"75,8", "75,9", "76k", "76,000", "65k", "65,000", "long prompts", "long context"} },
        point { "in decode each step reads every earlier token's keys and values",
                about = {"decode", "each decode step", "a decode step", "each step", "every step", "decoding"},
                said = {"reads the whole kv", "reads all", "every earlier token", "grows with the context",
                        "reads the cache", "more kv", "reads more", "kv reads grow", "the whole cache"},
                accept = {"kv read", "reads the kv cache", "kv reads"} },
      },
      misconceptions = {
        misconception { about = {"FlashAttention", "flash attention", "FA2", "FA3"},
                        said = {"linear", "makes it linear", "removes the quadratic", "fewer flops",
                                "reduces the flops", "less compute", "less arithmetic"},
                        why = "FlashAttention tiles attention so the N × N scores never go to HBM: it saves memory traffic, and the FLOPs stay quadratic" },
        misconception { about = {"the weights", "the matrix multiplies", "the linear layers", "the MLP", "the projections",
                                 "the weight FLOPs", "the GEMMs"},
                        said = {"quadratic", "quadratically", "square", "squared"},
                        why = "the weights' FLOPs are 2 per parameter per token, linear in the prompt; the quadratic part is attention's" },
      },
    },
  },

  exercises = {
    numeric {
      id = "ridge-h100",
      prompt = "An H100 SXM does 989 dense BF16 TFLOP/s and reads 3,352 GB/s. How many FLOP "
            .. "per byte must a kernel do to be compute-bound rather than memory-bound?",
      expected = ridge, unit = "FLOP/B", tolerance = rel(0.02),
      worked = code("ridge      " .. f(h100.tflops, 0) .. " × 10^12 FLOP/s ÷ (" .. n(h100.bandwidth_gbps)
          .. " × 10^9 B/s) = " .. f(ridge, 2) .. " FLOP/B\n"
          .. "so         below " .. f(ridge, 2) .. " FLOP/B memory-bound, above it compute-bound"),
      hints = { "Divide the peak FLOP/s by the bytes per second.",
                "989 × 10^12 ÷ (3,352 × 10^9)." },
    },
    numeric {
      id = "compute-bound-batch",
      prompt = "On the {gpu}, decoding a BF16 dense model and counting only the weights' bytes, "
            .. "from how many sequences in the batch (each decodes one token a step) is a decode "
            .. "step compute-bound? (kvtutor gpus lists its FLOP/s and bandwidth.)",
      params = { gpu = {"H100 SXM", "A100 80GB SXM", "RTX 4090", "L40S", "H200 SXM", "B200"} },
      expected = function(p)
        local g, b = kv.gpu(p.gpu), kv.calc{model = MODEL, gpu = p.gpu}.compute_bound_batch
        local r = g.tflops * 1e12 / (g.bandwidth_gbps * 1e9)
        -- enough decimals that the ceiling of the figure shown is the graded batch
        local places = 2
        while math.ceil(tonumber(string.format("%." .. places .. "f", r))) ~= b and places < 6 do places = places + 1 end
        local rs = fixed(r, places)
        return b, "ridge    " .. (g.tflops % 1 == 0 and grouped(g.tflops) or fixed(g.tflops, 1))
          .. " × 10^12 FLOP/s ÷ (" .. grouped(g.bandwidth_gbps) .. " × 10^9 B/s) = " .. rs
          .. " FLOP/B\n"
          .. "batch    n sequences do 2n FLOP per 2-byte weight: n FLOP/B\n"
          .. "         n ≥ " .. rs .. " → ⌈" .. rs .. "⌉ = " .. b .. " sequences"
      end,
      unit = "sequences", tolerance = rel(0.02),
      hints = { "In BF16 a batch of n does about n FLOP per byte of weights.",
                "The batch equals the ridge point, peak FLOP/s ÷ bandwidth, rounded up." },
    },
    numeric {
      id = "prefill-ms",
      prompt = "At the H100's full 989 TFLOP/s, how many milliseconds does it take to prefill "
            .. "a 2,048-token prompt through Qwen2.5-7B (7.6 billion parameters), counting 2 "
            .. "FLOP per parameter per token?",
      expected = prefill_ms(PROMPT, h100), unit = "ms", tolerance = rel(0.03),
      worked = code("params     " .. n(params) .. " (the 7.6 billion, exactly: config.json's shapes)\n"
          .. "FLOPs      2 × " .. n(params) .. " params × " .. n(PROMPT) .. " tokens\n"
          .. "           = " .. n(2 * params * PROMPT) .. " FLOP\n"
          .. "time       " .. f(2 * params * PROMPT / 1e12, 2) .. " × 10^12 FLOP ÷ ("
          .. f(h100.tflops, 0) .. " × 10^12 FLOP/s) = " .. f(prefill_ms(PROMPT, h100) / 1e3, 4)
          .. " s = " .. f(prefill_ms(PROMPT, h100)) .. " ms\n"
          .. "convention every parameter for every token, attention left out. Really\n"
          .. "           the embedding is a lookup, vLLM runs lm_head on the last token\n"
          .. "           only, and causal attention adds ≈ " .. f(attn_flops / 1e12, 2)
          .. " × 10^12 FLOP:\n"
          .. "           ≈ " .. f(vllm_prefill_flops / 1e12, 2) .. " × 10^12 FLOP, " .. f(vllm_prefill_flops / (h100.tflops * 1e12) * 1e3) .. " ms, "
          .. f((1 - vllm_prefill_flops / (2 * params * PROMPT)) * 100, 0) .. " % less"),
      hints = { "FLOPs: 2 × 7,615,616,512 × 2,048.", "Divide by 989 × 10^12 FLOP/s." },
    },
    numeric {
      id = "decode-step-ms",
      prompt = "How many milliseconds does one batch-1 decode step of Qwen2.5-7B in BF16 take "
            .. "on the H100, if it only has to read the weights once at 3,352 GB/s?",
      expected = weights_read_ms(h100), unit = "ms", tolerance = rel(0.03),
      worked = code("params     " .. n(params) .. " (the 7.6 billion, exactly: config.json's shapes)\n"
          .. "bytes      2 B × " .. n(params) .. " params = " .. n(2 * params)
          .. " B, read once\n"
          .. "time       " .. n(2 * params) .. " B ÷ (" .. n(h100.bandwidth_gbps)
          .. " × 10^9 B/s) = " .. f(weights_read_ms(h100), 2) .. " ms\n"
          .. "note       every weight counted; the " .. f(2 * embed_params / 1e9, 2)
          .. " GB embedding is really a lookup"),
      hints = { "The weights are 2 bytes × 7,615,616,512 parameters.",
                "Bytes ÷ (3,352 × 10^9 bytes per second)." },
    },
    numeric {
      id = "decode-intensity",
      prompt = "A decode step runs {batch} BF16 sequences through the weights. Counting the "
            .. "weights' bytes only, what is its arithmetic intensity, in FLOP per byte?",
      params = { batch = {1, 4, 8, 16, 32, 64, 128} },
      expected = function(p)
        return p.batch, "FLOP     2 × " .. p.batch .. " sequences per weight = " .. 2 * p.batch .. "\n"
          .. "bytes    2 per BF16 weight, read once\n"
          .. "ratio    " .. 2 * p.batch .. " ÷ 2 = " .. p.batch .. " FLOP/B"
      end,
      unit = "FLOP/B", tolerance = rel(0.05),
      hints = { "Each weight does a multiply and an add for each sequence.",
                "2 FLOP × batch ÷ 2 bytes per weight." },
    },
    choice {
      id = "which-phase",
      prompt = "On one H100, which of these is compute-bound?",
      options = {
        option { "Prefilling one 4,096-token prompt", correct = true,
                 why = "about 4,096 FLOP per byte, far past the ridge of 295" },
        option { "Decoding 64 sequences together",
                 why = "about 64 FLOP per byte of weights: still left of the ridge" },
        option { "Decoding one sequence with a 32,768-token context",
                 why = "attention over the cache runs at about the GQA group size, 7 FLOP per byte for Qwen2.5-7B: far left of the ridge" },
        option { "Copying the KV cache of a preempted sequence to host memory",
                 why = "a copy does no arithmetic at all (and V1 does not make it: a preempted request is recomputed, lesson 5; a KV offloading connector copies blocks to host memory as they fill, not at preemption)" },
      },
    },
    freetext {
      id = "why-intensity",
      prompt = "Why does batching more sequences keep raising decode's arithmetic intensity, "
            .. "while a longer context cannot take it past about the GQA group size (heads ÷ "
            .. "KV heads, " .. GROUP .. " for Qwen2.5-7B)?",
      answer = "The weights are read once per step whatever the batch, so every extra sequence "
            .. "adds FLOPs without adding weight bytes. Each sequence's KV cache, though, is its "
            .. "own, read in full: a longer context adds bytes and the FLOPs to use them in fixed "
            .. "proportion, about one operation per byte for each query head sharing a KV head, "
            .. "so attention's intensity stays near the group size however long the context.",
      points = {
        point { "the weights are read once and shared by the batch", weight = 2,
                accept = {"read once", "shared", "share", "once per step", "amortis", "amortiz",
                          "reuses the same weight", "same weight bytes"} },
        point { "each sequence's cache is its own, read in full",
                accept = {"own cache", "its own", "per sequence", "not shared", "each cache"} },
        point { "KV reads bring about as many bytes as FLOPs",
                accept = {"one operation", "one flop", "equal", "as many bytes", "low intensity",
                          "bytes and flops", "fixed proportion", "group size", "in step with", "in proportion",
                          "grow together", "scale together", "as fast as"} },
      },
      misconceptions = {
        misconception { about = {"longer context", "a longer context", "context", "more context", "longer contexts"},
                        said = {"without limit", "without bound", "indefinitely", "unboundedly", "forever",
                                "keeps raising intensity", "keeps raising the intensity", "keeps raising its intensity",
                                "keeps raising it"},
                        why = "each sequence's cache is its own: a longer context adds bytes and the FLOPs to use them in fixed proportion, so attention's intensity stays near the group size" },
        misconception { about = {"batching", "more sequences", "a bigger batch", "batch size", "batch"},
                        said = {"stalls at the group size", "capped at the group size", "stops at the group size",
                                "limited by the group size", "cannot take it past"},
                        why = "the weights are read once per step whatever the batch, so every extra sequence adds FLOPs without adding weight bytes" },
      },
    },
  },
}
