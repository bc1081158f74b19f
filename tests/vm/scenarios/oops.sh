#!/bin/sh
# A panic with ftrace_dump_on_oops: the kernel prints its ring buffer to the
# console ("Dumping ftrace buffer:") before it dies. console.log, captured
# as is (CRLF line ends), is the output; nothing comes back over ttyS1.
# function_graph on a few roots plus sched events, and two markers (the
# buffer is big enough that both survive).
#@cmdline ftrace_dump_on_oops trace_buf_size=48K
#@expect panic
#@timeout 240
# shellcheck source=SCRIPTDIR/../guest-lib.sh
. /guest-lib.sh
set -eu
reset_tracing
w 48 buffer_size_kb
set_graph ksys_read do_sys_openat2 __handle_sysrq
w 4 max_graph_depth
use_tracer function_graph
reset_fgraph_options
wa sched:sched_switch set_event
wa sched:sched_wakeup set_event
w 1 tracing_on
marker 'before crash'
work 1 work_light
marker 'about to crash'
echo "FTLENS-VM: crashing now"
echo c >/proc/sysrq-trigger
