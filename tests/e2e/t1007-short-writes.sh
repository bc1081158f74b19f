#!/bin/sh
# Writes cut short and interrupted: under tests/shim/shortio.c (LD_PRELOAD),
# every third write(), pwrite() or pwrite64() to a regular file fails with
# EINTR and every other one takes half of what it is given, as a signal or a
# file system near full can make them do. What ftlens writes itself with
# those calls (the speedscope export's spool, the expanded copy of a
# compressed input, the pages `record` reads out of the ring buffer) must
# come out whole: the same bytes as without the shim. The shim's log shows
# it cut calls short in each run, so a run that never met it cannot pass.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

shim=$(find "${top_builddir:-.}/tests/shim/.libs" -name 'libshortio.so' 2>/dev/null | head -n 1)
[ -n "$shim" ] || skip_all "tests/shim/.libs/libshortio.so is not built (make check builds it)"
fg="$FTL_REAL_DATA/fgraph/perftools_funcgraph_abstime_header_vfs_read.txt"
oops="$FTL_REAL_DATA/oops/syzbot_report_113_x86_kernel_bug_esp6_gro_receive.log"
need_input "$fg"
need_input "$oops"
make_tmpdir
plan 7

# shimmed CMD...: runs CMD with the shim; its log line in $T/log
shimmed() {
	: >"$T/log"
	FTL_SHORTIO_LOG=$T/log LD_PRELOAD=$shim \
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 "$@"
}
# the shim cut calls short and interrupted some in the last run
met_shim() {
	awk '{ split($2, c, "="); split($3, e, "="); cut += c[2]; eintr += e[2] }
	     END { exit !(cut > 0 && eintr > 0) }' "$T/log" && return 0
	diag "the shim did not act: $(cat "$T/log")"
	return 1
}

"$FTLENS" export --to speedscope -o "$T/ref.json" "$fg" 2>/dev/null
check "export speedscope through the spool: the same file as without the shim" '
	shimmed "$FTLENS" export --to speedscope -o "$T/shim.json" "$fg" 2>"$T/err" &&
	met_shim && cmp "$T/ref.json" "$T/shim.json"'

gzip -c "$oops" >"$T/oops.log.gz"
"$FTLENS" oops "$T/oops.log.gz" >"$T/ref.txt" 2>&1
check "a gzip log expanded to a temporary copy: the same report" '
	shimmed "$FTLENS" oops "$T/oops.log.gz" >"$T/shim.txt" 2>&1 &&
	met_shim && cmp "$T/ref.txt" "$T/shim.txt"'
gzip -dc "$T/oops.log.gz" | "$FTLENS" oops - >"$T/ref-pipe.txt" 2>&1
check "the same log read from a pipe: the same report" '
	gzip -dc "$T/oops.log.gz" | shimmed "$FTLENS" oops - >"$T/pipe.txt" 2>&1 &&
	met_shim && cmp "$T/ref-pipe.txt" "$T/pipe.txt"'

if have_prereq ROOT TRACEFS TRACE_CMD; then
	tracefs_top_lock
	shimmed "$FTLENS" record -e sched:sched_switch --duration 0.5 -o "$T/rec.dat" \
		>"$T/rec.out" 2>&1
	rc=$?
	check "record through short writes: exit 0 (rc $rc)" '[ $rc -eq 0 ] || { diag "$(cat "$T/rec.out")"; false; }'
	check "record: the shim cut its writes short" 'met_shim'
	said=$(awk '$1 ~ /^[0-9]+$/ && NF == 5 { n += $3 } END { print n + 0 }' "$T/rec.out")
	got=$(trace-cmd report "$T/rec.dat" 2>/dev/null | grep -c "sched_switch:")
	check "record: trace-cmd reads every event record counted ($got = $said)" \
		'[ "$said" -gt 0 ] && [ "$got" -eq "$said" ]'
	check "record: no staging directory left" '! ls -a "$T" | grep -q "ftlens-"'
else
	for n in 1 2 3 4; do
		skip "record through short writes: missing $prereq_why"
	done
fi
finish
