#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The sanitizer sweep (issue 31, item 1): every committed fuzz input (each
# target's corpus/ and regress/) through its replay driver, every crasher of
# ../shared/data/crashers through the target of its kind (.dat: tracedat,
# .txt: text, .sections: rawdir) and through the commands (info, dump,
# report, graph, sched, markers, flame, timeline), in a build configured
# with --enable-sanitizers (ASan and UBSan, UBSan fatal), and counts what
# the sanitizers said. Prints one line per finding and a summary.
#
# usage: bench/sanitize-sweep.sh BUILD [CRASHERS]
#   BUILD     a configured --enable-sanitizers tree with ftlens and
#             tests/fuzz/fuzz-* made (the replay driver, not libFuzzer)
#   CRASHERS  default: ../shared/data/crashers beside the source tree
# Exit status: 1 when any sanitizer report, signal or time-out was seen.
set -u
b=$(cd "${1:?usage: sanitize-sweep.sh BUILD [CRASHERS]}" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
crashers=${2:-$src/../shared/data/crashers}
[ -d "$crashers" ] || crashers=/work/shared/data/crashers
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export ASAN_OPTIONS UBSAN_OPTIONS
runs=0 ubsan=0 asan=0 signals=0 timeouts=0

# judge WHAT STATUS ERRFILE: counts and reports what one run showed
judge() {
	runs=$((runs + 1))
	if grep -q 'runtime error' "$3"; then
		ubsan=$((ubsan + 1))
		echo "UBSAN $1: $(grep -m1 'runtime error' "$3")"
	elif grep -q 'Sanitizer' "$3"; then
		asan=$((asan + 1))
		echo "ASAN $1: $(grep -m1 'Sanitizer' "$3")"
	elif [ "$2" -eq 124 ]; then
		timeouts=$((timeouts + 1))
		echo "TIMEOUT $1"
	elif [ "$2" -gt 128 ]; then
		signals=$((signals + 1))
		echo "SIGNAL $1: exit $2"
	fi
}

for t in text tcreport percpu tracedat rawdir stack console options index filter tui; do
	bin=$b/tests/fuzz/fuzz-$t
	[ -x "$bin" ] || { echo "MISSING $bin"; continue; }
	for d in "$src/tests/fuzz/corpus/$t" "$src/tests/fuzz/regress/$t"; do
		[ -d "$d" ] || continue
		for f in "$d"/*; do
			timeout 300 nice -n 19 "$bin" "$f" >/dev/null 2>"$tmp/err"
			judge "fuzz-$t ${f#$src/}" $? "$tmp/err"
		done
	done
done

for f in "$crashers"/*; do
	case $f in
	*.dat) t=tracedat ;;
	*.txt) t=text ;;
	*.sections) t=rawdir ;;
	*) t= ;;
	esac
	if [ -n "$t" ]; then
		timeout 300 nice -n 19 "$b/tests/fuzz/fuzz-$t" "$f" >/dev/null 2>"$tmp/err"
		judge "fuzz-$t crashers/${f##*/}" $? "$tmp/err"
	fi
	case $f in *.py | *.md | *.sections) continue ;; esac
	for cmd in info dump report graph sched markers "flame -o $tmp/f.svg" \
		"timeline -o $tmp/t.svg"; do
		# shellcheck disable=SC2086
		timeout 300 nice -n 19 "$b/ftlens" $cmd "$f" >/dev/null 2>"$tmp/err"
		judge "ftlens $cmd crashers/${f##*/}" $? "$tmp/err"
	done
done
echo "runs $runs: UBSan reports $ubsan, ASan reports $asan, signals $signals, time-outs $timeouts"
[ $((ubsan + asan + signals + timeouts)) -eq 0 ]
