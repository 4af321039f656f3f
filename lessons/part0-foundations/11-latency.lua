-- Part 0 · Foundations: latency. What a user waits for (TTFT, then TPOT and ITL),
-- what a service promises (SLOs), and how many requests that lets you serve.

local MODEL = "qwen2.5-7b"
local m = kv.model(MODEL)
local h100 = kv.gpu("h100")
local PROMPT = 2048                                  -- tokens in the prompt
-- A chat service: each turn sends a 2,048-token prompt onto a conversation whose earlier
-- turns are already in the prefix cache, so a decoding sequence holds about 8,192 tokens of
-- context while only the new 2,048 are prefilled.
local CONTEXT = 8192                                 -- context each decoding sequence holds
local REPLY = 500                                    -- tokens per reply
local SLO_TPOT_MS = 20                               -- the service's TPOT objective

local function step(batch, context)
  return kv.calc{model = MODEL, seq = context, context = context, batch = batch, gpu = "h100"}
end

-- TPOT in ms for `batch` sequences of `context` tokens on the H100, memory-bound.
local function tpot_ms(batch, context)
  return 1000 * batch / step(batch, context).decode_tokens_per_s_memory
end

-- The largest batch whose TPOT meets the objective.
local function max_batch(slo_ms, context)
  local b = 1
  while tpot_ms(b + 1, context) <= slo_ms do b = b + 1 end
  return b
end

local prefill_ms = 2 * m.params * 1e9 * PROMPT / (h100.tflops * 1e12) * 1000
local t32 = tpot_ms(32, CONTEXT)
local bmax = max_batch(SLO_TPOT_MS, CONTEXT)
local tmax = tpot_ms(bmax, CONTEXT)
local e2e_s = (prefill_ms + (REPLY - 1) * tmax) / 1000
local rate_at_slo = bmax / e2e_s                     -- Little's law: λ = L ÷ W
local prefill_share = rate_at_slo * prefill_ms / 1000  -- of each second, the arrivals' prefill
local LAMBDA, TTFT_S, TPOT_S = 4, 0.5, 0.020         -- the Little's-law exercise
local W = TTFT_S + REPLY * TPOT_S
-- figures for the exercises' worked lines
local s32 = step(32, CONTEXT)
local kv_seq = CONTEXT * s32.kv_bytes_per_token               -- one sequence's cache, B
local slo_read = SLO_TPOT_MS / 1000 * h100.bandwidth_gbps * 1e9  -- what a 20 ms step may read, B
local smax = step(bmax, CONTEXT)                               -- does the SLO's batch fit the cache?

local function f(x, places) return fixed(x, places or 1) end

return lesson {
  id = "latency",
  title = "Latency: TTFT, TPOT and goodput",
  module = "part0-foundations",
  baseline = "vLLM's serving benchmark (vllm/benchmarks/serve.py, calculate_metrics, at commit "
          .. "009e6d4 of vLLM's main branch, its release not pinned down here; 0.26's serve.py "
          .. "computes the same figures): TTFT is the time to the first streamed token, TPOT is "
          .. "(latency − TTFT) ÷ (output tokens − 1) per request, ITL is every gap between "
          .. "streamed chunks, and request_goodput counts the requests that meet every given "
          .. "SLO (--goodput ttft:MS tpot:MS e2el:MS) per second of the run; Zhong et al., "
          .. "\"DistServe\" (OSDI 2024), §2, for per-GPU goodput, the highest request rate "
          .. "served with a target share of requests within the TTFT and TPOT SLOs; Little's "
          .. "law; the decode "
          .. "roofline of the memory-bound-decode lesson with Qwen2.5-7B's config.json shapes and "
          .. "the H100 SXM data sheet (3,352 GB/s, 989 TFLOP/s BF16 dense)",
  concept = "latency-slo",
  concept_title = "Latency and SLOs",
  requires = {"prefill-decode", "continuous-batching"},
  links = {"memory-bound-decode", "continuous-batching", "sizing-deployment"},

  question = "What are TTFT and TPOT, what sets each of them, and why do serving teams "
          .. "report goodput rather than throughput?",

  answer = "TTFT, time to first token, is how long a request waits for its first token: queueing "
        .. "plus the prefill of its prompt, which is compute-bound once the prompt is longer than a "
        .. "few hundred tokens (the GPU's ridge). TPOT, time per output token, "
        .. "is the average gap between the tokens after that: one decode step, which is "
        .. "memory-bound and grows with the batch and its context. A bigger batch raises "
        .. "throughput but slows every sequence, so throughput alone rewards a server that "
        .. "misses its latency targets. Goodput counts only the requests that meet their SLOs "
        .. "on TTFT and TPOT: vLLM's benchmark measures it as the good requests of a run per "
        .. "second (request_goodput), and DistServe defines it per GPU as the highest request "
        .. "rate at which a target share of requests still meets them. That is what you "
        .. "maximise.",

  points = {
    point { "TTFT is queueing plus the prompt's prefill", weight = 2,
            about = {"TTFT", "time to first token", "first token"},
            said = {"prefill", "queue", "queueing", "prompt", "waits"} },
    point { "TPOT is the decode step time per token", weight = 2,
            -- the gap between two tokens is the decode step too (ITL and TPOT differ in how
            -- vLLM averages them, not in what one gap is)
            about = {"TPOT", "time per output token", "each later token", "each token after", "ITL",
                     "inter-token latency"},
            said = {"decode step", "decode", "gap", "memory-bound", "each step", "per step"} },
    point { "a bigger batch raises throughput but slows each sequence", weight = 2,
            about = {"bigger batch", "larger batch", "more sequences", "batch", "batching", "throughput"},
            said = {"slows", "slower", "raises TPOT", "latency grows", "each sequence", "trade"} },
    point { "goodput counts only requests that meet their SLOs", weight = 2,
            about = {"goodput"},
            said = {"meet", "within", "slo", "latency targets", "only requests"} },
  },
  misconceptions = {
    misconception { about = {"goodput"},
                    said = {"on average", "mean TTFT", "mean TPOT", "average TTFT", "average TPOT", "the averages",
                            "the mean latency", "average latency"},
                    unless = {"per request", "each request", "every request", "P99", "percentile", "rather than", "instead of",
                                              "hides", "hide", "over the run"},
                    why = "goodput counts requests one by one: each request must meet every SLO, so averages that pass can hide many requests that miss" },
    misconception { about = {"TTFT", "time to first token", "first token"},
                    said = {"decode step", "one decode"},
                    why = "the first token comes out of the prompt's prefill, a pass over every prompt token (compute-bound past a few hundred tokens), after any queueing" },
    misconception { about = {"TPOT", "time per output token"},
                    said = {"total generation time divided", "total time divided", "end-to-end latency divided",
                            "whole request time divided", "total latency divided", "total generation time ÷",
                            "total time ÷", "total request time ÷ output", "total request time divided by output",
                            "request time ÷ output", "request time divided by output", "end-to-end latency ÷ output",
                            "latency ÷ output tokens", "latency divided by output tokens",
                            "latency over generated tokens", "latency over output tokens",
                            "request duration divided", "request duration over", "request duration ÷",
                            "over number of generated tokens", "spread over every output token",
                            "duration / output length", "request duration /"},
                    why = "TPOT leaves the first token out: vLLM's calculate_metrics takes (latency − TTFT) ÷ (output tokens − 1), the pace of decode steps after the prefill" },
    misconception { about = {"goodput"},
                    said = {"same as throughput", "all requests", "tokens per second", "total throughput"},
                    why = "goodput counts only the requests that meet every SLO, per second; requests that miss add throughput, not goodput" },
    -- A bigger batch's own step cannot be shorter. Latency as a whole can
    -- fall (less queueing; continuous batching against static), so a bare
    -- "reduces latency" is no evidence either way: only "for every
    -- sequence", which queueing cannot give, is listed.
    misconception { about = {"bigger batch", "larger batch", "more sequences", "batching"},
                    said = {"lowers TPOT", "faster per token", "speeds up each", "speeds up every sequence",
                            "each sequence's step gets shorter", "waits less for its next token",
                            "next token sooner", "cuts latency for every sequence",
                            "reduces latency for every sequence", "lowers latency for every sequence"},
                    unless = {"static batching", "than static"},
                    why = "every sequence in a step waits for the whole step: more sequences mean more cache to read, so each one's TPOT grows" },
  },

  sections = {
    section {
      title = "Two latencies, two phases",
      text = "A streamed reply has two waits. TTFT runs from the request's arrival to its first "
          .. "token: time in the queue, then the prefill of the prompt (measured at the client, "
          .. "it also holds the HTTP round trip and tokenisation, and under chunked prefill "
          .. "every step the prompt's chunks share with other work). Take a chat service whose "
          .. "every turn sends a " .. grouped(PROMPT) .. "-token prompt onto a conversation "
          .. "already in the prefix cache, so a decoding sequence holds about "
          .. grouped(CONTEXT) .. " tokens of context and only the new tokens are prefilled. "
          .. "Past a few hundred tokens (the H100's ridge, about 295 FLOPs a byte) prefill is a "
          .. "compute-bound pass over every prompt token: " .. grouped(PROMPT) .. " tokens of Qwen2.5-7B take "
          .. "2 × " .. f(m.params, 2) .. " billion parameters × " .. grouped(PROMPT) .. " ÷ "
          .. grouped(h100.tflops) .. " TFLOP/s = " .. f(prefill_ms, 1) .. " ms on an idle H100, "
          .. "at its paper peak (attention's own FLOPs left out, and the embedding and LM head "
          .. "counted though the one is a lookup and the other runs only where a token is "
          .. "sampled: an estimate, a little high on that count). After that, each token costs one "
          .. "decode step (without speculative decoding), memory-bound: with "
          .. "32 sequences of " .. grouped(CONTEXT) .. " tokens, a step reads the weights once "
          .. "and 32 caches, and each sequence gets a token every " .. f(t32, 2) .. " ms.",
    },
    section {
      title = "TPOT and ITL are not the same number",
      text = "vLLM's serving benchmark (vllm/benchmarks/serve.py, calculate_metrics) reports both. "
          .. "TPOT is per request: (end-to-end latency − TTFT) ÷ (output tokens − 1), an average "
          .. "over its decode. ITL is every gap between streamed chunks, pooled over all "
          .. "requests. A request whose decode stalls once for half a second, because a long "
          .. "prompt's prefill shared its step or it was preempted, barely moves its TPOT but "
          .. "shows in the P99 ITL, and the user sees the stall. A gap is per chunk, not per "
          .. "token: with speculative decoding one step streams all its accepted tokens in one "
          .. "chunk, so the mean ITL (time ÷ chunks) comes out above the TPOT (time ÷ tokens), "
          .. "about the tokens a step yields times higher. Without speculation too, a streamed "
          .. "request's tokens are merged into one chunk when its consumer falls behind the "
          .. "engine (a slow client or, at high concurrency, a busy API-server event loop: "
          .. "RequestOutputCollector in vllm/v1/engine/output_processor.py), so the gaps get "
          .. "fewer and longer while the engine's time a token is unchanged; --stream-interval "
          .. "N (default 1) sends N tokens a chunk on purpose (Part 1, lesson 1).",
    },
    section {
      title = "The batch trades latency for throughput",
      text = "Memory-bound decode shares the weight read among the batch, so a bigger batch "
          .. "raises tokens/s in total, while every sequence waits for the whole step. At "
          .. grouped(CONTEXT) .. " tokens of context on an H100, a " .. SLO_TPOT_MS .. " ms TPOT "
          .. "objective allows at most " .. bmax .. " sequences (" .. f(tmax, 2) .. " ms a "
          .. "token); one more and every sequence misses it. Past that point throughput still "
          .. "climbs a little, but no request meets its target.",
    },
    section {
      title = "Goodput: the throughput that counts",
      text = "Two definitions go by the name, and an interviewer may mean either. The "
          .. "DistServe paper (Zhong et al., OSDI 2024, §2) defines per-GPU goodput as the "
          .. "highest request rate a system can be offered while a target share of its "
          .. "requests (90%, say) meets both the TTFT and the TPOT SLO, divided by the GPUs it "
          .. "uses: a capacity, found by sweeping the rate. vLLM's benchmark reports a measured "
          .. "figure of one run instead, request_goodput (vllm/benchmarks/serve.py, "
          .. "calculate_metrics), when given `--goodput ttft:MS tpot:MS`: the requests that "
          .. "met every SLO given, divided by the run's duration; a request is good only if "
          .. "its TTFT and its TPOT are both at or under their limits. "
          .. "Raising max_num_seqs can raise throughput and lower goodput at once: more requests "
          .. "finish per second, fewer of them on time. Size a deployment on goodput at your "
          .. "SLOs, with the percentiles the SLO names (P99, not the mean).",
    },
    section {
      title = "Little's law ties load to latency",
      text = "In steady state, requests in flight = arrival rate × time each spends (L = λ × W). "
          .. "A latency target fixes W, memory and the TPOT objective cap L, so together they "
          .. "fix the rate you can serve. With " .. bmax .. " sequences in flight, each taking "
          .. f(prefill_ms, 1) .. " ms of prefill plus " .. (REPLY - 1) .. " steps of "
          .. f(tmax, 2) .. " ms (" .. f(e2e_s, 2) .. " s), the H100 serves at most "
          .. f(rate_at_slo, 2) .. " requests/s of " .. REPLY .. "-token replies within the "
          .. "objective. That is a decode-only bound: each arrival also brings its "
          .. f(prefill_ms, 1) .. " ms of prefill, " .. f(100 * prefill_share, 0) .. "% of every "
          .. "second at " .. f(rate_at_slo, 1) .. " requests/s, and under chunked prefill "
          .. "those tokens ride in the decode steps and lengthen them past " .. SLO_TPOT_MS
          .. " ms, so the rate that meets the objective is lower; a load test (or Part 1's "
          .. "simulator) finds it. Turned round: at " .. LAMBDA .. " requests/s with " .. f(W, 1)
          .. " s each, " .. f(LAMBDA * W, 0) .. " are in flight, and memory must hold them all.",
    },
  },

  worked = code [[
prefill     2 × 7.6156e9 × 2,048 ÷ 989e12 FLOP/s      = 31.5 ms (idle H100, paper peak)
TPOT, 32    (15.23 + 32 × 0.4698) GB ÷ 3,352 GB/s     = 9.03 ms
SLO 20 ms   15.23 + b × 0.4698 ≤ 20 ms × 3,352 GB/s = 67.04 GB
            b ≤ (67.04 − 15.23) ÷ 0.4698 = 110.3      → 110 sequences, 19.96 ms
one request 31.5 ms + 499 × 19.96 ms                  = 9.99 s
Little      110 in flight ÷ 9.99 s                    = 11.0 requests/s
prefill     11.0 requests/s × 31.5 ms                 = 0.35 s of every second:
            a decode-only bound; the prefill lengthens the steps
            4 requests/s × (0.5 + 500 × 0.020) s      = 42 in flight]],

  followups = {
    followup {
      question = "Your dashboard shows a mean TPOT of 15 ms, yet users complain that replies "
              .. "freeze. What metric shows it, and what causes it?",
      answer = "TPOT is one average per request, (latency − TTFT) ÷ (tokens − 1), so a single "
            .. "long stall is spread over hundreds of tokens and the mean hides it. The "
            .. "inter-token latency, each gap between streamed chunks, shows it in its tail: "
            .. "look at P99 ITL. Stalls come from steps that carry a long prompt's prefill "
            .. "alongside the decodes, and from preemption, when a sequence loses its blocks "
            .. "and waits to be recomputed.",
      points = {
        point { "TPOT is an average that hides a single stall", weight = 2,
                about = {"TPOT", "mean TPOT", "average", "the mean"},
                said = {"average", "hides", "spread", "smooths", "per request"} },
        point { "the tail of the inter-token latency shows it", weight = 2,
                about = {"ITL", "inter-token latency", "each gap", "tail", "gaps"},
                said = {"P99", "tail", "shows", "each gap", "percentile", "spikes"} },
        point { "prefill sharing the step, or preemption, causes stalls",
                about = {"stalls", "stall", "freezes", "cause", "it", "long prompt", "prefill",
                         "preemption"},
                said = {"prefill", "preempt", "recompute", "same step", "long prompt"} },
      },
      misconceptions = {
        misconception { about = {"TPOT", "mean TPOT", "the mean"},
                        said = {"shows every stall", "is the gap between every token",
                                "catches the freezes", "is the same as ITL"},
                        why = "TPOT is one average per request; a single stall spreads over all its tokens, and only the ITL tail shows it" },
        misconception { about = {"freezes", "stalls", "it", "cause"},
                        said = {"only the network", "just the network", "only the client", "tokenizer"},
                        why = "a client-side stall shows in the client's ITL, but a steady mean TPOT with freezes points at the server's own steps: a long prefill sharing the step, or a preempted sequence waiting to be recomputed; compare vLLM's server-side inter-token histogram to tell them apart (detokenising runs incrementally in the front-end process, off the engine's steps)" },
      },
    },
    followup {
      question = "A service must keep P99 TPOT under 20 ms. How do you decide how many requests "
              .. "per second one GPU can take?",
      answer = "Find the largest batch whose step time stays under 20 ms at the context your "
            .. "requests hold: more sequences than that slows every one of them past the "
            .. "target. Then apply Little's law: the rate you can serve is that many requests in "
            .. "flight divided by the time each one takes, TTFT plus its output tokens times "
            .. "the TPOT. That bound counts decode only: the arrivals' prefills share the steps "
            .. "under chunked prefill and lengthen them, so leave room for them. Check that "
            .. "memory holds that many caches, and measure goodput at that rate, since the "
            .. "requests that miss the SLO do not count.",
      points = {
        point { "the SLO caps the batch: the largest batch within 20 ms", weight = 2,
                about = {"batch", "largest batch", "sequences", "step time", "concurrency", "bigger batches",
                         "P99 TPOT", "TPOT", "highest rate", "the highest rate"},
                said = {"under 20 ms", "within", "stays under", "caps", "largest", "slows every", "longer steps",
                        "slower steps", "hits 20 ms", "reaches 20 ms"} },
        point { "the rate: Little's law (in flight ÷ time per request), or a sweep of the rate", weight = 2,
                about = {"rate", "requests per second", "Little's law", "throughput"},
                said = {"divided by", "in flight", "time each", "L = λW", "little's law"},
                accept = {"little's law", "littles law", "sweep the request rate", "sweep the rate",
                          "sweeping the rate", "sweeping the request rate", "ramp the request rate",
                          "ramp the rate"} },
        point { "memory must hold that many caches",
                about = {"memory", "KV cache", "caches", "blocks"},
                said = {"holds", "fit", "enough", "hold"} },
        point { "measure goodput: requests that miss do not count",
                about = {"goodput", "requests that miss", "misses", "load test", "highest rate", "load-test"},
                said = {"measure", "do not count", "only", "slo", "still meets", "meets it", "meets the SLO"} },
      },
      misconceptions = {
        misconception { about = {"rate", "the rate", "requests per second", "throughput"},
                        said = {"in flight times the time", "in flight multiplied by the time", "in flight × the time",
                                "concurrency times the latency", "concurrency multiplied by the latency"},
                        why = "Little's law: requests in flight = rate × time each request takes, so the rate is in flight ÷ that time" },
        misconception { about = {"batch", "max_num_seqs", "concurrency"},
                        said = {"as large as memory allows", "fill the memory", "maximum that fits"},
                        why = "the largest batch memory holds may be far past the one the TPOT objective allows; the SLO caps it first" },
        misconception { about = {"rate", "requests per second", "throughput"},
                        said = {"equals tokens per second", "times the batch"},
                        why = "Little's law: requests per second = requests in flight ÷ the time each one takes" },
      },
    },
  },

  exercises = {
    numeric {
      id = "tpot-batch-32",
      prompt = "An H100 (3,352 GB/s) decodes 32 Qwen2.5-7B sequences (15.23 GB of BF16 weights, "
            .. "28 layers, 4 KV heads of 128 dims) of 8,192 tokens each, memory-bound, every "
            .. "weight and cached token read once a step at the full bandwidth. What is each "
            .. "sequence's TPOT, in ms?",
      expected = t32, unit = "ms", tolerance = rel(0.03), model = MODEL,
      worked = code("KV/token  2 × " .. m.layers .. " layers × " .. m.kv_heads .. " KV heads × "
        .. m.head_dim .. " dims × 2 B = " .. grouped(s32.kv_bytes_per_token) .. " B\n"
        .. "KV read   32 × " .. grouped(CONTEXT) .. " tokens × " .. grouped(s32.kv_bytes_per_token)
        .. " B = " .. fixed(32 * kv_seq / 1e9, 2) .. " GB\n"
        .. "one step  " .. fixed(s32.weights_bytes / 1e9, 2) .. " GB of weights (read once) + "
        .. fixed(32 * kv_seq / 1e9, 2) .. " GB = " .. fixed((s32.weights_bytes + 32 * kv_seq) / 1e9, 2)
        .. " GB\n"
        .. "TPOT      " .. fixed((s32.weights_bytes + 32 * kv_seq) / 1e9, 2) .. " GB ÷ "
        .. grouped(h100.bandwidth_gbps) .. " GB/s = " .. fixed(t32, 2)
        .. " ms (a token per sequence a step)\n"
        .. "          a floor: full bandwidth, decode-only steps; the embedding table\n"
        .. "          (1.09 GB) is counted as read though a step looks up a few rows"),
      hints = { "One step reads the weights once and 32 caches; each sequence gets one token.",
                "(15.23 + 32 × 8,192 × 57,344 ÷ 10⁹) GB ÷ 3,352 GB/s." },
    },
    numeric {
      id = "tpot-param",
      prompt = "An H100 SXM (3,352 GB/s) decodes {batch} Qwen2.5-7B sequences (15.23 GB of BF16 "
            .. "weights, 28 layers, 4 KV heads of 128 dims) of {context} tokens each, "
            .. "memory-bound, every weight and cached token read once a step at the full "
            .. "bandwidth. What is each sequence's TPOT, in ms?",
      params = { batch = {8, 16, 32, 64, 128}, context = {2048, 4096, 8192, 16384} },
      expected = function(p)
        local r = step(p.batch, p.context)
        local reads = r.weights_bytes + p.batch * p.context * r.kv_bytes_per_token
        local ms = tpot_ms(p.batch, p.context)
        return ms, "KV/token  2 × " .. m.layers .. " layers × " .. m.kv_heads .. " KV heads × "
          .. m.head_dim .. " dims × 2 B = " .. grouped(r.kv_bytes_per_token) .. " B\n"
          .. "KV read   " .. p.batch .. " × " .. grouped(p.context) .. " tokens × "
          .. grouped(r.kv_bytes_per_token) .. " B = "
          .. fixed((reads - r.weights_bytes) / 1e9, 2) .. " GB\n"
          .. "one step  " .. fixed(r.weights_bytes / 1e9, 2) .. " GB of weights + "
          .. fixed((reads - r.weights_bytes) / 1e9, 2) .. " GB = " .. fixed(reads / 1e9, 2) .. " GB\n"
          .. "TPOT      " .. fixed(reads / 1e9, 2) .. " GB ÷ " .. grouped(h100.bandwidth_gbps)
          .. " GB/s = " .. fixed(ms, 2) .. " ms, one token per sequence a step\n"
          .. "          a floor: full bandwidth, decode-only steps; the embedding table\n"
          .. "          (1.09 GB) is counted as read though a step looks up a few rows"
      end,
      unit = "ms", tolerance = rel(0.03),
      hints = { "KV per token: 2 × 28 × 4 × 128 × 2 B.",
                "Step time = (weights + batch × context × KV per token) ÷ bandwidth." },
    },
    numeric {
      id = "max-batch-slo",
      prompt = "Same H100 and model, every sequence at 8,192 tokens of context. The service "
            .. "promises a TPOT of at most 20 ms. How many sequences can decode at once?",
      expected = bmax, unit = "sequences", tolerance = abs(0.5), model = MODEL,
      worked = code("per seq   " .. grouped(CONTEXT) .. " tokens × " .. grouped(s32.kv_bytes_per_token)
        .. " B = " .. fixed(kv_seq / 1e9, 4) .. " GB of KV\n"
        .. "one step  " .. SLO_TPOT_MS .. " ms × " .. grouped(h100.bandwidth_gbps) .. " GB/s = "
        .. fixed(slo_read / 1e9, 2) .. " GB may be read\n"
        .. "batch     ⌊(" .. fixed(slo_read / 1e9, 2) .. " − " .. fixed(s32.weights_bytes / 1e9, 2)
        .. ") GB ÷ " .. fixed(kv_seq / 1e9, 4) .. " GB⌋ = ⌊"
        .. fixed((slo_read - s32.weights_bytes) / kv_seq, 1) .. "⌋ = " .. bmax
        .. " sequences\n"
        .. "check     TPOT at " .. bmax .. " = " .. fixed(tmax, 2) .. " ms; at " .. (bmax + 1) .. " = "
        .. fixed(tpot_ms(bmax + 1, CONTEXT), 2) .. " ms, over " .. SLO_TPOT_MS .. " ms\n"
        .. "memory    " .. bmax .. " × " .. fixed(kv_seq / 2^30, 4) .. " GiB = "
        .. fixed(bmax * kv_seq / 2^30, 1) .. " GiB of KV fits: "
        .. smax.gpu_memory_utilization .. " × "
        .. fixed((smax.kv_budget_bytes + smax.weights_bytes) / smax.gpu_memory_utilization / 2^30, 0)
        .. " GiB less\n"
        .. "          " .. fixed(smax.weights_bytes / 2^30, 1) .. " GiB of weights leaves "
        .. fixed(smax.kv_budget_bytes / 2^30, 1) .. " GiB, at most " .. smax.max_concurrent_seqs
        .. " such sequences\n"
        .. "          (no overhead or activation peak taken out)"),
      hints = { "20 ms × 3,352 GB/s is what one step may read.",
                "(67.04 − 15.23) GB ÷ 0.4698 GB per sequence, rounded down." },
    },
    numeric {
      id = "littles-law",
      prompt = "Requests arrive at 4 per second. Each waits 0.5 s for its first token, then "
            .. "streams 500 more tokens at 20 ms each. How many requests are in flight on "
            .. "average?",
      expected = LAMBDA * W, unit = "requests", tolerance = rel(0.02),
      worked = code("time each  W = " .. TTFT_S .. " s + " .. REPLY .. " × " .. fixed(TPOT_S, 3)
        .. " s = " .. f(W) .. " s\n"
        .. "in flight  L = λ × W = " .. LAMBDA .. " requests/s × " .. f(W) .. " s = "
        .. f(LAMBDA * W, 0) .. " requests"),
      hints = { "Little's law: in flight = arrival rate × time each spends.",
                "Each spends 0.5 + 500 × 0.020 s." },
    },
    choice {
      id = "goodput-falls",
      prompt = "Doubling max_num_seqs raises a server's throughput from 10 to 12 requests/s. "
            .. "Before, every request's TPOT was under 18 ms; now the median request's TPOT is "
            .. "26 ms. The SLO is TPOT ≤ 20 ms. What happened to goodput?",
      options = {
        option { "It fell: at least half the requests now miss the TPOT objective and no longer "
                 .. "count, so at most 6 of the 12 requests/s are good",
                 correct = true,
                 why = "goodput counts only the requests that meet every SLO: it was 10, now at most 12 × 0.5" },
        option { "It rose to 12 requests/s with the throughput",
                 why = "requests over 20 ms add throughput, not goodput" },
        option { "It is unchanged: goodput depends only on TTFT",
                 why = "vLLM's benchmark checks TTFT, TPOT and end-to-end latency, whichever are given" },
        option { "It doubled with max_num_seqs",
                 why = "the cap is not the batch; memory and the SLO decide what runs well" },
      },
    },
    freetext {
      id = "ttft-vs-tpot",
      prompt = "In two or three sentences: what sets a request's TTFT, and what sets its TPOT?",
      answer = "TTFT is time in the queue plus the prefill of the prompt, a pass that grows "
            .. "with the prompt's length and is compute-bound past a few hundred tokens. TPOT is the time of one decode step, "
            .. "memory-bound: the weights plus every running sequence's cache read once, so it "
            .. "grows with the batch and the context.",
      points = {
        point { "TTFT: queueing plus the prompt's prefill", weight = 2,
                about = {"TTFT", "time to first token", "first token"},
                said = {"prefill", "queue", "prompt"} },
        point { "TPOT: one decode step, memory-bound", weight = 2,
                about = {"TPOT", "time per output token"},
                said = {"decode step", "decode", "memory-bound", "weights", "cache"} },
        point { "TPOT grows with batch and context",
                about = {"it", "TPOT", "step", "decode step"},
                said = {"grows", "batch", "context", "longer"} },
      },
      misconceptions = {
        misconception { about = {"TTFT", "time to first token", "the first token"},
                        said = {"set by its own output length", "depends on its own output length", "set by the output length",
                                "depends on the output length", "depends on how many tokens it will generate", "plans the whole reply"},
                        unless = {"running requests", "requests ahead", "ahead of it", "in the queue ahead", "other requests", "saturat", "server is full", "when full"},
                        why = "TTFT is the wait in the queue plus the prompt's prefill; the reply's length does not exist yet when the first token is sent" },
        misconception { about = {"prefill", "the prefill"},
                        said = {"basically free", "essentially free", "is free", "costs nothing"},
                        unless = {"cache hit", "cached", "prefix cache", "prefix-cache", "short prompt", "few tokens"},
                        why = "prefill is a pass over the whole prompt, compute-bound past a few hundred tokens: for thousands of tokens of a 7B model it takes tens of milliseconds even on an H100" },
        misconception { about = {"TPOT", "time per output token"},
                        said = {"depends only on model size", "only on model size", "stays constant however many", "constant regardless of the batch", "only on the length of the request's own prompt", "only on its own prompt"},
                        unless = {"batch 1", "single sequence", "one sequence at short", "short context", "idle server", "runs alone", "alone on"},
                        why = "a decode step reads the weights and every running sequence's cache, so TPOT grows with the batch and the contexts" },
        misconception { about = {"TPOT", "time per output token"},
                        said = {"total generation time divided", "total time divided",
                                "end-to-end latency divided", "whole request time divided",
                                "total latency divided", "total generation time ÷", "total time ÷"},
                        why = "TPOT leaves the first token out: vLLM's calculate_metrics takes (latency − TTFT) ÷ (output tokens − 1), the pace of decode steps after the prefill" },
      },
    },
  },
}
