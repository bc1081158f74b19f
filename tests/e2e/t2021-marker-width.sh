#!/bin/sh
# Marker text in the markers, spans and report tables is cut only at the
# width of the output (the terminal's, --width; never in a pipe), keeping its
# start: never cut shorter, never at its start as a function name is, never
# widened past the line when two texts share their end.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
make_tmpdir
plan 7

tail_words="with parameters alpha=1 beta=2 gamma=3 delta=4 and a tail that goes on and on to column 170"
sed -e "s/begin phase/begin phase one of the long benchmark run $tail_words/" \
	-e "s/end phase/end phase one of the long benchmark run $tail_words/" \
	"$FTL_TESTDATA/sched/small.txt" >"$T/mk.txt"
widest() { awk '{ if (length($0) > n) n = length($0) } END { print n + 0 }' "$1"; }

"$FTLENS" markers "$T/mk.txt" >"$T/pipe.out" 2>/dev/null
check "markers in a pipe: the whole texts" '
	grep -q "  begin phase one of the long benchmark run $tail_words$" "$T/pipe.out" &&
	! grep -q "~" "$T/pipe.out"'

"$FTLENS" markers --width 100 "$T/mk.txt" >"$T/w100.out" 2>/dev/null
check "markers --width 100: 100 columns ($(widest "$T/w100.out")), texts cut keeping their start" '
	[ "$(widest "$T/w100.out")" -le 100 ] &&
	grep -q "  begin phase one of the long[^~]*~$" "$T/w100.out" &&
	grep -q "  end phase one of the long[^~]*~$" "$T/w100.out"'

"$FTLENS" markers --width 220 "$T/mk.txt" >"$T/w220.out" 2>/dev/null
check "markers --width 220: the whole texts" '
	grep -q "  begin phase one of the long benchmark run $tail_words$" "$T/w220.out" &&
	[ "$(widest "$T/w220.out")" -le 220 ]'

"$FTLENS" markers --span "begin" "end" --width 80 "$T/mk.txt" 2>/dev/null |
	grep -E "^(#|1) " >"$T/span.out"
check "the spans table at --width 80: start and end texts cut at the width" '
	[ "$(widest "$T/span.out")" -le 80 ] &&
	grep -q "  begin phase[^~]*~  end phase[^~]*~$" "$T/span.out"'

"$FTLENS" report --width 80 "$T/mk.txt" >"$T/r80.out" 2>/dev/null
sed -n '/^Markers/,/^$/p' "$T/r80.out" >"$T/r80.markers"
check "report --width 80: markers keep their start, the line its width, though they share their end" '
	[ "$(widest "$T/r80.markers")" -le 80 ] &&
	grep -q "  begin phase one of[^~]*~$" "$T/r80.markers" &&
	grep -q "  end phase one of[^~]*~$" "$T/r80.markers"'

"$FTLENS" report --width 220 "$T/mk.txt" >"$T/r220.out" 2>/dev/null
check "report --width 220: the whole texts" '
	grep -q "  begin phase one of the long benchmark run $tail_words$" "$T/r220.out"'

if command -v script >/dev/null 2>&1; then
	script -qec "stty cols 230; '$FTLENS' markers --no-pager '$T/mk.txt'" /dev/null | tr -d '\r' >"$T/tty.out"
	check "on a terminal of 230 columns: the whole texts, lines past 100" '
		grep -q "  end phase one of the long benchmark run $tail_words$" "$T/tty.out" &&
		[ "$(widest "$T/tty.out")" -gt 100 ]'
else
	skip "on a terminal: needs script(1) from util-linux for a pseudo-terminal"
fi
finish
