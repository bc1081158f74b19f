#!/bin/sh
# The stack tracer: deepest kernel stack seen while it was on.
# Out: stack_trace (the table), stack_max_size; stack_trace_filter.txt.
#@timeout 240
# shellcheck source=SCRIPTDIR/../guest-lib.sh
. /guest-lib.sh
set -eu
reset_tracing
save_env
echo 1 >/proc/sys/kernel/stack_tracer_enabled
work 2
ls -lR /sys/kernel/tracing/events/sched >/dev/null
echo 0 >/proc/sys/kernel/stack_tracer_enabled
save stack_trace stack_trace
save stack_max_size stack_max_size
save stack_trace_filter stack_trace_filter.txt
