#!/bin/sh
# Lost-event counts from a trace are summed saturating and printed never
# negative (issue 31, item 7): LOST lines near 2^64 printed
# "lost_events": -1 in JSON and their sums wrapped (2^63 + 2^63 read as 0;
# a per-CPU sum in sched was a signed overflow). Every view that prints a
# lost count gives G_MAXINT64 instead, and no sanitizer speaks.
. "$(dirname "$0")/lib.sh"
prereq PYTHON
make_tmpdir

max=9223372036854775807
# CPU 0: 2^64-1 then 2^64-2 (each alone above G_MAXINT64); CPU 1: 2^63
# twice (a wrapped unsigned sum is 0); CPU 2: 2^62 three times (a signed
# sum overflows on the second addition past 2^63). lost.txt has
# timestamps and task switches (info, report, sched), lostfg.txt the same
# losses among function_graph calls (flame).
sw() {
	printf '          <idle>-0       [%03d] d..2.     %s: sched_switch: prev_comm=swapper/%d ' "$1" "$2" "$1"
	printf 'prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=sh next_pid=%d next_prio=120\n' "$3"
}
{
	echo "# tracer: nop"
	sw 0 1.000000 100
	echo "CPU:0 [LOST 18446744073709551615 EVENTS]"
	sw 0 1.100000 101
	echo "CPU:0 [LOST 18446744073709551614 EVENTS]"
	sw 1 1.200000 102
	echo "CPU:1 [LOST 9223372036854775808 EVENTS]"
	sw 1 1.300000 103
	echo "CPU:1 [LOST 9223372036854775808 EVENTS]"
	sw 2 1.400000 104
	echo "CPU:2 [LOST 4611686018427387904 EVENTS]"
	echo "CPU:2 [LOST 4611686018427387904 EVENTS]"
	echo "CPU:2 [LOST 4611686018427387904 EVENTS]"
	sw 2 1.500000 105
} >"$T/lost.txt"
{
	echo "# tracer: function_graph"
	echo "#"
	echo " 0)               |  outer() {"
	echo " 0)   1.000 us    |    inner();"
	echo "CPU:0 [LOST 18446744073709551615 EVENTS]"
	echo " 0)   2.000 us    |  }"
	echo "CPU:0 [LOST 18446744073709551614 EVENTS]"
	echo " 1)   1.000 us    |  one();"
	echo "CPU:1 [LOST 9223372036854775808 EVENTS]"
	echo " 1)   1.000 us    |  two();"
	echo "CPU:1 [LOST 9223372036854775808 EVENTS]"
	echo " 2)   1.000 us    |  three();"
	echo "CPU:2 [LOST 4611686018427387904 EVENTS]"
	echo "CPU:2 [LOST 4611686018427387904 EVENTS]"
	echo "CPU:2 [LOST 4611686018427387904 EVENTS]"
	echo " 2)   1.000 us    |  four();"
} >"$T/lostfg.txt"

# every lost-event count anywhere in $T/out, one per line: "lost_events"
# members, and the amount of the lost_events diagnostic
lost_members() {
	python3 -c '
import json, sys
def walk(v):
    if isinstance(v, dict):
        for k, x in v.items():
            if k == "lost_events" and isinstance(x, int):
                print(x)
            if k == "lost_events" and isinstance(x, dict) and "amount" in x:
                print(x["amount"])
            walk(x)
    elif isinstance(v, list):
        for x in v:
            walk(x)
walk(json.load(open(sys.argv[1])))' "$T/out"
}

plan 5

check "info --format json: each CPU and the total lost_events saturate at 2^63-1" '
	quiet info --format json "$T/lost.txt" && [ "$_rc" -eq 0 ] &&
	got=$(json_get "$T/out" "sorted((c[\"cpu\"], c[\"lost_events\"]) for c in j[\"quality\"][\"cpus\"] if c[\"lost_lines\"])") &&
	[ "$got" = "[(0, $max), (1, $max), (2, $max)]" ] || { diag "cpus: $got"; false; }
'

check "info, report, sched --format json: no lost count is negative or wrapped" '
	for cmd in info report sched; do
		quiet $cmd --format json "$T/lost.txt" && [ "$_rc" -eq 0 ] || exit 1
		lost_members >"$T/members"
		[ -s "$T/members" ] || { diag "$cmd: no lost_events member"; exit 1; }
		bad=$(grep -v "^$max\$" "$T/members" | grep -v "^0\$")
		[ -z "$bad" ] || { diag "$cmd: lost counts $(tr "\n" " " <"$T/members")"; exit 1; }
		grep -qx "$max" "$T/members" || { diag "$cmd: no saturated count"; exit 1; }
	done
'

check "info text: the Lost line and each CPU print 2^63-1, no minus sign" '
	quiet info "$T/lost.txt" && [ "$_rc" -eq 0 ] &&
	grep -q "^Lost: *$max events in 7 LOST lines" "$T/out" &&
	[ "$(grep -c "^ *[0-9].* lost $max\$" "$T/out")" -eq 3 ] && ! grep -q "lost -" "$T/out" ||
		{ diag "$(grep -i lost "$T/out")"; false; }
'

check "flame: the note gives the saturated total, 2^64-1, not a wrapped sum" '
	quiet flame -o "$T/f.svg" "$T/lostfg.txt" && [ "$_rc" -eq 0 ] &&
	grep -q "LOST 18446744073709551615 events (7 places)" "$T/f.svg" ||
		{ diag "$(grep -o "LOST[^;<]*" "$T/f.svg" | head -2)"; false; }
'

check "flame --chart: the same saturated total" '
	quiet flame --chart -o "$T/c.svg" "$T/lostfg.txt" && [ "$_rc" -eq 0 ] &&
	grep -q "LOST 18446744073709551615 events (7 places)" "$T/c.svg" ||
		{ diag "$(grep -o "LOST[^;<]*" "$T/c.svg" | head -2)"; false; }
'
finish
