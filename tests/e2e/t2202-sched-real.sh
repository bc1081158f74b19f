#!/bin/sh
# `ftlens sched` against an oracle written apart from it (sched_oracle.py,
# python over the text): per-task run time and switch counts (preempted apart), per-CPU busy
# and idle time, on the public scheduling traces in ../shared/data/real
# (text, and trace.dat through `trace-cmd report -t`) and the rig's event
# traces; on every one busy + idle = the CPU's window. On the text ones, the
# wakeup rules too (sched_oracle.py wakeups): per task the wakeups measured,
# the largest latency, voluntary/preempted/unknown and inferred switch-outs;
# restarted wakeups, recorded and inferred switches per CPU, the worst wakeup.
. "$(dirname "$0")/lib.sh"
prereq PYTHON
make_tmpdir
R=$FTL_REAL_DATA
TEXT="events/tracecompass_android_sched.txt events/tracecompass_android_sched_irq.txt
events/tracecompass_android_sched_irq_syscall.txt events/lisa_tracecmd_report_sched_448k.txt
events/tracecompass_atrace_android_tgid_large.txt
events/kdoc5.4_events_instance_sched_wakeup_switch.txt
events/kdoc5.4_events_snapshot_sched_switch.txt"
DAT="raw/lisa_rtapp_6cpu_trace.dat raw/trappy_arm64_6cpu_idle_trace.dat"
RIG="vm/events/default.txt vm/events/record-tgid.txt"
n=0
for f in $TEXT $DAT $RIG; do n=$((n + 2)); done
for f in $TEXT $RIG; do n=$((n + 1)); done
plan "$n"

oracle() { python3 "$top_srcdir/tests/e2e/sched_oracle.py" compare "$1" "$2" >"$T/oracle.out" 2>&1; }
window() { # JSON: every CPU's busy + idle + unknown is its window, and nothing is unknown
	python3 -c '
import json, sys
for c in json.load(open(sys.argv[1]))["cpus"]:
    assert c["busy_ns"] + c["idle_ns"] == c["window_ns"] and not c["unknown_ns"], c
' "$1"
}
# one INPUT ORACLE_TEXT NAME: two checks
one() {
	in=$1 text=$2 name=$3
	"$FTLENS" sched -F json "$in" >"$T/s.json" 2>"$T/s.err"
	check "$name: run time, switches and preemptions per task, busy and idle per CPU equal the oracle's" 'oracle "$text" "$T/s.json"'
	diag "$(tail -3 "$T/oracle.out")"
	check "$name: busy + idle = window on every CPU" 'window "$T/s.json"'
}
wakeups() { # INPUT NAME: one check, after one() wrote $T/s.json
	win=$1
	check "$2: the wakeup rules give the oracle's figures" '
		python3 "$top_srcdir/tests/e2e/sched_oracle.py" wakeups "$win" "$T/s.json" >"$T/oracle.out" 2>&1'
	diag "$(tail -2 "$T/oracle.out")"
}
for f in $TEXT; do
	have_input "$R/$f" 3 || continue
	one "$R/$f" "$R/$f" "real/$f"
	wakeups "$R/$f" "real/$f"
done
for f in $DAT; do
	have_input "$R/$f" 2 || continue
	if ! have_prereq TRACE_CMD; then
		skip "real/$f: missing $prereq_why"
		skip "real/$f: missing $prereq_why"
		continue
	fi
	trace-cmd report -t "$R/$f" >"$T/report.txt" 2>/dev/null
	one "$R/$f" "$T/report.txt" "real/$f (trace-cmd report -t as the oracle's text)"
done
for f in $RIG; do
	one "$FTL_TESTDATA/$f" "$FTL_TESTDATA/$f" "$f"
	wakeups "$FTL_TESTDATA/$f" "$f"
done
finish
