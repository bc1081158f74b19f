/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ftlens sched`: options, the scheduling pass (per marker span on request),
 * the view (views/sched.c). */
#include "config.h"

#include <string.h>

#include "analysis/counters.h"
#include "analysis/markers.h"
#include "analysis/pass.h"
#include "analysis/sched.h"
#include "cli/cli.h"
#include "util/error.h"
#include "views/info.h"
#include "views/sched.h"

/* The spans' windows come from a pass of their own: a window must be known
 * before the pass that fills it. */
static gboolean sched_add_spans(FtlSched *s, FtlCliGlobals *g, const char *start, const char *end,
				GError **error)
{
	g_autoptr(FtlSpans) spans = ftl_spans_new(start, end, error);
	if (!spans)
		return FALSE;
	g_autoptr(FtlTrace) trace = ftl_cli_open_trace(g, error);
	if (!trace)
		return FALSE;
	g_autoptr(FtlPass) pass = ftl_pass_new();
	ftl_pass_add(pass, &ftl_spans_consumer, spans);
	if (!ftl_pass_run(pass, trace, &g->filter, error))
		return FALSE;
	for (guint i = 0; i < ftl_spans_count(spans); i++) {
		const FtlSpan *sp = ftl_spans_get(spans, i);
		if (sp->duration != FTL_TS_NONE)
			ftl_sched_add_window(s, sp->start.text, sp->start.ts, sp->end.ts);
	}
	return TRUE;
}

typedef struct {
	char *sort, *from, *span_start, *span_end;
	char **counters;
	gint top, worst;
	gboolean wakeups;
} SchedArgs;

static void sched_args_clear(SchedArgs *a)
{
	g_free(a->sort);
	g_free(a->from);
	g_free(a->span_start);
	g_free(a->span_end);
	g_strfreev(a->counters);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(SchedArgs, sched_args_clear)

static gboolean sched_check(const SchedArgs *a, FtlSchedViewOptions *v, FtlSchedOptions *o,
			    GError **error)
{
	if (a->sort && !ftl_sched_parse_sort(a->sort, &v->sort)) {
		g_set_error(
			error, FTL_ERROR, FTL_ERROR_USAGE,
			"sched: --sort '%s': expected run, wait, switches, latency, pid or comm",
			a->sort);
		return FALSE;
	}
	if (a->from && strcmp(a->from, "sched_waking") && strcmp(a->from, "sched_wakeup")) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "sched: --wakeup-event '%s': expected sched_waking or sched_wakeup",
			    a->from);
		return FALSE;
	}
	if (a->top < 0 || a->worst < 0 || a->worst > 10000) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "sched: --top and --worst take a count (--worst at most 10000)");
		return FALSE;
	}
	v->top = (guint)a->top;
	o->worst = (guint)a->worst;
	o->wake_from = a->from && !strcmp(a->from, "sched_wakeup") ? FTL_SCHED_WAKE_WAKEUP
								   : FTL_SCHED_WAKE_FIRST;
	return TRUE;
}

gboolean ftl_cmd_sched(const FtlCommand *cmd, int argc, char **argv, GError **error)
{
	g_auto(SchedArgs) a = { .top = 20, .worst = 10 };
	char *span_help = NULL; /* never set: --per-span is taken out of argv first */
	const GOptionEntry entries[] = {
		{ "sort", 's', 0, G_OPTION_ARG_STRING, &a.sort,
		  "Order of the tasks: run, wait, switches, latency, pid, comm", "KEY" },
		{ "top", 'n', 0, G_OPTION_ARG_INT, &a.top, "Task rows in text (default 20, 0 all)",
		  "N" },
		{ "worst", 0, 0, G_OPTION_ARG_INT, &a.worst, "Worst wakeups listed (default 10)",
		  "N" },
		{ "wakeups", 0, 0, G_OPTION_ARG_NONE, &a.wakeups,
		  "List every wakeup with its latency instead of the summary", NULL },
		{ "wakeup-event", 0, 0, G_OPTION_ARG_STRING, &a.from,
		  "Latency from sched_waking (default; sched_wakeup without it) or sched_wakeup "
		  "(as trace-cmd report -w)",
		  "EVENT" },
		{ "counter", 0, 0, G_OPTION_ARG_STRING_ARRAY, &a.counters,
		  "Also a counter track: EVENT's numeric FIELD, per KEY field (default cpu_id, "
		  "else the CPU)",
		  "EVENT:FIELD[:KEY]" },
		{ "per-span", 0, 0, G_OPTION_ARG_STRING, &span_help,
		  "The same figures per marker span: START and END are regexes as markers --span",
		  "START END" },
		{ NULL },
	};
	if (!ftl_cli_take_pair("sched", "--per-span", &argc, argv, &a.span_start, &a.span_end, error))
		return FALSE;
	g_auto(FtlCliGlobals) g = { 0 };
	gboolean parsed = ftl_cli_parse(cmd, entries, &g, &argc, &argv, error);
	g_free(span_help);
	if (!parsed)
		return FALSE;
	FtlSchedViewOptions v = { .format = g.format, .sort = FTL_SCHED_SORT_RUN };
	FtlSchedOptions o = { 0 };
	if (!sched_check(&a, &v, &o, error) || !ftl_cli_setup(&g, cmd->inputs, argc, argv, error))
		return FALSE;
	g_autoptr(FtlSched) s = ftl_sched_new(&o);
	g_autoptr(FtlCounters) counters = ftl_counters_new_specs(a.counters, error);
	if (!counters) {
		g_prefix_error(error, "sched: ");
		return FALSE;
	}
	if (a.span_start && !sched_add_spans(s, &g, a.span_start, a.span_end, error))
		return FALSE;
	g_autoptr(FtlTrace) trace = ftl_cli_open_trace(&g, error);
	if (!trace)
		return FALSE;
	v.origin = g.origin_ns;
	v.input = ftl_trace_label(trace);
	v.style = &g.style;
	g_autoptr(FtlSchedWakeupList) list = NULL;
	if (a.wakeups) {
		list = ftl_sched_wakeup_list_new(v.origin);
		ftl_sched_add_on_wakeup(s, ftl_sched_wakeup_list_add, list);
	}
	g_autoptr(FtlPass) pass = ftl_pass_new();
	ftl_pass_add(pass, &ftl_sched_consumer, s);
	ftl_pass_add(pass, &ftl_counters_consumer, counters);
	v.counters = counters;
	if (!ftl_pass_run(pass, trace, &g.filter, error) || !ftl_cli_finish(&g, trace, error) ||
	    !ftl_counters_check_user(counters, "sched", ftl_trace_label(trace), error))
		return FALSE;
	if (list)
		ftl_sched_wakeup_list_print(list, v.format, stdout, &g.style);
	else
		ftl_sched_print(s, &v, stdout);
	if (ftl_diags_any(ftl_trace_diags(trace)))
		ftl_diags_print_text(stderr, ftl_trace_diags(trace));
	return TRUE;
}
