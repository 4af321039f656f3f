#!/usr/bin/env bash
# Messages for mistakes people make at the command line: each row runs one
# command and expects its exit status and a phrase of its message (stdout and
# stderr together), and optionally a phrase that must not be there.
#
#   test_messages.sh KVTUTOR
set -u
kvt=${1:?usage: test_messages.sh KVTUTOR}
work=$(mktemp -d /tmp/kvt_msg.XXXXXX)
trap 'rm -rf "$work"' EXIT
export XDG_DATA_HOME="$work/data" HOME="$work/home"
mkdir -p "$HOME"
db="$work/p.db"
printf 'learner,lesson,exercise\ndefault,kv-cache,per-token\n' >"$work/attempts.csv"
pass=0 fail=0

# row RC WANT NOT -- ARGS...: NOT is "" for none
row() {
  local want_rc=$1 want=$2 not=$3 rc=0
  shift 4
  "$kvt" "$@" </dev/null >"$work/out" 2>&1 || rc=$?
  if [ "$rc" -ne "$want_rc" ]; then
    echo "FAIL: kvtutor $*: exit $rc, expected $want_rc"; sed 's/^/  | /' "$work/out"; fail=$((fail + 1))
  elif [ -n "$want" ] && ! grep -qF -- "$want" "$work/out"; then
    echo "FAIL: kvtutor $*: no \"$want\""; sed 's/^/  | /' "$work/out"; fail=$((fail + 1))
  elif [ -n "$not" ] && grep -qF -- "$not" "$work/out"; then
    echo "FAIL: kvtutor $*: says \"$not\""; sed 's/^/  | /' "$work/out"; fail=$((fail + 1))
  else
    echo "ok: kvtutor $*"; pass=$((pass + 1))
  fi
}

# reset of a lesson that is not in the course deletes nothing and says so
row 1 'no lesson "kv-cahce"' "answers deleted" -- reset kv-cahce --yes --db "$db"
row 0 "Reset kv-cache: 0 answers deleted." "" -- reset kv-cache --yes --db "$db"
# import: a missing file, a folder, a CSV (export --format csv's or any)
row 1 "$work/none.json: no such file; nothing imported" "" -- import "$work/none.json" --db "$db"
row 1 "a folder, not an export file" "" -- import "$work" --db "$db"
row 1 "a CSV file; import reads the JSON export (kvtutor export --format json)" "" \
  -- import "$work/attempts.csv" --db "$db"
# config get without a key: the usage, not "(none): unknown setting"
row 2 "get needs a KEY (learner, desired_retention, new_per_day, interview_answer_seconds, interview_minutes); usage: kvtutor config get KEY" \
  "(none)" -- config get --db "$db"
# numbers parsed strictly: strtod would stop at the second point
row 2 "desired_retention 0.91.5: a number from 0.7 to 0.97" "" -- config set desired_retention 0.91.5 --db "$db"
row 2 "desired_retention 0.8.8: a number from 0.7 to 0.97" "" -- config set desired_retention 0.8.8 --db "$db"
row 2 "new_per_day 2.0.0: a whole number from 0 to 500" "" -- config set new_per_day 2.0.0 --db "$db"
# the interview's limits: whole numbers in range, 0 for none
row 2 "interview_minutes 200: a whole number of minutes from 0 (no limit) to 120" "" -- config set interview_minutes 200 --db "$db"
row 2 "interview_answer_seconds 1.5: a whole number of seconds from 0 (no limit) to 1800" "" -- config set interview_answer_seconds 1.5 --db "$db"
row 0 "" "" -- config set interview_answer_seconds 0 --db "$db"
row 0 "0" "" -- config get interview_answer_seconds --db "$db"
row 0 "" "" -- config set desired_retention 0.85 --db "$db"
row 0 "0.85" "" -- config get desired_retention --db "$db"
# a value out of range names the range; a value names the flag as typed
row 2 "--util 1.5: must be more than 0 and at most 1" "" -- calc --model qwen2.5-7b --gpu rtx4090 --util 1.5
row 2 "--gpu-memory-utilization 0: must be more than 0 and at most 1" "" \
  -- calc --model qwen2.5-7b --gpu rtx4090 --gpu-memory-utilization 0
row 2 "--seq -5: must be a positive integer" "--max-model-len" -- calc --model qwen2.5-7b --gpu rtx4090 --seq -5
# unknown presets: close names only, none when nothing is close
row 2 "--model foo: no such preset (kvtutor models lists them)" "closest" -- calc --model foo
row 2 "closest: qwen2.5-7b" "" -- calc --model qwen2.5-8b
row 2 "closest: rtx4090" "" -- calc --model qwen2.5-7b --gpu rtx4900
row 2 "--gpu zzz: no such preset (kvtutor gpus lists them)" "closest" -- calc --model qwen2.5-7b --gpu zzz
row 2 "--model foo: no such preset (kvtutor models lists them)" "closest" -- probe --model foo
# calc without a GPU names only what is missing: the preset has its parameters
row 0 "needs a bandwidth (--gpu or --bandwidth-gbps)" "--params" -- calc --model qwen2.5-7b
row 0 "needs the parameters (--params)" "--bandwidth-gbps" \
  -- calc --layers 28 --kv-heads 4 --heads 28 --head-dim 128 --gpu h100

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
