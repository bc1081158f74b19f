#!/bin/sh
# Captures whose ring buffers overran on both CPUs, for the figures every
# command shares (lost events per CPU, from the input's own statistics):
# sched and irq events in 8 KB per-CPU buffers in overwrite mode while both
# CPUs work, stopped by the workload writing tracing_on. Needs the ftlens
# under test (run-vm.sh --with-binary), so make-fixtures.sh skips it; the
# committed copy is tests/data/overrun/ (its README says how).
# Out: overrun.hit1.dat (ftlens record --flight: its pages carry the
# missed-events counts, its saved CPU statistics the overruns) and
# overrun-text/ (tracefs's own text of another such run: per_cpu/cpuN/trace
# and stats, and the merged trace).
# /proc/kallsyms is bind-mounted over by a few lines of it first, so that
# each capture stays a few KB rather than 3.6 MB.
#@timeout 420
#@fixture no
# shellcheck source=SCRIPTDIR/../guest-lib.sh
. /guest-lib.sh
set -u
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:allocator_may_return_null=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
if ! command -v ftlens >/dev/null 2>&1; then
	log "no ftlens in the initramfs (run-vm.sh --with-binary PATH)"
	exit 1
fi
save_env
reset_tracing

grep -E ' (_stext|_etext|schedule|do_idle|irq_exit_rcu)$' /proc/kallsyms >/tmp/kallsyms
mount -o bind /tmp/kallsyms /proc/kallsyms || log "cannot bind-mount over /proc/kallsyms"
log "kallsyms now $(wc -l </proc/kallsyms) lines"

log "dat: at $(cut -d' ' -f1 /proc/uptime)s"
ftlens record --flight -b 8 -e sched -e irq -o /out/overrun.dat -- sh -c \
	'. /guest-lib.sh; work 6; echo 0 >"$FTLENS_TRACEFS/tracing_on"' 2>"$OUT/dat.err"
echo $? >"$OUT/dat.rc"
log "dat: exit $(cat "$OUT/dat.rc")"

# tracefs's own text of an overrun buffer, per CPU and merged
reset_tracing
echo 8 >"$T/buffer_size_kb"
echo 1 >"$T/events/sched/enable"
echo 1 >"$T/events/irq/enable"
echo 1 >"$T/tracing_on"
work 6
echo 0 >"$T/tracing_on"
for d in "$T"/per_cpu/cpu*; do
	c=${d##*/}
	save "per_cpu/$c/trace" "overrun-text/per_cpu/$c/trace"
	save "per_cpu/$c/stats" "overrun-text/per_cpu/$c/stats"
done
save trace overrun-text/trace.txt
echo 0 >"$T/events/enable"
echo 1408 >"$T/buffer_size_kb"
umount /proc/kallsyms || true
exit 0
