#!/bin/sh
# The classic workflow from the ftrace articles: function_graph, a marker
# before and after the interesting work, tracing_on=0, save the trace.
# Graph roots are the syscall entry points (all of them) with a depth limit,
# since graphing every function is too slow under TCG.
#@timeout 240
# shellcheck source=SCRIPTDIR/../guest-lib.sh
. /guest-lib.sh
set -eu
reset_tracing
save_env
w 1024 buffer_size_kb
w '__x64_sys_*' set_graph_function
w 3 max_graph_depth
use_tracer function_graph
reset_fgraph_options
wc -l <"$T/set_graph_function" >set_graph_function.count
echo 1 >"$T/tracing_on"
echo 'before X' >"$T/trace_marker"
cat /proc/version >/dev/null
ls /sys/kernel >/dev/null
usleep 1000
echo 'after X' >"$T/trace_marker"
echo 0 >"$T/tracing_on"
cat "$T/trace" >trace.sav
log "saved trace.sav ($(wc -c <trace.sav) bytes, $(wc -l <trace.sav) lines)"
