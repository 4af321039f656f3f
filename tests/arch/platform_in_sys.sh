#!/bin/sh
# What differs between systems lives in src/sys (docs/architecture.md):
# nothing else in src/ names /proc, pipe2, getrandom or a GNU extension.
#   platform_in_sys.sh SRC_DIR
set -eu
src=$1
bad=$(grep -rnE '/proc/|\bpipe2\b|\bgetrandom\b|_GNU_SOURCE' "$src" --include='*.[ch]' |
  grep -v "^$src/sys/" || true)
if [ -n "$bad" ]; then
  echo "platform code outside src/sys:" >&2
  echo "$bad" >&2
  exit 1
fi
echo "no platform code outside src/sys"
