#!/bin/sh
# `ftlens oops` on bad input: a log without a report is a result (exit 0),
# a file that is no log an error naming it (exit 1), a bad command line a
# usage error (exit 2); a cut report and a dump without its end are read as
# far as they go; --extract-trace never leaves half a file, inputs are never
# changed.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
prereq PYTHON
make_tmpdir

plan 14

printf '[    0.000000] Linux version 6.1.0\n[    1.000000] all is well\n' >"$T/boot.log"
"$FTLENS" oops "$T/boot.log" >"$T/out" 2>"$T/err"
rc=$?
check "a log without a report: exit 0 (got $rc)" '[ "$rc" -eq 0 ]'
check "... and it says so" 'grep -q "no kernel report found" "$T/out"'
"$FTLENS" oops --format json "$T/boot.log" >"$T/boot.json"
check "... JSON: no reports" '[ "$(json_get "$T/boot.json" "len(j['\''logs'\''][0]['\''reports'\''])")" = 0 ]'

: >"$T/empty.log"
"$FTLENS" oops "$T/empty.log" >"$T/out" 2>"$T/err"
rc=$?
check "an empty file: exit 1 and one message naming it (got $rc)" \
	'[ "$rc" -eq 1 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q "empty.log" "$T/err"'

python3 -c 'import sys; sys.stdout.buffer.write(bytes(range(256)) * 16)' >"$T/random.bin"
"$FTLENS" oops "$T/random.bin" >"$T/out" 2>"$T/err"
rc=$?
check "binary bytes: exit 1, 'not a console log' (got $rc)" \
	'[ "$rc" -eq 1 ] && grep -q "not a console log" "$T/err"'

"$FTLENS" oops --format xml "$T/boot.log" >/dev/null 2>&1
rc1=$?
"$FTLENS" oops >/dev/null 2>&1
rc2=$?
check "usage errors exit 2 (--format xml: $rc1, no log: $rc2)" 'test "$rc1" -eq 2 -a "$rc2" -eq 2'

# a report with noise bytes, cut in the middle of the dump printed with it
printf '[    5.000000] BUG: unable to handle page fault for address: ffffffffdead\n[    5.000001] Oops: 0000 [#1] SMP\n[    5.000002] RIP: 0010:demo_deref+0x4/0x10\n[    5.000003] \001\002\377 noise\n[    5.000004] Call Trace:\n[    5.000005]  demo_caller+0x10/0x20\n[    5.000006] Dumping ftrace buffer:\n[    5.000007] ---------------------------------\n[    5.000008]  0)   1.000 us    |  demo();\n[    5.000009]  0)   2.0' >"$T/cut.log"
cp "$T/cut.log" "$T/cut.orig"
"$FTLENS" oops --format json "$T/cut.log" >"$T/cut.json" 2>"$T/err"
rc=$?
check "a cut report with binary noise: exit 0 (got $rc)" '[ "$rc" -eq 0 ]'
check "... the report is found and marked cut" \
	'[ "$(json_get "$T/cut.json" "[(r['\''title'\''], r['\''cut'\'']) for r in j['\''logs'\''][0]['\''reports'\'']]")" = \
	"[('\''BUG: unable to handle kernel paging request in demo_deref'\'', True)]" ]'
check "... the dump is read and marked unended; anomalies are counted" \
	'[ "$(json_get "$T/cut.json" "(j['\''logs'\''][0]['\''dumps'\''][0]['\''closed'\''], j['\''logs'\''][0]['\''dumps'\''][0]['\''trace_lines'\''], sorted(j['\''logs'\''][0]['\''diagnostics'\'']))")" = \
	"(False, 2, ['\''binary_bytes'\'', '\''cut_line'\'', '\''dump_unended'\'', '\''report_cut'\''])" ]'

# --extract-trace: a log without a dump, an empty dump, a path that cannot be written
"$FTLENS" oops --extract-trace "$T/none.txt" "$T/boot.log" >/dev/null 2>"$T/err"
rc=$?
check "--extract-trace without a dump: exit 1, no file (got $rc)" \
	'[ "$rc" -eq 1 ] && [ ! -e "$T/none.txt" ] && grep -q "no ftrace dump" "$T/err"'
printf '[    1.000000] Dumping ftrace buffer:\n[    1.000001]    (ftrace buffer empty)\n' >"$T/emptydump.log"
"$FTLENS" oops --extract-trace "$T/e.txt" "$T/emptydump.log" >/dev/null 2>"$T/err"
rc=$?
check "--extract-trace of an empty dump: exit 1, no file (got $rc)" \
	'[ "$rc" -eq 1 ] && [ ! -e "$T/e.txt" ] && grep -q "empty" "$T/err"'
"$FTLENS" oops --extract-trace "$T/no/such/dir/x.txt" "$T/cut.log" >/dev/null 2>"$T/err"
rc=$?
check "--extract-trace to a bad path: exit 1, the input unchanged (got $rc)" \
	'[ "$rc" -eq 1 ] && cmp -s "$T/cut.log" "$T/cut.orig" && [ -z "$(ls "$T" | grep -v -e "\.log$" -e "\.orig$" -e "\.json$" -e "\.bin$" -e "^err$" -e "^out$")" ]'
ln "$T/cut.log" "$T/cut-alias.log"
"$FTLENS" oops --extract-trace "$T/cut-alias.log" "$T/cut.log" >/dev/null 2>"$T/err"
rc=$?
check "--extract-trace onto its own log (another name): exit 2, the log unchanged (got $rc)" \
	'[ "$rc" -eq 2 ] && cmp -s "$T/cut.log" "$T/cut.orig" && grep -q "never overwrites its input" "$T/err"'
rm -f "$T/cut-alias.log"
# other commands point a console log to `ftlens oops`
"$FTLENS" info "$T/boot.log" >/dev/null 2>"$T/err"
check "ftlens info on a console log says to try 'ftlens oops'" 'grep -q "try '\''ftlens oops'\''" "$T/err"'
finish
