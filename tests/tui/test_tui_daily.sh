#!/usr/bin/env bash
# The screens a learner comes back to every day, driven through tmux: a due
# exercise reviewed and rescheduled, a mock interview run to its summary with
# the clock on screen, the playground's numbers against kvtutor calc as keys
# change them, the progress screen after a few answers, and a setting saved.
# Prints "N passed, N failed".
set -u
KVTUTOR=${KVTUTOR:?set KVTUTOR to the kvtutor binary}
work=$(mktemp -d /tmp/kvt_daily.XXXXXX)
# shellcheck source=tui_lib.sh
. "$(dirname "$0")/tui_lib.sh"

app() { # starts the app in a fresh 100x30 terminal
  stop_server
  for _ in 1 2 3; do
    tm -f /dev/null new-session -d -s app -x 100 -y 30 \
      "env HOME=$work LANG=C.UTF-8 TERM=xterm-256color ${LSAN_OPTIONS:+LSAN_OPTIONS=$LSAN_OPTIONS} $KVTUTOR --db $db; echo EXIT=\$?; sleep 30" 2>/dev/null
    sleep 0.3
    tm has-session -t app 2>/dev/null && break
  done
  wait_for "Course map" >/dev/null
}
sql() { sqlite3 "$db" "$1"; }

# --- a few answers to have something to review ---
app
tm send-keys -t app e
wait_for "How many bytes" >/dev/null
tm send-keys -t app "28 KiB" Enter
wait_for "Not quite." >/dev/null
tm send-keys -t app Enter
tm send-keys -t app "0.4375 GiB" Enter
wait_for "Right." >/dev/null
tm send-keys -t app Enter
sleep 0.2
tm send-keys -t app Escape
wait_for "Course map" >/dev/null
tm send-keys -t app Q
wait_for "EXIT=" >/dev/null # the app has ended and closed the database

# --- reviews: make the per-token exercise due, review it, see it rescheduled ---
today=$(( $(date +%s) / 86400 ))
# (as if reviewed yesterday: an item reviewed today is only practised again today)
sql "UPDATE review_state SET due_day = $((today - 1)), last_review = last_review - 86400 WHERE exercise_id = 'per-token'"
app
check "the course map counts what is due" "1 due today"
tm send-keys -t app r
check "r reviews the due exercise first" "How many bytes of KV cache does one token take"
check "the review session says what it is" "review · 1 of"
tm send-keys -t app "56 KiB" Enter
check "the review is graded" "Right."
tm send-keys -t app 3 Enter
# the next item shows once the rating is stored
wait_for "review · 2 of" >/dev/null
due=$(sql "SELECT due_day FROM review_state WHERE exercise_id = 'per-token'")
reps=$(sql "SELECT reps FROM review_state WHERE exercise_id = 'per-token'")
if [ "$due" -gt "$today" ] && [ "$reps" = 2 ]; then
  ok "the reviewed exercise is rescheduled (due in $((due - today)) days, 2 reviews)"
else
  bad "after the review: due_day $due (today $today), reps $reps"
fi
check "new exercises follow the due ones" "review · 2 of"
tm send-keys -t app Escape
wait_for "Course map" >/dev/null

# --- cram: answers are kept, the schedule is not touched ---
before=$(sql "SELECT group_concat(due_day || ':' || reps) FROM review_state ORDER BY exercise_id")
tm send-keys -t app c
check "c crams over what was seen" "cram (schedule untouched)"
tm send-keys -t app "1 GiB" Enter
wait_for "Not quite." >/dev/null
tm send-keys -t app 1 Enter
sleep 0.2
tm send-keys -t app Escape
wait_for "Course map" >/dev/null
after=$(sql "SELECT group_concat(due_day || ':' || reps) FROM review_state ORDER BY exercise_id")
if [ "$before" = "$after" ]; then ok "cram leaves every schedule as it was"; else bad "cram changed $before to $after"; fi

# --- a mock interview, with the clock, to its summary ---
tm send-keys -t app i
check "i starts a mock interview with the lesson's question" "The interviewer asks:"
# the defaults: 2:00 an answer, 15:00 in all, counting down
check "the clocks are on screen" "⏱ answer 1:"
tm send-keys -t app "The weights are a one-time cost; the KV cache grows per sequence, and concurrency is how many fit in what is left." Enter
check "the answer is scored on key points" "Key points covered"
for _ in 1 2 3 4 5 6; do # the six follow-ups
  tm send-keys -t app Enter
  sleep 0.2
  tm send-keys -t app "decode is memory-bound; use fp8 and quantize the weights with AWQ" Enter
  sleep 0.3
done
tm send-keys -t app Enter
check "the interview ends with a summary" "Interview score"
check "the summary gives the time of each answer" "answer 1:"
# the concept to review by its name (concept_title in 01-kv-cache.lua), never its id,
# and the lesson that teaches it by its title (the map's name for it)
review=$(screen | grep -o "To review: .*" | sed 's/ *$//')
case $review in
  'To review: The KV cache budget, in the lesson "The KV cache caps concurrency"' | "To review: nothing; this concept is in hand") ok "the summary names the concept: $review" ;;
  *) bad "the summary names the concept, not its id: \"$review\"" ;;
esac
interviews=$(sql "SELECT count(*) || ':' || answered FROM interview")
if [ "$interviews" = "1:7" ]; then ok "the interview is kept in the database"; else bad "interview rows: $interviews"; fi
tm send-keys -t app q

# --- the playground against kvtutor calc ---
tm send-keys -t app =
check "= opens the calculator playground" "Calculator playground"
want=$("$KVTUTOR" calc --model qwen2.5-7b --gpu rtx4090 --seq 8192 --json | sed -n 's/.*"max_concurrency": \([0-9.]*\).*/\1/p')
want=$(printf '%.2f' "$want")
check "Qwen2.5-7B on a 24 GB GPU at 8k: the same concurrency as kvtutor calc ($want)" "Max concurrency at 8,192 tokens: $want"
tm send-keys -t app c
want=$(printf '%.2f' "$("$KVTUTOR" calc --model qwen2.5-7b --gpu rtx4090 --seq 16384 --json | sed -n 's/.*"max_concurrency": \([0-9.]*\).*/\1/p')")
check "c doubles the context: the figure follows ($want)" "Max concurrency at 16,384 tokens: $want"
tm send-keys -t app v
want=$(printf '%.2f' "$("$KVTUTOR" calc --model qwen2.5-7b --gpu rtx4090 --seq 16384 --kv-dtype fp8 --json | sed -n 's/.*"max_concurrency": \([0-9.]*\).*/\1/p')")
check "v switches the cache to fp8: the figure follows ($want)" "Max concurrency at 16,384 tokens: $want"
check "the chart of concurrency against context is drawn" "Max concurrency against context length"
tm send-keys -t app a
check "a shows the arithmetic" "budget     24 GiB"
# 24 GiB x 0.92 = 22.08 GiB; 7,615,616,512 x 2 B = 15,231,233,024 B = 14.185 GiB,
# "14.2 GiB" by size; 22.08 - 14.185 = 7.895 GiB, "7.89 GiB" as vLLM logs it
check "the budget reads by size, and as vLLM logs it" "budget     24 GiB × 0.92 − 14.2 GiB weights = 7.89 GiB"
check "the GPU's bandwidth is grouped" "GPU    RTX 4090: 24 GiB, 1,008 GB/s"
# each direction is its own action: C halves what c doubled, M undoes m
tm send-keys -t app C
want=$(printf '%.2f' "$("$KVTUTOR" calc --model qwen2.5-7b --gpu rtx4090 --seq 8192 --kv-dtype fp8 --json | sed -n 's/.*"max_concurrency": \([0-9.]*\).*/\1/p')")
check "C halves the context: the figure follows ($want)" "Max concurrency at 8,192 tokens: $want"
tm send-keys -t app m
check "m moves to the next model" "Qwen/Qwen2.5-14B-Instruct"
tm send-keys -t app M
check "M moves back to the previous one" "Qwen/Qwen2.5-7B-Instruct"
check "and its figure is back ($want)" "Max concurrency at 8,192 tokens: $want"
tm send-keys -t app q

# --- progress after those answers ---
tm send-keys -t app p
check "p shows the progress" "answers,"
check "the activity of the last two weeks is charted" "Answers a day"
check "accuracy per concept, by the concept's name" "The KV cache budget"
if screen | grep -qF "kv-cache"; then bad "no concept id on the progress screen"; else ok "no concept id on the progress screen"; fi
check "the mistakes made most, by name" "left out the x2 for K and V"
tm send-keys -t app q

# --- a setting saved ---
tm send-keys -t app S
check "S opens the settings" "Desired retention"
tm send-keys -t app Enter C-u "0.85" Enter
check "a setting is saved" "saved"
tm send-keys -t app Enter C-u "1.5" Enter
check "a bad value is refused with the rule" "0.7 to 0.97"
tm send-keys -t app Escape q Q
wait_for "EXIT=" >/dev/null # the app has ended and closed the database
if [ "$(sql "SELECT value FROM setting WHERE key = 'desired_retention'")" = 0.85 ]; then
  ok "the retention is in the database"
else
  bad "the retention was not stored"
fi

report tui-daily
