#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Text ingest: `wc -l` next to `ftlens info`, `ftlens report`, `ftlens graph`
# (the whole merged tree) and `ftlens dump > /dev/null` on generated
# function_graph traces (bench/gen-fgraph.c: thousands of kernel-like
# functions, nesting to depth ~20, 8 CPUs, task switches, irqs, markers).
# Per command: wall time, MB/s (10^6 bytes), the ratio to `wc -l`'s wall
# time, CPU time (user + sys) and peak RSS, from wait4() (bench/measure.c),
# and the load average beside it (a wall figure means little without it).
# Prints figures only: nothing here passes or fails on speed.
#
# usage: bench/ingest.sh [SIZE...]     (default: 64M 512M 1G; K, M, G = 2^10..)
# env:   FTLENS=path/to/ftlens   (default: ./ftlens of this tree; benchmark an
#                                 optimized build: configure CFLAGS='-O2 -g')
#        BENCH_DIR=dir           traces, truths and the helpers are cached here
#                                (default /tmp/ftlens-bench); a trace is made once
#                                per size, seed and generator source
#        RUNS=N                  runs per command, the fastest is shown (default 1)
#        SEED=N                  generator seed (default 1)
#        THREADS="1 2 4"         run each ftlens command once per N with -j N
#                                (default empty: no -j, the column shows n/a)
#        TOOLS="info report graph dump"   the ftlens commands to time (flame
#                                writes its SVG into BENCH_DIR)
#        CHECK=1                 also check each trace's truth (bench/check-truth.sh)
#        CC=cc                   the compiler for the helpers
set -eu

here=$(cd "$(dirname "$0")" && pwd)
dir=${BENCH_DIR:-/tmp/ftlens-bench}
runs=${RUNS:-1}
seed=${SEED:-1}
threads=${THREADS:-}
tools=${TOOLS:-info report graph dump}
[ $# -gt 0 ] || set -- 64M 512M 1G

bench_dir=$dir bench_src=$here
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
bench_ftlens ingest.sh "$(pwd)"
bench_sizes ingest.sh "$@"
mkdir -p "$dir"
bench_build gen-fgraph
bench_build measure
genid=$(cksum <"$here/gen-fgraph.c" | cut -d' ' -f1)

# meta TRUTH KEY: a "# key value" line of a truth file
meta() { sed -n "s/^# $2 //p" "$1"; }

# run LABEL CMD...: the fastest of $runs runs, as one row of the table.
failed=0
run() {
	label=$1
	shift
	bench_measure "$runs" "$@"
	if [ "$m_code" != 0 ]; then
		printf '%-16s %-15s %3s  FAILED (exit %s)\n' "$trace_label" "$label" "$jlabel" \
			"$m_code"
		failed=1
	else
		[ -n "$wc_wall" ] || wc_wall=$m_wall
		awk -v t="$trace_label" -v l="$label" -v j="$jlabel" -v w="$m_wall" -v u="$m_user" \
			-v s="$m_sys" -v r="$m_rss" -v b="$bytes" -v wc="$wc_wall" \
			-v ld="$(cut -d' ' -f1 /proc/loadavg)" 'BEGIN {
			printf "%-16s %-15s %3s %9.3f %8.1f %8.1f %8.3f %9.1f %6s\n", t, l, j, w,
				(w > 0 ? b / 1e6 / w : 0), (wc > 0 ? w / wc : 0), u + s, r / 1024, ld
		}'
	fi
	trace_label=
}

echo "ftlens: $ftlens ($("$ftlens" --version 2>/dev/null | head -n 1))"
bench_host
echo "traces: $dir (seed $seed), runs per command: $runs (fastest shown)"
echo
printf '%-16s %-15s %3s %9s %8s %8s %8s %9s %6s\n' trace command -j "wall s" "MB/s" "x wc -l" \
	"CPU s" "RSS MiB" "load"
for size in "$@"; do
	trace=$dir/fgraph-$size-s$seed-g$genid.txt
	truth=$dir/fgraph-$size-s$seed-g$genid.truth
	if [ ! -f "$trace" ] || [ ! -f "$truth" ]; then
		echo "(generating $trace)" >&2
		"$dir/gen-fgraph" -s "$seed" -t "$truth" "$size" "$trace"
	fi
	bytes=$(meta "$truth" bytes)
	trace_label="fgraph $(awk -v b="$bytes" 'BEGIN { printf "%.0f MiB", b / 1048576 }')"
	wc_wall=
	jlabel=n/a
	run "wc -l" wc -l "$trace"
	for tool in $tools; do
		# flame writes an SVG: into the bench directory, overwritten
		case $tool in
		flame) set -- flame -o "$dir/ingest-flame.svg" ;;
		*) set -- "$tool" ;;
		esac
		for j in ${threads:--}; do
			if [ "$j" = - ]; then
				jlabel=n/a
				run "ftlens $tool" "$ftlens" "$@" "$trace"
			else
				jlabel=$j
				run "ftlens $tool" "$ftlens" "$@" -j "$j" "$trace"
			fi
		done
	done
	echo "  ($(meta "$truth" lines) lines, $(meta "$truth" calls) calls of" \
		"$(meta "$truth" functions) functions, $(meta "$truth" task_switches) task switches," \
		"$(meta "$truth" irqs) irqs, $(meta "$truth" markers) markers, max depth" \
		"$(meta "$truth" max_depth))"
	if [ "${CHECK:-0}" = 1 ]; then
		FTLENS=$ftlens "$here/check-truth.sh" "$trace" "$truth" >"$dir/check.out" 2>&1 ||
			failed=1
		sed 's/^/  /' "$dir/check.out"
	fi
done
echo
echo "MB/s is 10^6 bytes of input per wall second; x wc -l is the wall time over wc -l's."
echo "Peak RSS counts the input's pages while they are mapped. load: the 1-minute"
echo "load average when the row's run ended (2 idle cores: below 1)."
exit $failed
