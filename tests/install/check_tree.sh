#!/usr/bin/env bash
# Runs kvtutor from an installed tree, as a user would after `cmake --install`
# or unpacking the .deb: the program must find its lessons, its Lua and its
# probe helper relative to itself, wherever the tree lies.
#
#   check_tree.sh ROOT     ROOT holds bin/kvtutor, share/kvtutor, libexec/kvtutor
#
# Prints one line a check and "N passed, N failed"; exit 1 when any failed.
set -u
root=${1:?usage: check_tree.sh ROOT}
kvt="$root/bin/kvtutor"
work=$(mktemp -d /tmp/kvt_tree.XXXXXX)
trap 'rm -rf "$work"' EXIT
# no progress database of the person running the tests is touched
export XDG_DATA_HOME="$work/data" HOME="$work/home"
mkdir -p "$HOME"
pass=0 fail=0
ok() { echo "ok: $1"; pass=$((pass + 1)); }
bad() { echo "FAIL: $1"; fail=$((fail + 1)); }
# expect NAME RC PATTERN CMD...: exit status RC and PATTERN (grep -E) in stdout+stderr
expect() {
  local name=$1 want=$2 pat=$3 rc=0
  shift 3
  "$@" >"$work/out" 2>&1 || rc=$?
  if [ "$rc" -ne "$want" ]; then
    bad "$name: exit $rc, expected $want"; sed 's/^/  | /' "$work/out" | head -20
  elif ! grep -Eq -- "$pat" "$work/out"; then
    bad "$name: no /$pat/ in the output"; sed 's/^/  | /' "$work/out" | head -20
  else
    ok "$name"
  fi
}

# the helpers stay out of PATH: bin/ holds kvtutor alone
extra=$(find "$root/bin" -mindepth 1 ! -name kvtutor | head -5)
if [ -z "$extra" ]; then ok "bin/ holds kvtutor alone"; else bad "bin/ also holds: $extra"; fi
if [ -x "$root/libexec/kvtutor/kvtutor-probe-cpu" ]; then
  ok "the CPU probe is in libexec/kvtutor"
else
  bad "no libexec/kvtutor/kvtutor-probe-cpu"
fi

if [ -f "$root/share/man/man1/kvtutor.1" ]; then
  ok "the man page is in share/man/man1"
else
  bad "no share/man/man1/kvtutor.1"
fi

for f in share/bash-completion/completions/kvtutor share/zsh/site-functions/_kvtutor \
  share/fish/vendor_completions.d/kvtutor.fish; do
  if [ -f "$root/$f" ]; then ok "$f installed"; else bad "no $f"; fi
done

# run from another folder, so nothing is found relative to the current one
cd "$work" || exit 1
expect "--version names the tree's data and probe" 0 \
  "data: $root/(bin/\.\./)?share/kvtutor\$" "$kvt" --version
expect "--version finds the tree's CPU probe" 0 \
  "CPU probe: $root/(bin/\.\./)?libexec/kvtutor/kvtutor-probe-cpu\$" "$kvt" --version
expect "lint passes the bundled lessons" 0 "" "$kvt" lint "$root/share/kvtutor/lessons"
n=$(find "$root/share/kvtutor/lessons" -name '*.lua' | wc -l)
if [ "$n" -ge 10 ]; then ok "$n bundled lessons"; else bad "only $n bundled lessons"; fi
# Qwen2.5-7B on an RTX 4090: 28 layers x 4 KV heads x 128 dims x 2 (K and V)
# x 2 bytes (bf16) = 57,344 bytes = 56 KiB a token
expect "calc runs from the tree" 0 "56 KiB" \
  "$kvt" calc --model qwen2.5-7b --gpu rtx4090
expect "probe --help" 0 "usage: kvtutor probe" "$kvt" probe --help
# the helper really runs: a small host-memory measurement, nothing recorded
expect "probe --cpu runs the installed helper" 0 "libexec/kvtutor/kvtutor-probe-cpu" \
  "$kvt" probe --cpu --no-record -- --size-mib 32 --threads 1

# A first start runs none of the bundled lessons: the build's briefs
# (share/kvtutor/briefs.json, one entry a lesson file) open them. The app
# says how many files it ran in its first-draw report, which needs a
# terminal: tmux gives it one.
briefs="$root/share/kvtutor/briefs.json"
nb=$(grep -c '"content_hash"' "$briefs" 2>/dev/null)
if [ "${nb:-0}" -eq "$n" ]; then ok "briefs.json holds the $n bundled lessons"; else bad "briefs.json holds ${nb:-no} briefs for $n lessons"; fi
# first_start DB NAME [ARGS...]: the app's first-draw line, into $work/NAME.txt
first_start() {
  local db=$1 name=$2
  shift 2
  rm -f "$work/$name.txt"
  tmux -S "$work/tmux" -f /dev/null new-session -d -x 100 -y 30 \
    "env LANG=C.UTF-8 KVTUTOR_EXIT_AFTER_FIRST_DRAW=1 $kvt --db $db $* 2> $work/$name.txt"
  for _ in $(seq 300); do
    grep -q 'first draw' "$work/$name.txt" 2>/dev/null && break
    sleep 0.1
  done
}
if command -v tmux >/dev/null; then
  first_start "$work/p1.db" first
  if grep -q "; 0 of $n lesson files run" "$work/first.txt"; then
    ok "a first start runs none of the $n bundled lessons"
  else
    bad "a first start ran bundled lessons: $(cat "$work/first.txt")"
  fi
  # a changed file is run, even one that is a bundled lesson with one byte more
  mkdir -p "$work/mine"
  f=$(find "$root/share/kvtutor/lessons" -name '*.lua' | sort | head -1)
  { cat "$f"; echo "-- a learner's copy"; } > "$work/mine/$(basename "$f")"
  first_start "$work/p2.db" changed --lessons "$work/mine"
  if grep -q "; 1 of $((n + 1)) lesson files run" "$work/changed.txt"; then
    ok "a changed copy of a bundled lesson is run"
  else
    bad "a changed copy: $(cat "$work/changed.txt")"
  fi
  # damaged briefs cost the time of running the lessons, nothing more
  if [ -w "$briefs" ]; then
    cp "$briefs" "$work/briefs.kept"
    head -c 300 "$work/briefs.kept" > "$briefs"
    first_start "$work/p3.db" damaged
    cp "$work/briefs.kept" "$briefs"
    if grep -q "; $n of $n lesson files run" "$work/damaged.txt"; then
      ok "damaged briefs: every lesson is run"
    else
      bad "damaged briefs: $(cat "$work/damaged.txt")"
    fi
  fi
  tmux -S "$work/tmux" kill-server 2>/dev/null
else
  echo "note: tmux is not installed; the first-start checks skipped"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
