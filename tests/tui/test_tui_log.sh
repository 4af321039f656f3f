#!/usr/bin/env bash
# The calculator playground opening vLLM start-up logs (key l), as
# `kvtutor explain-log` does: the verdicts on screen, scrolling, a log whose
# model needs the config.json opened first (o), and hostile files refused or
# shown inert. Prints "N passed, N failed".
set -u
KVTUTOR=${KVTUTOR:?set KVTUTOR to the kvtutor binary}
work=$(mktemp -d /tmp/kvt_tui_log.XXXXXX)
# shellcheck source=tui_lib.sh
. "$(dirname "$0")/tui_lib.sh"
fixtures="$(cd "$(dirname "$0")/../fixtures" && pwd)"
cp "$fixtures/vllm-logs/v0.19.0-r044-llama-3.1-8b.log" "$work/r044.log"
cp "$fixtures/vllm-logs/v0.11.0-h08-qwen3-14b.log" "$work/h08.log"
cp "$fixtures/configs/qwen3-14b.config.json" "$work/q14.json"
# a log line carrying terminal escapes (clear screen, set title)
sed 's/476,016 tokens/476,016 tokens\x1b[2J\x1b]0;owned\x07/' "$work/r044.log" > "$work/escapes.log"
printf 'GPU KV cache size: 1 tokens\n\0\177ELF' > "$work/binary.log"

open_log() {
  tm send-keys -t app l
  wait_for "vLLM log path:" >/dev/null
  tm send-keys -t app "$1" Enter
}

start_shell
run_app
wait_for "Course map" >/dev/null
tm send-keys -t app '='
check "= opens the playground" "Calculator playground"
tm send-keys -t app '?'
check "the help lists the log key" "open a vLLM start-up log"
tm send-keys -t app q
wait_for "Calculator playground" >/dev/null

open_log "$work/r044.log"
check "the log's version and tally are shown" "vLLM 0.19.0 log"
check "the tally is the command's (2 match, 1 not recomputed)" "2 match, 0 differ, 1 not recomputed"
check "the size line is quoted with its line number" "line 8  GPU KV cache size: 476,016 tokens"
check "the size is recomputed and matches" "logged 476,016, computed 476,032  ✓ match"
check "the model became the log's preset" "Model  meta-llama/Llama-3.1-8B-Instruct"
tm send-keys -t app j j j j j j j j j j j j
check "j scrolls to the concurrency line" "logged 58.11x, computed 58.11x  ✓ match"
if screen | grep -qF "Assumed: block size 16"; then bad "j scrolled the first lines away"; else ok "j scrolled the first lines away"; fi
tm send-keys -t app q
check "q closes the log and the chart is back" "Max concurrency against context length"

open_log "$work/h08.log"
check "a model that is not a preset asks for its config.json" "is not a preset: open its config.json (o)"
tm send-keys -t app o
wait_for "config.json path:" >/dev/null
# the prompt starts empty, not with the log's path just typed, so the path
# typed is the whole path
if screen | grep -qE '^ *config\.json path: *$'; then ok "the config.json prompt starts empty"; else bad "the config.json prompt starts empty"; fi
tm send-keys -t app "$work/q14.json" Enter
check "the config.json is loaded" "Model  $work/q14.json"
open_log "$work/h08.log"
check "with the config.json the log is explained" "vLLM 0.11.0 log"
check "and its lines match" "2 match, 0 differ, 1 not recomputed"
tm send-keys -t app q

open_log "$work/escapes.log"
check "escapes in a log line are shown inert" 'tokens\x1b[2J\x1b]0;owned\x07'
check "and the screen was not cleared by them" "Calculator playground"
tm send-keys -t app q
open_log "$work/binary.log"
check "a binary file is refused" "binary data (a NUL byte): not a text log"
open_log "$work/missing.log"
check "a missing file is named" "missing.log: No such file or directory"

tm send-keys -t app q
wait_for "Course map" >/dev/null
tm send-keys -t app Q
check "the app quits normally" "EXIT=0"
stty_kept "explain a log"
report "test_tui_log"
