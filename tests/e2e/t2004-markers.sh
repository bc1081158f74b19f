#!/bin/sh
# `ftlens markers`: markers listed with every row in text, CSV and JSON; spans
# between 'before X' / 'after X' markers written by the rig; --relative-to in
# dump and markers; wall clock from atrace's clock-sync marker. Every oracle is
# computed here from the input text with grep, awk or python, not from ftlens.
. "$(dirname "$0")/lib.sh"
prereq PYTHON
make_tmpdir
V=$FTL_TESTDATA/vm
SIMPLE=$V/simple-trace/trace.sav
FGRAPH=$V/fgraph-basic/trace.txt
EVSETS=""
for e in default record-tgid stacktrace; do
	[ -f "$V/events/$e.txt" ] && EVSETS="$EVSETS $e"
done
ATRACE=$FTL_REAL_DATA/events/catapult_atrace_tgid_trace_marker.txt
[ -f "$SIMPLE" ] && [ -f "$FGRAPH" ] && [ -n "$EVSETS" ] ||
	skip_all "rig captures missing in $V"
n_ev=0
for e in $EVSETS; do n_ev=$((n_ev + 1)); done
plan $((n_ev * 6 + 26))

# py SCRIPT ARGS...: run a small python oracle
py() {
	s=$1
	shift
	python3 -c "$s" "$@"
}

# ---- events traces: "before NAME" / "after NAME" written with trace_marker ----
# Marker timestamps and event lines per CPU strictly between the two markers.
EV_ORACLE='
import re, sys
ts, cpus, inside = {}, {}, False
for line in open(sys.argv[1], errors="replace"):
    m = re.search(r"\[(\d+)\]\s+\S+\s+(\d+)\.(\d+): (\S+?):? (.*)", line)
    if not m:
        continue
    if m.group(4) == "tracing_mark_write":
        text = m.group(5).rstrip("\n")
        t = int(m.group(2)) * 10**9 + int(m.group(3).ljust(9, "0"))
        if text.startswith("before "):
            ts["before"] = t; inside = True; continue
        if text.startswith("after "):
            ts["after"] = t; inside = False; continue
    if inside:
        c = int(m.group(1)); cpus[c] = cpus.get(c, 0) + 1
print(ts["after"] - ts["before"], -(ts["after"] - ts["before"]),
      ",".join("%d:%d" % kv for kv in sorted(cpus.items())))
'
for e in $EVSETS; do
	f=$V/events/$e.txt
	want=$(grep -c 'tracing_mark_write: ' "$f")
	"$FTLENS" markers --format json "$f" >"$T/$e.json"
	check "$e: json lists every marker ($want, grep)" \
		'[ "$(json_get "$T/$e.json" "len(j['\''markers'\''])")" = "$want" ]'
	set -- $(py "$EV_ORACLE" "$f")
	dur=$1 neg=$2 percpu=$3
	"$FTLENS" markers --format json --span 'before (.*)' 'after \1' "$f" >"$T/$e-span.json"
	got=$(json_get "$T/$e-span.json" "(len(j['spans']), j['spans'][0]['duration_ns'], j['unmatched_starts'], j['unmatched_ends'])")
	check "$e: one span of $dur ns (marker timestamps by python), none unmatched" \
		'[ "$got" = "(1, $dur, 0, 0)" ]'
	got=$(json_get "$T/$e-span.json" "','.join('%d:%d' % (r['cpu'], r['events']) for r in j['span_cpus'])")
	check "$e: events per CPU inside the span ($percpu)" '[ "$got" = "$percpu" ]'
	# --relative-to: the matching marker is at 0 in dump and markers
	got=$("$FTLENS" dump --relative-to "after $e" "$f" | grep 'text=after ' | awk '{ print $1 }')
	check "$e: dump --relative-to 'after $e' puts that marker at 0" '[ "$got" = "0.000000000" ]'
	"$FTLENS" markers --format json --relative-to "after $e" "$f" >"$T/$e-rel.json"
	got=$(json_get "$T/$e-rel.json" "[m['rel_ts_ns'] for m in j['markers'] if m['text'].startswith(('before ', 'after '))]")
	check "$e: markers --relative-to: [before, after] = [$neg, 0]" '[ "$got" = "[$neg, 0]" ]'
	got=$("$FTLENS" markers --relative-to "after $e" "$f" | awk '$(NF - 1) == "after" { print $1 }')
	check "$e: markers text --relative-to shows 0.000000" '[ "$got" = "0.000000" ]'
done

# ---- formats: CSV sections parse, JSON and CSV carry the same rows ------------
f=$V/events/$(echo $EVSETS | cut -d' ' -f1).txt
"$FTLENS" markers --format csv --span 'before (.*)' 'after \1' "$f" >"$T/m.csv"
got=$(py '
import csv, sys
secs, cur = [], []
for row in csv.reader(open(sys.argv[1], newline="")):
    if not row:
        secs.append(cur); cur = []
    else:
        cur.append(row)
secs.append(cur)
print(" ".join("%s:%d" % (s[0][0], len(s) - 1) for s in secs))
' "$T/m.csv")
want=$(grep -c 'tracing_mark_write: ' "$f")
check "csv: sections markers, span summary, spans, cpus, functions ($got)" \
	'[ "$(echo "$got" | cut -d'\'' '\'' -f1-3)" = "ts_ns:$want start_pattern:1 span:1" ]'
"$FTLENS" markers --format json --span 'before (.*)' 'after \1' "$f" >"$T/m.json"
got=$(json_get "$T/m.json" "sorted(j.keys())")
check "json: one object with its schema, markers, spans, unmatched counts, durations histogram" \
	'[ "$got" = "['\''end_pattern'\'', '\''markers'\'', '\''origin_ns'\'', '\''schema'\'', '\''span_cpus'\'', '\''span_functions'\'', '\''span_histogram'\'', '\''span_stats'\'', '\''spans'\'', '\''start_pattern'\'', '\''unmatched_ends'\'', '\''unmatched_starts'\'', '\''wall_offset_ns'\'']" ]'
check "json: times in ns under *_ns keys" \
	'[ "$(json_get "$T/m.json" "all(k in j['\''spans'\''][0] for k in ('\''start_ts_ns'\'', '\''end_ts_ns'\'', '\''duration_ns'\''))")" = True ]'
check "--format xml is a usage error (exit 2)" \
	'"$FTLENS" markers --format xml "$f" >/dev/null 2>&1; [ $? -eq 2 ]'

# ---- function_graph without times: comments are markers, spans in input order --
want=$(grep -c '|  *\/\* .* \*\/$' "$SIMPLE")
"$FTLENS" markers --format json --span 'before (.*)' 'after \1' "$SIMPLE" >"$T/s.json"
check "simple-trace: markers = comment lines ($want, grep)" \
	'[ "$(json_get "$T/s.json" "len(j['\''markers'\''])")" = "$want" ]'
check "simple-trace: the span has no duration (no timestamps)" \
	'[ "$(json_get "$T/s.json" "(len(j['\''spans'\'']), j['\''spans'\''][0]['\''duration_ns'\''])")" = "(1, None)" ]'
"$FTLENS" markers --span 'before (.*)' 'after \1' "$SIMPLE" >"$T/s.txt"
check "simple-trace: text says the duration is unknown" 'grep -q '\''duration unknown'\'' "$T/s.txt"'
# function exits per CPU between the two comments: "}" lines and leaves "f();"
FG_EXITS='
import re, sys
n, inside = {}, False
for line in open(sys.argv[1]):
    m = re.match(r"\s*(\d+)\)[^|]*\|\s*(.*?)\s*$", line)
    if not m:
        continue
    body = m.group(2)
    if body.startswith("/* before "): inside = True; continue
    if body.startswith("/* after "): inside = False; continue
    if inside and (body.startswith("}") or body.endswith(");")):
        c = int(m.group(1)); n[c] = n.get(c, 0) + 1
print(" ".join("%d:%d" % kv for kv in sorted(n.items())))
'
for d in SIMPLE FGRAPH; do
	eval "in=\$$d"
	"$FTLENS" markers --format json --span 'before (.*)' 'after \1' "$in" >"$T/x.json"
	want=$(py "$FG_EXITS" "$in")
	got=$(json_get "$T/x.json" "' '.join('%d:%d' % (r['cpu'], r['exits']) for r in j['span_cpus'])")
	check "$d: function exits per CPU inside the span ($want, python)" '[ "$got" = "$want" ]'
done
line=$(grep -n '/\* before' "$SIMPLE" | head -1 | cut -d: -f1)
"$FTLENS" dump --relative-to 'before' "$SIMPLE" >/dev/null 2>"$T/err"
rc=$?
grep -q "trace.sav': line $line:" "$T/err" && named=yes || named=no
check "relative-to a marker without a timestamp: exit 1, names file and line $line" \
	'[ "$rc:$named" = "1:yes" ]'

# ---- self time inside a span, computed by hand ---------------------------------
cat >"$T/ab.txt" <<'EOF'
# tracer: function_graph
#
#     TIME        CPU  DURATION                  FUNCTION CALLS
#      |          |     |   |                     |   |   |   |
  100.000000 |   0)               |  outer() {
  100.000010 |   0)               |    /* begin run1 */
  100.000020 |   0)               |    f() {
  100.000030 |   0)   5.000 us    |      g();
  100.000040 |   1)   7.000 us    |  h();
  100.000050 |   0)               |      k() {
  100.000060 |   0)   2.000 us    |        g();
  100.000070 |   0)   9.000 us    |      }
  100.000080 |   0) + 30.000 us   |    }
  100.000090 |   1)               |  /* end run1 */
  100.000100 |   0) + 99.000 us   |  }
EOF
# f: 30 - 5 - 9 = 16 us; g: 5 + 2 = 7; k: 9 - 2 = 7; outer returns after the span
"$FTLENS" markers --format json --span 'begin (.*)' 'end \1' "$T/ab.txt" >"$T/ab.json"
got=$(json_get "$T/ab.json" "[(r['cpu'], r['func'], r['self_ns'], r['total_ns']) for r in j['span_functions']]")
check "self time per CPU by hand: f 16 us, g 7, k 7 on cpu 0; h 7 on cpu 1" \
	'[ "$got" = "[(0, '\''f'\'', 16000, 30000), (0, '\''g'\'', 7000, 7000), (0, '\''k'\'', 7000, 9000), (1, '\''h'\'', 7000, 7000)]" ]'
check "abstime comments: span duration 80 us" \
	'[ "$(json_get "$T/ab.json" "j['\''spans'\''][0]['\''duration_ns'\'']")" = 80000 ]'

# ---- errors ----------------------------------------------------------------------
"$FTLENS" dump --relative-to 'no such marker here' "$f" >/dev/null 2>"$T/err"
rc=$?
check "relative-to without a match: exit 1" '[ $rc -eq 1 ]'
grep -q "'no such marker here'" "$T/err" && named=yes || named=no
check "relative-to without a match: one error line naming the pattern" \
	'[ "$(wc -l <"$T/err"):$named" = "1:yes" ]'
"$FTLENS" markers --relative-to 'no such marker here' "$f" >/dev/null 2>&1
check "markers --relative-to without a match: exit 1" '[ $? -eq 1 ]'
"$FTLENS" markers --span 'before (' 'x' "$f" >/dev/null 2>"$T/err"
rc=$?
grep -q "'before ('" "$T/err" && named=yes || named=no
check "a bad --span regex: exit 2 naming it" '[ "$rc:$named" = "2:yes" ]'
"$FTLENS" markers --span 'before' "$f" >/dev/null 2>&1
check "--span with one pattern: exit 2" '[ $? -eq 2 ]'

# ---- --wallclock, and control characters kept off the terminal ------------------
"$FTLENS" markers --format json --wallclock 'before [a-z-]+=2026-12-03T09:20:19.5Z' "$f" >"$T/w.json"
got=$(json_get "$T/w.json" "[m['wall_ns'] - m['ts_ns'] for m in j['markers']] == [j['wall_offset_ns']] * len(j['markers'])")
want=$(py 'import calendar; print(calendar.timegm((2026, 12, 3, 9, 20, 19)) * 10**9 + 500000000)')
got2=$(json_get "$T/w.json" "[m['wall_ns'] for m in j['markers'] if m['text'].startswith('before ')][0]")
check "--wallclock: the matching marker is at the given time ($want)" '[ "$got2" = "$want" ]'
check "--wallclock: every marker shifted by the same offset" '[ "$got" = True ]'
printf '# tracer: nop\n#\n              sh-96      [000] .....     3.781262: tracing_mark_write: red\033[31malert\n              sh-96      [000] .....     3.781300: tracing_mark_write: ftlens-wallclock: 1764753619.000000000\n' >"$T/esc.txt"
"$FTLENS" markers "$T/esc.txt" >"$T/esc.out"
check "text shows an escape as \\x1b, never the byte" \
	'! grep -q "$(printf "\033")" "$T/esc.out" && grep -q "red\\\\x1b\\[31malert" "$T/esc.out"'
"$FTLENS" markers --format json "$T/esc.txt" >"$T/esc.json"
check "an ftlens-wallclock marker anchors wall time" \
	'[ "$(json_get "$T/esc.json" "j['\''markers'\''][0]['\''wall'\'']")" = "2025-12-03T09:20:18.999962000Z" ]'

# ---- a real atrace capture (optional) --------------------------------------------
if have_input "$ATRACE" 5; then
	want=$(grep -c 'tracing_mark_write: ' "$ATRACE")
	"$FTLENS" markers --format json "$ATRACE" >"$T/a.json"
	check "atrace: json lists every marker ($want)" \
		'[ "$(json_get "$T/a.json" "len(j['\''markers'\''])")" = "$want" ]'
	want=$(awk '/trace_event_clock_sync: realtime_ts=/ {
		for (i = 1; i <= NF; i++) if ($i == "tracing_mark_write:") t = $(i - 1)
		sub(/:$/, "", t); split(t, p, ".")
		sub(/.*realtime_ts=/, "")
		printf "%.0f\n", $0 * 1000000 - (p[1] * 1000000000 + p[2] * 1000); exit }' "$ATRACE")
	check "atrace: wall offset from realtime_ts ($want, awk)" \
		'[ "$(json_get "$T/a.json" "j['\''wall_offset_ns'\'']")" = "$want" ]'
	"$FTLENS" markers --format csv "$ATRACE" >"$T/a.csv"
	want=$(grep -c 'tracing_mark_write: ' "$ATRACE")
	check "atrace: csv has every marker ($want)" \
		'[ "$(py '\''import csv,sys; print(len(list(csv.DictReader(open(sys.argv[1], newline="")))))'\'' "$T/a.csv")" = "$want" ]'
	want=$(grep -c 'tracing_mark_write: B|' "$ATRACE")
	"$FTLENS" markers --format json --span '^B\|' '^E$' "$ATRACE" >"$T/ab.json"
	check "atrace: B|...|E spans ($want, grep), none unmatched" \
		'[ "$(json_get "$T/ab.json" "(len(j['\''spans'\'']), j['\''unmatched_starts'\''], j['\''unmatched_ends'\''])")" = "($want, 0, 0)" ]'
	"$FTLENS" markers --width 100 --span '^B\|' '^E$' "$ATRACE" >"$T/a.txt"
	check "atrace: text at --width 100 fits 100 columns" \
		'[ "$(awk '\''{ if (length($0) > m) m = length($0) } END { print m + 0 }'\'' "$T/a.txt")" -le 100 ]'
fi
finish
