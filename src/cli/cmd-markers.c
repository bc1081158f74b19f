/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ftlens markers`: options, one pass over markers and spans, the view
 * (views/markers.c). */
#include "config.h"

#include <string.h>

#include "analysis/markers.h"
#include "analysis/pass.h"
#include "cli/cli.h"
#include "util/error.h"
#include "views/info.h"
#include "views/markers.h"

gboolean ftl_cmd_markers(const FtlCommand *cmd, int argc, char **argv, GError **error)
{
	g_autofree char *span_start = NULL;
	g_autofree char *span_end = NULL;
	char *span_help = NULL; /* never set: --span is taken out of argv first */
	gint top = 5;
	const GOptionEntry entries[] = {
		{ "span", 0, 0, G_OPTION_ARG_STRING, &span_help,
		  "Pair markers into spans: START and END are regexes; END may use \\1..\\9 "
		  "for START's groups",
		  "START END" },
		{ "top", 0, 0, G_OPTION_ARG_INT, &top,
		  "Functions shown per CPU and span (by self time; default 5)", "N" },
		{ NULL },
	};
	if (!ftl_cli_take_pair("markers", "--span", &argc, argv, &span_start, &span_end, error))
		return FALSE;
	g_auto(FtlCliGlobals) g = { 0 };
	gboolean parsed = ftl_cli_parse(cmd, entries, &g, &argc, &argv, error);
	g_free(span_help);
	if (!parsed)
		return FALSE;
	FtlMarkersViewOptions opt = { .format = g.format,
				      .span_start = span_start,
				      .span_end = span_end,
				      .style = &g.style };
	if (top < 0) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE, "markers: --top %d: expected N >= 0",
			    top);
		return FALSE;
	}
	opt.top = (guint)top;
	g_autoptr(FtlSpans) spans = NULL;
	if (span_start && !(spans = ftl_spans_new(span_start, span_end, error)))
		return FALSE;
	if (!ftl_cli_setup(&g, cmd->inputs, argc, argv, error))
		return FALSE;
	g_autoptr(FtlTrace) trace = ftl_cli_open_trace(&g, error);
	if (!trace)
		return FALSE;
	g_autoptr(FtlMarkers) m = ftl_markers_new();
	g_autoptr(FtlPass) pass = ftl_pass_new();
	ftl_pass_add(pass, &ftl_markers_consumer, m);
	if (spans)
		ftl_pass_add(pass, &ftl_spans_consumer, spans);
	if (!ftl_pass_run(pass, trace, &g.filter, error) || !ftl_cli_finish(&g, trace, error))
		return FALSE;
	opt.origin = g.origin_ns;
	opt.origin_pattern = g.relative_to;
	opt.wall_offset = g.wall_offset_ns;
	opt.wall_from_option = opt.wall_offset != FTL_TS_NONE;
	guint anchor;
	if (!opt.wall_from_option)
		ftl_markers_wall_anchor(m, &anchor, &opt.wall_offset);
	ftl_markers_print(m, spans, &opt, stdout);
	if (ftl_diags_any(ftl_trace_diags(trace)))
		ftl_diags_print_text(stderr, ftl_trace_diags(trace));
	return TRUE;
}
