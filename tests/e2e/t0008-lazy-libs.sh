#!/bin/sh
# libxml2 and json-glib are loaded when first used (src/util/lazylib.c), not
# at start: a command that writes no SVG and no JSON runs without them, and
# one that needs a library that cannot be loaded stops with one line naming
# it and its Debian package, exit 1, and leaves no output file behind. A
# broken copy of each library (an empty file under its soname) is put first
# on LD_LIBRARY_PATH.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
make_tmpdir
plan 4

sample=$top_srcdir/data/sample-fgraph.txt
mkdir -p "$T/broken" "$T/out"
: >"$T/broken/libxml2.so.2"
: >"$T/broken/libjson-glib-1.0.so.0"
broken() { LD_LIBRARY_PATH=$T/broken${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} "$@"; }

"$FTLENS" report --no-pager "$sample" >"$T/report.want" 2>&1
broken "$FTLENS" report --no-pager "$sample" >"$T/report.got" 2>&1
rc=$?
check "text report runs with neither library loadable, output unchanged (exit $rc)" '
	[ $rc -eq 0 ] && [ -s "$T/report.want" ] && cmp -s "$T/report.want" "$T/report.got"'

# fails CMD-LABEL LIB PACKAGE OUT CMD...: exit 1, one line, no OUT, no temp
fails() {
	label=$1 lib=$2 pkg=$3 out=$4
	shift 4
	broken "$@" >"$T/stdout" 2>"$T/stderr"
	rc=$?
	check "$label: exit $rc, '$(head -c 160 "$T/stderr")'" '
		[ $rc -eq 1 ] && [ "$(wc -l <"$T/stderr")" -eq 1 ] &&
		grep -q "^ftlens: cannot load $lib (.*): .*; apt-get install $pkg\$" "$T/stderr" &&
		[ ! -e "$out" ] && [ -z "$(ls -A "$T/out")" ]'
}
fails "flame -o without libxml2" libxml2 libxml2 "$T/out/f.svg" \
	"$FTLENS" flame -o "$T/out/f.svg" "$sample"
fails "export speedscope -o without json-glib" json-glib libjson-glib-1.0-0 "$T/out/s.json" \
	"$FTLENS" export --to speedscope -o "$T/out/s.json" "$sample"

"$FTLENS" flame -o "$T/out/ok.svg" "$sample" 2>"$T/ok.err"
rc=$?
check "with the libraries, the same flame writes its SVG (exit $rc)" '
	[ $rc -eq 0 ] && grep -q "<svg" "$T/out/ok.svg" && [ ! -s "$T/ok.err" ]'
finish
