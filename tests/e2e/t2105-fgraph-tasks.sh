#!/bin/sh
# function_graph in the kernel's default layout (no funcgraph-proc column):
# the calls before a CPU's first task-switch block are the task that block
# switches out, a task's calls left open at a switch are closed by its exits
# once it is switched back in (on any CPU), the idle loop is never nested in
# them. Every view shows the same tree: graph --per task, flame --per task,
# the flame chart, speedscope and Chrome exports give the same calls per
# task and path as flame_oracle.py reads from the text (fgraph_trees.py
# reads each view back), the folded export the same widths. Inputs: the
# issue's 8 lines, several CPUs with nested interrupts and a task switched
# back in on another CPU (tests/data/fgraph-tasks), the rig's captures in
# this layout and a public one; the TUI's Graph is test-tui's.
# Exits without entry (the trace began inside the call) are one rule for
# every view (calltree's inferred calls): the call at its depth on its
# task's stack, the calls the task showed deeper before it below it, marked
# repaired; an inferred call whose exit never comes is none. Inputs: the
# issue's 8 lines with their first lines cut off, a public kernel-doc
# capture that begins inside __schedule on one CPU and deep in an
# interrupt on another, and a public funcslower capture (exits only).
. "$(dirname "$0")/lib.sh"
prereq PYTHON
make_tmpdir
trees=$top_srcdir/tests/e2e/fgraph_trees.py
D=$FTL_TESTDATA/fgraph-tasks
vm=$FTL_TESTDATA/vm
real=$FTL_REAL_DATA/fgraph
plan 26

# view NAME TRACE: the tree the view shows, as fgraph_trees.py reads it
view() {
	case $1 in
	oracle) python3 "$trees" oracle "$2" ;;
	graph) "$FTLENS" graph --per task --max-nodes 0 -F csv "$2" >"$T/g.csv" &&
		python3 "$trees" graph "$T/g.csv" ;;
	flame) "$FTLENS" flame --per task --minwidth 0 --max-frames 1000000 -o "$T/f.svg" "$2" &&
		python3 "$trees" flame "$T/f.svg" ;;
	chart) "$FTLENS" flame --chart --minwidth 0 --max-frames 1000000 -o "$T/c.svg" "$2" &&
		python3 "$trees" chart "$T/c.svg" ;;
	speedscope) "$FTLENS" export --to speedscope -o "$T/s.json" "$2" &&
		python3 "$trees" speedscope "$T/s.json" ;;
	chrome) "$FTLENS" export --to chrome -o "$T/c.json" "$2" &&
		python3 "$trees" chrome "$T/c.json" ;;
	esac
}

# same_tree TRACE VIEW...: each view's tree == the oracle's; the folded
# export's widths == the oracle's
same_tree() {
	f=$1
	shift
	view oracle "$f" >"$T/oracle" || return 1
	for v in "$@"; do
		view "$v" "$f" >"$T/$v" 2>"$T/err" || { echo "# $v failed: $(head -c 200 "$T/err")"; return 1; }
		cmp -s "$T/oracle" "$T/$v" || {
			echo "# $v differs from the oracle:"
			diff "$T/oracle" "$T/$v" | head -6 | sed 's/^/# /'
			return 1
		}
	done
	"$FTLENS" export --to folded -o "$T/x.folded" "$f" &&
		python3 "$trees" folded "$T/x.folded" >"$T/folded" &&
		python3 "$trees" oracle-widths "$f" >"$T/widths" &&
		cmp -s "$T/folded" "$T/widths" && echo "# $(grep -c ';' "$T/oracle") paths in every view"
}

all="graph flame chart speedscope chrome"
# The issue's case, as its reporter saw it: two tasks, nothing nested across.
# issue_tree FILE: FILE (a view's tree) is the issue's two tasks, nothing
# nested across
issue_tree() {
	python3 - "$1" <<-PY
	import json, sys
	want = {"init-1;x64_sys_call": 1, "init-1;x64_sys_call;do_wait": 1,
	        "init-1;x64_sys_call;do_wait;schedule": 1,
	        "init-1;x64_sys_call;do_wait;schedule;switch_mm_irqs_off": 1,
	        "<idle>-0;do_idle": 1, "<idle>-0;do_idle;nohz_run_idle_balance": 1}
	got = json.load(open(sys.argv[1]))
	print("# got", got)
	sys.exit(0 if got == want else 1)
	PY
}
check "the issue's 8 lines: init's syscall and the idle loop are two trees" \
	'view graph "$D/issue-29.txt" >"$T/g" && issue_tree "$T/g"'
check "the issue's 8 lines: init's calls are closed by its exits, timed, not repaired" \
	'"$FTLENS" graph -F csv "$D/issue-29.txt" >"$T/g.csv" &&
	 grep -qx "x64_sys_call;do_wait;schedule,2,schedule,1,404223500,404219354,404223500,404223500,0" "$T/g.csv" &&
	 [ "$(grep -c "^x64_sys_call.*,0$" "$T/g.csv")" -eq 4 ] && ! grep -q "x64_sys_call.*do_idle\|do_idle.*x64_sys_call" "$T/g.csv" ||
	 { sed "s/^/# /" "$T/g.csv"; false; }'
check "the issue's 8 lines: dump names init for the lines before the switch" \
	'"$FTLENS" dump "$D/issue-29.txt" >"$T/d" && [ "$(head -n 5 "$T/d" | grep -c " 1 init ")" -eq 5 ]'
check "the issue's 8 lines: every view shows the same tree" 'same_tree "$D/issue-29.txt" $all'
check "several CPUs, nested interrupts, a task switched back in on another CPU: every view" \
	'same_tree "$D/cpus.txt" $all'
check "several CPUs: the idle loops of two CPUs, bash, init and sshd, nothing else" \
	'view graph "$D/cpus.txt" | grep -o "^\"[^;]*;" | sort -u | tr -d "\"\n" >"$T/t" &&
	 [ "$(cat "$T/t")" = "<idle>-0;bash-200;init-1;sshd-500;" ] || { echo "# $(cat "$T/t")"; false; }'

# The look ahead for the first switch line reaches past the parser's
# chunks (256 KiB): 300 KiB of calls before CPU 1's first switch.
check "the first switch 300 KiB into the input still names the calls before it" \
	'python3 -c "
import sys
w = sys.stdout.write
w(\" 1)               |  outer() {\n\")
for i in range(10000):
    w(\" 1)   0.100 us    |    leaf%d();\n\" % (i % 7))
w(\" 0)   0.200 us    |  other();\n\")
w(\" ------------------------------------------\n 1)    worker-77   =>    <idle>-0   \n ------------------------------------------\n\n\")
w(\" 1)   9.000 us    |  do_idle();\n\")
w(\" ------------------------------------------\n 1)    <idle>-0    =>   worker-77   \n ------------------------------------------\n\n\")
w(\" 1) ! 700.000 us  |  } /* outer */\n\")
" >"$T/far.txt" && [ "$(wc -c <"$T/far.txt")" -gt 300000 ] &&
	 view graph "$T/far.txt" >"$T/g" && grep -q "\"worker-77;outer;leaf6\": 1428" "$T/g" &&
	 grep -q "\"worker-77;outer\": 1" "$T/g" && ! grep -q "<\.\.\.>--1;outer" "$T/g" ||
	 { head -c 400 "$T/g" | sed "s/^/# /"; false; }'
# A leaf on another CPU first: its exit, made by the parser, has no place
# in the input; looking ahead from it once blinded the look for every CPU
# (bench/gen-fgraph.c -s 74 -c 2 -f 150 16K: one __schedule too many)
check "a leaf on a CPU without switches first: CPU 0's calls are still the idle task's" \
	'printf "%s\n" " 1)   0.108 us    |  leaf();" " 0)               |  schedule_idle() {" \
		" 0)               |    __schedule() {" " ------------------------------------------" \
		" 0)    <idle>-0    =>    init-1" " ------------------------------------------" \
		" 0)   2.834 us    |  do_wait();" " ------------------------------------------" \
		" 0)    init-1    =>     <idle>-0" " ------------------------------------------" \
		" 0) # 2071.608 us |    } /* __schedule */" " 0) # 2071.731 us |  } /* schedule_idle */" \
		>"$T/l.txt" && same_tree "$T/l.txt" $all &&
	 grep -q "\"<idle>-0;schedule_idle;__schedule\": 1" "$T/oracle" &&
	 [ "$(grep -c "__schedule" "$T/oracle")" -eq 1 ] || { sed "s/^/# /" "$T/oracle"; false; }'
check "from a pipe, where no look ahead is possible: the idle loop still stays apart" \
	'"$FTLENS" graph --per task -F csv - <"$D/issue-29.txt" >"$T/p.csv" &&
	 ! grep -q "x64_sys_call;.*do_idle\|do_idle;.*x64_sys_call" "$T/p.csv"'

for f in fgraph-basic/trace.txt fgraph-events/trace.txt fgraph-options/irqs-on.txt \
	fgraph-options/combined.txt fgraph-options/tail.txt fgraph-options/overrun.txt; do
	check "rig $f: every view shows the same tree" 'same_tree "$vm/$f" $all'
done
# abstime prints microseconds: calls a microsecond apart touch in Chrome's
# JSON and its nesting cannot be read back from times alone
check "rig fgraph-options/abstime.txt: every view but Chrome's shows the same tree" \
	'same_tree "$vm/fgraph-options/abstime.txt" graph flame chart speedscope'
check "rig fgraph-basic per_cpu files: every view shows the same tree" \
	'same_tree "$vm/fgraph-basic/trace-cpu0.txt" $all && same_tree "$vm/fgraph-basic/trace-cpu1.txt" $all'
check "rig fgraph-basic: no call is left to an unknown task" \
	'"$FTLENS" graph --per task -F csv "$vm/fgraph-basic/trace.txt" >"$T/b.csv" &&
	 ! grep -q "^<\.\.\.>" "$T/b.csv" && grep -q "^sh-97,0,sh-97," "$T/b.csv"'

check REAL_DATA "public xen capture (a switch with calls open before it): every view" \
	'same_tree "$real/perftools_funcgraph_do_nanosleep_xen.txt" $all'
check REAL_DATA "public xen capture: the calls before the switch are platfor-3210's" \
	'view graph "$real/perftools_funcgraph_do_nanosleep_xen.txt" >"$T/x" &&
	 grep -q "\"platfor-3210;do_nanosleep;schedule;__schedule\": 1" "$T/x" && ! grep -q "<\.\.\.>" "$T/x"'
check REAL_DATA "public funcslower (exits only, switches): every view shows the same tree" \
	'same_tree "$real/perftools_funcslower_context_switches.txt" $all &&
	 view graph "$real/perftools_funcslower_context_switches.txt" >"$T/y" &&
	 grep -q "\"registe-27414;sys_nanosleep\": 2" "$T/y"'

# The issue's case as a trace that began inside x64_sys_call (and inside
# do_wait, and inside schedule): the exits name the calls they close, and
# what init showed before them is inside them, at their depth.
check "the issue's 8 lines, first 1, 2 or 3 cut: every view nests init's calls in its exits" '
	for n in 2 3 4; do
		tail -n +$n "$D/issue-29.txt" >"$T/cut$n.txt" &&
		same_tree "$T/cut$n.txt" $all && issue_tree "$T/oracle" || return 1
	done'
check "the issue's 8 lines, 2 cut: the exits are timed, repaired, at their depth; their calls not" '
	"$FTLENS" graph -F csv "$T/cut3.txt" >"$T/g.csv" &&
	 grep -qx "x64_sys_call,0,x64_sys_call,1,404741800,43700,404741800,404741800,1" "$T/g.csv" &&
	 grep -qx "x64_sys_call;do_wait,1,do_wait,1,404698100,474600,404698100,404698100,1" "$T/g.csv" &&
	 grep -qx "x64_sys_call;do_wait;schedule,2,schedule,1,404223500,404219354,404223500,404223500,0" "$T/g.csv" ||
	 { sed "s/^/# /" "$T/g.csv"; false; }'
kdoc=$real/kdoc5.4_fgraph_overhead_all_markers.txt
check REAL_DATA "public kernel-doc capture beginning inside __schedule and an interrupt: every view" \
	'same_tree "$kdoc" $all'
check REAL_DATA "public kernel-doc capture: __switch_to is in the __schedule its exits close, not beside it" '
	"$FTLENS" graph -F csv "$kdoc" >"$T/k.csv" &&
	 grep -q "^schedule_preempt_disabled;schedule;__schedule;__schedule;__switch_to,4,__switch_to,1,1837709," "$T/k.csv" &&
	 grep -q "^schedule_preempt_disabled;schedule;__schedule;__schedule;finish_task_switch;_raw_spin_unlock_irq,5," "$T/k.csv" &&
	 ! grep -q "^__switch_to\|^finish_task_switch" "$T/k.csv" || { sed "s/^/# /" "$T/k.csv"; false; }'
check "a CPU without any switch line: its calls stay an unknown task's, in every view" \
	'printf "%s\n" " 0)               |  a() {" " 0)   1.000 us    |    b();" " 0)   3.000 us    |  }" >"$T/o.txt" &&
	 same_tree "$T/o.txt" $all && grep -q "\"<\.\.\.>--1;a;b\": 1" "$T/oracle"'
finish
