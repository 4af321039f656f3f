#!/usr/bin/env bash
# Two copies of the app on one progress database, each answering as fast as
# it can for SECONDS_TO_RUN seconds (default 60, the benchmark; ctest runs
# 10), as two learners: every answer that either screen acknowledged is in
# the database exactly once, nothing that was not acknowledged is, neither
# app ever says an answer was not saved,
# the database is intact, and both terminals are restored. Prints
# "N passed, N failed" and the answers per second each reached.
set -u
KVTUTOR=${KVTUTOR:?set KVTUTOR to the kvtutor binary}
SECONDS_TO_RUN=${SECONDS_TO_RUN:-60}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/kvt_two.XXXXXX)
# shellcheck source=tui_lib.sh
. "$here/tui_lib.sh"
sql() { sqlite3 "$db" "$1"; }
shot() { tm capture-pane -p -t "$1" 2>/dev/null; }
# until SESSION shows TEXT, 5 s at most
until_shows() {
  for _ in $(seq 100); do shot "$1" | grep -qF -- "$2" && return 0; sleep 0.05; done
  return 1
}

"$KVTUTOR" stats --db "$db" >/dev/null
for who in ada bob; do
  tm -f /dev/null new-session -d -s "$who" -x 100 -y 30 \
    "env HOME=$work LANG=C.UTF-8 TERM=xterm-256color ${LSAN_OPTIONS:+LSAN_OPTIONS=$LSAN_OPTIONS} bash --norc --noprofile"
  tm send-keys -t "$who" "stty -g > $work/$who.before; $KVTUTOR --db $db --learner $who 2>$work/$who.err; echo EXIT=\$?; stty -g > $work/$who.after" Enter
  until_shows "$who" "Course map" || bad "$who: the app did not start"
  tm send-keys -t "$who" e
  until_shows "$who" "How many bytes of KV cache" || bad "$who: practice did not start"
done

declare -A acked=([ada]=0 [bob]=0)
unsaved=0
end=$(($(date +%s) + SECONDS_TO_RUN))
while [ "$(date +%s)" -lt "$end" ]; do
  for who in ada bob; do tm send-keys -t "$who" "56 KiB" Enter; done
  for who in ada bob; do
    if until_shows "$who" "Right."; then
      acked[$who]=$((acked[$who] + 1))
    fi
    shot "$who" | grep -q "not saved" && unsaved=$((unsaved + 1))
    tm send-keys -t "$who" a # the same exercise again: a new attempt
  done
  for who in ada bob; do until_shows "$who" "Answer:" >/dev/null; done
done
for who in ada bob; do
  tm send-keys -t "$who" Escape
  until_shows "$who" "Course map" >/dev/null
  tm send-keys -t "$who" Q
  until_shows "$who" "EXIT=0" && ok "$who quits normally" || bad "$who did not quit normally"
done

for who in ada bob; do
  got=$(sql "SELECT count(*) FROM attempt a JOIN learner l ON l.id = a.learner_id WHERE l.name = '$who'")
  echo "$who: ${acked[$who]} answers acknowledged in ${SECONDS_TO_RUN} s ($(awk -v n="${acked[$who]}" -v s="$SECONDS_TO_RUN" 'BEGIN { printf "%.1f", n / s }')/s), $got in the database"
  if [ "${acked[$who]}" -gt 0 ] && [ "$got" = "${acked[$who]}" ]; then
    ok "every answer $who saw acknowledged is saved, once"
  else
    bad "$who: ${acked[$who]} acknowledged, $got saved"
  fi
  for _ in $(seq 30); do [ -s "$work/$who.after" ] && break; sleep 0.1; done
  if cmp -s "$work/$who.before" "$work/$who.after"; then ok "$who's terminal is as before"; else bad "$who's terminal changed"; fi
  if grep -qE "AddressSanitizer|LeakSanitizer|runtime error:" "$work/$who.err"; then
    bad "$who: a sanitizer report"; head -20 "$work/$who.err"
  fi
done
if [ "$unsaved" = 0 ]; then ok "neither app ever said an answer was not saved"; else bad "$unsaved answers were not saved"; fi
if [ "$(sql "PRAGMA integrity_check")" = ok ]; then ok "the database is intact"; else bad "integrity_check"; fi

report tui-two
