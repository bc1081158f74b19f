/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ftlens stack`: the stack tracer's tables read, checked and ranked, or two
 * of them compared with --diff. */
#include "config.h"

#include <stdio.h>

#include "analysis/stackhog.h"
#include "cli/cli.h"
#include "util/error.h"
#include "views/stack.h"

/* The deepest table of the tables set holds from index first on, and how
 * many of them have frames. */
static const FtlStackTable *stack_deepest_from(const FtlStackSet *set, guint first, guint *n)
{
	guint count = ftl_stack_set_n_tables(set) - first;
	g_autofree const FtlStackTable **tables = g_new(const FtlStackTable *, count + 1);
	for (guint i = 0; i < count; i++)
		tables[i] = ftl_stack_set_table(set, first + i);
	g_autoptr(FtlStackHogs) h = ftl_stackhog_new(tables, count);
	*n = ftl_stackhog_n_tables(h);
	return ftl_stackhog_deepest(h);
}

static gboolean stack_diff(FtlStackSet *set, const FtlInputs *in, char **argv, FtlFormat format,
			   guint top, const FtlTextStyle *style, GError **error)
{
	const FtlStackTable *side[2];
	guint n[2];
	for (guint k = 0; k < 2; k++) {
		guint first = ftl_stack_set_n_tables(set);
		if (!ftl_inputs_read_stack(in, k, set, error))
			return FALSE;
		side[k] = stack_deepest_from(set, first, &n[k]);
		if (!side[k]) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_EMPTY,
				    "stack --diff: '%s' holds no stack frames to compare",
				    argv[1 + k]);
			return FALSE;
		}
	}
	ftl_inputs_stacks_finish(set);
	g_autoptr(FtlStackDiff) d = ftl_stackdiff_new(side[0], side[1]);
	ftl_stack_view_print_diff(set, side[0], n[0], side[1], n[1], d, format, top, style,
				  stdout);
	return TRUE;
}

gboolean ftl_cmd_stack(const FtlCommand *cmd, int argc, char **argv, GError **error)
{
	gboolean diff = FALSE;
	gint top = 15;
	const GOptionEntry entries[] = {
		{ "diff", 0, 0, G_OPTION_ARG_NONE, &diff,
		  "Compare the deepest stack of A with that of B", NULL },
		{ "top", 'n', 0, G_OPTION_ARG_INT, &top,
		  "Rows of the ranked tables in text (default 15)", "N" },
		{ NULL },
	};
	g_auto(FtlCliGlobals) g = { 0 };
	if (!ftl_cli_parse(cmd, entries, &g, &argc, &argv, error))
		return FALSE;
	FtlFormat format = g.format;
	if (top < 1) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE, "stack: --top %d: expected N >= 1",
			    top);
		return FALSE;
	}
	if (diff && argc != 3) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "stack: --diff expects two inputs, A and B");
		return FALSE;
	}
	if (!ftl_cli_setup(&g, cmd->inputs, argc, argv, error))
		return FALSE;
	g_autoptr(FtlStackSet) set = ftl_stack_set_new();
	if (diff)
		return stack_diff(set, g.inputs, argv, format, (guint)top, &g.style, error);
	if (!ftl_inputs_read_stacks(g.inputs, set, error))
		return FALSE;
	guint n = ftl_stack_set_n_tables(set);
	g_autofree const FtlStackTable **tables = g_new(const FtlStackTable *, n + 1);
	for (guint i = 0; i < n; i++)
		tables[i] = ftl_stack_set_table(set, i);
	g_autoptr(FtlStackHogs) h = ftl_stackhog_new(tables, n);
	/* a series names its kernel; a bare stack_trace needs --vmlinux */
	const char *release = NULL;
	for (guint i = 0; i < n && !release; i++)
		release = tables[i]->kernel;
	g_autoptr(FtlDebugInfo) dbg =
		ftl_cli_debuginfo(&g, n ? tables[0]->file : "stack", release, NULL, NULL, NULL,
				  error);
	if (!dbg && error && *error)
		return FALSE;
	ftl_stack_view_print(set, h, format, (guint)top, dbg, &g.style, stdout);
	return TRUE;
}
