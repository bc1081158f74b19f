# SPDX-License-Identifier: GPL-2.0-or-later
# event_counts.py report|dump FILE: the events of a `trace-cmd report` (or
# `report -N`) text or an `ftlens dump` text as sorted "NAME cpuN COUNT"
# lines, then "marker TEXT" lines for trace_marker writes, so that the two
# tools' views of one trace.dat compare with cmp. Instance prefixes
# ("NAME: ") of trace-cmd are dropped; ftlens's synthesized LOST events are
# not events of the file and are left out.
import collections
import re
import sys

side, path = sys.argv[1], sys.argv[2]
counts = collections.Counter()
markers = []
rep = re.compile(r"^\s*(?:\S+: )?.*?-(\d+)\s+\[(\d+)\]\s+\d+\.\d+:\s+(\S+):\s*(.*)$")
dmp = re.compile(r"^\s*\d+\.\d+\s+(\d+)\s+(\d+|-)\s.*?\s(\S+)\s+(\S+): ?(.*)$")
for line in open(path, errors="replace"):
    if side == "report":
        m = rep.match(line)
        if not m:
            continue
        cpu, name, rest = int(m.group(2)), m.group(3), m.group(4)
        if name == "print":
            markers.append(rest.split(": ", 1)[-1].strip())
    else:
        m = dmp.match(line)
        if not m or m.group(3) == "lost":
            continue
        cpu, name, rest = int(m.group(1)), m.group(4), m.group(5)
        if m.group(3) == "marker":
            markers.append(rest.split("text=", 1)[-1].strip())
    counts["%s cpu%d" % (name, cpu)] += 1
for k in sorted(counts):
    print(k, counts[k])
for t in sorted(markers):
    print("marker", t)
