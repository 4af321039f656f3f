#!/usr/bin/env bash
# Two copies of the app on one progress database, each answering as fast as
# it can for SECONDS_TO_RUN seconds (default 60, the benchmark; ctest runs
# 5, some 70 answers each here), as two learners, in-process through live `kvtutor --keys -` sessions:
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

"$KVTUTOR" stats --db "$db" >/dev/null
for who in ada bob; do
  live_start "$who" --learner "$who"
  shows "$who" "Course map" || bad "$who: the app did not start"
  send "$who" e
  shows "$who" "How many bytes of KV cache" || bad "$who: practice did not start"
done

declare -A acked=([ada]=0 [bob]=0)
unsaved=0
end=$(($(date +%s) + SECONDS_TO_RUN))
while [ "$(date +%s)" -lt "$end" ]; do
  # both type before either is read: the two write at the same time
  for who in ada bob; do put "$who" "56 KiB<Enter>"; done
  for who in ada bob; do
    take "$who"
    shows "$who" "Right." && acked[$who]=$((acked[$who] + 1))
    shows "$who" "not saved" && unsaved=$((unsaved + 1))
  done
  for who in ada bob; do put "$who" a; done # the same exercise again: a new attempt
  for who in ada bob; do take "$who"; done
done
for who in ada bob; do
  put "$who" "<Esc>"
  put "$who" Q
  live_end "$who"
  if [ "$played" = 0 ]; then ok "$who quits normally"; else bad "$who did not quit normally: $(tail -c 300 "$work/$who.err")"; fi
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
