/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ftlens timeline`: options, the scheduling and markers pass, the SVG
 * (views/svg-timeline.c) written through the output writer. */
#include "config.h"

#include <string.h>

#include "analysis/markers.h"
#include "analysis/pass.h"
#include "analysis/sched.h"
#include "cli/cli.h"
#include "util/error.h"
#include "util/output.h"
#include "util/scan.h"
#include "views/info.h"
#include "views/svg-timeline.h"

/* --tasks: "top N", "topN" or a comma list of pids. */
static gboolean timeline_tasks(const char *arg, FtlTimelineOptions *o, GError **error)
{
	guint64 n;
	if (g_str_has_prefix(arg, "top")) {
		const char *p = arg + 3;
		while (*p == ' ' || *p == ':' || *p == '=')
			p++;
		if (ftl_scan_u64_str(p, 10, &n) && n > 0 && n <= 1000) {
			o->top = (guint)n;
			return TRUE;
		}
	} else {
		g_auto(GStrv) parts = g_strsplit(arg, ",", -1);
		o->pids = g_array_new(FALSE, FALSE, sizeof(gint32));
		for (guint i = 0; parts[i]; i++) {
			if (!ftl_scan_u64_str(g_strstrip(parts[i]), 10, &n) || n == 0 ||
			    n > G_MAXINT32 || o->pids->len >= 1000)
				goto bad;
			gint32 pid = (gint32)n;
			g_array_append_val(o->pids, pid);
		}
		if (o->pids->len)
			return TRUE;
	}
bad:
	g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
		    "timeline: --tasks '%s': expected PID,... or 'top N' (N at most 1000)", arg);
	return FALSE;
}

/* "--tasks top N" as two words becomes "--tasks top:N" before parsing. */
static void timeline_join_top(int argc, char **argv, char **joined)
{
	for (int i = 1; i + 2 < argc; i++)
		if (!strcmp(argv[i], "--tasks") && !strcmp(argv[i + 1], "top")) {
			*joined = g_strdup_printf("top:%s", argv[i + 2]);
			argv[i + 1] = *joined;
			memmove(&argv[i + 2], &argv[i + 3], sizeof(char *) * (size_t)(argc - i - 2));
			return;
		}
}

static gboolean timeline_write(FtlTimeline *tl, FtlSched *s, FtlMarkers *m, const char *path,
			       char **inputs, GError **error)
{
	g_autoptr(FtlOutput) out = ftl_output_open(path, (const char *const *)inputs, error);
	if (!out)
		return FALSE;
	if (!ftl_timeline_write(tl, s, m, ftl_output_stream(out), error))
		return FALSE;
	return ftl_output_commit(out, error);
}

gboolean ftl_cmd_timeline(const FtlCommand *cmd, int argc, char **argv, GError **error)
{
	g_autofree char *output = NULL, *tasks = NULL, *joined = NULL;
	g_auto(GStrv) counter_specs = NULL;
	gint width = 1200;
	const GOptionEntry entries[] = {
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "The SVG to write", "OUT.svg" },
		{ "width", 'w', 0, G_OPTION_ARG_INT, &width,
		  "Plot width in pixels (default 1200, 200 to 20000)", "PX" },
		{ "counter", 0, 0, G_OPTION_ARG_STRING_ARRAY, &counter_specs,
		  "Also a counter lane: EVENT's numeric FIELD, per KEY field (default cpu_id, "
		  "else the CPU)",
		  "EVENT:FIELD[:KEY]" },
		{ "tasks", 0, 0, G_OPTION_ARG_STRING, &tasks,
		  "Also a lane per task: PID,... or 'top N' (running filled, runnable hollow)",
		  "LIST" },
		{ NULL },
	};
	timeline_join_top(argc, argv, &joined);
	if (joined)
		argc--;
	g_auto(FtlCliGlobals) g = { 0 };
	if (!ftl_cli_parse(cmd, entries, &g, &argc, &argv, error))
		return FALSE;
	FtlTimelineOptions o = { .width = (guint)width };
	g_autoptr(GArray) pids = NULL;
	if (!output || !*output) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE, "timeline: no output given (-o OUT.svg)");
		return FALSE;
	}
	if (width < 200 || width > 20000) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "timeline: --width %d: expected 200 to 20000 pixels", width);
		return FALSE;
	}
	if (tasks && !timeline_tasks(tasks, &o, error))
		return FALSE;
	pids = o.pids;
	if (!ftl_cli_setup(&g, cmd->inputs, argc, argv, error))
		return FALSE;
	g_autoptr(FtlTrace) trace = ftl_cli_open_trace(&g, error);
	if (!trace)
		return FALSE;
	o.input = ftl_trace_label(trace);
	g_autoptr(FtlSched) s = ftl_sched_new(NULL);
	g_autoptr(FtlMarkers) m = ftl_markers_new();
	g_autoptr(FtlTimeline) tl = ftl_timeline_new(&o);
	g_autoptr(FtlCounters) counters = ftl_counters_new_specs(counter_specs, error);
	if (!counters) {
		g_prefix_error(error, "timeline: ");
		return FALSE;
	}
	ftl_sched_add_on_interval(s, ftl_timeline_add, tl);
	ftl_sched_add_on_wakeup(s, ftl_timeline_add_wakeup, tl);
	ftl_counters_add_on_step(counters, ftl_timeline_add_counter, tl);
	ftl_timeline_set_counters(tl, counters);
	g_autoptr(FtlPass) pass = ftl_pass_new();
	ftl_pass_add(pass, &ftl_sched_consumer, s);
	ftl_pass_add(pass, &ftl_counters_consumer, counters);
	ftl_pass_add(pass, &ftl_markers_consumer, m);
	g_autoptr(FtlCounts) counts = ftl_counts_new();
	ftl_pass_add(pass, &ftl_counts_consumer, counts);
	if (!ftl_pass_run(pass, trace, &g.filter, error) || !ftl_cli_finish(&g, trace, error) ||
	    !ftl_counters_check_user(counters, "timeline", ftl_trace_label(trace), error))
		return FALSE;
	if (!ftl_counts_kind(counts, FTL_EVENT_SCHED_SWITCH))
		return ftl_cli_lacks(&g, trace, counts, "sched_switch events", error);
	if (!timeline_write(tl, s, m, output, argv + 1, error))
		return FALSE;
	if (ftl_diags_any(ftl_trace_diags(trace)))
		ftl_diags_print_text(stderr, ftl_trace_diags(trace));
	return TRUE;
}
