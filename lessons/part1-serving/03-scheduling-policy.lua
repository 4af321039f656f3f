-- Part 1 · Serving systems and engines: scheduling policy. Who goes next (FCFS or
-- priority), what a long prompt does to everyone behind it, which partial-prefill knobs
-- V1 honours, and whom V1 preempts when the blocks run out, at what cost.

local MODEL = "qwen2.5-7b"
local PARAMS = kv.model(MODEL).params * 1e9

-- Head-of-line blocking, as `kvtutor sim` simulates it (vLLM V1's FCFS scheduler, the
-- roofline step time and the full-sequence admission gate, docs/simulator.md): 300 random
-- prompts of 409 to 7,783 tokens (4,096 ± 90%), 256 output tokens, 5 requests/s, Qwen2.5-7B
-- on one H100.
local HOL = {model = MODEL, gpu = "h100", max_model_len = 16384, input_len = 4096,
             range_ratio = 0.9, output_len = 256, request_rate = 5, num_prompts = 300}
local function with(base, extra)
  local t = {}
  for k, v in pairs(base) do t[k] = v end
  for k, v in pairs(extra) do t[k] = v end
  return t
end
local HOL_MIN = math.floor(HOL.input_len * (1 - HOL.range_ratio))   -- serve.py's random lengths
local HOL_MAX = math.ceil(HOL.input_len * (1 + HOL.range_ratio))
local hol_default = kv.sim(HOL)                      -- vllm serve's budget on an H100: 8,192
local hol_small = kv.sim(with(HOL, {max_num_batched_tokens = 2048}))
local hol_whole = kv.sim(with(HOL, {no_chunked_prefill = true, max_num_batched_tokens = 16384}))

-- Preemption: 256 requests of 1,024 + 1,024 tokens (the serving view's count for 1,024
-- output tokens), all sent at once, to Qwen2.5-7B on an RTX 4090 at vLLM 0.26's default
-- gpu_memory_utilization (0.92).
local PRE = {model = MODEL, gpu = "rtx4090", max_model_len = 4096, input_len = 1024,
             output_len = 1024, num_prompts = 256}
local cap = kv.calc{model = MODEL, gpu = "rtx4090", max_model_len = 4096}
local BS = 16
local per_req_blocks = math.ceil((PRE.input_len + PRE.output_len) / BS)
local safe = cap.num_gpu_blocks // per_req_blocks            -- requests whose whole reply fits
local PRE_CAPPED = with(PRE, {max_concurrency = safe})
local pre_free = kv.sim(PRE)
local pre_capped = kv.sim(PRE_CAPPED)
-- The same burst with 200 requests: identical requests finish in waves, and the wave
-- pattern, not the preemptions, makes most of the difference there.
local WAVE_N, LOW_CAP = 200, 64
local wave_free = kv.sim(with(PRE, {num_prompts = WAVE_N}))
local wave_capped = kv.sim(with(PRE, {num_prompts = WAVE_N, max_concurrency = safe}))
local wave_low = kv.sim(with(PRE, {num_prompts = WAVE_N, max_concurrency = LOW_CAP}))
-- A victim holds fewer than its full prompt + output tokens, so each preemption throws
-- away less than that: an upper bound on the recompute (the sim does not count the tokens).
local FULL_LEN = PRE.input_len + PRE.output_len
local max_recomputed = pre_free.preemptions * FULL_LEN
-- Under 0.26's admission gate a victim comes back only when blocks for its whole sequence
-- so far are free: a 1,024-token prompt that had generated 900 tokens.
local RESUME_GEN = 900
local resume_blocks = math.ceil((PRE.input_len + RESUME_GEN) / BS)

-- Recompute of one victim on the roofline at the data sheet's peak (as in chunked-prefill).
local function recompute_s(model, gpu, tokens)
  return 2 * kv.model(model).params * 1e9 * tokens / (kv.gpu(gpu).tflops * 1e12)
end
local VICTIM_OLD, VICTIM_NEW = 1024 + 900, 1024 + 20     -- tokens a long-running and a new request hold
local old_ms = recompute_s(MODEL, "rtx4090", VICTIM_OLD) * 1000
local new_ms = recompute_s(MODEL, "rtx4090", VICTIM_NEW) * 1000

-- long_prefill_token_threshold: what a step leaves for the waiting queue while one long
-- prompt is being prefilled among D decodes.
local B, D, T = 8192, 64, 2048
local TF4090 = kv.gpu("rtx4090").tflops

local function f(x, places) return fixed(x, places or 1) end
-- A figure to about three significant digits, as the app prints an amount (kvt_fmt_amount):
-- 177, 96.3, 7.62; grouped from 1,000.
local function amount(x)
  local a = math.abs(x)
  if a >= 100 then return grouped(x) end
  return fixed(x, a >= 10 and 1 or a >= 1 and 2 or 3)
end
local function pct(a, b) return fixed((a / b - 1) * 100, 0) end

-- A head-of-line row of the worked block; the figures right-aligned, so that a two-digit ITL
-- lines up under a three-digit one.
local function hol_row(label, r)
  return string.format("  %-18s p99 ITL %6s ms   median TTFT %6s ms\n", label,
                       f(r.p99_itl_ms, 1), f(r.median_ttft_ms, 1))
end

return lesson {
  id = "scheduling-policy",
  title = "Scheduling policy: who runs next, and who is preempted",
  module = "part1-serving",
  module_title = "Part 1 · Serving systems and engines",
  baseline = "vLLM 0.26 V1 scheduler, vllm/v1/core/sched/scheduler.py (Scheduler.schedule: "
          .. "the running loop first, then the waiting loop only when nothing was preempted; "
          .. "long_prefill_token_threshold caps each request's tokens in both loops; the waiting "
          .. "loop stops at the first request it cannot allocate; with "
          .. "SchedulerConfig.scheduler_reserve_full_isl, default True, a waiting or preempted "
          .. "request is admitted only if blocks for its whole sequence so far, min(num_tokens, "
          .. "max_model_len), are free: PR #37307, reviewed March 2026, first release undated, "
          .. "present in 0.26; on a failed allocate_slots the victim is self.running.pop() under "
          .. "FCFS and max(self.running, key=(priority, arrival_time)) under priority; "
          .. "Scheduler._preempt_request frees the blocks, zeroes num_computed_tokens and "
          .. "prepends the request to the waiting queue); vllm/v1/core/sched/request_queue.py "
          .. "(FCFSRequestQueue: a deque, prepend = appendleft; PriorityRequestQueue: a heap on "
          .. "Request.__lt__, lower priority value first, then earlier arrival; prepend = a "
          .. "plain insert); vllm/config/scheduler.py (SchedulerConfig: policy fcfs|priority, "
          .. "long_prefill_token_threshold default 0); the engine's "
          .. "check that a request's priority is 0 unless the policy is priority (\"Got priority "
          .. "N but Priority scheduling is not enabled.\"); max_num_partial_prefills and "
          .. "max_long_partial_prefills: refused by V1 at start-up through 0.26 (\"Concurrent "
          .. "Partial Prefill is not supported\"; 0.19 in issue #39737), removed by PR #49244 "
          .. "(merged 2026-07-21, listed under removals in the 0.27.0 release notes), so from "
          .. "0.27 the flags are unrecognized arguments; figures from kvtutor sim (FCFS, the admission gate, no prefix caching) and "
          .. "the roofline at the data sheets' BF16 peaks",
  concept = "scheduling-policy",
  concept_title = "Scheduling policy and preemption",
  requires = {"continuous-batching", "chunked-prefill"},
  links = {"continuous-batching", "chunked-prefill", "prefix-caching", "latency"},

  question = "How does vLLM decide which request runs next, what changes with "
          .. "--scheduling-policy priority, and when memory runs out, whom does it preempt "
          .. "and what does that cost?",

  answer = "By default vLLM's V1 scheduler is first come, first served: each step it serves "
        .. "the running requests first, then admits waiting ones in arrival order while the "
        .. "token budget, max_num_seqs and free blocks allow. With --scheduling-policy "
        .. "priority the waiting queue is ordered by the request's priority value (lower "
        .. "first), then arrival time, but priority does not evict a running request to admit one. "
        .. "When a running request cannot get blocks, V1 preempts the last admitted request "
        .. "under FCFS, or the lowest-priority, latest-arriving one under priority: its blocks "
        .. "are freed and it is recomputed later as a prefill of its prompt and output so far.",

  points = {
    point { "FCFS: running requests first, then waiting ones in arrival order", weight = 2,
            about = {"FCFS", "first come first served", "scheduler", "vLLM", "V1",
                     "waiting requests", "waiting queue", "new requests", "new ones", "queue",
                     "running requests", "requests already running"},
            said = {"arrival order", "order of arrival", "order they arrived", "first come first served",
                    "running requests first", "running first", "FIFO", "boards in arrival",
                    "get their seats first", "go first each step"} },
    point { "priority orders the waiting queue: lower value first, ties by arrival", weight = 2,
            about = {"priority", "priority policy", "priority scheduling", "waiting queue",
                     "scheduling-policy priority", "queue", "priority mode"},
            said = {"lower value", "smaller value", "lowest value", "lower number", "orders the waiting",
                    "sorted by priority", "ordered by priority", "arrival time", "heap",
                    "priority number order", "priority-number order", "(priority, arrival)",
                    "lower first", "lower number first"} },
    point { "the victim: last admitted (FCFS) or lowest priority, latest arrival", weight = 2,
            about = {"preempts", "preempted", "victim", "preemption", "it evicts", "evicted",
                     "kicks out", "gets put off", "put off", "bumped"},
            said = {"last admitted", "most recently admitted", "last running", "latest",
                    "lowest priority", "lowest-priority", "newest", "last one", "last to board",
                    "least important", "most recent"} },
    point { "the victim's blocks are freed and it is recomputed", weight = 2,
            about = {"victim", "preempted request", "its blocks", "it", "preemption", "cost",
                     "kicked request", "they", "preempted"},
            said = {"recompute", "freed", "prefill again", "recomputed", "from scratch", "redo",
                    "loses its KV", "lose their KV", "loses its cache", "frees its KV"} },
    point { "priority does not evict running requests to admit a waiting one", weight = 2,
            about = {"priority", "high-priority request", "waiting request", "it", "vLLM",
                     "urgent request", "important one", "more important one", "scheduler"},
            said = {"not evict", "not preempt", "doesn't preempt", "does not preempt",
                    "no preemption to admit", "waits for", "does not jump into", "never kicks",
                    "doesn't kick", "won't kick", "does not kick", "never evicts",
                    "only decides who waits", "waits until"} },
  },
  misconceptions = {
    misconception { about = {"preemption", "preempted request", "vLLM", "victim", "it"},
                    said = {"swaps to CPU", "swapped to CPU", "swapped out", "copies the blocks",
                            "drops the request", "fails the request", "keeps its KV",
                            "keeping its KV", "resumes instantly", "at no cost"},
                    why = "by default V1 frees the victim's blocks and recomputes it later; there is no swap to CPU (only a configured KV offloading, --kv-offloading-size or a connector, can load blocks back) and the request is not dropped" },
    misconception { about = {"priority", "priority scheduling", "high-priority request",
                             "high-priority arrival", "urgent request", "vLLM", "it"},
                    said = {"immediately preempts", "preempts a running request to admit",
                            "preempts the lowest-priority running request so",
                            "evicts a running request to admit", "kicks out a running",
                            "starts at once", "starts immediately", "to make room for it"},
                    why = "in V1 only a running request that cannot get blocks triggers preemption; the waiting loop never evicts anyone, so a high-priority arrival waits for room" },
    misconception { about = {"vLLM", "the scheduler", "scheduler", "default", "it", "V1"},
                    said = {"shortest prompt first", "shortest request", "shortest job",
                            "picks the shortest", "round-robin", "time slice"},
                    why = "V1 orders the waiting queue by arrival (FCFS) or by (priority, arrival); it neither sorts by length nor time-slices" },
    misconception { about = {"memory runs out", "out of memory", "memory pressure", "vLLM"},
                    said = {"rejects new requests", "nothing is ever preempted",
                            "nothing is preempted", "returns an error"},
                    why = "when a running request cannot get blocks V1 preempts a victim and recomputes it later; new requests simply wait" },
    misconception { about = {"FCFS", "default policy", "vLLM"},
                    said = {"preempts the oldest", "preempts the longest", "preempts the largest",
                            "preempts the first admitted", "evicts the oldest",
                            "preempts the oldest running", "evicts the oldest running",
                            "preempts the longest running", "preempts the earliest"},
                    why = "under FCFS V1 pops the last request in its running list, the one admitted most recently" },
    misconception { about = {"higher priority value", "larger priority value", "bigger priority value",
                             "higher priority number", "larger priority number",
                             "bigger priority number", "larger value", "higher number"},
                    said = {"runs first", "goes first", "served first", "scheduled first"},
                    why = "a lower priority value is served first; the largest value is the first to be preempted" },
  },

  sections = {
    section {
      title = "Two queues",
      text = "V1 keeps its running requests in a plain list, in the order they were admitted, "
          .. "and its waiting requests in a queue the policy chooses (create_request_queue). "
          .. "Under the default fcfs it is a deque: new requests join the back, and a "
          .. "preempted one is put back at the very front, ahead of every request still waiting. "
          .. "Under priority (vllm serve --scheduling-policy priority; each request carries its "
          .. "own integer priority, 0 by default) it is a heap ordered by the priority value, "
          .. "lower first, then by arrival time. A heap has no front: a preempted request is "
          .. "simply inserted again, and its original arrival time places it ahead of later "
          .. "arrivals of the same priority. The heap has no aging, so under a steady stream "
          .. "of priority-0 work a priority-10 request can wait indefinitely.",
    },
    section {
      title = "What priority does not do",
      text = "The policy changes two things in Scheduler.schedule: the order the waiting loop "
          .. "takes requests in, and the victim of a preemption. It does not change the "
          .. "running loop, which still walks the running list in admission order and serves "
          .. "every running request before any waiting one. And the waiting loop never "
          .. "preempts: an urgent request that arrives while the batch is full is first in "
          .. "line, but it starts only when there is a seat under max_num_seqs, budget left "
          .. "after the running requests and free blocks for its whole prompt (0.26's "
          .. "admission gate, scheduler_reserve_full_isl), which other requests free by "
          .. "finishing. Priority decides who is next in line and who is put off first when "
          .. "blocks run out; it never makes room for a newcomer. Whether it should is open: "
          .. "issue #40004 asks for it, and PRs #45561 and #54530, which "
          .. "would let a waiting request displace a lower-priority one at max_num_seqs, "
          .. "were open, not merged, when this was written (#54530 opened 2026-08-31).",
    },
    section {
      title = "Head-of-line blocking by long prompts",
      text = "Running requests are served first, and a running prompt's chunk is the smaller "
          .. "of what it has left and what is left of the budget. So once a long prompt is "
          .. "admitted it takes all the budget the decodes ahead of it leave, step after step, "
          .. "and a request that arrives behind it gets nothing until the long prompt's last "
          .. "chunk: without long_prefill_token_threshold V1 prefills long prompts one after "
          .. "another (issue #57413, September 2026, reports this TTFT blocking in "
          .. "production). The decodes share those steps too. kvtutor sim runs "
          .. HOL.num_prompts .. " prompts of " .. grouped(HOL_MIN) .. " to "
          .. grouped(HOL_MAX) .. " tokens at " .. HOL.request_rate .. " requests/s into "
          .. "Qwen2.5-7B on an H100: with vllm serve's default budget for that GPU, 8,192 "
          .. "tokens (the default depends on the GPU; the RTX 4090 below gets 2,048), the p99 "
          .. "inter-token latency is " .. f(hol_default.p99_itl_ms, 0) .. " ms, because a step "
          .. "that carries most of a long prompt is long and every decode waits for it. Prompts "
          .. "scheduled whole (no_chunked_prefill, a 16,384 budget) make it "
          .. f(hol_whole.p99_itl_ms, 0) .. " ms"
          .. ((hol_whole.p99_itl_ms > hol_default.p99_itl_ms
               and hol_whole.p99_itl_ms > hol_small.p99_itl_ms) and ", the worst of the three" or "")
          .. "; a 2,048 budget brings "
          .. "it to " .. f(hol_small.p99_itl_ms, 0) .. " ms, with a median TTFT of "
          .. f(hol_small.median_ttft_ms, 0) .. " ms against " .. f(hol_default.median_ttft_ms, 0)
          .. ". There is a second block, by memory: the waiting loop stops at the first "
          .. "request it cannot allocate, and under 0.26's admission gate that means the "
          .. "first whose whole prompt (for a resumed victim, its prompt and output so far) "
          .. "does not find free blocks. A big prompt at the head of the queue then holds back "
          .. "smaller ones behind it that would fit. Without chunking the loop also stops at "
          .. "the first prompt that does not fit in the budget left.",
    },
    section {
      title = "Partial-prefill knobs in 0.26",
      text = "Three settings in SchedulerConfig concern partial (chunked) prefills, and V1 "
          .. "honours one of them. long_prefill_token_threshold (default 0, off) caps the "
          .. "tokens one request may take in a step, in both the running and the waiting "
          .. "loop, and it is V1's way of prefilling several prompts in the same step (PR "
          .. "#15419): each gets at most the threshold, and a resumed victim's recompute is "
          .. "capped the same way. Set to " .. grouped(T) .. " with an " .. grouped(B)
          .. " budget and " .. D .. " decodes, a long prompt takes " .. grouped(T)
          .. " tokens a step and leaves " .. grouped(B - D - T) .. " for the requests "
          .. "behind it, where it would otherwise take them all. max_num_partial_prefills and "
          .. "max_long_partial_prefills (default 1) were never implemented in V1: 0.26 "
          .. "refuses any other value at start-up (\"Concurrent Partial Prefill is not "
          .. "supported\", a NotImplementedError in the 0.19 to 0.24 reports; #49244 names it "
          .. "UnsupportedFeatureError), so the rule that set the threshold to 4% of "
          .. "max_model_len when max_num_partial_prefills was above 1 never took effect on a "
          .. "V1 server. PR "
          .. "#49244 (merged 2026-07-21, in the 0.27.0 release notes' removals) deleted both "
          .. "fields and the rule, and from 0.27 the flags are rejected as unrecognized "
          .. "arguments.",
    },
    section {
      title = "Whom V1 preempts",
      text = "When a running request needs a block and allocate_slots finds none, the "
          .. "scheduler preempts until the allocation succeeds. Under FCFS the victim is "
          .. "self.running.pop(), the request admitted last, often the one that has generated "
          .. "least and is cheapest to redo; a resumed victim is appended to the end again, so "
          .. "it is the first in line if blocks run short once more. Under priority it is the running request with "
          .. "the largest (priority, arrival_time): the lowest priority, latest among equals; "
          .. "if it had already been scheduled this step its tokens go back to the budget. "
          .. "If the request asking for blocks is itself the victim, the running loop stops. "
          .. "Either way no waiting request is admitted in a step that preempted, and a victim "
          .. "comes back only when the admission gate finds free blocks for its prompt and "
          .. "all it had generated.",
    },
    section {
      title = "What a preemption costs",
      text = "Scheduler._preempt_request frees the victim's blocks and sets its computed tokens "
          .. "to zero, so on resuming it is prefilled again over its prompt and every token it "
          .. "has generated (prefix-cache hits on blocks not reused since cut that). On an RTX "
          .. "4090 at its " .. f(TF4090) .. " TFLOP/s peak, a Qwen2.5-7B victim holding " .. grouped(VICTIM_OLD)
          .. " tokens costs " .. amount(old_ms) .. " ms of prefill; one admitted a moment ago with "
          .. grouped(VICTIM_NEW) .. " costs " .. amount(new_ms) .. " ms. A victim may also be "
          .. "caught mid-prefill, with less than its prompt computed, so what one preemption "
          .. "throws away lies anywhere below the request's full length. Simulated, "
          .. PRE.num_prompts .. " requests of " .. grouped(PRE.input_len) .. " + "
          .. grouped(PRE.output_len) .. " tokens sent at once to that card (" .. grouped(cap.num_gpu_blocks)
          .. " blocks, prefix caching on as by default) cause " .. pre_free.preemptions
          .. " preemptions, under " .. grouped(max_recomputed) .. " tokens to prefill again, and "
          .. "fewer in fact: resumed victims found " .. grouped(pre_free.resume_hit_tokens)
          .. " of their tokens still in the prefix cache. The run takes "
          .. f(pre_free.duration_s) .. " s at " .. grouped(pre_free.output_throughput)
          .. " output tokens/s. Capping the client at " .. safe .. " in flight, what the "
          .. "blocks hold at full length, gives " .. pre_capped.preemptions .. " preemptions, "
          .. f(pre_capped.duration_s) .. " s and " .. grouped(pre_capped.output_throughput)
          .. " tokens/s, " .. pct(pre_capped.output_throughput, pre_free.output_throughput)
          .. "% more. The gain is small because the uncapped run batches up to "
          .. pre_free.max_running .. " requests a step against the cap's "
          .. pre_capped.max_running .. ", and in steps bound mostly by memory the larger "
          .. "batches win back most of what the recompute costs. With identical requests sent "
          .. "at once the duration also depends on how they finish in waves: with " .. WAVE_N .. " requests the "
          .. "same cap gives " .. pct(wave_capped.output_throughput, wave_free.output_throughput)
          .. "% more (" .. f(wave_capped.duration_s) .. " s against " .. f(wave_free.duration_s)
          .. " s), yet a cap of " .. LOW_CAP .. ", with " .. wave_low.preemptions
          .. " preemptions, takes " .. f(wave_low.duration_s) .. " s, "
          .. (wave_low.duration_s > wave_free.duration_s and "longer than" or "about as long as")
          .. " no cap. So judge a cap on your own "
          .. "traffic, not on a burst of identical requests. (The capped client holds requests back itself, and "
          .. "vllm bench serve counts TTFT from the send, so compare the runs' durations, "
          .. "not their TTFTs.)",
    },
    section {
      title = "Tenants and SLOs",
      text = "The V1 scheduler knows requests, not tenants: its only orders are arrival and "
          .. "(priority, arrival). It takes no deadlines and keeps no per-tenant quota, so one "
          .. "tenant's burst delays everyone behind it under FCFS. Priority is a per-request "
          .. "field, priority in the request body (0 by default); a server started without "
          .. "--scheduling-policy priority answers a nonzero one with HTTP 400 (\"Got "
          .. "priority N but Priority scheduling is not enabled.\"). Fairness and SLOs are "
          .. "built around it: per-tenant rate limits and concurrency caps at the gateway, "
          .. "priority classes for interactive against batch traffic (watching the "
          .. "starvation above), a smaller token budget or long_prefill_token_threshold for "
          .. "the ITL tail, and admission below the KV capacity so preemption stays rare. "
          .. "Research goes further: the Virtual Token Counter (Sheng et al., \"Fairness in "
          .. "Serving Large Language Models\", OSDI 2024) serves clients fairly by the tokens "
          .. "each has been served, and points out that per-client rate limits are not "
          .. "work-conserving: they leave the GPU idle while a throttled client still has "
          .. "work. (Sarathi-Serve, also OSDI 2024, is about stall-free batching with chunked "
          .. "prefills, not fairness.)",
    },
  },

  worked = code(
       "head-of-line (sim, H100, " .. HOL.num_prompts .. " prompts " .. grouped(HOL_MIN) .. "–"
    .. grouped(HOL_MAX) .. " tok, " .. HOL.request_rate .. " req/s)\n"
    .. hol_row("budget 8,192", hol_default)
    .. hol_row("whole prompts", hol_whole)
    .. hol_row("budget 2,048", hol_small)
    .. "threshold  " .. grouped(B) .. " − " .. D .. " decodes − " .. grouped(T) .. " = "
    .. grouped(B - D - T) .. " tokens a step for the waiting queue\n"
    .. "recompute  2 × " .. f(PARAMS / 1e9, 2) .. "e9 × " .. grouped(VICTIM_OLD) .. " ÷ " .. f(TF4090) .. "e12 = "
    .. amount(old_ms) .. " ms   (" .. grouped(VICTIM_NEW) .. " tokens: " .. amount(new_ms) .. " ms)\n"
    .. "safe cap   ⌊" .. grouped(cap.num_gpu_blocks) .. " blocks ÷ ⌈2,048 ÷ 16⌉ = "
    .. per_req_blocks .. "⌋ = " .. safe .. " requests\n"
    .. "uncapped   " .. pre_free.preemptions .. " preemptions < " .. pre_free.preemptions
    .. " × " .. grouped(FULL_LEN) .. " = " .. grouped(max_recomputed) .. " tokens redone, "
    .. f(pre_free.duration_s) .. " s, " .. grouped(pre_free.output_throughput) .. " tok/s\n"
    .. "capped     " .. pre_capped.preemptions .. " preemptions, " .. f(pre_capped.duration_s)
    .. " s, " .. grouped(pre_capped.output_throughput) .. " tok/s\n"
    .. "resume     ⌈(" .. grouped(PRE.input_len) .. " + " .. RESUME_GEN .. ") ÷ 16⌉ = "
    .. resume_blocks .. " free blocks before a victim that had generated " .. RESUME_GEN
    .. " tokens is admitted again"),

  followups = {
    followup {
      question = "You run --scheduling-policy priority: chat traffic at priority 0, batch jobs "
              .. "at 10. The batch is full of batch jobs when a chat request arrives. Does it "
              .. "start on the next step?",
      answer = "Not necessarily. Priority puts it at the head of the waiting queue, but V1's "
            .. "waiting loop never preempts to admit anyone: it starts only when there is a "
            .. "free seat under max_num_seqs, budget left after the running requests and "
            .. "free blocks for its whole prompt (0.26's admission gate). What priority does "
            .. "change is the victim: when a running request later needs blocks, the "
            .. "lowest-priority request is preempted first (the latest-arriving among equals), "
            .. "so a batch job goes, not the chat.",
      points = {
        point { "no: it is not admitted at once", weight = 2, polarity = "no",
                about = {"it", "chat request", "the request"},
                said = {"not necessarily", "not immediately", "waits", "not start", "doesn't start"} },
        point { "priority orders the waiting queue; it goes to the head", weight = 2,
                about = {"priority", "it", "chat request", "waiting queue"},
                said = {"head of the queue", "front of the queue", "first in line", "next in line",
                        "head of the waiting", "front of the waiting", "ahead of", "first among the waiting",
                        "top of the waiting", "top of the queue", "top of the heap", "reorders the waiting",
                        "front of the line", "jumps the queue"} },
        point { "the waiting loop does not preempt running requests to admit it", weight = 2,
                about = {"vLLM", "the scheduler", "V1", "waiting loop", "running requests",
                         "batch jobs", "it"},
                said = {"not preempt", "doesn't preempt", "never preempts", "no preemption",
                        "not evict", "doesn't evict", "not evicted", "not preempted", "keep running",
                        "won't kick", "doesn't kick", "not kick", "never kicks", "won't evict",
                        "not thrown out", "won't preempt"} },
        point { "preemption for blocks takes the lowest-priority request",
                about = {"preemption", "victim", "preempted first", "when blocks run out",
                         "if blocks run out", "evicted first", "memory pressure", "batch jobs",
                         "is preempted", "lowest-priority request", "lowest-priority one",
                         "batch job"},
                said = {"lowest priority", "lowest-priority", "priority 10",
                        "largest priority value", "highest priority value", "ones preempted",
                        "preempted first", "goes first", "first to go", "bumped first"} },
      },
      misconceptions = {
        misconception { about = {"vLLM", "the scheduler", "it", "chat request", "priority"},
                        said = {"preempts a batch job to admit", "evicts a batch job to make room",
                                "kicks out a batch job", "starts immediately", "starts at once",
                                "jumps into the batch"},
                        why = "in V1 only a running request that cannot get blocks triggers preemption; the waiting loop never evicts anyone, so a high-priority arrival waits for room" },
        misconception { about = {"chat request", "the chat", "chat"},
                        said = {"preempted first", "is preempted", "first to be preempted",
                                "the victim", "evicted first"},
                        why = "under priority the victim is the running request with the largest (priority, arrival): a priority-10 batch job goes before a priority-0 chat request, however recently it was admitted" },
        misconception { about = {"higher number", "higher value", "larger number", "bigger number",
                                 "larger value", "priority 10", "batch jobs at 10"},
                        said = {"higher priority", "more urgent", "served first", "goes first",
                                "runs first", "ahead of"},
                        unless = {"0 is ahead", "0 goes first", "0 runs first", "0 is served first", "lower value first",
                                  "lower number first", "lower value is served", "lower number is served"},
                        why = "vLLM orders by (priority, arrival) and serves the lower value first: priority 0 runs before priority 10" },
      },
    },
    followup {
      question = "In vLLM 0.26's V1 engine, what do max_num_partial_prefills and "
              .. "long_prefill_token_threshold do?",
      answer = "long_prefill_token_threshold works: above 0 it caps how many tokens one request "
            .. "is given in a step, so a long prompt is prefilled in pieces of that size and the "
            .. "rest of the budget goes to other requests. max_num_partial_prefills (and "
            .. "max_long_partial_prefills) are not implemented in V1: any value other than 1 is "
            .. "refused at start-up with \"Concurrent Partial Prefill is not supported\", and "
            .. "0.27 removed the arguments.",
      points = {
        point { "long_prefill_token_threshold caps one request's tokens per step", weight = 2,
                about = {"long_prefill_token_threshold", "the threshold", "it"},
                said = {"caps", "limits", "per step", "each step", "chunk size", "at most",
                        "pieces of", "tokens one request", "no more than", "cut to",
                        "fixed-size pieces", "cap on the tokens"} },
        point { "max_num_partial_prefills is not supported in V1: refused unless 1", weight = 2,
                about = {"max_num_partial_prefills", "max_long_partial_prefills", "partial prefills",
                         "partial-prefill limits", "the other two", "the other"},
                said = {"not supported", "unsupported", "refused", "rejected", "error",
                        "not implemented", "only 1", "must stay 1", "NotImplementedError", "fails",
                        "doesn't start", "won't start", "removed", "refuse to start",
                        "refuses to start", "V0 only", "V0-only", "V0 leftover", "deleted",
                        "raises an error", "no effect in V1", "not in V1"} },
      },
      misconceptions = {
        misconception { about = {"max_num_partial_prefills", "max_long_partial_prefills"},
                        said = {"limits how many prompts", "lets several prompts prefill",
                                "caps concurrent prefills", "allows concurrent prefills",
                                "is honoured", "works in V1"},
                        why = "V1 in 0.26 refuses any value other than 1 at start-up, and 0.27 removed the two arguments (#49244)" },
        misconception { about = {"max_num_partial_prefills", "max_long_partial_prefills"},
                        said = {"sets the chunk size", "chunk size used", "the chunk size"},
                        why = "the chunk is set by the budget left and long_prefill_token_threshold; max_num_partial_prefills was a V0 limit on concurrent partial prefills, refused by V1" },
        misconception { about = {"long_prefill_token_threshold", "the threshold", "both", "all three"},
                        said = {"ignored", "not used", "V0 only", "has no effect", "unsupported",
                                "not supported", "longest prompt", "rejects longer prompts",
                                "longer prompts are rejected", "maximum prompt length"},
                        why = "V1's Scheduler.schedule applies it in both its running and its waiting loop: it caps the tokens one request gets in a step, and rejects no prompt" },
      },
    },
    followup {
      question = "Two customers share one vLLM deployment, and one of them sends large bursts. "
              .. "How do you keep the other one's latency fair?",
      answer = "Not in vLLM's scheduler alone: it orders by arrival, or by priority then "
            .. "arrival; it has no notion of a tenant, a quota or a deadline. Put the fairness "
            .. "in front of it: per-tenant rate limits or concurrency caps at the gateway, or "
            .. "fair queuing by tokens served as in VTC, and priority classes for each tenant "
            .. "with --scheduling-policy priority, remembering the heap has no aging so a low "
            .. "class can starve; keep total admission under what the KV cache holds so bursts "
            .. "do not cause preemptions, or give the bursty tenant its own replica.",
      points = {
        point { "the scheduler has no notion of tenants or quotas", weight = 2,
                about = {"vLLM", "the scheduler", "V1", "it", "vLLM's scheduler", "engine",
                         "inside vLLM"},
                said = {"no notion of tenant", "no tenant", "doesn't know tenants",
                        "doesn't know about tenants", "not aware of tenants", "unaware of tenants",
                        "no concept of tenants", "no idea of a tenant",
                        "does not do any per-user", "doesn't do any per-user", "no quota", "no fairness", "only arrival order",
                        "only by arrival", "knows requests"},
                accept = {"no notion of tenants", "no per-tenant fairness"} },
        point { "enforce it outside: per-tenant rate limits or concurrency caps", weight = 2,
                about = {"gateway", "proxy", "router", "in front", "load balancer", "outside",
                         "per-tenant", "each tenant", "caps", "limits", "edge", "before vLLM",
                         "per customer", "per-customer", "bursty customer", "bursty tenant",
                         "admission control"},
                said = {"rate limit", "rate-limit", "concurrency cap", "cap concurrency", "quota",
                        "per-tenant", "throttle", "limit each", "token bucket", "meter",
                        "cap on concurrent", "caps on in-flight", "concurrent requests",
                        "fair queuing", "virtual token counter", "VTC", "per customer"} },
        point { "priority classes help, but can starve the low class",
                about = {"priority", "priority classes", "priorities", "low class",
                         "low-priority", "its traffic", "their traffic", "favored customer"},
                said = {"starve", "starvation", "no aging", "wait forever", "indefinitely",
                        "never run", "lower priority", "strict priority", "gets nothing",
                        "lower number"} },
      },
      misconceptions = {
        misconception { about = {"vLLM", "the scheduler", "V1", "FCFS", "scheduler"},
                        said = {"fair share per tenant", "round-robin across tenants",
                                "round-robins between", "round-robin", "equal share",
                                "weighted fair queuing", "per-tenant quotas", "balances tenants",
                                "already fair"},
                        why = "V1 orders only by arrival or by (priority, arrival); it has no tenant or quota logic" },
        misconception { about = {"priority", "priority scheduling", "it", "vLLM"},
                        said = {"preempts the bursty", "preempts their running",
                                "evicts the bursty", "kicks out the bursty",
                                "preempts the other tenant"},
                        why = "priority never evicts a running request to admit another; it only orders the waiting queue and picks the victim when blocks run out" },
        misconception { about = {"max_num_batched_tokens", "max_num_seqs", "the batch"},
                        said = {"whole burst fits", "same latency", "raise", "increase"},
                        why = "a bigger batch does not make the scheduler fair: under FCFS the burst still arrives first and takes the seats and blocks, and a batch past the KV capacity preempts" },
      },
    },
    followup {
      question = "Preemptions are climbing on a busy server. Why do they hurt throughput, and "
              .. "what would you change first?",
      answer = "Each preemption throws away the victim's cache; it is prefilled again later over "
            .. "its prompt and all the tokens it had generated, compute the GPU already spent, "
            .. "and no new request is admitted in a step that preempted. Admit less at once: "
            .. "cap the concurrency (max_num_seqs or the client's) near what the KV blocks hold "
            .. "at full length, or give the cache more room (FP8 KV, a shorter max_model_len, "
            .. "more GPUs).",
      points = {
        point { "a victim is recomputed: work already done is repeated", weight = 2,
                about = {"preemption", "victim", "preempted request", "each one", "it",
                         "recompute", "recomputation"},
                said = {"recompute", "redone", "redoes", "wastes", "work", "prefilled again", "repeated", "wasted",
                        "twice", "thrown away", "throws away", "discards", "lost"} },
        point { "cap concurrency near what the blocks hold", weight = 2,
                about = {"concurrency", "max_num_seqs", "max-concurrency", "admission", "cap",
                         "fewer requests", "limit"},
                said = {"cap", "lower", "reduce", "limit", "fewer", "what the blocks hold",
                        "fits the cache", "what fits", "cut", "admit less", "admits fewer"} },
        point { "or make more KV room",
                about = {"FP8", "fp8 KV", "kv_cache_dtype", "max_model_len", "more GPUs", "KV room",
                         "cache", "gpu_memory_utilization", "KV memory", "tensor parallelism",
                         "KV cache"},
                said = {"more room", "more blocks", "halve", "shorter", "bigger", "more memory",
                        "frees memory", "raise", "add", "provide more", "give it room",
                        "increase"},
                accept = {"fp8 KV", "kv-cache-dtype fp8", "kv_cache_dtype fp8", "more GPUs"} },
      },
      misconceptions = {
        misconception { about = {"preemption", "preempted request", "vLLM"},
                        said = {"swaps to CPU", "swapped out", "free of cost", "costs nothing",
                                "no cost", "swaps", "swapped", "to CPU"},
                        why = "V1 recomputes a preempted request from its tokens; the compute it spent is lost" },
        misconception { about = {"preemptions", "preemption", "KV cache", "GPU", "throughput",
                                 "requests", "you", "first"},
                        said = {"raise max_num_seqs", "increase max_num_seqs", "higher max_num_seqs",
                                "raising max_num_seqs", "increasing max_num_seqs",
                                "raise the concurrency", "increase concurrency", "more concurrency",
                                "too few requests", "underused"},
                        why = "more requests at once need more blocks: raising the cap makes preemption more frequent, not less" },
        misconception { about = {"max_num_seqs", "max-num-seqs"},
                        said = {"raise", "raising", "increase", "increasing", "higher"},
                        unless = {"more frequent", "more often", "more preemption", "preemption worse", "makes it worse"},
                        why = "more requests at once need more blocks: raising max_num_seqs makes preemption more frequent, not less" },
      },
    },
  },

  exercises = {
    numeric {
      id = "safe-concurrency",
      prompt = "Qwen2.5-7B on an RTX 4090 at the default gpu_memory_utilization has "
            .. grouped(cap.num_gpu_blocks) .. " KV blocks of 16 tokens. Every request is "
            .. "1,024 prompt + 1,024 output tokens. How many requests can run together with no "
            .. "preemption even when all are at full length?",
      expected = safe, unit = "requests",
      serving = PRE_CAPPED,
      tolerance = abs(0.5), diagnose = "units",
      worked = code("a request  ⌈(" .. grouped(PRE.input_len) .. " + " .. grouped(PRE.output_len)
          .. ") ÷ " .. BS .. "⌉ = " .. per_req_blocks .. " blocks at full length\n"
          .. "together   ⌊" .. grouped(cap.num_gpu_blocks) .. " ÷ " .. per_req_blocks .. "⌋ = ⌊"
          .. f(cap.num_gpu_blocks / per_req_blocks, 2) .. "⌋ = " .. safe .. " requests\n"
          .. "           (the null block leaves " .. grouped(cap.num_gpu_blocks - 1)
          .. " to allocate: ⌊" .. grouped(cap.num_gpu_blocks - 1) .. " ÷ " .. per_req_blocks
          .. "⌋ = " .. (cap.num_gpu_blocks - 1) // per_req_blocks .. ")"),
      hints = { "A request at full length holds ⌈2,048 ÷ 16⌉ blocks.",
                "⌊blocks ÷ blocks per request⌋." },
    },
    numeric {
      id = "max-recomputed",
      prompt = "Sent all at once to that card with no cap, " .. PRE.num_prompts .. " such "
            .. "requests cause " .. pre_free.preemptions .. " preemptions (kvtutor sim). A "
            .. "victim can be caught anywhere from mid-prefill to its last token, so each "
            .. "preemption throws away less than a full-length request. Counting no prefix-cache "
            .. "hit on resuming, at most how many tokens do those preemptions send back to be "
            .. "prefilled again?",
      expected = max_recomputed, unit = "tokens",
      serving = PRE,
      tolerance = rel(0.01),
      worked = code("per victim  computed tokens → 0; fewer than " .. grouped(PRE.input_len)
          .. " + " .. grouped(PRE.output_len) .. " = " .. grouped(FULL_LEN) .. " tokens\n"
          .. "bound       " .. pre_free.preemptions .. " preemptions × " .. grouped(FULL_LEN)
          .. " tokens = " .. grouped(max_recomputed) .. " tokens\n"
          .. "            (tight: at most " .. grouped(PRE.output_len - 1) .. " outputs, so "
          .. pre_free.preemptions .. " × " .. grouped(FULL_LEN - 1) .. " = "
          .. grouped(pre_free.preemptions * (FULL_LEN - 1)) .. ")"),
      hints = { "Preemption sets a request's computed tokens to zero.",
                "preemptions × (1,024 + 1,024)." },
    },
    numeric {
      id = "resume-blocks",
      prompt = "In vLLM 0.26 (scheduler_reserve_full_isl on, the default) a request with a "
            .. "1,024-token prompt is preempted after generating " .. RESUME_GEN .. " tokens; "
            .. "none of its blocks survive in the prefix cache. How many free KV blocks of 16 "
            .. "tokens must there be before the waiting loop admits it again?",
      expected = resume_blocks, unit = "blocks", tolerance = abs(0.5),
      worked = code("so far     " .. grouped(PRE.input_len) .. " prompt + " .. RESUME_GEN
          .. " generated = " .. grouped(PRE.input_len + RESUME_GEN) .. " tokens, all to recompute\n"
          .. "gate       ⌈" .. grouped(PRE.input_len + RESUME_GEN) .. " ÷ " .. BS .. "⌉ = ⌈"
          .. f((PRE.input_len + RESUME_GEN) / BS, 2) .. "⌉ = " .. resume_blocks
          .. " free blocks, the whole sequence"),
      hints = { "The gate wants blocks for the whole sequence so far, not its first chunk.",
                "⌈(prompt + generated) ÷ 16⌉." },
    },
    numeric {
      id = "victim-recompute-ms",
      prompt = "A {model} request is preempted on {gpu} after generating {generated} tokens of "
            .. "a reply to a {prompt}-token prompt, and none of its blocks survive in the "
            .. "prefix cache. At 2 FLOPs per parameter per token and the GPU's BF16 peak, how "
            .. "many ms of prefill does its recompute cost?",
      params = { model = {"qwen2.5-7b", "llama-3.1-8b"}, gpu = {"h100", "a100", "l40s"},
                 prompt = range(512, 4096, 512), generated = range(100, 2000, 100) },
      expected = function(p)
        local n = p.prompt + p.generated
        local params = kv.model(p.model).params
        local tf = kv.gpu(p.gpu).tflops
        local ms = 2 * params * 1e9 * n / (tf * 1e12) * 1000
        return ms, "tokens     " .. grouped(p.prompt) .. " prompt + " .. grouped(p.generated)
          .. " generated = " .. grouped(n) .. "\n"
          .. "recompute  2 × " .. f(params, 2) .. "e9 × " .. grouped(n) .. " ÷ " .. f(tf, 1)
          .. "e12 FLOP/s ≈ " .. amount(ms) .. " ms"
      end,
      unit = "ms", tolerance = rel(0.03),
      hints = { "Recompute is a prefill of the prompt and every token generated so far.",
                "2 × parameters × tokens ÷ peak FLOP/s." },
    },
    numeric {
      id = "threshold-left",
      prompt = "max_num_batched_tokens is {budget}, {decodes} requests are decoding and one long "
            .. "prompt is being prefilled with long_prefill_token_threshold = {threshold}. How "
            .. "many tokens of each step are left for the waiting requests?",
      params = { budget = {4096, 8192, 16384}, decodes = {16, 32, 64, 128},
                 threshold = {512, 1024, 2048} },
      expected = function(p)
        local left = p.budget - p.decodes - p.threshold
        return left, "running first  " .. p.decodes .. " decodes + " .. grouped(p.threshold)
          .. " prompt tokens (the threshold)\n"
          .. "left           " .. grouped(p.budget) .. " − " .. p.decodes .. " − "
          .. grouped(p.threshold) .. " = " .. grouped(left)
      end,
      unit = "tokens", tolerance = abs(0.5),
      hints = { "Running requests are served first: the decodes and the long prompt's chunk.",
                "The threshold caps the long prompt's chunk; the rest of the budget is left." },
    },
    choice {
      id = "victim-priority",
      prompt = "Under --scheduling-policy priority four requests are running: alpha (priority 0, "
            .. "arrived first), bravo (priority 5, arrived second), charlie (priority 5, arrived "
            .. "third), delta (priority 0, arrived last). A running request cannot get a block. Whom does "
            .. "V1 preempt first?",
      options = {
        option { "charlie", correct = true,
                 why = "the victim has the largest (priority, arrival time): priority 5, and the later of the two" },
        option { "delta", why = "delta arrived last, which would make it the FCFS victim; under priority its value 0 protects it" },
        option { "bravo", why = "bravo has the lowest priority too, but charlie arrived later, so charlie goes first" },
        option { "alpha", why = "alpha has the best priority and arrived first: it is the last to go" },
      },
    },
    choice {
      id = "partial-prefills-v1",
      prompt = "You start vLLM 0.26 with --max-num-partial-prefills 4 to let several long "
            .. "prompts prefill at once. What happens?",
      options = {
        option { "Start-up fails: V1 refuses concurrent partial prefills",
                 correct = true,
                 why = "0.26's V1 refuses any value other than 1 at start-up; 0.27 removed the flag (#49244), so there it is an unrecognized argument" },
        option { "Up to four prompts are chunk-prefilled in the same step",
                 why = "V1 never implemented the limit; several prompts share a step only through the budget and long_prefill_token_threshold" },
        option { "It is accepted and silently ignored",
                 why = "it is refused at start-up, not ignored" },
        option { "It sets long_prefill_token_threshold to 4% of max_model_len and runs",
                 why = "that rule sat in SchedulerConfig, but V1 never starts with the setting, and 0.27 removed the rule with the fields" },
      },
    },
    freetext {
      id = "hol-blocking",
      prompt = "In two or three sentences: how does a long prompt delay other requests in "
            .. "vLLM V1, and which setting limits the damage?",
      answer = "Running requests are served first each step, so once admitted a long prompt "
            .. "takes its chunk of every step's budget before waiting requests get any, and "
            .. "the decodes sharing those steps wait for a long step. A smaller "
            .. "max_num_batched_tokens shortens those steps, and long_prefill_token_threshold "
            .. "caps the long prompt's share so the rest of the budget goes to others.",
      points = {
        point { "the long prompt takes budget first / makes steps long", weight = 2,
                accept = {"running requests first", "takes the budget", "takes its chunk",
                          "long step", "steps longer", "whole budget", "stall", "head-of-line",
                          "head of line", "eats the", "uses up", "use up", "takes most",
                          "takes all", "hogs", "min(remaining", "get no tokens", "gets no tokens"} },
        point { "long_prefill_token_threshold or a smaller budget limits it", weight = 2,
                accept = {"long_prefill_token_threshold", "smaller max_num_batched_tokens",
                          "lower max_num_batched_tokens", "smaller budget", "lower budget",
                          "smaller token budget", "long prefill token threshold"} },
      },
      misconceptions = {
        misconception { about = {"long prompt", "long prompts", "a long prefill"},
                        said = {"don't delay", "do not delay", "delays nobody", "no effect on others",
                                "doesn't affect", "does not delay", "doesn't delay"},
                        why = "running requests are served first, so a long prompt's chunks take each step's budget ahead of the waiting queue and make the decodes' steps long" },
        misconception { about = {"setting", "fixes", "fix", "helps", "limits the damage", "it",
                                 "you", "solution"},
                        said = {"larger max_num_batched_tokens", "bigger max_num_batched_tokens",
                                "higher max_num_batched_tokens", "raise max_num_batched_tokens",
                                "increase max_num_batched_tokens", "raising max_num_batched_tokens",
                                "larger budget", "bigger budget", "larger token budget",
                                "raising the budget", "increasing the budget", "raise the budget"},
                        why = "a larger budget lets one step carry more of the long prompt, so the step is longer and every decode in it waits longer; the tail ITL grows" },
        misconception { about = {"turning off chunked prefill", "disabling chunked prefill",
                                 "disable chunked prefill", "turn off chunked prefill",
                                 "no_chunked_prefill", "without chunked prefill"},
                        said = {"limits", "fixes", "helps", "reduces", "avoids", "solves", "limit"},
                        why = "without chunking a prompt is prefilled whole in one step, which is the longest step of all: the simulated p99 ITL is worst that way" },
        misconception { about = {"max_num_partial_prefills", "max_long_partial_prefills"},
                        said = {"limits", "caps", "limit", "bounds"},
                        why = "V1 never implemented the partial-prefill limits: 0.26 refuses them at start-up" },
        misconception { about = {"prefills and decodes", "prefill and decode", "V1"},
                        said = {"separate steps", "prefill-only step", "run separately"},
                        why = "V1 mixes prefill chunks and decodes in the same step under one token budget" },
      },
    },
  },
}
