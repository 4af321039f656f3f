#!/usr/bin/env bash
# The progress database deleted while the app runs (rm progress.db, a
# clean-up script), in-process through a live `kvtutor --keys -` session:
# the next answer is saved all the same, the screen says the file was
# written again, and every answer, those given before the removal included,
# is in the file at the path once the app has quit. Before, answers went on
# being acknowledged into the removed file and were all lost at exit,
# without a word. (It replaced test_tui_gone.sh, the same checks in tmux.)
set -u
KVTUTOR=${KVTUTOR:?set KVTUTOR to the kvtutor binary}
work=$(mktemp -d /tmp/kvt_app_gone.XXXXXX)
# shellcheck source=keys_lib.sh
. "$(dirname "$0")/keys_lib.sh"
sql() { sqlite3 "$db" "$1"; }

"$KVTUTOR" stats --db "$db" >/dev/null
live_start app
check_live app "the course map is shown" "Course map"
send app e
check_live app "the first exercise is asked" "How many bytes of KV cache"
send app "56 KiB"
send app "<Enter>"
check_live app "the first answer is graded" "Expected:"
send app "<Enter>"
check_live app "and the session goes on" "practice · exercise 2 of"
rm -f "$db"
send app "1"
send app "<Enter>"
check_live app "the answer after the removal says the file was written again" \
  "deleted while kvtutor ran: it is written again"
if [ -f "$db" ]; then ok "the database is back at its path"; else bad "no file at $db"; fi
send app "<Esc>"
send app "Q"
live_end app
if [ "$played" = 0 ]; then ok "the app quits normally"; else bad "exit $played: $(tail -c 300 "$work/err")"; fi
if [ "$(sql "SELECT count(*) FROM attempt")" = 2 ] && [ "$(sql "PRAGMA integrity_check")" = ok ]; then
  ok "both answers, the one before the removal too, are in the file, and it is intact"
else
  bad "after the removal: $(sql "SELECT exercise_id, verdict FROM attempt" 2>&1; sql "PRAGMA integrity_check" 2>&1)"
fi

report app-gone
