#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The `graph --by file|dir` rows as computed from the plain graph's CSV
and a placement of each function made without ftlens's symbols
(source_oracle.py's PLACES.CSV): each row's call path of functions becomes
a path of groups, consecutive equal groups merged into one; a row whose
function's group is its caller's adds its self time to that group's node,
any other row is an entry into a group node and adds its calls, total,
self, min, max and repairs. Names opening with '[' keep their name.

usage: source_graph_oracle.py PLACES.CSV GRAPH.CSV
Prints path,depth,function,calls,total_ns,self_ns,min_ns,max_ns,repaired
rows sorted by path (ftlens's CSV columns), each group node once."""

import csv
import sys

places = {r["function"]: r["source"] for r in csv.DictReader(open(sys.argv[1]))}
rows = list(csv.DictReader(open(sys.argv[2])))


def group(f):
    return f if f.startswith("[") else places.get(f, "(unknown)")


def num(v):
    return int(v) if v not in ("", None) else None


nodes = {}
for r in rows:
    funcs = r["path"].split(";")
    gpath = []
    for f in funcs:
        g = group(f)
        if not gpath or gpath[-1] != g:
            gpath.append(g)
    key = ";".join(gpath)
    n = nodes.setdefault(key, {"calls": 0, "total": None, "self": None, "min": None,
                               "max": None, "rep": 0, "depth": len(gpath) - 1,
                               "name": gpath[-1]})
    merged = len(funcs) > 1 and group(funcs[-2]) == group(funcs[-1])
    n["rep"] += int(r["repaired"])
    s = num(r["self_ns"])
    if s is not None:
        n["self"] = (n["self"] or 0) + s
    if merged:
        continue
    n["calls"] += int(r["calls"])
    t = num(r["total_ns"])
    if t is not None:
        n["total"] = (n["total"] or 0) + t
    lo, hi = num(r["min_ns"]), num(r["max_ns"])
    if lo is not None:
        n["min"] = lo if n["min"] is None else min(n["min"], lo)
        n["max"] = hi if n["max"] is None else max(n["max"], hi)


def out(v):
    return "" if v is None else str(v)


print("path,depth,function,calls,total_ns,self_ns,min_ns,max_ns,repaired")
for key in sorted(nodes):
    n = nodes[key]
    timed = n["total"] is not None
    print(",".join([key, str(n["depth"]), n["name"], str(n["calls"]),
                    out(n["total"]), out(n["self"] if timed else None),
                    out(n["min"]), out(n["max"]), str(n["rep"])]))
