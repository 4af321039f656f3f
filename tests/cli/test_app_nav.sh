#!/usr/bin/env bash
# Keys that never surprise, in-process (kvtutor --keys): Esc never quits, q
# goes back one screen (and quits only on the course map), Q quits from
# anywhere, a quit that would lose an answer or a probe run asks first, a
# typed answer is not dropped by one Esc, and the status line and help list
# only keys that work where they are shown; with them the counts, names and
# playground figures those screens show. (It replaced most of
# tests/tui/test_tui_keys.sh, which keeps what needs a real terminal: keys
# typed while lessons load, a pasted tab, and the terminal as it was after
# Q.) Prints "N passed, N failed".
#   KVTUTOR=build/kvtutor bash tests/cli/test_app_nav.sh
set -u
KVTUTOR=${KVTUTOR:?set KVTUTOR to the kvtutor binary}
here_dir=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/kvt_app_nav.XXXXXX)
# shellcheck source=keys_lib.sh
. "$here_dir/keys_lib.sh"
lessons="$here_dir/../../lessons"
fixtures="$here_dir/../fixtures"

# status_at N: the status line (the screen's last line with text) after line N
status_at() { at "$1" | sed '/^$/d' | tail -1; }
# lacks_at N DESCRIPTION MARK TEXT: after line N, the screen is the one meant
# (MARK on it) and TEXT (a fixed string) is not
lacks_at() {
  if ! at "$1" | grep -qF -- "$3"; then
    bad "$2 (not the screen meant: no \"$3\" after line $1)"
    at "$1" | sed 's/^/  | /'
  elif at "$1" | grep -qF -- "$4"; then
    bad "$2 (\"$4\" after line $1)"
    at "$1" | sed 's/^/  | /'
  else
    ok "$2"
  fi
}
# running_at N DESCRIPTION TEXT: the app was still running at line N: it
# drew the screen after it (TEXT on it, a screen only the app draws) and had
# not printed that it quit before
running_at() {
  if sed -n "1,/^── line $1: /p" "$work/screens" | grep -qx "── the app quit"; then
    bad "$2: the app quit before line $1"
  elif at "$1" | grep -qF -- "$3"; then
    ok "$2"
  else
    bad "$2 (no \"$3\" after line $1)"
    at "$1" | sed 's/^/  | /'
  fi
}
# quit_at N DESCRIPTION: the app quit at line N, exit 0: it read line N, then
# said it quit, and never read line N+1 (each script has a key after the quit)
quit_at() {
  if [ "$played" = 0 ] && grep -q "^── line $1: " "$work/screens" &&
    ! grep -q "^── line $(($1 + 1)): " "$work/screens" && grep -qx '── the app quit' "$work/screens"; then
    ok "$2"
  else
    bad "$2 (exit $played; lines read: $(grep -c '^── line ' "$work/screens"), $(tail -c 300 "$work/err"))"
  fi
}

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

# The playground's config.json files (read in the one sitting below)
# (Mamba2 layers are not counted, so a Nemotron-H style config.json gives no count)
printf '%s\n' '{"model_type": "nemotron_h", "num_hidden_layers": 6, "hidden_size": 4096,' \
  '"num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 128, "vocab_size": 131072,' \
  '"intermediate_size": 21504, "hybrid_override_pattern": "M-M*M-", "mamba_num_heads": 128,' \
  '"mamba_head_dim": 64, "n_groups": 8, "ssm_state_size": 128, "conv_kernel": 4}' > "$work/ds.json"
cp "$fixtures/configs/qwen3-14b.config.json" "$work/q14.json"

# One sitting, from the map to Q on the progress screen; the checks follow it.
# still_running: ? opens the app's help (a screen only the app draws), q
# goes back to the map; its line number is in $help_at
still_running() {
  step '?'
  help_at=$(here)
  step q
}

# --- Esc on the map: never a quit; after a search it clears the search ---
step '<Esc>'
esc_at=$(here)
still_running
esc_help_at=$help_at
step / 'roofline<Enter>'
search_at=$(here)
step '<Esc>'
cleared_at=$(here)
still_running
cleared_help_at=$help_at

# --- a search that finds nothing: no lesson to open, so no key offers one ---
step / 'zzzq<Enter>'
none_at=$(here)
step '?'
none_help_at=$(here)
step q '<Esc>'

# --- search looks in the lessons' text, not only their titles ---
step / 'deepseek<Enter>'
deepseek_at=$(here)
step '<Esc>'

# --- the settings screen shows where progress is kept ---
step S
settings_at=$(here)
step q
settings_back_at=$(here)

# --- progress: Enter does nothing there, so it is not offered ---
step p
progress_at=$(here)
step q
progress_back_at=$(here)

# --- help: the scrolling keys, j and k described right ---
step '?'
help_at=$(here)
step q
help_back_at=$(here)

# --- a lesson: R reloads (r is review on the map), q goes back ---
step g '<Enter>'
lesson_at=$(here)
step q
lesson_back_at=$(here)

# --- a typed answer is not dropped by one Esc ---
# (a pasted tab typed as a space stays in tests/tui/test_tui_keys.sh: a
# script's keys are never a paste)
step e
exercise_at=$(here)
step '<Tab>'
tab_at=$(here)
step 56 '<Esc>'
esc1_at=$(here)
step '<Esc>'
esc2_at=$(here)

# --- counts: an exercise answered twice and a follow-up are not "2/12" ---
# (the first lesson has 12 exercises and 5 follow-ups: lessons/part0-foundations/01-kv-cache.lua)
step g e
practice_at=$(here)
step '56 KiB<Enter>' a '56 KiB<Enter>'
again_at=$(here)
step '?'
again_help_at=$(here)
step q
again_back_at=$(here)
step a '28 KiB<Enter>' f
followup_at=$(here)
step 'Quantize the weights with AWQ and store the KV cache in fp8<Enter>' q
counted_at=$(here)
# --- progress names diagnoses and lessons, not their ids ---
step p
named_at=$(here)
step q

# --- the playground: a config.json without a parameter count asks for it ---
step '='
playground_at=$(here)
# the decode ceiling is taken at the context shown (8,192 tokens a sequence):
# Qwen2.5-7B on an RTX 4090 at batch 16 reads 15.231 GB of weights and 16 x
# 8,192 x 57,344 B = 7.516 GB of KV a step: 16 x 1,008 / 22.748 = 709 tok/s,
# 44.3 a sequence (tests/fixtures/gpus.tsv, model-presets.tsv)
step b b b b
batch16_at=$(here)
# 1,024 sequences of 8,192 tokens need 8.4M KV tokens: far more than the card holds
step b b b b b b
batch1024_at=$(here)
step B B B B B B B B B B
# fp32 weights: 7,615,616,512 x 4 B = 28.4 GiB, more than the card's 24 GiB
step w w w w
fp32_at=$(here)
step w o "<C-u>$work/nothing-here.json<Enter>"
missing_at=$(here)
step "<C-u>$work/q14.json<Enter>"
loaded_at=$(here)
step o "<C-u>$work/ds.json<Enter>"
nocount_at=$(here)
step 'lots<Enter>'
lots_at=$(here)
step '<C-u>685B<Enter>'
count_at=$(here)
step q

# --- Q quits from a screen other than the map ---
step p
quit_progress_at=$(here)
step Q
quit_Q_at=$(here)
step '?' # never read: the app has quit
play

check_at 0 "the course map is shown" "Course map"
check_at 0 "the map heads a module with its title" "Part 0 · Foundations"
lacks_at 0 "no module id on the map" "Course map" "part0-foundations"
if status_at 0 | grep -qF "$db"; then
  bad "the status line leaves the database path to the settings screen"
else
  ok "the status line leaves the database path to the settings screen"
fi

check_at "$esc_at" "Esc on the course map says how to quit" "q or Q quits kvtutor"
running_at "$esc_help_at" "Esc on the course map does not quit" "Help: the keys"
check_at "$search_at" "a search narrows the map" "matching roofline"
lacks_at "$cleared_at" "Esc clears a finished search" "Course map" "matching roofline"
running_at "$cleared_help_at" "Esc after a search does not quit" "Help: the keys"

check_at "$none_at" "a search can find nothing" "No lesson matches"
if status_at "$none_at" | grep -qE "Enter/l open|e exercises"; then
  bad "with no lesson found, no key to open one: \"$(status_at "$none_at")\""
else
  ok "with no lesson found, no key to open one"
fi
if ! at "$none_help_at" | grep -qF "Help: the keys"; then
  bad "help lists no lesson keys with no lesson found (no help after line $none_help_at)"
elif at "$none_help_at" | grep -qE "open the selected lesson|interview: a timed"; then
  bad "help lists no lesson keys with no lesson found"
else
  ok "help lists no lesson keys with no lesson found"
fi

check_at "$deepseek_at" "a word of the text finds the lesson (DeepSeek: the MLA lesson)" "Smaller KV: GQA, MLA, fp8 and windows"

check_at "$settings_at" "the settings screen names the progress database" "Progress database: $db"
check_at "$settings_at" "Enter is offered where it edits a setting" "Enter change"
check_at "$settings_back_at" "q goes back from the settings" "Course map"

if ! at "$progress_at" | grep -qF "Progress" || ! status_at "$progress_at" | grep -qF "│ ? help"; then
  bad "the progress screen offers no Enter (no progress screen after line $progress_at)"
elif status_at "$progress_at" | grep -qF "Enter"; then
  bad "the progress screen offers no Enter: \"$(status_at "$progress_at")\""
else
  ok "the progress screen offers no Enter"
fi
check_at "$progress_back_at" "q goes back from progress" "Course map"

check_at "$help_at" "help lists j/k as down and up" "move down / up"
check_at "$help_at" "help lists the paging keys" "page down / up (or PgDn/PgUp)"
check_at "$help_at" "help lists g and G" "top / bottom"
check_at "$help_at" "help says Esc never quits from the map" "on the course map it clears a search"
# l opens a lesson as Enter does (and follows a link in a lesson): listed
check_at "$help_at" "help lists l with Enter, for it opens the lesson too" "Enter/l       open the selected lesson"
check_at "$help_back_at" "q goes back from help" "Course map"

check_at "$lesson_at" "Enter opens the lesson" "Direct answer"
check_at "$lesson_at" "the reader offers reload as R" "R reload"
qline=$(at "$lesson_at" | grep -n "Question" | head -1 | cut -d: -f1)
cline=$(at "$lesson_at" | grep -n "Checked against" | head -1 | cut -d: -f1)
if [ -n "$qline" ] && [ -n "$cline" ] && [ "$qline" -lt "$cline" ]; then
  ok "the lesson opens with its question, what it was checked against below it"
else
  bad "the lesson opens with its question (Question at line ${qline:-none}, Checked against at ${cline:-none})"
fi
lacks_at "$lesson_at" "the reader shows no concept id" "Direct answer" "concept:"
check_at "$lesson_back_at" "q goes back from the lesson" "Course map"

check_at "$exercise_at" "e starts the exercises" "Answer:"
check_at "$tab_at" "Tab pressed alone still shows a hint" "Hint 1:"
check_at "$esc1_at" "Esc over a typed answer warns first" "Esc again drops it"
lacks_at "$esc1_at" "the answer stays after one Esc" "Esc again drops it" "Course map"
check_at "$esc2_at" "a second Esc leaves the exercise" "Course map"
# the warning was about the answer: on the map Enter opens a lesson
lacks_at "$esc2_at" "the warning goes with the exercise it was about" "Enter/l open" "Esc again drops it"

check_at "$practice_at" "practice counts exercises apart from follow-ups" "practice · exercise 1 of 12"
# the second answer today is practice: no rating is asked, so no rating key
# is offered, nor s (it saves an answer a database error left unsaved)
check_at "$again_at" "an answer again the same day is practice" "Practice: recorded, not rated"
if status_at "$again_at" | grep -qE "1-4 rate|s save"; then
  bad "a practice answer offers no rating key nor s: \"$(status_at "$again_at")\""
else
  ok "a practice answer offers no rating key nor s"
fi
if ! at "$again_help_at" | grep -qF "Help: the keys"; then
  bad "help on a practice answer lists no rating key nor s (no help after line $again_help_at)"
elif at "$again_help_at" | grep -qE "^  (1-4|s) "; then
  bad "help on a practice answer lists no rating key nor s"
else
  ok "help on a practice answer lists no rating key nor s"
fi
check_at "$again_back_at" "n goes on as Enter does, and the status line says so" "Enter/n next"
check_at "$followup_at" "follow-ups are numbered apart" "practice · follow-up 1 of 6"
check_at "$counted_at" "the map counts the exercise once" " 1/12 done"
check_at "$counted_at" "the foot line counts follow-ups apart" "kv-cache · done: 1/12 exercises, 1/6 follow-ups"
check_at "$named_at" "a diagnosis is named, not its id" "1× left out the x2 for K and V"
check_at "$named_at" "a lesson is named by its title (56 KiB twice, 28 KiB, a follow-up)" "The KV cache caps concurrency: 4 answers, 75% right"
lacks_at "$named_at" "no diagnosis id on the progress screen" "left out the x2 for K and V" "no-kv-pair"
# what was seen is counted as the map counts it: one exercise (answered
# three times), one follow-up, not the lesson's question
check_at "$named_at" "progress counts what was seen as the map does" "Seen: 1 exercise, 1 follow-up, 0 lesson questions"
lacks_at "$named_at" "a follow-up is not counted as an exercise" "Seen: " "2 exercises seen"

check_at "$playground_at" "= opens the playground" "Calculator playground"
check_at "$batch16_at" "the ceiling at the context shown" "Decode: batch 16 at 8,192 tokens, 709 tok/s (44.3 each), memory-bound"
check_at "$batch1024_at" "no ceiling when the batch's KV does not fit" "Decode: batch 1,024 at 8,192 tokens: none, 1,024 sequences do not fit"
check_at "$fp32_at" "no ceiling when the weights do not fit" "Decode: batch 1 at 8,192 tokens: none, the weights do not fit"
check_at "$missing_at" "a missing file is an error line" "nothing-here.json:"
check_at "$loaded_at" "a file that loads says so" "q14.json loaded"
lacks_at "$loaded_at" "the old error line is cleared" "q14.json loaded" "nothing-here.json"
check_at "$nocount_at" "no parameter count: the weights are unknown and the count is asked for" "gives no parameter count, so its weights are unknown"
check_at "$nocount_at" "the prompt asks for the parameters" "parameters (B):"
lacks_at "$nocount_at" "never weights 0 B" "parameters (B):" "weights 0 B"
check_at "$lots_at" "a count that is not a number is refused" "a count in billions"
check_at "$count_at" "with the count the config.json is loaded (685B, written as typed: no space)" "ds.json loaded, with 685B parameters"
check_at "$count_at" "and drawn" "Model  $work/ds.json"
lacks_at "$count_at" "weights drawn from the count" "ds.json loaded" "weights 0 B"

check_at "$quit_progress_at" "p opens progress, to quit from" "Progress"
quit_at "$quit_Q_at" "Q quits from any screen"

# --- a quit that would lose something asks first; the same key again quits ---
step g e '56 Ki'
# help over the answer being typed: Q there would drop the answer
step '<F1>'
step Q
asked_at=$(here)
step q
stayed_at=$(here)
step '<F1>'
still_at=$(here)
step Q Q
quit_again_at=$(here)
step '?' # never read
play
check_at "$asked_at" "Q with an answer typed asks first" "Quit kvtutor? the answer you typed would be lost: Q again quits"
check_at "$stayed_at" "another key stays: the answer is still there" "Answer: 56 Ki"
running_at "$still_at" "the app did not quit" "Ctrl-U/W"
quit_at "$quit_again_at" "Q again quits"

# nothing at stake: q on the course map quits at once, as before
step q
step '?' # never read
play
quit_at 1 "q on the course map with nothing at stake quits at once"

# a probe still running (a fake one that waits): Q asks, Q again quits
inst="$work/inst"
cat > "$work/waits.sh" << 'SH'
#!/bin/sh
echo '{"type":"device","kind":"cpu","name":"Fake CPU","threads":2,"free_bytes":1073741824}'
echo '{"type":"progress","kernel":"read","percent":10}'
exec sleep 30
SH
installed_copy "$inst" "$work/waits.sh"
step P Q
probe_asked_at=$(here)
step Q
probe_quit_at=$(here)
step '?' # never read
KVTUTOR="$inst/bin/kvtutor" play
check_at "$probe_asked_at" "Q with a probe running asks first" "Quit kvtutor? the probe still running would be lost"
quit_at "$probe_quit_at" "Q again quits, the probe stopped"

report app_nav
