/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Result tables: text alignment and width, CSV quoting, JSON rows, formats. */
#include "config.h"

#include <string.h>

#include "unit.h"
#include "util/error.h"
#include "views/table.h"

static char *render(const FtlTable *t, FtlFormat f, guint max_rows, guint width)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	if (f == FTL_FORMAT_TEXT)
		ftl_table_print_text(t, out, max_rows, width);
	else if (f == FTL_FORMAT_CSV)
		ftl_table_print_csv(t, out);
	else {
		g_autoptr(JsonBuilder) b = json_builder_new();
		json_builder_begin_object(b);
		ftl_table_add_json(t, b);
		json_builder_end_object(b);
		g_autoptr(JsonNode) root = json_builder_get_root(b);
		ftl_json_print(root, out);
	}
	fclose(out);
	return buf;
}

static FtlTable *sample(void)
{
	FtlTable *t = ftl_table_new("rows");
	ftl_table_add_column(t, "function", "function", FTL_COL_STR);
	ftl_table_add_column(t, "calls", "calls", FTL_COL_INT);
	ftl_table_add_column(t, "total_ns", "total", FTL_COL_NS);
	ftl_table_add_column(t, "secret", "secret", FTL_COL_INT);
	ftl_table_hide_in_text(t);
	ftl_table_begin_row(t);
	ftl_table_set_str(t, 0, "do_sys_open");
	ftl_table_set_int(t, 1, 12);
	ftl_table_set_int(t, 2, 1500);
	ftl_table_set_int(t, 3, 7);
	ftl_table_begin_row(t);
	ftl_table_set_str(t, 0, "evil,\"name\"\x1b[31m");
	ftl_table_set_int(t, 1, 3);
	return t;
}

static void test_text(void)
{
	g_autoptr(FtlTable) t = sample();
	g_autofree char *s = render(t, FTL_FORMAT_TEXT, 0, 100);
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "function"));
	CU_ASSERT_PTR_NULL(strstr(s, "secret"));
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
	g_autoptr(FtlTable) t = ftl_table_new("rows");
	ftl_table_add_column(t, "name", "name", FTL_COL_STR);
	ftl_table_add_column(t, "n", "n", FTL_COL_INT);
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
	JsonObject *r1 = json_array_get_object_element(rows, 1);
	CU_ASSERT(json_object_get_null_member(r1, "total_ns"));
	CU_ASSERT_STRING_EQUAL(json_object_get_string_member(r1, "function"),
			       "evil,\"name\"\x1b[31m");
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

static const UnitTest tests[] = {
	{ "text", test_text },
	{ "width", test_width },
	{ "csv", test_csv },
	{ "json", test_json },
	{ "format_parse", test_format_parse },
	{ NULL, NULL },
};

int main(void)
{
	return unit_run("table", tests);
}
