#!/bin/sh
# The board capture scripts of `ftlens capture-script`, run where only
# busybox is: in this initramfs, with the scripts the host made in /cap/
# (run-vm.sh --extra), and `ftlens record` beside them (--with-binary) for
# the same kind of capture. Run by tests/e2e/t5007-capture-script-vm.sh, not
# a fixture. Steps (each one's exit status and stderr in /out/NAME.rc and
# NAME.err):
#   fgraph   function_graph below a few syscall paths, sched events and a
#            burst of markers from the command: a tar on stdout
#   record   ftlens record with the same options: fgraph-record.dat
#   overrun  the function tracer on everything into 8 KB per CPU while
#            markers are written: a forced overrun, as a directory
#   flight   the flight recorder stopped by a traceoff trigger on exec
#   oops     arming ftrace_dump_on_oops, then disarm
# state-before.txt and state-after.txt: the top-level settings around them.
#@timeout 600
#@fixture no
# shellcheck source=SCRIPTDIR/../guest-lib.sh
. /guest-lib.sh
set -u
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:allocator_may_return_null=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# step NAME CMD...: one step; its status and stderr are kept.
step() {
	name=$1
	shift
	log "$name: $* at $(cut -d' ' -f1 /proc/uptime)s"
	"$@" 2>"$OUT/$name.err"
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
		echo "== ftrace_dump_on_oops"
		cat /proc/sys/kernel/ftrace_dump_on_oops
	} >"$OUT/$1"
}

reset_tracing
state state-before.txt
# a tracefs that the script mounts itself
umount "$T"
step fgraph sh -c 'busybox sh /cap/fgraph.sh >/out/fgraph.tar'
grep tracefs /proc/mounts >"$OUT/mounts-after-fgraph.txt" || true
mount -t tracefs nodev "$T"
if command -v ftlens >/dev/null 2>&1; then
	step record ftlens record -p function_graph -g do_sys_openat2 -g ksys_read \
		--max-graph-depth 3 -e sched:sched_switch -e sched:sched_wakeup -b 512 \
		-o /out/fgraph-record.dat -- sh -c \
		'echo "helper 1" >"$FTLENS_TRACE_MARKER"; i=0; while [ $i -lt 300 ]; do echo "burst $i" >"$FTLENS_TRACE_MARKER"; i=$((i+1)); done; echo "helper 2" >"$FTLENS_TRACE_MARKER"; cat /proc/version >/dev/null; ls / >/dev/null; echo "helper 3" >"$FTLENS_TRACE_MARKER"'
fi
step overrun busybox sh /cap/overrun.sh -o /out/overrun
step flight sh -c 'busybox sh /cap/flight.sh >/out/flight.tar'
step oops busybox sh /cap/oops.sh
cat /proc/sys/kernel/ftrace_dump_on_oops >"$OUT/oops-armed.txt"
cat "$T/current_tracer" >>"$OUT/oops-armed.txt"
cat "$T/buffer_size_kb" >>"$OUT/oops-armed.txt"
step disarm busybox sh /cap/oops.sh disarm
state state-after.txt
# the captures hold /proc/kallsyms: compressed, the transfer is faster
# (and the host reads the tars compressed, as they may come from a board)
gzip -1 /out/*.dat /out/*.tar 2>/dev/null
# the directory too (the host unpacks it)
tar -C /out -cf - overrun | gzip -1 >/out/overrun-dir.tar.gz && rm -rf /out/overrun
exit 0
