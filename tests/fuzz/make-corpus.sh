#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Makes the seed corpora in tests/fuzz/corpus/ from the project's own
# fixtures (tests/data/vm, data/): short pieces, since a fuzzer mutates
# small inputs faster and the pieces cover the same parser paths. The
# committed corpora are these seeds plus what the campaign (bench/fuzz.sh)
# added, minimized with libFuzzer's -merge=1 (README.md says how).
# usage: tests/fuzz/make-corpus.sh BUILD_DIR   (a configured build: ftlens,
#        tests/fuzz/seed-tracedat are made there; trace-cmd makes the report text)
set -eu
build=$(cd "${1:?usage: make-corpus.sh BUILD_DIR}" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
out=$src/tests/fuzz/corpus
vm=$src/tests/data/vm
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"/text "$out"/tcreport "$out"/percpu "$out"/tracedat "$out"/rawdir \
	"$out"/stack "$out"/console "$out"/options "$out"/index "$out"/filter "$out"/tui

# head of a text trace: its header and first events (N lines)
cut_lines() { head -n "$2" "$1"; }
name() { echo "$1" | sed "s|^$src/||; s|^tests/data/vm/||; s|[/.]|-|g"; }

for f in "$vm"/*/*.txt "$src"/data/sample-fgraph.txt; do
	case $f in */run-info.txt | */uname.txt | */cmdline.txt | */*tracers.txt | \
		*/trace_clock.txt | */trace_options.txt | */set_*.txt | */*filter.txt) continue ;;
	esac
	grep -q '[0-9]\.[0-9][0-9][0-9][0-9][0-9][0-9]\|)  *[|+!#*@$]' "$f" || continue
	cut_lines "$f" 40 >"$out/text/$(name "$f")"
done

for d in fgraph-basic fgraph-events; do
	{
		echo "@@ cpu0"
		cut_lines "$vm/$d/trace-cpu0.txt" 30
		echo "@@ cpu1"
		cut_lines "$vm/$d/trace-cpu1.txt" 30
	} >"$out/percpu/$d"
done
{ echo "@@ cpu3"; cut_lines "$vm/events/default.txt" 25; echo "@@ cpu12"; cut_lines "$vm/function/pipe.txt" 20; } \
	>"$out/percpu/mixed"

# A raw directory cut down to the formats most pages use and one page per
# CPU; as fuzz input sections, and as a directory for the trace.dat writer.
small_raw() {
	raw=$1 dst=$2
	mkdir -p "$dst/events"
	cp "$raw/events/header_page" "$raw/events/header_event" "$dst/events/"
	for e in ftrace/print ftrace/bprint ftrace/function ftrace/funcgraph_entry \
		ftrace/funcgraph_exit ftrace/kernel_stack sched/sched_switch sched/sched_wakeup; do
		[ -f "$raw/events/$e/format" ] || continue
		mkdir -p "$dst/events/$e"
		cp "$raw/events/$e/format" "$dst/events/$e/"
	done
	for c in 0 1; do
		mkdir -p "$dst/per_cpu/cpu$c"
		head -c 4096 "$raw/per_cpu/cpu$c/trace_pipe_raw" >"$dst/per_cpu/cpu$c/trace_pipe_raw"
	done
	for f in kallsyms saved_cmdlines trace_clock; do
		[ -f "$raw/$f" ] && cp "$raw/$f" "$dst/"
	done
	head -n 20 "$raw/printk_formats" >"$dst/printk_formats"
}
sections() {
	(cd "$1" && find . -type f | sed 's|^\./||' | sort | while read -r f; do
		echo "@@ $f"
		cat "$f"
		echo
	done)
}
for r in raw/raw raw-fgraph/raw; do
	n=$(echo "$r" | cut -d/ -f1)
	small_raw "$vm/$r" "$tmp/$n"
	sections "$tmp/$n" >"$out/rawdir/$n"
	make -s -C "$build" tests/fuzz/seed-tracedat ftlens >/dev/null
	"$build/tests/fuzz/seed-tracedat" "$tmp/$n" "$out/tracedat/$n.dat"
	if command -v trace-cmd >/dev/null; then
		trace-cmd report -N -i "$out/tracedat/$n.dat" 2>/dev/null | head -n 60 \
			>"$out/tcreport/$n-report"
		trace-cmd report -N -R -i "$out/tracedat/$n.dat" 2>/dev/null | head -n 40 \
			>"$out/tcreport/$n-report-raw"
		trace-cmd report -N -l -i "$out/tracedat/$n.dat" 2>/dev/null | head -n 40 \
			>"$out/tcreport/$n-report-lat"
	fi
done

cp "$vm/stack/stack_trace" "$out/stack/stack_trace"
cp "$vm/stack/stack_max_size" "$out/stack/stack_max_size"
{
	echo "# ftlens-stack-series v1 kernel=6.1.0 clock=monotonic"
	echo "# snapshot 1 time=1.000000 max_size=$(cat "$vm/stack/stack_max_size")"
	cat "$vm/stack/stack_trace"
	echo "# snapshot 2 time=2.000000 max_size=$(cat "$vm/stack/stack_max_size")"
	head -n 12 "$vm/stack/stack_trace"
} >"$out/stack/series"

log=$vm/oops/console.log
sed -n '360,470p' "$log" >"$out/console/panic-and-dump"
sed -n '1,40p' "$log" >"$out/console/boot"
{ sed -n '405,440p' "$log"; tail -n 20 "$log"; } >"$out/console/dump-cut"

printf '3.78,3.9\n0,1\n96\n(\\w+) start\n\\1 end\nbefore\nbefore=2026-12-03T09:20:19.5Z\n' \
	>"$out/options/all"
printf ',3.8\n1\n\n\n\nafter (.*)\n' >"$out/options/open-start"
printf '3.8,\n0-1,3\n96,105\nbefore (.*)\nafter \\1\n\nafter a=2026-01-01T00:00:00+02:00\n' \
	>"$out/options/backref"
printf '\n\n\n^\n$\n' >"$out/options/anchors"
# the index target's trace, indexed for real, behind four window choices
FTL_FUZZ_INDEX_SEEDS=$out/index "$build/tests/fuzz/fuzz-index" /dev/null >/dev/null

# --filter: an expression, an event list, an inverted expression
printf 'sched_switch: prev_pid == 0 && next_comm ~ "s*"\n\n\n' >"$out/filter/switch-glob"
printf 'sched/sched_wakeup: target_cpu >= 1 || (pid != 44 && !(prio < 100))\nsched_switch,irq\n\n' \
	>"$out/filter/wakeup-or-not"
printf 'tracing_mark_write: buf =~ "^a (start|end)"\n\nblock: sector & 4096\n' \
	>"$out/filter/marker-regex-inverted"
printf 'block_rq_issue: comm == "sh" && nr_sector > 7 && dev != rwbs\nsched:sched_w*\nirq_handler_entry: name == "eth0"\n' \
	>"$out/filter/fields-and-lists"
printf 'irq: irq == 0x18 && ts > 3790000000 && CPU <= 0 && COMM !~ "k*"\n\n\n' >"$out/filter/common-fields"
printf 'sched_switch: prev_pid == \n\n\n' >"$out/filter/bad-missing-operand"

# TUI steps (fuzz-tui.c): opcode bytes and their operands
printf '\001\240\002\240\005\060\020\060\021\260\004\320\020\020\005\020' >"$out/tui/panels-and-moves"
printf '\000\060\000\320\017\320\103\320\110\260\001\060\040\020\060\120\060\060' >"$out/tui/search-prompt"
printf '\001\005\002\003\060\100\060\101\000\005\120\024\100\240\000\240\001\374\020\377\000\000\233' \
	>"$out/tui/resize-small-c1"
printf '\001\370\240\016\240\016\240\016\040\005\020\050\003\003' >"$out/tui/help-and-clicks"
echo "corpus: $(find "$out" -type f | wc -l) files, $(du -sh "$out" | cut -f1)"
