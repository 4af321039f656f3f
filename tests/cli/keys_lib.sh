# shellcheck shell=bash
# keys_lib.sh: what the in-process screen tests share. They drive the app
# with `kvtutor --keys -` (no terminal, no tmux, no fixed sleeps): a test writes
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
# --keys; $SIZE (default 100x30) is the terminal. The keys start over, and
# the screens printed are read into $screen_at by line number (0: the start).
declare -A screen_at
play() {
  printf '%s\n' "${keys[@]}" |
    "$KVTUTOR" --db "$db" "$@" --keys - --size "${SIZE:-100x30}" > "$work/screens" 2> "$work/err"
  played=$?
  keys=()
  # one pass in the shell itself: a test reads hundreds of screens, and a
  # process for each (two seds) cost more than the app's own run
  local line n=""
  screen_at=()
  while IFS= read -r line; do
    case $line in
      "── start") n=0 ;;
      "── line "*": "*) n=${line#"── line "} n=${n%%:*} ;;
      "── "*) n="" ;;
      *) [ -n "$n" ] && screen_at[$n]+="$line"$'\n' ;;
    esac
  done < "$work/screens"
}
# at N: the screen printed after line N of the last script (0: before any key)
at() { printf '%s' "${screen_at[$1]-}"; }
# check_at N DESCRIPTION TEXT: TEXT on the screen after line N
check_at() {
  if [[ ${screen_at[$1]-} == *"$3"* ]]; then ok "$2"; else
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

# Live sessions, for a test that acts between keys (removes the database,
# runs a second app): `live_start WHO [ARGS...]` starts the app reading its
# keys and writing its screens through two FIFOs, `put WHO LINE` types one
# line, `take WHO` reads the screen printed after it, `send WHO LINE` does
# both, `live_end WHO` closes WHO's keys and waits for its exit in $played.
# Several sessions may run at once; a screen is $SIZE's line count (30 by
# default). No fixed sleep: each read waits for the app's own output.
declare -A live_in live_out live_pid live_n last
live_start() {
  local who=$1 size=${SIZE:-100x30} fd
  shift
  rows=${size#*x}
  mkfifo "$work/$who.in" "$work/$who.out"
  "$KVTUTOR" --db "$db" "$@" --keys - --size "$size" \
    < "$work/$who.in" > "$work/$who.out" 2> "$work/$who.err" &
  live_pid[$who]=$!
  exec {fd}> "$work/$who.in"
  live_in[$who]=$fd
  exec {fd}< "$work/$who.out"
  live_out[$who]=$fd
  live_n[$who]=0
  read_screen "$who" "── start"
  [ -n "${last[$who]}" ] || bad "$who did not start: $(tail -c 300 "$work/$who.err")"
}
# read_screen WHO HEADER: reads up to the line HEADER starts, then its screen
read_screen() {
  local line i
  last[$1]=""
  while IFS= read -r -t 60 line <&"${live_out[$1]}"; do
    case $line in "$2"*) break ;; "── the app quit") last[$1]="── the app quit"; return ;; esac
  done
  for ((i = 0; i < rows; i++)); do
    IFS= read -r -t 60 line <&"${live_out[$1]}" || break
    last[$1]+="$line"$'\n'
  done
}
put() {
  live_n[$1]=$((live_n[$1] + 1))
  printf '%s\n' "$2" >&"${live_in[$1]}"
}
take() { read_screen "$1" "── line ${live_n[$1]}: "; }
send() {
  put "$1" "$2"
  take "$1"
}
# shows WHO TEXT: TEXT on WHO's last screen
shows() { [[ ${last[$1]} == *"$2"* ]]; }
# check_live WHO DESCRIPTION TEXT: TEXT on WHO's screen after its last step
check_live() {
  if shows "$1" "$3"; then ok "$2"; else
    bad "$2 (no \"$3\" on the screen)"
    printf '%s' "${last[$1]}" | sed 's/^/  | /'
  fi
}
live_end() {
  eval "exec ${live_in[$1]}>&-" # the end of its keys
  cat <&"${live_out[$1]}" > /dev/null
  wait "${live_pid[$1]}"
  played=$?
}
# until_live WHO TEXT: frames pass (<Wait 1s> steps; each frame reads what
# the screen waits on, such as a probe's output) until TEXT is on WHO's
# screen, for 30 s at most: a poll for a positive marker, never a fixed
# wait. Each step moves the app's clock a second, which the probe screen
# does not read.
until_live() {
  local i
  for ((i = 0; i < 600; i++)); do
    shows "$1" "$2" && return 0
    [ "${last[$1]}" = "── the app quit" ] && return 1
    sleep 0.05
    send "$1" "<Wait 1s>"
  done
  shows "$1" "$2"
}

# installed_copy DIR PROBE: the app as installed (DIR/bin/kvtutor beside
# DIR/libexec/kvtutor/ and DIR/share/kvtutor), its CPU probe the script
# PROBE, a stand-in the test writes; then KVTUTOR=DIR/bin/kvtutor runs it.
# A later installed_copy DIR PROBE swaps the probe alone.
installed_copy() {
  if [ ! -e "$1/bin/kvtutor" ]; then
    mkdir -p "$1/bin" "$1/share" "$1/libexec/kvtutor"
    cp "$KVTUTOR" "$1/bin/kvtutor"
    ln -s "$(cd "$(dirname "$KVTUTOR")" && pwd)/share/kvtutor" "$1/share/kvtutor"
  fi
  cp "$2" "$1/libexec/kvtutor/kvtutor-probe-cpu"
  chmod +x "$1/libexec/kvtutor/kvtutor-probe-cpu"
}
