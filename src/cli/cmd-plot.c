/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ftlens plot KIND`: options, the scheduling pass, the gnuplot view
 * (views/plot-gnuplot.c). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "analysis/pass.h"
#include "analysis/sched.h"
#include "cli/cli.h"
#include "util/error.h"
#include "views/info.h"
#include "views/plot-gnuplot.h"

static gboolean plot_size(const char *s, FtlPlotOptions *o, GError **error)
{
	guint w, h;
	char tail;
	if (!s)
		return TRUE;
	if (sscanf(s, "%ux%u%c", &w, &h, &tail) != 2 || w < 100 || h < 100 || w > 10000 ||
	    h > 10000) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "plot: --size '%s': expected WIDTHxHEIGHT in pixels, 100 to 10000", s);
		return FALSE;
	}
	o->width = w;
	o->height = h;
	return TRUE;
}

gboolean ftl_cmd_plot(int argc, char **argv, GError **error)
{
	g_autofree char *output = NULL, *size = NULL;
	gboolean script_only = FALSE;
	gint bins = 200;
	const GOptionEntry entries[] = {
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
		  "The picture: OUT.png, OUT.svg or OUT.pdf (OUT.dat and OUT.gp beside it)",
		  "OUT" },
		{ "size", 0, 0, G_OPTION_ARG_STRING, &size, "Picture size (default 1000x600)",
		  "WxH" },
		{ "bins", 0, 0, G_OPTION_ARG_INT, &bins, "cpu: time bins (default 200)", "N" },
		{ "script-only", 0, 0, G_OPTION_ARG_NONE, &script_only,
		  "Write OUT.dat and OUT.gp, do not run gnuplot", NULL },
		{ NULL },
	};
	g_auto(FtlCliGlobals) g = { 0 };
	if (!ftl_cli_parse(ftl_cli_find("plot"), entries, &g, &argc, &argv, error))
		return FALSE;
	FtlPlotOptions o = { .width = 1000, .height = 600, .script_only = script_only };
	if (argc < 2 || !ftl_plot_parse_kind(argv[1], &o.kind)) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "plot: KIND '%s': expected latency or cpu", argc < 2 ? "" : argv[1]);
		return FALSE;
	}
	if (!output || !*output) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE, "plot: no output given (-o OUT.png)");
		return FALSE;
	}
	if (bins < 1 || bins > 100000) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE, "plot: --bins %d: expected 1 to 100000",
			    bins);
		return FALSE;
	}
	o.bins = (guint)bins;
	o.output = output;
	if (!plot_size(size, &o, error))
		return FALSE;
	/* the files follow the kind */
	argv[1] = argv[0];
	argc--;
	argv++;
	g_autoptr(FtlTrace) trace = ftl_cli_open_trace(&g, argc, argv, error);
	if (!trace)
		return FALSE;
	o.input = ftl_trace_label(trace);
	g_autoptr(FtlPlot) p = ftl_plot_new(&o, error);
	if (!p)
		return FALSE;
	g_autoptr(FtlSched) s = ftl_sched_new(NULL);
	ftl_sched_add_on_wakeup(s, ftl_plot_add_wakeup, p);
	ftl_sched_add_on_interval(s, ftl_plot_add_interval, p);
	g_autoptr(FtlPass) pass = ftl_pass_new();
	ftl_pass_add(pass, &ftl_sched_consumer, s);
	if (!ftl_pass_run(pass, trace, &g.filter, error))
		return FALSE;
	if (!ftl_plot_write(p, s, (const char *const *)argv + 1, error))
		return FALSE;
	if (ftl_diags_any(ftl_trace_diags(trace)))
		ftl_diags_print_text(stderr, ftl_trace_diags(trace));
	return TRUE;
}
