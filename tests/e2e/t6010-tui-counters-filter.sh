#!/bin/sh
# `ftlens tui` in tmux on real captures: the Timeline shows a row per
# counter track (trappy's cpu_idle trace.dat: "idle cpu N" rows whose bars
# stand where sched's counters table says the CPU was in an idle state),
# the info line names the value under the cursor; LISA's rt-app trace.dat
# has a "freq cpu N" row per cpu_frequency track sched lists, trappy's
# arm32 one a row per thermal track, each label told apart (a name too
# long keeps its start and end) and named in full on the info line; on
# the cpu_idle trace.dat, tui --counter draws a user's counter as sched
# --counter sums it; on LISA's sched text trace, f takes an expression of
# --filter's grammar and the Events list shows the events `dump --filter`
# prints, first rows first; a bad one is one line naming its column, the
# list under it unfiltered. The screens are kept as text in
# tests/e2e/t6010-tui-counters-filter/ beside this test's log.
. "$(dirname "$0")/lib.sh"
prereq TMUX
make_tmpdir
IDLE=$FTL_REAL_DATA/raw/trappy_arm64_6cpu_idle_trace.dat
SCHED=$FTL_REAL_DATA/events/lisa_tracecmd_report_sched_448k.txt
FREQ=$FTL_REAL_DATA/raw/lisa_rtapp_6cpu_trace.dat
THERM=$FTL_REAL_DATA/raw/trappy_arm32_8cpu_trace.dat
shots=$PWD/tests/e2e/t6010-tui-counters-filter
rm -rf "$shots" && mkdir -p "$shots" || exit 1
diag "screens in $shots"
tmux_server
wait_for() { tmux_wait_for "$@"; }
# start [OPTION...] INPUT: ftlens tui in a fresh 110x30 session
start() {
	_cmd="NO_COLOR=1 '$FTLENS' tui"
	for _a; do
		_cmd="$_cmd '$_a'"
	done
	tm kill-session -t tui 2>/dev/null
	tm new-session -d -s tui -x 110 -y 30 "cd '$T' && $_cmd"
}
shot() { tm capture-pane -p -t tui >"$shots/$1.txt"; }
plan 11

# tracks KIND CSV: the names of sched -F csv's tracks of KIND, in order
tracks() {
	python3 -c '
import csv, io, sys
sec = next(b for b in open(sys.argv[2]).read().split("\n\n") if b.startswith("kind,event,"))
seen = []
for r in csv.DictReader(io.StringIO(sec)):
    name = r["kind"] + " " + r["key"]
    if r["kind"] == sys.argv[1] and name not in seen:
        seen.append(name)
print("\n".join(seen))' "$@"
}
# labels_are SCREEN KIND NAMES: the screen's rows of KIND are one per
# name, in order, each label the name or its start, a cut mark, its end
labels_are() {
	python3 -c '
import sys
rows = [l[:12].rstrip() for l in open(sys.argv[1]).read().splitlines() if l.startswith(sys.argv[2][:5])]
names = open(sys.argv[3]).read().split("\n")[:-1]
assert len(rows) == len(names) and names, (rows, names)
assert len(set(rows)) == len(rows), rows
for r, n in zip(rows, names):
    cut = "\u2026" if "\u2026" in r else "~"
    head, _, tail = r.partition(cut)
    assert r == n or (tail and n.startswith(head) and n.endswith(tail)), (r, n)
print(f"{len(rows)} rows: " + ", ".join(rows))' "$@"
}
# counter_rows KIND INPUT [OPTION...]: the Timeline's rows of INPUT's
# tracks of KIND are sched's (given the same options), in order, told
# apart (the screen in $shots/KIND-timeline.txt)
counter_rows() {
	_k=$1 _in=$2
	shift 2
	"$FTLENS" sched -F csv "$@" "$_in" >"$T/$_k.csv" 2>/dev/null
	tracks "$_k" "$T/$_k.csv" >"$T/$_k.names"
	start "$@" "$_in"
	wait_for "TIME +CPU" >/dev/null
	keys 4
	wait_for "^$(head -c 5 "$T/$_k.names")" >/dev/null && shot "$_k-timeline" &&
		labels_are "$shots/$_k-timeline.txt" "$_k" "$T/$_k.names" >"$T/out" 2>&1
	_r=$?
	diag "$(cat "$T/out")"
	return $_r
}
if have_input "$IDLE" 4; then
	start "$IDLE"
	wait_for "TIME +CPU"
	keys 4
	check "Timeline: a row per cpu_idle track after the CPUs" \
		'wait_for "^idle cpu 5 " && shot idle-timeline &&
		 [ "$(grep -c "^idle cpu [0-9]" "$shots/idle-timeline.txt")" = 5 ] &&
		 grep -A1 "^CPU 5 " "$shots/idle-timeline.txt" | grep -q "^idle cpu 0 "'
	# CPU 2 sleeps in state 2 from 216.552 us to the end (sched's counters
	# table): the cursor at the end on the "idle cpu 2" row names it
	keys j j j j j j j G
	check "the info line names the idle state under the cursor, the event and how long it held" \
		'wait_for "idle cpu 2: cpu_idle 2 at [0-9.]+, held 4.468 ms" && shot idle-info'
	# a user's counter: sched_migrate_task's dest_cpu per pid
	check "--counter sched_migrate_task:dest_cpu:pid: a row per track of sched --counter's" \
		'counter_rows user "$IDLE" --counter sched_migrate_task:dest_cpu:pid &&
		 keys -N "$(awk "/^CPU 0 /{ f = NR } /^user 236 /{ print NR - f; exit }" "$shots/user-timeline.txt")" j &&
		 keys G && wait_for "^user 236: sched_migrate_task 3 at [0-9.]+, held 3.428 ms" && shot user-info'
	check "a malformed --counter: one usage error before the screen, exit 2" \
		'"$FTLENS" tui --counter "cpu idle" "$IDLE" </dev/null >"$T/out" 2>"$T/err"; rc=$?
		 diag "$(cat "$T/err")"; [ $rc = 2 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" = 1 ] &&
		 grep -q "^ftlens: tui: --counter .cpu idle.: expected EVENT:FIELD" "$T/err"'
	# one that draws nothing ends the TUI once the trace is read, with
	# sched's error (the pane's own command: no shell takes keys; the one
	# running it only writes its exit status down, as tmux sometimes
	# records none for a program that ends within a tenth of a second)
	tm kill-session -t tui 2>/dev/null
	rm -f "$T/crc"
	tm new-session -d -s tui -x 110 -y 30 \
		"cd '$T' && NO_COLOR=1 '$FTLENS' tui --counter nosuch:x '$IDLE' 2>'$T/cerr'; echo \$? >'$T/crc'"
	check "a --counter that draws nothing: the TUI ends with sched's error, exit 1" \
		'tmux_wait_dead && diag "$(cat "$T/cerr")" &&
		 [ "$(cat "$T/crc")" = 1 ] &&
		 grep -q "^ftlens: tui: --counter nosuch:x: no nosuch event in .*trappy_arm64_6cpu_idle_trace.dat" "$T/cerr"'
fi
if have_input "$FREQ" 1; then
	check "rt-app trace.dat: a freq row per cpu_frequency track of sched's" \
		'counter_rows freq "$FREQ"'
fi
if have_input "$THERM" 2; then
	check "arm32 trace.dat: a row per thermal track of sched's, the labels told apart" \
		'counter_rows thermal "$THERM"'
	# thermal-cpufreq-1 holds 0 from its one cdev_update to the end
	down=$(awk '/^CPU 0 /{ f = NR } /^therm.*freq-1 /{ print NR - f; exit }' "$shots/thermal-timeline.txt")
	keys -N "${down:-0}" j
	keys G
	check "the info line names the track in full, its value and how long it held" \
		'wait_for "^thermal thermal-cpufreq-1: cdev_update 0 at [0-9.]+, held 5.325 s" &&
		 shot thermal-info'
fi
if have_input "$SCHED" 3; then
	start "$SCHED"
	wait_for "TIME +CPU"
	keys f 'sched_switch: prev_pid == 0 && next_prio < 120' Enter
	check "f: an expression; the Events list is dump --filter's" \
		'wait_for "\[sched_switch: prev_pid == 0 && next_prio < 120\]" &&
		 wait_for "^[ >]+[0-9]+\.[0-9]+ \[[0-9]+\]" && shot filter-expr &&
		 "$FTLENS" dump --filter "sched_switch: prev_pid == 0 && next_prio < 120" "$SCHED" |
		 head -5 | awk "{ printf \"%.6f [%03d]\\n\", \$1, \$2 }" >"$T/want" &&
		 grep -Eo "^[ >]+[0-9]+\.[0-9]+ \[[0-9]+\]" "$shots/filter-expr.txt" | head -5 |
		 sed "s/^[ >]*//" >"$T/got" && diff "$T/want" "$T/got"'
	keys Escape f 'comm rt-app' Enter
	check "f comm GLOB: only the task's events" \
		'wait_for "\[comm rt-app\]" && wait_for "^[ >]+[0-9]+\.[0-9]+ \[[0-9]+\]" &&
		 shot filter-comm &&
		 [ "$(grep -Ec "^[ >]+[0-9]+\.[0-9]+ \[[0-9]+\] rt-app-" "$shots/filter-comm.txt")" = 6 ]'
	keys Escape f 'sched_switch: prev_pid == 0 &&& x' Enter
	check "a mistake: one line that names the column" \
		'wait_for "at column 31" && wait_for "^[ >]+[0-9]+\.[0-9]+ \[[0-9]+\]" && shot filter-error'
fi
finish
