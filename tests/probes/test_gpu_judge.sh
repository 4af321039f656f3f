#!/bin/sh
# The GPU check's judging part (probes/cuda/gpu_judge.py) fed canned probe
# lines, as an H200 would print them, one table row per case: each verdict
# and the exit status are the ones the rules give by hand.
# usage: test_gpu_judge.sh probes/cuda/gpu_judge.py
set -u
judge=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kvt-gpu-judge.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() {
  echo "FAIL: $*"
  exit 1
}
command -v python3 >/dev/null 2>&1 || {
  echo "ok (no python3: skipped)"
  exit 0
}

# lines READ READ16 CONTIG BLOCK16 [ERROR]: an H200's default run.
# Peak 4917.0 GB/s (2 x 3,201,000 kHz x 768 B). Decode: 17,898,668,032 B in
# 4,300 us fused = 4,162.5 GB/s; graph 4,380 us, eager 4,500 us.
# Blocks 1, 8, 32, 64 at 3,800, 4,050, 4,100, 4,110 GB/s against
# contiguous 4,120: taxes 7.8%, 1.7%, 0.5%, 0.2%.
lines() {
  read=$1 read16=$2 contig=$3 b16=$4 err=${5:-}
  {
    echo '{"type":"device","kind":"cuda","name":"NVIDIA H200","peak_gbps":4917.0,"peak_known":true}'
    echo "{\"type\":\"result\",\"kernel\":\"read\",\"bytes\":1073741824,\"gbps_median\":$read}"
    echo '{"type":"result","kernel":"decode","bytes":17898668032,"step_us":4300.0,"graph_step_us":4380.0,"eager_step_us":4500.0}'
    for b in "1 3800" "8 4050" "16 $b16" "32 4100" "64 4110"; do
      bs=${b% *} gb=${b#* }
      # tax_percent as the probe computes it, 100 x (1 - paged / contiguous)
      tax=$(awk -v g="$gb" -v c="$contig" 'BEGIN { printf "%.1f", 100 * (1 - g / c) }')
      echo "{\"type\":\"result\",\"kernel\":\"paged\",\"block_size\":$bs,\"bytes\":1073741824,\"gbps_median\":$gb,\"contiguous_gbps_median\":$contig,\"tax_percent\":$tax}"
    done
    [ -z "$err" ] || echo "{\"type\":\"error\",\"message\":\"$err\"}"
  } >"$tmp/default.out"
  echo "{\"type\":\"result\",\"kernel\":\"read\",\"bytes\":17179869184,\"gbps_median\":$read16}" >"$tmp/size16g.out"
}

# expect NAME RC CHECK=STATUS...: runs the judge on the lines and checks
# its exit status and the verdict of each CHECK named.
expect() {
  name=$1 want_rc=$2
  shift 2
  python3 "$judge" --default "$tmp/default.out" --default-rc "$probe_rc" \
    --size16g "$tmp/size16g.out" --json "$tmp/v.json" >"$tmp/stdout" 2>"$tmp/stderr"
  rc=$?
  [ "$rc" -eq "$want_rc" ] || fail "$name: exit $rc, want $want_rc: $(cat "$tmp/stdout" "$tmp/stderr")"
  for cv in "$@"; do
    check=${cv%=*} status=${cv##*=}
    grep -q "^$status *$check:" "$tmp/stdout" ||
      fail "$name: want $status for $check: $(cat "$tmp/stdout")"
  done
}

# 1. Good: read 4,250 = 86.4% of 4,917 (in 70..97); 16 GiB 4,230 is
# 20 / 4,250 = 0.5% off (<= 3); contiguous 4,120 >= 0.95 x 4,250 = 4,037.5;
# block 16 at 4,080: tax 1 - 4,080 / 4,120 = 1.0% (<= 5 goal); decode
# 4,162.5 / 4,250 = 0.979 (0.90..1.05); 4,300 <= 4,380 <= 4,500. No ncu
# output: skipped, not failed.
probe_rc=0
lines 4250.0 4230.0 4120.0 4080.0
expect good 0 "self-check=PASS" "read vs peak=PASS" "read 1 GiB vs 16 GiB=PASS" \
  "contiguous control=PASS" "paging tax, block 16=PASS" "paging tax, block 1=PASS" \
  "decode order=PASS" "decode bandwidth=PASS" "ncu DRAM bytes=SKIPPED"
grep -q "86.4% of the computed peak 4917.0 GB/s" "$tmp/stdout" || fail "good: $(cat "$tmp/stdout")"
python3 -c "import json,sys; r=json.load(open(sys.argv[1])); assert r['failed'] == [], r" \
  "$tmp/v.json" || fail "good: the JSON verdicts"

# 2. Above the peak: 5,100 / 4,917 = 103.7%: always a failure. (The 16 GiB
# read 5,090 is 0.2% off; contiguous 5,000 >= 4,845; decode 4,162.5 / 5,100
# = 0.816, below 0.90: the decode step disagrees with the read too.)
lines 5100.0 5090.0 5000.0 4980.0
expect "above peak" 1 "read vs peak=FAIL" "decode bandwidth=FAIL" "read 1 GiB vs 16 GiB=PASS"
grep -q "103.7% of the computed peak 4917.0 GB/s: above the peak, impossible" "$tmp/stdout" ||
  fail "above peak: $(cat "$tmp/stdout")"

# 3. A paging tax of 40% at block 16: 1 - 2,472 / 4,120 = 0.40 > 0.20.
lines 4250.0 4230.0 4120.0 2472.0
expect "tax 40%" 1 "paging tax, block 16=FAIL" "paging tax, block 8=PASS" "read vs peak=PASS"
grep -q "tax 40.0%" "$tmp/stdout" || fail "tax 40%: $(cat "$tmp/stdout")"

# 3b. Block 16 at 3,800: tax 7.8%, past the 5% goal, under 20%: a warning,
# not a failure.
lines 4250.0 4230.0 4120.0 3800.0
expect "tax 7.8%" 0 "paging tax, block 16=WARN"

# 4. The 16 GiB read 10% off the 1 GiB one: |3,825 - 4,250| / 4,250 = 10%.
lines 4250.0 3825.0 4120.0 4080.0
expect "16 GiB off" 1 "read 1 GiB vs 16 GiB=FAIL" "read vs peak=PASS"
grep -q "10.0% apart" "$tmp/stdout" || fail "16 GiB off: $(cat "$tmp/stdout")"

# 5. A gather that ignored its block table: it read the pool in order, so
# its order-aware sum is the identity table's, not the shuffled one's; the
# probe says so and exits 1 after the lines it printed before.
probe_rc=1
lines 4250.0 4230.0 4120.0 4080.0 \
  "self-check failed: the paged (block 1) pass read words summing to 7, expected 5"
expect "ignored table" 1 "self-check=FAIL" "probe run=FAIL"
grep -q "self-check failed: the paged (block 1) pass" "$tmp/stdout" ||
  fail "ignored table: $(cat "$tmp/stdout")"

# 6. ncu without counter permission is skipped; ncu's DRAM bytes 1% over
# the claimed 64 MiB pass, 3% over fail.
probe_rc=0
lines 4250.0 4230.0 4120.0 4080.0
printf '==PROF== Connected to process\n==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance Counters on the target device 0.\n' >"$tmp/ncu.err"
: >"$tmp/ncu.out"
python3 "$judge" --default "$tmp/default.out" --ncu "$tmp/ncu.out" --ncu-err "$tmp/ncu.err" \
  --ncu-rc 1 >"$tmp/stdout" || fail "no counters: exit $?: $(cat "$tmp/stdout")"
grep -q "^SKIPPED *ncu DRAM bytes: ncu has no permission" "$tmp/stdout" ||
  fail "no counters: $(cat "$tmp/stdout")"
ncu_case() { # ncu_case DRAM_BYTES WANT_RC WANT_STATUS
  {
    echo '{"type":"result","kernel":"paged","block_size":16,"bytes":67108864,"gbps_median":900.0}'
    echo '"ID","Kernel Name","Metric Name","Metric Unit","Metric Value"'
    for id in 0 1 2; do
      echo "\"$id\",\"paged_kernel\",\"dram__bytes_read.sum\",\"byte\",\"$1\""
    done
  } >"$tmp/ncu.out"
  : >"$tmp/ncu.err"
  python3 "$judge" --default "$tmp/default.out" --ncu "$tmp/ncu.out" --ncu-err "$tmp/ncu.err" \
    >"$tmp/stdout"
  rc=$?
  [ "$rc" -eq "$2" ] || fail "ncu $1: exit $rc, want $2: $(cat "$tmp/stdout")"
  grep -q "^$3 *ncu DRAM bytes" "$tmp/stdout" || fail "ncu $1: $(cat "$tmp/stdout")"
}
ncu_case 67779953 0 PASS # 67,108,864 x 1.01
ncu_case 69122130 1 FAIL # x 1.03
echo ok
