#!/bin/sh
# Empty answers explain themselves: graph, diff and report on an input
# without function_graph calls, and --cpu/--pid/--time selections that keep
# no event, say why on standard error (or in the report's section) and
# which command shows what the input holds. Exit status, as ftlens(1)
# says: 1 when a selection term matches nothing or the whole answer is
# empty (no event selected; graph or diff with no call to show), 0
# otherwise; CSV and JSON still parse.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
prereq PYTHON
make_tmpdir
plan 10

sched=$FTL_TESTDATA/vm/events/default.txt
fg=$FTL_TESTDATA/vm/fgraph-basic/trace.txt
func=$FTL_TESTDATA/vm/function/default.txt

"$FTLENS" graph "$sched" >"$T/o" 2>"$T/e"
check "graph of a sched trace: exit 1, nothing on stdout, one line saying what it holds" '
	[ $? -eq 1 ] && [ ! -s "$T/o" ] && [ "$(wc -l <"$T/e")" -eq 1 ] &&
	grep -q "no function_graph calls in .*default.txt: its 449 events (sched_" "$T/e" &&
	grep -q "try \`ftlens sched\`, or \`ftlens markers\` for its 2 markers" "$T/e"'
"$FTLENS" graph "$func" 2>"$T/e" >/dev/null
check "graph of a function-tracer trace points at report" '[ $? -eq 1 ] && grep -q "try \`ftlens report\`" "$T/e"'
"$FTLENS" graph --format json "$sched" >"$T/o.json" 2>/dev/null
check "graph --format json of it: exit 1, an empty graph that parses" '
	[ $? -eq 1 ] && [ "$(json_get "$T/o.json" "j[\"graph\"]")" = "[]" ]'
"$FTLENS" graph --cpu 9 "$fg" >"$T/o" 2>"$T/e"
check "graph --cpu 9 of a 2-CPU trace: the CPU has no event, exit 1, nothing on stdout" '
	[ $? -eq 1 ] && [ ! -s "$T/o" ] &&
	grep -q "graph: --cpu 9: no event of .* is on CPU 9 (it has events on CPUs 0-1)" "$T/e"'
"$FTLENS" graph --pid 1 --time 0,1 "$fg" >"$T/o" 2>"$T/e"
check "graph --pid --time: both options named, each with what matched nothing" '
	[ $? -eq 1 ] && grep -q -- "--pid 1: no event of .* is of pid 1" "$T/e" &&
	grep -q -- "^--time: no event of .* has a timestamp to select by" "$T/e"'

"$FTLENS" diff "$sched" "$sched" >"$T/o" 2>"$T/e"
check "diff of two traces without calls: nothing to compare, exit 1, both sides explained" '
	[ $? -eq 1 ] && [ ! -s "$T/o" ] && grep -q "nothing to compare: A: no function_graph calls.*; B: no function_graph calls" "$T/e"'
"$FTLENS" diff "$fg" "$sched" >"$T/o" 2>"$T/e"
check "diff with one side without calls: the answer (exit 0) and a note about B" '
	[ $? -eq 0 ] && [ -s "$T/o" ] && grep -q "^ftlens: diff: note: B: no function_graph calls" "$T/e"'

"$FTLENS" report "$sched" >"$T/o" 2>"$T/e"
check "report of a sched trace: exit 0, its function sections say why they are empty" '
	[ $? -eq 0 ] && [ ! -s "$T/e" ] &&
	[ "$(grep -c "(none: no function_graph calls in .*: try \`ftlens sched\`" "$T/o")" -ge 2 ]'
"$FTLENS" report --pid 99999 "$fg" >"$T/o" 2>"$T/e"
check "report --pid that matches no task: exit 1, nothing on stdout, the reason" '
	[ $? -eq 1 ] && [ ! -s "$T/o" ] &&
	grep -q "report: --pid 99999: no event of .* is of pid 99999" "$T/e"'
"$FTLENS" report --format json "$sched" >"$T/o.json"
check "report JSON carries the reason (null when there are calls)" '
	json_get "$T/o.json" "j[\"empty_why\"]" | grep -q "no function_graph calls" &&
	[ "$("$FTLENS" report --format json "$fg" | python3 -c "import json,sys; print(json.load(sys.stdin)[\"empty_why\"])")" = None ]'
finish
