#!/bin/sh
# The marker API's cost per call: into a private tracefs instance (root,
# tracefs), and the no-op path with no trace_marker to write to.
# usage: bench/marker.sh [CALLS (default 20000)]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$here/..
n=${1:-20000}
b=$(mktemp -d "${TMPDIR:-/tmp}/ftlens-marker-bench.XXXXXX")
TR=/sys/kernel/tracing
inst=""
cleanup() {
	[ -n "$inst" ] && [ -d "$TR/instances/$inst" ] && rmdir "$TR/instances/$inst"
	rm -rf "$b"
}
trap cleanup EXIT INT TERM
printf "#define _GNU_SOURCE 1\n" >"$b/config.h"
${CC:-cc} -O2 -I"$b" -I"$top/include" -o "$b/marker-bench" "$here/marker-bench.c" "$top/src/marker/marker.c"
FTLENS_TRACE_MARKER=/nonexistent/trace_marker "$b/marker-bench" "$n"
if [ "$(id -u)" = 0 ] && { [ -e "$TR/instances" ] || mount -t tracefs nodev "$TR" 2>/dev/null; }; then
	inst=ftlens-marker-bench-$$
	mkdir "$TR/instances/$inst"
	echo 1 >"$TR/instances/$inst/tracing_on"
	FTLENS_TRACE_MARKER=$TR/instances/$inst/trace_marker "$b/marker-bench" "$n"
else
	echo "(no root or tracefs: the trace_marker figure is skipped)"
fi
