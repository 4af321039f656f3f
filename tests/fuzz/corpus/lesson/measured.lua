return lesson {
  id = "measured",
  title = "Measure, then predict: authoring mistakes",
  module = "tests",
  baseline = "roofline arithmetic",
  concept = "decode-bandwidth",
  question = "Q?",
  answer = "A.",
  sections = { section { title = "T", text = "x" } },
  worked = "1 + 1 = 2",
  followups = { followup { question = "F?", answer = "G.", points = { "g" } } },
  exercises = {
    numeric { id = "unknown", prompt = "?", unit = "GB/s", measured = "speed", expected = function(p) return 1 end },
    numeric { id = "fixed", prompt = "?", unit = "GB/s", measured = "read_gbps", expected = 900 },
    numeric { id = "placeholder", prompt = "At {peak} GB/s?", unit = "tokens/s", measured = "peak_gbps",
              expected = function(p) return p.peak_gbps / 15.7 end },
  },
}
