#!/bin/sh
# The TUI's Sched panel in a real terminal, on public captures: every figure
# it shows (CPUs, tasks, wakeup latency, the worst wakeups, interrupts) is
# the one `ftlens sched -F csv` prints for the same scope, the whole trace
# and a marker span; s sorts the tasks as `sched --sort` does; Enter on a
# worst wakeup shows its waking event in Events with the switch that ran the
# task as mark B; Enter on a task filters Events and Timeline to it. The
# screens are compared with tui_sched_compare.py and kept in the log.
. "$(dirname "$0")/lib.sh"
prereq TMUX
need_python
make_tmpdir
tmux_server
wait_for() { tmux_wait_for "$@"; }
# start ROWS COMMAND: a fresh 130-column session of ROWS rows running
# COMMAND, in the scratch directory
start() {
	tm kill-session -t tui 2>/dev/null
	tm new-session -d -s tui -x 130 -y "$1" "cd '$T' && NO_COLOR=1 $2 2>err"
}
compare="$top_srcdir/tests/e2e/tui_sched_compare.py"
# same SCREEN CSV [SPAN]: the panel's figures are the CSV's
same() {
	python3 "$compare" "$@" >"$T/cmp" 2>&1 || { diag "$(cat "$T/cmp")"; return 1; }
	diag "$(tail -n 1 "$T/cmp")"
}
# at_cursor TIME: until the cursor's row is the event at TIME (10 s)
at_cursor() {
	_n=100
	while [ $_n -gt 0 ]; do
		tmux_cursor_row | grep -q "^ *$1 " && return 0
		sleep 0.1
		_n=$((_n - 1))
	done
	diag "the cursor never reached $1"
	return 1
}
# shot NAME: the screen into the log, to be looked at
shot() {
	tm capture-pane -p -t tui >"$T/$1.screen"
	diag "screen $1:"
	diag "$(cat "$T/$1.screen")"
}

plan 13
lisa=$FTL_REAL_DATA/events/lisa_tracecmd_report_sched_448k.txt
droid=$FTL_REAL_DATA/events/tracecompass_atrace_android_tgid_large.txt
irq=$FTL_REAL_DATA/events/tracecompass_android_sched_irq_syscall.txt

if have_input "$lisa" 6; then
	"$FTLENS" sched -F csv "$lisa" >"$T/lisa.csv" 2>/dev/null
	"$FTLENS" sched -F csv -s wait "$lisa" >"$T/lisa-wait.csv" 2>/dev/null
	start 120 "'$FTLENS' tui '$lisa'"
	wait_for "TIME +CPU" >/dev/null
	keys 0
	check "lisa: the Sched panel shows sched -F csv's figures (whole trace)" \
		'wait_for "^Interrupts" && shot lisa-sched && same "$T/lisa-sched.screen" "$T/lisa.csv"'
	keys s
	check "lisa: s sorts the tasks by wait, as sched -s wait" \
		'wait_for "Tasks by wait" && shot lisa-wait && same "$T/lisa-wait.screen" "$T/lisa-wait.csv"'
	# the worst wakeup: its waking event in Events, the latency as A..B
	w1=$(sed -n '/^rank,/,/^$/p' "$T/lisa.csv" | sed -n 2p)
	wake_ts=$(echo "$w1" | cut -d, -f8)
	sw_ts=$(echo "$w1" | cut -d, -f2)
	wake=$(printf '%d.%06d' $((wake_ts / 1000000000)) $((wake_ts / 1000 % 1000000)))
	sw=$(printf '%d.%06d' $((sw_ts / 1000000000)) $((sw_ts / 1000 % 1000000)))
	keys / "Worst wakeups" Enter Down Down Enter
	check "lisa: Enter on the worst wakeup: Events at its waking event, A..B its latency" \
		'wait_for "TIME +CPU" && sleep 0.5 && shot lisa-wakeup &&
		 tm capture-pane -p -e -t tui | grep "$(printf "\033")\[7m" | grep -q " $wake .*sched_wak" &&
		 grep -q "A $wake B $sw" "$T/lisa-wakeup.screen"'
	# the task that ran longest: Events and Timeline narrowed to it
	t1=$(sed -n '/^pid,/,/^$/p' "$T/lisa-wait.csv" | sed -n 2p | cut -d, -f1) # sorted by wait now
	keys 0 g / "Tasks by" Enter Down Down Enter
	check "lisa: Enter on a task filters Events to it" \
		'wait_for "\[pid $t1\]" && wait_for "TIME +CPU" && sleep 0.5 && shot lisa-task &&
		 ! sed -n "3,\$p" "$T/lisa-task.screen" | grep "^ *[0-9]*\.[0-9]* \[" | grep -vq -- "-$t1 "'
	keys 4
	check "lisa: ... and the Timeline, under the same filter: the task has its row" \
		'wait_for "\[pid $t1\]" && wait_for "^[a-z] [^ ]*-$t1 " && shot lisa-task-timeline'
	keys q
	check "lisa: q quits with nothing on stderr" 'sleep 0.5 && [ ! -s "$T/err" ]'
fi

if have_input "$droid" 3; then
	"$FTLENS" sched --per-span 'Choreographer#doFrame' '^E$' -F csv "$droid" >"$T/droid.csv" 2>/dev/null
	start 400 "'$FTLENS' tui --span 'Choreographer#doFrame' '^E\$' '$droid'"
	wait_for "TIME +CPU" >/dev/null
	keys 0
	check "android: the whole trace's figures are sched -F csv's" \
		'wait_for "^Interrupts" && wait_for "scope 1 of 75" && shot droid-sched &&
		 same "$T/droid-sched.screen" "$T/droid.csv" 0'
	keys w w
	check "android: w w: the second --span span, sched --per-span's span 2" \
		'wait_for "span 2 of 74" && wait_for "^Interrupts" && shot droid-span2 &&
		 same "$T/droid-span2.screen" "$T/droid.csv" 2'
	keys q
	check "android: q quits with nothing on stderr" 'sleep 0.5 && [ ! -s "$T/err" ]'
fi

# marks A..B: the scope w reaches after the whole trace when no --span is
# given; set at the start and end of the longest span of --per-span's, its
# figures are that span's (clipped alike: a task running at A counts from A)
if have_input "$droid" 2; then
	set -- $(python3 -c '
import csv, io, sys
rows = list(csv.DictReader(io.StringIO(open(sys.argv[1]).read().split("\n\n")[0])))
r = max((r for r in rows if r["span"] != "0"), key=lambda r: int(r["duration_ns"]))
s = lambda ns: "%d.%06d" % divmod(int(ns) // 1000, 1000000)
print(r["span"], s(r["start_ns"]), s(r["end_ns"]))' "$T/droid.csv")
	span=$1 a=$2 b=$3
	start 400 "'$FTLENS' tui '$droid'"
	wait_for "TIME +CPU" >/dev/null
	keys t "$a" Enter
	at_cursor "$a"
	keys a t "$b" Enter
	at_cursor "$b"
	keys b 0
	wait_for "^Interrupts" >/dev/null
	keys w
	check "android: marks A..B at span $span's ends ($a..$b): sched --per-span's span $span" \
		'wait_for "Sched: marks A..B $a .. $b  \(w: scope 2 of 2\)" && wait_for "^Interrupts" &&
		 grep -q "A $a B $b B-A " "$T/screen" &&
		 shot droid-marks && same "$T/droid-marks.screen" "$T/droid.csv" "$span"'
	keys q
	check "android, marks: q quits with nothing on stderr" 'sleep 0.5 && [ ! -s "$T/err" ]'
fi

# irq and softirq events: the Interrupts rows are there, and sched's
if have_input "$irq" 2; then
	"$FTLENS" sched -F csv "$irq" >"$T/irq.csv" 2>/dev/null
	start 200 "'$FTLENS' tui '$irq'"
	wait_for "TIME +CPU" >/dev/null
	keys 0
	check "android irq capture: the Interrupts rows (irq 18, 4 softirqs) are sched -F csv's" \
		'wait_for "^Interrupts" && wait_for "^softirq +9 RCU " && shot irq-sched &&
		 [ "$(sed -n "/^Interrupts/,\$p" "$T/irq-sched.screen" | grep -Ec "^(irq|softirq) ")" = 5 ] &&
		 same "$T/irq-sched.screen" "$T/irq.csv"'
	keys q
	check "android irq capture: q quits with nothing on stderr" 'sleep 0.5 && [ ! -s "$T/err" ]'
fi
finish
