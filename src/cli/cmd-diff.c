/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ftlens diff A B`: function statistics of two traces compared. */
#include "config.h"

#include "analysis/calltree.h"
#include "analysis/diff.h"
#include "analysis/pass.h"
#include "cli/cli.h"
#include "util/error.h"
#include "util/escape.h"
#include "views/diff.h"

/* One side: the trace's per-function statistics, built without the
 * merged call tree. */
static FtlFuncStats *diff_side(FtlCliGlobals *g, char *path, FtlTrace **trace, char **why,
			       GError **error)
{
	*trace = path ? ftl_cli_open_path(g, path, error) : ftl_cli_open_trace(g, error);
	if (!*trace)
		return NULL;
	g_autoptr(FtlCallTree) calls =
		ftl_calltree_new(FTL_CALLTREE_GROUP_NONE, ftl_trace_diags(*trace));
	g_autoptr(FtlFuncStats) funcs = ftl_funcstats_new(FTL_FUNCSTATS_BY_FUNC);
	ftl_calltree_set_no_tree(calls);
	ftl_calltree_add_on_call(calls, ftl_funcstats_add_call, funcs);
	g_autoptr(FtlCounts) counts = ftl_counts_new();
	g_autoptr(FtlPass) pass = ftl_pass_new();
	ftl_pass_add(pass, &ftl_counts_consumer, counts);
	ftl_pass_add(pass, &ftl_calltree_consumer, calls);
	ftl_pass_add(pass, &ftl_funcstats_consumer, funcs);
	if (!ftl_pass_run(pass, *trace, &g->filter, error))
		return NULL;
	/* a side whose selection keeps nothing is a side with no function */
	g_autoptr(GError) empty = NULL;
	if (!ftl_cli_finish(g, *trace, &empty))
		*why = g_strdup(empty->message);
	else if (!ftl_funcstats_n_rows(funcs))
		*why = ftl_cli_why_empty(g, *trace, counts);
	return g_steal_pointer(&funcs);
}

gboolean ftl_cmd_diff(const FtlCommand *cmd, int argc, char **argv, GError **error)
{
	g_autofree char *sort_s = NULL;
	gint top = 30;
	const GOptionEntry entries[] = {
		{ "sort", 's', 0, G_OPTION_ARG_STRING, &sort_s,
		  "Order by the change of total (default), self or calls", "KEY" },
		{ "top", 'n', 0, G_OPTION_ARG_INT, &top, "Rows in text (default 30)", "N" },
		{ NULL },
	};
	g_auto(FtlCliGlobals) g = { 0 };
	if (!ftl_cli_parse(cmd, entries, &g, &argc, &argv, error))
		return FALSE;
	FtlFormat format = g.format;
	if (argc != 3) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "diff: expected two traces, A and B");
		return FALSE;
	}
	/* each side is sorted through the door alone (a console log's dump is
	 * read alone); the time origin is A's */
	if (!ftl_cli_setup(&g, cmd->inputs, 2, argv, error))
		return FALSE;
	FtlDiffKey key = FTL_DIFF_BY_TOTAL;
	if (sort_s && !ftl_diff_parse_key(sort_s, &key)) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "diff: --sort '%s': expected total, self or calls", sort_s);
		return FALSE;
	}
	g_autoptr(FtlTrace) ta = NULL, tb = NULL;
	g_autofree char *why_a = NULL, *why_b = NULL;
	g_autoptr(FtlFuncStats) a = diff_side(&g, NULL, &ta, &why_a, error);
	if (!a)
		return FALSE;
	g_autoptr(FtlFuncStats) b = diff_side(&g, argv[2], &tb, &why_b, error);
	if (!b)
		return FALSE;
	/* both sides empty: nothing to compare, say why (exit 1; CSV and JSON
	 * still parse); one side empty: every function is new or gone, which is
	 * an answer, with a note */
	gboolean none = why_a && why_b;
	if (!none && (why_a || why_b)) {
		/* the reason names the trace: made visible as errors are (main.c) */
		g_autofree char *vis = ftl_escape(why_a ? why_a : why_b, -1);
		g_printerr("ftlens: diff: note: %s: %s\n", why_a ? "A" : "B", vis);
	}
	if (!none || format != FTL_FORMAT_TEXT) {
		g_autoptr(FtlDiff) d = ftl_diff_new(a, b, key);
		ftl_diff_print(d, ftl_trace_label(ta), ftl_trace_label(tb), format,
			       (guint)MAX(top, 1), &g.style, stdout);
	}
	if (none) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_EMPTY,
			    "diff: nothing to compare: A: %s; B: %s", why_a, why_b);
		return FALSE;
	}
	return TRUE;
}
