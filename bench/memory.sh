#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bounded memory (issue 14 item 4): peak RSS of info, report and graph on
#   1. a million distinct function names, each called once (a leaf per line);
#   2. two million distinct names, one caller and one callee per call;
#   3. a generated function_graph trace with about a million distinct call
#      paths (bench/gen-fgraph.c, 512 MiB: 5000 functions, depth ~20, 8 CPUs),
#      graph with its default node budget and without one (--max-nodes 0).
# The bounds the issue sets: 256 MiB for a million names, 64 MiB for many
# call paths. Each row prints peak RSS, CPU time and whether it is within its
# bound. Prints figures only: nothing here passes or fails the build.
#
# usage: bench/memory.sh
# env:   FTLENS=path/to/ftlens   (default ./ftlens of this tree; an
#                                 optimized build: configure CFLAGS='-O2 -g')
#        BENCH_DIR=dir           traces are cached here (default /tmp/ftlens-bench)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
dir=${BENCH_DIR:-/tmp/ftlens-bench}
bench_dir=$dir bench_src=$here
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
bench_ftlens memory.sh "$(pwd)"
mkdir -p "$dir"
bench_build gen-fgraph
bench_build measure
genid=$(cksum <"$here/gen-fgraph.c" | cut -d' ' -f1)

names1=$dir/names-1M.txt
[ -f "$names1" ] || awk 'BEGIN { print "# tracer: function_graph"; print "#"
	for (i = 0; i < 1000000; i++)
		printf " %d)   0.%03d us    |  some_kernel_function_name_%07d();\n", i % 8, i % 1000, i
}' >"$names1"
names2=$dir/names-2M-nested.txt
[ -f "$names2" ] || awk 'BEGIN { print "# tracer: function_graph"; print "#"
	for (i = 0; i < 1000000; i++) {
		printf " %d)               |  outer_fn_%07d() {\n", i % 8, i
		printf " %d)   0.%03d us    |    inner_%07d();\n", i % 8, i % 1000, i
		printf " %d)   1.%03d us    |  }\n", i % 8, i % 1000
	}
}' >"$names2"
paths=$dir/fgraph-512M-s1-g$genid.txt
[ -f "$paths" ] || "$dir/gen-fgraph" -s 1 -t "${paths%.txt}.truth" 512M "$paths"

echo "ftlens: $ftlens"
bench_host
printf '\n%-44s %8s %9s %9s  %s\n' "command on input" "CPU s" "RSS MiB" "bound" ""
row() {
	label=$1 bound=$2
	shift 2
	bench_measure 1 "$@"
	if [ "$m_code" != 0 ]; then
		printf '%-44s FAILED (exit %s)\n' "$label" "$m_code"
		return 0
	fi
	awk -v l="$label" -v u="$m_user" -v s="$m_sys" -v r="$m_rss" -v b="$bound" 'BEGIN {
		mib = r / 1024
		printf "%-44s %8.2f %9.1f %9s  %s\n", l, u + s, mib, (b ? b : "-"),
			(b ? (mib <= b ? "within" : "OVER") : "")
	}'
}
row "info, 1M names" 256 "$ftlens" info "$names1"
row "report, 1M names" 256 "$ftlens" report "$names1"
row "graph, 1M names" 256 "$ftlens" graph "$names1"
row "info, 2M names nested" 0 "$ftlens" info "$names2"
row "report, 2M names nested" 0 "$ftlens" report "$names2"
row "graph, 2M names nested" 0 "$ftlens" graph "$names2"
echo "  ($(wc -l <"$paths") lines of 512 MiB function_graph:)"
row "info, many call paths" 64 "$ftlens" info "$paths"
row "report, many call paths" 64 "$ftlens" report "$paths"
row "graph, many call paths" 64 "$ftlens" graph "$paths"
row "graph --max-nodes 0, many call paths" 0 "$ftlens" graph --max-nodes 0 "$paths"
echo
echo "Bounds from issue 14 item 4; '-' rows show what the bound does not cover"
echo "(two million names: the interned names alone are 80 MB; graph without its budget)."
