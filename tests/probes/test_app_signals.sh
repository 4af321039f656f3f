#!/usr/bin/env bash
# shellcheck disable=SC2119 # start_shell and run_app take optional arguments
# The app while it probes, driven through tmux: SIGTERM, SIGHUP or SIGINT to
# the app stops the probe's whole process group (the probe and the child it
# started), which a terminal's Ctrl-C would not reach, and the terminal is
# given back. Prints "N passed, N failed".
set -u
KVTUTOR=${KVTUTOR:?set KVTUTOR to the kvtutor binary}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/kvt_app_signals.XXXXXX)
# shellcheck source=tests/tui/tui_lib.sh
. "$here/../tui/tui_lib.sh"

# The app in a folder of its own, its CPU probe a fake that writes its
# process group (its own pid: it leads the group) and sleeps with a child.
appdir="$work/app"
helpers="$appdir/libexec/kvtutor" # where the app looks for its probes
mkdir -p "$helpers"
cp "$KVTUTOR" "$appdir/kvtutor"
ln -s "$(cd "$(dirname "$KVTUTOR")" && pwd)/share" "$appdir/share"
cat >"$helpers/kvtutor-probe-cpu" <<SH
#!/bin/sh
echo \$\$ > "$work/pgid"
echo '{"type":"progress","kernel":"read","percent":1}'
sleep 1000 &
wait
SH
chmod +x "$helpers/kvtutor-probe-cpu"
APP="$appdir/kvtutor"

# members PGID: processes of that group still running code (not zombies)
members() { ps -e -o pgid=,stat= | awk -v g="$1" '$1 == g && $2 !~ /^Z/' | wc -l; }

start_shell
for sig in TERM HUP INT; do
  rm -f "$work/pgid"
  run_app
  if ! wait_for "Course map"; then
    bad "SIG$sig: the app did not start"
    continue
  fi
  tm send-keys -t app P
  for _ in $(seq 50); do [ -s "$work/pgid" ] && break; sleep 0.1; done
  pgid=$(cat "$work/pgid" 2>/dev/null)
  app=$(pgrep -f "^$APP --db $db" | head -n 1)
  if [ -z "$pgid" ] || [ -z "$app" ] || [ "$(members "$pgid")" -lt 2 ]; then
    bad "SIG$sig: the probe and its child did not start (group ${pgid:-?}, app ${app:-?})"
    continue
  fi
  kill "-$sig" "$app"
  left=1
  for _ in $(seq 50); do # 5 s: the 2 s grace and more
    left=$(members "$pgid")
    [ "$left" -eq 0 ] && break
    sleep 0.1
  done
  if [ "$left" -eq 0 ]; then
    ok "SIG$sig to the app stops the probe's group"
  else
    bad "SIG$sig: $left process(es) of the probe's group outlived the app"
    kill -KILL -- "-$pgid" 2>/dev/null
  fi
  check "SIG$sig: the app ends" "EXIT="
  stty_kept "SIG$sig while probing"
done
report app_signals
