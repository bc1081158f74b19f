#!/bin/sh
# One escaper (src/util/escape.c) makes trace text visible. A second copy of
# its job, a loop that turns control bytes into something else, is a bug:
# its policy drifts (C1 controls, invalid UTF-8, bidi overrides). The places
# below look at control bytes for another reason and say which.
. "$(dirname "$0")/lib.sh"
plan 2
allowed='
src/util/escape.c	the escaper itself
src/views/table.c	JSON output: strings made valid UTF-8 (JSON is not a text view)
src/parse/open.c	sniffing: is this file text at all
src/parse/console.c	console lines are C strings: bytes that are no text become ? (input normalization); binary sniffing
src/parse/stacktrace.c	sniffing: binary data is an error with its byte value
src/analysis/oops-title.c	crash titles are dedup keys of printable ASCII (syzkaller convention), not display
src/capture/capture-script.c	validation: values the board shell must take whole are refused, never shown
src/views/tui/view.c	saved views: names %XX-quoted into a key file and a file read back checked for printable ASCII (serialization, never shown)
'
pattern='\\\\x%02|[<>]=? *0x20\b|[!=]= *0x7f|>= *0x7f|g_utf8_make_valid|iscntrl|g_ascii_iscntrl'
found=$(cd "$top_srcdir" && grep -rnE "$pattern" src --include='*.c' --include='*.h' | cut -d: -f1 | sort -u)
bad=""
for f in $found; do
	printf '%s' "$allowed" | cut -f1 | grep -qx "$f" || bad="$bad $f"
done
if [ -z "$bad" ]; then ok "no copy of the escaper outside the allowed places"; else not_ok "copies of the escaper in:$bad (use util/escape.h)"; fi
# The guard itself must see a copy: a planted one is found.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ftl-guard.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
printf 'if (c < 0x20 || c == 0x7f)\n\tprintf("\\\\x%%02x", c);\n' >"$tmp/copy.c"
if grep -qE "$pattern" "$tmp/copy.c"; then ok "the guard finds a planted copy"; else not_ok "the guard misses a planted copy"; fi
finish
