#!/bin/sh
# Damaged binary inputs that crashed, hung or exhausted libtracecmd and
# libtraceevent (shared/data/crashers, README there) and damage found by
# hand: each gives one clear error naming the file, or correct output with
# the damage reported, never a signal (the sanitizer build aborts on memory
# errors, which the exit status shows). Fixed at the class of fault:
# - trace.dat sizes are checked against the file before libtracecmd reads
#   (and allocates by) them: slow-reject-*.dat, open-head-wild-write.dat.
# - ftlens reads trace.dat pages itself, checking each page's commit and
#   timestamp: 1 KiB of 0xff in the data (libtraceevent's kbuffer read past
#   the page in libtracecmd's reader) and page timestamps beyond INT64_MAX
#   (info's span overflowed) are reported as damaged pages.
# - an event format libtraceevent crashes on (a damaged __print_flags) is
#   parsed in a child first, when a record first needs it: its events are
#   unknown, the rest of the file is read.
# - a bprint record reaches libtraceevent only when its format's ip, fmt and
#   buf fields are there and in the record, as a zero-padded copy with them
#   at the places of the first bprint format it rendered (the library keeps
#   those): it read at address 5 without a fmt field, past the record for a
#   %s without its NUL, and one format's records by another's fields.
. "$(dirname "$0")/lib.sh"
make_tmpdir
plan 28

# one_error NAME FILE: exit 1 and one stderr line naming FILE as damaged
# (the message in $T/NAME.err)
one_error() {
	"$FTLENS" info "$2" >/dev/null 2>"$T/$1.err"
	rc=$?
	[ $rc -eq 1 ] && [ "$(wc -l <"$T/$1.err")" -eq 1 ] &&
		grep -q "'$2': not a valid trace.dat: " "$T/$1.err"
}

for i in 0 1 2 3 4; do
	f=$FTL_CRASHERS/slow-reject-$i.dat
	have_input "$f" || continue
	one_error sr$i "$f"
	one=$?
	check "slow-reject-$i.dat: refused before libtracecmd allocates ($(cut -c 1-200 "$T/sr$i.err"))" \
		'[ $one -eq 0 ] && grep -q "at offset [0-9]*: claims [0-9]* bytes" "$T/sr$i.err"'
done

f=$FTL_CRASHERS/open-head-wild-write.dat
if have_input "$f"; then
	check "open-head-wild-write.dat: one error naming the file" 'one_error wild "$f"'
fi
# survives NAME FILE: info, report and dump end in exit 0 or one error line,
# and the sanitizers say nothing
survives() {
	for cmd in info report dump; do
		"$FTLENS" $cmd "$2" >/dev/null 2>"$T/$1.$cmd.err"
		rc=$?
		[ $rc -eq 0 ] || { [ $rc -eq 1 ] && [ "$(wc -l <"$T/$1.$cmd.err")" -eq 1 ]; } || return 1
		! grep -q -e 'runtime error' -e 'Sanitizer' "$T/$1.$cmd.err" || return 1
	done
}

lisa=$FTL_REAL_DATA/raw/lisa_rtapp_6cpu_trace.dat
if have_input "$lisa" 6; then
	size=$(wc -c <"$lisa")
	for back in 21000 41000; do
		cp "$lisa" "$T/ff$back.dat"
		chmod u+w "$T/ff$back.dat"
		head -c 1024 /dev/zero | tr '\0' '\377' |
			dd of="$T/ff$back.dat" bs=1 seek=$((size - back)) conv=notrunc 2>/dev/null
		check "1 KiB of 0xff $back bytes before the end: info, report, dump survive" 'survives ff$back "$T/ff$back.dat"'
	done
	# A page timestamp with its top bit set (CPU 4) and one far in the future
	# (CPU 3), found by fuzzing.
	cp "$lisa" "$T/wild.dat"
	chmod u+w "$T/wild.dat"
	printf '\246' | dd of="$T/wild.dat" bs=1 seek=3936263 conv=notrunc 2>/dev/null
	printf '\161' | dd of="$T/wild.dat" bs=1 seek=3923975 conv=notrunc 2>/dev/null
	check "wild page timestamps: info, report, dump survive" 'survives wild "$T/wild.dat"'
	"$FTLENS" info --format json "$T/wild.dat" >"$T/wild.json" 2>/dev/null
	check "wild page timestamps: the page beyond INT64_MAX is reported as damaged" \
		'grep -q "CPU 4: page at file offset 3936256: corrupt header: timestamp" "$T/wild.json"'
	"$FTLENS" info "$T/wild.dat" >"$T/wild.txt" 2>/dev/null
	check "wild page timestamps: info prints a span ($(grep Span: "$T/wild.txt"))" \
		'grep -q "^Span:  .*[0-9] s)$" "$T/wild.txt"'
	check "wild page timestamps: the other CPUs' events are all there" \
		'[ "$(json_get "$T/wild.json" "j['\''events'\'']")" -gt 7800 ]'
fi

# lisa's sched_switch format (id 98) with a print fmt libtraceevent 1.7
# dereferences NULL on, padded to its size so that the offsets stay
if have_input "$lisa" 2 && have_prereq PYTHON; then
	python3 - "$lisa" "$T/fmt.dat" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
i = d.find(b'name: sched_switch\nID:')
size = struct.unpack('<Q', d[i - 8:i])[0]
old = bytes(d[i:i + size])
new = old[:old.find(b'print fmt:')] + b'print fmt: "%s", (REC->prev_state & 1) ? ' \
	b'__print_flags(REC->prev_st a e&(t(1), "|", { 0x00000001, "S" }) : "R"\n'
d[i:i + size] = new + b'\n' * (size - len(new))
open(sys.argv[2], 'wb').write(d)
PY
	check "a format libtraceevent crashes on: info, report, dump survive" 'survives fmt "$T/fmt.dat"'
	"$FTLENS" info --format json "$T/fmt.dat" >"$T/fmt.json" 2>/dev/null
	# the format goes to the library with an empty print fmt
	# (parse/tep-check.c): its fields are read, its payload text is not
	check "a format libtraceevent crashes on: its events still sched_switch, sched's figures the same" \
		'! grep -q "event id 98 at CPU" "$T/fmt.json" &&
		[ "$(json_get "$T/fmt.json" "j['\''events'\'']")" -gt 7800 ] &&
		"$FTLENS" sched --format csv "$T/fmt.dat" >"$T/fmt-sched.csv" 2>/dev/null &&
		"$FTLENS" sched --format csv "$lisa" >"$T/lisa-sched.csv" 2>/dev/null &&
		cmp "$T/fmt-sched.csv" "$T/lisa-sched.csv"'
	# without the print fmt, prev_state is numeric: 0x40 is a dying
	# task's "x" on this 4.x kernel (its preemptions are 0x800), so the
	# task sleeps no more than with the format's own letters
fi

# fuzz-tracedat's find: sched_switch's print fmt with "__print_flags(REC->"
# damaged into "__printbprint: EC->", on which libtraceevent dereferences
# NULL: the format goes to the library with an empty print fmt (its fields
# read), as any format naming what it does not declare
dmg=$top_srcdir/tests/fuzz/regress/tracedat/libtraceevent-print-flags-damaged-rec.dat
check "a print fmt dereferencing a damaged REC: info survives, its events sched_switch" \
	'"$FTLENS" info "$dmg" >"$T/dmg.out" 2>&1 &&
	 grep -q "^ *6  sched_switch$" "$T/dmg.out" && ! grep -q unknown_event_314 "$T/dmg.out"'

# sched_switch's format holds a byte 0x96 in a declaration (fuzz-tracedat):
# refused; its 18 events are a format left out, named, not an id without one
asc=$top_srcdir/tests/fuzz/regress/tracedat/libtraceevent-format-byte-not-ascii.dat
"$FTLENS" info --format json "$asc" >"$T/asc.json" 2>/dev/null
check "a refused format's events are counted as bad_format, naming sched/sched_switch" \
	'[ "$(json_get "$T/asc.json" "j[\"diagnostics\"][\"bad_format\"][\"count\"]")" = 18 ] &&
	 json_get "$T/asc.json" "j[\"diagnostics\"][\"bad_format\"][\"first_text\"]" |
		grep -q "^event id 314 (sched/sched_switch, its format left out)" &&
	 ! json_get "$T/asc.json" "j[\"diagnostics\"][\"unknown_event\"][\"first_text\"]" | grep -q "event id 314 "'

# fuzz-tracedat's find (a timeout of 178 s): a 20 KB "tracing2" file,
# which libtracecmd's record reader reads, on which it reads CPU 0's page
# again without end (trace-cmd report prints events until killed; info
# counted 67 M events in 100 s): the CPU ends at the repeated offset,
# reported as a damaged page, and the 85 events before it are the trace
again=$top_srcdir/tests/fuzz/regress/tracedat/libtracecmd-page-read-again-hang.dat
timeout 60 "$FTLENS" info --format json "$again" >"$T/again.json" 2>/dev/null
check "a page libtracecmd reads again: info ends, 85 events, 2 damaged pages" \
	'[ "$(json_get "$T/again.json" "j[\"events\"]")" = 85 ] &&
	 [ "$(json_get "$T/again.json" "j[\"diagnostics\"][\"bad_page\"][\"count\"]")" = 2 ]'

# fuzz-tracedat's find: a "tracing6" file whose bprint format's fmt field
# is damaged ("rfachmt"): libtraceevent rendered with a NULL format (SIGSEGV
# in info and in trace-cmd report); its text is empty, counted as bad_format
bpn=$top_srcdir/tests/fuzz/regress/tracedat/libtraceevent-bprint-render-null-read.dat
"$FTLENS" info --format json "$bpn" >"$T/bpn.json" 2>/dev/null
check "a bprint format without fmt: info survives, its record counted as bad_format" \
	'[ "$(json_get "$T/bpn.json" "j[\"diagnostics\"][\"bad_format\"][\"count\"]")" = 1 ] &&
	 json_get "$T/bpn.json" "j[\"diagnostics\"][\"bad_format\"][\"first_text\"]" |
		grep -q "^bprint at CPU 0, file offset 12756: its format.s ip, fmt or buf field is missing"'

# fuzz-tracedat's find: a HOOK option of one byte ("\0"), which libtracecmd
# 1.3 parses into NULL and then dereferences (trace-cmd report: SIGSEGV):
# refused before libtracecmd reads the file, with one error (ftlens's own
# commands survived it through the trial child, fuzz-tracedat in-process
# did not)
hook=$top_srcdir/tests/fuzz/regress/tracedat/libtracecmd-hook-option-null-read.dat
check "a HOOK option libtracecmd cannot read: one error naming the file and the option" \
	'one_error hook "$hook" && grep -q "option 6: a HOOK libtracecmd cannot read" "$T/hook.err"'

# the same file with a HOOK option libtracecmd reads: it printf()s the
# option's text to stdout while it opens the file; an escape sequence in
# it must not reach the terminal, nor break info's JSON
python3 - "$hook" "$T/hookok.dat" <<'PY'
import sys
d = open(sys.argv[1], "rb").read()
old = b"\x06\x00\x01\x00\x00\x00\x00"
assert d.count(old) == 1
hook = b"sys:ev,m/sys2:ev2,m2\x1b[31mRED\x00"
new = b"\x06\x00" + len(hook).to_bytes(4, "little") + hook
open(sys.argv[2], "wb").write(d.replace(old, new))
PY
"$FTLENS" info --format json "$T/hookok.dat" >"$T/hookok.json" 2>/dev/null
check "a HOOK option libtracecmd prints while it opens: nothing of it on stdout, the JSON parses" \
	'! grep -q "sys2:ev2\|$(printf "\033")" "$T/hookok.json" &&
	 python3 -c "import json, sys; json.load(open(sys.argv[1]))" "$T/hookok.json"'

# the same faults in raw directories (one decoder for both), written by
# rawdir_cases.py: texts by `markers`, exactly
bp_texts() {
	python3 "$top_srcdir/tests/e2e/rawdir_cases.py" "$T/bp-$1" "$1" \
		"$FTL_TESTDATA/vm/raw/raw/events/header_page" &&
	"$FTLENS" markers --format json "$T/bp-$1" >"$T/bp-$1.json" 2>"$T/bp-$1.err" &&
	python3 -c 'import json, sys; print(json.dumps([m["text"] for m in json.load(open(sys.argv[1]))["markers"]]))' \
		"$T/bp-$1.json"
}
check "a %s without its NUL ends at the record's end: [hellohel, world]" \
	'[ "$(bp_texts ok)" = '"'"'["hellohel", "world"]'"'"' ]'
check "a bprint format without fmt: both texts empty, each counted as bad_format" \
	'[ "$(bp_texts nofmt)" = '"'"'["", ""]'"'"' ] &&
	 grep -q "events whose format could not be used  *2 " "$T/bp-nofmt.err"'
check "a second bprint format with other places: its record read by its own fields" \
	'[ "$(bp_texts two)" = '"'"'["hellohel", "world", "third"]'"'"' ] && [ ! -s "$T/bp-two.err" ]'
check "the same, the other format's record first and on another CPU (another decoder of the directory)" \
	'[ "$(bp_texts twocpu)" = '"'"'["third", "hellohel", "world"]'"'"' ] && [ ! -s "$T/bp-twocpu.err" ]'

for f in "$FTL_CRASHERS/short-print.dat" "$FTL_CRASHERS/short-print-raw"; do
	have_input "$f" 2 || continue
	b=$(basename "$f")
	check "$b: info, report, dump survive" 'survives $b "$f"'
	"$FTLENS" info --format json "$f" >"$T/$b.json" 2>/dev/null
	check "$b: the 12-byte print record is reported as damaged, with its CPU and offset" \
		'grep -q "CPU 0, .*file offset [0-9]*: a print record of 12 bytes, its format.s fields need 16" "$T/$b.json"'
done
finish
