#!/bin/sh
# The copied CUDA probe starts on the oldest glibc it names: `--version`
# states it, and `objdump -T` of the built program lists no GLIBC_ symbol
# version above it (a static libgcc's _dl_find_object, GLIBC_2.35, once
# did). Skipped when the probe is not built or objdump is missing.
# usage: test_glibc_floor.sh build/libexec/kvtutor/kvtutor-probe-cuda
set -u
probe=$1
fail() {
  echo "FAIL: $*"
  exit 1
}
if [ ! -x "$probe" ]; then
  echo "ok (no CUDA probe built: skipped)"
  exit 0
fi
command -v objdump >/dev/null 2>&1 || {
  echo "ok (no objdump: skipped)"
  exit 0
}
said=$("$probe" --version) || fail "--version: exit $?"
floor=$(printf '%s\n' "$said" | sed -n 's/.* glibc \([0-9][0-9]*\.[0-9][0-9]*\) or newer.*/\1/p')
[ -n "$floor" ] || fail "--version names no glibc: $said"
# The newest version any dynamic symbol needs: sort -V puts it last.
newest=$(objdump -T "$probe" | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -n 1)
[ -n "$newest" ] || fail "objdump -T lists no GLIBC symbol version"
top=$(printf '%s\n%s\n' "$floor" "$newest" | sort -V | tail -n 1)
if [ "$top" != "$floor" ]; then
  fail "the probe needs glibc $newest, above the $floor it states: $(objdump -T "$probe" |
    grep "GLIBC_$newest" | head -n 5)"
fi
echo "ok (newest symbol version GLIBC_$newest, stated floor $floor)"
