#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What the scheduling pass costs: `ftlens report FILE` next to
# `ftlens report --sched FILE` (the same pass plus the scheduling consumer)
# and `ftlens sched FILE` alone, on a generated scheduling trace
# (bench/gen-sched.c: sched_switch, sched_waking/wakeup, irq and softirq
# events on 8 CPUs) and a generated function_graph trace (bench/gen-fgraph.c,
# where the pass infers switches from the task of every line). Per command:
# wall time, MB/s, CPU time, peak RSS (bench/measure.c), and the overhead of
# --sched over report in %. Prints figures only: nothing passes or fails.
#
# usage: bench/sched.sh [SIZE...]      (default: 256M; K, M, G = 2^10..)
# env:   FTLENS=path/to/ftlens   (default ./ftlens of this tree; benchmark an
#                                 optimized build: configure CFLAGS='-O2 -g')
#        BENCH_DIR=dir           traces and helpers are cached here
#                                (default /tmp/ftlens-bench)
#        RUNS=N                  runs per command, the fastest is shown (default 3)
#        SEED=N                  generator seed (default 1)
#        INSTR=1                 also count the instructions of report and report
#                                --sched on the first 8 MiB of each trace with
#                                valgrind's callgrind: a figure the machine's load
#                                does not move (wall and CPU times on a busy
#                                machine do)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
dir=${BENCH_DIR:-/tmp/ftlens-bench}
runs=${RUNS:-3}
seed=${SEED:-1}
[ $# -gt 0 ] || set -- 256M
bench_dir=$dir bench_src=$here
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
bench_ftlens sched.sh "$(pwd)"
for s in "$@"; do
	echo "$s" | grep -Eq '^[0-9]+[KMG]?$' || {
		echo "sched.sh: '$s': a size is a number with an optional K, M or G" >&2
		exit 2
	}
done
mkdir -p "$dir"
bench_build gen-sched
bench_build gen-fgraph
bench_build measure

failed=0
# row TRACE LABEL BASE CMD...: one row; BASE is report's "wall cpu" (or empty)
row() {
	t=$1 label=$2 base=$3
	shift 3
	bench_measure "$runs" "$@"
	if [ "$m_code" != 0 ]; then
		printf '%-22s %-22s FAILED (exit %s)\n' "$t" "$label" "$m_code"
		failed=1
		return
	fi
	awk -v t="$t" -v l="$label" -v w="$m_wall" -v u="$m_user" -v s="$m_sys" -v r="$m_rss" \
		-v b="$bytes" -v base="$base" 'BEGIN {
		split(base, bw, " ")
		over = base != "" ? sprintf("%+7.1f%% %+7.1f%%", 100 * (w - bw[1]) / bw[1],
			100 * (u + s - bw[2]) / bw[2]) : "       -        -"
		printf "%-22s %-22s %9.3f %8.1f %8.3f %9.1f %s\n", t, l, w, b / 1e6 / w, u + s,
			r / 1024, over
	}'
}

# instr TRACE: instructions of report and report --sched on its first 8 MiB
instr() {
	head -c 8388608 "$1" >"$dir/instr.txt"
	for opt in "" --sched; do
		# shellcheck disable=SC2086
		valgrind --tool=callgrind --callgrind-out-file=/dev/null "$ftlens" report $opt \
			"$dir/instr.txt" 2>&1 >/dev/null | sed -n 's/.*Collected : //p'
	done | tr '\n' ' ' | awk '{ printf "%-22s %-22s %.1fM and %.1fM instructions: %+.1f%%\n",
		"", "callgrind, 8 MiB", $1 / 1e6, $2 / 1e6, 100 * ($2 - $1) / $1 }'
	rm -f "$dir/instr.txt"
}

echo "ftlens: $ftlens ($("$ftlens" --version 2>/dev/null | head -n 1))"
bench_host
echo "traces: $dir (seed $seed), runs per command: $runs (fastest shown)"
echo
printf '%-22s %-22s %9s %8s %8s %9s %8s %8s\n' trace command "wall s" "MB/s" "CPU s" "RSS MiB" \
	"wall vs" "CPU vs"
for size in "$@"; do
	sched=$dir/sched-$size-s$seed-g$(cksum <"$here/gen-sched.c" | cut -d' ' -f1).txt
	fgraph=$dir/fgraph-$size-s$seed-g$(cksum <"$here/gen-fgraph.c" | cut -d' ' -f1).txt
	[ -f "$sched" ] || { echo "(generating $sched)" >&2 && "$dir/gen-sched" -s "$seed" "$size" "$sched"; }
	[ -f "$fgraph" ] || { echo "(generating $fgraph)" >&2 && "$dir/gen-fgraph" -s "$seed" "$size" "$fgraph"; }
	for f in "$sched" "$fgraph"; do
		bytes=$(wc -c <"$f")
		case $f in */sched-*) kind=sched ;; *) kind=fgraph ;; esac
		name="$kind $(awk -v b="$bytes" 'BEGIN { printf "%.0f MiB", b / 1048576 }')"
		row "$name" "report" "" "$ftlens" report "$f"
		base="$m_wall $(awk -v u="$m_user" -v s="$m_sys" 'BEGIN { print u + s }')"
		row "" "report --sched" "$base" "$ftlens" report --sched "$f"
		row "" "sched" "$base" "$ftlens" sched "$f"
		[ "${INSTR:-0}" = 1 ] && instr "$f"
	done
done
echo
echo "wall vs, CPU vs: wall and CPU (user + sys) time against ftlens report's on the same"
echo "input (the sched pass's cost is report --sched's; on a busy machine the CPU time and"
echo "callgrind's instruction count are the steadier figures). MB/s: 10^6 bytes per wall second."
exit $failed
