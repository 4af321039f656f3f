#!/usr/bin/env bash
# Keys that never surprise: Esc never quits, q goes back one screen (and
# quits only on the course map), Q quits from anywhere, a typed answer is
# not dropped by one Esc, and the status line and help list only keys that
# work where they are shown. Prints "N passed, N failed".
set -u
KVTUTOR=${KVTUTOR:?set KVTUTOR to the kvtutor binary}
work=$(mktemp -d /tmp/kvt_tui_keys.XXXXXX)
# shellcheck source=tui_lib.sh
. "$(dirname "$0")/tui_lib.sh"

lessons="$(cd "$(dirname "$0")/../../lessons" && pwd)"
# --- module titles: lint refuses an empty one ---
sed 's/module_title = "Part 0 · Foundations"/module_title = ""/' \
  "$lessons/part0-foundations/01-kv-cache.lua" > "$work/empty-title.lua"
if out=$("$KVTUTOR" lint "$work/empty-title.lua" 2>&1); then
  bad "lint refuses an empty module_title (exit 0)"
elif printf '%s' "$out" | grep -qF "module_title is empty"; then
  ok "lint refuses an empty module_title"
else
  bad "lint refuses an empty module_title: $out"
fi

status_line() { screen | sed '/^$/d' | tail -1; }
# still_running WHAT: the app still reads keys: ? opens its help (a
# screen only the app draws), q goes back to the map
still_running() {
  tm send-keys -t app '?'
  if wait_for "Help: the keys" && ! screen | grep -qF "EXIT="; then ok "$1"; else bad "$1: the app exited"; fi
  tm send-keys -t app q
  wait_for "Course map" >/dev/null
}

start_shell
run_app
check "the course map is shown" "Course map"
check "the map heads a module with its title" "Part 0 · Foundations"
if screen | grep -qF "part0-foundations"; then bad "no module id on the map"; else ok "no module id on the map"; fi
if status_line | grep -qF "$db"; then
  bad "the status line leaves the database path to the settings screen"
else
  ok "the status line leaves the database path to the settings screen"
fi

# --- Esc on the map: never a quit; after a search it clears the search ---
tm send-keys -t app Escape
check "Esc on the course map says how to quit" "q or Q quits kvtutor"
still_running "Esc on the course map does not quit"
tm send-keys -t app / r o o f l i n e Enter
check "a search narrows the map" "matching roofline"
tm send-keys -t app Escape
for _ in $(seq 30); do screen | grep -qF "matching roofline" || break; sleep 0.1; done
if screen | grep -qF "matching roofline"; then bad "Esc clears a finished search"; else ok "Esc clears a finished search"; fi
still_running "Esc after a search does not quit"

# --- a search that finds nothing: no lesson to open, so no key offers one ---
tm send-keys -t app / z z z q Enter
check "a search can find nothing" "No lesson matches"
if status_line | grep -qE "Enter/l open|e exercises"; then
  bad "with no lesson found, no key to open one: \"$(status_line)\""
else
  ok "with no lesson found, no key to open one"
fi
tm send-keys -t app '?'
wait_for "Help: the keys" >/dev/null
if screen | grep -qE "open the selected lesson|interview: a timed"; then bad "help lists no lesson keys with no lesson found"; else ok "help lists no lesson keys with no lesson found"; fi
tm send-keys -t app q
wait_for "No lesson matches" >/dev/null
tm send-keys -t app Escape
wait_for "Prefill and decode on the roofline" >/dev/null

# --- search looks in the lessons' text, not only their titles ---
tm send-keys -t app / d e e p s e e k Enter
check "a word of the text finds the lesson (DeepSeek: the MLA lesson)" "Smaller KV: GQA, MLA, fp8 and windows"
tm send-keys -t app Escape
wait_for "Prefill and decode on the roofline" >/dev/null

# --- the settings screen shows where progress is kept ---
tm send-keys -t app S
check "the settings screen names the progress database" "Progress database: $db"
check "Enter is offered where it edits a setting" "Enter change"
tm send-keys -t app q
check "q goes back from the settings" "Course map"

# --- progress: Enter does nothing there, so it is not offered ---
tm send-keys -t app p
wait_for "Progress" >/dev/null
wait_for "│ ? help" >/dev/null
if status_line | grep -qF "Enter"; then bad "the progress screen offers no Enter"; else ok "the progress screen offers no Enter"; fi
tm send-keys -t app q
check "q goes back from progress" "Course map"

# --- help: the scrolling keys, j and k described right ---
tm send-keys -t app '?'
check "help lists j/k as down and up" "move down / up"
check "help lists the paging keys" "page down / up (or PgDn/PgUp)"
check "help lists g and G" "top / bottom"
check "help says Esc never quits from the map" "on the course map it clears a search"
# l opens a lesson as Enter does (and follows a link in a lesson): listed
check "help lists l with Enter, for it opens the lesson too" "Enter/l       open the selected lesson"
tm send-keys -t app q
check "q goes back from help" "Course map"

# --- a lesson: R reloads (r is review on the map), q goes back ---
tm send-keys -t app g Enter
check "Enter opens the lesson" "Direct answer"
check "the reader offers reload as R" "R reload"
qline=$(screen | grep -n "Question" | head -1 | cut -d: -f1)
cline=$(screen | grep -n "Checked against" | head -1 | cut -d: -f1)
if [ -n "$qline" ] && [ -n "$cline" ] && [ "$qline" -lt "$cline" ]; then
  ok "the lesson opens with its question, what it was checked against below it"
else
  bad "the lesson opens with its question (Question at line ${qline:-none}, Checked against at ${cline:-none})"
fi
if screen | grep -qF "concept:"; then bad "the reader shows no concept id"; else ok "the reader shows no concept id"; fi
tm send-keys -t app q
check "q goes back from the lesson" "Course map"

# --- a typed answer is not dropped by one Esc ---
tm send-keys -t app e
check "e starts the exercises" "Answer:"
# a tab inside pasted text is a space, not Tab's hint (a hint caps the rating)
tm send-keys -t app -l "$(printf '56\tKiB')"
check "a pasted tab is typed as a space" "Answer: 56 KiB"
if screen | grep -qF "Hint 1:"; then bad "a pasted tab shows no hint"; else ok "a pasted tab shows no hint"; fi
tm send-keys -t app C-u
tm send-keys -t app Tab
check "Tab pressed alone still shows a hint" "Hint 1:"
tm send-keys -t app 5 6
tm send-keys -t app Escape
check "Esc over a typed answer warns first" "Esc again drops it"
if screen | grep -qF "Course map"; then bad "the answer stays after one Esc"; else ok "the answer stays after one Esc"; fi
tm send-keys -t app Escape
check "a second Esc leaves the exercise" "Course map"
wait_for "Enter/l open" >/dev/null
# the warning was about the answer: on the map Enter opens a lesson
if screen | grep -qF "Esc again drops it"; then bad "the warning goes with the exercise it was about"; else ok "the warning goes with the exercise it was about"; fi

# --- counts: an exercise answered twice and a follow-up are not "2/12" ---
# (the first lesson has 12 exercises and 5 follow-ups: lessons/part0-foundations/01-kv-cache.lua)
tm send-keys -t app g e
check "practice counts exercises apart from follow-ups" "practice · exercise 1 of 12"
tm send-keys -t app "56 KiB" Enter
wait_for "Right." >/dev/null
tm send-keys -t app a
wait_for "Answer:" >/dev/null
tm send-keys -t app "56 KiB" Enter
wait_for "Right." >/dev/null
# the second answer today is practice: no rating is asked, so no rating key
# is offered, nor s (it saves an answer a database error left unsaved)
check "an answer again the same day is practice" "Practice: recorded, not rated"
if status_line | grep -qE "1-4 rate|s save"; then
  bad "a practice answer offers no rating key nor s: \"$(status_line)\""
else
  ok "a practice answer offers no rating key nor s"
fi
tm send-keys -t app '?'
wait_for "Help: the keys" >/dev/null
if screen | grep -qE "^  (1-4|s) "; then bad "help on a practice answer lists no rating key nor s"; else ok "help on a practice answer lists no rating key nor s"; fi
tm send-keys -t app q
wait_for "Practice: recorded" >/dev/null
check "n goes on as Enter does, and the status line says so" "Enter/n next"
tm send-keys -t app a
wait_for "Answer:" >/dev/null
tm send-keys -t app "28 KiB" Enter
wait_for "Not quite." >/dev/null
tm send-keys -t app f
check "follow-ups are numbered apart" "practice · follow-up 1 of 6"
tm send-keys -t app "Quantize the weights with AWQ and store the KV cache in fp8" Enter
wait_for "Key points covered" >/dev/null
tm send-keys -t app q
check "the map counts the exercise once" " 1/12 done"
check "the foot line counts follow-ups apart" "kv-cache · done: 1/12 exercises, 1/6 follow-ups"
# --- progress names diagnoses and lessons, not their ids ---
tm send-keys -t app p
check "a diagnosis is named, not its id" "1× left out the x2 for K and V"
check "a lesson is named by its title (56 KiB twice, 28 KiB, a follow-up)" "The KV cache caps concurrency: 4 answers, 75% right"
if screen | grep -qF "no-kv-pair"; then bad "no diagnosis id on the progress screen"; else ok "no diagnosis id on the progress screen"; fi
# what was seen is counted as the map counts it: one exercise (answered
# three times), one follow-up, not the lesson's question
check "progress counts what was seen as the map does" "Seen: 1 exercise, 1 follow-up, 0 lesson questions"
if screen | grep -qF "2 exercises seen"; then bad "a follow-up is not counted as an exercise"; else ok "a follow-up is not counted as an exercise"; fi
tm send-keys -t app q
wait_for "Course map" >/dev/null

# --- the playground: a config.json without a parameter count asks for it ---
# (Mamba2 layers are not counted, so a Nemotron-H style config.json gives no count)
fixtures="$(cd "$(dirname "$0")/../fixtures" && pwd)"
printf '%s\n' '{"model_type": "nemotron_h", "num_hidden_layers": 6, "hidden_size": 4096,' \
  '"num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 128, "vocab_size": 131072,' \
  '"intermediate_size": 21504, "hybrid_override_pattern": "M-M*M-", "mamba_num_heads": 128,' \
  '"mamba_head_dim": 64, "n_groups": 8, "ssm_state_size": 128, "conv_kernel": 4}' > "$work/ds.json"
cp "$fixtures/configs/qwen3-14b.config.json" "$work/q14.json"
tm send-keys -t app '='
check "= opens the playground" "Calculator playground"
# the decode ceiling is taken at the context shown (8,192 tokens a sequence):
# Qwen2.5-7B on an RTX 4090 at batch 16 reads 15.231 GB of weights and 16 x
# 8,192 x 57,344 B = 7.516 GB of KV a step: 16 x 1,008 / 22.748 = 709 tok/s,
# 44.3 a sequence (tests/fixtures/gpus.tsv, model-presets.tsv)
tm send-keys -t app b b b b
check "the ceiling at the context shown" "Decode: batch 16 at 8,192 tokens, 709 tok/s (44.3 each), memory-bound"
# 1,024 sequences of 8,192 tokens need 8.4M KV tokens: far more than the card holds
tm send-keys -t app b b b b b b
check "no ceiling when the batch's KV does not fit" "Decode: batch 1,024 at 8,192 tokens: none, 1,024 sequences do not fit"
tm send-keys -t app B B B B B B B B B B
wait_for "batch 1 ·" >/dev/null
# fp32 weights: 7,615,616,512 x 4 B = 28.4 GiB, more than the card's 24 GiB
tm send-keys -t app w w w w
check "no ceiling when the weights do not fit" "Decode: batch 1 at 8,192 tokens: none, the weights do not fit"
tm send-keys -t app w
wait_for "weights auto" >/dev/null
tm send-keys -t app o
wait_for "config.json path:" >/dev/null
tm send-keys -t app C-u "$work/nothing-here.json" Enter
check "a missing file is an error line" "nothing-here.json:"
tm send-keys -t app C-u "$work/q14.json" Enter
check "a file that loads says so" "q14.json loaded"
if screen | grep -qF "nothing-here.json"; then bad "the old error line is cleared"; else ok "the old error line is cleared"; fi
tm send-keys -t app o
wait_for "config.json path:" >/dev/null
tm send-keys -t app C-u "$work/ds.json" Enter
check "no parameter count: the weights are unknown and the count is asked for" "gives no parameter count, so its weights are unknown"
check "the prompt asks for the parameters" "parameters (B):"
if screen | grep -qF "weights 0 B"; then bad "never weights 0 B"; else ok "never weights 0 B"; fi
tm send-keys -t app "lots" Enter
check "a count that is not a number is refused" "a count in billions"
tm send-keys -t app C-u "685B" Enter
check "with the count the config.json is loaded (685B, written as typed: no space)" "ds.json loaded, with 685B parameters"
check "and drawn" "Model  $work/ds.json"
if screen | grep -qF "weights 0 B"; then bad "weights drawn from the count"; else ok "weights drawn from the count"; fi
tm send-keys -t app q
wait_for "Course map" >/dev/null

# --- Q quits from a screen other than the map ---
tm send-keys -t app p
wait_for "Progress" >/dev/null
tm send-keys -t app Q
check "Q quits from any screen" "EXIT=0"
stty_kept "quit with Q"

# --- keys typed while lessons load: none is lost, an arrow arrives whole ---
# A lesson that runs to its 2 s load deadline keeps the app loading; the
# keys go in on its turn (the last file: "loading lessons: N of N"): a
# search with the cursor moved left and back. The loading timer used to eat
# them a byte at a time, so none reached the map, or an arrow came as "[D".
mkdir -p "$work/slowload"
printf 'while true do end\n' > "$work/slowload/zz-slow.lua"
start_shell
run_app --lessons "$work/slowload"
for _ in $(seq 100); do
  screen | grep -qE 'loading lessons: ([0-9]+) of \1' && break
  sleep 0.05
done
tm send-keys -t app / r o o f l i n Left Right e Enter
check "keys typed while lessons load reach the map in order, arrows whole" "matching roofline" 100
tm send-keys -t app Escape
wait_for "Course map" >/dev/null
tm send-keys -t app Q
check "after keys typed while loading, Q quits" "EXIT=0"
stty_kept "keys typed while loading"

# --- a quit that would lose something asks first; the same key again quits ---
start_shell
run_app
wait_for "Course map" >/dev/null
tm send-keys -t app g e
wait_for "Answer:" >/dev/null
tm send-keys -t app "56 Ki"
wait_for "Answer: 56 Ki" >/dev/null
# help over the answer being typed: Q there would drop the answer
tm send-keys -t app F1
wait_for "Ctrl-U/W" >/dev/null
tm send-keys -t app Q
check "Q with an answer typed asks first" "Quit kvtutor? the answer you typed would be lost: Q again quits"
tm send-keys -t app q
check "another key stays: the answer is still there" "Answer: 56 Ki"
if screen | grep -qF "EXIT="; then bad "the app did not quit"; else ok "the app did not quit"; fi
tm send-keys -t app F1
wait_for "Ctrl-U/W" >/dev/null
tm send-keys -t app Q
wait_for "Q again quits" >/dev/null
tm send-keys -t app Q
check "Q again quits" "EXIT=0"
# nothing at stake: q on the course map quits at once, as before
start_shell
run_app
wait_for "Course map" >/dev/null
tm send-keys -t app q
check "q on the course map with nothing at stake quits at once" "EXIT=0"
# a probe still running (a fake one that waits): Q asks, Q again quits
inst="$work/inst"
mkdir -p "$inst/bin" "$inst/share" "$inst/libexec/kvtutor"
cp "$KVTUTOR" "$inst/bin/kvtutor"
ln -s "$(dirname "$KVTUTOR")/share/kvtutor" "$inst/share/kvtutor"
cat > "$inst/libexec/kvtutor/kvtutor-probe-cpu" <<'SH'
#!/bin/sh
echo '{"type":"device","kind":"cpu","name":"Fake CPU","threads":2,"free_bytes":1073741824}'
echo '{"type":"progress","kernel":"read","percent":10}'
exec sleep 30
SH
chmod +x "$inst/libexec/kvtutor/kvtutor-probe-cpu"
start_shell
APP="$inst/bin/kvtutor" run_app
wait_for "Course map" >/dev/null
tm send-keys -t app P
wait_for "Fake CPU" >/dev/null
tm send-keys -t app Q
check "Q with a probe running asks first" "Quit kvtutor? the probe still running would be lost"
tm send-keys -t app Q
check "Q again quits, the probe stopped" "EXIT=0"

report tui_keys
