#!/bin/sh
# `ftlens tui` in tmux on real captures: the Timeline shows a row per
# counter track (trappy's cpu_idle trace.dat: "idle cpu N" rows whose bars
# stand where sched's counters table says the CPU was in an idle state),
# the info line names the value under the cursor; on LISA's sched text
# trace, f takes an expression of --filter's grammar and the Events list
# shows the events `dump --filter` prints, first rows first; a bad one is
# one line naming its column. The screens are kept as text in
# tests/e2e/t6010-tui-counters-filter/ beside this test's log.
. "$(dirname "$0")/lib.sh"
prereq TMUX
make_tmpdir
IDLE=$FTL_REAL_DATA/raw/trappy_arm64_6cpu_idle_trace.dat
SCHED=$FTL_REAL_DATA/events/lisa_tracecmd_report_sched_448k.txt
shots=$PWD/tests/e2e/t6010-tui-counters-filter
rm -rf "$shots" && mkdir -p "$shots" || exit 1
diag "screens in $shots"
tmux_server
wait_for() { tmux_wait_for "$@"; }
start() {
	tm kill-session -t tui 2>/dev/null
	tm new-session -d -s tui -x 110 -y 30 "cd '$T' && NO_COLOR=1 '$FTLENS' tui '$1'"
}
shot() { tm capture-pane -p -t tui >"$shots/$1.txt"; }
plan 5

if have_input "$IDLE" 2; then
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
		'wait_for "at column 31" && shot filter-error'
fi
finish
