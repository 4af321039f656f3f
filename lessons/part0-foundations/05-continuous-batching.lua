-- Part 0 · Foundations: continuous batching. Paging makes room; scheduling at
-- every step keeps the room full.

local MODEL = "qwen2.5-7b"
local BUDGET = 10                                    -- GiB of KV, as in the first lesson
local outputs = {100, 200, 300, 1000}                -- tokens each request of a static batch writes
local AVG = 1500                                     -- prompt + output tokens of an average request
local avg_fit = kv.calc{model = MODEL, seq = AVG, kv_budget_gib = BUDGET}
local full_fit = kv.calc{model = MODEL, seq = 8192, kv_budget_gib = BUDGET}
-- The same card with vLLM's reserve (0.9, the default before vLLM 0.25, as lesson 8 computes it,
-- activations left out).
local at_util = kv.calc{model = MODEL, gpu = "rtx4090", util = 0.9, seq = 8192}
local at_util_026 = kv.calc{model = MODEL, gpu = "rtx4090", util = 0.92, seq = 8192}  -- 0.26's default
local REPLY = 500                                    -- tokens per response
local rtx = kv.calc{model = MODEL, seq = 8192, context = 8192, batch = full_fit.max_concurrent_seqs,
                    bandwidth_gbps = kv.gpu("rtx4090").bandwidth_gbps}

-- A served run as `kvtutor sim` simulates it (vLLM V1's scheduler, the roofline step time,
-- docs/simulator.md): 200 random requests of 1,024 + 128 tokens sent at 4 a second to
-- Qwen2.5-7B on an A100 80GB with 5 GiB of KV cache.
local SERVED = {model = MODEL, gpu = "a100-80gb", kv_budget_gib = 5, input_len = 1024,
                output_len = 128, num_prompts = 200, request_rate = 4}
local served = kv.sim(SERVED)
local served_s = served.mean_e2el_ms / 1000                -- mean end-to-end latency, s
local in_flight = served.request_throughput * served_s     -- Little's law
-- where decode throughput tends as the batch grows at 8,192 tokens: bandwidth ÷ one cache read
local kv_bound = kv.gpu("rtx4090").bandwidth_gbps * 1e9 / (full_fit.kv_bytes_per_token * 8192)

local function static_use(lens)
  local sum, longest = 0, 0
  for _, t in ipairs(lens) do
    sum = sum + t
    if t > longest then longest = t end
  end
  return sum / (#lens * longest)
end

local function f(x, places) return fixed(x, places or 1) end

-- The exercises' worked lines start from the bytes of one token, from the model's shape.
local qwen = kv.model(MODEL)
local token_line = "token     2 (K, V) × " .. qwen.layers .. " layers × " .. qwen.kv_heads
  .. " KV heads × " .. qwen.head_dim .. " dims × 2 B = " .. grouped(avg_fit.kv_bytes_per_token) .. " B\n"

-- The static batch's busy slot-steps and length, for the static-use worked lines.
local function busy_and_longest(lens)
  local sum, longest, terms = 0, 0, {}
  for _, t in ipairs(lens) do
    sum = sum + t
    if t > longest then longest = t end
    terms[#terms + 1] = grouped(t)
  end
  return sum, longest, table.concat(terms, " + ")
end

return lesson {
  id = "continuous-batching",
  title = "Continuous batching keeps the budget full",
  module = "part0-foundations",
  baseline = "Yu et al., \"Orca: A Distributed Serving System for Transformer-Based Generative "
          .. "Models\" (OSDI 2022), iteration-level scheduling; vLLM V1's scheduler "
          .. "(vllm/v1/core/sched/scheduler.py: max_num_seqs, max_num_batched_tokens, "
          .. "preemption by recomputation); Little's law; vllm/benchmarks/serve.py "
          .. "(calculate_metrics: request throughput = completed ÷ duration; E2EL measured by "
          .. "the client from send to last token); the simulated run is kvtutor sim's "
          .. "(docs/simulator.md) with vllm serve's batch defaults for the GPU in 0.26 "
          .. "(EngineArgs.get_batch_defaults; async scheduling, on in 0.26 where compatible, overlaps a step's CPU work with the next step's GPU work; the simulator "
          .. "does not model that overlap)",
  concept = "continuous-batching",
  concept_title = "Continuous batching",
  requires = {"memory-bound-decode", "paged-attention"},
  links = {"paged-attention", "prefill-decode", "sizing-deployment"},

  question = "What is continuous batching, why does it beat static batching for LLM serving, "
          .. "and what stops you adding more requests to the batch?",

  answer = "A static batch starts together and ends together: requests that finish early "
        .. "leave their slots idle until the longest one is done, and new requests wait for the "
        .. "whole batch. Continuous (iteration-level) batching decides the batch again at every "
        .. "decode step: finished sequences leave at once and waiting ones join, so the KV "
        .. "budget and the step stay full. What limits it is memory first, the blocks the "
        .. "running sequences need, then the caps you set (max_num_seqs, and "
        .. "max_num_batched_tokens per step), and the bandwidth: each added sequence brings its "
        .. "own cache read, so at long context decode stays memory-bound and the gain shrinks; "
        .. "steps turn compute-bound only at short contexts or when prefill chunks share them. "
        .. "And the latency target: each added sequence makes every step longer, so past some "
        .. "batch TPOT misses its SLO even with blocks free, and operators cap the batch "
        .. "there.",

  points = {
    point { "the batch is rescheduled at every step", weight = 2,
            about = {"continuous batching", "batch", "scheduler", "it", "iteration-level batching"},
            said = {"every step", "each step", "every decode step", "every iteration", "per step",
                    "each iteration", "decided again", "rescheduled", "per iteration"},
            accept = {"iteration-level", "iteration level", "per-step scheduling", "schedules per step",
                      "schedules per iteration", "scheduled per step", "scheduled every step"} },
    point { "static batches idle slots until the longest request ends", weight = 2,
            about = {"static batch", "static batching", "finished requests", "requests that finish early",
                     "slots"},
            said = {"idle", "longest", "wait for", "finish together", "ends together", "padding", "never idle"},
            accept = {"no idle slots", "slots never idle", "never sit idle"} },
    point { "the KV budget limits how many run", weight = 2,
            about = {"what limits it", "limit", "limits", "what stops", "stops you", "batch size", "how many",
                     "bounded", "bounded by", "limited by", "ceiling"},
            said = {"kv budget", "kv cache", "memory", "free blocks", "blocks", "caches fit"} },
    point { "scheduler caps: max_num_seqs, tokens per step",
            accept = {"max_num_seqs", "max_num_batched_tokens", "cap", "limit per step"} },
  },
  misconceptions = {
    misconception { about = {"continuous batching", "it"},
                    said = {"reduces memory per request", "fewer bytes", "shrinks the cache", "compresses"},
                    why = "continuous batching does not change what a sequence costs; it keeps the KV budget and the step full" },
    misconception { about = {"vLLM", "each admitted request", "each request", "every request", "a request",
                             "max_model_len"},
                    said = {"reserves max_model_len", "reserves the full context", "reserves its maximum length",
                            "reserves memory up front", "reserves each request's", "preallocates each request",
                            "preallocates per request", "preallocates the whole context"},
                    unless = {"whole pool", "the pool once", "pool at start-up", "pool at startup", "allocates the pool",
                              "gpu_memory_utilization", "start-up check", "startup check", "checks that the prompt fits",
                              "whole prompt fits", "prompt must fit", "prompt fits", "for the KV cache", "for the cache"},
                    why = "vLLM V1 allocates blocks as tokens are scheduled (KVCacheManager.allocate_slots); 0.26 checks at admission that the prompt fits, and nothing reserves max_model_len" },
    misconception { about = {"every added sequence", "each added sequence", "each extra sequence", "each new sequence",
                             "every new sequence", "every extra sequence"},
                    said = {"makes the step compute-bound", "compute-bound"},
                    unless = {"short context", "short contexts", "prefill chunks", "with prefill", "past the ridge",
                              "ridge point", "short sequences", "short requests", "large batch", "large batches",
                              "big batch", "hundreds of sequences", "batch of"},
                    why = "at long context each added sequence brings its own cache read, so the step stays memory-bound; it turns compute-bound only at short contexts or with prefill in it" },
    misconception { about = {"what limits it", "what stops", "limit"},
                    said = {"compute first", "only compute", "FLOPs first", "compute alone", "is compute"},
                    unless = {"short context", "short contexts", "prefill chunks", "with prefill", "past the ridge",
                              "ridge point", "short sequences", "short requests", "large batch", "large batches",
                              "big batch", "hundreds of sequences", "batch of"},
                    why = "memory runs out first: the blocks the running sequences need; decode at long context stays memory-bound, and compute limits a step only at short contexts or with prefill chunks in it" },
  },

  sections = {
    section {
      title = "Static batching idles",
      text = "Put four requests that will write 100, 200, 300 and 1,000 tokens into one static "
          .. "batch. It runs 1,000 steps; the first request's slot is busy for 100 of them. Of "
          .. "4 × 1,000 slot-steps, 1,600 do work: " .. f(static_use(outputs) * 100, 0) .. "%. "
          .. "The idle slots also hold their KV memory, and a request arriving at step 2 waits "
          .. "998 steps for a seat.",
    },
    section {
      title = "Schedule every step",
      text = "Orca's idea: the unit of scheduling is one iteration, not one request. At each "
          .. "step vLLM's scheduler keeps the running sequences, drops those that finished, "
          .. "and admits waiting ones while blocks, the step's token budget and max_num_seqs "
          .. "allow. In vLLM 0.26 a waiting request is admitted only when its whole sequence so "
          .. "far fits in free blocks, not just its first chunk: its prompt, and for a preempted "
          .. "request resumed, the tokens it had generated too, net of prefix-cache hits "
          .. "(SchedulerConfig.scheduler_reserve_full_isl, on by default; "
          .. "KVCacheManager.allocate_slots), and none is admitted in a step that had to "
          .. "preempt. A new "
          .. "request's prefill joins the same step as everyone else's decode (chunked if "
          .. "long), so no slot waits for a batch to drain. Sequences of different lengths share "
          .. "a step without padding: the scheduled tokens of every request are laid end to end "
          .. "in one flat batch for the matrix multiplies, and attention takes each request's "
          .. "own span and context from offsets in one variable-length kernel (Orca's selective "
          .. "batching made the same split, but ran attention request by request). A step small "
          .. "enough for a CUDA graph (up to 512 tokens by default) is padded up to the nearest "
          .. "captured size; a larger one runs unpadded, without a graph.",
    },
    section {
      title = "Memory decides the batch",
      text = "How many sequences run at once is how many caches fit. With the first lesson's "
          .. BUDGET .. " GiB and requests that grow to " .. grouped(AVG) .. " tokens of prompt and "
          .. "output, paging fits " .. avg_fit.max_concurrent_seqs .. " of them at full length "
          .. "(more mid-flight, since each is shorter until it finishes), not the "
          .. full_fit.max_concurrent_seqs .. " that 8k-token requests would leave room for. Continuous batching is what turns that room into "
          .. "throughput: without it, the room empties as requests finish.",
    },
    section {
      title = "When memory runs out mid-flight",
      text = "Sequences grow by a token per step, so blocks can run out while everything is "
          .. "running. vLLM then preempts the most recently admitted sequence (under the default "
          .. "first-come-first-served policy; with --scheduling-policy priority, the lowest "
          .. "priority): it frees its blocks and later recomputes its cache from the tokens it "
          .. "has, all of it at worst, since blocks the prefix cache still holds are found again "
          .. "on re-admission. The work is redone, "
          .. "not lost, but heavy preemption is a sign the batch is larger than memory can "
          .. "carry.",
    },
    section {
      title = "Throughput, concurrency and latency",
      text = "Little's law ties them: requests finished per second = requests in flight ÷ "
          .. "seconds each one takes. On an RTX 4090 with the first lesson's " .. BUDGET
          .. " GiB of cache (24 GiB less the weights, nothing held back), "
          .. full_fit.max_concurrent_seqs .. " sequences of 8,192 tokens fit; at "
          .. "vLLM 0.26's default gpu_memory_utilization of 0.92 the budget is smaller and "
          .. "at most " .. at_util_026.max_concurrent_seqs .. " fit (" .. at_util.max_concurrent_seqs
          .. " at 0.9, the default before 0.25; upper bounds, on a round 24 GiB with the "
          .. "activation peak left out, where the driver reports about 23.6 GiB and a real "
          .. "engine fits a few fewer; under 0.26's Model Runner V2, the dense default, the CUDA "
          .. "graphs are not subtracted but come out of the headroom), as the lesson on "
          .. "weights shows. With " .. full_fit.max_concurrent_seqs .. ", a decode step reads "
          .. "the weights once and " .. full_fit.max_concurrent_seqs .. " caches, for "
          .. f(rtx.decode_tokens_per_s, 0) .. " tokens/s in total, "
          .. f(rtx.decode_tokens_per_s_per_seq) .. " per sequence: " .. REPLY .. "-token "
          .. "replies finish at " .. f(rtx.decode_tokens_per_s / REPLY, 2) .. " requests/s. "
          .. "More concurrency raises the total with diminishing returns, toward the bandwidth "
          .. "divided by the cache one sequence reads (" .. grouped(kv_bound) .. " tokens/s "
          .. "here), and lowers each sequence's speed: at long context decode stays "
          .. "memory-bound, and it is short contexts, or prefill chunks sharing a step, that make "
          .. "steps compute-bound. The law also reads the other way: `kvtutor sim` (vLLM 0.26's "
          .. "defaults) sending Qwen2.5-7B on an A100 80GB 200 requests of 1,024 + 128 tokens at "
          .. "4 a second reports " .. f(served.request_throughput, 2) .. " requests/s completed "
          .. "over the run and " .. f(served_s, 2) .. " s each from send to last token, so on "
          .. "average about " .. f(in_flight, 1) .. " are in flight over the run. Its "
          .. "time-weighted running batch is " .. f(served.mean_running, 1) .. " of them; the "
          .. "rest wait in vLLM's queue or between steps (a real server adds HTTP, tokenisation "
          .. "and streaming). Use the completed rate over the run, not the offered 4 a second: "
          .. "for a run that starts and ends empty, completed ÷ duration × mean latency is "
          .. "exactly the average number in flight, ramp-up and drain included; in steady state "
          .. "it would be about 4 × " .. f(served_s, 2) .. " = " .. f(4 * served_s, 1) .. ".",
    },
  },

  worked = code [[
static       busy slot-steps 100 + 200 + 300 + 1,000   = 1,600
             of 4 slots × 1,000 steps                  = 4,000 → 40% used
fit          ⌈1,500 ÷ 16⌉                              = 94 blocks per request
             11,702 blocks ÷ 94                        = 124.5 → 124 in flight
RTX 4090     22 × 1,008 GB/s ÷ (15.23 + 22 × 0.47) GB  = 867 tokens/s
             867 ÷ 500 tokens per reply                = 1.73 requests/s]],

  followups = {
    followup {
      question = "The KV cache fills up while 200 sequences are decoding. What does vLLM do, "
              .. "and what does it cost?",
      answer = "It preempts: under the default first-come-first-served policy the most recently "
            .. "admitted sequences (the last of the running list) give up their blocks and go "
            .. "back to the waiting queue (under the priority policy, the lowest priority), and when memory frees they are recomputed from their "
            .. "tokens (a new prefill) rather than copied back. Nothing is lost, but the "
            .. "recomputation spends GPU time and those requests see their latency jump.",
      points = {
        point { "running sequences are preempted and lose their blocks", weight = 2,
                about = {"vLLM", "it", "sequences", "newest sequences", "recent sequences", "some sequences",
                         "V1", "the scheduler", "requests"},
                short = {"preempts", "preempts them", "it preempts", "preempts some", "preemption"},
                said = {"preempt", "evict", "give up their blocks", "free their blocks", "paused",
                        "waiting queue"},
                accept = {"preemption"} },
        point { "they are recomputed later", weight = 2,
                about = {"they", "them", "preempted sequences", "those requests", "their cache", "it", "their KV",
                         "requests", "newest requests", "preempted requests", "sequences"},
                said = {"recompute", "re-prefill", "prefill again", "rebuilt", "new prefill"},
                accept = {"recomputation"} },
        point { "the cost is wasted compute and latency",
                about = {"cost", "those requests", "latency", "it", "recomputation"},
                said = {"latency", "wasted", "gpu time", "slower", "jump", "time", "redo", "wasted work"} },
      },
      misconceptions = {
        misconception { about = {"preemption", "vLLM", "it", "the scheduler", "victim"},
                        said = {"preempts the longest", "evicts the longest", "preempts the largest", "preempts the biggest",
                                "holding the most blocks", "using the most memory", "preempts a random", "evicts a random",
                                "random running request", "preempts whichever is longest", "preempts the longest sequence",
                                "preempts the longest sequences", "preempts the longest request", "preempts the longest requests",
                                "preempts the largest request", "preempts the biggest request", "evicts the longest sequence",
                                "evicts the longest request"},
                        why = "the victim is chosen by order, not by size: under first-come-first-served vLLM preempts the last request of its running list, the most recently admitted; under priority scheduling, the lowest priority (Scheduler.schedule)" },
        misconception { about = {"vLLM", "it", "the server"},
                        said = {"crashes", "OOM", "out of memory", "drops the request", "fails the request",
                                "rejects"},
                        why = "vLLM preempts: the newest sequences (first-come-first-served; the lowest priority under the priority policy) free their blocks and are recomputed later; nothing is dropped" },
        misconception { about = {"preemption", "vLLM", "it", "the scheduler", "victim"},
                        said = {"preempts the oldest", "evicts the oldest", "oldest is preempted", "oldest one is preempted",
                                "preempts the earliest", "preempts the first request", "preempts the longest-running",
                                "evicts the longest-running", "first to arrive is preempted", "preempts the one that arrived first",
                                "preempts whichever arrived first", "preempts the oldest request", "preempts the oldest sequence",
                                "evicts the oldest request", "evicts the oldest sequence", "preempts the earliest request",
                                "oldest request is preempted", "oldest sequence is preempted"},
                        unless = {"keeps the oldest", "keeps the requests that arrived first", "spares", "oldest keep", "keep going", "keep running", "survive", "protected"},
                        why = "under first-come-first-served vLLM preempts the last request of its running list, the most recently admitted, so the oldest keep going; under priority scheduling, the lowest priority (Scheduler.schedule)" },
        misconception { about = {"their KV", "their cache", "the KV", "KV", "it", "they", "blocks", "their blocks"},
                        said = {"swapped to CPU", "swapped out", "swaps", "copied to CPU", "CPU memory", "copied back",
                                "over PCIe", "PCIe time", "to host memory", "offloaded"},
                        unless = {"kv_offloading", "OffloadingConnector", "offloading connector", "LMCache", "connector",
                                  "V0", "vLLM V0", "used to", "older vLLM"},
                        why = "vLLM V1 recomputes a preempted request: its blocks are freed and its computed tokens reset, and a new prefill rebuilds the cache (Scheduler._preempt_request); nothing is swapped to the CPU" },
      },
    },
    followup {
      question = "You double max_num_seqs and throughput barely moves. Give two reasons.",
      answer = "The batch may already be held back by memory: the KV budget fits fewer "
            .. "sequences than the cap, so the new cap is never reached. Or by demand: too few "
            .. "requests arrive to fill even the old cap (the lesson's served run never went past "
            .. served.max_running .. " of its " .. served.max_num_seqs .. " slots). Or the extra sequences "
            .. "each bring a full cache read, so at long context the step time grows almost as "
            .. "fast as the batch; and at short contexts, past the ridge point, decode turns "
            .. "compute-bound and more sequences only add latency.",
      points = {
        point { "the KV budget, not the cap, limits the batch", weight = 2,
                about = {"KV budget", "memory", "batch", "cap", "cache", "blocks"},
                said = {"never reached", "fits fewer", "held back", "is full", "not the cap", "limits",
                        "wasn't the bottleneck", "was not the bottleneck", "isn't the bottleneck",
                        "can't hold more", "cannot hold more", "caps it first", "caps it", "the real cap",
                        "the real limit", "the real bottleneck", "is the cap", "binds first", "only fits"},
                accept = {"cap isn't binding", "cap is not binding", "cap wasn't binding", "cap was not binding",
                          "max_num_seqs isn't binding", "max_num_seqs is not binding"} },
        point { "too few requests arrive to fill the cap",
                about = {"arrival rate", "arrivals", "demand", "too few requests", "the load",
                         "traffic", "the rate"},
                said = {"too low", "too few", "not enough", "never reaches", "can't fill", "cannot fill",
                        "doesn't fill", "does not fill", "never fills", "is the limit", "limits the batch",
                        "arrive to fill", "arrive too slowly", "may not bring enough"},
                accept = {"low arrival rate", "arrival rate is too low", "arrival rate too low", "too few arrivals",
                          "demand-limited", "not enough traffic", "not enough requests",
                          "too little load", "too little traffic", "too little demand", "low load", "light load"} },
        point { "each extra sequence adds its own cache read",
                about = {"extra sequences", "each sequence", "each extra sequence", "more sequences",
                         "step time", "longer steps", "steps"},
                said = {"cache read", "kv read", "own cache", "long context", "bytes per step", "grows",
                        "eat the gain", "get longer", "longer steps", "slower steps"} },
        point { "at short contexts, past the ridge point, it is compute-bound",
                about = {"decode", "it", "past the ridge", "batch", "the GPU"},
                said = {"compute-bound", "ridge", "FLOPs", "add latency", "only add latency",
                        "past the point where it is memory-bound", "no longer memory-bound",
                        "make each step longer"} },
      },
      misconceptions = {
        misconception { about = {"max_num_seqs", "cap", "it"},
                        said = {"allocates memory", "reserves memory", "doubles the memory", "more memory"},
                        why = "max_num_seqs is only a cap on the batch; the KV budget is sized by gpu_memory_utilization" },
      },
    },
  },

  exercises = {
    numeric {
      id = "static-use",
      prompt = "A static batch holds four requests that write 100, 200, 300 and 1,000 tokens. "
            .. "What percentage of its slot-steps do useful work?",
      expected = static_use(outputs) * 100, unit = "%", tolerance = abs(0.5),
      worked = (function()
        local sum, longest, terms = busy_and_longest(outputs)
        return code("busy      " .. terms .. " = " .. grouped(sum) .. " slot-steps\n"
          .. "of        " .. #outputs .. " slots × " .. grouped(longest) .. " steps (the longest) = "
          .. grouped(#outputs * longest) .. " slot-steps\n"
          .. "used      " .. grouped(sum) .. " ÷ " .. grouped(#outputs * longest) .. " = "
          .. f(static_use(outputs) * 100) .. "%")
      end)(),
      hints = { "The batch runs as long as its longest request.",
                "(100 + 200 + 300 + 1,000) ÷ (4 × 1,000)." },
    },
    numeric {
      id = "static-use-random",
      prompt = "A static batch holds requests that write {a}, {b} and {c} tokens. What "
            .. "percentage of its slot-steps do useful work?",
      params = { a = range(50, 400, 50), b = range(100, 800, 100), c = range(500, 2000, 250) },
      expected = function(p)
        local longest = math.max(p.a, p.b, p.c)
        local pct = static_use({p.a, p.b, p.c}) * 100
        return pct, "busy     " .. grouped(p.a) .. " + " .. grouped(p.b) .. " + " .. grouped(p.c)
          .. " = " .. grouped(p.a + p.b + p.c) .. " slot-steps\n"
          .. "of       3 slots × " .. grouped(longest) .. " steps = " .. grouped(3 * longest) .. "\n"
          .. "used     " .. grouped(p.a + p.b + p.c) .. " ÷ " .. grouped(3 * longest) .. " = "
          .. fixed(pct, 1) .. "%"
      end,
      unit = "%", tolerance = abs(0.5),
      hints = { "Busy slot-steps are the sum of the lengths.",
                "The batch lasts as long as the longest: 3 slots × that many steps." },
    },
    numeric {
      id = "in-flight",
      prompt = "Qwen2.5-7B has 10 GiB of BF16 KV cache in 16-token blocks. Requests grow to "
            .. "1,500 tokens of prompt plus output. How many fit at once if every one is at its "
            .. "full length?",
      expected = avg_fit.max_concurrent_seqs, unit = "sequences", tolerance = abs(0.5),
      model = MODEL, diagnose = "capacity",
      worked = (function()
        -- vLLM V1's BlockPool takes one block off the free queue as its null block.
        local usable = avg_fit.num_gpu_blocks - 1
        local usable_fit = usable // avg_fit.blocks_per_request
        return code(token_line .. "block     16 tokens × " .. grouped(avg_fit.kv_bytes_per_token) .. " B = "
        .. grouped(avg_fit.block_bytes) .. " B (" .. avg_fit.block_bytes // 1024 .. " KiB)\n"
        .. "budget    ⌊" .. BUDGET .. " GiB ÷ " .. grouped(avg_fit.block_bytes) .. " B⌋ = "
        .. grouped(avg_fit.num_gpu_blocks) .. " blocks\n"
        .. "request   ⌈" .. grouped(AVG) .. " ÷ 16⌉ = " .. avg_fit.blocks_per_request .. " blocks (each at its full "
        .. grouped(AVG) .. " tokens)\n"
        .. "fit       ⌊" .. grouped(avg_fit.num_gpu_blocks) .. " ÷ " .. avg_fit.blocks_per_request
        .. "⌋ = ⌊" .. f(avg_fit.num_gpu_blocks / avg_fit.blocks_per_request, 2) .. "⌋ = "
        .. avg_fit.max_concurrent_seqs .. " sequences\n"
        .. "          vLLM keeps 1 block as its null block: ⌊" .. grouped(usable) .. " ÷ "
        .. avg_fit.blocks_per_request .. "⌋ = " .. usable_fit
        .. (usable_fit == avg_fit.max_concurrent_seqs and " too" or ""))
      end)(),
      hints = { "Blocks per request: ⌈1,500 ÷ 16⌉.", "10 GiB ÷ 896 KiB per block = 11,702 blocks." },
    },
    numeric {
      id = "requests-per-s",
      prompt = "An RTX 4090 (1,008 GB/s) decodes 22 Qwen2.5-7B sequences (15.23 GB of BF16 "
            .. "weights; 28 layers, 4 KV heads of 128 dims) of 8,192 tokens at a "
            .. "time, memory-bound. Each reply is 500 tokens. In steady state, how many requests "
            .. "finish per second (ignore prefill)?",
      expected = rtx.decode_tokens_per_s / REPLY, unit = "requests/s", tolerance = rel(0.03),
      -- the tokens/s, 867.4, not divided by the 500 tokens of a reply
      slips = { tokens_per_s = rtx.decode_tokens_per_s },
      worked = (function()
        local cache = rtx.kv_bytes_per_token * rtx.context          -- B one sequence reads a step
        local caches = rtx.batch * cache / 1e9
        local read = rtx.weights_bytes / 1e9 + caches
        return code(token_line .. "cache     " .. grouped(rtx.kv_bytes_per_token) .. " B × " .. grouped(rtx.context)
          .. " tokens = " .. f(cache / 1e6, 2) .. " MB a sequence, read each step\n"
          .. "caches    " .. rtx.batch .. " × " .. f(cache / 1e6, 2) .. " MB = " .. f(caches, 3) .. " GB\n"
          .. "weights   " .. f(rtx.weights_bytes / 1e9, 3) .. " GB (the prompt's "
          .. f(rtx.weights_bytes / 1e9, 2) .. ", unrounded), read once a step\n"
          .. "step      " .. f(rtx.weights_bytes / 1e9, 3) .. " + " .. f(caches, 3) .. " GB = "
          .. f(read, 3) .. " GB\n"
          .. "tokens/s  " .. rtx.batch .. " × " .. grouped(rtx.bandwidth_gbps) .. " GB/s ÷ "
          .. f(read, 3) .. " GB = " .. upto(rtx.decode_tokens_per_s, 2) .. " tokens/s\n"
          .. "requests  " .. f(rtx.decode_tokens_per_s, 2) .. " ÷ " .. REPLY .. " tokens a reply = "
          .. f(rtx.decode_tokens_per_s / REPLY, 3) .. " requests/s")
      end)(),
      hints = { "Tokens/s in total: 22 × 1,008 GB/s ÷ (15.23 + 22 × 0.47) GB.",
                "Each request needs 500 of those tokens." },
    },
    numeric {
      id = "littles-law",
      prompt = "A simulated vllm bench serve run (kvtutor sim, vllm serve's 0.26 defaults for the GPU, 5 GiB of KV "
            .. "cache) sends Qwen2.5-7B on an A100 80GB 200 requests (1,024 prompt + 128 output "
            .. "tokens) at 4 a second. It reports " .. f(served.request_throughput, 2)
            .. " requests/s completed over the run and a mean end-to-end latency of "
            .. f(served_s, 2) .. " s. On average over the run, how many requests are in flight "
            .. "(sent, not yet fully answered)?",
      -- one value drawn, so the exercise carries its own worked arithmetic
      params = { offered = {4} },
      expected = function(p)
        local rounded = tonumber(string.format("%.2f", served.request_throughput)) * tonumber(string.format("%.2f", served_s))
        return in_flight, "rate      " .. f(served.request_throughput, 2) .. " requests/s completed "
          .. "over the run\n          (not the offered " .. p.offered .. "/s: the run starts and "
          .. "ends empty)\n"
          .. "time      " .. f(served_s, 2) .. " s from send to last token, on average\n"
          .. "in flight " .. f(served.request_throughput, 2) .. " × " .. f(served_s, 2) .. " = "
          .. f(rounded, 3) .. " (the figures as the prompt rounds them)\n"
          .. "          " .. f(served.request_throughput, 3) .. " × " .. f(served_s, 3) .. " = "
          .. f(in_flight, 2) .. " unrounded: on average over the run"
      end,
      unit = "requests", tolerance = rel(0.02),
      hints = { "Little's law: requests in the system = the rate they pass through × the time "
                  .. "each one spends there; over the run, the rate is the completed one.",
                f(served.request_throughput, 2) .. " requests/s × " .. f(served_s, 2) .. " s; "
                  .. "the simulator's own count of the running batch is "
                  .. f(served.mean_running, 1) .. "." },
    },
    choice {
      id = "what-limits",
      prompt = "A continuously batched server has requests waiting, yet the running batch does "
            .. "not grow. The KV cache is 99% used. What limits it?",
      options = {
        option { "Memory: no free blocks for another sequence's cache", correct = true,
                 why = "admission needs blocks; the scheduler waits or preempts" },
        option { "The GPU's FLOP/s",
                 why = "compute limits the speed of a step, not whether a sequence can join" },
        option { "The static batch has not finished yet",
                 why = "continuous batching admits at every step; there is no batch to wait for" },
        option { "The weights must be reloaded for a new request",
                 why = "the weights stay resident and are shared by every request" },
      },
    },
    freetext {
      id = "why-continuous",
      prompt = "In two or three sentences: why does continuous batching raise throughput over "
            .. "static batching on the same GPU?",
      answer = "It reschedules at every step, so a finished request's slot and KV blocks go to "
            .. "a waiting request immediately instead of idling until the longest request in "
            .. "the batch ends. The batch stays as large as memory allows, and every decode "
            .. "step shares its weight read among as many sequences as fit.",
      points = {
        point { "finished slots are refilled immediately", weight = 2,
                accept = {"immediately", "at once", "refill", "every step", "each step", "join"} },
        point { "no waiting for the longest request", weight = 2,
                accept = {"longest", "idle", "drain", "wait for the batch", "no idle", "never idle"} },
        point { "the weight read is shared by a fuller batch",
                accept = {"weight read", "weights are read", "shared", "fuller", "larger batch",
                          "memory allows"} },
      },
    },
  },
}
