#!/bin/sh
# function_graph with sched events enabled: the events show up inside the
# graph as /* sched_switch: ... */ comments, next to trace_marker comments.
#@timeout 240
# shellcheck source=SCRIPTDIR/../guest-lib.sh
. /guest-lib.sh
set -eu
reset_tracing
save_env
w 1024 buffer_size_kb
set_graph do_nanosleep ksys_read __x64_sys_getdents64 do_exit
w 4 max_graph_depth
use_tracer function_graph
reset_fgraph_options
for e in sched_switch sched_wakeup sched_wakeup_new sched_process_fork \
	sched_process_exec sched_process_exit; do
	wa "sched:$e" set_event
done
cat "$T/set_event" >set_event.txt
cat "$T/set_graph_function" >set_graph_function.txt
cat "$T/trace_options" >trace.options
w 1 tracing_on
marker 'before sched work'
work 1 work_light
marker 'after sched work'
w 0 tracing_on
save trace trace.txt
save_cpus trace
