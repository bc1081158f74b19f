#!/bin/sh
# `ftlens graph`: rooted at a function, its calls and total equal the sum of
# its outermost exits printed in the trace; children are nested by depth.
. "$(dirname "$0")/lib.sh"
prereq PYTHON
make_tmpdir
D=$FTL_TESTDATA/vm/fgraph-options
[ -f "$D/tail.txt" ] || skip_all "rig captures absent"
plan 10
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
finish
