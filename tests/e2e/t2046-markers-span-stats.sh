#!/bin/sh
# `ftlens markers --span` statistics on a real Android capture (atrace's
# B|pid|name ... E sections written to trace_marker): count, min, avg, p50,
# p95, p99 and max of the span durations, for all spans and per key (the
# name the start pattern's group captured), the slowest span of each, and
# every span's rank by duration. The oracle pairs the markers here in
# python by the documented rule (an end closes the most recent open start)
# and computes exact nearest-rank percentiles; ftlens's are those exactly
# up to 256 spans, past that within 1/64 (ftlens(1), PERCENTILES). Text, CSV and JSON give the same
# figures, and the JSON validates against data/schema/markers.json.
. "$(dirname "$0")/lib.sh"
prereq PYTHON
make_tmpdir
ATRACE=$FTL_REAL_DATA/events/catapult_atrace_tgid_trace_marker.txt
need_input "$ATRACE"
plan 8

START='B\|[0-9]+\|(.*)'
END='^E'
"$FTLENS" markers --span "$START" "$END" -F json "$ATRACE" >"$T/m.json"
"$FTLENS" markers --span "$START" "$END" -F csv "$ATRACE" >"$T/m.csv"
"$FTLENS" markers --span "$START" "$END" "$ATRACE" >"$T/m.txt"

# the spans, paired from the text: (start time, name, duration) in start order
python3 - "$ATRACE" >"$T/oracle.json" <<'PY'
import json, re, sys
ev = []
for n, line in enumerate(open(sys.argv[1], errors="replace")):
    m = re.search(r"\s(\d+)\.(\d+): tracing_mark_write: (.*)$", line)
    if m:
        ev.append((int(m.group(1)) * 10**9 + int(m.group(2).ljust(9, "0")), n, m.group(3)))
ev.sort()
open_, spans, started = [], [], 0
for ts, n, text in ev:
    if re.search(r"^E", text) and open_:
        t0, name, order = open_.pop()
        spans.append((order, t0, name, ts - t0))
        continue
    m = re.search(r"B\|[0-9]+\|(.*)", text)
    if m:
        open_.append((ts, m.group(1), started))
        started += 1
spans.sort()
print(json.dumps([[t0, name, d] for _, t0, name, d in spans]))
PY

check "the spans ftlens pairs are the oracle's (start time, key, duration)" '
	python3 -c "
import json, sys
o = json.load(open(sys.argv[1])); j = json.load(open(sys.argv[2]))
got = [[s[\"start_ts_ns\"], s[\"key\"], s[\"duration_ns\"]] for s in j[\"spans\"]]
assert got == o, (len(got), len(o), [x for x in zip(got, o) if x[0] != x[1]][:3])
assert len(o) > 400
" "$T/oracle.json" "$T/m.json"'

STATS_ORACLE='
import json, math, sys
o = json.load(open(sys.argv[1])); j = json.load(open(sys.argv[2]))
def pct(v, p):
    v = sorted(v); return v[max(1, math.ceil(p / 100 * len(v))) - 1]
groups = {None: [d for _, _, d in o]}
for _, k, d in o:
    groups.setdefault(k, []).append(d)
rows = {r["key"]: r for r in j["span_stats"]}
assert set(rows) == set(groups), set(rows) ^ set(groups)
for k, v in groups.items():
    r = rows[k]
    assert r["count"] == len(v) and r["min_ns"] == min(v) and r["max_ns"] == max(v), (k, r)
    assert r["avg_ns"] == sum(v) // len(v), (k, r)
    for p in (50, 95, 99):
        exact = pct(v, p)
        if len(v) <= 256:
            assert r["p%d_ns" % p] == exact, (k, p, r, exact)
        else:
            assert abs(r["p%d_ns" % p] - exact) <= exact / 64 + 1, (k, p, r, exact)
    slow = max(range(len(o)), key=lambda i: (o[i][2] if k is None or o[i][1] == k else -1, -i))
    assert r["slowest_span"] == slow + 1, (k, r, slow)
# rows: all spans, then keys by count, most first
keys = [r["key"] for r in j["span_stats"]]
assert keys[0] is None and [rows[k]["count"] for k in keys[1:]] == sorted((rows[k]["count"] for k in keys[1:]), reverse=True)
'
check "span_stats: count, min, max, avg exact; p50/p95/p99 nearest rank (exact up to 256, within 1.6% beyond); slowest span (all, and per key)" \
	'python3 -c "$STATS_ORACLE" "$T/oracle.json" "$T/m.json"'

check "ranks: 1 is the longest span, every timed span ranked once, longest first" '
	python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))[\"spans\"]
by = sorted(s, key=lambda x: x[\"rank\"])
assert [x[\"rank\"] for x in by] == list(range(1, len(s) + 1))
assert all(a[\"duration_ns\"] >= b[\"duration_ns\"] for a, b in zip(by, by[1:]))
" "$T/m.json"'

check "at: the start marker time with every ns digit, as tui --at takes it" '
	python3 -c "
import json, sys
for s in json.load(open(sys.argv[1]))[\"spans\"]:
    a, b = s[\"at\"].split(\".\")
    assert len(b) == 9 and int(a) * 10**9 + int(b) == s[\"start_ts_ns\"], s
" "$T/m.json"'

check "CSV's span_stats section is JSON's, row for row" '
	python3 -c "
import csv, io, json, sys
txt = open(sys.argv[1]).read().split(\"\n\n\")
sec = [x for x in txt if x.startswith(\"key,count,\")]
assert len(sec) == 1
rows = list(csv.DictReader(io.StringIO(sec[0])))
j = json.load(open(sys.argv[2]))[\"span_stats\"]
cols = [\"count\", \"min_ns\", \"avg_ns\", \"p50_ns\", \"p95_ns\", \"p99_ns\", \"max_ns\", \"slowest_span\"]
assert [[r[\"key\"]] + [int(r[c]) for c in cols] for r in rows] == \
       [[x[\"key\"] or \"\"] + [x[c] for c in cols] for x in j]
" "$T/m.csv" "$T/m.json"'

check "text: the (all) row prints the JSON figures; 10 slowest spans ranked with their --at" '
	python3 -c "
import json, re, sys
def fmt(ns):
    # as util/timefmt.c picks the unit: from the rounded value
    if ns < 1000: return \"%d ns\" % ns
    if ns < 999999.5: return \"%.3f us\" % (ns / 1e3)
    if ns < 999999500: return \"%.3f ms\" % (ns / 1e6)
    return \"%.3f s\" % (ns / 1e9)
t = open(sys.argv[1]).read(); j = json.load(open(sys.argv[2]))
a = j[\"span_stats\"][0]
line = [l for l in t.splitlines() if l.startswith(\"(all)\")][0]
want = [str(a[\"count\"])] + [fmt(a[k]) for k in (\"min_ns\", \"avg_ns\", \"p50_ns\", \"p95_ns\", \"p99_ns\", \"max_ns\")] + [str(a[\"slowest_span\"])]
got = re.split(r\"\s{2,}\", line.strip())[1:]
assert got == want, (got, want)
slow = t.split(\"slowest spans\n\")[1].split(\"\n\n\")[0].splitlines()[1:]
by = sorted(j[\"spans\"], key=lambda x: x[\"rank\"])[:10]
assert len(slow) == 10 and all(l.split()[0] == str(s[\"span\"]) and l.split()[-1] == s[\"at\"] for l, s in zip(slow, by)), slow
" "$T/m.txt" "$T/m.json"'

PY=/usr/bin/python3
if [ -x $PY ] && $PY -c 'import jsonschema' 2>/dev/null; then
	check "the JSON validates against data/schema/markers.json (span_stats, rank, key, at)" '
		FTL_SCHEMA_DIR=$top_srcdir/data/schema $PY "$top_srcdir/tests/e2e/json_schema.py" markers "$T/m.json" >/dev/null'
else
	skip "/usr/bin/python3 lacks jsonschema (Debian: python3-jsonschema)"
fi

# a start pattern without groups: one row, all spans; untimed spans count 0
"$FTLENS" markers --span 'B\|' "$END" -F json "$ATRACE" >"$T/nokey.json"
check "without groups: span_stats is the one row of all spans, the same figures" '
	python3 -c "
import json, sys
a = json.load(open(sys.argv[1]))[\"span_stats\"]; b = json.load(open(sys.argv[2]))[\"span_stats\"]
assert len(a) == 1 and a[0] == b[0], (a, b[0])
" "$T/nokey.json" "$T/m.json"'
