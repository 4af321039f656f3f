-- kvtutor's lesson DSL. Loaded into each lesson's sandbox before the lesson
-- itself; everything here is a convenience over the host's primitives.
-- docs/lessons.md teaches it from a complete example.
--
-- Each constructor takes a table and returns it, marked with its kind and
-- the lesson line it was written on, so kvtutor lint can point at the line.

local mark = host.mark

local function constructor(kind)
  return function(t)
    if type(t) ~= "table" then
      error(kind .. " takes a table: " .. kind .. " { ... }", 2)
    end
    return mark(t, kind)
  end
end

lesson   = constructor("lesson")    -- the whole lesson (the file returns it)
section  = constructor("section")   -- section { title = ..., text = ... }
followup = constructor("followup")  -- followup { question = ..., answer = ..., points = {...} }
-- point { "key idea", accept = {"phrasing", ...}, weight = 2 }: any phrasing covers it; or a claim,
-- point { "decode is memory-bound", about = {"decode", ...}, said = {"memory-bound", ...},
--         short = {"decode"} }: covered when an about and a said phrasing share a clause and
-- the said one is not negated there, or when a short phrasing is a whole clause.
-- polarity = "no" (or "yes"): the point is the answer to a yes/no question, covered by an
-- answer that opens with "No," ("Yes,").
point    = constructor("point")
-- misconception { about = {"prefill"}, said = {"memory-bound"}, why = "..." }: a wrong claim;
-- found in an answer, it makes the answer wrong and is shown with its why.
misconception = constructor("misconception")
numeric  = constructor("numeric")   -- a number with a unit, checked within a tolerance
choice   = constructor("choice")    -- multiple choice: options = { option {...}, ... }
option   = constructor("option")    -- option { "text", correct = true, why = "..." }
freetext = constructor("freetext")  -- a written answer scored on key points

-- Tolerances: rel(0.02) is within 2% of the expected value, abs(512) within
-- 512 of it, in the exercise's unit.
function rel(fraction)
  return mark({ relative = fraction }, "tolerance")
end

function abs(amount)
  return mark({ absolute = amount }, "tolerance")
end

-- Parameters drawn for each attempt: a list to pick from, or range(lo, hi, step).
function range(lo, hi, step)
  return mark({ lo = lo, hi = hi, step = step or 1 }, "range")
end

-- A worked block, shown as written (monospace, no wrapping).
function code(text)
  return mark({ text = text }, "code")
end

-- Numbers in text: fixed(57.321, 1) is "57.3" and fixed(1650.4, 0) is
-- "1,650" (the whole part grouped in threes, as the app prints figures);
-- grouped(57344) is "57,344" (rounded to a whole number first). Figures
-- computed in the lesson read the same way as those the app prints. A
-- lesson that needs the rounded value as a number rounds it itself
-- (tonumber of string.format), since a grouped figure is text.
function fixed(x, places)
  local s = string.format("%." .. (places or 0) .. "f", x)
  local sign, whole, rest = s:match("^(-?)(%d+)(.*)$")
  if not whole or #whole < 4 then
    return s -- short, or inf and nan as string.format writes them
  end
  return sign .. whole:reverse():gsub("(%d%d%d)", "%1,"):reverse():gsub("^,", "") .. rest
end

-- fixed with its trailing zeros dropped, as the app drops them: upto(1.879, 4)
-- is "1.879", upto(867.4, 2) is "867.4", upto(2, 2) is "2".
function upto(x, places)
  local s = fixed(x, places)
  if s:find(".", 1, true) then
    s = s:gsub("0+$", "")
    s = s:gsub("%.$", "")
  end
  return s
end

function grouped(x)
  local whole = math.floor(math.abs(x) + 0.5)
  local digits = string.format("%d", whole):reverse():gsub("(%d%d%d)", "%1,"):reverse()
  return (x < 0 and "-" or "") .. digits:gsub("^,", "")
end
