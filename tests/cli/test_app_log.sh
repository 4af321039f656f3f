#!/usr/bin/env bash
# The calculator playground opening vLLM start-up logs (key l), in-process
# (kvtutor --keys), as `kvtutor explain-log` does: the verdicts on screen,
# scrolling, a log whose model needs the config.json opened first (o), and
# hostile files refused or shown inert. Prints "N passed, N failed".
#   KVTUTOR=build/kvtutor bash tests/cli/test_app_log.sh
set -u
KVTUTOR=${KVTUTOR:?set KVTUTOR to the kvtutor binary}
here_dir=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/kvt_app_log.XXXXXX)
# shellcheck source=keys_lib.sh
. "$here_dir/keys_lib.sh"
fixtures="$here_dir/../fixtures"
cp "$fixtures/vllm-logs/v0.19.0-r044-llama-3.1-8b.log" "$work/r044.log"
cp "$fixtures/vllm-logs/v0.11.0-h08-qwen3-14b.log" "$work/h08.log"
cp "$fixtures/configs/qwen3-14b.config.json" "$work/q14.json"
# a log line carrying terminal escapes (clear screen, set title)
sed 's/476,016 tokens/476,016 tokens\x1b[2J\x1b]0;owned\x07/' "$work/r044.log" > "$work/escapes.log"
printf 'GPU KV cache size: 1 tokens\n\0\177ELF' > "$work/binary.log"

# open_log FILE: l, then the path typed into its prompt
open_log() { step l "$1<Enter>"; }

step '='
calc_at=$(here)
step '?'
help_at=$(here)
step q l
prompt_at=$(here)
step "$work/r044.log<Enter>"
r044_at=$(here)
step j j j j j j j j j j j j
scrolled_at=$(here)
step q
closed_at=$(here)
open_log "$work/h08.log"
h08_at=$(here)
step o
config_at=$(here)
step "$work/q14.json<Enter>"
loaded_at=$(here)
open_log "$work/h08.log"
explained_at=$(here)
step q
open_log "$work/escapes.log"
escapes_at=$(here)
step q
open_log "$work/binary.log"
binary_at=$(here)
open_log "$work/missing.log"
missing_at=$(here)
step q Q
play

check_at "$calc_at" "= opens the playground" "Calculator playground"
check_at "$help_at" "the help lists the log key" "open a vLLM start-up log"
check_at "$prompt_at" "l asks for the log's path" "vLLM log path:"
check_at "$r044_at" "the log's version and tally are shown" "vLLM 0.19.0 log"
check_at "$r044_at" "the tally is the command's (2 match, 1 not recomputed)" "2 match, 0 differ, 1 not recomputed"
check_at "$r044_at" "the size line is quoted with its line number" "line 8  GPU KV cache size: 476,016 tokens"
check_at "$r044_at" "the size is recomputed and matches" "logged 476,016, computed 476,032  ✓ match"
check_at "$r044_at" "the model became the log's preset" "Model  meta-llama/Llama-3.1-8B-Instruct"
check_at "$scrolled_at" "j scrolls to the concurrency line" "logged 58.11x, computed 58.11x  ✓ match"
if at "$scrolled_at" | grep -qF "Assumed: block size 16"; then bad "j scrolled the first lines away"; else ok "j scrolled the first lines away"; fi
check_at "$closed_at" "q closes the log and the chart is back" "Max concurrency against context length"
check_at "$h08_at" "a model that is not a preset asks for its config.json" "is not a preset: open its config.json (o)"
check_at "$config_at" "o asks for the config.json" "config.json path:"
# the prompt starts empty, not with the log's path just typed, so the path
# typed is the whole path
if at "$config_at" | grep -qE '^ *config\.json path: *$'; then ok "the config.json prompt starts empty"; else bad "the config.json prompt starts empty"; fi
check_at "$loaded_at" "the config.json is loaded" "Model  $work/q14.json"
check_at "$explained_at" "with the config.json the log is explained" "vLLM 0.11.0 log"
check_at "$explained_at" "and its lines match" "2 match, 0 differ, 1 not recomputed"
check_at "$escapes_at" "escapes in a log line are shown inert" 'tokens\x1b[2J\x1b]0;owned\x07'
check_at "$escapes_at" "and the screen was not cleared by them" "Calculator playground"
if grep -q $'\x1b' "$work/screens"; then bad "no escape byte reaches the screen"; else ok "no escape byte reaches the screen"; fi
check_at "$binary_at" "a binary file is refused" "binary data (a NUL byte): not a text log"
check_at "$missing_at" "a missing file is named" "missing.log: No such file or directory"
quit_ok "explain a log"
report "app_log"
