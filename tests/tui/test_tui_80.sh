#!/usr/bin/env bash
# The course map at 80x24, the smallest terminal the app takes, in a real
# terminal as it grows: a title cut with an ellipsis at 80 columns comes
# out whole at 120 with the rows still aligned, and is cut again at 80.
# The rest at 80x24 is tested in-process (tests/cli/test_app_80.sh,
# test_ui_screens_80.c).
# Prints "N passed, N failed".
set -u
KVTUTOR=${KVTUTOR:?set KVTUTOR to the kvtutor binary}
work=$(mktemp -d /tmp/kvt_tui_80.XXXXXX)
TUI_SIZE=80x24
# shellcheck source=tui_lib.sh
. "$(dirname "$0")/tui_lib.sh"

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
aligned "80 columns"
# "Chunked prefill and preemption: one token budget per step" cut to fit
# 80 columns (the arithmetic: tests/cli/test_app_80.sh)
check "a long title is cut after a word, with an ellipsis" "Chunked prefill and preemption…"

# wider: the titles come out whole and the rows stay aligned
tm resize-window -t app -x 120 -y 24
check "at 120 columns the long title is whole" "Chunked prefill and preemption: one token budget per step"
aligned "120 columns"
tm resize-window -t app -x 80 -y 24
check "back at 80 columns the title is cut again" "Chunked prefill and preemption…"

tm send-keys -t app Q
check "the app quits" "EXIT=0"
stty_kept "80 columns"

report tui_80
