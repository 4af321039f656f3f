#!/usr/bin/env bash
# The progress database on a disk that fills up and on a read-only mount,
# driven through tmux: an answer the disk refused is said to be unsaved, is
# not dropped by moving on, and is saved with `s` once there is room; a full
# disk at start-up gives one clear line; a read-only mount still shows the
# progress and lets the learner practise, saying nothing is saved. Needs a
# small tmpfs: as root, or as anyone through a user namespace (unshare);
# where neither is allowed it says why and exits 77 (skipped).
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

work=$(mktemp -d /tmp/kvt_disk.XXXXXX)
# shellcheck source=tui_lib.sh
. "$here/tui_lib.sh"
mnt="$work/mnt"
mkdir -p "$mnt"
trap 'umount "$mnt" 2>/dev/null; cleanup' EXIT
mount -t tmpfs -o size=512k tmpfs "$mnt"
db="$mnt/progress.db"
sql() { sqlite3 "$db" "$1"; }
fill() { dd if=/dev/zero of="$mnt/filler" bs=4k 2>/dev/null; }

# --- the disk fills up while the learner practises ---
"$KVTUTOR" stats --db "$db" >/dev/null
start_shell
run_app
wait_for "Course map" >/dev/null
tm send-keys -t app e
wait_for "How many bytes of KV cache" >/dev/null
fill
tm send-keys -t app "56 KiB" Enter
check "an answer the full disk refused is said to be unsaved" "your answer was not saved (the disk is full"
tm send-keys -t app Enter
keys_handled "How many bytes of KV cache"
check "Enter does not move on past an unsaved answer" "How many bytes of KV cache"
tm send-keys -t app q
check "q warns before leaving an unsaved answer" "q again leaves without it"
rm -f "$mnt/filler"
tm send-keys -t app s
check "s saves it once there is room" "saved"
tm send-keys -t app Enter
check "then Enter goes on" "practice · exercise 2 of"
quit_from_map "after a full disk"
if [ "$(sql "SELECT count(*) FROM attempt WHERE exercise_id = 'per-token' AND verdict = 'correct'")" = 1 ] &&
   [ "$(sql "PRAGMA integrity_check")" = ok ]; then
  ok "the answer is in the database once, and the database is intact"
else
  bad "after a full disk: $(sql "SELECT exercise_id, verdict FROM attempt"; sql "PRAGMA integrity_check")"
fi

# --- starting on a full disk ---
fill
run_app --db "$mnt/new.db"
check "a full disk at start-up gives one clear line" "the disk is full"
check "and a non-zero exit" "EXIT=1"
stty_kept "starting on a full disk"
rm -f "$mnt/filler" "$mnt"/new.db*

# --- a read-only mount ---
mount -o remount,ro "$mnt"
if "$KVTUTOR" stats --json --db "$db" 2>&1 | grep -q '"attempts": 1,'; then
  ok "kvtutor stats reads the progress on a read-only mount"
else
  bad "stats on a read-only mount: $("$KVTUTOR" stats --db "$db" 2>&1 | head -3)"
fi
run_app
check "the app opens and says nothing will be saved" "is read-only: you can practise, but nothing will be saved"
tm send-keys -t app e
# per-token has its answer (above): practice resumes at per-sequence-8k,
# 56 KiB x 8,192 = 448 MiB = 0.4375 GiB
check "practice resumes at the first exercise not answered" "practice · exercise 2 of"
tm send-keys -t app "0.4375 GiB" Enter
wait_for "Right." >/dev/null
tm send-keys -t app Enter
check "practice goes on without saving" "practice · exercise 3 of"
quit_from_map "on a read-only mount"

report tui-disk
