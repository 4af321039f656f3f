-- Part 0 · Foundations: decode is memory-bound. Measure your own bandwidth,
-- then predict tokens/s from it. The "measured" exercises take the learner's
-- last probe result (kvtutor probe, or P on the course map) as p.read_gbps.

local MODEL = "qwen2.5-7b"
local GB = 1e9
local base = kv.calc{model = MODEL, seq = 8192, context = 8192, bandwidth_gbps = 1008}
local weights = base.weights_bytes                                   -- 15,231,233,024 B
local kv_8k = base.kv_bytes_per_token * 8192                         -- 469,762,048 B
local step_bytes = weights + kv_8k                                   -- 15,700,995,072 B
local MBU_TPS = 57                     -- an example measured rate for the MBU follow-up
local rtx4090 = kv.gpu("rtx4090")
-- Qwen2.5-7B-Instruct's config.json: vocab_size 152,064, hidden 3,584, untied embeddings.
local VOCAB = 152064
local embed = VOCAB * kv.model(MODEL).hidden * 2                      -- 1,089,994,752 B
local shape = kv.model(MODEL)
-- attention at 8k: QK^T and PV, 2 FLOPs a multiply-add each, over every head and layer
local attn_8k = 4 * shape.layers * shape.heads * shape.head_dim * 8192  -- 3,288,334,336 FLOP

local function decode(gbps, batch)
  return kv.calc{model = MODEL, seq = 8192, context = 8192, batch = batch,
                 bandwidth_gbps = gbps}.decode_tokens_per_s_memory
end

local function h100(context, batch)
  return kv.calc{model = MODEL, seq = context, context = context, batch = batch,
                 gpu = "h100"}.decode_tokens_per_s_memory
end

local function f(x, places) return fixed(x, places or 1) end
-- a measured bandwidth as the prompt prints it ("45.4", "912"); a rate at a sensible precision
local function rate(x) return x >= 100 and grouped(x) or f(x, 1) end
local function tps(x) return x >= 100 and grouped(x) or f(x, x >= 10 and 1 or 2) end
-- the batch's bytes per step, for the worked lines: weights once, one 8k cache per sequence
local function step_lines(batch)
  if batch == 1 then
    return "one step   " .. f(weights / GB, 2) .. " GB weights + " .. f(kv_8k / GB, 2)
        .. " GB KV at 8k = " .. f(step_bytes / GB, 2) .. " GB\n", step_bytes
  end
  local total = weights + batch * kv_8k
  return batch .. " caches  " .. batch .. " × " .. grouped(kv_8k) .. " B = "
      .. grouped(batch * kv_8k) .. " B ≈ " .. f(batch * kv_8k / GB, 2) .. " GB\n"
      .. "one step   " .. f(weights / GB, 2) .. " GB weights (read once) + "
      .. f(batch * kv_8k / GB, 2) .. " GB = " .. f(total / GB, 2) .. " GB\n", total
end
-- the convention every decode figure here follows, said where the learner sees it
local all_weights = "note       every weight counted; the " .. f(embed / GB, 2)
    .. " GB embedding is really a lookup"
local function decode_worked(gbps, batch)
  local lines, bytes = step_lines(batch)
  local head = batch == 1 and "batch 1    " or "tokens     " .. batch .. " × "
  -- a measured figure the prompt shows rounded ("912") appears here as the grader
  -- uses it ("912.37"), so the shown figures give the shown result
  local shown = rate(gbps)
  if tonumber((shown:gsub(",", ""))) ~= gbps then
    local whole, part = string.format("%.2f", gbps):match("^(%d+)%.(%d+)$")
    part = part:gsub("0+$", "")
    shown = grouped(tonumber(whole)) .. (part ~= "" and "." .. part or "")
  end
  local eq = tonumber((shown:gsub(",", ""))) == gbps and " = " or " ≈ "
  return lines .. head .. shown .. " GB/s ÷ " .. f(bytes / GB, 2) .. " GB" .. eq
      .. tps(decode(gbps, batch)) .. " tokens/s\n" .. all_weights
end

return lesson {
  id = "memory-bound-decode",
  title = "Memory-bound decode: measure, then predict",
  module = "part0-foundations",
  baseline = "the memory roofline of one decode step (every active weight and each sequence's KV "
          .. "read once), with the bandwidth measured by kvtutor's probe; Qwen2.5-7B shapes from "
          .. "its config.json",
  concept = "decode-bandwidth",
  concept_title = "Decode bandwidth",
  requires = {"kv-cache"},
  links = {"kv-cache", "prefill-decode", "continuous-batching"},

  question = "A 7B model decodes one sequence at roughly 60 tokens/s on a GPU that can do over "
          .. "150 TFLOP/s. Why so few, and what one number would you measure to predict it?",

  answer = "Each decode step produces one token per sequence but has to stream every weight "
        .. "and that sequence's whole KV cache out of memory to do it: about 15.7 GB for "
        .. "Qwen2.5-7B at 8k context in BF16, for about " .. f((weights - embed) / 1e9, 1)
        .. " GFLOP in the weight matrices (2 a parameter, the embedding being a lookup; "
        .. "attention over the 8k context adds about " .. f(attn_8k / 1e9, 1) .. "), about one "
        .. "floating-point operation per byte. A GPU with ~1 TB/s of bandwidth can only do that "
        .. "~64 times a second, so decode runs at memory speed and the FLOPs sit idle. The "
        .. "number to measure is the achievable read bandwidth: at one token a step (no "
        .. "speculative decoding, lesson 14) tokens/s at batch 1 is at most that bandwidth "
        .. "divided by the bytes one step reads. Batching helps because the weights "
        .. "are read once for every sequence in the step.",

  points = {
    point { "each step rereads all the weights and the KV cache", weight = 2,
            about = {"each step", "decode", "each decode step", "every step", "each token", "it",
                     "every generated token", "each generated token", "every token", "per token"},
            said = {"reads all the weights", "reads every weight", "reads the weights", "whole KV cache",
                    "all the weights", "every weight", "weights plus", "weights and the cache",
                    "weights and its cache", "all of the weights"},
            accept = {"reread", "re-read"} },
    point { "little arithmetic per byte: memory-bound, not compute-bound", weight = 2,
            about = {"decode", "it", "each step", "the GPU", "FLOPs", "compute", "tensor cores"},
            said = {"memory-bound", "memory speed", "waits on memory", "sit idle", "idle",
                    "one flop per byte", "per byte", "low arithmetic intensity", "not compute-bound",
                    "not the limit", "waiting on memory", "starved for bandwidth"},
            short = {"memory-bound", "memory bandwidth"} },
    point { "measure the memory read bandwidth", weight = 2,
            about = {"measure", "the number", "one number", "predict", "benchmark"},
            said = {"bandwidth", "gb/s", "tb/s", "read speed", "memory bandwidth", "bytes per second"} },
    point { "batching shares one weight read among many sequences",
            about = {"batching", "batch", "bigger batch", "more sequences", "batched decode"},
            said = {"shares", "amortize", "amortise", "read once", "helps", "same weight read"} },
  },
  misconceptions = {
    misconception { about = {"the sequences", "sequences", "requests", "batched sequences", "every sequence", "all sequences"},
                    said = {"share one KV cache", "share the KV cache", "share a KV cache", "share a single KV cache",
                            "share the same KV cache", "one shared KV cache", "share their KV cache"},
                    unless = {"prefix", "prompt", "common", "identical", "system", "parallel sampling", "beam", "cached blocks",
                          "pool", "own blocks", "its own", "their own"},
                    why = "each sequence has its own KV cache and every step reads all of them; what a batch shares is the one read of the weights (a shared prompt prefix is the exception prefix caching makes)" },
    misconception { about = {"decode", "it", "the GPU", "the model"},
                    said = {"compute-bound", "limited by FLOPs", "not enough FLOPs", "needs more compute",
                            "short of compute"},
                    why = "a decode step does about one FLOP per byte it reads: the GPU waits on memory while its FLOPs sit idle" },
    misconception { about = {"measure", "the number", "predict"},
                    said = {"TFLOP/s", "peak compute", "clock speed", "FLOPs"},
                    why = "the FLOPs sit idle in decode: tokens/s at batch 1 is read bandwidth ÷ bytes per step" },
    misconception { about = {"batching", "each sequence", "every sequence", "batch", "it"},
                    said = {"its own copy of the weights", "own copy of the weights", "copies of the weights",
                            "a copy of the model per sequence", "loads the weights for each sequence"},
                    unless = {"no sequence", "none", "one copy", "single copy", "shared", "shares", "once for",
                              "cost of reading"},
                    why = "the weights exist once in GPU memory; a batched step reads them once and applies them to every sequence in it, which is why batching helps" },
    misconception { about = {"measure", "the number", "predict", "weights", "decode", "it"},
                    said = {"PCIe", "from the host", "host to GPU", "host-to-device", "CPU memory", "over the bus"},
                    unless = {"cpu_offload_gb", "cpu-offload-gb", "weight offloading", "don't fit", "do not fit", "only once", "once at load", "at load", "load time",
                              "loaded once", "at start-up", "at startup", "stay in HBM", "stays in HBM", "nothing comes", "nothing goes"},
                    why = "the weights and the cache stay in the GPU's own memory (HBM on H100-, A100- and H200-class parts, GDDR6 on an L4 or L40S, GDDR6X on an RTX 4090) during decode; what a step waits on is that memory's read bandwidth, not PCIe" },
  },

  sections = {
    section {
      title = "What one decode step reads",
      text = "To produce the next token of a sequence, every layer multiplies that one token's "
          .. "activations by its weight matrices and attends over everything the sequence has "
          .. "cached. So one step reads every weight once, " .. f(weights / GB, 2) .. " GB for "
          .. "Qwen2.5-7B in BF16, plus the sequence's KV: at 8,192 tokens that is "
          .. f(kv_8k / GB, 2) .. " GB more. Per token produced, the GPU moves "
          .. f(step_bytes / GB, 2) .. " GB and does only about two floating-point operations "
          .. "per weight: one FLOP per byte, where a modern GPU can do hundreds. Strictly, "
          .. "every weight but one table: the embedding is a lookup, so a step reads one row of "
          .. "it per token, not the table. Qwen2.5-7B's untied embedding (" .. grouped(VOCAB)
          .. " × 3,584 in BF16, config.json) is " .. f(embed / GB, 2) .. " GB of the "
          .. f(weights / GB, 2) .. ", so a step really reads " .. f((weights - embed) / GB, 2)
          .. " GB of weights; the output layer (lm_head), a matrix of the same size, is read "
          .. "in full. The course's figures use all " .. f(weights / GB, 2) .. " GB, as the "
          .. "calculator does: a ceiling about " .. f(embed / weights * 100, 0)
          .. "% low at batch 1.",
    },
    section {
      title = "The ceiling is bandwidth divided by bytes",
      text = "When the arithmetic is this thin, the step takes at least as long as the reads "
          .. "do. Tokens per second at batch 1 is therefore at most memory bandwidth ÷ bytes per "
          .. "step: a ceiling. On an RTX 4090 (" .. f(rtx4090.bandwidth_gbps, 0) .. " GB/s on "
          .. "paper) that is " .. f(decode(rtx4090.bandwidth_gbps, 1)) .. " tokens/s, whatever "
          .. "its " .. f(rtx4090.tflops, 1) .. " TFLOP/s. Real runs fall short of it twice over. "
          .. "The memory itself delivers about 85 to 93% of the paper figure, which is why the "
          .. "probe measures it rather than trusting the data sheet. And part of each step is "
          .. "not reading at all: launching the hundreds of small kernels a step runs, sampling "
          .. "the next token, under tensor parallelism the all-reduces, and the CPU's own work "
          .. "(scheduling, preparing the inputs), which vLLM 0.26 overlaps with the GPU's step "
          .. "by default (async scheduling), so it shows only when it outlasts the step. vLLM 0.26 captures CUDA graphs by default to hide most "
          .. "of the launch gaps (cudagraph_mode FULL_AND_PIECEWISE): a pure-decode step "
          .. "replays as one full graph where the attention backend supports it, a mixed step "
          .. "of up to max_cudagraph_capture_size tokens (at most 512 by default) as piecewise "
          .. "graphs around attention, padded to the nearest captured size; a bigger step, "
          .. "such as one carrying a long prefill chunk, runs without a graph, where the "
          .. "launch gaps matter little.",
    },
    section {
      title = "Why batching works, and where it stops",
      text = "A step for 16 sequences still reads the weights once, but reads 16 caches. The "
          .. "weights' cost is shared, so throughput climbs almost linearly while the weights "
          .. "dominate; as batch and context grow, the caches dominate instead, and each extra "
          .. "sequence costs nearly a full cache read. That is the link to the KV-cache lesson: "
          .. "memory decides both how many sequences fit and how fast they decode.",
    },
    section {
      title = "Context length eats throughput",
      text = "Every token of context is read again at every step, so a long context costs "
          .. "speed as well as room. On an H100 SXM (" .. f(kv.gpu("h100").bandwidth_gbps, 0)
          .. " GB/s on paper), 32 sequences of 8,192 tokens decode at most " .. f(h100(8192, 32), 0)
          .. " tokens/s in total; the same 32 at 32,768 tokens at most " .. f(h100(32768, 32), 0)
          .. " (roofline ceilings, which real kernels approach from below), because their caches now weigh "
          .. f(32 * 32768 * base.kv_bytes_per_token / GB, 0) .. " GB a step against "
          .. f(weights / GB, 0) .. " GB of weights. Past the "
          .. "point where the caches outweigh the weights, a bigger batch buys little: each "
          .. "extra sequence brings its own full cache read.",
    },
    section {
      title = "Measure, then predict",
      text = "Run the probe (P on the course map, or `kvtutor probe` in a shell). It measures how "
          .. "fast this machine streams memory and keeps the figure. The last exercises here "
          .. "use your own measurement: predict your tokens/s before the probe screen shows it, "
          .. "then compare.",
    },
  },

  worked = code [[
weights     7,615,616,512 params × 2 B          = 15.23 GB
KV at 8k    8,192 tokens × 57,344 B             =  0.47 GB
one step    15.23 + 0.47                        = 15.70 GB
RTX 4090    1,008 GB/s ÷ 15.70 GB               = 64.2 tokens/s at batch 1
batch 16    16 × 1,008 ÷ (15.23 + 16 × 0.47)    = 709 tokens/s
H100, 32 × 32k context
  caches    32 × 32,768 × 57,344 B              = 60.13 GB
  total     32 × 3,352 ÷ (15.23 + 60.13)        = 1,423 tokens/s (3,544 at 8k)]],

  followups = {
    followup {
      question = "Your measured bandwidth is 90% of the data sheet's. Where does the rest go?",
      answer = "Refresh cycles, bank and page conflicts, read-write turnarounds and the memory "
            .. "controller's own overheads: the data sheet multiplies the clock by the bus width "
            .. "as if every cycle moved data. Well-written streaming reads reach about 85 to 93% of it;  a kernel that reads in small scattered pieces, like a paged gather with "
            .. "tiny blocks, loses more.",
      points = {
        point { "the peak assumes every cycle transfers data",
                about = {"data sheet", "peak", "theoretical peak", "the spec", "rated bandwidth"},
                said = {"every cycle", "clock", "bus width", "theoretical", "assumes", "never reached",
                        "ideal"} },
        point { "refresh, bank conflicts and controller overhead", weight = 2,
                accept = {"refresh", "bank", "conflict", "controller", "turnaround", "overhead"} },
        point { "access pattern matters: small scattered reads lose more",
                about = {"reads", "access pattern", "kernel", "small reads", "scattered reads", "pattern",
                         "gather"},
                said = {"scattered", "small", "random", "coalesced", "loses more", "lose more", "block size",
                        "uncoalesced", "matters"} },
      },
      misconceptions = {
        misconception { about = {"rest", "missing 10%", "gap", "difference", "the probe"},
                        said = {"measurement error", "is wrong", "a bug", "timer", "noise"},
                        why = "the gap is real: refresh, bank conflicts and controller overheads take cycles the data sheet counts as transfers" },
        misconception { about = {"it", "rest", "missing 10%", "gap", "HBM read", "every read", "reads"},
                        said = {"PCIe", "the CPU", "the host", "tensor cores", "compute-saturated"},
                        why = "reads of the GPU's own memory (HBM or GDDR) go from its memory controllers to its SMs: PCIe, the host and the tensor cores are not on the path" },
        misconception { about = {"data sheet", "the spec", "peak"},
                        said = {"is achievable", "can be reached", "reach 100%", "reaches 100%", "hit 100%"},
                        why = "the data sheet multiplies clock by bus width as if every cycle moved data; streaming reads reach about 85 to 93% of it" },
      },
    },
    followup {
      question = "Does FP8 KV cache make decode faster, or only fit more sequences?",
      answer = "Both, when the cache is a large share of the bytes per step: halving the KV bytes "
            .. "halves that part of each step's reads. At batch 1 with short context the weights "
            .. "dominate and the gain is small; at large batch and long context the caches "
            .. "dominate and the bytes allow close to twice the speed, on top of fitting twice "
            .. "the sequences. That is the ceiling; measured gains in vLLM have been smaller, "
            .. "since kernels spend time dequantising: in vllm-project/vllm#42058, Qwen3-8B at "
            .. "concurrency 8 on vLLM 0.26 decoded 0.4 to 5.5% faster on an A100 with prefill "
            .. "2.5 to 5% slower (run with enforce_eager, so without CUDA graphs, and at most 16k "
            .. "tokens a request, where the caches were at most about half of a step's bytes), "
            .. "and RTX 4090s showed about 21% faster decode and 12% slower "
            .. "prefill.",
      points = {
        point { "it reads fewer bytes per step", weight = 2,
                about = {"it", "fp8", "fp8 cache", "each step", "decode", "KV bytes", "the cache"},
                said = {"fewer bytes", "less to read", "halves", "half the bytes", "reads less", "faster",
                        "speeds", "speeds up", "quicker"},
                short = {"both", "both of them", "both, yes"} },
        point { "the gain depends on the KV share of the step",
                about = {"gain", "speedup", "it", "benefit", "decode", "caches", "cache", "weights"},
                said = {"depends", "share", "dominate", "small", "long context", "large batch",
                        "in proportion", "proportional", "how much of"},
                accept = {"large share", "kv share"} },
        point { "it also fits more sequences", accept = {"fit", "more sequences", "capacity"},
                about = {"it", "fp8", "fp8 cache", "the cache", "fp8 KV cache"},
                said = {"fit", "more sequences", "capacity"}, short = {"both"} },
      },
      misconceptions = {
        misconception { about = {"fp8", "fp8 cache", "it", "fp8 KV cache"},
                        said = {"only fits more", "doesn't make decode faster", "does not speed up",
                                "no speedup", "only capacity", "no faster", "never changes decode speed",
                                "doesn't change decode speed", "does not change the speed",
                                "depends only on the weights"},
                        why = "decode is memory-bound: halving the KV bytes halves that part of every step's reads" },
        misconception { about = {"it", "fp8", "fp8 cache", "fp8 KV cache", "decode"},
                        said = {"doesn't fit more", "does not fit more", "no more sequences",
                                "number of blocks is fixed", "tensor cores", "twice the FLOPs",
                                "more FLOPs", "only at batch 1", "only at batch one",
                                "only with short prompts", "always twice as fast", "exactly twice as fast",
                                "always doubles", "twice as fast at any", "always 2x", "doubles decode speed at any",
                                "twice as fast at batch 1", "doubles speed at batch 1"},
                        why = "the gain comes from reading fewer bytes, largest when the caches dominate (large batch, long context); and half the bytes per token fit twice the sequences" },
      },
    },
    followup {
      question = "What is MBU, and how would you compute it for a decode run?",
      answer = "MBU, model bandwidth utilisation, is the achieved bandwidth divided by the "
            .. "peak: the bytes one decode step must read (the weights plus the batch's KV cache) "
            .. "times the steps per second, over the GPU's peak memory bandwidth (Databricks, \"LLM Inference Performance Engineering\", 2023). "
            .. "Qwen2.5-7B in BF16 with 8,192 tokens of context reads " .. f(step_bytes / GB, 2)
            .. " GB a step; measured at " .. MBU_TPS .. " tokens/s on an RTX 4090's 1,008 GB/s, "
            .. "that is " .. f(step_bytes * MBU_TPS / 1008e9 * 100, 0) .. "%, counting every "
            .. "weight as the definition does (the embedding is really a lookup; without its "
            .. f(embed / GB, 2) .. " GB the step reads " .. f((step_bytes - embed) / GB, 2)
            .. " GB, " .. f((step_bytes - embed) * MBU_TPS / 1008e9 * 100, 0) .. "%). It says how close "
            .. "decode runs to the memory roofline, which is the right yardstick for decode: "
            .. "MFU, the FLOP utilisation, is low for decode by nature.",
      points = {
        point { "MBU = bytes read per step × steps/s ÷ peak bandwidth", weight = 3,
                about = {"MBU", "model bandwidth utilization", "model bandwidth utilisation", "it"},
                said = {"divided by the peak", "divided by peak", "÷ peak", "over peak bandwidth",
                        "fraction of peak bandwidth", "fraction of the peak bandwidth", "achieved bandwidth",
                        "bytes read", "bytes per step"},
                accept = {"achieved bandwidth", "achieved memory bandwidth", "fraction of the peak bandwidth",
                          "÷ peak bandwidth", "divided by peak bandwidth", "divided by the peak bandwidth",
                          "over peak bandwidth", "of the peak memory bandwidth", "of peak memory bandwidth",
                          "peak memory bandwidth decode actually uses", "/ peak bandwidth"} },
        point { "the bytes are the weights plus the KV cache", weight = 2,
                about = {"bytes", "bytes read", "the bytes", "each step", "one decode step"},
                said = {"weights plus", "weights and the KV cache", "plus the batch's KV cache",
                        "plus the KV cache", "includes the KV cache"},
                accept = {"weights + kv", "weights plus kv", "weights plus the kv", "weights and the kv cache",
                          "weights plus", "weights and kv", "weights and the kv", "weights and cache",
                          "weights and the cache"} },
        point { "MFU is the wrong yardstick for decode",
                about = {"MFU", "FLOP utilisation", "FLOP utilization", "compute utilization"},
                said = {"low for decode", "low by nature", "wrong yardstick", "misleading", "not the right"},
                accept = {"memory roofline", "memory-bound", "memory bound"} },
      },
      misconceptions = {
        misconception { about = {"MBU", "model bandwidth utilization", "it"},
                        said = {"FLOPs achieved", "compute utilization", "tensor core utilization", "FLOP utilization",
                                "peak FLOPs", "peak FLOP/s", "peak TFLOP/s", "FLOPs used", "achieved TFLOP/s",
                                "achieved FLOP/s"},
                        unless = {"MFU is", "MFU measures", "MFU, the", "not FLOPs", "not the FLOPs"},
                        why = "MBU measures memory bandwidth; FLOP utilisation is MFU, which is low for decode anyway" },
        misconception { about = {"decode run", "good decode run", "good run", "MBU", "a run"},
                        said = {"reaches 100%", "reach 100%", "100% MBU", "hits 100%", "full peak bandwidth"},
                        why = "MBU is measured against the data-sheet peak, which no run reaches: the memory itself delivers about 85 to 93% of it, and launches, sampling and host work take part of each step" },
        misconception { about = {"MBU", "the bytes", "bytes read"},
                        said = {"only the weights", "ignores the KV cache", "just the weights"},
                        why = "a decode step reads the weights and every sequence's cache; at long context or large batch the cache dominates" },
      },
    },
  },

  exercises = {
    numeric {
      id = "step-bytes",
      prompt = "At batch 1, counting every weight, how many GB (10^9 bytes) does one Qwen2.5-7B "
            .. "decode step read in BF16, with 8,192 tokens of context?",
      expected = step_bytes / GB, unit = "GB", tolerance = rel(0.02), model = MODEL,
      worked = code("params     " .. grouped(weights / 2) .. " (the 7.6 billion, exactly: config.json's "
          .. "shapes)\n"
          .. "weights    " .. grouped(weights / 2) .. " × 2 B = " .. grouped(weights)
          .. " B, every weight counted\n"
          .. "KV/token   2 × " .. kv.model(MODEL).layers .. " layers × " .. kv.model(MODEL).kv_heads
          .. " KV heads × " .. kv.model(MODEL).head_dim .. " dims × 2 B = "
          .. grouped(base.kv_bytes_per_token) .. " B\n"
          .. "KV at 8k   8,192 tokens × " .. grouped(base.kv_bytes_per_token) .. " B = "
          .. grouped(kv_8k) .. " B\n"
          .. "one step   " .. grouped(weights) .. " + " .. grouped(kv_8k) .. " = "
          .. grouped(step_bytes) .. " B ≈ " .. f(step_bytes / GB, 2) .. " GB\n"
          .. "convention as the calculator does; the " .. f(embed / GB, 2) .. " GB embedding is "
          .. "really a\n"
          .. "           lookup, one row a token: a step then reads ≈ "
          .. f((step_bytes - embed) / GB, 2) .. " GB"),
      hints = { "All the weights: 7.6 billion parameters × 2 bytes.",
                "Plus the sequence's cache: 8,192 tokens × 56 KiB." },
    },
    numeric {
      id = "tokens-at-spec",
      prompt = "On an RTX 4090's paper bandwidth of 1,008 GB/s, how many tokens/s can one such "
            .. "sequence decode, if decode is purely memory-bound?",
      expected = decode(1008, 1), unit = "tokens/s", tolerance = rel(0.03), model = MODEL,
      worked = code(decode_worked(1008, 1)),
      hints = { "Bandwidth ÷ bytes per step.", "1,008 GB/s ÷ 15.70 GB." },
    },
    numeric {
      id = "tokens-batch-16",
      prompt = "At the same 1,008 GB/s, how many tokens/s do 16 such sequences decode in total?",
      expected = decode(1008, 16), unit = "tokens/s", tolerance = rel(0.03), model = MODEL,
      worked = code(decode_worked(1008, 16)),
      left_out = { kv = 16 * 1008 * GB / weights },        -- the 16 caches' reads forgotten
      hints = { "One step reads the weights once and 16 caches.",
                "16 × 1,008 GB/s ÷ (15.23 + 16 × 0.47) GB." },
    },
    numeric {
      id = "your-tokens",
      measured = "read_gbps",
      prompt = "Your probe measured {read_gbps} GB/s. Predict: how many tokens/s can one "
            .. "Qwen2.5-7B sequence with 8,192 tokens of context decode at that bandwidth, "
            .. "counting every weight as read?",
      expected = function(p) return decode(p.read_gbps, 1), decode_worked(p.read_gbps, 1) end,
      unit = "tokens/s", tolerance = rel(0.03), model = MODEL,
      hints = { "Your bandwidth ÷ 15.70 GB per step." },
    },
    numeric {
      id = "your-batch-16",
      measured = "read_gbps",
      prompt = "At your measured {read_gbps} GB/s, how many tokens/s do 16 such sequences "
            .. "decode in total?",
      expected = function(p) return decode(p.read_gbps, 16), decode_worked(p.read_gbps, 16) end,
      unit = "tokens/s", tolerance = rel(0.03), model = MODEL,
      hints = { "16 × your bandwidth ÷ (15.23 + 16 × 0.47) GB." },
    },
    numeric {
      id = "context-32k-h100",
      prompt = "An H100 SXM reads 3,352 GB/s. How many tokens/s do 32 Qwen2.5-7B sequences decode in "
            .. "total when each holds 32,768 tokens of context?",
      expected = h100(32768, 32), unit = "tokens/s", tolerance = rel(0.03), model = MODEL,
      worked = code("cache      32,768 tokens × " .. grouped(base.kv_bytes_per_token) .. " B = "
          .. grouped(32768 * base.kv_bytes_per_token) .. " B a sequence\n"
          .. "32 caches  32 × " .. grouped(32768 * base.kv_bytes_per_token) .. " B = "
          .. grouped(32 * 32768 * base.kv_bytes_per_token) .. " B ≈ "
          .. f(32 * 32768 * base.kv_bytes_per_token / GB, 2) .. " GB\n"
          .. "one step   " .. f(weights / GB, 2) .. " GB weights (read once) + "
          .. f(32 * 32768 * base.kv_bytes_per_token / GB, 2) .. " GB = "
          .. f((weights + 32 * 32768 * base.kv_bytes_per_token) / GB, 2) .. " GB\n"
          .. "tokens     32 × " .. grouped(kv.gpu("h100").bandwidth_gbps) .. " GB/s ÷ "
          .. f((weights + 32 * 32768 * base.kv_bytes_per_token) / GB, 2) .. " GB = "
          .. grouped(h100(32768, 32)) .. " tokens/s\n"
          .. "note       a roofline figure, every weight counted; whether the "
          .. f(32 * 32768 * base.kv_bytes_per_token / 2^30, 0) .. " GiB\n"
          .. "           of caches fit beside the weights is a separate check"),
      hints = { "Each step reads the weights once and 32 caches of 32,768 tokens × 56 KiB.",
                "32 × 3,352 GB/s ÷ (15.23 + 60.13) GB." },
    },
    numeric {
      id = "per-seq-context",
      prompt = "On the H100 (3,352 GB/s), {batch} Qwen2.5-7B sequences each hold {context} "
            .. "tokens of context. By the memory roofline (a figure of bytes and bandwidth: the "
            .. "largest batch at 32k would not fit 80 GiB), how many tokens/s does each one of "
            .. "them decode?",
      params = { batch = {8, 16, 32, 64}, context = {2048, 4096, 8192, 16384, 32768} },
      expected = function(p)
        -- the memory-bound rate, even where the batch's KV would not fit in 80 GiB
        local r = kv.calc{model = MODEL, seq = p.context, context = p.context, batch = p.batch,
                          gpu = "h100"}
        local w, c = r.weights_bytes_total / 1e9, r.kv_bytes_per_token * p.context / 1e9
        local each = r.decode_tokens_per_s_memory / p.batch
        return each, "cache    " .. grouped(p.context) .. " tokens × " .. grouped(r.kv_bytes_per_token)
          .. " B = " .. upto(c, 4) .. " GB a sequence\n"
          .. "step     " .. fixed(w, 2) .. " GB of weights + " .. p.batch .. " × " .. upto(c, 4)
          .. " GB = " .. fixed(w + p.batch * c, 2) .. " GB\n"
          .. "total    " .. p.batch .. " × 3,352 GB/s ÷ " .. fixed(w + p.batch * c, 2) .. " GB = "
          .. grouped(r.decode_tokens_per_s_memory) .. " tokens/s\n"
          .. "each     ÷ " .. p.batch .. " = " .. fixed(each, 1) .. " tokens/s"
      end,
      unit = "tokens/s", tolerance = rel(0.03),
      hints = { "Bytes per step: the weights once, plus every sequence's cache.",
                "Per sequence: the total tokens/s divided by the batch." },
    },
    choice {
      id = "what-batching-buys",
      prompt = "Why is one decode step for 16 sequences far cheaper than 16 separate steps?",
      options = {
        option { "The weights are read once per step for all 16 sequences", correct = true,
                 why = "the weights dominate the bytes at small batch, and their read is shared" },
        option { "The GPU runs 16 times more FLOP/s when batched",
                 why = "the FLOP/s ceiling does not move; decode was not using it" },
        option { "The KV caches are shared between sequences",
                 why = "each sequence has its own cache, read in full every step" },
        option { "Batching compresses the weights",
                 why = "nothing is compressed; the same bytes are read" },
      },
    },
  },
}
