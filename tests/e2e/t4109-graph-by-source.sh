#!/bin/sh
# `ftlens graph --by dir|file` on the rig's function_graph capture (kernel
# 6.1.0-57-cloud-amd64): the call graph regrouped by the directory or file
# defining each function equals the one source_graph_oracle.py makes from
# the plain graph's CSV and a placement of every function made without
# ftlens's symbols (source_oracle.py: binutils' addr2line at the function's
# System.map address); its self times summed by group equal report --by's;
# --per cpu keeps the CPU nodes; without debug info one error.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
prereq PYTHON RIG_DEBUGINFO
fg=$FTL_TESTDATA/vm/fgraph-basic/trace.txt
[ -r "$fg" ] || skip_all "no $fg"
make_tmpdir
plan 5

# a CSV's header, then its rows in byte order
sorted() { { read -r h && echo "$h" && LC_ALL=C sort; } <"$1"; }

"$FTLENS" report --format csv "$fg" >"$T/plain.csv"
"$FTLENS" graph --format csv "$fg" >"$T/graph.csv"
for by in dir file; do
	python3 "$top_srcdir/tests/e2e/source_oracle.py" "$vml" "$map" "$T/plain.csv" $by \
		"$T/$by.report-oracle" "$T/$by.places" >/dev/null
	python3 "$top_srcdir/tests/e2e/source_graph_oracle.py" "$T/$by.places" "$T/graph.csv" \
		>"$T/$by.oracle"
	"$FTLENS" graph --by $by --format csv --vmlinux "$vml" "$fg" >"$T/$by.csv" 2>"$T/err"
	rc=$?
	sorted "$T/$by.csv" >"$T/$by.got"
	diff "$T/$by.oracle" "$T/$by.got" | sed 's/^/# /'
	nodes=$(($(wc -l <"$T/$by.got") - 1))
	deep=$(awk -F, 'NR > 1 && $2 > d { d = $2 } END { print d + 0 }' "$T/$by.got")
	check "--by $by: $nodes nodes, $deep levels below the top, equal the oracle's (exit $rc)" \
		'[ "$rc" -eq 0 ] && [ ! -s "$T/err" ] && [ "$nodes" -gt 10 ] && [ "$deep" -ge 2 ] &&
		 cmp -s "$T/$by.oracle" "$T/$by.got"'
done

# self time summed by group, over the whole graph, is report --by dir's
"$FTLENS" report --by dir --format csv --vmlinux "$vml" "$fg" >"$T/rep.csv"
sed -n '/^# sources$/,/^$/p' "$T/rep.csv" | sed '1,2d;/^$/d' |
	awk -F, '{ print $1 "," $5 }' | LC_ALL=C sort >"$T/rep.self"
awk -F, 'NR > 1 { s[$3] += $6 } END { for (g in s) print g "," s[g] }' "$T/dir.csv" |
	LC_ALL=C sort >"$T/graph.self"
diff "$T/rep.self" "$T/graph.self" | sed 's/^/# /'
top_g=$(awk -F, 'NR > 1 && $2 == 0 { s += $5 } END { print s + 0 }' "$T/dir.csv")
top_p=$(awk -F, 'NR > 1 && $2 == 0 { s += $5 } END { print s + 0 }' "$T/graph.csv")
check "self by dir over the graph equals report --by dir's; top-level total $top_g ns as the plain graph's" \
	'[ -s "$T/rep.self" ] && cmp -s "$T/rep.self" "$T/graph.self" && [ "$top_g" = "$top_p" ]'

"$FTLENS" graph --by dir --vmlinux "$vml" "$fg" >"$T/by.txt"
"$FTLENS" graph --by dir --per cpu --format csv --vmlinux "$vml" "$fg" >"$T/cpu.csv"
check "text heads its column dir and shows fs/ and mm/; --per cpu keeps the CPU nodes on top" \
	'head -n 1 "$T/by.txt" | grep -q " dir$" && grep -q "^ .*  fs/$" "$T/by.txt" &&
	 grep -q "^ .*    mm/$" "$T/by.txt" &&
	 awk -F, "NR > 1 && \$2 == 0" "$T/cpu.csv" | grep -q "^CPU [0-9]*,0,CPU" &&
	 ! awk -F, "NR > 1 && \$2 == 0" "$T/cpu.csv" | grep -qv "^CPU "'

"$FTLENS" graph --by dir "$fg" >"$T/out" 2>"$T/err"
rc=$?
"$FTLENS" graph --by dir --no-debuginfo "$fg" >"$T/out2" 2>"$T/err2"
rc2=$?
check "no release and no --vmlinux: one error (exit $rc), no graph; --no-debuginfo refused (exit $rc2)" \
	'[ "$rc" -eq 1 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
	 grep -q "graph: functions by source need the kernel.s debug info" "$T/err" &&
	 [ "$rc2" -eq 2 ] && grep -q "refuses" "$T/err2"'
finish
