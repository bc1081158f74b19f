#!/bin/sh
# A record killed by SIGKILL cannot remove its tracefs instance: it stays,
# tracing. `record --cleanup` (and the start of the next record) removes
# the instances ftlens named after its pid (ftlens-PID, ftlens-PID-N) whose
# process is gone, and never an instance of another name or of a live pid;
# with them the staging directory the killed record left beside its output.
. "$(dirname "$0")/lib.sh"
prereq TRACEFS
make_tmpdir
# Every `ftlens record` removes dead owners' instances when it starts, so
# another test's record would take the stale instances this one makes and
# checks: the live tests take turns.
tracefs_top_lock
I=$TR/instances
# a live pid that is not ftlens, and an instance named after it
sleep 300 &
live=$!
other=ftl-test-other-$$
cleanup() {
	kill "$live" 2>/dev/null
	rmdir "$I/ftlens-$live" "$I/$other" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
mkdir "$I/ftlens-$live" "$I/$other" || exit 1
"$FTLENS" record -e sched:sched_switch --duration 60 -o "$T/t.dat" >/dev/null 2>&1 &
rec=$!
n=0
# until it traces (the instance exists a moment before tracing_on is set)
while [ "$(cat "$I/ftlens-$rec/tracing_on" 2>/dev/null)" != 1 ] && [ $n -lt 100 ]; do
	sleep 0.2
	n=$((n + 1))
done
kill -9 "$rec"
wait "$rec" 2>/dev/null
plan 8
check "a record killed by SIGKILL leaves its instance ftlens-PID, tracing" '
	[ -d "$I/ftlens-$rec" ] && [ "$(cat "$I/ftlens-$rec/tracing_on")" = 1 ]
'
check "and no trace.dat, whole or partial" '[ ! -e "$T/t.dat" ]'
"$FTLENS" record --cleanup -o "$T/t.dat" >"$T/out" 2>"$T/err"
rc=$?
check "record --cleanup removes it and says so" '
	[ $rc -eq 0 ] && [ ! -d "$I/ftlens-$rec" ] &&
	grep -q "removed the instance ftlens-$rec left by pid $rec" "$T/err"
'
check "and the staging directory beside the output" '
	[ -z "$(ls -A "$T" | grep -v "^out\$\|^err\$")" ] && grep -q "removed .*/\.t\.dat\.ftlens-$rec-" "$T/err"
'
check "an instance of a live pid and one of another name are left alone" '
	[ -d "$I/ftlens-$live" ] && [ -d "$I/$other" ]
'
kill "$live"
wait "$live" 2>/dev/null
# a staging directory of a record that died (its pid gone), with a page
# file in it, beside the next record's output
sh -c 'exit 0' &
dead=$!
wait "$dead"
mkdir "$T/.u.dat.ftlens-$dead-AbC123" && echo page >"$T/.u.dat.ftlens-$dead-AbC123/cpu0"
"$FTLENS" record -e sched:sched_switch --duration 0.2 -o "$T/u.dat" >/dev/null 2>"$T/err2"
check "the next record removes an instance whose owner died since" '
	{ [ ! -d "$I/ftlens-$live" ] && grep -q "removed the instance ftlens-$live" "$T/err2" &&
	  [ -d "$I/$other" ] && [ -s "$T/u.dat" ] ||
	  { diag "record said: $(head -3 "$T/err2")"; false; }; }
'
check "and the staging directory a dead record left beside its output" '
	[ ! -e "$T/.u.dat.ftlens-$dead-AbC123" ] && grep -q "removed .*/\.u\.dat\.ftlens-$dead-AbC123, left by pid $dead" "$T/err2" &&
	[ -z "$(ls -A "$T" | grep "^\.")" ]
'
# a symlink named like a dead record's staging directory, to a directory
# that is not ftlens's: the sweep removes directories of its own user only,
# and never through a symlink
mkdir "$T/victim" && echo keep >"$T/victim/file" &&
	ln -s "$T/victim" "$T/.v.dat.ftlens-$dead-ZzZ999" || exit 1
"$FTLENS" record --cleanup -o "$T/v.dat" >/dev/null 2>"$T/err3"
check "a symlink named like a staging directory is not followed" '
	[ -f "$T/victim/file" ] && [ -L "$T/.v.dat.ftlens-$dead-ZzZ999" ] ||
	{ diag "$(ls -A "$T" "$T/victim")"; false; }
'
finish
