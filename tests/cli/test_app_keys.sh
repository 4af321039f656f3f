#!/usr/bin/env bash
# kvtutor --keys: the app driven by a script of keys, without a terminal,
# its screen printed after each step. A wrong answer typed from the script
# is graded and saved as in the app; a script from standard input works the
# same; an unknown key name, a bad --size and a missing script are refused
# in one line naming what is wrong, with exit 2 (1 for the file).
#   bash tests/cli/test_app_keys.sh build/kvtutor
set -u
KVTUTOR=${1:?usage: test_app_keys.sh KVTUTOR}
work=$(mktemp -d /tmp/kvt_app_keys.XXXXXX)
trap 'rm -rf "$work"' EXIT
export LANG=C.UTF-8 LC_ALL=C.UTF-8 HOME="$work/home" XDG_DATA_HOME="$work/data"
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok: $1"; }
bad() { failed=$((failed + 1)); echo "FAIL: $1"; }
# after LINE: the screen printed after the script's line LINE
after() { sed -n "/^── line $1: /,/^── /p" "$work/out" | sed '1d;/^── /d'; }

cat > "$work/keys" <<'KEYS'
# open the first exercise of the lesson and answer it wrongly
e
28 KiB<Enter>
<Esc>
q
q
KEYS
"$KVTUTOR" --db "$work/p.db" open kv-cache --keys "$work/keys" > "$work/out" 2> "$work/err"
rc=$?
[ "$rc" = 0 ] && ok "a script runs to its end: exit 0" || bad "a script runs to its end: exit $rc: $(cat "$work/err")"
grep -q '^── start$' "$work/out" && ok "the first screen is printed before any key" || bad "no start screen"
after 2 | grep -qF "How many bytes of KV cache does one token take" &&
  ok "line 2 (e) shows the first exercise" || bad "line 2 (e) shows the first exercise"
# 01-kv-cache.lua per-token: 2 × 28 × 4 × 128 × 2 B = 57,344 B; 28 KiB is
# 28,672 B, half of it
after 3 | grep -qF "Expected: 57,344 B, within 1% (±573 B)" &&
  ok "line 3 grades the typed answer" || bad "line 3 grades the typed answer: $(after 3 | head -12)"
after 3 | grep -qF "2 × 28 layers × 4 KV heads × 128 dims × 2 B (BF16) = 57,344 B" &&
  ok "the exercise's own worked line is on the screen" || bad "the exercise's own worked line"
after 5 | grep -qF "Course map" && ok "q leaves the lesson for the course map" || bad "q leaves the lesson for the map"
grep -q '^── the app quit$' "$work/out" && ok "q on the map quits the app, and it says so" || bad "no quit line"
[ "$(wc -l < "$work/out")" -le $((24 * 6 + 7)) ] && ok "each screen is 24 rows at most" || bad "screens longer than 24 rows"
# the answer is saved as in the app
"$KVTUTOR" --db "$work/p.db" stats > "$work/stats" 2>&1
grep -qE "answers +1, 0% right" "$work/stats" && ok "the scripted answer is saved" || bad "the scripted answer is saved: $(cat "$work/stats")"

# from standard input, at another size
printf 'e\n' | "$KVTUTOR" --db "$work/p2.db" open kv-cache --keys - --size 100x30 > "$work/out" 2> "$work/err"
rc=$?
if [ "$rc" = 0 ] && after 1 | grep -qF "How many bytes of KV cache" && [ "$(after 1 | wc -l)" -le 30 ]; then
  ok "a script from standard input, 100x30"
else
  bad "a script from standard input, 100x30: exit $rc, $(cat "$work/err")"
fi

# refusals: one line naming the fault
printf 'e\n<Enterr>\n' > "$work/bad"
"$KVTUTOR" --db "$work/p3.db" --keys "$work/bad" > "$work/out" 2> "$work/err"
rc=$?
if [ "$rc" = 2 ] && [ "$(wc -l < "$work/err")" = 1 ] && grep -qF ":2: unknown key <Enterr> (write <lt> for a '<')" "$work/err"; then
  ok "an unknown key name is refused, with its line"
else
  bad "an unknown key name: exit $rc, $(cat "$work/err")"
fi
"$KVTUTOR" --db "$work/p3.db" --keys "$work/keys" --size 80by24 > /dev/null 2> "$work/err"
rc=$?
[ "$rc" = 2 ] && grep -qF -- "--size 80by24: write COLSxLINES" "$work/err" &&
  ok "a bad --size is refused" || bad "a bad --size: exit $rc, $(cat "$work/err")"
"$KVTUTOR" --db "$work/p3.db" --size 80x24 > /dev/null 2> "$work/err"
rc=$?
[ "$rc" = 2 ] && grep -qF -- "--size is for --keys" "$work/err" &&
  ok "--size without --keys is refused" || bad "--size without --keys: exit $rc, $(cat "$work/err")"
"$KVTUTOR" --db "$work/p3.db" --keys "$work/no-such-file" > /dev/null 2> "$work/err"
rc=$?
[ "$rc" = 1 ] && grep -qF "no-such-file: cannot read it" "$work/err" &&
  ok "a missing script is named" || bad "a missing script: exit $rc, $(cat "$work/err")"

echo "app_keys: $passed passed, $failed failed"
[ "$failed" = 0 ]
