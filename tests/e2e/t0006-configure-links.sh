#!/bin/sh
# configure requires only what the code links: every library configure.ac
# insists on (PKG_CHECK_MODULES without an action for when it is missing)
# has its _LIBS on a link line of Makefile.am, so a build host needs no
# package that nothing uses. Optional ones (CUnit, with an action) are free.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
plan 2

ac=$top_srcdir/configure.ac
am=$top_srcdir/Makefile.am
required=$(sed -n 's/^PKG_CHECK_MODULES(\[\([A-Z0-9_]*\)\], \[[^]]*\])$/\1/p' "$ac")
check "configure.ac requires some libraries ($(echo $required))" '[ -n "$required" ]'
unused=$(for m in $required; do grep -q "\$(${m}_LIBS)" "$am" || printf "%s " "$m"; done)
check "each is linked by something (${unused:-all are})" '[ -z "$unused" ]'
finish
