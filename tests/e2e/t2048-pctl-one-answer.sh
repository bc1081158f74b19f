#!/bin/sh
# One percentile, one answer (ftlens(1), PERCENTILES): for the same values,
# every command and view that prints a p50, p95 or p99 prints the same ones.
#  - a function's durations: report -F csv, plot durations (its data file),
#    the TUI's Functions panel (P99 column) and its histogram (H: the title
#    and the bins it marks, through tui_histo_compare.py);
#  - a wakeup latency class: sched -F csv and the TUI's Sched histogram;
#  - a span key: markers --span -F csv and the TUI's Markers histogram.
# On generated traces (pctl_oracle.py: values known, functions of 100 and
# 256 calls for the exact path, 257 and 1000 for the estimated one, latency
# classes of 40 and 300 wakeups, span keys of 30 and 400) they are also the
# definition worked out from the values; on captures (the rig's, public
# ones) they agree with one another. The TUI is the plain-text canvas
# (tests/unit/tui-screen).
. "$(dirname "$0")/lib.sh"
need_python
SCREEN=$top_builddir/tests/unit/tui-screen
[ -x "$SCREEN" ] || skip_all "tests/unit/tui-screen not built (CUnit absent)"
make_tmpdir
O=$top_srcdir/tests/e2e/pctl_oracle.py
compare=$top_srcdir/tests/e2e/tui_histo_compare.py
oracle() { python3 "$O" "$@"; }
START='B\|[0-9]+\|(.*)'
END='^E'

# same WHAT A B: true when A = B, else says both
same() {
	[ "$2" = "$3" ] && [ -n "$2" ] && return 0
	diag "$1: '$2' against '$3'"
	return 1
}

# func_agree INPUT FUNC [VALUES]: report, plot durations, Functions' P99 and
# its histogram give FUNC's p50/p95/p99 alike (and the oracle's from VALUES)
func_agree() {
	_in=$1 _f=$2
	"$FTLENS" report -F csv "$_in" >"$T/r.csv" 2>/dev/null
	_rep=$(oracle row "$T/r.csv" "$_f")
	rm -f "$T/p.dat"
	(cd "$T" && "$FTLENS" plot durations -f "$_f" --script-only -o "$T/p.png" "$_in" 2>/dev/null)
	_plot=$(sed -n 's/^# .* p50_ns p95_ns p99_ns: //p' "$T/p.dat" 2>/dev/null)
	"$SCREEN" "$T/f.screen" "$_in" 3 >/dev/null 2>&1
	_col=$(awk -v f="$_f" '$NF == f { print $(NF - 2), $(NF - 1) }' "$T/f.screen")
	"$SCREEN" "$T/h.screen" "$_in" "3/^$_f\$<Enter>H" >/dev/null 2>&1
	diag "$(grep -m1 "Durations of" "$T/h.screen")"
	_want=$_rep
	[ -n "${3:-}" ] && _want=$(oracle want "$3" "$_f")
	# shellcheck disable=SC2086
	same "report -F csv" "$_rep" "$_want" &&
		same "Functions' P99" "$_col" "$(oracle fmt ${_want##* })" &&
		same "its histogram's title" "$(oracle title "$T/h.screen")" "$(oracle fmt $_want)" &&
		same "plot durations" "$_plot" "$_want" &&
		python3 "$compare" "$T/h.screen" durations "$T/p.dat" $_want >"$T/cmp" 2>&1 ||
		{ diag "$(cat "$T/cmp" 2>/dev/null)"; return 1; }
}

# hist_agree CSV KEY SCREEN [VALUES NAME]: a command's CSV row KEY and the
# TUI histogram on SCREEN (and the oracle's NAME from VALUES)
hist_agree() {
	_cmd=$(oracle row "$1" "$2")
	diag "$(grep -m1 "  p50 " "$3")"
	_want=$_cmd
	[ -n "${4:-}" ] && _want=$(oracle want "$4" "$5")
	# shellcheck disable=SC2086
	same "the command's CSV" "$_cmd" "$_want" &&
		same "the TUI's histogram" "$(oracle title "$3")" "$(oracle fmt $_want)"
}

plan 18
oracle gen "$T"
G=$T/fgraph.txt E=$T/events.txt V=$T/values.json
check "generated: few (100 calls, exact): every view prints the definition's p50/p95/p99" \
	'func_agree "$G" few "$V"'
check "generated: edge (256 calls, the last exact count)" 'func_agree "$G" edge "$V"'
check "generated: over (257 calls, the first estimated count)" 'func_agree "$G" over "$V"'
check "generated: many (1000 calls, estimated)" 'func_agree "$G" many "$V"'

"$FTLENS" sched -F csv "$E" >"$T/s.csv" 2>/dev/null
"$SCREEN" "$T/sn.screen" "$E" '0/^normal <Enter>H' >/dev/null 2>&1
"$SCREEN" "$T/sr.screen" "$E" '0/^rt <Enter>H' >/dev/null 2>&1
check "generated: normal wakeups (300, estimated): sched and the TUI's Sched histogram" \
	'hist_agree "$T/s.csv" normal "$T/sn.screen" "$V" normal'
check "generated: RT wakeups (40, exact): sched and the TUI's Sched histogram" \
	'hist_agree "$T/s.csv" rt "$T/sr.screen" "$V" rt'

"$FTLENS" markers --span "$START" "$END" -F csv "$E" >"$T/m.csv" 2>/dev/null
"$SCREEN" "$T/ma.screen" "$E" '5/^\(all\)<Enter>H' "$START" "$END" >/dev/null 2>&1
"$SCREEN" "$T/mb.screen" "$E" '5/^big<Enter>H' "$START" "$END" >/dev/null 2>&1
"$SCREEN" "$T/ms.screen" "$E" '5/^small<Enter>H' "$START" "$END" >/dev/null 2>&1
check "generated: all spans (430, estimated): markers --span and the TUI's Markers histogram" \
	'hist_agree "$T/m.csv" "" "$T/ma.screen" "$V" "(all)"'
check "generated: span key big (400, estimated)" 'hist_agree "$T/m.csv" big "$T/mb.screen" "$V" big'
check "generated: span key small (30, exact)" \
	'hist_agree "$T/m.csv" small "$T/ms.screen" "$V" small'

# captures: the rig's (tests/data/vm), then public ones
rig=$FTL_TESTDATA/vm/fgraph-events/trace.txt
if have_input "$rig" 3; then
	check "rig capture: __rcu_read_unlock (100 calls, exact): report, plot, Functions, H alike" \
		'func_agree "$rig" __rcu_read_unlock'
	check "rig capture: vma_close (100 calls, a 35 us p99)" 'func_agree "$rig" vma_close'
	check "rig capture: __cond_resched (308 calls, estimated)" 'func_agree "$rig" __cond_resched'
fi
vfs=$FTL_REAL_DATA/fgraph/perftools_funcgraph_abstime_header_vfs_read.txt
if have_input "$vfs" 2; then
	check "perf-tools capture: xen_mc_flush (5 calls): report, plot, Functions, H alike" \
		'func_agree "$vfs" xen_mc_flush'
	check "perf-tools capture: dequeue_entity (10 calls) alike" 'func_agree "$vfs" dequeue_entity'
fi
# exits only (funcgraph's funcslower): the TUI had "no function calls"
slower=$FTL_REAL_DATA/fgraph/perftools_funcslower_proc_abstime.txt
if have_input "$slower"; then
	check "perf-tools funcslower, exits only: ext3_readpages (7 calls) alike in every view" \
		'func_agree "$slower" ext3_readpages'
fi
lisa=$FTL_REAL_DATA/events/lisa_tracecmd_report_sched_448k.txt
if have_input "$lisa" 2; then
	"$FTLENS" sched -F csv "$lisa" >"$T/ls.csv" 2>/dev/null
	"$SCREEN" "$T/ln.screen" "$lisa" '0/^normal <Enter>H' >/dev/null 2>&1
	"$SCREEN" "$T/lr.screen" "$lisa" '0/^rt <Enter>H' >/dev/null 2>&1
	check "lisa: normal wakeups (1045): sched and the TUI's Sched histogram" \
		'hist_agree "$T/ls.csv" normal "$T/ln.screen"'
	check "lisa: RT wakeups (21): sched and the TUI's Sched histogram" \
		'hist_agree "$T/ls.csv" rt "$T/lr.screen"'
fi
atrace=$FTL_REAL_DATA/events/catapult_atrace_tgid_trace_marker.txt
if have_input "$atrace"; then
	"$FTLENS" markers --span "$START" "$END" -F csv "$atrace" >"$T/am.csv" 2>/dev/null
	"$SCREEN" "$T/am.screen" "$atrace" '5/^\(all\)<Enter>H' "$START" "$END" >/dev/null 2>&1
	check "atrace: all spans: markers --span and the TUI's Markers histogram" \
		'hist_agree "$T/am.csv" "" "$T/am.screen"'
fi
finish
