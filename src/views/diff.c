/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The rendering of `ftlens diff`: one row per function, text, CSV or JSON. */
#include "config.h"

#include "views/diff.h"

#include "util/escape.h"

static void diff_pct(FtlTable *t, guint col, gint64 a, gint64 b)
{
	double pct;
	if (ftl_diff_change_pct(a, b, &pct))
		ftl_table_set_double(t, col, pct);
}

void ftl_diff_print(const FtlDiff *d, const char *label_a, const char *label_b, FtlFormat format,
		    guint top, const FtlTextStyle *style, FILE *out)
{
	FtlDiffKey key = ftl_diff_key(d);
	enum {
		C_FUNCTION,
		C_CALLS_A,
		C_CALLS_B,
		C_TOTAL_A,
		C_TOTAL_B,
		C_TOTAL_CHANGE,
		C_TOTAL_CHANGE_PCT,
		C_SELF_A,
		C_SELF_B,
		C_SELF_CHANGE,
		C_SELF_CHANGE_PCT
	};
	static const FtlColumn t_cols[] = {
		[C_FUNCTION] = { "function", "function", FTL_COL_STR },
		[C_CALLS_A] = { "calls_a", "calls A", FTL_COL_INT },
		[C_CALLS_B] = { "calls_b", "calls B", FTL_COL_INT },
		[C_TOTAL_A] = { "total_a_ns", "total A", FTL_COL_NS },
		[C_TOTAL_B] = { "total_b_ns", "total B", FTL_COL_NS },
		[C_TOTAL_CHANGE] = { "total_change_ns", "change", FTL_COL_NS },
		[C_TOTAL_CHANGE_PCT] = { "total_change_pct", "%", FTL_COL_PCT },
		[C_SELF_A] = { "self_a_ns", "self A", FTL_COL_NS, FTL_COL_HIDE_TEXT },
		[C_SELF_B] = { "self_b_ns", "self B", FTL_COL_NS, FTL_COL_HIDE_TEXT },
		[C_SELF_CHANGE] = { "self_change_ns", "self change", FTL_COL_NS },
		[C_SELF_CHANGE_PCT] = { "self_change_pct", "%", FTL_COL_PCT },
	};
	g_autoptr(FtlTable) t = ftl_table_new("functions", t_cols, G_N_ELEMENTS(t_cols));
	for (guint i = 0; i < ftl_diff_n_rows(d); i++) {
		const FtlDiffRow *r = ftl_diff_row(d, i);
		ftl_table_begin_row(t);
		ftl_table_set_str(t, C_FUNCTION, r->func);
		ftl_table_set_int(t, C_CALLS_A, r->a ? (gint64)r->a->calls : 0);
		ftl_table_set_int(t, C_CALLS_B, r->b ? (gint64)r->b->calls : 0);
		gint64 ta = ftl_diff_metric(r->a, FALSE), tb = ftl_diff_metric(r->b, FALSE);
		gint64 sa = ftl_diff_metric(r->a, TRUE), sb = ftl_diff_metric(r->b, TRUE);
		ftl_table_set_int(t, C_TOTAL_A, ta);
		ftl_table_set_int(t, C_TOTAL_B, tb);
		ftl_table_set_int(t, C_TOTAL_CHANGE, tb - ta);
		diff_pct(t, C_TOTAL_CHANGE_PCT, ta, tb);
		ftl_table_set_int(t, C_SELF_A, sa);
		ftl_table_set_int(t, C_SELF_B, sb);
		ftl_table_set_int(t, C_SELF_CHANGE, sb - sa);
		diff_pct(t, C_SELF_CHANGE_PCT, sa, sb);
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
			key == FTL_DIFF_BY_SELF	   ? "self time"
			: key == FTL_DIFF_BY_CALLS ? "calls"
						   : "total time");
		ftl_table_print_text(t, out, MAX(top, 1), style);
	}
}
