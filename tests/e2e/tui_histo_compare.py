#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Compares a TUI histogram screen (H in Functions, Graph, Sched, Markers)
with what a command prints for the same values.

  tui_histo_compare.py SCREEN durations DAT [P50 P95 P99]
  tui_histo_compare.py SCREEN latency DAT CLASS [P50 P95 P99]
  tui_histo_compare.py SCREEN values JSON LIST FIELD [P50 P95 P99]

durations: `plot durations`'s data (its first block: bin centre, calls,
width). latency: `plot latency`'s data, the block of CLASS (normal or RT:
box centre, % of the class's wakeups, box width, the box the part'th of
the classes drawn side by side in its bin). values: every value FIELD of
the list LIST of a command's JSON (markers --span's spans' duration_ns),
each counted in the log bin that holds it, as the plots and the TUI count
(analysis/histo.h): the plots' data and this oracle are both exact.

P50 P95 P99 (ns, from the command's CSV): the screen's title shows them,
and marks the bins that hold them. Without them, the bins where the
cumulative count crosses 50, 95 and 99 % are the ones marked."""
import json
import math
import re
import sys

BINS = 10  # a decade of microseconds


def fmt(ns):
    """ftl_duration_format (util/timefmt.c)"""
    a = abs(ns)
    if a < 1000:
        return "%d ns" % ns
    if a < 999999.5:
        return "%.3f us" % (ns / 1e3)
    if a < 999999500.0:
        return "%.3f ms" % (ns / 1e6)
    return "%.3f s" % (ns / 1e9)


def decade(ns):
    return math.floor(math.log10(max(ns, 1) / 1000.0) * BINS)


def bound(us):
    """as the TUI prints a bin's bound: four digits, never an exponent"""
    return "%.0f" % float("%.4g" % us) if us >= 1000 else "%.4g" % us


def bounds(b):
    return bound(10 ** (b / BINS)), bound(10 ** ((b + 1) / BINS))


def screen_rows(path):
    rows, on, title = [], False, ""
    for line in open(path):
        if re.search(r": \d+ [a-z ]+.*  p50 ", line):
            title = line
        if line.strip().startswith("FROM us"):
            on = True
            continue
        f = line.split()
        if on and len(f) >= 3 and f[2].isdigit():
            rows.append((f[0], f[1], int(f[2]), [t for t in f[3:] if t in ("p50", "p95", "p99")]))
        elif on:
            break
    return title, rows


def blocks(path):
    """gnuplot data blocks: [(header, [fields])]"""
    out = []
    for line in open(path):
        if line.startswith("# index"):
            out.append((line, []))
        elif out and line.strip() and not line.startswith("#"):
            out[-1][1].append([float(x) for x in line.split()])
    return out


def want_durations(dat):
    bl = [b for b in blocks(dat) if "histogram" in b[0]][0][1]
    want = []
    for c, n, w in bl:
        lo = (-w + math.sqrt(w * w + 4 * c * c)) / 2  # centre = sqrt(lo * hi)
        want.append((bound(lo), bound(lo + w), int(n)))
    return want


def want_latency(dat, cls):
    hist = [b for b in blocks(dat) if "histogram" in b[0]]
    parts = len(hist)
    part = [i for i, b in enumerate(hist) if re.search(r": %s histogram" % cls, b[0])]
    if not part:
        sys.exit("no %s block in %s" % (cls, dat))
    k = part[0]
    n = int(re.search(r"title '%s \((\d+)\)'" % cls, open(dat[:-4] + ".gp").read()).group(1))
    want = []
    for c, pct, w in hist[k][1]:
        x0 = c - w / 2
        b = round((math.log10(x0) - k / parts / BINS) * BINS)
        want.append(bounds(b) + (round(pct * n / 100),))
    return want


def want_values(path, key, field):
    counts = {}
    for item in json.load(open(path))[key]:
        if item.get(field) is None:
            continue
        b = decade(item[field])
        counts[b] = counts.get(b, 0) + 1
    if not counts:
        return []
    return [bounds(b) + (counts.get(b, 0),) for b in range(min(counts), max(counts) + 1)]


def main():
    screen, kind = sys.argv[1], sys.argv[2]
    if kind == "durations":
        want, rest = want_durations(sys.argv[3]), sys.argv[4:]
    elif kind == "latency":
        want, rest = want_latency(sys.argv[3], sys.argv[4]), sys.argv[5:]
    else:
        want, rest = want_values(sys.argv[3], sys.argv[4], sys.argv[5]), sys.argv[6:]
    title, rows = screen_rows(screen)
    # the screen writes a run of empty bins as one row: empty bins aside
    rows = [r for r in rows if r[2]]
    want = [w for w in want if w[2]]
    bad = []
    if len(rows) != len(want):
        bad.append(f"{len(rows)} bins on the screen, {len(want)} in the data")
    for g, w in zip(rows, want):
        if g[:3] != tuple(w):
            bad.append(f"bin {g[:3]} on the screen, {tuple(w)} in the data")
    total = sum(w[2] for w in want)
    marked_want = {}
    if rest:
        pv = [int(x) for x in rest]
        for p, v in zip((50, 95, 99), pv):
            shown = re.search(r"p%d (\S+ \S+)" % p, title)
            if not shown or shown.group(1) != fmt(v):
                bad.append(f"p{p}: the title shows {shown and shown.group(1)}, the CSV {fmt(v)}")
            marked_want[p] = bounds(decade(v))[0]
    else:
        seen = 0
        for w in want:
            before, seen = seen, seen + w[2]
            for p in (50, 95, 99):
                if before < math.ceil(p / 100 * total) <= seen:
                    marked_want[p] = w[0]
    for p in (50, 95, 99):
        at = [r[0] for r in rows if f"p{p}" in r[3]]
        if at != [marked_want.get(p)]:
            bad.append(f"p{p} marked at {at}, expected at {marked_want.get(p)}")
    print("\n".join(bad) if bad else f"{len(want)} bins, {total} values, p50/p95/p99 in place: the same")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
