#!/bin/sh
# `ftlens sched` on a live capture (needs root, tracefs, trace-cmd): `ftlens
# record -e sched -e irq` while a task sleeps 10 ms 100 times with a little
# work between sleeps. That task shows ~100 wakeups with latencies > 0, a
# sleep of ~1 s and a run time close to the CPU time it measured itself; every
# task's run time and switch counts equal the oracle's (sched_oracle.py over
# `trace-cmd report -t`); every latency ftlens measures from sched_wakeup
# equals the one `trace-cmd report -w` prints on the same switch; busy + idle
# = the window on every CPU.
. "$(dirname "$0")/lib.sh"
prereq TRACEFS TRACE_CMD PYTHON
make_tmpdir
tracefs_top_lock
plan 9

cat >"$T/load.py" <<'PY'
import os, sys, time
open(sys.argv[1], "w").write("%d\n" % os.getpid())
for i in range(100):
    t = time.perf_counter_ns()
    while time.perf_counter_ns() - t < 200000:  # 0.2 ms of work
        pass
    time.sleep(0.01)
open(sys.argv[2], "w").write("%d\n" % time.thread_time_ns())
PY
"$FTLENS" record -e sched -e irq -o "$T/ev.dat" -- python3 "$T/load.py" "$T/pid" "$T/cpu_ns" \
	>/dev/null 2>"$T/rec.err"
check "record -e sched -e irq around the load" '[ $? -eq 0 ] && [ -s "$T/ev.dat" ] && [ -s "$T/cpu_ns" ]'
[ -s "$T/ev.dat" ] || diag "$(tail -3 "$T/rec.err")"
pid=$(cat "$T/pid" 2>/dev/null)
"$FTLENS" sched -F json "$T/ev.dat" >"$T/s.json" 2>"$T/s.err"
check "sched reads the capture" '[ $? -eq 0 ]'
"$FTLENS" sched --wakeups -F csv "$T/ev.dat" >"$T/w.csv" 2>/dev/null
python3 - "$T/s.json" "$T/w.csv" "$pid" "$(cat "$T/cpu_ns" 2>/dev/null)" >"$T/load.out" 2>&1 <<'PY'
import csv, json, sys
j = json.load(open(sys.argv[1]))
pid, cpu_ns = int(sys.argv[3]), int(sys.argv[4])
t = [x for x in j["tasks"] if x["pid"] == pid][0]
lat = [int(r["latency_ns"]) for r in csv.DictReader(open(sys.argv[2])) if int(r["pid"]) == pid]
print("pid %d: %d wakeups (min %d ns, max %d ns), run %d ns (it measured %d ns), sleep %d ns, "
      "switches %d (%d voluntary)" % (pid, t["wakeups"], min(lat), max(lat), t["run_ns"], cpu_ns,
      t["sleep_ns"], t["switches"], t["voluntary"]))
open(sys.argv[1] + ".wakeups", "w").write("%d %d %d %d\n" % (t["wakeups"], len(lat), min(lat),
                                                      t["voluntary"]))
open(sys.argv[1] + ".times", "w").write("%d %d %d\n" % (t["run_ns"], cpu_ns, t["sleep_ns"]))
PY
diag "$(cat "$T/load.out")"
read -r nwake nlat minlat nvol <"$T/s.json.wakeups" 2>/dev/null
read -r run cpu sleep <"$T/s.json.times" 2>/dev/null
# A loaded machine blocks python more often than its 100 sleeps (130
# voluntary switches at load 9): the bound above is its voluntary switches,
# each of which ends in one wakeup, plus the one that may start it.
check "the task that slept 100 times shows at least 100 wakeups, none without a sleep" '
	[ "${nwake:-0}" -ge 100 ] && [ "$nwake" -le $((nvol + 1)) ] && [ "$nlat" = "$nwake" ]'
check "every one of its latencies is > 0" '[ "${minlat:-0}" -gt 0 ]'
check "it slept about 1 s (>= 0.95 s)" '[ "${sleep:-0}" -ge 950000000 ]'
# the trace sees every slice the task ran; its own clock adds its exit
check "its run time is the CPU time it measured, within 20% + 3 ms" '
	d=$((run - cpu)); [ $d -lt 0 ] && d=$((-d)); [ $d -le $((cpu / 5 + 3000000)) ]'
trace-cmd report -t "$T/ev.dat" >"$T/report.txt" 2>/dev/null
check "every task's run time and switches equal the oracle's (trace-cmd report -t)" '
	python3 "$top_srcdir/tests/e2e/sched_oracle.py" compare "$T/report.txt" "$T/s.json" >"$T/o.out"'
diag "$(tail -3 "$T/o.out")"
trace-cmd report -w -t "$T/ev.dat" >"$T/report-w.txt" 2>/dev/null
"$FTLENS" sched --wakeups --wakeup-event sched_wakeup -F csv "$T/ev.dat" >"$T/w2.csv" 2>/dev/null
check "latencies from sched_wakeup equal trace-cmd report -w's on the same switches" '
	python3 "$top_srcdir/tests/e2e/sched_oracle.py" latency "$T/report-w.txt" "$T/w2.csv" >"$T/l.out"'
diag "$(tail -3 "$T/l.out")"
check "busy + idle = the window on every CPU" 'python3 -c "
import json, sys
for c in json.load(open(sys.argv[1]))[\"cpus\"]:
    assert c[\"busy_ns\"] + c[\"idle_ns\"] + c[\"unknown_ns\"] == c[\"window_ns\"], c
" "$T/s.json"'
finish
