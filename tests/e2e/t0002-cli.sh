#!/bin/sh
# Command line: help, version, exit codes 0/1/2, global options.
. "$(dirname "$0")/lib.sh"
make_tmpdir
S="$top_srcdir/data/sample-fgraph.txt"
[ -f "$S" ] || S="$FTL_TESTDATA/quirks/fgraph-small.txt"
plan 16

"$FTLENS" --help >"$T/out" 2>&1; check "--help exits 0" '[ $? -eq 0 ]'
check "--help lists info and dump" 'grep -q "info" "$T/out"'
"$FTLENS" --version >"$T/out"; check "--version exits 0" '[ $? -eq 0 ]'
check "--version prints the version" 'grep -q "^ftlens [0-9]" "$T/out"'
"$FTLENS" >/dev/null 2>&1; check "no command exits 2" '[ $? -eq 2 ]'
"$FTLENS" frobnicate >/dev/null 2>"$T/err"; check "unknown command exits 2" '[ $? -eq 2 ]'
check "unknown command is named" 'grep -q "frobnicate" "$T/err"'
"$FTLENS" help info >"$T/out" 2>&1; check "help info exits 0" '[ $? -eq 0 ]'
check "help info shows --format" 'grep -q -- "--format" "$T/out"'
"$FTLENS" info >/dev/null 2>"$T/err"; check "info without FILE exits 2" '[ $? -eq 2 ]'
"$FTLENS" info --bogus "$S" >/dev/null 2>&1; check "unknown option exits 2" '[ $? -eq 2 ]'
"$FTLENS" dump --cpu x-y "$S" >/dev/null 2>"$T/err"; check "bad --cpu exits 2" '[ $? -eq 2 ]'
"$FTLENS" dump --time 5,1 "$S" >/dev/null 2>&1; check "bad --time exits 2" '[ $? -eq 2 ]'
"$FTLENS" info "$T/does-not-exist" >/dev/null 2>"$T/err"; rc=$?
check "missing file exits 1" '[ $rc -eq 1 ]'
check "missing file error names the file" 'grep -q "does-not-exist" "$T/err"'
n=$(grep -c . "$T/err"); check "exactly one error line" '[ "$n" -eq 1 ]'
finish
