#!/usr/bin/env bash
# The shell completions. bash: the script sourced, COMP_WORDS/COMP_CWORD set
# as bash sets them, _kvtutor called, COMPREPLY compared. zsh and fish: a
# syntax check where the shell is installed (fish also completes a few lines
# through `complete -C`), a note where it is not.
#
#   test_completion.sh KVTUTOR COMPLETIONS_DIR
set -u
kvt=${1:?usage: test_completion.sh KVTUTOR COMPLETIONS_DIR}
dir=${2:?usage: test_completion.sh KVTUTOR COMPLETIONS_DIR}
pass=0 fail=0
ok() { echo "ok: $1"; pass=$((pass + 1)); }
bad() { echo "FAIL: $1"; fail=$((fail + 1)); }

# shellcheck source=/dev/null
. "$dir/kvtutor.bash"
# expect "WORDS..." WANT...: completing the last word offers every WANT
expect() {
  local -a words
  read -r -a words <<<"$1"
  [[ $1 == *" " ]] && words+=("")
  shift
  COMP_WORDS=("$kvt" "${words[@]}")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _kvtutor
  local w missing=
  for w in "$@"; do
    printf '%s\n' "${COMPREPLY[@]}" | grep -qxF -- "$w" || missing+=" $w"
  done
  if [ -z "$missing" ]; then
    ok "'kvtutor ${words[*]}' offers $*"
  else
    bad "'kvtutor ${words[*]}' lacks$missing; offered: ${COMPREPLY[*]}"
  fi
}
# refuse "WORDS..." NOT...: none of NOT is offered
refuse() {
  local -a words
  read -r -a words <<<"$1"
  [[ $1 == *" " ]] && words+=("")
  shift
  COMP_WORDS=("$kvt" "${words[@]}")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _kvtutor
  local w
  for w in "$@"; do
    if printf '%s\n' "${COMPREPLY[@]}" | grep -qxF -- "$w"; then
      bad "'kvtutor ${words[*]}' offers $w"; return
    fi
  done
  ok "'kvtutor ${words[*]}' offers none of: $*"
}

expect "ca" calc
expect "ex" explain-log export
expect " " calc probe lint stats config reset export import fsrs open
expect "calc --mo" --model
expect "calc --kv-" --kv-heads --kv-dtype --kv-cache-dtype --kv-budget-gib
expect "--d" --db
expect "probe --c" --cpu --cuda
expect "calc --model qwen2.5-7" qwen2.5-7b
expect "calc --model Qwen/Qwen2.5-7" Qwen/Qwen2.5-7B-Instruct
expect "calc --gpu rtx40" rtx4090
expect "calc --gpu h1" h100 h100-pcie
expect "probe --model qwen2.5-7" qwen2.5-7b
expect "reset kv-" kv-cache
expect "open kv-" kv-cache
expect "ask kv-cache per-" per-token per-sequence-8k
expect "ask kv-cache follow" followup-1
expect "config " get set list
expect "config get " learner desired_retention new_per_day
expect "export --format " json csv
expect "fsrs " replay
expect "sim --mode l" latency
expect "sim --gpu h1" h100 h100-pcie
expect "sim --max-num-" --max-num-seqs --max-num-batched-tokens
refuse "calc --gpu rtx40" --gpu calc
refuse "reset kv-cache " kv-cache

if command -v zsh >/dev/null; then
  if zsh -n "$dir/_kvtutor"; then ok "zsh -n _kvtutor"; else bad "zsh -n _kvtutor"; fi
else
  echo "note: zsh is not installed; _kvtutor not checked"
fi
if command -v fish >/dev/null; then
  if fish -n "$dir/kvtutor.fish"; then ok "fish -n kvtutor.fish"; else bad "fish -n kvtutor.fish"; fi
  bin=$(mktemp -d /tmp/kvt_fish.XXXXXX)
  ln -s "$kvt" "$bin/kvtutor"
  got=$(PATH="$bin:$PATH" fish -c "source '$dir/kvtutor.fish'; complete -C 'kvtutor calc --gpu rtx40'; complete -C 'kvtutor res'" 2>&1)
  rm -rf "$bin"
  if printf '%s\n' "$got" | grep -qx rtx4090 && printf '%s\n' "$got" | grep -qx reset; then
    ok "fish completes --gpu rtx40 and res"
  else
    bad "fish offered: $got"
  fi
else
  echo "note: fish is not installed; kvtutor.fish not checked"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
