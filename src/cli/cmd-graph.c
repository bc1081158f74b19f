/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ftlens graph [FUNCTION] FILE...`: the merged call tree. */
#include "config.h"

#include <string.h>

#include "cli/cli.h"
#include "analysis/calltree.h"
#include "analysis/pass.h"
#include "util/error.h"
#include "views/graph.h"

/* The option values graph cannot take. */
static gboolean graph_check(const FtlCliGlobals *g, const char *per, gint max_nodes,
			    double threshold_us, FtlCallTreeGroup *group, GError **error)
{
	if (!ftl_cli_parse_per(g, per, FALSE, group, error))
		return FALSE;
	if (max_nodes < 0) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "graph: --max-nodes: expected a count, 0 for no limit");
		return FALSE;
	}
	if (!(threshold_us >= 0 && threshold_us < 1e12)) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "graph: --threshold: expected microseconds");
		return FALSE;
	}
	return TRUE;
}

/* `graph FUNCTION FILE...`, as uftrace: a first operand that names no file */
static void graph_function_operand(char **function, int *argc, char ***argv)
{
	char **v = *argv;
	if (*function || *argc < 3 || g_file_test(v[1], G_FILE_TEST_EXISTS) || !strcmp(v[1], "-"))
		return;
	*function = g_strdup(v[1]);
	v[1] = v[0];
	(*argv)++;
	(*argc)--;
}

gboolean ftl_cmd_graph(const FtlCommand *cmd, int argc, char **argv, GError **error)
{
	g_autofree char *per = NULL, *function = NULL, *by_s = NULL;
	gint depth = -1, max_nodes = FTL_CALLTREE_DEFAULT_MAX_NODES;
	double threshold_us = 0;
	const GOptionEntry entries[] = {
		{ "function", 'f', 0, G_OPTION_ARG_STRING, &function,
		  "Root the graph at FUNCTION (all its calls merged)", "FUNCTION" },
		{ "depth", 'D', 0, G_OPTION_ARG_INT, &depth, "Show at most N levels below the top",
		  "N" },
		{ "threshold", 't', 0, G_OPTION_ARG_DOUBLE, &threshold_us,
		  "Hide paths whose total time is below USEC microseconds", "USEC" },
		{ "per", 0, 0, G_OPTION_ARG_STRING, &per, "One tree per cpu or per task",
		  "cpu|task" },
		{ "max-nodes", 0, 0, G_OPTION_ARG_INT, &max_nodes,
		  "Merge paths past N tree nodes into [other] (default 100000; 0: no limit)",
		  "N" },
		{ "by", 0, 0, G_OPTION_ARG_STRING, &by_s,
		  "Group the graph by the source directory or file defining each function "
		  "(needs the kernel's debug info)",
		  "dir|file" },
		{ NULL },
	};
	g_auto(FtlCliGlobals) g = { 0 };
	if (!ftl_cli_parse(cmd, entries, &g, &argc, &argv, error))
		return FALSE;
	FtlFormat format = g.format;
	FtlCallTreeGroup group = FTL_CALLTREE_GROUP_NONE;
	if (!graph_check(&g, per, max_nodes, threshold_us, &group, error))
		return FALSE;
	FtlSourceBy by = FTL_SOURCE_BY_DIR;
	if (by_s && !ftl_cli_parse_source_by("graph", "--by", &g, by_s, &by, error))
		return FALSE;
	graph_function_operand(&function, &argc, &argv);
	if (!ftl_cli_setup(&g, cmd->inputs, argc, argv, error))
		return FALSE;
	g_autoptr(FtlTrace) trace = ftl_cli_open_trace(&g, error);
	if (!trace)
		return FALSE;
	/* before the pass: a missing vmlinux is known without reading events */
	g_autoptr(FtlDebugInfo) dbg = by_s ? ftl_cli_source_debuginfo("graph", &g, trace, error) : NULL;
	if (by_s && !dbg)
		return FALSE;
	g_autoptr(FtlCallTree) tree = ftl_calltree_new(group, ftl_trace_diags(trace));
	ftl_calltree_set_max_nodes(tree, (guint)max_nodes);
	if (function)
		ftl_calltree_set_focus(tree, ftl_strpool_intern(ftl_trace_pool(trace), function));
	g_autoptr(FtlCounts) counts = ftl_counts_new();
	g_autoptr(FtlPass) pass = ftl_pass_new();
	ftl_pass_add(pass, &ftl_counts_consumer, counts);
	ftl_pass_add(pass, &ftl_calltree_consumer, tree);
	if (!ftl_pass_run(pass, trace, &g.filter, error) || !ftl_cli_finish(&g, trace, error))
		return FALSE;
	const FtlCallNode *root = ftl_calltree_root(tree);
	g_autoptr(FtlSourceMap) sources = dbg ? ftl_source_map_new(dbg, by) : NULL;
	g_autoptr(FtlSourceGraph) by_source =
		sources ? ftl_source_graph_new(sources, root, group != FTL_CALLTREE_GROUP_NONE) : NULL;
	if (function && !root->child) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_PARSE,
			    "graph: '%s': no call of this function in %s", function,
			    ftl_trace_label(trace));
		return FALSE;
	}
	FtlGraphOptions opt = {
		.max_depth = depth,
		.threshold = (gint64)(threshold_us * 1000),
		.max_nodes = (guint)max_nodes,
		.folded = ftl_diags_get(ftl_trace_diags(trace), FTL_DIAG_NODE_BUDGET)->count,
		.style = &g.style,
		.what = by_s ? ftl_source_by_name(by) : NULL,
	};
	/* no calls at all: an empty tree says why (CSV and JSON still parse) */
	if (root->child || format != FTL_FORMAT_TEXT)
		ftl_graph_print(by_source ? ftl_source_graph_root(by_source) : root, &opt, format,
				stdout);
	if (!root->child)
		return ftl_cli_empty(&g, trace, counts, "graph", error);
	return TRUE;
}
