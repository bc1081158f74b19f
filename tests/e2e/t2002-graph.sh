#!/bin/sh
# `ftlens graph`: rooted at a function, its calls and total equal the sum of
# its outermost exits printed in the trace; children are nested by depth.
. "$(dirname "$0")/lib.sh"
prereq PYTHON
make_tmpdir
D=$FTL_TESTDATA/vm/fgraph-options
[ -f "$D/tail.txt" ] || skip_all "rig captures absent"
plan 16
F="$D/tail.txt"

"$FTLENS" graph --format json do_sys_openat2 "$F" >"$T/g.json" 2>"$T/err"
check "graph FUNCTION FILE exits 0" '[ $? -eq 0 ]'
calls=$(json_get "$T/g.json" "j['graph'][0]['calls']")
total=$(json_get "$T/g.json" "j['graph'][0]['total_ns']")
top=$(json_get "$T/g.json" "[n['function'] for n in j['graph']]")
check "the graph's top is only the function ($top)" '[ "$top" = "['\''do_sys_openat2'\'']" ]'
# oracle: every "} /* do_sys_openat2 */" line closes one call (it is not recursive)
o_calls=$(grep -c '} /\* do_sys_openat2 \*/' "$F")
o_total=$(grep '} /\* do_sys_openat2 \*/' "$F" | awk -F'|' '{ d = $1; sub(/^ *[0-9]+\)/, "", d); gsub(/[^0-9.]/, "", d); s += d * 1000 } END { printf "%d\n", s + 0.5 }')
check "calls ($calls) == exit lines ($o_calls)" '[ "$calls" = "$o_calls" ]'
check "total ($total) == sum of their durations ($o_total)" '[ "$total" = "$o_total" ]'
# the direct children: getname is called once per do_sys_openat2 in this kernel
kids=$(json_get "$T/g.json" "sorted(n['function'] for n in j['graph'][0]['children'])")
check "children include getname and do_filp_open ($kids)" 'python3 -c "k = $kids; assert '\''getname'\'' in k and '\''do_filp_open'\'' in k"'
check "a child's total never exceeds its parent's" 'python3 - "$T/g.json"' <<'PY'
import json, sys
def walk(n):
    for c in n['children']:
        assert (c['total_ns'] or 0) <= (n['total_ns'] or 0) or n['repaired'] or c['repaired'], (n['function'], c['function'])
        walk(c)
for n in json.load(open(sys.argv[1]))['graph']:
    walk(n)
PY
"$FTLENS" graph --depth 0 "$F" >"$T/d0.txt"
check "--depth 0 shows only top-level functions" '! grep -q "^ .*[0-9]  *   [a-z_]" "$T/d0.txt"'
"$FTLENS" graph --format csv "$F" >"$T/g.csv"
check "csv paths are ';'-joined call paths" 'grep -q '\''^do_sys_openat2;getname,1,getname,'\'' "$T/g.csv"'
"$FTLENS" graph no_such_function_xyz "$F" >/dev/null 2>"$T/err"
check "an absent function is an error (exit 1)" '[ $? -eq 1 ]'
"$FTLENS" graph --per cpu --format json "$D/combined.txt" >"$T/c.json"
check "--per cpu puts one group per CPU on top" 'python3 -c "
import json; j = json.load(open('\''$T/c.json'\''))
assert all(n['\''function'\''].startswith('\''CPU '\'') for n in j['\''graph'\'']) and j['\''graph'\'']"'
# the node budget (issue 14 item 4): 3000 distinct leaf paths below 3 callers,
# a budget of 50 nodes; [other] takes the rest and every total stays exact
awk 'BEGIN { print "# tracer: function_graph"; for (i = 0; i < 3000; i++) {
	printf " %d)               |  outer_%d() {\n", i % 4, i % 3
	printf " %d)   0.%03d us    |    leaf_%05d();\n", i % 4, i % 997, i
	printf " %d)   1.000 us    |  }\n", i % 4 } }' >"$T/many.txt"
"$FTLENS" graph --format json --max-nodes 0 "$T/many.txt" >"$T/all.json"
"$FTLENS" graph --format json --max-nodes 50 "$T/many.txt" >"$T/b50.json"
"$FTLENS" graph --max-nodes 50 "$T/many.txt" >"$T/b50.txt"
check "without a budget every path has its node (3003)" 'python3 - "$T/all.json"' <<'PY'
import json, sys
def count(n): return 1 + sum(count(c) for c in n['children'])
j = json.load(open(sys.argv[1]))
assert sum(count(n) for n in j['graph']) == 3003 and 'max_nodes' not in j
PY
check "with --max-nodes 50 the tree stays under twice the budget" 'python3 - "$T/b50.json"' <<'PY'
import json, sys
def count(n): return 1 + sum(count(c) for c in n['children'])
j = json.load(open(sys.argv[1]))
n = sum(count(c) for c in j['graph'])
assert n <= 100 and j['max_nodes'] == 50 and j['folded_into_other'] == 3000 - 47, (n, j.get('folded_into_other'))
PY
check "[other] totals are exact: every caller's total and calls unchanged" 'python3 - "$T/all.json" "$T/b50.json"' <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
assert a['total_ns'] == b['total_ns'] and a['calls'] == b['calls']
top = lambda j: {n['function']: (n['calls'], n['total_ns']) for n in j['graph']}
assert top(a) == top(b)
for n in b['graph']:
    kids = n['children']
    assert any(c['function'] == '[other]' for c in kids), n['function']
    assert sum(c['total_ns'] for c in kids) == sum(c['total_ns'] for c in next(x for x in a['graph'] if x['function'] == n['function'])['children'])
PY
check "the text says what [other] holds" 'grep -q "^(\[other\]: 2953 calls on paths found after the tree held 50 nodes" "$T/b50.txt"'
# a budget spent while a path reaches the last level: a call below it is
# "(deeper)", never "[other]" made "(deeper)" again for ever (it hung)
awk 'function chain(leaf,   d) {
	for (d = 0; d < 255; d++) { printf " 0)               |  %*sf%d() {\n", 2 * d, "", d }
	if (leaf != "") printf " 0)   0.500 us    |  %*s%s();\n", 510, "", leaf
	for (d = 254; d >= 0; d--) printf " 0)   1.000 us    |  %*s}\n", 2 * d, "" }
	BEGIN { print "# tracer: function_graph"; chain("")
	for (i = 0; i < 20; i++) printf " 0)   0.500 us    |  leaf%d();\n", i
	chain("deep_leaf") }' >"$T/deep.txt"
timeout 60 "$FTLENS" graph --max-nodes 260 "$T/deep.txt" >"$T/deep.out" 2>"$T/deep.err"
check "a budget spent below the last level: graph ends (exit 0)" '[ $? -eq 0 ]'
check "the call below the last level is (deeper), the late leaves [other]" \
	'grep -q "\[255\] (deeper)\$" "$T/deep.out" && grep -q "^(\[other\]: 15 calls" "$T/deep.out"'
finish
