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
