#!/usr/bin/env bash
# The playground's serving view (key s): the figures on screen are those
# `kvtutor sim --json` gives for the same inputs, before and after the
# view's keys change the rate, fp8 KV, TP, the lengths and the client's
# concurrency; the knee chart's row for the rate shown carries the same p99;
# the timeline's mean batch is the run's; a load over the context is refused
# with its reason; at 80x24 the view scrolls to what does not fit. Figures
# are in the course's format (kvt_format.h), not vllm bench's two decimals.
# Prints "N passed, N failed".
set -u
KVTUTOR=${KVTUTOR:?set KVTUTOR to the kvtutor binary}
work=$(mktemp -d /tmp/kvt_tui_sim.XXXXXX)
# shellcheck source=tui_lib.sh
. "$(dirname "$0")/tui_lib.sh"

# The playground starts on Qwen2.5-7B, an RTX 4090, 8,192 tokens of context
# and vLLM 0.26's gpu_memory_utilization 0.92; the view on 1,024 in, 128 out,
# 2 req/s and no client limit, 500 requests a run (its header and the help
# say so). The command below is written out here, not read off the screen.
base="sim --model qwen2.5-7b --gpu rtx4090 --max-model-len 8192 --util 0.92 --num-prompts 500"

# sim ARGS: the JSON of `kvtutor $base ARGS --json`, in $work/sim.json
sim() {
  # shellcheck disable=SC2086
  "$KVTUTOR" $base "$@" --json > "$work/sim.json" || bad "kvtutor $base $* failed"
}
# key NAME: a number from $work/sim.json
key() { grep -o "\"$1\": [-0-9.eE+]*" "$work/sim.json" | awk '{print $2}'; }
# tok/s as kvtutor writes rates (kvt_format.h): whole and grouped from 100
# up, one decimal below, trailing zero dropped
rate() {
  if awk -v v="$1" 'BEGIN { exit !(v >= 100) }'; then amount "$1"; else
    awk -v v="$1" 'BEGIN { s = sprintf("%.1f", v); sub(/\.0$/, "", s); print s }'
  fi
}
# kvtutor's amounts (kvt_format.h): about three significant digits, whole
# values from 100 up grouped by thousands, trailing zeros dropped
amount() {
  awk -v v="$1" 'BEGIN {
    a = v < 0 ? -v : v
    if (a >= 100) {
      s = sprintf("%.0f", v); out = ""
      while (length(s) > 3) { out = "," substr(s, length(s) - 2) out; s = substr(s, 1, length(s) - 3) }
      print s out; exit
    }
    if (a >= 10) d = 1
    else if (a >= 1 || a == 0) d = a == 0 ? 0 : 2
    else { l = log(a) / log(10); f = int(l); if (f > l) f--; d = 2 - f }
    s = sprintf("%." d "f", v)
    if (index(s, ".")) { sub(/0+$/, "", s); sub(/\.$/, "", s) }
    print s
  }'
}
# kvt_fmt_ms: an amount in ms below a second, in s below two minutes, else
# in min (999.6 -> "1 s", 39555 -> "39.6 s")
ms() {
  if awk -v v="$1" 'BEGIN { exit !(v >= 119500) }'; then
    echo "$(amount "$(awk -v v="$1" 'BEGIN { printf "%.17g", v / 60000 }')") min"
  elif awk -v v="$1" 'BEGIN { exit !(v >= 999.5) }'; then
    echo "$(amount "$(awk -v v="$1" 'BEGIN { printf "%.17g", v / 1000 }')") s"
  else
    echo "$(amount "$1") ms"
  fi
}
limit_text() {
  case $(grep -o '"limit": "[a-z_]*"' "$work/sim.json" | cut -d'"' -f4) in
    arrivals) echo "arrivals" ;;
    kv_blocks) echo "KV blocks" ;;
    max_num_seqs) echo "max_num_seqs" ;;
    token_budget) echo "the token budget" ;;
  esac
}

# check_figures WHAT ARGS: the headline, the throughput, the limit, the
# knee chart's marked row and the timeline against `kvtutor sim ARGS`
check_figures() {
  local what=$1 cap row p99
  shift
  sim "$@" --request-rate inf
  cap=$(amount "$(key request_throughput)")
  sim "$@"
  check "$what: TTFT and TPOT as kvtutor sim's" \
    "TTFT median $(ms "$(key median_ttft_ms)"), p99 $(ms "$(key p99_ttft_ms)") · TPOT median $(ms "$(key median_tpot_ms)"), p99 $(ms "$(key p99_tpot_ms)")"
  check "$what: the throughput, against the capacity at rate inf" \
    "$(amount "$(key request_throughput)") req/s (capacity $cap req/s) · $(rate "$(key output_throughput)") tok/s out · capped by $(limit_text)"
  check "$what: the largest batch" "largest batch $(key max_running) of $(key max_num_seqs)"
  # the peak as blocks, the share times the blocks (a share one block short
  # of full would read "99.997%"), "all N blocks" when every one was in use
  peak=$(awk -v u="$(key peak_kv_usage)" -v n="$(key num_gpu_blocks)" 'BEGIN { printf "%.0f", u * n }')
  if [ "$peak" = "$(key num_gpu_blocks)" ]; then
    check "$what: the peak KV in blocks" "peak KV all $(amount "$peak") blocks"
  else
    check "$what: the peak KV in blocks" "peak KV $(amount "$peak") of $(amount "$(key num_gpu_blocks)") blocks"
  fi
  p99=$(ms "$(key p99_ttft_ms)")
  row=$(screen | grep -F "▶")
  if [[ "$row" == *" $p99 "* ]]; then ok "$what: the knee's marked row has the p99 TTFT ($p99)"; else bad "$what: the marked row lacks $p99: $row"; fi
  check "$what: the timeline's mean batch is the run's" "mean $(amount "$(key mean_running)") running"
}

start_shell
run_app
wait_for "Course map" >/dev/null
tm send-keys -t app '='
wait_for "Calculator playground" >/dev/null
tm send-keys -t app s
check "s opens the serving view" "serving under load"
check "the workload is shown" "input 1,024 · output 128 tokens · rate 2 req/s · concurrency no limit"
check "the sweep's size is said" "p99 TTFT (500 requests each)"
check_figures "the first setting" --input-len 1024 --output-len 128 --request-rate 2
check "the command is shown" "kvtutor sim --model qwen2.5-7b --gpu rtx4090 --max-model-len 8192"

# r: 2 -> 2.5 req/s; f: fp8 KV; t: TP 2 (two RTX 4090s over PCIe)
tm send-keys -t app r f t
wait_for "TP 2" >/dev/null
check "r steps the rate" "rate 2.5 req/s"
check "f turns fp8 KV on" "KV fp8"
check_figures "rate 2.5, fp8, TP 2" --kv-dtype fp8 --tp 2 --input-len 1024 --output-len 128 \
  --request-rate 2.5

# i and o double the lengths; N from no limit goes to 1,024, then halves to 32
tm send-keys -t app i o N N N N N N
check "the keys set lengths and concurrency" "input 2,048 · output 256 tokens · rate 2.5 req/s · concurrency 32"
check_figures "2,048 in, 256 out, 32 at most" --kv-dtype fp8 --tp 2 --input-len 2048 \
  --output-len 256 --request-rate 2.5 --max-concurrency 32

# the help says what runs
tm send-keys -t app '?'
check "the help lists the view's keys" "rate: requests/s, the next rung up or down"
check "and says what runs" "Serving view (s): kvtutor sim's simulator, 500 requests a run"
tm send-keys -t app q
wait_for "serving under load" >/dev/null

# C three times: 8,192 -> 1,024 tokens of context, under the 2,304 asked for
tm send-keys -t app C C C
check "a load over the context is refused, with its reason" \
  "input 2,048 + output 256 tokens exceed max_model_len 1,024"
tm send-keys -t app c c c
check "and served again once it fits" "largest batch"
tm send-keys -t app q
check "q leaves the view for the calculator" "Max concurrency against context length"
tm send-keys -t app s
check "the view keeps its workload" "input 2,048 · output 256 tokens · rate 2.5 req/s · concurrency 32"
# o twice: 1,024 output tokens; 2^18 / 1,024 = 256 requests a run, said so
tm send-keys -t app o o
check "long outputs: fewer requests, said on screen" "p99 TTFT (256 requests each)"
tm send-keys -t app q
wait_for "Max concurrency against context length" >/dev/null
quit_from_map "the serving view"

# From a lesson's exercise to the same setup (tests/fixtures/lessons/
# serving-good.lua: Llama-3.1-8B on an H100, 500 requests of 1,024 in and
# 128 out at 4 req/s, the model's 131,072 positions): v on the graded
# exercise opens the view at that setup, with kvtutor sim's figures for it.
mkdir -p "$work/lessons"
cp "$(dirname "$0")/../fixtures/lessons/serving-good.lua" "$work/lessons/"
start_shell
run_app --lessons "$work/lessons" open serving-good
wait_for "A serving setup the view opens" >/dev/null
tm send-keys -t app e
wait_for "Bytes per token" >/dev/null
tm send-keys -t app 57344 Enter
wait_for "Right." >/dev/null
tm send-keys -t app Enter
wait_for "p99 TTFT at 4 requests/s" >/dev/null
tm send-keys -t app 1 Enter
check "the graded exercise says where its figures come from" "v opens the same setup"
tm send-keys -t app v
check "v opens the serving view" "serving under load"
check "at the exercise's workload" "input 1,024 · output 128 tokens · rate 4 req/s · concurrency no limit"
lesson_base="sim --model llama-3.1-8b --gpu h100 --max-model-len 131072 --util 0.92 --num-prompts 500"
first_base=$base
base=$lesson_base
# 4 req/s is far below this setup's capacity (about 23): the knee's rows
# are around the capacity, so the rate shown is a marked row of its own,
# below them, with the headline's p99
sim --input-len 1024 --output-len 128 --request-rate 4
check "the exercise's setup: TTFT and TPOT as kvtutor sim's" \
  "TTFT median $(ms "$(key median_ttft_ms)"), p99 $(ms "$(key p99_ttft_ms)") · TPOT median $(ms "$(key median_tpot_ms)"), p99 $(ms "$(key p99_tpot_ms)")"
check "the exercise's setup: its throughput" "$(amount "$(key request_throughput)") req/s (capacity"
check "the exercise's setup: the knee is drawn" "p99 TTFT (500 requests each)"
p99=$(ms "$(key p99_ttft_ms)")
row=$(screen | grep -F "▶")
if [[ "$row" == *" 4 "*" $p99 "* ]]; then ok "the exercise's setup: 4 req/s is a marked row ($p99)"; else bad "the exercise's setup: the marked row: $row"; fi
tm send-keys -t app q
check "q goes back to the exercise" "p99 TTFT at 4 requests/s"
base=$first_base
quit_from_map "the exercise's serving view"

# 80x24, the smallest terminal: every part is on screen, the timeline last
TUI_SIZE=80x24
start_shell
run_app
wait_for "Course map" >/dev/null
tm send-keys -t app '=' s
check "80x24: the view opens" "serving under load"
sim --input-len 1024 --output-len 128 --request-rate 2
check "80x24: the headline" "TTFT median $(ms "$(key median_ttft_ms)")"
check "80x24: the knee's heading" "p99 TTFT (500 requests each)"
check "80x24: the KV timeline" "KV used"
check "80x24: the rest is below" "more below: Space or j"
tm send-keys -t app Space
check "80x24: Space shows the timeline's last row" "mean $(amount "$(key mean_running)") running"
check "80x24: and the command" "kvtutor sim --model qwen2.5-7b --gpu rtx4090"
tm send-keys -t app q
wait_for "Max concurrency against context length" >/dev/null
quit_from_map "80x24"
report "test_tui_sim"
