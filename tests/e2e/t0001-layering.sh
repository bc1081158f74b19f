#!/bin/sh
# The layers depend one way (ARCHITECTURE.md): util <- model <- parse;
# model <- analysis <- views <- cli <- main. Checked from #include lines.
. "$(dirname "$0")/lib.sh"
cd "$top_srcdir/src" || exit 1

# allowed[layer] = project directories its files may include
allowed() {
	case $1 in
	util) echo "util" ;;
	model) echo "util model" ;;
	parse) echo "util model parse" ;;
	analysis) echo "util model analysis" ;;
	views) echo "util model analysis views" ;;
	cli) echo "util model parse analysis views cli capture" ;;
	capture) echo "util capture" ;;
	marker) echo "marker" ;;
	esac
}

layers="util model parse analysis views cli capture marker"
plan 11
for layer in $layers; do
	[ -d "$layer" ] || { ok "$layer: absent # SKIP no such layer yet"; continue; }
	bad=""
	for inc in $(grep -ho '#include "[a-z]*/' $(find "$layer" -name '*.[ch]') | sed 's/#include "//; s|/||' | sort -u); do
		case " $(allowed "$layer") " in
		*" $inc "*) ;;
		*) bad="$bad $inc" ;;
		esac
	done
	if [ -z "$bad" ]; then ok "$layer includes only: $(allowed "$layer")"; else not_ok "$layer includes$bad"; fi
done
# Analyses never call libtraceevent; only the parse wrappers include it.
n=$(grep -l 'event-parse.h\|tracefs.h\|trace-cmd.h' $(find analysis views cli -name '*.[ch]' 2>/dev/null) 2>/dev/null | wc -l)
check "no libtraceevent/libtracefs/libtracecmd outside parse/ and capture/" '[ "$n" -eq 0 ]'
n=$(grep -l 'curses.h' $(find . -name '*.[ch]') 2>/dev/null | grep -v '^./views/tui/' | wc -l)
check "curses only under views/tui/" '[ "$n" -eq 0 ]'
# libftlens-marker is linked by applications: libc headers and its own only.
n=$(grep -h '#include' marker/*.[ch] ../include/ftlens/*.h | grep -v -E '#include (<ftlens/marker\.h>|"config\.h"|<[a-z/]+\.h>)' | wc -l)
m=$(grep -l -E '#include <(glib|json-glib|tracefs|event-parse|trace-cmd|zlib|zstd|curses)' marker/*.[ch] ../include/ftlens/*.h 2>/dev/null | wc -l)
check "marker: only libc headers and <ftlens/marker.h>" '[ $((n + m)) -eq 0 ]'
finish
