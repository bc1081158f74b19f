#!/bin/sh
# ftlens split --per-cpu: on the rig's same-run captures the files it writes
# hold the same lines as the kernel's own per_cpu/cpuN/trace; an events
# trace splits like awk splits it by the [00N] column; and failures leave
# the output directory as it was.
. "$(dirname "$0")/lib.sh"
prereq PYTHON
make_tmpdir

# event lines of a function_graph file (the oracle's view of it)
fg_events() { grep -E '^ *[0-9]+\) ' "$1"; }

# --- function_graph: against the kernel's per-CPU files ---------------------
for d in fgraph-basic fgraph-events; do
	dir=$FTL_TESTDATA/vm/$d
	if [ ! -f "$dir/trace.txt" ] || [ ! -f "$dir/trace-cpu0.txt" ]; then
		skip "$d: rig capture absent"
		continue
	fi
	out=$T/$d
	if ! "$FTLENS" split --per-cpu -o "$out" "$dir/trace.txt" 2>"$T/err"; then
		not_ok "$d: split ($(cat "$T/err"))"
		continue
	fi
	ok "$d: split"
	for c in 0 1; do
		[ -f "$dir/trace-cpu$c.txt" ] || { skip "$d: no trace-cpu$c.txt"; continue; }
		fg_events "$out/cpu$c/trace" >"$T/got"
		fg_events "$dir/trace-cpu$c.txt" >"$T/want"
		check "$d: cpu$c event lines == the kernel's per_cpu/cpu$c/trace ($(wc -l <"$T/want") lines)" \
			'cmp -s "$T/got" "$T/want"'
		# headers and task-switch separators too: the whole file
		check "$d: cpu$c/trace is byte-identical to the kernel's file" \
			'cmp -s "$out/cpu$c/trace" "$dir/trace-cpu$c.txt"'
	done
	n_dirs=$(ls "$out" | wc -l)
	n_cpus=$(fg_events "$dir/trace.txt" | sed 's/).*//' | sort -u | wc -l)
	check "$d: one directory per CPU seen ($n_cpus)" '[ "$n_dirs" -eq "$n_cpus" ]'
done

# --- an events trace: against awk splitting by the [00N] column ------------
ev=$FTL_TESTDATA/vm/events/default.txt
if [ -f "$ev" ]; then
	mkdir "$T/awk"
	awk -v dir="$T/awk" '
		/^ *#/ { next }
		/^[ \t]*$/ { next }
		match($0, /\[[0-9]+\] /) { c = substr($0, RSTART + 1, RLENGTH - 3) + 0; print > (dir "/" c); n[c]++ }
		END { for (c in n) print c, n[c] > (dir "/counts") }' "$ev"
	sort -n "$T/awk/counts" | tr '\n' ' ' >"$T/awk/want"
	if "$FTLENS" split --per-cpu -o "$T/ev" --format json "$ev" >"$T/ev.json" 2>"$T/err"; then
		ok "events: split"
		same=yes
		for f in "$T"/awk/[0-9]*; do
			c=${f##*/}
			grep -v '^ *#' "$T/ev/cpu$c/trace" | cmp -s - "$f" || same="no (cpu$c)"
		done
		check "events: each cpuN/trace's lines == awk's split: $same" '[ "$same" = yes ]'
		grep '^ *#' "$ev" >"$T/hdr"
		check "events: every file starts with the input's header" \
			'for f in "$T/ev"/cpu*/trace; do head -n "$(wc -l <"$T/hdr")" "$f" | cmp -s - "$T/hdr" || exit 1; done'
		got=$(json_get "$T/ev.json" "' '.join('%d %d' % (r['cpu'], r['event_lines']) for r in j['files'])")
		check "events: --format json summary counts ($got) == awk's ($(cat "$T/awk/want"))" \
			'[ "$got " = "$(cat "$T/awk/want")" ]'
	else
		not_ok "events: split ($(cat "$T/err"))"
	fi
else
	skip "events/default.txt absent"
fi

# --- refusals and failures ---------------------------------------------------
in=$ev
[ -f "$in" ] || in=$FTL_TESTDATA/vm/fgraph-basic/trace.txt
if [ -f "$in" ]; then
	"$FTLENS" split --per-cpu "$in" >/dev/null 2>"$T/err"
	rc=$?
	check "no -o: usage error (exit $rc: $(cat "$T/err"))" \
		'[ "$rc" -eq 2 ] && grep -q -- "-o" "$T/err"'

	echo keep >"$T/afile"
	"$FTLENS" split --per-cpu -o "$T/afile" "$in" >/dev/null 2>"$T/err"
	rc=$?
	check "-o names a file: refused (exit $rc: $(cat "$T/err")), the file untouched" \
		'[ "$rc" -eq 2 ] && [ "$(cat "$T/afile")" = keep ]'

	mkdir -p "$T/old/cpu0" "$T/old/cpu1"
	echo mine0 >"$T/old/cpu0/trace"
	echo mine1 >"$T/old/cpu1/trace"
	echo other >"$T/old/notes"
	(cd "$T/old" && ls -AR) >"$T/before"
	"$FTLENS" split --per-cpu -o "$T/old" "$in" >/dev/null 2>"$T/err"
	rc=$?
	(cd "$T/old" && ls -AR) >"$T/after"
	check "existing cpuN/trace without --force: refused (exit $rc: $(cat "$T/err"))" \
		'[ "$rc" -ne 0 ] && grep -q -- "--force" "$T/err"'
	check "... and the directory is as it was (no temp files, contents kept)" \
		'cmp -s "$T/before" "$T/after" && [ "$(cat "$T/old/cpu0/trace")" = mine0 ] && [ "$(cat "$T/old/cpu1/trace")" = mine1 ]'
	"$FTLENS" split --per-cpu --force -o "$T/old" "$in" 2>"$T/err"
	rc=$?
	check "--force overwrites (exit $rc) and keeps other files" \
		'[ "$rc" -eq 0 ] && [ "$(cat "$T/old/notes")" = other ] && ! grep -q mine0 "$T/old/cpu0/trace"'

	cp "$T/old/cpu0/trace" "$T/self-copy"
	"$FTLENS" split --per-cpu --force -o "$T/old" "$T/old/cpu0/trace" >/dev/null 2>"$T/err"
	rc=$?
	check "an output that is the input is refused even with --force (exit $rc)" \
		'[ "$rc" -ne 0 ] && cmp -s "$T/old/cpu0/trace" "$T/self-copy"'
else
	skip "no input for the refusal checks"
	skip "no input for the refusal checks"
	skip "no input for the refusal checks"
	skip "no input for the refusal checks"
	skip "no input for the refusal checks"
	skip "no input for the refusal checks"
fi

nocpu=$FTL_TESTDATA/vm/fgraph-options/nocpu.txt
if [ -f "$nocpu" ]; then
	line=$(awk '!/^ *#/ && !/^[ \t]*$/ { print NR; exit }' "$nocpu")
	"$FTLENS" split --per-cpu -o "$T/nocpu/out" "$nocpu" >/dev/null 2>"$T/err"
	rc=$?
	check "a line without CPU: error naming file and line $line (exit $rc: $(cat "$T/err"))" \
		'[ "$rc" -eq 1 ] && grep -q "nocpu.txt" "$T/err" && grep -q "line $line has no CPU" "$T/err"'
	check "... and the directories it would have made are gone" '[ ! -e "$T/nocpu" ]'
else
	skip "fgraph-options/nocpu.txt absent"
	skip "fgraph-options/nocpu.txt absent"
fi

# A trace.dat with kernel stacks (a live capture with the stacktrace
# option; the corpus's trace.dat files hold none): split writes it as text
# and every stack reads back with every frame, none cut at 8, none dropped.
if have_prereq TRACEFS; then
	tracefs_top_lock
	"$FTLENS" record -e sched -e timer -O stacktrace -o "$T/stacks.dat" -- \
		sh -c 'ls -R /usr/share/doc >/dev/null; sleep 0.05' 2>"$T/err" || diag "record: $(tail -2 "$T/err")"
	"$FTLENS" split --per-cpu -o "$T/stacks" "$T/stacks.dat" >/dev/null 2>"$T/err"
	stacks() { "$FTLENS" dump "$1" | awk '$6 == "kernel_stack:" { $2 = $2; print }' | sort; }
	stacks "$T/stacks.dat" >"$T/s.a"
	stacks "$T/stacks" >"$T/s.b"
	n=$(wc -l <"$T/s.a")
	deep=$(awk '{ sub(/frames=/, "", $7); if ($7 > 8) n++ } END { print n + 0 }' "$T/s.a")
	check "split of a trace.dat with kernel stacks: all $n stacks keep every frame ($deep deeper than 8)" \
		'[ "$n" -gt 0 ] && [ "$deep" -gt 0 ] && cmp -s "$T/s.a" "$T/s.b"'
else
	skip "split of a trace.dat with kernel stacks: missing $prereq_why"
fi

plan "$tap_n"
finish
