/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz target: the option parsers every command shares. The input is the
 * options' values, one per line: --time, --cpu, --pid, --span's START and
 * END, --relative-to, --wallclock (tests/fuzz/README.md); they are parsed as
 * ftl_cli_parse() and the markers command parse them, then applied to a small
 * trace with markers: the filtered pass, the spans and the markers view. */
#include "config.h"

#include "fuzz.h"

#include <string.h>

#include "analysis/markers.h"
#include "cli/cli.h"
#include "parse/open.h"
#include "views/markers.h"
#include "views/table.h"

enum { O_TIME, O_CPU, O_PID, O_SPAN_START, O_SPAN_END, O_RELATIVE, O_WALLCLOCK, O_N };

/* Markers on two CPUs and tasks, spans to pair, a switch to filter on. */
static const char options_trace[] =
	"# tracer: nop\n"
	"              sh-96      [000] .....     3.781262: tracing_mark_write: before a\n"
	"          <idle>-0       [001] d..2.     3.785720: sched_switch: prev_comm=swapper/1 "
	"prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=sh next_pid=105 next_prio=120\n"
	"              sh-105     [001] .....     3.790000: tracing_mark_write: a start\n"
	"              sh-96      [000] .....     3.800000: tracing_mark_write: a end\n"
	"              sh-96      [000] .....     3.936961: tracing_mark_write: after a\n";

static void options_view(const FtlMarkers *m, const FtlSpans *spans, const FtlCliGlobals *g,
			 const char *const *o)
{
	static const char *const names[] = { "markers text", "markers csv", "markers json" };
	for (int f = FTL_FORMAT_TEXT; f <= FTL_FORMAT_JSON; f++) {
		FtlMarkersViewOptions opt = {
			.format = (FtlFormat)f,
			.origin = g->origin_ns,
			.origin_pattern = g->relative_to,
			.wall_offset = g->wall_offset_ns,
			.wall_from_option = g->wall_offset_ns != FTL_TS_NONE,
			.style = &g->style,
			.top = 3,
			.span_start = spans ? o[O_SPAN_START] : NULL,
			.span_end = spans ? o[O_SPAN_END] : NULL,
		};
		guint anchor;
		if (!opt.wall_from_option)
			ftl_markers_wall_anchor(m, &anchor, &opt.wall_offset);
		FuzzCapture c;
		ftl_markers_print(m, spans, &opt, fuzz_capture_open(&c));
		fuzz_capture_check(&c, names[f], f);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_init();
	g_autofree char *text = g_strndup((const char *)data, size);
	char *o[O_N] = { NULL };
	char *p = text;
	for (int i = 0; i < O_N && p; i++) {
		char *nl = strchr(p, '\n');
		if (nl)
			*nl = 0;
		o[i] = *p ? p : NULL;
		p = nl ? nl + 1 : NULL;
	}
	g_auto(FtlCliGlobals) g = { 0 };
	ftl_filter_init(&g.filter);
	g.origin_ns = g.wall_offset_ns = FTL_TS_NONE;
	g_autoptr(GError) error = NULL;
	if ((o[O_TIME] && !ftl_filter_parse_time(o[O_TIME], &g.filter.t_start, &g.filter.t_end,
						 &error)) ||
	    (o[O_CPU] && !ftl_filter_parse_list(o[O_CPU], &g.filter.cpus, &error)) ||
	    (o[O_PID] && !ftl_filter_parse_list(o[O_PID], &g.filter.pids, &error)))
		return 0;
	g_autoptr(FtlSpans) spans = NULL;
	if (o[O_SPAN_START] && o[O_SPAN_END] &&
	    !(spans = ftl_spans_new(o[O_SPAN_START], o[O_SPAN_END], &error)))
		return 0;
	char *argv[] = { "markers",
			 (char *)fuzz_memfile(1, (const guint8 *)options_trace,
					      sizeof options_trace - 1),
			 NULL };
	g.relative_to = g_strdup(o[O_RELATIVE]);
	g.wallclock = g_strdup(o[O_WALLCLOCK]);
	g.cmd = ftl_cli_find("markers");
	if (!ftl_cli_setup(&g, g.cmd->inputs, 2, argv, &error))
		return 0;
	g_autoptr(FtlTrace) trace = ftl_trace_open_with(argv[1], FTL_OPEN_NONE, &fuzz_read, &error);
	g_assert(trace);
	g_autoptr(FtlMarkers) m = ftl_markers_new();
	g_autoptr(FtlPass) pass = ftl_pass_new();
	ftl_pass_add(pass, &ftl_markers_consumer, m);
	if (spans)
		ftl_pass_add(pass, &ftl_spans_consumer, spans);
	if (ftl_pass_run(pass, trace, &g.filter, &error))
		options_view(m, spans, &g, (const char *const *)o);
	return 0;
}
