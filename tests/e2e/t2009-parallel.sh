#!/bin/sh
# Parallel text parsing gives the sequential result, byte for byte: every
# command's output with -j 1 (one thread, the default 256 KiB chunks) is the
# output with -j 4 and with chunks cut down to a few dozen bytes
# (FTLENS_CHUNK_BYTES), so that chunk boundaries fall inside every kind of
# multi-line record (stack traces, task-switch banners, nested calls). Inputs:
# the bundled sample, every public sample ($FTL_REAL_DATA) and generated
# traces (function_graph from bench/gen-fgraph.c, events with stack traces).
. "$(dirname "$0")/lib.sh"
make_tmpdir
cc=${CC:-cc}

# same_output NAME FILE [QUICK]: stdout, stderr and status agree between
# -j 1 and parallel settings: for dump, report, graph, info --json and
# --strict info; with QUICK, for dump (every event and the diagnostics)
# with tiny chunks only (the public samples are many and small, and every
# run costs a process start).
same_output() {
	name=$1 f=$2 bad= cmds="dump report graph info_--json info_--strict"
	settings="4_ 4_37 2_512 3_4093"
	[ -z "${3:-}" ] || { cmds=dump settings=3_61; }
	for cmd in $cmds; do
		cmd=$(echo "$cmd" | tr _ ' ')
		# shellcheck disable=SC2086
		"$FTLENS" $cmd -j 1 "$f" >"$T/ref" 2>&1
		echo "rc=$?" >>"$T/ref"
		for setting in $settings; do
			setting=$(echo "$setting" | tr _ ' ')
			j=${setting% *} chunk=${setting#* }
			# shellcheck disable=SC2086
			FTLENS_CHUNK_BYTES=$chunk "$FTLENS" $cmd -j "$j" "$f" >"$T/par" 2>&1
			echo "rc=$?" >>"$T/par"
			cmp -s "$T/ref" "$T/par" || bad="$bad [$cmd -j $j chunk ${chunk:-default}]"
		done
	done
	check "$name: -j 1 and parallel outputs identical" '[ -z "$bad" ] || { diag "differs:$bad"; false; }'
}

n_real=0
[ -d "$FTL_REAL_DATA" ] && n_real=$(ls "$FTL_REAL_DATA"/events/* "$FTL_REAL_DATA"/fgraph/* \
	"$FTL_REAL_DATA"/function/* 2>/dev/null | wc -l)
[ "$n_real" -gt 0 ] && plan $((n_real + 6)) || plan 7

same_output "data/sample-fgraph.txt" "$top_srcdir/data/sample-fgraph.txt"

if [ "$n_real" -gt 0 ]; then
	for f in "$FTL_REAL_DATA"/events/* "$FTL_REAL_DATA"/fgraph/* "$FTL_REAL_DATA"/function/*; do
		same_output "${f#"$FTL_REAL_DATA"/}" "$f" quick
	done
else
	skip "public samples: none at $FTL_REAL_DATA"
fi

# events, each followed by a kernel stack of 1..12 frames, 4 CPUs, task
# switches in between: stack frames must never start a chunk
awk 'BEGIN {
	srand(7); t = 1000
	for (i = 0; i < 4000; i++) {
		cpu = i % 4; t += 0.000013 * (1 + i % 5)
		printf "          task-%d  [%03d] d... %.6f: block_rq_issue: 8,0 W 0 () %d + 8 [task]\n", 100 + cpu, cpu, t, i
		printf "          task-%d  [%03d] d... %.6f: <stack trace>\n", 100 + cpu, cpu, t
		for (k = 0; k < 1 + i % 12; k++)
			printf " => frame_%d_%d\n", i % 97, k
		if (i % 50 == 0)
			printf "          task-%d  [%03d] d... %.6f: sched_switch: prev_comm=task prev_pid=%d prev_prio=120 prev_state=S ==> next_comm=other next_pid=%d next_prio=120\n", 100 + cpu, cpu, t, 100 + cpu, 200 + cpu
	}
}' >"$T/stacks.txt"
same_output "generated events with stack traces" "$T/stacks.txt"
printf '%s' "$(cat "$T/stacks.txt")" >"$T/stacks-nonl.txt"
same_output "the same without a final newline" "$T/stacks-nonl.txt"
gzip -c "$T/stacks.txt" >"$T/stacks.txt.gz"
same_output "the same, gzip-compressed" "$T/stacks.txt.gz"

if "$cc" -O2 -o "$T/gen" "$top_srcdir/bench/gen-fgraph.c" -lm 2>"$T/cc.err"; then
	"$T/gen" -s 5 -c 8 512K "$T/fg.txt"
	same_output "generated function_graph (8 CPUs)" "$T/fg.txt"
	"$T/gen" -s 6 -c 4 -p -l 256K "$T/fgp.txt"
	same_output "generated function_graph (funcgraph-proc, funcgraph-tail)" "$T/fgp.txt"
else
	skip "generated function_graph: no C compiler ($cc): $(head -c 200 "$T/cc.err")"
	skip "generated function_graph (funcgraph-proc, funcgraph-tail): no C compiler"
fi
finish
