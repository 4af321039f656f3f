#!/usr/bin/env bash
# gpu-check.sh: the whole check of the CUDA probe on a machine with an NVIDIA
# GPU, in one command, ending in one JSON report (docs/probes.md says what
# to expect on an H200 and what to do with the figures).
#
#   probes/cuda/gpu-check.sh [--out FILE] [--work DIR] [--device N] [--budget S]
#
# It needs nvidia-smi, nvcc (on PATH or in /usr/local/cuda/bin), python3 and
# timeout; not the app's other libraries: the probe is built with nvcc alone.
# Steps, each under `timeout`, all within --budget seconds (600 at most):
#   1. the GPU as nvidia-smi sees it, and the provenance: the source
#      revision and hash, driver and CUDA versions, persistence, ECC, MIG,
#      clocks and throttle reasons, other processes on the GPU,
#      CUDA_VISIBLE_DEVICES;
#   2. the probe built for the GPUs' architectures (nvidia-smi's
#      compute_cap) with -Werror=all-warnings, ptxas -v's registers and
#      spills kept;
#   3. the probe at its default sizes, then with a 16 GiB read buffer, the
#      SM and memory clocks sampled meanwhile; the CUDA device matched to
#      nvidia-smi's by PCI bus id;
#   4. ncu, if present, on a --small run: the shuffled gather at block 16
#      (DRAM bytes read against those claimed), and the read kernel (waves
#      per SM, occupancy limits, registers); without counter permission it
#      is skipped, not failed;
#   5. compute-sanitizer (memcheck, racecheck) on a --small run, if present;
#   6. the verdicts (gpu_judge.py): PASS/FAIL per figure, with the rule;
#   7. one JSON report (default gpu-check.json).
# Exit: 0 every step ran (or was skipped for want of its tool or of counter
# permission) and every verdict passed, 1 a step or a verdict failed, or a
# step ran out of time or had none left (the report says which),
# 2 usage, 3 no usable GPU here: no nvidia-smi or no device (nothing is
# built or run), or the probe itself exits 3 (the report has its reason).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=gpu-check.json
work=
device=0
budget=600
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="${2:?--out needs a file}"; shift ;;
    --work) work="${2:?--work needs a folder}"; shift ;;
    --device) device="${2:?--device needs a number}"; shift ;;
    --budget) budget="${2:?--budget needs seconds}"; shift ;;
    -h|--help) sed -n '2,32p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "gpu-check: $1: unknown option (see --help)" >&2; exit 2 ;;
  esac
  shift
done
case "$device" in
  ''|*[!0-9]*) echo "gpu-check: --device $device: not a whole number" >&2; exit 2 ;;
esac
case "$budget" in
  ''|*[!0-9]*) echo "gpu-check: --budget $budget: not a whole number" >&2; exit 2 ;;
esac
if [ "$budget" -lt 20 ] || [ "$budget" -gt 600 ]; then
  echo "gpu-check: --budget $budget: from 20 to 600 seconds" >&2
  exit 2
fi

say() { printf 'gpu-check: %s\n' "$*" >&2; }

# ---- 1. is there a GPU at all ----
if ! command -v nvidia-smi >/dev/null 2>&1; then
  say "no nvidia-smi on PATH: no NVIDIA driver is installed here, so there is no GPU to check"
  exit 3
fi
# The whole run ends by the deadline: every step's limit is what is left of
# it, less what the verdicts and the report need, so no step can push the
# script past --budget however it hangs.
t_start=$(date +%s)
deadline=$((t_start + budget))
reserve=10 # seconds kept for the verdicts and the report
left() { echo $((deadline - $(date +%s) - reserve)); }
command -v timeout >/dev/null 2>&1 || { say "timeout (coreutils) is needed to bound each step"; exit 1; }
# nvidia-smi can hang on a GPU in a bad state: bounded like every step
smi_q() { timeout -k 2 20 nvidia-smi "$@"; }
if ! smi=$(smi_q --query-gpu=index,name,compute_cap,driver_version,memory.total,memory.free,ecc.mode.current,mig.mode.current --format=csv,noheader 2>&1) ||
  [ -z "$smi" ] || ! printf '%s\n' "$smi" | grep -q '^[0-9]'; then
  say "nvidia-smi sees no usable GPU: $(printf '%s' "$smi" | head -n 1)"
  exit 3
fi
# a tool on PATH, else beside nvcc / in /usr/local/cuda/bin; "" when neither
find_tool() {
  local t
  t=$(command -v "$1" 2>/dev/null || true)
  if [ -z "$t" ] && [ -x "$2/$1" ]; then
    t="$2/$1"
  fi
  printf '%s' "$t"
}
nvcc=$(find_tool nvcc /usr/local/cuda/bin)
if [ -z "$nvcc" ]; then
  say "nvcc not found (PATH, /usr/local/cuda/bin): install the CUDA toolkit to build the probe"
  exit 1
fi
command -v python3 >/dev/null 2>&1 || { say "python3 is needed to write the report"; exit 1; }
# --device is a CUDA ordinal, which need not be nvidia-smi's index (CUDA
# puts the fastest GPU first unless CUDA_DEVICE_ORDER=PCI_BUS_ID): the probe
# is built for every listed GPU's compute capability, "9.0" -> sm_90, and the
# report matches the device by PCI bus id.
n_gpus=$(printf '%s\n' "$smi" | grep -c '^[0-9]')
if [ "$device" -ge "$n_gpus" ]; then
  say "nvidia-smi lists no GPU $device (--device): $n_gpus GPU(s)"
  exit 2
fi
gencode=()
for cc in $(printf '%s\n' "$smi" | awk -F', *' '/^[0-9]/ { print $3 }' | sort -u); do
  case "$cc" in
    [0-9]*.[0-9]*) gencode+=(-gencode "arch=compute_${cc/./},code=sm_${cc/./}") ;;
    *) say "nvidia-smi gives no compute capability ($cc)"; exit 2 ;;
  esac
done
cuda_bin=$(dirname "$nvcc")

[ -n "$work" ] || work=$(mktemp -d "${TMPDIR:-/tmp}/gpu-check.XXXXXX")
mkdir -p "$work"
say "working in $work"
printf '%s\n' "$smi" >"$work/nvidia-smi.csv"
timeout -k 2 30 "$nvcc" --version >"$work/nvcc.txt" 2>&1 || true

# ---- provenance: what the figures were measured with ----
{
  printf 'CUDA_VISIBLE_DEVICES=%s\n' "${CUDA_VISIBLE_DEVICES-<unset>}"
  printf 'CUDA_DEVICE_ORDER=%s\n' "${CUDA_DEVICE_ORDER-<unset>}"
} >"$work/env.txt"
git -C "$here" describe --always --dirty >"$work/revision.txt" 2>/dev/null || : >"$work/revision.txt"
# the hash stands for the revision where the files were copied without git
(cd "$here" && cat cuda_probe.cu probe_kernels.cuh ../common/*.h gpu-check.sh gpu_judge.py) |
  sha256sum | awk '{ print $1 }' >"$work/sources.sha256" 2>/dev/null || true
smi_q --query-gpu=index,pci.bus_id,name,driver_version,persistence_mode,ecc.mode.current,mig.mode.current,compute_mode,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,power.draw,power.limit,temperature.gpu \
  --format=csv,noheader >"$work/gpus.csv" 2>&1 || true
# the throttle reasons' field was renamed (clocks_event_reasons, driver 535+)
reasons=clocks_event_reasons.active
smi_q --query-gpu=index,$reasons --format=csv,noheader >"$work/reasons.csv" 2>&1 ||
  { reasons=clocks_throttle_reasons.active
    smi_q --query-gpu=index,$reasons --format=csv,noheader >"$work/reasons.csv" 2>&1 || reasons=; }
smi_q --query-compute-apps=gpu_bus_id,pid,process_name,used_memory --format=csv,noheader \
  >"$work/processes-before.csv" 2>&1 || true

failed=()
skipped=()
# step NAME LIMIT COMMAND...: runs a program (not a shell function: timeout
# execs it) under timeout, keeps stdout, stderr, exit status, seconds
step() {
  local name=$1 limit=$2 rc=0 t0 t1 room
  shift 2
  room=$(left)
  [ "$room" -lt "$limit" ] && limit=$room
  if [ "$limit" -lt 5 ]; then
    # a check that could not run is not a check passed
    skipped+=("$name")
    failed+=("$name")
    printf 'out of time\n' >"$work/$name.skipped"
    say "$name: skipped: the ${budget} s budget is spent"
    return 0
  fi
  say "$name (at most $limit s): $*"
  t0=$(date +%s.%N)
  timeout -k 5 "$limit" "$@" >"$work/$name.out" 2>"$work/$name.err" || rc=$?
  t1=$(date +%s.%N)
  printf '%s\n' "$rc" >"$work/$name.rc"
  printf '%s\n' "$limit" >"$work/$name.limit"
  awk -v t0="$t0" -v t1="$t1" 'BEGIN { printf "%.3f\n", t1 - t0 }' >"$work/$name.seconds"
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    printf 'timed out after %s s\n' "$limit" >"$work/$name.timedout"
    say "$name: timed out after $limit s"
  fi
  if [ "$rc" -ne 0 ]; then
    failed+=("$name")
    say "$name: exit $rc (see $work/$name.err)"
  fi
  return 0
}
# A profiler the driver keeps from the counters (common in containers)
# cannot check anything: its step is skipped, not failed.
unfail_no_counters() {
  local name=$1 f kept=()
  grep -q 'ERR_NVGPUCTRPERM' "$work/$name.out" "$work/$name.err" 2>/dev/null || return 0
  for f in "${failed[@]}"; do
    [ "$f" = "$name" ] || kept+=("$f")
  done
  failed=("${kept[@]}")
  skipped+=("$name")
  printf 'no permission to read the GPU performance counters\n' >"$work/$name.skipped"
  say "$name: skipped: no permission to read the GPU's performance counters"
}
# Clocks, power, temperature and throttle reasons every half second while
# the measurements run, for every GPU (the report keeps the probe's by bus id).
sampler=
sample_start() {
  timeout -k 2 "$(($(left) > 5 ? $(left) : 5))" nvidia-smi \
    --query-gpu=timestamp,index,pci.bus_id,clocks.sm,clocks.mem,power.draw,temperature.gpu${reasons:+,$reasons} \
    --format=csv,noheader -lms 500 >"$work/clocks.csv" 2>&1 &
  sampler=$!
}
sample_stop() {
  if [ -n "$sampler" ]; then
    kill "$sampler" 2>/dev/null || true
    wait "$sampler" 2>/dev/null || true
    sampler=
  fi
}
trap sample_stop EXIT

# ---- 2. build for these GPUs ----
probe="$work/kvtutor-probe-cuda"
step build 300 "$nvcc" -O3 -std=c++17 "${gencode[@]}" -Werror=all-warnings \
  -Xcompiler=-Wall,-Wextra -Xptxas -v -o "$probe" "$here/cuda_probe.cu"
if [ ! -x "$probe" ]; then
  say "the probe did not build; nothing else can run"
fi

no_gpu=
if [ -x "$probe" ]; then
  # ---- 3. the measurements ----
  sample_start
  step default 240 "$probe" --device "$device"
  if [ "$(cat "$work/default.rc" 2>/dev/null || echo 0)" -eq 3 ]; then
    # the probe's own verdict: a GPU nvidia-smi lists but CUDA cannot use
    no_gpu=$(head -n 1 "$work/default.out")
    say "the probe finds no usable GPU: $no_gpu"
  fi
fi
if [ -x "$probe" ] && [ -z "$no_gpu" ]; then
  step size16g 180 "$probe" --device "$device" --size-mib 16384
fi
sample_stop
smi_q --query-compute-apps=gpu_bus_id,pid,process_name,used_memory --format=csv,noheader \
  >"$work/processes-after.csv" 2>&1 || true
if [ -x "$probe" ] && [ -z "$no_gpu" ]; then
  # a small decode step keeps the tools' runs short
  small=(--small --layers 2 --context 512 --batch 2 --vocab 32000)

  # ---- 4. ncu ----
  ncu=$(find_tool ncu "$cuda_bin")
  if [ -n "$ncu" ]; then
    metrics=launch__waves_per_multiprocessor,launch__occupancy_limit_registers,launch__occupancy_limit_warps,launch__occupancy_limit_blocks,launch__occupancy_limit_shared_mem,launch__registers_per_thread,launch__grid_size,launch__block_size,sm__warps_active.avg.pct_of_peak_sustained_active,dram__bytes_read.sum
    # --paged-block 16 leaves out the contiguous control, so the first
    # paged launches are the shuffled gather at block 16 (its warm-up)
    step ncu_paged_kernel 150 "$ncu" --kernel-name paged_kernel --launch-count 3 \
      --metrics "$metrics" --csv --print-units base \
      "$probe" --device "$device" "${small[@]}" --paged-block 16
    unfail_no_counters ncu_paged_kernel
    step ncu_read_kernel 120 "$ncu" --kernel-name read_kernel --launch-count 3 \
      --metrics "$metrics" --csv --print-units base \
      "$probe" --device "$device" "${small[@]}" --paged-block 16
    unfail_no_counters ncu_read_kernel
  else
    say "ncu not found: skipped"
  fi

  # ---- 5. compute-sanitizer ----
  sanitizer=$(find_tool compute-sanitizer "$cuda_bin")
  if [ -n "$sanitizer" ]; then
    step memcheck 150 "$sanitizer" --tool memcheck --error-exitcode 9 "$probe" --device "$device" "${small[@]}"
    step racecheck 150 "$sanitizer" --tool racecheck --error-exitcode 9 "$probe" --device "$device" "${small[@]}"
  else
    say "compute-sanitizer not found: skipped"
  fi
fi

# ---- 6. the verdicts ----
if [ -z "$no_gpu" ] && [ -e "$work/default.rc" ]; then
  ncu_args=()
  # the judge reads ncu's own words: no counter permission is its SKIPPED
  if [ -e "$work/ncu_paged_kernel.rc" ]; then
    ncu_args=(--ncu "$work/ncu_paged_kernel.out" --ncu-err "$work/ncu_paged_kernel.err"
      --ncu-rc "$(cat "$work/ncu_paged_kernel.rc")")
  fi
  size_args=()
  [ -e "$work/size16g.rc" ] && size_args=(--size16g "$work/size16g.out")
  # the judge runs in the time kept back for it
  reserve=0 step judge 30 python3 "$here/gpu_judge.py" --default "$work/default.out" \
    --default-rc "$(cat "$work/default.rc")" "${size_args[@]}" "${ncu_args[@]}" \
    --json "$work/verdicts.json"
  cat "$work/judge.out" >&2 2>/dev/null || true
fi

# ---- 7. the report ----
report_s=$((deadline - $(date +%s)))
[ "$report_s" -ge 5 ] || report_s=5
timeout -k 2 "$report_s" python3 - "$work" "$out" "$budget" "$(($(date +%s) - t_start))" "${skipped[*]-}" "${failed[@]}" <<'PY'
import csv, io, json, os, re, socket, sys, time

work, out, budget, elapsed, skipped, failed = (sys.argv[1], sys.argv[2], int(sys.argv[3]),
                                               int(sys.argv[4]), sys.argv[5].split(), sys.argv[6:])

def text(name):
    try:
        with open(os.path.join(work, name), errors="replace") as f:
            return f.read()
    except OSError:
        return None

def step(name):
    rc = text(name + ".rc")
    if rc is None:
        return None
    lines, other = [], []
    for line in (text(name + ".out") or "").splitlines():
        try:
            lines.append(json.loads(line))
        except ValueError:
            other.append(line)
    return {"exit": int(rc), "seconds": float(text(name + ".seconds") or 0),
            "limit_s": int(text(name + ".limit") or 0),
            "timed_out": text(name + ".timedout") is not None,
            "skipped": (text(name + ".skipped") or "").strip() or None,
            "lines": lines, "other_output": other[-200:],
            "stderr_tail": (text(name + ".err") or "").splitlines()[-20:]}

def rows(name):
    return [l for l in (text(name) or "").splitlines() if l.strip()]

def bus(b):
    """nvidia-smi says 00000000:19:00.0, CUDA 0000:19:00.0: one spelling."""
    parts = (b or "").strip().lower().split(":")
    if len(parts) != 3:
        return None
    try:
        return "%04x:%s:%s" % (int(parts[0], 16), parts[1], parts[2])
    except ValueError:
        return None

def provenance(default):
    dev = next((l for l in (default or {}).get("lines", []) if l.get("type") == "device"), {})
    cuda_bus = bus(dev.get("pci_bus_id"))
    gpus = rows("gpus.csv")
    match = [g for g in gpus if bus((g.split(", ") + ["", ""])[1]) == cuda_bus] if cuda_bus else []
    clocks = rows("clocks.csv")
    mine = [c for c in clocks if cuda_bus and bus((c.split(", ") + ["", "", ""])[2]) == cuda_bus]
    return {
        "revision": (text("revision.txt") or "").strip() or None,
        "sources_sha256": (text("sources.sha256") or "").strip() or None,
        "environment": rows("env.txt"),
        "cuda_device": {"pci_bus_id": dev.get("pci_bus_id"), "name": dev.get("name"),
                        "driver_version": dev.get("driver_version"),
                        "runtime_version": dev.get("runtime_version"),
                        "ecc": dev.get("ecc"), "mig": dev.get("mig")},
        # index, bus id, name, driver, persistence, ECC, MIG, compute mode,
        # clocks now and at most, power, temperature
        "nvidia_smi_gpus": gpus,
        "nvidia_smi_match": match[0] if match else None,
        "matched_by_pci_bus_id": bool(match),
        "throttle_reasons": rows("reasons.csv"),
        "clocks_during_run": mine or clocks[:400],
        "processes_before": rows("processes-before.csv"),
        "processes_after": rows("processes-after.csv"),
    }

def ncu(name, claimed):
    s = step(name)
    if s is None:
        return None
    raw = "\n".join(s.pop("other_output"))
    rows = [r for r in csv.DictReader(io.StringIO(raw[raw.find('"ID"'):])) if r.get("Metric Name")] if '"ID"' in raw else []
    launches = {}
    for r in rows:
        launches.setdefault(r["ID"], {"kernel": r.get("Kernel Name", "")})[r["Metric Name"]] = r["Metric Value"]
    for l in launches.values():
        try:
            read = float(l["dram__bytes_read.sum"].replace(",", ""))
            l["bytes_claimed"] = claimed
            l["dram_read_over_claimed"] = round(read / claimed, 4) if claimed else None
        except (KeyError, ValueError):
            pass
    s["launches"] = list(launches.values())
    s["dram_bytes_unit"] = next((r.get("Metric Unit") for r in rows if r["Metric Name"] == "dram__bytes_read.sum"), None)
    return s

ptx = [l.strip() for l in (text("build.err") or "").splitlines() if "ptxas info" in l or "spill" in l]
report = {
    "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    "host": socket.gethostname(),
    "nvidia_smi": (text("nvidia-smi.csv") or "").splitlines(),
    "nvcc": (text("nvcc.txt") or "").splitlines()[-2:],
    "ptxas": ptx,
    "spills": [l for l in ptx
               if any(int(n) for n in re.findall(r"(\d+) bytes spill (?:stores|loads)", l))],
    "build": step("build"),
    "default": step("default"),
    "size16g": step("size16g"),
    "memcheck": step("memcheck"),
    "racecheck": step("racecheck"),
    # --small: a 64 MiB read buffer and a 64 MiB paged pool per launch
    "ncu_read_kernel": ncu("ncu_read_kernel", 64 << 20),
    "ncu_paged_kernel": ncu("ncu_paged_kernel", 64 << 20),
    "judge": step("judge"),
    "verdicts": json.loads(text("verdicts.json") or "null"),
    "provenance": provenance(step("default")),
    "budget_s": budget,
    "seconds_before_report": elapsed,
    "skipped_steps": skipped,
    "failed_steps": failed,
}
for k in ("build",):
    if report[k]:
        report[k].pop("lines", None)
with open(out, "w") as f:
    json.dump(report, f, indent=2)
    f.write("\n")
print("gpu-check: report in %s%s" % (out, "; failed: " + ", ".join(failed) if failed else ""),
      file=sys.stderr)
PY
[ -z "$no_gpu" ] || exit 3
[ ${#failed[@]} -eq 0 ] || exit 1
