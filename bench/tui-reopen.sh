#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What the TUI's reopens of a trace.dat cost (issue 30): the random-key
# test's trace.dat kind for STEPS (default 1000) steps, under ASan as the
# test suite runs it, with the CPU time it took (user and system, its
# children included), the opens of the file (the reader's "trace.dat
# version" debug line, one per open) and the processes it forked (strace:
# clone without CLONE_THREAD; /usr/bin/time's own child is one of them).
# CPU per open is the CPU time over the opens: a restart of the app opens
# the file for the Events list and for the model.
# Usage: [STEPS=N] [SEED=N] bench/tui-reopen.sh [TEST-PROGRAM]
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
prog=${1:-$top/tests/unit/test-tui-random}
out=${TMPDIR:-/tmp}/ftlens-bench/tui-reopen.$$
mkdir -p "$out"
export LC_ALL=C TZ=UTC top_srcdir="$top" FTL_TESTDATA="$top/tests/data"
export FTL_REAL_DATA="${FTL_REAL_DATA:-$top/../shared/data/real}"
export XDG_CACHE_HOME="$out/cache" G_MESSAGES_DEBUG=all
export FTL_TUI_RANDOM_STEPS=${STEPS:-1000} FTL_TUI_RANDOM_SEED=${SEED:-20261206}
export FTL_TUI_RANDOM_FULL=1 FTL_TUI_RANDOM_KINDS=sched-tracedat FTL_TUI_RANDOM_WATCHDOG=600
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:allocator_may_return_null=1
strace -f -qq -e trace=clone,clone3,fork,vfork -e signal=none -o "$out/strace" \
	/usr/bin/time -f "cpu %U %S" -o "$out/time" nice -n 19 "$prog" >"$out/log" 2>&1
rc=$?
grep -E "^sched-tracedat: |passed|FAIL" "$out/log"
opens=$(grep -c "trace.dat version" "$out/log")
forks=$(grep clone "$out/strace" | grep -vc CLONE_THREAD)
awk -v o="$opens" -v f="$forks" '/^cpu/ { printf "cpu %.2f s (user %s, sys %s), %d opens, %.3f s a open, %d processes forked\n", $2 + $3, $2, $3, o, ($2 + $3) / (o ? o : 1), f }' "$out/time"
rm -rf "$out"
exit $rc
