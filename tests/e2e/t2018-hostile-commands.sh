#!/bin/sh
# The same hostile text through every command that reads a trace, a stack
# table or a console log, in every format it has, from inputs whose file
# names are hostile too: CSI and OSC 52 (clipboard write) sequences, BEL, C1
# controls (raw 0x9b and U+009B), a bidi override and invalid UTF-8 in
# comms, marker text, function names, oops titles and paths.
# Whatever reaches stdout or stderr is inert (tests/e2e/inert.py: valid
# UTF-8, no C0 but LF/TAB, no DEL/C1/bidi), JSON parses, and no CSV cell
# starts a formula (= + - @) unquoted. A NUL byte makes a text trace binary
# data: one clear error, inert too.
. "$(dirname "$0")/lib.sh"
need_python
make_tmpdir
inert="python3 $top_srcdir/tests/e2e/inert.py"
python3 - "$T" "$top_srcdir" <<'PY'
import os, sys
T, src = sys.argv[1], sys.argv[2]
# ESC [2J, OSC 52 ... BEL, raw 0x9b, U+009B, U+202E, a stray 0xff, NUL
h = b"\x1b[2J\x1b]52;c;aGk=\x07\x9bX\xc2\x9bY\xe2\x80\xaeZ\xff"
bad = b"ev" + h + b"il"
def put(name, data):
    with open(os.path.join(T, name), "wb") as f:
        f.write(data)
hdr = b"# tracer: nop\n#\n#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n#              | |         |   |||||     |         |\n"
ev = hdr + (
    b"        " + bad + b"-96      [000] .....   100.000000: tracing_mark_write: start " + h + b"\n"
    b"        " + bad + b"-96      [000] .....   100.000100: sched_switch: prev_comm=" + bad +
    b" prev_pid=96 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
    b"          <idle>-0       [001] d....   100.000200: tracing_mark_write: =cmd|' /C calc'!A0\n"
    b"          <idle>-0       [001] d....   100.000300: tracing_mark_write: end " + h + b"\n")
put("ev.txt", ev)
# a NUL in a comm: binary data, one clear error
put("nul.txt", ev.replace(b"ev\x1b", b"ev\x00\x1b", 1))
# a file name that is itself hostile
put(b"name\x1b]52;c;aGk=\x07\xc2\x9b.txt".decode("latin-1"), ev)
fg = (b"# tracer: function_graph\n#\n# CPU  DURATION                  FUNCTION CALLS\n"
      b"# |     |   |                     |   |   |   |\n"
      b" 0)               |  do" + h + b"_sys() {\n"
      b" 0)   1.000 us    |    leaf" + h + b"();\n"
      b" 0)   1.000 us    |    =cmd();\n"
      b" 0)   1.000 us    |    @SUM();\n"
      b" 0)   1.000 us    |    +plus();\n"
      b" 0)   1.000 us    |    -minus();\n"
      b" 0)   5.000 us    |  }\n"
      b" 0)               |  /* " + h + b" */\n")
put("fg.txt", fg)
st = open(os.path.join(src, "tests/data/vm/stack/stack_trace"), "rb").read()
lines = st.split(b"\n")
for i, l in enumerate(lines):
    if b")" in l and b"+0x" in l:
        lines[i] = l.replace(b"+0x", h + b"+0x", 1)
        break
put("stack.txt", b"\n".join(lines))
con = open(os.path.join(src, "tests/fuzz/corpus/console/panic-and-dump"), "rb").read()
con = (con.replace(b"Comm: sh", b"Comm: " + bad)
       .replace(b"sysrq triggered crash", b"sysrq " + h + b" crash")
       .replace(b"sysrq_handle_crash", b"sysrq" + h + b"_handle")
       .replace(b"getname()", b"get" + h + b"name()"))
put("console.log", con)
PY
name=$(ls "$T" | grep '^name')
# csv_formula FILE...: cells starting = + @, or - not followed by a number,
# unquoted
csv_formula() {
	python3 -c '
import csv, re, sys
bad = 0
for path in sys.argv[1:]:
    for row in csv.reader(open(path, encoding="utf-8", newline="")):
        for c in row:
            if c and (c[0] in "=+@" or (c[0] == "-" and not re.fullmatch(r"-[0-9.]+", c))):
                print("%s: formula cell: %r" % (path, c)); bad = 1
sys.exit(bad)' "$@"
}
# run DESC FORMAT ARGS...: ftlens ARGS, its stdout kept as $O/N.FORMAT and
# its stderr as $O/N.err, checked all at once at the end (python starts
# slowly); an exit status above 1 (a signal) fails at once
O=$T/outputs
mkdir -p "$O"
runs=0
failed=""
run() {
	_what=$1 _fmt=$2
	shift 2
	runs=$((runs + 1))
	"$FTLENS" "$@" >"$O/$runs.$_fmt" 2>"$O/$runs.err"
	_rc=$?
	[ "$_rc" -gt 1 ] && failed="$failed $_what/$_fmt(exit $_rc)"
	echo "$runs $_what/$_fmt" >>"$T/runs"
}
plan 3
for input in ev.txt fg.txt "$name" nul.txt; do
	for cmd in info report graph markers; do
		for fmt in text csv json; do
			[ "$cmd" = graph ] && [ "$input" = ev.txt ] && continue
			run "$cmd:$input" $fmt $cmd --format $fmt "$T/$input"
		done
	done
	for fmt in text csv json; do
		run "dump:$input" $fmt dump --format $fmt "$T/$input"
	done
	for fmt in text csv json; do
		run "diff:$input" $fmt diff --format $fmt "$T/$input" "$T/fg.txt"
	done
	run "split:$input" text split --per-cpu -o "$T/split-$runs" "$T/$input"
done
for fmt in text csv json; do
	run "stack" $fmt stack --format $fmt "$T/stack.txt"
	run "stack --diff" $fmt stack --diff --format $fmt "$T/stack.txt" "$T/stack.txt"
done
for fmt in text json; do
	run "oops" $fmt oops --format $fmt "$T/console.log"
done
run "oops --extract-trace" text oops --extract-trace "$T/extracted.txt" "$T/console.log"
run "report of the extracted dump" text report "$T/extracted.txt"
run "an error naming a hostile file" text info "$T/absent$(printf '\033]52;c;aGk=\007')"
check "every command and format ($runs runs): nothing raw on stdout or stderr, JSON valid, no bare formula" '
	[ -z "$failed" ] || { diag "failed:$failed"; false; } &&
	$inert "$O"/* >"$T/why" && csv_formula "$O"/*.csv >>"$T/why" ||
	{ sed "s/^/# /" "$T/why" | head -n 20; diag "runs: $(cat "$T/runs" | tr "\n" ";")"; false; }
'
check "the oops view shows the hostile title and comm made visible" '
	"$FTLENS" oops "$T/console.log" >"$T/o" &&
	grep -q "^  panic  *sysrq .*\\\\x9bX\\\\u009bY\\\\u202eZ\\\\xff crash\$" "$T/o" &&
	grep -q "^  task .* comm ev.*\\\\x9bX\\\\u009bY\\\\u202eZ\\\\xffil\$" "$T/o"
'
check "CSV shows formula-like names quoted with an apostrophe" '
	"$FTLENS" graph --format csv "$T/fg.txt" >"$T/c" && grep -q ",\"'"'"'=cmd\"," "$T/c" &&
	grep -q "\"'"'"'@SUM\"" "$T/c"
'
finish
