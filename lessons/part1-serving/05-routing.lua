-- Part 1 · Serving systems and engines: routing across replicas. A vLLM replica's
-- prefix cache holds only what that replica computed, so where the router sends a
-- request decides whether its prefix is found or prefilled again.

local MODEL, GPU = "llama-3.1-8b", "h100"
local N = 8            -- replicas, one GPU each
local P = 4096         -- tokens every request of a session opens with (a multiple of 16)
local Q = 256          -- new tokens each request adds after them
local OUT = 128        -- tokens each request generates
local R = 10           -- requests per session
local BS = 16          -- vLLM's default block size
local GiB = 2^30

local c = kv.calc{model = MODEL, gpu = GPU, seq = P + Q + OUT}
local mm = kv.model(MODEL)                              -- its shapes, for the worked lines
local prefix_bytes = P * c.kv_bytes_per_token          -- one copy of one session's prefix
local prefix_blocks = P // BS
local prefixes_per_replica = c.num_gpu_blocks // prefix_blocks

-- The model. A session's R requests each go to a replica drawn uniformly at random
-- (random routing; round robin over many interleaved sessions lands a session's next
-- request as good as anywhere). Nothing is evicted between a session's requests.
-- Request k finds the prefix when one of the k-1 before it went to the same replica:
-- probability 1 - (1 - 1/N)^(k-1). Averaged over k = 1..R, the hit rate is
--   h(N, R) = 1 - N (1 - (1 - 1/N)^R) / R,
-- and N (1 - (1 - 1/N)^R) is the expected number of replicas the session touches,
-- each of which prefills the prefix once and keeps a copy of it.
local function touched(n, r) return n * (1 - (1 - 1 / n) ^ r) end
local function hit_random(n, r) return 1 - touched(n, r) / r end
local function hit_sticky(r) return (r - 1) / r end

local h_rand, h_stick = hit_random(N, R), hit_sticky(R)
local copies = touched(N, R)
local tok_rand = R * Q + copies * P          -- prompt tokens one session has prefilled
local tok_stick = R * Q + P
local mean_rand = Q + (1 - h_rand) * P       -- uncached prompt tokens per request
local mean_stick = Q + (1 - h_stick) * P

-- What one hit saves: kvtutor sim on one replica, one request at a time (no queueing).
-- A miss prefills P + Q tokens; a hit is modelled as a prompt of Q tokens (it leaves out
-- the hit's attention over the cached prefix, a small share of its compute at this length).
local MISS = {model = MODEL, gpu = GPU, input_len = P + Q, output_len = OUT,
              max_concurrency = 1, num_prompts = 500}
local HIT = {model = MODEL, gpu = GPU, input_len = Q, output_len = OUT,
             max_concurrency = 1, num_prompts = 500}
local miss, hit = kv.sim(MISS), kv.sim(HIT)
local saved_ms = miss.median_ttft_ms - hit.median_ttft_ms

-- Under load: 12 requests/s reach each replica (96/s across the fleet). kv.sim cannot mix
-- hits and misses in one run, so each policy is stood in for by prompts of its mean
-- uncached length: the same prefill work per request, a narrower spread of TTFTs.
-- Each stand-in's capacity is the same workload sent all at once (rate inf). Where the
-- offered rate is above it the queue grows for as long as the load lasts, so the median
-- TTFT is no steady figure: it is shown over 500 and over 1,000 requests.
local RATE = 12
local in_rand, in_stick = math.floor(mean_rand + 0.5), math.floor(mean_stick + 0.5)
local function setup(len, rate, count)
  return {model = MODEL, gpu = GPU, input_len = len, output_len = OUT,
          request_rate = rate, num_prompts = count}
end
local LOADED_RANDOM = setup(in_rand, RATE, 500)
local LOADED_STICKY = setup(in_stick, RATE, 500)
local lr, ls = kv.sim(LOADED_RANDOM), kv.sim(LOADED_STICKY)
local lr_long = kv.sim(setup(in_rand, RATE, 1000))
local cap_rand = kv.sim(setup(in_rand, "inf", 500)).request_throughput
local cap_stick = kv.sim(setup(in_stick, "inf", 500)).request_throughput

-- Capacity: if the whole KV cache held nothing but prefixes.
local fleet_prefixes = N * prefixes_per_replica
local sessions_rand = fleet_prefixes / copies
local sessions_stick = fleet_prefixes

-- llm-d's inference-scheduling guide: queue-scorer 2, kv-cache-utilization-scorer 2,
-- prefix-cache-scorer 3; the endpoint picker adds weight × score and takes the highest.
-- Two pods: A holds 90% of the prompt's prefix blocks, has 6 requests waiting and 80% of its
-- KV cache in use; B holds none of it, has an empty queue and 30% in use. With two pods the
-- queue scorer gives the shorter queue 1 and the longer 0.
local W_Q, W_KV, W_PFX = 2, 2, 3
local A = {queue = 0, kv = 1 - 0.8, pfx = 0.9}
local B = {queue = 1, kv = 1 - 0.3, pfx = 0}
local function total(x) return W_Q * x.queue + W_KV * x.kv + W_PFX * x.pfx end
local score_a, score_b = total(A), total(B)

local function f(x, places) return fixed(x, places or 1) end
local function pct(x, places) return fixed(x * 100, places or 1) end
local n = grouped

return lesson {
  id = "routing",
  title = "Routing across replicas: load, prefixes and stickiness",
  module = "part1-serving",
  module_title = "Part 1 · Serving systems and engines",
  baseline = "vLLM 0.26. vLLM source read at undated main-branch commits (where a behaviour "
          .. "changed, the text says which release): vllm/v1/core/kv_cache_utils.py "
          .. "(hash_block_tokens chains the parent block's hash with the block's tokens and extra "
          .. "keys; only full blocks are hashed; init_none_hash seeds the chain from os.urandom "
          .. "unless PYTHONHASHSEED is set); vllm/v1/core/block_pool.py (each engine's own table "
          .. "of cached blocks); vllm/config/cache.py (kv_offloading_size, kv_offloading_backend: "
          .. "undated); vllm/v1/engine/core_client.py (make_async_mp_client: DPLBAsyncMPClient "
          .. "when data_parallel_size > 1 without an external load balancer; "
          .. "DPLBAsyncMPClient.get_core_engine_for_request: 4 × waiting + running through 0.26, "
          .. "first release of that score undated; the in-flight floor and KV-usage term of PR "
          .. "#49204 first shipped in 0.27.0, read in main-branch source); vllm/distributed/kv_events.py "
          .. "(BlockStored, BlockRemoved, AllBlocksCleared). Routers, undated unless a PR is "
          .. "named: sgl-project/sglang sgl-router/src/policies/cache_aware.rs at commit 026f853; "
          .. "lightseekorg/smg model_gateway/src/policies/cache_aware.rs; "
          .. "kubernetes-sigs/gateway-api-inference-extension plugins/multi/prefix/plugin.go "
          .. "(hashBlockSize 64, DefaultMaxPrefixBlocks 256; autoTune from PR #1888, 2025-11-20), "
          .. "scorer/queue.go, scorer/kvcache_utilization.go, helm weights 3:2:2 from PR #1827 "
          .. "(2025-11-06); llm-d/llm-d-router (formerly llm-d-inference-scheduler) "
          .. "pkg/plugins/scorer/precise_prefix_cache.go, load_aware.go, session_affinity.go, "
          .. "no_hit_lru.go, active-request-scorer idle settings from PR #669 (2026-03-02), "
          .. "issue #355; llm-d/llm-d guides/inference-scheduling/scheduler/"
          .. "inference-scheduling.values.yaml; vllm-project/router src/policies/"
          .. "precise_cache_aware.rs; vllm-project/production-stack "
          .. "src/vllm_router/routers/routing_logic.py (SessionRouter, PrefixAwareRouter, "
          .. "KvawareRouter). Hit rates from the lesson's stated model; TTFTs and capacities from "
          .. "kvtutor sim (docs/simulator.md)",
  concept = "routing",
  concept_title = "Routing across replicas",
  requires = {"prefix-caching", "continuous-batching"},
  links = {"prefix-caching", "continuous-batching", "prefill-decode", "latency", "chunked-prefill"},

  question = "You serve one model on " .. N .. " vLLM replicas behind a load balancer. Compare "
          .. "round robin, least-loaded and prefix-aware (KV-cache-aware) routing: why does "
          .. "prefix affinity matter, and what goes wrong if you route on it alone?",

  answer = "Each replica's prefix cache holds only the blocks that replica computed, so a "
        .. "request whose prefix sits on another replica is prefilled from scratch. Round robin "
        .. "and least-loaded spread a session's requests over the replicas, and the hit rate "
        .. "falls as replicas are added: in this lesson's model, " .. R .. " requests of a "
        .. "session over " .. N .. " replicas find their prefix " .. pct(h_rand, 0) .. "% of the "
        .. "time instead of " .. pct(h_stick, 0) .. "%, and each replica holds its own copy. "
        .. "Prefix-aware routing sends a request where its longest prefix is cached, which "
        .. "saves prefill and TTFT, but alone it piles a hot prefix onto one replica; real "
        .. "routers weigh the cache match against queue length and KV usage, or fall back to "
        .. "the least-loaded replica when the load is out of balance. A prompt every request "
        .. "shares is the extreme case both ways: random routing hits on it almost always, "
        .. "prefix-only routing sends everything to one replica.",

  points = {
    point { "each replica's prefix cache is local to it", weight = 2,
            about = {"prefix cache", "cache", "each replica", "replica", "each engine", "kv cache",
                     "cached blocks", "each instance", "instance", "each vllm"},
            said = {"local", "per replica", "its own", "not shared", "separate", "only what it computed",
                    "own blocks", "doesn't see", "cannot see", "own gpu memory", "own memory"},
            accept = {"local prefix cache", "cache is per replica", "caches are per replica",
                      "not shared across replicas", "not shared between replicas"} },
    point { "round robin and least-loaded scatter a session, so hits fall as replicas grow", weight = 2,
            about = {"round robin", "random routing", "random", "least-loaded", "least loaded",
                     "load balancer", "load-based routing", "hit rate", "session's requests"},
            said = {"spread", "scatter", "different replica", "another replica", "falls", "drops",
                    "recompute", "miss", "lower hit rate", "prefill again", "ignores the cache",
                    "cache-blind", "1/n", "decreases"} },
    point { "prefix-aware routing sends a request where its prefix is cached", weight = 2,
            about = {"prefix-aware", "cache-aware", "prefix affinity", "kv-aware", "kv-cache-aware",
                     "prefix routing", "routing by prefix", "affinity", "sticky routing"},
            said = {"same replica", "holds the prefix", "longest prefix", "longest matching prefix",
                    "longest match", "hit", "cached", "reuse", "skips prefill", "saves prefill",
                    "cuts prefill", "skip prefill", "lower ttft", "where the prefix"} },
    point { "alone it overloads a hot prefix's replica; weigh it against load", weight = 2,
            about = {"hot prefix", "pure affinity", "affinity alone", "one replica", "popular prefix",
                     "prefix routing alone", "it alone", "alone", "on its own", "routing on it alone",
                     "prefix-aware routing", "prefix-aware", "routers"},
            said = {"overload", "imbalance", "hotspot", "hot spot", "piles", "herds", "queue grows",
                    "queues up", "long queue", "saturat", "fall back", "falls back",
                    "weigh it against load", "blend it with load", "blend with load",
                    "combine it with load", "combined with load", "against queue length",
                    "with a load signal", "load-aware"},
            accept = {"load imbalance", "hotspot", "hot spot", "weigh against load",
                      "combined with load", "blend it with load"} },
  },
  misconceptions = {
    misconception { about = {"prefix cache", "vllm's cache", "the cache", "kv cache"},
                    said = {"shared across replicas", "shared between replicas", "global",
                            "all replicas share", "visible to every replica", "cluster-wide"},
                    why = "a vLLM replica's prefix cache is its own GPU memory (vllm/v1/core/block_pool.py); another replica cannot hit on it unless an external KV store or connector is added" },
    misconception { about = {"least-loaded", "least loaded", "shortest queue", "round robin"},
                    said = {"maximizes hits", "maximises hits", "maximizes cache hits", "maximises cache hits",
                            "more cache hits", "improves the hit rate", "raises the hit rate",
                            "keeps the prefix", "keeps sessions together", "sticky",
                            "cache-friendly", "most cache-friendly", "best for the cache",
                            "best hit rate", "sees every prefix"},
                    why = "load-only policies ignore what each replica has cached; a session's next request lands anywhere, so hits fall as replicas are added" },
    misconception { about = {"prefix-aware routing", "prefix routing", "prefix-aware", "prefix affinity",
                             "affinity alone", "pure affinity", "routing on it alone", "it alone",
                             "routing on prefix alone", "prefix matches", "prefix matching"},
                    said = {"balances load evenly", "balances the load", "spreads load evenly",
                            "spread load evenly", "spreads the load", "evens out the load",
                            "no downside", "no real downside", "nothing goes wrong",
                            "mainly for load balance", "mainly about load balance"},
                    why = "prefix match alone sends every request that shares a hot prefix to the replica that holds it; nothing in it looks at load, so its queue grows while others idle" },
    misconception { about = {"routing on it alone", "it alone", "affinity alone", "routing on prefix alone",
                             "prefix routing alone", "prefix-aware routing alone", "on its own"},
                    said = {"is fine", "works fine", "is enough", "is safe"},
                    why = "prefix match alone sends every request that shares a hot prefix to the replica that holds it; nothing in it looks at load, so its queue grows while others idle" },
    misconception { about = {"prefix-aware routing", "cache-aware routing", "prefix affinity"},
                    said = {"speeds up decode", "makes decode faster", "faster decode"},
                    why = "a hit saves the prefix's prefill (TTFT and GPU time); decode still reads the whole context each step" },
  },

  sections = {
    section {
      title = "A replica only hits on what it computed",
      text = "vLLM finds a cached prefix by hashing: each full " .. BS .. "-token block's hash "
          .. "is computed from the parent block's hash, the block's tokens and extra keys "
          .. "(LoRA, multimodal inputs, cache salt), in hash_block_tokens "
          .. "(vllm/v1/core/kv_cache_utils.py), and the engine's BlockPool "
          .. "(vllm/v1/core/block_pool.py) keeps the table from hash to block for that engine's "
          .. "own GPU blocks. Without a KV connector nothing in it is visible to another "
          .. "replica: vLLM's native CPU offload (kv_offloading_size with kv_offloading_backend "
          .. "\"native\", vllm/config/cache.py) is per engine too, and only a store shared "
          .. "behind a connector (LMCache's remote backends, Mooncake) lets one replica load "
          .. "blocks another computed. The chain even "
          .. "starts from a random seed per process (init_none_hash uses os.urandom unless "
          .. "PYTHONHASHSEED is set), so two replicas do not give the same prefix the same "
          .. "hashes. Without a shared store, a router is the only thing that can make a request meet its "
          .. "cache: send it to the replica that already computed its prefix, or pay the "
          .. "prefill again.",
    },
    section {
      title = "The hit rate under random routing: a model",
      text = "Take sessions (a user chatting over one long document, an agent's fixed tool "
          .. "prompt) whose " .. R .. " requests each open with the same " .. n(P) .. " tokens and "
          .. "add " .. Q .. " of their own. Route each request to one of N replicas at random, "
          .. "and assume nothing is evicted between a session's requests. The k-th request "
          .. "finds the prefix when one of the k − 1 before it went to the same replica, with "
          .. "probability 1 − (1 − 1/N)^(k−1). Averaged over the session, the hit rate is "
          .. "h = 1 − N(1 − (1 − 1/N)^R) ÷ R, and N(1 − (1 − 1/N)^R) is the number of replicas "
          .. "the session touches, each prefilling the prefix once. Round robin is no better "
          .. "with many sessions interleaved, and least-loaded is load-driven, not "
          .. "cache-driven. What least-loaded buys over round robin is balance in fact: it "
          .. "absorbs uneven request sizes and a slow replica, which round robin cannot see. "
          .. "It is as blind to the caches, and on stale load figures it can send a burst to "
          .. "one replica, which is why vLLM's DP balancer counts the requests it has just "
          .. "sent between load reports. With N = " .. N .. " and R = " .. R .. ": " .. f(copies, 2)
          .. " replicas touched, h = " .. pct(h_rand) .. "%, against " .. pct(h_stick)
          .. "% when every request of the session goes to one replica (only the first "
          .. "misses). At N = 2 random routing gives " .. pct(hit_random(2, R)) .. "%, at "
          .. "N = 32 " .. pct(hit_random(32, R)) .. "%: adding replicas erodes the hit rate.",
    },
    section {
      title = "What a hit is worth",
      text = "`kvtutor sim` for " .. MODEL .. " on one " .. GPU .. ", one request at a time: a miss "
          .. "prefills " .. n(P + Q) .. " tokens and reaches its first token in "
          .. f(miss.median_ttft_ms) .. " ms; a hit, modelled as a " .. Q .. "-token prompt (the "
          .. "hit's attention over the cached prefix left out), in " .. f(hit.median_ttft_ms)
          .. " ms, " .. f(saved_ms, 0) .. " ms saved. Per session, random routing prefills "
          .. n(tok_rand) .. " prompt tokens and affinity " .. n(tok_stick) .. ". Under load the "
          .. "gap decides where the knee is. A stand-in with the random policy's mean of "
          .. n(mean_rand) .. " uncached tokens a request has a capacity of about "
          .. n(cap_rand) .. " requests/s on one replica: sent all at once, 500 of them complete "
          .. "at " .. f(cap_rand, 2) .. " a second, start and drain included. At " .. RATE
          .. " requests/s it is overloaded: it completes " .. f(lr.request_throughput, 2)
          .. " requests/s, about that capacity and short of the " .. RATE .. " offered; "
          .. "its queue grows for as long as the load lasts, and its median TTFT has no "
          .. "steady value (" .. f(lr.median_ttft_ms, 0) .. " ms over 500 requests, "
          .. f(lr_long.median_ttft_ms, 0) .. " ms over 1,000, and climbing). The run also "
          .. "fills the KV cache (" .. pct(lr.peak_kv_usage, 0) .. "% at its peak, "
          .. lr.preemptions .. " preemptions), a symptom of the queue rather than its cause: the "
          .. "capacity is set by the prefill compute each request needs. With affinity's mean of "
          .. n(mean_stick) .. " the same replica's capacity is " .. f(cap_stick, 2)
          .. " requests/s and it keeps up with the " .. RATE .. ": " .. f(ls.request_throughput, 2)
          .. " requests/s at a median TTFT of " .. f(ls.median_ttft_ms, 0) .. " ms. These are "
          .. "simulated estimates of equal mean prefill work, not a measurement of the real "
          .. "mix of full misses and hits, which spreads TTFT wider.",
    },
    section {
      title = "Copies crowd the cache",
      text = "Scattering also multiplies memory. One session's prefix is " .. prefix_blocks
          .. " blocks, " .. f(prefix_bytes / GiB, 2) .. " GiB of " .. MODEL .. " cache; an "
          .. GPU .. " at vLLM 0.26's default utilisation has " .. n(c.num_gpu_blocks)
          .. " blocks (the calculator's figure on 80 GiB with activations and CUDA graphs left "
          .. "out; a real engine has somewhat fewer), room for " .. prefixes_per_replica .. " such prefixes if it held "
          .. "nothing else. With affinity, the " .. N .. " replicas can keep about "
          .. n(sessions_stick) .. " sessions cached; with random routing each session sits on "
          .. f(copies, 1) .. " replicas and the fleet keeps about " .. n(sessions_rand)
          .. ". Fewer sessions fit, so more are evicted before their next request, and the "
          .. "hit rate falls further than the no-eviction model says.",
    },
    section {
      title = "Hot prefixes and load imbalance",
      text = "Affinity is not free. One prefix shared by every request (a global system prompt) "
          .. "needs no affinity under random routing: each replica caches it after its first "
          .. "request and hits on it almost always. Under a prefix-aware router it is the worst "
          .. "case: every request matches it fully on the first replica that served it. With "
          .. "the Gateway API Inference Extension's scorers, the queue-scorer counts only "
          .. "waiting requests and gives every pod 1 while the queues are equal, so the prefix "
          .. "term wins until a queue forms, while that pod's running batch and TPOT grow. "
          .. "llm-d-router PR #669 (merged 2026-03-02) describes exactly this, every request "
          .. "of a one-prefix benchmark on one pod until num_requests_waiting > 0, and adds "
          .. "idle-pod settings to the active-request-scorer; its no-hit-lru-scorer spreads "
          .. "requests that hit nothing. In llm-d-router issue #355 one shared prefix ran on 2 "
          .. "of 8 replicas at 8% KV usage with no queue. The same trouble, for any hot prefix "
          .. "under pure affinity: if a share f of the traffic carries it and all of that goes to one "
          .. "replica, that replica carries f·N + (1 − f) times the mean load (f = 0.5 on "
          .. N .. " replicas: " .. f(0.5 * N + 0.5) .. "×), its queue grows, and its TTFT "
          .. "loses more than the cache won. So routers blend the two: send a request to its "
          .. "cache while loads are even, to the least-loaded replica when they are not, or "
          .. "spread a hot prefix over several replicas.",
    },
    section {
      title = "How SGLang's router and llm-d decide",
      text = "SGLang's router (sgl-router in sgl-project/sglang, cache_aware policy, "
          .. "sgl-router/src/policies/cache_aware.rs, read at commit 026f853) keeps one "
          .. "approximate radix tree per model, the workers as its tenants, of the request text "
          .. "it sent to each, characters rather than tokens, so it never asks the workers what "
          .. "they cache. When loads are balanced it sends a request to the worker with the "
          .. "longest match if the matched share of the text exceeds cache_threshold, else to "
          .. "the worker with the smallest tree (its successor smg, lightseekorg/smg, sends such "
          .. "a request to the least-loaded worker, and can keep token trees or follow the "
          .. "engines' KV events instead). It calls the system "
          .. "imbalanced when max − min load exceeds balance_abs_threshold and max exceeds "
          .. "balance_rel_threshold × min, and then routes to the shortest queue. A background "
          .. "thread trims the tree by LRU to max_tree_size. llm-d's scheduler (llm-d/llm-d-router, "
          .. "formerly llm-d-inference-scheduler) is an endpoint "
          .. "picker built on the Gateway API Inference Extension: scorers each give a pod 0 to "
          .. "1, the picker adds weight × score and takes the highest. Its inference-scheduling "
          .. "guide weights queue-scorer 2, kv-cache-utilization-scorer 2 and prefix-cache-scorer "
          .. "3, the defaults the extension's own helm chart moved to from 1:1:1 (PR #1827, merged "
          .. "2025-11-06). The queue-scorer ranks pods between the shortest waiting queue (1) and the "
          .. "longest (0), all of them 1 when the queues are equal, the utilisation scorer gives 1 − KV usage, and llm-d's own "
          .. "load-aware-scorer maps a waiting queue of 0 up to its threshold (128 by default) "
          .. "onto 0.5 down to 0. The prefix-cache-scorer "
          .. "(gateway-api-inference-extension, plugins/multi/prefix/plugin.go) is approximate "
          .. "too: in the version read it chains hashes of 64-byte chunks of the prompt text "
          .. "(hashBlockSize), at most 256 of them (DefaultMaxPrefixBlocks: about 16 KiB of text, "
          .. "some 4,000 tokens, so this lesson's " .. n(P) .. "-token prefix sits at the limit), "
          .. "records which pod each request went to in an LRU index per pod, and scores a pod "
          .. "by the share of the prompt's chunks it matched; later versions take the chunk "
          .. "size and the index's capacity from the pod's own block size and block count "
          .. "(blockSize, autoTune on by default: PR #1888, merged 2025-11-20). llm-d's "
          .. "precise-prefix-cache-scorer and vLLM's Rust router (vllm-project/router, "
          .. "precise_cache_aware policy) instead subscribe to the KV events vLLM can publish "
          .. "(vllm/distributed/kv_events.py: BlockStored, BlockRemoved, AllBlocksCleared), so "
          .. "their index follows real storage and eviction, a little late: the events come "
          .. "after the blocks are stored, so a burst sent before them misses (vllm-project/router "
          .. "writes speculative entries that expire after 2 s to cover it). An index that "
          .. "recomputes vLLM's hashes needs the same block size and PYTHONHASHSEED on every "
          .. "replica. vLLM's production stack (vllm-project/production-stack, "
          .. "routing_logic.py) has both kinds too: a PrefixAwareRouter, a hash trie of what it "
          .. "sent where that assumes nothing is evicted, and a KvawareRouter that asks an "
          .. "LMCache controller which instance holds the longest match.",
    },
    section {
      title = "vLLM's own balancing, and session stickiness",
      text = "vLLM itself balances only across the data-parallel engines of one deployment: "
          .. "with data_parallel_size > 1 and no external load balancer, the API front end uses "
          .. "DPLBAsyncMPClient (vllm/v1/engine/core_client.py), whose "
          .. "get_core_engine_for_request picks the engine with the lowest load score from "
          .. "the waiting and running counts the DP coordinator reports (about every 100 ms, "
          .. "topped up by its own count in between). In vLLM 0.26 the score is "
          .. "4 × waiting + running. From 0.27.0 (PR #49204) it is max(clients × the engine's "
          .. "requests in flight, waiting + running), plus waiting × 6 × max(0, KV usage − 0.5) "
          .. "when requests wait: an exact count of what this front end has sent sets a floor "
          .. "under stale reports. Neither looks at what an engine has cached, and each engine "
          .. "keeps its own prefix cache. Session stickiness is the cheap form of affinity: the production "
          .. "stack's session router (src/vllm_router/routers/routing_logic.py, SessionRouter) "
          .. "hashes a session id, from a header or the request body, onto a consistent-hash ring "
          .. "and falls back to the lowest-QPS engine without one; llm-d's "
          .. "session-affinity-scorer scores 1 the pod a session token names and 0 the rest, a "
          .. "weighted preference among the other scorers rather than a rule. Stickiness keeps "
          .. "a conversation's growing history on one replica but knows nothing of load. A "
          .. "prefix many sessions share still ends up cached on every replica after one miss "
          .. "on each, so there stickiness costs N prefills and N copies rather than the hit "
          .. "rate; the loss is larger for a prefix a moderate number of sessions share, and "
          .. "when memory is tight.",
    },
  },

  worked = code(
    "model        h(N, R) = 1 − N(1 − (1 − 1/N)^R) ÷ R   (random routing, no eviction)\n"
    .. "touched      " .. N .. " × (1 − (" .. (N - 1) .. "/" .. N .. ")^" .. R .. ") = " .. f(copies, 2) .. " replicas\n"
    .. "random       h = 1 − " .. f(copies, 2) .. " ÷ " .. R .. " = " .. pct(h_rand) .. "%\n"
    .. "sticky       h = (" .. R .. " − 1) ÷ " .. R .. " = " .. pct(h_stick) .. "%\n"
    .. "prefill      random " .. R .. " × " .. Q .. " + " .. f(copies, 2) .. " × " .. n(P) .. " = "
    .. n(tok_rand) .. " tokens a session; sticky " .. R .. " × " .. Q .. " + " .. n(P) .. " = "
    .. n(tok_stick) .. "\n"
    .. "one hit      kvtutor sim TTFT " .. f(miss.median_ttft_ms) .. " ms (" .. n(P + Q) .. " tokens) − "
    .. f(hit.median_ttft_ms) .. " ms (" .. Q .. ") = " .. f(saved_ms) .. " ms\n"
    .. "loaded       " .. RATE .. " req/s a replica: random stand-in " .. n(mean_rand) .. " tokens, capacity "
    .. f(cap_rand, 2) .. " req/s (500 at once) < " .. RATE .. ": overloaded, TTFT " .. f(lr.median_ttft_ms, 0)
    .. " ms (500 requests), " .. f(lr_long.median_ttft_ms, 0) .. " ms (1,000)\n"
    .. "             sticky stand-in " .. n(mean_stick) .. " tokens, capacity " .. f(cap_stick, 2)
    .. " req/s: keeps up, TTFT " .. f(ls.median_ttft_ms, 0) .. " ms\n"
    .. "memory       " .. n(P) .. " × " .. n(c.kv_bytes_per_token) .. " B = " .. f(prefix_bytes / GiB, 2)
    .. " GiB a copy; " .. n(c.num_gpu_blocks) .. " ÷ " .. prefix_blocks .. " = "
    .. prefixes_per_replica .. " prefixes a replica\n"
    .. "             fleet keeps " .. n(sessions_stick) .. " sessions sticky, "
    .. n(fleet_prefixes) .. " ÷ " .. f(copies, 2) .. " = " .. n(sessions_rand) .. " random\n"
    .. "llm-d score  A: 2×" .. f(A.queue, 0) .. " + 2×" .. f(A.kv, 1) .. " + 3×" .. f(A.pfx, 1)
    .. " = " .. f(score_a, 1) .. "   B: 2×" .. f(B.queue, 0) .. " + 2×" .. f(B.kv, 1) .. " + 3×"
    .. f(B.pfx, 0) .. " = " .. f(score_b, 1)),

  followups = {
    followup {
      question = "Every request carries the same 1,000-token system prompt and nothing else in "
              .. "common. Does random routing over " .. N .. " replicas hurt its hit rate much?",
      answer = "Hardly. Each replica misses once, on the first request it gets, and hits on "
            .. "every later one, so over thousands of requests the hit rate stays close to "
            .. "100%. The cost is " .. N .. " prefills of the prompt and " .. N .. " copies in "
            .. "memory, small for one prompt. Affinity matters when there are many distinct "
            .. "prefixes, per session, document or tenant, each reused a few times. Under a "
            .. "prefix-aware router the same prompt is the worst case: every request matches it "
            .. "fully on the replica that served it first, and a router that waits for a queue "
            .. "before spreading it runs everything there.",
      points = {
        point { "random routing barely hurts it", polarity = "no" },
        point { "each replica misses once, then hits", weight = 3,
                about = {"each replica", "every replica", "a replica", "replicas", "it", "the prompt",
                         "system prompt", "shared prompt", "hit rate", "prefix"},
                said = {"misses once", "caches it", "cached on every replica", "cached on all",
                        "first request", "close to 100", "near 100", "almost always", "hits after",
                        "stays high", "loads it once", "resident", "warm-up", "warms up"} },
        point { "affinity matters for many distinct prefixes",
                about = {"affinity", "prefix-aware routing", "routing", "it", "the problem"},
                said = {"many distinct", "many different", "per session", "per-session", "per tenant",
                        "per document", "distinct prefixes", "many prefixes", "unique prefixes"} },
        point { "the cost is one prefill and one copy per replica",
                about = {"cost", "the cost", "it", "each replica", "replicas"},
                said = {"copies", "copy", "n prefills", "one prefill each", "memory", "duplicate"} },
      },
      misconceptions = {
        misconception { about = {"hit rate", "it"},
                        said = {"falls to 1/n", "1/n", "one in eight", "12.5"},
                        why = "1/N is the chance a single request meets one copy on one replica; a prompt every request carries is soon cached on every replica" },
        misconception { about = {"prefix caching", "the cache", "it", "the kv", "its kv", "the other replicas"},
                        said = {"only works when consecutive requests", "breaks the chain", "fetch it over the network",
                                "fetch it from", "lives only on the replica that first computed it"},
                        why = "each replica computes and caches the prompt itself on its first request; nothing is fetched from another replica, and later requests hit whatever came between" },
      },
    },
    followup {
      question = "You route purely on prefix match. What goes wrong, and how do SGLang's router "
              .. "and llm-d guard against it?",
      answer = "A hot prefix sends a large share of the traffic to one replica: its queue and "
            .. "TTFT grow while others idle, and past its knee it loses more than the cache "
            .. "saved. SGLang's cache-aware policy checks load first: when max − min load "
            .. "exceeds an absolute threshold and max exceeds a ratio times min, it sends the "
            .. "request to the shortest queue instead. llm-d adds weighted scores, queue length "
            .. "and KV-cache utilisation beside the prefix match, and takes the best total; "
            .. "because its queue-scorer sees only waiting requests, llm-d also offers "
            .. "idle-pod settings on its active-request-scorer and a no-hit-lru-scorer to spread "
            .. "a prefix before a queue forms. Spreading a hot prefix over several replicas is "
            .. "the other cure.",
      points = {
        point { "a hot prefix overloads one replica", weight = 3,
                about = {"hot prefix", "popular prefix", "one replica", "that replica", "a replica",
                         "traffic", "load", "it"},
                said = {"overload", "piles", "imbalance", "hotspot", "hot spot", "queue grows",
                        "queues up", "saturat", "one replica"},
                accept = {"load imbalance", "hotspot", "hot spot", "overloaded"} },
        point { "SGLang falls back to the shortest queue when imbalanced",
                about = {"sglang", "sgl-router", "cache-aware policy", "cache_aware", "its router"},
                said = {"shortest queue", "least loaded", "least-loaded", "lowest load",
                        "balance_abs_threshold", "balance_rel_threshold", "falls back", "fall back",
                        "switches to shortest", "checks load first"} },
        point { "llm-d weighs prefix against queue and KV usage",
                about = {"llm-d", "its scheduler", "the endpoint picker", "epp", "gateway"},
                said = {"weight", "queue", "kv-cache utilization", "kv utilization", "kv usage",
                        "scorers", "combines", "sum"} },
      },
      misconceptions = {
        misconception { about = {"prefix routing", "routing on prefix", "it", "affinity", "prefix affinity",
                                 "pure prefix routing"},
                        said = {"balances load evenly", "always balances", "balances the load", "spreads load evenly",
                                "spreads the load evenly", "evens out the load"},
                        why = "prefix match alone sends every request with a hot prefix to the replica that holds it; nothing in it looks at load" },
        misconception { about = {"sglang's router", "sgl-router", "the prefix-cache-scorer", "the approximate scorer"},
                        said = {"asks the workers", "queries each worker's cache", "reads vllm's block table"},
                        why = "sgl-router's cache_aware tree and the Gateway API Inference Extension's prefix-cache-scorer are the router's own record of what it sent where, never read from the engines; the routers that follow the engines' KV events (BlockStored, BlockRemoved) subscribe to them rather than ask: llm-d's precise-prefix-cache-scorer, vLLM's Rust router's precise_cache_aware policy, the event-driven mode of smg (sgl-router's successor); the production stack's KvawareRouter asks an LMCache controller" },
        misconception { about = {"sglang", "sgl-router", "its router", "cache-aware policy", "llm-d"},
                        said = {"whatever its load", "regardless of load", "ignoring load", "always sending",
                                "always sends", "always the longest match", "longest match when imbalanced",
                                "multiplies", "multiplied", "product of"},
                        why = "sgl-router leaves the longest match for the shortest queue once the load is imbalanced, and llm-d's picker adds weight × score over the scorers and takes the highest sum" },
        misconception { about = {"nothing", "nothing serious", "nothing much"},
                        said = {"goes wrong"},
                        why = "a hot prefix sends every request that shares it to the one replica holding it: its queue and TTFT grow while the others idle" },
      },
    },
    followup {
      question = "How does a router know what each replica has cached?",
      answer = "Either it keeps its own record, or the replicas (or a KV store's controller) tell it. sgl-router and the "
            .. "Gateway API Inference Extension's prefix-cache-scorer remember which replica "
            .. "each request went to, as a radix tree of the text or an LRU index of hashed "
            .. "prompt chunks: cheap, but blind to eviction inside the engine. llm-d's "
            .. "precise-prefix-cache-scorer and vLLM's Rust router's precise_cache_aware policy "
            .. "subscribe to the KV events vLLM publishes "
            .. "(BlockStored, BlockRemoved), so they see real storage and eviction, a little "
            .. "late, at the cost of "
            .. "an event stream, tokenising the prompt, and the same PYTHONHASHSEED on every "
            .. "replica for any index that recomputes vLLM's hashes. A third way: the production "
            .. "stack's KvawareRouter asks the LMCache controller which instance holds the "
            .. "longest match.",
      points = {
        point { "approximate: the router records where it sent each prompt", weight = 2,
                about = {"router", "it", "sgl-router", "prefix-cache-scorer", "approximate",
                         "the approximate way", "one way"},
                said = {"records", "remembers", "its own record", "radix tree", "tree", "what it sent",
                        "where it sent", "history", "hash", "lru index", "tracks"},
                accept = {"approximate tree", "radix tree", "router-side", "approximate index"} },
        point { "precise: subscribe to the engine's KV events", weight = 2,
                about = {"precise", "llm-d", "precise scorer", "the other way", "engines", "vllm",
                         "replicas"},
                said = {"kv events", "events", "blockstored", "blockremoved", "publish", "subscribe",
                        "reports", "tell", "told", "kv controller", "lmcache controller", "live map"},
                accept = {"kv events", "kv-events", "blockstored", "kv_events"} },
        point { "the approximate record misses engine-side eviction",
                about = {"approximate", "it", "the record", "router's view", "tree", "index"},
                said = {"eviction", "evicted", "evicts", "stale", "wrong", "drift", "out of date", "guess",
                        "assumes it is still cached", "assumes that is still cached"},
                accept = {"blind to eviction", "blind to evictions", "misses evictions",
                          "misses eviction"} },
      },
      misconceptions = {
        misconception { about = {"vllm", "the replicas", "block hashes", "hashes"},
                        said = {"same hashes on every replica", "identical hashes by default",
                                "hash the same everywhere"},
                        why = "init_none_hash seeds the chain from os.urandom unless PYTHONHASHSEED is set, so by default two replicas hash the same prefix differently" },
        misconception { about = {"every replica", "the replicas", "replicas", "vllm replicas", "kv cache", "the cache"},
                        said = {"share one global", "share a global", "shares a global", "shares one global",
                                "global kv cache", "one shared kv cache", "cluster-wide", "any replica can serve"},
                        why = "each vLLM replica's prefix cache is its own GPU memory; without a shared KV store behind a connector, a replica hits only on what it computed, so the router has to know or guess where a prefix sits" },
      },
    },
    followup {
      question = "vLLM with --data-parallel-size 4: does its internal load balancer route by prefix?",
      answer = "No. With data_parallel_size > 1 and no external load balancer, the front end's "
            .. "DPLBAsyncMPClient sends each request to the engine with the lowest load score, "
            .. "computed from the waiting and running counts the DP coordinator reports "
            .. "(4 × waiting + running in 0.26; from 0.27.0 also its own in-flight count and KV "
            .. "usage). It does "
            .. "not look at what any engine has cached, and each engine keeps its own prefix "
            .. "cache, so prefix affinity needs a router in front.",
      points = {
        point { "no, it does not", polarity = "no" },
        point { "it balances on load, not on cached prefixes", weight = 2,
                about = {"it", "vllm", "the balancer", "dplbasyncmpclient", "internal load balancer",
                         "the front end", "dp"},
                short = {"only on load", "on load only", "by load only", "just load"},
                said = {"on load", "by load", "load only", "only load", "on its load", "load score",
                        "lowest load", "least load", "waiting and running",
                        "queue", "least loaded", "least-loaded",
                        "lowest score", "not by prefix", "doesn't look at the cache", "ignores the cache",
                        "request counts", "queue lengths", "queue stats", "doesn't look at the prompt",
                        "isn't considered", "not considered"} },
        point { "each engine has its own prefix cache",
                about = {"each engine", "engines", "each rank", "each dp rank", "dp rank", "prefix cache",
                         "the cache", "kv cache"},
                said = {"own", "local", "separate", "not shared", "per engine", "per rank"} },
      },
      misconceptions = {
        misconception { about = {"it", "vllm", "dplbasyncmpclient", "the balancer"},
                        said = {"routes by prefix", "is prefix-aware", "is cache-aware", "longest prefix",
                                "hashes the first block", "hashes the prompt", "owns that hash"},
                        why = "DPLBAsyncMPClient.get_core_engine_for_request scores engines on waiting and running requests (4 × waiting + running in vLLM 0.26; from 0.27.0, PR #49204, also in-flight requests and KV usage), never on their cached blocks" },
      },
    },
    followup {
      question = "Why not simply hash each session id to a replica?",
      answer = "That is session stickiness, and it is a good cheap start: a conversation's "
            .. "growing history stays on the replica that cached it, with no index to keep "
            .. "(the production stack's session router uses a consistent-hash ring). But it "
            .. "ignores load, so a heavy session or an unlucky hash overloads a replica. It also "
            .. "knows nothing of prefixes shared across sessions, a tool prompt or document many "
            .. "users send: one shared by many sessions ends up on every replica anyway, at the "
            .. "cost of N prefills and N copies, while one a moderate number of sessions share is "
            .. "prefilled on each replica they hash to. Adding or removing a replica also remaps "
            .. "some sessions, which then miss.",
      points = {
        point { "stickiness keeps a session's history on one replica",
                about = {"stickiness", "hashing", "it", "session affinity", "consistent hashing",
                         "a session"},
                said = {"same replica", "stays", "history", "keeps", "one replica", "cheap", "sticky"} },
        point { "it ignores load", weight = 2,
                about = {"it", "stickiness", "hashing", "session hashing", "it alone", "hot session",
                         "heavy session", "a session", "sessions", "one replica"},
                said = {"ignores load", "ignores the load", "blind to load", "imbalance", "overload",
                        "doesn't balance load", "does not balance load", "no load balancing",
                        "heavy session", "hot", "no balancing", "uneven", "unbalanced", "not load-aware"} },
        point { "it ignores prefixes shared across sessions, which are prefilled and stored on many replicas",
                about = {"it", "stickiness", "hashing", "shared prefixes", "prefixes shared across sessions",
                         "a prefix shared by many sessions", "shared prefix", "common prefix",
                         "shared document", "shared prompt"},
                said = {"misses prefixes shared", "ignores prefixes shared", "ignores shared prefixes",
                        "misses shared prefixes", "won't catch prefixes", "knows nothing of",
                        "scattered", "different replicas", "every replica", "duplicated", "copies",
                        "prefilled on each"} },
        point { "changing the replica set remaps sessions",
                accept = {"remap", "rehash", "adding a replica", "removing a replica",
                          "replica set changes", "moves some sessions", "moves only a fraction",
                          "consistent hashing"} },
      },
      misconceptions = {
        misconception { about = {"it", "stickiness", "hashing", "session hashing", "consistent hashing"},
                        said = {"balances load", "balances the load", "evens out the load"},
                        why = "a hash of the session id knows nothing of load: a heavy session, or several hashed to one replica, overload it" },
        misconception { about = {"it", "stickiness", "hashing", "session hashing", "consistent hashing"},
                        said = {"shares prefixes across sessions", "reuses prefixes across sessions",
                                "shares prefixes between sessions", "finds shared prefixes"},
                        why = "sessions with the same prefix hash to different replicas, so a prefix shared across sessions is prefilled and stored on many of them" },
        misconception { about = {"hashing", "a hash", "session hashing", "it"},
                        said = {"too slow", "causes collisions", "collides in the cache"},
                        why = "a hash per request costs microseconds, and vLLM's prefix cache is keyed by block hashes of the tokens, not by session id; the trouble with session hashing is that it ignores load" },
        misconception { about = {"vllm's prefix cache", "the prefix cache", "prefix cache"},
                        said = {"keyed by session", "by session id"},
                        why = "vLLM's prefix cache is keyed by chained hashes of full token blocks (hash_block_tokens), not by any session id" },
      },
    },
  },

  exercises = {
    numeric {
      id = "hit-rate-random",
      prompt = "A session sends {r} requests, one after another, that open with the same long "
            .. "prefix. Each goes to one of {n} replicas at random, and nothing is evicted. What "
            .. "share of the session's requests find the prefix already cached, in %?",
      params = { n = {2, 4, 8, 16, 32}, r = range(4, 40, 2) },
      expected = function(p)
        local t = touched(p.n, p.r)
        local h = 1 - t / p.r
        local q = "(" .. (p.n - 1) .. "/" .. p.n .. ")"
        return h * 100,
          "request k  misses unless one of the k − 1 before it chose its replica:\n"
          .. "           hits with chance 1 − " .. q .. "^(k−1)\n"
          .. "misses     Σ " .. q .. "^(k−1), k = 1 … " .. p.r .. " = " .. p.n .. " × (1 − "
          .. q .. "^" .. p.r .. ")\n"
          .. "           = " .. fixed(t, 2) .. ": one per replica touched\n"
          .. "hit rate   1 − " .. fixed(t, 2) .. " ÷ " .. p.r .. " = " .. fixed(h * 100, 1) .. "%"
      end,
      unit = "%", tolerance = abs(1.5),
      hints = { "Each replica the session touches misses once; every other request hits.",
                "Expected replicas touched: N(1 − (1 − 1/N)^R)." },
    },
    numeric {
      id = "session-prefill",
      prompt = "Sessions of " .. R .. " requests, sent one after another, each open with the "
            .. "same " .. n(P) .. " tokens and add " .. Q .. " of their own. Routed at random over " .. N .. " replicas "
            .. "(nothing evicted), how many prompt tokens does one session have prefilled in all, "
            .. "on average?",
      expected = tok_rand, unit = "tokens", tolerance = rel(0.02),
      worked = code("own         " .. R .. " requests × " .. Q .. " new tokens = " .. n(R * Q) .. " tokens\n"
        .. "touched     " .. N .. " × (1 − (" .. (N - 1) .. "/" .. N .. ")^" .. R .. ") = " .. N .. " × (1 − "
        .. fixed(((N - 1) / N) ^ R, 5) .. ") = " .. fixed(copies, 4) .. " replicas\n"
        .. "prefix      prefilled once on each: " .. fixed(copies, 4) .. " × " .. n(P) .. " = "
        .. n(copies * P) .. " tokens\n"
        .. "session     " .. n(R * Q) .. " + " .. n(copies * P) .. " = " .. n(tok_rand)
        .. " tokens (later ones on a replica hit)"),
      hints = { "Every request prefills its own " .. Q .. " tokens.",
                "The prefix is prefilled once on each replica the session touches: "
                .. N .. "(1 − (" .. (N - 1) .. "/" .. N .. ")^" .. R .. ")." },
    },
    numeric {
      id = "hit-saves-ttft",
      prompt = "kvtutor sim, " .. MODEL .. " on one " .. GPU .. ", one request at a time: a miss "
            .. "prefills " .. n(P + Q) .. " tokens, a hit only the " .. Q .. " new ones. How many "
            .. "ms of TTFT does the hit save (the simulator's medians)?",
      expected = saved_ms, unit = "ms", tolerance = rel(0.05),
      worked = code("miss   kvtutor sim median TTFT, " .. n(P + Q) .. "-token prompt = " .. f(miss.median_ttft_ms) .. " ms\n"
        .. "hit    kvtutor sim median TTFT, " .. Q .. "-token prompt   = " .. f(hit.median_ttft_ms) .. " ms\n"
        .. "       (one request at a time, so no queueing; the hit's attention over\n"
        .. "       the cached prefix is left out)\n"
        .. "saved  " .. f(miss.median_ttft_ms) .. " − " .. f(hit.median_ttft_ms) .. " = "
        .. f(saved_ms) .. " ms of TTFT"),
      serving = MISS,
      hints = { "Simulate both prompts, " .. n(P + Q) .. " and " .. Q .. " tokens, with "
                .. "--max-concurrency 1.",
                "Prefill is compute-bound: its time grows with the tokens computed." },
    },
    numeric {
      id = "prefix-memory",
      prompt = "One session's " .. n(P) .. "-token prefix in " .. MODEL .. " (BF16 KV). Under "
            .. "random routing over " .. N .. " replicas with " .. R .. " requests a session "
            .. "(sent one after another), "
            .. "how many GiB of the fleet's KV cache does that prefix occupy after the session's "
            .. R .. " requests, on average over sessions?",
      expected = copies * prefix_bytes / GiB, unit = "GiB", tolerance = rel(0.03), model = MODEL,
      worked = code("one copy  2 × " .. mm.layers .. " layers × " .. mm.kv_heads .. " KV heads × "
        .. mm.head_dim .. " × 2 B = " .. n(c.kv_bytes_per_token) .. " B a token\n"
        .. "          × " .. n(P) .. " tokens = " .. n(prefix_bytes) .. " B ÷ 2^30 = "
        .. f(prefix_bytes / GiB, 2) .. " GiB\n"
        .. "copies    one on each replica touched: " .. N .. " × (1 − (" .. (N - 1) .. "/" .. N .. ")^"
        .. R .. ") = " .. fixed(copies, 4) .. "\n"
        .. "fleet     " .. fixed(copies, 4) .. " × " .. f(prefix_bytes / GiB, 2) .. " GiB = "
        .. f(copies * prefix_bytes / GiB, 3) .. " GiB"),
      diagnose = "units",
      hints = { "One copy: " .. n(P) .. " tokens × " .. n(c.kv_bytes_per_token) .. " B.",
                "One copy on each replica the session touched: " .. f(copies, 2) .. " of them." },
    },
    numeric {
      id = "hot-prefix-load",
      prompt = "{share}% of the traffic carries one hot prefix, and a pure-affinity router "
            .. "sends all of it to one of {n} replicas; the rest spreads evenly over all {n}. How "
            .. "many times the mean load does that replica carry?",
      params = { share = range(10, 60, 5), n = {4, 8, 16} },
      expected = function(p)
        local s = p.share / 100
        local x = s * p.n + (1 - s)
        return x,
          "hot replica  " .. fixed(s, 2) .. " + " .. fixed(1 - s, 2) .. " ÷ " .. p.n
          .. " of the traffic; mean 1 ÷ " .. p.n .. "\n"
          .. "ratio        " .. fixed(s, 2) .. " × " .. p.n .. " + " .. fixed(1 - s, 2) .. " = "
          .. fixed(x, 2) .. "×"
      end,
      unit = "x", tolerance = rel(0.02),
      hints = { "The hot replica gets the whole hot share plus its 1/N of the rest.",
                "Divide by the mean, 1/N of the traffic." },
    },
    choice {
      id = "llm-d-pick",
      prompt = "llm-d's inference-scheduling guide weights queue-scorer 2, "
            .. "kv-cache-utilization-scorer 2 and prefix-cache-scorer 3. Pod A matches 90% of the "
            .. "prompt's prefix, has 6 requests waiting and 80% of its KV cache in use; pod B "
            .. "matches nothing, has none waiting and 30% in use. Which pod does the max-score "
            .. "picker choose?",
      options = {
        option { "Pod B", correct = score_b > score_a,
                 why = "A: 2×0 + 2×" .. f(A.kv, 1) .. " + 3×" .. f(A.pfx, 1) .. " = " .. f(score_a, 1) .. "; B: 2×1 + 2×"
                    .. f(B.kv, 1) .. " + 3×0 = " .. f(score_b, 1) .. ". The idle pod's queue and "
                    .. "memory outweigh A's cache match. Had A no queue either, both would score 1 "
                    .. "on the queue and A would win, " .. f(total{queue = 1, kv = A.kv, pfx = A.pfx}, 1)
                    .. " to " .. f(score_b, 1) .. ": with equal queues the prefix term decides." },
        option { "Pod A", correct = score_a > score_b,
                 why = "its prefix term is 3×" .. f(A.pfx, 1) .. " = " .. f(W_PFX * A.pfx, 1) .. ", but it scores 0 on the queue (the longer of "
                    .. "two) and only 2×" .. f(A.kv, 1) .. " on KV usage: " .. f(score_a, 1)
                    .. " against B's " .. f(score_b, 1) },
        option { "Either: the scores tie, so one is drawn at random",
                 why = f(score_a, 1) .. " and " .. f(score_b, 1) .. " do not tie" },
      },
    },
    choice {
      id = "sgl-imbalanced",
      prompt = "sgl-router's cache_aware policy with balance_abs_threshold 32 and "
            .. "balance_rel_threshold 1.1. Worker loads are 50, 30 and 10 pending requests, and "
            .. "the worker at 50 holds 95% of the new request's text. Where does it go?",
      options = {
        option { "The worker at 10, the shortest queue", correct = true,
                 why = "50 − 10 = 40 > 32 and 50 > 1.1 × 10, so the load counts as imbalanced and "
                    .. "the policy takes the least-loaded worker; the tree is still updated" },
        option { "The worker at 50, the longest match",
                 why = "matching wins only while the load is balanced; here both thresholds are passed" },
        option { "The worker with the smallest tree",
                 why = "that is the balanced case with a match below cache_threshold, in sgl-router as read (its successor smg sends that case to the least-loaded worker)" },
        option { "A random worker",
                 why = "random is the fallback only when no tree exists for the model" },
      },
    },
    freetext {
      id = "blend",
      prompt = "Why does a production router combine a prefix-cache score with load scores "
            .. "instead of using either alone?",
      answer = "Load alone (round robin, least-loaded) scatters each session's requests, so the "
            .. "replicas' local prefix caches miss more as replicas are added and each hot "
            .. "prefix is prefilled and stored on many replicas. Prefix alone piles hot prefixes "
            .. "onto one replica, whose queue and TTFT then grow while others idle. Combining "
            .. "them takes the cache hit when it is cheap and gives it up when the cached "
            .. "replica is too busy.",
      points = {
        point { "load alone loses cache hits", weight = 2,
                about = {"load alone", "round robin", "least-loaded", "least loaded", "load-only",
                         "load balancing alone", "without prefix", "only on load", "only balance load",
                         "only balancing load", "load-balancing-only", "load balancing only",
                         "load score", "load scores alone", "load-only router"},
                said = {"miss", "loses hits", "scatter", "spread", "recompute", "lower hit rate",
                        "prefill again", "re-prefill", "ignores the cache", "duplicate", "throws away",
                        "blind to locality", "ignores where the kv"} },
        point { "prefix alone overloads hot replicas", weight = 2,
                about = {"prefix alone", "affinity alone", "pure affinity", "prefix-only", "cache alone",
                         "hot prefix", "hot prefixes", "popular prefix", "only on the prefix",
                         "only on prefix", "cache-only", "prefix score alone", "prefix-cache score alone",
                         "locality alone", "chasing locality"},
                said = {"overload", "imbalance", "hotspot", "hot spot", "piles", "herds", "queue",
                        "one replica", "attracts every request", "feedback loop"} },
        point { "the blend trades a hit against queueing",
                accept = {"trades hit", "trade hits", "trade-off", "tradeoff", "weigh the two", "weighting the two",
                          "when it is cheap", "when it's cheap", "too busy", "without overloading",
                          "hit against queue", "hits against load"} },
      },
      misconceptions = {
        misconception { about = {"round robin", "least-loaded", "least loaded", "load alone", "load-only routing"},
                        said = {"raises the hit rate", "improves the hit rate", "more hits", "more cache hits",
                                "maximizes hits", "maximises hits", "keeps sessions together"},
                        why = "load-only policies ignore what each replica caches; a session's requests scatter and the hit rate falls as replicas are added" },
        misconception { about = {"prefix-cache score", "prefix score", "cache score"},
                        said = {"least loaded", "which replica is least loaded", "tells you the load",
                                "measures load"},
                        why = "the prefix-cache score says where a prompt's prefix is likely cached; the load scores (queue, KV usage) say how busy each replica is" },
        misconception { about = {"load score", "load scores"},
                        said = {"where the prefix is cached", "which replica holds the prefix"},
                        why = "load scores see queues and KV usage, not cache contents; where the prefix sits is the prefix score's part" },
        misconception { about = {"prefix routing", "prefix-aware routing", "affinity", "a hit", "cache hit"},
                        said = {"speeds up decode", "makes decode faster", "faster decode"},
                        why = "a hit saves the prefix's prefill, so TTFT and GPU time; decode still reads the whole context each step" },
      },
    },
  },
}
