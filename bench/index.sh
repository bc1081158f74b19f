#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The sparse index (ftlens index): what building it costs next to one
# `ftlens info` pass, and what it saves: a 1 ms --time window in the middle
# of a trace of SIZE read with the index and without (dump and report), with
# the outputs compared byte for byte. Two traces: a scheduling trace with
# timestamps (bench/gen-sched.c), where windows seek, and the function_graph
# trace of bench/ingest.sh, which has none (windows read it whole; the index
# is still built). Per row: wall and CPU seconds (user + sys) and peak RSS
# from wait4() (bench/measure.c). Figures only: nothing passes or fails.
#
# usage: bench/index.sh [SIZE]          (default 1G; K, M, G = 2^10..)
# env:   FTLENS=path/to/ftlens   (default ./ftlens of this tree; benchmark an
#                                 optimized build: configure CFLAGS='-O2 -g')
#        BENCH_DIR=dir           traces and helpers, made once (default
#                                /tmp/ftlens-bench)
#        RUNS=N                  runs per command, the fastest shown (default 3)
#        WINDOW=seconds          the window's length (default 0.001)
# The index cache goes to a temporary $XDG_CACHE_HOME, removed at the end.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
dir=${BENCH_DIR:-/tmp/ftlens-bench}
runs=${RUNS:-3}
window=${WINDOW:-0.001}
size=${1:-1G}

bench_dir=$dir bench_src=$here
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
bench_ftlens index.sh "$(pwd)"
bench_sizes index.sh "$size"
mkdir -p "$dir"
bench_build gen-fgraph
bench_build gen-sched
bench_build measure
XDG_CACHE_HOME=$(mktemp -d "${TMPDIR:-/tmp}/ftlens-index-bench.XXXXXX")
export XDG_CACHE_HOME
trap 'rm -rf "$XDG_CACHE_HOME"' EXIT

# row LABEL RUNS CMD...: one line of figures (the fastest of RUNS runs)
row() {
	label=$1 n=$2
	shift 2
	bench_measure "$n" "$@"
	if [ "$m_code" != 0 ]; then
		printf '  %-34s FAILED (exit %s)\n' "$label" "$m_code"
		return
	fi
	awk -v l="$label" -v w="$m_wall" -v u="$m_user" -v s="$m_sys" -v r="$m_rss" 'BEGIN {
		printf "  %-34s %9.4f %9.4f %9.1f\n", l, w, u + s, r / 1024 }'
}

# ts_of FILE: the timestamps of the lines in FILE's text on stdin
ts_of() { grep -Eo ' [0-9]+\.[0-9]{6}: ' | tr -d ' :'; }

# bench TRACE LABEL: the index's build cost and, with timestamps, a window
bench() {
	trace=$1
	echo "$2: $trace ($(wc -c <"$trace") bytes)"
	printf '  %-34s %9s %9s %9s\n' command "wall s" "CPU s" "RSS MiB"
	row "info --no-index" "$runs" "$ftlens" info --no-index "$trace"
	# a build per run: the cache is emptied first by a command of its own
	rm -rf "$XDG_CACHE_HOME/ftlens"
	row "index (build)" 1 "$ftlens" index "$trace"
	rm -rf "$XDG_CACHE_HOME/ftlens"
	row "info (builds it on the way)" 1 "$ftlens" info "$trace"
	row "info (index fresh)" "$runs" "$ftlens" info "$trace"
	"$ftlens" index "$trace" | sed -n 's/^/  /; /Index:\|Points:\|Windows:/p'
	first=$(head -c 65536 "$trace" | ts_of | head -n 1)
	last=$(tail -c 65536 "$trace" | ts_of | tail -n 1)
	if [ -z "$first" ] || [ -z "$last" ]; then
		echo "  (no timestamps: a window reads the whole file)"
		echo
		return
	fi
	w=$(awk -v a="$first" -v b="$last" -v d="$window" \
		'BEGIN { m = (a + b) / 2; printf "%.6f,%.6f", m, m + d }')
	echo "  window --time $w (the trace spans $first .. $last s)"
	row "dump --time (index)" "$runs" "$ftlens" dump --time "$w" "$trace"
	row "dump --time --no-index" 1 "$ftlens" dump --no-index --time "$w" "$trace"
	row "report --time (index)" "$runs" "$ftlens" report --time "$w" "$trace"
	row "report --time --no-index" 1 "$ftlens" report --no-index --time "$w" "$trace"
	out=$XDG_CACHE_HOME/out
	"$ftlens" dump --time "$w" "$trace" >"$out.a" 2>&1
	"$ftlens" dump --no-index --time "$w" "$trace" >"$out.b" 2>&1
	"$ftlens" report --time "$w" "$trace" >>"$out.a" 2>&1
	"$ftlens" report --no-index --time "$w" "$trace" >>"$out.b" 2>&1
	echo "  $(grep -c . "$out.a") lines of dump and report output;" \
		"indexed = unindexed: $(cmp -s "$out.a" "$out.b" && echo yes || echo NO)"
	"$ftlens" dump --verbose --time "$w" "$trace" 2>&1 >/dev/null | sed -n 's/^/  /; /index/p'
	echo
}

echo "ftlens: $ftlens ($("$ftlens" --version 2>/dev/null | head -n 1))"
bench_host
echo "runs per command: $runs (fastest shown; builds and --no-index windows: 1)"
echo
sched=$dir/sched-$size-s1-g$(cksum <"$here/gen-sched.c" | cut -d' ' -f1).txt
[ -f "$sched" ] || { echo "(generating $sched)" >&2; "$dir/gen-sched" -s 1 "$size" "$sched"; }
bench "$sched" "sched $size (timestamps)"
fgraph=$dir/fgraph-$size-s1-g$(cksum <"$here/gen-fgraph.c" | cut -d' ' -f1).txt
[ -f "$fgraph" ] || { echo "(generating $fgraph)" >&2; "$dir/gen-fgraph" -s 1 "$size" "$fgraph"; }
bench "$fgraph" "function_graph $size (no timestamps)"
