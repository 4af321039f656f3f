#!/usr/bin/env bash
# bench_tui: time from starting kvtutor to its first drawn screen, with the
# bundled lessons, and the resident memory then. Runs the app in a real
# terminal (tmux) ten times and prints each run and the median.
#   KVTUTOR=build/kvtutor bash tests/bench/bench_tui.sh
set -u
KVTUTOR=${KVTUTOR:-build/kvtutor}
work=$(mktemp -d /tmp/kvt_bench.XXXXXX)
sock="$work/s"
trap 'tmux -S "$sock" kill-server 2>/dev/null; rm -rf "$work"' EXIT
times=()
for i in $(seq 10); do
  tmux -S "$sock" -f /dev/null new-session -d -x 100 -y 30 \
    "env LANG=C.UTF-8 HOME=$work KVTUTOR_EXIT_AFTER_FIRST_DRAW=1 $KVTUTOR --db $work/p.db 2> $work/run$i.txt"
  for _ in $(seq 50); do [ -s "$work/run$i.txt" ] && break; sleep 0.1; done
  line=$(cat "$work/run$i.txt")
  echo "run $i: $line"
  times+=("$(sed -n 's/first draw after \([0-9.]*\) ms.*/\1/p' "$work/run$i.txt")")
done
printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print "median first draw: " a[int((NR+1)/2)] " ms (target: under 50 ms)"}'
sed -n 's/.*max resident \([0-9]*\) KiB.*/\1/p' "$work"/run*.txt | sort -n | tail -1 |
  awk '{print "largest resident size: " $1 " KiB (target: under 16384 KiB)"}'
