#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The fuzzing campaign: runs each libFuzzer target of an --enable-fuzzing
# build (tests/fuzz/README.md) one after another, for a time budget and/or a
# number of executions each, on a work corpus seeded from the committed one,
# and prints per target: executions, executions per second, coverage (edges
# and features), new corpus units and findings (crash-, leak-, timeout-,
# oom- and slow- files, kept in WORK/TARGET.findings/). Every run is also
# appended to WORK/fuzz-log.tsv, and the totals per target over all runs
# in WORK are printed at the end.
#
# usage: bench/fuzz.sh [-t SECONDS] [-n EXECS] [-T SECONDS] [-w WORK] [-b BUILD] [-q] [TARGET...]
#   -t SECONDS  time budget per target (default 60)
#   -T SECONDS  one input's time limit, wall clock (default 10): raise it
#               for a campaign under nice on a busy machine, where an input
#               of 0.3 s of CPU can wait 10 s for it
#   -n EXECS    stop a target after EXECS executions (default: time only)
#   -w WORK     work directory (default /tmp/ftlens-fuzz); corpora grow there
#   -b BUILD    build directory holding tests/fuzz/fuzz-* (default: .)
#   -q          quiet: libFuzzer's own output goes to WORK/TARGET.log only
#   TARGET      text tcreport percpu tracedat rawdir stack console options
#               index filter tui
#               (default: all)
# FTL_FUZZ_FLAGS: more libFuzzer flags; a throughput campaign in a
# --enable-fuzzing=fast build gives "-entropic=0 -reload=0" (libFuzzer's
# entropic bookkeeping cost a quarter of each cheap execution).
# Exit status: 1 when any target found something (or did not run), else 0.
set -u
# the fuzzer's log quotes mutated bytes: sed must take them as bytes
LC_ALL=C
export LC_ALL
secs=60 execs=0 unit=10 work=/tmp/ftlens-fuzz build=. quiet=
while getopts t:n:T:w:b:q opt; do
	case $opt in
	t) secs=$OPTARG ;;
	n) execs=$OPTARG ;;
	T) unit=$OPTARG ;;
	w) work=$OPTARG ;;
	b) build=$OPTARG ;;
	q) quiet=1 ;;
	*) sed -n 's/^# \{0,1\}//; /^usage/,/^Exit/p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
src=$(cd "$(dirname "$0")/.." && pwd)
targets=${*:-text tcreport percpu tracedat rawdir stack console options index filter tui}
mkdir -p "$work" || exit 1
work=$(cd "$work" && pwd)

# shellcheck source=bench/fuzz-lib.sh
. "$src/bench/fuzz-lib.sh"

# libFuzzer under ASan: a small quarantine and short malloc stacks keep
# the executions cheap (use-after-free is still caught within 16 MB of
# frees); a NULL from a huge malloc is a finding through -malloc_limit_mb.
ASAN_OPTIONS=${ASAN_OPTIONS:-allocator_may_return_null=1:quarantine_size_mb=16:malloc_context_size=10:detect_leaks=1}
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export ASAN_OPTIONS UBSAN_OPTIONS

log=$work/fuzz-log.tsv
[ -f "$log" ] || printf 'date\ttarget\tseconds\texecs\texec_s\tedges\tfeatures\tcorpus\tnew\tfindings\n' >"$log"
status=0
printf '%-9s %10s %8s %7s %8s %7s %5s %s\n' target execs exec/s edges features corpus new findings
for t in $targets; do
	bin=$build/tests/fuzz/fuzz-$t
	if [ ! -x "$bin" ]; then
		echo "$t: $bin is missing (build with ./configure CC=clang --enable-fuzzing)" >&2
		status=1
		continue
	fi
	corpus=$work/$t
	found=$work/$t.findings
	mkdir -p "$corpus" "$found"
	[ -d "$src/tests/fuzz/corpus/$t" ] && cp -n "$src/tests/fuzz/corpus/$t"/* "$corpus"/ 2>/dev/null
	before=$(ls "$corpus" | wc -l)
	dict=
	for d in "$src/tests/fuzz/dict/$t.dict" "$src/tests/fuzz/dict/ftrace.dict"; do
		if [ -f "$d" ]; then
			dict="-dict=$d"
			break
		fi
	done
	runs=
	[ "$execs" -gt 0 ] && runs="-runs=$execs"
	out=$work/$t.log
	# -close_fd_mask=3: the targets print nothing worth reading
	t0=$(date +%s)
	# shellcheck disable=SC2086
	(cd "$found" && "$bin" -max_total_time="$secs" $runs -max_len="$(max_len "$t")" \
		-timeout="$unit" -rss_limit_mb=2048 -malloc_limit_mb=1024 -print_final_stats=1 \
		-artifact_prefix="$found/" -close_fd_mask=1 $dict ${FTL_FUZZ_FLAGS:-} "$corpus") >"$out" 2>&1
	rc=$?
	# the seconds it ran: a finding (or a crash) ends it before its budget
	ran=$(($(date +%s) - t0))
	[ -z "$quiet" ] && grep -E '^==|ERROR|SUMMARY|Test unit written' "$out" | head -20
	n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out")
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$out")
	last=$(grep -E '^#[0-9]+' "$out" | tail -1)
	edges=$(echo "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
	feats=$(echo "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
	after=$(ls "$corpus" | wc -l)
	findings=$(ls "$found" | grep -cE '^(crash|leak|timeout|oom|slow-unit)-')
	printf '%-9s %10s %8s %7s %8s %7s %5s %s\n' "$t" "${n:-?}" "${rate:-?}" "${edges:-?}" \
		"${feats:-?}" "$after" "$((after - before))" "$findings"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$t" "$ran" \
		"${n:-0}" "${rate:-0}" "${edges:-0}" "${feats:-0}" "$after" "$((after - before))" \
		"$findings" >>"$log"
	if [ "$findings" -gt 0 ] || [ -z "$n" ] || [ "$rc" -ne 0 ]; then
		status=1
	fi
done
echo "totals over every run in $work:"
awk -F'\t' 'NR > 1 { e[$2] += $4; s[$2] += $3; f[$2] = $10; c[$2] = $6 }
	END { for (t in e) printf "  %-9s %12d execs in %7d s, %s edges, %s findings now\n", t, e[t], s[t], c[t], f[t] }' "$log" | sort
exit $status
