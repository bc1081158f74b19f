#!/bin/sh
# Wakeup latency on captures with missing events (ftlens-sched(1),
# CONVENTIONS): a task woken a second time with no switch-in between
# restarts its latency at the later wakeup, as trace-cmd report -w does,
# and the case is counted; the worst wakeups never rank the artefact first.
# sched/lost-switch.txt is the rig's vm/events/default.txt without the two
# CPU 0 lines that ran kworker/0:1 (pid 17) after its wakeup at 3.791221:
# by that first wakeup its next switch-in (3.882022) is 90.801 ms late, by
# the second (3.881791) 231 us. On it, on the public traces that show the
# case (tracecompass' critical-path trace has no CPU 1 events: Compositor
# was woken to CPU 1 at 26186.336819, was 1.083 ms late by that wakeup, 20 us
# by its second) and on the overrun capture, every figure equals the
# oracle's (sched_oracle.py wakeups) and trace-cmd report -w's rule.
. "$(dirname "$0")/lib.sh"
prereq PYTHON
make_tmpdir
O="$top_srcdir/tests/e2e/sched_oracle.py"
CUT=$FTL_TESTDATA/sched/lost-switch.txt
CLEAN=$FTL_TESTDATA/vm/events/default.txt
CP=$FTL_REAL_DATA/events/tracecompass_critical_path_desktop.txt
KDOC=$FTL_REAL_DATA/events/kdoc5.4_events_instance_sched_wakeup_switch.txt
plan 16

# FIGURES JSON: pid 17's wakeups and largest latency, the windows' restarted
# count, the worst wakeup's latency and pid, and the largest latency of all
figures() {
	python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
t = {x["pid"]: x for x in j["tasks"]}.get(int(sys.argv[2]), {})
w = j["worst_wakeups"][0]
print(t.get("wakeups"), t.get("lat_max_ns"), j["windows"][0]["wakeups_restarted"],
      w["latency_ns"], w["pid"], j["latency"][0]["max_ns"])
' "$@"
}

"$FTLENS" sched -F json "$CUT" >"$T/cut.json" 2>"$T/cut.err"
check "the cut capture reads (exit 0) and says the header counts 2 more entries" '
	[ $? -eq 0 ] && grep -q "header says 449 entries in the buffer, the file holds 447" "$T/cut.err"'
diag "cut: $(figures "$T/cut.json" 17)"
check "pid 17: one wakeup, 231 us from its second wakeup (90.801 ms from the first)" '
	[ "$(figures "$T/cut.json" 17 | cut -d" " -f1-3)" = "1 231000 1" ]'
check "the worst wakeup is sh-106, 5.995 ms: not the artefact" '
	[ "$(figures "$T/cut.json" 17 | cut -d" " -f4-6)" = "5995000 106 5995000" ]'
"$FTLENS" sched -F json "$CLEAN" >"$T/clean.json" 2>/dev/null
check "the uncut capture: nothing restarted, pid 17 served twice" '
	[ "$(figures "$T/clean.json" 17 | cut -d" " -f1,3)" = "2 0" ]'
"$FTLENS" sched --wakeups -F csv "$CUT" >"$T/cut.csv" 2>/dev/null
"$FTLENS" sched --wakeups -F csv "$CLEAN" >"$T/clean.csv" 2>/dev/null
check "--wakeups marks the restarted one; every other latency is the uncut one" '
	python3 -c "
import csv, sys
cut = [r for r in csv.DictReader(open(sys.argv[1]))]
clean = [r for r in csv.DictReader(open(sys.argv[2]))]
restarted = [(r[\"pid\"], r[\"wake_ts_ns\"], r[\"latency_ns\"]) for r in cut if r[\"restarted\"] == \"1\"]
assert restarted == [(\"17\", \"3881791000\", \"231000\")], restarted
key = lambda r: (r[\"ts_ns\"], r[\"pid\"], r[\"latency_ns\"])
lost = set(map(key, clean)) - set(map(key, cut))
assert set(map(key, cut)) - set(map(key, clean)) == set() and len(lost) == 1, lost
" "$T/cut.csv" "$T/clean.csv"'
"$FTLENS" sched "$CUT" >"$T/cut.txt" 2>/dev/null
check "text says how many wakeups restarted" 'grep -q "^Restarted:  1 wakeups of a task woken before" "$T/cut.txt"'
"$FTLENS" sched --wakeups --wakeup-event sched_wakeup -F csv "$CUT" >"$T/cut-w.csv" 2>/dev/null
check "cut: every figure equals the oracle's" 'python3 "$O" wakeups "$CUT" "$T/cut.json" >"$T/o.out"'
diag "$(tail -3 "$T/o.out")"
check "cut: every latency from sched_wakeup equals trace-cmd -w's rule" '
	python3 "$O" tracecmd-w "$CUT" "$T/cut-w.csv" >"$T/o.out"'
diag "$(tail -3 "$T/o.out")"
"$FTLENS" plot latency --script-only -o "$T/lat.png" "$CUT" >/dev/null 2>&1
check "plot latency takes the same latencies: the largest 5.995 ms, none near 90 ms" '
	python3 -c "
import sys
v = [float(l.split()[0]) for l in open(sys.argv[1]) if l.strip() and not l.startswith(\"#\")]
assert v and 5000 < max(v) < 7000, max(v)
" "$T/lat.dat"'

if have_input "$CP" 5; then
	"$FTLENS" sched -F json "$CP" >"$T/cp.json" 2>/dev/null
	diag "critical path: $(figures "$T/cp.json" 3487)"
	check "real/tracecompass critical path: Compositor 20 us (1.083 ms by its first wakeup), restarted once" '
		[ "$(figures "$T/cp.json" 3487 | cut -d" " -f1-3)" = "1 20000 1" ]'
	check "real/tracecompass critical path: the worst wakeup is threaded-ml, 35 us" '
		[ "$(figures "$T/cp.json" 3487 | cut -d" " -f4-6)" = "35000 3534 35000" ]'
	check "real/tracecompass critical path: every figure equals the oracle's" '
		python3 "$O" wakeups "$CP" "$T/cp.json" >"$T/o.out"'
	diag "$(tail -3 "$T/o.out")"
	"$FTLENS" sched --wakeups --wakeup-event sched_wakeup -F csv "$CP" >"$T/cp-w.csv" 2>/dev/null
	check "real/tracecompass critical path: latencies from sched_wakeup equal trace-cmd -w's rule (Compositor 13 us)" '
		python3 "$O" tracecmd-w "$CP" "$T/cp-w.csv" >"$T/o.out" &&
		grep -q "^[0-9]*,26186337902000,13000,0,3487," "$T/cp-w.csv"'
	diag "$(tail -3 "$T/o.out")"
fi
if have_input "$KDOC" 2; then
	"$FTLENS" sched -F json "$KDOC" >"$T/kdoc.json" 2>/dev/null
	check "real/kdoc5.4 instance: kworker/0:1 4 us (259 us by its first wakeup)" '
		[ "$(figures "$T/kdoc.json" 59 | cut -d" " -f1-5)" = "1 4000 1 4000 59" ]'
	check "real/kdoc5.4 instance: every figure equals the oracle's" '
		python3 "$O" wakeups "$KDOC" "$T/kdoc.json" >"$T/o.out"'
	diag "$(tail -3 "$T/o.out")"
fi
OV=$FTL_TESTDATA/overrun/overrun.dat
if have_prereq TRACE_CMD; then
	trace-cmd report -w -t "$OV" >"$T/ov-w.txt" 2>/dev/null
	"$FTLENS" sched --wakeups --wakeup-event sched_wakeup -F csv "$OV" >"$T/ov.csv" 2>/dev/null
	check "overrun.dat (overwritten buffers): latencies equal trace-cmd report -w's" '
		python3 "$O" latency "$T/ov-w.txt" "$T/ov.csv" >"$T/o.out"'
	diag "$(tail -1 "$T/o.out")"
else
	skip "overrun.dat: missing $prereq_why"
fi
finish
