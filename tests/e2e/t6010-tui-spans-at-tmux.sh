#!/bin/sh
# From a report line to the TUI, and span statistics in it, in a real
# terminal (tmux runs ftlens as the pane's own command in a scratch dir):
# the `at` time report prints for its longest call, sched for its worst
# wakeup and markers --span for its slowest span, pasted into
# `ftlens tui --at`, opens the Events list with the cursor on the event the
# line names; --func opens the Graph (or Functions) on a function, --marker
# the Events list on a marker, --panel a panel; the Markers panel with
# --span shows markers --span's statistics, the same figures, and Enter on
# a row goes to the start of its slowest span. The `at` times are taken
# on the rig's captures and on public ones (perf-tools' funcgraph, LISA,
# atrace). Screens are kept in the log, and in $FTL_TUI_SHOTS when set.
. "$(dirname "$0")/lib.sh"
prereq TMUX
need_python
make_tmpdir
FG=$FTL_TESTDATA/vm/fgraph-options/combined.txt
EV=$FTL_TESTDATA/vm/events/default.txt
ATRACE=$FTL_REAL_DATA/events/catapult_atrace_tgid_trace_marker.txt
RFG=$FTL_REAL_DATA/fgraph/perftools_funcgraph_abstime_header_vfs_read.txt
LISA=$FTL_REAL_DATA/events/lisa_tracecmd_report_sched_448k.txt
need_input "$FG" "$EV" "$ATRACE" "$RFG" "$LISA"
tmux_server
wait_for() { tmux_wait_for "$@"; }
wait_dead() { tmux_wait_dead; }
# start ARGS...: a fresh 140x40 session running ftlens tui ARGS (quoted here)
start() {
	_cmd="NO_COLOR=1 '$FTLENS' tui"
	for _a in "$@"; do
		_cmd="$_cmd '$(printf '%s' "$_a" | sed "s/'/'\\\\''/g")'"
	done
	tm kill-session -t tui 2>/dev/null
	tm new-session -d -s tui -x 140 -y 40 -c "$T" "$_cmd 2>err; echo rc=\$? >rc"
}
cursor_row() { tmux_cursor_row; }
# wait_cursor PATTERN: until the cursor row matches PATTERN (grep -E)
wait_cursor() {
	_n=100
	while [ $_n -gt 0 ]; do
		cursor_row >"$T/cursor"
		grep -Eq -- "$1" "$T/cursor" && return 0
		sleep 0.1
		_n=$((_n - 1))
	done
	diag "cursor row: $(cat "$T/cursor")"
	return 1
}
shot() {
	tm capture-pane -p -t tui >"$T/$1.txt"
	diag "screen $1:"
	diag "$(cat "$T/$1.txt")"
	[ -n "${FTL_TUI_SHOTS:-}" ] && mkdir -p "$FTL_TUI_SHOTS" && cp "$T/$1.txt" "$FTL_TUI_SHOTS/"
	return 0
}
quit() {
	keys q
	wait_dead
}
# csv_first SECTION_HEADER_PREFIX COLUMN FILE: COLUMN of the first row of the
# CSV section whose header starts with the prefix
csv_first() {
	python3 -c '
import csv, io, sys
for sec in open(sys.argv[3]).read().split("\n\n"):
    sec = "\n".join(l for l in sec.splitlines() if not l.startswith("# "))
    if sec.startswith(sys.argv[1]):
        print(next(csv.DictReader(io.StringIO(sec)))[sys.argv[2]]); break
' "$@"
}
# us TIME: the time as the Events list shows it (us)
us() { printf '%s' "$1" | sed -E 's/([0-9]+\.[0-9]{6})[0-9]*/\1/'; }

plan 14

# ---- report: the longest call --------------------------------------------
"$FTLENS" report -F csv "$FG" >"$T/report.csv"
at=$(csv_first duration_ns at "$T/report.csv")
fn=$(csv_first duration_ns function "$T/report.csv")
start --at "$at" "$FG"
check "rig: report's longest call ($fn at $at): tui --at opens Events on its entry" \
	'wait_cursor "^ *$(us "$at") .*[|] $fn\(\) \{"'
shot tui-at-report-rig
quit
# perf-tools' capture began inside its longest call: the trace holds the
# exit alone; its at is the exit's time (entered + duration), and there
# tui --at opens Events (on the first event of that microsecond)
"$FTLENS" report -F csv "$RFG" >"$T/report.csv"
at=$(csv_first duration_ns at "$T/report.csv")
fn=$(csv_first duration_ns function "$T/report.csv")
entry=$(csv_first duration_ns entry_ts_ns "$T/report.csv")
dur=$(csv_first duration_ns duration_ns "$T/report.csv")
start --at "$at" "$RFG"
check "perf-tools: report's longest call ($fn, entered before the trace): at its exit, $at" \
	'[ "$(printf %s "$at" | tr -d .)" = $((entry + dur)) ] && wait_cursor "^ *$(us "$at") " &&
	 wait_for "^ *$(us "$at") .*[|] *\} /\* $fn \*/"'
shot tui-at-report-perf-tools
quit

# ---- sched: the worst wakeup ---------------------------------------------
for input in "rig:$EV" "lisa:$LISA"; do
	name=${input%%:*} input=${input#*:}
	"$FTLENS" sched -F csv "$input" >"$T/sched.csv"
	at=$(csv_first rank,ts_ns at "$T/sched.csv")
	pid=$(csv_first rank,ts_ns pid "$T/sched.csv")
	waker=$(csv_first rank,ts_ns waker_pid "$T/sched.csv")
	start --at "$at" "$input"
	check "$name: sched's worst wakeup (pid $pid at $at): tui --at opens Events on the wakeup" \
		'wait_cursor "^ *$(us "$at") .*-$waker .*sched_wakeup(_new)? .*pid=$pid "'
	shot "tui-at-sched-$name"
	quit
done

# ---- markers: the slowest span --------------------------------------------
START='B\|[0-9]+\|(.*)'
"$FTLENS" markers --span "$START" '^E' -F json "$ATRACE" >"$T/m.json"
"$FTLENS" markers --span "$START" '^E' "$ATRACE" >"$T/m.txt"
set -- $(python3 -c '
import json, sys
s = min(json.load(open(sys.argv[1]))["spans"], key=lambda x: x["rank"])
print(s["at"], s["start_text"].replace(" ", "."))' "$T/m.json")
at=$1 text=$2
start --at "$at" "$ATRACE"
check "markers' slowest span ($text at $at): tui --at opens Events on its start marker" \
	'wait_cursor "^ *$(us "$at") .*$text"'
shot tui-at-markers
quit

# ---- the Markers panel with --span: the same figures ----------------------
start --span "$START" '^E' --panel markers "$ATRACE"
wait_for "Span durations" >/dev/null
shot tui-markers-spans
check "Markers panel: the statistics rows are markers --span's text rows, keys told apart" '
	python3 -c "
import re, sys
txt = open(sys.argv[1]).read().split(\"span durations\")[1].split(\"\n\n\")[0].splitlines()[2:]
scr = open(sys.argv[2]).read().splitlines()
i = [k for k, l in enumerate(scr) if l.startswith(\"Span durations\")][0]
cut = lambda l: re.split(r\"\s{2,}\", l.strip())
n, keys = 0, []
for t, s in zip(txt, scr[i + 1:]):
    if not re.match(r\"\S\", s) or s.startswith(\"Slowest\"):
        break
    # the screen has no slowest column; it cuts a key at 24 columns,
    # keeping its start and end around a ~ (two keys never look alike)
    a, b = cut(t)[1:8], cut(s[24:])
    assert a == b, (t, s)
    k, sk = cut(t)[0], s[:24].rstrip()
    h, _, e = sk.partition(\"~\")
    assert sk == k or (e and k.startswith(h) and k.endswith(e)), (k, sk)
    keys.append(sk)
    n += 1
assert n >= 20, n
assert len(set(keys)) == n, keys
" "$T/m.txt" "$T/tui-markers-spans.txt"'
slow_at=$(python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
print(j["spans"][j["span_stats"][0]["slowest_span"] - 1]["at"])' "$T/m.json")
keys Down Enter
check "Enter on the (all) row: Events at its slowest span's start ($slow_at)" \
	'wait_cursor "^ *$(us "$slow_at") .*B[|]"'
keys 5 / "^Slowest spans" Enter Down
check "the panel ranks the slowest spans: 1 is the (all) row's slowest" \
	'wait_cursor "^ +1 +$(us "$slow_at") +73[.]312 ms .*Choreographer#doFrame"'
shot tui-markers-slowest
quit

# ---- --func, --marker, --panel ---------------------------------------------
for input in "rig:path_openat:$FG" "perf-tools:vfs_read:$RFG"; do
	name=${input%%:*} input=${input#*:} fn=${input%%:*} input=${input#*:}
	start --func "$fn" "$input"
	check "$name: --func $fn opens the Graph with the cursor on the function" \
		'wait_for "CALLS +TOTAL" && wait_cursor "[^a-z_]$fn$"'
	shot "tui-func-graph-$name"
	quit
	start --func "$fn" --panel functions "$input"
	check "$name: --func $fn with --panel functions: the Functions table on its row" \
		'wait_for "CALLS +TOTAL +SELF" && wait_cursor " $fn$"'
	shot "tui-func-functions-$name"
	quit
done
start --marker 'after default' "$EV"
check "--marker opens Events on the first marker matching" \
	'wait_cursor "^ *3[.]936961 .* after default$"'
shot tui-marker
quit

"$FTLENS" tui --panel nosuch "$EV" </dev/null >/dev/null 2>"$T/err1"
rc1=$?
"$FTLENS" tui --at 12x "$EV" </dev/null >/dev/null 2>"$T/err2"
rc2=$?
check "a bad --panel or --at: one usage error before the screen, exit 2" \
	'[ $rc1 = 2 ] && [ $rc2 = 2 ] && [ "$(wc -l <"$T/err1")" = 1 ] && grep -q "events, graph, functions" "$T/err1" &&
	 grep -q -- "--at .12x." "$T/err2"'
