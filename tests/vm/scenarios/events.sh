#!/bin/sh
# Trace events with the nop tracer: sched, irq, softirq, local timer and a
# few syscalls, with trace_marker writes.
# Out: default.txt; record-tgid.txt (TGID column); stacktrace.txt (the
# stacktrace option on sched_switch only: a <stack trace> after each);
# latency.txt (latency-format on: the latency header and columns).
#@timeout 240
# shellcheck source=SCRIPTDIR/../guest-lib.sh
. /guest-lib.sh
set -eu
reset_tracing
save_env
use_tracer nop
w 1024 buffer_size_kb

all_events() {
	echo >"$T/set_event"
	for e in sched:sched_switch sched:sched_wakeup sched:sched_wakeup_new \
		sched:sched_process_fork sched:sched_process_exec \
		sched:sched_process_exit irq:irq_handler_entry irq:irq_handler_exit \
		irq:softirq_entry irq:softirq_exit irq_vectors:local_timer_entry \
		irq_vectors:local_timer_exit syscalls:sys_enter_openat \
		syscalls:sys_exit_openat syscalls:sys_enter_read syscalls:sys_exit_read \
		syscalls:sys_enter_nanosleep syscalls:sys_exit_nanosleep \
		syscalls:sys_enter_execve syscalls:sys_exit_execve; do
		wa "$e" set_event || true
	done
}

ev_run() {
	log "ev_run $1 at $(cut -d' ' -f1 /proc/uptime)s"
	echo 0 >"$T/tracing_on"
	for o in $2; do opt "${o%=*}" "${o#*=}" || true; done
	cat "$T/trace_options" >"$1.options"
	cat "$T/set_event" >"$1.events"
	echo >"$T/trace"
	w 1 tracing_on
	marker "before $1"
	work 1 work_light
	marker "after $1"
	w 0 tracing_on
	save trace "$1.txt"
	for o in $2; do
		case ${o#*=} in 1) opt "${o%=*}" 0 || true ;; *) opt "${o%=*}" 1 || true ;; esac
	done
}

all_events
ev_run default ""
ev_run record-tgid "record-tgid=1"
ev_run latency "latency-format=1"
# One event with a kernel stack each keeps the file small.
echo sched:sched_switch >"$T/set_event"
ev_run stacktrace "stacktrace=1"
