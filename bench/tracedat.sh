#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# trace.dat decoding: `trace-cmd report` next to `ftlens info`, `ftlens
# report` and `ftlens dump`, all with their output thrown away: wall time,
# events/s, MB/s of the file, the speed-up over trace-cmd in wall and in CPU
# time, CPU time (user + sys, the threads and children included) and peak
# RSS (bench/measure.c); then each ftlens command's speed-up against the
# targets of issue 14 (info and report 10x, dump 3x). Prints figures only.
#
# usage: bench/tracedat.sh [FILE.dat...]
#   Without files: the capture of >= 2 M events bench/gen-tracedat.sh makes
#   (needs root), in version 6 and in version 7 with zstd, cached in
#   BENCH_DIR; without root and no cached capture, the public samples (a few
#   MB: start-up dominates there).
# env:   FTLENS, BENCH_DIR (default /tmp/ftlens-bench), RUNS (default 1),
#        TOOLS (default "info report dump"), MIN_EVENTS (default 2500000), CC
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dir=${BENCH_DIR:-/tmp/ftlens-bench}
runs=${RUNS:-1}
tools=${TOOLS:-info report dump}
real=${FTL_REAL_DATA:-$here/../../shared/data/real}
command -v trace-cmd >/dev/null || { echo "tracedat.sh: trace-cmd is not installed" >&2; exit 2; }
bench_dir=$dir bench_src=$here
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
bench_ftlens tracedat.sh "$(pwd)"
mkdir -p "$dir"
bench_build measure

if [ $# -eq 0 ]; then
	cap=$dir/capture
	if [ ! -f "$cap-v6.dat" ] || [ ! -f "$cap-v7zstd.dat" ]; then
		if [ "$(id -u)" = 0 ]; then
			echo "(capturing $cap-v6.dat and $cap-v7zstd.dat)" >&2
			"$here/gen-tracedat.sh" "$cap" "${MIN_EVENTS:-2500000}" >&2
		fi
	fi
	if [ -f "$cap-v6.dat" ] && [ -f "$cap-v7zstd.dat" ]; then
		set -- "$cap-v6.dat" "$cap-v7zstd.dat"
	else
		echo "(no root for a capture: the public samples instead)" >&2
		set -- "$real"/raw/*.dat
	fi
fi

failed=0
echo "ftlens: $ftlens ($("$ftlens" --version 2>/dev/null | head -n 1))"
echo "trace-cmd: $(trace-cmd --version 2>&1 | sed -n 's/^trace-cmd version //p' | head -n 1)"
bench_host
echo "runs per command: $runs (fastest shown)"
echo
printf '%-22s %-17s %8s %8s %8s %7s %7s %8s %8s\n' file command "wall s" "Mev/s" "MB/s" "x t-c" \
	"x CPU" "CPU s" "RSS MiB"
targets=''

for f in "$@"; do
	bytes=$(wc -c <"$f")
	# events as trace-cmd prints them: one line with "[CPU] " each
	n=$(trace-cmd report "$f" 2>/dev/null | grep -c '\[[0-9]*\] ' || true)
	label="$(basename "$f")"
	tc= tcc=
	for tool in trace-cmd $tools; do
		case $tool in
		trace-cmd) bench_measure "$runs" trace-cmd report "$f" ;;
		*) bench_measure "$runs" "$ftlens" "$tool" "$f" ;;
		esac
		name=$([ "$tool" = trace-cmd ] && echo "trace-cmd report" || echo "ftlens $tool")
		if [ "$m_code" != 0 ]; then
			printf '%-22s %-17s  FAILED (exit %s)\n' "$label" "$name" "$m_code"
			failed=1
		else
			[ -n "$tc" ] || tc=$m_wall
			[ -n "$tcc" ] || tcc=$(awk -v u="$m_user" -v s="$m_sys" 'BEGIN { print u + s }')
			awk -v f="$label" -v t="$name" -v w="$m_wall" -v n="$n" -v b="$bytes" \
				-v tc="$tc" -v tcc="$tcc" -v u="$m_user" -v s="$m_sys" -v r="$m_rss" 'BEGIN {
				c = u + s
				printf "%-22s %-17s %8.3f %8.2f %8.1f %6.1fx %6.1fx %8.3f %8.1f\n", f, t, w,
					(w > 0 ? n / 1e6 / w : 0), (w > 0 ? b / 1e6 / w : 0),
					(w > 0 ? tc / w : 0), (c > 0 ? tcc / c : 0), c, r / 1024
			}'
			case $tool in
			info | report) want=10 ;;
			dump) want=3 ;;
			*) want= ;;
			esac
			[ -z "$want" ] || targets=$targets$(awk -v f="$(basename "$f")" -v t="$name" \
				-v w="$m_wall" -v tc="$tc" -v tcc="$tcc" -v u="$m_user" -v s="$m_sys" \
				-v want="$want" 'BEGIN {
				xw = w > 0 ? tc / w : 0; xc = u + s > 0 ? tcc / (u + s) : 0
				printf "%-22s %-17s %5.1fx wall, %5.1fx CPU (target %dx): %s\n", f, t, xw, xc,
					want, (xw >= want && xc >= want) ? "met" : \
					(xw >= want || xc >= want) ? "met in one measure" : "missed"
			}')'
'
		fi
		label=
	done
	echo "  ($n events, $bytes bytes, version $(dd if="$f" bs=1 skip=10 count=1 2>/dev/null))"
done
echo
echo "Targets (issue 14 item 5: info and report >= 10x trace-cmd report, dump >= 3x):"
printf '%s' "$targets"
echo
echo "Mev/s: millions of events (as trace-cmd report counts them) per wall second;"
echo "x t-c: trace-cmd report's wall time over the command's; x CPU: the same in"
echo "CPU time (user + sys), the fairer measure on a loaded machine."
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg) (at the start: in the host line)"
exit $failed
