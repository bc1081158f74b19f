#!/bin/sh
# ftlens flame's views and options: every input that yields calls (text,
# per_cpu files, trace-cmd report text, raw pages, an oops log's ftrace
# dump, folded stacks), towers per task and CPU, a function's subtrees, the
# icicle, the flame chart (lanes, markers), the differential graph (colours,
# vanished paths), the stack chart, sample flame graphs from stacks and
# function pairs, trace text that must stay inert in the SVG, lost events
# in the subtitle, --span, the bound on frames and bytes, and bad usage.
. "$(dirname "$0")/lib.sh"
prereq PYTHON
make_tmpdir
oracle=$top_srcdir/tests/e2e/flame_oracle.py
vm=$FTL_TESTDATA/vm
real=$FTL_REAL_DATA
hostile=$FTL_TESTDATA/flame
plan 37

# svgq FILE PYTHON-EXPR: the expression over frames=[(level, path, n, element)]
# and root=the document's root element must be true
svgq() {
	python3 - "$oracle" "$1" "$2" <<'PY'
import sys
sys.path.insert(0, sys.argv[1].rsplit('/', 1)[0])
import flame_oracle as fo
import xml.etree.ElementTree as ET
NS = '{http://www.w3.org/2000/svg}'
root = ET.parse(sys.argv[2]).getroot()
frames = fo.svg_frames(sys.argv[2])
names = [f.find(NS + 'title').text.split('\n')[0] for l, p, n, f in frames]
level1 = [p for l, p, n, f in frames if l == 1]
titles = [t.text or '' for t in root.iter(NS + 'title')]
ok = eval(sys.argv[3])
if not ok:
    print('# level 1:', level1[:6], 'names:', names[:8])
sys.exit(0 if ok else 1)
PY
}

flame() { "$FTLENS" flame "$@" 2>"$T/err"; }

check "per_cpu files of one run: a flame graph" \
	'flame -o "$T/a.svg" "$vm/fgraph-basic/trace-cpu0.txt" "$vm/fgraph-basic/trace-cpu1.txt" &&
	 svgq "$T/a.svg" "\"do_sys_openat2\" in level1 and len(frames) > 50"'
check REAL_DATA "trace-cmd report text: a flame graph" \
	'flame -o "$T/b.svg" "$real/fgraph/tracecmd_report_funcgraph_do_IRQ_with_events.txt" &&
	 svgq "$T/b.svg" "\"do_IRQ\" in names"'
check "raw trace_pipe_raw pages with formats: a flame graph" \
	'flame -o "$T/c.svg" "$vm/raw-fgraph/raw" && svgq "$T/c.svg" "len(frames) > 50"'
check "the ftrace dump in an oops log: a flame graph" \
	'flame -o "$T/d.svg" "$vm/oops/console.log" &&
	 svgq "$T/d.svg" "len(frames) > 20 and any(\"console log\" in t for t in [root.find(\".//*[@id=\x27subtitle\x27]\").text])"'
check "folded stacks in: the same flame graph as from the trace" \
	'"$FTLENS" export --to folded -o "$T/e.folded" "$vm/fgraph-events/trace.txt" &&
	 flame --minwidth 0 -o "$T/e1.svg" "$T/e.folded" && flame --minwidth 0 -o "$T/e2.svg" "$vm/fgraph-events/trace.txt" &&
	 python3 "$oracle" svg "$T/e1.svg" >"$T/e1.json" && python3 "$oracle" svg "$T/e2.svg" >"$T/e2.json" &&
	 cmp "$T/e1.json" "$T/e2.json"'
# A call too narrow to draw is copied without its subtree, unless children
# that outweigh it (small() lasts 1 us, its child big() 500 us) make it wide:
# the same boxes, offsets and widths as from the whole tree's folded stacks.
check "narrow calls are not copied: the same boxes as the folded stacks draw" \
	'"$FTLENS" export --to folded -o "$T/n.folded" "$hostile/narrow-damaged.txt" &&
	 for w in 0 0.5 1% 5% 40%; do
		flame --minwidth $w -o "$T/n1.svg" "$hostile/narrow-damaged.txt" &&
		flame --minwidth $w -o "$T/n2.svg" "$T/n.folded" &&
		grep -o " o=\"[0-9]*\" n=\"[0-9]*\"" "$T/n1.svg" >"$T/n1.on" &&
		grep -o " o=\"[0-9]*\" n=\"[0-9]*\"" "$T/n2.svg" >"$T/n2.on" && cmp "$T/n1.on" "$T/n2.on" &&
		python3 "$oracle" svg "$T/n1.svg" >"$T/n1.json" && python3 "$oracle" svg "$T/n2.svg" >"$T/n2.json" &&
		cmp "$T/n1.json" "$T/n2.json" || { echo "# --minwidth $w"; exit 1; }
	 done && flame --minwidth 1% -o "$T/n1.svg" "$hostile/narrow-damaged.txt" &&
	 svgq "$T/n1.svg" "\"outer;small;big\" in [p for l, p, n, f in frames]"'
check "folded weights that add up past 2^63-1: one error naming the line, no SVG" \
	'printf "a;b 5000000000000000000\na;c 5000000000000000000\n" >"$T/heavy.folded" &&
	 ! flame -o "$T/heavy.svg" "$T/heavy.folded" && test ! -e "$T/heavy.svg" &&
	 sed "s/^/# /" "$T/err" && [ "$(wc -l <"$T/err")" -eq 1 ] &&
	 grep -q "heavy.folded.: line 2: the weights add up past 9223372036854775807" "$T/err"'

# The folded reader reuses the frames a line shares with the line before:
# the same lines in any order (prefixes of frames, empty frames, blanks in
# names, a frame that is a prefix of another) draw the same SVG, byte for byte.
check "folded stacks in any order: the same flame graph" \
	'printf "%s\n" "a;b;c 5" "a;b;c;d 3" "a;b 2" "a;;b;e 4" "a;b;e 1" "x;a;b 7" "a;b;cc 2" \
		"a;b;c d 9" "a;b c;d 4" "a;b c 1" ";;; 3" "q 8" "a;b;c 1" "ab;c 2" "a;bc 6" "a;b;c;d;e;f 1" \
		"a;b;c;d;e;g 2" "a;b;c;d 1" >"$T/o1.folded" &&
	 "$FTLENS" export --to folded -o "$T/o.folded" "$vm/fgraph-events/trace.txt" &&
	 cat "$T/o.folded" >>"$T/o1.folded" && sort -r "$T/o1.folded" >"$T/o2.folded" &&
	 awk "NR % 2" "$T/o1.folded" >"$T/o3.folded" && awk "!(NR % 2)" "$T/o1.folded" | sort -r >>"$T/o3.folded" &&
	 flame --minwidth 0 -o "$T/o1.svg" "$T/o1.folded" && flame --minwidth 0 -o "$T/o2.svg" "$T/o2.folded" &&
	 flame --minwidth 0 -o "$T/o3.svg" "$T/o3.folded" &&
	 sed "s|o[0-9].folded|o.folded|" "$T/o1.svg" >"$T/p1.svg" && sed "s|o[0-9].folded|o.folded|" "$T/o2.svg" >"$T/p2.svg" &&
	 sed "s|o[0-9].folded|o.folded|" "$T/o3.svg" >"$T/p3.svg" &&
	 cmp "$T/p1.svg" "$T/p2.svg" && cmp "$T/p1.svg" "$T/p3.svg" &&
	 svgq "$T/o1.svg" "len(frames) > 20 and \"a;b;c d\" in [p for l, p, n, f in frames]"'

check "--per task: one tower per task, named comm-pid" \
	'flame --per task -o "$T/f.svg" "$vm/fgraph-options/proc.txt" &&
	 svgq "$T/f.svg" "level1 and all(__import__(\"re\").match(r\".+-[0-9]+$\", p) for p in level1)"'
check "--per cpu: one tower per CPU, named CPU N" \
	'flame --per cpu -o "$T/g.svg" "$vm/fgraph-basic/trace.txt" &&
	 svgq "$T/g.svg" "sorted(level1) == [\"CPU 0\", \"CPU 1\"]"'
check "--function F: only F at the top" \
	'flame --function do_sys_openat2 -o "$T/h.svg" "$vm/fgraph-basic/trace.txt" &&
	 svgq "$T/h.svg" "level1 == [\"do_sys_openat2\"] and len(frames) > 10"'
check "--inverted: the root on top (an icicle)" \
	'flame --inverted -o "$T/i.svg" "$vm/fgraph-basic/trace.txt" &&
	 svgq "$T/i.svg" "min(float(f.find(\"{http://www.w3.org/2000/svg}rect\").get(\"y\")) for l, p, n, f in frames) == float(frames[0][3].find(\"{http://www.w3.org/2000/svg}rect\").get(\"y\"))"'
check "--colors mono and --highlight: stable colours, matches stand out" \
	'flame --colors mono --highlight "^vfs_" -o "$T/j.svg" "$vm/fgraph-basic/trace.txt" &&
	 grep -q "rgb(60,150,255)" "$T/j.svg" &&
	 flame --colors mono -o "$T/j2.svg" "$vm/fgraph-basic/trace.txt" && ! grep -q "rgb(60,150,255)" "$T/j2.svg"'
check "--title, --subtitle, --width" \
	'flame --title "T & T" --subtitle "<sub>" --width 800 -o "$T/k.svg" "$vm/fgraph-basic/trace.txt" &&
	 svgq "$T/k.svg" "root.get(\"width\") == \"800\" and root.find(\".//*[@id=\x27title\x27]\").text == \"T & T\" and root.find(\".//*[@id=\x27subtitle\x27]\").text.startswith(\"<sub>\")"'

check "--chart: a lane per task, calls in time, markers drawn" \
	'flame --chart -o "$T/l.svg" "$vm/fgraph-options/combined.txt" &&
	 svgq "$T/l.svg" "all(l == 0 for l, p, n, f in frames if f.get(\"w\")) and len([f for l,p,n,f in frames if l == 0]) >= 5 and len(list(root.iter(\"{http://www.w3.org/2000/svg}line\"))) > 3"'
check "--chart: calls of a lane never overlap at one level" \
	'python3 - "$T/l.svg" <<-PY
	import sys, xml.etree.ElementTree as ET
	NS = "{http://www.w3.org/2000/svg}"
	g = [e for e in ET.parse(sys.argv[1]).getroot().iter(NS + "g") if e.get("id") == "frames"][0]
	rows = {}
	for f in g.findall(NS + "g"):
	    r = f.find(NS + "rect")
	    rows.setdefault(r.get("y"), []).append((int(f.get("o")), int(f.get("w") or f.get("n"))))
	bad = 0
	for y, spans in rows.items():
	    spans.sort()
	    bad += sum(1 for a, b in zip(spans, spans[1:]) if a[0] + a[1] > b[0])
	sys.exit(1 if bad else 0)
	PY'
check "--chart --per cpu: a lane per CPU; --relative-to moves time 0" \
	'flame --chart --per cpu --relative-to "after" -o "$T/m.svg" "$vm/fgraph-options/abstime.txt" &&
	 svgq "$T/m.svg" "sorted(names[i] for i, (l,p,n,f) in enumerate(frames) if l == 0) == [\"CPU 0\", \"CPU 1\"]" &&
	 grep -q ">-[0-9.]* ms<" "$T/m.svg"'

check "--diff: widths from B, red grew, blue shrank, vanished paths hatched" \
	'flame --diff -o "$T/n.svg" "$vm/fgraph-options/irqs-on.txt" "$vm/fgraph-options/irqs-off.txt" &&
	 flame --minwidth 0 -o "$T/nb.svg" "$vm/fgraph-options/irqs-off.txt" &&
	 svgq "$T/n.svg" "frames[0][2] == fo.svg_frames(\"$T/nb.svg\")[0][2] and any(f.get(\"class\") == \"f gone\" for l,p,n,f in frames)" &&
	 grep -q "rgb(255,[0-9]*,[0-9]*)" "$T/n.svg" && grep -q "url(#ftl-hatch)" "$T/n.svg" &&
	 grep -Eq "rgb\(([0-9]+),\1,255\)" "$T/n.svg"'
check "--diff: the tooltip gives A, B and the change" \
	'svgq "$T/n.svg" "any(\"; A \" in t and \", B \" in t and \"change\" in t for t in titles)"'
# 600 px hold 83 characters of the subtitle: each input on a line of its
# own, a path too long cut in its middle, the whole text on hover; the
# names in the bottom corner ran off the left edge
check "--diff: the subtitle names A and B on lines inside the picture" \
	'cp "$vm/fgraph-options/irqs-off.txt" "$T/$(printf "%0120d" 0)-irqs-off.txt" &&
	 flame --diff --width 600 -o "$T/nw.svg" "$vm/fgraph-options/irqs-on.txt" "$T/$(printf "%0120d" 0)-irqs-off.txt" &&
	 python3 - "$T/nw.svg" <<-PY
	import sys, xml.etree.ElementTree as ET
	ns = "{http://www.w3.org/2000/svg}"
	svg = ET.parse(sys.argv[1]).getroot()
	sub = [e for e in svg.iter(ns + "text") if e.get("id") == "subtitle"][0]
	lines = [t.text for t in sub.iter(ns + "tspan")]
	width = float(svg.get("width"))
	print("#", lines)
	assert len(lines) == 2, lines
	assert lines[0].startswith("A: ") and lines[0].endswith("irqs-on.txt (function_graph calls)"), lines
	assert lines[1].startswith("B: ") and "\u2026" in lines[1] and lines[1].endswith("-irqs-off.txt (function_graph calls)"), lines
	assert all(len(l) * 12 * 0.59 <= width - 20 for l in lines), lines
	assert "000000000000000000000000000000000000000000000000000000000000-irqs-off" in sub.find(ns + "title").text
	# the names of the inputs in the corner, 10 px: cut to the width, whole on hover
	inp = [e for e in svg.iter(ns + "text") if e.get("id") == "input"][0]
	print("#", inp.text)
	assert "\u2026" in inp.text and len(inp.text) * 10 * 0.59 <= width - 20, inp.text
	assert inp.find(ns + "title").text.endswith("-irqs-off.txt"), inp.find(ns + "title").text
	# the frames begin below the second line
	ys = [float(r.get("y")) for r in svg.iter(ns + "rect") if r.get("y") not in (None, "0")]
	assert min(ys) > 42 + 16, min(ys)
	PY'
check "--diff --normalize scales A to B's total" \
	'flame --diff --normalize -o "$T/o.svg" "$vm/fgraph-options/irqs-on.txt" "$vm/fgraph-options/irqs-off.txt" &&
	 svgq "$T/o.svg" "abs(int(frames[0][3].get(\"a\")) - frames[0][2]) <= 1"'

check REAL_DATA "--stack: frames to scale in bytes, snapshots side by side, the limit line" \
	'flame --stack --limit 16384 -o "$T/p.svg" "$vm/stack/stack_trace" "$real/stack/kdoc5.4_stack_trace_18_entries.txt" &&
	 python3 -c "
import sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot(); NS = \"{http://www.w3.org/2000/svg}\"
sf = [g for g in r.iter(NS + \"g\") if g.get(\"class\") == \"sf\"]
cols = [g for g in r.iter(NS + \"g\") if g.get(\"class\") == \"col\"]
lim = [g for g in r.iter(NS + \"g\") if g.get(\"id\") == \"limit\"]
sizes = [(int(g.get(\"size\")), float(g.find(NS + \"rect\").get(\"height\"))) for g in sf if int(g.get(\"size\")) >= 64]
ratio = [h / s for s, h in sizes]
sys.exit(0 if len(cols) == 2 and lim and len(sf) > 40 and max(ratio) - min(ratio) < 0.02 else 1)
" "$T/p.svg"'

check "stack traces: a sample flame graph (auto), frames without +0x offsets" \
	'flame -o "$T/q.svg" "$vm/events/stacktrace.txt" &&
	 svgq "$T/q.svg" "\"stack trace samples\" in root.find(\".//*[@id=\x27subtitle\x27]\").text and \"__schedule\" in names and not any(\"+0x\" in x for x in names)"'
check "function tracer pairs: parent then function, samples (auto)" \
	'flame -o "$T/r.svg" "$vm/function/default.txt" &&
	 svgq "$T/r.svg" "\"function samples\" in root.find(\".//*[@id=\x27subtitle\x27]\").text and \"ksys_write;vfs_write\" in [p for l,p,n,f in frames]"'
check "--from stacks on a function tracer capture with func_stack_trace" \
	'flame --from stacks -o "$T/s.svg" "$vm/function/func-stack-trace.txt" &&
	 svgq "$T/s.svg" "\"do_syscall_64\" in names"'

check "hostile text: the SVG stays well-formed XML with one script" \
	'flame --chart -o "$T/t1.svg" "$hostile/hostile-fgraph.txt" &&
	 flame --per task -o "$T/t2.svg" "$hostile/hostile-stack.txt" &&
	 svgq "$T/t1.svg" "len(list(root.iter(NS + \"script\"))) == 1" &&
	 svgq "$T/t2.svg" "len(list(root.iter(NS + \"script\"))) == 1"'
check "hostile text: markup in markers, names and comms is text, readable" \
	'svgq "$T/t1.svg" "any(t.startswith(\"</text><script>window.__pwned=1</script> &<>\") for t in titles)" &&
	 svgq "$T/t2.svg" "\"</text><script>window.__pwned=2</script>\" in names and \"e&<>\\\"\x27vil-100\" in names and \"a&b<c>\\\"d\x27e;f\" in names"'
check "hostile text: invalid UTF-8 becomes U+FFFD, escapes are made visible" \
	'svgq "$T/t2.svg" "\"bad\ufffd\ufffdutf8\" in names and \"esc\\\\x1b[31mred\" in names" &&
	 ! LC_ALL=C grep -q "$(printf "\033")" "$T/t1.svg" "$T/t2.svg"'

check "lost events are named in the subtitle" \
	'printf "%s\n" "# tracer: function_graph" "#" " 0)               |  f() {" " 0)   1.000 us    |    g();" "CPU:0 [LOST 42 EVENTS]" " 0)   2.000 us    |  h();" >"$T/lost.txt" &&
	 flame -o "$T/u.svg" "$T/lost.txt" && svgq "$T/u.svg" "\"LOST 42 events\" in root.find(\".//*[@id=\x27subtitle\x27]\").text"'
check REAL_DATA "calls open at the end and exits without entry are drawn and labelled" \
	'flame -o "$T/v.svg" "$real/fgraph/kdoc2.6.35_fgraph_sys_open_header.txt" &&
	 flame -o "$T/v2.svg" "$real/fgraph/kdoc2.6.35_fgraph_abstime.txt" &&
	 svgq "$T/v.svg" "any(f.get(\"class\") == \"f open\" for l,p,n,f in frames) and any(\"open at the end\" in t for t in titles)" &&
	 svgq "$T/v2.svg" "any(\"exit without entry\" in t for t in titles)"'
check "--span START END: only what ran between the markers" \
	'flame --span "before foo" "after foo" -o "$T/w.svg" "$vm/fgraph-basic/trace.txt" &&
	 flame -o "$T/w0.svg" "$vm/fgraph-basic/trace.txt" &&
	 svgq "$T/w.svg" "\"inside 1 span\" in root.find(\".//*[@id=\x27subtitle\x27]\").text and 0 < frames[0][2] < fo.svg_frames(\"$T/w0.svg\")[0][2]"'
check "--cpu and --time select events as everywhere" \
	'flame --cpu 1 -o "$T/x.svg" "$vm/fgraph-basic/trace.txt" &&
	 svgq "$T/x.svg" "0 < frames[0][2] < fo.svg_frames(\"$T/w0.svg\")[0][2]"'

# the bound: many distinct paths, few frames drawn, widths still exact
cc=${CC:-cc}
if command -v "$cc" >/dev/null 2>&1 && "$cc" -O2 -o "$T/gen" "$top_srcdir/bench/gen-fgraph.c" -lm; then
	"$T/gen" -s 9 -f 20000 16M "$T/big.txt"
	check "16 MiB, 20000 functions: under 5 MB, --verbose says frames, merged and bytes" \
		'"$FTLENS" flame --verbose --max-frames 4000 -o "$T/y.svg" "$T/big.txt" 2>"$T/y.err" &&
		 size=$(wc -c <"$T/y.svg") && sed "s/^/# /" "$T/y.err" && test "$size" -lt 5000000 &&
		 grep -Eq "^ftlens: flame: [0-9]+ frames drawn, [1-9][0-9]* boxes of [0-9]+ smaller frames merged .* $size bytes$" "$T/y.err"'
	check "merged boxes keep the total exact: the root == the oracle's" \
		'python3 "$oracle" paths "$T/big.txt" >"$T/big.json" &&
		 svgq "$T/y.svg" "frames[0][2] == __import__(\"json\").load(open(\"$T/big.json\"))[\"\"] and len(frames) <= 4000 and any(\"smaller calls]\" in p for l,p,n,f in frames)"'
else
	skip "bounded size: no C compiler ($cc)"
	skip "merged boxes exact: no C compiler"
fi

check "an output that names an input is refused, the input unchanged" \
	'cp "$vm/fgraph-basic/trace.txt" "$T/in.txt" && sum=$(cksum <"$T/in.txt") &&
	 ! "$FTLENS" flame -o "$T/in.txt" "$T/in.txt" 2>/dev/null && [ "$(cksum <"$T/in.txt")" = "$sum" ]'
check "bad usage exits 2 with one message" \
	'for a in "--per x" "--colors nope" "--minwidth x" "--from nope" "--diff" "--chart --stack"; do
		"$FTLENS" flame $a -o "$T/z.svg" "$vm/fgraph-basic/trace.txt" 2>"$T/z.err"; rc=$?
		[ $rc -eq 2 ] && [ "$(wc -l <"$T/z.err")" -eq 1 ] || { echo "# $a: rc $rc"; exit 1; }
	 done; "$FTLENS" flame "$vm/fgraph-basic/trace.txt" 2>/dev/null | grep -q "</svg>"'
check "without its data files flame says where it looked, writes nothing" \
	'mkdir "$T/bin" && cp "$FTLENS" "$T/bin/ftlens" &&
	 FTLENS_DATADIR=/nonexistent "$T/bin/ftlens" flame -o "$T/nodata.svg" "$vm/fgraph-basic/trace.txt" 2>"$T/nd.err";
	 rc=$?; sed "s/^/# /" "$T/nd.err"; [ $rc -eq 1 ] && test ! -e "$T/nodata.svg" && grep -q "flame.css.*FTLENS_DATADIR" "$T/nd.err"'
finish
