#!/bin/sh
# The benchmark generator (bench/gen-fgraph.c) against ftlens, on ~1 MiB
# traces: `ftlens info` parses every line and `ftlens report` finds exactly
# the per-function calls, total and self ns of the generator's truth file
# (bench/check-truth.sh), in the default layout and with funcgraph-proc,
# funcgraph-tail and two-digit CPU numbers; the same seed gives the same
# bytes; the traces keep the features the bench relies on.
. "$(dirname "$0")/lib.sh"
need_python
cc=${CC:-cc}
command -v "$cc" >/dev/null 2>&1 || skip_all "no C compiler ('$cc') to build bench/gen-fgraph.c"
make_tmpdir
bench=$top_srcdir/bench
plan 12

check "gen-fgraph.c builds" '"$cc" -O2 -o "$T/gen" "$bench/gen-fgraph.c" -lm'

"$T/gen" -s 11 -t "$T/a.truth" 1M "$T/a.txt"
"$T/gen" -s 11 -t "$T/b.truth" 1M "$T/b.txt"
"$T/gen" -s 12 -t "$T/c.truth" 1M "$T/c.txt"
check "the same seed gives the same trace and truth" \
	'cmp -s "$T/a.txt" "$T/b.txt" && cmp -s "$T/a.truth" "$T/b.truth"'
check "another seed gives another trace" '! cmp -s "$T/a.txt" "$T/c.txt"'
size=$(wc -c <"$T/a.txt")
check "the trace is about the size asked ($size bytes)" \
	'test "$size" -ge 1048576 -a "$size" -lt 1572864'

# features: every kind of line the generator promises, kernel-formatted
features_ok() {
	f=$1
	grep -q '^ [0-9]) [+!#*@$ ] [0-9.]* us *|  *[A-Za-z_][A-Za-z0-9_.]*();$' "$f" &&
		grep -q '^ [0-9])               |  *[A-Za-z_][A-Za-z0-9_.]*() {$' "$f" &&
		grep -q '^ [0-9])   ==========> |$' "$f" &&
		grep -q '^ [0-9])   <========== |$' "$f" &&
		grep -q '^ ------------------------------------------$' "$f" &&
		grep -q '^ [0-9]) .* => .*' "$f" &&
		grep -q '^ [0-9])               |  */\* .* \*/$' "$f" &&
		grep -q '^ [0-9]) [!#] ' "$f" &&
		grep -q '} /\* [A-Za-z_]' "$f"
}
check "leaves, entries, irq arrows, switches, markers, marks, named exits" 'features_ok "$T/a.txt"'
# bars FILE: where each line's '|' columns stand, counted from the CPU
# column's ')', as a sorted set: the kernel's layout is one fixed set
# (comments are left out: a marker's text may hold a '|')
bars() {
	awk '/\/\*/ { next } /^ *[0-9]+\) / {
		p = index($0, ")"); b1 = index($0, "|")
		if (!b1) next
		b2 = index(substr($0, b1 + 1), "|")
		print b1 - p, b2
	}' "$1" | sort -u | tr '\n' ' '
}
vm=$FTL_TESTDATA/vm
check "columns where the kernel puts them (tests/data/vm/fgraph-basic: $(bars "$vm/fgraph-basic/trace.txt"))" \
	'test "$(bars "$T/a.txt")" = "$(bars "$vm/fgraph-basic/trace.txt")"'
distinct=$(grep -vc -e '^#' -e '^function,' "$T/a.truth")
check "thousands of distinct functions ($distinct)" 'test "$distinct" -ge 1500'
rec=$(sed -n 's/^# recursive_calls //p' "$T/a.truth")
check "recursive calls ($rec), whose time total must count once" 'test "${rec:-0}" -ge 1'

out=$(FTLENS=$FTLENS "$bench/check-truth.sh" "$T/a.txt" "$T/a.truth" 2>&1)
check "ftlens matches the truth (default layout)" 'test $? -eq 0'
diag "$out"

"$T/gen" -s 5 -p -l -c 12 -t "$T/p.truth" 1M "$T/p.txt"
check "funcgraph-proc, funcgraph-tail, 12 CPUs: TASK/PID column and 2-digit CPUs" \
	'eval "grep -q '\''^ 1[01])  *[^ ].*-[0-9][0-9]*  *| '\'' '\''$T/p.txt'\''"'
check "TASK/PID columns where the kernel puts them (fgraph-options/proc: $(bars "$vm/fgraph-options/proc.txt"))" \
	'test "$(bars "$T/p.txt")" = "$(bars "$vm/fgraph-options/proc.txt")"'
out=$(FTLENS=$FTLENS "$bench/check-truth.sh" "$T/p.txt" "$T/p.truth" 2>&1)
check "ftlens matches the truth (proc, tail, 12 CPUs)" 'test $? -eq 0'
diag "$out"
finish
