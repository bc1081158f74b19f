#!/bin/sh
# The text parser's fast path (function_graph's standard column layout read
# at fixed offsets, parse/text-fgraph.c) and info's decode of only what it
# prints give what the general parser decoding every field gives, byte for
# byte: every command's stdout, stderr, exit status and output file, with
# FTLENS_TEXT_PARSE=general (the reference) and by default, on the bundled
# samples, every text trace in tests/data and in $FTL_REAL_DATA, and
# generated function_graph traces in every layout the kernel's options make
# (tests/e2e/fgraph_layouts.py: funcgraph-proc, -abstime, -cpu, -duration,
# -overhead, -irqs, -tail, latency-format, with and without markers and
# events). FTLENS_TEXT_PARSE=verify checks each line the fast path takes
# against the general parser in the process (it aborts on a difference)
# and says how many it took, so that the comparison is known not to be
# vacuous.
. "$(dirname "$0")/lib.sh"
make_tmpdir
plan 14

# same CMD FILE...: FTLENS_TEXT_PARSE=general and the fast path give the
# same bytes (lib.sh's same_outputs); a difference is shown.
same() { same_outputs FTLENS_TEXT_PARSE=general "" "$@"; }

# fast_lines FILE...: the lines the fast path took, by verify's count
# (dump's status in $T/verify.rc); status 1 when verify aborted.
fast_lines() {
	FTLENS_TEXT_PARSE=verify "$FTLENS" dump "$@" >/dev/null 2>"$T/verify.err"
	rc=$?
	echo "$rc" >"$T/verify.rc"
	if [ $rc -ge 128 ] || grep -q disagree "$T/verify.err"; then
		sed 's/^/#   /' "$T/verify.err" | grep -v '^#   ==' | head -n 5
		return 1
	fi
	sed -n 's/^ftlens: FTLENS_TEXT_PARSE=verify: \([0-9]*\) of .*/\1/p' "$T/verify.err" |
		awk '{ n += $1 } END { print n + 0 }'
}

cmds="info dump report graph flame export sched markers timeline"

# ---- generated layouts ------------------------------------------------
python3 "$top_srcdir/tests/e2e/fgraph_layouts.py" "$T/lay" 7 >"$T/nlay"
check 'fgraph_layouts.py makes 512 layouts (8 options, with and without comments)' \
	'test "$(cat "$T/nlay")" = 512 && test "$(ls "$T/lay" | wc -l)" = 512'

# every layout through verify, one file at a time; those that parse (some
# layouts without CPU and duration columns are no format ftlens knows, by
# either parser) make the groups the commands compare on
check 'verify: in every layout the fast path gives the general parser'"'"'s events' '
	bad= total=0
	for f in "$T"/lay/*.txt; do
		n=$(fast_lines "$f") || { echo "# $f: verify failed"; bad=1; continue; }
		[ "$(cat "$T/verify.rc")" != 0 ] || echo "$f" >>"$T/parsed"
		total=$((total + n))
	done
	echo "# $total lines through the fast path; $(wc -l <"$T/parsed") layouts parse"
	test -z "$bad" && test "$total" -gt 2000 && test "$(wc -l <"$T/parsed")" -ge 400'
split -l 24 "$T/parsed" "$T/group." 2>/dev/null || :

check 'the fast path takes the lines of the layouts it knows, not the others' '
	# bits: proc 1, abstime 2, cpu 4, duration 8, latency 0x80
	cpu_dur=$(fast_lines "$T"/lay/L00c.txt) &&
	all_known=$(fast_lines "$T"/lay/L00f.txt) &&
	no_cpu=$(fast_lines "$T"/lay/L00b.txt) &&
	no_dur=$(fast_lines "$T"/lay/L007.txt) &&
	latency=$(fast_lines "$T"/lay/L08f.txt) &&
	echo "# cpu+duration $cpu_dur, +proc+abstime $all_known, no cpu $no_cpu," \
		"no duration $no_dur, latency $latency" &&
	test "$cpu_dur" -gt 0 && test "$all_known" -gt 0 &&
	test "$no_cpu" = 0 && test "$no_dur" = 0 && test "$latency" = 0'

for cmd in $cmds; do
	check "$cmd: generated layouts: general and fast give the same bytes" '
		bad= n=0
		for g in "$T"/group.*; do
			# shellcheck disable=SC2046
			same "$cmd" $(cat "$g") || bad=1
			n=$((n + 1))
		done
		test -z "$bad" && test "$n" -ge 16'
done

# ---- samples ------------------------------------------------------------
# text traces only: console logs, stack tables and binary inputs have no
# text trace parser to compare
find "$FTL_TESTDATA" "$top_srcdir/examples" -type f \( -name '*.txt' -o -name '*.sav' \) |
	grep -v -e /oops -e run-info -e uname -e cmdline -e trace_clock -e available_tracers \
		-e trace_options -e set_graph -e set_event -e /stack -e README | sort >"$T/samples"
if [ -d "$FTL_REAL_DATA" ]; then
	find "$FTL_REAL_DATA/fgraph" "$FTL_REAL_DATA/function" "$FTL_REAL_DATA/events" \
		-type f -name '*.txt' | sort >>"$T/samples"
else
	skip_absent "$FTL_REAL_DATA" 0
fi
check 'samples: the list has the bundled and public text traces' \
	'test "$(wc -l <"$T/samples")" -ge 20'

check 'samples: verify on every one; info the same everywhere, every command where the fast path took lines' '
	bad= used=0
	while read -r f; do
		n=$(fast_lines "$f") || { echo "# $f: verify failed"; bad=1; continue; }
		same info "$f" || bad=1
		[ "$n" -gt 0 ] || continue
		used=$((used + 1))
		for cmd in $cmds; do
			[ "$cmd" = info ] || same "$cmd" "$f" || bad=1
		done
	done <"$T/samples"
	echo "# the fast path took lines of $used samples"
	test -z "$bad" && test "$used" -ge 5'

finish
