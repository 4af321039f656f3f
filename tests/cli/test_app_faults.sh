#!/usr/bin/env bash
# Faults that are not the terminal's, in-process through `kvtutor --keys`:
# a probe that crashes, a probe that reports a figure no machine has, and a
# lesson whose Lua fails while the learner practises. Each leaves the app
# up, says what failed, keeps the run as what it was, grades nothing it
# could not compute, and, under the sanitizer build, leaves the app's
# stderr free of sanitizer reports. (It replaced these parts of
# tests/tui/test_tui_faults.sh, the same checks in tmux; signals, Ctrl-C
# while loading and resizes stay there.)
set -u
KVTUTOR=${KVTUTOR:?set KVTUTOR to the kvtutor binary}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/kvt_app_faults.XXXXXX)
# shellcheck source=keys_lib.sh
. "$here/keys_lib.sh"

# The app as installed, in a folder of its own, so its probe can be swapped
# for one of the fake probes the supervisor tests use.
appdir="$work/app"
use_probe() { installed_copy "$appdir" "$here/../probes/$1.sh"; }
use_probe clean
KVTUTOR="$appdir/bin/kvtutor"
sql() { sqlite3 "$db" "$1"; }
sanitizer_clean() {
  if grep -qE "AddressSanitizer|LeakSanitizer|runtime error:" "$work/err" 2>/dev/null; then
    bad "$1: a sanitizer report"; sed 's/^/  ! /' "$work/err" | head -20
  else
    ok "$1: no sanitizer report"
  fi
}

# --- a probe that dies of SIGSEGV mid-run ---
use_probe segv
step P "<Wait>"
probed=$(here)
step q Q
play
check_at "$probed" "a crashing probe is reported as a crash" "The probe crashed: killed by signal 11"
check_at "$probed" "the app stays up and offers a new run" "Press r to run it again, q to go back."
quit_ok "after a probe crash"
if [ "$(sql "SELECT outcome FROM probe_run ORDER BY id DESC LIMIT 1")" = crashed ]; then
  ok "the crashed run is kept as crashed"
else
  bad "the crashed run: $(sql "SELECT outcome, message FROM probe_run")"
fi
sanitizer_clean "a probe crash"

# --- a probe that exits 0 but reports 1e300 GB/s ---
use_probe out_of_range
step P "<Wait>"
probed=$(here)
step q Q
play
check_at "$probed" "a figure no machine has fails the run, named" \
  "The probe failed: its read result line says gbps_best 1e+300, outside 0 to 1,000,000"
check_at "$probed" "and a new run is offered" "Press r to run it again, q to go back."
# the read bar stays empty and no ceiling is drawn; the sound paged line is
# shown, as any figures measured before a failure are
if at "$probed" | grep -E "^ *read .*GB/s|Your decode ceiling" >/dev/null; then
  bad "the refused read figure reached the screen"
else
  ok "no read figure or ceiling is drawn from it"
fi
quit_ok "after an out-of-range probe"
if [ "$(sql "SELECT outcome || ' ' || ifnull(read_gbps, 'none') FROM probe_run ORDER BY id DESC LIMIT 1")" = "failed none" ]; then
  ok "the run is kept as failed, with no read figure for the lessons"
else
  bad "the out-of-range run: $(sql "SELECT outcome, read_gbps FROM probe_run ORDER BY id DESC LIMIT 1")"
fi

# --- a lesson whose Lua raises an error while the learner practises ---
# Lint evaluates measured exercises at 900 GB/s, where this one works; the
# fake probe measures 20 GB/s, where it raises.
use_probe clean
step P "<Wait>"
probed=$(here)
step "<Esc>" Q
play
# (the tmux version waited for a line this screen does not have, unchecked)
check_at "$probed" "the clean probe's run ends with its ceiling" "Your decode ceiling"
check_at "$probed" "at the 20 GB/s it measured" "20 GB/s"
mkdir -p "$work/mine"
cat > "$work/mine/boom.lua" <<'LUA'
return lesson {
  id = "boom", title = "Fails on slow machines", module = "tests", baseline = "none",
  concept = "faults", question = "Q?", answer = "A.",
  sections = { section { title = "T", text = "x" } }, worked = "1 + 1 = 2",
  followups = { followup { question = "F?", answer = "G.", points = { "g" } } },
  exercises = {
    numeric { id = "slow", measured = "read_gbps", unit = "GB/s",
              prompt = "You measured {read_gbps} GB/s. Double it?",
              expected = function(p)
                if p.read_gbps < 100 then error("no formula below 100 GB/s") end
                return 2 * p.read_gbps
              end },
    numeric { id = "two", prompt = "What is 1 + 1?", expected = 2, unit = "blocks" },
  },
}
LUA
attempts_before=$(sql "SELECT count(*) FROM attempt")
step e
practised=$(here)
step "<Esc>" "<Esc>" Q
play --lessons "$work/mine" open boom
check_at 0 "the lesson opens" "Fails on slow machines"
check_at "$practised" "an exercise whose Lua fails is skipped with the lesson's error" "no formula below 100 GB/s"
check_at "$practised" "practice goes on with the next exercise" "What is 1 + 1?"
quit_ok "after a Lua error"
if [ "$(sql "SELECT count(*) FROM attempt")" = "$attempts_before" ]; then
  ok "nothing was graded against the value that could not be computed"
else
  bad "an attempt was recorded for the failed exercise"
fi
sanitizer_clean "a Lua error"

report app_faults
