# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for scenarios run inside the VM (busybox sh). Sourced as
# /guest-lib.sh; build-initramfs.sh copies it into every initramfs.
# shellcheck shell=sh

T=/sys/kernel/tracing
OUT=/out

# The console is a terminal: ftlens would page its results through
# busybox's less and colour them. Scenarios are scripts whose console is
# read back by the tests, so plain output, as CI sets for any tool.
PAGER=cat NO_COLOR=1
export PAGER NO_COLOR

log() { echo "scenario: $*"; }

# For the scenarios that type on a /dev/uhid keyboard (helpers/uhid-setup.sh
# put uhid-sysrq and the modules in the initramfs): load hid, hid-generic
# and uhid, and allow every sysrq key.
uhid_keyboard_setup() {
	for m in hid hid-generic uhid; do
		insmod "/lib/modules/$m.ko"
	done
	echo 1 >/proc/sys/kernel/sysrq
}

# w VALUE FILE: write a tracefs file (relative to $T), complain if refused.
w() {
	if ! echo "$1" >"$T/$2" 2>/dev/null; then
		log "write '$1' > $2 refused"
		return 1
	fi
}

# wa VALUE FILE: append (filters, set_event).
wa() {
	if ! echo "$1" >>"$T/$2" 2>/dev/null; then
		log "append '$1' >> $2 refused"
		return 1
	fi
}

# opt NAME 0|1: set a trace option; notes missing ones in /out/missing-options.txt.
opt() {
	if [ -e "$T/options/$1" ]; then
		echo "$2" >"$T/options/$1"
	else
		log "option $1 not available on $(uname -r)"
		grep -qx "$1" "$OUT/missing-options.txt" 2>/dev/null ||
			echo "$1" >>"$OUT/missing-options.txt"
		return 1
	fi
}

have_opt() { [ -e "$T/options/$1" ]; }

# Put tracing back to a known state: tracing off, no filters, no events,
# default options, empty buffers. The current tracer stays: every tracer
# switch re-patches ~40k call sites, which takes seconds under TCG (and, with
# multi-threaded TCG, sometimes never finishes). Use use_tracer to change it.
reset_tracing() {
	echo 0 >"$T/tracing_on"
	echo >"$T/set_event"
	# Emptying set_graph_function under function_graph would graph every
	# function in the kernel; fgraph_run replaces it instead.
	if [ "$(cat "$T/current_tracer")" != function_graph ]; then
		echo >"$T/set_graph_function"
	fi
	echo >"$T/set_ftrace_filter"
	echo >"$T/set_ftrace_notrace"
	echo >"$T/set_graph_notrace"
	echo >"$T/set_ftrace_pid"
	echo 0 >"$T/max_graph_depth"
	for o in stacktrace func_stack_trace record-tgid latency-format \
		event-fork function-fork display-graph userstacktrace \
		sym-offset sym-addr verbose raw hex bin; do
		if [ -e "$T/options/$o" ]; then echo 0 >"$T/options/$o"; fi
	done
	for o in print-parent context-info irq-info markers record-cmd \
		overwrite annotate function-trace; do
		if [ -e "$T/options/$o" ]; then echo 1 >"$T/options/$o"; fi
	done
	echo >"$T/trace"
	return 0
}

# use_tracer NAME: switch tracer only when it is not the current one.
# Set filters first: function_graph on every function is very slow here.
use_tracer() {
	if [ "$(cat "$T/current_tracer")" != "$1" ]; then
		log "tracer $1 at $(cut -d' ' -f1 /proc/uptime)s"
		w "$1" current_tracer
	fi
	return 0
}

# set_graph FUNC...: replace set_graph_function with these functions.
set_graph() {
	first=1
	for f in "$@"; do
		if [ $first = 1 ]; then w "$f" set_graph_function; first=0
		else wa "$f" set_graph_function
		fi
	done
}

# Default funcgraph-* options (as on a fresh boot) once function_graph is set.
reset_fgraph_options() {
	for o in funcgraph-overrun funcgraph-abstime funcgraph-proc funcgraph-tail \
		funcgraph-retval funcgraph-retval-hex; do
		if [ -e "$T/options/$o" ]; then echo 0 >"$T/options/$o"; fi
	done
	for o in funcgraph-cpu funcgraph-overhead funcgraph-duration funcgraph-irqs \
		sleep-time graph-time; do
		if [ -e "$T/options/$o" ]; then echo 1 >"$T/options/$o"; fi
	done
	return 0
}

# A little real kernel work: exec, open/read/getdents, /proc and /sys, pipes,
# nanosleep. Each argument is a tag that shows up in the commands.
work_once() {
	ls -l /proc/self/ >/dev/null
	cat /proc/meminfo >/dev/null
	cat /proc/version /sys/kernel/tracing/trace_clock >/dev/null
	echo hi >/dev/null
	head -c 4096 /init | wc -c >/dev/null
	usleep 2000
}

# A smaller dose for the costly tracers (function_graph on wide filters).
work_light() {
	cat /proc/version >/dev/null
	echo hi >/dev/null
	ls / >/dev/null
	usleep 1000
}

# on_cpu N CMD: run CMD (a shell string) pinned to CPU N when taskset exists.
on_cpu() {
	if command -v taskset >/dev/null 2>&1; then
		taskset -c "$1" sh -c ". /guest-lib.sh; $2"
	else
		sh -c ". /guest-lib.sh; $2"
	fi
}

# work [N [FUNC]]: run FUNC (default work_once) N times (default 1) on
# CPU 0 and CPU 1 at the same time.
work() {
	loop="i=0; while [ \$i -lt ${1:-1} ]; do ${2:-work_once}; i=\$((i+1)); done"
	on_cpu 0 "$loop" &
	p0=$!
	on_cpu 1 "$loop" &
	p1=$!
	# Only these two: a scenario may have a trace_pipe reader in background.
	wait "$p0" "$p1"
}

marker() { echo "$1" >"$T/trace_marker"; }

# save SRC DEST: copy a tracefs file (relative to $T) to /out/DEST.
save() {
	mkdir -p "$(dirname "$OUT/$2")"
	cat "$T/$1" >"$OUT/$2"
	log "saved $2 ($(wc -c <"$OUT/$2") bytes, $(wc -l <"$OUT/$2") lines)"
}

# save_cpus PREFIX: per_cpu/cpuN/trace -> /out/PREFIX-cpuN.txt for each CPU.
save_cpus() {
	for d in "$T"/per_cpu/cpu*; do
		c=${d##*/}
		save "per_cpu/$c/trace" "$1-$c.txt"
	done
}

# save_formats DIR "SYS:EVENT...": what a decoder of raw pages needs, laid
# out as tracefs has it: DIR/events/header_page, header_event, every
# ftrace/*/format and the formats of the listed events.
save_formats() {
	mkdir -p "$1/events"
	cp "$T/events/header_page" "$T/events/header_event" "$1/events/"
	for f in "$T"/events/ftrace/*/format; do
		sub=${f#"$T/"}
		mkdir -p "$1/${sub%/format}"
		cat "$f" >"$1/$sub"
	done
	for e in $2; do
		sys=${e%%:*} ev=${e#*:}
		mkdir -p "$1/events/$sys/$ev"
		cat "$T/events/$sys/$ev/format" >"$1/events/$sys/$ev/format"
	done
}

# Record what this kernel offers, once per scenario.
save_env() {
	cat "$T/available_tracers" >"$OUT/available_tracers.txt"
	cat "$T/trace_options" >"$OUT/trace_options.txt"
	cat "$T/trace_clock" >"$OUT/trace_clock.txt"
}

# fgraph_run NAME DEPTH "FUNCS" "OPTS" [WORK]: one function_graph capture.
# FUNCS go to set_graph_function, OPTS are name=0|1 pairs, WORK is a shell
# command (default: work 1 work_light). The trace goes to /out/NAME.txt and
# the option set in force to /out/NAME.options. Missing options are noted,
# not fatal.
fgraph_run() {
	name=$1 depth=$2 funcs=$3 opts=$4 job=${5:-work 1 work_light}
	log "fgraph_run $name at $(cut -d' ' -f1 /proc/uptime)s"
	reset_tracing
	# shellcheck disable=SC2086
	set_graph $funcs
	w "$depth" max_graph_depth
	use_tracer function_graph
	reset_fgraph_options
	for o in $opts; do
		opt "${o%=*}" "${o#*=}" || true
	done
	cat "$T/trace_options" >"$OUT/$name.options"
	w 1 tracing_on
	marker "before $name"
	$job
	marker "after $name"
	w 0 tracing_on
	save trace "$name.txt"
}
