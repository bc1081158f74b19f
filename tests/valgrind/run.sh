#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make check-valgrind: every unit test and a sample of commands over the
# fixtures under valgrind's memcheck, in a build without the sanitizers
# (they cannot share a process). Passes with zero errors and zero definite
# leaks; the libraries' own leaks are suppressed by name in
# tests/valgrind/ftlens.supp, each with the reason.
# usage: tests/valgrind/run.sh   (top_srcdir, top_builddir, UNIT_TESTS from make)
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
ftlens=$top_builddir/ftlens
# what make check gives the unit tests
FTL_TESTDATA=$top_srcdir/tests/data
: "${FTL_REAL_DATA:=$top_srcdir/../shared/data/real}"
LC_ALL=C TZ=UTC
export FTL_TESTDATA FTL_REAL_DATA LC_ALL TZ
data=$top_srcdir/tests/data/vm
corpus=$top_srcdir/tests/fuzz/corpus
# --child-silent-after-fork: children end without freeing on purpose:
# tracecmd-guard.c's trial children _exit() as soon as the library call
# answered (whatever the parent then does again, memcheck sees in the
# parent), and tests fork children only to kill them with a signal.
vg="valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite
	--errors-for-leak-kinds=definite --child-silent-after-fork=yes
	--suppressions=$top_srcdir/tests/valgrind/ftlens.supp"
# for the unit tests that cannot run under memcheck (they say which)
FTL_VALGRIND=1
export FTL_VALGRIND
command -v valgrind >/dev/null || { echo "check-valgrind: valgrind is not installed"; exit 1; }
if grep -q '^#define FTL_SANITIZERS 1' "$top_builddir/config.h"; then
	echo "check-valgrind: this build has the sanitizers; configure one without --enable-sanitizers"
	exit 1
fi
log=$top_builddir/check-valgrind.log
: >"$log"
runs=0 failed=0
run() {
	runs=$((runs + 1))
	# shellcheck disable=SC2086
	if $vg "$@" >/dev/null 2>>"$log.tmp"; then
		echo "PASS: $*"
	else
		failed=$((failed + 1))
		echo "FAIL: $*"
		sed 's/^/    /' "$log.tmp" | head -n 40
	fi
	{ echo "== $*"; cat "$log.tmp"; } >>"$log"
	rm -f "$log.tmp"
}
for t in ${UNIT_TESTS:-}; do
	run "$top_builddir/$t"
done
run "$ftlens" info "$data/events/default.txt"
run "$ftlens" dump "$data/events/stacktrace.txt"
run "$ftlens" report "$data/fgraph-basic/trace.txt"
run "$ftlens" report --format json "$data/fgraph-events/trace.txt"
run "$ftlens" graph --format csv "$data/fgraph-basic/trace.txt"
run "$ftlens" markers "$data/events/default.txt"
run "$ftlens" diff "$data/fgraph-basic/trace.txt" "$data/fgraph-events/trace.txt"
run "$ftlens" info "$data/fgraph-basic/trace-cpu0.txt" "$data/fgraph-basic/trace-cpu1.txt"
run "$ftlens" report "$corpus/tracedat/raw-fgraph.dat"
run "$ftlens" info "$data/raw/raw"
run "$ftlens" stack "$data/stack/stack_trace"
run "$ftlens" oops "$data/oops/console.log"
echo "check-valgrind: $runs runs, $failed with errors or definite leaks (log: $log)"
[ "$failed" -eq 0 ]
