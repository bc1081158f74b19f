/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The options `record` and `capture-script` share, declared once. */
#include "config.h"

#include "cli/capture-opts.h"

#include <string.h>

void ftl_capture_opts_entries(FtlCaptureOpts *o, GOptionEntry *out)
{
	const GOptionEntry entries[FTL_CAPTURE_OPTS_N] = {
		{ "tracer", 'p', 0, G_OPTION_ARG_STRING, &o->tracer,
		  "Tracer (function, function_graph, ...)", "TRACER" },
		{ "buffer-size", 'b', 0, G_OPTION_ARG_INT, &o->buffer_kb, "Ring buffer KB per CPU",
		  "KB" },
		{ "clock", 'C', 0, G_OPTION_ARG_STRING, &o->clock, "Trace clock (see trace_clock)",
		  "CLOCK" },
		{ "function", 'l', 0, G_OPTION_ARG_STRING_ARRAY, &o->ftrace_filter,
		  "Trace only this function (set_ftrace_filter; globs; repeatable)", "FUNC" },
		{ "notrace", 'n', 0, G_OPTION_ARG_STRING_ARRAY, &o->notrace,
		  "Never trace this function (set_ftrace_notrace)", "FUNC" },
		{ "graph-function", 'g', 0, G_OPTION_ARG_STRING_ARRAY, &o->graph,
		  "Graph only below this function (set_graph_function)", "FUNC" },
		{ "max-graph-depth", 0, 0, G_OPTION_ARG_INT, &o->max_depth,
		  "function_graph depth limit", "N" },
		{ "option", 'O', 0, G_OPTION_ARG_STRING_ARRAY, &o->options,
		  "Trace option on (NAME) or off (noNAME, no-NAME) (repeatable)", "OPTION" },
	};
	memcpy(out, entries, sizeof entries);
}

void ftl_capture_opts_clear(FtlCaptureOpts *o)
{
	g_clear_pointer(&o->tracer, g_free);
	g_clear_pointer(&o->clock, g_free);
	g_clear_pointer(&o->ftrace_filter, g_strfreev);
	g_clear_pointer(&o->notrace, g_strfreev);
	g_clear_pointer(&o->graph, g_strfreev);
	g_clear_pointer(&o->options, g_strfreev);
}

char **ftl_capture_opts_split_command(int *argc, char **argv)
{
	for (int i = 1; i < *argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			*argc = i;
			return argv + i + 1;
		}
	}
	return NULL;
}
