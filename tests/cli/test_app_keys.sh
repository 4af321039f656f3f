#!/usr/bin/env bash
# kvtutor --keys: the app driven by a script of keys, without a terminal,
# its screen printed after each step. A wrong answer typed from the script
# is graded and saved as in the app; a script from standard input works the
# same; an unknown key name, a bad --size and a missing script are refused
# in one line naming what is wrong, with exit 2 (1 for the file).
#   bash tests/cli/test_app_keys.sh build/kvtutor
set -u
KVTUTOR=${1:?usage: test_app_keys.sh KVTUTOR}
here=$(cd "$(dirname "$0")" && pwd)
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

# <Wait> lets a script see a probe run end: P starts it, <Wait> returns once
# it has (a 64 MiB buffer: a second or two), and the next screen shows the
# ceiling drawn from the run, which is saved as the app saves it. The same
# run then draws the ceiling for each preset in turn (m, lines 4 to 19).
{ echo '<Wait>'; echo P; echo '<Wait>'; for _ in $(seq 16); do echo m; done; } > "$work/keys"
KVTUTOR_PROBE_SIZE_MIB=64 "$KVTUTOR" --db "$work/w.db" --keys "$work/keys" > "$work/out" 2> "$work/err"
rc=$?
[ "$rc" = 0 ] && ok "<Wait> is a step a script may take: exit 0" || bad "<Wait>: exit $rc: $(cat "$work/err")"
after 1 | grep -qF "Course map" && ok "<Wait> on an idle screen goes on at once" || bad "<Wait> on the map"
after 2 | grep -qF "Measuring..." && ok "P starts the probe" || bad "P starts the probe: $(after 2)"
if after 3 | grep -qF "Your decode ceiling: Qwen/Qwen2.5-7B-Instruct"; then
  after 3 | grep -qF "Measuring..." && bad "<Wait> returned with the probe still running" ||
    ok "<Wait> returns once the run has ended, its ceiling drawn"
else
  bad "<Wait>: no ceiling on the screen after it: $(after 3)"
fi
[ "$(sqlite3 "$work/w.db" "SELECT outcome FROM probe_run")" = ok ] &&
  ok "the waited-for run is saved" || bad "the waited-for run is not saved as ok"

# The ceiling for each preset in turn (m), on the measured run: a model that
# cannot fit (Qwen3-235B-A22B, 470 GB of weights) says so before its batch-1
# figure, which is then what it would read given the room; a long model id
# puts the sequence length on a line of its own rather than cutting it.
big=""
long=""
for n in $(seq 4 19); do
  s=$(after "$n")
  if [ -z "$big" ] && grep -qF "Your decode ceiling: Qwen/Qwen3-235B-A22B" <<< "$s"; then big=$n; fi
  if [ -z "$long" ] && grep -qF "Your decode ceiling: meta-llama/Llama-3.1-8B-Instruct" <<< "$s"; then long=$n; fi
done
if [ -n "$big" ]; then
  s=$(after "$big")
  fit=$(grep -n "do not fit in" <<< "$s" | cut -d: -f1)
  given=$(grep -n "batch 1, given the room" <<< "$s" | cut -d: -f1)
  if [ -n "$fit" ] && [ -n "$given" ] && [ "$fit" -lt "$given" ] &&
    ! grep -qE "^ +batch 1 +[0-9]" <<< "$s"; then
    ok "a model that cannot fit says so, its batch-1 figure given the room"
  else
    bad "the 235B ceiling: $s"
  fi
else
  bad "m never reached Qwen3-235B-A22B"
fi
if [ -n "$long" ] && after "$long" | grep -qE "^ +sequences of 8,192 tokens$"; then
  ok "a long model id leaves the sequence length whole, on its own line"
else
  bad "the Llama ceiling's heading: $(after "${long:-4}" | grep -A1 "decode ceiling")"
fi

# C-n skips an exercise, recording nothing; practice then resumes at the
# first one never answered (per-sequence-8k, after per-token's answer)
cat > "$work/keys" <<'KEYS'
e
57344 B<Enter>
n
<C-n>
<Esc>
e
KEYS
"$KVTUTOR" --db "$work/skip.db" open kv-cache --keys "$work/keys" > "$work/out" 2> "$work/err"
after 4 | grep -qF 'skipped exercise 2 of 12: left unanswered' && after 4 | grep -qF "exercise 3 of 12" &&
  ok "C-n skips to the next exercise and says so" || bad "C-n skips: $(after 4 | tail -4)"
"$KVTUTOR" --db "$work/skip.db" stats > "$work/stats" 2>&1
grep -qE "answers +1," "$work/stats" && ok "a skipped exercise records nothing" || bad "after a skip: $(cat "$work/stats")"
after 6 | grep -qF "exercise 2 of 12" && after 6 | grep -qF "How much KV cache does one 8,192-token" &&
  after 6 | grep -qF "resumed at the first one you have not answered: 1 before it has your answer" &&
  ok "practice resumes at the first exercise never answered" || bad "resume: $(after 6 | head -4; after 6 | tail -3)"

# C-n over a typed answer asks first, as Esc does: the answer stays
cat > "$work/keys" <<'KEYS'
e
57344<C-n>
 B<Enter>
KEYS
"$KVTUTOR" --db "$work/skip2.db" open kv-cache --keys "$work/keys" > "$work/out" 2> "$work/err"
after 2 | grep -qF "your answer is not submitted: Enter submits it, C-n again skips" &&
  after 2 | grep -qF "exercise 1 of 12" && after 3 | grep -qF "Right." &&
  ok "C-n over a typed answer asks first and keeps it" || bad "C-n over an answer: $(after 2 | tail -3)"

# search finds a follow-up's question and an exercise's prompt, shows the
# words where they stand, and Enter opens the lesson there: the reader at
# the follow-up (lesson 1's 0.99 question, its third follow-up), practice
# at the exercise ("whole 8,192-token Qwen2.5-7B sequences" is only in
# kv-cache's fourth prompt, concurrency-24gb)
cat > "$work/keys" <<'KEYS'
/0.99<Enter>
<Enter>
<Esc>
<Esc>
/whole 8,192-token Qwen2.5-7B<Enter>
<Enter>
KEYS
"$KVTUTOR" --db "$work/search.db" --keys "$work/keys" > "$work/out" 2> "$work/err"
after 1 | grep -qF 'in follow-up 3: Why is setting gpu_memory_utilization to 0.99 risky?' &&
  ok "a search shows where a follow-up holds the words" || bad "search 0.99: $(after 1 | tail -4)"
# the page that holds it (the reader stops at the lesson's last page), not the top
after 2 | grep -qF "3. Why is setting gpu_memory_utilization to 0.99 risky?" &&
  ! after 2 | grep -qF "Direct answer" &&
  ok "Enter opens the lesson at that follow-up" || bad "opened at the follow-up: $(after 2 | head -5)"
after 5 | grep -qF "in exercise 4: " && ok "a search finds an exercise's prompt" ||
  bad "search in a prompt: $(after 5 | tail -4)"
after 6 | grep -qF "practice · exercise 4 of 12" && after 6 | grep -qF "whole 8,192-token Qwen2.5-7B sequences" &&
  ok "Enter opens practice at that exercise" || bad "opened at the exercise: $(after 6 | head -5)"

# Tab completes a path in the playground's config.json prompt, as a shell
# does: several files to their common beginning, named; then one, whole
cat > "$work/keys" <<'KEYS'
=
o
tests/fixtures/configs/nemo<Tab>
3<Tab>
<Home>
KEYS
(cd "$here/../.." && "$KVTUTOR" --db "$work/tab.db" --keys "$work/keys") > "$work/out" 2> "$work/err"
after 3 | grep -qF "config.json path:  tests/fixtures/configs/nemotron-" &&
  after 3 | grep -qF "3 matches: nemotron-3-nano-30b-a3b.config.json" &&
  ok "Tab completes a path to what the files share, and names them" || bad "Tab, several: $(after 3 | tail -5)"
after 4 | grep -qF "/configs/nemotron-3-nano-30b-a3b.config.json" &&
  ok "Tab completes a path that one file begins with" || bad "Tab, one: $(after 4 | tail -5)"
# the path (58 columns) is wider than its field at 80 columns (57): the field
# scrolls to keep the cursor and the end in sight, "<" marking the rest
after 4 | grep -qF "config.json path:  <" && ok "a line wider than its field scrolls, marked <" ||
  bad "the field does not scroll: $(after 4 | grep -F "path:")"
# Home: the cursor at the start, the path's end past the field's right edge,
# marked ">" in its last column (57 columns from column 21, counted from 0:
# column 77, 77 characters before it)
after 5 | grep -F "config.json path:  tests/fixtures/" | grep -qE '^.{77}>' &&
  ok "text past a field's right edge is marked >" ||
  bad "the field's right side: $(after 5 | grep -F "path:")"

# the playground names the calculator's own reason: Qwen2.5-7B at 65,536
# tokens (8,192 doubled three times) is past its 32,768 positions, not a
# tensor-parallel fault (TP is 1)
printf '=\nc\nc\nc\n' > "$work/keys"
"$KVTUTOR" --db "$work/calcerr.db" --keys "$work/keys" > "$work/out" 2> "$work/err"
after 4 | grep -qF "past the model's 32,768 positions" && ! after 4 | grep -qF "tensor-parallel" &&
  ok "the playground says why a setup cannot be laid out" || bad "playground refusal: $(after 4 | grep -A1 -F "laid out")"

# A timed interview's clock under a script: <Wait 30s> moves it on, the
# answer's limit runs out, and the session's time stops with its last item.
# The defaults (kvtutor config): 2:00 an answer, 15:00 in all; lesson 1's
# interview asks 7 questions, so with nothing typed each is passed at 2:00
# and the seventh at 7 x 2:00 = 14:00, inside the 15:00.
cat > "$work/keys" <<'KEYS'
i
<Wait 30s>
<Wait 95s>
<Wait 20m>
KEYS
"$KVTUTOR" --db "$work/iv.db" --keys "$work/keys" > "$work/out" 2> "$work/err"
after 1 | grep -qF "1 of 7 · The KV cache… · ⏱ answer 2:00 · all 15:00" &&
  after 2 | grep -qF "1 of 7 · The KV cache… · ⏱ answer 1:30 · all 14:30" &&
  ok "<Wait 30s> runs the interview's clocks on 30 s" || bad "<Wait 30s>: $(after 2 | head -1)"
# 30 + 95 = 125 s: the first answer's 2:00 ran out 5 s ago
after 3 | grep -qF "2 of 7 · The KV cache… · ⏱ answer 1:55 · all 12:55" &&
  after 3 | grep -qF "time's up: the question was passed with no answer" &&
  ok "at 0:00 with nothing typed the question is passed" || bad "answer time up: $(after 3 | head -1; after 3 | tail -2)"
after 4 | grep -qF "mock interview · done · ⏱ 14:00" &&
  after 4 | grep -qF "7 questions passed: time ran out with nothing typed." &&
  ok "the finished interview's clock stops at its last item (14:00)" ||
  bad "the finished interview: $(after 4 | head -6)"
for step in "<Wait 4h>" "<Wait 99999s>" "<Wait soon>"; do
  printf '%s\n' "$step" | "$KVTUTOR" --db "$work/iv.db" --keys - > "$work/out" 2> "$work/err"
  rc=$?
  [ "$rc" = 2 ] && [ "$(wc -l < "$work/err")" = 1 ] && grep -qF "<Wait" "$work/err" &&
    ok "$step is refused in one line: $(cat "$work/err")" || bad "$step: exit $rc: $(cat "$work/err")"
done

# Esc clears a search and keeps the lesson chosen from it selected: "TPOT"
# finds lessons 3 and 11 of Part 0 and lesson 4 of Part 1; Down picks the
# second found, Enter keeps the search, Esc clears it
printf '/\nTPOT\n<Down>\n<Enter>\n<Esc>\n' |
  "$KVTUTOR" --db "$work/sel.db" --keys - > "$work/out" 2> "$work/err"
picked=$(after 4 | grep -E '^  [a-z-]+ · done:' | awk '{print $1}')
[ -n "$picked" ] && after 5 | grep -qE "^  $picked · done:" &&
  ok "Esc after a search keeps the lesson picked from it ($picked)" ||
  bad "the selection after Esc: picked '$picked', then $(after 5 | grep -E '· done:')"

# the serving view says why TP 8 cannot serve Qwen2.5-7B in the model's
# figures (28 query heads, 4 KV heads; 28 / 8 is not whole), not a field name
printf '=\ns\nt\nt\nt\n' | "$KVTUTOR" --db "$work/tp.db" --keys - > "$work/out" 2> "$work/err"
after 5 | tr -s ' \n' ' ' | grep -qF "TP 8 cannot lay this model out: tensor-parallel degree must divide the query heads; it has 28 query heads and 4 KV heads" &&
  ! after 5 | grep -qF "(tp)" && ok "the serving view's TP refusal names the model's heads" ||
  bad "the serving view at TP 8: $(after 5 | grep -A2 -F cannot)"

# from standard input, at another size
printf 'e\n' | "$KVTUTOR" --db "$work/p2.db" open kv-cache --keys - --size 100x30 > "$work/out" 2> "$work/err"
rc=$?
# 30 rows and a status line wider than 80 columns: the size was taken
if [ "$rc" = 0 ] && after 1 | grep -qF "How many bytes of KV cache" && [ "$(after 1 | wc -l)" = 30 ]; then
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
# from standard input, read as it arrives: a bad line is refused where it
# arrives, by its line, and the steps before it ran
printf 'e\n\033[A\n' | "$KVTUTOR" --db "$work/p3.db" --keys - > "$work/out" 2> "$work/err"
rc=$?
if [ "$rc" = 2 ] && [ "$(wc -l < "$work/err")" = 1 ] && grep -qF -- "--keys -:2: a control, escape or bidi character" "$work/err" &&
  grep -q "^── line 1: e$" "$work/out"; then
  ok "a control character on standard input is refused at its line, after the line before it ran"
else
  bad "a control character on standard input: exit $rc, $(cat "$work/err")"
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

# hostile scripts: nothing raw reaches the terminal, nothing hangs
# a '<' that starts no name is typed as it is: "<3" and "a < b" reach the
# answer field (and, not starting with a number, are refused there)
printf 'e\n<3 and a < b\n' > "$work/lt"
"$KVTUTOR" --db "$work/p4.db" open kv-cache --keys "$work/lt" > "$work/out" 2> "$work/err"
rc=$?
[ "$rc" = 0 ] && after 2 | grep -qF "Answer: <3 and a < b" &&
  ok "a '<' that names no key is typed" || bad "a lone '<': exit $rc, $(cat "$work/err")"
# an escape sequence in a line, or as a key name: refused, nothing raw on stderr
printf 'e\n\033]0;pwned\a<Enter>\n' > "$work/esc"
"$KVTUTOR" --db "$work/p5.db" --keys "$work/esc" > "$work/out" 2> "$work/err"
rc=$?
if [ "$rc" = 2 ] && grep -qF ":2: a control, escape or bidi character" "$work/err" &&
  ! grep -q $'\033' "$work/err" "$work/out"; then
  ok "a control character in a script is refused, by line"
else
  bad "a control character in a script: exit $rc, $(cat -v "$work/err")"
fi
[ ! -e "$work/p5.db" ] && ok "a refused script makes no database" || bad "a refused script made a database"
printf 'e\n<\033]0;x\a>\n' > "$work/esc2"
"$KVTUTOR" --db "$work/p5.db" --keys "$work/esc2" > /dev/null 2> "$work/err"
rc=$?
[ "$rc" = 2 ] && ! grep -q $'\033' "$work/err" && ok "an escape inside <...> is refused, not echoed" ||
  bad "an escape inside <...>: exit $rc, $(cat -v "$work/err")"
# a NUL byte, and a script that is a folder
printf 'e\0q\n' > "$work/nul"
"$KVTUTOR" --db "$work/p5.db" --keys "$work/nul" > /dev/null 2> "$work/err"
rc=$?
[ "$rc" = 1 ] && grep -qF "holds a NUL byte" "$work/err" && ok "a NUL byte is refused" || bad "a NUL byte: exit $rc, $(cat "$work/err")"
"$KVTUTOR" --db "$work/p5.db" --keys "$work" > /dev/null 2> "$work/err"
rc=$?
[ "$rc" = 1 ] && grep -qF "cannot read it" "$work/err" && ok "a folder as the script is refused" || bad "a folder as the script: exit $rc, $(cat "$work/err")"
# CRLF line ends are read as line ends
printf 'e\r\n28 KiB<Enter>\r\n' > "$work/crlf"
"$KVTUTOR" --db "$work/p6.db" open kv-cache --keys "$work/crlf" > "$work/out" 2> "$work/err"
rc=$?
[ "$rc" = 0 ] && after 2 | grep -qF "Expected: 57,344 B" && ok "CRLF line ends" || bad "CRLF line ends: exit $rc, $(cat "$work/err")"
# one line of 600,000 multibyte characters (1.2 MB would pass the cap: 300,000
# "é", 600,000 bytes) typed in under a minute, no hang
python3 -c "import sys; sys.stdout.write('e\n' + 'é' * 300000 + '\n')" > "$work/long"
timeout 120 "$KVTUTOR" --db "$work/p7.db" open kv-cache --keys "$work/long" > "$work/out" 2> "$work/err"
rc=$?
[ "$rc" = 0 ] && ok "a line of 300,000 two-byte characters runs through" || bad "a long line: exit $rc, $(head -c 300 "$work/err")"
# --lessons names one lesson file as well as a folder: its lesson opens; a
# path that is neither is refused, naming it, before anything is made
sed 's/^  id = "kv-cache"/  id = "my-draft"/; s/^  title = "/  title = "Draft: /' \
  "$(dirname "$0")/../../lessons/part0-foundations/01-kv-cache.lua" > "$work/draft.lua"
printf '\n' > "$work/none"
"$KVTUTOR" --db "$work/p9.db" --lessons "$work/draft.lua" open my-draft --keys "$work/none" > "$work/out" 2> "$work/err"
rc=$?
[ "$rc" = 0 ] && sed -n '2p' "$work/out" | grep -qF "kvtutor · Draft: " && ok "--lessons FILE: the file's lesson opens" ||
  bad "--lessons FILE: exit $rc, $(head -3 "$work/out") $(cat "$work/err")"
"$KVTUTOR" --db "$work/p10.db" --lessons "$work/no-such-lessons" --keys "$work/none" > /dev/null 2> "$work/err"
rc=$?
[ "$rc" = 2 ] && grep -qF -- "--lessons $work/no-such-lessons: no such folder or lesson file" "$work/err" &&
  [ ! -e "$work/p10.db" ] && ok "--lessons naming nothing is refused" ||
  bad "--lessons naming nothing: exit $rc, $(cat "$work/err")"
# global flags before the app's own stay out of its value; --version still works
"$KVTUTOR" --db "$work/p8.db" --version > "$work/out" 2>&1 && grep -q "kvtutor" "$work/out" &&
  ok "--db F --version prints the version" || bad "--db F --version: $(cat "$work/out")"

echo "app_keys: $passed passed, $failed failed"
[ "$failed" = 0 ]
