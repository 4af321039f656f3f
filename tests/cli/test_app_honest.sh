#!/usr/bin/env bash
# At 80x24, as a learner walks the screens, in-process (kvtutor --keys):
# names where the screens once showed ids, keys that do what the status line
# and help say, counts that agree from one screen to the next, and numbers
# that read whole. Prints "N passed, N failed".
#   KVTUTOR=build/kvtutor bash tests/cli/test_app_honest.sh
set -u
KVTUTOR=${KVTUTOR:?set KVTUTOR to the kvtutor binary}
here_dir=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/kvt_app_honest.XXXXXX)
# shellcheck source=keys_lib.sh
. "$here_dir/keys_lib.sh"
SIZE=80x24
lessons="$here_dir/../../lessons"
# status_at N: the status line (the screen's last line with text) after line N
status_at() { at "$1" | sed '/^$/d' | tail -1 | sed 's/^ *//; s/ *$//'; }

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

step G
last_at=$(here)
step '<Enter>'
opened_at=$(here)
step q g
# --- f skips from an exercise to the follow-ups; on a follow-up it is not offered ---
# (01-kv-cache.lua: 12 exercises, 6 follow-ups)
step e
e_at=$(here)
step '56 KiB<Enter>'
graded_at=$(here)
step f
f_at=$(here)
step 'Quantize the weights with AWQ and store the KV cache in fp8<Enter>'
fgraded_at=$(here)
step f
fagain_at=$(here)
# --- a misconception in words is a mistake made, kept and named ---
# (01-kv-cache.lua, follow-up 2: "shrinks the cache" said of PagedAttention;
# its correction "PagedAttention changes where the cache lives, not its size: ...")
step '<Enter>'
next_at=$(here)
step 'PagedAttention shrinks the cache<Enter>'
mis_at=$(here)
step q p
progress_at=$(here)
step q
# --- what was read, in the unit typed: never "0 GiB" for 2 KiB ---
# (01-kv-cache.lua's second exercise asks for GiB; 2 KiB = 2,048 / 2^30 GiB
# = 0.0000019 GiB). Practice resumes there: the first exercise has an answer.
step g e
resumed_at=$(here)
step '2 KiB<Enter>'
read_at=$(here)
step q
# --- a search: Down and Up move through the lessons found, as listed ---
step / kv
search_at=$(here)
step '<F1>'
search_help_at=$(here)
step q
# the lessons that mention "kv" begin 1, 2, 3: two down is lesson 3
step '<Down>' '<Down>' '<Enter>' '<Enter>'
third_at=$(here)
step q '<Esc>'
# while an answer is typed, Up and Down recall earlier ones, and help says so
step g e '<F1>'
answer_help_at=$(here)
step q
answer_at=$(here)
step '<Esc>'
left_at=$(here)
step Q
play --lessons "$work/mine"

check_at 0 "the course map is shown" "Course map"
check_at "$last_at" "the other module's lesson is listed" "1  Beyond one GPU"
# another module's lesson by that module's short title and its number there
check_at "$last_at" "a prerequisite in another module is named by its module and number" "after Part 0: 1 "
if at "$last_at" | grep -F "Beyond one GPU" | grep -qF "kv-cache"; then bad "no lesson id on the row"; else ok "no lesson id on the row"; fi
check_at "$last_at" "and in whole at the foot" "Take first: The KV cache caps concurrency"
check_at "$opened_at" "the lesson names it too" "Builds on: The KV cache caps concurrency"
check_at "$e_at" "e starts the exercises" "practice · exercise 1 of 12"
check_at "$graded_at" "an exercise is graded" "Right."
if status_at "$graded_at" | grep -qF "f follow-ups"; then ok "f is offered on a graded exercise"; else bad "f is offered on a graded exercise: \"$(status_at "$graded_at")\""; fi
check_at "$f_at" "f goes to the first follow-up" "practice · follow-up 1 of 6"
check_at "$fgraded_at" "the follow-up is graded" "Rating:"
if status_at "$fgraded_at" | grep -qF "f follow-ups"; then bad "no f on a graded follow-up: \"$(status_at "$fgraded_at")\""; else ok "no f on a graded follow-up"; fi
if at "$fagain_at" | grep -qF "follow-up 1 of 6" && at "$fagain_at" | grep -qF "Rating:"; then
  ok "f on a graded follow-up does not go on as Enter does"
else
  bad "f on a graded follow-up does not go on as Enter does"
fi
check_at "$next_at" "Enter goes on to the next follow-up" "practice · follow-up 2 of 6"
check_at "$mis_at" "the misconception is shown" "✗ \"PagedAttention shrinks the cache\""
check_at "$progress_at" "progress lists it among the mistakes, by name" "1× misconception about PagedAttention: PagedAttention changes where"
if at "$progress_at" | grep -qF "misconception-"; then bad "no misconception id on the progress screen"; else ok "no misconception id on the progress screen"; fi
check_at "$resumed_at" "practice resumes at the first exercise not answered" "exercise 2 of 12"
check_at "$resumed_at" "the second exercise asks in GiB" "in GiB?"
check_at "$read_at" "2 KiB reads as 2 KiB, then in GiB with its digits" "Read as: 2 KiB = 0.00000191 GiB"
if at "$read_at" | grep -qF "Read as: 0 GiB"; then bad "never \"Read as: 0 GiB\""; else ok "never \"Read as: 0 GiB\""; fi
check_at "$search_at" "a search narrows the map" "matching kv"
if status_at "$search_at" | grep -qF "Down/Up move"; then ok "the search lists Down/Up"; else bad "the search lists Down/Up: \"$(status_at "$search_at")\""; fi
if status_at "$search_at" | grep -qF "Enter done  Esc clear"; then
  ok "the search says what Enter and Esc do there"
else
  bad "the search says what Enter and Esc do there: \"$(status_at "$search_at")\""
fi
check_at "$search_help_at" "help while searching says what Down/Up do" "move through the lessons found"
check_at "$search_help_at" "help while searching: Esc clears it" "clear: drop the search, every lesson again"
if [ "$(at "$search_help_at" | grep -c '^  Esc ')" = 1 ] && ! at "$search_help_at" | grep -qF "stop typing"; then
  ok "help lists Esc once, for what it does in a search"
else
  bad "help lists Esc once, for what it does in a search"
fi
if at "$search_help_at" | grep -qF "earlier answers typed"; then
  bad "help lists no answer history in a search (there is none)"
else
  ok "help lists no answer history in a search (there is none)"
fi
check_at "$third_at" "Down twice, then Enter twice, opens the third lesson found" "kvtutor · Prefill and decode on the roofline"
check_at "$answer_help_at" "help while answering lists the answer history" "earlier answers typed in this session"
# Esc in an answer leaves the exercises (not only the typing): said so
check_at "$answer_help_at" "help while answering: Esc leaves" "leave: back one screen (with an answer typed, Esc twice)"
if [ "$(at "$answer_help_at" | grep -c '^  Esc ')" = 1 ] && ! at "$answer_help_at" | grep -qF "stop typing"; then
  ok "help lists Esc once, for what it does in an answer"
else
  bad "help lists Esc once, for what it does in an answer"
fi
if status_at "$answer_at" | grep -qF "Esc leave"; then ok "the status line says Esc leaves"; else bad "the status line says Esc leaves: \"$(status_at "$answer_at")\""; fi
check_at "$left_at" "and Esc does leave" "Course map"
quit_ok "names"

# --- what the map says is due is what review asks ---
# per-token made due (as if reviewed yesterday), and a schedule for an
# exercise the lesson no longer has ("gone"): the store holds 2 due, review
# can ask 1, then new exercises up to new_per_day (20) a day: less the one
# first answered today (the second exercise, "2 KiB" above; per-token's
# first answer was moved to yesterday), 19
today=$(($(date +%s) / 86400))
sqlite3 "$db" "UPDATE review_state SET due_day = $((today - 1)), last_review = last_review - 86400
  WHERE exercise_id = 'per-token';
  INSERT INTO review_state SELECT learner_id, lesson_id, 'gone', stability, difficulty, reps,
  lapses, last_review, due_day, content_hash, answer_hash FROM review_state
  WHERE exercise_id = 'per-token'"
step p
p_at=$(here)
step q r
review_at=$(here)
step '<Esc>' Q
play --lessons "$work/mine"
check_at 0 "the map's title: the due one and the new ones review brings" "1 due today · 19 new"
if at 0 | grep -F " 1  The KV cache caps concurrency" | grep -qE " 1 due *$"; then
  ok "the lesson's row: 1 due"
else
  bad "the lesson's row: 1 due"
fi
check_at "$p_at" "progress says the same: 1 due now" "Due now: 1 ·"
check_at "$p_at" "and the same new ones as the map's title" "new today: 19 ·"
check_at "$p_at" "progress's lesson line too" "The KV cache caps concurrency:"
if at "$p_at" | grep -F "The KV cache caps concurrency:" | grep -qF ", 1 due"; then
  ok "progress's lesson line: 1 due"
else
  bad "progress's lesson line: 1 due"
fi
# 1 due + 19 new = 20
check_at "$review_at" "review asks the 1 due, then the 19 new" "review · 1 of 20"
check_at "$review_at" "the due one first" "How many bytes of KV cache does one token take"
quit_ok "counts"
report "app_honest"
