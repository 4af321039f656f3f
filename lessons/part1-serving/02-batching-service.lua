-- Part 1 · Serving systems and engines: a batching service under load. Where the knee
-- of latency against load comes from, what a static batcher trades, and what a server
-- should do with the requests it cannot serve in time.

local MODEL = "llama-3.1-8b"
local m = kv.model(MODEL)
local h100 = kv.gpu("h100")
local IN, OUT = 2048, 256                            -- prompt and output tokens of every request
local SLO_MS = 1000                                  -- the p99 TTFT objective of the knee exercise

-- The workload of the knee, as the playground's serving view runs it: 500 requests (the
-- view's count for outputs up to 524 tokens), seed 0, vLLM 0.26's defaults on one H100.
local KNEE = {model = MODEL, gpu = "h100", input_len = IN, output_len = OUT,
              num_prompts = 500, seed = 0}

local function at(rate)
  local s = {}
  for k, v in pairs(KNEE) do s[k] = v end
  s.request_rate = rate
  return kv.sim(s)
end

-- The capacity, as the view reports it: the same requests all sent at once.
local cap = at(math.huge)
-- Rungs of the view's ladder (1, 1.25, 1.5, 2, 2.5, 3, 4, 5, 6, 8 a decade) around the knee.
local RUNGS = {4, 6, 8, 10, 12.5, 15}
local ladder = {}
for i, r in ipairs(RUNGS) do ladder[i] = {rate = r, run = at(r)} end

-- The first rung whose p99 TTFT passes the objective, and the one below it.
local lo, hi
for i, p in ipairs(ladder) do
  if p.run.p99_ttft_ms > SLO_MS then lo, hi = ladder[i - 1], p break end
end
local rung_lo, rung_hi = lo, hi
-- The serving view opens the exercise's setup at the first rung past the objective.
KNEE.request_rate = rung_hi.rate
-- Three halvings between the two rungs, then a straight line across the last bracket.
local halvings = {}
for i = 1, 3 do
  -- the midpoint to two decimals, the rate a learner would pass to --request-rate: the
  -- simulated p99 is sensitive to the rate's last digits (Poisson gaps are scaled to it)
  local mid = math.floor((lo.rate + hi.rate) / 2 * 100 + 0.5) / 100
  local p = {rate = mid, run = at(mid)}
  halvings[i] = p
  if p.run.p99_ttft_ms > SLO_MS then hi = p else lo = p end
end
local knee_rate = lo.rate + (hi.rate - lo.rate) * (SLO_MS - lo.run.p99_ttft_ms)
                  / (hi.run.p99_ttft_ms - lo.run.p99_ttft_ms)
local r10, r125, r15 = ladder[4].run, ladder[5].run, ladder[6].run

-- A static batcher on the same GPU, estimated with the simulator's own constants
-- (docs/simulator.md: 65% of peak bandwidth in decode, 55% of peak FLOP/s in prefill,
-- 0.7 ms of engine time a step). An estimate, not a run.
local BW = h100.bandwidth_gbps * 0.65
local FLOPS = h100.tflops * 1e12 * 0.55
local STEP_OVERHEAD_S = 0.0007
local function decode_step_s(b)
  local r = kv.calc{model = MODEL, gpu = "h100", seq = IN + OUT, context = IN + OUT // 2,
                    batch = b, bandwidth_gbps = BW}
  return b / r.decode_tokens_per_s + STEP_OVERHEAD_S
end
local function prefill_s(b) return 2 * m.params * 1e9 * b * IN / FLOPS end
local function batch_s(b) return prefill_s(b) + OUT * decode_step_s(b) end
local SB = 32                                        -- the static batcher's max batch
local static_rate = SB / batch_s(SB)

-- A static batcher's fill: evenly spaced arrivals at `rate`, a batch closes at `batch`
-- requests or when its first request has waited `wait_s`, whichever comes first.
local function fill(rate, batch, wait_s)
  local full = (batch - 1) / rate
  if full <= wait_s then return batch, full end
  return 1 + math.floor(wait_s * rate + 1e-9), wait_s
end
local FR, FW = 8, 0.5                                -- the section's example: 8 requests/s, 0.5 s
local fb, fwait = fill(FR, SB, FW)

-- The batches that follow at FR/s: each leaves when the GPU frees (its head has waited past
-- max_wait by then) with the requests that arrived meanwhile, up to SB.
local batches = {}
do
  local next_i, t_free = 0, 0                        -- next request's index (arrives at i/FR)
  for k = 1, 5 do
    local head = next_i / FR
    local start = math.max(math.min(head + FW, head + (SB - 1) / FR), t_free)
    local b = math.min(SB, math.floor(start * FR + 1e-9) - next_i + 1)
    batches[k] = b
    next_i = next_i + b
    t_free = start + batch_s(b)
  end
end

-- The same formula at a static batch as large as the simulated engine's running batch.
local BIG = 200
local big_rate = BIG / batch_s(BIG)
local kv_fit = kv.calc{model = MODEL, gpu = "h100", seq = IN + OUT}.max_concurrent_seqs

-- Longer runs at the same rates, outside the serving view (which sends 500): a burst's knee
-- sits above what the engine sustains for long.
local LONG = 3000
local function long_at(rate)
  local s = {}
  for k, v in pairs(KNEE) do s[k] = v end
  s.num_prompts, s.request_rate = LONG, rate
  return kv.sim(s)
end

local long10, long11, longcap = long_at(10.5), long_at(halvings[1].rate), long_at(math.huge)

local function f(x, places) return fixed(x, places or 1) end
local function s_of(ms) return f(ms / 1000, 2) .. " s" end
-- A rate the ladder or the bisection chose, without trailing zeros, as the serving view's rungs
-- read: 4, 12.5, 11.25, 11.88 (never "4.00" beside "11.2500"); the bisection rounds its
-- midpoints to two decimals, so two places show every rate exactly.
local function r_of(x) return (fixed(x, 2):gsub("0+$", ""):gsub("%.$", "")) end

local ladder_lines = {}
for _, p in ipairs(ladder) do
  ladder_lines[#ladder_lines + 1] = string.format("rate %-10s p99 TTFT %s", r_of(p.rate) .. "/s",
                                                  s_of(p.run.p99_ttft_ms))
end
local halving_lines = {}
for _, p in ipairs(halvings) do
  halving_lines[#halving_lines + 1] = string.format("rate %-10s p99 TTFT %s", r_of(p.rate) .. "/s",
                                                   s_of(p.run.p99_ttft_ms))
end

return lesson {
  id = "batching-service",
  title = "A batching service under load",
  module = "part1-serving",
  module_title = "Part 1 · Serving systems and engines",
  baseline = "vLLM 0.26 V1; the source read is vLLM's main branch as stored (undated commits "
          .. "00024d3 of scheduler.py, 00080ee of async_llm.py, 00fc880 of utils.py), whose rules "
          .. "the course's simulator models for 0.26: vllm/v1/core/sched/scheduler.py (Scheduler.schedule: "
          .. "max_num_running_reqs caps the running batch, preemption pops the last running "
          .. "request under FCFS and takes the lowest priority, latest arrival under the "
          .. "priority policy; Scheduler._preempt_request: blocks freed, num_computed_tokens = 0, "
          .. "prepend_request to the waiting queue; Scheduler.add_request: the waiting queue "
          .. "takes every request, no bound; Scheduler.finish_requests: an abort leaves the "
          .. "waiting or running queue and frees its blocks), vllm/v1/engine/async_llm.py "
          .. "(AsyncLLM.generate: CancelledError or GeneratorExit from a disconnected client "
          .. "calls AsyncLLM.abort, which aborts in the OutputProcessor and the engine core), "
          .. "vllm/entrypoints/utils.py (with_cancellation, listen_for_disconnect; the chat and "
          .. "completion routes carry @with_cancellation; "
          .. "AsyncLLM.add_request makes no admission check), Starlette's StreamingResponse.__call__ "
          .. "(listens for http.disconnect only below ASGI spec 2.4; undated, read as stored) and "
          .. "vLLM's client_disconnect middleware (undated); vLLM 0.29.0's release notes for the "
          .. "later --max-num-queued-reqs / --max-num-queued-tokens (vllm-project/vllm#49445, 503 "
          .. "on rejection); RFC 6585 §4 (429) and RFC 9110 §15.6.4 (503); Orca (OSDI '22) and "
          .. "the vLLM paper (SOSP '23) on static against iteration-level batching; "
          .. "Little's law; the knee is kvtutor sim's (docs/simulator.md) at vLLM 0.26's defaults",
  concept = "serving-under-load",
  concept_title = "Serving under load",
  requires = {"continuous-batching", "latency"},
  links = {"continuous-batching", "latency", "chunked-prefill", "sizing-deployment"},

  question = "You run an LLM service on one GPU. As load rises, how does latency behave, how "
          .. "would you protect the service when requests arrive faster than it can serve them, "
          .. "and what does vLLM do on its own?",

  answer = "Latency stays nearly flat while the offered rate is below what the GPU can "
        .. "sustain and rises steeply at a knee as it nears that rate, because past it the "
        .. "waiting queue, and TTFT with it, grows for as long as the overload lasts. You "
        .. "protect the service with admission control in front of the engine: a queue bounded "
        .. "by Little's law (capacity × the wait you accept), fast 503s with Retry-After (429s for "
        .. "per-client quotas) or shedding for the excess, and timeouts that close the request. vLLM 0.26 itself queues every request "
        .. "without a bound (max_num_seqs caps the running batch, not the queue), aborts a "
        .. "request whose client disconnects and recomputes the requests it preempts when KV "
        .. "blocks run out, so rejecting is a gateway's job.",

  points = {
    point { "latency is flat, then climbs steeply at a knee near capacity", weight = 2,
            about = {"latency", "TTFT", "p99", "tail latency", "the knee", "queueing delay",
                     "queue", "it", "waiting time", "flat"},
            said = {"knee", "hockey stick", "explodes", "steeply", "blows up", "flat until",
                    "near capacity", "shoots up", "grows without bound", "grows without limit",
                    "nonlinear", "keeps growing", "close to capacity", "close to what the GPU",
                    "nears 100%", "near 100%", "then a hockey stick"},
            accept = {"hockey stick", "hockey-stick", "knee"} },
    point { "bound the queue and reject or shed the excess", weight = 2,
            about = {"admission control", "queue", "gateway", "excess requests", "the server",
                     "load shedding", "backpressure", "extra requests"},
            said = {"reject", "429", "503", "shed", "bound", "limit", "cap", "drop", "rate limit",
                    "refuse", "too many requests", "service unavailable"},
            accept = {"admission control", "load shedding", "backpressure", "429", "503"} },
    point { "vLLM queues without a bound; max_num_seqs caps only the running batch", weight = 2,
            about = {"vLLM", "vLLM's queue", "the waiting queue", "max_num_seqs", "the engine",
                     "vLLM itself", "vLLM on its own", "queues"},
            said = {"unbounded", "no bound", "queues everything", "every request", "no limit",
                    "without a limit", "won't reject", "will not reject", "rejects nothing",
                    "running batch", "does not reject", "doesn't reject", "never rejects",
                    "no 429", "not the queue", "without a bound", "without limit"} },
    point { "Little's law sizes the queue",
            about = {"queue", "queue size", "queue length", "Little's law", "the bound"},
            said = {"little's law", "capacity times", "throughput times", "rate times",
                    "× the wait", "times the wait", "L = λW"},
            accept = {"little's law", "littles law"} },
    point { "preempted requests are recomputed; cancelled ones are aborted",
            about = {"preempted requests", "preemption", "a preempted request", "cancelled requests",
                     "disconnects", "a disconnect", "cancellation", "it"},
            said = {"recompute", "recomputed", "abort", "aborted", "freed", "frees its blocks"} },
  },
  misconceptions = {
    misconception { about = {"latency", "the latency"},
                    said = {"goes down as load increases", "falls as load rises", "drops as load increases", "decreases as load increases", "goes down as load rises"},
                    why = "latency rises with load: a bigger batch makes each decode step longer, and past capacity requests queue, so TTFT grows without bound" },
    misconception { about = {"vLLM", "vLLM itself", "the engine"},
                    said = {"lowers max_tokens", "cuts max_tokens", "reduces max_tokens", "shortens the replies", "truncates the replies"},
                    unless = {"gateway", "proxy", "we can", "you can", "we lower", "you lower", "operator", "free-tier", "to fit max_model_len", "clamps"},
                    why = "vLLM never lowers max_tokens because of load (it only clamps it to fit max_model_len: get_max_tokens in vllm/entrypoints/utils.py); under overload it queues new requests and preempts running ones" },
    misconception { about = {"vLLM", "vLLM itself", "the engine", "vLLM 0.26"},
                    said = {"returns 429", "sends 429", "rejects requests when full",
                            "rate limits", "drops requests", "returns too many requests",
                            "drops requests when its queue is full",
                            "rejects when the queue is full", "autoscales", "adds replicas",
                            "scales out"},
                    why = "vLLM 0.26 queues every request its API server accepts, with no bound; rejecting (a 503 for overload, a 429 for a quota) is a gateway's job (an opt-in queue cap came later, in 0.29.0)" },
    misconception { about = {"max_num_seqs", "--max-num-seqs"},
                    said = {"caps the queue", "limits the queue", "bounds the queue",
                            "rejects", "maximum waiting", "queue length", "max waiting"},
                    why = "max_num_seqs caps how many requests run in a step; requests past it wait in an unbounded queue" },
    misconception { about = {"latency", "TTFT", "p99", "it"},
                    said = {"grows linearly", "rises linearly", "proportional to load",
                            "linear in load", "stays constant", "stays flat as load rises",
                            "does not change with load", "independent of load"},
                    why = "latency is nearly flat below capacity and turns up steeply near it (in the simplest queue, M/M/1, the wait grows like 1 ÷ (capacity − rate)), and past capacity without bound" },
  },

  sections = {
    section {
      title = "Two knobs of a static batcher",
      text = "A static batcher collects requests and starts them together. It closes a batch "
          .. "when it holds max_batch requests or when its first request has waited max_wait, "
          .. "whichever comes first. At " .. FR .. " requests a second, evenly spaced, a batch "
          .. "of " .. SB .. " takes (" .. SB .. " − 1) ÷ " .. FR .. " = " .. f((SB - 1) / FR, 2)
          .. " s to fill; with max_wait " .. f(FW, 1) .. " s it leaves after " .. f(fwait, 1)
          .. " s with " .. fb .. " requests. A long max_wait fills batches and adds its "
          .. "whole wait to the first request's TTFT at light load; a short one sends small "
          .. "batches that waste the step's weight read. And once a batch runs, newcomers wait "
          .. "for it to end, whatever max_wait says. On one H100 a full batch of " .. SB
          .. " requests of " .. grouped(IN) .. " + " .. OUT .. " tokens of Llama-3.1-8B takes "
          .. "about " .. f(batch_s(SB), 2) .. " s (" .. f(prefill_s(SB), 2) .. " s of prefill, "
          .. OUT .. " decode steps of " .. f(decode_step_s(SB) * 1000, 1) .. " ms), so this "
          .. "batcher completes at most " .. f(static_rate, 1) .. " requests/s: at " .. FR
          .. " a second it falls behind. The next batches leave as soon as the GPU frees, their "
          .. "first request having waited past max_wait by then, with what has gathered: "
          .. batches[1] .. ", then " .. batches[2] .. ", " .. batches[3] .. ", " .. batches[4]
          .. " requests, so within a few batches every batch is full and late. That is an estimate from the simulator's "
          .. "constants (65% of the H100's " .. grouped(h100.bandwidth_gbps) .. " GB/s in "
          .. "decode, 55% of its " .. grouped(h100.tflops) .. " TFLOP/s in prefill, 0.7 ms a "
          .. "step), not a run. Every request here writes the same " .. OUT .. " tokens, so "
          .. "no slot idles; what static batching loses is the wait to fill and the wait for "
          .. "the running batch.",
    },
    section {
      title = "Continuous batching removes the trade",
      text = "vLLM's scheduler decides the batch again at every step: a new request's prefill "
          .. "chunk joins the running decodes in the next step, up to max_num_batched_tokens "
          .. "and max_num_seqs and while KV blocks last, so there is no max_wait to tune. "
          .. "`kvtutor sim` sends the same workload (" .. KNEE.num_prompts .. " requests of "
          .. grouped(IN) .. " + " .. OUT .. " tokens, all at once) to vLLM 0.26's defaults on "
          .. "the H100 and completes " .. f(cap.request_throughput, 2) .. " requests/s over the "
          .. "run, ramp and drain included: the capacity the playground's serving view shows. "
          .. "It exceeds the static estimate mainly because of the batch size: the static batcher "
          .. "stops at " .. SB .. " while the engine runs up to " .. cap.max_running .. " requests "
          .. "at once (the KV cache holds " .. kv_fit .. " whole " .. grouped(IN + OUT) .. "-token "
          .. "sequences; max_num_seqs, " .. grouped(cap.max_num_seqs) .. ", is not the limit). The same "
          .. "estimate for a static batch of " .. BIG .. " gives " .. f(batch_s(BIG), 2) .. " s a "
          .. "batch, " .. f(big_rate, 2) .. " requests/s, no less than the simulated engine. With "
          .. "every request writing the same " .. OUT .. " tokens, a static batcher as large "
          .. "costs latency (the wait to fill, the wait for the running batch), not throughput. "
          .. "Continuous batching's throughput gain needs output lengths that vary: a static batch "
          .. "holds every slot until its longest request ends, while the engine refills a "
          .. "finished slot at the next step (Orca, OSDI '22, §2; the vLLM paper, SOSP '23, §2-3).",
    },
    section {
      title = "The knee",
      text = "While the offered rate is below what the engine can sustain, a request finds "
          .. "room and waits for little more than its own prefill. Near that rate, random "
          .. "(Poisson) arrivals bunch, a queue forms faster than it drains and the tail "
          .. "stretches; above it, the queue grows for as long as the overload lasts. In the "
          .. "simulator, in runs of " .. KNEE.num_prompts .. " requests (the serving view's count), the p99 TTFT is " .. s_of(ladder[1].run.p99_ttft_ms) .. " at "
          .. RUNGS[1] .. " requests/s, " .. s_of(r10.p99_ttft_ms) .. " at 10, "
          .. s_of(r125.p99_ttft_ms) .. " at 12.5 and " .. s_of(r15.p99_ttft_ms) .. " at 15; "
          .. "the median is " .. s_of(r10.median_ttft_ms) .. " at 10 and "
          .. s_of(r125.median_ttft_ms) .. " at 12.5. Near the knee the KV cache fills too (at "
          .. "12.5/s " .. r125.max_running .. " requests run at the peak, "
          .. f(r125.peak_kv_usage * 100, 0) .. "% of the blocks, " .. r125.preemptions
          .. " preemptions), so the last requests admitted are preempted and recomputed.",
    },
    section {
      title = "Which capacity?",
      text = "The view's capacity, " .. f(cap.request_throughput, 2) .. " requests/s, is "
          .. "completed ÷ duration of a run that sends everything at once: it counts the "
          .. "ramp and the drain, and a backlog deep enough that steps spend their token "
          .. "budget on prefill chunks while the KV cache overflows into preemptions. Yet the run offered 10/s kept its p99 TTFT at "
          .. s_of(r10.p99_ttft_ms) .. ", and the 1 s crossing lies higher still. Two reasons. "
          .. "A backlog is not the best an engine does: under one the KV cache stays full and "
          .. "preempted requests are prefilled again (" .. cap.preemptions .. " preemptions in "
          .. "that run against " .. r10.preemptions .. " at 10/s), work a run fed below its "
          .. "limit does not repeat. And a run of "
          .. KNEE.num_prompts .. " requests at " .. r_of(halvings[1].rate) .. "/s sends its last "
          .. "after " .. f(KNEE.num_prompts / halvings[1].rate, 0)
          .. " s: a short overload builds a queue of only (offered − sustained rate) × its "
          .. "length. So the knee of this exercise, about " .. f(knee_rate, 1) .. "/s, is the knee of a "
          .. f(KNEE.num_prompts / halvings[1].rate, 0) .. "-second burst of " .. KNEE.num_prompts
          .. " requests, above what the engine sustains for long. Runs of " .. grouped(LONG)
          .. " requests show it: at 10.5/s the p99 TTFT stays at " .. s_of(long10.p99_ttft_ms)
          .. " (" .. f(long10.request_throughput, 2) .. " requests/s completed), at "
          .. r_of(halvings[1].rate) .. "/s it reaches " .. s_of(long11.p99_ttft_ms) .. " ("
          .. f(long11.request_throughput, 2) .. " completed), and sent all at once they complete "
          .. f(longcap.request_throughput, 2) .. " requests/s against the burst's "
          .. f(cap.request_throughput, 2) .. ", the ramp and drain weighing less. A burst's "
          .. "knee also moves with the seed: near it a few bunched arrivals decide the p99. For "
          .. "sizing, use the rate the engine sustains under a long backlog, not the best burst.",
    },
    section {
      title = "What vLLM does with a request it cannot serve yet",
      text = "It queues it. In vLLM 0.26 the scheduler's add_request appends every request to "
          .. "the waiting queue with no bound, and AsyncLLM.add_request checks nothing about load "
          .. "before handing the request to the engine core, so no request is refused for load. "
          .. "max_num_seqs is only the cap "
          .. "on the running batch: Scheduler.schedule stops admitting waiting requests when "
          .. "that many run. Opt-in admission control came later, in vLLM 0.29.0 (its release "
          .. "notes list vllm-project/vllm#49445 as new): --max-num-queued-reqs caps the requests "
          .. "in flight, waiting and running together (a request with n > 1 counts n), and "
          .. "--max-num-queued-tokens caps the prompt tokens of requests still in prefill; both "
          .. "are checked before the request enters the engine, and a request over either gets a "
          .. "503. So with 0.26, queue limits, fast 503s with Retry-After for overload, 429s for "
          .. "per-tenant quotas (429 means one client sent too many, RFC 6585 §4; 503 means the "
          .. "server is overloaded, RFC 9110 §15.6.4) and routing to another replica belong to a "
          .. "gateway in front of the engine. Inside 0.26 you still have --scheduling-policy "
          .. "priority, which admits and preempts by each request's priority field, and load "
          .. "signals for a router: the metrics vllm:num_requests_waiting and "
          .. "vllm:num_requests_running, and with --enable-server-load-tracking a count of "
          .. "requests in the server (GET /load).",
    },
    section {
      title = "Cancelled, timed out, preempted",
      text = "When a client disconnects, the request is aborted. The OpenAI server's chat and "
          .. "completion routes are wrapped by with_cancellation (vllm/entrypoints/utils.py), "
          .. "which cancels the handler when an http.disconnect message arrives. Once the "
          .. "handler has returned a streaming response, Starlette's StreamingResponse watches "
          .. "for the disconnect itself only under ASGI spec versions before 2.4; uvicorn "
          .. "speaks 2.4, and there the response learns of it only when writing a chunk to the "
          .. "closed connection fails. So a streaming request whose client leaves while it "
          .. "still waits in the queue is aborted only when its first chunk is written, after "
          .. "admission and its prefill. Then AsyncLLM.generate is closed or cancelled, catches "
          .. "CancelledError or GeneratorExit and calls "
          .. "AsyncLLM.abort, which drops the request from the OutputProcessor and tells the "
          .. "engine core; the scheduler's finish_requests then removes it from the waiting "
          .. "or running queue and frees its KV blocks. A client or gateway timeout that "
          .. "closes the connection takes the same path: a timeout frees capacity only if it "
          .. "closes the connection, and for a request still queued only once its first "
          .. "chunk is due, so a queue's bound belongs before the engine. A preempted request is not lost: under the default "
          .. "first-come-first-served policy the scheduler pops the last request of the "
          .. "running list (under --scheduling-policy priority, the lowest-priority, latest "
          .. "arrival), frees its blocks, sets its computed tokens to 0 and puts it at the "
          .. "front of the waiting queue, where it is later prefilled again over its prompt and "
          .. "the tokens it had already generated, less what the prefix cache (on by default) "
          .. "still holds: Scheduler.schedule looks up cached blocks for every waiting request "
          .. "with no computed tokens, a resumed one too (the chunked-prefill lesson's "
          .. "resume-recomputed exercise counts it). Its stream pauses; nothing it received is taken back.",
    },
    section {
      title = "Sizing the queue with Little's law",
      text = "Little's law for the queue alone: requests waiting = the rate they leave it × "
          .. "the time each waits, on average. When the engine is saturated they leave at its "
          .. "capacity; in a first-come-first-served queue the request at the back of Q then "
          .. "waits about Q ÷ capacity to drain, a bound on the worst wait rather than Little's "
          .. "mean (vLLM admits in bursts as blocks free, so treat it as a rate over seconds). "
          .. "To keep the wait in the queue under 2 s on this H100, hold at most "
          .. f(cap.request_throughput, 2) .. " × 2 = " .. f(2 * cap.request_throughput, 1)
          .. " requests and refuse the rest at once: a fast 503 with Retry-After lets a client "
          .. "retry elsewhere, while a request admitted into a queue it cannot leave in time "
          .. "costs its full wait and then fails anyway. That queue must be the gateway's: "
          .. "the gateway also caps the requests it lets into vLLM at once, near the batch the "
          .. "KV cache holds (" .. kv_fit .. " whole " .. grouped(IN + OUT) .. "-token sequences "
          .. "here; the simulated engine peaks at " .. cap.max_running .. " running), not "
          .. "max_num_seqs (" .. grouped(cap.max_num_seqs) .. "). Without that cap the gateway's queue "
          .. "stays empty and the waiting happens in vLLM's unbounded one. A request's TTFT "
          .. "is then the gateway's wait + the engine's wait + its prefill, and the budget "
          .. "covers all three. When prompt sizes vary, bound the queue in tokens, not "
          .. "requests; and give clients jittered backoff and a retry budget, or the refused "
          .. "requests come back at once as a retry storm.",
    },
  },

  worked = code([[
static     fill ]] .. SB .. [[ at ]] .. FR .. [[/s: (]] .. SB .. [[ − 1) ÷ ]] .. FR .. [[ = ]] .. f((SB - 1) / FR, 2) .. [[ s > max_wait ]] .. f(FW, 1) .. [[ s
           → leaves after ]] .. f(fwait, 1) .. [[ s with 1 + ⌊]] .. f(FW, 1) .. [[ × ]] .. FR .. [[⌋ = ]] .. fb .. [[ requests
one batch  ]] .. SB .. [[ × ]] .. grouped(IN) .. [[ tokens prefill ]] .. f(prefill_s(SB), 3) .. [[ s + ]] .. OUT .. [[ × ]] .. f(decode_step_s(SB) * 1000, 2) .. [[ ms = ]] .. f(batch_s(SB), 2) .. [[ s
           → ]] .. SB .. [[ ÷ ]] .. f(batch_s(SB), 2) .. [[ s = ]] .. f(static_rate, 2) .. [[ requests/s at most
capacity   kvtutor sim, rate inf: ]] .. f(cap.request_throughput, 2) .. [[ requests/s
knee       ]] .. table.concat(ladder_lines, "\n           ") .. [[

halving    ]] .. table.concat(halving_lines, "\n           ") .. [[

           straight line across ]] .. r_of(lo.rate) .. [[ and ]] .. r_of(hi.rate) .. [[:
           p99 TTFT = 1 s at ≈ ]] .. f(knee_rate, 1) .. [[ requests/s
queue      ]] .. f(cap.request_throughput, 2) .. [[ requests/s × 2 s wait = ]] .. f(2 * cap.request_throughput, 1) .. [[ requests]]),

  followups = {
    followup {
      question = "Does vLLM return a 429 when it is overloaded?",
      answer = "No, not in 0.26. Every request the API server accepts goes into the "
            .. "scheduler's waiting queue, which has no bound, and no error maps to 429. "
            .. "max_num_seqs caps the running batch, not the queue, so under overload requests "
            .. "simply wait longer. Rejecting (a 503 with Retry-After for overload, a 429 for a "
            .. "client over its quota), rate limits per tenant and routing are a gateway's job; opt-in queue caps, --max-num-queued-reqs and "
            .. "--max-num-queued-tokens, came in 0.29.0 and reject with 503.",
      points = {
        point { "no: it queues the request", weight = 2, polarity = "no",
                about = {"vLLM", "it", "the engine", "vLLM 0.26", "the server"},
                said = {"queues", "waits", "keeps queueing", "unbounded", "no bound",
                        "queues it", "puts it in the queue", "accepts"},
                short = {"no", "it queues", "it queues them"} },
        point { "max_num_seqs caps the running batch, not the queue", weight = 2,
                about = {"max_num_seqs", "--max-num-seqs", "the cap"},
                said = {"running batch", "running", "not the queue", "concurrent sequences",
                        "in a step", "batch size", "concurrently", "at once", "decode together",
                        "in flight in the engine"} },
        point { "a gateway does the rejecting",
                about = {"gateway", "proxy", "load balancer", "rejecting", "429s", "rejection", "rate limiting",
                         "admission control"},
                said = {"gateway", "in front", "proxy", "load balancer", "upstream", "outside"},
                accept = {"gateway", "api gateway", "reverse proxy", "load balancer"} },
      },
      misconceptions = {
        misconception { about = {"vLLM", "it", "the engine", "the server"},
                        said = {"returns 429", "sends 429", "returns a 429", "rejects the request",
                                "rejects requests", "rate limits", "drops the request"},
                        why = "vLLM 0.26 queues every request with no bound; the rejecting has to come from a gateway (opt-in caps that answer 503 came in 0.29.0)" },
        misconception { about = {"max_num_seqs", "--max-num-seqs"},
                        said = {"caps the queue", "bounds the queue", "limits the queue",
                                "maximum queue", "waiting queue length", "rejects"},
                        why = "max_num_seqs caps the running batch; requests past it wait in the unbounded queue" },
      },
    },
    followup {
      question = "A running request is preempted when the KV cache fills. Which one is chosen, "
              .. "what happens to it, and what does its client see?",
      answer = "Under the default first-come-first-served policy the scheduler preempts the "
            .. "last request in its running list, the most recently admitted (under the "
            .. "priority policy, the lowest priority, latest arrival). Its KV blocks are freed, "
            .. "its computed tokens reset to zero and it goes to the front of the waiting "
            .. "queue; when blocks free up it is prefilled again over its prompt and the "
            .. "tokens it already generated. The client sees its stream stall and then resume "
            .. "after the tokens it already received.",
      points = {
        point { "the most recently admitted (last running) request is chosen", weight = 2,
                about = {"the scheduler", "vLLM", "it", "the victim", "the request chosen", "FCFS",
                         "the one chosen", "chosen", "the newest request", "the last request",
                         "the most recent request", "the latest request", "the request"},
                said = {"most recent", "last", "newest", "latest", "lowest priority",
                        "most recently admitted", "last admitted"},
                short = {"the newest", "the last one", "the most recent one", "the latest one"} },
        point { "its blocks are freed and it goes back to the waiting queue", weight = 2,
                about = {"its blocks", "its KV", "it", "the request", "its cache", "the preempted request"},
                said = {"freed", "frees", "waiting queue", "back to the queue", "front of the queue",
                        "released", "evicted"} },
        point { "it is recomputed later from its tokens", weight = 2,
                about = {"it", "the request", "its cache", "its KV", "the preempted request"},
                said = {"recompute", "prefilled again", "re-prefill", "rebuilt", "prefill again"},
                accept = {"recomputation", "recompute"} },
        point { "the client sees a stall, no lost tokens",
                about = {"the client", "the user", "its stream", "the stream"},
                said = {"stall", "pause", "delay", "latency", "freezes", "slower", "waits"} },
      },
      misconceptions = {
        misconception { about = {"vLLM", "it", "the scheduler", "the request", "the preempted request"},
                        said = {"swaps its KV", "swaps the KV cache", "swaps it out", "swaps it to CPU",
                                "swapped out", "copied to CPU", "copies it to CPU", "offloads its KV",
                                "moves its KV to CPU", "swaps its cache", "swapped to CPU",
                                "copies its KV cache to CPU", "CPU swap space", "swap space",
                                "no recomputation"},
                        why = "V1's scheduler recomputes: it frees the blocks and prefills the request again; there is no swap path in Scheduler._preempt_request" },
        misconception { about = {"the request", "it", "the preempted request", "the client"},
                        said = {"is dropped", "fails", "gets an error", "is lost", "starts over from scratch",
                                "loses its output"},
                        why = "a preempted request goes back to the front of the waiting queue and keeps the tokens it generated; the client only sees a pause" },
        misconception { about = {"the scheduler", "vLLM", "it", "FCFS", "the request", "the one"},
                        said = {"preempts the oldest", "picks the oldest", "chooses the oldest",
                                "evicts the oldest", "oldest is preempted", "oldest gets preempted",
                                "oldest is chosen", "longest-running", "the first admitted",
                                "longest context", "most memory", "largest cache", "longest sequence",
                                "the most blocks", "the biggest request", "random", "at random",
                                "the longest-running request",
                                "the first admitted request", "the longest request",
                                "the largest request", "the earliest request"},
                        why = "under FCFS the scheduler pops the last request of the running list, the most recently admitted one" },
      },
    },
    followup {
      question = "The service can complete " .. f(cap.request_throughput, 1) .. " requests/s "
              .. "and you want no request to wait more than 2 s in the queue. How do you size "
              .. "the queue, and what do you do with a request that arrives when it is full?",
      answer = "Little's law on the queue: when the engine is saturated requests leave the "
            .. "queue at its capacity, so the wait of the last one in a queue of Q is Q ÷ "
            .. "capacity, and Q = " .. f(cap.request_throughput, 1) .. " × 2 = "
            .. f(2 * cap.request_throughput, 1) .. ": about " .. math.floor(2 * cap.request_throughput)
            .. " requests. A request arriving to a full "
            .. "queue is refused at once, a 503 with Retry-After, so the client can retry or go "
            .. "to another replica, instead of waiting and timing out anyway.",
      points = {
        point { "Little's law: queue = capacity × allowed wait", weight = 2,
                about = {"queue", "queue size", "queue length", "Little's law", "the bound", "Q"},
                said = {"little's law", "capacity times", "throughput times", "times the wait",
                        "× 2", "times 2", "rate times", "L = λW", "multiplied by", "throughput ×",
                        "capacity ×", "rate ×", "× max wait", "× the wait", "× the allowed wait"},
                accept = {"little's law", "littles law"} },
        point { "about " .. math.floor(2 * cap.request_throughput) .. " requests",
                accept = {f(2 * cap.request_throughput, 1), "about " .. f(2 * cap.request_throughput, 0),
                          f(2 * cap.request_throughput, 0) .. " requests",
                          math.floor(2 * cap.request_throughput) .. " requests",
                          "about " .. math.floor(2 * cap.request_throughput),
                          "about " .. f(2 * cap.request_throughput, 0) .. " requests"} },
        point { "refuse the overflow fast (429), don't let it wait", weight = 2,
                about = {"the next request", "request", "the overflow", "extra requests", "it",
                         "new requests", "the rest", "anything beyond", "anything over", "the excess",
                         "beyond it", "anything else", "everything beyond"},
                said = {"reject", "429", "503", "refuse", "shed", "turn away", "too many requests",
                        "service unavailable", "retry-after", "fail fast", "drop", "bounce"},
                accept = {"429", "503", "retry-after", "load shedding"} },
      },
      misconceptions = {
        misconception { about = {"queue", "queue size", "the bound", "it", "the queue's bound"},
                        said = {"to max_num_seqs", "as large as memory", "as large as possible",
                                "as big as possible", "as big as memory", "leave it unbounded",
                                "make it unbounded", "no limit on it", "as much as memory allows"},
                        why = "the queue's bound comes from the wait you accept: capacity × that wait; an unbounded queue turns overload into ever-growing TTFT" },
        misconception { about = {"the next request", "it", "the overflow", "extra requests", "I", "we"},
                        said = {"wait longer", "queue it anyway", "let it wait", "block until",
                                "wait in line", "just wait", "should wait", "wait until there is room",
                                "hold it until", "keep it waiting", "hold until", "hold them until",
                                "until there is room", "until a slot frees"},
                        why = "a request that cannot leave the queue in time costs its whole wait and fails anyway; refuse it at once so it can retry elsewhere" },
      },
    },
    followup {
      question = "Why is a static batcher's max_wait a trade, and why does continuous batching "
              .. "not need one?",
      answer = "A static batch starts only when it is full or its first request has waited "
            .. "max_wait. A long max_wait fills batches, sharing each weight read among more "
            .. "requests, but at light load it adds the whole wait to TTFT; a short one sends "
            .. "small batches and wastes throughput. New requests also wait for the running batch "
            .. "to finish. Continuous batching admits waiting requests at every "
            .. "step, so a request joins the next step as soon as there is room: there is no "
            .. "batch to fill and nothing to wait for.",
      points = {
        point { "a long wait adds latency; a short wait gives small batches", weight = 2,
                about = {"max_wait", "a long wait", "a short wait", "waiting", "a longer wait",
                         "the wait", "a shorter wait", "small batches", "longer max_wait",
                         "shorter max_wait", "a long max_wait", "a short max_wait", "longer", "shorter"},
                said = {"adds latency", "ttft", "small batches", "fuller batches", "throughput",
                        "latency", "trade", "bigger batches", "larger batches", "worse TTFT",
                        "smaller batches", "lower latency"} },
        point { "continuous batching admits at every step", weight = 2,
                about = {"continuous batching", "it", "vLLM", "the scheduler", "iteration-level batching",
                         "a new request", "new requests", "a waiting request", "a request"},
                said = {"every step", "each step", "per step", "every iteration", "next step",
                        "joins", "as soon as", "per iteration", "each iteration", "at the next step"},
                accept = {"iteration-level", "every step", "each iteration"} },
        point { "arrivals wait for the running static batch to finish",
                about = {"arrivals", "new requests", "requests arriving", "newcomers", "arriving requests",
                         "later requests", "later arrivals"},
                said = {"wait for the batch", "wait until", "finish", "batch ends", "head-of-line"} },
      },
      misconceptions = {
        misconception { about = {"continuous batching", "it"},
                        said = {"waits for the batch to fill", "needs a max wait", "has a timeout to fill"},
                        why = "continuous batching reschedules at every step; a waiting request joins the next step if blocks and the token budget allow" },
        misconception { about = {"a longer max_wait", "longer max_wait", "a long max_wait", "a longer wait",
                                 "waiting longer"},
                        said = {"lowers latency", "reduces latency", "lower TTFT", "lowers TTFT",
                                "reduces TTFT", "faster responses"},
                        why = "a longer max_wait fills batches but adds up to the whole wait to the first request's TTFT" },
        misconception { about = {"max_wait", "a longer wait", "the longer you wait", "it"},
                        said = {"KV cache memory for compute", "memory for compute", "trades memory",
                                "more KV cache the batch needs", "memory fragmentation"},
                        why = "max_wait trades the first request's latency against the batch's size and throughput; the KV cache a batch needs depends on its requests, not on how long it waited" },
        misconception { about = {"static batching", "a static batcher", "it"},
                        said = {"no trade-off", "no tradeoff", "nothing to trade"},
                        why = "max_wait trades the first request's wait against the size, and so the throughput, of each batch" },
      },
    },
  },

  exercises = {
    numeric {
      id = "knee-rate",
      prompt = "Llama-3.1-8B on one H100 (vLLM 0.26's defaults, as kvtutor sim and the "
            .. "playground's serving view model them) serves random requests of "
            .. grouped(IN) .. " prompt + " .. OUT .. " output tokens, " .. KNEE.num_prompts
            .. " requests per run, seed 0, Poisson arrivals. At what request rate does the p99 "
            .. "TTFT pass 1 s? (Within 10%; the view's ladder brackets it, kvtutor sim "
            .. "--request-rate between its rungs narrows it.)",
      params = { slo_ms = {SLO_MS} },
      expected = function(p)
        return knee_rate, table.concat(ladder_lines, "\n") .. "\n"
          .. "→ passes " .. f(p.slo_ms / 1000, 0) .. " s between " .. r_of(rung_lo.rate)
          .. " and " .. r_of(rung_hi.rate) .. "/s; halve the bracket:\n"
          .. table.concat(halving_lines, "\n") .. "\n"
          .. "straight line across " .. r_of(lo.rate) .. " (" .. s_of(lo.run.p99_ttft_ms)
          .. ") and " .. r_of(hi.rate) .. " (" .. s_of(hi.run.p99_ttft_ms) .. "):\n≈ "
          .. f(knee_rate, 1) .. " requests/s, an estimate: p99 bends upward inside the bracket,\n"
          .. "so the line errs low, the safe side"
      end,
      unit = "requests/s",
      serving = KNEE,
      tolerance = rel(0.1),
      hints = { "Open the playground's serving view on Llama-3.1-8B and the H100 with "
                  .. grouped(IN) .. " in, " .. OUT .. " out, and step the rate with r/R: the "
                  .. "knee's bars show p99 TTFT per rung.",
                "It passes 1 s between two rungs: " .. r_of(rung_lo.rate) .. "/s gives "
                  .. s_of(rung_lo.run.p99_ttft_ms) .. ", " .. r_of(rung_hi.rate) .. "/s gives "
                  .. s_of(rung_hi.run.p99_ttft_ms) .. ". Halve the bracket "
                  .. "with kvtutor sim --request-rate." },
    },
    numeric {
      id = "queue-bound",
      prompt = "The same H100 completes " .. f(cap.request_throughput, 2) .. " requests/s "
            .. "when saturated. You want no request to wait more than {wait} s in the "
            .. "admission queue before the engine takes it. At most how many requests should "
            .. "the queue hold?",
      params = { wait = {1, 2, 3, 5, 10} },
      expected = function(p)
        local q = cap.request_throughput * p.wait
        return q, "Little's law on the queue: waiting = rate out × wait\n"
          .. "saturated, the rate out is the capacity: " .. f(cap.request_throughput, 2) .. " requests/s\n"
          .. "queue    " .. f(cap.request_throughput, 2) .. " × " .. p.wait .. " s = "
          .. f(q, 1) .. " requests"
      end,
      unit = "requests", tolerance = rel(0.05),
      hints = { "Little's law: requests in a system = the rate through it × the time each spends there.",
                "Saturated, requests leave the queue at the engine's capacity." },
    },
    numeric {
      id = "static-batch-size",
      prompt = "A static batcher closes a batch at {batch} requests or when its first request "
            .. "has waited {wait_ms} ms, whichever comes first. Requests arrive evenly, {rate} "
            .. "a second, and the GPU is free. How many requests does a batch hold when it is "
            .. "closed? (One arriving at the very moment max_wait ends still joins.)",
      params = { batch = {8, 16, 32, 64}, wait_ms = {100, 250, 500, 1000, 2000},
                 rate = {5, 10, 20, 50, 100} },
      expected = function(p)
        local b, w = fill(p.rate, p.batch, p.wait_ms / 1000)
        local full_ms = (p.batch - 1) / p.rate * 1000
        local line1 = "fill     (" .. p.batch .. " − 1) gaps ÷ " .. p.rate .. "/s = "
                      .. grouped(full_ms) .. " ms\n"
        if b == p.batch then
          return b, line1 .. "max_wait " .. grouped(p.wait_ms) .. " ms is not reached: the "
            .. "batch fills first, after " .. grouped(w * 1000) .. " ms\nbatch    " .. b .. " requests"
        end
        return b, line1 .. "max_wait " .. grouped(p.wait_ms) .. " ms comes first: the first "
          .. "request\n         and those arriving in its " .. grouped(p.wait_ms) .. " ms\nbatch    1 + ⌊"
          .. f(p.wait_ms / 1000, 2) .. " s × " .. p.rate .. "/s⌋ = " .. b .. " requests"
      end,
      unit = "requests", tolerance = abs(0.5),
      hints = { "The batch fills when the last of its requests arrives: (batch − 1) gaps after the first.",
                "If max_wait comes first, count the first request and those that arrive within max_wait." },
    },
    choice {
      id = "why-knee",
      prompt = "In the simulated run, p99 TTFT is " .. s_of(r10.p99_ttft_ms) .. " at 10 "
            .. "requests/s and " .. s_of(r125.p99_ttft_ms) .. " at 12.5, "
            .. f(r125.p99_ttft_ms / r10.p99_ttft_ms, 0) .. " times as long, though the rate "
            .. "rose by a quarter and one prompt's prefill costs the same. What changed?",
      options = {
        option { "The offered rate reached what the GPU can complete, so requests queue", correct = true,
                 why = "near capacity the queue forms faster than it drains; TTFT is mostly time in the queue" },
        option { "Decode alone became compute-bound at the larger batch",
                 why = "at 10/s the steps already spend more time on compute than on memory on average, because prefill chunks share them; step time grows with the batch, but smoothly, and a jump of this size in TTFT is queueing" },
        option { "vLLM began rejecting requests and clients retried",
                 why = "vLLM 0.26 rejects nothing for load: its waiting queue has no bound" },
        option { "The prompts got longer at the higher rate",
                 why = "every request has the same " .. grouped(IN) .. "-token prompt at every rate" },
      },
    },
    freetext {
      id = "disconnect",
      prompt = "A user closes the browser tab while vLLM is streaming their reply. What happens "
            .. "to the request inside vLLM 0.26, and why does it matter under load?",
      answer = "The API server sees the disconnect, the generate call is cancelled and "
            .. "AsyncLLM aborts the request in the output processor and the engine core; the "
            .. "scheduler removes it from the waiting or running queue and frees its KV "
            .. "blocks. Under load that matters because the freed blocks and the batch slot go "
            .. "to a waiting request instead of to tokens nobody will read.",
      points = {
        point { "the request is aborted", weight = 2,
                about = {"the request", "it", "vLLM", "the server", "the engine", "generate"},
                said = {"aborted", "abort", "cancelled", "cancel", "removed from the running",
                        "removed from the waiting", "removes it from"},
                accept = {"abort", "aborted", "cancelled"} },
        point { "its KV blocks and slot are freed", weight = 2,
                about = {"its blocks", "its KV", "its cache", "its slot", "memory", "the blocks", "it"},
                said = {"freed", "free", "released", "returned", "reused"} },
        point { "the capacity goes to waiting requests",
                accept = {"waiting request", "other requests", "someone else", "queue", "capacity",
                          "nobody will read", "wasted"} },
      },
      misconceptions = {
        misconception { about = {"the request", "it", "vLLM", "the engine"},
                        said = {"keeps generating until", "keeps generating anyway", "runs to completion",
                                "finishes anyway", "keeps running until", "generates until", "generates up to",
                                "until max_tokens", "up to max_tokens", "nothing stops",
                                "does not notice", "doesn't notice", "never notices", "can't know",
                                "cannot know", "cannot see", "can't see", "nothing happens",
                                "stays in the batch", "throws the output away"},
                        why = "vLLM aborts a request whose client disconnects: AsyncLLM.generate catches the cancellation and calls abort, and the scheduler frees its blocks" },
        misconception { about = {"the request", "it", "its KV cache", "its cache", "its blocks", "Python"},
                        said = {"keep-alive timeout", "garbage collector", "garbage collection",
                                "is preempted", "swapped out", "swapped to CPU", "swaps it to CPU",
                                "in case the user reconnects", "until the user reconnects"},
                        why = "a disconnect is no preemption and waits for no timeout: the request is aborted and its blocks are freed at once (for a request still queued, once its first chunk is written)" },
      },
    },
  },
}
