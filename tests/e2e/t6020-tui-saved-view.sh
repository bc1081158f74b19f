#!/bin/sh
# Saved views in a real terminal (issue 34 item 9): on the rig's
# function_graph capture (it has no timestamps: no marks), a CPU filter,
# folds in Graph and its cursor, Z; quit; `ftlens tui --view NAME` shows the same screen. On a
# public sched capture the same with the Timeline zoomed and panned, marks
# A/B, and Sched's sort and scope. A
# view opened on another trace says so and applies what fits; a bad view
# file is one message naming it (and the line) before any screen, and a
# symlink or a FIFO is refused. Everything goes to a scratch
# XDG_CONFIG_HOME; the screens are kept in the log.
. "$(dirname "$0")/lib.sh"
prereq TMUX
make_tmpdir
tmux_server
wait_for() { tmux_wait_for "$@"; }
# start COMMAND: a fresh 120x30 session running COMMAND in the scratch dir
start() {
	tm kill-session -t tui 2>/dev/null
	rm -f "$T/rc" "$T/err"
	tm new-session -d -s tui -x 120 -y 30 \
		"cd '$T' && LC_ALL=C.UTF-8 XDG_CONFIG_HOME='${cfg:-$T/config}' NO_COLOR=1 $1 2>err; echo rc=\$? >rc"
}
# shot NAME: the screen into $T/NAME.screen and the log
shot() {
	tm capture-pane -p -t tui >"$T/$1.screen"
	diag "screen $1:"
	diag "$(cat "$T/$1.screen")"
}
# same A B: the two screens but their last line (the message)
same() {
	sed '$d' "$T/$1.screen" >"$T/$1.body"
	sed '$d' "$T/$2.screen" >"$T/$2.body"
	diff "$T/$1.body" "$T/$2.body" >"$T/diff" || { diag "$(cat "$T/diff")"; return 1; }
}
# settled: until the status line reads nothing more (the machine may be
# loaded: a screen captured while a model is read is not the one to keep)
settled() {
	_n=300
	while [ $_n -gt 0 ]; do
		tm capture-pane -p -t tui >"$T/screen"
		grep -Eq "reading: |tree: |searching: |reading the scheduling" "$T/screen" || return 0
		sleep 0.1
		_n=$((_n - 1))
	done
	return 1
}
quit() { keys q && tmux_wait_dead && grep -q "rc=0" "$T/rc" && [ ! -s "$T/err" ]; }

plan 16
fg=$top_srcdir/tests/data/vm/fgraph-events/trace.txt
lisa=$FTL_REAL_DATA/events/lisa_tracecmd_report_sched_448k.txt

start "'$FTLENS' tui '$fg'"
wait_for "TIME +CPU" >/dev/null
keys f "cpu 1" Enter
wait_for "\[cpu 1\]" >/dev/null && settled
keys 2
wait_for "do_exit" >/dev/null && settled
keys j j Right j j j Right j j
settled
keys Z C-u fgraph Enter
check "fgraph: Z saves the view under XDG_CONFIG_HOME" \
	'wait_for "view saved: .*/config/ftlens/views/fgraph.view" && shot fg-saved &&
	 grep -q "^filters=cpu 1;" "$T/config/ftlens/views/fgraph.view" &&
	 grep -q "^toggled=" "$T/config/ftlens/views/fgraph.view"'
check "fgraph: the saved screen has the filter and unfolded calls" \
	'grep -q "\[cpu 1\]" "$T/fg-saved.screen" && grep -q "─▾ " "$T/fg-saved.screen"'
check "fgraph: q quits cleanly" 'quit'
diag "the view file:"
diag "$(cat "$T/config/ftlens/views/fgraph.view")"

start "'$FTLENS' tui --view fgraph '$fg'"
check "fgraph: tui --view fgraph opens it" \
	'wait_for "view fgraph.view opened" && settled && shot fg-reopened'
check "fgraph: the same screen as when it was saved" 'same fg-saved fg-reopened'
check "fgraph: q quits cleanly" 'quit'

# another trace: said on the status line, what fits applied (the filter)
other=$top_srcdir/tests/data/vm/fgraph-basic/trace.txt
start "'$FTLENS' tui --view fgraph '$other'"
check "another trace: the status line says the view was saved for another" \
	'wait_for "view fgraph.view: saved for trace.txt \(other sizes\): applied what fits" &&
	 wait_for "\[cpu 1\]" && settled && shot fg-other'
check "another trace: q quits cleanly" 'quit'

# a bad file: one message before any screen, naming the file and the line
mkdir -p "$T/config/ftlens/views"
printf '[ftlens-view]\nversion=1\n[timeline]\nspan=0\n' >"$T/bad.view"
check "a bad view: one error with the file and the line, exit 1, no screen" \
	'! XDG_CONFIG_HOME="$T/config" "$FTLENS" tui --view "$T/bad.view" "$fg" >"$T/out" 2>"$T/msg" &&
	 [ ! -s "$T/out" ] && diag "$(cat "$T/msg")" &&
	 grep -q "bad.view.: line 4: span: .0.: expected a whole number from 1" "$T/msg" &&
	 [ "$(wc -l <"$T/msg")" -eq 1 ]'
ln -s "$T/config/ftlens/views/fgraph.view" "$T/config/ftlens/views/link.view"
mkfifo "$T/config/ftlens/views/fifo.view"
check "a symlink and a FIFO in the views directory are refused, no hang" \
	'! XDG_CONFIG_HOME="$T/config" "$FTLENS" tui --view link "$fg" 2>"$T/msg1" </dev/null &&
	 grep -q "a symlink" "$T/msg1" &&
	 ! XDG_CONFIG_HOME="$T/config" timeout 20 "$FTLENS" tui --view fifo "$fg" 2>"$T/msg2" &&
	 grep -q "not a regular file" "$T/msg2"'

# a full file system: Z says so, and leaves no file (root: a 16 KiB tmpfs)
full=$T/full
if have_prereq ROOT && mkdir -p "$full" && mount -t tmpfs -o size=16k tmpfs "$full" 2>/dev/null; then
	trap 'umount "$full" 2>/dev/null; tm kill-server 2>/dev/null; rm -rf "$T"' EXIT
	mkdir -p "$full/config"
	dd if=/dev/zero of="$full/fill" bs=1k count=64 2>/dev/null
	cfg=$full/config
	start "'$FTLENS' tui '$fg'"
	cfg=
	wait_for "TIME +CPU" >/dev/null && settled
	keys Z C-u full Enter
	check ROOT "a full file system: Z says ENOSPC with the file, leaves no file" \
		'wait_for "save view: .*full.view.: write failed: No space left on device" &&
		 shot full && [ -z "$(ls -A "$full/config/ftlens/views")" ]'
	check ROOT "a full file system: the TUI goes on, q quits cleanly" 'quit'
	umount "$full"
else
	skip "a full file system: needs root and a tmpfs mount"
	skip "a full file system: the TUI goes on"
fi

if have_input "$lisa" 4; then
	start "'$FTLENS' tui '$lisa'"
	wait_for "TIME +CPU" >/dev/null
	keys 4
	wait_for "CPU 0" >/dev/null && settled
	keys + + + ] Right Right Down Down a + Right b 0 s w
	wait_for "scope 2 of 2" >/dev/null && wait_for "^CPUs" >/dev/null && settled
	keys Z C-u lisa Enter
	check "lisa: Z on Sched after zooming the Timeline" \
		'wait_for "view saved: " && shot lisa-saved && keys 4 &&
		 wait_for "\(a cell: " >/dev/null && settled &&
		 shot lisa-saved-timeline && grep -q "B-A" "$T/lisa-saved-timeline.screen"'
	check "lisa: q quits cleanly" 'quit'
	start "'$FTLENS' tui --view lisa '$lisa'"
	# the sort and scope are applied once the model is read, and the
	# window's analysis read after: wait for them (a bounded wait)
	check "lisa: the same Sched screen (sort, scope) reopened" \
		'wait_for "view lisa.view opened" && wait_for "^CPUs" &&
		 wait_for "scope 2 of 2" && wait_for "^Tasks by wait" && settled && shot lisa-reopened &&
		 same lisa-saved lisa-reopened'
	check "lisa: the same Timeline window, cursor and marks" \
		'keys 4 && wait_for "\(a cell: " >/dev/null && settled && shot lisa-reopened-timeline &&
		 same lisa-saved-timeline lisa-reopened-timeline && quit'
fi
finish
