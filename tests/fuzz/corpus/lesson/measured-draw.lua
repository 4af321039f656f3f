return lesson {
  id = "measured-draw",
  title = "Measure, then predict: a draw that fails",
  module = "tests",
  baseline = "roofline arithmetic",
  concept = "decode-bandwidth",
  question = "Q?",
  answer = "A.",
  sections = { section { title = "T", text = "x" } },
  worked = "1 + 1 = 2",
  followups = { followup { question = "F?", answer = "G.", points = { "g" } } },
  exercises = {
    numeric { id = "drawn", prompt = "At {read_gbps} GB/s?", unit = "tokens/s", measured = "read_gbps",
              expected = function(p) return 1 / (p.read_gbps - 900) end },
  },
}
