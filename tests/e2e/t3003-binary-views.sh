#!/bin/sh
# The analysis commands on binary inputs: report, graph, markers, diff and
# split --per-cpu give on raw pages and trace.dat files what they give on
# the kernel's text of the same buffer.
#
# The rig's raw-fgraph capture (function_graph + sched events + markers as
# raw pages, and raw.txt, the kernel's text of the same buffer) is the pair.
# Allowed differences, applied below and nothing else:
# - durations: the text prints long durations with fewer decimals
#   ("21206.56 us"), so times may differ by up to 100 ns per call; calls,
#   call paths and functions must be equal.
# - markers: function_graph text prints them as comments without a
#   timestamp, so only their text, order and CPU are compared.
. "$(dirname "$0")/lib.sh"
prereq PYTHON
make_tmpdir
V=$FTL_TESTDATA/vm/raw-fgraph
[ -d "$V/raw" ] || skip_all "rig fixture $V/raw missing"
dats=""
[ -d "$FTL_REAL_DATA/raw" ] && dats=$(ls "$FTL_REAL_DATA"/raw/*.dat 2>/dev/null)
n=0
for f in $dats; do n=$((n + 1)); done
plan $((6 + 2 * (n + 1) + (n == 0)))
[ $n -gt 0 ] || skip_absent "$FTL_REAL_DATA/raw/*.dat"

"$FTLENS" graph --format json "$V/raw" >"$T/g1" 2>/dev/null
"$FTLENS" graph --format json "$V/raw.txt" >"$T/g2" 2>/dev/null
python3 - "$T/g1" "$T/g2" >"$T/cmp" <<'PY'
import json, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
bad = []
def walk(x, y, path):
    if x["function"] != y["function"] or x["calls"] != y["calls"]:
        bad.append("%s: %s/%d vs %s/%d" % (path, x["function"], x["calls"], y["function"], y["calls"]))
        return
    for k in ("total_ns", "self_ns"):
        if abs(x[k] - y[k]) > 100 * max(x["calls"], 1):
            bad.append("%s/%s: %s %d vs %d" % (path, x["function"], k, x[k], y[k]))
    if len(x["children"]) != len(y["children"]):
        bad.append("%s/%s: %d vs %d children" % (path, x["function"], len(x["children"]), len(y["children"])))
        return
    for c, d in zip(x["children"], y["children"]):
        walk(c, d, path + "/" + x["function"])
if len(a["graph"]) != len(b["graph"]) or a["calls"] != b["calls"]:
    bad.append("roots %d vs %d, calls %d vs %d" % (len(a["graph"]), len(b["graph"]), a["calls"], b["calls"]))
else:
    for x, y in zip(a["graph"], b["graph"]):
        walk(x, y, "")
print("nodes", a["calls"])
print("bad", len(bad))
for l in bad[:5]:
    print("diff", l)
PY
nb=$(sed -n 's/^bad //p' "$T/cmp")
check "graph: raw pages = kernel text (call paths, calls; times within 100 ns a call; $(sed -n 's/^nodes //p' "$T/cmp") calls)" '[ "$nb" = 0 ]'
[ "$nb" = 0 ] || sed -n 's/^diff //p' "$T/cmp" | while read -r l; do diag "$l"; done

"$FTLENS" report --format json "$V/raw" >"$T/r1" 2>/dev/null
"$FTLENS" report --format json "$V/raw.txt" >"$T/r2" 2>/dev/null
python3 - "$T/r1" "$T/r2" >"$T/cmp" <<'PY'
import json, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
def calls(j):
    for k, v in j.items():
        if isinstance(v, list) and v and isinstance(v[0], dict) and "function" in v[0] and "calls" in v[0]:
            return {r["function"]: r["calls"] for r in v}
    return None
x, y = calls(a), calls(b)
print("ok" if x and x == y else "differ %s %s" % (x, y))
PY
check "report: the same functions with the same call counts" '[ "$(cat "$T/cmp")" = ok ]'

"$FTLENS" markers --format json "$V/raw" >"$T/m1" 2>/dev/null
"$FTLENS" markers --format json "$V/raw.txt" >"$T/m2" 2>/dev/null
m=$(python3 -c '
import json, sys
a = [(m["text"], m["cpu"]) for m in json.load(open(sys.argv[1]))["markers"]]
b = [(m["text"], m["cpu"]) for m in json.load(open(sys.argv[2]))["markers"]]
print("ok" if a == b and len(a) == 2 else "%s vs %s" % (a, b))' "$T/m1" "$T/m2")
check "markers: the same texts on the same CPUs, in order ($m)" '[ "$m" = ok ]'
t=$(json_get "$T/m1" 'all(m["ts_ns"] is not None for m in j["markers"])')
check "markers: raw pages give each marker its timestamp" '[ "$t" = True ]'

"$FTLENS" diff --format json "$V/raw" "$V/raw.txt" >"$T/d" 2>/dev/null
d=$(json_get "$T/d" 'sum(1 for f in j["functions"] if f["calls_a"] != f["calls_b"])')
check "diff raw pages vs text: no function changes its call count" '[ "$d" = 0 ]'

# split --per-cpu of binary inputs writes trace-cmd report text that reads
# back with the same events per CPU.
split_check() { # NAME INPUT
	rm -rf "$T/sp"
	if ! "$FTLENS" split --per-cpu -o "$T/sp" "$2" >/dev/null 2>"$T/err"; then
		not_ok "$1: split failed: $(head -2 "$T/err")"
		not_ok "$1: (skipped)"
		return
	fi
	"$FTLENS" dump "$2" 2>/dev/null | awk '$5 != "lost" { print $1, $2, $3, $6 }' | sort >"$T/a"
	"$FTLENS" dump "$T/sp" 2>/dev/null | awk '$5 != "lost" { print $1, $2, $3, $6 }' | sort >"$T/b"
	check "$1: split --per-cpu reads back event for event ($(wc -l <"$T/a") events)" 'cmp -s "$T/a" "$T/b"'
	d=$(json_get_cmd "$T/sp")
	check "$1: split files are trace-cmd report text with 0 unparsed lines" '[ "$d" = "trace-cmd-report 0" ]'
}
json_get_cmd() {
	"$FTLENS" info --format json "$1" >"$T/ij" 2>/dev/null
	json_get "$T/ij" '"%s %d" % (j["dialect"], j["unparsed_lines"])'
}
split_check "raw-fgraph pages" "$V/raw"
for f in $dats; do split_check "$(basename "$f")" "$f"; done
rm -rf "$T/sp"
"$FTLENS" split --per-cpu -o "$T/sp" "$V/raw" "$V/raw.txt" >/dev/null 2>"$T/err"
rc=$?
check "split refuses text and binary inputs together, leaving nothing" \
	'[ $rc -eq 1 ] && [ ! -e "$T/sp/cpu0/trace" ] && grep -q "text and binary" "$T/err"'
finish
