#!/bin/sh
# libftlens-marker on live tracefs: examples/simple_trace writes its markers
# into a private instance (FTLENS_TRACE_MARKER, as `ftlens record` tells a
# traced program), switches that instance's tracing off, and `ftlens
# markers` finds the markers in order with the wall-clock anchor understood.
# Then the no-op paths: no trace_marker, and one the program may not write.
# Oracles come from the trace text (grep, awk, python) and from `date`.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
prereq PYTHON TRACE_MARKER
ST=$top_builddir/examples/simple_trace
[ -x "$ST" ] || skip_all "examples/simple_trace is not built"
make_tmpdir
inst=ftlens-t5101-$$
I=$TR/instances/$inst
mkdir "$I" 2>/dev/null || skip_all "cannot create a tracefs instance in $TR"
trap 'rmdir "$I" 2>/dev/null; rm -rf "$T"' EXIT
tracefs_top_lock
plan 22

echo 256 >"$I/buffer_size_kb"
echo 'sched:*' >"$I/set_event"
check "sched events enabled in the private instance" 'grep -q '\''^sched:sched_switch$'\'' "$I/set_event"'
top_on=$(cat "$TR/tracing_on")
L=t5101-$$
t0=$(date +%s)
FTLENS_TRACE_MARKER=$I/trace_marker "$ST" "$L" >"$T/out" 2>"$T/err"
rc=$?
t1=$(date +%s)
check "simple_trace exits 0" '[ $rc -eq 0 ]'
check "it wrote to the instance's trace_marker" 'grep -q "markers go to $I/trace_marker" "$T/err"'
check "it switched off the instance's tracing_on" '[ "$(cat "$I/tracing_on")" = 0 ]'
check "the top-level tracing_on is untouched" '[ "$(cat "$TR/tracing_on")" = "$top_on" ]'
cat "$I/trace" >"$T/trace.txt"
check "the instance recorded sched_switch events" 'grep -q '\'' sched_switch: '\'' "$T/trace.txt"'
check "no marker went to the top-level buffer" '! grep -q "$L" "$TR/trace"'

# ---- the markers, in order, as the trace text has them -------------------
grep -o 'tracing_mark_write: .*' "$T/trace.txt" | sed 's/^tracing_mark_write: //' >"$T/want"
printf '%s\n' "before $L" "$L round 1" "$L round 2" "$L round 3" "after $L" >"$T/want-tail"
check "the trace has the wall-clock anchor, then the five markers (grep)" \
	'grep -q "^ftlens-wallclock: [0-9]*\.[0-9]\{9\}$" "$T/want" && [ "$(sed 1d "$T/want")" = "$(cat "$T/want-tail")" ]'
"$FTLENS" markers --format json "$T/trace.txt" >"$T/m.json"
check "ftlens markers lists them in the same order" \
	'[ "$(json_get "$T/m.json" "'\''\n'\''.join(m['\''text'\''] for m in j['\''markers'\''])")" = "$(cat "$T/want")" ]'
check "marker times never go back" \
	'[ "$(json_get "$T/m.json" "all(a['\''ts_ns'\''] <= b['\''ts_ns'\''] for a, b in zip(j['\''markers'\''], j['\''markers'\''][1:]))")" = True ]'
check "the wall clock comes from the anchor" \
	'[ "$(json_get "$T/m.json" "j['\''wall_offset_ns'\''] is not None")" = True ]'
# the anchor's own wall time is the value in its text
want=$(head -n 1 "$T/want" | awk '{ split($2, p, "."); printf "%s%s\n", p[1], p[2] }')
check "the anchor marker sits at the wall time it wrote ($want ns)" \
	'[ "$(json_get "$T/m.json" "j['\''markers'\''][0]['\''wall_ns'\'']")" = "$want" ]'
got=$(json_get "$T/m.json" "[m['wall_ns'] // 10**9 for m in j['markers'] if m['text'] == 'before $L'][0]")
check "'before $L' is within the run's wall time [$t0, $t1]" \
	'[ "$got" -ge "$t0" -a "$got" -le "$t1" ]'
"$FTLENS" markers "$T/trace.txt" >"$T/m.txt"
check "text: six markers, wall clock from the anchor" \
	'grep -q "^6 markers" "$T/m.txt" && grep -q "^wall clock (UTC) from the marker at line" "$T/m.txt"'

# ---- a span between before/after, and --wallclock overriding the anchor ----
"$FTLENS" markers --format json --span 'before (.*)' 'after \1' "$T/trace.txt" >"$T/s.json"
dur=$(python3 -c '
import re, sys
ts = {}
for line in open(sys.argv[1]):
    m = re.search(r"(\d+)\.(\d+): tracing_mark_write: (before|after) ", line)
    if m:
        ts[m.group(3)] = int(m.group(1)) * 10**9 + int(m.group(2).ljust(9, "0"))
print(ts["after"] - ts["before"])' "$T/trace.txt")
check "one span of $dur ns (python), none unmatched" \
	'[ "$(json_get "$T/s.json" "(len(j['\''spans'\'']), j['\''spans'\''][0]['\''duration_ns'\''], j['\''unmatched_starts'\''], j['\''unmatched_ends'\''])")" = "(1, $dur, 0, 0)" ]'
check "sched events inside the span" \
	'[ "$(json_get "$T/s.json" "sum(r['\''events'\''] for r in j['\''span_cpus'\''])")" -gt 0 ]'
"$FTLENS" markers --format json --wallclock "before $L=2030-01-02T03:04:05Z" "$T/trace.txt" >"$T/w.json"
check "--wallclock puts 'before $L' at the given time" \
	'[ "$(json_get "$T/w.json" "[m['\''wall'\''] for m in j['\''markers'\''] if m['\''text'\''] == '\''before $L'\''][0]")" = 2030-01-02T03:04:05.000000000Z ]'

# ---- no-op paths: exit 0, nothing written ----------------------------------
FTLENS_TRACE_MARKER=/nonexistent/trace_marker "$ST" "$L-none" >/dev/null 2>"$T/err"
rc=$?
check "no trace_marker: exit 0, says markers are off" \
	'[ "$rc" -eq 0 ] && grep -q "No such file or directory); markers are off" "$T/err"'
if command -v setpriv >/dev/null 2>&1; then
	echo 1 >"$I/tracing_on"
	FTLENS_TRACE_MARKER=$I/trace_marker setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$ST" "$L-nobody" >/dev/null 2>"$T/err"
	rc=$?
	check "a user who may not write it: exit 0, says why" \
		'[ "$rc" -eq 0 ] && grep -q "Permission denied); markers are off" "$T/err"'
	check "that user's markers and tracing_off did not happen" \
		'! grep -q "$L-nobody" "$I/trace" && [ "$(cat "$I/tracing_on")" = 1 ]'
	env -u FTLENS_TRACE_MARKER -u FTLENS_TRACEFS setpriv --reuid=65534 --regid=65534 \
		--clear-groups "$ST" "$L-search" >/dev/null 2>"$T/err"
	rc=$?
	check "searching the mount table as that user: exit 0, markers off" \
		'[ "$rc" -eq 0 ] && grep -q "markers are off" "$T/err"'
	check "the top-level tracing_on is still untouched" '[ "$(cat "$TR/tracing_on")" = "$top_on" ]'
else
	for i in 1 2 3 4; do ok "# SKIP setpriv missing"; done
fi
finish
