#!/bin/sh
# parse/tracecmd-guard.c: a large trace.dat whose headers libtracecmd
# opened in the trial child is recorded in $XDG_CACHE_HOME/ftlens/
# (*.tracecmd-pass), so that opening the unchanged file again skips the
# child's open; the record names the file's size, mtime, inode and device
# and the libraries' files, and any change makes the trial run again. Small
# files (below the index's 16 MiB) are not recorded. A library built
# without the guards (newer than 1.3.x) records nothing: skipped then.
. "$(dirname "$0")/lib.sh"
make_tmpdir
need_real_tracedats
src=$(echo "$samples" | head -n 1)
command -v truncate >/dev/null 2>&1 || skip_all "truncate (coreutils) is not installed"
XDG_CACHE_HOME=$T/cache
export XDG_CACHE_HOME
plan 6

rec() { ls "$XDG_CACHE_HOME"/ftlens/*.tracecmd-pass 2>/dev/null; }
cp "$src" "$T/small.dat"
"$FTLENS" info "$T/small.dat" >"$T/small.out" 2>&1
check "a small trace.dat ($(stat -c %s "$T/small.dat") bytes) is not recorded" '[ -z "$(rec)" ]'

# the same trace, zeros after its data: 17 MiB
cp "$src" "$T/big.dat"
truncate -s 17M "$T/big.dat"
"$FTLENS" dump "$T/big.dat" >"$T/first.out" 2>&1
rc=$?
[ -n "$(rec)" ] || skip_all "no record made: libtracecmd $(pkg-config --modversion libtracecmd 2>/dev/null) is not guarded"
size=$(stat -c %s "$T/big.dat")
check "the first open records the pass, naming the file's size and libtracecmd" \
	'[ $rc -eq 0 ] && [ "$(rec | wc -l)" -eq 1 ] && grep -q "^$size " "$(rec)" && grep -q "libtracecmd" "$(rec)"'

ino=$(stat -c %i "$(rec)")
"$FTLENS" dump "$T/big.dat" >"$T/second.out" 2>&1
rc=$?
check "the second open uses the record (not rewritten) and reads the same events" \
	'[ $rc -eq 0 ] && [ "$(stat -c %i "$(rec)")" = "$ino" ] && cmp -s "$T/first.out" "$T/second.out"'

# the file changed (its mtime): the trial runs again and records anew
before=$(cat "$(rec)")
touch -d '2001-01-01 00:00:00' "$T/big.dat"
"$FTLENS" dump "$T/big.dat" >"$T/third.out" 2>&1
rc=$?
check "a changed file is tried again: the record is made anew with its new mtime" \
	'[ $rc -eq 0 ] && [ "$(cat "$(rec)")" != "$before" ] && cmp -s "$T/first.out" "$T/third.out"'

# a damaged record is no record
printf 'garbage\n' >"$(rec)"
"$FTLENS" dump "$T/big.dat" >"$T/fourth.out" 2>&1
rc=$?
check "a damaged record is ignored, tried again and rewritten" \
	'[ $rc -eq 0 ] && grep -q "^$size " "$(rec)" && cmp -s "$T/first.out" "$T/fourth.out"'

# a record that cannot be written (the cache is a file) does not fail the open
rm -rf "$XDG_CACHE_HOME"
printf 'x' >"$XDG_CACHE_HOME"
"$FTLENS" dump "$T/big.dat" >"$T/fifth.out" 2>&1
rc=$?
check "an unwritable cache: the open still succeeds, silently" \
	'[ $rc -eq 0 ] && cmp -s "$T/first.out" "$T/fifth.out"'
finish
