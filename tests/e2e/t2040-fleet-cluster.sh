#!/bin/sh
# ftlens fleet on Dask (data/ftlens-fleet.py): generated function_graph
# traces with known figures (bench/gen-fgraph.c -t), generated sched traces
# (bench/gen-sched.c) and the public crash logs of ../shared copied under
# several names and labels, on a cluster of two worker processes. Every
# merged figure equals a serial oracle's (tests/e2e/fleet_oracle.py: ftlens
# on each file, merged apart, every JSON validated against data/schema/),
# and the generator's truth; one worker (a local cluster) and two give the
# same bytes (sched); a worker killed in the middle of the run gives the
# same bytes; damaged and missing files are listed and the rest answered;
# `compare` finds a regression planted in half the traces and nothing
# between two samples of the same kernel (at 100 traces a group, hundreds of
# 99% intervals found a few "changes" there until the rank tests' false
# discovery rate was held over all functions); the progress bar goes to stderr
# and leaves the results alone. 200 + 100 function_graph traces, 24 sched
# traces, 10 public logs under 2 names (FTL_FLEET_N sets the traces per
# kernel, 100 by default).
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
[ -x $PY ] && $PY -c 'import dask, distributed, jsonschema, numpy, scipy' 2>/dev/null ||
	skip_all "/usr/bin/python3 lacks dask, distributed, jsonschema, numpy or scipy (Debian: python3-distributed python3-jsonschema python3-scipy)"
command -v dask-scheduler >/dev/null && command -v dask-worker >/dev/null ||
	skip_all "no dask-scheduler or dask-worker (Debian: python3-distributed)"
cc=${CC:-cc}
command -v "$cc" >/dev/null 2>&1 || skip_all "no C compiler ('$cc') for bench/gen-*.c"
make_tmpdir
cluster_pids=
# shellcheck disable=SC2064
trap 'for p in $cluster_pids; do kill "$p" 2>/dev/null; done; wait; rm -rf "$T"' EXIT
FTLENS_BIN=$FTLENS
FTL_SCHEMA_DIR=$top_srcdir/data/schema
export FTLENS_BIN FTL_SCHEMA_DIR
validate() { $PY "$top_srcdir/tests/e2e/json_schema.py" "$@"; }
oracle() { $PY "$top_srcdir/tests/e2e/fleet_oracle.py" "$@"; }
fleet() { "$FTLENS" fleet "$@" --progress never; }
plan 18

# ---- inputs ---------------------------------------------------------------
"$cc" -O2 -o "$T/gen-fgraph" "$top_srcdir/bench/gen-fgraph.c" -lm &&
	"$cc" -O2 -o "$T/gen-sched" "$top_srcdir/bench/gen-sched.c" -lm ||
	skip_all "bench/gen-fgraph.c or gen-sched.c does not build"
N=${FTL_FLEET_N:-100} # traces per kernel
mkdir "$T/tr" "$T/sc" "$T/logs"
echo "path,kernel,host,half" >"$T/report.csv"
i=1
while [ $i -le $N ]; do
	"$T/gen-fgraph" -s $i -c 2 -f 150 -t "$T/tr/old-$i.txt.truth" 16K "$T/tr/old-$i.txt"
	# the new kernel: _raw_spin_lock three times as slow
	"$T/gen-fgraph" -s $((1000 + i)) -c 2 -f 150 -x _raw_spin_lock:3 \
		-t "$T/tr/new-$i.txt.truth" 16K "$T/tr/new-$i.txt"
	echo "tr/old-$i.txt,6.1,host$((i % 7)),$((i % 2))" >>"$T/report.csv"
	echo "tr/new-$i.txt,6.2,host$((i % 7)),$((i % 2))" >>"$T/report.csv"
	i=$((i + 1))
done
cp "$T/report.csv" "$T/report-clean.csv"
# two samples of the old kernel for compare: the N above and N more
echo "path,sample" >"$T/same.csv"
i=1
while [ $i -le $N ]; do
	"$T/gen-fgraph" -s $((2000 + i)) -c 2 -f 150 16K "$T/tr/again-$i.txt"
	echo "tr/old-$i.txt,first" >>"$T/same.csv"
	echo "tr/again-$i.txt,second" >>"$T/same.csv"
	i=$((i + 1))
done
# damaged: bytes no trace format has; missing: a file the manifest names
$PY -c 'import random, sys; r = random.Random(7); sys.stdout.buffer.write(bytes(r.randrange(256) for _ in range(4096)))' >"$T/tr/damaged.txt"
echo "tr/damaged.txt,6.1,host9,0" >>"$T/report.csv"
echo "tr/missing.txt,6.2,host9,1" >>"$T/report.csv"
echo "path,host" >"$T/sched.csv"
for i in $(seq 1 24); do
	"$T/gen-sched" -s $i -c 2 -n 8 12288 "$T/sc/s$i.txt"
	echo "sc/s$i.txt,host$((i % 3))" >>"$T/sched.csv"
done
echo "path,host,kernel,time" >"$T/oops.csv"
nlogs=0
for f in "$FTL_REAL_DATA"/oops/syzbot_report_*.log; do
	[ -e "$f" ] || continue
	[ $nlogs -lt 10 ] || break
	nlogs=$((nlogs + 1))
	b=$(basename "$f" .log)
	mkdir -p "$T/logs/a" "$T/logs/b"
	cp "$f" "$T/logs/a/$b.console"
	cp "$f" "$T/logs/b/serial-$nlogs.txt"
	echo "logs/a/$b.console,hostA,6.1,2026-01-$(printf %02d $nlogs)" >>"$T/oops.csv"
	echo "logs/b/serial-$nlogs.txt,hostB-$((nlogs % 3)),6.2,2026-02-$(printf %02d $nlogs)" >>"$T/oops.csv"
done

# ---- a cluster of two worker processes ---------------------------------------
dask-scheduler --host 127.0.0.1 --port 0 --no-dashboard --scheduler-file "$T/cluster.json" \
	>"$T/scheduler.log" 2>&1 &
cluster_pids="$!"
dask-worker --scheduler-file "$T/cluster.json" --nworkers 2 --nthreads 1 --no-dashboard \
	--local-directory "$T" >"$T/workers.log" 2>&1 &
cluster_pids="$! $cluster_pids"
# waits for the file and the workers (no time limit of its own: the harness's)
$PY -c '
import json, os, sys, time
while not os.path.exists(sys.argv[1]):
    time.sleep(0.2)
from distributed import Client
c = Client(scheduler_file=sys.argv[1])
c.wait_for_workers(2)
print(json.load(open(sys.argv[1]))["address"])
c.close()' "$T/cluster.json" >"$T/address" 2>"$T/wait.err"
addr=$(cat "$T/address")
check "a scheduler and two worker processes ($addr)" 'test -n "$addr" ||
	{ diag "$(tail -5 "$T/wait.err" "$T/scheduler.log" "$T/workers.log")"; false; }
'

# ---- report ------------------------------------------------------------------
fleet report --scheduler "$addr" --manifest "$T/report.csv" --by kernel -F json \
	>"$T/r2.json" 2>"$T/r2.err"
rc=$?
check "fleet report: $((2 * N)) traces and 2 bad files on 2 workers, exit 0" '
	[ $rc -eq 0 ] && $PY -c "import json, sys; d = json.load(open(sys.argv[1])); sys.exit(d[\"files\"] != $((2 * N + 2)))" "$T/r2.json" ||
	{ diag "exit $rc: $(tail -3 "$T/r2.err")"; false; }
'
check "the damaged and the missing file are listed with their errors" '
	$PY -c "
import json, os, sys
e = {os.path.basename(x[\"file\"]): x[\"error\"] for x in json.load(open(sys.argv[1]))[\"errors\"]}
sys.exit(not (len(e) == 2 and \"damaged.txt\x27: line 1: \" in e[\"damaged.txt\"]
              and \"No such file\" in e[\"missing.txt\"]))" "$T/r2.json" ||
	{ diag "$(grep -A2 damaged "$T/r2.json")"; false; }
'
n=$(oracle report "$T/report.csv" "$T/r2.json" --by kernel --truth) || diag "$n"
check "every merged function figure equals the serial oracle's and the truth (${n% *} figures, ${n#* } JSON validated)" \
	'test "${n#* }" -ge $((2 * N)) 2>/dev/null'
check "p50/p95/p99 come from merged buckets: the new kernel's _raw_spin_lock p50 is 2x+ the old" '
	$PY -c "
import json, sys
d = {(r[\"group\"], r[\"function\"]): r for r in json.load(open(sys.argv[1]))[\"functions\"]}
a, b = d[(\"6.1\", \"_raw_spin_lock\")], d[(\"6.2\", \"_raw_spin_lock\")]
sys.exit(not (b[\"p50_ns\"] >= 2 * a[\"p50_ns\"] and min(a[\"traces\"], b[\"traces\"]) > $N / 2))" "$T/r2.json" ||
	{ diag "$(grep -A12 "\"_raw_spin_lock\"" "$T/r2.json" | grep -e group -e traces -e p50)"; false; }
'

fleet report --scheduler "$addr" -n 5 "$T/tr/new-1[0-2].txt" >"$T/r.txt" 2>&1
check "text: the top functions and where each is worst" '
	grep -q "^ftlens fleet report: 3 files, 0 failed" "$T/r.txt" &&
	grep -q "^  _raw_spin_lock: .*new-" "$T/r.txt" ||
	{ diag "$(head -5 "$T/r.txt")"; false; }
'
mkdir "$T/few"
cp "$T/tr/old-1.txt" "$T/tr/old-2.txt" "$T/few/"
fleet report --scheduler "$addr" -F csv "$T/tr/old-3.txt" "$T/few" "$T/tr/new-1[0-2].txt" >"$T/r.csv" 2>&1
check "CSV over a file, a directory and a glob (6 traces)" '
	head -1 "$T/r.csv" | grep -q "^group,function,traces,calls," &&
	grep -q "^all,_raw_spin_lock,6," "$T/r.csv" ||
	{ diag "$(head -3 "$T/r.csv")"; false; }
'

# ---- sched and oops ------------------------------------------------------------
fleet sched --scheduler "$addr" --manifest "$T/sched.csv" --by host -F json >"$T/s2.json" 2>"$T/s2.err"
n=$(oracle sched "$T/sched.csv" "$T/s2.json" --by host) || diag "$n"
check "fleet sched: 24 traces' wakeup latency and run time equal the oracle's (${n% *} figures)" \
	'test "${n#* }" -ge 24 2>/dev/null || { diag "$(tail -3 "$T/s2.err")"; false; }'
"$FTLENS" fleet sched --workers 1 --manifest "$T/sched.csv" \
	--by host -F json --progress never >"$T/s1.json" 2>/dev/null
check "sched: one worker and two, the same bytes" 'cmp -s "$T/s1.json" "$T/s2.json"'
# a worker dies while it runs ftlens on the 3rd trace: Dask reschedules
cat >"$T/killer.sh" <<EOF
#!/bin/sh
for a; do
	if [ "\$a" = "$T/sc/s3.txt" ] && mkdir "$T/killed" 2>/dev/null; then
		kill -9 \$PPID
		exit 1
	fi
done
exec "$FTLENS" "\$@"
EOF
chmod +x "$T/killer.sh"
FTLENS_BIN=$T/killer.sh fleet sched --scheduler "$addr" --manifest "$T/sched.csv" \
	--by host -F json >"$T/sk.json" 2>"$T/sk.err"
check "a worker killed in the middle of the run: the same bytes" '
	test -d "$T/killed" && cmp -s "$T/s2.json" "$T/sk.json" ||
	{ diag "$(tail -3 "$T/sk.err")"; false; }
'

if [ $nlogs -ge 2 ]; then
	fleet oops --scheduler "$addr" --manifest "$T/oops.csv" -F json >"$T/o2.json" 2>"$T/o2.err"
	n=$(oracle oops "$T/oops.csv" "$T/o2.json") || diag "$n"
	check "fleet oops: $((2 * nlogs)) logs (${nlogs} public logs under 2 names) equal the oracle's (${n% *} figures)" \
		'test "${n#* }" -ge $nlogs 2>/dev/null || { diag "$(tail -3 "$T/o2.err")"; false; }'
	check "the same crash under two names and hosts is one signature, seen twice" '
		$PY -c "
import json, sys
sigs = json.load(open(sys.argv[1]))[\"signatures\"]
ok = all(s[\"count\"] % 2 == 0 and sorted(s[\"labels\"][\"kernel\"]) == [\"6.1\", \"6.2\"] for s in sigs)
sys.exit(not (ok and len(sigs) >= $nlogs // 2))" "$T/o2.json"
	'
else
	skip "fleet oops: no public crash logs in $FTL_REAL_DATA/oops"
	skip "oops signatures: no public crash logs"
fi

# ---- compare -------------------------------------------------------------------
fleet compare --scheduler "$addr" --manifest "$T/report-clean.csv" --by kernel 6.1 6.2 \
	-F json >"$T/c.json" 2>"$T/c.err"
# its callers slow down too (their time holds it); nothing gets faster
check "compare 6.1 6.2: the planted regression ranks first, p50 and p99, all changes slower" '
	$PY -c "
import json, sys
ch = json.load(open(sys.argv[1]))[\"changes\"]
mine = {c[\"statistic\"]: c for c in ch if c[\"function\"] == \"_raw_spin_lock\"}
sys.exit(not (ch[0][\"function\"] == \"_raw_spin_lock\" and set(mine) == {\"p50\", \"p99\"}
              and all(c[\"ci_low\"] > 0.5 for c in mine.values())
              and all(c[\"ci_low\"] > 0 and c[\"p_value\"] < 0.01 for c in ch)))" "$T/c.json" ||
	{ diag "$(head -c 600 "$T/c.json"; tail -3 "$T/c.err")"; false; }
'
fleet compare --scheduler "$addr" --manifest "$T/same.csv" --by sample first second >"$T/same.txt" 2>&1
check "compare two samples of $N traces of the same kernel: no change reported" '
	grep -q "(no change beyond the spread between traces)" "$T/same.txt" ||
	{ diag "$(head -20 "$T/same.txt")"; false; }
'

# ---- the progress bar ------------------------------------------------------------
# distributed's text bar, drawn on stderr: the results on stdout are the
# same bytes with and without it; "auto" draws nothing when stderr is a file
"$FTLENS" fleet sched --scheduler "$addr" --manifest "$T/sched.csv" --by host -F json \
	--progress always >"$T/sp.json" 2>"$T/sp.err"
check "--progress always: a bar that reaches 100% on stderr, stdout unchanged" '
	grep -q "\[#*\] | 100% Completed" "$T/sp.err" && cmp -s "$T/s2.json" "$T/sp.json" ||
	{ diag "$(tr "\r" "\n" <"$T/sp.err" | tail -3)"; false; }
'
"$FTLENS" fleet sched --scheduler "$addr" --manifest "$T/sched.csv" --by host -F json \
	>"$T/sa.json" 2>"$T/sa.err"
check "--progress auto with stderr in a file: no bar" '
	! grep -q "Completed" "$T/sa.err" && cmp -s "$T/s2.json" "$T/sa.json" ||
	{ diag "$(tr "\r" "\n" <"$T/sa.err" | tail -3)"; false; }
'

# ---- schemas -------------------------------------------------------------------
"$FTLENS" markers --span "before (.*)" "after \\1" -F json "$top_srcdir/data/sample-fgraph.txt" >"$T/m.json" 2>/dev/null
"$FTLENS" report --sched -F json "$T/tr/old-1.txt" >"$T/rs.json" 2>/dev/null
check "markers and report --sched JSON validate against data/schema" '
	validate markers "$T/m.json" >/dev/null && validate report "$T/rs.json" >/dev/null
'
$PY -c 'import json, sys; d = json.load(open(sys.argv[1])); d["function_histograms"][0]["histogram"]["buckets"][0].pop(); json.dump(d, open(sys.argv[2], "w"))' \
	"$T/rs.json" "$T/broken.json" 2>/dev/null
check "a schema refuses a bucket without its count" '
	test -s "$T/broken.json" && ! validate report "$T/broken.json" >/dev/null 2>&1
'
finish
