#!/bin/sh
# The known crashers that the call tree and the text views own
# (../shared/data/crashers/README.md): a depth= field of two billion or below
# zero, the same through trace.dat, a function_graph trace nested 110,000
# deep (graph and report recursed over the tree and overflowed the stack),
# and C1 controls and invalid UTF-8 in names (invalid JSON, raw bytes on the
# terminal). Each gives correct output or one clear error, no signal, no
# sanitizer report, within a stated peak RSS.
. "$(dirname "$0")/lib.sh"
prereq CRASHERS
need_python
make_tmpdir
C=$FTL_CRASHERS
inert="python3 $top_srcdir/tests/e2e/inert.py"

# bounded KB CMD...: runs ftlens CMD into $T/out and $T/err; true when it
# exits 0 or 1 (no signal), the sanitizers said nothing, and its peak RSS
# stayed under KB kilobytes (the sanitizer build's own overhead included)
bounded() {
	_kb=$1
	shift
	/usr/bin/time -f %M -o "$T/rss" "$FTLENS" "$@" >"$T/out" 2>"$T/err"
	_rc=$?
	_rss=$(tail -n 1 "$T/rss")
	if [ "$_rc" -gt 1 ] || grep -q 'Sanitizer\|runtime error' "$T/err" ||
		[ "$_rss" -gt "$_kb" ]; then
		diag "ftlens $*: exit $_rc, peak RSS ${_rss} KB (bound $_kb KB)"
		sed 's/^/# /' "$T/err" | head -n 5
		return 1
	fi
}

plan 9
check "depth-2e9.txt: report, graph (text, JSON) and dump within 300 MB" '
	for cmd in report graph "graph --format json" dump; do
		bounded 300000 $cmd "$C/depth-2e9.txt" || exit 1
	done
	# the call at depth two billion is reported, not lost
	grep -q "ffffffff81000010" "$T/out"
'
check "depth-neg.txt: report and graph still read it" '
	bounded 300000 report "$C/depth-neg.txt" &&
	bounded 300000 graph --format json "$C/depth-neg.txt" && $inert --json "$T/out"
'
check "depth-huge-1.dat, depth-huge-2.dat: graph and report within 300 MB" '
	for f in depth-huge-1.dat depth-huge-2.dat; do
		bounded 300000 graph "$C/$f" && bounded 300000 report "$C/$f" || exit 1
	done
'
python3 "$C/gen-deep.py" 110000 "$T/deep.txt"
check "gen-deep.py 110000: graph stops at the tree depth bound, deeper calls merged" '
	bounded 500000 graph "$T/deep.txt" &&
	# 109,745 calls below level 255 in one node, its total the outermost call time
	grep -q "^ *219.490 ms *219.490 ms *109745 .*\[255\] (deeper)\$" "$T/out"
'
check "gen-deep.py 110000: graph --format json is valid JSON" '
	bounded 500000 graph --format json "$T/deep.txt" && $inert --json "$T/out"
'
check "gen-deep.py 110000: report rebuilds every call" '
	bounded 900000 report "$T/deep.txt" && grep -q "^Calls: 110000 rebuilt, 0 repaired" "$T/out"
'
check "c1-stack.txt: stack in text, CSV and JSON is inert, JSON valid" '
	bounded 300000 stack "$C/c1-stack.txt" && $inert "$T/out" "$T/err" &&
	bounded 300000 stack --format csv "$C/c1-stack.txt" && $inert "$T/out" "$T/err" &&
	bounded 300000 stack --format json "$C/c1-stack.txt" && $inert --json "$T/out" &&
	grep -q "__msecs_to" "$T/out"
'
check "escapes-function.txt: report, graph, info, markers in every format inert" '
	for cmd in report graph info markers; do
		for fmt in text csv json; do
			bounded 300000 $cmd --format $fmt "$C/escapes-function.txt" || exit 1
			j=; [ $fmt = json ] && j=--json
			$inert $j "$T/out" && $inert "$T/err" || exit 1
		done
	done
'
check "escapes-function.txt: dump and diff --format json inert, JSON valid" '
	bounded 300000 dump "$C/escapes-function.txt" && $inert "$T/out" "$T/err" &&
	bounded 300000 diff --format json "$C/escapes-function.txt" "$C/escapes-function.txt" &&
	$inert --json "$T/out"
'
finish
