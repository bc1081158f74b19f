#!/bin/sh
# The crash classes found on main a3e8571 (../shared/data/crashers, second
# table of README.md), each pinned by the input that showed it:
# - libtracecmd's records read only where the handle has per-CPU data
#   (tracedat-peek-data-null.dat: a latency-text buffer, whose CPUs
#   tracecmd_peek_data() read through a NULL pointer);
# - durations and sums of spans from a trace computed with checked or
#   saturating arithmetic, an impossible duration a diagnostic (the two
#   rawdir-*-overflow directories: a negative total_ns, a 7.3e9 s root);
# - no recursion whose depth is the input's: the flame chart placed
#   100,000 nested calls recursively and overflowed a 1 MB stack.
# Each gives correct output or one clear error, no signal, no sanitizer
# report.
. "$(dirname "$0")/lib.sh"
prereq CRASHERS
need_python
make_tmpdir
C=$FTL_CRASHERS

plan 6

f=$C/tracedat-peek-data-null.dat
check "tracedat-peek-data-null.dat: every command one error naming the file, exit 1" '
	for cmd in info dump report graph sched markers "flame -o $T/f.svg" "timeline -o $T/t.svg"; do
		quiet $cmd "$f" && [ "$_rc" -eq 1 ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
			grep -q "'\''$f'\'': buffer '\''top'\'' holds latency-format text" "$T/err" || {
			diag "$cmd: exit $_rc: $(cat "$T/err")"
			exit 1
		}
	done
'

d=$C/rawdir-graph-duration-overflow
check "rawdir-graph-duration-overflow: report --format json has no negative total" '
	quiet report --format json "$d" && [ "$_rc" -eq 0 ] &&
	python3 -c "
import json, sys
def walk(v):
    if isinstance(v, dict):
        for k, x in v.items():
            if k.endswith(\"_ns\") and isinstance(x, int) and x < 0:
                sys.exit(\"%s = %d\" % (k, x))
            walk(x)
    elif isinstance(v, list):
        for x in v:
            walk(x)
walk(json.load(open(sys.argv[1])))" "$T/out"
'
check "rawdir-graph-duration-overflow: the impossible duration is a diagnostic" '
	quiet info "$d" &&
	grep -q "durations .*rettime 7493989779974735182 - calltime -7205759403792793600 is longer than" "$T/out"
'

d=$C/rawdir-calltree-span-sum-overflow
check "rawdir-calltree-span-sum-overflow: graph roots shorter than the trace" '
	quiet graph "$d" && [ "$_rc" -eq 0 ] &&
	! grep -q "^ *[0-9]*\.[0-9]* s " "$T/out"
'
check "rawdir-calltree-span-sum-overflow: graph --format json: no negative time" '
	quiet graph --format json "$d" && [ "$_rc" -eq 0 ] &&
	! grep -q "_ns\" : -" "$T/out"
'

python3 "$C/gen-deep.py" 100000 "$T/deep.txt" >/dev/null
check "gen-deep.py 100000: flame --chart in a 1 MB stack, the SVG well-formed" '
	(ulimit -s 1024 && quiet flame --chart -o "$T/deep.svg" "$T/deep.txt") &&
	python3 -c "import sys, xml.dom.minidom as m; m.parse(sys.argv[1])" "$T/deep.svg"
'
