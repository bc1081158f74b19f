#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Checks ftlens against the truth bench/gen-fgraph.c wrote with a trace:
# `ftlens info` parses every line (no unparsed line) and counts the lines,
# event lines, events and markers the generator wrote; `ftlens report` rebuilds
# every call (none repaired, no diagnostic) and its per-function calls, total
# and self ns equal the truth exactly. Prints the first differences and exits
# 1 when anything differs.
#
# usage: bench/check-truth.sh TRACE TRUTH
# env:   FTLENS=path/to/ftlens (default: ./ftlens of this tree)
set -eu
[ $# -eq 2 ] || {
	echo "usage: check-truth.sh TRACE TRUTH" >&2
	exit 2
}
root=$(cd "$(dirname "$0")/.." && pwd)
ftlens=${FTLENS:-$root/ftlens}
command -v python3 >/dev/null || {
	echo "check-truth.sh: python3 is needed" >&2
	exit 2
}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ftl-truth.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
"$ftlens" info --format json "$1" >"$tmp/info.json"
"$ftlens" report --format json "$1" >"$tmp/report.json"
python3 - "$2" "$tmp/info.json" "$tmp/report.json" <<'PY'
import json, sys

meta, truth = {}, {}
with open(sys.argv[1]) as f:
    for line in f:
        line = line.rstrip("\n")
        if line.startswith("# "):
            k, v = line[2:].split(" ", 1)
            meta[k] = int(v)
        elif line and not line.startswith("function,"):
            name, calls, total, self_ns = line.rsplit(",", 3)
            truth[name] = (int(calls), int(total), int(self_ns))
info = json.load(open(sys.argv[2]))
rep = json.load(open(sys.argv[3]))
bad = []

def same(what, got, want):
    if got != want:
        bad.append("%s: ftlens %r, truth %r" % (what, got, want))

same("unparsed lines", info["unparsed_lines"], 0)
same("lines", info["total_lines"], meta["lines"])
same("event lines", info["event_lines"], meta["event_lines"])
same("events", info["events"], meta["events"])
same("markers", info["markers"], meta["markers"])
same("calls", rep["calls"], meta["calls"])
same("repaired calls", rep["repaired_calls"], 0)
same("diagnostics", rep["diagnostics"], {})
got = {}
for f in rep["functions"]:
    got[f["function"]] = (f["calls"], f["total_ns"], f["self_ns"])
    if f["timed_calls"] != f["calls"] or f["repaired"]:
        bad.append("%s: %d calls, %d timed, %d repaired" %
                   (f["function"], f["calls"], f["timed_calls"], f["repaired"]))
same("functions", len(got), len(truth))
for name in sorted(set(got) | set(truth)):
    if got.get(name) != truth.get(name):
        bad.append("%s: ftlens (calls, total, self) %s, truth %s" %
                   (name, got.get(name), truth.get(name)))
if bad:
    print("check-truth: %d differences, the first:" % len(bad))
    for b in bad[:20]:
        print("  " + b)
    sys.exit(1)
print("check-truth: %d lines, %d events, %d calls of %d functions: all equal" %
      (meta["lines"], meta["events"], meta["calls"], len(truth)))
PY
