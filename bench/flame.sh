#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Flame graph speed (issue 15 item 9), on generated function_graph traces
# (bench/gen-fgraph.c: thousands of kernel-like functions, depth ~20, 8
# CPUs, task switches, irqs, markers):
#   1. the same stacks: `ftlens export --to folded` once, then FlameGraph's
#      flamegraph.pl and `ftlens flame` each draw an SVG from that folded
#      file into a file (both at their default 0.1 px minimum width, 1200 px
#      wide), and `ftlens flame` straight from the trace;
#   2. a big trace: `ftlens flame` (text -> SVG) next to `ftlens report` on
#      the same file, in MB/s, the two commands run in turn.
# Per command, the median of RUNS runs (the lower middle one for an even
# RUNS) of: wall time (with the fastest and slowest), MB/s of the trace
# (10^6 bytes), CPU time, peak RSS, from wait4() (bench/measure.c); the
# ratios are of medians, printed with the load average they were taken at
# (other work on the machine slows both sides, not always alike). Prints
# figures only: nothing here passes or fails on speed.
#
# usage: bench/flame.sh [SMALL [BIG]]   (default 64M 1G; K, M, G = 2^10..)
# env:   FTLENS=path/to/ftlens   (default ./ftlens of this tree; benchmark an
#                                 optimized build: configure CFLAGS='-O2 -g')
#        FLAMEGRAPH=flamegraph.pl (default ../shared/tools/flamegraph/)
#        BENCH_DIR=dir           traces and helpers are cached here
#                                (default /tmp/ftlens-bench), made once per
#                                size, seed and generator source
#        RUNS=N                  runs per command, the median is shown (default 5)
#        SEED=N                  generator seed (default 1)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
flamegraph=${FLAMEGRAPH:-$here/../../shared/tools/flamegraph/flamegraph.pl}
dir=${BENCH_DIR:-/tmp/ftlens-bench}
runs=${RUNS:-5}
seed=${SEED:-1}
small=${1:-64M}
big=${2:-1G}

bench_dir=$dir bench_src=$here
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
bench_ftlens flame.sh "$(pwd)"
bench_sizes flame.sh "$small" "$big"
# the SVG's stylesheet and script: this checkout's, for an ftlens that is
# neither installed nor in its build tree
: "${FTLENS_DATADIR:=$here/../data}"
export FTLENS_DATADIR
[ -r "$flamegraph" ] || {
	echo "flame.sh: no flamegraph.pl at '$flamegraph' (set FLAMEGRAPH)" >&2
	exit 2
}
mkdir -p "$dir"
bench_build gen-fgraph
bench_build measure
genid=$(cksum <"$here/gen-fgraph.c" | cut -d' ' -f1)
work=$(mktemp -d "${TMPDIR:-/tmp}/ftl-flame-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

# trace SIZE: the cached generated trace of SIZE (made when missing)
trace() {
	_t=$dir/fgraph-$1-s$seed-g$genid.txt
	if [ ! -f "$_t" ]; then
		echo "(generating $_t)" >&2
		"$dir/gen-fgraph" -s "$seed" -t "${_t%.txt}.truth" "$1" "$_t"
	fi
	echo "$_t"
}

# run LABEL CMD...: $runs runs as one row of medians; sets r_wall and
# r_cpu (medians, each on its own).
failed=0
run() {
	label=$1
	shift
	bench_measure "$runs" "$@"
	if [ "$m_code" != 0 ]; then
		show_failed "$label"
		return 0
	fi
	show "$label" "$m_runs"
}
show_failed() {
	printf '%-28s FAILED (exit %s)\n' "$1" "$m_code"
	failed=1
	r_wall=0 r_cpu=0
}
# show LABEL ROWS: the row of medians of ROWS (bench_measure's m_runs lines)
show() {
	label=$1 _rows=$2
	_mid=$(((runs + 1) / 2))
	r_wall=$(printf '%s' "$_rows" | sort -g -k1,1 | sed -n "${_mid}p" | cut -d' ' -f1)
	r_cpu=$(printf '%s' "$_rows" | awk '{ print $2 + $3 }' | sort -g | sed -n "${_mid}p")
	printf '%s' "$_rows" | awk -v l="$label" -v w="$r_wall" -v c="$r_cpu" -v b="$bytes" '
		NR == 1 || $1 < lo { lo = $1 }
		NR == 1 || $1 > hi { hi = $1 }
		$4 > rss { rss = $4 }
		END {
			printf "%-28s %7.3f (%.3f-%.3f) %8.1f %8.3f %8.1f\n", l, w, lo, hi,
				(w > 0 ? b / 1e6 / w : 0), c, rss / 1024
		}'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
header() {
	echo
	echo "$1"
	printf '%-28s %7s %13s %8s %8s %8s\n' command "wall s" "(fastest-slowest)" "MB/s" "CPU s" "RSS MiB"
}
load() { cut -d' ' -f1 /proc/loadavg; }
# drawn SVG: what ftlens --verbose says about it
drawn() { "$ftlens" flame --verbose "$@" 2>&1 >/dev/null | grep -E 'frames|bytes' | sed 's/^/  ftlens --verbose: /'; }

echo "ftlens: $ftlens ($("$ftlens" --version 2>/dev/null | head -n 1))"
echo "flamegraph.pl: $flamegraph"
bench_host
echo "traces: $dir (seed $seed), runs per command: $runs (median shown)"

# 1. the same stacks
t=$(trace "$small")
bytes=$(wc -c <"$t")
header "1. the same stacks: fgraph $(awk -v b="$bytes" 'BEGIN { printf "%.0f MiB", b / 1048576 }') (MB/s of the trace)"
run "ftlens export --to folded" "$ftlens" export --to folded -o "$work/f.folded" "$t"
"$ftlens" export --to folded -o "$work/f.folded" "$t"
echo "  folded: $(wc -l <"$work/f.folded") distinct stacks, $(wc -c <"$work/f.folded") bytes"
load0=$(load)
run "flamegraph.pl FOLDED" -o "$work/pl.svg" perl "$flamegraph" --countname ns "$work/f.folded"
pl=$r_wall pl_cpu=$r_cpu
run "ftlens flame FOLDED" "$ftlens" flame -o "$work/f.svg" "$work/f.folded"
fl=$r_wall fl_cpu=$r_cpu
run "ftlens flame TRACE" "$ftlens" flame -o "$work/t.svg" "$t"
echo "  SVG bytes: flamegraph.pl $(wc -c <"$work/pl.svg"), ftlens $(wc -c <"$work/f.svg");" \
	"frames drawn by flamegraph.pl: $(grep -c '^<g >' "$work/pl.svg" || true)"
drawn -o "$work/f.svg" "$work/f.folded"
echo "  ftlens flame is $(ratio "$pl" "$fl")x faster than flamegraph.pl on the same folded stacks" \
	"in wall time, $(ratio "$pl_cpu" "$fl_cpu")x in CPU time ($(ratio "$pl" "$r_wall")x and" \
	"$(ratio "$pl_cpu" "$r_cpu")x counting its own parse of the trace); load $load0 -> $(load)"

# 2. a big trace: flame next to report
t=$(trace "$big")
bytes=$(wc -c <"$t")
header "2. text -> SVG: fgraph $(awk -v b="$bytes" 'BEGIN { printf "%.0f MiB", b / 1048576 }')"
load0=$(load)
# one run of each in turn, so that a load that drifts weighs on both alike
rp_rows='' fl_rows='' rp_code=0 fl_code=0
i=0
while [ $i -lt "$runs" ]; do
	bench_measure 1 "$ftlens" report "$t"
	[ "$m_code" = 0 ] || rp_code=$m_code
	rp_rows=$rp_rows$m_runs
	bench_measure 1 "$ftlens" flame -o "$work/b.svg" "$t"
	[ "$m_code" = 0 ] || fl_code=$m_code
	fl_rows=$fl_rows$m_runs
	i=$((i + 1))
done
m_code=$rp_code
if [ "$m_code" = 0 ]; then show "ftlens report" "$rp_rows"; else show_failed "ftlens report"; fi
rp=$r_wall rp_cpu=$r_cpu
m_code=$fl_code
if [ "$m_code" = 0 ]; then show "ftlens flame" "$fl_rows"; else show_failed "ftlens flame"; fi
fl=$r_wall fl_cpu=$r_cpu
drawn -o "$work/b.svg" "$t"
echo "  ftlens flame takes $(ratio "$fl" "$rp")x ftlens report's wall time and" \
	"$(ratio "$fl_cpu" "$rp_cpu")x its CPU time on the same trace; load $load0 -> $(load)"
echo
echo "MB/s is 10^6 bytes of the trace per wall second (for FOLDED rows, of the trace it came from)."
echo "On a loaded machine compare CPU times: wall time includes waiting for a CPU."
exit $failed
