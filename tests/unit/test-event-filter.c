/* SPDX-License-Identifier: GPL-2.0-or-later */
/* FtlEventFilter: event lists, every -F operator, precedence, -v, and errors that point at their column. */
#include "config.h"

#include <string.h>

#include "evbuild.h"
#include "model/event-filter.h"
#include "unit.h"
#include "util/error.h"

/* Adds text to f: an --filter, or an -e list when it starts with "-e ". */
static gboolean add(FtlEventFilter *f, const char *text, GError **error)
{
	if (g_str_has_prefix(text, "-e "))
		return ftl_event_filter_add_events(f, text + 3, FALSE, error);
	return ftl_event_filter_add_expr(f, text, FALSE, error);
}

/* Does the one filter text keep ev? */
static gboolean keeps(const char *text, const FtlEvent *ev)
{
	g_autoptr(FtlEventFilter) f = ftl_event_filter_new();
	g_autoptr(GError) error = NULL;
	gboolean ok = add(f, text, &error);
	if (!ok)
		fprintf(stderr, "\n  '%s': %s\n", text, error->message);
	CU_ASSERT_TRUE_FATAL(ok);
	return ftl_event_filter_match(f, ev);
}

#define KEEP(text, ev) CU_ASSERT_TRUE(keeps(text, ev))
#define DROP(text, ev) CU_ASSERT_FALSE(keeps(text, ev))

static FtlEvent sw(void)
{
	/* kworker/1:2 (pid 7) switches to bash (pid 1) on CPU 1 */
	FtlEvent ev = evb_switch(1000, 1, "kworker/1:2", 7, "bash", 1);
	return ev;
}

static void test_event_lists(void)
{
	FtlEvent ev = sw();
	KEEP("-e sched_switch", &ev);
	KEEP("-e sched", &ev); /* a system: text inputs get it from the known names */
	KEEP("-e sched:sched_sw*", &ev);
	KEEP("-e sched/sched_switch", &ev);
	KEEP("-e irq,sched_*", &ev);
	DROP("-e sched_wakeup", &ev);
	DROP("-e irq:sched_switch", &ev);
	DROP("-e sched_sw", &ev); /* a glob matches the whole name */
	ev.system = "mysys";	  /* binary inputs say their system */
	KEEP("-e mysys", &ev);
	DROP("-e sched", &ev);
	/* --filter's names are trace-cmd's anchored regular expressions */
	ev.system = NULL;
	KEEP("sched_switch", &ev);
	KEEP("sched_.*", &ev);
	KEEP("sched", &ev);
	KEEP("sched/sched_switch", &ev);
	KEEP("irq,sched_switch", &ev);
	KEEP(".*: COMM == \"kworker/1:2\"", &ev);
	DROP("sched_sw", &ev);
	DROP("irq/sched_switch", &ev);
}

static void test_operators(void)
{
	FtlEvent ev = sw();
	KEEP("sched_switch: next_pid == 1", &ev);
	DROP("sched_switch: next_pid != 1", &ev);
	KEEP("sched_switch: prev_pid > 6", &ev);
	DROP("sched_switch: prev_pid > 7", &ev);
	KEEP("sched_switch: prev_pid >= 7", &ev);
	KEEP("sched_switch: prev_pid < 8", &ev);
	DROP("sched_switch: prev_pid < 7", &ev);
	KEEP("sched_switch: prev_pid <= 7", &ev);
	KEEP("sched_switch: prev_pid & 4", &ev);
	DROP("sched_switch: prev_pid & 8", &ev);
	KEEP("sched_switch: prev_pid == 0x7", &ev);
	KEEP("sched_switch: prev_comm ~ \"kworker*\"", &ev);
	KEEP("sched_switch: prev_comm ~ \"kworker/?:[0-9]\"", &ev);
	DROP("sched_switch: next_comm ~ \"kworker*\"", &ev);
	KEEP("sched_switch: prev_comm =~ \"^kw\"", &ev);
	DROP("sched_switch: prev_comm !~ \"^kw\"", &ev);
	KEEP("sched_switch: next_comm == 'bash'", &ev);
	KEEP("sched_switch: next_comm != \"zsh\"", &ev);
	KEEP("sched_switch: prev_prio == next_prio", &ev); /* field against field */
	DROP("sched_switch: prev_pid == next_pid", &ev);
	/* prev_state letters as numbers where every kernel agrees */
	KEEP("sched_switch: prev_state == 1", &ev);
	KEEP("sched_switch: prev_state & 1", &ev);
	KEEP("sched_switch: prev_state == \"S\"", &ev);
	ev.u.sw.prev_state = (FtlSlice){ "R", 1 };
	KEEP("sched_switch: prev_state == 0", &ev);
	ev.u.sw.prev_state = (FtlSlice){ "R+", 2 };
	DROP("sched_switch: prev_state == 0", &ev);
	DROP("sched_switch: prev_state != 0", &ev); /* no number: false, as a missing field */
}

static void test_common_fields(void)
{
	FtlEvent ev = sw();
	KEEP("sched_switch: COMM == \"kworker/1:2\"", &ev);
	KEEP("sched_switch: CPU == 1", &ev);
	KEEP("sched_switch: common_pid == 7", &ev);
	KEEP("sched_switch: pid == 7", &ev); /* no pid field: the task's */
	KEEP("sched_switch: cpu == 1 && ts == 1000", &ev);
	FtlEvent wake = evb_wakeup(5, 0, 3, "sshd", 42, 0);
	KEEP("sched_wakeup: pid == 42 && common_pid == 3", &wake); /* the event's own pid */
	KEEP("sched_wakeup: comm == \"sshd\"", &wake);
	FtlEvent gen = evb_generic(5, 2, 9, "cat", "sys_enter_openat",
				   "dfd=0xffffff9c filename=\"/etc/passwd\" flags=0x0");
	KEEP("sys_enter_openat: filename == \"/etc/passwd\" && dfd == 0xffffff9c", &gen);
	KEEP("syscalls: flags == 0", &gen);
	DROP("sys_enter_openat: bogus == 1", &gen); /* a missing field is false... */
	KEEP("sys_enter_openat: bogus == 1 || common_pid == 9", &gen); /* ...in its place */
	KEEP("sys_enter_openat: !(bogus == 1)", &gen);
	FtlEvent mark = evb_marker(5, 0, 9, "frame start cpu=3");
	KEEP("tracing_mark_write: buf ~ \"frame*\"", &mark);
	DROP("ftrace: cpu == 3", &mark); /* a marker's text holds no fields */
	KEEP("ftrace: cpu == 0", &mark);
}

static void test_precedence(void)
{
	FtlEvent ev = sw();
	/* && binds tighter than ||: true || (false && false) */
	KEEP("sched_switch: next_pid == 1 || prev_pid == 0 && cpu == 5", &ev);
	/* (true || false) && false */
	DROP("sched_switch: (next_pid == 1 || prev_pid == 0) && cpu == 5", &ev);
	/* ! binds to the comparison: (!false) && true */
	KEEP("sched_switch: !next_pid == 2 && cpu == 1", &ev);
	DROP("sched_switch: !(next_pid == 1 && cpu == 1)", &ev);
	KEEP("sched_switch: !!(next_pid == 1)", &ev);
	KEEP("  sched_switch :next_pid==1&&cpu==1  ", &ev); /* whitespace is ignored */
}

static void test_several_and_invert(void)
{
	FtlEvent a = sw();
	FtlEvent b = evb_wakeup(5, 0, 3, "sshd", 42, 0);
	FtlEvent c = evb_generic(5, 2, 9, "cat", "sys_enter_openat", "dfd=3");
	g_autoptr(FtlEventFilter) f = ftl_event_filter_new();
	CU_ASSERT_TRUE(ftl_event_filter_match(f, &a)); /* nothing added: everything */
	/* two plain specs: either may keep an event */
	CU_ASSERT_TRUE(ftl_event_filter_add_expr(f, "sched_switch: next_pid == 2", FALSE, NULL));
	CU_ASSERT_TRUE(ftl_event_filter_add_events(f, "sched_wakeup,sys_enter_*", FALSE, NULL));
	CU_ASSERT_FALSE(ftl_event_filter_match(f, &a));
	CU_ASSERT_TRUE(ftl_event_filter_add_expr(f, "sched_switch: next_pid == 1", FALSE, NULL));
	CU_ASSERT_TRUE(ftl_event_filter_match(f, &a));
	CU_ASSERT_TRUE(ftl_event_filter_match(f, &b));
	CU_ASSERT_TRUE(ftl_event_filter_match(f, &c));
	/* -v: what an inverted spec matches goes, whatever kept it */
	CU_ASSERT_TRUE(ftl_event_filter_add_expr(f, "sys_enter_openat: dfd == 3", TRUE, NULL));
	CU_ASSERT_FALSE(ftl_event_filter_match(f, &c));
	CU_ASSERT_TRUE(ftl_event_filter_match(f, &b));
	g_autofree char *said = ftl_event_filter_describe(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(said, "-v --filter 'sys_enter_openat: dfd == 3'"));
	/* only inverted specs: everything else passes */
	g_autoptr(FtlEventFilter) g = ftl_event_filter_new();
	CU_ASSERT_TRUE(ftl_event_filter_add_events(g, "sched_switch", TRUE, NULL));
	CU_ASSERT_FALSE(ftl_event_filter_match(g, &a));
	CU_ASSERT_TRUE(ftl_event_filter_match(g, &b));
}

/* The error names the column and draws a caret under it. */
static void expect_error(const char *text, guint col, const char *what)
{
	g_autoptr(FtlEventFilter) f = ftl_event_filter_new();
	g_autoptr(GError) error = NULL;
	CU_ASSERT_FALSE(add(f, text, &error));
	CU_ASSERT_TRUE_FATAL(error != NULL);
	CU_ASSERT_TRUE(g_error_matches(error, FTL_ERROR, FTL_ERROR_USAGE));
	g_autofree char *want = g_strdup_printf("at column %u\n", col);
	gboolean good = strstr(error->message, want) && strstr(error->message, what);
	/* the caret line: two spaces, col - 1 more, then ^ */
	const char *caret = strrchr(error->message, '\n');
	good = good && caret && strlen(caret + 1) == col + 2 && caret[col + 2] == '^';
	if (!good)
		fprintf(stderr, "\n  '%s' (want column %u, '%s'):\n%s\n", text, col, what,
			error->message);
	CU_ASSERT_TRUE(good);
}

static void test_errors(void)
{
	expect_error("sched_switch: prev_pid == 1 &&& x", 31, "expected a field name");
	expect_error("sched_switch: prev_pid = 1", 24, "unexpected character");
	expect_error("sched_switch: prev_pid ==", 26, "found the end");
	expect_error("sched_switch: (prev_pid == 1", 29, "expected ')'");
	expect_error("sched_switch: prev_pid == 1)", 28, "expected '&&', '||' or the end");
	expect_error("sched_switch: next_comm ~ 3", 27, "quoted pattern");
	expect_error("sched_switch: next_comm < \"a\"", 27, "compare numbers");
	expect_error("sched_switch: next_comm =~ \"(\"", 28, "bad regular expression");
	expect_error("sched_switch: next_comm == \"abc", 28, "unterminated string");
	expect_error("sched_switch: 12 == next_pid", 15, "expected a field name");
	expect_error("sched_switch: next_pid == 12x", 27, "not a number");
	expect_error("sched_switch:", 14, "found the end");
	expect_error("prev_pid == 1", 9, "expected EVENT[,EVENT...][: EXPRESSION]");
	expect_error("sched_switch,: x == 1", 14, "expected an event name");
	expect_error("-e sched_switch,,irq", 14, "expected an event name");
	expect_error("-e sched switch", 6, "expected EVENT, SYSTEM or SYSTEM:EVENT");
	expect_error("-e sched:", 6, "expected SYSTEM:EVENT");
	/* text before the fault shown escaped moves the caret by its width */
	expect_error("sched_switch: next_comm == \"a\\\\b\" &&", 39, "found the end");
}

int main(void)
{
	static const UnitTest tests[] = {
		{ "event lists and trace-cmd event patterns", test_event_lists },
		{ "every operator", test_operators },
		{ "common, own and model fields", test_common_fields },
		{ "precedence: ! over && over ||, parentheses", test_precedence },
		{ "several filters, -v", test_several_and_invert },
		{ "errors point at their column", test_errors },
		{ NULL, NULL },
	};
	return unit_run("event-filter", tests);
}
