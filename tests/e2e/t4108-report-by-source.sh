#!/bin/sh
# `ftlens report --by file|dir` on the rig's function_graph and function
# captures (kernel 6.1.0-57-cloud-amd64): the functions summed by the file
# and directory defining them equal a table computed without ftlens's
# symbols (source_oracle.py: the plain report's CSV rows placed by
# binutils' addr2line -f -i at each function's System.map address, or
# eu-addr2line's answer where the two differ); every function is counted,
# the unknown ones in one "(unknown)" group; without debug info one error;
# a raw directory's uname and a trace.dat's UNAME option find the debug info.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
prereq PYTHON RIG_DEBUGINFO
fg=$FTL_TESTDATA/vm/fgraph-basic/trace.txt
fn=$FTL_TESTDATA/vm/function/default.txt
raw=$FTL_TESTDATA/vm/raw-fgraph/raw
[ -r "$fg" ] && [ -r "$fn" ] || skip_all "no $fg or $fn"
make_tmpdir
plan 12

# the sources section of a report's CSV, its first six columns, by name
sources() {
	sed -n '/^# sources$/,/^$/p' "$1" | sed '1d;/^$/d' | cut -d, -f1-6 |
		{ read -r h && echo "$h" && sort; }
}

"$FTLENS" report --format csv "$fg" >"$T/plain.csv"
for by in dir file; do
	"$FTLENS" report --by $by --format csv --vmlinux "$vml" "$fg" >"$T/$by.csv" 2>"$T/err"
	rc=$?
	python3 "$top_srcdir/tests/e2e/source_oracle.py" "$vml" "$map" "$T/plain.csv" $by \
		"$T/$by.oracle" >"$T/$by.placed"
	diag "$(cat "$T/$by.placed")"
	sources "$T/$by.csv" >"$T/$by.got"
	diff "$T/$by.oracle" "$T/$by.got" | sed 's/^/# /'
	groups=$(($(wc -l <"$T/$by.got") - 1))
	check "--by $by: $groups groups equal the oracle's (functions, calls, timed, self, total; exit $rc)" \
		'[ "$rc" -eq 0 ] && [ ! -s "$T/err" ] && [ "$groups" -gt 5 ] && cmp -s "$T/$by.oracle" "$T/$by.got"'
done
check "the oracle placed every function of the capture" \
	'grep -q "^placed \([0-9]*\) of \1 functions" "$T/dir.placed"'

# the sums equal the plain report's, whatever --threshold hides there
sum() { awk -F, -v c="$2" 'NR > 1 { s += $c } END { print s + 0 }' "$1"; }
plain_fn() { sed -n '/^# functions$/,/^$/p' "$1" | sed '1d;/^$/d'; }
plain_fn "$T/plain.csv" >"$T/plain.fn"
calls_col=$(head -n 1 "$T/plain.fn" | tr , '\n' | grep -n '^calls$' | cut -d: -f1)
self_col=$(head -n 1 "$T/plain.fn" | tr , '\n' | grep -n '^self_ns$' | cut -d: -f1)
"$FTLENS" report --by dir --threshold 1000 --format csv --vmlinux "$vml" "$fg" >"$T/thr.csv"
sources "$T/thr.csv" >"$T/thr.got"
check "totals: calls $(sum "$T/plain.fn" "$calls_col") and self $(sum "$T/plain.fn" "$self_col") ns, as the plain report's, --threshold or not" \
	'[ "$(sum "$T/dir.got" 3)" = "$(sum "$T/plain.fn" "$calls_col")" ] &&
	 [ "$(sum "$T/dir.got" 5)" = "$(sum "$T/plain.fn" "$self_col")" ] &&
	 cmp -s "$T/dir.got" "$T/thr.got"'

"$FTLENS" report --by dir --json --vmlinux "$vml" "$fg" >"$T/by.json"
if /usr/bin/python3 -c 'import jsonschema' 2>/dev/null; then
	FTL_SCHEMA_DIR=$top_srcdir/data/schema /usr/bin/python3 \
		"$top_srcdir/tests/e2e/json_schema.py" report "$T/by.json" >"$T/valid" 2>&1
	valid=$?
else
	valid=0
	diag "no python3-jsonschema: the --by JSON is not validated"
fi
check "JSON: validates (data/schema/report.json), sources_by and the same rows as CSV" \
	'[ "$valid" -eq 0 ] && [ "$(json_get "$T/by.json" "j[\"sources_by\"]")" = dir ] &&
	 [ "$(json_get "$T/by.json" "sum(r[\"self_ns\"] for r in j[\"sources\"])")" = "$(sum "$T/dir.got" 5)" ] &&
	 [ "$(json_get "$T/by.json" "len(j[\"sources\"])")" = "$(($(wc -l <"$T/dir.got") - 1))" ]'
"$FTLENS" report --by dir --vmlinux "$vml" "$fg" >"$T/by.txt"
check "text: a section of directories, fs/ and mm/ among them" \
	'grep -q "^Functions by source dir" "$T/by.txt" && grep -q "^fs/ " "$T/by.txt" && grep -q "^mm/ " "$T/by.txt"'

# a function tracer capture: calls only; one name no kernel has
sed 's/ vfs_open </ no_such_function_here </' "$fn" >"$T/fn.txt"
"$FTLENS" report --format csv "$T/fn.txt" >"$T/fn-plain.csv"
"$FTLENS" report --by file --format csv --vmlinux "$vml" "$T/fn.txt" >"$T/fn.csv"
python3 "$top_srcdir/tests/e2e/source_oracle.py" "$vml" "$map" "$T/fn-plain.csv" file "$T/fn.oracle" >/dev/null
sed -n '/^# sources$/,/^$/p' "$T/fn.csv" | sed '1d;/^$/d' | cut -d, -f1-4 | { read -r h && echo "$h" && sort; } >"$T/fn.got"
cut -d, -f1-4 "$T/fn.oracle" >"$T/fn.want"
diff "$T/fn.want" "$T/fn.got" | sed 's/^/# /'
n_open=$(grep -c ' no_such_function_here <' "$T/fn.txt")
check "function tracer: calls by file equal the oracle's, the unknown name in (unknown) with its $n_open calls" \
	'cmp -s "$T/fn.want" "$T/fn.got" && grep -q "^(unknown),1,$n_open,0$" "$T/fn.got" && ! grep -q self_ns "$T/fn.got"'

# without debug info: one error, nothing on stdout
"$FTLENS" report --by dir "$fg" >"$T/out" 2>"$T/err"
rc=$?
check "no release and no --vmlinux: one error (exit $rc), no table" \
	'[ "$rc" -eq 1 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q "no kernel release (--vmlinux" "$T/err"'
if [ -d "$raw" ]; then
	# a raw directory with its uname: the release it names finds the files
	cp -r "$raw" "$T/raw" && cp "$raw/../uname.txt" "$T/raw/uname"
	"$FTLENS" report --by dir --format csv "$T/raw" >"$T/raw.csv" 2>"$T/err"
	rc0=$?
	"$FTLENS" report --by dir --debuginfo "$T/none" "$T/raw" >"$T/out" 2>"$T/err"
	rc=$?
	check "a raw directory naming $rel: its debug info found (exit $rc0); under a root without it, the file and package named (exit $rc)" \
		'[ "$rc0" -eq 0 ] && grep -q "^fs/," "$T/raw.csv" &&
		 [ "$rc" -eq 1 ] && [ ! -s "$T/out" ] && grep -q "$T/none/boot/vmlinux-$rel (apt-get install linux-image-$rel-dbg" "$T/err"'
	# a trace.dat of the same pages whose UNAME option names the release
	# (packed by raw2dat.py, not by ftlens): its debug info found the same
	# way, the same table
	cpus=$(for c in "$raw"/per_cpu/cpu*; do printf '%s:%s ' "${c##*/cpu}" "$c/trace_pipe_raw"; done)
	# shellcheck disable=SC2086 # one word per CPU
	python3 "$top_srcdir/tests/e2e/raw2dat.py" --uname "$(head -n 1 "$raw/../uname.txt")" \
		"$raw/events" "$T/raw.dat" $cpus
	"$FTLENS" report --by dir --format csv "$T/raw.dat" >"$T/dat.csv" 2>"$T/err"
	rc_dat=$?
	"$FTLENS" info --json "$T/raw.dat" >"$T/dat.json"
	check "a trace.dat whose uname names $rel: its debug info found (exit $rc_dat), the raw directory's sources" \
		'[ "$rc_dat" -eq 0 ] && [ ! -s "$T/err" ] && [ "$(json_get "$T/dat.json" "j[\"kernel\"]")" = "$rel" ] &&
		 [ "$(sources "$T/dat.csv")" = "$(sources "$T/raw.csv")" ] && grep -q "^fs/," "$T/dat.csv"'
	# the build id a capture saved (/sys/kernel/notes) must be the vmlinux's
	id=$(readelf -n "$vml" | sed -n 's/.*Build ID: *//p')
	echo "$id" >"$T/raw/build_id"
	"$FTLENS" report --by dir --format csv "$T/raw" >"$T/id-ok.csv" 2>"$T/err"
	rc_ok=$?
	echo 0123456789abcdef0123456789abcdef01234567 >"$T/raw/build_id"
	"$FTLENS" report --by dir --format csv "$T/raw" >"$T/id-bad.csv" 2>"$T/id-bad.err"
	rc_bad=$?
	"$FTLENS" report --by dir --format csv --force-debuginfo "$T/raw" >"$T/id-force.csv" 2>/dev/null
	rc_force=$?
	check "build id: the vmlinux's own accepted (exit $rc_ok); another refused naming both (exit $rc_bad); --force-debuginfo uses it (exit $rc_force)" \
		'[ "$rc_ok" -eq 0 ] && cmp -s "$T/raw.csv" "$T/id-ok.csv" &&
		 [ "$rc_bad" -eq 1 ] && [ ! -s "$T/id-bad.csv" ] && [ "$(wc -l <"$T/id-bad.err")" -eq 1 ] &&
		 grep -q "build id 0123456789abcdef0123456789abcdef01234567 but .$vml. has build id $id (--force-debuginfo" "$T/id-bad.err" &&
		 [ "$rc_force" -eq 0 ] && cmp -s "$T/raw.csv" "$T/id-force.csv"'
else
	skip "no $raw"
	skip "no $raw"
	skip "no $raw"
fi
"$FTLENS" report --by dir --no-debuginfo "$fg" >"$T/out" 2>"$T/err"
rc1=$?
"$FTLENS" report --by subsystem --vmlinux "$vml" "$fg" >"$T/out2" 2>"$T/err2"
rc2=$?
check "usage errors: --no-debuginfo (exit $rc1), --by subsystem (exit $rc2)" \
	'[ "$rc1" -eq 2 ] && [ "$rc2" -eq 2 ] && grep -q "refuses" "$T/err" && grep -q "expected file or dir" "$T/err2"'
finish
