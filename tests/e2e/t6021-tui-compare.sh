#!/bin/sh
# Two traces side by side in a real terminal (tmux runs ftlens as the
# pane's own command in a scratch dir): `ftlens tui A --compare B`.
# Functions shows, row by row, what `ftlens diff -F csv A B` prints for the
# same two traces: the same functions in the same order (the change of
# total time, then self time after s), calls, A's and B's time, the change
# and its percentage; functions in one trace only are there too. x swaps A
# and B; an unreadable B is one error before the screen. The Timeline puts
# A's CPUs above B's; on two public captures (LISA's 6.7 s, Trace
# Compass' 47 ms Android one) the longer trace's lanes, as A and after x as
# B, fill the very cells its own Timeline fills. Screens are kept in the
# log and in $FTL_TUI_SHOTS when set.
. "$(dirname "$0")/lib.sh"
prereq TMUX
need_python
make_tmpdir
# a before/after pair of one workload (perf-tools' funcgraph on vfs_read,
# two runs), and two rig captures of different workloads on one kernel
RA=$FTL_REAL_DATA/fgraph/perftools_funcgraph_abstime_header_vfs_read.txt
RB=$FTL_REAL_DATA/fgraph/perftools_funcgraph_abstime_oncpu_vfs_read.txt
VA=$FTL_TESTDATA/vm/fgraph-basic/trace.txt
VB=$FTL_TESTDATA/vm/fgraph-events/trace.txt
# two rig captures with sched events and the marker "before record-tgid"
EA=$FTL_TESTDATA/vm/events/record-tgid.txt
EB=$FTL_TESTDATA/vm/function/record-tgid.txt
# two public sched captures of unrelated machines: 6.7 s and 47 ms
LISA=$FTL_REAL_DATA/events/lisa_tracecmd_report_sched_448k.txt
DROID=$FTL_REAL_DATA/events/tracecompass_android_sched.txt
need_input "$RA" "$RB" "$VA" "$VB" "$EA" "$EB" "$LISA" "$DROID"
tmux_server
wait_for() { tmux_wait_for "$@"; }
# durations as the TUI prints them (util/timefmt.c's ftl_duration_format)
cat >"$T/tuifmt.py" <<'PY'
def dur(ns):
    """ns below 1000, else 3 decimals of us, ms or s (by the rounded value)"""
    a = abs(ns)
    if a < 1000:
        return "%d ns" % ns
    for div, unit, below in ((1e3, "us", 999999.5), (1e6, "ms", 999999500.0), (1e9, "s", None)):
        if below is None or a < below:
            return "%.3f %s" % (ns / div, unit)
PY
# start ROWS ARGS...: a fresh 200-column session of ROWS rows running ftlens tui ARGS
start() {
	_rows=$1
	shift
	_cmd="LANG=C.UTF-8 NO_COLOR=1 '$FTLENS' tui"
	for _a in "$@"; do
		_cmd="$_cmd '$(printf '%s' "$_a" | sed "s/'/'\\\\''/g")'"
	done
	tm kill-session -t tui 2>/dev/null
	tm new-session -d -s tui -x 200 -y "$_rows" -c "$T" "$_cmd 2>err; echo rc=\$? >rc"
}
# wait_read: until no model is being read (the status line says so)
wait_read() {
	_n=300
	while [ $_n -gt 0 ]; do
		tm capture-pane -p -t tui >"$T/screen"
		grep -q "reading:" "$T/screen" || return 0
		sleep 0.1
		_n=$((_n - 1))
	done
	return 1
}
# settle: until nothing is being read and the screen stays the same for
# 0.3 s: a header can be on the screen while tmux still holds the last
# panel's rows below it (a capture in the middle of a redraw)
settle() {
	wait_read || return 1
	tm capture-pane -p -t tui >"$T/settle.a"
	_n=100
	while [ $_n -gt 0 ]; do
		sleep 0.3
		tm capture-pane -p -t tui >"$T/settle.b"
		cmp -s "$T/settle.a" "$T/settle.b" && return 0
		mv "$T/settle.b" "$T/settle.a"
		_n=$((_n - 1))
	done
	return 1
}
shot() {
	tm capture-pane -p -t tui >"$T/$1.txt"
	diag "screen $1:"
	diag "$(cat "$T/$1.txt")"
	[ -n "${FTL_TUI_SHOTS:-}" ] && mkdir -p "$FTL_TUI_SHOTS" && cp "$T/$1.txt" "$FTL_TUI_SHOTS/"
	return 0
}

# same_as_diff SCREEN CSV METRIC: the Functions rows on SCREEN are the CSV's
# rows, in its order, field by field (METRIC: total or self)
same_as_diff() {
	PYTHONPATH=$T python3 - "$@" <<'PY'
import csv, sys
screen, data, metric = sys.argv[1], sys.argv[2], sys.argv[3]

from tuifmt import dur

lines = open(screen).read().splitlines()
head = next(i for i, l in enumerate(lines) if l.lstrip().startswith("CALLS A"))
# columns: right-aligned cells of 8, 8, 11, 11, 11, 10, 10, 10, then the name
widths = (8, 8, 11, 11, 11, 10, 10, 10)
rows = []
for l in lines[head + 1:]:
    # the panel's last row is the footer: "NAME: diff's total, all paths: ..."
    if not l.strip() or l.startswith("h: help") or ": diff's " in l:
        break
    cells, x = [], 0
    for w in widths:
        cells.append(l[x:x + w].strip())
        x += w + 1
    rows.append(cells + [l[x:].rstrip()])
want = list(csv.DictReader(open(data)))
bad = []
if len(rows) != len(want):
    bad.append(f"{len(rows)} rows on the screen, {len(want)} in diff's CSV")
for got, w in zip(rows, want):
    ca, cb = int(w["calls_a"]), int(w["calls_b"])
    a, b = int(w[f"{metric}_a_ns"]), int(w[f"{metric}_b_ns"])
    pct = w[f"{metric}_change_pct"]
    exp = [str(ca) if ca else "-", str(cb) if cb else "-",
           dur(a) if ca else "-", dur(b) if cb else "-",
           ("+" if b - a > 0 else "") + dur(b - a)]
    name = got[8]
    if name != w["function"]:
        bad.append(f"row {w['function']}: the screen has {name} there")
        continue
    for k, (g, e) in enumerate(zip(got[:5], exp)):
        if g != e:
            bad.append(f"{name}: column {k}: screen {g!r}, diff {e!r}")
    if pct:
        ok = got[5].endswith("%") and abs(float(got[5][:-1]) - float(pct)) <= max(0.05, abs(float(pct)) * 5e-3) + 1e-9
    else:
        ok = got[5] == ("new" if not ca and cb else "gone" if not cb else "")
    if not ok:
        bad.append(f"{name}: %: screen {got[5]!r}, diff {pct!r}")
print("\n".join(bad[:20]) if bad else f"{len(rows)} functions by {metric}: the same as diff")
print(f"only in A: {sum(1 for w in want if not int(w['calls_b']))}, "
      f"only in B: {sum(1 for w in want if not int(w['calls_a']))}")
sys.exit(1 if bad else 0)
PY
}

# same_as_flame SCREEN SVG: the Graph's rows, all unfolded, are the frames
# of flame --diff's SVG, path by path: A's time (its a=), B's (n=), the
# change; SVG frames merged for width are left out, every other one is a row
same_as_flame() {
	PYTHONPATH=$T python3 - "$@" <<'PY'
import re, sys
screen, svg = sys.argv[1], sys.argv[2]

from tuifmt import dur

frames, stack = {}, []
for attrs, name in re.findall(r'<g class="f[^"]*"([^>]*)><title>([^\n<]*)', open(svg).read()):
    at = dict(re.findall(r'(\w+)="([^"]*)"', attrs))
    lvl = int(at["l"])
    stack[lvl:] = [name]
    if lvl and not re.match(r"\[\d+ smaller calls\]$", name):
        frames[tuple(stack[1:])] = (int(at.get("a", 0)), int(at["n"]))
lines = open(screen).read().splitlines()
head = next(i for i, l in enumerate(lines) if "FUNCTION (time each call path covers" in l)
rows, stack, ended = {}, [], False
for l in lines[head + 1:]:
    # the panel's last row is the footer: "NAME: graph on this path: ..."
    if not l.strip() or l.startswith("h: help") or ": graph on this path: " in l:
        ended = True
        break
    cells = [l[0:11].strip(), l[12:23].strip(), l[24:35].strip(), l[36:46].strip()]
    tail = l[47:]
    depth = (len(tail) - len(tail.lstrip(" "))) // 2
    name = tail.lstrip(" ")[2:]
    stack[depth:] = [name]
    rows[tuple(stack)] = cells
bad = [] if ended else ["the Graph's rows fill the screen: make it taller"]
for path, (a, b) in frames.items():
    got = rows.get(path)
    if got is None:
        bad.append(f"{'/'.join(path)}: in flame --diff, not in the Graph")
        continue
    exp = [dur(a) if a else ("-", "0 ns"), dur(b) if b else ("-", "0 ns"),
           ("+" if b - a > 0 else "") + dur(b - a)]
    for k, (g, e) in enumerate(zip(got[:3], exp)):
        if (g not in e) if isinstance(e, tuple) else g != e:
            bad.append(f"{'/'.join(path)}: column {k}: Graph {g!r}, flame --diff {e!r}")
print("\n".join(bad[:20]) if bad else
      f"{len(frames)} call paths of flame --diff: the same in the Graph ({len(rows)} rows)")
sys.exit(1 if bad else 0)
PY
}

# graph NAME A B: the Graph of tui A --compare B, unfolded (E), against
# flame --diff A B
graph() {
	"$FTLENS" flame --diff -o "$T/$1.svg" "$2" "$3" || return 1
	# the Graph has the paths only in A that the SVG leaves out: room for them
	_n=$(($(grep -c '<g class="f' "$T/$1.svg") * 3 + 20))
	start "$_n" "$2" --compare "$3" || return 1
	wait_for "TIME +CPU" >/dev/null || return 1
	keys 2
	wait_for "FUNCTION \\(time each call path covers" 60 >/dev/null || return 1
	keys E
	sleep 0.5
	settle || return 1
	shot "compare-$1-graph"
	same_as_flame "$T/compare-$1-graph.txt" "$T/$1.svg"
}

# functions NAME A B: Functions of tui A --compare B against diff -F csv A B,
# by total then (s) by self
functions() {
	_n=$(($("$FTLENS" diff -F csv "$2" "$3" | wc -l) + 8))
	"$FTLENS" diff -F csv "$2" "$3" >"$T/$1.csv" || return 1
	"$FTLENS" diff -F csv --sort self "$2" "$3" >"$T/$1-self.csv" || return 1
	start "$_n" "$2" --compare "$3" || return 1
	wait_for "TIME +CPU" >/dev/null || return 1
	keys 3
	wait_for "CALLS A +CALLS B +TOTAL A" 60 >/dev/null || return 1
	settle || return 1
	shot "compare-$1-functions"
	same_as_diff "$T/compare-$1-functions.txt" "$T/$1.csv" total || return 1
	keys s
	wait_for "SELF A +SELF B +CHANGEv" >/dev/null || return 1
	settle || return 1
	shot "compare-$1-functions-self"
	same_as_diff "$T/compare-$1-functions-self.txt" "$T/$1-self.csv" self
}

# footer SCREEN WHAT CSV...: the footer of SCREEN is vfs_read's, WHAT
# ("graph on this path" or "diff's total, all paths"), then each CSV's
# vfs_read time (graph -F csv of A and B, or diff -F csv's A and B columns)
footer() {
	PYTHONPATH=$T python3 - "$@" <<'PY'
import csv, sys
from tuifmt import dur
screen, what, files = sys.argv[1], sys.argv[2], sys.argv[3:]
foot = next((l.strip() for l in open(screen) if l.lstrip().startswith("vfs_read: ")), "")
if len(files) == 2:   # graph -F csv of A, of B: the path vfs_read
    got = [next(r for r in csv.DictReader(open(f)) if r["path"] == "vfs_read") for f in files]
    a, b = (int(r["total_ns"]) for r in got)
    ca, cb = (r["calls"] for r in got)
else:                 # diff -F csv A B: the row vfs_read
    r = next(r for r in csv.DictReader(open(files[0])) if r["function"] == "vfs_read")
    a, b, ca, cb = int(r["total_a_ns"]), int(r["total_b_ns"]), r["calls_a"], r["calls_b"]
want = f"vfs_read: {what}: A {dur(a)} ({ca} calls"
print(f"footer: {foot}\nwant:   {want} ... B {dur(b)} ({cb} calls, 1 untimed)")
sys.exit(0 if foot.startswith(want) and f"B {dur(b)} ({cb} calls, 1 untimed)" in foot
         and "untimed call (no exit)" in foot else 1)
PY
}

plan 13
check "perf-tools before/after pair: Functions in compare mode is diff -F csv, field by field" \
	'functions real "$RA" "$RB" >"$T/out" 2>&1; r=$?; diag "$(cat "$T/out")"; [ $r = 0 ]'
check "rig captures (functions in one only): Functions is diff -F csv, field by field" \
	'functions vm "$VA" "$VB" >"$T/out" 2>&1; r=$?; diag "$(cat "$T/out")"; [ $r = 0 ]'
check "perf-tools pair: the Graph's merged tree is flame --diff's, path by path" \
	'graph real "$RA" "$RB" >"$T/out" 2>&1; r=$?; diag "$(cat "$T/out")"; [ $r = 0 ]'
# vfs_read in B: one call has no exit (the trace ends in it). The Graph
# counts its callees' time on the path as flame --diff (247.765 us), graph
# and diff count only calls with a duration (213.487 us): each footer says
# which it counts and gives graph's or diff's figure
check "perf-tools pair: vfs_read's footers give graph's and diff's time and why they differ" '
	"$FTLENS" graph -F csv "$RA" >"$T/ga.csv" && "$FTLENS" graph -F csv "$RB" >"$T/gb.csv" &&
	"$FTLENS" diff -F csv "$RA" "$RB" >"$T/d.csv" &&
	keys Home && wait_for "^vfs_read: graph on this path" >/dev/null &&
	shot compare-real-graph-footer &&
	footer "$T/compare-real-graph-footer.txt" "graph on this path" "$T/ga.csv" "$T/gb.csv" \
		>"$T/out" 2>&1; r=$?; diag "$(cat "$T/out")"; [ $r = 0 ] &&
	keys 3 && wait_for "^vfs_read: diff.s total, all paths" >/dev/null &&
	shot compare-real-functions-footer &&
	footer "$T/compare-real-functions-footer.txt" "diff'"'"'s total, all paths" "$T/d.csv" \
		>"$T/out" 2>&1; r=$?; diag "$(cat "$T/out")"; [ $r = 0 ]
'
check "rig captures: the Graph's merged tree is flame --diff's, path by path" \
	'graph vm "$VA" "$VB" >"$T/out" 2>&1; r=$?; diag "$(cat "$T/out")"; [ $r = 0 ]'
check "x swaps A and B: the table is diff B A" '
	keys x &&
	wait_for "A is now .*fgraph-events" >/dev/null &&
	wait_read &&
	keys 3 &&
	wait_for "TOTAL A +TOTAL B +CHANGEv" >/dev/null &&
	"$FTLENS" diff -F csv "$VB" "$VA" >"$T/swapped.csv" &&
	shot compare-vm-swapped &&
	same_as_diff "$T/compare-vm-swapped.txt" "$T/swapped.csv" total
'
# lanes SCREEN: "A CPU n" rows all above "B CPU n" rows, both sides there
lanes() {
	awk '/^A CPU [0-9]+  / { if (b) bad = 1; a++ } /^B CPU [0-9]+  / { b++ }
	     END { exit !(a && b && !bad) }' "$1"
}
# tick_under_cursor SCREEN: on the "B markers" row, a tick in the column of
# the ruler's cursor (v)
tick_under_cursor() {
	python3 - "$1" <<'PY'
import sys
rows = open(sys.argv[1]).read().splitlines()
col = rows[2].index("v", 13)  # the tab row, the ruler, then the cursor's row
bm = next(r for r in rows if r.startswith("B markers"))
ok = len(bm) > col and bm[col] in "\u2502|"
print(f"cursor at column {col}; B's markers row there: {bm[col] if len(bm) > col else ''!r}")
sys.exit(0 if ok else 1)
PY
}
check "Timeline: A's CPUs above B's, each from its own start" '
	start 20 "$EA" --compare "$EB" &&
	wait_for "TIME +CPU" >/dev/null && keys 4 &&
	wait_for "B from its start" >/dev/null &&
	shot compare-events-timeline && lanes "$T/compare-events-timeline.txt"
'
# 60 cells (41 ms) back from the end, the marker of A nearest the cursor is
# "after record-tgid", 79 ms into A; B's is 128 ms after B's start
check "X aligns B at the marker of A by the cursor: its tick moves under A's" '
	keys G && keys -N 60 Left &&
	wait_for "^\+8[0-9]\." >/dev/null &&
	shot compare-events-timeline-end &&
	! tick_under_cursor "$T/compare-events-timeline-end.txt" >"$T/out" 2>&1 &&
	diag "before X: $(cat "$T/out")" &&
	keys X &&
	wait_for "B moved: its \"after record-tgid\" under A" >/dev/null &&
	shot compare-events-timeline-aligned &&
	tick_under_cursor "$T/compare-events-timeline-aligned.txt" >"$T/out" 2>&1; r=$?
	diag "after X: $(cat "$T/out")"; [ $r = 0 ] &&
	keys X && wait_for "B from its start" >/dev/null
'
check "Enter on a row of B says Events shows A" '
	keys Down Down Down Enter && wait_for "Events shows A \(x swaps A and B\)" >/dev/null
'
check "q quits with nothing on stderr" '
	keys q && tmux_wait_dead && [ ! -s "$T/err" ] && grep -q "rc=0" "$T/rc"
'
# same_cells SOLO SCREEN SIDE: the rows "CPU n" of SOLO (a trace's own
# Timeline) and "SIDE CPU n" of SCREEN are busy in the same cells (a cell
# is busy when not blank; marker ticks are left out of the comparison)
same_cells() {
	python3 - "$@" <<'PY'
import re, sys
solo, screen, side = sys.argv[1:4]
def rows(path, prefix):
    out = {}
    for l in open(path, encoding="utf-8").read().splitlines():
        m = re.match(prefix + r"CPU (\d+) ", l)
        if m:
            out[int(m.group(1))] = l[13:]
    return out
a, b = rows(solo, ""), rows(screen, side + " ")
bad, busy = [], 0
if sorted(a) != sorted(b):
    bad.append(f"CPUs: its own Timeline {sorted(a)}, the {side} side {sorted(b)}")
for cpu in sorted(set(a) & set(b)):
    x, y = a[cpu].ljust(200), b[cpu].ljust(200)
    for col, (p, q) in enumerate(zip(x, y)):
        if p in "\u2502|" or q in "\u2502|":
            continue
        busy += p != " "
        if (p != " ") != (q != " "):
            bad.append(f"CPU {cpu} column {col}: own {p!r}, {side} {q!r}")
print("\n".join(bad[:10]) if bad else f"{len(a)} CPUs, {busy} busy cells: the same on the {side} side")
sys.exit(1 if bad or busy < 50 else 0)
PY
}
check "public captures: A's lanes (LISA) are busy where LISA's own Timeline is" '
	start 20 "$LISA" && wait_for "TIME +CPU" >/dev/null && keys 4 &&
	wait_for "^CPU 5 " >/dev/null && shot lisa-timeline &&
	start 20 "$LISA" --compare "$DROID" && wait_for "TIME +CPU" >/dev/null && keys 4 &&
	wait_for "^B CPU 2 " >/dev/null && wait_for "\+6\.676 s from A.s start" >/dev/null &&
	shot compare-real-timeline &&
	same_cells "$T/lisa-timeline.txt" "$T/compare-real-timeline.txt" A >"$T/out" 2>&1
	r=$?; diag "$(cat "$T/out")"; [ $r = 0 ]
'
check "public captures: after x, B's lanes (LISA) are busy where its own Timeline is" '
	keys x && wait_for "A is now .*tracecompass_android_sched" >/dev/null && wait_read &&
	keys 4 && wait_for "^B CPU 5 " >/dev/null && wait_for "\+6\.676 s from A.s start" >/dev/null &&
	shot compare-real-timeline-swapped &&
	same_cells "$T/lisa-timeline.txt" "$T/compare-real-timeline-swapped.txt" B >"$T/out" 2>&1
	r=$?; diag "$(cat "$T/out")"; keys q; tmux_wait_dead; [ $r = 0 ]
'
check "an unreadable B is one error naming it, exit 1, before any screen" '
	echo "not a trace" >"$T/bad.txt" &&
	! "$FTLENS" tui "$VA" --compare "$T/bad.txt" >"$T/out" 2>"$T/msg" &&
	! "$FTLENS" tui "$VA" --compare "$T/none.txt" >>"$T/out" 2>>"$T/msg" &&
	diag "$(cat "$T/msg")" &&
	[ ! -s "$T/out" ] && [ "$(wc -l <"$T/msg")" = 2 ] &&
	grep -q "^ftlens: tui: --compare: .*bad.txt.: line 1: " "$T/msg" &&
	grep -q "^ftlens: tui: --compare: .*none.txt.: No such file" "$T/msg"
'
finish
