#!/bin/sh
# One selection, one answer: every command that selects events (the list
# comes from `ftlens help --commands`, so a new one cannot stay out) runs on
# every bundled sample and every public one with the same flag sets
# (--cpu, --pid, -e, -v -e, --filter, --relative-to with a --time window or
# a plain window) and must select what `ftlens dump` selects: the same count
# and first and last timestamps, or the same one error when a term matches
# nothing. Each sample runs every flag set through dump and the commands in
# rotation, so that every command meets every sample and every flag set;
# FTL_SELECTION_FULL=1 runs the whole matrix (selection_matrix.py says how
# many runs either took). Then report --by dir against the plain report and
# graph --by dir under those flag sets (source_figures.py).
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
prereq PYTHON
make_tmpdir
plan 3

samples=$T/samples
{
	echo "$top_srcdir/data/sample-fgraph.txt"
	echo "$FTL_TESTDATA/flame/hostile-fgraph.txt"
	echo "$FTL_TESTDATA/flame/narrow-damaged.txt"
	find "$FTL_TESTDATA/sched" "$FTL_TESTDATA/vm" -type f \
		\( -name 'trace*.txt' -o -name '*.sav' -o -name 'default.txt' -o -name '*.dat' \
		-o -name 'console.log' \) | sort
	find "$FTL_TESTDATA/vm" -type d -name per_cpu | sed 's#/per_cpu$##' | sort
	if [ -d "$FTL_REAL_DATA" ]; then
		find "$FTL_REAL_DATA/events" "$FTL_REAL_DATA/fgraph" "$FTL_REAL_DATA/function" \
			"$FTL_REAL_DATA/raw" -maxdepth 1 -mindepth 1 | sort
		# console logs that hold an ftrace dump: read through it
		grep -l "Dumping ftrace" "$FTL_REAL_DATA"/oops/* 2>/dev/null | sort
	fi
} >"$samples"
[ -d "$FTL_REAL_DATA" ] || diag "public samples ($FTL_REAL_DATA) absent: bundled ones only"

full=
[ "${FTL_SELECTION_FULL:-}" = 1 ] && full=--full
# shellcheck disable=SC2046
python3 "$top_srcdir/tests/e2e/selection_matrix.py" "$FTLENS" "$T" $full \
	$(cat "$samples") >"$T/out" 2>&1
rc=$?
sed 's/^/# /' "$T/out"
check "every event command selects what dump selects, on every sample and flag set" '[ $rc -eq 0 ]'
covered=$(sed -n 's/^.* commands \([^ ]*\), flag sets.*$/\1/p' "$T/out" | tr , '\n')
missing=
for c in $("$FTLENS" help --commands | awk -F '\t' '$3 == "selects" { print $1 }'); do
	[ "$c" = dump ] && continue # the reference
	echo "$covered" | grep -qx "$c" || missing="$missing $c"
done
check "the run covered every command that selects events (missing:$missing)" '[ -z "$missing" ]'

# the figures by source under every flag set: report --by dir sums to the
# plain report and equals graph --by dir per directory (the rig's captures,
# the kernel whose debug info the README's test command installs)
if have_prereq RIG_DEBUGINFO; then
	python3 "$top_srcdir/tests/e2e/source_figures.py" "$FTLENS" "$vml" \
		"$FTL_TESTDATA/vm/fgraph-basic/trace.txt" "$FTL_TESTDATA/vm/function/default.txt" \
		>"$T/src" 2>&1
	rc=$?
	sed 's/^/# /' "$T/src"
	check "report --by dir: the plain report's calls and self, graph --by dir's self per directory, under every flag set ($(tail -n 1 "$T/src"))" \
		'[ $rc -eq 0 ]'
else
	skip "no rig debug info: $prereq_why"
fi
finish
