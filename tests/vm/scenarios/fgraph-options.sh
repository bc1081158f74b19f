#!/bin/sh
# function_graph, one capture per display option (each against the defaults
# otherwise): NAME.txt is the trace, NAME.options the trace_options in force.
# proc, abstime, tail, overrun: funcgraph-NAME on; noduration, nocpu,
# nooverhead: funcgraph-duration/cpu/overhead off; irqs-on, irqs-off:
# funcgraph-irqs; sleep-time, nosleep-time: the sleep-time option on
# hrtimer_nanosleep; combined: proc, abstime, tail and overrun together.
# Options this kernel lacks (funcgraph-retval before 6.5) are listed in
# missing-options.txt and their capture is skipped.
#@timeout 300
# shellcheck source=SCRIPTDIR/../guest-lib.sh
. /guest-lib.sh
set -eu
reset_tracing
save_env
w 1024 buffer_size_kb
set_graph do_nanosleep
use_tracer function_graph
ls "$T/options" >options-available.txt

roots="do_sys_openat2 ksys_read ksys_write __x64_sys_getdents64"
fgraph_run proc 3 "$roots" "funcgraph-proc=1"
fgraph_run abstime 3 "$roots" "funcgraph-abstime=1"
fgraph_run tail 3 "$roots" "funcgraph-tail=1"
if have_opt funcgraph-retval; then
	fgraph_run retval 3 "$roots" "funcgraph-retval=1"
	have_opt funcgraph-retval-hex && fgraph_run retval-hex 3 "$roots" "funcgraph-retval=1 funcgraph-retval-hex=1"
else
	opt funcgraph-retval 1 || true
fi
fgraph_run noduration 3 "$roots" "funcgraph-duration=0"
fgraph_run nocpu 3 "$roots" "funcgraph-cpu=0"
fgraph_run nooverhead 3 "$roots" "funcgraph-overhead=0"
fgraph_run overrun 3 "$roots" "funcgraph-overrun=1"

# Hard interrupts: timer interrupts that land inside the traced syscalls
# show up nested (irq_enter_rcu, __sysvec_apic_timer_interrupt, ...) only
# with funcgraph-irqs=1. (A handler named in set_graph_function itself is
# traced even with funcgraph-irqs=0, so it is not used as a root here.)
irq_roots="do_sys_openat2 ksys_read __x64_sys_getdents64 __x64_sys_execve"
fgraph_run irqs-on 3 "$irq_roots" "funcgraph-irqs=1" "work 3 work_light"
fgraph_run irqs-off 3 "$irq_roots" "funcgraph-irqs=0" "work 3 work_light"

# Sleep time: nanosleep durations with and without the time spent scheduled out.
sleep_roots="hrtimer_nanosleep"
fgraph_run sleep-time 3 "$sleep_roots" "sleep-time=1" "work 3 work_light"
fgraph_run nosleep-time 3 "$sleep_roots" "sleep-time=0" "work 3 work_light"

# Several at once, the way people read traces of one task among many.
fgraph_run combined 4 "$roots" "funcgraph-proc=1 funcgraph-abstime=1 funcgraph-tail=1 funcgraph-overrun=1 funcgraph-retval=1"
