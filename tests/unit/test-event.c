/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The event model's helpers: payload fields, integers, kind names, time
 * formatting, the diagnostics table and the task table. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/diag.h"
#include "model/event.h"
#include "model/task.h"
#include "unit.h"
#include "util/escape.h"
#include "util/timefmt.h"
#include "views/dump.h"

static FtlSlice slice(const char *s)
{
	return (FtlSlice){ s, (guint32)strlen(s) };
}

static FtlEvent event_with_payload(const char *payload)
{
	FtlEvent ev;
	memset(&ev, 0, sizeof ev);
	ev.ts = FTL_TS_NONE;
	ev.cpu = ev.pid = ev.tgid = -1;
	ev.payload = slice(payload);
	return ev;
}

/* Field value as a new string, or NULL when the key is absent. */
static char *field(const char *payload, const char *key)
{
	FtlEvent ev = event_with_payload(payload);
	FtlSlice v = { NULL, 0 };
	if (!ftl_event_field(&ev, key, &v))
		return NULL;
	return g_strndup(v.p, v.len);
}

#define ASSERT_FIELD(payload, key, want)                                                           \
	do {                                                                                       \
		g_autofree char *got_ = field((payload), (key));                                   \
		CU_ASSERT_STRING_EQUAL(got_ ? got_ : "(absent)", (want));                          \
		if (g_strcmp0(got_, (want)) != 0)                                                  \
			fprintf(stderr, "\n  %s: got '%s'\n", (key), got_ ? got_ : "(absent)");    \
	} while (0)

#define ASSERT_NO_FIELD(payload, key)                                                              \
	do {                                                                                       \
		g_autofree char *got_ = field((payload), (key));                                   \
		CU_ASSERT_PTR_NULL(got_);                                                          \
	} while (0)

/* All "key=value" pairs as one "key[value]key[value]" string, to compare walks. */
static char *walk(const char *payload)
{
	GString *out = g_string_new(NULL);
	guint32 pos = 0, prev = 0;
	FtlSlice k, v;
	while (ftl_payload_next_field(slice(payload), &pos, &k, &v)) {
		/* The walk must make progress, or a caller loops forever. */
		g_assert(pos > prev || out->len == 0);
		prev = pos;
		g_string_append_printf(out, FTL_SLICE_FMT "[" FTL_SLICE_FMT "]", FTL_SLICE_ARG(k),
				       FTL_SLICE_ARG(v));
	}
	return g_string_free(out, FALSE);
}

static const char sched_switch_payload[] =
	"prev_comm=Web Content prev_pid=12 prev_prio=120 prev_state=S ==> "
	"next_comm=swapper/0 next_pid=0 next_prio=120";

static void test_field_sched_switch(void)
{
	const char *p = sched_switch_payload;
	/* A comm with a space runs on until the next " key=". */
	ASSERT_FIELD(p, "prev_comm", "Web Content");
	ASSERT_FIELD(p, "prev_pid", "12");
	ASSERT_FIELD(p, "prev_prio", "120");
	/* "==>" is not a key, so by the documented rule it stays with the state;
	 * the sched_switch parser takes the first word itself. */
	ASSERT_FIELD(p, "prev_state", "S ==>");
	ASSERT_FIELD(p, "next_comm", "swapper/0");
	ASSERT_FIELD(p, "next_pid", "0");
	/* The last field ends at the end of the payload. */
	ASSERT_FIELD(p, "next_prio", "120");
}

static void test_field_walk_sched_switch(void)
{
	g_autofree char *w = walk(sched_switch_payload);
	CU_ASSERT_STRING_EQUAL(w, "prev_comm[Web Content]prev_pid[12]prev_prio[120]"
				  "prev_state[S ==>]next_comm[swapper/0]next_pid[0]next_prio[120]");
}

static void test_field_quoted(void)
{
	const char *p = "filename=\"/etc/ld.so.cache\" flags=0";
	/* Quotes are part of the value, as printed. */
	ASSERT_FIELD(p, "filename", "\"/etc/ld.so.cache\"");
	ASSERT_FIELD(p, "flags", "0");

	/* A quote inside the value does not end it: only a quote that ends a word. */
	const char *q = "arg1=\"echo \"hello world\"\"";
	ASSERT_FIELD(q, "arg1", "\"echo \"hello world\"\"");
	const char *q2 = "arg1=\"echo \"hello world\"\" arg2=\"x=1 y=2\" n=3";
	ASSERT_FIELD(q2, "arg1", "\"echo \"hello world\"\"");
	/* " y=" inside quotes is not a new field. */
	ASSERT_FIELD(q2, "arg2", "\"x=1 y=2\"");
	ASSERT_NO_FIELD(q2, "y");
	ASSERT_FIELD(q2, "n", "3");
	/* An unterminated quote runs to the end. */
	ASSERT_FIELD("s=\"abc def", "s", "\"abc def");
}

static void test_field_key_characters(void)
{
	const char *p = "common_type=3 args[0]=0x10 sk.addr=0xffff8881 _priv=1 x2=ok";
	ASSERT_FIELD(p, "common_type", "3");
	ASSERT_FIELD(p, "args[0]", "0x10");
	ASSERT_FIELD(p, "sk.addr", "0xffff8881");
	ASSERT_FIELD(p, "_priv", "1");
	ASSERT_FIELD(p, "x2", "ok");
	/* A word that starts with a digit is not a key, so it stays in the value. */
	ASSERT_FIELD("comm=foo 123=bar pid=4", "comm", "foo 123=bar");
	ASSERT_NO_FIELD("comm=foo 123=bar pid=4", "123");
	/* Nor is a word with a character keys never have. */
	ASSERT_FIELD("msg=a b-c=d e=1", "msg", "a b-c=d");
}

static void test_field_missing_and_edges(void)
{
	const char *p = sched_switch_payload;
	/* Only whole keys match, not prefixes, suffixes or words inside values. */
	ASSERT_NO_FIELD(p, "prev");
	ASSERT_NO_FIELD(p, "pid");
	ASSERT_NO_FIELD(p, "prev_pid ");
	ASSERT_NO_FIELD(p, "Content");
	ASSERT_NO_FIELD(p, "comm");
	ASSERT_NO_FIELD("", "a");
	ASSERT_NO_FIELD("no fields here", "no");
	ASSERT_NO_FIELD("=1 =2", "");
	/* Words before the first key are skipped. */
	ASSERT_FIELD("name: foo=1", "foo", "1");
	/* Empty values, and trailing blanks that are not part of the value. */
	ASSERT_FIELD("a= b=1", "a", "");
	ASSERT_FIELD("a= b=1", "b", "1");
	ASSERT_FIELD("a=1   ", "a", "1");
	ASSERT_FIELD("x=a==b y=2", "x", "a==b");
	/* The first of two equal keys wins. */
	ASSERT_FIELD("k=1 k=2", "k", "1");
	/* Field access must not read past the slice: the bytes after it look like a field. */
	const char *buf = "pid=12 comm=sh";
	FtlEvent ev = event_with_payload(buf);
	ev.payload.len = 6; /* "pid=12" */
	FtlSlice v;
	CU_ASSERT_FALSE(ftl_event_field(&ev, "comm", &v));
	CU_ASSERT_TRUE_FATAL(ftl_event_field(&ev, "pid", &v));
	CU_ASSERT_TRUE(ftl_slice_eq(v, "12"));
}

static gboolean to_i64(const char *s, gint64 *out)
{
	return ftl_slice_to_i64(slice(s), out);
}

static void test_slice_to_i64(void)
{
	gint64 v = 0;
	CU_ASSERT_TRUE(to_i64("120", &v) && v == 120);
	CU_ASSERT_TRUE(to_i64("0", &v) && v == 0);
	CU_ASSERT_TRUE(to_i64("-5", &v) && v == -5);
	CU_ASSERT_TRUE(to_i64("007", &v) && v == 7);
	CU_ASSERT_TRUE(to_i64("0x1f", &v) && v == 31);
	CU_ASSERT_TRUE(to_i64("0XFF", &v) && v == 255);
	CU_ASSERT_TRUE(to_i64("0xdeadBEEF", &v) && v == 0xdeadbeefLL);
	CU_ASSERT_TRUE(to_i64("-0x10", &v) && v == -16);
	CU_ASSERT_TRUE(to_i64("9223372036854775807", &v) && v == G_MAXINT64);
	CU_ASSERT_TRUE(to_i64("-9223372036854775808", &v) && v == G_MININT64);
	/* Only the slice counts: "123" out of "123abc". */
	FtlSlice s = { "123abc", 3 };
	CU_ASSERT_TRUE(ftl_slice_to_i64(s, &v) && v == 123);

	/* Garbage is refused and leaves *out alone. */
	const char *bad[] = { "",   "-",   "abc", "12a", "1 ",	" 1",	"+5",
			      "0x", "0xg", "-0x", "1.5", "--1", "0x1g", NULL };
	for (guint i = 0; bad[i]; i++) {
		v = 4242;
		gboolean ok = to_i64(bad[i], &v);
		CU_ASSERT_FALSE(ok);
		CU_ASSERT_EQUAL(v, 4242);
		if (ok)
			fprintf(stderr, "\n  accepted garbage '%s' as %" G_GINT64_FORMAT "\n",
				bad[i], v);
	}
}

static void test_slice_to_i64_overflow(void)
{
	/* A number that does not fit must be refused, not wrapped: 2^64 would
	 * otherwise read as 0 and 2^63 as G_MININT64. */
	const char *big[] = { "9223372036854775808", "18446744073709551616", "99999999999999999999",
			      "0x10000000000000000", NULL };
	for (guint i = 0; big[i]; i++) {
		gint64 v = 4242;
		gboolean ok = to_i64(big[i], &v);
		CU_ASSERT_FALSE(ok);
		if (ok)
			fprintf(stderr, "\n  '%s' read as %" G_GINT64_FORMAT "\n", big[i], v);
	}
}

static void test_kind_names(void)
{
	static const char *const want[FTL_EVENT_N_KINDS] = {
		[FTL_EVENT_GENERIC] = "event",
		[FTL_EVENT_FUNC_ENTRY] = "entry",
		[FTL_EVENT_FUNC_EXIT] = "exit",
		[FTL_EVENT_FUNC] = "func",
		[FTL_EVENT_MARKER] = "marker",
		[FTL_EVENT_SCHED_SWITCH] = "switch",
		[FTL_EVENT_SCHED_WAKEUP] = "wakeup",
		[FTL_EVENT_IRQ_ENTRY] = "irq-entry",
		[FTL_EVENT_IRQ_EXIT] = "irq-exit",
		[FTL_EVENT_LOST] = "lost",
		[FTL_EVENT_STACK] = "stack",
		[FTL_EVENT_TASK_SWITCH] = "task-switch",
		[FTL_EVENT_BUFFER_START] = "buffer-start",
	};
	/* These names are the dump format and JSON keys: a change breaks scripts. */
	for (int k = 0; k < FTL_EVENT_N_KINDS; k++) {
		const char *got = ftl_event_kind_name(k);
		CU_ASSERT_PTR_NOT_NULL_FATAL(got);
		CU_ASSERT_PTR_NOT_NULL_FATAL(want[k]);
		CU_ASSERT_STRING_EQUAL(got, want[k]);
	}
	CU_ASSERT_STRING_EQUAL(ftl_event_kind_name(FTL_EVENT_N_KINDS), "?");
	CU_ASSERT_STRING_EQUAL(ftl_event_kind_name((FtlEventKind)-1), "?");
}

static void test_slice_eq(void)
{
	CU_ASSERT_TRUE(ftl_slice_eq(slice("abc"), "abc"));
	CU_ASSERT_FALSE(ftl_slice_eq(slice("abc"), "ab"));
	CU_ASSERT_FALSE(ftl_slice_eq(slice("ab"), "abc"));
	CU_ASSERT_TRUE(ftl_slice_eq((FtlSlice){ "abc", 0 }, ""));
}

#define ASSERT_FMT(fn, ns, want)                                                                   \
	do {                                                                                       \
		char buf_[64];                                                                     \
		CU_ASSERT_PTR_EQUAL(fn((ns), buf_, sizeof buf_), buf_);                            \
		CU_ASSERT_STRING_EQUAL(buf_, (want));                                              \
		if (strcmp(buf_, (want)) != 0)                                                     \
			fprintf(stderr, "\n  got '%s', want '%s'\n", buf_, (want));                \
	} while (0)

static void test_time_format(void)
{
	/* Microseconds are rounded half up, as the kernel's ns2usecs() and
	 * libtraceevent (trace-cmd report) print them. */
	ASSERT_FMT(ftl_time_format_us, 0, "0.000000");
	ASSERT_FMT(ftl_time_format_us, 1234567891, "1.234568");
	ASSERT_FMT(ftl_time_format_us, 1234567499, "1.234567");
	ASSERT_FMT(ftl_time_format_us, 1234567500, "1.234568");
	ASSERT_FMT(ftl_time_format_us, 499, "0.000000");
	ASSERT_FMT(ftl_time_format_us, 999, "0.000001");
	ASSERT_FMT(ftl_time_format_us, 1000, "0.000001");
	/* the carry reaches the seconds */
	ASSERT_FMT(ftl_time_format_us, 1999999500, "2.000000");
	ASSERT_FMT(ftl_time_format_us, 86400000001000LL, "86400.000001");
	ASSERT_FMT(ftl_time_format_us, FTL_TS_NONE, "-");
	ASSERT_FMT(ftl_time_format_us, -1500000, "-0.001500");
	ASSERT_FMT(ftl_time_format_us, -1500500, "-0.001501");
	ASSERT_FMT(ftl_time_format_us, -2000000000, "-2.000000");
	/* a magnitude that rounds to zero has no sign */
	ASSERT_FMT(ftl_time_format_us, -400, "0.000000");
	ASSERT_FMT(ftl_time_format_us, G_MAXINT64, "9223372036.854776");
	ASSERT_FMT(ftl_time_format_us, G_MININT64 + 1, "-9223372036.854776");

	ASSERT_FMT(ftl_time_format_ns, 0, "0.000000000");
	ASSERT_FMT(ftl_time_format_ns, 5, "0.000000005");
	ASSERT_FMT(ftl_time_format_ns, 1234567891, "1.234567891");
	ASSERT_FMT(ftl_time_format_ns, 86400123456789LL, "86400.123456789");
	ASSERT_FMT(ftl_time_format_ns, FTL_TS_NONE, "-");
	ASSERT_FMT(ftl_time_format_ns, -1, "-0.000000001");
	ASSERT_FMT(ftl_time_format_ns, -1500000000, "-1.500000000");
	ASSERT_FMT(ftl_time_format_ns, G_MAXINT64, "9223372036.854775807");
	/* The most negative time that is not FTL_TS_NONE. */
	ASSERT_FMT(ftl_time_format_ns, G_MININT64 + 1, "-9223372036.854775807");

	/* A short buffer gets a NUL-terminated prefix, never an overrun. */
	char small[6];
	memset(small, 'X', sizeof small);
	ftl_time_format_ns(1234567891, small, 5);
	CU_ASSERT_STRING_EQUAL(small, "1.23");
	CU_ASSERT_EQUAL(small[5], 'X');
	ftl_time_format_us(FTL_TS_NONE, small, 1);
	CU_ASSERT_STRING_EQUAL(small, "");
}

/* Every number formatter against printf over values of every magnitude,
 * edges of each power of ten included. */
static void test_format_against_printf(void)
{
	GRand *rand = g_rand_new_with_seed(32);
	guint bad = 0;
	for (guint i = 0; i < 200000; i++) {
		/* a random magnitude: 1 to 63 bits, sometimes a power of ten +-1 */
		guint64 m = (guint64)g_rand_int(rand) << 32 | g_rand_int(rand);
		m >>= g_rand_int_range(rand, 1, 64);
		if (i % 7 == 0) {
			guint64 p = 1;
			for (gint k = g_rand_int_range(rand, 0, 19); k > 0; k--)
				p *= 10;
			m = p + (guint64)g_rand_int_range(rand, -1, 2);
		}
		gint64 v = i % 2 ? -(gint64)m : (gint64)m;
		if (v == FTL_TS_NONE)
			continue;
		char got[64], want[64];
		ftl_int_format(v, got, sizeof got);
		g_snprintf(want, sizeof want, "%" G_GINT64_FORMAT, v);
		bad += strcmp(got, want) != 0;
		ftl_time_format_ns(v, got, sizeof got);
		guint64 a = v < 0 ? -(guint64)v : (guint64)v;
		g_snprintf(want, sizeof want, "%s%" G_GUINT64_FORMAT ".%09" G_GUINT64_FORMAT,
			   v < 0 ? "-" : "", a / 1000000000u, a % 1000000000u);
		bad += strcmp(got, want) != 0;
		ftl_time_format_us(v, got, sizeof got);
		guint64 us = a / 1000u + (a % 1000u >= 500u);
		g_snprintf(want, sizeof want, "%s%" G_GUINT64_FORMAT ".%06" G_GUINT64_FORMAT,
			   v < 0 && us ? "-" : "", us / 1000000u, us % 1000000u);
		bad += strcmp(got, want) != 0;
		if (bad == 1)
			fprintf(stderr, "\n  %" G_GINT64_FORMAT ": got '%s', want '%s'\n", v, got,
				want);
	}
	CU_ASSERT_EQUAL(bad, 0);
	g_rand_free(rand);
}

static void test_duration_format(void)
{
	ASSERT_FMT(ftl_duration_format, 0, "0 ns");
	ASSERT_FMT(ftl_duration_format, 812, "812 ns");
	ASSERT_FMT(ftl_duration_format, 999, "999 ns");
	ASSERT_FMT(ftl_duration_format, 1000, "1.000 us");
	ASSERT_FMT(ftl_duration_format, 12345, "12.345 us");
	ASSERT_FMT(ftl_duration_format, 999999, "999.999 us");
	ASSERT_FMT(ftl_duration_format, 1000000, "1.000 ms");
	ASSERT_FMT(ftl_duration_format, 3200000, "3.200 ms");
	ASSERT_FMT(ftl_duration_format, 1000000000, "1.000 s");
	ASSERT_FMT(ftl_duration_format, 1500000000, "1.500 s");
	ASSERT_FMT(ftl_duration_format, 3600000000000LL, "3600.000 s");
	ASSERT_FMT(ftl_duration_format, -812, "-812 ns");
	ASSERT_FMT(ftl_duration_format, -12345, "-12.345 us");
	ASSERT_FMT(ftl_duration_format, -3200000, "-3.200 ms");
	ASSERT_FMT(ftl_duration_format, -1500000000, "-1.500 s");
	ASSERT_FMT(ftl_duration_format, FTL_TS_NONE, "-");
}

static void test_duration_format_rounding_boundary(void)
{
	/* 999.9999 ms rounds to three decimals as 1000.000: the unit should move
	 * up with it, as it does at exact powers of 1000. */
	ASSERT_FMT(ftl_duration_format, 999999999, "1.000 s");
	ASSERT_FMT(ftl_duration_format, 999999600, "1.000 s");
	ASSERT_FMT(ftl_duration_format, -999999999, "-1.000 s");
}

/* The fast fixed-point and integer formatters write what printf writes:
 * random values of every magnitude, ties and their neighbours, signs. */
static void test_fixed_format_as_printf(void)
{
	GRand *r = g_rand_new_with_seed(15);
	char want[64], got[64];
	for (guint i = 0; i < 200000; i++) {
		double v = g_rand_double_range(r, 0, 1) * pow(10, g_rand_int_range(r, -4, 12));
		if (i % 7 == 0)
			v = (double)g_rand_int_range(r, 0, 100000) / 20; /* ties at .x5 */
		if (i % 11 == 0)
			v = -v;
		for (guint d = 0; d <= 6; d++) {
			snprintf(want, sizeof want, "%.*f", (int)d, v);
			ftl_fixed_format(v, d, got, sizeof got);
			if (strcmp(want, got) != 0)
				CU_FAIL_FATAL("ftl_fixed_format differs from printf");
		}
		gint64 n = (gint64)(((guint64)g_rand_int(r) << 32 | g_rand_int(r)) >> (1 + i % 40)) *
			     (i % 2 ? 1 : -1);
		snprintf(want, sizeof want, "%" G_GINT64_FORMAT, n);
		CU_ASSERT_STRING_EQUAL(ftl_int_format(n, got, sizeof got), want);
	}
	g_rand_free(r);
	CU_ASSERT_STRING_EQUAL(ftl_fixed_format(-0.0, 1, got, sizeof got), "-0.0");
	CU_ASSERT_STRING_EQUAL(ftl_fixed_format(0.25, 1, got, sizeof got), "0.2");
	CU_ASSERT_STRING_EQUAL(ftl_fixed_format(0.35, 1, got, sizeof got), "0.3");
	CU_ASSERT_STRING_EQUAL(ftl_fixed_format(9.96, 1, got, sizeof got), "10.0");
	CU_ASSERT_STRING_EQUAL(ftl_int_format(G_MININT64, got, sizeof got), "-9223372036854775808");
	CU_ASSERT_STRING_EQUAL(ftl_fixed_format(1234.5678, 2, got, 4), "123");
}

static void test_diags_counting(void)
{
	g_autoptr(FtlDiags) d = ftl_diags_new();
	CU_ASSERT_FALSE(ftl_diags_any(d));
	const FtlDiagEntry *e = ftl_diags_get(d, FTL_DIAG_UNPARSED_LINE);
	CU_ASSERT_EQUAL(e->count, 0);
	CU_ASSERT_PTR_NULL(e->first_file);

	ftl_diags_add(d, FTL_DIAG_UNPARSED_LINE, &(FtlDiagLoc){ "a.txt", 5, 2 }, "garbage here", 7,
		      0);
	ftl_diags_add(d, FTL_DIAG_UNPARSED_LINE, &(FtlDiagLoc){ "b.txt", 9, 3 }, "other", 5, 0);
	ftl_diags_add(d, FTL_DIAG_UNPARSED_LINE, &(FtlDiagLoc){ "c.txt", 11, 1 }, NULL, 0, 0);
	CU_ASSERT_TRUE(ftl_diags_any(d));
	e = ftl_diags_get(d, FTL_DIAG_UNPARSED_LINE);
	CU_ASSERT_EQUAL(e->count, 3);
	CU_ASSERT_EQUAL(e->amount, 0);
	/* The first occurrence keeps its location; later ones only count. */
	CU_ASSERT_STRING_EQUAL(e->first_file, "a.txt");
	CU_ASSERT_EQUAL(e->first_line, 5);
	CU_ASSERT_EQUAL(e->first_cpu, 2);
	/* Only text_len bytes are kept, not the whole NUL-terminated string. */
	CU_ASSERT_STRING_EQUAL(e->first_text, "garbage");

	/* Amounts add up across occurrences, per kind. */
	ftl_diags_add(d, FTL_DIAG_LOST_EVENTS, &(FtlDiagLoc){ NULL, 40, -1 }, NULL, 0, 10);
	const char *lost = "CPU:0 [LOST 32 EVENTS]";
	ftl_diags_add(d, FTL_DIAG_LOST_EVENTS, &(FtlDiagLoc){ "x", 80, 0 }, lost, -1, 32);
	e = ftl_diags_get(d, FTL_DIAG_LOST_EVENTS);
	CU_ASSERT_EQUAL(e->count, 2);
	CU_ASSERT_EQUAL(e->amount, 42);
	CU_ASSERT_STRING_EQUAL(e->first_file, "");
	CU_ASSERT_EQUAL(e->first_line, 40);
	CU_ASSERT_EQUAL(e->first_cpu, -1);
	CU_ASSERT_PTR_NULL(e->first_text);

	/* Other kinds are untouched. */
	for (int k = 0; k < FTL_DIAG_N_KINDS; k++) {
		if (k == FTL_DIAG_UNPARSED_LINE || k == FTL_DIAG_LOST_EVENTS)
			continue;
		CU_ASSERT_EQUAL(ftl_diags_get(d, k)->count, 0);
	}
}

static void test_diags_text_sanitized(void)
{
	g_autoptr(FtlDiags) d = ftl_diags_new();
	/* ESC, TAB, CR and DEL must not reach a terminal; UTF-8 stays
	 * (util/escape.h's policy). */
	const char *t = "ab\x1b[31mc\td\r\x7f\xc3\xa9";
	ftl_diags_add(d, FTL_DIAG_UNPARSED_LINE, &(FtlDiagLoc){ "f", 1, 0 }, t, -1, 0);
	CU_ASSERT_STRING_EQUAL(ftl_diags_get(d, FTL_DIAG_UNPARSED_LINE)->first_text,
			       "ab\\x1b[31mc\\x09d\\x0d\\x7f\xc3\xa9");

	/* Long lines are shortened, to 160 bytes. */
	char longline[400];
	memset(longline, 'x', sizeof longline);
	ftl_diags_add(d, FTL_DIAG_TRUNCATED_LINE, &(FtlDiagLoc){ "f", 2, 0 }, longline,
		      sizeof longline, 0);
	CU_ASSERT_EQUAL(strlen(ftl_diags_get(d, FTL_DIAG_TRUNCATED_LINE)->first_text), 160);
}

static void test_diags_text_with_nul(void)
{
	g_autoptr(FtlDiags) d = ftl_diags_new();
	/* A NUL byte inside a line (a zero-filled block of a file that was being
	 * written at a crash) is a control byte like any other: it shows as \x00
	 * and the text after it is kept. */
	const char t[] = { 'a', 'b', '\0', 'c', 'd' };
	ftl_diags_add(d, FTL_DIAG_UNPARSED_LINE, &(FtlDiagLoc){ "f", 1, 0 }, t, sizeof t, 0);
	const char *got = ftl_diags_get(d, FTL_DIAG_UNPARSED_LINE)->first_text;
	CU_ASSERT_STRING_EQUAL(got, "ab\\x00cd");
	if (strcmp(got, "ab\\x00cd") != 0)
		fprintf(stderr, "\n  got '%s'\n", got);
}

static void test_diag_names(void)
{
	CU_ASSERT_STRING_EQUAL(ftl_diag_kind_name(FTL_DIAG_LOST_EVENTS), "lost_events");
	CU_ASSERT_STRING_EQUAL(ftl_diag_kind_name(FTL_DIAG_UNPARSED_LINE), "unparsed_line");
	/* Every kind has a distinct JSON name and a summary for the text report. */
	for (int k = 0; k < FTL_DIAG_N_KINDS; k++) {
		CU_ASSERT_PTR_NOT_NULL_FATAL(ftl_diag_kind_name(k));
		CU_ASSERT_PTR_NOT_NULL_FATAL(ftl_diag_kind_summary(k));
		for (int j = 0; j < k; j++)
			CU_ASSERT_STRING_NOT_EQUAL(ftl_diag_kind_name(k), ftl_diag_kind_name(j));
	}
}

static void test_tasks_note_lookup(void)
{
	g_autoptr(FtlTasks) t = ftl_tasks_new();
	CU_ASSERT_EQUAL(ftl_tasks_count(t), 0);
	CU_ASSERT_PTR_NULL(ftl_tasks_lookup(t, 100));

	ftl_tasks_note(t, 100, -1, "bash", FALSE);
	const FtlTask *k = ftl_tasks_lookup(t, 100);
	CU_ASSERT_PTR_NOT_NULL_FATAL(k);
	CU_ASSERT_EQUAL(k->pid, 100);
	CU_ASSERT_EQUAL(k->tgid, -1);
	CU_ASSERT_STRING_EQUAL(k->comm, "bash");
	CU_ASSERT_FALSE(k->recovered);

	/* A later line that knows the tgid but prints "<...>" adds the tgid and
	 * keeps the name. */
	ftl_tasks_note(t, 100, 99, NULL, FALSE);
	k = ftl_tasks_lookup(t, 100);
	CU_ASSERT_EQUAL(k->tgid, 99);
	CU_ASSERT_STRING_EQUAL(k->comm, "bash");
	/* An unknown tgid does not erase a known one. */
	ftl_tasks_note(t, 100, -1, NULL, FALSE);
	CU_ASSERT_EQUAL(ftl_tasks_lookup(t, 100)->tgid, 99);

	/* A name seen on the line prefix replaces an older seen one (exec). */
	ftl_tasks_note(t, 100, -1, "sh", FALSE);
	CU_ASSERT_STRING_EQUAL(ftl_tasks_lookup(t, 100)->comm, "sh");

	/* Negative pids are not tasks. */
	ftl_tasks_note(t, -1, -1, "ghost", FALSE);
	CU_ASSERT_EQUAL(ftl_tasks_count(t), 1);
	CU_ASSERT_PTR_NULL(ftl_tasks_lookup(t, -1));

	/* pid 0 (the idle task) is a real key, not "no entry". */
	ftl_tasks_note(t, 0, -1, "swapper/0", FALSE);
	CU_ASSERT_PTR_NOT_NULL_FATAL(ftl_tasks_lookup(t, 0));
	CU_ASSERT_STRING_EQUAL(ftl_tasks_lookup(t, 0)->comm, "swapper/0");
	CU_ASSERT_EQUAL(ftl_tasks_count(t), 2);
}

static void test_tasks_alternating(void)
{
	g_autoptr(FtlTasks) t = ftl_tasks_new();
	/* Interleaved pids defeat the one-entry cache: each note must still land
	 * on its own task. */
	ftl_tasks_note(t, 1, -1, "one", FALSE);
	ftl_tasks_note(t, 2, -1, "two", FALSE);
	ftl_tasks_note(t, 1, 11, NULL, FALSE);
	ftl_tasks_note(t, 2, 22, NULL, FALSE);
	ftl_tasks_note(t, 2, -1, "TWO", FALSE);
	CU_ASSERT_STRING_EQUAL(ftl_tasks_lookup(t, 1)->comm, "one");
	CU_ASSERT_EQUAL(ftl_tasks_lookup(t, 1)->tgid, 11);
	CU_ASSERT_STRING_EQUAL(ftl_tasks_lookup(t, 2)->comm, "TWO");
	CU_ASSERT_EQUAL(ftl_tasks_lookup(t, 2)->tgid, 22);
}

static void test_tasks_recovered(void)
{
	g_autoptr(FtlTasks) t = ftl_tasks_new();
	/* Recovered (say from a sched_switch next_comm) never overrides seen. */
	ftl_tasks_note(t, 100, -1, "bash", FALSE);
	ftl_tasks_note(t, 100, -1, "bash-old", TRUE);
	CU_ASSERT_STRING_EQUAL(ftl_tasks_lookup(t, 100)->comm, "bash");
	CU_ASSERT_FALSE(ftl_tasks_lookup(t, 100)->recovered);

	/* A recovered name fills in until a seen one arrives, which then sticks. */
	ftl_tasks_note(t, 200, -1, "rec", TRUE);
	CU_ASSERT_STRING_EQUAL(ftl_tasks_lookup(t, 200)->comm, "rec");
	CU_ASSERT_TRUE(ftl_tasks_lookup(t, 200)->recovered);
	ftl_tasks_note(t, 200, -1, "seen", FALSE);
	CU_ASSERT_STRING_EQUAL(ftl_tasks_lookup(t, 200)->comm, "seen");
	CU_ASSERT_FALSE(ftl_tasks_lookup(t, 200)->recovered);
	ftl_tasks_note(t, 200, -1, "rec2", TRUE);
	CU_ASSERT_STRING_EQUAL(ftl_tasks_lookup(t, 200)->comm, "seen");
	CU_ASSERT_FALSE(ftl_tasks_lookup(t, 200)->recovered);

	/* A newer recovered name replaces an older recovered one. */
	ftl_tasks_note(t, 300, -1, "r1", TRUE);
	ftl_tasks_note(t, 300, -1, "r2", TRUE);
	CU_ASSERT_STRING_EQUAL(ftl_tasks_lookup(t, 300)->comm, "r2");

	/* Seen as "<...>" only: a recovered name is welcome. */
	ftl_tasks_note(t, 400, -1, NULL, FALSE);
	CU_ASSERT_PTR_NULL(ftl_tasks_lookup(t, 400)->comm);
	ftl_tasks_note(t, 400, -1, "found", TRUE);
	CU_ASSERT_STRING_EQUAL(ftl_tasks_lookup(t, 400)->comm, "found");
	CU_ASSERT_TRUE(ftl_tasks_lookup(t, 400)->recovered);
}

static void test_tasks_sorted(void)
{
	g_autoptr(FtlTasks) t = ftl_tasks_new();
	const gint32 pids[] = { 30, 5, 1000, 0, 17, 65536, 2 };
	const gint32 want[] = { 0, 2, 5, 17, 30, 1000, 65536 };
	for (guint i = 0; i < G_N_ELEMENTS(pids); i++)
		ftl_tasks_note(t, pids[i], -1, NULL, FALSE);
	/* Noting a pid again does not add a task. */
	ftl_tasks_note(t, 5, -1, "five", FALSE);
	CU_ASSERT_EQUAL(ftl_tasks_count(t), G_N_ELEMENTS(pids));
	g_autoptr(GPtrArray) arr = ftl_tasks_sorted(t);
	CU_ASSERT_EQUAL_FATAL(arr->len, G_N_ELEMENTS(want));
	for (guint i = 0; i < arr->len; i++) {
		const FtlTask *k = g_ptr_array_index(arr, i);
		CU_ASSERT_EQUAL(k->pid, want[i]);
		/* The listing hands out the table's own tasks. */
		CU_ASSERT_PTR_EQUAL(k, ftl_tasks_lookup(t, want[i]));
	}
	CU_ASSERT_STRING_EQUAL(((const FtlTask *)g_ptr_array_index(arr, 2))->comm, "five");
}

/* A dump line's columns as printf lays them out: the time right-aligned
 * in 18 columns (15 with --us), CPU in 3, pid in 7 ("-" when unknown),
 * comm escaped and left-aligned in 16 bytes, the kind in 11, the name
 * escaped, ':'. */
static char *ref_dump_prefix(const FtlEvent *ev, gboolean us)
{
	char t[64], c[32], p[32];
	if (us)
		ftl_time_format_us(ev->ts, t, sizeof t);
	else
		ftl_time_format_ns(ev->ts, t, sizeof t);
	g_snprintf(c, sizeof c, ev->cpu >= 0 ? "%d" : "-", ev->cpu);
	g_snprintf(p, sizeof p, ev->pid >= 0 ? "%d" : "-", ev->pid);
	g_autofree char *comm =
		ev->comm ? ftl_escape(ev->comm, -1) : g_strdup(ev->pid >= 0 ? "<...>" : "-");
	g_autofree char *name = ev->name ? ftl_escape(ev->name, -1) : g_strdup("-");
	return g_strdup_printf("%*s %3s %7s %-16s %-11s %s:\n", us ? 15 : 18, t, c, p, comm,
			       ftl_event_kind_name(ev->kind), name);
}

/* Every column's edge: numbers that fill their columns and overflow them,
 * unknown ones, comms and names that need escaping, longer than their
 * column, empty, unknown; both time units. */
static void test_dump_prefix(void)
{
	const gint64 tss[] = { 0,	    1,		999999999,	1234567891234,	   -5,
			       FTL_TS_NONE, G_MAXINT64, G_MININT64 + 1, 999999999999999999 };
	const gint cpus[] = { -1, 0, 7, 999, 1000, 123456 };
	const gint pids[] = { -1, 0, 42, 9999999, 12345678, G_MAXINT };
	const char *comms[] = { NULL,
				"bash",
				"",
				"kworker/u16:3-events_unbound",
				"a\x1b[31mb",
				"back\\slash",
				"\xc3\xa9t\xc3\xa9",
				"exactly16chars!!" };
	const char *names[] = { NULL, "sched_switch", "x\ty", "" };
	const FtlEventKind kinds[] = { FTL_EVENT_GENERIC, FTL_EVENT_MARKER };
	guint n = 0, bad = 0;
	for (guint a = 0; a < G_N_ELEMENTS(tss); a++)
		for (guint b = 0; b < G_N_ELEMENTS(cpus); b++)
			for (guint c = 0; c < G_N_ELEMENTS(pids); c++)
				for (guint d = 0; d < G_N_ELEMENTS(comms); d++)
					for (guint e = 0; e < G_N_ELEMENTS(names); e++)
						for (guint us = 0; us < 2; us++) {
							FtlEvent ev = event_with_payload("");
							ev.ts = tss[a];
							ev.cpu = cpus[b];
							ev.pid = pids[c];
							ev.comm = comms[d];
							ev.name = names[e];
							ev.kind = kinds[(a + d) % 2];
							if (ev.kind == FTL_EVENT_MARKER)
								ev.u.marker.text = slice("");
							g_autoptr(GString) got = g_string_new("x");
							ftl_dump_event_text(got, &ev, FTL_TS_NONE,
									    us);
							g_autofree char *want =
								ref_dump_prefix(&ev, us);
							const char *line = got->str + 1;
							if (ev.kind == FTL_EVENT_MARKER) {
								/* the marker's fields after the ':'
								 */
								g_autofree char *w = g_strndup(
									want, strlen(want) - 1);
								g_autofree char *m = g_strconcat(
									w,
									" origin=trace_marker "
									"text=\n",
									NULL);
								g_free(want);
								want = g_steal_pointer(&m);
							}
							n++;
							if (strcmp(line, want) != 0 && bad++ < 5)
								g_printerr("\n  got  '%s'\n  want "
									   "'%s'",
									   line, want);
						}
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT(n > 10000);
}

static const UnitTest tests[] = {
	{ "field: sched_switch payload", test_field_sched_switch },
	{ "field: walk sched_switch payload", test_field_walk_sched_switch },
	{ "field: quoted values", test_field_quoted },
	{ "field: keys with dots and brackets", test_field_key_characters },
	{ "field: missing keys and edges", test_field_missing_and_edges },
	{ "slice to i64", test_slice_to_i64 },
	{ "slice to i64 refuses overflow", test_slice_to_i64_overflow },
	{ "slice eq", test_slice_eq },
	{ "kind names", test_kind_names },
	{ "time format us/ns", test_time_format },
	{ "int, ns and us formats equal printf's", test_format_against_printf },
	{ "duration format", test_duration_format },
	{ "duration format at a rounding boundary", test_duration_format_rounding_boundary },
	{ "fixed-point and integer formats as printf's", test_fixed_format_as_printf },
	{ "diags: counting and first location", test_diags_counting },
	{ "diags: text sanitized", test_diags_text_sanitized },
	{ "diags: text with a NUL byte", test_diags_text_with_nul },
	{ "diags: names", test_diag_names },
	{ "tasks: note and lookup", test_tasks_note_lookup },
	{ "tasks: alternating pids", test_tasks_alternating },
	{ "tasks: recovered names", test_tasks_recovered },
	{ "tasks: sorted listing", test_tasks_sorted },
	{ "dump's columns as printf lays them out", test_dump_prefix },
	{ NULL, NULL },
};

int main(void)
{
	return unit_run("event", tests);
}
