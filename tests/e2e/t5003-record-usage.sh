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

plan 20
check "--flight with --stack" 'usage --flight --stack'
check "-f before any -e" 'usage -f '\''pid == 1'\'' -e sched'
check "two -f for one -e" 'usage -e sched -f '\''pid == 1'\'' -f '\''pid == 2'\'''
check "--pid-filter without a command" 'usage --pid-filter -e sched'
check "-P and --pid-filter together" 'usage -P 1 --pid-filter -e sched -- true'
check "-P with a pid no process has" 'usage -P 2147483647 -e sched'
check "-P with --flight" 'usage -P 1 --flight'
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
# -F was --pid-filter before it meant --format on every command that prints
# results: still taken, with a word that it is deprecated
"$FTLENS" record -F -e sched >/dev/null 2>"$T/err"
check "-F (deprecated): a warning naming --pid-filter, then its usage error" \
	'[ $? -eq 2 ] && grep -q "deprecated: say --pid-filter" "$T/err" && grep -q "give one after --" "$T/err"'
rm -f "$T/err"
"$FTLENS" help record >"$T/help" 2>&1
check "help record exits 0" '[ $? -eq 0 ]'
check "help record shows trace-cmd's letters" 'grep -q -- "-p, --tracer" "$T/help" && grep -q -- "-e, --event" "$T/help" && grep -q -- --flight "$T/help" && grep -q -- "-P, --trace-pid=PID" "$T/help" && grep -q -- "--pid-filter" "$T/help"'
finish
