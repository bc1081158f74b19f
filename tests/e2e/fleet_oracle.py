#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The serial oracle of `ftlens fleet` (tests/e2e/t2030-fleet.sh).

usage: fleet_oracle.py KIND MANIFEST FLEET_JSON [--by LABEL] [--truth]

Runs ftlens (FTLENS_BIN) on every file of MANIFEST, one after the other,
merges the results by itself (written apart from data/ftlens-fleet.py: its
own bucket sums, its own nearest rank in exact fractions) and compares every
figure of FLEET_JSON with its own. --truth also checks report's calls, total
and self against the generator's truth files (PATH.truth, bench/gen-fgraph.c
-t). Every JSON document read is validated against its schema
(FTL_SCHEMA_DIR, json_schema.py). Prints the number of figures compared and
of documents validated; exits 1 naming the first figures that differ."""

import csv
import datetime
import fractions
import json
import math
import os
import subprocess
import sys
from collections import defaultdict

from json_schema import validate

FTLENS = os.environ["FTLENS_BIN"]
VALIDATED = [0]


def ftlens_json(argv, path):
    p = subprocess.run([FTLENS] + argv + ["-F", "json", path], capture_output=True)
    if p.returncode:
        return None, p.stderr.decode("utf-8", "replace").strip().splitlines()[-1]
    doc = json.loads(p.stdout)
    validate(argv[0], doc)  # every JSON ftlens prints here, against data/schema/
    VALIDATED[0] += 1
    return doc, None


def manifest(path):
    base = os.path.dirname(os.path.abspath(path))
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            p = row.pop("path")
            yield os.path.join(base, p), row


def rank_value(buckets, count, lo_exact, hi_exact, pct):
    """Nearest rank ceil(pct/100 * count) over sorted (lo, hi, n); the
    bucket's middle, the exact extremes at ranks 1 and count."""
    r = math.ceil(fractions.Fraction(pct * count, 100))
    r = min(max(r, 1), count)
    if r == count:
        return hi_exact
    if r == 1:
        return lo_exact
    cum = 0
    for lo, hi, n in sorted(buckets):
        cum += n
        if cum >= r:
            return min(max((lo + hi) // 2, lo_exact), hi_exact)
    return hi_exact


class Figures:
    def __init__(self):
        self.n = 0
        self.bad = []

    def eq(self, what, mine, theirs):
        self.n += 1
        if mine != theirs:
            self.bad.append(f"{what}: oracle {mine!r}, fleet {theirs!r}")


def add_histo(acc, h):
    """acc: [count, sum, min, max, {(lo, hi): n}]"""
    if not h["count"]:
        return
    acc[0] += h["count"]
    acc[1] += h["sum_ns"]
    acc[2] = h["min_ns"] if acc[2] is None else min(acc[2], h["min_ns"])
    acc[3] = h["max_ns"] if acc[3] is None else max(acc[3], h["max_ns"])
    for lo, hi, n in h["buckets"]:
        acc[4][(lo, hi)] = acc[4].get((lo, hi), 0) + n


def pcts(acc):
    b = [(lo, hi, n) for (lo, hi), n in acc[4].items()]
    return [rank_value(b, acc[0], acc[2], acc[3], p) if acc[0] else None for p in (50, 95, 99)]


def oracle_report(items, fleet, by, truth, fig):
    acc = defaultdict(lambda: {"calls": 0, "timed": 0, "total": 0, "self": 0, "rep": 0,
                               "traces": 0, "h": [0, 0, None, None, {}], "worst": []})
    truth_sum = defaultdict(lambda: [0, 0, 0])
    failed = set()
    for path, labels in items:
        doc, err = ftlens_json(["report"], path)
        if doc is None:
            failed.add(path)
            continue
        g = labels.get(by, "") if by else "all"
        p99 = {r["function"]: r.get("p99_ns") for r in doc["functions"]}
        for r in doc["function_histograms"]:
            a = acc[(g, r["function"])]
            a["calls"] += r["calls"]
            a["timed"] += r["timed_calls"]
            a["total"] += r["total_ns"]
            a["self"] += r["self_ns"]
            a["rep"] += r["repaired"]
            a["traces"] += 1
            add_histo(a["h"], r["histogram"])
            if p99.get(r["function"]) is not None:
                a["worst"].append((-p99[r["function"]], path))
        if truth:
            with open(path + ".truth") as f:
                for line in f:
                    if line.startswith("#") or line.startswith("function,"):
                        continue
                    name, calls, total, self_ = line.rstrip("\n").split(",")
                    t = truth_sum[(g, name)]
                    t[0] += int(calls)
                    t[1] += int(total)
                    t[2] += int(self_)
    fig.eq("failed files", sorted(failed), sorted(e["file"] for e in fleet["errors"]))
    rows = {(r["group"], r["function"]): r for r in fleet["functions"]}
    fig.eq("function rows", sorted(acc), sorted(rows))
    for key, a in sorted(acc.items()):
        r = rows.get(key)
        if r is None:
            continue
        h = a["h"]
        mine = [a["traces"], a["calls"], a["timed"], a["total"], a["self"], a["rep"],
                h[2], h[3]] + pcts(h)
        theirs = [r["traces"], r["calls"], r["timed_calls"], r["total_ns"], r["self_ns"],
                  r["repaired"], r["min_ns"], r["max_ns"], r["p50_ns"], r["p95_ns"], r["p99_ns"]]
        names = ["traces", "calls", "timed", "total", "self", "repaired", "min", "max", "p50",
                 "p95", "p99"]
        for n, x, y in zip(names, mine, theirs):
            fig.eq(f"{key} {n}", x, y)
        worst = [[-w[0], w[1]] for w in sorted(a["worst"])[:3]]
        fig.eq(f"{key} worst", worst, [[w["p99_ns"], w["file"]] for w in r["worst"]])
        if truth:
            t = truth_sum.get(key, [0, 0, 0])
            fig.eq(f"{key} truth calls/total/self", t, [r["calls"], r["total_ns"], r["self_ns"]])
    if truth:
        fig.eq("truth functions", sorted(k for k, v in truth_sum.items() if v[0]), sorted(rows))


def oracle_sched(items, fleet, by, fig):
    lat = defaultdict(lambda: [0, 0, None, None, {}])
    comms = defaultdict(lambda: defaultdict(int))
    for path, labels in items:
        doc, err = ftlens_json(["sched"], path)
        if doc is None:
            continue
        g = labels.get(by, "") if by else "all"
        for r in doc["latency_histograms"]:
            if r["span"] == 0:
                add_histo(lat[(g, r["class"])], r["histogram"])
        for t in doc["tasks"]:
            c = comms[(g, t["comm"] or "?")]
            c["tasks"] += 1
            for k in ("run_ns", "wait_ns", "sleep_ns", "switches", "wakeups"):
                c[k] += t[k] or 0
    rows = {(r["group"], r["class"]): r for r in fleet["latency"]}
    fig.eq("latency rows", sorted(lat), sorted(rows))
    for key, h in sorted(lat.items()):
        r = rows.get(key, {})
        mine = [h[0], h[1], h[2], h[3]] + pcts(h)
        theirs = [r.get(k) for k in ("count", "sum_ns", "min_ns", "max_ns", "p50_ns", "p95_ns",
                                     "p99_ns")]
        fig.eq(f"{key} latency", mine, theirs)
        fig.n += len(mine) - 1
    crow = {(r["group"], r["comm"]): r for r in fleet["comms"]}
    fig.eq("comm rows", sorted(comms), sorted(crow))
    for key, c in sorted(comms.items()):
        for k, v in c.items():
            fig.eq(f"{key} {k}", v, crow.get(key, {}).get(k))


def oracle_oops(items, fleet, fig):
    sigs = {}
    for path, labels in sorted(items):
        doc, err = ftlens_json(["oops"], path)
        if doc is None:
            continue
        when = labels.get("time") or datetime.datetime.fromtimestamp(
            os.stat(path).st_mtime, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        for log in doc["logs"]:
            for r in log["reports"]:
                s = sigs.setdefault(r["signature_id"], {
                    "signature": r["signature"], "count": 0, "files": set(), "times": [],
                    "example": path, "labels": defaultdict(lambda: defaultdict(int))})
                s["count"] += 1
                s["files"].add(path)
                s["times"].append(when)
                s["example"] = min(s["example"], path)
                for k, v in labels.items():
                    if k != "time":
                        s["labels"][k][v] += 1
    rows = {r["signature_id"]: r for r in fleet["signatures"]}
    fig.eq("signatures", sorted(sigs), sorted(rows))
    for sid, s in sorted(sigs.items()):
        r = rows.get(sid, {})
        fig.eq(f"{sid} signature", s["signature"], r.get("signature"))
        fig.eq(f"{sid} count", s["count"], r.get("count"))
        fig.eq(f"{sid} logs", len(s["files"]), r.get("files"))
        fig.eq(f"{sid} first seen", min(s["times"]), r.get("first_seen"))
        fig.eq(f"{sid} last seen", max(s["times"]), r.get("last_seen"))
        fig.eq(f"{sid} example", s["example"], r.get("example"))
        fig.eq(f"{sid} labels", {k: dict(v) for k, v in s["labels"].items()}, r.get("labels"))


def main(argv):
    kind, man, fleet_json = argv[:3]
    by = argv[argv.index("--by") + 1] if "--by" in argv else None
    with open(fleet_json) as f:
        fleet = json.load(f)
    items = list(manifest(man))
    fig = Figures()
    if kind == "report":
        oracle_report(items, fleet, by, "--truth" in argv, fig)
    elif kind == "sched":
        oracle_sched(items, fleet, by, fig)
    else:
        oracle_oops(items, fleet, fig)
    if fig.bad:
        for b in fig.bad[:10]:
            print("# differs:", b)
        print(f"{len(fig.bad)} of {fig.n} figures differ")
        return 1
    print(fig.n, VALIDATED[0])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
