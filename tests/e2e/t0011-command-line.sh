#!/bin/sh
# The command line a user expects: a mistyped command gets "did you
# mean", `ftlens help CMD` shows the command's own options first and only
# the shared ones that apply to it, and flame and export write to standard
# output when no -o is given and it is not a terminal (as flamegraph.pl and
# stackcollapse do), while on a terminal they ask for -o.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
make_tmpdir
plan 7

sample=$top_srcdir/data/sample-fgraph.txt
"$FTLENS" reprot "$sample" >"$T/o" 2>"$T/e"
check "a mistyped command: exit 2 and the command meant" '
	[ $? -eq 2 ] && grep -q "'"'"'reprot'"'"' is not a command; did you mean '"'"'report'"'"'?" "$T/e"'
"$FTLENS" help flmae >"$T/o" 2>"$T/e"
check "help of a mistyped command: the same" '[ $? -eq 2 ] && grep -q "did you mean '"'"'flame'"'"'" "$T/e"'
"$FTLENS" zzzzzzzz >"$T/o" 2>"$T/e"
check "a name near no command: no guess" '[ $? -eq 2 ] && grep -q "see '"'"'ftlens --help'"'"'" "$T/e" && ! grep -q "did you mean" "$T/e"'

"$FTLENS" help report >"$T/report.help"
check "help report: its own options come before the shared ones" '
	own=$(grep -n "^Options of ftlens report:" "$T/report.help" | cut -d: -f1) &&
	sel=$(grep -n "^Options that select events:" "$T/report.help" | cut -d: -f1) &&
	glob=$(grep -n "^Options of every command:" "$T/report.help" | cut -d: -f1) &&
	[ "$own" -lt "$sel" ] && [ "$sel" -lt "$glob" ] && grep -q -- "--per=cpu|task" "$T/report.help"'
"$FTLENS" help stack >"$T/stack.help"
check "help stack: no selection options, which stack does not take" '
	grep -q "^Options of ftlens stack:" "$T/stack.help" && ! grep -q -- "--cpu\|--relative-to\|--time" "$T/stack.help"'

"$FTLENS" flame "$sample" >"$T/f.svg" 2>"$T/e" &&
	"$FTLENS" export --to folded "$sample" >"$T/f.folded" 2>>"$T/e"
check "flame and export without -o into a file: the SVG and the folded stacks on stdout" '
	grep -q "<svg" "$T/f.svg" && grep -q "</svg>" "$T/f.svg" &&
	grep -q "^[^ ]*;[^ ]* [0-9][0-9]*$" "$T/f.folded" && [ ! -s "$T/e" ]'
if command -v script >/dev/null 2>&1; then
	script -qec "\"$FTLENS\" flame \"$sample\"" /dev/null >"$T/tty" 2>&1
	check "flame without -o on a terminal: asks for -o, exit 2" '
		grep -q -- "-o FILE is required on a terminal" "$T/tty"'
else
	skip "flame without -o on a terminal: no script(1)"
fi
finish
