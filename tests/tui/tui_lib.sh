# tui_lib.sh: what the tmux-driven tests share. Source it after setting
# $work (a fresh folder); it sets $sock and $db inside it, the counters, and
# removes the folder on exit.
export LANG=C.UTF-8 LC_ALL=C.UTF-8
sock="$work/tmux.sock"
db="$work/progress.db"
passed=0
failed=0

TUI_SIZE=${TUI_SIZE:-100x30}

tm() { tmux -S "$sock" "$@"; }
stop_server() {
  tm kill-server 2>/dev/null
  for _ in $(seq 20); do tm has-session 2>/dev/null || return 0; sleep 0.05; done
}
cleanup() { stop_server; sleep 0.2; rm -rf "$work"; }
trap cleanup EXIT

ok() { passed=$((passed + 1)); echo "ok: $1"; }
bad() { failed=$((failed + 1)); echo "FAIL: $1"; tm capture-pane -p -t app 2>/dev/null | sed 's/^/  | /'; }
screen() { tm capture-pane -p -t app 2>/dev/null; }

# wait_for TEXT [TENTHS]: waits up to TENTHS tenths of a second (default
# 50) for TEXT to appear on the screen.
wait_for() {
  for _ in $(seq "${2:-50}"); do
    screen | grep -qF -- "$1" && return 0
    sleep 0.1
  done
  return 1
}

# keys_handled TEXT: returns once every key sent so far has been handled, on
# a screen where ? opens help: help is asked for after them, so once it shows
# they have run; q closes it and TEXT, on the screen below, shows again. For
# checking that a key changed nothing, with no fixed sleep before the check.
keys_handled() {
  tm send-keys -t app '?'
  wait_for "Help: the keys that work here" >/dev/null || bad "help did not open after the keys"
  tm send-keys -t app q
  wait_for "$1" >/dev/null || bad "after help closed, no \"$1\""
}

# check DESCRIPTION TEXT [TENTHS]
check() { if wait_for "$2" "${3:-50}"; then ok "$1"; else bad "$1 (no \"$2\")"; fi; }

# report NAME: the summary line, and the exit status.
report() {
  echo "$1: $passed passed, $failed failed"
  [ "$failed" = 0 ]
}

# The probe screen's runs read a 256 MiB buffer, not the probe's own 1 GiB:
# about 4 s of two cores instead of 15, which every other test shares.
TUI_PROBE_SIZE=KVTUTOR_PROBE_SIZE_MIB=256

# start_shell [ENV...]: a shell in a 100x30 terminal (TUI_SIZE=80x24 sets
# another), the app started from it like a person would.
start_shell() {
  stop_server
  for _ in 1 2 3; do
    tm -f /dev/null new-session -d -s app -x "${TUI_SIZE%x*}" -y "${TUI_SIZE#*x}" "env -i HOME=$work PATH=/usr/bin:/bin TERM=xterm-256color LANG=C.UTF-8 $TUI_PROBE_SIZE ${LSAN_OPTIONS:+LSAN_OPTIONS=$LSAN_OPTIONS} ${1:-} bash --norc --noprofile" 2>/dev/null
    sleep 0.3
    tm has-session -t app 2>/dev/null && break
  done
  # The prompt says how the app ended: an app that dies by SIGINT (as it
  # should, once the terminal is restored) makes bash drop the rest of the
  # command line, so "; echo" after it would never run.
  tm send-keys -t app "stty -g > $work/stty.before; PS1='$ '; PROMPT_COMMAND='s=\$?; [ -n \"\$kvt_ran\" ] && { echo EXIT=\$s; stty -g > $work/stty.after; kvt_ran=; }'" Enter
}

# run_app ARGS...: the app ($APP, else $KVTUTOR) started from that shell;
# "EXIT=N" is shown and the terminal settings saved when it ends.
run_app() {
  rm -f "$work/stty.after"
  tm send-keys -t app "clear; kvt_ran=1; ${APP:-$KVTUTOR} --db $db $*" Enter
}

# stty_kept WHAT: the settings after the app are those before it.
stty_kept() {
  for _ in $(seq 30); do [ -s "$work/stty.after" ] && break; sleep 0.1; done
  if [ -s "$work/stty.after" ] && cmp -s "$work/stty.before" "$work/stty.after"; then
    ok "$1: the terminal settings are as before"
  else
    bad "$1: stty -g changed or the app did not exit"
  fi
  rm -f "$work/stty.after"
}

# quit_from_map WHAT: Escape back to the course map, Q, then the app must
# exit 0 and leave the terminal as it was.
quit_from_map() {
  tm send-keys -t app Escape
  wait_for "Course map" >/dev/null
  tm send-keys -t app Q
  check "$1: the app quits normally" "EXIT=0"
  stty_kept "$1"
}
