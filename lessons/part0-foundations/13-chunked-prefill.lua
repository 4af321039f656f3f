-- Part 0 · Foundations: chunked prefill and preemption. One token budget per step
-- is shared by decodes and prompt chunks; what it is set to trades TTFT against the
-- gaps decoding users see. When blocks run out, a request is preempted and recomputed.

local MODEL = "qwen2.5-7b"
local q = kv.calc{model = MODEL, gpu = "h100", seq = 4096, context = 4096, batch = 64}
local h100 = kv.gpu("h100")
local PARAMS = kv.model(MODEL).params * 1e9
local FLOPS = h100.tflops * 1e12
local BW = h100.bandwidth_gbps * 1e9
local DECODES, CONTEXT = 64, 4096                   -- sequences decoding meanwhile, their context
local PROMPT = 32768                                 -- the long prompt that arrives
local BS = 16                                        -- block size

-- One step on the roofline: the weights and the decodes' caches are read once, and
-- every scheduled token costs 2 FLOPs per parameter; the slower of the two sets the time.
local function step_s(tokens)
  local read = q.weights_bytes + DECODES * CONTEXT * q.kv_bytes_per_token
  return math.max(read / BW, 2 * PARAMS * tokens / FLOPS)
end

-- Steps and time to prefill PROMPT while DECODES sequences decode, with budget b.
local function prefill(b)
  local per = b - DECODES
  local steps = math.ceil(PROMPT / per)
  local last = PROMPT - (steps - 1) * per
  return steps, (steps - 1) * step_s(b) + step_s(last + DECODES)
end

local decode_only = step_s(DECODES)
local s8k, t8k = prefill(8192)
local s2k, t2k = prefill(2048)
local s512, t512 = prefill(512)
local RESUME = 6010                                  -- tokens a preempted request holds
local recompute_ms = 2 * PARAMS * RESUME / FLOPS * 1000
local cached = (RESUME - 1) // BS * BS               -- full blocks a cache hit can give back

local function f(x, places) return fixed(x, places or 1) end
-- Every parameter is charged 2 FLOPs a token here, as the roofline lessons do. Qwen2.5-7B's
-- embedding (a lookup) and its untied LM head (run only where a token is sampled) are each
-- vocab 152,064 x hidden 3,584 (config.json): counted for every prompt token, they over-count.
local HEADS_SHARE = 2 * 152064 * kv.model(MODEL).hidden / PARAMS
local function ms(x, places) return fixed(x * 1000, places or 1) end

-- What the step times leave out: causal attention's own FLOPs, 4 × layers × heads × head_dim
-- per query-key pair (QK^T and PV), P(P + 1)/2 pairs over the whole prompt, lesson 3's
-- convention. The fourth 8,128-token chunk (positions 24,384 to 32,512) attends over 28,448
-- earlier positions on average.
local model = kv.model(MODEL)
local attn_pair = 4 * model.layers * model.heads * model.head_dim        -- 401,408 FLOPs
local attn_prompt_s = attn_pair * PROMPT * (PROMPT + 1) / 2 / FLOPS
local attn_share = attn_prompt_s / (2 * PARAMS * PROMPT / FLOPS)
local CHUNK = 8192 - DECODES
local chunk4_context = 3 * CHUNK + (CHUNK + 1) / 2
local attn_chunk4_s = attn_pair * CHUNK * chunk4_context / FLOPS

return lesson {
  id = "chunked-prefill",
  title = "Chunked prefill and preemption: one token budget per step",
  module = "part0-foundations",
  baseline = "vLLM 0.26's V1 scheduler (vllm/v1/core/sched/scheduler.py, "
          .. "Scheduler.schedule: running requests first, then waiting ones, within "
          .. "max_num_scheduled_tokens; a prompt longer than the budget left is cut to it; "
          .. "a waiting or preempted request is admitted only when the free blocks could hold its "
          .. "whole sequence so far, a check and not a reservation, "
          .. "SchedulerConfig.scheduler_reserve_full_isl, on by 0.24 at the latest, "
          .. "vllm#37307; "
          .. "preemption pops the last running request under FCFS and admits no waiting request "
          .. "that step; Scheduler._preempt_request frees the blocks and zeroes "
          .. "num_computed_tokens; a resumed request looks up its tokens with "
          .. "KVCacheManager.get_computed_blocks); defaults in vllm/engine/arg_utils.py, "
          .. "EngineArgs.get_batch_defaults (vllm serve on a GPU of 70 GiB or more that is not an "
          .. "A100: max_num_batched_tokens 8192, max_num_seqs 1024; otherwise 2048 and 256; "
          .. "both doubled, where not given, under --performance-mode throughput, #34936) and "
          .. "_set_default_chunked_prefill_and_prefix_caching_args (chunked prefill on where the "
          .. "model supports it); vllm/v1/core/block_pool.py, BlockPool.get_new_blocks (a freed "
          .. "block keeps its hash until it is handed out again); step times on the roofline with "
          .. "the H100 SXM data sheet (3,352 GB/s, 989 TFLOP/s BF16 dense); the budget-against-"
          .. "ITL trade is Sarathi-Serve's chunked prefill with stall-free batching (Agrawal et "
          .. "al., OSDI 2024, §4), which picks the budget from the inter-token SLO and the GPU's "
          .. "profile",
  concept = "chunked-prefill",
  concept_title = "Chunked prefill",
  requires = {"continuous-batching", "prefix-caching", "latency"},
  links = {"prefill-decode", "continuous-batching", "prefix-caching", "latency"},

  question = "What does max_num_batched_tokens control in vLLM, what happens when a long "
          .. "prompt arrives while others are decoding, and what does preemption cost?",

  answer = "It is the token budget of one scheduler step, shared by everything in it. vLLM "
        .. "schedules the running requests first, one token each for those decoding, then "
        .. "fills the rest of the budget with prompt tokens: a long prompt is chunked over "
        .. "several steps and each chunk rides with the decodes. A large budget finishes the "
        .. "prompt in fewer steps, but every step that carries a big chunk is compute-bound "
        .. "and slow, so the decoding requests see long gaps; a small budget keeps the gaps "
        .. "short and spreads the prefill over more steps, raising TTFT once the chunks are "
        .. "too small to keep the GPU busy. When blocks run out, vLLM preempts the most "
        .. "recently admitted request (under the default FCFS policy): its blocks are freed and it is recomputed later, a "
        .. "new prefill over its prompt and output so far, unless the prefix cache still holds "
        .. "those blocks.",

  points = {
    point { "max_num_batched_tokens is the token budget of one step", weight = 2,
            about = {"max_num_batched_tokens", "it", "the budget", "token budget"},
            said = {"token budget", "tokens per step", "one step", "each step", "per step",
                    "per iteration", "caps how many tokens", "one forward pass", "per forward pass"} },
    point { "decodes are scheduled first; prompts are chunked into the rest", weight = 2,
            about = {"long prompt", "prompt", "prefill", "chunks", "decodes", "running requests"},
            said = {"chunk", "split", "several steps", "first", "rest of the budget", "rides with"},
            accept = {"chunked prefill"} },
    point { "the budget trades decode gaps (ITL) against TTFT", weight = 2,
            about = {"large budget", "small budget", "budget", "bigger budget", "smaller budget",
                     "decoding requests", "gaps", "smaller one", "bigger one"},
            said = {"long gaps", "gaps short", "itl", "ttft", "slow", "stall", "trade", "stutters", "sooner",
                    "later first token", "first token", "smooth"} },
    point { "preemption frees blocks; the request is recomputed later", weight = 2,
            about = {"preemption", "preempted request", "vLLM", "its blocks", "it"},
            said = {"recompute", "freed", "frees", "new prefill", "preempts"} },
    point { "the prefix cache can give back its blocks",
            about = {"prefix cache", "cached blocks", "prefix caching"},
            said = {"holds", "hit", "give back", "still", "saves", "survive"} },
  },
  misconceptions = {
    misconception { about = {"the scheduler", "vLLM", "V1", "it"},
                    said = {"admits waiting prompts first", "waiting prompts first", "prompts first", "prefills first",
                            "new requests first", "decodes whatever budget is left", "decodes get what is left",
                            "decodes get what's left", "whatever budget is left"},
                    unless = {"V0", "older", "used to", "unlike", "SGLang"},
                                    why = "V1's Scheduler.schedule serves the running requests first (decodes and unfinished prefill chunks), then admits waiting prompts with the token budget left" },
    misconception { about = {"max_num_batched_tokens", "the budget", "it"},
                    said = {"number of sequences", "batch size in requests", "maximum prompt length",
                            "sets the memory of the KV cache"},
                    why = "max_num_batched_tokens caps the tokens one step processes; max_num_seqs caps the sequences, and the prompt may be longer than the budget: it is chunked" },
    -- Named subjects only: "it reserves KV cache blocks for the tokens it
    -- schedules" is allocate_slots, and the budget does size the profiled
    -- activation peak, which the KV cache is what is left after.
    misconception { about = {"max_num_batched_tokens", "the token budget"},
                    said = {"sets the KV cache size", "sets the size of the KV cache",
                            "reserves KV cache blocks for the whole batch"},
                    unless = {"indirectly", "activation peak", "profil", "dummy", "warm-up", "slightly",
                              "a little"},
                    why = "the KV cache is what gpu_memory_utilization leaves after the weights and the profiled activation peak; the budget caps the tokens a step processes (and so sizes that peak), and blocks are allocated only for the tokens that run" },
    misconception { about = {"preemption", "preempted request", "vLLM", "it"},
                    said = {"swaps to CPU", "swapped to CPU", "drops the request", "fails the request",
                            "copies the blocks"},
                    why = "vLLM V1 frees the preempted request's blocks and recomputes its cache later; it does not swap it out or drop it" },
    misconception { about = {"preemption", "vLLM", "it", "the scheduler", "victim"},
                    said = {"preempts the oldest", "evicts the oldest", "oldest is preempted", "oldest one is preempted",
                            "longest-running", "running longest", "arrived first", "preempts the earliest",
                            "preempts the first request"},
                    why = "under first-come-first-served vLLM preempts the last request of its running list, the most recently admitted, so the oldest keep going; under priority scheduling, the lowest priority, the later arrival among equals (Scheduler.schedule)" },
  },

  sections = {
    section {
      title = "One budget per step",
      text = "vLLM V1 has no prefill phase and decode phase: at each step the scheduler gives "
          .. "every request the tokens it still needs, within max_num_batched_tokens. It "
          .. "serves the running requests first (a decoding one needs one token), then admits "
          .. "waiting ones into what is left; a prompt longer than the rest is cut to it and "
          .. "continues next step. From 0.24 at the latest, a waiting request is admitted only if "
          .. "the blocks free now would hold its whole prompt (SchedulerConfig."
          .. "scheduler_reserve_full_isl, on by default; before, the first chunk's blocks were "
          .. "enough). That is a check, not a reservation: only the chunk that runs gets its "
          .. "blocks, so later admissions and growing decodes can still take the rest, and a "
          .. "long prompt can still be preempted halfway; the check only cuts over-admission. "
          .. "On an H100, `vllm serve` defaults to a budget of 8,192 tokens "
          .. "and 1,024 sequences; on smaller cards and A100s to 2,048 and 256 "
          .. "(EngineArgs.get_batch_defaults), under the default --performance-mode balanced; "
          .. "--performance-mode throughput (#34936, first in 0.17.0) doubles whichever "
          .. "of the two you did not set.",
    },
    section {
      title = "What a chunk does to the decodes",
      text = "Take Qwen2.5-7B on an H100 with " .. DECODES .. " sequences decoding at "
          .. grouped(CONTEXT) .. " tokens. Alone, their step reads " .. f(q.weights_bytes / 1e9, 2)
          .. " GB of weights and " .. f(DECODES * CONTEXT * q.kv_bytes_per_token / 1e9, 2)
          .. " GB of caches: " .. ms(decode_only, 2) .. " ms. A " .. grouped(PROMPT) .. "-token "
          .. "prompt arrives. With the 8,192 budget each step carries "
          .. grouped(8192 - DECODES) .. " prompt tokens, 2 FLOPs per parameter each: "
          .. ms(step_s(8192)) .. " ms at the paper's peak, so for " .. (s8k - 1) .. " steps "
          .. "every decoding user waits " .. ms(step_s(8192)) .. " ms for a token instead of "
          .. ms(decode_only, 2) .. ". The prompt's first token comes after " .. s8k .. " steps, "
          .. ms(t8k) .. " ms. These times are estimates, not bounds: they charge every "
          .. "parameter for every token, though the embedding is a lookup and the LM head runs "
          .. "only where a token is sampled (together " .. fixed(HEADS_SHARE * 100, 0)
          .. "% of this model's parameters, counted too many); and they leave out attention's "
          .. "own FLOPs, "
          .. "which at " .. grouped(PROMPT) .. " tokens add " .. ms(attn_prompt_s, 0)
          .. " ms over the whole prompt (" .. fixed(attn_share * 100, 0) .. "% on top of the "
          .. "matrix multiplies). They grow chunk by chunk, since each chunk attends over every "
          .. "earlier one: the fourth adds about " .. ms(attn_chunk4_s, 0) .. " ms to its step.",
    },
    section {
      title = "The trade",
      text = "At a 2,048 budget the chunks are " .. grouped(2048 - DECODES) .. " tokens: "
          .. s2k .. " steps of at most " .. ms(step_s(2048)) .. " ms, a TTFT of " .. ms(t2k)
          .. " ms. The decodes' gaps shrink fourfold and the TTFT barely moves, because the "
          .. "prefill is compute-bound either way. At 512 the chunks are " .. grouped(512 - DECODES)
          .. " tokens, too few to make a step compute-bound, so each step costs the weight "
          .. "and cache read: " .. s512 .. " steps, " .. ms(t512) .. " ms to the first token. "
          .. "Below the ridge point a smaller budget only adds steps. The ITL tail and the "
          .. "TTFT are the two ends of this one setting. vLLM has a second knob for the same "
          .. "trade: --long-prefill-token-threshold caps the tokens one request may take in a "
          .. "step (Scheduler.schedule applies it to running and waiting requests alike), so a "
          .. "long prompt moves in smaller chunks while short prompts and decodes still fill "
          .. "the budget. Disaggregated prefill, in Part 1, takes the prompts off the decoding "
          .. "GPUs altogether.",
    },
    section {
      title = "Preemption: free now, recompute later",
      text = "Each step may need new blocks for the tokens it schedules. When none are free, "
          .. "the scheduler preempts the last request admitted (the lowest priority under "
          .. "priority scheduling): Scheduler._preempt_request frees its blocks, sets its "
          .. "computed tokens to zero and puts it back at the head of the queue, and no new "
          .. "request is admitted that step. Recomputing a request that held "
          .. grouped(RESUME) .. " tokens is a prefill of all of them, " .. f(recompute_ms, 1)
          .. " ms of Qwen2.5-7B on an H100 at peak, and its user sees nothing meanwhile.",
    },
    section {
      title = "Prefix caching softens it",
      text = "A freed block keeps its hash until the pool hands it to someone else "
          .. "(BlockPool.get_new_blocks evicts it then). When the preempted request is "
          .. "resumed, get_computed_blocks looks its tokens up like any prompt's: full blocks "
          .. "not yet reused are hits, so at best " .. grouped(cached) .. " of its "
          .. grouped(RESUME) .. " tokens come back for free and " .. grouped(RESUME - cached)
          .. " are recomputed. Under memory pressure, though, the blocks were freed because "
          .. "another request needed them, so many will have been reused. A KV connector that "
          .. "keeps copies off the GPU changes that: with vLLM's own CPU offloading "
          .. "(--kv-offloading-size) or LMCache, blocks already stored there survive the "
          .. "preemption, and when the request is scheduled again the scheduler asks the "
          .. "connector for the tokens it holds beyond the GPU's hits "
          .. "(get_num_new_matched_tokens) and loads them: a copy from host memory instead of "
          .. "a prefill.",
    },
  },

  worked = code [[
decode step   (15.23 + 64 × 4,096 × 57,344 B = 15.03) GB ÷ 3,352 GB/s  = 9.03 ms
8,192 budget  2 × 7.6156e9 × 8,192 ÷ 989e12                          = 126.2 ms a step
              ⌈32,768 ÷ 8,128⌉ = 5 steps: 4 × 126.2 + 9.03           = 513.7 ms TTFT
2,048 budget  2 × 7.6156e9 × 2,048 ÷ 989e12                          = 31.5 ms a step
              ⌈32,768 ÷ 1,984⌉ = 17 steps: 16 × 31.5 + 16.8          = 521.4 ms TTFT
512 budget    7.9 ms of FLOPs < 9.03 ms of reads: ⌈32,768 ÷ 448⌉ = 74 steps × 9.03 = 668.1 ms
recompute     2 × 7.6156e9 × 6,010 ÷ 989e12                          = 92.6 ms
cache hit     ⌊6,009 ÷ 16⌋ × 16 = 6,000 tokens back, 10 recomputed]],

  followups = {
    followup {
      question = "You lower max_num_batched_tokens from 8,192 to 2,048. What happens to TTFT "
              .. "and to inter-token latency, and when would you go lower still?",
      answer = "Inter-token latency improves: a step that carries a prompt chunk is about a "
            .. "quarter as long, so decoding users see shorter stalls while long prompts are "
            .. "prefilled. TTFT for long prompts rises a little: the prefill is spread over "
                        .. "more steps (17 instead of 5 for the section's 32,768-token prompt), and the "
                        .. "running decodes ride along in every one of them, so 12 more steps' worth of their "
                        .. "tokens share the prompt's wait (513.7 to 521.4 ms in the section); while the "
                        .. "chunks keep the step compute-bound the prompt's own prefill time hardly changes. "
                        .. "Going below "
            .. "the ridge point, about 300 tokens a step on an H100 counting the weights and "
            .. "nearer 600 with the 64 decodes' KV reads (about 520 of them the chunk), makes "
            .. "steps memory-bound and "
            .. "only adds steps, so TTFT grows with little gain in ITL. A smaller budget also "
            .. "shrinks the activation peak vLLM profiles at start (a dummy step of that many "
            .. "tokens), which leaves a little more memory to the KV cache.",
      points = {
        point { "inter-token latency falls: shorter steps with a chunk", weight = 2,
                about = {"inter-token latency", "ITL", "stalls", "gaps", "decoding users", "step"},
                said = {"improves", "shorter", "falls", "quarter", "smaller", "drops"} },
        point { "TTFT of long prompts rises a little: more steps", weight = 2,
                about = {"TTFT", "time to first token", "long prompts", "prefill"},
                said = {"rises", "more steps", "spread", "grows", "longer", "a little"} },
        point { "below the ridge point steps turn memory-bound: no gain",
                about = {"below the ridge", "too small", "going lower", "lower still", "steps",
                         "a few hundred"},
                said = {"memory-bound", "ridge", "only adds steps", "no gain", "little gain"} },
      },
      misconceptions = {
        misconception { about = {"max_num_batched_tokens", "it", "budget"},
                        said = {"caps the number of sequences", "limits the batch of requests"},
                        why = "it caps the tokens one step processes; max_num_seqs caps the sequences (it also sizes the activation peak profiled at start, so a smaller budget leaves a little more KV cache)" },
        misconception { about = {"TTFT", "time to first token"},
                        said = {"falls", "improves", "gets shorter"},
                        unless = {"short request", "short requests", "waits less",
                                  "other requests' TTFT", "TTFT of other requests", "TTFT of the other requests",
                                  "gets shorter for the other requests"},
                        why = "the long prompt's own TTFT cannot improve: the same prefill is spread over more steps, each also paying the weight read (a short request that arrives mid-step waits less for the step in flight, but that is not what moves here)" },
      },
    },
    followup {
      question = "A request was preempted halfway through a 4,000-token reply. What does vLLM "
              .. "do to resume it, and when is that cheap?",
      answer = "It recomputes: the request's blocks were freed and its computed tokens set to "
            .. "zero, so when memory allows it is scheduled like a new prompt over its prompt "
            .. "and the output it has produced, a prefill of all those tokens. With prefix "
            .. "caching on, the lookup finds any of its full blocks that no other request has "
            .. "reused since, and only the rest is recomputed; it is cheap when few of its "
            .. "blocks were handed out in between. The prefill is compute-bound, so even a "
            .. "full recompute costs less time than generating the tokens did.",
      points = {
        point { "it is recomputed as a prefill of prompt and output so far", weight = 2,
                about = {"it", "vLLM", "the request", "its cache"},
                said = {"recompute", "new prompt", "prefill", "from scratch", "rebuilt"} },
        point { "its blocks were freed", 
                about = {"blocks", "its blocks", "memory", "cache"},
                said = {"freed", "released", "given up", "lost"} },
        point { "prefix-cache hits on blocks not reused make it cheap", weight = 2,
                about = {"prefix caching", "prefix cache", "cache hits", "lookup", "cheap"},
                said = {"not reused", "unreused", "still cached", "hit", "finds", "only the rest", "still in",
                        "still there", "survive", "not yet evicted"} },
      },
      misconceptions = {
        misconception { about = {"vLLM", "it", "the request", "the reply"},
                        said = {"throwing away the tokens already streamed", "throws away the generated tokens",
                                "throws away the tokens it generated", "discards the output", "generates the whole reply again",
                                "restarts generation", "only cheap with greedy sampling"},
                        unless = {"tokens' KV", "their KV", "its KV", "the KV but", "keeps the tokens", "blocks but", "cache but"},
                        why = "the tokens already generated are kept and recomputed as part of the prompt: generation continues from the next token, whatever the sampling" },
        misconception { about = {"vLLM", "it", "the request", "its blocks"},
                        said = {"swaps back from CPU", "swapped in", "copied back", "restarts the reply",
                                "regenerates the reply"},
                        why = "vLLM V1 recomputes the cache from the tokens it has, prompt and output alike; nothing is swapped, and the reply continues where it stopped" },
      },
    },
  },

  exercises = {
    numeric {
      id = "chunk-step-ms",
      prompt = "Qwen2.5-7B has 7.6156 billion parameters. One step processes 8,192 tokens at "
            .. "2 FLOPs per parameter per token, on an H100 at its 989 TFLOP/s BF16 peak. How "
            .. "many ms does the step take?",
      expected = step_s(8192) * 1000, unit = "ms", tolerance = rel(0.02),
      worked = code("FLOPs     2 × " .. f(PARAMS / 1e9, 4) .. "e9 × " .. grouped(8192) .. " tokens = "
        .. f(2 * PARAMS * 8192 / 1e12, 2) .. " TFLOP\n"
        .. "time      " .. f(2 * PARAMS * 8192 / 1e12, 2) .. " TFLOP ÷ " .. grouped(h100.tflops)
        .. " TFLOP/s = " .. f(2 * PARAMS * 8192 / FLOPS, 4) .. " s = " .. ms(step_s(8192)) .. " ms\n"
        .. "          an estimate: peak FLOP/s, every parameter counted (the\n"
        .. "          embedding and LM head too), attention's own FLOPs left out"),
      hints = { "FLOPs: 2 × parameters × tokens.", "2 × 7.6156e9 × 8,192 ÷ 989e12 s." },
    },
    numeric {
      id = "prefill-steps",
      prompt = "{decodes} sequences are decoding, one token each per step, and a {prompt}-token "
            .. "prompt arrives. max_num_batched_tokens is {budget}. How many steps does the "
            .. "prompt's prefill take?",
      params = { decodes = {16, 32, 64, 128}, prompt = range(8192, 65536, 8192),
                 budget = {2048, 4096, 8192} },
      expected = function(p)
        local left, n = p.budget - p.decodes, math.ceil(p.prompt / (p.budget - p.decodes))
        return n, "a step   " .. grouped(p.budget) .. " tokens − " .. p.decodes .. " decodes = "
          .. grouped(left) .. " for the prompt\n"
          .. "steps    ⌈" .. grouped(p.prompt) .. " ÷ " .. grouped(left) .. "⌉ = " .. n
      end,
      -- the decodes forgotten, the whole budget given to the prompt (seed 1: 49,152 ÷ 2,048
      -- = 24 where 26 is right); prompts are multiples of the budgets, so this is always
      -- at least one step short
      slips = function(p) return { decodes_left_out = math.ceil(p.prompt / p.budget) } end,
      unit = "steps", tolerance = abs(0.5),
      hints = { "The decodes take their tokens first; the prompt gets the rest of each step.",
                "⌈prompt ÷ (budget − decodes)⌉." },
    },
    numeric {
      id = "recompute-ms",
      prompt = "A preempted Qwen2.5-7B request (7.6156 billion parameters) held 6,010 tokens "
            .. "of prompt and output, and none of its blocks are left in the prefix cache. At "
            .. "an H100's 989 TFLOP/s peak, how many ms does its recompute take?",
      expected = recompute_ms, unit = "ms", tolerance = rel(0.02),
      worked = code("prefill   all " .. grouped(RESUME) .. " tokens again, 2 FLOPs per parameter each\n"
        .. "FLOPs     2 × " .. f(PARAMS / 1e9, 4) .. "e9 × " .. grouped(RESUME) .. " = "
        .. f(2 * PARAMS * RESUME / 1e12, 2) .. " TFLOP\n"
        .. "time      " .. f(2 * PARAMS * RESUME / 1e12, 2) .. " TFLOP ÷ " .. grouped(h100.tflops)
        .. " TFLOP/s = " .. f(recompute_ms, 2) .. " ms\n"
        .. "          an estimate: peak FLOP/s, every parameter counted (the\n"
        .. "          embedding and LM head too), attention's own FLOPs left out"),
      hints = { "Recompute is a prefill of every token it held.", "2 × 7.6156e9 × 6,010 ÷ 989e12 s." },
    },
    numeric {
      id = "resume-recomputed",
      prompt = "The same 6,010-token request resumes with 16-token blocks, and every one of its "
            .. "full blocks is still in the prefix cache. How many tokens does vLLM recompute?",
      expected = RESUME - cached, unit = "tokens", tolerance = abs(0.5),
      worked = code("lookup    at most " .. grouped(RESUME) .. " − 1 = " .. grouped(RESUME - 1)
        .. " tokens can hit\n"
        .. "          (the last token is always recomputed, for its logits)\n"
        .. "cached    ⌊" .. grouped(RESUME - 1) .. " ÷ " .. BS .. "⌋ = " .. (RESUME - 1) // BS
        .. " full blocks × " .. BS .. " = " .. grouped(cached) .. " tokens\n"
        .. "recompute " .. grouped(RESUME) .. " − " .. grouped(cached) .. " = "
        .. grouped(RESUME - cached) .. " tokens"),
      hints = { "Only full blocks are cached.", "6,010 − 16 × ⌊6,009 ÷ 16⌋." },
    },
    choice {
      id = "lower-budget",
      prompt = "Users complain of half-second freezes mid-reply whenever long documents are "
            .. "submitted; TTFT is well within its SLO. Which change addresses it?",
      options = {
        option { "Lower max_num_batched_tokens, so each step carries a smaller prompt chunk",
                 correct = true,
                 why = "a smaller chunk makes the steps the decodes share shorter, at a small cost in TTFT" },
        option { "Raise max_num_batched_tokens, so prompts finish in fewer steps",
                 why = "bigger chunks make every shared step longer: the freezes get worse" },
        option { "Raise max_num_seqs",
                 why = "more sequences per step does not shorten a step that carries a big chunk" },
        option { "Disable prefix caching",
                 why = "prefix caching saves prefill work; it does not cause the stalls" },
      },
    },
    freetext {
      id = "preemption-cost",
      prompt = "In two or three sentences: what does vLLM do when the KV cache runs out during "
            .. "decoding, and what does it cost?",
      answer = "Under the default FCFS policy it preempts the most recently admitted request "
            .. "(with --scheduling-policy priority, the lowest-priority one): its blocks are freed and it "
            .. "goes back to the head of the waiting queue. Later it is recomputed, a prefill "
            .. "over its prompt and the output so far, which costs GPU time and stalls that "
            .. "user; prefix-cache hits on blocks not yet reused cut the recompute.",
      points = {
        point { "it preempts a request and frees its blocks", weight = 2,
                accept = {"preempt", "frees its blocks", "freed", "evict", "releases all of its",
                          "releases its blocks", "releases its kv blocks"} },
        point { "the request is recomputed later", weight = 2,
                accept = {"recompute", "prefill again", "re-prefill", "redo a prefill", "redo the prefill",
                          "re-runs its prompt", "reruns its prompt", "runs its prompt again"} },
        point { "the cost is GPU time and a stall for that user",
                accept = {"gpu time", "stall", "latency", "wasted", "compute"} },
      },
      misconceptions = {
        misconception { about = {"it", "vLLM", "the scheduler", "the oldest request's KV cache", "its KV cache"},
                        said = {"offloads its KV cache to CPU", "offloads the oldest request's KV cache", "offloads it to CPU",
                                "swaps its KV cache to CPU", "swaps it to CPU", "swaps it to CPU RAM by default", "no tokens are recomputed"},
                        unless = {"connector", "OffloadingConnector", "LMCache", "kv-offloading", "kv_offloading", "if configured",
                                  "only with"},
                        why = "by default V1 preempts by recompute: Scheduler._preempt_request frees the blocks and sets num_computed_tokens to 0; nothing goes to the CPU unless a KV offload connector is configured" },
        misconception { about = {"it", "vLLM", "the scheduler"},
                        said = {"switches to a sliding window", "applies a sliding window", "falls back to a sliding window",
                                "with a sliding window", "uses a sliding window",
                                "shrinks the context", "truncates the context", "truncates every"},
                        unless = {"sliding-window layers", "sliding window layers", "SWA", "outside the window"},
                        why = "vLLM never cuts a running sequence's context: it preempts whole requests, newest first under FCFS" },
        misconception { about = {"preemption", "vLLM", "it", "the scheduler", "victim"},
                        said = {"preempts the oldest", "evicts the oldest", "oldest is preempted", "oldest one is preempted",
                                "longest-running", "running longest", "arrived first", "preempts the earliest",
                                "preempts the first request"},
                        why = "under first-come-first-served vLLM preempts the last request of its running list, the most recently admitted, so the oldest keep going (Scheduler.schedule)" },
      },
    },
  },
}
