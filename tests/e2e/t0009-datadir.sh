#!/bin/sh
# The data directory (util/datadir.c): $FTLENS_DATADIR, when set, is the only
# place ftlens looks, so that a build tree's tests (which set it) give the
# same answers whether or not an ftlens is installed under /usr/local (the
# README's two commands, run in order on one machine, install one before
# the suite runs). Unset, data/ beside the program comes first.
. "$(dirname "$0")/lib.sh"
make_tmpdir
S=$top_srcdir/data/sample-fgraph.txt
plan 3

check "FTLENS_DATADIR=/nonexistent: exit 1 naming only it, no SVG, even beside data/" '
	FTLENS_DATADIR=/nonexistent "$FTLENS" flame -o "$T/nodata.svg" "$S" 2>"$T/err"
	rc=$?
	[ $rc -eq 1 ] && test ! -e "$T/nodata.svg" &&
		grep -q "flame.css.*(looked in /nonexistent; set FTLENS_DATADIR)" "$T/err" ||
		{ diag "exit $rc: $(cat "$T/err")"; false; }
'
mkdir "$T/data"
cp "$top_srcdir/data/flame.css" "$T/data/"
{ cat "$top_srcdir/data/flame.js"; echo "/* t0009-tag */"; } >"$T/data/flame.js"
check "FTLENS_DATADIR=DIR: its files are the ones inlined" '
	FTLENS_DATADIR=$T/data "$FTLENS" flame -o "$T/tagged.svg" "$S" 2>/dev/null &&
	grep -q t0009-tag "$T/tagged.svg"
'
if [ -d "$(dirname "$FTLENS")/data" ]; then
	check "unset: data/ beside the program is read" '
		(unset FTLENS_DATADIR; "$FTLENS" flame -o "$T/beside.svg" "$S" 2>/dev/null) &&
		grep -q "</svg>" "$T/beside.svg"
	'
else
	skip "unset: no data/ beside $FTLENS (a VPATH build)"
fi
