#!/usr/bin/env bash
# The man page against the program: it renders without warnings (groff, and
# mandoc -Tlint where installed), every command `kvtutor --help` lists has its
# synopsis line, and every flag each `kvtutor CMD --help` prints is in it.
# The lists come from the program's own help, so a new command or flag
# without its man page line fails here.
#
#   test_man.sh KVTUTOR MANPAGE
set -u
kvt=${1:?usage: test_man.sh KVTUTOR MANPAGE}
page=${2:?usage: test_man.sh KVTUTOR MANPAGE}
work=$(mktemp -d /tmp/kvt_man.XXXXXX)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $1"; fail=$((fail + 1)); }

# rendered wide and without hyphenation, so that no flag is split
if command -v groff >/dev/null; then
  if groff -man -Tutf8 -ww -z "$page" 2>"$work/warn" && [ ! -s "$work/warn" ]; then
    ok; echo "ok: groff renders it without a warning"
  else
    bad "groff warns:"; sed 's/^/  | /' "$work/warn"
  fi
  groff -man -Tutf8 -rLL=300n -rHY=0 -P-cbou "$page" 2>/dev/null >"$work/text"
elif command -v man >/dev/null; then
  MANWIDTH=300 man -l "$page" 2>/dev/null | sed 's/.\x08//g' >"$work/text"
else
  echo "note: neither groff nor man is installed; checking the roff source"
  sed 's/\\-/-/g; s/\\f[BIRP]//g' "$page" >"$work/text"
fi
if [ "$(wc -l <"$work/text")" -lt 100 ]; then
  bad "the page rendered to $(wc -l <"$work/text") lines"
fi
if command -v mandoc >/dev/null; then
  if mandoc -Tlint -W warning "$page" >"$work/lint" 2>&1; then
    ok; echo "ok: mandoc -Tlint finds nothing"
  else
    bad "mandoc -Tlint:"; sed 's/^/  | /' "$work/lint"
  fi
else
  echo "note: mandoc is not installed; lint skipped"
fi

# --flag or -f as a whole token: not inside a longer flag
has_flag() { grep -qE -- "(^|[^A-Za-z0-9_-])$1([^A-Za-z0-9_-]|\$)" "$work/text"; }
flags_of() { grep -oE -- "(^|[^A-Za-z0-9_-])--?[a-z][a-z0-9-]*" | sed 's/^[^-]*//' | sort -u; }

"$kvt" --help >"$work/help" 2>&1
cmds=$(sed -n '/^Commands:/,/^$/p' "$work/help" | awk 'NR > 1 && NF { print $1 }')
if [ "$(printf '%s\n' "$cmds" | grep -c .)" -lt 10 ]; then
  bad "kvtutor --help listed only: $cmds"
fi
for f in $(flags_of <"$work/help"); do
  if has_flag "$f"; then ok; else bad "kvtutor --help's $f is not in the man page"; fi
done
for c in $cmds; do
  if grep -qE "^ *kvtutor $c( |\$)" "$work/text"; then ok; else bad "no synopsis line 'kvtutor $c'"; fi
  "$kvt" "$c" --help >"$work/cmd" 2>&1
  for f in $(flags_of <"$work/cmd"); do
    if has_flag "$f"; then ok; else bad "kvtutor $c: $f is not in the man page"; fi
  done
done
for s in NAME SYNOPSIS DESCRIPTION COMMANDS "EXIT STATUS" ENVIRONMENT FILES; do
  if grep -qx "$s" "$work/text"; then ok; else bad "no $s section"; fi
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
