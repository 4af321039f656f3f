-- Part 1 · Serving systems and engines: the request path. What happens between an HTTP
-- request reaching `vllm serve` and its first streamed token, which process does what,
-- where TTFT goes, and why a small model can leave the GPU waiting on the CPU.

local SMALL = "qwen2.5-0.5b"
local LARGE = "qwen2.5-7b"
local GPU = "h100"
local small = kv.model(SMALL)
local small_calc = kv.calc{model = SMALL, gpu = GPU, seq = 4096}
local large_calc = kv.calc{model = LARGE, gpu = GPU, seq = 4096}

-- Served runs as `kvtutor sim` simulates them (vLLM V1's FCFS scheduler with chunked
-- prefill, the roofline step time plus a fixed engine overhead per step; docs/simulator.md).
-- Random prompts of 1,024 tokens, 128 output tokens, one H100, vLLM 0.26's defaults
-- (the admission gate scheduler_reserve_full_isl included). 500 requests, the serving
-- view's count for 128-token outputs, so BUSY opens in the view as it is quoted here.
local CAP = {model = SMALL, gpu = GPU, max_model_len = 4096, input_len = 1024,
             output_len = 128, num_prompts = 500, seed = 0}          -- every request at once
local LIGHT = {model = SMALL, gpu = GPU, max_model_len = 4096, input_len = 1024,
               output_len = 128, num_prompts = 500, request_rate = 10, seed = 0}
local BUSY = {model = SMALL, gpu = GPU, max_model_len = 4096, input_len = 1024,
              output_len = 128, num_prompts = 500, request_rate = 300, seed = 0}
local LARGE_LIGHT = {model = LARGE, gpu = GPU, max_model_len = 4096, input_len = 1024,
                     output_len = 128, num_prompts = 200, request_rate = 1, seed = 0}

local cap = kv.sim(CAP)
local light = kv.sim(LIGHT)
local busy = kv.sim(BUSY)
local large = kv.sim(LARGE_LIGHT)

local busy_share = BUSY.request_rate / cap.request_throughput * 100
local busy_in_flight = busy.request_throughput * busy.mean_e2el_ms / 1000   -- Little's law

-- The simulator's mean step, split into GPU time and the engine's fixed per-step time.
local function gpu_ms(r) return r.step_ms - r.overhead_ms end
local small_gpu, large_gpu = gpu_ms(light), gpu_ms(large)
local small_cpu_share = light.overhead_ms / light.step_ms * 100
local large_cpu_share = large.overhead_ms / large.step_ms * 100
-- If the engine's per-step CPU work overlapped the GPU's completely (the aim of async
-- scheduling), a step would take the longer of the two instead of their sum: an estimate.
local small_overlap = math.max(small_gpu, light.overhead_ms)
local large_overlap = math.max(large_gpu, large.overhead_ms)
local small_idle = (small_overlap - small_gpu) / small_overlap * 100

-- An idle server's TTFT on the roofline: one prefill step of the prompt at the achieved
-- FLOP/s (2 FLOPs per parameter per token), plus the engine's per-step time.
local PROMPT = LIGHT.input_len
local prefill_ms = 2 * small.params * 1e9 * PROMPT / (light.tflops * 1e12) * 1000
local idle_ttft_ms = prefill_ms + light.overhead_ms
-- The rule counts the tied embedding / LM head (vocab 151,936 x hidden, Qwen2.5-0.5B's
-- config.json) as a matmul for every token; vLLM computes logits only where a token is
-- sampled, so a 1,024-token prefill does that matmul for one position, not 1,024.
local VOCAB = 151936
local embed_params = VOCAB * small.hidden
local embed_share = embed_params / (small.params * 1e9) * 100
local body_prefill_ms = 2 * (small.params * 1e9 - embed_params) * PROMPT
                        / (light.tflops * 1e12) * 1000
local body_ttft_ms = body_prefill_ms + light.overhead_ms
-- Qwen2.5-7B unties them (config.json: vocab 152,064, tie_word_embeddings false): the
-- embedding and the LM head are each this share of its parameters.
local large_model = kv.model(LARGE)
local large_head_share = 152064 * large_model.hidden / (large_model.params * 1e9) * 100
-- Figures for the cpu-share exercise: each model's BF16 weights in GB.
local SHARE_MODELS = {"qwen2.5-0.5b", "llama-3.2-1b", "qwen2.5-1.5b", "qwen2.5-7b", "llama-3.1-8b"}
local share_gb = {}
for i, m in ipairs(SHARE_MODELS) do
  share_gb[i] = fixed(kv.calc{model = m}.weights_bytes / 1e9, 2)
end

local function f(x, places) return fixed(x, places or 1) end
-- Worked rows whose results line up: each row is {label, arithmetic, result[, sign]}; the
-- arithmetic is padded to the widest one, counted in characters, not bytes (× and ÷ are two
-- bytes each). A plain string is a line of its own.
local function aligned(rows)
  local width = 0
  for _, r in ipairs(rows) do
    if type(r) == "table" then width = math.max(width, utf8.len(r[1] .. r[2])) end
  end
  local out = {}
  for i, r in ipairs(rows) do
    if type(r) == "table" then
      out[i] = r[1] .. r[2] .. string.rep(" ", width - utf8.len(r[1] .. r[2]))
               .. " " .. (r[4] or "=") .. " " .. r[3]
    else
      out[i] = r
    end
  end
  return table.concat(out, "\n")
end

return lesson {
  id = "request-path",
  title = "From HTTP request to streamed token in vLLM",
  module = "part1-serving",
  module_title = "Part 1 · Serving systems and engines",
  baseline = "vLLM 0.26 line, read from vLLM's main-branch source (undated commits of the "
          .. "stored index): vllm/entrypoints/openai/chat_completion/serving.py at 006c49d "
          .. "(OpenAIServingChat._create_chat_completion: render_chat_request, "
          .. "engine_client.generate; chat_completion_stream_generator yields SSE `data:` "
          .. "chunks); vllm/v1/engine/async_llm.py at 00080ee (AsyncLLM.add_request tokenises "
          .. "raw prompts with input_processor.process_inputs_async; _add_request registers the "
          .. "request with the OutputProcessor in this process and sends it to the EngineCore "
          .. "in a separate process; generate merges queued outputs; _run_output_handler's "
          .. "output_handler: get_output_async, process_outputs in chunks, abort_requests_async "
          .. "for stop strings); vllm/v1/engine/core.py at 00080ee (EngineCore.__init__: "
          .. "batch_queue of max_concurrent_batches, step_fn = step or step_with_batch_queue; "
          .. "EngineCoreProc.run_busy_loop, _process_input_queue, _process_engine_step, "
          .. "process_input_sockets and process_output_sockets threads over ZMQ with msgpack; "
          .. "DPEngineCoreProc, asserted MoE-only: one engine core per data-parallel rank in "
          .. "lockstep); vllm/config/vllm.py at "
          .. "000fc94 (VllmConfig.__post_init__: async_scheduling None resolves to True unless "
          .. "a pooling model, an unsupported speculative method, disable_padded_drafter_batch, "
          .. "an executor without support or ROCm DeepEP high-throughput DBO; "
          .. "max_concurrent_batches: PP + 1 with async scheduling and Model Runner V2, 2 with "
          .. "the V1 runner at PP 1; use_v2_model_runner True unless ROCm with a listed "
          .. "architecture, no Triton or an unsupported feature); vllm/config/parallel.py "
          .. "at 00193b8 (ParallelConfig.__post_init__: world size PP × TP × PCP; \"mp\" by "
          .. "default when the world size across DP is above 1, \"uni\" at world size 1, the "
          .. "worker inside the engine-core process; reconfigure_for_independent_dp_rank: a dense "
          .. "model's DP rank runs as an independent engine); vllm/v1/core/sched/async_scheduler.py at 014b235 "
          .. "(AsyncScheduler: output placeholders); vllm/v1/worker/gpu/model_runner.py at "
          .. "0036d38 (Model Runner V2's GPUModelRunner: execute_model keeps the hidden states in "
          .. "ExecuteModelState and returns None; sample_tokens computes the logits at the "
          .. "sampled positions, samples and starts an async copy of the ids to the host); "
          .. "vLLM v0.25.0 release notes (MRv2 the default for all dense models, #44443; before "
          .. "it the V1 runner, vllm/v1/worker/gpu_model_runner.py, for most dense models); "
          .. "vllm/v1/core/sched/scheduler.py (_update_request_with_output: check_stop; a "
          .. "request still prefilling gets no token); vllm/v1/core/sched/utils.py at 018d5dc "
          .. "(check_stop: min_tokens first, then EOS, stop_token_ids, max_model_len, "
          .. "max_tokens, repetition detection); vllm/v1/engine/output_processor.py (undated: "
          .. "process_outputs detokenises, checks stop strings, aborts in the core; "
          .. "RequestState.stream_interval and sent_tokens_offset hold outputs back in the API "
          .. "server); vllm/config/scheduler.py at 01230b4 (stream_interval, default 1); vLLM "
          .. "v0.14.0 release notes (async scheduling on by default, #27614; v0.11.1's notes "
          .. "expected it for the next release; the release that first shipped the opt-in flag "
          .. "is undated here); Qwen2.5-0.5B's config.json (vocab 151,936, tied "
          .. "embeddings) and Qwen2.5-7B's (vocab 152,064, untied); "
          .. "TTFT figures from kvtutor sim (docs/simulator.md), whose 0.7 ms step overhead is "
          .. "a constant fitted to benchmarks of 7B and larger models and which models no async "
          .. "overlap, tokenisation, detokenisation, HTTP or network",
  concept = "request-path",
  concept_title = "The serving request path",
  requires = {"prefill-decode", "continuous-batching", "latency"},
  links = {"memory-bound-decode", "chunked-prefill", "latency", "continuous-batching"},

  question = "Walk me through what happens in vLLM between an HTTP chat request arriving and "
          .. "its first streamed token. Where does TTFT go, and why can the CPU become the "
          .. "bottleneck for a small model?",

  answer = "The API server process renders the chat template, tokenises the prompt and hands "
        .. "the request over ZMQ to the engine core, a separate process whose busy loop "
        .. "schedules a step, runs the forward pass through its model runner (inside the "
        .. "engine-core process on one GPU), samples, and updates every request; "
        .. "the step that finishes the prompt's prefill samples the first token, which goes "
        .. "back to the API server to be detokenised and streamed as an SSE chunk. TTFT is the "
        .. "wait to be scheduled, the prefill step or steps, and the trip back through "
        .. "detokenisation and the network. Every step also costs Python work on the CPU "
        .. "(scheduling, preparing inputs, processing outputs); for a small model the GPU part "
        .. "of a step is under a millisecond, so that CPU work is a large share of it, which "
        .. "is why vLLM splits front end and engine into processes. Async scheduling hides "
        .. "that work: it schedules the next step while the GPU runs the current one, by "
        .. "default since 0.14.",

  points = {
    point { "the API server tokenises; the engine core is a separate process", weight = 2,
            about = {"API server", "front end", "frontend", "AsyncLLM", "the server",
                     "FastAPI", "HTTP server", "chat request"},
            said = {"tokenis", "tokeniz", "chat template", "separate process",
                    "sends it to the engine", "over ZMQ", "hands it to the engine",
                    "ships it to the engine", "renders the messages"} },
    point { "the engine core's busy loop: schedule, execute, sample, update", weight = 2,
            about = {"engine core", "EngineCore", "busy loop", "the engine", "each step",
                     "the scheduler", "every step"},
            said = {"schedule", "scheduler", "busy loop", "execute", "step", "loops",
                    "queues it", "admits it", "picks it up", "runs the forward pass"} },
    point { "the step that finishes the prefill samples the first token", weight = 2,
            about = {"first token", "prefill", "the last prefill step", "last chunk",
                     "the sampler"},
            said = {"sampled", "samples", "comes out of", "prefill step", "end of the prefill",
                    "picks the first token", "produces the first token", "first token"} },
    point { "tokens are detokenised in the API server and streamed as SSE",
            about = {"API server", "output processor", "OutputProcessor", "output handler",
                     "front end", "frontend", "AsyncLLM", "the server"},
            said = {"detokenis", "detokeniz", "streamed", "SSE", "server-sent", "stream"} },
    point { "TTFT = queueing + prefill + output path and network", weight = 2,
            about = {"TTFT", "time to first token"},
            said = {"queue", "waiting", "prefill", "network", "detokenis", "detokeniz",
                    "frontend", "front end", "return path"} },
    point { "small model: per-step CPU work is comparable to the GPU step", weight = 2,
            about = {"small model", "tiny model", "CPU", "overhead", "Python", "scheduling",
                     "GPU step", "GPU work"},
            said = {"bottleneck", "comparable", "large share", "under a millisecond", "GPU waits",
                    "GPU idle", "GPU idles", "sits idle", "dominates", "fixed cost", "stays fixed",
                    "waiting on the CPU", "waits on the CPU", "does not shrink", "slow part",
                    "sets the rate", "sets the pace", "tiny", "shorter than", "so fast",
                    "as large as", "CPU-bound", "CPU bound"} },
    point { "async scheduling overlaps the next step's CPU work with the GPU's",
            about = {"async scheduling", "asynchronous scheduling", "AsyncScheduler", "overlap"},
            said = {"overlap", "while the GPU", "next step", "ahead", "hides"} },
  },
  misconceptions = {
    misconception { about = {"a new request", "new requests", "the request", "a request"},
                    said = {"waits until every sequence has finished", "waits for the current batch to finish", "waits until the batch finishes",
                            "until every sequence in the current batch has finished", "waits for the batch to finish",
                            "waits for the batch to drain", "waits until every sequence in the batch"},
                    unless = {"current step", "batch's step", "step to end", "step to finish", "next step", "current iteration", "iteration to end", "forward pass in flight", "current forward pass"},
                    why = "vLLM schedules every step: a waiting request joins the running batch at the next step if its blocks and the token budget allow (Scheduler.schedule), with no wait for the batch to drain" },
    misconception { about = {"TTFT", "time to first token"},
                    said = {"reloading the weights", "loading the weights", "copying the weights"},
                    unless = {"adapter", "LoRA", "cold start", "scale from zero", "scale-from-zero", "sleep mode", "wake"},
                    why = "the weights are loaded once at start-up and stay in GPU memory; TTFT is queueing, the prompt's prefill and the server's own CPU work" },
    misconception { about = {"the weights", "weights", "they"},
                    said = {"copied through host memory", "streamed from host RAM", "streamed from host memory", "pulled over PCIe every step", "copied over PCIe every step"},
                    unless = {"offload", "cpu-offload", "cpu_offload", "UVA", "if offloaded"},
                    why = "by default the weights stay in GPU memory from load onwards; nothing is copied from the host per request or per step (only --cpu-offload-gb, off by default, streams some from host memory)" },
    misconception { about = {"first token", "TTFT"},
                    said = {"first decode step", "after the first decode", "separate decode step",
                            "one decode step after the prefill"},
                    why = "the step that computes the prompt's last chunk also samples the first token; the first decode step produces the second" },
    misconception { about = {"engine core", "EngineCore", "GPU worker", "the GPU", "model runner",
                             "the worker", "the workers", "the core", "engine core process"},
                    said = {"detokenis", "detokeniz", "tokenis", "tokeniz",
                            "applies the chat template"},
                    why = "in vLLM V1's server, tokenisation and detokenisation run in the API server process (AsyncLLM's input and output processors); the engine core handles token ids only" },
    misconception { about = {"async scheduling", "asynchronous scheduling"},
                    said = {"off by default", "not on by default", "not enabled by default",
                            "disabled by default", "default is off", "must be enabled",
                            "must enable", "have to enable", "is opt-in", "still opt-in"},
                    why = "since vLLM 0.14.0 async scheduling is on by default where compatible; --async-scheduling is only needed on older releases" },
    misconception { about = {"API server", "front end", "frontend"},
                    said = {"runs the scheduler", "runs the prefill", "prefill itself",
                            "runs the model", "does the prefill"},
                    why = "the API server only handles HTTP, templates, tokenisation and detokenisation; scheduling and every forward pass, prefill and decode, run in the engine core" },
    misconception { about = {"engine core", "EngineCore"},
                    said = {"only does decode", "only decode", "only decodes"},
                    why = "the engine core runs prefill and decode alike, often in the same step" },
  },

  sections = {
    section {
      title = "Two processes and a socket",
      text = "`vllm serve` runs the OpenAI-compatible HTTP server and AsyncLLM in one process "
          .. "and the engine core in another. A chat request is handled by "
          .. "OpenAIServingChat._create_chat_completion: render_chat_request applies the chat "
          .. "template and yields the prompt's token ids, then it builds the sampling "
          .. "parameters and calls engine_client.generate (AsyncLLM.add_request tokenises only "
          .. "a prompt that arrives as raw text, with process_inputs_async so as not to block "
          .. "the event loop). AsyncLLM registers the request with the OutputProcessor, which "
          .. "lives in this process, "
          .. "and sends an EngineCoreRequest to the engine core (the comments in _add_request "
          .. "say \"this process\" and \"separate process\"). In the engine core, an input "
          .. "thread (process_input_sockets) reads ZMQ sockets, decodes msgpack and puts the "
          .. "request on an input queue; an output thread (process_output_sockets) encodes and "
          .. "sends results back. Only the socket I/O truly runs beside the busy loop: the "
          .. "threads share the process's GIL, so msgpack decoding and preprocess_add_request "
          .. "(building the Request, hashing its blocks) still take turns with it. On one GPU "
          .. "there is no third process: ParallelConfig picks the \"uni\" executor at world "
          .. "size 1, so the model runner runs inside the engine-core process, sharing its GIL "
          .. "with the scheduler; worker processes (MultiprocExecutor) appear when TP × PP or "
          .. "data parallelism makes the world larger than one. The split scales out too: --api-server-count runs several front-end "
          .. "processes when one API server is the pegged core, and data parallelism runs one "
          .. "engine-core process per rank, each with its own CPU core (a dense model's ranks "
          .. "run as independent engine cores; DPEngineCoreProc, which keeps ranks in lockstep, "
          .. "is for MoE models).",
    },
    section {
      title = "The busy loop and one step",
      text = "EngineCoreProc.run_busy_loop does two things over and over: drain the input "
          .. "queue (blocking only when there is no work), then run one engine step and put "
          .. "its outputs on the output queue. The step function is step_with_batch_queue by "
          .. "default in 0.26 (async scheduling, below); the plain synchronous one, "
          .. "EngineCore.step, shows the parts in order. It calls scheduler.schedule(), which "
          .. "picks the requests and tokens for this iteration within max_num_batched_tokens, "
          .. "the continuous-batching rules of Part 0; hands the SchedulerOutput to the "
          .. "executor, whose model runner runs the forward pass; while it runs, the core "
          .. "builds any structured-output grammar bitmask (get_grammar_bitmask, CPU work); "
          .. "then sample_tokens samples the next ids; last, the core calls "
          .. "scheduler.update_from_output, which appends each sampled token, checks stop "
          .. "conditions (check_stop: min_tokens first, then EOS, stop token ids, max_model_len, "
          .. "max_tokens, and repetition detection where asked) and frees finished requests. "
          .. "Since 0.25.0 a dense model runs Model Runner V2 (vllm/v1/worker/gpu/"
          .. "model_runner.py; the V1 runner, gpu_model_runner.py, before it): execute_model "
          .. "prepares positions, sequence lengths, input ids and block-table writes on the GPU, "
          .. "runs the model, keeps only the hidden states and returns nothing; sample_tokens "
          .. "computes the logits at the positions that sample, samples, and copies the ids to "
          .. "the host asynchronously. A request whose prompt is still being prefilled gets no "
          .. "token; the step that computes its last prompt chunk samples its first token.",
    },
    section {
      title = "Back to the client",
      text = "AsyncLLM's output_handler, a background asyncio task in the API server process, "
          .. "pulls EngineCoreOutputs from the socket and runs OutputProcessor.process_outputs "
          .. "on them in chunks, yielding to the event loop between chunks. That function "
          .. "detokenises the new ids incrementally, checks stop strings (a stop string found "
          .. "here is sent back to the core as an abort, because the core only sees ids), and "
          .. "puts a RequestOutput on the request's queue. generate() yields it, and "
          .. "chat_completion_stream_generator turns it into a `data: {...}` SSE chunk. "
          .. "stream_interval (default 1) sets how many tokens the output processor gathers "
          .. "per request (RequestState.sent_tokens_offset) before it puts an output on the "
          .. "queue: the engine core still sends every step's ids, so a larger value cuts the "
          .. "API server's per-token work, not the busy loop's, at the cost of smoothness. "
          .. "Under load one SSE chunk can carry several tokens even at 1: generate() merges "
          .. "the delta outputs that queued up while it was busy.",
    },
    section {
      title = "Where TTFT goes",
      text = "TTFT is the queue (the request waits until a step admits it: a step already in "
          .. "flight, a full token budget, max_num_seqs already running, the policy's order, "
          .. "FCFS by default or priority, or too few free KV blocks for its whole prompt: the "
          .. "full-sequence admission gate, scheduler_reserve_full_isl, on by default in 0.26, "
          .. "its first release undated; with this small model's large cache it never binds "
          .. "here), then the prefill, one step or "
          .. "several chunks, the last of which samples the first token, then the trip back: "
          .. "IPC, detokenisation, the SSE write and the network. On an idle H100, a "
          .. grouped(PROMPT) .. "-token prompt of Qwen2.5-0.5B (" .. f(small.params, 3) .. " "
          .. "billion parameters) is 2 × " .. f(small.params, 3) .. "e9 × " .. grouped(PROMPT)
          .. " FLOPs at the simulator's achieved " .. f(light.tflops, 2) .. " TFLOP/s, "
          .. f(prefill_ms, 2) .. " ms, plus the engine's " .. f(light.overhead_ms, 1) .. " ms a "
          .. "step: about " .. f(idle_ttft_ms, 2) .. " ms. That rule over-counts a prefill: "
          .. "the tied embedding / LM head (151,936 × " .. grouped(small.hidden) .. ", "
          .. f(embed_share, 0) .. "% of this model's parameters) is a lookup for the prompt's "
          .. "tokens, and vLLM computes logits only where a token is sampled, so the body's "
          .. "prefill is nearer " .. f(body_prefill_ms, 2) .. " ms and the TTFT "
          .. f(body_ttft_ms, 2) .. " ms. Qwen2.5-7B unties the two, each "
          .. f(large_head_share, 0) .. "% of its parameters, so there the rule over-counts "
          .. "by about " .. f(2 * large_head_share, 0) .. "%; the "
          .. "simulator's 2 × parameters × tokens has the same bias. A prefix-cache hit, on "
          .. "by default in V1, cuts the prefill further. kvtutor sim, at " .. LIGHT.request_rate
          .. " requests a second, gives a median TTFT of " .. f(light.median_ttft_ms, 2)
          .. " ms (p99 " .. f(light.p99_ttft_ms, 2) .. " ms): the roofline figure plus attention "
          .. "and the wait for a step already running. At " .. BUSY.request_rate .. " requests "
          .. "a second, " .. f(busy_share, 0) .. "% of the " .. f(cap.request_throughput, 0)
          .. " a second it completes with every request sent at once, the median is "
          .. f(busy.median_ttft_ms, 2) .. " ms and the p99 " .. f(busy.p99_ttft_ms, 2) .. " ms: "
          .. "prompts now share steps with " .. f(busy.mean_running, 0) .. " running requests "
          .. "on average. None of this counts tokenisation, detokenisation, HTTP or the "
          .. "network, which the simulator does not model: they come on top of these "
          .. "figures.",
    },
    section {
      title = "When the CPU is the bottleneck",
      text = "Every step has CPU work that does not shrink with the model: scheduling, "
          .. "building the inputs, launching the graph, update_from_output, and in the other "
          .. "process detokenising and streaming every token. kvtutor's simulator charges a "
          .. "fixed " .. f(light.overhead_ms, 1) .. " ms a step for it (SIM_STEP_OVERHEAD_S, a "
          .. "constant fitted to published benchmarks of 7B and larger models from mixed or "
          .. "unknown releases, some probably with async scheduling on: a residual that may be "
          .. "net of overlap, not a measurement of raw CPU time). Qwen2.5-0.5B's "
          .. "weights are " .. f(small_calc.weights_bytes / 1e9, 2) .. " GB, so a light-load "
          .. "step's GPU part is " .. f(small_gpu, 2) .. " ms and the fixed part is "
          .. f(small_cpu_share, 0) .. "% of the " .. f(light.step_ms, 2) .. " ms step; for "
          .. "Qwen2.5-7B (" .. f(large_calc.weights_bytes / 1e9, 2) .. " GB) the GPU part is "
          .. f(large_gpu, 2) .. " ms and the same overhead only " .. f(large_cpu_share, 0)
          .. "%. Run one after the other, CPU and GPU time add up; on that constant the small "
          .. "model spends most of each step with the GPU waiting for Python. Read the "
          .. f(small_cpu_share, 0) .. "% as the constant's share, not a measured one: it shows "
          .. "the direction (the smaller the model, the larger the share), not its size.",
    },
    section {
      title = "Async scheduling, by release",
      text = "With async scheduling the engine core schedules step N+1 while the GPU runs step "
          .. "N. VllmConfig.max_concurrent_batches is then 2 (with pipeline parallelism 1: PP + 1 "
          .. "under Model Runner V2, 2 under the V1 runner), so "
          .. "EngineCore keeps a batch queue of two and runs step_with_batch_queue: it schedules "
          .. "and launches a batch without waiting, and blocks on the oldest one only when the "
          .. "queue is full or nothing more can be scheduled. The AsyncScheduler counts "
          .. "output placeholders for tokens not yet returned, so a request can be scheduled "
          .. "again before its last token is known. The GPU still runs one step at a time; "
          .. "what is hidden is the CPU's time between steps. If the overlap were complete a "
          .. "step would take the longer of the two parts, not their sum: for Qwen2.5-0.5B "
          .. f(small_overlap, 2) .. " ms instead of " .. f(light.step_ms, 2) .. " ms, and the "
          .. "GPU would still wait " .. f(small_idle, 0) .. "% of it, because the CPU part is "
          .. "the longer one; for Qwen2.5-7B " .. f(large_overlap, 2) .. " ms, GPU-bound. That "
          .. "is an estimate on the simulator's constant, which does not model the overlap "
          .. "and may already be net of some: the " .. f(small_idle, 0) .. "% is the "
          .. "constant's, not a measurement. The flag --async-scheduling was opt-in before "
          .. "0.14.0 (the release that first shipped it is undated here); 0.14.0's release "
          .. "notes made it the default (#27614), and the config leaves it None so that "
          .. "VllmConfig.__post_init__ turns it on unless something is incompatible: a "
          .. "pooling model, a speculative method it does not support, an executor backend "
          .. "without support. --no-async-scheduling turns it off.",
    },
  },

  worked = code(aligned({
    "idle TTFT, Qwen2.5-0.5B on an H100, 1,024-token prompt (kvtutor sim's achieved peaks)",
    {"  prefill   ", "2 × " .. f(small.params, 3) .. "e9 × 1,024 ÷ " .. f(light.tflops, 2) .. "e12",
     f(prefill_ms, 2) .. " ms"},
    {"  + engine  ", f(light.overhead_ms, 1) .. " ms a step", f(idle_ttft_ms, 2) .. " ms"},
    "  logits only where sampled: the body, " .. f(small.params, 3) .. "e9 − "
      .. f(embed_params / 1e9, 3) .. "e9 tied head",
    {"  prefill   ", "2 × " .. f(small.params - embed_params / 1e9, 3) .. "e9 × 1,024 ÷ "
      .. f(light.tflops, 2) .. "e12", f(body_prefill_ms, 2) .. " ms"},
    {"  + engine  ", f(light.overhead_ms, 1) .. " ms a step", f(body_ttft_ms, 2) .. " ms TTFT"},
    {"  sim       ", "median TTFT at " .. LIGHT.request_rate .. " req/s",
     f(light.median_ttft_ms, 2) .. " ms (p99 " .. f(light.p99_ttft_ms, 2) .. ")"},
    {"            ", "median TTFT at " .. BUSY.request_rate .. " req/s (" .. f(busy_share, 0)
      .. "% of " .. f(cap.request_throughput, 0) .. ")",
     f(busy.median_ttft_ms, 2) .. " ms (p99 " .. f(busy.p99_ttft_ms, 2) .. ")"},
    {"  Little    ", f(busy.request_throughput, 1) .. " req/s × " .. f(busy.mean_e2el_ms, 1) .. " ms",
     f(busy_in_flight, 1) .. " in flight", "≈"},
    "one light-load step: GPU part + fixed engine part",
    "  0.5B      " .. f(small_gpu, 2) .. " + " .. f(light.overhead_ms, 1) .. " = " .. f(light.step_ms, 2)
      .. " ms, engine " .. f(small_cpu_share, 0) .. "%; overlapped max = " .. f(small_overlap, 2) .. " ms",
    "  7B        " .. f(large_gpu, 2) .. " + " .. f(large.overhead_ms, 1) .. " = " .. f(large.step_ms, 2)
      .. " ms, engine " .. f(large_cpu_share, 0) .. "%; overlapped max = " .. f(large_overlap, 2) .. " ms",
  })),

  followups = {
    followup {
      question = "A user says time to first token is too high on a lightly loaded server. "
              .. "Break TTFT down: what is in it, and which parts does vLLM's own scheduler "
              .. "control?",
      answer = "Before the engine: the HTTP request, the chat template and tokenisation in "
            .. "the API server, and the hop over ZMQ to the engine core. In the engine: the "
            .. "wait until a step admits the request (a step already running, the token "
            .. "budget, free KV blocks), then the prefill, one step or several chunks; the step "
            .. "that computes the prompt's last chunk samples the first token. After it: the "
            .. "hop back, detokenisation, the SSE chunk and the network. The scheduler controls "
            .. "the queueing (token budget, max_num_seqs, FCFS or priority order, KV blocks), "
            .. "how the prefill is chunked and, with prefix caching (on by default in V1), how "
            .. "much of the prompt it can skip; the rest of the prefill is set by the prompt and "
            .. "the GPU's compute. On a light load the queue is short, so look at the prefill "
            .. "and the front end first.",
      points = {
        point { "queueing until a step admits the request", weight = 2,
                about = {"the scheduler", "scheduler", "the wait", "queue"},
                said = {"admits", "admission", "controls the queue", "queue wait", "waiting",
                        "owns the queue"},
                accept = {"queue", "queueing", "waiting to be scheduled", "admission",
                          "wait to be admitted", "waiting for a slot"} },
        point { "the prefill, whose last step samples the first token", weight = 2,
                about = {"prefill", "the prompt", "prompt processing"},
                said = {"compute", "FLOPs", "chunk", "steps", "samples the first token",
                        "first token", "GPU"},
                accept = {"prefill", "processing the prompt", "prompt processing"} },
        point { "tokenisation and detokenisation in the API server",
                accept = {"tokenis", "tokeniz", "detokenis", "detokeniz", "chat template"} },
        point { "the network and the SSE stream",
                accept = {"network", "SSE", "server-sent", "HTTP", "streaming"} },
      },
      misconceptions = {
        misconception { about = {"first token", "TTFT"},
                        said = {"first decode step", "after the first decode", "separate decode step"},
                        why = "no decode step is needed: the step that computes the prompt's last chunk samples the first token" },
        misconception { about = {"TTFT", "time to first token"},
                        said = {"memory-bound", "set by the decode"},
                        why = "a prompt's prefill is compute-bound; decode's memory-bound step sets TPOT, not TTFT" },
        misconception { about = {"TTFT", "time to first token", "lightly loaded", "light load"},
                        said = {"all queueing", "mostly queueing", "dominated by queueing",
                                "all queue", "max_num_seqs will fix", "raising max_num_seqs",
                                "raise max_num_seqs"},
                        why = "on a lightly loaded server the queue is nearly empty: TTFT is mostly the prefill and the front end, and max_num_seqs, a cap on the running batch, is not what binds" },
        misconception { about = {"TTFT", "time to first token", "scheduler"},
                        said = {"loading the model weights", "loading the weights", "weight loading",
                                "loads the weights", "weights of recently used models"},
                        why = "the weights are loaded once, at start-up; a request never waits for them" },
      },
    },
    followup {
      question = "What does async scheduling change in vLLM, and is it on by default?",
      answer = "It lets the engine core schedule and launch step N+1 while the GPU runs step "
            .. "N: max_concurrent_batches becomes 2, the core keeps a batch queue of two "
            .. "(step_with_batch_queue) and the AsyncScheduler tracks placeholders for tokens "
            .. "not yet returned. The GPU still runs one step at a time; the CPU's scheduling "
            .. "and input preparation are hidden behind it. It has been on by default since "
            .. "vLLM 0.14.0: the setting defaults to None and the config turns it on unless "
            .. "something is incompatible, such as a pooling model, an unsupported speculative "
            .. "method or executor; --no-async-scheduling turns it off.",
      points = {
        point { "it overlaps the next step's CPU work with the current GPU step", weight = 3,
                about = {"async scheduling", "it", "the engine core", "the scheduler", "overlap"},
                said = {"overlap", "while the GPU", "next step", "ahead", "hides", "in parallel with",
                        "schedules step", "step n+1", "during step", "behind the GPU",
                        "batch n+1", "while the gpu is still", "does not wait for the GPU",
                        "pipelines"},
                accept = {"overlap", "step n+1", "schedules the next step"} },
        point { "two batches in flight: a batch queue of two",
                about = {"batches", "batch queue", "max_concurrent_batches", "queue"},
                said = {"two", "2", "step_with_batch_queue", "in flight"} },
        point { "on by default since 0.14, unless incompatible", weight = 2, polarity = "yes",
                about = {"default", "it", "async scheduling"},
                said = {"0.14", "on by default", "enabled by default", "default since",
                        "unless incompatible", "no-async-scheduling"} },
      },
      misconceptions = {
        misconception { about = {"async scheduling", "it", "the GPU"},
                        said = {"two steps at once", "two batches on the GPU at once", "doubles the batch",
                                "runs batches concurrently on the GPU"},
                        why = "the GPU runs one step at a time; the second batch is scheduled and queued so that the CPU's work between steps is hidden" },
        misconception { about = {"async scheduling", "it"},
                        said = {"asyncio", "HTTP server", "async HTTP", "the API server's event loop"},
                        why = "async scheduling is about the engine core's step loop (scheduling step N+1 during step N), not about the API server's asyncio handling" },
        misconception { about = {"async scheduling", "it"},
                        said = {"off by default", "not on by default", "not enabled by default",
                                "disabled by default", "default is off", "must be enabled",
                                "must enable", "have to enable", "needs the flag", "is opt-in",
                                "still opt-in", "--async-scheduling is required"},
                        why = "since vLLM 0.14.0 it is on by default where compatible; --async-scheduling is only needed on older releases" },
      },
    },
    followup {
      question = "You serve a 0.5B model on an H100. GPU utilisation is low and one CPU core "
              .. "sits at 100%. Why, and what would you try?",
      answer = "The GPU part of a step is well under a millisecond for a model that small, "
            .. "while the engine core's Python work per step (scheduling, input preparation, "
            .. "processing outputs) and the API server's per-token work (detokenising, "
            .. "building SSE chunks) do not shrink with the model, so the GPU waits for the "
            .. "CPU. Find which process is pegged (engine core or API server, with top or "
            .. "py-spy). Keep async scheduling on so that scheduling overlaps the GPU step; "
            .. "keep CUDA graphs on (no --enforce-eager), since a 24-layer 0.5B model is "
            .. "launch-bound; raise the batch (more concurrency) so each step's fixed cost is "
            .. "shared by more tokens; if the API server is the hot one, run more of them with "
            .. "--api-server-count and raise stream_interval to send outputs less often. "
            .. "Tensor parallelism or a bigger GPU does not help a CPU-bound engine; "
            .. "data-parallel replicas can, since each runs its own engine-core process.",
      points = {
        point { "the GPU step is tiny, so per-step CPU work dominates", weight = 3,
                about = {"CPU", "Python", "overhead", "scheduling", "the GPU step", "engine core",
                         "small model", "GPU", "serving loop", "the loop"},
                said = {"dominates", "bottleneck", "waits", "tiny", "under a millisecond",
                        "comparable", "does not shrink", "fixed cost", "idle", "CPU-bound",
                        "CPU bound", "shorter than", "sets the pace", "sets the rate"} },
        point { "keep async scheduling on to overlap it",
                about = {"async scheduling", "asynchronous scheduling", "overlap"},
                said = {"overlap", "keep", "on", "enable", "hides"},
                accept = {"async scheduling", "asynchronous scheduling"} },
        point { "keep CUDA graphs on: no eager mode",
                accept = {"CUDA graph", "cudagraph", "enforce-eager", "enforce_eager",
                          "eager mode"} },
        point { "find the pegged process; more API servers if it is the front end",
                accept = {"api-server-count", "api server count", "more API server",
                          "several API server", "py-spy", "which process"} },
        point { "bigger batches share the per-step cost",
                about = {"batch", "concurrency", "more requests", "more sequences",
                         "concurrent requests"},
                said = {"bigger", "larger", "raise", "share", "amortis", "more", "push",
                        "increase"} },
        point { "stream_interval cuts per-token output overhead",
                accept = {"stream_interval", "stream interval", "stream-interval"} },
      },
      misconceptions = {
        misconception { about = {"the weights", "weights", "they", "small weights"},
                        said = {"streamed from host RAM", "streamed from host memory", "from CPU memory every step", "over PCIe every step", "don't fill whole GPU memory pages"},
                        unless = {"offload", "cpu-offload", "cpu_offload", "UVA", "if offloaded"},
                        why = "by default the weights stay in GPU memory (only --cpu-offload-gb, off by default, streams some from the host); a 0.5B model's GPU step is so short that the CPU's per-step work (scheduling, preparing inputs, detokenising) sets the pace" },
        misconception { about = {"int4", "quantizing", "quantising", "quantisation", "quantization", "quantizing to int4"},
                        said = {"fixes it", "fixes the CPU", "solves it"},
                        why = "quantising shortens GPU work that is already short; the bottleneck is the CPU side of each step" },
        misconception { about = {"tensor parallel", "a bigger GPU", "tensor parallelism",
                                 "a faster GPU", "a larger GPU"},
                        said = {"fixes", "helps", "solves", "speeds it up"},
                        why = "the GPU is already waiting on the CPU; tensor parallelism only adds communication to a step the CPU is holding back (data-parallel replicas are different: each has its own engine-core process)" },
        misconception { about = {"the model", "the GPU", "the bottleneck", "throughput"},
                        said = {"memory-bandwidth bound", "memory-bound", "HBM bandwidth"},
                        why = "a 0.5B model on an H100 reads its weights in a fraction of a millisecond; with the GPU mostly idle and a CPU core pegged, the CPU sets the pace, not HBM" },
        misconception { about = {"async scheduling"},
                        said = {"turn off", "disable", "slows"},
                        why = "async scheduling is what hides the CPU's per-step work behind the GPU's; turning it off makes a CPU-bound engine slower" },
      },
    },
  },

  exercises = {
    numeric {
      id = "cpu-share",
      prompt = "A decode step at batch 1 of a model whose BF16 weights are {weights_gb} "
            .. "GB (10^9 bytes) reads them once from an H100 streaming {bw} GB/s (ignore the "
            .. "KV cache and compute). The engine spends {cpu_ms} ms of CPU per step, not "
            .. "overlapped with the GPU. What percentage of the step is the CPU's?",
      -- the BF16 weights of Qwen2.5-0.5B, Llama-3.2-1B, Qwen2.5-1.5B, Qwen2.5-7B and
      -- Llama-3.1-8B, from kv.calc, to two decimals
      params = { weights_gb = share_gb,
                 bw = {2000, 2500, 3000},
                 cpu_ms = {0.5, 0.7, 1.0} },
      expected = function(p)
        local w = tonumber(p.weights_gb) * 1e9
        local gpu = w / (p.bw * 1e9) * 1000
        local share = p.cpu_ms / (p.cpu_ms + gpu) * 100
        return share, "GPU   " .. grouped(w) .. " B ÷ " .. grouped(p.bw) .. " GB/s = "
          .. f(gpu, 3) .. " ms\n"
          .. "step  " .. f(gpu, 3) .. " + " .. f(p.cpu_ms, 1) .. " = " .. f(gpu + p.cpu_ms, 3)
          .. " ms\n"
          .. "CPU   " .. f(p.cpu_ms, 1) .. " ÷ " .. f(gpu + p.cpu_ms, 3) .. " = "
          .. f(share, 1) .. "%"
      end,
      unit = "%", tolerance = rel(0.03),
      hints = { "The GPU time is the weights' bytes over the bandwidth.",
                "Synchronous: the step is the GPU time plus the CPU time." },
    },
    numeric {
      id = "idle-ttft",
      prompt = "On an idle H100, Qwen2.5-0.5B (" .. f(small.params, 3) .. " billion "
            .. "parameters) prefills a " .. grouped(PROMPT) .. "-token prompt in one step at an "
            .. "achieved " .. f(light.tflops, 2) .. " TFLOP/s, 2 FLOPs per parameter per token, "
            .. "and the engine adds " .. f(light.overhead_ms, 1) .. " ms to the step. Ignoring "
            .. "attention, tokenisation and the network, what is the TTFT in ms?",
      expected = idle_ttft_ms, unit = "ms", tolerance = rel(0.03),
      worked = code("prefill  2 × " .. f(small.params, 3) .. "e9 params × " .. grouped(PROMPT) .. " tokens = "
        .. f(2 * small.params * PROMPT / 1e3, 3) .. "e12 FLOPs\n"
        .. "         ÷ " .. f(light.tflops, 2) .. "e12 FLOP/s = " .. f(prefill_ms, 2) .. " ms, one step\n"
        .. "TTFT     " .. f(prefill_ms, 2) .. " + " .. f(light.overhead_ms, 1) .. " ms engine = "
        .. f(idle_ttft_ms, 2) .. " ms\n"
        .. "         (that step samples the first token: no decode step in it)"),
      hints = { "The step that finishes the prefill samples the first token: no decode step.",
                "2 × parameters × tokens ÷ FLOP/s, plus the engine's time (the rule the "
                .. "prompt gives; the section says what it over-counts)." },
    },
    numeric {
      id = "busy-in-flight",
      prompt = "kvtutor sim serves Qwen2.5-0.5B on an H100 at " .. BUSY.request_rate
            .. " requests/s (1,024 in, 128 out) and reports a request throughput of "
            .. f(busy.request_throughput, 1) .. " requests/s and a mean end-to-end latency of "
            .. f(busy.mean_e2el_ms, 1) .. " ms. How many requests are in flight on average?",
      expected = busy_in_flight, unit = "requests", tolerance = rel(0.03),
      worked = code("Little's law  in flight L = throughput λ × time in the system W\n"
        .. "λ             what passes through: " .. grouped(busy.completed) .. " done ÷ "
        .. f(busy.duration_s, 3) .. " s run = " .. f(busy.request_throughput, 1) .. " req/s,\n"
        .. "              not the " .. BUSY.request_rate .. "/s offered: arrivals end at "
        .. grouped(BUSY.num_prompts) .. " ÷ " .. BUSY.request_rate .. " = "
        .. f(BUSY.num_prompts / BUSY.request_rate, 3) .. " s,\n"
        .. "              then the run drains\n"
        .. "W             " .. f(busy.mean_e2el_ms, 1) .. " ms ÷ 1,000 = " .. f(busy.mean_e2el_ms / 1000, 4) .. " s\n"
        .. "L             " .. f(busy.request_throughput, 1) .. " req/s × " .. f(busy.mean_e2el_ms / 1000, 4)
        .. " s = " .. f(math.floor(busy.request_throughput * 10 + 0.5) / 10
                   * (math.floor(busy.mean_e2el_ms * 10 + 0.5) / 1e4), 2)
        .. " (the prompt's figures)\n"
        .. "              unrounded " .. f(busy.request_throughput, 2) .. " × " .. f(busy.mean_e2el_ms / 1000, 5)
        .. " s = " .. f(busy_in_flight, 2) .. " ≈ " .. f(busy_in_flight, 1) .. " requests"),
      serving = BUSY,
      hints = { "Little's law: L = λ × W.", "Convert the latency to seconds first." },
    },
    choice {
      id = "who-detokenises",
      prompt = "In `vllm serve` (V1 engine), which process turns sampled token ids into the "
            .. "text of an SSE chunk?",
      options = {
        option { "The API server process: AsyncLLM's OutputProcessor detokenises", correct = true,
                 why = "the output handler in the API server runs OutputProcessor.process_outputs, which detokenises and checks stop strings" },
        option { "The engine core process, in update_from_output",
                 why = "update_from_output works on token ids: it appends them and checks stop tokens and lengths, not text" },
        option { "The GPU worker, right after sampling",
                 why = "the worker returns token ids; text is made in the front end" },
        option { "The client: vLLM streams token ids",
                 why = "the OpenAI-compatible server streams text deltas" },
      },
    },
    choice {
      id = "batches-in-flight",
      prompt = "`vllm serve` of a plain decoder-only model on one GPU, no scheduling flags, "
            .. "vLLM 0.26. How many scheduled batches can the engine core have in flight?",
      options = {
        option { "2: async scheduling is on by default and gives a batch queue of two", correct = true,
                 why = "async_scheduling resolves to True and max_concurrent_batches is 2 at pipeline-parallel size 1 (PP + 1 under Model Runner V2, the dense default since 0.25.0; 2 under the V1 runner), so the core runs step_with_batch_queue" },
        option { "1: each step waits for the previous one",
                 why = "that is the synchronous path, used when async scheduling is off (before 0.14.0, or with --no-async-scheduling)" },
        option { "max_num_seqs of them",
                 why = "max_num_seqs caps the requests in one batch, not the batches in flight" },
        option { "As many as the pipeline-parallel size, here 1",
                 why = "with async scheduling and PP 1, max_concurrent_batches is 2" },
      },
    },
    freetext {
      id = "why-two-processes",
      prompt = "Why does vLLM V1 run the API server and the engine core as separate processes? "
            .. "Two or three sentences.",
      answer = "The engine core's busy loop drives the GPU: every millisecond it spends on "
            .. "something else is a millisecond the GPU may wait. HTTP handling, chat "
            .. "templates, tokenisation, detokenisation and SSE streaming are Python work that "
            .. "grows with requests and tokens, and under Python's GIL, in one process, that "
            .. "work would compete with the loop for the interpreter; so they run in the API "
            .. "server process, in parallel on another core, and the two talk over ZMQ, with "
            .. "the core's socket I/O on its own threads.",
      points = {
        point { "keep the busy loop that drives the GPU free of other work", weight = 2,
                about = {"engine core", "busy loop", "the loop", "GPU", "scheduler",
                         "model execution", "engine loop"},
                said = {"not blocked", "never blocked", "not stalled", "never stalled", "free of",
                        "keep busy", "isolat", "uninterrupted", "off the", "does not wait",
                        "separate from", "away from", "instead of blocking", "never makes the GPU wait",
                        "may wait", "idle between steps", "overlap", "steal", "compete",
                        "fight", "slow down"} },
        point { "the GIL: in one process that work would compete with the loop", weight = 3,
                about = {"GIL", "global interpreter lock", "interpreter", "one process",
                         "same process", "that Python work", "front-end work", "frontend work"},
                said = {"compete", "steal", "fight", "contend", "take turns", "one thread at a time",
                        "block the loop", "stall", "in parallel", "on another core",
                        "on different cores", "concurrently", "avoidance", "boundary",
                        "at the same time", "stops one process"} },
        point { "tokenisation, detokenisation and streaming are CPU work in the front end", weight = 2,
                about = {"tokenis", "tokeniz", "detokenis", "detokeniz", "streaming", "HTTP",
                         "API server", "front end", "frontend", "front stage"},
                said = {"CPU", "Python", "separate process", "front end", "API server",
                        "other process", "token ids", "run concurrently", "in parallel",
                        "overlap with model execution"} },
        point { "they communicate over ZMQ",
                accept = {"zmq", "zeromq", "socket", "ipc", "msgpack"} },
      },
      misconceptions = {
        misconception { about = {"engine core", "EngineCore", "the core"},
                        said = {"tokenis", "tokeniz", "detokenis", "detokeniz"},
                        why = "the engine core works on token ids only; tokenisation and detokenisation run in the API server process" },
        misconception { about = {"API server", "both", "each", "both processes", "front end"},
                        said = {"run model kernels", "CUDA stream", "use the GPU", "runs kernels",
                                "launch kernels"},
                        why = "only the engine core (and its workers) touches the GPU; the API server does HTTP, templates and (de)tokenisation on the CPU" },
        misconception { about = {"GIL"},
                        said = {"one process use the GPU", "access to the GPU", "the GPU at a time",
                                "does not affect", "no effect", "irrelevant"},
                        why = "the GIL serialises Python threads inside one process; it says nothing about the GPU, and it is why front-end work in the engine's process would slow the loop" },
        misconception { about = {"API server", "front end", "frontend"},
                        said = {"does the batching", "do the batching", "batches the requests", "collects",
                                "forms the batch", "ships the whole batch", "into a batch"},
                        why = "the API server sends each request on its own; batching is the engine core's scheduler's job, step by step" },
        misconception { about = {"it", "the split", "separate processes", "performance"},
                        said = {"purely for fault isolation", "only for fault isolation",
                                "same either way", "just for fault isolation"},
                        why = "the split is for performance: front-end Python work would otherwise compete with the busy loop under the GIL" },
      },
    },
  },
}
