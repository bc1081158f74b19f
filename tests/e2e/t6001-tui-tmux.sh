#!/bin/sh
# `ftlens tui` in a real terminal: tmux runs it in a pane of known size,
# send-keys types, capture-pane reads the screen back. It opens a
# function_graph trace with two CPUs, shows the help, searches, folds the
# graph, sets marks A/B, filters a CPU, follows a resize, quits, and the
# terminal is given back (no alternate screen, cooked mode, cursor shown) on
# quit, on SIGTERM and on bad input. Hostile marker and comm text must not
# drive the terminal: no clipboard write (OSC 52), no clear screen. On a
# trace.dat, G once the model is read enters the file at a checkpoint's
# time and shows dump's last events.
. "$(dirname "$0")/lib.sh"
prereq TMUX
need_python
make_tmpdir
trace=$FTL_TESTDATA/vm/fgraph-options/combined.txt
sock=ftl-e2e-$$
# set before any pane runs: a clipboard write would be taken (a buffer), and
# a pane stays after its program ends, to read how it ended
printf 'set -s exit-empty off\nset -g set-clipboard on\nset -g remain-on-exit on\n' >"$T/tmux.conf"
tm() { tmux -L "$sock" -f "$T/tmux.conf" "$@"; }
trap 'tm kill-server 2>/dev/null; rm -rf "$T"' EXIT

# wait_for PATTERN [SECONDS]: until the pane shows PATTERN (a grep -E).
wait_for() { tmux_wait_for "$@"; }
# wait_dead: until the program in the pane ended (remain-on-exit keeps it).
wait_dead() { tmux_wait_dead 200; }
# start COMMAND: a fresh session of 100x30 running COMMAND under sh.
start() {
	tm kill-session -t tui 2>/dev/null
	tm new-session -d -s tui -x 100 -y 30 "$1"
}
keys() { tm send-keys -t tui "$@"; }
# the row under the cursor: reverse video without colour (NO_COLOR)
cursor_row() { tm capture-pane -p -e -t tui | grep "$(printf '\033')\[7m" | sed 's/\x1b\[[0-9;]*m//g'; }

plan 21
[ -r "$trace" ] || skip_all "$trace missing"

# The man page's key table is the program's (ftlens tui --keys).
sed -n '/^\.ft CW$/,/^\.ft$/p' "$top_srcdir/doc/ftlens-tui.1" | sed -e '1d' -e '$d' \
	-e 's/\\-/-/g' -e 's/\\(aq/'"'"'/' -e 's/^\\&//' -e 's/\\e/\\/g' >"$T/man-keys"
"$FTLENS" tui --keys >"$T/keys"
check "ftlens-tui.1 lists the key table the program has" 'cmp -s "$T/keys" "$T/man-keys"'

# shellcheck disable=SC2016
start "cd '$T' && NO_COLOR=1 '$FTLENS' tui '$trace' 2>err; echo rc=\$? >rc; stty -a >stty"
check "the first screen shows the Events list" 'wait_for "TIME +CPU +TASK-PID" && wait_for "\[00[01]\]"'

keys h
check "h shows the key table, sorted by key" \
	'wait_for "Key +Where +What" && grep -n "^ *[a-zA-Z] " "$T/screen" | head -3 | grep -q " a "'
keys x
check "any key closes the help" 'wait_for "TIME +CPU" && ! grep -q "Key +Where" "$T/screen"'

keys / getname Enter
check "/ searches forward: the cursor is on the match" \
	'wait_for "getname" && sleep 0.3 && cursor_row | grep -q getname'
keys n
check "n goes to the next match" 'sleep 0.5 && cursor_row | grep -q getname'

keys a j j j j j b
check "a and b set marks; the status line shows B-A" 'wait_for "B-A [0-9.]+ [mun]?s"'

keys 2 C
check "Graph: C folds everything (only + signs)" \
	'wait_for "CALLS +TOTAL" && grep -q "[-\`]+ " "$T/screen"'
keys E
check "Graph: E unfolds everything (no + sign left)" \
	'sleep 0.5 && tm capture-pane -p -t tui >"$T/screen" && ! grep -q "[-\`]+ " "$T/screen" && grep -q "| |" "$T/screen"'
keys p
check "Graph: p reads the per-CPU tree when asked for: a row per CPU" \
	'wait_for "per CPU; p: change" && wait_for "[-\`][-+] CPU [0-9]"'
keys p p
check "Graph: p twice more: all tasks again" 'wait_for "all tasks; p: change"'

keys 1 f "cpu 1" Enter
check "f cpu 1 filters the Events list to CPU 1" \
	'wait_for "\[cpu 1\]" && wait_for "\[001\]" && ! grep -q "\[000\]" "$T/screen"'
keys Escape
check "Esc pops the filter: CPU 0 is back (the trace ends on it)" \
	'sleep 0.3 && keys G && wait_for "\[000\]" && ! grep -q "\[cpu 1\]" "$T/screen"'

tm resize-window -t tui -x 80 -y 24
check "a resize to 80x24 redraws: the status line on the last row" \
	'sleep 0.5 && tm capture-pane -p -t tui >"$T/screen" && [ "$(wc -l <"$T/screen")" -eq 24 ] &&
	 tail -n 1 "$T/screen" | grep -q "h: help" && ! grep -q "^.\{81\}" "$T/screen"'

keys q
check "q quits cleanly: exit 0, terminal in cooked mode, main screen" \
	'wait_dead && grep -qx "rc=0" "$T/rc" && grep -q " icanon" "$T/stty" && grep -q " echo " "$T/stty" &&
	 [ "$(tm display -p -t tui "#{alternate_on}")" = 0 ] && [ ! -s "$T/err" ]'

# SIGTERM: the terminal is restored before the signal ends the program.
# (The shell waits for it and says how it ended: tmux is slow to reap.
# An asynchronous command's stdin is /dev/null unless redirected.)
# shellcheck disable=SC2016
start "exec 3<&0; '$FTLENS' tui '$trace' <&3 & echo \$! >'$T/pid'; wait \$!; echo rc=\$? >'$T/rc4'; stty -a >'$T/stty4'"
wait_for "TIME +CPU" >/dev/null
kill -TERM "$(cat "$T/pid")"
check "SIGTERM: the program ends by the signal, the terminal restored" \
	'wait_dead && grep -qx "rc=143" "$T/rc4" && grep -q " icanon" "$T/stty4" &&
	 [ "$(tm display -p -t tui "#{alternate_on}")" = 0 ]'

# Bad input: one message naming the file before the screen comes up.
# shellcheck disable=SC2016
start "'$FTLENS' tui '$T/absent.txt' 2>'$T/err2'; echo rc=\$? >'$T/rc2'"
check "bad input: one error naming the file, exit 1, the terminal untouched" \
	'wait_dead && grep -qx "rc=1" "$T/rc2" && [ "$(wc -l <"$T/err2")" -eq 1 ] &&
	 grep -q "absent.txt" "$T/err2" && [ "$(tm display -p -t tui "#{alternate_on}")" = 0 ]'
# An error in a background thread: the input shrinks while the model is
# read. The program is stopped as soon as its first screen shows (the
# loader is then still early in 4 M lines, even on a loaded machine, where
# the screen can come late), the file cut, the program
# let go; G sends the Events list to the end as well.
yes '   0)   0.123 us    |  kfree();' | head -n 4000000 >"$T/shrink.txt"
# shellcheck disable=SC2016
start "exec 3<&0; '$FTLENS' tui '$T/shrink.txt' <&3 2>'$T/err5' & echo \$! >'$T/pid5'; wait \$!; echo rc=\$? >'$T/rc5'; stty -a >'$T/stty5'"
wait_for "kfree" >/dev/null
kill -STOP "$(cat "$T/pid5")"
truncate -s 100000 "$T/shrink.txt"
kill -CONT "$(cat "$T/pid5")"
keys G
check "an error in a background thread: one message naming the file, exit 1, the terminal restored" \
	'{ wait_dead || wait_dead || wait_dead; } && grep -qx "rc=1" "$T/rc5" && [ "$(wc -l <"$T/err5")" -eq 1 ] &&
	 grep -q "shrink.txt.*shrank while being read" "$T/err5" && grep -q " icanon" "$T/stty5" &&
	 [ "$(tm display -p -t tui "#{alternate_on}")" = 0 ] ||
	 { diag "$(cat "$T/rc5" "$T/err5" 2>&1)"; false; }'
"$FTLENS" tui "$trace" </dev/null >"$T/out3" 2>"$T/err3"
rc=$?
check "without a terminal: a usage error, nothing on stdout" \
	'[ $rc -eq 2 ] && grep -q "needs a terminal" "$T/err3" && [ ! -s "$T/out3" ]'

# Hostile text: ESC [2J, OSC 52 (clipboard) ... BEL, C1 CSI (0x9b and U+009B),
# U+202E, a stray 0xff, in a comm and in marker text.
h='\033[2J\033]52;c;aGk=\007\233X\302\233Y\342\200\256Z\377'
{
	printf '# tracer: nop\n#\n'
	printf '#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n'
	printf '#              | |         |   |||||     |         |\n'
	printf "        ev${h}il-96      [000] .....   100.000000: tracing_mark_write: start ${h}\n"
	printf "          <idle>-0       [001] d....   100.000200: tracing_mark_write: end ${h}\n"
} >"$T/hostile.txt"
start "'$FTLENS' tui '$T/hostile.txt'"
wait_for "tracing_mark_write" >/dev/null
keys 5
wait_for "SINCE PREV" >/dev/null
tm capture-pane -p -t tui >"$T/hostile-screen"
check "hostile text is shown made visible and never drives the terminal" \
	'grep -q "\\\\x1b\[2J" "$T/hostile-screen" && grep -q "\\\\x9b" "$T/hostile-screen" &&
	 grep -q "SINCE PREV" "$T/hostile-screen" && [ -z "$(tm list-buffers)" ]'
keys q
wait_dead

# A trace.dat of 53,800 events: the fixture's raw pages 100 times over,
# each copy a second later (a page's events are deltas from its header's
# time). G after the model is read is a seek by time (a binary search of
# each CPU's pages, the open stream moved); its rows (time, CPU, pid) must
# be dump's last ones.
raw=$FTL_TESTDATA/vm/raw/raw
python3 - "$raw" "$T" <<'EOF'
import struct, sys
for cpu in (0, 1):
    pages = open("%s/per_cpu/cpu%d/trace_pipe_raw" % (sys.argv[1], cpu), "rb").read()
    with open("%s/cpu%d" % (sys.argv[2], cpu), "wb") as f:
        for k in range(100):
            for off in range(0, len(pages), 4096):
                ts, = struct.unpack_from("<Q", pages, off)
                f.write(struct.pack("<Q", ts + k * 10**9) + pages[off + 8:off + 4096])
EOF
python3 "$(dirname "$0")/raw2dat.py" "$raw/events" "$T/copies.dat" 0:"$T/cpu0" 1:"$T/cpu1"
"$FTLENS" dump --us "$T/copies.dat" | tail -n 5 |
	awk '{ printf "%s %d %d\n", $1, $2, $3 }' >"$T/dump-tail"
start "NO_COLOR=1 '$FTLENS' tui '$T/copies.dat'"
wait_for "\[00[01]\]" >/dev/null
n=100
while [ $n -gt 0 ] && tm capture-pane -p -t tui | grep -q "reading: "; do
	sleep 0.1
	n=$((n - 1))
done
keys G
check "trace.dat: G (a seek by time) shows dump's last events" \
	'wait_for "$(tail -n 1 "$T/dump-tail" | cut -d" " -f1) \[001\]" &&
	 grep -E "^ *[0-9]+\.[0-9]+ \[[0-9]{3}\] " "$T/screen" | tail -n 5 |
	 sed -E "s/^ *([0-9.]+) \[0*([0-9]+)\] +[^ ]*-([0-9]+) .*/\1 \2 \3/" >"$T/tui-tail" &&
	 cmp -s "$T/dump-tail" "$T/tui-tail" ||
	 { diag "$(diff "$T/dump-tail" "$T/tui-tail")"; false; }'
keys q
wait_dead

finish
