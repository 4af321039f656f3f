#!/usr/bin/env bash
# What the keys need a real terminal for: keys typed while lessons load
# (none is lost, an arrow arrives whole), a tab inside pasted text (a space,
# not Tab's hint), and the terminal's settings as they were after Q. The
# rest of the keys that never surprise (Esc, q, Q on each screen, a quit
# that asks first, what the status line and help offer) is checked
# in-process by tests/cli/test_app_nav.sh. Prints "N passed, N failed".
set -u
KVTUTOR=${KVTUTOR:?set KVTUTOR to the kvtutor binary}
work=$(mktemp -d /tmp/kvt_tui_keys.XXXXXX)
# shellcheck source=tui_lib.sh
. "$(dirname "$0")/tui_lib.sh"

# --- a pasted tab: a space, not Tab's hint (a hint caps the rating) ---
# Kept here: the app tells a paste from typing by keys already waiting on
# the terminal, and under --keys none ever waits (each key is handed over
# alone, and a script line cannot hold a tab), so test_app_nav.sh checks
# only Tab pressed alone.
start_shell
run_app
wait_for "Course map" >/dev/null
tm send-keys -t app e
wait_for "Answer:" >/dev/null
tm send-keys -t app -l "$(printf '56\tKiB')"
check "a pasted tab is typed as a space" "Answer: 56 KiB"
if screen | grep -qF "Hint 1:"; then bad "a pasted tab shows no hint"; else ok "a pasted tab shows no hint"; fi
# nothing typed, Esc leaves at once; Q from progress, a screen other than
# the map, must leave the terminal as it was
tm send-keys -t app C-u Escape
wait_for "Enter/l open" >/dev/null
tm send-keys -t app p
wait_for "│ ? help" >/dev/null
tm send-keys -t app Q
check "Q quits from the progress screen" "EXIT=0"
stty_kept "quit with Q"

# --- keys typed while lessons load: none is lost, an arrow arrives whole ---
# A lesson that runs to its 2 s load deadline keeps the app loading; the
# keys go in on its turn (the last file: "loading lessons: N of N"): a
# search with the cursor moved left and back. The loading timer used to eat
# them a byte at a time, so none reached the map, or an arrow came as "[D".
mkdir -p "$work/slowload"
printf 'while true do end\n' > "$work/slowload/zz-slow.lua"
start_shell
run_app --lessons "$work/slowload"
for _ in $(seq 100); do
  screen | grep -qE 'loading lessons: ([0-9]+) of \1' && break
  sleep 0.05
done
tm send-keys -t app / r o o f l i n Left Right e Enter
check "keys typed while lessons load reach the map in order, arrows whole" "matching roofline" 100
tm send-keys -t app Escape
wait_for "Course map" >/dev/null
tm send-keys -t app Q
check "after keys typed while loading, Q quits" "EXIT=0"
stty_kept "keys typed while loading"

report tui_keys
