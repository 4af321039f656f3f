#!/usr/bin/env bash
# Installs the Debian packages kvtutor needs (only those missing), then
# configures and builds. Quiet when everything is already there.
#
#   ./setup.sh                      build into build/
#   ./setup.sh --sanitize           AddressSanitizer + UndefinedBehaviorSanitizer
#   ./setup.sh --build-dir DIR      build somewhere else
#
# With CI=true in the environment, warnings are errors.
set -euo pipefail
cd "$(dirname "$0")"

build=build
cmake_args=(-DCMAKE_BUILD_TYPE=RelWithDebInfo)
while [ $# -gt 0 ]; do
  case "$1" in
    --sanitize) cmake_args+=(-DKVT_SANITIZE=ON) ;;
    --build-dir) build="${2:?--build-dir needs a folder}"; shift ;;
    -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "setup.sh: $1: unknown option (see ./setup.sh --help)" >&2; exit 2 ;;
  esac
  shift
done
if [ "${CI:-}" = true ]; then
  cmake_args+=(-DKVT_WERROR=ON)
fi

packages=(gcc make cmake pkg-config libjansson-dev libsqlite3-dev liblua5.4-dev libcmocka-dev
  libncurses-dev clang-format locales tmux sqlite3 python3)

sudo=()
if [ "$(id -u)" -ne 0 ]; then
  sudo=(sudo)
fi
as_root() {
  if [ ${#sudo[@]} -gt 0 ] && ! command -v sudo >/dev/null; then
    echo "setup.sh: need root or sudo to run: $*" >&2
    exit 1
  fi
  "${sudo[@]}" "$@"
}

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup.sh: installing ${missing[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

# The tests read numbers under a decimal-comma locale to prove the locale never
# changes them.
if ! locale -a 2>/dev/null | grep -qix 'de_DE\.utf-\?8'; then
  echo "setup.sh: generating the de_DE.UTF-8 locale"
  as_root sed -i 's/^# *\(de_DE\.UTF-8 UTF-8\)/\1/' /etc/locale.gen
  grep -q '^de_DE\.UTF-8 UTF-8' /etc/locale.gen || echo 'de_DE.UTF-8 UTF-8' | as_root tee -a /etc/locale.gen >/dev/null
  as_root locale-gen >/dev/null
fi

# nvcc lives outside PATH in a default CUDA install; CMake finds it there.
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH="$PATH:/usr/local/cuda/bin"
fi

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
if ! { cmake -S . -B "$build" "${cmake_args[@]}" && cmake --build "$build" -j "$(nproc)"; } >"$log" 2>&1; then
  cat "$log" >&2
  echo "setup.sh: the build failed (output above)" >&2
  exit 1
fi
