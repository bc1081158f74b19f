#!/bin/sh
# Raw ring-buffer page directories (trace_pipe_raw dumps with their format
# files): the rig's capture decodes event for event like the kernel's own
# text of the same buffer; every layout gives the same events; the public
# SchedViz and Perfetto dumps decode with the counts an independent page
# walker (rawpages.py) finds; damaged pages, unknown event ids, formats that
# do not parse and a bad header_page give a located diagnostic or one error.
#
# Allowed differences against the kernel's text (raw.txt), applied by the
# normalizer below and nothing else:
# - timestamps: the text prints us rounded to nearest; ftlens keeps ns and
#   is rounded the same way.
# - sys_enter_openat: the kernel prints syscall arguments with its own
#   code ("(dfd: ffffff9c, ...)"), ftlens with the format's print fmt
#   ("dfd: 0xffffff9c, ..."): only the payload differs, so it is cut.
# - the text's "##### CPU N buffer started ####" lines have no record in the
#   pages; ftlens's LOST events (from the pages' missed-events flags) have
#   no line in the text: both are left out of the event-for-event diff and
#   checked on their own.
. "$(dirname "$0")/lib.sh"
prereq PYTHON
make_tmpdir
V=$FTL_TESTDATA/vm/raw
[ -d "$V/raw" ] || skip_all "rig fixture $V/raw missing"
R=$FTL_REAL_DATA/raw
plan 42

norm() {
	awk '{ t = $1; split(t, p, "."); ns = p[2] + 0; us = int((ns + 500) / 1000); s = p[1]
		if (us >= 1000000) { s++; us -= 1000000 }
		$1 = sprintf("%d.%06d", s, us)
		if ($6 == "sys_enter_openat:") NF = 6
		if ($5 == "lost" || $5 == "buffer-start") next
		print }'
}

# 1-3: the rig capture against the kernel's text of the same pages
"$FTLENS" dump "$V/raw" >"$T/d" 2>"$T/err"
check "rig raw pages: dump exits 0" '[ $? -eq 0 ]'
norm <"$T/d" >"$T/a"
"$FTLENS" dump "$V/raw.txt" 2>/dev/null | norm >"$T/b"
if cmp -s "$T/a" "$T/b" && [ -s "$T/a" ]; then
	ok "rig raw pages = raw.txt, event for event ($(wc -l <"$T/a") events, payloads included)"
else
	not_ok "rig raw pages differ from raw.txt"
	diff "$T/a" "$T/b" | head -10 | while read -r l; do diag "$l"; done
fi
check "no diagnostics on a clean capture" '[ ! -s "$T/err" ]'

# 4-6: overflowed buffers (their formats are those of raw/)
mkdir "$T/ov"
ln -s "$V/raw-overflow/per_cpu" "$T/ov/per_cpu"
for f in events kallsyms printk_formats saved_cmdlines trace_clock; do ln -s "$V/raw/$f" "$T/ov/$f"; done
"$FTLENS" dump "$T/ov" 2>/dev/null | norm >"$T/a"
"$FTLENS" dump "$V/raw-overflow.txt" 2>/dev/null | norm >"$T/b"
if cmp -s "$T/a" "$T/b" && [ -s "$T/a" ]; then ok "overflowed pages = raw-overflow.txt, event for event"; else not_ok "overflowed pages differ from the text"; fi
"$FTLENS" info --format json "$T/ov" >"$T/j"
lost=$(json_get "$T/j" 'j["lost_events"]')
inbuf=$(sed -n 's/.*entries-written: \([0-9]*\)\/\([0-9]*\).*/\1 \2/p' "$V/raw-overflow.txt")
expect=$(echo "$inbuf" | awk '{ print $2 - $1 }')
check "missed-event counts in page headers become LOST events: $lost = written - in buffer ($expect)" '[ "$lost" = "$expect" ]'
marks=$(python3 "$(dirname "$0")/rawpages.py" "$V/raw/events" 0:"$V/raw-overflow/per_cpu/cpu0/trace_pipe_raw" 1:"$V/raw-overflow/per_cpu/cpu1/trace_pipe_raw" |
	python3 -c 'import json,sys; print(sum(c["missed_marks"] for c in json.load(sys.stdin)["cpus"].values()))')
nlost=$(json_get "$T/j" 'j["lost_lines"]')
check "one LOST event per page with the missed-events flag ($nlost = $marks)" '[ "$nlost" = "$marks" ]'

# 7-9: the same pages in other layouts give the same dump
"$FTLENS" dump "$V/raw" >"$T/ref" 2>/dev/null
mkdir -p "$T/flat" "$T/sv/traces" "$T/sv/formats"
for c in 0 1; do
	ln -s "$V/raw/per_cpu/cpu$c/trace_pipe_raw" "$T/flat/cpu$c.raw"
	ln -s "$V/raw/per_cpu/cpu$c/trace_pipe_raw" "$T/sv/traces/cpu$c"
done
for x in "$V"/raw/events/*; do
	ln -s "$x" "$T/flat/$(basename "$x")"
	ln -s "$x" "$T/sv/formats/$(basename "$x")"
done
for f in kallsyms printk_formats saved_cmdlines trace_clock; do ln -s "$V/raw/$f" "$T/flat/$f"; ln -s "$V/raw/$f" "$T/sv/$f"; done
"$FTLENS" dump "$T/flat" 2>/dev/null | sed 's|flat/||' >"$T/a"
check "flat layout (cpuN.raw, header_page, SYS/EVENT/format) = tracefs layout" 'cmp -s "$T/a" "$T/ref"'
"$FTLENS" dump "$T/sv" >"$T/a" 2>/dev/null
check "SchedViz layout (traces/cpuN, formats/) = tracefs layout" 'cmp -s "$T/a" "$T/ref"'
# raw pages and per_cpu text in one directory: the pages win, info says so
mkdir -p "$T/both/per_cpu/cpu0" "$T/both/per_cpu/cpu1"
for c in 0 1; do
	ln -s "$V/raw/per_cpu/cpu$c/trace_pipe_raw" "$T/both/per_cpu/cpu$c/trace_pipe_raw"
	printf '# tracer: nop\n          sh-1     [00%d] .....     9.000000: tracing_mark_write: text\n' "$c" >"$T/both/per_cpu/cpu$c/trace"
done
for f in events kallsyms printk_formats saved_cmdlines trace_clock; do ln -s "$V/raw/$f" "$T/both/$f"; done
"$FTLENS" info "$T/both" >"$T/i"
if grep -q "raw pages read; the text in per_cpu/cpuN/trace is not read" "$T/i" && grep -q "Dialect:  raw pages" "$T/i" &&
	[ "$("$FTLENS" dump "$T/both" 2>/dev/null | wc -l)" -eq "$(wc -l <"$T/ref")" ]; then
	ok "raw pages win over per_cpu text, and info says so"
else
	not_ok "raw pages and text in one directory"
	head -20 "$T/i" | while read -r l; do diag "$l"; done
fi

# 10-13: public raw dumps against the independent page walker
oracle_check() { # NAME DIR FORMATS CPU:FILE...
	name=$1 dir=$2
	shift 2
	python3 "$(dirname "$0")/rawpages.py" "$@" >"$T/o.json"
	if ! "$FTLENS" info --format json "$dir" >"$T/j" 2>"$T/err"; then
		not_ok "$name: info failed: $(head -2 "$T/err")"
		not_ok "$name: (skipped)"
		return
	fi
	python3 - "$T/o.json" "$T/j" >"$T/cmp" <<'PY'
import json, sys
o = json.load(open(sys.argv[1])); j = json.load(open(sys.argv[2]))
want = {}
for c in o["cpus"].values():
    for k, v in c["counts"].items():
        want[k] = want.get(k, 0) + v
got = {k: v for k, v in j["event_names"].items() if k != "lost"}
first = min(c["first_ts_ns"] for c in o["cpus"].values() if c["first_ts_ns"] is not None)
last = max(c["last_ts_ns"] for c in o["cpus"].values() if c["last_ts_ns"] is not None)
print("counts", "ok" if want == got else "want %s got %s" % (want, got))
print("span", "ok" if (first, last) == (j["first_ts_ns"], j["last_ts_ns"]) else
      "want %s..%s got %s..%s" % (first, last, j["first_ts_ns"], j["last_ts_ns"]))
PY
	c=$(sed -n 's/^counts //p' "$T/cmp") s=$(sed -n 's/^span //p' "$T/cmp")
	check "$name: event counts by name as the page walker counts them ($c)" '[ "$c" = ok ]'
	check "$name: first and last timestamps as the page walker's ($s)" '[ "$s" = ok ]'
}
if have_input "$R/schedviz_test" 2; then
	oracle_check "SchedViz cpu0 (404 pages)" "$R/schedviz_test" "$R/schedviz_test/formats" 0:"$R/schedviz_test/traces/cpu0"
fi
if have_input "$R/perfetto_one_page_sched_switch" 2; then
	oracle_check "Perfetto one page" "$R/perfetto_one_page_sched_switch" "$R/perfetto_one_page_sched_switch/events" 0:"$R/perfetto_one_page_sched_switch/one_page_sched_switch.bin"
fi

# big-endian pages (the Perfetto page rewritten as a big-endian kernel
# writes it) decode to the same events
if have_input "$R/perfetto_one_page_sched_switch"; then
	P=$R/perfetto_one_page_sched_switch
	mkdir "$T/be"
	ln -s "$P/events" "$T/be/events"
	python3 "$(dirname "$0")/rawpages.py" --to-big-endian "$P/events" "$P/one_page_sched_switch.bin" "$T/be/page.bin"
	"$FTLENS" dump "$T/be" >"$T/a" 2>/dev/null
	"$FTLENS" dump "$P" >"$T/b" 2>/dev/null
	if cmp -s "$T/a" "$T/b" && [ -s "$T/a" ] && "$FTLENS" info "$T/be" | grep -q "pages read as big-endian"; then
		ok "big-endian pages: the same events, and info says big-endian"
	else
		not_ok "big-endian pages"
	fi
fi

# 14: the rig capture against the page walker too
oracle_check "rig capture" "$V/raw" "$V/raw/events" 0:"$V/raw/per_cpu/cpu0/trace_pipe_raw" 1:"$V/raw/per_cpu/cpu1/trace_pipe_raw"
# (that was 2 checks: 14, 15)

# A live tracefs holds per_cpu/cpuN/trace_pipe_raw too, but reading those
# consumes the kernel's buffer and blocks once it is empty: the text is read.
if have_prereq TRACEFS; then
	timeout 60 "$FTLENS" info "$TR" >"$T/live" 2>&1
	rc=$?
	check "a live tracefs: info reads its text, not trace_pipe_raw (rc $rc)" \
		'{ [ $rc -eq 0 ] || { [ $rc -eq 1 ] && grep -q "info: no events in" "$T/live"; }; } &&
		 grep -q "a live tracefs: its text is read" "$T/live"'
	timeout 60 "$FTLENS" info "$TR/per_cpu/cpu0/trace_pipe_raw" >/dev/null 2>"$T/live"
	rc=$?
	check "a live trace_pipe_raw given by name: a usage error, not a hang (rc $rc)" \
		'[ $rc -eq 2 ] && grep -q "a live tracefs pipe never ends" "$T/live"'
else
	skip "a live tracefs: missing $prereq_why"
	skip "a live trace_pipe_raw: missing $prereq_why"
fi

# 16-27: damaged input. A copy of the rig capture is doctored each time.
fresh() {
	rm -rf "$T/bad"
	mkdir -p "$T/bad/per_cpu/cpu0" "$T/bad/per_cpu/cpu1"
	cp -r "$V/raw/events" "$T/bad/events"
	chmod -R u+w "$T/bad/events"
	for c in 0 1; do cp "$V/raw/per_cpu/cpu$c/trace_pipe_raw" "$T/bad/per_cpu/cpu$c/"; done
	chmod u+w "$T/bad/per_cpu"/cpu*/trace_pipe_raw
}
run_bad() { # expect rc; output in $T/out (stdout+stderr)
	"$FTLENS" info "$T/bad" >"$T/out" 2>&1
	echo $?
}
fresh
head -c 10000 "$V/raw/per_cpu/cpu1/trace_pipe_raw" >"$T/bad/per_cpu/cpu1/trace_pipe_raw"
rc=$(run_bad)
check "truncated page file: exit 0" '[ "$rc" -eq 0 ]'
check "truncated page file: diagnostic names CPU 1, page 2 and its offset" \
	'grep -q "CPU 1, page 2 (file offset 8192): only 1808 of 4096 bytes" "$T/out"'
fresh
# commit word of CPU 0's second page (offset 4096 + 8) set to 0x10000
python3 -c 'import sys; f=open(sys.argv[1],"r+b"); f.seek(4096+8); f.write((0x10000).to_bytes(8,"little"))' "$T/bad/per_cpu/cpu0/trace_pipe_raw"
rc=$(run_bad)
check "corrupt page header: exit 0" '[ "$rc" -eq 0 ]'
check "corrupt page header: diagnostic names CPU 0, page 1, offset 4096" \
	'grep -q "CPU 0, page 1 (file offset 4096): corrupt header: commit 65536" "$T/out"'
n_ok=$(json_get "$T/j" 'j["events"]') # the rig capture's count (from the oracle_check above)
"$FTLENS" info --format json "$T/bad" >"$T/j2" 2>/dev/null
n_bad=$(json_get "$T/j2" 'j["events"]')
check "corrupt page header: only that page's events are missing ($n_bad < $n_ok)" '[ "$n_bad" -lt "$n_ok" ] && [ "$n_bad" -gt 0 ]'
fresh
rm -r "$T/bad/events/sched/sched_switch"
id=$(sed -n 's/^ID: //p' "$V/raw/events/sched/sched_switch/format")
rc=$(run_bad)
check "unknown event id: exit 0" '[ "$rc" -eq 0 ]'
check "unknown event id: diagnostic names id $id, CPU and page" \
	'grep -q "events whose id has no format.*event id $id at CPU [01], page [0-9]*, file offset [0-9]*" "$T/out"'
fresh
printf 'name: sched_switch\nID: %s\nformat:\n\tfield:unsigned short common_type;\toffset:0;\tsize:2;\nprint fmt: "%%s", (((\n' "$id" >"$T/bad/events/sched/sched_switch/format"
rc=$(run_bad)
check "a print fmt that does not parse: exit 0 and a note naming the file" \
	'[ $rc -eq 0 ] && grep -q "sched_switch/format'\'': its print fmt does not parse" "$T/out"'
fresh
# a byte libtraceevent's tokenizer cannot read in a declaration: refused
# (tep-check.c); its events are counted as a format left out, not as an id
# without a format
sed -i 's/field:char prev_comm/field:char prev_\x96comm/' "$T/bad/events/sched/sched_switch/format"
rc=$(run_bad)
check "a refused format: its events counted as bad_format, naming it, not as unknown" \
	'[ $rc -eq 0 ] && grep -q "events whose format could not be used *[1-9][0-9]* *first: .*event id $id (sched/sched_switch, its format left out) at CPU" "$T/out" &&
	 ! grep -q "events whose id has no format" "$T/out"'
fresh
printf 'not a format at all\n' >"$T/bad/events/sched/sched_switch/format"
rc=$(run_bad)
check "a format file that does not parse: exit 0, a note naming it, its events unknown" \
	'[ $rc -eq 0 ] && grep -q "sched_switch/format'\'': format does not parse" "$T/out" && grep -q "event id $id" "$T/out"'
fresh
# libtraceevent 1.7 dereferences NULL on this damaged print fmt (found by
# fuzz-rawdir): REC->prev_st names no field after a __print_flags(); the
# format goes to the library with an empty print fmt (parse/tep-check.c):
# its fields are read, its payload text is not
crasher="$top_srcdir/tests/fuzz/regress/rawdir/libtraceevent-print-flags-null-deref"
{ sed -n 's/^ID: .*/ID: '"$id"'/; /^@@ events\/sched\/sched_switch\/format/,/^@@ /{/^@@/d;p}' "$crasher"; } \
	>"$T/bad/events/sched/sched_switch/format"
rc=$(run_bad)
check "a print fmt libtraceevent crashes on: exit 0, a note naming it, its events still sched_switch" \
	'[ $rc -eq 0 ] && grep -q "sched_switch/format'\'': its print fmt is damaged in a way libtraceevent 1.7 crashes on" "$T/out" &&
	! grep -q "event id $id" "$T/out" && grep -q "^ *[0-9][0-9]* *sched_switch" "$T/out"'
fresh
# a format that crashes the format child (made to, FTLENS_TRIAL_CRASH_FORMAT)
# is left out alone: the child is replaced, and the formats read after it
# (ten more systems of sched_switch's copies) are tried and parsed
sw=$T/bad/events/sched/sched_switch/format
mkdir -p "$T/bad/events/zz/crash_me"
sed 's/^name: .*/name: crash_me/; s/^ID: .*/ID: 9990/' "$sw" >"$T/bad/events/zz/crash_me/format"
for k in 0 1 2 3 4 5 6 7 8 9; do
	mkdir -p "$T/bad/events/zz$k/fine$k"
	sed "s/^name: .*/name: fine$k/; s/^ID: .*/ID: 999$k/" "$sw" >"$T/bad/events/zz$k/fine$k/format"
done
FTLENS_TRIAL_CRASH_FORMAT=zz/crash_me "$FTLENS" info "$T/bad" >"$T/out" 2>&1
rc=$?
check "a format that crashes the child: that one left out, the formats after it parsed" \
	'[ $rc -eq 0 ] && [ "$(grep -c "crashes on this format" "$T/out")" = 1 ] &&
	 grep -q "zz/crash_me/format.: libtraceevent crashes on this format" "$T/out" &&
	 grep -q "^ *[0-9][0-9]* *sched_switch" "$T/out"'
fresh
echo "this is not a header page" >"$T/bad/events/header_page"
rc=$(run_bad)
check "a bad header_page: exit 1" '[ "$rc" -eq 1 ]'
check "a bad header_page: one error line naming it" \
	'[ $(wc -l <"$T/out") -eq 1 ] && grep -q "events/header_page'\'': not a ring-buffer header_page" "$T/out"'
fresh
rm "$T/bad/events/header_page"
rc=$(run_bad)
check "trace_pipe_raw without header_page: exit 1, one error naming the directory" \
	'[ $rc -eq 1 ] && [ $(wc -l <"$T/out") -eq 1 ] && grep -q "no events/header_page" "$T/out"'
# A step of the page's walk that does not go forward: kbuffer follows a
# padding's 32-bit length, or a type-0 event's, wherever it leads, and past
# paddings it loops inside kbuffer_next_event() (found by fuzz-rawdir:
# regress/rawdir/padding-leads-back-*). HDR WORD written over CPU 0's Nth
# event header of its first page (of page PAGE, from 0, when given); prints
# the header's data offset in its page.
doctor_walk() { # N HDR WORD [PAGE]
	python3 - "$T/bad/per_cpu/cpu0/trace_pipe_raw" "$1" "$2" "$3" "${4:-0}" <<'PY'
import struct, sys
path, n, hdr, word = sys.argv[1], int(sys.argv[2]), int(sys.argv[3], 0), int(sys.argv[4], 0)
base = int(sys.argv[5]) * 4096
b = bytearray(open(path, "rb").read())
i = base + 16
for _ in range(n):
    h = struct.unpack_from("<I", b, i)[0]; t = h & 31
    if t == 0:
        i += 8 + ((struct.unpack_from("<I", b, i + 4)[0] - 4 + 3) & ~3)
    elif t <= 28:
        i += 4 + t * 4
    else:
        i += 8
struct.pack_into("<II", b, i, hdr, word)
open(path, "wb").write(b)
print(i - base - 16)
PY
}
fresh
at=$(doctor_walk 3 0x3d 0xfffffffc) # type 29, time delta 1
timeout 20 "$FTLENS" info "$T/bad" >"$T/out" 2>&1
rc=$?
timeout 20 "$FTLENS" info --format json "$T/bad" >"$T/j3" 2>/dev/null
n3=$(json_get "$T/j3" 'j["events"]')
check "a padding whose length leads back to itself: no hang, exit 0 (rc $rc)" '[ "$rc" -eq 0 ]'
check "and the diagnostic names it; the page's records before it are kept" \
	'grep -q "CPU 0, page 0 (file offset 0): the padding at data offset $at leads back to $at; the rest of the page is skipped" "$T/out" &&
	[ "$n3" -gt 3 ]'
# the same page in a trace.dat: ftlens's page reader and libtracecmd's (the
# reader of the files ftlens leaves to it), which ftlens walks the pages for
python3 "$(dirname "$0")/raw2dat.py" "$T/bad/events" "$T/bad.dat" \
	0:"$T/bad/per_cpu/cpu0/trace_pipe_raw" 1:"$T/bad/per_cpu/cpu1/trace_pipe_raw" || exit 1
timeout 20 "$FTLENS" info "$T/bad.dat" >"$T/out" 2>&1
rc=$?
check "in a trace.dat, ftlens's page reader: no hang, the padding named (rc $rc)" \
	'[ "$rc" -eq 0 ] && grep -q "the padding at data offset $at leads back to $at; the rest of the page is skipped" "$T/out"'
FTLENS_TRACEDAT_READER=libtracecmd timeout 20 "$FTLENS" info "$T/bad.dat" >"$T/out" 2>&1
rc=$?
check "libtracecmd's reader: no hang, the CPU ends before the page (rc $rc)" \
	'[ "$rc" -eq 0 ] && grep -q "CPU 0, page at file offset [0-9]*: the padding at data offset $at leads back to $at; libtracecmd would loop on it, the rest of the CPU is skipped" "$T/out"'
# the same file compressed (version 7, zstd, made by trace-cmd): libtracecmd
# decompresses the page and loops on it alike; ftlens walks the
# decompressed pages for it
if have_prereq TRACE_CMD && trace-cmd list -c 2>/dev/null | grep -q zstd; then
	set_prereq ZSTD_DAT
else
	unset_prereq ZSTD_DAT "trace-cmd cannot write zstd trace.dat files"
fi
dat7() { # IN.dat OUT.dat: version 7, zstd
	have_prereq ZSTD_DAT &&
		trace-cmd convert -i "$1" -o "$2" --file-version 7 --compression zstd >/dev/null 2>&1
}
rc=skip
if dat7 "$T/bad.dat" "$T/bad7.dat"; then
	FTLENS_TRACEDAT_READER=libtracecmd timeout 20 "$FTLENS" info "$T/bad7.dat" >"$T/out" 2>&1
	rc=$?
fi
check ZSTD_DAT "compressed, libtracecmd's reader: no hang, the CPU ends before the page (rc $rc)" \
	'[ "$rc" = 0 ] && grep -q "CPU 0, page at decompressed offset 0: the padding at data offset $at leads back to $at; libtracecmd would loop on it, the rest of the CPU is skipped" "$T/out"'
# on CPU 0's second page: the CPU ends after the records before it, which
# libtracecmd numbers from an offset of its own in compressed data; the
# same events as the uncompressed file through the same reader
fresh
doctor_walk 3 0x3d 0xfffffffc 1 >/dev/null
python3 "$(dirname "$0")/raw2dat.py" "$T/bad/events" "$T/bad2.dat" \
	0:"$T/bad/per_cpu/cpu0/trace_pipe_raw" 1:"$T/bad/per_cpu/cpu1/trace_pipe_raw" || exit 1
rc=skip
if dat7 "$T/bad2.dat" "$T/bad27.dat"; then
	FTLENS_TRACEDAT_READER=libtracecmd timeout 20 "$FTLENS" dump "$T/bad2.dat" >"$T/d6" 2>/dev/null
	FTLENS_TRACEDAT_READER=libtracecmd timeout 20 "$FTLENS" dump "$T/bad27.dat" >"$T/d7" 2>"$T/out"
	rc=$?
fi
check ZSTD_DAT "compressed, a later page: libtracecmd's reader stops where it does uncompressed (rc $rc)" \
	'[ "$rc" = 0 ] && grep -q "CPU 0, page at decompressed offset 4096: the padding" "$T/out" &&
	[ $(wc -l <"$T/d7") -gt 100 ] && cmp -s "$T/d6" "$T/d7"'
fresh
# the padding's header the last 4 committed bytes: kbuffer reads its word
# past the commit all the same
at=$(doctor_walk 3 0x3d 0xfffffffc)
python3 -c 'import struct, sys; f = open(sys.argv[1], "r+b"); f.seek(8); f.write(struct.pack("<Q", int(sys.argv[2]) + 4))' \
	"$T/bad/per_cpu/cpu0/trace_pipe_raw" "$at"
timeout 20 "$FTLENS" info "$T/bad" >"$T/out" 2>&1
rc=$?
check "a padding in the page's last 4 committed bytes leading back: no hang, named (rc $rc)" \
	'[ "$rc" -eq 0 ] && grep -q "the padding at data offset $at leads back to $at; the rest of the page is skipped" "$T/out"'
fresh
at=$(doctor_walk 5 0 0xffffff00)
timeout 20 "$FTLENS" info "$T/bad" >"$T/out" 2>&1
rc=$?
check "an event whose length wraps the page's offset back: no hang, the event named (rc $rc)" \
	'[ "$rc" -eq 0 ] && grep -q "CPU 0, page 0 (file offset 0): .*event at data offset $at " "$T/out"'
fresh
head -c 0 /dev/null >"$T/bad/per_cpu/cpu0/trace_pipe_raw"
head -c 4096 /dev/urandom >"$T/bad/per_cpu/cpu1/trace_pipe_raw"
"$FTLENS" dump "$T/bad" >/dev/null 2>"$T/out"
rc=$?
check "an empty CPU and a page of random bytes: no crash (rc $rc)" '[ "$rc" -le 1 ]'
finish
