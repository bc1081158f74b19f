#!/bin/sh
# Crash logs whose CPUs print at once: every stack and every register dump
# of a report stays with the CPU (printk context) that printed it.
# - tests/data/oops-contexts: an RCU stall detected by CPU 1 whose NMI
#   backtrace of CPU 0 comes in CPU 0's context ([    C0]): that stack and
#   those registers are CPU 0's, and CPU 0's task is not the report's.
# - ../shared's soft lockup with NMI backtraces of CPUs 1, 0 and 3 (cpu 0's
#   and 3's printed in CPU 2's context): one stack per CPU, and each register
#   dump named by its context (the report's, user mode, the NMI backtrace's,
#   the context an interrupt interrupted).
# - the same log with CPU 1's and CPU 0's backtraces interleaved line by
#   line (as kernels without serialised NMI backtraces print them; made
#   here from the shared log, not stored): with caller ids, each CPU's stack
#   holds its own frames (7 and 9) and says it was mixed; without them, the
#   one stack of both (16) says it is mixed (the times go back), and names
#   no CPU.
# - an old-format WARNING ("WARNING: at kernel/workqueue.c:1360", ppc32
#   3.17, no function in the header): titled from the NIP line and the
#   trace by syzkaller's rules (__queue_work and queue_work_on are never
#   blamed there): "WARNING in led_trigger_event".
# - a 2.6.18 lockdep splat (no "CPU: N PID:" line): task and kernel from
#   lockdep's own lines.
# - one register dump per architecture's layout: s390 (Krnl PSW, Krnl GPRS
#   and its three continuation lines), ppc64 (NIP, LR, GPRnn), arm64 (pc,
#   lr, x29...).
# - i386 before 3.x, where EIP carries the code segment ("EIP:
#   0060:[<c10731b2>] EFLAGS: 00000246 CPU: 0") and names the function on a
#   line of its own ("EIP is at"): one register dump with the CPU that line
#   gives, the faulting function from it, die()'s closing "EIP: [<...>]
#   func SS:ESP" no second dump; and 2.6.26's release in parentheses
#   ("Not tainted (2.6.26-rc3-00003-g5abc28d #82)").
# - arm: the function an exception interrupted (named after "Exception
#   stack" as a callee only) stays in the trace.
# The summary lines come from oops_contexts.py (reliable frames only).
. "$(dirname "$0")/lib.sh"
prereq PYTHON
make_tmpdir
plan 15
H=$(dirname "$0")

# summary LOG: oops_contexts.py of the first report of LOG in $T/got
summary() {
	"$FTLENS" oops --json "$1" >"$T/json" 2>"$T/err" &&
		python3 "$H/oops_contexts.py" "$T/json" 1 >"$T/got"
}

rcu=$FTL_TESTDATA/oops-contexts/syzbot_x86_rcu_stall_nmi_backtrace_cpu0.log
cat >"$T/want" <<'EOF_RCU'
report cpu=None pid=None comm=None fault=None regs=0
stack 23 cpu=0 caller=C0 frames=27 mixed=False: linkwatch_event process_one_work worker_thread kthread ret_from_fork ret_from_fork_asm
stack 59 cpu=None caller=C1 frames=27 mixed=False: __schedule schedule schedule_timeout rcu_gp_fqs_loop rcu_gp_kthread kthread ret_from_fork ret_from_fork_asm
regs 9 nmi-backtrace cpu=0 n=34: RIP=0010:__linkwatch_run_queue+0x1fa/0x460
EOF_RCU
check "RCU stall: CPU 0's NMI backtrace is CPU 0's stack and register dump, not the report's task" \
	'summary "$rcu" && diff -u "$T/want" "$T/got"'
check "RCU stall, text: the stack and the registers say whose they are" '
	"$FTLENS" oops "$rcu" >"$T/text" &&
	grep -qx "  Call Trace (line 23, cpu 0, 27 frames):" "$T/text" &&
	grep -qx "  Registers, nmi-backtrace (line 9, cpu 0):" "$T/text" &&
	! grep -q "^  task " "$T/text"'

# names CONTEXT-OF-DUMP-N LOG N: "context: name name ..." of register dump N
names() {
	"$FTLENS" oops --json "$1" | python3 -c '
import json, sys
d = json.load(sys.stdin)["logs"][0]["reports"][0]["register_dumps"][int(sys.argv[1])]
print(d["context"] + ": " + " ".join(g["name"] for g in d["registers"]))
print(" ".join(g["name"] + "=" + g["value"] for g in d["registers"]))' "$2"
}
pub=$FTL_TESTDATA/oops-public
check "s390: Krnl PSW and the four lines of Krnl GPRS are the report's registers, r0 to r15" '
	names "$pub/lkml_s390_oops_blk_rq_merge_ok.log" 0 >"$T/n" &&
	[ "$(sed -n 1p "$T/n")" = "report: PSW r0 r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 r12 r13 r14 r15" ] &&
	sed -n 2p "$T/n" | grep -q "^PSW=0704c00180000000 0000000000811ee4 r0=8000000000000001 .* r15=00000380003b7550\$" &&
	"$FTLENS" oops "$pub/lkml_s390_oops_blk_rq_merge_ok.log" | grep -q "^    PSW=0704c00180000000 0000000000811ee4 r0=8000000000000001"'
check "ppc64: NIP, LR and GPR00 to GPR31 make one dump, the report's" '
	names "$pub/lkml_ppc64_elfv1_warning_do_feature_fixups.log" 0 >"$T/n" &&
	[ "$(sed -n 1p "$T/n")" = "report: NIP LR CTR REGS TRAP MSR CR XER CFAR IRQMASK $(seq -f GPR%02g 0 31 | tr "\n" " " | sed "s/ \$//")" ]'

ppc=$FTL_TESTDATA/oops-contexts/lkml_ppc32_warning_at_no_function_queue_work.log
check "old format \"WARNING: at FILE:LINE\" and no function: the title's function comes from NIP and the trace" '
	"$FTLENS" oops --json "$ppc" | python3 -c "
import json, sys
r = json.load(sys.stdin)[\"logs\"][0][\"reports\"][0]
got = (r[\"title\"], r[\"blamed\"], r[\"location\"], r[\"fault_register\"], r[\"fault\"][\"function\"], r[\"comm\"], r[\"release\"])
want = (\"WARNING in led_trigger_event\", \"led_trigger_event\", \"kernel/workqueue.c:1360\", \"NIP\", \"__queue_work\", \"kadbprobe\", \"3.17.0-rc7-mm1-yocto-standard+\")
print(got)
sys.exit(got != want)" &&
	"$FTLENS" oops "$ppc" | grep -qx "Report 1 of 1: WARNING in led_trigger_event"'

check "a lockdep splat with no CPU line: the task from its \"is trying to acquire\" line, the kernel from its ident line" '
	"$FTLENS" oops "$FTL_TESTDATA/oops-contexts/lkml_x86_2.6.18_lockdep_circular_no_cpu_line.log" >"$T/text" &&
	grep -qx "  task       PID 186, comm kswapd0" "$T/text" &&
	grep -qx "  kernel     2.6.18-1.2189self #1, taint not printed" "$T/text"'

# i386 JSON summary: task, kernel, title, fault, its dumps
i386() {
	"$FTLENS" oops --json "$1" >"$T/json" && python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))[\"logs\"][0][\"reports\"][0]
print(r[\"comm\"], r[\"pid\"], r[\"cpu\"], r[\"release\"], r[\"build\"], r[\"fault_register\"], r[\"fault\"][\"function\"], r[\"fault\"][\"offset\"], r[\"title\"], sep=\"|\")
for d in r[\"register_dumps\"]:
    print(d[\"context\"], d[\"line\"], d[\"cpu\"], \" \".join(g[\"name\"] + \"=\" + g[\"value\"] for g in d[\"registers\"]))" "$T/json" >"$T/got"
}
cat >"$T/want" <<'EOF_I386'
sh|18|0|2.6.37-rc3|#3|EIP|mem_cgroup_move_account|226|kernel BUG in mem_cgroup_move_account
report 7 0 EIP=0060:[<c10731b2>] EFLAGS=00000246 EAX=00000004 EBX=c6f931d4 ECX=c681c300 EDX=c681c000 ESI=c681c300 EDI=ffffffea EBP=c681c000 ESP=c46f3e30 DS=007b ES=007b FS=0000 GS=0033 SS=0068
EOF_I386
check "i386 2.6.37 \"EIP: 0060:[<c10...>]\": one dump with its CPU, the function from \"EIP is at\"" \
	'i386 "$FTL_TESTDATA/oops-contexts/lkml_i386_2.6.37_kernel_bug_eip_cs_mem_cgroup_move_account.log" &&
	 diff -u "$T/want" "$T/got"'
cat >"$T/want" <<'EOF_I386'
swapper|0|0|2.6.26-rc3-00003-g5abc28d|#82|IP|get_page_from_freelist|74|BUG: unable to handle kernel NULL pointer dereference in get_page_from_freelist
report 2 0 IP=[<c1042507>]
report 8 0 EIP=0060:[<c1042507>] EFLAGS=00010282 EAX=c1371ed8 EBX=00000000 ECX=00000000 EDX=00000000 ESI=f7801180 EDI=00000000 EBP=00000000 ESP=c1371ec0 DS=007b ES=007b FS=00d8 GS=0000 SS=0068
EOF_I386
check "i386 2.6.26 NULL dereference: the release out of its parentheses, EIP's dump whole" \
	'i386 "$FTL_TESTDATA/oops-contexts/lkml_i386_2.6.26_null_deref_ip_eip_get_page_from_freelist.log" &&
	 diff -u "$T/want" "$T/got"'

lockup=$FTL_REAL_DATA/oops/syzbot_report_350_x86_soft_lockup_nmi_backtraces_tcaller.log
if have_input "$lockup" 5; then
	cat >"$T/want" <<'EOF_350'
report cpu=2 pid=4888 comm=syz-executor4 fault=__sanitizer_cov_trace_const_cmp4 regs=35
stack 24 cpu=2 caller=C2 frames=25 mixed=False: smp_call_function_many smp_call_function on_each_cpu text_poke_bp __jump_label_transform arch_jump_label_transform __jump_label_update jump_label_update __static_key_slow_dec_cpuslocked static_key_slow_dec tracepoint_probe_unregister trace_event_reg perf_trace_event_unreg.isra.0 perf_trace_destroy tp_perf_event_destroy _free_event put_event perf_event_release_kernel perf_release __fput ____fput task_work_run exit_to_usermode_loop do_syscall_64 entry_SYSCALL_64_after_hwframe
stack 74 cpu=1 caller=C1 frames=7 mixed=False: __const_udelay try_check_zero process_srcu process_one_work worker_thread kthread ret_from_fork
stack 96 cpu=0 caller=C2 frames=9 mixed=False: do_raw_spin_lock _raw_spin_lock drm_handle_vblank drm_crtc_handle_vblank vkms_vblank_simulate __hrtimer_run_queues hrtimer_interrupt smp_apic_timer_interrupt apic_timer_interrupt
stack 130 cpu=3 caller=C2 frames=22 mixed=False: _raw_spin_lock_irqsave lock_hrtimer_base.isra.0 hrtimer_try_to_cancel hrtimer_cancel vkms_disable_vblank drm_vblank_disable_and_save vblank_disable_fn call_timer_fn __run_timers run_timer_softirq __do_softirq irq_exit smp_apic_timer_interrupt apic_timer_interrupt __get_user_pages get_user_pages_remote copy_strings.isra.0 copy_strings_kernel __do_execve_file.isra.0 __x64_sys_execve do_syscall_64 entry_SYSCALL_64_after_hwframe
stack 174 cpu=2 caller=C2 frames=32 mixed=False: dump_stack panic watchdog_timer_fn.cold __hrtimer_run_queues hrtimer_interrupt smp_apic_timer_interrupt apic_timer_interrupt smp_call_function_many smp_call_function on_each_cpu text_poke_bp __jump_label_transform arch_jump_label_transform __jump_label_update jump_label_update __static_key_slow_dec_cpuslocked static_key_slow_dec tracepoint_probe_unregister trace_event_reg perf_trace_event_unreg.isra.0 perf_trace_destroy tp_perf_event_destroy _free_event put_event perf_event_release_kernel perf_release __fput ____fput task_work_run exit_to_usermode_loop do_syscall_64 entry_SYSCALL_64_after_hwframe
regs 10 report cpu=2 n=35: RIP=0010:__sanitizer_cov_trace_const_cmp4+0xd/0x20
regs 49 user cpu=2 n=19: RIP=0033:0x411071
regs 62 nmi-backtrace cpu=1 n=28: RIP=0010:delay_tsc+0x33/0xc0
regs 84 nmi-backtrace cpu=0 n=28: RIP=0010:native_queued_spin_lock_slowpath+0x323/0x1290
regs 107 user cpu=0 n=19: RIP=0033:0x4179c0
regs 118 nmi-backtrace cpu=3 n=28: RIP=0010:lock_acquire+0x27d/0x570
regs 146 interrupted cpu=3 n=19: RIP=0010:handle_mm_fault+0x7f4/0xc80
regs 162 user cpu=3 n=19: RIP=0033:0x7fdf8c90e207
regs 183 interrupted cpu=2 n=19: RIP=0010:__sanitizer_cov_trace_const_cmp4+0xd/0x20
regs 216 user cpu=2 n=19: RIP=0033:0x411071
EOF_350
	check "NMI backtraces of CPUs 1, 0, 3: one stack per CPU, each register dump with its context" \
		'summary "$lockup" && diff -u "$T/want" "$T/got"'
	check "text: each other stack names its CPU, each register dump its context" '
		"$FTLENS" oops "$lockup" >"$T/text" &&
		grep -q "^    line 74 .* cpu 1 *7 frames, top __const_udelay\$" "$T/text" &&
		grep -q "^    line 96 .* cpu 0 *9 frames, top do_raw_spin_lock\$" "$T/text" &&
		grep -qx "  Registers, interrupted (line 146, cpu 3):" "$T/text" &&
		grep -qx "  Registers, user (line 162, cpu 3):" "$T/text"'

	# CPU 1's backtrace (lines 58-80, [C1]) and CPU 0's (81-114, [C2])
	# interleaved line by line
	{
		sed -n 1,57p "$lockup"
		awk 'NR >= 58 && NR <= 80 { a[++na] = $0 } NR >= 81 && NR <= 114 { b[++nb] = $0 }
			END { for (i = 1; i <= na || i <= nb; i++) { if (i <= na) print a[i]; if (i <= nb) print b[i] } }' "$lockup"
		sed -n '115,$p' "$lockup"
	} >"$T/mixed.log"
	sed 's/^\(\[ *[0-9.]*\]\)\[ *[CT][0-9]*\]/\1/' "$T/mixed.log" >"$T/noid.log"
	cat >"$T/want" <<'EOF_MIXED'
stack 89 cpu=0 caller=C2 frames=9 mixed=True: do_raw_spin_lock _raw_spin_lock drm_handle_vblank drm_crtc_handle_vblank vkms_vblank_simulate __hrtimer_run_queues hrtimer_interrupt smp_apic_timer_interrupt apic_timer_interrupt
stack 90 cpu=1 caller=C1 frames=7 mixed=True: __const_udelay try_check_zero process_srcu process_one_work worker_thread kthread ret_from_fork
regs 65 nmi-backtrace cpu=0 n=28: RIP=0010:native_queued_spin_lock_slowpath+0x323/0x1290
regs 66 nmi-backtrace cpu=1 n=28: RIP=0010:delay_tsc+0x33/0xc0
EOF_MIXED
	check "interleaved with caller ids: CPU 0's 9 frames and CPU 1's 7 apart, both marked mixed" \
		'summary "$T/mixed.log" && grep -E "^stack (89|90) |^regs (65|66) " "$T/got" >"$T/some" &&
		 diff -u "$T/want" "$T/some"'
	cat >"$T/want" <<'EOF_NOID'
stack 89 cpu=None caller=None frames=16 mixed=True: __const_udelay do_raw_spin_lock try_check_zero _raw_spin_lock process_srcu drm_handle_vblank process_one_work drm_crtc_handle_vblank worker_thread vkms_vblank_simulate kthread __hrtimer_run_queues ret_from_fork hrtimer_interrupt smp_apic_timer_interrupt apic_timer_interrupt
regs 65 nmi-backtrace cpu=None n=56: RIP=0010:native_queued_spin_lock_slowpath+0x323/0x1290
EOF_NOID
	check "interleaved without caller ids: the one stack of both is marked mixed and names no CPU" \
		'summary "$T/noid.log" && grep -E "^stack 89 |^regs 65 " "$T/got" >"$T/some" &&
		 diff -u "$T/want" "$T/some"'
	check "the interleaved log's other stacks are those of the log as printed" '
		summary "$lockup" && grep -E "^stack (24|130|174) " "$T/got" | cut -d" " -f3- >"$T/a" &&
		summary "$T/mixed.log" && grep -E "^stack (24|130|174) " "$T/got" | cut -d" " -f3- >"$T/b" &&
		[ -s "$T/a" ] && diff -u "$T/a" "$T/b"'
fi
arm64=$FTL_REAL_DATA/oops/syzbot_report_663_arm64_kernel_stack_overflow.log
if have_input "$arm64"; then
	check "arm64: pstate, pc, lr, sp and x29 to x0 make one dump, the report's" '
		names "$arm64" 0 >"$T/n" &&
		[ "$(sed -n 1p "$T/n")" = "report: pstate pc lr sp $(seq -f x%g 29 -1 0 | tr "\n" " " | sed "s/ \$//")" ]'
fi
arm32=$FTL_REAL_DATA/oops/syzbot_report_553_arm32_lockdep_inconsistent_lock_state.log
if have_input "$arm32"; then
	# "(gic_handle_irq) from (__irq_svc)", "Exception stack(...)", then
	# "(arch_cpu_idle) from (default_idle_call)": arch_cpu_idle is where
	# the interrupt came in, named by no line as a caller
	check "arm: the function an exception interrupted stays in the trace" '
		"$FTLENS" oops --json "$arm32" | python3 -c "
import json, sys
r = json.load(sys.stdin)[\"logs\"][0][\"reports\"][0]
fs = [f[\"function\"] for s in r[\"stacks\"] for f in s[\"frames\"]]
i = fs.index(\"__irq_svc\")
sys.exit(fs[i - 1:i + 4] != [\"gic_handle_irq\", \"__irq_svc\", \"arch_cpu_idle\", \"default_idle_call\", \"do_idle\"])"'
fi
finish
