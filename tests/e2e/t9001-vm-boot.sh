#!/bin/sh
# Boot the VM rig (tests/vm/) with a tiny function_graph scenario and check
# that the guest ran it and a real trace came back. Needs root, qemu, a
# Debian cloud kernel and busybox-static; skips (exit 77) without them. It
# never installs anything: tests/vm/setup.sh does that.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

rig=$top_srcdir/tests/vm
prereq QEMU

make_tmpdir
cat >"$T/tiny.sh" <<'SCEN'
#!/bin/sh
. /guest-lib.sh
set -eu
echo "t9001: tiny scenario running"
w do_sys_openat2 set_graph_function
wa ksys_read set_graph_function
w 2 max_graph_depth
use_tracer function_graph
w 1 tracing_on
marker 't9001 marker'
cat /proc/version >/dev/null
ls / >/dev/null
w 0 tracing_on
save trace trace.txt
SCEN

plan 9
out=$T/out
FTLENS_VM_KERNEL=$kernel "$rig/run-vm.sh" "$T/tiny.sh" "$out" --timeout 50 2>"$T/rig.err"
rc=$?
check "run-vm.sh boots the guest and brings /out back (exit $rc)" '[ "$rc" -eq 0 ]'
[ "$rc" -eq 0 ] || diag "$(cat "$T/rig.err")"
check "console.log shows the guest reached the scenario" \
	'grep -a -q '\''^FTLENS-VM: scenario start'\'' "$out/console.log"'
check "console.log shows the scenario ran" \
	'grep -a -q '\''t9001: tiny scenario running'\'' "$out/console.log"'
check "trace.txt is a function_graph trace" \
	'grep -q '\''^# tracer: function_graph'\'' "$out/trace.txt"'
lines=$(grep -c -E '^ *[0-9]+\) .*\| +[a-z_].*(\(\)|\}|\*/)' "$out/trace.txt" 2>/dev/null)
check "trace.txt has function_graph lines (${lines:-0})" '[ "${lines:-0}" -ge 5 ]'
check "uname.txt names the guest kernel" \
	'grep -q "${kernel##*/vmlinuz-}" "$out/uname.txt"'
# what this kernel printed just now, read by ftlens: every line understood
"$FTLENS" info --json "$out/trace.txt" >"$T/info.json" 2>"$T/info.err"
check "ftlens info reads the fresh trace" '[ $? -eq 0 ]'
check "no unparsed lines in the fresh trace" '[ "$(json_get "$T/info.json" "j['\''unparsed_lines'\'']")" = 0 ]'
check "ftlens finds the marker written in the guest" 'grep -q '\''t9001 marker'\'' "$T/info.json"'
finish
