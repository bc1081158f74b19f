#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# trace.dat decoding: `trace-cmd report` next to `ftlens info`, `ftlens
# report` and `ftlens dump`, all with their output thrown away: wall time,
# events/s, MB/s of the file, the speed-up over trace-cmd in wall and in CPU
# time, CPU time (user + sys, the threads and children included) and peak
# RSS (bench/measure.c); then each ftlens command's speed-up against the
# targets of issue 32 (report 25x, dump 8x). RUNS rounds, each running
# every command once, the ratios paired within a round (the host's speed
# drifts). Prints figures only.
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
echo "rounds: $runs, each running trace-cmd report then every command once (fastest shown;"
echo "the ratios are the median over rounds of trace-cmd's time in the round over the"
echo "command's, so that a host whose speed drifts compares commands run side by side)"
echo
printf '%-22s %-17s %8s %8s %8s %7s %7s %8s %8s\n' file command "wall s" "Mev/s" "MB/s" "x t-c" \
	"x CPU" "CPU s" "RSS MiB"
targets=''
rounds=$(mktemp)
trap 'rm -f "$rounds"' EXIT

for f in "$@"; do
	bytes=$(wc -c <"$f")
	# events as trace-cmd prints them: one line with "[CPU] " each
	n=$(trace-cmd report "$f" 2>/dev/null | grep -c '\[[0-9]*\] ' || true)
	: >"$rounds"
	r=0
	while [ $r -lt "$runs" ]; do
		for tool in trace-cmd $tools; do
			case $tool in
			trace-cmd) bench_measure 1 trace-cmd report "$f" ;;
			*) bench_measure 1 "$ftlens" "$tool" "$f" ;;
			esac
			if [ "$m_code" != 0 ]; then
				echo "$r $tool - - - - $m_code" >>"$rounds"
			else
				echo "$r $tool $m_wall $m_user $m_sys $m_rss 0" >>"$rounds"
			fi
		done
		r=$((r + 1))
	done
	label="$(basename "$f")"
	for tool in trace-cmd $tools; do
		name=$([ "$tool" = trace-cmd ] && echo "trace-cmd report" || echo "ftlens $tool")
		code=$(awk -v t="$tool" '$2 == t && $7 != 0 { print $7; exit }' "$rounds")
		if [ -n "$code" ]; then
			printf '%-22s %-17s  FAILED (exit %s)\n' "$label" "$name" "$code"
			failed=1
			label=
			continue
		fi
		case $tool in
		report) want=25 ;;
		dump) want=8 ;;
		*) want=0 ;;
		esac
		# fastest run; per round the ratios to trace-cmd, their median
		line=$(awk -v t="$tool" -v f="$label" -v name="$name" -v n="$n" -v b="$bytes" \
			-v want="$want" -v base="$(basename "$f")" '
			function median(a, k,   i, j, x) {
				for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++)
					if (a[j] < a[i]) { x = a[i]; a[i] = a[j]; a[j] = x }
				return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
			}
			$2 == "trace-cmd" { tw[$1] = $3; tc[$1] = $4 + $5 }
			$2 == t { w[$1] = $3; c[$1] = $4 + $5
				if (best == "" || $3 < best) { best = $3; bu = $4 + $5; rss = $6 } }
			END {
				k = 0
				for (r in w) if (w[r] > 0 && c[r] > 0) { k++; xw[k] = tw[r] / w[r]; xc[k] = tc[r] / c[r] }
				mw = k ? median(xw, k) : 0; mc = k ? median(xc, k) : 0
				printf "%-22s %-17s %8.3f %8.2f %8.1f %6.1fx %6.1fx %8.3f %8.1f\n", f, name, best,
					(best > 0 ? n / 1e6 / best : 0), (best > 0 ? b / 1e6 / best : 0),
					mw, mc, bu, rss / 1024
				if (want > 0)
					printf "T%-22s %-17s %5.1fx wall, %5.1fx CPU (target %dx): %s\n", base, name,
						mw, mc, want, (mw >= want && mc >= want) ? "met" : \
						(mw >= want || mc >= want) ? "met in one measure" : "missed"
			}' "$rounds")
		echo "$line" | grep -v '^T'
		t=$(echo "$line" | sed -n 's/^T//p')
		[ -z "$t" ] || targets="$targets$t
"

		label=
	done
	echo "  ($n events, $bytes bytes, version $(dd if="$f" bs=1 skip=10 count=1 2>/dev/null))"
done
echo
echo "Targets (issue 32 item 4: report >= 25x trace-cmd report, dump >= 8x):"
printf '%s' "$targets"
echo
echo "Mev/s: millions of events (as trace-cmd report counts them) per wall second;"
echo "x t-c: trace-cmd report's wall time over the command's; x CPU: the same in"
echo "CPU time (user + sys), the fairer measure on a loaded machine."
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg) (at the start: in the host line)"
exit $failed
