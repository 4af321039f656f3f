-- A small lesson that passes lint: every kind of exercise once.
local per_token = kv.calc{model = "qwen2.5-7b"}.kv_bytes_per_token
assert(("x"):upper() == "X" and tostring(1) == "1" and string.format("%d", 2) == "2")

return lesson {
  id = "lint-good",
  title = "A lesson that passes",
  module = "tests",
  baseline = "vLLM 0.11 start-up arithmetic",
  concept = "kv-cache",
  question = "How big is the KV cache of one token?",
  answer = "2 x layers x KV heads x head_dim x bytes.",
  sections = {
    section { title = "The formula", text = "One token keeps a K and a V per layer." },
  },
  worked = code [[2 * 28 * 4 * 128 * 2 = 57,344 B]],
  followups = {
    followup {
      question = "How would you halve it?",
      answer = "Store the cache in fp8.",
      points = { point { "fp8 cache", accept = {"fp8", "8-bit"} } },
    },
  },
  exercises = {
    numeric { id = "per-token", prompt = "Bytes per token?", expected = per_token, unit = "B" },
    numeric {
      id = "per-seq", prompt = "KV of one {model} sequence of {seq} tokens, in GiB?",
      unit = "GiB", tolerance = rel(0.02),
      params = { model = {"qwen2.5-7b", "llama-3.1-8b"}, seq = range(4096, 32768, 4096) },
      expected = function(p) return kv.calc{model = p.model}.kv_bytes_per_token * p.seq / 2^30 end,
    },
    choice {
      id = "bound", prompt = "Decode is bound by?",
      options = { option { "memory bandwidth", correct = true, why = "it rereads everything" },
                  "compute" },
    },
    freetext { id = "why", prompt = "Why?", answer = "Weights are fixed.", points = { "weights fixed" } },
  },
  links = { "lint-good-two" },
}
