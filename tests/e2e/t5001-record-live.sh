#!/bin/sh
# ftlens record on live tracefs (needs root and tracefs; skips otherwise):
# a trace.dat of events and the traced command's markers that trace-cmd
# report reads without a word on stderr and that ftlens and trace-cmd count
# alike, per event and per CPU; pages read while tracing runs; the one clear
# message for a refused tracer; --raw-dir's layout; tracefs left exactly as
# it was after a normal end, an error, SIGINT and SIGTERM (private instance
# and --top); the flight recorder with traceoff triggers; failed runs that
# leave no file.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

prereq TRACEFS TRACE_CMD PYTHON
make_tmpdir
tracefs_top_lock

# state: what must be the same before and after a capture (the instance
# list and the top level's settings).
state() {
	{
		# Instances of the kind ftlens makes; other tests on this machine
		# may hold differently named ones meanwhile.
		echo "instances: $(ls "$TR/instances" | grep -E '^(ftlens-[0-9]|t5001-)' | tr '\n' ' ')"
		for f in tracing_on current_tracer set_event buffer_size_kb trace_clock \
			trace_options set_event_pid events/sched/sched_switch/trigger \
			events/sched/sched_waking/trigger events/sched/sched_switch/filter; do
			echo "== $f"
			cat "$TR/$f" 2>/dev/null
		done
	} >"$1"
}
# ftlens puts everything back before it exits, so a difference that stays
# is ours; one that goes away within 10 s was another test on this machine
# changing the top level meanwhile (one that does not take the lock).
same_state() { # NAME: compare with $T/before
	i=0
	while [ $i -lt 20 ]; do
		state "$T/after-$1"
		cmp -s "$T/before" "$T/after-$1" && return 0
		[ $i -eq 0 ] && diag "$1: tracefs differs, looking again for 10 s"
		sleep 0.5
		i=$((i + 1))
	done
	diag "$(diff "$T/before" "$T/after-$1")"
	return 1
}
# Only our own files in $T/out (no staging directories, no temp files).
only() { # NAME...: the exact listing of $T/out
	[ "$(ls -A "$T/out" | tr '\n' ' ')" = "$* " ]
}

counts() { python3 "$top_srcdir/tests/e2e/event_counts.py" "$@"; }
# stops_at REPORT REGEX [N]: the hit ends at that event on its CPU
stops_at() {
	python3 "$top_srcdir/tests/e2e/stops_at.py" "$@" 2>"$T/stops.err" && return 0
	diag "$(cat "$T/stops.err")"
	return 1
}

plan 69
mkdir "$T/out"
state "$T/before"

# 1. events and a marker from the traced command
"$FTLENS" record -e sched -e irq -o "$T/out/ev.dat" -- \
	sh -c 'echo "t5001 marker $$" >"$FTLENS_TRACE_MARKER"; sleep 0.2' 2>"$T/rec.err"
check "record -e sched -e irq -- CMD exits 0" '[ $? -eq 0 ]'
check "the output is ev.dat and nothing else" 'only ev.dat'
check "record reports per-CPU pages and losses" 'grep -q '\''^CPU  *pages  *events  *overrun  *dropped'\'' "$T/rec.err"'
check "tracefs is as it was" 'same_state ev'
trace-cmd report "$T/out/ev.dat" >"$T/ev.report" 2>"$T/ev.report.err"
check "trace-cmd report reads it (exit $?)" '[ $? -eq 0 ]'
check "trace-cmd report says nothing on stderr" '[ ! -s "$T/ev.report.err" ]'
[ -s "$T/ev.report.err" ] && diag "$(head -5 "$T/ev.report.err")"
"$FTLENS" dump "$T/out/ev.dat" >"$T/ev.dump" 2>"$T/ev.dump.err"
check "ftlens dump reads it" '[ $? -eq 0 ]'
counts report "$T/ev.report" >"$T/ev.rc"
counts dump "$T/ev.dump" >"$T/ev.dc"
check "ftlens and trace-cmd count the same events per name and CPU ($(grep -vc '^marker' "$T/ev.rc") pairs)" 'cmp -s "$T/ev.rc" "$T/ev.dc"'
cmp -s "$T/ev.rc" "$T/ev.dc" || diag "$(diff "$T/ev.rc" "$T/ev.dc" | head -10)"
n_sched=$(grep -c 'sched_switch:' "$T/ev.report")
check "sched_switch events were recorded ($n_sched)" '[ "$n_sched" -gt 0 ]'
check "the command's marker is in the recording (trace-cmd)" 'grep -q '\''^marker t5001 marker [0-9]'\'' "$T/ev.rc"'
check "the command's marker is in the recording (ftlens)" 'grep -q '\''^marker t5001 marker [0-9]'\'' "$T/ev.dc"'
cpus_rep=$(grep -c 'cpu' "$T/ev.rc")
check "both sides saw events on the same CPUs" \
	'[ "$(sed -n '\''s/.* \(cpu[0-9]*\) .*/\1/p'\'' "$T/ev.rc" | sort -u)" = "$(sed -n '\''s/.* \(cpu[0-9]*\) .*/\1/p'\'' "$T/ev.dc" | sort -u)" ]'

# 2. pages are read while tracing runs: a 256 KB buffer per CPU holds a
# fraction of the 3000 markers of 400 bytes written, yet none is lost.
"$FTLENS" record -b 256 -e sched:sched_switch -o "$T/out/many.dat" -- sh -c \
	'pad=$(printf "%0400d" 0); i=0; while [ $i -lt 3000 ]; do echo "many $i $pad" >"$FTLENS_TRACE_MARKER"; i=$((i+1)); done' 2>"$T/many.err"
check "record -b 256 with 3000 markers exits 0" '[ $? -eq 0 ]'
trace-cmd report "$T/out/many.dat" >"$T/many.report" 2>/dev/null
n=$(grep -c 'print: .*many [0-9]' "$T/many.report")
check "all 3000 markers are in the recording ($n)" '[ "$n" -eq 3000 ]'
pages=$(awk '/^ *[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+$/ { p += $2 } END { print p + 0 }' "$T/many.err")
check "more pages were read ($pages) than the buffers hold (2 x 64)" '[ "$pages" -gt 128 ]'
check "and nothing was lost" 'awk '\''/^ *[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+$/ { l += $4 + $5 } END { exit l != 0 }'\'' "$T/many.err"'
rm -f "$T/out/many.dat"

# 2b. losses are counted, reported and kept: a 4 KB buffer against 4 MB of
# markers written as fast as dd can
"$FTLENS" record -b 4 -o "$T/out/loss.dat" -- sh -c \
	'head -c 4000000 /dev/zero | tr "\0" x | dd of="$FTLENS_TRACE_MARKER" bs=1000 2>/dev/null' 2>"$T/loss.err"
check "record -b 4 against a flood exits 0" '[ $? -eq 0 ]'
lost=$(awk '/^ *[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+$/ { l += $4 + $5 } END { print l + 0 }' "$T/loss.err")
check "the per-CPU table shows the losses ($lost)" '[ "$lost" -gt 0 ]'
check "and a line says events were lost" 'grep -q "^ftlens: $lost events were lost" "$T/loss.err"'
trace-cmd dump --options "$T/out/loss.dat" >"$T/loss.opts" 2>/dev/null
saved=$(awk '/^overrun:/ { o += $2 } /^dropped events:/ { o += $3 } END { print o + 0 }' "$T/loss.opts")
check "the trace.dat keeps each CPU's statistics (CPUSTAT: $saved lost)" '[ "$saved" -eq "$lost" ]'
pages_lost=$("$FTLENS" info --json "$T/out/loss.dat" 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["lost_events"])' 2>/dev/null)
check "the pages carry the same losses for ftlens info (${pages_lost:-?})" '[ "${pages_lost:-0}" -eq "$lost" ]'
clock=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$TR/trace_clock")
check "the trace clock is in the file" 'trace-cmd dump --summary "$T/out/loss.dat" 2>/dev/null | grep -A1 "Tracing clock" | grep -q "\[$clock\]"'
rm -f "$T/out/loss.dat"

# 2c. --pid-filter (trace-cmd's -F): only the command's events; -P PID
# (trace-cmd's -P): only a running process's; --duration without a command
"$FTLENS" record --pid-filter -e raw_syscalls -o "$T/out/pid.dat" -- cat /proc/version >/dev/null 2>&1
check "record --pid-filter exits 0" '[ $? -eq 0 ]'
trace-cmd report "$T/out/pid.dat" 2>/dev/null | awk '/ \[[0-9]+\] / { print $1 }' | sort -u >"$T/pid.tasks"
check "--pid-filter: every syscall event is the command's ($(tr '\n' ' ' <"$T/pid.tasks"))" \
	'[ $(wc -l <"$T/pid.tasks") -eq 1 ] && grep -q "^cat-" "$T/pid.tasks"'
sh -c 'while :; do cat /proc/version >/dev/null; sleep 0.05; done' &
busy=$!
"$FTLENS" record -P "$busy" -e raw_syscalls -e sched:sched_process_fork --duration 1 \
	-o "$T/out/ppid.dat" >/dev/null 2>&1
rc=$?
kill "$busy" 2>/dev/null
wait "$busy" 2>/dev/null
trace-cmd report "$T/out/ppid.dat" 2>/dev/null >"$T/ppid.txt"
awk '/ \[[0-9]+\] / { print $1 }' "$T/ppid.txt" | sed 's/.*-//' | sort -u >"$T/ppid.pids"
# The loop and what it forked while recorded (event-fork), by the trace's
# own fork events: a pid outside that family is a leak. Unfiltered, a second
# of raw_syscalls holds ftlens's own reads and many other pids.
awk -v busy="$busy" 'BEGIN { fam[busy] = 1 }
	/ sched_process_fork: / {
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^pid=/) p = substr($i, 5)
			if ($i ~ /^child_pid=/) c = substr($i, 11)
		}
		if (p in fam) fam[c] = 1
	}
	END { for (f in fam) print f }' "$T/ppid.txt" | sort -u >"$T/ppid.family"
# A child forked after the filter was set but before tracing began is
# followed (event-fork) with no fork event in the buffer: outside the
# family, a pid passes only as what the loop runs (cat, sleep, its sh).
comm -23 "$T/ppid.pids" "$T/ppid.family" | while read -r p; do
	awk -v p="$p" '/ \[[0-9]+\] / { n = $1; sub(/-[0-9]+$/, "", n); q = $1; sub(/.*-/, "", q)
		if (q == p) print n }' "$T/ppid.txt" | sort -u | grep -vx 'cat\|sleep\|sh' | sed "s/$/-$p/"
done >"$T/ppid.foreign"
check "-P $busy: exit $rc, the loop's events ($(grep -c " sh-$busy " "$T/ppid.txt")) and its children's only ($(tr '\n' ' ' <"$T/ppid.pids"))" \
	'[ $rc -eq 0 ] && grep -qx "$busy" "$T/ppid.pids" && [ $(wc -l <"$T/ppid.pids") -gt 1 ] &&
	{ [ ! -s "$T/ppid.foreign" ] || { diag "foreign: $(tr "\n" " " <"$T/ppid.foreign")"; false; }; }'
rm -f "$T/out/ppid.dat"
"$FTLENS" record -e sched:sched_switch --duration 0.5 -o "$T/out/dur.dat" 2>"$T/dur.err"
rc=$?
check "--duration 0.5 stops by itself (exit $rc)" '[ $rc -eq 0 ] && grep -q "recorded 0\.[5-9][0-9]* s" "$T/dur.err"'
rm -f "$T/out/pid.dat" "$T/out/dur.dat"

# 3. a tracer the kernel refuses: one clear message, no file, no trace
probe=$TR/instances/t5001-probe-$$
mkdir "$probe" 2>/dev/null
if echo function >"$probe/current_tracer" 2>/dev/null; then fn_ok=1; else fn_ok=0; fi
echo nop >"$probe/current_tracer" 2>/dev/null
rmdir "$probe"
"$FTLENS" record -p function -o "$T/out/fn.dat" -- true 2>"$T/fn.err"
rc=$?
if [ $fn_ok = 0 ]; then
	check "-p function where the kernel refuses it exits 1" '[ $rc -eq 1 ]'
	check "one line on stderr" '[ "$(wc -l <"$T/fn.err")" -eq 1 ]'
	check "it names the tracer and the refusal" 'grep -q "tracer '\''function'\'' refused by the kernel.*Operation not permitted" "$T/fn.err"'
	check "it says events still work" 'grep -q '\''trace events (-e) still work'\'' "$T/fn.err"'
	check "no output file" 'only ev.dat'
else
	check "-p function works here (exit $rc)" '[ $rc -eq 0 ]'
	skip "one line on stderr: the kernel allows function tracing"
	check "function events were recorded" 'trace-cmd report "$T/out/fn.dat" | grep -q " function: "'
	skip "events still work: function tracing allowed"
	rm -f "$T/out/fn.dat"
	check "no output file left" 'only ev.dat'
fi
check "tracefs is as it was after the refusal" 'same_state fn'

# 4. --raw-dir writes the tracefs layout
"$FTLENS" record -e sched:sched_switch -e sched:sched_waking --raw-dir "$T/out/raw" -- sleep 0.1 2>/dev/null
check "record --raw-dir exits 0" '[ $? -eq 0 ]'
R=$T/out/raw
ok_layout=1
for f in events/header_page events/header_event events/sched/sched_switch/format \
	events/sched/sched_waking/format events/ftrace/print/format printk_formats \
	saved_cmdlines trace_clock per_cpu/cpu0/trace_pipe_raw per_cpu/cpu0/stats; do
	[ -f "$R/$f" ] || { diag "missing $f"; ok_layout=0; }
done
check "the raw directory has the formats, headers, per-CPU pages and stats" '[ $ok_layout = 1 ]'
if [ -r /proc/kallsyms ]; then
	check "and kallsyms" '[ -s "$R/kallsyms" ]'
else
	ok "# SKIP kallsyms: /proc/kallsyms is not readable"
fi
bytes=$(cat "$R"/per_cpu/cpu*/trace_pipe_raw | wc -c)
check "the pages are whole 4 KB pages, some of them ($bytes bytes)" '[ "$bytes" -gt 0 ] && [ $((bytes % 4096)) -eq 0 ]'
check "only the enabled events' formats besides ftrace's" \
	'[ "$(cd "$R/events" && ls -d */* | grep -v '\''^ftrace/'\'' | tr '\''\n'\'' '\'' '\'')" = "sched/sched_switch sched/sched_waking " ]'
check "the output is ev.dat and raw, no staging left" 'only ev.dat raw'

# 5. a user-named instance is kept in the trace.dat
"$FTLENS" record --instance "t5001-$$" -e sched:sched_switch -o "$T/out/inst.dat" -- sleep 0.1 2>/dev/null
check "--instance NAME exits 0" '[ $? -eq 0 ]'
check "trace-cmd report prints the instance name" 'trace-cmd report "$T/out/inst.dat" 2>/dev/null | grep -q "^t5001-$$: "'
check "the instance is gone" '[ ! -e "$TR/instances/t5001-$$" ]'
rm -f "$T/out/inst.dat"

# 6. failures leave nothing
"$FTLENS" record -e no_such_event_t5001 -o "$T/out/bad.dat" -- true 2>"$T/bad.err"
check "an unknown event is a usage error (exit $?)" '[ $? -eq 2 ]'
"$FTLENS" record -e sched -o "$T/out/bad.dat" -- /nonexistent/t5001 2>"$T/bad2.err"
rc=$?
check "a command that cannot run is an error (exit $rc)" '[ $rc -eq 1 ] && grep -q "cannot run .*/nonexistent/t5001" "$T/bad2.err"'
check "failed runs leave no file and no staging directory" 'only ev.dat raw'
check "tracefs is as it was after the failures" 'same_state bad'

# 7. SIGINT and SIGTERM mid-run: a complete file, tracefs as it was.
# tracing_started PID: the command has started (it touches $T/started), or
# ftlens's instance is tracing sched_switch.
tracing_started() {
	[ -e "$T/started" ] && return 0
	d=$TR/instances/ftlens-$1
	[ "$(cat "$d/events/sched/sched_switch/enable" 2>/dev/null)" = 1 ] &&
		[ "$(cat "$d/tracing_on" 2>/dev/null)" = 1 ]
}
# mid_run SIG ERRFILE ARGS...: ftlens record ARGS in the background, SIG once
# it traces; rc is its exit status.
mid_run() {
	sig=$1 err=$2
	shift 2
	rm -f "$T/started"
	"$FTLENS" record "$@" 2>"$err" &
	pid=$!
	i=0
	while [ $i -lt 100 ] && ! tracing_started $pid; do
		sleep 0.1
		i=$((i + 1))
	done
	sleep 0.3
	kill -"$sig" $pid
	wait $pid
	rc=$?
}
started_cmd="touch '$T/started'; exec sleep 30"
mid_run INT "$T/int.err" -e sched -o "$T/out/int.dat"
check "SIGINT ends the recording normally (exit $rc)" '[ $rc -eq 0 ]'
check "tracefs is as it was after SIGINT" 'same_state int'
check "the SIGINT recording is complete for trace-cmd" 'trace-cmd report "$T/out/int.dat" 2>&1 >/dev/null | grep -q . && exit 1; trace-cmd report "$T/out/int.dat" | grep -q sched_switch'
mid_run TERM "$T/term.err" -e sched -o "$T/out/term.dat" -- sh -c "$started_cmd"
check "SIGTERM ends the recording (exit $rc)" '[ $rc -eq 0 ]'
check "the command was stopped too" 'grep -q '\''command was killed by signal 15'\'' "$T/term.err"'
check "tracefs is as it was after SIGTERM" 'same_state term'
# --top changes top-level settings; a signal must not leave them changed
mid_run INT "$T/top.err" --top -b 256 -C global -O record-tgid -e sched:sched_switch \
	-f 'prev_pid != 0' -o "$T/out/top.dat" -- sh -c "$started_cmd"
check "--top with -b -C -O -e -f, SIGINT: exit $rc" '[ $rc -eq 0 ]'
check "top-level settings are as they were after --top and SIGINT" 'same_state top'
check "the --top recording holds the filtered events" 'trace-cmd report "$T/out/top.dat" | grep -q "sched_switch:" && ! trace-cmd report "$T/out/top.dat" | grep -q "swapper/[0-9]*:0 .*==>"'
mid_run TERM "$T/top2.err" --top -b 256 -e sched -o "$T/out/top2.dat" -- sh -c "$started_cmd"
check "top-level settings are as they were after --top and SIGTERM" 'same_state top2'
rm -f "$T/out/int.dat" "$T/out/term.dat" "$T/out/top.dat" "$T/out/top2.dat"

# 8. the flight recorder: a traceoff trigger stops tracing, the buffer is
# saved, tracing is re-armed
"$FTLENS" record --flight --hits 2 --stop-on sched:sched_switch -e sched -e irq \
	-o "$T/out/fl.dat" 2>"$T/fl.err"
check "--flight --hits 2 --stop-on sched:sched_switch exits 0" '[ $? -eq 0 ]'
check "it wrote fl.hit1.dat and fl.hit2.dat" 'only ev.dat fl.hit1.dat fl.hit2.dat raw'
for k in 1 2; do
	trace-cmd report "$T/out/fl.hit$k.dat" >"$T/fl$k.report" 2>"$T/fl$k.err"
	rc=$?
	check "trace-cmd report reads hit $k without complaint" '[ $rc -eq 0 ] && [ ! -s "$T/fl$k.err" ]'
	check "hit $k stops at a sched_switch" \
		'stops_at "$T/fl$k.report" '\''sched_switch:'\'''

done
check "the trigger is removed and the top level is as it was" 'same_state flight'
cp "$(command -v sleep)" "$T/t5001sleep"
"$FTLENS" record --flight --stop-on 'sched:sched_waking:comm=="t5001sleep"' -e sched \
	-o "$T/out/fw.dat" -- sh -c "sleep 0.3; exec '$T/t5001sleep' 0.2" 2>"$T/fw.err"
check "--stop-on with a filter exits 0" '[ $? -eq 0 ]'
trace-cmd report "$T/out/fw.hit1.dat" >"$T/fw.report" 2>/dev/null
check "hit 1 stops at the filtered event" \
	'stops_at "$T/fw.report" '\''sched_waking:.*comm=t5001sleep'\'''

check "top level as it was after the filtered trigger" 'same_state flight2'
rm -f "$T/out"/fl.hit*.dat "$T/out"/fw.hit*.dat

# 9. the stack tracer: a clear error where the kernel has none
if [ -e /proc/sys/kernel/stack_tracer_enabled ]; then
	"$FTLENS" record --stack --duration 1 -o "$T/out/stack.txt" 2>/dev/null
	check "--stack --duration 1 exits 0" '[ $? -eq 0 ]'
	check "the series header" 'grep -q '\''^# ftlens-stack-series v1 kernel=.* clock=monotonic$'\'' "$T/out/stack.txt"'
	rm -f "$T/out/stack.txt"
else
	"$FTLENS" record --stack --duration 1 -o "$T/out/stack.txt" 2>"$T/stack.err"
	check "--stack without a stack tracer exits 1" '[ $? -eq 1 ]'
	check "and says the kernel has none" 'grep -q '\''no stack tracer.*CONFIG_STACK_TRACER'\'' "$T/stack.err"'
fi
check "no stack file where none was made" 'only ev.dat raw'
check "tracefs is as it was at the end" 'same_state end'
finish
