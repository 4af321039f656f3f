#!/usr/bin/env bash
# Every TERM a learner may have, under three locales, through a real
# terminal (tmux): the full app or one clear line, never ncurses' own abort,
# and the terminal settings as they were afterwards. Prints "N passed, N failed".
set -u
KVTUTOR=${KVTUTOR:?set KVTUTOR to the kvtutor binary}
work=$(mktemp -d /tmp/kvt_terms.XXXXXX)
# shellcheck source=tui_lib.sh
. "$(dirname "$0")/tui_lib.sh"

tm -f /dev/null new-session -d -s app -x 100 -y 30 \
  "env -i HOME=$work PATH=/usr/bin:/bin TERM=xterm-256color LANG=C.UTF-8 ${LSAN_OPTIONS:+LSAN_OPTIONS=$LSAN_OPTIONS} bash --norc --noprofile"
# the shell is up once it has written the settings the runs are checked
# against (a wait for that file, not a fixed pause)
for _ in $(seq 100); do
  tm send-keys -t app "stty -g > $work/stty.before.new && mv $work/stty.before.new $work/stty.before; PS1='$ '" Enter 2>/dev/null
  for _ in $(seq 10); do [ -s "$work/stty.before" ] && break 2; sleep 0.05; done
done
[ -s "$work/stty.before" ] || bad "the shell never started"

# Each run says EXIT<n>=status, n counting the runs: the last run's line
# may still be on screen while this one starts, and must not be taken for it.
n=0
for loc in C C.UTF-8 de_DE.UTF-8; do
  for term in xterm-256color screen-256color linux vt100 dumb unset nonsense-term; do
    if [ $term = unset ]; then setting="env -u TERM"; else setting="env TERM=$term"; fi
    rm -f "$work/stty.after"
    n=$((n + 1))
    tm send-keys -t app "clear; $setting LANG=$loc LC_ALL=$loc $KVTUTOR --db $db; echo EXIT$n=\$?; stty -g > $work/stty.after" Enter
    case $term in
      dumb | unset | nonsense-term)
        if wait_for "EXIT$n=2" && screen | grep -q "^kvtutor: TERM"; then
          ok "$term, $loc: one clear line, exit 2"
        else
          bad "$term, $loc: no clear refusal"
        fi ;;
      *)
        if wait_for "Course map"; then
          tm send-keys -t app Q
          if wait_for "EXIT$n=0"; then ok "$term, $loc: the app, then a clean exit"; else bad "$term, $loc: no clean exit"; fi
        else
          bad "$term, $loc: the course map did not appear"
        fi ;;
    esac
    if screen | grep -qi "error opening terminal"; then bad "$term, $loc: ncurses' own abort"; fi
    for _ in $(seq 30); do [ -s "$work/stty.after" ] && break; sleep 0.1; done
    if ! cmp -s "$work/stty.before" "$work/stty.after"; then bad "$term, $loc: stty -g changed"; fi
  done
done

report tui-terms
