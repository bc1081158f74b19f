#!/bin/sh
# Text from a trace is hostile: any process writes trace_marker and names its
# task, and function names come from modules. Terminal controls (ESC, OSC 52,
# BEL), C1 controls (the one-byte CSI 0x9b and U+009B), bidi overrides and
# invalid UTF-8 in comms, marker text and function names must never reach
# stdout or stderr raw, in any format; JSON stays valid.
. "$(dirname "$0")/lib.sh"
need_python
make_tmpdir
ev=$T/events.txt
fg=$T/fgraph.txt
# ESC [2J, OSC 52 ... BEL, raw 0x9b, U+009B, U+202E, a stray 0xff
h='\033[2J\033]52;c;aGk=\007\233X\302\233Y\342\200\256Z\377'
{
	printf '# tracer: nop\n#\n'
	printf '#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n'
	printf '#              | |         |   |||||     |         |\n'
	printf "        ev${h}il-96      [000] .....   100.000000: tracing_mark_write: start ${h}\n"
	printf "        ev${h}il-96      [000] .....   100.000100: sched_switch: prev_comm=ev${h}il prev_pid=96 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
	printf "          <idle>-0       [001] d....   100.000200: tracing_mark_write: end ${h}\n"
} >"$ev"
{
	printf '# tracer: function_graph\n#\n'
	printf '# CPU  DURATION                  FUNCTION CALLS\n'
	printf '# |     |   |                     |   |   |   |\n'
	printf " 0)               |  do${h}_sys() {\n"
	printf " 0)   1.000 us    |    leaf${h}();\n"
	printf " 0)   5.000 us    |  }\n"
	printf " 0)               |  /* ${h} */\n"
} >"$fg"
plan 5
# raw ESC, BEL, 0x9b byte (alone or as U+009B's second byte after 0xc2),
# U+202E's bytes, 0xff
scan() {
	LC_ALL=C grep -c "$(printf '[\033\007\233\377]\\|\342\200\256')" "$1"
}
runs=0
raw=""
badjson=""
for input in "$ev" "$fg"; do
	for cmd in info dump report graph markers; do
		for fmt in text csv json; do
			[ "$cmd" = dump ] && [ "$fmt" != text ] && continue
			[ "$cmd" = graph ] && [ "$fmt" = csv ] && continue
			"$FTLENS" "$cmd" --format "$fmt" "$input" >"$T/out" 2>"$T/err"
			runs=$((runs + 1))
			n=$(cat "$T/out" "$T/err" | scan /dev/stdin)
			[ "$n" -eq 0 ] || raw="$raw $cmd/$fmt/$(basename "$input")"
			if [ "$fmt" = json ] && [ -s "$T/out" ]; then
				python3 -c 'import json,sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$T/out" 2>/dev/null ||
					badjson="$badjson $cmd/$(basename "$input")"
			fi
		done
	done
done
if [ -z "$raw" ]; then ok "no raw control, C1, bidi or invalid byte in $runs outputs"; else not_ok "raw bytes in:$raw"; fi
if [ -z "$badjson" ]; then ok "every JSON output is valid UTF-8 JSON"; else not_ok "invalid JSON:$badjson"; fi
"$FTLENS" dump "$ev" >"$T/dump"
if grep -q 'text=start \\x1b\[2J\\x1b\]52;c;aGk=\\x07\\x9bX\\u009bY\\u202eZ\\xff' "$T/dump"; then
	ok "dump shows each class as util/escape.h says"
else
	not_ok "dump shows each class as util/escape.h says"; sed 's/^/# /' "$T/dump" | LC_ALL=C cat -v
fi
# a console log whose ftrace dump ends inside calls with hostile names: the
# oops view lists the calls still open and the last events of the CPU (the
# console reader drops ESC sequences as console colour codes; the rest shows)
oops=$T/console.log
{
	printf '[    9.5] Oops: general protection fault: 0000 [#1] SMP\n'
	printf '[    9.5] CPU: 1 PID: 96 Comm: ev%sil Not tainted 6.1.0 #1\n' "$h"
	printf '[    9.5] RIP: 0010:do_sys_open+0x10/0x20\n'
	printf '[    9.5] Dumping ftrace buffer:\n'
	printf '[    9.5] ---------------------------------\n'
	printf "[    9.5]  1)               |  do${h}_sys() {\n"
	printf "[    9.5]  1)               |    in${h}ner() {\n"
	printf "[    9.5]  1)   1.000 us    |      leaf${h}();\n"
	printf '[    9.5] ---------------------------------\n'
} >"$oops"
"$FTLENS" oops "$oops" >"$T/out" 2>"$T/err"
rc=$?
check "oops: open calls and last events shown, nothing raw ($rc)" \
	'[ $rc -eq 0 ] && grep -A2 "Calls still open" "$T/out" | grep -q "in52;c;aGk=.\\\\x9bX\\\\u009bY" &&
	 [ "$(cat "$T/out" "$T/err" | scan /dev/stdin)" -eq 0 ]'
# an error message quoting a hostile line is made visible too
{ printf "ev${h}il\n"; i=0; while [ $i -lt 40 ]; do echo "not a trace but a long line of plain prose"; i=$((i + 1)); done; } >"$T/notrace.txt"
"$FTLENS" info "$T/notrace.txt" >/dev/null 2>"$T/err"
if [ "$(scan "$T/err")" -eq 0 ] && grep -q 'ev\\x1b' "$T/err"; then ok "an error quoting the input is made visible"; else not_ok "an error quoting the input is made visible"; fi
finish
