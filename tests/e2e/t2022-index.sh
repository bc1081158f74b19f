#!/bin/sh
# The sparse index (ftlens index, parse/index.c): a --time window read
# through the index gives the output of a full scan, byte for byte (stdout,
# stderr and status), on every public text sample, the bundled sample and
# generated traces, for windows at the start, middle and end, an empty one,
# a single instant and one spanning everything; and the cache behaves: kept
# in $XDG_CACHE_HOME/ftlens/ only, refused and rebuilt when the input's
# size, mtime or inode changes or the cache is corrupt or names offsets where
# no event starts, never used with --no-index, and never made for inputs it
# cannot seek (gzip, directories).
. "$(dirname "$0")/lib.sh"
make_tmpdir
XDG_CACHE_HOME=$T/cache
export XDG_CACHE_HOME
cc=${CC:-cc}

# span FILE: "FIRST LAST" timestamps (seconds) of the events, or nothing
span() {
	"$FTLENS" dump --no-index "$1" 2>/dev/null |
		awk '$1 != "-" { if (n++ == 0) lo = $1; if ($1 < lo) lo = $1; if ($1 > hi) hi = $1 }
		     END { if (n) printf "%.9f %.9f\n", lo, hi }'
}

# windows FIRST LAST: the windows to compare, one per line
windows() {
	awk -v lo="$1" -v hi="$2" 'BEGIN {
		d = hi - lo
		printf "%.9f,%.9f\n", lo, lo + d / 5
		printf "%.9f,%.9f\n", lo + 0.4 * d, lo + 0.6 * d
		printf "%.9f,\n", lo + 0.8 * d
		printf "%.9f,%.9f\n", hi + 1, hi + 2
		printf "%.9f,%.9f\n", lo + d / 2, lo + d / 2
		printf ",\n"
	}'
}

# run OUT ARGS...: stdout, stderr and status of ftlens ARGS in OUT
run() {
	out=$1
	shift
	"$FTLENS" "$@" >"$out" 2>&1
	echo "rc=$?" >>"$out"
}

# same_windows NAME FILE [CMDS [QUICK]]: indexed and unindexed outputs agree
# for every window; CMDS (default "dump report") run for each window, graph,
# info --json and markers for the middle one. QUICK (the public samples: many
# and small, and every run costs a process start): a point every 2 events,
# the first five windows and report for the middle one only.
same_windows() {
	name=$1 f=$2 cmds=${3:-dump report} quick=${4:-} bad=
	stride=16 more="graph info_--json markers" n_win=6
	[ -z "$quick" ] || { stride=2 more=report n_win=5; }
	run "$T/idx.out" index --stride $stride "$f"
	sp=$(span "$f")
	if [ -z "$sp" ]; then
		check "$name: no timestamps; windows read the whole file" \
			'grep -q "^Windows:  read the whole file" "$T/idx.out" || grep -q "rc=1" "$T/idx.out"'
		return
	fi
	# shellcheck disable=SC2086
	for w in $(windows $sp | head -n $n_win); do
		for cmd in $cmds; do
			run "$T/ref" $cmd --no-index --time "$w" "$f"
			run "$T/got" $cmd --time "$w" "$f"
			cmp -s "$T/ref" "$T/got" || bad="$bad [$cmd --time $w]"
		done
	done
	# shellcheck disable=SC2086
	mid=$(windows $sp | sed -n 2p)
	for cmd in $more; do
		cmd=$(echo "$cmd" | tr _ ' ')
		# shellcheck disable=SC2086
		run "$T/ref" $cmd --no-index --time "$mid" "$f"
		# shellcheck disable=SC2086
		run "$T/got" $cmd --time "$mid" "$f"
		cmp -s "$T/ref" "$T/got" || bad="$bad [$cmd --time $mid]"
	done
	check "$name: indexed windows identical to full scans" \
		'[ -z "$bad" ] || { diag "differs:$bad"; false; }'
}

n_real=0
[ -d "$FTL_REAL_DATA" ] && n_real=$(ls "$FTL_REAL_DATA"/events/* "$FTL_REAL_DATA"/fgraph/* \
	"$FTL_REAL_DATA"/function/* 2>/dev/null | wc -l)
[ "$n_real" -gt 0 ] && plan $((n_real + 18)) || plan 19

same_windows "data/sample-fgraph.txt" "$top_srcdir/data/sample-fgraph.txt"
if [ "$n_real" -gt 0 ]; then
	for f in "$FTL_REAL_DATA"/events/* "$FTL_REAL_DATA"/fgraph/* "$FTL_REAL_DATA"/function/*; do
		same_windows "${f#"$FTL_REAL_DATA"/}" "$f" dump quick
	done
else
	skip "public samples: none at $FTL_REAL_DATA"
fi

# events on 4 CPUs slightly out of order across CPUs (as trace-cmd's merge
# and the kernel's per-CPU buffers allow), LOST lines with timestamps around
# them, stack traces, task switches whose pid later lines inherit, and an
# unparsed line: the restart state (per-CPU task, last timestamp, line and
# sequence numbers) and the end state (diagnostics, totals) must carry over
awk 'BEGIN {
	print "# tracer: nop"
	print "#"
	print "# entries-in-buffer/entries-written: 9000/9500   #P:4"
	t = 5000
	for (i = 0; i < 6000; i++) {
		cpu = i % 4; t += 0.000011 * (1 + i % 3)
		ts = t - (cpu == 3 ? 0.00004 : 0)
		printf "          task-%d  [%03d] d... %.6f: block_rq_issue: 8,0 W 0 () %d + 8 [task]\n", 100 + cpu, cpu, ts, i
		if (i % 7 == 0) {
			printf "          task-%d  [%03d] d... %.6f: <stack trace>\n", 100 + cpu, cpu, ts
			for (k = 0; k < 1 + i % 5; k++)
				printf " => frame_%d_%d\n", i % 97, k
		}
		if (i % 500 == 0)
			printf "          task-%d  [%03d] d... %.6f: sched_switch: prev_comm=task prev_pid=%d prev_prio=120 prev_state=S ==> next_comm=other%d next_pid=%d next_prio=120\n", 100 + cpu, cpu, ts, 100 + cpu, i, 200 + i
		if (i == 3333)
			print "this line is not ftrace"
		if (i == 4100)
			printf "          task-101  [001] d... %.6f: block_rq_issue: 8,0 W 0 () back + 8 [task]\n", t - 0.01
	}
}' >"$T/events.txt"
same_windows "generated events (4 CPUs, stacks, switches, one unparsed line)" "$T/events.txt" \
	"dump report sched"

if "$cc" -O2 -o "$T/gen" "$top_srcdir/bench/gen-sched.c" -lm 2>"$T/cc.err"; then
	"$T/gen" -s 3 -c 4 2M "$T/sched.txt"
	same_windows "generated sched trace (gen-sched, 2 MiB)" "$T/sched.txt" "dump report sched"
else
	skip "generated sched trace: no C compiler ($cc): $(head -c 200 "$T/cc.err")"
fi

# ---- the cache ------------------------------------------------------------
mkdir "$T/in" && cp "$T/events.txt" "$T/in/events.txt"
f=$T/in/events.txt
idx() { ls "$XDG_CACHE_HOME"/ftlens/*.idx 2>/dev/null; }
rm -rf "$XDG_CACHE_HOME"
ls "$T/in" >"$T/before"
"$FTLENS" index --stride 64 "$f" >"$T/out1" 2>&1
check "index writes one file in \$XDG_CACHE_HOME/ftlens/, nothing beside the input" \
	'[ "$(idx | wc -l)" -eq 1 ] && grep -q "(built," "$T/out1" && ls "$T/in" | cmp -s - "$T/before"'
"$FTLENS" index "$f" >"$T/out2" 2>&1
check "a second index run finds it fresh" 'grep -q "(fresh," "$T/out2"'

w=5000.02,5000.03
run "$T/ref" dump --no-index --time $w "$f"
"$FTLENS" dump --verbose --time $w "$f" 2>&1 >/dev/null | grep index >"$T/v"
check "a window seeks with the index" 'grep -q "index: reading bytes [1-9]" "$T/v"'
"$FTLENS" dump --no-index --verbose --time $w "$f" 2>&1 >/dev/null | grep index >"$T/v"
check "--no-index neither uses nor builds it" '! [ -s "$T/v" ]'

touch -d "2001-01-01 00:00:00" "$f"
"$FTLENS" dump --verbose --time $w "$f" 2>"$T/v" >/dev/null
check "a changed mtime makes it stale" 'grep -q "stale" "$T/v"'

"$FTLENS" index --stride 64 "$f" >/dev/null 2>&1
cp "$f" "$T/in/copy" && mv "$T/in/copy" "$f"
touch -d "2001-01-01 00:00:00" "$f"
"$FTLENS" dump --verbose --time $w "$f" 2>"$T/v" >/dev/null
check "a new inode (same size and mtime) makes it stale" 'grep -q "stale" "$T/v"'

"$FTLENS" index --stride 64 "$f" >/dev/null 2>&1
echo "          task-100  [000] d... 5999.000000: block_rq_issue: 8,0 W 0 () 1 + 8 [task]" >>"$f"
run "$T/ref" dump --no-index --time $w "$f"
"$FTLENS" dump --verbose --time $w "$f" 2>"$T/v" >/dev/null
run "$T/got" dump --time $w "$f"
check "a grown file makes it stale; the output is the full scan's" \
	'grep -q "stale" "$T/v" && cmp -s "$T/ref" "$T/got"'

# corrupt: a flipped byte in the payload, then a cut file
"$FTLENS" index --stride 64 "$f" >/dev/null 2>&1
run "$T/ref" dump --no-index --time $w "$f"
printf 'X' | dd of="$(idx)" bs=1 seek=200 conv=notrunc 2>/dev/null
"$FTLENS" dump --verbose --time $w "$f" 2>"$T/v" >/dev/null
run "$T/got" dump --time $w "$f"
check "a corrupt cache is refused; the output is the full scan's" \
	'grep -q "corrupt (checksum)" "$T/v" && cmp -s "$T/ref" "$T/got"'
"$FTLENS" index --stride 64 "$f" >"$T/out3" 2>&1
check "index rebuilds over a corrupt cache" 'grep -q "(built," "$T/out3"'
head -c 150 "$(idx)" >"$T/cut" && cat "$T/cut" >"$(idx)"
run "$T/got" dump --time $w "$f"
check "a cut cache is refused; the output is the full scan's" 'cmp -s "$T/ref" "$T/got"'

# hostile: checksums made right over offsets that lie
hostile() {
	python3 - "$(idx)" "$1" <<'EOF'
import struct, sys, zlib
path, how = sys.argv[1], sys.argv[2]
b = bytearray(open(path, 'rb').read())
H = 96  # header bytes; the payload starts with the point count
n = struct.unpack_from('<I', b, H)[0]
for i in range(1, n):
    at = H + 4 + 72 * i
    off = struct.unpack_from('<Q', b, at)[0]
    struct.pack_into('<Q', b, at, off + 3 if how == 'mid' else off + (1 << 40))
b[64:96] = bytes(32)
b[64:68] = struct.pack('<I', zlib.crc32(bytes(b)))
open(path, 'wb').write(bytes(b))
EOF
}
# hostile_case HOW MESSAGE DESCRIPTION: a fresh index made hostile by HOW
# is refused saying MESSAGE, and the output is the full scan's
hostile_case() {
	how=$1 msg=$2
	"$FTLENS" index --stride 64 "$f" >/dev/null 2>&1
	hostile "$how"
	"$FTLENS" dump --verbose --time $w "$f" 2>"$T/v" >/dev/null
	run "$T/got" dump --time $w "$f"
	check PYTHON "$3" 'grep -q "$msg" "$T/v" && cmp -s "$T/ref" "$T/got"'
}
hostile_case mid "where no such event starts" \
	"a cache naming offsets inside lines is refused; the output is the full scan's"
hostile_case far "corrupt (contents)" \
	"a cache naming offsets past the end is refused; the output is the full scan's"

# inputs without an index
gzip -c "$f" >"$T/events.txt.gz"
"$FTLENS" index --stride 64 "$f" >/dev/null 2>&1
run "$T/ref" dump --no-index --time $w "$f"
run "$T/gz" index "$T/events.txt.gz"
check "a gzip input has no index: one clear error" \
	'grep -q "only a single uncompressed text trace has an index" "$T/gz" && grep -q "rc=1" "$T/gz"'
run "$T/ref" dump --no-index --time $w "$T/events.txt.gz"
run "$T/got" dump --time $w "$T/events.txt.gz"
check "a window of a gzip input reads it all, as before" 'cmp -s "$T/ref" "$T/got"'
mkdir -p "$T/pc/per_cpu/cpu0" "$T/pc/per_cpu/cpu1"
grep "\[000\]" "$f" >"$T/pc/per_cpu/cpu0/trace"
grep "\[001\]" "$f" >"$T/pc/per_cpu/cpu1/trace"
run "$T/pcd" index "$T/pc"
check "a per_cpu directory has no index: one clear error" 'grep -q "rc=1" "$T/pcd"'
finish
