/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ftlens export --to folded|speedscope|chrome`: files that FlameGraph,
 * speedscope and Perfetto UI open. */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include "analysis/flame.h"
#include "analysis/pass.h"
#include "cli/cli.h"
#include "util/error.h"
#include "util/output.h"
#include "views/export-chrome.h"
#include "views/export-folded.h"
#include "views/export-speedscope.h"

static gboolean export_folded(FtlTrace *trace, FtlCliGlobals *g, const char *per,
			      const char *from_s, FILE *out, GError **error)
{
	FtlFlameBuildOptions o = { .diags = ftl_trace_diags(trace) };
	if (from_s && !ftl_flame_from_parse(from_s, &o.from)) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "export: --from: expected calls, stacks, functions or auto");
		return FALSE;
	}
	if (!ftl_cli_parse_per(g, per, TRUE, &o.group, error))
		return FALSE;
	g_autoptr(FtlFlameBuild) b = ftl_flame_build_new(&o);
	g_autoptr(FtlPass) pass = ftl_pass_new();
	g_autoptr(FtlCounts) counts = ftl_counts_new();
	ftl_pass_add(pass, &ftl_counts_consumer, counts);
	ftl_pass_add(pass, &ftl_flame_build_consumer, b);
	if (!ftl_pass_run(pass, trace, &g->filter, error) || !ftl_cli_finish(g, trace, error))
		return FALSE;
	if (!ftl_flame_root(ftl_flame_build_tree(b))->child)
		return ftl_cli_lacks(g, trace, counts,
				     "function calls, stack traces or function samples to fold", error);
	guint64 lines = ftl_export_folded(ftl_flame_build_tree(b), out);
	if (g->verbose)
		g_printerr("ftlens: export: %" G_GUINT64_FORMAT " folded paths from %s\n", lines,
			   ftl_flame_from_name(ftl_flame_build_from(b)));
	return TRUE;
}

static gboolean export_speedscope(FtlTrace *trace, FtlCliGlobals *g, FILE *out,
				  GError **error)
{
	g_autoptr(FtlSpeedscopeExport) s =
		ftl_speedscope_export_new(out, ftl_trace_label(trace), ftl_trace_diags(trace), error);
	if (!s)
		return FALSE;
	g_autoptr(FtlPass) pass = ftl_pass_new();
	g_autoptr(FtlCounts) counts = ftl_counts_new();
	ftl_pass_add(pass, &ftl_counts_consumer, counts);
	ftl_pass_add(pass, &ftl_call_export_consumer, ftl_speedscope_export_calls(s));
	if (!ftl_pass_run(pass, trace, &g->filter, error) || !ftl_cli_finish(g, trace, error))
		return FALSE;
	if (!ftl_counts_kind(counts, FTL_EVENT_FUNC_ENTRY) && !ftl_counts_kind(counts, FTL_EVENT_FUNC_EXIT))
		return ftl_cli_lacks(g, trace, counts, "function_graph calls", error);
	if (!ftl_speedscope_export_write(s, error))
		return FALSE;
	guint64 profiles, events, open, orphans;
	ftl_speedscope_export_stats(s, &profiles, &events, &open, &orphans);
	if (g->verbose)
		g_printerr("ftlens: export: %" G_GUINT64_FORMAT " profiles, %" G_GUINT64_FORMAT
			   " events; repaired: %" G_GUINT64_FORMAT " calls without exit closed "
			   "at their task's last event, %" G_GUINT64_FORMAT
			   " exits without entry opened where the first call in them showed\n",
			   profiles, events, open, orphans);
	return TRUE;
}

static gboolean export_chrome(FtlTrace *trace, FtlCliGlobals *g, FILE *out, GError **error)
{
	g_autoptr(FtlChromeExport) c =
		ftl_chrome_export_new(out, ftl_trace_label(trace), ftl_trace_diags(trace), error);
	if (!c)
		return FALSE;
	g_autoptr(FtlPass) pass = ftl_pass_new();
	g_autoptr(FtlCounts) counts = ftl_counts_new();
	ftl_pass_add(pass, &ftl_counts_consumer, counts);
	ftl_pass_add(pass, &ftl_call_export_consumer, ftl_chrome_export_calls(c));
	if (!ftl_pass_run(pass, trace, &g->filter, error) || !ftl_cli_finish(g, trace, error))
		return FALSE;
	if (!ftl_counts_kind(counts, FTL_EVENT_FUNC_ENTRY) &&
	    !ftl_counts_kind(counts, FTL_EVENT_FUNC_EXIT) &&
	    !ftl_counts_kind(counts, FTL_EVENT_SCHED_SWITCH))
		return ftl_cli_lacks(g, trace, counts, "function_graph calls or sched_switch events",
				     error);
	if (!ftl_chrome_export_write(c, error))
		return FALSE;
	guint64 events, sched;
	ftl_chrome_export_stats(c, &events, &sched);
	if (g->verbose)
		g_printerr("ftlens: export: %" G_GUINT64_FORMAT " trace events, %" G_GUINT64_FORMAT
			   " scheduler lines\n",
			   events, sched);
	return TRUE;
}

gboolean ftl_cmd_export(const FtlCommand *cmd, int argc, char **argv, GError **error)
{
	g_autofree char *to = NULL, *output = NULL, *per = NULL, *from = NULL;
	const GOptionEntry entries[] = {
		{ "to", 't', 0, G_OPTION_ARG_STRING, &to, "folded, speedscope or chrome", "FORMAT" },
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Write to FILE (- for stdout)",
		  "FILE" },
		{ "per", 0, 0, G_OPTION_ARG_STRING, &per,
		  "folded: put the task (or CPU) as the first frame of every path", "task|cpu" },
		{ "from", 0, 0, G_OPTION_ARG_STRING, &from,
		  "folded: function_graph calls, stack traces or function samples",
		  "calls|stacks|functions" },
		{ NULL },
	};
	g_auto(FtlCliGlobals) g = { 0 };
	if (!ftl_cli_parse(cmd, entries, &g, &argc, &argv, error))
		return FALSE;
	const char *bad = NULL;
	if (!to || (strcmp(to, "folded") && strcmp(to, "speedscope") && strcmp(to, "chrome")))
		bad = "--to: expected folded, speedscope or chrome";
	else if (!output && isatty(STDOUT_FILENO))
		bad = "-o FILE is required on a terminal (- for standard output)";
	else if ((per || from) && strcmp(to, "folded"))
		bad = "--per and --from shape folded stacks; speedscope and chrome keep every task";
	if (bad) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE, "export: %s", bad);
		return FALSE;
	}
	if (!output) /* into a pipe or a file by default, as stackcollapse writes */
		output = g_strdup("-");
	if (!ftl_cli_setup(&g, cmd->inputs, argc, argv, error))
		return FALSE;
	g_autoptr(FtlTrace) trace = ftl_cli_open_trace(&g, error);
	if (!trace)
		return FALSE;
	g_autoptr(FtlOutput) out = ftl_output_open(output, (const char *const *)argv + 1, error);
	if (!out)
		return FALSE;
	FILE *f = ftl_output_stream(out);
	gboolean ok = !strcmp(to, "folded")	 ? export_folded(trace, &g, per, from, f, error)
		      : !strcmp(to, "speedscope") ? export_speedscope(trace, &g, f, error)
						  : export_chrome(trace, &g, f, error);
	return ok && ftl_output_commit(out, error);
}
