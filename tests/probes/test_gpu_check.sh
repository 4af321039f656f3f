#!/bin/sh
# The GPU check script where there is no GPU: its syntax (bash -n, and the
# linter ShellCheck when installed), a clear exit 3 without nvidia-smi or
# without a device, and, with a stand-in nvidia-smi that lists a GPU this
# machine does not have, the probe built for it, run, found wanting (exit
# 3), and a report that says so. Then, with a stand-in nvcc that "builds" a
# stand-in probe printing an H200's figures, the whole check: its verdicts,
# the provenance in the report, ncu without counter permission skipped, and
# a probe that hangs stopped within the time budget.
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
# An H200 at bus 19 with one other process on it; each query its answer
# (the clock sampler's first: it asks for pci.bus_id too).
cat >"$tmp/fake/nvidia-smi" <<'SH'
#!/bin/sh
case "$*" in
  *query-compute-apps*) echo "00000000:19:00.0, 4242, other-job, 1024 MiB" ;;
  *-lms*) echo "2026/12/02 05:00:00.000, 0, 00000000:19:00.0, 1980 MHz, 3201 MHz, 650.00 W, 45, 0x0000000000000000" ;;
  *clocks_event_reasons*) echo "0, 0x0000000000000000" ;;
  *pci.bus_id*) echo "0, 00000000:19:00.0, NVIDIA H200, 580.65.06, Enabled, Enabled, Disabled, Default, 1980 MHz, 3201 MHz, 1980 MHz, 3201 MHz, 120.00 W, 700.00 W, 35" ;;
  *) echo "0, NVIDIA H200, 9.0, 580.65.06, 143771 MiB, 143000 MiB, Enabled, Disabled" ;;
esac
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
p = r["provenance"]
assert len(p["sources_sha256"]) == 64, p
assert p["nvidia_smi_gpus"][0].startswith("0, 00000000:19:00.0, NVIDIA H200, 580.65.06"), p
assert p["throttle_reasons"] == ["0, 0x0000000000000000"], p
assert p["processes_before"] == ["00000000:19:00.0, 4242, other-job, 1024 MiB"], p
assert r["verdicts"] is None and r["judge"] is None  # nothing measured, nothing judged
PY

# 5. The whole check on a stand-in probe (what a stand-in nvcc "builds"):
# an H200's figures (those of tests/probes/test_gpu_judge.sh's good case:
# read 4,250 of 4,917 GB/s, 86.4%), then the same with a read of 5,100, above
# the peak; ncu without counter permission; compute-sanitizer running the
# program as it is.
mkdir "$tmp/tools"
cat >"$tmp/tools/nvcc" <<'SH'
#!/bin/sh
# the stand-in nvcc: --version, or -o FILE gets the stand-in probe
[ "$1" = "--version" ] && { echo "Cuda compilation tools, release 13.0, V13.0.88"; exit 0; }
while [ $# -gt 0 ]; do
  [ "$1" = "-o" ] && { cp "$FAKE_PROBE" "$2"; chmod +x "$2"; }
  shift
done
SH
cat >"$tmp/tools/fake-probe" <<'SH'
#!/bin/sh
[ "${FAKE_PROBE_MODE:-}" = hang ] && exec sleep 600
read=${FAKE_PROBE_READ:-4250.0} bytes=1073741824
case "$*" in *"--size-mib 16384"*) read=4230.0 bytes=17179869184 ;; esac
echo '{"type":"device","kind":"cuda","name":"NVIDIA H200","pci_bus_id":"0000:19:00.0","peak_gbps":4917.0,"peak_known":true,"driver_version":13000,"runtime_version":13000}'
echo "{\"type\":\"result\",\"kernel\":\"read\",\"bytes\":$bytes,\"gbps_median\":$read}"
echo '{"type":"result","kernel":"decode","bytes":17898668032,"step_us":4300.0,"graph_step_us":4380.0,"eager_step_us":4500.0}'
for b in "1 3800" "8 4050" "16 4080" "32 4100" "64 4110"; do
  echo "{\"type\":\"result\",\"kernel\":\"paged\",\"block_size\":${b% *},\"bytes\":1073741824,\"gbps_median\":${b#* },\"contiguous_gbps_median\":4120.0}"
done
SH
cat >"$tmp/tools/ncu" <<'SH'
#!/bin/sh
echo "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance Counters on the target device 0." >&2
exit 1
SH
cat >"$tmp/tools/compute-sanitizer" <<'SH'
#!/bin/sh
# the stand-in runs the program after its options
while [ $# -gt 0 ] && [ "$1" != "--error-exitcode" ]; do shift; done
shift 2
exec "$@"
SH
chmod +x "$tmp/tools/"*
FAKE_PROBE="$tmp/tools/fake-probe" CUDA_VISIBLE_DEVICES=0 PATH="$tmp/fake:$tmp/tools:$PATH" \
  bash "$script" --out "$tmp/good.json" --work "$tmp/good" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] || fail "good figures: exit $rc, want 0: $(cat "$tmp/err")"
grep -q "^PASS *read vs peak: 4250.0 GB/s is 86.4% of the computed peak 4917.0 GB/s" "$tmp/err" ||
  fail "good figures: no verdict: $(cat "$tmp/err")"
python3 - "$tmp/good.json" <<'PY' || fail "good report: $(cat "$tmp/good.json")"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["failed_steps"] == [], r["failed_steps"]
assert r["skipped_steps"] == ["ncu_paged_kernel", "ncu_read_kernel"], r["skipped_steps"]
assert "permission" in r["ncu_paged_kernel"]["skipped"], r["ncu_paged_kernel"]
v = {x["check"]: x["status"] for x in r["verdicts"]["verdicts"]}
assert v["read vs peak"] == "PASS" and v["read 1 GiB vs 16 GiB"] == "PASS", v
assert v["ncu DRAM bytes"] == "SKIPPED", v
assert r["memcheck"]["exit"] == 0 and r["default"]["limit_s"] > 0, r["memcheck"]
p = r["provenance"]
assert p["matched_by_pci_bus_id"] is True, p
assert p["nvidia_smi_match"].startswith("0, 00000000:19:00.0, NVIDIA H200"), p
assert p["cuda_device"]["pci_bus_id"] == "0000:19:00.0", p
assert "CUDA_VISIBLE_DEVICES=0" in p["environment"], p
assert p["clocks_during_run"][0].endswith("1980 MHz, 3201 MHz, 650.00 W, 45, 0x0000000000000000"), p
assert p["processes_after"] == ["00000000:19:00.0, 4242, other-job, 1024 MiB"], p
assert r["budget_s"] == 600 and r["seconds_before_report"] < 600, r
PY
FAKE_PROBE="$tmp/tools/fake-probe" FAKE_PROBE_READ=5100.0 PATH="$tmp/fake:$tmp/tools:$PATH" \
  bash "$script" --out "$tmp/bad.json" --work "$tmp/bad" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 1 ] || fail "above the peak: exit $rc, want 1: $(cat "$tmp/err")"
grep -q "^FAIL *read vs peak: 5100.0 GB/s is 103.7% of the computed peak" "$tmp/err" ||
  fail "above the peak: no verdict: $(cat "$tmp/err")"
python3 -c "import json,sys; r=json.load(open(sys.argv[1])); assert r['failed_steps'] == ['judge'], r['failed_steps']" \
  "$tmp/bad.json" || fail "above the peak: failed steps"

# 6. A probe that hangs: with a 20 s budget the run is stopped at what is
# left of it less the 10 s kept for the verdicts and the report, the rest
# skipped, and the script is done within the budget (and the kill grace).
t0=$(date +%s)
FAKE_PROBE="$tmp/tools/fake-probe" FAKE_PROBE_MODE=hang PATH="$tmp/fake:$tmp/tools:$PATH" \
  bash "$script" --budget 20 --out "$tmp/hang.json" --work "$tmp/hang" >"$tmp/out" 2>"$tmp/err"
rc=$?
took=$(($(date +%s) - t0))
[ "$rc" -eq 1 ] || fail "hang: exit $rc, want 1: $(cat "$tmp/err")"
[ "$took" -le 25 ] || fail "hang: took $took s with a 20 s budget"
grep -q "default: timed out after" "$tmp/err" || fail "hang: $(cat "$tmp/err")"
python3 - "$tmp/hang.json" <<'PY' || fail "hang report: $(cat "$tmp/hang.json")"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["default"]["timed_out"] is True, r["default"]
assert "size16g" in r["skipped_steps"], r["skipped_steps"]
# what had no time left failed too: a check not run is not passed
assert r["failed_steps"][:2] == ["default", "size16g"], r["failed_steps"]
assert r["failed_steps"][-1] == "judge", r["failed_steps"]
PY
echo ok
