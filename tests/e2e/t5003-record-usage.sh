#!/bin/sh
# ftlens record's command line, refused before tracefs is touched (no root
# needed): option combinations that make no sense, -f without its -e,
# operands without --, and the help text.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
make_tmpdir
cd "$T" || exit 1

# usage ARGS...: exit 2, one line on stderr, no file written
usage() {
	"$FTLENS" record "$@" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && [ -z "$(ls "$T" | grep -v '^out$\|^err$')" ]
}

plan 16
check "--flight with --stack" 'usage --flight --stack'
check "-f before any -e" 'usage -f '\''pid == 1'\'' -e sched'
check "two -f for one -e" 'usage -e sched -f '\''pid == 1'\'' -f '\''pid == 2'\'''
check "-F without a command" 'usage -F -e sched'
check "--hits without --flight" 'usage --hits 2'
check "--stop-on without --flight" 'usage --stop-on sched:sched_switch'
check "--reset without --stack" 'usage --reset'
check "--stack with events" 'usage --stack -e sched'
check "--flight with --raw-dir" 'usage --flight --raw-dir d'
check "--instance with --top" 'usage --instance x --top'
check "-o with --raw-dir" 'usage -o a.dat --raw-dir d'
check "an operand without --" 'usage -e sched ls'
check "nothing after --" 'usage -e sched --'
check "a negative duration" 'usage --duration -1 -e sched'
"$FTLENS" help record >"$T/help" 2>&1
check "help record exits 0" '[ $? -eq 0 ]'
check "help record shows trace-cmd's letters" 'grep -q -- "-p, --tracer" "$T/help" && grep -q -- "-e, --event" "$T/help" && grep -q -- --flight "$T/help"'
finish
