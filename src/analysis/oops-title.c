/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Report titles in syzbot's conventions: a table of report families and, per
 * family, rules that say which text names the bug and which stack frame it
 * is blamed on, and an engine that runs them over a report's text.
 *
 * Where the conventions come from: syzbot's titles are the ones syzkaller's
 * report parser makes (google/syzkaller, pkg/report/linux.go for the
 * kernel's report formats, pkg/report/report.go for what every title goes
 * through), and its test data (pkg/report/testdata/linux/report/) is what
 * t4102 measures these titles against. A title is only worth having if it
 * is the same string syzbot and the mailing lists use, so the facts behind
 * it are the same here: which line opens a report and which only looks
 * like one, what text a title keeps, where its frame is looked for, which
 * functions are never blamed. The form is this file's own: C tables of
 * TitleRule per family run by a small engine (title_steps(), title_pick()),
 * not a port of syzkaller's Go. For whoever brings a rule up to a newer
 * syzkaller, what corresponds to what there:
 *
 *   title_families[] header, not_header   linux.go linuxOopses: header, suppressions
 *   TitleRule title, detail, fmt          oopsFormat: title, report, fmt
 *   TitleRule steps, steps2 ({CT}, TRACE) oopsFormat stack (stackFmt): parts, parts2
 *   TitleRule skip; title_skip[]          stackFmt skip; linuxStackParams skipPatterns
 *   RULE_NO_STACK, RULE_CORRUPTED         oopsFormat noStackTrace, corrupted
 *   PICK_STALL; title_stall_anchors[]     linuxStallFrameExtractor; linuxStallAnchorFrames
 *   PICK_HANG; hang_skip                  linuxHangTaskFrameExtractor
 *   title_stack_starts[]; corrupt_line    linuxStackParams stackStartRes, corruptedLines
 *   {RIP}, {PC}, {FN}                     linuxRipFrame, {{PC}}, {{FUNC}}
 *   norm[], ftl_oops_title_normalize()    report.go dynamicTitleReplacement, sanitizeTitle
 *
 * Which lines a title is read from (the report's context, the panic left
 * out after 22 lines) follows linux.go's findReport(), in analysis/oops.c.
 * The two rules syzkaller has no counterpart for (hard LOCKUP, a bare
 * Oops) say so where they stand. */
#include "analysis/oops-title.h"

#include <string.h>

/* The rule table below leaves the trailing fields of most rules zero. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

/* ---- the rules ------------------------------------------------------------- */

/* Pattern shorthands (after syzkaller's {{PC}}, {{FUNC}} and linuxRipFrame;
 * {RIP} also takes arm's "PC is at"), expanded when the rules are compiled:
 *   {PC}  a printed address "[<ffffffff81000000>]" / "[c000...]"
 *   {FN}  a function name, captured, followed by its offset or a suffix;
 *         ppc64 ELFv1's leading dot (".kfree+0x10/0x20") left out
 *   {SRC} a source location "net/core/dev.c:123", captured
 *   {RIP} the line that says where the CPU was: RIP:, IP:, NIP, "pc :",
 *         "PC is at", possibly a user address or (null); and, where syzkaller
 *         has none (its titles there end "in corrupted"), s390's "Krnl PSW",
 *         mips' "epc   :" and the klogd era's "EIP: 0010:[module:func+d/d]"
 *   {CT}  the start of a call trace */
static const struct {
	const char *name, *text;
} title_macros[] = {
	{ "{RIP}", "(?:(?:IP|NIP|pc |PC is at):? (?:(?:[0-9]+:)?(?:{PC} +){0,2}{FN}|(?:[0-9]+:)?0x"
		   "[0-9a-f]+|(?:[0-9]+:)?{PC} +\\[< *\\(null\\)>\\] +\\(null\\)|[0-9]+: +"
		   "\\(null\\))|Krnl PSW : [0-9a-f]+ [0-9a-f]+ \\({FN}|epc +: [0-9a-f]+ {FN}|"
		   "EIP: +[0-9a-f]+:\\[(?:[a-zA-Z0-9_]+:)?{FN})" },
	{ "{CT}", "(?:Call (?:T|t)race:|Backtrace:)" },
	{ "{PC}", "\\[<?(?:0x)?[0-9a-f]+>?\\]" },
	{ "{FN}", "\\.?([a-zA-Z0-9_]+)(?:\\.|\\+)" },
	{ "{SRC}", "([a-zA-Z0-9\\-_/.]+\\.[a-z]+:[0-9]+)" },
};

/* A step list names where the blamed frame is found: each step is a pattern
 * searched line by line (its first capture that is not skipped is a
 * candidate frame), or TRACE: the frames of the stack trace that follows,
 * up to the next trace or the next step's pattern. */
#define TRACE	   "@trace"
#define STEPS(...) ((const char *const[]){ __VA_ARGS__, NULL })
#define RIP_TRACE  STEPS("{RIP}", "{CT}", TRACE)
#define CALL_TRACE STEPS("{CT}", TRACE)
#define WARN_STEPS STEPS("(?:{RIP}|--- interrupt: [0-9]+ at {FN})", TRACE)

/* How the blamed frame is chosen among the candidates; the two special ones
 * are syzkaller's frame extractors for stalls and hung tasks. */
typedef enum {
	PICK_FIRST, /* the first candidate */
	PICK_STALL, /* stalls loop anywhere: the caller of a dispatch point */
	PICK_HANG,  /* hung tasks wait somewhere common: skip the waiting */
} TitlePick;

enum {
	RULE_NO_STACK = 1u << 0,  /* a report without a stack trace is not damaged */
	RULE_CORRUPTED = 1u << 1, /* matching this rule means the report is damaged */
	/* ftlens's own rule, where syzkaller has none: a kernel developer's
	 * reading, whose title keeps the numbers it names (kmalloc-64) */
	RULE_OWN = 1u << 2,
	/* no frame found in the stack (every one unreliable, "? func"): blame
	 * the function the header names, the title pattern's last group */
	RULE_HEADER_FRAME = 1u << 3,
};

/* title: the rule applies where this pattern matches first in the report;
 * detail: a pattern that must match too, whose groups then feed fmt; fmt:
 * {N} is the Nth value, counting the pattern's groups, then the frames. */
typedef struct {
	const char *title, *detail, *fmt;
	const char *const *steps, *const *steps2;
	const char *skip; /* more functions never blamed (alternatives) */
	TitlePick pick;
	guint flags;
	const char *const *steps3; /* tried when steps and steps2 find nothing */
} TitleRule;

/* The rules of each family are tried in order: the rule whose title matches
 * earliest in the text wins, the first such on a tie. */

/* A family with a single rule. */
#define ONE_RULE(name, ...) static const TitleRule name[] = { { __VA_ARGS__ }, { NULL } }

typedef struct {
	const char *header;	/* substring of the line that opens the report */
	const char *not_header; /* lines that contain it but open nothing */
	const TitleRule *rules; /* ends with a NULL title */
} TitleFamily;

static const TitleRule rules_bug[] = {
	{ "BUG: KASAN:",
	  "BUG: KASAN: ([a-z\\-]+) in {FN}(?:.*\\n)+?.*(Read|Write) (?:of size|at addr) "
	  "(?:[0-9a-f]+)",
	  "KASAN: {1} {3} in {4}", STEPS("BUG: KASAN: (?:[a-z\\-]+) in {FN}", "{CT}", TRACE), NULL,
	  "kernel_fault|tag_check|mem_abort|^el1_|^el1h_" },
	{ "BUG: KASAN:",
	  "BUG: KASAN: (?:double-free or invalid-free|double-free|invalid-free) in {FN}",
	  "KASAN: invalid-free in {2}",
	  STEPS("BUG: KASAN: (?:double-free or invalid-free|double-free|invalid-free) in {FN}",
		"{CT}", TRACE),
	  NULL, "slab_|kfree|vunmap|vfree" },
	{ "BUG: KASAN: ([a-z\\-]+) on address(?:.*\\n)+?.*(Read|Write) of size ([0-9]+)", NULL,
	  "KASAN: {1} {2}" },
	{ "BUG: KASAN: (.*)", NULL, "KASAN: {1}", .flags = RULE_CORRUPTED },
	{ "BUG: KMSAN: kernel-usb-infoleak", "BUG: KMSAN: kernel-usb-infoleak in {FN}",
	  "KMSAN: kernel-usb-infoleak in {2}",
	  STEPS(TRACE, "(Local variable .* created at:|Uninit was created at:)", TRACE), NULL,
	  "alloc_skb|usb_submit_urb|usb_start_wait_urb|usb_bulk_msg|usb_interrupt_msg|"
	  "usb_control_msg",
	  .flags = RULE_NO_STACK },
	{ "BUG: KMSAN:", "BUG: KMSAN: ([a-z\\-]+) in {FN}", "KMSAN: {1} in {3}",
	  STEPS(TRACE, "(Local variable .* created at:|Uninit was created at:)", TRACE), NULL,
	  "alloc_skb|netlink_ack|netlink_rcv_skb|_encrypt$|^(?:crypto|cipher|drbg|rng)_",
	  .flags = RULE_NO_STACK },
	{ "BUG: KCSAN: data-race", "BUG: KCSAN: (.*)", "KCSAN: {1}", .flags = RULE_NO_STACK },
	{ "BUG: KCSAN:", "BUG: KCSAN: (.*)", "KCSAN: {1}", .flags = RULE_NO_STACK },
	{ "BUG: KFENCE: (use-after-free|out-of-bounds) (read|write) in {FN}", NULL,
	  "KFENCE: {1} {2} in {4}", STEPS("BUG: KFENCE: (?:[a-z\\- ]+) in {FN}", TRACE) },
	{ "BUG: KFENCE: invalid free in {FN}", NULL, "KFENCE: invalid free in {2}",
	  STEPS("BUG: KFENCE: (?:[a-z\\- ]+) in {FN}", TRACE), .flags = RULE_NO_STACK },
	{ "BUG: KFENCE: invalid (read|write) in {FN}", NULL, "KFENCE: invalid {1} in {3}",
	  STEPS("BUG: KFENCE: (?:[a-z\\- ]+) in {FN}", TRACE) },
	{ "BUG: KFENCE: memory corruption in {FN}", NULL, "KFENCE: memory corruption in {2}",
	  STEPS("BUG: KFENCE: (?:[a-z\\- ]+) in {FN}", TRACE), .flags = RULE_NO_STACK },
	{ "BUG: (?:unable to handle kernel paging request|unable to handle page fault for "
	  "address|Unable to handle kernel data access)",
	  NULL, "BUG: unable to handle kernel paging request in {1}", RIP_TRACE },
	{ "BUG: (?:unable to handle kernel NULL pointer dereference|kernel NULL pointer "
	  "dereference|Kernel NULL pointer dereference)",
	  NULL, "BUG: unable to handle kernel NULL pointer dereference in {1}", RIP_TRACE },
	{ "BUG: (?:unable to handle kernel|Unable to handle kernel)", NULL,
	  "BUG: unable to handle kernel", .flags = RULE_CORRUPTED },
	{ "BUG: (spinlock|rwlock) (lockup suspected|already unlocked|recursion|cpu recursion|bad "
	  "magic|wrong owner|wrong CPU|trylock failure on UP)",
	  NULL, "BUG: {1} {2} in {3}", CALL_TRACE, NULL, "spin_|_lock|_unlock" },
	{ "BUG: soft lockup", NULL, "BUG: soft lockup in {1}", RIP_TRACE, .pick = PICK_STALL },
	{ "BUG: .*still has locks held!", "BUG: .*still has locks held!(?:.*\\n)+?.*{PC} +{FN}",
	  "BUG: still has locks held in {1}" },
	{ "BUG: scheduling while atomic", NULL, "BUG: scheduling while atomic in {1}", CALL_TRACE,
	  NULL, "schedule" },
	{ "BUG: lock held when returning to user space",
	  "BUG: lock held when returning to user space(?:.*\\n)+?.*leaving the kernel with locks "
	  "still held(?:.*\\n)+?.*at: (?:{PC} +)?{FN}",
	  "BUG: lock held when returning to user space in {1}", .flags = RULE_NO_STACK },
	{ "BUG: bad unlock balance detected!", NULL, "BUG: bad unlock balance in {1}",
	  STEPS("{PC} +{FN}", "{CT}", TRACE) },
	{ "BUG: held lock freed!", "BUG: held lock freed!(?:.*\\n)+?.*{PC} +{FN}",
	  "BUG: held lock freed in {1}" },
	{ "BUG: Bad rss-counter state", NULL, "BUG: Bad rss-counter state",
	  .flags = RULE_NO_STACK },
	{ "BUG: non-zero nr_ptes on freeing mm", NULL, "BUG: non-zero nr_ptes on freeing mm",
	  .flags = RULE_NO_STACK },
	{ "BUG: non-zero nr_pmds on freeing mm", NULL, "BUG: non-zero nr_pmds on freeing mm",
	  .flags = RULE_NO_STACK },
	{ "BUG: Dentry .* still in use",
	  "BUG: Dentry .* still in use \\([0-9]+\\) \\[(unmount) of ([^\\]]+)\\]",
	  "BUG: Dentry still in use in {1}" },
	{ "BUG: Bad page (state|cache)", NULL, "BUG: Bad page {1} in {2}",
	  STEPS("page last allocated", TRACE), NULL,
	  "(free|put|get|update|release)_page|free_unref|^_*folio|truncate_inode_pages|"
	  "page_frag_free|alloc|vmap|page_owner" },
	{ "BUG: Bad page map", NULL, "BUG: Bad page map" },
	{ "BUG: workqueue lockup", NULL, "BUG: workqueue lockup", .flags = RULE_NO_STACK },
	{ "BUG: sleeping function called from invalid context at (.*)", NULL,
	  "BUG: sleeping function called from invalid context in {2}", CALL_TRACE },
	{ "BUG: using ([a-z_]+)\\(\\) in preemptible", NULL,
	  "BUG: using {1}() in preemptible code in {2}", CALL_TRACE, NULL,
	  "dump_stack|preemption|preempt|debug_|processor_id|this_cpu" },
	{ "BUG: workqueue leaked lock or atomic",
	  "BUG: workqueue leaked lock or atomic(?:.*\\n)+?.*last function: ([a-zA-Z0-9_]+)\\n",
	  "BUG: workqueue leaked lock or atomic in {1}", .flags = RULE_NO_STACK },
	{ "BUG: memory leak", NULL, "memory leak in {1}",
	  STEPS("backtrace(?: \\(crc [[:xdigit:]]*\\))?:", TRACE), NULL,
	  "kmemleak|mmap|kmem|slab|alloc|create_object|idr_get|list_lru_init|kasprintf|"
	  "kvasprintf|pcpu_create|strdup|strndup|memdup" },
	{ "BUG: .*stack guard page was hit at", NULL, "BUG: stack guard page was hit in {1}",
	  RIP_TRACE, .pick = PICK_STALL },
	{ "BUG: Invalid wait context", NULL, "WARNING: locking bug in {1}", CALL_TRACE, NULL,
	  "lock_sock|release_sock" },
	{ "BUG:[[:space:]]*(?:\\n|$)", NULL, "BUG: corrupted", .flags = RULE_CORRUPTED },
	{ NULL },
};

static const TitleRule rules_warning[] = {
	{ "WARNING: .*lib/debugobjects\\.c.* (?:debug_print|debug_check|at)", NULL,
	  "WARNING: ODEBUG bug in {1}", WARN_STEPS, CALL_TRACE,
	  "debug_|rcu|hrtimer_|timer_|work_|percpu_|vunmap|vfree|__free_|debug_check|kobject_" },
	{ "WARNING: .*mm/usercopy\\.c.* (?:usercopy_warn|at)", NULL, "WARNING: bad usercopy in {1}",
	  WARN_STEPS, CALL_TRACE, "usercopy|__check" },
	{ "WARNING: .*lib/kobject\\.c.* (?:kobject_|at)", NULL, "WARNING: kobject bug in {1}",
	  WARN_STEPS, CALL_TRACE, "kobject_" },
	{ "WARNING: .*fs/proc/generic\\.c.* (?:proc_register|at)", NULL,
	  "WARNING: proc registration bug in {1}", WARN_STEPS, CALL_TRACE, "proc_" },
	{ "WARNING: .*lib/refcount\\.c.* (?:refcount_|at)", NULL, "WARNING: refcount bug in {1}",
	  WARN_STEPS, CALL_TRACE, "refcount|kobject_" },
	{ "WARNING: .*kernel/locking/lockdep\\.c.*lock_", NULL, "WARNING: locking bug in {1}",
	  WARN_STEPS, CALL_TRACE, "lock_sock|release_sock" },
	{ "WARNING: .*still has locks held!",
	  "WARNING: .*still has locks held!(?:.*\\n)+?.*at: {FN}",
	  "WARNING: still has locks held in {1}" },
	{ "WARNING: Nested lock was not taken", NULL, "WARNING: nested lock was not taken in {1}",
	  WARN_STEPS, CALL_TRACE },
	{ "WARNING: lock held when returning to user space",
	  "WARNING: lock held when returning to user space(?:.*\\n)+?.*leaving the kernel with "
	  "locks still held(?:.*\\n)+?.*at: (?:{PC} +)?{FN}",
	  "WARNING: lock held when returning to user space in {1}", .flags = RULE_NO_STACK },
	{ "WARNING: .*mm/.*\\.c.* k?.?malloc", NULL, "WARNING: kmalloc bug in {1}", WARN_STEPS,
	  CALL_TRACE, "kmalloc|krealloc|slab|kmem" },
	{ "WARNING: .*mm/vmalloc.c.*__vmalloc_node", NULL, "WARNING: zero-size vmalloc in {1}",
	  WARN_STEPS, CALL_TRACE },
	{ "WARNING: .* usb_submit_urb", NULL, "WARNING in {1}/usb_submit_urb", WARN_STEPS,
	  CALL_TRACE,
	  "usb_submit_urb|usb_start_wait_urb|usb_bulk_msg|usb_interrupt_msg|usb_control_msg" },
	{ "WARNING: {SRC} at 0x\\d+, CPU#\\d+", NULL, "WARNING in {2}", WARN_STEPS, CALL_TRACE },
	{ "WARNING: .* at {SRC} {FN}", NULL, "WARNING in {3}", WARN_STEPS, CALL_TRACE,
	  .flags = RULE_HEADER_FRAME },
	/* kernels before 3.x: "WARNING: at kernel/foo.c:12 func+0x1/0x2()" */
	{ "WARNING: at {SRC} {FN}", NULL, "WARNING in {3}", WARN_STEPS, CALL_TRACE,
	  .flags = RULE_OWN | RULE_HEADER_FRAME },
	/* ppc and arm before 4.x print no function after the location
	 * ("WARNING: at kernel/workqueue.c:1360"): the line that says where
	 * the CPU was (NIP, PC is at) names it, as for syzkaller's "WARNING in
	 * eeh_dev_check_failure" */
	{ "WARNING: at {SRC} *\\n", NULL, "WARNING in {2}", WARN_STEPS, CALL_TRACE },
	/* a header whose source file was cut out ("at [...] func+0x3c/0x44") */
	{ "WARNING: CPU: [0-9]+ PID: [0-9]+ at .* {FN}", NULL, "WARNING in {2}", WARN_STEPS,
	  CALL_TRACE, .flags = RULE_OWN | RULE_HEADER_FRAME },
	{ "WARNING: {SRC} at {FN}", NULL, "WARNING in {3}", WARN_STEPS, CALL_TRACE },
	{ "WARNING: \\[.*\\] {SRC} at {FN}.*", NULL, "WARNING in {3}", WARN_STEPS, CALL_TRACE },
	{ "WARNING: possible circular locking dependency detected",
	  "WARNING: possible circular locking dependency detected(?:.*\\n)+?.*is trying to acquire "
	  "lock",
	  "possible deadlock in {1}", STEPS("at: (?:{PC} +)?{FN}", "at: (?:{PC} +)?{FN}", TRACE),
	  NULL, "process_one_work|flush_workqueue|drain_workqueue|destroy_workqueue" },
	{ "WARNING: possible irq lock inversion dependency detected",
	  "WARNING: possible irq lock inversion dependency detected(?:.*\\n)+?.*just changed the "
	  "state of lock(?:.*\\n)+?.*at: (?:{PC} +)?{FN}",
	  "possible deadlock in {1}" },
	{ "WARNING: .*-safe -> .*-unsafe lock order detected", NULL, "possible deadlock in {1}",
	  STEPS("which became (?:.*) at:", TRACE) },
	{ "WARNING: possible recursive locking detected",
	  "WARNING: possible recursive locking detected(?:.*\\n)+?.*is trying to acquire "
	  "lock(?:.*\\n)+?.*at: (?:{PC} +)?{FN}",
	  "possible deadlock in {1}" },
	{ "WARNING: inconsistent lock state",
	  "WARNING: inconsistent lock state(?:.*\\n)+?.*takes(?:.*\\n)+?.*at: (?:{PC} +)?{FN}",
	  "inconsistent lock state in {2}", CALL_TRACE },
	{ "WARNING: suspicious RCU usage", "WARNING: suspicious RCU usage(?:.*\\n)+?.*?{SRC}",
	  "WARNING: suspicious RCU usage in {2}", CALL_TRACE, NULL, "rcu|kmem|slab" },
	{ "WARNING: kernel stack regs at [0-9a-f]+ in [^ ]* has bad '([^']+)' value", NULL,
	  "WARNING: kernel stack regs has bad '{1}' value", .flags = RULE_NO_STACK },
	{ "WARNING: kernel stack frame pointer at [0-9a-f]+ in [^ ]* has bad value", NULL,
	  "WARNING: kernel stack frame pointer has bad value", .flags = RULE_NO_STACK },
	{ "WARNING: bad unlock balance detected!", NULL, "WARNING: bad unlock balance in {1}",
	  STEPS("{PC} +{FN}", "{CT}", TRACE) },
	{ "WARNING: held lock freed!", "WARNING: held lock freed!(?:.*\\n)+?.*at:(?: {PC})? +{FN}",
	  "WARNING: held lock freed in {1}" },
	{ "WARNING: kernel stack regs .* has bad 'bp' value", NULL,
	  "WARNING: kernel stack regs has bad value", .flags = RULE_NO_STACK },
	{ "WARNING: kernel stack frame pointer .* has bad value", NULL,
	  "WARNING: kernel stack regs has bad value", .flags = RULE_NO_STACK },
	{ "WARNING:[[:space:]]*(?:\\n|$)", NULL, "WARNING: corrupted", .flags = RULE_CORRUPTED },
	{ NULL },
};

static const TitleRule rules_info[] = {
	{ "INFO: possible circular locking dependency detected",
	  "INFO: possible circular locking dependency detected \\](?:.*\\n)+?.*is trying to "
	  "acquire lock(?:.*\\n)+?.*at: {PC} +{FN}",
	  "possible deadlock in {1}" },
	{ "INFO: possible irq lock inversion dependency detected",
	  "INFO: possible irq lock inversion dependency detected \\](?:.*\\n)+?.*just changed the "
	  "state of lock(?:.*\\n)+?.*at: {PC} +{FN}",
	  "possible deadlock in {1}" },
	{ "INFO: SOFTIRQ-safe -> SOFTIRQ-unsafe lock order detected",
	  "INFO: SOFTIRQ-safe -> SOFTIRQ-unsafe lock order detected \\](?:.*\\n)+?.*is trying to "
	  "acquire(?:.*\\n)+?.*at: {PC} +{FN}",
	  "possible deadlock in {1}" },
	{ "INFO: possible recursive locking detected",
	  "INFO: possible recursive locking detected \\](?:.*\\n)+?.*is trying to acquire "
	  "lock(?:.*\\n)+?.*at: {PC} +{FN}",
	  "possible deadlock in {1}" },
	{ "INFO: inconsistent lock state",
	  "INFO: inconsistent lock state \\](?:.*\\n)+?.*takes(?:.*\\n)+?.*at: {PC} +{FN}",
	  "inconsistent lock state in {1}" },
	{ "INFO: rcu_(?:preempt|sched|bh) (?:self-)?detected(?: expedited)? stall", NULL,
	  "INFO: rcu detected stall in {1}", STEPS("apic_timer_interrupt", "{RIP}", TRACE),
	  STEPS("(?:apic_timer_interrupt|Exception stack|el1h_64_irq)", TRACE),
	  "apic_timer_interrupt|rcu", PICK_STALL,
	  /* s390 names no interrupt frame: its PSW line, then the trace */
	  .steps3 = STEPS("Krnl PSW", "{CT}", TRACE) },
	{ "INFO: trying to register non-static key", NULL,
	  "INFO: trying to register non-static key in {1}", CALL_TRACE, NULL, "stack|lock|IRQ" },
	{ "INFO: suspicious RCU usage", "INFO: suspicious RCU usage(?:.*\\n)+?.*?{SRC}",
	  "INFO: suspicious RCU usage in {2}", CALL_TRACE, NULL, "rcu|kmem|slab" },
	{ "INFO: task .* blocked for more than [0-9]+ seconds", NULL, "INFO: task hung in {1}",
	  CALL_TRACE, .pick = PICK_HANG },
	{ "INFO: task .* can't die for more than .* seconds", NULL, "INFO: task can't die in {1}",
	  CALL_TRACE, NULL, "schedule" },
	{ "INFO: (Freed|Allocated) in (.*)", NULL, "INFO: {1} in {2}", .flags = RULE_CORRUPTED },
	{ "INFO:[[:space:]]*(?:\\n|$)", NULL, "INFO: corrupted", .flags = RULE_CORRUPTED },
	{ NULL },
};

ONE_RULE(rules_unable,
	 "Unable to handle kernel (paging request|NULL pointer dereference|access to user memory|"
	 "pointer dereference)",
	 NULL, "BUG: unable to handle kernel {1} in {2}", RIP_TRACE);

ONE_RULE(rules_gpf, "general protection fault.*:", NULL, "general protection fault in {1}",
	 RIP_TRACE);

ONE_RULE(rules_stack_segment, "stack segment: ", NULL, "stack segment fault in {1}", RIP_TRACE);

static const TitleRule rules_panic[] = {
	{ "Kernel panic - not syncing: stack-protector:",
	  "Kernel panic - not syncing: stack-protector: Kernel stack is corrupted in: {FN}",
	  "kernel panic: stack is corrupted in {1}", .flags = RULE_NO_STACK },
	{ "Kernel panic - not syncing: stack-protector:",
	  "Kernel panic - not syncing: stack-protector: Kernel stack is corrupted in: [a-f0-9]+",
	  "kernel panic: stack is corrupted in {1}", CALL_TRACE, NULL, "stack_chk" },
	{ "Kernel panic - not syncing: corrupted stack end",
	  "Kernel panic - not syncing: corrupted stack end detected inside scheduler",
	  "kernel panic: corrupted stack end in {1}", CALL_TRACE, NULL, "schedule|retint_kernel",
	  PICK_STALL },
	{ "Kernel panic - not syncing: kernel stack overflow", NULL, "kernel stack overflow in {1}",
	  CALL_TRACE, NULL, "bad_stack", PICK_STALL },
	{ "Kernel panic - not syncing: Attempted to kill init!", NULL,
	  "kernel panic: Attempted to kill init!" },
	{ "Kernel panic - not syncing: Couldn't open N_TTY ldisc for [^ ]+ --- error -[0-9]+", NULL,
	  "kernel panic: Couldn't open N_TTY ldisc" },
	{ "Kernel panic - not syncing: Fatal exception", NULL, "kernel panic: Fatal exception",
	  .flags = RULE_CORRUPTED },
	{ "Kernel panic - not syncing: panic_on_warn set", NULL, "kernel panic: panic_on_warn set",
	  .flags = RULE_CORRUPTED },
	{ "Kernel panic - not syncing: hung_task: blocked tasks", NULL,
	  "kernel panic: hung_task: blocked tasks", .flags = RULE_CORRUPTED },
	{ "Kernel panic - not syncing: (.*)", NULL, "kernel panic: {1}" },
	{ NULL },
};

ONE_RULE(rules_double_fault, "PANIC: double fault", NULL, "PANIC: double fault in {1}",
	 STEPS("{RIP}"));

static const TitleRule rules_kernel_bug[] = {
	{ "kernel BUG at mm/usercopy.c", NULL, "BUG: bad usercopy in {1}", CALL_TRACE, NULL,
	  "usercopy|__check" },
	{ "kernel BUG at lib/list_debug.c", NULL, "BUG: corrupted list in {1}", CALL_TRACE },
	{ "kernel BUG at (.*)", NULL, "kernel BUG in {2}", RIP_TRACE, NULL, "^skb_" },
	{ NULL },
};

ONE_RULE(rules_kernel_bug2, "Kernel BUG (.*)", NULL, "kernel BUG {1}");

/* SLUB's own checks ("BUG kmalloc-64 (Not tainted): Poison overwritten"):
 * syzkaller titles one of them; the rest keep the cache and the check. */
static const TitleRule rules_slab[] = {
	{ "BUG kmalloc-.*: Object already free", NULL, "BUG: Object already free" },
	{ "BUG ([^ ]+) \\((?:Not tainted|Tainted:[^)]*)\\): ([^\\n]*[^\\n ])", NULL, "BUG {1}: {2}",
	  .flags = RULE_OWN | RULE_NO_STACK },
	{ NULL },
};

ONE_RULE(rules_divide, "divide(?: |_)error: ", NULL, "divide error in {1}", STEPS("{RIP}"));

ONE_RULE(rules_invalid_opcode, "invalid opcode: ", NULL, "invalid opcode in {1}", STEPS("{RIP}"));

static const TitleRule rules_ubsan[] = {
	{ "UBSAN:", "UBSAN: Undefined behaviour in", "UBSAN: undefined-behaviour in {1}",
	  CALL_TRACE, NULL, "ubsan|overflow" },
	{ "UBSAN: array-index-out-of-bounds in", NULL, "UBSAN: array-index-out-of-bounds in {1}",
	  CALL_TRACE, NULL, "ubsan|overflow" },
	{ "UBSAN:", "UBSAN: (.*?) in", "UBSAN: {1} in {2}", CALL_TRACE, NULL, "ubsan|overflow" },
	{ NULL },
};

ONE_RULE(rules_reboot, "^Booting the kernel", NULL, "unexpected kernel reboot",
	 .flags = RULE_NO_STACK);

ONE_RULE(rules_netdev, "unregister_netdevice: waiting for (?:.*) to become free", NULL,
	 "unregister_netdevice: waiting for DEV to become free", .flags = RULE_NO_STACK);

ONE_RULE(rules_vfs_close, "VFS: Close: file count is 0", NULL,
	 "VFS: Close: file count is zero (use-after-free)", .flags = RULE_NO_STACK);

ONE_RULE(rules_vfs_busy, "VFS: Busy inodes after unmount", NULL,
	 "VFS: Busy inodes after unmount (use-after-free)", .flags = RULE_NO_STACK);

ONE_RULE(rules_internal, "Internal error:", NULL, "Internal error in {1}", RIP_TRACE);

ONE_RULE(rules_unhandled, "Unhandled fault:", NULL, "Unhandled fault in {1}", RIP_TRACE);

ONE_RULE(rules_alignment, "Alignment trap:", NULL, "Alignment trap in {1}", RIP_TRACE);

/* Two that syzbot has no rule for: a hard lockup and an oops printed without
 * any line above (older kernels, other architectures). */
ONE_RULE(rules_hard_lockup, "hard LOCKUP", NULL, "BUG: hard lockup in {1}", RIP_TRACE);

ONE_RULE(rules_oops, "Oops", NULL, "Oops in {1}", RIP_TRACE);

/* In the order a line is tried: the first family whose header it holds.
 * not_header: the lines syzkaller does not take for that header (they name
 * it but open no report), and words that merely contain "Oops". */
static const TitleFamily title_families[] = {
	{ "BUG:", "ODEBUG:|Boot_DEBUG:|xlog_status:|DEBUG:|BUG: no syscalls can create resource",
	  rules_bug },
	{ "WARNING:",
	  "WARNING: /etc/ssh/moduli does not exist, using fixed modulus|"
	  "WARNING: workqueue cpumask: online intersect > possible intersect|"
	  "WARNING: [Tt]he mand mount option|"
	  "WARNING: Unsupported flag value\\(s\\) of 0x%x in DT_FLAGS_1|"
	  "WARNING: Unprivileged eBPF is enabled with eIBRS|"
	  "WARNING: fbcon: Driver '(.*)' missed to adjust virtual screen size|"
	  "WARNING: See https.* for mitigation options.|"
	  "WARNING: kernel not compiled with CPU_SRSO|EXT4-[Ff][Ss](?: \\(.*\\))?:|"
	  "(?i)warning: .* uses (deprecated v2 capabilities|wireless extensions)|"
	  "XFS \\(\\w+\\): WARNING",
	  rules_warning },
	{ "INFO:",
	  "INFO: lockdep is turned off|INFO: Stall ended before state dump start|"
	  "INFO: NMI handler|INFO: recovery required on readonly filesystem|"
	  "(handler|interrupt).*took too long|INFO: sys_.* is not present in /proc/kallsyms|"
	  "INFO: no syscalls can create resource|rmt_storage:INFO:|_INFO:",
	  rules_info },
	{ "Unable to handle kernel", NULL, rules_unable },
	{ "general protection fault", "general protection fault .* error:\\d+ in ", rules_gpf },
	{ "stack segment: ", NULL, rules_stack_segment },
	{ "Kernel panic", NULL, rules_panic },
	{ "PANIC: double fault", NULL, rules_double_fault },
	{ "kernel BUG", NULL, rules_kernel_bug },
	{ "Kernel BUG", NULL, rules_kernel_bug2 },
	{ "BUG kmalloc-", NULL, rules_slab },
	{ "divide error:", NULL, rules_divide },
	{ "divide_error:", NULL, rules_divide },
	{ "invalid opcode:", NULL, rules_invalid_opcode },
	{ "UBSAN:", NULL, rules_ubsan },
	{ "Booting the kernel.", "Parsing ELF|Decompressing Linux|Unknown parameter '",
	  rules_reboot },
	{ "unregister_netdevice: waiting for", NULL, rules_netdev },
	{ "VFS: Close: file count is 0", NULL, rules_vfs_close },
	{ "VFS: Busy inodes after unmount", NULL, rules_vfs_busy },
	{ "Internal error:", NULL, rules_internal },
	{ "Unhandled fault:", NULL, rules_unhandled },
	{ "Alignment trap:", NULL, rules_alignment },
	{ "hard LOCKUP", NULL, rules_hard_lockup },
	{ "Oops", "Oops\\w|\\wOops", rules_oops },
	/* SLUB checks of caches other than kmalloc-* (their line names the cache) */
	{ "BUG ", "^(?!.*BUG [^ ]+ \\((?:Not tainted|Tainted:)).*", rules_slab },
};

/* Functions never blamed: reporting, allocation, locking, string and
 * generic helpers that a bug passes through but is rarely in (syzkaller's
 * linuxStackParams skipPatterns; each rule's own skip adds to them). */
static const char *const title_skip[] = {
	"__sanitizer",
	"__asan",
	"kasan",
	"hwasan",
	"__msan",
	"kmsan",
	"kcsan_setup_watchpoint",
	"check_memory_region",
	"check_heap_object",
	"check_object",
	"read_word_at_a_time",
	"(read|write)_once_.*nocheck",
	"print_address_description",
	"panic",
	"invalid_op",
	"report_bug",
	"fixup_bug",
	"print_report",
	"print_usage_bug",
	"do_error",
	"_trap$|do_trap",
	"show_stack",
	"dump_stack",
	"walk_stack",
	"dump_backtrace",
	"warn_slowpath",
	"warn_alloc",
	"warn_bogus",
	"__warn",
	"alloc_page",
	"k?v?(?:m|z|c)alloc",
	"krealloc",
	"kmem_cache",
	"allocate_slab",
	"__alloc_frozen_pages_noprof",
	"folio_(?:alloc|unlock)",
	"filemap_alloc_folio",
	"__filemap_get_folio",
	"find_or_create_page",
	"do_read_cache_folio",
	"read_cache_page",
	"pagecache_get_page",
	"grab_cache_page_write_begin",
	"slab_",
	"debug_object",
	"timer_is_static_object",
	"work_is_static_object",
	"__might_fault",
	"print_unlock",
	"imbalance_bug",
	"lockdep",
	"bh_enable",
	"bh_disable",
	"perf_trace",
	"lock_acquire",
	"lock_release",
	"lock_class",
	"mark_lock",
	"(reacquire|mark)_held_locks",
	"raw_spin_rq",
	"spin_lock",
	"spin_trylock",
	"spin_unlock",
	"read_lock",
	"read_trylock",
	"write_lock",
	"write_trylock",
	"read_unlock",
	"write_unlock",
	"^down$",
	"down_read",
	"down_write",
	"down_read_trylock",
	"down_write_trylock",
	"down_trylock",
	"up_read",
	"up_write",
	"^mutex_",
	"^__mutex_",
	"^rt_mutex_",
	"owner_on_cpu",
	"osq_lock",
	"osq_unlock",
	"atomic(64)?_(dec|inc|read|set|or|xor|and|add|sub|fetch|xchg|cmpxchg|try)",
	"(set|clear|change|test)_bit",
	"__wake_up",
	"^refcount_",
	"^kref_",
	"ref_tracker",
	"seqprop_assert",
	"memcpy",
	"memcmp",
	"memset",
	"memchr",
	"memmove",
	"memdup",
	"strcmp",
	"strncmp",
	"strcpy",
	"strlcpy",
	"strncpy",
	"strscpy",
	"strlen",
	"strstr",
	"strnstr",
	"strnlen",
	"strchr",
	"strdup",
	"strndup",
	"copy_to_user",
	"copy_from_user",
	"copy_to_iter",
	"copy_from_iter",
	"copy_page_to_iter",
	"copy_page_from_iter",
	"copy_folio_to_iter",
	"^copyin$",
	"^copyout$",
	"put_user",
	"get_user",
	"might_fault",
	"might_sleep",
	"list_add",
	"list_del",
	"list_replace",
	"list_move",
	"list_splice",
	"^rb_",
	"^__rb_",
	"_indirect_thunk_",
	"string",
	"pointer",
	"snprintf",
	"scnprintf",
	"kasprintf",
	"kvasprintf",
	"printk",
	"va_format",
	"dev_info",
	"dev_notice",
	"dev_warn",
	"dev_err",
	"dev_alert",
	"dev_crit",
	"dev_emerg",
	"program_check_exception",
	"program_check_common",
	"del_timer",
	"flush_work",
	"__cancel_work_timer",
	"cancel_work_sync",
	"try_to_grab_pending",
	"flush_workqueue",
	"drain_workqueue",
	"destroy_workqueue",
	"queue_work",
	"finish_wait",
	"kthread_stop",
	"kobject_",
	"add_uevent_var",
	"get_device_parent",
	"device_add",
	"device_del",
	"device_unregister",
	"device_destroy",
	"device_release",
	"devres_release_all",
	"hwrng_unregister",
	"i2c_del_adapter",
	"__unregister_client",
	"device_for_each_child",
	"rollback_registered",
	"unregister_netdev",
	"sysfs_remove",
	"device_remove_file",
	"tty_unregister_device",
	"dummy_urb_enqueue",
	"usb_kill_urb",
	"usb_kill_anchored_urbs",
	"usb_control_msg",
	"usb_hcd_submit_urb",
	"usb_submit_urb",
	"^complete$",
	"wait_for_completion",
	"^kv?free$",
	"kfree_skb",
	"readb$",
	"readw$",
	"readl$",
	"readq$",
	"writeb$",
	"writew$",
	"writel$",
	"writeq$",
	"logic_in",
	"logic_out",
	"^crc\\d+",
	"crc_itu_t",
	"__might_resched",
	"assertfail",
	"^iput$",
	"^iput_final$",
	"^ihold$",
	"hex_dump_to_buffer",
	"print_hex_dump",
	"^klist_",
	"(trace|lockdep)_(hard|soft)irq",
	"^(un)?lock_page",
	"stack_trace_consume_entry",
	"arch_stack_walk",
	"stack_trace_save",
	"insert_work",
	"__queue_delayed_work",
	"queue_delayed_work_on",
	"ida_free",
	"do_(kernel|translation)_fault",
	"do_mem_abort",
	"el1_abort",
	"el1h_64_sync(?:_handler)?",
	"print_tainted",
	"xas_(?:start|load|find)",
	"find_lock_entries",
	"truncate_inode_pages_range",
	"__phys_addr",
	"__fortify_report",
	"cleanup_srcu_struct",
	"rhashtable_lookup",
	"extract_(user|iter)_to_sg",
	"drop_nlink",
	"^get_taint$",
	"^put_device$",
	"lock_timer_base",
	"__timer_delete_sync",
	"sk_stop_timer_sync",
	"__mod_timer",
	"fast_dput",
	"dput",
	NULL,
};

/* Syscall entry prefixes differ by architecture and version: the title uses
 * the bare name, as syzbot's do. Each is taken off once, in this order. */
static const char *const title_strip[] = {
	"SYSC_",	"SyS_",	       "sys_",	 "__x64_", "__ia32_",	"__arm64_",
	"____sys_",	"___sys_",     "__sys_", "__se_",  "__se_sys_", "__do_sys_",
	"compat_SYSC_", "compat_SyS_", "ksys_",	 NULL,
};

/* Where a stall loops is arbitrary; these dispatch points are not: the frame
 * before the first of them is blamed (linuxStallAnchorFrames). */
static const char *const title_stall_anchors[] = {
	"process_one_work",
	"do_syscall_",
	"do_fast_syscall_",
	"sysenter_dispatch",
	"tracesys_phase2",
	"el0_svc_handler",
	"invoke_syscall",
	"ret_fast_syscall",
	"netif_receive_skb",
	"do_softirq",
	"call_timer_fn",
	"_run_timers",
	"run_timer_softirq",
	"hrtimer_run",
	"run_ksoftirqd",
	"smpboot_thread_fn",
	"^kthread$",
	"start_secondary",
	"cpu_startup_entry",
	"ret_from_fork",
	"vfs_write",
	"vfs_read",
	"vfs_iter_read",
	"vfs_iter_write",
	"do_iter_read",
	"do_iter_write",
	"call_read_iter",
	"call_write_iter",
	"new_sync_read",
	"new_sync_write",
	"vfs_ioctl",
	"ksys_ioctl",
	"compat_ioctl",
	"compat_sys_ioctl",
	"blkdev_driver_ioctl",
	"blkdev_ioctl",
	"^call_read_iter",
	"^call_write_iter",
	"do_iter_readv_writev",
	"^call_mmap",
	"mmap_region",
	"do_mmap",
	"do_dentry_open",
	"vfs_open",
	"^sock_sendmsg",
	"^sock_recvmsg",
	"^sock_release",
	"^__sock_release",
	"^setsockopt$",
	"kernel_setsockopt",
	"sock_common_setsockopt",
	"^listen$",
	"kernel_listen",
	"sk_common_release",
	"^sock_mmap",
	"^accept$",
	"kernel_accept",
	"^sock_do_ioctl",
	"^sock_ioctl",
	"^compat_sock_ioctl",
	"^nfnetlink_rcv_msg",
	"^rtnetlink_rcv_msg",
	"^netlink_dump",
	"^(sys_)?(socketpair|connect|ioctl)",
	"__do_fault",
	"do_page_fault",
	"^page_fault$",
	"__fput",
	"task_work_run",
	"exit_to_usermode",
	"smp_call_function",
	"tasklet_action",
	"tasklet_hi_action",
	NULL,
};

/* Lines that start a stack trace of their own (and so end the one before):
 * linuxStackKeywords, with arm's "Backtrace:" and riscv's register line. */
static const char *const title_stack_starts[] = {
	"Call (?:T|t)race",
	"Allocated:",
	"Allocated by task [0-9]+:",
	"Freed:",
	"Freed by task [0-9]+:",
	"[^k] backtrace(?: \\(crc [[:xdigit:]]*\\))?:",
	"Backtrace:",
	"Uninit was stored to memory at",
	"status: [0-9a-f]{16} badaddr: [0-9a-f]{16} cause: [0-9a-f]{16}",
	NULL,
};

/* ---- compiled form ---------------------------------------------------------- */

typedef struct {
	GRegex *title, *detail, *skip;
	/* NULL entries mark TRACE; n_steps says how many */
	GRegex *steps[5], *steps2[5], *steps3[5];
	guint n_steps, n_steps2, n_steps3;
} CompiledRule;

struct _FtlOopsTitler {
	GRegex *not_header[G_N_ELEMENTS(title_families)];
	CompiledRule *rules[G_N_ELEMENTS(title_families)];
	GRegex *frame, *frame_arm, *stack_start, *corrupt_line, *stall, *hang_skip;
	GRegex *norm[8];
};

static char *title_expand(const char *pattern)
{
	GString *s = g_string_new(pattern);
	/* {RIP} holds {PC} and {FN}: expand in table order until nothing is left */
	for (gboolean again = TRUE; again;) {
		again = FALSE;
		for (guint i = 0; i < G_N_ELEMENTS(title_macros); i++) {
			char *at;
			while ((at = strstr(s->str, title_macros[i].name))) {
				gssize pos = at - s->str;
				g_string_erase(s, pos, (gssize)strlen(title_macros[i].name));
				g_string_insert(s, pos, title_macros[i].text);
				again = TRUE;
			}
		}
	}
	return g_string_free(s, FALSE);
}

static GRegex *title_compile(const char *pattern)
{
	if (!pattern)
		return NULL;
	g_autofree char *p = title_expand(pattern);
	g_autoptr(GError) error = NULL;
	GRegex *re = g_regex_new(p, G_REGEX_RAW, 0, &error);
	/* the table is part of the program: a bad pattern is a bug */
	if (!re)
		g_error("oops-title: bad pattern '%s': %s", p, error->message);
	return re;
}

static GRegex *title_compile_list(const char *const *list, const char *extra)
{
	GString *s = g_string_new(NULL);
	for (guint i = 0; list && list[i]; i++) {
		if (s->len)
			g_string_append_c(s, '|');
		g_string_append_printf(s, "(?:%s)", list[i]);
	}
	if (extra) {
		if (s->len)
			g_string_append_c(s, '|');
		g_string_append_printf(s, "(?:%s)", extra);
	}
	GRegex *re = title_compile(s->str);
	g_string_free(s, TRUE);
	return re;
}

static guint title_compile_steps(const char *const *steps, GRegex **out)
{
	guint n = 0;
	for (; steps && steps[n] && n < 5; n++)
		out[n] = strcmp(steps[n], TRACE) ? title_compile(steps[n]) : NULL;
	return n;
}

FtlOopsTitler *ftl_oops_titler_new(void)
{
	FtlOopsTitler *t = g_new0(FtlOopsTitler, 1);
	for (guint f = 0; f < G_N_ELEMENTS(title_families); f++) {
		const TitleFamily *fam = &title_families[f];
		t->not_header[f] = title_compile(fam->not_header);
		guint n = 0;
		while (fam->rules[n].title)
			n++;
		t->rules[f] = g_new0(CompiledRule, n + 1);
		for (guint r = 0; r < n; r++) {
			const TitleRule *rule = &fam->rules[r];
			CompiledRule *c = &t->rules[f][r];
			c->title = title_compile(rule->title);
			c->detail = title_compile(rule->detail);
			c->skip = title_compile_list(title_skip, rule->skip);
			c->n_steps = title_compile_steps(rule->steps, c->steps);
			c->n_steps2 = title_compile_steps(rule->steps2, c->steps2);
			c->n_steps3 = title_compile_steps(rule->steps3, c->steps3);
		}
	}
	t->frame = title_compile("^ *(?:{PC} ){0,2}{FN}");
	/* arm: "[<pc>] (callee) from [<lr>] (caller+0x10/0x20)" names two frames */
	t->frame_arm = title_compile("^ *{PC} \\(([a-zA-Z0-9_.]+)\\) from {PC} \\({FN}");
	t->stack_start = title_compile_list(title_stack_starts, NULL);
	t->corrupt_line = title_compile(
		"^( \\[<?(?:0x)?[0-9a-f]+>?\\])? should_fail(slab)?(\\.[a-z0-9.]+)?\\+0x");
	t->stall = title_compile_list(title_stall_anchors, NULL);
	t->hang_skip = title_compile("sched|_lock|_slowlock|down|rwsem|completion|kthread|wait|"
				     "synchronize|context_switch|__switch_to|cancel_delayed_work|"
				     "rcu_barrier");
	/* what report.go's dynamicTitleReplacement turns into placeholders,
	 * so that titles of one bug compare equal across runs and machines */
	static const char *const norm[] = {
		"syz-executor\\.?[0-9]+((/|:)[0-9]+)?",
		"syzkaller[0-9]+((/|:)[0-9]+)?",
		"([^a-zA-Z0])(?:0x)?[0-9a-f]{6,}",
		"([0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3})",
		"(\\.\\w+)(:[0-9]+)+",
		"([a-zA-Z][a-zA-Z0-9_.]+)\\+0x[0-9a-z]+/0x[0-9a-z]+",
		"CPU#[0-9]+",
		"(\\W)(\\d+)(\\W|$)",
	};
	for (guint i = 0; i < G_N_ELEMENTS(norm); i++)
		t->norm[i] = title_compile(norm[i]);
	return t;
}

static void title_unref(GRegex *re)
{
	if (re)
		g_regex_unref(re);
}

void ftl_oops_titler_free(FtlOopsTitler *t)
{
	if (!t)
		return;
	for (guint f = 0; f < G_N_ELEMENTS(title_families); f++) {
		title_unref(t->not_header[f]);
		for (CompiledRule *c = t->rules[f]; c && c->title; c++) {
			title_unref(c->title);
			title_unref(c->detail);
			title_unref(c->skip);
			for (guint i = 0; i < c->n_steps; i++)
				title_unref(c->steps[i]);
			for (guint i = 0; i < c->n_steps2; i++)
				title_unref(c->steps2[i]);
			for (guint i = 0; i < c->n_steps3; i++)
				title_unref(c->steps3[i]);
		}
		g_free(t->rules[f]);
	}
	title_unref(t->frame);
	title_unref(t->frame_arm);
	title_unref(t->stack_start);
	title_unref(t->corrupt_line);
	title_unref(t->stall);
	title_unref(t->hang_skip);
	for (guint i = 0; i < G_N_ELEMENTS(t->norm); i++)
		title_unref(t->norm[i]);
	g_free(t);
}

gint ftl_oops_titler_header(const FtlOopsTitler *t, const char *line)
{
	for (guint f = 0; f < G_N_ELEMENTS(title_families); f++) {
		if (!strstr(line, title_families[f].header))
			continue;
		if (t->not_header[f] && g_regex_match(t->not_header[f], line, 0, NULL))
			return -1;
		return (gint)f;
	}
	return -1;
}

const char *ftl_oops_family_header(gint family)
{
	return family >= 0 && (guint)family < G_N_ELEMENTS(title_families)
		       ? title_families[family].header
		       : "?";
}

/* ---- frames ---------------------------------------------------------------- */

static gboolean title_re(const GRegex *re, const char *s, GMatchInfo **mi)
{
	return g_regex_match((GRegex *)re, s, 0, mi);
}

/* Adds the first capture of mi that is not a skipped function. */
static void title_add_frame(GPtrArray *frames, GMatchInfo *mi, const GRegex *skip)
{
	gint n = g_match_info_get_match_count(mi);
	for (gint g = 1; g < n; g++) {
		gint s, e;
		if (!g_match_info_fetch_pos(mi, g, &s, &e) || s < 0)
			continue;
		g_autofree char *name = g_match_info_fetch(mi, g);
		if (skip && g_regex_match((GRegex *)skip, name, 0, NULL))
			continue;
		const char *p = name;
		for (guint i = 0; title_strip[i]; i++)
			if (g_str_has_prefix(p, title_strip[i]))
				p += strlen(title_strip[i]);
		g_ptr_array_add(frames, g_strdup(p));
		return;
	}
}

static char *title_pick(const FtlOopsTitler *t, TitlePick pick, GPtrArray *frames)
{
	if (!frames->len)
		return NULL;
	if (pick == PICK_FIRST)
		return g_strdup(frames->pdata[0]);
	if (pick == PICK_STALL) {
		const char *prev = frames->pdata[0];
		for (guint i = 0; i < frames->len; i++) {
			const char *f = frames->pdata[i];
			if (g_regex_match(t->stall, f, 0, NULL))
				return g_strdup(strstr(f, "smp_call_function") ? "smp_call_function"
									       : prev);
			prev = f;
		}
		return NULL;
	}
	static const char *const anchors[][2] = {
		{ "rtnl_lock", NULL },
		{ "synchronize_rcu", "synchronize_rcu" },
		{ "synchronize_srcu", "synchronize_rcu" },
		{ "synchronize_net", "synchronize_rcu" },
		{ "synchronize_sched", "synchronize_rcu" },
	};
	for (guint i = 0; i < frames->len; i++) {
		const char *f = frames->pdata[i];
		for (guint a = 0; a < G_N_ELEMENTS(anchors); a++)
			if (strstr(f, anchors[a][0]))
				return g_strdup(anchors[a][1] ? anchors[a][1] : f);
	}
	for (guint i = 0; i < frames->len; i++) {
		const char *f = frames->pdata[i];
		if (!g_regex_match(t->hang_skip, f, 0, NULL))
			return g_strdup(f);
	}
	return NULL;
}

/* "  __memcpy+0xc/0x30 (P)" */
static gboolean title_pc_mark(const char *line)
{
	gsize n = strlen(line);
	while (n && line[n - 1] == ' ')
		n--;
	return n >= 4 && !memcmp(line + n - 4, " (P)", 4);
}

/* Runs a step list over the lines of the report from the rule's match on.
 * Appends one result per stack trace (or one in all) to results; FALSE when
 * a frame could not be found or a line says the report is mixed up. */
static gboolean title_steps(const FtlOopsTitler *t, const CompiledRule *c, GRegex *const *steps,
			    guint n_steps, TitlePick pick, char **lines, GPtrArray *results)
{
	g_autoptr(GPtrArray) frames = g_ptr_array_new_with_free_func(g_free);
	gboolean ok = TRUE;
	guint li = 0, traces = 0;
	for (guint part = 0;; part++) {
		if (part == n_steps || (!steps[part] && traces > 0)) {
			char *key = title_pick(t, pick, frames);
			if (!key) {
				key = g_strdup("corrupted");
				ok = FALSE;
			}
			g_ptr_array_add(results, key);
			g_ptr_array_set_size(frames, 0);
		}
		if (part == n_steps)
			break;
		if (!steps[part]) {
			traces++;
			guint trace_start = frames->len;
			for (; lines[li]; li++) {
				const char *ln = lines[li];
				if (title_re(t->corrupt_line, ln, NULL)) {
					ok = FALSE;
					li++;
					break;
				}
				if (title_re(t->stack_start, ln, NULL)) {
					li++;
					break;
				}
				g_autoptr(GMatchInfo) mi = NULL;
				if (part + 1 < n_steps && steps[part + 1] &&
				    title_re(steps[part + 1], ln, &mi)) {
					title_add_frame(frames, mi, c->skip);
					part++;
					li++;
					break;
				}
				g_clear_pointer(&mi, g_match_info_free);
				if (!title_re(t->frame, ln, &mi)) {
					g_clear_pointer(&mi, g_match_info_free);
					if (!title_re(t->frame_arm, ln, &mi))
						continue;
				}
				/* arm64 marks the frame the exception hit "(P)": the ones
				 * above it are the fault and report path, never the bug */
				if (title_pc_mark(ln))
					g_ptr_array_set_size(frames, trace_start);
				title_add_frame(frames, mi, c->skip);
			}
		} else {
			for (; lines[li]; li++) {
				const char *ln = lines[li];
				if (title_re(t->corrupt_line, ln, NULL)) {
					ok = FALSE;
					li++;
					break;
				}
				g_autoptr(GMatchInfo) mi = NULL;
				if (!title_re(steps[part], ln, &mi))
					continue;
				title_add_frame(frames, mi, c->skip);
				li++;
				break;
			}
		}
	}
	return ok;
}

/* ---- titles ------------------------------------------------------------------ */

static char *title_normalize(const FtlOopsTitler *t, const char *title, gboolean keep_numbers);

/* Finds the frames rule c blames in text (from its match on) and appends
 * them to args; *blamed is the first. FALSE when the report is too damaged
 * for them (the frames then read "corrupted"). */
static gboolean title_rule_frames(const FtlOopsTitler *t, const TitleRule *rule,
				  const CompiledRule *c, const char *text, GPtrArray *args,
				  char **blamed)
{
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	g_autoptr(GPtrArray) results = g_ptr_array_new_with_free_func(g_free);
	GRegex *const *lists[] = { c->steps, c->steps2, c->steps3 };
	const guint counts[] = { c->n_steps, c->n_steps2, c->n_steps3 };
	gboolean ok = FALSE;
	for (guint i = 0; i < G_N_ELEMENTS(lists) && !ok && counts[i]; i++) {
		g_ptr_array_set_size(results, 0);
		ok = title_steps(t, c, lists[i], counts[i], rule->pick, lines, results);
	}
	if (!ok && (rule->flags & RULE_HEADER_FRAME) && args->len) {
		/* the header's own function, the last group of the title */
		g_ptr_array_set_size(results, 0);
		g_ptr_array_add(results, g_strdup(args->pdata[args->len - 1]));
		ok = TRUE;
	}
	if (results->len && ok)
		*blamed = g_strdup(results->pdata[0]);
	for (guint i = 0; i < results->len; i++)
		g_ptr_array_add(args, g_strdup(results->pdata[i]));
	return ok;
}

static char *title_format(const char *fmt, GPtrArray *args)
{
	GString *s = g_string_new(NULL);
	for (const char *p = fmt; *p; p++) {
		if (p[0] == '{' && g_ascii_isdigit(p[1]) && p[2] == '}') {
			guint i = (guint)(p[1] - '1');
			if (i < args->len)
				g_string_append(s, args->pdata[i]);
			p += 2;
		} else {
			g_string_append_c(s, *p);
		}
	}
	return g_string_free(s, FALSE);
}

char *ftl_oops_titler_title(const FtlOopsTitler *t, gint family, const char *text, char **frame,
			    gboolean *corrupted)
{
	*frame = NULL;
	*corrupted = FALSE;
	g_return_val_if_fail(family >= 0 && (guint)family < G_N_ELEMENTS(title_families), NULL);
	const TitleFamily *fam = &title_families[family];
	gsize len = strlen(text);
	gsize best = len;
	char *desc = NULL, *blamed = NULL;
	gboolean matched = FALSE, damaged = FALSE;
	const TitleRule *chosen = NULL;
	for (guint r = 0; fam->rules[r].title; r++) {
		const TitleRule *rule = &fam->rules[r];
		const CompiledRule *c = &t->rules[family][r];
		g_autoptr(GMatchInfo) mi = NULL;
		if (!g_regex_match_full(c->title, text, (gssize)len, 0, 0, &mi, NULL))
			continue;
		gint s, e;
		g_match_info_fetch_pos(mi, 0, &s, &e);
		if ((gsize)s > best || ((gsize)s == best && desc))
			continue;
		if ((gsize)s < best) {
			g_clear_pointer(&desc, g_free);
			g_clear_pointer(&blamed, g_free);
			chosen = NULL;
			best = (gsize)s;
		}
		matched = TRUE;
		if (c->detail) {
			g_clear_pointer(&mi, g_match_info_free);
			if (!g_regex_match_full(c->detail, text, (gssize)len, 0, 0, &mi, NULL))
				continue;
			g_match_info_fetch_pos(mi, 0, &s, &e);
		}
		g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func(g_free);
		gint n = g_match_info_get_match_count(mi);
		for (gint g = 1; g < n; g++) {
			char *v = g_match_info_fetch(mi, g);
			g_ptr_array_add(args, v ? v : g_strdup(""));
		}
		damaged = FALSE;
		g_clear_pointer(&blamed, g_free);
		if (c->n_steps)
			damaged = !title_rule_frames(t, rule, c, text + s, args, &blamed);
		g_free(desc);
		desc = title_format(rule->fmt, args);
		chosen = rule;
	}
	if (!desc) {
		/* the family's line, as printed: the report is too damaged for a rule */
		damaged = matched;
		const char *h = strstr(text, fam->header);
		if (!h)
			h = text;
		const char *nl = strchr(h, '\n');
		desc = g_strndup(h, nl ? (gsize)(nl - h) : strlen(h));
	}
	if (chosen && (chosen->flags & RULE_CORRUPTED))
		damaged = TRUE;
	*corrupted = damaged;
	*frame = blamed;
	char *title = title_normalize(t, desc, !chosen || (chosen->flags & RULE_OWN));
	g_free(desc);
	return title;
}

static char *title_replace(const GRegex *re, const char *s, const char *with)
{
	char *cur = g_strdup(s);
	for (guint guard = 0; guard < 64; guard++) {
		char *next = g_regex_replace((GRegex *)re, cur, -1, 0, with, 0, NULL);
		if (!next || !strcmp(next, cur)) {
			g_free(next);
			break;
		}
		g_free(cur);
		cur = next;
	}
	return cur;
}

char *ftl_oops_title_normalize(const FtlOopsTitler *t, const char *title)
{
	return title_normalize(t, title, FALSE);
}

/* keep_numbers: a title of ftlens's own reading keeps the numbers that name
 * things (kmalloc-64, a line number), where syzkaller has no rule to say
 * which of them are noise; addresses still become ADDR. */
static char *title_normalize(const FtlOopsTitler *t, const char *title, gboolean keep_numbers)
{
	static const char *const with[] = {
		"syz-executor", "syzkaller", "\\1ADDR", "IP", "\\1:LINE", "\\1", "CPU", "\\1NUM\\3",
	};
	/* the replacements a reading of its own keeps: line numbers, numbers */
	static const gboolean numeric[] = { FALSE, FALSE, FALSE, FALSE, TRUE, FALSE, FALSE, TRUE };
	char *cur = g_strdup(title);
	for (guint i = 0; i < G_N_ELEMENTS(with); i++) {
		if (keep_numbers && numeric[i])
			continue;
		char *next = title_replace(t->norm[i], cur, with[i]);
		g_free(cur);
		cur = next;
	}
	/* one line of printable ASCII, single blanks, at most 120 bytes, as
	 * report.go's sanitizeTitle leaves a title */
	GString *s = g_string_new(NULL);
	char prev = ' ';
	for (gsize i = 0; cur[i] && i < 120; i++) {
		char ch = cur[i] == '\t' ? ' ' : cur[i];
		if ((guchar)ch < 0x20 || (guchar)ch >= 0x7f)
			continue;
		if (ch == ' ' && prev == ' ')
			continue;
		g_string_append_c(s, ch);
		prev = ch;
	}
	g_free(cur);
	while (s->len && s->str[s->len - 1] == ' ')
		g_string_truncate(s, s->len - 1);
	return g_string_free(s, FALSE);
}
