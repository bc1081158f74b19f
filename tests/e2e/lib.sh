# Shared helpers for the end-to-end TAP scripts (sourced, POSIX sh).
# Environment from the Makefile: FTLENS, top_srcdir, FTL_TESTDATA, FTL_REAL_DATA,
# FTL_CRASHERS. The last two live in ../shared, outside the tree: absent from a
# tarball's build (make distcheck), where the tests that read them say so.
: "${FTLENS:=$(cd "$(dirname "$0")/../.." && pwd)/ftlens}"
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${FTL_TESTDATA:=$top_srcdir/tests/data}"
: "${FTL_REAL_DATA:=$top_srcdir/../shared/data/real}"
: "${FTL_CRASHERS:=$top_srcdir/../shared/data/crashers}"
LC_ALL=C
TZ=UTC
export LC_ALL TZ

# python3 resolved once when it is a version manager's shim script (pyenv's
# runs several shell scripts a call: seconds per call on a loaded machine);
# the interpreter it picks stays the same for the whole test script.
ftl_python=$(command -v python3 2>/dev/null)
if [ -n "$ftl_python" ] && [ "$(head -c 2 "$ftl_python" 2>/dev/null)" = "#!" ] &&
	ftl_python=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null) &&
	[ -x "$ftl_python" ]; then
	python3() { "$ftl_python" "$@"; }
fi

tap_n=0
tap_failed=0

plan() { echo "1..$1"; }

# skip_all REASON: the whole script is skipped (shown as SKIP by the harness;
# an exit status of 77 would be an error under the TAP driver).
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

# skip DESCRIPTION: one test point skipped; DESCRIPTION says what and why.
skip() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n # SKIP $*"
}

# check [PREREQS] DESCRIPTION BODY: one test point from BODY's status. BODY
# is one string of shell, evaluated in a subshell (as git's
# test_expect_success takes its body), so `A && B` in it is one condition and
# what it changes stays inside. It sees the script's variables, and $? as the
# command before the check left it, but not a function's positional
# parameters (copy those into named variables first). PREREQS is NAME or
# NAME,NAME (see prereq below): when one is missing, the point is skipped
# saying which and why. Any other count of arguments is the old `check DESC
# CMD ARGS...` form: a failed point.
check() {
	_check_status=$?
	if [ $# -eq 3 ]; then
		case $1 in
		'' | *[!A-Z0-9_,]*)
			not_ok "$2: check takes [PREREQS] DESCRIPTION BODY; '$1' is no prereq list"
			return 0
			;;
		esac
		# shellcheck disable=SC2046
		if ! have_prereq $(echo "$1" | tr ',' ' '); then
			skip "$2: missing $prereq_why"
			return 0
		fi
		shift
	fi
	if [ $# -ne 2 ]; then
		not_ok "${1:-?}: check takes [PREREQS] DESCRIPTION and one BODY string, got $# arguments"
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
# quiet CMD...: ftlens CMD into $T/out and $T/err, its exit status in
# $_rc; true when it exits 0 or 1 (one clear error) and no sanitizer spoke
quiet() {
	"$FTLENS" "$@" >"$T/out" 2>"$T/err"
	_rc=$?
	if [ "$_rc" -gt 1 ] || grep -q 'Sanitizer\|runtime error' "$T/err"; then
		diag "ftlens $*: exit $_rc"
		sed 's/^/# /' "$T/err" | head -n 5
		return 1
	fi
}

# run_outputs OUT ENV CMD FILE...: ftlens CMD's stdout, stderr, exit status
# and output files (flame, timeline and export write one, split a
# directory) into the one file OUT, run with the environment words ENV
# ("" for none; "FTLENS_DECODE=all"); the output's name in messages, a
# sanitizer report's addresses and pid made the same in every run, so that
# two runs compare with cmp.
run_outputs() {
	_out=$1 _env=$2 _cmd=$3
	shift 3
	rm -rf "$_out".file "$_out".dir
	case $_cmd in
	flame | timeline) set -- "$_cmd" -o "$_out".file "$@" ;;
	export) set -- export --to folded -o "$_out".file "$@" ;;
	split) set -- split --per-cpu -o "$_out".dir "$@" ;;
	*) set -- "$_cmd" "$@" ;;
	esac
	# shellcheck disable=SC2086
	env $_env "$FTLENS" "$@" >"$_out" 2>&1
	echo "rc=$?" >>"$_out"
	[ ! -f "$_out".file ] || cat "$_out".file >>"$_out"
	if [ -d "$_out".dir ]; then
		(cd "$_out".dir && find . -type f | sort | while read -r _f; do
			echo "== $_f" && cat "$_f"
		done) >>"$_out"
	fi
	sed -i -E -e "s|$_out\\.|OUT.|g" -e 's/0x[0-9a-f]+/0xADDR/g' \
		-e 's/==[0-9]+==/==PID==/g' "$_out"
}

# same_outputs ENV_A ENV_B CMD FILE...: run_outputs of CMD in environment
# ENV_A (into $T/a.s) and in ENV_B (into $T/b.s) are the same bytes; a
# difference is shown.
same_outputs() {
	_a=$1 _b=$2
	shift 2
	run_outputs "$T/a.s" "$_a" "$@"
	run_outputs "$T/b.s" "$_b" "$@"
	cmp -s "$T/a.s" "$T/b.s" && return 0
	echo "# $1 $2: '${_a:-default}' and '${_b:-default}' differ:"
	diff "$T/a.s" "$T/b.s" | head -n 10 | sed 's/^/#   /'
	return 1
}

json_get() {
	python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

finish() {
	[ "$tap_failed" -eq 0 ]
}

# ---- prerequisites -----------------------------------------------------------
# After git's test_have_prereq / test_set_prereq: a NAME stands for something
# this machine must have or do. Each is probed once per script, the first time
# it is asked for, and remembers why it is missing; a script lists what it
# needs and is skipped (whole, or point by point with `check NAME ...`) saying
# which one is missing and why. On the project's machines every one holds:
# we are root, tracefs mounts, qemu and a kernel are installed.
#   ROOT          uid 0
#   TRACEFS       ROOT and a mounted tracefs with instances/ (mounted at
#                 /sys/kernel/tracing when absent); sets TR
#   TRACE_MARKER  TRACEFS with a trace_marker
#   TRACE_CMD     trace-cmd (the oracle of binary formats)
#   PYTHON        python3 (oracles and JSON reads)
#   QEMU          the tests/vm rig: ROOT, qemu-system-x86_64, a Debian cloud
#                 kernel in /boot (sets kernel), busybox-static, cpio
#   REAL_DATA     the public samples ($FTL_REAL_DATA, from ../shared)
#   CRASHERS      the regression inputs ($FTL_CRASHERS, from ../shared)
# A script adds its own with set_prereq NAME / unset_prereq NAME WHY, and
# FTL_TEST_NO="QEMU TRACEFS" turns names off (to see what a machine without
# them skips).

probe_ROOT() {
	[ "$(id -u)" = 0 ] || { prereq_why="not root"; return 1; }
}
probe_TRACEFS() {
	have_prereq ROOT || return 1
	TR=$(awk '$3 == "tracefs" { print $2; exit }' /proc/mounts)
	if [ -z "$TR" ]; then
		TR=/sys/kernel/tracing
		mount -t tracefs nodev "$TR" 2>/dev/null ||
			{ prereq_why="tracefs is not mounted and cannot be mounted at $TR"; return 1; }
	fi
	[ -d "$TR/instances" ] || { prereq_why="tracefs at $TR has no instances/"; return 1; }
}
probe_TRACE_MARKER() {
	have_prereq TRACEFS || return 1
	[ -e "$TR/trace_marker" ] || { prereq_why="no trace_marker in $TR"; return 1; }
}
probe_TRACE_CMD() {
	command -v trace-cmd >/dev/null 2>&1 || { prereq_why="trace-cmd is not installed"; return 1; }
}
# strace, allowed to trace (and so to inject a signal at a system call)
probe_STRACE() {
	command -v strace >/dev/null 2>&1 || { prereq_why="strace is not installed"; return 1; }
	strace -qq -o /dev/null true 2>/dev/null || { prereq_why="strace cannot trace here"; return 1; }
}
probe_PYTHON() {
	command -v python3 >/dev/null 2>&1 || { prereq_why="python3 is not installed"; return 1; }
}
# The rig kernel's debug info (the README's test command installs it) and
# the independent symbolizers the oracle tests compare with; sets rel, vml,
# map and mods.
probe_RIG_DEBUGINFO() {
	rel=6.1.0-57-cloud-amd64
	vml=/usr/lib/debug/boot/vmlinux-$rel
	map=/usr/lib/debug/boot/System.map-$rel
	mods=/usr/lib/debug/lib/modules/$rel
	[ -r "$vml" ] && [ -r "$map" ] ||
		{ prereq_why="no $vml: apt-get install linux-image-$rel-dbg (the README's test command does)"; return 1; }
	for _t in addr2line eu-addr2line readelf; do
		command -v $_t >/dev/null 2>&1 || { prereq_why="no $_t (binutils, elfutils)"; return 1; }
	done
}
# The rig is never installed here: tests/vm/setup.sh does that.
probe_QEMU() {
	have_prereq ROOT || return 1 # the rig builds device nodes and runs qemu
	prereq_why="(run tests/vm/setup.sh)"
	command -v qemu-system-x86_64 >/dev/null 2>&1 ||
		{ prereq_why="qemu-system-x86_64 missing $prereq_why"; return 1; }
	kernel=$(find /boot -maxdepth 1 -name 'vmlinuz-*-cloud-amd64' 2>/dev/null | sort -V | tail -n 1)
	[ -n "$kernel" ] || { prereq_why="no /boot/vmlinuz-*-cloud-amd64 $prereq_why"; return 1; }
	[ -r "$kernel" ] || { prereq_why="$kernel is not readable"; return 1; }
	[ -x /bin/busybox ] || { prereq_why="busybox-static missing $prereq_why"; return 1; }
	command -v cpio >/dev/null 2>&1 || { prereq_why="cpio missing $prereq_why"; return 1; }
}
probe_REAL_DATA() {
	[ -d "$FTL_REAL_DATA" ] || { prereq_why="no public samples at $FTL_REAL_DATA"; return 1; }
}
probe_CRASHERS() {
	[ -d "$FTL_CRASHERS" ] || { prereq_why="no regression inputs at $FTL_CRASHERS"; return 1; }
}

set_prereq() { eval "prereq_is_$1=yes"; }
unset_prereq() { eval "prereq_is_$1=no prereq_why_$1=\$2"; }

# have_prereq NAME...: true when every NAME holds; otherwise false, with
# prereq_why set to "NAME (why)" for the first that does not.
have_prereq() {
	for _p in "$@"; do
		_prereq_holds "$_p" || return 1
	done
	return 0
}
# (by $1 alone: probes ask for other prereqs, which reuses the globals)
_prereq_holds() {
	eval "_state=\${prereq_is_$1:-}"
	if [ -z "$_state" ]; then
		if ! command -v "probe_$1" >/dev/null 2>&1; then
			echo "Bail out! unknown prereq $1" # a typo in a script
			exit 99
		fi
		prereq_why=""
		case " ${FTL_TEST_NO:-} " in
		*" $1 "*) prereq_why="turned off by FTL_TEST_NO" ;;
		esac
		if [ -z "$prereq_why" ] && "probe_$1"; then
			eval "prereq_is_$1=yes"
		else
			eval "prereq_is_$1=no prereq_why_$1=\$prereq_why"
		fi
	fi
	eval "_state=\$prereq_is_$1"
	[ "$_state" = yes ] && return 0
	eval "prereq_why=\"$1 (\${prereq_why_$1})\""
	return 1
}

# prereq NAME...: the script needs them all; skipped whole, saying which is
# missing and why, when one is not there.
prereq() {
	have_prereq "$@" || skip_all "missing $prereq_why"
}

# Older names, kept for scripts written against them.
need_python() { prereq PYTHON; }
need_vm_rig() { prereq QEMU; }
live_tracefs() { prereq TRACE_MARKER; }

# ---- inputs from ../shared -----------------------------------------------------
# shared_name PATH: PATH as the report names it, relative to ../shared's data
# (real/raw/x.dat, crashers/y.txt).
shared_name() {
	case $1 in
	"$FTL_REAL_DATA"/*) echo "real/${1#"$FTL_REAL_DATA"/}" ;;
	"$FTL_CRASHERS"/*) echo "crashers/${1#"$FTL_CRASHERS"/}" ;;
	*) echo "$1" ;;
	esac
}

# have_input PATH [N]: true when the golden input PATH (file or directory)
# is there; otherwise false, and N test points (1 by default) are skipped
# naming it (skip_absent).
have_input() {
	[ -e "$1" ] && return 0
	skip_absent "$@"
	return 1
}

# skip_absent PATH [N]: N test points (1 by default) skipped as "NAME:
# absent"; PATH may be a pattern that matched nothing (real/raw/*.dat). The
# first absent input of a script also tells where inputs were looked for.
skip_absent() {
	if [ -z "${input_where_told:-}" ]; then
		diag "inputs from ../shared are read from FTL_REAL_DATA=$FTL_REAL_DATA and FTL_CRASHERS=$FTL_CRASHERS"
		input_where_told=1
	fi
	_n=${2:-1}
	while [ "$_n" -gt 0 ]; do
		skip "$(shared_name "$1"): absent"
		_n=$((_n - 1))
	done
}

# need_input PATH...: the script needs them all; skipped whole naming the
# first that is absent.
need_input() {
	for _f in "$@"; do
		[ -e "$_f" ] || skip_all "$(shared_name "$_f"): absent"
	done
}

# need_real_tracedats: sets samples to the public trace.dat samples (a
# list of paths); the script is skipped whole, naming them, when absent.
need_real_tracedats() {
	samples=""
	[ -d "$FTL_REAL_DATA/raw" ] && samples=$(ls "$FTL_REAL_DATA"/raw/*.dat 2>/dev/null)
	[ -n "$samples" ] || skip_all "$(shared_name "$FTL_REAL_DATA/raw/*.dat"): absent"
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

# prereq TMUX: tmux runs the TUI's end-to-end tests in a pane.
probe_TMUX() {
	command -v tmux >/dev/null 2>&1 || { prereq_why="tmux is not installed"; return 1; }
}

# tmux_server: after make_tmpdir, a tmux server of the script's own for
# the TUI's pane "tui": tm runs tmux there, keys types into the pane, and
# a pane stays after its program ends (to read how it ended). The server
# goes with the scratch directory at exit.
tmux_server() {
	tmux_sock=ftl-e2e-$$
	# exit-empty off: the server outlives its last session, so that a script
	# may kill "tui" and start another without racing the server's exit
	# ("server exited unexpectedly", once in four runs of t6021); it ends
	# with the script (the trap)
	printf 'set -s exit-empty off\nset -g remain-on-exit on\n' >"$T/tmux.conf"
	trap 'tm kill-server 2>/dev/null; rm -rf "$T"' EXIT
}
tm() { tmux -L "$tmux_sock" -f "$T/tmux.conf" "$@"; }
keys() { tm send-keys -t tui "$@"; }

# tmux_wait_for PATTERN [SECONDS]: until the tmux pane "tui" shows PATTERN (a
# grep -E), through the caller's tm() (tmux on its own socket); the last
# screen is kept in $T/screen and shown when it never comes.
tmux_wait_for() {
	_n=$((${2:-20} * 10))
	while [ $_n -gt 0 ]; do
		tm capture-pane -p -t tui >"$T/screen" 2>/dev/null
		grep -Eq -- "$1" "$T/screen" && return 0
		sleep 0.1
		_n=$((_n - 1))
	done
	diag "waited for '$1'; the screen was:"
	diag "$(cat "$T/screen")"
	return 1
}

# tmux_wait_dead: until the program in the pane "tui" ended (the caller's
# tmux.conf keeps the pane with remain-on-exit).
tmux_wait_dead() {
	_n=${1:-200}
	while [ $_n -gt 0 ]; do
		[ "$(tm display -p -t tui '#{pane_dead}')" = 1 ] && return 0
		sleep 0.1
		_n=$((_n - 1))
	done
	return 1
}

# tmux_cursor_row: the row under the cursor of the pane "tui", below the tab
# row: reverse video (0;7 in the trees) when colour is off (NO_COLOR).
tmux_cursor_row() {
	tm capture-pane -p -e -t tui | tail -n +2 | grep "$(printf '\033')\[\(0;\)\?7m" |
		sed 's/\x1b\[[0-9;]*m//g'
}

# ---- flame views: reference tools and a browser --------------------------
: "${FTL_TOOLS:=$top_srcdir/../shared/tools}"
probe_FLAMEGRAPH() {
	command -v perl >/dev/null 2>&1 || { prereq_why="perl is not installed"; return 1; }
	[ -r "$FTL_TOOLS/flamegraph/flamegraph.pl" ] ||
		{ prereq_why="no flamegraph.pl in $FTL_TOOLS/flamegraph"; return 1; }
}
probe_CHROMIUM() {
	FTL_CHROMIUM=${FTL_CHROMIUM:-/usr/bin/chromium}
	[ -x "$FTL_CHROMIUM" ] || { prereq_why="no $FTL_CHROMIUM (apt-get install chromium)"; return 1; }
	command -v node >/dev/null 2>&1 || { prereq_why="node is not installed (apt-get install nodejs)"; return 1; }
}
# NODE_MODULES: tests/package.json's pinned modules (playwright-core drives
# Debian's chromium, speedscope's page, ajv) installed by `npm ci` into a
# cache in the build tree, reinstalled when the package files change; sets
# FTL_NODE_MODULES to the directory that holds node_modules/.
probe_NODE_MODULES() {
	command -v npm >/dev/null 2>&1 || { prereq_why="npm is not installed (apt-get install npm)"; return 1; }
	FTL_NODE_MODULES=$PWD/tests/npm-cache
	mkdir -p "$FTL_NODE_MODULES" || { prereq_why="cannot create $FTL_NODE_MODULES"; return 1; }
	if ! cmp -s "$top_srcdir/tests/package-lock.json" "$FTL_NODE_MODULES/package-lock.json" ||
		! [ -d "$FTL_NODE_MODULES/node_modules/speedscope" ]; then
		cp "$top_srcdir/tests/package.json" "$top_srcdir/tests/package-lock.json" "$FTL_NODE_MODULES/" &&
			(cd "$FTL_NODE_MODULES" && npm ci --no-audit --no-fund --ignore-scripts) \
				>"$FTL_NODE_MODULES/npm.log" 2>&1 ||
			{ rm -f "$FTL_NODE_MODULES/package-lock.json"
			  prereq_why="npm ci failed: see $FTL_NODE_MODULES/npm.log"; return 1; }
	fi
}
