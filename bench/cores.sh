#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What N cores give on this machine, before any -j figure is read: a
# CPU-bound reference (sha256sum of the cached trace) and `ftlens report
# -j 1`, each run alone and then N copies at once. N independent copies
# finish in the time of one on N real cores (throughput N.00x); on vCPUs
# the host does not back with as many cores, or on SMT siblings, less.
# No -j N can scale beyond what N copies of the same command show: that
# is the ceiling of bench/ingest.sh's "-j N over -j 1" figures here. Then
# `ftlens report -j N` beside it, as a share of that ceiling.
# Prints figures only: nothing here passes or fails on speed.
#
# usage: bench/cores.sh [SIZE]   (default 256M: bench/ingest.sh's generated
#                                 function_graph trace of that size)
# env:   FTLENS=path/to/ftlens   (default: ./ftlens of this tree)
#        BENCH_DIR=dir           (default /tmp/ftlens-bench, shared with ingest.sh)
#        RUNS=N                  runs of each row, the fastest is shown (default 3)
#        N=n                     copies at once (default: the CPUs online)
#        SEED=N                  generator seed (default 1)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
dir=${BENCH_DIR:-/tmp/ftlens-bench}
runs=${RUNS:-3}
seed=${SEED:-1}
n=${N:-$(nproc)}
size=${1:-256M}

bench_dir=$dir bench_src=$here
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
bench_ftlens cores.sh "$(pwd)"
bench_sizes cores.sh "$size"
case $n in
'' | *[!0-9]* | 0 | 1)
	echo "cores.sh: N must be a number of copies above 1, not '$n'" >&2
	exit 2
	;;
esac
mkdir -p "$dir"
bench_build gen-fgraph
bench_build measure
genid=$(cksum <"$here/gen-fgraph.c" | cut -d' ' -f1)
trace=$dir/fgraph-$size-s$seed-g$genid.txt
truth=$dir/fgraph-$size-s$seed-g$genid.truth
if [ ! -f "$trace" ] || [ ! -f "$truth" ]; then
	echo "(generating $trace)" >&2
	"$dir/gen-fgraph" -s "$seed" -t "$truth" "$size" "$trace"
fi

# copies K CMD...: K copies of CMD at once, as one command for measure
copies() {
	_k=$1
	shift
	_cmd=
	for _a in "$@"; do
		_cmd="$_cmd '$(printf '%s' "$_a" | sed "s/'/'\\\\''/g")'"
	done
	_script='' _wait=''
	_i=0
	while [ $_i -lt "$_k" ]; do
		_script="$_script$_cmd >/dev/null & p$_i=\$!; "
		_wait="$_wait wait \$p$_i || s=1;"
		_i=$((_i + 1))
	done
	# every copy's status: a failed copy fails the row
	set -- sh -c "${_script}s=0;$_wait exit \$s"
	bench_measure "$runs" "$@"
}

# row LABEL SOLO_WALL: one line for the last measurement against SOLO_WALL
row() {
	if [ "$m_code" != 0 ]; then
		printf '%-34s FAILED (exit %s)\n' "$1" "$m_code"
		exit 1
	fi
	awk -v l="$1" -v w="$m_wall" -v u="$m_user" -v s="$m_sys" -v solo="$2" -v k="$3" \
		-v ld="$(cut -d' ' -f1 /proc/loadavg)" 'BEGIN {
		printf "%-34s %8.3f %8.3f %10.2fx %6s\n", l, w, u + s, (w > 0 ? k * solo / w : 0), ld
	}'
}

echo "ftlens: $ftlens ($("$ftlens" --version 2>/dev/null | head -n 1))"
bench_host
echo "trace: $trace ($(wc -c <"$trace") bytes), runs per row: $runs (fastest shown)"
echo
printf '%-34s %8s %8s %11s %6s\n' "command" "wall s" "CPU s" "throughput" "load"

bench_measure "$runs" sha256sum "$trace"
[ "$m_code" = 0 ] || { echo "sha256sum failed" >&2; exit 1; }
ref=$m_wall
row "sha256sum, alone" "$ref" 1
copies "$n" sha256sum "$trace"
row "sha256sum, $n at once" "$ref" "$n"
ref_n=$(awk -v k="$n" -v solo="$ref" -v w="$m_wall" 'BEGIN { print k * solo / w }')

bench_measure "$runs" "$ftlens" report -j 1 "$trace"
solo=$m_wall
row "ftlens report -j 1, alone" "$solo" 1
copies "$n" "$ftlens" report -j 1 "$trace"
row "ftlens report -j 1, $n at once" "$solo" "$n"
ceiling=$(awk -v k="$n" -v solo="$solo" -v w="$m_wall" 'BEGIN { print k * solo / w }')
bench_measure "$runs" "$ftlens" report -j "$n" "$trace"
row "ftlens report -j $n" "$solo" 1

echo
awk -v r="$ref_n" -v c="$ceiling" -v k="$n" -v solo="$solo" -v w="$m_wall" 'BEGIN {
	s = solo / w
	printf "%d copies give %.2fx the throughput of one (sha256sum) and %.2fx (report -j 1):\n", k, r, c
	printf "report -j %d, %.2fx report -j 1, is %.0f%% of what %d copies of it reach here.\n", k, s,
		100 * s / c, k
}'
echo "throughput: the work of the row (copies x one run) over its wall time, in runs alone;"
echo "for report -j $n, its speed-up over report -j 1. The host's noise moves every"
echo "figure from one run of this script to the next: read the rows of one run together."
