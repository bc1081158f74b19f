#!/bin/sh
# ftlens record with the real tracers, inside the VM rig's guest (Debian's
# 6.1 kernel under TCG: function_graph, the stack tracer, traceoff triggers),
# the ftlens under test copied in: tests/vm/scenarios/record.sh. One boot.
# The host checks the results with ftlens and trace-cmd: function_graph
# entries and exits, the same event counts in both tools, markers from the
# traced command, flight-recorder hits stopped by a trigger and by the
# application, the stack series format, the top-level settings as they were,
# mounting tracefs when absent and the debugfs/tracing fallback. Needs root,
# qemu, a Debian cloud kernel and busybox-static; skips without them.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

rig=$top_srcdir/tests/vm
prereq QEMU TRACE_CMD PYTHON
make_tmpdir

plan 35
out=$T/out
FTLENS_VM_KERNEL=$kernel "$rig/run-vm.sh" "$rig/scenarios/record.sh" "$out" \
	--with-binary "$FTLENS" 2>"$T/rig.err"
rc=$?
check "run-vm.sh boots the guest, runs the scenario and brings /out back (exit $rc)" '[ "$rc" -eq 0 ]'
[ "$rc" -eq 0 ] || diag "$(tail -n 20 "$T/rig.err")"
for f in "$out"/*.dat.gz; do
	[ -e "$f" ] && gunzip "$f"
done

for step in mount fgraph flight appstop stack debugfs; do
	check "guest: ftlens record ($step) exits 0 ($(cat "$out/$step.rc" 2>/dev/null))" \
		'[ "$(cat "$out/$step.rc" 2>/dev/null)" = 0 ]'
	[ "$(cat "$out/$step.rc" 2>/dev/null)" = 0 ] || diag "$(cat "$out/$step.err" 2>/dev/null)"
done
check "no sanitizer report from the guest's ftlens" '! grep -l Sanitizer "$out"/*.err'

# silent FILE: trace-cmd report reads it without a word on stderr
silent() {
	trace-cmd report "$1" >"$T/silent.out" 2>"$T/silent.err" && [ -s "$T/silent.out" ] &&
		[ ! -s "$T/silent.err" ]
}
counts() { python3 "$top_srcdir/tests/e2e/event_counts.py" "$@"; }
# stops_at REPORT REGEX [N]: the hit ends at that event on its CPU
stops_at() {
	python3 "$top_srcdir/tests/e2e/stops_at.py" "$@" 2>"$T/stops.err" && return 0
	diag "$(cat "$T/stops.err")"
	return 1
}

# 1. tracefs mounted by ftlens itself
check "the scenario unmounted tracefs first" '[ ! -s "$out/mount-before.txt" ]'
check "ftlens mounted it at /sys/kernel/tracing" 'grep -q '\''^nodev /sys/kernel/tracing tracefs '\'' "$out/mount-after.txt"'
check "that recording is complete, with the command's marker" \
	'trace-cmd report "$out/mount.dat" 2>/dev/null | grep -q "mount marker"'

# 2. function_graph
check "trace-cmd report reads fgraph.dat without complaint" 'silent "$out/fgraph.dat"'
trace-cmd report -N "$out/fgraph.dat" >"$T/fg.report" 2>/dev/null
"$FTLENS" dump "$out/fgraph.dat" >"$T/fg.dump" 2>"$T/fg.dump.err"
check "ftlens dump reads fgraph.dat" '[ $? -eq 0 ]'
counts report "$T/fg.report" >"$T/fg.rc"
counts dump "$T/fg.dump" >"$T/fg.dc"
check "ftlens and trace-cmd count the same events per name and CPU" 'cmp -s "$T/fg.rc" "$T/fg.dc"'
cmp -s "$T/fg.rc" "$T/fg.dc" || diag "$(diff "$T/fg.rc" "$T/fg.dc" | head)"
n_in=$(grep -c ' entry  *funcgraph_entry: ' "$T/fg.dump")
n_out=$(grep -c ' exit  *funcgraph_exit: ' "$T/fg.dump")
check "function_graph entries ($n_in) and exits ($n_out) are there" '[ "$n_in" -gt 0 ] && [ "$n_out" -gt 0 ]'
check "the graph holds the -g function" 'grep -q '\''funcgraph_entry: func=do_sys_openat2 '\'' "$T/fg.dump"'
check "no entry deeper than --max-graph-depth 3" '! grep -q "funcgraph_entry: func=.* depth=[3-9]" "$T/fg.dump"'
check "the command's markers are in it" 'grep -q "^marker fgraph before" "$T/fg.rc" && grep -q "^marker fgraph after" "$T/fg.rc"'
"$FTLENS" graph do_sys_openat2 "$out/fgraph.dat" >"$T/fg.graph" 2>&1
check "ftlens graph rebuilds calls below do_sys_openat2" 'grep -q do_sys_openat2 "$T/fg.graph"'
diag "$(grep 'note:' "$out/fgraph.err")"

# 3. the flight recorder
for k in 1 2; do
	f=$out/flight.hit$k.dat
	check "flight hit $k: trace-cmd report reads it without complaint" 'silent "$f"'
	trace-cmd report "$f" >"$T/hit.report" 2>/dev/null
	# The traceoff trigger runs after the exec event is committed, with
	# interrupts on: a tick landing in between may add its own events on
	# that CPU first (sched_stat_runtime seen once in a distcheck run,
	# softirq_raise in a CI run), in the context of the task that fired the
	# trigger, which stops_at.py allows.
	check "flight hit $k stops at the exec that fired the trigger" \
		'stops_at "$T/hit.report" '\''sched_process_exec:'\'' 2'

done
trace-cmd report "$out/appstop.hit1.dat" >"$T/hit.report" 2>/dev/null
check "the application's own stop: a hit ending at its marker" \
	'stops_at "$T/hit.report" '\''app: stopping now'\'' 2'

check "only the hits asked for" '[ ! -e "$out/flight.hit3.dat" ]'

# 4. the stack tracer series
s=$out/stack-series.txt
check "the series header" 'head -n 1 "$s" | grep -q "^# ftlens-stack-series v1 kernel=6\.1\.[^ ]* clock=monotonic\$"'
n=$(grep -c '^# snapshot ' "$s")
check "snapshots were taken ($n)" '[ "$n" -ge 1 ]'
check "snapshots are numbered from 1, the maximum grows, times advance" 'python3 - "$s"' <<'PY'
import re, sys
lines = open(sys.argv[1]).read().split("\n")
heads = [(i, re.match(r"^# snapshot (\d+) time=(\d+\.\d{6}) max_size=(\d+)$", l)) for i, l in enumerate(lines) if l.startswith("# snapshot")]
assert heads and all(m for _, m in heads), "bad snapshot header"
nums = [int(m.group(1)) for _, m in heads]
assert nums == list(range(1, len(nums) + 1)), nums
sizes = [int(m.group(3)) for _, m in heads]
assert all(a < b for a, b in zip(sizes, sizes[1:])), sizes
times = [float(m.group(2)) for _, m in heads]
assert all(a <= b for a, b in zip(times, times[1:])), times
for i, _ in heads:
    assert re.match(r"^ +Depth +Size +Location +\(\d+ entries\)$", lines[i + 1]), lines[i + 1]
PY
check "every table is the kernel's, verbatim (first entry: 0) depth size func+off/len)" \
	'grep -A3 "^# snapshot" "$s" | grep -Eq "^  0\) +[0-9]+ +[0-9]+ +[a-z_].*\+0x[0-9a-f]+/0x[0-9a-f]+\$"'
check "ftlens plot stack draws the live series: a point per snapshot at its max_size, no gnuplot warning" \
	'"$FTLENS" plot stack -o "$T/live-stack.png" "$s" 2>"$T/live-stack.err" &&
	 ! grep -q "gnuplot says" "$T/live-stack.err" &&
	 [ "$(grep -v "^#" "$T/live-stack.dat" | cut -d" " -f2 | tr "\n" " ")" = \
	   "$(sed -n "s/^# snapshot .* max_size=//p" "$s" | tr "\n" " ")" ] &&
	 python3 -c "import struct, sys; b = open(sys.argv[1], \"rb\").read(24); assert b[:8] == b\"\\x89PNG\\r\\n\\x1a\\n\" and struct.unpack(\">II\", b[16:24]) == (1000, 600)" "$T/live-stack.png"'

# 5. what the guest's top level looked like around steps 2-4
check "top-level settings, instances and stack_tracer_enabled as they were" \
	'cmp -s "$out/state-before.txt" "$out/state-after.txt"'
cmp -s "$out/state-before.txt" "$out/state-after.txt" ||
	diag "$(diff "$out/state-before.txt" "$out/state-after.txt")"

# 6. debugfs only
check "the mount table had only debugfs" '! grep -q tracefs "$out/debugfs-mounts-before.txt"'
check "ftlens used debugfs/tracing" '[ "$(cat "$out/debugfs-tracefs.txt" 2>/dev/null)" = /sys/kernel/debug/tracing ]'
check "and that recording reads without complaint" 'silent "$out/debugfs.dat"'

all_ok=1
for f in "$out"/*.dat; do
	"$FTLENS" info "$f" >/dev/null 2>"$T/info.err" || { all_ok=0; diag "$f: $(cat "$T/info.err")"; }
done
check "ftlens info reads every trace.dat the guest wrote" '[ $all_ok = 1 ]'
finish
