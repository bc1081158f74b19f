#!/bin/sh
# trace.dat decoding speed: `ftlens report` and `ftlens dump` events/s next to
# `trace-cmd report` on the same file, best of $RUNS warm runs.
# usage: bench/tracedat.sh [FILE.dat...]  (default: the public samples, which
# are a few MB: start-up dominates there; a large capture is the real test:
# bench/gen-tracedat.sh /tmp/big.dat makes one from live tracefs)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
ftlens=${FTLENS:-$here/../ftlens}
runs=${RUNS:-3}
real=${FTL_REAL_DATA:-$here/../../shared/data/real}
[ $# -gt 0 ] || set -- "$real"/raw/*.dat
command -v trace-cmd >/dev/null || { echo "trace-cmd is not installed" >&2; exit 1; }

best() {
	b=""
	i=0
	while [ $i -lt "$runs" ]; do
		s=$(date +%s.%N)
		"$@" >/dev/null 2>&1
		e=$(date +%s.%N)
		t=$(echo "$e - $s" | bc)
		if [ -z "$b" ] || [ "$(echo "$t < $b" | bc)" = 1 ]; then b=$t; fi
		i=$((i + 1))
	done
	echo "$b"
}

printf '%-36s %9s %-16s %8s %12s %8s\n' file events tool seconds events/s "vs t-c"
for f in "$@"; do
	n=$(trace-cmd report -N "$f" 2>/dev/null | grep -c '^ *.*\[[0-9]*\] ')
	tc=$(best trace-cmd report -N "$f")
	for tool in "trace-cmd report" "ftlens report" "ftlens dump"; do
		case $tool in
		trace-cmd*) t=$tc ;;
		"ftlens report") t=$(best "$ftlens" report "$f") ;;
		"ftlens dump") t=$(best "$ftlens" dump "$f") ;;
		esac
		printf '%-36s %9d %-16s %8.3f %12.0f %7.2fx\n' "$(basename "$f")" "$n" "$tool" "$t" \
			"$(echo "$n / $t" | bc -l)" "$(echo "$tc / $t" | bc -l)"
	done
done
