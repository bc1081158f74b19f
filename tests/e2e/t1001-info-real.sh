#!/bin/sh
# `ftlens info --json` over every public text sample and every rig capture:
# every line is accounted for, nothing is left unparsed except the listed
# documentation artefacts, and counts agree with oracles computed here with
# grep/awk, independently of ftlens.
. "$(dirname "$0")/lib.sh"
prereq PYTHON
make_tmpdir

# Files whose unparsed lines are not trace output, with the exact count and why.
# (kind/file  unparsed  reason)
exceptions() {
	cat <<'LIST'
fgraph/kdoc2.6.35_fgraph_overhead_markers.txt 1 the doc's own "[...]" elision line
fgraph/kdoc5.4_fgraph_overhead_all_markers.txt 2 two "[...]" elision lines of the doc
fgraph/kdoc5.4_latency_irqsoff_display_graph.txt 1 "[...]" elision line
function/kdoc2.6.35_function_2digit_cpu.txt 1 "[...]" elision line
function/kdoc2.6.35_latency_irqsoff_function_trace.txt 1 "[...]" elision line
function/kdoc2.6.35_latency_wakeup_rt.txt 3 three "[...]" elision lines
function/kdoc5.4_function_header_entries_lost.txt 1 the doc's "...." elision line
function/kdoc5.4_latency_irqsoff_function_trace.txt 1 "[...]" elision line
events/kdoc5.4_events_snapshot_sched_switch.txt 1 "[...]" elision line
events/kdoc5.4_kprobetrace_old_header_retval.txt 1 the shell command "cat /sys/kernel/debug/tracing/trace" of the doc
LIST
}
# Not traces at all: event format files (read by the binary-input code).
not_traces="events/kdoc5.4_kprobe_event_format_32bit.txt events/perftools_kprobe_event_format_file.txt"

files=""
[ -d "$FTL_REAL_DATA" ] && files=$(cd "$FTL_REAL_DATA" && ls fgraph/* function/* events/*)
rig=""
# rig captures: the trace text files, not the settings saved beside them
[ -d "$FTL_TESTDATA/vm" ] && rig=$(cd "$FTL_TESTDATA" && find vm -type f \( -name '*.txt' -o -name '*.sav' \) |
	grep -v -E '/(uname|run-info|cmdline|available_tracers|trace_clock|trace_options|options-available|missing-options|buffer_size_kb|stack_max_size|stack_trace)[^/]*$|/set_[^/]*$' | sort)
n=0
for f in $files $rig; do n=$((n + 1)); done
# Without the public samples, the rig's captures are still read; one point
# says which samples were not.
absent=0
[ -n "$files" ] || absent=1
plan $((n * 3 + absent))
[ $absent = 0 ] || skip_absent "$FTL_REAL_DATA/{fgraph,function,events}/*"

for f in $files $rig; do
	case $f in vm/*) path="$FTL_TESTDATA/$f" ;; *) path="$FTL_REAL_DATA/$f" ;; esac
	case " $not_traces " in
	*" $f "*)
		"$FTLENS" info "$path" >/dev/null 2>"$T/err"
		rc=$?
		check "$f: not a trace: exit 1" '[ $rc -eq 1 ]'
		check "$f: error names file and line" 'grep -q "$(basename "$f")'\'': line 1:" "$T/err"'
		ok "$f: (no counts to check)"
		continue
		;;
	esac
	if ! "$FTLENS" info --json "$path" >"$T/j" 2>"$T/err"; then
		not_ok "$f: info failed: $(cat "$T/err")"
		not_ok "$f: (skipped)"
		not_ok "$f: (skipped)"
		continue
	fi
	want=$(exceptions | awk -v f="$f" '$1 == f { print $2 }')
	[ -n "$want" ] || want=0
	got=$(json_get "$T/j" "j['unparsed_lines']")
	check "$f: unparsed_lines $got == $want" '[ "$got" = "$want" ]'
	# every line accounted for, against wc -l (+1 without a final newline)
	lines=$(wc -l <"$path")
	[ -n "$(tail -c 1 "$path")" ] && lines=$((lines + 1))
	sum=$(json_get "$T/j" "j['event_lines']+j['header_lines']+j['special_lines']+j['blank_lines']+j['unparsed_lines']")
	tot=$(json_get "$T/j" "j['total_lines']")
	check "$f: total_lines $tot == wc -l $lines == sum of kinds $sum" '[ "$tot" = "$lines" ] && [ "$sum" = "$lines" ]'
	# independent oracle: lines with a bracketed CPU "-PID [NNN]" per CPU,
	# when every event line of the file has that form
	oracle=$(awk '
		/^[ \t]*#/ { next }
		{ if (match($0, /-[0-9]+ +(\([ 0-9-]+\) +)?\[[0-9]+\] /)) {
			s = substr($0, RSTART, RLENGTH); sub(/.*\[/, "", s); sub(/\].*/, "", s)
			c[s + 0]++; n++ } }
		END { for (k in c) printf "%s:%d ", k, c[k]; printf "\n" }' "$path" | tr ' ' '\n' | sort -n | tr '\n' ' ')
	# function_graph lines carry "N)" (after an optional TIME column)
	if [ "$(echo "$oracle" | tr -d ' ')" = "" ]; then
		oracle=$(awk '
			/^[ \t]*#/ { next }
			{ if (match($0, /^[ \t]*([0-9]+\.[0-9]+ \|[ \t]*|[0-9]+ us \|[ \t]*)?[0-9]+\) /)) {
				s = substr($0, RSTART, RLENGTH); sub(/\) $/, "", s); sub(/.*[ |]/, "", s)
				c[s + 0]++ } }
			END { for (k in c) printf "%s:%d ", k, c[k]; printf "\n" }' "$path" | tr ' ' '\n' | sort -n | tr '\n' ' ')
	fi
	# latency format: "comm-pid  CPUflags time"
	if [ "$(echo "$oracle" | tr -d ' ')" = "" ]; then
		oracle=$(awk '
			/^[ \t]*#/ { next }
			{ if (match($0, /-[0-9]+ +[0-9]+[.a-zA-Z][.a-zA-Z0-9]* +[0-9]/)) {
				s = substr($0, RSTART, RLENGTH); sub(/^-[0-9]+ +/, "", s); sub(/[^0-9].*/, "", s)
				c[s + 0]++ } }
			END { for (k in c) printf "%s:%d ", k, c[k]; printf "\n" }' "$path" | tr ' ' '\n' | sort -n | tr '\n' ' ')
	fi
	mine=$(json_get "$T/j" "' '.join('%s:%d' % (k, v) for k, v in sorted(j['cpus'].items(), key=lambda kv: int(kv[0])))")
	evl=$(json_get "$T/j" "j['event_lines']")
	bracket_total=$(echo "$oracle" | tr ' ' '\n' | awk -F: 'NF==2 { s += $2 } END { print s + 0 }')
	if [ "$bracket_total" = "$evl" ] && [ "$evl" -gt 0 ]; then
		check "$f: per-CPU event lines match grep oracle ($oracle)" '[ "$(echo $oracle)" = "$(echo $mine)" ]'
	else
		ok "$f: per-CPU oracle not applicable (bracketed $bracket_total of $evl event lines)"
	fi
done
finish
