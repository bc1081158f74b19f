#!/bin/sh
# Payload fidelity against trace-cmd report: every field of every event of
# `ftlens dump` equals `trace-cmd report -N -t` (libtraceevent rendering
# the kernel's own print formats, full ns timestamps) on every trace.dat and
# raw page directory under ../shared/data/real, on the rig's raw pages and
# on two live captures (a trace.dat, and a raw directory, with
# kernel_stack, markers, sched, irq and timer events).
#
# Raw directories are packed for trace-cmd by raw2dat.py (written from the
# file-format description, not by ftlens's writer), so both tools decode the
# very same pages. payload_compare.py matches the events per CPU in input
# order and compares time, CPU, pid, comm, name and each payload field;
# only the column layout is normalised. The remaining allowed differences
# are listed there (ALLOWED), each with its reason:
# - marker-newline: a trace_marker write's own final newline, which ftlens
#   drops from the text;
# - stack-address: trace-cmd prints "=> name (address)" per kernel_stack
#   frame, ftlens the name.
# The figures (events, fields, equal, allowed, different) of each input and
# their sum are printed to this test's log.
# Also, with FTLENS_PAYLOAD_CHECK, ftlens renders every payload of every
# input both by its own compiled print formats and by libtraceevent, and
# counts the payloads rendered by its own and those that differ: none may
# differ, and its own must have rendered some. Also: a marker is one event
# with one name and its caller in info, markers and report, whether read
# from raw pages or from the kernel's text of the same buffer.
. "$(dirname "$0")/lib.sh"
prereq TRACE_CMD PYTHON
make_tmpdir
R=$FTL_REAL_DATA/raw
H=$(dirname "$0")

total_events=0 total_fields=0 total_equal=0 total_allowed=0 total_different=0
total_own=0 total_lib=0 total_own_diff=0

# own_check LABEL: the sums of the FTLENS_PAYLOAD_CHECK lines in $T/err
own_check() {
	set -- "$1" $(awk '/^ftlens: payload check: [0-9]+ own/ { o += $4; l += $6; d += $8 }
		END { print o + 0, l + 0, d + 0 }' "$T/err")
	total_own=$((total_own + $2)) total_lib=$((total_lib + $3))
	total_own_diff=$((total_own_diff + $4))
	diag "$1: payloads by ftlens's own formats $2, by libtraceevent $3, different $4"
	grep '^ftlens: payload check: .*library "' "$T/err" | head -5 | while read -r l; do
		diag "  $l"
	done
}

# compare LABEL FILE-FOR-FTLENS TRACE.DAT-FOR-TRACE-CMD
compare() {
	if ! FTLENS_PAYLOAD_CHECK=1 "$FTLENS" dump "$2" >"$T/d" 2>"$T/err"; then
		not_ok "$1: ftlens dump failed: $(head -1 "$T/err")"
		return
	fi
	own_check "$1"
	trace-cmd report -N -t "$3" >"$T/r" 2>/dev/null
	trace-cmd report -t "$3" >"$T/r2" 2>/dev/null
	python3 "$H/payload_compare.py" "$1" "$T/d" "$T/r" "$T/r2" >"$T/cmp" 2>&1
	fig=$(grep '^FIGURES' "$T/cmp")
	diag "$fig"
	grep '^ALLOWED' "$T/cmp" | while read -r l; do diag "  $l"; done
	set -- "$1" $(echo "$fig" | awk '{ for (i = NF - 5; i <= NF; i++) { sub(/^[a-z]*=/, "", $i); print $i } }')
	if [ $# -ne 7 ]; then
		not_ok "$1: no figures: $(head -3 "$T/cmp")"
		return
	fi
	total_events=$((total_events + $2)) total_fields=$((total_fields + $3))
	total_equal=$((total_equal + $4)) total_allowed=$((total_allowed + $5))
	total_different=$((total_different + $6))
	if [ "$6" -eq 0 ] && [ "$7" -eq 0 ] && [ "$2" -gt 0 ]; then
		ok "$1: $2 events, $3 fields: $4 equal, $5 allowed, none different"
	else
		not_ok "$1: $6 fields different, $7 events missing"
		grep '^DIFF' "$T/cmp" | head -10 | while read -r l; do diag "$l"; done
	fi
}

# pack_raw FORMATS OUT.dat CPU:PAGES...
pack_raw() { python3 "$H/raw2dat.py" "$@"; }

n_real=0
for f in "$R"/*.dat; do [ -f "$f" ] && n_real=$((n_real + 1)); done
# (one point, skipped by name, when the corpus has none)
plan $((n_real + (n_real == 0) + 3 + 2 + 3 + 2 + 2 + 1))

# every trace.dat of the corpus
if [ "$n_real" -eq 0 ]; then
	skip_absent "$R/*.dat"
fi
for f in "$R"/*.dat; do
	[ -f "$f" ] || continue
	compare "real/raw/$(basename "$f")" "$f" "$f"
done

# every raw page directory of the corpus (the formats_* directories hold
# format files only, no pages)
if have_input "$R/schedviz_test"; then
	pack_raw "$R/schedviz_test/formats" "$T/sv.dat" 0:"$R/schedviz_test/traces/cpu0"
	compare "real/raw/schedviz_test" "$R/schedviz_test" "$T/sv.dat"
	# its kernel's preempted bit is 4096, above its flag table (1024):
	# sched counts each switch-out while runnable (R or R+) as a preemption
	plus=$(grep -c 'prev_state=R+ ' "$T/r") run=$(grep -c 'prev_state=R+* ' "$T/r")
	pre=$("$FTLENS" sched -F json "$R/schedviz_test" 2>/dev/null |
		python3 -c 'import json, sys; print(sum(t["preempted"] for t in json.load(sys.stdin)["tasks"]))')
	check "schedviz: sched counts $pre preemptions = trace-cmd's R and R+ switch-outs ($run, $plus of them R+)" \
		'[ "$plus" -gt 0 ] && [ "$pre" = "$run" ]'
else
	skip_absent "$R/schedviz_test"
fi
if have_input "$R/perfetto_one_page_sched_switch"; then
	P=$R/perfetto_one_page_sched_switch
	pack_raw "$P/events" "$T/pf.dat" 0:"$P/one_page_sched_switch.bin"
	compare "real/raw/perfetto_one_page_sched_switch" "$P" "$T/pf.dat"
fi

# the rig's raw pages (a 6.1 kernel under qemu, tests/data/vm/raw)
V=$FTL_TESTDATA/vm/raw/raw
pack_raw "$V/events" "$T/rig.dat" 0:"$V/per_cpu/cpu0/trace_pipe_raw" 1:"$V/per_cpu/cpu1/trace_pipe_raw"
compare "rig raw pages (tests/data/vm/raw)" "$V" "$T/rig.dat"

# A marker is one event whatever the input: the rig's buffer as raw pages
# and as the kernel's text of it (where it prints as "tracing_mark_write:")
# has the same event names in info, the same markers, caller included, and
# the same Markers section in report (times aside: the text has us).
names() { "$FTLENS" info -F json "$1" | python3 -c 'import json, sys; print(sorted(json.load(sys.stdin)["event_names"].items()))'; }
marks() { "$FTLENS" markers -F csv "$1" | cut -d, -f3-7,9; }
rsect() { "$FTLENS" report "$1" | sed -n '/^Markers/,/^$/p' | awk '{ $1 = ""; $4 = ""; print }'; }
names "$V" >"$T/n.a"
names "$V/../raw.txt" >"$T/n.b"
marks "$V" >"$T/m.a"
marks "$V/../raw.txt" >"$T/m.b"
rsect "$V" >"$T/s.a"
rsect "$V/../raw.txt" >"$T/s.b"
check "rig buffer as pages and as text: one marker name ($(grep -o "('print', [0-9]*)" "$T/n.a")), same markers with caller, same report section" \
	'cmp -s "$T/n.a" "$T/n.b" && grep -q "(.print., 2)" "$T/n.a" && cmp -s "$T/m.a" "$T/m.b" &&
	 grep -q "^cpu,pid,comm,origin,caller,text$" "$T/m.a" && grep -q ",trace_marker,tracing_mark_write,before raw$" "$T/m.a" &&
	 [ -s "$T/s.a" ] && cmp -s "$T/s.a" "$T/s.b"'

# live captures: events with kernel stacks and the command's markers
if have_prereq TRACEFS; then
	tracefs_top_lock
	work='for i in 1 2 3 4 5; do echo "t3007 marker $i" >"$FTLENS_TRACE_MARKER"; ls /usr/bin >/dev/null; sleep 0.02; done'
	"$FTLENS" record -e sched -e irq -e timer -O stacktrace -o "$T/live.dat" -- sh -c "$work" 2>"$T/rec.err" ||
		diag "record: $(tail -2 "$T/rec.err")"
	compare "live trace.dat (sched, irq, timer, stacktrace, markers)" "$T/live.dat" "$T/live.dat"
	n_mark=$(grep -c ' marker  *print: origin=trace_marker caller=tracing_mark_write text=t3007 marker [1-5]$' "$T/d")
	deep=$(awk '$6 == "kernel_stack:" { sub(/frames=/, "", $7); if ($7 > 8) n++ } END { print n + 0 }' "$T/d")
	check "the live capture holds the 5 markers, caller kept ($n_mark), and stacks deeper than 8 frames ($deep)" \
		'[ "$n_mark" -eq 5 ] && [ "$deep" -gt 0 ]'
	"$FTLENS" record -e sched -e irq -O stacktrace --raw-dir "$T/live-raw" -- sh -c "$work" 2>"$T/rec.err" ||
		diag "record --raw-dir: $(tail -2 "$T/rec.err")"
	set --
	for c in "$T/live-raw"/per_cpu/cpu*; do
		set -- "$@" "${c##*/cpu}:$c/trace_pipe_raw"
	done
	pack_raw "$T/live-raw/events" "$T/live-raw.dat" "$@"
	compare "live raw directory (sched, irq, stacktrace, markers)" "$T/live-raw" "$T/live-raw.dat"
else
	skip "live trace.dat: missing $prereq_why"
	skip "live markers and stacks: missing $prereq_why"
	skip "live raw directory: missing $prereq_why"
fi

# print fmts of generated events (rawdir_cases.py printfmt): length
# modifiers (h, hh, L, Z, ll, with flags and widths) over values past each
# length, __print_flags/__print_symbolic tables naming their values, and %s
# of a pointer-sized field (a printk string, as rcu_utilization prints):
# ftlens's own formats render them, as libtraceevent (FTLENS_PAYLOAD_CHECK)
# and trace-cmd do
python3 "$H/rawdir_cases.py" "$T/pf" printfmt "$FTL_TESTDATA/vm/raw/raw/events/header_page"
pack_raw "$T/pf/events" "$T/pf.dat" 0:"$T/pf/per_cpu/cpu0/trace_pipe_raw"
compare "lengths, named flags, printk strings (rawdir_cases.py)" "$T/pf" "$T/pf.dat"
check "lengths, named flags, printk strings: 12 of 16 payloads by ftlens's own formats (each event's first and a printk address of two strings are the library's), none different, from the directory and from its trace.dat" \
	'grep -q "^ftlens: payload check: 12 own, 4 library, 0 different" "$T/err" &&
	 FTLENS_PAYLOAD_CHECK=1 "$FTLENS" dump "$T/pf.dat" 2>&1 >/dev/null |
		grep -q "^ftlens: payload check: 12 own, 4 library, 0 different"'

# payloads rendered by the page readers' workers (dump with worker
# threads, rawdir_cases.py ahead): what one thread renders, byte for byte,
# stdout and stderr, and what the payload check prints (every payload on
# the reader's thread, each compared with libtraceevent's: none different).
# Not against trace-cmd: its strings hold raw control bytes.
python3 "$H/rawdir_cases.py" "$T/ah" ahead "$FTL_TESTDATA/vm/raw/raw/events/header_page"
pack_raw "$T/ah/events" "$T/ah.dat" 0:"$T/ah/per_cpu/cpu0/trace_pipe_raw" 1:"$T/ah/per_cpu/cpu1/trace_pipe_raw"
"$FTLENS" dump -j 1 "$T/ah.dat" >"$T/ah.1" 2>"$T/ah.1e"
"$FTLENS" dump -j 4 "$T/ah.dat" >"$T/ah.4" 2>"$T/ah.4e"
FTLENS_PAYLOAD_CHECK=1 "$FTLENS" dump -j 4 "$T/ah.dat" >"$T/ah.c" 2>"$T/ah.ce"
# the same text as JSON, from a seek to a time, and split into CPUs
for j in 1 4; do
	"$FTLENS" dump -F json -j $j "$T/ah.dat" >"$T/ah.json$j" 2>&1
	"$FTLENS" dump --time 1.05,1.12 -j $j "$T/ah.dat" >"$T/ah.time$j" 2>&1
	"$FTLENS" split --per-cpu -o "$T/ah.split$j" -j $j "$T/ah.dat" >/dev/null 2>&1
done
ahead=$(G_MESSAGES_DEBUG=all "$FTLENS" dump -j 4 "$T/ah.dat" 2>/dev/null | sed -n 's/.* \([0-9]*\) payloads rendered by the page readers$/\1/p')
diag "$(grep '^ftlens: payload check: [0-9]* own' "$T/ah.ce")"
check "payloads rendered by the workers (${ahead:-none} of $(wc -l <"$T/ah.1")): -j 4 prints what -j 1 and the payload check print, libtraceevent's text; in JSON, from --time, split" \
	'[ "${ahead:-0}" -gt 5000 ] && cmp -s "$T/ah.1" "$T/ah.4" && cmp -s "$T/ah.1e" "$T/ah.4e" && cmp -s "$T/ah.1" "$T/ah.c" &&
	 cmp -s "$T/ah.json1" "$T/ah.json4" && cmp -s "$T/ah.time1" "$T/ah.time4" && [ -s "$T/ah.time1" ] &&
	 diff -r "$T/ah.split1" "$T/ah.split4" >/dev/null && [ -s "$T/ah.split1/cpu1/trace" ] &&
	 grep -q "^ftlens: payload check: [1-9][0-9]* own, [0-9]* library, 0 different" "$T/ah.ce"'

diag "TOTAL events=$total_events fields=$total_fields equal=$total_equal allowed=$total_allowed different=$total_different"
check "payload equality over all inputs: $total_fields fields of $total_events events, $total_different different" \
	'[ "$total_different" -eq 0 ] && [ "$total_events" -gt 0 ]'
diag "TOTAL payloads own=$total_own library=$total_lib different=$total_own_diff"
check "own payload rendering equals libtraceevent's: $total_own payloads, $total_own_diff different ($total_lib by the library)" \
	'[ "$total_own_diff" -eq 0 ] && [ "$total_own" -gt 0 ]'
finish
