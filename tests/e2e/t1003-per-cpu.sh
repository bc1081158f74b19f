#!/bin/sh
# Per-CPU files from the same kernel run as a merged trace (rig captures):
# the merged trace's event lines per CPU equal each per-CPU file's, whether
# the per-CPU files are read one by one, together, or from a per_cpu/ tree.
. "$(dirname "$0")/lib.sh"
prereq PYTHON
make_tmpdir
sets=""
for d in fgraph-basic fgraph-events; do
	[ -f "$FTL_TESTDATA/vm/$d/trace.txt" ] && sets="$sets $d"
done
[ -n "$sets" ] || skip_all "no rig captures with per-CPU files in $FTL_TESTDATA/vm"
n=0
for d in $sets; do n=$((n + 1)); done
plan $((n * 5))

cpus_of() { json_get "$1" "' '.join('%s:%d' % kv for kv in sorted(j['cpus'].items()))"; }

for d in $sets; do
	dir=$FTL_TESTDATA/vm/$d
	"$FTLENS" info --json "$dir/trace.txt" >"$T/merged.json" || { not_ok "$d: info trace.txt"; continue; }
	merged=$(cpus_of "$T/merged.json")
	# each per-CPU file alone holds exactly its CPU's lines of the merged file
	each=""
	for c in 0 1; do
		"$FTLENS" info --json "$dir/trace-cpu$c.txt" >"$T/c$c.json"
		each="$each $(cpus_of "$T/c$c.json")"
	done
	check "$d: per-CPU files one by one ($(echo $each)) == merged ($merged)" '[ "$(echo $each)" = "$merged" ]'
	"$FTLENS" info --json "$dir/trace-cpu0.txt" "$dir/trace-cpu1.txt" >"$T/both.json"
	check "$d: per-CPU files together == merged" '[ "$(cpus_of "$T/both.json")" = "$merged" ]'
	mkdir -p "$T/$d/per_cpu/cpu0" "$T/$d/per_cpu/cpu1"
	cp "$dir/trace-cpu0.txt" "$T/$d/per_cpu/cpu0/trace"
	cp "$dir/trace-cpu1.txt" "$T/$d/per_cpu/cpu1/trace"
	"$FTLENS" info --json "$T/$d" >"$T/tree.json"
	check "$d: a directory holding per_cpu/ == merged" '[ "$(cpus_of "$T/tree.json")" = "$merged" ]'
	# the same events, not just the same counts: compare sorted dumps
	"$FTLENS" dump "$dir/trace.txt" | sort >"$T/m.dump"
	"$FTLENS" dump "$T/$d" | sort >"$T/t.dump"
	check "$d: per_cpu tree dumps the same events as the merged file" 'cmp -s "$T/m.dump" "$T/t.dump"'
	# and the oracle: lines with " N) " per CPU, counted by awk
	oracle=$(awk '/^ *[0-9]+\) / { sub(/\).*/, ""); c[$1 + 0]++ } END { for (k in c) printf "%s:%d\n", k, c[k] }' "$dir/trace.txt" | sort | tr '\n' ' ')
	check "$d: merged per-CPU counts match awk ($(echo $oracle))" '[ "$(echo $oracle)" = "$merged" ]'
done
finish
