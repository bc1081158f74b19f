#!/bin/sh
# The e2e scripts' own hygiene: every `check` gives its body as one string
# (`check [PREREQS] DESC 'BODY'`). lib.sh fails a point called the old way
# (`check DESC CMD ARGS...`, where `check DESC [ A ] && [ B ]` checked A
# alone); this finds such calls in branches a run may not take.
. "$(dirname "$0")/lib.sh"
plan 1
# A call's description is a double-quoted string (its $(...) parts dropped
# first, with every other parenthesised group); what follows it on the line
# must be a single-quoted body or a line continuation before one.
bad=$(awk '
	function report() { f = FILENAME; sub(/.*\//, "", f); printf "%s:%d ", f, FNR }
	cont { cont = 0; if ($0 !~ /^[ \t]*\047/) report(); next }
	{
		line = $0
		while (gsub(/\([^()]*\)/, "", line)) {}
		if (!match(line, /(^|;|\)|then|do|else)[ \t]*check[ \t]+([A-Z_,]+[ \t]+)?"([^"\\]|\\.)*"/)) next
		rest = substr(line, RSTART + RLENGTH)
		if (rest ~ /^[ \t]*\\$/) { cont = 1; next }
		if (rest !~ /^[ \t]+\047/) report()
	}' "$top_srcdir"/tests/e2e/t*.sh)
check "no check passes its body as several words${bad:+ (at $bad)}" '[ -z "$bad" ]'
finish
