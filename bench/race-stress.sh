#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The -j race hunt (issue 31 item 5): runs commands over inputs of every
# threaded reader (text parse threads, trace.dat page readers, per_cpu
# sets) again and again at -j1..-j8 and compares each run's stdout and exit
# status with the -j1 run's, byte for byte; a signal (exit above 128) or a
# sanitizer report on stderr counts too. Small chunks (FTLENS_CHUNK_BYTES)
# put many chunks in flight, the interleavings a large file gives.
#
# usage: bench/race-stress.sh [-n ROUNDS] [-w WORK] [-c CHUNK] [-p PAR] [-e EVENTS] [INPUT...]
#   -n ROUNDS  passes over every (input, command, -j) (default 20); 0: only
#              make the generated inputs in WORK
#   -w WORK    work directory (default /tmp/ftlens-race)
#   -c CHUNK   FTLENS_CHUNK_BYTES for the threaded runs (default 4096)
#   -p PAR     runs at once, each its own process (default 2: the load)
#   -e EVENTS  events of the generated text trace (default 40000)
#   INPUT      trace files or directories (default: a generated text trace,
#              its per_cpu split, and ../shared/data/real's larger text
#              and trace.dat files when present)
# FTLENS: the binary (default ./ftlens). Prints per (input, command): runs
# and differences; the differing outputs stay in WORK/diff-*.
# Exit status: 1 when any run differed, else 0.
set -u
rounds=20 work=/tmp/ftlens-race chunk=4096 par=2 events=40000
while getopts n:w:c:p:e: opt; do
	case $opt in
	n) rounds=$OPTARG ;;
	w) work=$OPTARG ;;
	c) chunk=$OPTARG ;;
	p) par=$OPTARG ;;
	e) events=$OPTARG ;;
	*) sed -n 's/^# \{0,1\}//; /^usage/,/^Exit/p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
src=$(cd "$(dirname "$0")/.." && pwd)
ftlens=${FTLENS:-$src/ftlens}
[ -x "$ftlens" ] || { echo "race-stress: $ftlens is not executable (FTLENS=...)" >&2; exit 2; }
mkdir -p "$work" || exit 1
work=$(cd "$work" && pwd)

if [ $# -eq 0 ]; then
	# 40,000 events over 8 CPUs with task switches: a few hundred chunks
	awk -v n="$events" 'BEGIN {
		print "# tracer: nop"
		t = 1000
		for (i = 0; i < n; i++) {
			cpu = (i * 7) % 8; t += 0.000003 * (1 + i % 5)
			if (i % 11 == 0)
				printf "          task-%d  [%03d] d... %.6f: sched_switch: prev_comm=task-%d prev_pid=%d prev_prio=120 prev_state=S ==> next_comm=task-%d next_pid=%d next_prio=120\n", 100 + cpu, cpu, t, 100 + cpu, 100 + cpu, 200 + i % 13, 200 + i % 13
			else if (i % 5 == 0)
				printf "          task-%d  [%03d] d... %.6f: tracing_mark_write: span %d start\n", 100 + cpu, cpu, t, i % 3
			else
				printf "          task-%d  [%03d] d... %.6f: block_rq_issue: 8,0 W 0 () %d + 8 [task]\n", 100 + cpu, cpu, t, i
		}
	}' >"$work/gen.txt"
	rm -rf "$work/percpu" && mkdir -p "$work/percpu"
	awk -v d="$work/percpu" '/\[[0-9][0-9][0-9]\]/ {
		match($0, /\[[0-9][0-9][0-9]\]/); c = substr($0, RSTART + 1, 3) + 0
		f = d "/per_cpu/cpu" c "/trace"
		if (!(f in seen)) { seen[f] = 1; system("mkdir -p " d "/per_cpu/cpu" c) }
		print > f
	}' "$work/gen.txt"
	set -- "$work/gen.txt" "$work/percpu"
	real=$src/../shared/data/real
	[ -d "$real" ] || real=/work/shared/data/real
	for f in events/lisa_tracecmd_report_sched_448k.txt events/tracecompass_atrace_android_tgid_large.txt \
		fgraph/perftools_funcgraph_abstime_header_vfs_read.txt raw/lisa_rtapp_6cpu_trace.dat \
		raw/trappy_arm32_8cpu_trace.dat raw/trappy_arm64_6cpu_idle_trace.dat; do
		[ -f "$real/$f" ] && set -- "$@" "$real/$f"
	done
fi

[ "$rounds" -eq 0 ] && exit 0

cmds="dump info report"
diffs=0 runs=0
# one (input, command, -j) run: compared with the reference
one() {
	_in=$1 _cmd=$2 _j=$3 _ref=$4 _tag=$5
	FTLENS_CHUNK_BYTES=$chunk "$ftlens" "$_cmd" --no-index -j "$_j" "$_in" >"$work/out.$_tag" 2>"$work/err.$_tag"
	echo $? >>"$work/out.$_tag"
	if ! cmp -s "$_ref" "$work/out.$_tag" || grep -qE 'Sanitizer|runtime error' "$work/err.$_tag"; then
		_k=$(date +%s%N)
		cp "$work/out.$_tag" "$work/diff-$_cmd-j$_j-$_k.out"
		cp "$work/err.$_tag" "$work/diff-$_cmd-j$_j-$_k.err"
		echo "$_in $_cmd -j$_j" >"$work/diff-$_cmd-j$_j-$_k.what"
	fi
}

printf '%-60s %-7s %7s %6s\n' input command runs diffs
for in in "$@"; do
	for cmd in $cmds; do
		ref=$work/ref.$cmd
		FTLENS_CHUNK_BYTES=$chunk "$ftlens" "$cmd" --no-index -j 1 "$in" >"$ref" 2>/dev/null
		echo $? >>"$ref"
		n=0 r=0
		while [ $r -lt "$rounds" ]; do
			j=1
			while [ $j -le 8 ]; do
				k=0
				while [ $k -lt "$par" ]; do
					one "$in" "$cmd" "$j" "$ref" "$k" &
					k=$((k + 1))
				done
				wait
				n=$((n + par))
				j=$((j + 1))
			done
			r=$((r + 1))
		done
		d=$(find "$work" -name "diff-$cmd-*.what" -newer "$ref" | xargs -r grep -l -F "$in $cmd " | wc -l)
		printf '%-60s %-7s %7d %6d\n' "$(basename "$in")" "$cmd" "$n" "$d"
		runs=$((runs + n)) diffs=$((diffs + d))
	done
done
echo "total: $runs runs, $diffs differences (FTLENS_CHUNK_BYTES=$chunk, -j1..-j8, $par at once)"
[ "$diffs" -eq 0 ]
