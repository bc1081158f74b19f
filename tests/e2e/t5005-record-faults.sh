#!/bin/sh
# ftlens record under faults on live tracefs: a ring buffer too small for
# the event rate (the losses are reported, the trace is kept), a tracer
# write refused with EBUSY, its own instance held open so that it cannot be
# removed, a CPU taken offline mid-run (live, through
# /sys/devices/system/cpu/cpuN/online, when this machine lets root do so),
# and a disk that fills while the pages are read and while the trace.dat
# is written (a small tmpfs). Each fault ends in one message naming the
# file, a nonzero exit, no output (whole or partial, staging directory
# included) and tracefs as it was: the instance removed, the top-level
# settings put back.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

prereq ROOT TRACEFS
make_tmpdir
I=$TR/instances
mnt=$T/small
held=
cpu_off=
cleanup() {
	[ -n "$held" ] && kill "$held" 2>/dev/null
	[ -n "$cpu_off" ] && echo 1 >"$cpu_off" 2>/dev/null
	grep -q " $mnt " /proc/mounts && umount "$mnt"
	rm -rf "$T"
}
trap cleanup EXIT
mkdir "$T/out" "$mnt" || exit 1

# no instance of that pid's left
no_instance() { ! ls "$I" | grep -qE "^ftlens-$1(-[0-9]+)?\$"; }
# stderr ($1) is one line, and it matches the pattern $2
one_error() {
	[ "$(wc -l <"$1")" -eq 1 ] && grep -q "$2" "$1" && return 0
	diag "$(cat "$1")"
	return 1
}
# a command making two system calls per byte: n bytes
syscalls() { dd if=/dev/zero of=/dev/null bs=1 count="$1" status=none; }

plan 13

# ---- the ring buffer overruns: losses counted and reported ---------------
# 8 KiB per CPU, while a command makes 200,000 system calls
"$FTLENS" record -e raw_syscalls -b 8 -o "$T/out/lost.dat" -- \
	dd if=/dev/zero of=/dev/null bs=1 count=100000 status=none >"$T/lost.out" 2>"$T/lost.err" &
rec=$!
wait $rec
rc=$?
check "a ring buffer overrun: the trace is kept, the losses reported with the cure" '
	[ $rc -eq 0 ] && [ -s "$T/out/lost.dat" ] && no_instance $rec &&
	grep -q "events were lost (overrun: .*a larger -b helps" "$T/lost.err"
'
check "and the losses are in the trace: ftlens info counts them per CPU" '
	"$FTLENS" info "$T/out/lost.dat" >"$T/lost.info" 2>&1 &&
	grep -q "^Lost: *[1-9][0-9]* events in [1-9][0-9]* LOST lines" "$T/lost.info"
'
rm -f "$T/out/lost.dat"

# ---- EBUSY: current_tracer while a reader holds trace_pipe ----------------
tracefs_top_lock
top_state() { cat "$TR/current_tracer" "$TR/tracing_on" "$TR/buffer_size_kb" "$TR/set_event"; }
cat "$TR/trace_pipe" >/dev/null 2>&1 &
held=$!
sleep 0.3
top_state >"$T/top-before"
"$FTLENS" record --top -p blk -b 64 --duration 0.3 -o "$T/out/busy.dat" \
	>"$T/busy.out" 2>"$T/busy.err"
rc=$?
check "EBUSY on current_tracer: one error naming the file and the cause, exit 1" '
	[ $rc -eq 1 ] && one_error "$T/busy.err" "$TR/current_tracer.*Device or resource busy"
'
check "no output, no staging directory; the top level settings as they were" '
	[ -z "$(ls -A "$T/out")" ] && top_state | cmp -s - "$T/top-before"
'
kill "$held"
wait "$held" 2>/dev/null
held=
exec 9>&-

# ---- EBUSY: the instance cannot be removed while a reader holds it -------
"$FTLENS" record -e sched:sched_switch --duration 1 -o "$T/out/held.dat" \
	>"$T/held.out" 2>"$T/held.err" &
rec=$!
n=0
while [ ! -e "$I/ftlens-$rec/trace_pipe" ] && [ $n -lt 50 ]; do
	sleep 0.1
	n=$((n + 1))
done
# held open, not read: a reader's cat could end when record stops the
# buffer, and the rmdir would then succeed (seen under make check)
sh -c 'exec 8<"$1" && exec sleep 60' sh "$I/ftlens-$rec/trace_pipe" 2>/dev/null &
held=$!
wait $rec
rc=$?
check "an instance held open: one error naming it, the cause and the way out" '
	[ $rc -eq 1 ] &&
	one_error "$T/held.err" "cannot remove the instance .*ftlens-$rec.*Device or resource busy.*rmdir"
'
check "and no trace.dat, whole or partial, nor its staging directory" '[ -z "$(ls -A "$T/out")" ]'
kill "$held"
wait "$held" 2>/dev/null
held=
"$FTLENS" record --cleanup -o "$T/out/held.dat" >/dev/null 2>"$T/held-clean.err"
check "once the reader is gone, record --cleanup removes the instance" '
	no_instance $rec && grep -q "removed the instance ftlens-$rec" "$T/held-clean.err"
'

# ---- a CPU goes offline mid-run ---------------------------------------------
cpu=$(ls -d /sys/devices/system/cpu/cpu[1-9]* 2>/dev/null | head -n 1)
if [ -n "$cpu" ] && [ "$(cat "$cpu/online" 2>/dev/null)" = 1 ] &&
	echo 0 >"$cpu/online" 2>/dev/null && echo 1 >"$cpu/online"; then
	"$FTLENS" record -e sched:sched_switch -e sched:sched_wakeup --duration 2 \
		-o "$T/out/hotplug.dat" >"$T/hp.out" 2>"$T/hp.err" &
	rec=$!
	sleep 0.6
	cpu_off=$cpu/online
	echo 0 >"$cpu_off"
	sleep 0.6
	echo 1 >"$cpu_off"
	cpu_off=
	wait $rec
	rc=$?
	check "${cpu##*/} taken offline and back mid-run: the trace is kept, every CPU in it" '
		[ $rc -eq 0 ] && "$FTLENS" info "$T/out/hotplug.dat" >"$T/hp.info" 2>&1 &&
		grep -q "^CPUs: *2 with events" "$T/hp.info"
	'
	check "and the instance removed, the CPU online again" '
		no_instance $rec && [ "$(cat "$cpu/online")" = 1 ]
	'
	rm -f "$T/out/hotplug.dat"
else
	skip "a CPU taken offline mid-run: no writable /sys/devices/system/cpu/cpuN/online here"
	skip "and the instance removed: no CPU hotplug"
fi

# ---- the disk fills --------------------------------------------------------
# while the pages are read: system calls made meanwhile fill 1 MiB
mount -t tmpfs -o size=1m ftlens-t5005 "$mnt" || exit 1
syscalls 400000 &
load=$!
"$FTLENS" record -e raw_syscalls -b 256 --duration 3 -o "$mnt/full.dat" \
	>"$T/full.out" 2>"$T/full.err" &
rec=$!
wait $rec
rc=$?
kill $load 2>/dev/null
wait $load 2>/dev/null
check "ENOSPC while the pages are read: one error naming the output and the cause" '
	[ $rc -eq 1 ] &&
	one_error "$T/full.err" "^ftlens: .$mnt/full.dat. not written: .*No space left on device"
'
check "and nothing left on the full disk, no instance left" '
	[ -z "$(ls -A "$mnt")" ] && no_instance $rec
'
umount "$mnt"
# while the trace.dat is written: the staged pages fit, the file (beside
# them until it is whole) does not. The command's own system calls only
# (--pid-filter): the same size each time.
"$FTLENS" record --pid-filter -e raw_syscalls -b 1024 -o "$T/probe.dat" -- dd if=/dev/zero of=/dev/null bs=1 count=20000 status=none >/dev/null 2>&1
size=$(stat -c %s "$T/probe.dat" 2>/dev/null)
rm -f "$T/probe.dat"
mount -t tmpfs -o size=$((${size:-0} * 3 / 2 / 1024))k ftlens-t5005 "$mnt" || exit 1
"$FTLENS" record --pid-filter -e raw_syscalls -b 1024 -o "$mnt/full.dat" -- dd if=/dev/zero of=/dev/null bs=1 count=20000 status=none \
	>"$T/full2.out" 2>"$T/full2.err" &
rec=$!
wait $rec
rc=$?
check "ENOSPC while the trace.dat is written: one error naming it, exit 1" '
	[ "${size:-0}" -gt 65536 ] && [ $rc -eq 1 ] &&
	one_error "$T/full2.err" "^ftlens: .$mnt/full.dat.: write: No space left on device"
'
check "and nothing left on the full disk, no instance left" '
	[ -z "$(ls -A "$mnt")" ] && no_instance $rec
'
finish
