/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Why an answer is empty: what a command says when the selection or the input holds nothing it can show. */
#include "config.h"

#include <string.h>

#include "cli/cli.h"
#include "util/error.h"
#include "util/escape.h"

/* The command that shows what the events hold: function-tracer hits
 * (report counts them), else the events themselves, and the markers when
 * there are some. */
static char *empty_command(const FtlCounts *c)
{
	guint64 markers = ftl_counts_kind(c, FTL_EVENT_MARKER);
	const char *cmd = ftl_counts_kind(c, FTL_EVENT_FUNC_ENTRY) || ftl_counts_kind(c, FTL_EVENT_FUNC_EXIT)
				  ? "ftlens graph` or `ftlens report"
			  : ftl_counts_kind(c, FTL_EVENT_FUNC) ? "ftlens report"
			  : ftl_counts_kind(c, FTL_EVENT_SCHED_SWITCH) ? "ftlens sched"
								     : "ftlens dump";
	if (!markers)
		return g_strdup_printf("try `%s`", cmd);
	return g_strdup_printf("try `%s`, or `ftlens markers` for its %" G_GUINT64_FORMAT
			       " marker%s",
			       cmd, markers, markers == 1 ? "" : "s");
}

char *ftl_cli_why_lacking(const FtlCliGlobals *g, FtlTrace *trace, const FtlCounts *selected,
			  const char *lacking)
{
	g_autofree char *sel_text = ftl_cli_selection_text(g);
	g_autoptr(GString) sel = g_string_new(sel_text);
	const char *label = ftl_trace_label(trace);
	guint64 all = ftl_trace_stats(trace).events;
	if (!ftl_counts_events(selected)) {
		if (sel->len)
			return g_strdup_printf("%s selects none of the %" G_GUINT64_FORMAT
					       " events in %s",
					       sel->str, all, label);
		return g_strdup_printf("no events in %s", label);
	}
	/* the most frequent event names, as info lists them (names from the
	 * trace: escaped) */
	GPtrArray *names = ftl_counts_names(selected);
	g_autoptr(GString) held = g_string_new(NULL);
	for (guint i = 0; i < names->len && i < 3; i++) {
		const FtlNameCount *n = g_ptr_array_index(names, i);
		if (i)
			g_string_append(held, ", ");
		ftl_escape_append(held, n->name, -1);
	}
	if (names->len > 3)
		g_string_append(held, ", ...");
	g_autofree char *what =
		sel->len ? g_strdup_printf("the %" G_GUINT64_FORMAT " events %s selects in %s",
					   ftl_counts_events(selected), sel->str, label)
			 : g_strdup_printf("%s: its %" G_GUINT64_FORMAT " events", label,
					   ftl_counts_events(selected));
	g_autofree char *try = empty_command(selected);
	return g_strdup_printf("no %s in %s (%s): %s", lacking, what, held->str, try);
}

char *ftl_cli_why_empty(const FtlCliGlobals *g, FtlTrace *trace, const FtlCounts *selected)
{
	return ftl_cli_why_lacking(g, trace, selected, "function_graph calls");
}

gboolean ftl_cli_lacks(const FtlCliGlobals *g, FtlTrace *trace, const FtlCounts *selected,
		       const char *lacking, GError **error)
{
	g_autofree char *why = ftl_cli_why_lacking(g, trace, selected, lacking);
	g_set_error(error, FTL_ERROR, FTL_ERROR_EMPTY, "%s: %s", g->cmd->name, why);
	return FALSE;
}

gboolean ftl_cli_empty(const FtlCliGlobals *g, FtlTrace *trace, const FtlCounts *selected,
		       const char *cmd, GError **error)
{
	(void)cmd;
	return ftl_cli_lacks(g, trace, selected, "function_graph calls", error);
}
