#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The -j race hunt under ThreadSanitizer (issue 31 item 5). GLib's mutexes,
# conditions and thread pool queue are futexes and atomics in uninstrumented
# code: without help every access they order is a report. So:
# - bench/glib-pthread-shim.c, preloaded, puts ftlens's GMutex, GCond and
#   GRWLock on pthreads and tells TSan of the pool's push -> job order;
# - G_SLICE=always-malloc, so that memory GLib hands from thread to thread
#   goes through the malloc TSan watches;
# - called_from_lib:libglib-2.0.so.0 ignores what GLib's own code does
#   (its queue nodes), which TSan cannot judge in an uninstrumented library.
# With -g, GLib itself is instrumented (bench/glib-tsan.sh) and none of
# the three is used: TSan judges GLib's code and its locks like ftlens's.
# Runs each command at each -j over each input, with small chunks, and
# prints the reports found (0 expected).
#
# usage: bench/race-tsan.sh -b TSAN_BUILD [-g GLIB_BUILD] [-n ROUNDS] [-w WORK] [INPUT...]
#   -b DIR     a build configured with
#              CC=clang CFLAGS='-O1 -g -fsanitize=thread' LDFLAGS=-fsanitize=thread
#   -g DIR     bench/glib-tsan.sh's OUT: GLib and GObject instrumented
#   -n ROUNDS  passes (default 3)
#   -w WORK    work directory (default /tmp/ftlens-tsan)
#   INPUT      as bench/race-stress.sh (default: its generated inputs in
#              WORK, made by running it with -n 0, and the real ones)
# Exit status: 1 when any report was found.
set -u
build='' glib='' rounds=3 work=/tmp/ftlens-tsan
while getopts b:g:n:w: opt; do
	case $opt in
	b) build=$OPTARG ;;
	g) glib=$(cd "$OPTARG" && pwd) ;;
	n) rounds=$OPTARG ;;
	w) work=$OPTARG ;;
	*) sed -n 's/^# \{0,1\}//; /^usage/,/^Exit/p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
src=$(cd "$(dirname "$0")/.." && pwd)
[ -x "$build/ftlens" ] || { echo "race-tsan: no $build/ftlens (-b BUILD)" >&2; exit 2; }
mkdir -p "$work" || exit 1
work=$(cd "$work" && pwd)
if [ -n "$glib" ]; then
	# GLib's own code under TSan: nothing preloaded, nothing suppressed
	: >"$work/tsan.supp"
	preload='' libs=$glib/glib:$glib/gobject
	LD_LIBRARY_PATH=$libs ldd "$build/ftlens" | grep -q "$glib/glib/libglib" ||
		{ echo "race-tsan: $glib holds no libglib-2.0.so.0" >&2; exit 2; }
else
	clang -O1 -g -fPIC -shared -fsanitize=thread -o "$work/shim.so" \
		"$src/bench/glib-pthread-shim.c" -lpthread -ldl || exit 2
	printf 'called_from_lib:libglib-2.0.so.0\n' >"$work/tsan.supp"
	preload=$work/shim.so libs=${LD_LIBRARY_PATH:-}
fi
if [ $# -eq 0 ]; then
	FTLENS=$build/ftlens sh "$src/bench/race-stress.sh" -n 0 -w "$work" >/dev/null 2>&1
	set -- "$work/gen.txt" "$work/percpu"
	real=/work/shared/data/real
	[ -d "$src/../shared/data/real" ] && real=$src/../shared/data/real
	for f in events/lisa_tracecmd_report_sched_448k.txt events/tracecompass_atrace_android_tgid_large.txt \
		fgraph/perftools_funcgraph_abstime_header_vfs_read.txt raw/lisa_rtapp_6cpu_trace.dat \
		raw/trappy_arm32_8cpu_trace.dat raw/trappy_arm64_6cpu_idle_trace.dat; do
		[ -f "$real/$f" ] && set -- "$@" "$real/$f"
	done
fi
runs=0 reports=0
r=0
while [ $r -lt "$rounds" ]; do
	for in in "$@"; do
		for cmd in dump info report; do
			for j in 2 3 4 8; do
				err=$work/err.$cmd.$j
				FTLENS_CHUNK_BYTES=4096 G_SLICE=always-malloc \
					TSAN_OPTIONS="halt_on_error=0 report_signal_unsafe=0 suppressions=$work/tsan.supp" \
					env LD_PRELOAD="$preload" LD_LIBRARY_PATH="$libs" \
					"$build/ftlens" "$cmd" --no-index -j "$j" "$in" \
					>/dev/null 2>"$err"
				n=$(grep -c 'WARNING: ThreadSanitizer' "$err")
				runs=$((runs + 1))
				if [ "$n" -gt 0 ]; then
					reports=$((reports + n))
					cp "$err" "$work/report-$cmd-j$j-$(basename "$in")-$r"
					echo "$(basename "$in") $cmd -j$j: $n reports"
				fi
			done
		done
	done
	r=$((r + 1))
done
echo "total: $runs runs under TSan, $reports reports"
[ "$reports" -eq 0 ]
