#!/usr/bin/env bash
# The screens a learner comes back to every day, in-process (kvtutor
# --keys): a due exercise reviewed and rescheduled, cram leaving schedules
# alone, a mock interview run to its summary with the clock on screen, the
# playground's numbers against kvtutor calc as keys change them, the
# progress screen after a few answers, and a setting saved. Each script is
# one sitting; the database is read between them. Prints "N passed, N failed".
#   KVTUTOR=build/kvtutor bash tests/cli/test_app_daily.sh
set -u
KVTUTOR=${KVTUTOR:?set KVTUTOR to the kvtutor binary}
here_dir=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/kvt_app_daily.XXXXXX)
# shellcheck source=keys_lib.sh
. "$here_dir/keys_lib.sh"
sql() { sqlite3 "$db" "$1"; }
# the concurrency kvtutor calc gives, to two decimals as the playground shows it
calc_conc() {
  printf '%.2f' "$("$KVTUTOR" calc --model qwen2.5-7b --gpu rtx4090 "$@" --json |
    sed -n 's/.*"max_concurrency": \([0-9.]*\).*/\1/p')"
}

# --- a few answers to have something to review ---
step e '28 KiB<Enter>'
wrong_at=$(here)
step '<Enter>' '0.4375 GiB<Enter>'
right_at=$(here)
step '<Enter>' '<Esc>' Q
play
check_at "$wrong_at" "a wrong answer is graded" "Not quite."
check_at "$right_at" "a right one too" "Right."
quit_ok "the first sitting"

# --- reviews: make the per-token exercise due, review it, see it rescheduled ---
today=$(($(date +%s) / 86400))
# (as if reviewed yesterday: an item reviewed today is only practised again today)
sql "UPDATE review_state SET due_day = $((today - 1)), last_review = last_review - 86400 WHERE exercise_id = 'per-token'"
step r
review_at=$(here)
step '56 KiB<Enter>'
graded_at=$(here)
step '3<Enter>'
next_at=$(here)
step '<Esc>' Q
play
check_at 0 "the course map counts what is due" "1 due today"
check_at "$review_at" "r reviews the due exercise first" "How many bytes of KV cache does one token take"
check_at "$review_at" "the review session says what it is" "review · 1 of"
check_at "$graded_at" "the review is graded" "Right."
check_at "$next_at" "new exercises follow the due ones" "review · 2 of"
due=$(sql "SELECT due_day FROM review_state WHERE exercise_id = 'per-token'")
reps=$(sql "SELECT reps FROM review_state WHERE exercise_id = 'per-token'")
if [ "$due" -gt "$today" ] && [ "$reps" = 2 ]; then
  ok "the reviewed exercise is rescheduled (due in $((due - today)) days, 2 reviews)"
else
  bad "after the review: due_day $due (today $today), reps $reps"
fi

# --- cram: answers are kept, the schedule is not touched ---
before=$(sql "SELECT group_concat(due_day || ':' || reps) FROM review_state ORDER BY exercise_id")
answers_before=$(sql "SELECT count(*) FROM attempt")
step c
cram_at=$(here)
step '1 GiB<Enter>'
cram_graded_at=$(here)
step '1<Enter>' '<Esc>' Q
play
check_at "$cram_at" "c crams over what was seen" "cram (schedule untouched)"
check_at "$cram_graded_at" "a cram answer is graded" "Not quite."
after=$(sql "SELECT group_concat(due_day || ':' || reps) FROM review_state ORDER BY exercise_id")
if [ "$before" = "$after" ]; then ok "cram leaves every schedule as it was"; else bad "cram changed $before to $after"; fi
if [ "$(sql "SELECT count(*) FROM attempt")" = $((answers_before + 1)) ]; then
  ok "the cram answer is kept"
else
  bad "attempts: $answers_before before cram, $(sql "SELECT count(*) FROM attempt") after"
fi

# --- a mock interview, with the clock, to its summary ---
step i
interview_at=$(here)
step "The weights are a one-time cost; the KV cache grows per sequence, and concurrency is how many fit in what is left.<Enter>"
scored_at=$(here)
for _ in 1 2 3 4 5 6; do # the six follow-ups
  step '<Enter>' "decode is memory-bound; use fp8 and quantize the weights with AWQ<Enter>"
done
step '<Enter>'
summary_at=$(here)
step q
check_conc_at=$(here)
play
check_at "$interview_at" "i starts a mock interview with the lesson's question" "The interviewer asks:"
# the defaults: 2:00 an answer, 15:00 in all, counting down
check_at "$interview_at" "the clocks are on screen" "⏱ answer 2:00 · all 15:00"
check_at "$scored_at" "the answer is scored on key points" "Key points covered"
check_at "$summary_at" "the interview ends with a summary" "Interview score"
check_at "$summary_at" "the summary gives the time of each answer" "answer 1:"
# the concept to review by its name (concept_title in 01-kv-cache.lua), never its id,
# and the lesson that teaches it by its title (the map's name for it)
review=$(at "$summary_at" | grep -o "To review: .*" | sed 's/ *$//')
case $review in
  'To review: The KV cache budget, in the lesson "The KV cache caps concurrency"' | "To review: nothing; this concept is in hand") ok "the summary names the concept: $review" ;;
  *) bad "the summary names the concept, not its id: \"$review\"" ;;
esac
check_at "$check_conc_at" "q leaves the summary for the map" "Course map"
interviews=$(sql "SELECT count(*) || ':' || answered FROM interview")
if [ "$interviews" = "1:7" ]; then ok "the interview is kept in the database"; else bad "interview rows: $interviews"; fi

# --- the playground against kvtutor calc, progress, a setting ---
step '='
calc_at=$(here)
step c
c_at=$(here)
step v
v_at=$(here)
step a
a_at=$(here)
# each direction is its own action: C halves what c doubled, M undoes m
step C
cc_at=$(here)
step m
m_at=$(here)
step M
mm_at=$(here)
step q p
progress_at=$(here)
step q S
settings_at=$(here)
step '<Enter>' '<C-u>' '0.85<Enter>'
saved_at=$(here)
step '<Enter>' '<C-u>' '1.5<Enter>'
refused_at=$(here)
step '<Esc>' q Q
play
want=$(calc_conc --seq 8192)
check_at "$calc_at" "= opens the calculator playground" "Calculator playground"
check_at "$calc_at" "Qwen2.5-7B on a 24 GB GPU at 8k: the same concurrency as kvtutor calc ($want)" "Max concurrency at 8,192 tokens: $want"
want=$(calc_conc --seq 16384)
check_at "$c_at" "c doubles the context: the figure follows ($want)" "Max concurrency at 16,384 tokens: $want"
want=$(calc_conc --seq 16384 --kv-dtype fp8)
check_at "$v_at" "v switches the cache to fp8: the figure follows ($want)" "Max concurrency at 16,384 tokens: $want"
check_at "$v_at" "the chart of concurrency against context is drawn" "Max concurrency against context length"
check_at "$a_at" "a shows the arithmetic" "budget     24 GiB"
# 24 GiB x 0.92 = 22.08 GiB; 7,615,616,512 x 2 B = 15,231,233,024 B = 14.185 GiB,
# "14.2 GiB" by size; 22.08 - 14.185 = 7.895 GiB, "7.89 GiB" as vLLM logs it
check_at "$a_at" "the budget reads by size, and as vLLM logs it" "budget     24 GiB × 0.92 − 14.2 GiB weights = 7.89 GiB"
check_at "$a_at" "the GPU's bandwidth is grouped" "GPU    RTX 4090: 24 GiB, 1,008 GB/s"
want=$(calc_conc --seq 8192 --kv-dtype fp8)
check_at "$cc_at" "C halves the context: the figure follows ($want)" "Max concurrency at 8,192 tokens: $want"
check_at "$m_at" "m moves to the next model" "Qwen/Qwen2.5-14B-Instruct"
check_at "$mm_at" "M moves back to the previous one" "Qwen/Qwen2.5-7B-Instruct"
check_at "$mm_at" "and its figure is back ($want)" "Max concurrency at 8,192 tokens: $want"
check_at "$progress_at" "p shows the progress" "answers,"
check_at "$progress_at" "the activity of the last two weeks is charted" "Answers a day"
check_at "$progress_at" "accuracy per concept, by the concept's name" "The KV cache budget"
if at "$progress_at" | grep -qF "kv-cache"; then bad "no concept id on the progress screen"; else ok "no concept id on the progress screen"; fi
check_at "$progress_at" "the mistakes made most, by name" "left out the x2 for K and V"
check_at "$settings_at" "S opens the settings" "Desired retention"
check_at "$saved_at" "a setting is saved" "saved"
check_at "$refused_at" "a bad value is refused with the rule" "0.7 to 0.97"
quit_ok "the daily screens"
if [ "$(sql "SELECT value FROM setting WHERE key = 'desired_retention'")" = 0.85 ]; then
  ok "the retention is in the database"
else
  bad "the retention was not stored"
fi
report "app_daily"
