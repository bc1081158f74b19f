#!/bin/sh
# Inputs that cannot be one capture are never merged silently
# (model/related.h): two runs of the rig (times seconds apart, far more than
# either's span), one file given twice (a CPU's events twice), two
# trace.dats of other kernels are refused by every command that reads
# several event inputs, with one message naming both files and why, exit
# 2, and no output file left; --merge reads them as one as before. The
# per-CPU files of one capture and the parts split wrote are read together
# as they always were (the same report as the whole), and diff, which takes
# two traces on purpose, still compares them.
. "$(dirname "$0")/lib.sh"
need_python
make_tmpdir
V=$FTL_TESTDATA/vm
A=$V/events/default.txt
B=$V/events/latency.txt
CPU0=$V/fgraph-events/trace-cpu0.txt
CPU1=$V/fgraph-events/trace-cpu1.txt
WHOLE=$V/fgraph-events/trace.txt
DAT1=$FTL_REAL_DATA/raw/lisa_rtapp_6cpu_trace.dat
DAT2=$FTL_REAL_DATA/raw/trappy_arm64_6cpu_idle_trace.dat
need_input "$A" "$B" "$CPU0" "$CPU1" "$WHOLE" "$V/fgraph-options/combined.txt"
plan 20

# refused CMD ARGS...: exit 2, one line naming both inputs, nothing on
# stdout, no file in $T/out
refused() {
	rm -rf "$T/out" && mkdir "$T/out"
	"$FTLENS" "$@" "$A" "$B" </dev/null >"$T/stdout" 2>"$T/err"
	_rc=$?
	[ $_rc = 2 ] && [ "$(wc -l <"$T/err")" = 1 ] && grep -q "unrelated inputs" "$T/err" &&
		grep -qF "'$A'" "$T/err" && grep -qF "'$B'" "$T/err" && [ ! -s "$T/stdout" ] &&
		[ -z "$(ls "$T/out")" ] || { diag "rc=$_rc: $(cat "$T/err")"; return 1; }
}

"$FTLENS" report "$A" "$B" >/dev/null 2>"$T/err"
check "two runs of the rig: report refuses, naming both and how far apart they are" '
	grep -q "^ftlens: report: unrelated inputs: .*default.txt. ends at 3\.[0-9]* s and .*latency.txt. starts at\|latency.txt. ends at 0\.[0-9]* s and .*default.txt. starts at 3\." "$T/err" &&
	grep -q "more than ten times" "$T/err" && grep -q -- "--merge" "$T/err"'

for c in info dump report graph markers sched; do
	check "$c refuses the two runs: exit 2, one message naming both, no output" 'refused "$c"'
done
check "split refuses them, no part written" 'refused split --per-cpu -f -o "$T/out/split"'
check "flame refuses them, no SVG written" 'refused flame -o "$T/out/f.svg"'
check "export refuses them, no file written" 'refused export --to chrome -o "$T/out/e.json"'
check "timeline refuses them, no SVG written" 'refused timeline -o "$T/out/t.svg"'
check "plot refuses them, no script written" 'refused plot rate --script-only -o "$T/out/p.svg"'

"$FTLENS" report --merge "$A" "$B" >"$T/merged" 2>"$T/err"
check "--merge reads them as one trace, as before" '[ $? = 0 ] && grep -q "^Functions\|events" "$T/merged"'

"$FTLENS" report "$A" "$A" >/dev/null 2>"$T/err"
check "one file given twice: a CPU recorded twice, refused" \
	'grep -q "unrelated inputs: .* both hold events of CPU [01] from" "$T/err"'

"$FTLENS" report -F json "$CPU0" "$CPU1" >"$T/percpu.json" 2>"$T/err" &&
	"$FTLENS" report -F json "$WHOLE" >"$T/whole.json" 2>/dev/null
check "the per-CPU files of one capture: read together, the whole file's functions" '
	python3 -c "
import json, sys
a, b = (json.load(open(p))[\"functions\"] for p in sys.argv[1:3])
assert sorted((r[\"function\"], r[\"calls\"]) for r in a) == sorted((r[\"function\"], r[\"calls\"]) for r in b)
" "$T/percpu.json" "$T/whole.json"'

"$FTLENS" split --per-cpu -o "$T/parts" "$WHOLE" >/dev/null 2>"$T/split.err"
"$FTLENS" dump "$T"/parts/cpu*/trace >"$T/parts.dump" 2>"$T/err"
rc=$?
"$FTLENS" dump "$WHOLE" >"$T/whole.dump" 2>/dev/null
check "the per-CPU files split wrote: read together, dump's lines are the whole file's" \
	'[ $rc = 0 ] && [ "$(ls "$T/parts" | wc -l)" -ge 2 ] && sort "$T/parts.dump" >"$T/p.sorted" &&
	 sort "$T/whole.dump" | cmp -s - "$T/p.sorted" ||
	 { diag "rc=$rc $(cat "$T/split.err" "$T/err")"; false; }'

# a capture cut in two by time (its header kept in both halves)
python3 - "$A" "$T/half1.txt" "$T/half2.txt" <<'PY'
import sys
lines = open(sys.argv[1]).read().splitlines(True)
head = [l for l in lines if l.startswith("#")]
body = [l for l in lines if not l.startswith("#")]
open(sys.argv[2], "w").writelines(head + body[:len(body) // 2])
open(sys.argv[3], "w").writelines(head + body[len(body) // 2:])
PY
"$FTLENS" dump "$T/half1.txt" "$T/half2.txt" >"$T/halves.dump" 2>"$T/err"
rc=$?
"$FTLENS" dump "$A" >"$T/a.dump" 2>/dev/null
check "a capture cut in two by time: the halves read together are the whole" \
	'[ $rc = 0 ] && cmp -s "$T/halves.dump" "$T/a.dump" || { diag "rc=$rc $(cat "$T/err")"; false; }'

# one function_graph run twice: refused as one trace, compared by diff
F1=$V/fgraph-options/combined.txt
"$FTLENS" report "$F1" "$F1" >/dev/null 2>"$T/err1"
rc1=$?
"$FTLENS" diff "$F1" "$F1" >"$T/diff.out" 2>"$T/err"
rc2=$?
check "diff takes two traces on purpose: it still compares a run with itself, which report refuses" \
	'[ $rc1 = 2 ] && [ $rc2 = 0 ] && [ -s "$T/diff.out" ] || { diag "$rc1 $(cat "$T/err1" "$T/err")"; false; }'

if [ -e "$DAT1" ] && [ -e "$DAT2" ]; then
	"$FTLENS" report "$DAT1" "$DAT2" >"$T/dat.out" 2>"$T/err"
	rc=$?
	check "two trace.dats of two machines: refused before any output, naming both" \
		'[ $rc = 2 ] && grep -q "unrelated inputs: .*lisa_rtapp.* and .*\|unrelated inputs: .*trappy_arm64.* and " "$T/err" && [ ! -s "$T/dat.out" ] ||
		 { diag "rc=$rc $(cat "$T/err")"; false; }'
else
	skip_absent "$DAT1"
fi

# the TUI: the times are known once its first model is read; it ends with the message
if have_prereq TMUX; then
	tmux_server
	tm new-session -d -s tui -x 100 -y 30 -c "$T" "'$FTLENS' tui '$A' '$B' 2>tui.err; echo rc=\$? >tui.rc"
	check "tui refuses the two runs: the terminal given back, exit 2, the message" \
		'tmux_wait_dead && grep -qx "rc=2" "$T/tui.rc" && grep -q "tui: unrelated inputs: .*more than ten times" "$T/tui.err" &&
		 grep -q "tui A --compare B shows them side by side" "$T/tui.err" ||
		 { diag "$(cat "$T/tui.rc" "$T/tui.err")"; false; }'
else
	skip "tmux is not installed"
fi
