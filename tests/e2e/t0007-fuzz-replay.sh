#!/bin/sh
# The fuzz targets (tests/fuzz/) under make check: each replays its seed
# corpus and its regression inputs (tests/fuzz/regress/, the crashes the
# campaign found) once, under the sanitizers. In an --enable-fuzzing build
# each libFuzzer target then also fuzzes for FTL_FUZZ_SECONDS (default 10;
# `make check-fuzz`, which CI runs, sets 30) from a copy of its corpus,
# through bench/fuzz.sh.
. "$(dirname "$0")/lib.sh"
: "${top_builddir:=$top_srcdir}"
: "${FTL_FUZZ_SECONDS:=10}"
make_tmpdir
fz=$top_builddir/tests/fuzz
targets="text tcreport percpu tracedat rawdir stack console options index filter tui"
libfuzzer=
if "$fz/fuzz-text" -help=1 2>&1 | grep -q libFuzzer; then
	libfuzzer=1
	plan 22
else
	plan 11
fi
for t in $targets; do
	bin=$fz/fuzz-$t
	dirs=$top_srcdir/tests/fuzz/corpus/$t
	[ -d "$top_srcdir/tests/fuzz/regress/$t" ] && dirs="$dirs $top_srcdir/tests/fuzz/regress/$t"
	n=$(find $dirs -type f | wc -l)
	if [ -n "$libfuzzer" ]; then
		# -runs=0: every corpus input once, no mutation
		check "fuzz-$t replays its $n corpus and regression inputs" '
			"$bin" -runs=0 $dirs >"$T/$t.log" 2>&1 ||
			{ grep -A12 "^==[0-9]*==ERROR\|^fuzz:" "$T/$t.log" | sed "s/^/# /"; false; }
		'
		check "fuzz-$t fuzzes ${FTL_FUZZ_SECONDS} s without a finding" '
			sh "$top_srcdir/bench/fuzz.sh" -q -t "$FTL_FUZZ_SECONDS" -w "$T/work" \
				-b "$top_builddir" $t >"$T/$t.run" 2>&1 ||
			{ sed "s/^/# /" "$T/$t.run"; tail -n 40 "$T/work/$t.log" | sed "s/^/# /"; false; }
		'
	else
		check "fuzz-$t replays its $n corpus and regression inputs" '
			out=$("$bin" $dirs 2>"$T/$t.err") && [ "$out" = "replayed $n inputs" ] ||
			{ head -n 30 "$T/$t.err" | sed "s/^/# /"; false; }
		'
	fi
done
finish
