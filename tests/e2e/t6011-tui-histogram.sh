#!/bin/sh
# The TUI's histograms (H) in a real terminal, each against the command
# that answers the same question (tui_histo_compare.py reads both): in
# Functions and Graph, a function's durations are `plot durations -f`'s
# bins (the Graph's H takes every call of the node's function, as -f
# selects them); in Sched, a latency class is `plot latency`'s bins for the
# class and `sched -F csv`'s p50/p95/p99; in Markers, a span pattern is
# every span `markers --span -F json` lists and `markers --span -F csv`'s
# p50/p95/p99. Each value is in the bin that holds it: the plot's latency
# bins are checked against every wakeup `sched --wakeups` lists. One binning (analysis/histo.c) and one percentile
# (FtlHisto's) behind them all. The screens are kept in the log.
. "$(dirname "$0")/lib.sh"
prereq TMUX
need_python
make_tmpdir
tmux_server
wait_for() { tmux_wait_for "$@"; }
compare="$top_srcdir/tests/e2e/tui_histo_compare.py"

# start ROWS ARGS...: a fresh session running ftlens tui ARGS in $T
start() {
	_rows=$1
	shift
	_cmd="LANG=C.UTF-8 NO_COLOR=1 '$FTLENS' tui"
	for _a; do
		_cmd="$_cmd '$(printf '%s' "$_a" | sed "s/'/'\\\\''/g")'"
	done
	tm kill-session -t tui 2>/dev/null
	tm new-session -d -s tui -x 130 -y "$_rows" "cd '$T' && $_cmd 2>err"
}
# shot NAME: the screen into $T/NAME.screen and the log
shot() {
	tm capture-pane -p -t tui >"$T/$1.screen"
	diag "screen $1:"
	diag "$(cat "$T/$1.screen")"
}
# same NAME KIND ARGS...: the screen NAME against the command's data
same() {
	_n=$1
	shift
	python3 "$compare" "$T/$_n.screen" "$@" >"$T/cmp" 2>&1
	_r=$?
	diag "$(cat "$T/cmp")"
	return $_r
}
# csv_row SECTION_HEAD KEY FILE: the row of a CSV section whose first field is KEY
csv_row() { sed -n "/^$1/,/^\$/p" "$3" | grep "^$2,"; }

# funcs INPUT FUNC NAME: Functions' histogram of FUNC against plot's data
funcs() {
	(cd "$T" && "$FTLENS" plot durations -f "$2" --script-only -o "$T/$3.png" "$1" 2>/dev/null)
	start 60 "$1"
	wait_for "TIME +CPU" >/dev/null
	keys 3
	wait_for "CALLS +TOTAL" >/dev/null
	# the cursor to the function (the first row when it is there already)
	keys / "^$2\$" Enter
	sleep 0.3
	keys H
	wait_for "Durations of $2: [0-9]+ timed" || return 1
	shot "$3"
	same "$3" durations "$T/$3.dat"
}

plan 10
vm=$FTL_TESTDATA/vm/fgraph-events/trace.txt
real=$FTL_REAL_DATA/fgraph/perftools_funcgraph_abstime_header_vfs_read.txt
lisa=$FTL_REAL_DATA/events/lisa_tracecmd_report_sched_448k.txt
atrace=$FTL_REAL_DATA/events/catapult_atrace_tgid_trace_marker.txt
if have_input "$vm"; then
	check "rig capture: unmap_vmas's histogram is plot durations's, p50/p95/p99 in place" \
		'funcs "$vm" unmap_vmas vm'
fi
if have_input "$real" 3; then
	check "perf-tools capture: dequeue_entity's histogram is plot durations's" \
		'funcs "$real" dequeue_entity real'
	# Graph: H on a node of vfs_read, every call of the function
	check "perf-tools capture: Graph's H on vfs_read is plot durations -f vfs_read's" '
		(cd "$T" && "$FTLENS" plot durations -f vfs_read --script-only -o "$T/g.png" "$real" 2>/dev/null) &&
		start 60 "$real" && wait_for "TIME +CPU" >/dev/null && keys 2 &&
		wait_for "FUNCTION \(all tasks" >/dev/null && keys E / "^vfs_read\$" Enter &&
		sleep 0.3 && keys H && wait_for "Durations of vfs_read: [0-9]+ timed" && shot graph &&
		same graph durations "$T/g.dat"'
	# bins from 10 ms to 20 s: bounds in full, never as an exponent
	check "perf-tools capture: the histogram prints bounds of 10 ms and more in full" '
		grep -q "^ *15850000 *19950000 " "$T/graph.screen" &&
		! grep -q "[0-9]e[+-][0-9]" "$T/graph.screen"'
fi
if have_input "$lisa" 3; then
	(cd "$T" && "$FTLENS" plot latency --script-only -o "$T/lat.png" "$lisa" 2>/dev/null)
	"$FTLENS" sched --wakeups -F csv "$lisa" >"$T/wakeups.csv" 2>/dev/null
	# 45 normal wakeups of exactly 5.000 us are in [3.981, 5.012), not in
	# the bin their bucket's midpoint (5.056 us) would give
	check "lisa: plot latency's bins hold every wakeup sched --wakeups lists, exactly" '
		python3 - "$compare" "$T/lat.dat" "$T/wakeups.csv" <<-"PY"
		import csv, importlib.util, sys
		spec = importlib.util.spec_from_file_location("cmp", sys.argv[1])
		cmp = importlib.util.module_from_spec(spec)
		spec.loader.exec_module(cmp)
		rows = list(csv.DictReader(open(sys.argv[3])))
		bad = 0
		for cls, rt in (("normal", False), ("RT", True)):
		    lat = [int(r["latency_ns"]) for r in rows if (0 <= int(r["prio"]) < 100) == rt]
		    counts = {}
		    for v in lat:
		        counts[cmp.decade(v)] = counts.get(cmp.decade(v), 0) + 1
		    want = [cmp.bounds(b) + (counts[b],) for b in sorted(counts)]
		    got = [g for g in cmp.want_latency(sys.argv[2], cls) if g[2]]
		    print(cls, len(lat), "wakeups,", len(want), "bins;", "same" if got == want else "differ")
		    if got != want:
		        bad += 1
		        print(" plot:", got)
		        print(" want:", want)
		sys.exit(bad)
		PY'
	"$FTLENS" sched -F csv "$lisa" >"$T/lisa.csv" 2>/dev/null
	start 60 "$lisa"
	wait_for "TIME +CPU" >/dev/null
	keys 0
	wait_for "^Interrupts" >/dev/null
	# sched -F csv's p50 p95 p99 of CLASS
	pct() { csv_row class, "$1" "$T/lisa.csv" | cut -d, -f5-7 | tr , " "; }
	keys / "^normal " Enter
	sleep 0.3
	keys H
	check "lisa: Sched's H on the normal class: plot latency's bins, sched's p50/p95/p99" \
		'wait_for "Wakeup latency, normal \(whole trace\): [0-9]+ wakeups" && shot lat-normal &&
		 same lat-normal latency "$T/lat.dat" normal $(pct normal)'
	keys Escape
	sleep 0.3
	keys Up # rt is the row above normal
	sleep 0.3
	keys H
	check "lisa: ... and on the RT class (21 wakeups beside 1045)" \
		'wait_for "Wakeup latency, rt \(whole trace\): 21 wakeups" && shot lat-rt &&
		 same lat-rt latency "$T/lat.dat" RT $(pct rt)'
	keys Escape
	check "lisa: Esc closes it, the tables are back" 'wait_for "^Wakeup latency \(H: "'
fi
if have_input "$atrace"; then
	START='B\|[0-9]+\|(.*)'
	"$FTLENS" markers --span "$START" '^E' -F json "$atrace" >"$T/m.json" 2>/dev/null
	"$FTLENS" markers --span "$START" '^E' -F csv "$atrace" >"$T/m.csv" 2>/dev/null
	start 100 --span "$START" '^E' --panel markers "$atrace"
	wait_for "Span durations" >/dev/null
	keys / "^\(all\)" Enter
	sleep 0.3
	keys H
	# all spans: every span markers --span lists, each in its bin, and
	# markers' p50 p95 p99
	all=$(sed -n '/^key,/,/^$/p' "$T/m.csv" | sed -n 2p)
	check "atrace: Markers' H on all spans: markers --span's spans and p50/p95/p99" \
		'wait_for "Span durations, all spans: [0-9]+ spans" && shot spans &&
		 same spans values "$T/m.json" spans duration_ns \
			$(echo "$all" | awk -F, "{ print \$5, \$6, \$7 }")'
fi
keys Escape q
check "Esc closes it, q quits with nothing on stderr" \
	'sleep 0.5 && [ "$(tm display -p -t tui "#{pane_dead}")" = 1 ] && [ ! -s "$T/err" ]'
finish
