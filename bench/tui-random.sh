#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The TUI's random-key test at full length (issue 30): the test suite runs
# tests/unit/test-tui-random with 1000 steps per kind of input; this runs
# it with STEPS (default 100000) per kind, then on a generated 1 GiB
# function_graph trace (bench/gen-fgraph.c) driven while it is still read
# (the app starts again now and then, so loading and Esc during it come
# back often). Build the tree with --enable-sanitizers for the ASan run.
# Prints each kind's seed, steps and time (the test's own lines).
# Usage: [STEPS=N] [SEED=N] [BIG=SIZE] [KINDS=a,b] bench/tui-random.sh
#   BIG=0 leaves the big input out; KINDS picks the kinds (see the test).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
bench_src=$here
bench_dir=${TMPDIR:-/tmp}/ftlens-bench
. "$here/lib.sh"
mkdir -p "$bench_dir"
prog=$top/tests/unit/test-tui-random
[ -x "$prog" ] || {
	echo "tui-random.sh: build it first: make tests/unit/test-tui-random" >&2
	exit 2
}
steps=${STEPS:-100000}
seed=${SEED:-20261206}
big=${BIG:-1G}
bench_host
export LC_ALL=C TZ=UTC top_srcdir="$top" FTL_TESTDATA="$top/tests/data"
export FTL_REAL_DATA="${FTL_REAL_DATA:-$top/../shared/data/real}"
export XDG_CACHE_HOME="$bench_dir/cache"
export FTL_TUI_RANDOM_STEPS=$steps FTL_TUI_RANDOM_SEED=$seed FTL_TUI_RANDOM_FULL=1
# a restart reopens the big input: slow under ASan on a busy machine
export FTL_TUI_RANDOM_WATCHDOG=${WATCHDOG:-600}
# as the test suite runs it: a sanitizer's finding ends the run
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:allocator_may_return_null=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
show='^[a-z-]+: |FAIL|passed|Elapsed|runtime error|Sanitizer|hang'
rc=0
log=$bench_dir/tui-random.log
# run [ENV=VALUE...]: the test with those, its lines that matter shown
run() {
	env "$@" "$prog" >"$log" 2>&1 || rc=1
	grep -E "$show" "$log"
}
run FTL_TUI_RANDOM_KINDS="${KINDS:-}"
if [ "$big" != 0 ]; then
	bench_sizes tui-random.sh "$big"
	bench_build gen-fgraph
	input=$bench_dir/tui-random-fgraph-$big.txt
	[ -f "$input" ] || "$bench_dir/gen-fgraph" -s 1 -p "$big" "$input" || exit 1
	echo "big: $(du -h "$input" | cut -f1) $input"
	run FTL_TUI_RANDOM_KINDS=big FTL_TUI_RANDOM_INPUT="$input"
fi
exit $rc
