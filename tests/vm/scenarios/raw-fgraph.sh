#!/bin/sh
# function_graph and sched events as raw ring-buffer pages, for the binary
# readers: the pages of the buffer in the tracefs layout under raw/, and
# raw.txt, the same buffer as the kernel prints it (read first, the raw
# reads consume it). Graph roots are a few syscall paths, depth 4.
# Out: raw/per_cpu/cpuN/{trace_pipe_raw,stats}, raw/events/header_page,
#   raw/events/header_event, raw/events/{ftrace,sched}/*/format,
#   raw/saved_cmdlines, raw/printk_formats, raw/trace_clock, raw/kallsyms
#   (the subset of text symbols raw.txt names, plus _stext/_etext), raw.txt.
#@timeout 240
# shellcheck source=SCRIPTDIR/../guest-lib.sh
. /guest-lib.sh
set -eu
reset_tracing
save_env
w 256 buffer_size_kb
set_graph do_nanosleep ksys_read __x64_sys_getdents64 do_sys_openat2
w 4 max_graph_depth
use_tracer function_graph
reset_fgraph_options
events="sched:sched_switch sched:sched_wakeup sched:sched_wakeup_new
sched:sched_process_fork sched:sched_process_exec sched:sched_process_exit"
for e in $events; do wa "$e" set_event; done
echo >"$T/trace"
w 1 tracing_on
marker 'before fgraph work'
work 1 work_light
marker 'after fgraph work'
w 0 tracing_on
save trace raw.txt
R=$OUT/raw
for d in "$T"/per_cpu/cpu*; do
	c=${d##*/}
	mkdir -p "$R/per_cpu/$c"
	cat "$d/stats" >"$R/per_cpu/$c/stats"
	timeout 5 cat "$d/trace_pipe_raw" >"$R/per_cpu/$c/trace_pipe_raw" || true
	log "$c: $(wc -c <"$R/per_cpu/$c/trace_pipe_raw") bytes"
done
save_formats "$R" "$events"
for f in saved_cmdlines printk_formats trace_clock set_event set_graph_function \
	trace_options; do
	cat "$T/$f" >"$R/$f"
done
tr -c 'A-Za-z0-9_.\n' '\n' <raw.txt | sort -u >/tmp/names
awk 'NR == FNR { want[$1] = 1; next }
	$2 ~ /^[tTwW]$/ && ($3 in want) || $3 == "_stext" || $3 == "_etext"' \
	/tmp/names /proc/kallsyms >"$R/kallsyms"
log "kallsyms subset: $(wc -l <"$R/kallsyms") of $(wc -l </proc/kallsyms) symbols"
