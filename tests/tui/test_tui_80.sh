#!/usr/bin/env bash
# The course map at 80x24, the smallest terminal the app takes, in a real
# terminal: its rows aligned, titles cut only with an ellipsis and whole
# again when the window grows, the status line whole; the welcome back after
# a restart, and the probe screen of the installed app with its helper.
# The other screens at 80x24 are tested in-process (test_ui_screens_80.c).
# Prints "N passed, N failed".
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
check "every prerequisite is named, each title shortened to its share" "Take first: Continuous… · Prefix caching… · Latency: TTFT…"
check "the lesson's id and counts fit 80 columns" "chunked-prefill · done: 0/6 exercises, 0/2 follow-ups, 0/1 question"
# its 57-column title beside an interview's head and its two clocks (2:00
# an answer, 15:00 in all by default, counting down): cut, the clocks kept
tm send-keys -t app i
check "an interview's clocks stay on the title bar of a long title" "Chunked… · ⏱ answer 1:"
check "with the whole interview's" "· all 14:"
tm send-keys -t app Escape
wait_for "Course map" >/dev/null
tm send-keys -t app g

# the left arrow on the course map is not a quit (q and Q are): the key
# after it, Enter, is still read by the app and opens the lesson
tm send-keys -t app Left g Enter
if wait_for "kvtutor · The KV cache caps concurrency" && ! screen | grep -qF "EXIT="; then
  ok "Left on the course map does not quit"
else
  bad "Left on the course map does not quit"
fi
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

report tui_80
