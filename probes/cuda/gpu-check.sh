#!/usr/bin/env bash
# gpu-check.sh: the whole check of the CUDA probe on a machine with an NVIDIA
# GPU, in one command, ending in one JSON report (docs/probes.md says what
# to expect on an H200 and what to do with the figures).
#
#   probes/cuda/gpu-check.sh [--out FILE] [--work DIR] [--device N]
#
# It needs nvidia-smi, nvcc (on PATH or in /usr/local/cuda/bin) and python3;
# not the app's other libraries: the probe is built with nvcc alone. Steps:
#   1. the GPU as nvidia-smi sees it;
#   2. the probe built for this GPU's architecture (nvidia-smi's compute_cap)
#      with -Werror=all-warnings,
#      ptxas -v's registers and spills kept;
#   3. the probe at its default sizes, then with a 16 GiB read buffer;
#   4. compute-sanitizer (memcheck, racecheck) on a --small run, if present;
#   5. ncu on a --small run, if present: waves per SM, the occupancy limits,
#      registers, and DRAM bytes read against the bytes the probe claims;
#   6. one JSON report (default gpu-check.json).
# Exit: 0 all steps ran and passed, 1 a step failed (the report says which),
# 2 usage, 3 no usable GPU here: no nvidia-smi or no device (nothing is
# built or run), or the probe itself exits 3 (the report has its reason).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=gpu-check.json
work=
device=0
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="${2:?--out needs a file}"; shift ;;
    --work) work="${2:?--work needs a folder}"; shift ;;
    --device) device="${2:?--device needs a number}"; shift ;;
    -h|--help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "gpu-check: $1: unknown option (see --help)" >&2; exit 2 ;;
  esac
  shift
done
case "$device" in
  ''|*[!0-9]*) echo "gpu-check: --device $device: not a whole number" >&2; exit 2 ;;
esac

say() { printf 'gpu-check: %s\n' "$*" >&2; }

# ---- 1. is there a GPU at all ----
if ! command -v nvidia-smi >/dev/null 2>&1; then
  say "no nvidia-smi on PATH: no NVIDIA driver is installed here, so there is no GPU to check"
  exit 3
fi
if ! smi=$(nvidia-smi --query-gpu=index,name,compute_cap,driver_version,memory.total,memory.free,ecc.mode.current,mig.mode.current --format=csv,noheader 2>&1) ||
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
# the chosen GPU's compute capability, "9.0" -> sm_90
cc=$(printf '%s\n' "$smi" | awk -F', *' -v d="$device" '$1 == d { print $3 }')
case "$cc" in
  [0-9]*.[0-9]*) arch="sm_${cc/./}" ;;
  *) say "nvidia-smi lists no GPU $device (--device)"; exit 2 ;;
esac
cuda_bin=$(dirname "$nvcc")

[ -n "$work" ] || work=$(mktemp -d "${TMPDIR:-/tmp}/gpu-check.XXXXXX")
mkdir -p "$work"
say "working in $work"
printf '%s\n' "$smi" >"$work/nvidia-smi.csv"
"$nvcc" --version >"$work/nvcc.txt" 2>&1 || true

failed=()
step() { # step NAME COMMAND...: runs it, keeps stdout, stderr, exit status, seconds
  local name=$1 rc=0 t0 t1
  shift
  say "$name: $*"
  t0=$(date +%s.%N)
  "$@" >"$work/$name.out" 2>"$work/$name.err" || rc=$?
  t1=$(date +%s.%N)
  printf '%s\n' "$rc" >"$work/$name.rc"
  python3 -c "print(round($t1 - $t0, 3))" >"$work/$name.seconds"
  if [ "$rc" -ne 0 ]; then
    failed+=("$name")
    say "$name: exit $rc (see $work/$name.err)"
  fi
  return 0
}

# ---- 2. build for this GPU ----
probe="$work/kvtutor-probe-cuda"
step build "$nvcc" -O3 -std=c++17 -arch="$arch" -Werror=all-warnings \
  -Xcompiler=-Wall,-Wextra -Xptxas -v -o "$probe" "$here/cuda_probe.cu"
if [ ! -x "$probe" ]; then
  say "the probe did not build; nothing else can run"
fi

run_probe() { "$probe" --device "$device" "$@"; }

no_gpu=
if [ -x "$probe" ]; then
  # ---- 3. the measurements ----
  step default run_probe
  if [ "$(cat "$work/default.rc")" -eq 3 ]; then
    # the probe's own verdict: a GPU nvidia-smi lists but CUDA cannot use
    no_gpu=$(head -n 1 "$work/default.out")
    say "the probe finds no usable GPU: $no_gpu"
  fi
fi
if [ -x "$probe" ] && [ -z "$no_gpu" ]; then
  step size16g run_probe --size-mib 16384
  # a small decode step keeps the tools' runs short
  small=(--small --layers 2 --context 512 --batch 2 --vocab 32000)

  # ---- 4. compute-sanitizer ----
  sanitizer=$(find_tool compute-sanitizer "$cuda_bin")
  if [ -n "$sanitizer" ]; then
    step memcheck "$sanitizer" --tool memcheck --error-exitcode 9 "$probe" --device "$device" "${small[@]}"
    step racecheck "$sanitizer" --tool racecheck --error-exitcode 9 "$probe" --device "$device" "${small[@]}"
  else
    say "compute-sanitizer not found: skipped"
  fi

  # ---- 5. ncu ----
  ncu=$(find_tool ncu "$cuda_bin")
  if [ -n "$ncu" ]; then
    metrics=launch__waves_per_multiprocessor,launch__occupancy_limit_registers,launch__occupancy_limit_warps,launch__occupancy_limit_blocks,launch__occupancy_limit_shared_mem,launch__registers_per_thread,launch__grid_size,launch__block_size,sm__warps_active.avg.pct_of_peak_sustained_active,dram__bytes_read.sum
    for k in read_kernel paged_kernel; do
      step "ncu_$k" "$ncu" --kernel-name "$k" --launch-count 3 --metrics "$metrics" --csv \
        --print-units base \
        "$probe" --device "$device" "${small[@]}"
    done
  else
    say "ncu not found: skipped"
  fi
fi

# ---- 6. the report ----
python3 - "$work" "$out" "${failed[@]}" <<'PY'
import csv, io, json, os, re, socket, sys, time

work, out, failed = sys.argv[1], sys.argv[2], sys.argv[3:]

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
            "lines": lines, "other_output": other[-200:],
            "stderr_tail": (text(name + ".err") or "").splitlines()[-20:]}

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
