#!/bin/sh
# Microseconds as trace-cmd prints them: for every event of every trace.dat
# under ../shared/data/real/raw and of tests/data/overrun/overrun.dat, the
# time `ftlens dump --us` prints equals the time `trace-cmd report` prints
# (libtraceevent rounds to the nearest microsecond, as the kernel's
# ns2usecs() does; ftlens truncated, and disagreed by 1 us on about half of
# the events). The same formatting (util/timefmt.c) gives the TUI's time
# column. Events are compared as (CPU, time) pairs, so the tie order of two
# CPUs at one time does not matter; the count of disagreements of each input
# is printed to the log. Lost-events records, which trace-cmd prints as
# "CPU:0 [N EVENTS DROPPED]" without a time, are left out.
. "$(dirname "$0")/lib.sh"
prereq TRACE_CMD
make_tmpdir

# us_compare LABEL TRACE.DAT
us_compare() {
	if ! "$FTLENS" dump --us "$2" >"$T/d" 2>"$T/err"; then
		not_ok "$1: ftlens dump --us failed: $(head -1 "$T/err")"
		return
	fi
	# lost-events records: trace-cmd prints them without a time
	awk '$5 != "lost" { print $2 + 0, $1 }' "$T/d" | sort >"$T/f"
	trace-cmd report "$2" 2>/dev/null |
		awk 'match($0, /\[[0-9]+\] +[0-9]+\.[0-9]+: /) {
			s = substr($0, RSTART, RLENGTH); gsub(/[\[\]:]/, "", s)
			split(s, a, " "); print a[1] + 0, a[2] }' | sort >"$T/r"
	n=$(wc -l <"$T/r")
	bad=$(comm -3 "$T/f" "$T/r" | wc -l)
	diag "$1: $n events, $bad lines differ"
	check "$1: every event's microseconds as trace-cmd report prints them ($n events)" \
		'[ "$n" -gt 0 ] && [ "$(wc -l <"$T/f")" -eq "$n" ] && [ "$bad" -eq 0 ]'
}

n=0
for f in "$FTL_REAL_DATA"/raw/*.dat; do
	[ -e "$f" ] && n=$((n + 1))
done
plan $((n ? n + 2 : 3))
if [ "$n" -eq 0 ]; then
	skip_absent "$FTL_REAL_DATA/raw/*.dat"
else
	for f in "$FTL_REAL_DATA"/raw/*.dat; do
		us_compare "$(shared_name "$f")" "$f"
	done
fi
us_compare overrun.dat "$FTL_TESTDATA/overrun/overrun.dat"

check '--us with CSV or JSON is a usage error naming the option' \
	'"$FTLENS" dump --us --json "$FTL_TESTDATA/overrun/overrun.dat" >"$T/o" 2>"$T/e";
	 [ $? -eq 2 ] && grep -q -- "--us" "$T/e" && [ ! -s "$T/o" ]'
finish
