return lesson {
  id = "lint-good-two",
  title = "The second one",
  module = "tests",
  baseline = "vLLM 0.11",
  concept = "decode",
  question = "Q?",
  answer = "A.",
  sections = { section { title = "T", text = "x" } },
  worked = "1 + 1 = 2",
  followups = { followup { question = "F?", answer = "G.", points = { "g" } } },
  exercises = { numeric { id = "two", prompt = "1 + 1?", expected = 2, unit = "" } },
  links = { "lint-good" },
}
