#!/bin/sh
# The screens call the tutor layer, base and the pure engines, never the
# store, the lesson sandbox, the probe supervisor, the config reader or the
# serving simulator (the playground's serving view goes through tutor_sim.h),
# nor SQLite, Lua or jansson: every rule that records, rates, schedules or
# counts lives below them (docs/architecture.md). Reads the ui library's
# undefined symbols and fails naming each one that is a function of a layer
# the screens may not call.
#   ui_calls.sh LIBKVT_UI.a LIB_FORBIDDEN.a...
set -eu
ui=$1
shift
nm=${NM:-nm}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$nm" -g --defined-only "$@" 2>/dev/null | awk 'NF == 3 && $2 ~ /^[TDBRC]$/ {print $3}' |
  sort -u >"$tmp/forbidden"
"$nm" -u "$ui" | awk '{print $NF}' | sort -u >"$tmp/called"
[ -s "$tmp/forbidden" ] || { echo "ui_calls: no symbols read from $*" >&2; exit 1; }
[ -s "$tmp/called" ] || { echo "ui_calls: no undefined symbols in $ui" >&2; exit 1; }
comm -12 "$tmp/forbidden" "$tmp/called" >"$tmp/bad"
grep -E '^(sqlite3_|lua_|luaL_|luaopen_|json_)' "$tmp/called" >>"$tmp/bad" || true
if [ -s "$tmp/bad" ]; then
  echo "the screens call below the tutor layer:" >&2
  sed 's/^/  /' "$tmp/bad" >&2
  exit 1
fi
echo "ui calls $(wc -l <"$tmp/called") functions, none of store, lx, probe, hfconfig or sim"
