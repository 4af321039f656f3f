-- Part 0 · Foundations: speculative decoding. Decode leaves the FLOPs idle; a cheap
-- draft guesses k tokens and the target checks them all in one step. It costs KV for
-- the draft's layers, lookahead slots, and FLOPs that stop being free at large batch.

local MODEL = "llama-3.1-8b"
local m = kv.model(MODEL)
local h100 = kv.gpu("h100")
local K = 3                                          -- draft tokens per step
local ALPHA = 0.8                                    -- chance each draft token is accepted
local BUDGET = 40                                    -- GiB of KV
local SEQ = 8192

local base = kv.calc{model = MODEL, gpu = "h100", seq = SEQ, context = SEQ, kv_budget_gib = BUDGET}
-- An EAGLE head is one decoder layer of the target's shape, cached in the same pool
-- (docs/calculator.md): the target's layers plus one.
local eagle = kv.calc{model = MODEL, gpu = "h100", seq = SEQ, kv_budget_gib = BUDGET,
                      layers = m.layers + 1}
local ridge = kv.calc{model = MODEL, gpu = "h100", seq = SEQ}.compute_bound_batch

-- Expected tokens per target step (Leviathan et al. 2023, eq. 1).
local function expected(alpha, k) return (1 - alpha ^ (k + 1)) / (1 - alpha) end

local step_read_ms = (base.weights_bytes + SEQ * base.kv_bytes_per_token) / (h100.bandwidth_gbps * 1e9) * 1000
local verify_flop_ms = 2 * m.params * 1e9 * (K + 1) / (h100.tflops * 1e12) * 1000

-- Counting the KV as well as the weights (the calculator's roofline: a step reads the
-- weights once and each sequence's context once, whatever its k + 1 positions; it does
-- 2 FLOPs per parameter per position). Per sequence the verification adds
-- (k + 1) x 2P / FLOP/s of compute and context x KV/token / bandwidth of reads; the step
-- can turn compute-bound only while the first is larger, i.e. below kv_edge tokens, and
-- at batch B it does only below ctx_at(B) tokens.
local weights_ms = base.weights_bytes / (h100.bandwidth_gbps * 1e9) * 1000
local kv_ms_per_token = base.kv_bytes_per_token / (h100.bandwidth_gbps * 1e9) * 1000
local kv_edge = verify_flop_ms / kv_ms_per_token                  -- 1,661 tokens
local kv_seq_ms = SEQ * kv_ms_per_token                            -- 0.32 ms at 8,192
local function ctx_at(b) return (b * verify_flop_ms - weights_ms) / (b * kv_ms_per_token) end
local BIG = 256
-- The 512-sequence batch job of the choice item: the tokens each of 512 requests can hold in
-- the 40 GiB pool with the EAGLE head, whole blocks (19,859 // 512 = 38 blocks, 608 tokens),
-- against the context below which its verification step turns compute-bound.
local JOB = 512
local job_tokens = eagle.num_gpu_blocks // JOB * eagle.block_size
-- Plain decode at that batch (one position a sequence) is compute-bound only below this.
local plain_ctx = (JOB * verify_flop_ms / (K + 1) - weights_ms) / (JOB * kv_ms_per_token)
local seqs_kv_gib = math.floor(ridge / (K + 1) + 0.5) * SEQ * base.kv_bytes_per_token / 2^30  -- 74 GiB

local function f(x, places) return fixed(x, places or 1) end

return lesson {
  id = "speculative-decoding",
  title = "Speculative decoding: spending the idle FLOPs",
  module = "part0-foundations",
  baseline = "Leviathan, Kalman and Matias, \"Fast Inference from Transformers via Speculative "
          .. "Decoding\" (ICML 2023), §3 (expected tokens per step (1 − α^(k+1)) ÷ (1 − α); the "
          .. "output distribution is the target's); Li et al., \"EAGLE\" (ICML 2024), a one-layer "
          .. "draft head on the target's features; DeepSeek-V3 technical report §2.2 and its "
          .. "config.json (num_nextn_predict_layers 1) for MTP; vLLM V1 (vllm/v1/core/sched/"
          .. "scheduler.py: Scheduler.__init__ sets num_lookahead_tokens to "
          .. "num_speculative_tokens for EAGLE and draft-model methods, 0 for n-gram; "
          .. "Scheduler.schedule schedules num_tokens_with_spec within the token budget and "
          .. "allocates the lookahead slots in allocate_slots); the draft layers' KV in the same "
          .. "pool as docs/calculator.md models it; Llama-3.1-8B's config.json; the H100 SXM data "
          .. "sheet",
  concept = "speculative-decoding",
  concept_title = "Speculative decoding",
  requires = {"prefill-decode", "chunked-prefill"},
  links = {"memory-bound-decode", "prefill-decode", "latency"},

  question = "How does speculative decoding make decode faster without changing the output, "
          .. "what does it cost in memory, and when does it stop paying?",

  answer = "A decode step is memory-bound: it streams every weight to produce one token per "
        .. "sequence, and the FLOPs sit idle. A cheap draft (a small model, an EAGLE head, the "
        .. "model's own MTP layers) guesses k tokens; the target then checks all k + 1 positions "
        .. "in one forward pass, which reads the weights once, so verification costs about one "
        .. "ordinary step. Rejection sampling keeps the output distribution exactly the "
        .. "target's in theory (vLLM's docs promise that up to floating-point numerics: a "
        .. "batched verification can differ from one-token steps in the last bits), and every "
        .. "step yields at least one token. It costs KV memory for the "
        .. "draft's layers, lookahead slots for the k draft tokens of every running request, "
        .. "FLOPs for tokens that are rejected, and in 0.26 with EAGLE or MTP one prefix-cache "
        .. "block a hit: the lookup drops the last matched block, which is computed again, "
        .. "since the draft needs the target's hidden states there and the cache keeps none "
        .. "(FullAttentionManager.find_longest_cache_hit; later sources add an opt-out, "
        .. "speculative_config's disable_eagle_block_drop, vllm#53388, merged in September "
        .. "2026 after 0.28.0, its first release unverified). At a large "
        .. "batch of short sequences the "
        .. "FLOPs are no longer idle: counting the weights alone, k + 1 positions per sequence "
        .. "turn the verification step compute-bound at about a quarter of the plain decode "
        .. "batch (about " .. f(ridge / (K + 1), 0) .. " Llama-3.1-8B sequences on an H100 at "
        .. "k = " .. K .. "), and past it the extra tokens make each step slower: the gain "
        .. "shrinks or reverses. Long contexts move that point far out, since every sequence's "
        .. "KV read is paid once however many positions it verifies.",

  points = {
    point { "decode leaves FLOPs idle; verification uses them", weight = 2,
            about = {"decode step", "decode", "FLOPs", "compute", "verification", "verifying", "one token per step",
                     "arithmetic units", "math units", "the GPU"},
            said = {"memory-bound", "idle", "one forward pass", "about one ordinary step",
                    "reads the weights once", "free"} },
    point { "a draft proposes k tokens; the target checks them in one pass", weight = 2,
            about = {"draft", "the target", "EAGLE head", "small model", "target", "proposer",
                     "cheap proposer", "big model", "the big model", "drafter"},
            said = {"guesses", "proposes", "checks", "verifies", "k + 1 positions", "in one pass", "scores",
                    "single pass", "in a single pass"} },
    point { "rejection sampling keeps the target's output distribution", weight = 2,
            about = {"rejection sampling", "output", "output distribution", "kept tokens",
                     "accept/reject rule", "accept/reject"},
            said = {"exactly the target's", "unchanged", "same distribution", "keeps", "identical",
                    "follow exactly", "the big model's distribution", "target's distribution", "identically"} },
    point { "it costs KV for the draft's layers and lookahead slots", weight = 2,
            about = {"it", "draft", "draft's layers", "memory", "KV"},
            said = {"kv memory", "lookahead", "extra layer", "slots", "costs"} },
    point { "at a large batch of short sequences the step turns compute-bound and the gain fades; long contexts keep it memory-bound",
            weight = 2,
            about = {"large batch", "at a large batch", "big batch", "the step", "gain", "long context",
                     "long contexts", "long sequences"},
            said = {"compute-bound", "no longer idle", "shrinks", "reverses", "slower", "stays memory-bound",
                    "still pays", "KV read dominates", "helps more at large batch"} },
  },
  misconceptions = {
    misconception { about = {"batch 256", "large batch", "a large batch", "at large batch", "it", "speculative decoding",
                             "speculation", "spec decode"},
                    said = {"more idle FLOPs", "more idle compute", "helps even more", "even faster", "more speedup",
                            "speeds it up more", "gains more"},
                    unless = {"long context", "long contexts", "KV read", "MagicDec", "KV dominates", "long sequences",
                                              "100,000", "100k"},
                    why = "a larger batch already uses more of the FLOPs: fewer are idle than at batch 1, so verification costs more, not less; with short contexts the k + 1 positions push the step past the ridge" },
    misconception { about = {"speculative decoding", "it", "output", "the output"},
                    said = {"approximates the output", "changes the output", "lower quality",
                            "lossy", "trades accuracy"},
                    why = "rejection sampling accepts a draft token only as often as the target would have produced it: the output distribution is exactly the target's" },
    misconception { about = {"token", "draft token", "guess", "each guess", "it", "vLLM", "output", "the output"},
                    said = {"above a threshold", "over a threshold", "confidence threshold", "probability threshold",
                            "confidence cutoff", "high enough probability", "probability is high enough",
                            "approximately the target's", "approximately the same", "close to the target's",
                            "roughly the target's", "approximately matches", "nearly identical", "closely tracks",
                            "almost the same"},
                    why = "vLLM V1 has no threshold (V0's typical-acceptance sampler had one, and changed the distribution): with sampling a guess x is kept with probability min(1, p(x) ÷ q(x)), and on a rejection the next token is drawn from max(0, p − q), normalised; that makes the output distribution exactly the target's, not close to it (greedy keeps a guess while it equals the target's top token)" },
    misconception { about = {"large batch", "at a large batch", "it", "speedup"},
                    said = {"always faster", "always helps", "scales with batch"},
                    why = "with short sequences, at a large batch the verification step turns compute-bound (k + 1 positions per sequence reach the ridge at about a quarter of the plain batch): the extra tokens cost real FLOPs, and the gain shrinks or reverses; only long contexts, where each sequence's KV read dominates, keep it paying" },
    -- Not the bare "draft": "an n-gram draft needs no KV cache" is right (ngram_proposer.py
    -- holds no cache), and a misconception cannot yet tell it from "the draft needs no KV".
    misconception { about = {"draft model", "small draft", "draft network", "EAGLE head", "draft head", "MTP layers", "MTP head",
                             "draft's layers", "small model", "EAGLE draft", "MTP draft"},
                    said = {"no memory", "free memory", "needs no KV", "no cache", "costs no memory"},
                    why = "a draft that attends keeps its own KV: an EAGLE head's layer or MTP layers are cached beside the target's, and each request needs lookahead slots" },
  },

  sections = {
    section {
      title = "Idle FLOPs",
      text = "At batch 1 a Llama-3.1-8B step on an H100 reads " .. f(base.weights_bytes / 1e9, 2)
          .. " GB of weights and an 8,192-token cache: " .. f(step_read_ms, 2) .. " ms of "
          .. "memory traffic. Running " .. (K + 1) .. " positions through the model instead of "
          .. "one costs 2 × " .. f(m.params, 2) .. " billion × " .. (K + 1) .. " FLOPs, "
          .. f(verify_flop_ms, 3) .. " ms at the paper peak: the weights are read once either "
          .. "way, so checking " .. (K + 1) .. " tokens costs about the same step as producing "
          .. "one.",
    },
    section {
      title = "Draft, then verify",
      text = "A draft proposes k tokens; the target runs the last accepted token and the k "
          .. "guesses in one pass, and keeps the longest prefix its own sampling agrees with, "
          .. "plus one token of its own. With each guess accepted with probability α, a step "
          .. "yields (1 − α^(k+1)) ÷ (1 − α) tokens on average (Leviathan et al., §3): "
          .. f(expected(ALPHA, K), 2) .. " at α = " .. f(ALPHA, 1) .. " and k = " .. K
          .. ", against 1 without a draft. In wall time the draft's steps count too: with c "
          .. "the cost of a draft step against a target step, the speed-up is (1 − α^(k+1)) ÷ "
          .. "((1 − α)(k·c + 1)) (Leviathan et al., §3.3, Theorem 3.8), "
          .. f(expected(ALPHA, K) / (K * 0.05 + 1), 2) .. "× at c = 0.05 and "
          .. f(expected(ALPHA, K) / (K * 0.2 + 1), 2) .. "× at c = 0.2, which is why k has a "
          .. "best value and a cheap draft matters. The draft's own steps are the price: a separate "
          .. "small model, an EAGLE head (one decoder layer over the target's hidden states), "
          .. "or MTP layers trained with the model (DeepSeek-V3 ships one). n-gram drafting "
          .. "looks the guess up in the request's own tokens, prompt and output so far "
          .. "(NgramProposer), and costs no model at all. 0.26's SpeculativeConfig "
          .. "(vllm/config/speculative.py, SpeculativeMethod) names more: Medusa heads, MLP "
          .. "speculators, suffix decoding (guesses from suffix trees of the prompt and earlier "
          .. "outputs; like n-gram, no model and no lookahead slots), n-gram lookup on the GPU (ngram_gpu) and DFlash among the EAGLE-style "
          .. "drafters; this lesson works EAGLE, MTP, a draft model and n-gram.",
    },
    section {
      title = "What the draft costs in memory",
      text = "A draft that attends keeps a KV cache. An EAGLE head is one more layer of the "
          .. "target's shape in the same block pool: Llama-3.1-8B's " .. grouped(base.kv_bytes_per_token)
          .. " B per token become " .. grouped(eagle.kv_bytes_per_token) .. " B, and "
          .. BUDGET .. " GiB holds " .. eagle.max_concurrent_seqs .. " requests of "
          .. grouped(SEQ) .. " tokens instead of " .. base.max_concurrent_seqs .. ". vLLM's "
          .. "scheduler also allocates k lookahead slots for every running request at each "
          .. "step (num_lookahead_tokens, for EAGLE and draft models), and the guesses count "
          .. "against the step's token budget. Unverified guesses never reach the "
          .. "prefix cache: KVCacheManager.allocate_slots caches full blocks only up to the "
          .. "request's finalised tokens (request.num_tokens, which counts accepted tokens, not "
          .. "drafts), so a rejected guess's KV is never found by another request.",
    },
    section {
      title = "When it stops paying",
      text = "The trick spends FLOPs that were idle. At a large batch of short sequences they "
          .. "are not: counting the weights alone, Llama-3.1-8B on an H100 turns compute-bound "
          .. "at about " .. ridge .. " tokens per step, so with " .. (K + 1) .. " tokens a "
          .. "sequence the verification step is compute-bound from about "
          .. f(ridge / (K + 1), 0) .. " sequences, and every rejected guess is work thrown away. "
          .. "The KV changes that. A step also reads each sequence's context once, and the "
          .. (K + 1) .. " positions share that read: a sequence adds " .. f(verify_flop_ms, 3)
          .. " ms of FLOPs but, at " .. grouped(SEQ) .. " tokens, " .. f(kv_seq_ms, 2)
          .. " ms of KV reads, so at that length the verification step stays memory-bound at "
          .. "any batch (and " .. f(ridge / (K + 1), 0) .. " such sequences would need "
          .. f(seqs_kv_gib, 0) .. " GiB of KV, past this deployment's " .. BUDGET .. " GiB). "
          .. "Only sequences shorter than about " .. grouped(kv_edge) .. " tokens can turn it "
          .. "compute-bound; at batch " .. BIG .. " it stays memory-bound above about "
          .. grouped(ctx_at(BIG)) .. " tokens. Speculative decoding is first a latency tool: it "
          .. "shines at low batch and for long outputs, is turned down or off at large batches "
          .. "of short requests (vLLM does not turn it off by itself: V0's "
          .. "speculative_disable_by_batch_size has no V1 counterpart, and a per-batch-size "
          .. "num_speculative_tokens_per_batch_size of SpeculativeConfig's dynamic speculative "
          .. "decoding control, in recent sources and not dated to a release, lets vLLM pick k by "
          .. "batch size only once the operator sets it), and at long context can still pay at large batch (\"MagicDec\", "
          .. "arXiv 2408.11049, 2024). All this counts 2 FLOPs per parameter a position, "
          .. "not attention's own FLOPs: at about 16 FLOPs per KV byte they are small, and "
          .. "counting them moves the edge of about 1,661 tokens out only a few percent.",
    },
  },

  worked = code([[
batch-1 step  (16.06 + 8,192 × 131,072 B = 1.07) GB ÷ 3,352 GB/s   = 5.11 ms of reads
verify 4      2 × 8.03e9 × 4 ÷ 989e12                             = 0.065 ms of FLOPs
tokens/step   (1 − 0.8^4) ÷ (1 − 0.8) = 0.5904 ÷ 0.2               = 2.95
EAGLE KV      2 × (32 + 1) × 8 × 128 × 2 B                         = 135,168 B per token
40 GiB        ⌊42,949,672,960 ÷ (16 × 135,168)⌋ = 19,859 blocks ÷ 512 = 38 requests (40 without)
compute-bound 296 tokens per step ÷ 4 per sequence                 ≈ 74 sequences
              (weights only: an empty cache; 74 × 8,192 tokens would need ]]
    .. fixed(seqs_kv_gib, 0) .. " GiB of KV)"
    .. "\nwith the KV   a sequence: " .. fixed(verify_flop_ms, 3) .. " ms of FLOPs vs "
    .. grouped(SEQ) .. " × " .. grouped(base.kv_bytes_per_token) .. " B ÷ "
    .. grouped(h100.bandwidth_gbps) .. " GB/s = " .. fixed(kv_seq_ms, 2) .. " ms"
    .. "\n              of reads: memory-bound at any batch; compute-bound only below"
    .. "\n              " .. fixed(verify_flop_ms, 3) .. " ms ÷ " .. fixed(kv_ms_per_token * 1e6, 1)
    .. " ns ≈ " .. grouped(kv_edge) .. " tokens a sequence"
    .. "\nbatch " .. BIG .. "     (" .. BIG .. " × " .. fixed(verify_flop_ms, 3) .. " − "
    .. fixed(weights_ms, 2) .. ") ms ÷ (" .. BIG .. " × " .. fixed(kv_ms_per_token * 1e6, 1)
    .. " ns) ≈ " .. grouped(ctx_at(BIG)) .. " tokens: memory-bound above"),

  followups = {
    followup {
      question = "Speculative decoding gave 2.5× at batch 1. Why might it make things slower "
              .. "at batch 256?",
      answer = "At batch 1 the verification pass is almost free: the step is memory-bound, the "
            .. "weights are read once however many positions run, and the FLOPs were idle. At "
            .. "batch 256 plain decode is still memory-bound but near the ridge (256 against "
            .. "about " .. f(h100.tflops * 1e12 / (h100.bandwidth_gbps * 1e9), 0) .. " FLOPs per "
            .. "byte on an H100), so with short sequences running k + 1 positions each "
            .. "multiplies its FLOPs past the ridge and the step gets slower; rejected guesses "
            .. "are wasted work, and the draft's own steps add time. The tokens per step do not "
            .. "grow enough to pay for it. With long contexts it may not get slower: each "
            .. "sequence's KV read is paid once for all its positions, so at k = " .. K
            .. " the step stays memory-bound above about " .. grouped(ctx_at(BIG))
            .. " tokens a sequence.",
      points = {
        point { "at batch 1 the step is memory-bound and verification is almost free", weight = 2,
                about = {"batch 1", "verification", "the step", "verification pass", "one sequence",
                         "checking", "the pass", "speculative decoding"},
                said = {"memory-bound", "almost free", "idle", "read once", "nearly free",
                        "dominated by reading weights", "sit idle", "spare compute", "idle compute"} },
        point { "at batch 256 the extra positions push a short-context step past the ridge", weight = 3,
                about = {"batch 256", "large batch", "the step", "extra positions", "256 sequences",
                         "many sequences", "k + 1 positions", "k+1 positions", "four positions",
                         "verification step"},
                said = {"compute-bound", "multiplies its FLOPs", "gets slower", "costs FLOPs", "peak arithmetic",
                        "close to its peak", "proportionally longer", "makes the step longer",
                        "past the ridge", "over the ridge", "near the ridge", "close to the ridge"} },
        point { "rejected guesses and draft steps are wasted work",
                about = {"rejected guesses", "rejected tokens", "rejections", "draft", "draft's own steps"},
                said = {"wasted", "add time", "thrown away", "cost", "overhead"} },
        point { "long contexts keep the step memory-bound: the KV read is shared by the positions",
                about = {"long context", "long contexts", "long sequences", "KV reads", "KV read",
                         "the KV cache", "context"},
                said = {"memory-bound", "stays memory-bound", "once", "shared", "dominate",
                        "still pays", "may not get slower"} },
      },
      misconceptions = {
        misconception { about = {"batch 256", "at batch 256", "256 sequences", "the step", "plain decode"},
                        said = {"at any context", "exceed the ridge", "exceeds the ridge", "above the ridge"},
                        unless = {"short context", "short-context", "short contexts", "extra positions", "k+1", "k + 1", "push",
                                                  "positions", "verifying", "verified"},
                        why = "256 is below the H100's ridge of about 295, and each sequence's KV read adds bytes: plain decode at batch 256 is memory-bound; the k + 1 positions of a short-context step are what push it past the ridge" },
        misconception { about = {"the acceptance rate", "acceptance", "acceptance length", "the accepted tokens"},
                        said = {"drops to zero", "becomes zero", "falls to zero"},
                        why = "acceptance depends on how well the drafter predicts the target, not on the batch size; what changes at batch 256 is the cost of verifying k + 1 positions for every sequence" },
        misconception { about = {"the draft model's KV cache", "the draft's cache", "the draft KV", "the drafter's KV"},
                        said = {"copied into the target", "copied to the target", "saturates PCIe", "over PCIe"},
                        why = "the drafter's KV lives on the same GPU in its own layers' blocks; nothing is copied between caches or over PCIe" },
        -- Plain decode at batch 256 is memory-bound (256 < the ridge of about 295 FLOPs per
        -- byte), and with KV reads counted a k = 3 step stays so above about 1.2k tokens, so
        -- "memory-bound" at batch 256 is not a misconception; more idle FLOPs at a larger
        -- batch is.
        misconception { about = {"batch 256", "large batch", "it", "speculative decoding", "speculation",
                                 "spec decode"},
                        said = {"more idle FLOPs", "more idle compute", "helps more", "helps even more",
                                "even faster", "more speedup", "speeds it up more", "gains more"},
                        unless = {"long context", "long contexts", "KV read", "KV reads", "MagicDec",
                                  "100,000", "100k"},
                        why = "a larger batch already uses more of the FLOPs: fewer are idle than at batch 1, so verification costs more, not less; with short contexts the k + 1 positions push the step past the ridge" },
      },
    },
    followup {
      question = "You add an EAGLE head to a Llama-3.1-8B deployment. What does it cost in KV "
              .. "memory, and what else does the scheduler reserve?",
      answer = "The EAGLE head is a decoder layer that attends over the sequence, so its keys "
            .. "and values are cached too: one more layer of the target's shape, 33 layers "
            .. "instead of 32, about 3% more KV per token. Its weights load beside the target's "
            .. "and come out of the same memory before the KV budget is sized (a few hundred MB "
            .. "for a head, a whole model for a separate draft). Fewer requests fit in the same "
            .. "budget. The scheduler also allocates lookahead slots for the k draft "
            .. "tokens of every running request at each step, and the draft tokens count "
            .. "against max_num_batched_tokens.",
      points = {
        point { "its layer is cached: one more layer of KV per token", weight = 2,
                about = {"EAGLE head", "its keys and values", "it", "head", "draft layer"},
                said = {"cached", "one more layer", "33 layers", "3% more", "extra layer"},
                accept = {"one extra layer of kv", "one more layer of kv", "extra layer of kv",
                          "an extra layer's kv"} },
        point { "fewer requests fit in the same budget",
                about = {"requests", "concurrency", "budget", "fewer requests"},
                said = {"fewer", "less", "fit", "drops"} },
        point { "lookahead slots for k draft tokens per request", weight = 2,
                about = {"scheduler", "lookahead slots", "lookahead", "draft tokens"},
                said = {"lookahead", "k draft tokens", "slots", "reserves", "allocates"} },
      },
      misconceptions = {
        misconception { about = {"EAGLE head", "it", "head", "draft model", "EAGLE", "EAGLE draft"},
                        said = {"no kv", "needs no cache", "costs no memory", "no memory", "holds none of its own",
                                "reuses the target's KV cache", "reuses the target's cache"},
                        why = "the EAGLE head attends over the sequence, so its keys and values are cached in the same pool" },
        misconception { about = {"scheduler", "the scheduler"},
                        said = {"reserves nothing", "nothing extra", "no extra slots"},
                        why = "each running request needs room for its k draft tokens every step: the scheduler reserves lookahead slots" },
      },
    },
    followup {
      question = "How does vLLM decide which draft tokens to keep, and what happens to the keys "
              .. "and values it already wrote for the rejected ones?",
      answer = "The target scores all k guesses in one step. With greedy sampling a guess is kept "
            .. "while it equals the target's own top token. With sampling, the rule of Leviathan et "
            .. "al. keeps a guess x with probability min(1, p(x) ÷ q(x)), p the target's "
            .. "probability and q the draft's, and at the first rejection draws a replacement "
            .. "from max(0, p − q) renormalised. By default vLLM 0.26's drafters (EAGLE, MTP, a draft model, "
            .. "n-gram) propose their top token and the model runner passes no draft "
            .. "probabilities (draft_probs=None in gpu_model_runner.py; SpeculativeConfig's "
            .. "draft_sample_method \"greedy\"; \"probabilistic\", vllm#40269, merged by June "
            .. "2026 and so in 0.26 as an opt-in, has the draft sample and pass its q), so q is all on x: x is "
            .. "kept with probability p(x), and a rejected x is replaced by a draw from p with x "
            .. "removed, renormalised. Either way the later guesses are dropped; when all k are kept the target's "
            .. "own next token is added as a bonus. A step yields 1 to k + 1 tokens and the output "
            .. "follows the target's distribution (Leviathan et al., 2023, which vLLM's "
            .. "RejectionSampler, vllm/v1/sample/rejection_sampler.py, follows, with "
            .. "SpeculativeConfig's rejection_sample_method at its default \"standard\". Two "
            .. "more are listed in 0.26.0's sources: \"block\", Sun et al.'s block "
            .. "verification (its first release not identified), which keeps the target's "
            .. "distribution exactly and accepts at least as many tokens on average, served by "
            .. "Model Runner V2's sampler (vllm/v1/worker/gpu/spec_decode/rejection_sampler.py), "
            .. "and \"synthetic\", present by 0.22.0, a benchmarking aid and not a serving mode: "
            .. "it accepts drafts at configured rates (synthetic_acceptance_rates, a list by "
            .. "position, or synthetic_acceptance_length) whatever the "
            .. "target says, so its output is not the target's). Nothing is copied "
            .. "back for the rejected tokens: their keys and values were written into the "
            .. "request's slots during verification, the scheduler subtracts them from "
            .. "num_computed_tokens (Scheduler.update_from_output), and the next step writes over "
            .. "those slots. Their blocks were reserved ahead as lookahead slots and stay with the "
            .. "request.",
      points = {
        point { "a guess is kept with probability min(1, p/q); greedy: while it is the target's top token",
                weight = 3,
                about = {"a guess", "a draft token", "each draft token", "each guess", "the token", "draft tokens",
                         "the draft's token", "a proposed token"},
                said = {"min(1", "p/q", "ratio", "p(x)/q(x)", "matches the target", "equals the target's",
                        "target's argmax", "argmax", "probability ratio", "the target agrees",
                        "target's top token", "target's own token"},
                accept = {"min(1, p/q)", "min(1,p/q)", "p(x)/q(x)", "p(x) / q(x)", "min(1, p / q)",
                          "while the target agrees", "while it matches", "while they match",
                          "target's argmax", "the target's top token",
                          "accepted with probability p(x)", "kept with probability p(x)",
                          "with probability p(x)"} },
        point { "at the first rejection a replacement comes from max(0, p − q), the rest dropped; all kept adds a bonus",
                weight = 2,
                about = {"the first rejection", "a rejection", "a rejected token", "the rest", "the later guesses",
                         "the replacement", "all accepted", "the bonus token", "after a rejection"},
                said = {"resample", "resampled", "max(0", "p - q", "p − q", "residual", "dropped", "discarded",
                        "bonus", "recovered", "replacement", "thrown away"},
                accept = {"max(0, p - q)", "max(0, p − q)", "max(0,p-q)", "bonus token", "recovered token",
                          "resample", "resamples", "resampled", "draw a replacement", "draws a replacement",
                          "leftover distribution", "residual distribution"} },
        point { "the output follows the target's distribution",
                about = {"the output", "the output distribution", "the result", "the text", "the tokens"},
                said = {"target's distribution", "same distribution", "unchanged", "identical", "lossless",
                        "same as the target", "as if the target", "exactly the target"} },
        point { "the rejected keys and values are written over: num_computed_tokens goes back", weight = 3,
                about = {"the rejected tokens' keys and values", "the rejected KV", "their KV", "their keys and values",
                         "the slots", "the KV of rejected tokens", "the cache", "num_computed_tokens",
                         "the rejected tokens' KV", "rejected kv", "those slots"},
                said = {"overwritten", "written over", "rolled back", "roll back", "rewound", "rewind", "decremented",
                        "subtracted", "not counted", "reused", "overwrite", "goes back"},
                accept = {"num_computed_tokens", "overwritten", "written over", "overwrite", "writes over",
                          "write over", "computed-token count", "marked uncomputed", "count as unwritten"} },
      },
      misconceptions = {
        misconception { about = {"the replacement", "replacement", "on a rejection", "a rejection", "the resampled token"},
                        said = {"from the draft's distribution", "drawn from q", "sampled from q", "from the draft distribution",
                                "from the drafter's distribution"},
                        unless = {"p - q", "p − q", "max(0", "residual", "rather than q", "not from q"},
                        why = "the replacement is drawn from the residual norm(max(0, p − q)), which is what keeps the output exactly the target's distribution" },
        misconception { about = {"the later guesses", "later guesses", "the later drafts", "later drafts", "the remaining drafts",
                                 "the following guesses", "the rest of the guesses"},
                        said = {"still checked", "still verified", "still accepted", "are kept"},
                                        unless = {"thrown away", "discarded", "dropped", "one pass", "verified by the target"},
                                        why = "acceptance stops at the first rejection: the target scores every drafted position in its one pass, but the guesses after the first rejection are dropped, since they were drafted after a token that is no longer there" },
        misconception { about = {"vLLM", "it", "draft tokens", "every draft token", "the guesses"},
                        said = {"even after an earlier one was rejected", "keeps later guesses even after", "keeps guesses after a rejection",
                                "still accepts tokens after a rejection", "keeps every draft token whose", "keeps every draft token"},
                        unless = {"discard", "drop", "thrown away", "stops", "later guesses are"},
                        why = "acceptance stops at the first rejected guess: later guesses were drafted after a token the target did not choose, so they are discarded and a replacement token is sampled" },
        misconception { about = {"the rejected tokens' KV", "the rejected KV", "their blocks", "the blocks",
                                 "vLLM", "the rejected keys and values", "their KV"},
                        said = {"frees the blocks", "freed", "deallocates", "deallocated", "copied back",
                                "copies back", "snapshot", "restores", "copied out", "free pool",
                                "rollback pass", "recomputes the cache"},
                        why = "vLLM copies and frees nothing: the scheduler counts the rejected positions as not computed, so the next step writes over their slots, and the lookahead blocks stay with the request" },
        misconception { about = {"a guess", "a draft token", "the draft", "each draft token", "vLLM"},
                        said = {"above a threshold", "a threshold", "confidence", "if it is likely",
                                "if its probability is high", "min(1, q/p)", "q/p", "keeps checking"},
                        why = "vLLM V1's rejection sampler has no threshold: a guess is kept with probability min(1, p ÷ q), p(x) itself for vLLM 0.26's top-token drafters, which is what keeps the output the target's distribution" },
      },
    },
  },

  exercises = {
    numeric {
      id = "tokens-per-step",
      prompt = "A draft proposes 3 tokens per step and each is accepted with probability 0.8 "
            .. "(independently, until the first rejection). How many tokens does a step "
            .. "yield on average, the target's own token included?",
      -- 1%: "all k + 1 accepted" (3 against 2.952, 1.6% over) must not pass
      expected = expected(ALPHA, K), unit = "tokens", tolerance = rel(0.01),
      worked = code("a step   1 (the target's own) + α + α² + α³: draft i counts only when\n"
        .. "         drafts 1 … i are all accepted, each with chance α = " .. fixed(ALPHA, 1) .. "\n"
        .. "         = 1 + " .. fixed(ALPHA, 1) .. " + " .. fixed(ALPHA ^ 2, 2) .. " + "
        .. fixed(ALPHA ^ 3, 3) .. "\n"
        .. "         = (1 − " .. fixed(ALPHA, 1) .. "^" .. (K + 1) .. ") ÷ (1 − " .. fixed(ALPHA, 1)
        .. ") = " .. fixed(1 - ALPHA ^ (K + 1), 4) .. " ÷ " .. fixed(1 - ALPHA, 1) .. " = "
        .. fixed(expected(ALPHA, K), 3) .. " tokens"),
      hints = { "1 + α + α² + α³: the target always adds one token.",
                "(1 − 0.8⁴) ÷ (1 − 0.8)." },
    },
    numeric {
      id = "tokens-per-step-param",
      prompt = "A draft proposes {k} tokens per step, each accepted with probability {alpha} "
            .. "(until the first rejection). How many tokens does a step yield on average, "
            .. "the target's own token included?",
      params = { k = {1, 2, 3, 4, 5}, alpha = {0.5, 0.6, 0.7, 0.8, 0.9} },
      expected = function(p)
        local y = expected(p.alpha, p.k)
        local terms = { "1" }
        for i = 1, p.k do terms[#terms + 1] = i == 1 and tostring(p.alpha) or (p.alpha .. "^" .. i) end
        -- α^(k+1) has at most six decimals for these draws: shown exactly
        local top = string.format("%.6f", 1 - p.alpha ^ (p.k + 1)):gsub("0+$", "")
        return y, "a step   1 (the target's own token) + α + … + α^k: draft i counts when\n"
          .. "         drafts 1 … i are all accepted, each independently with chance α\n"
          .. "         = " .. table.concat(terms, " + ") .. "\n"
          .. "         = (1 − " .. p.alpha .. "^" .. (p.k + 1) .. ") ÷ (1 − " .. p.alpha .. ") = "
          .. top .. " ÷ " .. fixed(1 - p.alpha, 1) .. " = " .. fixed(y, 3) .. " tokens\n"
          .. "note     vLLM logs \"Avg Draft acceptance rate\" = accepted ÷ drafted, here\n"
          .. "         (α + … + α^k) ÷ k = " .. fixed(100 * (y - 1) / p.k, 1) .. "%, not α; its \"Mean acceptance\n"
          .. "         length\" is this answer"
      end,
      unit = "tokens", tolerance = rel(0.02),
      hints = { "A geometric series: 1 + α + … + α^k.", "(1 − α^(k+1)) ÷ (1 − α)." },
    },
    numeric {
      id = "eagle-kv-per-token",
      prompt = "Llama-3.1-8B has 32 layers, 8 KV heads of 128 dims, BF16. An EAGLE head adds "
            .. "one decoder layer of the same shape, cached in the same pool. How many bytes "
            .. "of KV does one token take?",
      expected = eagle.kv_bytes_per_token, unit = "B", per = "token", tolerance = rel(0.005), model = MODEL,
      worked = code("layers     " .. m.layers .. " target + 1 EAGLE = " .. (m.layers + 1) .. ", all cached in one pool\n"
        .. "per token  2 (K, V) × " .. (m.layers + 1) .. " × " .. m.kv_heads .. " KV heads × "
        .. m.head_dim .. " dims × 2 B = " .. grouped(eagle.kv_bytes_per_token) .. " B\n"
        .. "           (" .. grouped(base.kv_bytes_per_token) .. " B for the " .. m.layers
        .. " layers alone, + " .. grouped(eagle.kv_bytes_per_token - base.kv_bytes_per_token)
        .. " B)"),
      hints = { "2 (K and V) × layers × KV heads × head dim × 2 bytes.", "33 layers, not 32." },
    },
    numeric {
      id = "eagle-concurrency",
      prompt = "With that EAGLE head, 40 GiB of KV in 16-token blocks, and requests of 8,192 "
            .. "tokens, how many requests fit at once?",
      expected = eagle.max_concurrent_seqs, unit = "sequences", tolerance = abs(0.5),
      worked = code("block      " .. eagle.block_size .. " tokens × " .. grouped(eagle.kv_bytes_per_token)
        .. " B = " .. grouped(eagle.block_bytes) .. " B\n"
        .. "pool       ⌊" .. BUDGET .. " × 2^30 B ÷ " .. grouped(eagle.block_bytes) .. " B⌋ = ⌊"
        .. grouped(eagle.kv_budget_bytes) .. " ÷ " .. grouped(eagle.block_bytes) .. "⌋\n"
        .. "           = " .. grouped(eagle.num_gpu_blocks) .. " blocks\n"
        .. "a request  " .. grouped(SEQ) .. " ÷ " .. eagle.block_size .. " = "
        .. grouped(eagle.blocks_per_request) .. " blocks\n"
        .. "fit        ⌊" .. grouped(eagle.num_gpu_blocks) .. " ÷ " .. grouped(eagle.blocks_per_request)
        .. "⌋ = ⌊" .. fixed(eagle.max_concurrency, 2) .. "⌋ = " .. eagle.max_concurrent_seqs
        .. " requests (" .. base.max_concurrent_seqs .. " without the head)"),
      model = MODEL, diagnose = "capacity",
      hints = { "A block: 16 × 135,168 B.", "⌊40 GiB ÷ block⌋ blocks ÷ 512 blocks per request." },
    },
    numeric {
      id = "spec-compute-bound",
      prompt = "Counting the weights only (an empty cache), Llama-3.1-8B on an H100 turns "
            .. "compute-bound at about 296 tokens per step. With 3 draft tokens verified per "
            .. "sequence (4 positions each), from about how many sequences is the verification "
            .. "step compute-bound, still counting the weights only?",
      expected = ridge / (K + 1), unit = "sequences", tolerance = rel(0.03),
      worked = code("ridge       about " .. grouped(ridge) .. " tokens per step, weights only (empty cache)\n"
        .. "a sequence  the last accepted token + " .. K .. " drafts = " .. (K + 1) .. " positions\n"
        .. "from        " .. grouped(ridge) .. " ÷ " .. (K + 1) .. " = " .. fixed(ridge / (K + 1), 0)
        .. " sequences (" .. fixed(ridge / (K + 1), 0) .. " × " .. (K + 1) .. " = "
        .. grouped(ridge) .. " positions a step)"),
      hints = { "Each sequence brings k + 1 positions to the step.", "296 ÷ 4." },
    },
    choice {
      id = "when-to-use",
      prompt = "Which deployment gains most from speculative decoding?",
      options = {
        option { "An interactive assistant at batch 4 with a tight TPOT target", correct = true,
                 why = "a small batch is memory-bound: verification uses idle FLOPs and cuts the time per token" },
        option { "An offline batch job at 512 sequences per step",
                 why = "40 GiB holds 512 requests only at about " .. grouped(job_tokens)
                     .. " tokens each, and below about " .. grouped(ctx_at(JOB)) .. " tokens "
                     .. "the " .. (K + 1) .. " positions a sequence make that verification step "
                     .. "compute-bound: the extra positions cost FLOPs that were already busy "
                     .. "(plain decode at 512 stays memory-bound above about "
                     .. grouped(plain_ctx) .. " tokens)" },
        option { "A prefill-heavy workload of long prompts and one-token answers",
                 why = "speculation speeds decode; a one-token answer has no decode to speed up" },
        option { "Any deployment equally: it is free",
                 why = "it costs KV for the draft, lookahead slots, and FLOPs that are free only at low batch" },
      },
    },
    freetext {
      id = "why-free-at-batch-1",
      prompt = "In two or three sentences: why does verifying several draft tokens cost about "
            .. "as much as one ordinary decode step at batch 1?",
      answer = "At batch 1 a decode step is memory-bound: its time is the time to stream the "
            .. "weights and the cache, and the FLOPs sit idle. Verifying k + 1 positions reads "
            .. "the same weights once and only adds FLOPs, which were idle, so the step takes "
            .. "about as long.",
      misconceptions = {
        misconception { about = {"the draft tokens", "draft tokens", "the k draft tokens", "the drafts", "verification", "they"},
                        said = {"checked with the draft's own weights", "with the draft's own weights", "checked by the draft",
                                "verified by the draft", "checked by the draft model itself", "verified with the draft model",
                                                        "done by the draft model", "checked with the draft model", "reads only part of its weights",
                                "only part of its weights"},
                        why = "the target verifies the drafts: one target step over all k + 1 positions reads all of the target's weights once, which is why at batch 1 it costs about as much as one plain step" },
        misconception { about = {"the step", "step", "batch 1", "at batch 1", "decode", "a decode step"},
                        said = {"compute-bound"},
                        unless = {"large batch", "past the ridge", "hundreds", "instead of", "rather than",
                                  "unlike", "prefill", "would take", "needed", "far below", "far from", "until",
                                  "batch of"},
                        why = "at batch 1 a decode step is memory-bound: its time is streaming the weights and the cache, and the FLOPs the extra positions need were idle" },
        misconception { about = {"verification", "vLLM", "it", "the target", "only tokens"},
                        said = {"uses a threshold", "a threshold", "above a threshold", "above it are computed",
                                "only the likely tokens are computed", "skips the unlikely"},
                        why = "verification computes every one of the k + 1 positions in one pass and has no threshold; it is cheap because the step is memory-bound, so the extra positions' FLOPs were idle" },
      },
      points = {
        point { "the step is memory-bound: weights streamed, FLOPs idle", weight = 2,
                accept = {"memory-bound", "memory bound", "bandwidth-bound", "idle", "stream",
                          "memory traffic sets", "set by memory traffic", "bound by memory traffic"} },
        point { "the weights are read once for all positions", weight = 2,
                accept = {"read once", "same weights", "reads the weights once", "one pass",
                          "single pass", "doesn't add any weight reads", "does not add any weight reads",
                          "no extra weight reads", "no additional weight reads"} },
      },
    },
  },
}
