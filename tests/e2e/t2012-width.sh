#!/bin/sh
# Text tables fit the output: the terminal's width on a terminal (a cut
# said under the table), --width N when given, and in a pipe or a file
# nothing is cut; a long name is cut so that two different names never
# print alike (in the middle when they share their end); CSV keeps full
# names.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
make_tmpdir
plan 7

end=_handle_the_very_long_common_ending_of_both_names_and_then_some_more_words_here
{
	echo '# tracer: function_graph'
	echo '#'
	echo ' 0)   1.000 us    |  alpha'$end'();'
	echo ' 0)   2.000 us    |  bravo'$end'();'
	echo ' 0)   3.000 us    |  short_one();'
} >"$T/long.txt"
widest() { awk '{ if (length($0) > n) n = length($0) } END { print n + 0 }' "$1"; }

"$FTLENS" report "$T/long.txt" >"$T/pipe.out"
check "in a pipe or a file: names whole, nothing cut" '
	grep -q "^alpha$end " "$T/pipe.out" && grep -q "^bravo$end " "$T/pipe.out" &&
	! grep -q "~" "$T/pipe.out" && ! grep -q "names cut" "$T/pipe.out"'
"$FTLENS" report --width 100 "$T/long.txt" >"$T/w100.out"
check "--width 100: 100 columns ($(widest "$T/w100.out")), the two names cut apart" '
	[ "$(widest "$T/w100.out")" -le 100 ] &&
	grep -q "^alpha_handle[^ ]*~[^ ]*words_here " "$T/w100.out" &&
	grep -q "^bravo_handle[^ ]*~[^ ]*words_here " "$T/w100.out"'
"$FTLENS" report --width 160 "$T/long.txt" >"$T/w160.out"
check "--width 160: room for the full names" '
	grep -q "^alpha$end " "$T/w160.out" && [ "$(widest "$T/w160.out")" -le 160 ]'
"$FTLENS" report --format csv "$T/long.txt" >"$T/o.csv"
check "CSV carries the full names" 'grep -q "^bravo$end," "$T/o.csv"'
"$FTLENS" report --width 10 "$T/long.txt" >/dev/null 2>"$T/e"
check "--width 10: a usage error (exit 2) saying the range" '[ $? -eq 2 ] && grep -q "expected 40 to 1000" "$T/e"'
if command -v script >/dev/null 2>&1; then
	script -qec "stty cols 170; '$FTLENS' report --no-pager '$T/long.txt'" /dev/null | tr -d '\r' >"$T/tty.out"
	check "on a terminal of 170 columns: full names, lines past 100" '
		grep -q "^alpha$end " "$T/tty.out" && [ "$(widest "$T/tty.out")" -gt 100 ] &&
		[ "$(widest "$T/tty.out")" -le 170 ]'
	script -qec "stty cols 80; '$FTLENS' report --no-pager --color never '$T/long.txt'" /dev/null | tr -d '\r' >"$T/tty80.out"
	check "on a terminal of 80 columns: names cut, and said how to see them whole" '
		grep "_handle" "$T/tty80.out" >"$T/rows80" &&
		[ "$(widest "$T/rows80")" -le 80 ] &&
		grep -q "alpha_handle[^ ]*~" "$T/tty80.out" &&
		[ "$(grep -c "names cut to fit 80 columns.*--width or a pipe shows them whole" \
			"$T/tty80.out")" -eq 1 ]'
else
	skip "on a terminal: needs script(1) from util-linux for a pseudo-terminal"
	skip "on a terminal: needs script(1) from util-linux for a pseudo-terminal"
fi
finish
