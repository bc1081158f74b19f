#!/bin/sh
# The TUI's duration histogram (Functions, H) in a real terminal: its bins
# and counts are those of `ftlens plot durations`'s data for the same
# function (one analysis/histo.c binning), and the bins it marks p50, p95
# and p99 are where that data's cumulative count crosses 50, 95 and 99 %.
# The screens are kept in the log.
. "$(dirname "$0")/lib.sh"
prereq TMUX
need_python
make_tmpdir
tmux_server
wait_for() { tmux_wait_for "$@"; }

# histo INPUT FUNC NAME: the histogram of FUNC in the TUI against plot's data
histo() {
	(cd "$T" && "$FTLENS" plot durations -f "$2" --script-only -o "$T/$3.png" "$1" 2>/dev/null)
	tm kill-session -t tui 2>/dev/null
	tm new-session -d -s tui -x 120 -y 60 "cd '$T' && LANG=C.UTF-8 NO_COLOR=1 '$FTLENS' tui '$1' 2>err"
	wait_for "TIME +CPU" >/dev/null
	keys 3
	wait_for "CALLS +TOTAL" >/dev/null
	# the cursor to the function (the first row when it is there already)
	keys / "^$2\$" Enter
	sleep 0.3
	keys H
	wait_for "Durations of $2: [0-9]+ timed" || return 1
	tm capture-pane -p -t tui >"$T/$3.screen"
	diag "screen $3:"
	diag "$(cat "$T/$3.screen")"
	python3 - "$T/$3.screen" "$T/$3.dat" <<'PY'
import math, sys
screen, dat = sys.argv[1], sys.argv[2]
rows, on = [], False
for l in open(screen):
    if l.strip().startswith("FROM us"):
        on = True
        continue
    f = l.split()
    if on and len(f) >= 3 and f[2].isdigit():
        rows.append((f[0], f[1], int(f[2]), [t for t in f[3:] if t in ("p50", "p95", "p99")]))
    elif on:
        break
want = []
for l in open(dat):
    if l.startswith("# index 1"):
        break
    if l.startswith("#") or not l.strip():
        continue
    c, n, w = (float(x) for x in l.split())
    lo = (-w + math.sqrt(w * w + 4 * c * c)) / 2
    want.append(("%.4g" % lo, "%.4g" % (lo + w), int(n)))
bad = [f"{len(rows)} bins on the screen, {len(want)} in the data"] if len(rows) != len(want) else []
for g, w in zip(rows, want):
    if g[:3] != w:
        bad.append(f"bin {g[:3]} on the screen, {w} in the data")
total, seen = sum(w[2] for w in want), 0
for i, w in enumerate(want):
    before, seen = seen, seen + w[2]
    for p in (50, 95, 99):
        rank = math.ceil(p / 100 * total)
        marked = f"p{p}" in rows[i][3] if i < len(rows) else False
        if (before < rank <= seen) != marked:
            bad.append(f"bin {w}: p{p} {'marked' if marked else 'not marked'}")
print("\n".join(bad) if bad else f"{len(want)} bins, {total} calls: the same")
sys.exit(1 if bad else 0)
PY
}

plan 3
vm=$FTL_TESTDATA/vm/fgraph-events/trace.txt
real=$FTL_REAL_DATA/fgraph/perftools_funcgraph_abstime_header_vfs_read.txt
if have_input "$vm"; then
	check "rig capture: unmap_vmas's histogram is plot durations's, p50/p95/p99 in place" \
		'histo "$vm" unmap_vmas vm >"$T/out" 2>&1; r=$?; diag "$(cat "$T/out")"; [ $r = 0 ]'
fi
if have_input "$real"; then
	check "perf-tools capture: dequeue_entity's histogram is plot durations's" \
		'histo "$real" dequeue_entity real >"$T/out" 2>&1; r=$?; diag "$(cat "$T/out")"; [ $r = 0 ]'
fi
keys Escape q
check "Esc closes it, q quits with nothing on stderr" \
	'sleep 0.5 && [ "$(tm display -p -t tui "#{pane_dead}")" = 1 ] && [ ! -s "$T/err" ]'
finish
