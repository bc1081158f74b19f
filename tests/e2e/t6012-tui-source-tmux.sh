#!/bin/sh
# The TUI's source line in a real terminal, with the rig kernel's debug info
# (--vmlinux; linux-image-6.1.0-57-cloud-amd64-dbg, skipped without it): on
# the rig's function_graph capture, Functions and Graph say where the
# selected function is defined. Its file is the one binutils' addr2line -i
# names for the outermost level at the function's System.map address (the
# build directory cut as start_kernel's init/main.c gives it), and file:line
# is what `stack --vmlinux` prints as the function's "defined at" (whose
# line t4107 checks against readelf's DW_AT_decl_line), and the file:line
# gdb's own DWARF reader gives the function's symbol. Without debug info
# the panels have no such line. The screens are kept in the log.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
prereq TMUX RIG_DEBUGINFO
make_tmpdir
tmux_server
wait_for() { tmux_wait_for "$@"; }
fg=$FTL_TESTDATA/vm/fgraph-basic/trace.txt
[ -r "$fg" ] || skip_all "no $fg"
plan 6

start() {
	tm kill-session -t tui 2>/dev/null
	tm new-session -d -s tui -x 120 -y 30 "cd '$T' && LANG=C.UTF-8 NO_COLOR=1 '$FTLENS' tui $1 2>err"
}
# the file addr2line -i names for the outermost level at func's address
a2l_file() {
	_a=$(awk -v f="$1" '$3 == f && $2 ~ /^[tT]$/ { print $1; exit }' "$map")
	addr2line -i -e "$vml" "0x$_a" | tail -n 1 | sed 's/:[0-9?]*\( (discriminator [0-9]*)\)\{0,1\}$//'
}
prefix=$(a2l_file start_kernel | sed 's|init/main\.c$||')
# "defined at" of func from stack's hogs table (a one-entry stack table)
stack_def() {
	printf '        Depth    Size   Location    (1 entries)\n        -----    ----   --------\n  0)      100     100   %s+0x0/0x0\n' "$1" >"$T/one.stack"
	"$FTLENS" stack --vmlinux "$vml" "$T/one.stack" | awk -v f="$1" '$4 == f { print $5 }'
}
# the source line on the screen: "FILE:LINE FUNC"
source_line() { sed -n 's/^defined at \([^ ]*\)  \(.*\)$/\1 \2/p' "$T/screen" | sed 's/ *$//'; }
# agrees NAME: the source line names FUNC at addr2line's file and stack's
# file:line; the screen goes to the log under NAME
agrees() {
	tm capture-pane -p -t tui >"$T/$1.screen"
	diag "screen $1:"
	diag "$(cat "$T/$1.screen")"
	set -- $(sed -n 's/^defined at \([^ ]*\)  \(.*\)$/\1 \2/p' "$T/$1.screen")
	[ $# -eq 2 ] || { diag "no source line"; return 1; }
	where=$1 func=$2
	want_file=$(a2l_file "$func" | sed "s|^$prefix||")
	want=$(stack_def "$func")
	diag "$func: the TUI says $where; addr2line's file $want_file, stack's $want"
	echo "$func $where" >>"$T/shown"
	[ "${where%:*}" = "$want_file" ] && [ "$where" = "$want" ]
}

start "--vmlinux '$vml' '$fg'"
wait_for "TIME +CPU" >/dev/null
keys 3
wait_for "CALLS +TOTAL" >/dev/null
keys / "^do_sys_openat2\$" Enter
check "Functions: do_sys_openat2 defined where addr2line and stack say" \
	'wait_for "^defined at [^ ]+  do_sys_openat2" && agrees functions-1'
keys j
check "Functions: the next row's function, as both say" \
	'sleep 0.5 && wait_for "^defined at [^ ]+  " && ! grep -q "  do_sys_openat2" "$T/screen" && agrees functions-2'
keys 2
wait_for "FUNCTION \(all tasks" >/dev/null
keys + j
check "Graph: the cursor's function (do_sys_openat2's first callee), as both say" \
	'sleep 0.5 && wait_for "^defined at [^ ]+  " && ! grep -q "  do_sys_openat2" "$T/screen" && agrees graph-1'
keys q
tmux_wait_dead 100
check "the TUI quits cleanly with debug info (no message on stderr)" '! [ -s "$T/err" ]'

# every file:line shown, against gdb's own DWARF reader: a function
# symbol's line is its DW_AT_decl_line (gdb reads the vmlinux in ~5 s)
if command -v gdb >/dev/null 2>&1 && [ -s "$T/shown" ]; then
	gdb -q -batch -ex "python
for l in open('$T/shown'):
    n, where = l.split()
    s = gdb.lookup_global_symbol(n) or gdb.lookup_static_symbol(n)
    print(n, where, '%s:%d' % (s.symtab.filename, s.line) if s else None)
" "$vml" >"$T/gdb" 2>/dev/null
	diag "function, the TUI's line, gdb's:"
	diag "$(cat "$T/gdb")"
	check "the $(wc -l <"$T/shown") lines shown are gdb's decl file:line of their functions" \
		'[ "$(wc -l <"$T/gdb")" -eq "$(wc -l <"$T/shown")" ] && [ "$(wc -l <"$T/gdb")" -ge 3 ] &&
		 awk "\$2 != \$3 { bad++ } END { exit bad > 0 }" "$T/gdb"'
else
	skip "no gdb (or no line shown): the lines are checked against stack's only"
fi

start "'$fg'"
wait_for "TIME +CPU" >/dev/null
keys 3
wait_for "CALLS +TOTAL" >/dev/null
keys 2
check "without debug info: no source line in Functions or Graph" \
	'wait_for "FUNCTION \(all tasks" && ! grep -q "defined at" "$T/screen"'
keys q
