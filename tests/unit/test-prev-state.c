/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sched_switch's prev_state decoded from binary records as the event's own
 * print format says, on each layout the kernel has had (2.6 without a
 * preempted mark, TASK_STATE_MAX 512 / 2048 / 4096 with flag tables that
 * stop below it, 4.14+'s TASK_REPORT_MAX expression, 32- and 64-bit longs):
 * equal to libtraceevent's rendering of the whole format for every value,
 * and "R+" for the preempted bit. */
#include "config.h"

#include <string.h>
#include <traceevent/event-parse.h>

#include "parse/tep.h"
#include "unit.h"

/* The state part of sched_switch's print fmt per kernel generation, as the
 * kernel's TP_printk macros expand it. */
static const struct {
	const char *what;
	const char *args; /* the prev_state arguments of the print fmt */
	gboolean plus;	  /* the format has the "+" mark */
	guint64 preempt;  /* its bit */
} layouts[] = {
	{ "2.6.3x: no preempted mark",
	  "REC->prev_state ? __print_flags(REC->prev_state, \"|\", { 1, \"S\"} , { 2, \"D\" }, "
	  "{ 4, \"T\" }, { 8, \"t\" }, { 16, \"Z\" }, { 32, \"X\" }, { 64, \"x\" }, { 128, \"W\" }) : "
	  "\"R\"",
	  FALSE, 0 },
	{ "3.4: TASK_STATE_MAX 512, table up to 128",
	  "REC->prev_state & (512-1) ? __print_flags(REC->prev_state & (512-1), \"|\", { 1, \"S\"} , "
	  "{ 2, \"D\" }, { 4, \"T\" }, { 8, \"t\" }, { 16, \"Z\" }, { 32, \"X\" }, { 64, \"x\" }, "
	  "{ 128, \"W\" }) : \"R\", REC->prev_state & 512 ? \"+\" : \"\"",
	  TRUE, 512 },
	{ "4.4: TASK_STATE_MAX 2048",
	  "REC->prev_state & (2048-1) ? __print_flags(REC->prev_state & (2048-1), \"|\", { 1, \"S\"} , "
	  "{ 2, \"D\" }, { 4, \"T\" }, { 8, \"t\" }, { 16, \"Z\" }, { 32, \"X\" }, { 64, \"x\" }, "
	  "{ 128, \"K\" }, { 256, \"W\" }, { 512, \"P\" }, { 1024, \"N\" }) : \"R\", "
	  "REC->prev_state & 2048 ? \"+\" : \"\"",
	  TRUE, 2048 },
	{ "4.x x86: TASK_STATE_MAX 4096, table up to 1024",
	  "REC->prev_state & (4096-1) ? __print_flags(REC->prev_state & (4096-1), \"|\", { 1, \"S\"} , "
	  "{ 2, \"D\" }, { 4, \"T\" }, { 8, \"t\" }, { 16, \"Z\" }, { 32, \"X\" }, { 64, \"x\" }, "
	  "{ 128, \"K\" }, { 256, \"W\" }, { 512, \"P\" }, { 1024, \"N\" }) : \"R\", "
	  "REC->prev_state & 4096 ? \"+\" : \"\"",
	  TRUE, 4096 },
	{ "4.14+: TASK_REPORT_MAX as an expression",
	  "(REC->prev_state & ((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | "
	  "0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1)) ? __print_flags(REC->prev_state & "
	  "((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | "
	  "0x00000020 | 0x00000040) + 1) << 1) - 1), \"|\", { 0x00000001, \"S\" }, { 0x00000002, \"D\" "
	  "}, { 0x00000004, \"T\" }, { 0x00000008, \"t\" }, { 0x00000010, \"X\" }, { 0x00000020, \"Z\" "
	  "}, { 0x00000040, \"P\" }, { 0x00000080, \"I\" }) : \"R\", REC->prev_state & (((0x00000000 | "
	  "0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) "
	  "+ 1) << 1) ? \"+\" : \"\"",
	  TRUE, 0x100 },
};

static char *format_text(const char *args, gboolean plus, int long_size)
{
	int ns = 32 + long_size;
	return g_strdup_printf(
		"name: sched_switch\nID: 1\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
		"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:1;\n"
		"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
		"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
		"\tfield:long prev_state;\toffset:32;\tsize:%d;\tsigned:1;\n"
		"\tfield:char next_comm[16];\toffset:%d;\tsize:16;\tsigned:1;\n"
		"\tfield:pid_t next_pid;\toffset:%d;\tsize:4;\tsigned:1;\n"
		"\tfield:int next_prio;\toffset:%d;\tsize:4;\tsigned:1;\n\n"
		"print fmt: \"prev_comm=%%s prev_pid=%%d prev_prio=%%d prev_state=%%s%s ==> "
		"next_comm=%%s next_pid=%%d next_prio=%%d\", REC->prev_comm, REC->prev_pid, "
		"REC->prev_prio, %s, REC->next_comm, REC->next_pid, REC->next_prio\n",
		long_size, ns, ns + 16, ns + 20, plus ? "%s" : "", args);
}

/* "prev_state=X " of libtraceevent's rendering */
static char *oracle_state(struct tep_handle *tep, struct tep_record *r)
{
	struct trace_seq s;
	trace_seq_init(&s);
	tep_print_event(tep, &s, r, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&s);
	const char *p = strstr(s.buffer, "prev_state=");
	char *out = NULL;
	if (p) {
		p += strlen("prev_state=");
		out = g_strndup(p, strcspn(p, " "));
	}
	trace_seq_destroy(&s);
	return out;
}

static void check_layout(guint i, int long_size)
{
	struct tep_handle *tep = tep_alloc();
	tep_set_long_size(tep, long_size);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	g_autofree char *fmt = format_text(layouts[i].args, layouts[i].plus, long_size);
	CU_ASSERT_EQUAL_FATAL(tep_parse_event(tep, fmt, strlen(fmt), "sched"), 0);
	g_autoptr(FtlTrace) trace = ftl_trace_new("unit", FTL_OPEN_NONE);
	FtlTepDecoder *d = ftl_tep_decoder_new(tep, trace, "test");
	static const guint64 values[] = { 0,	 1,	2,     3,    64,  128,  256, 257,
					  512, 513, 1024, 2048, 2049, 4096, 4097 };
	for (guint k = 0; k < G_N_ELEMENTS(values); k++) {
		guint8 data[64] = { 0 };
		guint16 type = 1;
		memcpy(data, &type, 2);
		memcpy(data + 8, "prev", 5);
		memcpy(data + 32, &values[k], (gsize)long_size);
		memcpy(data + 32 + long_size, "next", 5);
		struct tep_record r = { 0 };
		r.data = data;
		r.size = 32 + long_size + 24;
		FtlEvent ev;
		gint id;
		CU_ASSERT_TRUE(ftl_tep_decode(d, &r, &ev, &id));
		CU_ASSERT_EQUAL(ev.kind, FTL_EVENT_SCHED_SWITCH);
		g_autofree char *want = oracle_state(tep, &r);
		g_autofree char *got = g_strndup(ev.u.sw.prev_state.p, ev.u.sw.prev_state.len);
		if (g_strcmp0(want, got) != 0)
			fprintf(stderr, "%s, %d-bit, prev_state %" G_GUINT64_FORMAT ": %s, libtraceevent %s\n",
				layouts[i].what, long_size * 8, values[k], got, want);
		CU_ASSERT_STRING_EQUAL(got, want ? want : "?");
		if (layouts[i].preempt && values[k] == layouts[i].preempt)
			CU_ASSERT_STRING_EQUAL(got, "R+");
	}
	ftl_tep_decoder_free(d);
	tep_free(tep);
}

static void test_layouts_64(void)
{
	for (guint i = 0; i < G_N_ELEMENTS(layouts); i++)
		check_layout(i, 8);
}

static void test_layouts_32(void)
{
	for (guint i = 0; i < G_N_ELEMENTS(layouts); i++)
		check_layout(i, 4);
}

int main(void)
{
	static const UnitTest tests[] = {
		{ "prev_state as the print format says, 64-bit", test_layouts_64 },
		{ "prev_state as the print format says, 32-bit", test_layouts_32 },
		{ NULL, NULL },
	};
	return unit_run("prev-state", tests);
}
