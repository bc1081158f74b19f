#!/bin/sh
# Golden `ftlens dump` outputs (first 400 events) for a handful of inputs, one
# per dialect family.
# Regenerate with FTL_UPDATE_GOLDEN=1 after checking the differences by eye.
. "$(dirname "$0")/lib.sh"
make_tmpdir
E="$top_srcdir/tests/e2e/expected"
goldens="
real:fgraph/kdoc6.x_fgraph_funcgraph_retval.txt
real:fgraph/kdoc6.x_fgraph_funcgraph_retval_hex.txt
real:fgraph/perftools_funcgraph_do_nanosleep_xen.txt
real:fgraph/perftools_funcgraph_abstime_oncpu_vfs_read.txt
real:fgraph/kdoc5.4_latency_irqsoff_display_graph.txt
real:fgraph/tracecmd_report_funcgraph_do_IRQ_with_events.txt
real:function/kdoc5.4_function_lost_events_trace_pipe.txt
real:function/kdoc5.4_latency_wakeup_rt_function_trace.txt
real:events/kdoc2.6.35_sched_switch_tracer_old.txt
real:events/perftools_tpoint_block_rq_issue_stacktrace.txt
real:events/tracecompass_android_sched_irq.txt
real:events/trappy_tracecmd_report_sched_stat.txt
real:events/catapult_atrace_tgid_trace_marker.txt
data:vm/fgraph-events/trace.txt
data:vm/fgraph-options/combined.txt
data:vm/function/func-stack-trace.txt
data:vm/events/record-tgid.txt
data:vm/events/latency.txt
"
n=0
for g in $goldens; do n=$((n + 1)); done
plan "$n"
for g in $goldens; do
	f=${g#*:}
	case $g in real:*) path="$FTL_REAL_DATA/$f" ;; data:*) path="$FTL_TESTDATA/$f" ;; esac
	name=$(echo "$f" | tr '/' '_').dump
	have_input "$path" || continue
	"$FTLENS" dump -n 400 "$path" >"$T/$name" 2>"$T/err" || { not_ok "$f: dump failed: $(cat "$T/err")"; continue; }
	if [ -n "${FTL_UPDATE_GOLDEN:-}" ]; then
		cp "$T/$name" "$E/$name"
	fi
	if [ ! -f "$E/$name" ]; then
		not_ok "$f: no golden $name (run with FTL_UPDATE_GOLDEN=1)"
	elif cmp -s "$E/$name" "$T/$name"; then
		ok "$f"
	else
		not_ok "$f: differs from golden"
		diff -u "$E/$name" "$T/$name" | head -20 | sed 's/^/# /'
	fi
done
finish
