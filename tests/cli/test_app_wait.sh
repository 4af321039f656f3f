#!/usr/bin/env bash
# An answer given while another kvtutor holds the database's write lock (an
# import, a second app), in-process through a live `kvtutor --keys -`
# session: the app says at once that it is waiting for the database (the
# screen printed during the wait, "── waiting during line N"), then saves
# the answer when the lock is let go. Before, the answer sat for seconds
# with no word, as if the app had hung. The command line says the same on
# stderr. The lock is held until the test has seen the app say so: no timed
# hold, no sleep. (It replaced test_tui_wait.sh, the same checks in tmux.)
set -u
KVTUTOR=${KVTUTOR:?set KVTUTOR to the kvtutor binary}
work=$(mktemp -d /tmp/kvt_app_wait.XXXXXX)
# shellcheck source=keys_lib.sh
. "$(dirname "$0")/keys_lib.sh"
holder=
trap '[ -n "$holder" ] && kill "$holder" 2>/dev/null; rm -rf "$work"' EXIT
sql() { sqlite3 "$db" "$1"; }

# hold_lock: another connection takes the write lock and keeps it until
# let_go; returns once the lock is held (a second writer is refused).
hold_lock() {
  rm -f "$work/go"
  mkfifo "$work/go"
  { printf 'BEGIN IMMEDIATE;\n'; read -r _ < "$work/go"; printf 'COMMIT;\n'; } | sqlite3 "$db" &
  holder=$!
  for _ in $(seq 200); do
    sqlite3 "$db" "BEGIN IMMEDIATE; ROLLBACK;" >/dev/null 2>&1 || return 0
    sleep 0.05
  done
  bad "the lock was never taken"
}
let_go() {
  echo go > "$work/go"
  wait "$holder"
  holder=
}

"$KVTUTOR" stats --db "$db" >/dev/null
live_start app
check_live app "the course map is shown" "Course map"
send app e
check_live app "the first exercise is asked" "How many bytes of KV cache"
send app "56 KiB"
hold_lock
put app "<Enter>"
read_screen app "── waiting during line ${live_n[app]}"
check_live app "an answer that waits for the lock says so" "waiting for the database: another kvtutor is writing to it"
check_live app "over the exercise it waits on" "How many bytes of KV cache"
let_go
take app
check_live app "and is graded once the lock is let go" "Expected:"
if [ "$(sql "SELECT count(*) FROM attempt")" = 1 ]; then
  ok "the answer is saved"
else
  bad "attempts after the wait: $(sql "SELECT exercise_id, verdict FROM attempt" 2>&1)"
fi
if shows app "not saved"; then bad "the answer was called not saved"; else ok "nothing said it was not saved"; fi
send app "<Esc>"
check_live app "Esc goes back to the map" "Course map"
send app Q
live_end app
if [ "$played" = 0 ]; then ok "after the wait: the app quits normally"; else bad "after the wait: exit $played: $(tail -c 300 "$work/app.err")"; fi

"$KVTUTOR" export --db "$db" --out "$work/progress.json" >/dev/null
hold_lock
"$KVTUTOR" import --db "$db" "$work/progress.json" 2>"$work/import.err" >/dev/null &
importer=$!
# the import says so on stderr while it waits; then the lock is let go
said=no
for _ in $(seq 200); do
  grep -qF "kvtutor import: waiting for the database: another kvtutor is writing to it" "$work/import.err" && { said=yes; break; }
  sleep 0.05
done
let_go
if wait "$importer" && [ $said = yes ]; then
  ok "import says it waits for the lock, then imports"
else
  bad "import under a held lock: $(cat "$work/import.err")"
fi

report app_wait
