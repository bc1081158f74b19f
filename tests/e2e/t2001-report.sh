#!/bin/sh
# `ftlens report`: function totals and timed calls against an oracle that sums
# the durations printed on the lines naming each function (fgraph_oracle.py),
# stable golden text, formats, and repairs counted on a damaged trace.
. "$(dirname "$0")/lib.sh"
prereq PYTHON
make_tmpdir
D=$FTL_TESTDATA/vm/fgraph-options
[ -f "$D/tail.txt" ] || skip_all "rig captures absent"
ORACLE="$top_srcdir/tests/e2e/fgraph_oracle.py"
plan 19

# compare FILE: every function the oracle sees has the same timed calls and total
compare() {
	python3 "$ORACLE" "$1" >"$T/oracle.json"
	"$FTLENS" report --format json "$1" >"$T/r.json" 2>"$T/err" || return 1
	python3 - "$T/oracle.json" "$T/r.json" <<'PY'
import json, sys
want = json.load(open(sys.argv[1]))
rows = {r['function']: r for r in json.load(open(sys.argv[2]))['functions']}
bad = []
for f, (timed, total) in want.items():
    r = rows.get(f)
    if r is None or r['timed_calls'] != timed or (r['total_ns'] or 0) != total:
        bad.append((f, timed, total, r and r['timed_calls'], r and r['total_ns']))
for b in bad[:10]:
    print('# mismatch', b)
sys.exit(1 if bad or not want else 0)
PY
}
for f in tail.txt combined.txt; do
	check "report $f: per-function timed calls and totals == oracle" 'compare "$D/$f"'
done
if have_input "$FTL_REAL_DATA/fgraph/kdoc5.4_fgraph_overhead_all_markers.txt"; then
	check "report kdoc overhead sample (\$ @ * marks): totals == oracle" \
		'compare "$FTL_REAL_DATA/fgraph/kdoc5.4_fgraph_overhead_all_markers.txt"'
fi

# self time: a function that never has children has self == total
"$FTLENS" report --format json "$D/tail.txt" >"$T/r.json"
leaf_ok=$(python3 - "$T/r.json" "$D/tail.txt" <<'PY'
import json, re, sys
rows = {r['function']: r for r in json.load(open(sys.argv[1]))['functions']}
text = open(sys.argv[2]).read()
parents = set(re.findall(r'\|\s+([A-Za-z0-9_.$]+)\(\) \{', text)) | set(re.findall(r'\} /\* ([A-Za-z0-9_.$]+) \*/', text))
leaves = [f for f in rows if f not in parents and rows[f]['timed_calls']]
print('yes' if leaves and all(rows[f]['self_ns'] == rows[f]['total_ns'] for f in leaves) else 'no')
PY
)
check "leaf functions: self == total" '[ "$leaf_ok" = yes ]'
# the outermost calls: the sum of every function's self time is the sum of
# the totals of the depth-0 calls, when nothing was repaired
sum_ok=$(python3 - "$T/r.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
self_sum = sum(r['self_ns'] or 0 for r in j['functions'])
print(self_sum)
PY
)
depth0=$(awk -F'|' '/^ *[0-9]+\) / && $1 ~ /us/ && ($2 ~ /^  [^ ]/) { d = $1; sub(/^ *[0-9]+\)/, "", d); gsub(/[^0-9.]/, "", d); s += d * 1000 } END { printf "%d\n", s + 0.5 }' "$D/tail.txt")
rep=$(json_get "$T/r.json" "j['repaired_calls']")
if [ "$rep" = 0 ]; then
	check "sum of self ($sum_ok) == sum of depth-0 totals ($depth0)" '[ "$sum_ok" = "$depth0" ]'
else
	diff=$(python3 -c "print(abs($sum_ok - $depth0) <= $depth0)")
	check "sum of self ($sum_ok) bounded by depth-0 totals ($depth0) with $rep repaired calls" '[ "$diff" = True ]'
fi

# formats: csv has the same rows as json; json lists every function
"$FTLENS" report --format csv "$D/tail.txt" >"$T/r.csv"
n_json=$(json_get "$T/r.json" "len(j['functions'])")
n_csv=$(awk '/^# functions/ { on = 1; next } /^$/ { on = 0 } on' "$T/r.csv" | tail -n +2 | wc -l)
check "csv functions rows ($n_csv) == json rows ($n_json)" '[ "$n_csv" = "$n_json" ]'
check "json keys carry the unit" 'python3 -c "
import json; j = json.load(open('\''$T/r.json'\'')); r = j['\''functions'\''][0]
assert '\''total_ns'\'' in r and '\''self_ns'\'' in r and '\''p99_ns'\'' in r and '\''quality'\'' in j"'
"$FTLENS" report "$D/tail.txt" >"$T/r.txt"
"$FTLENS" report --width 100 "$D/tail.txt" >"$T/r100.txt"
w=$(awk '{ if (length($0) > m) m = length($0) } END { print m }' "$T/r100.txt")
check "text report at --width 100 fits 100 columns (widest $w)" '[ "$w" -le 100 ]'
check "text report has its sections" 'grep -q "^Top functions by self" "$T/r.txt" && grep -q "^Per CPU" "$T/r.txt" && grep -q "^Longest calls" "$T/r.txt" && grep -q "^Markers" "$T/r.txt"'
"$FTLENS" report "$D/tail.txt" >"$T/r2.txt"
check "text report is stable run to run" 'cmp -s "$T/r.txt" "$T/r2.txt"'

# the longest call is the longest duration printed in the file
longest=$(json_get "$T/r.json" "j['longest_calls'][0]['duration_ns']")
max=$(awk -F'|' '/^ *[0-9]+\) / && $1 ~ /us/ { d = $1; sub(/^ *[0-9]+\)/, "", d); gsub(/[^0-9.]/, "", d); v = d * 1000; if (v > m) m = v } END { printf "%d\n", m + 0.5 }' "$D/tail.txt")
check "longest call ($longest) == longest printed duration ($max)" '[ "$longest" = "$max" ]'

# damaged input: the start of a trace cut mid-call and the end left open
{
	echo " 0) + 10.000 us   |      } /* inner */"
	echo " 0) + 20.000 us   |    } /* middle */"
	echo " 0)               |  outer() {"
	echo " 0)   1.000 us    |    leaf();"
} >"$T/cut.txt"
"$FTLENS" report --format json "$T/cut.txt" >"$T/cut.json"
check "orphan exits are counted as repairs" '[ "$(json_get "$T/cut.json" "j['\''diagnostics'\'']['\''orphan_exit'\'']['\''count'\'']")" = 2 ]'
check "open calls at the end are counted" '[ "$(json_get "$T/cut.json" "j['\''diagnostics'\'']['\''open_at_end'\'']['\''amount'\'']")" = 1 ]'
check "middle's self time excludes inner (20 - 10 us)" '[ "$(json_get "$T/cut.json" "[r for r in j['\''functions'\''] if r['\''function'\''] == '\''middle'\''][0]['\''self_ns'\'']")" = 10000 ]'
check "no time is invented for the open call" '[ "$(json_get "$T/cut.json" "[r for r in j['\''functions'\''] if r['\''function'\''] == '\''outer'\''][0]['\''total_ns'\'']")" = None ]'

# --sort orders the function table in every format
for fmt in csv json; do
	"$FTLENS" report --sort calls --format "$fmt" "$FTL_TESTDATA/vm/fgraph-basic/trace.txt" >"$T/sort.$fmt"
done
python3 - "$T/sort.csv" "$T/sort.json" >"$T/sort.out" <<'PY'
import csv, io, json, sys
text = open(sys.argv[1]).read().split("\n\n")[0]
rows = list(csv.DictReader(io.StringIO(text.split("\n", 1)[1])))
calls = [int(r["calls"]) for r in rows]
jcalls = [r["calls"] for r in json.load(open(sys.argv[2]))["functions"]]
print("csv" if calls == sorted(calls, reverse=True) and len(set(calls)) > 1 else "csv-unsorted")
print("json" if jcalls == sorted(jcalls, reverse=True) and jcalls == calls else "json-unsorted")
PY
check "--sort calls: csv rows by calls, descending" 'grep -qx csv "$T/sort.out"'
check "--sort calls: json rows in the same order" 'grep -qx json "$T/sort.out"'
"$FTLENS" report --sort calls "$FTL_TESTDATA/vm/fgraph-basic/trace.txt" >"$T/sort.txt"
check "--sort calls: text shows one table by calls" 'grep -q "^Functions by calls" "$T/sort.txt" && ! grep -q "by self time" "$T/sort.txt"'

# a golden text report of a public sample
G="$top_srcdir/tests/e2e/expected/report_do_fault.txt"
S="$FTL_REAL_DATA/fgraph/kdoc5.4_fgraph_set_graph_function_do_fault.txt"
if have_input "$S"; then
	"$FTLENS" report "$S" | sed "s|$FTL_REAL_DATA/||" >"$T/g.txt"
	[ -n "${FTL_UPDATE_GOLDEN:-}" ] && cp "$T/g.txt" "$G"
	check "golden report of kdoc5.4 set_graph_function __do_fault" 'cmp -s "$G" "$T/g.txt"'
	cmp -s "$G" "$T/g.txt" || diff -u "$G" "$T/g.txt" | head -20 | sed 's/^/# /'
fi
finish
