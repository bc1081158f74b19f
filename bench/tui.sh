#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The TUI's speed and memory on a big trace, driven in tmux as a user would:
#   first screen  time from start until the Events list shows rows
#   model ready   time until the background reading is done (the
#                 "reading: N events" progress leaves the status line)
#   jump to end   time from G (pressed once the model is ready) until the
#                 input's last function shows
#   memory        VmHWM (peak RSS) of the ftlens process after each step,
#                 and its RSS split into anonymous and file-backed pages
# Usage: bench/tui.sh FTLENS TRACE [LAST_FUNCTION]
# FTLENS should be an optimized build (not the sanitizer one). LAST_FUNCTION
# is a name on the input's last lines (default: read from its tail).
# Figures are printed; nothing is timed in the test suite.
set -u
ftlens=$1
trace=$2
last=${3:-$(tail -n 20 "$trace" | sed -n 's/.*} \/\* \([A-Za-z0-9_.]*\) \*\/.*/\1/p' | tail -n 1)}
sock=ftl-bench-$$
T=$(mktemp -d "${TMPDIR:-/tmp}/ftl-bench-tui.XXXXXX") || exit 1
tm() { tmux -L "$sock" -f /dev/null "$@"; }
trap 'tm kill-server 2>/dev/null; rm -rf "$T"' EXIT

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'; }
# peak RSS, and what the RSS is now: anonymous (the model) and file pages
# (the input, mapped)
hwm() {
	awk '/^(VmHWM|RssAnon|RssFile)/ { sub(":", "", $1); printf "%s%s %.1f MiB", n++ ? ", " : "", $1, $2 / 1024 }' \
		"/proc/$pid/status" 2>/dev/null
}
# until PATTERN [SECONDS]: polls the screen every 20 ms; false on timeout.
until_screen() {
	_end=$(($(date +%s) + ${2:-600}))
	while [ "$(date +%s)" -lt $_end ]; do
		tm capture-pane -p -t b | grep -Eq -- "$1" && return 0
		sleep 0.02
	done
	return 1
}
until_gone() {
	_end=$(($(date +%s) + ${2:-600}))
	while [ "$(date +%s)" -lt $_end ]; do
		tm capture-pane -p -t b | grep -Eq -- "$1" || return 0
		sleep 0.2
	done
	return 1
}

size=$(stat -c %s "$trace")
echo "input: $trace ($(awk -v s="$size" 'BEGIN { printf "%.1f MiB", s / 1048576 }'))"
echo "host: $(uname -r), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
t0=$(now)
tm new-session -d -s b -x 120 -y 40 "echo \$\$ >'$T/pid'; exec '$ftlens' tui '$trace'"
while [ ! -s "$T/pid" ]; do sleep 0.01; done
pid=$(cat "$T/pid")
if until_screen '\[[0-9]{3}\]' 60; then
	echo "first screen: $(since "$t0") s, $(hwm)"
else
	echo "first screen: none within 60 s"
	exit 1
fi
if until_gone 'reading: [0-9]+ events' 900; then
	echo "model ready: $(since "$t0") s, $(hwm)"
else
	echo "model ready: not within 900 s"
fi
t1=$(now)
tm send-keys -t b G
if until_screen "$last" 600; then
	echo "jump to end (G, after the model): $(since "$t1") s, $(hwm)"
else
	echo "jump to end: '$last' not shown within 600 s"
fi
echo "peak RSS / input size: $(awk -v s="$size" '/^VmHWM/ { printf "%.1f%%", $2 * 1024 * 100 / s }' "/proc/$pid/status")"
tm send-keys -t b q
