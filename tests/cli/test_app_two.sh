#!/usr/bin/env bash
# Two copies of the app on one progress database, each answering as fast as
# it can for SECONDS_TO_RUN seconds (default 60, the benchmark; ctest runs
# 10), as two learners, in-process through live `kvtutor --keys -` sessions:
# every answer that either screen acknowledged is in the database exactly
# once, nothing that was not acknowledged is, neither app ever says an
# answer was not saved, and the database is intact. Prints "N passed, N
# failed" and the answers per second each reached. (It replaced
# test_tui_two.sh; the terminal's restore is checked by the real-terminal
# tests that remain.)
set -u
KVTUTOR=${KVTUTOR:?set KVTUTOR to the kvtutor binary}
SECONDS_TO_RUN=${SECONDS_TO_RUN:-60}
work=$(mktemp -d /tmp/kvt_app_two.XXXXXX)
# shellcheck source=keys_lib.sh
. "$(dirname "$0")/keys_lib.sh"
sql() { sqlite3 "$db" "$1"; }
rows=30

declare -A fin fout pid n last
# open WHO: the app as learner WHO, its keys and screens through two FIFOs
open_app() {
  mkfifo "$work/$1.in" "$work/$1.out"
  "$KVTUTOR" --db "$db" --learner "$1" --keys - --size 100x30 \
    < "$work/$1.in" > "$work/$1.out" 2> "$work/$1.err" &
  pid[$1]=$!
  exec {fd}> "$work/$1.in"
  fin[$1]=$fd
  exec {fd}< "$work/$1.out"
  fout[$1]=$fd
  n[$1]=0
  take "$1" "── start"
}
# take WHO HEADER: reads WHO's output up to HEADER, then the screen after it
take() {
  local line i
  last[$1]=""
  while IFS= read -r -t 60 line <&"${fout[$1]}"; do
    case $line in "$2"*) break ;; "── the app quit") last[$1]="── the app quit"; return ;; esac
  done
  for ((i = 0; i < rows; i++)); do
    IFS= read -r -t 60 line <&"${fout[$1]}" || break
    last[$1]+="$line"$'\n'
  done
}
# type WHO LINE: one step; its screen lands in last[WHO] (read later by take_step)
type_line() {
  n[$1]=$((n[$1] + 1))
  printf '%s\n' "$2" >&"${fin[$1]}"
}
take_step() { take "$1" "── line ${n[$1]}: "; }
shows() { printf '%s' "${last[$1]}" | grep -qF -- "$2"; }

"$KVTUTOR" stats --db "$db" >/dev/null
for who in ada bob; do
  open_app "$who"
  shows "$who" "Course map" || bad "$who: the app did not start"
  type_line "$who" e
  take_step "$who"
  shows "$who" "How many bytes of KV cache" || bad "$who: practice did not start"
done

declare -A acked=([ada]=0 [bob]=0)
unsaved=0
end=$(($(date +%s) + SECONDS_TO_RUN))
while [ "$(date +%s)" -lt "$end" ]; do
  # both type before either is read: the two write at the same time
  for who in ada bob; do type_line "$who" "56 KiB<Enter>"; done
  for who in ada bob; do
    take_step "$who"
    shows "$who" "Right." && acked[$who]=$((acked[$who] + 1))
    shows "$who" "not saved" && unsaved=$((unsaved + 1))
  done
  for who in ada bob; do type_line "$who" a; done # the same exercise again: a new attempt
  for who in ada bob; do take_step "$who"; done
done
for who in ada bob; do
  type_line "$who" "<Esc>"
  type_line "$who" Q
  eval "exec ${fin[$who]}>&-" # the end of its keys
  cat <&"${fout[$who]}" > /dev/null
  if wait "${pid[$who]}"; then ok "$who quits normally"; else bad "$who did not quit normally: $(tail -c 300 "$work/$who.err")"; fi
done

for who in ada bob; do
  got=$(sql "SELECT count(*) FROM attempt a JOIN learner l ON l.id = a.learner_id WHERE l.name = '$who'")
  echo "$who: ${acked[$who]} answers acknowledged in ${SECONDS_TO_RUN} s ($(awk -v n="${acked[$who]}" -v s="$SECONDS_TO_RUN" 'BEGIN { printf "%.1f", n / s }')/s), $got in the database"
  if [ "${acked[$who]}" -gt 0 ] && [ "$got" = "${acked[$who]}" ]; then
    ok "every answer $who saw acknowledged is saved, once"
  else
    bad "$who: ${acked[$who]} acknowledged, $got saved"
  fi
  if grep -qE "AddressSanitizer|LeakSanitizer|runtime error:" "$work/$who.err"; then
    bad "$who: a sanitizer report"; head -20 "$work/$who.err"
  fi
done
if [ "$unsaved" = 0 ]; then ok "neither app ever said an answer was not saved"; else bad "$unsaved answers were not saved"; fi
if [ "$(sql "PRAGMA integrity_check")" = ok ]; then ok "the database is intact"; else bad "integrity_check"; fi

report app-two
