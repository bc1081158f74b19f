/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ftlens report`: one streaming pass feeding the analyses the report shows
 * (never the merged call-path tree: it grows with the distinct paths). */
#include "config.h"

#include <string.h>

#include "analysis/comm.h"
#include "analysis/pass.h"
#include "cli/cli.h"
#include "util/error.h"
#include "views/report.h"

#define REPORT_LONGEST 50

/* The options' values, or a usage error naming the one that is wrong. */
static gboolean report_check(const FtlCliGlobals *g, const char *per, const char *sort_s, gint top,
			     double threshold_us, FtlFuncStatsKey *key, FtlFuncStatsSort *sort,
			     GError **error)
{
	FtlCallTreeGroup group;
	if (!ftl_cli_parse_per(g, per, FALSE, &group, error))
		return FALSE;
	*key = group == FTL_CALLTREE_GROUP_CPU	  ? FTL_FUNCSTATS_BY_CPU
	       : group == FTL_CALLTREE_GROUP_TASK ? FTL_FUNCSTATS_BY_TASK
						  : FTL_FUNCSTATS_BY_FUNC;
	if (sort_s && !ftl_funcstats_parse_sort(sort_s, sort)) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "report: --sort '%s': expected self, total, calls, avg, max or name",
			    sort_s);
		return FALSE;
	}
	if (top < 1 || !(threshold_us >= 0 && threshold_us < 1e12)) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "report: --top must be at least 1 and --threshold a number of "
			    "microseconds");
		return FALSE;
	}
	return TRUE;
}


/* The analyses report's tables read, owned by the command. */
typedef struct {
	FtlCounts *counts;
	FtlQuality *quality;
	FtlCommRecovery *comm;
	FtlMarkers *markers;
	FtlCallTree *calls;
	FtlFuncStats *funcs;
	FtlLongest *longest;
	FtlSched *sched; /* --sched only */
} ReportAnalyses;

static void report_analyses_clear(ReportAnalyses *a)
{
	g_clear_pointer(&a->sched, ftl_sched_free);
	g_clear_pointer(&a->longest, ftl_longest_free);
	g_clear_pointer(&a->funcs, ftl_funcstats_free);
	g_clear_pointer(&a->calls, ftl_calltree_free);
	g_clear_pointer(&a->markers, ftl_markers_free);
	g_clear_pointer(&a->comm, ftl_comm_free);
	g_clear_pointer(&a->quality, ftl_quality_free);
	g_clear_pointer(&a->counts, ftl_counts_free);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(ReportAnalyses, report_analyses_clear)

/* Makes the analyses and the pass that feeds them. */
static FtlPass *report_analyses(ReportAnalyses *a, FtlTrace *trace, FtlFuncStatsKey key,
				gboolean sched_on)
{
	a->counts = ftl_counts_new();
	a->quality = ftl_quality_new(trace);
	a->comm = ftl_comm_new(ftl_trace_tasks(trace), ftl_trace_pool(trace));
	a->markers = ftl_markers_new();
	a->calls = ftl_calltree_new(FTL_CALLTREE_GROUP_NONE, ftl_trace_diags(trace));
	a->funcs = ftl_funcstats_new(key);
	/* the call tree's thread is report's critical path at -j 2 and more */
	ftl_funcstats_set_threads(a->funcs, ftl_read_threads(ftl_trace_read_options(trace)));
	a->longest = ftl_longest_new(REPORT_LONGEST);
	ftl_calltree_set_no_tree(a->calls);
	ftl_calltree_add_on_call(a->calls, ftl_funcstats_add_call, a->funcs);
	ftl_calltree_add_on_call(a->calls, ftl_longest_add_call, a->longest);
	FtlPass *pass = ftl_pass_new();
	ftl_pass_add(pass, &ftl_counts_consumer, a->counts);
	ftl_pass_add(pass, &ftl_quality_consumer, a->quality);
	ftl_pass_add(pass, &ftl_comm_consumer, a->comm);
	ftl_pass_add(pass, &ftl_markers_consumer, a->markers);
	ftl_pass_add(pass, &ftl_calltree_consumer, a->calls);
	ftl_pass_add(pass, &ftl_funcstats_consumer, a->funcs);
	if (sched_on) {
		a->sched = ftl_sched_new(NULL);
		ftl_pass_add(pass, &ftl_sched_consumer, a->sched);
	}
	return pass;
}

gboolean ftl_cmd_report(const FtlCommand *cmd, int argc, char **argv, GError **error)
{
	g_autofree char *per = NULL, *sort_s = NULL;
	gint top = 15;
	double threshold_us = 0;
	gboolean sched_on = FALSE;
	g_autofree char *by_s = NULL;
	const GOptionEntry entries[] = {
		{ "top", 'n', 0, G_OPTION_ARG_INT, &top, "Rows per section in text (default 15)",
		  "N" },
		{ "threshold", 't', 0, G_OPTION_ARG_DOUBLE, &threshold_us,
		  "Hide functions whose total time is below USEC microseconds", "USEC" },
		{ "per", 0, 0, G_OPTION_ARG_STRING, &per, "Function statistics per cpu or task",
		  "cpu|task" },
		{ "sort", 's', 0, G_OPTION_ARG_STRING, &sort_s,
		  "Order of the function table: self, total, calls, avg, max, name",
		  "KEY" },
		{ "by", 0, 0, G_OPTION_ARG_STRING, &by_s,
		  "Add the functions summed by the source file or directory defining them "
		  "(needs the kernel's debug info)",
		  "file|dir" },
		{ "sched", 0, 0, G_OPTION_ARG_NONE, &sched_on,
		  "Add the scheduling summary: CPUs busy/idle, tasks (see ftlens sched)", NULL },
		{ NULL },
	};
	g_auto(FtlCliGlobals) g = { 0 };
	if (!ftl_cli_parse(cmd, entries, &g, &argc, &argv, error))
		return FALSE;
	FtlFormat format = g.format;
	FtlFuncStatsKey key = FTL_FUNCSTATS_BY_FUNC;
	FtlFuncStatsSort sort = FTL_FUNCSTATS_SORT_SELF;
	if (!report_check(&g, per, sort_s, top, threshold_us, &key, &sort, error))
		return FALSE;
	FtlSourceBy by = FTL_SOURCE_BY_FILE;
	if (by_s && !ftl_cli_parse_source_by("report", "--by", &g, by_s, &by, error))
		return FALSE;
	g.open_flags |= FTL_OPEN_NO_CALLERS; /* its markers table has no caller column */
	if (!ftl_cli_setup(&g, cmd->inputs, argc, argv, error))
		return FALSE;
	g_autoptr(FtlTrace) trace = ftl_cli_open_trace(&g, error);
	if (!trace)
		return FALSE;
	g_auto(ReportAnalyses) a = { 0 };
	g_autoptr(FtlPass) pass = report_analyses(&a, trace, key, sched_on);
	/* before the pass: a missing vmlinux is known without reading events */
	g_autoptr(FtlDebugInfo) dbg = by_s ? ftl_cli_source_debuginfo("report", &g, trace, error) : NULL;
	if (by_s && !dbg)
		return FALSE;
	g_autoptr(FtlSourceMap) sources = dbg ? ftl_source_map_new(dbg, by) : NULL;
	if (!ftl_pass_run(pass, trace, &g.filter, error) || !ftl_cli_finish(&g, trace, error))
		return FALSE;
	g_autofree char *why =
		ftl_funcstats_n_rows(a.funcs) ? NULL : ftl_cli_why_empty(&g, trace, a.counts);
	FtlReportData r = {
		.trace = trace,
		.counts = a.counts,
		.quality = a.quality,
		.funcs = a.funcs,
		.calls = a.calls,
		.longest = a.longest,
		.markers = a.markers,
		.top = (guint)top,
		.threshold = (gint64)(threshold_us * 1000),
		.origin = g.origin_ns,
		.sort = sort,
		.sort_given = sort_s != NULL,
		.sched = a.sched,
		.sources = sources,
		.style = &g.style,
		.empty_why = why };
	ftl_report_print(&r, format, stdout);
	return TRUE;
}
