#!/usr/bin/env bash
# Numbers on the app's screens read as `kvtutor stats` and `calc` write
# them: counts grouped (1,200), a share that is not all or nothing never
# shown as 100% or 0%. Prints "N passed, N failed".
set -u
KVTUTOR=${KVTUTOR:?set KVTUTOR to the kvtutor binary}
work=$(mktemp -d /tmp/kvt_tui_numbers.XXXXXX)
# shellcheck source=tui_lib.sh
. "$(dirname "$0")/tui_lib.sh"

# --- the progress screen: 1,200 answers to kv-cache, 1,199 right; 300 to
# memory-bound-decode, 1 right; 60 s each ---
now=$(date +%s)
{
  printf '{"format": "kvtutor-export", "version": 1, "attempts": [\n'
  for i in $(seq 0 1499); do
    if [ "$i" -lt 1200 ]; then
      lesson=kv-cache concept=kv-cache
      if [ "$i" = 0 ]; then verdict=wrong score=0; else verdict=correct score=1; fi
    else
      lesson=memory-bound-decode concept=decode-bandwidth
      if [ "$i" = 1200 ]; then verdict=correct score=1; else verdict=wrong score=0; fi
    fi
    [ "$i" = 0 ] || printf ','
    printf '{"uid": "%032x", "learner": "default", "module": "part0-foundations", "lesson": "%s", "concept": "%s", "exercise": "e", "answer": "1", "verdict": "%s", "score": %d, "seconds": 60, "created_at": %d}\n' \
      $((i + 1)) "$lesson" "$concept" "$verdict" "$score" $((now - 60 - i))
  done
  printf '], "reviews": []}\n'
} > "$work/many.json"
if "$KVTUTOR" import "$work/many.json" --db "$db" > /dev/null; then ok "1,500 answers imported"; else bad "import"; fi

start_shell
run_app
wait_for "Course map" >/dev/null
tm send-keys -t app p
# 1,199 + 1 = 1,200 right of 1,500: 80%; 1,500 x 60 s = 1,500 minutes
check "the answers are counted in thousands" "1,500 answers, 80% right ·"
check "the minutes are grouped" "time answering: 1,500 min"
# 1,199 / 1,200 = 99.92%: 99.9%, not 100%; 1 / 300 = 0.33%: 0.3%, not 0%
check "almost all right is not 100%" "The KV cache caps concurrency: 1,200 answers, 99.9% right, 0 due"
check "almost none right is not 0%" "300 answers, 0.3% right, 0 due"
check "a concept's share and count" "99.9% of 1,200"
check "a concept's share, almost none" "0.3% of 300"
# the 1,500 answers were all given within the last 26 minutes: today's count
# under the chart is 1.5k, not clamped at 99 (unless midnight fell between)
if [ "$(date -d "@$((now - 1560))" +%F)" = "$(date -d "@$now" +%F)" ]; then
  check "a day of 1,500 answers is labelled so, not clamped at 99" "1.5k"
  if screen | grep -qE '(^| )99 *$'; then bad "no day clamped at 99"; else ok "no day clamped at 99"; fi
fi
tm send-keys -t app q
wait_for "Course map" >/dev/null
tm send-keys -t app Q
check "the app quits" "EXIT=0"

# --- signs against their numbers, shares never all or nothing: a lesson
# with an answer in "x", one in "%", and a follow-up whose key points weigh
# 100, 100 and 1 ---
mkdir -p "$work/fmt"
cat > "$work/fmt/fmt.lua" <<'LUA'
return lesson {
  id = "fmt-check", title = "Formats", module = "tests", baseline = "vLLM 0.11",
  concept = "fmt", question = "Q?", answer = "A.",
  sections = { section { title = "T", text = "x" } },
  worked = "1 + 1 = 2",
  followups = { followup { question = "Which letters?", answer = "Alpha and beta.",
    points = { point { "alpha", weight = 100 }, point { "beta", weight = 100 },
               point { "gamma", weight = 1 } } } },
  exercises = {
    numeric { id = "ratio", prompt = "How many times?", expected = 7, unit = "x" },
    numeric { id = "share", prompt = "What share?", expected = 93.9, unit = "%",
              tolerance = abs(0.5) },
  },
}
LUA
start_shell
run_app --lessons "$work/fmt" open fmt-check
wait_for "Which letters?" >/dev/null
tm send-keys -t app e
check "the exercises start" "exercise 1 of 2"
tm send-keys -t app "7" Enter
check "\"x\" against its number" "Expected: 7x, within 1% (±0.07x)"
check "and read so" "Read as: 7x"
tm send-keys -t app Enter
check "the second exercise" "exercise 2 of 2"
tm send-keys -t app "93.9" Enter
check "\"%\" against its number" "Expected: 93.9%, within ±0.5%"
check "and read so" "Read as: 93.9%"
tm send-keys -t app Enter
check "the follow-up" "Which letters?"
tm send-keys -t app "alpha and beta" Enter
# 100 + 100 of 201 = 99.5%: not rounded up to all of them
check "a share of key points just short of all is not 100%" "Key points covered: 99.5% (weight 200 of 201)"
tm send-keys -t app Enter
wait_for "3 of 3 answers right" >/dev/null
tm send-keys -t app q
wait_for "Which letters?" >/dev/null
tm send-keys -t app i
check "the interview asks the follow-up" "Which letters?"
tm send-keys -t app "alpha and beta" Enter
wait_for "Rating:" >/dev/null
tm send-keys -t app Enter
check "the interview's score, not 100%" "Interview score: 99.5% of the key points"
tm send-keys -t app Q
check "the app quits after the interview" "EXIT=0"

# --- an expected value that is not whole reads in the course's format, as
# precise as its tolerance, never as a raw decimal ("1423.3399") ---
mkdir -p "$work/dec"
cat > "$work/dec/dec.lua" <<'LUA'
return lesson {
  id = "dec-check", title = "Decimals", module = "tests", baseline = "vLLM 0.26",
  concept = "dec", question = "Q?", answer = "A.",
  sections = { section { title = "T", text = "x" } },
  worked = "1 + 1 = 2",
  followups = { followup { question = "Why?", answer = "Because.",
    points = { point { "because" } } } },
  exercises = {
    numeric { id = "rate", prompt = "How many tokens a second?", expected = 1423.3399239973169,
              unit = "tokens/s", tolerance = rel(0.03) },
  },
}
LUA
start_shell
run_app --lessons "$work/dec" open dec-check
wait_for "Q?" >/dev/null
tm send-keys -t app e
check "the exercise starts" "How many tokens a second?"
tm send-keys -t app "9" Enter
# 3% of 1,423.34 is 42.70: shown as ±42.7, and the value to the units that
# such a tolerance makes sense of: 1,423, grouped
check "the expected value grouped, to its tolerance" "Expected: 1,423 tokens/s, within 3% (±42.7 tokens/s)"
if screen | grep -qF "1423.3"; then bad "no raw decimal on the screen"; else ok "no raw decimal on the screen"; fi
tm send-keys -t app Q
check "the app quits" "EXIT=0"

# (after a wrong answer, the arithmetic shown is the exercise's own with the
# parameter drawn: test_ui_screens, in-process)

# --- the probe screen: a kernel 99.7% of the way is not shown as done ---
# (kvtutor installed beside a probe that reports 99.7% of its read pass and
# waits; no CUDA probe, so the host's)
inst="$work/inst"
mkdir -p "$inst/bin" "$inst/share" "$inst/libexec/kvtutor"
cp "$KVTUTOR" "$inst/bin/kvtutor"
ln -s "$(dirname "$KVTUTOR")/share/kvtutor" "$inst/share/kvtutor"
cat > "$inst/libexec/kvtutor/kvtutor-probe-cpu" <<'SH'
#!/bin/sh
echo '{"type":"device","kind":"cpu","name":"Fake CPU","threads":2,"free_bytes":1073741824}'
echo '{"type":"progress","kernel":"read","percent":99.7}'
exec sleep 30
SH
chmod +x "$inst/libexec/kvtutor/kvtutor-probe-cpu"
start_shell
APP="$inst/bin/kvtutor" run_app
wait_for "Course map" >/dev/null
tm send-keys -t app P
check "the fake probe runs" "Fake CPU"
check "99.7% of the read pass reads as such, not 100%" "99.7%"
if screen | grep -qF "100%"; then bad "no kernel shown at 100% before its result"; else ok "no kernel shown at 100% before its result"; fi
tm send-keys -t app q
wait_for "Course map" >/dev/null
tm send-keys -t app Q
check "the app quits after the probe" "EXIT=0"

# --- the playground at 80 columns, the smallest terminal the app takes ---
TUI_SIZE=80x24
start_shell
run_app
wait_for "Course map" >/dev/null
tm send-keys -t app '='
wait_for "Calculator playground" >/dev/null
# Qwen2.5-7B on an RTX 4090: 24 GiB x 0.92 = 23,708,219,883 B usable, less
# 7,615,616,512 x 2 B of weights = 8,476,986,859 B of KV; a block is 16 x 2 x
# 4 x 128 x 2 B x 28 layers = 917,504 B: 9,239 blocks; 8,192 tokens are 512
# blocks: 9,239 / 512 = 18.045, which vLLM prints "18.04x"
check "vLLM's concurrency, two decimals and an x, whole at 80 columns" \
  "Max concurrency at 8,192 tokens: 18.04x  →  18 whole sequences"
check "the KV a token beside the model, whole" "Qwen/Qwen2.5-7B-Instruct  (KV 56 KiB a token)"
check "the GPU's bandwidth grouped" "GPU    RTX 4090: 24 GiB, 1,008 GB/s"
# 24 GiB x (1 - 0.92) = 1.92 GiB held back, with the minus sign the
# arithmetic below it writes
check "the reserve with a minus sign, as the arithmetic has it" "░ reserve (1 − util) 1.92 GiB"
check "the chart's last row is on the screen" "128k"
# four doublings of the context (131,072) and eight of the batch (256): the
# settings row is 2 + 78 columns, so TP moves to a row of its own, whole
tm send-keys -t app c c c c b b b b b b b b
check "a long settings row breaks between items" "context 131,072 tokens · batch 256 · KV auto · weights auto · util 0.92"
if screen | grep -qE '^    TP 1 *$'; then ok "TP on the next row, whole"; else bad "TP on the next row, whole"; fi
tm send-keys -t app C C C C B B B B B B B B
# Qwen2.5-14B: 14,770,033,664 x 2 B = 29,540,067,328 B of weights (27.5 GiB)
# against 23,708,219,883 B usable: 5,831,847,445 B = 5.43 GiB too many
tm send-keys -t app m
check "weights that do not fit say by how much" "The weights do not fit: 5.43 GiB over what one GPU may use"
check "what one GPU may use, not a budget" "█ weights 27.5 GiB · usable 22.1 GiB (24 GiB × 0.92)"
if screen | grep -qE 'KV budget|Max concurrency|0\.00'; then bad "no budget, no concurrency, no zeros"; else ok "no budget, no concurrency, no zeros"; fi
tm send-keys -t app a
check "the arithmetic says there is no budget" "budget     24 GiB × 0.92 − 27.5 GiB weights < 0: none"
if screen | grep -qE 'blocks .*→'; then bad "no blocks line without a budget"; else ok "no blocks line without a budget"; fi
tm send-keys -t app q
wait_for "Course map" >/dev/null
tm send-keys -t app Q
check "the app quits from the playground's map" "EXIT=0"

report tui_numbers
