#!/bin/sh
# `ftlens arm-oops` on live tracefs (events only: this machine refuses the
# function tracers): a refused tracer gives one clear message and changes
# nothing; arm sets the top-level instance and --disarm puts back every value,
# compared file by file before and after. Where the kernel refuses to let
# ftrace_dump_on_oops be set (containers, this project's CI), that refusal is
# checked as well, and the round trip uses FTLENS_DUMP_ON_OOPS_FILE in place
# of the sysctl; tracefs itself is always the live one.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
prereq PYTHON TRACE_MARKER
make_tmpdir
tracefs_top_lock
FTLENS_STATE_DIR=$T/state
export FTLENS_STATE_DIR
unset FTLENS_DUMP_ON_OOPS_FILE
SYSCTL=/proc/sys/kernel/ftrace_dump_on_oops
[ -e "$SYSCTL" ] || skip_all "no $SYSCTL"
plan 34

# snap: every value arm-oops may touch, and ftrace_enabled, which it never may
snap() {
	for f in current_tracer buffer_size_kb tracing_on set_event; do
		printf '%s=' "$f"
		tr '\n' ' ' <"$TR/$f"
		echo
	done
	for f in "$TR"/per_cpu/cpu*/buffer_size_kb; do
		printf '%s=%s\n' "${f#"$TR"/}" "$(cat "$f")"
	done
	echo "ftrace_dump_on_oops=$(cat "${FTLENS_DUMP_ON_OOPS_FILE:-$SYSCTL}")"
	echo "ftrace_enabled=$(cat /proc/sys/kernel/ftrace_enabled 2>/dev/null)"
}
orig_on=$(cat "$TR/tracing_on")
# a failure half-way must not leave this machine armed
trap '[ -f "$FTLENS_STATE_DIR/arm-oops.state" ] && "$FTLENS" arm-oops --disarm >/dev/null 2>&1
	echo "$orig_on" >"$TR/tracing_on"; rm -rf "$T"' EXIT
# tracing off first, so that arming visibly turns it on
echo 0 >"$TR/tracing_on"

# ---- a refused tracer ---------------------------------------------------------
snap >"$T/s0"
"$FTLENS" arm-oops -p function -e sched -b 16 >"$T/out" 2>"$T/err"
rc=$?
if [ $rc -eq 1 ] && grep -q "refused tracer 'function'" "$T/err"; then
	ok "-p function: exit 1, the kernel refused it"
	check "one line naming the tracer, the errno and what still works" \
		'[ "$(wc -l <"$T/err")" -eq 1 ] && grep -q "tracer .function. (Operation not permitted); trace events still work" "$T/err"'
	snap >"$T/s1"
	check "nothing changed (every value compared)" 'cmp -s "$T/s0" "$T/s1"'
	check "no state file left" '[ ! -e "$FTLENS_STATE_DIR/arm-oops.state" ]'
else
	[ $rc -eq 0 ] && "$FTLENS" arm-oops --disarm >/dev/null 2>&1
	for i in 1 2 3 4; do ok "# SKIP this kernel does not refuse the function tracer (exit $rc)"; done
fi
"$FTLENS" arm-oops -p no_such_tracer >/dev/null 2>"$T/err"
rc=$?
check "an unknown tracer: exit 1, names it and lists what is available" \
	'[ "$rc" -eq 1 ] && grep -q "tracer .no_such_tracer. is not available in this kernel (available: .*nop" "$T/err"'
snap >"$T/s1"
check "still nothing changed" 'cmp -s "$T/s0" "$T/s1"'

# ---- the sysctl: set it, or see it refused clearly ------------------------------
"$FTLENS" arm-oops -e sched -b 64 >"$T/out" 2>"$T/err"
rc=$?
if [ $rc -eq 1 ] && grep -q "the kernel refused '1'" "$T/err"; then
	check "a refused ftrace_dump_on_oops: one line naming it and the boot parameter" \
		'[ "$(wc -l <"$T/err")" -eq 1 ] && grep -q "$SYSCTL: the kernel refused .1. (Operation not permitted).*boot with .ftrace_dump_on_oops. on the kernel command line" "$T/err"'
	snap >"$T/s1"
	check "nothing changed when the sysctl was refused" 'cmp -s "$T/s0" "$T/s1"'
	cat "$SYSCTL" >"$T/dump"
	FTLENS_DUMP_ON_OOPS_FILE=$T/dump
	export FTLENS_DUMP_ON_OOPS_FILE
	diag "this kernel refuses ftrace_dump_on_oops at run time; the round trip uses $T/dump"
else
	check "the sysctl could be set (exit $rc)" '[ $rc -eq 0 ]'
	"$FTLENS" arm-oops --disarm >/dev/null 2>&1
	snap >"$T/s1"
	check "and --disarm put it back" 'cmp -s "$T/s0" "$T/s1"'
fi

# ---- arm, then disarm: every value back ------------------------------------------
snap >"$T/s0"
"$FTLENS" arm-oops -e sched -e no_such_event_t5102 -b 64 >/dev/null 2>"$T/err"
rc=$?
check "an unknown event: exit 1, names it" \
	'[ "$rc" -eq 1 ] && grep -q "no such event .*no_such_event_t5102" "$T/err"'
snap >"$T/s1"
check "an unknown event after a good one: every value put back" 'cmp -s "$T/s0" "$T/s1"'
before_buf=$(cat "$TR/buffer_size_kb")
before_dump=$(cat "${FTLENS_DUMP_ON_OOPS_FILE:-$SYSCTL}")
"$FTLENS" arm-oops -e sched -e irq:irq_handler_entry -b 64 --format json >"$T/arm.json" 2>"$T/err"
rc=$?
check "arm: exit 0" '[ $rc -eq 0 ]'
[ $rc -eq 0 ] || diag "$(cat "$T/err")"
check "ftrace_dump_on_oops is 1" '[ "$(cat "${FTLENS_DUMP_ON_OOPS_FILE:-$SYSCTL}")" = 1 ]'
check "tracing_on is 1" '[ "$(cat "$TR/tracing_on")" = 1 ]'
check "buffer_size_kb changed from $before_buf" '[ "$(cat "$TR/buffer_size_kb")" != "$before_buf" ]'
n_sched=$(find "$TR/events/sched" -mindepth 1 -maxdepth 1 -type d | wc -l)
check "set_event: the $n_sched sched events and irq_handler_entry, nothing else" \
	'[ "$(grep -c "^sched:" "$TR/set_event")" -eq "$n_sched" ] && grep -qx "irq:irq_handler_entry" "$TR/set_event" && [ "$(wc -l <"$TR/set_event")" -eq $(($n_sched + 1)) ]'
check "the current tracer is untouched without -p" \
	'[ "$(cat "$TR/current_tracer")" = "$(sed -n '\''s/^current_tracer=//p'\'' "$T/s0" | tr -d '\'' '\'')" ]'
check "ftrace_enabled is untouched" \
	'[ "ftrace_enabled=$(cat /proc/sys/kernel/ftrace_enabled 2>/dev/null)" = "$(grep '\''^ftrace_enabled='\'' "$T/s0")" ]'
got=$(json_get "$T/arm.json" "' '.join('%s:%s:%s:%s' % (r['setting'], r['before'], r['after'], r['changed']) for r in j['settings'] if r['setting'] != 'set_event')")
want="ftrace_dump_on_oops:$before_dump:1:$([ "$before_dump" = 1 ] && echo no || echo yes) buffer_size_kb:$before_buf:$(cat "$TR/buffer_size_kb"):yes tracing_on:0:1:yes"
check "json: each setting before and after, as read from the files ($want)" '[ "$got" = "$want" ]'
check "json: names the state file" \
	'[ "$(json_get "$T/arm.json" "j['\''state_file'\'']")" = "$FTLENS_STATE_DIR/arm-oops.state" ]'
check "the state file exists" '[ -f "$FTLENS_STATE_DIR/arm-oops.state" ]'
snap >"$T/armed"
"$FTLENS" arm-oops -e sched >/dev/null 2>"$T/err"
rc=$?
check "arming twice: exit 1, already armed" '[ "$rc" -eq 1 ] && grep -q "already armed" "$T/err"'
snap >"$T/s1"
check "arming twice changed nothing" 'cmp -s "$T/armed" "$T/s1"'
"$FTLENS" arm-oops --disarm >"$T/disarm.txt" 2>"$T/err"
rc=$?
check "--disarm: exit 0" '[ $rc -eq 0 ]'
snap >"$T/s1"
check "--disarm restored every value" 'cmp -s "$T/s0" "$T/s1"'
cmp -s "$T/s0" "$T/s1" || diag "$(diff "$T/s0" "$T/s1")"
check "--disarm removed the state file" '[ ! -e "$FTLENS_STATE_DIR/arm-oops.state" ]'
check "--disarm lists what it put back" \
	'grep -q "^buffer_size_kb .* $before_buf *yes" "$T/disarm.txt" && grep -q "^tracing_on *1 *0 *yes" "$T/disarm.txt"'
"$FTLENS" arm-oops --disarm >/dev/null 2>"$T/err"
rc=$?
check "--disarm again: exit 1, not armed" '[ "$rc" -eq 1 ] && grep -q "not armed: no state file" "$T/err"'

# ---- text output, a state file from an earlier boot, usage errors ----------------
"$FTLENS" arm-oops -e sched:sched_switch >"$T/arm.txt" 2>&1
check "text: a row per setting and where the old values are" \
	'grep -q "^set_event .* sched:sched_switch  *yes$" "$T/arm.txt" && grep -q "^previous values saved in $FTLENS_STATE_DIR/arm-oops.state" "$T/arm.txt"'
"$FTLENS" arm-oops --disarm >/dev/null 2>&1
snap >"$T/s1"
check "armed with one event and disarmed: every value back" 'cmp -s "$T/s0" "$T/s1"'
mkdir -p "$FTLENS_STATE_DIR"
printf '[arm-oops]\nboot_id=not-this-boot\nsettings=tracing_on;\n\n[tracing_on]\npath=%s/tracing_on\nbefore=1\n' "$TR" >"$FTLENS_STATE_DIR/arm-oops.state"
"$FTLENS" arm-oops --disarm >"$T/out" 2>&1
rc=$?
snap >"$T/s1"
check "a state file from another boot: exit 0, removed, nothing touched" \
	'[ "$rc" -eq 0 ] && grep -q "before the last boot" "$T/out" && [ ! -e "$FTLENS_STATE_DIR/arm-oops.state" ] && cmp -s "$T/s0" "$T/s1"'
# a planted state file naming something else is refused, nothing written
printf '[arm-oops]\nboot_id=%s\nsettings=../../../tmp/t5102-planted;\n\n[../../../tmp/t5102-planted]\nbefore=x\n' \
	"$(cat /proc/sys/kernel/random/boot_id)" >"$FTLENS_STATE_DIR/arm-oops.state"
"$FTLENS" arm-oops --disarm >/dev/null 2>"$T/err"
rc=$?
check "a state file naming an unknown setting: exit 1, nothing written" \
	'[ "$rc" -eq 1 ] && grep -q "not a setting arm-oops saved" "$T/err" && [ ! -e /tmp/t5102-planted ]'
rm -f "$FTLENS_STATE_DIR/arm-oops.state"
"$FTLENS" arm-oops -b 0 >/dev/null 2>&1
check "-b 0: usage error (exit 2)" '[ $? -eq 2 ]'
"$FTLENS" arm-oops --disarm -p nop >/dev/null 2>&1
check "--disarm with -p: usage error (exit 2)" '[ $? -eq 2 ]'
"$FTLENS" arm-oops extra >/dev/null 2>&1
check "an operand: usage error (exit 2)" '[ $? -eq 2 ]'
finish
