#!/bin/sh
# ftlens plot: every KIND through gnuplot on the hand-made, rig and real
# traces with no warning from gnuplot, a PNG of the size asked for, SVG and
# PDF too; golden .dat files per KIND; --script-only leaves a script gnuplot
# runs by itself; without gnuplot the script is left and the command says
# so; usage errors; the input is never overwritten; hostile marker and
# function text stays inert in the script (gnuplot runs nothing of it).
# Plots that show their data: cpu on 2, 6 and 8 CPUs, busy and idle, short
# and long: bins of a round width chosen from the span, a y range with
# room beyond 0 and 100 %, a heat strip of the CPUs beyond four, every
# value inside the plot, units on every axis; the PNGs are kept in
# tests/e2e/t2112-plot/ beside this test's log.
# Regenerate goldens with FTL_UPDATE_GOLDEN=1 after checking the
# differences by eye.
. "$(dirname "$0")/lib.sh"
prereq PYTHON
make_tmpdir
E=$top_srcdir/tests/e2e/expected
shots=$PWD/tests/e2e/t2112-plot
rm -rf "$shots" && mkdir -p "$shots" || exit 1
diag "plots in $shots"
plan 49

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

# cpu_shows DAT GP NCPU: bins of a round width (1, 2 or 5 times a power of
# ten ns), 40 to 200 of them over the span; the y range has room beyond 0
# and 100 %; every value is a share in [0, 100] at a time inside the x
# range; the axes name their units; with more than 4 CPUs a heat strip
# (`with image`, a row per CPU for every bin) and the mean over the CPUs.
cpu_shows() {
	python3 - "$@" <<'PY'
import math, re, sys
dat, gp, ncpu = sys.argv[1], open(sys.argv[2]).read(), int(sys.argv[3])
blocks = [b for b in open(dat).read().split("\n\n\n")]
w = int(re.search(r"# bins of (\d+) ns", blocks[0]).group(1))
m = w / 10 ** math.floor(math.log10(w))
assert m in (1, 2, 5), ("bin width not round", w)
# the busy % axis: the y range that reaches past 0
lo, hi = [(float(a), float(b)) for a, b in re.findall(r"set yrange \[([-0-9.]+):([-0-9.]+)\]", gp)
          if float(a) < 0 <= float(b)][0]
assert lo < 0 and hi > 100, ("no margin", lo, hi)
xmax = float(re.search(r"set xrange \[0:([0-9.e+-]+)\]", gp).group(1))
rows = [l.split() for l in blocks[0].splitlines() if l and l[0].isdigit()]
assert 40 <= len(rows) <= 200, ("bins", len(rows))
assert all(len(r) == ncpu + 1 for r in rows), "columns"
assert all(0 <= float(r[0]) <= xmax and all(0 <= float(v) <= 100 for v in r[1:]) for r in rows)
for axis in ("xlabel", "ylabel"):
    assert re.search(r"set %s '[^']*\((s|ms|us|%%)[^']*\)" % axis, gp) or \
        re.search(r"set %s '[^']*%%" % axis, gp), ("no unit on", axis)
if ncpu > 4:
    assert "with image" in gp and "set cblabel 'busy (%" in gp, "no heat strip"
    heat = [l.split() for l in blocks[1].splitlines() if l and l[0].isdigit()]
    assert len(heat) == len(rows) * ncpu, ("heat cells", len(heat), len(rows) * ncpu)
    assert sorted({int(c[1]) for c in heat}) == list(range(ncpu))
    assert "index 2 using 1:2 with lines" in gp, "no mean"
else:
    assert "with image" not in gp, "a heat strip for few CPUs"
print("# %d bins of %d ns, y range [%g:%g], %d CPUs%s" %
      (len(rows), w, lo, hi, ncpu, ", heat strip" if ncpu > 4 else ""))
PY
}
cc -O2 -o "$T/gen-sched" "$top_srcdir/bench/gen-sched.c" -lm || exit 1
"$T/gen-sched" -s 7 -c 8 2M "$T/busy8.txt" && "$T/gen-sched" -s 7 -c 2 1M "$T/busy2.txt" || exit 1
check "cpu on 8 CPUs busy all the time (generated): heat strip, the 100 % off the frame" \
	'plot cpu "$shots/busy8-cpu.png" "$T/busy8.txt" &&
	 cpu_shows "$shots/busy8-cpu.dat" "$shots/busy8-cpu.gp" 8'
check "cpu on 2 CPUs busy all the time (generated): lines, the 100 % off the frame" \
	'plot cpu "$shots/busy2-cpu.png" "$T/busy2.txt" &&
	 cpu_shows "$shots/busy2-cpu.dat" "$shots/busy2-cpu.gp" 2'
check REAL_DATA "cpu on real 8 CPUs (trappy, mostly idle, 5.5 s): heat strip, values in range" \
	'plot cpu "$shots/trappy8-cpu.png" "$real/raw/trappy_arm32_8cpu_trace.dat" &&
	 cpu_shows "$shots/trappy8-cpu.dat" "$shots/trappy8-cpu.gp" 8'
check REAL_DATA "cpu on real 2 CPUs, 266 us: bins of microseconds, axis in us" \
	'f=$real/events/kdoc5.4_events_instance_sched_wakeup_switch.txt &&
	 plot cpu "$shots/kdoc2-cpu.png" "$f" && grep -q "(us)" "$shots/kdoc2-cpu.gp" &&
	 cpu_shows "$shots/kdoc2-cpu.dat" "$shots/kdoc2-cpu.gp" 2'
check REAL_DATA "cpu on real 6 CPUs (lisa, 6.7 s): heat strip" \
	'plot cpu "$shots/lisa-cpu.png" "$real/events/lisa_tracecmd_report_sched_448k.txt" &&
	 cpu_shows "$shots/lisa-cpu.dat" "$shots/lisa-cpu.gp" 6'
# normal and RT wakeups drawn together: each class as its share of its
# wakeups (a class of 21 wakeups beside 1045 was a line under their bars),
# their boxes side by side in a bin, never over one another
lat_apart() {
	python3 - "$1" <<-PY
	import sys
	blocks, cur = [], None
	for line in open(sys.argv[1]):
	    if line.startswith("# index"):
	        cur = [] if "histogram" in line else None
	        if cur is not None: blocks.append(cur)
	    elif cur is not None and line.strip():
	        c, y, w = map(float, line.split())
	        cur.append((c - w / 2, c + w / 2, y))
	assert len(blocks) == 2, len(blocks)
	for b in blocks:
	    assert abs(sum(y for _, _, y in b) - 100) < 0.1, sum(y for _, _, y in b)
	for a0, a1, ay in blocks[0]:
	    for b0, b1, by in blocks[1]:
	        assert not (ay and by and min(a1, b1) - max(a0, b0) > 1e-4 * a1), ((a0, a1), (b0, b1))  # 6 digits written
	print("# RT shares up to %.1f %%, normal up to %.1f %%" % (max(y for *_, y in blocks[1]), max(y for *_, y in blocks[0])))
	PY
}
check "latency: normal and RT as shares, side by side, on the hand-made trace" \
	'(cd "$FTL_TESTDATA/sched" && plot latency "$T/apart.png" small.txt) && lat_apart "$T/apart.dat"'
check REAL_DATA "latency: 21 RT wakeups beside 1045 normal ones are bars of their own (lisa)" \
	'lat_apart "$shots/lisa_tracecmd_report_sched_448k-latency.dat"'
check "latency, rate, durations: room above the data (and below zero for rate), CDFs beyond 0 and 1" \
	'for t in latency rate durations; do
		g=$top_srcdir/data/plot-$t.gp
		grep -q "set offsets 0, 0, graph 0.05, " "$g" || { echo "# $t: no room on top"; exit 1; }
	 done && grep -q "set offsets 0, 0, graph 0.05, graph 0.03" "$top_srcdir/data/plot-rate.gp" &&
	 for t in latency durations; do
		grep -q "set yrange \[-0.04:1.06\]" "$top_srcdir/data/plot-$t.gp" || { echo "# $t: CDF"; exit 1; }
	 done'
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

# ---- durations, rate, stack ---------------------------------------------------
V=$FTL_TESTDATA/vm
check "durations on the rig's function_graph trace: golden .dat, no gnuplot warning, 800x500" \
	'(cd "$V/fgraph-basic" && plot durations "$T/dur.png" --size 800x500 -f vfs_open \
		-f path_openat trace.txt) && golden plot-durations.dat "$T/dur.dat" &&
	 png_is "$T/dur.png" 800 500'
check "durations: the golden CDF ends at 1 at each function's longest call, counts add up" \
	'python3 - "$T/dur.dat"' <<'PY'
import sys
blocks = [b.strip().split("\n") for b in open(sys.argv[1]).read().split("\n\n\n")]
rows = lambda b: [list(map(float, l.split())) for l in b if not l.startswith("#")]
# vfs_open: 20 calls, longest 4.807 ms; path_openat: 20 calls, longest 5.130 ms
for hist, cdf, calls, longest in ((blocks[0], blocks[1], 20, 4806.886), (blocks[2], blocks[3], 20, 5130.0)):
    assert sum(r[1] for r in rows(hist)) == calls, hist
    last = rows(cdf)[-1]
    assert last[1] == 1.0 and abs(last[0] - longest) / longest < 0.01, last
    ys = [r[1] for r in rows(cdf)]
    assert ys == sorted(ys), ys
PY
check REAL_DATA "durations on real/fgraph (vfs_read, 19 s blocked reads): no gnuplot warning" \
	'plot durations "$shots/vfs-read-durations.png" -f vfs_read -f __schedule -f tty_read \
		"$real/fgraph/perftools_funcgraph_abstime_header_vfs_read.txt" &&
	 png_is "$shots/vfs-read-durations.png" 1000 600'
check REAL_DATA "durations of three functions with the same calls: bars side by side, CDFs dashed apart" \
	'python3 - "$shots/vfs-read-durations.gp"' <<'PY'
import re, sys
gp = open(sys.argv[1]).read()
bars = re.findall(r"using \(\(\$1-\$3/2\+\$3\*([0-9.]+)\)\*1e-6\):2:\(\$3\*([0-9.]+)\*1e-6\) with boxes", gp)
assert len(bars) == 3, bars
offs = sorted(float(o) for o, _ in bars)
assert all(abs(float(w) - 1 / 3) < 1e-5 for _, w in bars), bars
assert all(abs(o - (k + 0.5) / 3) < 1e-5 for k, o in enumerate(offs)), offs  # apart, inside the bin
dts = re.findall(r"with steps lw (\d+) dt (\d+)", gp)
assert len(dts) == 3 and len({d for _, d in dts}) == 3 and len({w for w, _ in dts}) == 3, dts
PY
check "durations of a function never called: one error naming it, no picture, no data" \
	'! "$FTLENS" plot durations -f no_such_func -o "$T/nf.png" "$V/fgraph-basic/trace.txt" \
		2>"$T/nf.err" && grep -q "'\''no_such_func'\'' (never called in the trace)" "$T/nf.err" &&
	 [ ! -e "$T/nf.png" ] && [ ! -e "$T/nf.dat" ]'
check "durations of one called and one absent function: the absent one said, left out" \
	'plot durations "$T/half.png" -f vfs_open -f no_such_func "$V/fgraph-basic/trace.txt" &&
	 grep -q "left out '\''no_such_func'\''" "$T/half.png.err" && ! grep -q no_such_func "$T/half.gp"'
check "durations without -f, -f on another kind, a bad --by: usage errors (exit 2)" \
	'"$FTLENS" plot durations -o "$T/u.png" "$S" 2>/dev/null; a=$?
	 "$FTLENS" plot rate -f x -o "$T/u.png" "$S" 2>/dev/null; b=$?
	 "$FTLENS" plot rate --by pid -o "$T/u.png" "$S" 2>/dev/null; c=$?
	 [ "$a$b$c" = 222 ]'

check "rate per CPU on the hand-made trace: golden .dat, its two markers drawn" \
	'(cd "$FTL_TESTDATA/sched" && plot rate "$T/rate.png" --bins 20 small.txt) &&
	 golden plot-rate.dat "$T/rate.dat" && png_is "$T/rate.png" 1000 600 &&
	 [ "$(grep -c "^set arrow" "$T/rate.gp")" -eq 2 ] && grep -q "^set label '\''begin phase'\''" "$T/rate.gp"'
check "rate: each CPU's events over the bins add up to what info counts" \
	'python3 - "$T/rate.dat" "$S"' <<'PY'
import re, sys
dat = open(sys.argv[1]).read()
width = int(re.search(r"bins of (\d+) ns", dat).group(1)) / 1e9
cols = {int(c) - 1: (name, int(n)) for c, name, n in re.findall(r"# column (\d+): (CPU \d+) \((\d+) events\)", dat)}
rows = [list(map(float, l.split())) for l in dat.split("\n") if l and not l.startswith("#")]
for c, (name, n) in cols.items():
    got = sum(r[c] for r in rows) * width
    assert abs(got - n) < 1e-3 * max(n, 1), (name, got, n)
# the hand-made trace's events per CPU, counted here from its lines
text = open(sys.argv[2]).read()
per = {}
for m in re.finditer(r"^\s*\S.*?\[(\d{3})\] \S+\s+[0-9.]+: ", text, re.M):
    per[int(m.group(1))] = per.get(int(m.group(1)), 0) + 1
assert {name: n for name, n in cols.values()} == {"CPU %d" % c: n for c, n in per.items()}, (cols, per)
PY
check "rate --by event on the hand-made trace: golden .dat" \
	'(cd "$FTL_TESTDATA/sched" && plot rate "$T/rate-ev.png" --by event --bins 20 small.txt) &&
	 golden plot-rate-event.dat "$T/rate-ev.dat"'
check REAL_DATA "rate per CPU and per event on real traces with markers: no gnuplot warning" \
	'plot rate "$shots/lisa-rate.png" "$real/events/lisa_tracecmd_report_sched_448k.txt" &&
	 plot rate "$shots/android-rate.png" --by event --size 1200x500 \
		"$real/events/tracecompass_atrace_android_tgid_large.txt" &&
	 plot rate "$shots/rtapp-rate.pdf" "$real/raw/lisa_rtapp_6cpu_trace.dat" &&
	 png_is "$shots/lisa-rate.png" 1000 600 && png_is "$shots/android-rate.png" 1200 500 &&
	 head -c 5 "$shots/rtapp-rate.pdf" | grep -q "%PDF-"'

# rate_shows DAT GP [SPREAD]: bins of a round width (analysis/timebins
# merged into 1, 2 or 5 times a power of ten ns), 40 to 200 of them; the
# x range holds every bin, the y range has room above the highest; the
# axes name their units; with SPREAD the markers drawn stand over more
# than half of the x range (the first of each bin, not the first 200).
rate_shows() {
	python3 - "$@" <<'PY'
import math, re, sys
dat, gp = open(sys.argv[1]).read(), open(sys.argv[2]).read()
w = int(re.search(r"# bins of (\d+) ns", dat).group(1))
m = w / 10 ** math.floor(math.log10(w))
assert m in (1, 2, 5), ("bin width not round", w)
rows = [l.split() for l in dat.splitlines() if l and not l.startswith("#")]
assert 40 <= len(rows) <= 200, ("bins", len(rows))
xmax = float(re.search(r"set xrange \[0:([0-9.e+-]+)\]", gp).group(1))
assert all(0 < float(r[0]) < xmax for r in rows), "a bin outside the x range"
offs = re.findall(r"^set offsets 0, 0, graph ([0-9.]+), graph ([0-9.]+)", gp, re.M)
assert offs and float(offs[-1][0]) >= 0.05 and float(offs[-1][1]) > 0, ("no room", offs)
unit = re.search(r"set xlabel 'time since the first event \((s|ms|us)\)'", gp)
assert unit, "no unit on x"
bin_label = re.search(r"set ylabel 'events per second \(bins of ([0-9.]+) (s|ms|us|ns)\)'", gp)
assert bin_label, "no unit on y"
scale = {"s": 1e9, "ms": 1e6, "us": 1e3, "ns": 1}[bin_label.group(2)]
assert abs(float(bin_label.group(1)) * scale - w) < 1e-6 * w, ("bin label", bin_label.group(0), w)
xs = [float(x) for x in re.findall(r"^set arrow from ([0-9.]+),", gp, re.M)]
if len(sys.argv) > 3:
    assert xs and max(xs) - min(xs) > xmax / 2, ("markers bunched", min(xs), max(xs), xmax)
    assert "back dt 2" in gp, "marker lines in front of the data"
print("# %d bins of %d ns over [0:%g] %s, %d markers drawn" % (len(rows), w, xmax, unit.group(1), len(xs)))
PY
}
for c in "trappy8:raw/trappy_arm32_8cpu_trace.dat:spread" "rtapp6:raw/lisa_rtapp_6cpu_trace.dat:spread" \
	"idle6:raw/trappy_arm64_6cpu_idle_trace.dat" "lisa6:events/lisa_tracecmd_report_sched_448k.txt" \
	"kdoc2:events/kdoc5.4_events_instance_sched_wakeup_switch.txt"; do
	n=${c%%:*} f=${c#*:} spread=${f#*:} f=${f%%:*}
	[ "$spread" = "$f" ] && spread=
	check REAL_DATA "rate on real/$f: round bins, room above, units, markers${spread:+ over the span}" \
		'plot rate "$shots/$n-rate.png" "$real/$f" &&
		 rate_shows "$shots/$n-rate.dat" "$shots/$n-rate.gp" $spread'
done
check "rate on 2 CPUs of the rig (157 ms): bins of 1 ms, time in ms" \
	'plot rate "$shots/vm2-rate.png" "$FTL_TESTDATA/vm/events/default.txt" &&
	 rate_shows "$shots/vm2-rate.dat" "$shots/vm2-rate.gp" &&
	 grep -q "# bins of 1000000 ns" "$shots/vm2-rate.dat" && grep -q "(ms)" "$shots/vm2-rate.gp"'

# A marker whose text tries every way out of a gnuplot string in the 40
# columns a label shows: ESC, a quote and system(), a backquote command, a
# macro, a backslash (gnuplot runs in $T: what it ran would leave pw*).
H=$T/hostile.txt
{
	sed -n 1,18p "$S"
	printf '          worker-10      [000] ....   100.002200: tracing_mark_write: \033'"'"'.system("id>pw1").'"'"'`id>pw2`@TERM\\\n'
	sed -n '19,$p' "$S"
} >"$H"
check "a hostile marker: drawn, its label one inert single-quoted string, gnuplot runs nothing" \
	'(cd "$T" && plot rate "$T/hostile.png" "$H") && png_is "$T/hostile.png" 1000 600 &&
	 [ "$(grep -c "^set arrow" "$T/hostile.gp")" -eq 3 ] &&
	 ! ls "$T" | grep -q "^pw" && python3 - "$T/hostile.gp"' <<'PY'
import re, sys
gp = open(sys.argv[1], "rb").read()
assert not re.search(rb"[\x00-\x09\x0b-\x1f\x7f]", gp), "a control byte in the script"
labels = [l for l in gp.decode().split("\n") if l.startswith("set label ")]
assert all("graph 0.98" in l for l in labels), labels  # each marker labelled
assert len(labels) == 3, labels
for l in labels:
    # one single-quoted literal ('' inside), then the label's options only
    m = re.fullmatch(r"set label '((?:[^']|'')*)' at [0-9.]+, graph 0\.98 right rotate by 90 "
                     r"offset character 1, 0 font ',8' tc rgb 'gray30' front noenhanced", l)
    assert m, l
hostile = [l for l in labels if "pw1" in l and "pw2" in l and "@TERM" in l]
assert hostile and "\\x1b" in hostile[0], labels
PY
# The rig's trace with vfs_open renamed to carry a quote, a backquote
# command and a macro: the name goes into titles, quoted.
sed "s|vfs_open|vfs'open\`id>$T/pwned4\`@TERM|g" "$V/fgraph-basic/trace.txt" >"$T/hf.txt"
check "a hostile function name: inert in the script's titles, gnuplot runs nothing" \
	'f=$(grep -o -m1 "vfs'\''open[^(]*" "$T/hf.txt") && case $f in *pwned4*) ;; *) false ;; esac &&
	 plot durations "$T/hf.png" -f "$f" "$T/hf.txt" && ! ls "$T" | grep -q pwned &&
	 grep -qF "title '\''vfs'\'''\''open\`id>$T/pwned4\`@TERM (20; p50 " "$T/hf.gp"'

# A series like `record --stack` writes, made here from the rig's table:
# snapshot k holds the frames from index drop down, at 100 + k*k s.
R=$T/rig.series
{
	echo "# ftlens-stack-series v1 kernel=6.1.0-test clock=monotonic"
	k=0
	for drop in 22 15 15 9 0; do
		k=$((k + 1))
		top=$(awk -v d=$drop '$1 ~ /\)$/ && $1 + 0 == d { print $2 }' "$V/stack/stack_trace")
		echo "# snapshot $k time=$((100 + k * k)).250000 max_size=$top"
		awk -v d=$drop '/entries\)/ { sub(/\(30 entries\)/, "(" 30 - d " entries)"); print; next }
		     /^ *-----/ { print; next }
		     $1 ~ /\)$/ { i = $1 + 0; if (i < d) next
		                  printf "%3d) %8d   %5d   %s\n", i - d, $2, $3, $4 }' "$V/stack/stack_trace"
		echo
	done
} >"$R"
check "stack over a rig series: golden .dat (time, max_size per snapshot), no gnuplot warning" \
	'"$FTLENS" stack "$R" >/dev/null 2>&1 && (cd "$T" && plot stack "$T/stack.png" rig.series) &&
	 golden plot-stack.dat "$T/stack.dat" && png_is "$T/stack.png" 1000 600 &&
	 [ "$(grep -v "^#" "$T/stack.dat" | cut -d" " -f2 | tr "\n" " ")" = \
	   "$(sed -n "s/^# snapshot .* max_size=//p" "$R" | tr "\n" " ")" ]'
check REAL_DATA "stack on one real table: one point in a range gnuplot need not widen" \
	'plot stack "$shots/kdoc-stack.svg" "$real/stack/kdoc5.4_stack_trace_18_entries.txt" &&
	 [ "$(grep -vc "^#" "$shots/kdoc-stack.dat")" -eq 1 ] &&
	 grep -q "^set xrange \[0.000000:2.000000\]" "$shots/kdoc-stack.gp" &&
	 python3 -c "import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])" "$shots/kdoc-stack.svg"'
check REAL_DATA "stack over two real tables (x86 doc, ppc64 commit): two snapshots in order" \
	'plot stack "$shots/two-stack.png" "$real/stack/kdoc5.4_stack_trace_18_entries.txt" \
		"$real/stack/kcommit_ppc64_stack_trace_after_fix.txt" &&
	 [ "$(grep -v "^#" "$shots/two-stack.dat" | cut -d" " -f1,2 | tr "\n" ,)" = "1.000000 2928,2.000000 3888," ]'
check "stack on a trace that is no stack table: one error naming the file, no picture" \
	'! "$FTLENS" plot stack -o "$T/ns.png" "$S" 2>"$T/ns.err" && grep -q "$S.*line 1" "$T/ns.err" &&
	 [ ! -e "$T/ns.png" ]'

for k in durations rate stack; do
	case $k in
	durations) in="-f vfs_open $V/fgraph-basic/trace.txt" ;;
	rate) in=$S ;;
	stack) in=$R ;;
	esac
	check "$k --script-only: OUT.dat and OUT.gp, gnuplot runs the script alone with no word" \
		'"$FTLENS" plot $k --script-only -o "$T/so-$k.svg" $in && [ ! -e "$T/so-$k.svg" ] &&
		 [ -s "$T/so-$k.dat" ] && (cd / && gnuplot "$T/so-$k.gp") 2>"$T/so-$k.err" &&
		 ! [ -s "$T/so-$k.err" ] && python3 -c "import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])" "$T/so-$k.svg"'
	check "$k without gnuplot: exit 1, it says so, the script is left, no picture" \
		'! PATH="$T/nobin" "$T/nobin/ftlens" plot $k -o "$T/ng-$k.png" $in 2>"$T/ng-$k.err" &&
		 grep -q "gnuplot is not installed" "$T/ng-$k.err" && [ -s "$T/ng-$k.gp" ] &&
		 [ -s "$T/ng-$k.dat" ] && [ ! -e "$T/ng-$k.png" ]'
done
finish
