#!/bin/sh
# `ftlens stack`: every stack tracer file of the public samples and of the rig
# reads, with the max depth and frame count an awk oracle takes from the file
# itself; JSON is valid; --diff of the ppc64 fix shows the changed frames; a
# series built here from the rig's table aggregates as a python oracle says;
# bad input fails with the file and line.
. "$(dirname "$0")/lib.sh"
prereq PYTHON
make_tmpdir
R=$FTL_REAL_DATA/stack
V=$FTL_TESTDATA/vm/stack
[ -f "$V/stack_trace" ] && [ -f "$V/stack_max_size" ] || skip_all "rig capture absent ($V)"
files="$V/stack_trace $V/stack_max_size"
r_absent=1
if [ -d "$R" ]; then
	for f in "$R"/*; do files="$files $f"; done
	r_absent=0
fi
n_files=$(echo $files | wc -w)
plan $((n_files * 2 + 36 + r_absent))
[ $r_absent = 0 ] || skip_absent "$R"

# oracle FILE: "frames top_depth entries max_size" read with awk; "-" for none
oracle() {
	awk '
	/^[ \t]*[0-9]+\)[ \t]/ { n++; if (n == 1) top = $2 }
	/Depth[ \t]+Size[ \t]+Location/ { if (match($0, /\(-?[0-9]+ entries\)/)) ent = substr($0, RSTART + 1, RLENGTH - 10) + 0 }
	/^[ \t]*[0-9]+[ \t]*$/ { max = $1 }
	END { printf "%s %s %s %s\n", n ? n : "-", n ? top : "-", ent != "" ? ent : "-", max != "" ? max : "-" }' "$1"
}

for f in $files; do
	b=$(basename "$f")
	"$FTLENS" stack --format json "$f" >"$T/$b.json" 2>"$T/$b.err"
	check "$b: exit 0" '[ $? -eq 0 ]'
	oracle_says=$(oracle "$f")
	check "$b: JSON valid, depth/frames/entries/max_size as the file says ($oracle_says)" 'python3 - "$T/$b.json" $oracle_says' <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
frames, top, entries, maxv = sys.argv[2:6]
d = j['deepest']
if frames == '-':
    assert d is None and j['max_stack'] == [], d
else:
    assert d['frames'] == int(frames) == len(j['max_stack']), (d, frames)
    assert d['depth'] == int(top), (d, top)
    assert d['entries'] == int(entries), (d, entries)
    assert sum(r['size'] for r in j['max_stack']) == int(top)
if maxv != '-':
    assert [m['value'] for m in j['max_sizes']] == [int(maxv)], j['max_sizes']
assert j['diagnostics'] == [], j['diagnostics']
PY
done

# The text view of everything at once: fits 100 columns (with paths as short
# as a user types them), no inconsistency.
"$FTLENS" stack $files >"$T/all.txt" 2>"$T/all.err"
check "all files at once: exit 0" '[ $? -eq 0 ]'
mkdir "$T/w" && cp $files "$T/w/" && (cd "$T/w" && "$FTLENS" stack *) >"$T/all.txt"
w=$(awk '{ if (length($0) > m) m = length($0) } END { print m }' "$T/all.txt")
check "text fits 100 columns ($w)" '[ "$w" -le 100 ]'
check "text: no inconsistencies" 'grep -q "^Table checks: no inconsistencies" "$T/all.txt"'
check "text: a 30-character bar for the largest frame" 'grep -q '\'' ##############################  '\'' "$T/all.txt"'

# The rig's directory: its stack_max_size pairs with its table.
"$FTLENS" stack --format json "$V" >"$T/dir.json"
check "rig directory: stack_max_size paired with the table" 'python3 -c "
import json; j = json.load(open('\''$T/dir.json'\'')); d = j['\''deepest'\'']
assert d['\''max_size'\''] == $(cat "$V/stack_max_size") == d['\''depth'\''], d
assert j['\''max_sizes'\''][0]['\''table_file'\''].endswith('\''stack_trace'\'')"'
"$FTLENS" stack --format csv "$V" >"$T/dir.csv"
check "CSV: five sections" '[ "$(grep -c '\''^$'\'' "$T/dir.csv")" -eq 4 ]'

# --diff of the ppc64 tables before and after the fix.
B=$R/kcommit_ppc64_stack_trace_before_fix.txt
A=$R/kcommit_ppc64_stack_trace_after_fix.txt
if have_input "$A" 6 && have_input "$B" 6; then
	"$FTLENS" stack --diff --format json "$B" "$A" >"$T/diff.json"
	check "diff: exit 0" '[ $? -eq 0 ]'
	check "diff: every function's bytes and depth as the files say" 'python3 - "$T/diff.json" "$B" "$A"' <<'PY'
import json, re, sys
j = json.load(open(sys.argv[1]))
def side(path):
    out = {}
    for line in open(path):
        m = re.match(r'\s*\d+\)\s+(\d+)\s+(\d+)\s+(\S+)', line)
        if m:
            func = re.split(r'[+ ]', m.group(3))[0]
            size, depth = out.get(func, (0, None))
            out[func] = (size + int(m.group(2)), depth if depth else int(m.group(1)))
    return out
a, b = side(sys.argv[2]), side(sys.argv[3])
rows = {r['function']: r for r in j['functions']}
assert set(rows) == set(a) | set(b), set(rows) ^ (set(a) | set(b))
for f, r in rows.items():
    sa, da = a.get(f, (None, None))
    sb, db = b.get(f, (None, None))
    assert (r['size_a'], r['size_b'], r['depth_a'], r['depth_b']) == (sa, sb, da, db), (f, r)
    assert r['size_change'] == (sb or 0) - (sa or 0), (f, r)
    assert r['side'] == ('both' if sa and sb else 'A only' if sa else 'B only'), (f, r)
ch = [abs(r['size_change']) for r in j['functions']]
assert ch == sorted(ch, reverse=True)
assert j['depth_change'] == j['b']['depth'] - j['a']['depth']
PY
	check "diff: depth 4144 -> 3888 as the tables' top lines say" 'python3 -c "
import json; j = json.load(open('\''$T/diff.json'\''))
assert (j['\''a'\'']['\''depth'\''], j['\''b'\'']['\''depth'\'']) == ($(awk '\''$1 == "0)" { print $2 }'\'' "$B"), $(awk '\''$1 == "0)" { print $2 }'\'' "$A"))"'
	check "diff: the tracer's own frame only before, _raw_spin_trylock only after" 'python3 -c "
import json; r = {x['\''function'\'']: x for x in json.load(open('\''$T/diff.json'\''))['\''functions'\'']}
assert r['\''ftrace_call'\'']['\''side'\''] == '\''A only'\'' and r['\''_raw_spin_trylock'\'']['\''side'\''] == '\''B only'\''
assert r['\''0xc00000000f16b100'\'']['\''raw'\''] == 1 and r['\''0xc00000000f16b100'\'']['\''side'\''] == '\''A only'\''
assert r['\''get_page_from_freelist'\'']['\''size_change'\''] == 576 - 432"'
	"$FTLENS" stack --diff "$B" "$A" >"$T/diff.txt"
	check "diff text: the largest change first" 'sed -n 7p "$T/diff.txt" | grep -q "^__alloc_pages  *496  *64  *-432 "'
	"$FTLENS" stack --diff --format csv "$B" "$A" >"$T/diff.csv"
	check "diff CSV: one row per function" '[ "$(sed -n '\''1,/^$/p'\'' "$T/diff.csv" | grep -c '\'','\'')" -eq "$(python3 -c "import json; print(len(json.load(open('\''$T/diff.json'\''))['\''functions'\'']) + 1)")" ]'
fi

# A series made here from the rig's table: snapshot 1 holds its lower 20
# frames with the top one grown by 16 bytes, snapshot 2 the whole table.
S=$T/stack.series
{
	echo "# ftlens-stack-series v1 kernel=6.1.0-test clock=monotonic"
	echo "# snapshot 1 time=5.000000 max_size=2256"
	awk '/entries\)/ { sub(/\(30 entries\)/, "(20 entries)"); print; next }
	     /^ *-----/ { print; next }
	     $1 ~ /\)$/ { i = $1 + 0; if (i < 10) next
	                  d = $2; s = $3; if (i == 10) { d += 16; s += 16 }
	                  printf "%3d) %8d   %5d   %s\n", i - 10, d, s, $4 }' "$V/stack_trace"
	echo
	echo "# snapshot 2 time=6.500000 max_size=$(cat "$V/stack_max_size")"
	cat "$V/stack_trace"
} >"$S"
cp "$S" "$T/series.orig"
"$FTLENS" stack --format json "$S" >"$T/series.json"
check "series: exit 0" '[ $? -eq 0 ]'
check "series: two tables, the deepest is snapshot 2, no inconsistency" 'python3 -c "
import json; j = json.load(open('\''$T/series.json'\''))
assert j['\''tables_with_frames'\''] == 2 and j['\''deepest'\'']['\''snapshot'\''] == 2, j['\''deepest'\'']
assert [t['\''max_size'\''] for t in j['\''tables'\'']] == [2256, $(cat "$V/stack_max_size")]
assert [t['\''time_ns'\''] for t in j['\''tables'\'']] == [5000000000, 6500000000]
assert j['\''tables'\''][0]['\''kernel'\''] == '\''6.1.0-test'\'' and j['\''diagnostics'\''] == []"'
check "series: per function max, mean, tables, shares as the oracle says" 'python3 - "$T/series.json" "$S"' <<'PY'
import json, re, sys
j = json.load(open(sys.argv[1]))
tables, cur = [], None
for line in open(sys.argv[2]):
    if line.startswith('# snapshot'):
        cur = []; tables.append(cur)
    m = re.match(r'\s*\d+\)\s+(\d+)\s+(\d+)\s+(\S+)', line)
    if m:
        cur.append((m.group(3).split('+')[0], int(m.group(1)), int(m.group(2))))
deep = max(tables, key=lambda t: t[0][1])
want = {}
for t in tables:
    for f, _, size in t:
        w = want.setdefault(f, {'sizes': [], 'tables': set(), 'deep': 0})
        w['sizes'].append(size); w['tables'].add(id(t))
for f, _, size in deep:
    want[f]['deep'] += size
rows = {r['function']: r for r in j['functions']}
assert set(rows) == set(want)
for f, w in want.items():
    r = rows[f]
    assert r['max_size'] == max(w['sizes']), (f, r)
    assert abs(r['mean_size'] - sum(w['sizes']) / len(w['sizes'])) < 1e-9, (f, r)
    assert r['tables'] == len(w['tables']), (f, r)
    assert abs(r['table_share_pct'] - 100.0 * len(w['tables']) / len(tables)) < 1e-9, (f, r)
    assert r['deepest_bytes'] == w['deep'], (f, r)
    assert abs(r['deepest_share_pct'] - 100.0 * w['deep'] / deep[0][1]) < 1e-9, (f, r)
fw = rows['folio_wait_bit_common']
assert (fw['max_size'], fw['mean_size'], fw['tables']) == (200, 192, 2), fw
PY
"$FTLENS" stack "$S" >"$T/series.txt"
check "series text: the aggregate over 2 tables" 'grep -q "^Per function over 2 tables" "$T/series.txt"'
check "series: input unchanged" 'cmp -s "$S" "$T/series.orig"'

# The same series with one Size doctored: told with its file and line.
sed 's/^\(  0)     2256\)     200 /\1     190 /' "$S" >"$T/doctored.series"
line=$(grep -n '^  0)     2256     190 ' "$T/doctored.series" | cut -d: -f1)
"$FTLENS" stack "$T/doctored.series" >"$T/doctored.txt"
check "doctored Size: exit 0" '[ $? -eq 0 ]'
check "doctored Size: told at $T/doctored.series:$line" 'grep -q "^  $T/doctored.series:$line: frame 0 (folio_wait_bit_common): Size 190, but Depth 2256 - next Depth 2056 = 200" "$T/doctored.txt"'
"$FTLENS" stack --format json "$T/doctored.series" >"$T/doctored.json"
check "doctored Size: in JSON diagnostics" 'python3 -c "
import json; d = json.load(open('\''$T/doctored.json'\''))['\''diagnostics'\'']
assert [(x['\''kind'\''], x['\''line'\'']) for x in d] == [('\''size'\'', $line)], d"'

# Bad input: exit 1 and one message naming the file and line.
expect_error() {
	"$FTLENS" stack "$2" >"$T/out" 2>"$T/err"
	rc=$?
	check "$1: exit 1 (got $rc)" '[ $rc -eq 1 ]'
	pattern=$3
	check "$1: one message with file and line" '[ $(wc -l <"$T/err") -eq 1 ] && grep -q -- "$pattern" "$T/err"'
	sed 's/^/# /' "$T/err"
}
head -n 10 "$V/stack_trace" >"$T/cut"
expect_error "cut table" "$T/cut" "'$T/cut': line 10: the table is cut: its header (line 1) says 30 entries, 8 frames follow"
head -c 3000 /dev/urandom >"$T/garbage"
printf '\000' >>"$T/garbage"
expect_error "binary noise" "$T/garbage" "'$T/garbage': line [0-9]*: binary data"
printf '# tracer: nop\n   bash-1 [000] .... 1.000001: cpu_idle: state=1\n' >"$T/trace"
expect_error "an event trace" "$T/trace" "'$T/trace': line 1: not a stack_trace table"
{ head -n 5 "$V/stack_trace"; printf '  3)     3056'; } >"$T/midline"
expect_error "cut in a number" "$T/midline" "'$T/midline': line 6: the table is cut in the middle of a line"
head -c 300 "$V/stack_trace" >"$T/midloc"
expect_error "cut in a name" "$T/midloc" "'$T/midloc': line 6: the table is cut: its header (line 1) says 30 entries, 4 frames"
sed '1s/v1/v9/' "$S" >"$T/v9.series"
expect_error "series of another version" "$T/v9.series" "'$T/v9.series': line 1: ftlens stack series version 'v9'"
"$FTLENS" stack /proc/version >"$T/out" 2>"$T/err"
check "a procfs file (size 0) is read as a stream" 'grep -q "'\''/proc/version'\'': line 1: not a stack_trace table" "$T/err"'
"$FTLENS" info "$V/stack_trace" >"$T/out" 2>"$T/err"
check "ftlens info on a stack table: exit 1" '[ $? -eq 1 ]'
check "ftlens info on a stack table: says to use ftlens stack" 'grep -q "'\''$V/stack_trace'\'': line 1: a stack_trace table, not an event trace; read it with '\''ftlens stack'\''" "$T/err"'
"$FTLENS" stack --diff "$V/stack_trace" >/dev/null 2>&1
check "--diff with one input: usage error (exit 2)" '[ $? -eq 2 ]'
finish
