return lesson {
  id = "expected-errors",
  title = "Expected value errors",
  module = "tests",
  baseline = "vLLM 0.11",
  concept = "decode",
  question = "Q?",
  answer = "A.",
  sections = { section { title = "T", text = "x" } },
  worked = "1 + 1 = 2",
  followups = { followup { question = "F?", answer = "G.", points = { "g" } } },
  exercises = {
    numeric { id = "boom", prompt = "?", unit = "B",
      expected = function() return kv.calc{model = "qwen2.5-8b"}.kv_bytes_per_token end },
  },
}
