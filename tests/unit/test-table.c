/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Result tables: text alignment and width, CSV quoting, JSON rows, formats. */
#include "config.h"

#include <string.h>

#include "unit.h"
#include "util/color.h"
#include "util/error.h"
#include "views/table.h"

static char *render_style(const FtlTable *t, FtlFormat f, guint max_rows, const FtlTextStyle *style)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	ftl_table_print(t, f, out, max_rows, style);
	fclose(out);
	return buf;
}

/* Plain text that fits width columns (0: never cut). */
static char *render(const FtlTable *t, FtlFormat f, guint max_rows, guint width)
{
	FtlTextStyle style = { width, FALSE, NULL };
	return render_style(t, f, max_rows, &style);
}

enum { S_FUNC, S_CALLS, S_TOTAL, S_SECRET, S_GONE };
static const FtlColumn sample_cols[] = {
	[S_FUNC] = { "function", "function", FTL_COL_STR },
	[S_CALLS] = { "calls", "calls", FTL_COL_INT },
	[S_TOTAL] = { "total_ns", "total", FTL_COL_NS },
	[S_SECRET] = { "secret", "secret", FTL_COL_INT, FTL_COL_HIDE_TEXT },
	[S_GONE] = { "gone", "gone", FTL_COL_INT },
};

static FtlTable *sample(void)
{
	FtlTable *t = ftl_table_new("rows", sample_cols, G_N_ELEMENTS(sample_cols));
	ftl_table_omit(t, S_GONE); /* in no format, though cells are set */
	ftl_table_begin_row(t);
	ftl_table_set_str(t, S_FUNC, "do_sys_open");
	ftl_table_set_int(t, S_CALLS, 12);
	ftl_table_set_int(t, S_TOTAL, 1500);
	ftl_table_set_int(t, S_SECRET, 7);
	ftl_table_set_int(t, S_GONE, 99);
	ftl_table_begin_row(t);
	ftl_table_set_str(t, S_FUNC, "evil,\"name\"\x1b[31m");
	ftl_table_set_int(t, S_CALLS, 3);
	return t;
}

static void test_text(void)
{
	g_autoptr(FtlTable) t = sample();
	g_autofree char *s = render(t, FTL_FORMAT_TEXT, 0, 100);
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "function"));
	CU_ASSERT_PTR_NULL(strstr(s, "secret"));
	CU_ASSERT_PTR_NULL(strstr(s, "gone"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "1.500 us"));
	/* an escape sequence from the trace never reaches the terminal raw */
	CU_ASSERT_PTR_NULL(strchr(s, 0x1b));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "\\x1b"));
	/* the last column is right-aligned: header and rows end at one column */
	g_auto(GStrv) lines = g_strsplit(s, "\n", -1);
	CU_ASSERT_EQUAL(strlen(lines[0]), strlen(lines[1]));
	CU_ASSERT_EQUAL(strlen(lines[0]), strlen(lines[2]));
	g_autofree char *one = render(t, FTL_FORMAT_TEXT, 1, 100);
	CU_ASSERT_PTR_NOT_NULL(strstr(one, "(1 more rows"));
}

static void test_width(void)
{
	static const FtlColumn cols[] = { { "name", "name", FTL_COL_STR },
					  { "n", "n", FTL_COL_INT } };
	g_autoptr(FtlTable) t = ftl_table_new("rows", cols, 2);
	ftl_table_begin_row(t);
	char longname[200];
	memset(longname, 'a', sizeof longname - 2);
	longname[sizeof longname - 2] = 'Z';
	longname[sizeof longname - 1] = 0;
	ftl_table_set_str(t, 0, longname);
	ftl_table_set_int(t, 1, 1);
	g_autofree char *s = render(t, FTL_FORMAT_TEXT, 0, 60);
	g_auto(GStrv) lines = g_strsplit(s, "\n", -1);
	for (guint i = 0; lines[i]; i++)
		CU_ASSERT(strlen(lines[i]) <= 60);
	/* the end of a long name is kept, marked with '~' */
	CU_ASSERT_PTR_NOT_NULL(strstr(lines[1], "~"));
	CU_ASSERT_PTR_NOT_NULL(strstr(lines[1], "aZ"));
}

static void test_csv(void)
{
	g_autoptr(FtlTable) t = sample();
	g_autofree char *s = render(t, FTL_FORMAT_CSV, 0, 0);
	g_auto(GStrv) lines = g_strsplit(s, "\n", -1);
	CU_ASSERT_STRING_EQUAL(lines[0], "function,calls,total_ns,secret");
	CU_ASSERT_STRING_EQUAL(lines[1], "do_sys_open,12,1500,7");
	CU_ASSERT_STRING_EQUAL(lines[2], "\"evil,\"\"name\"\"\\x1b[31m\",3,,");
}

static void test_json(void)
{
	g_autoptr(FtlTable) t = sample();
	g_autofree char *s = render(t, FTL_FORMAT_JSON, 0, 0);
	g_autoptr(JsonParser) p = json_parser_new();
	CU_ASSERT_FATAL(json_parser_load_from_data(p, s, -1, NULL));
	JsonArray *rows =
		json_object_get_array_member(json_node_get_object(json_parser_get_root(p)), "rows");
	CU_ASSERT_EQUAL_FATAL(json_array_get_length(rows), 2);
	JsonObject *r0 = json_array_get_object_element(rows, 0);
	CU_ASSERT_EQUAL(json_object_get_int_member(r0, "total_ns"), 1500);
	CU_ASSERT_EQUAL(json_object_get_int_member(r0, "secret"), 7);
	CU_ASSERT_FALSE(json_object_has_member(r0, "gone"));
	JsonObject *r1 = json_array_get_object_element(rows, 1);
	CU_ASSERT(json_object_get_null_member(r1, "total_ns"));
	CU_ASSERT_STRING_EQUAL(json_object_get_string_member(r1, "function"),
			       "evil,\"name\"\x1b[31m");
}

/* The text column is cut at its end, the comm never, the name at its start. */
static void test_cut_policies(void)
{
	enum { C_NAME, C_COMM, C_TEXT };
	static const FtlColumn cols[] = {
		[C_NAME] = { "name", "name", FTL_COL_STR },
		[C_COMM] = { "comm", "comm", FTL_COL_STR, FTL_COL_NO_CUT },
		[C_TEXT] = { "text", "text", FTL_COL_STR, FTL_COL_KEEP_START },
	};
	g_autoptr(FtlTable) t = ftl_table_new("rows", cols, G_N_ELEMENTS(cols));
	ftl_table_set_title(t, C_TEXT, "marker text");
	ftl_table_begin_row(t);
	ftl_table_set_str(t, C_NAME, "short");
	ftl_table_set_str(t, C_COMM, "a-very-long-task-name-kept-whole");
	ftl_table_set_str(t, C_TEXT, "START of a long marker text that goes on and on and on END");
	g_autofree char *s = render(t, FTL_FORMAT_TEXT, 0, 70);
	g_auto(GStrv) lines = g_strsplit(s, "\n", -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(lines[0], "marker text"));
	CU_ASSERT(strlen(lines[1]) <= 70);
	CU_ASSERT_PTR_NOT_NULL(strstr(lines[1], "a-very-long-task-name-kept-whole"));
	CU_ASSERT_PTR_NOT_NULL(strstr(lines[1], "START of"));
	CU_ASSERT_PTR_NULL(strstr(lines[1], "END"));
	CU_ASSERT_EQUAL(lines[1][strlen(lines[1]) - 1], '~');
}

/* Two long names with one long end: cut to fit, they still print apart
 * (the column widens past the width rather than show them alike); with
 * no width (a file, a pipe) nothing is cut; on a terminal a cut is said. */
static void test_cut_unambiguous(void)
{
	enum { C_NAME, C_N };
	static const FtlColumn cols[] = {
		[C_NAME] = { "name", "name", FTL_COL_STR },
		[C_N] = { "n", "n", FTL_COL_INT },
	};
	const char *tail = "_handle_the_very_long_common_ending_of_both_names";
	g_autofree char *a = g_strconcat("alpha", tail, NULL);
	g_autofree char *b = g_strconcat("bravo", tail, NULL);
	g_autoptr(FtlTable) t = ftl_table_new("rows", cols, G_N_ELEMENTS(cols));
	const char *names[] = { a, b, "short", "other_short" };
	for (guint i = 0; i < G_N_ELEMENTS(names); i++) {
		ftl_table_begin_row(t);
		ftl_table_set_str(t, C_NAME, names[i]);
		ftl_table_set_int(t, C_N, i);
	}
	g_autofree char *s = render(t, FTL_FORMAT_TEXT, 0, 40);
	g_auto(GStrv) lines = g_strsplit(s, "\n", -1);
	CU_ASSERT_PTR_NULL(strstr(s, "names cut"));
	g_autofree char *whole = render(t, FTL_FORMAT_TEXT, 0, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(whole, a));
	CU_ASSERT_PTR_NOT_NULL(strstr(whole, b));
	CU_ASSERT_PTR_NULL(strstr(whole, "~"));
	guint cuts = 0;
	FtlTextStyle tty = { 40, FALSE, &cuts };
	g_autofree char *said = render_style(t, FTL_FORMAT_TEXT, 0, &tty);
	CU_ASSERT_PTR_NOT_NULL(strstr(said, "(names cut to fit 40 columns"));
	g_autofree char *again = render_style(t, FTL_FORMAT_TEXT, 0, &tty);
	CU_ASSERT_PTR_NULL(strstr(again, "names cut")); /* said once */
	CU_ASSERT_EQUAL(cuts, 2);
	guint wide_cuts = 0;
	FtlTextStyle wide = { 200, FALSE, &wide_cuts };
	g_autofree char *fits = render_style(t, FTL_FORMAT_TEXT, 0, &wide);
	CU_ASSERT_PTR_NULL(strstr(fits, "names cut"));
	CU_ASSERT_EQUAL(wide_cuts, 0);
	/* "~" and their common end would print alike: cut in the middle,
	 * both ends kept, within the width */
	CU_ASSERT(g_str_has_prefix(lines[1], "alpha") && g_str_has_prefix(lines[2], "bravo"));
	CU_ASSERT_PTR_NOT_NULL(strstr(lines[1], "~"));
	CU_ASSERT_PTR_NOT_NULL(strstr(lines[1], "names "));
	CU_ASSERT(strlen(lines[1]) <= 40 && strlen(lines[2]) <= 40);
	/* names alike at both ends too: the column widens until they differ */
	g_autoptr(FtlTable) x = ftl_table_new("rows", cols, G_N_ELEMENTS(cols));
	const char *twins[] = { "common_start_of_it_all_1_and_the_common_ending_too",
				"common_start_of_it_all_2_and_the_common_ending_too" };
	for (guint i = 0; i < G_N_ELEMENTS(twins); i++) {
		ftl_table_begin_row(x);
		ftl_table_set_str(x, C_NAME, twins[i]);
	}
	g_autofree char *xs = render(x, FTL_FORMAT_TEXT, 0, 20);
	g_auto(GStrv) xl = g_strsplit(xs, "\n", -1);
	CU_ASSERT_STRING_NOT_EQUAL(xl[1], xl[2]);
	/* the same table without a clash keeps the width */
	g_autoptr(FtlTable) u = ftl_table_new("rows", cols, G_N_ELEMENTS(cols));
	ftl_table_begin_row(u);
	ftl_table_set_str(u, C_NAME, a);
	ftl_table_set_int(u, C_N, 1);
	g_autofree char *v = render(u, FTL_FORMAT_TEXT, 0, 40);
	g_auto(GStrv) vl = g_strsplit(v, "\n", -1);
	CU_ASSERT(strlen(vl[1]) <= 40);
	/* CSV keeps full names */
	g_autofree char *csv = render(t, FTL_FORMAT_CSV, 0, 40);
	CU_ASSERT_PTR_NOT_NULL(strstr(csv, a));
	CU_ASSERT_PTR_NOT_NULL(strstr(csv, b));
}

/* Wide characters take two columns: rows stay aligned. */
static void test_wide_chars(void)
{
	static const FtlColumn cols[] = { { "name", "name", FTL_COL_STR },
					  { "n", "n", FTL_COL_INT } };
	g_autoptr(FtlTable) t = ftl_table_new("rows", cols, 2);
	ftl_table_begin_row(t);
	ftl_table_set_str(t, 0, "\xe6\x97\xa5\xe6\x9c\xac"); /* two wide characters */
	ftl_table_set_int(t, 1, 1);
	ftl_table_begin_row(t);
	ftl_table_set_str(t, 0, "abcd");
	ftl_table_set_int(t, 1, 2);
	g_autofree char *s = render(t, FTL_FORMAT_TEXT, 0, 100);
	g_auto(GStrv) lines = g_strsplit(s, "\n", -1);
	/* "日本  1" and "abcd  2": the numbers in one column */
	CU_ASSERT_EQUAL(strlen(lines[1]) - 2, strlen(lines[2]));
}

/* A cell that starts like a formula is shown as text by spreadsheets. */
static void test_csv_formula(void)
{
	static const FtlColumn cols[] = { { "text", "text", FTL_COL_STR } };
	g_autoptr(FtlTable) t = ftl_table_new("rows", cols, 1);
	const char *in[] = { "=HYPERLINK(\"x\")", "+1", "-2", "@SUM(A1)", "plain", "a=b" };
	const char *want[] = { "\"'=HYPERLINK(\"\"x\"\")\"", "\"'+1\"", "\"'-2\"",
			       "\"'@SUM(A1)\"", "plain", "a=b" };
	for (guint i = 0; i < G_N_ELEMENTS(in); i++) {
		ftl_table_begin_row(t);
		ftl_table_set_str(t, 0, in[i]);
	}
	g_autofree char *s = render(t, FTL_FORMAT_CSV, 0, 0);
	g_auto(GStrv) lines = g_strsplit(s, "\n", -1);
	for (guint i = 0; i < G_N_ELEMENTS(in); i++)
		CU_ASSERT_STRING_EQUAL(lines[i + 1], want[i]);
}

static void test_format_parse(void)
{
	FtlFormat f;
	CU_ASSERT(ftl_format_parse("csv", &f, NULL) && f == FTL_FORMAT_CSV);
	CU_ASSERT(ftl_format_parse("json", &f, NULL) && f == FTL_FORMAT_JSON);
	g_autoptr(GError) e = NULL;
	CU_ASSERT(!ftl_format_parse("xml", &f, &e));
	CU_ASSERT(g_error_matches(e, FTL_ERROR, FTL_ERROR_USAGE));
}

/* The kernel's function_graph marks (trace_output.c): strictly more than
 * 10 us, 100 us, 1 ms, 10 ms, 100 ms, 1 s. */
static void test_color_marks(void)
{
	static const struct {
		gint64 ns;
		FtlColorRole role;
	} cases[] = {
		{ 0, FTL_COLOR_NONE },
		{ 10000, FTL_COLOR_NONE },
		{ 10001, FTL_COLOR_DUR_10US },
		{ 100000, FTL_COLOR_DUR_10US },
		{ 100001, FTL_COLOR_DUR_100US },
		{ 1000000, FTL_COLOR_DUR_100US },
		{ 1000001, FTL_COLOR_DUR_1MS },
		{ 10000001, FTL_COLOR_DUR_10MS },
		{ 100000001, FTL_COLOR_DUR_100MS },
		{ 1000000000, FTL_COLOR_DUR_100MS },
		{ 1000000001, FTL_COLOR_DUR_1S },
		{ -5, FTL_COLOR_NONE },
	};
	for (guint i = 0; i < G_N_ELEMENTS(cases); i++)
		CU_ASSERT_EQUAL(ftl_color_duration_role(cases[i].ns), cases[i].role);
}

/* Colours wrap the header, durations and alert rows, and are the only
 * escape sequences: a cell's ESC is still made visible; off, no codes. */
static void test_color_table(void)
{
	static const FtlColumn cols[] = {
		{ "function", "function", FTL_COL_STR, 0 },
		{ "total_ns", "total", FTL_COL_NS, 0 },
		{ "lost", "lost", FTL_COL_INT, FTL_COL_ALERT },
	};
	g_autoptr(FtlTable) t = ftl_table_new("rows", cols, G_N_ELEMENTS(cols));
	ftl_table_begin_row(t);
	ftl_table_set_str(t, 0, "slow\x1b[31m");
	ftl_table_set_int(t, 1, 2000000); /* '#' */
	ftl_table_set_int(t, 2, 0);
	ftl_table_begin_row(t);
	ftl_table_set_str(t, 0, "lossy");
	ftl_table_set_int(t, 1, 5);
	ftl_table_set_int(t, 2, 3);
	CU_ASSERT_TRUE(ftl_color_decide(FTL_COLOR_ALWAYS, -1));
	CU_ASSERT_FALSE(ftl_color_decide(FTL_COLOR_NEVER, -1));
	CU_ASSERT_FALSE(ftl_color_decide(FTL_COLOR_AUTO, -1)); /* not a terminal */
	const char *header = ftl_color_code(TRUE, FTL_COLOR_HEADER);
	const char *ms = ftl_color_code(TRUE, FTL_COLOR_DUR_1MS);
	const char *alert = ftl_color_code(TRUE, FTL_COLOR_ALERT);
	CU_ASSERT_TRUE(*header && *ms && *alert);
	CU_ASSERT_STRING_EQUAL(ftl_color_code(FALSE, FTL_COLOR_HEADER), "");
	FtlTextStyle colored = { 100, TRUE, NULL };
	g_autofree char *on = render_style(t, FTL_FORMAT_TEXT, 0, &colored);
	g_autofree char *csv = render_style(t, FTL_FORMAT_CSV, 0, &colored);
	g_autofree char *off = render(t, FTL_FORMAT_TEXT, 0, 100);
	g_auto(GStrv) lines = g_strsplit(on, "\n", -1);
	CU_ASSERT_TRUE(g_str_has_prefix(lines[0], header));
	CU_ASSERT_PTR_NOT_NULL(strstr(lines[1], "\\x1b[31m"));
	CU_ASSERT_PTR_NOT_NULL(strstr(lines[1], ms));
	CU_ASSERT_TRUE(g_str_has_prefix(lines[2], alert));
	/* every ESC is one of ours: the codes, stripped, leave the plain table */
	g_autoptr(GRegex) sgr = g_regex_new("\x1b\\[[0-9;]*m", 0, 0, NULL);
	g_autofree char *stripped = g_regex_replace_literal(sgr, on, -1, 0, "", 0, NULL);
	CU_ASSERT_STRING_EQUAL(stripped, off);
	CU_ASSERT_PTR_NULL(strchr(off, 0x1b));
	CU_ASSERT_PTR_NULL(strchr(csv, 0x1b));
}

static const UnitTest tests[] = {
	{ "text", test_text },
	{ "width", test_width },
	{ "csv", test_csv },
	{ "json", test_json },
	{ "cut policies by column", test_cut_policies },
	{ "cuts never make two names alike", test_cut_unambiguous },
	{ "wide characters", test_wide_chars },
	{ "csv formula cells", test_csv_formula },
	{ "format_parse", test_format_parse },
	{ "duration colours at the kernel's marks", test_color_marks },
	{ "colours: header, durations, alert rows, only ours", test_color_table },
	{ NULL, NULL },
};

int main(void)
{
	return unit_run("table", tests);
}
