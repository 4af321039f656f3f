#!/usr/bin/env bash
# The playground's serving view (key s), in-process (kvtutor --keys): the
# figures on screen are those `kvtutor sim --json` gives for the same
# inputs, before and after the view's keys change the rate, fp8 KV, TP, the
# lengths and the client's concurrency; the knee chart's row for the rate
# shown carries the same p99; the timeline's mean batch and the peak KV are
# the run's; a load over the context is refused with its reason; a lesson's
# exercise opens the view at its own setup; at 80x24 the view scrolls to what
# does not fit. Figures are in the course's format (kvt_format.h), not vllm
# bench's two decimals. Prints "N passed, N failed".
#   KVTUTOR=build/kvtutor bash tests/cli/test_app_sim.sh
set -u
KVTUTOR=${KVTUTOR:?set KVTUTOR to the kvtutor binary}
here_dir=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/kvt_app_sim.XXXXXX)
# shellcheck source=keys_lib.sh
. "$here_dir/keys_lib.sh"

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

# check_figures N WHAT ARGS: on the screen after line N, the headline, the
# throughput, the limit, the knee chart's marked row, the peak KV and the
# timeline against `kvtutor sim ARGS`
check_figures() {
  local n=$1 what=$2 cap row p99 peak
  shift 2
  sim "$@" --request-rate inf
  cap=$(amount "$(key request_throughput)")
  sim "$@"
  check_at "$n" "$what: TTFT and TPOT as kvtutor sim's" \
    "TTFT median $(ms "$(key median_ttft_ms)"), p99 $(ms "$(key p99_ttft_ms)") · TPOT median $(ms "$(key median_tpot_ms)"), p99 $(ms "$(key p99_tpot_ms)")"
  check_at "$n" "$what: the throughput, against the capacity at rate inf" \
    "$(amount "$(key request_throughput)") req/s (capacity $cap) · $(rate "$(key output_throughput)") tok/s out · capped by $(limit_text)"
  check_at "$n" "$what: the largest batch" "largest batch $(key max_running) of $(key max_num_seqs)"
  # the peak as blocks, the share times the blocks (a share one block short
  # of full would read "99.997%"), "all N blocks" when every one was in use
  peak=$(awk -v u="$(key peak_kv_usage)" -v n="$(key num_gpu_blocks)" 'BEGIN { printf "%.0f", u * n }')
  if [ "$peak" = "$(key num_gpu_blocks)" ]; then
    check_at "$n" "$what: the peak KV in blocks" "peak KV all $(amount "$peak") blocks"
  else
    check_at "$n" "$what: the peak KV in blocks" "peak KV $(amount "$peak") of $(amount "$(key num_gpu_blocks)") blocks"
  fi
  p99=$(ms "$(key p99_ttft_ms)")
  row=$(at "$n" | grep -F "▶")
  if [[ "$row" == *" $p99 "* ]]; then ok "$what: the knee's marked row has the p99 TTFT ($p99)"; else bad "$what: the marked row lacks $p99: $row"; fi
  check_at "$n" "$what: the timeline's mean batch is the run's" "mean $(amount "$(key mean_running)") running"
}

step '=' s
open_at=$(here)
# r: 2 -> 2.5 req/s; f: fp8 KV; t: TP 2 (two RTX 4090s over PCIe)
step r f t
rft_at=$(here)
# i and o double the lengths; N from no limit goes to 1,024, then halves to 32
step i o N N N N N N
len_at=$(here)
step '?'
help_at=$(here)
step q
# C three times: 8,192 -> 1,024 tokens of context, under the 2,304 asked for
step C C C
short_at=$(here)
step c c c
back_at=$(here)
step q
calc_at=$(here)
step s
again_at=$(here)
# o twice: 1,024 output tokens; 2^18 / 1,024 = 256 requests a run, said so
step o o
long_at=$(here)
step q
left_at=$(here)
step '<Esc>' Q
play

check_at "$open_at" "s opens the serving view" "serving under load"
check_at "$open_at" "the workload is shown" "input 1,024 · output 128 tokens · rate 2 req/s · concurrency no limit"
check_at "$open_at" "the sweep's size is said" "p99 TTFT (500 requests each)"
check_figures "$open_at" "the first setting" --input-len 1024 --output-len 128 --request-rate 2
check_at "$open_at" "the command is shown" "kvtutor sim --model qwen2.5-7b --gpu rtx4090 --max-model-len 8192"
check_at "$rft_at" "r steps the rate" "rate 2.5 req/s"
check_at "$rft_at" "f turns fp8 KV on" "KV fp8"
check_at "$rft_at" "t sets TP 2" "TP 2"
check_figures "$rft_at" "rate 2.5, fp8, TP 2" --kv-dtype fp8 --tp 2 --input-len 1024 --output-len 128 \
  --request-rate 2.5
check_at "$len_at" "the keys set lengths and concurrency" "input 2,048 · output 256 tokens · rate 2.5 req/s · concurrency 32"
check_figures "$len_at" "2,048 in, 256 out, 32 at most" --kv-dtype fp8 --tp 2 --input-len 2048 \
  --output-len 256 --request-rate 2.5 --max-concurrency 32
check_at "$help_at" "the help lists the view's keys" "rate: requests/s, the next rung up or down"
check_at "$help_at" "and says what runs" "Serving view (s): kvtutor sim's simulator, 500 requests a run"
check_at "$short_at" "a load over the context is refused, with its reason" \
  "input 2,048 + output 256 tokens exceed max_model_len 1,024"
check_at "$back_at" "and served again once it fits" "largest batch"
check_at "$calc_at" "q leaves the view for the calculator" "Max concurrency against context length"
check_at "$again_at" "the view keeps its workload" "input 2,048 · output 256 tokens · rate 2.5 req/s · concurrency 32"
check_at "$long_at" "long outputs: fewer requests, said on screen" "p99 TTFT (256 requests each)"
check_at "$left_at" "q leaves for the calculator again" "Max concurrency against context length"
quit_ok "the serving view"

# From a lesson's exercise to the same setup (tests/fixtures/lessons/
# serving-good.lua: Llama-3.1-8B on an H100, 500 requests of 1,024 in and
# 128 out at 4 req/s, the model's 131,072 positions): v on the graded
# exercise opens the view at that setup, with kvtutor sim's figures for it.
mkdir -p "$work/lessons"
cp "$here_dir/../fixtures/lessons/serving-good.lua" "$work/lessons/"
lesson_at=0
step e
first_at=$(here)
step '57344<Enter>'
step '<Enter>'
ask_at=$(here)
step '1<Enter>'
graded_at=$(here)
step v
view_at=$(here)
step q
back_ex_at=$(here)
step '<Esc>' '<Esc>' Q
play --lessons "$work/lessons" open serving-good
check_at "$lesson_at" "the lesson opens" "A serving setup the view opens"
check_at "$first_at" "its first exercise" "Bytes per token"
check_at "$ask_at" "the serving exercise" "p99 TTFT at 4 requests/s"
check_at "$graded_at" "the graded exercise says where its figures come from" "v opens the same setup"
check_at "$view_at" "v opens the serving view" "serving under load"
check_at "$view_at" "at the exercise's workload" "input 1,024 · output 128 tokens · rate 4 req/s · concurrency no limit"
base="sim --model llama-3.1-8b --gpu h100 --max-model-len 131072 --util 0.92 --num-prompts 500"
# 4 req/s is far below this setup's capacity (about 23): the knee's rows
# are around the capacity, so the rate shown is a marked row of its own,
# below them, with the headline's p99
sim --input-len 1024 --output-len 128 --request-rate 4
check_at "$view_at" "the exercise's setup: TTFT and TPOT as kvtutor sim's" \
  "TTFT median $(ms "$(key median_ttft_ms)"), p99 $(ms "$(key p99_ttft_ms)") · TPOT median $(ms "$(key median_tpot_ms)"), p99 $(ms "$(key p99_tpot_ms)")"
check_at "$view_at" "the exercise's setup: its throughput" "$(amount "$(key request_throughput)") req/s (capacity"
check_at "$view_at" "the exercise's setup: the knee is drawn" "p99 TTFT (500 requests each)"
p99=$(ms "$(key p99_ttft_ms)")
row=$(at "$view_at" | grep -F "▶")
if [[ "$row" == *" 4 "*" $p99 "* ]]; then ok "the exercise's setup: 4 req/s is a marked row ($p99)"; else bad "the exercise's setup: the marked row: $row"; fi
check_at "$back_ex_at" "q goes back to the exercise" "p99 TTFT at 4 requests/s"
quit_ok "the exercise's serving view"

# 80x24, the smallest terminal: every part is on screen, the timeline last
base="sim --model qwen2.5-7b --gpu rtx4090 --max-model-len 8192 --util 0.92 --num-prompts 500"
step '=' s
small_at=$(here)
step '<Space>'
below_at=$(here)
step q '<Esc>' Q
SIZE=80x24 play
sim --input-len 1024 --output-len 128 --request-rate 2
check_at "$small_at" "80x24: the view opens" "serving under load"
check_at "$small_at" "80x24: the headline" "TTFT median $(ms "$(key median_ttft_ms)")"
check_at "$small_at" "80x24: the knee's heading" "p99 TTFT (500 requests each)"
check_at "$small_at" "80x24: the KV timeline" "KV used"
check_at "$small_at" "80x24: the rest is below" "more below: Space or j"
check_at "$below_at" "80x24: Space shows the timeline's last row" "mean $(amount "$(key mean_running)") running"
check_at "$below_at" "80x24: and the command" "kvtutor sim --model qwen2.5-7b --gpu rtx4090"
quit_ok "80x24"
report "app_sim"
