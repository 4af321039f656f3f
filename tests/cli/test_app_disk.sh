#!/usr/bin/env bash
# The progress database on a disk that fills up and on a read-only mount,
# in-process through a live `kvtutor --keys -` session: an answer the disk
# refused is said to be unsaved, is not dropped by moving on, and is saved
# with `s` once there is room; a full disk at start-up gives one clear line
# and exit 1 (the database is opened before the terminal is touched, in the
# app as under --keys); a read-only mount still shows the progress and lets
# the learner practise, saying nothing is saved. Needs a small tmpfs: as
# root, or as anyone through a user namespace (unshare); where neither is
# allowed it says why and exits 77 (skipped). (It replaced
# test_tui_disk.sh, the same checks in tmux.)
set -u
KVTUTOR=${KVTUTOR:?set KVTUTOR to the kvtutor binary}
here=$(cd "$(dirname "$0")" && pwd)

probe_dir=$(mktemp -d /tmp/kvt_disk_probe.XXXXXX)
if ! mount -t tmpfs -o size=64k tmpfs "$probe_dir" 2>/dev/null; then
  rmdir "$probe_dir"
  if [ -z "${KVT_IN_NS:-}" ] && unshare -rm true 2>/dev/null; then
    KVT_IN_NS=1 exec unshare -rm bash "$0" "$@"
  fi
  echo "SKIP: cannot mount a tmpfs here (not root, and no user namespaces)"
  exit 77
fi
umount "$probe_dir" && rmdir "$probe_dir"

work=$(mktemp -d /tmp/kvt_app_disk.XXXXXX)
# shellcheck source=keys_lib.sh
. "$here/keys_lib.sh"
mnt="$work/mnt"
mkdir -p "$mnt"
trap 'umount "$mnt" 2>/dev/null; rm -rf "$work"' EXIT
mount -t tmpfs -o size=512k tmpfs "$mnt"
db="$mnt/progress.db"
sql() { sqlite3 "$db" "$1"; }
fill() { dd if=/dev/zero of="$mnt/filler" bs=4k 2>/dev/null; }

# --- the disk fills up while the learner practises ---
"$KVTUTOR" stats --db "$db" >/dev/null
live_start app
send app e
check_live app "the first exercise is asked" "How many bytes of KV cache"
fill
send app "56 KiB<Enter>"
check_live app "an answer the full disk refused is said to be unsaved" "your answer was not saved (the disk is full"
send app "<Enter>"
check_live app "Enter does not move on past an unsaved answer" "How many bytes of KV cache"
send app q
check_live app "q warns before leaving an unsaved answer" "q again leaves without it"
rm -f "$mnt/filler"
send app s
check_live app "s saves it once there is room" "saved"
if shows app "not saved"; then bad "after s, nothing says the answer is unsaved"; else ok "after s, nothing says the answer is unsaved"; fi
send app "<Enter>"
check_live app "then Enter goes on" "practice · exercise 2 of"
send app "<Esc>"
check_live app "Esc goes back to the map" "Course map"
send app Q
live_end app
if [ "$played" = 0 ]; then ok "after a full disk: the app quits normally"; else bad "after a full disk: exit $played: $(tail -c 300 "$work/app.err")"; fi
if [ "$(sql "SELECT count(*) FROM attempt WHERE exercise_id = 'per-token' AND verdict = 'correct'")" = 1 ] &&
   [ "$(sql "PRAGMA integrity_check")" = ok ]; then
  ok "the answer is in the database once, and the database is intact"
else
  bad "after a full disk: $(sql "SELECT exercise_id, verdict FROM attempt"; sql "PRAGMA integrity_check")"
fi

# --- starting on a full disk ---
fill
printf 'Q\n' | "$KVTUTOR" --db "$mnt/new.db" --keys - > "$work/full.out" 2> "$work/full.err"
rc=$?
if [ "$rc" = 1 ]; then ok "a full disk at start-up: a non-zero exit (1)"; else bad "a full disk at start-up: exit $rc"; fi
if [ "$(wc -l < "$work/full.err")" = 1 ] && grep -qF "the disk is full" "$work/full.err"; then
  ok "a full disk at start-up gives one clear line"
else
  bad "a full disk at start-up: $(cat "$work/full.err")"
fi
if [ -s "$work/full.out" ]; then bad "no screen is drawn on a full disk"; else ok "no screen is drawn on a full disk"; fi
rm -f "$mnt/filler" "$mnt"/new.db*

# --- a read-only mount ---
# (in a user namespace only the mount point's own flag can change: bind)
if mount -o remount,ro "$mnt" 2>/dev/null || mount -o remount,bind,ro "$mnt"; then
  ok "the tmpfs is remounted read-only"
else
  bad "the tmpfs could not be remounted read-only"
fi
if "$KVTUTOR" stats --json --db "$db" 2>&1 | grep -q '"attempts": 1,'; then
  ok "kvtutor stats reads the progress on a read-only mount"
else
  bad "stats on a read-only mount: $("$KVTUTOR" stats --db "$db" 2>&1 | head -3)"
fi
live_start ro
check_live ro "the app opens and says nothing will be saved" "is read-only: you can practise, but nothing will be saved"
send ro e
# per-token has its answer (above): practice resumes at per-sequence-8k,
# 56 KiB x 8,192 = 448 MiB = 0.4375 GiB
check_live ro "practice resumes at the first exercise not answered" "practice · exercise 2 of"
send ro "0.4375 GiB<Enter>"
check_live ro "the answer is graded" "Right."
send ro "<Enter>"
check_live ro "practice goes on without saving" "practice · exercise 3 of"
send ro "<Esc>"
send ro Q
live_end ro
if [ "$played" = 0 ]; then ok "on a read-only mount: the app quits normally"; else bad "on a read-only mount: exit $played: $(tail -c 300 "$work/ro.err")"; fi

report app_disk
