# shellcheck shell=bash
# keys_lib.sh: what the in-process screen tests share. They drive the app
# with `kvtutor --keys -` (no terminal, no tmux, no sleeps): a test writes
# its keys with `step`, notes the line a check reads with `here`, runs the
# script once with `play`, then checks the screen printed after each noted
# line. Source it after setting $KVTUTOR and $work (a fresh folder, removed
# on exit); it sets $db inside $work and the counters.
: "${work:?set work to a fresh folder first}"
export LANG=C.UTF-8 LC_ALL=C.UTF-8 HOME="$work/home" XDG_DATA_HOME="$work/data"
db="$work/progress.db"
passed=0
failed=0
trap 'rm -rf "$work"' EXIT

ok() { passed=$((passed + 1)); echo "ok: $1"; }
bad() { failed=$((failed + 1)); echo "FAIL: $1"; }

# step LINE...: each argument one line of the script (one step)
keys=()
step() { keys+=("$@"); }
# here: the number of the script's last line so far, for `at`
here() { echo "${#keys[@]}"; }
# play [ARGS...]: the script run from its first line, with ARGS before
# --keys; $SIZE (default 100x30) is the terminal. The keys start over.
play() {
  printf '%s\n' "${keys[@]}" |
    "$KVTUTOR" --db "$db" "$@" --keys - --size "${SIZE:-100x30}" > "$work/screens" 2> "$work/err"
  played=$?
  keys=()
}
# at N: the screen printed after line N of the last script (0: before any key)
at() {
  if [ "$1" = 0 ]; then
    sed -n '/^── start$/,/^── /p' "$work/screens" | sed '1d;/^── /d'
  else
    sed -n "/^── line $1: /,/^── /p" "$work/screens" | sed '1d;/^── /d'
  fi
}
# check_at N DESCRIPTION TEXT: TEXT on the screen after line N
check_at() {
  if at "$1" | grep -qF -- "$3"; then ok "$2"; else
    bad "$2 (no \"$3\" after line $1)"
    at "$1" | sed 's/^/  | /'
  fi
}
# quit_ok WHAT: the last script ended with the app quitting, exit 0
quit_ok() {
  if [ "$played" = 0 ] && grep -q '^── the app quit$' "$work/screens"; then
    ok "$1: the app quits normally"
  else
    bad "$1: exit $played, $(tail -c 300 "$work/err")"
  fi
}
# report NAME: the summary line, and the exit status
report() {
  echo "$1: $passed passed, $failed failed"
  [ "$failed" = 0 ]
}

# A live session, for a test that acts between keys (removes the database,
# runs a second process): `live_start [ARGS...]` starts the app reading its
# keys from a pipe, `send LINE` types one line and waits for the screen it
# prints (a screen is $SIZE's line count, 30 by default), `screen` prints
# it, `live_end` closes the keys and waits for the app's exit in $played.
# Nothing sleeps: each read waits for the app's own output.
live_start() {
  rows=${SIZE:-100x30}
  rows=${rows#*x}
  coproc LIVE { "$KVTUTOR" --db "$db" "$@" --keys - --size "${SIZE:-100x30}" 2> "$work/err"; }
  live_out=${LIVE[0]}
  live_in=${LIVE[1]}
  live_pid=$LIVE_PID
  read_screen "── start"
}
# read_screen HEADER: reads up to the line HEADER starts, then its screen
read_screen() {
  local line i
  last=""
  while IFS= read -r -t 60 line <&"$live_out"; do
    case $line in "$1"*) break ;; "── the app quit") last="── the app quit"; return ;; esac
  done
  for ((i = 0; i < rows; i++)); do
    IFS= read -r -t 60 line <&"$live_out" || break
    last+="$line"$'\n'
  done
}
live_n=0
send() {
  live_n=$((live_n + 1))
  printf '%s\n' "$1" >&"$live_in"
  read_screen "── line $live_n: "
}
screen() { printf '%s' "$last"; }
# check_live DESCRIPTION TEXT: TEXT on the screen after the last `send`
check_live() {
  if screen | grep -qF -- "$2"; then ok "$1"; else
    bad "$1 (no \"$2\" on the screen)"
    screen | sed 's/^/  | /'
  fi
}
live_end() {
  exec {live_in}>&-
  wait "$live_pid"
  played=$?
}
