/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Console logs: one test per prefix quirk (parse/console.c), per report kind
 * and architecture (analysis/oops.c, oops-title.c), per ftrace dump layout,
 * and per kind of bad input. The reports are written in the kernel's own
 * print formats (lib/dump_stack.c, arch/x86/kernel/dumpstack.c, kernel/panic.c,
 * mm/kasan/report.c, kernel/locking/lockdep.c...). */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "analysis/oops.h"
#include "model/iter.h"
#include "parse/console.h"
#include "unit.h"
#include "util/error.h"

static FtlConsole *con_parse(const char *text)
{
	return ftl_console_parse("test.log", text, strlen(text));
}

static const FtlConsoleLine *con_line(const FtlConsole *c, guint i)
{
	CU_ASSERT_FATAL(i < c->lines->len);
	return ftl_console_line(c, i);
}

typedef struct {
	FtlConsole *con;
	FtlOops *oops;
} Found;

static void found_free(Found *f)
{
	ftl_oops_free(f->oops);
	ftl_console_free(f->con);
	g_free(f);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Found, found_free)

static Found *find(const char *text)
{
	Found *f = g_new0(Found, 1);
	f->con = con_parse(text);
	f->oops = ftl_oops_find(f->con);
	return f;
}

static const FtlOopsReport *report(const Found *f, guint i)
{
	CU_ASSERT_FATAL(i < ftl_oops_count(f->oops));
	return ftl_oops_get(f->oops, i);
}

static const FtlOopsFrame *trace_frame(const FtlOopsReport *r, guint i)
{
	const FtlOopsStack *st = ftl_oops_report_trace(r);
	CU_ASSERT_PTR_NOT_NULL_FATAL(st);
	CU_ASSERT_FATAL(i < st->frames->len);
	return &g_array_index(st->frames, FtlOopsFrame, i);
}

static const char *reg(const FtlOopsReport *r, const char *name)
{
	for (guint i = 0; i < r->regs->len; i++) {
		const FtlOopsReg *g = &g_array_index(r->regs, FtlOopsReg, i);
		if (!strcmp(g->name, name))
			return g->value;
	}
	return NULL;
}

/* ---- prefixes ----------------------------------------------------------- */

static void test_prefix_timestamp(void)
{
	g_autoptr(FtlConsole) c =
		con_parse("[   12.345678] hello world\n[12345.000001]  indented\n");
	CU_ASSERT_EQUAL(c->lines->len, 2);
	CU_ASSERT_STRING_EQUAL(con_line(c, 0)->text, "hello world");
	CU_ASSERT_EQUAL(con_line(c, 0)->ts, G_GINT64_CONSTANT(12345678000));
	CU_ASSERT_EQUAL(con_line(c, 0)->lineno, 1);
	/* one blank after "]" is the prefix's; the rest is the message's */
	CU_ASSERT_STRING_EQUAL(con_line(c, 1)->text, " indented");
	CU_ASSERT_TRUE(c->has_ts);
	CU_ASSERT_FALSE(c->has_caller);
}

static void test_prefix_caller(void)
{
	g_autoptr(FtlConsole) c =
		con_parse("[  100.000001][ T1054] task line\n[  100.000002][    C1] cpu line\n");
	CU_ASSERT_STRING_EQUAL(con_line(c, 0)->text, "task line");
	CU_ASSERT_EQUAL(con_line(c, 0)->caller_kind, 'T');
	CU_ASSERT_EQUAL(con_line(c, 0)->caller, 1054);
	CU_ASSERT_STRING_EQUAL(con_line(c, 1)->text, "cpu line");
	CU_ASSERT_EQUAL(con_line(c, 1)->caller_kind, 'C');
	CU_ASSERT_EQUAL(con_line(c, 1)->caller, 1);
	CU_ASSERT_TRUE(c->has_caller);
	CU_ASSERT_FALSE(ftl_console_same_context(con_line(c, 0), con_line(c, 1)));
}

static void test_prefix_level(void)
{
	g_autoptr(FtlConsole) c = con_parse("<4>[    1.500000] warned\n<6>plain info\n");
	CU_ASSERT_STRING_EQUAL(con_line(c, 0)->text, "warned");
	CU_ASSERT_EQUAL(con_line(c, 0)->level, 4);
	CU_ASSERT_EQUAL(con_line(c, 0)->ts, G_GINT64_CONSTANT(1500000000));
	CU_ASSERT_STRING_EQUAL(con_line(c, 1)->text, "plain info");
	CU_ASSERT_EQUAL(con_line(c, 1)->level, 6);
	CU_ASSERT_EQUAL(con_line(c, 1)->ts, FTL_TS_NONE);
}

static void test_prefix_syslog(void)
{
	g_autoptr(FtlConsole) c =
		con_parse("Dec  3 11:03:12 myhost kernel: [   42.000100] BUG: x\n"
			  "2024-12-03T11:03:12.123456+01:00 myhost kernel: no time here\n"
			  "Dec 13 01:02:03 myhost sshd[12]: not the kernel\n");
	CU_ASSERT_STRING_EQUAL(con_line(c, 0)->text, "BUG: x");
	CU_ASSERT_EQUAL(con_line(c, 0)->ts, G_GINT64_CONSTANT(42000100000));
	CU_ASSERT_STRING_EQUAL(con_line(c, 1)->text, "no time here");
	/* other programs' lines stay as they are */
	CU_ASSERT_STRING_EQUAL(con_line(c, 2)->text,
			       "Dec 13 01:02:03 myhost sshd[12]: not the kernel");
}

static void test_prefix_dmesg_x_and_human_time(void)
{
	g_autoptr(FtlConsole) c = con_parse("kern  :warn  : [    3.000000] decorated\n"
					    "[Tue Dec  3 11:03:12 2024] human time\n");
	CU_ASSERT_STRING_EQUAL(con_line(c, 0)->text, "decorated");
	CU_ASSERT_EQUAL(con_line(c, 0)->ts, G_GINT64_CONSTANT(3000000000));
	CU_ASSERT_STRING_EQUAL(con_line(c, 1)->text, "human time");
}

static void test_prefix_kmsg(void)
{
	g_autoptr(FtlConsole) c = con_parse("4,1234,5678901,-;from /dev/kmsg\n");
	CU_ASSERT_STRING_EQUAL(con_line(c, 0)->text, "from /dev/kmsg");
	CU_ASSERT_EQUAL(con_line(c, 0)->level, 4);
	CU_ASSERT_EQUAL(con_line(c, 0)->ts, G_GINT64_CONSTANT(5678901000));
}

/* A record whose microseconds overflow nanoseconds is no record: the
 * line is text (a fuzz finding: the product was signed overflow). */
static void test_prefix_kmsg_huge_time(void)
{
	g_autoptr(FtlConsole) c =
		con_parse("4,1234,9223372036854776,-;too late\n"
			  "4,1234,9223372036854775,-;in time\n"
			  "6,1,245555555555555555555555555555554674407,-;far too late\n");
	CU_ASSERT_STRING_EQUAL(con_line(c, 0)->text, "4,1234,9223372036854776,-;too late");
	CU_ASSERT_EQUAL(con_line(c, 0)->ts, FTL_TS_NONE);
	CU_ASSERT_STRING_EQUAL(con_line(c, 1)->text, "in time");
	CU_ASSERT_EQUAL(con_line(c, 1)->ts, G_GINT64_CONSTANT(9223372036854775000));
	CU_ASSERT_EQUAL(con_line(c, 2)->ts, FTL_TS_NONE);
}

static void test_prefix_crlf_noise(void)
{
	g_autoptr(FtlConsole) c =
		con_parse("[    1.000000] one\r\n[    2.000000] two\r\r\n\x1b[2J\x1b[0mscreen\r\n");
	CU_ASSERT_EQUAL(c->lines->len, 3);
	CU_ASSERT_STRING_EQUAL(con_line(c, 0)->text, "one");
	CU_ASSERT_STRING_EQUAL(con_line(c, 1)->text, "two");
	/* terminal escapes are screen control, not binary noise */
	CU_ASSERT_STRING_EQUAL(con_line(c, 2)->text, "screen");
	CU_ASSERT_EQUAL(ftl_diags_get(c->diags, FTL_DIAG_BINARY_BYTES)->count, 0);
}

static void test_prefix_dropped(void)
{
	g_autoptr(FtlConsole) c =
		con_parse("** 3764 printk messages dropped ** [   46.300984] BUG: KASAN: x\n");
	CU_ASSERT_STRING_EQUAL(con_line(c, 0)->text, "BUG: KASAN: x");
	CU_ASSERT_EQUAL(con_line(c, 0)->ts, G_GINT64_CONSTANT(46300984000));
}

static void test_cut_line(void)
{
	g_autoptr(FtlConsole) c = con_parse(
		"[    5.000000] general protection fault: 0000 [#1] SMP[    5.000100] Dumping x\n"
		"syzkaller login: [    6.000000] after login\n");
	CU_ASSERT_EQUAL(c->lines->len, 4);
	CU_ASSERT_STRING_EQUAL(con_line(c, 0)->text, "general protection fault: 0000 [#1] SMP");
	CU_ASSERT_TRUE(con_line(c, 0)->flags & FTL_CONSOLE_LINE_CUT);
	CU_ASSERT_STRING_EQUAL(con_line(c, 1)->text, "Dumping x");
	CU_ASSERT_TRUE(con_line(c, 1)->flags & FTL_CONSOLE_LINE_SPLIT);
	CU_ASSERT_EQUAL(con_line(c, 1)->ts, G_GINT64_CONSTANT(5000100000));
	CU_ASSERT_EQUAL(con_line(c, 1)->lineno, 1);
	CU_ASSERT_STRING_EQUAL(con_line(c, 2)->text, "syzkaller login:");
	CU_ASSERT_STRING_EQUAL(con_line(c, 3)->text, "after login");
	CU_ASSERT_EQUAL(ftl_diags_get(c->diags, FTL_DIAG_CUT_LINE)->count, 2);
}

static void test_missing_final_newline(void)
{
	g_autoptr(FtlConsole) c = con_parse("[    1.000000] whole\n[    1.000001] half a mes");
	CU_ASSERT_EQUAL(c->lines->len, 2);
	CU_ASSERT_FALSE(con_line(c, 0)->flags & FTL_CONSOLE_LINE_CUT);
	CU_ASSERT_TRUE(con_line(c, 1)->flags & FTL_CONSOLE_LINE_CUT);
	CU_ASSERT_EQUAL(c->n_input, 2);
}

static void test_binary_noise(void)
{
	static const char text[] = "[    1.000000] ok\n[    1.000001] no\0se\x01\x02 here\n";
	g_autoptr(FtlConsole) c = ftl_console_parse("bin.log", text, sizeof text - 1);
	CU_ASSERT_EQUAL(c->lines->len, 2);
	CU_ASSERT_STRING_EQUAL(con_line(c, 1)->text, "no?se?? here");
	CU_ASSERT_TRUE(con_line(c, 1)->flags & FTL_CONSOLE_LINE_BINARY);
	const FtlDiagEntry *d = ftl_diags_get(c->diags, FTL_DIAG_BINARY_BYTES);
	CU_ASSERT_EQUAL(d->count, 1);
	CU_ASSERT_EQUAL(d->first_line, 2);
}

/* ---- reports: kinds --------------------------------------------------------- */

static const char x86_null_deref[] =
	"[  100.000000] BUG: kernel NULL pointer dereference, address: 0000000000000008\n"
	"[  100.000001] #PF: supervisor read access in kernel mode\n"
	"[  100.000002] #PF: error_code(0x0000) - not-present page\n"
	"[  100.000003] PGD 0 P4D 0 \n"
	"[  100.000004] Oops: 0000 [#1] PREEMPT SMP NOPTI\n"
	"[  100.000005] CPU: 3 PID: 4242 Comm: insmod Tainted: G           O       6.1.0-test #1\n"
	"[  100.000006] Hardware name: QEMU Standard PC (Q35 + ICH9, 2009), BIOS 1.16.2 "
	"04/01/2014\n"
	"[  100.000007] RIP: 0010:demo_init+0x15/0x30 [demo]\n"
	"[  100.000008] Code: 48 8b 04 25 08 00 00 00 <8b> 00 c3 66 90\n"
	"[  100.000009] RSP: 0018:ffffb2c1c0a7bd88 EFLAGS: 00010246\n"
	"[  100.000010] RAX: 0000000000000000 RBX: ffffffffc0800000 RCX: 0000000000000000\n"
	"[  100.000011] Call Trace:\n"
	"[  100.000012]  <TASK>\n"
	"[  100.000013]  do_one_initcall+0x56/0x220\n"
	"[  100.000014]  ? kmem_cache_alloc_trace+0x17a/0x2e0\n"
	"[  100.000015]  do_init_module+0x4a/0x200\n"
	"[  100.000016]  __do_sys_finit_module+0xac/0x120\n"
	"[  100.000017]  do_syscall_64+0x5b/0x80\n"
	"[  100.000018]  entry_SYSCALL_64_after_hwframe+0x63/0xcd\n"
	"[  100.000019] RIP: 0033:0x7f6a5e9c1f29\n"
	"[  100.000020] RSP: 002b:00007ffd7b0e8e08 EFLAGS: 00000246 ORIG_RAX: 0000000000000139\n"
	"[  100.000021]  </TASK>\n"
	"[  100.000022] Modules linked in: demo(O+) ext4 mbcache [last unloaded: old]\n"
	"[  100.000023] CR2: 0000000000000008\n"
	"[  100.000024] ---[ end trace 0000000000000000 ]---\n";

static void test_kind_oops_x86(void)
{
	g_autoptr(Found) f = find(x86_null_deref);
	CU_ASSERT_EQUAL_FATAL(ftl_oops_count(f->oops), 1);
	const FtlOopsReport *r = report(f, 0);
	CU_ASSERT_EQUAL(r->kind, FTL_OOPS_OOPS);
	CU_ASSERT_STRING_EQUAL(
		r->title, "BUG: unable to handle kernel NULL pointer dereference in demo_init");
	CU_ASSERT_STRING_EQUAL(r->blamed, "demo_init");
	CU_ASSERT_EQUAL(r->cpu, 3);
	CU_ASSERT_EQUAL(r->pid, 4242);
	CU_ASSERT_STRING_EQUAL(r->comm, "insmod");
	CU_ASSERT_TRUE(r->tainted);
	CU_ASSERT_STRING_EQUAL(r->taint, "G           O");
	CU_ASSERT_STRING_EQUAL(r->release, "6.1.0-test");
	CU_ASSERT_STRING_EQUAL(r->build, "#1");
	CU_ASSERT_STRING_EQUAL(r->hardware,
			       "QEMU Standard PC (Q35 + ICH9, 2009), BIOS 1.16.2 04/01/2014");
	CU_ASSERT_STRING_EQUAL(r->oops, "Oops: 0000 [#1] PREEMPT SMP NOPTI");
	CU_ASSERT_TRUE_FATAL(r->has_fault);
	CU_ASSERT_STRING_EQUAL(r->fault_reg, "RIP");
	CU_ASSERT_STRING_EQUAL(r->fault.func, "demo_init");
	CU_ASSERT_EQUAL(r->fault.offset, 0x15);
	CU_ASSERT_EQUAL(r->fault.size, 0x30);
	CU_ASSERT_STRING_EQUAL(r->fault.module, "demo");
	CU_ASSERT_STRING_EQUAL(reg(r, "RSP"), "0018:ffffb2c1c0a7bd88");
	CU_ASSERT_STRING_EQUAL(reg(r, "RBX"), "ffffffffc0800000");
	/* the user-mode registers inside the trace are not the report's */
	CU_ASSERT_PTR_NULL(reg(r, "ORIG_RAX"));
	CU_ASSERT_EQUAL_FATAL(r->modules->len, 3);
	CU_ASSERT_STRING_EQUAL(g_ptr_array_index(r->modules, 0), "demo(O+)");
	CU_ASSERT_STRING_EQUAL(r->last_unloaded, "old");
	CU_ASSERT_STRING_EQUAL(r->end_marker, "---[ end trace 0000000000000000 ]---");
	CU_ASSERT_FALSE(r->cut);
	const FtlOopsStack *st = ftl_oops_report_trace(r);
	CU_ASSERT_STRING_EQUAL(st->label, "Call Trace:");
	CU_ASSERT_EQUAL(st->frames->len, 6);
	CU_ASSERT_STRING_EQUAL(trace_frame(r, 0)->func, "do_one_initcall");
	CU_ASSERT_STRING_EQUAL(trace_frame(r, 0)->section, "TASK");
	CU_ASSERT_TRUE(trace_frame(r, 0)->reliable);
	CU_ASSERT_STRING_EQUAL(trace_frame(r, 1)->func, "kmem_cache_alloc_trace");
	CU_ASSERT_FALSE(trace_frame(r, 1)->reliable);
	CU_ASSERT_EQUAL(trace_frame(r, 5)->offset, 0x63);
}

static void test_kind_warning(void)
{
	g_autoptr(Found) f =
		find("[    9.000000] ------------[ cut here ]------------\n"
		     "[    9.000001] WARNING: CPU: 1 PID: 77 at drivers/demo/demo.c:42 "
		     "demo_probe+0x2a/0x40 [demo]\n"
		     "[    9.000002] Modules linked in: demo\n"
		     "[    9.000003] CPU: 1 PID: 77 Comm: kworker/1:1 Not tainted 5.15.0 #3\n"
		     "[    9.000004] Workqueue: events demo_work\n"
		     "[    9.000005] RIP: 0010:demo_probe+0x2a/0x40 [demo]\n"
		     "[    9.000006] Call Trace:\n"
		     "[    9.000007]  really_probe+0x1f5/0x3d0\n"
		     "[    9.000008]  driver_probe_device+0x1e/0x90\n"
		     "[    9.000009] ---[ end trace 1234abcd5678ef00 ]---\n");
	const FtlOopsReport *r = report(f, 0);
	CU_ASSERT_EQUAL(r->kind, FTL_OOPS_WARNING);
	CU_ASSERT_STRING_EQUAL(r->title, "WARNING in demo_probe");
	CU_ASSERT_STRING_EQUAL(r->location, "drivers/demo/demo.c:42");
	g_autoptr(Found) g =
		find("[    9.000000] WARNING: kernel/demo.c:7 at demo_tick+0x3/0x9, CPU#2: "
		     "swapper/2/0\n"
		     "[    9.000001] RIP: 0010:demo_tick+0x3/0x9\n");
	CU_ASSERT_STRING_EQUAL(report(g, 0)->location, "kernel/demo.c:7");
	CU_ASSERT_STRING_EQUAL(report(g, 0)->title, "WARNING in demo_tick");
	CU_ASSERT_STRING_EQUAL(r->taint, "Not tainted");
	CU_ASSERT_FALSE(r->tainted);
	/* the "cut here" line before it belongs to it */
	CU_ASSERT_EQUAL(ftl_console_line(f->con, r->first)->lineno, 1);
	CU_ASSERT_EQUAL(ftl_console_line(f->con, r->header_line)->lineno, 2);
}

static void test_kind_kernel_bug_and_panic(void)
{
	g_autoptr(Found) f =
		find("[   50.000000] kernel BUG at mm/demo.c:99!\n"
		     "[   50.000001] invalid opcode: 0000 [#1] SMP KASAN\n"
		     "[   50.000002] CPU: 0 PID: 1 Comm: init Not tainted 4.19.0 #1\n"
		     "[   50.000003] RIP: 0010:demo_free+0x10/0x20\n"
		     "[   50.000004] Call Trace:\n"
		     "[   50.000005]  <IRQ>\n"
		     "[   50.000006]  demo_timer+0x5/0x10\n"
		     "[   50.000007]  </IRQ>\n"
		     "[   50.000008]  do_exit+0x100/0x200\n"
		     "[   50.000009] ---[ end trace 99 ]---\n"
		     "[   50.000010] Kernel panic - not syncing: Fatal exception in interrupt\n"
		     "[   50.000011] Kernel Offset: disabled\n"
		     "[   50.000012] ---[ end Kernel panic - not syncing: Fatal exception in "
		     "interrupt ]---\n");
	/* the oops line and the panic it caused are part of the one report */
	CU_ASSERT_EQUAL_FATAL(ftl_oops_count(f->oops), 1);
	const FtlOopsReport *r = report(f, 0);
	CU_ASSERT_EQUAL(r->kind, FTL_OOPS_KERNEL_BUG);
	CU_ASSERT_STRING_EQUAL(r->title, "kernel BUG in demo_free");
	CU_ASSERT_STRING_EQUAL(r->location, "mm/demo.c:99");
	CU_ASSERT_STRING_EQUAL(r->panic, "Fatal exception in interrupt");
	CU_ASSERT_STRING_EQUAL(r->oops, "invalid opcode: 0000 [#1] SMP KASAN");
	CU_ASSERT_STRING_EQUAL(trace_frame(r, 0)->section, "IRQ");
	CU_ASSERT_PTR_NULL(trace_frame(r, 1)->section);
	CU_ASSERT_STRING_EQUAL(trace_frame(r, 1)->func, "do_exit");
}

static void test_kind_panic_alone(void)
{
	g_autoptr(Found) f =
		find("[    8.531856] sysrq: Trigger a crash\n"
		     "[    8.532850] Kernel panic - not syncing: sysrq triggered crash\n"
		     "[    8.533338] CPU: 0 PID: 96 Comm: sh Not tainted 6.1.0-57-cloud-amd64 #1  "
		     "Debian "
		     "6.1.192-3\n"
		     "[    8.533338] Call Trace:\n"
		     "[    8.533338]  <TASK>\n"
		     "[    8.533338]  dump_stack_lvl+0x44/0x5c\n"
		     "[    8.533338]  panic+0x118/0x2f4\n"
		     "[    8.533338]  sysrq_handle_crash+0x16/0x20\n"
		     "[    8.533338]  </TASK>\n");
	const FtlOopsReport *r = report(f, 0);
	CU_ASSERT_EQUAL(r->kind, FTL_OOPS_PANIC);
	CU_ASSERT_STRING_EQUAL(r->title, "kernel panic: sysrq triggered crash");
	CU_ASSERT_STRING_EQUAL(r->release, "6.1.0-57-cloud-amd64");
	CU_ASSERT_FALSE(r->has_fault);
}

static void test_kind_gpf(void)
{
	g_autoptr(Found) f = find("general protection fault, probably for non-canonical address "
				  "0xdead: 0000 [#1] SMP\n"
				  "CPU: 2 PID: 9 Comm: ksoftirqd/2 Not tainted 5.10.0 #1\n"
				  "RIP: 0010:list_walk+0x12/0x40\n"
				  "Call Trace:\n"
				  " process_list+0x20/0x50\n"
				  " ---[ end trace 0 ]---\n");
	const FtlOopsReport *r = report(f, 0);
	CU_ASSERT_EQUAL(r->kind, FTL_OOPS_GPF);
	CU_ASSERT_STRING_EQUAL(r->title, "general protection fault in list_walk");
	CU_ASSERT_STRING_EQUAL(r->comm, "ksoftirqd/2");
}

static void test_kind_kasan(void)
{
	g_autoptr(Found) f =
		find("[   20.000000] "
		     "==================================================================\n"
		     "[   20.000001] BUG: KASAN: use-after-free in demo_read+0x44/0x90\n"
		     "[   20.000002] Read of size 8 at addr ffff888012345678 by task cat/300\n"
		     "[   20.000003] \n"
		     "[   20.000004] CPU: 0 PID: 300 Comm: cat Not tainted 6.6.0 #1\n"
		     "[   20.000005] Call Trace:\n"
		     "[   20.000006]  <TASK>\n"
		     "[   20.000007]  dump_stack_lvl+0x4c/0x70\n"
		     "[   20.000008]  print_report+0xcf/0x620\n"
		     "[   20.000009]  kasan_report+0xb0/0xe0\n"
		     "[   20.000010]  demo_read+0x44/0x90\n"
		     "[   20.000011]  vfs_read+0xd1/0x2f0\n"
		     "[   20.000012]  </TASK>\n"
		     "[   20.000013] \n"
		     "[   20.000014] Allocated by task 299:\n"
		     "[   20.000015]  kasan_save_stack+0x22/0x40\n"
		     "[   20.000016]  demo_open+0x30/0x60\n"
		     "[   20.000017] \n"
		     "[   20.000018] Freed by task 299:\n"
		     "[   20.000019]  kfree+0x80/0x120\n"
		     "[   20.000020]  demo_release+0x10/0x20\n"
		     "[   20.000021] "
		     "==================================================================\n"
		     "[   20.000022] Disabling lock debugging due to kernel taint\n");
	const FtlOopsReport *r = report(f, 0);
	CU_ASSERT_EQUAL(r->kind, FTL_OOPS_SANITIZER);
	CU_ASSERT_STRING_EQUAL(r->title, "KASAN: use-after-free Read in demo_read");
	CU_ASSERT_EQUAL(r->stacks->len, 3);
	const FtlOopsStack *alloc = g_ptr_array_index(r->stacks, 1);
	CU_ASSERT_STRING_EQUAL(alloc->label, "Allocated by task 299:");
	CU_ASSERT_EQUAL(alloc->frames->len, 2);
	CU_ASSERT_STRING_EQUAL(ftl_oops_report_trace(r)->label, "Call Trace:");
}

static void test_kind_kfence_kcsan_kmsan_ubsan(void)
{
	g_autoptr(Found) kf =
		find("[    1.000000] BUG: KFENCE: use-after-free read in demo_get+0x1c/0x30\n"
		     "[    1.000001] \n"
		     "[    1.000002] Use-after-free read at 0x000000004fd2a7e0 (in kfence-#12):\n"
		     "[    1.000003]  demo_get+0x1c/0x30\n"
		     "[    1.000004]  demo_ioctl+0x50/0x90\n");
	CU_ASSERT_STRING_EQUAL(report(kf, 0)->title, "KFENCE: use-after-free read in demo_get");
	g_autoptr(Found) kc =
		find("[    2.000000] BUG: KCSAN: data-race in demo_inc / demo_read\n"
		     "[    2.000001] \n"
		     "[    2.000002] write to 0xffff888003456789 of 4 bytes by task 10 on cpu 1:\n"
		     "[    2.000003]  demo_inc+0x10/0x20\n");
	CU_ASSERT_STRING_EQUAL(report(kc, 0)->title, "KCSAN: data-race in demo_inc / demo_read");
	CU_ASSERT_EQUAL(report(kc, 0)->kind, FTL_OOPS_SANITIZER);
	g_autoptr(Found) km =
		find("[    3.000000] BUG: KMSAN: uninit-value in demo_parse+0x7e/0x90\n"
		     "[    3.000001]  demo_parse+0x7e/0x90\n"
		     "[    3.000002]  demo_write+0x10/0x20\n"
		     "[    3.000003] \n"
		     "[    3.000004] Uninit was created at:\n"
		     "[    3.000005]  kmalloc_trace+0x10/0x20\n");
	CU_ASSERT_STRING_EQUAL(report(km, 0)->title, "KMSAN: uninit-value in demo_parse");
	g_autoptr(Found) ub =
		find("[    4.000000] UBSAN: shift-out-of-bounds in drivers/demo/demo.c:12:5\n"
		     "[    4.000001] shift exponent 70 is too large for 64-bit type 'long unsigned "
		     "int'\n"
		     "[    4.000002] Call Trace:\n"
		     "[    4.000003]  ubsan_epilogue+0x5/0x40\n"
		     "[    4.000004]  demo_shift+0x22/0x40\n");
	CU_ASSERT_STRING_EQUAL(report(ub, 0)->title, "UBSAN: shift-out-of-bounds in demo_shift");
}

static void test_kind_lockups_and_stalls(void)
{
	g_autoptr(Found) soft = find(
		"[  281.000000] watchdog: BUG: soft lockup - CPU#1 stuck for 22s! [spin:1234]\n"
		"[  281.000001] CPU: 1 PID: 1234 Comm: spin Tainted: G             L     6.2.0 #1\n"
		"[  281.000002] RIP: 0010:demo_spin+0x5/0x10\n"
		"[  281.000003] Call Trace:\n"
		"[  281.000004]  demo_write+0x20/0x40\n"
		"[  281.000005]  vfs_write+0xc7/0x3f0\n"
		"[  281.000006]  ksys_write+0x6b/0xf0\n");
	const FtlOopsReport *r = report(soft, 0);
	CU_ASSERT_EQUAL(r->kind, FTL_OOPS_SOFT_LOCKUP);
	/* a stall is blamed on the caller of the dispatch point it loops under */
	CU_ASSERT_STRING_EQUAL(r->title, "BUG: soft lockup in demo_write");
	CU_ASSERT_EQUAL(r->cpu, 1);
	CU_ASSERT_STRING_EQUAL(r->comm, "spin");
	g_autoptr(Found) hard =
		find("[  300.000000] NMI watchdog: Watchdog detected hard LOCKUP on cpu 2\n"
		     "[  300.000001] CPU: 2 PID: 0 Comm: swapper/2 Not tainted 6.2.0 #1\n"
		     "[  300.000002] RIP: 0010:demo_irq_loop+0x9/0x20\n");
	CU_ASSERT_EQUAL(report(hard, 0)->kind, FTL_OOPS_HARD_LOCKUP);
	CU_ASSERT_STRING_EQUAL(report(hard, 0)->title, "BUG: hard lockup in demo_irq_loop");
	g_autoptr(Found) rcu =
		find("[  400.000000] rcu: INFO: rcu_preempt self-detected stall on CPU\n"
		     "[  400.000001] rcu: \t0-....: (2100 ticks this GP) idle=1234\n"
		     "[  400.000002] NMI backtrace for cpu 0\n"
		     "[  400.000003] Call Trace:\n"
		     "[  400.000004]  <IRQ>\n"
		     "[  400.000005]  rcu_sched_clock_irq+0x1/0x2\n"
		     "[  400.000006]  </IRQ>\n"
		     "[  400.000007]  <TASK>\n"
		     "[  400.000008]  asm_sysvec_apic_timer_interrupt+0x16/0x20\n"
		     "[  400.000009] RIP: 0010:demo_busy+0x3/0x10\n"
		     "[  400.000010]  demo_loop+0x10/0x20\n"
		     "[  400.000011]  process_one_work+0x100/0x200\n");
	CU_ASSERT_EQUAL(report(rcu, 0)->kind, FTL_OOPS_RCU_STALL);
	CU_ASSERT_STRING_EQUAL(report(rcu, 0)->title, "INFO: rcu detected stall in demo_loop");
	g_autoptr(Found) hung = find(
		"[  500.000000] INFO: task demo-worker:321 blocked for more than 120 seconds.\n"
		"[  500.000001]       Not tainted 6.1.0 #1\n"
		"[  500.000002] Call Trace:\n"
		"[  500.000003]  <TASK>\n"
		"[  500.000004]  __schedule+0x2f0/0x950\n"
		"[  500.000005]  schedule+0x5d/0xd0\n"
		"[  500.000006]  demo_read_firmware+0x40/0x80\n"
		"[  500.000007]  </TASK>\n");
	const FtlOopsReport *h = report(hung, 0);
	CU_ASSERT_EQUAL(h->kind, FTL_OOPS_HUNG_TASK);
	CU_ASSERT_STRING_EQUAL(h->title, "INFO: task hung in demo_read_firmware");
	CU_ASSERT_EQUAL(h->pid, 321);
	CU_ASSERT_STRING_EQUAL(h->comm, "demo-worker");
}

static void test_kind_lockdep(void)
{
	g_autoptr(Found) f =
		find("[   30.000000] ======================================================\n"
		     "[   30.000001] WARNING: possible circular locking dependency detected\n"
		     "[   30.000002] 6.1.0 #1 Not tainted\n"
		     "[   30.000003] ------------------------------------------------------\n"
		     "[   30.000004] demo/55 is trying to acquire lock:\n"
		     "[   30.000005] ffff8880 (&dev->lock){+.+.}-{3:3}, at: demo_ioctl+0x20/0x80\n"
		     "[   30.000006] \n"
		     "[   30.000007] but task is already holding lock:\n"
		     "[   30.000008] ffff8881 (&dev->other){+.+.}-{3:3}, at: demo_open+0x10/0x40\n"
		     "[   30.000009] \n"
		     "[   30.000010] stack backtrace:\n"
		     "[   30.000011] Call Trace:\n"
		     "[   30.000012]  lock_acquire+0xc4/0x2b0\n");
	const FtlOopsReport *r = report(f, 0);
	CU_ASSERT_EQUAL(r->kind, FTL_OOPS_LOCKDEP);
	CU_ASSERT_STRING_EQUAL(r->title, "possible deadlock in demo_ioctl");
	g_autoptr(Found) g =
		find("[   31.000000] ================================\n"
		     "[   31.000001] WARNING: inconsistent lock state\n"
		     "[   31.000002] --------------------------------\n"
		     "[   31.000003] inconsistent {SOFTIRQ-ON-W} -> {IN-SOFTIRQ-W} usage.\n"
		     "[   31.000004] demo/7 [HC0[0]:SC1[1]:HE1:SE0] takes:\n"
		     "[   31.000005] ffff8880 (&q->lock){+.?.}-{2:2}, at: demo_complete+0x10/0x30\n"
		     "[   31.000006] Call Trace:\n"
		     "[   31.000007]  <IRQ>\n"
		     "[   31.000008]  lock_acquire+0xc4/0x2b0\n"
		     "[   31.000009]  _raw_spin_lock+0x2b/0x40\n"
		     "[   31.000010]  demo_complete+0x10/0x30\n");
	CU_ASSERT_EQUAL(report(g, 0)->kind, FTL_OOPS_LOCKDEP);
	CU_ASSERT_STRING_EQUAL(report(g, 0)->title, "inconsistent lock state in demo_complete");
}

static void test_kind_bad_page(void)
{
	g_autoptr(Found) f =
		find("[   60.000000] BUG: Bad page state in process demo  pfn:1a2b3\n"
		     "[   60.000001] page:000000 refcount:0 mapcount:1 mapping:0000 index:0x0 "
		     "pfn:0x1a2b3\n"
		     "[   60.000002] page dumped because: nonzero mapcount\n"
		     "[   60.000003] page last allocated via order 0, migratetype Movable\n"
		     "[   60.000004]  post_alloc_hook+0x1c/0x40\n"
		     "[   60.000005]  demo_fill+0x30/0x90\n"
		     "[   60.000006] CPU: 0 PID: 5 Comm: demo Not tainted 6.1.0 #1\n");
	const FtlOopsReport *r = report(f, 0);
	CU_ASSERT_EQUAL(r->kind, FTL_OOPS_BAD_PAGE);
	CU_ASSERT_STRING_EQUAL(r->title, "BUG: Bad page state in demo_fill");
}

/* ---- reports: which lines make one ------------------------------------------- */

static void test_lines_panic_reopens_report(void)
{
	/* panic_on_warn: the rule closes the KASAN report, and the panic it
	 * caused, right after, joins it again */
	g_autoptr(Found) f =
		find("[   20.000000] "
		     "==================================================================\n"
		     "[   20.000001] BUG: KASAN: use-after-free in demo_read+0x44/0x90\n"
		     "[   20.000002] Read of size 8 at addr ffff888012345678 by task cat/300\n"
		     "[   20.000003] CPU: 0 PID: 300 Comm: cat Not tainted 6.6.0 #1\n"
		     "[   20.000004] Call Trace:\n"
		     "[   20.000005]  demo_read+0x44/0x90\n"
		     "[   20.000006]  vfs_read+0xd1/0x2f0\n"
		     "[   20.000007] "
		     "==================================================================\n"
		     "[   20.000008] Kernel panic - not syncing: KASAN: panic_on_warn set ...\n"
		     "[   20.000009] CPU: 0 PID: 300 Comm: cat Not tainted 6.6.0 #1\n"
		     "[   20.000010] Call Trace:\n"
		     "[   20.000011]  panic+0x10/0x20\n"
		     "[   20.000012]  end_report+0x10/0x20\n");
	CU_ASSERT_EQUAL_FATAL(ftl_oops_count(f->oops), 1);
	const FtlOopsReport *r = report(f, 0);
	CU_ASSERT_EQUAL(r->kind, FTL_OOPS_SANITIZER);
	CU_ASSERT_STRING_EQUAL(r->title, "KASAN: use-after-free Read in demo_read");
	CU_ASSERT_STRING_EQUAL(r->panic, "KASAN: panic_on_warn set ...");
	CU_ASSERT_EQUAL(r->n_lines, 13);
	CU_ASSERT_EQUAL(r->stacks->len, 2);
	CU_ASSERT_FALSE(r->cut);
}

static void test_lines_nmi_backtraces_join(void)
{
	/* with caller ids, the backtraces other CPUs print when asked ("Sending
	 * NMI from CPU") belong to the report that asked; a task's line does not */
	g_autoptr(Found) f =
		find("[  400.000000][    C0] rcu: INFO: rcu_preempt self-detected stall on CPU\n"
		     "[  400.000001][    C0] rcu: \t0-....: (2100 ticks this GP) idle=1234\n"
		     "[  400.000002][    C0] Sending NMI from CPU 0 to CPUs 1:\n"
		     "[  400.000003][    C1] NMI backtrace for cpu 1\n"
		     "[  400.000004][    C1] CPU: 1 PID: 77 Comm: looper Not tainted 6.1.0 #1\n"
		     "[  400.000005][    C1] Call Trace:\n"
		     "[  400.000006][    C1]  demo_spin+0x3/0x10\n"
		     "[  400.000007][    C1]  demo_loop+0x10/0x20\n"
		     "[  400.000008][    C0] NMI backtrace for cpu 0\n"
		     "[  400.000009][    C0] Call Trace:\n"
		     "[  400.000010][    C0]  rcu_dump_cpu_stacks+0x1/0x2\n"
		     "[  400.000011][ T500] demo: unrelated task message\n");
	CU_ASSERT_EQUAL_FATAL(ftl_oops_count(f->oops), 1);
	const FtlOopsReport *r = report(f, 0);
	CU_ASSERT_EQUAL(r->kind, FTL_OOPS_RCU_STALL);
	CU_ASSERT_EQUAL(r->n_lines, 11);
	CU_ASSERT_EQUAL(r->last, 10);
	CU_ASSERT_EQUAL_FATAL(r->stacks->len, 2);
	const FtlOopsStack *cpu1 = g_ptr_array_index(r->stacks, 0);
	CU_ASSERT_EQUAL_FATAL(cpu1->frames->len, 2);
	CU_ASSERT_STRING_EQUAL(g_array_index(cpu1->frames, FtlOopsFrame, 1).func, "demo_loop");
	/* the stall did not name its task, and CPU 1's line speaks of CPU 1's
	 * own task (its NMI backtrace), not of the report's */
	CU_ASSERT_EQUAL(r->pid, -1);
	CU_ASSERT_EQUAL(cpu1->cpu, 1);
}

static void test_lines_silence_ends_report(void)
{
	/* a report comes out in one burst: lines after a long silence in its
	 * context are not its own, and a panic then is a report of its own */
	g_autoptr(Found) f =
		find("[   10.000000] WARNING: CPU: 0 PID: 1 at kernel/demo.c:7 demo_tick+0x3/0x9\n"
		     "[   10.000001] CPU: 0 PID: 1 Comm: init Not tainted 6.1.0 #1\n"
		     "[   10.000002] Call Trace:\n"
		     "[   10.000003]  demo_tick+0x3/0x9\n"
		     "[   10.000004]  demo_caller+0x10/0x20\n"
		     "[   30.000000]  late_frame+0x10/0x20\n"
		     "[   30.000001] Kernel panic - not syncing: late\n");
	CU_ASSERT_EQUAL_FATAL(ftl_oops_count(f->oops), 2);
	const FtlOopsReport *w = report(f, 0), *p = report(f, 1);
	CU_ASSERT_EQUAL(w->kind, FTL_OOPS_WARNING);
	CU_ASSERT_EQUAL(w->n_lines, 5);
	CU_ASSERT_EQUAL(ftl_oops_report_trace(w)->frames->len, 2);
	CU_ASSERT_PTR_NULL(w->panic);
	CU_ASSERT_EQUAL(p->kind, FTL_OOPS_PANIC);
	CU_ASSERT_EQUAL(p->n_lines, 1);
	CU_ASSERT_STRING_EQUAL(p->panic, "late");
}

/* ---- reports: architectures ---------------------------------------------------- */

static void test_arch_arm64(void)
{
	g_autoptr(Found) f = find(
		"[   10.000000] Unable to handle kernel NULL pointer dereference at virtual "
		"address "
		"0000000000000000\n"
		"[   10.000001] Mem abort info:\n"
		"[   10.000002] Internal error: Oops: 0000000096000005 [#1] PREEMPT SMP\n"
		"[   10.000003] Modules linked in: demo\n"
		"[   10.000004] CPU: 1 PID: 88 Comm: sh Not tainted 6.6.0 #1\n"
		"[   10.000005] Hardware name: linux,dummy-virt (DT)\n"
		"[   10.000006] pstate: 60400005 (nZCv daif +PAN -UAO -TCO -DIT -SSBS BTYPE=--)\n"
		"[   10.000007] pc : demo_write+0x1c/0x40 [demo]\n"
		"[   10.000008] lr : vfs_write+0xc8/0x300\n"
		"[   10.000009] sp : ffff80008000bd40\n"
		"[   10.000010] x29: ffff80008000bd40 x28: ffff00000a1c8000 x27: 0000000000000000\n"
		"[   10.000011] x2 : 0000000000000000 x1 : 0000000000000000 x0 : 0000000000000000\n"
		"[   10.000012] Call trace:\n"
		"[   10.000013]  demo_write+0x1c/0x40 [demo]\n"
		"[   10.000014]  vfs_write+0xc8/0x300\n"
		"[   10.000015]  el0t_64_sync+0x190/0x198\n"
		"[   10.000016] Code: d503233f a9bf7bfd 910003fd f9400000 (b9400000) \n"
		"[   10.000017] ---[ end trace 0000000000000000 ]---\n");
	CU_ASSERT_EQUAL_FATAL(ftl_oops_count(f->oops), 1);
	const FtlOopsReport *r = report(f, 0);
	CU_ASSERT_STRING_EQUAL(
		r->title, "BUG: unable to handle kernel NULL pointer dereference in demo_write");
	CU_ASSERT_STRING_EQUAL(r->fault_reg, "pc");
	CU_ASSERT_STRING_EQUAL(r->fault.func, "demo_write");
	CU_ASSERT_STRING_EQUAL(r->fault.module, "demo");
	CU_ASSERT_STRING_EQUAL(reg(r, "x29"), "ffff80008000bd40");
	CU_ASSERT_STRING_EQUAL(reg(r, "x1"), "0000000000000000");
	CU_ASSERT_STRING_EQUAL(reg(r, "pstate"), "60400005");
	CU_ASSERT_STRING_EQUAL(trace_frame(r, 0)->module, "demo");
	CU_ASSERT_EQUAL(ftl_oops_report_trace(r)->frames->len, 3);
}

static void test_arch_arm32(void)
{
	g_autoptr(Found) f = find(
		"8<--- cut here ---\n"
		"Unable to handle kernel NULL pointer dereference at virtual address 00000000\n"
		"Internal error: Oops: 5 [#1] SMP ARM\n"
		"CPU: 0 PID: 50 Comm: sh Not tainted 5.10.0 #1\n"
		"Hardware name: ARM-Versatile Express\n"
		"PC is at demo_set+0x10/0x24\n"
		"LR is at demo_ioctl+0x40/0x80\n"
		"pc : [<8062eec8>]    lr : [<80632588>]    psr: 200d0013\n"
		"sp : 977bdd48  ip : 00001044  fp : 00000000\n"
		"Backtrace:\n"
		"[<8062eec8>] (demo_set) from [<80632588>] (demo_ioctl+0x40/0x80)\n"
		"[<80632588>] (demo_ioctl) from [<8027dfb4>] (do_vfs_ioctl+0xb0/0xa10)\n"
		"---[ end trace df926199e0a105ac ]---\n");
	const FtlOopsReport *r = report(f, 0);
	CU_ASSERT_STRING_EQUAL(r->title,
			       "BUG: unable to handle kernel NULL pointer dereference in demo_set");
	CU_ASSERT_STRING_EQUAL(r->fault_reg, "PC");
	CU_ASSERT_STRING_EQUAL(r->fault.func, "demo_set");
	CU_ASSERT_EQUAL(r->fault.offset, 0x10);
	CU_ASSERT_STRING_EQUAL(reg(r, "psr"), "200d0013");
	CU_ASSERT_STRING_EQUAL(reg(r, "fp"), "00000000");
	const FtlOopsStack *st = ftl_oops_report_trace(r);
	CU_ASSERT_EQUAL_FATAL(st->frames->len, 3);
	CU_ASSERT_STRING_EQUAL(trace_frame(r, 0)->func, "demo_set");
	CU_ASSERT_STRING_EQUAL(trace_frame(r, 1)->func, "demo_ioctl");
	CU_ASSERT_EQUAL(trace_frame(r, 1)->offset, 0x40);
	CU_ASSERT_STRING_EQUAL(trace_frame(r, 2)->func, "do_vfs_ioctl");
}

static void test_arch_ppc64(void)
{
	g_autoptr(Found) f =
		find("BUG: Kernel NULL pointer dereference on read at 0x00000000\n"
		     "Faulting instruction address: 0xc000000000123456\n"
		     "Oops: Kernel access of bad area, sig: 11 [#1]\n"
		     "CPU: 4 PID: 99 Comm: demo Not tainted 6.1.0 #1\n"
		     "NIP:  c000000000123456 LR: c000000000123400 CTR: 0000000000000000\n"
		     "MSR:  8000000000009033 <SF,EE,ME,IR,DR,RI,LE>  CR: 28002842  XER: 20040000\n"
		     "GPR00: c000000000123400 c00000000ff0fa40 c000000001234500 0000000000000000 \n"
		     "NIP [c000000000123456] demo_lookup+0x36/0x100\n"
		     "LR [c000000000123400] demo_find+0x20/0x80\n"
		     "Call Trace:\n"
		     "[c00000000ff0fa40] [c000000000123400] demo_find+0x20/0x80 (unreliable)\n"
		     "[c00000000ff0fab0] [c000000000200000] demo_ioctl+0x90/0x200\n"
		     "--- interrupt: c00 at 0x7fff9a1b2c3d\n"
		     "Instruction dump:\n"
		     "---[ end trace 1 ]---\n");
	const FtlOopsReport *r = report(f, 0);
	CU_ASSERT_STRING_EQUAL(
		r->title, "BUG: unable to handle kernel NULL pointer dereference in demo_lookup");
	CU_ASSERT_STRING_EQUAL(r->fault_reg, "NIP");
	CU_ASSERT_STRING_EQUAL(r->fault.func, "demo_lookup");
	CU_ASSERT_STRING_EQUAL(r->fault.address, "c000000000123456");
	CU_ASSERT_STRING_EQUAL(reg(r, "GPR01"), "c00000000ff0fa40");
	CU_ASSERT_STRING_EQUAL(reg(r, "MSR"), "8000000000009033");
	CU_ASSERT_FALSE(trace_frame(r, 0)->reliable);
	CU_ASSERT_TRUE(trace_frame(r, 1)->reliable);
	CU_ASSERT_STRING_EQUAL(trace_frame(r, 1)->address, "c000000000200000");
}

static void test_arch_riscv(void)
{
	g_autoptr(Found) f =
		find("[   70.000000] Unable to handle kernel NULL pointer dereference at virtual "
		     "address "
		     "0000000000000000\n"
		     "[   70.000001] Oops [#1]\n"
		     "[   70.000002] CPU: 0 PID: 60 Comm: sh Not tainted 6.6.0 #1\n"
		     "[   70.000003] Hardware name: riscv-virtio,qemu (DT)\n"
		     "[   70.000004] epc : demo_store+0x1e/0x2a\n"
		     "[   70.000005]  ra : demo_write+0x44/0x80\n"
		     "[   70.000006] epc : ffffffff806a1234 ra : ffffffff806a1300 sp : "
		     "ff20000000a2bd40\n"
		     "[   70.000007]  gp : ffffffff81a0b0c8 tp : ff60000002e8a880 t0 : "
		     "0000000000000000\n"
		     "[   70.000008] status: 0000000200000120 badaddr: 0000000000000000 cause: "
		     "000000000000000f\n"
		     "[   70.000009] [<ffffffff806a1234>] demo_store+0x1e/0x2a\n"
		     "[   70.000010] [<ffffffff806a1300>] demo_write+0x44/0x80\n"
		     "[   70.000011] ---[ end trace 0000000000000000 ]---\n");
	const FtlOopsReport *r = report(f, 0);
	CU_ASSERT_STRING_EQUAL(
		r->title, "BUG: unable to handle kernel NULL pointer dereference in demo_store");
	CU_ASSERT_STRING_EQUAL(r->fault_reg, "epc");
	CU_ASSERT_STRING_EQUAL(r->fault.func, "demo_store");
	CU_ASSERT_EQUAL(r->fault.offset, 0x1e);
	CU_ASSERT_STRING_EQUAL(reg(r, "ra"), "demo_write+0x44/0x80");
	CU_ASSERT_STRING_EQUAL(reg(r, "badaddr"), "0000000000000000");
	/* riscv prints its trace without a "Call Trace:" line */
	CU_ASSERT_STRING_EQUAL(trace_frame(r, 0)->address, "ffffffff806a1234");
}

static void test_interleaved_cpus(void)
{
	/* two CPUs print at once; caller ids keep their lines apart */
	g_autoptr(Found) f = find(
		"[   10.000000][ T100] ------------[ cut here ]------------\n"
		"[   10.000001][ T100] WARNING: CPU: 0 PID: 100 at fs/demo.c:10 demo_a+0x1/0x2\n"
		"[   10.000002][ T200] BUG: scheduling while atomic: b/200/0x00000002\n"
		"[   10.000003][ T100] CPU: 0 PID: 100 Comm: a Not tainted 6.1.0 #1\n"
		"[   10.000004][ T200] CPU: 1 PID: 200 Comm: b Not tainted 6.1.0 #1\n"
		"[   10.000005][ T100] Call Trace:\n"
		"[   10.000006][ T200] Call Trace:\n"
		"[   10.000007][ T100]  caller_a+0x10/0x20\n"
		"[   10.000008][ T200]  schedule+0x10/0x20\n"
		"[   10.000009][ T200]  caller_b+0x10/0x20\n"
		"[   10.000010][ T100] ---[ end trace 1 ]---\n");
	CU_ASSERT_EQUAL_FATAL(ftl_oops_count(f->oops), 2);
	const FtlOopsReport *a = report(f, 0), *b = report(f, 1);
	CU_ASSERT_STRING_EQUAL(a->comm, "a");
	CU_ASSERT_EQUAL(a->cpu, 0);
	CU_ASSERT_EQUAL(ftl_oops_report_trace(a)->frames->len, 1);
	CU_ASSERT_STRING_EQUAL(a->end_marker, "---[ end trace 1 ]---");
	CU_ASSERT_STRING_EQUAL(b->comm, "b");
	CU_ASSERT_EQUAL(b->cpu, 1);
	CU_ASSERT_STRING_EQUAL(b->title, "BUG: scheduling while atomic in caller_b");
	CU_ASSERT_EQUAL(ftl_oops_report_trace(b)->frames->len, 2);
}

static void test_old_x86_layout(void)
{
	/* 2.6-era: "Pid:" line, "[<addr>]" frames, "<IRQ>" on the frame's line */
	g_autoptr(Found) f =
		find("[  500.000000] BUG: unable to handle kernel NULL pointer dereference at "
		     "0000000000000000\n"
		     "[  500.000001] IP: [<ffffffffa0000006>] open+0x6/0x14 [oops]\n"
		     "[  500.000002] Oops: 0002 [#1] SMP\n"
		     "[  500.000003] CPU 0 \n"
		     "[  500.000004] Modules linked in: oops\n"
		     "[  500.000005] Pid: 5542, comm: cat Tainted: G        W  2.6.28 #23\n"
		     "[  500.000006] Call Trace:\n"
		     "[  500.000007]  <IRQ>  [<ffffffff8103c4c4>] ? demo_softirq+0x10/0x20\n"
		     "[  500.000008]  <EOI>  [<ffffffff81234567>] chrdev_open+0x144/0x165\n"
		     "[  500.000009]  [<ffffffff81234600>] __dentry_open+0x10/0x20\n"
		     "[  500.000010] ---[ end trace 4eaa2a86a8e2da22 ]---\n");
	const FtlOopsReport *r = report(f, 0);
	CU_ASSERT_STRING_EQUAL(r->title,
			       "BUG: unable to handle kernel NULL pointer dereference in open");
	CU_ASSERT_EQUAL(r->cpu, 0);
	CU_ASSERT_EQUAL(r->pid, 5542);
	CU_ASSERT_STRING_EQUAL(r->comm, "cat");
	CU_ASSERT_STRING_EQUAL(r->release, "2.6.28");
	CU_ASSERT_STRING_EQUAL(r->taint, "G        W");
	CU_ASSERT_STRING_EQUAL(r->fault_reg, "IP");
	CU_ASSERT_STRING_EQUAL(r->fault.module, "oops");
	CU_ASSERT_STRING_EQUAL(trace_frame(r, 0)->section, "IRQ");
	CU_ASSERT_FALSE(trace_frame(r, 0)->reliable);
	CU_ASSERT_STRING_EQUAL(trace_frame(r, 0)->address, "ffffffff8103c4c4");
	CU_ASSERT_PTR_NULL(trace_frame(r, 1)->section);
	CU_ASSERT_STRING_EQUAL(trace_frame(r, 2)->func, "__dentry_open");
}

/* ---- ftrace dumps ------------------------------------------------------------------ */

static const char fgraph_dump[] =
	"[    9.000000] Kernel panic - not syncing: sysrq triggered crash\n"
	"[    9.000001] CPU: 1 PID: 97 Comm: sh Not tainted 6.1.0 #1\n"
	"[    9.000002] Dumping ftrace buffer:\n"
	"[    9.000003] ---------------------------------\n"
	"[    9.000004] CPU:0 [LOST 12 EVENTS]\n"
	"[    9.000005]  0)   1.000 us    |  } /* gone */\n"
	"[    9.000006]  1)               |  /* before crash */\n"
	"[    9.000007]  1)               |  __handle_sysrq() {\n"
	"a line from user space\n"
	"[    9.000008]  0)   2.000 us    |  idle_tick();\n"
	"[    9.000009]  1)               |    sysrq_handle_crash() {\n"
	"[    9.000010]  1)               |      panic() {\n"
	"[    9.000011]  1)   3.000 us    |        _printk();\n"
	"[    9.000012] ---------------------------------\n"
	"[    9.000013] Kernel Offset: disabled\n";

static void test_prefix_capture_clock(void)
{
	g_autoptr(FtlConsole) c = con_parse("[11:23:07] BUG kmalloc-64 (Not tainted): x\n"
					    "[11:23:07.125] [    3.000000] both\n");
	CU_ASSERT_STRING_EQUAL(con_line(c, 0)->text, "BUG kmalloc-64 (Not tainted): x");
	CU_ASSERT_STRING_EQUAL(con_line(c, 1)->text, "both");
	CU_ASSERT_EQUAL(con_line(c, 1)->ts, G_GINT64_CONSTANT(3000000000));
}

/* Kernels before 3.x: "WARNING: at file:line func()"; the frames are all
 * "? " (unreliable): the header's function is blamed. */
static void test_old_warning_layout(void)
{
	g_autoptr(Found) f =
		find("[   80.967002] WARNING: at net/sched/sch_generic.c:255 dev_watchdog+0x1e6/0x1f0()\n"
		     "[   80.967005] Hardware name: Vostro 3350\n"
		     "[   80.967012] Call Trace:\n"
		     "[   80.967020]  [<ffffffff8106b0ff>] ? warn_slowpath_common+0x7f/0xc0\n"
		     "[   80.967030] ---[ end trace 1234abcd5678ef00 ]---\n");
	const FtlOopsReport *r = report(f, 0);
	CU_ASSERT_STRING_EQUAL(r->title, "WARNING in dev_watchdog");
	CU_ASSERT_FALSE(r->corrupted);
	CU_ASSERT_STRING_EQUAL(r->location, "net/sched/sch_generic.c:255");
}

/* SLUB's checks keep the cache's number; syzkaller's rules turn numbers
 * into NUM only where it has a rule. */
static void test_slub_numbers_kept(void)
{
	g_autoptr(Found) f =
		find("[    5.000000] BUG kmalloc-4096 (Tainted: G    B  ): Redzone overwritten\n"
		     "[    5.000001] INFO: Allocated in demo_alloc+0x10/0x20 age=3 cpu=0 pid=7\n"
		     "[    5.000002]  __kmalloc+0x1/0x2\n"
		     "[    5.000003]  demo_alloc+0x10/0x20\n"
		     "[    5.000004] INFO: Freed in demo_free+0x10/0x20 age=1 cpu=0 pid=7\n"
		     "[    5.000005]  kfree+0x1/0x2\n"
		     "[    5.000006]  demo_free+0x10/0x20\n");
	const FtlOopsReport *r = report(f, 0);
	CU_ASSERT_EQUAL(ftl_oops_count(f->oops), 1);
	CU_ASSERT_STRING_EQUAL(r->title, "BUG kmalloc-4096: Redzone overwritten");
	CU_ASSERT_EQUAL(r->stacks->len, 2);
}

/* arm64 marks the frame the exception hit "(P)": the frames above it are
 * the fault's handling, the frame after it the one blamed. */
static void test_arm64_pc_mark(void)
{
	g_autoptr(Found) f = find("[    1.0] BUG: KASAN: invalid-access in __memcpy+0xc/0x30\n"
				  "[    1.1] Write at addr f5ff800083765270 by task t/1\n"
				  "[    1.2] Call trace:\n"
				  "[    1.3]  show_stack+0x24/0x40 (C)\n"
				  "[    1.4]  do_bad_area+0x38/0x110\n"
				  "[    1.5]  el1h_64_sync+0xa4/0xa8\n"
				  "[    1.6]  __memcpy+0xc/0x30 (P)\n"
				  "[    1.7]  demo_fixups+0x4f8/0x1950\n"
				  "[    1.8]  el0t_64_sync+0x1bc/0x1c0\n");
	const FtlOopsReport *r = report(f, 0);
	CU_ASSERT_STRING_EQUAL(r->title, "KASAN: invalid-access Write in demo_fixups");
	CU_ASSERT_STRING_EQUAL(r->arch, "arm64");
}

static void test_arch_s390_mips(void)
{
	g_autoptr(Found) f =
		find("[    0.1] Unable to handle kernel pointer dereference in virtual kernel address space\n"
		     "[    0.2] Oops: 0038 ilc:2 [#1] SMP\n"
		     "[    0.3] Krnl PSW : 0704c00180000000 0000000000811ee4 (demo_merge+0x1c/0x120)\n"
		     "[    0.4] Call Trace:\n"
		     "[    0.5]  [<0000000000811ee4>] demo_merge+0x1c/0x120 \n"
		     "[    0.6] ([<0000000000811ea0>] demo_merge+0x0/0x120)\n"
		     "[    0.7]  [<0000000000d07a5a>] demo_list+0x7a/0xd0\n");
	const FtlOopsReport *r = report(f, 0);
	CU_ASSERT_STRING_EQUAL(r->title, "BUG: unable to handle kernel pointer dereference in demo_merge");
	CU_ASSERT_STRING_EQUAL(r->arch, "s390");
	CU_ASSERT_STRING_EQUAL(r->fault.func, "demo_merge");
	CU_ASSERT_EQUAL(trace_frame(r, 1)->reliable, FALSE);
	CU_ASSERT_STRING_EQUAL(trace_frame(r, 2)->func, "demo_list");
	g_autoptr(Found) g =
		find("[  103.4] CPU 3 Unable to handle kernel paging request at virtual address 00000003, "
		     "epc == 8576591c, ra == 857659f0\n"
		     "[  103.5] Oops[#1]:\n"
		     "[  103.6] $ 0   : 00000000 00000001 83be3854 00000000\n"
		     "[  103.7] epc   : 8576591c demo_add_bss+0xd0/0x3c0 [demo]\n"
		     "[  103.8] Call Trace:\n"
		     "[  103.9] [<8576591c>] demo_add_bss+0xd0/0x3c0 [demo]\n");
	r = report(g, 0);
	CU_ASSERT_STRING_EQUAL(r->title, "BUG: unable to handle kernel paging request in demo_add_bss");
	CU_ASSERT_STRING_EQUAL(r->arch, "mips");
	CU_ASSERT_STRING_EQUAL(r->fault.func, "demo_add_bss");
}

static void test_dump_function_graph(void)
{
	g_autoptr(Found) f = find(fgraph_dump);
	CU_ASSERT_EQUAL_FATAL(f->con->dumps->len, 1);
	const FtlConsoleDump *d = g_ptr_array_index(f->con->dumps, 0);
	CU_ASSERT_TRUE(d->closed);
	CU_ASSERT_FALSE(d->empty);
	CU_ASSERT_PTR_NULL(d->instance);
	CU_ASSERT_EQUAL(d->content->len, 8);
	CU_ASSERT_EQUAL(d->skipped, 1);
	CU_ASSERT_EQUAL(ftl_diags_get(f->con->diags, FTL_DIAG_DUMP_INTERLEAVED)->count, 1);
	/* the dump is printed with the report; its lines are not the report's */
	const FtlOopsReport *r = report(f, 0);
	CU_ASSERT_EQUAL_FATAL(r->dumps->len, 1);
	CU_ASSERT_EQUAL(ftl_oops_report_trace(r), NULL);
	gsize len;
	g_autofree char *text = ftl_console_dump_text(f->con, 0, &len);
	CU_ASSERT_TRUE(g_str_has_prefix(text, "# ftrace dump recovered by ftlens from test.log"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\nCPU:0 [LOST 12 EVENTS]\n 0)   1.000 us"));
	CU_ASSERT_EQUAL(ftl_console_dump_input_line(f->con, 0, 2), 5);
	CU_ASSERT_EQUAL(ftl_console_dump_input_line(f->con, 0, 1), 0);

	g_autoptr(GError) error = NULL;
	g_autoptr(FtlTrace) t = ftl_console_dump_open(f->con, 0, FTL_OPEN_NONE, NULL, &error);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	g_autoptr(FtlOopsTrail) trail = ftl_oops_trail_new(3, r->cpu);
	g_autoptr(FtlIter) it = ftl_iter_new(t, NULL);
	const FtlEvent *ev;
	while (ftl_iter_next(it, &ev, &error) == FTL_STATUS_OK)
		ftl_oops_trail_feed(trail, ev);
	CU_ASSERT_PTR_NULL(error);
	ftl_oops_trail_finish(trail);
	CU_ASSERT_EQUAL_FATAL(ftl_oops_trail_n_cpus(trail), 2);
	const FtlOopsCpu *c0 = ftl_oops_trail_cpu(trail, 0), *c1 = ftl_oops_trail_cpu(trail, 1);
	CU_ASSERT_EQUAL(c0->cpu, 0);
	CU_ASSERT_EQUAL(c0->lost, 12);
	CU_ASSERT_EQUAL(c0->event_lines, 2);
	CU_ASSERT_EQUAL(c1->event_lines, 5);
	/* the last three lines of CPU 1, oldest first, once each */
	CU_ASSERT_EQUAL_FATAL(c1->n_last, 3);
	CU_ASSERT_STRING_EQUAL(c1->last[2].text, " 1)   3.000 us    |        _printk();");
	CU_ASSERT_STRING_EQUAL(c1->last[0].text, " 1)               |    sysrq_handle_crash() {");
	guint n;
	gint cpu;
	const FtlOopsOpenCall *path = ftl_oops_trail_open(trail, &n, &cpu);
	CU_ASSERT_EQUAL(cpu, 1);
	CU_ASSERT_EQUAL_FATAL(n, 3);
	CU_ASSERT_STRING_EQUAL(path[0].func, "__handle_sysrq");
	CU_ASSERT_STRING_EQUAL(path[1].func, "sysrq_handle_crash");
	CU_ASSERT_STRING_EQUAL(path[2].func, "panic");
	CU_ASSERT_EQUAL(ftl_console_dump_input_line(f->con, 0, path[2].line), 12);
	const FtlMarkers *m = ftl_oops_trail_markers(trail);
	CU_ASSERT_EQUAL_FATAL(ftl_markers_count(m), 1);
	CU_ASSERT_STRING_EQUAL(ftl_markers_get(m, 0)->text, "before crash");
}

static void test_dump_latency_and_instance(void)
{
	g_autoptr(Found) f = find(
		"[    5.000000] Dumping ftrace buffer:\n"
		"[    5.000001]    (ftrace buffer empty)\n"
		"[    5.000002] Dumping ftrace instance foo buffer:\n"
		"[    5.000003] ---------------------------------\n"
		"[    5.000004]   <idle>-0       0d.h1. 4999990us : hrtimer_interrupt <-tick\n"
		"[    5.000005]     bash-300      1...1. 4999995us : do_sys_open <-do_syscall\n"
		"[    5.000006] ---------------------------------\n");
	CU_ASSERT_EQUAL_FATAL(f->con->dumps->len, 2);
	const FtlConsoleDump *a = g_ptr_array_index(f->con->dumps, 0),
			     *b = g_ptr_array_index(f->con->dumps, 1);
	CU_ASSERT_TRUE(a->empty);
	CU_ASSERT_TRUE(a->closed);
	CU_ASSERT_EQUAL(a->content->len, 0);
	CU_ASSERT_STRING_EQUAL(b->instance, "foo");
	CU_ASSERT_EQUAL(b->content->len, 2);
	g_autoptr(GError) error = NULL;
	g_autoptr(FtlTrace) t = ftl_console_dump_open(f->con, 1, FTL_OPEN_NONE, NULL, &error);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	g_autoptr(FtlIter) it = ftl_iter_new(t, NULL);
	const FtlEvent *ev;
	guint n = 0;
	while (ftl_iter_next(it, &ev, &error) == FTL_STATUS_OK) {
		CU_ASSERT_EQUAL(ev->kind, FTL_EVENT_FUNC);
		n++;
	}
	CU_ASSERT_EQUAL(n, 2);
	CU_ASSERT_STRING_EQUAL(ftl_source_dialect(ftl_trace_source(t, 0)), "latency");
	CU_ASSERT_EQUAL(ftl_trace_stats(t).unparsed_lines, 0);
	/* a dump number that is not there is a clear error */
	g_autoptr(FtlTrace) none = ftl_console_dump_open(f->con, 7, FTL_OPEN_NONE, NULL, &error);
	CU_ASSERT_PTR_NULL(none);
	CU_ASSERT_PTR_NOT_NULL(error);
}

/* ---- bad input ------------------------------------------------------------------------ */

static void test_bad_no_report(void)
{
	g_autoptr(Found) f =
		find("[    0.000000] Linux version 6.1.0 (builder@host)\n"
		     "[    0.100000] Command line: console=ttyS0\n"
		     "[    1.000000] WARNING: /etc/ssh/moduli does not exist, using fixed modulus\n"
		     "[    2.000000] ODEBUG: object is on stack, but not annotated\n");
	CU_ASSERT_EQUAL(ftl_oops_count(f->oops), 0);
	CU_ASSERT_EQUAL(f->con->dumps->len, 0);
	/* a boot log's own "Booting the kernel." is no reboot */
	g_autoptr(Found) g =
		find("Decompressing Linux... Parsing ELF... done.\nBooting the kernel.\n"
		     "[    0.000000] Linux version 6.1.0\n");
	CU_ASSERT_EQUAL(ftl_oops_count(g->oops), 0);
	g_autoptr(Found) h = find("[  500.000000] still running\nBooting the kernel.\n");
	CU_ASSERT_EQUAL_FATAL(ftl_oops_count(h->oops), 1);
	CU_ASSERT_STRING_EQUAL(report(h, 0)->title, "unexpected kernel reboot");
}

static void test_bad_cut_report(void)
{
	g_autoptr(Found) f = find(
		"[    3.000000] BUG: unable to handle page fault for address: ffffffffdeadbeef\n"
		"[    3.000001] Oops: 0000 [#1] SMP\n"
		"[    3.000002] CPU: 0 PID: 1 Comm: init Not tainted 6.1.0 #1\n"
		"[    3.000003] RIP: 0010:demo_deref+0x4/0x10\n"
		"[    3.000004] Call Trace:\n"
		"[    3.000005]  demo_caller+0x10/0x2");
	const FtlOopsReport *r = report(f, 0);
	CU_ASSERT_TRUE(r->cut);
	CU_ASSERT_STRING_EQUAL(r->title,
			       "BUG: unable to handle kernel paging request in demo_deref");
	CU_ASSERT_EQUAL(ftl_diags_get(f->con->diags, FTL_DIAG_REPORT_CUT)->count, 1);
	/* the cut frame is no frame: only whole ones are trusted */
	CU_ASSERT_PTR_NULL(ftl_oops_report_trace(r));
	/* a header and nothing else */
	g_autoptr(Found) g = find("[    1.000000] general protection fault: 0000 [#1] SMP\n");
	CU_ASSERT_TRUE(report(g, 0)->cut);
	CU_ASSERT_STRING_EQUAL(report(g, 0)->title, "general protection fault in corrupted");
	CU_ASSERT_TRUE(report(g, 0)->corrupted);
}

static void test_bad_dump_unended(void)
{
	g_autoptr(Found) f = find("[    7.000000] Dumping ftrace buffer:\n"
				  "[    7.000001] ---------------------------------\n"
				  "[    7.000002]  0)   1.000 us    |  demo();\n"
				  "[    7.000003]  0)   2.000 us    |  demo();\n");
	const FtlConsoleDump *d = g_ptr_array_index(f->con->dumps, 0);
	CU_ASSERT_FALSE(d->closed);
	CU_ASSERT_EQUAL(d->content->len, 2);
	CU_ASSERT_EQUAL(ftl_diags_get(f->con->diags, FTL_DIAG_DUMP_UNENDED)->count, 1);
	/* a reboot ends it too */
	g_autoptr(Found) g = find("[  900.000000] Dumping ftrace buffer:\n"
				  "[  900.000001] ---------------------------------\n"
				  "[  900.000002]  0)   1.000 us    |  demo();\n"
				  "[    0.000000] Linux version 6.1.0\n");
	d = g_ptr_array_index(g->con->dumps, 0);
	CU_ASSERT_FALSE(d->closed);
	CU_ASSERT_EQUAL(d->content->len, 1);
	/* "Dumping" and then nothing: no content, no crash */
	g_autoptr(Found) h = find("[    1.000000] Dumping ftrace buffer:\n");
	d = g_ptr_array_index(h->con->dumps, 0);
	CU_ASSERT_EQUAL(d->content->len, 0);
	CU_ASSERT_FALSE(d->closed);
}

static void test_bad_binary_in_report(void)
{
	static const char text[] = "[    4.000000] WARNING: CPU: 0 PID: 1 at a.c:1 demo+0x1/0x2\n"
				   "[    4.000001] \x00\x01\x02\x03\xff\xfe garbage\n"
				   "[    4.000002] RIP: 0010:demo+0x1/0x2\n"
				   "[    4.000003] ---[ end trace 1 ]---\n";
	g_autoptr(FtlConsole) c = ftl_console_parse("bin.log", text, sizeof text - 1);
	g_autoptr(FtlOops) o = ftl_oops_find(c);
	CU_ASSERT_EQUAL_FATAL(ftl_oops_count(o), 1);
	CU_ASSERT_STRING_EQUAL(ftl_oops_get(o, 0)->title, "WARNING in demo");
	CU_ASSERT_EQUAL(ftl_diags_get(c->diags, FTL_DIAG_BINARY_BYTES)->count, 1);
}

static char *write_tmp(const void *data, gsize len)
{
	char *path = NULL;
	int fd = g_file_open_tmp("ftl-console-XXXXXX", &path, NULL);
	g_assert(fd >= 0);
	g_assert(write(fd, data, len) == (gssize)len);
	close(fd);
	return path;
}

static void test_bad_files(void)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *empty = write_tmp("", 0);
	g_autoptr(FtlConsole) a = ftl_console_read(empty, NULL, &error);
	CU_ASSERT_PTR_NULL(a);
	CU_ASSERT_TRUE(g_error_matches(error, FTL_ERROR, FTL_ERROR_EMPTY));
	g_clear_error(&error);
	guchar bin[4096];
	for (guint i = 0; i < sizeof bin; i++)
		bin[i] = (guchar)(i * 7);
	g_autofree char *binary = write_tmp(bin, sizeof bin);
	g_autoptr(FtlConsole) b = ftl_console_read(binary, NULL, &error);
	CU_ASSERT_PTR_NULL(b);
	CU_ASSERT_TRUE(g_error_matches(error, FTL_ERROR, FTL_ERROR_FORMAT));
	CU_ASSERT_PTR_NOT_NULL(strstr(error->message, "not a console log"));
	g_clear_error(&error);
	g_autoptr(FtlConsole) c = ftl_console_read("/nonexistent/console.log", NULL, &error);
	CU_ASSERT_PTR_NULL(c);
	CU_ASSERT_TRUE(g_error_matches(error, FTL_ERROR, FTL_ERROR_IO));
	g_unlink(empty);
	g_unlink(binary);
}

static const UnitTest tests[] = {
	{ "prefix: printk time", test_prefix_timestamp },
	{ "prefix: [T123]/[C1] caller ids", test_prefix_caller },
	{ "prefix: <N> level", test_prefix_level },
	{ "prefix: syslog kernel:", test_prefix_syslog },
	{ "prefix: dmesg -x and dmesg -T", test_prefix_dmesg_x_and_human_time },
	{ "prefix: /dev/kmsg records", test_prefix_kmsg },
	{ "prefix: /dev/kmsg record past nanoseconds", test_prefix_kmsg_huge_time },
	{ "prefix: CR, CRLF and terminal escapes", test_prefix_crlf_noise },
	{ "prefix: printk messages dropped", test_prefix_dropped },
	{ "cut: a message inside a line", test_cut_line },
	{ "cut: no final newline", test_missing_final_newline },
	{ "binary bytes on a line", test_binary_noise },
	{ "kind: oops (x86 NULL pointer)", test_kind_oops_x86 },
	{ "kind: WARNING", test_kind_warning },
	{ "kind: kernel BUG at, with its panic", test_kind_kernel_bug_and_panic },
	{ "kind: Kernel panic alone", test_kind_panic_alone },
	{ "kind: general protection fault", test_kind_gpf },
	{ "kind: KASAN", test_kind_kasan },
	{ "kind: KFENCE, KCSAN, KMSAN, UBSAN", test_kind_kfence_kcsan_kmsan_ubsan },
	{ "kind: soft/hard lockup, RCU stall, hung task", test_kind_lockups_and_stalls },
	{ "kind: lockdep", test_kind_lockdep },
	{ "kind: bad page state", test_kind_bad_page },
	{ "lines: a panic joins the report it came from", test_lines_panic_reopens_report },
	{ "lines: other CPUs' NMI backtraces join", test_lines_nmi_backtraces_join },
	{ "lines: a silence ends a report", test_lines_silence_ends_report },
	{ "arch: arm64", test_arch_arm64 },
	{ "arch: arm32", test_arch_arm32 },
	{ "arch: ppc64", test_arch_ppc64 },
	{ "arch: riscv", test_arch_riscv },
	{ "interleaved CPUs", test_interleaved_cpus },
	{ "2.6-era x86 layout", test_old_x86_layout },
	{ "prefix: a capture tool's wall clock", test_prefix_capture_clock },
	{ "pre-3.x WARNING: at file:line func()", test_old_warning_layout },
	{ "SLUB checks keep the cache's number", test_slub_numbers_kept },
	{ "arm64 (P) frame mark", test_arm64_pc_mark },
	{ "arch: s390 and mips", test_arch_s390_mips },
	{ "dump: function_graph, LOST, trail", test_dump_function_graph },
	{ "dump: latency, empty, instance", test_dump_latency_and_instance },
	{ "bad: no report", test_bad_no_report },
	{ "bad: report cut in the middle", test_bad_cut_report },
	{ "bad: dump without its end", test_bad_dump_unended },
	{ "bad: binary noise in a report", test_bad_binary_in_report },
	{ "bad: empty, binary, missing files", test_bad_files },
	{ NULL, NULL },
};

int main(void)
{
	return unit_run("console", tests);
}
