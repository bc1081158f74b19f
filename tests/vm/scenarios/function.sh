#!/bin/sh
# The function tracer on a filtered set of functions.
# Out: default.txt; func-stack-trace.txt (func_stack_trace on one function,
# each hit followed by its "=> caller" stack); no-irq-info.txt (irq-info off,
# no irqs-off/need-resched columns); no-parent.txt (print-parent off);
# sym-offset.txt (sym-offset on); pipe.txt (what trace_pipe gave a reader
# during the run: no header at all).
#@timeout 240
# shellcheck source=SCRIPTDIR/../guest-lib.sh
. /guest-lib.sh
set -eu
reset_tracing
save_env
w 1024 buffer_size_kb

filter() {
	w "$1" set_ftrace_filter
	shift
	for f in "$@"; do wa "$f" set_ftrace_filter; done
	cat "$T/set_ftrace_filter" >>set_ftrace_filter.txt
}

# fn_run NAME "OPTS": one capture with the current filter.
fn_run() {
	log "fn_run $1 at $(cut -d' ' -f1 /proc/uptime)s"
	echo 0 >"$T/tracing_on"
	for o in $2; do opt "${o%=*}" "${o#*=}" || true; done
	cat "$T/trace_options" >"$1.options"
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

filter do_sys_openat2 ksys_read ksys_write 'vfs_*' __x64_sys_getdents64 \
	do_nanosleep schedule
use_tracer function
fn_run default ""
fn_run no-irq-info "irq-info=0"
fn_run no-parent "print-parent=0"
fn_run sym-offset "sym-offset=1"
fn_run record-tgid "record-tgid=1"

echo '# func-stack-trace' >>set_ftrace_filter.txt
filter do_sys_openat2
fn_run func-stack-trace "func_stack_trace=1"

# trace_pipe: a reader consumes events as they come. Its own read() calls
# are not in the filter, so it does not feed itself.
echo '# pipe' >>set_ftrace_filter.txt
filter do_sys_openat2 __x64_sys_getdents64 do_nanosleep
echo >"$T/trace"
cat "$T/trace_pipe" >pipe.txt &
reader=$!
w 1 tracing_on
marker "before pipe"
work 1 work_light
marker "after pipe"
w 0 tracing_on
sleep 1
kill "$reader" 2>/dev/null || true
wait "$reader" 2>/dev/null || true
log "saved pipe.txt ($(wc -c <pipe.txt) bytes, $(wc -l <pipe.txt) lines)"
