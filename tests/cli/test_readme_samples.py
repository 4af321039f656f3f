#!/usr/bin/env python3
"""The README's sample outputs, run: each ```text block whose first line is
"$ build/kvtutor ..." is the command and what it prints. The command is run
from the source folder with the kvtutor under test (a fresh HOME, so no
learner's database); every line of the block must be printed, in order,
with a line of "..." standing for any lines left out. The command must
exit 0 with nothing on stderr, unless an HTML comment on the line above the
block says which exit status it shows ("<!-- exit 1 -->": kvtutor ask's for
a wrong answer); the comment is not rendered. A sample that drifts from the
program fails here, naming the block and its first line that is no longer
printed, or its exit status and stderr.
    test_readme_samples.py KVTUTOR README.md
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile


EXIT_NOTE = re.compile(r"^<!-- exit (\d+) -->$")


def blocks(text):
    """(line number, command, expected lines, exit status) for each sample
    block."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```text" and i + 1 < len(lines) and lines[i + 1].startswith(
            "$ build/kvtutor "
        ):
            note = EXIT_NOTE.match(lines[i - 1].strip()) if i > 0 else None
            start = i + 1
            j = start + 1
            while j < len(lines) and lines[j].strip() != "```":
                j += 1
            yield start + 1, lines[start][2:], lines[start + 1 : j], int(note.group(1)) if note else 0
            i = j
        i += 1


def matches(expected, printed):
    """None when every expected line is printed in order (consecutive unless
    a "..." line stands between), else the first expected line missing."""
    at = 0
    free = True  # the first line is looked for anywhere
    for line in expected:
        if line.strip() == "...":
            free = True
            continue
        want = line.rstrip()
        if free:
            while at < len(printed) and printed[at].rstrip() != want:
                at += 1
            if at == len(printed):
                return line
        elif at >= len(printed) or printed[at].rstrip() != want:
            return line
        at += 1
        free = False
    return None


def main():
    kvtutor, readme = sys.argv[1], sys.argv[2]
    source = os.path.dirname(os.path.abspath(readme))
    with open(readme, encoding="utf-8") as f:
        text = f.read()
    failed = passed = 0
    with tempfile.TemporaryDirectory(prefix="kvt_readme.") as home:
        env = dict(os.environ, HOME=home, XDG_DATA_HOME=os.path.join(home, "data"), LANG="C.UTF-8",
                   LC_ALL="C.UTF-8", NO_COLOR="1")
        for lineno, command, expected, want_rc in blocks(text):
            argv = shlex.split(command)
            argv[0] = kvtutor
            run = subprocess.run(argv, cwd=source, env=env, capture_output=True, text=True,
                                 timeout=120)
            printed = ["$ " + command] + run.stdout.split("\n")
            missing = matches(["$ " + command] + expected, printed)
            if run.returncode != want_rc or run.stderr:
                failed += 1
                print(f"FAIL: README.md:{lineno}: {command}: exit {run.returncode} (the sample "
                      f"shows {want_rc}), stderr {run.stderr[:300]!r}")
            elif missing is None:
                passed += 1
                print(f"ok: README.md:{lineno}: {command}")
            else:
                failed += 1
                print(f"FAIL: README.md:{lineno}: {command}: no longer prints {missing!r}")
                print("  printed:")
                for p in run.stdout.split("\n")[:60]:
                    print("  | " + p)
    print(f"readme-samples: {passed} passed, {failed} failed")
    if passed == 0:
        print("readme-samples: no sample block found", file=sys.stderr)
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
