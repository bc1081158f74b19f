#!/bin/sh
# Writes that cannot fail silently: every command that prints to standard
# output exits 1 saying "writing output: ..." when the output is /dev/full
# or a file on a full disk (stdio drops what it cannot write, so a command
# that printed in large blocks used to exit 0 with a truncated output), and
# every command that writes a file leaves none on a full disk. gnuplot
# exits 0 when its writes fail: plot checks the picture (a PNG ends with
# its IEND chunk, an SVG parses) before it is committed, and a marker
# holding "]]>" cannot break the SVG gnuplot writes from its label.
. "$(dirname "$0")/lib.sh"
make_tmpdir
S=$top_srcdir/data/sample-fgraph.txt
O=$top_srcdir/tests/data/oops-public/kdoc_kfence_x86_invalid_read.log
I=$top_srcdir/tests/data/sched/fgraph-irq.txt
E=$top_srcdir/tests/data/vm/events/default.txt
plan 7

# failed_write: the last run into $T/err exited 1 saying so, no signal
failed_write() {
	[ "$rc" -eq 1 ] && grep -q "writing output: \|write failed: \|writing the SVG failed" "$T/err" &&
		! grep -q 'Sanitizer\|runtime error' "$T/err" ||
		{ diag "exit $rc: $(head -n 3 "$T/err")"; false; }
}

check "every command that prints: > /dev/full exits 1, saying so" '
	for c in "info $S" "dump $S" "dump --format json $S" "report $S" "graph $S" \
		"graph --format json $S" "markers $S" "diff $S $S" "sched $I" "oops $O" \
		"export --to folded -o - $S" "flame -o - $S" "timeline -o - $E"; do
		"$FTLENS" $c >/dev/full 2>"$T/err"
		rc=$?
		failed_write || { diag "ftlens $c"; exit 1; }
	done
'

# full [BYTES]: mounts a 64 KiB tmpfs on $T/small, BYTES (45000: room for
# a plot's small .dat and .gp) of it taken
mkdir -p "$T/small"
full() {
	mount -t tmpfs -o size=64k ftl-small "$T/small" || return 1
	head -c "${1:-45000}" /dev/zero >"$T/small/fill"
}
# files on $T/small other than the filler, then unmounts it
left_and_umount() {
	left=$(find "$T/small" -type f ! -name fill ! -name "*.dat" ! -name "*.gp" | wc -l)
	umount "$T/small"
}

check ROOT "dump and report into a file on a full disk exit 1, saying so" '
	full 60000 || exit 1
	for c in "dump $S" "dump --format json $S" "report --format json $S"; do
		"$FTLENS" $c >"$T/small/out" 2>"$T/err"
		rc=$?
		failed_write || { diag "ftlens $c"; umount "$T/small"; exit 1; }
	done
	umount "$T/small"
'
check ROOT "flame, timeline, export -o onto a full disk: exit 1, no file, no temp" '
	full 60000 || exit 1
	for c in "flame -o $T/small/f.svg $S" "timeline -o $T/small/t.svg $E" \
		"export --to speedscope -o $T/small/s.json $S"; do
		"$FTLENS" $c >/dev/null 2>"$T/err"
		rc=$?
		[ "$rc" -eq 1 ] || { diag "ftlens $c: exit $rc"; umount "$T/small"; exit 1; }
	done
	left_and_umount
	[ "$left" -eq 0 ] || { diag "$left files left"; false; }
'

if command -v gnuplot >/dev/null 2>&1; then
	check ROOT "plot durations -o X.png on a full disk: exit 1, the cut PNG refused" '
		full || exit 1
		"$FTLENS" plot durations -f mutex_unlock -o "$T/small/d.png" "$S" >/dev/null 2>"$T/err"
		rc=$?
		left_and_umount
		[ "$rc" -eq 1 ] && [ "$left" -eq 0 ] &&
			grep -q "d.png'\'': gnuplot'\''s picture is not whole: the PNG does not end" "$T/err" ||
			{ diag "exit $rc, $left left: $(cat "$T/err")"; false; }
	'
	check ROOT "plot rate -o X.svg on a full disk: exit 1, the cut SVG refused" '
		full || exit 1
		"$FTLENS" plot rate -o "$T/small/r.svg" "$S" >/dev/null 2>"$T/err"
		rc=$?
		left_and_umount
		[ "$rc" -eq 1 ] && [ "$left" -eq 0 ] &&
			grep -q "r.svg'\'': gnuplot'\''s picture is not whole: the SVG does not parse" "$T/err" ||
			{ diag "exit $rc, $left left: $(cat "$T/err")"; false; }
	'
	check "plot durations and rate on a roomy disk still write whole pictures" '
		"$FTLENS" plot durations -f mutex_unlock -o "$T/d.png" "$S" 2>/dev/null &&
		"$FTLENS" plot rate -o "$T/r.svg" "$S" 2>/dev/null &&
		[ "$(tail -c 8 "$T/d.png" | od -An -c | tr -d " ")" = "IEND256B\`202" ] &&
		grep -q "</svg>" "$T/r.svg"
	'
	m=$FTL_CRASHERS/plot-marker-cdata-end.txt
	if have_input "$m"; then
		check PYTHON "plot rate of a marker holding ]]>: the SVG parses" '
			"$FTLENS" plot rate -o "$T/m.svg" "$m" 2>"$T/err" &&
			python3 -c "import sys, xml.dom.minidom as m; m.parse(sys.argv[1])" "$T/m.svg"
		'
	fi
else
	skip "plot on a full disk: gnuplot is not installed"
	skip "plot on a full disk: gnuplot is not installed"
	skip "plot pictures: gnuplot is not installed"
	skip "plot of a marker holding ]]>: gnuplot is not installed"
fi
