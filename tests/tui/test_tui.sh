#!/usr/bin/env bash
# The terminal app driven through a real terminal (tmux), where the
# terminal is the point: every way out (Q, Ctrl-C, each signal, Ctrl-Z and
# fg) leaves it as it was, a resize below 80x24, colours and NO_COLOR, no
# terminal or TERM=dumb. What a learner sees after each key and what lands
# in the database is tested in-process (tests/cli/test_app_walk.sh and the
# other test_app_*.sh). Prints "N passed, N failed".
set -u
KVTUTOR=${KVTUTOR:?set KVTUTOR to the kvtutor binary}
work=$(mktemp -d /tmp/kvt_tui.XXXXXX)
# shellcheck source=tui_lib.sh
. "$(dirname "$0")/tui_lib.sh"

# --- Q quits and gives the terminal back ---
start_shell
run_app
check "the course map is shown in a real terminal" "The KV cache caps concurrency"
tm send-keys -t app Q
check "Q quits" "EXIT=0"
stty_kept "quit"

# --- resize ---
run_app
wait_for "Course map" >/dev/null
tm resize-window -t app -x 60 -y 20
check "a window below 80x24 gets a clear notice" "Terminal too small: 60×20"
tm resize-window -t app -x 100 -y 30
check "growing it back redraws the map" "Course map"
tm send-keys -t app Q
stty_kept "quit after resizing"

# --- every other way out ---
run_app
wait_for "Course map" >/dev/null
tm send-keys -t app C-c
# the terminal restored, then death by the signal (128 + 2), as the shell expects
check "Ctrl-C quits cleanly, as SIGINT" "EXIT=130"
stty_kept "Ctrl-C"

# every signal that ends a process gives the terminal back first, and the
# parent sees the signal (128 + its number)
for sig in TERM HUP QUIT USR1 USR2 PIPE; do
  run_app
  wait_for "Course map" >/dev/null
  pkill -"$sig" -f "$KVTUTOR --db $db"
  check "SIG$sig ends the app as SIG$sig" "EXIT=$((128 + $(kill -l "$sig")))"
  stty_kept "SIG$sig"
done

# SIGXFSZ (a write past ulimit -f) does not kill it: the write fails instead
run_app
wait_for "Course map" >/dev/null
pkill -XFSZ -f "$KVTUTOR --db $db"
tm send-keys -t app '?'
check "after SIGXFSZ the app still answers keys" "Help: the keys that work here"
tm send-keys -t app q Q
check "and quits normally" "EXIT=0"
stty_kept "SIGXFSZ"

run_app
wait_for "Course map" >/dev/null
tm send-keys -t app C-z
check "Ctrl-Z suspends to the shell" "Stopped"
tm send-keys -t app "stty -g > $work/stty.suspended; fg" Enter
check "fg brings the app back" "Course map"
if cmp -s "$work/stty.before" "$work/stty.suspended"; then
  ok "while suspended the terminal is the shell's"
else
  bad "the terminal was not restored while suspended"
fi
tm send-keys -t app Q
stty_kept "Ctrl-Z and fg"

# --- colours follow NO_COLOR ---
for no_color in "" "NO_COLOR=1"; do
  start_shell "$no_color"
  run_app
  wait_for "Course map" >/dev/null
  tm send-keys -t app Enter
  wait_for "Direct answer" >/dev/null
  if tm capture-pane -p -e -t app | grep -qE $'\e\\[[0-9;]*3[0-7]m|\e\\[[0-9;]*38;'; then
    coloured=yes
  else
    coloured=no
  fi
  case "$no_color/$coloured" in
    /yes) ok "with colours, headings are coloured" ;;
    /no) bad "no colour found without NO_COLOR" ;;
    */yes) bad "NO_COLOR=1 still shows colours" ;;
    */no) ok "NO_COLOR=1 shows no colour" ;;
  esac
  tm send-keys -t app Q
  stty_kept "quit ${no_color:-in colour}"
done

# --- no terminal, no usable TERM ---
out=$("$KVTUTOR" --db "$db" </dev/null 2>&1); rc=$?
if [ $rc = 2 ] && [[ $out == *"needs a terminal"* ]]; then ok "no terminal: a clear line, exit 2"; else bad "no terminal: exit $rc: $out"; fi
out=$(script -qec "TERM=dumb $KVTUTOR --db $db" /dev/null 2>&1); rc=$?
if [[ $out == *"cannot move the cursor"* ]]; then ok "TERM=dumb: a clear line"; else bad "TERM=dumb: $out"; fi

report tui
