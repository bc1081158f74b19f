#!/bin/sh
# function_graph with default options on a focused set of graph roots.
# Out: trace.txt (merged, with "# tracer" header) and trace-cpu0.txt,
# trace-cpu1.txt (per_cpu/cpuN/trace of the same run, read after
# tracing_on=0 so they match), trace_marker comments "before foo" and
# "after foo" around the work.
#@timeout 240
# shellcheck source=SCRIPTDIR/../guest-lib.sh
. /guest-lib.sh
set -eu
reset_tracing
save_env
w 1024 buffer_size_kb
set_graph do_sys_openat2 ksys_read ksys_write __x64_sys_getdents64 hrtimer_nanosleep
w 4 max_graph_depth
use_tracer function_graph
reset_fgraph_options
cat "$T/set_graph_function" >set_graph_function.txt
cat "$T/trace_options" >trace.options
w 1 tracing_on
marker 'before foo'
work 1 work_light
marker 'after foo'
w 0 tracing_on
save trace trace.txt
save_cpus trace
