/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ftlens report`: one streaming pass feeding every analysis the report shows. */
#include "config.h"

#include <string.h>

#include "analysis/comm.h"
#include "cli/cli.h"
#include "cli/pass.h"
#include "util/error.h"
#include "views/report.h"

gboolean ftl_cmd_report(int argc, char **argv, GError **error)
{
	g_autofree char *format_s = NULL, *per = NULL, *sort_s = NULL;
	gint top = 15;
	double threshold_us = 0;
	const GOptionEntry entries[] = {
		{ "format", 'F', 0, G_OPTION_ARG_STRING, &format_s, "text, csv or json", "FMT" },
		{ "top", 'n', 0, G_OPTION_ARG_INT, &top, "Rows per section in text (default 15)",
		  "N" },
		{ "threshold", 't', 0, G_OPTION_ARG_DOUBLE, &threshold_us,
		  "Hide functions whose total time is below USEC microseconds", "USEC" },
		{ "per", 0, 0, G_OPTION_ARG_STRING, &per, "Function statistics per cpu or task",
		  "cpu|task" },
		{ "sort", 's', 0, G_OPTION_ARG_STRING, &sort_s,
		  "Order of the function table in csv/json: self, total, calls, avg, max, name",
		  "KEY" },
		{ NULL },
	};
	g_auto(FtlCliGlobals) g = { 0 };
	if (!ftl_cli_parse(ftl_cli_find("report"), entries, &g, &argc, &argv, error))
		return FALSE;
	FtlFormat format = FTL_FORMAT_TEXT;
	if (format_s && !ftl_format_parse(format_s, &format, error))
		return FALSE;
	FtlFuncStatsKey key = FTL_FUNCSTATS_BY_FUNC;
	if (per && !strcmp(per, "cpu"))
		key = FTL_FUNCSTATS_BY_CPU;
	else if (per && !strcmp(per, "task"))
		key = FTL_FUNCSTATS_BY_TASK;
	else if (per) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "report: --per '%s': expected cpu or task", per);
		return FALSE;
	}
	FtlFuncStatsSort sort = FTL_FUNCSTATS_SORT_SELF;
	if (sort_s && !ftl_funcstats_parse_sort(sort_s, &sort)) {
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
	if (!ftl_cli_time_origin(&g, argc, argv, error))
		return FALSE;
	g_autoptr(FtlPass) pass =
		ftl_pass_run(&g, argc, argv, key, FTL_CALLTREE_GROUP_NONE, NULL, error);
	if (!pass)
		return FALSE;
	FtlReportData r = {
		.trace = pass->trace,
		.dialect = pass->dialect,
		.counts = pass->counts,
		.quality = pass->quality,
		.funcs = pass->funcs,
		.tree = pass->tree,
		.longest = pass->longest,
		.markers = pass->markers,
		.top = (guint)top,
		.threshold = (gint64)(threshold_us * 1000),
		.origin = g.origin_ns,
	};
	if (format != FTL_FORMAT_TEXT && sort != FTL_FUNCSTATS_SORT_SELF) {
		/* csv/json list functions in the order asked */
		ftl_funcstats_sorted(pass->funcs, sort);
	}
	ftl_report_print(&r, format, stdout);
	return TRUE;
}
