#!/bin/sh
# JSON that merges exactly (views/merge.h, data/schema/): report, sched,
# markers and oops JSON carry their schema name and validate against
# data/schema/*.json; every function's histogram holds its timed calls (the
# bucket counts add up to them, bounds fixed whatever the data: the same
# bucket has the same bounds in two traces); the buckets of two traces add
# up to the buckets of the two traces concatenated; a crash signature stays
# the same when addresses, offsets, CPU, PID, kernel release, timestamps and
# compiler clone suffixes change, and differs between different crashes.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
[ -x $PY ] && $PY -c 'import jsonschema' 2>/dev/null ||
	skip_all "/usr/bin/python3 lacks jsonschema (Debian: python3-jsonschema)"
make_tmpdir
FTL_SCHEMA_DIR=$top_srcdir/data/schema
export FTL_SCHEMA_DIR
validate() { $PY "$top_srcdir/tests/e2e/json_schema.py" "$@"; }
S=$top_srcdir/data/sample-fgraph.txt
plan 7

"$FTLENS" report -F json "$S" >"$T/r.json" &&
	"$FTLENS" report --sched -F json "$FTL_TESTDATA/sched/small.txt" >"$T/rs.json" 2>/dev/null &&
	"$FTLENS" sched -F json "$FTL_TESTDATA/sched/small.txt" >"$T/s.json" 2>/dev/null &&
	"$FTLENS" markers --span 'before (.*)' 'after \1' -F json "$S" >"$T/m.json" &&
	"$FTLENS" oops -F json "$FTL_TESTDATA"/oops-public/*.log >"$T/o.json" 2>/dev/null
check "report, report --sched, sched, markers --span and oops (22 logs) JSON validate" '
	validate report "$T/r.json" "$T/rs.json" >/dev/null && validate sched "$T/s.json" >/dev/null &&
	validate markers "$T/m.json" >/dev/null && validate oops "$T/o.json" >/dev/null
'
check "each names its schema" '
	for k in r:report rs:report s:sched m:markers o:oops; do
		grep -q "^  \"schema\" : \"ftlens.${k#*:}/1\"" "$T/${k%%:*}.json" || exit 1
	done
'
check "a function histogram holds its timed calls; its extremes are the row's" '
	$PY -c "
import json, sys
d = json.load(open(sys.argv[1]))
rows = {r[\"function\"]: r for r in d[\"functions\"]}
for h in d[\"function_histograms\"]:
    g, r = h[\"histogram\"], rows[h[\"function\"]]
    assert g[\"count\"] == h[\"timed_calls\"] == sum(b[2] for b in g[\"buckets\"]), h
    assert all(lo <= g[\"max_ns\"] and hi > g[\"min_ns\"] for lo, hi, n in g[\"buckets\"]), h
    if g[\"count\"]:
        assert (g[\"min_ns\"], g[\"max_ns\"]) == (r[\"min_ns\"], r[\"max_ns\"]), h
assert len(d[\"function_histograms\"]) == len(d[\"functions\"]) > 10
" "$T/r.json"
'

# two traces and the two concatenated: the buckets add (gen-fgraph's traces
# have no timestamps, so one after the other is one longer trace)
cc=${CC:-cc}
if command -v "$cc" >/dev/null 2>&1 && "$cc" -O2 -o "$T/gen" "$top_srcdir/bench/gen-fgraph.c" -lm; then
	"$T/gen" -s 5 -c 1 -f 100 20K "$T/a.txt" && "$T/gen" -s 6 -c 1 -f 100 20K "$T/b.txt"
	grep -v '^#' "$T/b.txt" | cat "$T/a.txt" - >"$T/ab.txt"
	for x in a b ab; do "$FTLENS" report -F json "$T/$x.txt" >"$T/$x.json"; done
	check "buckets of two traces add up to the buckets of both in one" '
		$PY -c "
import json, sys
from collections import Counter
def buckets(p):
    out = {}
    for h in json.load(open(p))[\"function_histograms\"]:
        out[h[\"function\"]] = Counter({(lo, hi): n for lo, hi, n in h[\"histogram\"][\"buckets\"]})
    return out
a, b, ab = (buckets(sys.argv[i]) for i in (1, 2, 3))
merged = {f: a.get(f, Counter()) + b.get(f, Counter()) for f in set(a) | set(b)}
sys.exit(merged != ab)" "$T/a.json" "$T/b.json" "$T/ab.json"
	'
else
	skip "buckets add: no C compiler for bench/gen-fgraph.c"
fi

# the same crashes printed by another machine with another kernel build
$PY - "$FTL_TESTDATA"/oops-public/*.log "$T" <<'EOF'
import os, re, sys
out = sys.argv[-1]
for i, p in enumerate(sys.argv[1:-1]):
    t = open(p, encoding="utf-8", errors="surrogateescape").read()
    t = re.sub(r"\+0x[0-9a-f]+/0x[0-9a-f]+", "+0x1c/0x2a0", t)
    t = re.sub(r"\b(ffff|0000)[0-9a-f]{12}\b", "ffff8880deadbeef", t)
    t = re.sub(r"0x[0-9a-f]{8,16}\b", "0xffffffffc0ffee00", t)
    t = re.sub(r"CPU: \d+ PID: \d+", "CPU: 3 PID: 31337", t)
    t = re.sub(r"\[ *(\d+)\.(\d+)\]", lambda m: "[%5d.%s]" % (int(m.group(1)) + 1000, m.group(2)), t)
    t = re.sub(r"(Not tainted|Tainted: [A-Z ]+?) +\S+ #\d+", r"\1 6.6.0-fleet #2", t)
    # a compiler clone of the first frame of each call trace line
    t = re.sub(r"^( +)([a-z_][a-z0-9_]*)\+0x", r"\1\2.isra.0+0x", t, count=3, flags=re.M)
    with open(os.path.join(out, "moved-%02d.log" % i), "w", encoding="utf-8",
              errors="surrogateescape") as f:
        f.write(t)
EOF
"$FTLENS" oops -F json "$T"/moved-*.log >"$T/moved.json" 2>/dev/null
sigs() { $PY -c '
import json, sys
for log in json.load(open(sys.argv[1]))["logs"]:
    for r in log["reports"]:
        print(r["signature_id"], r["signature"])' "$1"; }
sigs "$T/o.json" >"$T/o.sigs"
sigs "$T/moved.json" >"$T/moved.sigs"
n=$(wc -l <"$T/o.sigs")
check "the same crashes elsewhere: the same $n signatures" '
	[ "$n" -ge 20 ] && cmp -s "$T/o.sigs" "$T/moved.sigs" ||
	{ diag "$(diff "$T/o.sigs" "$T/moved.sigs" | head -6)"; false; }
'
check "different crashes: different signatures ($(cut -d" " -f1 "$T/o.sigs" | sort -u | wc -l) distinct)" '
	[ "$(cut -d" " -f1 "$T/o.sigs" | sort -u | wc -l)" -ge $((n - 2)) ] &&
	! grep -q " @ .*\(dump_stack\|+0x\|\.isra\)" "$T/o.sigs"
'
# the addresses changed the raw reports: the frames were read
check "the moved logs differ from the originals but for the signature" '
	! cmp -s "$FTL_TESTDATA/oops-public/kdoc_kfence_x86_invalid_read.log" "$T/moved-04.log" &&
	grep -q "isra.0+0x1c/0x2a0" "$T"/moved-*.log
'
finish
