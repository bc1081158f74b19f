#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Compares the TUI's Sched panel, as a terminal shows it (a tmux capture),
with `ftlens sched -F csv` for the same scope: every CPU, task, latency
class, worst wakeup and interrupt row, figure by figure.

usage: tui_sched_compare.py SCREEN CSV [SPAN]
SPAN: the span column's value to take from a --per-span CSV (0: the whole
trace). Prints what differs and exits 1; exits 0 when all is equal."""
import csv
import io
import sys


def us_to_ns(text):
    """'1234.567' (microseconds to the nanosecond) -> '1234567'; '-' -> ''."""
    if text == "-":
        return ""
    if "." not in text:
        return "not a duration: " + text
    neg = text.startswith("-")
    whole, frac = text.lstrip("-").split(".")
    ns = int(whole) * 1000 + int(frac)
    return str(-ns if neg else ns)


def csv_tables(path, span):
    """The CSV's tables by their first column name, rows of the span."""
    tables = {}
    with open(path, newline="") as f:
        for block in f.read().split("\n\n"):
            if not block.strip():
                continue
            rows = list(csv.DictReader(io.StringIO(block)))
            if not rows:
                continue
            keys = list(rows[0].keys())
            name = keys[1] if keys[0] == "span" else keys[0]
            if "span" in keys:
                rows = [r for r in rows if r["span"] == str(span)]
            tables[name] = rows
    return tables


def screen_sections(path):
    """The panel's sections: title -> the rows under its column line."""
    sections, cur = {}, None
    with open(path) as f:
        lines = [l.rstrip("\n") for l in f]
    titles = ("CPUs", "Tasks by", "Wakeup latency", "Worst wakeups", "Interrupts")
    i = 0
    while i < len(lines):
        l = lines[i]
        t = next((t for t in titles if l.startswith(t)), None)
        if t:
            cur = sections.setdefault(t, [])
            i += 2  # the title, the column line
            continue
        if cur is not None and l.strip():
            cur.append(l)
        elif cur is not None:
            cur = None
        i += 1
    return sections


def main():
    screen, csvfile = sys.argv[1], sys.argv[2]
    span = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    want = csv_tables(csvfile, span)
    got = screen_sections(screen)
    bad = []
    compared = 0

    def same(what, g, w):
        nonlocal compared
        compared += 1
        if g != w:
            bad.append(f"{what}: panel {g!r}, sched --csv {w!r}")

    def count(section, table):
        rows, wrows = got.get(section, []), want.get(table, [])
        if len(rows) != len(wrows):
            bad.append(f"{section}: {len(rows)} rows on the panel, {len(wrows)} in the CSV")
        return zip(rows, wrows)

    for g, w in count("CPUs", "cpu"):
        f = g.split()
        what = f"CPU {w['cpu']}"
        same(what + " cpu", f[0], w["cpu"])
        for k, col in zip(f[1:5], ("busy_ns", "idle_ns", "hardirq_ns", "softirq_ns")):
            same(f"{what} {col}", us_to_ns(k), w[col])
        same(what + " switches", f[5], w["switches"])
        same(what + " lost", f[6] if f[6] != "?" else "", w["lost_events"])
        same(what + " window_ns", us_to_ns(f[7]), w["window_ns"])
    # the panel's default order is sched's default (run)
    for g, w in count("Tasks by", "pid"):
        pid, comm, rest = g[:7].strip(), g[8:24].rstrip(), g[24:].split()
        what = f"task {w['pid']}"
        same(what + " pid", pid, w["pid"])
        # the CSV writer quotes a cell a spreadsheet would take for a formula
        wcomm = w["comm"][1:] if w["comm"][:2] in ("'=", "'+", "'-", "'@") else w["comm"]
        same(what + " comm", comm, wcomm[:16].rstrip())
        same(what + " run_ns", us_to_ns(rest[0]), w["run_ns"])
        same(what + " wait_ns", us_to_ns(rest[1]), w["wait_ns"])
        same(what + " lat_max_ns", us_to_ns(rest[2]), w["lat_max_ns"])
        same(what + " wakeups", rest[3], w["wakeups"])
        same(what + " switches", rest[4], w["switches"])
        same(what + " lat_avg_ns", us_to_ns(rest[5]), w["lat_avg_ns"])
        same(what + " sleep_ns", us_to_ns(rest[6]), w["sleep_ns"])
    for g, w in count("Wakeup latency", "class"):
        f = g.split()
        what = f"latency {w['class']}"
        same(what + " class", f[0], w["class"])
        same(what + " count", f[1], w["count"])
        for k, col in zip(f[2:], ("min_ns", "avg_ns", "p50_ns", "p95_ns", "p99_ns", "max_ns")):
            same(f"{what} {col}", us_to_ns(k), w[col])
    for g, w in count("Worst wakeups", "rank"):
        f = g.split()
        what = f"worst #{w['rank']}"
        same(what + " rank", f[0], w["rank"])
        same(what + " latency_ns", us_to_ns(f[1]), w["latency_ns"])
        same(what + " wake_ts", f[2], "%d.%06d" % divmod(int(w["wake_ts_ns"]) // 1000, 1000000))
        same(what + " cpu", f[3], w["cpu"])
        same(what + " pid", f[4], w["pid"])
        same(what + " waker_pid", g[60:67].strip().replace("-", "", 1) if g[60:67].strip() == "-" else g[60:67].strip(), w["waker_pid"])
        # woken by: the waker's name too (the CSV leaves it empty without a waker)
        same(what + " waker_comm", g[68:].rstrip(), w["waker_comm"])
    for g, w in count("Interrupts", "kind"):
        f = g.split()
        what = f"{w['kind']} {w['id']}"
        same(what + " kind", f[0], w["kind"])
        same(what + " id", f[1], w["id"])
        r = g[35:].split()
        same(what + " count", r[0], w["count"])
        for k, col in zip(r[1:], ("total_ns", "min_ns", "max_ns")):
            same(f"{what} {col}", us_to_ns(k), w[col])
    for b in bad[:20]:
        print(b)
    print(f"{compared} figures compared, {len(bad)} differ")
    return 1 if bad or not compared else 0


if __name__ == "__main__":
    sys.exit(main())
