#!/bin/sh
# ftlens timeline: the SVG is well formed, bounded in size, written whole
# or not at all; in Debian's chromium (headless, playwright-core from
# tests/package.json) it loads with no JS error, every CPU lane's
# rectangles sum to the busy time `ftlens sched` reports for that CPU
# (+-1 px), hover names the interval's task, the wheel zooms; a hostile
# comm stays text. Zoomed to 1/8 of the span, the axis shows round ticks
# inside the range in view and more rectangles than the whole picture drew
# there, down to single switches; a drag pans, Esc resets. Task lanes are
# named comm-pid, the busiest tasks' colours differ. Screenshots (whole,
# an eighth, deep, reset) are kept in tests/e2e/t2111-timeline/ beside this
# test's log. A click on a running interval shows the arrow from the
# wakeup that led to it (sched's pairing: a wakeup `sched --wakeups` lists).
. "$(dirname "$0")/lib.sh"
prereq PYTHON
make_tmpdir
S=$FTL_TESTDATA/sched/small.txt
drive=$top_srcdir/tests/e2e/timeline_browser.js
shots=$PWD/tests/e2e/t2111-timeline
rm -rf "$shots" && mkdir -p "$shots" || exit 1
diag "screenshots in $shots"
plan 19

browser() { node "$drive" "$FTL_NODE_MODULES" "$@"; }

check "timeline writes a well-formed SVG of the hand-made trace" \
	'"$FTLENS" timeline -o "$T/small.svg" "$S" && python3 -c "
import sys, xml.etree.ElementTree as E
r = E.parse(sys.argv[1]).getroot()
assert r.tag.endswith(\"svg\"), r.tag
" "$T/small.svg"'
check "its CPU lanes carry the busy ns sched reports, one rect per interval here" \
	'"$FTLENS" sched -F json "$S" >"$T/small.json" && python3 -c "
import json, sys, xml.etree.ElementTree as E
ns = {\"s\": \"http://www.w3.org/2000/svg\"}
r = E.parse(sys.argv[1]).getroot()
busy = {c[\"cpu\"]: c[\"busy_ns\"] for c in json.load(open(sys.argv[2]))[\"cpus\"]}
for g in r.iter(\"{http://www.w3.org/2000/svg}g\"):
    if g.get(\"class\") == \"cpu\":
        cpu = int(g.get(\"lane\").split()[1])
        got = sum(int(x.get(\"d\")) for x in g.findall(\"s:rect\", ns))
        assert got == busy[cpu], (cpu, got, busy[cpu])
        busy.pop(cpu)
assert not busy, busy
" "$T/small.svg" "$T/small.json"'
check "the lost events are shaded, the markers drawn with their text" \
	'grep -q "class=\"lost" "$T/small.svg" && grep -q "class=\"marker\"" "$T/small.svg" &&
	 grep -q ">begin phase<" "$T/small.svg"'
check "--tasks top 2 adds two task lanes, runnable time hollow" \
	'"$FTLENS" timeline --tasks top 2 -o "$T/top.svg" "$S" &&
	 [ "$(grep -o "class=\"task\"" "$T/top.svg" | wc -l)" = 2 ] && grep -q "class=\"wait" "$T/top.svg"'
check "--tasks 20,30 gives those two lanes" \
	'"$FTLENS" timeline --tasks 20,30 -o "$T/pids.svg" "$S" &&
	 grep -q "lane=\"task 20\"" "$T/pids.svg" && grep -q "lane=\"task 30\"" "$T/pids.svg"'
check "task lanes are named comm-pid" \
	'python3 -c "
import sys, xml.etree.ElementTree as E
names = [t.text for t in E.parse(sys.argv[1]).getroot().iter(\"{http://www.w3.org/2000/svg}text\")
         if t.get(\"class\") == \"lanename\"]
tasks = [n for n in names if not n.startswith(\"CPU \")]
assert len(tasks) == 2 and all(n.rsplit(\"-\", 1)[1] in (\"20\", \"30\") for n in tasks), names
assert not any(n.startswith(\"task \") for n in tasks), names
" "$T/pids.svg"'
check "usage errors: no -o, a bad --tasks, a bad --width (exit 2)" \
	'"$FTLENS" timeline "$S" 2>/dev/null; a=$?
	 "$FTLENS" timeline --tasks top0 -o "$T/x.svg" "$S" 2>/dev/null; b=$?
	 "$FTLENS" timeline --width 5 -o "$T/x.svg" "$S" 2>/dev/null; c=$?
	 [ "$a$b$c" = 222 ] && [ ! -e "$T/x.svg" ]'
check "it refuses to overwrite its input, which stays as it was" \
	'cp "$S" "$T/in.txt" && ! "$FTLENS" timeline -o "$T/in.txt" "$T/in.txt" 2>/dev/null &&
	 cmp -s "$S" "$T/in.txt"'
check "a trace without timed events: one error, no file left" \
	'printf "# tracer: nop\n" >"$T/empty.txt" &&
	 ! "$FTLENS" timeline -o "$T/e.svg" "$T/empty.txt" 2>"$T/e.err" &&
	 [ "$(wc -l <"$T/e.err")" = 1 ] && [ ! -e "$T/e.svg" ] && ! ls "$T" | grep -q "e.svg."'

# A comm that would be markup, script and a terminal escape if copied raw.
bad='<script>window.__pwned=1</script>'
esc=$(printf '\033')
want='&lt;script&gt;window.__pwned=1&lt;/script&gt;\x1b[2J'
{
	echo "# tracer: nop"
	echo "          <idle>-0       [000] d..2   100.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=$bad$esc[2J next_pid=66 next_prio=120"
	echo "             bad-66      [000] ....   100.000500: tracing_mark_write: $bad"
	echo "          <idle>-0       [000] d..2   100.001000: sched_switch: prev_comm=$bad$esc[2J prev_pid=66 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120"
} >"$T/hostile.txt"
check "a hostile comm and marker: no raw markup or escape in the SVG" \
	'"$FTLENS" timeline -o "$T/hostile.svg" "$T/hostile.txt" &&
	 ! grep -q "<script>window" "$T/hostile.svg" && ! grep -q "$(printf "\033")" "$T/hostile.svg" &&
	 grep -qF "$want" "$T/hostile.svg"'

# Size bound: a generated trace with tens of thousands of intervals per CPU.
cc -O2 -o "$T/gen-sched" "$top_srcdir/bench/gen-sched.c" -lm && "$T/gen-sched" -s 3 24M "$T/big.txt"
check "24 MiB of scheduling: the SVG stays under 5 MB, thin intervals merged" \
	'"$FTLENS" timeline --tasks top 8 -o "$T/big.svg" "$T/big.txt" 2>/dev/null &&
	 [ "$(wc -c <"$T/big.svg")" -lt 5000000 ] && grep -q "class=\"bin\"" "$T/big.svg" &&
	 grep -q "class=\"tile\" l=\"1\"" "$T/big.svg" &&
	 "$FTLENS" sched -F json "$T/big.txt" >"$T/big.json" 2>/dev/null'

check "the twelve busiest tasks get colours apart (hue 20 deg or lightness 10 %)" \
	'python3 -c "
import re, sys
hsl = {int(k): (int(h), int(l)) for k, h, l in
       re.findall(r\"rect\\[k=.(\\d+).\\]\\{fill:hsl\\((\\d+),\\d+%,(\\d+)%\", open(sys.argv[1]).read())}
top = [hsl[k] for k in range(min(12, len(hsl)))]
assert len(top) == 12, len(top)
for i, a in enumerate(top):
    for b in top[:i]:
        dh = min(abs(a[0] - b[0]), 360 - abs(a[0] - b[0]))
        assert dh >= 20 or abs(a[1] - b[1]) >= 10, (a, b)
" "$T/big.svg"'
# 3 MiB: finer tiles over most of it, within the bound
"$T/gen-sched" -s 5 3M "$T/mid.txt"
B=CHROMIUM,NODE_MODULES
check $B "browser: the hand-made trace's lanes sum to busy per CPU, hover, zoom" \
	'browser lanes "$T/small.svg" "$shots/small.png" "$T/small.json"'
check $B "browser: 24 MiB generated, merged bins included, sum to busy (+-1 px)" \
	'browser lanes "$T/big.svg" "$shots/generated.png" "$T/big.json"'
check $B "browser: the hostile comm is shown as text and runs nothing" \
	'browser inert "$T/hostile.svg" "$shots/hostile.png" "$bad\\x1b[2J"'
check REAL_DATA,$B "browser: a real sched trace (lisa) sums to busy per CPU" \
	'f=$FTL_REAL_DATA/events/lisa_tracecmd_report_sched_448k.txt &&
	 "$FTLENS" timeline --tasks top 3 -o "$T/lisa.svg" "$f" &&
	 "$FTLENS" sched -F json "$f" >"$T/lisa.json" &&
	 browser lanes "$T/lisa.svg" "$shots/lisa.png" "$T/lisa.json"'
check REAL_DATA,$B "browser: lisa zoomed to 1/8: round ticks in view, more detail, pan, Esc" \
	'browser zoom "$T/lisa.svg" "$shots/lisa-zoom.png"'
check REAL_DATA,$B "browser: a click on a switch-in shows the arrow from its wakeup, one sched lists" \
	'"$FTLENS" sched --wakeups -F csv "$FTL_REAL_DATA/events/lisa_tracecmd_report_sched_448k.txt" \
		>"$T/lisa-wakeups.csv" &&
	 browser wakeup "$T/lisa.svg" "$shots/lisa-wakeup.png" "$T/lisa-wakeups.csv"'
check $B "browser: 3 MiB generated zoomed to 1/8, then down to single switches" \
	'"$FTLENS" timeline --tasks top 4 -o "$T/mid.svg" "$T/mid.txt" 2>/dev/null &&
	 [ "$(wc -c <"$T/mid.svg")" -lt 5000000 ] &&
	 browser zoom "$T/mid.svg" "$shots/generated-zoom.png"'
finish
