#!/bin/sh
# Inputs ftlens reads and refuses: a directory of cpuN.trace / cpuN.txt files
# reads as per_cpu/ does; a text trace shorter than its header's
# entries-in-buffer says so (a diagnostic); text that merely holds
# '#'-lines (a README, a mail) is no trace: one error naming the file and
# line, exit 1; `oops` refuses a trace.dat and other binary data (exit 1);
# commands that read their input twice (flame's sniff, --relative-to's
# pre-pass) read standard input from a pipe as they read the file.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
prereq PYTHON
make_tmpdir
plan 10

fg=$FTL_TESTDATA/vm/fgraph-basic
cpus_of() { json_get "$1" "(j['events'], sorted(j['cpus'].items()))"; }
mkdir -p "$T/pc/per_cpu/cpu0" "$T/pc/per_cpu/cpu1" "$T/dot" "$T/txt"
for c in 0 1; do
	cp "$fg/trace-cpu$c.txt" "$T/pc/per_cpu/cpu$c/trace"
	cp "$fg/trace-cpu$c.txt" "$T/dot/cpu$c.trace"
	cp "$fg/trace-cpu$c.txt" "$T/txt/cpu$c.txt"
done
"$FTLENS" info --json "$T/pc" >"$T/pc.json"
"$FTLENS" info --json "$T/dot" >"$T/dot.json"
"$FTLENS" info --json "$T/txt" >"$T/txt.json"
want=$(cpus_of "$T/pc.json")
check "a directory of cpuN.trace files reads as per_cpu/ ($want)" '[ "$(cpus_of "$T/dot.json")" = "$want" ]'
check "... and one of cpuN.txt files too" '[ "$(cpus_of "$T/txt.json")" = "$want" ]'

# a trace cut after 60 lines: its header still counts the whole buffer
ev=$FTL_TESTDATA/vm/events/default.txt
head -n 60 "$ev" >"$T/cut.txt"
claimed=$(sed -n 's/^# entries-in-buffer\/entries-written: \([0-9]*\)\/.*/\1/p' "$ev")
"$FTLENS" info --json "$T/cut.txt" >"$T/cut.json"
"$FTLENS" info "$T/cut.txt" >"$T/cut.out"
check "a trace shorter than its header's $claimed entries: a diagnostic with the missing count" '
	[ "$(json_get "$T/cut.json" "j[\"diagnostics\"][\"entries_short\"][\"amount\"] == $claimed - j[\"events\"]")" = True ] &&
	grep -q "entries the header counts and the file does not hold" "$T/cut.out" &&
	"$FTLENS" info --json "$ev" | python3 -c "import json,sys; sys.exit(\"entries_short\" in json.load(sys.stdin)[\"diagnostics\"])"'

# text with '#' lines and trace words is no trace
cat >"$T/mail.txt" <<'MAIL'
# Subject: Re: function_graph shows odd durations
#
# tracer: function_graph
Hi, I ran the function_graph tracer with funcgraph-abstime on and
the CPU column looks off.  Any idea?  sched_switch prev_pid=1 next_pid=0
MAIL
for f in "$top_srcdir/README.md" "$T/mail.txt"; do
	"$FTLENS" info "$f" >"$T/o" 2>"$T/e"
	echo "$? $(wc -l <"$T/e")" >>"$T/refused"
done
check "a README and a mail: one error naming file and line, exit 1 (each)" '
	[ "$(sort -u "$T/refused")" = "1 1" ] && grep -q "mail.txt'"'"': line [0-9]*: not an ftrace trace" "$T/e"'
check "a header-only trace (an idle CPU) still reads: 0 events, exit 1 as every empty answer" '
	sed -n "/^#/p" "$ev" >"$T/idle.txt" &&
	{ "$FTLENS" info --json "$T/idle.txt" >"$T/idle.json" 2>"$T/idle.err"; [ $? -eq 1 ]; } &&
	grep -q "no events in" "$T/idle.err" &&
	[ "$(python3 -c "import json,sys; print(json.load(sys.stdin)[\"events\"])" <"$T/idle.json")" = 0 ]'

# oops: binary data is no console log
printf '\027\010\104tracing6\0' >"$T/fake.dat"
head -c 4000 /dev/zero | tr '\0' 'x' >>"$T/fake.dat"
"$FTLENS" oops "$T/fake.dat" >"$T/o" 2>"$T/e"
check "oops on a trace.dat: exit 1, says what it is" '[ $? -eq 1 ] && grep -q "a trace.dat" "$T/e"'
awk 'BEGIN { srand(7); for (i = 0; i < 40000; i++) printf "%c", 128 + int(rand() * 127) }' >"$T/noise.bin"
check "oops on bytes that are no UTF-8 text: exit 1" '"$FTLENS" oops "$T/noise.bin" >/dev/null 2>&1; [ $? -eq 1 ]'

# standard input from a pipe, read twice: flame looks before its pass, and
# --relative-to finds the marker in a pre-pass
sample=$top_srcdir/data/sample-fgraph.txt
printf 'a;b;c 3\na;b 2\nx 4\n' >"$T/in.folded"
same_svg() { sed "s#$2#-#g" "$1" | cmp -s - "$3"; }
"$FTLENS" flame -o "$T/file.svg" "$T/in.folded"
cat "$T/in.folded" | "$FTLENS" flame -o "$T/pipe.svg" -
check "folded stacks through a pipe: the same flame graph as from the file" '
	same_svg "$T/file.svg" "$T/in.folded" "$T/pipe.svg" && grep -q "total=\"9\"" "$T/pipe.svg"'
"$FTLENS" flame -o "$T/tfile.svg" "$sample"
gzip -c "$sample" | "$FTLENS" flame -o "$T/tpipe.svg" -
check "a gzipped trace through a pipe: the same flame graph as from the file" '
	same_svg "$T/tfile.svg" "$sample" "$T/tpipe.svg"'
"$FTLENS" dump --relative-to "after ls" "$sample" >"$T/rel-file.txt"
cat "$sample" | "$FTLENS" dump --relative-to "after ls" - >"$T/rel-pipe.txt"
"$FTLENS" dump --relative-to "after ls" - <"$sample" >"$T/rel-redir.txt"
check "--relative-to on a pipe and on a redirect: the dump of the file" '
	[ -s "$T/rel-file.txt" ] && cmp "$T/rel-file.txt" "$T/rel-pipe.txt" &&
	cmp "$T/rel-file.txt" "$T/rel-redir.txt"'
finish
