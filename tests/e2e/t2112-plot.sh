#!/bin/sh
# ftlens plot: every KIND through gnuplot on the hand-made and real traces
# with no warning from gnuplot, a PNG of the size asked for, SVG and PDF
# too; golden .dat files per KIND; --script-only leaves a script gnuplot
# runs by itself; without gnuplot the script is left and the command says
# so; usage errors; the input is never overwritten. Regenerate goldens with
# FTL_UPDATE_GOLDEN=1 after checking the differences by eye.
. "$(dirname "$0")/lib.sh"
prereq PYTHON
make_tmpdir
E=$top_srcdir/tests/e2e/expected
shots=$PWD/tests/e2e/t2112-plot
rm -rf "$shots" && mkdir -p "$shots" || exit 1
diag "plots in $shots"
plan 12

golden() { # NAME FILE: compare FILE with expected/NAME
	[ -n "${FTL_UPDATE_GOLDEN:-}" ] && cp "$2" "$E/$1"
	cmp -s "$E/$1" "$2" && return 0
	diff -u "$E/$1" "$2" | head -n 20 | sed 's/^/# /'
	return 1
}

# png_is FILE W H: FILE is a PNG of W x H pixels
png_is() {
	python3 -c '
import struct, sys
b = open(sys.argv[1], "rb").read(24)
assert b[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
w, h = struct.unpack(">II", b[16:24])
assert (w, h) == (int(sys.argv[2]), int(sys.argv[3])), (w, h)
' "$@"
}

# plot KIND OUT FILE...: ftlens plot, gnuplot's stderr kept in OUT.err
plot() {
	k=$1 o=$2
	shift 2
	"$FTLENS" plot "$k" -o "$o" "$@" 2>"$o.err" && ! grep -q "gnuplot says" "$o.err" ||
		{ sed 's/^/# /' "$o.err"; return 1; }
}

for k in latency cpu; do
	check "$k on the hand-made trace: golden .dat, no gnuplot warning, a 640x480 PNG" \
		'(cd "$FTL_TESTDATA/sched" && plot $k "$T/small-$k.png" --size 640x480 small.txt) &&
		 golden plot-$k.dat "$T/small-$k.dat" && png_is "$T/small-$k.png" 640 480'
done
real=$FTL_REAL_DATA
for f in events/lisa_tracecmd_report_sched_448k.txt events/kdoc5.4_events_instance_sched_wakeup_switch.txt \
	events/tracecompass_android_sched_irq.txt; do
	n=$(basename "$f" | sed 's/\..*//')
	check REAL_DATA "latency and cpu on real/$f: no gnuplot warning, 1000x600 PNGs" \
		'plot latency "$shots/$n-latency.png" "$real/$f" && plot cpu "$shots/$n-cpu.png" "$real/$f" &&
		 png_is "$shots/$n-latency.png" 1000 600 && png_is "$shots/$n-cpu.png" 1000 600'
done
check REAL_DATA "cpu on real/raw/lisa_rtapp_6cpu_trace.dat (trace.dat): no gnuplot warning" \
	'plot cpu "$shots/rtapp-cpu.png" "$real/raw/lisa_rtapp_6cpu_trace.dat" &&
	 png_is "$shots/rtapp-cpu.png" 1000 600'
S=$FTL_TESTDATA/sched/small.txt
check "SVG and PDF outputs are what their names say" \
	'plot latency "$T/l.svg" "$S" && plot cpu "$T/c.pdf" "$S" &&
	 python3 -c "import sys, xml.etree.ElementTree as E; assert E.parse(sys.argv[1]).getroot().tag.endswith(\"svg\")" "$T/l.svg" &&
	 head -c 5 "$T/c.pdf" | grep -q "%PDF-"'
check "--script-only leaves OUT.dat and OUT.gp; gnuplot runs the script by itself" \
	'"$FTLENS" plot cpu --script-only -o "$T/so.png" "$S" && [ ! -e "$T/so.png" ] &&
	 [ -s "$T/so.dat" ] && gnuplot "$T/so.gp" 2>"$T/so.err" && ! [ -s "$T/so.err" ] &&
	 png_is "$T/so.png" 1000 600'
check "without gnuplot: exit 1, it says so, the script is left, no picture" \
	'mkdir "$T/nobin" && ln -s "$FTLENS" "$T/nobin/ftlens" &&
	 ! PATH="$T/nobin" "$T/nobin/ftlens" plot latency -o "$T/ng.png" "$S" 2>"$T/ng.err" &&
	 grep -q "gnuplot is not installed" "$T/ng.err" && [ -s "$T/ng.gp" ] && [ ! -e "$T/ng.png" ]'
check "usage errors: a bad KIND, a bad extension, a bad --size (exit 2)" \
	'"$FTLENS" plot nope -o "$T/x.png" "$S" 2>/dev/null; a=$?
	 "$FTLENS" plot cpu -o "$T/x.gif" "$S" 2>/dev/null; b=$?
	 "$FTLENS" plot cpu --size 5x5 -o "$T/x.png" "$S" 2>/dev/null; c=$?
	 [ "$a$b$c" = 222 ] && ! ls "$T" | grep -q "^x\."'
check "it refuses to write over its input, which stays as it was" \
	'cp "$S" "$T/in.dat" && ! "$FTLENS" plot cpu -o "$T/in.png" "$T/in.dat" 2>/dev/null &&
	 cmp -s "$S" "$T/in.dat"'
check "latency on a trace without wakeups: one error, no picture" \
	'! "$FTLENS" plot latency -o "$T/nw.png" "$top_srcdir/data/sample-fgraph.txt" 2>"$T/nw.err" &&
	 grep -q "no wakeup" "$T/nw.err" && [ ! -e "$T/nw.png" ]'
finish
