#!/usr/bin/env bash
# Builds the Debian package from the build folder as it stands (cpack installs
# what is built; it compiles nothing), checks its name and dependencies,
# unpacks it with dpkg-deb -x into a temporary folder and runs kvtutor from
# there (check_tree.sh). Exit 77 (skipped) where dpkg-deb or cpack is absent.
#
#   test_deb.sh BUILD_DIR VERSION
set -u
build=${1:?usage: test_deb.sh BUILD_DIR VERSION}
version=${2:?usage: test_deb.sh BUILD_DIR VERSION}
here=$(cd "$(dirname "$0")" && pwd)
cpack=${CPACK:-cpack}
for tool in "$cpack" dpkg-deb; do
  if ! command -v "$tool" >/dev/null; then
    echo "skipped: $tool is not installed"
    exit 77
  fi
done
work=$(mktemp -d /tmp/kvt_deb.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail=0

if ! (cd "$build" && "$cpack" -G DEB -B "$work/out") >"$work/cpack.log" 2>&1; then
  echo "FAIL: cpack -G DEB"; sed 's/^/  | /' "$work/cpack.log" | tail -20
  exit 1
fi
deb="$work/out/kvtutor_${version}_amd64.deb"
if [ -f "$deb" ]; then
  echo "ok: $(basename "$deb") built"
else
  echo "FAIL: no kvtutor_${version}_amd64.deb; cpack wrote:"; ls "$work/out"
  exit 1
fi
# every shared library kvtutor links comes from a package it depends on
depends=$(dpkg-deb -f "$deb" Depends)
for p in libc6 libncursesw6 libtinfo6 libsqlite3-0 liblua5.4-0 libjansson4; do
  if printf '%s\n' "$depends" | tr ',' '\n' | sed 's/^ *//; s/ .*//' | grep -qx "$p"; then
    echo "ok: depends on $p"
  else
    echo "FAIL: Depends ($depends) lacks $p"; fail=1
  fi
done
if [ "$(dpkg-deb -f "$deb" Architecture)" = amd64 ]; then
  echo "ok: architecture amd64"
else
  echo "FAIL: architecture $(dpkg-deb -f "$deb" Architecture)"; fail=1
fi

mkdir "$work/root"
dpkg-deb -x "$deb" "$work/root"
bash "$here/check_tree.sh" "$work/root/usr" || fail=1
exit "$fail"
