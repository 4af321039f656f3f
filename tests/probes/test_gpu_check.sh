#!/bin/sh
# The GPU check script where there is no GPU: its syntax (bash -n, and the
# linter ShellCheck when installed), a clear exit 3 without nvidia-smi or
# without a device, and, with a stand-in nvidia-smi that lists a GPU this
# machine does not have, the probe built for it, run, found wanting (exit
# 3), and a report that says so.
# usage: test_gpu_check.sh probes/cuda/gpu-check.sh
set -u
script=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kvt-gpu-check.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() {
  echo "FAIL: $*"
  exit 1
}

bash -n "$script" || fail "bash -n"
if command -v shellcheck >/dev/null 2>&1; then
  shellcheck "$script" || fail "shellcheck"
fi

# 1. No nvidia-smi anywhere on PATH (only what the script needs first).
mkdir "$tmp/bin"
ln -s "$(command -v dirname)" "$tmp/bin/dirname"
PATH="$tmp/bin" "$(command -v bash)" "$script" --out "$tmp/r.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 3 ] || fail "no nvidia-smi: exit $rc, want 3"
grep -q "no nvidia-smi on PATH: no NVIDIA driver is installed here" "$tmp/err" ||
  fail "no nvidia-smi: $(cat "$tmp/err")"
[ ! -e "$tmp/r.json" ] || fail "no nvidia-smi: a report was written"

# 2. nvidia-smi that finds no device, as it says so.
mkdir "$tmp/fake"
cat >"$tmp/fake/nvidia-smi" <<'SH'
#!/bin/sh
echo "No devices were found"
exit 6
SH
chmod +x "$tmp/fake/nvidia-smi"
PATH="$tmp/fake:$PATH" bash "$script" --out "$tmp/r.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 3 ] || fail "no device: exit $rc, want 3"
grep -q "nvidia-smi sees no usable GPU: No devices were found" "$tmp/err" ||
  fail "no device: $(cat "$tmp/err")"

# 3. Usage.
bash "$script" --frobnicate >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 2 ] || fail "usage: exit $rc, want 2"
grep -q "\-\-frobnicate: unknown option" "$tmp/err" || fail "usage: $(cat "$tmp/err")"

# 4. A stand-in nvidia-smi that lists an H200 on this machine without one:
# the probe is built for sm_90, finds no usable GPU, and the report says so.
if [ -e /dev/nvidia0 ] || ! command -v python3 >/dev/null 2>&1; then
  echo "ok (the stand-in H200 skipped: a GPU is here, or no python3)"
  exit 0
fi
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
[ -x "$nvcc" ] || {
  echo "ok (no nvcc: the stand-in H200 skipped)"
  exit 0
}
cat >"$tmp/fake/nvidia-smi" <<'SH'
#!/bin/sh
echo "0, NVIDIA H200, 9.0, 580.65.06, 143771 MiB, 143000 MiB, Enabled, Disabled"
SH
PATH="$tmp/fake:$PATH" bash "$script" --device 1 --out "$tmp/r.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 2 ] || fail "no GPU 1: exit $rc, want 2"
grep -q "nvidia-smi lists no GPU 1" "$tmp/err" || fail "no GPU 1: $(cat "$tmp/err")"
PATH="$tmp/fake:$(dirname "$nvcc"):$PATH" bash "$script" --out "$tmp/r.json" --work "$tmp/work" \
  >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 3 ] || fail "an H200 that is not there: exit $rc, want 3: $(cat "$tmp/err")"
grep -q "the probe finds no usable GPU" "$tmp/err" || fail "no reason given: $(cat "$tmp/err")"
python3 - "$tmp/r.json" <<'PY' || fail "report: $(cat "$tmp/r.json")"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["build"]["exit"] == 0, r["build"]
assert any("for 'sm_90'" in l for l in r["ptxas"]), r["ptxas"]
assert r["spills"] == [], r["spills"]
assert r["default"]["exit"] == 3
assert r["default"]["lines"][0]["no_gpu"] is True
assert r["failed_steps"] == ["default"], r["failed_steps"]
assert r["size16g"] is None and r["ncu_read_kernel"] is None and r["memcheck"] is None
assert r["nvidia_smi"][0].startswith("0, NVIDIA H200"), r["nvidia_smi"]
PY
echo ok
