/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ftlens plot KIND`: options, the scheduling pass, the gnuplot view
 * (views/plot-gnuplot.c). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "analysis/calltree.h"
#include "analysis/markers.h"
#include "analysis/pass.h"
#include "analysis/rate.h"
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

/* stack: the stack tracer's files, read whole (they are not events). */
static gboolean plot_stack_files(FtlPlotOptions *o, FtlCliGlobals *g, int argc, char **argv,
				 GError **error)
{
	if (!ftl_cli_no_selection(g, "plot stack", error) ||
	    !ftl_cli_setup(g, FTL_INPUT_STACKS, argc, argv, error))
		return FALSE;
	g_autofree char *label = argc > 2 ? g_strdup_printf("%s and %d more", argv[1], argc - 2)
					  : g_strdup(argv[1]);
	o->input = label;
	g_autoptr(FtlPlot) p = ftl_plot_new(o, error);
	if (!p)
		return FALSE;
	g_autoptr(FtlStackSet) set = ftl_stack_set_new();
	if (!ftl_inputs_read_stacks(g->inputs, set, error))
		return FALSE;
	FtlPlotData in = { .stack = set };
	return ftl_plot_write(p, &in, (const char *const *)argv + 1, error);
}

/* The other kinds: one pass over the trace with what the kind plots. */
static gboolean plot_trace(FtlPlotOptions *o, FtlRateBy by, FtlCliGlobals *g, int argc,
			   char **argv, GError **error)
{
	if (!ftl_cli_setup(g, FTL_INPUT_EVENTS, argc, argv, error))
		return FALSE;
	g_autoptr(FtlTrace) trace = ftl_cli_open_trace(g, error);
	if (!trace)
		return FALSE;
	o->input = ftl_trace_label(trace);
	g_autoptr(FtlPlot) p = ftl_plot_new(o, error);
	if (!p)
		return FALSE;
	g_autoptr(FtlSched) s = ftl_sched_new(NULL);
	g_autoptr(FtlCallTree) calls = NULL;
	g_autoptr(FtlRate) rate = NULL;
	g_autoptr(FtlMarkers) markers = NULL;
	g_autoptr(FtlPass) pass = ftl_pass_new();
	if (o->kind == FTL_PLOT_DURATIONS) {
		calls = ftl_calltree_new(FTL_CALLTREE_GROUP_NONE, ftl_trace_diags(trace));
		ftl_calltree_set_no_tree(calls);
		ftl_calltree_add_on_call(calls, ftl_plot_add_call, p);
		ftl_pass_add(pass, &ftl_calltree_consumer, calls);
	} else if (o->kind == FTL_PLOT_RATE) {
		rate = ftl_rate_new(by, o->bins);
		markers = ftl_markers_new();
		ftl_pass_add(pass, &ftl_rate_consumer, rate);
		ftl_pass_add(pass, &ftl_markers_consumer, markers);
	} else {
		ftl_sched_add_on_interval(s, ftl_plot_add_interval, p);
		ftl_pass_add(pass, &ftl_sched_consumer, s);
	}
	g_autoptr(FtlCounts) counts = ftl_counts_new();
	ftl_pass_add(pass, &ftl_counts_consumer, counts);
	if (!ftl_pass_run(pass, trace, &g->filter, error) || !ftl_cli_finish(g, trace, error))
		return FALSE;
	if (o->kind == FTL_PLOT_DURATIONS && !ftl_counts_kind(counts, FTL_EVENT_FUNC_ENTRY) &&
	    !ftl_counts_kind(counts, FTL_EVENT_FUNC_EXIT))
		return ftl_cli_lacks(g, trace, counts, "function_graph calls", error);
	/* cpu needs no sched_switch: the task each event names tells who ran */
	if (o->kind == FTL_PLOT_LATENCY && !ftl_counts_kind(counts, FTL_EVENT_SCHED_WAKEUP))
		return ftl_cli_lacks(g, trace, counts, "wakeup events (sched_wakeup, sched_waking)",
				     error);
	FtlPlotData in = { .sched = s, .rate = rate, .markers = markers };
	if (!ftl_plot_write(p, &in, (const char *const *)argv + 1, error))
		return FALSE;
	if (ftl_diags_any(ftl_trace_diags(trace)))
		ftl_diags_print_text(stderr, ftl_trace_diags(trace));
	return TRUE;
}

/* What only some kinds take: -f for durations (and only there), --by. */
static gboolean plot_kind_options(FtlPlotOptions *o, char **functions, const char *by_s,
				  FtlRateBy *by, GError **error)
{
	if ((o->kind == FTL_PLOT_DURATIONS) != (functions && *functions)) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    o->kind == FTL_PLOT_DURATIONS
				    ? "plot durations: name the functions with -f FUNC (one -f each)"
				    : "plot: -f FUNC is for the durations kind");
		return FALSE;
	}
	o->functions = (const char *const *)functions;
	*by = FTL_RATE_BY_CPU;
	if (!by_s)
		return TRUE;
	if (o->kind != FTL_PLOT_RATE || (strcmp(by_s, "cpu") && strcmp(by_s, "event"))) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "plot: --by '%s': expected cpu or event, with the rate kind", by_s);
		return FALSE;
	}
	*by = strcmp(by_s, "cpu") ? FTL_RATE_BY_EVENT : FTL_RATE_BY_CPU;
	return TRUE;
}

gboolean ftl_cmd_plot(const FtlCommand *cmd, int argc, char **argv, GError **error)
{
	g_autofree char *output = NULL, *size = NULL, *by_s = NULL;
	g_auto(GStrv) functions = NULL;
	gboolean script_only = FALSE;
	gint bins = 200;
	const GOptionEntry entries[] = {
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
		  "The picture: OUT.png, OUT.svg or OUT.pdf (OUT.dat and OUT.gp beside it)",
		  "OUT" },
		{ "size", 0, 0, G_OPTION_ARG_STRING, &size, "Picture size (default 1000x600)",
		  "WxH" },
		{ "bins", 0, 0, G_OPTION_ARG_INT, &bins, "cpu, rate: time bins (default 200)", "N" },
		{ "function", 'f', 0, G_OPTION_ARG_STRING_ARRAY, &functions,
		  "durations: a function to plot (repeat for more)", "FUNC" },
		{ "by", 0, 0, G_OPTION_ARG_STRING, &by_s, "rate: a line per cpu (default) or event",
		  "cpu|event" },
		{ "script-only", 0, 0, G_OPTION_ARG_NONE, &script_only,
		  "Write OUT.dat and OUT.gp, do not run gnuplot", NULL },
		{ NULL },
	};
	g_auto(FtlCliGlobals) g = { 0 };
	if (!ftl_cli_parse(cmd, entries, &g, &argc, &argv, error))
		return FALSE;
	FtlPlotOptions o = { .width = 1000, .height = 600, .script_only = script_only };
	if (argc < 2 || !ftl_plot_parse_kind(argv[1], &o.kind)) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "plot: KIND '%s': expected durations, latency, rate, cpu or stack",
			    argc < 2 ? "" : argv[1]);
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
	FtlRateBy by;
	if (!plot_size(size, &o, error) || !plot_kind_options(&o, functions, by_s, &by, error))
		return FALSE;
	/* the files follow the kind */
	argv[1] = argv[0];
	argc--;
	argv++;
	/* a bad -o is a usage error before any input is read */
	g_autoptr(FtlPlot) check = ftl_plot_new(&o, error);
	if (!check)
		return FALSE;
	if (o.kind == FTL_PLOT_STACK)
		return plot_stack_files(&o, &g, argc, argv, error);
	return plot_trace(&o, by, &g, argc, argv, error);
}
