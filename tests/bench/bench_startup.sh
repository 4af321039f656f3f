#!/usr/bin/env bash
# bench_startup: the app's first draw and its resident memory then, with the
# 15 bundled lessons and with 105 (six more modules: copies of Part 0 under
# new ids, given with --lessons), each cold (a new progress database) and
# warm (the same database again). Each figure is the app's own report under
# KVTUTOR_EXIT_AFTER_FIRST_DRAW=1 ("first draw after X ms; max resident N
# KiB"), from a real terminal (tmux), RUNS times; it prints every run and
# the medians, against the goals of issue 26.
#   KVTUTOR=build/kvtutor [RUNS=7] bash tests/bench/bench_startup.sh
#   cmake --build build --target bench_startup
set -u
KVTUTOR=${KVTUTOR:-build/kvtutor}
RUNS=${RUNS:-7}
here=$(cd "$(dirname "$0")" && pwd)
bundled=${BUNDLED:-$here/../../lessons/part0-foundations}
work=$(mktemp -d /tmp/kvt_bench_startup.XXXXXX)
sock="$work/s"
trap 'tmux -S "$sock" kill-server 2>/dev/null; rm -rf "$work"' EXIT

# Six copies of Part 0: module copyN, every id (and every id a lesson names
# in requires or links) prefixed "cN-", so each copy is a module of its own
# with its prerequisites inside it.
ids=$(sed -n 's/^  id = "\([^"]*\)".*/\1/p' "$bundled"/*.lua)
for n in 1 2 3 4 5 6; do
  mkdir -p "$work/more/copy$n"
  for f in "$bundled"/*.lua; do
    script="s/^  module = \"[^\"]*\"/  module = \"copy$n\"/;"
    script+="s/^  module_title = \"[^\"]*\"/  module_title = \"Copy $n of Part 0\"/;"
    for id in $ids; do
      # the id line, and the id as a whole string in requires/links lines
      script+="s/^  id = \"$id\"/  id = \"c$n-$id\"/;"
      script+="/^  \\(requires\\|links\\) = /s/\"$id\"/\"c$n-$id\"/g;"
    done
    sed "$script" "$f" > "$work/more/copy$n/$(basename "$f")"
  done
done

# One run: prints the app's line, or "no report" when it gave none in 30 s.
run_once() { # out-file db [--lessons DIR]
  local out=$1 db=$2
  shift 2
  tmux -S "$sock" -f /dev/null new-session -d -x 100 -y 30 \
    "env LANG=C.UTF-8 HOME=$work/home KVTUTOR_EXIT_AFTER_FIRST_DRAW=1 $KVTUTOR --db $db $* 2> $out"
  for _ in $(seq 300); do
    [ -s "$out" ] && grep -q 'first draw' "$out" && break
    sleep 0.1
  done
  cat "$out" 2>/dev/null || echo "no report"
}

median() { sort -n | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]; else print "?"}'; }

declare -A ms kib
for course in 15 105; do
  extra=()
  [ "$course" = 105 ] && extra=(--lessons "$work/more")
  for i in $(seq "$RUNS"); do
    db="$work/p-$course-$i.db"
    for kind in cold warm; do
      out="$work/$course-$kind-$i.txt"
      line=$(run_once "$out" "$db" "${extra[@]}")
      echo "$course lessons, $kind, run $i: $line"
    done
  done
  for kind in cold warm; do
    ms[$course-$kind]=$(sed -n 's/first draw after \([0-9.]*\) ms.*/\1/p' "$work"/$course-$kind-*.txt | median)
    kib[$course-$kind]=$(sed -n 's/.*max resident \([0-9]*\) KiB.*/\1/p' "$work"/$course-$kind-*.txt | median)
  done
done

echo
# the app also loads the rest of the bundled course (Part 1), in both
nb=$(ls "$bundled"/../*/*.lua 2>/dev/null | wc -l)
echo "\"15 lessons\" is the bundled course, $nb lessons with Part 1; \"105\" adds 90 copies: $((nb + 90))"
printf '%-22s %14s %16s\n' "median of $RUNS runs" "first draw" "max resident"
for course in 15 105; do
  for kind in cold warm; do
    printf '%-22s %11s ms %12s KiB\n' "$course lessons, $kind" "${ms[$course-$kind]}" "${kib[$course-$kind]}"
  done
done
echo
awk -v w15="${ms[15-warm]}" -v w105="${ms[105-warm]}" -v c105="${ms[105-cold]}" \
    -v k15c="${kib[15-cold]}" -v k15w="${kib[15-warm]}" -v k105c="${kib[105-cold]}" \
    -v k105w="${kib[105-warm]}" 'BEGIN {
  ok = "met"; no = "NOT met"
  r = w105 / w15
  printf "warm 105 / warm 15 = %.2f (goal <= 1.5): %s\n", r, r <= 1.5 ? ok : no
  printf "warm 105 = %s ms (goal < 50 ms): %s\n", w105, w105 < 50 ? ok : no
  printf "cold 105 = %s ms (goal < 150 ms): %s\n", c105, c105 < 150 ? ok : no
  m = k15c; if (k15w > m) m = k15w; if (k105c > m) m = k105c; if (k105w > m) m = k105w
  printf "largest resident = %s KiB (goal < 16384 KiB): %s\n", m, m < 16384 ? ok : no
}'
