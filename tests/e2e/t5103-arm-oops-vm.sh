#!/bin/sh
# `ftlens arm-oops` in a real 6.1 kernel under qemu (tests/vm, one boot):
# tests/vm/scenarios/arm-oops.sh arms function_graph + sched events with a
# 16 KiB buffer, runs examples/simple_trace (libftlens-marker finds tracefs
# by itself), and crashes with sysrq-c. The console log must show what
# arm-oops changed, then "Dumping ftrace buffer:" with function_graph lines
# (the crash path itself), sched events and the program's markers in order.
# Plain grep/awk on the log. Skips without root, qemu, a Debian cloud kernel,
# busybox-static or cpio (tests/vm/setup.sh installs them).
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

rig=$top_srcdir/tests/vm
ST=$top_builddir/examples/simple_trace
prereq QEMU
[ -x "$ST" ] || skip_all "examples/simple_trace is not built"

make_tmpdir
plan 14
out=$T/out
FTLENS_VM_KERNEL=$kernel "$rig/run-vm.sh" "$rig/scenarios/arm-oops.sh" "$out" \
	--with-binary "$FTLENS" --with-binary "$ST" 2>"$T/rig.err"
rc=$?
check "run-vm.sh: the guest ran the scenario and panicked (exit $rc)" '[ "$rc" -eq 0 ]'
[ "$rc" -eq 0 ] || diag "$(cat "$T/rig.err")"
C=$T/console.txt
tr -d '\r' <"$out/console.log" >"$C" 2>/dev/null
# the table arm-oops printed: setting, before, after, changed
row() { grep -E "^$1 +[^ ].* +$2 +yes$" "$C" >/dev/null; }
check "arm-oops set current_tracer to function_graph" 'row current_tracer function_graph'
check "arm-oops set ftrace_dump_on_oops to 1" 'row ftrace_dump_on_oops 1'
check "arm-oops enabled the sched events" 'row set_event '\''[0-9]+ events: sched [0-9]+'\'''
check "arm-oops turned tracing on" 'row tracing_on 1'
check "ftrace_enabled the same before and after arm-oops" \
	'b=$(sed -n "s/^scenario: ftrace_enabled before: //p" "$C"); a=$(sed -n "s/^scenario: ftrace_enabled after: //p" "$C"); [ -n "$b" ] && [ "$b" = "$a" ]'
check "no sanitizer report in the guest" '! grep -q "Sanitizer" "$C"'
check "the program found tracefs by itself" 'grep -q '\''^simple_trace: markers go to /sys/kernel/tracing/trace_marker$'\'' "$C"'
check "the kernel dumped the ftrace buffer after the crash" \
	'awk '\''/(^|\] )FTLENS-VM: crashing now$/ { c = NR } /Dumping ftrace buffer:/ && c { d = 1 } END { exit !d }'\'' "$C"'
# the dump: from "Dumping ftrace buffer:" to its closing dashes
awk '/Dumping ftrace buffer:/ { on = 1; next } on && /\] --------------------*$/ && n++ { exit } on' "$C" |
	sed 's/^\[ *[0-9.]*\] //' >"$T/dump"
diag "dump: $(wc -l <"$T/dump") lines"
check "function_graph lines in the dump (the crash path: __handle_sysrq)" \
	'grep -Eq '\''^ *[0-9]+\) +\| +__handle_sysrq\(\) \{$'\'' "$T/dump"'
n=$(grep -Ec '^ *[0-9]+\) .*\| +[a-z_][a-z0-9_.]*\(\);$' "$T/dump")
check "function_graph leaf calls with durations ($n)" '[ "$n" -ge 5 ]'
n=$(grep -c '/\* sched_switch: ' "$T/dump")
check "sched events in the dump ($n sched_switch)" '[ "$n" -ge 1 ]'
# markers are comments in function_graph output; a 16 KiB buffer may have
# lost the oldest ones, never the last, and never the order
grep -o '/\* .* \*/$' "$T/dump" | sed 's|^/\* ||; s| \*/$||' |
	grep -E '^(ftlens-wallclock: [0-9]+\.[0-9]{9}|(before|after) arm-oops-vm|arm-oops-vm round [0-9])$' |
	sed 's/^ftlens-wallclock: .*/ftlens-wallclock/' >"$T/got"
printf '%s\n' ftlens-wallclock 'before arm-oops-vm' 'arm-oops-vm round 1' 'arm-oops-vm round 2' \
	'arm-oops-vm round 3' 'after arm-oops-vm' >"$T/want"
k=$(wc -l <"$T/got")
check "the program's last marker is in the dump" '[ "$(tail -n 1 "$T/got")" = '\''after arm-oops-vm'\'' ]'
check "its markers in the dump are the last $k it wrote, in order" \
	'tail -n "$k" "$T/want" | cmp -s - "$T/got"'
finish
