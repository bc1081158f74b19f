#!/bin/sh
# The bundled sample, data/sample-fgraph.txt: function_graph with
# funcgraph-abstime and funcgraph-proc, depth 3, on a few syscall roots,
# on two CPUs, with trace_marker writes "before NAME" and "after NAME"
# around each of three pieces of work (ls, cat, sleep), so that the
# README's quick tour (--time windows, markers, spans, --relative-to)
# has timestamps and markers to work on. make-fixtures.sh moves trace.txt
# to data/sample-fgraph.txt (the #@sample line).
#@timeout 240
#@sample data/sample-fgraph.txt
# shellcheck source=SCRIPTDIR/../guest-lib.sh
. /guest-lib.sh
set -eu
# CMD... on CPU 0 and CPU 1 at once; unlike work, no shell that sources
# guest-lib.sh (its reads would fill the sample)
both() {
	taskset -c 0 "$@" &
	a=$!
	taskset -c 1 "$@" &
	b=$!
	wait "$a" "$b"
}
reset_tracing
save_env
w 1024 buffer_size_kb
set_graph do_sys_openat2 ksys_read ksys_write __x64_sys_getdents64 hrtimer_nanosleep
w 3 max_graph_depth
use_tracer function_graph
reset_fgraph_options
opt funcgraph-abstime 1
opt funcgraph-proc 1
cat "$T/set_graph_function" >set_graph_function.txt
cat "$T/trace_options" >trace.options
w 1 tracing_on
marker 'before ls'
both ls /sys/kernel >/dev/null
marker 'after ls'
marker 'before cat'
both cat /proc/version >/dev/null
marker 'after cat'
marker 'before sleep'
both usleep 1000
marker 'after sleep'
w 0 tracing_on
save trace trace.txt
