#!/bin/sh
# CLI habits a kernel developer expects from git and trace-cmd, on a real
# terminal (a pseudo-terminal from tests/e2e/pty_run.py): --color auto |
# always | never and NO_COLOR and TERM=dumb; colour codes that are ftlens's
# own, never the trace's; durations coloured at the kernel's function_graph
# marks; $PAGER run with LESS=FRX (unless LESS is set), never through a
# pipe or with --no-pager, and a pager quit early ending ftlens quietly
# with status 0; -F/--format and --json alike on every command of the table
# that prints results; --sort in every format.
. "$(dirname "$0")/lib.sh"
need_python
make_tmpdir
S=$top_srcdir/data/sample-fgraph.txt
SCHED=$FTL_TESTDATA/sched/small.txt
STACK=$FTL_TESTDATA/vm/stack/stack_trace
CONSOLE=$top_srcdir/tests/fuzz/corpus/console/panic-and-dump
pty="python3 $top_srcdir/tests/e2e/pty_run.py"
inert="python3 $top_srcdir/tests/e2e/inert.py"
ESC=$(printf '\033')
# the fake pager: says it ran, with which arguments and LESS/LV, keeps its input
cat >"$T/pager" <<'SH'
#!/bin/sh
{ echo "args:$*"; echo "LESS=${LESS-unset}"; echo "LV=${LV-unset}"; } >"$PAGER_LOG"
cat >"$PAGER_LOG.in"
SH
printf '#!/bin/sh\nhead -n 1 >/dev/null\n' >"$T/quit"
chmod +x "$T/pager" "$T/quit"
unset NO_COLOR LESS PAGER
TERM=xterm
export TERM

# --- colour ------------------------------------------------------------------
$pty "$T/auto" -- "$FTLENS" report --no-pager "$S"
check "auto on a terminal: coloured (exit $?)" 'grep -q "$ESC\[1m" "$T/auto"'
NO_COLOR=1 $pty "$T/nocolor" -- "$FTLENS" report --no-pager "$S"
check "NO_COLOR=1 on a terminal: no colour" '[ -s "$T/nocolor" ] && ! grep -q "$ESC" "$T/nocolor"'
NO_COLOR= $pty "$T/empty" -- "$FTLENS" report --no-pager "$S"
check "NO_COLOR set but empty: colour (no-color.org)" 'grep -q "$ESC\[1m" "$T/empty"'
TERM=dumb $pty "$T/dumb" -- "$FTLENS" report --no-pager "$S"
check "TERM=dumb: no colour" '[ -s "$T/dumb" ] && ! grep -q "$ESC" "$T/dumb"'
$pty "$T/never" -- "$FTLENS" report --no-pager --color=never "$S"
check "--color=never on a terminal: no colour" '[ -s "$T/never" ] && ! grep -q "$ESC" "$T/never"'
"$FTLENS" report "$S" >"$T/pipe"
check "a pipe: no colour" '[ -s "$T/pipe" ] && ! grep -q "$ESC" "$T/pipe"'
NO_COLOR=1 "$FTLENS" report --color=always "$S" >"$T/always"
check "--color=always through a pipe (NO_COLOR too): coloured" 'grep -q "$ESC\[1m" "$T/always"'
check "--color=always, codes stripped: the plain report" \
	'sed "s/$ESC\[[0-9;]*m//g" "$T/always" | cmp -s - "$T/pipe"'
"$FTLENS" report --color=sometimes "$S" >/dev/null 2>"$T/err"
check "--color=sometimes: usage error (exit $?)" '[ $? -eq 2 ] && grep -q "expected auto, always or never" "$T/err"'

# durations at the kernel's marks: strictly more than 10 us, 100 us, ... 1 s
{
	printf '# tracer: function_graph\n#\n# CPU  DURATION                  FUNCTION CALLS\n'
	printf '# |     |   |                     |   |   |   |\n'
	for d in 10.000 10.001 100.000 100.001 1000.001 10000.001 100000.001 1000000.001; do
		f=$(echo "$d" | tr . _)
		printf ' 0) + %s us   |  f%s();\n' "$d" "$f"
	done
} >"$T/marks.txt"
"$FTLENS" graph --color=always "$T/marks.txt" >"$T/marks.out"
# the colour of each function's total: the code before its duration
python3 - "$T/marks.out" >"$T/marks.got" <<'PY'
import re, sys
for line in open(sys.argv[1], encoding="utf-8"):
    m = re.match(r"^(\x1b\[[0-9;]*m)?\s*[0-9.]+ [mu]?s.*\b(f[0-9_]+)$", re.sub(r"\x1b\[m", "", line).rstrip())
    if m:
        print(m.group(2), repr(m.group(1) or ""))
PY
cat >"$T/marks.want" <<'W'
f10_000 ''
f10_001 '\x1b[32m'
f100_000 '\x1b[32m'
f100_001 '\x1b[36m'
f1000_001 '\x1b[33m'
f10000_001 '\x1b[35m'
f100000_001 '\x1b[31m'
f1000000_001 '\x1b[1;31m'
W
check "durations coloured at the + ! # * @ \$ marks, strictly above each" \
	'sort "$T/marks.got" | cmp -s - "$(sort "$T/marks.want" >"$T/w"; echo "$T/w")" ||
	{ diag "$(cat "$T/marks.got")"; false; }'

# hostile trace text under --color=always: the only escapes are ours
python3 - "$T/hostile.txt" <<'PY'
import sys
h = b"\x1b[2J\x1b]52;c;aGk=\x07\x9bX\xc2\x9bY\xe2\x80\xaeZ\xff"
open(sys.argv[1], "wb").write(
    b"# tracer: function_graph\n#\n# CPU  DURATION                  FUNCTION CALLS\n"
    b"# |     |   |                     |   |   |   |\n"
    b" 0)               |  do" + h + b"() {\n"
    b" 0) + 20.000 us   |    leaf" + h + b"();\n"
    b" 0) ! 150.000 us  |  }\n")
PY
for cmd in report graph dump info; do
	"$FTLENS" $cmd --color=always "$T/hostile.txt" 2>&1 | sed "s/$ESC\[[0-9;]*m//g" >"$T/hostile.$cmd"
done
check "hostile text with --color=always: inert once our codes are stripped" \
	'$inert "$T"/hostile.report "$T"/hostile.graph "$T"/hostile.dump "$T"/hostile.info'

# --- pager -------------------------------------------------------------------
PAGER_LOG=$T/p1 PAGER=$T/pager $pty "$T/paged" -- "$FTLENS" report "$S"
rc=$?
check "a terminal: \$PAGER runs with LESS=FRX LV=-c (exit $rc)" \
	'[ $rc -eq 0 ] && grep -qx "LESS=FRX" "$T/p1" && grep -qx "LV=-c" "$T/p1"'
check "the pager gets the report, coloured (stdout was a terminal)" \
	'grep -q "Top functions" "$T/p1.in" && grep -q "$ESC\[1m" "$T/p1.in"'
PAGER_LOG=$T/p2 LESS=-S PAGER="$T/pager --flag" $pty "$T/paged2" -- "$FTLENS" graph "$S"
check "LESS set: kept; PAGER with words: run through sh (args: $(head -n1 "$T/p2" 2>/dev/null))" \
	'grep -qx "LESS=-S" "$T/p2" && grep -qx "args:--flag" "$T/p2"'
PAGER_LOG=$T/p3 PAGER=$T/pager $pty "$T/nopager" -- "$FTLENS" report --no-pager "$S"
check "--no-pager: no pager, the report on the terminal" \
	'[ ! -e "$T/p3" ] && grep -q "Top functions" "$T/nopager"'
PAGER_LOG=$T/p4 PAGER=$T/pager "$FTLENS" report "$S" >"$T/piped"
check "a pipe: no pager" '[ ! -e "$T/p4" ] && grep -q "Top functions" "$T/piped"'
PAGER_LOG=$T/p5 PAGER=$T/pager $pty "$T/tui" -- "$FTLENS" tui --keys
check "the TUI never pages" '[ ! -e "$T/p5" ]'
PAGER_LOG=$T/p6 PAGER=$T/pager $pty "$T/flame" -- "$FTLENS" flame -o "$T/f.svg" "$S"
check "a command that writes files does not page" '[ ! -e "$T/p6" ] && [ -s "$T/f.svg" ]'
# a long dump into a pager that quits after one line: ftlens ends, status 0, quiet
for i in 1 2 3 4 5 6 7 8; do cat "$S"; done >"$T/long.txt"
PAGER=$T/quit $pty "$T/quit.out" -- "$FTLENS" dump "$T/long.txt"
rc=$?
check "pager quit early: exit 0 (got $rc), no message" '[ $rc -eq 0 ] && ! grep -qi "pipe\|error" "$T/quit.out"'
if command -v less >/dev/null 2>&1; then
	$pty --send funcgraph_entry q "$T/less.out" -- "$FTLENS" dump "$T/long.txt"
	rc=$?
	check "real less, q on the first screen: exit 0 (got $rc)" '[ $rc -eq 0 ]'
else
	skip "real less: less is not installed"
fi

# --- -F/--format and --json on every command of the table ---------------------
results="info dump report graph split markers diff stack oops arm-oops sched"
files="record tui flame export timeline plot index capture-script"
# commands that hand over to a program of their own, with commands of its own
delegates="fleet"
commands=$("$FTLENS" --help | sed -n '/^commands:/,/^$/p' | awk 'NF > 1 { print $1 }')
n=0
for c in $commands; do
	n=$((n + 1))
	case " $delegates " in *" $c "*)
		"$FTLENS" help "$c" >"$T/help.$c" 2>&1
		"$FTLENS" "$c" report --help >"$T/help2.$c" 2>&1
		"$FTLENS" "$c" report --json >/dev/null 2>&1
		rc=$?
		check "$c hands over: help lists its commands, each takes -F and --json; no input: exit $rc" \
			'grep -q "report" "$T/help.$c" && grep -q -- "-F {text,csv,json}" "$T/help2.$c" &&
			grep -q -- "--json" "$T/help2.$c" && [ $rc -eq 2 ]'
		continue ;;
	esac
	case " $results " in *" $c "*) ;; *)
		case " $files " in *" $c "*) ;; *)
			not_ok "command $c: neither in results nor in files: say whether it prints results"
			continue ;;
		esac
		"$FTLENS" "$c" --json >/dev/null 2>"$T/err"
		rc=$?
		check "$c writes files: --json is a usage error (exit $rc)" '[ $rc -eq 2 ]'
		continue ;;
	esac
	"$FTLENS" help "$c" >"$T/help.$c" 2>&1
	check "help $c lists -F, --format and --json" \
		'grep -q -- "-F, --format=FMT" "$T/help.$c" && grep -q -- "--json" "$T/help.$c" && grep -q -- "--no-pager" "$T/help.$c"'
	case $c in
	diff) args="$S $S" ;;
	stack) args=$STACK ;;
	oops) args=$CONSOLE ;;
	markers | sched) args=$SCHED ;;
	split) args="--per-cpu -f -o $T/split $S" ;;
	arm-oops)
		# it changes tracefs: only its options are checked here
		"$FTLENS" arm-oops -F xml >/dev/null 2>&1
		check "arm-oops -F xml: usage error before tracefs is touched" '[ $? -eq 2 ]'
		continue ;;
	*) args=$S ;;
	esac
	# shellcheck disable=SC2086
	"$FTLENS" "$c" -F csv $args >"$T/$c.csv" 2>/dev/null
	rc1=$?
	"$FTLENS" "$c" -F json $args >"$T/$c.json" 2>/dev/null
	rc2=$?
	"$FTLENS" "$c" --json $args >"$T/$c.json2" 2>/dev/null
	rc3=$?
	"$FTLENS" "$c" --format=csv $args >"$T/$c.csv2" 2>/dev/null
	check "$c: -F csv, -F json, --json exit 0 ($rc1 $rc2 $rc3)" '[ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && [ $rc3 -eq 0 ]'
	check "$c: --json is -F json, --format=csv is -F csv; JSON parses, CSV has a header" \
		'cmp -s "$T/$c.json" "$T/$c.json2" && cmp -s "$T/$c.csv" "$T/$c.csv2" &&
		python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$T/$c.json" &&
		python3 -c "import csv,sys; r=[x for x in csv.reader(open(sys.argv[1])) if x and not x[0].startswith(chr(35))]; sys.exit(not r or len(r[0]) < 2)" "$T/$c.csv"'
done
check "the command table has $n commands, all checked" '[ $n -ge 17 ]'
"$FTLENS" report --json -F csv "$S" >/dev/null 2>"$T/err"
check "--json with -F csv: usage error (exit $?)" '[ $? -eq 2 ] && grep -q disagree "$T/err"'
"$FTLENS" dump -F json "$S" >"$T/dump.json"
"$FTLENS" dump "$S" >"$T/dump.txt"
check "dump: one JSON event per text line, same order" \
	'python3 -c "
import json, sys
j = json.load(open(sys.argv[1]))
t = open(sys.argv[2]).read().splitlines()
assert len(j[\"events\"]) == len(t), (len(j[\"events\"]), len(t))
for e, l in zip(j[\"events\"], t):
    f = e[\"fields\"].get(\"func\", \"\")
    assert e[\"name\"] in l and (f is None or (\"func=\" + (f or \"-\")) in l or not f), (e, l)
" "$T/dump.json" "$T/dump.txt"'

# --- --sort in every format ----------------------------------------------------
# order: the first column's values of a table, in text, CSV and JSON
for spec in "report calls function calls" "report name function function" \
	"diff self function self_change_ns" "sched pid comm pid"; do
	set -- $spec
	cmd=$1 key=$2 name=$3 field=$4
	case $cmd in diff) in="$S $T/long.txt" ;; sched) in=$SCHED ;; *) in=$S ;; esac
	# shellcheck disable=SC2086
	"$FTLENS" $cmd --sort $key -F csv $in >"$T/s.csv" 2>/dev/null &&
		"$FTLENS" $cmd --sort $key -F json $in >"$T/s.json" 2>/dev/null &&
		"$FTLENS" $cmd --sort $key --width 300 $in >"$T/s.txt" 2>/dev/null
	check "$cmd --sort $key: CSV, JSON and text in one order" '
	python3 - "$T/s.csv" "$T/s.json" "$T/s.txt" "$name" "$field" <<"PY"
import csv, json, sys
csvf, jsonf, txtf, name, field = sys.argv[1:]
# the first CSV document whose header has both columns
docs = open(csvf).read().split("\n\n")
rows = None
for d in docs:
    r = list(csv.DictReader([l for l in d.splitlines() if not l.startswith("# ")]))
    if r and name in r[0] and field in r[0]:
        rows = r
        break
assert rows, "no CSV table with %s and %s" % (name, field)
names = [r[name] for r in rows]
def tables(o):
    if isinstance(o, dict):
        for v in o.values():
            yield from tables(v)
    elif isinstance(o, list):
        if o and isinstance(o[0], dict) and name in o[0] and field in o[0]:
            yield o
        for v in o:
            yield from tables(v)
jt = next(tables(json.load(open(jsonf))))
assert [r[name] for r in jt] == names, "JSON order differs"
vals = [r[field] for r in rows]
num = lambda v: float(v) if v not in ("", None) else 0.0
if field in (name, "comm", "function"):
    keys = vals
elif field == "pid":
    keys = [num(v) for v in vals]
else:
    keys = [-abs(num(v)) if "change" in field else -num(v) for v in vals]
assert keys == sorted(keys), "CSV not sorted by %s: %s" % (field, vals[:8])
# text: the names appear in the same order
text = open(txtf).read()
pos = [text.find(n) for n in names[:5] if n]
assert all(p >= 0 for p in pos) and pos == sorted(pos), "text order differs: %s" % names[:5]
PY'
done
# a value glued to its short option, as getopt and make read it: -j4,
# -n3 -Fcsv, a flag grouped before it (-vesched_switch); a long option's
# value that begins with a dash stays whole
"$FTLENS" report -j 2 -n 3 -F csv "$S" >"$T/sep" 2>&1
"$FTLENS" report -j2 -n3 -Fcsv "$S" >"$T/glued" 2>&1
check "-j2 -n3 -Fcsv is -j 2 -n 3 -F csv" '[ -s "$T/sep" ] && cmp "$T/sep" "$T/glued"'
"$FTLENS" dump -v -e sched_switch "$SCHED" >"$T/sep" 2>&1
"$FTLENS" dump -vesched_switch "$SCHED" >"$T/glued" 2>&1
check "-vesched_switch is -v -e sched_switch" \
	'[ -s "$T/sep" ] && cmp "$T/sep" "$T/glued" && ! grep -q sched_switch: "$T/glued"'
"$FTLENS" dump --relative-to=-fX "$SCHED" >"$T/sep" 2>&1
"$FTLENS" dump --relative-to -fX "$SCHED" >"$T/glued" 2>&1
check "--relative-to -fX: the pattern -fX, as --relative-to=-fX" \
	'grep -q -- "-fX" "$T/sep" && cmp "$T/sep" "$T/glued"'
"$FTLENS" dump -- -j4 >"$T/glued" 2>&1
check "after --, -j4 is left whole (not -j 4)" 'grep -q -- "-j4" "$T/glued"'
mkdir "$T/dash" && cp "$SCHED" "$T/dash/-j4" && cp "$SCHED" "$T/dash/j4"
(cd "$T/dash" && "$FTLENS" dump j4) 2>&1 | sed "s/ j4:/ -j4:/" >"$T/sep"
(cd "$T/dash" && "$FTLENS" dump -- -j4) >"$T/glued" 2>&1
check "after --, a dashed operand is an input: dump -- -j4 reads the file -j4" \
	'[ -s "$T/sep" ] && cmp "$T/sep" "$T/glued"'
(cd "$T/dash" && "$FTLENS" info -j2 -- -j4 --) >"$T/glued" 2>&1
check "only the first -- ends the options; a second is an operand" \
	'grep -q "'"'"'--'"'"': No such file" "$T/glued"'

# the count depends on the command table: the plan comes last
echo "1..$tap_n"
finish
