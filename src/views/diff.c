/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The rendering of `ftlens diff`: one row per function, text, CSV or JSON. */
#include "config.h"

#include "views/diff.h"

#include "util/escape.h"

static void diff_pct(FtlTable *t, guint col, gint64 a, gint64 b)
{
	if (a != 0)
		ftl_table_set_double(t, col, 100.0 * (double)(b - a) / (double)a);
}

void ftl_diff_print(const FtlDiff *d, const char *label_a, const char *label_b, FtlFormat format,
		    guint top, FILE *out)
{
	FtlDiffKey key = ftl_diff_key(d);
	g_autoptr(FtlTable) t = ftl_table_new("functions");
	ftl_table_add_column(t, "function", "function", FTL_COL_STR);
	ftl_table_add_column(t, "calls_a", "calls A", FTL_COL_INT);
	ftl_table_add_column(t, "calls_b", "calls B", FTL_COL_INT);
	ftl_table_add_column(t, "total_a_ns", "total A", FTL_COL_NS);
	ftl_table_add_column(t, "total_b_ns", "total B", FTL_COL_NS);
	ftl_table_add_column(t, "total_change_ns", "change", FTL_COL_NS);
	ftl_table_add_column(t, "total_change_pct", "%", FTL_COL_PCT);
	ftl_table_add_column(t, "self_a_ns", "self A", FTL_COL_NS);
	ftl_table_hide_in_text(t);
	ftl_table_add_column(t, "self_b_ns", "self B", FTL_COL_NS);
	ftl_table_hide_in_text(t);
	ftl_table_add_column(t, "self_change_ns", "self change", FTL_COL_NS);
	ftl_table_add_column(t, "self_change_pct", "%", FTL_COL_PCT);
	for (guint i = 0; i < ftl_diff_n_rows(d); i++) {
		const FtlDiffRow *r = ftl_diff_row(d, i);
		ftl_table_begin_row(t);
		ftl_table_set_str(t, 0, r->func);
		ftl_table_set_int(t, 1, r->a ? (gint64)r->a->calls : 0);
		ftl_table_set_int(t, 2, r->b ? (gint64)r->b->calls : 0);
		gint64 ta = ftl_diff_metric(r->a, FALSE), tb = ftl_diff_metric(r->b, FALSE);
		gint64 sa = ftl_diff_metric(r->a, TRUE), sb = ftl_diff_metric(r->b, TRUE);
		ftl_table_set_int(t, 3, ta);
		ftl_table_set_int(t, 4, tb);
		ftl_table_set_int(t, 5, tb - ta);
		diff_pct(t, 6, ta, tb);
		ftl_table_set_int(t, 7, sa);
		ftl_table_set_int(t, 8, sb);
		ftl_table_set_int(t, 9, sb - sa);
		diff_pct(t, 10, sa, sb);
	}
	if (format == FTL_FORMAT_JSON) {
		g_autoptr(JsonBuilder) jb = json_builder_new();
		json_builder_begin_object(jb);
		json_builder_set_member_name(jb, "a");
		ftl_json_add_text(jb, label_a);
		json_builder_set_member_name(jb, "b");
		ftl_json_add_text(jb, label_b);
		ftl_table_add_json(t, jb);
		json_builder_end_object(jb);
		g_autoptr(JsonNode) root = json_builder_get_root(jb);
		ftl_json_print(root, out);
	} else if (format == FTL_FORMAT_CSV) {
		ftl_table_print_csv(t, out);
	} else {
		g_autofree char *va = ftl_escape(label_a, -1), *vb = ftl_escape(label_b, -1);
		fprintf(out, "A: %s\nB: %s\nsorted by the absolute change of %s\n\n", va, vb,
		       key == FTL_DIFF_BY_SELF ? "self time"
		       : key == FTL_DIFF_BY_CALLS ? "calls"
				  : "total time");
		ftl_table_print_text(t, out, MAX(top, 1), 100);
	}
}
