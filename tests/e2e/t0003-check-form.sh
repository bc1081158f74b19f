#!/bin/sh
# The e2e scripts' own hygiene: every `check` gives its body as one string
# (`check [PREREQS] DESC 'BODY'`). lib.sh fails a point called the old way
# (`check DESC CMD ARGS...`, where `check DESC [ A ] && [ B ]` checked A
# alone); this finds such calls in branches a run may not take. Then lib.sh's
# check and prereqs themselves, on a script written here.
. "$(dirname "$0")/lib.sh"
plan 6
# A call's description is a double-quoted string (its $(...) parts dropped
# first, with every other parenthesised group); what follows it on the line
# must be a single-quoted body or a line continuation before one.
bad=$(awk '
	function report() { f = FILENAME; sub(/.*\//, "", f); printf "%s:%d ", f, FNR }
	cont { cont = 0; if ($0 !~ /^[ \t]*\047/) report(); next }
	{
		line = $0
		while (gsub(/\([^()]*\)/, "", line)) {}
		if (!match(line, /(^|;|\)|then|do|else)[ \t]*check[ \t]+([A-Z_,]+[ \t]+)?"([^"\\]|\\.)*"/)) next
		rest = substr(line, RSTART + RLENGTH)
		if (rest ~ /^[ \t]*\\$/) { cont = 1; next }
		if (rest !~ /^[ \t]+\047/) report()
	}' "$top_srcdir"/tests/e2e/t*.sh)
check "no check passes its body as several words${bad:+ (at $bad)}" '[ -z "$bad" ]'

make_tmpdir
cat >"$T/t.sh" <<'SH'
. "$top_srcdir/tests/e2e/lib.sh"
x=1
check "one condition" '[ $x = 1 ] && [ $x = 2 ]'
false; check "the status before" '[ $? -eq 1 ]'
check "changes stay inside" 'x=5'; echo "x=$x"
eval 'check "old form" [ $x = 1 ]'
probe_FOO() { echo probed; prereq_why="no foo here"; return 1; }
check FOO "needs foo" 'true'
check PYTHON,FOO "needs both" 'true'
check ROOT,PYTHON "off" 'true'
prereq FOO
echo "not reached"
SH
top_srcdir=$top_srcdir FTL_TEST_NO=ROOT sh "$T/t.sh" >"$T/out" 2>&1
cat >"$T/want" <<'OUT'
not ok 1 - one condition
ok 2 - the status before
ok 3 - changes stay inside
x=1
not ok 4 - old form: check takes [PREREQS] DESCRIPTION and one BODY string, got 6 arguments
probed
ok 5 # SKIP needs foo: missing FOO (no foo here)
ok 6 # SKIP needs both: missing FOO (no foo here)
ok 7 # SKIP off: missing ROOT (turned off by FTL_TEST_NO)
1..0 # SKIP missing FOO (no foo here)
OUT
diff "$T/want" "$T/out" >"$T/diff"
check "check: one body, one condition, \$? kept, changes kept inside" '! grep -q "^[<>] \(x=\|.*[1-4] -\)" "$T/diff"'
check "the old form is a failed point" '! grep -q "^[<>] .*old form" "$T/diff"'
check "a prereq is probed once and skips naming itself and why" '! grep -q "^[<>] \(probed\|.*needs\)" "$T/diff"'
check "FTL_TEST_NO turns a prereq off" '! grep -q "^[<>] .*off:" "$T/diff"'
check "prereq skips the whole script with the reason" '[ ! -s "$T/diff" ]'
[ -s "$T/diff" ] && diag "$(cat "$T/diff")"
finish
