#!/bin/sh
# libftlens-marker as an application sees it: installed (make install into a
# DESTDIR) with its header and ftlens-marker.pc, examples/simple_trace.c is
# compiled with `pkg-config --cflags --libs ftlens-marker` against the shared
# library and once against the static one, and both run, writing their
# markers to a regular file named by FTLENS_TRACE_MARKER. The shared library
# needs nothing but libc and exports only ftlens_marker_* symbols.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
command -v cc >/dev/null 2>&1 || skip_all "no cc"
command -v pkg-config >/dev/null 2>&1 || skip_all "no pkg-config"
command -v make >/dev/null 2>&1 || skip_all "no make"
[ -f "$top_builddir/Makefile" ] || skip_all "no build tree at $top_builddir"
make_tmpdir
D=$T/dest
plan 12

# Only the library's own install targets; MAKEFLAGS from the make running
# this test would hand the inner make a jobserver it does not own.
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$top_builddir" DESTDIR="$D" \
	install-libLTLIBRARIES install-ftlensincludeHEADERS install-pkgconfigDATA \
	>"$T/install.log" 2>&1
rc=$?
check "make install of the library into a DESTDIR" '[ $rc -eq 0 ]'
[ $rc -eq 0 ] || diag "$(tail -n 20 "$T/install.log")"
pc=$(find "$D" -name ftlens-marker.pc | head -n 1)
check "ftlens-marker.pc is installed" '[ -n "$pc" ]'
hdr=$(find "$D" -path '*/include/ftlens/marker.h' | head -n 1)
check "the header installs as <ftlens/marker.h>" '[ -n "$hdr" ]'
so=$(find "$D" -name 'libftlens-marker.so.*' -type f | head -n 1)
a=$(find "$D" -name 'libftlens-marker.a' | head -n 1)
check "a shared and a static library are installed" '[ -n "$so" -a -n "$a" ]'

# PKG_CONFIG_SYSROOT_DIR maps the .pc's configured paths into the DESTDIR.
PKG_CONFIG_PATH=$(dirname "${pc:-/x/x}")
PKG_CONFIG_SYSROOT_DIR=$D
PKG_CONFIG_LIBDIR=$PKG_CONFIG_PATH
export PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR PKG_CONFIG_LIBDIR
check "pkg-config knows ftlens-marker" 'pkg-config --exists ftlens-marker'
cflags=$(pkg-config --cflags ftlens-marker)
libs=$(pkg-config --libs ftlens-marker)
# shellcheck disable=SC2086
cc -Wall -Wextra -Werror -o "$T/st" "$top_srcdir/examples/simple_trace.c" $cflags $libs 2>"$T/cc.err"
rc=$?
check "simple_trace.c compiles against the installed files ($cflags $libs)" '[ $rc -eq 0 ]'
[ $rc -eq 0 ] || diag "$(cat "$T/cc.err")"
libdir=$(dirname "${so:-/x/x}")
: >"$T/marker" # the library opens trace_marker, it never creates one
FTLENS_TRACE_MARKER=$T/marker LD_LIBRARY_PATH=$libdir "$T/st" pc >/dev/null 2>&1
rc=$?
printf '%s\n' 'before pc' 'pc round 1' 'pc round 2' 'pc round 3' 'after pc' >"$T/want"
check "it runs (exit $rc) and writes its markers to FTLENS_TRACE_MARKER" \
	'[ "$rc" -eq 0 ] && head -n 1 "$T/marker" | grep -q "^ftlens-wallclock: [0-9]*\.[0-9]\{9\}$" && sed 1d "$T/marker" | cmp -s - "$T/want"'
check "it loaded the installed shared library" \
	'LD_LIBRARY_PATH="$libdir" ldd "$T/st" | grep -q "libftlens-marker.so.0 => $libdir/"'
# shellcheck disable=SC2086
cc -o "$T/st-static" "$top_srcdir/examples/simple_trace.c" $cflags "$a" 2>"$T/cc.err"
rc=$?
: >"$T/marker"
FTLENS_TRACE_MARKER=$T/marker "$T/st-static" static >/dev/null 2>&1
check "linked with the static library, it runs and writes its markers" \
	'[ "$rc" -eq 0 ] && grep -q "before static" "$T/marker" && ! ldd "$T/st-static" | grep -q libftlens-marker'
if command -v readelf >/dev/null 2>&1; then
	needed=$(readelf -d "$so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
	check "the shared library needs only libc ($needed)" '[ "$needed" = "libc.so.6 " ]'
	other=$(readelf --dyn-syms -W "$so" | awk '$5 == "GLOBAL" && $7 != "UND" { print $8 }' | grep -v '^ftlens_marker_' | tr '\n' ' ')
	check "it exports only ftlens_marker_* (others: ${other:-none})" '[ -z "$other" ]'
else
	ok "# SKIP no readelf"
	ok "# SKIP no readelf"
fi
FTLENS_TRACE_MARKER=/nonexistent/trace_marker LD_LIBRARY_PATH=$libdir "$T/st" >/dev/null 2>"$T/err"
rc=$?
check "without a trace_marker it runs anyway (exit $rc) and says markers are off" \
	'[ "$rc" -eq 0 ] && grep -q "markers are off" "$T/err"'
finish
