#!/bin/sh
# Data quality as `ftlens info --format json` shows it under "quality":
# per-CPU first/last timestamps and the complete window against awk, LOST
# lines, "buffer started" lines and the header's entry counts against grep
# and sed, on rig captures and kernel-doc samples.
. "$(dirname "$0")/lib.sh"
prereq PYTHON
make_tmpdir

q() { json_get "$1" "$2"; }

# spans_oracle KIND FILE: "cpu first_ns last_ns" per CPU with timestamps,
# from the timestamp column as printed.
spans_oracle() {
	awk -v kind="$1" '
		function ns(s,   a, f) {
			split(s, a, ".")
			f = substr(a[2] "000000000", 1, 9)
			return (a[1] f) + 0
		}
		function see(c, t) {
			if (!(c in first) || t < first[c]) first[c] = t
			if (!(c in last) || t > last[c]) last[c] = t
		}
		/^ *#/ { next }
		kind == "events" && match($0, /\[[0-9]+\] [^ ]+ +[0-9]+\.[0-9]+:/) {
			s = substr($0, RSTART, RLENGTH)
			split(s, f, /[][ :]+/)
			see(f[2] + 0, ns(f[4]))
		}
		kind == "latency" && match($0, /-[0-9]+ +[0-9]+[^ ]* +[0-9]+us/) {
			s = substr($0, RSTART, RLENGTH)
			n = split(s, f, / +/)
			c = f[2]; sub(/[^0-9].*/, "", c)
			t = f[3]; sub(/us$/, "", t)
			see(c + 0, t * 1000)
		}
		kind == "fgraph" && match($0, /^ *[0-9]+\.[0-9]+ \| +[0-9]+\)/) {
			s = substr($0, RSTART, RLENGTH)
			split(s, f, /[ |)]+/)
			i = (f[1] == "") ? 2 : 1
			see(f[i + 1] + 0, ns(f[i]))
		}
		END { for (c in first) printf "%d %.0f %.0f\n", c, first[c], last[c] }' "$2" | sort -n
}

# window from the spans: max(first) .. min(last), "None None" when empty
window_oracle() {
	awk 'NR == 1 || $2 > s { s = $2 } NR == 1 || $3 < e { e = $3 }
	     END { if (NR && s <= e) printf "%.0f %.0f\n", s, e; else print "None None" }' "$1"
}

json_spans="'\\n'.join('%d %d %d' % (c['cpu'], c['first_ts_ns'], c['last_ts_ns']) for c in j['quality']['cpus'] if c['first_ts_ns'] is not None)"
json_window="'%s %s' % (j['quality']['window_start_ns'], j['quality']['window_end_ns'])"

# check_spans KIND FILE: per-CPU spans and the window against the oracle;
# without timestamps, null spans, no window and a caveat saying so.
check_spans() {
	kind=$1
	f=$2
	name=${f#"$FTL_TESTDATA"/}
	name=${name#"$FTL_REAL_DATA"/}
	if ! "$FTLENS" info --format json "$f" >"$T/j" 2>"$T/err"; then
		not_ok "$name: info ($(cat "$T/err"))"
		not_ok "$name: window"
		return
	fi
	spans_oracle "$kind" "$f" >"$T/want"
	if [ -s "$T/want" ]; then
		q "$T/j" "$json_spans" >"$T/got"
		check "$name: per-CPU first/last == awk ($(wc -l <"$T/want") CPUs)" 'cmp -s "$T/got" "$T/want"'
		w=$(window_oracle "$T/want")
		got=$(q "$T/j" "$json_window")
		check "$name: complete window ($got) == max(first)..min(last) ($w)" '[ "$got" = "$w" ]'
	else
		got=$(q "$T/j" "[c['first_ts_ns'] for c in j['quality']['cpus'] if c['first_ts_ns'] is not None]")
		check "$name: no timestamps: no spans ($got)" '[ "$got" = "[]" ]'
		got=$(q "$T/j" "'%s %s' % (j['quality']['window_start_ns'], any('no timestamps' in c for c in j['quality']['caveats']))")
		check "$name: no timestamps: no window, and a caveat says so ($got)" '[ "$got" = "None True" ]'
	fi
}

# --- rig captures: function_graph options and events ------------------------
found=
for f in "$FTL_TESTDATA"/vm/fgraph-options/*.txt; do
	[ -f "$f" ] || continue
	case $f in *missing-options.txt | *options-available.txt | */available_tracers.txt | \
		*/cmdline.txt | */run-info.txt | */trace_clock.txt | */trace_options.txt | */uname.txt)
		continue ;;
	esac
	found=1
	check_spans fgraph "$f"
done
[ -n "$found" ] || { skip "fgraph-options captures absent"; skip "fgraph-options captures absent"; }
found=
for n in default record-tgid stacktrace latency; do
	f=$FTL_TESTDATA/vm/events/$n.txt
	[ -f "$f" ] || continue
	found=1
	case $n in latency) check_spans latency "$f" ;; *) check_spans events "$f" ;; esac
done
[ -n "$found" ] || { skip "events captures absent"; skip "events captures absent"; }

# --- a LOST line in the middle of CPU 1 (a copy of the events capture) -------
ev=$FTL_TESTDATA/vm/events/default.txt
if [ -f "$ev" ]; then
	n1=$(grep -c '\[001\] ' "$ev")
	awk -v k=$((n1 / 2)) '/\[001\] / && ++seen == k { print "CPU:1 [LOST 42 EVENTS]" } { print }' \
		"$ev" >"$T/lost.txt"
	# the window starts at the first CPU 1 event after the LOST line, unless
	# a CPU's first event is later still
	resume=$(awk '/LOST/ { l = 1; next } l && match($0, /\[001\] [^ ]+ +[0-9]+\.[0-9]+:/) {
			s = substr($0, RSTART, RLENGTH); split(s, f, /[][ :]+/); split(f[4], a, ".")
			printf "%.0f\n", (a[1] substr(a[2] "000000000", 1, 9)) + 0; exit }' "$T/lost.txt")
	spans_oracle events "$T/lost.txt" >"$T/spans"
	w=$(window_oracle "$T/spans")
	ws=${w%% *}
	[ "$resume" -gt "$ws" ] && ws=$resume
	want="$ws ${w#* }"
	"$FTLENS" info --format json "$T/lost.txt" >"$T/j"
	got=$(q "$T/j" "$json_window")
	check "LOST mid-CPU: window starts after it ($got == $want)" '[ "$got" = "$want" ]'
	got=$(q "$T/j" "[(c['cpu'], c['lost_lines'], c['lost_events']) for c in j['quality']['cpus'] if c['lost_lines']]")
	check "LOST mid-CPU: counted on CPU 1 ($got)" '[ "$got" = "[(1, 1, 42)]" ]'
	got=$(q "$T/j" "[c for c in j['quality']['caveats'] if c.startswith('CPU 1 lost 42 events')]")
	check "LOST mid-CPU: a caveat says where ($got)" 'echo "$got" | grep -q "lost.txt:"'
	"$FTLENS" info "$T/lost.txt" >"$T/text"
	check "text: a 'Data quality' block with the caveat" \
		'grep -q "^Data quality:" "$T/text" && grep -q "CPU 1 lost 42 events" "$T/text"'
	long=$(sed -n '/^Data quality:/,$p' "$T/text" | awk 'length > 100' | wc -l)
	check "text: the block fits 100 columns ($long longer lines)" '[ "$long" -eq 0 ]'
	# the header says 449/449: nothing overwritten
	inb=$(sed -n 's/^# entries-in-buffer\/entries-written: \([0-9]*\)\/\([0-9]*\).*/\1/p' "$ev")
	wr=$(sed -n 's/^# entries-in-buffer\/entries-written: \([0-9]*\)\/\([0-9]*\).*/\2/p' "$ev")
	got=$(q "$T/j" "j['quality']['evicted']")
	check "events header: evicted ($got) == written - in_buffer ($wr - $inb)" '[ "$got" = "$((wr - inb))" ]'
else
	for i in 1 2 3 4 5 6; do skip "events/default.txt absent"; done
fi

# --- the rig's overflowed capture ------------------------------------------
ov=$FTL_TESTDATA/vm/raw/raw-overflow.txt
if [ -f "$ov" ]; then
	"$FTLENS" info --format json "$ov" >"$T/j"
	inb=$(sed -n 's/^# entries-in-buffer\/entries-written: \([0-9]*\)\/\([0-9]*\).*/\1/p' "$ov")
	wr=$(sed -n 's/^# entries-in-buffer\/entries-written: \([0-9]*\)\/\([0-9]*\).*/\2/p' "$ov")
	got=$(q "$T/j" "j['quality']['evicted']")
	check "raw-overflow: evicted ($got) == $wr - $inb from the header" '[ "$got" = "$((wr - inb))" ]'
	lost=$(grep -c 'LOST' "$ov")
	got=$(q "$T/j" "sum(c['lost_lines'] for c in j['quality']['cpus'])")
	check "raw-overflow: LOST lines ($got) == grep ($lost)" '[ "$got" = "$lost" ]'
	want=$(grep -o '^##### CPU [0-9]* buffer started' "$ov" | awk '{ print $3 }' | sort -n | tr '\n' ' ')
	got=$(q "$T/j" "''.join('%d ' % c['cpu'] for c in j['quality']['cpus'] if c['buffer_started'])")
	check "raw-overflow: buffer started on CPUs ($got) == grep ($want)" '[ "$got" = "$want" ]'
	spans_oracle events "$ov" >"$T/spans"
	w=$(window_oracle "$T/spans")
	got=$(q "$T/j" "$json_window")
	check "raw-overflow: window ($got) == max(first)..min(last) ($w)" '[ "$got" = "$w" ]'
	got=$(q "$T/j" "sum(1 for c in j['quality']['caveats'] if 'overwritten' in c)")
	check "raw-overflow: caveats say events were overwritten ($got)" '[ "$got" -ge 2 ]'
else
	for i in 1 2 3 4 5; do skip "raw/raw-overflow.txt absent"; done
fi

# --- kernel documentation samples ------------------------------------------
f=$FTL_REAL_DATA/function/kdoc5.4_function_lost_events_trace_pipe.txt
if have_input "$f" 4; then
	"$FTLENS" info --format json "$f" >"$T/j"
	want=$(sed -n 's/^ *CPU:\([0-9]*\) \[LOST \([0-9]*\) EVENTS\]/\1 1 \2/p' "$f")
	got=$(q "$T/j" "' '.join('%d %d %d' % (c['cpu'], c['lost_lines'], c['lost_events']) for c in j['quality']['cpus'] if c['lost_lines'])")
	check "kdoc LOST: cpu, LOST lines, events ($got) == sed ($want)" '[ "$got" = "$want" ]'
	resume=$(awk '/LOST/ { l = 1; next } l && match($0, /\[[0-9]+\] [^ ]+ +[0-9]+\.[0-9]+:/) {
			s = substr($0, RSTART, RLENGTH); split(s, f, /[][ :]+/); split(f[4], a, ".")
			printf "%.0f\n", (a[1] substr(a[2] "000000000", 1, 9)) + 0; exit }' "$f")
	got=$(q "$T/j" "j['quality']['window_start_ns']")
	check "kdoc LOST: window starts at the event after it ($got == $resume)" '[ "$got" = "$resume" ]'
	check_spans events "$f"
fi

f=$FTL_REAL_DATA/function/kdoc5.4_function_annotate_cpu_buffer_started.txt
if have_input "$f" 3; then
	"$FTLENS" info --format json "$f" >"$T/j"
	want=$(grep -o '##### CPU [0-9]* buffer started' "$f" | awk '{ print $3 }' | sort -n | tr '\n' ' ')
	got=$(q "$T/j" "''.join('%d ' % c['cpu'] for c in j['quality']['cpus'] if c['buffer_started'])")
	check "kdoc annotate: buffer started on CPUs ($got) == grep ($want)" '[ "$got" = "$want" ]'
	check_spans events "$f"
fi

f=$FTL_REAL_DATA/function/kdoc5.4_function_header_entries_lost.txt
if have_input "$f"; then
	"$FTLENS" info --format json "$f" >"$T/j"
	inb=$(sed -n 's/^ *# entries-in-buffer\/entries-written: \([0-9]*\)\/\([0-9]*\).*/\1/p' "$f")
	wr=$(sed -n 's/^ *# entries-in-buffer\/entries-written: \([0-9]*\)\/\([0-9]*\).*/\2/p' "$f")
	got=$(q "$T/j" "j['quality']['evicted']")
	check "kdoc header: evicted ($got) == $wr - $inb" '[ "$got" = "$((wr - inb))" ]'
fi

plan "$tap_n"
finish
