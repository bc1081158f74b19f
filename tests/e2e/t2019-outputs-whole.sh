#!/bin/sh
# Outputs never half-exist: a file ftlens writes (split's per-CPU files,
# oops --extract-trace) appears whole or not at all when the command is
# killed (SIGKILL, SIGINT) or the disk fills (ENOSPC on a small tmpfs); an
# existing output stays as it was until the new one replaces it whole; an
# output that is an input is refused and the input left unchanged. A killed
# command leaves no temp file either (util/output.c writes an O_TMPFILE
# that gets a name only when it is complete).
. "$(dirname "$0")/lib.sh"
need_python
make_tmpdir
python3 - "$T/big.txt" <<'PY'
import sys
# two CPUs, 400,000 lines: split takes long enough to be killed mid-write
with open(sys.argv[1], "w") as f:
    f.write("# tracer: nop\n#\n")
    for i in range(400000):
        f.write("          bash-%d     [%03d] .....  %d.%06d: tracing_mark_write: line %d\n"
                % (96 + i % 7, i % 2, 100 + i // 1000000, i % 1000000, i))
PY
"$FTLENS" split --per-cpu -o "$T/ref" "$T/big.txt" || exit 1
# whole DIR: every file in DIR equals the reference run's, and DIR holds
# nothing else (no temp file, hidden or not)
whole() {
	(cd "$1" && find . -type f) | sort >"$T/files"
	while read -r f; do
		cmp -s "$1/$f" "$T/ref/$f" || { diag "$1/$f is not the whole output"; return 1; }
	done <"$T/files"
	if grep -v '^\./cpu[01]/trace$' "$T/files" >"$T/extra"; then
		diag "left behind: $(cat "$T/extra")"
		return 1
	fi
}
# killed SIG DIR: split into DIR, killed by SIG after DELAY seconds
killed() {
	"$FTLENS" split --per-cpu -o "$2" "$T/big.txt" >/dev/null 2>&1 &
	_pid=$!
	sleep "$3"
	kill -s "$1" "$_pid" 2>/dev/null
	wait "$_pid"
}
plan 12
check "split killed by SIGKILL at 0.3, 0.6, 1 s: each file whole or absent, no temp file" '
	for d in 0.3 0.6 1; do
		killed KILL "$T/k$d" $d
		[ -d "$T/k$d" ] || continue
		whole "$T/k$d" || exit 1
	done
'
check "split killed by SIGKILL before its end leaves no directory, empty or not" '
	for d in 0.1 0.3 0.6; do
		killed KILL "$T/e$d/out" $d
		# killed before the commit: nothing; after it: the whole output
		if [ -e "$T/e$d" ]; then
			whole "$T/e$d/out" && [ "$(ls -A "$T/e$d")" = out ] &&
				[ -f "$T/e$d/out/cpu0/trace" ] && [ -f "$T/e$d/out/cpu1/trace" ] ||
				{ diag "$(find "$T/e$d")"; exit 1; }
		fi
	done
'
# Killed inside the commit itself (strace injects the SIGKILL at a system
# call): three CPU files, each linked into the hidden tree (linkat), then the
# tree renamed to its top missing directory (rename).
python3 - "$T/three.txt" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("# tracer: nop\n#\n")
    for i in range(3000):
        f.write("          bash-%d     [%03d] .....  100.%06d: tracing_mark_write: line %d\n"
                % (96 + i % 7, i % 3, i, i))
PY
"$FTLENS" split --per-cpu -o "$T/ref3" "$T/three.txt" >/dev/null || exit 1
in_commit() {
	_call=$1 _at=$2
	rm -rf "$T/c" && mkdir "$T/c" &&
	strace -f -qq -o /dev/null -e trace="$_call" -e inject="$_call":signal=KILL:when="$_at" \
		"$FTLENS" split --per-cpu -o "$T/c/a/out" "$T/three.txt" >/dev/null 2>&1
	_rc=$?
	[ $_rc -eq 137 ] || { diag "split exited $_rc, not killed at $_call $_at"; return 1; }
	# DIR and its parent a/ do not exist; only the hidden tree beside a/
	[ ! -e "$T/c/a" ] || { diag "$(find "$T/c")"; return 1; }
	_left=$(ls -A "$T/c")
	case $_left in
	.a.ftlens-[0-9]*-??????) ;;
	*) diag "left in the parent: $_left"; return 1 ;;
	esac
	# the next split into the same place takes the dead one's tree away
	"$FTLENS" split --per-cpu -o "$T/c/a/out" "$T/three.txt" >/dev/null &&
		[ "$(ls -A "$T/c")" = a ] && diff -r "$T/ref3" "$T/c/a/out" >/dev/null ||
		{ diag "after the next split: $(find "$T/c")"; return 1; }
}
check STRACE "split killed inside its commit, between two files: no DIR, a hidden tree the next split takes away" '
	in_commit linkat 2
'
check STRACE "split killed at its last step, the rename of the tree: the same" '
	in_commit rename 1
'
check "a staging directory is taken away only when its writer is gone, never through a symlink" '
	mkdir -p "$T/r" "$T/victim" && echo keep >"$T/victim/file" &&
	sh -c "exit 0" & wait $!; dead=$!
	mkdir "$T/r/.out.ftlens-$$-aaaaaa" "$T/r/.out.ftlens-$dead-bbbbbb" &&
	echo x >"$T/r/.out.ftlens-$dead-bbbbbb/f" &&
	ln -s "$T/victim" "$T/r/.out.ftlens-$dead-cccccc" &&
	"$FTLENS" split --per-cpu -o "$T/r/out" "$T/three.txt" >/dev/null 2>"$T/err" &&
	[ -d "$T/r/.out.ftlens-$$-aaaaaa" ] && [ ! -e "$T/r/.out.ftlens-$dead-bbbbbb" ] &&
	[ -f "$T/victim/file" ] && diff -r "$T/ref3" "$T/r/out" >/dev/null &&
	grep -q "note: removed .*ftlens-$dead-bbbbbb, left by pid $dead" "$T/err" ||
	{ diag "$(ls -A "$T/r")"; sed "s/^/# /" "$T/err"; false; }
'
check "split killed by SIGINT at 0.5 s: each file whole or absent, no temp file" '
	killed INT "$T/int" 0.5
	[ ! -d "$T/int" ] || whole "$T/int"
'
mkdir -p "$T/small"
check ROOT "split onto a full disk (a 64 KiB tmpfs): one clear error, no file, no temp" '
	mount -t tmpfs -o size=64k ftl-small "$T/small" || exit 1
	"$FTLENS" split --per-cpu -o "$T/small/out" "$T/big.txt" >/dev/null 2>"$T/err"
	rc=$?
	left=$(find "$T/small" -type f | wc -l)
	umount "$T/small"
	[ $rc -eq 1 ] && grep -q "No space left on device" "$T/err" && [ "$left" -eq 0 ] ||
	{ diag "exit $rc, $left files left"; sed "s/^/# /" "$T/err"; false; }
'
check ROOT "an existing output on a full disk keeps its old content" '
	mount -t tmpfs -o size=64k ftl-small "$T/small" || exit 1
	mkdir -p "$T/small/out/cpu0" && echo old >"$T/small/out/cpu0/trace"
	"$FTLENS" split --per-cpu -o "$T/small/out" "$T/big.txt" >/dev/null 2>&1
	rc=$?
	old=$(cat "$T/small/out/cpu0/trace")
	left=$(find "$T/small" -type f | wc -l)
	umount "$T/small"
	[ $rc -eq 1 ] && [ "$old" = old ] && [ "$left" -eq 1 ]
'
log=$top_srcdir/tests/fuzz/corpus/console/panic-and-dump
cp "$log" "$T/console.log"
check "oops --extract-trace onto its own log is refused, the log unchanged" '
	! "$FTLENS" oops --extract-trace "$T/console.log" "$T/console.log" 2>"$T/err" &&
	grep -q "input" "$T/err" && cmp -s "$log" "$T/console.log"
'
check "oops --extract-trace replaces an existing file whole" '
	echo old >"$T/dump.txt" &&
	"$FTLENS" oops --extract-trace "$T/dump.txt" "$T/console.log" >/dev/null &&
	"$FTLENS" info "$T/dump.txt" >/dev/null && ! grep -q "^old" "$T/dump.txt" &&
	[ -z "$(find "$T" -maxdepth 1 -name ".dump.txt.*")" ]
'
# Replacing a file takes a hidden name and a rename (Linux has no atomic
# replace by link): killed between the two (strace's SIGKILL at the
# rename), the old file is whole and the hidden one is named for the dead
# writer, which the next write of the same file removes, saying so.
check STRACE "a write killed between its link and its rename: the old file whole, the temp swept next time" '
	echo old >"$T/rep.txt" &&
	strace -f -qq -o /dev/null -e trace=rename -e inject=rename:signal=KILL:when=1 \
		"$FTLENS" oops --extract-trace "$T/rep.txt" "$T/console.log" >/dev/null 2>&1
	[ $? -eq 137 ] && [ "$(cat "$T/rep.txt")" = old ] &&
	left=$(cd "$T" && ls -A | grep "^\.rep\.txt\.ftlens-[0-9]*-") &&
	"$FTLENS" oops --extract-trace "$T/rep.txt" "$T/console.log" >/dev/null 2>"$T/err" &&
	grep -q "note: removed .*/$left, left by pid" "$T/err" &&
	[ -z "$(cd "$T" && ls -A | grep "^\.rep\.txt")" ] && ! grep -q "^old" "$T/rep.txt" ||
	{ diag "$(ls -A "$T")"; sed "s/^/# /" "$T/err"; false; }
'
check "split onto its own input is refused, the input unchanged" '
	mkdir -p "$T/self/cpu0" && cp "$T/ref/cpu0/trace" "$T/self/cpu0/trace" &&
	! "$FTLENS" split --per-cpu -o "$T/self" "$T/self/cpu0/trace" 2>"$T/err" &&
	cmp -s "$T/ref/cpu0/trace" "$T/self/cpu0/trace"
'
finish
