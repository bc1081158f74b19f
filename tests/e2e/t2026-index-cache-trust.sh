#!/bin/sh
# A cache that cannot lie: the sparse index and the trial record in
# $XDG_CACHE_HOME/ftlens/ are used only when they are regular files this
# user owns (opened without following symlinks or blocking), of a size such
# a file can have, and an index whose bounds disagree with its own restart
# points (crashers/poison-index.py lowers every max_before and fixes the
# CRC) is refused: each costs a rebuild or a full scan, never a window
# that prints fewer events, a hang or 8 GB read. Concurrent builders of one
# index leave one good file. Each restart point a window uses is checked
# against the line it points to: a stop point moved to another line is
# refused (a full scan), one moved with that line's timestamp too is caught
# by reading the window to its stop before any event is printed (the events
# and CPU state the lines gave there): the cache removed, the full output,
# and the next run rebuilds it.
. "$(dirname "$0")/lib.sh"
make_tmpdir
XDG_CACHE_HOME=$T/cache
export XDG_CACHE_HOME
plan 11

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

# forge_stop MODE: the stop point of the window's last indexed run (the
# "reading bytes A..B" of $T/v: the point at offset B) moved to the line
# before it; MODE ts: with that line's timestamp too, so that the line
# agrees. The CRC is made again, every bound kept coherent.
forge_stop() {
	python3 - "$(idx)" "$f" "$(sed -n 's/.*index: reading bytes [0-9]*\.\.\([0-9]*\) .*/\1/p' "$T/v")" "$1" <<'PY'
import re, struct, sys, zlib
idx, trace, stop, mode = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
b = bytearray(open(idx, 'rb').read())
data = open(trace, 'rb').read()
H = 96
n = struct.unpack_from('<I', b, H)[0]
for i in range(n):
    o = H + 4 + 72 * i
    off, = struct.unpack_from('<Q', b, o)
    if off != stop:
        continue
    prev = data.rfind(b'\n', 0, off - 1) + 1
    struct.pack_into('<Q', b, o, prev)
    if mode == 'ts':
        m = re.search(rb' (\d+)\.(\d{6}): ', data[prev:off])
        ts = int(m.group(1)) * 10**9 + int(m.group(2)) * 1000
        struct.pack_into('<q', b, o + 16, ts)
        mf, = struct.unpack_from('<q', b, o + 32)
        struct.pack_into('<q', b, o + 32, min(mf, ts))
    break
else:
    sys.exit('no point at offset %d' % stop)
b[64:96] = bytes(32)
struct.pack_into('<I', b, 64, zlib.crc32(bytes(b)) & 0xffffffff)
open(idx, 'wb').write(b)
PY
}

rm -rf "$XDG_CACHE_HOME/ftlens"
"$FTLENS" index --stride 64 "$f" >/dev/null 2>&1
windowed
check "a stop point moved to the line before: refused, the full output" '
	forge_stop offset && windowed && same && grep -q "where no such event starts" "$T/v"
'
rm -rf "$XDG_CACHE_HOME/ftlens"
"$FTLENS" index --stride 64 "$f" >/dev/null 2>&1
windowed
forge_stop ts
timeout 20 "$FTLENS" dump --verbose --time $w "$f" >"$T/got" 2>"$T/v"
rc=$?
check "moved with that line's timestamp: caught before any output, the full output" '
	[ $rc -eq 0 ] && same &&
	grep -q "events.txt'\'': the index cache disagrees with the file at offset .*; reading it all" "$T/v" ||
		{ diag "exit $rc: $(grep -v "index: reading" "$T/v" | head -3)"; false; }
'
check "and the forged cache is removed: the next run reads it all, right" '
	[ -z "$(idx)" ] && windowed && same && grep -q "no index (none cached)" "$T/v"
'
