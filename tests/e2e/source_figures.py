#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""One selection, one set of figures by source: on every sample given and
every flag set selection_matrix.py makes of it, `report --by dir` sums to
the plain report's calls and self time (the function table's rows), and
its self time per directory equals `graph --by dir`'s nodes' self times
summed by directory; a selection the plain report refuses is refused the
same way (exit status) with --by.

usage: source_figures.py FTLENS VMLINUX SAMPLE...
Prints "ok/not ok - ..." lines and a summary; exits 1 on any mismatch."""

import csv
import io
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from selection_matrix import flag_sets, run  # noqa: E402


def section(text, name):
    """The rows of CSV table name in a report's CSV."""
    lines, on = [], False
    for line in text.splitlines():
        if line == "# " + name:
            on = True
        elif on and not line:
            break
        elif on:
            lines.append(line)
    return list(csv.DictReader(io.StringIO("\n".join(lines))))


def num(v):
    return int(v) if v not in ("", None) else 0


def main():
    ftlens, vml = sys.argv[1], sys.argv[2]
    failures, checks = [], 0
    for sample in sys.argv[3:]:
        for fname, flags in flag_sets(ftlens, sample) or []:
            what = "%s %s" % (os.path.basename(os.path.dirname(sample)) + "/" +
                              os.path.basename(sample), fname)
            c1, plain, _ = run([ftlens, "report", "--format", "csv"] + flags + [sample])
            c2, by, err2 = run([ftlens, "report", "--by", "dir", "--format", "csv",
                                "--vmlinux", vml] + flags + [sample])
            c3, graph, _ = run([ftlens, "graph", "--by", "dir", "--format", "csv",
                                "--vmlinux", vml] + flags + [sample])
            checks += 1
            if c1 or c2:
                if c1 != c2:
                    failures.append("%s: report exit %d, report --by dir exit %d: %s" %
                                    (what, c1, c2, err2.decode()[:200]))
                continue
            fn = section(plain.decode(), "functions")
            src = section(by.decode(), "sources")
            calls = (sum(num(r["calls"]) for r in fn), sum(num(r["calls"]) for r in src))
            self_ = (sum(num(r.get("self_ns")) for r in fn), sum(num(r.get("self_ns")) for r in src))
            got = {}
            for r in csv.DictReader(io.StringIO(graph.decode())) if c3 == 0 else []:
                got[r["function"]] = got.get(r["function"], 0) + num(r["self_ns"])
            want = {r["source"]: num(r.get("self_ns")) for r in src if num(r.get("self_ns"))}
            got = {k: v for k, v in got.items() if v}
            ok = calls[0] == calls[1] and self_[0] == self_[1] and got == want
            print("%s - %s: calls %d, self %d ns; %d directories with self time" %
                  ("ok" if ok else "not ok", what, calls[1], self_[1], len(want)))
            if not ok:
                failures.append("%s: report calls/self %s/%s, --by %s/%s; graph --by dir %s vs %s"
                                % (what, calls[0], self_[0], calls[1], self_[1],
                                   sorted(got.items())[:5], sorted(want.items())[:5]))
    for f in failures:
        print("not ok - " + f)
    print("%d passed, %d failed" % (checks - len(failures), len(failures)))
    sys.exit(1 if failures or not checks else 0)


if __name__ == "__main__":
    main()
