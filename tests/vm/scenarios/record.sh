#!/bin/sh
# ftlens record inside the guest, where the real tracers exist: run by
# tests/e2e/t5002-record-vm.sh with the ftlens under test copied in
# (run-vm.sh --with-binary), not a fixture. With tracefs unmounted first
# (ftlens mounts it), function_graph with -g and a marker from the traced
# command, the flight recorder stopped by a traceoff trigger and by an
# application writing tracing_on, the stack tracer for 2 s, and a debugfs-only
# mount table (ftlens falls back to debugfs/tracing). Each step's exit status
# and stderr go to /out/NAME.rc and NAME.err; state-before.txt and
# state-after.txt are the top-level settings around steps 2-4.
#@timeout 420
#@fixture no
# shellcheck source=SCRIPTDIR/../guest-lib.sh
. /guest-lib.sh
set -u
# The sanitizer build is what `make check` builds; its runtime came in with
# it (ldd). Leak checks need no ptrace permission the guest lacks: as root
# in a plain initramfs they work, so keep them.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:allocator_may_return_null=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
if ! command -v ftlens >/dev/null 2>&1; then
	log "no ftlens in the initramfs (run-vm.sh --with-binary PATH)"
	exit 1
fi
save_env
reset_tracing

# run NAME ARGS...: one ftlens step; its status and stderr are kept.
run() {
	name=$1
	shift
	log "$name: ftlens $* at $(cut -d' ' -f1 /proc/uptime)s"
	ftlens "$@" 2>"$OUT/$name.err"
	echo $? >"$OUT/$name.rc"
	log "$name: exit $(cat "$OUT/$name.rc")"
}

state() {
	{
		echo "instances: $(ls "$T/instances" | tr '\n' ' ')"
		for f in tracing_on current_tracer set_event buffer_size_kb trace_clock \
			trace_options set_ftrace_filter set_graph_function max_graph_depth \
			events/sched/sched_process_exec/trigger; do
			echo "== $f"
			cat "$T/$f"
		done
		echo "== stack_tracer_enabled"
		cat /proc/sys/kernel/stack_tracer_enabled
	} >"$OUT/$1"
}

# 1. no tracefs mounted: ftlens finds none in the mount table and mounts it
umount "$T"
grep tracefs /proc/mounts >"$OUT/mount-before.txt" || true
run mount record -e sched:sched_switch -o /out/mount.dat -- sh -c 'echo "mount marker" >"$FTLENS_TRACE_MARKER"'
grep tracefs /proc/mounts >"$OUT/mount-after.txt" || true

state state-before.txt
# 2. function_graph below one function, with a marker from the command
run fgraph record -p function_graph -g do_sys_openat2 --max-graph-depth 3 -O funcgraph-proc \
	-e sched:sched_switch -o /out/fgraph.dat -- sh -c \
	'echo "fgraph before" >"$FTLENS_TRACE_MARKER"; cat /proc/version >/dev/null; ls / >/dev/null; echo "fgraph after" >"$FTLENS_TRACE_MARKER"'

# 3. the flight recorder: a traceoff trigger on exec, twice
run flight record --flight --hits 2 --stop-on sched:sched_process_exec -e sched -e irq \
	-o /out/flight.dat -- sh -c 'i=0; while [ $i -lt 50 ]; do usleep 200000; /bin/true; i=$((i+1)); done'
# ... and an application that turns tracing off itself (tracing_off()).
run appstop record --flight -e sched:sched_switch -o /out/appstop.dat -- sh -c \
	'usleep 300000; echo "app: stopping now" >"$FTLENS_TRACE_MARKER"; echo 0 >"$FTLENS_TRACEFS/tracing_on"; usleep 100000'

# 4. the stack tracer for 2 s while work runs
(work 3) &
wpid=$!
run stack record --stack --duration 2 --reset -o /out/stack-series.txt
wait "$wpid" || true
state state-after.txt

# 5. only debugfs in the mount table, and /sys/kernel/tracing gone: ftlens
# falls back to debugfs/tracing (older kernels' only place)
umount "$T"
mount -t tmpfs none /sys/kernel
mkdir -p /sys/kernel/debug
mount -t debugfs nodev /sys/kernel/debug
grep -E 'tracefs|debugfs' /proc/mounts >"$OUT/debugfs-mounts-before.txt" || true
run debugfs record -e sched:sched_switch -o /out/debugfs.dat -- sh -c 'echo "$FTLENS_TRACEFS" >/out/debugfs-tracefs.txt'

# Each trace.dat holds /proc/kallsyms (3.6 MB): compressed, the serial
# transfer takes a quarter of the time.
gzip -1 /out/*.dat 2>/dev/null || gzip /out/*.dat
exit 0
