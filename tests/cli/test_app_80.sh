#!/usr/bin/env bash
# The course map at 80x24, the smallest terminal the app takes, in-process
# through `kvtutor --keys --size 80x24`: its rows aligned, titles cut only
# with an ellipsis, the status line whole, a long title beside an
# interview's clocks; the welcome back after a restart, and the probe
# screen of the installed app with its helper. (It replaced these parts of
# tests/tui/test_tui_80.sh, the same checks in tmux; growing the window
# and back stays there. The other screens at 80x24: test_ui_screens_80.c.)
set -u
KVTUTOR=${KVTUTOR:?set KVTUTOR to the kvtutor binary}
work=$(mktemp -d /tmp/kvt_app_80.XXXXXX)
# shellcheck source=keys_lib.sh
. "$(dirname "$0")/keys_lib.sh"
SIZE=80x24

# status_line N: the last line of the screen after line N, trimmed
status_line() { at "$1" | sed '/^$/d' | tail -1 | sed 's/^ *//; s/ *$//'; }
# lesson_rows N: the course map's lesson rows (a number, two spaces, a title)
lesson_rows() { at "$1" | grep -E '^ +[0-9]+  [A-Z]' | sed 's/ *$//'; }

# aligned N WHAT: every lesson row ends in the same column (the done and due
# cells are right-aligned), and every "after" cell starts in the same one.
aligned() {
  local ends="" afters="" line
  while IFS= read -r line; do
    ends="$ends ${#line}"
    case $line in *after*) local head=${line%%after*}; afters="$afters ${#head}" ;; esac
  done < <(lesson_rows "$1")
  if [ "$(echo "$ends" | tr ' ' '\n' | sed '/^$/d' | sort -u | wc -l)" = 1 ] &&
    [ "$(echo "$afters" | tr ' ' '\n' | sed '/^$/d' | sort -u | wc -l)" = 1 ]; then
    ok "$2: the rows end in one column, and the prerequisites start in one"
  else
    bad "$2: rows end at columns$ends; prerequisites start at$afters"
  fi
}

# the foot lines of lesson 13 (13-chunked-prefill.lua: after 5, 6 and 11;
# 6 exercises, 2 follow-ups, key points for its question)
step "gjjjjjjjjjjjj"
l13=$(here)
step i
interview=$(here)
step "<Esc>"
step g
# the left arrow on the course map is not a quit (q and Q are): the key
# after it, Enter, is still read by the app and opens the lesson
step "<Left>" g "<Enter>"
opened=$(here)
step "<Left>"
left=$(here)
step c
cram=$(here)
step q
# lesson 13 read, so the next start welcomes the learner back to it
step "gjjjjjjjjjjjj<Enter>"
read13=$(here)
step q Q
play
check_at 0 "the course map is shown" "Course map"
# lessons/part0-foundations: 15 lessons, lesson 15 requires 4, 7 and 12;
# Part 1's lessons follow under their own heading
if [ "$(lesson_rows 0 | head -15 | tail -1 | awk '{print $1}')" = 15 ] && at 0 | grep -qF "Part 1 · Serving systems and engines"; then
  ok "Part 0's 15 lesson rows, then Part 1"
else
  bad "Part 0's 15 lesson rows, then Part 1"
fi
aligned 0 "80 columns"
check_at 0 "three prerequisites are shown whole" "after 4,7,12"
# "Chunked prefill and preemption: one token budget per step" is 57
# columns; 80 leaves the title cells 35 (80 - 3 before the number - 2
# number - 2 - 2 after the widest "after" cell, a Part 1 lesson's
# "after Shrinking…" (16) - 2 after "0/12 done" (9) - 2 after "0 due" (5):
# 80 - 7 - 18 - 11 - 7 - 2 margin = 35), and "... preemption: one" with its
# "…" would take 36: cut after "preemption", 31 columns
check_at 0 "a long title is cut after a word, with an ellipsis" "Chunked prefill and preemption…"
check_at 0 "a title that fits is whole" "The KV cache caps concurrency"
# the status line: the keys that matter, whole, the rest one ? away
want="default │ ? help  Enter/l open  e exercises  r review  / search  p progress"
if [ "$(status_line 0)" = "$want" ]; then ok "the map's status line fits 80 columns"; else bad "the map's status line: \"$(status_line 0)\""; fi
check_at "$l13" "every prerequisite is named, each title shortened to its share" "Take first: Continuous… · Prefix caching… · Latency: TTFT…"
check_at "$l13" "the lesson's id and counts fit 80 columns" "chunked-prefill · done: 0/6 exercises, 0/2 follow-ups, 0/1 question"
# its 57-column title beside an interview's head and its two clocks (2:00
# an answer, 15:00 in all by default; the script's keys arrive at once, so
# no second has passed): cut, the clocks kept
check_at "$interview" "an interview's clocks stay on the title bar of a long title" "Chunked… · ⏱ answer 2:00"
check_at "$interview" "with the whole interview's" "· all 15:00"
check_at "$opened" "Left on the course map does not quit" "kvtutor · The KV cache caps concurrency"
check_at "$left" "Left goes back from a lesson" "Course map"
# nothing answered yet: cram says what it would go over
check_at "$cram" "cram with nothing answered says what it goes over" "Nothing to cram yet"
check_at "$read13" "lesson 13 opens" "kvtutor · Chunked prefill and preemption"
quit_ok "80 columns"

# --- back the next day: the welcome names the lesson and still says how to resume ---
step Q
play
check_at 0 "the welcome back keeps its last words on an 80-column line" "You were reading \"Chunked prefill and…\": Enter resumes."
quit_ok "80 columns, again"

# --- the probe screen's paged chart: each row's note whole at 80 columns ---
# The app as installed (bin/, libexec/kvtutor/, share/kvtutor/), its CPU
# probe a script with canned lines: block 16 at 5.8 GB/s against 5.94
# contiguous is 100 x (1 - 5.8 / 5.94) = 2.4% slower; block 32 is faster.
cat > "$work/canned.sh" <<'PROBE'
#!/bin/sh
echo '{"type":"device","kind":"cpu","name":"Fake CPU","threads":2,"free_bytes":8589934592}'
echo '{"type":"result","kernel":"read","bytes":1073741824,"gbps_best":4.8,"gbps_median":4.7}'
echo '{"type":"result","kernel":"paged","block_size":16,"bytes":1073741824,"gbps_best":5.9,"gbps_median":5.8,"contiguous_gbps_median":5.94,"tax_percent":2.4}'
echo '{"type":"result","kernel":"paged","block_size":32,"bytes":1073741824,"gbps_best":6.1,"gbps_median":6.0,"contiguous_gbps_median":5.94,"tax_percent":-1.0}'
PROBE
installed_copy "$work/inst" "$work/canned.sh"
step P "<Wait>"
probed=$(here)
step q Q
KVTUTOR="$work/inst/bin/kvtutor" play
check_at "$probed" "the probe's paged rows are drawn" "Paged KV gather"
check_at "$probed" "a paging cost is whole, its percent sign in" "paging costs 2.4%"
check_at "$probed" "a block with no cost says so whole" "no measurable cost"
quit_ok "80 columns, the probe"

report app_80
