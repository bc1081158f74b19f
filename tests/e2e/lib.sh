# Shared helpers for the end-to-end TAP scripts (sourced, POSIX sh).
# Environment from the Makefile: FTLENS, top_srcdir, FTL_TESTDATA, FTL_REAL_DATA.
: "${FTLENS:=$(cd "$(dirname "$0")/../.." && pwd)/ftlens}"
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${FTL_TESTDATA:=$top_srcdir/tests/data}"
: "${FTL_REAL_DATA:=$top_srcdir/../shared/data/real}"
LC_ALL=C
TZ=UTC
export LC_ALL TZ

tap_n=0
tap_failed=0

plan() { echo "1..$1"; }

# skip_all REASON: the whole script is skipped (shown as SKIP by the harness).
skip_all() {
	echo "1..0 # SKIP $*"
	exit 0
}

ok() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $*"
}

not_ok() {
	tap_n=$((tap_n + 1))
	tap_failed=$((tap_failed + 1))
	echo "not ok $tap_n - $*"
}

# check DESCRIPTION BODY: one test point from BODY's status. BODY is one
# string of shell, evaluated in a subshell (as git's test_expect_success
# takes its body), so `A && B` in it is one condition and what it changes
# stays inside. It sees the script's variables, and $? as the command
# before the check left it, but not a function's positional parameters
# (copy those into named variables first). Any other count of arguments is
# the old `check DESC CMD ARGS...` form: a failed point.
check() {
	_check_status=$?
	if [ $# -ne 2 ]; then
		not_ok "${1:-?}: check takes DESCRIPTION and one BODY string, got $# arguments"
		return 0
	fi
	if (_check_return $_check_status; eval "$2"); then ok "$1"; else not_ok "$1"; fi
}
_check_return() { return "$1"; }

diag() { echo "$*" | sed 's/^/# /'; }

# make_tmpdir: sets T to a fresh directory removed when the script exits.
make_tmpdir() {
	T=$(mktemp -d "${TMPDIR:-/tmp}/ftl-e2e.XXXXXX") || exit 1
	# shellcheck disable=SC2064
	trap "rm -rf '$T'" EXIT
}

# json_get FILE EXPR: evaluate a python expression on the parsed JSON `j`.
json_get() {
	python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

need_python() {
	command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
}

finish() {
	[ "$tap_failed" -eq 0 ]
}

# need_vm_rig: skip unless the qemu rig (tests/vm) can run here; sets
# kernel to the newest Debian cloud kernel in /boot. It never installs
# anything: tests/vm/setup.sh does that. (The TAP harness counts
# "1..0 # SKIP" as a skip; an exit status of 77 would be an error there.)
need_vm_rig() {
	[ "$(id -u)" -eq 0 ] || skip_all "not root (the rig builds device nodes and runs qemu)"
	command -v qemu-system-x86_64 >/dev/null 2>&1 || skip_all "qemu-system-x86_64 missing (run tests/vm/setup.sh)"
	kernel=$(find /boot -maxdepth 1 -name 'vmlinuz-*-cloud-amd64' 2>/dev/null | sort -V | tail -n 1)
	[ -n "$kernel" ] || skip_all "no /boot/vmlinuz-*-cloud-amd64 (run tests/vm/setup.sh)"
	[ -r "$kernel" ] || skip_all "$kernel is not readable"
	[ -x /bin/busybox ] || skip_all "busybox-static missing (run tests/vm/setup.sh)"
	command -v cpio >/dev/null 2>&1 || skip_all "cpio missing (run tests/vm/setup.sh)"
}

# live_tracefs: sets TR to the mounted tracefs (mounting it at
# /sys/kernel/tracing when absent), or skips the script without root.
live_tracefs() {
	[ "$(id -u)" = 0 ] || skip_all "not root"
	TR=$(awk '$3 == "tracefs" { print $2; exit }' /proc/mounts)
	if [ -z "$TR" ]; then
		mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null ||
			skip_all "tracefs is not mounted and cannot be mounted"
		TR=/sys/kernel/tracing
	fi
	[ -e "$TR/trace_marker" ] || skip_all "no trace_marker in $TR"
}

# tracefs_top_lock: tests that change tracefs (the top-level instance is
# shared by every test on the machine) take this lock first, so that
# parallel `make check` jobs, and other checkouts on the same machine, take
# turns. The same file as `ftlens record`'s live tests lock. Released when
# the script exits.
tracefs_top_lock() {
	command -v flock >/dev/null 2>&1 || return 0
	exec 9>"${TMPDIR:-/tmp}/ftlens-tracefs.lock"
	flock -w 600 9 || skip_all "tracefs lock held for 10 minutes"
}
