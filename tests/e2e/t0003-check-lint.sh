#!/bin/sh
# The e2e scripts' own hygiene: `check DESC CMD...` runs one command, so
# `check DESC [ A ] && [ B ]` checks A alone and runs B outside the check,
# where its failure is lost. Conditions are combined inside the check, with
# `eval '...'` or `sh -c '...'`.
. "$(dirname "$0")/lib.sh"
plan 1
out=$(python3 - "$top_srcdir"/tests/e2e/*.sh <<'PY'
import re, sys

def strip(s):
    """Drops quoted strings and $(...) so that only top-level operators remain."""
    out, i, n = [], 0, len(s)
    while i < n:
        c = s[i]
        if c == "\\":
            i += 2
            continue
        if c == "'":
            j = s.find("'", i + 1)
            i = n if j < 0 else j + 1
            continue
        if c == "$" and i + 1 < n and s[i + 1] == "(":
            depth, i = 1, i + 2
            while i < n and depth:
                depth += {"(": 1, ")": -1}.get(s[i], 0)
                i += 1
            continue
        if c == '"':
            i += 1
            while i < n and s[i] != '"':
                if s[i] == "\\":
                    i += 1
                elif s[i] == "$" and i + 1 < n and s[i + 1] == "(":
                    depth, i = 1, i + 2
                    while i < n and depth:
                        depth += {"(": 1, ")": -1}.get(s[i], 0)
                        i += 1
                    continue
                i += 1
            i += 1
            continue
        out.append(c)
        i += 1
    return "".join(out)

bad = []
for path in sys.argv[1:]:
    lines = open(path).read().split("\n")
    i = 0
    while i < len(lines):
        start, stmt = i, lines[i]
        while stmt.rstrip().endswith("\\") and i + 1 < len(lines):
            i += 1
            stmt = stmt.rstrip()[:-1] + " " + lines[i].strip()
        s = strip(stmt.strip())
        if re.match(r"check\s", s) and re.search(r"&&|\|\|", s):
            bad.append("%s:%d" % (path.rsplit("/", 1)[-1], start + 1))
        i += 1
print(" ".join(bad))
PY
)
check "no check combines conditions outside itself${out:+ (at $out)}" [ -z "$out" ]
finish
