#!/bin/sh
# `make install` into a DESTDIR puts ftlens where a user finds it: the
# binary runs from the prefix's bin/, every command has its man page so
# that `man ftlens-COMMAND` works (MANPATH pointed at the DESTDIR), the
# marker library, its header and pkg-config file are in place, and `make
# uninstall` takes all of it away again.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
command -v make >/dev/null 2>&1 || skip_all "no make"
command -v man >/dev/null 2>&1 || skip_all "no man (man-db)"
[ -f "$top_builddir/Makefile" ] || skip_all "no build tree at $top_builddir"
make_tmpdir
D=$T/dest
plan 6

# MAKEFLAGS from the make running this test would hand the inner make a
# jobserver it does not own.
inner_make() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$top_builddir" DESTDIR="$D" "$@"; }
inner_make install >"$T/install.log" 2>&1
rc=$?
check "make install into a DESTDIR" '[ $rc -eq 0 ]'
[ $rc -eq 0 ] || diag "$(tail -n 20 "$T/install.log")"
bin=$(find "$D" -path '*/bin/ftlens' -type f | head -n 1)
check "the installed ftlens runs (${bin#"$D"})" '[ -n "$bin" ] && "$bin" --version | grep -q "^ftlens "'
man1=$(dirname "$(find "$D" -name ftlens.1 | head -n 1)")
MANPATH=$(dirname "$man1")
export MANPATH
"$FTLENS" --help >"$T/help" 2>&1
cmds=$(sed -n 's/^  \([a-z][a-z-]*\)  .*/\1/p' "$T/help")
for c in ftlens $(for c in $cmds; do echo "ftlens-$c"; done); do
	man -w "$c" >/dev/null 2>&1 || echo "$c" >>"$T/noman"
done
check "man finds ftlens and every command's page ($(echo $cmds | wc -w) commands)" '
	[ -n "$cmds" ] && [ ! -s "$T/noman" ]'
[ -s "$T/noman" ] && diag "no page: $(cat "$T/noman")"
check "man ftlens-report renders its NAME" 'MANWIDTH=80 man ftlens-report 2>/dev/null | grep -q "ftlens-report - "'
check "the marker library, header and pkg-config file are installed" '
	[ -n "$(find "$D" -name "libftlens-marker.so.*" -type f)" ] &&
	[ -n "$(find "$D" -path "*/include/ftlens/marker.h")" ] &&
	[ -n "$(find "$D" -name ftlens-marker.pc)" ]'
inner_make uninstall >"$T/uninstall.log" 2>&1
check "make uninstall leaves no file behind" '[ -z "$(find "$D" -type f)" ]'
finish
