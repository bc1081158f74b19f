/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ftlens diff A B`: function statistics of two traces compared. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/pass.h"
#include "util/error.h"
#include "views/table.h"

typedef struct {
	const char *func; /* interned in A's or B's pool: compared by text */
	const FtlFuncStat *a, *b;
	gint64 key; /* |change| of the sort metric */
} DiffRow;

static gint diff_cmp(gconstpointer x, gconstpointer y)
{
	const DiffRow *p = x, *q = y;
	if (p->key != q->key)
		return p->key > q->key ? -1 : 1;
	return strcmp(p->func, q->func);
}

static gint64 diff_metric(const FtlFuncStat *s, gboolean self)
{
	if (!s)
		return 0;
	return self ? s->self_ns : s->total_ns;
}

static void diff_pct(FtlTable *t, guint col, gint64 a, gint64 b)
{
	if (a != 0)
		ftl_table_set_double(t, col, 100.0 * (double)(b - a) / (double)a);
}

gboolean ftl_cmd_diff(int argc, char **argv, GError **error)
{
	g_autofree char *format_s = NULL, *sort_s = NULL;
	gint top = 30;
	const GOptionEntry entries[] = {
		{ "format", 'F', 0, G_OPTION_ARG_STRING, &format_s, "text, csv or json", "FMT" },
		{ "sort", 's', 0, G_OPTION_ARG_STRING, &sort_s,
		  "Order by the change of total (default), self or calls", "KEY" },
		{ "top", 'n', 0, G_OPTION_ARG_INT, &top, "Rows in text (default 30)", "N" },
		{ NULL },
	};
	g_auto(FtlCliGlobals) g = { 0 };
	if (!ftl_cli_parse(ftl_cli_find("diff"), entries, &g, &argc, &argv, error))
		return FALSE;
	FtlFormat format = FTL_FORMAT_TEXT;
	if (format_s && !ftl_format_parse(format_s, &format, error))
		return FALSE;
	if (argc != 3) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "diff: expected two traces, A and B");
		return FALSE;
	}
	if (sort_s && strcmp(sort_s, "total") && strcmp(sort_s, "self") &&
	    strcmp(sort_s, "calls")) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "diff: --sort '%s': expected total, self or calls", sort_s);
		return FALSE;
	}
	gboolean by_self = sort_s && !strcmp(sort_s, "self");
	gboolean by_calls = sort_s && !strcmp(sort_s, "calls");
	char *a_argv[] = { argv[0], argv[1], NULL }, *b_argv[] = { argv[0], argv[2], NULL };
	g_autoptr(FtlPass) a = ftl_pass_run(&g, 2, a_argv, FTL_FUNCSTATS_BY_FUNC,
					    FTL_CALLTREE_GROUP_NONE, NULL, error);
	if (!a)
		return FALSE;
	g_autoptr(FtlPass) b = ftl_pass_run(&g, 2, b_argv, FTL_FUNCSTATS_BY_FUNC,
					    FTL_CALLTREE_GROUP_NONE, NULL, error);
	if (!b)
		return FALSE;
	/* Join by name: the two traces have separate string pools. */
	g_autoptr(GHashTable) rows = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
	GPtrArray *fa = ftl_funcstats_sorted(a->funcs, FTL_FUNCSTATS_SORT_NAME);
	for (guint i = 0; i < fa->len; i++) {
		const FtlFuncStat *s = fa->pdata[i];
		DiffRow *r = g_new0(DiffRow, 1);
		r->func = s->func;
		r->a = s;
		g_hash_table_insert(rows, (gpointer)r->func, r);
	}
	GPtrArray *fb = ftl_funcstats_sorted(b->funcs, FTL_FUNCSTATS_SORT_NAME);
	for (guint i = 0; i < fb->len; i++) {
		const FtlFuncStat *s = fb->pdata[i];
		DiffRow *r = g_hash_table_lookup(rows, s->func);
		if (!r) {
			r = g_new0(DiffRow, 1);
			r->func = s->func;
			g_hash_table_insert(rows, (gpointer)r->func, r);
		}
		r->b = s;
	}
	g_autoptr(GArray) list = g_array_new(FALSE, FALSE, sizeof(DiffRow));
	GHashTableIter it;
	gpointer v;
	g_hash_table_iter_init(&it, rows);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		DiffRow r = *(DiffRow *)v;
		if (by_calls)
			r.key = llabs((gint64)(r.b ? r.b->calls : 0) -
				      (gint64)(r.a ? r.a->calls : 0));
		else
			r.key = llabs(diff_metric(r.b, by_self) - diff_metric(r.a, by_self));
		g_array_append_val(list, r);
	}
	g_array_sort(list, diff_cmp);
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
	for (guint i = 0; i < list->len; i++) {
		const DiffRow *r = &g_array_index(list, DiffRow, i);
		ftl_table_begin_row(t);
		ftl_table_set_str(t, 0, r->func);
		ftl_table_set_int(t, 1, r->a ? (gint64)r->a->calls : 0);
		ftl_table_set_int(t, 2, r->b ? (gint64)r->b->calls : 0);
		gint64 ta = diff_metric(r->a, FALSE), tb = diff_metric(r->b, FALSE);
		gint64 sa = diff_metric(r->a, TRUE), sb = diff_metric(r->b, TRUE);
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
		ftl_json_add_text(jb, ftl_trace_label(a->trace));
		json_builder_set_member_name(jb, "b");
		ftl_json_add_text(jb, ftl_trace_label(b->trace));
		ftl_table_add_json(t, jb);
		json_builder_end_object(jb);
		g_autoptr(JsonNode) root = json_builder_get_root(jb);
		ftl_json_print(root, stdout);
	} else if (format == FTL_FORMAT_CSV) {
		ftl_table_print_csv(t, stdout);
	} else {
		printf("A: %s\nB: %s\nsorted by the absolute change of %s\n\n",
		       ftl_trace_label(a->trace), ftl_trace_label(b->trace),
		       by_self	  ? "self time"
		       : by_calls ? "calls"
				  : "total time");
		ftl_table_print_text(t, stdout, (guint)MAX(top, 1), 100);
	}
	return TRUE;
}
