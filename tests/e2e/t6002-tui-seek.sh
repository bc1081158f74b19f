#!/bin/sh
# `ftlens tui` on a text trace with a sparse index (ftlens index): G lands
# on the input's last event, found by a seek near the end (the index) and
# named as a read from the start would name it: the last bare "}" closes a
# call opened on the first line. Timing is bench/tui.sh's, not a test's.
. "$(dirname "$0")/lib.sh"
prereq TMUX
make_tmpdir
sock=ftl-e2e-$$
tm() { tmux -L "$sock" -f /dev/null "$@"; }
trap 'tm kill-server 2>/dev/null; rm -rf "$T"' EXIT
wait_for() { tmux_wait_for "$1" "${2:-30}"; }
wait_gone() {
	_n=$((${2:-60} * 10))
	while [ $_n -gt 0 ]; do
		tm capture-pane -p -t tui >"$T/screen" 2>/dev/null
		grep -Eq -- "$1" "$T/screen" || return 0
		sleep 0.1
		_n=$((_n - 1))
	done
	return 1
}
# wait_file FILE [SECONDS]: until FILE has bytes (a program's exit status, under load)
wait_file() {
	_n=$((${2:-30} * 10))
	while [ ! -s "$1" ] && [ $_n -gt 0 ]; do
		sleep 0.1
		_n=$((_n - 1))
	done
	[ -s "$1" ]
}
keys() { tm send-keys -t tui "$@"; }
cursor_row() { tm capture-pane -p -e -t tui | grep "$(printf '\033')\[7m" | sed 's/\x1b\[[0-9;]*m//g'; }

plan 5
# 240004 rows: two calls open from the first lines to the last, rounds of
# a call, a leaf and a bare "}" in between, one last leaf on CPU 0.
awk 'BEGIN {
	print "# tracer: function_graph"; print "#"
	print " 1)               |  outer_1() {"
	print " 0)               |  outer_0() {"
	for (r = 0; r < 80000; r++) {
		c = r % 2
		printf " %d)               |    mid_%d() {\n", c, r % 7
		printf " %d)   0.%03d us    |      leaf_%d();\n", c, r % 1000, r % 5
		printf " %d)   1.%03d us    |    }\n", c, r % 1000
	}
	print " 1) ! 999.999 us   |  }"
	print " 0)   0.500 us    |    the_very_last();"
}' >"$T/seek.txt"
export XDG_CACHE_HOME="$T/cache"
check "ftlens index builds the trace's index" \
	'"$FTLENS" index --stride 512 "$T/seek.txt" >"$T/index.out" 2>&1 && [ -n "$(ls "$T/cache/ftlens")" ]'

# shellcheck disable=SC2016
tm new-session -d -s tui -x 100 -y 30 \
	"cd '$T' && XDG_CACHE_HOME='$T/cache' NO_COLOR=1 '$FTLENS' tui seek.txt 2>err; echo rc=\$? >rc"
check "the first screen shows the first calls" 'wait_for "outer_0\(\) \{"'
check "the model is read (the progress line goes)" 'wait_gone "reading: [0-9]+ events"'
keys G
check "G: the cursor on the last event; the bare } above it named after outer_1" \
	'wait_for "the_very_last" && sleep 0.3 && cursor_row | grep -qF "the_very_last();" &&
	 grep -q "} /\* outer_1 \*/" "$T/screen" && grep -q "} /\* mid_[0-6] \*/" "$T/screen"'
keys q
check "q quits cleanly, nothing on stderr" \
	'wait_file "$T/rc" && grep -qx "rc=0" "$T/rc" && [ ! -s "$T/err" ]'
finish
