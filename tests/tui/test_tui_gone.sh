#!/usr/bin/env bash
# The progress database deleted while the app runs (rm progress.db, a
# clean-up script), driven through tmux: the next answer is saved all the
# same, the screen says the file was written again, and every answer, those
# given before the removal included, is in the file at the path once the app
# has quit. Before, answers went on being acknowledged into the removed file
# and were all lost at exit, without a word.
set -u
KVTUTOR=${KVTUTOR:?set KVTUTOR to the kvtutor binary}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/kvt_gone.XXXXXX)
# shellcheck source=tui_lib.sh
. "$here/tui_lib.sh"
trap cleanup EXIT
sql() { sqlite3 "$db" "$1"; }

"$KVTUTOR" stats --db "$db" >/dev/null
start_shell
run_app
wait_for "Course map" >/dev/null
tm send-keys -t app e
wait_for "How many bytes of KV cache" >/dev/null
tm send-keys -t app "56 KiB" Enter
check "the first answer is graded" "Expected:"
tm send-keys -t app Enter
check "and the session goes on" "practice · exercise 2 of"
rm -f "$db"
tm send-keys -t app "1" Enter
check "the answer after the removal says the file was written again" "deleted while kvtutor ran: it is written again"
if [ -f "$db" ]; then ok "the database is back at its path"; else bad "no file at $db"; fi
quit_from_map "after the database was removed"
if [ "$(sql "SELECT count(*) FROM attempt")" = 2 ] && [ "$(sql "PRAGMA integrity_check")" = ok ]; then
  ok "both answers, the one before the removal too, are in the file, and it is intact"
else
  bad "after the removal: $(sql "SELECT exercise_id, verdict FROM attempt" 2>&1; sql "PRAGMA integrity_check" 2>&1)"
fi

report tui-gone
