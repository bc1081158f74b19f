#!/bin/sh
# No function over 80 lines without a reason: a longer one says why in a
# "/* long: reason */" comment above it (funclen.py counts as ctags does,
# from the name's line to the closing brace). Checked in the directories
# below: every directory of the tree.
. "$(dirname "$0")/lib.sh"
need_python
dirs=$(cd "$top_srcdir" && find src -mindepth 1 -maxdepth 1 -type d ! -name '.*' | sort)
max=80
funclen=$top_srcdir/tests/e2e/funclen.py
make_tmpdir

n=0
for d in $dirs; do n=$((n + 1)); done
plan $((n + 2))

# The counter itself: an 81-line function is caught, and passes with a reason.
{
	printf 'static int f(void)\n{\n'
	i=0
	while [ $i -lt 78 ]; do printf '\tx++; /* { */\n'; i=$((i + 1)); done
	printf '}\n'
} >"$T/long.c"
{ printf '/* long: a reason */\n'; cat "$T/long.c"; } >"$T/why.c"
out=$(python3 "$funclen" --max $max "$T/long.c")
rc=$?
check "funclen.py flags an 81-line function ($out)" \
	'[ $rc -eq 1 ] && [ "$out" = "$T/long.c:1: f: 81 lines (over 80, no /* long: reason */)" ]'
out=$(python3 "$funclen" --max $max "$T/why.c")
rc=$?
check "funclen.py lets it pass with /* long: reason */ ($out)" \
	'[ $rc -eq 0 ] && [ "$out" = "$T/why.c:2: f: 81 lines (long: a reason)" ]'

cd "$top_srcdir" || exit 1
for d in $dirs; do
	files=$(find "$d" -name '*.c' | sort)
	# a counter that finds no function would pass anything
	found=$(python3 "$funclen" --all $files | wc -l)
	python3 "$funclen" --max $max $files >"$T/out"
	rc=$?
	[ -s "$T/out" ] && diag "$(cat "$T/out")"
	check "$d: $found functions, none over $max lines without a reason" \
		'[ $rc -eq 0 ] && [ "$found" -gt 0 ]'
done
finish
