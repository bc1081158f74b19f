#!/bin/sh
# Decoding on demand: a command's table entry declares the event fields its
# analyses and views read (FtlCommand.fields) and the text parsers leave the
# others undecoded. Every command that reads events gives the same bytes
# (stdout, stderr, exit status, output files) with its mask as with every
# field decoded (FTLENS_DECODE=all), on every text trace in tests/data and
# on generated function_graph traces in every layout
# (tests/e2e/fgraph_layouts.py); info, the command whose mask is narrowest,
# also on the public traces of $FTL_REAL_DATA when present.
# FTLENS_TEXT_PARSE=verify says how many optional fields were decoded, which
# shows the masks at work: none for info, some for dump, all again for info
# with a selection option (a filter may read any field).
. "$(dirname "$0")/lib.sh"
make_tmpdir
plan 9

# same CMD FILE...: every field decoded (FTLENS_DECODE=all, into $T/a.s)
# and CMD's mask (into $T/b.s) give the same bytes (lib.sh's same_outputs).
same() { same_outputs FTLENS_DECODE=all "" "$@"; }

# decoded CMD ARGS...: the optional fields CMD decoded, by verify's count
decoded() {
	FTLENS_TEXT_PARSE=verify "$FTLENS" "$@" 2>&1 >/dev/null |
		sed -n 's/^ftlens: FTLENS_TEXT_PARSE=verify: .*; \([0-9]*\) optional fields decoded$/\1/p' |
		awk '{ n += $1; k++ } END { print k ? n : "none" }'
}

# is_count X: X is a number (verify said how many)
is_count() { case $1 in '' | *[!0-9]*) return 1 ;; esac; }

cmds="info dump report graph flame export sched markers timeline split"

# ---- the masks at work ----------------------------------------------------
f=$FTL_TESTDATA/vm/fgraph-basic/trace.txt
ev=$FTL_TESTDATA/vm/events/default.txt
check 'info decodes no optional field, dump some, on function_graph and event text' '
	i=$(decoded info "$f") && d=$(decoded dump "$f") &&
	ie=$(decoded info "$ev") && de=$(decoded dump "$ev") &&
	echo "# function_graph: info $i, dump $d; events: info $ie, dump $de" &&
	is_count "$i" && is_count "$ie" &&
	test "$i" = 0 && test "$d" -gt 100 && test "$ie" = 0 && test "$de" -gt 100'
check 'FTLENS_DECODE=all and a selection option make info decode them all' '
	a=$(FTLENS_DECODE=all decoded info "$f") && s=$(decoded info --cpu 0-9999 "$f") &&
	d=$(decoded dump "$f") && echo "# all $a, --cpu $s, dump $d" &&
	is_count "$d" && test "$d" -gt 100 && test "$a" = "$d" && test "$s" = "$d"'

# ---- samples ------------------------------------------------------------
# text traces only: console logs, stack tables and binary inputs have no
# text parser's mask
find "$FTL_TESTDATA" -type f \( -name '*.txt' -o -name '*.sav' \) |
	grep -v -e /oops -e run-info -e uname -e cmdline -e trace_clock -e available_tracers \
		-e trace_options -e set_graph -e set_event -e /stack -e README | sort >"$T/samples"
check 'samples: the list has the bundled text traces' \
	'test "$(wc -l <"$T/samples")" -ge 20'

check 'samples: every command gives the same bytes with its mask as with every field' '
	bad= n=0
	while read -r s; do
		for cmd in $cmds; do
			same "$cmd" "$s" || bad=1
			[ "$cmd" != info ] || ! grep -qx rc=0 "$T/b.s" || echo "$s" >>"$T/good"
		done
		n=$((n + 1))
	done <"$T/samples"
	echo "# $n samples"
	test -z "$bad"'

check 'samples: info of every trace at once (--merge) gives the same bytes' '
	# shellcheck disable=SC2046
	test "$(wc -l <"$T/good")" -ge 20 && same info --merge $(cat "$T/good") &&
	grep -qx rc=0 "$T/b.s"'

if [ -d "$FTL_REAL_DATA" ]; then
	find "$FTL_REAL_DATA/fgraph" "$FTL_REAL_DATA/function" "$FTL_REAL_DATA/events" \
		-type f -name '*.txt' | sort >"$T/real"
	check 'public traces: info gives the same bytes with its mask as with every field' '
		bad= n=0
		while read -r s; do
			same info "$s" || bad=1
			n=$((n + 1))
		done <"$T/real"
		echo "# $n traces"
		test -z "$bad" && test "$n" -ge 20'
else
	skip_absent "$FTL_REAL_DATA" 1
fi

# ---- generated layouts ----------------------------------------------------
python3 "$top_srcdir/tests/e2e/fgraph_layouts.py" "$T/lay" 11 >"$T/nlay"
check 'fgraph_layouts.py makes 512 layouts' 'test "$(cat "$T/nlay")" = 512'
# the layouts ftlens reads (some without CPU and duration columns are no
# format it knows, and one in a group would make the group an error); one
# file at a time would be 512 runs per command: groups of 64 files
for l in "$T"/lay/*.txt; do
	"$FTLENS" info "$l" >/dev/null 2>&1 && echo "$l"
done >"$T/parsed"
split -l 64 "$T/parsed" "$T/group."

check 'generated layouts: every command gives the same bytes with its mask' '
	bad= n=0
	for g in "$T"/group.*; do
		for cmd in $cmds; do
			# shellcheck disable=SC2046
			same "$cmd" $(cat "$g") || bad=1
		done
		n=$((n + 1))
	done
	echo "# $n groups of the $(wc -l <"$T/parsed") layouts that parse"
	test -z "$bad" && test "$(wc -l <"$T/parsed")" -ge 400'

check 'generated layouts: info decodes nothing, dump something' '
	# bits: proc 1, abstime 2, cpu 4, duration 8
	i=$(decoded info "$T"/lay/L00f.txt) && d=$(decoded dump "$T"/lay/L00f.txt) &&
	echo "# info $i, dump $d" && is_count "$i" && test "$i" = 0 && test "$d" -gt 0'

finish
