-- Part 1 · Serving systems and engines: disaggregated prefill and decode. Prefill's
-- compute-bound chunks stall the decodes that share their steps; running the two phases
-- on separate instances removes the stall and lets each pick its own parallelism, at the
-- price of shipping every prompt's KV cache from one to the other.

local MODEL, GPU = "llama-3.1-8b", "h100"
local m = kv.model(MODEL)
local g = kv.gpu(GPU)
local c = kv.calc{model = MODEL, gpu = GPU}
local KVT = c.kv_bytes_per_token                     -- B a token, BF16
local PARAMS = m.params * 1e9
local PROMPT, OUT = 8192, 256                        -- the long-prompt workload
local SHORT_PROMPT = 128                             -- the same decode load, short prompts
local RATE, N = 2, 500                               -- requests/s, requests a run (the
                                                     -- serving view's count for 256-token replies)

-- The simulator's efficiency constants (docs/simulator.md, src/sim/sim_step.h): the share
-- of the data sheet's peak a prefill and a decode achieve. Used here, outside the
-- simulator, only to estimate what it does not model.
local COMPUTE_EFF, MEM_EFF, STEP_OVERHEAD_MS = 0.55, 0.65, 0.7

-- Links, GB/s one way, line rates: NVLink 4 and PCIe Gen5 x16 are half the H100 SXM data
-- sheet's bidirectional 900 and 128 GB/s (NVLink only inside one HGX node or NVLink-switch
-- domain); NDR InfiniBand is one ConnectX-7 port's 400 Gb/s (the ConnectX-7 user manual),
-- the usual per-GPU share between nodes.
local NVLINK, IB_NDR, PCIE5 = 450, 50, 64

-- The two runs: the same rate and replies, prompts of 128 or 8,192 tokens.
local short = {model = MODEL, gpu = GPU, input_len = SHORT_PROMPT, output_len = OUT,
               request_rate = RATE, num_prompts = N, seed = 0}
local long = {model = MODEL, gpu = GPU, input_len = PROMPT, output_len = OUT,
              request_rate = RATE, num_prompts = N, seed = 0}
local rs = kv.sim(short)
local rl = kv.sim(long)
-- The same long-prompt load with smaller token budgets (chunked prefill's own remedy).
local r2k = kv.sim{model = MODEL, gpu = GPU, input_len = PROMPT, output_len = OUT,
                   request_rate = RATE, num_prompts = N, seed = 0, max_num_batched_tokens = 2048}
local r512 = kv.sim{model = MODEL, gpu = GPU, input_len = PROMPT, output_len = OUT,
                    request_rate = RATE, num_prompts = N, seed = 0, max_num_batched_tokens = 512}
local r256 = kv.sim{model = MODEL, gpu = GPU, input_len = PROMPT, output_len = OUT,
                    request_rate = RATE, num_prompts = N, seed = 0, max_num_batched_tokens = 256}
-- Two colocated replicas sharing the same load: one of them at half the rate.
local rhalf = kv.sim{model = MODEL, gpu = GPU, input_len = PROMPT, output_len = OUT,
                     request_rate = RATE / 2, num_prompts = N, seed = 0}

-- One step carrying a whole 8,192-token chunk (vllm serve's H100 budget), compute-bound.
local TFLOPS_ACH = g.tflops * 1e12 * COMPUTE_EFF
local chunk_ms = 2 * PARAMS * 8192 / TFLOPS_ACH * 1000

-- What a prefill ships, and how fast.
local kv_req = KVT * PROMPT                          -- B a request
local function xfer_ms(gbps) return kv_req / (gbps * 1e9) * 1000 end
local prefill_ms = 2 * PARAMS * PROMPT / TFLOPS_ACH * 1000
local prefill_tok_s = TFLOPS_ACH / (2 * PARAMS)      -- one GPU's prefill, tokens/s
local prefill_req_s = prefill_tok_s / PROMPT
local link_gbs = prefill_tok_s * KVT / 1e9           -- GB/s leaving one prefill GPU

-- An estimate, not a simulation: a decode-only instance fed RATE requests a second of OUT
-- tokens holds, by Little's law, RATE × OUT × step sequences; its step is the memory
-- roofline at the simulator's achieved bandwidth plus the engine time. Solve the two
-- together by iteration.
local CTX = PROMPT + OUT // 2
local function dec_step(batch)
  local d = kv.calc{model = MODEL, gpu = GPU, batch = batch, context = CTX,
                    bandwidth_gbps = g.bandwidth_gbps * MEM_EFF}
  return 1000 * batch / d.decode_tokens_per_s + STEP_OVERHEAD_MS
end
local dec_step_ms = dec_step(1)
for _ = 1, 20 do
  dec_step_ms = dec_step(math.max(1, math.floor(RATE * OUT * dec_step_ms / 1000 + 0.5)))
end
local BATCH = math.max(1, math.floor(RATE * OUT * dec_step_ms / 1000 + 0.5))
dec_step_ms = dec_step(BATCH)
-- The ridge point: the chunk size where a step turns compute-bound (2 FLOPs a parameter a
-- token against 2 B a BF16 parameter read, at the achieved peaks).
local RIDGE = (g.tflops * 1e12 * COMPUTE_EFF) / (g.bandwidth_gbps * 1e9 * MEM_EFF)

-- Llama-3.1-70B, 32k prompt: the follow-up on a cross-rack link.
local big = kv.calc{model = "llama-3.1-70b"}
local BIG_PROMPT = 32768
local big_gb = big.kv_bytes_per_token * BIG_PROMPT / 1e9

local function f(x, places) return fixed(x, places or 1) end
local itl_ratio = rl.p99_itl_ms / rs.p99_itl_ms

return lesson {
  id = "disaggregated-serving",
  title = "Disaggregated prefill and decode",
  module = "part1-serving",
  module_title = "Part 1 · Serving systems and engines",
  baseline = "vLLM 0.26 as the course baseline; the connector code was read at commits "
          .. "whose release was not identified, none of them the 0.26 tag, so every connector "
          .. "behaviour here is undated unless dated by a pull request: PR #30201 "
          .. "(SharedStorageConnector renamed ExampleConnector, merged 2025-12-08) and "
          .. "PR #35264 (NixlPullConnector and NixlPushConnector, NixlConnector the pull "
          .. "one, merged June 2026) both before the 0.26.0 release (July 2026), first "
          .. "release of each not identified; vllm/config/kv_transfer.py at 007c643 "
          .. "(KVTransferConfig: kv_connector, kv_role kv_producer|kv_consumer|kv_both, "
          .. "kv_connector_extra_config, kv_connector_module_path), "
          .. "vllm/distributed/kv_transfer/kv_connector/factory.py at 007c643 and a4cd9d0 "
          .. "(KVConnectorFactory.register_connector; _get_connector_class_with_compat loads "
          .. "an unregistered class from kv_connector_module_path), "
          .. "kv_connector/v1/base.py as its docstring stands in the API docs (KVConnectorBase_V1: scheduler side "
          .. "get_num_new_matched_tokens, update_state_after_alloc, request_finished; worker "
          .. "side start_load_kv, wait_for_layer_load, save_kv_layer, wait_for_save), "
          .. "kv_connector/v1/nixl_connector.py at 002a105 (NixlConnectorScheduler."
          .. "get_num_new_matched_tokens, update_state_after_alloc, request_finished; "
          .. "NixlConnector.wait_for_layer_load and save_kv_layer do nothing; request_finished "
          .. "delays the free only for a request FINISHED_LENGTH_CAPPED), "
          .. "p2p_nccl_connector.py (save_kv_layer sends each layer), "
          .. "Scheduler._update_waiting_for_remote_kv (the last prompt token left to "
          .. "compute), the toy proxy's max_tokens 1, vllm/envs.py "
          .. "(VLLM_NIXL_ABORT_REQUEST_TIMEOUT 480), "
          .. "docs/features/disagg_prefill.md; Zhong et al., DistServe (OSDI 2024), abstract "
          .. "(7.4× and 12.6×; arXiv v1 gave 4.48× and 10.2×) and §2, which points to §3.1 "
          .. "(a 512-token prefill of a 13B model on an A100); Patel et "
          .. "al., Splitwise (ISCA 2024), abstract; Qin et al., Mooncake: Trading More Storage "
          .. "for Less Computation (FAST 2025), abstract on the USENIX page; link rates from "
          .. "the NVIDIA H100 SXM data sheet (NVLink 900 GB/s, PCIe Gen5 128 GB/s, both directions together) and "
          .. "the NVIDIA ConnectX-7 user manual (NDR 400 Gb/s a port); the interference runs "
          .. "are kvtutor sim's (one replica, vLLM 0.26 defaults, docs/simulator.md)",
  concept = "disaggregated-serving",
  concept_title = "Disaggregated prefill and decode",
  requires = {"prefill-decode", "chunked-prefill", "latency"},
  links = {"prefill-decode", "chunked-prefill", "latency", "kv-cache", "tensor-parallel-kv"},

  question = "What is disaggregated prefill/decode serving, why would you run prefill and "
          .. "decode on separate GPUs, and what does it cost?",

  answer = "Prefill and decode run in separate engine instances: the prefill instance "
        .. "computes the prompt's KV cache, the cache is shipped over a link to a decode "
        .. "instance, and that one produces the tokens the user sees (in vLLM's examples the "
        .. "proxy asks the prefill for one token and drops it). It removes the "
        .. "interference of a shared GPU, where every step that carries a compute-bound "
        .. "prompt chunk stalls all the decodes in it, and lets each phase take its own "
        .. "parallelism and hardware, and its own number of instances. The cost is the "
        .. "transfer, the KV bytes per token times the prompt length over the link, added to "
        .. "TTFT (in full when the decode side pulls after the prefill, less when the "
        .. "connector pushes layer by layer), plus at least two instances each holding the "
        .. "weights, a router that pairs them, and a prefill-to-decode ratio to size; with "
        .. "short prompts or a small load it does not pay.",

  points = {
    point { "prefill and decode run on separate instances; the KV cache is shipped", weight = 2,
            about = {"prefill", "prefill and decode", "the two phases", "prompt processing"},
            said = {"separate GPUs", "separate instances", "different GPUs", "own GPUs",
                    "separate machines", "different instances", "split", "separate pools",
                    "separate engines"},
            accept = {"transfer the kv", "ship the kv", "ships the kv", "kv cache is sent",
                      "kv is transferred", "moves the kv", "kv transfer", "sends the kv",
                      "separate prefill and decode", "prefill and decode pools",
                      "kv cache transfer", "prefill instance and a decode instance",
                      "kv cache shipped", "cache is shipped", "hand the kv cache",
                      "decode on another", "decode on others"} },
    point { "prefill chunks stall the decodes that share a step; splitting removes it", weight = 2,
            about = {"prefill", "prompt chunks", "long prompts", "interference", "chunks",
                     "prefill chunk", "a long prompt", "it", "colocation", "sharing a gpu"},
            said = {"stall", "interference", "slows the decodes", "inter-token latency",
                    "tail latency", "delays decoding", "blocks the decodes", "slows decoding",
                    "p99", "spikes", "jitter", "slow steps", "slow down", "slows", "slower",
                    "interferes"},
            accept = {"interferes with decode", "interferes with decoding", "stalls the decodes",
                      "stalls decoding", "stalls decode", "itl spikes", "decode stalls",
                      "prefill-decode interference", "prefill-decoding interference"} },
    point { "each phase gets its own parallelism or hardware",
            about = {"each phase", "prefill", "decode", "the phases", "each side", "they"},
            said = {"own parallelism", "different parallelism", "own tensor parallelism",
                    "different tp", "own hardware", "different hardware", "scaled independently",
                    "scale separately", "sized separately", "own configuration",
                    "tuned separately", "scaled separately", "own setup", "different setups",
                    "different configurations", "sized independently", "tune and scale"},
            accept = {"size each pool", "each pool separately", "scale the pools",
                      "tune and scale them separately", "tuned/scaled separately",
                      "scale each phase", "its own parallelism"} },
    point { "the cost: moving the KV adds to TTFT, and more instances", weight = 2,
            about = {"cost", "transfer", "the kv transfer", "shipping the cache", "moving the kv",
                     "the link", "it", "the downside", "you", "the copy"},
            said = {"ttft", "first token", "bandwidth", "network", "link", "adds latency",
                    "extra copy of the weights", "more gpus", "second instance",
                    "time to first token", "extra gpus", "more instances"},
            accept = {"costs a kv transfer", "extra time to first token", "need more gpus",
                      "needs a fast network", "more gpus", "adds to ttft"} },
  },
  misconceptions = {
    misconception { about = {"it", "disaggregation", "disaggregated serving", "disaggregated prefill"},
                    said = {"splits one prompt across", "splits the prompt across", "prefill pieces in parallel", "merge them", "prefills pieces of the prompt"},
                    why = "disaggregation puts the prefill and decode phases on separate instances and moves the finished KV cache from one to the other; one prompt is prefilled by one prefill instance" },
    misconception { about = {"the cost", "the only cost"},
                    said = {"is a larger all-reduce", "is an extra all-reduce", "costs an extra all-reduce", "is an all-reduce", "cost is an all-reduce",
                            "adds an all-reduce between the instances", "only cost is an all-reduce"},
                    unless = {"tensor parallel", "TP", "unlike", "within each instance", "whose cost", "per layer"},
                    why = "the costs are moving each request's KV cache between instances and running two fleets that must be sized for the mix" },
    misconception { about = {"disaggregation", "disaggregated serving", "it", "splitting"},
                    said = {"shrinks the kv cache", "reduces the kv cache", "compresses the cache",
                            "fewer kv bytes"},
                    why = "the decode instance holds the same cache the prefill computed; disaggregation moves it, it does not shrink it" },
    misconception { about = {"disaggregation", "disaggregated serving", "it", "splitting"},
                    said = {"splits the layers", "splits the model's layers", "layers across gpus",
                            "like pipeline parallelism", "splits the model across"},
                    why = "disaggregation splits the phases, not the model: each instance runs the whole model (with its own TP or PP), and the prefill's cache is moved to the decode instance" },
    misconception { about = {"disaggregation", "disaggregated serving", "it", "the model's layers",
                             "the layers"},
                    said = {"same as tensor parallelism", "are split between", "half the weights",
                            "like tensor parallelism"},
                    why = "tensor parallelism splits each layer's weights across GPUs that all run every step; disaggregation gives each phase whole instances of the model and moves the KV cache between them" },
    misconception { about = {"prefill", "the prefill", "prompt processing"},
                    said = {"on the cpu", "on cpus", "cpu does the prefill"},
                    why = "prefill is the compute-bound phase: it runs on GPUs of its own, not on the CPU" },
    misconception { about = {"disaggregation", "disaggregated serving", "it", "splitting"},
                    said = {"always raises throughput", "doubles throughput", "always improves throughput",
                            "free throughput"},
                    why = "vLLM's own guide (docs/features/disagg_prefill.md) says disaggregated prefill does not improve throughput; what it buys is meeting TTFT and ITL targets together, which DistServe measures as goodput" },
    misconception { about = {"the transfer", "the kv transfer", "moving the kv", "shipping the cache"},
                    said = {"every decode step", "each decode step", "slows every token", "adds to itl",
                            "adds to tpot"},
                    why = "the cache moves once per request, after its prefill: it delays that request's first token, not the steps of the decode instance" },
  },

  sections = {
    section {
      title = "The interference on one GPU",
      text = "On one GPU, vLLM's scheduler puts decodes and prompt chunks in the same step "
          .. "(the chunked-prefill lesson). A decode needs one token; a chunk can bring thousands, "
          .. "and a step that carries " .. grouped(8192) .. " prompt tokens of Llama-3.1-8B"
          .. " is compute-bound: 2 FLOPs per parameter per token at 55% of an H100's "
          .. grouped(g.tflops) .. " TFLOP/s is " .. f(chunk_ms, 0) .. " ms, against the "
          .. f(rs.median_itl_ms) .. " ms median gap of the short-prompt run below, whose steps "
          .. "carry almost nothing but decodes. Every user decoding in that step waits for "
          .. "it. The stall is not spread evenly: it is the tail of the inter-token latency "
          .. "that grows.",
    },
    section {
      title = "What the simulator shows, and what it does not",
      text = "kvtutor sim runs vLLM V1's scheduler (FCFS, chunked prefill, one replica) with a "
          .. "roofline step time. Llama-3.1-8B on one H100, " .. N .. " requests at " .. RATE
          .. " a second, " .. OUT .. "-token replies: with " .. SHORT_PROMPT .. "-token "
          .. "prompts the p99 ITL is " .. f(rs.p99_itl_ms) .. " ms and the p99 TPOT "
          .. f(rs.p99_tpot_ms) .. " ms. With " .. grouped(PROMPT) .. "-token prompts, the same "
          .. "rate and the same replies, the p99 ITL is " .. f(rl.p99_itl_ms) .. " ms ("
          .. f(itl_ratio) .. "×), the median " .. f(rl.median_itl_ms) .. " ms and the p99 "
          .. "TPOT " .. f(rl.p99_tpot_ms) .. " ms. Part of the median's rise is the longer "
          .. "context each decode reads; the tail is the steps that carry a whole "
          .. grouped(8192) .. "-token chunk, vllm serve's budget on an H100. The simulator "
          .. "does not model disaggregation, a second instance or any network: what follows "
          .. "about the split is computed from calculator figures and stated constants, and "
          .. "is an estimate, not a measurement.",
    },
    section {
      title = "Chunked prefill narrows it; disaggregation removes it",
      text = "Chunked prefill's remedy is a smaller budget. The same long-prompt run with "
          .. "max_num_batched_tokens 2,048 gives a p99 ITL of " .. f(r2k.p99_itl_ms) .. " ms, "
          .. "with 512 " .. f(r512.p99_itl_ms) .. " ms (median " .. f(r512.median_itl_ms)
          .. " ms). At this load, about " .. f(100 * RATE / prefill_req_s, 0) .. "% of one "
          .. "H100's prefill capacity at 55% of peak, the p99 TTFT hardly moves ("
          .. f(rl.p99_ttft_ms, 0) .. ", " .. f(r2k.p99_ttft_ms, 0) .. " and "
          .. f(r512.p99_ttft_ms, 0) .. " ms in the simulator), for a reason particular to "
          .. "this run: a 512-token chunk is still above the ridge point, about "
          .. f(RIDGE, 0) .. " tokens at the simulator's achieved peaks, so each chunk's step "
          .. "stays compute-bound and a prompt takes about as long in " .. PROMPT // 512
          .. " chunks as in one. "
          .. "At the ridge the trade shows: with 256 the p99 ITL is " .. f(r256.p99_itl_ms)
          .. " ms but the p99 TTFT " .. f(r256.p99_ttft_ms, 0) .. " ms, since a chunk that "
          .. "small no longer keeps its step compute-bound: each of a prompt's "
          .. PROMPT // 256 .. " steps also pays the weights' read, the running decodes' cache "
          .. "and the engine's time, the prefill capacity falls and prompts queue (the "
          .. "chunked-prefill lesson). So here one GPU with a 512 budget removes most of the tail, and a split "
          .. "would have little left to win; but the budget is one knob for both phases, and "
          .. "at another load or chunk size it trades TTFT for ITL. Two colocated replicas "
          .. "at " .. f(RATE / 2, 0) .. " request a second each, the same GPUs as a one-prefill, "
          .. "one-decode split, keep the tail: p99 ITL " .. f(rhalf.p99_itl_ms) .. " ms, "
          .. "median " .. f(rhalf.median_itl_ms) .. " ms, because every step with a whole "
          .. grouped(8192) .. "-token chunk is as slow at any load. For comparison, a "
          .. "decode-only instance fed " .. RATE .. " requests a second of " .. OUT
          .. "-token replies holds, by Little's law (rate × tokens × step time), about "
          .. BATCH .. " sequences at about " .. grouped(CTX) .. " tokens of context, and "
          .. "steps in about " .. f(dec_step_ms) .. " ms, every gap the same, by the memory "
          .. "roofline at 65% of the H100's " .. grouped(g.bandwidth_gbps) .. " GB/s plus "
          .. "0.7 ms of engine time (the simulator's constants; an estimate, not a run). The "
          .. "colocated run's mean batch, " .. f(rl.mean_running, 0) .. ", is larger because "
          .. "its requests linger in the stalls. vLLM's guide gives "
          .. "two reasons to disaggregate: TTFT and ITL tuned separately, each phase with its "
          .. "own TP and PP, and tail ITL controlled more reliably than by finding the right "
          .. "chunk size; and it says plainly that disaggregated prefill does not improve "
          .. "throughput (docs/features/disagg_prefill.md).",
    },
    section {
      title = "What the papers found",
      text = "DistServe (Zhong et al., OSDI 2024) names the two problems of colocation, "
          .. "prefill-decoding interference and one resource and parallelism plan forced on "
          .. "both phases, and notes (pointing to its §3.1) that a 512-token prefill of a 13B model "
          .. "already makes an A100 nearly compute-bound. It assigns the phases to different GPUs, "
          .. "chooses each phase's parallelism for the TTFT and TPOT SLOs and places them by "
          .. "the cluster's bandwidth, and its output is a ratio of prefill to decode "
          .. "instances sized for the load; its OSDI abstract reports up to 7.4× more requests "
          .. "served, or SLOs 12.6× tighter, than the systems it compares with, with over 90% "
          .. "of requests within the SLOs (the first arXiv version gave 4.48× and 10.2×), "
          .. "measured as goodput per GPU. Splitwise (Patel et al., ISCA 2024) starts from "
          .. "power and cost: token generation underuses compute, so it can run on cheaper "
          .. "or lower-power machines, and the state moves over the cluster's back-plane "
          .. "interconnect; its abstract reports 1.4× the throughput at 20% lower cost, or "
          .. "2.35× the throughput for the same cost and power.",
    },
    section {
      title = "Mooncake: the cache at the centre",
      text = "Mooncake (Qin et al., \"Mooncake: Trading More Storage for Less Computation\", "
          .. "FAST 2025) is the serving platform of Moonshot AI's Kimi. Its abstract describes "
          .. "separate prefill and decode clusters plus a disaggregated KV cache built from the "
          .. "GPU cluster's under-used CPU, DRAM, SSD and NIC resources, with a KV-cache-centric "
          .. "global cache and a scheduler that maximises throughput within latency SLOs. On "
          .. "real traces it reports 59% to 498% more effective request capacity than its "
          .. "baselines within the SLOs, and in deployment 115% and 107% more requests on A800 "
          .. "and H800 clusters than the previous system. As the title says, the cache is "
          .. "stored and moved so that prefill work is not repeated: the split is one part of "
          .. "a design built around where the KV lives. vLLM has a MooncakeConnector of its "
          .. "own, over Mooncake's Transfer Engine, in which the prefill side pushes the "
          .. "cache to the decode side (the opposite direction to NixlConnector's pull).",
    },
    section {
      title = "What a prefill ships, and the link it needs",
      text = "The decode instance needs the whole prompt's cache: KV bytes per token × "
          .. "prompt length. Llama-3.1-8B keeps " .. grouped(KVT) .. " B a token in BF16, so "
          .. "an " .. grouped(PROMPT) .. "-token prompt ships " .. f(kv_req / 1e9, 2) .. " GB. "
          .. "At line rate that is " .. f(xfer_ms(NVLINK), 1) .. " ms over NVLink 4 ("
          .. NVLINK .. " GB/s a direction), " .. f(xfer_ms(PCIE5), 1) .. " ms over PCIe Gen5 "
          .. "x16 (" .. PCIE5 .. " GB/s) and " .. f(xfer_ms(IB_NDR), 1) .. " ms over one NDR "
          .. "InfiniBand port (400 Gb/s, " .. IB_NDR .. " GB/s), against a prefill of "
          .. f(prefill_ms, 0) .. " ms at 55% of peak. Kept busy, one H100 prefills "
          .. grouped(prefill_tok_s) .. " tokens/s (" .. f(prefill_req_s, 2) .. " such "
          .. "prompts a second), so the cache leaves it at " .. f(link_gbs, 2) .. " GB/s "
          .. "whatever the prompt length: FLOPs ÷ (2 × parameters) × KV bytes per token (attention's "
          .. "own FLOPs, left out, only lower it for long prompts). NVLink's rate holds only "
          .. "inside one node (or NVLink-switch domain); between nodes each GPU has its NIC, "
          .. "about " .. IB_NDR .. " GB/s. A grouped-query model makes few KV bytes per FLOP; one with full "
          .. "multi-head attention makes several times more; an FP8 cache halves the bytes and "
          .. "MLA cuts them further; and a real link achieves less than its line rate.",
    },
    section {
      title = "vLLM's KV connectors",
      text = "vLLM runs disaggregation as two (or more) ordinary engines, each started with "
          .. "--kv-transfer-config, a JSON KVTransferConfig: kv_connector names the connector, "
          .. "kv_role is kv_producer, kv_consumer or kv_both, and kv_connector_extra_config "
          .. "carries the connector's own options. vLLM's own NIXL examples start both engines "
          .. "as kv_both: which side a request takes is set per request, by the "
          .. "kv_transfer_params (do_remote_decode, do_remote_prefill) that the proxy in front "
          .. "adds. vLLM ships only example proxies; routing prompts to prefill instances and "
          .. "pairing them with decode instances at scale is left to routers such as llm-d "
          .. "or NVIDIA Dynamo. KVConnectorFactory looks the name up among "
          .. "its registered connectors, or imports the class from kv_connector_module_path. "
          .. "A connector implements KVConnectorBase_V1 in two roles: in the scheduler, "
          .. "get_num_new_matched_tokens says how many prompt tokens can be loaded from "
          .. "outside and request_finished says whether the blocks may be freed now; in the "
          .. "workers, start_load_kv, wait_for_layer_load, save_kv_layer and wait_for_save "
          .. "move the data. Both versions of factory.py read (commits 007c643 and a4cd9d0) register "
          .. "SharedStorageConnector (files on a shared path, an example), NixlConnector, "
          .. "LMCacheConnectorV1, P2pNcclConnector (NCCL point to point) and MultiConnector "
          .. "(several in order); a4cd9d0 adds LMCacheMPConnector, OffloadingConnector and "
          .. "DecodeBenchConnector. Two changes reach 0.26: SharedStorageConnector is "
          .. "ExampleConnector since PR #30201 (December 2025), so the old name is refused as "
          .. "an unsupported connector type; and PR #35264 (merged June 2026) split the NIXL "
          .. "connector into NixlPullConnector, which NixlConnector still names, and "
          .. "NixlPushConnector, in which the prefill side writes the blocks into the decode "
          .. "side's memory. The full list in the 0.26 tree was not read; later trees also "
          .. "register Mooncake and MoRI-IO connectors.",
    },
    section {
      title = "How NixlConnector moves a request",
      text = "In nixl_connector.py (read at commit 002a105; undated), the prefill instance "
          .. "runs a request whose kv_transfer_params ask for a remote decode; the proxy sends "
          .. "it with max_tokens 1 and drops the token it returns. When it finishes on that "
          .. "length cap (request_finished acts only on FINISHED_LENGTH_CAPPED), "
          .. "request_finished keeps its blocks (delay_free_blocks) and returns "
          .. "the block ids, its engine id, host and port as kv_transfer_params, which go back to "
          .. "whatever routes the request; it must hand them to the decode instance. There, "
          .. "get_num_new_matched_tokens reports the prompt tokens not already computed "
          .. "locally as loadable asynchronously, and the worker reads those blocks from the "
          .. "prefill GPU's memory through NIXL (UCX unless kv_connector_extra_config names "
          .. "other backends; with kv_buffer_device \"cpu\" the blocks go through a buffer "
          .. "in host memory instead); blocks its own prefix cache already holds are not pulled. The "
          .. "two sides may run different TP degrees (the prefill's tp_size travels in "
          .. "kv_transfer_params). Once the blocks have landed, the decode scheduler leaves "
          .. "the last prompt token uncomputed, so its first step recomputes it and samples "
          .. "the first token the user sees: TTFT is the prefill, the transfer, the wait on "
          .. "the decode side and one decode step. The prefill frees its blocks once they "
          .. "are read, or after VLLM_NIXL_ABORT_REQUEST_TIMEOUT (480 s by default). "
          .. "NixlConnector saves nothing layer by layer (its save_kv_layer and "
          .. "wait_for_layer_load are empty): the transfer starts after the prefill, so for "
          .. "this pull connector it adds to TTFT in full. Connectors that push hide part of "
          .. "it: P2pNcclConnector's save_kv_layer sends each layer during the prompt's last "
          .. "forward pass, and NixlPushConnector writes from a background thread, so there "
          .. "the transfer adds up to its own time, less where it overlaps.",
    },
    section {
      title = "When it does not pay",
      text = "With " .. SHORT_PROMPT .. "-token prompts the simulator's p99 ITL is "
          .. f(rs.p99_itl_ms) .. " ms: there is little interference to remove. With long "
          .. "prompts at about half an H100's prefill capacity, a 512-token budget took it from " .. f(rl.p99_itl_ms, 0)
          .. " to " .. f(r512.p99_itl_ms) .. " ms on one GPU. A small model "
          .. "that one GPU serves within its SLOs gains nothing from a second instance with "
          .. "its own copy of the weights, and a prefill instance idles when prompts are few. "
          .. "The transfer is paid on every request, the interference only where long "
          .. "prompts meet decodes; where a smaller token budget already brings the tail ITL "
          .. "within target at an acceptable TTFT, that is the cheaper fix. A split also has "
          .. "to be sized: the ratio of prefill to decode instances (DistServe's output, "
          .. "\"xPyD\" in vLLM's examples) follows the mix of prompt and reply lengths, and "
          .. "where that mix swings, or the deployment is too small to split into two "
          .. "well-used pools, one pool idles while the other queues. Disaggregation "
          .. "pays for long prompts, large models and tight ITL targets, on links that move "
          .. "the cache in a small fraction of the prefill time.",
    },
  },

  worked = code(
       "KV a request   " .. grouped(KVT) .. " B × " .. grouped(PROMPT) .. " tokens = "
    .. f(kv_req / 1e9, 3) .. " GB\n"
    .. "transfer       ÷ " .. NVLINK .. " GB/s = " .. f(xfer_ms(NVLINK), 2) .. " ms (NVLink 4)   ÷ "
    .. PCIE5 .. " = " .. f(xfer_ms(PCIE5), 1) .. " ms (PCIe 5)   ÷ " .. IB_NDR .. " = "
    .. f(xfer_ms(IB_NDR), 1) .. " ms (NDR IB)\n"
    .. "prefill        2 × " .. f(m.params, 2) .. "e9 × " .. grouped(PROMPT) .. " ÷ (0.55 × "
    .. grouped(g.tflops) .. "e12) = " .. f(prefill_ms, 1) .. " ms\n"
    .. "prefill rate   0.55 × " .. grouped(g.tflops) .. "e12 ÷ (2 × " .. f(m.params, 2)
    .. "e9) = " .. grouped(prefill_tok_s) .. " tokens/s\n"
    .. "link needed    " .. grouped(prefill_tok_s) .. " tokens/s × " .. grouped(KVT) .. " B = "
    .. f(link_gbs, 2) .. " GB/s a prefill GPU\n"
    .. "sim, " .. SHORT_PROMPT .. " in   p99 ITL " .. f(rs.p99_itl_ms, 2) .. " ms, p99 TPOT "
    .. f(rs.p99_tpot_ms, 2) .. " ms\n"
    .. "sim, " .. grouped(PROMPT) .. " in p99 ITL " .. f(rl.p99_itl_ms, 2) .. " ms, p99 TPOT "
    .. f(rl.p99_tpot_ms, 2) .. " ms   (" .. f(itl_ratio, 1) .. "× the ITL tail)\n"
    .. "one chunk      2 × " .. f(m.params, 2) .. "e9 × 8,192 ÷ (0.55 × " .. grouped(g.tflops)
    .. "e12) = " .. f(chunk_ms, 1) .. " ms a step"),

  followups = {
    followup {
      question = "Your prefill and decode instances sit in different racks, joined by one "
              .. "400 Gb/s InfiniBand port each. Where does the KV transfer show up in the "
              .. "latencies a user sees, and what decides whether it is small?",
      answer = "It shows up in TTFT: the cache of a request moves once, after its prefill "
            .. "and before its first decode step, so it delays that request's first token "
            .. "and leaves the decode instance's step times alone (all of it with a connector "
            .. "that pulls after the prefill, as NixlConnector does; less where a push "
            .. "overlaps the prefill's last pass). Its size is KV bytes per "
            .. "token times prompt length, over the link's achieved rate: a "
            .. grouped(BIG_PROMPT) .. "-token Llama-3.1-70B prompt is " .. f(big_gb, 1)
            .. " GB, " .. f(big_gb / IB_NDR * 1000, 0) .. " ms at a 50 GB/s line rate. "
            .. "Whether that is small depends on the prefill time it is added to: both grow "
            .. "with the prompt, so the ratio is set by the KV bytes a token against the "
            .. "FLOPs a token, and by how many links carry the share of each GPU.",
      points = {
        point { "the transfer adds to TTFT", weight = 2,
                about = {"transfer", "it", "the kv transfer", "moving the cache", "the copy"},
                said = {"ttft", "time to first token", "first token", "before decoding starts",
                        "before the first decode"},
                short = {"ttft", "time to first token", "in the ttft", "in the time to first token",
                         "in ttft", "in ttft only", "only in ttft", "ttft only"},
                accept = {"adds to ttft", "adds to the ttft", "adds to time to first token",
                          "delays the first token", "copied once after the prefill",
                          "moved once after the prefill", "in ttft only", "only in ttft",
                          "in time to first token", "before decode can start",
                          "before decoding starts", "before decode starts"} },
        point { "size = KV bytes per token × prompt length ÷ link bandwidth", weight = 2,
                about = {"size", "it", "transfer time", "the bytes", "how long", "the cost",
                         "what decides", "whether it is small", "the toll"},
                said = {"prompt length", "bytes per token", "kv per token",
                        "link bandwidth", "bandwidth", "context length", "prompt tokens"},
                accept = {"kv bytes per token", "bytes per token times", "prompt length times",
                          "times prompt length", "kv bytes divided by the link", "kv bytes divided by that", "divided by the bandwidth",
                          "divided by the link"} },
        point { "small relative to the prefill time it follows",
                about = {"prefill", "prefill time", "it", "the transfer", "ratio"},
                said = {"compared with the prefill", "relative to the prefill", "against the prefill",
                        "fraction of the prefill", "prefill time", "compute time", "overlap",
                        "prefill compute", "than the prefill", "of prefill", "next to the prefill"},
                accept = {"compared with the prefill", "compared to the prefill", "relative to the prefill",
                          "against the prefill time", "fraction of the prefill",
                          "of prefill compute", "of the prefill time", "than the prefill takes",
                          "overlaps with compute", "overlap with compute"} },
      },
      misconceptions = {
        misconception { about = {"transfer", "it", "the kv transfer", "moving the cache"},
                        said = {"to every decode step", "each decode step waits", "adds to itl",
                                "adds to tpot", "slows every token", "adds to every token",
                                "adds to the inter-token latency", "raises itl", "raises the itl",
                                "increases itl", "increases the inter-token latency",
                                "adds to time per output token"},
                        why = "the cache moves once per request, after its prefill; the decode instance's steps do not wait for it" },
        misconception { about = {"transfer", "it", "the kv transfer", "400 gb/s"},
                        said = {"400 gb per second", "400 gigabytes", "always negligible",
                                "never shows up", "doesn't show up in any latency",
                                "does not show up in any latency"},
                        why = "400 Gb/s is 50 GB/s (8 bits a byte), and a long prompt's cache of a large model is gigabytes: the transfer is tens to hundreds of ms of TTFT" },
        misconception { about = {"it", "the transfer", "the delay"},
                        said = {"tokenization", "tokenize", "the size of the text", "prompt text"},
                        why = "what crosses the link is the prompt's KV cache, bytes per token × prompt length, not the text" },
        misconception { about = {"transfer", "it", "the kv transfer", "size"},
                        said = {"output length", "reply length", "number of output tokens"},
                        why = "only the prompt's cache is shipped; the reply's KV is written on the decode instance" },
      },
    },
    followup {
      question = "Chunked prefill already bounds how long a decode can be stalled. Why would "
              .. "you still split prefill and decode onto separate GPUs?",
      answer = "Chunked prefill only narrows the interference: every step that carries a "
            .. "chunk is still slower for the decodes in it, and one token budget sets both "
            .. "the ITL tail and TTFT, so lowering it to protect decodes delays prompts. "
            .. "Split, the decode instance runs decode steps only, and each phase gets its "
            .. "own TP and PP, its own hardware and its own number of instances, tuned for "
            .. "TTFT and for ITL separately; vLLM's guide calls it the more reliable way to "
            .. "control tail ITL. It does not raise raw throughput.",
      points = {
        point { "chunking narrows the stall but every chunked step is still slower", weight = 2,
                about = {"chunked prefill", "chunking", "a smaller budget", "each chunk", "chunks",
                         "it", "every step with a chunk", "decodes"},
                said = {"still slower", "still stalls", "narrows", "reduces", "only bounds",
                        "slowed", "still shares steps", "shares steps", "still share",
                        "still interferes", "still shares", "does not remove", "doesn't remove",
                        "still delays"} },
        point { "one budget trades ITL against TTFT", 
                about = {"one budget", "the budget", "max_num_batched_tokens", "one knob",
                         "a smaller budget", "lowering it", "shrinking it", "the chunk size",
                         "a single dial", "one dial", "chunk size", "smaller chunks"},
                said = {"ttft", "trade", "both", "delays prompts", "raises ttft", "first token",
                        "couples", "against itl"},
                accept = {"trading ttft against itl", "trade between ttft and itl",
                          "couples ttft and itl", "one knob for both", "trades ttft for itl",
                          "trades itl against ttft"} },
        point { "each phase gets its own parallelism, hardware and scale", weight = 2,
                about = {"each phase", "prefill", "decode", "the phases", "each side", "they"},
                said = {"own parallelism", "different parallelism", "own tp", "different tp",
                        "own hardware", "different hardware", "scaled independently",
                        "scale separately", "tuned separately", "independently", "more tp",
                        "different configuration", "its own configuration", "own tuning",
                        "configure and scale", "different configs", "differently"},
                accept = {"pools independently", "different parallelism", "own tuning",
                          "configure and scale"} },
      },
      misconceptions = {
        misconception { about = {"disaggregation", "splitting", "it", "separate gpus"},
                        said = {"raises throughput", "more throughput", "improves throughput",
                                "doubles throughput"},
                        why = "vLLM's guide says disaggregated prefill does not improve throughput; it buys latency targets met together (goodput, in DistServe's terms)" },
        misconception { about = {"chunked prefill", "chunking", "it"},
                        said = {"removes the interference", "eliminates the stall", "no interference",
                                "removes the stall"},
                        why = "chunked prefill only makes each shared step shorter; decodes still share steps with prompt chunks" },
        misconception { about = {"chunked prefill", "chunking", "it", "the kv cache"},
                        said = {"splits the kv cache", "reassembled", "reassemble"},
                        why = "chunked prefill splits a prompt's computation into steps; the cache stays in one instance's blocks, and nothing is reassembled" },
        misconception { about = {"separate gpus", "disaggregation", "splitting"},
                        said = {"generally better", "always better", "just better"},
                        why = "splitting pays only where prefill chunks measurably stall decodes; it costs a transfer and more instances" },
      },
    },
    followup {
      question = "With vLLM's NixlConnector, how does the decode instance get the cache, and "
              .. "what happens to the prefill instance's blocks meanwhile?",
      answer = "The decode instance pulls it: the prefill returns the block ids, its engine "
            .. "id, host and port in kv_transfer_params, and the decode worker reads those "
            .. "blocks out of the prefill GPU's memory through NIXL, asynchronously, skipping "
            .. "blocks its own prefix cache already holds. The prefill instance keeps the "
            .. "blocks after the request finishes (request_finished delays their free) until "
            .. "the decode side has read them, or a timeout passes. The transfer starts after "
            .. "the prefill; NixlConnector does not send layer by layer.",
      points = {
        point { "the decode side reads (pulls) the blocks from the prefill GPU", weight = 2,
                about = {"decode instance", "decode side", "decode worker", "the decoder", "it",
                         "the consumer"},
                said = {"pulls", "reads", "fetches", "rdma read", "reads the blocks", "pulls the blocks",
                        "loads"},
                accept = {"pull model", "decode pulls", "decoder reads", "decode side reads",
                          "decode instance reads", "decode instance pulls", "nixl reads",
                          "rdma reads", "decode-side pull", "issues reads"} },
        point { "the prefill keeps its blocks until they are read", weight = 2,
                about = {"prefill instance", "prefill blocks", "its blocks", "the blocks", "the prefill",
                         "the producer", "the prefiller"},
                said = {"kept", "keeps", "held", "holds", "delayed free", "not freed", "until read",
                        "delays freeing", "until the read", "frees them later", "waits",
                        "until the decode", "timeout", "freed later", "freed after",
                        "does not free", "doesn't free", "hangs on to", "keeps them allocated",
                        "stay allocated", "until decode says", "read-done notification"},
                accept = {"delay freeing", "delayed free", "hangs on to the kv blocks",
                          "keeps those blocks allocated", "keeps the blocks allocated",
                          "does not free the blocks", "holds them until", "until the decoder"} },
        point { "only blocks missing from the decode's prefix cache move",
                about = {"prefix cache", "cached blocks", "blocks already cached", "local cache"},
                said = {"skipped", "not pulled", "not transferred", "only the rest", "only missing",
                        "only uncached"} },
      },
      misconceptions = {
        misconception { about = {"decode instance", "decode side", "the decoder", "decode worker"},
                        said = {"recomputes the prompt", "recomputes", "runs the prefill again",
                                "prefills again", "redoes the prefill"},
                        why = "the decode instance loads the prompt's blocks from the prefill instance; it computes only the blocks it could not load" },
        misconception { about = {"prefill instance", "the prefill", "it", "nixl", "nixlconnector"},
                        said = {"layer by layer", "layerwise", "per layer", "while it computes"},
                        why = "in the code read, NixlConnector's save_kv_layer and wait_for_layer_load do nothing: the decode reads the blocks after the prefill has finished" },
        misconception { about = {"prefill instance", "the prefill", "its blocks"},
                        said = {"frees them at once", "frees immediately", "freed immediately",
                                "drops them", "frees its blocks immediately", "frees the blocks immediately",
                                "frees its blocks at once", "frees them immediately"},
                        why = "request_finished returns delay_free_blocks: the blocks stay until the decode has read them or the abort timeout passes" },
        misconception { about = {"the prefill", "prefill instance", "the prefiller", "it"},
                        said = {"pushes", "sends the blocks", "writes the blocks", "pushes the kv"},
                        why = "NixlConnector (NixlPullConnector since PR #35264) is pull: the decode worker reads the blocks; the prefill side only holds them. NixlPushConnector is the push variant" },
      },
    },
    followup {
      question = "Give two situations where you would not disaggregate, and say why.",
      answer = "Short prompts: the prefill chunks are small, so the decodes barely stall and "
            .. "there is little interference to remove, while every request still pays a "
            .. "transfer. A small model or a light load that one GPU serves within its "
            .. "targets: a split needs at least two instances, each holding the weights, and "
            .. "one of them idles; the same happens when the mix of prompt and reply lengths "
            .. "swings so that no fixed ratio of prefill to decode instances keeps both "
            .. "busy. In general, when the transfer time and the extra "
            .. "instances cost more than the interference saves, or a smaller token budget "
            .. "already meets the ITL target at an acceptable TTFT.",
      points = {
        point { "short prompts: little interference to remove", weight = 2,
                about = {"short prompts", "short inputs", "small prompts", "little prefill",
                         "short contexts", "short chat prompts", "chat prompts", "prefill"},
                said = {"little interference", "barely stall", "small chunks", "no interference",
                        "nothing to remove", "little to gain", "not worth", "cheap prefill",
                        "tiny prefill", "is tiny", "is small", "is cheap", "barely"} },
        point { "small model or light load: a second instance and weights for nothing", weight = 2,
                about = {"small model", "small models", "light load", "low load", "one gpu",
                         "few requests", "a second gpu", "second instance", "the extra gpu",
                         "a split", "splitting", "one of them", "a prefill pool", "prefill gpus",
                         "small deployment", "small setup", "modest traffic", "low traffic",
                         "the pools", "prefill and decode pools", "the ratio"},
                said = {"second instance", "extra gpus", "copy of the weights", "idle", "idles",
                        "fits", "wasted", "not worth", "underused", "two instances", "sits idle",
                        "cannot be kept balanced", "cannot be balanced", "can't be balanced",
                        "unbalanced", "swings"} },
        point { "transfer cost vs interference saved; a smaller budget may suffice",
                about = {"transfer", "the transfer", "chunked prefill", "smaller budget", "cost",
                         "the transfer time"},
                said = {"outweighs", "more than", "costs more", "suffices", "enough",
                        "cheaper", "interference saved", "exceed the benefit", "exceeds",
                        "handles it", "covers it", "keeps itl smooth", "cover it"},
                accept = {"chunked prefill handles it", "chunked prefill already",
                          "prefill:decode ratio", "p:d ratio", "pools balanced",
                          "balance the pools", "without a fast interconnect",
                          "without a fast network", "slow interconnect"} },
      },
      misconceptions = {
        misconception { about = {"disaggregation", "it", "splitting"},
                        said = {"makes itl worse", "raises itl", "hurts itl", "worsens itl"},
                        why = "the decode instance runs decode steps only, so its ITL is smoother, not worse; what the split adds to is TTFT" },
        misconception { about = {"long prompts", "very long prompts", "long prompt"},
                        said = {"never helps", "so big that", "never pays"},
                        why = "long prompts are where disaggregation pays: the transfer grows with the prompt, but so does the prefill it removes from the decode GPU" },
      },
    },
  },

  exercises = {
    numeric {
      id = "kv-per-request",
      prompt = "A prefill instance serving {model} in BF16 finishes a {prompt}-token prompt. "
            .. "How many GB (10^9 bytes) of KV cache must it ship to the decode instance? "
            .. "(kvtutor models lists the KV per token.)",
      params = { model = {"llama-3.1-8b", "qwen2.5-7b", "qwen3-8b", "llama-3.1-70b",
                          "mistral-7b-v0.3"},
                 prompt = range(2048, 30720, 2048) },
      expected = function(p)
        local r = kv.calc{model = p.model}
        local mm = kv.model(p.model)
        local gb = r.kv_bytes_per_token * p.prompt / 1e9
        return gb, "per token   2 × " .. mm.layers .. " layers × " .. mm.kv_heads
          .. " KV heads × " .. mm.head_dim .. " dims × 2 B = " .. grouped(r.kv_bytes_per_token)
          .. " B\n"
          .. "a request   " .. grouped(r.kv_bytes_per_token) .. " B × " .. grouped(p.prompt)
          .. " tokens = " .. fixed(gb, 3) .. " GB"
      end,
      unit = "GB", tolerance = rel(0.02),
      hints = { "Only the prompt's cache moves: the reply is written on the decode side.",
                "KV bytes per token × prompt tokens." },
    },
    numeric {
      id = "transfer-ms-ib",
      prompt = "One 8,192-token Llama-3.1-8B prompt's BF16 KV cache (131,072 B a token) "
            .. "crosses one NDR InfiniBand port at its 400 Gb/s line rate, with nothing else "
            .. "on the link. How many ms does the transfer take?",
      expected = xfer_ms(IB_NDR), unit = "ms", tolerance = rel(0.03),
      worked = code("KV         " .. grouped(KVT) .. " B × " .. grouped(PROMPT) .. " tokens = "
          .. grouped(kv_req) .. " B\n"
          .. "link       400 Gb/s ÷ 8 bits a byte = " .. IB_NDR .. " GB/s\n"
          .. "transfer   " .. grouped(kv_req) .. " B ÷ " .. IB_NDR .. "e9 B/s = "
          .. f(xfer_ms(IB_NDR), 2) .. " ms"),
      hints = { "400 Gb/s is 50 GB/s: 8 bits to the byte.",
                "131,072 × 8,192 B ÷ 50e9 B/s." },
    },
    numeric {
      id = "link-needed",
      prompt = "One {gpu} prefills {model} prompts back to back at 55% of its dense BF16 "
            .. "peak, 2 FLOPs per parameter per token (kvtutor gpus and kvtutor models list "
            .. "the peak, the parameters and the KV per token). How many GB/s of BF16 KV "
            .. "cache leave it for the decode instances?",
      params = { gpu = {"h100", "a100-80gb", "l40s", "h100-pcie"},
                 model = {"llama-3.1-8b", "qwen2.5-7b", "qwen3-8b", "mistral-7b-v0.3"} },
      expected = function(p)
        local gg, mm = kv.gpu(p.gpu), kv.model(p.model)
        local kvt = kv.calc{model = p.model}.kv_bytes_per_token
        local tok_s = gg.tflops * 1e12 * COMPUTE_EFF / (2 * mm.params * 1e9)
        local gbs = tok_s * kvt / 1e9
        return gbs, "prefill   0.55 × " .. grouped(gg.tflops) .. "e12 FLOP/s ÷ (2 × "
          .. fixed(mm.params, 2) .. "e9) = " .. grouped(tok_s) .. " tokens/s\n"
          .. "KV out    " .. grouped(tok_s) .. " tokens/s × " .. grouped(kvt) .. " B = "
          .. fixed(gbs, 2) .. " GB/s"
      end,
      unit = "GB/s", tolerance = rel(0.03),
      hints = { "The prompt length cancels: tokens/s × bytes per token.",
                "0.55 × peak FLOP/s ÷ (2 × parameters) × KV bytes per token." },
    },
    numeric {
      id = "chunk-step-ms",
      prompt = "Llama-3.1-8B has 8.03 billion parameters. On an H100 at 55% of its 989 "
            .. "TFLOP/s, how many ms does a step take that carries a full 8,192-token "
            .. "prompt chunk, counting 2 FLOPs per parameter per token?",
      expected = chunk_ms, unit = "ms", tolerance = rel(0.03),
      worked = code("work       2 × " .. f(m.params, 2) .. "e9 × 8,192 tokens = "
          .. f(2 * PARAMS * 8192 / 1e14, 3) .. "e14 FLOPs\n"
          .. "achieved   0.55 × " .. grouped(g.tflops) .. "e12 = " .. f(TFLOPS_ACH / 1e12, 2)
          .. "e12 FLOP/s\n"
          .. "step       " .. f(2 * PARAMS * 8192 / 1e14, 3) .. "e14 ÷ "
          .. f(TFLOPS_ACH / 1e12, 2) .. "e12 FLOP/s = " .. f(chunk_ms / 1000, 4)
          .. " s = " .. f(chunk_ms, 1) .. " ms\n"
          .. "           (causal attention's 2 × 8,192² × " .. grouped(m.heads * m.head_dim)
          .. " × " .. m.layers .. " ≈ " .. f(2 * 8192 ^ 2 * m.heads * m.head_dim * m.layers / 1e13, 1)
          .. "e13 left out)"),
      hints = { "Every decode in that step waits this long for its token.",
                "2 × 8.03e9 × 8,192 ÷ (0.55 × 989e12) s." },
    },
    numeric {
      id = "itl-tail-ratio",
      prompt = "Run kvtutor sim --model llama-3.1-8b --gpu h100 --output-len 256 "
            .. "--request-rate 2 --num-prompts 500, once with --input-len 128 and once with "
            .. "--input-len 8192. How many times larger is the long-prompt run's P99 ITL?",
      expected = itl_ratio, unit = "x",
      serving = long,
      tolerance = rel(0.03),
      worked = code("input 128    P99 ITL (ms): " .. f(rs.p99_itl_ms, 2) .. ", as the report prints it\n"
          .. "input 8,192  P99 ITL (ms): " .. f(rl.p99_itl_ms, 2) .. "\n"
          .. "ratio        " .. f(rl.p99_itl_ms, 2) .. " ÷ " .. f(rs.p99_itl_ms, 2) .. " = "
          .. f(tonumber(string.format("%.2f", rl.p99_itl_ms)) / tonumber(string.format("%.2f", rs.p99_itl_ms)), 2) .. "×\n"
          .. "             unrounded (--json p99_itl_ms): " .. f(rl.p99_itl_ms, 3) .. " ÷ "
          .. f(rs.p99_itl_ms, 3) .. " = " .. f(itl_ratio, 2) .. "×"),
      hints = { "Read P99 ITL from both runs and divide.",
                "The tail is the steps that carry an 8,192-token chunk." },
    },
    choice {
      id = "when-to-split",
      prompt = "Which deployment is most likely to gain from disaggregating prefill and decode?",
      options = {
        option { "A 70B model serving 30k-token documents to users with a strict inter-token "
               .. "latency target, on nodes with RDMA between them", correct = true,
                 why = "long prompts make big compute-bound chunks that stall decodes, and a fast link keeps the transfer a small part of TTFT" },
        option { "A 1B model answering 100-token chat prompts on one GPU",
                 why = "short prompts cause little interference, and a second instance would mostly idle" },
        option { "An offline batch job that only cares about total tokens/s",
                 why = "there is no latency target to protect, and vLLM's guide says disaggregated prefill does not improve throughput" },
        option { "Any deployment whose KV cache does not fit on one GPU",
                 why = "the decode instance holds the same cache; memory is solved by TP, a smaller KV dtype or more GPUs, not by splitting the phases" },
      },
    },
    freetext {
      id = "why-tail",
      prompt = "In two or three sentences: why does serving long prompts on the same GPU as "
            .. "decodes hurt the P99 inter-token latency more than the median?",
      answer = "Only the steps that carry a prompt chunk are slow: with a long prompt such a "
            .. "step is compute-bound and takes a large multiple of a decode-only step, and "
            .. "every decode in it waits. Most gaps between tokens fall in ordinary steps, so "
            .. "the median moves a little while the tail is those stalled steps.",
      points = {
        point { "steps carrying a prompt chunk are compute-bound and slow", weight = 2,
                about = {"steps with a chunk", "a step with a chunk", "prefill chunk", "chunks",
                         "those steps", "the step", "engine step", "a step", "iterations",
                         "an iteration", "decode step"},
                said = {"compute-bound", "slow", "long step", "takes longer", "much longer",
                        "hundreds of ms", "stall", "stretched", "slower", "arrives late", "wait"},
                accept = {"batched with running decodes", "shares the gpu with a long prefill",
                          "every decode in it waits", "decodes in that step wait"} },
        point { "only some gaps fall in those steps, so the tail moves, not the median",
                weight = 2,
                about = {"median", "most gaps", "most steps", "tail", "p99", "few steps",
                         "such steps", "those steps", "median inter-token gap",
                         "ordinary steps", "ordinary iterations", "middle percentiles",
                         "percentiles in the middle", "a small fraction"},
                said = {"ordinary", "unaffected", "barely", "a little", "only some", "rare",
                        "occasional", "few", "spikes", "outliers", "small fraction",
                        "stay smooth", "barely moves", "dominate", "smooth"},
                accept = {"in the tail, not the median", "not the median", "median barely moves",
                          "only the few steps", "most steps are", "are rare",
                          "small fraction of"} },
      },
      misconceptions = {
        misconception { about = {"prefill", "a prefill", "long prompts"},
                        said = {"memory-bandwidth bound", "memory bound", "saturates the memory bandwidth"},
                        why = "prefill of a long prompt is compute-bound; it is decode that is memory-bound" },
        misconception { about = {"every decode step", "every step", "each step", "every token",
                                 "the kv cache", "long prompts"},
                        said = {"slows every token", "reads more memory", "every step slows",
                                "slower every step", "kv cache bigger"},
                        why = "a longer cache slows every step a little, which moves the median; the tail is the few steps that carry a prompt chunk" },
        misconception { about = {"long prompts", "tokenization", "it"},
                        said = {"take longer to tokenize", "tokenization blocks", "on the cpu"},
                        why = "tokenizing is cheap and done off the GPU; the stall is the compute-bound prefill chunk in the GPU step" },
        misconception { about = {"long prompts", "they", "other requests"},
                        said = {"don't affect other requests", "do not affect other requests",
                                "only their own decode"},
                        why = "a long prompt's chunk shares the step with every running decode, so it stalls other requests' tokens too" },
        misconception { about = {"every step", "all steps", "each step", "the median"},
                        said = {"carries a prefill chunk", "carries a chunk", "are slow",
                                "rises as much as the tail", "moves as much as the tail"},
                        why = "only the steps that carry a prompt chunk are slow; most steps are decode-only, which is why the median moves little and the tail a lot" },
        misconception { about = {"p99", "the p99", "it"},
                        said = {"measured over the prefill tokens", "over the prefill tokens"},
                        why = "ITL is measured between a request's output tokens; prefill tokens are not in it" },
      },
    },
  },
}
