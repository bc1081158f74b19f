#!/bin/sh
# Counter tracks on real captures: cpu_frequency (LISA's rt-app trace.dat),
# cpu_idle (trappy's idle trace.dat), thermal_temperature and cdev_update
# (trappy's arm32 trace.dat). `sched` sums the time per value per track in
# text, CSV and JSON (the schema holds); the figures are checked against
# the events `dump` prints (a value holds to the track's next event, the
# last to the trace's end); --counter adds any event's numeric field;
# `timeline` draws one lane per track whose bars carry the same time per
# value, and in Debian's chromium hovering a bar names its value.
# Screenshots in tests/e2e/t2205-sched-counters/ beside this test's log.
. "$(dirname "$0")/lib.sh"
prereq PYTHON
make_tmpdir
R=$FTL_REAL_DATA/raw
FREQ=$R/lisa_rtapp_6cpu_trace.dat
IDLE=$R/trappy_arm64_6cpu_idle_trace.dat
THERM=$R/trappy_arm32_8cpu_trace.dat
drive=$top_srcdir/tests/e2e/timeline_browser.js
shots=$PWD/tests/e2e/t2205-sched-counters
rm -rf "$shots" && mkdir -p "$shots" || exit 1
diag "screenshots in $shots"
browser() { node "$drive" "$FTL_NODE_MODULES" "$@"; }
plan 11

# The time per value of each track from dump's text, as an oracle:
# EVENT VALUEFIELD KEYFIELD; the end is the last event's time.
oracle() {
	"$FTLENS" dump "$1" | python3 -c '
import sys, collections
ev, vf, kf = sys.argv[1:4]
last = None; cur = {}; tot = collections.defaultdict(int)
for line in sys.stdin:
    f = line.split()
    if len(f) < 4: continue
    try: ts = round(float(f[0]) * 1e9)
    except ValueError: continue
    last = ts if last is None else max(last, ts)
    if (ev + ":") not in f: continue
    kv = dict(x.split("=", 1) for x in f[f.index(ev + ":") + 1:] if "=" in x)
    k = "cpu " + str(int(f[1])) if kf == "CPU" else kv[kf]; v = int(kv[vf])
    if ev == "cpu_idle" and v == 4294967295: v = -1
    if kf == "cpu_id": k = "cpu " + k
    if k in cur and cur[k][1] != v:
        tot[(k, cur[k][1])] += ts - cur[k][0]; cur[k] = (ts, v)
    elif k not in cur: cur[k] = (ts, v)
for k, (t0, v) in cur.items(): tot[(k, v)] += last - t0
for (k, v), ns in sorted(tot.items()): print(k, v, ns)
' "$2" "$3" "$4"
}
# sched's counters table, in the oracle's form, for one event
table() {
	python3 -c '
import json, sys
for c in json.load(open(sys.argv[1]))["counters"]:
    if c["event"] == sys.argv[2]: print(c["key"], c["value"], c["time_ns"])
' "$1" "$2" | sort
}

check_counter() { # FILE EVENT VALUEFIELD KEYFIELD NAME [SCHED OPTION]
	"$FTLENS" sched -F json ${6:+"$6"} "$1" >"$T/$5.json" &&
		FTL_SCHEMA_DIR=$top_srcdir/data/schema python3 "$top_srcdir/tests/e2e/json_schema.py" sched "$T/$5.json" &&
		table "$T/$5.json" "$2" >"$T/$5.got" && oracle "$1" "$2" "$3" "$4" | sort >"$T/$5.want" &&
		[ -s "$T/$5.want" ] && diff "$T/$5.want" "$T/$5.got"
}

if have_input "$FREQ" 3; then
	check "cpu_frequency: time per frequency per CPU as the events say; JSON as its schema" \
		'check_counter "$FREQ" cpu_frequency state cpu_id freq'
	check "text: the counters table names each CPU's frequencies and their share" \
		'"$FTLENS" sched "$FREQ" >"$T/freq.txt" &&
		 grep -q "^Counters: time per value" "$T/freq.txt" &&
		 grep -Eq "^freq +cpu_frequency +cpu 0 +700000 +3\.302 s +60\.6%" "$T/freq.txt"'
	check "CSV: the counters table, one row per track and value" \
		'"$FTLENS" sched -F csv "$FREQ" >"$T/freq.csv" &&
		 [ "$(grep -c "^freq,cpu_frequency," "$T/freq.csv")" = 8 ]'
fi
if have_input "$IDLE" 2; then
	check "cpu_idle: time per idle state per CPU, -1 (out of idle) included" \
		'check_counter "$IDLE" cpu_idle state cpu_id idle && grep -q "^cpu 0 -1 " "$T/idle.got"'
	check "--counter cpu_idle:cpu_id makes a user's track of another field" \
		'"$FTLENS" sched --counter cpu_idle:cpu_id -F csv "$IDLE" | grep -q "^user,cpu_idle,cpu 2,2,2," &&
		 ! "$FTLENS" sched --counter "cpu idle" "$IDLE" 2>"$T/err" &&
		 grep -q "expected EVENT:FIELD" "$T/err"'
	# a user's counter of an event ftlens parses itself (sched_switch), by
	# the CPU it was recorded on; one that draws nothing is an error
	check "--counter sched_switch:next_prio: time per prio per CPU as dump says; none is an error" \
		'check_counter "$IDLE" sched_switch next_prio CPU prio --counter=sched_switch:next_prio &&
		 [ "$(wc -l <"$T/prio.got")" -ge 6 ] &&
		 { "$FTLENS" sched --counter sched_switch:nope "$IDLE" >"$T/none.out" 2>"$T/err"; [ $? -eq 1 ]; } &&
		 [ ! -s "$T/none.out" ] &&
		 grep -q "sched: --counter sched_switch:nope: none of the [0-9]* sched_switch events in .* has a numeric nope" "$T/err" &&
		 { "$FTLENS" timeline --counter nosuch:x -o "$T/none.svg" "$IDLE" 2>"$T/err"; [ $? -eq 1 ]; } &&
		 [ ! -e "$T/none.svg" ] && grep -q "timeline: --counter nosuch:x: no nosuch event in" "$T/err"'
fi
if have_input "$THERM" 1; then
	check "thermal_temperature: time per temperature per zone" \
		'check_counter "$THERM" thermal_temperature temp thermal_zone therm'
fi
B=CHROMIUM,NODE_MODULES
if have_input "$FREQ" 2; then
	check "timeline: one counter lane per cpu_frequency track" \
		'"$FTLENS" timeline -o "$T/freq.svg" "$FREQ" &&
		 [ "$(grep -o "class=\"counter\"" "$T/freq.svg" | wc -l)" = 4 ]'
	check $B "browser: the counter bars carry sched's time per value; hover names it" \
		'browser counters "$T/freq.svg" "$shots/freq.png" "$T/freq.json"'
fi
if have_input "$IDLE" 2; then
	check "timeline: cpu_idle lanes, the CPUs' lanes as before" \
		'"$FTLENS" timeline -o "$T/idle.svg" "$IDLE" &&
		 [ "$(grep -o "class=\"counter\"" "$T/idle.svg" | wc -l)" = 5 ]'
	check $B "browser: idle-state bars as sched's; hover names the state" \
		'browser counters "$T/idle.svg" "$shots/idle.png" "$T/idle.json"'
fi
finish
