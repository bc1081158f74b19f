#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Text ingest in instructions, which the load of a shared machine does not
# change: `ftlens info` and `ftlens report` (-j 1) under callgrind on a
# generated function_graph trace (bench/gen-fgraph.c), instructions per input
# line for each git revision given (default: where HEAD left main, then
# HEAD: before and after), each built at -O2 without sanitizers from `git archive` in its
# own directory. Then, for the last revision, the wall-time table of
# bench/ingest.sh (ratios to `wc -l` of info, report, graph and flame, -j 1
# and -j 2, peak RSS) on a larger trace, with the load beside each row. And
# between them, where perf is, where report -j 2's CPU time goes, per thread
# (perf's task-clock, one sample per CPU millisecond), for each revision: the
# consumer thread (the process's first) against all, the figure a loaded
# machine does not change: on two idle cores the run takes at least the
# consumer's time and at least half the total. Prints figures only.
#
# usage: bench/ingest-instr.sh [REV...]
# env:   SIZE=16M        the callgrind trace (callgrind runs ~50x slower)
#        WALL_SIZES=256M the wall-time table's traces ("" skips the table)
#        THREADS="1 2"   the table's -j values
#        TOOLS="info report graph flame"   the table's commands
#        BENCH_DIR=dir   builds and traces (default /tmp/ftlens-bench)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
dir=${BENCH_DIR:-/tmp/ftlens-bench}
size=${SIZE:-16M}
[ $# -gt 0 ] || set -- "$(git -C "$top" merge-base main HEAD)" HEAD
command -v valgrind >/dev/null || {
	echo "ingest-instr.sh: needs valgrind (callgrind)" >&2
	exit 2
}
mkdir -p "$dir"
# the builds are not installed: flame's scripts and styles are read here
: "${FTLENS_DATADIR:=$top/data}"
export FTLENS_DATADIR
bench_dir=$dir bench_src=$here
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
bench_build gen-fgraph
genid=$(cksum <"$here/gen-fgraph.c" | cut -d' ' -f1)
trace=$dir/fgraph-$size-s1-g$genid.txt
truth=$dir/fgraph-$size-s1-g$genid.truth
[ -f "$trace" ] && [ -f "$truth" ] || "$dir/gen-fgraph" -s 1 -t "$truth" "$size" "$trace"
lines=$(sed -n 's/^# lines //p' "$truth")

# build REV: an -O2 ftlens of REV in $dir/o2-<commit>; prints its path.
build() {
	c=$(git -C "$top" rev-parse --short=12 "$1^{commit}")
	b=$dir/o2-$c
	if [ ! -x "$b/ftlens" ]; then
		rm -rf "$b" && mkdir -p "$b"
		git -C "$top" archive "$c" | tar -x -C "$b"
		(cd "$b" && ./autogen.sh && ./configure CFLAGS='-O2 -g' &&
			nice -n 19 make -j2 ftlens) >"$b.log" 2>&1 || {
			echo "ingest-instr.sh: building $1 failed: $b.log" >&2
			exit 1
		}
	fi
	echo "$b/ftlens"
}

bench_host
echo "callgrind trace: $trace ($lines lines)"
echo
printf '%-14s %-8s %15s %10s\n' revision command instructions "per line"
for rev in "$@"; do
	ftl=$(build "$rev")
	for cmd in info report; do
		valgrind --tool=callgrind --callgrind-out-file=/dev/null "$ftl" "$cmd" -j 1 \
			"$trace" 2>"$dir/cg.err" >/dev/null
		ir=$(sed -n 's/.*Collected : //p' "$dir/cg.err")
		printf '%-14.12s %-8s %15s %10.0f\n' "$rev" "$cmd" "$ir" \
			"$(awk -v i="$ir" -v l="$lines" 'BEGIN { print i / l }')"
	done
done
if command -v perf >/dev/null; then
	echo
	echo "report -j 2, CPU seconds per thread (perf task-clock, 1 ms samples):"
	printf '%-14s %10s %10s %10s %10s\n' revision consumer others total "consumer %"
	for rev in "$@"; do
		ftl=$(build "$rev")
		perf record -q -e task-clock -c 1000000 \
			-o "$dir/threads.perf" -- "$ftl" report -j 2 "$trace" >/dev/null 2>&1
		# rows "  35.84%  138  9771:ftlens": the thread whose id is the
		# process's is the consumer (the first sample's pid)
		perf report -i "$dir/threads.perf" --sort pid --stdio -n 2>/dev/null |
			awk -v rev="$rev" '/^ *[0-9.]+%/ {
				n = $2; split($3, id, ":")
				if (id[2] == "ftlens") main += n; else other += n
			} END {
				t = main + other
				printf "%-14.12s %10.3f %10.3f %10.3f %10.1f\n", rev, main / 1000,
					other / 1000, t / 1000, t ? 100 * main / t : 0
			}'
	done
fi
if [ -n "${WALL_SIZES-256M}" ]; then
	echo
	# shellcheck disable=SC2086
	FTLENS=$ftl BENCH_DIR=$dir THREADS=${THREADS:-1 2} \
		TOOLS=${TOOLS:-info report graph flame} "$here/ingest.sh" ${WALL_SIZES:-256M}
fi
