#!/usr/bin/env bash
# An answer given while another kvtutor holds the database's write lock (an
# import, a second app): the app says at once that it is waiting for the
# database, then saves the answer when the lock is let go. Before, the
# answer sat for seconds with no word, as if the app had hung. The command
# line says the same on stderr.
set -u
KVTUTOR=${KVTUTOR:?set KVTUTOR to the kvtutor binary}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/kvt_wait.XXXXXX)
# shellcheck source=tui_lib.sh
. "$here/tui_lib.sh"
trap 'kill "$holder" 2>/dev/null; cleanup' EXIT
sql() { sqlite3 "$db" "$1"; }
holder=

# hold_lock SECONDS: another connection takes the write lock and keeps it
# that long; returns once the lock is held (a second writer is refused).
hold_lock() {
  { printf 'BEGIN IMMEDIATE;\n'; sleep "$1"; printf 'COMMIT;\n'; } | sqlite3 "$db" &
  holder=$!
  for _ in $(seq 100); do
    sqlite3 "$db" "BEGIN IMMEDIATE; ROLLBACK;" >/dev/null 2>&1 || return 0
    sleep 0.05
  done
  bad "the lock was never taken"
}

"$KVTUTOR" stats --db "$db" >/dev/null
start_shell
run_app
wait_for "Course map" >/dev/null
tm send-keys -t app e
wait_for "How many bytes of KV cache" >/dev/null
tm send-keys -t app "56 KiB"
hold_lock 4
tm send-keys -t app Enter
check "an answer that waits for the lock says so" "waiting for the database: another kvtutor is writing to it" 30
check "and is graded once the lock is let go" "Expected:" 100
wait "$holder"
holder=
if [ "$(sql "SELECT count(*) FROM attempt")" = 1 ]; then
  ok "the answer is saved"
else
  bad "attempts after the wait: $(sql "SELECT exercise_id, verdict FROM attempt" 2>&1)"
fi
if screen | grep -qF "not saved"; then bad "the answer was called not saved"; else ok "nothing said it was not saved"; fi
quit_from_map "after the wait"

"$KVTUTOR" export --db "$db" --out "$work/progress.json" >/dev/null
hold_lock 2
if "$KVTUTOR" import --db "$db" "$work/progress.json" 2>"$work/import.err" >/dev/null &&
  grep -qF "kvtutor import: waiting for the database: another kvtutor is writing to it" "$work/import.err"; then
  ok "import says it waits for the lock, then imports"
else
  bad "import under a held lock: $(cat "$work/import.err")"
fi
wait "$holder"
holder=

report tui-wait
