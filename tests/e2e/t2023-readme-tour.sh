#!/bin/sh
# The README's quick tour runs as written: every line of its first sh block
# is run by sh, unchanged, from a directory that looks like the top of the
# checkout (data/ is the bundled sample's directory), with `ftlens` on PATH
# being the ftlens under test (as `make install` would put it). Each exits
# 0 and says something that fits the command: the --time window hits
# events inside it, the markers and spans are there, JSON parses, split
# writes one file per CPU, the flame graph is an SVG. The README also
# calls ftlens one way only (installed, as `ftlens`), never `./ftlens`.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
prereq PYTHON
make_tmpdir
readme=$top_srcdir/README.md
awk '/^## Quick tour$/ { tour = 1; next } /^## / { tour = 0 }
	tour && /^```sh$/ { n++; inblock = 1; next } /^```$/ { inblock = 0; next }
	tour && inblock && n == 1' "$readme" | grep -v '^ *#' >"$T/tour"
ncmd=$(grep -c . "$T/tour")
mkdir "$T/bin" "$T/top"
ln -s "$FTLENS" "$T/bin/ftlens"
ln -s "$top_srcdir/data" "$T/top/data"
plan $((ncmd + 4))

check "the README's quick tour has commands ($ncmd)" '[ "$ncmd" -ge 10 ]'
check "every one of them runs ftlens on the bundled sample or what the tour made" '
	! grep -v "^ftlens " "$T/tour" &&
	! grep -v -e data/sample-fgraph.txt -e "out/cpu" -e "^ftlens help " "$T/tour"'
check "the README runs ftlens one way: installed, never ./ftlens" '! grep -n "\./ftlens" "$readme"'
check "its first command installs ftlens before calling it" '
	awk "/^\`\`\`sh\$/ { n++; next } n == 1 { print; exit }" "$readme" |
	grep -q "make install && ldconfig && ftlens info data/sample-fgraph.txt"'

# sensible CMD OUT: what the command printed makes sense for that command
# (commands with -o print nothing and are judged by the file they wrote).
sensible() {
	case $1 in
	*" -o "*) [ ! -s "$2" ] || return 1 ;;
	*) [ -s "$2" ] || return 1 ;;
	esac
	case $1 in
	*"info --format json"*)
		json_get "$2" 'j["markers"] == 6 and j["events"] > 0 and len(j["cpus"]) == 2' | grep -q True ;;
	*"ftlens info "*)
		grep -q "^Markers:  6$" "$2" && grep -q "^Span: .*9\.[0-9]* \.\. 9\.[0-9]*" "$2" ;;
	*"--relative-to"*)
		# times from the marker: the window starts at the marker itself
		awk '$1 != "-"' "$2" | head -n 1 | grep -q "^ *0\.000000000 .* marker .*text=before cat$" &&
			! awk '$1 != "-" && ($1 < 0 || $1 > 0.002) { bad = 1 } END { exit !bad }' "$2" ;;
	*"--time "*)
		win=$(echo "$1" | sed 's/.*--time \([0-9.]*\),\([0-9.]*\) .*/\1 \2/')
		set -- "$2" $win
		# timed events in the window, on CPU 1, and none outside it
		awk -v a="$2" -v b="$3" '$1 != "-" { n++; if ($1 < a || $1 > b || $2 != 1) bad = 1 }
			END { exit !(n > 0 && !bad) }' "$1" ;;
	*"dump -n 20"*) [ "$(wc -l <"$2")" -eq 20 ] ;;
	*"report --format json"*)
		json_get "$2" 'len(j["markers"]) == 6' | grep -q True ;;
	*"ftlens report "*) grep -q "before sleep" "$2" && grep -q "do_sys_openat2" "$2" ;;
	*"ftlens graph "*) grep -q " do_sys_openat2$" "$2" && grep -q " path_openat$" "$2" ;;
	*"markers --span"*) grep -q "3 spans, 0 unmatched starts, 0 unmatched ends" "$2" ;;
	*"split --per-cpu"*) [ -s out/cpu0/trace ] && [ -s out/cpu1/trace ] ;;
	*"ftlens diff "*) grep -q "do_sys_openat2" "$2" ;;
	*"ftlens flame "*) head -c 300 flame.svg | grep -q "<svg" && grep -q "do_sys_openat2" flame.svg ;;
	*"ftlens help "*) grep -q -- "--limit" "$2" ;;
	*) false ;;
	esac
}

i=0
while IFS= read -r cmd; do
	i=$((i + 1))
	out=$T/out.$i
	(cd "$T/top" && PATH=$T/bin:$PATH sh -c "$cmd" >"$out" 2>"$out.err")
	rc=$?
	short=$(printf '%s\n' "$cmd" | sed 's/ *#.*//; s/data\/sample-fgraph.txt/SAMPLE/')
	check "as written: $short (exit $rc, $(wc -l <"$out") lines)" \
		'[ $rc -eq 0 ] && (cd "$T/top" && sensible "$cmd" "$out")'
	[ $rc -eq 0 ] || diag "$(head -n 5 "$out.err")"
done <"$T/tour"
finish
