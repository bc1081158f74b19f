/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The scanners (numbers, times) and tracefs's small text files. */
#include "config.h"

#include <string.h>

#include "unit.h"
#include "util/scan.h"
#include "util/tracefs-text.h"

static const char *scan(const char *(*f)(const char *, const char *, guint64 *), const char *s,
			guint64 *v)
{
	return f(s, s + strlen(s), v);
}

static void test_u64(void)
{
	guint64 v = 0;
	const char *s = "18446744073709551615x";
	CU_ASSERT_PTR_EQUAL(scan(ftl_scan_u64, s, &v), s + 20);
	CU_ASSERT_EQUAL(v, G_MAXUINT64);
	/* one more, and twenty nines, overflow: no number */
	CU_ASSERT_PTR_NULL(scan(ftl_scan_u64, "18446744073709551616", &v));
	CU_ASSERT_PTR_NULL(scan(ftl_scan_u64, "99999999999999999999", &v));
	CU_ASSERT_PTR_NULL(scan(ftl_scan_u64, "", &v));
	CU_ASSERT_PTR_NULL(scan(ftl_scan_u64, "-1", &v));
	/* the end bound is respected */
	const char *t = "12345";
	CU_ASSERT_PTR_EQUAL(ftl_scan_u64(t, t + 2, &v), t + 2);
	CU_ASSERT_EQUAL(v, 12);
}

static void test_hex(void)
{
	guint64 v = 0;
	CU_ASSERT_PTR_NOT_NULL(scan(ftl_scan_hex, "0xffffffffffffffff", &v));
	CU_ASSERT_EQUAL(v, G_MAXUINT64);
	CU_ASSERT_PTR_NULL(scan(ftl_scan_hex, "0x10000000000000000", &v));
	CU_ASSERT_PTR_NOT_NULL(scan(ftl_scan_hex, "1f0/0x2a", &v));
	CU_ASSERT_EQUAL(v, 0x1f0);
}

static void test_times(void)
{
	gint64 ns = 0;
	const char *s = "360.775281: x";
	CU_ASSERT_PTR_EQUAL(ftl_scan_sec(s, s + strlen(s), &ns), s + 10);
	CU_ASSERT_EQUAL(ns, G_GINT64_CONSTANT(360775281000));
	s = "1.123456789123";
	CU_ASSERT_PTR_NOT_NULL(ftl_scan_sec(s, s + strlen(s), &ns));
	CU_ASSERT_EQUAL(ns, G_GINT64_CONSTANT(1123456789));
	s = "12";
	CU_ASSERT_PTR_NULL(ftl_scan_sec(s, s + 2, &ns)); /* needs the fraction */
	s = "99999999999999.000000"; /* past INT64_MAX ns */
	CU_ASSERT_PTR_NULL(ftl_scan_sec(s, s + strlen(s), &ns));
	s = "577.070 us";
	CU_ASSERT_PTR_EQUAL(ftl_scan_usecs(s, s + strlen(s), &ns), s + 7);
	CU_ASSERT_EQUAL(ns, 577070);
	s = "99999999999999999.000";
	CU_ASSERT_PTR_NULL(ftl_scan_usecs(s, s + strlen(s), &ns));
	/* a fraction alone: nine digits read, the rest skipped, none is 0 */
	s = "5Z";
	CU_ASSERT_PTR_EQUAL(ftl_scan_frac_ns(s, s + 2, &ns), s + 1);
	CU_ASSERT_EQUAL(ns, 500000000);
	s = "1234567891234+";
	CU_ASSERT_PTR_EQUAL(ftl_scan_frac_ns(s, s + strlen(s), &ns), s + 13);
	CU_ASSERT_EQUAL(ns, 123456789);
	s = "Z";
	CU_ASSERT_PTR_EQUAL(ftl_scan_frac_ns(s, s + 1, &ns), s);
	CU_ASSERT_EQUAL(ns, 0);
}

static void test_strings(void)
{
	guint64 u;
	gint64 i, ns;
	CU_ASSERT_TRUE(ftl_scan_u64_str(" 42\n", 10, &u) && u == 42);
	CU_ASSERT_FALSE(ftl_scan_u64_str("42x", 10, &u));
	CU_ASSERT_FALSE(ftl_scan_u64_str("", 10, &u));
	CU_ASSERT_TRUE(ftl_scan_u64_str("0x1000", 0, &u) && u == 4096);
	CU_ASSERT_TRUE(ftl_scan_i64_str("-9223372036854775808", &i) && i == G_MININT64);
	CU_ASSERT_FALSE(ftl_scan_i64_str("9223372036854775808", &i));
	CU_ASSERT_TRUE(ftl_scan_i64_str("+7", &i) && i == 7);
	/* seconds are exact: 0.1 s is 100000000 ns, not 99999999 or 100000001 */
	CU_ASSERT_TRUE(ftl_scan_seconds_str("0.1", &ns) && ns == 100000000);
	CU_ASSERT_TRUE(ftl_scan_seconds_str("360.775281", &ns) &&
		       ns == G_GINT64_CONSTANT(360775281000));
	CU_ASSERT_TRUE(ftl_scan_seconds_str(".25", &ns) && ns == 250000000);
	CU_ASSERT_TRUE(ftl_scan_seconds_str("12", &ns) && ns == G_GINT64_CONSTANT(12000000000));
	CU_ASSERT_FALSE(ftl_scan_seconds_str("-1", &ns));
	CU_ASSERT_TRUE(ftl_scan_seconds_str("1e3", &ns) && ns == G_GINT64_CONSTANT(1000000000000));
	CU_ASSERT_TRUE(ftl_scan_seconds_str("1e-6", &ns) && ns == 1000);
	CU_ASSERT_TRUE(ftl_scan_seconds_str("0.0000000015", &ns) && ns == 2);
	CU_ASSERT_FALSE(ftl_scan_seconds_str("1e", &ns));
	CU_ASSERT_FALSE(ftl_scan_seconds_str("nan", &ns));
	CU_ASSERT_FALSE(ftl_scan_seconds_str(".", &ns));
	CU_ASSERT_FALSE(ftl_scan_seconds_str("9300000000", &ns));
}

static void test_header_page(void)
{
	const char *text = "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
			   "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
			   "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
			   "\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n";
	FtlHeaderPage hp;
	CU_ASSERT_TRUE(ftl_header_page_parse(text, &hp));
	CU_ASSERT_EQUAL(hp.commit_size, 8);
	CU_ASSERT_EQUAL(ftl_header_page_size(&hp), 4096);
	/* a 32-bit kernel: commit is 4 bytes, data starts at 12 */
	const char *k32 = "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
			  "\tfield: local_t commit;\toffset:8;\tsize:4;\tsigned:1;\n"
			  "\tfield: char data;\toffset:12;\tsize:4084;\tsigned:1;\n";
	CU_ASSERT_TRUE(ftl_header_page_parse(k32, &hp) && hp.commit_size == 4 &&
		       ftl_header_page_size(&hp) == 4096);
	/* no data field, or an absurd size: not a page header */
	CU_ASSERT_FALSE(ftl_header_page_parse("\tfield: u64 timestamp;\toffset:0;\tsize:8;\n", &hp));
	const char *huge = "\tfield: u64 timestamp;\toffset:0;\tsize:8;\n"
			   "\tfield: local_t commit;\toffset:8;\tsize:8;\n"
			   "\tfield: char data;\toffset:16;\tsize:99999999999999999999;\n";
	CU_ASSERT_FALSE(ftl_header_page_parse(huge, &hp));
}

static void one_cpu(gint cpu, const FtlCpuStats *st, gpointer data)
{
	GString *s = data;
	g_string_append_printf(s, "%d:%" G_GUINT64_FORMAT " ", cpu, ftl_cpustats_lost(st));
}

static void test_cpustats(void)
{
	FtlCpuStats st;
	ftl_cpustats_parse("entries: 10\noverrun: 3\ncommit overrun: 1\nbytes: 4096\n"
			   "oldest event ts:  5.000000\ndropped events: 2\nread events: 7\n",
			   &st);
	CU_ASSERT_EQUAL(st.entries, 10);
	CU_ASSERT_EQUAL(st.read, 7);
	CU_ASSERT_EQUAL(ftl_cpustats_lost(&st), 6);
	/* a count no u64 holds is no count; sums saturate */
	ftl_cpustats_parse("overrun: 99999999999999999999\ndropped events: 1\n", &st);
	CU_ASSERT_EQUAL(st.overrun, 0);
	st.overrun = G_MAXUINT64;
	CU_ASSERT_EQUAL(ftl_cpustats_lost(&st), G_MAXUINT64);
	g_autoptr(GString) s = g_string_new(NULL);
	ftl_cpustats_parse_all("CPU: 0\nentries: 1\noverrun: 4\n\nCPU: 1\ndropped events: 5\n",
			       one_cpu, s);
	CU_ASSERT_STRING_EQUAL(s->str, "0:4 1:5 ");
}

static void test_clock_and_size(void)
{
	g_autofree char *c = ftl_trace_clock_selected("local [global] counter uptime\n");
	CU_ASSERT_STRING_EQUAL(c, "global");
	CU_ASSERT_PTR_NULL(ftl_trace_clock_selected("local global"));
	CU_ASSERT_PTR_NULL(ftl_trace_clock_selected(NULL));
	CU_ASSERT_EQUAL(ftl_buffer_size_kb_parse("7 (expanded: 1408)\n"), 1408);
	CU_ASSERT_EQUAL(ftl_buffer_size_kb_parse("1408\n"), 1408);
	CU_ASSERT_EQUAL(ftl_buffer_size_kb_parse("X\n"), 0);
}

static const UnitTest tests[] = {
	{ "u64 with overflow", test_u64 },
	{ "hex", test_hex },
	{ "seconds and microseconds", test_times },
	{ "whole strings, exact seconds", test_strings },
	{ "header_page", test_header_page },
	{ "per-CPU stats", test_cpustats },
	{ "trace_clock and buffer_size_kb", test_clock_and_size },
	{ NULL, NULL },
};

int main(void)
{
	return unit_run("scan", tests);
}
