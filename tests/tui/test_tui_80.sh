#!/usr/bin/env bash
# Every screen at 80x24, the smallest terminal the app takes, as a new user
# walks them: the course map's rows aligned, titles cut only with an
# ellipsis, each status line whole at 80 columns, help listing the keys of
# the screen it was opened from. Prints "N passed, N failed".
set -u
KVTUTOR=${KVTUTOR:?set KVTUTOR to the kvtutor binary}
work=$(mktemp -d /tmp/kvt_tui_80.XXXXXX)
TUI_SIZE=80x24
# shellcheck source=tui_lib.sh
. "$(dirname "$0")/tui_lib.sh"

status_line() { screen | sed '/^$/d' | tail -1 | sed 's/^ *//; s/ *$//'; }
# the course map's lesson rows: a number, two spaces, a title
lesson_rows() { screen | grep -E '^ +[0-9]+  [A-Z]' | sed 's/ *$//'; }

# aligned WHAT: every lesson row ends in the same column (the done and due
# cells are right-aligned), and every "after" cell starts in the same one.
aligned() {
  local ends="" afters="" line
  while IFS= read -r line; do
    ends="$ends ${#line}"
    case $line in *after*) local head=${line%%after*}; afters="$afters ${#head}" ;; esac
  done < <(lesson_rows)
  if [ "$(echo "$ends" | tr ' ' '\n' | sed '/^$/d' | sort -u | wc -l)" = 1 ] &&
    [ "$(echo "$afters" | tr ' ' '\n' | sed '/^$/d' | sort -u | wc -l)" = 1 ]; then
    ok "$1: the rows end in one column, and the prerequisites start in one"
  else
    bad "$1: rows end at columns$ends; prerequisites start at$afters"
  fi
}

start_shell
run_app
check "the course map is shown" "Course map"
wait_for "15  " >/dev/null
# lessons/part0-foundations: 15 lessons, lesson 15 requires 4, 7 and 12;
# Part 1's lessons follow under their own heading
if [ "$(lesson_rows | head -15 | tail -1 | awk '{print $1}')" = 15 ] && screen | grep -qF "Part 1 · Serving systems and engines"; then
  ok "Part 0's 15 lesson rows, then Part 1"
else
  bad "Part 0's 15 lesson rows, then Part 1"
fi
aligned "80 columns"
check "three prerequisites are shown whole" "after 4,7,12"
# "Chunked prefill and preemption: one token budget per step" is 57
# columns; 80 leaves the title cells 35 (80 - 3 before the number - 2
# number - 2 - 2 after the widest "after" cell, a Part 1 lesson's
# "after Shrinking…" (16) - 2 after "0/12 done" (9) - 2 after "0 due" (5):
# 80 - 7 - 18 - 11 - 7 - 2 margin = 35), and "... preemption: one" with its
# "…" would take 36: cut after "preemption", 31 columns
check "a long title is cut after a word, with an ellipsis" "Chunked prefill and preemption…"
check "a title that fits is whole" "The KV cache caps concurrency"
# the status line: the keys that matter, whole, the rest one ? away
want="default │ ? help  Enter/l open  e exercises  r review  / search  p progress"
if [ "$(status_line)" = "$want" ]; then ok "the map's status line fits 80 columns"; else bad "the map's status line: \"$(status_line)\""; fi

# the foot lines of lesson 13 (13-chunked-prefill.lua: after 5, 6 and 11;
# 6 exercises, 2 follow-ups, key points for its question): whole words
tm send-keys -t app g j j j j j j j j j j j j
check "the prerequisites' titles are cut after a whole one" "Take first: Continuous batching keeps the budget full · Prefix caching…"
check "the lesson's id and counts fit 80 columns" "chunked-prefill · done: 0/6 exercises, 0/2 follow-ups, not the question"
# its 57-column title beside an interview's head and clock: cut, the clock kept
tm send-keys -t app i
check "an interview's clock stays on the title bar of a long title" "Chunked prefill and preemption… · ⏱ 00:0"
tm send-keys -t app Escape
wait_for "Course map" >/dev/null
tm send-keys -t app g

# the left arrow on the course map is not a quit (q and Q are)
tm send-keys -t app Left
sleep 0.5
if screen | grep -qF "EXIT="; then bad "Left on the course map does not quit"; else ok "Left on the course map does not quit"; fi
tm send-keys -t app g Enter
wait_for "kvtutor · The KV cache caps concurrency" >/dev/null
tm send-keys -t app Left
check "Left goes back from a lesson" "Course map"

# nothing answered yet: cram says what it would go over
tm send-keys -t app c
check "cram with nothing answered says what it goes over" "Nothing to cram yet"
tm send-keys -t app q
wait_for "Course map" >/dev/null

# wider: the titles come out whole and the rows stay aligned
tm resize-window -t app -x 120 -y 24
check "at 120 columns the long title is whole" "Chunked prefill and preemption: one token budget per step"
aligned "120 columns"
tm resize-window -t app -x 80 -y 24
check "back at 80 columns the title is cut again" "Chunked prefill and preemption…"

# --- help lists the keys of the screen it came from, even asked twice ---
tm send-keys -t app g Enter
check "Enter opens the lesson" "Direct answer"
tm send-keys -t app '?'
check "help from a lesson names Enter as following a link" "follow: open the selected link"
tm send-keys -t app '?'
sleep 0.3
if screen | grep -qF "review: today's due"; then
  bad "? on the help screen does not swap in the course map's keys"
else
  ok "? on the help screen does not swap in the course map's keys"
fi
check "the help screen's status line says how to leave it" "default │ q back"
if screen | grep -F "Anywhere:" | grep -qF "saved as given."; then ok "the help's last line is whole"; else bad "the help's last line is whole"; fi
tm send-keys -t app q
check "q leaves help for the lesson" "Direct answer"
want="default │ ? help  e exercises  f follow-ups  i interview  Tab link"
if [ "$(status_line)" = "$want" ]; then ok "the lesson's status line fits 80 columns"; else bad "the lesson's status line: \"$(status_line)\""; fi
tm send-keys -t app q
wait_for "Course map" >/dev/null

# --- settings: Enter changes a setting, and says so ---
tm send-keys -t app S
check "the settings screen is shown" "Desired retention"
check "Enter is offered as changing a setting" "default │ ? help  Enter change"
# the first key typed replaces the value shown (0.9), as in a form
tm send-keys -t app Enter
wait_for "default │ F1 help" >/dev/null
tm send-keys -t app 0 . 8 5 Enter
check "typing over the retention saves what was typed" "Desired retention saved"
if screen | grep -qE "Desired retention +0\.85 *$"; then ok "the retention reads 0.85"; else bad "the retention reads 0.85"; fi
# an editing key first keeps the value and edits it: 20, Backspace, 5 is 25
tm send-keys -t app j Enter
wait_for "default │ F1 help" >/dev/null
tm send-keys -t app BSpace 5 Enter
check "Backspace first edits the value shown" "New exercises a day saved"
if screen | grep -qE "New exercises a day +25 *$"; then ok "new exercises a day reads 25"; else bad "new exercises a day reads 25"; fi
tm send-keys -t app q
wait_for "Course map" >/dev/null

# --- an exercise graded: the worked arithmetic wraps, the rating line is whole ---
tm send-keys -t app g e
check "e starts the exercises" "Answer:"
tm send-keys -t app "28 KiB" Enter
check "a wrong answer is graded" "Not quite."
# 01-kv-cache.lua's worked block has an 84-column line, "(vLLM: 10 GiB ÷ 896
# KiB per 16-token block = 11,702 blocks; ÷ 512 = 22)": its end wraps
check "a worked line wider than the screen wraps, not cut" "512 = 22)"
check "the rating line is whole" "Enter saves, goes on"
want="default │ ? help  Enter/n next  a again  h hint  1-4 rate  f follow-ups"
if [ "$(status_line)" = "$want" ]; then ok "a graded answer's status line: Enter next first"; else bad "a graded answer's status line: \"$(status_line)\""; fi
tm send-keys -t app f
check "a follow-up asks for an answer in words, the label whole" "Answer in your words:"
# an answer in words is typed across the line, not in the numeric field's 68 columns
long_words="quantise the weights with AWQ and keep the KV cache in fp8 to fit more"
tm send-keys -t app "$long_words"
check "a spoken answer of 70 characters is seen whole as it is typed" "$long_words"
tm send-keys -t app C-u
# help while typing lists the line editor's keys too
tm send-keys -t app F1
check "help while typing lists the editing keys" "Ctrl-U/W"
tm send-keys -t app q
check "q leaves help for the answer being typed" "Answer in your words:"
tm send-keys -t app Escape
check "Esc with nothing typed leaves the follow-up" "Course map"

# --- progress: one answer, one exercise, in the singular ---
tm send-keys -t app p
check "progress counts in the singular" "1 answer, 0% right · streak 1 day"
check "progress counts what was seen in the singular" "Seen: 1 exercise, 0 follow-ups, 0 lesson questions"
tm send-keys -t app q
wait_for "Course map" >/dev/null

# --- a graded follow-up with no hints offers no hint key ---
# (01-kv-cache.lua's follow-ups have no hints)
tm send-keys -t app g f
check "f starts the follow-ups" "Answer in your words:"
tm send-keys -t app "No idea." Enter
check "the follow-up is graded" "Rating:"
# nor f: from a follow-up, Enter is what goes on to the next one
want="default │ ? help  Enter/n next  a again  1-4 rate"
if [ "$(status_line)" = "$want" ]; then ok "no hint key where there is no hint, no f on a follow-up"; else bad "a follow-up's status line: \"$(status_line)\""; fi
tm send-keys -t app q
wait_for "Course map" >/dev/null

# --- a graded answer longer than the screen says there is more below ---
# (the first lesson's question: the answer, four key points with quotes and
# the model answer take more than the 24 rows)
tm send-keys -t app g i
check "i starts a mock interview" "The interviewer asks:"
tm send-keys -t app "The KV cache grows with every token of each request, while the weights are loaded once; decode is memory-bound" Enter
check "the answer is graded" "Rating:"
check "a result taller than the screen says so, and how to scroll" "more below: Space"
tm send-keys -t app Space Space Space
sleep 0.3
if screen | grep -qF "more below"; then bad "at the end of the result, no more below"; else ok "at the end of the result, no more below"; fi
tm send-keys -t app q
wait_for "Course map" >/dev/null

# --- an interview's summary offers no answer keys ---
tm send-keys -t app g i
check "i starts a mock interview" "The interviewer asks:"
for _ in 1 2 3 4 5 6; do
  tm send-keys -t app "No idea." Enter
  wait_for "Rating:" >/dev/null
  tm send-keys -t app Enter
  sleep 0.3
done
check "the interview ends with a summary" "Interview score"
if [ "$(status_line)" = "default │ ? help" ]; then ok "the summary's status line lists no answer keys"; else bad "the summary's status line: \"$(status_line)\""; fi
tm send-keys -t app q
wait_for "Course map" >/dev/null

# --- the playground's o and l, each named by what it opens ---
tm send-keys -t app =
check "= opens the playground" "Calculator playground"
tm send-keys -t app '?'
check "o is named by what it opens" "config.json: open one for the model"
check "l is named by what it opens" "log: open a vLLM start-up log"
tm send-keys -t app q
wait_for "Calculator playground" >/dev/null
# a log with a long file name: the name whole on a line of its own, the
# explanation's lines in column 2 as the playground's own lines are
fixtures="$(cd "$(dirname "$0")/../fixtures" && pwd)"
tm send-keys -t app l
wait_for "vLLM log path:" >/dev/null
tm send-keys -t app "$fixtures/vllm-logs/v0.19.0-r030-gemma-3-27b.log" Enter
check "the log's tally is shown" "vLLM 0.19.0 log: 3 match, 0 differ, 1 not recomputed"
check "the log's file name is whole" "File: v0.19.0-r030-gemma-3-27b.log"
# the log was measured on its own GPU: the preset's 24 GiB is not shown over
# its 19.53 GiB of KV memory
check "the GPU line names the log's own GPU" "GPU    the log's own"
if screen | grep -qF "RTX 4090"; then bad "no preset GPU over a log's figures"; else ok "no preset GPU over a log's figures"; fi
if screen | grep -qE "^  Assumed: " && screen | grep -qE "^  line 4  Available KV cache memory"; then
  ok "the log's lines start in column 2, under the tally"
else
  bad "the log's lines start in column 2, under the tally"
fi
tm send-keys -t app q q
wait_for "Course map" >/dev/null

# --- back the next day: the welcome names the lesson and still says how to resume ---
tm send-keys -t app g j j j j j j j j j j j j Enter
check "lesson 13 opens" "kvtutor · Chunked prefill and preemption"
tm send-keys -t app q
quit_from_map "80 columns"
run_app
check "the welcome back keeps its last words on an 80-column line" "You were reading \"Chunked prefill and…\": Enter resumes."
quit_from_map "80 columns, again"

# --- the probe screen's paged chart: each row's note whole at 80 columns ---
# The app as installed (bin/, libexec/kvtutor/, share/kvtutor/), its CPU
# probe a script with canned lines: block 16 at 5.8 GB/s against 5.94
# contiguous is 100 x (1 - 5.8 / 5.94) = 2.4% slower; block 32 is faster.
build_dir=$(dirname "$KVTUTOR")
mkdir -p "$work/inst/bin" "$work/inst/libexec/kvtutor" "$work/inst/share"
cp "$KVTUTOR" "$work/inst/bin/kvtutor"
ln -s "$build_dir/share/kvtutor" "$work/inst/share/kvtutor"
cat > "$work/inst/libexec/kvtutor/kvtutor-probe-cpu" <<'PROBE'
#!/bin/sh
echo '{"type":"device","kind":"cpu","name":"Fake CPU","threads":2,"free_bytes":8589934592}'
echo '{"type":"result","kernel":"read","bytes":1073741824,"gbps_best":4.8,"gbps_median":4.7}'
echo '{"type":"result","kernel":"paged","block_size":16,"bytes":1073741824,"gbps_best":5.9,"gbps_median":5.8,"contiguous_gbps_median":5.94,"tax_percent":2.4}'
echo '{"type":"result","kernel":"paged","block_size":32,"bytes":1073741824,"gbps_best":6.1,"gbps_median":6.0,"contiguous_gbps_median":5.94,"tax_percent":-1.0}'
PROBE
chmod +x "$work/inst/libexec/kvtutor/kvtutor-probe-cpu"
APP="$work/inst/bin/kvtutor" run_app
wait_for "Course map" >/dev/null
tm send-keys -t app P
check "the probe's paged rows are drawn" "Paged KV gather"
check "a paging cost is whole, its percent sign in" "paging costs 2.4%"
check "a block with no cost says so whole" "no measurable cost"
tm send-keys -t app q
quit_from_map "80 columns, the probe"

# --- one new exercise a day: the review's summary in the singular, then
# nothing left for today (a fresh database) ---
db="$work/one-a-day.db"
run_app
wait_for "Course map" >/dev/null
# before any answer the progress screen says how to start, not empty headings
tm send-keys -t app p
check "progress before any answer says how to start" "No answers yet. Open a lesson"
if screen | grep -qF "Accuracy by concept"; then bad "no empty headings before any answer"; else ok "no empty headings before any answer"; fi
tm send-keys -t app q
wait_for "Course map" >/dev/null
tm send-keys -t app S
wait_for "New exercises a day" >/dev/null
tm send-keys -t app j Enter
sleep 0.2
tm send-keys -t app 1 Enter
check "one new exercise a day is kept" "New exercises a day saved"
tm send-keys -t app q
check "the map counts one new" "0 due today · 1 new"
tm send-keys -t app r
check "review brings the one" "review · 1 of 1"
tm send-keys -t app "56 KiB" Enter
wait_for "Right." >/dev/null
tm send-keys -t app Enter
check "one answer, in the singular" "1 of 1 answer right."
tm send-keys -t app q
wait_for "Course map" >/dev/null
tm send-keys -t app r
check "the day's new exercise answered: none left for today" "Nothing is due today, and no new exercise is left for today."
tm send-keys -t app q
# a learner name of 64 characters, the most allowed, is cut on the status
# line: the keys keep their room
long_name="a-learner-name-of-sixty-four-characters-the-longest-allowed-xyzw"
tm send-keys -t app S
wait_for "Learner" >/dev/null
tm send-keys -t app j j Enter
sleep 0.2
tm send-keys -t app "$long_name" Enter
check "the long name is kept" "Learner saved"
tm send-keys -t app q
wait_for "Course map" >/dev/null
sleep 0.3
if status_line | grep -qF "Enter/l open"; then ok "a long learner name leaves the map's keys on the status line"; else bad "a long learner name leaves the map's keys on the status line: \"$(status_line)\""; fi
quit_from_map "80 columns, one a day"
# --- refusals at 80 columns: a message longer than the line wraps under
# the screen, so its instruction is read whole, never cut at column 80 ---
start_shell
run_app
wait_for "Course map" >/dev/null
tm send-keys -t app g e
check "the exercises start" "Answer:"
# "Not an answer kvtutor can read: bits or bytes? ..." is 117 columns
tm send-keys -t app "5 kb" Enter
check "a unit refused: its start" 'Not an answer kvtutor can read: bits or bytes? "kb" could be either'
check "a unit refused: its instruction, on the next line" "or bytes for bytes, bit or bits for bits"
check "the status line stays under it" "│ F1 help  Enter submit"
tm send-keys -t app C-u "five" Enter
check "a shorter refusal takes one line" "Not an answer kvtutor can read: an answer starts with a number"
if screen | grep -qF "or bits for bits"; then bad "the longer message is gone"; else ok "the longer message is gone"; fi
tm send-keys -t app C-u Escape
wait_for "Course map" >/dev/null
# the playground: a file that is not a vLLM log, by a path of 70 characters
nolog="$work/a-long-folder-name-to-push-the-message-past-80-columns/not-a-log.txt"
mkdir -p "${nolog%/*}"
echo "hello" > "$nolog"
tm send-keys -t app '='
wait_for "Calculator playground" >/dev/null
tm send-keys -t app l
wait_for "vLLM log path:" >/dev/null
tm send-keys -t app "$nolog" Enter
check "a log refused: the path named" "not-a-log.txt"
check "a log refused: the question at its end" "is it a vLLM start-up log?"
tm send-keys -t app q
wait_for "Course map" >/dev/null
quit_from_map "80 columns, refusals"
report tui_80
