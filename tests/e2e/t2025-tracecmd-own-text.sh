#!/bin/sh
# What trace-cmd report prints of its own, read from public captures
# (tests/data/README.md, tracecmd-text/): its lost-event lines, with and
# without a count and behind a buffer's name, become LOST records of their
# CPU, never "lines not recognized"; a kernel_stack block keeps the frame
# printed on its event line, and frames of its ftrace plugin, "func
# (ffffffff81282ac0)", give the function and the address apart.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
prereq PYTHON

d=$FTL_TESTDATA/tracecmd-text
make_tmpdir
plan 5

# lost FILE: "unparsed_lines cpu:count ..." of the LOST records
lost() {
	"$FTLENS" info --format json "$1" >"$T/info.json" 2>"$T/err" &&
		"$FTLENS" dump --format json "$1" >"$T/dump.json" 2>"$T/err" &&
		echo "$(json_get "$T/info.json" 'j["unparsed_lines"]')" \
			"$(json_get "$T/dump.json" '" ".join("%d:%s" % (e["cpu"], "unknown" if e["fields"]["count"] is None else e["fields"]["count"]) for e in j["events"] if e["kind"] == "lost")')"
}

check "CPU:7 [204600 EVENTS DROPPED]: a LOST record of CPU 7 with its count" '
	[ "$(lost "$d/trappy_thermal_events_dropped.txt")" = "0 7:204600" ]'
check "CPU:0 [EVENTS DROPPED]: a LOST record of CPU 0, its count not given, the line recognized" '
	[ "$(lost "$d/blog_fgraph_events_dropped_uncounted.txt")" = "0 0:unknown" ] &&
	"$FTLENS" info "$d/blog_fgraph_events_dropped_uncounted.txt" 2>/dev/null | grep -q "CPU 0 lost events (how many is not given)"'
# trace-cmd report of several buffers prints each line after the buffer's
# name ("%*s: "; the top buffer's is blank): no public capture found, the
# lines are made here the way trace-read.c prints them
printf '%s\n' 'version = 6' 'cpus=2' '     foo: CPU:1 [12 EVENTS DROPPED]' \
	'          CPU:0 [EVENTS DROPPED]' \
	'     foo:            bash-1     [001]    10.000001: sched_waking:         comm=a pid=2 prio=120 target_cpu=001' >"$T/inst.txt"
check "lost-event lines behind a buffer name are LOST records too" '
	[ "$(lost "$T/inst.txt")" = "0 1:12 0:unknown" ]'
check "plugin frames give the function, the address apart" '
	"$FTLENS" dump --format json "$d/lkml_func_stack_kernel_stack_plugin.txt" >"$T/s.json" &&
	[ "$(json_get "$T/s.json" "[(e[\"fields\"][\"stack\"][0], e[\"fields\"][\"addresses\"][0], e[\"fields\"][\"frames\"]) for e in j[\"events\"] if e[\"kind\"] == \"stack\"]")" = "[('"'"'setup_arg_pages'"'"', '"'"'ffffffff81282ac0'"'"', 9)]" ]'
# the first frame on the event line: libtraceevent printing the event's own
# format ("\t=> %ps\n\t=> %ps..."); no public capture found either
printf 'cpus=1\n            bash-9     [000]    20.000001: kernel_stack:         \t=> try_to_wake_up\n\t=> wake_up_process\n\t=> kthread\n' >"$T/ks.txt"
check "a kernel_stack block keeps the frame printed on its event line" '
	"$FTLENS" dump --format json "$T/ks.txt" >"$T/k.json" &&
	[ "$(json_get "$T/k.json" "[e[\"fields\"][\"stack\"] for e in j[\"events\"] if e[\"kind\"] == \"stack\"]")" = "[['"'"'try_to_wake_up'"'"', '"'"'wake_up_process'"'"', '"'"'kthread'"'"']]" ]'
finish
