#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Source lines (issue 33 item 6): wall time and peak RSS of symbolizing
#   1. every frame of a 50-report console log: the rig's two panics
#      (tests/data/vm/oops, oops-module) repeated 25 times each, through
#      `ftlens oops --json` with the rig kernel's debug info, against the
#      same run with --no-debuginfo (the difference is the symbolizing);
#   2. every distinct function of the rig's function_graph capture
#      (tests/data/vm/fgraph-basic), and, as the worst case a trace of any
#      size can reach, every text symbol of the kernel (System.map), each
#      symbolized at its entry with its definition looked up: through
#      `ftlens stack --vmlinux` on a table made of those functions;
#   5. every distinct function of the 1 GiB function_graph bench trace,
#      made by bench/gen-fgraph.c with -n: kernel text symbols for names
#      (its own names are made up, no vmlinux holds them).
# Needs linux-image-6.1.0-57-cloud-amd64-dbg. Prints figures only.
#
# Figures (2026-12-06, -O2 build without sanitizers in a separate build
# dir; 2 CPUs shared with 6 other engineers' builds, load 18-22, so wall
# time is about 3x CPU time: CPU (user+sys) is given too):
#                                                     wall     CPU    peak RSS
#   before (scope walk of the whole unit per address):
#   stack --vmlinux, all 45900 kernel text symbols   230 s      -     781 MiB
#   after (each unit's functions indexed once, symfile.c):
#   oops --json, 50 reports, 1350 of 1400 frames     1.9 s    0.6 s   170 MiB
#     (--no-debuginfo: 0.64 s, 0.23 s CPU, 36 MiB)
#   stack --vmlinux, 2000 random text symbols        5.9 s      -     327 MiB
#     (16.3 s before; the same JSON, byte for byte)
#   stack --vmlinux, all 45900 kernel text symbols  18.7 s    5.5 s   781 MiB
#   report --by file, the fgraph capture (111 funcs) 1.2 s    0.4 s   150 MiB
#   report, a function trace of all 45900 symbols   1.3 s    0.3 s    48 MiB
#   report --by file, the same trace                 7.8 s    2.5 s   451 MiB
#     (44552 placed, 1348 in (unknown): assembly and symbols no DWARF
#     function covers)
# Measured again 2026-12-06 15:45 (the same -O2 build, load 15-16 on the
# 2 CPUs, `uptime` beside each run): report --by file of the function trace
# of all 45900 symbols 8.2-10.0 s wall, 2.1-2.4 s CPU, 452-463 MiB; still
# over the 2 s asked. perf record of that run: libdw 38% of the samples,
# libc 25% (malloc, free, unlink_chunk and msort), the kernel 25% (page
# faults on the DWARF), glib 7%, ftlens 5%. elfutils 0.188's
# dwarf_decl_file gets the unit's file table from dwarf_getsrcfiles, which
# (libdw/dwarf_getsrcfiles.c at elfutils-0.188) calls dwarf_getsrclines:
# the whole line program decoded, a row malloc'd per line, sorted.
# After symbols/linefiles.c (2026-12-06 19:15, the same -O2 build
# without sanitizers, load 11.7-12.3 on the 2 CPUs, `uptime` beside):
# the file table is read from each line program's header alone.
#                                                     wall     CPU    peak RSS
#   report --by file, a function trace of all 45900  4.2-4.7 s 1.2-1.4 s 275 MiB
#     (before, 18:26 the same day, load 11.9: 7.0 s, 2.33 s, 452 MiB;
#     the CSV byte for byte the same; report without --by file 0.31 s CPU,
#     so symbolizing 45900 functions is about 1.0 s of CPU)
#   oops --json, 50 reports, 1350 of 1400 frames     1.6 s    0.54 s  169 MiB
#     (--no-debuginfo: 0.75 s, 0.26 s CPU, 36 MiB: symbolizing 0.28 s CPU)
#   stack --vmlinux, all 45900 kernel text symbols  15.8 s    5.0 s   792 MiB
#     (each address's line and inline chain: libdwfl's line index, untouched)
# The 2 s asked: wall on this machine is 3.3-3.6x CPU (12 runnable jobs on
# 2 CPUs). On two idle CPUs the wall of a run is its CPU time plus waits:
# the run is one thread doing the work (the input's reader thread is done
# at 0.3 s), and it waits on no disk (10-37 major faults a run, the vmlinux
# in the page cache), so about 1.3 s: within 2 s, estimated from CPU time,
# not measured idle. Where the rest goes (perf, after): the walk of each
# unit's top-level entries (dwarf_siblingof, dwarf_tag: 45% of the
# samples, page faults on .debug_info included), dwfl_module_addrdie 10%,
# the symbol table read 8%, the file tables 6%, the report's own table 12%.
# Threads over units (one Dwarf handle each: libdw 0.188 is not built
# thread safe) would cut the walk further; not done.
# Measured idle (2026-12-06 20:31, load 0.5, the fuzz campaign stopped; -O2
# build without sanitizers of main's tree after the session's merges; the
# debug info and the trace in the page cache), 3 runs each:
#                                                     wall     CPU    peak RSS
#   report --by file, a function trace of all 45900  1.00-1.06 s 1.05-1.11 s 275-276 MiB
#     (the CSV md5 e578088d..., the same as before linefiles.c)
#   oops --json, 50 reports                          0.50-0.51 s 0.49-0.50 s 170 MiB
#     (--no-debuginfo: 0.23-0.24 s, 36 MiB)
# Both within the 2 s asked. One run:
#   /usr/bin/time -f '%e %U %S %M' ftlens report --by file --format csv \
#     --vmlinux /usr/lib/debug/boot/vmlinux-6.1.0-57-cloud-amd64 \
#     $BENCH_DIR/symbols-all-funcs.txt >/dev/null
# The TUI's source line (4. below, bench/source-lookup.c, same load): the
# first lookup 0.43-0.83 s (symbol table, tree prefix, one unit: a thread
# does it when the screen comes up), every other one cold median
# 0.01-0.18 ms, p99 14-20 ms, max 20-25 ms.
# Where the time goes (the first perf): libdw decoding each unit's line table
# once (dwarf_decl_file needs the unit's file table, which libdw 0.188
# reads with the whole line program; the stack rows also build libdwfl's
# line index) and the page faults of reading 560 MiB of DWARF. Memory is
# bounded by the units read: libdw keeps each unit's decoded lines, and
# ftlens one 56-byte range per function of a unit read (about 5 MiB for
# the whole kernel) plus one answer per distinct address or function.
# The worst case, every function of the kernel, reads every unit: that is
# the bound (781 MiB with libdwfl's line index; for definitions alone 451
# MiB before linefiles.c, 275 MiB since: no unit's lines are decoded).
#
# Measured 2026-12-07 00:41-00:46 for issue 33's closing (-O2 -g build in
# a VPATH dir of the tree, no sanitizers; 2 CPUs shared with other
# helpers' builds and tests, load 4.9-7.1; debug info and inputs in the
# page cache; the 1 GiB trace and its function list are section 5 below):
#                                                     wall     CPU    peak RSS
#   oops --json, 50 reports, 1350 of 1400 frames     0.43 s   0.32 s  170 MiB
#     (--no-debuginfo: 0.29 s, 0.21 s CPU, 36 MiB: symbolizing 0.15 s)
#   1 GiB function_graph trace (gen-fgraph -s 1 -n: 4974 distinct
#   functions, 4962 of them kernel text symbols), report --by file:
#     the whole run                                  16.0 s  10.9 s   245 MiB
#     (report without --by: 14.7 s, 10.5 s CPU, 38 MiB; wall and CPU of
#     the two vary by 2-4 s run to run on the busy CPUs, more than the
#     symbolizing: the difference says nothing alone)
#     in ftl_source_table() (gdb, 3 runs; 2 more  0.35-0.54 s   -       -
#     by hand: 0.68-0.71 s at load 5.8-6.5)
#     a function trace of the same 4974 functions  0.40-0.79 s 0.35-0.38 s 219-225 MiB
#     (report without --by: 0.02-0.07 s, 11 MiB)
#   report --by file, a function trace of all 45900  2.47 s  0.89 s   274 MiB
#   stack --vmlinux, all 45900 kernel text symbols    6.1 s   4.0 s   792 MiB
# Both of issue 33's figures are within the 2 s asked on these busy CPUs.
#
# usage: bench/symbols.sh
#   (the figures above: FTLENS=/tmp/o2/ftlens bench/symbols.sh, with
#   /tmp/o2 a checkout configured without --enable-sanitizers, CFLAGS=-O2 -g)
# env:   FTLENS=path/to/ftlens (default ./ftlens of this tree)
#        BENCH_DIR=dir (default /tmp/ftlens-bench)
#        SIZE=1G the size of section 5's function_graph trace (K, M, G)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
dir=${BENCH_DIR:-/tmp/ftlens-bench}
bench_dir=$dir bench_src=$here
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
bench_ftlens symbols.sh "$(pwd)"
mkdir -p "$dir"
bench_build measure
rel=6.1.0-57-cloud-amd64
vml=/usr/lib/debug/boot/vmlinux-$rel
map=/usr/lib/debug/boot/System.map-$rel
[ -r "$vml" ] || { echo "symbols.sh: no $vml (apt-get install linux-image-$rel-dbg)" >&2; exit 77; }

bench_host
row() {
	if [ "$m_code" != 0 ]; then
		printf '%-58s failed (exit %s)\n' "$1" "$m_code"
	else
		printf '%-58s %8s s (cpu %s s) %8s MiB  %s\n' "$1" "$m_wall" \
			"$(awk -v u="$m_user" -v s="$m_sys" 'BEGIN { printf "%.2f", u + s }')" \
			"$((m_rss / 1024))" "$2"
	fi
}

# 1. fifty reports
log=$dir/symbols-50-reports.log
: >"$log"
for i in $(seq 25); do
	cat "$top/tests/data/vm/oops/console.log" "$top/tests/data/vm/oops-module/console.log" >>"$log"
done
"$ftlens" oops --json "$log" >"$dir/symbols-50.json"
frames=$(python3 -c "import json; j=json.load(open('$dir/symbols-50.json')); r=j['logs'][0]['reports']; print(len(r), sum(len(s['frames']) for x in r for s in x['stacks']), sum(1 for x in r for s in x['stacks'] for f in s['frames'] if f['symbolized']))")
set -- $frames
echo "50-report log: $1 reports, $2 frames, $3 symbolized"
bench_measure 3 "$ftlens" oops --json --no-debuginfo "$log"
row "oops --json --no-debuginfo (50 reports)" ""
base=$m_wall
bench_measure 3 "$ftlens" oops --json "$log"
row "oops --json with debug info (50 reports)" "symbolizing: $(awk -v a="$m_wall" -v b="$base" 'BEGIN { printf "%.2f s", a - b }')"

# 2. functions as a stack table: "N) depth size func+0x0/0x0"
table() {
	awk '{ f[NR] = $0 } END {
		printf "        Depth    Size   Location    (%d entries)\n        -----    ----   --------\n", NR
		for (i = 1; i <= NR; i++) printf "%4d) %8d %7d   %s+0x0/0x0\n", i - 1, NR - i + 1, 1, f[i] }'
}
"$ftlens" report --json "$top/tests/data/vm/fgraph-basic/trace.txt" |
	python3 -c "import json,sys; [print(f['function']) for f in json.load(sys.stdin)['functions']]" |
	sort -u | table >"$dir/symbols-fgraph.stack"
n=$(wc -l <"$dir/symbols-fgraph.stack")
bench_measure 3 "$ftlens" stack --json --vmlinux "$vml" "$dir/symbols-fgraph.stack"
row "stack --vmlinux: the fgraph capture's $n functions" ""
awk '$2 ~ /^[tT]$/ { print $3 }' "$map" | sort -u | table >"$dir/symbols-all.stack"
n=$(wc -l <"$dir/symbols-all.stack")
bench_measure 1 "$ftlens" stack --json --vmlinux "$vml" "$dir/symbols-all.stack"
row "stack --vmlinux: every kernel text symbol ($n)" ""
bench_measure 1 "$ftlens" stack --json "$dir/symbols-all.stack"
row "stack without debug info, same table" ""

# 3. report --by file: every function's definition only (no line lookup),
# on the fgraph capture and on a function trace naming every text symbol
bench_measure 3 "$ftlens" report --by file --format csv --vmlinux "$vml" \
	"$top/tests/data/vm/fgraph-basic/trace.txt"
row "report --by file: the fgraph capture" ""
awk 'BEGIN { print "# tracer: function"; print "#" }
	$2 ~ /^[tT]$/ && !seen[$3]++ { n++; printf "              sh-95      [001] .....     %d.%06d: %s <-do_syscall_64\n", 4 + int(n / 1000000), n % 1000000, $3 }' \
	"$map" >"$dir/symbols-all-funcs.txt"
bench_measure 1 "$ftlens" report --format csv "$dir/symbols-all-funcs.txt"
row "report: a function trace of every kernel text symbol" ""
echo "load: $(uptime)"
bench_measure 3 "$ftlens" report --by file --format csv --vmlinux "$vml" "$dir/symbols-all-funcs.txt"
row "report --by file: the same trace (fastest of 3)" ""
echo "load: $(uptime)"

# 4. the TUI's source line: the first lookup (symbol table, tree prefix, a
# unit: done by a thread when the screen comes up), then one lookup per
# function the cursor lands on, cold: the capture's functions in report
# order and 1000 random text symbols. bench/source-lookup.c, built against
# FTLENS's build tree.
if bench_build_linked source-lookup "$(dirname "$ftlens")" "$dir/source-lookup"; then
	"$ftlens" report --json "$top/tests/data/vm/fgraph-basic/trace.txt" |
		python3 -c "import json,sys; [print(f['function']) for f in json.load(sys.stdin)['functions']]" \
			>"$dir/symbols-fgraph.funcs"
	awk '$2 ~ /^[tT]$/ { print $3 }' "$map" | sort -u | shuf -n 1000 --random-source="$map" \
		>"$dir/symbols-random.funcs"
	printf 'TUI lookups, the fgraph capture: '
	"$dir/source-lookup" "$vml" <"$dir/symbols-fgraph.funcs"
	printf 'TUI lookups, 1000 random text symbols: '
	"$dir/source-lookup" "$vml" <"$dir/symbols-random.funcs"
else
	echo "TUI lookups: no build tree beside $ftlens"
fi

# 5. the 1 GiB function_graph bench trace (bench/gen-fgraph.c, seed 1, as
# bench/ingest.sh makes it) with kernel names: -n draws the ranked
# functions' names from the kernel's text symbols, so the trace's distinct
# functions (about 5000) are ones the vmlinux holds (gen-fgraph's own names
# are made up: 210 of the 4974 in ingest.sh's 1 GiB trace are kernel names).
# report --by file symbolizes each distinct function once, after the pass
# over the events: timed whole against report without --by (1 run each:
# the wall difference drowns in the load of a shared machine), then the
# symbolizing alone: the time in ftl_source_table() under gdb when present
# (a breakpoint at its entry and its return, nothing in between), and a
# function trace of the same distinct functions.
size=${SIZE:-1G}
genid=$(cksum <"$here/gen-fgraph.c" | cut -d' ' -f1)
bench_build gen-fgraph
awk '$2 ~ /^[tT]$/ { print $3 }' "$map" | sort -u >"$dir/symbols-ktext.names"
big=$dir/fgraph-$size-s1-ktext-g$genid.txt
if [ ! -f "$big" ]; then
	echo "(generating $big)" >&2
	"$dir/gen-fgraph" -s 1 -n "$dir/symbols-ktext.names" -t "${big%.txt}.truth" "$size" "$big"
fi
sed -n '/^[^#]/p' "${big%.txt}.truth" | sed 1d | cut -d, -f1 | sort -u >"$dir/symbols-big.funcs"
n=$(wc -l <"$dir/symbols-big.funcs")
n_k=$(comm -12 "$dir/symbols-big.funcs" "$dir/symbols-ktext.names" | wc -l)
echo "$size trace $big: $n distinct functions, $n_k of them kernel text symbols"
echo "load: $(uptime)"
bench_measure 1 "$ftlens" report --format csv "$big"
row "report: the $size trace" ""
bench_measure 1 "$ftlens" report --by file --format csv --vmlinux "$vml" "$big"
row "report --by file: the $size trace" ""
if command -v gdb >/dev/null 2>&1; then
	cat >"$dir/symbols-phase.gdb" <<'EOF'
set pagination off
set confirm off
break ftl_source_table
run
python import time; t0 = time.time()
finish
python print("symbolizing: %.3f s wall" % (time.time() - t0))
continue
EOF
	for i in 1 2 3; do
		cat "$big" >/dev/null
		printf '%s (gdb, load %s): ' "report --by file: the $size trace, in ftl_source_table()" \
			"$(cut -d' ' -f1 /proc/loadavg)"
		gdb -q -batch -x "$dir/symbols-phase.gdb" --args "$ftlens" report --by file --format csv \
			--vmlinux "$vml" "$big" 2>&1 | sed -n 's/^symbolizing: //p'
	done
else
	echo "no gdb: the symbolizing of the $size trace is not timed alone"
fi
awk 'BEGIN { print "# tracer: function"; print "#" }
	{ n++; printf "              sh-95      [001] .....     %d.%06d: %s <-do_syscall_64\n", 4 + int(n / 1000000), n % 1000000, $1 }' \
	"$dir/symbols-big.funcs" >"$dir/symbols-big-funcs.txt"
bench_measure 3 "$ftlens" report --format csv "$dir/symbols-big-funcs.txt"
row "report: a function trace of its $n functions" ""
bench_measure 3 "$ftlens" report --by file --format csv --vmlinux "$vml" "$dir/symbols-big-funcs.txt"
row "report --by file: the same trace (fastest of 3)" ""
echo "load: $(uptime)"
