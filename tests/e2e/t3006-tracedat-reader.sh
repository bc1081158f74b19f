#!/bin/sh
# ftlens's own trace.dat page reader (parse/tracedat-stream.c) against
# libtracecmd's record reader it replaced: `dump` and `info --format json`
# byte for byte the same, on every public trace.dat sample and on copies
# trace-cmd converts to version 7 (zstd-compressed and uncompressed).
# FTLENS_TRACEDAT_READER=libtracecmd selects the old reader; a debug note
# says which reader read the pages, so the comparison cannot pass by both
# runs falling back to the same one.
. "$(dirname "$0")/lib.sh"
prereq TRACE_CMD
make_tmpdir

need_real_tracedats

files=""
for f in $samples; do
	b=$(basename "$f" .dat)
	files="$files $f"
	for c in zstd none; do
		if trace-cmd convert -i "$f" -o "$T/$b-v7$c.dat" --file-version 7 --compression $c \
			>/dev/null 2>&1; then
			files="$files $T/$b-v7$c.dat"
		fi
	done
done
n=0
for f in $files; do n=$((n + 1)); done
plan $((n * 3))

for f in $files; do
	b=$(basename "$f")
	reader=$(G_MESSAGES_DEBUG=all "$FTLENS" info "$f" 2>&1 | sed -n 's/.*pages read by //p')
	check "$b: the pages are read by ftlens ($reader)" '[ "$reader" = ftlens ]'
	"$FTLENS" dump "$f" >"$T/new" 2>&1
	FTLENS_TRACEDAT_READER=libtracecmd "$FTLENS" dump "$f" >"$T/old" 2>&1
	check "$b: dump equals libtracecmd's reader's ($(wc -l <"$T/old") lines)" 'cmp -s "$T/old" "$T/new"'
	cmp -s "$T/old" "$T/new" || diag "$(diff "$T/old" "$T/new" | head -6)"
	"$FTLENS" info --format json "$f" >"$T/new" 2>&1
	FTLENS_TRACEDAT_READER=libtracecmd "$FTLENS" info --format json "$f" >"$T/old" 2>&1
	check "$b: info --format json equals libtracecmd's reader's" 'cmp -s "$T/old" "$T/new"'
	cmp -s "$T/old" "$T/new" || diag "$(diff "$T/old" "$T/new" | head -6)"
done
finish
