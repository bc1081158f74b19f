#!/bin/sh
# A cache that cannot lie: the sparse index and the trial record in
# $XDG_CACHE_HOME/ftlens/ are used only when they are regular files this
# user owns (opened without following symlinks or blocking), of a size such
# a file can have, and an index whose bounds disagree with its own restart
# points (crashers/poison-index.py lowers every max_before and fixes the
# CRC) is refused: each costs a rebuild or a full scan, never a window
# that prints fewer events, a hang or 8 GB read. Concurrent builders of one
# index leave one good file.
. "$(dirname "$0")/lib.sh"
make_tmpdir
XDG_CACHE_HOME=$T/cache
export XDG_CACHE_HOME
plan 8

awk 'BEGIN {
	print "# tracer: nop"
	t = 5000
	for (i = 0; i < 6000; i++) {
		cpu = i % 4; t += 0.000011 * (1 + i % 3)
		printf "          task-%d  [%03d] d... %.6f: block_rq_issue: 8,0 W 0 () %d + 8 [task]\n", 100 + cpu, cpu, t, i
	}
}' >"$T/events.txt"
f=$T/events.txt
w=5000.05,5000.06
idx() { ls "$XDG_CACHE_HOME"/ftlens/*.idx 2>/dev/null; }
"$FTLENS" dump --no-index --time $w "$f" >"$T/ref" 2>&1
[ "$(wc -l <"$T/ref")" -gt 100 ] || echo "Bail out! the window holds $(wc -l <"$T/ref") events"

# windowed: the window's dump through the cache into $T/got (verbose
# messages in $T/v), within 20 s
windowed() {
	timeout 20 "$FTLENS" dump --verbose --time $w "$f" >"$T/got" 2>"$T/v"
}
same() { cmp -s "$T/ref" "$T/got" || { diag "$(wc -l <"$T/got") lines, want $(wc -l <"$T/ref"); $(grep index "$T/v")"; false; }; }

p=$FTL_CRASHERS/poison-index.py
if have_input "$p"; then
	check PYTHON "poison-index.py (bounds lowered, CRC fixed): refused, the full output" '
		"$FTLENS" index --stride 64 "$f" >/dev/null 2>&1 &&
		python3 "$p" "$f" >/dev/null && windowed && same &&
		grep -q "corrupt (contents)" "$T/v"
	'
fi

"$FTLENS" index --stride 64 "$f" >/dev/null 2>&1
windowed
check "a fresh index of this user is used" 'same && grep -q "index: reading bytes [1-9]" "$T/v"'

check ROOT "a cache file of another user is not used" '
	chown nobody "$(idx)" && windowed && same &&
	grep -q "owned by another user: not used" "$T/v"
'
rm -f "$(idx)"

"$FTLENS" index --stride 64 "$f" >/dev/null 2>&1
check "a cache file writable by others is not used" '
	chmod 666 "$(idx)" && windowed && same && grep -q "writable by other users" "$T/v"
'
i=$(idx)
rm -f "$i"

check "a FIFO at the cache path: no hang, the full output" '
	mkfifo "$i" && windowed && same && grep -q "not a regular file" "$T/v"
'
rm -f "$i"

truncate -s 8G "$T/huge"
check "a symlink at the cache path to an 8 GB file is not followed" '
	ln -s "$T/huge" "$i" && windowed && same && grep -q "a symlink: not used" "$T/v"
'
rm -f "$i"

check "an 8 GB regular file at the cache path is not read" '
	mv "$T/huge" "$i" && windowed && same && grep -q "larger than such a file can be" "$T/v"
'
rm -f "$i"

check "four concurrent index runs leave one good file" '
	for k in 1 2 3 4; do "$FTLENS" index --stride 64 "$f" >/dev/null 2>&1 & done
	wait
	[ "$(ls "$XDG_CACHE_HOME/ftlens" | wc -l)" -eq 1 ] && windowed && same &&
	grep -q "index: reading bytes [1-9]" "$T/v"
'
