#!/bin/sh
# Binary per-CPU ring buffer pages plus everything needed to decode them,
# laid out like tracefs under raw/:
#   raw/per_cpu/cpuN/trace_pipe_raw   (whole pages, read after tracing_on=0)
#   raw/per_cpu/cpuN/stats
#   raw/events/header_page, raw/events/header_event
#   raw/events/SYSTEM/EVENT/format    (ftrace/* and the enabled events)
#   raw/saved_cmdlines, raw/saved_tgids, raw/printk_formats, raw/trace_clock
#   raw/kallsyms                      (a subset: the text symbols that
#                                      raw.txt and raw-overflow.txt name,
#                                      plus _stext/_etext; the full
#                                      /proc/kallsyms is 3.6 MB)
# plus raw.txt, the same buffer as the kernel prints it (read before the
# consuming trace_pipe_raw reads), to check a decoder against.
# raw-overflow/per_cpu/... and raw-overflow.txt: the same with 8 KB buffers
# that overflowed (lost events); its formats etc. are those under raw/.
# Its first page per CPU has the missed-events flags set in the commit
# word (bits 31 and 30, sign-extended through the upper 32 bits, with the
# count stored after the data); its text may show "##### CPU N buffer started ####".
# The function tracer on a small filter, sched and syscall events, markers.
#@timeout 240
# shellcheck source=SCRIPTDIR/../guest-lib.sh
. /guest-lib.sh
set -eu
reset_tracing
save_env
w do_sys_openat2 set_ftrace_filter
wa __x64_sys_getdents64 set_ftrace_filter
wa do_nanosleep set_ftrace_filter
use_tracer function
opt record-tgid 1
events="sched:sched_switch sched:sched_wakeup sched:sched_wakeup_new
sched:sched_process_fork sched:sched_process_exec sched:sched_process_exit
irq:softirq_entry irq:softirq_exit syscalls:sys_enter_openat syscalls:sys_exit_openat"
for e in $events; do wa "$e" set_event; done
# raw_capture DIR BUFKB N: trace N rounds of work into BUFKB per-CPU
# buffers, save the text view as DIR.txt and the pages under DIR/per_cpu.
raw_capture() {
	echo 0 >"$T/tracing_on"
	w "$2" buffer_size_kb
	echo >"$T/trace"
	w 1 tracing_on
	marker "before $1"
	work "$3" work_light
	marker "after $1"
	w 0 tracing_on
	save trace "$1.txt"
	mkdir -p "$OUT/$1"
	cat "$T/buffer_size_kb" >"$OUT/$1/buffer_size_kb"
	for d in "$T"/per_cpu/cpu*; do
		c=${d##*/}
		mkdir -p "$OUT/$1/per_cpu/$c"
		cat "$d/stats" >"$OUT/$1/per_cpu/$c/stats"
		# Once the buffer is drained a blocking read waits for data
		# forever (tracing is off); the timeout ends it.
		timeout 5 cat "$d/trace_pipe_raw" >"$OUT/$1/per_cpu/$c/trace_pipe_raw" || true
		log "$1 $c: $(wc -c <"$OUT/$1/per_cpu/$c/trace_pipe_raw") bytes"
	done
}

# The main capture, then one whose buffers overflowed (overwrite mode):
# its pages carry the missed-events flags and the text shows LOST lines.
raw_capture raw 64 2
raw_capture raw-overflow 8 6
echo 0 >"$T/tracing_on"

R=$OUT/raw
save_formats "$R" "$events"
for f in saved_cmdlines saved_tgids printk_formats trace_clock set_event \
	set_ftrace_filter trace_options; do
	cat "$T/$f" >"$R/$f"
done
# /proc/kallsyms is ~3.6 MB here: keep only the symbols trace.txt names
# (every ip and parent ip the buffer holds is one of those) plus the
# text bounds. Nearest-lower-symbol lookups stay right for those ips.
cat raw.txt raw-overflow.txt | tr -c 'A-Za-z0-9_.\n' '\n' | sort -u >/tmp/names
awk 'NR == FNR { want[$1] = 1; next }
	$2 ~ /^[tTwW]$/ && ($3 in want) || $3 == "_stext" || $3 == "_etext"' \
	/tmp/names /proc/kallsyms >"$R/kallsyms"
log "kallsyms subset: $(wc -l <"$R/kallsyms") of $(wc -l </proc/kallsyms) symbols"
