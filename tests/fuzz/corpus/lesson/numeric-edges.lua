-- H29 in the real DSL: NaN, infinity, -0, 1e308 GiB and a negative tolerance.
return lesson {
  id = "numeric-edges",
  title = "Numeric edges",
  module = "hostile",
  baseline = "none",
  concept = "grading",
  question = "Q?",
  answer = "A.",
  sections = { section { title = "Edges", text = "Every exercise below is broken on purpose." } },
  worked = "none",
  followups = { followup { question = "F?", answer = "G.", points = { "g" } } },
  exercises = {
    numeric { id = "nan",     prompt = "NaN",      expected = 0/0,       unit = "GiB" },
    numeric { id = "inf",     prompt = "Infinite", expected = math.huge, unit = "GiB" },
    numeric { id = "negzero", prompt = "-0",       expected = -0.0,      unit = "GiB" },
    numeric { id = "huge",    prompt = "1e308",    expected = 1e308,     unit = "GiB" },
    numeric { id = "negtol",  prompt = "tol",      expected = 56,        unit = "KiB", tolerance = -1 },
    numeric { id = "fnnan",   prompt = "fn NaN",   unit = "B", expected = function() return 0/0 end },
  },
}
