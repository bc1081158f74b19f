#!/bin/sh
# Bad input: one clear error naming the file (and line), exit 1, no crash
# (the sanitizer build aborts on any memory error), inputs left unchanged.
. "$(dirname "$0")/lib.sh"
make_tmpdir
plan 26

# expect_error NAME FILE PATTERN: exit 1, one stderr line matching PATTERN
expect_error() {
	"$FTLENS" info "$2" >"$T/out" 2>"$T/err"
	rc=$?
	check "$1: exit 1 (got $rc)" '[ $rc -eq 1 ]'
	pattern=$3
	check "$1: message names file and place" 'grep -q -- "$pattern" "$T/err"'
	n=$(wc -l <"$T/err")
	check "$1: one line on stderr (got $n)" '[ "$n" -eq 1 ]'
	[ "$n" -eq 1 ] || sed 's/^/# /' "$T/err"
}

: >"$T/empty"
expect_error "empty file" "$T/empty" "'$T/empty': empty file"

head -c 3000 /dev/urandom >"$T/garbage"
printf '\000' >>"$T/garbage"
expect_error "binary garbage" "$T/garbage" "'$T/garbage': line [0-9]*: binary data"

{ echo "   bash-1 [000] .... 1.000001: cpu_idle: state=1"; head -c 10485760 /dev/zero | tr '\0' 'x'; echo; } >"$T/longline"
expect_error "10 MB line" "$T/longline" "'$T/longline': line 2: line is 10485760 bytes long"

printf 'Lorem ipsum dolor sit amet\nconsectetur adipiscing elit\n' >"$T/prose"
expect_error "unknown dialect" "$T/prose" "'$T/prose': line 1: not an ftrace trace"

mkdir "$T/dir"
echo hello >"$T/dir/notes.txt"
expect_error "directory without traces" "$T/dir" "'$T/dir': directory holds no trace"

printf '\027\010Dtracing6\0\0\0' >"$T/trace.dat"
expect_error "trace.dat with only its magic" "$T/trace.dat" "'$T/trace.dat': not a valid trace.dat"

# A truncated last line inside a valid trace is a diagnostic, --strict an error.
printf '# tracer: nop\n   bash-1 [000] .... 1.000001: cpu_idle: state=1\n   bash-1 [000] .... 1.00' >"$T/trunc"
cp "$T/trunc" "$T/trunc.orig"
"$FTLENS" info "$T/trunc" >"$T/out" 2>"$T/err"
check "truncated last line: exit 0 without --strict" '[ $? -eq 0 ]'
check "truncated last line: reported with its line" 'grep -q "truncated last line.*trunc:3" "$T/out"'
"$FTLENS" info --strict "$T/trunc" >"$T/out" 2>"$T/err"
check "truncated last line: --strict exits 1" '[ $? -eq 1 ]'
check "truncated last line: --strict names file and line" 'grep -q "'\''$T/trunc'\'': line 3: truncated last line" "$T/err"'
check "input unchanged" 'cmp -s "$T/trunc" "$T/trunc.orig"'

# A gzip stream cut short is an error, not a shorter trace.
printf '# tracer: nop\n' >"$T/z"
i=0
while [ $i -lt 2000 ]; do echo "   bash-1 [000] .... 1.$i: cpu_idle: state=$i"; i=$((i + 1)); done >>"$T/z"
gzip -c "$T/z" | head -c 4000 >"$T/z.gz"
"$FTLENS" info "$T/z.gz" >"$T/out" 2>"$T/err"
check "truncated gzip: exit 1" '[ $? -eq 1 ]'
check "truncated gzip: says so" 'grep -q "'\''$T/z.gz'\'': offset [0-9]*: gzip data is truncated" "$T/err"'

# Marker text is whatever a process wrote: JSON output stays valid UTF-8.
printf '# tracer: nop\n  sh-1 [000] ..... 1.000000: tracing_mark_write: bad \377\376 text\n' >"$T/u.txt"
"$FTLENS" info --format json "$T/u.txt" >"$T/u.json" 2>/dev/null
check "invalid UTF-8 in a marker: info's JSON still parses" 'python3 -c '\''import json,sys; json.load(open(sys.argv[1], encoding="utf-8"))'\'' "$T/u.json"'
finish
