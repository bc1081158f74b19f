#!/bin/sh
# The layers depend one way (doc/HACKING.md holds the table this reads):
# util <- model <- parse; model <- analysis <- views <- cli <- main.
. "$(dirname "$0")/lib.sh"
cd "$top_srcdir/src" || exit 1

# The rule is doc/HACKING.md's layer table: allowed[layer] = the layers its
# files may include, read from there.
table=$(sed -n '/<!-- layers:/,/<!-- \/layers -->/p' "$top_srcdir/doc/HACKING.md" |
	awk -F'|' 'NF > 3 && $2 !~ /layer|---/ { gsub(/^ +| +$/, "", $2); gsub(/^ +| +$/, "", $3); print $2 ":" $3 }')
allowed() {
	printf '%s\n' "$table" | sed -n "s/^$1://p"
}
layers=$(printf '%s\n' "$table" | cut -d: -f1 | tr '\n' ' ')

plan 14
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
# every layer on disk is in the table (a new one is documented first)
undocumented=""
for d in */; do
	d=${d%/}
	case " $layers " in *" $d "*) ;; *) undocumented="$undocumented $d" ;; esac
done
check "every directory under src/ is a layer of doc/HACKING.md ($layers)" '[ -z "$undocumented" ] && [ -n "$table" ]'
# Analyses never call libtraceevent; only the parse wrappers include it.
n=$(grep -l 'event-parse.h\|tracefs.h\|trace-cmd.h' $(find analysis views cli -name '*.[ch]' 2>/dev/null) 2>/dev/null | wc -l)
check "no libtraceevent/libtracefs/libtracecmd outside parse/ and capture/" '[ "$n" -eq 0 ]'
n=$(grep -l 'elfutils/\|<gelf.h>\|<libelf.h>\|<dwarf.h>' $(find . -name '*.[ch]') 2>/dev/null | grep -v '^./symbols/' | wc -l)
check "elfutils (libdw, libelf) only under symbols/" '[ "$n" -eq 0 ]'
n=$(grep -l 'curses.h' $(find . -name '*.[ch]') 2>/dev/null | grep -v '^./views/tui/' | wc -l)
check "curses only under views/tui/" '[ "$n" -eq 0 ]'
# libftlens-marker is linked by applications: libc headers and its own only.
n=$(grep -h '#include' marker/*.[ch] ../include/ftlens/*.h | grep -v -E '#include (<ftlens/marker\.h>|"config\.h"|<[a-z/]+\.h>)' | wc -l)
m=$(grep -l -E '#include <(glib|json-glib|tracefs|event-parse|trace-cmd|zlib|zstd|curses)' marker/*.[ch] ../include/ftlens/*.h 2>/dev/null | wc -l)
check "marker: only libc headers and <ftlens/marker.h>" '[ $((n + m)) -eq 0 ]'
finish
