#!/bin/sh
# `ftlens sched` on tests/data/sched/small.txt, a trace made by hand whose
# every figure is worked out below from its lines: CPU busy/idle/unknown/irq
# time, per-task run/wait/sleep, switches (voluntary, preempted), migrations,
# wakeup latency (from sched_waking, or sched_wakeup), interrupts, what falls
# in a marker span; goldens in text, CSV and JSON; sorting, --wakeups, usage
# errors; function_graph input (switches from the task each line names) and
# the rig's event trace: busy + idle + unknown = window on every CPU; hostile
# comms never reach the terminal raw. Regenerate goldens with
# FTL_UPDATE_GOLDEN=1 after checking the differences by eye.
. "$(dirname "$0")/lib.sh"
prereq PYTHON
make_tmpdir
E=$top_srcdir/tests/e2e/expected
# relative to tests/data, so that the goldens do not name the checkout
cd "$FTL_TESTDATA" || exit 1
S=sched/small.txt
plan 28

golden() { # NAME FILE: compare FILE with expected/NAME
	[ -n "${FTL_UPDATE_GOLDEN:-}" ] && cp "$2" "$E/$1"
	cmp -s "$E/$1" "$2" && return 0
	diff -u "$E/$1" "$2" | head -20 | sed 's/^/# /'
	return 1
}

"$FTLENS" sched "$S" >"$T/s.txt" 2>"$T/s.err"
check "sched exits 0 on the hand-made trace" '[ $? -eq 0 ]'
check "it says the 5 events lost on CPU 1" 'grep -q "LOST 5 EVENTS" "$T/s.err"'
check "text matches the golden" 'golden sched-small.txt "$T/s.txt"'
"$FTLENS" sched -F csv "$S" >"$T/s.csv" 2>/dev/null
check "CSV matches the golden" 'golden sched-small.csv "$T/s.csv"'
"$FTLENS" sched -F json "$S" >"$T/s.json" 2>/dev/null
check "JSON matches the golden" 'golden sched-small.json "$T/s.json"'

# The figures, worked out by hand from small.txt (times in us after 100 s):
# CPU 0 (window 0..10000): worker runs 0-2000, 2700-6000, 8000-10000 (7300),
# hog 6000-8000 (2000), idle 2000-2700 (700); irq 2500-2530, softirq 2540-2600.
# CPU 1 (window 500..10000): hog 500-1500, rt 1500-3000 (busy 2500), events
# lost between 3000 and 4000 (unknown 1000), idle 4000-10000 (6000).
# worker: woken 2600 (sched_waking) after sleeping 2000-2600, runs at 2700
# (latency 100, wait 100); preempted (R+) at 6000, runs again 8000 (wait
# 2000); switches S, R+, S. rt: woken at 1000 (waking; the wakeup at 1002 is
# the same wakeup), runs 1500 on CPU 1 (RT latency 500), sleeps from 4000 to
# the end (6000). hog: preempted 1500 on CPU 1, runs 6000 on CPU 0 (wait
# 4500, one migration), D at 8000 (sleep 2000).
cat >"$T/expect.py" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
us = 1000
cpus = {c["cpu"]: c for c in j["cpus"]}
tasks = {t["pid"]: t for t in j["tasks"]}
lat = {l["class"]: l for l in j["latency"]}
want = [
    (cpus[0]["window_ns"], 10000 * us), (cpus[0]["busy_ns"], 9300 * us),
    (cpus[0]["idle_ns"], 700 * us), (cpus[0]["hardirq_ns"], 30 * us),
    (cpus[0]["softirq_ns"], 60 * us), (cpus[1]["window_ns"], 9500 * us),
    (cpus[1]["busy_ns"], 2500 * us), (cpus[1]["unknown_ns"], 1000 * us),
    (cpus[1]["idle_ns"], 6000 * us), (cpus[1]["lost_events"], 5),
    (tasks[10]["run_ns"], 7300 * us), (tasks[10]["wait_ns"], 2100 * us),
    (tasks[10]["sleep_ns"], 600 * us), (tasks[10]["switches"], 3),
    (tasks[10]["voluntary"], 2), (tasks[10]["preempted"], 1),
    (tasks[20]["run_ns"], 1500 * us), (tasks[20]["wait_ns"], 500 * us),
    (tasks[20]["sleep_ns"], 6000 * us), (tasks[30]["run_ns"], 3000 * us),
    (tasks[30]["wait_ns"], 4500 * us), (tasks[30]["sleep_ns"], 2000 * us),
    (tasks[30]["migrations"], 1), (tasks[30]["preempted"], 1),
    (lat["all"]["count"], 2), (lat["rt"]["max_ns"], 500 * us),
    (lat["normal"]["max_ns"], 100 * us), (lat["rt"]["max_ts_ns"], 100001500 * us),
    (j["worst_wakeups"][0]["waker_comm"], "worker"),
    ([i["name"] for i in j["irqs"]], ["eth0", "NET_RX"]),
    (j["windows"][0]["wakeups_unserved"] + j["windows"][0]["switches_unwoken"], 0),
]
bad = [(i, g, w) for i, (g, w) in enumerate(want) if g != w]
for b in bad:
    print("figure %d: got %r, want %r" % b)
sys.exit(1 if bad else 0)
EOF
check "every figure is the one worked out by hand" 'python3 "$T/expect.py" "$T/s.json"'
python3 "$T/expect.py" "$T/s.json" | sed 's/^/# /'

"$FTLENS" sched --per-span 'begin (.*)' 'end \1' "$S" >"$T/span.txt" 2>/dev/null
check "--per-span matches the golden" 'golden sched-small-span.txt "$T/span.txt"'
"$FTLENS" sched -F json --per-span 'begin (.*)' 'end \1' "$S" >"$T/span.json" 2>/dev/null
# In the span (100 .. 5000 us): CPU 0 busy 100-2000 and 2700-5000, idle
# 2000-2700; hog waits 1500-5000; rt sleeps 4000-5000.
check "the span's figures are clipped to it" 'python3 -c "
import json, sys
j = json.load(open(sys.argv[1]))
c = [x for x in j[\"cpus\"] if x[\"span\"] == 1 and x[\"cpu\"] == 0][0]
t = {x[\"pid\"]: x for x in j[\"tasks\"] if x[\"span\"] == 1}
w = j[\"windows\"][1]
assert w[\"label\"] == \"begin phase\" and w[\"duration_ns\"] == 4900000, w
assert (c[\"busy_ns\"], c[\"idle_ns\"]) == (4200000, 700000), c
assert t[30][\"wait_ns\"] == 3500000 and t[20][\"sleep_ns\"] == 1000000, t
" "$T/span.json"'

order() { # SORT: the pids of the task table in that order
	"$FTLENS" sched -F csv -s "$1" "$S" 2>/dev/null |
		awk -F, '/^pid,comm/ { on = 1; next } on && NF == 0 { exit } on { printf "%s ", $1 }'
}
check "--sort run, wait, switches, latency, pid, comm" '
	[ "$(order run)" = "10 30 20 " ] && [ "$(order wait)" = "30 10 20 " ] &&
	[ "$(order switches)" = "10 30 20 " ] && [ "$(order latency)" = "20 10 30 " ] &&
	[ "$(order pid)" = "10 20 30 " ] && [ "$(order comm)" = "30 20 10 " ]'
"$FTLENS" sched -n 1 "$S" >"$T/top.txt" 2>/dev/null
check "--top 1 shows one task and says how many more" 'grep -q "Tasks by run time (1 of 3)" "$T/top.txt" && grep -q "(2 more rows" "$T/top.txt"'

"$FTLENS" sched --wakeups -F csv "$S" >"$T/w.csv" 2>/dev/null
check "--wakeups lists both wakeups with latency from sched_waking" '
	[ "$(cut -d, -f3,5 "$T/w.csv" | tr "\n" " ")" = "latency_ns,pid 500000,20 100000,10 " ]'
"$FTLENS" sched --wakeups --wakeup-event sched_wakeup -F csv "$S" >"$T/w2.csv" 2>/dev/null
check "--wakeup-event sched_wakeup measures from sched_wakeup (1002 -> 1500 us)" '
	[ "$(cut -d, -f3,5 "$T/w2.csv" | tr "\n" " ")" = "latency_ns,pid 498000,20 99000,10 " ]'

"$FTLENS" sched --cpu 1 -F csv "$S" >"$T/c1.csv" 2>/dev/null
check "--cpu 1: only CPU 1" 'awk -F, "/^cpu,start/ { on = 1; next } on && NF == 0 { exit } on { print \$1 }" "$T/c1.csv" | tr "\n" " " | grep -qx "1 "'
"$FTLENS" sched --time 100.0025,100.0027 -F json "$S" >"$T/tw.json" 2>/dev/null
check "--time: the window is the events inside it" '[ "$(json_get "$T/tw.json" "j[\"windows\"][0][\"duration_ns\"]")" = 200000 ]'

for bad in "--sort nope" "--wakeup-event sched_switch" "--top -1" "--per-span onlyone"; do
	# shellcheck disable=SC2086
	"$FTLENS" sched $bad "$S" >/dev/null 2>"$T/bad.err"
	rc=$?
	check "usage error for '$bad' (exit 2, one line)" '[ $rc -eq 2 ] && [ "$(wc -l <"$T/bad.err")" -eq 1 ]'
done

# Every CPU's window is busy + idle + unknown, whatever the input.
sum_ok() { # FILE: python check of the CPU table
	"$FTLENS" sched -F json "$1" >"$T/sum.json" 2>/dev/null &&
		python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
assert j["cpus"], "no CPUs"
for c in j["cpus"]:
    assert c["busy_ns"] + c["idle_ns"] + c["unknown_ns"] == c["window_ns"], c
print(j["windows"][0]["switches_inferred"] > 0)
' "$T/sum.json"
}
FG=$FTL_TESTDATA/vm/fgraph-options/combined.txt
EV=$FTL_TESTDATA/vm/events/default.txt
check "function_graph: busy + idle = window, switches inferred" '[ "$(sum_ok "$FG")" = True ]'
check "the rig's event trace: busy + idle = window, from sched_switch" '[ "$(sum_ok "$EV")" = False ]'
# fgraph-irq.txt (by hand): sh-97 runs 100-300 us with an interrupt from
# "==========>" at 200 to "<==========" at 240; <idle> from its first line
# at 400 to the end at 900 (the separator has no time: the switch is at the
# first line of the next task).
"$FTLENS" sched -F json "$FTL_TESTDATA/sched/fgraph-irq.txt" >"$T/fg.json" 2>/dev/null
check "function_graph: ==> lines are interrupts, separators switch the CPU" 'python3 -c "
import json, sys
j = json.load(open(sys.argv[1]))
i, c, t = j[\"irqs\"], j[\"cpus\"][0], j[\"tasks\"][0]
assert [(x[\"kind\"], x[\"total_ns\"]) for x in i] == [(\"irq\", 40000)], i
assert (c[\"busy_ns\"], c[\"idle_ns\"], c[\"hardirq_ns\"]) == (300000, 500000, 40000), c
assert (t[\"pid\"], t[\"run_ns\"], t[\"switches\"]) == (97, 300000, 1), t
" "$T/fg.json"'

# Hostile text: a comm with an escape sequence and a C1 CSI.
printf '%s\n' \
	"          <idle>-0       [000] d..2   100.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=ev$(printf '\033')[2Jil$(printf '\302\233')31m next_pid=66 next_prio=120" \
	"          <idle>-0       [000] d..2   100.001000: sched_switch: prev_comm=x prev_pid=66 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120" \
	>"$T/hostile.txt"
"$FTLENS" sched "$T/hostile.txt" >"$T/h.out" 2>&1
check "a hostile comm is shown escaped, never raw" '! grep -q "$(printf "\033")" "$T/h.out" && ! grep -q "$(printf "\302\233")" "$T/h.out" && grep -q "66" "$T/h.out"'
"$FTLENS" sched --wakeups "$T/hostile.txt" >/dev/null 2>&1
check "--wakeups on a trace without wakeups exits 0" '[ $? -eq 0 ]'
"$FTLENS" report --sched -F json "$S" >"$T/rep.json" 2>/dev/null
check "report --sched adds the CPU and task tables sched prints" 'python3 -c "
import json, sys
r, s = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert r[\"sched_cpus\"] == s[\"cpus\"] and r[\"sched_tasks\"] == s[\"tasks\"]
" "$T/rep.json" "$T/s.json"'
"$FTLENS" report -F json "$S" >"$T/rep0.json" 2>/dev/null
check "report without --sched has none of them" '! grep -q sched_cpus "$T/rep0.json"'
"$FTLENS" report --sched "$S" >"$T/rep.txt" 2>/dev/null
check "report --sched in text ends with the scheduling sections" 'grep -q "^Scheduling$" "$T/rep.txt" && grep -q "^Worst wakeups$" "$T/rep.txt"'
"$FTLENS" sched /nonexistent >/dev/null 2>"$T/ne.err"
check "a missing input: exit 1, its name in the message" '[ $? -eq 1 ] && grep -q nonexistent "$T/ne.err"'
"$FTLENS" sched "$FTL_TESTDATA/vm/fgraph-basic/trace.txt" >"$T/nots.txt" 2>&1
check "a trace without timestamps says so" 'grep -q "Window:     no events" "$T/nots.txt"'
finish
