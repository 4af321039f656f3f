#!/usr/bin/env bash
# Numbers on the app's screens read as `kvtutor stats` and `calc` write
# them: counts grouped (1,200), a share that is not all or nothing never
# shown as 100% or 0%. Prints "N passed, N failed".
set -u
KVTUTOR=${KVTUTOR:?set KVTUTOR to the kvtutor binary}
work=$(mktemp -d /tmp/kvt_tui_numbers.XXXXXX)
# shellcheck source=tui_lib.sh
. "$(dirname "$0")/tui_lib.sh"

# --- the progress screen: 1,200 answers to kv-cache, 1,199 right; 300 to
# memory-bound-decode, 1 right; 60 s each ---
now=$(date +%s)
{
  printf '{"format": "kvtutor-export", "version": 1, "attempts": [\n'
  for i in $(seq 0 1499); do
    if [ "$i" -lt 1200 ]; then
      lesson=kv-cache concept=kv-cache
      if [ "$i" = 0 ]; then verdict=wrong score=0; else verdict=correct score=1; fi
    else
      lesson=memory-bound-decode concept=decode-bandwidth
      if [ "$i" = 1200 ]; then verdict=correct score=1; else verdict=wrong score=0; fi
    fi
    [ "$i" = 0 ] || printf ','
    printf '{"uid": "%032x", "learner": "default", "module": "part0-foundations", "lesson": "%s", "concept": "%s", "exercise": "e", "answer": "1", "verdict": "%s", "score": %d, "seconds": 60, "created_at": %d}\n' \
      $((i + 1)) "$lesson" "$concept" "$verdict" "$score" $((now - 60 - i))
  done
  printf '], "reviews": []}\n'
} > "$work/many.json"
if "$KVTUTOR" import "$work/many.json" --db "$db" > /dev/null; then ok "1,500 answers imported"; else bad "import"; fi

start_shell
run_app
wait_for "Course map" >/dev/null
tm send-keys -t app p
# 1,199 + 1 = 1,200 right of 1,500: 80%; 1,500 x 60 s = 1,500 minutes
check "the answers are counted in thousands" "1,500 answers, 80% right · 2 exercises seen"
check "the minutes are grouped" "time answering: 1,500 min"
# 1,199 / 1,200 = 99.92%: 99.9%, not 100%; 1 / 300 = 0.33%: 0.3%, not 0%
check "almost all right is not 100%" "The KV cache caps concurrency: 1,200 answers, 99.9% right, 0 due"
check "almost none right is not 0%" "300 answers, 0.3% right, 0 due"
check "a concept's share and count" "99.9% of 1,200"
check "a concept's share, almost none" "0.3% of 300"
tm send-keys -t app q
wait_for "Course map" >/dev/null
tm send-keys -t app Q
check "the app quits" "EXIT=0"

report tui_numbers
