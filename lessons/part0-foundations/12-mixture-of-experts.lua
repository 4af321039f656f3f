-- Part 0 · Foundations: mixture of experts. Memory pays for every expert; a decode
-- step reads only the experts its tokens were routed to, which at batch 1 is a few
-- and at a serving batch is nearly all of them.

local MODEL = "qwen3-30b-a3b"
local GB = 1e9
local E, K = 128, 8                                  -- experts per layer, experts per token (config.json)
local CONTEXT = 8192
local q = kv.calc{model = MODEL, seq = CONTEXT, context = CONTEXT, gpu = "h100"}
local total_b = q.weights_bytes_total                -- every expert, BF16
local active_b = q.active_weight_bytes               -- what one token reads
-- total = non-expert + experts; active = non-expert + experts × K/E
local experts_b = (total_b - active_b) / (1 - K / E)
local shared_b = total_b - experts_b
local bw = kv.gpu("h100").bandwidth_gbps * GB
local kv_seq = q.kv_bytes_per_token * CONTEXT

-- Share of a layer's experts that at least one of `batch` tokens is routed to,
-- each token picking K of E independently and uniformly.
local function touched(e, k, batch) return 1 - (1 - k / e) ^ batch end

-- The calculator reads a batch's weights by the same rule (calc's kv_moe.h). 64 sequences
-- of 8,192 tokens do not fit one H100's cache (22 do), so the serving batch sits at 2,048
-- tokens of context, where 64 fit; the checked ceiling is nil when they would not.
local SHORT = 2048
local q64 = kv.calc{model = MODEL, seq = CONTEXT, context = SHORT, gpu = "h100", batch = 64}
assert(q64.decode_tokens_per_s, "64 sequences of 2,048 tokens must fit the H100's cache")
local read_64 = q64.decode_weight_read_bytes
local kv_short = q.kv_bytes_per_token * SHORT
-- what counting only the active weights at batch 64 would claim
local active_only_64 = 64 * bw / (active_b + 64 * kv_short)
-- the embedding table, of which a step reads only a row per token (untied: lm_head apart)
local embed_b = 151936 * 2048 * 2

local mixtral = kv.calc{model = "mixtral-8x7b", gpu = "h100"}
local mixtral_tp2 = kv.calc{model = "mixtral-8x7b", gpu = "h100", tp = 2, seq = 32768}

local function f(x, places) return fixed(x, places or 1) end

return lesson {
  id = "mixture-of-experts",
  title = "Mixture of experts: total for memory, active for speed",
  module = "part0-foundations",
  baseline = "Qwen/Qwen3-30B-A3B's config.json (num_experts 128, num_experts_per_tok 8; 30.5B "
          .. "parameters, 3.35B active, in the calculator's preset); Mixtral-8x7B-Instruct-v0.1's "
          .. "config.json (num_local_experts 8, num_experts_per_tok 2) and Jiang et al., "
          .. "\"Mixtral of Experts\" (2024), §2 (47B parameters, 13B active); the decode roofline "
          .. "of the memory-bound-decode lesson; the share of experts a batch touches assumes "
          .. "uniform, independent routing (real routers are skewed, so somewhat fewer); vLLM "
          .. "0.26 start-up arithmetic for the KV budget (docs/calculator.md)",
  concept = "moe",
  concept_title = "Mixture of experts",
  requires = {"memory-bound-decode", "shrinking-weights"},
  links = {"memory-bound-decode", "prefill-decode", "tensor-parallel-kv"},

  question = "Qwen3-30B-A3B has 30.5 billion parameters but only 3.3 billion active per token. "
          .. "How much GPU memory does it need, how fast does it decode, and does that hold at "
          .. "a serving batch?",

  answer = "Memory pays for every expert: all 30.5 billion parameters stay resident, about 61 GB "
        .. "in BF16, because any token may be routed to any expert. Speed at batch 1 follows the "
        .. "active parameters: a step reads the non-expert layers and the 8 experts per layer the "
        .. "token chose, about 6.7 GB, so it decodes like a 3B dense model. At a serving batch "
        .. "that advantage fades: 64 tokens each picking 8 of 128 experts touch nearly all of "
        .. "them in every layer, so the step reads almost the whole 61 GB, shared among the "
        .. "batch as a dense model's weights are. The FLOPs per token stay those of the active "
        .. "parameters.",

  points = {
    point { "memory holds every expert: total parameters", weight = 2,
            about = {"memory", "GPU memory", "all experts", "every expert", "weights"},
            said = {"every expert", "all 30.5 billion", "total parameters", "all experts", "resident",
                    "61 GB", "all parameters"} },
    point { "batch-1 decode reads only the active parameters", weight = 2,
            about = {"batch 1", "speed", "one token", "a step", "decode", "a single sequence", "one sequence",
                     "single sequence", "each step"},
            said = {"active", "3B", "8 experts", "6.7 GB", "experts it chose", "the token chose", "only pulls",
                    "chosen experts", "as fast as a 3B", "like a 3B"} },
    point { "a large batch touches nearly all experts", weight = 2,
            about = {"serving batch", "large batch", "64 tokens", "batch", "many tokens", "many sequences",
                     "their choices", "many requests", "concurrent requests", "high concurrency", "many users",
                     "concurrent sequences"},
            said = {"nearly all", "almost all", "every expert", "touch", "whole", "all of them",
                    "almost every expert", "nearly every expert", "cover almost every"} },
    point { "FLOPs per token follow the active parameters",
            about = {"FLOPs", "compute", "arithmetic"},
            said = {"active", "3B", "per token"} },
  },
  misconceptions = {
    misconception { about = {"batch 1", "at batch 1", "one sequence", "a single sequence"},
                    said = {"decodes like a dense 30B", "like a dense 30B", "like a dense 30.5B", "every expert's weights are still read",
                            "all experts are read", "every expert is read", "reads all 30.5B", "reads every expert"},
                    unless = {"serving batch", "large batch", "many tokens", "batch 64", "big batch", "prefill", "64 sequences",
                          "batch 256"},
                    why = "at batch 1 a step reads only the 8 routed experts of each layer and the shared weights, about 3.3 billion parameters: it decodes like a 3B model" },
    misconception { about = {"64 tokens", "the 64 tokens", "batch 64", "at batch 64", "a batch of 64"},
                    said = {"only 4 experts", "only a few experts", "the same 8 experts", "still reads about 6.7 GB",
                                            "still 6.7 GB", "= 4 experts", "4 experts per layer"},
                    why = "every token picks its own experts: 64 tokens touch about 98% of them, so the step reads nearly every expert" },
    misconception { about = {"every expert", "all experts", "each expert", "every expert's output", "all the experts"},
                    said = {"is computed for every token", "are computed for every token", "runs for every token",
                            "all run for every token", "are all evaluated for each token", "are all evaluated for every token",
                            "every token goes through all", "is computed for each token", "are computed for each token",
                            "all experts are computed", "every expert is computed"},
                    unless = {"only for", "routed to it", "routed to them"},
                    why = "the router sends each token to its top 8 of 128 experts and only those run (top-k routing in FusedMoE); at batch 1 a step reads about 3.3 billion parameters' bytes" },
    misconception { about = {"every expert's output", "each expert's output", "all the experts' outputs"},
                    said = {"is computed", "are computed", "is evaluated", "are evaluated"},
                    unless = {"only for", "routed", "top 8", "top-k", "chosen", "selected"},
                    why = "the router sends each token to its top 8 of 128 experts and only those run (top-k routing in FusedMoE): the other experts' outputs are never computed" },
    misconception { about = {"it", "the model", "Qwen3-30B-A3B"},
                    said = {"as slowly as a dense 30.5B", "as slow as a dense 30B", "like a dense 30B at batch 1", "as slowly as a dense model even at batch 1"},
                    unless = {"serving batch", "large batch", "batch 64", "at scale", "many sequences", "high concurrency", "big batch",
                              "bytes per step", "under load"},
                    why = "at batch 1 only the routed experts' weights are read, so it decodes near a 3B model's ceiling; the dense-30B cost appears only at large batch" },
    misconception { about = {"memory", "GPU memory", "it"},
                    said = {"only the active", "only 3B", "3.3 billion fit", "6.7 GB of memory",
                            "only active experts"},
                    why = "every expert must be resident: any token may be routed to any expert, so memory pays for all 30.5 billion parameters" },
    misconception { about = {"large batch", "serving batch", "big batch", "batch 64", "many sequences", "at scale",
                             "many users", "many requests", "under load", "concurrent requests", "high concurrency",
                             "concurrent sequences", "64 concurrent sequences", "any batch size", "at any batch"},
                    said = {"reads only the active", "only reads the active", "still reads just the active",
                            "reads just the active", "only touches the active", "only the active experts",
                            "only the 3B active", "only reads the 3B", "only 3B read", "like a 3B model", "only 8 experts",
                            "only 3.3B", "only about 3.3B", "reads roughly 3.3B", "reads about 3.3B"},
                    why = "each token picks its own experts: 64 tokens picking 8 of 128 touch about 98% of them, so the step reads nearly every expert" },
  },

  sections = {
    section {
      title = "Memory pays for everything",
      text = "A mixture-of-experts layer replaces one feed-forward block with many (128 in "
          .. "Qwen3-30B-A3B) and a router that sends each token to a few (8). Any token may go "
          .. "to any expert, so every expert stays in memory: " .. f(total_b / GB, 2)
          .. " GB in BF16, against " .. f(active_b / GB, 2) .. " GB for the parameters one "
          .. "token uses. Mixtral-8x7B's " .. f(mixtral.weights_bytes_total / GB, 1) .. " GB of "
          .. "weights do not fit one 80 GiB H100 at all; at TP 2, each GPU holds half of every "
          .. "expert and at most " .. mixtral_tp2.max_concurrent_seqs .. " sequences of 32,768 "
          .. "tokens fit (the calculator's 0.92 × 80 GiB a GPU, before the activation peak, "
          .. "memory outside PyTorch and CUDA graphs are taken out; vLLM itself sees about "
          .. "79.2 GiB of an H100 80GB).",
    },
    section {
      title = "Batch 1: the active parameters",
      text = "One token reads the non-expert layers (attention, embeddings, norms, router; not "
          .. "\"shared experts\", which this model has none of) and its "
          .. "8 experts per layer. Splitting the preset's figures: total = non-expert + experts, "
          .. "active = non-expert + experts × 8/128, so the experts hold " .. f(experts_b / GB, 2)
          .. " GB and the rest " .. f(shared_b / GB, 2) .. " GB. At " .. grouped(CONTEXT)
          .. " tokens of context an H100's ceiling is " .. f(q.decode_tokens_per_s, 0)
          .. " tokens/s at batch 1, close to what a 3B dense model would reach. (This count, "
          .. "like the calculator's, reads the whole input-embedding table each step, where a "
          .. "lookup reads one row per token: about " .. f(embed_b / GB, 2) .. " GB less, "
          .. "some 9% more tokens/s at batch 1 and about 1% at a serving batch.)",
    },
    section {
      title = "A serving batch reads nearly every expert",
      text = "Each token picks its own experts. If every token's 8 experts are spread evenly "
          .. "and chosen independently of the other tokens', the chance that no token of a "
          .. "batch of b picks a given expert is (1 − 8/128)^b, so the expected share touched "
          .. "is " .. f(100 * touched(E, K, 1), 2) .. "% at batch 1, "
          .. f(100 * touched(E, K, 8), 0) .. "% at 8, " .. f(100 * touched(E, K, 32), 0)
          .. "% at 32 and " .. f(100 * q64.decode_experts_touched, 1) .. "% at 64. At batch 64 a "
          .. "step reads " .. f(read_64 / GB, 1) .. " GB of weights, almost the whole "
          .. "model. Mixtral, with 2 of 8 experts per token, touches "
          .. f(100 * touched(8, 2, 16), 0) .. "% of them at batch 16. Among independent "
          .. "routers, the even one touches the most on average (one batch can touch up to "
          .. "batch × 8 experts); real routers are skewed, and tokens of similar requests pick "
          .. "alike, so a real batch touches somewhat fewer on average; but the "
          .. "conclusion holds: past a few dozen tokens, a decode step reads nearly the total, "
          .. "not the active, weights. In vLLM 0.26 the unquantised MoE's kernel is chosen by "
          .. "select_unquantized_moe_backend (vllm/model_executor/layers/fused_moe/oracle/"
          .. "unquantized.py): on the H100 it is the Triton experts kernel (fused_moe_kernel "
          .. "after moe_align_block_size) unless --moe-backend names another, and other GPUs "
          .. "may get FlashInfer's; the Triton kernel launches work only "
          .. "for experts that received tokens, so an untouched expert is never read; "
          .. "with a few tokens an expert (64 × 8 ÷ 128 = 4 at batch 64) each expert's GEMM is "
          .. "too small to reach the bandwidth a dense layer's does, so these "
          .. "are ceilings, not speeds.",
    },
    section {
      title = "So what does MoE buy at scale?",
      text = "The weight read is shared by the batch, as for a dense model, and it is nearly "
          .. "the dense model's: at batch 64 Qwen3-30B-A3B reads " .. f(read_64 / GB, 1)
          .. " GB a step where a dense model of its 30.5 billion parameters would read "
          .. f(total_b / GB, 1) .. ". With 64 sequences of " .. grouped(SHORT) .. " tokens (64 "
          .. "of " .. grouped(CONTEXT) .. " do not fit one H100's cache: at most "
          .. q.max_concurrent_seqs .. " do, by the calculator's 0.92 × 80 GiB with no other "
          .. "overhead, and fewer once the activation peak, memory outside PyTorch and CUDA "
          .. "graphs are taken out) the H100's ceiling is "
          .. grouped(q64.decode_tokens_per_s) .. " tokens/s (`kvtutor calc` counts the same "
          .. "way); counting only the active weights at every batch would claim "
          .. grouped(active_only_64) .. ", right at batch 1 and far too optimistic here. What "
          .. "MoE keeps at scale is FLOPs: 2 × 3.35 billion a token instead of 2 × 30.5 billion, "
          .. "a compute ceiling of " .. grouped(q64.decode_tokens_per_s_compute) .. " tokens/s "
          .. "against about a tenth of it for the dense model, counting the weights' FLOPs only "
          .. "(attention's own FLOPs, which MoE does not shrink, narrow the gap as the context "
          .. "grows), which is what prefill, time to first token and compute-bound steps pay "
          .. "for. Expert parallelism "
          .. "(--enable-expert-parallel in vLLM) spreads whole experts over GPUs, so each GPU "
          .. "reads only its own touched experts, at the price of a step as slow as its busiest "
          .. "GPU (--enable-eplb, expert-parallel load balancing, moves experts between GPUs "
          .. "by their measured load from time to time, and replicates hot ones only when "
          .. "--eplb-config sets num_redundant_experts above its default 0; EPLBConfig in "
          .. "vllm/config/parallel.py) and, where attention runs data-parallel, an all-to-all dispatch and combine "
          .. "around every MoE layer (vllm/model_executor/layers/fused_moe/config.py, "
          .. "FusedMoEParallelConfig.use_all2all_kernels, expert parallelism with data-parallel "
          .. "attention; some later sources, from a release not identified, also turn it on "
          .. "under prefill context parallelism or sequence-parallel MoE; with plain TP the outputs are "
          .. "all-reduced as before). kvtutor sim does not model it.",
    },
  },

  worked = code [[
weights     30.53e9 params × 2 B                       = 61.06 GB, all resident
active      3.353e9 × 2 B                              = 6.71 GB read per token at batch 1
experts     (61.06 − 6.71) ÷ (1 − 8/128)               = 57.98 GB; non-expert 3.08 GB
batch 1     3,352 ÷ (6.71 + 8,192 × 98,304 B = 0.805)  = 446 tokens/s
touched     1 − (1 − 8/128)^64 = 1 − 0.0161            = 98.4% of experts at batch 64
batch 64    3.08 + 57.98 × 0.984                       = 60.13 GB of weights per step
 at 2,048   64 × 3,352 ÷ (60.13 + 64 × 0.2013)         = 2,938 tokens/s]],

  followups = {
    followup {
      question = "At batch 64, does Qwen3-30B-A3B still decode like a 3B model?",
      answer = "No. Each token picks its own 8 of 128 experts, so 64 tokens together touch "
            .. "about 98% of the experts in every layer, and the step reads nearly all 61 GB of "
            .. "weights, as a dense 30B model would. That read is shared by the batch, and the "
            .. "FLOPs per token stay those of the 3.3B active parameters; but the batch-1 "
            .. "advantage in bytes is gone. And each touched expert's GEMM sees only about "
            .. "64 × 8 ÷ 128 = 4 tokens, so it reads its weights less efficiently than a dense "
            .. "layer does: a real step is slower than that roofline.",
      points = {
        point { "the batch touches nearly all experts", weight = 2, polarity = "no",
                about = {"64 tokens", "batch", "tokens together", "the batch", "step"},
                said = {"nearly all", "almost all", "98%", "touch", "every expert", "all experts"} },
        point { "the step reads almost all the weights", weight = 2,
                about = {"step", "it", "each step", "weights"},
                said = {"reads nearly all", "61 GB", "whole model", "dense 30B", "all the weights",
                        "nearly all", "approaches the full model", "close to the full model"},
                accept = {"weight traffic approaches the full model", "traffic approaches the full model",
                          "reads close to the full model", "reads almost the full model"} },
        point { "FLOPs per token stay those of the active parameters",
                about = {"FLOPs", "compute", "arithmetic"},
                said = {"active", "3.3B", "per token"} },
      },
      misconceptions = {
        misconception { about = {"the router", "router", "vLLM", "vLLM's router"},
                                said = {"dense mode", "switches to dense", "every token through all", "runs every expert for every token",
                                                                "every token through all the experts", "runs every expert densely", "stops routing"},
                                unless = {"no dense"},
                        why = "vLLM has no dense mode: at any batch each token runs only its top 8 of 128 experts (FusedMoE); a large batch reads nearly every expert's weights because different tokens pick different experts, not because each token runs them all" },
        misconception { about = {"each token", "every token", "tokens", "a token"},
                        said = {"own private copy", "private copy", "own copy of the experts", "own copy of its experts"},
                        why = "an expert's weights are read once a step and shared by every token routed to it" },
        misconception { about = {"weight traffic", "weight reads", "the bytes read", "bytes read"},
                        said = {"grows linearly with the batch", "linearly with the batch without any cap", "without any cap", "without a cap"},
                        unless = {"FLOPs", "compute", "KV", "arithmetic"},
                        why = "the bytes a step reads are capped by the whole model: once the batch touches nearly every expert, more tokens add no weight reads" },
        misconception { about = {"it", "batch 64", "the step", "each step"},
                        said = {"reads only 3B", "reads only the active", "only 8 experts",
                                "like a 3B model"},
                        why = "every token picks its own experts: 64 tokens touch about 98% of them, so the step reads nearly every expert" },
      },
    },
    followup {
      question = "Someone sizes a Mixtral-8x7B deployment on its 13B active parameters: 26 GB "
              .. "of BF16 weights, one 80 GB GPU. What goes wrong?",
      answer = "The weights that must be resident are all 47B parameters, about 93 GB in BF16, "
            .. "because any token can be routed to any expert: they do not fit one 80 GB GPU at "
            .. "all, let alone leave room for a KV cache. Size memory on the total parameters "
            .. "(TP 2, or quantise), and use the active parameters only for batch-1 speed and "
            .. "FLOPs per token.",
      points = {
        point { "memory must hold all 47B parameters", weight = 2,
                about = {"weights", "memory", "all experts", "resident weights"},
                said = {"all 47B", "93 GB", "total parameters", "every expert", "all experts",
                        "resident"} },
        point { "they do not fit one 80 GB GPU", weight = 2,
                about = {"they", "weights", "it", "model", "one GPU"},
                said = {"do not fit", "does not fit", "too big", "no room", "won't load", "will not load",
                        "can't load", "cannot load", "doesn't load", "does not load"},
                accept = {"more than the 80 GB card", "more than the 80 GB", "more than 80 GB",
                          "bigger than the 80 GB", "larger than the 80 GB", "exceeds 80 GB",
                          "exceeds the 80 GB"} },
        point { "active parameters decide batch-1 speed, not memory",
                about = {"active parameters", "13B", "active"},
                said = {"speed", "batch-1", "FLOPs", "not memory", "compute per token"} },
      },
      misconceptions = {
        misconception { about = {"memory", "it", "weights", "the 26 GB", "26 GB", "one GPU", "the active experts",
                                 "only the active experts"},
                        said = {"only the active", "only 13B", "26 GB is enough", "is enough",
                                "need to be resident", "needs to be resident"},
                        unless = {"not enough", "isn't enough", "all experts", "every expert", "all 47B"},
                        why = "any token may be routed to any expert, so all 47B parameters must be resident: about 93 GB in BF16" },
        -- quantised to fp8 (about 47 GB) the weights do fit one 80 GB GPU
        misconception { about = {"it", "weights", "the model", "Mixtral", "the 26 GB"},
                        said = {"fits one GPU", "fit on one GPU", "fits on one GPU", "fits on one 80 GB GPU",
                                "fits one 80 GB GPU"},
                        unless = {"does not", "doesn't", "not fit", "fp8", "FP8", "int8", "int4", "4-bit", "8-bit",
                                  "quantised", "quantized"},
                        why = "in BF16 all 47B parameters are about 93 GB, more than one 80 GB GPU; only quantised (fp8, about 47 GB) do they fit" },
      },
    },
  },

  exercises = {
    numeric {
      id = "moe-weights-gib",
      prompt = "Qwen3-30B-A3B has 30.53 billion parameters, 3.35 billion active per token. How "
            .. "many GiB do its BF16 weights take in GPU memory?",
      expected = total_b / 2^30, unit = "GiB", tolerance = rel(0.02), diagnose = "units",
      worked = code("resident  every expert stays in memory: all " .. fixed(total_b / 2 / 1e9, 2)
        .. "e9 parameters, not 3.35e9\n"
        .. "bytes     " .. grouped(total_b / 2) .. " params (the prompt's " .. fixed(total_b / 2 / 1e9, 2)
        .. " billion unrounded)\n"
        .. "          × 2 B (BF16) = " .. grouped(total_b) .. " B\n"
        .. "GiB       " .. grouped(total_b) .. " B ÷ 2^30 = " .. fixed(total_b / 2^30, 2) .. " GiB ("
        .. fixed(total_b / GB, 2) .. " GB)"),
      slips = { active_params = active_b / 2^30 },
      hints = { "Memory holds every expert, not just the active ones.",
                "30.53e9 × 2 bytes, in GiB." },
    },
    numeric {
      id = "moe-batch1",
      prompt = "On an H100 (3,352 GB/s), how many tokens/s does one Qwen3-30B-A3B sequence "
            .. "with 8,192 tokens of context decode? Its 3.353 billion active parameters are "
            .. "read in BF16; its cache is 48 layers × 4 KV heads × 128 dims, K and V, 2 bytes.",
      expected = q.decode_tokens_per_s_memory, unit = "tokens/s", tolerance = rel(0.03),
      worked = code("weights   " .. fixed(active_b / 2 / 1e9, 3) .. "e9 active params × 2 B = "
        .. fixed(active_b / GB, 3) .. " GB (shared + 8 of 128 experts)\n"
        .. "          (the whole " .. fixed(embed_b / GB, 2) .. " GB embedding table counted, as in the "
        .. "prompt's\n"
        .. "          3.353e9, though a step reads one row of it)\n"
        .. "KV/token  2 × 48 layers × 4 KV heads × 128 dims × 2 B = "
        .. grouped(q.kv_bytes_per_token) .. " B\n"
        .. "KV read   " .. grouped(CONTEXT) .. " tokens × " .. grouped(q.kv_bytes_per_token) .. " B = "
        .. fixed(kv_seq / GB, 3) .. " GB\n"
        .. "one step  " .. fixed(active_b / GB, 3) .. " + " .. fixed(kv_seq / GB, 3) .. " = "
        .. fixed((active_b + kv_seq) / GB, 3) .. " GB read for one token\n"
        .. "speed     " .. grouped(bw / GB) .. " GB/s ÷ " .. fixed((active_b + kv_seq) / GB, 3)
        .. " GB = " .. f(q.decode_tokens_per_s_memory, 0) .. " tokens/s"),
      -- the same step reading every expert's weights instead of the active ones
      slips = { total_params = bw / (total_b + kv_seq) },
      -- the active weights alone, the cache's read left out: 3,352 ÷ 6.706 = 499.9 tok/s
      left_out = { kv = bw / active_b },
      hints = { "A batch-1 step reads the active weights and one cache.",
                "3,352 GB/s ÷ (6.71 + 8,192 × 98,304 ÷ 10⁹) GB." },
    },
    numeric {
      id = "experts-touched",
      prompt = "Each token picks {k} of {e} experts in a layer, evenly and independently. What "
            .. "percentage of the layer's experts does a batch of {batch} tokens touch?",
      params = { e = {16, 64, 128}, k = {2, 8}, batch = {2, 4, 16, 64} },
      expected = function(p)
        local miss = (1 - p.k / p.e) ^ p.batch
        return 100 * (1 - miss), "one      misses an expert with 1 − " .. p.k .. "/" .. p.e .. " = "
          .. fixed(1 - p.k / p.e, 5) .. "\n"
          .. "all      (1 − " .. p.k .. "/" .. p.e .. ")^" .. p.batch .. " = " .. fixed(miss, 4) .. "\n"
          .. "touched  1 − " .. fixed(miss, 4) .. " = " .. fixed(100 * (1 - miss), 1) .. "%"
      end,
      unit = "%", tolerance = abs(0.5),
      hints = { "The chance one token misses a given expert is 1 − k/e.",
                "All tokens miss it with probability (1 − k/e)^batch; touched is 1 minus that." },
    },
    numeric {
      id = "moe-read-64",
      prompt = "Qwen3-30B-A3B's BF16 weights: 61.06 GB in all, 6.71 GB active per token, "
            .. "experts 8 of 128 per layer. At batch 64 with even, independent routing, how many GB of "
            .. "weights does one decode step read?",
      -- 1%: the whole-model shortcut (61.06 GB, 1.6% over) must not pass
      expected = read_64 / GB, unit = "GB", tolerance = rel(0.01), diagnose = "units",
      worked = code("split     total = shared + experts; active = shared + experts × 8/128\n"
        .. "          (" .. fixed(total_b / GB, 3) .. " and " .. fixed(active_b / GB, 3) .. " GB: the prompt's "
        .. fixed(total_b / GB, 2) .. " and " .. fixed(active_b / GB, 2) .. " unrounded)\n"
        .. "experts   (" .. fixed(total_b / GB, 3) .. " − " .. fixed(active_b / GB, 3)
        .. ") GB ÷ (1 − 8/128) = " .. fixed(experts_b / GB, 3) .. " GB\n"
        .. "shared    " .. fixed(total_b / GB, 3) .. " − " .. fixed(experts_b / GB, 3) .. " = "
        .. fixed(shared_b / GB, 3) .. " GB (attention, embeddings, norms, router)\n"
        .. "touched   1 − (120/128)^64 = 1 − " .. fixed(1 - q64.decode_experts_touched, 4) .. " = "
        .. fixed(100 * q64.decode_experts_touched, 2) .. "% of each layer's experts\n"
        .. "          (an expected share: one batch touches a few more or fewer)\n"
        .. "read      " .. fixed(shared_b / GB, 3) .. " + " .. fixed(experts_b / GB, 3) .. " × "
        .. fixed(q64.decode_experts_touched, 4) .. " = " .. fixed(read_64 / GB, 2)
        .. " GB a step, shared by the batch"),
      hints = { "Experts: (61.06 − 6.71) ÷ (1 − 8/128) GB; the rest is shared.",
                "Shared + experts × (1 − (120/128)^64)." },
    },
    choice {
      id = "moe-memory",
      prompt = "What decides how much GPU memory an MoE model's weights need?",
      options = {
        option { "Its total parameters: every expert stays resident", correct = true,
                 why = "any token may be routed to any expert" },
        option { "Its active parameters per token",
                 why = "those decide what one token reads and computes, not what must be resident" },
        option { "The batch size",
                 why = "the weights are loaded once whatever the batch" },
        option { "The number of experts per token alone",
                 why = "the experts not picked by this token still have to be there for the next" },
      },
    },
    freetext {
      id = "why-moe-fast",
      prompt = "In two or three sentences: why does an MoE model decode fast at batch 1, and "
            .. "why does the advantage in bytes fade at a large batch?",
      answer = "At batch 1 a step reads only the non-expert layers and the few experts the token was "
            .. "routed to, the active parameters, so it moves far fewer bytes than the model's "
            .. "size. At a large batch every token picks its own experts, so together they touch "
            .. "nearly all of them and the step reads almost the whole model.",
      points = {
        point { "batch 1 reads only the active experts", weight = 2,
                accept = {"active", "few experts", "only the experts", "routed to"} },
        point { "a large batch touches nearly all experts", weight = 2,
                accept = {"nearly all", "almost all", "every expert", "all of them", "whole model",
                          "entire expert set", "union covers", "approach those of a dense model",
                          "approaches a dense model"} },
      },
      misconceptions = {
        misconception { about = {"the tokens", "tokens", "a large batch", "large batch", "batch of 64"},
                        said = {"same few experts", "the same experts", "all go to the same", "only the active ones",
                                "never read", "whole model is never"},
                        unless = {"batch 1", "skew", "may"},
                        why = "each token is routed on its own, so a large batch's tokens spread over nearly every expert: the step reads almost the whole model" },
        misconception { about = {"active experts", "only the active experts", "the rest", "it", "experts"},
                        said = {"loaded into GPU memory", "runs out of memory", "has to load the rest",
                                "load the rest", "loads the rest"},
                        why = "every expert is in GPU memory from the start; the batch changes which experts each step reads, not which are loaded" },
      },
    },
  },
}
