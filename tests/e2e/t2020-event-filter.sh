#!/bin/sh
# -e, --filter and -v against `trace-cmd report -F` / `-v -F` on the same
# files: every public trace.dat sample, and the text `trace-cmd report -t`
# makes of it. Each point compares the selected events as a multiset of
# (timestamp ns, CPU, event name): the same events, not only as many.
#
# Allowed differences (none hidden: each case says where it runs):
#   - `~` is the kernel's glob; libtraceevent 1.7 has none (its -F reads
#     `~` as an error and selects nothing), so a `~` case is compared with
#     trace-cmd's `=~` regex of the same pattern.
#   - a field compared with another field (temp > temp_prev) is an ftlens
#     extension: libtraceevent 1.7 refuses it, so no case compares one.
#   - prev_state == 0 and > 0 run on trace.dat only: trace-cmd's text
#     prints a preempted task (prev_state 2048 on the LISA kernel) as
#     plain "R", and a dead one as "x", so the number is not in the text.
. "$(dirname "$0")/lib.sh"
prereq TRACE_CMD
make_tmpdir

need_real_tracedats

# CASE lines: where (both: trace.dat and text, dat: trace.dat only) #
# ftlens options # trace-cmd report options
cat >"$T/cases" <<'EOF'
both # -e sched_switch # -F sched_switch
both # -e sched # -F sched
both # -e sched:sched_switch,cpu_idle # -F sched/sched_switch,cpu_idle
both # -e 'power:*' -e 'sched_*' # -F power -F 'sched_.*'
both # -e ftrace # -F ftrace
both # --filter 'sched_switch: prev_pid == 0 || next_pid == 0' # -F 'sched_switch: prev_pid == 0 || next_pid == 0'
both # --filter 'sched_switch: next_comm ~ "rt*"' # -F 'sched_switch: next_comm =~ "^rt"'
both # --filter 'sched_switch: prev_state & 1 && !(next_prio < 120)' # -F 'sched_switch: prev_state & 1 && !(next_prio < 120)'
both # --filter 'sched_switch: (CPU == 1 || CPU == 2) && next_pid != 0' # -F 'sched_switch: (CPU == 1 || CPU == 2) && next_pid != 0'
both # --filter '.*: COMM != "trace-cmd"' # -F '.*: COMM != "trace-cmd"'
both # --filter 'bprint: common_pid == 0' # -F 'bprint: common_pid == 0'
both # --filter 'cpu_idle: state >= 2 && cpu_id <= 3' --filter 'sched_migrate_task' # -F 'cpu_idle: state >= 2 && cpu_id <= 3' -F 'sched_migrate_task'
both # --filter 'thermal_temperature: temp > 53800' --filter 'cdev_update: type =~ "^thermal"' # -F 'thermal_temperature: temp > 53800' -F 'cdev_update: type =~ "^thermal"'
both # --filter 'sched_switch: next_comm == "rt-app"' --filter 'sched_switch: prev_comm == "rt-app"' # -F 'sched_switch: next_comm == "rt-app"' -F 'sched_switch: prev_comm == "rt-app"'
both # -v -e sched_switch # -v -F sched_switch
both # -v --filter 'sched_switch: prev_state & 1' # -v -F 'sched_switch: prev_state & 1'
both # -e sched_switch -v --filter 'sched_switch: next_pid == 0' # -F sched_switch -v -F 'sched_switch: next_pid == 0'
dat # --filter 'sched_switch: prev_state == 0' # -F 'sched_switch: prev_state == 0'
dat # --filter 'sched_switch: prev_state > 0' # -F 'sched_switch: prev_state > 0'
EOF
n_cases=$(wc -l <"$T/cases")
n_files=0
for f in $samples; do n_files=$((n_files + 1)); done
n_both=$(grep -c '^both ' "$T/cases")
plan $((n_files * (n_cases + n_both) + 3))

# (ts cpu name), one line per event, sorted: from ftlens dump (columns as
# views/dump.c prints them: the name from column 61 to its ':') and from
# trace-cmd report -t ("comm-pid [cpu] ts: name:").
ftl_keys() {
	awk '{ name = substr($0, 61); sub(/:.*/, "", name); print $1, $2, name }' | sort
}
tc_keys() {
	sed -nE 's/^.*\[0*([0-9]+)\] +([0-9]+\.[0-9]+): +([^ :]+):.*/\2 \1 \3/p' | sort
}

# same WHAT WANT GOT: the point passes when both selections are equal.
same() {
	if cmp -s "$2" "$3"; then
		ok "$1: $(wc -l <"$2") events"
	else
		not_ok "$1: $(wc -l <"$2") by trace-cmd, $(wc -l <"$3") by ftlens"
		diff "$2" "$3" | head -5 | sed 's/^/# /'
	fi
}

for f in $samples; do
	b=$(basename "$f" .dat)
	trace-cmd report -t "$f" >"$T/$b.txt" 2>/dev/null
	while IFS='#' read -r where ftl tc; do
		where=${where% }
		# trace-cmd is the reference only when it succeeds. It fails
		# when a filter names an event the file lacks, and its 3.1.6
		# reads past a zero-length buffer parsing the trappy files'
		# trace_clock option (valgrind shows it). A failed run compares
		# nothing and the skip quotes its error.
		if ! eval "trace-cmd report -t $tc \"\$f\"" >"$T/tc.out" 2>"$T/tc.err"; then
			why="trace-cmd report $tc failed: $(sed -n 's/^ *//; /./{p;q}' "$T/tc.err" | cut -c1-120)"
			skip "$b.dat: ftlens $ftl: $why"
			[ "$where" = both ] && skip "$b as trace-cmd report text: ftlens $ftl: $why"
			continue
		fi
		tc_keys <"$T/tc.out" >"$T/want"
		# and its =~ filters once selected nothing under make -j2 where
		# they select events alone (CI, and a full run here): an empty
		# answer is asked for again before it is believed
		if [ ! -s "$T/want" ] && eval "trace-cmd report -t $tc \"\$f\"" 2>/dev/null |
			tc_keys >"$T/want2" && [ -s "$T/want2" ]; then
			diag "trace-cmd report $tc selected nothing, then $(wc -l <"$T/want2") events"
			mv "$T/want2" "$T/want"
		fi
		if [ -s "$T/want" ]; then
			eval "\"\$FTLENS\" dump $ftl \"\$f\"" 2>/dev/null | ftl_keys >"$T/got"
			same "$b.dat: ftlens $ftl = trace-cmd report $tc" "$T/want" "$T/got"
		else
			skip "$b.dat: ftlens $ftl: trace-cmd selects nothing here; the text" \
				"version is compared (reading a trace.dat costs seconds)"
		fi
		[ "$where" = both ] || continue
		eval "\"\$FTLENS\" dump $ftl \"\$T/\$b.txt\"" 2>/dev/null | ftl_keys >"$T/got"
		same "$b as trace-cmd report text: ftlens $ftl" "$T/want" "$T/got"
	done <"$T/cases"
done

# Not vacuous: the LISA trace has events for most cases above; the
# comparisons must have selected some, and not all, of its events.
lisa="$FTL_REAL_DATA/raw/lisa_rtapp_6cpu_trace.dat"
check "the LISA sample: a filter keeps some and drops some (not all equal by accident)" '
	[ -f "$lisa" ] &&
	all=$("$FTLENS" dump "$lisa" | wc -l) &&
	some=$("$FTLENS" dump --filter "sched_switch: next_comm ~ \"rt*\"" "$lisa" | wc -l) &&
	[ "$some" -gt 0 ] && [ "$some" -lt "$all" ]'

check "a bad expression: exit 2, the expression and a caret under the column" '
	"$FTLENS" dump --filter "sched_switch: prev_pid == 1 &&& x" "$lisa" >"$T/out" 2>"$T/err"
	[ $? -eq 2 ] && [ ! -s "$T/out" ] &&
	grep -q "at column 31" "$T/err" &&
	grep -qx "  sched_switch: prev_pid == 1 &&& x" "$T/err" &&
	grep -qx "                                ^" "$T/err"'

check "-v with nothing to invert is a usage error; --verbose is not" '
	"$FTLENS" dump -v "$lisa" >/dev/null 2>"$T/err"
	[ $? -eq 2 ] && grep -q "inverts" "$T/err" &&
	"$FTLENS" dump --verbose -n 1 "$lisa" >/dev/null'
finish
