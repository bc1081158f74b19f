#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Throughput of `ftlens info` and `ftlens report` against `wc -l` on generated function_graph
# traces. Prints figures only: nothing here passes or fails on speed.
#
# usage: bench/run.sh [SIZE_MB...]      (default: 64)
# env:   FTLENS=path/to/ftlens          (default: ./ftlens of this tree)
#        RUNS=N                         (default: 3, the best one is shown)
set -eu

caller_dir=$(pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
ftlens=${FTLENS:-$root/ftlens}
case $ftlens in
/*) ;;
*) ftlens=$caller_dir/$ftlens ;;
esac
runs=${RUNS:-3}
out=$root/bench/out
[ $# -gt 0 ] || set -- 64

if [ ! -x "$ftlens" ]; then
	echo "run.sh: '$ftlens' is not executable (build with make, or set FTLENS)" >&2
	exit 2
fi
python=$(command -v python3 || true)
if [ -z "$python" ]; then
	echo "run.sh: python3 is needed to generate the inputs" >&2
	exit 2
fi
# GNU time reports peak RSS; the shell keyword `time` cannot.
gnutime=
if [ -x /usr/bin/time ] && /usr/bin/time -f %M true >/dev/null 2>&1; then
	gnutime=/usr/bin/time
else
	echo "note: /usr/bin/time (GNU time) missing, peak RSS not shown;" \
		"install it with e.g. 'apt-get install time'" >&2
fi
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

now_ns() { date +%s%N; }

# measure CMD...: runs it $runs times with output discarded; sets best_s
# (seconds, best run) and rss_kb (peak RSS of that run, or -).
measure() {
	best_ns=
	rss_kb=-
	i=0
	while [ $i -lt "$runs" ]; do
		t0=$(now_ns)
		if [ -n "$gnutime" ]; then
			"$gnutime" -f %M -o "$tmp/rss" "$@" >/dev/null
		else
			"$@" >/dev/null
		fi
		t1=$(now_ns)
		ns=$((t1 - t0))
		if [ -z "$best_ns" ] || [ "$ns" -lt "$best_ns" ]; then
			best_ns=$ns
			[ -z "$gnutime" ] || rss_kb=$(tail -n 1 "$tmp/rss")
		fi
		i=$((i + 1))
	done
	best_s=$(awk -v ns="$best_ns" 'BEGIN { printf "%.3f", ns / 1e9 }')
}

row() { # label tool bytes
	mibs=$(awk -v b="$3" -v s="$best_s" 'BEGIN { printf "%.1f", (s > 0) ? b / 1048576 / s : 0 }')
	printf '%-22s %-12s %9s %10s %12s\n' "$1" "$2" "$best_s" "$mibs" "$rss_kb"
}

printf '%-22s %-12s %9s %10s %12s\n' "input" "tool" "best s" "MiB/s" "peak RSS KiB"
for size in "$@"; do
	case $size in
	'' | *[!0-9]*)
		echo "run.sh: '$size': SIZE_MB must be a whole number" >&2
		exit 2
		;;
	esac
	file=$out/fgraph-${size}M.txt
	if [ ! -f "$file" ]; then
		echo "generating $file ..." >&2
		"$python" "$root/bench/gen-fgraph.py" "$size" "$file"
	fi
	bytes=$(wc -c <"$file")
	# Warm the page cache, and check once that ftlens reads the file cleanly.
	cat "$file" >/dev/null
	"$ftlens" info --json "$file" >"$tmp/info.json"
	label="fgraph-${size}M ($(awk -v b="$bytes" 'BEGIN { printf "%.0f", b / 1048576 }') MiB)"
	measure "$ftlens" info "$file"
	row "$label" "ftlens info" "$bytes"
	measure "$ftlens" report "$file"
	row "" "ftlens report" "$bytes"
	measure wc -l "$file"
	row "" "wc -l" "$bytes"
	"$python" - "$tmp/info.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
print("%-22s %d lines, %d events, %d unparsed" % ("", j["total_lines"], j["events"], j["unparsed_lines"]))
PY
done
echo "note: peak RSS includes the mapped input pages still resident; ftlens hands" \
	"read pages back every 32 MiB, so it should stay flat as the input grows."
