#!/bin/sh
# configure requires only what the code links: every library configure.ac
# insists on (FTL_REQUIRE, or a PKG_CHECK_MODULES without an action for
# when it is missing) has its _LIBS on a link line of Makefile.am and
# exports symbols that the code of libftlens.a uses, so a build host needs
# no package that nothing uses. Optional ones (CUnit, with an action) are
# free. A library that util/lazylib.c loads at run time (libxml2,
# json-glib) is not linked into ftlens: every function lazylib.c defines
# for it must be one that library exports, and ftlens must not need it. Each required library stops configure with one line naming it and
# its Debian package; json-glib has a check of its own, tried here with a
# pkg-config that does not know it.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
make_tmpdir
plan 7

ac=$top_srcdir/configure.ac
am=$top_srcdir/Makefile.am
# "VAR MODULE" per required library
sed -n -e 's/^FTL_REQUIRE(\[\([A-Z0-9_]*\)\], \[\([^] ]*\)[] ].*/\1 \2/p' \
	-e 's/^PKG_CHECK_MODULES(\[\([A-Z0-9_]*\)\], \[\([^] ]*\)[^]]*\])$/\1 \2/p' "$ac" >"$T/required"
required=$(cut -d' ' -f1 "$T/required")
check "configure.ac requires some libraries ($(echo $required))" '[ -n "$required" ]'
unused=$(for m in $required; do grep -q "\$(${m}_LIBS)" "$am" || printf "%s " "$m"; done)
check "each is on a link line (${unused:-all are})" '[ -z "$unused" ]'

# The symbols libftlens.a takes from outside, against what each library
# exports (its first -l, the library the module is for).
lib=$top_builddir/libftlens.a
if [ -f "$lib" ] && command -v nm >/dev/null && command -v pkg-config >/dev/null; then
	nm -u "$lib" 2>/dev/null | awk '{ print $NF }' | sort -u >"$T/undef"
	while read -r var mod; do
		l=$(pkg-config --libs-only-l "$mod" | tr ' ' '\n' | sed -n 's/^-l//p' | head -n 1)
		so=$(${CC:-cc} -print-file-name="lib$l.so")
		# a linker script (libncursesw.so: "INPUT(libncursesw.so.6 -ltinfo)")
		real=$(sed -n 's/^INPUT(\([^ )]*\).*/\1/p' "$so" 2>/dev/null | head -n 1)
		[ -z "$real" ] || so=$(${CC:-cc} -print-file-name="$real")
		n=$(nm -D --defined-only "$so" 2>/dev/null | awk '{ sub(/@.*/, "", $NF); print $NF }' | sort -u | comm -12 - "$T/undef" | wc -l)
		echo "$var:$l:$n"
	done <"$T/required" >"$T/used"
	# the functions lazylib.c defines, as "soname name" (the views' objects
	# still name them, undefined: they count as uses above)
	lazy=$top_srcdir/src/util/lazylib.c
	sed -n 's/^static LazyLib \([a-z_]*\) = { "\([^"]*\)".*/\1 \2/p' "$lazy" >"$T/lazylibs"
	sed -n 's/^LAZY_\(FN\|VOID\)(\([a-z_]*\),\( [^,]*,\)\{0,1\} \([A-Za-z_]*\),.*/\2 \4/p' "$lazy" |
		while read -r var fn; do echo "$(awk -v v="$var" '$1 == v { print $2 }' "$T/lazylibs") $fn"; done >"$T/lazyfns"
	: >"$T/lazymissing"
	while read -r soname; do
		so=$(${CC:-cc} -print-file-name="$soname")
		nm -D --defined-only "$so" 2>/dev/null | awk '{ sub(/@.*/, "", $NF); print $NF }' | sort -u >"$T/exports"
		awk -v s="$soname" '$1 == s { print $2 }' "$T/lazyfns" | sort -u | comm -23 - "$T/exports" |
			sed "s|^|$soname:|" >>"$T/lazymissing"
	done <<-EOF
	$(cut -d' ' -f2 "$T/lazylibs")
	EOF
	check "lazylib.c resolves $(wc -l <"$T/lazyfns") functions, each exported by its library" '
		[ -s "$T/lazyfns" ] && [ ! -s "$T/lazymissing" ]'
	[ ! -s "$T/lazymissing" ] || diag "not exported: $(tr '\n' ' ' <"$T/lazymissing")"
	idle=$(grep ':0$' "$T/used" | cut -d: -f1,2 | tr '\n' ' ')
	check "the code uses each one ($(cut -d: -f2,3 "$T/used" | tr '\n' ' ')symbols)" '[ -s "$T/used" ] && [ -z "$idle" ]'
	[ -z "$idle" ] || diag "required but unused: $idle"
	needed=$(readelf -d "$top_builddir/ftlens" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
	linked=$(for so in $(cut -d' ' -f2 "$T/lazylibs"); do case " $needed" in *" $so "*) printf '%s ' "$so" ;; esac; done)
	check "ftlens needs none of them at start (${linked:-none of $(cut -d' ' -f2 "$T/lazylibs" | tr '\n' ' ')})" '
		[ -n "$needed" ] && [ -z "$linked" ]'
else
	skip "no libftlens.a in $top_builddir, nm or pkg-config"
	skip "no libftlens.a in $top_builddir, nm or pkg-config"
	skip "no libftlens.a in $top_builddir, nm or pkg-config"
fi

check "each required library has a message naming its Debian package" '
	[ "$(grep -c "^FTL_REQUIRE(.*, \[[a-z0-9.+-]*-dev\])$" "$ac")" -eq "$(wc -l <"$T/required")" ] &&
	grep -q "^FTL_REQUIRE(\[JSON\], \[json-glib-1.0 " "$ac"'

# configure, its helper scripts and the source it looks for, in a directory
# of their own (the source tree may be configured already).
mkdir -p "$T/cfg/src"
cp "$top_srcdir/configure" "$T/cfg/" && cp -R "$top_srcdir/build-aux" "$T/cfg/" &&
	cp "$top_srcdir/src/main.c" "$T/cfg/src/"
printf '%s\n' '#!/bin/sh' 'case "$*" in *json-glib*) exit 1 ;; esac' 'exec pkg-config "$@"' >"$T/pkg-config"
chmod +x "$T/pkg-config"
(cd "$T/cfg" && env -u MAKEFLAGS ./configure PKG_CONFIG="$T/pkg-config" >"$T/cfg.out" 2>"$T/cfg.err")
rc=$?
check "without json-glib configure stops with one clear line ($(grep error: "$T/cfg.err"))" '
	[ $rc -ne 0 ] && [ "$(grep -c "error:" "$T/cfg.err")" -eq 1 ] &&
	grep -q "^configure: error: json-glib.* not found: apt-get install libjson-glib-dev$" "$T/cfg.err"'
finish
