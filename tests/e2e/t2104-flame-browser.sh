#!/bin/sh
# ftlens's flame views and exports in a real browser: Debian's chromium,
# headless, driven by playwright-core (tests/package.json pins it, and
# speedscope and ajv; npm ci installs them into tests/npm-cache in the build
# tree). Each SVG view loads with no JS error and no network request; hover,
# click zoom, Reset Zoom, Ctrl-F search with its exact "Matched:" share
# (checked against folded stacks) and the URL state work; the hostile marker
# sets no global; speedscope's own page opens the speedscope and Chrome
# exports; the speedscope export passes speedscope's schema; --color-by dir
# colours every frame as its legend says. A PNG of every
# view is kept in tests/e2e/t2104-flame-browser/ beside this test's log.
. "$(dirname "$0")/lib.sh"
prereq PYTHON CHROMIUM NODE_MODULES
make_tmpdir
vm=$FTL_TESTDATA/vm
real=$FTL_REAL_DATA
hostile=$FTL_TESTDATA/flame
drive=$top_srcdir/tests/e2e/flame_browser.js
shots=$PWD/tests/e2e/t2104-flame-browser
rm -rf "$shots" && mkdir -p "$shots" || exit 1
diag "screenshots in $shots"
plan 12

browser() { node "$drive" "$FTL_NODE_MODULES" "$@"; }

# share FOLDED REGEX: the percentage of the folded weights whose path has a
# frame matching REGEX (what "Matched:" must say), two decimals
share() {
	python3 - "$1" "$2" <<'PY'
import re, sys
r = re.compile(sys.argv[2])
hit = total = 0
for line in open(sys.argv[1]):
    path, w = line.rsplit(' ', 1)
    total += int(w)
    if any(r.search(f) for f in path.split(';')):
        hit += int(w)
print('%.2f' % (100 * hit / total))
PY
}

ev=$vm/fgraph-events/trace.txt
"$FTLENS" export --to folded -o "$T/ev.folded" "$ev" || exit 1
"$FTLENS" export --to folded -o "$T/off.folded" "$vm/fgraph-options/irqs-off.txt" || exit 1

check "flame graph: hover, zoom, Reset, search share == folded stacks, URL state" \
	'"$FTLENS" flame --minwidth 0 -o "$T/flame.svg" "$ev" &&
	 browser svg "$T/flame.svg" "$shots/flame-graph.png" "lock" "$(share "$T/ev.folded" lock)"'
check "flame graph per task: the same on towers named comm-pid" \
	'"$FTLENS" flame --per task --minwidth 0 -o "$T/task.svg" "$ev" &&
	 browser svg "$T/task.svg" "$shots/flame-graph-per-task.png" "^vfs_" "$(share "$T/ev.folded" "^vfs_")"'
check "icicle: the same interactions upside down" \
	'"$FTLENS" flame --inverted --minwidth 0 -o "$T/icicle.svg" "$ev" &&
	 browser svg "$T/icicle.svg" "$shots/icicle.png" "rcu" "$(share "$T/ev.folded" rcu)"'
check "flame chart: lanes in time, zoom follows the markers, search share" \
	'"$FTLENS" flame --chart --minwidth 0 -o "$T/chart.svg" "$ev" &&
	 browser svg "$T/chart.svg" "$shots/flame-chart.png" "read" "$(share "$T/ev.folded" read)"'
# 800 px: the subtitle's two inputs do not fit one line. The inputs are
# copied to $T so that the names are as long wherever the build is (a long
# path is elided in the input line, which the grep reads).
cp "$vm/fgraph-options/irqs-on.txt" "$vm/fgraph-options/irqs-off.txt" "$T/" || exit 1
check "differential: names A and B, widths from B, hover gives A, B and the change" \
	'"$FTLENS" flame --diff --minwidth 0 --width 800 -o "$T/diff.svg" "$T/irqs-on.txt" "$T/irqs-off.txt" &&
	 grep -q "<tspan[^>]*>A: [^<]*irqs-on.txt ([^<]*</tspan><tspan[^>]*>B: [^<]*irqs-off.txt (" "$T/diff.svg" &&
	 grep -q "id=\"input\"[^>]*>A: [^<]*irqs-on.txt  B: [^<]*irqs-off.txt<" "$T/diff.svg" &&
	 browser svg "$T/diff.svg" "$shots/diff.png" "mutex" "$(share "$T/off.folded" mutex)"'
check REAL_DATA "stack chart: two snapshots side by side fill the width given, frames hover" \
	'"$FTLENS" flame --stack --limit 16384 -o "$T/stack.svg" "$vm/stack/stack_trace" "$real/stack/kdoc5.4_stack_trace_18_entries.txt" &&
	 browser load "$T/stack.svg" "$shots/stack-chart.png" "g.sf" 40 110 &&
	 "$FTLENS" flame --stack --width 800 -o "$T/stack800.svg" "$vm/stack/stack_trace" &&
	 browser load "$T/stack800.svg" "$shots/stack-chart-800.png" "g.sf" 10 110'
check RIG_DEBUGINFO "--color-by dir: every frame in its directory's legend colour, the legend above the frames, zoom and search as before" \
	'"$FTLENS" flame --color-by dir --vmlinux "$vml" --minwidth 0 -o "$T/bydir.svg" "$vm/fgraph-basic/trace.txt" &&
	 browser legend "$T/bydir.svg" "$shots/flame-color-by-dir.png" 8 &&
	 "$FTLENS" export --to folded -o "$T/basic.folded" "$vm/fgraph-basic/trace.txt" &&
	 browser svg "$T/bydir.svg" "$shots/flame-color-by-dir-zoom.png" "^vfs_" "$(share "$T/basic.folded" "^vfs_")"'
check "hostile marker and names: shown as text, no script runs, no global set" \
	'"$FTLENS" flame --chart -o "$T/hostile.svg" "$hostile/hostile-fgraph.txt" &&
	 browser inert "$T/hostile.svg" "$shots/hostile.png"'

"$FTLENS" export --to speedscope -o "$T/sample.speedscope.json" "$top_srcdir/data/sample-fgraph.txt" || exit 1
"$FTLENS" export --to chrome -o "$T/sample-trace.json" "$top_srcdir/data/sample-fgraph.txt" || exit 1
check "speedscope export: valid against speedscope's file-format schema" \
	'browser schema "$T/sample.speedscope.json" \
		"$FTL_NODE_MODULES/node_modules/speedscope/dist/release/file-format-schema.json"'
check "speedscope export: speedscope's page opens it, a profile per task, named" \
	'browser speedscope "$T/sample.speedscope.json" "$shots/speedscope.png"'
# speedscope picks its importer by the file name: *.chrome.json means
# DevTools' array format, so the trace-event file is named *-trace.json.
check "Chrome/Perfetto export: parses, documented events, B/X per call, M names" \
	'browser chrome "$T/sample-trace.json"'
check "Chrome/Perfetto export: speedscope's page opens it with its threads named" \
	'browser speedscope "$T/sample-trace.json" "$shots/speedscope-chrome.png"'

ls "$shots" | diag
finish
