#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What one execution of a fuzz target costs: CPU milliseconds (user + system
# of the fuzzer and its children, the trial forks included) over libFuzzer's
# executions, from a copy of the committed corpus, at nice 19. CPU time, not
# wall time: on a shared machine the wall clock measures the neighbours.
#
# usage: bench/fuzz-cost.sh -b BUILD [-c DIR] [-n RUNS] [-o FLAGS] [TARGET...]
#   -b BUILD  a build with libFuzzer targets (--enable-fuzzing[=fast])
#   -c DIR    the corpus of TARGET is DIR/TARGET (a campaign's work
#             directory; default: the committed tests/fuzz/corpus)
#   -n RUNS   executions per target (default 3000; the corpus first)
#   -o FLAGS  more libFuzzer flags (e.g. "-entropic=0 -reload=0")
#   TARGET    as bench/fuzz.sh (default: all)
# Prints per target: executions, CPU seconds, ms per execution, the
# executions per second one whole core would give, the wall seconds and
# the executions per wall second.
set -u
build='' corpus='' runs=3000 flags=''
while getopts b:c:n:o: opt; do
	case $opt in
	b) build=$OPTARG ;;
	c) corpus=$OPTARG ;;
	n) runs=$OPTARG ;;
	o) flags=$OPTARG ;;
	*) sed -n 's/^# \{0,1\}//; /^usage/,/^Prints/p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
src=$(cd "$(dirname "$0")/.." && pwd)
corpus=${corpus:-$src/tests/fuzz/corpus}
targets=${*:-text tcreport percpu tracedat rawdir stack console options index filter tui}
ASAN_OPTIONS=${ASAN_OPTIONS:-allocator_may_return_null=1:quarantine_size_mb=16:malloc_context_size=10:detect_leaks=0}
export ASAN_OPTIONS
# shellcheck source=bench/fuzz-lib.sh
. "$src/bench/fuzz-lib.sh"
printf '%-9s %8s %8s %8s %10s %7s %7s\n' target execs cpu_s ms/exec exec/s/core wall_s exec/s
for t in $targets; do
	w=$(mktemp -d) || exit 1
	mkdir "$w/c"
	cp "$corpus/$t"/* "$w/c"/ 2>/dev/null
	# -seed=1: the same mutations each time, so that builds compare
	# shellcheck disable=SC2086
	/usr/bin/time -f "%U %S %e" -o "$w/time" nice -n 19 "$build/tests/fuzz/fuzz-$t" -seed=1 \
		-runs="$runs" -print_final_stats=1 -max_len="$(max_len "$t")" -timeout=120 \
		-close_fd_mask=3 -rss_limit_mb=4096 $flags "$w/c" >"$w/log" 2>&1
	n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$w/log")
	read -r u s e <"$w/time"
	awk -v t="$t" -v n="${n:-0}" -v u="$u" -v s="$s" -v e="$e" 'BEGIN {
		c = u + s
		if (n > 0 && c > 0 && e > 0)
			printf "%-9s %8d %8.2f %8.3f %10.0f %7.2f %7.0f\n", t, n, c, c * 1000 / n,
			       n / c, e, n / e
		else
			printf "%-9s %8s %8.2f %8s %10s %7s %7s\n", t, "?", c, "?", "?", e, "?"
	}'
	rm -rf "$w"
done
