#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The `report --by file|dir` table as computed without ftlens's symbols:
the plain `report --format csv` function rows, each function placed in the
file binutils' addr2line -f -i names for the outermost level at the
function's address in System.map (the lowest, when a name has several),
or eu-addr2line's where the two differ (said on stdout), the kernel's
build directory cut (found from start_kernel's init/main.c).
Functions that System.map lacks or addr2line cannot place go to
"(unknown)".

usage: source_oracle.py VMLINUX SYSTEM.MAP REPORT.CSV BY OUT.CSV [PLACES.CSV]
Writes source,functions,calls,timed_calls,self_ns,total_ns rows (sorted
by source), and function,source rows to PLACES.CSV when given, and prints "placed N of M functions; D where ..." on stdout."""

import csv
import io
import re
import subprocess
import sys

vml, smap, report, by, out = sys.argv[1:6]
places = {}

# the functions section of the plain report's CSV
text = open(report).read()
section = re.search(r"(?ms)^# functions\n(.*?)(?:\n\n|\Z)", text).group(1)
rows = list(csv.DictReader(io.StringIO(section)))

addr = {}
for line in open(smap):
    a, t, name = line.split()[:3]
    if t in "tTwW" and (name not in addr or int(a, 16) < addr[name]):
        addr[name] = int(a, 16)

names = sorted(set(r["function"] for r in rows if r["function"] in addr)) + ["start_kernel"]


def outermost(tool):
    """name -> the file of the outermost level tool prints at its address."""
    p = subprocess.run([tool, "-a", "-f", "-i", "-e", vml] + ["0x%x" % addr[n] for n in names],
                       stdout=subprocess.PIPE, text=True, check=True)
    # "0x...." opens each address; then function and file:line[:column]
    # lines, innermost first: the last file line is the outermost level
    got, k = {}, -1
    for line in p.stdout.splitlines():
        if re.match(r"^0x[0-9a-f]+$", line):
            k += 1
        elif re.match(r"^\S+:(\d+|\?)(:\d+)?( \(discriminator \d+\))?$", line):
            f = line.split(":")[0]
            got[names[k]] = None if f == "??" else f
    return got


binutils, elfutils = outermost("addr2line"), outermost("eu-addr2line")
# the two disagree where binutils misreads a DWARF 5 file index (a
# tracepoint's functions: include/trace/events/sched.h:222 for binutils
# kernel/sched/core.c:222): elfutils' answer then, counted
files = dict(binutils)
differ = sorted(n for n in names if binutils.get(n) != elfutils.get(n))
for n in differ:
    files[n] = elfutils.get(n)
main = files.pop("start_kernel")
prefix = main[: -len("init/main.c")] if main and main.endswith("init/main.c") else ""


def short(path):
    if path.startswith(prefix):
        return path[len(prefix):]
    m = re.match(r"^/.*?/((?:arch|block|certs|crypto|drivers|fs|include|init|io_uring|ipc|"
                 r"kernel|lib|mm|net|rust|security|sound|virt)/.*)$", path)
    return m.group(1) if m else path


groups = {}
placed = 0
for r in rows:
    f = files.get(r["function"])
    if f and f != "??":
        placed += 1
        f = short(f)
        g = f if by == "file" else (f[: f.rfind("/") + 1] if "/" in f else f)
    else:
        g = "(unknown)"
    places[r["function"]] = g
    s = groups.setdefault(g, {"functions": set(), "calls": 0, "timed_calls": 0, "self_ns": 0,
                              "total_ns": 0})
    s["functions"].add(r["function"])
    s["calls"] += int(r["calls"])
    s["timed_calls"] += int(r.get("timed_calls") or 0)
    s["self_ns"] += int(r.get("self_ns") or 0)
    s["total_ns"] += int(r.get("total_ns") or 0)

with open(out, "w") as o:
    o.write("source,functions,calls,timed_calls,self_ns,total_ns\n")
    for g in sorted(groups):
        s = groups[g]
        o.write("%s,%d,%d,%d,%d,%d\n" % (g, len(s["functions"]), s["calls"], s["timed_calls"],
                                         s["self_ns"], s["total_ns"]))
if len(sys.argv) > 6:
    with open(sys.argv[6], "w") as o:
        o.write("function,source\n")
        for f in sorted(places):
            o.write("%s,%s\n" % (f, places[f]))
print("placed %d of %d functions; %d where eu-addr2line and addr2line differ (eu-addr2line's "
      "taken): %s" % (placed, len(rows), len(differ), " ".join(differ)))
