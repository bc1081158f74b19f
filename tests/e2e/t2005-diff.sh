#!/bin/sh
# `ftlens diff A B`: a trace against itself shows no change; two captures of
# the same workload differ by what the oracle sums for each.
. "$(dirname "$0")/lib.sh"
prereq PYTHON
make_tmpdir
D=$FTL_TESTDATA/vm/fgraph-options
[ -f "$D/tail.txt" ] && [ -f "$D/combined.txt" ] || skip_all "rig captures absent"
ORACLE="$top_srcdir/tests/e2e/fgraph_oracle.py"
plan 6
"$FTLENS" diff --format json "$D/tail.txt" "$D/tail.txt" >"$T/same.json"
check "diff exits 0" '[ $? -eq 0 ]'
check "a trace against itself: every change is 0" 'python3 -c "
import json; j = json.load(open('\''$T/same.json'\''))
assert j['\''functions'\''] and all(r['\''total_change_ns'\''] == 0 and r['\''self_change_ns'\''] == 0 for r in j['\''functions'\''])"'
"$FTLENS" diff --format json "$D/tail.txt" "$D/combined.txt" >"$T/d.json"
python3 "$ORACLE" "$D/tail.txt" >"$T/a.json"
python3 "$ORACLE" "$D/combined.txt" >"$T/b.json"
check "total change per function == oracle(B) - oracle(A)" 'python3 - "$T/d.json" "$T/a.json" "$T/b.json"' <<'PY'
import json, sys
rows = {r['function']: r for r in json.load(open(sys.argv[1]))['functions']}
a, b = json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
bad = 0
for f in set(a) | set(b):
    want = b.get(f, [0, 0])[1] - a.get(f, [0, 0])[1]
    if rows[f]['total_change_ns'] != want:
        print('#', f, rows[f]['total_change_ns'], want); bad += 1
sys.exit(bad)
PY
check "rows are sorted by absolute change" 'python3 -c "
import json; r = json.load(open('\''$T/d.json'\''))['\''functions'\'']
v = [abs(x['\''total_change_ns'\'']) for x in r]; assert v == sorted(v, reverse=True)"'
"$FTLENS" diff "$D/tail.txt" >/dev/null 2>&1
check "one operand is a usage error (exit 2)" '[ $? -eq 2 ]'
"$FTLENS" diff --width 100 "$D/tail.txt" "$D/combined.txt" >"$T/d.txt"
w=$(awk '{ if (length($0) > m) m = length($0) } END { print m }' "$T/d.txt")
check "text at --width 100 fits 100 columns ($w)" '[ "$w" -le 100 ]'
finish
