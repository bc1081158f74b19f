#!/bin/sh
# W in the TUI's Timeline, in a real terminal on a public capture: the
# selected task's wakeups, waker -> wakee, are the ones `ftlens sched
# --wakeups -F csv` lists for its pid (the same pairing, analysis/sched.c:
# the waker is the task current where sched_waking, else sched_wakeup, was
# recorded), each with its time, latency, the waker's CPU, the CPU that ran
# the task and the waker; the task's row and the waker's CPU are marked;
# Enter on one shows its waking event in Events with A..B its latency.
# The screens are kept in the log.
. "$(dirname "$0")/lib.sh"
prereq TMUX
need_python
make_tmpdir
tmux_server
wait_for() { tmux_wait_for "$@"; }
shot() {
	tm capture-pane -p -t tui >"$T/$1.screen"
	diag "screen $1:"
	diag "$(cat "$T/$1.screen")"
}

lisa=$FTL_REAL_DATA/events/lisa_tracecmd_report_sched_448k.txt
plan 6
have_input "$lisa" 6 || { finish; exit 0; }
"$FTLENS" sched --wakeups -F csv "$lisa" >"$T/w.csv" 2>/dev/null
tm new-session -d -s tui -x 130 -y 60 "cd '$T' && LANG=C.UTF-8 NO_COLOR=1 '$FTLENS' tui '$lisa' 2>err"
wait_for "TIME +CPU" >/dev/null
keys 4
wait_for "^CPU 0 " >/dev/null
shot timeline
# the task with a row of its own that has the most wakeups woken by
# another task than the idle one
pid=$(python3 - "$T/w.csv" "$T/timeline.screen" <<'PY'
import csv, re, sys
rows = list(csv.DictReader(open(sys.argv[1])))
shown = set(int(m.group(1)) for l in open(sys.argv[2])
            for m in [re.match(r"^[a-zA-Z] \S*-(\d+) ", l)] if m)
n = {}
for r in rows:
    if int(r["pid"]) in shown and r["waker_pid"] not in ("", "0"):
        n[int(r["pid"])] = n.get(int(r["pid"]), 0) + 1
print(max(n, key=lambda p: (n[p], -p)))
PY
)
# Down to its row: the rows from CPU 0's
down=$(awk -v pid="$pid" '/^CPU 0 /{ first = NR } $0 ~ "^[a-zA-Z] [^ ]*-" pid " " { print NR - first; exit }' "$T/timeline.screen")
diag "task $pid, $down rows below CPU 0"
i=0
while [ "$i" -lt "$down" ]; do
	keys Down
	i=$((i + 1))
done
sleep 0.3
keys W
# same_rows SCREEN MIN: the rows of the wakeups list on SCREEN are sched
# --wakeups's for $pid, field by field, MIN or more of them woken by a task
same_rows() {
	python3 - "$T/w.csv" "$1" "$pid" "$2" >"$T/cmp" 2>&1 <<'PY'
import csv, re, sys
pid = sys.argv[3]
want = sorted((r for r in csv.DictReader(open(sys.argv[1])) if r["pid"] == pid),
              key=lambda r: int(r["ts_ns"]))
lines = open(sys.argv[2]).read().splitlines()
title = [l for l in lines if l.startswith("Wakeups of ")][0]
n = int(re.search(r": (\d+) ", title).group(1))
assert n == len(want), (n, len(want))
at = [i for i, l in enumerate(lines) if "WOKEN BY" in l][0]
got = []
for l in lines[at + 1:]:
    f = l.split()
    if len(f) < 6 or not f[0].isdigit():
        break
    got.append(f)
assert got, "no row"
for f in got:
    w = want[int(f[0]) - 1]
    wake = "%d.%06d" % divmod(int(w["wake_ts_ns"]) // 1000, 1000000)
    lat = "%d.%03d" % divmod(int(w["latency_ns"]), 1000)
    waker = "%s-%s" % (w["waker_comm"], w["waker_pid"]) if w["waker_pid"] else "-"
    exp = [f[0], wake, lat, w["waker_cpu"] or "-", w["cpu"], waker]
    assert f[:6] == exp, (f, exp)
woken = sum(1 for f in got if f[5] not in ("<idle>-0", "-"))
print("%d wakeups, rows %s..%s shown: the same (%d woken by a task)" % (n, got[0][0], got[-1][0], woken))
sys.exit(0 if woken >= int(sys.argv[4]) else 1)
PY
	_r=$?
	diag "$(cat "$T/cmp")"
	return $_r
}
check "W: the task's wakeups are sched --wakeups's for pid $pid: time, latency, CPUs, waker" '
	wait_for "^Wakeups of [^ ]*-$pid: [0-9]+" && shot wakeups && same_rows "$T/wakeups.screen" 0'
# marks: switch-in ▲ (^ without UTF-8), waking ◆ (@); at this zoom the
# waking and the switch-in on one CPU share a cell, the switch-in drawn last
check "the task's row and its CPUs marked at the switch-ins, the wakers' rows at the wakings" '
	grep -E "^[a-zA-Z] [^ ]*-$pid " "$T/wakeups.screen" | grep -Eq "▲|\^" &&
	grep -E "^CPU [0-9]+ " "$T/wakeups.screen" | grep -Eq "▲|\^" &&
	grep -E "^[a-zA-Z] " "$T/wakeups.screen" | grep -v -- "-$pid " | grep -Eq "◆|@"'
# the first wakeup woken by a task, not the idle one: Down to it, its
# row and the ones around it are sched's too (waker pid and comm)
k=$(awk -F, -v pid="$pid" 'NR > 1 && $5 == pid { print $2, ($9 != "" && $9 != 0) }' "$T/w.csv" |
	sort -n | awk '$2 { print NR; exit }')
keys -N $((k - 1)) Down
check "Down to wakeup $k, the first a task woke: the rows shown are sched's, wakers named" '
	wait_for "^ +$k +[0-9]+\.[0-9]+ " && sleep 0.3 && shot wakeups-woken &&
	same_rows "$T/wakeups-woken.screen" 1'
keys -N $((k - 1)) Up
sleep 0.3
# the second wakeup: Enter shows its waking event, A..B its latency
w2=$(awk -F, -v pid="$pid" 'NR > 1 && $5 == pid { print $2, $8 }' "$T/w.csv" | sort -n | sed -n 2p)
sw=$(echo "$w2" | awk '{ printf "%d.%06d", $1 / 1e9, ($1 / 1000) % 1000000 }')
wake=$(echo "$w2" | awk '{ printf "%d.%06d", $2 / 1e9, ($2 / 1000) % 1000000 }')
keys Down
sleep 0.3
keys Enter
check "Down, Enter: Events at the second wakeup's waking event, A $wake B $sw" '
	wait_for "TIME +CPU" && sleep 0.5 && shot events &&
	tm capture-pane -p -e -t tui | grep "$(printf "\033")\[7m" | grep -q " $wake .*sched_wak" &&
	grep -q "A $wake B $sw" "$T/events.screen"'
keys 4
sleep 0.3
keys W
check "W again hides them" 'sleep 0.5 && tm capture-pane -p -t tui >"$T/s" && ! grep -q "^Wakeups of" "$T/s"'
keys q
check "q quits with nothing on stderr" 'sleep 0.5 && [ ! -s "$T/err" ]'
finish
