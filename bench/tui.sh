#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The TUI's speed and memory on a big trace, driven in tmux as a user would:
#   first screen  time from the start of ftlens until the Events list shows
#                 rows (polled every 20 ms)
#   model ready   time until the background reading is done (the
#                 "reading: N events" progress leaves the status line)
#   jump to end   time from G (pressed once the model is ready) until the
#                 input's last function shows
#   search        a regex that matches nothing, over the whole list: the
#                 time until its progress shows, and from Esc until it
#                 says it stopped
#   fold/unfold   Graph panel: the time from E (expand all) and from C
#                 (collapse all) until the screen shows the change; then
#                 in process (bench/tui-fold.c, built against FTLENS's
#                 build tree): each key and its redraw through the
#                 plain-text canvas, with the tree's node count
#   harness floor the same polling on a program that prints a row at once:
#                 what tmux and the polls add to every figure
#   memory        VmHWM (peak RSS) of the ftlens process after each step,
#                 its RSS split into anonymous and file-backed pages, and
#                 the call trees' nodes (the analyses' arena: anonymous
#                 mappings of whole 2 MiB chunks), which the target
#                 (5% of the input) leaves out
# Usage: [TUI_BENCH_FIRST=1] [TUI_BENCH_RUNS=3] bench/tui.sh FTLENS TRACE [LAST_FUNCTION]
# FTLENS should be an optimized build (not the sanitizer one). LAST_FUNCTION
# is a text on the input's last row (default: for function_graph text, the
# function its tail closes); a trace.dat needs it given, e.g.
#   bench/tui.sh /tmp/opt/ftlens /tmp/ftlens-bench/capture-v6.dat pfn=0x212f52
# Figures are printed; nothing is timed in the test suite.
set -u
ftlens=$1
trace=$2
last=${3-$(tail -n 20 "$trace" | tr -d '\000' | sed -n 's/.*} \/\* \([A-Za-z0-9_.]*\) \*\/.*/\1/p' | tail -n 1)}
runs=${TUI_BENCH_RUNS:-3}
sock=ftl-bench-$$
T=$(mktemp -d "${TMPDIR:-/tmp}/ftl-bench-tui.XXXXXX") || exit 1
bench_dir=$T bench_src=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$bench_src/lib.sh"
tm() { tmux -L "$sock" -f /dev/null "$@"; }
trap 'tm kill-server 2>/dev/null; rm -rf "$T"' EXIT

# bash's clock: a date(1) per poll cost more than what is measured
now() { printf '%s' "$EPOCHREALTIME"; }
since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }'; }
# peak RSS, and what the RSS is now: anonymous (the model) and file pages
# (the input, mapped)
hwm() {
	awk '/^(VmHWM|RssAnon|RssFile)/ { sub(":", "", $1); printf "%s%s %.1f MiB", n++ ? ", " : "", $1, $2 / 1024 }' \
		"/proc/$pid/status" 2>/dev/null
	printf ', nodes %.1f MiB' "$(nodes_kib | awk '{ print $1 / 1024 }')"
}
# the tree nodes' arena chunks: anonymous, a whole number of 2 MiB
nodes_kib() {
	awk '/^[0-9a-f]+-/ { anon = NF < 6 } /^Size:/ { size = $2 }
	     /^Rss:/ { if (anon && size % 2048 == 0) n += $2 } END { print n + 0 }' "/proc/$pid/smaps" 2>/dev/null
}
# until PATTERN [SECONDS [PAUSE]]: polls the screen (every PAUSE seconds,
# default none: one capture is a tmux client's start, a few ms); false on
# timeout. The pattern is matched by bash, not a grep per poll.
until_screen() {
	_end=$((${EPOCHSECONDS} + ${2:-600}))
	while [ "$EPOCHSECONDS" -lt $_end ]; do
		[[ $(tm capture-pane -p -t b) =~ $1 ]] && return 0
		[ -n "${3:-}" ] && sleep "$3"
	done
	return 1
}
until_gone() {
	_end=$((${EPOCHSECONDS} + ${2:-600}))
	while [ "$EPOCHSECONDS" -lt $_end ]; do
		[[ $(tm capture-pane -p -t b) =~ $1 ]] || return 0
		sleep 0.2
	done
	return 1
}
# start COMMAND: a 120x40 session running it; t0 is taken in the pane just
# before the exec (tmux's own start is not the program's), pid is the
# program's
start() {
	rm -f "$T/pid" "$T/t0"
	printf 'echo $$ >%s/pid\necho $EPOCHREALTIME >%s/t0\nexec %s\n' "$T" "$T" "$1" >"$T/run"
	tm new-session -d -s b -x 120 -y 40 "exec bash '$T/run'"
	while [ ! -s "$T/pid" ] || [ ! -s "$T/t0" ]; do sleep 0.005; done
	pid=$(cat "$T/pid")
	t0=$(cat "$T/t0")
}
stop() {
	tm kill-server 2>/dev/null
	while [ -e "/proc/$pid" ]; do sleep 0.01; done
}

size=$(stat -c %s "$trace")
echo "input: $trace ($(awk -v s="$size" 'BEGIN { printf "%.1f MiB", s / 1048576 }'))"
echo "host: $(uname -r), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
# the harness's own latency: a program that prints a row at once
for i in $(seq "$runs"); do
	start "bash -c \"printf '  1 [001] x\\\\n'; exec sleep 5\""
	until_screen '\[[0-9]{3}\]' 10 && echo "harness floor (printf of a row) run $i: $(since "$t0") s"
	stop
done
# the first screen, from a cold start each time (the index cache is warm
# after the first run ever)
for i in $(seq "$runs"); do
	start "'$ftlens' tui '$trace'"
	if until_screen '\[[0-9]{3}\]' 60; then
		echo "first screen run $i: $(since "$t0") s, $(hwm)"
	else
		echo "first screen run $i: none within 60 s"
		exit 1
	fi
	[ "$i" -lt "$runs" ] && stop
done
# TUI_BENCH_FIRST=1: the first screen only
[ -n "${TUI_BENCH_FIRST:-}" ] && exit 0
if until_gone 'reading: [0-9]+ events' 900; then
	echo "model ready: $(since "$t0") s, $(hwm)"
else
	echo "model ready: not within 900 s"
fi
t1=$(now)
tm send-keys -t b G
if [ -z "$last" ]; then
	echo "jump to end: skipped (give LAST_FUNCTION, a text on the input's last row)"
elif until_screen "$last" 600; then
	echo "jump to end (G, after the model): $(since "$t1") s, $(hwm)"
else
	echo "jump to end: '$last' not shown within 600 s"
fi
# a search through every row from the first: progress, then Esc
tm send-keys -t b g
sleep 0.3
tm send-keys -t b / 'no_such_function_anywhere' Enter
t2=$(now)
if until_screen 'searching: [0-9]+ rows' 60; then
	echo "search: progress after $(since "$t2") s"
	sleep 0.5
	t3=$(now)
	tm send-keys -t b Escape
	if until_screen 'stopped|no match' 30; then
		echo "search: Esc: '$(tm capture-pane -p -t b | grep -Eo 'stopped|no match' | head -n 1)' after $(since "$t3") s"
	else
		echo "search: not stopped within 30 s of Esc"
	fi
else
	echo "search: no progress line within 60 s"
fi
# fold and unfold the whole graph: unfolded, the tree's guides stand
# side by side ("│ │ " or "| | "); folded, only the top level shows. The
# figure includes tmux's latency (a capture every few ms).
poll() { # poll yes|no PATTERN: until the screen shows it (yes) or not (no)
	_end=$((EPOCHSECONDS + 60))
	while [ "$EPOCHSECONDS" -lt $_end ]; do
		if [[ $(tm capture-pane -p -t b) =~ $2 ]]; then
			[ "$1" = yes ] && return 0
		else
			[ "$1" = no ] && return 0
		fi
	done
	return 1
}
nested='(│|\|) (│|\|) '
tm send-keys -t b 2
if until_screen 'CALLS +TOTAL' 10; then
	tm send-keys -t b C
	poll no "$nested"
	sleep 0.5
	t4=$(now)
	tm send-keys -t b E
	poll yes "$nested" && echo "unfold all (E): $(since "$t4") s (until the screen showed it), $(hwm)"
	sleep 0.5
	t5=$(now)
	tm send-keys -t b C
	poll no "$nested" && echo "fold all (C): $(since "$t5") s (until the screen showed it)"
else
	echo "fold/unfold: no Graph panel (the input has no function calls)"
fi
echo "peak RSS / input size: $(awk -v s="$size" '/^VmHWM/ { printf "%.1f%%", $2 * 1024 * 100 / s }' "/proc/$pid/status")"
echo "peak RSS less the nodes / input size: $(awk -v s="$size" -v n="$(nodes_kib)" '/^VmHWM/ { printf "%.1f%%", ($2 - n) * 1024 * 100 / s }' "/proc/$pid/status")"
tm send-keys -t b q

# The same fold and unfold in process: bench/tui-fold.c drives the app with
# keys and draws through the plain-text canvas, timing each key and its
# redraw without tmux. Built against FTLENS's build tree.
if bench_build_linked tui-fold "$(dirname "$ftlens")" "$T/tui-fold"; then
	"$T/tui-fold" "$trace" "${TUI_BENCH_FOLD_RUNS:-5}"
else
	echo "fold/unfold in process: no build tree beside $ftlens"
fi
