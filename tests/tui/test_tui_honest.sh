#!/usr/bin/env bash
# At 80x24, as a learner walks the screens: names where the screens once
# showed ids, keys that do what the status line and help say, counts that
# agree from one screen to the next, and numbers that read whole. Prints
# "N passed, N failed".
set -u
KVTUTOR=${KVTUTOR:?set KVTUTOR to the kvtutor binary}
work=$(mktemp -d /tmp/kvt_tui_honest.XXXXXX)
TUI_SIZE=80x24
# shellcheck source=tui_lib.sh
. "$(dirname "$0")/tui_lib.sh"

lessons="$(cd "$(dirname "$0")/../../lessons" && pwd)"
status_line() { screen | sed '/^$/d' | tail -1 | sed 's/^ *//; s/ *$//'; }

# --- a lesson of another module that builds on the first lesson ---
# (01-kv-cache.lua as "Beyond one GPU", module "Part 1 · Beyond", requiring kv-cache)
mkdir -p "$work/mine"
sed -e 's/^  id = "kv-cache",/  id = "beyond-kv",\n  requires = {"kv-cache"},/' \
  -e 's/^  title = "The KV cache caps concurrency",/  title = "Beyond one GPU",/' \
  -e 's/module = "part0-foundations"/module = "part1-beyond"/' \
  -e 's/module_title = "Part 0 · Foundations"/module_title = "Part 1 · Beyond"/' \
  -e 's/concept = "kv-cache"/concept = "beyond"/' \
  -e 's/concept_title = "The KV cache budget"/concept_title = "Scaling out"/' \
  "$lessons/part0-foundations/01-kv-cache.lua" > "$work/mine/beyond.lua"

start_shell
run_app --lessons "$work/mine"
check "the course map is shown" "Course map"
tm send-keys -t app G
check "the other module's lesson is listed" "1  Beyond one GPU"
# another module's lesson by that module's short title and its number there
check "a prerequisite in another module is named by its module and number" "after Part 0: 1 "
if screen | grep -F "Beyond one GPU" | grep -qF "kv-cache"; then
  bad "no lesson id on the row"
else
  ok "no lesson id on the row"
fi
check "and in whole at the foot" "Take first: The KV cache caps concurrency"
tm send-keys -t app Enter
check "the lesson names it too" "Builds on: The KV cache caps concurrency"
tm send-keys -t app q
wait_for "Course map" >/dev/null
tm send-keys -t app g

# --- f skips from an exercise to the follow-ups; on a follow-up it is not offered ---
# (01-kv-cache.lua: 12 exercises, 5 follow-ups)
tm send-keys -t app e
check "e starts the exercises" "practice · exercise 1 of 12"
tm send-keys -t app "56 KiB" Enter
check "an exercise is graded" "Right."
# (a worked line wider than the screen keeps "= 56 KiB" together when it
# wraps: test_ui_screens, in-process)
if status_line | grep -qF "f follow-ups"; then ok "f is offered on a graded exercise"; else bad "f is offered on a graded exercise: \"$(status_line)\""; fi
tm send-keys -t app f
check "f goes to the first follow-up" "practice · follow-up 1 of 6"
tm send-keys -t app "Quantize the weights with AWQ and store the KV cache in fp8" Enter
check "the follow-up is graded" "Rating:"
if status_line | grep -qF "f follow-ups"; then bad "no f on a graded follow-up: \"$(status_line)\""; else ok "no f on a graded follow-up"; fi
tm send-keys -t app f
keys_handled "Rating:"
if screen | grep -qF "follow-up 1 of 6" && screen | grep -qF "Rating:"; then
  ok "f on a graded follow-up does not go on as Enter does"
else
  bad "f on a graded follow-up does not go on as Enter does"
fi

# --- a misconception in words is a mistake made, kept and named ---
# (01-kv-cache.lua, follow-up 2: "shrinks the cache" said of PagedAttention;
# its correction "PagedAttention changes where the cache lives, not its size: ...")
tm send-keys -t app Enter
check "Enter goes on to the next follow-up" "practice · follow-up 2 of 6"
tm send-keys -t app "PagedAttention shrinks the cache" Enter
check "the misconception is shown" "✗ \"PagedAttention shrinks the cache\""
tm send-keys -t app q
wait_for "Course map" >/dev/null
tm send-keys -t app p
check "progress lists it among the mistakes, by name" "1× misconception about PagedAttention: PagedAttention changes where"
if screen | grep -qF "misconception-"; then bad "no misconception id on the progress screen"; else ok "no misconception id on the progress screen"; fi
tm send-keys -t app q
wait_for "Course map" >/dev/null

# --- what was read, in the unit typed: never "0 GiB" for 2 KiB ---
# (01-kv-cache.lua's second exercise asks for GiB; 2 KiB = 2,048 / 2^30 GiB
# = 0.0000019 GiB). Practice resumes there: the first exercise has an answer.
tm send-keys -t app g e
check "practice resumes at the first exercise not answered" "exercise 2 of 12"
check "the second exercise asks in GiB" "in GiB?"
tm send-keys -t app "2 KiB" Enter
check "2 KiB reads as 2 KiB, then in GiB with its digits" "Read as: 2 KiB = 0.00000191 GiB"
if screen | grep -qF "Read as: 0 GiB"; then bad "never \"Read as: 0 GiB\""; else ok "never \"Read as: 0 GiB\""; fi
tm send-keys -t app q
wait_for "Course map" >/dev/null

# --- a search: Down and Up move through the lessons found, as listed ---
tm send-keys -t app / k v
check "a search narrows the map" "matching kv"
if status_line | grep -qF "Down/Up move"; then ok "the search lists Down/Up"; else bad "the search lists Down/Up: \"$(status_line)\""; fi
if status_line | grep -qF "Enter done  Esc clear"; then
  ok "the search says what Enter and Esc do there"
else
  bad "the search says what Enter and Esc do there: \"$(status_line)\""
fi
tm send-keys -t app F1
check "help while searching says what Down/Up do" "move through the lessons found"
check "help while searching: Esc clears it" "clear: drop the search, every lesson again"
if [ "$(screen | grep -c '^  Esc ')" = 1 ] && ! screen | grep -qF "stop typing"; then
  ok "help lists Esc once, for what it does in a search"
else
  bad "help lists Esc once, for what it does in a search"
fi
if screen | grep -qF "earlier answers typed"; then
  bad "help lists no answer history in a search (there is none)"
else
  ok "help lists no answer history in a search (there is none)"
fi
tm send-keys -t app q
wait_for "/ kv" >/dev/null
# the lessons that mention "kv" begin 1, 2, 3: two down is lesson 3
tm send-keys -t app Down Down Enter
sleep 0.3
tm send-keys -t app Enter
check "Down twice, then Enter twice, opens the third lesson found" "kvtutor · Prefill and decode on the roofline"
tm send-keys -t app q
wait_for "Course map" >/dev/null
tm send-keys -t app Escape
wait_for "0 due today" >/dev/null
# while an answer is typed, Up and Down recall earlier ones, and help says so
tm send-keys -t app g e
wait_for "Answer:" >/dev/null
tm send-keys -t app F1
check "help while answering lists the answer history" "earlier answers typed in this session"
# Esc in an answer leaves the exercises (not only the typing): said so
check "help while answering: Esc leaves" "leave: back one screen (with an answer typed, Esc twice)"
if [ "$(screen | grep -c '^  Esc ')" = 1 ] && ! screen | grep -qF "stop typing"; then
  ok "help lists Esc once, for what it does in an answer"
else
  bad "help lists Esc once, for what it does in an answer"
fi
tm send-keys -t app q
wait_for "Answer:" >/dev/null
if status_line | grep -qF "Esc leave"; then ok "the status line says Esc leaves"; else bad "the status line says Esc leaves: \"$(status_line)\""; fi
tm send-keys -t app Escape
check "and Esc does leave" "Course map"

quit_from_map "names"

# --- what the map says is due is what review asks ---
# per-token made due (as if reviewed yesterday), and a schedule for an
# exercise the lesson no longer has ("gone"): the store holds 2 due, review
# can ask 1, then new exercises up to new_per_day (20) a day: less the one
# first answered today (the second exercise, "2 KiB" above; per-token's
# first answer was moved to yesterday), 19
today=$(( $(date +%s) / 86400 ))
sqlite3 "$db" "UPDATE review_state SET due_day = $((today - 1)), last_review = last_review - 86400
  WHERE exercise_id = 'per-token';
  INSERT INTO review_state SELECT learner_id, lesson_id, 'gone', stability, difficulty, reps,
  lapses, last_review, due_day, content_hash, answer_hash FROM review_state
  WHERE exercise_id = 'per-token'"
run_app --lessons "$work/mine"
check "the map's title: the due one and the new ones review brings" "1 due today · 19 new"
if screen | grep -F " 1  The KV cache caps concurrency" | grep -qE " 1 due *$"; then
  ok "the lesson's row: 1 due"
else
  bad "the lesson's row: 1 due"
fi
tm send-keys -t app p
check "progress says the same: 1 due now" "Due now: 1 ·"
check "and the same new ones as the map's title" "new today: 19 ·"
check "progress's lesson line too" "The KV cache caps concurrency:"
if screen | grep -F "The KV cache caps concurrency:" | grep -qF ", 1 due"; then
  ok "progress's lesson line: 1 due"
else
  bad "progress's lesson line: 1 due"
fi
tm send-keys -t app q
wait_for "Course map" >/dev/null
tm send-keys -t app r
# 1 due + 19 new = 20
check "review asks the 1 due, then the 19 new" "review · 1 of 20"
check "the due one first" "How many bytes of KV cache does one token take"
tm send-keys -t app Escape
quit_from_map "counts"
report tui_honest
