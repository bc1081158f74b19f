#!/bin/sh
# ftlens flame against independent oracles: every frame's width (the exact
# ns in the SVG) equals what tests/e2e/flame_oracle.py sums per call path
# from the printed durations of the rig's function_graph captures, the
# public samples and generated traces (irqs, task switches); children never
# exceed their parent and the root is the traced total; the folded export
# fed to FlameGraph's flamegraph.pl draws the same frames and widths (1 px).
. "$(dirname "$0")/lib.sh"
prereq PYTHON
make_tmpdir
oracle=$top_srcdir/tests/e2e/flame_oracle.py
vm=$FTL_TESTDATA/vm
real=$FTL_REAL_DATA/fgraph
plan 28

# widths == oracle, path by path (every frame drawn: --minwidth 0)
same_as_oracle() {
	"$FTLENS" flame --minwidth 0 --max-frames 1000000 -o "$T/o.svg" "$1" &&
		python3 "$oracle" paths "$1" >"$T/want.json" &&
		python3 "$oracle" svg "$T/o.svg" >"$T/got.json" &&
		python3 - "$T/want.json" "$T/got.json" <<'PY'
import json, sys
want, got = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
bad = [(p, want.get(p), got.get(p)) for p in sorted(set(want) | set(got)) if want.get(p) != got.get(p)]
print('# %d paths, root %s ns, %d differ %s' % (len(want), want.get(''), len(bad), bad[:3]))
sys.exit(1 if bad or len(want) < 2 else 0)
PY
}
for f in fgraph-basic/trace.txt fgraph-events/trace.txt fgraph-options/abstime.txt \
	fgraph-options/combined.txt fgraph-options/irqs-on.txt fgraph-options/proc.txt \
	fgraph-options/tail.txt fgraph-options/sleep-time.txt fgraph-options/nooverhead.txt \
	fgraph-options/overrun.txt; do
	check "rig $f: every frame's width == the oracle's sum for its path" \
		'same_as_oracle "$vm/$f"'
done
for f in perftools_funcgraph_abstime_header_vfs_read perftools_funcgraph_abstime_oncpu_vfs_read \
	perftools_funcgraph_do_nanosleep_xen kdoc5.4_fgraph_overhead_all_markers \
	kdoc5.4_fgraph_set_graph_function_do_fault perftools_funcslower_context_switches \
	kdoc2.6.35_fgraph_abstime kdoc2.6.35_fgraph_sys_open_header \
	perftools_funcslower_tail_only_bang kdoc5.4_fgraph_funcgraph_tail; do
	check REAL_DATA "public $f: every frame's width == the oracle's" \
		'same_as_oracle "$real/$f.txt"'
done

cc=${CC:-cc}
if command -v "$cc" >/dev/null 2>&1 && "$cc" -O2 -o "$T/gen" "$top_srcdir/bench/gen-fgraph.c" -lm; then
	"$T/gen" -s 5 2M "$T/g.txt"
	"$T/gen" -s 6 -p -l 2M "$T/gp.txt"
	check "generated (irqs, task switches, markers): widths == oracle" 'same_as_oracle "$T/g.txt"'
	check "generated with funcgraph-proc and -tail: widths == oracle" 'same_as_oracle "$T/gp.txt"'
	check "interrupts sit in [irq] frames on what they interrupted" \
		'"$FTLENS" flame -o "$T/irq.svg" "$T/g.txt" && grep -q "<title>\[irq\]" "$T/irq.svg"'
else
	skip "generated trace: no C compiler ($cc) for bench/gen-fgraph.c"
	skip "generated trace with funcgraph-proc: no C compiler"
	skip "[irq] frames: no C compiler"
fi

# children never exceed their parent; the root is the sum of the top frames
nesting_ok() {
	python3 - "$1" "$oracle" <<'PY'
import sys
sys.path.insert(0, sys.argv[2].rsplit('/', 1)[0])
import flame_oracle as fo
frames = fo.svg_frames(sys.argv[1])
kids = {}
stack = []
for lvl, path, n, f in frames:
    del stack[lvl:]  # the frames above lvl are its ancestors, in order
    if stack:
        kids[stack[-1]] = kids.get(stack[-1], 0) + n
    stack.append((lvl, path, n))
bad = [(p, n, kids[(l, p, n)]) for (l, p, n) in kids if kids[(l, p, n)] > n]
print('# %d frames, %d with children wider than them %s' % (len(frames), len(bad), bad[:3]))
sys.exit(1 if bad else 0)
PY
}
check "children never exceed their parent (rig capture, default minimum width)" \
	'"$FTLENS" flame -o "$T/n1.svg" "$vm/fgraph-events/trace.txt" && nesting_ok "$T/n1.svg"'
check "children never exceed their parent (per task, inverted)" \
	'"$FTLENS" flame --per task --inverted -o "$T/n2.svg" "$vm/fgraph-options/combined.txt" &&
	 nesting_ok "$T/n2.svg"'

# the same stacks through FlameGraph's own flamegraph.pl
fg_same() {
	"$FTLENS" export --to folded -o "$T/x.folded" "$1" &&
		perl "$FTL_TOOLS/flamegraph/flamegraph.pl" --countname ns "$T/x.folded" >"$T/ref.svg" &&
		"$FTLENS" flame --width 1200 -o "$T/ours.svg" "$1" &&
		python3 "$oracle" fgcompare "$T/ref.svg" "$T/ours.svg" | sed 's/^/# /' &&
		python3 "$oracle" fgcompare "$T/ref.svg" "$T/ours.svg" >/dev/null
}
check FLAMEGRAPH "flamegraph.pl on our folded stacks: same frames and widths (fgraph-events)" \
	'fg_same "$vm/fgraph-events/trace.txt"'
check FLAMEGRAPH "flamegraph.pl: same frames and widths (public vfs_read sample)" \
	'have_prereq REAL_DATA || { echo "# no public samples"; exit 0; }; fg_same "$real/perftools_funcgraph_abstime_header_vfs_read.txt"'
if [ -f "$T/g.txt" ]; then
	check FLAMEGRAPH "flamegraph.pl: same frames and widths (generated, 2 MiB)" 'fg_same "$T/g.txt"'
else
	skip "flamegraph.pl on a generated trace: no C compiler"
fi
finish
