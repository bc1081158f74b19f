#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""ftlens fleet: many traces and console logs on a Dask cluster.

Each file is one task: a worker runs ftlens on it (--format json) and turns
the result into a partial result whose size depends on what the file holds
(functions, latency classes, crash signatures), never on how many files came
before. Partials merge exactly (counts and sums add, minimum and maximum,
histogram buckets with fixed bounds add), in a tree of merges of FAN_IN
partials each, so the last merge is as small as the first at 100,000 files.
A file that fails is a partial holding its error: the fleet goes on.

The C front end (`ftlens fleet`) execs this program with FTLENS_BIN set to
its own path; see doc/ftlens-fleet.1."""

import argparse
import contextlib
import csv
import datetime
import glob
import io
import json
import os
import random
import subprocess
import sys
import zlib

FAN_IN = 16  # partials per merge task
WORST = 3  # traces kept per function where it is worst
SCHEMAS = {
    "report": "ftlens.report/1",
    "sched": "ftlens.sched/1",
    "oops": "ftlens.oops/1",
}


class FleetError(Exception):
    """A usage or input error of the whole run (exit 2 or 1)."""

    def __init__(self, msg, status=2):
        super().__init__(msg)
        self.status = status


# ---- inputs --------------------------------------------------------------


def expand_inputs(operands, manifest):
    """[(path, labels)] in a stable order: the manifest's rows, then each
    operand (a file, a directory walked recursively, or a glob)."""
    items = []
    if manifest:
        items += read_manifest(manifest)
    for op in operands:
        if os.path.isdir(op):
            found = []
            for root, dirs, files in os.walk(op):
                dirs.sort()
                found += [os.path.join(root, f) for f in sorted(files)]
        elif os.path.exists(op):
            found = [op]
        else:
            found = sorted(p for p in glob.glob(op, recursive=True) if os.path.isfile(p))
            if not found:
                raise FleetError(f"'{op}': no such file, directory or matching glob", 1)
        items += [(p, {}) for p in found]
    if not items:
        raise FleetError("no input: give files, directories, globs or --manifest CSV")
    return items


def read_manifest(path):
    """Rows of a CSV with a header: a `path` (or `file`) column, relative to
    the manifest's directory, and any other columns as labels."""
    try:
        with open(path, newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
            fields = rows and list(rows[0].keys()) or []
    except (OSError, UnicodeDecodeError, csv.Error) as e:
        raise FleetError(f"'{path}': {e}", 1)
    key = "path" if "path" in fields else "file" if "file" in fields else None
    if key is None:
        raise FleetError(f"'{path}': line 1: the manifest needs a 'path' column", 1)
    base = os.path.dirname(os.path.abspath(path))
    out = []
    for n, row in enumerate(rows, start=2):
        p = row.get(key)
        if not p:
            raise FleetError(f"'{path}': line {n}: empty path", 1)
        labels = {k: (v or "") for k, v in row.items() if k != key and k is not None}
        out.append((os.path.join(base, p), labels))
    return out


# ---- histograms (fixed bounds: see views/merge.h) ------------------------


def histo_new(scheme):
    return {"scheme": scheme, "count": 0, "sum": 0, "min": None, "max": None, "b": {}}


def histo_from_json(h):
    """A histogram object of ftlens's JSON as a partial."""
    out = histo_new(h["scheme"])
    out["count"] = h["count"]
    out["sum"] = h["sum_ns"]
    out["min"] = h["min_ns"]
    out["max"] = h["max_ns"]
    out["b"] = {lo: [hi, n] for lo, hi, n in h["buckets"]}
    return out


def histo_merge(a, b):
    """Adds b into a (same scheme) and returns a."""
    if not b["count"]:
        return a
    if a["scheme"] != b["scheme"]:
        raise ValueError(f"histogram schemes differ: {a['scheme']} and {b['scheme']}")
    a["count"] += b["count"]
    a["sum"] += b["sum"]
    a["min"] = b["min"] if a["min"] is None else min(a["min"], b["min"])
    a["max"] = b["max"] if a["max"] is None else max(a["max"], b["max"])
    for lo, (hi, n) in b["b"].items():
        if lo in a["b"]:
            a["b"][lo][1] += n
        else:
            a["b"][lo] = [hi, n]
    return a


def histo_percentile(h, p):
    """ftlens's rule (analysis/histo.c): the value at rank ceil(p% of count)
    (p a whole number: the rank in integers), its bucket's midpoint clamped
    to the exact min and max; the extremes are exact."""
    n = h["count"]
    if not n:
        return None
    rank = max(1, min((p * n + 99) // 100, n))
    if rank == n:
        return h["max"]
    if rank == 1:
        return h["min"]
    seen = 0
    for lo in sorted(h["b"]):
        hi, c = h["b"][lo]
        seen += c
        if seen >= rank:
            mid = lo if hi - lo == 1 else lo + (hi - lo) // 2
            return max(h["min"], min(mid, h["max"]))
    return h["max"]


def histo_summary(h):
    n = h["count"]
    return {
        "count": n,
        "sum_ns": h["sum"],
        "min_ns": h["min"],
        "avg_ns": h["sum"] // n if n else None,
        "p50_ns": histo_percentile(h, 50),
        "p95_ns": histo_percentile(h, 95),
        "p99_ns": histo_percentile(h, 99),
        "max_ns": h["max"],
    }


# ---- the map: one file ---------------------------------------------------


def run_ftlens(ftlens, argv, path):
    """ftlens's JSON for path, or raises RuntimeError with its message."""
    try:
        p = subprocess.run([ftlens] + argv + ["--format", "json", "--no-pager", "--", path],
                           stdin=subprocess.DEVNULL, capture_output=True, timeout=3600)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise RuntimeError(str(e))
    if p.returncode != 0:
        msg = p.stderr.decode("utf-8", "replace").strip().splitlines()
        raise RuntimeError(msg[-1] if msg else f"ftlens exited with status {p.returncode}")
    try:
        return json.loads(p.stdout)
    except ValueError as e:
        raise RuntimeError(f"ftlens wrote no JSON: {e}")


def check_schema(doc, kind):
    want = SCHEMAS[kind]
    if doc.get("schema") != want:
        raise RuntimeError(f"schema {doc.get('schema')!r}, expected {want!r}")


def group_of(labels, by):
    if not by:
        return "all"
    return labels.get(by, "")


def empty_partial(kind):
    return {"kind": kind, "files": 0, "bytes": 0, "errors": [], "groups": {}}


def map_file(job):
    """The partial result of one file: job = (kind, ftlens, path, labels, opts)."""
    kind, ftlens, path, labels, opts = job
    part = empty_partial(kind)
    part["files"] = 1
    try:
        part["bytes"] = os.path.getsize(path)
        if kind == "report":
            doc = run_ftlens(ftlens, ["report", "--top", "1"], path)
            check_schema(doc, "report")
            part["groups"][group_of(labels, opts.get("by"))] = report_partial(doc, path)
        elif kind == "sched":
            doc = run_ftlens(ftlens, ["sched"], path)
            check_schema(doc, "sched")
            part["groups"][group_of(labels, opts.get("by"))] = sched_partial(doc)
        elif kind == "oops":
            doc = run_ftlens(ftlens, ["oops"], path)
            check_schema(doc, "oops")
            part["groups"] = oops_partial(doc, path, labels, opts)
        elif kind == "compare":
            doc = run_ftlens(ftlens, ["report", "--top", "1", "--sched"], path)
            check_schema(doc, "report")
            g = labels.get(opts["by"])
            if g in (opts["a"], opts["b"]):
                part["groups"][g] = compare_partial(doc, path)
    except (RuntimeError, OSError, ValueError, KeyError, TypeError) as e:
        part["groups"] = {}
        part["errors"].append([path, str(e) or type(e).__name__])
    return part


def report_partial(doc, path):
    per_trace = {r["function"]: r for r in doc["functions"]}
    funcs = {}
    for r in doc["function_histograms"]:
        name = r["function"]
        t = per_trace.get(name, {})
        p99 = t.get("p99_ns")
        funcs[name] = {
            "calls": r["calls"], "timed": r["timed_calls"], "total": r["total_ns"],
            "self": r["self_ns"], "repaired": r["repaired"], "traces": 1,
            "h": histo_from_json(r["histogram"]),
            "worst": [[p99, path]] if p99 is not None else [],
        }
    return {"traces": 1, "events": doc["events"], "functions": funcs}


def sched_partial(doc):
    lat = {}
    for r in doc["latency_histograms"]:
        if r["span"] == 0:
            lat[r["class"]] = histo_from_json(r["histogram"])
    cpu = {"window_ns": 0, "busy_ns": 0, "idle_ns": 0, "unknown_ns": 0, "switches": 0}
    for r in doc["cpus"]:
        for k in cpu:
            cpu[k] += r.get(k) or 0
    comms = {}
    for r in doc["tasks"]:
        c = comms.setdefault(r.get("comm") or "?", {
            "tasks": 0, "run_ns": 0, "wait_ns": 0, "sleep_ns": 0, "switches": 0,
            "wakeups": 0})
        c["tasks"] += 1
        for k in ("run_ns", "wait_ns", "sleep_ns", "switches", "wakeups"):
            c[k] += r.get(k) or 0
    return {"traces": 1, "lat": lat, "cpu": cpu, "comms": comms}


def seen_time(path, labels):
    """When a crash was seen: the manifest's `time` label, else the file's
    modification time (UTC, ISO 8601)."""
    if labels.get("time"):
        return labels["time"]
    t = os.stat(path).st_mtime
    return datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime(
        "%Y-%m-%dT%H:%M:%SZ")


def oops_partial(doc, path, labels, opts):
    sigs = {}
    when = seen_time(path, labels)
    for log in doc["logs"]:
        for r in log["reports"]:
            s = sigs.setdefault(r["signature_id"], {
                "signature": r["signature"], "title": r["title"], "kind": r["kind"],
                "count": 0, "files": 1, "first": when, "last": when, "example": path,
                "labels": {k: {v: 0} for k, v in labels.items() if k != "time"},
            })
            s["count"] += 1
            for k, v in labels.items():
                if k != "time":
                    s["labels"][k][v] += 1
    return sigs


def per_trace_figures(h):
    return [histo_percentile(h, 50), histo_percentile(h, 99)]


def compare_partial(doc, path):
    funcs = {}
    for r in doc["functions"]:
        if r.get("timed_calls") and r.get("p50_ns") is not None:
            funcs[r["function"]] = [[r["p50_ns"], r["p99_ns"], path]]
    lat = doc.get("wakeup_latency_histogram")
    if lat and lat["count"]:
        p50, p99 = per_trace_figures(histo_from_json(lat))
        funcs["[wakeup latency]"] = [[p50, p99, path]]
    return {"traces": 1, "functions": funcs}


# ---- the reduce: partials into one --------------------------------------


def merge_report_group(a, b):
    a["traces"] += b["traces"]
    a["events"] += b["events"]
    for name, f in b["functions"].items():
        g = a["functions"].get(name)
        if g is None:
            a["functions"][name] = f
            continue
        for k in ("calls", "timed", "total", "self", "repaired", "traces"):
            g[k] += f[k]
        histo_merge(g["h"], f["h"])
        # worst first; equal figures by path, so any merge order agrees
        g["worst"] = sorted(g["worst"] + f["worst"], key=lambda w: (-w[0], w[1]))[:WORST]
    return a


def merge_sched_group(a, b):
    a["traces"] += b["traces"]
    for cls, h in b["lat"].items():
        if cls in a["lat"]:
            histo_merge(a["lat"][cls], h)
        else:
            a["lat"][cls] = h
    for k, v in b["cpu"].items():
        a["cpu"][k] += v
    for comm, c in b["comms"].items():
        d = a["comms"].get(comm)
        if d is None:
            a["comms"][comm] = c
        else:
            for k, v in c.items():
                d[k] += v
    return a


def merge_oops_sig(a, b):
    a["count"] += b["count"]
    a["files"] += b["files"]
    a["first"] = min(a["first"], b["first"])
    a["last"] = max(a["last"], b["last"])
    a["example"] = min(a["example"], b["example"])
    for k, vals in b["labels"].items():
        d = a["labels"].setdefault(k, {})
        for v, n in vals.items():
            d[v] = d.get(v, 0) + n
    return a


def merge_compare_group(a, b):
    a["traces"] += b["traces"]
    for name, rows in b["functions"].items():
        a["functions"].setdefault(name, []).extend(rows)
    return a


MERGERS = {
    "report": merge_report_group,
    "sched": merge_sched_group,
    "oops": merge_oops_sig,
    "compare": merge_compare_group,
}


def merge_partials(*parts):
    """One partial from several (a merge task of the tree)."""
    out = empty_partial(parts[0]["kind"])
    merge = MERGERS[out["kind"]]
    for p in parts:
        out["files"] += p["files"]
        out["bytes"] += p["bytes"]
        out["errors"] += p["errors"]
        for g, v in p["groups"].items():
            out["groups"][g] = merge(out["groups"][g], v) if g in out["groups"] else v
    out["errors"].sort()
    return out


# ---- the engine ----------------------------------------------------------


def connect(args):
    """A dask.distributed client: the cluster at --scheduler, or a local
    cluster of worker processes on this machine."""
    try:
        from distributed import Client, LocalCluster
    except ImportError as e:
        raise FleetError(f"fleet needs Dask (Debian: python3-distributed): {e}", 1)
    import dask

    # a local cluster's scheduler retries a task whose worker died a few
    # more times than the default before giving up on its file
    dask.config.set({"distributed.scheduler.allowed-failures": 10})
    if args.scheduler:
        try:
            return Client(args.scheduler, timeout="30s"), None
        except (OSError, TimeoutError) as e:
            raise FleetError(f"--scheduler {args.scheduler}: {e}", 1)
    n = args.workers or os.cpu_count() or 1
    cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                           dashboard_address=None, silence_logs=40)
    return Client(cluster), cluster


def error_partial(kind, path, msg):
    part = empty_partial(kind)
    part["files"] = 1
    part["errors"].append([path, msg])
    return part


def run_fleet(client, kind, items, ftlens, opts, show_progress):
    """Maps every file and reduces the partials in a tree; returns the one
    partial left."""
    from distributed import progress, wait

    if kind == "compare":
        # only the two groups' files are read
        items = [(p, lab) for p, lab in items if lab.get(opts["by"]) in (opts["a"], opts["b"])]
        if not items:
            raise FleetError(f"no file has {opts['by']}={opts['a']} or {opts['b']}", 1)
    jobs = [(kind, ftlens, p, labels, opts) for p, labels in items]

    def watch(futures):
        if show_progress:
            # the text bar writes to stdout, where the results go
            with contextlib.redirect_stdout(sys.stderr):
                progress(futures)
        wait(futures)

    level = client.map(map_file, jobs, pure=False)
    watch(level)
    # a file whose task failed anyway (its worker died each time it ran it)
    # is listed like any other failed file
    for i, f in enumerate(level):
        if f.status == "error":
            level[i] = client.submit(error_partial, kind, jobs[i][2],
                                     f"its worker failed: {f.exception()!r}", pure=False)
    tree = []
    while len(level) > 1:
        level = [client.submit(merge_partials, *level[i:i + FAN_IN], pure=False)
                 for i in range(0, len(level), FAN_IN)]
        tree += level
    if tree:
        watch(tree)
    return merge_partials(level[0].result())


# ---- results -------------------------------------------------------------


def report_rows(part, top):
    rows = []
    for group in sorted(part["groups"]):
        g = part["groups"][group]
        funcs = sorted(g["functions"].items(), key=lambda kv: (-kv[1]["self"], kv[0]))
        for name, f in funcs[:top] if top else funcs:
            s = histo_summary(f["h"])
            rows.append({
                "group": group, "function": name, "traces": f["traces"],
                "calls": f["calls"], "timed_calls": f["timed"], "total_ns": f["total"],
                "self_ns": f["self"], "avg_ns": f["total"] // f["timed"] if f["timed"] else None,
                "min_ns": s["min_ns"], "p50_ns": s["p50_ns"], "p95_ns": s["p95_ns"],
                "p99_ns": s["p99_ns"], "max_ns": s["max_ns"], "repaired": f["repaired"],
                "worst": [{"p99_ns": w[0], "file": w[1]} for w in f["worst"]],
            })
    return rows


def sched_rows(part, top):
    lat, comms = [], []
    for group in sorted(part["groups"]):
        g = part["groups"][group]
        for cls in ("all", "rt", "normal"):
            if cls in g["lat"]:
                lat.append(dict(group=group, cls=cls, **histo_summary(g["lat"][cls])))
        cs = sorted(g["comms"].items(), key=lambda kv: (-kv[1]["run_ns"], kv[0]))
        for comm, c in cs[:top] if top else cs:
            comms.append(dict(group=group, comm=comm, **c))
    return lat, comms


def oops_rows(part):
    rows = []
    for sid, s in part["groups"].items():
        labels = {k: dict(sorted(v.items())) for k, v in sorted(s["labels"].items())}
        rows.append({
            "signature_id": sid, "signature": s["signature"], "title": s["title"],
            "kind": s["kind"], "count": s["count"], "files": s["files"],
            "first_seen": s["first"], "last_seen": s["last"], "labels": labels,
            "example": s["example"],
        })
    rows.sort(key=lambda r: (-r["count"], r["signature"]))
    return rows


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def bootstrap_change(a, b, rounds, level, seed):
    """The relative change of the median over traces from a to b, and its
    bootstrap confidence interval (percentile method, traces resampled with
    replacement within each group)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    ma = np.median(rng.choice(a, size=(rounds, a.size), replace=True), axis=1)
    mb = np.median(rng.choice(b, size=(rounds, b.size), replace=True), axis=1)
    ok = ma > 0
    ratios = mb[ok] / ma[ok] - 1.0
    base = float(np.median(a))
    effect = float(np.median(b)) / base - 1.0 if base > 0 else float("inf")
    if not ratios.size:
        return effect, None, None
    tail = (1.0 - level) / 2.0 * 100
    lo, hi = np.percentile(ratios, [tail, 100 - tail])
    return effect, float(lo), float(hi)


def rank_test_p(a, b):
    """The two-sided p-value of a Mann-Whitney U test: could both groups'
    per-trace figures come from one distribution?"""
    try:
        from scipy.stats import mannwhitneyu
    except ImportError as e:
        raise FleetError(f"fleet compare needs SciPy (Debian: python3-scipy): {e}", 1)
    if len(set(a) | set(b)) < 2:
        return 1.0  # all equal: no evidence of a change
    return float(mannwhitneyu(a, b, alternative="two-sided").pvalue)


def fdr_keep(pvalues, q):
    """Benjamini-Hochberg: the indexes of the p-values kept at false
    discovery rate q. When nothing changed at all, the chance of keeping
    any is at most q, however many functions are compared."""
    order = sorted(range(len(pvalues)), key=lambda i: pvalues[i])
    m = len(order)
    last = 0
    for k, i in enumerate(order, 1):
        if pvalues[i] <= q * k / m:
            last = k
    return set(order[:last])


def compare_rows(part, opts):
    ga = part["groups"].get(opts["a"], {"traces": 0, "functions": {}})
    gb = part["groups"].get(opts["b"], {"traces": 0, "functions": {}})
    tests = []
    for name in sorted(set(ga["functions"]) & set(gb["functions"])):
        # sorted by path: the same figures in the same order on any cluster
        ra = sorted(ga["functions"][name], key=lambda r: r[2])
        rb = sorted(gb["functions"][name], key=lambda r: r[2])
        if len(ra) < opts["min_traces"] or len(rb) < opts["min_traces"]:
            continue
        for i, stat in ((0, "p50"), (1, "p99")):
            a, b = [r[i] for r in ra], [r[i] for r in rb]
            tests.append((name, stat, a, b, rank_test_p(a, b)))
    # every function and statistic is one test of many: the rank tests'
    # false discovery rate is held at 1 - confidence over all of them, or
    # the noise of hundreds of functions would be reported as changes
    keep = fdr_keep([t[4] for t in tests], 1.0 - opts["level"])
    rows = []
    for k, (name, stat, a, b, pv) in enumerate(tests):
        if k not in keep:
            continue
        seed = zlib.crc32(f"{name}\0{stat}".encode())
        eff, lo, hi = bootstrap_change(a, b, opts["rounds"], opts["level"], seed)
        if lo is None or (lo <= 0 <= hi) or abs(eff) < opts["min_effect"]:
            continue
        rows.append({
            "function": name, "statistic": stat, "traces_a": len(a),
            "traces_b": len(b), "median_a_ns": median(a), "median_b_ns": median(b),
            "change": eff, "ci_low": lo, "ci_high": hi, "p_value": pv,
        })
    rows.sort(key=lambda r: (-abs(r["change"]), r["function"], r["statistic"]))
    return rows, ga["traces"], gb["traces"], len(tests)


def fmt_ns(v):
    if v is None:
        return "-"
    v = float(v)
    for unit, div in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if abs(v) >= div:
            return f"{v / div:.3f} {unit}"
    return f"{v:.0f} ns"


def visible(s):
    """Text from a trace or a log, made inert for a terminal: controls, DEL
    and C1 as escapes (util/escape.h's rule for the C side)."""
    out = []
    for ch in str(s):
        o = ord(ch)
        if o < 0x20 or o == 0x7f or 0x80 <= o < 0xa0 or 0x202a <= o <= 0x202e \
                or 0x2066 <= o <= 0x2069:
            out.append(f"\\x{o:02x}" if o < 0x100 else f"\\u{o:04x}")
        else:
            out.append(ch)
    return "".join(out)


def csv_cell(v):
    s = "" if v is None else str(v)
    if s[:1] in ("=", "+", "-", "@") and not s.lstrip("-+").replace(".", "", 1).isdigit():
        s = "'" + s  # a spreadsheet would run it as a formula
    return visible(s)


def print_table(out, fmt, cols, rows):
    """cols: [(key, title, kind)], kind 'ns', 'int', 'str', 'pct', 'p'."""
    if fmt == "csv":
        w = csv.writer(out, lineterminator="\n")
        w.writerow([c[0] for c in cols])
        for r in rows:
            w.writerow([csv_cell(r.get(c[0])) for c in cols])
        return
    cells = []
    for r in rows:
        line = []
        for key, _, kind in cols:
            v = r.get(key)
            if kind == "ns":
                line.append(fmt_ns(v))
            elif kind == "pct":
                line.append("-" if v is None else f"{v * 100:+.1f}%")
            elif kind == "p":
                line.append("-" if v is None else f"{v:.1e}")
            else:
                line.append(visible("-" if v is None else v))
        cells.append(line)
    widths = [max([len(c[1])] + [len(line[i]) for line in cells]) for i, c in enumerate(cols)]
    def row(vals):
        parts = []
        for i, (v, c) in enumerate(zip(vals, cols)):
            parts.append(v.ljust(widths[i]) if c[2] == "str" else v.rjust(widths[i]))
        return "  ".join(parts).rstrip()
    out.write(row([c[1] for c in cols]) + "\n")
    for line in cells:
        out.write(row(line) + "\n")


def print_errors(out, part):
    if part["errors"]:
        out.write(f"\nFailed files ({len(part['errors'])}):\n")
        for path, msg in part["errors"]:
            out.write(f"  {visible(path)}: {visible(msg)}\n")


def output(args, kind, part, opts):
    out = io.StringIO()
    head = {"schema": f"ftlens.fleet-{kind}/1", "files": part["files"],
            "bytes": part["bytes"], "failed": len(part["errors"]),
            "errors": [{"file": p, "error": m} for p, m in part["errors"]]}
    fmt = args.format
    if kind == "report":
        rows = report_rows(part, 0 if fmt != "text" else args.top)
        cols = [("group", args.by or "group", "str"), ("function", "function", "str"),
                ("traces", "traces", "int"), ("calls", "calls", "int"),
                ("total_ns", "total", "ns"), ("self_ns", "self", "ns"),
                ("avg_ns", "avg", "ns"), ("p50_ns", "p50", "ns"), ("p95_ns", "p95", "ns"),
                ("p99_ns", "p99", "ns"), ("max_ns", "max", "ns")]
        if fmt == "json":
            head["groups"] = {g: {"traces": v["traces"], "events": v["events"]}
                              for g, v in sorted(part["groups"].items())}
            head["functions"] = rows
        elif fmt == "csv":
            for r in rows:
                r["worst_file"] = r["worst"][0]["file"] if r["worst"] else None
            print_table(out, fmt, cols + [("worst_file", "worst", "str")], rows)
        else:
            out.write(f"ftlens fleet report: {part['files']} files, "
                      f"{len(part['errors'])} failed\n\n")
            print_table(out, fmt, cols, rows)
            out.write("\nWhere each is worst (by the trace's p99):\n")
            for r in rows:
                ws = ", ".join(f"{visible(w['file'])} ({fmt_ns(w['p99_ns'])})"
                               for w in r["worst"])
                out.write(f"  {visible(r['function'])}: {ws or '-'}\n")
    elif kind == "sched":
        lat, comms = sched_rows(part, 0 if fmt != "text" else args.top)
        lcols = [("group", args.by or "group", "str"), ("cls", "class", "str"),
                 ("count", "wakeups", "int"), ("min_ns", "min", "ns"), ("avg_ns", "avg", "ns"),
                 ("p50_ns", "p50", "ns"), ("p95_ns", "p95", "ns"), ("p99_ns", "p99", "ns"),
                 ("max_ns", "max", "ns")]
        ccols = [("group", args.by or "group", "str"), ("comm", "comm", "str"),
                 ("tasks", "tasks", "int"), ("run_ns", "run", "ns"), ("wait_ns", "wait", "ns"),
                 ("sleep_ns", "sleep", "ns"), ("switches", "switches", "int"),
                 ("wakeups", "wakeups", "int")]
        if fmt == "json":
            head["latency"] = [dict(r, **{"class": r.pop("cls")}) for r in lat]
            head["comms"] = comms
            head["cpus"] = {g: v["cpu"] for g, v in sorted(part["groups"].items())}
        elif fmt == "csv":
            print_table(out, fmt, lcols, lat)
            out.write("\n")
            print_table(out, fmt, ccols, comms)
        else:
            out.write(f"ftlens fleet sched: {part['files']} files, "
                      f"{len(part['errors'])} failed\n\nWakeup latency\n")
            print_table(out, fmt, lcols, lat)
            out.write("\nRun time by command name\n")
            print_table(out, fmt, ccols, comms)
    elif kind == "oops":
        rows = oops_rows(part)
        cols = [("count", "count", "int"), ("files", "logs", "int"),
                ("first_seen", "first seen", "str"), ("last_seen", "last seen", "str"),
                ("signature_id", "id", "str"), ("title", "title", "str"),
                ("example", "example", "str")]
        if fmt == "json":
            head["signatures"] = rows
        elif fmt == "csv":
            for r in rows:
                r["labels_text"] = "; ".join(
                    f"{k}=" + ",".join(sorted(v)) for k, v in r["labels"].items())
            print_table(out, fmt, cols + [("signature", "signature", "str"),
                                          ("labels_text", "labels", "str")], rows)
        else:
            out.write(f"ftlens fleet oops: {part['files']} logs, {len(part['errors'])} failed, "
                      f"{sum(r['count'] for r in rows)} reports, {len(rows)} signatures\n\n")
            print_table(out, fmt, cols, rows)
            for r in rows:
                labels = "; ".join(f"{k}=" + ",".join(sorted(v)) for k, v in r["labels"].items())
                out.write(f"\n{r['signature_id']}  {visible(r['signature'])}\n")
                if labels:
                    out.write(f"  labels: {visible(labels)}\n")
    elif kind == "compare":
        rows, na, nb, ntests = compare_rows(part, opts)
        cols = [("function", "function", "str"), ("statistic", "stat", "str"),
                ("traces_a", "traces A", "int"), ("traces_b", "traces B", "int"),
                ("median_a_ns", "A (median)", "ns"), ("median_b_ns", "B (median)", "ns"),
                ("change", "change", "pct"), ("ci_low", "CI low", "pct"),
                ("ci_high", "CI high", "pct"), ("p_value", "p", "p")]
        head.update({"by": opts["by"], "a": opts["a"], "b": opts["b"], "traces_a": na,
                     "traces_b": nb, "confidence": opts["level"], "rounds": opts["rounds"],
                     "min_effect": opts["min_effect"], "tests": ntests,
                     "changes": rows})
        if fmt == "csv":
            print_table(out, fmt, cols, rows)
        elif fmt == "text":
            out.write(f"ftlens fleet compare: {opts['by']}={visible(opts['a'])} ({na} traces) "
                      f"against {opts['by']}={visible(opts['b'])} ({nb} traces), "
                      f"{len(part['errors'])} failed\n")
            out.write(f"per-trace p50 and p99, change of the median over traces, "
                      f"{opts['level'] * 100:g}% bootstrap interval ({opts['rounds']} rounds); "
                      f"{ntests} rank tests, false discovery rate "
                      f"{(1 - opts['level']) * 100:g}%; changes under "
                      f"{opts['min_effect'] * 100:g}% or whose interval holds 0 are left out\n\n")
            if rows:
                print_table(out, fmt, cols, rows)
            else:
                out.write("(no change beyond the spread between traces)\n")
    if fmt == "json":
        json.dump(head, out, indent=2, sort_keys=False)
        out.write("\n")
    elif fmt == "text":
        print_errors(out, part)
    sys.stdout.write(out.getvalue())


# ---- command line --------------------------------------------------------


def parse_args(argv):
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--manifest", metavar="CSV",
                        help="files and their labels: a 'path' column, the rest labels")
    common.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                        help="run on this Dask cluster (its workers see the same paths)")
    common.add_argument("--workers", type=int, metavar="N",
                        help="worker processes of the local cluster (default: the CPUs)")
    common.add_argument("-F", "--format", choices=("text", "csv", "json"), default="text")
    common.add_argument("--json", action="store_const", dest="format", const="json",
                        help="same as --format json")
    common.add_argument("--progress", choices=("auto", "always", "never"), default="auto",
                        help="a progress bar on stderr (auto: when it is a terminal)")
    common.add_argument("inputs", nargs="*", metavar="INPUT",
                        help="a file, a directory (walked) or a glob")
    p = argparse.ArgumentParser(prog="ftlens fleet",
                                description="Merged results of many traces and logs on Dask.")
    sub = p.add_subparsers(dest="cmd", metavar="COMMAND", required=True)
    for name, helptext in (("report", "merged function statistics per label"),
                           ("sched", "merged wakeup latency and run time per label")):
        s = sub.add_parser(name, parents=[common], help=helptext)
        s.add_argument("--by", metavar="LABEL", help="one result per value of LABEL")
        s.add_argument("-n", "--top", type=int, default=20, help="rows per group in text")
    sub.add_parser("oops", parents=[common], help="crash signatures over console logs")
    s = sub.add_parser("compare", parents=[common],
                       help="what changed between the traces of two label values")
    s.add_argument("--by", metavar="LABEL", required=True)
    s.add_argument("a", metavar="A")
    s.add_argument("b", metavar="B")
    s.add_argument("--min-effect", type=float, default=10.0, metavar="PCT",
                   help="smallest change reported, in percent (default 10)")
    s.add_argument("--confidence", type=float, default=99.0, metavar="PCT",
                   help="confidence of the interval (default 99)")
    s.add_argument("--rounds", type=int, default=2000, help="bootstrap rounds (default 2000)")
    s.add_argument("--min-traces", type=int, default=8,
                   help="traces a function needs in each group (default 8: the median of "
                   "fewer bootstraps too narrow an interval)")
    args = p.parse_args(argv)
    if args.workers is not None and args.workers < 1:
        p.error("--workers must be at least 1")
    if args.cmd in ("report", "sched") and args.top < 1:
        p.error("--top must be at least 1")
    if args.cmd == "compare" and not (0 < args.confidence < 100 and args.rounds >= 100
                                      and args.min_effect >= 0 and args.min_traces >= 2):
        p.error("--confidence must be in (0, 100), --rounds at least 100, --min-effect "
                "at least 0 and --min-traces at least 2")
    return args


def main(argv):
    args = parse_args(argv)
    ftlens = os.environ.get("FTLENS_BIN") or "ftlens"
    opts = {"by": getattr(args, "by", None)}
    if args.cmd == "compare":
        opts.update(a=args.a, b=args.b, min_effect=args.min_effect / 100.0,
                    level=args.confidence / 100.0, rounds=args.rounds,
                    min_traces=args.min_traces)
    items = expand_inputs(args.inputs, args.manifest)
    show = args.progress == "always" or (args.progress == "auto" and sys.stderr.isatty())
    client, cluster = connect(args)
    try:
        part = run_fleet(client, args.cmd, items, ftlens, opts, show)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    output(args, args.cmd, part, opts)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except FleetError as e:
        sys.stderr.write(f"ftlens fleet: {e}\n")
        sys.exit(e.status)
    except KeyboardInterrupt:
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(1)
