#!/bin/sh
# `make install` into a DESTDIR puts ftlens where a user finds it: the
# binary runs from the prefix's bin/, every command has its man page so
# that `man ftlens-COMMAND` works (MANPATH pointed at the DESTDIR), the
# marker library, its header and pkg-config file are in place, the data
# files the program reads at run time (flame and timeline scripts, gnuplot
# templates) are installed and the installed binary uses them, a page
# renders with `man -l` and `man -M`, a tiny program compiles with
# `pkg-config --cflags --libs ftlens-marker` against the installed library
# and runs, and `make uninstall` takes all of it away again.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
command -v make >/dev/null 2>&1 || skip_all "no make"
command -v man >/dev/null 2>&1 || skip_all "no man (man-db)"
[ -f "$top_builddir/Makefile" ] || skip_all "no build tree at $top_builddir"
make_tmpdir
D=$T/dest
plan 12

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
page=$(find "$D" -name ftlens-report.1 | head -n 1)
check "man -l renders the installed ftlens-report(1)" \
	'MANWIDTH=80 man -l "$page" 2>/dev/null | grep -q "ftlens-report - "'
check "man -M finds it in the installed tree" \
	'MANWIDTH=80 man -M "$MANPATH" ftlens-report 2>/dev/null | grep -q "ftlens-report - "'

# Every run-time data file of data/ (the sample stays in the checkout).
flame_js=$(find "$D" -path '*/share/ftlens/flame.js' | head -n 1)
pkgdata=$(dirname "${flame_js:-/x/x}")
for f in "$top_srcdir"/data/*.js "$top_srcdir"/data/*.css "$top_srcdir"/data/*.gp; do
	cmp -s "$f" "$pkgdata/${f##*/}" || echo "${f##*/}" >>"$T/nodata"
done
where=${pkgdata#"$D"}
check "the data files are installed in $where ($(ls "$pkgdata" 2>/dev/null | tr '\n' ' '))" '
	[ -n "$flame_js" ] && [ ! -s "$T/nodata" ]'
[ -s "$T/nodata" ] && diag "missing or different: $(cat "$T/nodata")"
# The installed binary looks in its configured pkgdatadir, which inside a
# DESTDIR only FTLENS_DATADIR reaches; a copy of flame.js with a tag shows
# that the SVG inlines the installed file, not the build tree's.
echo '/* installed-copy-t5105 */' >>"$pkgdata/flame.js"
FTLENS_DATADIR=$pkgdata "$bin" flame -o "$T/f.svg" "$top_srcdir/data/sample-fgraph.txt" 2>"$T/flame.err"
rc=$?
check "the installed ftlens draws a flame graph with the installed flame.js" '
	[ $rc -eq 0 ] && grep -q installed-copy-t5105 "$T/f.svg"'
[ $rc -eq 0 ] || diag "$(head -n 3 "$T/flame.err")"

pc=$(find "$D" -name ftlens-marker.pc | head -n 1)
printf '%s\n' '#include <ftlens/marker.h>' 'int main(void)' '{' \
	'	ftlens_marker *m = ftlens_marker_open();' \
	'	int rc = ftlens_marker_printf(m, "tiny %d", 42);' \
	'	ftlens_marker_close(m);' '	return rc < 0;' '}' >"$T/tiny.c"
# PKG_CONFIG_SYSROOT_DIR maps the .pc's configured paths into the DESTDIR.
flags=$(PKG_CONFIG_PATH=$(dirname "${pc:-/x/x}") PKG_CONFIG_SYSROOT_DIR=$D \
	pkg-config --cflags --libs ftlens-marker 2>"$T/pc.err")
rc=$?
check "pkg-config --cflags --libs ftlens-marker through PKG_CONFIG_PATH ($flags)" '
	[ $rc -eq 0 ] && echo "$flags" | grep -q -- "-I$D/.*/include" &&
	echo "$flags" | grep -q -- "-L$D/.* -lftlens-marker"'
# shellcheck disable=SC2086
cc -Wall -Werror -o "$T/tiny" "$T/tiny.c" $flags 2>"$T/cc.err"
rc=$?
: >"$T/marker" # the library opens trace_marker, it never creates one
libdir=$(dirname "$(find "$D" -name 'libftlens-marker.so.*' -type f | head -n 1)")
[ $rc -eq 0 ] && FTLENS_TRACE_MARKER=$T/marker LD_LIBRARY_PATH=$libdir "$T/tiny"
rc2=$?
check "a tiny program compiles against the installed library, runs and writes its marker" '
	[ $rc -eq 0 ] && [ $rc2 -eq 0 ] && [ "$(cat "$T/marker")" = "tiny 42" ] &&
	LD_LIBRARY_PATH="$libdir" ldd "$T/tiny" | grep -q "libftlens-marker.so.0 => $libdir/"'
[ $rc -eq 0 ] || diag "$(cat "$T/cc.err")"

inner_make uninstall >"$T/uninstall.log" 2>&1
check "make uninstall leaves no file behind" '[ -z "$(find "$D" -type f)" ]'
finish
