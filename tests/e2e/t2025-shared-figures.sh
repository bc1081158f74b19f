#!/bin/sh
# One source for the shared figures: on every bundled sample, every rig
# capture and every public sample, info, report, sched and the timeline's
# subtitle print the same lost events per CPU (unknown distinct from 0),
# events and event lines per CPU, spans and whole-trace sums, and the
# anomaly summary counts the loss once (shared_figures.py says how). The
# overrun captures (tests/data/overrun: both CPUs lost events, the input's
# statistics say how many) are checked against their statistics too.
. "$(dirname "$0")/lib.sh"
prereq PYTHON
make_tmpdir
here=$(dirname "$0")

inputs="$top_srcdir/data/sample-fgraph.txt"
inputs="$inputs $(find "$FTL_TESTDATA" -path "$FTL_TESTDATA/oops-public" -prune -o -type f \
	\( -name '*.txt' -o -name '*.dat' \) -print | grep -v -e '/oops/' -e '/stack/' \
	-e '/available_tracers.txt$' -e '/cmdline.txt$' -e '/uname.txt$' -e '/trace_clock.txt$' \
	-e '/trace_options.txt$' -e '/run-info.txt$' -e '/set_graph_function.txt$' | sort)"
inputs="$inputs $FTL_TESTDATA/overrun/text $FTL_TESTDATA/vm/raw/raw"
# the rig's overflowed raw pages, with the formats of its clean capture
if [ -d "$FTL_TESTDATA/vm/raw/raw-overflow" ]; then
	mkdir "$T/raw-overflow"
	ln -s "$FTL_TESTDATA/vm/raw/raw-overflow/per_cpu" "$T/raw-overflow/per_cpu"
	for f in events kallsyms printk_formats saved_cmdlines trace_clock; do
		ln -s "$FTL_TESTDATA/vm/raw/raw/$f" "$T/raw-overflow/$f"
	done
	inputs="$inputs $T/raw-overflow"
fi
real=""
[ -d "$FTL_REAL_DATA" ] && real=$(ls -d "$FTL_REAL_DATA"/fgraph/* "$FTL_REAL_DATA"/function/* \
	"$FTL_REAL_DATA"/events/* "$FTL_REAL_DATA"/raw/* 2>/dev/null)
n=0
for f in $inputs $real; do n=$((n + 1)); done
plan $((n + 5))
[ -n "$real" ] || skip_absent "$FTL_REAL_DATA"

name() {
	case $1 in
	"$FTL_TESTDATA"/*) echo "tests/data/${1#"$FTL_TESTDATA"/}" ;;
	"$T"/*) echo "tests/data/vm/raw/${1#"$T"/}" ;;
	*) shared_name "$1" ;;
	esac
}

# agree FILE: the figures of FILE agree in every view
agree() {
	f=$1
	if ! "$FTLENS" info --format json "$f" >"$T/i.json" 2>"$T/err"; then
		skip "$(name "$f"): info does not read it ($(head -c 120 "$T/err"))"
		return
	fi
	"$FTLENS" report --format json "$f" >"$T/r.json" 2>/dev/null
	# sched and the timeline where they have something to say: scheduler
	# events, or lost events (the machine is shared: 141 inputs)
	s=-
	if [ "$(json_get "$T/i.json" "bool(j['lost_lines'] or j['lost_events'] != 0 or
		any(k.startswith('sched_') for k in j['event_names']))")" = True ]; then
		s="$T/s.json"
		"$FTLENS" sched --format json "$f" >"$s" 2>/dev/null || s=-
	fi
	svg="$T/t.svg"
	rm -f "$svg"
	[ "$s" != - ] && "$FTLENS" timeline -o "$svg" "$f" 2>/dev/null || svg=-
	python3 "$here/shared_figures.py" "$T/i.json" "$T/r.json" "$s" "$svg" >"$T/out" 2>&1
	check "$(name "$f"): $(tail -n 1 "$T/out")" '[ $? -eq 0 ]'
	grep -v '^ok ' "$T/out" | head -5 | while read -r l; do diag "$l"; done
}
for f in $inputs $real; do agree "$f"; done

# the overrun captures against the statistics they carry
O=$FTL_TESTDATA/overrun
q() { json_get "$1" "$2"; }
"$FTLENS" info --format json "$O/overrun.dat" >"$T/o.json"
want=$(strings "$O/overrun.dat" | awk '/^CPU: / { c = $2 } /^overrun:/ { printf "%d:%d ", c, $2 }')
got=$(q "$T/o.json" "' '.join('%d:%d' % (c['cpu'], c['lost_events']) for c in j['cpu_details'])")
check "overrun.dat: lost events per CPU ($got) == its CPU stats ($want)" '[ "$got " = "$want" ]'
check "overrun.dat: both CPUs lost events, counted once in the anomaly summary" \
	'[ "$(q "$T/o.json" "(j[\"diagnostics\"][\"lost_events\"][\"amount\"], j[\"lost_events\"])")" = "(8517, 8517)" ]'
"$FTLENS" info --format json "$O/text" >"$T/p.json"
want=$(for c in 0 1; do printf '%d:%d ' $c "$(sed -n 's/^overrun: //p' "$O/text/per_cpu/cpu$c/stats")"; done)
got=$(q "$T/p.json" "' '.join('%d:%d' % (c['cpu'], c['lost_events']) for c in j['cpu_details'])")
check "per_cpu text: lost events per CPU ($got) == per_cpu/cpuN/stats ($want)" '[ "$got " = "$want" ]'
# each per-CPU header gives the whole buffer's 554/5875: no false anomaly
check "per_cpu text: no 'header counts more entries' anomaly" \
	'[ "$(q "$T/p.json" "\"entries_short\" in j[\"diagnostics\"]")" = False ]'
check "per_cpu text: overwritten ($(q "$T/p.json" "j['quality']['evicted']")) == 5875 - 554" \
	'[ "$(q "$T/p.json" "j[\"quality\"][\"evicted\"]")" = 5321 ]'
finish
