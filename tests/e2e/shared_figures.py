#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Checks that every view of one input prints the same shared figures:
lost events per CPU (null, "unknown", distinct from 0), events and event
lines per CPU, spans, and the whole trace's sums.

usage: shared_figures.py INFO.json REPORT.json SCHED.json TIMELINE.svg|-

INFO.json is `ftlens info --format json`; its per-CPU rows (cpu_details)
are the reference. The others must agree: info's own "quality" rows and
totals, report's "quality" rows, "cpus" table and totals, sched's
whole-trace CPU rows (lost events), the timeline's subtitle ("N events
lost" or "unknown events lost") and the diagnostics' lost-events entry.
Prints one line per disagreement, then "ok N figures" or exits 1."""
import json
import re
import sys

FIELDS = ("events", "event_lines", "first_ts_ns", "last_ts_ns", "lost_lines", "lost_events")


def lost_sum(values):
    """The sum of lost-events figures: None (unknown) when one is."""
    total = 0
    for v in values:
        if v is None:
            return None
        total += v
    return total


def main():
    info = json.load(open(sys.argv[1]))
    report = json.load(open(sys.argv[2]))
    sched = json.load(open(sys.argv[3])) if sys.argv[3] != "-" else None
    svg = open(sys.argv[4]).read() if sys.argv[4] != "-" else None
    bad = []
    n = 0

    def same(what, got, want):
        nonlocal n
        n += 1
        # None (unknown) never equals 0: compare types as well as values
        if got != want or (got is None) != (want is None):
            bad.append("%s: %r != %r" % (what, got, want))

    ref = {c["cpu"]: c for c in info["cpu_details"]}
    for c in info["quality"]["cpus"]:
        for f in FIELDS:
            same("info quality cpu %d %s" % (c["cpu"], f), c.get(f), ref.get(c["cpu"], {}).get(f))
    same("info quality CPUs", sorted(c["cpu"] for c in info["quality"]["cpus"]), sorted(ref))
    same("info cpus (event lines)", {int(k): v for k, v in info["cpus"].items()},
         {k: c["event_lines"] for k, c in ref.items()})

    for c in report["quality"]["cpus"]:
        for f in FIELDS:
            same("report quality cpu %d %s" % (c["cpu"], f), c.get(f), ref.get(c["cpu"], {}).get(f))
    same("report quality CPUs", sorted(c["cpu"] for c in report["quality"]["cpus"]), sorted(ref))
    rows = report.get("cpus", [])
    # the table leaves the cpu of events without one (-1) empty
    def cpu_of(c):
        return -1 if c.get("cpu") is None else c["cpu"]
    same("report cpus table CPUs", sorted(cpu_of(c) for c in rows), sorted(ref))
    for c in rows:
        cpu = cpu_of(c)
        for f in FIELDS:
            if f == "lost_lines":
                continue
            same("report cpus table cpu %d %s" % (cpu, f), c.get(f), ref.get(cpu, {}).get(f))
        if c.get("first_ts_ns") is not None:
            same("report cpus table cpu %d span" % cpu, c.get("span_ns"),
                 c["last_ts_ns"] - c["first_ts_ns"])

    # the whole trace: sums of the rows, earliest first and latest last
    cpus = list(ref.values())
    firsts = [c["first_ts_ns"] for c in cpus if c["first_ts_ns"] is not None]
    lasts = [c["last_ts_ns"] for c in cpus if c["last_ts_ns"] is not None]
    total = {
        "events": sum(c["events"] for c in cpus),
        "lost_lines": sum(c["lost_lines"] for c in cpus),
        "lost_events": lost_sum(c["lost_events"] for c in cpus),
        "first_ts_ns": min(firsts) if firsts else None,
        "last_ts_ns": max(lasts) if lasts else None,
    }
    for f, want in total.items():
        same("info total %s" % f, info[f], want)
        same("report total %s" % f, report[f], want)
    same("report total event_lines", report["event_lines"], sum(c["event_lines"] for c in cpus))

    # the anomaly summary says the same loss, counted once
    diag = info["diagnostics"].get("lost_events")
    if total["lost_events"] is None:
        same("diagnostics: a lost_events entry for an unknown loss", diag is not None, True)
    else:
        same("diagnostics lost_events amount", diag["amount"] if diag else 0, total["lost_events"])

    if sched is not None:
        scope = sched["cpus"]
        if scope and "span" in scope[0]:
            scope = [c for c in scope if c["span"] == 0]
        for c in scope:
            if c["cpu"] in ref:
                same("sched cpu %d lost_events" % c["cpu"], c["lost_events"],
                     ref[c["cpu"]]["lost_events"])
        if svg is not None:
            m = re.search(r"CPUs; (\d+|unknown) events lost", svg)
            got = None if not m or m.group(1) == "unknown" else int(m.group(1))
            same("timeline subtitle found", m is not None, True)
            same("timeline subtitle lost events", got,
                 lost_sum(c["lost_events"] for c in scope))
    for b in bad:
        print(b)
    print("%s %d figures" % ("ok" if not bad else "FAILED", n))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
