# tui_lib.sh: what the tmux-driven tests share. Source it after setting
# $work (a fresh folder); it sets $sock and $db inside it, the counters, and
# removes the folder on exit.
export LANG=C.UTF-8 LC_ALL=C.UTF-8
sock="$work/tmux.sock"
db="$work/progress.db"
passed=0
failed=0

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

# check DESCRIPTION TEXT [TENTHS]
check() { if wait_for "$2" "${3:-50}"; then ok "$1"; else bad "$1 (no \"$2\")"; fi; }

# report NAME: the summary line, and the exit status.
report() {
  echo "$1: $passed passed, $failed failed"
  [ "$failed" = 0 ]
}
