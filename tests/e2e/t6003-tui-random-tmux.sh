#!/bin/sh
# `ftlens tui` in a real terminal under random keys: tmux runs it as the
# pane's own command (no shell types anything) in a scratch directory,
# a few thousand keys drawn from a seeded generator go in (every key the
# table knows, letters, digits, named keys, prompts, resizes), and the
# program must still be alive and drawing at the end, then quit cleanly
# with the terminal given back. A crash (SIGSEGV, SIGABRT) gives the
# terminal back before the program dies; the mouse is left to the
# terminal unless --mouse asks for it. Z and O (saved views) are among the
# letters: the views go to a scratch XDG_CONFIG_HOME.
# FTL_TUI_TMUX_KEYS (default 3000) and FTL_TUI_TMUX_SEED (default 30).
. "$(dirname "$0")/lib.sh"
prereq TMUX
make_tmpdir
nkeys=${FTL_TUI_TMUX_KEYS:-3000}
seed=${FTL_TUI_TMUX_SEED:-30}
cp "$top_srcdir/data/sample-fgraph.txt" "$T/trace.txt"
sock=ftl-e2e-$$
printf 'set -s exit-empty off\nset -g remain-on-exit on\n' >"$T/tmux.conf"
tm() { tmux -L "$sock" -f "$T/tmux.conf" "$@"; }
trap 'tm kill-server 2>/dev/null; rm -rf "$T"' EXIT
wait_for() { tmux_wait_for "$@"; }
wait_dead() { tmux_wait_dead 300; }
start() {
	tm kill-session -t tui 2>/dev/null
	tm new-session -d -s tui -x 80 -y 24 -c "$T" "$1"
}
flag() { tm display -p -t tui "#{$1}"; }

plan 5

# shellcheck disable=SC2016
start "XDG_CONFIG_HOME='$T/config' NO_COLOR=1 '$FTLENS' tui --span 'before (.*)' 'after \\1' trace.txt 2>err; echo rc=\$? >rc; stty -a >stty"
wait_for "TIME +CPU" >/dev/null
# The keys, one tmux key name a line; q is left out (it would end the run
# early) and comes last. Resizes are lines "resize COLSxROWS".
awk -v seed="$seed" -v n="$nkeys" 'BEGIN {
	srand(seed)
	k = split("Up Down Left Right PageUp PageDown Home End Tab BTab Escape Enter BSpace " \
		  "C-l C-u F1 Space", named, " ")
	s = "abcdefghijklmnoprstuvwxyzABCDEFGHIJKLMNOPRSTUVWXYZ0123456789/?.,^+-*[](){}<>=$#@!~"
	for (i = 0; i < n; i++) {
		r = rand()
		if (r < 0.01)
			printf "resize %dx%d\n", 30 + int(rand() * 150), 6 + int(rand() * 50)
		else if (r < 0.40)
			print named[1 + int(rand() * k)]
		else if (r < 0.55)
			print 1 + int(rand() * 9)
		else
			print substr(s, 1 + int(rand() * length(s)), 1)
	}
}' >"$T/keys"
diag "random keys in tmux: seed $seed, $nkeys keys"
# in batches: one send-keys per 20 keys (a single character that is not a
# key name is sent as it is; the set has no ';', tmux's separator)
set --
while IFS= read -r key; do
	case $key in
	resize*)
		[ $# -gt 0 ] && tm send-keys -t tui "$@"
		set --
		sz=${key#resize }
		tm resize-window -t tui -x "${sz%x*}" -y "${sz#*x}"
		;;
	*) set -- "$@" "$key" ;;
	esac
	if [ $# -ge 20 ]; then
		tm send-keys -t tui "$@"
		set --
		sleep 0.02
	fi
done <"$T/keys"
[ $# -gt 0 ] && tm send-keys -t tui "$@"
tm resize-window -t tui -x 80 -y 24
sleep 1
check "after $nkeys random keys the program is alive and draws its tab row" \
	'[ "$(flag pane_dead)" = 0 ] && wait_for " 1 Eve" 10 && [ ! -s "$T/err" ]'
# out of a prompt, a pending bookmark or the help, then quit
tm send-keys -t tui Escape Escape Escape
sleep 0.3
tm send-keys -t tui q
sleep 0.5
[ "$(flag pane_dead)" = 1 ] || tm send-keys -t tui Escape q
check "then q quits: exit 0, main screen, cooked mode" \
	'wait_dead && grep -qx "rc=0" "$T/rc" && [ "$(flag alternate_on)" = 0 ] &&
	 grep -q " icanon" "$T/stty" && grep -q " echo " "$T/stty" ||
	 { diag "$(cat "$T/rc" "$T/err" 2>&1)"; false; }'

# A crash: the terminal is given back before the program dies by it.
for sig in SEGV ABRT; do
	# shellcheck disable=SC2016
	start "exec 3<&0; '$FTLENS' tui trace.txt <&3 2>err-$sig & echo \$! >pid; wait \$!; echo rc=\$? >rc-$sig; stty -a >stty-$sig"
	wait_for "TIME +CPU" >/dev/null
	tm send-keys -t tui 4 Right
	sleep 0.3
	kill -"$sig" "$(cat "$T/pid")"
	check "SIG$sig: the program dies, the terminal given back first" \
		'wait_dead && ! grep -qx "rc=0" "$T/rc-$sig" && [ "$(flag alternate_on)" = 0 ] &&
		 grep -q " icanon" "$T/stty-$sig" && grep -q " echo " "$T/stty-$sig" ||
		 { diag "$(cat "$T/rc-$sig" 2>&1; tail -n 3 "$T/err-$sig")"; false; }'
done

# The mouse: left to the terminal by default, taken with --mouse.
start "'$FTLENS' tui trace.txt"
wait_for "TIME +CPU" >/dev/null
m_off=$(flag mouse_any_flag)
tm send-keys -t tui q
wait_dead
start "'$FTLENS' tui --mouse trace.txt"
wait_for "TIME +CPU" >/dev/null
m_on=$(flag mouse_any_flag)
tm send-keys -t tui q
wait_dead
check "the mouse is the terminal's unless --mouse" '[ "$m_off" = 0 ] && [ "$m_on" = 1 ]'

finish
