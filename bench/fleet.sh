#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What `ftlens fleet report` sustains on this machine, for a local Dask
# cluster of 1 and of 2 worker processes: N generated function_graph traces
# (bench/gen-fgraph.c, 2 CPUs, seeds 1..N) of SIZE each. Per worker count:
# the wall time of the whole run (cluster start included), of a run on one
# trace (mostly the cluster's start and stop), and traces/s and MB/s over
# the difference, which is what the map and the merge tree sustain. Prints
# figures only: nothing passes or fails (results: bench/fleet-results.md).
#
# usage: bench/fleet.sh [N [SIZE]]     (default: 200 traces of 256K)
# env:   FTLENS=path/to/ftlens   (default ./ftlens of this tree)
#        BENCH_DIR=dir           traces are cached here (default /tmp/ftlens-bench)
#        WORKERS="1 2"           worker counts to run
set -eu

here=$(cd "$(dirname "$0")" && pwd)
dir=${BENCH_DIR:-/tmp/ftlens-bench}
n=${1:-200}
size=${2:-256K}
bench_dir=$dir bench_src=$here
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
bench_ftlens fleet.sh "$(pwd)"
bench_sizes fleet.sh "$size"
mkdir -p "$dir/fleet-$size"
bench_build gen-fgraph
i=1
while [ "$i" -le "$n" ]; do
	f=$dir/fleet-$size/t$i.txt
	[ -s "$f" ] || "$dir/gen-fgraph" -s "$i" -c 2 -f 2000 "$size" "$f"
	i=$((i + 1))
done
files=$(i=1; while [ "$i" -le "$n" ]; do echo "$dir/fleet-$size/t$i.txt"; i=$((i + 1)); done)
# shellcheck disable=SC2086
bytes=$(cat $files | wc -c)
now() { date +%s.%N; }
bench_host
echo "inputs: $n function_graph traces, $(echo "$bytes" | awk '{ printf "%.1f MB", $1 / 1e6 }')"
printf '%-8s %10s %10s %10s %10s\n' workers "run (s)" "1 file (s)" traces/s MB/s
for w in ${WORKERS:-1 2}; do
	t0=$(now)
	"$ftlens" fleet report --workers "$w" --progress never "$dir/fleet-$size/t1.txt" >/dev/null
	t1=$(now)
	# shellcheck disable=SC2086
	"$ftlens" fleet report --workers "$w" --progress never $files >/dev/null
	t2=$(now)
	echo "$w $t0 $t1 $t2" | awk -v n="$n" -v b="$bytes" '{
		one = $3 - $2; all = $4 - $3; d = all - one
		if (d <= 0) d = all
		printf "%-8s %10.1f %10.1f %10.1f %10.2f\n", $1, all, one, (n - 1) / d, b / 1e6 / d }'
done
