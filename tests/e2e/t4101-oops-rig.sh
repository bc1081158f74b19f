#!/bin/sh
# `ftlens oops` on the rig's real crash (tests/data/vm/oops/console.log: a
# 6.1 kernel under qemu, function_graph + sched events + two markers, then
# echo c > /proc/sysrq-trigger with ftrace_dump_on_oops; CRLF as captured).
# The expected values come from the log itself (awk/grep oracles), not from
# ftlens.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
prereq PYTHON

log=$FTL_TESTDATA/vm/oops/console.log
[ -r "$log" ] || skip_all "no $log"
make_tmpdir
tr -d '\r' <"$log" >"$T/log"

plan 17

"$FTLENS" oops --format json "$log" >"$T/oops.json" 2>"$T/err"
rc=$?
check "oops --format json reads the CRLF capture (exit $rc)" 'test "$rc" -eq 0 -a ! -s "$T/err"'
j() { json_get "$T/oops.json" "$1"; }
r="j['logs'][0]['reports'][0]"
d="j['logs'][0]['dumps'][0]"

check "one report, a sysrq-triggered panic" \
	'[ "$(j "len(j['\''logs'\''][0]['\''reports'\'']), $r['\''kind'\''], $r['\''title'\'']")" = \
	"(1, '\''panic'\'', '\''kernel panic: sysrq triggered crash'\'')" ]'

# the task line as the kernel printed it
want=$(sed -n 's/.*\] CPU: \([0-9]*\) PID: \([0-9]*\) Comm: \([^ ]*\) .*/(\1, \2, '"'"'\3'"'"')/p' "$T/log" | head -n 1)
got=$(j "($r['cpu'], $r['pid'], $r['comm'])")
check "CPU, PID and comm as on the CPU: line ($got)" '[ "$got" = "$want" ]'
rel=$(sed -n 's/.*Not tainted \([^ ]*\) #.*/\1/p' "$T/log" | head -n 1)
check "kernel release $rel, not tainted" \
	'[ "$(j "($r['\''release'\''], $r['\''tainted'\''])")" = "('\''$rel'\'', False)" ]'

# compressed captures read the same
same=yes
for z in gzip zstd; do
	command -v "$z" >/dev/null 2>&1 || continue
	"$z" -c "$log" >"$T/log.$z"
	"$FTLENS" oops --format json "$T/log.$z" >"$T/$z.json" 2>/dev/null &&
		[ "$(json_get "$T/$z.json" "$r['title'], $d['trace_lines']" 2>/dev/null)" = \
		"$(j "$r['title'], $d['trace_lines']")" ] || same="no ($z)"
done
check "gzip and zstd captures read the same: $same" '[ "$same" = yes ]'

# the call trace: sysrq_handle_crash is a reliable frame, '?' frames are not
reliable=$(sed -n '/Call Trace:/,/<\/TASK>/p' "$T/log" | grep -c '^\[ *[0-9.]*\]  [A-Za-z_][A-Za-z0-9_.]*+0x')
unreliable=$(sed -n '/Call Trace:/,/<\/TASK>/p' "$T/log" | grep -c '^\[ *[0-9.]*\]  ? ')
got=$(j "[f['function'] for f in $r['call_trace']['frames'] if f['reliable']]")
check "sysrq_handle_crash is a reliable frame" \
	'echo "$got" | grep -q "'\''sysrq_handle_crash'\''"'
check "$reliable reliable and $unreliable '?' frames, as printed" \
	'[ "$(j "sum(1 for f in $r['\''call_trace'\'']['\''frames'\''] if f['\''reliable'\'']), sum(1 for f in $r['\''call_trace'\'']['\''frames'\''] if not f['\''reliable'\''])")" = "($reliable, $unreliable)" ]'
check "the frames are in the <TASK> section" \
	'[ "$(j "set(f['\''section'\''] for f in $r['\''call_trace'\'']['\''frames'\''])")" = "{'\''TASK'\''}" ]'

# the dump: per-CPU trace lines counted in the log between the two rules
awk '
/Dumping ftrace buffer:/ { d = 1; next }
d == 1 && /^\[ *[0-9.]*\] ---------------------------------$/ { if (s) d = 2; else s = 1; next }
d == 1 && s && match($0, /^\[ *[0-9.]*\] +[0-9]+\) /) {
	c = substr($0, RSTART, RLENGTH); sub(/^\[[^]]*\] +/, "", c); sub(/\).*/, "", c); n[c]++
}
END { for (c in n) printf "%s %s\n", c, n[c] }' "$T/log" | sort -n >"$T/oracle"
j "'\n'.join('%d %d' % (c['cpu'], c['event_lines']) for c in $d['cpus'])" >"$T/got"
check "per-CPU trace lines of the dump match the log ($(tr '\n' ' ' <"$T/oracle"))" \
	'cmp -s "$T/oracle" "$T/got"'
check "the dump belongs to the report and was closed" \
	'[ "$(j "($d['\''report'\''], $d['\''closed'\''], $d['\''empty'\''], $d['\''unparsed_lines'\''])")" = "(1, True, False, 0)" ]'

check "the markers written in the guest, in order" \
	'[ "$(j "[m['\''text'\''] for m in $d['\''markers'\'']]")" = "['\''before crash'\'', '\''about to crash'\'']" ]'
check "the marker lines point into the log" \
	'[ "$(j "[m['\''line'\''] for m in $d['\''markers'\'']]")" = \
	"[$(grep -n '\''/\* before crash \*/'\'' "$T/log" | cut -d: -f1), $(grep -n '\''/\* about to crash \*/'\'' "$T/log" | cut -d: -f1)]" ]'

# still open on the crashing CPU: the sysrq handler, the crash handler, panic
cpu=$(j "$r['cpu']")
check "calls open on CPU $cpu at the end: __handle_sysrq > sysrq_handle_crash > panic" \
	'[ "$(j "($d['\''open_cpu'\''], [p['\''function'\''] for p in $d['\''open_path'\'']][:3])")" = \
	"($cpu, ['\''__handle_sysrq'\'', '\''sysrq_handle_crash'\'', '\''panic'\''])" ]'

# --last 3: the crashing CPU's last three lines, as the log has them
"$FTLENS" oops --format json --last 3 "$log" >"$T/last.json"
sed -n '/Dumping ftrace buffer:/,$p' "$T/log" | grep "^\[ *[0-9.]*\]  $cpu) " | tail -n 3 |
	sed 's/^\[[^]]*\] //' >"$T/last.oracle"
json_get "$T/last.json" "'\n'.join(e['text'] for c in j['logs'][0]['dumps'][0]['cpus'] if c['cpu'] == $cpu for e in c['last'])" >"$T/last.got"
check "--last 3 shows CPU $cpu's last three trace lines" 'cmp -s "$T/last.oracle" "$T/last.got"'

# --extract-trace: a text trace the other commands read
"$FTLENS" oops --extract-trace "$T/dump.txt" "$log" >"$T/x.out" 2>&1
rc=$?
check "--extract-trace writes the dump (exit $rc)" 'test "$rc" -eq 0 -a -s "$T/dump.txt"'
"$FTLENS" info --format json "$T/dump.txt" >"$T/info.json"
json_get "$T/info.json" "'\n'.join('%s %d' % kv for kv in sorted(j['cpus'].items(), key=lambda kv: int(kv[0])))" >"$T/info.got"
check "ftlens info on the extracted trace counts the same lines per CPU" 'cmp -s "$T/oracle" "$T/info.got"'
"$FTLENS" markers "$T/dump.txt" >"$T/markers.txt" && "$FTLENS" report "$T/dump.txt" >/dev/null &&
	"$FTLENS" graph sysrq_handle_crash "$T/dump.txt" >"$T/graph.txt"
check "markers, report and graph read it" \
	'grep -q "before crash" "$T/markers.txt" && grep -q "about to crash" "$T/markers.txt" && grep -q panic "$T/graph.txt"'
finish
