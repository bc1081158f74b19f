#!/bin/sh
# parse/tracecmd-guard.c: the guards around libtracecmd's crashes are built
# for the library versions that need them (up to 1.3.x), and LeakSanitizer's
# settings only into sanitizer builds, never into the production binary;
# the definitions of tep_parse_event and tep_parse_kallsyms that keep a
# file's formats and kallsyms for parsing on demand are exported, so that
# libtracecmd's calls reach them. Read from the binary's symbol tables.
. "$(dirname "$0")/lib.sh"
command -v nm >/dev/null 2>&1 || skip_all "nm (binutils) is not installed"
command -v pkg-config >/dev/null 2>&1 || skip_all "pkg-config is not installed"
version=$(pkg-config --modversion libtracecmd 2>/dev/null) || skip_all "no libtracecmd.pc"
make_tmpdir
nm "$FTLENS" >"$T/syms" 2>/dev/null || skip_all "nm cannot read $FTLENS"
grep -q ' ftl_tracedat_open$' "$T/syms" || skip_all "$FTLENS has no symbol table"
plan 4

number=$(echo "$version" | awk -F. '{ printf "%d", $1 * 10000 + $2 * 100 + $3 }')
if grep -qE ' guard_step_(open|init)$' "$T/syms"; then guarded=yes; else guarded=no; fi
if [ "$number" -le 10399 ]; then want=yes; else want=no; fi
check "libtracecmd $version: crash guards built in: $guarded (wanted: $want)" '[ "$guarded" = "$want" ]'

if grep -q ' __asan_init$' "$T/syms"; then san=yes; else san=no; fi
if grep -q ' __lsan_default_suppressions$' "$T/syms"; then lsan=yes; else lsan=no; fi
check "sanitizer build: $san; LeakSanitizer suppressions compiled in: $lsan" '[ "$lsan" = "$san" ]'
if grep -q ' __lsan_default_options$' "$T/syms"; then lsan=yes; else lsan=no; fi
check "sanitizer build: $san; LeakSanitizer options compiled in: $lsan" '[ "$lsan" = "$san" ]'
nm -D --defined-only "$FTLENS" >"$T/dyn" 2>/dev/null
check "tep_parse_event and tep_parse_kallsyms are defined and exported (formats, kallsyms on demand)" \
	'[ "$(grep -cE " T tep_parse_(event|kallsyms)$" "$T/dyn")" -eq 2 ]'
finish
