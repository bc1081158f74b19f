#!/bin/sh
# The board capture script where only busybox is: the VM rig's initramfs
# (busybox and nothing else; Debian's 6.1 kernel under qemu, whose
# instances cannot do function_graph, so the script falls back to the
# top-level buffer) runs the scripts ftlens capture-script made here
# (tests/vm/scenarios/capture-script.sh): function_graph below a few
# syscalls with sched events and a burst of markers (a tar on stdout), a
# forced overrun into 8 KB per CPU (a directory), the flight recorder
# stopped by a traceoff trigger, and arming ftrace_dump_on_oops; and
# `ftlens record` with the same options beside them. Here: every event of
# each capture equal in kind and payload to trace-cmd's decoding of the very
# same pages, the losses equal to the saved stats, the same kinds of event
# and the same markers as ftlens record's capture, the top level as it was.
# One boot. Needs root, qemu, a Debian cloud kernel, busybox-static,
# trace-cmd and python3; skips without them.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

rig=$top_srcdir/tests/vm
H=$(dirname "$0")
prereq QEMU TRACE_CMD PYTHON
make_tmpdir

plan 21
X=$T/extra/cap
mkdir -p "$X"
# a burst of 300 markers by the shell, and 3 by the ftl_marker helper
burst='ftl_marker "helper 1"; i=0; while [ $i -lt 300 ]; do echo "burst $i" >"$FTLENS_TRACE_MARKER"; i=$((i+1)); done; ftl_marker "helper 2"; cat /proc/version >/dev/null; ls / >/dev/null; ftl_marker "helper 3"'
"$FTLENS" capture-script -p function_graph -g do_sys_openat2 -g ksys_read --max-graph-depth 3 \
	-e sched:sched_switch -e sched:sched_wakeup -b 512 -- sh -c "$burst" >"$X/fgraph.sh" &&
	"$FTLENS" capture-script -e sched:sched_switch -b 8 -- sh -c \
		'i=0; while [ $i -lt 4000 ]; do echo "overrun $i" >"$FTLENS_TRACE_MARKER"; i=$((i+1)); done' >"$X/overrun.sh" &&
	"$FTLENS" capture-script --flight --stop-on sched:sched_process_exec -e sched:sched_switch \
		-e sched:sched_process_exec -b 256 -- sh -c 'sleep 1; /bin/true; sleep 1' >"$X/flight.sh" &&
	"$FTLENS" capture-script --oops -p function_graph -g do_sys_openat2 -b 64 -e sched:sched_switch >"$X/oops.sh"
check "capture-script writes the four scripts" '[ $? -eq 0 ]'

out=$T/out
FTLENS_VM_KERNEL=$kernel "$rig/run-vm.sh" "$rig/scenarios/capture-script.sh" "$out" \
	--extra "$T/extra" --with-binary "$FTLENS" 2>"$T/rig.err"
rc=$?
check "run-vm.sh boots, runs the scripts and brings /out back (exit $rc)" '[ "$rc" -eq 0 ]'
[ "$rc" -eq 0 ] || diag "$(tail -n 20 "$T/rig.err")"
for f in "$out"/*.dat.gz; do
	[ -e "$f" ] && gunzip "$f"
done
for s in fgraph record overrun flight oops disarm; do
	check "guest: step $s exits 0 ($(cat "$out/$s.rc" 2>/dev/null))" '[ "$(cat "$out/$s.rc" 2>/dev/null)" = 0 ]'
	[ "$(cat "$out/$s.rc" 2>/dev/null)" = 0 ] || diag "$(tail -5 "$out/$s.err" 2>/dev/null)"
done
diag "fgraph: $(grep -v '^ftlens-capture: \(tracing\|capture\) ' "$out/fgraph.err" | head -3)"

# compare LABEL CAPTURE DIR: ftlens dump of CAPTURE against trace-cmd's
# report of DIR's pages packed by raw2dat.py
compare() {
	args=""
	for f in "$3"/per_cpu/cpu*/trace_pipe_raw; do
		c=${f%/trace_pipe_raw}
		args="$args ${c##*/cpu}:$f"
	done
	python3 "$H/raw2dat.py" "$3/events" "$T/$1.dat" $args &&
		"$FTLENS" dump "$2" >"$T/$1.dump" 2>"$T/$1.derr" &&
		trace-cmd report -N -t "$T/$1.dat" >"$T/$1.report" 2>/dev/null &&
		trace-cmd report -t "$T/$1.dat" >"$T/$1.report2" 2>/dev/null &&
		python3 "$H/payload_compare.py" "$1" "$T/$1.dump" "$T/$1.report" "$T/$1.report2" >"$T/$1.cmp" 2>&1
	diag "$(grep '^FIGURES' "$T/$1.cmp")"
	grep -q "^FIGURES .* different=0 missing=0" "$T/$1.cmp" && ! grep -q "^FIGURES .* events=0 " "$T/$1.cmp"
}
# stats_lost DIR: overrun + dropped events of its saved stats
stats_lost() { cat "$1"/per_cpu/cpu*/stats | awk '/^overrun:/ { n += $2 } /^dropped events:/ { n += $3 } END { print n + 0 }'; }
# info_lost INPUT: the losses info counts (the pages' marks and the stats)
info_lost() {
	"$FTLENS" info --json "$1" 2>/dev/null | python3 -c 'import json, sys; print(json.load(sys.stdin)["diagnostics"].get("lost_events", {}).get("amount", 0))'
}

# 1. function_graph with sched events and markers, a tar from stdout
mkdir -p "$T/fg"
tar -C "$T/fg" -xzf "$out/fgraph.tar.gz" 2>/dev/null
check "the tar holds pages, formats, kallsyms, stats, trace_clock and uname" \
	'[ -s "$T/fg/per_cpu/cpu0/trace_pipe_raw" ] && [ -f "$T/fg/events/ftrace/funcgraph_entry/format" ] &&
	 [ -s "$T/fg/kallsyms" ] && [ -f "$T/fg/per_cpu/cpu1/stats" ] && [ -s "$T/fg/trace_clock" ] && grep -q "^Linux " "$T/fg/uname"'
check "the script mounted tracefs itself and unmounted it after" '[ ! -s "$out/mounts-after-fgraph.txt" ]'
check "fgraph: every event equal in kind and payload to trace-cmd's" 'compare fgraph "$out/fgraph.tar.gz" "$T/fg"'
n_in=$(grep -c ' entry  *funcgraph_entry: ' "$T/fgraph.dump")
n_m=$(grep -c 'text=burst [0-9]*$' "$T/fgraph.dump")
n_h=$(grep -c 'text=helper [123]$' "$T/fgraph.dump")
check "fgraph: graph entries ($n_in) below the -g functions, all 300 markers ($n_m) and 3 from ftl_marker ($n_h)" \
	'[ "$n_in" -gt 0 ] && [ "$n_m" -eq 300 ] && [ "$n_h" -eq 3 ] && grep -q "funcgraph_entry: func=\(do_sys_openat2\|ksys_read\) " "$T/fgraph.dump" &&
	 ! grep -q "funcgraph_entry: func=.* depth=[3-9]" "$T/fgraph.dump"'
check "fgraph: info shows the guest's kernel release" '"$FTLENS" info "$out/fgraph.tar.gz" | grep -q "^Kernel:   6\.1\."'
check "fgraph: lost events as the saved stats say ($(info_lost "$out/fgraph.tar.gz") = $(stats_lost "$T/fg"))" \
	'[ "$(info_lost "$out/fgraph.tar.gz")" = "$(stats_lost "$T/fg")" ]'

# 2. ftlens record's capture of the same kind
# kinds DUMP: the event names in it (a comm may hold blanks: found by the
# kind column before the name)
kinds() {
	grep -oE ' (marker|switch|wakeup|event|entry|exit|lost|func|irq-entry|irq-exit) +[a-z_]+:' "$1" |
		awk '{ print $2 }' | sort -u | tr '\n' ' '
}
"$FTLENS" dump "$out/fgraph-record.dat" >"$T/rec.dump" 2>/dev/null
check "the same kinds of event as ftlens record's capture ($(kinds "$T/fgraph.dump"))" \
	'[ "$(kinds "$T/fgraph.dump")" = "$(kinds "$T/rec.dump")" ] && [ "$(grep -c "text=burst [0-9]*$" "$T/rec.dump")" -eq 300 ]'

# 3. the forced overrun, a directory
tar -C "$out" -xzf "$out/overrun-dir.tar.gz" 2>/dev/null
O=$out/overrun
check "overrun: the stats count losses ($(stats_lost "$O"))" '[ "$(stats_lost "$O")" -gt 0 ]'
check "overrun: every event equal in kind and payload to trace-cmd's" 'compare overrun "$O" "$O"'
check "overrun: info's lost events equal the saved stats ($(info_lost "$O") = $(stats_lost "$O"))" \
	'[ "$(info_lost "$O")" = "$(stats_lost "$O")" ]'

# 4. the flight recorder
mkdir -p "$T/fl"
tar -C "$T/fl" -xzf "$out/flight.tar.gz" 2>/dev/null
check "flight: the hit ends at the exec that fired the trigger" \
	'compare flight "$out/flight.tar.gz" "$T/fl" && python3 "$H/stops_at.py" "$T/flight.report" "sched_process_exec:" 2'

# 5. crash mode and the top level afterwards
# (the kernel rounds the size up to whole pages: 67 KB for 64)
kb=$(sed -n 3p "$out/oops-armed.txt")
check "oops: ftrace_dump_on_oops was armed with function_graph and 64 KB per CPU ($kb)" \
	'[ "$(sed -n 1p "$out/oops-armed.txt")" = 1 ] && [ "$(sed -n 2p "$out/oops-armed.txt")" = function_graph ] &&
	 [ "$kb" -ge 64 ] && [ "$kb" -lt 80 ]'
check "top-level settings, instances and ftrace_dump_on_oops as they were" \
	'cmp -s "$out/state-before.txt" "$out/state-after.txt"'
cmp -s "$out/state-before.txt" "$out/state-after.txt" ||
	diag "$(diff "$out/state-before.txt" "$out/state-after.txt" | head -20)"
finish
