#!/bin/sh
# ftlens capture-script: the board script is POSIX sh (busybox sh -n, dash -n,
# checkbashisms), refuses what a board's shell could not take, and carries
# its settings whole; ftlens reads a raw capture in a tar (plain, gzip,
# zstd) as it reads the directory, with the kernel release of its uname and
# the losses of its stats, and a hostile tar (climbing names, absolute
# names, links, huge members, two captures) writes nothing outside a
# private unlinked file and ends in one clear error. With root and tracefs
# the script runs for real under busybox sh and dash: every event and every
# marker of the burst is read back, the same as trace-cmd decodes from the
# very pages, and the instance is gone after an end, SIGTERM and SIGKILL
# (the next run's cleanup).
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
prereq PYTHON
make_tmpdir
H=$(dirname "$0")

probe_BUSYBOX() { command -v busybox >/dev/null 2>&1 || { prereq_why="busybox is not installed"; return 1; }; }
probe_DASH() { command -v dash >/dev/null 2>&1 || { prereq_why="dash is not installed"; return 1; }; }
probe_CHECKBASHISMS() { command -v checkbashisms >/dev/null 2>&1 || { prereq_why="checkbashisms (devscripts) is not installed"; return 1; }; }
probe_ZSTD() { command -v zstd >/dev/null 2>&1 || { prereq_why="zstd is not installed"; return 1; }; }

plan 51

# ---- the script itself -----------------------------------------------------
S=$T/scripts
mkdir -p "$S"
"$FTLENS" capture-script -p function_graph -g do_sys_openat2 -g ksys_read --max-graph-depth 3 \
	-O funcgraph-proc -O nofuncgraph-irqs -e sched:sched_switch -e irq -b 1024 -C mono \
	--cpu 0,2-3 --duration 1.5 -- sh -c 'ftl_marker "it'\''s $HOME"' >"$S/record.sh"
check "capture-script writes a script" '[ $? -eq 0 ] && head -1 "$S/record.sh" | grep -qx "#!/bin/sh"'
"$FTLENS" capture-script --flight --hits 2 --stop-on 'sched:sched_process_exec:pid > 1' -p function \
	-l 'vfs_*' -n vfs_read -e sched -o "$S/flight.sh"
"$FTLENS" capture-script --oops --oops-cpu -p function_graph -g do_sys_openat2 -b 64 >"$S/oops.sh"
"$FTLENS" capture-script -e all --until-off -P 1 >"$S/until.sh"
"$FTLENS" capture-script --pid-filter -e sched -- ls -l / >"$S/pidf.sh"
n=0
for f in "$S"/*.sh; do [ -s "$f" ] && n=$((n + 1)); done
check "five kinds of script written ($n)" '[ "$n" -eq 5 ]'
for f in "$S"/*.sh; do
	b=${f##*/}
	check BUSYBOX "$b: busybox sh -n accepts it" 'busybox sh -n "$f"'
	check DASH "$b: dash -n accepts it" 'dash -n "$f"'
done
check CHECKBASHISMS "checkbashisms finds no bash-ism in any" 'checkbashisms -f -p "$S"/*.sh 2>"$T/cb.err"'
[ -s "$T/cb.err" ] && diag "$(head -5 "$T/cb.err")"

# settings: evaluate the block alone and look at the values
settings() { # SCRIPT VAR
	sed -n '/^# ---- settings, from/,/^# ---- end of the settings/p' "$1" >"$T/set.sh"
	sh -c ". \"$T/set.sh\"; eval \"printf '%s\\n' \\\"\\\$$2\\\"\""
}
settings "$S/record.sh" COMMAND >/dev/null
check "the command reaches the board word for word" \
	'[ "$(sh -c ". \"$T/set.sh\"; eval \"set -- \$COMMAND\"; printf \"%s|\" \"\$@\"")" = "sh|-c|ftl_marker \"it'\''s \$HOME\"|" ]'
check "--cpu 0,2-3 is the list 0 2 3 and tracing_cpumask d" \
	'[ "$(settings "$S/record.sh" CPUS)" = "0 2 3" ] && [ "$(settings "$S/record.sh" CPUMASK)" = d ]'
"$FTLENS" capture-script --cpu 1,33 >"$S/cpu33.sh"
check "CPU 33 sets the second 32-bit group of the mask" '[ "$(settings "$S/cpu33.sh" CPUMASK)" = "2,00000002" ]'
check "duration, options, graph functions and flight settings as given" \
	'[ "$(settings "$S/record.sh" DURATION_CS)" = 150 ] &&
	 [ "$(settings "$S/record.sh" OPTIONS)" = "funcgraph-proc nofuncgraph-irqs" ] &&
	 [ "$(settings "$S/record.sh" GRAPH)" = "do_sys_openat2 ksys_read" ] &&
	 [ "$(settings "$S/flight.sh" MODE)" = flight ] && [ "$(settings "$S/flight.sh" HITS)" = 2 ] &&
	 [ "$(settings "$S/flight.sh" STOP_ON)" = "sched:sched_process_exec:pid > 1" ] &&
	 [ "$(settings "$S/oops.sh" OOPS_DUMP)" = 2 ]'

# usage errors: exit 2, one line, nothing written
refused() { # WHY ARGS...
	why=$1
	shift
	"$FTLENS" capture-script "$@" >"$T/u.out" 2>"$T/u.err"
	[ $? -eq 2 ] && [ ! -s "$T/u.out" ] && [ "$(wc -l <"$T/u.err")" -eq 1 ] && grep -q "$why" "$T/u.err"
}
check "an event name with a blank is refused" 'refused "not a name" -e "sched sched_switch"'
check "a function with shell characters is refused" 'refused "not a name" -g "x;reboot"'
check "a quote in a tracer name is refused" 'refused "not a name" -p "function'\''"'
check "--flight with --oops is refused" 'refused "separate modes" --flight --oops'
check "--hits without --flight is refused" 'refused "go with --flight" --hits 2'
check "--pid-filter without a command is refused" 'refused "give one after" --pid-filter'
check "a bad --stop-on is refused" 'refused "SYSTEM:EVENT" --flight --stop-on sched'
check "a bad CPU list is refused" 'refused "list of numbers" --cpu 1-x'

# ---- reading a capture in a tar ---------------------------------------------
V=$FTL_TESTDATA/vm/raw/raw
C=$T/cap
mkdir -p "$C"
cp -R "$V/." "$C/"
echo 'Linux board 6.1.0-28-armmp #1 SMP Debian 6.1.119-1 (2024-11-22) armv7l GNU/Linux' >"$C/uname"
"$FTLENS" dump "$C" >"$T/dir.dump" 2>"$T/dir.err"
check "the directory reads ($(wc -l <"$T/dir.dump") events)" '[ -s "$T/dir.dump" ]'
(cd "$C" && tar -cf "$T/cap.tar" .)
(cd "$C" && busybox tar -cf - . >"$T/bb.tar") 2>/dev/null || cp "$T/cap.tar" "$T/bb.tar"
gzip -c "$T/cap.tar" >"$T/cap.tar.gz"
for t in cap.tar bb.tar cap.tar.gz; do
	check "ftlens dump $t: the same events as the directory" \
		'"$FTLENS" dump "$T/$t" >"$T/t.dump" 2>"$T/t.err" && cmp -s "$T/dir.dump" "$T/t.dump"'
done
check ZSTD "ftlens dump of a zstd tar: the same events" \
	'zstd -q -c "$T/cap.tar" >"$T/cap.tar.zst" && "$FTLENS" dump "$T/cap.tar.zst" >"$T/t.dump" 2>/dev/null && cmp -s "$T/dir.dump" "$T/t.dump"'
check "a tar on standard input reads too" '"$FTLENS" dump - <"$T/cap.tar" >"$T/t.dump" 2>/dev/null && cmp -s "$T/dir.dump" "$T/t.dump"'
"$FTLENS" info "$T/cap.tar.gz" >"$T/info" 2>&1
check "info shows the board's kernel release from uname" 'grep -qx "Kernel:   6.1.0-28-armmp" "$T/info"'
check "info --json: kernel" '"$FTLENS" info --json "$T/cap.tar" | python3 -c "import json, sys; assert json.load(sys.stdin)[\"kernel\"] == \"6.1.0-28-armmp\""'
# a capture one directory down (tar of the directory, not of its content)
(cd "$T" && tar -cf "$T/sub.tar" cap)
check "a capture below a directory of the tar reads the same" \
	'"$FTLENS" dump "$T/sub.tar" >"$T/t.dump" 2>/dev/null && cmp -s "$T/dir.dump" "$T/t.dump"'

# the losses of the stats, when the pages tell of none
L=$T/lost
cp -R "$C" "$L"
printf 'entries: 0\noverrun: 42\ncommit overrun: 0\nbytes: 0\ndropped events: 3\nread events: 10\n' >"$L/per_cpu/cpu1/stats"
(cd "$L" && tar -czf "$T/lost.tgz" .)
# lost_amount INPUT: the losses info counts (the pages' marks and the stats)
lost_amount() {
	"$FTLENS" info --json "$1" | python3 -c 'import json, sys; print(json.load(sys.stdin)["diagnostics"].get("lost_events", {}).get("amount", 0))'
}
check "lost events from the saved stats: 45 on CPU 1, dir and tar alike" \
	'[ "$(lost_amount "$L")" = 45 ] && [ "$(lost_amount "$T/lost.tgz")" = 45 ]'

# hostile archives: made by python's tarfile, nothing extracted, nothing left
mkdir -p "$T/tmp" "$T/victim"
python3 - "$T" "$C" <<'PY'
import io, os, sys, tarfile
T, C = sys.argv[1], sys.argv[2]
def add_dir(tf, prefix=""):
    for root, dirs, files in os.walk(C):
        for f in files:
            p = os.path.join(root, f)
            tf.add(p, arcname=prefix + os.path.relpath(p, C))
def blob(tf, name, data, kind=tarfile.REGTYPE, link=""):
    ti = tarfile.TarInfo(name)
    ti.type = kind
    ti.linkname = link
    ti.size = len(data) if kind == tarfile.REGTYPE else 0
    tf.addfile(ti, io.BytesIO(data) if kind == tarfile.REGTYPE else None)
with tarfile.open(T + "/evil.tar", "w", format=tarfile.GNU_FORMAT) as tf:
    add_dir(tf)
    blob(tf, "../../victim/climb", b"x")
    blob(tf, "/" + T.lstrip("/") + "/victim/abs", b"x")
    blob(tf, "../per_cpu/cpu7/trace_pipe_raw", b"\0" * 4096)
    blob(tf, "per_cpu/cpu5/trace_pipe_raw", b"", tarfile.SYMTYPE, "/etc/passwd")
    blob(tf, "per_cpu/cpu6/trace_pipe_raw", b"", tarfile.LNKTYPE, "per_cpu/cpu0/trace_pipe_raw")
with tarfile.open(T + "/links.tar", "w") as tf:
    blob(tf, "events/header_page", b"", tarfile.SYMTYPE, "/sys/kernel/tracing/events/header_page")
    blob(tf, "per_cpu/cpu0/trace_pipe_raw", b"", tarfile.SYMTYPE, "/etc/passwd")
with tarfile.open(T + "/huge.tar", "w") as tf:
    add_dir(tf)
    blob(tf, "events/sched/sched_switch/format", b"x" * (2 << 20))
with tarfile.open(T + "/two.tar", "w") as tf:
    add_dir(tf, "hit1/")
    add_dir(tf, "hit2/")
PY
check "a tar with climbing, absolute, linked names: read as the capture it holds, nothing written" \
	'TMPDIR=$T/tmp "$FTLENS" dump "$T/evil.tar" >"$T/t.dump" 2>"$T/evil.err" && cmp -s "$T/dir.dump" "$T/t.dump" &&
	 [ -z "$(ls -A "$T/victim")" ] && [ -z "$(ls -A "$T/tmp")" ] && [ ! -e "$T/../victim" ]'
check "a tar of links only: one error, no crash, nothing read through them" \
	'! "$FTLENS" dump "$T/links.tar" >/dev/null 2>"$T/e" && [ "$(wc -l <"$T/e")" -eq 1 ] && grep -q "links.tar.: a tar archive without a raw capture" "$T/e"'
check "a 2 MiB format: refused with its name" \
	'! "$FTLENS" dump "$T/huge.tar" >/dev/null 2>"$T/e" && grep -q "events/sched/sched_switch/format: larger than 1 MiB" "$T/e"'
check "pages past --max-expand: refused, no temporary file left" \
	'! TMPDIR=$T/tmp "$FTLENS" dump --max-expand 8K "$T/cap.tar" >/dev/null 2>"$T/e" && grep -q "past --max-expand" "$T/e" && [ -z "$(ls -A "$T/tmp")" ]'
check "two captures (flight hits) in one tar: told to extract it" \
	'! "$FTLENS" dump "$T/two.tar" >/dev/null 2>"$T/e" && grep -q "more than one capture (.hit1/. and .hit2/." "$T/e"'
check "a damaged tar: one error naming it" \
	'head -c 3000 "$T/cap.tar.gz" >"$T/cut.tar.gz" && ! "$FTLENS" dump "$T/cut.tar.gz" >/dev/null 2>"$T/e" && [ "$(wc -l <"$T/e")" -eq 1 ] && grep -q "cut.tar.gz" "$T/e"'

# ---- the script on this machine's tracefs -------------------------------------
if ! have_prereq TRACE_MARKER BUSYBOX DASH TRACE_CMD; then
	n=10
	while [ $n -gt 0 ]; do
		skip "the script on live tracefs: missing $prereq_why"
		n=$((n - 1))
	done
	finish
	exit $?
fi
"$FTLENS" capture-script -e sched:sched_switch -e sched:sched_wakeup -b 512 -- \
	sh -c 'i=0; while [ $i -lt 300 ]; do ftl_marker "burst $i"; i=$((i+1)); done' >"$T/live.sh"
TMPDIR=$T/tmp busybox sh "$T/live.sh" >"$T/live.tar" 2>"$T/live.err"
check "busybox sh: the capture ends (exit $?) with a tar on stdout" '[ $? -eq 0 ] && tar -tf "$T/live.tar" | grep -q "per_cpu/cpu0/trace_pipe_raw"'
[ -s "$T/live.err" ] && diag "$(cat "$T/live.err")"
"$FTLENS" dump "$T/live.tar" >"$T/live.dump" 2>"$T/live.derr"
n=$(grep -c 'text=burst [0-9]*$' "$T/live.dump")
check "ftlens reads every marker of the burst ($n of 300)" '[ "$n" -eq 300 ]'
mkdir -p "$T/live"
tar -C "$T/live" -xf "$T/live.tar"
ev=$(grep -vc ' lost ' "$T/live.dump")
read_ev=$(cat "$T"/live/per_cpu/cpu*/stats | awk '/^read events:/ { n += $3 } END { print n + 0 }')
check "every event the kernel handed out is read back ($ev = the stats' read events $read_ev)" '[ "$ev" -eq "$read_ev" ]'
check "instance, state and staging gone after the run" \
	'! ls "$TR/instances" | grep -q "^ftlens-" && [ -z "$(ls -A "$T/tmp")" ]'
args=""
for f in "$T"/live/per_cpu/cpu*/trace_pipe_raw; do
	c=${f%/trace_pipe_raw}
	c=${c##*/cpu}
	args="$args $c:$f"
done
python3 "$H/raw2dat.py" "$T/live/events" "$T/live.dat" $args
trace-cmd report -N -t "$T/live.dat" >"$T/live.report" 2>/dev/null
trace-cmd report -t "$T/live.dat" >"$T/live.report2" 2>/dev/null
python3 "$H/payload_compare.py" live "$T/live.dump" "$T/live.report" "$T/live.report2" >"$T/cmp" 2>&1
diag "$(grep '^FIGURES' "$T/cmp")"
check "every event equal in kind and payload to trace-cmd's decoding of the same pages" \
	'grep -q "^FIGURES .* different=0 missing=0" "$T/cmp" && ! grep -q "FIGURES .* events=0 " "$T/cmp"'

# dash, into a directory, against ftlens record of the same kind
TMPDIR=$T/tmp dash "$T/live.sh" -o "$T/dashcap" 2>"$T/dash.err"
check "dash: the capture ends (exit $?) in a directory" '[ $? -eq 0 ] && [ -f "$T/dashcap/events/header_page" ] && [ -f "$T/dashcap/uname" ]'
"$FTLENS" record -e sched:sched_switch -e sched:sched_wakeup -b 512 -o "$T/rec.dat" -- \
	sh -c 'i=0; while [ $i -lt 300 ]; do echo "burst $i" >"$FTLENS_TRACE_MARKER"; i=$((i+1)); done' 2>/dev/null
# kinds INPUT: the event names in it (a comm may hold blanks: found by the
# kind column before the name)
kinds() {
	"$FTLENS" dump "$1" 2>/dev/null | grep -oE ' (marker|switch|wakeup|event|entry|exit|lost|func|irq-entry|irq-exit) +[a-z_]+:' |
		awk '{ print $2 }' | sort -u | tr '\n' ' '
}
check "the same kinds of event as ftlens record ($(kinds "$T/dashcap"))" \
	'[ "$(kinds "$T/dashcap")" = "$(kinds "$T/rec.dat")" ] && [ "$("$FTLENS" dump "$T/dashcap" | grep -c "text=burst [0-9]*$")" -eq 300 ]'
check "info: the kernel release of this machine" '"$FTLENS" info "$T/dashcap" | grep -qx "Kernel:   $(uname -r)"'

# SIGTERM: stops, saves, cleans up; SIGKILL: the next run's cleanup
"$FTLENS" capture-script -e sched:sched_switch --duration 60 >"$T/long.sh"
TMPDIR=$T/tmp busybox sh "$T/long.sh" -o "$T/termcap" 2>"$T/term.err" &
pid=$!
sleep 2
kill -TERM $pid
wait $pid
check "SIGTERM: the capture is saved (exit $?) and the instance is gone" \
	'[ -f "$T/termcap/events/header_page" ] && [ ! -d "$TR/instances/ftlens-$pid" ]'
TMPDIR=$T/tmp busybox sh "$T/long.sh" -o "$T/killcap" 2>"$T/kill.err" &
pid=$!
sleep 2
kill -KILL $pid
wait $pid 2>/dev/null
sleep 1
left=$([ -d "$TR/instances/ftlens-$pid" ] && echo instance)
TMPDIR=$T/tmp busybox sh "$T/long.sh" cleanup 2>"$T/cleanup.err"
check "SIGKILL leaves its $left behind; the next run's cleanup removes it all" \
	'[ "$left" = instance ] && [ ! -d "$TR/instances/ftlens-$pid" ] && [ -z "$(ls -A "$T/tmp")" ] && ! ls "$T" | grep -q "killcap"'
diag "$(cat "$T/cleanup.err")"
finish
