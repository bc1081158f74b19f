#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Generated traces with known values, and ftlens's percentile (ftlens(1),
PERCENTILES) worked out here from the values, for t2047.

  pctl_oracle.py gen DIR
      writes DIR/fgraph.txt (function_graph: few 100 calls, edge 256,
      over 257, many 1000), DIR/events.txt (nop: wakeups of a normal task,
      300, and of an RT one, 40; trace_marker spans B|10|big 400 times and
      B|10|small 30 times) and DIR/values.json (every value by name:
      functions, latency classes normal and rt, span keys and "(all)").
  pctl_oracle.py want VALUES.json NAME
      prints NAME's p50 p95 p99 in ns.
  pctl_oracle.py fmt NS...
      prints each as the TUI shows a duration (ftl_duration_format), on
      one line, separated by |.
  pctl_oracle.py row CSV KEY
      prints p50_ns p95_ns p99_ns of the first row whose first field is
      KEY in a section of a command's CSV that has those columns.
  pctl_oracle.py title SCREEN
      prints the p50|p95|p99 a TUI histogram's title shows.

The definition, written again from the man page, not from the C: the value
at rank ceil(p/100 * n) of the sorted values; up to 256 values that value;
beyond, the midpoint of the log-linear/32 bucket holding the rank, within
the exact min and max, and rank 1 and n the min and max."""
import csv
import json
import math
import re
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tui_histo_compare import fmt  # noqa: E402  ftl_duration_format, as the TUI shows

EXACT_MAX = 256


def bucket(v):
    """log-linear/32: a bucket each below 64, then 32 a power of two"""
    if v < 64:
        return v, v + 1
    e = v.bit_length() - 1
    width = 1 << (e - 5)
    lo = v - (v % width)
    return lo, lo + width


def pct(values, p):
    v = sorted(values)
    n = len(v)
    rank = max(1, -(-p * n // 100))
    if n <= EXACT_MAX or rank in (1, n):
        return v[rank - 1]
    lo, hi = bucket(v[rank - 1])
    return max(v[0], min(lo + (hi - lo) // 2, v[-1]))


def durations(r, n, lo_us, hi_us):
    """n durations in ns, log-uniform, some repeated"""
    out = []
    for i in range(n):
        if out and r.random() < 0.1:
            out.append(out[-1])
        else:
            out.append(int(10 ** r.uniform(math.log10(lo_us * 1000), math.log10(hi_us * 1000))))
    return out


def mark(us):
    return "#" if us > 1000 else "!" if us > 100 else "+" if us > 10 else " "


def gen(d):
    r = random.Random(2047)
    values = {}
    calls = []
    for name, n in (("few", 100), ("edge", 256), ("over", 257), ("many", 1000)):
        values[name] = durations(r, n, 0.2, 900)
        calls += [(name, v) for v in values[name]]
    r.shuffle(calls)
    with open(f"{d}/fgraph.txt", "w") as f:
        f.write("# tracer: function_graph\n#\n"
                "#     TIME        CPU  TASK/PID         DURATION                  FUNCTION CALLS\n"
                "#      |          |     |    |           |   |                     |   |   |   |\n")
        t = 1000 * 10**9
        for name, ns in calls:
            t += ns + 5000
            us = ns / 1000
            dur = f"{mark(us)} {ns // 1000}.{ns % 1000:03d} us"
            f.write(f" {t // 10**9:5d}.{t % 10**9 // 1000:06d} |   0)     sh-97      | "
                    f"{dur:>13} |  {name}();\n")
    # events: us timestamps, so latencies and spans are whole us
    lines = []
    lat = {"normal": [], "rt": []}
    t = 100 * 10**6  # us
    wake = [("normal", "worker", 30, 120)] * 300 + [("rt", "rtask", 20, 10)] * 40
    r.shuffle(wake)
    for cls, comm, pid, prio in wake:
        l = int(10 ** r.uniform(0.5, 2.95))  # 3 us .. 0.9 ms: the TUI shows every ns
        lat[cls].append(l * 1000)
        lines.append((t, f"<idle>-0       [001] d..3", f"sched_waking: comm={comm} pid={pid} "
                      f"prio={prio} target_cpu=001"))
        lines.append((t + l, f"<idle>-0       [001] d..2", "sched_switch: prev_comm=swapper/1 "
                      f"prev_pid=0 prev_prio=120 prev_state=R ==> next_comm={comm} "
                      f"next_pid={pid} next_prio={prio}"))
        lines.append((t + l + 5, f"{comm}-{pid}       [001] d..2", f"sched_switch: prev_comm={comm} "
                      f"prev_pid={pid} prev_prio={prio} prev_state=S ==> next_comm=swapper/1 "
                      "next_pid=0 next_prio=120"))
        t += l + 20
    spans = {"big": [], "small": []}
    keys = ["big"] * 400 + ["small"] * 30
    r.shuffle(keys)
    t = 100 * 10**6 + 1
    for k in keys:
        s = int(10 ** r.uniform(0.3, 2.95))
        spans[k].append(s * 1000)
        lines.append((t, "worker-10      [000] ....", f"tracing_mark_write: B|10|{k}"))
        lines.append((t + s, "worker-10      [000] ....", "tracing_mark_write: E"))
        t += s + 7
    lines.sort(key=lambda x: x[0])
    with open(f"{d}/events.txt", "w") as f:
        f.write("# tracer: nop\n#\n"
                "#           TASK-PID     CPU#  ||||   TIMESTAMP  FUNCTION\n"
                "#              | |         |   ||||      |         |\n")
        for ts, who, what in lines:
            f.write(f"{who:>31} {ts // 10**6:4d}.{ts % 10**6:06d}: {what}\n")
    values.update(lat)
    values.update(spans)
    values["(all)"] = spans["big"] + spans["small"]
    json.dump(values, open(f"{d}/values.json", "w"))


def main():
    if sys.argv[1] == "gen":
        gen(sys.argv[2])
    elif sys.argv[1] == "want":
        v = json.load(open(sys.argv[2]))[sys.argv[3]]
        print(*(pct(v, p) for p in (50, 95, 99)))
    elif sys.argv[1] == "fmt":
        print("|".join(fmt(int(x)) for x in sys.argv[2:]))
    elif sys.argv[1] == "row":
        head = None
        for row in csv.reader(open(sys.argv[2])):
            if not row or row[0].startswith("#"):
                head = None
            elif head is None:
                head = row if "p50_ns" in row else []
            elif head and row[0] == sys.argv[3]:
                print(*(row[head.index(c)] for c in ("p50_ns", "p95_ns", "p99_ns")))
                return 0
        return 1
    elif sys.argv[1] == "title":
        for line in open(sys.argv[2]):
            m = re.search(r"  p50 (\S+ \S+)  p95 (\S+ \S+)  p99 (\S+ \S+)  max ", line)
            if m:
                print("|".join(m.groups()))
                return 0
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
