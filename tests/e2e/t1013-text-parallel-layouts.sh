#!/bin/sh
# Every command gives the same bytes (stdout, stderr, status, output file)
# at -j 1 as at -j 2, 3 and 4, with chunks of 1 to 4 KiB (FTLENS_CHUNK_BYTES)
# so that calls, task switches, irqs and comments straddle chunk boundaries
# and many chunks are in flight: what the threads parse and add up (report's
# function statistics are added on workers of their own at -j 2 and more,
# analysis/funcstats.c) is merged as one thread reading in order has it.
# Inputs: function_graph traces in the layouts the kernel's options make
# (tests/e2e/fgraph_layouts.py, as t1012), several files per run. Each
# parallel run is compared with -j 1 at the same chunk size: the chunk size
# itself is t2009's subject.
. "$(dirname "$0")/lib.sh"
need_python
make_tmpdir
# not timeline: it draws sched_switch events, which these traces lack
cmds="info dump report graph flame export sched markers"
plan 11

# run NAME CHUNK CMD FILE...: CMD's stdout, stderr, status and output file
# into $T/NAME, with chunks of CHUNK bytes.
run() {
	name=$1 chunk=$2 cmd=$3
	shift 3
	out=$T/$name
	rm -f "$out".file
	case $cmd in
	flame | timeline) set -- "$cmd" -o "$out".file "$@" ;;
	export) set -- export --to folded -o "$out".file "$@" ;;
	*) set -- "$cmd" "$@" ;;
	esac
	FTLENS_CHUNK_BYTES=$chunk "$FTLENS" "$@" >"$out" 2>&1
	echo "rc=$?" >>"$out"
	[ ! -f "$out".file ] || cat "$out".file >>"$out"
	# the output file's name is in some messages
	sed -i -e "s|$T/$name\\.|OUT.|g" "$out"
}

# par_same CMD FILE...: -j 1 and -j N agree at each chunk size; a
# difference is shown. The number of runs that succeeded is added to
# $T/ok.
par_same() {
	for setting in 1024_2_4 4093_3; do
		chunk=${setting%%_*} js=${setting#*_}
		run ref "$chunk" "$@" -j 1
		grep -q '^rc=0$' "$T/ref" && echo x >>"$T/ok"
		for j in $(echo "$js" | tr _ ' '); do
			run par "$chunk" "$@" -j "$j"
			cmp -s "$T/ref" "$T/par" && continue
			echo "# $1 $2...: -j 1 and -j $j (chunks of $chunk bytes) differ:"
			diff "$T/ref" "$T/par" | head -n 10 | sed 's/^/#   /'
			return 1
		done
	done
}

python3 "$top_srcdir/tests/e2e/fgraph_layouts.py" "$T/lay" 7 >"$T/nlay"
# every eighth layout that ftlens reads (some without CPU and duration
# columns are no format it knows), in groups of six files
ls "$T"/lay/*.txt | awk 'NR % 8 == 1' >"$T/some"
while read -r f; do
	"$FTLENS" info -j 1 "$f" >/dev/null 2>&1 && echo "$f" >>"$T/parsed"
done <"$T/some"
split -l 6 "$T/parsed" "$T/group."
check 'the layouts: 64 tried, at least 40 read, in groups' '
	test "$(wc -l <"$T/some")" = 64 && test "$(wc -l <"$T/parsed")" -ge 40 &&
	test "$(ls "$T"/group.* | wc -l)" -ge 7'

for cmd in $cmds; do
	check "$cmd: -j 1 and -j 2, 3, 4 with chunks of 1 and 4 KiB give the same bytes" '
		bad= n=0
		: >"$T/ok"
		for g in "$T"/group.*; do
			# shellcheck disable=SC2046
			par_same "$cmd" $(cat "$g") || bad=1
			n=$((n + 1))
		done
		echo "# $n groups, $(wc -l <"$T/ok") of $((2 * n)) reference runs exit 0"
		test -z "$bad" && test "$n" -ge 7 && test "$(wc -l <"$T/ok")" -ge "$n"'
done

# the first 24 layouts, those ftlens cannot read among them: the first
# unrecognized line named is the first input's at every chunk size and -j
# (it named L000, L001 or L00b by the chunk size alone)
check 'several inputs: the first anomaly named is the first input'"'"'s at every chunk size' '
	ls "$T"/lay/*.txt | head -n 24 >"$T/first24" &&
	for setting in 1024_1 4093_1 4093_4 65536_2; do
		# shellcheck disable=SC2046
		run "first.$setting" "${setting%%_*}" info --merge $(cat "$T/first24") -j "${setting#*_}" ||
			return 1
	done &&
	grep "lines not recognized" "$T/first.1024_1" | sed "s/^/# /" &&
	grep -q "lines not recognized .*first: [^ ]*/L000\.txt:" "$T/first.1024_1" &&
	for setting in 4093_1 4093_4 65536_2; do
		cmp "$T/first.1024_1" "$T/first.$setting" || return 1
	done'

# one trace big enough for report's workers to take many batches of calls
# (4,096 each): bench/gen-fgraph.c, 8 CPUs
if cc -O2 -o "$T/gen" "$top_srcdir/bench/gen-fgraph.c" -lm 2>"$T/cc.err"; then
	"$T/gen" -s 9 -c 8 6M "$T/big.txt"
	check 'report --per task of a 6 MiB trace: -j 1 and -j 2, 3, 4 give the same bytes' '
		: >"$T/ok"
		par_same report --per task "$T/big.txt" &&
		test "$(wc -l <"$T/ok")" = 2 &&
		test "$(grep -c "^Calls: " "$T/ref")" = 1'
else
	skip "report of a 6 MiB trace: no C compiler: $(head -c 200 "$T/cc.err")"
fi
finish
